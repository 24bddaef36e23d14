"""The store's logic, written once for both backends: every query and every read-modify-write (a move, a deck,
a pack, a vote, a claim, the ratings of a finished match) as SQL with `:name` parameters over a Connection
(bot/store/dialect.py).

A backend (bot/store/sqlite.py, bot/store/postgres.py) only opens, migrates and closes its database and runs
these functions: `_read(fn)` on a connection, `_write(fn)` inside a committed transaction. SQLite runs them in
its writer thread, batched under one commit; PostgreSQL on a pooled connection, one transaction each.
"""

from __future__ import annotations

import functools
import json
from abc import abstractmethod
from collections.abc import Iterable
from typing import Any

from bot import ratings
from bot.store.base import (
    ACTIVE,
    JSON,
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
    Outage,
    PackRecord,
    RatingChange,
    RatingRow,
    RatingsRebuilt,
    ResultRow,
    SeasonRecord,
    Seat,
    Shards,
    StateUpdate,
    UserStats,
    seats_to_text,
)
from bot.store.dialect import Connection, Dialect, Taken
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
    match_options,
    match_record,
    match_summary,
    pack_record,
    people,
    rating_change,
    rating_row,
    update_params,
)
from bot.store.tournaments import TournamentStore, link_table

# --- the queries every backend runs as they are -----------------------------------------------------------
SET_STATE = ", ".join(f"{column} = :{column}" for column in STATE_COLUMNS)
MOVE = f"UPDATE matches SET {SET_STATE} WHERE id = :match_id AND state_id = :expected AND status = :was"
LOG_ACTION = (
    "INSERT INTO actions (match_id, seq, seat, user_id, action_key, at, waited) "
    "VALUES (:match_id, :seq, :seat, :user_id, :key, :at, :waited)"
)
# PostgreSQL: the move and its log row in one statement, one round trip (the log row only if the match moved).
MOVE_AND_LOG = (
    f"WITH moved AS ({MOVE} RETURNING id) INSERT INTO actions (match_id, seq, seat, user_id, action_key, at, "
    "waited) SELECT id, :seq, :seat, :user_id, :key, :at, :waited FROM moved"
)
INSERT_MATCH = (
    "INSERT INTO matches (game_id, rules_version, guild_id, channel_id, origin, status, seed, options, "
    "seats, host_user, created_at, updated_at, rematch_of) VALUES (:game_id, :rules_version, :guild_id, "
    ":channel_id, :origin, :status, :seed, :options, :seats, :host_user, :now, :now, :rematch_of) "
    f"RETURNING {MATCH_COLUMNS}"
)
INSERT_RESULT = (
    "INSERT INTO results (match_id, seat, user_id, ai, game_id, guild_id, share, finished_at) "
    "SELECT :match_id, :seat, :user_id, :ai, game_id, guild_id, :share, :at FROM matches "
    "WHERE id = :match_id "
    "ON CONFLICT (match_id, seat) DO UPDATE SET user_id = excluded.user_id, ai = excluded.ai, "
    "game_id = excluded.game_id, guild_id = excluded.guild_id, share = excluded.share, "
    "finished_at = excluded.finished_at"
)
RATING_NAMES = ("scope", "game_id", "player", "mu", "sigma", "ordinal", "games", "wins")
SET_RATING = (
    f"INSERT INTO ratings ({', '.join(RATING_NAMES)}) VALUES ({', '.join(':' + n for n in RATING_NAMES)}) "
    "ON CONFLICT (scope, game_id, player) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
    "ordinal = excluded.ordinal, games = excluded.games, wins = excluded.wins"
)
CHANGE_NAMES = tuple(c.strip() for c in CHANGE_COLUMNS.split(","))
INSERT_CHANGE = (
    f"INSERT INTO rating_changes ({CHANGE_COLUMNS}) VALUES ({', '.join(':' + n for n in CHANGE_NAMES)})"
)
SAVE_BOARD = (
    f"INSERT INTO boards (match_id, {BOARD_COLUMNS}) VALUES (:match_id, :channel_id, :message_id, :state_id, "
    ":turn, :pinged, :recent) ON CONFLICT (match_id) DO UPDATE SET channel_id = excluded.channel_id, "
    "message_id = excluded.message_id, state_id = excluded.state_id, turn = excluded.turn, "
    "pinged = excluded.pinged, recent = excluded.recent"
)
BOARD_NAMES = ("match_id", *(c.strip() for c in BOARD_COLUMNS.split(",")))
CLAIM = (
    "INSERT INTO claims (key, owner, until) VALUES (:key, :owner, :until) ON CONFLICT (key) DO UPDATE SET "
    "owner = excluded.owner, until = excluded.until "
    "WHERE claims.until < :now OR claims.owner = excluded.owner RETURNING key"
)


def state(update: StateUpdate) -> dict[str, Any]:
    """The parameters of SET_STATE for a state update."""
    return dict(zip(STATE_COLUMNS, update_params(update), strict=True))


