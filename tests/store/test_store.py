"""The store, on SQLite and on PostgreSQL (one suite, run against each): round trips, transactions, queries,
schema migrations, claims and shards."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from bot.sessions import SessionManager
from bot.store import (
    ACTIVE,
    ALL_SHARDS,
    FINISHED,
    LOBBY,
    Conflict,
    LogRow,
    MatchSummary,
    NewMatch,
    PostgresStore,
    ResultRow,
    Seat,
    Shards,
    SqliteStore,
    StateUpdate,
    Store,
    StoreError,
    open_store,
    pg_migrations,
)
from bot.store.dialect import numbered, run_now
from bot.store.migrations import LATEST, MIGRATIONS, expected_schema
from tests.pg import BACKENDS, open_test_store, pg_url_or_skip


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


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path):
    async with open_test_store(request.param, tmp_path) as s:
        yield s


async def test_match_round_trip(store: Store) -> None:
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


async def test_actions_log_snapshot_and_state_id_commit_together(store: Store) -> None:
    rec = await store.create_match(_new())
    await store.start_match(rec.id, _update(0, to_act=(1,), ai=True))
    with pytest.raises(Conflict):
        await store.start_match(rec.id, _update(0))  # not a lobby any more
    assert await store.matches_awaiting_ai() == [rec.id]
    assert (await store.get_match(rec.id)).started_at == 1000.0  # type: ignore[union-attr]  # the deal
    await store.record_action(
        rec.id, LogRow(1, 0, 1, "draw", 1.0, waited=(0,)), _update(1), expected_state_id=0
    )
    await store.record_action(rec.id, LogRow(2, 0, 1, "end_turn", 2.0), _update(2), expected_state_id=1)
    with pytest.raises(Conflict):  # stale: nothing written
        await store.record_action(rec.id, LogRow(3, 0, 1, "draw", 3.0), _update(3), expected_state_id=1)
    got = await store.get_match(rec.id)
    assert got is not None and got.state_id == 2 and got.snapshot == '{"s":2}' and got.to_act == (0,)
    assert await store.matches_awaiting_ai() == []
    assert [(r.seq, r.seat, r.user_id, r.key, r.waited) for r in await store.load_log(rec.id)] == [
        (1, 0, 1, "draw", (0,)),  # whom the position before the move waited on (the bank clock's spans)
        (2, 0, 1, "end_turn", ()),
    ]
    await store.record_undo(rec.id, 2, _update(3), expected_state_id=2)
    assert [r.key for r in await store.load_log(rec.id)] == ["draw"]
    assert [r.undone for r in await store.load_log(rec.id, include_undone=True)] == [False, True]


async def test_one_live_match_per_channel(store: Store) -> None:
    first = await store.create_match(_new(channel=5))
    with pytest.raises(Conflict):
        await store.create_match(_new(channel=5))
    await store.create_match(_new(channel=None))  # console games have no channel
    await store.create_match(_new(channel=None))
    await store.set_status(first.id, "abandoned", "bye", 2.0)
    again = await store.create_match(_new(channel=5))
    assert await store.live_match_id(5) == again.id


async def test_results_stats_and_leaderboard(store: Store) -> None:
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


async def test_guild_settings(store: Store) -> None:
    assert await store.guild_settings(1) == {}
    await store.set_guild_setting(1, "turn_timer", 3600)
    await store.set_guild_setting(1, "thread_mode", "thread")
    await store.set_guild_setting(1, "turn_timer", 60)
    await store.set_guild_setting(2, "reminders", {"after": [1, 2]})
    assert await store.guild_settings(1) == {"turn_timer": 60, "thread_mode": "thread"}
    await store.set_guild_setting(1, "thread_mode", None)
    assert await store.guild_settings(1) == {"turn_timer": 60}
    assert await store.guild_settings(2) == {"reminders": {"after": [1, 2]}}


async def test_deadlines_and_listing(store: Store) -> None:
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


async def test_lobby_options_change_and_the_deal_can_rewrite_them(store: Store) -> None:
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


async def test_saved_decks_per_person_and_game(store: Store) -> None:
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


async def test_names_fold_only_ascii_letters_on_both_backends(store: Store) -> None:
    """A deck or pack name is one whatever its case as SQLite's NOCASE sees it (ASCII letters only), on both
    backends alike, so a database moves to PostgreSQL unchanged: "Über" and "über" are two names."""
    for name in ("Über", "über", "ÜBER"):  # "ÜBER" is "Über" again: only B, E and R fold
        assert await store.save_deck(1, "g", name, {"cards": [name]}, 10.0)
    assert sorted(d.name for d in await store.decks(1, "g")) == ["ÜBER", "über"]
    got = await store.deck(1, "g", "üBER")
    assert got is not None and got.deck == {"cards": ["über"]}
    for name in ("Öl", "öl"):
        await store.save_pack(1, "g", name, f"{name}.toml", "text", None, 10.0)
    assert sorted(p.name for p in await store.packs(1, "g")) == ["Öl", "öl"]


async def test_fresh_database_gets_every_migration(tmp_path: Path) -> None:
    path = str(tmp_path / "fresh.db")
    async with SqliteStore(path) as store:
        assert isinstance(store, SqliteStore)
        assert await store.schema_version() == LATEST
        assert await store.migrate() == []  # idempotent
        assert (await store.db.execute_fetchall("PRAGMA journal_mode"))[0][0] == "wal"  # while open
    con = sqlite3.connect(path)
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"matches", "actions", "results", "guild_settings", "user_settings", "decks"} <= tables
    # closed cleanly: the log folded in, the file alone whole (bot/store/sqlite.py, SqliteStore.close)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
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


async def test_concurrent_writes_commit_together_and_a_refused_one_spoils_nothing(store: Store) -> None:
    recs = [await store.create_match(_new(channel=c)) for c in range(1, 9)]
    for rec in recs:
        await store.start_match(rec.id, _update(0))
    before = getattr(store, "commits", 0)
    writes = [store.record_action(r.id, LogRow(1, 0, 1, "draw", 1.0), _update(1), 0) for r in recs]
    writes.append(store.record_action(recs[0].id, LogRow(1, 0, 1, "end_turn", 1.0), _update(1), 0))  # a twin
    outcomes = await asyncio.gather(*writes, return_exceptions=True)
    assert outcomes[1:8] == [None] * 7
    if isinstance(store, SqliteStore):  # one writer: the twin that came second is the one refused
        assert outcomes[0] is None and isinstance(outcomes[8], Conflict)
        assert store.commits - before < len(writes)  # group commit: fewer transactions than writes
    else:  # PostgreSQL runs them at once: either twin may be first, the other is refused
        assert {type(outcomes[0]), type(outcomes[8])} == {type(None), Conflict}, outcomes
    for rec in recs:
        got = await store.get_match(rec.id)
        assert got is not None and got.state_id == 1
        played = "end_turn" if rec == recs[0] and outcomes[8] is None else "draw"
        assert [r.key for r in await store.load_log(rec.id)] == [played]


async def test_a_persons_games_in_one_guild_by_who_sits_in_them(store: Store) -> None:
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

    if not isinstance(store, SqliteStore):
        return
    plan = await store.db.execute_fetchall(
        "EXPLAIN QUERY PLAN SELECT m.id FROM match_people p JOIN matches m ON m.id = p.match_id "
        "WHERE p.user_id = ? AND m.guild_id = ? AND m.status IN ('lobby', 'active')",
        (1, 7),
    )
    steps = " | ".join(str(r[-1]) for r in plan)
    assert "SEARCH p USING PRIMARY KEY (user_id=?)" in steps and "SCAN" not in steps, steps


async def test_one_live_rematch_per_finished_match(store: Store) -> None:
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


# --- both backends: the same store, whichever database holds it ---------------------------------------------
async def _twin(store: Store) -> Store:
    """A second store on the same database, as another bot process would open it."""
    url = store.path if isinstance(store, SqliteStore) else store.url  # type: ignore[attr-defined]
    twin = open_store(url)
    await twin.open()
    return twin


async def _raw(store: Store, sql: str, *args: object) -> None:
    """Run one statement straight on the database (`?` placeholders), as damage from outside would."""
    if isinstance(store, SqliteStore):
        await store.db.execute(sql, args)
    else:
        assert isinstance(store, PostgresStore)
        for i in range(1, len(args) + 1):
            sql = sql.replace("?", f"${i}", 1)
        await store.pool.execute(sql, *args)


async def test_a_damaged_row_is_read_with_its_damage_named(store: Store) -> None:
    """Unreadable JSON in a match row never fails a read: the record says what is unreadable."""
    rec = await store.create_match(_new())
    await _raw(store, "UPDATE matches SET seats = ?, to_act = ? WHERE id = ?", '[{"user":1', "x", rec.id)
    got = await store.get_match(rec.id)
    assert got is not None and got.seats == () and got.to_act == ()
    assert got.damage == "seats and turn are unreadable"
    [listed] = await store.list_matches()
    assert listed.id == rec.id and listed.seats == ()


async def test_a_claim_is_held_by_one_owner_until_its_lease_ends(store: Store) -> None:
    """api27 claims: a free claim is taken; another owner is refused while the lease runs (until now + lease,
    over once until < now); its owner renews it; release drops only the holder's; prune deletes the claims
    whose lease ended before a time."""
    key = "timeout:1:5"
    assert await store.claim(key, "a", 100.0, 60.0)  # until 160
    assert not await store.claim(key, "b", 160.0, 60.0)  # not over yet at 160
    assert await store.claim(key, "a", 150.0, 60.0)  # a renewal: until 210
    assert not await store.claim(key, "b", 200.0, 60.0)
    assert await store.claim(key, "b", 210.5, 60.0)  # ran out: b's, until 270.5
    await store.release(key, "a")  # not a's any more: nothing happens
    assert not await store.claim(key, "a", 211.0, 60.0)
    await store.release(key, "b")
    assert await store.claim(key, "a", 212.0, 60.0)  # until 272
    assert await store.claim("ai:2:1", "b", 100.0, 10.0)  # until 110
    assert await store.prune_claims(110.0) == 0 and await store.prune_claims(111.0) == 1
    assert await store.claim("ai:2:1", "a", 111.0, 10.0)
    assert not await store.claim(key, "b", 271.0, 60.0)  # the timeout claim was not pruned


async def test_of_two_processes_racing_for_a_claim_exactly_one_gets_it(store: Store) -> None:
    """api27: "Atomic in the database: of two processes racing, exactly one gets True" - for a new claim
    and for one whose lease ran out."""
    twin = await _twin(store)
    try:
        for round_ in range(10):
            key = f"ai:{round_}:1"
            won = await asyncio.gather(store.claim(key, "a", 100.0, 30.0), twin.claim(key, "b", 100.0, 30.0))
            assert sorted(won) == [False, True], won
            won = await asyncio.gather(store.claim(key, "c", 131.0, 30.0), twin.claim(key, "d", 131.0, 30.0))
            assert sorted(won) == [False, True], won
    finally:
        await twin.close()


async def test_two_processes_moving_from_one_state_apply_it_once(store: Store) -> None:
    """Issue 27: "a move for a state_id that is no longer current is refused by the database itself, so two
    processes can never both apply one": exactly one commits, the other gets Conflict, the log has one row."""
    twin = await _twin(store)
    try:
        recs = [await store.create_match(_new(channel=c)) for c in range(1, 11)]
        for rec in recs:
            await store.start_match(rec.id, _update(0))
        for rec in recs:
            outcomes = await asyncio.gather(
                store.record_action(rec.id, LogRow(1, 0, 1, "draw", 1.0), _update(1), 0),
                twin.record_action(rec.id, LogRow(1, 0, 1, "end_turn", 1.0), _update(1), 0),
                return_exceptions=True,
            )
            assert outcomes.count(None) == 1 and sum(isinstance(o, Conflict) for o in outcomes) == 1, outcomes
            log = await twin.load_log(rec.id)
            assert len(log) == 1 and log[0].key == ("draw" if outcomes[0] is None else "end_turn")
            got = await store.get_match(rec.id)
            assert got is not None and got.state_id == 1
    finally:
        await twin.close()


