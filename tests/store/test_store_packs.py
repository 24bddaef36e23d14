"""Servers' card packs in the store (migration 9) and the session manager: stored per server, game and name,
every upload a new version, listed, removed; a refused file stores nothing; a match keeps its version."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.sessions import SessionError, SessionManager
from bot.sessions.packs import PACK, pack_of, pack_option, read_pack, server_packs, upload
from bot.store import SqliteStore, Store
from bot.store.migrations import LATEST
from engine import packs
from tests.pg import BACKENDS, open_test_store

GAME = "ophelia"  # a game that takes packs; the pack text is its shipped example, renamed


def example(name: str | None = None) -> str:
    """The game's shipped example pack, under another [pack] name when given."""
    path = packs.example(GAME)
    assert path is not None
    text = path.read_text(encoding="utf-8")
    if name is None:
        return text
    original = packs.read(text, "example.toml").name
    return text.replace(f'"{original}"', f'"{name}"', 1)


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path):
    async with open_test_store(request.param, tmp_path) as s:
        yield s


async def test_migration_9_creates_the_card_packs_table(tmp_path: Path) -> None:
    old = SqliteStore(str(tmp_path / "old.db"), target_version=8)
    await old.open()
    assert await old.schema_version() == 8
    await old.close()
    again = SqliteStore(str(tmp_path / "old.db"))
    await again.open()  # migrates to the latest, the packs table included
    try:
        assert LATEST >= 9 and await again.schema_version() == LATEST
        assert await again.packs(1) == []
    finally:
        await again.close()


async def test_versions_count_up_per_server_game_and_name(store: Store) -> None:
    assert await store.save_pack(1, "g", "Winter", "w.toml", "v1", 5, 10.0) == 1
    assert await store.save_pack(1, "g", "winter", "w.toml", "v2", 6, 11.0) == 2  # any case: the same pack
    assert await store.save_pack(2, "g", "Winter", "w.toml", "other server", 7, 12.0) == 1
    assert await store.save_pack(1, "h", "Winter", "w.toml", "other game", 5, 13.0) == 1
    latest = await store.pack(1, "g", "WINTER")
    assert latest is not None and (latest.name, latest.version, latest.text, latest.uploaded_by) == (
        "winter",
        2,
        "v2",
        6,
    )
    first = await store.pack(1, "g", "Winter", version=1)
    assert first is not None and first.text == "v1"  # old versions are kept
    assert [(p.game_id, p.name, p.version) for p in await store.packs(1)] == [
        ("g", "winter", 2),
        ("h", "Winter", 1),
    ]
    assert [p.text for p in await store.packs(1, "g")] == ["v2"]
    assert [p.text for p in await store.packs(2)] == ["other server"]


async def test_removing_a_pack_keeps_its_versions_and_never_reuses_a_number(store: Store) -> None:
    await store.save_pack(1, "g", "Winter", "w.toml", "v1", 5, 10.0)
    await store.save_pack(1, "g", "Summer", "s.toml", "s1", 5, 10.0)
    assert await store.remove_pack(1, "g", "winter", 20.0)
    assert not await store.remove_pack(1, "g", "Winter", 21.0)  # already removed
    assert not await store.remove_pack(2, "g", "Summer", 21.0)  # another server's has no such pack
    assert [p.name for p in await store.packs(1, "g")] == ["Summer"]
    assert await store.pack(1, "g", "Winter") is None
    kept = await store.pack(1, "g", "Winter", version=1)
    assert kept is not None and kept.text == "v1"
    assert await store.save_pack(1, "g", "Winter", "w.toml", "again", 5, 30.0) == 2
    assert [(p.name, p.version) for p in await store.packs(1, "g")] == [("Summer", 1), ("Winter", 2)]


async def test_a_server_has_at_most_limit_packs_per_game(store: Store) -> None:
    assert await store.save_pack(1, "g", "A", "a.toml", "a", 5, 1.0, limit=2) == 1
    assert await store.save_pack(1, "g", "B", "b.toml", "b", 5, 1.0, limit=2) == 1
    assert await store.save_pack(1, "g", "C", "c.toml", "c", 5, 1.0, limit=2) is None  # nothing stored
    assert await store.save_pack(1, "g", "a", "a.toml", "a2", 5, 1.0, limit=2) == 2  # a new version is fine
    assert await store.save_pack(1, "h", "C", "c.toml", "c", 5, 1.0, limit=2) == 1  # another game
    assert [p.name for p in await store.packs(1, "g")] == ["a", "B"]
    await store.remove_pack(1, "g", "B", 2.0)
    assert await store.save_pack(1, "g", "C", "c.toml", "c", 5, 3.0, limit=2) == 1


