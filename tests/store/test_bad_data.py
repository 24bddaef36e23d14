"""Bad data and odd input (issue 11, items 5-7): a database the bot cannot use stops it with one clear line;
a stored game that cannot be played is marked broken and frees its channel; odd custom ids and options get a
short, polite ephemeral answer."""

from __future__ import annotations

import logging
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.sessions import MatchBroken, SessionManager
from bot.store import ACTIVE, BROKEN, LOBBY, SqliteStore
from bot.store.migrations import LATEST
from tests.discord_harness import HAND, Harness
from tests.fakediscord import FakeDiscord, FakeUser

ROOT = Path(__file__).resolve().parents[2]
BIG = "9" * 40  # a "match id" larger than any SQLite integer


# --- item 5: a database the bot cannot use ----------------------------------------------------------------
def _bad_database(kind: str, path: Path) -> None:
    if kind == "not sqlite":
        path.write_bytes(b"these are my holiday notes, not a database\n" * 200)
    elif kind == "truncated":
        con = sqlite3.connect(path)
        con.execute("CREATE TABLE filler (x TEXT)")
        con.executemany("INSERT INTO filler VALUES (?)", [("x" * 200,) for _ in range(2000)])
        con.commit()
        con.close()
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])
    elif kind == "newer schema":
        con = sqlite3.connect(path)
        con.execute(f"PRAGMA user_version = {LATEST + 1}")
        con.commit()
        con.close()
    else:
        raise AssertionError(kind)


@pytest.mark.parametrize("kind", ["not sqlite", "truncated", "newer schema"])
def test_bad_database_exits_with_one_clear_line(kind: str, tmp_path: Path) -> None:
    """`run` and `play` stop at once, non-zero, with one line naming the file (no traceback, no hang)."""
    db = tmp_path / "agora.db"
    _bad_database(kind, db)
    env = {**os.environ, "DISCORD_TOKEN": "not-a-real-token", "PYTHONPATH": str(ROOT)}
    commands = {
        "run": [sys.executable, "-m", "bot", "run", "--db", str(db)],
        "play": [sys.executable, "-m", "bot", "play", "--db", str(db)],
    }
    procs = {
        name: subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        for name, cmd in commands.items()
    }
    for name, proc in procs.items():
        try:
            _, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            raise AssertionError(f"`{name}` hung on a {kind} database") from None
        text = err.decode()
        assert proc.returncode == 1, (name, proc.returncode, text)
        assert "Traceback" not in text and len(text.strip().splitlines()) == 1, (name, text)
        assert str(db) in text, text
        expected = "newer than this Agora knows" if kind == "newer schema" else "not a usable Agora database"
        assert expected in text, text


async def test_store_open_closes_the_connection_on_a_bad_file(tmp_path: Path) -> None:
    db = tmp_path / "junk.db"
    _bad_database("not sqlite", db)
    store = SqliteStore(str(db))
    with pytest.raises(Exception, match="not a usable Agora database"):
        await store.open()
    assert store._db is None


# --- rules versions --------------------------------------------------------------------------------------
async def _running_duel(sessions: SessionManager, channel: int = 5) -> int:
    info = await sessions.create(channel, 1, "omphala", 11, host_name="Ann")
    await sessions.join(info.id, 12, "Bo")
    return (await sessions.start(info.id, 11)).id


async def test_game_saved_under_other_rules_is_stopped_with_a_clear_note(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "a.db"))
    await store.open()
    sessions = SessionManager(store)
    mid = await _running_duel(sessions)
    await sessions.close()
    await store.db.execute("UPDATE matches SET rules_version = '1' WHERE id = ?", (mid,))
    fresh = SessionManager(store)
    with pytest.raises(MatchBroken, match="older version of its rules and cannot continue"):
        await fresh.moves_for(mid, 11)
    assert (await store.get_match(mid)).status == BROKEN  # type: ignore[union-attr]
    assert (await fresh.get(mid)).status == BROKEN  # still shown (the board says why), never played
    with pytest.raises(MatchBroken):
        await fresh.submit(mid, 11, "x", None)
    assert (await fresh.create(5, 1, "omphala", 11)).status == LOBBY  # the channel is free
    await fresh.close()
    await store.close()


