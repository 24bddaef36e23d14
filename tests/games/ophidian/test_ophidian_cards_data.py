"""Ophidian 2350's card data: the pool loads, has the shape issue 15 asks for, its ready teams are legal, and
the team and Arsenal checks and the card checks explain what is wrong. Each test quotes the sentence of
shared/rules/ophidian-2350.txt, of issue 15 or of engine/games/ophidian/RULINGS.md it checks. (The rules
themselves are checked by the rules engine's tests, which come next.)"""

from __future__ import annotations

import importlib
import itertools
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.abilities.spec import CardSpec, parse_card
from engine.carddata import CardDataError
from engine.games.ophidian import cards as c
from engine.games.ophidian.rules import Ophidian

RULINGS = (Path(c.__file__).with_name("RULINGS.md")).read_text(encoding="utf-8")

HIT: dict[str, Any] = {
    "id": "bad",
    "name": "Bad",
    "type": "quick_hit",
    "faction": "psionic",
    "level": 1,
    "cp": 2,
    "flow": "+",
    "text": "Deal 2 damage to an enemy character.",
    "ability": [{"type": "play", "effect": [{"do": "wound", "to": "enemy", "amount": 2}]}],
}
GLADIATOR: dict[str, Any] = {
    "id": "bad",
    "name": "Bad",
    "type": "gladiator",
    "faction": "warrior",
    "pair": "bad",
    "species": "human",
    "level": 1,
    "vp": 3,
    "life": 8,
    "rage": 4,
    "admg": 2,
    "text": "",
}


def parse(data: dict[str, Any]) -> CardSpec:
    """A card table through the kit's parser and Ophidian's checks, as a card pack's would go."""
    card = parse_card("pack.toml card 1", data, c.VOCABULARY, tuple(c.DISCIPLINES))
    c.check_card("pack.toml card 1", card, tuple(c.DISCIPLINES), tuple(c.SPECIES))
    return card


def steps(card: CardSpec) -> list[tuple[str, dict[str, Any]]]:
    """Every effect step of a card, as (effect name, arguments)."""
    return [(s.do, dict(s.args)) for a in card.abilities for s in a.effect]


def has_step(card: CardSpec, do: str, **args: Any) -> bool:
    """Whether one of the card's steps is this effect with these argument values."""
    return any(d == do and all(a.get(k) == v for k, v in args.items()) for d, a in steps(card))


def costs(card: CardSpec) -> set[str]:
    """The costs of a card's abilities."""
    return {a.cost for a in card.abilities if a.cost}


def passive(card: CardSpec, stat: str, condition: str | None = None) -> bool:
    """Whether the card has a passive on this stat (while this condition)."""
    return any(
        a.stat == stat and (condition is None or a.condition == condition) for _, a in card.of_type("passive")
    )


# ------------------------------------------------------------------------------------------ the shape ----


def test_the_pool_loads_in_the_real_sets_shape() -> None:
    """Issue 15: "about 16 Gladiators with levels 1–4 (two cards each, Level 1/2 and 3/4) …; 4 Level-0
    Reinforcements; at least 60 Strategy cards (Minions, Quick-Hits, Pumps)"; RULINGS.md 10."""
    kinds = Counter(card.type for card in c.CARDS.values())
    assert len(c.PAIRS) >= 16 and kinds["gladiator"] == 2 * len(c.PAIRS)
    assert len(c.REINFORCEMENTS) == 4 and all(r.stat("level") == 0 for r in c.REINFORCEMENTS.values())
    assert len(c.STRATEGY) >= 60
    assert min(kinds[t] for t in c.STRATEGY_TYPES) >= 10
    assert f"{len(c.PAIRS)} Gladiators ({kinds['gladiator']} cards)" in RULINGS
    assert f"{len(c.REINFORCEMENTS)} Reinforcements and {len(c.STRATEGY)} Strategy cards" in RULINGS


def test_each_gladiator_has_both_level_cards() -> None:
    """RULINGS.md 4: "a Level 1/2 card and a Level 3/4 card" sharing a name, linked by their pair; 5: "Our
    Level 3/4 cards are worth 2 VP more than the Level 1/2 card"."""
    for pair, (low, high) in c.PAIRS.items():
        lo, hi = c.CARDS[low], c.CARDS[high]
        assert (lo.stat("level"), hi.stat("level")) == (1, 3), pair
        assert lo.name == hi.name and c.disciplines(low) == c.disciplines(high), pair
        assert hi.stat("vp") == lo.stat("vp") + 2, pair
        assert hi.stat("life") > lo.stat("life") and hi.stat("admg") > lo.stat("admg"), pair
        assert c.PROMOTION[low] == high and low in c.GLADIATORS
    for card in c.CARDS.values():
        if card.type in c.GLADIATOR_TYPES:
            assert 1 <= card.stat("rage") < card.stat("life"), card.id


