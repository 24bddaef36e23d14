"""Siege of Olympus's keywords: one test for each of the 17 (and the Underworld, the discard pile), each
quoting the keyword's line of shared/rules/siege-of-olympus.txt and the RULINGS.md entry that makes it
precise. The cards used are the set's own (cards.toml); boards are placed by hand (tests/siege_helpers.py).
"""

from __future__ import annotations

from engine.games.siege_of_olympus.cards import KEYWORDS, MINIONS, SPELLS
from tests.siege_helpers import (
    attack,
    attack_of,
    check_quotes,
    commander,
    do,
    end_turn,
    fresh,
    game,
    health_of,
    hold,
    keys,
    life,
    menu,
    minion,
    no_quote,
    offers,
    on_side,
    phase,
    place,
    recruit,
    say,
    top,
)

PRISONERS = ["themis", "crius", "coeus", "stheno", "theseus", "ocypete"]
AGORA = ["thunderbolt", "katabasis", "oracle_of_delphi", "nectar_and_ambrosia"]


def test_reborn() -> None:
    """ "Reborn Take a Minion from the Underworld to your Hand (You cannot summon it this turn)." — RULINGS
    23: "Its player chooses a minion card in the Underworld (public) and puts it in their Hand, marked as not
    summonable this turn" """
    s = fresh(hands=(["orpheus"], []))
    place(s, 0, "cottus")
    s.underworld = ["crius", "thunderbolt", "ares"]
    say(s, 0, "Summon a minion", "Orpheus")
    assert top(s) == "pick" and keys(s, 0) == {"pick:c=crius", "pick:c=ares"}, "minions only"
    do(s, 0, "pick:c=crius")
    assert s.sides[0].hand == ["crius"] and s.underworld == ["thunderbolt", "ares"]
    assert "summon:c=crius" not in keys(s, 0)
    end_turn(s)
    end_turn(s)
    assert "summon:c=crius" in keys(s, 0)


def test_reborn_with_an_empty_underworld_does_nothing() -> None:
    """ "Reborn Take a Minion from the Underworld to your Hand" — RULINGS 23: "Empty Underworld: nothing." """
    s = fresh(hands=(["katabasis"], []))
    s.underworld = ["thunderbolt"]
    say(s, 0, "Play a spell", "Katabasis")
    assert top(s) is None and s.sides[0].hand == [] and s.underworld == ["thunderbolt", "katabasis"]


def test_ambush() -> None:
    """ "Ambush Select an enemy minion for an attack target (You can select only 1 each turn)." — RULINGS 21:
    "a minion with Ambush is summoned from the Hand (its cost met, the 8-minion limit respected" """
    s = fresh(hands=([], ["artemis", "trojan_horse", "oath_on_the_styx"]))
    ares, heracles = place(s, 0, "ares"), place(s, 0, "heracles")
    atlas = place(s, 1, "atlas")  # 2/6
    phase(s, "attack")
    do(s, 0, f"attack:u={ares.uid}:t={atlas.uid}")
    assert top(s) == "window" and offers(s, 1, "Respond", "Artemis")
    say(s, 1, "Respond", "Artemis")
    artemis = minion(s, "artemis")
    assert artemis.owner == 1 and not artemis.attacked, "it keeps its own attack for its next turn"
    assert ares.damage == 2 + 2, "Artemis's strike (ranged: nothing back), then Atlas strikes back"
    assert atlas.damage == 5
    do(s, 0, f"attack:u={heracles.uid}:t={atlas.uid}")
    assert menu(s, 1) == [("Pass",), ("Respond", "Oath on the Styx")], "only 1 Ambush each turn"


