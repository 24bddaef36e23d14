"""Database outages are answered, not waited on (issue 34, point 4).

PostgreSQL frozen (SIGSTOP on every process of a server of this test's own, then SIGCONT): a move press and
/stats are answered within Discord's 3 seconds that the database is unreachable, play resumes by itself
once it answers again, and the outage is logged once (start, end), never a traceback per press. A server
that accepts connections and never answers (a fake on 127.0.0.1) ends start-up in one line within a bound,
with the reason. SQLite's full disk: the press says so and nothing was played.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import signal
import sqlite3
import sys
import tempfile
import time
import warnings
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

import tests.discord_harness as harness_module
from bot import ops
from bot.discord.common import DISK_FULL, UNREACHABLE, UNREACHABLE_OTHER
from bot.sessions import MatchInfo
from bot.store import SqliteStore, StoreError, StoreUnavailable
from bot.store.base import reason_of
from tests.discord_harness import HAND, NAV, Harness
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.client import ErrorLogCapture, capture_error_logs

ROOT = Path(__file__).resolve().parents[2]
OUTAGE_LINE = "database unreachable"
FREEZE = float(os.environ.get("AGORA_TEST_FREEZE", "6"))  # seconds PostgreSQL stays frozen (30: the report's)


@pytest.fixture
def error_logs() -> Iterator[ErrorLogCapture]:
    """As the suite's, but the outage's own one line (its start) is expected here: any other ERROR fails."""
    with capture_error_logs() as handler:
        yield handler
    others = [
        r
        for r in handler.records
        if not r.getMessage().startswith(("database unreachable", "database disk full"))
    ]
    if others:
        pytest.fail(
            "ERROR logged during the test:\n" + "\n".join(r.getMessage() for r in others), pytrace=False
        )


# --- a server that accepts connections and never answers ----------------------------------------------------
@contextlib.asynccontextmanager
async def silent_server() -> AsyncIterator[int]:
    """A TCP server on 127.0.0.1 that accepts every connection and never says a word; its port."""
    held: list[asyncio.StreamWriter] = []

    async def hold(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held.append(writer)

    server = await asyncio.start_server(hold, "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        for writer in held:
            writer.close()
        server.close()


def test_an_empty_error_text_is_named_by_its_type() -> None:
    """str(TimeoutError()) is "": the reason shown is the type's name instead of nothing."""
    assert reason_of(TimeoutError()) == "TimeoutError"
    assert reason_of(ConnectionRefusedError("refused")) == "refused"


async def test_start_up_against_a_silent_server_ends_in_one_line() -> None:
    """The store gives up opening after its connect timeout, saying where and why."""
    from bot.store.postgres import PostgresStore

    async with silent_server() as port:
        store = PostgresStore(f"postgresql://agora:secret@127.0.0.1:{port}/agora", connect_timeout=1.0)
        started = time.monotonic()
        with pytest.raises(StoreError) as refused:
            await store.open()
        took = time.monotonic() - started
    assert (
        str(refused.value)
        == f"cannot open the database postgresql://agora@127.0.0.1:{port}/agora: no answer in 1 s"
    )
    assert took < 5, f"start-up took {took:.1f} s"


async def test_agora_ends_in_one_line_against_a_silent_server(tmp_path: Path) -> None:
    """`agora ratings --rebuild` (any command that opens the database) with the default bound: one line on
    stderr, exit 1, within the 15 s connect timeout (and a margin), no traceback."""
    async with silent_server() as port:
        env = {**os.environ, "AGORA_RENDER_WORKERS": "0", "PYTHONPATH": str(ROOT)}
        url = f"postgresql://agora@127.0.0.1:{port}/agora"
        started = time.monotonic()
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "ratings", "--rebuild", "--db", url,
            cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await asyncio.wait_for(proc.communicate(), 40)
        took = time.monotonic() - started
    lines = err.decode().strip().splitlines()
    assert proc.returncode == 1 and not out.strip()
    assert len(lines) == 1, lines
    assert lines[0].endswith(f"cannot open the database {url}: no answer in 15 s"), lines
    assert took < 25, f"start-up took {took:.1f} s"