async def test_a_refused_file_stores_nothing(store: Store) -> None:
    bad = example().replace("\npower = ", '\npower = "x" #', 1)  # the first card's power is no number
    with pytest.raises(SessionError) as refused:
        await upload(store, 1, 5, "mine.toml", bad.encode(), 10.0)
    assert str(refused.value) == "mine.toml card 1 (marco_polo): power must be int, not 'x'"
    with pytest.raises(SessionError, match=r"mine\.toml: not UTF-8 text \(byte 1 cannot be read\)"):
        await upload(store, 1, 5, "mine.toml", b"\xff\xfe[pack]", 10.0)
    big = b"#" * (packs.MAX_PACK_BYTES + 1)
    with pytest.raises(SessionError, match=r"mine\.toml: 65,537 bytes; a card pack is at most 65,536 bytes"):
        await upload(store, 1, 5, "mine.toml", big, 10.0)
    assert await store.packs(1) == []


async def test_upload_then_play_with_the_latest_version(store: Store) -> None:
    pack, version = await upload(store, 1, 5, "winter.toml", example("Winter").encode(), 10.0)
    assert (pack.game_id, pack.name, version) == (GAME, "Winter", 1)
    _, again = await upload(store, 1, 5, "winter.toml", example("Winter").encode(), 11.0)
    assert again == 2
    option = await pack_option(store, 1, GAME, "winter")
    assert option == packs.option(pack, 2) and pack_of({"pack": option}) == ("Winter", 2)
    found = await server_packs(store, 1, GAME)
    assert [(s.label, len(s.pack.entries)) for s in found] == [("Winter v2", len(pack.entries))]
    assert await server_packs(store, 2, GAME) == [] and await server_packs(store, None) == []


async def test_play_refuses_a_missing_pack_or_one_of_another_game(store: Store) -> None:
    await upload(store, 1, 5, "winter.toml", example("Winter").encode(), 10.0)
    with pytest.raises(SessionError, match="has no Ophelia card pack called 'Spring'"):
        await pack_option(store, 1, GAME, "Spring")
    other = next(g for g in packs.GAMES if g != GAME)
    with pytest.raises(SessionError, match=r"The card pack \*\*Winter\*\* is for Ophelia, not "):
        await pack_option(store, 1, other, "Winter")
    with pytest.raises(SessionError, match="Omphala takes no card packs"):
        await pack_option(store, 1, "omphala", "Winter")
    with pytest.raises(SessionError, match="has no Ophelia card pack"):
        await pack_option(store, 2, GAME, "Winter")  # another server's pack is not this one's


async def test_a_match_keeps_its_pack_version_after_a_new_upload(store: Store) -> None:
    sessions = SessionManager(store)
    try:
        await upload(store, 1, 5, "winter.toml", example("Winter").encode(), 10.0)
        option = await pack_option(store, 1, GAME, "Winter")
        info = await sessions.create(10, 1, GAME, 5, {"pack": option})
        await sessions.join(info.id, 6)
        info = await sessions.start(info.id, 5)
        await upload(store, 1, 5, "winter.toml", example("Winter").encode(), 11.0)  # v2 arrives later
        assert pack_of(info.options) == ("Winter", 1)
        record = await store.get_match(info.id)
        assert record is not None and pack_of(record.options) == ("Winter", 1)
        with pytest.raises(SessionError, match="not one the host sets"):
            await sessions.set_option(info.id, 5, "pack", "Winter")
        await sessions.forfeit(info.id, 6)
        again, opened = await sessions.rematch(info.id, 5, 12)  # a rematch keeps the same options
        assert opened and again.options[PACK] == option and pack_of(again.options) == ("Winter", 1)
        with pytest.raises(SessionError, match="That card pack cannot be used"):
            await sessions.create(11, 1, GAME, 5, {"pack": {"name": "x", "version": 1, "data": {"pack": {}}}})
    finally:
        await sessions.close()


def test_read_pack_takes_a_byte_order_mark_and_the_example() -> None:
    pack = read_pack(b"\xef\xbb\xbf" + example().encode(), "example.toml")
    assert pack.game_id == GAME and pack.entries
