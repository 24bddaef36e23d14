"""What front ends see of the session manager: refusals, the picture of a match, moves and events."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from discord.utils import escape_markdown

from bot.sessions.clock import Banks
from bot.store import ABANDONED, ACTIVE, BROKEN, FINISHED, MatchRecord, Seat
from engine.core import Event, PlayerId
from engine.table.lesson import Guide
from engine.text import printable

UserId = int

# How response windows (and other decisions whose only move is a pass) treat a person (their own choice,
# kept by the front end; the engine never reads it; the rule is in bot/sessions/automatic.py):
ASK = "ask"  # every window and pass-only decision waits for them whatever they hold: nothing leaks
AUTO = "auto"  # a window or decision in which they can only pass passes at once (opponents may infer it)
ALL = "all"  # every window passes at once for them (and every pass-only decision)
WINDOW_SETTINGS = (ASK, AUTO, ALL)
DEFAULT_WINDOWS = AUTO
WINDOW_WORDS = {ASK: "ask me", AUTO: "pass for me when I can't respond", ALL: "pass every window"}
WINDOW_HELP = {
    ASK: "every response window, and every decision of yours whose only move is a pass, waits for you, "
    "whatever you hold: nobody can tell anything from it",
    AUTO: "a response window or any other decision in which you can only pass passes at once (the default): "
    "opponents may infer that you held nothing to play",
    ALL: "every response window passes at once for you (and so does any decision in which you can only "
    "pass): you never respond",
}
# Why a move was played for a person (SessionEvent.auto): their window setting, or a lone legal move that
# everyone could see was their only one.
BY_SETTING, FORCED = "window", "forced"


class SessionError(Exception):
    """A refusal a person can read (not your turn, no seat, out-of-date button, ...)."""


class StaleState(SessionError):
    """The move was chosen on an older position; state_id is the current one."""

    def __init__(self, message: str, state_id: int) -> None:
        super().__init__(message)
        self.state_id = state_id


TAKEN_OVER = "An AI is playing your seat — press **Take my seat back** to play it yourself again."


class SeatTakenOver(SessionError):
    """Refused because an AI plays this person's seat of a running game (since they left or ran out of time);
    match_id is the game whose seat they may take back."""

    def __init__(self, match_id: int) -> None:
        super().__init__(TAKEN_OVER)
        self.match_id = match_id


class MatchBroken(SessionError):
    """The match's saved data is damaged beyond rebuilding; it has been stopped."""


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """A read-only picture of a match for front ends."""

    id: int
    game_id: str
    title: str
    status: str
    channel_id: int | None
    guild_id: int | None
    origin: str
    host_user: int | None
    seats: tuple[Seat, ...]
    state_id: int
    to_act: tuple[PlayerId, ...] = ()
    returns: tuple[float, ...] | None = None
    deadline: float | None = None
    note: str = ""
    created_at: float = 0.0
    updated_at: float = 0.0
    options: dict[str, Any] = field(default_factory=dict)  # the table's options (/play: seats, ...)
    # The response window a person is to answer now (the game's Status.window of the public view), or "".
    window: str = ""
    # A running bank table's clocks (bot/sessions/clock.py); None for a per-move clock.
    banks: Banks | None = None

    def seat_of(self, user: UserId) -> PlayerId | None:
        """The seat of this user, or None."""
        return seat_of(self.seats, user)

    def seat_name(self, seat: PlayerId) -> str:
        """A display name for a seat."""
        return seat_name(self.seats, seat)

    @property
    def users_to_act(self) -> tuple[UserId, ...]:
        """User ids (not AI) that must act now."""
        return tuple(u for s in self.to_act if (u := self.seats[s].user_id) is not None)

    @property
    def over(self) -> bool:
        """Whether the game has ended (finished, abandoned or broken)."""
        return self.status in (FINISHED, ABANDONED, BROKEN)


@dataclass(frozen=True, slots=True)
class Move:
    """One legal move of a seat: its key (what submit takes) and its menu path from game.describe."""

    key: str
    path: tuple[str, ...]

    @property
    def label(self) -> str:
        """The path as one line, e.g. "K♣ › Attack › P2: card 1"."""
        return " › ".join(self.path)


@dataclass(frozen=True, slots=True)
class SessionEvent:
    """Something that happened to a match, published to every subscriber.

    kind: created, joined, left, ai_added, started, action, undo, finished, abandoned, broken.
    events are the engine's events (filter them with `Event.visible(seat)` before showing them).
    auto: "" for a move its seat chose (a person or an AI); BY_SETTING for a window passed for a person by
    their window setting; FORCED for the one legal move of a person, played for them.
    """

    kind: str
    info: MatchInfo
    seat: PlayerId | None = None
    user: UserId | None = None
    action_key: str | None = None
    events: tuple[Event, ...] = ()
    auto: str = ""

    def visible_events(self, viewer: PlayerId | None) -> list[Event]:
        """The engine events this seat (None = spectator) may read."""
        return [e for e in self.events if e.visible(viewer)]


