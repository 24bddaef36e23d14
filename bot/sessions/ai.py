"""AI seats: each match whose turn is an AI's has one task that moves its AI seats, thinking in a
worker thread and playing through the same path as a person; resumed after a restart."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.ai import DEFAULT_LEVEL, choose_move
from bot.sessions.base import SessionBase
from bot.sessions.cache import Live
from bot.sessions.types import SessionError, StaleState
from bot.store import ACTIVE
from engine.core import PlayerId

log = logging.getLogger(__name__)


class AiSeats(SessionBase):
    """Start, run, resume and stop the AI task of each match."""

    async def recover(self) -> int:
        """Resume every unfinished game that waits on an AI move; the number of games resumed.

        Games waiting on people need nothing: they load on demand when someone acts.
        """
        ids = await self.store.matches_awaiting_ai()
        for mid in ids:
            self._kick_ai(mid)
        return len(ids)

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

    async def close(self) -> None:
        """Stop AI tasks (everything already applied is committed)."""
        self._closed = True
        tasks = list(self._ai_tasks.values())
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await t

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
                        seed = ai_seed(live.record.seed, state_id, seat)
                    if self.ai_delay:
                        await asyncio.sleep(self.ai_delay)
                    key = await asyncio.to_thread(choose_move, game, sample, seat, level, seed)
                async with self._lock_for(match_id):
                    live = await self._live(match_id)
                    if not live.record.seats[seat].is_ai:  # its person took the seat back meanwhile
                        continue
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

    @staticmethod
    def _ai_to_act(live: Live) -> PlayerId | None:
        """The first AI seat to act in a running match, or None."""
        if live.record.status != ACTIVE or live.match is None:
            return None
        for s in live.match.to_act():
            if live.record.seats[s].is_ai:
                return s
        return None


def ai_seed(seed: int, state_id: int, seat: int) -> int:
    """A reproducible seed for one AI decision (the same move is recomputed after a crash)."""
    return (seed * 1_000_003 + state_id * 7919 + seat) & ((1 << 63) - 1)
