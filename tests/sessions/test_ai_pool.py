"""The AI process pool (issue 12, item 2): decisions think in worker processes with a time budget; a worker
that dies or hangs is replaced and the job tried again; every AI move is applied exactly once."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.sessions import SessionEvent, SessionManager
from bot.sessions.pool import AiPool, PoolError, decide
from bot.store import FINISHED, SqliteStore
from engine.registry import get as get_game


# --- jobs the workers run (module level: a worker finds them by name) ---------------------------------------
def slow_echo(value: str, seconds: float) -> str:
    time.sleep(seconds)
    return value


def spin(value: str, seconds: float) -> str:
    """CPU-bound work, as a search is."""
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        n += sum(range(1000))
    return value


def hang_once(marker: str, value: str) -> str:
    """Hangs on the first call (until killed); answers at once on the next."""
    if not os.path.exists(marker):
        Path(marker).write_text(str(os.getpid()))
        time.sleep(3600)
    return value


def fails(text: str) -> str:
    raise ValueError(text)


def slow_decide(game_id: str, state_json: Any, seat: int, level: str, seed: int, seconds: float) -> str:
    time.sleep(seconds)
    return decide(game_id, state_json, seat, level, seed)


class SlowPool(AiPool):
    """A pool whose AI takes `seconds` over each move: time for a test to kill a worker mid-move."""

    def __init__(self, seconds: float, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seconds = seconds
        self.calls = 0

    async def choose(self, game_id: str, state_json: Any, seat: int, level: str, seed: int) -> str:
        self.calls += 1
        return str(await self.run(slow_decide, game_id, state_json, seat, level, seed, self.seconds))


async def _wait_busy(pool: AiPool, timeout: float = 10.0, killed: tuple[int, ...] = ()) -> int:
    """The pid of a worker busy with a job (not one of those already killed)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        busy = [w.pid for w in pool._busy if w.pid is not None and w.pid not in killed]
        if busy:
            return busy[0]
        await asyncio.sleep(0.005)
    raise AssertionError("no worker became busy")


# --- the pool alone --------------------------------------------------------------------------------------
async def test_a_killed_worker_is_replaced_and_the_job_retried() -> None:
    pool = AiPool(workers=1, budget=10)
    try:
        job = asyncio.create_task(pool.run(slow_echo, "move", 0.5))
        pid = await _wait_busy(pool)
        os.kill(pid, signal.SIGKILL)
        assert await job == "move", "the job came back from a new worker"
        assert pool.replaced == 1 and pid not in pool.pids()
        assert await pool.run(slow_echo, "next", 0.0) == "next", "the pool goes on"
    finally:
        await pool.close()
    assert pool.pids() == []


async def test_a_hung_worker_is_replaced_after_the_budget(tmp_path: Path) -> None:
    pool = AiPool(workers=1, budget=2.0)  # room for a fresh worker to import this module on a busy machine
    marker = tmp_path / "hung"
    try:
        start = time.monotonic()
        assert await pool.run(hang_once, str(marker), "move") == "move"
        assert 2.0 <= time.monotonic() - start < 15
        hung = int(marker.read_text())
        assert pool.replaced == 1 and hung not in pool.pids()
        await asyncio.sleep(0.1)
        with pytest.raises(ProcessLookupError):  # the hung process is gone, not left running
            os.kill(hung, 0)
    finally:
        await pool.close()


async def test_a_worker_that_always_hangs_gives_up_after_the_retries(tmp_path: Path) -> None:
    pool = AiPool(workers=1, budget=0.2, retries=1)
    try:
        with pytest.raises(PoolError, match="2 times"):
            await pool.run(slow_echo, "never", 30.0)
        assert pool.replaced == 2
        with pytest.raises(PoolError, match="ValueError: no"):  # the job's own error is not retried
            await pool.run(fails, "no", budget=10)
        assert pool.replaced == 2
    finally:
        await pool.close()


async def test_workers_are_bounded_and_think_in_parallel() -> None:
    pool = AiPool(workers=2, budget=10)
    try:
        start = time.monotonic()
        answers = await asyncio.gather(*(pool.run(slow_echo, str(i), 0.3) for i in range(4)))
        took = time.monotonic() - start
        assert answers == ["0", "1", "2", "3"]
        assert len(pool.pids()) <= 2 and took >= 0.6, "never more workers than the pool's size"
    finally:
        await pool.close()


async def test_the_event_loop_stays_free_while_workers_think() -> None:
    """A CPU-bound job in the pool does not hold up the loop (a thread would, under the GIL)."""
    pool = AiPool(workers=1, budget=10)
    try:
        await pool.run(spin, "warm", 0.0)
        job = asyncio.create_task(pool.run(spin, "done", 0.4))
        gaps = []
        for _ in range(20):
            t = time.monotonic()
            await asyncio.sleep(0.01)
            gaps.append(time.monotonic() - t)
        assert await job == "done"
        assert max(gaps) < 0.25
    finally:
        await pool.close()


