"""What every Ophidian 2350 image shares (nothing is drawn here): the palette, glyphs and sizes of the tiles,
zones and panels; readers of the view's loosely typed JSON; the printed cards' names, stats and symbols.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.games.ophidian.cards import CARDS, DISCIPLINES, MAX_WAVES, PYRE_WIN, TYPE_NAMES, WAVES
from engine.games.ophidian.view import OphidianView
from render import kit
from render.kit import Theme

JSON = dict[str, Any]

TITLE = "Ophidian 2350"
LABEL = kit.MIN_TEXT  # zone labels and every small text
TO_WIN_VP = PYRE_WIN  # 12 VP in the opponent's Funeral Pyre wins (RULINGS 54)
BREATHER_STEPS = (
    ("regenerate", "Regenerate"),
    ("bottom", "Bottom"),
    ("maintain", "Maintain"),
    ("promote", "Promote"),
    ("maneuver", "Maneuver"),
)
SETUP_STEPS = (("bottom", "Bottom 2"), ("arrange", "Arrange"))
REGULAR_WAVES = WAVES  # 4; Waves 5-7 are tie Waves (RULINGS 55)
MAX_WAVES_SHOWN = MAX_WAVES

# A discipline is a colour: the strip of a character's tile, the requirement's ink on a hand row. The colours
# stay at least vision.MIN_DELTA apart with protanopia, deuteranopia and tritanopia (tests/render/
# test_colours.py).
DISCIPLINE_COLOURS: dict[str, kit.RGB] = {
    "warrior": (178, 58, 42),  # brick red
    "tech": (40, 96, 200),  # blue
    "summoner": (108, 60, 132),  # purple
    "bio_gen": (84, 120, 84),  # green
    "psionic": (156, 84, 132),  # magenta
    "mystic": (108, 168, 168),  # teal
    "universal": (96, 96, 96),  # grey
}
# The flow symbol of a Strategy card as a coloured pill (cards.symbol spells them).
SYMBOL_COLOURS: dict[str, kit.RGB] = {
    "+": (30, 128, 58),
    "−": (196, 30, 40),
    "?": (122, 64, 168),
    "OR": (196, 88, 16),
    "DR": (34, 96, 186),
    "R": (0, 118, 118),
}
ADMG, DDMG, SHIELD, SET_GLYPH, CROWD = "⚔", "✹", "◈", "↷", "★"
PUMP_GLYPH = "✚"
GOLD: kit.RGB = (232, 176, 36)  # VP
COST_INK: kit.RGB = (44, 46, 54)  # the play cost (P) pill
MAINTAIN_INK: kit.RGB = (120, 122, 132)  # the Maintain (M) pill
UP: kit.RGB = (22, 128, 58)  # a raised stat, on card stock
DOWN: kit.RGB = (196, 30, 40)  # a lowered stat or a wound, on card stock
RAGE: kit.RGB = (222, 96, 0)  # Raging, and the Rage zone of the wound track
RAGE_ZONE: kit.RGB = (252, 214, 176)  # an empty cell of the track at or past the Rage value
SET_FACE: kit.RGB = (188, 190, 198)  # the card stock of a Set character
MINION_STRIP: kit.RGB = (90, 92, 100)

# Tiles: a field's characters one to a row (full width), or two to a row when a field is crowded.
INNER_W = kit.WIDTH - 2 * kit.MARGIN - 12  # a zone's inner width
BAR_W = 8  # the seat colour bar beside a field's characters
GAP = 6
FULL_W = INNER_W - BAR_W - GAP
HALF_W = (FULL_W - GAP) // 2
TILE_H = 60
PUMP_H = 28  # the line of Pumps under a character that has some
EMPTY_H = 34  # an empty field's dashed outline
STRIP_W = 10
LINE1, LINE2 = 18, 44  # the centres of a tile's two lines
STAT_TEXT = 26  # ADMG, DDMG and shield on a tile
ICON_SLOT = 46  # the room for the card icon (portrait when Unset, turned when Set)
ROW_H = 34  # a line of chips in the turn strip
STATS_H = 42  # a panel's line of big numbers
PANEL_W = kit.WIDTH - 2 * kit.MARGIN - 23  # a panel's content width
BIG_TEXT = 30  # the big numbers of a panel
MAX_HEIGHT = 2 * kit.WIDTH - 20  # what a board gives up to stay under it: geometry.layout
HAND_ROW_W = INNER_W


_int, _seat, _dicts, _ids = kit.as_int, kit.as_seat, kit.dicts, kit.ids  # the view readers


# ---------------------------------------------------------------- cards


def card_name(cid: str) -> str:
    """A card's printed name (its id when unknown), without glyphs the font lacks."""
    spec = CARDS.get(cid)
    return kit.printable(spec.name if spec is not None else cid)


def _stat(cid: str, stat: str) -> int:
    spec = CARDS.get(cid)
    return spec.stat(stat) if spec is not None else 0


