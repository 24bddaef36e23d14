"""A bounded pool of worker processes for AI decisions and hints: thinking never holds up the event loop.

    pool = AiPool()                                    # workers <= cores, started on first use
    key = await pool.choose(game_id, state_json, seat, level, seed)
    hints = await pool.hint(game_id, state_json, seat, seed, top=3)   # [(key, win estimate)]
    await pool.close()

A search is CPU-bound, so a thread would still hold the GIL against the bot's buttons: each decision runs in
a process of its own (started by forkserver, with the engine preloaded, so a new worker costs milliseconds).
Workers run at a lower priority (nice) than the bot, so a person's button wins the CPU from any number of AI
games thinking at once; jobs wait for a free worker, never more than `workers` think at a time.

The state goes in as JSON and the action key comes out: a worker never touches a live match, so the move
itself still goes through the session manager's one path with its state_id check (nothing applied twice).
Each job has a time budget: a worker that dies (killed, crashed) or overruns its budget (hung) is killed and
replaced, and the job is tried again (a decision is seeded, so the retry chooses the same move); after
`retries` failed tries the job fails with `PoolError`. `workers=0` runs jobs in threads of this process
instead (for a platform without fork or a test that wants to patch the AI).

As with any multiprocessing program, a script that starts the bot must guard its entry point with
`if __name__ == "__main__":` (workers import the main module; `python -m bot` and `agora` do).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import os
import signal
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

log = logging.getLogger(__name__)

DEFAULT_BUDGET = 20.0  # seconds one job may take on a worker before it counts as hung
DEFAULT_RETRIES = 2  # further tries after a worker died or hung
WORKER_NICE = 10  # how much lower the workers' CPU priority is than the bot's
PRELOAD = ["bot.sessions.pool", "bot.ai", "engine.registry"]  # imported once by the forkserver


class PoolError(RuntimeError):
    """A job failed on every try (its workers kept dying or hanging), or the pool is closed."""


class WorkerLost(Exception):
    """The worker running a job died or overran the budget (the pool replaces it)."""


# --- the jobs (module-level, so a worker finds them by name) -----------------------------------------------
def _load(game_id: str, state_json: str | dict[str, Any]) -> tuple[Any, Any]:
    """The game and a state of it from its JSON (text, or already parsed)."""
    from engine.registry import load

    game = load(game_id)  # an id, or "module:Class" for a game registered at run time
    data = json.loads(state_json) if isinstance(state_json, str) else state_json
    return game, game.from_json(data)


def decide(game_id: str, state_json: str | dict[str, Any], seat: int, level: str, seed: int) -> str:
    """The key of the move an AI of this level makes in this position (runs in a worker)."""
    from bot.ai import choose_move

    game, state = _load(game_id, state_json)
    return choose_move(game, state, seat, level, seed)


def advise(
    game_id: str, state_json: str | dict[str, Any], seat: int, seed: int, top: int
) -> list[tuple[str, float]]:
    """The strongest AI's best moves for the seat with its win estimates, searched from the seat's own
    determinized view (bot.ai.hint)."""
    import bot.ai

    game, state = _load(game_id, state_json)
    return [(str(k), float(p)) for k, p in bot.ai.hint(game, state, seat, seed, top=top)]


def judge(game_id: str, state_json: str | dict[str, Any]) -> list[float]:
    """Every seat's share of the win in this position by the game's evaluation, the one the hard AI's search
    judges positions by (engine/ai/evaluation.py; runs in a worker)."""
    from engine.ai.evaluation import values

    game, state = _load(game_id, state_json)
    return [float(v) for v in values(game, state)]


def _serve(conn: Connection, nice: int) -> None:
    """A worker: run (function, args) jobs from the pipe until it closes; answer ("ok", value) or
    ("error", text)."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(nice)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in a terminal is the bot's to handle
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        fn, args = job
        try:
            answer: tuple[str, Any] = ("ok", fn(*args))
        except Exception as e:  # the caller decides; the worker stays usable
            answer = ("error", f"{type(e).__name__}: {e}")
        try:
            conn.send(answer)
        except (OSError, ValueError):
            return


class _Worker:
    """One worker process and the parent's end of its pipe."""

    def __init__(self, ctx: Any, nice: int) -> None:
        parent, child = ctx.Pipe(duplex=True)
        self.conn: Connection = parent
        self.process = ctx.Process(target=_serve, args=(child, nice), name="agora-ai", daemon=True)
        self.process.start()
        child.close()

    @property
    def pid(self) -> int | None:
        return self.process.pid

    async def call(self, fn: Callable[..., Any], args: tuple[Any, ...], budget: float) -> tuple[str, Any]:
        """Run one job; WorkerLost if the worker dies or overruns the budget (the caller replaces it)."""
        loop = asyncio.get_running_loop()
        try:
            self.conn.send((fn, args))
        except (OSError, ValueError) as e:
            raise WorkerLost(f"could not hand the job to worker {self.pid}: {e}") from None
        ready: asyncio.Future[None] = loop.create_future()
        fd = self.conn.fileno()

        def readable() -> None:
            if not ready.done():
                ready.set_result(None)

        loop.add_reader(fd, readable)
        try:
            await asyncio.wait_for(ready, budget)
        except TimeoutError:
            raise WorkerLost(f"worker {self.pid} overran its {budget:g} s budget") from None
        finally:
            loop.remove_reader(fd)
        try:
            return self.conn.recv()
        except (EOFError, OSError) as e:
            raise WorkerLost(f"worker {self.pid} died ({type(e).__name__})") from None

    def kill(self) -> None:
        """Stop the process at once (it may be hung) and close the pipe."""
        with contextlib.suppress(Exception):
            self.process.kill()
            self.process.join(1.0)  # a killed process is gone in a moment: reap it
        with contextlib.suppress(Exception):
            self.conn.close()

    def stop(self, timeout: float) -> None:
        """Ask the worker to finish, then make sure it is gone (blocking: run in a thread)."""
        with contextlib.suppress(Exception):
            self.conn.send(None)
        self.process.join(timeout)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(1.0)
        with contextlib.suppress(Exception):
            self.conn.close()
        with contextlib.suppress(Exception):
            self.process.close()


