"""Storage for matches, action logs, results and guild settings (SQLite by default)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.store.base import (
    ABANDONED,
    ACTIVE,
    ALL_SHARDS,
    ANSWER_BY,
    BROKEN,
    CANCELLED,
    DONE,
    FINISHED,
    LIVE_STATUSES,
    LOBBY,
    PAUSED,
    RUNNING,
    SIGNUP,
    TOURNAMENT_LIVE,
    BoardRecord,
    Conflict,
    DeckRecord,
    DiskFull,
    EntrantRecord,
    LeaderRow,
    LogRow,
    MatchRecord,
    MatchSummary,
    NewMatch,
    NewTournament,
    Outage,
    PackRecord,
    RatingChange,
    RatingRow,
    RatingsRebuilt,
    ResultRow,
    Seat,
    Shards,
    StateUpdate,
    StoreError,
    StoreUnavailable,
    TableKey,
    TableRecord,
    TournamentRecord,
    UserStats,
    outage_backoff,
)
from bot.store.sql import Store
from bot.store.sqlite import SqliteStore

if TYPE_CHECKING:
    from bot.store.postgres import PostgresStore

__all__ = [
    "ABANDONED",
    "ACTIVE",
    "ALL_SHARDS",
    "ANSWER_BY",
    "BROKEN",
    "CANCELLED",
    "DONE",
    "FINISHED",
    "LIVE_STATUSES",
    "LOBBY",
    "PAUSED",
    "RUNNING",
    "SIGNUP",
    "TOURNAMENT_LIVE",
    "BoardRecord",
    "Conflict",
    "DeckRecord",
    "DiskFull",
    "EntrantRecord",
    "LeaderRow",
    "LogRow",
    "MatchRecord",
    "MatchSummary",
    "NewMatch",
    "NewTournament",
    "Outage",
    "PackRecord",
    "PostgresStore",
    "RatingChange",
    "RatingRow",
    "RatingsRebuilt",
    "ResultRow",
    "Seat",
    "Shards",
    "SqliteStore",
    "StateUpdate",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "TableKey",
    "TableRecord",
    "TournamentRecord",
    "UserStats",
    "open_store",
    "outage_backoff",
]


POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def open_store(url: str, synchronous: str = "FULL", *, pool_size: int | None = None) -> Store:
    """A store for a URL or path: "postgresql://..." (a pool of pool_size connections: None, env
    AGORA_DB_POOL or 10), or SQLite at "sqlite:///path.db" or a plain path (synchronous: its PRAGMA)."""
    if url.startswith(POSTGRES_SCHEMES):
        from bot.store.postgres import PostgresStore  # asyncpg is loaded only by who uses it

        return PostgresStore(url, pool_size=pool_size)
    if url.startswith("sqlite:///"):
        url = url[len("sqlite:///") :]
    elif "://" in url:
        raise ValueError(f"unsupported store URL {url!r}; use a SQLite file path or a postgresql:// URL")
    return SqliteStore(url, synchronous)


def __getattr__(name: str) -> Any:
    """PostgresStore, imported on first use (a SQLite bot never loads asyncpg)."""
    if name == "PostgresStore":
        from bot.store.postgres import PostgresStore

        return PostgresStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
