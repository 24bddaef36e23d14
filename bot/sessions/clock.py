"""A table's clock, chosen by the host in the lobby (`options["clock"]`, stored like the pace): `move` (the
default) — each wait has the server's turn timeout (bot/discord/timers.py) — or `bank`, as BGA's
turn-based mode: each person starts with a bank of RESERVE (3 days); the time the game waits on them drains
it; each time a move in their seat hands the wait on to someone else, ADD (1 day) comes back, never above
the reserve. A person whose bank runs out meets the server's timeout policy (skip, an AI takes the seat,
forfeit). Both amounts are fixed, the same on every server: one number to learn, and a game's clock never
changes under it.

Banks are not stored: they are counted from the action log, which keeps with each move when it was
committed (`at`) and whom the position before it waited on (`waited`: the seats of the people to act then;
an AI seat is never waited on), and from the moment of the deal (the match's `started_at`). So they are
exact, survive any restart, and are the same on every bot process; the session manager keeps a bank
table's live log rows in memory to count them (bot/sessions/base.py).

How a bank is counted (`banks`, one pure function of the spans it is given: time left out of the spans,
such as a person's time away, simply does not count):
- A span runs from the moment a position arose (the deal, or the move before) to the move made from it. It
  drains the bank of every person it waited on (several at once in a simultaneous decision), never below
  zero.
- After a move, its seat gets ADD back if the next position no longer waits on it: a chess clock's
  increment, once per hand-over, not per step of a turn of several moves. An AI's moves in the seat count
  too, so a person who takes their seat back from the AI finds time in their bank.
- An undone move never happened: the time until the move that replaced it is the position's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.store import LogRow, Seat
from engine.core import PlayerId

MOVE, BANK = "move", "bank"
DAY = 86400.0
RESERVE = 3 * DAY  # a person's bank at the deal, and the most it holds
ADD = DAY  # what each hand-over gives back


def is_bank(options: dict[str, Any]) -> bool:
    """Whether a table plays with bank clocks (its own choice; `move` otherwise)."""
    return options.get("clock") == BANK


def people_waited(seats: tuple[Seat, ...], to_act: Iterable[PlayerId]) -> tuple[PlayerId, ...]:
    """The seats among to_act that a person plays (an AI seat is never waited on)."""
    return tuple(s for s in to_act if not seats[s].is_ai and seats[s].user_id is not None)


@dataclass(frozen=True, slots=True)
class Span:
    """A stretch of time in which the game waited on these seats; `handed`: the seat whose move ended it
    and handed the wait on (it gets ADD back), or None."""

    start: float
    end: float
    waited: tuple[PlayerId, ...]
    handed: PlayerId | None = None


def spans(started: float, rows: Sequence[LogRow], waiting: tuple[PlayerId, ...]) -> list[Span]:
    """The closed spans of a log (its live rows, in order) from the deal at `started`; `waiting`: whom the
    current position waits on (whether the last move handed the wait on)."""
    out: list[Span] = []
    start = started
    for i, row in enumerate(rows):
        after = rows[i + 1].waited if i + 1 < len(rows) else waiting
        out.append(Span(start, row.at, row.waited, None if row.seat in after else row.seat))
        start = row.at
    return out


def banks(seats: int, counted: Iterable[Span], reserve: float = RESERVE, add: float = ADD) -> list[float]:
    """Each seat's bank (seconds) after these spans: the reserve, less the time each span waited on the
    seat (never below zero), plus `add` after each span its seat handed on (never above the reserve)."""
    left = [reserve] * seats
    for span in counted:
        for seat in span.waited:
            left[seat] = max(0.0, left[seat] - (span.end - span.start))
        if span.handed is not None:
            left[span.handed] = min(reserve, left[span.handed] + add)
    return left


@dataclass(frozen=True, slots=True)
class Banks:
    """A bank table's clocks now: each seat's bank (seconds) when the current position arose (`since`), and
    the seats of the people it waits on, whose banks drain from then on."""

    since: float
    left: tuple[float, ...]
    waiting: tuple[PlayerId, ...]

    def first(self) -> PlayerId | None:
        """The seat waited on whose bank runs out first (None: it waits on nobody)."""
        return min(self.waiting, key=lambda s: self.left[s]) if self.waiting else None

    def runs_out(self) -> float | None:
        """When the first bank of the people waited on runs out (None: it waits on nobody)."""
        first = self.first()
        return None if first is None else self.since + self.left[first]

    def out_of_time(self, now: float) -> tuple[PlayerId, ...]:
        """The seats waited on whose bank has run out by `now`."""
        return tuple(s for s in self.waiting if self.since + self.left[s] <= now)

    def at(self, now: float) -> tuple[float, ...]:
        """Each seat's bank at `now` (those waited on drained since the position arose)."""
        spent = max(0.0, now - self.since)
        return tuple(max(0.0, b - spent) if s in self.waiting else b for s, b in enumerate(self.left))


def banks_now(
    started: float, rows: Sequence[LogRow], seats: tuple[Seat, ...], to_act: Sequence[int]
) -> Banks:
    """The clocks of a bank table dealt at `started`, with these live log rows, now that these seats are to
    act."""
    waiting = people_waited(seats, to_act)
    since = rows[-1].at if rows else started
    return Banks(since, tuple(banks(len(seats), spans(started, rows, waiting))), waiting)
