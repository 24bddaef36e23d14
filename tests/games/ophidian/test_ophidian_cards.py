"""Every card of Ophidian 2350's pool does what its text says: one test per card (or one parametrized test
for cards of one shape), each quoting the card's text, checked by `covers`, and citing the RULINGS.md entry
that makes the text precise. Each board is placed by hand in Wave 1 (tests/ophidian_cards_helpers.py); the
card is then played, triggered or used through the legal moves only, its picks answered, and the outcome
checked: damage and healing, ADMG / DDMG / Life, Set and Unset, Cheer and CP, draws, Pumps, and its flow
symbol (+ keeps The Flow, − passes it, ? by its condition: RULINGS 14, 15). The last test checks that every
card id of cards.toml is covered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.games.ophidian import board as b
from engine.games.ophidian.cards import CARDS, symbol
from engine.games.ophidian.state import ACTION, SUPPORT, Char, OphidianState
from tests.ophidian_cards_helpers import (
    act,
    alive,
    attach,
    attack,
    calm,
    do,
    end_wave,
    fresh,
    index,
    keys,
    next_wave,
    place,
    play,
    stat,
    top,
    use,
)

COVERED: set[str] = set()  # the cards a test below checks (filled as the tests are defined)


def covers(*cids: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a test as checking these cards; its docstring must quote each line of their text."""

    def mark(fn: Callable[..., Any]) -> Callable[..., Any]:
        doc = " ".join((fn.__doc__ or "").split())
        for cid in cids:
            for line in CARDS[cid].text.splitlines():
                assert " ".join(line.split()) in doc, f"{fn.__name__} does not quote {cid}'s text {line!r}"
        COVERED.update(cids)
        return fn

    return mark


# -- boards ----------------------------------------------------------------------------------------------

QUIET = {  # a Gladiator of each discipline whose own text changes nothing a test below looks at
    "warrior": "brakka_vohl",
    "tech": "halcyon",
    "summoner": "orrin_vale",
    "bio_gen": "kestrel_nine",
    "psionic": "nael_orris",
    "mystic": "ember_vey",
    "universal": "kestrel_nine",
}


def able(s: OphidianState, seat: int, cid: str, field: str = ACTION) -> Char:
    """A Gladiator that meets the requirement of Strategy card `cid` (RULINGS 6): one of its discipline, at
    its level (a Level 3/4 card from Level 3)."""
    spec = CARDS[cid]
    level = spec.stat("level")
    g = place(s, seat, f"{QUIET[spec.faction]}_{'34' if level >= 3 else '12'}", field)
    g.level = max(g.level, level)
    return g


def foe(s: OphidianState, field: str = ACTION, cid: str = "sera_quill_12") -> Char:
    """P2's Gladiator to aim at: Sera Quill (Life 6, ADMG 2, no DDMG)."""
    return place(s, 1, cid, field)


def kept(s: OphidianState, seat: int = 0) -> bool:
    """The action was +: its player still has The Flow, and nobody is asked anything (RULINGS 14)."""
    return s.flow == seat and s.spendable and s.action is None and not s.decisions


def passed(s: OphidianState, seat: int = 0) -> bool:
    """The action was −: The Flow went to the opponent (RULINGS 14)."""
    return s.flow == 1 - seat and s.action is None and not s.decisions


def options(s: OphidianState) -> list[Any]:
    """The options of the pick waiting."""
    assert top(s) == "pick", top(s)
    return list(s.decisions[-1].data["options"])


def raging(s: OphidianState, c: Char) -> None:
    """Wound a Gladiator up to its Rage, before any action (so it Rages for its Rage effects: RULINGS 29)."""
    c.wounds = stat(s, c, "rage")


# =========================================================================================== Gladiators ====


@covers("brakka_vohl_12")
def test_brakka_vohl_12() -> None:
    """Brakka Vohl, Level 1/2: "While Raging: +1 ADMG." — RULINGS 29: Raging is "read from the wounds at
    each moment"."""
    s = fresh()
    brakka, target = place(s, 0, "brakka_vohl_12"), foe(s)
    assert stat(s, brakka, "admg") == 2
    raging(s, brakka)
    assert stat(s, brakka, "admg") == 3
    attack(s, brakka, target)
    assert target.wounds == 3 and kept(s)
    brakka.wounds = 3
    assert stat(s, brakka, "admg") == 2, "healed below its Rage, it stops Raging"


@covers("brakka_vohl_34")
def test_brakka_vohl_34() -> None:
    """Brakka Vohl, Level 3/4: "While Raging: +2 ADMG and DDMG 1." — an attacker of an Unset Raging
    Gladiator takes its DDMG and 1 RDMG (RULINGS 24, 29)."""
    s = fresh(flow=1)
    brakka, attacker = place(s, 0, "brakka_vohl_34"), foe(s)
    assert (stat(s, brakka, "admg"), stat(s, brakka, "ddmg")) == (3, 0)
    raging(s, brakka)
    assert (stat(s, brakka, "admg"), stat(s, brakka, "ddmg")) == (5, 1)
    attack(s, attacker, brakka)
    assert attacker.wounds == 1 + 1, "DDMG 1 and 1 RDMG"
    assert brakka.wounds == 5 + 2


@covers("sera_quill_12")
def test_sera_quill_12() -> None:
    """Sera Quill, Level 1/2: "When this defeats a character: gain 1 Cheer." — on top of the Cheer its
    attack generates (RULINGS 32)."""
    s = fresh()
    sera = place(s, 0, "sera_quill_12")
    foe(s, cid="brakka_vohl_12")
    wolf = place(s, 1, "holo_wolf")  # Life 2
    attack(s, sera, wolf)
    assert not alive(s, wolf) and s.sides[0].cheer == 1 + 1 and kept(s)


@covers("sera_quill_34")
def test_sera_quill_34() -> None:
    """Sera Quill, Level 3/4: "When this defeats a character: gain 1 Cheer." "★ +: Unset this." — ★ only
    while its controller is the Crowd Favorite (RULINGS 33)."""
    s = fresh()
    sera = place(s, 0, "sera_quill_34")
    foe(s, cid="brakka_vohl_12")
    wolf = place(s, 1, "holo_wolf")
    key = f"ability:u={sera.uid}:a={index('sera_quill_34', 'plus')}"
    assert key not in keys(s, 0), "not the Crowd Favorite, and Unset anyway"
    attack(s, sera, wolf)
    assert not alive(s, wolf) and s.sides[0].cheer == 2 and sera.set
    use(s, sera, index("sera_quill_34", "plus"))
    assert not sera.set and kept(s)
    assert key not in keys(s, 0), "once per Wave (RULINGS 19)"
    s2 = fresh()
    sera2 = place(s2, 0, "sera_quill_34", set_=True)
    foe(s2)
    assert f"ability:u={sera2.uid}:a=1" not in keys(s2, 0), "nobody is the Crowd Favorite at 0 to 0"


@covers("dusk_mahr_12")
def test_dusk_mahr_12() -> None:
    """Dusk Mahr, Level 1/2: "DDMG 1." — its attacker takes it (RULINGS 24)."""
    s = fresh(flow=1)
    dusk, attacker = place(s, 0, "dusk_mahr_12"), foe(s)
    assert stat(s, dusk, "ddmg") == 1
    attack(s, attacker, dusk)
    assert attacker.wounds == 1 and dusk.wounds == 2


@covers("dusk_mahr_34")
def test_dusk_mahr_34() -> None:
    """Dusk Mahr, Level 3/4: "DDMG 1." "While Raging: +1 ADMG and +1 DDMG." """
    s = fresh()
    dusk = place(s, 0, "dusk_mahr_34")
    assert (stat(s, dusk, "admg"), stat(s, dusk, "ddmg")) == (4, 1)
    raging(s, dusk)
    assert (stat(s, dusk, "admg"), stat(s, dusk, "ddmg")) == (5, 2)


@covers("juno_kessler_12")
def test_juno_kessler_12() -> None:
    """Juno Kessler, Level 1/2: "↷ +: This attacks; this attack deals XDMG." — XDMG "cannot be Protected or
    Intercepted" (RULINGS 24); the attack generates Cheer like any (32)."""
    s = fresh()
    juno = place(s, 0, "juno_kessler_12")
    target, guard = foe(s), foe(s, cid="brakka_vohl_12")
    use(s, juno, 0, target.uid)
    assert target.wounds == 2 and guard.wounds == 0 and not guard.set, "no Intercept was offered"
    assert juno.set and s.sides[0].cheer == 1 and kept(s)
    assert not any(k.startswith(f"attack:u={juno.uid}") for k in keys(s, 0)), "it is Set"
    s = fresh()
    juno = place(s, 0, "juno_kessler_12", SUPPORT)
    foe(s)
    assert f"ability:u={juno.uid}:a=0" not in keys(s, 0), "attacks come from the Action Field (RULINGS 23)"


@covers("juno_kessler_34")
def test_juno_kessler_34() -> None:
    """Juno Kessler, Level 3/4: "↷ +: This attacks with +1 ADMG; this attack deals XDMG." """
    s = fresh()
    juno = place(s, 0, "juno_kessler_34")
    target, guard = foe(s), foe(s, cid="brakka_vohl_12")
    use(s, juno, 0, target.uid)
    assert target.wounds == 3 + 1 and guard.wounds == 0 and juno.set and kept(s)
    assert stat(s, juno, "admg") == 3, "the +1 was for this attack"


@pytest.mark.parametrize(("cid", "plus"), [("halcyon_12", False), ("halcyon_34", True)])
@covers("halcyon_12", "halcyon_34")
def test_halcyon(cid: str, plus: bool) -> None:
    """Unit 7 "Halcyon", Level 1/2: "↷ −: Unset another Gladiator you control." and Level 3/4: "↷ +: Unset
    another Gladiator you control." — a Minion is no Gladiator, and "another" is not this one."""
    s = fresh()
    halcyon = place(s, 0, cid)
    brakka = place(s, 0, "brakka_vohl_12", set_=True)
    place(s, 0, "holo_wolf", set_=True)
    foe(s)
    use(s, halcyon, 0)  # Brakka is the only choice: picked by itself
    assert halcyon.set and not brakka.set
    assert kept(s) if plus else passed(s)


