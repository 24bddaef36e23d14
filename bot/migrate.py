"""`python -m bot migrate --from agora.db --to postgresql://…`: move a SQLite database into PostgreSQL.

The SQLite file is read through SQLite, with its write-ahead log (`agora.db-wal`, which holds the latest
moves until the bot stops cleanly): a file left in WAL mode without its -wal beside it (copied alone) is
refused, since it may lack acknowledged moves; `agora backup` makes a whole copy. The file is checked
(read-only) and migrated to the latest schema; the PostgreSQL database must be
empty and is brought to the same schema version by its own migrations (through `open_store`). Then every
table is copied in one PostgreSQL transaction, the identity of matches.id is moved past the last id, and
both sides are read back: per table, the row count and a SHA-256 over the rows in primary-key order. The
command succeeds only when every count and checksum matches. A migration that must not start (a target
that holds data, a file that is not Agora's, a schema version mismatch) is refused in one line, with
nothing written anywhere.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import asyncpg

from bot.store import StoreError, open_store, pg_migrations
from bot.store import migrations as sqlite_migrations
from bot.store.migrations import expected_schema
from bot.store.sqlite import SQLITE_HEADER, wal_missing
from bot.terminal import command
from engine.table.present import plural

BATCH = 5_000  # rows per COPY (and per read from SQLite)
PG_ONLY = frozenset({"schema_version"})  # PostgreSQL's own bookkeeping, not copied
NUL_SHOWN = "\ufffd"  # what a NUL in SQLite text becomes in PostgreSQL, which cannot store NUL


class Refused(StoreError):
    """A migration that must not start; nothing has been written."""


@dataclass(frozen=True, slots=True)
class Table:
    """One table to copy: its columns (SQLite's order), PostgreSQL types and the key rows are ordered by."""

    name: str
    columns: tuple[str, ...]
    types: tuple[str, ...]  # PostgreSQL data types, as information_schema names them
    key: tuple[str, ...]  # the primary key (every column if the table has none)

    def sqlite_select(self) -> str:
        """The SQLite query of every row in key order (text compared byte by byte)."""
        order = ", ".join(f'"{c}" COLLATE BINARY' for c in self.key)
        return f'SELECT {_names(self.columns)} FROM "{self.name}" ORDER BY {order}'

    def postgres_select(self) -> str:
        """The PostgreSQL query of every row in the same order as sqlite_select."""
        types = dict(zip(self.columns, self.types, strict=True))
        order = ", ".join(
            f'"{c}"' + (' COLLATE "C"' if types[c] == "text" else "") + " NULLS FIRST" for c in self.key
        )
        return f'SELECT {_names(self.columns)} FROM "{self.name}" ORDER BY {order}'


@dataclass(frozen=True, slots=True)
class TableCheck:
    """One table's row count and checksum on each side."""

    table: str
    sqlite_rows: int
    postgres_rows: int
    sqlite_sum: str
    postgres_sum: str

    @property
    def ok(self) -> bool:
        """Whether both sides hold the same rows."""
        return self.sqlite_rows == self.postgres_rows and self.sqlite_sum == self.postgres_sum


def _names(columns: Iterable[str]) -> str:
    return ", ".join(f'"{c}"' for c in columns)


def shown(url: str) -> str:
    """A database URL without its password, to print."""
    return re.sub(r"://([^:/@]*):[^@/]+@", r"://\1:***@", url)


# --- checking both sides before anything is written ---------------------------------------------------
def sqlite_path(source: str) -> Path:
    """The SQLite file a --from names (a path or sqlite:///path)."""
    if source.startswith("sqlite:///"):
        return Path(source[len("sqlite:///") :])
    if "://" in source:
        raise Refused(f"--from takes the bot's SQLite file (a path), not {shown(source)}")
    return Path(source)


def check_source(path: Path) -> int:
    """The schema version of an Agora SQLite file, read without writing; Refused if it is not one this
    version can migrate (missing, not SQLite, damaged, not Agora's, or of a newer schema)."""
    if not path.is_file():
        raise Refused(f"there is no SQLite file at {path}")
    with path.open("rb") as f:
        if f.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
            raise Refused(f"{path} is not a SQLite database")
    if wal_missing(path):
        raise Refused(
            f"{path} is in WAL mode but its {path.name}-wal is not beside it, so its latest moves may be "
            f"missing (was it copied alone, while the bot ran or after it was killed?); copy the bot's "
            f"database with `{command()} backup --db FILE --to COPY` and migrate COPY"
        )
    try:
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as e:
        raise Refused(f"cannot open {path}: {e}") from None
    try:
        version = int(con.execute("PRAGMA user_version").fetchone()[0])
        if version == 0:
            raise Refused(f"{path} is not an Agora database (it has no Agora schema version)")
        if version > sqlite_migrations.LATEST:
            raise Refused(
                f"{path} has schema version {version}, newer than this Agora knows "
                f"({sqlite_migrations.LATEST}); upgrade Agora first"
            )
        problems = [str(r[0]) for r in con.execute("PRAGMA quick_check").fetchall()]
        if problems != ["ok"]:
            raise Refused(f"{path} is damaged ({problems[0]}); restore it from a backup first")
        have = {(str(k), str(n)) for k, n in con.execute("SELECT type, name FROM sqlite_master")}
        for kind, name, _columns in expected_schema(version):
            if (kind, name) not in have:
                raise Refused(f"{path} is not an Agora database (its {kind} {name} is missing)")
        return version
    except sqlite3.DatabaseError as e:
        raise Refused(f"{path} is damaged or not an Agora database ({e})") from None
    finally:
        con.close()


async def check_target(conn: asyncpg.Connection, url: str) -> None:
    """Refused unless the PostgreSQL database is empty of Agora data and not of a newer schema."""
    tables = await _pg_tables(conn)
    if "schema_version" in tables:
        version = await conn.fetchval("SELECT version FROM schema_version")
        if version is not None and version > pg_migrations.LATEST:
            raise Refused(
                f"{shown(url)} has schema version {version}, newer than this Agora knows "
                f"({pg_migrations.LATEST}); upgrade Agora first"
            )
    if "matches" in tables:
        games = await conn.fetchval("SELECT count(*) FROM matches")
        if games:
            held = plural(games, "game")
            raise Refused(f"{shown(url)} already holds {held}; migrate into an empty database")
    for table in sorted(tables - PG_ONLY):
        if await conn.fetchval(f'SELECT EXISTS (SELECT 1 FROM "{table}")'):
            raise Refused(f"{shown(url)} already holds data (table {table}); migrate into an empty database")


async def _pg_tables(conn: asyncpg.Connection) -> set[str]:
    rows = await conn.fetch(
        "SELECT table_name FROM information_schema.tables "
        "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
    )
    return {r["table_name"] for r in rows}


# --- the plan: SQLite's tables, PostgreSQL's types ------------------------------------------------------
def sqlite_tables(con: sqlite3.Connection) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    """(name, columns, primary key) of every Agora table of a SQLite file."""
    found = []
    names = con.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
    ).fetchall()
    for (name,) in names:
        info = con.execute(f"PRAGMA table_info('{name}')").fetchall()
        columns = tuple(str(r[1]) for r in info)
        key = tuple(str(r[1]) for r in sorted((r for r in info if r[5]), key=lambda r: r[5]))
        found.append((str(name), columns, key or columns))
    return found


