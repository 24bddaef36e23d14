"""What every SQL backend shares: the column lists, database rows read into records (a damaged column noted,
never raised), the parameters of a state update, and the rating of a finished match from its results.

Pure functions over row tuples: no connection and no placeholder style (`?` or `$1`) in here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from bot import ratings
from bot.store.base import (
    JSON,
    BoardRecord,
    DeckRecord,
    EntrantRecord,
    LogRow,
    MatchRecord,
    MatchSummary,
    PackRecord,
    RatingChange,
    RatingRow,
    Seat,
    StateUpdate,
    TableRecord,
    TournamentRecord,
    seats_from_text,
    snapshot_hash,
)

T = TypeVar("T")

MATCH_COLUMNS = (
    "id, game_id, rules_version, guild_id, channel_id, origin, status, seed, options, seats, host_user, "
    "created_at, updated_at, snapshot, snapshot_hash, state_id, log_len, undo_floor, to_act, ai_turn, "
    "deadline, note, rematch_of, started_at"
)
SUMMARY_COLUMNS = "id, game_id, status, channel_id, guild_id, seats, state_id, updated_at, deadline, to_act"
SUMMARY_COLUMNS_OF_M = ", ".join(f"m.{c.strip()}" for c in SUMMARY_COLUMNS.split(","))  # matches AS m
# Front-end matches whose latest state has no board yet (no parameters: a shard filter may follow).
UNPOSTED_BOARDS = (
    "SELECT m.id FROM matches m LEFT JOIN boards b ON b.match_id = m.id "
    "WHERE m.origin = 'discord' AND m.channel_id IS NOT NULL AND ("
    "(m.status = 'active' AND (b.state_id IS NULL OR b.state_id < m.state_id)) OR "
    "(m.status = 'finished' AND b.state_id < m.state_id))"
)
LOG_COLUMNS = "seq, seat, user_id, action_key, at, undone, waited"
BOARD_COLUMNS = "channel_id, message_id, state_id, turn, pinged, recent"
DECK_COLUMNS = "user_id, game_id, name, deck, updated_at"
PACK_COLUMNS = "guild_id, game_id, name, version, filename, text, uploaded_by, uploaded_at"
RATING_COLUMNS = "scope, game_id, player, mu, sigma, games, wins"
CHANGE_COLUMNS = (
    "match_id, scope, game_id, player, mu_before, sigma_before, mu_after, sigma_after, games, wins, won, "
    "finished_at"
)
# The match columns every action, start and undo writes, in the order of update_params.
STATE_COLUMNS = (
    "snapshot", "snapshot_hash", "state_id", "log_len", "undo_floor", "to_act", "ai_turn", "deadline",
    "status", "updated_at",
)  # fmt: skip


def match_record(row: Iterable[Any]) -> MatchRecord:
    """A matches row (MATCH_COLUMNS) as a record; unreadable JSON columns are named in its damage."""
    (mid, game_id, rules, guild, channel, origin, status, seed, options, seats, host, created, updated,
     snap, snap_hash, state_id, log_len, floor, to_act, ai_turn, deadline, note, rematch_of,
     started) = row  # fmt: skip
    damage: list[str] = []
    return MatchRecord(
        id=mid,
        game_id=game_id,
        rules_version=rules,
        guild_id=guild,
        channel_id=channel,
        origin=origin,
        status=status,
        seed=seed,
        options=read_json(options, match_options, {}, "options", damage),
        seats=read_json(seats, seats_from_text, (), "seats", damage),
        host_user=host,
        created_at=created,
        updated_at=updated,
        snapshot=snap,
        snapshot_hash=snap_hash,
        state_id=state_id,
        log_len=log_len,
        undo_floor=floor,
        to_act=read_json(to_act, seat_numbers, (), "turn", damage),
        ai_turn=bool(ai_turn),
        deadline=deadline,
        note=note,
        damage=" and ".join(damage) + (" are unreadable" if damage else ""),
        rematch_of=rematch_of,
        started_at=started,
    )


def match_summary(row: Iterable[Any]) -> MatchSummary:
    """A matches row (SUMMARY_COLUMNS) as a listing entry."""
    mid, game_id, status, channel, guild, seats, state_id, updated, deadline, to_act = row
    return MatchSummary(
        mid, game_id, status, channel, guild, read_json(seats, seats_from_text, (), "seats", []), state_id,
        updated, deadline, read_json(to_act, seat_numbers, (), "turn", []),
    )  # fmt: skip


def read_json(text: Any, parse: Callable[[Any], T], empty: T, what: str, damage: list[str]) -> T:
    """A column parsed from its JSON text; `empty` (and `what` noted in damage) if it cannot be."""
    try:
        return parse(text)
    except (ValueError, TypeError, AttributeError, KeyError):
        damage.append(what)
        return empty


def match_options(text: str) -> JSON:
    """A match's options: a JSON object."""
    value = json.loads(text)
    if not isinstance(value, dict):
        raise TypeError("options are not an object")
    return value