def test_disciplines_and_universal() -> None:
    """Issue 15: "the six disciplines plus Universal"; the rules list Warrior, Tech, Summoner, Bio-Gen,
    Psionic, Mystic and Universal; RULINGS.md 6: "Universal is a requirement only, no Gladiator has it"."""
    assert list(c.DISCIPLINES.values()) == [
        "Warrior",
        "Tech",
        "Summoner",
        "Bio-Gen",
        "Psionic",
        "Mystic",
        "Universal",
    ]
    per = Counter(d for g in c.GLADIATORS for d in c.disciplines(g))
    assert set(per) == set(c.DISCIPLINE_IDS) - {"universal"} and min(per.values()) >= 2
    strategy = Counter(card.faction for card in c.STRATEGY.values())
    assert set(strategy) == set(c.DISCIPLINE_IDS) and min(strategy.values()) >= 8
    assert any(c.CARDS[g].flag("second_discipline") for g in c.GLADIATORS), "a Gladiator with two"


def test_every_gladiator_fits_a_ten_vp_team() -> None:
    """Issue 15: "VP that make 10-VP teams": every Gladiator is in some team of at most 4 worth exactly 10."""
    vp = {g: card.stat("vp") for g, card in c.GLADIATORS.items()}
    fits = set()
    for k in range(1, c.MAX_GLADIATORS + 1):
        for team in itertools.combinations(vp, k):
            if sum(vp[g] for g in team) == c.TEAM_VP:
                fits.update(team)
    assert fits == set(vp)


MECHANICS: dict[str, Callable[[CardSpec], bool]] = {
    "flow +": lambda k: k.flag("flow") == "+",
    "flow −": lambda k: k.flag("flow") == "-",
    "flow ?": lambda k: k.flag("flow") == "?",
    "OR": lambda k: k.flag("response") == "or",
    "DR": lambda k: k.flag("response") == "dr",
    "R": lambda k: k.flag("response") == "r",
    "a character's R ability": lambda k: any(a.may for a in k.abilities),
    "arrow (↷) ability": lambda k: "set" in costs(k),
    "+ ability": lambda k: bool(k.of_type("plus")),
    "− ability": lambda k: bool(k.of_type("minus")),
    "? ability": lambda k: bool(k.of_type("query")),
    "X value": lambda k: bool(k.flag("x")),
    "X paid": lambda k: k.flag("x") == "paid",
    "XDMG": lambda k: any(a.get("direct") for _, a in steps(k)),
    "XDMG attack": lambda k: has_step(k, "assault", direct=True),
    "DDMG": lambda k: passive(k, "ddmg") or has_step(k, "ddmg"),
    "Unique": lambda k: "unique" in k.keywords,
    "unmaintainable (☠)": lambda k: bool(k.flag("unmaintainable")),
    "Crowd-Favorite ability": lambda k: "crowd" in costs(k),
    "Crowd-Favorite passive": lambda k: passive(k, "admg", "crowd_favorite"),
    "healing": lambda k: has_step(k, "heal"),
    "Rage effect": lambda k: any(a.condition == "raging" for a in k.abilities),
    "Set an enemy": lambda k: has_step(k, "set", to="enemy"),
    "Unset": lambda k: has_step(k, "unset"),
    "cancel": lambda k: has_step(k, "cancel"),
    "Cheer": lambda k: has_step(k, "cheer"),
    "Reinforcement with a Maintain cost": lambda k: k.type == "reinforcement" and k.stat("maintain") > 0,
}


@pytest.mark.parametrize("mechanic", MECHANICS)
def test_every_mechanic_is_carried(mechanic: str) -> None:
    """Issue 15: Strategy cards "that together use +, −, ?, OR, DR, R, arrow abilities, X values, XDMG, DDMG,
    Unique, unmaintainable (skull) cards, Crowd-Favorite abilities and healing": each on at least one card."""
    assert any(MECHANICS[mechanic](card) for card in c.CARDS.values()), mechanic


