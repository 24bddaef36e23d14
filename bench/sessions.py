"""Session manager benchmarks on each store backend: committed moves per second, start-up with 10,000 stored
games, memory.

    .venv/bin/python bench/sessions.py [--backend sqlite|postgres|both] [--games 10000] [--runs 3]
                                       [--baseline main]

Prints tables (medians of --runs). With --baseline REV, the moves are measured on the stores of that git
revision too, loaded into this process beside today's and run in turn with them, and each row gives the ratio
of today's moves/s to the baseline's (the same machine at the same moments).

SQLite files go to a temporary directory on the same disk as /tmp.
PostgreSQL is the server named by AGORA_TEST_POSTGRES (a URL of a role that may create databases), else a
PostgreSQL 16 from the `pgserver` wheel started in a temporary directory with its default, durable settings
(fsync on); each run gets a database of its own. Its moves are measured with synchronous_commit on (a move
is on disk when acknowledged, like SQLite's FULL) and off (the last moves may be lost in a crash, never the
database, like SQLite's NORMAL).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import io
import itertools
import json
import multiprocessing
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
import types
import warnings
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.sessions import SessionManager
from bot.sessions.lobby import _rules_version
from bot.store import SqliteStore, Store, open_store
from bot.store.base import (
    Seat,
    seats_to_text,
    snapshot_hash,
)
from engine.ai.random_player import RandomPlayer
from engine.match import Match
from engine.registry import get as get_game

ROOT = Path(__file__).resolve().parents[1]
HUMANS = (Seat(11, None, "Ann"), Seat(12, None, "Bo"))
AI_PENDING = 100  # stored games that wait on an AI move at start-up


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


# --- the store code measured: today's, or a baseline revision's -------------------------------------------
@dataclass(frozen=True)
class Code:
    """The store classes measured: today's, or those of a git revision (--baseline)."""

    name: str
    sqlite: Callable[[str, str], Store]  # (path, synchronous)
    postgres: Callable[[str], Store]  # (url)


TODAY = Code("today", SqliteStore, open_store)


BASELINE_MODULES = ("base", "migrations", "pg_migrations", "rows", "sqlite", "postgres")  # in import order


def baseline(rev: str) -> Code:
    """The stores of git revision `rev` (its bot/store modules), loaded as modules of their own beside
    today's; the session manager is today's (it reads the records they return by name)."""
    package = "agora_baseline"
    if package not in sys.modules:
        sys.modules[package] = types.ModuleType(package)
        for name in BASELINE_MODULES:
            show = ["git", "-C", str(ROOT), "show", f"{rev}:bot/store/{name}.py"]
            text = subprocess.run(show, capture_output=True, text=True, check=True).stdout
            for other in BASELINE_MODULES:
                text = text.replace(f"from bot.store.{other} import", f"from {package}.{other} import")
            module = types.ModuleType(f"{package}.{name}")
            sys.modules[module.__name__] = module
            exec(compile(text, f"{rev}:bot/store/{name}.py", "exec"), module.__dict__)
    old_sqlite, old_postgres = sys.modules[f"{package}.sqlite"], sys.modules[f"{package}.postgres"]
    return Code(rev, old_sqlite.SqliteStore, old_postgres.PostgresStore)


# --- the backends ------------------------------------------------------------------------------------
@dataclass
class Backend:
    """Where the stores of one backend live: fresh databases to measure on, and how to open them."""

    name: str
    durability: str  # what its two variants set
    variants: tuple[str, str]  # (the faster, the durable)
    fresh: Callable[[str], str]  # a new empty database's URL or path, by a name
    copy: Callable[[str, str], str]  # a copy of a database under a new name
    opened: Callable[[str, str, Code], Store]  # a store on a database, in a variant, of some code
    drop: Callable[[], None] = lambda: None  # remove every database made (a server's own are kept)

    @contextlib.asynccontextmanager
    async def store(self, url: str, variant: str = "", code: Code = TODAY) -> AsyncIterator[Store]:
        """The open store of a database."""
        store = self.opened(url, variant or self.variants[1], code)
        await store.open()
        try:
            yield store
        finally:
            await store.close()


def sqlite_backend(tmp: str) -> Backend:
    """SQLite files in tmp."""

    def copy(path: str, name: str) -> str:
        shutil.copyfile(path, f"{tmp}/{name}.db")
        return f"{tmp}/{name}.db"

    return Backend(
        "SQLite",
        "synchronous",
        ("NORMAL", "FULL"),
        lambda name: f"{tmp}/{name}.db",
        copy,
        lambda path, sync, code: code.sqlite(path, sync),
    )


