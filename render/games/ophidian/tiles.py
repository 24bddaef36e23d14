"""The tiles of Ophidian 2350's board: a character (Gladiator, Reinforcement or Minion) as a row tile, and the
outline of an empty field. A tile is drawn at 3x, reduced, and cached by all it shows (its Face).

A character's tile: its discipline(s) as the colour of its left strip; a small card standing upright with
its level on it ("M" for a Minion), turned on its side when the character is Set (whose card stock then
greys, with a SET pill where there is room), orange while it is Raging (with a RAGING pill where there is
room); its name and VP (gold) on the first line; ADMG (⚔), DDMG (✹) and shield (◈) as big
numbers, green or red when not as printed, then the wound track: one cell per point of Life, wounds in red,
the cells from the Rage value on tinted orange, and "wounds/Life" in numbers; its Pumps under it, each
edged in its controller's seat colour.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from engine.games.ophidian.cards import CARDS
from render import kit
from render.games.ophidian.common import (
    ADMG,
    DDMG,
    DISCIPLINE_COLOURS,
    DOWN,
    EMPTY_H,
    GOLD,
    ICON_SLOT,
    JSON,
    LABEL,
    LINE1,
    LINE2,
    MINION_STRIP,
    PUMP_GLYPH,
    PUMP_H,
    RAGE,
    RAGE_ZONE,
    SET_FACE,
    SET_GLYPH,
    SHIELD,
    STAT_TEXT,
    STRIP_W,
    TILE_H,
    UP,
    _dicts,
    _int,
    _stat,
    card_name,
    discipline_name,
)
from render.kit import Theme

SHIELD_INK: kit.RGB = (34, 96, 186)
SET_PILL: kit.RGB = (70, 72, 82)
MAX_TRACK = 24  # more Life than this is drawn as numbers only


class Pump(NamedTuple):
    """A Pump on a character, as its tile shows it."""

    name: str
    owner: int
    set: bool


class Face(NamedTuple):
    """Everything a character's tile shows (its cache key)."""

    name: str
    kind: str  # gladiator, reinforcement or minion
    disciplines: tuple[str, ...]
    level: int
    vp: int
    life: int
    base_life: int
    wounds: int
    rage: int  # 0: no Rage (a Minion)
    raging: bool
    admg: int
    base_admg: int
    ddmg: int
    shield: int
    set: bool
    pumps: tuple[Pump, ...]


def face(c: JSON) -> Face:
    """The tile face of a character dict of the view (printed values fill what the view leaves out)."""
    cid = str(c.get("card") or "?")
    kind = str(c.get("kind") or "gladiator")
    life = _int(c.get("life", _stat(cid, "life")))
    admg = _int(c.get("admg", _stat(cid, "admg")))
    disciplines = tuple(str(x) for x in c.get("disciplines") or [] if isinstance(x, str))
    rage = c.get("rage")
    pumps = tuple(
        Pump(
            kit.printable(str(p.get("name") or card_name(str(p.get("card") or "?")))),
            _int(p.get("owner")),
            p.get("set") is True,
        )
        for p in _dicts(c.get("pumps"))
    )
    return Face(
        name=kit.printable(str(c.get("name") or card_name(cid))),
        kind=kind,
        disciplines=disciplines,
        level=_int(c.get("level")),
        vp=_int(c.get("vp")),
        life=life,
        base_life=_stat(cid, "life") if cid in CARDS else life,
        wounds=_int(c.get("wounds")),
        rage=_int(rage) if kind != "minion" else 0,
        raging=c.get("raging") is True,
        admg=admg,
        base_admg=_stat(cid, "admg") if cid in CARDS else admg,
        ddmg=_int(c.get("ddmg")),
        shield=_int(c.get("shield")),
        set=c.get("set") is True,
        pumps=pumps,
    )


def tile_height(f: Face) -> int:
    """A character's tile: two lines, and a line of Pumps when it has any."""
    return TILE_H + (PUMP_H if f.pumps else 0)