# --- PostgreSQL frozen --------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def frozen_pg() -> Iterator[tuple[str, Path]]:
    """A PostgreSQL server of this module's own (it is frozen, so not the suite's shared one): its URL and
    data directory. Skipped, saying why, where pgserver cannot run one."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            import pgserver
        except ImportError as e:
            pytest.skip(f"pgserver is not installed ({e})")
        data = Path(tempfile.mkdtemp(prefix="agora-outage-pg-"))
        try:
            server = pgserver.get_server(data, cleanup_mode="delete")
        except Exception as e:
            pytest.skip(f"pgserver could not start PostgreSQL: {e}")
    try:
        yield str(server.get_uri()), data
    finally:
        thaw(data)
        server.cleanup()


def _server_pids(data: Path) -> list[int]:
    """The postmaster of the server in `data` and every process it started."""
    import psutil

    postmaster = int((data / "postmaster.pid").read_text().split()[0])
    return [postmaster, *(p.pid for p in psutil.Process(postmaster).children(recursive=True))]


def freeze(data: Path) -> None:
    """Stop every process of the server (it holds connections and answers nothing)."""
    for pid in _server_pids(data):
        os.kill(pid, signal.SIGSTOP)


def thaw(data: Path) -> None:
    """Let the server run again."""
    with contextlib.suppress(OSError, ValueError):
        for pid in _server_pids(data):
            os.kill(pid, signal.SIGCONT)


async def _new_database(url: str) -> str:
    """A new empty database on the server; its URL."""
    import asyncpg

    name = f"outage_{os.getpid()}_{time.monotonic_ns()}"
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"CREATE DATABASE {name}")
    finally:
        await conn.close()
    base, _, query = url.partition("?")
    return f"{base.rsplit('/', 1)[0]}/{name}" + (f"?{query}" if query else "")


@contextlib.asynccontextmanager
async def on_postgres(fake: FakeDiscord, tmp_path: Path, url: str) -> AsyncIterator[Harness]:
    """The Discord harness with the bot on PostgreSQL (the harness builds a SqliteStore; this one instead)."""
    from bot.store.postgres import PostgresStore

    original = harness_module.SqliteStore
    harness_module.SqliteStore = lambda _path: PostgresStore(url)  # type: ignore[assignment,misc]
    try:
        async with Harness.started(fake, tmp_path) as h:
            yield h
    finally:
        harness_module.SqliteStore = original  # type: ignore[misc]


GREEN = 3  # a button style: the move menu's green buttons play the move at once


async def _move_menu(h: Harness, user: FakeUser, channel: FakeChannel) -> tuple[FakeMessage, str]:
    """The user's move menu opened down to a level with a button that plays a move; (the menu, its label)."""
    menu = await h.press(user, h.board(channel), HAND)
    for _ in range(6):
        green = [b["label"] for b in menu.buttons if b.get("style") == GREEN]
        if green:
            return menu, green[0]
        menu = await h.press(user, menu, next(b["label"] for b in menu.buttons if b["label"] not in NAV))
    raise AssertionError(f"no move to play in {menu.text()}")


async def _menu_open(h: Harness) -> tuple[MatchInfo, FakeUser, FakeMessage, str]:
    """alice and bob start a game and its mover opens a move's menu: the match, the mover, the menu and the
    label that plays the move."""
    alice, bob = h.fake.add_user("alice"), h.fake.add_user("bob")
    thread, mid = await h.started_game(alice, bob)
    info = await h.sessions.get(mid)
    mover = alice if info.users_to_act[0] == alice.id else bob
    hand, label = await _move_menu(h, mover, thread)
    return info, mover, hand, label


async def _answer(fake: FakeDiscord, ix: Any, timeout: float = 10.0) -> tuple[FakeMessage, float]:
    """The first message with text an interaction created (its response or a follow-up), and when it came
    (time.monotonic())."""

    def said() -> list[FakeMessage]:
        return [m for m in ix.messages if m.text()]

    await fake.wait_until(lambda: bool(said()), what="an answer", timeout=timeout)
    return said()[0], time.monotonic()


async def test_a_frozen_postgres_is_answered_in_time_then_play_resumes(
    fake: FakeDiscord, tmp_path: Path, frozen_pg: tuple[str, Path], caplog: pytest.LogCaptureFixture
) -> None:
    """PostgreSQL frozen: a move press and /stats are answered within 3 s that the database is unreachable
    (nothing played: the game is as it was); after SIGCONT the next press plays; the outage is logged as
    one start line and one end line."""
    server, data = frozen_pg
    url = await _new_database(server)
    caplog.set_level(logging.INFO, logger="bot.store")
    async with on_postgres(fake, tmp_path, url) as h:
        info, mover, hand, label = await _menu_open(h)
        mid = info.id
        before = await h.store.get_match(mid)
        answers: list[float] = []
        freeze(data)
        try:
            frozen_at = time.monotonic()
            while time.monotonic() - frozen_at < FREEZE:
                started = time.monotonic()
                press = await fake.click(mover, hand, label)
                said, at = await _answer(fake, press)
                assert said.content == UNREACHABLE and said.ephemeral
                answers.append(at - started)
                assert press.latency is not None and press.latency < 3
                started = time.monotonic()
                stats = await fake.slash(mover, fake.channel, "stats")
                reply = await stats.wait_reply()
                assert reply.content == UNREACHABLE_OTHER
                answers.append(time.monotonic() - started)
        finally:
            thaw(data)
        print(
            f"frozen {time.monotonic() - frozen_at:.1f} s: {len(answers)} presses, the slowest answered in "
            f"{max(answers):.2f} s"
        )
        assert max(answers) < 3, answers
        after_freeze = time.monotonic()
        for _ in range(60):  # the pool reconnects by itself
            with contextlib.suppress(StoreUnavailable):
                now = await h.store.get_match(mid)
                break
            await asyncio.sleep(0.5)
        print(f"the database answered again {time.monotonic() - after_freeze:.1f} s after SIGCONT")
        assert now.state_id == before.state_id, "a move the store refused was played"
        played = await h.press(mover, hand, label)
        assert "✅ You played" in played.text()
        assert (await h.store.get_match(mid)).state_id > before.state_id
    starts = [r for r in caplog.records if r.name == "bot.store" and r.getMessage().startswith(OUTAGE_LINE)]
    ends = [r for r in caplog.records if r.name == "bot.store" and r.getMessage().startswith("database back")]
    assert len(starts) == 1 and len(ends) == 1, [r.getMessage() for r in starts + ends]
    assert f"{len(answers)} presses answered 'unreachable'" in ends[0].getMessage()
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"


