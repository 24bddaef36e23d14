"""The SQLite store: round trips, transactions, queries and schema migrations."""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from bot.sessions import SessionManager
from bot.store import (
    ACTIVE,
    FINISHED,
    LOBBY,
    Conflict,
    LogRow,
    MatchSummary,
    NewMatch,
    ResultRow,
    Seat,
    SqliteStore,
    StateUpdate,
    StoreError,
)
from bot.store.migrations import LATEST, MIGRATIONS


def _new(
    channel: int | None = 10, seats: tuple[Seat, ...] = (Seat(1, None, "Ann"),), guild: int = 7
) -> NewMatch:
    return NewMatch("omphala", "1", guild, channel, "discord", 42, {"x": 1}, seats, 1, 1000.0)


def _update(
    state_id: int, status: str = ACTIVE, *, to_act: tuple[int, ...] = (0,), ai: bool = False
) -> StateUpdate:
    return StateUpdate(
        f'{{"s":{state_id}}}', state_id, state_id, 0, to_act, ai, None, status, 1000.0 + state_id
    )


@pytest.fixture
async def store(tmp_path: Path):
    s = SqliteStore(str(tmp_path / "t.db"))
    await s.open()
    yield s
    await s.close()


async def test_match_round_trip(store: SqliteStore) -> None:
    seats = (Seat(1, None, "Ann"), Seat(None, "random", "AI 2"), Seat(2**62, None, "Bo"))
    rec = await store.create_match(_new(seats=seats))
    got = await store.get_match(rec.id)
    assert got is not None
    assert (got.game_id, got.rules_version, got.guild_id, got.channel_id, got.status) == (
        "omphala",
        "1",
        7,
        10,
        LOBBY,
    )
    assert (got.seed, got.options, got.seats, got.host_user, got.origin) == (
        42,
        {"x": 1},
        seats,
        1,
        "discord",
    )
    assert got.snapshot is None and got.state_id == 0 and got.deadline is None
    assert await store.live_match_id(10) == rec.id
    assert await store.get_match(rec.id + 100) is None


async def test_actions_log_snapshot_and_state_id_commit_together(store: SqliteStore) -> None:
    rec = await store.create_match(_new())
    await store.start_match(rec.id, _update(0, to_act=(1,), ai=True))
    with pytest.raises(Conflict):
        await store.start_match(rec.id, _update(0))  # not a lobby any more
    assert await store.matches_awaiting_ai() == [rec.id]
    await store.record_action(rec.id, LogRow(1, 0, 1, "draw", 1.0), _update(1), expected_state_id=0)
    await store.record_action(rec.id, LogRow(2, 0, 1, "end_turn", 2.0), _update(2), expected_state_id=1)
    with pytest.raises(Conflict):  # stale: nothing written
        await store.record_action(rec.id, LogRow(3, 0, 1, "draw", 3.0), _update(3), expected_state_id=1)
    got = await store.get_match(rec.id)
    assert got is not None and got.state_id == 2 and got.snapshot == '{"s":2}' and got.to_act == (0,)
    assert await store.matches_awaiting_ai() == []
    assert [(r.seq, r.seat, r.user_id, r.key) for r in await store.load_log(rec.id)] == [
        (1, 0, 1, "draw"),
        (2, 0, 1, "end_turn"),
    ]
    await store.record_undo(rec.id, 2, _update(3), expected_state_id=2)
    assert [r.key for r in await store.load_log(rec.id)] == ["draw"]
    assert [r.undone for r in await store.load_log(rec.id, include_undone=True)] == [False, True]


async def test_one_live_match_per_channel(store: SqliteStore) -> None:
    first = await store.create_match(_new(channel=5))
    with pytest.raises(Conflict):
        await store.create_match(_new(channel=5))
    await store.create_match(_new(channel=None))  # console games have no channel
    await store.create_match(_new(channel=None))
    await store.set_status(first.id, "abandoned", "bye", 2.0)
    again = await store.create_match(_new(channel=5))
    assert await store.live_match_id(5) == again.id


