"""Storage for matches, action logs, results and guild settings (SQLite by default)."""

from __future__ import annotations

from bot.store.base import (
    ABANDONED,
    ACTIVE,
    BROKEN,
    FINISHED,
    LIVE_STATUSES,
    LOBBY,
    BoardRecord,
    Conflict,
    DeckRecord,
    LeaderRow,
    LogRow,
    MatchRecord,
    MatchSummary,
    NewMatch,
    PackRecord,
    RatingChange,
    RatingRow,
    RatingsRebuilt,
    ResultRow,
    Seat,
    StateUpdate,
    Store,
    StoreError,
    UserStats,
)
from bot.store.sqlite import SqliteStore

__all__ = [
    "ABANDONED",
    "ACTIVE",
    "BROKEN",
    "FINISHED",
    "LIVE_STATUSES",
    "LOBBY",
    "BoardRecord",
    "Conflict",
    "DeckRecord",
    "LeaderRow",
    "LogRow",
    "MatchRecord",
    "MatchSummary",
    "NewMatch",
    "PackRecord",
    "RatingChange",
    "RatingRow",
    "RatingsRebuilt",
    "ResultRow",
    "Seat",
    "SqliteStore",
    "StateUpdate",
    "Store",
    "StoreError",
    "UserStats",
    "open_store",
]


def open_store(url: str, synchronous: str = "FULL") -> Store:
    """A store for a URL or path: "sqlite:///path.db" or a plain path (PostgreSQL can be added here)."""
    if url.startswith("sqlite:///"):
        url = url[len("sqlite:///") :]
    elif "://" in url:
        raise ValueError(f"unsupported store URL {url!r}; use a SQLite file path")
    return SqliteStore(url, synchronous)
