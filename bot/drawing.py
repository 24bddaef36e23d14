"""Boards and hands drawn off the event loop, in worker processes.

    drawing = Drawing()                               # AGORA_RENDER_WORKERS processes, started on first use
    png = await drawing.board(game_id, view, names)   # render.board in a worker
    png = await drawing.hand(game_id, view, names)    # render.hand in a worker
    await drawing.close()

Drawing is CPU work done largely in Python, so a drawing thread holds the GIL against the bot's buttons and
each waits for the other: measured with bench/load.py at 200 channels, six drawing threads left the event
loop 100 ms behind and a board 2.6 s (p99) after the press. Workers are processes (forkserver, render
warmed once each), so drawing runs on its own core. `workers=0` (or AGORA_RENDER_WORKERS=0) draws in threads
instead, as before; a pool whose worker died is started again, and after a second failure the drawing is
done in a thread, so a board is never lost to the pool.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import render
from bot.sessions.pool import default_workers as cores
from bot.sessions.pool import worker_context

log = logging.getLogger(__name__)

JSON = dict[str, Any]


def default_workers() -> int:
    """AGORA_RENDER_WORKERS, else one process per core beyond the one the bot runs on (at least one)."""
    value = os.environ.get("AGORA_RENDER_WORKERS", "").strip()
    if value.isdigit():
        return int(value)
    return max(1, min(4, cores() - 1))


class Drawing:
    """Draws boards and hands in `workers` processes (threads when 0); see the module doc."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = default_workers() if workers is None else max(0, workers)
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    async def board(self, game_id: str, view: JSON, names: Sequence[str] | None = None) -> bytes:
        """The public board as PNG bytes (render.board)."""
        return await self._draw(render.board, game_id, view, list(names or ()))

    async def hand(self, game_id: str, view: JSON, names: Sequence[str] | None = None) -> bytes:
        """One viewer's private image as PNG bytes (render.hand)."""
        return await self._draw(render.hand, game_id, view, list(names or ()))

    async def _draw(self, fn: Callable[..., bytes], *args: Any) -> bytes:
        if self.workers == 0:
            return await asyncio.to_thread(fn, *args)
        loop = asyncio.get_running_loop()
        for attempt in range(2):
            try:
                return await loop.run_in_executor(self._started(), fn, *args)
            except BrokenProcessPool as e:  # a worker died (killed, out of memory): start the pool again
                log.warning("a drawing worker died (%s); starting the pool again (try %d)", e, attempt + 1)
                self._drop()
        log.error("drawing workers keep dying; drawing in a thread")
        return await asyncio.to_thread(fn, *args)

    def _started(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.workers, mp_context=worker_context(), initializer=render.warm
            )
        return self._pool

    def _drop(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        """Stop the workers (drawings under way finish first)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, True, cancel_futures=True)
