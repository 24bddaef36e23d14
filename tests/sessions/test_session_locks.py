"""The per-match locks: however the cache evicts, only one caller at a time works on a match."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.sessions import SessionManager
from bot.store import MatchRecord, Seat, SqliteStore

HOST = 1


class GatedStore(SqliteStore):
    """A SqliteStore that can hold a call (by method and match id) at a gate until the test opens it,
    and can yield to the loop a random number of times around each seat read and write (seeded)."""

    def __init__(self, path: str, jitter_seed: int | None = None) -> None:
        super().__init__(path)
        self.gates: dict[tuple[str, int], asyncio.Event] = {}
        self.held: set[tuple[str, int]] = set()
        self.random = random.Random(jitter_seed) if jitter_seed is not None else None

    async def _pass(self, call: str, match_id: int) -> None:
        if (gate := self.gates.pop((call, match_id), None)) is not None:
            self.held.add((call, match_id))
            await gate.wait()
            self.held.discard((call, match_id))
        if self.random is not None:
            for _ in range(self.random.randrange(4)):
                await asyncio.sleep(0)

    async def get_match(self, match_id: int) -> MatchRecord | None:
        record = await super().get_match(match_id)
        await self._pass("get_match", match_id)
        return record

    async def update_seats(
        self, match_id: int, seats: tuple[Seat, ...], host_user: int | None, ai_turn: bool, now: float
    ) -> None:
        await super().update_seats(match_id, seats, host_user, ai_turn, now)
        await self._pass("update_seats", match_id)


@pytest.fixture
async def store(tmp_path: Path):
    async with GatedStore(str(tmp_path / "locks.db")) as s:
        yield s


async def _until(condition) -> None:
    for _ in range(2000):
        if condition():
            return
        await asyncio.sleep(0.001)
    raise AssertionError("the callers never got there")


async def _seated(store: SqliteStore, match_id: int) -> set[int | None]:
    record = await SqliteStore.get_match(store, match_id)
    assert record is not None
    return {s.user_id for s in record.seats}


async def test_a_woken_waiter_keeps_its_lock_while_another_match_evicts_it(store: GatedStore) -> None:
    """Ann holds lobby A's lock and Bo waits for it; Ann releases it, which wakes Bo, but before Bo runs
    a load of lobby B evicts A from a cache of one. A's lock must survive that: Cy, arriving now, must
    queue behind Bo instead of getting in beside him (and one of their two joins being lost)."""
    sessions = SessionManager(store, cache_size=1)
    a = (await sessions.create(None, None, "omphala", HOST, origin="console")).id
    b = (await sessions.create(None, None, "omphala", HOST, origin="console")).id  # evicts A
    opened = asyncio.Event()
    store.gates[("update_seats", a)] = opened  # Ann's join holds A's lock at this gate
    store.gates[("get_match", b)] = opened  # Dee's join loads B (a cache miss) and stops at this gate
    ann = asyncio.create_task(sessions.join(a, 101))
    await _until(lambda: ("update_seats", a) in store.held)
    bo = asyncio.create_task(sessions.join(a, 102))  # waits for A's lock
    dee = asyncio.create_task(sessions.join(b, 104))
    await _until(lambda: ("get_match", b) in store.held)
    opened.set()  # Ann releases A (Bo is woken, not yet run); Dee then loads B, evicting A
    cy = asyncio.create_task(sessions.join(a, 103))
    await asyncio.gather(ann, bo, cy, dee)
    assert await _seated(store, a) == {HOST, 101, 102, 103}
    assert await _seated(store, b) == {HOST, 104}
    await sessions.close()


async def test_no_join_is_lost_while_a_cache_of_one_keeps_evicting(tmp_path: Path) -> None:
    """Many people join three lobbies at once, arriving one by one, through a cache of one match, so
    each join evicts another lobby (the race above, left to chance: 3 joins lost in 7,500 before the
    fix). Every join must land."""
    store = GatedStore(str(tmp_path / "stress.db"), jitter_seed=10)
    await store.open()
    sessions = SessionManager(store, cache_size=1)
    arrivals = random.Random(4)

    async def arrive_and_join(match_id: int, user: int) -> None:
        await asyncio.sleep(arrivals.random() * 0.008)
        await sessions.join(match_id, user)

    try:
        for round_ in range(1, 61):
            lobbies = [
                (await sessions.create(None, None, "omphala", HOST, origin="console")).id for _ in range(3)
            ]
            # Omphala seats six: the host and five who join each lobby, interleaved
            users = [(mid, 1000 * round_ + 10 * i + j) for j in range(5) for i, mid in enumerate(lobbies)]
            await asyncio.gather(*(arrive_and_join(mid, user) for mid, user in users))
            for i, mid in enumerate(lobbies):
                wanted = {HOST} | {user for m, user in users if m == mid}
                lost = wanted - await _seated(store, mid)
                assert not lost, f"round {round_}, lobby {i}: the joins of {sorted(lost)} were lost"
    finally:
        await sessions.close()
        await store.close()