async def test_results_stats_and_leaderboard(store: SqliteStore) -> None:
    for i, shares in enumerate([(1.0, 0.0), (0.5, 0.5), (0.0, 1.0), (1.0, 0.0)]):
        rec = await store.create_match(_new(channel=None, seats=(Seat(1), Seat(2)), guild=7 if i < 3 else 8))
        await store.start_match(rec.id, _update(0))
        results = [ResultRow(0, 1, None, shares[0]), ResultRow(1, 2, None, shares[1])]
        await store.record_action(rec.id, LogRow(1, 0, 1, "x", 1.0), _update(1, FINISHED), 0, results)
        assert (await store.get_match(rec.id)).status == FINISHED  # type: ignore[union-attr]
    s1 = await store.user_stats(1)
    assert (s1.played, s1.wins, s1.points) == (4, 3, 2.5)
    s1g = await store.user_stats(1, "omphala", guild_id=7)
    assert (s1g.played, s1g.wins, s1g.points) == (3, 2, 1.5)
    assert (await store.user_stats(99)).played == 0
    board = await store.leaderboard("omphala")
    assert [(r.user_id, r.played, r.wins, r.points) for r in board] == [(1, 4, 3, 2.5), (2, 4, 2, 1.5)]
    assert [r.user_id for r in await store.leaderboard("omphala", guild_id=8)] == [1, 2]


async def test_guild_settings(store: SqliteStore) -> None:
    assert await store.guild_settings(1) == {}
    await store.set_guild_setting(1, "turn_timer", 3600)
    await store.set_guild_setting(1, "thread_mode", "thread")
    await store.set_guild_setting(1, "turn_timer", 60)
    await store.set_guild_setting(2, "reminders", {"after": [1, 2]})
    assert await store.guild_settings(1) == {"turn_timer": 60, "thread_mode": "thread"}
    await store.set_guild_setting(1, "thread_mode", None)
    assert await store.guild_settings(1) == {"turn_timer": 60}
    assert await store.guild_settings(2) == {"reminders": {"after": [1, 2]}}


async def test_deadlines_and_listing(store: SqliteStore) -> None:
    a = await store.create_match(_new(channel=1))
    b = await store.create_match(_new(channel=2))
    assert await store.earliest_deadline() is None
    for rec in (a, b):
        await store.start_match(rec.id, _update(0))
    await store.set_deadline(a.id, 100.0)
    await store.set_deadline(b.id, 200.0)
    assert await store.earliest_deadline() == 100.0
    assert [m.id for m in await store.expired_deadlines(150.0)] == [a.id]
    assert [m.id for m in await store.expired_deadlines(250.0)] == [a.id, b.id]
    await store.set_deadline(a.id, None)
    assert [m.id for m in await store.expired_deadlines(250.0)] == [b.id]
    assert await store.earliest_deadline() == 200.0
    assert {m.id for m in await store.list_matches(statuses=(ACTIVE,))} == {a.id, b.id}
    assert await store.list_matches(origin="console") == []


async def test_lobby_options_change_and_the_deal_can_rewrite_them(store: SqliteStore) -> None:
    """A lobby's options (people's picks) are replaced in place; the deal may store the dealt ones."""
    rec = await store.create_match(_new())
    await store.set_options(rec.id, {"x": 1, "picks": {"1": {"deck": "crown"}}}, 1001.0)
    got = await store.get_match(rec.id)
    assert got is not None and got.options == {"x": 1, "picks": {"1": {"deck": "crown"}}}
    assert got.updated_at == 1001.0
    await store.start_match(rec.id, _update(0), None, {"x": 1, "seat_choices": [{"deck": "crown"}]})
    got = await store.get_match(rec.id)
    assert got is not None and got.options == {"x": 1, "seat_choices": [{"deck": "crown"}]}
    other = await store.create_match(_new(channel=11))
    await store.start_match(other.id, _update(0))  # no options given: they stay as they were
    got = await store.get_match(other.id)
    assert got is not None and got.options == {"x": 1}


async def test_saved_decks_per_person_and_game(store: SqliteStore) -> None:
    """Decks are kept by person, game and name (one per name whatever its case, the last spelling kept), in
    name order; a new name past the limit is refused and nothing is saved; deleting says whether one was."""
    assert await store.decks(1, "g") == [] and await store.deck(1, "g", "Tide") is None
    assert await store.save_deck(1, "g", "Tide", {"cards": [1]}, 10.0, limit=2)
    assert await store.save_deck(1, "g", "marrow", {"cards": [2]}, 11.0, limit=2)
    assert await store.save_deck(2, "g", "Tide", {"cards": [3]}, 12.0, limit=2)  # someone else's
    assert await store.save_deck(1, "h", "Tide", {"cards": [4]}, 13.0, limit=2)  # another game
    assert not await store.save_deck(1, "g", "Third", {"cards": [5]}, 14.0, limit=2)  # full
    assert await store.save_deck(1, "g", "TIDE", {"cards": [6]}, 15.0, limit=2)  # over one: fine
    assert [(d.name, d.deck, d.updated_at) for d in await store.decks(1, "g")] == [
        ("marrow", {"cards": [2]}, 11.0),
        ("TIDE", {"cards": [6]}, 15.0),
    ]
    got = await store.deck(1, "g", "tide")
    assert got is not None and (got.user_id, got.game_id, got.name) == (1, "g", "TIDE")
    assert await store.save_deck(1, "g", "Third", {"cards": [5]}, 16.0)  # no limit given
    assert await store.delete_deck(1, "g", "tIdE") and not await store.delete_deck(1, "g", "Tide")
    assert [d.name for d in await store.decks(1, "g")] == ["marrow", "Third"]
    assert (await store.deck(2, "g", "Tide")) is not None and (await store.deck(1, "h", "Tide")) is not None


