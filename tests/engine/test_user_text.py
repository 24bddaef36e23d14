"""Text from users is data (issue 34, point 3): "One check for every name and text a user supplies (packs,
cards, decks, notes, anything in an export): no control or format characters (Unicode Cc and Cf, bidi
overrides, zero-width), refused with the field named; Markdown escaped wherever such text enters a message;
terminals never print escape sequences from data (line mode, the Textual app, `agora replay`)", and a
database holding a NUL still moves to PostgreSQL."""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path

import pytest

from bot.console import PlayOptions, play
from bot.discord.common import drawn_names, plain_text, seat_names, shown
from bot.replay import replay_file
from bot.sessions import SessionManager
from bot.sessions.decks import deck_name
from bot.sessions.types import SessionError
from bot.store import open_store
from bot.tui.app import escape
from engine import packs
from engine.carddata import CardDataError
from engine.export import ExportError, from_json
from engine.text import check_text, printable
from render.gallery import play as played
from tests.discord.test_discord_packs import GAME, SILK, config
from tests.discord_harness import Harness
from tests.fakediscord import FakeAttachment, FakeDiscord
from tests.render.test_replay import write_export

BAD = {  # each as TOML writes it (an escape), and its code point
    "NUL": ("\\u0000", "U+0000"),
    "BEL": ("\\u0007", "U+0007"),
    "ESC": ("\\u001b", "U+001B"),
    "RLO": ("\\u202e", "U+202E"),
    "ZWSP": ("\\u200b", "U+200B"),
    "BOM": ("\\ufeff", "U+FEFF"),
}
RAW = {key: chr(int(code[2:], 16)) for key, (_, code) in BAD.items()}


def example() -> str:
    path = packs.example(GAME)
    assert path is not None
    return path.read_text(encoding="utf-8")


FIELDS = {  # a field of the example pack: (the line to spoil, how the refusal names it)
    "pack name": (f'name = "{SILK}"', "silk.toml pack name"),
    "pack description": ('description = "Travellers', "silk.toml pack description"),
    "card name": ('name = "Marco Polo"', "silk.toml card 1 (marco_polo) name"),
    "card text": ('text = "When this', "silk.toml card 1 (marco_polo) text"),
}


@pytest.mark.parametrize("char", BAD)
@pytest.mark.parametrize("field", FIELDS)
def test_a_pack_field_holding_a_control_or_format_character_is_refused_naming_it(
    field: str, char: str
) -> None:
    line, named = FIELDS[field]
    escaped, code = BAD[char]
    text = example().replace(line, line[:-1] + escaped + line[-1], 1)  # the character inside the string
    with pytest.raises(CardDataError) as refused:
        packs.read(text, "silk.toml")
    assert str(refused.value).startswith(f"{named}: holds a ") and f"({code}); only plain text" in str(
        refused.value
    )


def test_emoji_sequences_and_line_breaks_in_card_text_are_plain_text() -> None:
    """The joiner of an emoji sequence is kept (one picture, nothing hidden); between letters it is refused.
    A card's text may break lines (every renderer draws the game's own multi-line texts); a name may not."""
    pride = example().replace(f'name = "{SILK}"', 'name = "🏳️\u200d🌈 Silk"', 1)
    assert packs.read(pride, "silk.toml").name == "🏳️\u200d🌈 Silk"
    with pytest.raises(CardDataError, match=r"pack name: holds a formatting character \(U\+200D\)"):
        packs.read(example().replace(f'name = "{SILK}"', 'name = "Si\\u200dlk"', 1), "silk.toml")
    lines = example().replace('text = "When this', 'text = "First line.\\nWhen this', 1)
    marco = next(e for e in packs.read(lines, "silk.toml").entries if e.name == "Marco Polo")
    assert marco.text.startswith("First line.\nWhen this")
    with pytest.raises(CardDataError, match=r"card 1 \(marco_polo\) name: holds a line break"):
        packs.read(example().replace('name = "Marco Polo"', 'name = "Marco\\nPolo"', 1), "silk.toml")


def test_a_pack_a_match_stored_before_the_check_still_loads() -> None:
    """A game dealt with a pack holding ESC before names were checked goes on: its stored pack is taken as
    it was dealt."""
    option = packs.option(packs.read(example(), "silk.toml"), 1)
    option["data"]["pack"]["name"] = "Silk\x1b[2J"
    option["data"]["card"][0]["name"] = "Marco\x07"
    assert packs.from_option(GAME, option).name == "Silk\x1b[2J"


