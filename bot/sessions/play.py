"""Play: submit and undo moves, and read a match (its picture, a seat's or the board's snapshot, a seat's
view and moves, listings). Every move goes through base.py's `_play`."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.sessions.base import SessionBase, only_others_since
from bot.sessions.cache import Live
from bot.sessions.types import (
    MatchInfo,
    Move,
    SeatSnapshot,
    SessionError,
    SessionEvent,
    SubmitResult,
    TableSnapshot,
    UserId,
    seat_name,
    seat_of,
)
from bot.store import ACTIVE, LogRow, MatchSummary
from engine.core import JSON, Event, PlayerId, find_action
from engine.match import Match
from engine.registry import games
from engine.table import lesson
from engine.table.events import event_owner
from engine.table.present import of as presentation_of

UNREADABLE = "(The rest of this game's log cannot be read: its saved data is damaged or from older rules.)"


def replay_events(record: Any, rows: Sequence[LogRow], viewer: PlayerId | None) -> list[tuple[PlayerId, str]]:
    """(seat it is about, event text) for every event `viewer` may read, replaying a stored log; a damaged
    or older log stops where it fails, with UNREADABLE (seat -1)."""
    game = games().get(record.game_id)
    if game is None or record.damage:
        return [(-1, UNREADABLE)]
    out: list[tuple[PlayerId, str]] = []
    try:  # stored data replayed under today's rules
        state = game.setup(len(record.seats), record.seed, record.options)
        seats = len(record.seats)
        for row in rows:  # each event credited to the seat it names (a card's owner), else the mover
            events = game.apply(state, find_action(game, state, row.seat, row.key))
            out += [(event_owner(e, seats, row.seat), e.text) for e in events if e.visible(viewer)]
    except Exception:
        out.append((-1, UNREADABLE))
    return out


def _require_undoable(live: Live, match: Match, seat: PlayerId) -> None:
    """SessionError saying why, in words, when this seat cannot take its last move back now."""
    names = [seat_name(live.record.seats, i) for i in range(len(live.record.seats))]
    if (why := match.undo_refusal(seat, names)) is not None:
        raise SessionError(f"There is nothing you can take back now: {why}.")


class Play(SessionBase):
    """Moves, undo and everything a front end reads about a match."""

    async def submit(
        self,
        match_id: int,
        user: UserId,
        action_key: str,
        expected_state_id: int | None,
        *,
        seen: bool = False,
    ) -> SubmitResult:
        """Play a move by key for the user's seat, committed before this returns; with seen, the result
        carries the user's snapshot just after it (SubmitResult.seen), read under the same lock.

        Refused (SessionError) for a stale expected_state_id (StaleState), a user without a seat, a seat
        not to act, or a move that is not legal now. expected_state_id=None skips the staleness check.
        """
        async with self._locked(match_id) as policy:
            live = await self._live(match_id)
            seat = self._require_seat(live, user)
            result = await self._play(live, seat, user, action_key, expected_state_id, policy)
            return replace(result, seen=self._seen(live, user)) if seen else result

    async def undo(self, match_id: int, user: UserId, expected_state_id: int | None = None) -> SubmitResult:
        """Take back the user's last move (own turn only, never past a draw or a reveal)."""
        async with self._locked(match_id) as policy:
            live = await self._live(match_id)
            seat = self._require_seat(live, user)
            match = self._require_active(live)
            self._check_fresh(match, expected_state_id)
            _require_undoable(live, match, seat)
            rows = await self.store.load_log(match_id)
            undone = match.undo(seat)
            moves = None if live.moves is None else live.moves[:-1]  # its time is the position's again
            update = self._state_update(live, undone, ACTIVE)
            update = self._with_deadline(live, undone, update, moves, policy)
            await self.store.record_undo(match_id, rows[-1].seq, update, match.state_id)
            live.match = undone
            self._apply_update(live, update, moves)
            info = self._info(live)
            events = (Event("undo", f"{info.seat_name(seat)} took back a move"),)
            await self._publish(SessionEvent("undo", info, seat=seat, user=user, events=events))
            self._kick_ai(match_id)
            return SubmitResult(undone.state_id, events, info)

    async def undo_preview(self, match_id: int, user: UserId) -> str:
        """What undo would take back for this user now, in the game's words ("Play Hex Bolt › Lyra Shen");
        SessionError saying why when it cannot."""
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            seat = self._require_seat(live, user)
            match = self._require_active(live)
            _require_undoable(live, match, seat)
            return " › ".join(match.undo_preview(seat))

    async def log_for(self, match_id: int, user: UserId | None) -> list[tuple[PlayerId, str]]:
        """Every event of the match this user may read (their own secrets, nobody else's), with the seat
        whose move caused it, by replaying the stored log."""
        record = await self.store.get_match(match_id)
        if record is None:
            raise SessionError(f"There is no game #{match_id}.")
        rows = await self.store.load_log(match_id)
        viewer = None if user is None else seat_of(record.seats, user)
        return await asyncio.to_thread(replay_events, record, rows, viewer)

    # --- reading ---------------------------------------------------------------------------------------
    async def get(self, match_id: int) -> MatchInfo:
        """A match by id (SessionError if there is none; MatchBroken when it is found to be broken)."""
        async with self._lock_for(match_id):
            return self._info(await self._live(match_id, broken_ok=True))

    async def peek(self, match_id: int) -> MatchInfo:
        """A match's picture without waiting for its lock when it is in memory (else as get): for what never
        changes, such as its game, server and channel; anything else may be a move behind."""
        live = self._cache.peek(match_id)
        return self._info(live) if live is not None else await self.get(match_id)

    async def match_for_channel(self, channel_id: int) -> MatchInfo | None:
        """The channel's lobby or running game, if any."""
        mid = await self.store.live_match_id(channel_id)
        return None if mid is None else await self.get(mid)

    async def view_for(self, match_id: int, user: UserId | None) -> JSON:
        """game.view for the user's seat; a spectator's view if the user has no seat."""
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            match = self._require_started(live)
            seat = None if user is None else seat_of(live.record.seats, user)
            return match.game.view(match.state, seat)

    async def moves_for(self, match_id: int, user: UserId) -> list[Move]:
        """The user's legal moves now, with menu paths, in the game's menu order ([] if not their turn)."""
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            return self._moves(live, seat_of(live.record.seats, user))

    async def snapshot(self, match_id: int, user: UserId, *, broken_ok: bool = False) -> SeatSnapshot:
        """What a person's menu, hand image and reply read, under one lock: get, moves_for, view_for and
        can_undo at once. Refused as view_for is (a broken match, one not dealt yet), unless broken_ok:
        then such a match gives its picture, with no moves and no view."""
        async with self._lock_for(match_id):
            live = await self._live(match_id, broken_ok=broken_ok)
            if not broken_ok:
                self._require_started(live)
            return self._seen(live, user)

    def fresh(self, seen: SeatSnapshot) -> bool:
        """Whether nothing about the match changed since the snapshot was read (no move, no new deadline,
        no seat taken), as far as memory knows; False when it is not in memory."""
        live = self._cache.peek(seen.info.id)
        if live is None or not isinstance(seen.stamp, tuple):
            return False
        return all(a is b for a, b in zip(seen.stamp, _stamp(live), strict=True))

    async def table_snapshot(self, match_id: int) -> TableSnapshot:
        """What a match's board shows, under one lock: its picture (a broken one's too), the spectator view,
        the people the bot waits on and whether a move is about to be played for a person (get,
        view_for(None) and SessionManager's reading of whom it waits on, at once: see TableSnapshot)."""
        async with self._locked(match_id) as policy:
            live = await self._live(match_id, broken_ok=True)
            match = live.match
            view = None if match is None else match.game.view(match.state, None)
            automating = match_id in self._ai_tasks and self._automatic(live, policy) is not None
            guide = self._guide(live, lesson.LEARNER)
            return TableSnapshot(self._info(live), view, self._waits_on(live, policy), automating, guide)

    def _seen(self, live: Live, user: UserId) -> SeatSnapshot:
        """The person's snapshot of the cached match (see snapshot); the caller holds the lock."""
        seat = seat_of(live.record.seats, user)
        match = live.match
        view = None if match is None else match.game.view(match.state, seat)
        active = match is not None and live.record.status == ACTIVE and seat is not None
        undo = active and match is not None and seat is not None and match.can_undo(seat)
        guide = self._guide(live, seat)
        moves = self._moves(live, seat)
        if guide is not None and guide.suggested is not None:
            moves = _suggested_first(moves, guide.suggested)
        return SeatSnapshot(self._info(live), moves, view, undo, _stamp(live), guide)

    def _guide(self, live: Live, seat: PlayerId | None) -> lesson.Guide | None:
        """The learner's guide in a practice game (for their seat only), computed once per position."""
        match = live.match
        game_id = lesson.practice(live.record.options)
        if match is None or game_id is None or seat != lesson.LEARNER:
            return None
        if live.guide is not None and live.guide[0] is match and live.guide[1] == match.state_id:
            return live.guide[2]
        tutorial = lesson.of(match.game)
        guide = None if tutorial is None else lesson.follow(match.game, tutorial, match.log)
        live.guide = (match, match.state_id, guide)
        return guide

    def _moves(self, live: Live, seat: PlayerId | None) -> list[Move]:
        """The seat's legal moves with menu paths, in the game's menu order ([] if none now)."""
        if live.match is None or live.record.status != ACTIVE or seat is None:
            return []
        game, state = live.match.game, live.match.state
        rank = presentation_of(game).menu_rank
        moves = [(a, Move(a.key, tuple(game.describe(state, a)))) for a in self._legal(live, seat)]
        moves.sort(key=lambda am: rank(am[0], am[1].path))  # stable: equal ranks keep the rules' order
        return [move for _, move in moves]

    async def only_others_moved(self, match_id: int, user: UserId, since: int) -> bool:
        """Whether every move since state `since` was another seat's than the user's (nothing taken back):
        a menu of theirs drawn then is still theirs to use (see base.only_others_since)."""
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            seat = seat_of(live.record.seats, user)
            return live.match is not None and seat is not None and only_others_since(live.match, seat, since)

    async def can_undo(self, match_id: int, user: UserId) -> bool:
        """Whether undo would be accepted for this user now."""
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            return self._seen(live, user).can_undo

    async def list_matches(
        self, *, origin: str | None = None, statuses: tuple[str, ...] | None = None, limit: int = 50
    ) -> list[MatchSummary]:
        """Stored matches, most recently updated first."""
        return await self.store.list_matches(origin=origin, statuses=statuses, limit=limit)

    async def overdue(self, now: float | None = None) -> list[MatchSummary]:
        """Running matches (of this process's shards) whose turn deadline has passed (for reminders and
        timeout policies)."""
        return await self.store.expired_deadlines(self.clock() if now is None else now, shards=self.shards)


def _suggested_first(moves: list[Move], key: str) -> list[Move]:
    """A learner's moves with the lesson's suggested move first and the way to it marked in every menu."""
    at = next((i for i, m in enumerate(moves) if m.key == key), None)
    if at is None:
        return moves
    paths = lesson.marked([m.path for m in moves], at)
    ordered = [Move(m.key, p) for m, p in zip(moves, paths, strict=True)]
    return [ordered[at], *ordered[:at], *ordered[at + 1 :]]


def _stamp(live: Live) -> tuple[object, ...]:
    """What a snapshot remembers of the match it read, compared by identity: its row (replaced by every
    change: a move, an undo, a deadline, a seat) and its Match."""
    return (live.record, live.match)