async def test_fresh_database_gets_every_migration(tmp_path: Path) -> None:
    path = str(tmp_path / "fresh.db")
    async with SqliteStore(path) as store:
        assert isinstance(store, SqliteStore)
        assert await store.schema_version() == LATEST
        assert await store.migrate() == []  # idempotent
    con = sqlite3.connect(path)
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"matches", "actions", "results", "guild_settings", "user_settings", "decks"} <= tables
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()


async def test_older_schema_is_migrated_and_its_games_play_on(tmp_path: Path) -> None:
    path = str(tmp_path / "old.db")
    old = SqliteStore(path, target_version=1)
    await old.open()
    assert await old.schema_version() == 1
    # A v1 database: no results table and no deadline column yet; a lobby waits in it.
    await old.db.execute(
        "INSERT INTO matches (game_id, rules_version, channel_id, status, seed, options, seats, host_user, "
        "created_at, updated_at) VALUES ('omphala', '1', 77, 'lobby', 3, '{}', ?, 1, 0, 0)",
        ('[{"user":1,"ai":null,"name":"Ann"},{"user":null,"ai":"random","name":"AI"}]',),
    )
    await old.close()
    assert MIGRATIONS[0][0] == 1 and LATEST > 1

    store = SqliteStore(path)
    await store.open()
    assert await store.schema_version() == LATEST
    sessions = SessionManager(store)
    info = await sessions.match_for_channel(77)
    assert info is not None and info.status == LOBBY and len(info.seats) == 2
    await sessions.start(info.id, 1)
    while (info := await sessions.get(info.id)).status == ACTIVE:
        await sessions.wait_idle(info.id)
        info = await sessions.get(info.id)
        if info.users_to_act:
            moves = await sessions.moves_for(info.id, 1)
            await sessions.submit(info.id, 1, moves[0].key, info.state_id)
    assert info.status == FINISHED
    assert (await store.user_stats(1, "omphala")).played == 1  # the results table came with v2
    await sessions.close()
    await store.close()


async def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = str(tmp_path / "new.db")
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version = {LATEST + 1}")
    con.close()
    store = SqliteStore(path)
    with pytest.raises(StoreError, match="newer"):
        await store.open()
    await store.close()


async def test_concurrent_writes_commit_together_and_a_refused_one_spoils_nothing(store: SqliteStore) -> None:
    recs = [await store.create_match(_new(channel=c)) for c in range(1, 9)]
    for rec in recs:
        await store.start_match(rec.id, _update(0))
    before = store.commits
    writes = [store.record_action(r.id, LogRow(1, 0, 1, "draw", 1.0), _update(1), 0) for r in recs]
    writes.append(store.record_action(recs[0].id, LogRow(1, 0, 1, "end_turn", 1.0), _update(1), 0))  # a twin
    outcomes = await asyncio.gather(*writes, return_exceptions=True)
    assert outcomes[:8] == [None] * 8 and isinstance(outcomes[8], Conflict)
    assert store.commits - before < len(writes)  # group commit: fewer transactions than writes
    for rec in recs:
        got = await store.get_match(rec.id)
        assert got is not None and got.state_id == 1
        assert [r.key for r in await store.load_log(rec.id)] == ["draw"]


