"""Ophion's cards and numbers, read from cards.toml; a card is an id such as "goblin" or "gold2"."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_DATA: dict[str, Any] = tomllib.loads((Path(__file__).with_name("cards.toml")).read_text(encoding="utf-8"))


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


def _card(cid: str, d: dict[str, Any]) -> Card:
    return Card(
        id=cid,
        name=d["name"],
        type=d["type"],
        cost=d["cost"],
        tier=d["tier"],
        count=d["count"],
        size=d.get("size", 0),
        attack=d.get("attack", 0),
        defense=d.get("defense", 0),
        mana=d.get("mana", d["cost"]) if d["type"] == "monster" else 0,
        effect=d.get("effect", ""),
        amount=d.get("amount", 0),
        ability=d.get("ability", ""),
    )


CARDS: dict[str, Card] = {cid: _card(cid, d) for cid, d in _DATA["cards"].items()}
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