@pytest.mark.parametrize("char", RAW.values(), ids=list(RAW))
def test_deck_names_and_away_notes_are_refused_naming_the_field(char: str) -> None:
    with pytest.raises(SessionError, match=r"^The deck's name: holds a .*; only plain text\.$"):
        deck_name(f"Tide{char}v2")
    with pytest.raises(SessionError, match=r"^The note: holds a .*; only plain text\.$"):
        plain_text("note", f"back{char}soon", 200)


@pytest.mark.parametrize("char", RAW.values(), ids=list(RAW))
def test_an_export_seat_name_is_refused_naming_the_field(char: str, tmp_path: Path) -> None:
    data = json.loads(Path(write_export(tmp_path, played("ophion", 2, 3))).read_text())
    data["seats"][0]["name"] = f"Ada{char}"
    with pytest.raises(ExportError, match=r"^the export's seats 1 \(.*\) name: holds a .*; only plain text$"):
        from_json(data)


def test_check_text_names_the_character() -> None:
    with pytest.raises(ValueError, match=r"^card 'Ember Drake' name: holds a control character \(U\+0007\)"):
        check_text("card 'Ember Drake' name", "Ember\x07Drake")
    assert check_text("x", "Ünïcode · ♠ 5♦ — fine") == "Ünïcode · ♠ 5♦ — fine"


# --- Markdown and mentions -------------------------------------------------------------------------------
LOUD = "**@everyone **LOUD****"


def test_shown_escapes_markdown_mentions_and_control_characters() -> None:
    assert shown(LOUD) == "\\*\\*@\u200beveryone \\*\\*LOUD\\*\\*\\*\\*"
    odd = shown("__x__ <@12345678901234567> \x1b[2J")
    assert odd.startswith("\\_\\_x\\_\\_ <@\u200b12345678901234567> ") and "\x1b" not in odd and "x1b" in odd


