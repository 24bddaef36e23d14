"""Boards and hands drawn off the event loop, in worker processes.

    drawing = Drawing()                               # AGORA_RENDER_WORKERS processes, started on first use
    png = await drawing.board(game_id, view, names, theme="light")  # render.board in a worker
    png = await drawing.hand(game_id, view, names, theme="contrast")  # render.hand in a worker
    gif = await drawing.replay(game_id, players, seed, options, log, names, limit)  # in its own process
    await drawing.close()

Drawing is CPU work done largely in Python, so a drawing thread holds the GIL against the bot's buttons and
each waits for the other: measured with bench/load.py at 200 channels, six drawing threads left the event
loop 100 ms behind and a board 2.6 s (p99) after the press. Workers are processes (forkserver, render
warmed once each), so drawing runs on its own core. `workers=0` (or AGORA_RENDER_WORKERS=0) draws in threads
instead, as before; a pool whose worker died is started again, and after a second failure the drawing is
done in a thread, so a board is never lost to the pool.

A theme is a name of render.kit.THEMES (None: dark). A worker warms the default theme's tiles at start
(render.warm: about 2 s of CPU a theme); the other themes draw theirs on first use (a game's first board in
a theme costs some tens of milliseconds more), so warming stays as cheap as with one theme. A theme render
does not draw (a name kept by a newer version) draws dark.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import os
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

import render
from bot.sessions.pool import default_workers as cores
from bot.sessions.pool import worker_context
from engine import packs
from engine.export import turn_views
from engine.match import LogEntry
from render.kit import THEMES
from render.replay import Animation, animate

log = logging.getLogger(__name__)

JSON = dict[str, Any]
T = TypeVar("T")
REPLAY_NICE = 5  # how much lower the replay worker's CPU priority is than the board workers'


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
        # Replays take seconds (bench/render.py: 2-4 s for 100 turns): one process of their own, at a lower
        # CPU priority, so that no board waits behind one (on 2 cores the board pool is a single process).
        self._replays: concurrent.futures.ProcessPoolExecutor | None = None

    async def board(
        self,
        game_id: str,
        view: JSON,
        names: Sequence[str] | None = None,
        options: JSON | None = None,
        theme: str | None = None,
    ) -> bytes:
        """The public board as PNG bytes (render.board) in `theme`; `options` are the match's, for its card
        pack."""
        args = (game_id, _pack_only(options), view, list(names or ()), drawable(theme))
        return await self._draw(_drawn, render.board, *args)

    async def hand(
        self,
        game_id: str,
        view: JSON,
        names: Sequence[str] | None = None,
        options: JSON | None = None,
        theme: str | None = None,
    ) -> bytes:
        """One viewer's private image as PNG bytes (render.hand); `options` and `theme` as for board."""
        args = (game_id, _pack_only(options), view, list(names or ()), drawable(theme))
        return await self._draw(_drawn, render.hand, *args)

    async def replay(
        self,
        game_id: str,
        players: int,
        seed: int,
        options: JSON | None,
        log: Sequence[LogEntry],
        names: Sequence[str],
        limit: int,
    ) -> Animation:
        """A match's replay, one frame a turn from the spectator's view, as a GIF of at most `limit` bytes
        (replay_image); the log is replayed in the worker too."""
        args = (game_id, players, seed, options, list(log), list(names), limit)
        return await self._draw(replay_image, *args, replays=True)

    async def _draw(self, fn: Callable[..., T], *args: Any, replays: bool = False) -> T:
        if self.workers == 0:
            return await asyncio.to_thread(fn, *args)
        loop = asyncio.get_running_loop()
        for attempt in range(2):
            try:
                return await loop.run_in_executor(self._started(replays), fn, *args)
            except BrokenProcessPool as e:  # a worker died (killed, out of memory): start the pool again
                log.warning("a drawing worker died (%s); starting the pool again (try %d)", e, attempt + 1)
                self._drop(replays)
        log.error("drawing workers keep dying; drawing in a thread")
        return await asyncio.to_thread(fn, *args)

    def _started(self, replays: bool = False) -> concurrent.futures.ProcessPoolExecutor:
        if replays:
            if self._replays is None:
                self._replays = concurrent.futures.ProcessPoolExecutor(
                    1, mp_context=worker_context(), initializer=_replay_worker
                )
            return self._replays
        if self._pool is None:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.workers, mp_context=worker_context(), initializer=render.warm
            )
        return self._pool

    def _drop(self, replays: bool = False) -> None:
        if replays:
            pool, self._replays = self._replays, None
        else:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        """Stop the workers (drawings under way finish first)."""
        pools = [p for p in (self._pool, self._replays) if p is not None]
        self._pool = self._replays = None
        for pool in pools:
            await asyncio.to_thread(pool.shutdown, True, cancel_futures=True)


def _replay_worker() -> None:
    """The replay worker: a lower CPU priority than the board workers, and warm tiles."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(REPLAY_NICE)
    render.warm()


def replay_image(
    game_id: str,
    players: int,
    seed: int,
    options: JSON | None,
    log: list[LogEntry],
    names: list[str],
    limit: int,
) -> Animation:
    """The spectator's view once a turn along the log (engine.export.turn_views), animated to fit `limit`
    (render.replay.animate); what Drawing.replay runs in a worker."""
    return animate(game_id, turn_views(game_id, players, seed, options, log), names, limit)


def drawable(theme: str | None) -> str | None:
    """The theme to draw in: `theme` if render draws it, else None (the default, dark)."""
    return theme if theme in THEMES else None


def _pack_only(options: JSON | None) -> JSON | None:
    """What a worker needs of a match's options to draw it: its card pack, if any."""
    return {"pack": options["pack"]} if options and options.get("pack") else None


def _drawn(fn: Callable[..., bytes], game_id: str, options: JSON | None, *args: Any) -> bytes:
    """fn(game_id, *args) in a worker that first learns the match's card pack: views name its cards by id."""
    packs.learn(game_id, options)
    return fn(game_id, *args)
