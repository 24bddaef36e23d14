"""The records the store reads and writes, its errors, and how it reports an outage.

The store itself is `bot.store.sql.Store` (its logic, once); `bot.store.sqlite.SqliteStore` is the embedded
default and `bot.store.postgres.PostgresStore` (asyncpg) the same store on PostgreSQL, for several bot
processes on one database; `bot.store.rows` reads rows into these records for both.
"""

from __future__ import annotations

import contextvars
import hashlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.ratings import Change, Rating

JSON = dict[str, Any]

# Match statuses. Only LOBBY and ACTIVE count as "the live match of a channel".
LOBBY = "lobby"
ACTIVE = "active"
FINISHED = "finished"
ABANDONED = "abandoned"
BROKEN = "broken"
LIVE_STATUSES = (LOBBY, ACTIVE)


class StoreError(Exception):
    """A storage failure that is not the user's fault."""


class Conflict(StoreError):
    """A write lost a race: the match changed (state_id or channel) since it was read."""


class StoreUnavailable(StoreError):
    """The database cannot be reached now (no answer in time, a refused or lost connection): what was asked
    was not done (a write that timed out may still commit later; reload before trusting memory)."""


class DiskFull(StoreError):
    """The database's disk is full: the write was refused and nothing of it was stored."""


log = logging.getLogger("bot.store")

# The moment (time.monotonic) by which the current caller must have an answer, or None: a Discord press
# sets it (bot/discord/common.py guarded) so that a database that does not answer costs a press at most
# that long. The function sees which task asks: the work a press starts (an AI's move) is not held to it.
ANSWER_BY: contextvars.ContextVar[Callable[[], float | None] | None] = contextvars.ContextVar(
    "agora_answer_by", default=None
)
LEAST_WAIT = 0.2  # seconds a store call gets even when the caller's budget is spent


def wait_budget(default: float) -> float:
    """How long a store call may wait for the database: `default`, or less when the caller must answer
    sooner (ANSWER_BY), never under LEAST_WAIT."""
    answer_by = ANSWER_BY.get()
    deadline = answer_by() if answer_by is not None else None
    if deadline is None:
        return default
    return max(LEAST_WAIT, min(default, deadline - time.monotonic()))


def reason_of(error: BaseException) -> str:
    """An exception's text, or its type's name when the text is empty (str(TimeoutError()) is "")."""
    return str(error).strip() or type(error).__name__


OUTAGE_BACKOFF = (2.0, 60.0)  # seconds background work waits after failing for an outage: first, most


def outage_backoff(last: float) -> float:
    """How long background work (timers, boards) waits after failing again for an outage: doubling from 2 s
    up to 60 s (`last` 0: the first failure)."""
    first, most = OUTAGE_BACKOFF
    return min(most, max(first, last * 2))


class Outage:
    """One log line when the database stops answering and one when it answers again (with how long and
    how many presses were told so), instead of a traceback per press or timer tick; its state for health."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.since: float | None = None  # clock() when the outage began; None: the database answers
        self.since_wall: float | None = None  # time.time() then, to report
        self.reason = ""
        self.answered = 0  # presses answered "unreachable" (or "disk full") during this outage
        self.listeners: list[Callable[[], None]] = []  # called when an outage ends (retry what waited)

    def failed(self, error: BaseException) -> None:
        """A store call failed for want of the database (StoreUnavailable, DiskFull)."""
        if self.since is not None:
            return
        self.since, self.since_wall, self.reason, self.answered = self.clock(), time.time(), str(error), 0
        what = "disk full" if isinstance(error, DiskFull) else "unreachable"
        log.error("database %s: %s", what, self.reason)

    def ok(self) -> None:
        """A store call succeeded: an outage under way ends."""
        if self.since is None:
            return
        took = self.clock() - self.since
        self.since = self.since_wall = None
        log.warning("database back after %.0f s; %d presses answered 'unreachable'", took, self.answered)
        for listener in list(self.listeners):
            listener()

    def told(self) -> None:
        """A press was answered that the database is unreachable (or its disk full)."""
        self.answered += 1


@dataclass(frozen=True, slots=True)
class Shards:
    """The Discord shards one bot process owns: a guild belongs to shard (guild_id >> 22) % count."""

    count: int
    ids: frozenset[int]

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError(f"the shard count must be at least 1, not {self.count}")
        if not self.ids or not all(0 <= i < self.count for i in self.ids):
            raise ValueError(
                f"shards {sorted(self.ids)} are not among the {self.count} shards 0-{self.count - 1}"
            )

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process handles the guild (direct messages and games of no guild: shard 0)."""
        return ((guild_id or 0) >> 22) % self.count in self.ids