# ---------------------------------------------------------------- parts (at 3x)


def _frame(w: int, h: int, t: Theme, strips: tuple[kit.RGB, ...], stock: kit.RGB) -> Image.Image:
    """A tile's card stock (RGBA, supersampled) with its strip on the left: one colour, or two stacked."""
    s = kit.SUPERSAMPLE
    img = Image.new("RGBA", (w * s, h * s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), 7 * s, fill=stock, outline=t.card_edge, width=2 * s)
    band = (h * s - 4 * s) // len(strips)
    for k, colour in enumerate(strips):
        y0, y1 = 2 * s + k * band, 2 * s + (k + 1) * band if k < len(strips) - 1 else h * s - 2 * s
        d.rounded_rectangle((2 * s, y0, STRIP_W * s, y1), 4 * s, fill=colour)
        d.rectangle((STRIP_W * s // 2, y0, STRIP_W * s, y1), fill=colour)
    return img


def pill_width(text: str, size: int = LABEL) -> int:
    """The width (at 1x) of a pill with this text."""
    return int(kit.font(size * kit.SUPERSAMPLE, True).getlength(text)) // kit.SUPERSAMPLE + size


def pill(d: ImageDraw.ImageDraw, x: int, cy: int, text: str, fill: kit.RGB, size: int = LABEL,
         outline: kit.RGB | None = None) -> int:  # fmt: skip
    """A rounded pill with bold text, its left edge at x and centred on cy, at 3x; returns its width."""
    s = kit.SUPERSAMPLE
    w = pill_width(text, size) * s
    h = (size * 6 // 10 + 1) * s
    d.rounded_rectangle((x, cy - h, x + w, cy + h), h, fill=fill, outline=outline, width=s if outline else 0)
    d.text((x + w // 2, cy), text, font=kit.font(size * s, True), fill=kit.contrast_ink(fill), anchor="mm")
    return w


def _icon(d: ImageDraw.ImageDraw, x: int, cy: int, f: Face, t: Theme) -> None:
    """The little card: upright with the level on it, or turned on its side when Set (at 3x)."""
    s = kit.SUPERSAMPLE
    long_, short = 42 * s, 30 * s
    w, h = (long_, short) if f.set else (short, long_)
    cx = x + ICON_SLOT * s // 2
    box = (cx - w // 2, cy - h // 2, cx + w // 2, cy + h // 2)
    minion = f.kind == "minion"
    fill = RAGE if f.raging else (96, 98, 108) if minion else t.card_face
    d.rounded_rectangle(box, 5 * s, fill=fill, outline=t.card_edge, width=2 * s)
    text = "M" if minion else str(f.level)
    d.text((cx, cy), text, font=kit.font(24 * s, True), fill=kit.contrast_ink(fill), anchor="mm")


def _stat_pieces(f: Face) -> list[tuple[str, kit.RGB | None]]:
    """ADMG (green above its printed value, red below), then DDMG and shield when the character has any."""
    ink = UP if f.admg > f.base_admg else DOWN if f.admg < f.base_admg else None
    mark = "" if ink is None else "▲" if ink == UP else "▼"  # tells raised from lowered without the colour
    out: list[tuple[str, kit.RGB | None]] = [(f"{ADMG}{f.admg}{mark}", ink)]
    if f.ddmg > 0:
        out.append((f"{DDMG}{f.ddmg}", None))
    if f.shield > 0:
        out.append((f"{SHIELD}{f.shield}", SHIELD_INK))
    return out


def _track(d: ImageDraw.ImageDraw, x0: int, x1: int, cy: int, f: Face, t: Theme) -> None:
    """The wound track between x0 and x1 (at 3x): a cell per point of Life, wounds filled red, the cells from
    the Rage value on tinted orange with a tick before the first."""
    s = kit.SUPERSAMPLE
    n = max(f.life, f.wounds, 1)
    if n > MAX_TRACK or x1 - x0 < n * 4 * s:
        return
    gap = 2 * s if (x1 - x0) / n > 9 * s else s
    cell = min(24 * s, ((x1 - x0) - (n - 1) * gap) // n)
    h = 9 * s
    for k in range(n):
        cx = x0 + k * (cell + gap)
        rage_zone = f.rage > 0 and k >= f.rage - 1
        if k < f.wounds:
            fill = RAGE if rage_zone and f.raging else DOWN
        else:
            fill = RAGE_ZONE if rage_zone else (255, 255, 255)
        d.rounded_rectangle((cx, cy - h, cx + cell, cy + h), 3 * s, fill=fill, outline=t.card_dim, width=s)
        if rage_zone and k == f.rage - 1 and k > 0:
            tx = cx - gap // 2 - s
            d.rectangle((tx, cy - h - 3 * s, tx + 2 * s, cy + h + 3 * s), fill=RAGE)


# ---------------------------------------------------------------- the tiles


@lru_cache(maxsize=2048)
def character_tile(f: Face, w: int, theme_name: str = "dark") -> Image.Image:
    """A character as a row tile of width w (RGBA, cached by all it shows); words where there is room
    (the disciplines, "SET", "RAGING", "VP", Pump names), glyphs or counts where there is not."""
    t = kit.theme(theme_name)
    s = kit.SUPERSAMPLE
    h = tile_height(f)
    W = w * s
    wide = w >= 520
    strips = tuple(DISCIPLINE_COLOURS.get(x, t.card_dim) for x in f.disciplines[:2])
    if f.kind == "minion" and not strips:
        strips = (MINION_STRIP,)
    img = _frame(w, h, t, strips or (t.card_dim,), SET_FACE if f.set else t.card_face)
    d = ImageDraw.Draw(img)
    ink = t.black_ink
    _icon(d, (STRIP_W + 4) * s, (TILE_H * s) // 2, f, t)
    x0, x1 = (STRIP_W + 4 + ICON_SLOT + 6) * s, W - 8 * s
    y1, y2 = LINE1 * s, LINE2 * s
    # line 1: the name, then (where there is room) RAGING, SET and what it is; the VP on the right
    vp = f"{f.vp} VP" if f.kind != "minion" else ""
    if vp:
        pill(d, x1 - pill_width(vp) * s, y1, vp, GOLD)
    right = x0 + name_room(w, vp) + 4 * s
    used = kit.name_line(d, x0, y1, f.name, name_room(w, vp), ink)
    x = x0 + used + 8 * s
    for on, word, short, fill in ((f.raging, "RAGING", "RAGE", RAGE), (f.set, f"{SET_GLYPH} SET", SET_GLYPH,
                                                                       SET_PILL)):  # fmt: skip
        if on:
            text = word if wide else short
            if x + pill_width(text) * s <= right:
                x += pill(d, x, y1, text, fill) + 6 * s
    if wide:
        what = _what(f)
        small = kit.font(LABEL * s)
        if what and x + 4 * s + small.getlength(what) <= right:
            colour = DISCIPLINE_COLOURS.get(f.disciplines[0], t.card_dim) if f.disciplines else t.card_dim
            d.text((x + 4 * s, y1), what, font=small, fill=_darker(colour), anchor="lm")
    # line 2: the stats, then the wound track and "wounds/Life"
    big = kit.font(STAT_TEXT * s, True)
    x = x0
    for text, tint in _stat_pieces(f):
        d.text((x, y2), text, font=big, fill=tint or ink, anchor="lm")
        x += int(big.getlength(text)) + 10 * s
    tag = "" if wide else _short_what(f)  # a narrow tile names its disciplines short: not by colour alone
    if tag:
        small = kit.font(LABEL * s)
        room = x1 - x - 140 * s  # leave the track and the numbers their room
        if small.getlength(tag) <= room:
            colour = DISCIPLINE_COLOURS.get(f.disciplines[0], t.card_dim)
            d.text((x, y2), tag, font=small, fill=_darker(colour), anchor="lm")
            x += int(small.getlength(tag)) + 8 * s
    numbers = [(str(f.wounds), (RAGE if f.raging else DOWN) if f.wounds else t.card_dim)]
    life_ink = UP if f.life > f.base_life else DOWN if f.life < f.base_life else ink
    numbers.append(
        (f"/{f.life}" + ("▲" if f.life > f.base_life else "▼" if f.life < f.base_life else ""), life_ink)
    )
    num_f = kit.font((LABEL + 2) * s, True)
    num_w = sum(int(num_f.getlength(text)) for text, _ in numbers)
    nx = x1 - num_w
    for text, colour in numbers:
        d.text((nx, y2), text, font=num_f, fill=colour, anchor="lm")
        nx += int(num_f.getlength(text))
    _track(d, x + 2 * s, x1 - num_w - 10 * s, y2, f, t)
    if f.pumps:
        _pump_line(d, x0, x1, (TILE_H + PUMP_H // 2 - 3) * s, f.pumps, t)
    return img.reduce(s)


def name_room(w: int, vp: str) -> int:
    """The room (at 3x) for a name on a tile of width w, beside its VP pill (none for a Minion)."""
    s = kit.SUPERSAMPLE
    room = (w - STRIP_W - 4 - ICON_SLOT - 6 - 8 - 4) * s
    return room - (pill_width(vp) + 6) * s if vp else room


def _what(f: Face) -> str:
    """What a character is, in words for a wide tile: "Warrior · Tech", "Minion · Tech", "Reinforcement"."""
    words = [discipline_name(x) for x in f.disciplines[:2]]
    if f.kind == "minion":
        words.insert(0, "Minion")
    elif f.kind == "reinforcement":
        words.insert(0, "Reinforcement")
    return " · ".join(words)


def _short_what(f: Face) -> str:
    """A character's disciplines for a narrow tile, each by its first two letters: "Wa·Te" ("" for none)."""
    return "·".join(discipline_name(x)[:2] for x in f.disciplines[:2])


def _darker(c: kit.RGB) -> kit.RGB:
    return (c[0] * 2 // 3, c[1] * 2 // 3, c[2] * 2 // 3)


def _pump_line(d: ImageDraw.ImageDraw, x0: int, x1: int, cy: int, pumps: tuple[Pump, ...], t: Theme) -> None:
    """The Pumps on a character (at 3x): a pill each, edged in its controller's colour, ↷ when Set; those
    that do not fit are counted in a last "+N"."""
    s = kit.SUPERSAMPLE
    x = x0
    f = kit.font(LABEL * s, True)
    for k, p in enumerate(pumps):
        text = f"{SET_GLYPH if p.set else PUMP_GLYPH} {p.name}"
        left = len(pumps) - k - 1
        reserve = (pill_width(f"+{left}") + 6) * s if left else 0
        room = x1 - x - reserve - LABEL * s
        if room < f.getlength(f"{PUMP_GLYPH} Ab…"):
            pill(d, x, cy, f"+{len(pumps) - k}", t.card_dim)
            return
        text = kit.fit_text(text, f, room)
        edge = kit.seat_colour(p.owner)
        w = int(f.getlength(text)) + LABEL * s
        hh = 11 * s
        d.rounded_rectangle((x, cy - hh, x + w, cy + hh), hh, fill=(255, 255, 255), outline=edge, width=3 * s)
        d.text((x + w // 2, cy), text, font=f, fill=t.black_ink, anchor="mm")
        x += w + 6 * s


@lru_cache(maxsize=64)
def empty_tile(w: int, text: str, theme_name: str = "dark") -> Image.Image:
    """An outline with a word, where a field is empty (RGBA, cached)."""
    return kit.outline_tile(w, EMPTY_H, text, theme_name)