# --- through the session manager -------------------------------------------------------------------------
async def _ai_game(sessions: SessionManager, players: int = 2, seed: int = 7, humans: int = 0) -> int:
    """A game of AI seats at the easy level (cheap, and thought out in the pool, unlike "random")."""
    info = await sessions.create(None, None, "omphala", 1, seed=seed, origin="console", seat_host=humans > 0)
    for _ in range(players - humans):
        await sessions.add_ai(info.id, 1, "easy")
    return (await sessions.start(info.id, 1)).id


async def test_the_game_goes_on_after_workers_are_killed_and_each_move_is_applied_once(
    tmp_path: Path,
) -> None:
    store = SqliteStore(str(tmp_path / "a.db"))
    await store.open()
    pool = SlowPool(0.05, workers=1, budget=10)
    sessions = SessionManager(store, ai_pool=pool)
    applied: Counter[int] = Counter()

    def on_event(ev: SessionEvent) -> None:
        if ev.kind == "action":
            applied[ev.info.state_id] += 1

    sessions.subscribe(on_event)
    try:
        mid = await _ai_game(sessions)
        killed: tuple[int, ...] = ()
        for _ in range(3):  # kill whichever worker is thinking, at three moves of the game
            killed += (pid := await _wait_busy(pool, killed=killed),)
            os.kill(pid, signal.SIGKILL)
            moves = sum(applied.values())
            while sum(applied.values()) == moves:  # the retried move comes, and is applied
                await asyncio.sleep(0.005)
        await asyncio.wait_for(sessions.wait_idle(mid), 60)
        info = await sessions.get(mid)
        assert info.status == FINISHED
        assert pool.replaced == 3
        log = await store.load_log(mid)
        assert len(log) == info.state_id == sum(applied.values())
        assert set(applied.values()) == {1}, "no position got two moves"
    finally:
        await sessions.close()
        await store.close()
        await pool.close()  # a pool handed to the manager is its owner's to close
    assert pool.pids() == [], "close stops the workers"


async def test_a_person_moving_while_the_ai_thinks_gets_one_move_each(tmp_path: Path) -> None:
    """Omphala's opening is simultaneous: the AI thinks (in the pool), the person moves meanwhile; the AI's
    move still goes through the session manager's state_id check (only another seat moved since, so it is
    still good) and each seat gets exactly one move."""
    store = SqliteStore(str(tmp_path / "b.db"))
    await store.open()
    pool = SlowPool(0.4, workers=1, budget=10)
    sessions = SessionManager(store, ai_pool=pool)
    try:
        mid = await _ai_game(sessions, humans=1)
        info = await sessions.get(mid)
        assert set(info.to_act) == {0, 1}
        await _wait_busy(pool)
        moves = await sessions.moves_for(mid, 1)
        await sessions.submit(mid, 1, moves[0].key, info.state_id)
        await asyncio.wait_for(sessions.wait_idle(mid), 30)
        log = await store.load_log(mid)
        assert [r.seat for r in log[:2]] == [0, 1], "the person's move, then the AI's, once"
        assert pool.calls == 1
    finally:
        await sessions.close()
        await store.close()


async def test_a_pool_that_cannot_decide_falls_back_to_a_random_move(tmp_path: Path) -> None:
    class Broken(AiPool):
        async def choose(self, *args: Any) -> str:
            raise PoolError("every worker died")

    store = SqliteStore(str(tmp_path / "c.db"))
    await store.open()
    sessions = SessionManager(store, ai_pool=Broken(workers=1))
    try:
        mid = await _ai_game(sessions)
        await asyncio.wait_for(sessions.wait_idle(mid), 60)
        assert (await sessions.get(mid)).status == FINISHED, "the game never stalls on its AI"
    finally:
        await sessions.close()
        await store.close()


async def test_hint_is_for_the_player_to_act_and_names_legal_moves(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "d.db"))
    await store.open()
    sessions = SessionManager(store)
    try:
        info = await sessions.create(None, None, "omphala", 1, seed=3, origin="console", host_name="Ann")
        await sessions.join(info.id, 2, "Bo")
        info = await sessions.start(info.id, 1)
        game = get_game("omphala")
        rated = await sessions.hint(info.id, 1)
        legal = {m.key: m.path for m in await sessions.moves_for(info.id, 1)}
        assert 1 <= len(rated) <= 3
        for move, chance in rated:
            assert legal[move.key] == move.path and 0.0 <= chance <= 1.0
        await sessions.submit(info.id, 1, rated[0][0].key, info.state_id)
        with pytest.raises(Exception, match="not your turn"):
            await sessions.hint(info.id, 1)
        with pytest.raises(Exception, match="only seated players"):
            await sessions.hint(info.id, 99)
        assert json.dumps(game.to_json(game.setup(2, 3)))  # the state travels as JSON
    finally:
        await sessions.close()
        await store.close()