@pytest.mark.parametrize("cid", ["gideon_pike_12", "gideon_pike_34"])
@covers("gideon_pike_12", "gideon_pike_34")
def test_gideon_pike(cid: str) -> None:
    """Gideon Pike, Level 1/2: "↷ ?: Deal 2 damage to an enemy Minion. This is + if it is defeated;
    otherwise −." Level 3/4: "DDMG 1." "↷ ?: Deal 3 damage to an enemy Minion. This is + if it is defeated;
    otherwise −." — RULINGS 15: "+ if that condition holds at that moment, − otherwise"."""
    amount = 2 if cid.endswith("12") else 3
    for minion, life, plus in (("holo_wolf", 2, True), ("vat_brute", 6, False)):
        s = fresh()
        gideon = place(s, 0, cid)
        place(s, 1, "sera_quill_12", set_=True)  # Set: it cannot Intercept
        target = place(s, 1, minion)
        use(s, gideon, index(cid, "query"))  # the only enemy Minion: picked by itself
        assert gideon.set
        if plus:
            assert not alive(s, target) and kept(s)
        else:
            assert target.wounds == amount < life and passed(s)
    s = fresh()
    gideon = place(s, 0, cid)
    assert stat(s, gideon, "ddmg") == (0 if cid.endswith("12") else 1)


@covers("mother_ix_12")
def test_mother_ix_12() -> None:
    """Mother Ix, Level 1/2: "Your Minions get +1 ADMG." — not its Gladiators, not the enemy's Minions."""
    s = fresh()
    mother, wolf = place(s, 0, "mother_ix_12"), place(s, 0, "holo_wolf", SUPPORT)
    enemy_wolf = place(s, 1, "holo_wolf")
    assert stat(s, wolf, "admg") == 2 and stat(s, enemy_wolf, "admg") == 1 and stat(s, mother, "admg") == 1
    assert stat(s, wolf, "life") == 2


@covers("mother_ix_34")
def test_mother_ix_34() -> None:
    """Mother Ix, Level 3/4: "Your Minions get +1 ADMG and +1 Life." """
    s = fresh()
    mother, wolf = place(s, 0, "mother_ix_34"), place(s, 0, "holo_wolf", SUPPORT)
    enemy_wolf = place(s, 1, "holo_wolf")
    assert (stat(s, wolf, "admg"), stat(s, wolf, "life")) == (2, 3)
    assert (stat(s, enemy_wolf, "admg"), stat(s, enemy_wolf, "life")) == (1, 2)
    assert (stat(s, mother, "admg"), stat(s, mother, "life")) == (2, 8)


@pytest.mark.parametrize("cid", ["orrin_vale_12", "orrin_vale_34"])
@covers("orrin_vale_12")
def test_orrin_vale_gains_cp(cid: str) -> None:
    """Orrin Vale: "When another character you control is defeated: gain 1 CP." — the enemy's characters
    falling give nothing."""
    s = fresh(hands=([], ["mind_spike"]), flow=1)
    place(s, 0, cid)
    wolf = place(s, 0, "holo_wolf", SUPPORT)  # Life 2
    place(s, 1, "nael_orris_12")
    enemy_wolf = place(s, 1, "holo_wolf")
    play(s, 1, "mind_spike", wolf.uid)
    assert not alive(s, wolf) and s.sides[0].cp == 20 + 1
    do(s, 1, "pass")
    orrin = s.sides[0].chars[0]
    attack(s, orrin, enemy_wolf)
    assert not alive(s, enemy_wolf) and s.sides[0].cp == 21


@pytest.mark.parametrize("orrin_first", [True, False])
def test_orrin_vale_falling_with_another_character(orrin_first: bool) -> None:
    """Orrin Vale: "When another character you control is defeated: gain 1 CP." — "every character whose
    wounds reach its Life is defeated, all at once" (RULINGS 28), and `ally_defeated` is watched by "a card
    in play" (63): falling with the other, Orrin gains nothing, in whichever order they came into play."""
    s = fresh(hands=(["ritual_of_ash"], []))
    able(s, 0, "ritual_of_ash")
    cards = ["orrin_vale_12", "holo_wolf"] if orrin_first else ["holo_wolf", "orrin_vale_12"]
    fallen = [place(s, 1, cid, SUPPORT, wounds=4 if cid == "orrin_vale_12" else 0) for cid in cards]
    foe(s)
    play(s, 0, "ritual_of_ash")
    assert not any(alive(s, c) for c in fallen) and s.sides[1].cp == 20


@covers("orrin_vale_34")
def test_orrin_vale_34() -> None:
    """Orrin Vale, Level 3/4: "When another character you control is defeated: gain 1 CP." "↷ +: Put a
    Minion with a play cost of 2 CP or less from your hand into play without paying its cost." — it "counts
    as played" but "its symbol does not apply" (RULINGS 64)."""
    s = fresh(hands=(["bound_colossus", "brood_crawler", "holo_wolf"], []))
    orrin = place(s, 0, "orrin_vale_34")
    foe(s)
    do(s, 0, f"ability:u={orrin.uid}:a={index('orrin_vale_34', 'plus')}")
    assert options(s) == ["brood_crawler", "holo_wolf"], "Bound Colossus costs 4"
    act(s, "pick:c=brood_crawler")
    calm(s)
    (crawler,) = [c for c in s.sides[0].chars if c.card == "brood_crawler"]
    assert crawler.field == SUPPORT and not crawler.set and orrin.set
    assert s.sides[0].cp == 20 and s.sides[0].hand == ["bound_colossus", "holo_wolf"] and kept(s)


@pytest.mark.parametrize(("cid", "amount"), [("kestrel_nine_12", 2), ("kestrel_nine_34", 3)])
@covers("kestrel_nine_12", "kestrel_nine_34")
def test_kestrel_nine(cid: str, amount: int) -> None:
    """Kestrel Nine, Level 1/2: "↷ +: Heal 2 wounds from a character you control." Level 3/4: "↷ +: Heal 3
    wounds from a character you control." """
    s = fresh()
    kestrel = place(s, 0, cid)
    brakka = place(s, 0, "brakka_vohl_12", wounds=5)
    target = foe(s, cid="brakka_vohl_12")
    target.wounds = 5
    do(s, 0, f"ability:u={kestrel.uid}:a=0")
    assert options(s) == [kestrel.uid, brakka.uid], "characters you control only"
    act(s, f"pick:t={brakka.uid}")
    assert brakka.wounds == 5 - amount and target.wounds == 5 and kestrel.set and kept(s)


@covers("vashti_cole_12")
def test_vashti_cole_12() -> None:
    """Vashti Cole, Level 1/2: "At the end of each Wave: heal 1 wound from this." """
    s = fresh()
    vashti, brakka = place(s, 0, "vashti_cole_12", wounds=2), place(s, 0, "brakka_vohl_12", wounds=2)
    foe(s)
    end_wave(s)
    assert vashti.wounds == 1 and brakka.wounds == 2


@covers("vashti_cole_34")
def test_vashti_cole_34() -> None:
    """Vashti Cole, Level 3/4: "At the end of each Wave: heal 1 wound from each character you control." """
    s = fresh()
    vashti, brakka = place(s, 0, "vashti_cole_34", wounds=2), place(s, 0, "brakka_vohl_12", wounds=2)
    brute = place(s, 0, "vat_brute", SUPPORT, wounds=1)
    enemy = foe(s)
    enemy.wounds = 2
    end_wave(s)
    assert (vashti.wounds, brakka.wounds, enemy.wounds) == (1, 1, 2)
    assert brute.wounds == 0, "a Minion is a character you control (its own text heals it too)"


@pytest.mark.parametrize("cid", ["hex_marrow_12", "hex_marrow_34"])
@covers("hex_marrow_12", "hex_marrow_34")
def test_hex_marrow(cid: str) -> None:
    """Hex Marrow, Level 1/2: "When this takes damage and survives: +1 ADMG until the end of the Wave."
    Level 3/4 also: "While Raging: DDMG 1." """
    s = fresh(hands=([], ["mind_spike"]), flow=1)
    hex_ = place(s, 0, cid)
    printed = stat(s, hex_, "admg")
    place(s, 1, "nael_orris_12")
    play(s, 1, "mind_spike", hex_.uid)
    assert hex_.wounds == 2 and stat(s, hex_, "admg") == printed + 1
    next_wave(s)
    assert stat(s, hex_, "admg") == printed, "until the end of the Wave"
    assert stat(s, hex_, "ddmg") == 0
    raging(s, hex_)
    assert stat(s, hex_, "ddmg") == (1 if cid.endswith("34") else 0)


@covers("nael_orris_12")
def test_nael_orris_12() -> None:
    """Nael Orris, Level 1/2: "↷ ?: Set an enemy Gladiator. This is + if you are the Crowd Favorite;
    otherwise −." """
    for cheer, plus in ((1, True), (0, False)):
        s = fresh()
        nael = place(s, 0, "nael_orris_12")
        target = foe(s)
        place(s, 1, "holo_wolf")  # a Minion: not a choice
        s.sides[0].cheer = cheer
        use(s, nael, 0)
        assert target.set and nael.set
        assert kept(s) if plus else passed(s)


@covers("nael_orris_34")
def test_nael_orris_34() -> None:
    """Nael Orris, Level 3/4: "↷ +: Set an enemy character." — a Minion too."""
    s = fresh()
    nael = place(s, 0, "nael_orris_34")
    target = foe(s)
    wolf = place(s, 1, "holo_wolf")
    do(s, 0, f"ability:u={nael.uid}:a=0")
    assert options(s) == [target.uid, wolf.uid]
    act(s, f"pick:t={wolf.uid}")
    assert wolf.set and not target.set and nael.set and kept(s)


