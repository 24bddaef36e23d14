"""`python -m bot migrate`: a populated SQLite file moves into an empty PostgreSQL database without loss, and
a migration that must not start is refused in one line with nothing written."""

from __future__ import annotations

import asyncio
import contextlib
import io
import random
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest

from bot import migrate as migration
from bot.__main__ import main
from bot.sessions import SessionManager
from bot.sessions.types import SessionError
from bot.store import (
    BoardRecord,
    EntrantRecord,
    NewMatch,
    NewTournament,
    Seat,
    SqliteStore,
    Store,
    TableKey,
    TableRecord,
    open_store,
)
from bot.store.base import seats_to_text
from tests.pg import drop_database, pg_url_or_skip

GUILD = 7
GAMES = ("omphala", "ophion", "ophelia", "siege_of_olympus", "ophidian")


async def _play(sessions: SessionManager, match_id: int, rng: random.Random, moves: int) -> None:
    """Random legal moves by whoever is to act, until the game ends or `moves` have been made."""
    for _ in range(moves):
        info = await sessions.get(match_id)
        if info.over:
            return
        for user in info.users_to_act:
            choices = await sessions.moves_for(match_id, user)
            if choices:
                with contextlib.suppress(SessionError):  # the game moved on by itself: ask again
                    await sessions.submit(match_id, user, rng.choice(choices).key, info.state_id)
                break


async def _populate(path: Path) -> dict[str, list[int]]:
    """A SQLite file as a server that has played for a while leaves it: finished games of every game (with
    results and ratings), games under way (one with an undone move, one with an AI seat, one with a vote
    to abandon), an abandoned game, a lobby; settings, decks, card packs, boards, a lobby message, a claim.
    The match ids by kind."""
    store = open_store(str(path), "OFF")  # the same rows, without a sync per move
    await store.open()
    sessions = SessionManager(store, ai_concurrency=1)
    rng = random.Random(27)
    ids: dict[str, list[int]] = {"finished": [], "live": [], "other": []}
    channel = 100
    for game in (*GAMES, "omphala"):  # two finished Omphala games: ratings move twice
        info = await sessions.create(channel, GUILD, game, 11, seed=channel)
        channel += 1
        await sessions.join(info.id, 12)
        await sessions.start(info.id, 11)
        await _play(sessions, info.id, rng, 3000)
        ids["finished"].append(info.id)
    for game in GAMES[:3]:
        info = await sessions.create(channel, GUILD + 1, game, 13, seed=channel)
        channel += 1
        await sessions.join(info.id, 14)
        await sessions.start(info.id, 13)
        await _play(sessions, info.id, rng, 6)
        ids["live"].append(info.id)
    undone = ids["live"][0]
    info = await sessions.get(undone)
    for user in (13, 14):
        try:
            await sessions.undo(undone, user, info.state_id)
            break
        except SessionError:
            continue
    await sessions.vote_abandon(ids["live"][1], 13)
    ai = await sessions.create(channel, GUILD, "ophion", 15, seed=1)
    await sessions.add_ai(ai.id, 15, "random")
    await sessions.start(ai.id, 15)
    await sessions.wait_idle()
    ids["live"].append(ai.id)
    gone = await sessions.create(channel + 1, GUILD, "omphala", 16, seed=2)
    await sessions.join(gone.id, 17)
    await sessions.start(gone.id, 16)
    await sessions.abandon(gone.id, 16)
    lobby = await sessions.create(channel + 2, GUILD, "ophelia", 18, seed=3)
    ids["other"] += [gone.id, lobby.id]
    await sessions.close()

    now = 1_700_000_000.25
    await store.set_guild_setting(GUILD, "turn_hours", 24)
    await store.set_guild_setting(GUILD, "thread", False)
    await store.set_user_setting(11, "reminders", "dm")
    await store.save_deck(11, "siege_of_olympus", "Crown Rush", {"cards": ["a", "b"]}, now)
    await store.save_deck(12, "ophidian", "Ünïcode", {"cards": ["c"]}, now + 1)
    await store.save_pack(GUILD, "omphala", "Extra", "extra.toml", "[pack]\nname = 'x'\n", 11, now)
    await store.save_pack(GUILD, "omphala", "extra", "extra.toml", "[pack]\nname = 'y'\n", 11, now + 2)
    await store.save_pack(GUILD, "ophion", "Gone", "gone.toml", "[pack]\n", None, now)
    await store.remove_pack(GUILD, "ophion", "Gone", now + 3)
    board = BoardRecord(ids["live"][2], 102, 9_000_000_000_000_000_001, 3, {"seat": 1}, (13,), ("a", "b"))
    await store.save_board(board)
    await store.set_lobby_message(lobby.id, 999, 2**62 + 5)  # snowflakes are wider than 32 bits
    await store.claim(f"timeout:{ids['live'][0]}:1", "bot-a", now, 30.0)
    cup = await store.create_tournament(
        NewTournament(GUILD, 103, "omphala", "Winter Cup", "swiss", 3, 86400.0, 2, {"table": "ranked"},
                      "draw", now + 60, 11, now)
    )  # fmt: skip
    for who in (11, 12, 13):
        await store.add_entrant(cup.id, EntrantRecord(str(who), who, None, f"P{who}", now))
    await store.add_entrant(cup.id, EntrantRecord("ai:easy:1", None, "easy", "Easy AI 1", now + 1))
    first = [
        TableRecord(1, 1, ("11", "12")),
        TableRecord(1, 2, ("13", "ai:easy:1"), points=(1.0, 0.0), how="played"),
    ]
    await store.save_round(cup.id, 1, first, now + 86400, now)
    await store.set_table_thread(TableKey(cup.id, 1, 1), 2**62 + 7)
    await store.set_points(TableKey(cup.id, 1, 1), (0.5, 0.5), "adjudicated")
    await store.drop_entrant(cup.id, "13", 2)
    await store.start_season(GUILD, 0.0, now)  # a past season, posted, spanning the finished games
    await store.season_posted(GUILD, 1, now + 1, now + 7 * 86400)  # and the running one
    await store.close()
    return ids


