"""Siege of Olympus's board (public) and hand (private) images, drawn from its view JSON and the printed card
data (names, costs and texts of the cards the view names by id).

The board, top to bottom: the banner (turn, whose turn, or the result), the turn strip (deck, Underworld and
Olympus sizes; the phases with the current one in gold; the turn's fixed attack target; an open response
window or pending decision in words), P2's panel (Commander's Health and ability, artifacts held and pieces
toward each), P2's minions, Tartarus's prisoners, the Agora, P1's minions, P1's panel, and the last lines of
the log. A minion is a row tile: its class as the colour of its strip and a glyph, its race as a glyph (both
named when there is room), its cost, Attack (⚔ melee, ➶ ranged) and Health (left/total, damage in red, a
stat above or below its printed value in green or red), its artifact piece(s) in the gold disc, and badges
for Lethal, Resistant, Primordial Attack, crippled, paralyzed and dodge (words when there is room, else
glyphs). Up to 6 minions a side sit in two columns, 7 or 8 in three; prisoners and Agora cards in three. The
turn's target is framed in red; what waits on a response window in gold (and what an attack hits in red).
A key to the class and race glyphs sits above the log, which gives up lines on the fullest boards.

The drawing is split by what it draws: common.py (palette, sizes, readers of the view and the cards),
tiles.py (minion, spell and empty tiles), words.py (the texts only the images need; results and
decisions are the game's present.py), geometry.py (the layout), public.py (the
board) and private.py (the hand). This module is the one render/api.py finds by the game's id.
"""

from __future__ import annotations

from engine.games.siege_of_olympus.cards import CARDS
from render import kit
from render.games.siege_of_olympus.common import (
    BADGES,
    DOWN,
    HAND_ROW_W,
    POOL_W,
    SIDE_NARROW_W,
    SIDE_W,
    TILE_H,
    UP,
    palettes,
    short_name,
    text_pairs,
)
from render.games.siege_of_olympus.geometry import Layout, layout
from render.games.siege_of_olympus.private import ROW_PAD, hand, hand_lines, hand_row
from render.games.siege_of_olympus.public import board
from render.games.siege_of_olympus.tiles import (
    Face,
    empty_tile,
    face,
    minion_tile,
    name_room,
    printed_face,
    spell_tile,
)
from render.games.siege_of_olympus.tiles import _two_lines as _two_lines  # (for the tests)
from render.games.siege_of_olympus.words import decision_text, status_text, target_text, window_text

__all__ = [
    "BADGES",
    "DOWN",
    "HAND_ROW_W",
    "POOL_W",
    "ROW_PAD",
    "SIDE_NARROW_W",
    "SIDE_W",
    "TILE_CACHES",
    "TILE_H",
    "UP",
    "Face",
    "Layout",
    "board",
    "decision_text",
    "face",
    "hand",
    "hand_lines",
    "layout",
    "minion_tile",
    "name_room",
    "palettes",
    "printed_face",
    "short_name",
    "status_text",
    "target_text",
    "text_pairs",
    "warm",
    "window_text",
]


def warm(theme: str | None = None) -> None:
    """Draw every minion's tile as printed (both widths) and every spell's Agora tile now."""
    t = kit.theme(theme)
    for cid, spec in CARDS.items():
        if spec.type == "minion":
            for w in (SIDE_W, POOL_W):
                minion_tile(printed_face(cid), w, t.name)
        elif spec.type == "spell":
            spell_tile(cid, POOL_W, False, t.name)
    for text, w in (("no minions", SIDE_W), ("empty", POOL_W)):
        empty_tile(w, text, t.name)


TILE_CACHES = (minion_tile, spell_tile, empty_tile, hand_row)  # for benchmarks that measure a cold render
