"""What every Siege of Olympus image shares (nothing is drawn here): the palette, glyphs and sizes of the
tiles, zones and panels; readers of the view's loosely typed JSON; the printed cards' names and stats.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.games.siege_of_olympus.cards import CARDS
from engine.games.siege_of_olympus.view import SiegeView
from render import kit
from render.kit import Theme

JSON = dict[str, Any]

TITLE = "Siege of Olympus"
LABEL = kit.MIN_TEXT  # zone labels and every small text
TO_WIN = 3  # artifacts that win (RULINGS 1)
PIECES = 3  # pieces of a number that take its artifact (RULINGS 8)
PHASES = (("deploy", "Deploy"), ("recruit", "Recruit"), ("attack", "Attack"))
END_PHASES = ("ending", "discarding")

# A class is a colour (the tile's strip) and a glyph; a race is a glyph in its own ink (on card stock).
CLASS_COLOURS: dict[str, kit.RGB] = {
    "brawler": (178, 58, 42),  # brick red
    "trickster": (122, 64, 168),  # purple
    "spellcaster": (36, 96, 186),  # blue
    "ranger": (30, 122, 58),  # green
    "neutral": (108, 108, 116),  # grey
}
CLASS_GLYPHS = {"brawler": "⚒", "trickster": "☾", "spellcaster": "✶", "ranger": "◎", "neutral": "○"}
RACE_INKS: dict[str, kit.RGB] = {
    "giant": (128, 80, 34),  # earth brown
    "olympian": (132, 98, 0),  # gold
    "titan": (66, 76, 108),  # slate
    "half_god": (176, 76, 8),  # orange
    "creature": (0, 118, 118),  # teal
}
RACE_GLYPHS = {"giant": "▲", "olympian": "⚡", "titan": "♄", "half_god": "✪", "creature": "⚕"}
SPELL_COLOUR: kit.RGB = (150, 44, 110)  # a spell's strip
MELEE, RANGED = "⚔", "➶"
GOLD: kit.RGB = (232, 176, 36)  # artifact pieces and artifacts
COST_INK: kit.RGB = (44, 46, 54)  # the cost disc
UP: kit.RGB = (22, 128, 58)  # a raised stat, on card stock
DOWN: kit.RGB = (196, 30, 40)  # a lowered stat or damage, on card stock
CRIPPLED_FACE: kit.RGB = (196, 196, 200)

# Badges on a minion: (word, glyph, fill), in the order they are shown.
BADGES: dict[str, tuple[str, str, kit.RGB]] = {
    "crippled": ("Crippled", "✖", (70, 70, 78)),
    "paralyzed": ("Paralyzed", "❄", (48, 120, 196)),
    "dodge": ("Dodge", "✧", (0, 140, 130)),
    "lethal": ("Lethal", "☠", (150, 20, 30)),
    "resistant": ("Resistant", "⬢", (96, 72, 150)),
    "primordial_attack": ("Primordial", "♛", (184, 112, 0)),
    "left": ("left", "↩", (110, 110, 118)),  # an Agora card left there this turn (not to be taken back)
}
STATIC = ("lethal", "resistant", "primordial_attack")  # the keywords shown as badges

# Tiles: minions on a side in two columns, prisoners and the Agora in three.
INNER_W = kit.WIDTH - 2 * kit.MARGIN - 12  # a zone's inner width
BAR_W = 8  # the seat colour bar beside a side's minions
GAP = 6
POOL_COLS = 3
SIDE_W = (INNER_W - BAR_W - GAP - GAP) // 2  # two columns, up to 6 minions
SIDE_NARROW_W = (INNER_W - BAR_W - GAP - 2 * GAP) // 3  # three columns for 7 or 8, so three rows at most
POOL_W = (INNER_W - (POOL_COLS - 1) * GAP) // POOL_COLS
TILE_H = 58
STRIP_W = 10
LINE1, LINE2 = 18, 43  # the centres of a tile's two lines
STAT_TEXT = 25  # Attack and Health on a tile
MAX_MINIONS, MAX_POOL = 8, 6
MAX_HEIGHT = 2 * kit.WIDTH - 80  # the log gives up lines to keep a full board under twice as tall as wide
ROW_H = 34  # a line of chips in a panel or the turn strip
PANEL_W = kit.WIDTH - 2 * kit.MARGIN - 23  # a panel's content width
HAND_ROW_W = INNER_W


_int, _seat, _dicts, _ids = kit.as_int, kit.as_seat, kit.dicts, kit.ids  # the view readers


# ---------------------------------------------------------------- cards


def card_name(cid: str) -> str:
    """A card's printed name (its id when unknown)."""
    spec = CARDS.get(cid)
    return spec.name if spec is not None else cid


def short_name(name: str) -> str:
    """A Commander's or artifact's name before its comma: "Kronos, the Devourer" -> "Kronos"."""
    return name.split(",")[0].strip() or name


def _stat(cid: str, stat: str) -> int:
    spec = CARDS.get(cid)
    return _int(dict(spec.stats).get(stat)) if spec is not None else 0


def _flag(cid: str, flag: str) -> Any:
    spec = CARDS.get(cid)
    return dict(spec.flags).get(flag) if spec is not None else None


def is_minion(cid: str) -> bool:
    """Whether a card id is a minion (an unknown id is drawn as a spell)."""
    spec = CARDS.get(cid)
    return spec is not None and spec.type == "minion"


# ---------------------------------------------------------------- the view


def _seat_names(view: SiegeView, names: Sequence[str] | None) -> list[str]:
    return kit.seat_names(max(2, _int(view.get("num_players")), len(_dicts(view.get("players")))), names)


def _players(view: SiegeView) -> list[JSON]:
    players = _dicts(view.get("players"))
    return players + [{} for _ in range(2 - len(players))]


def _over(view: SiegeView) -> bool:
    return view.get("phase") == "over" or bool(view.get("result"))


def _winners(view: SiegeView) -> list[int]:
    result = kit.as_dict(view.get("result"))
    return [w for w in result.get("winners") or [] if _seat(w) is not None]


def _pile(view: SiegeView) -> list[int] | None:
    pile = view.get("pile")
    return [_int(n) for n in pile] if isinstance(pile, list) else None


# ---------------------------------------------------------------- the colours that tell things apart


def palettes(t: Theme) -> dict[str, kit.Palette]:
    """The colours that tell things apart on Siege of Olympus's images, by group (checked by tests/render/
    test_colours.py with kit's own)."""
    return {
        "classes": kit.Palette({**CLASS_COLOURS, "spell": SPELL_COLOUR}, cue="the class glyph on the tile"),
        "races": kit.Palette(dict(RACE_INKS), cue="the race glyph"),
        "badges": kit.Palette({k: v[2] for k, v in BADGES.items()}, cue="the badge's glyph or word"),
        "stat changes": kit.Palette({"raised": UP, "lowered": DOWN}, cue=kit.UP_DOWN),
    }


def text_pairs(t: Theme) -> list[kit.TextPair]:
    """Siege of Olympus's own text inks on what they are drawn on (for the contrast check)."""
    fills = {**{k: v[2] for k, v in BADGES.items()}, "cost": COST_INK, "gold": GOLD, "spell": SPELL_COLOUR}
    pairs = [(f"text on {k}", kit.contrast_ink(c), c) for k, c in fills.items()]
    pairs += [(f"a {k} glyph", c, t.card_face) for k, c in RACE_INKS.items()]
    return [*pairs, ("a raised stat", UP, t.card_face), ("a lowered stat", DOWN, t.card_face),
            ("a crippled tile's name", t.black_ink, CRIPPLED_FACE)]  # fmt: skip
