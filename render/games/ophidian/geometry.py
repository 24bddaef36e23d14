"""Where everything goes on Ophidian 2350's board (nothing is drawn here): the turn strip's lines, the panels,
the four fields (P2's Support and Action Fields, then P1's Action and Support Fields, so the front rows face
each other in the middle) down to each character's tile (by uid), the key and the log.

A field's characters go one to a row (wide tiles, with words); when the board would be taller than
MAX_HEIGHT, the log gives up lines, then the fullest fields go two to a row (narrow tiles, fewer words);
layout() says what else a board gives up past that.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.games.ophidian.view import OphidianView
from render import kit
from render.games.ophidian.common import (
    BAR_W,
    EMPTY_H,
    FULL_W,
    GAP,
    HALF_W,
    INNER_W,
    LABEL,
    MAX_HEIGHT,
    ROW_H,
    STATS_H,
    _characters,
    _int,
    _over,
    _players,
)
from render.games.ophidian.tiles import Face, face, tile_height
from render.games.ophidian.words import _log, attack_text, decision_text, playing_text, status_text
from render.kit import Box

MAX_FIELD = 12  # characters drawn in one field at most; more are counted in its label
LEGEND_H = 4 + 2 * kit.LINE_H + 4
FIELDS = ((1, "support"), (1, "action"), (0, "action"), (0, "support"))  # top to bottom


def strip_lines(view: OphidianView, names: list[str]) -> list[tuple[str, str]]:
    """The turn strip's lines under its chips, as (kind, text): the result, the attack under way, the card
    being played, the pending decision, each wrapped (at most 2, 1, 2 and 2 lines)."""
    f = kit.font(LABEL, True)
    out: list[tuple[str, str]] = []
    result = status_text(view, names).removeprefix("Game over · ") if _over(view) else ""
    for kind, text, most in (
        ("result", result, 2),
        ("attack", attack_text(view, names), 1),
        ("playing", playing_text(view, names, text=True), 2),
        ("decision", decision_text(view, names), 2),
    ):
        if text:
            prefix = {"attack": "⚔ ", "playing": "▶ "}.get(kind, "")
            out += [(kind, line) for line in kit.wrap_text(prefix + text, f, INNER_W, max_lines=most)]
    return out


def strip_height(lines: int) -> int:
    """The turn strip: its label, the chips, and this many lines."""
    return kit.zone_head(LABEL) + ROW_H + (lines * kit.LINE_H + 4 if lines else 0) + 4


def panel_height() -> int:
    """A panel: the name line, the big numbers, the Funeral Pyre's line."""
    return kit.PANEL_HEAD + 3 + STATS_H + kit.LINE_H + 10


def tile_boxes(zone: Box, heights: list[int], cols: int) -> list[Box]:
    """Each tile's box in a field zone, by the tiles' heights: one or two to a row, a row as tall as its
    tallest tile."""
    w = FULL_W if cols == 1 else HALF_W
    x0 = zone[0] + 6 + BAR_W + GAP
    y = zone[1] + kit.zone_head(LABEL)
    out: list[Box] = []
    for r in range(0, len(heights), cols):
        row = heights[r : r + cols]
        for k, h in enumerate(row):
            x = x0 + k * (w + GAP)
            out.append((x, y, x + w, y + h))
        y += max(row) + GAP
    return out


def field_height(heights: list[int], cols: int) -> int:
    """A field zone: its label, then its rows of tiles of these heights (or the empty outline)."""
    if not heights:
        return kit.zone_head(LABEL) + EMPTY_H + 6
    rows = [max(heights[r : r + cols]) for r in range(0, len(heights), cols)]
    return kit.zone_head(LABEL) + sum(rows) + GAP * (len(rows) - 1) + 6


