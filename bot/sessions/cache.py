"""The live matches in memory (a bounded LRU) and one lock per match that someone is working on.

A match's lock lives exactly as long as someone holds it or waits for it: a count of those callers goes
up before the lock is awaited and down after it is released, and the lock is dropped at zero. Dropping
it any earlier (say, when the cache evicts the match while a woken waiter has not run yet) would let a
newcomer create a second lock and get in beside that waiter. The cache never evicts a match in use.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.sessions.clock import Banks
from bot.store import LogRow, MatchRecord, StoreError
from engine.core import Action, PlayerId
from engine.match import Match


@dataclass(slots=True)
class Live:
    """A match in the cache: its row (without the snapshot text) and, once started, its Match."""

    record: MatchRecord
    match: Match | None = None
    forfeit_shares: tuple[float, ...] | None = None  # the result of a game ended by a forfeit or a ruling
    window: tuple[Any, str] | None = None  # (state_id and seats, the window they show), computed once
    # (state_id, {(seat, setting, undo): the move played for them or None}): bot.sessions.automatic, once
    automatic: tuple[int, dict[Any, Any]] | None = None
    moves: tuple[LogRow, ...] | None = None  # a bank table's live log rows (None: a per-move clock)
    banks: tuple[Any, Banks] | None = None  # (state_id and seats, the bank clocks then), computed once
    # (the Match and state_id, {seat: its legal actions}): computed once per position and seat
    legal: tuple[Match, int, dict[PlayerId, list[Action]]] | None = None
    guide: tuple[Match, int, Any] | None = None  # (the Match and state_id, a practice game's lesson.Guide)


@dataclass(slots=True)
class _MatchLock:
    """One match's lock and how many callers hold it or wait for it."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


class MatchCache:
    """Up to `size` live matches, least recently used first, and the per-match locks."""

    def __init__(self, size: int, pinned: Callable[[int], bool]) -> None:
        self.size = size
        self._pinned = pinned  # matches never to evict (their AI is moving)
        self._live: OrderedDict[int, Live] = OrderedDict()
        self._locks: dict[int, _MatchLock] = {}

    def __len__(self) -> int:
        return len(self._live)

    @contextlib.asynccontextmanager
    async def lock(self, match_id: int) -> AsyncIterator[None]:
        """Hold the match's lock for the body (one caller at a time per match). A store failure in the body
        drops the match from memory, which may be ahead of the database (a move applied but refused, or
        unanswered): it is loaded again from the store next time."""
        entry = self._locks.get(match_id)
        if entry is None:
            entry = self._locks[match_id] = _MatchLock()
        entry.users += 1
        try:
            async with entry.lock:
                try:
                    yield
                except StoreError:
                    self.forget(match_id)
                    raise
        finally:
            entry.users -= 1
            if entry.users == 0:
                del self._locks[match_id]

    def in_use(self, match_id: int) -> bool:
        """Whether someone holds or waits for the match's lock."""
        return match_id in self._locks

    def get(self, match_id: int) -> Live | None:
        """The cached match (now the most recently used), or None."""
        live = self._live.get(match_id)
        if live is not None:
            self._live.move_to_end(match_id)
        return live

    def ids(self) -> list[int]:
        """The ids of the cached matches."""
        return list(self._live)

    def peek(self, match_id: int) -> Live | None:
        """The cached match without touching its place in the order, or None."""
        return self._live.get(match_id)

    def remember(self, live: Live) -> Live:
        """Cache a match as the most recently used; evict the least recently used ones not in use."""
        mid = live.record.id
        live.record.snapshot = None  # the Match holds the state; don't keep the text twice
        self._live[mid] = live
        self._live.move_to_end(mid)
        for old in list(self._live):
            if len(self._live) <= self.size:
                break
            if old == mid or self.in_use(old) or self._pinned(old):
                continue
            del self._live[old]
        return live

    def forget(self, match_id: int) -> None:
        """Drop a match from memory (it loads from the store next time)."""
        self._live.pop(match_id, None)
