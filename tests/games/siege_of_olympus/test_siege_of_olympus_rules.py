"""Siege of Olympus's rules, each test quoting the sentence of shared/rules/siege-of-olympus.txt (or of
engine/games/siege_of_olympus/RULINGS.md, cited as "RULINGS n") it checks. The keywords have their own
tests in tests/games/siege_of_olympus/test_siege_of_olympus_keywords.py.

Boards are placed by hand (tests/siege_helpers.py): `fresh` skips the setup to a Deploy phase with empty
boards, `place` and `jail` put minions on a side or in Tartarus, and moves are made by their menu words
(`say`) or by action key (`do`).
"""

from __future__ import annotations

import pytest

from engine.core import IllegalAction, action
from engine.games.siege_of_olympus.cards import CARDS, COMMANDERS, MINIONS, SPELLS
from engine.games.siege_of_olympus.state import SiegeState
from engine.table.present import of
from tests.siege_helpers import (
    attack,
    attack_of,
    check_quotes,
    commander,
    do,
    end_turn,
    fresh,
    game,
    give,
    health_of,
    hold,
    jail,
    keys,
    let_it_happen,
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


def drawn_by(commander: str) -> int:
    """How many cards a Commander's ability draws besides what it does (as the card data says)."""
    (_, ability), *_ = COMMANDERS[commander].of_type("once")
    return sum(step.get("amount", 1) for step in ability.effect if step.do == "draw")


def rigged_setup(seed: int, top_cards: list[str]) -> SiegeState:
    """A setup whose Deck will turn these cards over first (in this order) when Tartarus is filled: the
    hands are dealt, the mulligans not yet decided."""
    s = game.setup(2, seed, {"seat_choices": [{"commander": "kronos"}, {"commander": "gaia"}]})
    dealt = [c for side in s.sides for c in side.hand]
    assert not set(top_cards) & set(dealt), "pick cards no hand was dealt"
    s.deck = [c for c in s.deck if c not in top_cards] + list(reversed(top_cards))
    return s


def keep_hands(s: SiegeState) -> None:
    """Both players keep their hands (pass the mulligan)."""
    while s.phase == "setup":
        (p,) = game.to_act(s)
        do(s, p, "pass")


def unused(s: SiegeState, pool: dict[str, object], n: int) -> list[str]:
    """n cards of a kind that no hand holds."""
    held = {c for side in s.sides for c in side.hand}
    return [c for c in pool if c not in held][:n]


# -- setup -----------------------------------------------------------------------------------------------


def test_commanders_are_chosen_second_player_first() -> None:
    """ "Each player chooses one of the four available Commanders" — RULINGS 5: "The second player chooses
    their Commander first, then the first player from the three left: no duplicate Commanders" """
    s = game.setup(2, 4)
    second = 1 - s.first
    assert game.to_act(s) == (second,) and top(s) == "commander"
    assert keys(s, second) == {f"commander:c={c}" for c in ("kronos", "gaia", "typhon", "prometheus")}
    do(s, second, "commander:c=typhon")
    assert game.to_act(s) == (s.first,)
    assert keys(s, s.first) == {"commander:c=kronos", "commander:c=gaia", "commander:c=prometheus"}
    do(s, s.first, "commander:c=gaia")
    assert s.sides[second].commander == "typhon" and s.sides[s.first].commander == "gaia"
    assert top(s) == "mulligan" and game.to_act(s) == (s.first,)


def test_commanders_are_chosen_before_the_deal() -> None:
    """ "1)Each player chooses one of the four available Commanders" — "2)Both players draw 6 cards in any
    order." — RULINGS 5: "Either way the Commanders are chosen before any card is dealt" """
    s = game.setup(2, 4)
    assert [len(side.hand) for side in s.sides] == [0, 0] and len(s.deck) == 66, "no hand while choosing"
    do(s, 1 - s.first, "commander:c=typhon")
    assert [len(side.hand) for side in s.sides] == [0, 0]
    do(s, s.first, "commander:c=gaia")
    assert [len(side.hand) for side in s.sides] == [6, 6] and top(s) == "mulligan"
    for options in ({"seat_choices": [{"commander": "kronos"}, {}]}, {"seat_choices": [{}, {}]}):
        texts = [text for text, _ in game.setup(2, 4, options).log]
        chosen = [i for i, text in enumerate(texts) if " leads " in text]
        dealt = [i for i, text in enumerate(texts) if " draws " in text]
        assert len(chosen) == 2 and len(dealt) == 2 and max(chosen) < min(dealt), "from a lobby too"


def test_both_players_draw_6() -> None:
    """ "Both players draw 6 cards in any order." """
    for seed in range(6):
        s = game.setup(2, seed, {"seat_choices": [{"commander": "kronos"}, {"commander": "gaia"}]})
        assert [len(side.hand) for side in s.sides] == [6, 6]
        assert len(s.deck) == 66 - 12 and s.pile == list(range(1, 16))
        assert [side.commander for side in s.sides] == ["kronos", "gaia"]


def test_mulligan_returns_up_to_3_and_draws_as_many() -> None:
    """ "If your starting hand does not suit you, you can return up to 3 cards in the deck and draw three
    more. Both players can only do this once at the start of the game." — RULINGS 6: "may once return 0 to 3
    cards of their choice to the Deck, which is shuffled, and draw as many as they returned" """
    s = game.setup(2, 2, {"seat_choices": [{"commander": "kronos"}, {"commander": "gaia"}]})
    first, second = s.first, 1 - s.first
    assert game.to_act(s) == (first,) and "pass" in keys(s, first)  # the first player decides first
    hand = list(s.sides[first].hand)
    do(s, first, f"return:c={hand[0]}")
    do(s, first, f"return:c={hand[1]}")
    assert game.to_act(s) == (first,), "may return a third"
    do(s, first, "pass")
    assert len(s.sides[first].hand) == 6 and s.sides[first].mulliganed == 2
    assert set(hand[2:]) <= set(s.sides[first].hand), "the cards kept stay"
    assert game.to_act(s) == (second,)
    for c in list(s.sides[second].hand)[:3]:
        do(s, second, f"return:c={c}")
    # three returned: done at once (no fourth), and the game begins
    assert len(s.sides[second].hand) == 6 and s.sides[second].mulliganed == 3
    assert s.phase == "deploy" and s.turn == 1 and s.active == first
    assert not any(k.startswith("return") for k in keys(s, first))


def test_tartarus_six_minions_spells_go_to_the_agora() -> None:
    """ "Then, you need to fill both the Tartarus zone and Agora with cards from the top of the Deck. If a
    Spell card is drawn when filling the Tartarus zone, send it to the Agora instead. (If the Agora has less
    than 4 cards when you finish filling up the Tartarus zone, put more cards until it reaches 4.)" """
    probe = rigged_setup(7, [])
    minions, spells = unused(probe, MINIONS, 8), unused(probe, SPELLS, 4)
    order = [spells[0], *minions[:2], spells[1], *minions[2:6], minions[6], spells[2]]
    s = rigged_setup(7, order)
    keep_hands(s)
    assert [m.card for m in s.tartarus] == minions[:6]
    assert s.agora == [spells[0], spells[1], minions[6], spells[2]], "spells met, then topped up to 4"
    assert len(s.deck) == 66 - 12 - 10


def test_agora_never_above_6_a_card_that_fits_nowhere_goes_to_the_bottom() -> None:
    """ "There can be no more than 6 cards in this zone. If a card cannot be sent neither in the Tartarus
    zone, nor the Agora, it is returned to the bottom of the deck instead." """
    probe = rigged_setup(8, [])
    minions, spells = unused(probe, MINIONS, 6), unused(probe, SPELLS, 7)
    order = [*spells[:6], minions[0], spells[6], *minions[1:]]
    s = rigged_setup(8, order)
    keep_hands(s)
    assert s.agora == spells[:6], "six spells: the Agora is full, and never topped up above 6"
    assert [m.card for m in s.tartarus] == minions
    assert s.deck[0] == spells[6], "the seventh spell went to the bottom of the Deck"


def test_the_first_player_does_not_draw_on_their_first_turn() -> None:
    """ "5) Whenever a player starts their turn, they draw a card from the Deck. (The player who starts the
    game does not draw from the Deck.)" """
    s = game.setup(2, 5, {"seat_choices": [{"commander": "kronos"}, {"commander": "gaia"}]})
    keep_hands(s)
    first, second = s.first, 1 - s.first
    assert s.turn == 1 and s.active == first and len(s.sides[first].hand) == 6
    do(s, first, "end")
    let_it_happen(s)
    assert s.turn == 2 and s.active == second and len(s.sides[second].hand) == 7
    end_turn(s)
    assert s.active == first and len(s.sides[first].hand) == 7


# -- the phases of a turn ----------------------------------------------------------------------------


def test_deploy_everything_but_attacking_then_recruit_then_attack() -> None:
    """ "Deploy: During this phase you can do everything except attacking." — "Recruit: In recruit phase you
    declare attacks to recruits in order to enrich your hand." — RULINGS 15: "The turn: Draw, Deploy,
    Recruit, Attack, End." """
    s = fresh(hands=(["brontes", "thunderbolt"], []))
    ares = place(s, 0, "ares")
    foe = place(s, 1, "cottus")
    deploy = keys(s, 0)
    assert {"summon:c=brontes", "cast:c=thunderbolt", "next", "end"} <= deploy
    assert not any(k.startswith(("attack", "recruit")) for k in deploy)
    do(s, 0, "next")
    assert s.phase == "recruit"
    recruit_keys = keys(s, 0)
    assert {f"recruit:u={ares.uid}:t={p.uid}" for p in s.tartarus} | {"next", "end"} == recruit_keys
    do(s, 0, "next")
    assert s.phase == "attack"
    assert keys(s, 0) == {
        f"attack:u={ares.uid}:t={foe.uid}",
        f"attack:u={ares.uid}:t={commander(s, 1)}",
        "end",
    }


def test_spells_only_before_the_attacking_phase() -> None:
    """ "Spell cards, are just extra effects that you can activate during your turn, before you begin the
    attacking phase" """
    s = fresh(hands=(["nectar_and_ambrosia"], []))
    assert "cast:c=nectar_and_ambrosia" in keys(s, 0)
    phase(s, "recruit")
    assert "cast:c=nectar_and_ambrosia" not in keys(s, 0)
    phase(s, "attack")
    assert "cast:c=nectar_and_ambrosia" not in keys(s, 0)


def test_cost_is_the_number_of_minions_you_control() -> None:
    """ "This number indicates the number of minions that must be on your side of the board in order to
    summon a minion from your hand. For example, a minion in your hand with the number "1" """
    s = fresh(hands=(["themis", "demeter", "perseus"], []))
    place(s, 1, "ares")  # the enemy's minions do not count
    assert {k for k in keys(s, 0) if k.startswith("summon")} == {"summon:c=themis"}
    say(s, 0, "Summon a minion", "Themis")
    assert {k for k in keys(s, 0) if k.startswith("summon")} == {"summon:c=demeter"}
    say(s, 0, "Summon a minion", "Demeter")
    assert "summon:c=perseus" in keys(s, 0)


def test_summon_effect_must_be_used() -> None:
    """ "It must be noted that each minion must activate its effect when summoned, except the card's effect
    ignores this condition." — RULINGS 16: "it must be used if it has a legal target and is skipped when it
    has none; only a text saying "you may" lets its player decline." """
    s = fresh(hands=(["steropes"], []))
    place(s, 0, "themis")
    a, c = place(s, 1, "ares"), place(s, 1, "cottus")
    say(s, 0, "Summon a minion", "Steropes")
    assert top(s) == "pick" and "pass" not in keys(s, 0), "a target must be chosen: no way to decline"
    do(s, 0, f"pick:t={c.uid}")
    assert c.damage == 1 and a.damage == 0


def test_summon_effect_with_no_target_is_skipped() -> None:
    """RULINGS 16: "it must be used if it has a legal target and is skipped when it has none" """
    s = fresh(hands=(["steropes"], []))
    place(s, 0, "themis")
    say(s, 0, "Summon a minion", "Steropes")
    assert top(s) is None and on_side(s, 0) == ["themis", "steropes"] and s.phase == "deploy"


def test_a_summon_effect_that_says_you_may_can_be_declined() -> None:
    """RULINGS 16: "only a text saying "you may" lets its player decline." """
    s = fresh(
        hands=(["aello", "brontes"], []), agora=["thunderbolt", "katabasis", "nectar_and_ambrosia", "hydra"]
    )
    say(s, 0, "Summon a minion", "Aello")
    assert top(s) == "may" and keys(s, 0) == {"use", "pass"}
    do(s, 0, "pass")
    assert s.sides[0].hand == ["brontes"] and top(s) is None


def test_minions_may_recruit_and_attack_the_turn_they_are_summoned() -> None:
    """RULINGS 16: "Minions may recruit and attack in the turn they are summoned; the rulebook forbids this
    only for recruited cards." """
    s = fresh(hands=(["crius"], []))
    say(s, 0, "Summon a minion", "Crius")
    crius = minion(s, "crius")
    phase(s, "recruit")
    assert any(k.startswith(f"recruit:u={crius.uid}") for k in keys(s, 0))
    phase(s, "attack")
    foe = place(s, 1, "themis")
    assert f"attack:u={crius.uid}:t={foe.uid}" in keys(s, 0)


# -- Recruit ---------------------------------------------------------------------------------------------


def test_a_destroyed_prisoner_goes_to_your_hand_not_summonable_this_turn() -> None:
    """ "By destroying a prisoner in the Tartarus zone, you add it to your hand, but you cannot summon it the
    same turn." """
    s = fresh(tartarus=["themis", "crius", "coeus", "stheno", "theseus", "ocypete"])
    ares = place(s, 0, "ares")
    recruit(s, ares, minion(s, "crius"))
    assert "crius" in s.sides[0].hand and "crius" in s.sides[0].fresh
    assert "crius" not in [m.card for m in s.tartarus] and "crius" not in s.underworld
    assert ares.damage == 3, "the prisoner strikes back (RULINGS 14)"
    end_turn(s)
    end_turn(s)
    assert s.active == 0 and s.sides[0].fresh == [] and "summon:c=crius" in keys(s, 0)


def test_no_limit_on_recruits_and_no_window() -> None:
    """ "There is no limit in how many minions you can add from the Tartarus zone in the same turn." —
    RULINGS 20: "Triggers, passives, synergies and Recruit attacks open none." """
    s = fresh(
        hands=([], ["thunderbolt"]), tartarus=["themis", "crius", "coeus", "stheno", "theseus", "ocypete"]
    )
    hunters = [place(s, 0, c) for c in ("ares", "heracles", "briareus")]
    for hunter, prey in zip(hunters, ("themis", "coeus", "ocypete"), strict=True):
        recruit(s, hunter, minion(s, prey))
        assert top(s) is None, "no response window for a recruit"
    assert {"themis", "coeus", "ocypete"} <= set(s.sides[0].hand)
    assert len(s.tartarus) == 3


def test_a_minion_that_recruited_does_not_attack() -> None:
    """ "Before the end of your turn, minions that did not attack in the Recruit Phase, can declare
    attacks" — RULINGS 17: "A minion attacks at most once a turn" """
    s = fresh(tartarus=["themis", "crius", "coeus", "stheno", "theseus", "ocypete"])
    ares, heracles = place(s, 0, "ares"), place(s, 0, "heracles")
    foe = place(s, 1, "cottus")
    recruit(s, ares, minion(s, "themis"))
    assert not any(k.startswith(f"recruit:u={ares.uid}") for k in keys(s, 0)), "once a turn"
    phase(s, "attack")
    k = keys(s, 0)
    assert not any(x.startswith(f"attack:u={ares.uid}") for x in k)
    assert f"attack:u={heracles.uid}:t={foe.uid}" in k


def test_damage_to_a_prisoner_adds_up_and_heals_at_the_end_of_turn() -> None:
    """RULINGS 17: "several minions may attack the same prisoner, damage adding up" — "At the end of each
    players turn, minions across the board return to their full original Health." """
    s = fresh(tartarus=["atlas", "crius", "coeus", "stheno", "theseus", "ocypete"])
    castor, apollo = place(s, 0, "castor"), place(s, 0, "apollo")
    atlas = minion(s, "atlas")  # 2/6, melee
    recruit(s, castor, atlas)
    recruit(s, apollo, atlas)
    assert atlas.damage == 4 and atlas in s.tartarus
    assert castor.damage == apollo.damage == 0, "ranged recruiters take nothing from a melee prisoner"
    end_turn(s)
    assert atlas.damage == 0 and atlas in s.tartarus


# -- Attack: one target, ranged and melee ----------------------------------------------------------------


def test_only_one_enemy_minion_is_targeted_each_turn() -> None:
    """ "(You can target only 1 enemy minion each turn for an attack)" """
    s = fresh()
    ares, heracles, castor = place(s, 0, "ares"), place(s, 0, "heracles"), place(s, 0, "castor")
    x, y = place(s, 1, "cottus"), place(s, 1, "atlas")
    attack(s, castor, x.uid)
    k = keys(s, 0)
    assert f"attack:u={ares.uid}:t={x.uid}" in k and f"attack:u={ares.uid}:t={y.uid}" not in k
    assert f"attack:u={heracles.uid}:t={commander(s, 1)}" in k, "a Commander attack is still open"
    attack(s, heracles, commander(s, 1))
    attack(s, ares, x.uid)
    assert x not in s.sides[1].minions
    with pytest.raises(IllegalAction):
        game.apply(s, action(0, "attack", (("u", heracles.uid), ("t", y.uid))))


def test_when_the_target_leaves_no_further_minion_attacks() -> None:
    """RULINGS 18: "the first attack against an enemy minion fixes that minion as the turn's target; further
    attacks on minions must go to it, and if it leaves the field none may." """
    s = fresh()
    ares, heracles = place(s, 0, "ares"), place(s, 0, "heracles")
    x, y = place(s, 1, "crius"), place(s, 1, "atlas")
    attack(s, ares, x.uid)
    assert x not in s.sides[1].minions
    assert keys(s, 0) == {"end", f"attack:u={heracles.uid}:t={commander(s, 1)}"}
    assert y.damage == 0


def test_a_ranged_attacker_takes_no_damage_from_a_melee_defender() -> None:
    """ "Some minions in Siege of Olympus have "Ranged Attack". This means that they do not take damage while
    attacking. For example if a Ranger attacks a Raider, only the Raider takes damage from the attack." """
    s = fresh()
    castor = place(s, 0, "castor")  # Ranger 2/2
    ares = place(s, 1, "ares")  # Brawler 5/4, melee
    attack(s, castor, ares.uid)
    assert ares.damage == 2 and castor.damage == 0


def test_ranged_against_ranged_both_take_damage() -> None:
    """ "This rule does not apply in a situation where a Ranger/Spellcaster attacks a Ranger/Spellcaster. In
    this Scenario, both minions take damage normally." """
    s = fresh()
    castor = place(s, 0, "iapetus")  # Ranger 2/2
    hyperion = place(s, 1, "hyperion")  # Spellcaster 3/3
    attack(s, castor, hyperion.uid)
    assert hyperion.damage == 2
    assert castor not in s.sides[0].minions and "iapetus" in s.underworld, "3 damage back: destroyed"


def test_a_melee_attacker_takes_damage_back() -> None:
    """ "All the others refer to melee attacks." — RULINGS 14: "the defender deals its Attack back unless the
    attacker is ranged and the defender is not" """
    s = fresh()
    ares = place(s, 0, "ares")  # melee 5/4
    apollo = place(s, 1, "apollo")  # ranged 2/3
    attack(s, ares, apollo.uid)
    assert ares.damage == 2 and apollo not in s.sides[1].minions
    s2 = fresh()
    a2 = place(s2, 0, "ares")
    themis = place(s2, 1, "atlas")  # melee 2/6
    attack(s2, a2, themis.uid)
    assert a2.damage == 2 and themis.damage == 5


def test_a_commander_never_strikes_back() -> None:
    """RULINGS 14: "Commanders never do (they have no Attack)." — "Lastly, some minions have a "Primordial
    Attack" indicator" """
    s = fresh()
    briareus = place(s, 0, "briareus")
    attack(s, briareus, commander(s, 1))
    assert life(s, 1) == 16 and briareus.damage == 0


def test_without_primordial_attack_only_minions_and_prisoners() -> None:
    """ "(Minions without Direct Attack can only target enemy minions and prisoners for their attacks.)" """
    s = fresh()
    atlas = place(s, 0, "atlas")
    foe = place(s, 1, "themis")
    phase(s, "attack")
    assert keys(s, 0) == {"end", f"attack:u={atlas.uid}:t={foe.uid}"}


# -- the end of the turn -----------------------------------------------------------------------------


def test_minions_return_to_full_health_at_the_end_of_each_turn() -> None:
    """ "At the end of each players turn, minions across the board return to their full original Health." """
    s = fresh()
    mine, theirs = place(s, 0, "heracles", damage=4), place(s, 1, "atlas", damage=5)
    prisoner = s.tartarus[0]
    prisoner.damage = 1
    end_turn(s)
    assert mine.damage == theirs.damage == prisoner.damage == 0
    assert s.active == 1


def test_commander_health_stops_at_0() -> None:
    """RULINGS 2: "Its Health never rises above 20 and never falls below 0" — "If their Health Points drop
    to "0", your opponent wins the Game." """
    s = fresh()
    heracles = place(s, 0, "heracles")  # 5 Attack, Primordial Attack
    s.sides[1].wounds = 17
    texts = attack(s, heracles, commander(s, 1))
    assert life(s, 1) == 0 and s.result is not None and s.result["winners"] == [0]
    assert game.view(s, None)["players"][1]["health"] == 0 and "(0 left)" in " ".join(texts)


def test_commander_health_is_not_restored() -> None:
    """RULINGS 2: "Its Health never rises above 20" — "and is not restored at the end of turn (only minions
    are)." """
    s = fresh(hands=(["nectar_and_ambrosia"], []))
    s.sides[0].wounds = 6
    end_turn(s)
    assert life(s, 0) == 14
    s2 = fresh(hands=(["nectar_and_ambrosia"], []))
    s2.sides[0].wounds = 1
    say(s2, 0, "Play a spell", "Nectar and Ambrosia")
    assert life(s2, 0) == 20


def test_tartarus_is_refilled_at_the_end_of_each_turn() -> None:
    """ "The Tartarus zone must contain 6 minions and it has to be refilled at the end of each player's turn.
    Spells that would go in the Tartarus zone, are put to the Agora instead." """
    s = fresh(tartarus=["themis", "crius", "coeus", "stheno", "theseus", "ocypete"], agora=["thunderbolt"])
    hunters = [place(s, 0, c) for c in ("ares", "heracles")]
    recruit(s, hunters[0], minion(s, "themis"))
    recruit(s, hunters[1], minion(s, "coeus"))
    assert len(s.tartarus) == 4
    top_three = ["cottus", "katabasis", "atlas"]  # the Deck's top is its end
    s.deck = [c for c in s.deck if c not in top_three] + top_three
    end_turn(s)
    assert [m.card for m in s.tartarus] == ["crius", "stheno", "theseus", "ocypete", "atlas", "cottus"]
    assert s.agora == ["thunderbolt", "katabasis"]


def test_hand_limit_8_at_the_end_of_your_turn() -> None:
    """ "Also, if a player has more than 8 cards in their hand at the end of their turn, they must discard
    the excess number of cards" """
    cards = ["thunderbolt", "katabasis", "nectar_and_ambrosia", "oracle_of_delphi", "brontes", "themis"]
    others = ["hera", "ares", "athena", "apollo", "artemis", "hermes", "medusa", "perseus", "jason", "hydra"]
    s = fresh(hands=([*cards, "crius", "coeus", "cottus", "atlas"], others))
    do(s, 0, "end")
    assert top(s) == "discard" and game.to_act(s) == (0,)
    do(s, 0, "discard:c=brontes")
    assert top(s) == "discard"
    do(s, 0, "discard:c=atlas")
    assert top(s) is None and len(s.sides[0].hand) == 8 and s.active == 1
    assert {"brontes", "atlas"} <= set(s.underworld)
    assert len(s.sides[1].hand) == 11, "the other player keeps 10 (and draws): only the turn player discards"


# -- limits --------------------------------------------------------------------------------------------


def test_no_more_than_8_minions() -> None:
    """ "Each player cannot control more than 8 monsters at the same time." — RULINGS 39: "a 9th minion
    cannot be summoned by any means" """
    s = fresh(
        hands=(["brontes", "dragons_teeth"], ["artemis", "oath_on_the_styx"]), commanders=("gaia", "kronos")
    )
    for c in ("cottus", "themis", "crius", "coeus", "stheno", "theseus", "ocypete", "castor"):
        place(s, 0, c)
    jail(s, "pollux")
    k = keys(s, 0)
    assert "summon:c=brontes" not in k and "once" not in k, "neither from hand nor by Gaia"
    say(s, 0, "Play a spell", "Dragon's Teeth")
    do(s, 1, "pass")
    assert len(s.sides[0].minions) == 8 and minion(s, "pollux") in s.tartarus
    # the other side, with 8, cannot summon by Ambush either
    t = fresh(hands=(["castor"], ["artemis", "oath_on_the_styx"]))
    attacker = place(t, 0, "ares")
    for c in ("cottus", "themis", "crius", "coeus", "stheno", "theseus", "ocypete", "atlas"):
        place(t, 1, c)
    phase(t, "attack")
    do(t, 0, f"attack:u={attacker.uid}:t={minion(t, 'atlas').uid}")
    assert keys(t, 1) == {"pass", "respond:c=oath_on_the_styx"}


def test_at_most_60_decisions_a_turn() -> None:
    """RULINGS 40: "A player may take at most 60 decisions in one turn (responses excluded), after which only
    ending the phase is offered." """
    s = fresh(hands=(["brontes"], []))
    s.moves = 60
    assert keys(s, 0) == {"end", "next"}
    s.moves = 59
    say(s, 0, "Summon a minion", "Brontes")
    assert s.moves == 60 and keys(s, 0) == {"end", "next"}


def test_an_empty_deck_takes_the_underworld() -> None:
    """RULINGS 42: "When a card must be drawn or dealt and the Deck is empty, the Underworld is shuffled to
    become the Deck; if both are empty, nothing is drawn and nobody loses." """
    s = fresh()
    s.underworld, s.deck = list(s.deck), []
    end_turn(s)
    assert len(s.sides[1].hand) == 1 and s.underworld == [] and s.deck
    s.deck = []
    end_turn(s)
    assert s.result is None and len(s.sides[0].hand) == 0


def test_the_refill_shuffles_the_underworld_when_the_deck_runs_out_midway() -> None:
    """RULINGS 42: "When a card must be drawn or dealt and the Deck is empty, the Underworld is shuffled to
    become the Deck" """
    s = fresh(tartarus=["themis", "crius", "coeus", "stheno"])
    s.deck, s.underworld = ["ares"], ["heracles", "briareus", "atlas"]
    end_turn(s)
    assert len(s.tartarus) == 6 and s.tartarus[4].card == "ares"
    assert s.underworld == [] and len(s.deck) == 1 and len(s.sides[1].hand) == 1


def test_tartarus_is_refilled_from_the_underworld_when_the_deck_holds_only_spells() -> None:
    """ "The Tartarus zone must contain 6 minions and it has to be refilled at the end of each player's turn."
    — RULINGS 52: "When a refill (or the setup's fill) needs a minion and the Deck holds none (only spells, or
    nothing), the Underworld is shuffled and put under the Deck" """
    agora = ["thunderbolt", "katabasis", "oracle_of_delphi", "nectar_and_ambrosia", "midas_touch", "nemesis"]
    s = fresh(tartarus=["themis", "crius"], agora=agora)
    s.deck = ["eruption_of_etna", "dragons_teeth", "trojan_horse"]
    s.underworld = ["ares", "heracles", "venom_of_the_hydra", "atlas", "briareus"]
    do(s, 0, "end")
    assert sorted(m.card for m in s.tartarus) == ["ares", "atlas", "briareus", "crius", "heracles", "themis"]
    assert s.agora == agora and s.underworld == []
    spells = ["dragons_teeth", "eruption_of_etna", "trojan_horse", "venom_of_the_hydra"]
    assert sorted(s.deck + s.sides[1].hand) == spells, "the spells stay in the Deck (the Agora is full)"


def test_one_spell_that_fits_nowhere_does_not_stop_the_refill() -> None:
    """ "The Tartarus zone must contain 6 minions" — RULINGS 52: "spells met on the way go to the Agora, or to
    the bottom of the Deck when the Agora has 6. Tartarus stays short only when neither the Deck nor the
    Underworld holds a minion." """
    agora = ["thunderbolt", "katabasis", "oracle_of_delphi", "nectar_and_ambrosia", "midas_touch", "nemesis"]
    s = fresh(tartarus=["themis", "crius", "coeus", "stheno", "theseus"], agora=agora)
    s.deck = ["trojan_horse", "dragons_teeth", "eruption_of_etna"]  # drawn from the end: Etna first
    s.underworld = ["ares"]
    do(s, 0, "end")  # P2 draws Etna; Dragon's Teeth fits nowhere; then the Underworld's Ares
    assert len(s.tartarus) == 6 and s.tartarus[-1].card == "ares" and s.agora == agora
    s2 = fresh(tartarus=["themis", "crius"], agora=agora)
    s2.deck, s2.underworld = ["eruption_of_etna", "dragons_teeth"], ["venom_of_the_hydra"]
    do(s2, 0, "end")
    assert [m.card for m in s2.tartarus] == ["themis", "crius"], "no minion anywhere: it stays short"
    assert s2.underworld == ["venom_of_the_hydra"] and s2.agora == agora


def test_prisoners_attacked_and_destroyed_triggers_fire() -> None:
    """ "Minions' effects within the Tartarus zone apply normally." — RULINGS 43: "its attacked and destroyed
    triggers do, controlled by the player who is not attacking it ("your" is theirs, "enemy" the
    recruiter's)" """
    s = fresh(tartarus=["cottus", "crius", "coeus", "stheno", "theseus", "ocypete"])
    ares, heracles = place(s, 0, "ares"), place(s, 0, "heracles")
    recruit(s, ares, minion(s, "cottus"))  # When this is attacked: Deal 1 damage to the attacking minion.
    assert ares.damage == 1 + 1 and "cottus" in s.sides[0].hand
    recruit(s, heracles, minion(s, "crius"))  # When this is destroyed: Deal 1 damage to the enemy Commander.
    assert life(s, 0) == 19 and life(s, 1) == 20


# -- synergies -------------------------------------------------------------------------------------------


def test_brawler_synergy_plus_1_health() -> None:
    """ "Brawler +1 Health to your minions." — "These effects apply if you control 3 or minions of the same
    class and only to those minions" """
    s = fresh(hands=(["crius"], []))
    ares, heracles, cottus = place(s, 0, "ares"), place(s, 0, "heracles"), place(s, 0, "cottus")
    enemy = place(s, 1, "arges")  # a Brawler of the other side
    assert health_of(s, ares) == 4
    say(s, 0, "Summon a minion", "Crius")
    crius = minion(s, "crius")
    assert [health_of(s, m) for m in (ares, heracles, crius)] == [5, 7, 3]
    assert health_of(s, cottus) == 4 and health_of(s, enemy) == 3


def test_ranger_synergy_plus_1_attack() -> None:
    """ "Ranger +1 Attack to your minions." — "These effects apply if you control 3 or minions of the same
    class and only to those minions" """
    s = fresh()
    rangers = [place(s, 0, c) for c in ("castor", "apollo")]
    cottus = place(s, 0, "cottus")
    assert [attack_of(s, m) for m in rangers] == [2, 2]
    rangers.append(place(s, 0, "ocypete"))
    assert [attack_of(s, m) for m in rangers] == [3, 3, 2]
    assert attack_of(s, cottus) == 1
    attack(s, rangers[0], place(s, 1, "atlas").uid)
    assert minion(s, "atlas").damage == 3


def test_trickster_synergy_dodges_one_attack_in_the_opponents_next_turn() -> None:
    """ "Trickster Dodge one attack during your opponent's next turn." — RULINGS 11: "the first attack
    declared against it in that turn (in their Attack phase) is cancelled after its response window — no
    damage either way, the attacker counts as having attacked" """
    s = fresh()
    pollux, perseus, enceladus = (place(s, 0, c) for c in ("pollux", "perseus", "enceladus"))
    ares, heracles = place(s, 1, "ares"), place(s, 1, "heracles")
    end_turn(s)
    assert pollux.dodge and perseus.dodge and enceladus.dodge
    attack(s, ares, pollux.uid)
    assert pollux.damage == 0 and ares.damage == 0 and pollux in s.sides[0].minions
    assert not pollux.dodge and f"attack:u={ares.uid}:t={pollux.uid}" not in keys(s, 1), "it has attacked"
    attack(s, heracles, pollux.uid)
    assert pollux not in s.sides[0].minions, "only one attack is dodged"
    end_turn(s)
    assert not perseus.dodge and not enceladus.dodge, "unused dodges expire"
    assert not ares.dodge


def test_no_trickster_dodge_with_two() -> None:
    """ "Trickster Dodge one attack during your opponent's next turn." — "These effects apply if you control 3
    or minions of the same class" """
    s = fresh()
    pollux = place(s, 0, "pollux")
    place(s, 0, "perseus")
    ares = place(s, 1, "ares")
    end_turn(s)
    assert not pollux.dodge
    attack(s, ares, pollux.uid)
    assert pollux not in s.sides[0].minions


def test_spellcaster_synergy_1_damage_to_all_other_minions_at_the_start_of_the_turn() -> None:
    """ "Spellcaster 1 damage to all minions on the field." — RULINGS 12: "At the start of your turn, after
    your draw, if you control 3 or more Spellcasters, 1 damage is dealt once (not once per Spellcaster) to
    every minion on the field other than the Spellcasters making the synergy — yours included, prisoners
    not." """
    s = fresh(active=1)
    casters = [place(s, 0, c) for c in ("steropes", "euryale", "medusa")]
    cottus = place(s, 0, "cottus")
    ares, pollux = place(s, 1, "ares"), place(s, 1, "pollux")
    end_turn(s)  # P2 ends; P1's turn starts
    assert s.active == 0 and len(s.sides[0].hand) == 1
    assert [m.damage for m in casters] == [0, 0, 0]
    assert cottus.damage == 1 and ares.damage == 1
    assert pollux.damage == 0, "Resistant (RULINGS 28)"
    assert all(p.damage == 0 for p in s.tartarus)
    end_turn(s)
    end_turn(s)
    assert ares.damage == 1, "restored at the end of the turn, hit again at the next start"


@pytest.mark.parametrize(
    ("hunters", "third", "prey", "spared"),
    [
        (["brontes", "cottus"], "enceladus", "demeter", "hermes"),  # Giant > Olympian
        (["ares", "athena"], "demeter", "themis", "atlas"),  # Olympian > Titan
        (["themis", "coeus"], "crius", "theseus", "pollux"),  # Titan > Half-god (Pollux is Resistant)
        (["perseus", "achilles"], "pollux", "stheno", "hydra"),  # Half-god > Creature
        (["stheno", "medusa"], "ocypete", "cottus", "enceladus"),  # Creature > Giant
    ],
)
def test_race_cycle_destroys_a_prey_that_costs_3_or_less(
    hunters: list[str], third: str, prey: str, spared: str
) -> None:
    """ "Giant Destroy a Olympian that costs 3 or less. Half-god Destroy a Creature that costs 3 or less.
    Olympian Destroy a Titan that costs 3 or less. Creature Destroy a Giant that costs 3 or less. Titan
    Destroy a Half-god that costs 3 or less." — RULINGS 13: "When the number of minions of one race a player
    controls goes from 2 to 3 (by any means), that player destroys one enemy minion of the prey race with a
    printed cost of 3 or less" """
    s = fresh(hands=([third], []))
    for c in hunters:
        place(s, 0, c)
    victim, other = place(s, 1, prey), place(s, 1, spared)
    say(s, 0, "Summon a minion", CARDS[third].name)
    if top(s) == "pick":  # two prey: its player chooses
        assert keys(s, 0) == {f"pick:t={victim.uid}", f"pick:t={other.uid}"}
        do(s, 0, f"pick:t={victim.uid}")
    assert victim not in s.sides[1].minions and prey in s.underworld
    assert other in s.sides[1].minions


def test_race_synergy_fires_once_and_spares_costly_prey() -> None:
    """RULINGS 13: "It fires again only after the count has dropped below 3 and come back to 3." — "Titan
    Destroy a Half-god that costs 3 or less." """
    s = fresh(hands=(["crius", "atlas"], []))
    place(s, 0, "themis")
    place(s, 0, "coeus")
    heracles = place(s, 1, "heracles")  # a Half-god that costs 4
    theseus = place(s, 1, "theseus")
    say(s, 0, "Summon a minion", "Crius")
    assert theseus not in s.sides[1].minions and heracles in s.sides[1].minions
    again = place(s, 1, "orpheus")
    say(s, 0, "Summon a minion", "Atlas")  # a fourth Titan: nothing more
    assert again in s.sides[1].minions


def test_race_synergy_fires_again_after_dropping_below_3() -> None:
    """RULINGS 13: "It fires again only after the count has dropped below 3 and come back to 3." """
    s = fresh(hands=(["crius", "atlas"], ["thunderbolt"]))
    place(s, 0, "themis")
    place(s, 0, "coeus")
    theseus, orpheus = place(s, 1, "theseus"), place(s, 1, "orpheus")
    say(s, 0, "Summon a minion", "Crius")
    assert top(s) == "pick" and keys(s, 0) == {f"pick:t={theseus.uid}", f"pick:t={orpheus.uid}"}
    prompt = of(game).status(game.view(s, 0), ["Ada", "Bo"]).prompt
    assert prompt == "Ada: choose an enemy Half-god costing 3 or less to destroy for Titan synergy"
    do(s, 0, f"pick:t={theseus.uid}")
    assert theseus not in s.sides[1].minions and orpheus in s.sides[1].minions
    end_turn(s)
    say(s, 1, "Play a spell", "Thunderbolt")
    do(s, 0, "pass")
    do(s, 1, f"pick:t={minion(s, 'crius').uid}")
    assert on_side(s, 0) == ["themis", "coeus"] and "titan" not in s.sides[0].hot
    end_turn(s)
    say(s, 0, "Summon a minion", "Atlas")
    assert orpheus not in s.sides[1].minions, "back to 3 Titans: it fires again"


# -- artifacts and victory -----------------------------------------------------------------------------


def test_three_pieces_take_the_artifact_and_draw_a_card() -> None:
    """ "In order to draw a full artifact card, you need to control 3 pieces of it." — "Every time a player
    completes an Artifact piece, they draw a card from the Deck." — RULINGS 8: "Whenever a player controls 3
    or more pieces of one number on their side of the board and that artifact is still in the pile, they take
    it and draw a card." """
    s = fresh(hands=(["arges"], []))
    brontes, steropes = place(s, 0, "brontes"), place(s, 0, "steropes")
    say(s, 0, "Summon a minion", "Arges")
    assert [h.number for h in s.sides[0].artifacts] == [1] and 1 not in s.pile
    assert len(s.sides[0].hand) == 1, "a card drawn"
    arges = minion(s, "arges")
    assert [health_of(s, m) for m in (brontes, steropes, arges)] == [3, 3, 4], "Aegis: +1 Health"


def test_both_qualify_for_one_artifact_the_turn_player_takes_it() -> None:
    """RULINGS 8: "If both players qualify for the same artifact at once, the player whose turn it is takes
    it." """
    s = fresh(active=1)
    for seat in (0, 1):
        for c in (("ares", "cottus", "stheno"), ("coeus", "perseus", "medusa"))[seat]:
            place(s, seat, c).piece = 7  # pieces copied by hand (Joker, Copy and Replace)
    do(s, 1, "next")
    assert [h.number for h in s.sides[1].artifacts] == [7] and s.sides[0].artifacts == []
    assert len(s.sides[1].hand) == 1 and s.sides[0].hand == [] and top(s) is None


def test_pieces_on_the_enemy_side_do_not_count() -> None:
    """ "For example, if a player controls 3 minions with number" """
    s = fresh(hands=(["arges"], []))
    place(s, 0, "brontes")
    place(s, 0, "themis")
    place(s, 1, "steropes")
    say(s, 0, "Summon a minion", "Arges")
    assert s.sides[0].artifacts == [] and 1 in s.pile


def test_three_artifacts_win() -> None:
    """ "Having a certain number of artifacts is the second way to win a game of Siege of Olympus." — RULINGS
    1: "A player who holds 3 artifacts wins at once" """
    s = fresh(hands=(["arges"], []))
    hold(s, 0, 5, 9)
    place(s, 0, "brontes")
    place(s, 0, "steropes")
    say(s, 0, "Summon a minion", "Arges")
    assert s.result == {"winners": [0], "why": "conquers Olympus"}
    assert game.to_act(s) == () and game.returns(s) == [1.0, 0.0]


def test_a_commander_at_0_health_loses() -> None:
    """ "They will be the leaders of your army and also your source of life." — RULINGS 1: "so does a player
    whose opponent's Commander is at 0 Health" """
    s = fresh()
    s.sides[1].wounds = 17
    attack(s, place(s, 0, "briareus"), commander(s, 1))
    assert s.result is not None and s.result["winners"] == [0]
    assert game.returns(s) == [1.0, 0.0]


def test_simultaneous_wins_are_a_draw() -> None:
    """RULINGS 41: "If both players meet a victory condition at the same moment, the game is a draw." """
    s = fresh(hands=(["hermes"], []))
    hold(s, 0, 1, 2)
    hold(s, 1, 3, 4)
    for seat, cards in ((0, ("dionysus", "demeter")), (1, ("artemis", "hephaestus"))):
        for c in cards:  # P1: two pieces of 5; P2: two pieces of 11
            place(s, seat, c)
    hera = place(s, 1, "hera")  # and a 5
    say(s, 0, "Summon a minion", "Hermes")  # piece 11
    do(s, 0, "use")
    do(s, 0, f"pick:t={hera.uid}")  # the two swap: each completes an artifact
    assert s.result is not None and s.result["winners"] == [0, 1]
    assert game.returns(s) == [0.5, 0.5]


def test_a_sacrificed_minion_is_destroyed() -> None:
    """ "Destroy When a minion drops to 0 health, or an effect says so." — RULINGS 53: "its "When this is
    destroyed" (Crius) and its player's "When one of your minions is destroyed" (Golden Fleece) triggers
    fire, as for any destroyed minion." """
    s = fresh(hands=(["fury_of_the_erinyes"], []))
    hold(s, 0, 6)  # Golden Fleece: When one of your minions is destroyed: Restore 1 Health to your Commander.
    s.sides[0].wounds = 5
    crius = place(s, 0, "crius")  # When this is destroyed: Deal 1 damage to the enemy Commander.
    ares = place(s, 1, "ares")
    say(s, 0, "Play a spell", "Fury of the Erinyes")
    assert crius not in s.sides[0].minions and "crius" in s.underworld, "the only minion: sacrificed"
    while top(s) == "order":
        do(s, 0, sorted(keys(s, 0))[0])
    assert ares not in s.sides[1].minions
    assert life(s, 1) == 19 and life(s, 0) == 16, "Crius and Golden Fleece fired"


def test_the_game_ends_after_60_turns() -> None:
    """RULINGS 40: "The game ends after 60 turns (30 each) if nobody has won: the player holding more
    artifacts wins; then the one whose Commander has more Health; then the one controlling more minions;
    otherwise it is a draw." """
    s = fresh(turn=59)
    end_turn(s)
    assert s.result is None and s.turn == 60
    end_turn(s)
    assert s.result == {"winners": [0, 1], "why": "after 60 turns, all even"}
    for setup, winner in (
        (lambda t: hold(t, 1, 7), 1),
        (lambda t: setattr(t.sides[1], "wounds", 3), 0),
        (lambda t: place(t, 0, "themis"), 0),
    ):
        t = fresh(turn=60)
        setup(t)
        end_turn(t)
        assert t.result is not None and t.result["winners"] == [winner]


# -- the Agora ---------------------------------------------------------------------------------------------

AGORA = ["thunderbolt", "katabasis", "oracle_of_delphi", "nectar_and_ambrosia"]


def test_exchange_once_a_turn() -> None:
    """ "You can exchange 1 card from your Hand with another in the Agora each turn" — "You can only exchange
    once in Agora each turn." """
    s = fresh(hands=(["brontes", "themis"], []), agora=AGORA)
    say(s, 0, "Exchange at the Agora", "leave Brontes", "take Thunderbolt")
    assert s.sides[0].hand == ["themis", "thunderbolt"]
    assert sorted(s.agora) == sorted(["brontes", "katabasis", "oracle_of_delphi", "nectar_and_ambrosia"])
    assert not offers(s, 0, "Exchange at the Agora")
    assert len(s.agora) == 4, "the Agora keeps its size"


def test_the_card_left_cannot_be_taken_back_that_turn() -> None:
    """ "(you cannot take back the one you left there the same turn, so think wisely)" """
    s = fresh(hands=(["brontes", "midas_touch"], ["themis"]), agora=AGORA)
    say(s, 0, "Exchange at the Agora", "leave Brontes", "take Thunderbolt")
    say(s, 0, "Play a spell", "Midas' Touch")
    do(s, 1, "pass")
    assert top(s) == "pick" and keys(s, 0) == {
        "pick:g=katabasis",
        "pick:g=oracle_of_delphi",
        "pick:g=nectar_and_ambrosia",
    }, "neither Brontes nor Thunderbolt, both left this turn"
    do(s, 0, "pick:g=katabasis")
    end_turn(s)
    give(s, 1, "coeus")
    assert offers(s, 1, "Exchange at the Agora", "leave Coeus", "take Brontes"), "the next turn it can"


def test_exchanged_cards_can_be_played_the_same_turn() -> None:
    """ "Exchanged cards can be played the same turn." """
    s = fresh(hands=(["brontes"], []), agora=["thunderbolt", "themis", "katabasis", "oracle_of_delphi"])
    place(s, 0, "cottus")
    foe = place(s, 1, "atlas")
    say(s, 0, "Exchange at the Agora", "leave Brontes", "take Thunderbolt")
    say(s, 0, "Play a spell", "Thunderbolt")
    assert foe.damage == 3
    t = fresh(hands=(["brontes"], []), agora=["thunderbolt", "themis", "katabasis", "oracle_of_delphi"])
    say(t, 0, "Exchange at the Agora", "leave Brontes", "take Themis")
    assert offers(t, 0, "Summon a minion", "Themis")


def test_exchange_only_in_deploy() -> None:
    """RULINGS 18: "The Agora: once a turn, in Deploy, a player may leave a card of their Hand in the Agora
    and take one card from it" """
    s = fresh(hands=(["brontes"], []), agora=AGORA)
    phase(s, "recruit")
    assert not offers(s, 0, "Exchange at the Agora")


# -- response windows ----------------------------------------------------------------------------------------


def test_a_window_is_offered_whatever_the_hand() -> None:
    """RULINGS 20: "It is offered on the same schedule whatever the hand: whenever that player holds at least
    one card (hand sizes are public), whether or not they could respond, so a window never tells the other
    player what the hand holds" """
    s = fresh(hands=(["thunderbolt", "steropes"], ["themis"]), commanders=("typhon", "gaia"))
    hold(s, 0, 2)
    ares = place(s, 0, "ares")
    foe = place(s, 1, "atlas")
    for words in (
        ("Play a spell", "Thunderbolt"),
        ("Summon a minion", "Steropes"),
        ("Use an artifact",),
        ("Commander's power",),
    ):
        say(s, 0, *words)
        assert top(s) == "window" and menu(s, 1) == [("Pass",)], words
        do(s, 1, "pass")
        while top(s) == "pick":
            do(s, 0, f"pick:t={foe.uid}")
    phase(s, "attack")
    do(s, 0, f"attack:u={ares.uid}:t={commander(s, 1)}")
    assert top(s) == "window" and menu(s, 1) == [("Pass",)]


def test_no_window_for_an_empty_hand_nor_a_summon_without_effect() -> None:
    """RULINGS 20: "It opens: on every attack declared in the Attack phase (Ambush or Disrupt); when a spell
    is played, a minion with a Summon effect is summoned" — "whenever that player holds at least one card" """
    s = fresh(hands=(["thunderbolt", "themis", "steropes"], []))
    place(s, 0, "cottus")
    foe = place(s, 1, "atlas")
    say(s, 0, "Play a spell", "Thunderbolt")
    assert top(s) is None and foe.damage == 3
    give(s, 1, "katabasis")
    say(s, 0, "Summon a minion", "Themis")
    assert top(s) is None, "a minion without a Summon effect opens no window"
    say(s, 0, "Summon a minion", "Steropes")
    assert top(s) == "window"


# -- Commanders ----------------------------------------------------------------------------------------------


def test_kronos_destroys_an_enemy_minion_that_costs_3_or_less_once_per_game() -> None:
    """ "Each Commander has a unique ability that can be activated once per game" — RULINGS 2: "Kronos, the
    Devourer — destroy an enemy minion that costs 3 or less" """
    s = fresh(commanders=("kronos", "gaia"))
    heracles = place(s, 1, "heracles")  # costs 4
    assert "once" not in keys(s, 0), "no target: not offered"
    ares = place(s, 1, "ares")
    say(s, 0, "Commander's power")
    assert ares not in s.sides[1].minions and heracles in s.sides[1].minions and s.sides[0].once_used
    place(s, 1, "themis")
    assert "once" not in keys(s, 0)
    end_turn(s)
    end_turn(s)
    assert "once" not in keys(s, 0), "once per game"


def test_gaia_summons_from_hand_ignoring_cost() -> None:
    """RULINGS 2: "Gaia, Mother of Giants — summon a minion from your Hand ignoring its cost" — RULINGS 7:
    "Ignoring its cost" skips this check, never the 8-minion limit" """
    s = fresh(hands=(["heracles", "hyperion"], []), commanders=("gaia", "kronos"))
    foe = place(s, 1, "atlas")
    assert not offers(s, 0, "Summon a minion")
    say(s, 0, "Commander's power")
    assert top(s) == "pick" and keys(s, 0) == {"pick:c=heracles", "pick:c=hyperion"}
    do(s, 0, "pick:c=hyperion")
    assert on_side(s, 0) == ["hyperion"] and foe.damage == 2, "its Summon effect resolves"
    assert len(s.sides[0].hand) == 1 + drawn_by("gaia"), "Heracles, and any card the ability draws"
    assert "once" not in keys(s, 0)


def test_gaias_minion_resolves_its_summon_effect_before_her_draw() -> None:
    """RULINGS 48: "A minion summoned by an effect (Dragon's Teeth, Gaia) resolves its Summon effect at once,
    as part of the effect that summoned it" — "Gaia's summoned minion resolves its Summon effect before Gaia
    draws her 2 cards." """
    s = fresh(hands=(["hyperion"], []), commanders=("gaia", "kronos"))  # Summon: 2 damage to an enemy minion
    atlas, ares = place(s, 1, "atlas"), place(s, 1, "ares")
    say(s, 0, "Commander's power")
    assert on_side(s, 0) == ["hyperion"] and top(s) == "pick", "Hyperion's target is asked ..."
    assert s.sides[0].hand == [], "... before Gaia draws"
    do(s, 0, f"pick:t={atlas.uid}")
    assert atlas.damage == 2 and ares.damage == 0 and len(s.sides[0].hand) == drawn_by("gaia") == 2
    assert top(s) is None


def test_a_pick_minion_summoned_by_gaia_chooses_its_option_before_her_draw() -> None:
    """RULINGS 48: "Its Pick or Combine options are still chosen by its player." — "Gaia's summoned minion
    resolves its Summon effect before Gaia draws her 2 cards." """
    picks = [c for c, spec in MINIONS.items() if "pick" in spec.keywords and spec.of_type("summon")]
    s = fresh(hands=([picks[0]], []), commanders=("gaia", "kronos"))
    place(s, 1, "atlas")
    say(s, 0, "Commander's power")
    assert top(s) == "option" and s.sides[0].hand == []
    (first, *_) = sorted(keys(s, 0))
    do(s, 0, first)
    while top(s) == "pick":
        do(s, 0, sorted(keys(s, 0))[0])
    assert top(s) is None and len(s.sides[0].hand) >= drawn_by("gaia")


def test_a_minion_summoned_by_an_effect_opens_no_window_of_its_own() -> None:
    """RULINGS 48: "A minion summoned by an effect (Dragon's Teeth, Gaia) resolves its Summon effect at once,
    as part of the effect that summoned it: no window of its own opens" """
    s = fresh(hands=(["dragons_teeth"], ["themis"]), tartarus=["tethys", "crius", "coeus", "heracles"])
    say(s, 0, "Play a spell", "Dragon's Teeth")
    do(s, 1, "pass")
    assert top(s) == "pick"
    assert keys(s, 0) == {f"pick:t={minion(s, c).uid}" for c in ("tethys", "crius", "coeus")}, (
        "cost 1 or less"
    )
    do(s, 0, f"pick:t={minion(s, 'tethys').uid}")  # Summon: Draw a card.
    assert top(s) is None and on_side(s, 0) == ["tethys"] and len(s.sides[0].hand) == 1
    assert "tethys" not in [m.card for m in s.tartarus]


def test_typhon_damages_all_enemy_minions_and_the_enemy_commander() -> None:
    """RULINGS 2: "Typhon, Father of Monsters — 2 damage to all enemy minions and 2 to the enemy
    Commander" """
    s = fresh(commanders=("typhon", "gaia"))
    mine = place(s, 0, "cottus")
    a, b2, c = place(s, 1, "ares"), place(s, 1, "crius"), place(s, 1, "pollux")
    say(s, 0, "Commander's power")
    assert a.damage == 2 and b2 not in s.sides[1].minions and mine.damage == 0
    assert c.damage == 0, "Resistant (RULINGS 28)"
    assert life(s, 1) == 18
    assert life(s, 0) == 19, "Crius: When this is destroyed: Deal 1 damage to the enemy Commander."


def test_prometheus_searches_the_deck_for_any_card() -> None:
    """RULINGS 2: "Prometheus, the Fire-Bringer — Search the Deck for any card" """
    s = fresh(commanders=("prometheus", "gaia"))
    say(s, 0, "Commander's power")
    assert top(s) == "pick"
    assert keys(s, 0) == {f"pick:c={c}" for c in set(s.deck)}
    do(s, 0, "pick:c=nectar_and_ambrosia")
    assert "nectar_and_ambrosia" in s.sides[0].hand
    assert len(s.sides[0].hand) == 1 + drawn_by("prometheus"), "and any card the ability draws"


def test_a_disrupted_commander_ability_is_used_up() -> None:
    """RULINGS 2: "Its ability is used in its player's Deploy phase, at most once per game, and is used up
    even if Disrupted" """
    s = fresh(hands=([], ["oath_on_the_styx"]), commanders=("typhon", "gaia"))
    foe = place(s, 1, "ares")
    say(s, 0, "Commander's power")
    say(s, 1, "Respond", "Oath on the Styx")
    assert foe.damage == 0 and life(s, 1) == 20 and s.sides[0].once_used
    assert "once" not in keys(s, 0)


# -- artifacts' effects -------------------------------------------------------------------------------------


def test_harpe_once_per_turn() -> None:
    """RULINGS 8: "Its effect works for the player holding it (its "your minions" are theirs; "Once per turn"
    effects are used in their Deploy phase, paying any cost)." """
    s = fresh()
    hold(s, 0, 2)
    foe = place(s, 1, "atlas")
    say(s, 0, "Use an artifact")
    assert foe.damage == 1 and "act:n=2" not in keys(s, 0)
    phase(s, "recruit")
    assert "act:n=2" not in keys(s, 0)
    end_turn(s)
    end_turn(s)
    assert "act:n=2" in keys(s, 0)


def test_helm_of_darkness_pays_its_discard() -> None:
    """RULINGS 8: "Once per turn" effects are used in their Deploy phase, paying any cost" """
    s = fresh(hands=(["brontes"], []))
    hold(s, 0, 5)
    place(s, 1, "heracles")
    assert "act:n=5" not in keys(s, 0), "no enemy minion that costs 2 or less"
    foe = place(s, 1, "crius")
    say(s, 0, "Use an artifact")
    assert "brontes" in s.underworld and foe not in s.sides[1].minions and "crius" in s.sides[1].hand
    t = fresh()
    hold(t, 0, 5)
    place(t, 1, "crius")
    assert "act:n=5" not in keys(t, 0), "nothing to discard"


def test_a_negated_artifact_effect_costs_nothing_but_is_used_up() -> None:
    """RULINGS 47: "Costs are paid as the ability resolves, after its window" — "A negated ability costs
    nothing, but a negated artifact effect or Commander ability is used up (22)." """
    s = fresh(hands=(["brontes"], ["oath_on_the_styx"]))
    hold(s, 0, 5)
    foe = place(s, 1, "crius")
    say(s, 0, "Use an artifact")
    say(s, 1, "Respond", "Oath on the Styx")
    assert s.sides[0].hand == ["brontes"] and foe in s.sides[1].minions
    assert "act:n=5" not in keys(s, 0)


def test_hammer_of_hephaestus_and_adamantine_chains_on_a_summon() -> None:
    """ "Its effect works for the player holding it" — RULINGS 45: "Triggers are queued when their event
    happens and resolve once the current effect is done" """
    s = fresh(hands=(["crius"], []))
    hold(s, 0, 14)  # When you summon a minion: It gets +1 Attack while it stays on the field.
    hold(s, 1, 15)  # When your opponent summons a minion: Deal 1 damage to it.
    say(s, 0, "Summon a minion", "Crius")
    crius = minion(s, "crius")
    assert attack_of(s, crius) == 4 and crius.damage == 1
    end_turn(s)
    assert attack_of(s, crius) == 4 and crius.damage == 0


def test_caduceus_and_cornucopia_at_the_start_of_your_turn() -> None:
    """ "Its effect works for the player holding it" — RULINGS 15: "then start-of-turn effects happen" """
    s = fresh(active=1)
    hold(s, 0, 3, 7)
    s.sides[0].wounds = 5
    end_turn(s)
    if top(s) == "order":
        do(s, 0, sorted(keys(s, 0))[0])
    assert life(s, 0) == 17 and len(s.sides[0].hand) == 2


def test_bow_of_artemis_and_trident_of_poseidon() -> None:
    """ "Its effect works for the player holding it (its "your minions" are theirs" — RULINGS 19: "the turn
    player's turn_end triggers" """
    s = fresh()
    hold(s, 0, 8, 4)
    ares = place(s, 0, "ares")
    foe = place(s, 1, "themis")
    assert attack_of(s, ares) == 6 and attack_of(s, foe) == 1
    end_turn(s)
    assert life(s, 1) == 19
    end_turn(s)
    assert life(s, 1) == 19 and life(s, 0) == 20, "only at the end of its holder's turn"


@no_quote
def test_every_quote_is_in_the_rules() -> None:
    """Each test above quotes the rulebook or RULINGS.md, word for word."""
    check_quotes(globals())


def test_a_sampled_world_keeps_the_cards_taken_in_the_open() -> None:
    """RULINGS 54: "the cards the other player took into it in the open this turn (recruited, Freed, Reborn:
    marked "cannot be summoned this turn"), which stay known and marked until the turn ends" — "they keep
    those known cards in the Hand" """
    s = fresh(hands=(["tethys", "gorgons_gaze"], []), tartarus=["themis", "crius", "coeus", "stheno"])
    ares = place(s, 0, "ares")
    recruit(s, ares, minion(s, "crius"))  # 3/2: Ares destroys it, Crius goes to the Hand
    assert s.sides[0].fresh == ["crius"]
    for seed in range(12):
        d = game.determinize(s, 1, seed)
        assert "crius" in d.sides[0].hand and d.sides[0].fresh == ["crius"] and len(d.sides[0].hand) == 3


def test_a_sampled_world_offers_the_new_hand_to_a_waiting_pick() -> None:
    """RULINGS 54: "a pick the other player has waiting offers what the new world's Hand or Deck holds" —
    RULINGS 49: "Searching the Deck shows its player the kinds of card in it to choose from, never to the
    opponent" """
    s = fresh(hands=(["hyperion", "heracles", "thunderbolt"], []), commanders=("gaia", "kronos"))
    say(s, 0, "Commander's power")
    assert top(s) == "pick" and s.decisions[-1].data["options"] == ["heracles", "hyperion"]
    worlds = [game.determinize(s, 1, seed) for seed in range(12)]
    for d in worlds:
        minions = sorted(c for c in d.sides[0].hand if c in MINIONS)
        assert d.decisions[-1].data["options"] == minions, "the new Hand's minions, not the true ones"
        if minions:
            do(d, 0, f"pick:c={minions[0]}")  # the world goes on
    assert any(
        d.decisions and d.decisions[-1].data.get("options") != ["heracles", "hyperion"] for d in worlds
    )
    s = fresh(commanders=("prometheus", "kronos"))
    say(s, 0, "Commander's power")
    assert s.decisions[-1].data["what"] == "deck"
    for seed in range(6):
        d = game.determinize(s, 1, seed)
        assert d.decisions[-1].data["options"] == sorted(set(d.deck)), "what the new Deck holds"
        assert game.determinize(s, 0, seed).decisions[-1].data["options"] == sorted(set(s.deck)), "its own"


def test_the_cards_under_a_minion_are_shown() -> None:
    """RULINGS 30: "Its player may put a minion card from their Hand face up under this minion" """
    s = fresh(hands=(["hephaestus", "iapetus"], []))
    place(s, 0, "cottus")
    place(s, 0, "crius")
    say(s, 0, "Summon a minion", "Hephaestus")
    do(s, 0, "use")
    assert minion(s, "hephaestus").under == ["iapetus"]
    seen = next(m for m in game.view(s, 1)["players"][0]["minions"] if m["card"] == "hephaestus")
    assert seen["under"] == ["iapetus"]


def test_nothing_is_left_to_resolve_once_the_game_is_over() -> None:
    """RULINGS 41: "Victory (1) is checked after every action, effect step and attack." Once someone has
    won, no decision, trigger or window is left pending."""
    from engine.ai.random_player import RandomPlayer
    from engine.games.siege_of_olympus import Siege

    game = Siege()
    for seed in range(6):
        s = game.setup(2, seed)
        step = 0
        while game.to_act(s):
            seat = game.to_act(s)[0]
            game.apply(s, RandomPlayer(seed * 1000 + step).choose(game, s, seat))
            step += 1
        assert not s.decisions and not s.pending and not s.resolving and s.window is None