class Store(TournamentStore):
    """Async storage of matches, their action logs, results and settings: every method once, as SQL over a
    Connection. A backend opens and closes its database and gives `_read` and `_write`."""

    dialect: Dialect

    @functools.cached_property
    def outage(self) -> Outage:
        """This store's outage tracker (StoreUnavailable and DiskFull start an outage; a success ends it)."""
        return Outage()

    @abstractmethod
    async def open(self) -> None:
        """Connect and apply pending schema migrations."""

    @abstractmethod
    async def close(self) -> None:
        """Close the connection."""

    async def __aenter__(self) -> Store:
        """The store, opened (async with: closed at the end)."""
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        """Close the store at the end of async with."""
        await self.close()

    # --- matches -----------------------------------------------------------------------------------
    async def create_match(self, new: NewMatch) -> MatchRecord:
        """Insert a lobby; Conflict if the channel already has a live match."""
        params = {
            "game_id": new.game_id, "rules_version": new.rules_version, "guild_id": new.guild_id,
            "channel_id": new.channel_id, "origin": new.origin, "status": LOBBY, "seed": new.seed,
            "options": json.dumps(new.options), "seats": seats_to_text(new.seats), "host_user": new.host_user,
            "now": new.now, "rematch_of": new.rematch_of,
        }  # fmt: skip

        async def run(c: Connection) -> MatchRecord:
            try:
                (row,) = await c.fetch(INSERT_MATCH, **params)
            except Taken as e:
                if "rematch" in e.what:
                    raise Conflict(f"match {new.rematch_of} already has a live rematch") from e
                raise Conflict(f"channel {new.channel_id} already has a live match") from e
            await set_people(c, int(row[0]), new.seats)
            if new.table is not None:
                await link_table(c, new.table, int(row[0]))
            return match_record(row)

        return await self._write(run)

    async def get_match(self, match_id: int) -> MatchRecord | None:
        """One match by id."""
        return await self._record(
            match_record, f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = :id", id=match_id
        )

    async def live_match_id(self, channel_id: int) -> int | None:
        """The id of the channel's lobby or active match, if any."""
        sql = "SELECT id FROM matches WHERE channel_id = :channel AND status IN ('lobby', 'active')"
        rows = await self._fetch(sql, channel=channel_id)
        return int(rows[0][0]) if rows else None

    async def latest_match_id(self, channel_id: int) -> int | None:
        """The id of the channel's most recent match, live or over (for /game log after the end)."""
        sql = "SELECT id FROM matches WHERE channel_id = :channel ORDER BY id DESC LIMIT 1"
        rows = await self._fetch(sql, channel=channel_id)
        return int(rows[0][0]) if rows else None

    async def update_seats(
        self, match_id: int, seats: tuple[Seat, ...], host_user: int | None, ai_turn: bool, now: float
    ) -> None:
        """Change who sits where (lobby joins and leaves, a seat handed to an AI)."""

        async def run(c: Connection) -> None:
            await c.execute(
                "UPDATE matches SET seats = :seats, host_user = :host, ai_turn = :ai, updated_at = :now "
                "WHERE id = :id",
                seats=seats_to_text(seats), host=host_user, ai=int(ai_turn), now=now, id=match_id,
            )  # fmt: skip
            await set_people(c, match_id, seats)

        await self._write(run)

    async def set_options(self, match_id: int, options: JSON, now: float) -> None:
        """Replace a lobby's options (the picks people made for their seats, ...)."""
        sql = "UPDATE matches SET options = :options, updated_at = :now WHERE id = :id"
        await self._change(sql, options=json.dumps(options), now=now, id=match_id)

    async def start_match(
        self,
        match_id: int,
        update: StateUpdate,
        rules_version: str | None = None,
        options: JSON | None = None,
    ) -> None:
        """Move a lobby to active with its first snapshot (and the rules version it is dealt under, and the
        options it is dealt with when they changed at the deal); Conflict unless it was a lobby."""
        sql = (
            f"UPDATE matches SET {SET_STATE}, rules_version = COALESCE(:rules, rules_version), "
            "options = COALESCE(:dealt, options), started_at = :started "
            "WHERE id = :match_id AND status = :was"
        )
        dealt = None if options is None else json.dumps(options)
        params = {**state(update), "rules": rules_version, "dealt": dealt, "started": update.now}
        if await self._change(sql, **params, match_id=match_id, was=LOBBY) != 1:
            raise Conflict(f"match {match_id} is not a lobby")

    async def record_action(
        self,
        match_id: int,
        row: LogRow,
        update: StateUpdate,
        expected_state_id: int,
        results: list[ResultRow] | None = None,
    ) -> None:
        """One transaction: the log row, the snapshot and state_id (and results if it ended). Conflict if the
        stored state_id is not expected_state_id. Returns only after the commit. A move that does not end the
        game is one statement on PostgreSQL (one round trip)."""
        params = state(update)
        params.update(
            match_id=match_id, expected=expected_state_id, was=ACTIVE, seq=row.seq, seat=row.seat,
            user_id=row.user_id, key=row.key, at=row.at, waited=json.dumps(list(row.waited)),
        )  # fmt: skip

        async def run(c: Connection) -> None:
            try:
                if c.dialect.writes_in_with:
                    moved = await c.execute(MOVE_AND_LOG, **params)
                else:
                    moved = await c.execute(MOVE, **params) and await c.execute(LOG_ACTION, **params)
            except Taken as e:  # the log already has this position
                raise Conflict(f"match {match_id} already has action {row.seq}") from e
            if moved != 1:
                raise Conflict(f"match {match_id} changed since state {expected_state_id}")
            await insert_results(c, match_id, update.now, results)

        await self._write(run, alone=not results)

    async def record_undo(
        self, match_id: int, undone_seq: int, update: StateUpdate, expected_state_id: int
    ) -> None:
        """One transaction: mark the log row undone and write the rebuilt snapshot."""

        async def run(c: Connection) -> None:
            if (
                await c.execute(
                    MOVE, **state(update), match_id=match_id, expected=expected_state_id, was=ACTIVE
                )
                != 1
            ):
                raise Conflict(f"match {match_id} changed since state {expected_state_id}")
            sql = "UPDATE actions SET undone = 1 WHERE match_id = :id AND seq = :seq AND undone = 0"
            if await c.execute(sql, id=match_id, seq=undone_seq) != 1:
                raise Conflict(f"match {match_id} has no live action {undone_seq} to undo")

        await self._write(run)

    async def save_snapshot(self, match_id: int, update: StateUpdate) -> None:
        """Rewrite a snapshot (after rebuilding a damaged one from the log)."""
        await self._change(
            f"UPDATE matches SET {SET_STATE} WHERE id = :match_id", **state(update), match_id=match_id
        )

    async def set_status(
        self, match_id: int, status: str, note: str, now: float, results: list[ResultRow] | None = None
    ) -> None:
        """Abandon, forfeit (results in the same transaction) or mark a match broken, with a note."""

        async def run(c: Connection) -> None:
            await c.execute(
                "UPDATE matches SET status = :status, note = :note, ai_turn = 0, deadline = NULL, "
                "updated_at = :now WHERE id = :id",
                status=status, note=note, now=now, id=match_id,
            )  # fmt: skip
            await insert_results(c, match_id, now, results)

        await self._write(run)

    async def vote_abandon(self, match_id: int, user_id: int, now: float) -> frozenset[int]:
        """Record a player's request to abandon the match; every user who has asked so far."""
        await self._change(
            "INSERT INTO abandon_votes (match_id, user_id, at) VALUES (:id, :user, :now) "
            "ON CONFLICT DO NOTHING",
            id=match_id, user=user_id, now=now,
        )  # fmt: skip
        rows = await self._fetch("SELECT user_id FROM abandon_votes WHERE match_id = :id", id=match_id)
        return frozenset(int(r[0]) for r in rows)

    async def match_shares(self, match_id: int) -> tuple[float, ...] | None:
        """The recorded share of the win of each seat of a finished match, None if it has no results."""
        rows = await self._fetch("SELECT share FROM results WHERE match_id = :id ORDER BY seat", id=match_id)
        return tuple(float(r[0]) for r in rows) or None

    async def load_log(self, match_id: int, include_undone: bool = False) -> list[LogRow]:
        """The match's action log in order."""
        where = "" if include_undone else " AND undone = 0"
        sql = f"SELECT {LOG_COLUMNS} FROM actions WHERE match_id = :id{where} ORDER BY seq"
        return [log_row(r) for r in await self._fetch(sql, id=match_id)]

    async def matches_awaiting_ai(self, *, shards: Shards | None = None) -> list[int]:
        """Active matches where an AI seat is to act (resumed at start-up), of these shards' guilds (None:
        all)."""
        mine, params = self._of_shards(shards)
        rows = (
            await self._fetch(  # its partial index: SQLite's planner would read every active game otherwise
                f"SELECT id FROM matches{self.dialect.indexed_by('matches_ai_turn')} "
                f"WHERE status = 'active' AND ai_turn = 1{mine} ORDER BY id",
                **params,
            )
        )
        return [int(r[0]) for r in rows]

    async def list_matches(
        self, *, origin: str | None = None, statuses: tuple[str, ...] | None = None, limit: int = 50
    ) -> list[MatchSummary]:
        """Matches, most recently updated first."""
        where = ["TRUE"]
        if origin is not None:
            where.append("origin = :origin")
        if statuses:
            where.append(self.dialect.among("status", "statuses", "text"))
        return await self._records(
            match_summary,
            f"SELECT {SUMMARY_COLUMNS} FROM matches WHERE {' AND '.join(where)} "
            "ORDER BY updated_at DESC, id DESC LIMIT :limit",
            origin=origin, statuses=self.dialect.array(statuses or ()), limit=limit,
        )  # fmt: skip

    async def user_matches(
        self, guild_id: int, user_id: int, statuses: tuple[str, ...] = LIVE_STATUSES
    ) -> list[MatchSummary]:
        """The matches of a guild in these statuses in which a person has a seat (or an AI plays the seat they
        left), the longest unchanged first."""
        live = self.dialect.among("m.status", "statuses", "text")
        return await self._records(
            match_summary,
            f"SELECT {SUMMARY_COLUMNS_OF_M} FROM match_people p JOIN matches m ON m.id = p.match_id "
            f"WHERE p.user_id = :user AND m.guild_id = :guild AND {live} "
            "ORDER BY m.updated_at, m.id",
            user=user_id, guild=guild_id, statuses=self.dialect.array(statuses),
        )  # fmt: skip

    async def rematch_id(self, match_id: int) -> int | None:
        """The lobby or running game opened as a rematch of this match, if there is one."""
        sql = "SELECT id FROM matches WHERE rematch_of = :id AND status IN ('lobby', 'active')"
        rows = await self._fetch(sql, id=match_id)
        return int(rows[0][0]) if rows else None

    async def set_deadline(self, match_id: int, deadline: float | None) -> None:
        """Set or clear the turn deadline."""
        await self._change(
            "UPDATE matches SET deadline = :deadline WHERE id = :id", deadline=deadline, id=match_id
        )

    async def expired_deadlines(self, now: float, *, shards: Shards | None = None) -> list[MatchSummary]:
        """Active matches whose turn deadline has passed, of these shards' guilds (None: all)."""
        mine, params = self._of_shards(shards)
        return await self._records(
            match_summary,
            f"SELECT {SUMMARY_COLUMNS} FROM matches WHERE status = 'active' AND deadline IS NOT NULL "
            f"AND deadline <= :now{mine} ORDER BY deadline",
            now=now, **params,
        )  # fmt: skip

    async def earliest_deadline(self, *, shards: Shards | None = None) -> float | None:
        """The nearest turn deadline of any active match of these shards' guilds (None if there is none)."""
        mine, params = self._of_shards(shards)
        rows = await self._fetch(
            f"SELECT MIN(deadline) FROM matches WHERE status = 'active' AND deadline IS NOT NULL{mine}",
            **params,
        )
        return None if not rows or rows[0][0] is None else float(rows[0][0])

    # --- boards --------------------------------------------------------------------------------------
    async def board(self, match_id: int) -> BoardRecord | None:
        """The stored board message of a match, if any."""
        rows = await self._fetch(f"SELECT {BOARD_COLUMNS} FROM boards WHERE match_id = :id", id=match_id)
        return board_record(match_id, rows[0]) if rows else None

    async def save_board(self, board: BoardRecord) -> None:
        """Store (replace) a match's board message."""
        await self._change(SAVE_BOARD, **dict(zip(BOARD_NAMES, board_params(board), strict=True)))

    async def unposted_boards(self, *, shards: Shards | None = None) -> list[int]:
        """Front-end (discord) matches of these shards' guilds (None: all) whose latest state has no board
        yet: active ones, and finished ones whose final board was not posted."""
        mine, params = self._of_shards(shards)
        rows = await self._fetch(f"{UNPOSTED_BOARDS}{mine} ORDER BY m.id", **params)
        return [int(r[0]) for r in rows]

    # --- stats ---------------------------------------------------------------------------------------
    async def user_stats(
        self, user_id: int, game_id: str | None = None, guild_id: int | None = None
    ) -> UserStats:
        """A user's results, optionally for one game and/or one guild."""
        sql = (
            "SELECT COUNT(*), COUNT(*) FILTER (WHERE share > 0), COALESCE(SUM(share), 0) FROM results "
            "WHERE user_id = :user" + _and_equal(game_id=game_id, guild_id=guild_id)
        )
        played, wins, points = (await self._fetch(sql, user=user_id, game_id=game_id, guild_id=guild_id))[0]
        return UserStats(user_id, int(played), int(wins), float(points))

    async def leaderboard(
        self, game_id: str, guild_id: int | None = None, limit: int = 10
    ) -> list[LeaderRow]:
        """The best players of a game by total share of wins."""
        sql = (
            "SELECT user_id, COUNT(*), COUNT(*) FILTER (WHERE share > 0) AS wins, SUM(share) AS points "
            "FROM results WHERE game_id = :game_id AND user_id IS NOT NULL" + _and_equal(guild_id=guild_id)
        )
        sql += " GROUP BY user_id ORDER BY points DESC, wins DESC, COUNT(*) ASC, user_id LIMIT :limit"
        rows = await self._fetch(sql, game_id=game_id, guild_id=guild_id, limit=limit)
        return [LeaderRow(int(u), int(p), int(w), float(s)) for u, p, w, s in rows]

    # --- ratings -------------------------------------------------------------------------------------------
    async def player_ratings(
        self, player: str, scopes: tuple[int, ...], game_id: str | None = None
    ) -> list[RatingRow]:
        """A player's current ratings in these scopes (one game or all): by game, a server's before all
        servers'."""
        d = self.dialect
        sql = (
            f"SELECT {RATING_COLUMNS} FROM ratings "
            f"WHERE player = :player AND {d.among('scope', 'scopes', 'bigint')}"
            f"{_and_equal(game_id=game_id)} ORDER BY {d.binary('game_id')}, scope = 0, scope"
        )
        return await self._records(rating_row, sql, player=player, scopes=d.array(scopes), game_id=game_id)

    async def game_ratings(
        self, game_id: str, scope: int, *, min_games: int, ranked: bool = True, limit: int = 10
    ) -> list[RatingRow]:
        """A game's ratings in a scope: the ranked players (at least min_games), best first; or (ranked
        False) those not ranked yet, most games first."""
        where, order = (
            ("games >= :least", "ordinal DESC") if ranked else ("games < :least", "games DESC, ordinal DESC")
        )
        return await self._records(
            rating_row,
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE scope = :scope AND game_id = :game_id AND {where} "
            f"ORDER BY {order}, {self.dialect.binary('player')} LIMIT :limit",
            scope=scope, game_id=game_id, least=min_games, limit=limit,
        )  # fmt: skip

    async def match_rating_changes(self, match_id: int, scope: int) -> list[RatingChange]:
        """How a finished match moved each player's rating in a scope ([] for an unrated match)."""
        return await self._records(
            rating_change,
            f"SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE match_id = :id AND scope = :scope "
            f"ORDER BY {self.dialect.binary('player')}",
            id=match_id, scope=scope,
        )  # fmt: skip

    async def recent_rating_changes(
        self, scope: int, game_id: str, player: str, limit: int
    ) -> list[RatingChange]:
        """A player's last rating changes in a game and scope, the newest first."""
        return await self._records(
            rating_change,
            f"SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE scope = :scope AND game_id = :game_id "
            "AND player = :player ORDER BY finished_at DESC, match_id DESC LIMIT :limit",
            scope=scope, game_id=game_id, player=player, limit=limit,
        )  # fmt: skip

    async def rebuild_ratings(self) -> RatingsRebuilt:
        """Recompute every rating from the stored results in finish order, in one transaction."""
        return await self._write(rebuild_ratings, slow=True)

    # --- settings of servers and people ---------------------------------------------------------------
    async def guild_settings(self, guild_id: int) -> JSON:
        """All settings of a guild as a dict (empty if none were set)."""
        rows = await self._fetch("SELECT key, value FROM guild_settings WHERE guild_id = :id", id=guild_id)
        return {k: json.loads(v) for k, v in rows}

    async def set_guild_setting(self, guild_id: int, key: str, value: Any) -> None:
        """Set one setting (any JSON value); None deletes it."""
        await self._set_setting("guild_settings", "guild_id", guild_id, key, value)

    async def user_setting(self, user_id: int, key: str) -> Any:
        """One setting of a person (None if unset)."""
        sql = "SELECT value FROM user_settings WHERE user_id = :id AND key = :key"
        rows = await self._fetch(sql, id=user_id, key=key)
        return json.loads(rows[0][0]) if rows else None

    async def set_user_setting(self, user_id: int, key: str, value: Any) -> None:
        """Set one setting of a person (any JSON value); None deletes it."""
        await self._set_setting("user_settings", "user_id", user_id, key, value)

    async def _set_setting(self, table: str, owner: str, owner_id: int, key: str, value: Any) -> None:
        """Upsert (or, for None, delete) one JSON setting in a (owner, key) -> value table."""
        if value is None:
            await self._change(
                f"DELETE FROM {table} WHERE {owner} = :id AND key = :key", id=owner_id, key=key
            )
        else:
            await self._change(
                f"INSERT INTO {table} ({owner}, key, value) VALUES (:id, :key, :value) "
                f"ON CONFLICT ({owner}, key) DO UPDATE SET value = excluded.value",
                id=owner_id, key=key, value=json.dumps(value),
            )  # fmt: skip

    # --- people's saved decks ----------------------------------------------------------------------------
    async def decks(self, user_id: int, game_id: str) -> list[DeckRecord]:
        """A person's saved decks for a game, by name (case-insensitively)."""
        d = self.dialect
        return await self._records(
            deck_record,
            f"SELECT {DECK_COLUMNS} FROM decks WHERE user_id = :user AND game_id = :game "
            f"ORDER BY {d.binary(d.fold('name'))}, {d.binary('name')}",
            user=user_id, game=game_id,
        )  # fmt: skip

    async def deck(self, user_id: int, game_id: str, name: str) -> DeckRecord | None:
        """One saved deck by name (any case), or None."""
        d = self.dialect
        return await self._record(
            deck_record,
            f"SELECT {DECK_COLUMNS} FROM decks WHERE user_id = :user AND game_id = :game "
            f"AND {d.fold('name')} = {d.fold(':name')}",
            user=user_id, game=game_id, name=name,
        )  # fmt: skip

    async def save_deck(
        self, user_id: int, game_id: str, name: str, deck: JSON, now: float, *, limit: int | None = None
    ) -> bool:
        """Save a deck under a name, replacing the one of that name in any case (which then takes this
        spelling); False, and nothing saved, when the name is new and the person already has `limit` decks
        for the game."""
        d = self.dialect
        mine = {"user": user_id, "game": game_id, "name": name}

        async def run(c: Connection) -> bool:
            if limit is not None:
                await c.lock(f"decks:{user_id}:{game_id}")  # the count holds until the commit
                exists = await c.fetchval(
                    f"SELECT 1 FROM decks WHERE user_id = :user AND game_id = :game "
                    f"AND {d.fold('name')} = {d.fold(':name')}",
                    **mine,
                )
                count = await c.fetchval(
                    "SELECT COUNT(*) FROM decks WHERE user_id = :user AND game_id = :game", **mine
                )
                if exists is None and count >= limit:
                    return False
            await c.execute(
                "INSERT INTO decks (user_id, game_id, name, deck, updated_at) VALUES (:user, :game, :name, "
                f":deck, :now) ON CONFLICT (user_id, game_id, {d.fold('name')}) DO UPDATE SET "
                "name = excluded.name, deck = excluded.deck, updated_at = excluded.updated_at",
                **mine, deck=json.dumps(deck, separators=(",", ":")), now=now,
            )  # fmt: skip
            return True

        return await self._write(run)

    async def delete_deck(self, user_id: int, game_id: str, name: str) -> bool:
        """Delete a saved deck by name (any case); whether there was one."""
        d = self.dialect
        sql = "DELETE FROM decks WHERE user_id = :user AND game_id = :game "
        sql += f"AND {d.fold('name')} = {d.fold(':name')}"
        return await self._change(sql, user=user_id, game=game_id, name=name) > 0

    # --- servers' card packs ------------------------------------------------------------------------------
    def _pack_named(self) -> str:
        """The WHERE of a server's pack of a game by name, in any case."""
        d = self.dialect
        return f"guild_id = :guild AND game_id = :game AND {d.fold('name')} = {d.fold(':name')}"

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
        """Store a pack file as the next version of the server's pack of that name for the game (any case; the
        new version takes this spelling); that version, or None, and nothing stored, when the name is new and
        the server already has `limit` packs for the game."""
        named, ours = self._pack_named(), {"guild": guild_id, "game": game_id, "name": name}
        live = f"SELECT COUNT(DISTINCT {self.dialect.fold('name')}) FROM card_packs "
        live += "WHERE guild_id = :guild AND game_id = :game AND removed_at IS NULL"

        async def run(c: Connection) -> int | None:
            await c.lock(f"packs:{guild_id}:{game_id}")  # the count and the next version hold
            if limit is not None:
                exists = await c.fetchval(
                    f"SELECT 1 FROM card_packs WHERE {named} AND removed_at IS NULL LIMIT 1", **ours
                )
                if exists is None and await c.fetchval(live, **ours) >= limit:
                    return None
            last = int(
                await c.fetchval(f"SELECT COALESCE(MAX(version), 0) FROM card_packs WHERE {named}", **ours)
            )
            await c.execute(
                "INSERT INTO card_packs (guild_id, game_id, name, version, filename, text, uploaded_by, "
                "uploaded_at) VALUES (:guild, :game, :name, :version, :filename, :text, :user, :now)",
                **ours, version=last + 1, filename=filename, text=text, user=user_id, now=now,
            )  # fmt: skip
            return last + 1

        return await self._write(run)

    async def packs(self, guild_id: int, game_id: str | None = None) -> list[PackRecord]:
        """The latest version of each of a server's packs (not removed), for one game or all, by game and
        name."""
        d = self.dialect
        return await self._records(
            pack_record,
            f"SELECT {PACK_COLUMNS} FROM card_packs p "
            f"WHERE guild_id = :guild_id{_and_equal(game_id=game_id)} AND removed_at IS NULL "
            "AND version = (SELECT MAX(version) FROM card_packs q WHERE q.guild_id = p.guild_id "
            f"AND q.game_id = p.game_id AND {d.fold('q.name')} = {d.fold('p.name')}) "
            f"ORDER BY {d.binary('game_id')}, {d.binary(d.fold('name'))}",
            guild_id=guild_id, game_id=game_id,
        )  # fmt: skip

    async def pack(
        self, guild_id: int, game_id: str, name: str, version: int | None = None
    ) -> PackRecord | None:
        """One version of a server's pack by name (any case): the latest of a pack not removed when version is
        None; any stored version (removed or not) when it is given."""
        sql = f"SELECT {PACK_COLUMNS} FROM card_packs WHERE {self._pack_named()} "
        if version is None:
            sql += "AND removed_at IS NULL ORDER BY version DESC LIMIT 1"
        else:
            sql += "AND version = :version"
        return await self._record(pack_record, sql, guild=guild_id, game=game_id, name=name, version=version)

    async def remove_pack(self, guild_id: int, game_id: str, name: str, now: float) -> bool:
        """Remove a server's pack from use (its versions stay stored); whether there was one."""
        sql = f"UPDATE card_packs SET removed_at = :now WHERE {self._pack_named()} AND removed_at IS NULL"
        return await self._change(sql, guild=guild_id, game=game_id, name=name, now=now) > 0

    # --- lobby messages ------------------------------------------------------------------------------------
    async def set_lobby_message(self, match_id: int, channel_id: int, message_id: int) -> None:
        """Remember where a match's lobby message is."""
        await self._change(
            "INSERT INTO lobby_messages (match_id, channel_id, message_id) VALUES (:id, :channel, :message) "
            "ON CONFLICT (match_id) DO UPDATE SET channel_id = excluded.channel_id, "
            "message_id = excluded.message_id",
            id=match_id, channel=channel_id, message=message_id,
        )  # fmt: skip

    async def lobby_message(self, match_id: int) -> tuple[int, int] | None:
        """(channel id, message id) of a match's lobby message, if known."""
        sql = "SELECT channel_id, message_id FROM lobby_messages WHERE match_id = :id"
        rows = await self._fetch(sql, id=match_id)
        return (int(rows[0][0]), int(rows[0][1])) if rows else None

    async def idle_lobbies(self, before: float, *, shards: Shards | None = None) -> list[MatchSummary]:
        """Lobbies of these shards' guilds (None: all) unchanged since before (oldest first)."""
        mine, params = self._of_shards(shards)
        return await self._records(
            match_summary,
            f"SELECT {SUMMARY_COLUMNS} FROM matches WHERE status = 'lobby' AND updated_at <= :before{mine} "
            "ORDER BY updated_at",
            before=before, **params,
        )  # fmt: skip

    # --- seasons -----------------------------------------------------------------------------------------
    async def seasons(self, guild_id: int) -> list[SeasonRecord]:
        """A server's seasons, the first first (the running one last)."""
        return await self._records(
            season_record,
            f"SELECT {SEASON_COLUMNS} FROM seasons WHERE guild_id = :g ORDER BY number",
            g=guild_id,
        )

    async def start_season(self, guild_id: int, starts_at: float, ends_at: float) -> SeasonRecord | None:
        """Open the server's next season (numbered after its last) unless one is running; None if one is."""

        async def run(c: Connection) -> SeasonRecord | None:
            await c.lock(f"seasons:{guild_id}")  # two callers at once: one season
            if await c.fetchval(
                "SELECT 1 FROM seasons WHERE guild_id = :g AND posted_at IS NULL", g=guild_id
            ):
                return None
            last = await c.fetchval("SELECT MAX(number) FROM seasons WHERE guild_id = :g", g=guild_id)
            return await _open_season(c, guild_id, int(last or 0) + 1, starts_at, ends_at)

        return await self._write(run)

    async def set_season_end(self, guild_id: int, number: int, ends_at: float) -> bool:
        """Move the end of a season not posted yet; whether it was."""
        sql = "UPDATE seasons SET ends_at = :ends WHERE guild_id = :g AND number = :n AND posted_at IS NULL"
        return await self._change(sql, g=guild_id, n=number, ends=ends_at) > 0

    async def due_seasons(self, now: float, *, shards: Shards | None = None) -> list[SeasonRecord]:
        """The seasons of these shards' servers (None: all) whose end has passed and whose standings are not
        posted yet, the oldest end first."""
        mine, params = self._of_shards(shards)
        return await self._records(
            season_record,
            f"SELECT {SEASON_COLUMNS} FROM seasons WHERE posted_at IS NULL AND ends_at <= :now{mine} "
            "ORDER BY ends_at, guild_id",
            now=now, **params,
        )  # fmt: skip

    async def season_posted(self, guild_id: int, number: int, now: float, next_ends: float | None) -> bool:
        """Mark a season's final standings posted and (next_ends given) open the next season from its end,
        in one transaction; whether this call marked it (False: it was marked already)."""

        async def run(c: Connection) -> bool:
            await c.lock(f"seasons:{guild_id}")
            marked = await c.execute(
                "UPDATE seasons SET posted_at = :now WHERE guild_id = :g AND number = :n "
                "AND posted_at IS NULL",
                g=guild_id, n=number, now=now,
            )  # fmt: skip
            if marked and next_ends is not None:
                ended = await c.fetchval("SELECT ends_at FROM seasons WHERE guild_id = :g AND number = :n",
                                         g=guild_id, n=number)  # fmt: skip
                await _open_season(c, guild_id, number + 1, float(ended), next_ends)
            return marked > 0

        return await self._write(run)

    async def season_ratings(
        self, guild_id: int, game_id: str, starts_at: float, ends_at: float
    ) -> list[RatingRow]:
        """A game's board for a season on a server: each player rated in it, with their rating after their
        last game in it and their games and wins in it (ratings carry across seasons), the best first."""
        rows = await self._fetch(
            "SELECT player, mu_after, sigma_after, n, w FROM (SELECT player, mu_after, sigma_after, "
            "COUNT(*) OVER (PARTITION BY player) AS n, SUM(won) OVER (PARTITION BY player) AS w, "
            "ROW_NUMBER() OVER (PARTITION BY player ORDER BY finished_at DESC, match_id DESC) AS k "
            "FROM rating_changes WHERE scope = :scope AND game_id = :game AND finished_at >= :start "
            "AND finished_at < :end) AS s WHERE k = 1",
            scope=guild_id, game=game_id, start=starts_at, end=ends_at,
        )  # fmt: skip
        found = [
            RatingRow(guild_id, game_id, str(p), ratings.Rating(float(mu), float(sigma), int(n), int(w)))
            for p, mu, sigma, n, w in rows
        ]
        return sorted(found, key=lambda r: (-r.rating.ordinal, r.player))

    async def season_games(self, guild_id: int, starts_at: float, ends_at: float) -> list[str]:
        """The games with rated games on a server within a span (a season), by id."""
        rows = await self._fetch(
            "SELECT game_id FROM rating_changes WHERE scope = :scope AND finished_at >= :start "
            f"AND finished_at < :end GROUP BY game_id ORDER BY {self.dialect.binary('game_id')}",
            scope=guild_id, start=starts_at, end=ends_at,
        )  # fmt: skip
        return [str(r[0]) for r in rows]

    # --- claims ------------------------------------------------------------------------------------------
    async def claim(self, key: str, owner: str, now: float, lease: float) -> bool:
        """Take the claim `key` for owner until now + lease if nobody holds it, its lease ran out, or owner
        holds it already (a renewal); atomic in the database: of two racing, exactly one gets True. One
        upsert: a racing process waits for the other's row lock, then finds the lease taken."""
        params = {"key": key, "owner": owner, "until": now + lease, "now": now}
        taken = await self._write(lambda c: c.fetchval(CLAIM, **params), alone=True)
        return taken is not None

    async def release(self, key: str, owner: str) -> None:
        """Drop the claim `key` if owner holds it."""
        await self._change("DELETE FROM claims WHERE key = :key AND owner = :owner", key=key, owner=owner)

    async def prune_claims(self, before: float) -> int:
        """Delete the claims whose lease ended before `before`; how many."""
        return await self._change("DELETE FROM claims WHERE until < :before", before=before)