def worker_context() -> Any:
    """forkserver where there is one (Linux, macOS): workers fork from a small, warm server; else spawn."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        with contextlib.suppress(Exception):
            ctx.set_forkserver_preload(PRELOAD)
        return ctx
    return multiprocessing.get_context("spawn")


def default_workers() -> int:
    """As many workers as this process may use cores (at least one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


class AiPool:
    """At most `workers` processes thinking at once; jobs wait for a free one (see the module doc)."""

    def __init__(
        self,
        workers: int | None = None,
        *,
        budget: float = DEFAULT_BUDGET,
        retries: int = DEFAULT_RETRIES,
        nice: int = WORKER_NICE,
    ) -> None:
        cores = default_workers()
        self.size = cores if workers is None else max(0, min(workers, cores))
        self.budget = budget
        self.retries = retries
        self.nice = nice
        self.replaced = 0  # workers that died or hung and were replaced (for logs, tests and benchmarks)
        self._ctx: Any = None
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self._slots: asyncio.Semaphore | None = None
        self._closed = False

    @property
    def in_process(self) -> bool:
        """Whether jobs run in threads of this process (workers=0)."""
        return self.size == 0

    def pids(self) -> list[int]:
        """The worker processes alive now (busy ones first)."""
        return [p for w in (*self._busy, *self._idle) if (p := w.pid) is not None and w.process.is_alive()]

    async def choose(
        self, game_id: str, state_json: str | dict[str, Any], seat: int, level: str, seed: int
    ) -> str:
        """The move (its key) an AI of this level makes for the seat."""
        return str(await self.run(decide, game_id, state_json, seat, level, seed))

    async def hint(
        self, game_id: str, state_json: str | dict[str, Any], seat: int, seed: int, top: int = 3
    ) -> list[tuple[str, float]]:
        """The best `top` moves for the seat, each with its estimated chance of winning."""
        return [(str(k), float(p)) for k, p in await self.run(advise, game_id, state_json, seat, seed, top)]

    async def run(self, fn: Callable[..., Any], *args: Any, budget: float | None = None) -> Any:
        """fn(*args) in a worker, within the budget; retried on a new worker if its worker dies or hangs.

        An exception raised by fn itself is not retried: it comes back as PoolError with its text.
        """
        if self._closed:
            raise PoolError("the AI pool is closed")
        budget = self.budget if budget is None else budget
        if self.in_process:
            return await asyncio.wait_for(asyncio.to_thread(fn, *args), budget)
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.size)
        failures: list[str] = []
        for _ in range(self.retries + 1):
            async with self._slots:
                if self._closed:
                    raise PoolError("the AI pool is closed")
                worker = self._idle.pop() if self._idle else await self._spawn_kept()
                self._busy.add(worker)
                try:
                    status, value = await worker.call(fn, args, budget)
                except WorkerLost as e:
                    self._busy.discard(worker)
                    worker.kill()  # a hung one too: it is replaced by the next spawn
                    self.replaced += 1
                    failures.append(str(e))
                    log.warning("AI pool: %s; the job is tried again on a new worker", e)
                    continue
                except BaseException:  # cancelled mid-job: the worker's answer would arrive late
                    self._busy.discard(worker)
                    worker.kill()
                    raise
                self._busy.discard(worker)
                if self._closed:
                    worker.kill()
                else:
                    self._idle.append(worker)
            if status != "ok":
                raise PoolError(f"the AI failed: {value}")
            return value
        raise PoolError(f"the AI job failed {len(failures)} times: {'; '.join(failures)}")

    async def _spawn_kept(self) -> _Worker:
        """A new worker; if the job is cancelled while it starts, the worker joins the idle ones."""
        spawning = asyncio.ensure_future(self._spawn())
        try:
            return await asyncio.shield(spawning)
        except asyncio.CancelledError:
            spawning.add_done_callback(self._keep)
            raise

    def _keep(self, spawning: asyncio.Future[_Worker]) -> None:
        if spawning.cancelled() or spawning.exception() is not None:
            return
        worker = spawning.result()
        if self._closed:
            worker.kill()
        else:
            self._idle.append(worker)

    async def _spawn(self) -> _Worker:
        """A new worker (started in a thread: starting a process blocks for a moment)."""
        if self._ctx is None:
            self._ctx = worker_context()
        return await asyncio.to_thread(_Worker, self._ctx, self.nice)

    async def close(self, timeout: float = 2.0) -> None:
        """Stop every worker (idle ones finish at once; a busy one is killed). Safe to call twice."""
        self._closed = True
        idle, self._idle = self._idle, []
        busy, self._busy = list(self._busy), set()
        for w in busy:  # its job sees the worker die and gives up (the pool is closed)
            with contextlib.suppress(Exception):
                w.process.kill()
        if idle:

            def stop_idle() -> None:
                for w in idle:
                    w.stop(timeout)

            await asyncio.to_thread(stop_idle)