# --- SQLite's full disk -------------------------------------------------------------------------------------
async def test_a_full_disk_says_so_and_plays_nothing(fake: FakeDiscord, tmp_path: Path) -> None:
    """SQLite refuses the move's write ("database or disk is full"): the press says the disk is full,
    nothing was played, and the game plays on once there is room again."""
    async with Harness.started(fake, tmp_path) as h:
        info, mover, hand, label = await _menu_open(h)
        mid = info.id
        before = await h.store.get_match(mid)
        store: SqliteStore = h.store
        commit = store._commit_batch

        def full(fns: list[Any]) -> Any:
            raise sqlite3.OperationalError("database or disk is full")

        store._commit_batch = full  # type: ignore[method-assign]
        press = await fake.click(mover, hand, label)
        said, _ = await _answer(fake, press)
        assert said.content == DISK_FULL
        store._commit_batch = commit  # type: ignore[method-assign]
        after = await h.store.get_match(mid)
        assert (after.state_id, after.snapshot) == (before.state_id, before.snapshot)
        assert (await h.sessions.get(mid)).state_id == before.state_id
        played = await h.press(mover, hand, label)
        assert "✅ You played" in played.text()


# --- agora health -------------------------------------------------------------------------------------------
def test_health_reports_an_outage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A heartbeat written during an outage makes `agora health` unhealthy, saying since when and why."""
    monkeypatch.setenv("AGORA_HEALTH_FILE", str(tmp_path / "health"))
    ops.beat(1_000_000.0)
    assert ops.health(1_000_010.0)[0]
    ops.beat(1_000_000.0, (999_990.0, "no answer in 2 s"))
    ok, line = ops.health(1_000_010.0)
    assert not ok
    assert line == "unhealthy: database: unreachable since 1970-01-12 13:46:30 UTC (no answer in 2 s)"


# --- what waits during an outage ----------------------------------------------------------------------------
async def test_a_store_failure_drops_the_match_from_memory(tmp_path: Path) -> None:
    """A write the store refuses inside a match's lock (here a join) leaves nothing of it in memory: the
    match is loaded again from the database next time."""
    from bot.sessions import SessionManager

    async with SqliteStore(str(tmp_path / "a.db")) as store:
        sessions = SessionManager(store)
        info = await sessions.create(10, 11, "omphala", 1)
        assert sessions._cache.peek(info.id) is not None

        async def unreachable(*args: Any) -> None:
            raise StoreUnavailable("no answer in 2 s")

        store.update_seats = unreachable  # type: ignore[method-assign]
        with pytest.raises(StoreUnavailable):
            await sessions.join(info.id, 2)
        assert sessions._cache.peek(info.id) is None
        del store.update_seats
        assert [s.user_id for s in (await sessions.get(info.id)).seats] == [1]
        await sessions.close()


async def test_a_locked_sqlite_file_is_an_outage(tmp_path: Path) -> None:
    """Another process holding SQLite's write lock past busy_timeout: StoreUnavailable, not a bare
    sqlite3 error; the write goes through once the lock is free."""
    path = tmp_path / "a.db"
    async with SqliteStore(str(path)) as store:
        await store.db.execute("PRAGMA busy_timeout = 50")
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(StoreUnavailable, match="locked"):
            await store.set_guild_setting(1, "k", "v")
        other.execute("ROLLBACK")
        other.close()
        await store.set_guild_setting(1, "k", "v")
        assert await store.guild_settings(1) == {"k": "v"}
        assert store.outage.since is None


async def test_timers_back_off_during_an_outage(monkeypatch: pytest.MonkeyPatch, caplog: Any) -> None:
    """The timer loop, its ticks failing for an outage, waits longer each time up to the most (here scaled
    down to 10-40 ms), and logs nothing per tick."""
    from types import SimpleNamespace

    import bot.store.base as base
    from bot.discord.timers import Timers

    monkeypatch.setattr(base, "OUTAGE_BACKOFF", (0.01, 0.04))
    nothing: Any = SimpleNamespace(store=None)  # the loop never reaches them: every tick fails
    timers = Timers(nothing, nothing, nothing, nothing, nothing, interval=30)
    ticks: list[float] = []

    async def tick(now: float | None = None) -> int:
        ticks.append(time.monotonic())
        if len(ticks) >= 6:
            await asyncio.Event().wait()  # the database is back: the loop would go on as usual
        raise StoreUnavailable("no answer in 10 s")

    timers.tick = tick  # type: ignore[method-assign]
    caplog.set_level(logging.INFO)
    timers.start()
    for _ in range(200):
        if len(ticks) >= 6:
            break
        await asyncio.sleep(0.01)
    await timers.stop()
    gaps = [b - a for a, b in itertools.pairwise(ticks)]
    assert len(gaps) == 5 and gaps[0] >= 0.01 and gaps[2] >= 0.04 and gaps[4] < 1, gaps
    assert not [r for r in caplog.records if r.name.startswith("bot.")], [
        r.getMessage() for r in caplog.records
    ]


async def test_a_board_waits_out_an_outage(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A board whose redraw meets an outage is drawn again later (not lost), without a traceback."""
    import bot.store.base as base

    monkeypatch.setattr(base, "OUTAGE_BACKOFF", (0.01, 0.04))
    async with Harness.started(fake, tmp_path) as h:
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        thread, mid = await h.started_game(alice, bob)
        posted = len(fake.public(thread))
        calls = 0
        read = h.sessions.table_snapshot

        async def flaky(match_id: int) -> Any:
            nonlocal calls
            calls += 1
            if calls <= 3:
                raise StoreUnavailable("no answer in 10 s")
            return await read(match_id)

        h.sessions.table_snapshot = flaky
        h.bot.boards.posted.pop(mid, None)  # as after a restart: the board is posted anew
        await h.store.save_board(base.BoardRecord(mid, thread.id, 0, 0))
        h.bot.boards.schedule(mid)
        await h.bot.boards.flush()
        del h.sessions.table_snapshot
        assert calls == 4 and len(fake.public(thread)) > posted, calls


