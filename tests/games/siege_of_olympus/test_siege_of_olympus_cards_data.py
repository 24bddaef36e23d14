"""Siege of Olympus's card data: the 86 cards load and have the shape the rules demand. Each test quotes the
sentence of shared/rules/siege-of-olympus.txt, of issue 14 or of engine/games/siege_of_olympus/RULINGS.md it
checks. (The rules themselves are checked by the rules engine's tests, which come next.)"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.abilities.spec import CardSpec, parse_card
from engine.carddata import CardDataError
from engine.games.siege_of_olympus import cards as c

# A keyword that is an effect, and the effect step (name, argument, value) that does it.
EFFECT_KEYWORDS = {
    "reborn": ("take", "zone", "underworld"),
    "free": ("take", "zone", "tartarus"),
    "search": ("take", "zone", "deck"),
    "exchange": ("exchange", None, None),
    "explore": ("explore", None, None),
    "joker": ("copy", "stat", "artifact"),
    "copy_and_replace": ("swap", None, None),
    "add": ("add", None, None),
    "cripple": ("cripple", None, None),
    "paralyze": ("paralyze", None, None),
}
PRINTED = {
    "reborn": "Reborn",
    "ambush": "Ambush",
    "disrupt": "Disrupt",
    "free": "Free",
    "primordial_attack": "Primordial Attack",
    "lethal": "Lethal",
    "copy_and_replace": "Copy and Replace",
    "add": "Add",
    "resistant": "Resistant",
    "search": "Search",
    "pick": "Pick",
    "joker": "Joker",
    "cripple": "Cripple",
    "explore": "Explore",
    "combine": "Combine",
    "paralyze": "Paralyze",
    "exchange": "Exchange",
}
BRONTES: dict[str, Any] = {
    "id": "bad",
    "name": "Bad",
    "type": "minion",
    "cost": 0,
    "attack": 2,
    "health": 2,
    "artifact": 1,
    "ranged": False,
    "class": "brawler",
    "race": "giant",
    "text": "Bad.",
}


def steps(card: CardSpec) -> list[tuple[str, dict[str, Any]]]:
    """Every effect step of a card, as (effect name, arguments)."""
    return [(s.do, dict(s.args)) for a in card.abilities for s in a.effect]


def has_step(card: CardSpec, do: str, arg: str | None, value: Any) -> bool:
    """Whether one of the card's steps is this effect (with this argument value)."""
    return any(d == do and (arg is None or a.get(arg) == value) for d, a in steps(card))


def main_kind(card: CardSpec) -> str:
    """The ability type Pick and Combine choose among (RULINGS.md 33)."""
    return "summon" if card.type == "minion" else "play"


def test_the_86_cards() -> None:
    """ "The game consists of 86 cards: 45 Minions, 21 Spells, 15 Artifacts, 4 Commanders and Olympus.\""""
    kinds = Counter(card.type for card in c.CARDS.values())
    assert len(c.CARDS) == 86
    assert kinds == {"minion": 45, "spell": 21, "artifact": 15, "commander": 4, "olympus": 1}
    assert (len(c.MINIONS), len(c.SPELLS), len(c.ARTIFACTS), len(c.COMMANDERS)) == (45, 21, 15, 4)
    assert c.OLYMPUS.id == "olympus"


def test_the_shared_deck() -> None:
    """RULINGS.md 3: "The shared Deck is the 66 minions and spells, shuffled." """
    assert len(c.DECK) == len(set(c.DECK)) == 66
    assert all(c.CARDS[cid].type in ("minion", "spell") for cid in c.DECK)


def test_three_pieces_of_each_artifact() -> None:
    """GAPS.md: "15 artifacts × 3 pieces = 45 minions, so each minion carries one artifact number"; the
    rulebook: "you need to control 3 pieces of it"."""
    pieces = Counter(m.stat("artifact") for m in c.MINIONS.values())
    assert pieces == dict.fromkeys(range(1, 16), 3)
    assert sorted(c.ARTIFACTS) == list(range(1, 16))
    assert all(a.abilities and a.text for a in c.ARTIFACTS.values()), "15 artifacts with their effects"


