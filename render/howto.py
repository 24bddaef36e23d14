"""How to play on one page: the picture `/rules` and the terminal's `h` open with.

One tall image per game with a tutorial (engine/table/lesson.py's `Page`): the title, the summary, a turn as
a numbered list, the sample board (the game's own board image of the tutorial's sample state, from the
spectator view, with the seats named "You" and "Opponent"), its parts named in a numbered legend under it
(a renderer does not say where it drew a zone, so the parts' own words say where), and how to win. The page
is the board's width (render.kit.WIDTH, twice a phone's) and tall, its text large enough to read when Discord
shows it about 400 px wide. Its alt text is engine.table.describe's `page_alt` (here: `alt`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.core import JSON, Game
from engine.registry import get
from engine.table import describe, lesson
from engine.table.lesson import Page, Tutorial
from engine.table.present import of
from render import api, kit

W = kit.WIDTH
PAD = 2 * kit.MARGIN  # the page's margin left and right
TITLE_TEXT = 44  # 22 px when the page is shown a phone's width
HEAD_TEXT = 34  # a section's heading
BODY_TEXT = 28  # the page's words: 14 px on a phone, larger than a board's smallest text (11 px)
BODY_H = int(BODY_TEXT * 1.32)  # the line height of the page's words
BADGE = 40  # a numbered marker's height
INDENT = BADGE + 14  # where a numbered line's words start
BOARD_MAX_H = 1800  # a taller sample board is scaled down to this height (6 seats of Omphala fit)
SECTION_GAP = 22


def sample_names(players: int) -> list[str]:
    """The seats of the sample board: "You" (the learner, seat 0), then "Opponent", "Opponent 2", …"""
    return ["You", "Opponent", *(f"Opponent {k}" for k in range(2, players))]


def tutorial_of(game_id: str) -> tuple[Game[Any], Tutorial]:
    """The game and its tutorial; ValueError for a game without one."""
    game = get(game_id)
    found = lesson.of(game)
    if found is None:
        raise ValueError(f"{game_id} has no tutorial (engine/games/{game_id}/learn.py)")
    return game, found


def sample_view(game: Game[Any], tutorial: Tutorial) -> JSON:
    """The spectator view of the tutorial's sample board (what the picture draws and its alt text says)."""
    view: JSON = game.view(lesson.sample_state(game, tutorial), None)
    return view


@lru_cache(maxsize=32)
def page(game_id: str, theme: str | None = None) -> bytes:
    """The game's one-page rules as PNG bytes (encoded like the boards); drawn once per game and theme, as
    the tutorial's deal is fixed."""
    return kit.to_png(page_image(game_id, theme))


def page_image(game_id: str, theme: str | None = None, tutorial: Tutorial | None = None) -> Image.Image:
    """The game's one-page rules as a Pillow image; `tutorial` stands in for the game's own (a test's)."""
    game, found = tutorial_of(game_id) if tutorial is None else (get(game_id), tutorial)
    t = kit.theme(theme)
    names = sample_names(found.players)
    board = api.board_image(found.game_id, sample_view(game, found), names, t.name)
    return draw(game.title or game_id, found.page, board.convert("RGB"), t)


def alt(game_id: str, tutorial: Tutorial | None = None) -> str:
    """The page's alt text (describe.page_alt of the sample board the page draws, with its names); the
    game's own page's is worded once."""
    if tutorial is None:
        return _alt(game_id)
    game = get(game_id)
    view = sample_view(game, tutorial)
    title = game.title or game_id
    return describe.page_alt(of(game), title, tutorial.page, view, sample_names(tutorial.players))


@lru_cache(maxsize=32)
def _alt(game_id: str) -> str:
    """The alt text of the game's own page (its tutorial's deal is fixed)."""
    return alt(game_id, tutorial_of(game_id)[1])


Block = tuple[int, Callable[[Image.Image, int], None]]  # a height and what draws it at a y