@pytest.fixture(scope="module")
def populated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, list[int]]]:
    """One populated file for the module; each test migrates a copy of it."""
    path = tmp_path_factory.mktemp("migrate") / "agora.db"
    ids = asyncio.run(_populate(path))
    return path, ids


@pytest.fixture
def source(populated: tuple[Path, dict[str, list[int]]], tmp_path: Path) -> Path:
    """A copy of the populated file."""
    copy = tmp_path / "agora.db"
    shutil.copyfile(populated[0], copy)
    return copy


@pytest.fixture
def target() -> Iterator[str]:
    """A fresh empty PostgreSQL database."""
    url = pg_url_or_skip()
    yield url
    drop_database(url)


async def _tables(url: str) -> dict[str, int]:
    """The target's tables and their row counts."""
    conn = await asyncpg.connect(url)
    try:
        names = await conn.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
        return {r[0]: await conn.fetchval(f'SELECT count(*) FROM "{r[0]}"') for r in names}
    finally:
        await conn.close()


async def _answers(store: Store, ids: dict[str, list[int]]) -> list[object]:
    """What the bot asks a store, for every stored match, person, setting, deck, pack and board."""
    every = [m for kind in ids.values() for m in kind]
    found: list[object] = []
    for m in every:
        found += [await store.get_match(m), await store.load_log(m, include_undone=True)]
        found += [await store.match_shares(m), await store.board(m), await store.lobby_message(m)]
        found += [await store.match_rating_changes(m, 0), await store.match_rating_changes(m, GUILD)]
    for user in range(11, 19):
        found.append(await store.user_stats(user))
        for game in GAMES:
            found += [await store.user_stats(user, game), await store.user_stats(user, game, GUILD)]
        found.append(await store.player_ratings(str(user), (GUILD, 0)))
        found.append(await store.user_matches(GUILD + 1, user))
    for game in GAMES:
        found += [await store.leaderboard(game), await store.leaderboard(game, GUILD)]
        found.append(await store.game_ratings(game, GUILD, min_games=1))
    found += [await store.guild_settings(GUILD), await store.user_setting(11, "reminders")]
    found += [await store.decks(11, "siege_of_olympus"), await store.deck(12, "ophidian", "ÜnïCODE")]
    found += [await store.packs(GUILD), await store.pack(GUILD, "ophion", "gone", 1)]
    found += [await store.matches_awaiting_ai(), await store.unposted_boards()]
    found += [await store.list_matches(limit=100)]
    for cup in await store.tournaments(GUILD):
        found += [cup, await store.entrants(cup.id), await store.tables(cup.id)]
    found += [
        await store.seasons(GUILD),
        await store.due_seasons(2e9),
        await store.season_games(GUILD, 0, 2e9),
    ]
    found += [await store.season_ratings(GUILD, game, 0, 2e9) for game in GAMES]
    return found


