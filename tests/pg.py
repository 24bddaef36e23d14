"""The test PostgreSQL: one server for the whole test run, a fresh empty database for each test.

The server is the one named by env AGORA_TEST_POSTGRES (a postgresql:// URL of a role that may create
databases), or else a PostgreSQL 16 started from the `pgserver` wheel in a temporary directory (removed when
the run ends). Where neither can be had, the tests that need it are skipped with the reason, never failed.

Durability is traded for speed here only: the test server runs with fsync off, and the test URLs ask for
synchronous_commit off. `pg_url()` gives any test (or the bot processes a test starts) a new database.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import os
import tempfile
import warnings
from collections.abc import AsyncIterator, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import pytest

from bot.store import Store, open_store

ENV = "AGORA_TEST_POSTGRES"
BACKENDS = ("sqlite", "postgres")  # a store fixture parametrized over these runs its tests on each
_names = itertools.count(1)


class PostgresUnavailable(Exception):
    """No test PostgreSQL could be had (the reason is the message)."""


@functools.cache
def _server() -> tuple[str, str]:
    """(the server's URL, "") or ("", why there is none): tried once per test run."""
    if url := os.environ.get(ENV):
        return url, ""
    with warnings.catch_warnings():  # platformdirs: "XDG_RUNTIME_DIR is not set" in containers
        warnings.simplefilter("ignore")
        try:
            import pgserver
        except ImportError as e:  # no wheel for this platform: the PostgreSQL tests are skipped
            return "", f"pgserver is not installed ({e}); set {ENV} to test on PostgreSQL"
        try:
            server = pgserver.get_server(tempfile.mkdtemp(prefix="agora-pg-"), cleanup_mode="delete")
            server.psql("ALTER SYSTEM SET fsync = off; ALTER SYSTEM SET full_page_writes = off;")
            server.psql("SELECT pg_reload_conf();")
            return str(server.get_uri()), ""
        except Exception as e:
            return "", f"pgserver could not start PostgreSQL: {e}"


def server_url() -> str:
    """The URL of the test server's maintenance database, starting the server the first time."""
    url, why = _server()
    if not url:
        raise PostgresUnavailable(why)
    return url


def pg_url() -> str:
    """A URL of a new, empty database on the test server (PostgresUnavailable if there is none)."""
    base = server_url()
    name = f"agora_test_{os.getpid()}_{next(_names)}"
    _run(_create(base, name))
    return _with_database(base, name)


def pg_url_or_skip() -> str:
    """pg_url(), or skip the test saying why there is no test PostgreSQL."""
    try:
        return pg_url()
    except PostgresUnavailable as e:
        pytest.skip(str(e))


def _run(job: Coroutine[Any, Any, None]) -> None:
    """Run a coroutine to its end, from a test's event loop too (in a thread of its own)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(job)
    with ThreadPoolExecutor(1) as worker:
        return worker.submit(asyncio.run, job).result()


def drop_database(url: str) -> None:
    """Drop a database pg_url() made (its files are gone at once; the server stays)."""
    _run(_on_server(_drop(url)))


def _drop(url: str) -> str:
    return f'DROP DATABASE IF EXISTS "{urlsplit(url).path.lstrip("/")}" WITH (FORCE)'


async def _create(base: str, name: str) -> None:
    await _on_server(f'CREATE DATABASE "{name}"', base)


async def _on_server(sql: str, base: str | None = None) -> None:
    """Run one statement on the server's maintenance database."""
    import asyncpg

    conn = await asyncpg.connect(base or server_url())
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def _with_database(url: str, name: str) -> str:
    """The URL of another database on the same server, with synchronous_commit off."""
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    query["synchronous_commit"] = "off"  # asyncpg sends unknown URL parameters as server settings
    return urlunsplit(parts._replace(path=f"/{name}", query=urlencode(query)))


@pytest.fixture
def pg_database() -> Iterator[str]:
    """The URL of a fresh empty PostgreSQL database for one test (skipped if there is no test server)."""
    url = pg_url_or_skip()
    yield url
    drop_database(url)


@contextlib.asynccontextmanager
async def open_test_store(backend: str, tmp_path: Path) -> AsyncIterator[Store]:
    """An open store of a backend ("sqlite": a file in tmp_path; "postgres": a fresh database), closed
    after."""
    url = str(tmp_path / "t.db") if backend == "sqlite" else pg_url_or_skip()
    store = open_store(url)
    await store.open()
    try:
        yield store
    finally:
        await store.close()
        if backend == "postgres":
            await _on_server(_drop(url))
