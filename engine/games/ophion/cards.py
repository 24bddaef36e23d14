"""Ophion's cards and numbers, read from cards.toml; a card is an id such as "goblin" or "gold2"."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from engine.carddata import (
    CardDataError,
    PackCards,
    check_keys,
    check_pack_cards,
    check_range,
    check_words,
    every,
    field,
    in_game,
    load,
    pack_tag,
    widen,
)

_DATA: dict[str, Any] = load(Path(__file__).with_name("cards.toml"))


@dataclass(frozen=True, slots=True)
class Card:
    """One kind of card: its price, tier and what it does."""

    id: str
    name: str
    type: str  # monster, action or upgrade
    cost: int
    tier: int
    count: int
    size: int = 0
    attack: int = 0
    defense: int = 0
    mana: int = 0  # a monster's summoning cost in mana
    effect: str = ""  # gold, mana, ap or vp
    amount: int = 0
    ability: str = ""


FIELDS = (
    "name",
    "type",
    "cost",
    "tier",
    "count",
    "size",
    "attack",
    "defense",
    "mana",
    "effect",
    "amount",
    "ability",
)


def parse_card(cid: str, d: dict[str, Any], where: str = "cards.toml") -> Card:
    """One [cards.ID] table as a Card; CardDataError saying which field is wrong and why."""
    at = f"{where} [cards.{cid}]"
    if not isinstance(d, dict):
        raise CardDataError(f"{at}: must be a table of fields")
    check_keys(at, d, FIELDS)
    kind = field(at, d, "type", str, choices=("monster", "action", "upgrade"))
    cost = field(at, d, "cost", int, low=0)
    monster = kind == "monster"
    return Card(
        id=cid,
        name=field(at, d, "name", str),
        type=kind,
        cost=cost,
        tier=field(at, d, "tier", int, low=0, high=2),
        count=field(at, d, "count", int, low=0),
        size=field(at, d, "size", int, low=1, high=6) if monster else field(at, d, "size", int, 0, low=0),
        attack=field(at, d, "attack", int, 0, low=0),
        defense=field(at, d, "defense", int, 0, low=0),
        mana=field(at, d, "mana", int, cost, low=0) if monster else 0,
        effect=field(at, d, "effect", str, "", choices=("", "gold", "mana", "ap", "vp")),
        amount=field(at, d, "amount", int, 0, low=0),
        ability=field(at, d, "ability", str, ""),
    )


def parse_cards(data: dict[str, Any], where: str = "cards.toml") -> dict[str, Card]:
    """Every [cards.*] table of a data file, checked."""
    tables = data.get("cards")
    if not isinstance(tables, dict) or not tables:
        raise CardDataError(f"{where}: no [cards.*] tables")
    return {cid: parse_card(cid, d, where) for cid, d in tables.items()}


CARDS: dict[str, Card] = parse_cards(_DATA)
RULES: dict[str, Any] = _DATA["rules"]
COMBAT: dict[str, int] = _DATA["combat"]
STARTING_DECK: tuple[str, ...] = tuple(cid for cid, n in _DATA["starting_deck"].items() for _ in range(n))
BASE: dict[str, Card] = dict(CARDS)  # the game's own cards: the catalogue, never a pack's
MONSTERS: tuple[str, ...] = tuple(sorted(c.id for c in CARDS.values() if c.type == "monster"))


def tier_deck(tier: int, pack: Mapping[str, Card] | None = None) -> list[str]:
    """Every copy of every card of this tier, the game's own and a pack's, in a fixed order (shuffle it)."""
    cards = [*BASE.values(), *(pack or {}).values()]
    return [c.id for c in cards if c.tier == tier for _ in range(c.count)]


def surcharges(num_players: int) -> tuple[int, ...]:
    """Extra gold per market slot, furthest from the deck first: 4 slots with 2 players, else 6."""
    key = "surcharges_2" if num_players == 2 else "surcharges_more"
    return tuple(_DATA["market"][key])


def card_name(cid: str) -> str:
    """The card's printed name, e.g. "Skeleton Archer"."""
    return CARDS[cid].name


def upgrade_value(cid: str) -> int:
    """An upgrade's worth in VP at the end of the game: its tier (RULINGS 22)."""
    return CARDS[cid].tier


# -- card packs (engine/packs.py; RULINGS.md 25): new cards for the tier decks, by their count ---------------

PACK_TABLES = ("cards",)
_NUMBERS = ("cost", "tier", "count", "size", "attack", "defense", "mana")


def _ranges() -> tuple[dict[Any, tuple[int, int]], dict[str, set[str]]]:
    """What the game's market cards (tiers 1 and 2) use: each type's numbers, each effect's amount, and
    which effects each type has."""
    ranges: dict[Any, tuple[int, int]] = {}
    effects: dict[str, set[str]] = {}
    for c in BASE.values():
        if c.tier == 0:
            continue
        for k in _NUMBERS:
            widen(ranges, (c.type, k), getattr(c, k))
        if c.effect:
            effects.setdefault(c.type, set()).add(c.effect)
            widen(ranges, (c.type, c.effect), c.amount)
    return ranges, effects


_RANGES, _EFFECTS = _ranges()
_MOST = (1, max(c.count for c in BASE.values()))  # copies of one card: 1 to the most the game has


def check_pack(data: dict[str, Any], where: str) -> dict[str, Card]:
    """A pack's [cards.ID] tables, checked as the game's own are and within the market cards' numbers."""
    tables = data.get("cards")
    if not isinstance(tables, dict):  # [cards.ID] tables, not a list of them
        raise CardDataError(f"{where}: no card tables ([cards.ID])")
    check_pack_cards(where, tables, BASE, key="cards")
    tag = pack_tag(data)
    out = {}
    for cid, d in tables.items():
        at = f"{where} [cards.{cid}]"
        card = parse_card(cid, d, where)
        if card.ability:
            raise CardDataError(
                f"{at}: ability is text only the game's own cards carry (no rules go with it)"
            )
        check_words(at, card.name, "")
        for k in _NUMBERS:
            if k in d or k in ("cost", "tier"):
                bounds = _MOST if k == "count" else _RANGES.get((card.type, k))
                check_range(at, k, getattr(card, k), bounds)
        if card.type == "monster" and "mana" not in d:
            check_range(at, "mana", card.mana, _RANGES.get(("monster", "mana")))
        if card.type != "monster" or card.effect:
            if card.effect not in _EFFECTS.get(card.type, ()):
                known = ", ".join(sorted(_EFFECTS.get(card.type, ()))) or "none"
                raise CardDataError(f"{at}: effect = {card.effect!r}: {card.type} cards give {known}")
            check_range(at, "amount", card.amount, _RANGES.get((card.type, card.effect)))
        new = replace(card, id=in_game(cid, tag))
        out[new.id] = new
    return out


PACKS = PackCards(check_pack, lambda cards: cards, [(CARDS, every)], [])  # pack text -> its cards


def add_pack(text: str) -> dict[str, Card]:
    """Make a pack's cards (a state's `pack` text) known to this process, once; its cards by in-game id."""
    return PACKS.add(text) or {}


def forget_packs() -> None:
    """Forget every pack this process has added: a test's clean slate (a fresh process knows none)."""
    PACKS.forget()