def _options(text: str | None) -> dict[str, Any]:
    """A match's stored options, {} if they no longer parse (rating never fails on damaged options)."""
    try:
        return match_options(text or "{}")
    except (ValueError, TypeError):
        return {}


def _and_equal(**filters: Any) -> str:
    """The SQL of an equality test on each filter that is set (its parameter named as its column)."""
    return "".join(f" AND {column} = :{column}" for column, value in filters.items() if value is not None)


# --- writes inside a caller's transaction -------------------------------------------------------------------
SEASON_COLUMNS = "guild_id, number, starts_at, ends_at, posted_at"


def season_record(row: Iterable[Any]) -> SeasonRecord:
    """A seasons row (SEASON_COLUMNS) as a record."""
    guild_id, number, starts_at, ends_at, posted_at = row
    posted = None if posted_at is None else float(posted_at)
    return SeasonRecord(int(guild_id), int(number), float(starts_at), float(ends_at), posted)


async def _open_season(
    c: Connection, guild_id: int, number: int, starts_at: float, ends_at: float
) -> SeasonRecord:
    """Write a season's row (a second writer of the same number finds it there: nothing changes)."""
    await c.execute(
        "INSERT INTO seasons (guild_id, number, starts_at, ends_at) VALUES (:g, :n, :start, :end) "
        "ON CONFLICT (guild_id, number) DO NOTHING",
        g=guild_id, n=number, start=starts_at, end=ends_at,
    )  # fmt: skip
    return SeasonRecord(guild_id, number, starts_at, ends_at)