@pytest.mark.parametrize("cid", ["lyra_shen_12", "lyra_shen_34"])
@covers("lyra_shen_12")
def test_lyra_shen_moves_an_enemy(cid: str) -> None:
    """Lyra Shen: "★ +: Move an enemy character to the Support Field." — a move by an effect "is neither
    advancing nor retreating: no symbol, no Set" (RULINGS 22); ★ needs the Crowd Favorite (33)."""
    s = fresh()
    lyra = place(s, 0, cid)
    target = foe(s)
    key = f"ability:u={lyra.uid}:a=0"
    assert key not in keys(s, 0)
    s.sides[0].cheer = 1
    use(s, lyra, 0)
    assert target.field == SUPPORT and not target.set and not target.retreated
    assert not lyra.set and kept(s), "★ costs nothing"


@covers("lyra_shen_34")
def test_lyra_shen_34() -> None:
    """Lyra Shen, Level 3/4: "★ +: Move an enemy character to the Support Field." "When this is attacked:
    your opponent loses 1 Cheer." — Cheer never goes below 0 (RULINGS 34)."""
    s = fresh(flow=1)
    lyra = place(s, 0, "lyra_shen_34")
    place(s, 1, "sera_quill_12")
    wolf = place(s, 1, "holo_wolf")  # a Minion's attack generates no Cheer (RULINGS 32)
    s.sides[1].cheer = 2
    attack(s, wolf, lyra)
    assert s.sides[1].cheer == 1 and lyra.wounds == 1
    s = fresh(flow=1)
    lyra = place(s, 0, "lyra_shen_34")
    place(s, 1, "sera_quill_12")
    wolf = place(s, 1, "holo_wolf")
    attack(s, wolf, lyra)
    assert s.sides[1].cheer == 0


@pytest.mark.parametrize(("cid", "less"), [("nyx_arden_12", 1), ("nyx_arden_34", 2)])
@covers("nyx_arden_12", "nyx_arden_34")
def test_nyx_arden(cid: str, less: int) -> None:
    """Nyx Arden, Level 1/2: "R — When this is attacked, you may ↷: the attacker gets −1 ADMG for this
    attack." Level 3/4: "R — When this is attacked, you may ↷: the attacker gets −2 ADMG for this attack."
    — "A character's "R —" ability is offered at its event as a "you may"" (RULINGS 16)."""
    s = fresh(flow=1)
    nyx = place(s, 0, cid)
    attacker = place(s, 1, "hollow_saint_34")  # ADMG 3
    do(s, 1, f"attack:u={attacker.uid}:t={nyx.uid}")
    assert top(s) == "may" and keys(s, 0) == {"use", "pass"}
    do(s, 0, "use")
    calm(s)
    assert nyx.set and nyx.wounds == 3 - less and stat(s, attacker, "admg") == 3
    s = fresh(flow=1)
    nyx = place(s, 0, cid)
    attacker = place(s, 1, "hollow_saint_34")
    do(s, 1, f"attack:u={attacker.uid}:t={nyx.uid}")
    do(s, 0, "pass")
    calm(s)
    assert not nyx.set and nyx.wounds == 3, "declined"
    s = fresh(flow=1)
    nyx = place(s, 0, cid, set_=True)
    attacker = place(s, 1, "hollow_saint_34")
    do(s, 1, f"attack:u={attacker.uid}:t={nyx.uid}")
    assert top(s) != "may", "Set, it cannot pay ↷: not offered (RULINGS 21, 62)"
    calm(s)
    assert nyx.wounds == 3


@covers("hollow_saint_12")
def test_hollow_saint_12() -> None:
    """The Hollow Saint, Level 1/2: "DDMG 2." """
    s = fresh(flow=1)
    saint, attacker = place(s, 0, "hollow_saint_12"), foe(s)
    attack(s, attacker, saint)
    assert attacker.wounds == 2 and saint.wounds == 2


@covers("hollow_saint_34")
def test_hollow_saint_34() -> None:
    """The Hollow Saint, Level 3/4: "DDMG 2." "While Raging: +1 ADMG." """
    s = fresh(flow=1)
    saint, attacker = place(s, 0, "hollow_saint_34"), foe(s)
    assert (stat(s, saint, "admg"), stat(s, saint, "ddmg")) == (3, 2)
    attack(s, attacker, saint)
    assert attacker.wounds == 2
    raging(s, saint)
    assert (stat(s, saint, "admg"), stat(s, saint, "ddmg")) == (4, 2)


@pytest.mark.parametrize(("cid", "plus"), [("ember_vey_12", False), ("ember_vey_34", True)])
@covers("ember_vey_12", "ember_vey_34")
def test_ember_vey(cid: str, plus: bool) -> None:
    """Ember Vey, Level 1/2: "↷ −: Deal X damage to an enemy character, where X is the number of the current
    Wave." Level 3/4: "↷ +: Deal X damage to an enemy character, where X is the number of the current Wave."
    — X "is read as the step using it resolves" (RULINGS 41)."""
    s = fresh()
    s.wave = 3
    ember = place(s, 0, cid)
    target = foe(s, cid="brakka_vohl_12")
    use(s, ember, 0)
    assert target.wounds == 3 and ember.set
    assert kept(s) if plus else passed(s)


# ======================================================================================= Reinforcements ====


@covers("rook")
def test_rook() -> None:
    """Rook: "While Raging: +1 ADMG." — a Reinforcement is a Gladiator, and Rages (RULINGS 3, 29)."""
    s = fresh()
    rook = place(s, 0, "rook")
    assert stat(s, rook, "admg") == 1
    raging(s, rook)
    assert stat(s, rook, "admg") == 2


@covers("mags")
def test_mags() -> None:
    """Mags: "↷ +: Deal 1 damage to an enemy Minion." """
    s = fresh()
    mags = place(s, 0, "mags")
    target = place(s, 1, "sera_quill_12", set_=True)  # Set: it cannot Intercept
    wolf = place(s, 1, "holo_wolf")
    use(s, mags, 0)
    assert wolf.wounds == 1 and target.wounds == 0 and mags.set and kept(s)


@covers("ninety")
def test_ninety() -> None:
    """Ninety: "At the end of each Wave: heal 1 wound from this." """
    s = fresh()
    ninety = place(s, 0, "ninety", wounds=2)
    place(s, 0, "kestrel_nine_12", wounds=2)
    foe(s)
    end_wave(s)
    assert ninety.wounds == 1 and s.sides[0].chars[1].wounds == 2


@covers("ashen_acolyte")
def test_ashen_acolyte() -> None:
    """Ashen Acolyte: "DDMG 1." """
    s = fresh(flow=1)
    acolyte, attacker = place(s, 0, "ashen_acolyte"), foe(s)
    attack(s, attacker, acolyte)
    assert attacker.wounds == 1 and acolyte.wounds == 2


@covers("mags")
def test_a_reinforcement_brought_in_at_the_breather() -> None:
    """Mags: "↷ +: Deal 1 damage to an enemy Minion." — brought in "during the PROMOTE step of the Breather
    to replace fallen Gladiators", in the Support Field, its text in force in the next Wave (RULINGS 49)."""
    s = fresh()
    place(s, 0, "brakka_vohl_12")
    s.sides[0].pyre, s.sides[0].stack, s.sides[0].started = ["sera_quill_12"], ["mags"], 2
    place(s, 1, "sera_quill_12", set_=True)
    wolf = place(s, 1, "holo_wolf")
    next_wave(s, "reinforce:c=mags", f"keep:u={wolf.uid}")
    (mags,) = [c for c in s.sides[0].chars if c.card == "mags"]
    assert (mags.field, mags.level, mags.set, s.sides[0].stack) == (SUPPORT, 0, False, [])
    s.flow = 0
    use(s, mags, 0)
    assert wolf.wounds == 1 and mags.set and kept(s)


@covers("halcyon_34")
def test_a_promotion_puts_the_level_34_card_in_play() -> None:
    """Unit 7 "Halcyon", Level 3/4: "↷ +: Unset another Gladiator you control." — promoted from Level 2,
    "it is replaced by its Level 3/4 card from the Stack" (RULINGS 48) and that card's text is in force."""
    s = fresh()
    halcyon = place(s, 0, "halcyon_12")
    halcyon.level = 2
    brakka = place(s, 0, "brakka_vohl_12")
    s.sides[0].stack = ["halcyon_34"]
    foe(s)
    next_wave(s, f"promote:u={halcyon.uid}")
    assert (halcyon.card, halcyon.level, s.sides[0].stack) == ("halcyon_34", 3, [])
    s.flow = 0
    attack(s, brakka, s.sides[1].chars[0])
    use(s, halcyon, 0)
    assert not brakka.set and halcyon.set and kept(s), "+ now, where the Level 1/2 card was −"


# ============================================================================================== Minions ====

MINIONS = sorted(cid for cid, spec in CARDS.items() if spec.type == "minion")


@pytest.mark.parametrize("cid", MINIONS)
def test_a_minion_enters_the_support_field(cid: str) -> None:
    """Every Minion: "a Minion enters its player's Support Field Unset and its "When you play this" text
    resolves" (RULINGS 35), its play cost paid and its printed Life and ADMG its own; "Then its symbol
    applies" (a ? Minion finding no enemy Minion to defeat is −)."""
    s = fresh(hands=([cid], []))
    able(s, 0, cid)
    foe(s)
    play(s, 0, cid)
    (minion,) = [c for c in s.sides[0].chars if c.card == cid]
    spec = CARDS[cid]
    assert minion.field == SUPPORT and not minion.set and minion.wounds == 0
    assert (stat(s, minion, "life"), stat(s, minion, "admg")) == (spec.stat("life"), spec.stat("admg"))
    assert s.sides[0].cp == 20 - spec.stat("cp") and s.sides[0].hand == []
    assert kept(s) if symbol(cid) == "+" else passed(s)