def postgres_backend(tmp: str, server_url: str = "") -> Backend:
    """Databases on AGORA_TEST_POSTGRES, else on a PostgreSQL from pgserver in tmp (durable settings); or on
    the server of server_url."""
    server = server_url or os.environ.get("AGORA_TEST_POSTGRES", "")
    own = None
    if not server:
        import pgserver  # the test extra

        with warnings.catch_warnings():  # platformdirs: "XDG_RUNTIME_DIR is not set" in containers
            warnings.simplefilter("ignore")
            own = pgserver.get_server(f"{tmp}/pg", cleanup_mode="delete")
            server = str(own.get_uri())
    numbers = itertools.count()
    made: list[str] = []

    def database(name: str, template: str | None = None) -> str:
        name = f"bench_{os.getpid()}_{next(numbers)}_{name}"
        of = f' TEMPLATE "{urlsplit(template).path.lstrip("/")}"' if template else ""
        asyncio.run(_on_server(server, f'CREATE DATABASE "{name}"{of}'))
        made.append(name)
        return urlunsplit(urlsplit(server)._replace(path=f"/{name}"))

    def drop() -> None:
        if own is not None:  # our own server: stopped and its files removed
            own.cleanup()
            return
        for name in made:
            asyncio.run(_on_server(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))

    def opened(url: str, sync: str, code: Code) -> Store:
        parts = urlsplit(url)
        query = urlencode({**dict(parse_qsl(parts.query)), "synchronous_commit": sync})
        return code.postgres(urlunsplit(parts._replace(query=query)))

    return Backend(
        "PostgreSQL",
        "synchronous_commit",
        ("off", "on"),
        database,
        lambda url, name: database(name, url),
        opened,
        drop,
    )