def test_every_keyword_is_carried() -> None:
    """Issue 14: "Every keyword, defined precisely in RULINGS.md and carried by at least one card: Reborn,
    Ambush, Disrupt, Free, Primordial Attack, Lethal, Copy and Replace, Add, Resistant, Search (then
    shuffle), Pick, Joker, Cripple, Explore, Combine, Paralyze, Exchange.\""""
    carried = {k for card in c.CARDS.values() for k in card.keywords}
    assert carried == set(c.KEYWORDS) == set(PRINTED) == set(c.KEYWORD_TEXT)
    assert len(c.KEYWORDS) == 17


@pytest.mark.parametrize("keyword", c.KEYWORDS)
def test_keyword_cards_do_what_they_say(keyword: str) -> None:
    """RULINGS.md 21-37: each keyword is printed on the card carrying it ("text written the rulebook's
    way") and is done by the card's data: an effect keyword by its effect, Ambush and Disrupt by a response
    ability, Pick and Combine by their options, Lethal, Resistant and Primordial Attack on minions."""
    carriers = [card for card in c.CARDS.values() if keyword in card.keywords]
    assert carriers
    for card in carriers:
        assert PRINTED[keyword] in card.text, card.id
        if keyword in EFFECT_KEYWORDS:
            assert has_step(card, *EFFECT_KEYWORDS[keyword]), card.id
        elif keyword in ("ambush", "disrupt"):
            assert card.of_type(keyword), card.id
        elif keyword in ("pick", "combine"):
            options = card.of_type(main_kind(card))
            assert len(options) >= (2 if keyword == "pick" else 3), card.id
        else:
            assert keyword in c.STATIC_KEYWORDS and card.type == "minion", card.id
    # and the other way round: a card doing the effect carries the keyword
    for card in c.CARDS.values():
        if keyword in EFFECT_KEYWORDS and has_step(card, *EFFECT_KEYWORDS[keyword]):
            assert keyword in card.keywords, card.id
        if keyword in ("ambush", "disrupt") and card.of_type(keyword):
            assert keyword in card.keywords, card.id


def test_options_only_with_pick_or_combine() -> None:
    """RULINGS.md 34: "A card with neither Pick nor Combine resolves all its abilities of its main kind, in
    order" — so only Pick and Combine cards print options separated by "; or" / ";" after a dash."""
    for card in c.CARDS.values():
        if len(card.of_type(main_kind(card))) > 1:
            assert {"pick", "combine"} & set(card.keywords), card.id


def test_every_synergy_can_happen() -> None:
    """ "Synergies at three of a kind" (issue 14): "classes and races spread so every synergy can happen" —
    each class and each race on at least 3 minions (RULINGS.md 4)."""
    classes = Counter(c.minion_class(m) for m in c.MINIONS)
    races = Counter(c.race(m) for m in c.MINIONS)
    assert set(classes) == set(c.CLASS_IDS) and set(races) == set(c.RACE_CYCLE)
    assert min(classes.values()) >= 3 and min(races.values()) >= 3
    assert [name for name in c.CLASSES.values() if not name["synergy"]] == [c.CLASSES["neutral"]]


def test_the_race_cycle() -> None:
    """Issue 14: "the race cycle (Giant > Olympian > Titan > Half-god > Creature > Giant) destroying a target
    costing 3 or less"; the rulebook: "Giant Destroy a Olympian that costs 3 or less." """
    assert [c.prey(r) for r in c.RACE_CYCLE] == ["olympian", "titan", "half_god", "creature", "giant"]
    names = [c.RACES[r]["name"] for r in c.RACE_CYCLE]
    assert names == ["Giant", "Olympian", "Titan", "Half-god", "Creature"]
    # a race synergy has targets: every race has minions costing 3 or less
    cheap = Counter(c.race(m) for m, spec in c.MINIONS.items() if spec.stat("cost") <= 3)
    assert min(cheap.values()) >= 3


def test_enough_cost_zero_minions() -> None:
    """GAPS.md: "Some minions must cost 0 or nobody can ever summon"; the rulebook: "a minion in your hand
    with the number "1" inside its cost symbol means that you must control at least 1 minion"."""
    zero = [m for m, spec in c.MINIONS.items() if spec.stat("cost") == 0]
    assert len(zero) >= 12
    assert max(spec.stat("cost") for spec in c.MINIONS.values()) <= c.MAX_MINIONS - 1