async def test_a_move_committed_before_an_outage_is_said_played(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The move is committed, then the database stops answering while the menu is redrawn: the press says
    the move was played (never "not played", which would invite playing it twice)."""
    import bot.discord.menus as menus

    async with Harness.started(fake, tmp_path) as h:
        info, mover, hand, label = await _menu_open(h)
        mid = info.id
        drawn = menus.hand_message

        async def unreachable_after(
            interaction: Any, match_id: int, note: str = "", played: bool = False, seen: Any = None
        ) -> Any:
            if played:
                raise StoreUnavailable("no answer in 2 s")
            return await drawn(interaction, match_id, note, played, seen)

        monkeypatch.setattr(menus, "hand_message", unreachable_after)
        press = await fake.click(mover, hand, label)
        said, _ = await _answer(fake, press)
        assert said.content.startswith("✅ You played"), said.content
        assert (await h.store.get_match(mid)).state_id == info.state_id + 1


async def test_lost_connections_are_reconnected_by_the_pool(frozen_pg: tuple[str, Path]) -> None:
    """The server ends every connection (an administrator, a restart): the next call finds the pool
    reconnected, with no error and no outage."""
    import asyncpg

    from bot.store.postgres import PostgresStore

    server, _ = frozen_pg
    url = await _new_database(server)
    async with PostgresStore(url, pool_size=1) as store:
        assert await store.guild_settings(1) == {}
        admin = await asyncpg.connect(server)
        try:
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() "
                "AND datname = $1",
                url.rsplit("/", 1)[1].partition("?")[0],
            )
        finally:
            await admin.close()
        await asyncio.sleep(0.2)
        assert await store.guild_settings(1) == {}
        assert store.outage.since is None


async def test_a_refused_connection_is_an_outage() -> None:
    """Nothing listens where the database was (the server is stopped): StoreUnavailable naming the
    reason, within the timeout, never a bare OSError or the generic apology."""
    import socket

    import asyncpg

    from bot.store.postgres import PostgresStore

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"postgresql://agora@127.0.0.1:{port}/agora"
    store = PostgresStore(url, timeout=2.0)
    store._pool = await asyncpg.create_pool(url, min_size=0)  # as if it had been open before the stop
    try:
        with pytest.raises(StoreUnavailable, match=r"refused|Connect call failed"):
            await store.guild_settings(1)
        assert store.outage.since is not None
    finally:
        await store.close()