def test_every_vocabulary_name_is_used_and_ruled() -> None:
    """RULINGS.md 60–66: "The names below are the whole of what cards.toml may use" — none is dead, and each
    is defined there."""
    v = c.VOCABULARY
    used = {
        "abilities": {a.type for card in c.CARDS.values() for a in card.abilities},
        "costs": {a.cost for card in c.CARDS.values() for a in card.abilities} - {""},
        "events": {a.on for card in c.CARDS.values() for a in card.abilities} - {""},
        "effects": {d for card in c.CARDS.values() for d, _ in steps(card)},
        "selectors": {a["to"] for card in c.CARDS.values() for _, a in steps(card) if "to" in a}
        | {a.to for card in c.CARDS.values() for a in card.abilities if a.to},
        "conditions": {a.condition for card in c.CARDS.values() for a in card.abilities} - {""},
    }
    assert used["abilities"] == set(v.abilities)
    assert used["costs"] == set(v.costs)
    assert used["events"] == set(v.events)
    assert used["effects"] == set(v.effects)
    assert used["selectors"] == set(v.selectors)
    assert used["conditions"] == set(v.conditions)
    vocabulary = RULINGS[RULINGS.index("## The card vocabulary") :]
    for names in (v.abilities, v.costs, v.events, v.effects, v.selectors, v.conditions, v.stats):
        for word in names:
            assert f"`{word}`" in vocabulary, word
    for arg, values in v.choices.items():
        for value in values:
            assert f"`{value}`" in vocabulary or value in ("wave", "attack"), (arg, value)


def test_own_effects_do_not_overwrite_another_games() -> None:
    """RULINGS.md 60–66: "Ophidian's own effects carry names no other game has registered"; "heal, draw and
    discard are the kit's shared effects, used as they are". Each game has its own table: another game's
    effects (Ophelia's `move`, Siege's `cripple`) are not in Ophidian's."""
    for module in ("engine.games.ophelia.effects", "engine.games.siege_of_olympus.effects"):
        importlib.import_module(module)
    table = Ophidian.effects
    for name in c.VOCABULARY.effects:
        fn = table.get(name)
        if name in c.SHARED_EFFECTS:
            assert fn is not None and fn.__module__ == "engine.abilities.effects", name
        else:
            shared_stat = fn is not None and fn.__qualname__.startswith("stat_effect.")  # admg, ddmg
            assert fn is None or shared_stat or fn.__module__.startswith("engine.games.ophidian"), name
    assert "move" not in table and "cripple" not in table


# ------------------------------------------------------------------------------------- text and data ----

SYMBOLS = {"plus": "+:", "minus": "−:", "query": "?:"}


def test_text_says_what_the_data_does() -> None:
    """Issue 15: "text written the rules' way, one ability a line"; RULINGS.md 2: "Our cards print … the Set
    arrow as ↷, the Crowd Favorite symbol as ★"; 15: "Every ? card or ability ends with "This is + if …;
    otherwise −."\""""
    for card in c.CARDS.values():
        text, at = card.text, card.id
        assert text or card.type == "minion", f"{at}: only a vanilla Minion has no text"
        assert ("set" in costs(card)) == ("↷" in text), at
        assert ("crowd" in costs(card)) == ("★" in text), at
        assert ("unique" in card.keywords) == text.startswith("Unique."), at
        assert any(a.get("direct") for _, a in steps(card)) == ("XDMG" in text), at
        assert (passive(card, "ddmg") or has_step(card, "ddmg")) == ("DDMG" in text), at
        assert bool(card.flag("x")) == bool(re.search(r"\bX\b", text)), at
        assert any(a.condition == "raging" for a in card.abilities) == ("Raging" in text), at
        response = card.flag("response")
        if response:
            assert f"{response.upper()} —" in text, at
        flows = any(s.do == "flow" for a in card.abilities for s in a.effect)
        assert flows == ("This is + if" in text and "otherwise −." in text), at
        for kind, mark in SYMBOLS.items():
            assert bool(card.of_type(kind)) == (mark in text), (at, kind)
        if card.type == "pump":
            assert text.startswith("Play on "), at
        lines = text.split("\n") if text else []
        if card.type in c.GLADIATOR_TYPES:
            assert len(lines) <= len(card.abilities), f"{at}: one ability a line"