async def test_a_populated_file_round_trips(
    source: Path, target: str, populated: tuple[Path, dict[str, list[int]]]
) -> None:
    """ "copies every table …, then compares per-table row counts and per-table checksums …; exit 0 only
    when all match", and the migrated store answers get_match/load_log/user_stats the same as the SQLite
    one; a new game on PostgreSQL takes an id after the last one copied."""
    ids = populated[1]
    out = io.StringIO()
    assert await migration.migrate(str(source), target, out) == 0
    lines = out.getvalue().splitlines()
    con = sqlite3.connect(source)
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    counts = {
        t: con.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables - {"sqlite_sequence"}
    }
    con.close()
    for table, rows in counts.items():
        line = next(x for x in lines if x.split()[0] == table)
        assert line.split()[1:3] == [f"{rows:,}", f"{rows:,}"] and line.endswith("ok"), line
    assert all(counts[t] for t in counts), counts  # the sample fills every table
    assert (
        lines[-1].startswith(f"Copied {len(counts)} tables")
        and "every count and checksum matches" in out.getvalue()
    )
    assert {t: n for t, n in (await _tables(target)).items() if t != "schema_version"} == counts

    async with open_store(str(source)) as lite, open_store(target) as pg:
        assert await _answers(pg, ids) == await _answers(lite, ids)
        new = NewMatch("omphala", "1", GUILD, 555, "discord", 1, {}, (Seat(11),), 11, 1.0)
        assert (await pg.create_match(new)).id == max(m for kind in ids.values() for m in kind) + 1


async def test_a_target_that_holds_games_is_refused(source: Path, target: str) -> None:
    """ "Refuses … a target that already holds games": the second run says so and changes nothing."""
    assert await migration.migrate(str(source), target, io.StringIO()) == 0
    before = await _tables(target)
    with pytest.raises(migration.Refused, match=r"already holds \d+ games?; migrate into an empty database"):
        await migration.migrate(str(source), target, io.StringIO())
    assert await _tables(target) == before


async def test_a_target_with_only_settings_is_refused_too(source: Path, target: str) -> None:
    """A database a bot has used already (settings, no games yet) is not empty: refused."""
    async with open_store(target) as pg:
        await pg.set_guild_setting(GUILD, "turn_hours", 12)
    with pytest.raises(migration.Refused, match="already holds data \\(table guild_settings\\)"):
        await migration.migrate(str(source), target, io.StringIO())


