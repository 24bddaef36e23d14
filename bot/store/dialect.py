"""What the store logic (bot/store/sql.py) asks of a backend: a connection it runs queries on, and the few
places where SQLite's and PostgreSQL's SQL differ.

Every query is one SQL text with `:name` parameters, translated once (cached) to SQLite's `?` and to
PostgreSQL's `$1`, `$2`, ... Where the two dialects really differ (a case-insensitive name, a
list parameter, binary ordering), the text asks its dialect for the fragment.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Coroutine, Sequence
from typing import Any, Protocol, TypeVar

T = TypeVar("T")
Row = Sequence[Any]  # a sqlite3 row tuple or an asyncpg Record: both index and unpack


class Taken(Exception):
    """A write broke a unique constraint; `what` names it (the constraint or the database's message)."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


class Dialect:
    """SQLite's SQL (the default); PostgreSQL's differs in a few fragments (PostgresDialect)."""

    name = "sqlite"
    # One statement can update a match and insert its log row (a data-modifying WITH): not on SQLite.
    writes_in_with = False

    def fold(self, text: str) -> str:
        """A name compared without the case of ASCII letters (SQLite: the column's COLLATE NOCASE)."""
        return text

    def binary(self, column: str) -> str:
        """A column ordered by its bytes (SQLite's default collation)."""
        return column

    def among(self, expr: str, param: str, kind: str) -> str:
        """`expr` is one of the list parameter `param` (its values: `array`), of SQL type `kind`."""
        return f"{expr} IN (SELECT value FROM json_each(:{param}))"

    def array(self, values: Sequence[Any]) -> Any:
        """A list as the value of an `among` parameter."""
        return json.dumps(list(values))

    def indexed_by(self, index: str) -> str:
        """Read through this index (SQLite's planner may not pick a partial index itself)."""
        return f" INDEXED BY {index}"


class PostgresDialect(Dialect):
    """PostgreSQL: nocase() for names (a function of the schema), arrays for lists, "C" for byte order."""

    name = "postgres"
    writes_in_with = True

    def fold(self, text: str) -> str:
        """A name compared without the case of ASCII letters."""
        return f"nocase({text})"

    def binary(self, column: str) -> str:
        """A column ordered by its bytes, as SQLite orders it."""
        return f'{column} COLLATE "C"'

    def among(self, expr: str, param: str, kind: str) -> str:
        """`expr` is one of the array parameter `param`."""
        return f"{expr} = ANY(:{param}::{kind}[])"

    def array(self, values: Sequence[Any]) -> Any:
        """A list as an array parameter."""
        return list(values)

    def indexed_by(self, index: str) -> str:
        """PostgreSQL's planner picks the index itself."""
        return ""


SQLITE = Dialect()
POSTGRES = PostgresDialect()

_NAME = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")  # :name, but not a ::cast


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> tuple[str, tuple[str, ...]]:
    """A `:name` query as PostgreSQL's `$n` text, and the names in the order of their numbers."""
    names: list[str] = []

    def number(found: re.Match[str]) -> str:
        if found[1] not in names:
            names.append(found[1])
        return f"${names.index(found[1]) + 1}"

    return _NAME.sub(number, sql), tuple(names)


@functools.lru_cache(maxsize=1024)
def marked(sql: str) -> tuple[str, tuple[str, ...]]:
    """A `:name` query as SQLite's `?` text, and the name of each `?` in order (bound by position: faster
    than sqlite3's own binding by name, on the move path)."""
    names: list[str] = []

    def mark(found: re.Match[str]) -> str:
        names.append(found[1])
        return "?"

    return _NAME.sub(mark, sql), tuple(names)


class Connection(Protocol):
    """A connection inside the transaction of one store call."""

    @property
    def dialect(self) -> Dialect:
        """The SQL this connection speaks."""
        ...

    async def execute(self, sql: str, /, **params: Any) -> int:
        """Run one statement; how many rows it changed. Taken if it breaks a unique constraint."""
        ...

    async def executemany(self, sql: str, rows: list[dict[str, Any]], /) -> None:
        """Run one statement once per row of parameters."""
        ...

    async def fetch(self, sql: str, /, **params: Any) -> list[Row]:
        """The rows of a query."""
        ...

    async def fetchval(self, sql: str, /, **params: Any) -> Any:
        """The first column of a query's first row (None if it has none)."""
        ...

    async def lock(self, name: str, *, shared: bool = False) -> None:
        """Hold a lock on `name` until the transaction ends (a no-op where there is one writer)."""
        ...


def run_now(work: Coroutine[Any, Any, T]) -> T:
    """Run to its end, in this thread, a coroutine that never waits (the store logic on a SQLite connection,
    whose calls answer at once)."""
    try:
        work.send(None)
    except StopIteration as done:
        result: T = done.value
        return result
    work.close()
    raise RuntimeError("the store logic waited on something other than its SQLite connection")