def test_names_are_unique() -> None:
    """Issue 15: "Original names" — one name per Strategy card and per Gladiator (its two cards share it)."""
    strategy = [card.name for card in c.STRATEGY.values()]
    gladiators = [c.CARDS[low].name for low, _ in c.PAIRS.values()]
    reinforcements = [card.name for card in c.REINFORCEMENTS.values()]
    everyone = strategy + gladiators + reinforcements
    assert len(set(everyone)) == len(everyone)


def test_strategy_fields() -> None:
    """The rules' Strategy card: "Flow Symbol | Discipline Requirement | Level | Play Cost | Maintain Cost";
    RULINGS.md 40: "unmaintainable = true with maintain = 0"; 16: "in our pool only Quick-Hits are
    responses"."""
    for card in c.STRATEGY.values():
        assert (card.flag("flow") is None) != (card.flag("response") is None), card.id
        assert 1 <= card.stat("level") <= c.TOP_LEVEL, card.id
        if card.flag("response"):
            assert card.type == "quick_hit", card.id
        if card.flag("unmaintainable"):
            assert card.type in ("minion", "pump") and card.stat("maintain") == 0, card.id
    levels = Counter(card.stat("level") for card in c.STRATEGY.values())
    assert levels[1] > levels[2] > levels[3] > 0, "mostly Level 1: a team starts at Level 1"
    assert {c.symbol(cid) for cid in c.STRATEGY} == {"+", "−", "?", "OR", "DR", "R"}


def test_requirements() -> None:
    """The rules: "a Gladiator with the matching Discipline and Level (or higher)"; GAPS: "Universal cards →
    any Gladiator of sufficient level"; RULINGS.md 6: "either of its disciplines matching"."""
    assert c.meets("mind_spike", "nyx_arden_12", 1)
    assert c.meets("hex_bolt", "nyx_arden_12", 1), "Nyx Arden's second discipline"
    assert not c.meets("hex_bolt", "lyra_shen_12", 4)
    assert c.meets("stim_shot", "brakka_vohl_12", 1), "Universal"
    assert not c.meets("smoke_screen", "brakka_vohl_12", 1) and c.meets("smoke_screen", "brakka_vohl_12", 2)
    assert not c.meets("mass_hysteria", "lyra_shen_12", 2) and c.meets("mass_hysteria", "lyra_shen_34", 3)


def test_constants_match_the_rules() -> None:
    """The rules: "exactly 10 Victory Points", "up to 4 Gladiators", "a minimum of 50 Strategy … cards with no
    more than three of any card", "draws to the maximum hand size (default of 7) plus two cards", "Set Credit
    Points … to 11", "15 points of Cheer", "12 or more Victory Points", "up to 3 Reinforcement Gladiators",
    "RDMG (Rage Damage, always a default of 1)"."""
    assert (c.TEAM_VP, c.MAX_GLADIATORS, c.MIN_ARSENAL, c.COPIES) == (10, 4, 50, 3)
    assert (c.HAND + c.EXTRA_DRAW, c.CP_BASE + 1, c.MAX_REINFORCEMENTS) == (9, 11, 3)
    assert (c.CHEER_WIN, c.PYRE_WIN, c.RDMG, c.CHEER_PER_ATTACK, c.WAVES) == (15, 12, 1, 1, 4)
    assert c.MAX_WAVES == c.WAVES + 3 and "At most 3 tie Waves" in RULINGS
    assert f"after a player's {c.MAX_ACTIONS_PER_WAVE}th action" in RULINGS


# -------------------------------------------------------------------------------------- ready teams ----


@pytest.mark.parametrize("tid", ["iron_tide", "mind_and_marrow"])
def test_ready_teams_are_legal(tid: str) -> None:
    """Issue 15: "Two ready teams with Arsenals so two players start at once"; the rules: "up to 4
    Gladiators with a combined total of exactly 10 Victory Points … cannot have duplicates … a minimum of 50
    Strategy … cards with no more than three of any card (by card title)"."""
    team = c.TEAMS[tid]
    assert c.check_team(team.gladiators, team.stack[len(team.gladiators) :]) == []
    assert c.check_arsenal(Counter(team.arsenal)) == [] and c.check_arsenal(list(team.arsenal)) == []
    assert sum(c.CARDS[g].stat("vp") for g in team.gladiators) == 10
    assert 1 <= len(team.gladiators) <= 4 and len({c.name(g) for g in team.gladiators}) == len(
        team.gladiators
    )
    assert len(team.arsenal) >= 50 and max(Counter(c.name(a) for a in team.arsenal).values()) <= 3
    assert all(c.CARDS[a].type in c.STRATEGY_TYPES for a in team.arsenal)
    # RULINGS.md 8: the Stack holds "the Level 3/4 card of each of its Gladiators, always" and Reinforcements
    assert team.stack[: len(team.gladiators)] == tuple(c.PROMOTION[g] for g in team.gladiators)
    assert all(c.CARDS[r].type == "reinforcement" for r in team.stack[len(team.gladiators) :])
    # RULINGS.md 10: "holding only cards its Gladiators can play"
    for cid in set(team.arsenal):
        assert any(c.meets(cid, g, c.TOP_LEVEL) for g in team.gladiators), (tid, cid)
    assert any(c.meets(cid, g, 1) for g in team.gladiators for cid in team.arsenal)