def test_ambush_spell_one_of_your_minions_attacks() -> None:
    """ "Ambush Select an enemy minion for an attack target" — RULINGS 21: "`strike` — the named minion (this
    one, or one you choose) attacks it at once, under 14" — "If the attacking minion is destroyed, its attack
    does not happen (it counts as having attacked)." """
    s = fresh(hands=([], ["trojan_horse"]))
    crius = place(s, 0, "crius")  # 3/2
    themis, hydra = place(s, 1, "themis"), place(s, 1, "hydra")
    phase(s, "attack")
    do(s, 0, f"attack:u={crius.uid}:t={themis.uid}")
    say(s, 1, "Respond", "Trojan Horse")
    assert top(s) == "pick" and game.to_act(s) == (1,)
    do(s, 1, f"pick:t={hydra.uid}")
    assert crius not in s.sides[0].minions and "trojan_horse" in s.underworld
    assert hydra.damage == 3 and themis.damage == 0, "the attack did not happen"


def test_an_ambush_strike_is_an_attack_for_when_this_is_attacked() -> None:
    """ "Ambush Select an enemy minion for an attack target" — RULINGS 21: "The strike is an attack" — "the
    attacking minion's "When this is attacked" triggers fire before its blows, as for any attack" """
    s = fresh(hands=([], ["artemis"]))
    cottus = place(s, 0, "cottus")  # When this is attacked: Deal 1 damage to the attacking minion.
    atlas = place(s, 1, "atlas")
    phase(s, "attack")
    do(s, 0, f"attack:u={cottus.uid}:t={atlas.uid}")
    say(s, 1, "Respond", "Artemis")  # ranged: Cottus does not strike back at it
    artemis = minion(s, "artemis")
    assert artemis.damage == 1, "Cottus's trigger hit the striker"
    assert cottus.damage == attack_of(s, artemis) + attack_of(s, atlas) and atlas.damage == attack_of(
        s, cottus
    )
    s = fresh(hands=([], ["cerberus"]))
    stheno = place(s, 0, "stheno")  # When this is attacked: Paralyze the attacking minion.
    place(s, 1, "atlas")
    phase(s, "attack")
    do(s, 0, f"attack:u={stheno.uid}:t={minion(s, 'atlas').uid}")
    say(s, 1, "Respond", "Cerberus")
    assert minion(s, "cerberus").paralyzed == s.turn + 1, "paralyzed for its controller's next turn"


def test_disrupt() -> None:
    """ "Disrupt Negate an enemy minion's Attack or a card's Effect." — RULINGS 22: "A negated attack deals no
    damage and the attacker counts as having attacked (the turn's target stays fixed)" """
    s = fresh(hands=([], ["nemesis", "oath_on_the_styx"]))
    ares, heracles = place(s, 0, "ares"), place(s, 0, "heracles")
    atlas, themis = place(s, 1, "atlas"), place(s, 1, "themis")
    phase(s, "attack")
    do(s, 0, f"attack:u={ares.uid}:t={atlas.uid}")
    say(s, 1, "Respond", "Nemesis")
    assert atlas.damage == 0 and ares.damage == 2, "negated, and Nemesis deals 2 to the attacker"
    k = keys(s, 0)
    assert not any(x.startswith(f"attack:u={ares.uid}") for x in k)
    assert (
        f"attack:u={heracles.uid}:t={atlas.uid}" in k and f"attack:u={heracles.uid}:t={themis.uid}" not in k
    )


def test_disrupt_negates_a_spell_and_a_summon_effect() -> None:
    """ "Disrupt Negate an enemy minion's Attack or a card's Effect." — RULINGS 22: "a negated spell goes to
    the Underworld with no effect; a negated Summon effect leaves its minion on the field" """
    s = fresh(hands=(["thunderbolt", "hyperion"], ["oath_on_the_styx", "nemesis"]))
    place(s, 0, "cottus")
    place(s, 0, "themis")
    atlas = place(s, 1, "atlas")
    say(s, 0, "Play a spell", "Thunderbolt")
    say(s, 1, "Respond", "Oath on the Styx")
    assert atlas.damage == 0 and s.underworld == ["oath_on_the_styx", "thunderbolt"]
    say(s, 0, "Summon a minion", "Hyperion")
    say(s, 1, "Respond", "Nemesis")
    hyperion = minion(s, "hyperion")
    assert hyperion in s.sides[0].minions and atlas.damage == 0 and hyperion.damage == 2