@pytest.mark.parametrize(
    ("spoil", "reason"),
    [
        ("missing", "there is no SQLite file at"),
        ("text", "is not a SQLite database"),
        ("other app", "is not an Agora database \\(it has no Agora schema version\\)"),
        ("no matches table", "is not an Agora database \\(its table matches is missing\\)"),
        ("newer", "has schema version 99, newer than this Agora knows"),
        ("damaged", "is damaged"),
    ],
)
async def test_a_file_that_is_not_agoras_or_is_damaged_is_refused(
    source: Path, target: str, spoil: str, reason: str
) -> None:
    """ "Refuses (one line, exit 1, nothing written) … a SQLite file that is not Agora's or is damaged":
    the target stays without a single table, and the file is not touched."""
    if spoil == "missing":
        source.unlink()
    elif spoil == "text":
        source.write_text("not a database\n")
    elif spoil == "other app":
        source.unlink()
        with sqlite3.connect(source) as con:
            con.execute("CREATE TABLE notes (body TEXT)")
    elif spoil in ("no matches table", "newer"):
        with sqlite3.connect(source) as con:
            con.execute("PRAGMA foreign_keys = OFF")
            con.execute("DROP TABLE matches" if spoil == "no matches table" else "PRAGMA user_version = 99")
    else:  # a page in the middle of the file overwritten
        data = bytearray(source.read_bytes())
        page = 4096 * (len(data) // 4096 // 2)
        data[page : page + 4096] = b"\xa5" * 4096
        source.write_bytes(bytes(data))
    before = source.read_bytes() if source.exists() else b""
    with pytest.raises(migration.Refused, match=reason):
        await migration.migrate(str(source), target, io.StringIO())
    assert await _tables(target) == {}
    assert (source.read_bytes() if source.exists() else b"") == before


async def test_schema_version_mismatches_are_refused(
    source: Path, target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "Refuses … a schema version mismatch": a target of a newer schema, or a build whose PostgreSQL
    schema is not the SQLite schema's version."""
    conn = await asyncpg.connect(target)
    await conn.execute("CREATE TABLE schema_version (one BOOLEAN PRIMARY KEY, version INTEGER NOT NULL)")
    await conn.execute("INSERT INTO schema_version VALUES (TRUE, 99)")
    await conn.close()
    with pytest.raises(migration.Refused, match="has schema version 99, newer than this Agora knows"):
        await migration.migrate(str(source), target, io.StringIO())
    monkeypatch.setattr(migration.pg_migrations, "LATEST", migration.sqlite_migrations.LATEST + 1)
    with pytest.raises(migration.Refused, match="its PostgreSQL schema is version"):
        await migration.migrate(str(source), target, io.StringIO())


def test_the_command_says_why_in_one_line(
    source: Path, target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`python -m bot migrate --from FILE --to URL`: 0 and the table, then exit 1 and one line on stderr when
    run again; a --to that is not PostgreSQL is refused the same way."""
    assert main(["migrate", "--from", str(source), "--to", target]) == 0
    assert "every count and checksum matches" in capsys.readouterr().out
    assert main(["migrate", "--from", str(source), "--to", target]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "already holds" in err
    assert main(["migrate", "--from", str(source), "--to", str(source)]) == 1
    assert "--to takes a PostgreSQL URL" in capsys.readouterr().err


async def test_an_older_file_is_brought_to_the_latest_schema_first(tmp_path: Path, target: str) -> None:
    """ "copies every table of an existing SQLite file (after migrating it to the latest SQLite version)":
    a file of schema version 9 (before claims; its match row written as that version's code wrote it) moves
    over whole."""
    path = tmp_path / "old.db"
    store = SqliteStore(str(path), target_version=9)
    await store.open()
    await store.set_guild_setting(GUILD, "thread", True)
    await store.close()
    seats = (Seat(11), Seat(12))
    with sqlite3.connect(path) as con:
        con.execute(
            "INSERT INTO matches (game_id, rules_version, guild_id, channel_id, origin, status, seed, seats, "
            "host_user, created_at, updated_at) "
            "VALUES ('omphala', '1', ?, 5, 'discord', 'lobby', 1, ?, 11, 1.0, 1.0)",
            (GUILD, seats_to_text(seats)),
        )
    out = io.StringIO()
    assert await migration.migrate(str(path), target, out) == 0
    with sqlite3.connect(path) as con:
        assert con.execute("PRAGMA user_version").fetchone()[0] == migration.sqlite_migrations.LATEST
    async with open_store(target) as pg:
        created = await pg.get_match(1)
        assert created is not None and (created.game_id, created.seats, created.host_user) == (
            "omphala",
            seats,
            11,
        )
        assert created.started_at is None  # a column of a later version: empty in an older game
        assert await pg.guild_settings(GUILD) == {"thread": True}
