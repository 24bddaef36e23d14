"""The standings image (render/standings.py) that a season's end and a tournament's rounds post: in every
theme, for no entry to more than fit, with people's odd names (emoji, right-to-left, zero-width and control
characters, very long): a PNG of the board's width and bounded height, readable, its alt text within
Discord's limit and free of control characters."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.table.describe import ALT_LIMIT
from render import kit, standings, vision

THEMES = list(kit.THEMES)
COLUMNS = ["#", "Player", "Rating", "Games", "Wins"]
ODD = [
    "Ann",
    "Bob ☕",
    "שלום עולם",
    "مرحبا بك",
    "Zero\u200bWidth",
    "W" * 120,
    "😀😀",
    "\u202eevil\u202c",
    "bell\x07\x1b[2J",
    "family 👨\u200d👩\u200d👧",
    "Ünïcödé Ñame",
    "<@123> **bold** @everyone",
]
MAX_BYTES = 400_000


def rows_of(n: int) -> list[list[str]]:
    """n rows of standings with the odd names over and over."""
    return [
        [str(i + 1), ODD[i % len(ODD)], f"{30 - i * 0.4:.1f}", str(20 - i % 7), str(9 - i % 5)]
        for i in range(n)
    ]


def png(data: bytes) -> Image.Image:
    """The PNG, loaded, of the board's width and a height that grows with the rows but stays bounded."""
    img = Image.open(io.BytesIO(data))
    img.load()
    assert img.format == "PNG"
    assert img.width == kit.WIDTH
    assert 100 <= img.height <= 2200
    assert len(data) < MAX_BYTES, f"{len(data)} bytes"
    return img


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("count", [0, 1, 3, 40, 60])
def test_standings_draw_in_every_theme(theme: str, count: int) -> None:
    """Any number of rows draws on the theme's background; more than MAX_ROWS stop at MAX_ROWS lines."""
    img = png(
        standings.standings_image("Ophion — Season 3", "Final standings", COLUMNS, rows_of(count), theme)
    )
    corner, bg = img.convert("RGB").getpixel((1, 1)), kit.theme(theme).bg
    assert all(abs(a - b) <= 3 for a, b in zip(corner, bg, strict=True))
    drawn, more = standings.shown_rows(rows_of(count))
    assert len(drawn) + (1 if more else 0) <= standings.MAX_ROWS
    assert more == (0 if count <= standings.MAX_ROWS else count - (standings.MAX_ROWS - 1))


def test_height_grows_with_rows_then_stops() -> None:
    """One row more is one row's height more, up to MAX_ROWS; 60 rows are as tall as 41."""
    heights = {
        n: png(standings.standings_image("T", "S", COLUMNS, rows_of(n))).height for n in (1, 2, 41, 60)
    }
    assert heights[2] - heights[1] == standings.ROW_H
    assert heights[41] == heights[60]


def test_cells_are_plain_text() -> None:
    """Control and format characters and glyphs the font lacks are gone; a name of nothing drawable is "?";
    Markdown and mentions stay as the characters they are."""
    assert standings.cell_text("Zero\u200bWidth") == "ZeroWidth"
    assert standings.cell_text("\u202eevil\u202c") == "evil"
    assert standings.cell_text("bell\x07\x1b[2J") == "bell[2J"
    assert standings.cell_text("<@123> **bold**") == "<@123> **bold**"
    assert standings.cell_text("a\nb\u00a0c") == "a b c"
    assert standings.cell_text("\u200b") == "?"
    assert standings.cell_text("") == ""


def test_a_long_name_is_cut_and_the_numbers_stay() -> None:
    """A very long name takes the room left and is cut; the podium is three rows; ragged rows draw."""
    rows = [["1", "W" * 300, "12.0", "3", "2"], ["2", "Short"], ["3", "Ann", "1.0", "1", "0", "extra"]]
    png(standings.standings_image("T" * 200, "S" * 300, COLUMNS, rows, highlight=1))
    widths = standings._widths(COLUMNS, [[standings.cell_text(x) for x in r] for r in rows], 700)
    assert sum(widths) == 700
    assert widths[1] == max(widths)


@pytest.mark.parametrize("theme", THEMES)
def test_standings_text_reads(theme: str) -> None:
    """Every ink the image draws has WCAG 2 contrast of at least 4.5 on what it is drawn on."""
    low = vision.too_faint(standings.text_pairs(kit.theme(theme)))
    assert not low, "\n".join(low)


def test_row_text_is_large_on_a_phone() -> None:
    """Shown a phone's width, a row's words are at least 13 px and the header at least the kit's smallest."""
    scale = kit.PHONE / kit.WIDTH
    assert standings.ROW_TEXT * scale >= 13
    assert standings.HEAD_TEXT >= kit.MIN_TEXT
    assert standings.TITLE_TEXT > standings.ROW_TEXT


@pytest.mark.parametrize("count", [0, 1, 3, 40, 60, 500])
def test_alt_within_the_limit_whole_rows(count: int) -> None:
    """The alt text: the title line, then whole rows while they fit, then "and N more" for the rest."""
    rows = rows_of(count)
    text = standings.standings_alt("Ophion — Season 3", "Final standings", COLUMNS, rows)
    lines = text.split("\n")
    assert 0 < len(text) <= ALT_LIMIT
    assert all(line.isprintable() for line in lines), repr(text)
    assert lines[0] == "Ophion — Season 3 — Final standings"
    if count == 0:
        assert lines[1] == "Nobody yet."
        return
    said = [x for x in lines[1:] if not x.startswith("and ")]
    assert said[0] == "1, Ann, Rating 30.0, Games 20, Wins 9"
    assert all(x.startswith(f"{i}, ") for i, x in enumerate(said, 1))
    if len(said) < count:
        assert lines[-1] == f"and {count - len(said)} more"
    else:
        assert not lines[-1].startswith("and ")


def test_alt_of_odd_names_and_long_titles() -> None:
    """Names lose their control and format characters; a very long name or title is cut, not the rows."""
    text = standings.standings_alt("T\x07" * 900, "\u202esub", COLUMNS, rows_of(12))
    assert len(text) <= ALT_LIMIT
    assert all(line.isprintable() for line in text.split("\n")), repr(text)
    assert "\u200b" not in text and "\x1b" not in text
    long_name = standings.standings_alt("T", "", COLUMNS, [["1", "W" * 2000, "1.0", "1", "1"]])
    assert long_name.split("\n")[1].startswith("1, WWW") and len(long_name) < 200
