"""Session manager benchmarks: committed moves per second, start-up with 10,000 stored games, memory.

    .venv/bin/python bench/sessions.py [--games 10000] [--live 1000] [--runs 3]

Prints tables (medians of --runs). Files go to a temporary directory on the same disk as /tmp.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.sessions import SessionManager
from bot.sessions.lobby import _rules_version
from bot.store import SqliteStore
from bot.store.base import (
    Seat,
    seats_to_text,
    snapshot_hash,
)
from engine.ai.random_player import RandomPlayer
from engine.match import Match
from engine.registry import get as get_game

HUMANS = (Seat(11, None, "Ann"), Seat(12, None, "Bo"))


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


# --- 1. committed moves per second ------------------------------------------------------------------
async def _human_moves(path: str, sync: str, matches: int, moves: int) -> tuple[float, float]:
    """(moves/s, p50 submit ms): people in `matches` channels at once, each submitting in turn."""
    store = SqliteStore(path, sync)
    await store.open()
    sessions = SessionManager(store)
    ids = []
    for c in range(matches):
        info = await sessions.create(c + 1, 1, "omphala", 11, seed=c)
        await sessions.join(info.id, 12)
        ids.append((await sessions.start(info.id, 11)).id)
    latencies: list[float] = []

    async def one_channel(mid: int, n: int) -> None:
        rng = random.Random(mid)
        for _ in range(n):
            info = await sessions.get(mid)
            if info.over:
                return
            user = info.users_to_act[0]
            moves_ = await sessions.moves_for(mid, user)
            key = moves_[rng.randrange(len(moves_))].key
            t = time.perf_counter()
            await sessions.submit(mid, user, key, info.state_id)
            latencies.append(time.perf_counter() - t)

    t0 = time.perf_counter()
    await asyncio.gather(*(one_channel(mid, moves // matches) for mid in ids))
    elapsed = time.perf_counter() - t0
    await sessions.close()
    await store.close()
    return len(latencies) / elapsed, statistics.median(latencies) * 1000


async def _ai_moves(path: str, sync: str, games: int) -> float:
    """Moves/s of all-AI games moving by themselves (choice in a worker thread, then commit)."""
    store = SqliteStore(path, sync)
    await store.open()
    sessions = SessionManager(store, ai_concurrency=4)
    t0 = time.perf_counter()
    ids = []
    for g in range(games):
        info = await sessions.create(None, None, "omphala", 1, seed=g, seat_host=False)
        for _ in range(3):
            await sessions.add_ai(info.id, 1)
        ids.append((await sessions.start(info.id, 1)).id)
    await sessions.wait_idle()
    elapsed = time.perf_counter() - t0
    total = sum([(await sessions.get(mid)).state_id for mid in ids])
    await sessions.close()
    await store.close()
    return total / elapsed


# --- 2 and 3. many stored games ----------------------------------------------------------------------
def _populate(path: str, games: int, ai_pending: int) -> None:
    """Write `games` unfinished Omphala games (a few moves in) straight into a migrated database."""
    templates = []
    for seed in range(200):
        m = Match.new("omphala", 2, seed)
        rp = RandomPlayer(seed)
        for _ in range(6 + seed % 10):
            p = m.to_act()[0]
            m.apply(rp.choose(m.game, m.state, p))
        templates.append(m)
    version = _rules_version(get_game("omphala"))  # today's rules: stored games of older rules are stopped
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode = WAL")
    con.execute("BEGIN")
    now = time.time()
    for i in range(games):
        m = templates[i % len(templates)]
        ai = i < ai_pending
        to_act = list(m.to_act())
        seats = (HUMANS[0], Seat(None, "random", "AI")) if ai else HUMANS
        if ai and 1 not in to_act:
            seats = (Seat(None, "random", "AI"), HUMANS[1])
        snap = json.dumps(m.game.to_json(m.state), separators=(",", ":"))
        cur = con.execute(
            "INSERT INTO matches (game_id, rules_version, guild_id, channel_id, origin, status, seed, "
            "options, seats, host_user, created_at, updated_at, snapshot, snapshot_hash, state_id, log_len, "
            "undo_floor, to_act, ai_turn) "
            "VALUES ('omphala',?,1,?,'discord','active',?,'{}',?,11,?,?,?,?,?,?,?,?,?)",
            (version, 10_000 + i, m.seed, seats_to_text(seats), now, now + i, snap, snapshot_hash(snap),
             m.state_id, len(m.log), m.undo_floor, json.dumps(to_act), int(ai)),
        )  # fmt: skip
        con.executemany(
            "INSERT INTO actions (match_id, seq, seat, user_id, action_key, at) VALUES (?,?,?,?,?,?)",
            [(cur.lastrowid, j + 1, seat, None, key, now) for j, (seat, key) in enumerate(m.log)],
        )
    con.commit()
    con.close()


async def _startup(path: str, games: int) -> tuple[float, float, float]:
    """(ms to open + migrate + recover, ms to the first move on a stored game, ms until AI games resumed)."""
    gc.collect()
    t0 = time.perf_counter()
    store = SqliteStore(path)
    await store.open()
    sessions = SessionManager(store)
    await sessions.recover()
    ready = time.perf_counter() - t0
    info = await sessions.match_for_channel(10_000 + games // 2)
    assert info is not None
    user = info.users_to_act[0] if info.users_to_act else info.seats[0].user_id
    moves = await sessions.moves_for(info.id, user or 11)
    t1 = time.perf_counter()
    if moves:
        await sessions.submit(info.id, user or 11, moves[0].key, info.state_id)
    first = time.perf_counter() - t1 + ready
    await sessions.wait_idle()
    resumed = time.perf_counter() - t0
    await sessions.close()
    await store.close()
    return ready * 1000, first * 1000, resumed * 1000


async def _memory(path: str, live: int) -> tuple[float, float, float]:
    """(MB of Python heap for `live` cached matches, KB per match, process RSS MB)."""
    store = SqliteStore(path)
    await store.open()
    sessions = SessionManager(store, cache_size=live)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    ids = [
        r[0]
        for r in await store._fetch("SELECT id FROM matches WHERE ai_turn = 0 ORDER BY id LIMIT ?", (live,))
    ]
    for mid in ids:
        await sessions.get(mid)
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    held = sum(s.size_diff for s in after.compare_to(before, "filename"))
    rss = _rss_mb()
    assert sessions.cached() == live
    await sessions.close()
    await store.close()
    return held / 2**20, held / live / 1024, rss


def _table(title: str, header: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    print(f"\n{title}")
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)))


async def main() -> None:
    """Run every benchmark and print the tables."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--live", type=int, default=1_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--moves", type=int, default=2_000)
    a = parser.parse_args()
    with tempfile.TemporaryDirectory(dir="/tmp") as tmp:
        rows = []
        for sync in ("NORMAL", "FULL"):
            for label, channels in (("1 channel", 1), ("20 channels at once", 20)):
                runs = [
                    await _human_moves(f"{tmp}/h-{sync}-{channels}-{r}.db", sync, channels, a.moves)
                    for r in range(a.runs)
                ]
                rate = statistics.median(x[0] for x in runs)
                p50 = statistics.median(x[1] for x in runs)
                rows.append([sync, f"people, {label}", f"{rate:,.0f}", f"{p50:.2f}"])
            ai = [await _ai_moves(f"{tmp}/ai-{sync}-{r}.db", sync, 20) for r in range(a.runs)]
            rows.append([sync, "AI seats, 20 games at once", f"{statistics.median(ai):,.0f}", "-"])
        _table(
            "Committed moves per second through the session manager (WAL; one transaction per move)",
            ["synchronous", "who moves", "moves/s", "submit p50 ms"],
            rows,
        )

        db = f"{tmp}/many.db"
        store = SqliteStore(db)
        await store.open()
        await store.close()
        t = time.perf_counter()
        _populate(db, a.games, ai_pending=100)
        build = time.perf_counter() - t
        starts = []
        for r in range(max(a.runs, 3)):  # a fresh copy each time: recovery changes the database
            copy = f"{tmp}/many-{r}.db"
            shutil.copyfile(db, copy)
            starts.append(await _startup(copy, a.games))
        size = os.path.getsize(db) / 2**20
        _table(
            f"Start-up with {a.games:,} stored unfinished games ({size:.0f} MB file, built in {build:.1f} s; "
            "100 of them wait on an AI move)",
            ["measure", "median ms"],
            [
                ["open + migrate + recover (ready)", f"{statistics.median(s[0] for s in starts):.1f}"],
                ["ready + first move on a stored game", f"{statistics.median(s[1] for s in starts):.1f}"],
                ["ready + the 100 AI moves resumed", f"{statistics.median(s[2] for s in starts):.1f}"],
            ],
        )
        live = min(a.live, a.games - 100)  # the games that wait on nobody's AI
        held, per, rss = await _memory(f"{tmp}/many-0.db", live)
        _table(
            f"Memory with {a.games:,} stored and {live:,} live (cached) games",
            ["measure", "value"],
            [
                ["Python heap held by the cache", f"{held:.1f} MB"],
                ["per live game", f"{per:.1f} KB"],
                ["process RSS (after tracemalloc)", f"{rss:.0f} MB"],
            ],
        )


if __name__ == "__main__":
    asyncio.run(main())