def test_unique_ids_and_names() -> None:
    """Issue 14: "original names from Greek myth" — one name per card, no two alike."""
    names = [card.name for card in c.CARDS.values()]
    assert len(set(names)) == len(names) == 86
    assert len(set(c.CARDS)) == 86


def test_every_text_is_written() -> None:
    """Issue 14: "text written the rulebook's way" — every card has its text, keyword reminders included."""
    assert all(card.text.strip() for card in c.CARDS.values())
    assert all(text.strip() for text in c.KEYWORD_TEXT.values())
    for card in c.CARDS.values():
        assert bool(card.abilities) or card.keywords or card.type == "olympus", f"{card.id}: text only"


def test_minion_fields() -> None:
    """The rulebook: "Each Minion in Siege of Olympus has a Class, a Race, an Artifact piece and its cost
    … Attack (left) and Health (right) … Bow or Spell means that the minion has Ranged attack"; RULINGS.md
    14: the ranged flag is true exactly for every Ranger and Spellcaster."""
    for m, spec in c.MINIONS.items():
        assert spec.stat("health") >= 1, m
        assert spec.flag("ranged") == (c.minion_class(m) in c.RANGED_CLASSES), m
    for spec in c.CARDS.values():
        if spec.type != "minion":
            assert spec.flags == (), spec.id


def test_commanders() -> None:
    """The rulebook: "Each Commander has a unique ability that can be activated once per game"; RULINGS.md 2:
    "Commanders: 20 Health and one ability, once per game.\""""
    for spec in c.COMMANDERS.values():
        assert spec.stat("health") == c.COMMANDER_HEALTH == 20
        assert [a.type for a in spec.abilities] == ["once"]
    assert len({spec.abilities for spec in c.COMMANDERS.values()}) == 4, "four different abilities"


def test_response_cards() -> None:
    """RULINGS.md 20: "Ambush (21) and Disrupt (22) are the only cards played outside their player's Deploy
    phase" — an Ambush card strikes the attacking minion, a Disrupt card negates first."""
    for spec in c.CARDS.values():
        for _, ability in spec.of_type("ambush"):
            assert ability.effect[0].do == "strike" and ability.effect[0].get("to") == "event", spec.id
        for _, ability in spec.of_type("disrupt"):
            assert ability.effect[0].do == "negate", spec.id


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"class": "raider"}, "class = 'raider' is not one of brawler"),
        ({"race": "god"}, "race = 'god' is not one of giant"),
        ({"artifact": 16}, "artifact = 16 must be from 1 to 15"),
        ({"type": "spell", "cost": 0}, "only minions have class, race, ranged"),
        ({"ranged": "yes"}, "ranged must be bool"),
        ({"keywords": ["flying"]}, "unknown keyword 'flying'"),
    ],
)
def test_malformed_card_is_explained(change: dict[str, Any], message: str) -> None:
    """A wrong card names the file, the card and the field (engine/carddata.py)."""
    data = {**BRONTES, **change}
    if data["type"] == "spell":
        data = {k: v for k, v in data.items() if k not in ("attack", "health", "artifact")}
    with pytest.raises(CardDataError, match=message):
        card = parse_card("pack.toml card 1", data, c.VOCABULARY)
        c.check_card("pack.toml", card, c.CLASSES, c.RACES)


def test_zones_are_checked() -> None:
    """RULINGS.md 23-25: Reborn takes from the Underworld, Free from Tartarus, Search from the Deck — a take
    from the Hand means nothing and is refused."""
    data = {
        **BRONTES,
        "ability": [{"type": "summon", "effect": [{"do": "take", "zone": "hand", "kind": "minion"}]}],
    }
    card = parse_card("pack.toml card 1", data, c.VOCABULARY)
    with pytest.raises(CardDataError, match="zone = 'hand' is not one of deck, tartarus, underworld"):
        c.check_card("pack.toml", card, c.CLASSES, c.RACES)