def test_free() -> None:
    """ "Free Take a minion from Tartarus to your Hand." — RULINGS 24: "by the same rule as recruiting, the
    taken minion cannot be summoned this turn. "Free up to N" takes one at a time, up to N. Tartarus is
    refilled only at the end of the turn." """
    s = fresh(hands=(["gates_of_tartarus"], []), tartarus=PRISONERS)
    place(s, 0, "cottus")
    say(s, 0, "Play a spell", "Gates of Tartarus")
    do(s, 0, f"pick:t={minion(s, 'crius').uid}")
    assert top(s) == "pick", "a second one"
    do(s, 0, f"pick:t={minion(s, 'coeus').uid}")
    assert s.sides[0].hand == ["coeus", "crius"] and len(s.tartarus) == 4
    assert not offers(s, 0, "Summon a minion")
    end_turn(s)
    assert len(s.tartarus) == 6


def test_free_up_to_n_may_stop_early() -> None:
    """ "Free Take a minion from Tartarus to your Hand." — RULINGS 51: "Free up to N" (Gates of Tartarus:
    "Free up to 2 prisoners") takes the prisoners one at a time, the player choosing each, and its player may
    stop before any of them" """
    s = fresh(hands=(["gates_of_tartarus"], []), tartarus=PRISONERS)
    place(s, 0, "cottus")
    say(s, 0, "Play a spell", "Gates of Tartarus")
    assert top(s) == "pick" and ("Take no more",) in menu(s, 0)
    do(s, 0, f"pick:t={minion(s, 'crius').uid}")
    assert top(s) == "pick" and ("Take no more",) in menu(s, 0)
    say(s, 0, "Take no more")
    assert top(s) is None and s.sides[0].hand == ["crius"] and len(s.tartarus) == 5
    s = fresh(hands=(["gates_of_tartarus"], []), tartarus=["themis"])
    place(s, 0, "cottus")
    say(s, 0, "Play a spell", "Gates of Tartarus")
    assert keys(s, 0) == {f"pick:t={minion(s, 'themis').uid}", "pass"}, "one prisoner: still asked"
    say(s, 0, "Take no more")
    assert s.sides[0].hand == [] and len(s.tartarus) == 1


def test_primordial_attack() -> None:
    """ "Primordial Attack Direct attack to the enemy Commander)" — "some minions have a "Primordial Attack"
    indicator which means they can attack either minions (or prisoners), or the enemy Commander" — RULINGS
    18: "A minion with Primordial Attack may instead attack the enemy Commander, which does not fix the
    turn's target." """
    s = fresh()
    briareus, ares = place(s, 0, "briareus"), place(s, 0, "ares")
    x, y = place(s, 1, "atlas"), place(s, 1, "themis")
    attack(s, briareus, commander(s, 1))
    assert life(s, 1) == 16 and s.target == 0
    assert {f"attack:u={ares.uid}:t={x.uid}", f"attack:u={ares.uid}:t={y.uid}"} <= keys(s, 0)


def test_primordial_attack_granted_until_the_end_of_the_turn() -> None:
    """ "Primordial Attack Direct attack to the enemy Commander)" — RULINGS 26: "Static; may be granted until
    the end of turn." """
    s = fresh(hands=(["wings_of_daedalus"], []))
    cottus = place(s, 0, "cottus")
    phase(s, "attack")
    assert f"attack:u={cottus.uid}:t={commander(s, 1)}" not in keys(s, 0)
    s.phase = "deploy"
    say(s, 0, "Play a spell", "Wings of Daedalus")
    phase(s, "attack")
    assert f"attack:u={cottus.uid}:t={commander(s, 1)}" in keys(s, 0)
    end_turn(s)
    end_turn(s)
    phase(s, "attack")
    assert f"attack:u={cottus.uid}:t={commander(s, 1)}" not in keys(s, 0)