async def test_lobby_opened_under_older_rules_is_dealt_under_todays(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "a.db"))
    await store.open()
    sessions = SessionManager(store)
    info = await sessions.create(5, 1, "omphala", 11)
    await sessions.join(info.id, 12)
    await store.db.execute("UPDATE matches SET rules_version = '1' WHERE id = ?", (info.id,))
    sessions._cache.forget(info.id)
    await sessions.start(info.id, 11)
    await sessions.close()
    fresh = SessionManager(store)
    assert (await fresh.get(info.id)).status == ACTIVE and await fresh.moves_for(info.id, 11)
    await fresh.close()
    await store.close()


# --- item 6: a stored game that cannot be played, through Discord ------------------------------------------
@pytest.mark.parametrize(
    ("column", "value", "said"),
    [
        ("game_id", "no_such_game", "is unknown here"),
        ("seats", '{"oops": [', "seats are unreadable"),
        ("rules_version", "1", "older version of its rules"),
    ],
)
async def test_unplayable_game_is_stopped_and_frees_its_channel(
    fake: FakeDiscord, tmp_path: Path, column: str, value: str, said: str
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await h.started_game(alice, bob)
        board = h.board(thread).snapshot()  # as a slow client still shows it
        await h.store.db.execute(f"UPDATE matches SET {column} = ? WHERE id = ?", (value, mid))
        await h.restart()
        hand = await h.press(alice, board, HAND)
        assert hand.ephemeral and said in hand.content and "/play" in hand.content
        await h.settle()
        assert any(said in m.content and "🛑" in m.content for m in fake.public(thread))
        again = await h.press(bob, board, HAND)
        assert said in again.content
        status = await (await fake.slash(alice, thread, "game status")).wait_reply()
        assert said in status.content and "/play" in status.content  # the last game here, and why it stopped
        log = await h.press(bob, board, "Log")
        assert log.ephemeral and "Something went wrong" not in log.text()
        lobby = await (await fake.slash(alice, thread, "play", {"game": "omphala"})).wait_reply()
        assert lobby.buttons and "already has a game" not in lobby.text()


async def test_abandon_works_on_an_unplayable_game(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await h.started_game(alice, bob)
        await h.store.db.execute("UPDATE matches SET seats = 'null' WHERE id = ?", (mid,))
        await h.restart()
        stopped = await (await fake.slash(bob, thread, "game abandon")).wait_reply()
        assert stopped.ephemeral and "It has been stopped" in stopped.content
        assert (await h.store.get_match(mid)).status == BROKEN  # type: ignore[union-attr]
        lobby = await (await fake.slash(alice, thread, "play", {"game": "omphala"})).wait_reply()
        assert lobby.buttons


# --- item 7: odd custom ids and options -------------------------------------------------------------------
async def _press_custom_id(
    fake: FakeDiscord, user: FakeUser, channel: object, custom_id: str, *, ephemeral: bool = False
) -> str:
    """Press a button with this custom_id on a message of the bot (as an old or altered message would
    carry), public or the user's own ephemeral one; the bot's ephemeral answer."""
    button = {"type": 2, "style": 1, "label": "?", "custom_id": custom_id}
    private = {"flags": 64, "visible_to": user.id} if ephemeral else {}
    rows = [{"type": 1, "components": [button]}]
    message = fake.record_message(channel, fake.bot_user, content="old", components=rows, **private)  # type: ignore[arg-type]
    answer = await (await fake.click(user, message, custom_id=custom_id)).wait_reply()
    assert answer.ephemeral and answer.visible_to == user.id, answer
    text = answer.text()  # a word, or a fresh hand menu (a Components V2 message: its text displays)
    assert len(text) < 200 and "Something went wrong" not in text, text
    return text


async def test_odd_custom_ids_get_a_short_polite_answer(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await h.started_game(alice, bob)
        for cid in (f"ag:hand:{BIG}:0", f"ag:mv:{BIG}:0:0", f"ag:ms:{BIG}:0:", f"ag:log:{BIG}:-1",
                    f"ag:lb:join:{BIG}", f"ag:undo:{BIG}:1"):  # fmt: skip
            menu = cid.startswith(("ag:mv", "ag:ms", "ag:undo"))  # these live on the hand message
            assert "no such game" in await _press_custom_id(fake, alice, thread, cid, ephemeral=menu), cid
        for cid in (f"ag:mv:{mid}:0:x", f"ag:mv:{mid}:0:0..1", f"ag:mv:{mid}", "ag:mv:", f"ag:mv:{mid}:0:0:p",
                    "ag:hand:-1:0", "ag:nothing", "someone-else's-button"):  # fmt: skip
            assert "not one Agora knows" in await _press_custom_id(fake, alice, thread, cid), cid
        rules = await _press_custom_id(fake, alice, thread, "ag:rules:no_such_game")
        assert "not available" in rules
        public = await _press_custom_id(fake, alice, thread, f"ag:mv:{mid}:0:0")
        assert "not one Agora knows" in public  # a menu is redrawn in place: never on a public message
        far = await _press_custom_id(fake, alice, thread, f"ag:mv:{mid}:0:99.99:p{BIG}", ephemeral=True)
        assert "out of date" in far  # a menu of another position: a fresh one, nothing played
        assert (await h.sessions.get(mid)).state_id == 0


async def test_long_card_name_gets_a_short_answer(fake: FakeDiscord, tmp_path: Path) -> None:
    bob = fake.add_user("bob")
    async with Harness.started(fake, tmp_path):
        for game in ("omphala", "ophion"):
            ix = await fake.slash(bob, fake.channel, "card", {"game": game, "name": "é" * 3000})
            answer = await ix.wait_reply()
            assert answer.ephemeral and len(answer.content) < 200 and "é" * 10 not in answer.content


# --- issue 24, defect 6: a damaged schema, a database in use ----------------------------------------------
async def _made(path: Path, version: int) -> None:
    store = SqliteStore(str(path), target_version=version)
    await store.open()
    await store.close()


@pytest.mark.parametrize("version", [3, LATEST])
async def test_a_missing_table_is_refused_and_the_file_left_alone(tmp_path: Path, version: int) -> None:
    """A database whose schema version promises a table it lacks (an old one too, which would otherwise be
    migrated in place) is refused in one line naming what is missing, and not one byte is written."""
    db = tmp_path / "agora.db"
    await _made(db, version)
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode = DELETE")
    con.execute("DROP TABLE actions")
    con.commit()
    con.close()
    before = db.read_bytes()
    store = SqliteStore(str(db))
    with pytest.raises(Exception, match=r"not a usable Agora database.*table actions is missing"):
        await store.open()
    assert store._db is None and db.read_bytes() == before


async def test_a_database_in_use_says_so(tmp_path: Path) -> None:
    """A database another process holds locked is "in use", not damaged."""
    db = tmp_path / "agora.db"
    await _made(db, LATEST)
    con = sqlite3.connect(db, isolation_level=None)
    con.execute("PRAGMA journal_mode = DELETE")
    con.execute("BEGIN EXCLUSIVE")
    try:
        store = SqliteStore(str(db))
        with pytest.raises(Exception, match="in use by another process"):
            await store.open()
    finally:
        con.execute("ROLLBACK")
        con.close()


async def test_a_damaged_row_found_by_the_timers_logs_one_line(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 24, defect 7: a damaged match that falls due is stopped and said in a line or two of log, no
    traceback; it is not tried again."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        _thread, mid = await h.started_game(alice, bob)
        await h.store.db.execute("UPDATE matches SET seats = ?, deadline = 5 WHERE id = ?", ('{"x": [', mid))
        await h.restart()
        caplog.clear()
        with caplog.at_level(logging.INFO):
            for later in (10, 1000, 100000):
                await h.bot.timers.tick(h.clock[0] + later)
            await h.settle()
        damaged = [r for r in caplog.records if "seats are unreadable" in r.getMessage()]
        assert 1 <= len(damaged) <= 2 and not any(r.exc_info for r in caplog.records)
        assert (await h.store.get_match(mid)).deadline is None  # type: ignore[union-attr]