ALL_SHARDS = Shards(1, frozenset({0}))  # one process owns every guild


@dataclass(frozen=True, slots=True)
class Seat:
    """Who plays one engine seat: a user (Discord user id, or a small console id) or an AI level."""

    user_id: int | None = None
    ai: str | None = None
    name: str = ""
    stands_for: int | None = None  # an AI seat taken over from this person, who may take it back

    @property
    def is_ai(self) -> bool:
        """Whether an AI plays this seat."""
        return self.ai is not None

    @property
    def person(self) -> int | None:
        """The person the seat belongs to: its player, or whom an AI stands in for (None: an AI's own)."""
        return self.stands_for if self.is_ai else self.user_id

    def to_json(self) -> JSON:
        """The seat as JSON."""
        data: JSON = {"user": self.user_id, "ai": self.ai, "name": self.name}
        if self.stands_for is not None:
            data["for"] = self.stands_for
        return data

    @classmethod
    def from_json(cls, data: JSON) -> Seat:
        """The inverse of to_json."""
        return cls(data.get("user"), data.get("ai"), data.get("name", ""), data.get("for"))


def seats_to_text(seats: list[Seat] | tuple[Seat, ...]) -> str:
    """Seats as the JSON text stored in a match row."""
    return json.dumps([s.to_json() for s in seats], separators=(",", ":"))


def seats_from_text(text: str) -> tuple[Seat, ...]:
    """The inverse of seats_to_text."""
    return tuple(Seat.from_json(d) for d in json.loads(text))


def snapshot_hash(text: str) -> str:
    """A short checksum of a snapshot's text, kept beside it to notice corruption."""
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


@dataclass(slots=True)
class MatchRecord:
    """One row of the matches table."""

    id: int
    game_id: str
    rules_version: str
    guild_id: int | None
    channel_id: int | None
    origin: str  # "discord" or "console"
    status: str
    seed: int
    options: JSON
    seats: tuple[Seat, ...]
    host_user: int | None
    created_at: float
    updated_at: float
    snapshot: str | None = None  # game.to_json(state) as JSON text; None in the lobby
    snapshot_hash: str | None = None
    state_id: int = 0
    log_len: int = 0  # live (not undone) actions the snapshot includes
    undo_floor: int = 0
    to_act: tuple[int, ...] = ()
    ai_turn: bool = False  # an AI seat is among to_act: recovery must move it
    deadline: float | None = None
    note: str = ""  # why a match is broken, abandoned, ...
    damage: str = ""  # what of the row could not be read (e.g. "seats are unreadable"); "" if all of it
    rematch_of: int | None = None  # the finished match this one was opened to play again
    started_at: float | None = None  # when it was dealt (None: a lobby, or dealt before this was kept)


@dataclass(frozen=True, slots=True)
class NewMatch:
    """What create_match needs."""

    game_id: str
    rules_version: str
    guild_id: int | None
    channel_id: int | None
    origin: str
    seed: int
    options: JSON
    seats: tuple[Seat, ...]
    host_user: int | None
    now: float
    rematch_of: int | None = None  # a rematch: the finished match it plays again (one live rematch each)
    table: TableKey | None = None  # a tournament's table this match is the game of (linked in the same write)


@dataclass(frozen=True, slots=True)
class StateUpdate:
    """The match columns written with every action, start and undo."""

    snapshot: str
    state_id: int
    log_len: int
    undo_floor: int
    to_act: tuple[int, ...]
    ai_turn: bool
    deadline: float | None
    status: str
    now: float


@dataclass(frozen=True, slots=True)
class LogRow:
    """One row of the append-only action log; seq is the state_id the action produced."""

    seq: int
    seat: int
    user_id: int | None
    key: str
    at: float
    undone: bool = False
    waited: tuple[int, ...] = ()  # the seats of the people the position before this move waited on


@dataclass(frozen=True, slots=True)
class ResultRow:
    """A finished match's outcome for one seat."""

    seat: int
    user_id: int | None
    ai: str | None
    share: float  # the seat's share of the win, from game.returns (sum 1 over seats)


@dataclass(frozen=True, slots=True)
class UserStats:
    """A user's record: games played, wins (share > 0) and total share of wins."""

    user_id: int
    played: int
    wins: int
    points: float


@dataclass(frozen=True, slots=True)
class LeaderRow:
    """One line of a leaderboard."""

    user_id: int
    played: int
    wins: int
    points: float


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A player's current rating in one game and scope (a guild id, or 0 for all servers together)."""

    scope: int
    game_id: str
    player: str  # a user id as text, or "ai:<level>" (bot.ratings.player_of)
    rating: Rating