def test_lethal() -> None:
    """ "Lethal When damages a minion, destroys it immediately." — RULINGS 27: "Whenever a Lethal minion deals
    damage above 0 to a minion — attacking, striking back, or striking by Ambush — that minion is destroyed,
    also a prisoner (which then goes to the recruiter's Hand, 17)" """
    s = fresh()
    medusa = place(s, 0, "medusa")  # ranged 2/3, Lethal
    heracles = place(s, 1, "heracles")  # 5/6
    attack(s, medusa, heracles.uid)
    assert heracles not in s.sides[1].minions and medusa.damage == 0
    t = fresh()
    ares, perseus = place(t, 0, "ares"), place(t, 1, "perseus")
    attack(t, ares, perseus.uid)
    assert ares not in t.sides[0].minions and perseus not in t.sides[1].minions, "Lethal strikes back"
    u = fresh(tartarus=["heracles", *PRISONERS[1:]])
    m = place(u, 0, "medusa")
    recruit(u, m, minion(u, "heracles"))
    assert "heracles" in u.sides[0].hand


def test_lethal_does_not_destroy_a_commander() -> None:
    """ "Lethal When damages a minion, destroys it immediately." — RULINGS 27: "Commanders are not destroyed
    by Lethal." """
    s = fresh(hands=(["venom_of_the_hydra"], []))
    briareus = place(s, 0, "briareus")
    say(s, 0, "Play a spell", "Venom of the Hydra")
    attack(s, briareus, commander(s, 1))
    assert life(s, 1) == 16 and s.result is None


def test_copy_and_replace() -> None:
    """ "Copy and Replace Copy something on the field and replace it with this card's corresponding one." —
    RULINGS 29: "The card and another minion on the field exchange the value named on the card (Attack,
    Health or artifact piece): each takes the other's current value." """
    s = fresh(hands=(["hermes"], []))
    cottus = place(s, 0, "cottus")
    ares, achilles = place(s, 1, "ares"), place(s, 1, "achilles")
    say(s, 0, "Summon a minion", "Hermes")
    do(s, 0, "use")
    assert keys(s, 0) == {f"pick:t={cottus.uid}", f"pick:t={ares.uid}"}, "not an enemy Resistant minion"
    do(s, 0, f"pick:t={ares.uid}")
    assert minion(s, "hermes").piece == 10 and ares.piece == 11
    assert achilles.piece == 9


def test_add() -> None:
    """ "Add Stick another artifact to this card's artifact." — RULINGS 30: "this minion then carries two
    pieces, its own and that card's number, and counts once toward each. The card under it is not a minion
    (no stats, no effects) and goes to the Underworld when this minion leaves the field." """
    s = fresh(hands=(["hephaestus", "brontes", "thunderbolt"], []))
    place(s, 0, "steropes")
    place(s, 0, "arges")  # two pieces of 1
    say(s, 0, "Summon a minion", "Hephaestus")
    do(s, 0, "use")
    heph = minion(s, "hephaestus")
    assert heph.under == ["brontes"], "Brontes, the only minion in the Hand, goes under"
    assert on_side(s, 0) == ["steropes", "arges", "hephaestus"] and "brontes" not in s.sides[0].hand
    assert [h.number for h in s.sides[0].artifacts] == [1], "its piece 11 and Brontes's 1"
    end_turn(s)
    hold(s, 1, 5)  # Helm of Darkness: Discard a card: Return an enemy minion that costs 2 or less
    say(s, 1, "Use an artifact")
    do(s, 0, "pass")
    do(s, 1, f"pick:t={heph.uid}")
    assert "hephaestus" in s.sides[0].hand and "brontes" in s.underworld


