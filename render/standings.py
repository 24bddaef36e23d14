"""Standings as a picture: a season's final leaderboard, a tournament's table after a round.

One image for any table of standings: a title, a subtitle line, a header row and one row per entry, the first
few marked as the podium (a gold strip, a bold line and the acting panel's ground: more than colour says it).
It is the board's width (kit.WIDTH, twice a phone's) and its rows' text 13 px when a phone shows it. Cells are
people's names and numbers: drawn as text, never interpreted, without control or format characters (a name's
bidi override, a zero-width space) and without glyphs the font lacks. At most MAX_ROWS rows are drawn; more
end in "and N more". The alt text (`standings_alt`) says the same rows in words within Discord's limit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.table.describe import ALT_LIMIT, clean
from render import kit

DEFAULT_THEME = "dark"
W = kit.WIDTH
PAD = 2 * kit.MARGIN  # the image's margin
TITLE_TEXT = 40  # 20 px on a phone
SUB_TEXT = 26  # the subtitle line
ROW_TEXT = 26  # a row's words: 13 px on a phone
HEAD_TEXT = kit.MIN_TEXT  # the header row, in capitals' weight (bold)
ROW_H = 44
HEAD_H = 36
STRIP = 8  # the podium's strip at a row's left
CELL_PAD = 12  # inside a cell, left and right
CELL_SAID = 64  # a cell's most characters in the alt text (a very long name leaves room for the others)
MAX_ROWS = 40  # drawn rows, "and N more" included
NUMBER = re.compile(r"^[-+−]?[\d.,%/ ]*\d[\d.,%/ ]*$")  # a cell that reads as a number: right-aligned


def cell_text(text: str) -> str:
    """A cell as the image draws it: one line, no control or format character, only glyphs the font has
    ("?" for a name of nothing else, such as a name of emoji only)."""
    line = clean(str(text))
    drawn = " ".join(kit.printable(line).split())
    return drawn or ("?" if str(text).strip() else "")


def shown_rows(rows: Sequence[Sequence[str]], most: int = MAX_ROWS) -> tuple[list[Sequence[str]], int]:
    """The rows drawn (at most `most`, the last of them the "and N more" line's place) and how many are left
    out."""
    if len(rows) <= most:
        return list(rows), 0
    return list(rows[: most - 1]), len(rows) - (most - 1)


def _widths(columns: Sequence[str], rows: Sequence[Sequence[str]], room: int) -> list[int]:
    """Each column's width: its widest cell or header (bold, as the podium draws it); the widest column of
    words (the names) takes the room left, and a row too wide shares out what there is in proportion."""
    head, body = kit.font(HEAD_TEXT, True), kit.font(ROW_TEXT, True)
    natural = [
        max([kit.text_width(columns[k], head)] + [kit.text_width(r[k], body) for r in rows if k < len(r)])
        + 2 * CELL_PAD
        + 2  # text_width rounds down
        for k in range(len(columns))
    ]
    if not natural:
        return []
    words = [k for k in range(len(natural)) if not _numeric(k, rows)] or list(range(len(natural)))
    wide = max(words, key=lambda k: natural[k])
    others = sum(natural) - natural[wide]
    if others + 4 * CELL_PAD <= room:
        return [room - others if k == wide else w for k, w in enumerate(natural)]
    return [max(2 * CELL_PAD, w * room // sum(natural)) for w in natural]


def _numeric(k: int, rows: Sequence[Sequence[str]]) -> bool:
    """Whether every filled cell of column k reads as a number."""
    cells = [r[k] for r in rows if k < len(r) and r[k]]
    return bool(cells) and all(NUMBER.match(c) for c in cells)


def standings_image(
    title: str,
    subtitle: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    theme: str = DEFAULT_THEME,
    highlight: int = 3,
) -> bytes:
    """A table of standings as a PNG: a title, a subtitle line, a header row and one row per entry (the first
    `highlight` rows marked as podium), readable at phone width."""
    return kit.to_png(draw(title, subtitle, columns, rows, kit.theme(theme), highlight))


def draw(
    title: str,
    subtitle: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    t: kit.Theme,
    highlight: int = 3,
) -> Image.Image:
    """The standings as a Pillow image (see standings_image)."""
    heads = [cell_text(c) for c in columns]
    kept, more = shown_rows(rows)
    cells = [[cell_text(x) for x in r[: len(heads)]] for r in kept]
    room = W - 2 * PAD
    title_lines = kit.wrap_text(cell_text(title), kit.font(TITLE_TEXT, True), room, max_lines=2)
    sub = cell_text(subtitle)
    lines = len(cells) + (1 if more or not cells else 0)
    title_h = int(TITLE_TEXT * 1.25) * len(title_lines)
    sub_h = int(SUB_TEXT * 1.4) if sub else 0
    height = PAD + title_h + sub_h + 10 + HEAD_H + lines * ROW_H + PAD
    canvas = kit.new_canvas(W, height, t)
    d = ImageDraw.Draw(canvas)
    y = PAD
    for line in title_lines:
        kit.draw_text(d, (PAD, y), line, TITLE_TEXT, t.text, bold=True)
        y += int(TITLE_TEXT * 1.25)
    if sub:
        kit.draw_text(d, (PAD, y + 4), sub, SUB_TEXT, t.dim, max_w=room)
        y += sub_h
    y += 10
    widths = _widths(heads, cells, room - STRIP)
    right = [_numeric(k, cells) for k in range(len(heads))]
    _row(d, y, heads, widths, right, HEAD_TEXT, t.dim, True, HEAD_H)
    d.line((PAD, y + HEAD_H - 2, W - PAD, y + HEAD_H - 2), fill=t.border, width=max(2, t.edge))
    y += HEAD_H
    for i, row in enumerate(cells):
        podium = i < highlight
        ground = t.panel_active if podium else (t.panel if i % 2 == 0 else t.zone)
        d.rectangle((PAD, y + 2, W - PAD, y + ROW_H - 2), fill=ground)
        if podium:
            d.rectangle((PAD, y + 2, PAD + STRIP - 1, y + ROW_H - 2), fill=t.highlight)
        _row(d, y, row, widths, right, ROW_TEXT, t.text, podium, ROW_H)
        y += ROW_H
    if more or not cells:
        words = f"and {more} more" if more else "Nobody yet"
        kit.draw_text(d, (PAD + STRIP + CELL_PAD, y + ROW_H // 2), words, ROW_TEXT, t.dim, anchor="lm")
    return canvas


def _row(
    d: ImageDraw.ImageDraw,
    y: int,
    cells: Sequence[str],
    widths: Sequence[int],
    right: Sequence[bool],
    size: int,
    ink: kit.RGB,
    bold: bool,
    h: int,
) -> None:
    """One row's cells, each cut to its column (numbers right-aligned), centred in a line h high."""
    x = PAD + STRIP
    for text, w, at_right in zip(cells, widths, right, strict=False):
        room = w - 2 * CELL_PAD
        fitted = kit.fit_text(text, kit.font(size, bold), room) if room > 0 else ""
        if at_right:
            kit.draw_text(d, (x + w - CELL_PAD, y + h // 2), fitted, size, ink, bold, anchor="rm")
        else:
            kit.draw_text(d, (x + CELL_PAD, y + h // 2), fitted, size, ink, bold, anchor="lm")
        x += w


def standings_alt(title: str, subtitle: str, columns: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """The image's alt text, within Discord's 1,024 characters (whole rows; "and N more")."""
    heads = [_said(c) for c in columns]
    numeric = [_numeric(k, rows) for k in range(len(heads))]
    head = [x for x in (_said(title), _said(subtitle)) if x]
    lines = [" — ".join(head)[: ALT_LIMIT // 2]]
    if not rows:
        return "\n".join([*lines, "Nobody yet."])
    for n, row in enumerate(rows):
        line = _alt_row(heads, numeric, row)
        left = len(rows) - n - 1
        tail = len(f"\nand {len(rows) - n} more") if left else 0  # room to say what is left out
        if len("\n".join(lines)) + 1 + len(line) + tail > ALT_LIMIT:
            lines.append(f"and {len(rows) - n} more")
            break
        lines.append(line)
    return "\n".join(lines)


def _said(text: str) -> str:
    """A cell as the alt text says it: one line, no control or format character, any space a plain one."""
    return " ".join(clean(str(text)).split())


def _alt_row(heads: Sequence[str], numeric: Sequence[bool], row: Sequence[str]) -> str:
    """A row in words: a number after its column's name ("Rating 16.0"), words (a name) and the "#" column
    bare."""
    words = []
    for k, cell in enumerate(row[: len(heads)]):
        text = _said(cell)
        text = text if len(text) <= CELL_SAID else text[: CELL_SAID - 1] + "…"
        words.append(f"{heads[k]} {text}" if heads[k] not in ("", "#") and numeric[k] else text)
    return ", ".join(words)


def text_pairs(t: kit.Theme) -> list[kit.TextPair]:
    """Every text ink the image draws on the colour it is drawn on (for the contrast check)."""
    return [
        ("the title on the background", t.text, t.bg),
        ("the subtitle and the header on the background", t.dim, t.bg),
        ("a row on the panel", t.text, t.panel),
        ("a row on the zone", t.text, t.zone),
        ("a podium row on the acting panel", t.text, t.panel_active),
        ("and N more on the background", t.dim, t.bg),
    ]
