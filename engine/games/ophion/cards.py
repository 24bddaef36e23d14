"""Ophion's cards and numbers, read from cards.toml; a card is an id such as "goblin" or "gold2"."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.carddata import CardDataError, check_keys, field, load

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
MONSTERS: tuple[str, ...] = tuple(sorted(c.id for c in CARDS.values() if c.type == "monster"))


def tier_deck(tier: int) -> list[str]:
    """Every copy of every card of this tier, in a fixed order (shuffle it)."""
    return [c.id for c in CARDS.values() if c.tier == tier for _ in range(c.count)]


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