async def plan(con: sqlite3.Connection, conn: asyncpg.Connection) -> list[Table]:
    """The tables to copy, parents before the tables that reference them; Refused if PostgreSQL's schema
    lacks a table or column that SQLite has."""
    rows = await conn.fetch(
        "SELECT table_name, column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = current_schema()"
    )
    types: dict[str, dict[str, str]] = {}
    for r in rows:
        types.setdefault(r["table_name"], {})[r["column_name"]] = r["data_type"]
    tables = []
    for name, columns, key in sqlite_tables(con):
        have = types.get(name)
        if have is None:
            raise Refused(f"the PostgreSQL schema has no table {name} (a schema version mismatch)")
        missing = [c for c in columns if c not in have]
        if missing:
            raise Refused(
                f"the PostgreSQL table {name} lacks {', '.join(missing)} (a schema version mismatch)"
            )
        tables.append(Table(name, columns, tuple(have[c] for c in columns), key))
    parents = await conn.fetch(
        "SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent "
        "FROM pg_constraint c WHERE c.contype = 'f'"
    )
    depth: dict[str, int] = {}

    def level(table: str, seen: frozenset[str] = frozenset()) -> int:
        if table not in depth:
            ups = [r["parent"] for r in parents if r["child"] == table and r["parent"] not in seen | {table}]
            depth[table] = 1 + max((level(p, seen | {table}) for p in ups), default=-1)
        return depth[table]

    return sorted(tables, key=lambda t: (level(t.name), t.name))


_INTS = frozenset({"bigint", "integer", "smallint"})
_FLOATS = frozenset({"double precision", "real", "numeric"})