def test_a_guild_belongs_to_the_shard_of_its_id() -> None:
    """api27: "a guild belongs to shard (guild_id >> 22) % count"; direct messages and games of no guild to
    shard 0; ALL_SHARDS owns everything; shards outside 0..count-1 are refused."""
    guild = 81384788765712384  # a real Discord server id: (id >> 22) % 4 == 2
    assert (guild >> 22) % 4 == 2
    assert Shards(4, frozenset({2})).owns(guild) and not Shards(4, frozenset({0, 1, 3})).owns(guild)
    assert Shards(4, frozenset({0})).owns(None) and not Shards(4, frozenset({1})).owns(None)
    assert all(ALL_SHARDS.owns(g) for g in (None, 0, guild, 2**63 - 1))
    for count, ids in ((4, {4}), (0, {0}), (4, set()), (4, {-1})):
        with pytest.raises(ValueError):
            Shards(count, frozenset(ids))


async def test_the_listings_keep_to_the_shards_asked_for(store: Store) -> None:
    """The five listings of work a process does (AI turns to resume, expired deadlines, the next deadline,
    boards to post, idle lobbies) filter by shard in the database; None or ALL_SHARDS: every guild."""
    lobbies, games = {}, {}
    for shard in range(4):
        guild = (shard << 22) | 99
        lobbies[shard] = (await store.create_match(_new(channel=100 + shard, guild=guild))).id
        games[shard] = (await store.create_match(_new(channel=200 + shard, guild=guild))).id
        await store.start_match(games[shard], _update(0, ai=True))
        await store.set_deadline(games[shard], 500.0 + shard)
    mine = Shards(4, frozenset({1, 3}))
    assert await store.matches_awaiting_ai(shards=mine) == [games[1], games[3]]
    assert [m.id for m in await store.expired_deadlines(1e9, shards=mine)] == [games[1], games[3]]
    assert await store.earliest_deadline(shards=mine) == 501.0
    assert await store.unposted_boards(shards=mine) == [games[1], games[3]]
    assert [m.id for m in await store.idle_lobbies(2000.0, shards=mine)] == [lobbies[1], lobbies[3]]
    for every in (None, ALL_SHARDS):
        assert await store.matches_awaiting_ai(shards=every) == list(games.values())
        assert [m.id for m in await store.expired_deadlines(1e9, shards=every)] == list(games.values())
        assert await store.earliest_deadline(shards=every) == 500.0
        assert await store.unposted_boards(shards=every) == list(games.values())
        assert [m.id for m in await store.idle_lobbies(2000.0, shards=every)] == list(lobbies.values())
    console = await store.create_match(_new(channel=None))
    await store.start_match(console.id, _update(0, ai=True))
    await _raw(store, "UPDATE matches SET guild_id = NULL WHERE id = ?", console.id)  # no guild: shard 0
    assert await store.matches_awaiting_ai(shards=Shards(4, frozenset({0}))) == [games[0], console.id]
    assert await store.matches_awaiting_ai(shards=mine) == [games[1], games[3]]