def test_team_choice() -> None:
    """The ready teams are a seat choice, as Ophelia's decks are."""
    assert c.TEAM_CHOICE.key == "team"
    assert c.TEAM_CHOICE.options == (("iron_tide", "Iron Tide"), ("mind_and_marrow", "Mind and Marrow"))


@pytest.mark.parametrize(
    ("gladiators", "reinforcements", "message"),
    [
        (
            ["brakka_vohl_12", "sera_quill_12"],
            [],
            "worth 7 VP (Brakka Vohl 4 + Sera Quill 3): a team has exactly 10",
        ),
        (["dusk_mahr_12", "hex_marrow_12", "lyra_shen_12"], [], "worth 12 VP"),
        (
            ["halcyon_12", "vashti_cole_12", "lyra_shen_12", "ember_vey_12", "juno_kessler_12"],
            [],
            "5 Gladiators: a team has at most 4",
        ),
        (["dusk_mahr_12", "dusk_mahr_12"], [], "Dusk Mahr 2 times: a team has no duplicates"),
        (
            ["brakka_vohl_34", "halcyon_12", "vashti_cole_12"],
            [],
            "Brakka Vohl (brakka_vohl_34) is a Level 3/4 card",
        ),
        (["rook", "dusk_mahr_12"], [], "Rook (rook) is a Reinforcement: list it among the reinforcements"),
        (["mind_spike"], [], "Mind Spike (mind_spike) is not a Gladiator but a Quick-Hit"),
        (["nobody"], [], "unknown Gladiator 'nobody'"),
        ([], [], "no Gladiators: a team has 1 to 4"),
        (
            ["dusk_mahr_12", "hollow_saint_12"],
            ["rook", "mags", "ninety", "ashen_acolyte"],
            "4 Reinforcements",
        ),
        (["dusk_mahr_12", "hollow_saint_12"], ["rook", "rook"], "Rook (rook) 2 times"),
        (
            ["dusk_mahr_12", "hollow_saint_12"],
            ["sera_quill_12"],
            "Sera Quill (sera_quill_12) is not a Reinforcement",
        ),
    ],
)
def test_bad_teams_are_explained(gladiators: list[str], reinforcements: list[str], message: str) -> None:
    """RULINGS.md 8, and issue 15: "a team and Arsenal builder … that validates with clear errors"."""
    problems = c.check_team(gladiators, reinforcements)
    assert any(message in p for p in problems), problems


def test_a_legal_team_has_no_problems() -> None:
    """RULINGS.md 8: 1 to 4 Level 1/2 cards worth exactly 10; two Gladiators of 5 VP make a team."""
    assert c.check_team(["dusk_mahr_12", "hollow_saint_12"], ["rook", "mags", "ninety"]) == []


ARSENAL = dict(Counter(c.TEAMS["iron_tide"].arsenal))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"overhand_smash": 4}, "4 copies of Overhand Smash: at most 3 of a title"),
        ({"overhand_smash": None}, "47 cards: an Arsenal has at least 50 Strategy cards"),
        (
            {"brakka_vohl_12": 1},
            "Brakka Vohl (brakka_vohl_12) is a Gladiator: an Arsenal holds Strategy cards only",
        ),
        ({"rook": 1}, "Rook (rook) is a Reinforcement"),
        ({"laser_sword": 2}, "unknown card 'laser_sword'"),
        ({"shove": 0}, "Shove (shove) = 0: copies must be a whole number from 1"),
        ({"shove": "two"}, "Shove (shove) = 'two'"),
        ({"shove": True}, "Shove (shove) = True"),
    ],
)
def test_bad_arsenals_are_explained(change: dict[str, Any], message: str) -> None:
    """The rules: "a minimum of 50 Strategy (non-Gladiaor) cards with no more than three of any card (by card
    title)"; RULINGS.md 9."""
    arsenal = {k: v for k, v in {**ARSENAL, **change}.items() if v is not None}
    problems = c.check_arsenal(arsenal)
    assert any(message in p for p in problems), problems