@dataclass(frozen=True, slots=True)
class SeatSnapshot:
    """One person's picture of a match, read under one lock: what their menu, hand image and reply show."""

    info: MatchInfo
    moves: list[Move]  # their legal moves with menu paths, in the game's menu order ([] if none now)
    view: Any  # game.view for their seat (a spectator's without one); None before the deal
    can_undo: bool  # whether undo would be accepted for them now
    stamp: object = field(default=None, compare=False, repr=False)  # the match as read (SessionManager.fresh)
    # The learner's guide in a practice game (engine/table/lesson.py: their step now, the steps done), for
    # the learner only; None otherwise. Their suggested move is first in `moves`, its way marked.
    lesson: Guide | None = None


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """The public picture of a match for its board, read under one lock."""

    info: MatchInfo
    view: Any  # the spectator view (None before the deal)
    # The people the bot waits on: to act, and no move is played for them (bot/sessions/automatic.py;
    # decided from what their opponents may see, so who is pinged tells nobody their cards).
    waits: frozenset[UserId]
    # A move is about to be played for a person (their window setting, a lone move) by the running AI task:
    # a front end may wait for it rather than show the position in between.
    automating: bool
    # A practice game's guide for its learner (engine/table/lesson.py): the board of a practice game is
    # theirs (a private thread), so it says their lesson. None for any other game.
    lesson: Guide | None = None


@dataclass(frozen=True, slots=True)
class SubmitResult:
    """What an accepted move returns: the events, the new state_id and the match after it (and the mover's
    snapshot after it, when asked for: submit(..., seen=True))."""

    state_id: int
    events: tuple[Event, ...]
    info: MatchInfo
    seen: SeatSnapshot | None = None

    @property
    def over(self) -> bool:
        """Whether this move ended the game."""
        return self.info.status == FINISHED


Subscriber = Callable[[SessionEvent], Awaitable[None] | None]


def as_written(name: str) -> str:
    """A name a person wrote (a seat or pack name) as a message quotes it: control characters visible,
    Markdown escaped (bot/discord/common.py `shown` adds mentions, which these messages never ping)."""
    return escape_markdown(printable(name))


def seat_name(seats: tuple[Seat, ...], seat: PlayerId) -> str:
    """A display name for a seat: its stored name, else "AI 2" or "Player 2"."""
    s = seats[seat]
    return s.name or (f"AI {seat + 1}" if s.is_ai else f"Player {seat + 1}")


def seat_of(seats: tuple[Seat, ...], user: UserId) -> PlayerId | None:
    """The seat a person (not an AI) holds among these seats, or None."""
    for i, s in enumerate(seats):
        if s.user_id == user and not s.is_ai:
            return i
    return None


def own_seat(match: MatchInfo | MatchRecord, user: UserId, refusal: str) -> PlayerId:
    """The seat this person plays in the match; SeatTakenOver if an AI plays it for them in a running game,
    else SessionError(refusal) for someone without a seat."""
    seat = seat_of(match.seats, user)
    if seat is not None:
        return seat
    if match.status == ACTIVE and any(s.is_ai and s.stands_for == user for s in match.seats):
        raise SeatTakenOver(match.id)
    raise SessionError(refusal)


@dataclass(frozen=True, slots=True)
class Level:
    """One level of a menu: the labels chosen so far and the options offered next."""

    labels: tuple[str, ...]
    options: list[str]
    leaves: frozenset[int]  # options that complete a move
    move: Move | None  # the move whose whole path is `labels`, if any


def options_at(moves: list[Move], depth: int) -> list[str]:
    """The distinct path elements at this depth, in the moves' order."""
    seen: dict[str, None] = {}
    for m in moves:
        if len(m.path) > depth:
            seen.setdefault(m.path[depth])
    return list(seen)


def walk(moves: list[Move], path: tuple[int, ...]) -> Level | None:
    """Follow option indexes from the root; None if an index does not exist (a menu of another position)."""
    labels: tuple[str, ...] = ()
    matching = moves
    for i in path:
        options = options_at(matching, len(labels))
        if not 0 <= i < len(options):
            return None
        labels += (options[i],)
        matching = [m for m in matching if m.path[: len(labels)] == labels]
    options = options_at(matching, len(labels))
    leaves = frozenset(i for i, o in enumerate(options) if any(m.path == (*labels, o) for m in matching))
    move = next((m for m in matching if m.path == labels), None) if labels else None
    return Level(labels, options, leaves, move)
