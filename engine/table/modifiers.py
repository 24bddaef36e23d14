"""Modifiers with a duration, computed into stats when read: the state keeps printed values, damage and
counters; a bonus "until the end of the round" is a Modifier, and the round's end expires it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

TURN, ROUND, GAME = "turn", "round", "game"


@dataclass(slots=True)
class Modifier:
    """+amount to one stat of one owner (a seat or a card instance) until a duration ends."""

    stat: str  # "attack", "defense", "power"
    amount: int
    owner: int  # the seat, or the card instance's uid, it applies to
    until: str = TURN  # turn, round or game
    source: str = ""  # what gave it, for texts
    condition: str = ""  # also only while this named condition holds ("" = always)


def total(mods: list[Modifier], stat: str, owner: int, holds: Callable[[str], bool] | None = None) -> int:
    """The sum of the modifiers in force on this owner's stat."""

    def applies(m: Modifier) -> bool:
        if m.stat != stat or m.owner != owner:
            return False
        return not m.condition or (holds is not None and holds(m.condition))

    return sum(m.amount for m in mods if applies(m))


def expire(mods: list[Modifier], until: str) -> None:
    """Remove the modifiers whose duration ends now (e.g. "round" at the end of a round)."""
    mods[:] = [m for m in mods if m.until != until]
