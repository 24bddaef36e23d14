"""The store's seasons (issue 39), on SQLite and on PostgreSQL: a server's seasons written when they start,
one running at a time, their ends moved and found due by shard, marked posted once with the next one opened,
and a season's board from the rating changes inside it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.ratings import ordinal
from bot.sessions.base import result_row
from bot.store import ACTIVE, FINISHED, LogRow, NewMatch, Seat, Shards, StateUpdate, Store
from tests.pg import BACKENDS, open_test_store

GUILD = 7 << 22  # shard 7 of 8
OTHER = 2 << 22  # shard 2 of 8
WEEK = 7 * 86400.0


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path):
    async with open_test_store(request.param, tmp_path) as s:
        yield s


async def _game(store: Store, guild: int, at: float, winner: int, loser: int, game: str = "omphala") -> None:
    """A finished two-player game, rated at `at`."""
    seats = (Seat(winner), Seat(loser))
    rec = await store.create_match(NewMatch(game, "1", guild, None, "discord", 1, {}, seats, None, at))
    await store.start_match(rec.id, StateUpdate("{}", 0, 0, 0, (0,), False, None, ACTIVE, at))
    over = StateUpdate("{}", 1, 1, 0, (), False, None, FINISHED, at)
    results = [result_row(0, seats[0], 1.0), result_row(1, seats[1], 0.0)]
    await store.record_action(rec.id, LogRow(1, 0, None, "x", at), over, 0, results)


async def test_one_season_runs_at_a_time_and_is_kept(store: Store) -> None:
    """ "Each season row is written when it starts": one running at a time, numbered on, its end movable
    until posted, the next opened from the old end when it is marked posted (once)."""
    first = await store.start_season(GUILD, 100.0, 100.0 + WEEK)
    assert first is not None and first.number == 1
    assert await store.start_season(GUILD, 200.0, 300.0) is None, "one is running"
    assert await store.set_season_end(GUILD, 1, 100.0 + 2 * WEEK)
    assert await store.due_seasons(100.0 + WEEK) == []
    (due,) = await store.due_seasons(100.0 + 2 * WEEK)
    assert (due.number, due.ends_at, due.posted_at) == (1, 100.0 + 2 * WEEK, None)
    assert await store.season_posted(GUILD, 1, 5e6, 100.0 + 4 * WEEK)
    assert not await store.season_posted(GUILD, 1, 6e6, 100.0 + 9 * WEEK), "marked once"
    assert not await store.set_season_end(GUILD, 1, 1.0), "a posted season's end stays"
    one, two = await store.seasons(GUILD)
    assert (one.posted_at, two.number, two.starts_at, two.ends_at) == (5e6, 2, one.ends_at, 100.0 + 4 * WEEK)
    assert await store.season_posted(GUILD, 2, 7e6, None)  # seasons off: none opens
    assert [s.number for s in await store.seasons(GUILD)] == [1, 2]
    third = await store.start_season(GUILD, 8e6, 9e6)
    assert third is not None and third.number == 3
    assert await store.seasons(OTHER) == []


async def test_due_seasons_by_shard(store: Store) -> None:
    """A process finds the due seasons of its own shards' servers only."""
    await store.start_season(GUILD, 0.0, 10.0)
    await store.start_season(OTHER, 0.0, 10.0)
    assert {s.guild_id for s in await store.due_seasons(10.0)} == {GUILD, OTHER}
    assert [s.guild_id for s in await store.due_seasons(10.0, shards=Shards(8, frozenset({7})))] == [GUILD]
    assert await store.due_seasons(9.0) == []


async def test_racing_starts_open_one_season(store: Store) -> None:
    """Two starts at once open one season."""
    made = await asyncio.gather(*(store.start_season(GUILD, 0.0, 10.0) for _ in range(4)))
    assert len(await store.seasons(GUILD)) == 1 and any(made)


async def test_a_seasons_board(store: Store) -> None:
    """ "leaderboards are per season": each player's rating after their last game in the season, their games
    and wins in it; games before or after it, on another server or across servers, are not counted."""
    await _game(store, GUILD, 50.0, 1, 2)  # before the season
    await _game(store, GUILD, 100.0, 1, 2)
    await _game(store, GUILD, 150.0, 2, 1)
    await _game(store, GUILD, 160.0, 3, 1, game="ophion")
    await _game(store, OTHER, 120.0, 1, 2)  # another server
    await _game(store, GUILD, 200.0, 2, 1)  # after: the season is [100, 200)
    board = await store.season_ratings(GUILD, "omphala", 100.0, 200.0)
    assert {r.player: (r.rating.games, r.rating.wins) for r in board} == {"1": (2, 1), "2": (2, 1)}
    assert [r.rating.ordinal for r in board] == sorted((r.rating.ordinal for r in board), reverse=True)
    last = {c.change.player: c for c in await store.recent_rating_changes(GUILD, "omphala", "2", 2)}
    two = next(r for r in board if r.player == "2")
    in_season = [
        c for c in await store.recent_rating_changes(GUILD, "omphala", "2", 9) if c.finished_at < 200
    ]
    assert two.rating.ordinal == pytest.approx(
        ordinal(in_season[0].change.after.mu, in_season[0].change.after.sigma)
    ), "the rating after the last game in the season, carried from before it"
    assert last  # the player's later game moved the current rating on: the season keeps its own
    assert await store.season_games(GUILD, 100.0, 200.0) == ["omphala", "ophion"]
    assert await store.season_games(GUILD, 300.0, 400.0) == []
    assert await store.season_ratings(GUILD, "omphala", 300.0, 400.0) == []