def test_copies_count_by_title() -> None:
    """RULINGS.md 9: "cards of one name count together, whatever their ids"."""
    twin = parse({**HIT, "id": "mind_spike_foil", "name": "Mind Spike"})
    pool = {**c.CARDS, twin.id: twin}
    arsenal = {**ARSENAL, "mind_spike": 2, "mind_spike_foil": 2}
    assert any("4 copies of Mind Spike" in p for p in c.check_arsenal(arsenal, pool))


def test_bad_team_tables_name_the_team() -> None:
    """A [teams.ID] table in a card pack: errors name the file and the team, and list every problem."""
    bad = {"name": "Bad", "gladiators": ["brakka_vohl_12"], "arsenal": {"shove": 4}}
    with pytest.raises(CardDataError) as err:
        c.parse_teams({"teams": {"bad": bad}}, "pack.toml", c.CARDS)
    text = str(err.value)
    assert text.startswith("pack.toml [teams.bad]: ")
    assert "worth 4 VP" in text and "4 copies of Shove" in text and "4 cards: an Arsenal" in text
    with pytest.raises(CardDataError, match=r"\[teams.bad\]: unknown field deck"):
        c.parse_teams({"teams": {"bad": {**bad, "deck": []}}}, "pack.toml", c.CARDS)
    with pytest.raises(CardDataError, match=r"\[teams.bad\]: missing field 'arsenal'"):
        c.parse_teams({"teams": {"bad": {"name": "Bad", "gladiators": []}}}, "pack.toml", c.CARDS)


# ------------------------------------------------------------------------------------ malformed cards ----

TRIGGER = {"type": "trigger", "on": "ally_attacked", "effect": [{"do": "cancel"}]}