def test_resistant() -> None:
    """ "Resistant Immune" — RULINGS 28: "A Resistant minion cannot be chosen by the effects of its opponent's
    cards and is unaffected by their group effects, by the opponent's synergies (Spellcaster damage, race
    destroy), artifacts and Commander ability. Attacks still hurt it" """
    s = fresh(hands=(["thunderbolt", "eruption_of_etna"], []), commanders=("kronos", "gaia"))
    ares = place(s, 0, "ares")
    achilles, atlas = place(s, 1, "achilles"), place(s, 1, "atlas")
    say(s, 0, "Play a spell", "Thunderbolt")
    assert top(s) is None and atlas.damage == 3 and achilles.damage == 0, "the only choice was Atlas"
    say(s, 0, "Play a spell", "Eruption of Etna")
    assert achilles.damage == 0 and atlas.damage == 5 and ares.damage == 2
    say(s, 0, "Commander's power")  # Kronos: Destroy an enemy minion that costs 3 or less.
    assert atlas not in s.sides[1].minions and achilles in s.sides[1].minions, "the only choice was Atlas"
    attack(s, ares, achilles.uid)
    assert achilles not in s.sides[1].minions


def test_resistant_granted_and_own_effects() -> None:
    """ "Resistant Immune" — RULINGS 28: "its own player's effects affect it normally" — "Static; may be
    granted while it stays on the field." """
    s = fresh(hands=(["waters_of_the_styx", "blessing_of_athena"], ["thunderbolt"]))
    cottus = place(s, 0, "cottus")
    say(s, 0, "Play a spell", "Waters of the Styx")
    do(s, 1, "pass")
    say(s, 0, "Play a spell", "Blessing of Athena")
    do(s, 1, "pass")
    assert attack_of(s, cottus) == 3
    end_turn(s)
    foe = place(s, 1, "themis")
    say(s, 1, "Play a spell", "Thunderbolt")
    assert foe.damage == 0 and cottus.damage == 0 and "thunderbolt" in s.underworld, "no target: nothing"


def test_search() -> None:
    """ "Search Take from the Deck." — "Each time an effect of a card enables a player to search the Deck, it
    has to be shuffled then." — RULINGS 25: "takes one card of the kind named (minion, spell or any)" """
    s = fresh(hands=(["iapetus"], []))
    place(s, 0, "cottus")
    before = list(s.deck)
    say(s, 0, "Summon a minion", "Iapetus")
    assert keys(s, 0) == {f"pick:c={c}" for c in before if c in MINIONS}
    do(s, 0, "pick:c=heracles")
    assert s.sides[0].hand == ["heracles"] and s.sides[0].fresh == []
    rest = [c for c in before if c != "heracles"]
    assert sorted(s.deck) == sorted(rest) and s.deck != rest, "shuffled"
    t = fresh(hands=(["mnemosyne"], []))
    place(t, 0, "cottus")
    say(t, 0, "Summon a minion", "Mnemosyne")
    assert keys(t, 0) == {f"pick:c={c}" for c in t.deck if c in SPELLS}


def test_pick() -> None:
    """ "Pick Choose one." — RULINGS 33: "its player resolves one of their choice. An option with no legal
    target cannot be picked while another can." """
    s = fresh(hands=(["judgement_of_paris"], []))
    s.sides[0].wounds = 5
    say(s, 0, "Play a spell", "Judgement of Paris")
    assert top(s) == "option" and menu(s, 0) == [
        ("Choose an option", "Draw 2 cards"),
        ("Choose an option", "Restore 3 Health to your Commander"),
    ]
    say(s, 0, "Choose an option", "Restore 3 Health to your Commander")
    assert life(s, 0) == 18 and s.sides[0].hand == [] and top(s) is None