def seat_numbers(text: str) -> tuple[int, ...]:
    """A JSON list of seat numbers."""
    return tuple(int(x) for x in json.loads(text))


def people(seats: Iterable[Seat]) -> list[int]:
    """The people who have a seat (their own, or one an AI plays for them), in order."""
    return sorted({p for s in seats if (p := s.person) is not None})


def update_params(u: StateUpdate) -> tuple[Any, ...]:
    """The values of STATE_COLUMNS for a state update."""
    return (
        u.snapshot,
        snapshot_hash(u.snapshot),
        u.state_id,
        u.log_len,
        u.undo_floor,
        json.dumps(list(u.to_act)),
        int(u.ai_turn),
        u.deadline,
        u.status,
        u.now,
    )


def log_row(row: Iterable[Any]) -> LogRow:
    """An actions row (LOG_COLUMNS) as a log row."""
    seq, seat, user, key, at, undone, waited = row
    return LogRow(seq, seat, user, key, at, bool(undone), read_json(waited, seat_numbers, (), "waited", []))


def board_record(match_id: int, row: Iterable[Any]) -> BoardRecord:
    """A boards row (BOARD_COLUMNS) as a record."""
    channel, message, state_id, turn, pinged, recent = row
    return BoardRecord(
        match_id, channel, message, state_id, json.loads(turn), tuple(json.loads(pinged)),
        tuple(json.loads(recent)),
    )  # fmt: skip


def board_params(board: BoardRecord) -> tuple[Any, ...]:
    """The values of a boards row: match_id, then BOARD_COLUMNS."""
    return (
        board.match_id, board.channel_id, board.message_id, board.state_id, json.dumps(board.turn),
        json.dumps(list(board.pinged)), json.dumps(list(board.recent)),
    )  # fmt: skip


def pack_record(row: Iterable[Any]) -> PackRecord:
    """A card_packs row (PACK_COLUMNS) as a record."""
    guild_id, game_id, name, version, filename, text, user, at = row
    return PackRecord(int(guild_id), str(game_id), str(name), int(version), str(filename), text, user, at)


def rating_row(row: Iterable[Any]) -> RatingRow:
    """A ratings row (RATING_COLUMNS) as a record."""
    scope, game_id, player, mu, sigma, games, wins = row
    return RatingRow(int(scope), str(game_id), str(player), ratings.Rating(mu, sigma, int(games), int(wins)))


def deck_record(row: Iterable[Any]) -> DeckRecord:
    """A decks row (DECK_COLUMNS) as a record."""
    user_id, game_id, name, deck, updated_at = row
    return DeckRecord(int(user_id), str(game_id), str(name), json.loads(deck), float(updated_at))


def rating_change(row: Iterable[Any]) -> RatingChange:
    """A rating_changes row (CHANGE_COLUMNS) as a record."""
    mid, scope, game_id, player, mu_b, sigma_b, mu_a, sigma_a, games, wins, won, at = row
    before = ratings.Rating(mu_b, sigma_b, games - 1, wins - won)
    after = ratings.Rating(mu_a, sigma_a, games, wins)
    return RatingChange(int(mid), int(scope), str(game_id), ratings.Change(str(player), before, after), at)


