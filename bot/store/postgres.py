"""The PostgreSQL store (asyncpg): several bot processes on one database, one transaction per move.

The store logic is bot/store/sql.py, the same for SQLite; this module opens, migrates and closes a pool of
connections and runs that logic on them. What SQLite gets from its single writer, PostgreSQL gets from the
database itself: a move is a conditional UPDATE ... WHERE state_id = expected (READ COMMITTED re-checks it
once the row lock is free, so of two processes moving from one state exactly one commits and the other gets
Conflict), the action log keeps PRIMARY KEY (match_id, seq), and read-then-write work (ratings, a deck or
pack limit, a pack's next version) takes a transaction-scoped advisory lock on what it counts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator, Iterator
from typing import Any, TypeVar

import asyncpg

from bot.store.base import DiskFull, StoreError, StoreUnavailable, reason_of, wait_budget
from bot.store.dialect import POSTGRES, Dialect, Row, Taken, numbered
from bot.store.migrations import expected_schema
from bot.store.pg_migrations import LATEST, MIGRATIONS
from bot.store.queries import Work
from bot.store.sql import Store

T = TypeVar("T")
DEFAULT_POOL = 10
DEFAULT_TIMEOUT = 10.0  # seconds a store call waits for a connection and its statements (AGORA_DB_TIMEOUT)
CONNECT_TIMEOUT = 15.0  # seconds start-up waits for the server to answer
MIGRATION_TIMEOUT = 600.0  # seconds a migration step may take (a new index on a big table)
# Failures of the server or the connection (not of the caller): reported as StoreError.
_DATABASE_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError)
# Of those, the ones that mean the database cannot be reached now: StoreUnavailable (an outage). TimeoutError
# (a connect, acquire or command timeout) is an OSError.
_UNREACHABLE = (
    OSError,
    asyncpg.PostgresConnectionError,
    asyncpg.CannotConnectNowError,
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.TooManyConnectionsError,
)
_Held = contextlib.AbstractAsyncContextManager[asyncpg.Connection]  # a connection for one block


class _OneLine(logging.Filter):
    """asyncpg's pool, reconnecting its floor during an outage, logs a traceback each try (its own back-off,
    up to a minute apart): one line with the reason instead, beside the store's own outage line."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[1] is not None and "connection floor" in str(record.msg):
            record.msg = f"{record.msg} ({reason_of(record.exc_info[1])})"
            record.exc_info = record.exc_text = None
        return True


logging.getLogger("asyncpg.pool").addFilter(_OneLine())


async def _keep_session(conn: asyncpg.Connection) -> None:
    """The pool's reset between uses: nothing beyond asyncpg's own rollback of an open transaction. The
    store keeps no session state (its advisory locks are transaction-scoped; no LISTEN, no SET), and the
    default reset is a round trip on every release."""


def pool_size_from_env(pool_size: int | None) -> int:
    """The connection pool size: the one given, else env AGORA_DB_POOL, else 10."""
    if pool_size is not None:
        size = pool_size
    else:
        text = os.environ.get("AGORA_DB_POOL", "").strip()
        try:
            size = int(text) if text else DEFAULT_POOL
        except ValueError:
            raise StoreError(f"AGORA_DB_POOL must be a whole number of connections, not {text!r}") from None
    if size < 1:
        raise StoreError(f"the database pool needs at least one connection, not {size}")
    return size


def timeout_from_env() -> float:
    """How long a store call waits for the database (env AGORA_DB_TIMEOUT seconds, else 10)."""
    text = os.environ.get("AGORA_DB_TIMEOUT", "").strip()
    try:
        seconds = float(text) if text else DEFAULT_TIMEOUT
    except ValueError:
        raise StoreError(f"AGORA_DB_TIMEOUT must be a number of seconds, not {text!r}") from None
    if not 0 < seconds <= 3600:
        raise StoreError(f"AGORA_DB_TIMEOUT must be between 0 and 3600 seconds, not {text}")
    return seconds


