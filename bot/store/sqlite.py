"""The embedded store: plain sqlite3 in WAL mode on a thread of the store's own, with group commit.

The store logic is bot/store/sql.py; this module opens, checks, migrates and closes the file, runs that logic
on its connection, and backs the file up while the bot runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import queue
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from bot.store.base import DiskFull, StoreError, StoreUnavailable
from bot.store.dialect import SQLITE, Connection, Dialect, Row, Taken, marked, run_now
from bot.store.migrations import LATEST, MIGRATIONS, expected_schema
from bot.store.queries import Work
from bot.store.sql import Store, rebuild_ratings

SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")
SQLITE_HEADER = b"SQLite format 3\x00"
log = logging.getLogger(__name__)
T = TypeVar("T")
Job = tuple[Callable[[], Any], asyncio.Future[Any], asyncio.AbstractEventLoop]

# Work a migration's new tables need from the data already there, run in the migration's transaction.
AFTER_MIGRATION: dict[int, Work[Any]] = {8: rebuild_ratings}


class SqliteConnection:
    """The store logic's Connection on a sqlite3 connection: every call answers at once, in its thread."""

    __slots__ = ("raw",)
    dialect: Dialect = SQLITE

    def __init__(self, raw: sqlite3.Connection) -> None:
        self.raw = raw

    def _run(self, sql: str, params: dict[str, Any]) -> sqlite3.Cursor:
        """The cursor of one statement; Taken for a unique constraint it breaks."""
        text, names = marked(sql)
        try:
            return self.raw.execute(text, [params[n] for n in names])
        except sqlite3.IntegrityError as e:
            if "UNIQUE" in str(e):
                raise Taken(str(e)) from e
            raise

    async def execute(self, sql: str, /, **params: Any) -> int:
        """Run one statement; how many rows it changed."""
        return self._run(sql, params).rowcount

    async def executemany(self, sql: str, rows: list[dict[str, Any]], /) -> None:
        """Run one statement once per row of parameters."""
        text, names = marked(sql)
        self.raw.executemany(text, [[row[n] for n in names] for row in rows])

    async def fetch(self, sql: str, /, **params: Any) -> list[Row]:
        """The rows of a query."""
        return self._run(sql, params).fetchall()

    async def fetchval(self, sql: str, /, **params: Any) -> Any:
        """The first column of a query's first row (None if it has none)."""
        row = self._run(sql, params).fetchone()
        return None if row is None else row[0]

    async def lock(self, name: str, *, shared: bool = False) -> None:
        """Nothing to lock: one connection writes, one transaction at a time."""


class Raw:
    """Plain SQL on the store's connection, in its thread (tests and tools: a damaged row, a PRAGMA)."""

    def __init__(self, store: SqliteStore) -> None:
        self.store = store

    async def execute(self, sql: str, params: tuple[Any, ...] = ()) -> None:
        """Run one statement (committed at once: the connection is in autocommit mode)."""
        await self.store._call(lambda: self.store.connection.raw.execute(sql, params))

    async def execute_fetchall(self, sql: str, params: tuple[Any, ...] = ()) -> list[Row]:
        """The rows of one statement."""
        return await self.store._call(lambda: self.store.connection.raw.execute(sql, params).fetchall())