async def test_a_pack_named_with_markdown_and_everyone_shows_escaped_in_the_card_footer(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    ann, bob = fake.add_user("ann", admin=True), fake.add_user("bob")
    loud = example().replace(f'name = "{SILK}"', f'name = "{LOUD}"', 1)
    async with Harness.started(fake, tmp_path):
        added = await config(fake, ann, cardpack=FakeAttachment.from_upload("loud.toml", loud.encode()))
        assert "Card pack **\\*\\*@\u200beveryone" in added.content, added.content
        card = await (
            await fake.slash(bob, fake.channel, "card", {"game": GAME, "name": "Marco Polo"})
        ).wait_reply()
        assert card.content.endswith(f"*From this server's card pack **{shown(LOUD)}** v1.*"), card.content
        assert "@everyone" not in card.content and not card.pings and not added.pings


# --- terminals -------------------------------------------------------------------------------------------
def test_printable_shows_escapes_and_keeps_lines() -> None:
    assert printable("Ann\x1b[2J\u202eX\n\tok") == "Ann\\x1b[2J\\u202eX\n\tok"
    assert "\x1b" not in escape("\x1b[31mred") and escape("[b]") == "\\[b]"


async def test_the_console_prints_a_stored_escape_sequence_as_text(tmp_path: Path) -> None:
    """A console game stored with ESC in a seat name (before names were checked): `agora play --list`
    shows it as \\x1b, never sends the sequence to the terminal."""
    db = str(tmp_path / "c.db")
    async with open_store(db) as store:
        sessions = SessionManager(store)
        info = await sessions.create(None, None, "omphala", 1, host_name="Ann\x1b[2J\x07", origin="console")
        await sessions.join(info.id, 2, "Bo\u202eb")
        await sessions.close()
    out = io.StringIO()
    assert await play(PlayOptions(db=db, list=True), io.StringIO(""), out) == 0
    text = out.getvalue()
    assert "Ann\\x1b[2J\\x07" in text and "Bo\\u202eb" in text
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text


async def test_the_terminal_app_shows_a_stored_escape_sequence_as_text(tmp_path: Path) -> None:
    """The full-screen app draws a seat name stored with ESC and BEL as escapes (Textual would pass them to
    the terminal)."""
    import asyncio

    from bot.tui.app import AgoraApp
    from tests.tui_helpers import screen_text

    db = str(tmp_path / "t.db")
    async with open_store(db) as store:
        sessions = SessionManager(store, ai_delay=0)
        info = await sessions.create(None, None, "omphala", 1, host_name="Ann\x1b[2J\x07", origin="console")
        await sessions.add_ai(info.id, 1, "random")
        await sessions.start(info.id, 1)
        await sessions.close()
    app = AgoraApp(db, info.id, "auto", ai_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await asyncio.wait_for(app.ready.wait(), 60)
        await pilot.pause()
        text = screen_text(app)
        assert "Ann\\x1b[2J\\x07" in text, text
        assert "\x1b" not in text and "\x07" not in text
        await pilot.press("q")


async def test_play_with_a_pack_holding_escapes_says_why_without_printing_them(tmp_path: Path) -> None:
    pack = tmp_path / "bad.toml"
    pack.write_text(example().replace(f'name = "{SILK}"', 'name = "Silk\\u001b[2J"', 1), encoding="utf-8")
    out = io.StringIO()
    opts = PlayOptions(db=str(tmp_path / "c.db"), game=GAME, pack=str(pack), ai_delay=0.0)
    assert await play(opts, io.StringIO(""), out) == 2
    assert "--pack: bad.toml pack name: holds a control character (U+001B)" in out.getvalue()
    assert "\x1b" not in out.getvalue()


def test_replay_never_prints_an_escape_sequence_from_the_file(tmp_path: Path) -> None:
    m = played("ophion", 2, 3)
    data = json.loads(Path(write_export(tmp_path, m)).read_text())
    data["seats"][0]["name"] = "Ada\x1b]0;owned\x07\x1b[2J"
    path = tmp_path / "evil\x1b[2J.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert replay_file(str(path), all_moves=True, out=out, err=err) == 1
    assert (
        "seats 1 (Ada\\x1b]0;owned\\x07\\x1b[2J) name: holds a control character (U+001B)" in err.getvalue()
    )
    assert "\x1b" not in out.getvalue() + err.getvalue() and "\x07" not in err.getvalue()


# --- PostgreSQL ------------------------------------------------------------------------------------------
async def test_migrating_a_database_holding_a_nul_replaces_it_and_says_so(tmp_path: Path) -> None:
    """SQLite stored a pack name with a NUL (before names were checked); PostgreSQL cannot hold one: the
    migration replaces it with U+FFFD, says where, and every count and checksum still matches."""
    from bot import migrate as migration
    from tests.pg import drop_database, pg_url_or_skip

    target = pg_url_or_skip()
    source = tmp_path / "agora.db"
    try:
        async with open_store(str(source)) as store:
            await store.save_pack(5, GAME, "Silk\x00Road", "silk.toml", example(), 11, 1.0, limit=25)
        con = sqlite3.connect(source)
        nul = "SELECT count(*) FROM card_packs WHERE instr(CAST(name AS BLOB), x'00')"
        assert con.execute(nul).fetchone()[0] == 1  # SQLite keeps it
        con.close()
        out = io.StringIO()
        assert await migration.migrate(str(source), target, out) == 0, out.getvalue()
        said = "PostgreSQL cannot store NUL: each becomes U+FFFD in card_packs.name (1 row)."
        assert said in out.getvalue()
        assert "every count and checksum matches" in out.getvalue()
        async with open_store(target) as pg:
            assert [p.name for p in await pg.packs(5)] == ["Silk\ufffdRoad"]
    finally:
        drop_database(target)


async def test_a_typed_pack_name_is_quoted_with_its_markdown_escaped(tmp_path: Path) -> None:
    """A refusal quoting a pack name someone typed (`/play pack:`) escapes its Markdown and shows its control
    characters: "**LOUD**" stays two stars, an ESC shows as \\x1b."""
    from bot.sessions.packs import pack_option

    async with open_store(str(tmp_path / "p.db")) as store:
        with pytest.raises(SessionError) as refused:
            await pack_option(store, 1, "ophelia", "**LOUD**\x1b")
    assert "\\*\\*LOUD\\*\\*\\\\x1b" in str(refused.value) and "\x1b" not in str(refused.value)


async def test_a_member_named_in_markdown_shows_as_written_on_the_board(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """A display name is text a person wrote: the board's text shows "_ann_ **x**" as written (escaped),
    never as italics and bold; the image and the labels, which are not Markdown, take it unescaped."""
    ann, bob = fake.add_user("_ann_ **x**"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, lobby, mid = await h.open_lobby(ann)
        lobby = await h.press(bob, lobby, "Join")
        await h.press(ann, lobby, "Start")
        await h.settle()
        board = h.board(thread).text()
        assert "\\_ann\\_ \\*\\*x\\*\\*" in board, board
        info = await h.sessions.get(mid)
        assert drawn_names(info)[0] == "_ann_ **x**" and seat_names(info)[0] == "\\_ann\\_ \\*\\*x\\*\\*"