async def test_a_persons_games_in_one_guild_by_who_sits_in_them(store: SqliteStore) -> None:
    """user_matches: the guild's matches where the person has a seat (one an AI plays for them included),
    in the statuses asked for, the longest unchanged first; seats changing changes who sits in them."""
    ann, bo = Seat(1, None, "Ann"), Seat(2, None, "Bo")
    old = await store.create_match(_new(channel=1, seats=(ann, bo)))
    new = await store.create_match(_new(channel=2, seats=(bo, ann)))
    lobby = await store.create_match(_new(channel=3, seats=(ann,)))
    elsewhere = await store.create_match(_new(channel=4, seats=(ann, bo), guild=8))
    theirs = await store.create_match(_new(channel=5, seats=(bo, Seat(None, "hard", "AI 2"))))
    await store.start_match(new.id, _update(1))
    await store.start_match(old.id, _update(0))  # updated before `new`: it has waited longer
    for rec in (elsewhere, theirs):
        await store.start_match(rec.id, _update(0))

    def ids(found: list[MatchSummary]) -> list[int]:
        return [m.id for m in found]

    assert ids(await store.user_matches(7, 1, (ACTIVE,))) == [old.id, new.id]
    assert ids(await store.user_matches(7, 1)) == [old.id, lobby.id, new.id]  # lobbies too (a tie: by id)
    assert ids(await store.user_matches(8, 1)) == [elsewhere.id]
    assert ids(await store.user_matches(7, 2, (ACTIVE,))) == [old.id, theirs.id, new.id]
    assert await store.user_matches(7, 3) == []
    found = (await store.user_matches(7, 1, (ACTIVE,)))[0]
    assert (found.game_id, found.channel_id, found.seats, found.to_act) == ("omphala", 1, (ann, bo), (0,))

    stand_in = Seat(None, "normal", "AI for Ann", stands_for=1)  # Ann left: an AI plays her seat
    await store.update_seats(old.id, (stand_in, bo), 1, True, 1002.0)
    await store.update_seats(lobby.id, (Seat(3, None, "Cy"),), 3, False, 1003.0)  # Ann left the lobby
    assert ids(await store.user_matches(7, 1)) == [new.id, old.id]
    assert ids(await store.user_matches(7, 3, (LOBBY,))) == [lobby.id]
    await store.set_status(old.id, FINISHED, "", 1004.0)
    assert ids(await store.user_matches(7, 1)) == [new.id]
    assert ids(await store.user_matches(7, 1, (FINISHED,))) == [old.id]

    plan = await store.db.execute_fetchall(
        "EXPLAIN QUERY PLAN SELECT m.id FROM match_people p JOIN matches m ON m.id = p.match_id "
        "WHERE p.user_id = ? AND m.guild_id = ? AND m.status IN ('lobby', 'active')",
        (1, 7),
    )
    steps = " | ".join(str(r[-1]) for r in plan)
    assert "SEARCH p USING PRIMARY KEY (user_id=?)" in steps and "SCAN" not in steps, steps


async def test_one_live_rematch_per_finished_match(store: SqliteStore) -> None:
    first = await store.create_match(_new(channel=1))
    assert await store.rematch_id(first.id) is None
    await store.set_status(first.id, FINISHED, "", 1001.0)
    again = await store.create_match(replace(_new(channel=2), rematch_of=first.id))
    assert again.rematch_of == first.id and await store.rematch_id(first.id) == again.id
    with pytest.raises(Conflict, match="rematch"):
        await store.create_match(replace(_new(channel=3), rematch_of=first.id))
    await store.start_match(again.id, _update(0))
    assert await store.rematch_id(first.id) == again.id  # a rematch being played is still the one
    await store.set_status(again.id, "abandoned", "", 1002.0)
    assert await store.rematch_id(first.id) is None
    third = await store.create_match(replace(_new(channel=3), rematch_of=first.id))
    assert await store.rematch_id(first.id) == third.id


async def test_migration_7_finds_who_sits_in_the_matches_already_stored(tmp_path: Path) -> None:
    path = str(tmp_path / "v6.db")
    old = SqliteStore(path, target_version=6)
    await old.open()
    rows = [
        '[{"user":1,"ai":null,"name":"Ann"},{"user":null,"ai":"hard","name":"AI 2"}]',
        '[{"user":null,"ai":"normal","name":"AI for Ann","for":1},{"user":2,"ai":null,"name":"Bo"}]',
        '[{"user":1,"ai":null,"name":"Ann"}',  # damaged: unreadable, never a failed migration
        '["Ann", 3, null, {"user":"x"}]',
        '{"user":1}',
    ]
    for channel, seats in enumerate(rows):
        await old.db.execute(
            "INSERT INTO matches (game_id, rules_version, guild_id, channel_id, status, seed, seats, "
            "created_at, updated_at) VALUES ('omphala', '1', 7, ?, 'active', 3, ?, 0, ?)",
            (channel, seats, channel),
        )
    await old.close()
    async with SqliteStore(path) as store:
        assert isinstance(store, SqliteStore)
        assert await store.schema_version() == LATEST
        assert [m.channel_id for m in await store.user_matches(7, 1)] == [0, 1]
        assert [m.channel_id for m in await store.user_matches(7, 2)] == [1]
        assert (await store.get_match(1)).rematch_of is None  # type: ignore[union-attr]
