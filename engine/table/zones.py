"""Piles, hands and rows: drawing with a refill policy, shuffling in, dealing, and a market row that
slides and refills. A card in play is an Instance with a stable uid, so action keys name the card, never
its position: a key still legal after an opponent's move names the same card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from engine.rng import Rng

T = TypeVar("T")


@dataclass(slots=True)
class Instance:
    """One card in play: its kind (the catalogue id) and a uid unique within the game."""

    uid: int
    card: str


class Uids:
    """Mixin for a state with a `next_uid` counter: hands out instance uids in order of arrival, which
    says nothing about the card (so uids never leak hidden information)."""

    __slots__ = ()
    next_uid: int

    def mint(self, card: str) -> Instance:
        """A new instance of this card."""
        self.next_uid += 1  # type: ignore[misc]  # the state dataclass that mixes this in holds the slot
        return Instance(self.next_uid, card)


def draw(pile: list[T], n: int, rng: Rng | None = None, refill: list[T] | None = None) -> tuple[list[T], int]:
    """Up to n cards from the top (the end) of pile. When it runs out and `refill` (a discard pile) has
    cards, they are shuffled in as the new pile first. Returns the cards and how many refills happened."""
    got: list[T] = []
    refills = 0
    for _ in range(n):
        if not pile:
            if not refill or rng is None:
                break
            pile += refill
            refill.clear()
            rng.shuffle(pile)
            refills += 1
        got.append(pile.pop())
    return got, refills


def shuffle_in(pile: list[T], cards: list[T], rng: Rng) -> None:
    """Put cards into the pile and shuffle it."""
    pile += cards
    rng.shuffle(pile)


def deal(pile: list[T], hands: int, n: int) -> list[list[T]]:
    """n cards from the top of pile to each of `hands` hands, a hand at a time."""
    out = []
    for _ in range(hands):
        out.append(pile[-n:][::-1] if n else [])
        del pile[len(pile) - n :]
    return out


def take(row: list[T | None], index: int) -> T:
    """Take the card at this slot of a row, leaving the slot empty."""
    card = row[index]
    if card is None:
        raise ValueError(f"slot {index} is empty")
    row[index] = None
    return card


def last_card(row: list[T | None]) -> int | None:
    """The slot of the last card in the row (the end nearest the deck), or None for an empty row."""
    return next((j for j in range(len(row) - 1, -1, -1) if row[j] is not None), None)


def slide(row: list[T | None]) -> None:
    """The cards slide to the start of the row, keeping their order; the empty slots gather at the end."""
    kept = [c for c in row if c is not None]
    row[:] = kept + [None] * (len(row) - len(kept))


def refill(row: list[Instance | None], deck: list[str], uids: Uids) -> list[Instance]:
    """Deal the row's empty slots from the top of the deck (as long as it lasts); the new instances."""
    new = []
    for j, c in enumerate(row):
        if c is None and deck:
            row[j] = uids.mint(deck.pop())
            new.append(row[j])
    return [c for c in new if c is not None]


def find(cards: list[Instance], uid: int) -> Instance | None:
    """The instance with this uid in a zone, or None."""
    return next((c for c in cards if c is not None and c.uid == uid), None)