def test_joker() -> None:
    """ "Joker Copy an artifact on the field." — RULINGS 31: "this minion's piece becomes the number of
    another minion on the field (its current piece), for as long as this minion stays on the field, even if
    the other one leaves." """
    s = fresh(hands=(["jason"], []))
    place(s, 0, "ares")  # two pieces of 10
    place(s, 0, "athena")
    foe = place(s, 1, "apollo")  # a third 10, on the other side
    say(s, 0, "Summon a minion", "Jason")
    do(s, 0, "use")
    do(s, 0, f"pick:t={foe.uid}")
    jason = minion(s, "jason")
    assert jason.piece == 10 and [h.number for h in s.sides[0].artifacts] == [10]
    assert len(s.sides[0].hand) == 1, "three pieces of 10 on one's side: taken, and a card drawn"


def test_cripple() -> None:
    """ "Cripple Cannot Attack and disable its Effect." — RULINGS 35: "The minion cannot attack (recruit,
    attack, or strike by Ambush) and loses its abilities and keywords while it stays on the field. It still
    counts for synergies, minion-count costs and artifact pieces." """
    s = fresh(hands=(["hera"], []))
    for c in ("cottus", "themis", "briareus"):
        place(s, 0, c)
    athena, perseus = place(s, 1, "athena"), place(s, 1, "perseus")
    place(s, 1, "heracles")  # costs 4: not a choice
    assert health_of(s, perseus) == 4, "Athena: Your other minions get +1 Health."
    say(s, 0, "Summon a minion", "Hera")
    assert keys(s, 0) == {f"pick:t={athena.uid}", f"pick:t={perseus.uid}"}
    do(s, 0, f"pick:t={perseus.uid}")
    assert perseus.crippled and health_of(s, perseus) == 4
    briareus = minion(s, "briareus")
    attack(s, briareus, perseus.uid)
    assert briareus in s.sides[0].minions and briareus.damage == 2, "no Lethal any more"
    end_turn(s)
    phase(s, "attack")
    assert not any(k.startswith(f"attack:u={perseus.uid}") for k in keys(s, 1))


def test_crippled_minion_loses_its_passive_and_triggers() -> None:
    """ "Cripple Cannot Attack and disable its Effect." — RULINGS 35: "loses its abilities and keywords while
    it stays on the field" """
    s = fresh(hands=(["gorgons_gaze"], []))
    ares = place(s, 0, "ares")
    crius = place(s, 1, "crius")  # When this is destroyed: Deal 1 damage to the enemy Commander.
    place(s, 1, "athena")  # costs 3: not a choice
    say(s, 0, "Play a spell", "Gorgon's Gaze")
    assert top(s) is None and crius.crippled
    attack(s, ares, crius.uid)
    assert crius not in s.sides[1].minions and life(s, 0) == 20, "its trigger is disabled"
    t = fresh(hands=(["hera"], []))
    for c in ("cottus", "themis", "coeus"):
        place(t, 0, c)
    athena, crius2 = place(t, 1, "athena"), place(t, 1, "crius")
    assert health_of(t, crius2) == 3, "Athena: Your other minions get +1 Health."
    say(t, 0, "Summon a minion", "Hera")
    do(t, 0, f"pick:t={athena.uid}")
    assert athena.crippled and health_of(t, crius2) == 2


def test_explore() -> None:
    """ "Explore If 3 pieces of an artifact are on the field, take the artifact." — RULINGS 32: "Pieces on the
    whole field count, both sides together (prisoners and Hands not)" — "No card is drawn" """
    s = fresh(hands=(["coeus"], []), tartarus=["arges", *PRISONERS[:5]])
    place(s, 0, "brontes")
    place(s, 1, "steropes")
    say(s, 0, "Summon a minion", "Coeus")
    assert s.sides[0].artifacts == [] and 1 in s.pile, "the third piece is a prisoner"
    t = fresh(hands=(["coeus"], []))
    place(t, 0, "brontes")
    place(t, 1, "steropes")
    place(t, 1, "arges")
    say(t, 0, "Summon a minion", "Coeus")
    assert [h.number for h in t.sides[0].artifacts] == [1] and t.sides[1].artifacts == []
    assert t.sides[0].hand == [], "no card drawn"


