"""The async session manager: the one place where matches are created, played, saved and resumed.

Front ends (Discord, the console) are thin adapters over `SessionManager`:

    store = SqliteStore("agora.db"); await store.open()
    sessions = SessionManager(store)
    await sessions.recover()                                  # resume unfinished games (AI moves too)
    sessions.subscribe(callback)                              # SessionEvent for every change
    info = await sessions.create(channel_id, guild_id, "omphala", host_user)
    await sessions.join(info.id, user); await sessions.add_ai(info.id, host_user, "random")
    info = await sessions.start(info.id, host_user)
    moves = await sessions.moves_for(info.id, user)          # [Move(key, path)], from game.describe
    view = await sessions.view_for(info.id, user)            # game.view for the user's seat (or spectator)
    result = await sessions.submit(info.id, user, moves[0].key, info.state_id)

Every method that a person triggers raises `SessionError` with a short, polite message on refusal; a
`StaleState` refusal (an out-of-date button) carries the current state_id so the front end can redraw.
One live match per channel, one asyncio lock per match; each action is committed (log row + snapshot +
state_id in one transaction) before `submit` returns. AI seats move by themselves in worker threads
and go through the same path as a human. A bounded LRU cache holds live matches; the rest load on demand.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

from bot.ai import DEFAULT_LEVEL, LEVELS, choose_move
from bot.store import (
    ABANDONED,
    ACTIVE,
    BROKEN,
    FINISHED,
    LOBBY,
    Conflict,
    LogRow,
    MatchRecord,
    MatchSummary,
    NewMatch,
    ResultRow,
    Seat,
    StateUpdate,
    Store,
)
from bot.store.base import snapshot_hash
from engine.core import JSON, Event, Game, IllegalAction, PlayerId, find_action
from engine.match import Match
from engine.registry import get as get_game

log = logging.getLogger(__name__)

UserId = int


# --- what front ends see -----------------------------------------------------------------------------
class SessionError(Exception):
    """A refusal a person can read (not your turn, no seat, out-of-date button, ...)."""


class StaleState(SessionError):
    """The move was chosen on an older position; state_id is the current one."""

    def __init__(self, message: str, state_id: int) -> None:
        super().__init__(message)
        self.state_id = state_id


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

    def seat_of(self, user: UserId) -> PlayerId | None:
        """The seat of this user, or None."""
        return _seat_of(self.seats, user)

    def seat_name(self, seat: PlayerId) -> str:
        """A display name for a seat."""
        s = self.seats[seat]
        return s.name or (f"AI {seat + 1}" if s.is_ai else f"Player {seat + 1}")

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
    """

    kind: str
    info: MatchInfo
    seat: PlayerId | None = None
    user: UserId | None = None
    action_key: str | None = None
    events: tuple[Event, ...] = ()

    def visible_events(self, viewer: PlayerId | None) -> list[Event]:
        """The engine events this seat (None = spectator) may read."""
        return [e for e in self.events if e.visible(viewer)]


@dataclass(frozen=True, slots=True)
class SubmitResult:
    """What an accepted move returns: the events, the new state_id and the match after it."""

    state_id: int
    events: tuple[Event, ...]
    info: MatchInfo

    @property
    def over(self) -> bool:
        """Whether this move ended the game."""
        return self.info.status == FINISHED


Subscriber = Callable[[SessionEvent], Awaitable[None] | None]


# --- internals -----------------------------------------------------------------------------------------
def _seat_of(seats: tuple[Seat, ...], user: UserId) -> PlayerId | None:
    for i, s in enumerate(seats):
        if s.user_id == user and not s.is_ai:
            return i
    return None


def _ai_seed(seed: int, state_id: int, seat: int) -> int:
    """A reproducible seed for one AI decision (the same move is recomputed after a crash)."""
    return (seed * 1_000_003 + state_id * 7919 + seat) & ((1 << 63) - 1)


def _rules_version(game: Game[Any]) -> str:
    return str(getattr(game, "rules_version", getattr(game, "version", "1")))


@dataclass(slots=True)
class _Live:
    """A match in the cache: its row (without the snapshot text) and, once started, its Match."""

    record: MatchRecord
    match: Match | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    forfeit_shares: tuple[float, ...] | None = None  # the result of a game ended by a forfeit


