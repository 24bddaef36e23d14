"""Ophidian 2350's board (public) and hand (private) images, drawn from its view JSON (the contract of the
engine's `view`) and the printed card data (names, costs, symbols and texts of the cards the view names).

The board, top to bottom: the banner (the Wave and who has The Flow, the setup or Breather step, or the
result), the turn strip (the Wave's pips and The Flow, or the steps of the setup and Breather; the attack
under way, attacker → target; the Strategy card being played; the pending decision or response window in
words), P2's panel (hand and Arsenal sizes; CP, Cheer with ★ for the Crowd Favorite, VP out of 12; the
team; the Funeral Pyre's Gladiators by name), P2's Support and Action Fields, P1's Action and Support
Fields (so the front rows face each other in the middle), P1's panel, a key, and the last lines of the log.
A character is a row tile (tiles.py says what it shows: level and Set on a small card that turns, name,
VP, RAGING, ADMG/DDMG/shield, the wound track against Life and Rage, its Pumps). The attack's attacker is
framed gold and its target red. A field's characters go one to a row, two when the board would be too tall.

The hand: each card in hand as a wide row (P and M, name, flow symbol, type, requirement, text), then the
viewer's Gladiator Stack, under a prompt of what the viewer should do now.

The drawing is split by what it draws: common.py (palette, sizes, readers of the view and the cards),
tiles.py (the character tile), words.py (the texts only the images need; results and
decisions are the game's present.py), geometry.py (the layout), public.py (the board) and
private.py (the hand). This package is the one render/api.py finds by the game's id.
"""

from __future__ import annotations

from engine.games.ophidian.cards import CARDS, disciplines
from render import kit
from render.games.ophidian.common import (
    DISCIPLINE_COLOURS,
    DOWN,
    FULL_W,
    HALF_W,
    HAND_ROW_W,
    RAGE,
    SET_FACE,
    TILE_H,
    UP,
    palettes,
    text_pairs,
)
from render.games.ophidian.geometry import Layout, layout
from render.games.ophidian.private import hand, hand_lines, hand_row, meets, requirement, stack_lines
from render.games.ophidian.public import board, field_label, strip_label
from render.games.ophidian.tiles import Face, Pump, character_tile, empty_tile, face, name_room, tile_height
from render.games.ophidian.words import (
    attack_text,
    decision_text,
    playing_text,
    status_text,
    uid_text,
)

__all__ = [
    "DISCIPLINE_COLOURS",
    "DOWN",
    "FULL_W",
    "HALF_W",
    "HAND_ROW_W",
    "RAGE",
    "SET_FACE",
    "TILE_CACHES",
    "TILE_H",
    "UP",
    "Face",
    "Layout",
    "Pump",
    "attack_text",
    "board",
    "character_tile",
    "decision_text",
    "empty_tile",
    "face",
    "field_label",
    "hand",
    "hand_lines",
    "hand_row",
    "layout",
    "meets",
    "name_room",
    "palettes",
    "playing_text",
    "requirement",
    "stack_lines",
    "status_text",
    "strip_label",
    "text_pairs",
    "tile_height",
    "uid_text",
    "warm",
]


def _printed(cid: str, kind: str) -> Face:
    """A character as printed, Unset and unwounded (what warm() draws)."""
    spec = CARDS[cid]
    discs = disciplines(cid) if kind != "minion" else (spec.faction,)
    level = spec.stat("level") if kind == "gladiator" else 0
    return face({"card": cid, "kind": kind, "disciplines": list(discs), "level": level, "vp": spec.stat("vp"),
                 "rage": spec.stat("rage") if kind != "minion" else None})  # fmt: skip


def warm(theme: str | None = None) -> None:
    """Draw every character as it enters play (Unset, unwounded), wide and narrow, and the empty field."""
    t = kit.theme(theme)
    for cid, spec in CARDS.items():
        if spec.type in ("gladiator", "reinforcement", "minion"):
            f = _printed(cid, spec.type)
            for w in (FULL_W, HALF_W):
                character_tile(f, w, t.name)
    empty_tile(FULL_W, "empty", t.name)


TILE_CACHES = (character_tile, empty_tile, hand_row)  # for benchmarks that measure a cold render