def converter(pg_type: str) -> Callable[[Any], Any]:
    """A SQLite value as the Python value PostgreSQL's column takes; TypeError if it cannot be one."""

    def convert(value: Any) -> Any:
        if value is None:
            return None
        if pg_type in _INTS and isinstance(value, int):
            return value
        if pg_type in _FLOATS and isinstance(value, int | float):
            return float(value)
        if pg_type == "boolean" and isinstance(value, int):
            return bool(value)
        if pg_type == "text" and isinstance(value, str):
            return value.replace("\x00", NUL_SHOWN)  # PostgreSQL text cannot hold NUL (see nul_columns)
        raise TypeError(f"{value!r:.40} is not a {pg_type}")

    return convert


def nul_columns(con: sqlite3.Connection, tables: list[Table]) -> list[str]:
    """The text columns holding a NUL character (text stored before names and texts were checked), which
    PostgreSQL refuses: "packs.name (1 row)". The copy replaces each NUL with U+FFFD, and says so."""
    found = []
    for t in tables:
        for column, pg_type in zip(t.columns, t.types, strict=True):
            if pg_type == "text":
                sql = f'SELECT count(*) FROM "{t.name}" WHERE instr(CAST("{column}" AS BLOB), x\'00\') > 0'
                if rows := con.execute(sql).fetchone()[0]:
                    found.append(f"{t.name}.{column} ({plural(rows, 'row')})")
    return found


class Digest:
    """A running row count and SHA-256 over rows, each as canonical JSON on its own line."""

    def __init__(self) -> None:
        self.rows = 0
        self._sha = hashlib.sha256()

    def add(self, row: Iterable[Any]) -> None:
        """Count and hash one row (booleans hashed as 0/1, as SQLite stores them)."""
        values = [int(v) if isinstance(v, bool) else v for v in row]
        self._sha.update(json.dumps(values, ensure_ascii=False, separators=(",", ":")).encode())
        self._sha.update(b"\n")
        self.rows += 1

    def hexdigest(self) -> str:
        """The checksum so far."""
        return self._sha.hexdigest()


# --- copying and comparing ----------------------------------------------------------------------------
async def copy_tables(
    con: sqlite3.Connection, conn: asyncpg.Connection, tables: list[Table]
) -> dict[str, Digest]:
    """Copy every table (inside the caller's transaction, from one SQLite read snapshot); each table's
    count and checksum of the rows as read from SQLite."""
    names = ", ".join(f'"{t.name}"' for t in tables)
    await conn.execute(f"LOCK TABLE {names} IN SHARE ROW EXCLUSIVE MODE")  # no bot writes meanwhile
    for t in tables:  # checked again under the lock: nothing arrived since check_target
        if await conn.fetchval(f'SELECT EXISTS (SELECT 1 FROM "{t.name}")'):
            raise Refused(f"the target's table {t.name} is no longer empty (is a bot running on it?)")
    digests = {}
    for t in tables:
        digest = digests[t.name] = Digest()
        converts = [converter(ty) for ty in t.types]
        cursor = con.execute(t.sqlite_select())
        while batch := cursor.fetchmany(BATCH):
            records = []
            for row in batch:
                try:
                    record = tuple(f(v) for f, v in zip(converts, row, strict=True))
                except TypeError as e:
                    raise StoreError(f"cannot copy a row of {t.name}: {e}") from None
                digest.add(record)
                records.append(record)
            await conn.copy_records_to_table(t.name, records=records, columns=list(t.columns))
    return digests


async def reset_identities(con: sqlite3.Connection, conn: asyncpg.Connection, tables: list[Table]) -> None:
    """Move each identity column's sequence (matches.id) past the last id SQLite ever gave out."""
    rows = await conn.fetch(
        "SELECT table_name, column_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND (is_identity = 'YES' OR column_default LIKE 'nextval(%')"
    )
    copied = {t.name for t in tables}
    for r in rows:
        table, column = r["table_name"], r["column_name"]
        if table not in copied:
            continue
        last = await conn.fetchval(f'SELECT COALESCE(max("{column}"), 0) FROM "{table}"')
        try:
            given = con.execute("SELECT seq FROM sqlite_sequence WHERE name = ?", (table,)).fetchone()
        except sqlite3.OperationalError:  # no AUTOINCREMENT table in the file
            given = None
        last = max(last, int(given[0]) if given else 0)
        await conn.execute(
            "SELECT setval(pg_get_serial_sequence($1, $2), $3, $4)", table, column, max(last, 1), last > 0
        )


async def read_back(conn: asyncpg.Connection, tables: list[Table]) -> dict[str, Digest]:
    """Each table's count and checksum as PostgreSQL now holds it (one consistent snapshot)."""
    digests = {}
    async with conn.transaction(isolation="repeatable_read", readonly=True):
        for t in tables:
            digest = digests[t.name] = Digest()
            async for row in conn.cursor(t.postgres_select(), prefetch=BATCH):
                digest.add(tuple(row))
    return digests