@covers("pit_hound")
def test_pit_hound() -> None:
    """Pit Hound: "When this is defeated by an attack: deal 1 damage to the attacker." — defeated by a
    card, there is no attacker (RULINGS 65: "nothing when no attack is under way")."""
    s = fresh(flow=1)
    place(s, 0, "brakka_vohl_12", set_=True)
    hound = place(s, 0, "pit_hound")  # Life 3
    attacker = place(s, 1, "hollow_saint_34")  # ADMG 3
    attack(s, attacker, hound)
    assert not alive(s, hound) and attacker.wounds == 1 and s.sides[0].scrap == ["pit_hound"]
    s = fresh(hands=([], ["overcharge"]), flow=1)
    place(s, 0, "brakka_vohl_12", set_=True)
    hound = place(s, 0, "pit_hound")
    shooter = place(s, 1, "halcyon_12")
    play(s, 1, "overcharge", hound.uid, x=3)
    assert not alive(s, hound) and shooter.wounds == 0


@covers("arena_veteran")
def test_arena_veteran() -> None:
    """Arena Veteran: "DDMG 1." """
    s = fresh(flow=1)
    place(s, 0, "brakka_vohl_12", set_=True)
    veteran, attacker = place(s, 0, "arena_veteran"), foe(s)
    attack(s, attacker, veteran)
    assert attacker.wounds == 1 and veteran.wounds == 2


@covers("targeting_drone")
def test_targeting_drone() -> None:
    """Targeting Drone: "↷ +: A Gladiator you control gets +1 ADMG until the end of the Wave." """
    s = fresh()
    brakka = place(s, 0, "brakka_vohl_12")
    drone = place(s, 0, "targeting_drone", SUPPORT)
    place(s, 0, "holo_wolf", SUPPORT)  # a Minion: not a choice
    foe(s)
    use(s, drone, 0)
    assert stat(s, brakka, "admg") == 3 and drone.set and kept(s)
    next_wave(s)
    assert stat(s, brakka, "admg") == 2


@covers("sentry_turret")
def test_sentry_turret() -> None:
    """Sentry Turret: "DDMG 1." — and its Maintain is ☠: "scrapped at the next Maintain step whatever its
    player has" (RULINGS 40)."""
    s = fresh(flow=1)
    place(s, 0, "brakka_vohl_12", set_=True)
    turret, attacker = place(s, 0, "sentry_turret"), foe(s)
    attack(s, attacker, turret)
    assert attacker.wounds == 1 and turret.wounds == 2
    next_wave(s)
    assert not alive(s, turret) and "sentry_turret" in s.sides[0].scrap


@covers("holo_wolf")
def test_holo_wolf() -> None:
    """Holo-Wolf: "When this advances: it gets +1 ADMG until the end of the Wave." — a move by an effect is
    no advance (RULINGS 22)."""
    s = fresh()
    place(s, 0, "orrin_vale_12")
    wolf = place(s, 0, "holo_wolf", SUPPORT)
    foe(s)
    do(s, 0, f"advance:u={wolf.uid}")
    assert wolf.field == ACTION and stat(s, wolf, "admg") == 2 and kept(s)
    next_wave(s)
    assert stat(s, wolf, "admg") == 1


@covers("brood_crawler")
def test_brood_crawler() -> None:
    """Brood Crawler: "When this is defeated: draw a card." — its controller draws."""
    s = fresh(hands=([], ["mind_spike"]), flow=1)
    place(s, 0, "kestrel_nine_12", set_=True)
    crawler = place(s, 0, "brood_crawler")  # Life 3
    crawler.wounds = 1
    place(s, 1, "nael_orris_12")
    top_card = s.sides[0].arsenal[-1]
    play(s, 1, "mind_spike", crawler.uid)
    assert not alive(s, crawler) and s.sides[0].hand == [top_card]


@covers("phantom_decoy")
def test_phantom_decoy() -> None:
    """Phantom Decoy: "When this is attacked: the attacker gets −1 ADMG for this attack." """
    s = fresh(flow=1)
    place(s, 0, "orrin_vale_12", set_=True)
    decoy = place(s, 0, "phantom_decoy")
    attacker = place(s, 1, "hollow_saint_34")  # ADMG 3
    attack(s, attacker, decoy)
    assert decoy.wounds == 2 and stat(s, attacker, "admg") == 3


@covers("bound_colossus")
def test_bound_colossus() -> None:
    """Bound Colossus has no text: a − Minion with Life 7 and ADMG 3 (checked with every Minion above); here
    it fights with them."""
    s = fresh(hands=(["bound_colossus"], []))
    able(s, 0, "bound_colossus")
    target = foe(s, cid="hollow_saint_34")  # Life 10, DDMG 2
    play(s, 0, "bound_colossus")
    assert passed(s)
    colossus = s.sides[0].chars[-1]
    do(s, 1, "pass")
    do(s, 0, f"advance:u={colossus.uid}")
    attack(s, colossus, target)
    assert target.wounds == 3 and colossus.wounds == 2 and s.sides[0].cheer == 0, "a Minion makes no Cheer"


@covers("symbiote_leech")
def test_symbiote_leech() -> None:
    """Symbiote Leech: "When this attacks: heal 1 wound from a Gladiator you control." """
    s = fresh()
    kestrel = place(s, 0, "kestrel_nine_12", wounds=3)
    leech = place(s, 0, "symbiote_leech")
    target = foe(s)
    attack(s, leech, target)
    assert kestrel.wounds == 2 and target.wounds == 1 and kept(s)


@covers("vat_brute")
def test_vat_brute() -> None:
    """Vat Brute: "At the end of each Wave: heal 2 wounds from this." """
    s = fresh()
    place(s, 0, "kestrel_nine_12", wounds=3)
    brute = place(s, 0, "vat_brute", wounds=3)
    foe(s)
    end_wave(s)
    assert brute.wounds == 1 and s.sides[0].chars[0].wounds == 3


@covers("psi_hound")
def test_psi_hound() -> None:
    """Psi-Hound: "↷ +: Set an enemy Minion." """
    s = fresh()
    place(s, 0, "nael_orris_12")
    hound = place(s, 0, "psi_hound", SUPPORT)
    target, wolf = foe(s), place(s, 1, "holo_wolf")
    use(s, hound, 0)
    assert wolf.set and not target.set and hound.set and kept(s)


@covers("wraith")
def test_wraith() -> None:
    """Wraith: "↷ +: Deal 1 XDMG to an enemy character." — no Intercept (RULINGS 27)."""
    s = fresh()
    place(s, 0, "ember_vey_12")
    wraith = place(s, 0, "wraith", SUPPORT)
    target, guard = foe(s), foe(s, cid="brakka_vohl_12")
    use(s, wraith, 0, target.uid)
    assert target.wounds == 1 and guard.wounds == 0 and not guard.set and wraith.set and kept(s)


@covers("bone_chorus")
def test_bone_chorus() -> None:
    """Bone Chorus: "When you play this: deal 1 damage to each enemy Minion. This is + if one of them is
    defeated; otherwise −." """
    for lives, plus in (((1, 2), True), ((2, 3), False)):
        s = fresh(hands=(["bone_chorus"], []))
        able(s, 0, "bone_chorus")
        target = foe(s)
        minions = [place(s, 1, {1: "scavenger_drone", 2: "holo_wolf", 3: "pit_hound"}[n]) for n in lives]
        play(s, 0, "bone_chorus")
        assert target.wounds == 0
        assert [m.wounds if alive(s, m) else "dead" for m in minions] == (["dead", 1] if plus else [1, 1])
        assert kept(s) if plus else passed(s)


@covers("medic_bot")
def test_medic_bot() -> None:
    """Medic Bot: "↷ +: Heal 1 wound from a character you control." """
    s = fresh()
    brakka = place(s, 0, "brakka_vohl_12", wounds=2)
    bot = place(s, 0, "medic_bot", SUPPORT)
    foe(s)
    use(s, bot, 0, brakka.uid)
    assert brakka.wounds == 1 and bot.set and kept(s)


@covers("hype_bot")
def test_hype_bot() -> None:
    """Hype Bot: "Spend 1 Cheer, +: Draw 2 cards." — "A cost that cannot be paid means the ability is not
    offered" (RULINGS 62)."""
    s = fresh()
    place(s, 0, "kestrel_nine_12")
    bot = place(s, 0, "hype_bot", SUPPORT)
    foe(s)
    key = f"ability:u={bot.uid}:a=0"
    assert key not in keys(s, 0)
    s.sides[0].cheer = 2
    drawn = sorted(s.sides[0].arsenal[-2:])
    use(s, bot, 0)
    assert s.sides[0].hand == drawn and s.sides[0].cheer == 1 and not bot.set and kept(s)


@covers("scavenger_drone")
def test_scavenger_drone() -> None:
    """Scavenger Drone: "Scrap a card from your hand, +: Gain 2 CP." """
    s = fresh(hands=(["mind_spike", "stim_shot"], []))
    place(s, 0, "kestrel_nine_12")
    drone = place(s, 0, "scavenger_drone", SUPPORT)
    foe(s)
    do(s, 0, f"ability:u={drone.uid}:a=0")
    assert options(s) == ["mind_spike", "stim_shot"]
    act(s, "pick:c=mind_spike")
    assert s.sides[0].hand == ["stim_shot"] and s.sides[0].scrap == ["mind_spike"]
    assert s.sides[0].cp == 22 and kept(s)
    s = fresh()
    place(s, 0, "kestrel_nine_12")
    drone = place(s, 0, "scavenger_drone", SUPPORT)
    foe(s)
    assert f"ability:u={drone.uid}:a=0" not in keys(s, 0), "an empty hand cannot pay"


# ============================================================================ Strategy cards: Warrior ====


@covers("overhand_smash")
def test_overhand_smash() -> None:
    """Overhand Smash: "A Gladiator you control gets +2 ADMG until the end of the Wave." """
    s = fresh(hands=(["overhand_smash"], []))
    brakka = able(s, 0, "overhand_smash")
    place(s, 0, "holo_wolf")  # a Minion: not a choice
    foe(s)
    play(s, 0, "overhand_smash")
    assert stat(s, brakka, "admg") == 4 and s.sides[0].cp == 19 and kept(s)
    assert s.sides[0].scrap == ["overhand_smash"], "a Quick-Hit is scrapped once it resolves (RULINGS 37)"
    next_wave(s)
    assert stat(s, brakka, "admg") == 2


