"""Omphala's cards: a standard deck read from cards.toml; a card is a code such as "KC" or "10H"."""

from __future__ import annotations

from pathlib import Path

from engine.carddata import load

_DATA = load(Path(__file__).with_name("cards.toml"))

RANKS: tuple[str, ...] = tuple(_DATA["ranks"])
SUITS: dict[str, dict] = _DATA["suits"]
DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
POWER: dict[str, int] = {rank + suit: i + 1 for suit in SUITS for i, rank in enumerate(RANKS)}
ACTIONS: dict[str, frozenset[str]] = {code: frozenset(SUITS[code[-1]]["actions"]) for code in DECK}
RED: frozenset[str] = frozenset(code for code in DECK if SUITS[code[-1]]["red"])


def power(code: str) -> int:
    """A card's power: its rank, Ace 1 to King 13."""
    return POWER[code]


def by_rank(code: str) -> tuple[int, str]:
    """A sort key that puts cards in rank order, then by suit, as a hand is held."""
    return POWER[code], code[-1]


def suit(code: str) -> str:
    """The suit letter: C, D, H or S."""
    return code[-1]


def is_red(code: str) -> bool:
    """Hearts and Diamonds are red."""
    return code in RED


def label(code: str) -> str:
    """The card as people write it, e.g. "K♣"."""
    return code[:-1] + SUITS[code[-1]]["symbol"]


def entity_power(entity: list[str]) -> int:
    """The power of a card with its modifier, e.g. K♣ enhanced by 5♥ is 18."""
    return sum(POWER[c] for c in entity)


def entity_label(entity: list[str]) -> str:
    """A card with its modifier, e.g. "K♣+5♥"."""
    return "+".join(label(c) for c in entity)
