"""What every part of the session manager shares: the store, the cache, subscribers, the front end's policy
(gathered before a match's lock), the picture of a match, `_play` (the one path every move takes, a
person's, an AI's or one played for a person), the rows written after a change, and the refusals."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import replace

from bot.sessions.automatic import played_for_them, position_seed
from bot.sessions.cache import Live, MatchCache
from bot.sessions.clock import Banks, banks_now, people_waited
from bot.sessions.hooks import CLAIM_LEASE, NO_HOOKS, PLAIN, Hooks, Policy, plain
from bot.sessions.pool import AiPool
from bot.sessions.types import (
    BY_SETTING,
    MatchInfo,
    SessionError,
    SessionEvent,
    StaleState,
    SubmitResult,
    Subscriber,
    UserId,
    own_seat,
    seat_name,
)
from bot.store import (
    ACTIVE,
    FINISHED,
    LOBBY,
    Conflict,
    LogRow,
    MatchRecord,
    ResultRow,
    Seat,
    StateUpdate,
    Store,
)
from engine.core import Action, Event, PlayerId
from engine.match import Match
from engine.registry import games
from engine.registry import get as get_game
from engine.table import lesson
from engine.table.present import of as presentation_of

log = logging.getLogger(__name__)

__all__ = ["CLAIM_LEASE", "SessionBase", "result_row", "result_rows"]


def result_row(seat: int, who: Seat, share: float) -> ResultRow:
    """A seat's result; a seat an AI took over from someone counts as a game lost for that person."""
    if who.stands_for is not None:
        return ResultRow(seat, who.stands_for, who.ai, 0.0)
    return ResultRow(seat, who.user_id, who.ai, share)


def result_rows(record: MatchRecord, shares: Sequence[float]) -> list[ResultRow]:
    """Each seat's result of a match that ended with these shares of the win; none for a practice game
    (engine/table/lesson.py: never rated nor counted in stats)."""
    if lesson.practice(record.options):
        return []
    return [result_row(i, who, float(shares[i])) for i, who in enumerate(record.seats)]