@covers("blood_in_the_sand")
def test_blood_in_the_sand() -> None:
    """Blood in the Sand: "Deal 2 damage to a Gladiator you control. It gets +1 ADMG until the end of the
    Wave." — "it" is the Gladiator the first step chose (RULINGS 65)."""
    s = fresh(hands=(["blood_in_the_sand"], []))
    brakka = able(s, 0, "blood_in_the_sand")
    other = place(s, 0, "kestrel_nine_12")
    foe(s)
    do(s, 0, "play:c=blood_in_the_sand")
    assert options(s) == [brakka.uid, other.uid]
    act(s, f"pick:t={other.uid}")
    assert other.wounds == 2 and stat(s, other, "admg") == 3 and brakka.wounds == 0
    assert stat(s, brakka, "admg") == 2 and s.sides[0].cp == 20 and passed(s)


@covers("second_wind")
def test_second_wind() -> None:
    """Second Wind: "Heal 2 wounds from a Gladiator you control." """
    s = fresh(hands=(["second_wind"], []))
    brakka = able(s, 0, "second_wind")
    brakka.wounds = 3
    place(s, 0, "vat_brute", wounds=3)  # a Minion: not a choice
    foe(s)
    play(s, 0, "second_wind")
    assert brakka.wounds == 1 and s.sides[0].cp == 18 and kept(s)


@covers("brutal_counter")
def test_brutal_counter() -> None:
    """Brutal Counter: "DR — When an enemy attacks a character you control: it gets DDMG 2 for this
    attack." — a window opens for the defender as the attack is declared (RULINGS 16)."""
    s = fresh(hands=([], ["brutal_counter"]))
    attacker = place(s, 0, "brakka_vohl_12")
    target = able(s, 1, "brutal_counter")
    do(s, 0, f"attack:u={attacker.uid}:t={target.uid}")
    assert top(s) == "window" and "respond:c=brutal_counter" in keys(s, 1)
    do(s, 1, "respond:c=brutal_counter")
    calm(s)
    assert attacker.wounds == 2 and target.wounds == 2 and s.sides[1].cp == 19
    assert stat(s, target, "ddmg") == 0, "for this attack"
    assert s.sides[1].scrap == ["brutal_counter"] and kept(s), "a response leaves The Flow alone"


@covers("iron_hide_harness")
def test_iron_hide_harness() -> None:
    """Iron-Hide Harness: "Play on a Gladiator you control. It gets +2 Life." """
    s = fresh(hands=(["iron_hide_harness"], []))
    brakka = able(s, 0, "iron_hide_harness")
    place(s, 0, "holo_wolf")  # a Minion: not a choice
    foe(s)
    play(s, 0, "iron_hide_harness")
    (pump,) = s.pumps
    assert (pump.bearer, pump.owner, pump.card) == (brakka.uid, 0, "iron_hide_harness")
    assert stat(s, brakka, "life") == 10 and s.sides[0].cp == 18 and kept(s)


@covers("gladius_mk_ix")
def test_gladius_mk_ix() -> None:
    """Gladius Mk. IX: "Play on a Gladiator you control. It gets +1 ADMG." "While it is Raging, it gets +1
    more ADMG." — a Level 2 card (RULINGS 6)."""
    s = fresh(hands=(["gladius_mk_ix"], []))
    bearer = place(s, 0, "sera_quill_12")  # Level 1: not enough
    foe(s)
    assert "play:c=gladius_mk_ix" not in keys(s, 0)
    bearer.level = 2
    play(s, 0, "gladius_mk_ix")
    assert stat(s, bearer, "admg") == 3 and kept(s)
    raging(s, bearer)
    assert stat(s, bearer, "admg") == 4


@covers("berserkers_oath")
def test_berserkers_oath() -> None:
    """Berserker's Oath: "Unique." "Unset a Gladiator you control. It gets +1 ADMG until the end of the
    Wave." — "Each player may play each Unique title at most once per Wave" (RULINGS 39)."""
    s = fresh(hands=(["berserkers_oath", "berserkers_oath"], []))
    brakka = able(s, 0, "berserkers_oath")
    brakka.set = True
    foe(s)
    play(s, 0, "berserkers_oath")
    assert not brakka.set and stat(s, brakka, "admg") == 3 and passed(s)
    do(s, 1, "pass")
    assert s.flow == 0 and "play:c=berserkers_oath" not in keys(s, 0)


# =============================================================================== Strategy cards: Tech ====


@covers("railgun_burst")
def test_railgun_burst() -> None:
    """Railgun Burst: "An Unset character you control in the Action Field attacks with +1 ADMG; this attack
    deals XDMG." — an attack made by an effect "is part of the action that made it" (RULINGS 23)."""
    s = fresh(hands=(["railgun_burst"], []))
    halcyon = able(s, 0, "railgun_burst")
    place(s, 0, "brakka_vohl_12", set_=True)  # Set: not a choice
    place(s, 0, "juno_kessler_12", SUPPORT)  # in the Support Field: not a choice
    target, guard = foe(s), foe(s, cid="brakka_vohl_12")
    do(s, 0, "play:c=railgun_burst")
    assert options(s) == [target.uid, guard.uid], "Halcyon attacks: it was the only one able"
    act(s, f"pick:t={target.uid}")
    calm(s)
    assert target.wounds == 1 + 1 and guard.wounds == 0 and halcyon.set
    assert s.sides[0].cheer == 1 and kept(s)


@covers("pulse_shield")
def test_pulse_shield() -> None:
    """Pulse Shield: "DR — When an enemy attacks a character you control: prevent the first 2 damage it
    would take from this attack." """
    s = fresh(hands=([], ["pulse_shield"]))
    attacker = place(s, 0, "hollow_saint_34")  # ADMG 3
    target = able(s, 1, "pulse_shield")
    do(s, 0, f"attack:u={attacker.uid}:t={target.uid}")
    do(s, 1, "respond:c=pulse_shield")
    calm(s)
    assert target.wounds == 1 and target.shield == 0 and kept(s)


@covers("overclock")
def test_overclock() -> None:
    """Overclock: "Unset a character you control." — a Minion too."""
    s = fresh(hands=(["overclock"], []))
    able(s, 0, "overclock")
    drone = place(s, 0, "targeting_drone", set_=True)
    foe(s)
    play(s, 0, "overclock", drone.uid)
    assert not drone.set and kept(s)


@covers("emp_grenade")
def test_emp_grenade() -> None:
    """EMP Grenade: "Deal 1 damage to each enemy Minion. This is + if one of them is defeated; otherwise
    −." """
    for card, plus in (("scavenger_drone", True), ("holo_wolf", False)):
        s = fresh(hands=(["emp_grenade"], []))
        able(s, 0, "emp_grenade")
        target, minion = foe(s), place(s, 1, card)
        play(s, 0, "emp_grenade")
        assert target.wounds == 0 and (not alive(s, minion) if plus else minion.wounds == 1)
        assert kept(s) if plus else passed(s)


@covers("overcharge")
def test_overcharge() -> None:
    """Overcharge: "As you play this, pay X more CP. Deal X damage to an enemy character." """
    s = fresh(hands=(["overcharge"], []), cp=5)
    able(s, 0, "overcharge")
    target = foe(s, cid="brakka_vohl_12")
    offered = {k for k in keys(s, 0) if k.startswith("play")}
    assert offered == {f"play:c=overcharge:x={x}" for x in (1, 2, 3, 4)}, "X up to what 5 CP can pay"
    play(s, 0, "overcharge", target.uid, x=3)
    assert target.wounds == 3 and s.sides[0].cp == 5 - 1 - 3 and kept(s)


@covers("kinetic_plating")
def test_kinetic_plating() -> None:
    """Kinetic Plating: "Play on a character you control. It gets DDMG 1." """
    s = fresh(hands=(["kinetic_plating"], []), flow=1)
    able(s, 0, "kinetic_plating")
    wolf = place(s, 0, "holo_wolf")
    attacker = foe(s)
    s.flow = 0
    play(s, 0, "kinetic_plating", wolf.uid)
    assert stat(s, wolf, "ddmg") == 1 and kept(s)
    do(s, 0, "pass")
    attack(s, attacker, wolf)
    assert attacker.wounds == 1


@covers("targeting_uplink")
def test_targeting_uplink() -> None:
    """Targeting Uplink: "Play on a Gladiator you control." "↷ +: It attacks; this attack deals XDMG." — "A
    Pump with a ↷ ability Sets itself" (RULINGS 21)."""
    s = fresh(hands=(["targeting_uplink"], []))
    halcyon = able(s, 0, "targeting_uplink")
    target, guard = foe(s), foe(s, cid="brakka_vohl_12")
    play(s, 0, "targeting_uplink")
    (uplink,) = s.pumps
    assert uplink.bearer == halcyon.uid and kept(s)
    use(s, uplink, 1, target.uid)
    assert target.wounds == 1 and guard.wounds == 0 and uplink.set and halcyon.set and kept(s)


@covers("system_crash")
def test_system_crash() -> None:
    """System Crash: "Unique." "DR — When your opponent plays a Strategy card: cancel it." — "a cancelled
    card is scrapped without effect, its CP spent" and "The cancelled action keeps its symbol" (RULINGS
    43)."""
    s = fresh(hands=(["mind_spike"], ["system_crash"]))
    able(s, 0, "mind_spike")
    target = able(s, 1, "system_crash")
    do(s, 0, "play:c=mind_spike")
    assert top(s) == "window" and "respond:c=system_crash" in keys(s, 1)
    do(s, 1, "respond:c=system_crash")
    assert target.wounds == 0 and s.sides[0].scrap == ["mind_spike"] and s.sides[0].cp == 18
    assert s.sides[1].cp == 17 and s.sides[1].scrap == ["system_crash"] and kept(s)


# =========================================================================== Strategy cards: Summoner ====