class PostgresStore(Store):
    """asyncpg on a pool of connections; every write is one transaction, answered after its commit."""

    dialect = POSTGRES

    def __init__(
        self,
        url: str,
        *,
        pool_size: int | None = None,
        timeout: float | None = None,
        connect_timeout: float = CONNECT_TIMEOUT,
    ) -> None:
        self.url = url
        self.pool_size = pool_size_from_env(pool_size)
        self.timeout = timeout_from_env() if timeout is None else timeout
        self.connect_timeout = connect_timeout
        self._pool: asyncpg.Pool | None = None
        self._releasing: set[asyncio.Task[None]] = set()  # connections given back after a timeout

    # --- connection and migrations ----------------------------------------------------------------
    async def open(self) -> None:
        """Connect (a pool of up to pool_size connections) and apply pending migrations.

        StoreError (one readable line, nothing left open) if the server cannot be reached, or the database
        is not an Agora one or is of a newer schema; a server that does not answer within connect_timeout
        seconds is one that cannot be reached.
        """
        where = f"cannot open the database {_safe(self.url)}"
        try:
            async with asyncio.timeout(self.connect_timeout + 1):  # asyncpg's own bound, with a margin
                self._pool = await asyncpg.create_pool(
                    self.url,
                    min_size=1,
                    max_size=self.pool_size,
                    reset=_keep_session,
                    timeout=self.connect_timeout,  # establishing each connection
                    command_timeout=self.timeout,  # every statement (and asyncpg's cancel of one)
                )
        except TimeoutError:
            raise StoreError(f"{where}: no answer in {self.connect_timeout:g} s") from None
        except (*_DATABASE_ERRORS, ValueError) as e:
            raise StoreError(f"{where}: {reason_of(e)}") from None
        try:
            await self.migrate()
            await self._check_schema()
        except BaseException:
            await self.close()
            raise

    async def _check_schema(self) -> None:
        """StoreError if a table or column of the schema is missing (a damaged database, or not Agora's)."""
        have: dict[str, set[str]] = {}
        sql = "SELECT table_name, column_name FROM information_schema.columns "
        for table, column in await self._fetch(sql + "WHERE table_schema = current_schema()"):
            have.setdefault(table, set()).add(column)
        for kind, name, wanted in expected_schema(LATEST):  # the same tables and columns as SQLite's
            if kind != "table" or wanted <= have.get(name, set()):
                continue
            problem = f"its table {name} is missing"
            if name in have:
                problem = f"its table {name} lacks {', '.join(sorted(wanted - have[name]))}"
            raise StoreError(
                f"{_safe(self.url)} is not a usable Agora database ({problem}, for schema version {LATEST}); "
                "restore it from a backup or point AGORA_DB at another database"
            )

    async def close(self) -> None:
        """Close the pool (waiting for the transactions under way; a database that does not answer is
        given up on after the timeout)."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            try:
                await asyncio.wait_for(pool.close(), self.timeout)
            except (TimeoutError, *_DATABASE_ERRORS):
                pool.terminate()

    @property
    def pool(self) -> asyncpg.Pool:
        """The open connection pool."""
        if self._pool is None:
            raise StoreError("the store is not open")
        return self._pool

    async def schema_version(self) -> int:
        """The database's schema version (0 for a new database)."""
        async with self._reading() as conn:
            return await _version(conn)

    async def migrate(self, target: int = LATEST) -> list[int]:
        """Apply the migrations above the current version up to target, one transaction each (one process
        at a time); the versions applied."""
        applied = []
        for version, _title, statements in MIGRATIONS:
            if version > target:
                break
            async with self._transaction(MIGRATION_TIMEOUT) as conn:
                await conn.execute("SELECT pg_advisory_xact_lock(hashtext('agora:migrate'))")
                current = await _version(conn)
                if current == 0 and await conn.fetchval("SELECT to_regclass('matches') IS NOT NULL"):
                    raise StoreError(
                        f"{_safe(self.url)} holds a matches table but no Agora schema version; "
                        "point AGORA_DB at an empty database"
                    )
                if current > LATEST:
                    raise StoreError(
                        f"{_safe(self.url)} has schema version {current}, newer than this Agora knows "
                        f"({LATEST}); upgrade Agora before using this database"
                    )
                if current >= version:
                    continue
                for sql in statements:
                    await conn.execute(sql, timeout=MIGRATION_TIMEOUT)
                await conn.execute(
                    "INSERT INTO schema_version (one, version) VALUES (TRUE, $1) "
                    "ON CONFLICT (one) DO UPDATE SET version = excluded.version",
                    version,
                )
                applied.append(version)
        return applied

    # --- transactions -------------------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def _session(
        self, doing: str, *, transaction: bool, wait: float | None = None
    ) -> AsyncIterator[asyncpg.Connection]:
        """A pooled connection (in a transaction, committed when the block ends, if asked) for at most
        `wait` seconds (the store's timeout, or less when the caller must answer sooner: ANSWER_BY), from
        acquiring it to the commit. StoreUnavailable when the database does not answer in time or cannot be
        reached (an outage begins; the connection is given back in the background), DiskFull when its disk
        is full, StoreError for the database's other failures."""
        budget = wait_budget(self.timeout) if wait is None else wait
        pool = self.pool
        deadline = asyncio.timeout(budget)
        conn: asyncpg.Connection | None = None
        failed = False
        try:
            async with deadline:
                conn = await pool.acquire()
                if transaction:
                    async with conn.transaction():
                        yield conn
                else:
                    yield conn
        except asyncpg.DiskFullError as e:
            raise self._outage(DiskFull(reason_of(e))) from e
        except _DATABASE_ERRORS as e:
            failed = deadline.expired() or isinstance(e, _UNREACHABLE)
            if isinstance(e, TimeoutError) or deadline.expired():
                raise self._outage(StoreUnavailable(f"no answer in {budget:.2g} s")) from e
            if failed:
                raise self._outage(StoreUnavailable(reason_of(e))) from e
            raise StoreError(f"the database {doing} failed: {e}") from e
        else:
            self.outage.ok()
        finally:
            if conn is not None:
                if failed:  # giving back a connection to a server that does not answer may take long
                    task = asyncio.get_running_loop().create_task(self._release(pool, conn))
                    self._releasing.add(task)
                    task.add_done_callback(self._releasing.discard)
                else:
                    await pool.release(conn, timeout=self.timeout)

    def _outage(self, error: StoreError) -> StoreError:
        """Note an outage (one log line for all of it) and return its error to raise."""
        self.outage.failed(error)
        return error

    async def _release(self, pool: asyncpg.Pool, conn: asyncpg.Connection) -> None:
        """Give a connection back after a failure, within the timeout (else asyncpg closes it)."""
        with contextlib.suppress(Exception):
            await pool.release(conn, timeout=self.timeout)

    def _transaction(self, wait: float | None = None) -> _Held:
        """A connection in a transaction, committed when the block ends (rolled back if it raises)."""
        return self._session("write", transaction=True, wait=wait)

    def _autocommit(self) -> _Held:
        """A connection outside a transaction block: one statement is its own transaction, committed
        before it returns, in one round trip (no BEGIN and COMMIT of their own)."""
        return self._session("write", transaction=False)

    def _reading(self) -> _Held:
        """A connection for reads (each statement its own snapshot)."""
        return self._session("read", transaction=False)

    async def _read(self, fn: Work[T]) -> T:
        """fn(connection) on a pooled connection (each statement its own snapshot)."""
        async with self._reading() as conn:
            return await fn(PgConnection(conn))

    async def _write(self, fn: Work[T], *, alone: bool = False, slow: bool = False) -> T:
        """fn(connection) in a transaction committed before it answers (`alone`: one statement, its own
        transaction, in one round trip: no BEGIN and COMMIT of their own)."""
        held = self._autocommit() if alone else self._transaction(MIGRATION_TIMEOUT if slow else None)
        async with held as conn:
            return await fn(PgConnection(conn))


