"""Loading a match from the store: from its snapshot, rebuilt from its log if the snapshot is damaged,
or marked broken (and refused from then on) if even that fails, or if its row cannot be played at all (a
game this Agora does not have, unreadable seats, a game saved under other rules). A broken match frees its
channel."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from bot.sessions.base import SessionBase
from bot.sessions.cache import Live
from bot.sessions.clock import is_bank
from bot.sessions.lobby import _rules_version
from bot.sessions.types import MatchBroken, MatchInfo, SessionError, SessionEvent
from bot.store import ABANDONED, ACTIVE, BROKEN, FINISHED, LOBBY, LogRow, MatchRecord
from bot.store.base import snapshot_hash
from engine.core import Game
from engine.match import LogEntry, Match
from engine.registry import games
from engine.registry import get as get_game

log = logging.getLogger(__name__)

MAX_ID = 2**63 - 1  # SQLite's largest integer: a larger "match id" names no match


class Repair(SessionBase):
    """Load on demand, check the snapshot, rebuild or stop a damaged match."""

    async def _live(self, match_id: int, *, broken_ok: bool = False) -> Live:
        """The cached match, or load it (the caller holds its lock).

        MatchBroken if it is broken, or found to be now; broken_ok: a broken match's row instead (to show
        it; never cached, so nothing can act on it)."""
        live = self._cache.get(match_id)
        if live is not None:
            return live
        if not 0 < match_id <= MAX_ID:
            raise SessionError("There is no such game.")
        rec = await self.store.get_match(match_id)
        if rec is None:
            raise SessionError(f"There is no game #{match_id}.")
        if rec.status == BROKEN:
            if broken_ok:
                return Live(rec)
            raise MatchBroken(rec.note or "This game's saved data is damaged; it has been stopped.")
        problem = self._unplayable(rec)
        if problem is not None:
            if rec.status in (LOBBY, ACTIVE):
                await self._mark_broken(rec, problem)
            raise MatchBroken(problem)
        live = Live(rec)
        if rec.status in (ACTIVE, FINISHED) or (rec.status == ABANDONED and rec.snapshot is not None):
            live.match, rows = await self._load_match(rec)
            live.moves = tuple(rows) if is_bank(rec.options) else None  # a bank table's clocks count them
        if rec.status == FINISHED and live.match is not None and not live.match.is_over():
            live.forfeit_shares = await self.store.match_shares(match_id)  # ended by a forfeit or a ruling
        return self._cache.remember(live)

    async def _live_in_channel(self, channel_id: int) -> int | None:
        """The id of the channel's lobby or running game; None if it has none, or if the one it had turns
        out to be broken (it is marked so, and the channel is free)."""
        mid = await self.store.live_match_id(channel_id)
        if mid is None:
            return None
        async with self._lock_for(mid):
            try:
                await self._live(mid)
            except MatchBroken:
                return None
        return mid

    async def stored_info(self, match_id: int) -> MatchInfo:
        """The picture of a match, a broken one too (then from its stored row); SessionError if none."""
        async with self._lock_for(match_id):
            return self._info(await self._live(match_id, broken_ok=True))

    @staticmethod
    def _unplayable(rec: MatchRecord) -> str | None:
        """Why a stored match cannot be loaded at all (a note for its players), or None."""
        again = "start a new one with /play" if rec.origin == "discord" else "start a new one"
        game = games().get(rec.game_id)
        if rec.damage or game is None:
            what = f"its {rec.damage}" if rec.damage else f"its game ({rec.game_id[:40]!r}) is unknown here"
            return f"Game #{rec.id} cannot continue: {what}. It has been stopped; {again}."
        if rec.status == ACTIVE and rec.rules_version != _rules_version(game):
            older = _older(rec.rules_version, _rules_version(game))
            return (
                f"This game was saved by {'an older' if older else 'another'} version of its rules and "
                f"cannot continue; {again}."
            )
        return None

    async def _load_match(self, rec: MatchRecord) -> tuple[Match, list[LogRow]]:
        """The Match from its snapshot (rebuilt from the log if the snapshot is damaged), and its live log
        rows."""
        rows = await self.store.load_log(rec.id)
        log_entries = [(r.seat, r.key) for r in rows]
        game = get_game(rec.game_id)
        try:
            return self._from_snapshot(rec, game, len(rows), log_entries), rows
        except Exception as damage:
            log.warning("match %s: snapshot damaged (%s); rebuilding from its log", rec.id, damage)
        return await self._rebuild(rec, log_entries), rows

    @staticmethod
    def _from_snapshot(rec: MatchRecord, game: Game[Any], log_len: int, log_entries: list[LogEntry]) -> Match:
        """The Match from the stored snapshot; raises if it fails its checksum or disagrees with the log."""
        text = rec.snapshot
        if text is None or snapshot_hash(text) != rec.snapshot_hash or log_len != rec.log_len:
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

    async def _rebuild(self, rec: MatchRecord, log_entries: list[LogEntry]) -> Match:
        """Replay the log (in a worker thread) and store a sound snapshot; mark the match broken if the
        replay fails."""
        try:
            match = await asyncio.to_thread(
                Match.replay, rec.game_id, len(rec.seats), rec.seed, rec.options, log_entries, rec.state_id
            )
        except Exception as e:
            note = (
                f"Game #{rec.id} could not be loaded: its saved data is damaged and replaying its "
                f"{len(log_entries)} moves failed ({e}). It has been stopped; please start a new game."
            )
            await self._mark_broken(rec, note)
            raise MatchBroken(note) from None
        await self.store.save_snapshot(rec.id, self._state_update(Live(rec), match, rec.status))
        log.warning("match %s: rebuilt from %d logged moves", rec.id, len(log_entries))
        return match

    async def _mark_broken(self, rec: MatchRecord, note: str) -> None:
        """Store the match as broken with this note, and say so."""
        log.warning("match %s stopped: %s", rec.id, note)
        await self.store.set_status(rec.id, BROKEN, note, self.clock())
        rec.status, rec.note = BROKEN, note
        await self._publish(SessionEvent("broken", self._info(Live(rec))))


def _older(saved: str, current: str) -> bool:
    """Whether a saved rules version is older than the current one (both numbers); False if unknown."""
    return saved.isdigit() and current.isdigit() and int(saved) < int(current)