async def set_people(c: Connection, match_id: int, seats: Iterable[Seat]) -> None:
    """Write who has a seat in a match (the match_people rows) to match its seats."""
    await c.execute("DELETE FROM match_people WHERE match_id = :id", id=match_id)
    rows = [{"user": p, "id": match_id} for p in people(seats)]
    if rows:
        await c.executemany("INSERT INTO match_people (user_id, match_id) VALUES (:user, :id)", rows)


async def insert_results(c: Connection, match_id: int, now: float, results: list[ResultRow] | None) -> None:
    """A finished match's results (game and guild from the match), rated in the same transaction."""
    if results:
        rows = [
            {
                "match_id": match_id,
                "seat": r.seat,
                "user_id": r.user_id,
                "ai": r.ai,
                "share": r.share,
                "at": now,
            }
            for r in results
        ]
        await c.executemany(INSERT_RESULT, rows)
        await rate_match(c, match_id)


async def rate_match(c: Connection, match_id: int) -> bool:
    """Rate a finished match from its stored results, in each of its scopes, once; whether it was rated
    (see bot.ratings: console games and games of fewer than two players are not)."""
    sql = f"SELECT {RESULT_COLUMNS} FROM results WHERE match_id = :id ORDER BY seat"
    match = finished(match_id, await c.fetch(sql, id=match_id))
    if match is None:
        return False
    if not ratings.is_ranked(
        _options(await c.fetchval("SELECT options FROM matches WHERE id = :id", id=match_id))
    ):
        return False  # a casual table: its results count in stats, never in ratings
    # A game's ratings move one finished match at a time (a rebuild holds them all).
    await c.lock("agora:ratings", shared=True)
    await c.lock(f"ratings:{match.game_id}")
    if await c.fetchval("SELECT 1 FROM rating_changes WHERE match_id = :id LIMIT 1", id=match_id):
        return False  # rated already: a match moves ratings once
    players = c.dialect.among("player", "players", "text")
    rated = False
    for scope in match.scopes:
        current = {
            str(p): ratings.Rating(mu, sigma, games, wins)
            for p, mu, sigma, games, wins in await c.fetch(
                "SELECT player, mu, sigma, games, wins FROM ratings WHERE scope = :scope AND game_id = :game "
                f"AND {players}",
                scope=scope, game=match.game_id, players=c.dialect.array(match.players),
            )
        }  # fmt: skip
        now, moved = match.rate(scope, current)
        await c.executemany(SET_RATING, [dict(zip(RATING_NAMES, r, strict=True)) for r in now])
        if moved:
            await c.executemany(INSERT_CHANGE, [dict(zip(CHANGE_NAMES, r, strict=True)) for r in moved])
        rated = rated or bool(moved)
    return rated


async def rebuild_ratings(c: Connection) -> RatingsRebuilt:
    """Forget every rating and rate every match with results again, in finish order (the caller's
    transaction; no match is rated meanwhile)."""
    await c.lock("agora:ratings")
    await c.execute("DELETE FROM rating_changes")
    await c.execute("DELETE FROM ratings")
    order = await c.fetch(
        "SELECT match_id FROM results GROUP BY match_id ORDER BY MIN(finished_at), match_id"
    )
    rated = 0
    for (match_id,) in order:
        rated += await rate_match(c, int(match_id))
    stored = await c.fetchval("SELECT COUNT(*) FROM ratings")
    changes = await c.fetchval("SELECT COUNT(*) FROM rating_changes")
    return RatingsRebuilt(len(order), rated, int(stored), int(changes))
