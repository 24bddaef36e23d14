"""The PostgreSQL store (asyncpg): several bot processes on one database, one transaction per move.

The same behaviour as bot/store/sqlite.py, method for method; the rows are read into records by
bot/store/rows.py for both. What SQLite gets from its single writer, PostgreSQL gets from the database
itself: a move is a conditional UPDATE ... WHERE state_id = expected (READ COMMITTED re-checks it once the
row lock is free, so of two processes moving from one state exactly one commits and the other gets
Conflict), the action log keeps PRIMARY KEY (match_id, seq), and read-then-write work (ratings, a deck or
pack limit, a pack's next version) takes a transaction-scoped advisory lock on what it counts.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections.abc import AsyncIterator, Iterable
from typing import Any

import asyncpg

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
    reason_of,
    seats_to_text,
    wait_budget,
)
from bot.store.pg_migrations import LATEST, MIGRATIONS
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
from bot.store.sqlite import expected_schema

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
# `snapshot = $1, ..., updated_at = $10`: the state columns, then the WHERE parameters from $11.
_SET_STATE = ", ".join(f"{column} = ${i}" for i, column in enumerate(STATE_COLUMNS, 1))
_WHERE_STATE = f"id = ${len(STATE_COLUMNS) + 1}"
_MOVED = f"{_WHERE_STATE} AND state_id = ${len(STATE_COLUMNS) + 2} AND status = ${len(STATE_COLUMNS) + 3}"
_INSERT_RESULT = (
    "INSERT INTO results (match_id, seat, user_id, ai, game_id, guild_id, share, finished_at) "
    "SELECT $1, $2, $3, $4, game_id, guild_id, $5, $6 FROM matches WHERE id = $1 "
    "ON CONFLICT (match_id, seat) DO UPDATE SET user_id = excluded.user_id, ai = excluded.ai, "
    "game_id = excluded.game_id, guild_id = excluded.guild_id, share = excluded.share, "
    "finished_at = excluded.finished_at"
)
_SET_RATING = (
    "INSERT INTO ratings (scope, game_id, player, mu, sigma, ordinal, games, wins) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (scope, game_id, player) DO UPDATE SET "
    "mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal, games = excluded.games, "
    "wins = excluded.wins"
)
_Held = contextlib.AbstractAsyncContextManager[asyncpg.Connection]  # a connection for one block
_PACK_NAME = "guild_id = $1 AND game_id = $2 AND nocase(name) = nocase($3)"


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
    async def _connection(
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
        return self._connection("write", transaction=True, wait=wait)

    def _autocommit(self) -> _Held:
        """A connection outside a transaction block: one statement is its own transaction, committed
        before it returns, in one round trip (no BEGIN and COMMIT of their own)."""
        return self._connection("write", transaction=False)

    def _reading(self) -> _Held:
        """A connection for reads (each statement its own snapshot)."""
        return self._connection("read", transaction=False)

    async def _fetch(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        async with self._reading() as conn:
            return list(await conn.fetch(sql, *args))

    async def _execute(self, sql: str, *args: Any) -> str:
        """One statement in its own transaction; its status ("UPDATE 1", ...)."""
        async with self._autocommit() as conn:
            return str(await conn.execute(sql, *args))

    # --- matches -----------------------------------------------------------------------------------
    async def create_match(self, new: NewMatch) -> MatchRecord:
        """Insert a lobby; Conflict if the channel already has a live match."""
        async with self._transaction() as conn:
            try:
                row = await conn.fetchrow(
                    "INSERT INTO matches (game_id, rules_version, guild_id, channel_id, origin, status, "
                    "seed, options, seats, host_user, created_at, updated_at, rematch_of) "
                    f"VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13) RETURNING {MATCH_COLUMNS}",
                    new.game_id, new.rules_version, new.guild_id, new.channel_id, new.origin, LOBBY,
                    new.seed, json.dumps(new.options), seats_to_text(new.seats), new.host_user, new.now,
                    new.now, new.rematch_of,
                )  # fmt: skip
            except asyncpg.UniqueViolationError as e:
                if e.constraint_name == "matches_live_rematch":
                    raise Conflict(f"match {new.rematch_of} already has a live rematch") from e
                raise Conflict(f"channel {new.channel_id} already has a live match") from e
            assert row is not None
            await _set_people(conn, row["id"], new.seats)
        return match_record(row)

    async def get_match(self, match_id: int) -> MatchRecord | None:
        """One match by id."""
        rows = await self._fetch(f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = $1", match_id)
        return match_record(rows[0]) if rows else None

    async def live_match_id(self, channel_id: int) -> int | None:
        """The id of the channel's lobby or active match, if any."""
        rows = await self._fetch(
            "SELECT id FROM matches WHERE channel_id = $1 AND status IN ('lobby', 'active')", channel_id
        )
        return int(rows[0][0]) if rows else None

    async def latest_match_id(self, channel_id: int) -> int | None:
        """The id of the channel's most recent match, live or over (for /game log after the end)."""
        rows = await self._fetch(
            "SELECT id FROM matches WHERE channel_id = $1 ORDER BY id DESC LIMIT 1", channel_id
        )
        return int(rows[0][0]) if rows else None

    async def update_seats(
        self, match_id: int, seats: tuple[Seat, ...], host_user: int | None, ai_turn: bool, now: float
    ) -> None:
        """Change who sits where."""
        async with self._transaction() as conn:
            await conn.execute(
                "UPDATE matches SET seats = $1, host_user = $2, ai_turn = $3, updated_at = $4 WHERE id = $5",
                seats_to_text(seats), host_user, int(ai_turn), now, match_id,
            )  # fmt: skip
            await _set_people(conn, match_id, seats)

    async def set_options(self, match_id: int, options: JSON, now: float) -> None:
        """Replace a lobby's options."""
        sql = "UPDATE matches SET options = $1, updated_at = $2 WHERE id = $3"
        await self._execute(sql, json.dumps(options), now, match_id)

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
        n = len(STATE_COLUMNS)
        status = await self._execute(
            f"UPDATE matches SET {_SET_STATE}, rules_version = COALESCE(${n + 3}, rules_version), "
            f"options = COALESCE(${n + 4}, options), started_at = ${n + 5} "
            f"WHERE {_WHERE_STATE} AND status = ${n + 2}",
            *update_params(update), match_id, LOBBY, rules_version, dealt, update.now,
        )  # fmt: skip
        if status != "UPDATE 1":
            raise Conflict(f"match {match_id} is not a lobby")

    async def record_action(
        self,
        match_id: int,
        row: LogRow,
        update: StateUpdate,
        expected_state_id: int,
        results: list[ResultRow] | None = None,
    ) -> None:
        """One transaction: the log row, the snapshot and state_id (and results if it ended).

        A move that does not end the game is one statement (the match update and its log row together),
        its own transaction: one round trip to the server.
        """
        n = len(STATE_COLUMNS)
        sql = (
            f"WITH moved AS (UPDATE matches SET {_SET_STATE} WHERE {_MOVED} RETURNING id) "
            "INSERT INTO actions (match_id, seq, seat, user_id, action_key, at, waited) "
            f"SELECT id, ${n + 4}, ${n + 5}, ${n + 6}, ${n + 7}, ${n + 8}, ${n + 9} FROM moved"
        )
        params = (*update_params(update), match_id, expected_state_id, ACTIVE)
        params += (row.seq, row.seat, row.user_id, row.key, row.at, json.dumps(list(row.waited)))
        async with self._transaction() if results else self._autocommit() as conn:
            try:
                status = await conn.execute(sql, *params)
            except asyncpg.UniqueViolationError as e:  # the log already has this position
                raise Conflict(f"match {match_id} already has action {row.seq}") from e
            if status != "INSERT 0 1":
                raise Conflict(f"match {match_id} changed since state {expected_state_id}")
            await _insert_results(conn, match_id, update.now, results)

    async def record_undo(
        self, match_id: int, undone_seq: int, update: StateUpdate, expected_state_id: int
    ) -> None:
        """One transaction: mark the log row undone and write the rebuilt snapshot."""
        async with self._transaction() as conn:
            status = await conn.execute(
                f"UPDATE matches SET {_SET_STATE} WHERE {_MOVED}",
                *update_params(update), match_id, expected_state_id, ACTIVE,
            )  # fmt: skip
            if status != "UPDATE 1":
                raise Conflict(f"match {match_id} changed since state {expected_state_id}")
            status = await conn.execute(
                "UPDATE actions SET undone = 1 WHERE match_id = $1 AND seq = $2 AND undone = 0",
                match_id, undone_seq,
            )  # fmt: skip
            if status != "UPDATE 1":
                raise Conflict(f"match {match_id} has no live action {undone_seq} to undo")

    async def save_snapshot(self, match_id: int, update: StateUpdate) -> None:
        """Rewrite a snapshot (after rebuilding a damaged one from the log)."""
        await self._execute(
            f"UPDATE matches SET {_SET_STATE} WHERE {_WHERE_STATE}", *update_params(update), match_id
        )

    async def set_status(
        self, match_id: int, status: str, note: str, now: float, results: list[ResultRow] | None = None
    ) -> None:
        """Abandon, forfeit (results in the same transaction) or mark a match broken, with a note."""
        async with self._transaction() as conn:
            await conn.execute(
                "UPDATE matches SET status = $1, note = $2, ai_turn = 0, deadline = NULL, updated_at = $3 "
                "WHERE id = $4",
                status, note, now, match_id,
            )  # fmt: skip
            await _insert_results(conn, match_id, now, results)

    async def vote_abandon(self, match_id: int, user_id: int, now: float) -> frozenset[int]:
        """Record a player's request to abandon the match; every user who has asked so far."""
        await self._execute(
            "INSERT INTO abandon_votes (match_id, user_id, at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            match_id, user_id, now,
        )  # fmt: skip
        rows = await self._fetch("SELECT user_id FROM abandon_votes WHERE match_id = $1", match_id)
        return frozenset(int(r[0]) for r in rows)

    async def match_shares(self, match_id: int) -> tuple[float, ...] | None:
        """The recorded share of the win of each seat of a finished match, None if it has no results."""
        rows = await self._fetch("SELECT share FROM results WHERE match_id = $1 ORDER BY seat", match_id)
        return tuple(float(r[0]) for r in rows) or None

    async def load_log(self, match_id: int, include_undone: bool = False) -> list[LogRow]:
        """The match's action log in order."""
        where = "" if include_undone else " AND undone = 0"
        rows = await self._fetch(
            f"SELECT {LOG_COLUMNS} FROM actions WHERE match_id = $1{where} ORDER BY seq", match_id
        )
        return [log_row(r) for r in rows]

    async def matches_awaiting_ai(self, *, shards: Shards | None = None) -> list[int]:
        """Active matches where an AI seat is to act (resumed at start-up), of these shards' guilds."""
        mine, params = _of_shards(shards, 1)
        rows = await self._fetch(
            f"SELECT id FROM matches WHERE status = 'active' AND ai_turn = 1{mine} ORDER BY id", *params
        )
        return [int(r[0]) for r in rows]

    async def list_matches(
        self, *, origin: str | None = None, statuses: tuple[str, ...] | None = None, limit: int = 50
    ) -> list[MatchSummary]:
        """Matches, most recently updated first."""
        where, params = ["TRUE"], []
        if origin is not None:
            params.append(origin)
            where.append(f"origin = ${len(params)}")
        if statuses:
            params.append(list(statuses))
            where.append(f"status = ANY(${len(params)}::text[])")
        params.append(limit)
        rows = await self._fetch(
            f"SELECT {SUMMARY_COLUMNS} FROM matches WHERE {' AND '.join(where)} "
            f"ORDER BY updated_at DESC, id DESC LIMIT ${len(params)}",
            *params,
        )
        return [match_summary(r) for r in rows]

    async def user_matches(
        self, guild_id: int, user_id: int, statuses: tuple[str, ...] = LIVE_STATUSES
    ) -> list[MatchSummary]:
        """A guild's matches in these statuses where a person has a seat, the longest unchanged first."""
        rows = await self._fetch(
            f"SELECT {SUMMARY_COLUMNS_OF_M} FROM match_people p JOIN matches m ON m.id = p.match_id "
            "WHERE p.user_id = $1 AND m.guild_id = $2 AND m.status = ANY($3::text[]) "
            "ORDER BY m.updated_at, m.id",
            user_id, guild_id, list(statuses),
        )  # fmt: skip
        return [match_summary(r) for r in rows]

    async def rematch_id(self, match_id: int) -> int | None:
        """The lobby or running game opened as a rematch of this match, if there is one."""
        rows = await self._fetch(
            "SELECT id FROM matches WHERE rematch_of = $1 AND status IN ('lobby', 'active')", match_id
        )
        return int(rows[0][0]) if rows else None

    async def set_deadline(self, match_id: int, deadline: float | None) -> None:
        """Set or clear the turn deadline."""
        await self._execute("UPDATE matches SET deadline = $1 WHERE id = $2", deadline, match_id)

    async def expired_deadlines(self, now: float, *, shards: Shards | None = None) -> list[MatchSummary]:
        """Active matches whose turn deadline has passed, of these shards' guilds."""
        mine, params = _of_shards(shards, 2)
        rows = await self._fetch(
            f"SELECT {SUMMARY_COLUMNS} FROM matches WHERE status = 'active' AND deadline IS NOT NULL "
            f"AND deadline <= $1{mine} ORDER BY deadline",
            now, *params,
        )  # fmt: skip
        return [match_summary(r) for r in rows]

    async def earliest_deadline(self, *, shards: Shards | None = None) -> float | None:
        """The nearest turn deadline of any active match of these shards' guilds (None if there is none)."""
        mine, params = _of_shards(shards, 1)
        rows = await self._fetch(
            f"SELECT MIN(deadline) FROM matches WHERE status = 'active' AND deadline IS NOT NULL{mine}",
            *params,
        )
        return None if not rows or rows[0][0] is None else float(rows[0][0])

    # --- boards --------------------------------------------------------------------------------------
    async def board(self, match_id: int) -> BoardRecord | None:
        """The stored board message of a match, if any."""
        rows = await self._fetch(f"SELECT {BOARD_COLUMNS} FROM boards WHERE match_id = $1", match_id)
        return board_record(match_id, rows[0]) if rows else None

    async def save_board(self, board: BoardRecord) -> None:
        """Store (replace) a match's board message."""
        await self._execute(
            f"INSERT INTO boards (match_id, {BOARD_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7) "
            "ON CONFLICT (match_id) DO UPDATE SET channel_id = excluded.channel_id, "
            "message_id = excluded.message_id, state_id = excluded.state_id, turn = excluded.turn, "
            "pinged = excluded.pinged, recent = excluded.recent",
            *board_params(board),
        )

    async def unposted_boards(self, *, shards: Shards | None = None) -> list[int]:
        """Discord matches of these shards' guilds whose latest state has no board yet (active, or finished
        after a board)."""
        mine, params = _of_shards(shards, 1)
        rows = await self._fetch(
            f"{UNPOSTED_BOARDS}{mine} ORDER BY m.id",
            *params,
        )
        return [int(r[0]) for r in rows]

    # --- stats ---------------------------------------------------------------------------------------
    async def user_stats(
        self, user_id: int, game_id: str | None = None, guild_id: int | None = None
    ) -> UserStats:
        """A user's results, optionally for one game and/or one guild."""
        params: list[Any] = [user_id]
        sql = (
            "SELECT COUNT(*), COUNT(*) FILTER (WHERE share > 0), COALESCE(SUM(share), 0) FROM results "
            "WHERE user_id = $1" + _and_equal(params, game_id=game_id, guild_id=guild_id)
        )
        played, wins, points = (await self._fetch(sql, *params))[0]
        return UserStats(user_id, int(played), int(wins), float(points))

    async def leaderboard(
        self, game_id: str, guild_id: int | None = None, limit: int = 10
    ) -> list[LeaderRow]:
        """The best players of a game by total share of wins (then wins, then fewest games)."""
        params: list[Any] = [game_id]
        sql = (
            "SELECT user_id, COUNT(*), COUNT(*) FILTER (WHERE share > 0) AS wins, SUM(share) AS points "
            "FROM results WHERE game_id = $1 AND user_id IS NOT NULL" + _and_equal(params, guild_id=guild_id)
        )
        params.append(limit)
        sql += (
            f" GROUP BY user_id ORDER BY points DESC, wins DESC, COUNT(*) ASC, user_id LIMIT ${len(params)}"
        )
        rows = await self._fetch(sql, *params)
        return [LeaderRow(int(u), int(p), int(w), float(s)) for u, p, w, s in rows]

    # --- ratings -------------------------------------------------------------------------------------------
    async def player_ratings(
        self, player: str, scopes: tuple[int, ...], game_id: str | None = None
    ) -> list[RatingRow]:
        """A player's current ratings in these scopes (one game or all): by game, a server's before all
        servers'."""
        params: list[Any] = [player, list(scopes)]
        sql = f"SELECT {RATING_COLUMNS} FROM ratings WHERE player = $1 AND scope = ANY($2::bigint[])"
        sql += _and_equal(params, game_id=game_id) + ' ORDER BY game_id COLLATE "C", scope = 0, scope'
        return [rating_row(r) for r in await self._fetch(sql, *params)]

    async def game_ratings(
        self, game_id: str, scope: int, *, min_games: int, ranked: bool = True, limit: int = 10
    ) -> list[RatingRow]:
        """A game's ratings in a scope: the ranked players (at least min_games), best first; or (ranked
        False) those not ranked yet, most games first."""
        where, order = (
            ("games >= $3", "ordinal DESC") if ranked else ("games < $3", "games DESC, ordinal DESC")
        )
        rows = await self._fetch(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE scope = $1 AND game_id = $2 AND {where} "
            f'ORDER BY {order}, player COLLATE "C" LIMIT $4',
            scope, game_id, min_games, limit,
        )  # fmt: skip
        return [rating_row(r) for r in rows]

    async def match_rating_changes(self, match_id: int, scope: int) -> list[RatingChange]:
        """How a finished match moved each player's rating in a scope ([] for an unrated match)."""
        rows = await self._fetch(
            f"SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE match_id = $1 AND scope = $2 "
            'ORDER BY player COLLATE "C"',
            match_id, scope,
        )  # fmt: skip
        return [rating_change(r) for r in rows]

    async def recent_rating_changes(
        self, scope: int, game_id: str, player: str, limit: int
    ) -> list[RatingChange]:
        """A player's last rating changes in a game and scope, the newest first."""
        rows = await self._fetch(
            f"SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE scope = $1 AND game_id = $2 AND player = $3 "
            "ORDER BY finished_at DESC, match_id DESC LIMIT $4",
            scope, game_id, player, limit,
        )  # fmt: skip
        return [rating_change(r) for r in rows]

    async def rebuild_ratings(self) -> RatingsRebuilt:
        """Recompute every rating from the stored results in finish order, in one transaction."""
        async with self._transaction(MIGRATION_TIMEOUT) as conn:
            await conn.execute(
                "SELECT pg_advisory_xact_lock(hashtext('agora:ratings'))"
            )  # no rating meanwhile
            await conn.execute("DELETE FROM rating_changes")
            await conn.execute("DELETE FROM ratings")
            order = await conn.fetch(
                "SELECT match_id FROM results GROUP BY match_id ORDER BY MIN(finished_at), match_id"
            )
            rated = 0
            for (match_id,) in order:
                rated += await _rate_match(conn, int(match_id))
            stored = await conn.fetchval("SELECT COUNT(*) FROM ratings")
            changes = await conn.fetchval("SELECT COUNT(*) FROM rating_changes")
        return RatingsRebuilt(len(order), rated, int(stored), int(changes))

    # --- guild settings -------------------------------------------------------------------------------
    async def guild_settings(self, guild_id: int) -> JSON:
        """All settings of a guild as a dict (empty if none were set)."""
        rows = await self._fetch("SELECT key, value FROM guild_settings WHERE guild_id = $1", guild_id)
        return {k: json.loads(v) for k, v in rows}

    async def set_guild_setting(self, guild_id: int, key: str, value: Any) -> None:
        """Set one setting (any JSON value); None deletes it."""
        await self._set_setting("guild_settings", "guild_id", guild_id, key, value)

    async def _set_setting(self, table: str, owner: str, owner_id: int, key: str, value: Any) -> None:
        """Upsert (or, for None, delete) one JSON setting in a (owner, key) -> value table."""
        if value is None:
            await self._execute(f"DELETE FROM {table} WHERE {owner} = $1 AND key = $2", owner_id, key)
        else:
            await self._execute(
                f"INSERT INTO {table} ({owner}, key, value) VALUES ($1, $2, $3) "
                f"ON CONFLICT ({owner}, key) DO UPDATE SET value = excluded.value",
                owner_id, key, json.dumps(value),
            )  # fmt: skip

    # --- people's settings ---------------------------------------------------------------------------------
    async def user_setting(self, user_id: int, key: str) -> Any:
        """One setting of a person (None if unset)."""
        sql = "SELECT value FROM user_settings WHERE user_id = $1 AND key = $2"
        rows = await self._fetch(sql, user_id, key)
        return json.loads(rows[0][0]) if rows else None

    async def set_user_setting(self, user_id: int, key: str, value: Any) -> None:
        """Set one setting of a person (any JSON value); None deletes it."""
        await self._set_setting("user_settings", "user_id", user_id, key, value)

    # --- people's saved decks ----------------------------------------------------------------------------
    async def decks(self, user_id: int, game_id: str) -> list[DeckRecord]:
        """A person's saved decks for a game, by name (case-insensitively)."""
        rows = await self._fetch(
            f"SELECT {DECK_COLUMNS} FROM decks WHERE user_id = $1 AND game_id = $2 "
            'ORDER BY nocase(name) COLLATE "C", name COLLATE "C"',
            user_id, game_id,
        )  # fmt: skip
        return [deck_record(r) for r in rows]

    async def deck(self, user_id: int, game_id: str, name: str) -> DeckRecord | None:
        """One saved deck by name (any case), or None."""
        rows = await self._fetch(
            f"SELECT {DECK_COLUMNS} FROM decks WHERE user_id = $1 AND game_id = $2 "
            "AND nocase(name) = nocase($3)",
            user_id, game_id, name,
        )  # fmt: skip
        return deck_record(rows[0]) if rows else None

    async def save_deck(
        self, user_id: int, game_id: str, name: str, deck: JSON, now: float, *, limit: int | None = None
    ) -> bool:
        """Save a deck under a name, replacing the one of that name in any case (which then takes this
        spelling); False, and nothing saved, when the name is new and the person already has `limit` decks
        for the game."""
        text = json.dumps(deck, separators=(",", ":"))
        async with self._transaction() as conn:
            if limit is not None:
                await _lock(conn, f"decks:{user_id}:{game_id}")  # the count holds until the commit
                exists = await conn.fetchval(
                    "SELECT 1 FROM decks WHERE user_id = $1 AND game_id = $2 AND nocase(name) = nocase($3)",
                    user_id, game_id, name,
                )  # fmt: skip
                count = await conn.fetchval(
                    "SELECT COUNT(*) FROM decks WHERE user_id = $1 AND game_id = $2", user_id, game_id
                )
                if exists is None and count >= limit:
                    return False
            await conn.execute(
                "INSERT INTO decks (user_id, game_id, name, deck, updated_at) VALUES ($1, $2, $3, $4, $5) "
                "ON CONFLICT (user_id, game_id, nocase(name)) DO UPDATE SET name = excluded.name, "
                "deck = excluded.deck, updated_at = excluded.updated_at",
                user_id, game_id, name, text, now,
            )  # fmt: skip
        return True

    async def delete_deck(self, user_id: int, game_id: str, name: str) -> bool:
        """Delete a saved deck by name (any case); whether there was one."""
        status = await self._execute(
            "DELETE FROM decks WHERE user_id = $1 AND game_id = $2 AND nocase(name) = nocase($3)",
            user_id, game_id, name,
        )  # fmt: skip
        return status != "DELETE 0"

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
        async with self._transaction() as conn:
            await _lock(conn, f"packs:{guild_id}:{game_id}")  # the count and the next version hold
            if limit is not None:
                exists = await conn.fetchval(
                    f"SELECT 1 FROM card_packs WHERE {_PACK_NAME} AND removed_at IS NULL LIMIT 1",
                    guild_id, game_id, name,
                )  # fmt: skip
                count = await conn.fetchval(
                    "SELECT COUNT(DISTINCT nocase(name)) FROM card_packs "
                    "WHERE guild_id = $1 AND game_id = $2 AND removed_at IS NULL",
                    guild_id, game_id,
                )  # fmt: skip
                if exists is None and count >= limit:
                    return None
            last = await conn.fetchval(
                f"SELECT COALESCE(MAX(version), 0) FROM card_packs WHERE {_PACK_NAME}",
                guild_id,
                game_id,
                name,
            )
            await conn.execute(
                "INSERT INTO card_packs (guild_id, game_id, name, version, filename, text, uploaded_by, "
                "uploaded_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                guild_id, game_id, name, last + 1, filename, text, user_id, now,
            )  # fmt: skip
        return int(last) + 1

    async def packs(self, guild_id: int, game_id: str | None = None) -> list[PackRecord]:
        """The latest version of each of a server's packs (not removed), by game and name."""
        params: list[Any] = [guild_id]
        game = _and_equal(params, game_id=game_id)
        rows = await self._fetch(
            f"SELECT {PACK_COLUMNS} FROM card_packs p WHERE guild_id = $1{game} AND removed_at IS NULL "
            "AND version = (SELECT MAX(version) FROM card_packs q WHERE q.guild_id = p.guild_id "
            "AND q.game_id = p.game_id AND nocase(q.name) = nocase(p.name)) "
            'ORDER BY game_id COLLATE "C", nocase(name) COLLATE "C"',
            *params,
        )
        return [pack_record(r) for r in rows]

    async def pack(
        self, guild_id: int, game_id: str, name: str, version: int | None = None
    ) -> PackRecord | None:
        """One version of a server's pack by name (any case): the latest one in use, or the one given."""
        if version is None:
            rows = await self._fetch(
                f"SELECT {PACK_COLUMNS} FROM card_packs WHERE {_PACK_NAME} AND removed_at IS NULL "
                "ORDER BY version DESC LIMIT 1",
                guild_id, game_id, name,
            )  # fmt: skip
        else:
            rows = await self._fetch(
                f"SELECT {PACK_COLUMNS} FROM card_packs WHERE {_PACK_NAME} AND version = $4",
                guild_id, game_id, name, version,
            )  # fmt: skip
        return pack_record(rows[0]) if rows else None

    async def remove_pack(self, guild_id: int, game_id: str, name: str, now: float) -> bool:
        """Remove a server's pack from use (its versions stay stored); whether there was one."""
        status = await self._execute(
            f"UPDATE card_packs SET removed_at = $4 WHERE {_PACK_NAME} AND removed_at IS NULL",
            guild_id, game_id, name, now,
        )  # fmt: skip
        return status != "UPDATE 0"

    # --- lobby messages ------------------------------------------------------------------------------------
    async def set_lobby_message(self, match_id: int, channel_id: int, message_id: int) -> None:
        """Remember where a match's lobby message is."""
        await self._execute(
            "INSERT INTO lobby_messages (match_id, channel_id, message_id) VALUES ($1, $2, $3) "
            "ON CONFLICT (match_id) DO UPDATE SET channel_id = excluded.channel_id, "
            "message_id = excluded.message_id",
            match_id, channel_id, message_id,
        )  # fmt: skip

    async def lobby_message(self, match_id: int) -> tuple[int, int] | None:
        """(channel id, message id) of a match's lobby message, if known."""
        rows = await self._fetch(
            "SELECT channel_id, message_id FROM lobby_messages WHERE match_id = $1", match_id
        )
        return (int(rows[0][0]), int(rows[0][1])) if rows else None

    async def idle_lobbies(self, before: float, *, shards: Shards | None = None) -> list[MatchSummary]:
        """Lobbies of these shards' guilds unchanged since before (oldest first)."""
        mine, params = _of_shards(shards, 2)
        rows = await self._fetch(
            f"SELECT {SUMMARY_COLUMNS} FROM matches WHERE status = 'lobby' AND updated_at <= $1{mine} "
            "ORDER BY updated_at",
            before, *params,
        )  # fmt: skip
        return [match_summary(r) for r in rows]

    # --- claims ------------------------------------------------------------------------------------------
    async def claim(self, key: str, owner: str, now: float, lease: float) -> bool:
        """Take the claim `key` for owner until now + lease if it is free, ran out, or owner's already.

        One upsert: a racing process waits for the other's row lock, then finds the lease taken."""
        async with self._transaction() as conn:
            taken = await conn.fetchval(
                "INSERT INTO claims (key, owner, until) VALUES ($1, $2, $3) ON CONFLICT (key) DO UPDATE SET "
                "owner = excluded.owner, until = excluded.until "
                "WHERE claims.until < $4 OR claims.owner = excluded.owner RETURNING TRUE",
                key, owner, now + lease, now,
            )  # fmt: skip
        return bool(taken)

    async def release(self, key: str, owner: str) -> None:
        """Drop the claim `key` if owner holds it."""
        await self._execute("DELETE FROM claims WHERE key = $1 AND owner = $2", key, owner)

    async def prune_claims(self, before: float) -> int:
        """Delete the claims whose lease ended before `before`; how many."""
        status = await self._execute("DELETE FROM claims WHERE until < $1", before)
        return int(status.split()[-1])