def draw(title: str, p: Page, board: Image.Image, t: kit.Theme) -> Image.Image:
    """The page from its words and the sample board's image, one block under another."""
    if board.width > W or board.height > BOARD_MAX_H:
        scale = min(W / board.width, BOARD_MAX_H / board.height)
        size = (max(1, round(board.width * scale)), max(1, round(board.height * scale)))
        board = board.resize(size, Image.Resampling.LANCZOS)
    room = W - 2 * PAD
    blocks: list[Block] = [
        _words(f"How to play {title}", TITLE_TEXT, t.text, room, bold=True),
        _words(p.summary, BODY_TEXT, t.text, room),
        _heading("A turn", t),
        *(_numbered(i, step, t.highlight, t, room) for i, step in enumerate(p.turn, 1)),
        _heading("The sample board", t),
        (board.height, lambda c, y: c.paste(board, ((W - board.width) // 2, y))),
    ]
    if p.parts:
        blocks.append(_heading("Its parts", t))
        blocks += [_part(i, name, what, t, room) for i, (name, what) in enumerate(p.parts, 1)]
    blocks += [_heading("How to win", t), _win(p.win, t, room)]
    gaps = [SECTION_GAP if i else PAD for i in range(len(blocks))]
    canvas = kit.new_canvas(W, sum(h for h, _ in blocks) + sum(gaps) + PAD, t)
    y = 0
    for (h, paint), gap in zip(blocks, gaps, strict=True):
        y += gap
        paint(canvas, y)
        y += h
    return canvas


def _lines(text: str, size: int, width: int, bold: bool = False) -> list[str]:
    return kit.wrap_text(" ".join(text.split()), kit.font(size, bold), width)


def _words(text: str, size: int, ink: kit.RGB, width: int, x: int = PAD, bold: bool = False) -> Block:
    """A paragraph wrapped to `width`."""
    lines = _lines(text, size, width, bold)
    line_h = int(size * 1.32)

    def paint(canvas: Image.Image, y: int) -> None:
        d = ImageDraw.Draw(canvas)
        for k, line in enumerate(lines):
            kit.draw_text(d, (x, y + k * line_h), line, size, ink, bold)

    return line_h * len(lines), paint


def _heading(text: str, t: kit.Theme) -> Block:
    """A section's heading with a rule under it."""
    h = int(HEAD_TEXT * 1.3) + 6

    def paint(canvas: Image.Image, y: int) -> None:
        d = ImageDraw.Draw(canvas)
        kit.draw_text(d, (PAD, y), text, HEAD_TEXT, t.highlight_text, bold=True)
        d.line((PAD, y + h - 3, W - PAD, y + h - 3), fill=t.border, width=max(2, t.edge))

    return h, paint


def _marker(canvas: Image.Image, number: int, fill: kit.RGB, y: int) -> None:
    """A numbered marker (kit.badge: its ink is black or white, whichever reads on the fill)."""
    tile = kit.badge(str(number), fill, BADGE)
    kit.paste(canvas, tile, PAD + (BADGE - tile.width) // 2, y + (BODY_H - BADGE) // 2)


def _numbered(number: int, text: str, fill: kit.RGB, t: kit.Theme, room: int) -> Block:
    """A step of the turn: its number in a marker, its words beside it."""
    h, words = _words(text, BODY_TEXT, t.text, room - INDENT, x=PAD + INDENT)

    def paint(canvas: Image.Image, y: int) -> None:
        _marker(canvas, number, fill, y)
        words(canvas, y)

    return h, paint


def _part(number: int, name: str, what: str, t: kit.Theme, room: int) -> Block:
    """A part of the sample board: its number, its name in bold, then where it is and what it is."""
    head = kit.fit_text(name, kit.font(BODY_TEXT, True), room - INDENT)
    h, words = _words(what, BODY_TEXT, t.dim, room - INDENT, x=PAD + INDENT)

    def paint(canvas: Image.Image, y: int) -> None:
        _marker(canvas, number, kit.seat_colour(1), y)
        kit.draw_text(ImageDraw.Draw(canvas), (PAD + INDENT, y), head, BODY_TEXT, t.text, bold=True)
        words(canvas, y + BODY_H)

    return BODY_H + h, paint


def _win(text: str, t: kit.Theme, room: int) -> Block:
    """How to win, framed in the highlight colour."""
    inset = 16
    h, words = _words(text, BODY_TEXT, t.text, room - 2 * inset, x=PAD + inset)

    def paint(canvas: Image.Image, y: int) -> None:
        d = ImageDraw.Draw(canvas)
        box = (PAD, y, W - PAD, y + h + 2 * inset)
        d.rounded_rectangle(box, 10, fill=t.panel_active, outline=t.highlight, width=3)
        words(canvas, y + inset)

    return h + 2 * inset, paint


def text_pairs(t: kit.Theme) -> list[kit.TextPair]:
    """Every text ink the page draws on the colour it is drawn on (for the contrast check; the sample
    board's own are its renderer's)."""
    return [
        ("title, summary, turn and parts' names on the background", t.text, t.bg),
        ("a part's words on the background", t.dim, t.bg),
        ("a heading on the background", t.highlight_text, t.bg),
        ("how to win on the acting panel", t.text, t.panel_active),
        ("a turn's number on the highlight", kit.contrast_ink(t.highlight), t.highlight),
        ("a part's number on its marker", kit.contrast_ink(kit.seat_colour(1)), kit.seat_colour(1)),
    ]
