"""The store's tournaments (bot/tournament decides, bot/discord/tournaments.py runs them): their rows, their
players and each round's tables, written so that every step of running one can be done again after a crash
without doing it twice:
- a round is paired once: `save_round` writes its tables and moves the tournament to it in one transaction,
  only from the round before (two processes racing: one wins);
- a table's thread, then its game, are written as soon as they exist (the game with its link, in the match's
  own insert: NewMatch.table), so a restart between pairing and the games' start opens only what is missing;
- a table's points are written once (`set_points` only where none are yet, unless a manager corrects them).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.store.base import (
    CANCELLED,
    DONE,
    SIGNUP,
    TOURNAMENT_LIVE,
    EntrantRecord,
    NewTournament,
    Shards,
    TableKey,
    TableRecord,
    TournamentRecord,
)
from bot.store.dialect import Connection
from bot.store.queries import Queries
from bot.store.rows import (
    ENTRANT_COLUMNS,
    TABLE_COLUMNS,
    TOURNAMENT_COLUMNS,
    entrant_record,
    table_record,
    tournament_record,
)

# What a manager or the tournament's run may change on its row (update_tournament).
CHANGEABLE = frozenset({"message_id", "status", "round_ends", "paused_at", "note", "starts_at", "announced"})


def _tables_params(tournament_id: int, tables: Sequence[TableRecord]) -> list[dict[str, Any]]:
    return [
        {
            "id": tournament_id, "round": t.round, "table_no": t.table_no,
            "players": json.dumps(list(t.players)),
            "points": None if t.points is None else json.dumps(list(t.points)), "how": t.how,
        }
        for t in tables
    ]  # fmt: skip


class TournamentStore(Queries):
    """Tournaments, their players and their rounds' tables."""

    async def create_tournament(self, new: NewTournament) -> TournamentRecord:
        """Insert a tournament open for sign-up."""
        sql = (
            "INSERT INTO tournaments (guild_id, channel_id, game_id, name, format, rounds, round_seconds, "
            "seats, options, adjudication, status, starts_at, created_by, created_at, updated_at) VALUES ("
            ":guild, :channel, :game, :name, :format, :rounds, :round_seconds, :seats, :options, "
            f":adjudication, :status, :starts, :by, :now, :now) RETURNING {TOURNAMENT_COLUMNS}"
        )
        params = {
            "guild": new.guild_id, "channel": new.channel_id, "game": new.game_id, "name": new.name,
            "format": new.format, "rounds": new.rounds, "round_seconds": new.round_seconds,
            "seats": new.seats,
            "options": json.dumps(new.options), "adjudication": new.adjudication, "status": SIGNUP,
            "starts": new.starts_at, "by": new.created_by, "now": new.now,
        }  # fmt: skip
        rows = await self._write(lambda c: c.fetch(sql, **params))
        return tournament_record(rows[0])

    async def tournament(self, tournament_id: int) -> TournamentRecord | None:
        """One tournament by id."""
        sql = f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = :id"
        return await self._record(tournament_record, sql, id=tournament_id)

    async def tournaments(
        self, guild_id: int, *, live: bool | None = None, limit: int = 25
    ) -> list[TournamentRecord]:
        """A server's tournaments, the newest first: the live ones (sign-up, running, paused), the others, or
        all (live None)."""
        statuses = ", ".join(f"'{s}'" for s in TOURNAMENT_LIVE)
        where = "" if live is None else f" AND status {'' if live else 'NOT '}IN ({statuses})"
        sql = (
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE guild_id = :guild{where} "
            "ORDER BY id DESC LIMIT :limit"
        )
        return await self._records(tournament_record, sql, guild=guild_id, limit=limit)

    async def tournaments_to_run(self, *, shards: Shards | None = None) -> list[TournamentRecord]:
        """The tournaments of these shards' guilds (None: all) that time may move on: open for sign-up or
        running (a paused one waits for its manager)."""
        mine, params = self._of_shards(shards)
        sql = (
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE status IN ('signup', 'running'){mine} "
            "ORDER BY id"
        )
        return await self._records(tournament_record, sql, **params)

    async def update_tournament(self, tournament_id: int, now: float, **changes: Any) -> None:
        """Change some of a tournament's columns (CHANGEABLE)."""
        if unknown := set(changes) - CHANGEABLE:
            raise ValueError(f"cannot change {sorted(unknown)}")
        sets = "".join(f", {k} = :{k}" for k in changes)
        sql = f"UPDATE tournaments SET updated_at = :now{sets} WHERE id = :id"
        await self._change(sql, now=now, id=tournament_id, **changes)

    async def finish_tournament(self, tournament_id: int, status: str, note: str, now: float) -> bool:
        """End a live tournament (DONE or CANCELLED) once; whether this call ended it."""
        assert status in (DONE, CANCELLED)
        sql = (
            "UPDATE tournaments SET status = :status, note = :note, round_ends = NULL, updated_at = :now "
            "WHERE id = :id AND status IN ('signup', 'running', 'paused')"
        )
        return await self._change(sql, status=status, note=note, now=now, id=tournament_id) > 0

    # --- players -------------------------------------------------------------------------------------------
    async def add_entrant(self, tournament_id: int, entrant: EntrantRecord) -> bool:
        """Sign a player up while the tournament is open for sign-up; False if they already are, or it is not
        open any more."""
        sql = (
            "INSERT INTO tournament_players (tournament_id, player, user_id, ai, name, joined_at) "
            "SELECT :id, :player, :user, :ai, :name, :at FROM tournaments "
            "WHERE id = :id AND status = 'signup' "
            "ON CONFLICT (tournament_id, player) DO NOTHING"
        )
        e = entrant
        return (
            await self._change(sql, id=tournament_id, player=e.player, user=e.user_id, ai=e.ai, name=e.name,
                               at=e.joined_at)
            > 0
        )  # fmt: skip

    async def remove_entrant(self, tournament_id: int, player: str) -> bool:
        """Take a player off the list while sign-up is open; whether they were on it."""
        sql = (
            "DELETE FROM tournament_players WHERE tournament_id = :id AND player = :player AND EXISTS "
            "(SELECT 1 FROM tournaments WHERE id = :id AND status = 'signup')"
        )
        return await self._change(sql, id=tournament_id, player=player) > 0

    async def drop_entrant(self, tournament_id: int, player: str, from_round: int) -> bool:
        """Stop pairing a player from a round on (they keep their results); whether they were still in."""
        sql = (
            "UPDATE tournament_players SET dropped = :round WHERE tournament_id = :id AND player = :player "
            "AND dropped IS NULL"
        )
        return await self._change(sql, id=tournament_id, player=player, round=from_round) > 0

    async def entrants(self, tournament_id: int) -> list[EntrantRecord]:
        """A tournament's players in the order they joined."""
        sql = (
            f"SELECT {ENTRANT_COLUMNS} FROM tournament_players WHERE tournament_id = :id "
            f"ORDER BY joined_at, {self.dialect.binary('player')}"
        )
        return await self._records(entrant_record, sql, id=tournament_id)

    # --- rounds and their tables ----------------------------------------------------------------------------
    async def save_round(
        self, tournament_id: int, round_no: int, tables: Sequence[TableRecord], ends: float, now: float
    ) -> bool:
        """Write a round's pairing and make it the tournament's current round, in one transaction, only if
        the tournament is at the round before (running or just starting); whether this call did it."""

        async def run(c: Connection) -> bool:
            moved = await c.execute(
                "UPDATE tournaments SET round = :round, round_ends = :ends, status = 'running', "
                "updated_at = :now WHERE id = :id AND round = :before AND status IN ('signup', 'running')",
                round=round_no, ends=ends, now=now, id=tournament_id, before=round_no - 1,
            )  # fmt: skip
            if not moved:
                return False
            if tables:
                await c.executemany(
                    "INSERT INTO tournament_tables (tournament_id, round, table_no, players, points, how) "
                    "VALUES (:id, :round, :table_no, :players, :points, :how)",
                    _tables_params(tournament_id, tables),
                )
            return True

        return await self._write(run)

    async def tables(self, tournament_id: int, round_no: int | None = None) -> list[TableRecord]:
        """A tournament's tables, of one round or all, in round and table order."""
        one = "" if round_no is None else " AND round = :round"
        sql = (
            f"SELECT {TABLE_COLUMNS} FROM tournament_tables WHERE tournament_id = :id{one} "
            "ORDER BY round, table_no"
        )
        return await self._records(table_record, sql, id=tournament_id, round=round_no)

    async def set_table_thread(self, key: TableKey, thread_id: int) -> None:
        """Remember the thread a table's game is played in."""
        await self._change(
            "UPDATE tournament_tables SET thread_id = :thread WHERE tournament_id = :id AND round = :round "
            "AND table_no = :table_no",
            thread=thread_id, **_key(key),
        )  # fmt: skip

    async def set_points(
        self, key: TableKey, points: Sequence[float], how: str, *, again: bool = False
    ) -> bool:
        """Decide a table: each seat's points and how (played, adjudicated, recorded…), once — unless `again`
        (a manager records a result over another); whether this call wrote them."""
        only = "" if again else " AND points IS NULL"
        return (
            await self._change(
                "UPDATE tournament_tables SET points = :points, how = :how WHERE tournament_id = :id "
                f"AND round = :round AND table_no = :table_no{only}",
                points=json.dumps(list(points)), how=how, **_key(key),
            )
            > 0
        )  # fmt: skip

    async def table_of_match(self, match_id: int) -> TableKey | None:
        """The tournament table a match is the game of, if any."""
        rows = await self._fetch(
            "SELECT tournament_id, round, table_no FROM tournament_tables WHERE match_id = :id", id=match_id
        )
        return TableKey(int(rows[0][0]), int(rows[0][1]), int(rows[0][2])) if rows else None

    async def tournament_games(self, match_ids: Sequence[int]) -> dict[int, tuple[TableKey, str]]:
        """For those of these matches that are tournament games: their table and the tournament's name."""
        if not match_ids:
            return {}
        among = self.dialect.among("t.match_id", "ids", "bigint")
        rows = await self._fetch(
            "SELECT t.match_id, t.tournament_id, t.round, t.table_no, n.name FROM tournament_tables t "
            f"JOIN tournaments n ON n.id = t.tournament_id WHERE {among}",
            ids=self.dialect.array(list(match_ids)),
        )
        return {int(m): (TableKey(int(t), int(r), int(k)), str(name)) for m, t, r, k, name in rows}


async def link_table(c: Connection, key: TableKey, match_id: int) -> None:
    """Make a new match the game of a tournament table (in the match's own insert: never one without the
    other)."""
    await c.execute(
        "UPDATE tournament_tables SET match_id = :match WHERE tournament_id = :id AND round = :round "
        "AND table_no = :table_no",
        match=match_id, **_key(key),
    )  # fmt: skip


def _key(key: TableKey) -> dict[str, int]:
    return {"id": key.tournament_id, "round": key.round, "table_no": key.table_no}