# --- rating a finished match: the backends read and write, these decide -------------------------------------
RESULT_COLUMNS = "seat, user_id, ai, share, game_id, guild_id, finished_at"


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished match's results as bot.ratings rates them."""

    match_id: int
    game_id: str
    guild_id: int
    finished_at: float
    outcomes: tuple[ratings.Outcome, ...]

    @property
    def scopes(self) -> tuple[int, ...]:
        """Where it moves ratings: its server, and all servers together."""
        return tuple(dict.fromkeys((self.guild_id, ratings.ALL_SERVERS)))

    @property
    def players(self) -> list[str]:
        """Its rated players (user ids as text, "ai:<level>")."""
        return sorted({p for o in self.outcomes if (p := o.player) is not None})

    def rate(self, scope: int, current: dict[str, ratings.Rating]) -> tuple[list[tuple[Any, ...]], ...]:
        """The ratings rows (scope, game, player, mu, sigma, ordinal, games, wins) and rating_changes rows
        (CHANGE_COLUMNS) that rating it in a scope writes, from the players' current ratings there."""
        changes = ratings.rate(list(self.outcomes), current)
        now = [
            (scope, self.game_id, c.player, c.after.mu, c.after.sigma, c.after.ordinal, c.after.games,
             c.after.wins)
            for c in changes
        ]  # fmt: skip
        moved = [
            (self.match_id, scope, self.game_id, c.player, c.before.mu, c.before.sigma, c.after.mu,
             c.after.sigma, c.after.games, c.after.wins, c.after.wins - c.before.wins, self.finished_at)
            for c in changes
        ]  # fmt: skip
        return now, moved


def finished(match_id: int, rows: list[Any]) -> Finished | None:
    """A match's results rows (RESULT_COLUMNS, by seat) to rate; None if it has none or no server (a console
    game)."""
    if not rows or rows[0][5] is None:
        return None
    game_id, guild_id, finished_at = str(rows[0][4]), int(rows[0][5]), float(rows[0][6])
    outcomes = tuple(ratings.Outcome(seat, user, ai, float(share)) for seat, user, ai, share, *_ in rows)
    return Finished(match_id, game_id, guild_id, finished_at, outcomes)


# --- tournaments -------------------------------------------------------------------------------------------
TOURNAMENT_COLUMNS = (
    "id, guild_id, channel_id, message_id, game_id, name, format, rounds, round_seconds, seats, options, "
    "adjudication, status, starts_at, round, announced, round_ends, paused_at, created_by, created_at, "
    "updated_at, note"
)
ENTRANT_COLUMNS = "player, user_id, ai, name, joined_at, dropped"
TABLE_COLUMNS = "round, table_no, players, thread_id, match_id, points, how"


def tournament_record(row: Iterable[Any]) -> TournamentRecord:
    """A tournaments row (TOURNAMENT_COLUMNS) as a record (options that no longer parse read as {})."""
    (tid, guild, channel, message, game_id, name, fmt, rounds, round_seconds, seats, options, adjudication,
     status, starts, round_no, announced, round_ends, paused, by, created, updated, note) = row  # fmt: skip
    return TournamentRecord(
        int(tid), int(guild), int(channel), None if message is None else int(message), str(game_id),
        str(name), str(fmt), int(rounds), float(round_seconds), int(seats),
        read_json(options, match_options, {}, "options", []), str(adjudication), str(status), float(starts),
        int(round_no), int(announced), None if round_ends is None else float(round_ends),
        None if paused is None else float(paused), int(by), float(created), float(updated), str(note),
    )  # fmt: skip


def entrant_record(row: Iterable[Any]) -> EntrantRecord:
    """A tournament_players row (ENTRANT_COLUMNS) as a record."""
    player, user, ai, name, joined, dropped = row
    return EntrantRecord(
        str(player), None if user is None else int(user), ai, str(name), float(joined),
        None if dropped is None else int(dropped),
    )  # fmt: skip


def _keys(text: str) -> tuple[str, ...]:
    value = json.loads(text)
    if not isinstance(value, list):
        raise TypeError("players are not a list")
    return tuple(str(k) for k in value)


def _points(text: str) -> tuple[float, ...]:
    value = json.loads(text)
    if not isinstance(value, list):
        raise TypeError("points are not a list")
    return tuple(float(p) for p in value)


def table_record(row: Iterable[Any]) -> TableRecord:
    """A tournament_tables row (TABLE_COLUMNS) as a record."""
    round_no, table_no, players, thread, match, points, how = row
    return TableRecord(
        int(round_no), int(table_no), read_json(players, _keys, (), "players", []),
        None if thread is None else int(thread), None if match is None else int(match),
        None if points is None else read_json(points, _points, None, "points", []), str(how),
    )  # fmt: skip