# --- PostgreSQL only: opening, versions, the pool ----------------------------------------------------------
async def test_postgres_has_the_sqlite_schema_at_the_same_version() -> None:
    """api27: the first PostgreSQL migration is the whole schema as of the SQLite version it matches, with the
    same table and column names (python -m bot migrate copies table by table); both carry one number."""
    assert pg_migrations.LATEST == LATEST and pg_migrations.MIGRATIONS[0][0] <= LATEST
    async with open_store(pg_url_or_skip()) as store:
        assert isinstance(store, PostgresStore)
        assert await store.schema_version() == LATEST and await store.migrate() == []  # idempotent
        rows = await store.pool.fetch(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'"
        )
    found: dict[str, set[str]] = {}
    for table, column in rows:
        found.setdefault(table, set()).add(column)
    assert found.pop("schema_version") == {"one", "version"}
    assert found == {name: set(columns) for kind, name, columns in expected_schema(LATEST) if kind == "table"}


async def test_postgres_refuses_a_newer_schema_a_foreign_database_and_no_server() -> None:
    for change, args, refusal in (
        ("UPDATE schema_version SET version = $1", (LATEST + 1,), "newer than this Agora knows"),
        ("DROP TABLE schema_version", (), "no Agora schema version"),  # a foreign database
        (
            "DROP TABLE rating_changes; ALTER TABLE decks DROP COLUMN deck",  # a damaged one
            (),
            "its table decks lacks deck, for schema version",
        ),
    ):
        url = pg_url_or_skip()
        async with open_store(url) as store:
            assert isinstance(store, PostgresStore)
            await store.pool.execute(change, *args)
        with pytest.raises(StoreError, match=refusal):
            await open_store(url).open()
    with pytest.raises(
        StoreError, match=re.escape("cannot open the database postgresql://agora@127.0.0.1:9/x")
    ):
        await open_store("postgresql://agora:secret@127.0.0.1:9/x").open()  # and the password is not shown