class SessionManager:
    """Creates, plays, saves and resumes matches for any number of front ends."""

    def __init__(
        self,
        store: Store,
        *,
        cache_size: int = 1000,
        ai_delay: float = 0.0,
        ai_concurrency: int = 4,
        turn_seconds: float | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.cache_size = cache_size
        self.ai_delay = ai_delay  # seconds an AI "thinks" before moving (for people watching)
        self.turn_seconds = turn_seconds  # deadline for a human turn, if any
        self.clock = clock
        self._cache: OrderedDict[int, _Live] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}
        self._ai_tasks: dict[int, asyncio.Task[None]] = {}
        self._ai_slots = asyncio.Semaphore(ai_concurrency)
        self._subscribers: list[Subscriber] = []
        self._closed = False

    # --- life cycle --------------------------------------------------------------------------------
    async def recover(self) -> int:
        """Resume every unfinished game that waits on an AI move; the number of games resumed.

        Games waiting on people need nothing: they load on demand when someone acts.
        """
        ids = await self.store.matches_awaiting_ai()
        for mid in ids:
            self._kick_ai(mid)
        return len(ids)

    async def close(self) -> None:
        """Stop AI tasks (everything already applied is committed)."""
        self._closed = True
        tasks = list(self._ai_tasks.values())
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await t

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Call callback (sync or async) with every SessionEvent; returns an unsubscribe function.

        Callbacks run in order while the match is locked, so they see events in order; keep them short
        and start a task for slow work (rendering, network).
        """
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback)

    async def resume_ai(self, match_id: int) -> bool:
        """Make sure the AI seats to act in this match are moving; whether any AI is to act."""
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            if self._ai_to_act(live) is None:
                return False
            self._kick_ai(match_id)
            return True

    async def wait_idle(self, match_id: int | None = None) -> None:
        """Wait until no AI is moving (in this match, or anywhere)."""
        while True:
            if match_id is None:
                tasks = list(self._ai_tasks.values())
            else:
                tasks = [t] if (t := self._ai_tasks.get(match_id)) else []
            if not tasks:
                return
            await asyncio.wait(tasks)

    # --- lobby -------------------------------------------------------------------------------------
    async def create(
        self,
        channel_id: int | None,
        guild_id: int | None,
        game_id: str,
        host_user: UserId,
        options: JSON | None = None,
        *,
        seed: int | None = None,
        host_name: str = "",
        origin: str = "discord",
        seat_host: bool = True,
    ) -> MatchInfo:
        """Open a lobby in a channel (the host seated unless seat_host=False); refused if it has a game.

        channel_id may be None (console games); the match is then addressed by its id only.
        """
        try:
            game = get_game(game_id)
        except KeyError:
            raise SessionError(f"There is no game called {game_id!r}.") from None
        if channel_id is not None and (mid := await self.store.live_match_id(channel_id)) is not None:
            raise SessionError(f"This channel already has a game (#{mid}); finish or abandon it first.")
        new = NewMatch(
            game_id=game_id,
            rules_version=_rules_version(game),
            guild_id=guild_id,
            channel_id=channel_id,
            origin=origin,
            seed=secrets.randbits(62) if seed is None else seed,
            options=dict(options or {}),
            seats=(Seat(host_user, None, host_name),) if seat_host else (),
            host_user=host_user,
            now=self.clock(),
        )
        try:
            record = await self.store.create_match(new)
        except Conflict:
            raise SessionError("This channel already has a game; finish or abandon it first.") from None
        async with self._lock_for(record.id):
            live = self._remember(_Live(record))
            info = self._info(live)
            await self._publish(SessionEvent("created", info, seat=0 if seat_host else None, user=host_user))
        return info

    async def join(self, match_id: int, user: UserId, name: str = "") -> MatchInfo:
        """Take a seat in a lobby."""
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            rec = self._require_lobby(live)
            if _seat_of(rec.seats, user) is not None:
                raise SessionError("You are already in this game.")
            self._require_room(rec)
            await self._set_seats(live, (*rec.seats, Seat(user, None, name)))
            info = self._info(live)
            await self._publish(SessionEvent("joined", info, seat=len(rec.seats) - 1, user=user))
            return info

    async def add_ai(self, match_id: int, user: UserId, level: str = DEFAULT_LEVEL) -> MatchInfo:
        """Seat an AI of this level in a lobby (host only)."""
        if level not in LEVELS:
            raise SessionError(f"There is no AI level {level!r}; try one of: {', '.join(LEVELS)}.")
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            rec = self._require_lobby(live)
            self._require_host(rec, user)
            self._require_room(rec)
            seat = len(rec.seats)
            await self._set_seats(live, (*rec.seats, Seat(None, level, f"AI {seat + 1} ({level})")))
            info = self._info(live)
            await self._publish(SessionEvent("ai_added", info, seat=seat, user=user))
            return info

    async def leave(self, match_id: int, user: UserId) -> MatchInfo:
        """Leave a game: in a lobby the seat is freed; in a running game an AI takes the seat over."""
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            rec = live.record
            seat = self._require_seat(live, user)
            if rec.status == LOBBY:
                seats = rec.seats[:seat] + rec.seats[seat + 1 :]
                humans = [s.user_id for s in seats if not s.is_ai]
                if not humans:
                    await self._end(live, ABANDONED, "Everyone left the lobby.")
                    return self._info(live)
                host = rec.host_user if rec.host_user != user else humans[0]
                await self._set_seats(live, seats, host)
            elif rec.status == ACTIVE:
                old = rec.seats[seat]
                name = f"AI for {old.name or f'Player {seat + 1}'}"
                seats = (*rec.seats[:seat], Seat(None, DEFAULT_LEVEL, name), *rec.seats[seat + 1 :])
                await self._set_seats(live, seats)
                self._kick_ai(match_id)
            else:
                raise SessionError("This game is already over.")
            info = self._info(live)
            await self._publish(SessionEvent("left", info, seat=seat, user=user))
            return info

    async def start(self, match_id: int, user: UserId) -> MatchInfo:
        """Deal and begin (host only); AI seats start moving by themselves."""
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            rec = self._require_lobby(live)
            self._require_host(rec, user)
            game = get_game(rec.game_id)
            n = len(rec.seats)
            if not game.min_players <= n <= game.max_players:
                raise SessionError(
                    f"{game.title} needs {game.min_players} to {game.max_players} players; there {_are(n)}."
                )
            match = Match.new(rec.game_id, n, rec.seed, rec.options)
            update = self._state_update(live, match, ACTIVE)
            await self.store.start_match(match_id, update)
            live.match = match
            self._apply_update(live, update)
            info = self._info(live)
            await self._publish(SessionEvent("started", info, user=user))
            self._kick_ai(match_id)
            return info

    async def abandon(self, match_id: int, user: UserId | None, *, force: bool = False) -> MatchInfo:
        """Stop a lobby or a running game for good (the host, or anyone with force=True, e.g. an admin)."""
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            rec = live.record
            if rec.status not in (LOBBY, ACTIVE):
                raise SessionError("This game is already over.")
            if not force:
                self._require_host(rec, user)
            await self._end(live, ABANDONED, "The game was abandoned.")
            return self._info(live)

    async def vote_abandon(self, match_id: int, user: UserId) -> tuple[MatchInfo, frozenset[UserId]]:
        """A player asks to abandon the game; once every seated person has asked, it is abandoned.

        Returns the match and the people who still have to agree (empty once it is abandoned). The
        requests are stored, so they survive a restart.
        """
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            self._require_seat(live, user)
            rec = live.record
            if rec.status not in (LOBBY, ACTIVE):
                raise SessionError("This game is already over.")
            asked = await self.store.vote_abandon(match_id, user, self.clock())
            people = frozenset(s.user_id for s in rec.seats if not s.is_ai and s.user_id is not None)
            missing = people - asked
            if not missing:
                await self._end(live, ABANDONED, "Every player agreed to abandon the game.")
            return self._info(live), missing

    async def forfeit(self, match_id: int, user: UserId, reason: str = "") -> MatchInfo:
        """The user gives up a running game: it ends now, a loss for them and a shared win for the rest."""
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            seat = self._require_seat(live, user)
            match = self._require_active(live)
            n = match.num_players
            shares = tuple(0.0 if i == seat else 1 / (n - 1) for i in range(n))
            seats = live.record.seats
            results = [ResultRow(i, seats[i].user_id, seats[i].ai, shares[i]) for i in range(n)]
            who = self._info(live).seat_name(seat)
            note = f"{who} forfeited{f' ({reason})' if reason else ''}; the others share the win."
            await self.store.set_status(match_id, FINISHED, note, self.clock(), results)
            rec = live.record
            live.record = replace(rec, status=FINISHED, note=note, ai_turn=False, deadline=None)
            live.forfeit_shares = shares
            info = self._info(live)
            await self._publish(SessionEvent(FINISHED, info, seat=seat, user=user))
            return info

    # --- play --------------------------------------------------------------------------------------
    async def submit(
        self, match_id: int, user: UserId, action_key: str, expected_state_id: int | None
    ) -> SubmitResult:
        """Play a move by key for the user's seat, committed before this returns.

        Refused (SessionError) for a stale expected_state_id (StaleState), a user without a seat, a seat
        not to act, or a move that is not legal now. expected_state_id=None skips the staleness check.
        """
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            seat = self._require_seat(live, user)
            return await self._play(live, seat, user, action_key, expected_state_id)

    async def undo(self, match_id: int, user: UserId, expected_state_id: int | None = None) -> SubmitResult:
        """Take back the user's last move (own turn only, never past a draw or a reveal)."""
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            seat = self._require_seat(live, user)
            match = self._require_active(live)
            self._check_fresh(match, expected_state_id)
            if not match.can_undo(seat):
                raise SessionError("There is nothing you can take back now.")
            rows = await self.store.load_log(match_id)
            undone = match.undo(seat)
            update = self._state_update(live, undone, ACTIVE)
            await self.store.record_undo(match_id, rows[-1].seq, update, match.state_id)
            live.match = undone
            self._apply_update(live, update)
            info = self._info(live)
            events = (Event("undo", f"{info.seat_name(seat)} took back a move"),)
            await self._publish(SessionEvent("undo", info, seat=seat, user=user, events=events))
            self._kick_ai(match_id)
            return SubmitResult(undone.state_id, events, info)

    # --- reading ----------------------------------------------------------------------------------------
    async def get(self, match_id: int) -> MatchInfo:
        """A match by id (SessionError if there is none)."""
        async with self._lock_for(match_id):
            return self._info(await self._live(match_id))

    async def match_for_channel(self, channel_id: int) -> MatchInfo | None:
        """The channel's lobby or running game, if any."""
        mid = await self.store.live_match_id(channel_id)
        return None if mid is None else await self.get(mid)

    async def view_for(self, match_id: int, user: UserId | None) -> JSON:
        """game.view for the user's seat; a spectator's view if the user has no seat."""
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            match = self._require_started(live)
            seat = None if user is None else _seat_of(live.record.seats, user)
            return match.game.view(match.state, seat)

    async def moves_for(self, match_id: int, user: UserId) -> list[Move]:
        """The user's legal moves now, with menu paths ([] if it is not their turn)."""
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            seat = _seat_of(live.record.seats, user)
            if live.match is None or live.record.status != ACTIVE or seat is None:
                return []
            game, state = live.match.game, live.match.state
            return [Move(a.key, tuple(game.describe(state, a))) for a in game.legal_actions(state, seat)]

    async def can_undo(self, match_id: int, user: UserId) -> bool:
        """Whether undo would be accepted for this user now."""
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            seat = _seat_of(live.record.seats, user)
            ok = live.match is not None and live.record.status == ACTIVE and seat is not None
            return ok and live.match is not None and seat is not None and live.match.can_undo(seat)

    async def list_matches(
        self, *, origin: str | None = None, statuses: tuple[str, ...] | None = None, limit: int = 50
    ) -> list[MatchSummary]:
        """Stored matches, most recently updated first."""
        return await self.store.list_matches(origin=origin, statuses=statuses, limit=limit)

    async def overdue(self, now: float | None = None) -> list[MatchSummary]:
        """Running matches whose turn deadline has passed (for reminders and timeout policies)."""
        return await self.store.expired_deadlines(self.clock() if now is None else now)

    async def set_deadline(self, match_id: int, deadline: float | None) -> None:
        """Set or clear a match's turn deadline (the next move resets it; see turn_seconds).

        Takes no lock, so a subscriber may call it while the manager publishes an event.
        """
        await self.store.set_deadline(match_id, deadline)
        if (live := self._cache.get(match_id)) is not None:
            live.record = replace(live.record, deadline=deadline)

    def cached(self) -> int:
        """How many matches are in memory."""
        return len(self._cache)

    # --- the one path every move takes ---------------------------------------------------------
    async def _play(
        self, live: _Live, seat: PlayerId, user: UserId | None, key: str, expected_state_id: int | None
    ) -> SubmitResult:
        """Apply and commit one move; the caller holds the match lock."""
        match = self._require_active(live)
        if not _only_others_moved(match, seat, expected_state_id):
            self._check_fresh(match, expected_state_id)
        game = match.game
        if seat not in game.to_act(match.state):
            raise SessionError("It is not your turn.")
        try:
            action = find_action(game, match.state, seat, key)
        except IllegalAction:
            raise SessionError("That move is not possible now; here are the moves you have.") from None
        before = match.state_id
        mid = live.record.id
        try:
            events = match.apply(action)
            over = match.is_over()
            update = self._state_update(live, match, FINISHED if over else ACTIVE)
            results = self._results(live, match) if over else None
            row = LogRow(match.state_id, seat, user, key, update.now)
            await self.store.record_action(mid, row, update, before, results)
        except Conflict:
            self._forget(mid)
            raise SessionError("The game changed meanwhile; please try again.") from None
        except BaseException:
            self._forget(mid)  # memory may be ahead of the database: reload from it next time
            raise
        self._apply_update(live, update)
        info = self._info(live)
        await self._publish(
            SessionEvent("action", info, seat=seat, user=user, action_key=key, events=tuple(events))
        )
        if over:
            await self._publish(SessionEvent("finished", info))
        else:
            self._kick_ai(mid)
        return SubmitResult(match.state_id, tuple(events), info)

    # --- AI seats ----------------------------------------------------------------------------------
    def _kick_ai(self, match_id: int) -> None:
        """Start the AI loop of a match unless it runs already (call with the lock held, or at start-up)."""
        if self._closed or match_id in self._ai_tasks:
            return
        self._ai_tasks[match_id] = asyncio.get_running_loop().create_task(
            self._ai_loop(match_id), name=f"ai-{match_id}"
        )

    async def _ai_loop(self, match_id: int) -> None:
        """Move AI seats until a person (or nobody) is to act; each move goes through _play."""
        me = asyncio.current_task()
        try:
            while True:
                async with self._ai_slots:
                    async with self._lock_for(match_id):
                        live = await self._live(match_id)
                        todo = self._ai_to_act(live)
                        if todo is None:
                            self._ai_tasks.pop(match_id, None)  # under the lock: no move is missed
                            return
                        match = live.match
                        assert match is not None
                        seat, state_id = todo, match.state_id
                        level = live.record.seats[seat].ai or DEFAULT_LEVEL
                        game = match.game
                        sample = game.from_json(game.to_json(match.state))  # private copy for the thread
                        seed = _ai_seed(live.record.seed, state_id, seat)
                    if self.ai_delay:
                        await asyncio.sleep(self.ai_delay)
                    key = await asyncio.to_thread(choose_move, game, sample, seat, level, seed)
                async with self._lock_for(match_id):
                    live = await self._live(match_id)
                    with contextlib.suppress(StaleState):  # a person moved meanwhile: think again
                        await self._play(live, seat, None, key, state_id)
        except asyncio.CancelledError:
            raise
        except SessionError as e:
            log.warning("AI of match %s stopped: %s", match_id, e)
        except Exception:
            log.exception("AI of match %s failed", match_id)
        finally:
            if self._ai_tasks.get(match_id) is me:
                del self._ai_tasks[match_id]

    def _ai_to_act(self, live: _Live) -> PlayerId | None:
        if live.record.status != ACTIVE or live.match is None:
            return None
        for s in live.match.to_act():
            if live.record.seats[s].is_ai:
                return s
        return None

    # --- loading, caching, saving ---------------------------------------------------------------------
    def _lock_for(self, match_id: int) -> asyncio.Lock:
        lock = self._locks.get(match_id)
        if lock is None:
            lock = self._locks[match_id] = asyncio.Lock()
        return lock

    def _remember(self, live: _Live) -> _Live:
        mid = live.record.id
        live.record.snapshot = None  # the Match holds the state; don't keep the text twice
        self._cache[mid] = live
        self._cache.move_to_end(mid)
        if len(self._cache) > self.cache_size:
            for old in list(self._cache):
                if len(self._cache) <= self.cache_size:
                    break
                lock = self._locks.get(old)
                if old == mid or old in self._ai_tasks or (lock is not None and lock.locked()):
                    continue
                del self._cache[old]
                self._locks.pop(old, None)
        return live

    def _forget(self, match_id: int) -> None:
        self._cache.pop(match_id, None)

    async def _live(self, match_id: int) -> _Live:
        """The cached match, or load it (the caller holds its lock)."""
        live = self._cache.get(match_id)
        if live is not None:
            self._cache.move_to_end(match_id)
            return live
        rec = await self.store.get_match(match_id)
        if rec is None:
            raise SessionError(f"There is no game #{match_id}.")
        if rec.status == BROKEN:
            raise MatchBroken(rec.note or "This game's saved data is damaged; it has been stopped.")
        live = _Live(rec)
        if rec.status in (ACTIVE, FINISHED) or (rec.status == ABANDONED and rec.snapshot is not None):
            live.match = await self._load_match(rec)
        if rec.status == FINISHED and live.match is not None and not live.match.is_over():
            live.forfeit_shares = await self.store.match_shares(match_id)  # ended by a forfeit
        return self._remember(live)

    async def _load_match(self, rec: MatchRecord) -> Match:
        """The Match from its snapshot; rebuilt from the log if the snapshot is damaged."""
        rows = await self.store.load_log(rec.id)
        log_entries = [(r.seat, r.key) for r in rows]
        game = get_game(rec.game_id)
        try:
            text = rec.snapshot
            if text is None or snapshot_hash(text) != rec.snapshot_hash or len(rows) != rec.log_len:
                raise ValueError("the snapshot does not match its checksum or its log")
            state = game.from_json(json.loads(text))
            return Match(
                rec.game_id,
                len(rec.seats),
                rec.seed,
                rec.options,
                log_entries,
                state,
                rec.state_id,
                rec.undo_floor,
            )
        except Exception as damage:
            log.warning("match %s: snapshot damaged (%s); rebuilding from its log", rec.id, damage)
        try:
            match = await asyncio.to_thread(
                Match.replay, rec.game_id, len(rec.seats), rec.seed, rec.options, log_entries, rec.state_id
            )
        except Exception as e:
            note = (
                f"Game #{rec.id} could not be loaded: its saved data is damaged and replaying its "
                f"{len(rows)} moves failed ({e}). It has been stopped; please start a new game."
            )
            log.error("%s", note)
            await self.store.set_status(rec.id, BROKEN, note, self.clock())
            rec.status, rec.note = BROKEN, note
            await self._publish(SessionEvent("broken", self._info(_Live(rec))))
            raise MatchBroken(note) from None
        live = _Live(rec)
        await self.store.save_snapshot(rec.id, self._state_update(live, match, rec.status))
        log.warning("match %s: rebuilt from %d logged moves", rec.id, len(rows))
        return match

    def _state_update(self, live: _Live, match: Match, status: str) -> StateUpdate:
        game = match.game
        to_act = tuple(game.to_act(match.state)) if status == ACTIVE else ()
        seats = live.record.seats
        ai_turn = any(seats[s].is_ai for s in to_act)
        humans = any(not seats[s].is_ai for s in to_act)
        now = self.clock()
        deadline = now + self.turn_seconds if self.turn_seconds is not None and humans else None
        return StateUpdate(
            snapshot=json.dumps(game.to_json(match.state), separators=(",", ":")),
            state_id=match.state_id,
            log_len=len(match.log),
            undo_floor=match.undo_floor,
            to_act=to_act,
            ai_turn=ai_turn,
            deadline=deadline,
            status=status,
            now=now,
        )

    def _apply_update(self, live: _Live, u: StateUpdate) -> None:
        live.record = replace(
            live.record,
            status=u.status,
            state_id=u.state_id,
            log_len=u.log_len,
            undo_floor=u.undo_floor,
            to_act=u.to_act,
            ai_turn=u.ai_turn,
            deadline=u.deadline,
            updated_at=u.now,
            snapshot=None,
            snapshot_hash=None,
        )

    def _results(self, live: _Live, match: Match) -> list[ResultRow]:
        shares = match.game.returns(match.state) or [0.0] * match.num_players
        seats = live.record.seats
        return [ResultRow(i, seats[i].user_id, seats[i].ai, float(shares[i])) for i in range(len(seats))]

    async def _set_seats(self, live: _Live, seats: tuple[Seat, ...], host: UserId | None = None) -> None:
        rec = live.record
        host = rec.host_user if host is None else host
        now = self.clock()
        to_act = live.match.to_act() if live.match is not None and rec.status == ACTIVE else ()
        ai_turn = any(seats[s].is_ai for s in to_act)
        await self.store.update_seats(rec.id, seats, host, ai_turn, now)
        live.record = replace(rec, seats=seats, host_user=host, ai_turn=ai_turn, updated_at=now)

    async def _end(self, live: _Live, status: str, note: str) -> None:
        await self.store.set_status(live.record.id, status, note, self.clock())
        live.record = replace(live.record, status=status, note=note, ai_turn=False, deadline=None)
        await self._publish(SessionEvent(status, self._info(live)))

    async def _publish(self, event: SessionEvent) -> None:
        for callback in list(self._subscribers):
            try:
                result = callback(event)
                if inspect.isawaitable(result):
                    await result
            except Exception:
                log.exception("subscriber %r failed on %s", callback, event.kind)

    def _info(self, live: _Live) -> MatchInfo:
        rec, match = live.record, live.match
        to_act: tuple[PlayerId, ...] = ()
        returns = None
        title = rec.game_id
        if match is not None:
            game = match.game
            title = game.title
            if rec.status == ACTIVE:
                to_act = tuple(game.to_act(match.state))
            r = game.returns(match.state)
            returns = live.forfeit_shares if r is None else tuple(r)
        return MatchInfo(
            id=rec.id,
            game_id=rec.game_id,
            title=title,
            status=rec.status,
            channel_id=rec.channel_id,
            guild_id=rec.guild_id,
            origin=rec.origin,
            host_user=rec.host_user,
            seats=rec.seats,
            state_id=rec.state_id if match is None else match.state_id,
            to_act=to_act,
            returns=returns,
            deadline=rec.deadline,
            note=rec.note,
            created_at=rec.created_at,
            updated_at=rec.updated_at,
        )

    # --- refusals ----------------------------------------------------------------------------------
    def _require_seat(self, live: _Live, user: UserId) -> PlayerId:
        seat = _seat_of(live.record.seats, user)
        if seat is None:
            raise SessionError("You are not playing in this game; only seated players can do that.")
        return seat

    def _require_lobby(self, live: _Live) -> MatchRecord:
        if live.record.status != LOBBY:
            raise SessionError(
                "This game has already started." if live.record.status == ACTIVE else "This game is over."
            )
        return live.record

    def _require_host(self, rec: MatchRecord, user: UserId | None) -> None:
        if user is None or user != rec.host_user:
            raise SessionError("Only the host can do that.")

    def _require_room(self, rec: MatchRecord) -> None:
        game = get_game(rec.game_id)
        if len(rec.seats) >= game.max_players:
            raise SessionError(f"This game is full ({game.max_players} players).")

    def _require_started(self, live: _Live) -> Match:
        if live.match is None:
            raise SessionError(
                "The game has not started yet." if live.record.status == LOBBY else "This game never started."
            )
        return live.match

    def _require_active(self, live: _Live) -> Match:
        match = self._require_started(live)
        if live.record.status != ACTIVE:
            raise SessionError("This game is over.")
        return match

    @staticmethod
    def _check_fresh(match: Match, expected_state_id: int | None) -> None:
        if expected_state_id is not None and expected_state_id != match.state_id:
            raise StaleState(
                "The game has moved on since that menu was drawn; here is the current one.", match.state_id
            )


def _only_others_moved(match: Match, seat: PlayerId, expected_state_id: int | None) -> bool:
    """A menu drawn at expected_state_id is still good if only other seats moved since (a simultaneous
    decision such as Omphala's face-down choice): their moves cannot change what this seat chose. Any
    move of this seat since, or any undo, keeps the strict stale check (a double press applies once)."""
    if expected_state_id is None or match.state_id != len(match.log):  # an undo renumbered the log
        return False
    since = match.log[expected_state_id:] if 0 <= expected_state_id < match.state_id else None
    return bool(since) and all(p != seat for p, _ in since)


def _are(n: int) -> str:
    return "is 1" if n == 1 else f"are {n}"
