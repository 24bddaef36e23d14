"""The embedded store: aiosqlite in WAL mode, one transaction per action."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot import ratings
from bot.store.base import (
    ACTIVE,
    JSON,
    LIVE_STATUSES,
    LOBBY,
    BoardRecord,
    Conflict,
    DeckRecord,
    DiskFull,
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
    Shards,
    StateUpdate,
    Store,
    StoreError,
    StoreUnavailable,
    UserStats,
    seats_to_text,
)
from bot.store.migrations import LATEST, MIGRATIONS
from bot.store.rows import (
    BOARD_COLUMNS,
    CHANGE_COLUMNS,
    DECK_COLUMNS,
    LOG_COLUMNS,
    MATCH_COLUMNS,
    PACK_COLUMNS,
    RATING_COLUMNS,
    RESULT_COLUMNS,
    STATE_COLUMNS,
    SUMMARY_COLUMNS,
    SUMMARY_COLUMNS_OF_M,
    UNPOSTED_BOARDS,
    board_params,
    board_record,
    deck_record,
    finished,
    log_row,
    match_record,
    match_summary,
    pack_record,
    people,
    rating_change,
    rating_row,
    update_params,
)

SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")
SQLITE_HEADER = b"SQLite format 3\x00"
log = logging.getLogger(__name__)
T = TypeVar("T")
Write = Callable[[sqlite3.Connection], Any]


def _set_people(conn: sqlite3.Connection, match_id: int, seats: Iterable[Seat]) -> None:
    """Write who has a seat in a match (the match_people rows) to match its seats."""
    conn.execute("DELETE FROM match_people WHERE match_id = ?", (match_id,))
    conn.executemany(
        "INSERT INTO match_people (user_id, match_id) VALUES (?, ?)", [(p, match_id) for p in people(seats)]
    )


_SET_STATE = ", ".join(f"{column} = ?" for column in STATE_COLUMNS)


@functools.cache
def expected_schema(version: int) -> tuple[tuple[str, str, frozenset[str]], ...]:
    """The tables (with their columns) and indexes that the migrations up to `version` create."""
    con = sqlite3.connect(":memory:")
    try:
        for v, _title, statements in MIGRATIONS:
            if v <= version:
                for sql in statements:
                    con.execute(sql)
        rows = con.execute("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").fetchall()
        return tuple(
            (kind, name, frozenset(r[1] for r in con.execute(f"PRAGMA table_info('{name}')")))
            for kind, name in rows
        )
    finally:
        con.close()


class SqliteStore(Store):
    """aiosqlite on one connection in WAL mode, with group commit.

    Every write is a plain function run in the connection's own thread inside a transaction, in one
    hand-off (aiosqlite's thread queue is the slow part, about 0.15 ms per call on 2 cores). Writes that
    arrive while a commit is in progress are committed together in the next transaction, each inside its
    own savepoint (so one refused write does not undo the others) - one fsync for the whole batch. Each
    caller is answered only after the transaction holding its write has committed.
    """

    def __init__(self, path: str, synchronous: str = "FULL", *, target_version: int = LATEST) -> None:
        if synchronous.upper() not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {SYNCHRONOUS}")
        self.path = path
        self.synchronous = synchronous.upper()
        self.target_version = target_version  # tests build old databases with a lower target
        self._db: aiosqlite.Connection | None = None
        self._queue: list[tuple[Write, asyncio.Future[Any]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self.commits = 0  # transactions committed (a batch counts once)
        self._wal = False  # switched to WAL by open(): close() folds the log back in

    # --- connection and migrations ----------------------------------------------------------------
    async def open(self) -> None:
        """Connect, switch to WAL and apply pending migrations up to target_version.

        StoreError (one readable line, the connection closed) if the file is not an Agora database this
        version can use: not SQLite, damaged or truncated, or of a newer schema.
        """
        pending = aiosqlite.connect(self.path, isolation_level=None)
        try:
            db = await pending
        except sqlite3.Error as e:
            worker = getattr(pending, "_thread", None)  # aiosqlite stops it; let it finish while we run
            if worker is not None and worker.is_alive():
                await asyncio.to_thread(worker.join, 5)
            raise StoreError(f"cannot open the database {self.path}: {e}") from None
        self._db = db
        try:
            await db.execute("PRAGMA busy_timeout = 5000")
            await self._check_schema()  # before anything is written to the file
            await db.execute("PRAGMA journal_mode = WAL")
            self._wal = True
            await db.execute(f"PRAGMA synchronous = {self.synchronous}")
            await db.execute("PRAGMA foreign_keys = ON")
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
                columns[name] = {
                    str(r[1]) for r in await self.db.execute_fetchall(f"PRAGMA table_info('{name}')")
                }
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
                await self._db.execute_fetchall("PRAGMA busy_timeout = 100")  # others on it: WAL stays
                await self._db.execute_fetchall("PRAGMA wal_checkpoint(TRUNCATE)")
                mode = await self._db.execute_fetchall("PRAGMA journal_mode = DELETE")
                if str(next(iter(mode))[0]).lower() not in ("delete", "memory"):
                    raise sqlite3.OperationalError(f"the journal mode stays {next(iter(mode))[0]}")
            except sqlite3.Error as e:  # busy or read-only: the WAL stays, and with it every write
                log.info("%s: the write-ahead log stays beside the file (%s)", self.path, e)
        if self._db is not None:
            await self._db.close()
            self._db = None

    @property
    def db(self) -> aiosqlite.Connection:
        """The open connection."""
        if self._db is None:
            raise StoreError("the store is not open")
        return self._db

    async def schema_version(self) -> int:
        """The database's schema version (0 for a new file)."""
        rows = await self.db.execute_fetchall("PRAGMA user_version")
        return int(next(iter(rows))[0])

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

                def run(
                    conn: sqlite3.Connection, statements: tuple[str, ...] = statements, v: int = version
                ) -> None:
                    for sql in statements:
                        conn.execute(sql)
                    if v in AFTER_MIGRATION:  # the data a migration's new tables start with
                        AFTER_MIGRATION[v](conn)
                    conn.execute(f"PRAGMA user_version = {v}")

                await self._write(run)
                applied.append(version)
        return applied

    # --- the write path ------------------------------------------------------------------------------
    async def _write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run fn(connection) in a committed transaction; its result, or its exception."""
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
                outcomes = await self.db._execute(self._commit_batch, [fn for fn, _ in batch])
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

    def _commit_batch(self, fns: list[Write]) -> list[tuple[bool, Any]]:
        """In the connection's thread: one transaction, a savepoint per write, one commit."""
        conn = self.db._conn  # aiosqlite runs this function in its own thread, beside its own calls
        outcomes: list[tuple[bool, Any]] = []
        conn.execute("BEGIN IMMEDIATE")
        try:
            for fn in fns:
                conn.execute("SAVEPOINT w")
                try:
                    outcomes.append((True, fn(conn)))
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

    async def _fetch(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        return list(await self.db.execute_fetchall(sql, params))

    # --- matches -----------------------------------------------------------------------------------
    async def create_match(self, new: NewMatch) -> MatchRecord:
        """Insert a lobby; Conflict if the channel already has a live match."""

        def run(conn: sqlite3.Connection) -> int:
            try:
                cur = conn.execute(
                    "INSERT INTO matches (game_id, rules_version, guild_id, channel_id, origin, status, "
                    "seed, options, seats, host_user, created_at, updated_at, rematch_of) "
                    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (new.game_id, new.rules_version, new.guild_id, new.channel_id, new.origin, LOBBY,
                     new.seed, json.dumps(new.options), seats_to_text(new.seats), new.host_user, new.now,
                     new.now, new.rematch_of),
                )  # fmt: skip
            except sqlite3.IntegrityError as e:
                if "rematch_of" in str(e):
                    raise Conflict(f"match {new.rematch_of} already has a live rematch") from e
                raise Conflict(f"channel {new.channel_id} already has a live match") from e
            assert cur.lastrowid is not None
            _set_people(conn, cur.lastrowid, new.seats)
            return cur.lastrowid

        record = await self.get_match(await self._write(run))
        assert record is not None
        return record

    async def get_match(self, match_id: int) -> MatchRecord | None:
        """One match by id."""
        rows = await self._fetch(f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,))
        return match_record(rows[0]) if rows else None

    async def live_match_id(self, channel_id: int) -> int | None:
        """The id of the channel's lobby or active match, if any."""
        rows = await self._fetch(
            "SELECT id FROM matches WHERE channel_id = ? AND status IN ('lobby', 'active')", (channel_id,)
        )
        return int(rows[0][0]) if rows else None

    async def latest_match_id(self, channel_id: int) -> int | None:
        """The id of the channel's most recent match, live or over (for /game log after the end)."""
        rows = await self._fetch(
            "SELECT id FROM matches WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        )
        return int(rows[0][0]) if rows else None

    async def update_seats(
        self, match_id: int, seats: tuple[Any, ...], host_user: int | None, ai_turn: bool, now: float
    ) -> None:
        """Change who sits where."""
        params = (seats_to_text(seats), host_user, int(ai_turn), now, match_id)

        def run(conn: sqlite3.Connection) -> None:
            sql = "UPDATE matches SET seats = ?, host_user = ?, ai_turn = ?, updated_at = ? WHERE id = ?"
            conn.execute(sql, params)
            _set_people(conn, match_id, seats)

        await self._write(run)

    async def set_options(self, match_id: int, options: JSON, now: float) -> None:
        """Replace a lobby's options."""
        params = (json.dumps(options), now, match_id)
        await self._write(
            lambda conn: conn.execute("UPDATE matches SET options = ?, updated_at = ? WHERE id = ?", params)
        )

    async def start_match(
        self,
        match_id: int,
        update: StateUpdate,
        rules_version: str | None = None,
        options: JSON | None = None,
    ) -> None:
        """Move a lobby to active with its first snapshot (and the rules version it is dealt under, and the
        options it is dealt with when they changed at the deal); Conflict unless it was a lobby."""
        dealt = None if options is None else json.dumps(options)
        params = (*update_params(update), rules_version, dealt, update.now, match_id, LOBBY)

        def run(conn: sqlite3.Connection) -> None:
            cur = conn.execute(
                f"UPDATE matches SET {_SET_STATE}, rules_version = COALESCE(?, rules_version), "
                "options = COALESCE(?, options), started_at = ? WHERE id = ? AND status = ?",
                params,
            )
            if cur.rowcount != 1:
                raise Conflict(f"match {match_id} is not a lobby")

        await self._write(run)

    async def record_action(
        self,
        match_id: int,
        row: LogRow,
        update: StateUpdate,
        expected_state_id: int,
        results: list[ResultRow] | None = None,
    ) -> None:
        """One transaction: the log row, the snapshot and state_id (and results if it ended)."""
        params = (*update_params(update), match_id, expected_state_id, ACTIVE)
        result_rows = [
            (match_id, r.seat, r.user_id, r.ai, r.share, update.now, match_id) for r in results or ()
        ]

        def run(conn: sqlite3.Connection) -> None:
            cur = conn.execute(
                f"UPDATE matches SET {_SET_STATE} WHERE id = ? AND state_id = ? AND status = ?", params
            )
            if cur.rowcount != 1:
                raise Conflict(f"match {match_id} changed since state {expected_state_id}")
            conn.execute(
                "INSERT INTO actions (match_id, seq, seat, user_id, action_key, at, waited) "
                "VALUES (?,?,?,?,?,?,?)",
                (match_id, row.seq, row.seat, row.user_id, row.key, row.at, json.dumps(list(row.waited))),
            )
            _insert_results(conn, result_rows)

        await self._write(run)

    async def record_undo(
        self, match_id: int, undone_seq: int, update: StateUpdate, expected_state_id: int
    ) -> None:
        """One transaction: mark the log row undone and write the rebuilt snapshot."""
        params = (*update_params(update), match_id, expected_state_id, ACTIVE)

        def run(conn: sqlite3.Connection) -> None:
            cur = conn.execute(
                f"UPDATE matches SET {_SET_STATE} WHERE id = ? AND state_id = ? AND status = ?", params
            )
            if cur.rowcount != 1:
                raise Conflict(f"match {match_id} changed since state {expected_state_id}")
            cur = conn.execute(
                "UPDATE actions SET undone = 1 WHERE match_id = ? AND seq = ? AND undone = 0",
                (match_id, undone_seq),
            )
            if cur.rowcount != 1:
                raise Conflict(f"match {match_id} has no live action {undone_seq} to undo")

        await self._write(run)

    async def save_snapshot(self, match_id: int, update: StateUpdate) -> None:
        """Rewrite a snapshot (after rebuilding a damaged one from the log)."""
        params = (*update_params(update), match_id)
        await self._write(lambda conn: conn.execute(f"UPDATE matches SET {_SET_STATE} WHERE id = ?", params))

    async def set_status(
        self, match_id: int, status: str, note: str, now: float, results: list[ResultRow] | None = None
    ) -> None:
        """Abandon, forfeit (results in the same transaction) or mark a match broken, with a note."""
        params = (status, note, now, match_id)
        result_rows = [(match_id, r.seat, r.user_id, r.ai, r.share, now, match_id) for r in results or ()]

        def run(conn: sqlite3.Connection) -> None:
            conn.execute(
                "UPDATE matches SET status = ?, note = ?, ai_turn = 0, deadline = NULL, updated_at = ? "
                "WHERE id = ?",
                params,
            )
            _insert_results(conn, result_rows)

        await self._write(run)

    async def load_log(self, match_id: int, include_undone: bool = False) -> list[LogRow]:
        """The match's action log in order."""
        where = "" if include_undone else " AND undone = 0"
        rows = await self._fetch(
            f"SELECT {LOG_COLUMNS} FROM actions WHERE match_id = ?{where} ORDER BY seq", (match_id,)
        )
        return [log_row(r) for r in rows]

    async def matches_awaiting_ai(self, *, shards: Shards | None = None) -> list[int]:
        """Active matches where an AI seat is to act (resumed at start-up), of these shards' guilds."""
        mine, params = _of_shards(shards)
        rows = await self._fetch(  # its partial index: the planner would read every active game otherwise
            "SELECT id FROM matches INDEXED BY matches_ai_turn "
            f"WHERE status = 'active' AND ai_turn = 1{mine} ORDER BY id",
            params,
        )
        return [int(r[0]) for r in rows]

    async def list_matches(
        self, *, origin: str | None = None, statuses: tuple[str, ...] | None = None, limit: int = 50
    ) -> list[MatchSummary]:
        """Matches, most recently updated first."""
        where, params = [], []
        if origin is not None:
            where.append("origin = ?")
            params.append(origin)
        if statuses:
            where.append(f"status IN ({','.join('?' * len(statuses))})")
            params.extend(statuses)
        clause = f" WHERE {' AND '.join(where)}" if where else ""
        rows = await self._fetch(
            f"SELECT {SUMMARY_COLUMNS} FROM matches{clause} ORDER BY updated_at DESC, id DESC LIMIT ?",
            (*params, limit),
        )
        return [match_summary(r) for r in rows]

    async def user_matches(
        self, guild_id: int, user_id: int, statuses: tuple[str, ...] = LIVE_STATUSES
    ) -> list[MatchSummary]:
        """A guild's matches in these statuses where a person has a seat, the longest unchanged first."""
        rows = await self._fetch(
            f"SELECT {SUMMARY_COLUMNS_OF_M} FROM match_people p JOIN matches m ON m.id = p.match_id "
            f"WHERE p.user_id = ? AND m.guild_id = ? AND m.status IN ({','.join('?' * len(statuses))}) "
            "ORDER BY m.updated_at, m.id",
            (user_id, guild_id, *statuses),
        )
        return [match_summary(r) for r in rows]

    async def rematch_id(self, match_id: int) -> int | None:
        """The lobby or running game opened as a rematch of this match, if there is one."""
        rows = await self._fetch(
            "SELECT id FROM matches WHERE rematch_of = ? AND status IN ('lobby', 'active')", (match_id,)
        )
        return int(rows[0][0]) if rows else None

    async def set_deadline(self, match_id: int, deadline: float | None) -> None:
        """Set or clear the turn deadline."""
        await self._write(
            lambda conn: conn.execute("UPDATE matches SET deadline = ? WHERE id = ?", (deadline, match_id))
        )

    async def expired_deadlines(self, now: float, *, shards: Shards | None = None) -> list[MatchSummary]:
        """Active matches whose turn deadline has passed, of these shards' guilds."""
        mine, params = _of_shards(shards)
        rows = await self._fetch(
            f"SELECT {SUMMARY_COLUMNS} FROM matches WHERE status = 'active' AND deadline IS NOT NULL "
            f"AND deadline <= ?{mine} ORDER BY deadline",
            (now, *params),
        )
        return [match_summary(r) for r in rows]

    async def earliest_deadline(self, *, shards: Shards | None = None) -> float | None:
        """The nearest turn deadline of any active match of these shards' guilds (None if there is none)."""
        mine, params = _of_shards(shards)
        rows = await self._fetch(
            f"SELECT MIN(deadline) FROM matches WHERE status = 'active' AND deadline IS NOT NULL{mine}",
            params,
        )
        return None if not rows or rows[0][0] is None else float(rows[0][0])

    async def vote_abandon(self, match_id: int, user_id: int, now: float) -> frozenset[int]:
        """Record a player's request to abandon the match; every user who has asked so far."""
        await self._write(
            lambda conn: conn.execute(
                "INSERT OR IGNORE INTO abandon_votes (match_id, user_id, at) VALUES (?, ?, ?)",
                (match_id, user_id, now),
            )
        )
        rows = await self._fetch("SELECT user_id FROM abandon_votes WHERE match_id = ?", (match_id,))
        return frozenset(int(r[0]) for r in rows)

    async def match_shares(self, match_id: int) -> tuple[float, ...] | None:
        """The recorded share of the win of each seat of a finished match, None if it has no results."""
        rows = await self._fetch("SELECT share FROM results WHERE match_id = ? ORDER BY seat", (match_id,))
        return tuple(float(r[0]) for r in rows) or None

    # --- boards --------------------------------------------------------------------------------------
    async def board(self, match_id: int) -> BoardRecord | None:
        """The stored board message of a match, if any."""
        rows = await self._fetch(f"SELECT {BOARD_COLUMNS} FROM boards WHERE match_id = ?", (match_id,))
        return board_record(match_id, rows[0]) if rows else None

    async def save_board(self, board: BoardRecord) -> None:
        """Store (replace) a match's board message."""
        sql = f"INSERT OR REPLACE INTO boards (match_id, {BOARD_COLUMNS}) VALUES (?,?,?,?,?,?,?)"
        await self._write(lambda conn: conn.execute(sql, board_params(board)))

    async def unposted_boards(self, *, shards: Shards | None = None) -> list[int]:
        """Discord matches of these shards' guilds whose latest state has no board yet (active, or finished
        after a board)."""
        mine, params = _of_shards(shards)
        rows = await self._fetch(
            f"{UNPOSTED_BOARDS}{mine} ORDER BY m.id",
            params,
        )
        return [int(r[0]) for r in rows]

    # --- stats ---------------------------------------------------------------------------------------
    async def user_stats(
        self, user_id: int, game_id: str | None = None, guild_id: int | None = None
    ) -> UserStats:
        """A user's results, optionally for one game and/or one guild."""
        sql = (
            "SELECT COUNT(*), COALESCE(SUM(share > 0), 0), COALESCE(SUM(share), 0) FROM results "
            "WHERE user_id = ?"
        )
        params: list[Any] = [user_id]
        sql += _and_equal(params, game_id=game_id, guild_id=guild_id)
        played, wins, points = (await self._fetch(sql, tuple(params)))[0]
        return UserStats(user_id, int(played), int(wins), float(points))

    async def leaderboard(
        self, game_id: str, guild_id: int | None = None, limit: int = 10
    ) -> list[LeaderRow]:
        """The best players of a game by total share of wins (then wins, then fewest games)."""
        sql = (
            "SELECT user_id, COUNT(*), SUM(share > 0), SUM(share) FROM results "
            "WHERE game_id = ? AND user_id IS NOT NULL"
        )
        params: list[Any] = [game_id]
        sql += _and_equal(params, guild_id=guild_id)
        sql += (
            " GROUP BY user_id ORDER BY SUM(share) DESC, SUM(share > 0) DESC, COUNT(*) ASC, user_id LIMIT ?"
        )
        params.append(limit)
        rows = await self._fetch(sql, tuple(params))
        return [LeaderRow(int(u), int(p), int(w), float(s)) for u, p, w, s in rows]

    # --- ratings -------------------------------------------------------------------------------------------
    async def player_ratings(
        self, player: str, scopes: tuple[int, ...], game_id: str | None = None
    ) -> list[RatingRow]:
        """A player's current ratings in these scopes (one game or all): by game, a server's before all
        servers'."""
        params: list[Any] = [player, *scopes]
        sql = (
            f"SELECT {RATING_COLUMNS} FROM ratings "
            f"WHERE player = ? AND scope IN ({','.join('?' * len(scopes))})"
        )
        sql += _and_equal(params, game_id=game_id) + " ORDER BY game_id, scope = 0, scope"
        return [rating_row(r) for r in await self._fetch(sql, tuple(params))]

    async def game_ratings(
        self, game_id: str, scope: int, *, min_games: int, ranked: bool = True, limit: int = 10
    ) -> list[RatingRow]:
        """A game's ratings in a scope: the ranked players (at least min_games), best first; or (ranked
        False) those not ranked yet, most games first."""
        where, order = ("games >= ?", "ordinal DESC") if ranked else ("games < ?", "games DESC, ordinal DESC")
        rows = await self._fetch(
            f"SELECT {RATING_COLUMNS} FROM ratings "
            f"WHERE scope = ? AND game_id = ? AND {where} ORDER BY {order}, player LIMIT ?",
            (scope, game_id, min_games, limit),
        )
        return [rating_row(r) for r in rows]

    async def match_rating_changes(self, match_id: int, scope: int) -> list[RatingChange]:
        """How a finished match moved each player's rating in a scope ([] for an unrated match)."""
        rows = await self._fetch(
            f"SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE match_id = ? AND scope = ? ORDER BY player",
            (match_id, scope),
        )
        return [rating_change(r) for r in rows]

    async def recent_rating_changes(
        self, scope: int, game_id: str, player: str, limit: int
    ) -> list[RatingChange]:
        """A player's last rating changes in a game and scope, the newest first."""
        rows = await self._fetch(
            f"SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE scope = ? AND game_id = ? AND player = ? "
            "ORDER BY finished_at DESC, match_id DESC LIMIT ?",
            (scope, game_id, player, limit),
        )
        return [rating_change(r) for r in rows]

    async def rebuild_ratings(self) -> RatingsRebuilt:
        """Recompute every rating from the stored results in finish order, in one transaction."""
        return await self._write(_rebuild_ratings)

    # --- guild settings -------------------------------------------------------------------------------
    async def guild_settings(self, guild_id: int) -> JSON:
        """All settings of a guild as a dict (empty if none were set)."""
        rows = await self._fetch("SELECT key, value FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return {k: json.loads(v) for k, v in rows}

    async def set_guild_setting(self, guild_id: int, key: str, value: Any) -> None:
        """Set one setting (any JSON value); None deletes it."""
        await self._set_setting("guild_settings", "guild_id", guild_id, key, value)

    async def _set_setting(self, table: str, owner: str, owner_id: int, key: str, value: Any) -> None:
        """Upsert (or, for None, delete) one JSON setting in a (owner, key) -> value table."""
        if value is None:
            sql, params = f"DELETE FROM {table} WHERE {owner} = ? AND key = ?", (owner_id, key)
        else:
            sql = (
                f"INSERT INTO {table} ({owner}, key, value) VALUES (?,?,?) "
                f"ON CONFLICT ({owner}, key) DO UPDATE SET value = excluded.value"
            )
            params = (owner_id, key, json.dumps(value))
        await self._write(lambda conn: conn.execute(sql, params))

    # --- people's settings ---------------------------------------------------------------------------------
    async def user_setting(self, user_id: int, key: str) -> Any:
        """One setting of a person (None if unset)."""
        sql = "SELECT value FROM user_settings WHERE user_id = ? AND key = ?"
        rows = await self._fetch(sql, (user_id, key))
        return json.loads(rows[0][0]) if rows else None

    async def set_user_setting(self, user_id: int, key: str, value: Any) -> None:
        """Set one setting of a person (any JSON value); None deletes it."""
        await self._set_setting("user_settings", "user_id", user_id, key, value)

    # --- people's saved decks ----------------------------------------------------------------------------
    async def decks(self, user_id: int, game_id: str) -> list[DeckRecord]:
        """A person's saved decks for a game, by name (case-insensitively)."""
        rows = await self._fetch(
            f"SELECT {DECK_COLUMNS} FROM decks WHERE user_id = ? AND game_id = ? ORDER BY name",
            (user_id, game_id),
        )
        return [deck_record(r) for r in rows]

    async def deck(self, user_id: int, game_id: str, name: str) -> DeckRecord | None:
        """One saved deck by name (any case), or None."""
        rows = await self._fetch(
            f"SELECT {DECK_COLUMNS} FROM decks WHERE user_id = ? AND game_id = ? AND name = ?",
            (user_id, game_id, name),
        )
        return deck_record(rows[0]) if rows else None

    async def save_deck(
        self, user_id: int, game_id: str, name: str, deck: JSON, now: float, *, limit: int | None = None
    ) -> bool:
        """Save a deck under a name, replacing the one of that name in any case (which then takes this
        spelling); False, and nothing saved, when the name is new and the person already has `limit` decks
        for the game."""
        text = json.dumps(deck, separators=(",", ":"))

        def run(conn: sqlite3.Connection) -> bool:
            where = "user_id = ? AND game_id = ?"
            if limit is not None:
                exists = conn.execute(
                    f"SELECT 1 FROM decks WHERE {where} AND name = ?", (user_id, game_id, name)
                )
                count = conn.execute(f"SELECT COUNT(*) FROM decks WHERE {where}", (user_id, game_id))
                if exists.fetchone() is None and count.fetchone()[0] >= limit:
                    return False
            conn.execute(
                "INSERT INTO decks (user_id, game_id, name, deck, updated_at) VALUES (?,?,?,?,?) "
                "ON CONFLICT (user_id, game_id, name) DO UPDATE SET name = excluded.name, "
                "deck = excluded.deck, updated_at = excluded.updated_at",
                (user_id, game_id, name, text, now),
            )
            return True

        return await self._write(run)

    async def delete_deck(self, user_id: int, game_id: str, name: str) -> bool:
        """Delete a saved deck by name (any case); whether there was one."""
        sql = "DELETE FROM decks WHERE user_id = ? AND game_id = ? AND name = ?"
        return await self._write(lambda conn: conn.execute(sql, (user_id, game_id, name)).rowcount > 0)

    # --- servers' card packs ------------------------------------------------------------------------------
    async def save_pack(
        self,
        guild_id: int,
        game_id: str,
        name: str,
        filename: str,
        text: str,
        user_id: int | None,
        now: float,
        *,
        limit: int | None = None,
    ) -> int | None:
        """Store a pack file as the next version of the server's pack of that name (any case); the version,
        or None (nothing stored) when the name is new and the server has `limit` packs for the game."""

        def run(conn: sqlite3.Connection) -> int | None:
            where = "guild_id = ? AND game_id = ?"
            if limit is not None:
                live = f"SELECT COUNT(DISTINCT name) FROM card_packs WHERE {where} AND removed_at IS NULL"
                exists = conn.execute(
                    f"SELECT 1 FROM card_packs WHERE {where} AND name = ? AND removed_at IS NULL",
                    (guild_id, game_id, name),
                )
                count = conn.execute(live, (guild_id, game_id)).fetchone()[0]
                if exists.fetchone() is None and count >= limit:
                    return None
            last = conn.execute(
                f"SELECT COALESCE(MAX(version), 0) FROM card_packs WHERE {where} AND name = ?",
                (guild_id, game_id, name),
            ).fetchone()[0]
            conn.execute(
                "INSERT INTO card_packs (guild_id, game_id, name, version, filename, text, uploaded_by, "
                "uploaded_at) VALUES (?,?,?,?,?,?,?,?)",
                (guild_id, game_id, name, last + 1, filename, text, user_id, now),
            )
            return int(last) + 1

        return await self._write(run)

    async def packs(self, guild_id: int, game_id: str | None = None) -> list[PackRecord]:
        """The latest version of each of a server's packs (not removed), by game and name."""
        params: list[Any] = [guild_id]
        game = _and_equal(params, game_id=game_id)
        rows = await self._fetch(
            f"SELECT {PACK_COLUMNS} FROM card_packs p WHERE guild_id = ?{game} AND removed_at IS NULL "
            "AND version = (SELECT MAX(version) FROM card_packs q WHERE q.guild_id = p.guild_id "
            "AND q.game_id = p.game_id AND q.name = p.name) ORDER BY game_id, name",
            tuple(params),
        )
        return [pack_record(r) for r in rows]

    async def pack(
        self, guild_id: int, game_id: str, name: str, version: int | None = None
    ) -> PackRecord | None:
        """One version of a server's pack by name (any case): the latest one in use, or the one given."""
        where = "guild_id = ? AND game_id = ? AND name = ?"
        if version is None:
            sql = f"SELECT {PACK_COLUMNS} FROM card_packs WHERE {where} AND removed_at IS NULL "
            sql += "ORDER BY version DESC LIMIT 1"
            rows = await self._fetch(sql, (guild_id, game_id, name))
        else:
            sql = f"SELECT {PACK_COLUMNS} FROM card_packs WHERE {where} AND version = ?"
            rows = await self._fetch(sql, (guild_id, game_id, name, version))
        return pack_record(rows[0]) if rows else None

    async def remove_pack(self, guild_id: int, game_id: str, name: str, now: float) -> bool:
        """Remove a server's pack from use (its versions stay stored); whether there was one."""
        sql = (
            "UPDATE card_packs SET removed_at = ? WHERE guild_id = ? AND game_id = ? AND name = ? "
            "AND removed_at IS NULL"
        )
        return await self._write(lambda conn: conn.execute(sql, (now, guild_id, game_id, name)).rowcount > 0)

    # --- lobby messages ------------------------------------------------------------------------------------
    async def set_lobby_message(self, match_id: int, channel_id: int, message_id: int) -> None:
        """Remember where a match's lobby message is."""
        await self._write(
            lambda conn: conn.execute(
                "INSERT OR REPLACE INTO lobby_messages (match_id, channel_id, message_id) VALUES (?,?,?)",
                (match_id, channel_id, message_id),
            )
        )

    async def lobby_message(self, match_id: int) -> tuple[int, int] | None:
        """(channel id, message id) of a match's lobby message, if known."""
        rows = await self._fetch(
            "SELECT channel_id, message_id FROM lobby_messages WHERE match_id = ?", (match_id,)
        )
        return (int(rows[0][0]), int(rows[0][1])) if rows else None

    async def idle_lobbies(self, before: float, *, shards: Shards | None = None) -> list[MatchSummary]:
        """Lobbies of these shards' guilds unchanged since before (oldest first)."""
        mine, params = _of_shards(shards)
        rows = await self._fetch(
            f"SELECT {SUMMARY_COLUMNS} FROM matches WHERE status = 'lobby' AND updated_at <= ?{mine} "
            "ORDER BY updated_at",
            (before, *params),
        )
        return [match_summary(r) for r in rows]

    # --- claims ------------------------------------------------------------------------------------------
    async def claim(self, key: str, owner: str, now: float, lease: float) -> bool:
        """Take the claim `key` for owner until now + lease if it is free, ran out, or owner's already."""
        sql = (
            "INSERT INTO claims (key, owner, until) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET "
            "owner = excluded.owner, until = excluded.until "
            "WHERE claims.until < ? OR claims.owner = excluded.owner RETURNING key"
        )
        params = (key, owner, now + lease, now)
        return await self._write(lambda conn: conn.execute(sql, params).fetchone() is not None)

    async def release(self, key: str, owner: str) -> None:
        """Drop the claim `key` if owner holds it."""
        sql = "DELETE FROM claims WHERE key = ? AND owner = ?"
        await self._write(lambda conn: conn.execute(sql, (key, owner)))

    async def prune_claims(self, before: float) -> int:
        """Delete the claims whose lease ended before `before`; how many."""
        sql = "DELETE FROM claims WHERE until < ?"
        return await self._write(lambda conn: conn.execute(sql, (before,)).rowcount)


def _insert_results(conn: sqlite3.Connection, rows: list[tuple[Any, ...]]) -> None:
    """Results rows (match, seat, user, ai, share, time, match); game and guild come from the match. The
    match is rated in the same transaction."""
    if rows:
        conn.executemany(
            "INSERT OR REPLACE INTO results (match_id, seat, user_id, ai, game_id, guild_id, share, "
            "finished_at) SELECT ?, ?, ?, ?, game_id, guild_id, ?, ? FROM matches WHERE id = ?",
            rows,
        )
        _rate_match(conn, rows[0][0])


# --- ratings: written in the transaction of the results they come from ------------------------------------


def _rate_match(conn: sqlite3.Connection, match_id: int) -> bool:
    """Rate a finished match from its stored results, in each of its scopes, once; whether it was rated
    (see bot.ratings: console games and games of fewer than two players are not)."""
    sql = f"SELECT {RESULT_COLUMNS} FROM results WHERE match_id = ? ORDER BY seat"
    match = finished(match_id, conn.execute(sql, (match_id,)).fetchall())
    if match is None:
        return False
    if conn.execute("SELECT 1 FROM rating_changes WHERE match_id = ? LIMIT 1", (match_id,)).fetchone():
        return False  # rated already: a match moves ratings once
    players = match.players
    rated = False
    for scope in match.scopes:
        marks = ",".join("?" * len(players))
        current = {
            str(p): ratings.Rating(mu, sigma, games, wins)
            for p, mu, sigma, games, wins in conn.execute(
                "SELECT player, mu, sigma, games, wins FROM ratings WHERE scope = ? AND game_id = ? "
                f"AND player IN ({marks})",
                (scope, match.game_id, *players),
            )
        }
        now, moved = match.rate(scope, current)
        conn.executemany(
            "INSERT INTO ratings (scope, game_id, player, mu, sigma, ordinal, games, wins) "
            "VALUES (?,?,?,?,?,?,?,?) ON CONFLICT (scope, game_id, player) DO UPDATE SET "
            "mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal, games = excluded.games, "
            "wins = excluded.wins",
            now,
        )
        conn.executemany(
            f"INSERT INTO rating_changes ({CHANGE_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", moved
        )
        rated = rated or bool(moved)
    return rated


def _rebuild_ratings(conn: sqlite3.Connection) -> RatingsRebuilt:
    """Forget every rating and rate every match with results again, in finish order (the caller's
    transaction)."""
    conn.execute("DELETE FROM rating_changes")
    conn.execute("DELETE FROM ratings")
    order = conn.execute(
        "SELECT match_id FROM results GROUP BY match_id ORDER BY MIN(finished_at), match_id"
    ).fetchall()
    rated = sum(_rate_match(conn, int(mid)) for (mid,) in order)
    (stored,) = conn.execute("SELECT COUNT(*) FROM ratings").fetchone()
    (changes,) = conn.execute("SELECT COUNT(*) FROM rating_changes").fetchone()
    return RatingsRebuilt(len(order), rated, int(stored), int(changes))


# Work a migration's new tables need from the data already there, run in the migration's transaction.
AFTER_MIGRATION: dict[int, Callable[[sqlite3.Connection], Any]] = {8: _rebuild_ratings}


def _of_shards(shards: Shards | None) -> tuple[str, tuple[int, ...]]:
    """An AND clause keeping the matches of these shards' guilds ("" for all) and its parameters."""
    if shards is None:
        return "", ()
    ids = sorted(shards.ids)
    marks = ", ".join("?" * len(ids))
    return f" AND ((COALESCE(guild_id, 0) >> 22) % ?) IN ({marks})", (shards.count, *ids)


def _and_equal(params: list[Any], **filters: Any) -> str:
    """The SQL of an equality test on each filter that is set; appends their values to params."""
    sql = ""
    for column, value in filters.items():
        if value is not None:
            sql += f" AND {column} = ?"
            params.append(value)
    return sql


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
