"""The store's tournaments (issue 39), on SQLite and on PostgreSQL: "Everything survives restarts and runs
once across shards" — a round is paired once however many processes race to pair it, a table's points are
written once (a manager may correct them), a game is linked to its table in the match's own insert, sign-up
closes at the start, a drop-out's round is the one after the current one, and the tournaments time may move
on are found by shard."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.store import (
    CANCELLED,
    DONE,
    EntrantRecord,
    NewMatch,
    NewTournament,
    Seat,
    Shards,
    Store,
    TableKey,
    TableRecord,
)
from tests.pg import BACKENDS, open_test_store

GUILD = 7 << 22  # shard 7 of 8
OTHER = 2 << 22  # shard 2 of 8


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path):
    async with open_test_store(request.param, tmp_path) as s:
        yield s


def _new(guild: int = GUILD, name: str = "Cup") -> NewTournament:
    return NewTournament(guild, 1, "omphala", name, "swiss", 3, 86400.0, 2, {}, "draw", 100.0, 5, 0.0)


async def _signed(store: Store, n: int = 4) -> int:
    cup = await store.create_tournament(_new())
    for k in range(n):
        assert await store.add_entrant(cup.id, EntrantRecord(str(k), k, None, f"P{k}", float(k)))
    return cup.id


async def test_a_round_is_paired_once_whoever_races(store: Store) -> None:
    """Five processes pair round 1 at once: one writes its tables and the round; the others change
    nothing. Round 3 cannot be written before round 2."""
    cup = await _signed(store)
    tables = [TableRecord(1, 1, ("0", "1")), TableRecord(1, 2, ("2", "3"))]
    done = await asyncio.gather(*(store.save_round(cup, 1, tables, 500.0, 10.0) for _ in range(5)))
    assert sorted(done) == [False] * 4 + [True]
    assert [t.players for t in await store.tables(cup)] == [("0", "1"), ("2", "3")]
    t = await store.tournament(cup)
    assert t is not None and (t.status, t.round, t.round_ends) == ("running", 1, 500.0)
    assert not await store.save_round(cup, 3, [TableRecord(3, 1, ("0", "2"))], 900.0, 20.0)
    assert not await store.add_entrant(cup, EntrantRecord("9", 9, None, "late", 11.0)), "sign-up is closed"
    assert not await store.remove_entrant(cup, "0")


async def test_points_once_a_game_linked_in_its_insert_and_drop_outs(store: Store) -> None:
    """A table's points are written once (a correction only when asked); the match made for a table is its
    game from its own insert; a drop-out is out from the round after the current one, once."""
    cup = await _signed(store)
    await store.save_round(
        cup, 1, [TableRecord(1, 1, ("0", "1")), TableRecord(1, 2, ("2", "3"))], 500.0, 10.0
    )
    key = TableKey(cup, 1, 1)
    match = await store.create_match(
        NewMatch("omphala", "1", GUILD, 77, "discord", 1, {}, (Seat(0), Seat(1)), 5, 10.0, table=key)
    )
    assert await store.table_of_match(match.id) == key
    assert (await store.tournament_games([match.id, match.id + 1])) == {match.id: (key, "Cup")}
    await store.set_table_thread(key, 77)
    assert await store.set_points(key, (1.0, 0.0), "played")
    assert not await store.set_points(key, (0.0, 1.0), "played"), "decided once"
    assert await store.set_points(key, (0.5, 0.5), "recorded", again=True)
    (first, second) = await store.tables(cup, 1)
    assert (first.thread_id, first.match_id, first.points, first.how) == (
        77,
        match.id,
        (0.5, 0.5),
        "recorded",
    )
    assert second.points is None
    assert await store.drop_entrant(cup, "2") == 2
    assert await store.drop_entrant(cup, "2") is None, "out once"
    assert [e.dropped for e in await store.entrants(cup)] == [None, None, 2, None]


async def test_the_tournaments_to_run_by_shard_and_their_end(store: Store) -> None:
    """Sign-ups and running tournaments of these shards' guilds are found; a paused, finished or cancelled
    one is not; a tournament ends once."""
    mine = await store.create_tournament(_new(GUILD, "Mine"))
    other = await store.create_tournament(_new(OTHER, "Theirs"))
    paused = await store.create_tournament(_new(GUILD, "Paused"))
    await store.update_tournament(paused.id, 1.0, status="paused", paused_at=1.0)
    found = await store.tournaments_to_run(shards=Shards(8, frozenset({7})))
    assert [t.name for t in found] == ["Mine"]
    assert {t.name for t in await store.tournaments_to_run()} == {"Mine", "Theirs"}
    assert await store.finish_tournament(mine.id, DONE, "", 2.0)
    assert not await store.finish_tournament(mine.id, CANCELLED, "", 3.0), "over once"
    assert [t.name for t in await store.tournaments(GUILD, live=True)] == ["Paused"]
    assert [t.name for t in await store.tournaments(GUILD, live=False)] == ["Mine"]
    assert other.guild_id == OTHER
    with pytest.raises(ValueError):
        await store.update_tournament(mine.id, 4.0, guild_id=1)
