"""The few ways every query of the store is run (bot/store/sql.py has the logic; a backend gives `_read` and
`_write`), shared by the store's parts (its matches, its tournaments)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from bot.store.base import Shards
from bot.store.dialect import Connection, Dialect, Row

T = TypeVar("T")
R = TypeVar("R")
Work = Callable[[Connection], Coroutine[Any, Any, T]]


class Queries(ABC):
    """Reads and writes as SQL over a Connection."""

    dialect: Dialect

    @abstractmethod
    async def _read(self, fn: Work[T]) -> T:
        """fn(connection) for reads (each statement its own snapshot)."""

    @abstractmethod
    async def _write(self, fn: Work[T], *, alone: bool = False, slow: bool = False) -> T:
        """fn(connection) in a transaction, answered after its commit: its result, or its exception.
        `alone`: fn runs one statement (its own transaction); `slow`: it may take as long as a migration."""

    async def _fetch(self, sql: str, /, **params: Any) -> list[Row]:
        """The rows of one query."""
        return await self._read(lambda c: c.fetch(sql, **params))

    async def _records(self, record: Callable[[Row], R], sql: str, /, **params: Any) -> list[R]:
        """The rows of one query, each read into a record."""
        return [record(r) for r in await self._fetch(sql, **params)]

    async def _record(self, record: Callable[[Row], R], sql: str, /, **params: Any) -> R | None:
        """The first row of one query read into a record, or None if it has none."""
        rows = await self._fetch(sql, **params)
        return record(rows[0]) if rows else None

    async def _change(self, sql: str, /, **params: Any) -> int:
        """One committed statement; how many rows it changed."""
        return await self._write(lambda c: c.execute(sql, **params), alone=True)

    def _of_shards(self, shards: Shards | None) -> tuple[str, dict[str, Any]]:
        """An AND clause keeping the matches of these shards' guilds ("" for all) and its parameters."""
        if shards is None:
            return "", {}
        where = " AND " + self.dialect.among(
            "((COALESCE(guild_id, 0) >> 22) % :shard_count)", "shard_ids", "bigint"
        )
        return where, {"shard_count": shards.count, "shard_ids": self.dialect.array(sorted(shards.ids))}