@pytest.mark.parametrize(
    ("base", "change", "message"),
    [
        (GLADIATOR, {"level": 2}, "level = 2 must be 1 (a Level 1/2 card) or 3 (a Level 3/4 card)"),
        (GLADIATOR, {"rage": 9}, "rage = 9 must be from 1 to 7 (below life = 8)"),
        (GLADIATOR, {"faction": "universal"}, "a Gladiator's discipline cannot be 'universal'"),
        (GLADIATOR, {"faction": "pyromancer"}, "faction = 'pyromancer' is not one of"),
        (GLADIATOR, {"species": "elf"}, "species = 'elf' is not one of"),
        (GLADIATOR, {"pair": None}, "missing field 'pair'"),
        (GLADIATOR, {"second_discipline": "warrior"}, "second_discipline = 'warrior' is not one of"),
        (GLADIATOR, {"flow": "+"}, "a gladiator has no flow"),
        (GLADIATOR, {"vp": "four"}, "vp must be int, not 'four'"),
        (GLADIATOR, {"life": None}, "missing field 'life'"),
        (HIT, {"flow": "!"}, "flow = '!' is not one of '+', '-', '?'"),
        (HIT, {"response": "dr"}, "needs exactly one of flow ('+', '-', '?') or response"),
        (HIT, {"flow": None}, "needs exactly one of flow"),
        (
            HIT,
            {"flow": None, "response": "or", "ability": [TRIGGER]},
            "OR answers ally_attacks, blocked, not ally_attacked",
        ),
        (HIT, {"flow": "?"}, "a ? card or ability ends with a flow step"),
        (HIT, {"level": 5}, "level = 5 must be from 1 to 4"),
        (HIT, {"cp": -1}, "cp = -1 must be from 0"),
        (HIT, {"keywords": ["flying"]}, "unknown keyword 'flying'"),
        (HIT, {"colour": "red"}, "unknown field colour"),
        (HIT, {"unmaintainable": True}, "a quick_hit has no unmaintainable"),
        (HIT, {"x": "wave"}, "x = 'wave' but no step uses X"),
        (
            HIT,
            {"ability": [{"type": "play", "effect": [{"do": "fireball"}]}]},
            "do = 'fireball' is not one of",
        ),
        (
            HIT,
            {"ability": [{"type": "play", "effect": [{"do": "wound", "to": "everyone"}]}]},
            "to = 'everyone'",
        ),
        (
            HIT,
            {"ability": [{"type": "play", "effect": [{"do": "wound", "to": "enemy", "x": True}]}]},
            "a step uses X but the card does not say what X is",
        ),
        (
            HIT,
            {
                "ability": [
                    {"type": "play", "effect": [{"do": "admg", "to": "ally", "amount": 1, "until": "turn"}]}
                ]
            },
            "until = 'turn' is not one of",
        ),
        (
            HIT,
            {"ability": [{"type": "play", "effect": [{"do": "wound", "to": "enemy"}]}]},
            "missing argument 'amount'",
        ),
        (
            HIT,
            {"ability": [{"type": "play", "effect": [{"do": "cancel"}]}]},
            "only a response to ally_attacked",
        ),
        (
            HIT,
            {
                "ability": [
                    {
                        "type": "play",
                        "effect": [
                            {"do": "wound", "to": "all_enemies", "amount": 1},
                            {"do": "set", "to": "it"},
                        ],
                    }
                ]
            },
            "'it' is the character a previous step chose",
        ),
        (
            HIT,
            {"ability": [{"type": "plus", "effect": [{"do": "draw", "amount": 1}]}]},
            "a quick_hit cannot have a plus",
        ),
        (
            HIT,
            {"ability": [{"type": "play", "cost": "crowd", "effect": [{"do": "draw", "amount": 1}]}]},
            "★ line",
        ),
        (
            {**HIT, "type": "minion", "maintain": 1, "life": 2, "admg": 1},
            {
                "ability": [
                    {
                        "type": "trigger",
                        "on": "attacked",
                        "cost": "set",
                        "effect": [{"do": "draw", "amount": 1}],
                    }
                ]
            },
            "a trigger with a cost is a character's R ability: it needs may = true",
        ),
        (
            {**HIT, "type": "minion", "maintain": 1, "life": 2, "admg": 1},
            {"ability": [{"type": "plus", "effect": [{"do": "assault", "by": "self"}]}]},
            "'this attacks' is paid with ↷ (cost = 'set')",
        ),
        (
            {**HIT, "type": "minion", "maintain": 1, "life": 2, "admg": 1},
            {"unmaintainable": True},
            "an unmaintainable (☠) card has maintain = 0",
        ),
        (
            {**HIT, "type": "pump", "maintain": 1},
            {"ability": [{"type": "passive", "stat": "admg", "amount": 1, "to": "bearer"}]},
            "a Pump's first ability is a play ability whose first step is attach",
        ),
        (
            {**HIT, "type": "pump", "maintain": 1},
            {
                "ability": [
                    {"type": "play", "effect": [{"do": "attach", "to": "ally"}]},
                    {"type": "passive", "stat": "admg", "amount": 1, "to": "self"},
                ]
            },
            "a Pump's passives apply to its bearer",
        ),
    ],
)
def test_malformed_card_is_explained(base: dict[str, Any], change: dict[str, Any], message: str) -> None:
    """Issue 15: "malformed card data gives CardDataError naming file, card and field"."""
    data = {k: v for k, v in {**base, **change}.items() if v is not None}
    with pytest.raises(CardDataError) as err:
        parse(data)
    assert str(err.value).startswith("pack.toml card 1 (bad)"), str(err.value)
    assert message in str(err.value), str(err.value)


def test_a_good_pack_card_passes() -> None:
    """The bases of the cases above are themselves good cards, so each case fails for its own reason."""
    assert parse(HIT).type == "quick_hit" and parse(GLADIATOR).type == "gladiator"


def test_incomplete_pair_is_explained() -> None:
    """RULINGS.md 4: a Gladiator has "a Level 1/2 card and a Level 3/4 card"."""
    pool = {k: v for k, v in c.CARDS.items() if k != "sera_quill_34"}
    with pytest.raises(
        CardDataError, match=r"pack\.toml pair 'sera_quill': needs a Level 1/2 card and a Level 3/4"
    ):
        c.check_pairs("pack.toml", pool)
    cheap = parse(
        {**GLADIATOR, "id": "sera_quill_34", "name": "Sera Quill", "pair": "sera_quill", "level": 3}
    )
    with pytest.raises(CardDataError, match=r"different (names|factions|species)|more VP"):
        c.check_pairs("pack.toml", {**pool, cheap.id: cheap})