@covers("call_the_pack")
def test_call_the_pack() -> None:
    """Call the Pack: "Put a Minion with a play cost of 2 CP or less from your hand into play without paying
    its cost." — it "counts as played" (its player's opponent gets a window) but "its symbol does not
    apply" (RULINGS 64): Call the Pack's + does."""
    hand = ["bound_colossus", "brood_crawler", "call_the_pack", "holo_wolf", "pit_hound"]
    s = fresh(hands=(hand, ["hex_bolt"]))
    able(s, 0, "call_the_pack")
    foe(s)
    do(s, 0, "play:c=call_the_pack")
    do(s, 1, "pass")  # the window on Call the Pack
    assert options(s) == ["brood_crawler", "holo_wolf"], "Bound Colossus costs 4; Pit Hound needs a Warrior"
    act(s, "pick:c=brood_crawler")
    assert top(s) == "window" and s.decisions[-1].source == "brood_crawler"
    do(s, 1, "pass")
    crawler = s.sides[0].chars[-1]
    assert crawler.card == "brood_crawler" and crawler.field == SUPPORT
    assert s.sides[0].cp == 19 and s.sides[0].hand == ["bound_colossus", "holo_wolf", "pit_hound"] and kept(s)


@covers("pack_tactics")
def test_pack_tactics() -> None:
    """Pack Tactics: "Play on a Minion you control. It gets +1 ADMG and +1 Life." """
    s = fresh(hands=(["pack_tactics"], []))
    able(s, 0, "pack_tactics")
    wolf = place(s, 0, "holo_wolf")
    foe(s)
    place(s, 1, "pit_hound")  # an enemy Minion: not a choice
    play(s, 0, "pack_tactics")
    assert (stat(s, wolf, "admg"), stat(s, wolf, "life")) == (2, 3) and s.pumps[0].bearer == wolf.uid
    assert kept(s)


@covers("spirit_tether")
def test_spirit_tether() -> None:
    """Spirit Tether: "Play on a Minion you control." "When it is defeated: draw a card." — "A Pump whose
    bearer leaves play is scrapped at once, after its own triggers on that event" (RULINGS 38)."""
    s = fresh(hands=(["spirit_tether"], ["mind_spike"]))
    able(s, 0, "spirit_tether")
    wolf = place(s, 0, "holo_wolf")
    place(s, 1, "nael_orris_12")
    play(s, 0, "spirit_tether")
    do(s, 0, "pass")
    drawn = s.sides[0].arsenal[-1]
    play(s, 1, "mind_spike", wolf.uid)
    assert not alive(s, wolf) and s.sides[0].hand == [drawn]
    assert not s.pumps and sorted(s.sides[0].scrap) == ["holo_wolf", "spirit_tether"]


@covers("recall_the_fallen")
def test_recall_the_fallen() -> None:
    """Recall the Fallen: "Take a Minion from your Scrap pile into your hand." """
    s = fresh(hands=(["recall_the_fallen"], []))
    able(s, 0, "recall_the_fallen")
    foe(s)
    s.sides[0].scrap = ["holo_wolf", "mind_spike", "pit_hound"]
    s.sides[1].scrap = ["brood_crawler"]
    do(s, 0, "play:c=recall_the_fallen")
    assert options(s) == ["holo_wolf", "pit_hound"]
    act(s, "pick:c=pit_hound")
    assert s.sides[0].hand == ["pit_hound"] and passed(s)
    assert sorted(s.sides[0].scrap) == ["holo_wolf", "mind_spike", "recall_the_fallen"]


@covers("alphas_howl")
def test_alphas_howl() -> None:
    """Alpha's Howl: "OR — When a character you control attacks: it gets +2 ADMG for this attack." — the
    attacker's window opens after the defence, before damage (RULINGS 16, 23)."""
    s = fresh(hands=(["alphas_howl"], []))
    attacker = able(s, 0, "alphas_howl")
    target = foe(s, cid="brakka_vohl_12")
    do(s, 0, f"attack:u={attacker.uid}:t={target.uid}")
    assert top(s) == "window" and "respond:c=alphas_howl" in keys(s, 0)
    do(s, 0, "respond:c=alphas_howl")
    calm(s)
    assert target.wounds == 2 + 2 and stat(s, attacker, "admg") == 2 and kept(s)


# ============================================================================ Strategy cards: Bio-Gen ====


@covers("regen_gel")
def test_regen_gel() -> None:
    """Regen Gel: "Heal 2 wounds from a character you control." """
    s = fresh(hands=(["regen_gel"], []))
    able(s, 0, "regen_gel")
    brute = place(s, 0, "vat_brute", wounds=3)
    foe(s)
    play(s, 0, "regen_gel", brute.uid)
    assert brute.wounds == 1 and s.sides[0].cp == 19 and kept(s)


@covers("adrenal_surge")
def test_adrenal_surge() -> None:
    """Adrenal Surge: "Unset a Gladiator you control and heal 1 wound from it." """
    s = fresh(hands=(["adrenal_surge"], []))
    kestrel = able(s, 0, "adrenal_surge")
    kestrel.set, kestrel.wounds = True, 2
    place(s, 0, "vat_brute", set_=True)  # a Minion: not a choice
    foe(s)
    play(s, 0, "adrenal_surge")
    assert not kestrel.set and kestrel.wounds == 1 and passed(s)


@covers("cell_bloom")
def test_cell_bloom() -> None:
    """Cell Bloom: "Heal 3 wounds from a character you control." "★: Draw a card." — "A "★:" line of a
    Strategy card resolves after the card's other text, and only if its player is the Crowd Favorite at
    that moment" (RULINGS 33)."""
    for cheer, draws in ((1, 1), (0, 0)):
        s = fresh(hands=(["cell_bloom"], []))
        kestrel = able(s, 0, "cell_bloom")
        kestrel.level, kestrel.wounds = 2, 4
        foe(s)
        s.sides[0].cheer = cheer
        drawn = s.sides[0].arsenal[len(s.sides[0].arsenal) - draws :]
        play(s, 0, "cell_bloom")
        assert kestrel.wounds == 1 and s.sides[0].hand == drawn and kept(s)


@covers("mutagenic_graft")
def test_mutagenic_graft() -> None:
    """Mutagenic Graft: "Play on a Gladiator you control. It gets +2 Life and −1 Rage." """
    s = fresh(hands=(["mutagenic_graft"], []))
    kestrel = able(s, 0, "mutagenic_graft")
    foe(s)
    play(s, 0, "mutagenic_graft")
    assert (stat(s, kestrel, "life"), stat(s, kestrel, "rage")) == (8, 2) and kept(s)
    kestrel.wounds = 2
    assert b.raging_now(s, kestrel)


@covers("hyper_clot")
def test_hyper_clot() -> None:
    """Hyper-Clot: "R — When a character you control is defeated: heal 1 wound from each Gladiator you
    control." — the window opens "once defeats and victory are settled" (RULINGS 16)."""
    s = fresh(hands=(["mind_spike"], ["hyper_clot"]))
    able(s, 0, "mind_spike")
    kestrel = able(s, 1, "hyper_clot")
    other = place(s, 1, "vashti_cole_12", wounds=1)
    kestrel.wounds = 2
    wolf = place(s, 1, "holo_wolf", SUPPORT)
    do(s, 0, "play:c=mind_spike")
    assert "respond:c=hyper_clot" not in keys(s, 1), "it answers a defeat only"
    do(s, 1, "pass")
    act(s, f"pick:t={wolf.uid}")
    do(s, 1, "pass")  # no Protect
    assert not alive(s, wolf) and top(s) == "window"
    do(s, 1, "respond:c=hyper_clot")
    calm(s)
    assert (kestrel.wounds, other.wounds) == (1, 0) and s.sides[1].cp == 19 and kept(s)


@covers("apex_splice")
def test_apex_splice() -> None:
    """Apex Splice: "Play on a Gladiator you control. It gets +2 ADMG and +2 Life." — a Level 3 card."""
    s = fresh(hands=(["apex_splice"], []))
    low = place(s, 0, "kestrel_nine_12")
    foe(s)
    assert "play:c=apex_splice" not in keys(s, 0)
    high = able(s, 0, "apex_splice")
    do(s, 0, "play:c=apex_splice")
    assert options(s) == [low.uid, high.uid]
    act(s, f"pick:t={high.uid}")
    assert (stat(s, high, "admg"), stat(s, high, "life")) == (5, 10) and s.sides[0].cp == 16 and kept(s)


@covers("purge_toxins")
def test_purge_toxins() -> None:
    """Purge Toxins: "Heal 1 wound from a character you control. This is + if you are the Crowd Favorite;
    otherwise −." """
    for cheer, plus in ((1, True), (0, False)):
        s = fresh(hands=(["purge_toxins"], []))
        kestrel = able(s, 0, "purge_toxins")
        kestrel.wounds = 2
        foe(s)
        s.sides[0].cheer = cheer
        play(s, 0, "purge_toxins")
        assert kestrel.wounds == 1 and s.sides[0].cp == 20
        assert kept(s) if plus else passed(s)


# ============================================================================ Strategy cards: Psionic ====


@covers("mind_spike")
def test_mind_spike() -> None:
    """Mind Spike: "Deal 2 damage to an enemy character." — the target's controller may Intercept it "as
    their choice before it is dealt" (RULINGS 27)."""
    s = fresh(hands=(["mind_spike", "mind_spike"], []))
    able(s, 0, "mind_spike")
    target, guard = foe(s), foe(s, cid="brakka_vohl_12")
    play(s, 0, "mind_spike", target.uid)
    assert target.wounds == 2 and guard.wounds == 0 and kept(s)
    do(s, 0, "play:c=mind_spike")
    act(s, f"pick:t={target.uid}")
    assert top(s) == "defend" and f"intercept:u={guard.uid}" in keys(s, 1)
    do(s, 1, f"intercept:u={guard.uid}")
    calm(s)
    assert target.wounds == 2 and guard.wounds == 2 and guard.set and kept(s)


