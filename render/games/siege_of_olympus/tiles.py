"""The tiles of Siege of Olympus's board: a minion as a row tile (its cost, name and artifact pieces; its
class, race, Attack, Health and badges), a spell in the Agora, and the dashed outline of an empty zone.
Each is drawn at 3x, reduced, and cached by all it shows; the hand's rows (private.py) share the card
stock and the discs.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

from PIL import Image, ImageDraw

from engine.games.siege_of_olympus.cards import CARDS, CLASSES, RACES
from render import kit
from render.games.siege_of_olympus.common import (
    BADGES,
    CLASS_COLOURS,
    CLASS_GLYPHS,
    COST_INK,
    CRIPPLED_FACE,
    DOWN,
    GOLD,
    JSON,
    LABEL,
    LINE1,
    LINE2,
    MELEE,
    RACE_GLYPHS,
    RACE_INKS,
    RANGED,
    SPELL_COLOUR,
    STAT_TEXT,
    STATIC,
    STRIP_W,
    TILE_H,
    UP,
    _flag,
    _int,
    _stat,
    card_name,
)
from render.kit import Theme

# ---------------------------------------------------------------- faces


class Face(NamedTuple):
    """Everything a minion tile shows (its cache key)."""

    name: str
    cost: int
    klass: str
    race: str
    ranged: bool
    attack: int
    base_attack: int
    health: int
    base_health: int
    damage: int
    pieces: tuple[int, ...]
    badges: tuple[str, ...]
    crippled: bool
    attacked: bool


def face(m: JSON) -> Face:
    """The tile face of a minion dict of the view."""
    cid = str(m.get("card") or "?")
    attack = _int(m.get("attack", _stat(cid, "attack")))
    health = _int(m.get("health", _stat(cid, "health")))
    listed = m.get("pieces") if isinstance(m.get("pieces"), list) and m.get("pieces") else None
    pieces = tuple(_int(p) for p in listed or [m.get("piece", _stat(cid, "artifact"))])
    keywords = kit.as_list(m.get("keywords"))
    badges = [b for b in ("crippled", "paralyzed", "dodge") if m.get(b) is True]
    badges += [k for k in STATIC if k in keywords]
    return Face(
        name=kit.printable(str(m.get("name") or card_name(cid))),
        cost=_int(m.get("cost", _stat(cid, "cost"))),
        klass=str(m.get("class") or _flag(cid, "class") or ""),
        race=str(m.get("race") or _flag(cid, "race") or ""),
        ranged=bool(m.get("ranged", _flag(cid, "ranged"))),
        attack=attack,
        base_attack=_int(m.get("base_attack", attack)),
        health=health,
        base_health=_int(m.get("base_health", health)),
        damage=_int(m.get("damage")),
        pieces=pieces,
        badges=tuple(badges),
        crippled=m.get("crippled") is True,
        attacked=m.get("attacked") is True,
    )


def printed_face(cid: str, left: bool = False) -> Face:
    """The tile face of a minion card as printed (an Agora card; left there this turn or not)."""
    spec = CARDS.get(cid)
    keywords = spec.keywords if spec is not None else ()
    printed = face({"card": cid, "keywords": [k for k in STATIC if k in keywords]})
    return printed._replace(badges=("left", *printed.badges)) if left else printed


# ---------------------------------------------------------------- tiles


def _frame(w: int, h: int, t: Theme, strip: kit.RGB, face_colour: kit.RGB | None = None) -> Image.Image:
    """A tile's card stock (RGBA, supersampled) with a coloured strip on its left."""
    s = kit.SUPERSAMPLE
    img = Image.new("RGBA", (w * s, h * s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), 7 * s, fill=face_colour or t.card_face,
                        outline=t.card_edge, width=2 * s)  # fmt: skip
    d.rounded_rectangle((0, 0, STRIP_W * s, h * s - 1), 5 * s, fill=strip)
    d.rectangle((STRIP_W * s // 2, 2 * s, STRIP_W * s, h * s - 2 * s), fill=strip)
    return img


DISC_R = 14  # a cost or piece disc's radius


def disc_width(text: str) -> int:
    """The width (at 3x) of a number's disc: a circle, or a pill for two digits."""
    s = kit.SUPERSAMPLE
    return 2 * max(DISC_R * s, int(kit.font(LABEL * s, True).getlength(text)) // 2 + 6 * s)


def _disc(d: ImageDraw.ImageDraw, x: int, cy: int, text: str, fill: kit.RGB, t: Theme) -> int:
    """A number in a disc (or a pill), its left edge at x and centred on cy, at 3x; returns its width."""
    s = kit.SUPERSAMPLE
    w, r = disc_width(text), DISC_R * s
    d.rounded_rectangle((x, cy - r, x + w, cy + r), r, fill=fill, outline=t.card_edge, width=s)
    d.text((x + w // 2, cy), text, font=kit.font(LABEL * s, True), fill=kit.contrast_ink(fill), anchor="mm")
    return w


def _stat_text(now: int, printed: int, damage: int = 0) -> list[tuple[str, kit.RGB | None]]:
    """A stat as coloured pieces: Health left in red when damaged, the total green with ▲ or red with ▼ when
    modified (the mark tells it without the colour)."""
    ink = UP if now > printed else DOWN if now < printed else None
    mark = [("▲" if now > printed else "▼", ink)] if ink else []
    if damage:
        return [(str(max(now - damage, 0)), DOWN), (f"/{now}", ink), *mark]
    return [(str(now), ink), *mark]


@lru_cache(maxsize=2048)
def minion_tile(f: Face, w: int, theme_name: str = "dark") -> Image.Image:
    """A minion as a row tile (RGBA, cached by all it shows): line 1 the cost disc, the name, and the piece
    disc(s); line 2 its class and race (words when they fit, else glyphs), Attack and Health, and badges."""
    t = kit.theme(theme_name)
    s = kit.SUPERSAMPLE
    W = w * s
    strip = (150, 150, 156) if f.crippled else CLASS_COLOURS.get(f.klass, t.card_dim)
    img = _frame(w, TILE_H, t, strip, CRIPPLED_FACE if f.crippled else None)
    d = ImageDraw.Draw(img)
    ink = t.black_ink
    x0, x1 = (STRIP_W + 6) * s, W - 6 * s
    y1, y2 = LINE1 * s, LINE2 * s
    # line 1: cost, name, and the piece disc (moved to line 2 when the name needs its room)
    x0 += _disc(d, x0, y1, str(f.cost), COST_INK, t) + 6 * s
    pieces = "+".join(str(p) for p in f.pieces[:3])  # its own and any added under it (Add)
    pieces_w = disc_width(pieces)
    room = name_room(w, str(f.cost), pieces)
    big = kit.font(STAT_TEXT * s, True)
    small = kit.font(LABEL * s)
    stats: list[tuple[str, kit.RGB | None]] = [(RANGED if f.ranged else MELEE, None), (HAIR, None)]
    stats += _stat_text(f.attack, f.base_attack)
    stats += [(" ", None), ("♥", DOWN if f.damage else None), (HAIR, None)]
    stats += _stat_text(f.health, f.base_health, f.damage)
    stats_w = sum(_advance(text, big) for text, _ in stats)
    x = (STRIP_W + 6) * s
    avail = x1 - stats_w - 8 * s - x
    glyphs = sum(small.getlength(text) for text, _ in _kind_choices(f)[-1]) + 6 * s
    below = small.getlength(f.name) > room and glyphs + pieces_w <= avail  # else the name is cut
    if below:
        room = x1 - x0
    else:
        _disc(d, x1 - pieces_w, y1, pieces, GOLD, t)
    kit.name_line(d, x0, y1, f.name, room, ink)
    # line 2: class and race, (the piece disc,) badges; Attack and Health on the right
    extra = pieces_w + 4 * s if below else 0
    words, full = _kind_choices(f)[-1], False
    for word_badges in (True, False):
        need = extra + sum(_badge_width(b, word_badges) + 4 * s for b in f.badges)
        fits = [k for k in _kind_choices(f) if sum(small.getlength(x) for x, _ in k) + 6 * s + need <= avail]
        if fits:
            words, full = fits[0], word_badges
            break
    for text, colour in words:
        d.text((x, y2), text, font=small, fill=colour or t.card_dim, anchor="lm")
        x += int(small.getlength(text))
    x += 6 * s
    if below:
        x += _disc(d, x, y2, pieces, GOLD, t) + 4 * s
    for b in f.badges:
        bw = _badge_width(b, full)
        if x + bw > x1 - stats_w - 4 * s:
            break
        _badge(d, x, y2, b, full)
        x += bw + 4 * s
    sx = x1 - stats_w
    for text, colour in stats:
        if text in (MELEE, RANGED) and (f.attacked or f.crippled):
            colour = t.card_dim  # it has attacked this turn (or cannot)
        if text != HAIR:
            d.text((sx, y2), text, font=big, fill=colour or ink, anchor="lm")
        sx += _advance(text, big)
    return img.reduce(kit.SUPERSAMPLE)


def name_room(w: int, cost: str, pieces: str) -> int:
    """The room (at 3x) for a name on a tile of width w, between its cost disc and its piece disc."""
    s = kit.SUPERSAMPLE
    room = (w - STRIP_W - 6 - 6 - 6) * s - disc_width(cost)
    return room - disc_width(pieces) - 4 * s if pieces else room


HAIR = "\u200a"  # a hair space: the small gap after a stat's glyph


def _advance(text: str, f: Any) -> int:
    """How far a piece of the stats advances (a hair space is 2 px)."""
    return 2 * kit.SUPERSAMPLE if text == HAIR else int(f.getlength(text))


Words = list[tuple[str, kit.RGB | None]]


def _kind_choices(f: Face) -> list[Words]:
    """Class and race in their inks, most words first: both named, the race named, glyphs only, the race's
    glyph only (the strip's colour still says the class)."""
    cls_ink = CLASS_COLOURS.get(f.klass)
    race_ink = RACE_INKS.get(f.race)
    cls_glyph, race_glyph = CLASS_GLYPHS.get(f.klass, "?"), RACE_GLYPHS.get(f.race, "?")
    cls_word = str(CLASSES.get(f.klass, {}).get("name") or f.klass.title())
    race_word = str(RACES.get(f.race, {}).get("name") or f.race.title())
    return [
        [(f"{cls_glyph} {cls_word}", cls_ink), ("  ", None), (f"{race_glyph} {race_word}", race_ink)],
        [(cls_glyph, cls_ink), (" ", None), (f"{race_glyph} {race_word}", race_ink)],
        [(cls_glyph, cls_ink), (" ", None), (race_glyph, race_ink)],
        [(race_glyph, race_ink)],
    ]


def _badge_width(badge: str, word: bool) -> int:
    word_text, glyph, _ = BADGES[badge]
    f = kit.font(LABEL * kit.SUPERSAMPLE, True)
    return int(f.getlength(word_text if word else glyph)) + 12 * kit.SUPERSAMPLE


def _badge(d: ImageDraw.ImageDraw, x: int, cy: int, badge: str, word: bool) -> None:
    """A badge pill (at 3x) with its word, or only its glyph."""
    s = kit.SUPERSAMPLE
    word_text, glyph, fill = BADGES[badge]
    w = _badge_width(badge, word)
    h = 13 * s
    d.rounded_rectangle((x, cy - h, x + w, cy + h), h, fill=fill)
    d.text((x + w // 2, cy), word_text if word else glyph, font=kit.font(LABEL * s, True),
           fill=kit.contrast_ink(fill), anchor="mm")  # fmt: skip


@lru_cache(maxsize=256)
def spell_tile(cid: str, w: int, left: bool, theme_name: str = "dark") -> Image.Image:
    """A spell in the Agora (RGBA, cached): the cost disc, the name on up to two lines, and a pill saying
    "Spell" (or "Ambush", "Disrupt"; or "left" when it was left in the Agora this turn)."""
    t = kit.theme(theme_name)
    s = kit.SUPERSAMPLE
    img = _frame(w, TILE_H, t, SPELL_COLOUR)
    d = ImageDraw.Draw(img)
    x0, x1 = (STRIP_W + 6) * s, (w - 6) * s
    x0 += _disc(d, x0, LINE1 * s, str(_stat(cid, "cost")), COST_INK, t) + 6 * s
    keywords = CARDS[cid].keywords if cid in CARDS else ()
    kind = next((k.title() for k in ("ambush", "disrupt") if k in keywords), "Spell")
    pill, fill = ("left", BADGES["left"][2]) if left else (kind, SPELL_COLOUR)
    bold = kit.font(LABEL * s, True)
    pw = int(bold.getlength(pill)) + 12 * s
    d.rounded_rectangle((x1 - pw, LINE2 * s - 13 * s, x1, LINE2 * s + 13 * s), 13 * s, fill=fill)
    d.text((x1 - pw // 2, LINE2 * s), pill, font=bold, fill=kit.contrast_ink(fill), anchor="mm")
    first, second = _two_lines(kit.printable(card_name(cid)), x1 - x0, x1 - pw - 6 * s - x0)
    kit.name_line(d, x0, LINE1 * s, first, x1 - x0, t.black_ink)
    if second:
        kit.name_line(d, x0, LINE2 * s, second, x1 - pw - 6 * s - x0, t.black_ink)
    return img.reduce(kit.SUPERSAMPLE)


def _two_lines(name: str, room1: int, room2: int) -> tuple[str, str]:
    """A name in a first line of room1 and a second of room2 (at 3x): whole words (the second may be cut)."""
    words = name.split()
    regular = kit.font(LABEL * kit.SUPERSAMPLE)
    if regular.getlength(name) <= room1:
        return name, ""
    k = len(words)
    while k > 1 and regular.getlength(" ".join(words[:k])) > room1:
        k -= 1
    return " ".join(words[:k]), " ".join(words[k:])


@lru_cache(maxsize=64)
def empty_tile(w: int, text: str, theme_name: str = "dark") -> Image.Image:
    """An outline with a word, where a zone is empty (RGBA, cached)."""
    return kit.outline_tile(w, TILE_H, text, theme_name)