def test_open_store_picks_the_backend_by_url_and_the_pool_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """api27 open_store: a path or sqlite:/// is SQLite; postgresql:// or postgres:// is PostgreSQL, with a
    pool of pool_size connections, else AGORA_DB_POOL, else 10."""
    assert isinstance(open_store(str(tmp_path / "a.db")), SqliteStore)
    assert open_store(f"sqlite:///{tmp_path}/b.db").path == f"{tmp_path}/b.db"  # type: ignore[attr-defined]
    monkeypatch.delenv("AGORA_DB_POOL", raising=False)
    for url in ("postgresql://h/db", "postgres://h/db"):
        pg = open_store(url)
        assert isinstance(pg, PostgresStore) and pg.pool_size == 10
    assert open_store("postgresql://h/db", pool_size=3).pool_size == 3  # type: ignore[attr-defined]
    monkeypatch.setenv("AGORA_DB_POOL", "4")
    assert open_store("postgresql://h/db").pool_size == 4  # type: ignore[attr-defined]
    monkeypatch.setenv("AGORA_DB_POOL", "many")
    with pytest.raises(StoreError, match="AGORA_DB_POOL must be a whole number"):
        open_store("postgresql://h/db")
    with pytest.raises(ValueError, match="unsupported store URL"):
        open_store("mysql://h/db")


