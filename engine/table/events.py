"""Typed events in a game's own words ("drew", "attacked", "bought"), with arguments, a text and who may
read it. The log, the front ends and (later) triggers read them; `emit` is how a rule writes one.
"""

from __future__ import annotations

from engine.core import Arg, Event, PlayerId


def emit(
    events: list[Event],
    kind: str,
    text: str,
    *,
    to: tuple[PlayerId, ...] | None = None,
    chance: bool = False,
    **args: Arg,
) -> Event:
    """Append an event: `to` limits who may read it (None = everyone); `chance` marks a random draw or a
    hidden reveal, which undo may not step back over."""
    e = Event(kind, text, to, chance, tuple(args.items()))
    events.append(e)
    return e


def of_kind(events: list[Event], kind: str) -> list[Event]:
    """The events of one kind, in order."""
    return [e for e in events if e.kind == kind]


def event_owner(event: Event, seats: int, mover: PlayerId) -> PlayerId:
    """The seat an event names as its own (its `seat` argument: the player, or the owner of the card that
    acts), else the seat whose move caused it."""
    try:
        seat = event.arg("seat")
    except KeyError:
        return mover
    return seat if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < seats else mover