async def _version(conn: asyncpg.Connection) -> int:
    """The schema version recorded in the database (0 before the first migration)."""
    if not await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL"):
        return 0
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))


async def _lock(conn: asyncpg.Connection, name: str) -> None:
    """Hold a lock on `name` until the transaction ends (others asking for it wait)."""
    await conn.execute("SELECT pg_advisory_xact_lock(hashtext($1))", name)


async def _set_people(conn: asyncpg.Connection, match_id: int, seats: Iterable[Seat]) -> None:
    """Write who has a seat in a match (the match_people rows) to match its seats."""
    await conn.execute("DELETE FROM match_people WHERE match_id = $1", match_id)
    await conn.executemany(
        "INSERT INTO match_people (user_id, match_id) VALUES ($1, $2)", [(p, match_id) for p in people(seats)]
    )


async def _insert_results(
    conn: asyncpg.Connection, match_id: int, now: float, results: list[ResultRow] | None
) -> None:
    """A finished match's results (game and guild from the match), rated in the same transaction."""
    if results:
        rows = [(match_id, r.seat, r.user_id, r.ai, r.share, now) for r in results]
        await conn.executemany(_INSERT_RESULT, rows)
        await _rate_match(conn, match_id)


async def _rate_match(conn: asyncpg.Connection, match_id: int) -> bool:
    """Rate a finished match from its stored results, in each of its scopes, once; whether it was rated
    (see bot.ratings: console games and games of fewer than two players are not)."""
    rows = await conn.fetch(
        f"SELECT {RESULT_COLUMNS} FROM results WHERE match_id = $1 ORDER BY seat", match_id
    )
    match = finished(match_id, rows)
    if match is None:
        return False
    # A game's ratings move one finished match at a time (a rebuild holds them all).
    await conn.execute("SELECT pg_advisory_xact_lock_shared(hashtext('agora:ratings'))")
    await _lock(conn, f"ratings:{match.game_id}")
    if await conn.fetchval("SELECT 1 FROM rating_changes WHERE match_id = $1 LIMIT 1", match_id):
        return False  # rated already: a match moves ratings once
    rated = False
    for scope in match.scopes:
        current = {
            str(p): ratings.Rating(mu, sigma, games, wins)
            for p, mu, sigma, games, wins in await conn.fetch(
                "SELECT player, mu, sigma, games, wins FROM ratings WHERE scope = $1 AND game_id = $2 "
                "AND player = ANY($3::text[])",
                scope, match.game_id, match.players,
            )
        }  # fmt: skip
        now, moved = match.rate(scope, current)
        await conn.executemany(_SET_RATING, now)
        await conn.executemany(
            f"INSERT INTO rating_changes ({CHANGE_COLUMNS}) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)",
            moved,
        )
        rated = rated or bool(moved)
    return rated


def _of_shards(shards: Shards | None, first: int) -> tuple[str, tuple[Any, ...]]:
    """An AND clause keeping the matches of these shards' guilds ("" for all), numbering its parameters
    from $first, and those parameters."""
    if shards is None:
        return "", ()
    where = f" AND ((COALESCE(guild_id, 0) >> 22) % ${first}) = ANY(${first + 1}::bigint[])"
    return where, (shards.count, sorted(shards.ids))


def _and_equal(params: list[Any], **filters: Any) -> str:
    """The SQL of an equality test on each filter that is set; appends their values to params."""
    sql = ""
    for column, value in filters.items():
        if value is not None:
            params.append(value)
            sql += f" AND {column} = ${len(params)}"
    return sql


def _safe(url: str) -> str:
    """A database URL without its password, to print."""
    head, sep, tail = url.partition("://")
    if "@" not in tail:
        return url
    who, _, where = tail.rpartition("@")
    return f"{head}{sep}{who.split(':', 1)[0]}@{where}"