def sqlite_digests(con: sqlite3.Connection, tables: list[Table]) -> dict[str, Digest]:
    """Each table's count and checksum as the SQLite file holds it, converted to PostgreSQL's types."""
    digests = {}
    for t in tables:
        digest = digests[t.name] = Digest()
        converts = [converter(ty) for ty in t.types]
        for row in con.execute(t.sqlite_select()):
            digest.add(tuple(f(v) for f, v in zip(converts, row, strict=True)))
    return digests


def report(checks: list[TableCheck], out: TextIO) -> None:
    """Print the comparison table."""
    header = ["table", "SQLite rows", "PostgreSQL rows", "SQLite SHA-256", "PostgreSQL SHA-256", ""]
    rows = [
        [c.table, f"{c.sqlite_rows:,}", f"{c.postgres_rows:,}", c.sqlite_sum[:16], c.postgres_sum[:16],
         "ok" if c.ok else "DIFFERENT"]
        for c in checks
    ]  # fmt: skip
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    for line in [header, ["-" * w for w in widths], *rows]:
        out.write("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip() + "\n")


# --- the command ---------------------------------------------------------------------------------------
async def migrate(source: str, target: str, out: TextIO | None = None) -> int:
    """Copy the SQLite database `source` into the empty PostgreSQL database `target`; 0 if every table's
    count and checksum matches, 1 if not. Refused (nothing written) if it must not start."""
    out = out or sys.stdout
    if not target.startswith(("postgresql://", "postgres://")):
        raise Refused(f"--to takes a PostgreSQL URL (postgresql://user:password@host/database), not {target}")
    path = sqlite_path(source)
    check_source(path)
    if sqlite_migrations.LATEST != pg_migrations.LATEST:
        raise Refused(
            f"this Agora's SQLite schema is version {sqlite_migrations.LATEST} but its PostgreSQL schema is "
            f"version {pg_migrations.LATEST}; use a release where they match"
        )
    conn = await _connect(target)
    try:
        await check_target(conn, target)
        for url in (str(path), target):  # each side's own migrations, up to the latest
            async with open_store(url):
                pass
        con = sqlite3.connect(path, isolation_level=None)
        try:
            sqlite_version = int(con.execute("PRAGMA user_version").fetchone()[0])
            pg_version = await conn.fetchval("SELECT version FROM schema_version")
            if sqlite_version != pg_version:
                raise Refused(f"schema version mismatch: SQLite {sqlite_version}, PostgreSQL {pg_version}")
            tables = await plan(con, conn)
            if nul := nul_columns(con, tables):
                out.write(f"PostgreSQL cannot store NUL: each becomes U+FFFD in {', '.join(nul)}.\n")
            con.execute("BEGIN")  # one read snapshot of the file for the copy
            try:
                async with conn.transaction():
                    copied = await copy_tables(con, conn, tables)
                    await reset_identities(con, conn, tables)
            except asyncpg.PostgresError as e:
                raise StoreError(f"PostgreSQL refused the copy, so nothing was copied: {e}") from None
            con.execute("COMMIT")
            source_sums = sqlite_digests(con, tables)  # read again, after PostgreSQL committed
        finally:
            con.close()
        target_sums = await read_back(conn, tables)
    finally:
        await conn.close()
    checks = [
        TableCheck(
            t.name,
            source_sums[t.name].rows,
            target_sums[t.name].rows,
            source_sums[t.name].hexdigest(),
            target_sums[t.name].hexdigest(),
        )
        for t in tables
    ]
    report(sorted(checks, key=lambda c: c.table), out)
    total = sum(c.postgres_rows for c in checks)
    games = target_sums["matches"].rows if "matches" in target_sums else 0
    moves = target_sums["actions"].rows if "actions" in target_sums else 0
    unchanged = all(copied[t.name].hexdigest() == source_sums[t.name].hexdigest() for t in tables)
    if all(c.ok for c in checks) and unchanged:
        out.write(
            f"Copied {len(checks)} tables ({total:,} rows: {plural(games, 'game')}, {plural(moves, 'move')}) "
            f"from {path} (with its write-ahead log) into "
            f"{shown(target)} at schema version {pg_version}: every count and checksum matches.\n"
        )
        return 0
    out.write(
        "The copy differs from the SQLite file (see DIFFERENT above; was the bot still running on it?). "
        "Empty the PostgreSQL database and run the migration again with the bot stopped.\n"
    )
    return 1


async def _connect(url: str) -> asyncpg.Connection:
    """A connection to the target; Refused (one line) if it cannot be reached."""
    try:
        return await asyncpg.connect(url)
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
        raise Refused(f"cannot connect to {shown(url)}: {e}") from None