@dataclass(frozen=True, slots=True)
class Layout:
    """Where the parts of a board go, and where each character's tile is (by uid)."""

    height: int
    strip: Box
    lines: list[tuple[str, str]]  # the turn strip's lines under its chips (strip_lines)
    panels: tuple[Box, Box]  # P1's (bottom), P2's (top)
    fields: dict[tuple[int, str], Box]  # (seat, "action" | "support") -> its zone
    columns: dict[tuple[int, str], int]  # (seat, field) -> 1 or 2 tiles to a row
    drawn: dict[tuple[int, str], int]  # (seat, field) -> how many of its characters are drawn
    placed: dict[tuple[int, str], list[tuple[Face, Box]]]  # (seat, field) -> its tiles' faces and boxes
    legend: Box | None
    log: Box | None
    log_lines: int
    tiles: dict[int, Box]  # each character's tile by uid


def layout(view: OphidianView, names: list[str]) -> Layout:
    """The board's layout: banner, strip, P2's panel and fields, P1's fields and panel, key, log.

    To stay under MAX_HEIGHT a board gives up, in this order: log lines (down to one), one tile to a row
    (the fullest fields first go two to a row), the key, and the last log line. It never leaves out a
    character to stay under (a board of more than about nine characters a side grows taller instead) but
    the 13th and later of one field (its label counts them)."""
    W, M, G = kit.WIDTH, kit.MARGIN, kit.GAP
    players = _players(view)
    everyone = {key: _characters(players[key[0]], key[1]) for key in FIELDS}
    drawn = {key: min(len(everyone[key]), MAX_FIELD) for key in FIELDS}
    faces = {key: [face(c) for c in everyone[key][: drawn[key]]] for key in FIELDS}
    heights = {key: [tile_height(f) for f in faces[key]] for key in FIELDS}
    columns = {key: 1 for key in FIELDS}
    lines = strip_lines(view, names)
    fixed = M + kit.BANNER_H + G + strip_height(len(lines)) + G + 2 * (panel_height() + G) + M
    legend_on = True

    def total(log_count: int) -> int:
        fields = sum(field_height(heights[k], columns[k]) + G for k in FIELDS)
        legend_h = LEGEND_H + G if legend_on else 0
        return fixed + fields + legend_h + (kit.log_height(log_count) + G if log_count else 0)

    most = len(_log(view, names))
    count = most
    while count > 1 and total(count) > MAX_HEIGHT:
        count -= 1  # the log gives up lines first (the message beside the image has the last events)
    for key in sorted(FIELDS, key=lambda k: -drawn[k]):  # then the fullest fields go two to a row
        if total(count) <= MAX_HEIGHT or drawn[key] < 2:
            break
        columns[key] = 2
    if total(count) > MAX_HEIGHT:
        legend_on = False
    if total(count) > MAX_HEIGHT:
        count = 0
    while count < most and total(count + 1) <= MAX_HEIGHT:
        count += 1  # and the log takes back what they freed
    y = M + kit.BANNER_H + G
    strip = (M, y, W - M, y + strip_height(len(lines)))
    y = strip[3] + G
    top_panel = (M, y, W - M, y + panel_height())
    y = top_panel[3] + G
    fields: dict[tuple[int, str], Box] = {}
    placed: dict[tuple[int, str], list[tuple[Face, Box]]] = {}
    tiles: dict[int, Box] = {}
    for key in FIELDS:
        box = (M, y, W - M, y + field_height(heights[key], columns[key]))
        fields[key] = box
        boxes = tile_boxes(box, heights[key], columns[key])
        placed[key] = list(zip(faces[key], boxes, strict=True))
        for c, b in zip(everyone[key], boxes, strict=False):
            tiles[_int(c.get("uid"))] = b
        y = box[3] + G
    bottom_panel = (M, y, W - M, y + panel_height())
    y = bottom_panel[3] + G
    legend = (M, y, W - M, y + LEGEND_H) if legend_on else None
    y = legend[3] + G if legend else y
    log_h = kit.log_height(count)
    log = (M, y, W - M, y + log_h) if log_h else None
    height = (log[3] if log else y - G) + M
    panels = (bottom_panel, top_panel)
    return Layout(height, strip, lines, panels, fields, columns, drawn, placed, legend, log, count, tiles)