def test_one_query_text_serves_both_dialects() -> None:
    """bot/store/dialect.py: a `:name` text is PostgreSQL's `$n` text once numbered (a name used twice is one
    number; a ::cast and a colon inside a word are left alone), and the logic written once never waits on
    anything but its connection (SQLite's writer thread runs it to its end)."""
    sql = "SELECT :a, :b::text[], 'agora:ratings', :a FROM t WHERE x = ANY(:list::bigint[])"
    assert numbered(sql) == (
        "SELECT $1, $2::text[], 'agora:ratings', $1 FROM t WHERE x = ANY($3::bigint[])",
        ("a", "b", "list"),
    )

    async def answers() -> int:
        return 7

    async def waits() -> None:
        await asyncio.sleep(0)

    assert run_now(answers()) == 7
    with pytest.raises(RuntimeError, match="waited on something other than its SQLite connection"):
        run_now(waits())


def test_sqlite_runs_in_a_thread_of_the_stores_own_without_aiosqlite() -> None:
    """Issue 36: the SQLite store owns its writer thread (no private API of aiosqlite, nor aiosqlite)."""
    for module in ("sqlite", "sql", "dialect", "postgres"):
        text = (Path(__file__).parents[2] / "bot" / "store" / f"{module}.py").read_text()
        assert "aiosqlite" not in text and "._conn" not in text and "._execute" not in text