class SessionBase:
    """The state and helpers the lobby, play, AI and repair parts build on (see manager.py)."""

    def __init__(
        self,
        store: Store,
        *,
        cache_size: int = 1000,
        ai_delay: float = 0.0,
        ai_concurrency: int = 4,
        turn_seconds: float | None = None,
        clock: Callable[[], float] = time.time,
        ai_pool: AiPool | None = None,
        hooks: Hooks = NO_HOOKS,
    ) -> None:
        self.store = store
        self.hooks = hooks  # the front end's policy and processes (bot/sessions/hooks.py)
        # AI decisions and hints think in these worker processes; a pool made here is closed with us.
        self._own_pool = ai_pool is None
        self.ai_pool = AiPool() if ai_pool is None else ai_pool
        self.ai_delay = ai_delay  # seconds an AI "thinks" before moving (for people watching)
        self.turn_seconds = turn_seconds  # deadline for a human turn, if any
        self.clock = clock
        self._ai_tasks: dict[int, asyncio.Task[None]] = {}
        self._ai_slots = asyncio.Semaphore(ai_concurrency)
        self._cache = MatchCache(cache_size, pinned=self._ai_tasks.__contains__)
        self._subscribers: list[Subscriber] = []
        self._closed = False
        # Several bot processes on one database: the shards whose guilds' AI turns this process resumes
        # (None: all), and its name in the store's claims (None: the only process, so no claims are taken).
        self.shards = hooks.shards
        self.owner = hooks.owner
        self.claim_lease = hooks.claim_lease

    @property
    def cache_size(self) -> int:
        """How many matches the cache keeps (more while they are in use)."""
        return self._cache.size

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Call callback (sync or async) with every SessionEvent; returns an unsubscribe function.

        Callbacks run in order while the match is locked, so they see events in order; keep them short
        and start a task for slow work (rendering, network).
        """
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback)

    def cached(self) -> int:
        """How many matches are in memory."""
        return len(self._cache)

    async def claim(self, key: str) -> bool:
        """Take the store's claim `key` ("ai:<match>:<state_id>", ...) for this process before work that must
        happen once across processes; whether it is ours (it is until its lease ends; never given back).
        Always ours when no owner is set."""
        if self.owner is None:
            return True
        return await self.store.claim(key, self.owner, self.clock(), self.claim_lease)

    # --- provided by the other parts -----------------------------------------------------------------
    async def _live(self, match_id: int, *, broken_ok: bool = False) -> Live:
        """The cached match, or load it (repair.py)."""
        raise NotImplementedError

    async def _live_in_channel(self, channel_id: int) -> int | None:
        """The channel's lobby or running game, unless it turns out broken (repair.py)."""
        raise NotImplementedError

    def _kick_ai(self, match_id: int) -> None:
        """Start the AI loop of a match unless it runs already (ai.py)."""
        raise NotImplementedError

    # --- locking, publishing ---------------------------------------------------------------------------
    def _lock_for(self, match_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        """The match's lock, for `async with` (held while anything reads or changes the match)."""
        return self._cache.lock(match_id)

    async def _publish(self, event: SessionEvent) -> None:
        """Hand the event to every subscriber in turn; a failing subscriber is logged and skipped."""
        for callback in list(self._subscribers):
            try:
                result = callback(event)
                if inspect.isawaitable(result):
                    await result
            except Exception:
                log.exception("subscriber %r failed on %s", callback, event.kind)

    def _info(self, live: Live) -> MatchInfo:
        """The read-only picture of a cached match."""
        rec, match = live.record, live.match
        to_act: tuple[PlayerId, ...] = ()
        returns = None
        title = known.title if (known := games().get(rec.game_id)) is not None else rec.game_id
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
            options=rec.options,
            window=self._window(live, to_act),
            banks=self._banks(live, to_act),
        )

    @staticmethod
    def _banks(live: Live, to_act: tuple[PlayerId, ...]) -> Banks | None:
        """A running bank table's clocks (bot/sessions/clock.py), counted from its log once per position."""
        rec, match = live.record, live.match
        if live.moves is None or match is None or rec.status != ACTIVE:
            return None
        key = (match.state_id, rec.seats)
        if live.banks is None or live.banks[0] != key:
            started = rec.started_at if rec.started_at is not None else rec.created_at
            live.banks = (key, banks_now(started, live.moves, rec.seats, to_act))
        return live.banks[1]

    def _window(self, live: Live, to_act: tuple[PlayerId, ...]) -> str:
        """The response window a person is to answer (the game's Status.window of the spectator view), or
        ""; computed once per position."""
        rec, match = live.record, live.match
        if match is None or rec.status != ACTIVE or all(rec.seats[s].is_ai for s in to_act):
            return ""
        key = (match.state_id, rec.seats)
        if live.window is None or live.window[0] != key:
            names = [seat_name(rec.seats, i) for i in range(len(rec.seats))]
            try:
                window = presentation_of(match.game).status(match.game.view(match.state, None), names).window
            except Exception:
                log.exception("match %s: the game's status failed; no response window assumed", rec.id)
                window = ""
            live.window = (key, window)
        return live.window[1]

    @staticmethod
    def _legal(live: Live, seat: PlayerId) -> list[Action]:
        """The seat's legal actions in the cached match's position ([] if it is not to act), computed once
        per position (an undo makes a new Match, so a state_id seen before is not taken for the same one)."""
        match = live.match
        assert match is not None
        if live.legal is None or live.legal[0] is not match or live.legal[1] != match.state_id:
            live.legal = (match, match.state_id, {})
        known = live.legal[2]
        if seat not in known:
            to_act = seat in match.game.to_act(match.state)
            known[seat] = match.game.legal_actions(match.state, seat) if to_act else []
        return known[seat]

    def _automatic(self, live: Live, policy: Policy) -> tuple[PlayerId, str, str] | None:
        """The first person to act whose move is played for them, as (seat, action key, why), or None (the
        rule, and why it tells nobody anything: bot/sessions/automatic.py)."""
        rec, match = live.record, live.match
        if match is None or rec.status != ACTIVE:
            return None
        for seat in match.to_act():
            if not rec.seats[seat].is_ai and (todo := self._automatic_for(live, seat, policy)) is not None:
                return seat, *todo
        return None

    def _automatic_for(self, live: Live, seat: PlayerId, policy: Policy) -> tuple[str, str] | None:
        """The move played for the person in this seat now, as (action key, why), or None: the bot waits for
        them. Decided once per position, setting and undo."""
        rec, match = live.record, live.match
        assert match is not None
        setting = policy.window_setting(rec.seats[seat].user_id)
        can_undo = match.can_undo(seat)
        if live.automatic is None or live.automatic[0] != match.state_id:
            live.automatic = (match.state_id, {})
        known = live.automatic[1]
        if (seat, setting, can_undo) not in known:
            known[(seat, setting, can_undo)] = played_for_them(
                match.game,
                match.state,
                seat,
                players=match.num_players,
                seed=position_seed(rec.seed, match.state_id, seat),
                window=bool(self._window(live, tuple(match.to_act()))),
                setting=setting,
                can_undo=can_undo,
                actions=self._legal(live, seat),
            )
        return known[(seat, setting, can_undo)]

    def _waits_on(self, live: Live, policy: Policy) -> frozenset[UserId]:
        """The people the bot waits on now (to act, and no move is played for them): the ones to ping."""
        rec, match = live.record, live.match
        if match is None or rec.status != ACTIVE:
            return frozenset()
        waits = set()
        for s in match.to_act():
            user = rec.seats[s].user_id
            if user is not None and not rec.seats[s].is_ai and self._automatic_for(live, s, policy) is None:
                waits.add(user)
        return frozenset(waits)

    async def _policy(self, match_id: int) -> Policy:
        """The front end's policy for the match (Hooks.policy), gathered before its lock is taken: never
        await it while holding the lock. A failing hook is logged, and the defaults apply."""
        if self.hooks.policy is plain:
            return PLAIN
        live = self._cache.peek(match_id)
        if live is None:  # not in memory: load it (the only lock taken here)
            async with self._lock_for(match_id):
                info = self._info(await self._live(match_id, broken_ok=True))
        else:
            info = self._info(live)
        try:
            return await self.hooks.policy(info)
        except Exception:
            log.exception("match %s: the front end's policy failed; the defaults apply", match_id)
            return PLAIN

    @contextlib.asynccontextmanager
    async def _locked(self, match_id: int) -> AsyncIterator[Policy]:
        """The match's policy (gathered first, see _policy), then its lock for the body."""
        policy = await self._policy(match_id)
        async with self._lock_for(match_id):
            yield policy

    # --- what a change writes ------------------------------------------------------------------------
    def _state_update(self, live: Live, match: Match, status: str) -> StateUpdate:
        """The snapshot, counters, turn and deadline to store for this match in this status."""
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

    def _with_deadline(
        self, live: Live, match: Match, u: StateUpdate, moves: tuple[LogRow, ...] | None, policy: Policy
    ) -> StateUpdate:
        """The update with the front end's deadline for the position it stores (Policy.deadline_for), and
        marked as waiting on the bot (ai_turn) when a move will be played for a person (see _automatic), so
        that a restart plays it. moves: a bank table's live log rows once the update is stored (None: a
        per-move clock); they are the cached match's from then on (see _apply_update)."""
        rec = replace(live.record, status=u.status, state_id=u.state_id, to_act=u.to_act, updated_at=u.now)
        after = Live(rec, match, window=live.window, moves=moves, automatic=live.automatic, legal=live.legal)
        if not u.ai_turn and self._automatic(after, policy) is not None:
            u = replace(u, ai_turn=True)
        live.window = after.window  # keyed by state_id and seats: _info reuses it for the new position
        live.automatic = after.automatic  # likewise, keyed by state_id
        live.legal = after.legal  # likewise, keyed by the Match and its state_id
        if policy.deadline_for is None or lesson.practice(rec.options):  # a practice game has no clock
            return u
        try:
            deadline = policy.deadline_for(self._info(after))
        except Exception:
            log.exception("match %s: no deadline (the front end's deadline_for failed)", rec.id)
            return u
        return replace(u, deadline=deadline)

    async def set_deadline(self, match_id: int, deadline: float | None) -> None:
        """Set or clear a match's turn deadline (the next move resets it; see turn_seconds).

        Takes no lock, so a subscriber may call it while the manager publishes an event.
        """
        await self.store.set_deadline(match_id, deadline)
        if (live := self._cache.peek(match_id)) is not None:
            live.record = replace(live.record, deadline=deadline)

    def _apply_update(self, live: Live, u: StateUpdate, moves: tuple[LogRow, ...] | None) -> None:
        """Bring the cached row (and a bank table's log rows) in line with a stored update."""
        live.moves = moves
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

    def _results(self, live: Live, match: Match) -> list[ResultRow]:
        """Each seat's share of the win of a finished match (result_rows)."""
        return result_rows(live.record, match.game.returns(match.state) or [0.0] * match.num_players)

    async def _set_seats(self, live: Live, seats: tuple[Seat, ...], host: UserId | None = None) -> None:
        """Store and cache new seats (and host)."""
        rec = live.record
        host = rec.host_user if host is None else host
        now = self.clock()
        to_act = live.match.to_act() if live.match is not None and rec.status == ACTIVE else ()
        ai_turn = any(seats[s].is_ai for s in to_act)
        await self.store.update_seats(rec.id, seats, host, ai_turn, now)
        live.record = replace(rec, seats=seats, host_user=host, ai_turn=ai_turn, updated_at=now)

    async def _end(self, live: Live, status: str, note: str) -> None:
        """Stop a match for good in this status (abandoned) and say so."""
        await self.store.set_status(live.record.id, status, note, self.clock())
        live.record = replace(live.record, status=status, note=note, ai_turn=False, deadline=None)
        await self._publish(SessionEvent(status, self._info(live)))

    # --- the one path every move takes -----------------------------------------------------------------
    async def _play(
        self,
        live: Live,
        seat: PlayerId,
        user: UserId | None,
        key: str,
        expected_state_id: int | None,
        policy: Policy,
        auto: str = "",
    ) -> SubmitResult:
        """Apply and commit one move (auto: why it was played for a person, see SessionEvent); the caller
        holds the match lock, and gathered the policy before taking it."""
        match = self._require_active(live)
        if not only_others_since(match, seat, expected_state_id):
            self._check_fresh(match, expected_state_id)
        game = match.game
        if seat not in game.to_act(match.state):
            raise SessionError("It is not your turn.")
        action = next((a for a in self._legal(live, seat) if a.key == key), None)
        if action is None:
            raise SessionError("That move is not possible now; here are the moves you have.")
        before = match.state_id
        mid = live.record.id
        in_window = bool(auto) and bool(self._window(live, tuple(game.to_act(match.state))))
        waited = people_waited(live.record.seats, game.to_act(match.state))  # the bank clock's span
        try:
            events = match.apply(action)
            over = match.is_over()
            update = self._state_update(live, match, FINISHED if over else ACTIVE)
            row = LogRow(match.state_id, seat, user, key, update.now, waited=waited)
            moves = None if live.moves is None else (*live.moves, row)
            update = self._with_deadline(live, match, update, moves, policy)
            results = self._results(live, match) if over else None
            await self.store.record_action(mid, row, update, before, results)
        except Conflict:  # another process (or a double delivery) moved first: show the game as it is now
            self._cache.forget(mid)
            fresh = await self._live(mid)
            current = fresh.match.state_id if fresh.match is not None else before
            raise StaleState("Another move was made first; here is the game as it is now.", current) from None
        except BaseException:
            self._cache.forget(mid)  # memory may be ahead of the database: reload from it next time
            raise
        self._apply_update(live, update, moves)
        info = self._info(live)
        if auto:
            events = [played_for(info.seat_name(seat), auto, seat, in_window), *events]
        await self._publish(
            SessionEvent(
                "action", info, seat=seat, user=user, action_key=key, events=tuple(events), auto=auto
            )
        )
        if over:
            await self._publish(SessionEvent("finished", info))
        elif update.ai_turn:  # an AI seat, or a move played for a person, is next (see _with_deadline)
            self._kick_ai(mid)
        return SubmitResult(match.state_id, tuple(events), info)

    # --- refusals --------------------------------------------------------------------------------------
    def _require_seat(self, live: Live, user: UserId) -> PlayerId:
        """The user's seat; refused if they have none (or an AI plays it for them)."""
        refusal = "You are not playing in this game; only seated players can do that."
        return own_seat(live.record, user, refusal)

    def _require_lobby(self, live: Live) -> MatchRecord:
        """The row of a match still in its lobby; refused once it started or ended."""
        if live.record.status != LOBBY:
            raise SessionError(
                "This game has already started." if live.record.status == ACTIVE else "This game is over."
            )
        return live.record

    def _require_host(self, rec: MatchRecord, user: UserId | None) -> None:
        """Refused unless the user is the host."""
        if user is None or user != rec.host_user:
            raise SessionError("Only the host can do that.")

    def _require_room(self, rec: MatchRecord) -> None:
        """Refused if every seat of the game is taken."""
        game = get_game(rec.game_id)
        if len(rec.seats) >= game.max_players:
            raise SessionError(f"This game is full ({game.max_players} players).")

    def _require_started(self, live: Live) -> Match:
        """The Match of a started game; refused before the deal."""
        if live.match is None:
            raise SessionError(
                "The game has not started yet." if live.record.status == LOBBY else "This game never started."
            )
        return live.match

    def _require_active(self, live: Live) -> Match:
        """The Match of a running game; refused before the deal and once it is over."""
        match = self._require_started(live)
        if live.record.status != ACTIVE:
            raise SessionError("This game is over.")
        return match

    @staticmethod
    def _check_fresh(match: Match, expected_state_id: int | None) -> None:
        """Refused (StaleState) if the match moved on since expected_state_id."""
        if expected_state_id is not None and expected_state_id != match.state_id:
            raise StaleState(
                "The game has moved on since that menu was drawn; here is the current one.", match.state_id
            )


def played_for(name: str, why: str, seat: PlayerId, window: bool = True) -> Event:
    """The public line that says a move was played for a person, and why: their own setting (stated as
    their choice), or a move everyone could see was their only one."""
    if why == BY_SETTING and window:
        text = f"{name}'s window setting let the window pass."
    elif why == BY_SETTING:
        text = f"{name} could only pass; their setting (pass for me when I can't respond) passed for them."
    else:
        text = f"{name} had one possible move, as everyone could see; it was played for them."
    return Event("played_for", text, args=(("seat", seat),))


def only_others_since(match: Match, seat: PlayerId, expected_state_id: int | None) -> bool:
    """A menu drawn at expected_state_id is still good if only other seats moved since (a simultaneous
    decision, such as every seat choosing a card face down): their moves cannot change what this seat
    chose. Any move of this seat since, or any undo, keeps the strict stale check (a double press applies
    once)."""
    if expected_state_id is None or match.state_id != len(match.log):  # an undo renumbered the log
        return False
    if not 0 <= expected_state_id < match.state_id:  # nothing since, or a state never drawn
        return False
    return all(p != seat for p, _ in match.log[expected_state_id:])