def test_combine() -> None:
    """ "Combine Combine 2 or more effects." — RULINGS 34: "its player chooses two different options (there
    are three) and resolves both, in printed order." """
    s = fresh(hands=(["labours_of_heracles"], []))
    place(s, 0, "cottus")
    place(s, 0, "themis")
    foe = place(s, 1, "atlas")
    s.sides[0].wounds = 5
    say(s, 0, "Play a spell", "Labours of Heracles")
    say(s, 0, "Choose an option", "Restore 2 Health to your Commander")
    assert top(s) == "option" and len(menu(s, 0)) == 2
    say(s, 0, "Choose an option", "Deal 2 damage to an enemy minion")
    assert foe.damage == 2 and life(s, 0) == 17 and s.sides[0].hand == []


def test_paralyze() -> None:
    """ "Paralyze This minion cannot make an attack next turn." — RULINGS 36: "during the next turn of its
    controller that begins after it was paralyzed — so a minion paralyzed in its controller's own turn sits
    out their following turn." """
    s = fresh(hands=(["euryale"], []))
    place(s, 0, "cottus")
    ares = place(s, 1, "ares")
    say(s, 0, "Summon a minion", "Euryale")
    end_turn(s)
    phase(s, "attack")
    assert keys(s, 1) == {"end"}
    end_turn(s)
    end_turn(s)
    phase(s, "attack")
    assert any(k.startswith(f"attack:u={ares.uid}") for k in keys(s, 1))
    t = fresh()
    heracles, stheno = place(t, 0, "heracles"), place(t, 1, "stheno")
    attack(t, heracles, stheno.uid)  # Stheno: When this is attacked: Paralyze the attacking minion
    end_turn(t)
    end_turn(t)
    phase(t, "attack")
    assert not any(k.startswith(f"attack:u={heracles.uid}") for k in keys(t, 0))


def test_exchange() -> None:
    """ "Exchange Leave a card to the Agora zone and add one from there to your hand." — RULINGS 37: "It is
    not the once-a-turn exchange and does not use it up." """
    s = fresh(hands=(["aello", "brontes"], []), agora=AGORA)
    say(s, 0, "Summon a minion", "Aello")
    do(s, 0, "use")
    assert top(s) == "pick", "Brontes, the only card, is left; which to take?"
    say(s, 0, "Take from the Agora", "Thunderbolt")
    assert s.sides[0].hand == ["thunderbolt"] and "brontes" in s.agora
    assert offers(s, 0, "Exchange at the Agora", "leave Thunderbolt", "take Katabasis")
    assert not offers(s, 0, "Exchange at the Agora", "leave Thunderbolt", "take Brontes")


def test_underworld() -> None:
    """ "Underworld Discard pile/graveyard." — RULINGS 38: "Destroyed minions (except recruited prisoners),
    played and negated spells, discarded cards, and cards under a minion that leaves go there, face up." """
    s = fresh(hands=(["thunderbolt", "celaeno"], ["katabasis"]), tartarus=PRISONERS)
    ares = place(s, 0, "ares")
    foe = place(s, 1, "crius")
    say(s, 0, "Play a spell", "Thunderbolt")
    do(s, 1, "pass")
    assert foe not in s.sides[1].minions
    say(s, 0, "Summon a minion", "Celaeno")  # Your opponent discards a card.
    do(s, 1, "pass")
    assert s.underworld == ["thunderbolt", "crius", "katabasis"]
    recruit(s, ares, minion(s, "theseus"))
    assert "theseus" not in s.underworld and "theseus" in s.sides[0].hand


@no_quote
def test_one_test_per_keyword() -> None:
    """Each of the 17 keywords has its test above, and so has the Underworld."""
    names = set(globals())
    assert len(KEYWORDS) == 17
    for k in (*KEYWORDS, "underworld"):
        assert f"test_{k}" in names, k


@no_quote
def test_every_quote_is_in_the_rules() -> None:
    """Each test above quotes the rulebook or RULINGS.md, word for word."""
    check_quotes(globals())