class PgConnection:
    """The store logic's Connection on an asyncpg connection: `:name` texts numbered once, then run."""

    __slots__ = ("raw",)
    dialect: Dialect = POSTGRES

    def __init__(self, raw: asyncpg.Connection) -> None:
        self.raw = raw

    async def execute(self, sql: str, /, **params: Any) -> int:
        """Run one statement; how many rows it changed (the count that ends its status, "UPDATE 1")."""
        with _unique():
            status = str(await self.raw.execute(*_numbered(sql, params)))
        count = status.rpartition(" ")[2]
        return int(count) if count.isdigit() else 0

    async def executemany(self, sql: str, rows: list[dict[str, Any]], /) -> None:
        """Run one statement once per row of parameters."""
        text, names = numbered(sql)
        await self.raw.executemany(text, [[row[n] for n in names] for row in rows])

    async def fetch(self, sql: str, /, **params: Any) -> list[Row]:
        """The rows of a query."""
        with _unique():  # an INSERT ... RETURNING
            return list(await self.raw.fetch(*_numbered(sql, params)))

    async def fetchval(self, sql: str, /, **params: Any) -> Any:
        """The first column of a query's first row (None if it has none)."""
        return await self.raw.fetchval(*_numbered(sql, params))

    async def lock(self, name: str, *, shared: bool = False) -> None:
        """Hold an advisory lock on `name` until the transaction ends (others asking for it wait)."""
        kind = "pg_advisory_xact_lock_shared" if shared else "pg_advisory_xact_lock"
        await self.raw.execute(f"SELECT {kind}(hashtext($1))", name)


def _numbered(sql: str, params: dict[str, Any]) -> list[Any]:
    """asyncpg's arguments for a `:name` query: its `$n` text, then the values in their order."""
    text, names = numbered(sql)
    return [text, *(params[n] for n in names)]


@contextlib.contextmanager
def _unique() -> Iterator[None]:
    """Taken for a unique constraint the statement breaks (named by the constraint)."""
    try:
        yield
    except asyncpg.UniqueViolationError as e:
        raise Taken(str(e.constraint_name or e)) from e


async def _version(conn: asyncpg.Connection) -> int:
    """The schema version recorded in the database (0 before the first migration)."""
    if not await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL"):
        return 0
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))


def _safe(url: str) -> str:
    """A database URL without its password, to print."""
    head, sep, tail = url.partition("://")
    if "@" not in tail:
        return url
    who, _, where = tail.rpartition("@")
    return f"{head}{sep}{who.split(':', 1)[0]}@{where}"