@covers("puppet_strings")
def test_puppet_strings() -> None:
    """Puppet Strings: "Set an enemy character." """
    s = fresh(hands=(["puppet_strings"], []))
    able(s, 0, "puppet_strings")
    target = foe(s)
    play(s, 0, "puppet_strings")
    assert target.set and passed(s)


@covers("stolen_momentum")
def test_stolen_momentum() -> None:
    """Stolen Momentum: "Your opponent loses 1 Cheer and you gain 1 Cheer." """
    s = fresh(hands=(["stolen_momentum", "stolen_momentum"], []))
    able(s, 0, "stolen_momentum")
    foe(s)
    s.sides[1].cheer = 2
    play(s, 0, "stolen_momentum")
    assert (s.sides[0].cheer, s.sides[1].cheer) == (1, 1) and passed(s)
    s.sides[1].cheer = 0
    do(s, 1, "pass")
    play(s, 0, "stolen_momentum")
    assert (s.sides[0].cheer, s.sides[1].cheer) == (2, 0), "Cheer never goes below 0 (RULINGS 34)"


@covers("precognition")
def test_precognition() -> None:
    """Precognition: "DR — When an enemy attacks a character you control: Unset a Gladiator you control." —
    in time for it to Intercept (RULINGS 23: the window comes before the defence)."""
    s = fresh(hands=([], ["precognition"]))
    attacker = place(s, 0, "brakka_vohl_12")
    target = able(s, 1, "precognition")
    guard = place(s, 1, "lyra_shen_12", set_=True)
    do(s, 0, f"attack:u={attacker.uid}:t={target.uid}")
    do(s, 1, "respond:c=precognition")
    assert options(s) == [target.uid, guard.uid]
    act(s, f"pick:t={guard.uid}")
    assert not guard.set and top(s) == "defend"
    do(s, 1, f"intercept:u={guard.uid}")
    calm(s)
    assert guard.wounds == 2 and target.wounds == 0 and s.sides[1].cheer == 1, "the Interceptor's Cheer"


@covers("whispers_of_doubt")
def test_whispers_of_doubt() -> None:
    """Whispers of Doubt: "Your opponent scraps a card of their choice from their hand." """
    s = fresh(hands=(["whispers_of_doubt"], ["mind_spike", "stim_shot"]))
    able(s, 0, "whispers_of_doubt")
    foe(s)
    do(s, 0, "play:c=whispers_of_doubt")
    do(s, 1, "pass")
    assert top(s) == "pick" and s.decisions[-1].players == [1]
    do(s, 1, "pick:c=stim_shot")
    assert s.sides[1].hand == ["mind_spike"] and s.sides[1].scrap == ["stim_shot"] and kept(s)


@covers("neural_crown")
def test_neural_crown() -> None:
    """Neural Crown: "Play on a Gladiator you control." "★ +: Set an enemy character." """
    s = fresh(hands=(["neural_crown"], []))
    nael = able(s, 0, "neural_crown")
    nael.level = 2
    target = foe(s)
    play(s, 0, "neural_crown")
    (crown,) = s.pumps
    assert crown.bearer == nael.uid and kept(s)
    assert f"ability:u={crown.uid}:a=1" not in keys(s, 0), "not the Crowd Favorite"
    s.sides[0].cheer = 1
    use(s, crown, 1)
    assert target.set and not nael.set and not crown.set and kept(s)


@covers("thought_leech")
def test_thought_leech() -> None:
    """Thought Leech: "Play on an enemy character. It gets −1 ADMG." — its player controls it and pays its
    Maintain (RULINGS 38)."""
    s = fresh(hands=(["thought_leech"], []))
    able(s, 0, "thought_leech")
    target = foe(s)
    play(s, 0, "thought_leech")
    (leech,) = s.pumps
    assert (leech.bearer, leech.owner) == (target.uid, 0) and stat(s, target, "admg") == 1 and kept(s)


@covers("mass_hysteria")
def test_mass_hysteria() -> None:
    """Mass Hysteria: "Unique." "Set each enemy character in the Action Field." """
    s = fresh(hands=(["mass_hysteria", "mass_hysteria"], []))
    able(s, 0, "mass_hysteria")
    front, wolf = foe(s), place(s, 1, "holo_wolf")
    back = foe(s, SUPPORT, "brakka_vohl_12")
    play(s, 0, "mass_hysteria")
    assert front.set and wolf.set and not back.set and s.sides[0].cp == 16 and passed(s)
    do(s, 1, "pass")
    assert "play:c=mass_hysteria" not in keys(s, 0), "Unique"


@covers("crowd_whisper")
def test_crowd_whisper() -> None:
    """Crowd Whisper: "Gain 1 Cheer." "★: Draw 2 cards." — the ★ line is read after the Cheer is gained
    (RULINGS 33)."""
    for their_cheer, draws in ((0, 2), (1, 0)):
        s = fresh(hands=(["crowd_whisper"], []))
        able(s, 0, "crowd_whisper")
        foe(s)
        s.sides[1].cheer = their_cheer
        drawn = sorted(s.sides[0].arsenal[len(s.sides[0].arsenal) - draws :])
        play(s, 0, "crowd_whisper")
        assert s.sides[0].cheer == 1 and s.sides[0].hand == drawn and kept(s)


# ============================================================================= Strategy cards: Mystic ====


@covers("hex_bolt")
def test_hex_bolt() -> None:
    """Hex Bolt: "Deal 2 XDMG to an enemy character." — XDMG "cannot be Protected or Intercepted" (RULINGS
    24, 27)."""
    s = fresh(hands=(["hex_bolt"], []))
    able(s, 0, "hex_bolt")
    target, guard = foe(s), foe(s, cid="brakka_vohl_12")
    do(s, 0, "play:c=hex_bolt")
    act(s, f"pick:t={target.uid}")
    assert target.wounds == 2 and guard.wounds == 0 and kept(s), "no defence was asked"


@covers("soul_brand")
def test_soul_brand() -> None:
    """Soul Brand: "Deal X damage to an enemy Gladiator, where X is the number of Gladiators in your Funeral
    Pyre." """
    s = fresh(hands=(["soul_brand"], []))
    able(s, 0, "soul_brand")
    target = foe(s, cid="brakka_vohl_12")
    place(s, 1, "holo_wolf")  # a Minion: not a choice
    s.sides[0].pyre = ["rook", "halcyon_12"]
    s.sides[1].pyre = ["mags"]
    play(s, 0, "soul_brand")
    assert target.wounds == 2 and passed(s)


@covers("void_ward")
def test_void_ward() -> None:
    """Void Ward: "Play on a character you control. It gets DDMG 1." "While it is Raging, it gets DDMG 1
    more." — "a Pump's "While it is Raging" bonus waits for the next action" (RULINGS 29)."""
    s = fresh(hands=(["void_ward"], []))
    ember = able(s, 0, "void_ward")
    foe(s)
    play(s, 0, "void_ward", ember.uid)
    assert stat(s, ember, "ddmg") == 1 and kept(s)
    raging(s, ember)
    assert stat(s, ember, "ddmg") == 2


@covers("blood_pact")
def test_blood_pact() -> None:
    """Blood Pact: "Deal 2 damage to a Gladiator you control. Gain 2 CP." """
    s = fresh(hands=(["blood_pact"], []))
    ember = able(s, 0, "blood_pact")
    place(s, 0, "wraith")  # a Minion: not a choice
    foe(s)
    play(s, 0, "blood_pact")
    assert ember.wounds == 2 and s.sides[0].cp == 22 and kept(s)


@covers("curse_of_frailty")
def test_curse_of_frailty() -> None:
    """Curse of Frailty: "Play on an enemy character. It gets −2 Life." — "a Life modifier ending can defeat
    too", and so can one beginning (RULINGS 28)."""
    s = fresh(hands=(["curse_of_frailty", "curse_of_frailty"], []))
    able(s, 0, "curse_of_frailty")
    target = foe(s)
    wolf = place(s, 1, "brood_crawler", wounds=1)  # Life 3
    play(s, 0, "curse_of_frailty", target.uid)
    assert stat(s, target, "life") == 4 and s.pumps[0].owner == 0 and passed(s)
    do(s, 1, "pass")
    play(s, 0, "curse_of_frailty", wolf.uid)
    assert not alive(s, wolf) and len(s.pumps) == 1 and "curse_of_frailty" in s.sides[0].scrap


@covers("ritual_of_ash")
def test_ritual_of_ash() -> None:
    """Ritual of Ash: "Unique." "Deal 2 damage to each enemy character in the Support Field." — damage to a
    group cannot be Intercepted (RULINGS 27)."""
    s = fresh(hands=(["ritual_of_ash", "ritual_of_ash"], []))
    ember = able(s, 0, "ritual_of_ash", SUPPORT)
    front = foe(s)
    back, wolf = foe(s, SUPPORT, "brakka_vohl_12"), place(s, 1, "vat_brute", SUPPORT)
    play(s, 0, "ritual_of_ash")
    assert (front.wounds, back.wounds, wolf.wounds, ember.wounds) == (0, 2, 2, 0) and passed(s)
    do(s, 1, "pass")
    assert "play:c=ritual_of_ash" not in keys(s, 0), "Unique"


@covers("spiteful_echo")
def test_spiteful_echo() -> None:
    """Spiteful Echo: "OR — When an attack by a character you control is Intercepted or Protected: deal 1
    XDMG to the character now taking it." """
    s = fresh(hands=(["spiteful_echo"], []))
    attacker = able(s, 0, "spiteful_echo")  # ADMG 1
    target, guard = place(s, 1, "holo_wolf"), foe(s)
    do(s, 0, f"attack:u={attacker.uid}:t={target.uid}")
    do(s, 1, f"intercept:u={guard.uid}")
    assert top(s) == "window" and s.decisions[-1].data["events"] == ["ally_attacks", "blocked"]
    do(s, 0, "respond:c=spiteful_echo")
    calm(s)
    assert guard.wounds == 1 + 1 and target.wounds == 0 and attacker.wounds == 0
    s = fresh(hands=(["spiteful_echo"], []))
    attacker = able(s, 0, "spiteful_echo")
    target = foe(s)
    do(s, 0, f"attack:u={attacker.uid}:t={target.uid}")
    assert "respond:c=spiteful_echo" not in keys(s, 0), "not blocked: nothing to answer"