def _flag(cid: str, flag: str) -> Any:
    spec = CARDS.get(cid)
    return spec.flag(flag) if spec is not None else None


def card_type(cid: str) -> str:
    """A card's type in words ("Quick-Hit"), "Card" when unknown."""
    spec = CARDS.get(cid)
    return TYPE_NAMES.get(spec.type, spec.type.title()) if spec is not None else "Card"


def discipline_name(did: str) -> str:
    """A discipline's display name ("Bio-Gen")."""
    return DISCIPLINES.get(did, did.replace("_", " ").title())


def symbol(cid: str) -> str:
    """A Strategy card's flow symbol as printed (+, −, ?, OR, DR, R); "" for anything else."""
    spec = CARDS.get(cid)
    if spec is None or spec.type not in ("minion", "quick_hit", "pump"):
        return ""
    response = spec.flag("response")
    if response:
        return str(response).upper()
    return "−" if spec.flag("flow") == "-" else str(spec.flag("flow") or "")


# ---------------------------------------------------------------- the view


def _seat_names(view: OphidianView, names: Sequence[str] | None) -> list[str]:
    return kit.seat_names(max(2, _int(view.get("num_players")), len(_dicts(view.get("players")))), names)


def _players(view: OphidianView) -> list[JSON]:
    players = _dicts(view.get("players"))[:2]
    return players + [{} for _ in range(2 - len(players))]


def _characters(p: Mapping[str, Any], field: str | None = None) -> list[JSON]:
    """A player's characters in arrival order (in one field, when given: an unknown field counts as
    Support, where characters come into play)."""
    chars = _dicts(p.get("characters"))
    if field is None:
        return chars
    return [c for c in chars if (c.get("field") == "action") == (field == "action")]


def _over(view: OphidianView) -> bool:
    return view.get("phase") == "over" or isinstance(view.get("result"), dict)


def _winners(view: OphidianView) -> list[int]:
    result = kit.as_dict(view.get("result"))
    return [w for w in result.get("winners") or [] if _seat(w) is not None]


def _flow(view: OphidianView) -> int | None:
    """The seat that has The Flow (None once the game is over or in a view without it)."""
    return None if _over(view) else _seat(view.get("flow"))


def crowd_favorite(view: OphidianView, seat: int) -> bool:
    """Whether a seat is the Crowd Favorite: the view's flag, else strictly more Cheer (RULINGS 33)."""
    players = _players(view)
    p = players[seat]
    if isinstance(p.get("crowd_favorite"), bool):
        return p["crowd_favorite"]
    return _int(p.get("cheer")) > _int(players[1 - seat].get("cheer"))


# ---------------------------------------------------------------- the colours that tell things apart


def palettes(t: Theme) -> dict[str, kit.Palette]:
    """The colours that tell things apart on Ophidian 2350's images, by group (checked by tests/render/
    test_colours.py with kit's own)."""
    return {
        "disciplines": kit.Palette(dict(DISCIPLINE_COLOURS)),  # named too, and far apart without the name
        "flow symbols": kit.Palette(dict(SYMBOL_COLOURS), cue="the symbol written in its pill"),
        "stat changes": kit.Palette({"raised": UP, "lowered": DOWN}, cue=kit.UP_DOWN),
        "wound track": kit.Palette(
            {"open": (255, 255, 255), "wound": DOWN, "rage zone": RAGE_ZONE, "raging wound": RAGE},
            pair_cues=(("wound", "raging wound", "position: past the tick that marks the Rage value"),),
        ),
        "cost pills": kit.Palette(
            {"play cost": COST_INK, "maintain": MAINTAIN_INK, "unaffordable": DOWN},
            pair_cues=(
                ("play cost", "maintain", "the letter: P or M"),
                ("maintain", "unaffordable", "the letter: P or M"),
            ),
        ),
    }


def text_pairs(t: Theme) -> list[kit.TextPair]:
    """Ophidian 2350's own text inks on what they are drawn on (for the contrast check)."""
    fills = {**DISCIPLINE_COLOURS, **{f"symbol {k}": c for k, c in SYMBOL_COLOURS.items()}}
    fills |= {"VP": GOLD, "cost": COST_INK, "maintain": MAINTAIN_INK, "raging": RAGE, "minion": (96, 98, 108)}
    pairs = [(f"text on {k}", kit.contrast_ink(c), c) for k, c in fills.items()]
    pairs += [(f"{k}'s name on a tile", (c[0] * 2 // 3, c[1] * 2 // 3, c[2] * 2 // 3), t.card_face)
              for k, c in DISCIPLINE_COLOURS.items()]  # fmt: skip
    return [*pairs, ("a raised stat", UP, t.card_face), ("a lowered stat", DOWN, t.card_face),
            ("a wound count", DOWN, t.card_face), ("a Set tile's name", t.black_ink, SET_FACE)]  # fmt: skip