async def _on_server(url: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


# --- 1. committed moves per second ------------------------------------------------------------------
async def _human_moves(
    store: Store, matches: int, moves: int, first_channel: int = 1, ready: Callable[[], object] | None = None
) -> tuple[int, float, float, list[float]]:
    """(moves made, start, end, submit latencies): people in `matches` channels at once, each submitting in
    turn; `ready` is called once the games are dealt, just before the clock starts."""
    sessions = SessionManager(store)
    ids = []
    for c in range(matches):
        info = await sessions.create(first_channel + c, 1, "omphala", 11, seed=c)
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

    if ready is not None:
        ready()
    t0 = time.perf_counter()
    await asyncio.gather(*(one_channel(mid, moves // matches) for mid in ids))
    t1 = time.perf_counter()
    await sessions.close()
    return len(latencies), t0, t1, latencies


def _rate(parts: list[tuple[int, float, float, list[float]]]) -> tuple[float, float]:
    """(moves/s, p50 submit ms) of runs side by side: all their moves over the time from first start to last
    end (perf_counter is the one monotonic clock of the machine, so processes compare)."""
    made = sum(p[0] for p in parts)
    elapsed = max(p[2] for p in parts) - min(p[1] for p in parts)
    return made / elapsed, statistics.median(x for p in parts for x in p[3]) * 1000


def _process_moves(
    url: str, variant: str, rev: str, matches: int, moves: int, first: int, barrier: Any, out: Any
) -> None:
    """In a process of its own (a second bot process): _human_moves on the same database."""
    backend = postgres_backend("", server_url=url)
    code = baseline(rev) if rev else TODAY
    job = _in_store(backend, url, variant, _human_moves, matches, moves, first, barrier.wait, code=code)
    out.put(asyncio.run(job))


def _processes_moves(
    url: str, variant: str, processes: int, channels: int, moves: int, code: Code = TODAY
) -> tuple[float, float]:
    """(moves/s, p50 ms) of `processes` bot processes on one database, channels/processes channels each."""
    ctx = multiprocessing.get_context("spawn")
    barrier, out = ctx.Barrier(processes), ctx.Queue()
    each = channels // processes
    rev = "" if code is TODAY else code.name
    workers = [
        ctx.Process(
            target=_process_moves,
            args=(url, variant, rev, each, moves // processes, 1 + i * each, barrier, out),
        )
        for i in range(processes)
    ]
    for w in workers:
        w.start()
    parts = [out.get(timeout=600) for _ in workers]
    for w in workers:
        w.join()
    return _rate(parts)


async def _ai_moves(store: Store, games: int) -> float:
    """Moves/s of all-AI games moving by themselves (choice in a worker thread, then commit)."""
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
    return total / elapsed


Measure = Callable[["Backend", str, "Code", str], tuple[float, float]]  # (moves/s, p50 ms or -1)


def _people(channels: int, moves: int) -> Measure:
    """People moving in `channels` channels at once."""

    def measure(backend: Backend, variant: str, code: Code, run: str) -> tuple[float, float]:
        url = backend.fresh(f"h-{variant}-{channels}-{run}")
        job = _in_store(backend, url, variant, _human_moves, channels, moves, code=code)
        return _rate([asyncio.run(job)])

    return measure


def _two_processes(moves: int) -> Measure:
    """People in 20 channels, served by two bot processes on one database."""

    def measure(backend: Backend, variant: str, code: Code, run: str) -> tuple[float, float]:
        return _processes_moves(backend.fresh(f"p2-{variant}-{run}"), variant, 2, 20, moves, code)

    return measure


def _ai(backend: Backend, variant: str, code: Code, run: str) -> tuple[float, float]:
    """AI seats moving in 20 games at once (no submit latency: -1)."""
    url = backend.fresh(f"ai-{variant}-{run}")
    return asyncio.run(_in_store(backend, url, variant, _ai_moves, 20, code=code)), -1.0


def moves_rows(backend: Backend, runs: int, moves: int, base: Code | None = None) -> list[list[str]]:
    """The moves/s rows of a backend: people at 1 and 20 channels, AI seats in 20 games, per variant; with a
    baseline, each run measures it and today's in turn (the order alternating) and the row adds its
    median moves/s and today's over it."""
    codes = [TODAY] if base is None else [TODAY, base]
    measures: list[tuple[str, Measure]] = [
        ("people, 1 channel", _people(1, moves)),
        ("people, 20 channels at once", _people(20, moves)),
    ]
    if backend.name == "PostgreSQL":  # what several processes on one database are for
        measures.append(("people, 20 channels, 2 bot processes", _two_processes(moves)))
    measures.append(("AI seats, 20 games at once", _ai))
    rows = []
    for variant in backend.variants:
        for label, measure in measures:
            results: dict[str, list[tuple[float, float]]] = {c.name: [] for c in codes}
            for r in range(runs):
                for code in codes if r % 2 == 0 else codes[::-1]:
                    results[code.name].append(measure(backend, variant, code, f"{code.name}-{r}"))
            rate = statistics.median(x[0] for x in results[TODAY.name])
            p50 = statistics.median(x[1] for x in results[TODAY.name])
            cells = [backend.name, variant, label, f"{rate:,.0f}", "-" if p50 < 0 else f"{p50:.2f}"]
            if base is not None:
                was = statistics.median(x[0] for x in results[base.name])
                cells += [f"{was:,.0f}", f"{rate / was:.2f}"]
            rows.append(cells)
    return rows


async def _in_store(
    backend: Backend, url: str, variant: str, job: Callable[..., Any], *args: object, code: Code = TODAY
) -> Any:
    async with backend.store(url, variant, code) as store:
        return await job(store, *args)


# --- 2 and 3. many stored games ----------------------------------------------------------------------
def _populate(path: str, games: int, ai_pending: int) -> None:
    """Write `games` unfinished Omphala games (a few moves in) straight into a migrated SQLite file."""
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
    con.execute("PRAGMA journal_mode = DELETE")  # closed as Agora closes its own: `bot migrate` reads it
    con.close()


async def _startup(backend: Backend, url: str, games: int) -> tuple[float, float, float]:
    """(ms to open + migrate + recover, ms to the first move on a stored game, ms until AI games resumed)."""
    gc.collect()
    t0 = time.perf_counter()
    store = backend.opened(url, backend.variants[1], TODAY)
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


async def _memory(backend: Backend, url: str, live: int) -> tuple[float, float, float]:
    """(MB of Python heap for `live` cached matches, KB per match, process RSS MB)."""
    async with backend.store(url) as store:
        sessions = SessionManager(store, cache_size=live)
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        for mid in range(AI_PENDING + 1, AI_PENDING + 1 + live):  # _populate stores the AI games first
            await sessions.get(mid)
        gc.collect()
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
        held = sum(s.size_diff for s in after.compare_to(before, "filename"))
        rss = _rss_mb()
        assert sessions.cached() == live
        await sessions.close()
    return held / 2**20, held / live / 1024, rss


def stored_games_rows(backend: Backend, seeded: str, games: int, runs: int, live: int) -> tuple[list, list]:
    """The start-up and memory rows of a backend, from copies of the SQLite file `seeded`."""
    if backend.name == "SQLite":
        many = seeded
    else:  # the same games, moved over as an admin would: python -m bot migrate
        from bot.migrate import migrate

        many = backend.fresh("many")
        assert asyncio.run(migrate(seeded, many, io.StringIO())) == 0
    starts = []
    for r in range(max(runs, 3)):  # a fresh copy each time: recovery changes the database
        starts.append(asyncio.run(_startup(backend, backend.copy(many, f"many{r}"), games)))
    start_rows = [
        [backend.name, "open + migrate + recover (ready)", f"{statistics.median(s[0] for s in starts):.1f}"],
        [
            backend.name,
            "ready + first move on a stored game",
            f"{statistics.median(s[1] for s in starts):.1f}",
        ],
        [
            backend.name,
            f"ready + the {AI_PENDING} AI moves resumed",
            f"{statistics.median(s[2] for s in starts):.1f}",
        ],
    ]
    held, per, rss = asyncio.run(_memory(backend, backend.copy(many, "memory"), live))
    memory_rows = [
        [backend.name, "Python heap held by the cache", f"{held:.1f} MB"],
        [backend.name, "per live game", f"{per:.1f} KB"],
        [backend.name, "process RSS (after tracemalloc)", f"{rss:.0f} MB"],
    ]
    return start_rows, memory_rows


def _table(title: str, header: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    print(f"\n{title}")
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)))


def main() -> None:
    """Run every benchmark on the chosen backends and print the tables."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--backend", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--live", type=int, default=1_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--moves", type=int, default=2_000)
    parser.add_argument("--baseline", default="", help="a git revision whose stores the moves compare with")
    parser.add_argument("--skip", choices=("moves", "stored"), action="append", default=[],
                        help="leave out the moves/s table or the stored-games tables")  # fmt: skip
    a = parser.parse_args()
    with tempfile.TemporaryDirectory(dir="/tmp") as tmp:
        backends = []
        if a.backend in ("sqlite", "both"):
            backends.append(sqlite_backend(tmp))
        if a.backend in ("postgres", "both"):
            backends.append(postgres_backend(tmp))
        try:
            _measure(backends, a, tmp)
        finally:
            for b in backends:
                b.drop()


def _measure(backends: list[Backend], a: argparse.Namespace, tmp: str) -> None:
    """Print the tables of every measure on these backends."""
    if "moves" not in a.skip:
        base = baseline(a.baseline) if a.baseline else None
        rows = [row for b in backends for row in moves_rows(b, a.runs, a.moves, base)]
        against = [] if base is None else [f"{a.baseline} moves/s", "ratio"]
        _table(
            "Committed moves per second through the session manager (one transaction per move; SQLite in "
            "WAL mode; the durability setting: SQLite synchronous, PostgreSQL synchronous_commit)"
            + ("" if base is None else f"; today's stores and those of {a.baseline}, in turn"),
            ["backend", "durability", "who moves", "moves/s", "submit p50 ms", *against],
            rows,
        )
    if "stored" in a.skip:
        return
    seeded = f"{tmp}/seeded.db"
    asyncio.run(_new_sqlite(seeded))
    t = time.perf_counter()
    _populate(seeded, a.games, ai_pending=AI_PENDING)
    build = time.perf_counter() - t
    size = os.path.getsize(seeded) / 2**20
    live = min(a.live, a.games - AI_PENDING)  # the games that wait on nobody's AI
    start_rows, memory_rows = [], []
    for b in backends:
        starts, memory = stored_games_rows(b, seeded, a.games, a.runs, live)
        start_rows += starts
        memory_rows += memory
    _table(
        f"Start-up with {a.games:,} stored unfinished games ({size:.0f} MB SQLite file, built in "
        f"{build:.1f} s; PostgreSQL gets them by `bot migrate`; {AI_PENDING} of them wait on an AI move)",
        ["backend", "measure", "median ms"],
        start_rows,
    )
    _table(
        f"Memory with {a.games:,} stored and {live:,} live (cached) games",
        ["backend", "measure", "value"],
        memory_rows,
    )


async def _new_sqlite(path: str) -> None:
    """An empty SQLite file at the latest schema."""
    store = SqliteStore(path)
    await store.open()
    await store.close()


if __name__ == "__main__":
    main()