# ========================================================================== Strategy cards: Universal ====


@covers("stim_shot")
def test_stim_shot() -> None:
    """Stim Shot: "Heal 1 wound from a character you control. Draw a card." """
    s = fresh(hands=(["stim_shot"], []))
    kestrel = able(s, 0, "stim_shot")
    kestrel.wounds = 2
    foe(s)
    drawn = s.sides[0].arsenal[-1]
    play(s, 0, "stim_shot")
    assert kestrel.wounds == 1 and s.sides[0].hand == [drawn] and kept(s)


@covers("crowd_surge")
def test_crowd_surge() -> None:
    """Crowd Surge: "Gain 1 Cheer." — then the opponent, who has Cheer, may spend 1 to turn the + into −
    (RULINGS 17)."""
    s = fresh(hands=(["crowd_surge"], []))
    able(s, 0, "crowd_surge")
    foe(s)
    s.sides[1].cheer = 1
    do(s, 0, "play:c=crowd_surge")
    assert s.sides[0].cheer == 1 and top(s) == "cheer" and keys(s, 1) == {"spend", "pass"}
    do(s, 1, "spend")
    assert s.sides[1].cheer == 0 and passed(s)


@covers("showboat")
def test_showboat() -> None:
    """Showboat: "Gain 1 CP." "★: Gain 2 more CP." """
    for cheer, cp in ((1, 3), (0, 1)):
        s = fresh(hands=(["showboat"], []))
        able(s, 0, "showboat")
        foe(s)
        s.sides[0].cheer = cheer
        play(s, 0, "showboat")
        assert s.sides[0].cp == 20 + cp and passed(s)


@covers("sponsors_bonus")
def test_sponsors_bonus() -> None:
    """Sponsor's Bonus: "Unique." "Gain X CP, where X is your Cheer." """
    s = fresh(hands=(["sponsors_bonus", "sponsors_bonus"], []))
    able(s, 0, "sponsors_bonus")
    foe(s)
    s.sides[0].cheer, s.sides[1].cheer = 3, 5
    play(s, 0, "sponsors_bonus")
    assert s.sides[0].cp == 23 and s.sides[0].cheer == 3 and passed(s)
    do(s, 1, "pass")
    assert "play:c=sponsors_bonus" not in keys(s, 0), "Unique"


@covers("smoke_screen")
def test_smoke_screen() -> None:
    """Smoke Screen: "Unique." "DR — When an enemy attacks a character you control: cancel the attack." — "a
    cancelled attack deals no damage and its attacker stays Set (the Cheer already generated goes to the
    attacker" (RULINGS 43)."""
    s = fresh(hands=([], ["smoke_screen", "smoke_screen"]))
    attacker, other = place(s, 0, "hollow_saint_34"), place(s, 0, "brakka_vohl_12")
    target = able(s, 1, "smoke_screen")
    target.level = 2
    do(s, 0, f"attack:u={attacker.uid}:t={target.uid}")
    do(s, 1, "respond:c=smoke_screen")
    calm(s)
    assert target.wounds == 0 and attacker.wounds == 0 and attacker.set
    assert s.sides[0].cheer == 1 and s.sides[1].cp == 17 and kept(s)
    do(s, 0, f"attack:u={other.uid}:t={target.uid}")
    assert top(s) == "window" and "respond:c=smoke_screen" not in keys(s, 1), "Unique"


@covers("second_chance")
def test_second_chance() -> None:
    """Second Chance: "Take a Quick-Hit from your Scrap pile into your hand." — "seen by both" (RULINGS
    64)."""
    s = fresh(hands=(["second_chance"], []))
    kestrel = able(s, 0, "second_chance")
    kestrel.level = 2
    foe(s)
    s.sides[0].scrap = ["holo_wolf", "mind_spike", "stim_shot"]
    texts = do(s, 0, "play:c=second_chance")
    assert options(s) == ["mind_spike", "stim_shot"]
    texts += act(s, "pick:c=stim_shot")
    assert "P1 takes Stim Shot from the Scrap pile" in texts
    assert s.sides[0].hand == ["stim_shot"] and kept(s)
    assert sorted(s.sides[0].scrap) == ["holo_wolf", "mind_spike", "second_chance"]


@covers("combat_stims")
def test_combat_stims() -> None:
    """Combat Stims: "Play on a character you control. It gets +1 ADMG." "Scrap this, +: Heal 2 wounds from
    it." """
    s = fresh(hands=(["combat_stims"], []))
    kestrel = able(s, 0, "combat_stims")
    foe(s)
    play(s, 0, "combat_stims", kestrel.uid)
    (stims,) = s.pumps
    assert stat(s, kestrel, "admg") == 3 and kept(s)
    kestrel.wounds = 3
    use(s, stims, 2)
    assert kestrel.wounds == 1 and not s.pumps and stat(s, kestrel, "admg") == 2
    assert s.sides[0].scrap == ["combat_stims"] and kept(s)


@covers("fan_banner")
def test_fan_banner() -> None:
    """Fan Banner: "Play on a character you control." "While you are the Crowd Favorite, it gets +1 ADMG." —
    "A "While you are the Crowd Favorite" passive holds only while they are" (RULINGS 33)."""
    s = fresh(hands=(["fan_banner"], []))
    kestrel = able(s, 0, "fan_banner")
    foe(s)
    play(s, 0, "fan_banner", kestrel.uid)
    assert stat(s, kestrel, "admg") == 2 and kept(s)
    s.sides[0].cheer = 1
    assert stat(s, kestrel, "admg") == 3
    s.sides[1].cheer = 1
    assert stat(s, kestrel, "admg") == 2


@covers("energy_drink")
def test_energy_drink() -> None:
    """Energy Drink: "Draw 2 cards." """
    s = fresh(hands=(["energy_drink"], []))
    able(s, 0, "energy_drink")
    foe(s)
    drawn = sorted(s.sides[0].arsenal[-2:])
    play(s, 0, "energy_drink")
    assert s.sides[0].hand == drawn and s.sides[0].cp == 18 and passed(s)


@covers("cheap_shot")
def test_cheap_shot() -> None:
    """Cheap Shot: "OR — When a character you control attacks: it gets +1 ADMG for this attack." — "OR needs
    its player to have The Flow" (RULINGS 16): the defender holding it cannot answer."""
    s = fresh(hands=(["cheap_shot"], ["cheap_shot"]))
    attacker = able(s, 0, "cheap_shot")
    target = able(s, 1, "cheap_shot")
    do(s, 0, f"attack:u={attacker.uid}:t={target.uid}")
    assert top(s) == "window" and "respond:c=cheap_shot" not in keys(s, 1)
    do(s, 1, "pass")
    do(s, 0, "respond:c=cheap_shot")
    calm(s)
    assert target.wounds == 2 + 1 and stat(s, attacker, "admg") == 2 and kept(s)


@covers("dig_deep")
def test_dig_deep() -> None:
    """Dig Deep: "R — When a character you control is defeated: draw 2 cards." """
    s = fresh(hands=(["dig_deep"], []), flow=1)
    able(s, 0, "dig_deep")
    wolf = place(s, 0, "holo_wolf")
    attacker = foe(s)
    drawn = s.sides[0].arsenal[-2:]
    do(s, 1, f"attack:u={attacker.uid}:t={wolf.uid}")
    do(s, 0, "pass")  # the window on the attack
    do(s, 0, "pass")  # no Intercept
    assert not alive(s, wolf) and top(s) == "window"
    do(s, 0, "respond:c=dig_deep")
    calm(s)
    assert s.sides[0].hand == sorted(drawn) and s.sides[0].cp == 19 and kept(s, 1)


@covers("shove")
def test_shove() -> None:
    """Shove: "Move an enemy character to the Support Field." — neither advancing nor retreating (RULINGS
    22)."""
    s = fresh(hands=(["shove"], []))
    able(s, 0, "shove")
    target = foe(s)
    play(s, 0, "shove")
    assert target.field == SUPPORT and not target.set and not target.retreated and passed(s)


@covers("rip_it_off")
def test_rip_it_off() -> None:
    """Rip It Off: "Scrap a Pump your opponent controls." — a Pump goes to its controller's Scrap pile."""
    s = fresh(hands=(["rip_it_off"], []))
    kestrel = able(s, 0, "rip_it_off")
    target = foe(s)
    assert "play:c=rip_it_off" not in keys(s, 0), "no Pump to scrap (RULINGS 35)"
    theirs = attach(s, target, "iron_hide_harness")
    mine = attach(s, kestrel, "combat_stims")
    leech = attach(s, kestrel, "thought_leech", owner=1)
    do(s, 0, "play:c=rip_it_off")
    assert options(s) == [theirs.uid, leech.uid], "the opponent controls the Thought Leech on Kestrel"
    act(s, f"pick:t={theirs.uid}")
    assert s.pumps == [mine, leech] and stat(s, target, "life") == 6
    assert s.sides[1].scrap == ["iron_hide_harness"] and kept(s)


@covers("hard_reset")
def test_hard_reset() -> None:
    """Hard Reset: "Unique." "Unset each character you control." """
    s = fresh(hands=(["hard_reset", "hard_reset"], []))
    kestrel = able(s, 0, "hard_reset")
    others = [place(s, 0, "brakka_vohl_12", set_=True), place(s, 0, "medic_bot", SUPPORT, set_=True)]
    kestrel.set = True
    target = foe(s)
    target.set = True
    play(s, 0, "hard_reset")
    assert not kestrel.set and not any(c.set for c in others) and target.set and passed(s)
    do(s, 1, "pass")
    assert "play:c=hard_reset" not in keys(s, 0), "Unique"


# ============================================================================================== Coverage ====


def test_every_card_is_covered() -> None:
    """Every card id of cards.toml has a test above that quotes its text ("one test per card")."""
    assert sorted(set(CARDS) - COVERED) == []