class SqliteStore(Store):
    """sqlite3 on one connection in WAL mode, in a thread of its own, with group commit.

    Every read and every write runs in the store's thread, one hand-off each. Writes that arrive while a
    commit is in progress are committed together in the next transaction, each inside its own savepoint (so
    one refused write does not undo the others) - one fsync for the whole batch. Each caller is answered
    only after the transaction holding its write has committed.
    """

    dialect = SQLITE

    def __init__(self, path: str, synchronous: str = "FULL", *, target_version: int = LATEST) -> None:
        if synchronous.upper() not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {SYNCHRONOUS}")
        self.path = path
        self.synchronous = synchronous.upper()
        self.target_version = target_version  # tests build old databases with a lower target
        self._db: SqliteConnection | None = None
        self._jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._worker: threading.Thread | None = None
        self._queue: list[tuple[Work[Any], asyncio.Future[Any]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self.commits = 0  # transactions committed (a batch counts once)
        self._wal = False  # switched to WAL by open(): close() folds the log back in

    # --- the store's thread ---------------------------------------------------------------------------
    def _serve(self) -> None:
        """The store's thread: run each job, answer its caller on the caller's loop; None stops it."""
        while (job := self._jobs.get()) is not None:
            fn, future, loop = job
            try:
                outcome: tuple[bool, Any] = (True, fn())
            except BaseException as e:
                outcome = (False, e)
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody waits
                loop.call_soon_threadsafe(_settle, future, outcome)

    async def _call(self, fn: Callable[[], T]) -> T:
        """fn() in the store's thread; its result, or its exception."""
        if self._worker is None:
            raise StoreError("the store is not open")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._jobs.put((fn, future, loop))
        return await future

    def _stop_worker(self) -> None:
        """Let the store's thread end once the jobs before this are done."""
        if self._worker is not None:
            self._jobs.put(None)
            self._worker = None

    # --- connection and migrations ----------------------------------------------------------------
    async def open(self) -> None:
        """Connect, switch to WAL and apply pending migrations up to target_version.

        StoreError (one readable line, the connection closed) if the file is not an Agora database this
        version can use: not SQLite, damaged or truncated, or of a newer schema.
        """
        self._worker = threading.Thread(target=self._serve, name=f"agora-sqlite {self.path}", daemon=True)
        self._worker.start()
        try:
            raw = await self._call(functools.partial(sqlite3.connect, self.path, isolation_level=None))
        except sqlite3.Error as e:
            self._stop_worker()
            raise StoreError(f"cannot open the database {self.path}: {e}") from None
        self._db = SqliteConnection(raw)
        try:
            await self._pragma("busy_timeout = 5000")
            await self._check_schema()  # before anything is written to the file
            await self._pragma("journal_mode = WAL")
            self._wal = True
            await self._pragma(f"synchronous = {self.synchronous}")
            await self._pragma("foreign_keys = ON")
            await self.migrate(self.target_version)
        except StoreError:
            await self.close()
            raise
        except sqlite3.Error as e:
            await self.close()
            if "locked" in str(e) or "busy" in str(e):
                raise StoreError(
                    f"{self.path} is in use by another process (is another Agora running on it?); stop it, "
                    "or point --db at another file"
                ) from None
            raise StoreError(
                f"{self.path} is not a usable Agora database ({e}); restore it from a backup or "
                "point --db at another file"
            ) from None

    async def _pragma(self, pragma: str) -> list[Row]:
        """Run a PRAGMA on the connection; its rows."""
        return await self.db.execute_fetchall(f"PRAGMA {pragma}")

    async def _check_schema(self) -> None:
        """StoreError, without writing anything, if a table, index or column that the file's schema version
        promises is missing (a damaged file that migrating would only damage further)."""
        version = await self.schema_version()
        if not 0 < version <= LATEST:
            return  # a new file, or a newer schema (migrate explains that one)
        found = await self.db.execute_fetchall("SELECT type, name FROM sqlite_master")
        have = {(str(kind), str(name)) for kind, name in found}
        columns = {}
        for kind, name in have:
            if kind == "table":
                columns[name] = {str(r[1]) for r in await self._pragma(f"table_info('{name}')")}
        for kind, name, wanted in expected_schema(version):
            if (kind, name) not in have:
                problem = f"its {kind} {name} is missing"
            elif kind == "table" and not wanted <= columns[name]:
                problem = f"its table {name} lacks {', '.join(sorted(wanted - columns[name]))}"
            else:
                continue
            raise StoreError(
                f"{self.path} is not a usable Agora database ({problem}, for schema version {version}); "
                "restore it from a backup or point --db at another file"
            )

    async def close(self) -> None:
        """Wait for pending writes, fold the write-ahead log into the file, then close the connection.

        A clean close leaves the file in rollback-journal mode with no -wal beside it, so the file alone
        holds every committed write (copying it is a whole backup); a file whose header still says WAL has
        not been closed cleanly, and needs its -wal (see `wal_missing`). If another connection holds the
        file (a backup reading it), the WAL stays and SQLite keeps both files consistent.
        """
        if self._flusher is not None:
            await asyncio.gather(self._flusher, return_exceptions=True)
        if self._db is not None and self._wal:
            self._wal = False
            try:
                await self._pragma("busy_timeout = 100")  # others on it: WAL stays
                await self._pragma("wal_checkpoint(TRUNCATE)")
                mode = await self._pragma("journal_mode = DELETE")
                if str(mode[0][0]).lower() not in ("delete", "memory"):
                    raise sqlite3.OperationalError(f"the journal mode stays {mode[0][0]}")
            except sqlite3.Error as e:  # busy or read-only: the WAL stays, and with it every write
                log.info("%s: the write-ahead log stays beside the file (%s)", self.path, e)
        if self._db is not None:
            await self._call(self._db.raw.close)
            self._db = None
        self._stop_worker()

    @property
    def connection(self) -> SqliteConnection:
        """The open connection."""
        if self._db is None:
            raise StoreError("the store is not open")
        return self._db

    @property
    def db(self) -> Raw:
        """Plain SQL on the open connection, in the store's thread."""
        self.connection  # noqa: B018 - "the store is not open" when it is not
        return Raw(self)

    async def schema_version(self) -> int:
        """The database's schema version (0 for a new file)."""
        return int((await self._pragma("user_version"))[0][0])

    async def migrate(self, target: int = LATEST) -> list[int]:
        """Apply the migrations above the current version up to target; the versions applied."""
        current = await self.schema_version()
        if current > LATEST:
            raise StoreError(
                f"{self.path} has schema version {current}, newer than this Agora knows ({LATEST}); "
                "upgrade Agora before using this database"
            )
        applied = []
        for version, _title, statements in MIGRATIONS:
            if current < version <= target:
                await self._write(functools.partial(_migration, version, statements))
                applied.append(version)
        return applied

    # --- reads and the write path ----------------------------------------------------------------------
    async def _read(self, fn: Work[T]) -> T:
        """fn(connection) in the store's thread."""
        connection = self.connection
        return await self._call(lambda: run_now(fn(connection)))

    async def _write(self, fn: Work[T], *, alone: bool = False, slow: bool = False) -> T:
        """fn(connection) in a committed transaction (with the writes queued beside it); its result, or its
        exception."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.append((fn, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.get_running_loop().create_task(self._flush())
        try:
            result = await future
        except (sqlite3.OperationalError, StoreError) as e:  # in the write, or in its batch's commit
            outage = self._outage(e.__cause__ if isinstance(e, StoreError) else e)
            if outage is None:
                raise
            raise outage from e
        self.outage.ok()
        return result

    def _outage(self, error: BaseException | None) -> StoreError | None:
        """The outage error for a failure of SQLite itself (noted in the outage tracker), or None: DiskFull
        for a full disk, StoreUnavailable for a file locked by another process past busy_timeout."""
        text = str(error).lower()
        found: StoreError | None = None
        if isinstance(error, sqlite3.OperationalError) and "full" in text:
            found = DiskFull(str(error))
        elif isinstance(error, sqlite3.OperationalError) and ("locked" in text or "busy" in text):
            found = StoreUnavailable(f"{error} (by another process, past busy_timeout)")
        if found is not None:
            self.outage.failed(found)
        return found

    async def _flush(self) -> None:
        """Commit queued writes, batch after batch, until the queue is empty."""
        while self._queue:
            batch, self._queue = self._queue, []
            try:
                outcomes = await self._call(functools.partial(self._commit_batch, [fn for fn, _ in batch]))
            except BaseException as e:  # the commit itself failed: nobody's write is durable
                for _, future in batch:
                    if not future.done():
                        failure = StoreError(f"the database write failed: {e}")
                        failure.__cause__ = e
                        future.set_exception(failure)
                if isinstance(e, asyncio.CancelledError):
                    raise
                continue
            for (_, future), (ok, value) in zip(batch, outcomes, strict=True):
                if future.done():
                    continue
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(value)

    def _commit_batch(self, fns: list[Work[Any]]) -> list[tuple[bool, Any]]:
        """In the store's thread: one transaction, a savepoint per write, one commit."""
        connection = self.connection
        conn = connection.raw
        outcomes: list[tuple[bool, Any]] = []
        conn.execute("BEGIN IMMEDIATE")
        try:
            for fn in fns:
                conn.execute("SAVEPOINT w")
                try:
                    outcomes.append((True, run_now(fn(connection))))
                except Exception as e:
                    conn.execute("ROLLBACK TO w")
                    outcomes.append((False, e))
                conn.execute("RELEASE w")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        self.commits += 1
        return outcomes


def _settle(future: asyncio.Future[Any], outcome: tuple[bool, Any]) -> None:
    """Answer a caller of the store's thread (unless it stopped waiting)."""
    if future.done():
        return
    ok, value = outcome
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


async def _migration(version: int, statements: tuple[str, ...], c: Connection) -> None:
    """One migration's statements, the data its new tables start with, and the new user_version."""
    for sql in statements:
        await c.execute(sql)
    if version in AFTER_MIGRATION:
        await AFTER_MIGRATION[version](c)
    await c.execute(f"PRAGMA user_version = {version}")


# --- backups and the write-ahead log -------------------------------------------------------------------
def wal_missing(path: Path) -> bool:
    """Whether a SQLite file was left in WAL mode (not closed cleanly: its latest writes may be in its
    -wal) and that -wal is not beside it, so the file alone may lack committed writes."""
    with path.open("rb") as f:
        header = f.read(100)
    in_wal = header.startswith(SQLITE_HEADER) and len(header) >= 20 and header[18] == header[19] == 2
    return in_wal and not Path(f"{path}-wal").exists()


@dataclass(frozen=True, slots=True)
class Backup:
    """What a backup holds."""

    matches: int
    moves: int
    size: int  # bytes


def backup(source: Path, target: Path, *, force: bool = False) -> Backup:
    """Copy the SQLite database `source` (with its write-ahead log, while the bot runs and writes) to
    `target` with SQLite's online backup API: one consistent snapshot, checked, left in rollback-journal
    mode so the one file holds everything. StoreError (one line) if it cannot be made; an existing target
    is replaced only with `force`, and only once the copy is complete."""
    if not source.is_file():
        raise StoreError(f"there is no SQLite file at {source}")
    with source.open("rb") as f:
        if f.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
            raise StoreError(f"{source} is not a SQLite database")
    if target.resolve() == source.resolve():
        raise StoreError("the backup must go to another file than the database itself")
    if target.exists() and not force:
        raise StoreError(f"{target} exists already; choose another file, or add --force to replace it")
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    try:
        with (
            contextlib.closing(sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)) as src,
            contextlib.closing(sqlite3.connect(partial, isolation_level=None)) as dst,
        ):
            src.backup(dst)  # one step: one read snapshot of the whole database, writers go on meanwhile
            dst.execute("PRAGMA journal_mode = DELETE")
            problems = [str(r[0]) for r in dst.execute("PRAGMA quick_check").fetchall()]
            if problems != ["ok"]:
                raise StoreError(f"the copy of {source} is damaged ({problems[0]}); {source} may be too")
            try:
                matches = int(dst.execute("SELECT count(*) FROM matches").fetchone()[0])
                moves = int(dst.execute("SELECT count(*) FROM actions").fetchone()[0])
            except sqlite3.OperationalError:
                raise StoreError(f"{source} is not an Agora database (it has no games table)") from None
        with partial.open("rb") as f:
            os.fsync(f.fileno())
        if force:
            os.replace(partial, target)
        else:
            _place(partial, target)
        return Backup(matches, moves, target.stat().st_size)
    except FileExistsError:
        raise StoreError(f"{target} exists already; choose another file, or add --force") from None
    except sqlite3.Error as e:
        raise StoreError(f"cannot back up {source}: {e}") from None
    except OSError as e:
        raise StoreError(f"cannot write the backup {target}: {e.strerror or e}") from None
    finally:
        partial.unlink(missing_ok=True)


def _place(partial: Path, target: Path) -> None:
    """Move the finished copy to `target` unless a file is there (FileExistsError): a hard link where the
    file system has them (atomic: never overwrites), else a check and a rename."""
    try:
        os.link(partial, target)
    except FileExistsError:
        raise
    except OSError:  # no hard links here
        if target.exists():
            raise FileExistsError(target) from None
        os.replace(partial, target)