@dataclass(frozen=True, slots=True)
class RatingChange:
    """How one finished match moved one player's rating in one scope."""

    match_id: int
    scope: int
    game_id: str
    change: Change
    finished_at: float


@dataclass(frozen=True, slots=True)
class RatingsRebuilt:
    """What rebuilding the ratings from the stored results did."""

    games: int  # finished games with results
    rated: int  # of which were rated (the others: console games, fewer than two players)
    ratings: int  # current ratings now stored (player, game, scope)
    changes: int  # per-match rating changes now stored


@dataclass(frozen=True, slots=True)
class BoardRecord:
    """A match's public board message: where it is, the state_id it shows, who it pinged, the last events."""

    match_id: int
    channel_id: int
    message_id: int  # 0: none known (a game that ran before boards were stored)
    state_id: int
    turn: Any = None  # the turn key the message shows (JSON)
    pinged: tuple[int, ...] = ()
    recent: tuple[str, ...] = ()  # the last public event texts


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A match in a listing (no snapshot)."""

    id: int
    game_id: str
    status: str
    channel_id: int | None
    guild_id: int | None
    seats: tuple[Seat, ...]
    state_id: int
    updated_at: float
    deadline: float | None = None
    to_act: tuple[int, ...] = field(default_factory=tuple)


@dataclass(frozen=True, slots=True)
class DeckRecord:
    """A deck a person saved for a game, under a name (one per name whatever its case)."""

    user_id: int
    game_id: str
    name: str
    deck: JSON  # the game's DeckBook JSON
    updated_at: float


@dataclass(frozen=True, slots=True)
class PackRecord:
    """One version of a server's card pack for a game: the file as an admin uploaded it (versions of a name
    count up from 1 and are never reused, even after the pack is removed)."""

    guild_id: int
    game_id: str
    name: str  # the pack's name (one pack per name whatever its case)
    version: int
    filename: str
    text: str  # the pack file's text, read again (engine.packs.read) whenever it is used
    uploaded_by: int | None
    uploaded_at: float


# --- tournaments (bot/tournament decides; these are its rows) -----------------------------------------------
SIGNUP, RUNNING, PAUSED, DONE, CANCELLED = "signup", "running", "paused", "finished", "cancelled"
TOURNAMENT_LIVE = (SIGNUP, RUNNING, PAUSED)


@dataclass(frozen=True, slots=True)
class TableKey:
    """One table of one round of a tournament."""

    tournament_id: int
    round: int
    table_no: int


@dataclass(frozen=True, slots=True)
class NewTournament:
    """What create_tournament needs."""

    guild_id: int
    channel_id: int
    game_id: str
    name: str
    format: str
    rounds: int
    round_seconds: float
    seats: int
    options: JSON  # the games' table options (a card pack, ranked or casual)
    adjudication: str  # how an unfinished game is decided at the round's end: "draw" or "ai"
    starts_at: float
    created_by: int
    now: float


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """One row of the tournaments table."""

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None  # the sign-up message (then the tournament's message)
    game_id: str
    name: str
    format: str
    rounds: int
    round_seconds: float
    seats: int
    options: JSON
    adjudication: str
    status: str  # SIGNUP, RUNNING, PAUSED, DONE or CANCELLED
    starts_at: float
    round: int  # the current round (0 before the first)
    announced: int  # the last round whose pairing was posted (its tables opened first)
    round_ends: float | None  # when the current round's unfinished games are adjudicated
    paused_at: float | None
    created_by: int
    created_at: float
    updated_at: float
    note: str


@dataclass(frozen=True, slots=True)
class EntrantRecord:
    """A tournament's player: a person (user_id) or an AI entrant (ai: its level)."""

    player: str  # the user id as text, or "ai:<level>:<n>"
    user_id: int | None
    ai: str | None
    name: str
    joined_at: float
    dropped: int | None = None  # the first round they are not paired in (None: still in)


@dataclass(frozen=True, slots=True)
class TableRecord:
    """One table of a tournament round: its players in seat order (one player: a bye), its thread and game
    once opened, and each seat's points once decided (how: played, adjudicated, recorded, bye)."""

    round: int
    table_no: int
    players: tuple[str, ...]
    thread_id: int | None = None
    match_id: int | None = None
    points: tuple[float, ...] | None = None
    how: str = ""


@dataclass(frozen=True, slots=True)
class SeasonRecord:
    """One of a server's seasons of leaderboards (/config season_weeks): its number (1 the first), its
    span, and when its final standings were posted (None: it is the running one, or its end is due)."""

    guild_id: int
    number: int
    starts_at: float
    ends_at: float
    posted_at: float | None = None
