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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from PIL import Image, ImageDraw

from engine.games.siege_of_olympus.cards import ARTIFACTS, CARDS, CLASSES, RACES
from render import kit
from render.kit import Box, Theme

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
    "olympian": (160, 118, 0),  # gold
    "titan": (66, 76, 108),  # slate
    "half_god": (196, 88, 16),  # orange
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


def _int(x: Any) -> int:
    return x if isinstance(x, int) and not isinstance(x, bool) else 0


def _seat(x: Any) -> int | None:
    return x if isinstance(x, int) and not isinstance(x, bool) else None


def _dicts(x: Any) -> list[JSON]:
    return [d for d in x if isinstance(d, dict)] if isinstance(x, list) else []


def _ids(x: Any) -> list[str]:
    return [str(c) for c in x if isinstance(c, str | int)] if isinstance(x, list) else []


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
    keywords = m.get("keywords") if isinstance(m.get("keywords"), list) else []
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


def is_minion(cid: str) -> bool:
    """Whether a card id is a minion (an unknown id is drawn as a spell)."""
    spec = CARDS.get(cid)
    return spec is not None and spec.type == "minion"


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


def _name_line(d: ImageDraw.ImageDraw, x: int, cy: int, name: str, room: int, ink: kit.RGB) -> None:
    """A name on one line at MIN_TEXT: bold, else regular, else cut."""
    s = kit.SUPERSAMPLE
    for bold in (True, False):
        f = kit.font(LABEL * s, bold)
        if f.getlength(name) <= room:
            d.text((x, cy), name, font=f, fill=ink, anchor="lm")
            return
    f = kit.font(LABEL * s)
    d.text((x, cy), kit.fit_text(name, f, room), font=f, fill=ink, anchor="lm")


def _stat_text(now: int, printed: int, damage: int = 0) -> list[tuple[str, kit.RGB | None]]:
    """A stat as coloured pieces: Health left in red when damaged, the total green or red when modified."""
    ink = UP if now > printed else DOWN if now < printed else None
    if damage:
        return [(str(max(now - damage, 0)), DOWN), (f"/{now}", ink)]
    return [(str(now), ink)]


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
    _name_line(d, x0, y1, f.name, room, ink)
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
    _name_line(d, x0, LINE1 * s, first, x1 - x0, t.black_ink)
    if second:
        _name_line(d, x0, LINE2 * s, second, x1 - pw - 6 * s - x0, t.black_ink)
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
    """A dashed outline with a word, where a zone is empty (RGBA, cached)."""
    t = kit.theme(theme_name)
    s = kit.SUPERSAMPLE
    W, H = w * s, TILE_H * s
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, W - 1, H - 1), 7 * s, outline=t.border, width=2 * s)
    d.text((W // 2, H // 2), text, font=kit.font(LABEL * s), fill=t.dim, anchor="mm")
    return img.reduce(kit.SUPERSAMPLE)


# ---------------------------------------------------------------- text


def _seat_names(view: JSON, names: Sequence[str] | None) -> list[str]:
    return kit.seat_names(max(2, _int(view.get("num_players")), len(_dicts(view.get("players")))), names)


def _players(view: JSON) -> list[JSON]:
    players = _dicts(view.get("players"))
    return players + [{} for _ in range(2 - len(players))]


def _over(view: JSON) -> bool:
    return view.get("phase") == "over" or bool(view.get("result"))


def _winners(view: JSON) -> list[int]:
    result = view.get("result") if isinstance(view.get("result"), dict) else {}
    return [w for w in result.get("winners") or [] if _seat(w) is not None]


def status_text(view: JSON, names: list[str]) -> str:
    """The banner: the turn and whose turn it is, the setup, or the result."""
    if _over(view):
        winners = _winners(view)
        result = view.get("result") if isinstance(view.get("result"), dict) else {}
        why = str(result.get("why") or "")
        if len(winners) == 1:
            head = f"Game over · {kit.who(winners[0], names)} wins"
        else:
            head = "Game over · a draw" if winners else "Game over"
        return f"{head}: {why}" if why else head
    if view.get("phase") == "setup":
        return "Setup · Commanders and mulligans"
    return f"Turn {_int(view.get('turn')) or 1} · {kit.who(_seat(view.get('active')), names)}'s turn"


def _minions(view: JSON) -> dict[int, JSON]:
    """Every minion of the view (both sides and Tartarus) by uid."""
    out: dict[int, JSON] = {}
    for p in _players(view):
        for m in _dicts(p.get("minions")):
            out[_int(m.get("uid"))] = m
    for m in _dicts(view.get("tartarus")):
        out[_int(m.get("uid"))] = m
    return out


def uid_text(view: JSON, uid: Any, names: list[str]) -> str:
    """How a text names a minion or Commander of the view by uid ("Hera", "Bo's Commander")."""
    for seat, p in enumerate(_players(view)):
        if _int(p.get("commander_uid")) and p.get("commander_uid") == uid:
            return f"{kit.who(seat, names)}'s Commander"
    m = _minions(view).get(_int(uid))
    if m is None:
        return "a minion"
    name = kit.printable(str(m.get("name") or card_name(str(m.get("card")))))
    return f"the prisoner {name}" if _int(m.get("owner")) < 0 else name


WINDOW_WORDS = {"summon": "summons", "spell": "plays", "action": "uses", "once": "uses"}
WHAT_WORDS = {
    "enemy": "an enemy minion",
    "ally": "an ally",
    "other_minion": "another minion",
    "tartarus": "a prisoner",
    "deck": "a card from the Deck",
    "underworld": "a card from the Underworld",
    "hand": "a card from their Hand",
    "summon": "a minion to summon",
    "leave": "a card to leave in the Agora",
    "agora": "a card from the Agora",
    "artifact": "an artifact",
    "add": "a card to add",
    "striker": "a minion to strike",
    "discard": "a card to discard",
    "sacrifice": "a minion to sacrifice",
}


def what_text(what: Any) -> str:
    """What a pick is for, in words: "an enemy minion", "an enemy Titan to destroy" (a race's synergy)."""
    what = str(what or "")
    race = RACES.get(what.removeprefix("prey_")) if what.startswith("prey_") else None
    if race is not None:
        return f"an enemy {race['name']} to destroy"
    return WHAT_WORDS.get(what, what.replace("_", " ") or "a target")


def window_text(view: JSON, names: list[str]) -> str:
    """What waits on the response window: "Ares attacks Hera", "Bo plays Thunderbolt" ("" for none)."""
    w = view.get("window")
    if not isinstance(w, dict):
        return ""
    who = kit.who(_seat(w.get("player")), names)
    card = kit.printable(str(w.get("card_name") or card_name(str(w.get("card") or "")) or "a card"))
    kind = w.get("kind")
    if kind == "attack":
        text = f"{uid_text(view, w.get('attacker'), names)} attacks {uid_text(view, w.get('target'), names)}"
    elif kind == "once":
        text = f"{who} uses {card}'s ability"
    else:
        text = f"{who} {WINDOW_WORDS.get(str(kind), 'plays')} {card}"
    return text + (" (negated)" if w.get("negated") else "")


def decision_text(view: JSON, names: list[str]) -> str:
    """The pending decision or open window in words ("Bo may respond: Ares attacks Hera"), or ""."""
    d = view.get("decision")
    if _over(view):
        return ""
    shown = window_text(view, names)
    if not isinstance(d, dict):
        return f"Now: {shown}" if shown else ""
    players = [x for x in d.get("players") or [] if _seat(x) is not None]
    who = kit.who(players[0] if players else None, names)
    source = kit.printable(str(d.get("source_name") or ""))
    kind = d.get("kind")
    if kind == "window":
        what = "Ambush or Disrupt" if d.get("window") == "attack" else "Disrupt"
        return f"Response window · {who} may {what}: {shown}" if shown else f"{who} may {what}"
    if kind == "commander":
        return f"{who} chooses a Commander"
    if kind == "mulligan":
        return f"{who} may return up to 3 cards to the Deck"
    if kind == "discard":
        return f"{who} discards down to 8 cards"
    if kind == "option":
        return f"{who} chooses an option" + (f" of {source}" if source else "")
    if kind == "order":
        return f"{who} orders their triggered abilities"
    if kind == "may":
        return f"{who} may use {source}'s ability" if source else f"{who} may use an ability"
    if kind == "pick":
        return f"{who} chooses {what_text(d.get('what'))}" + (f" for {source}" if source else "")
    return f"{who} decides ({kind})"


def target_text(view: JSON, names: list[str]) -> str:
    """The turn's fixed attack target ("" when none is fixed yet; "gone" once it left the field, when no
    more minion may be attacked this turn: RULINGS 18)."""
    uid = _int(view.get("target"))
    if not uid:
        return ""
    on_field = {_int(m.get("uid")) for p in _players(view) for m in _dicts(p.get("minions"))}
    return uid_text(view, uid, names) if uid in on_field else "gone"


def _acting_colour(view: JSON) -> kit.RGB:
    to_act = [x for x in view.get("to_act") or [] if _seat(x) is not None]
    return kit.seat_colour(to_act[0]) if to_act else (150, 150, 160)


def legend_lines() -> list[list[tuple[str, str, kit.RGB | None]]]:
    """The key to the tiles' glyphs: (glyph, word, glyph ink) for the classes, then for the races."""
    classes = [
        (g, str(CLASSES[k]["name"]), CLASS_COLOURS[k]) for k, g in CLASS_GLYPHS.items() if k in CLASSES
    ]
    races = [(g, str(RACES[k]["name"]), RACE_INKS[k]) for k, g in RACE_GLYPHS.items() if k in RACES]
    return [classes, races]


LEGEND_H = 4 + 2 * kit.LINE_H + 4


def _legend(canvas: Image.Image, box: Box, t: Theme) -> None:
    """The key to the glyphs, two lines, each spread across the width."""
    d = ImageDraw.Draw(canvas)
    d.rounded_rectangle(box, 6, fill=t.zone)
    f = kit.font(LABEL)
    room = box[2] - box[0] - 16
    for i, items in enumerate(legend_lines()):
        widths = [kit.text_width(f"{glyph} {word}", f) for glyph, word, _ in items]
        gap = max(8, (room - sum(widths)) // max(1, len(items) - 1))
        x, cy = box[0] + 8, box[1] + 4 + i * kit.LINE_H + kit.LINE_H // 2
        for (glyph, word, ink), w in zip(items, widths, strict=True):
            colour = _on_zone(ink, t) if ink else t.text
            gw = kit.draw_text(d, (x, cy), glyph + " ", LABEL, colour, True, anchor="lm")
            kit.draw_text(d, (x + gw, cy), word, LABEL, t.dim, anchor="lm")
            x += w + gap


def _on_zone(ink: kit.RGB, t: Theme) -> kit.RGB:
    """An ink made for card stock, lightened to read on a dark zone (as is on a light one)."""
    if t.name != "dark":
        return ink
    return tuple(min(255, c + (255 - c) * 2 // 5) for c in ink)  # type: ignore[return-value]


def _log(view: JSON, names: list[str], count: int = 3) -> list[str]:
    """The last lines of the log (three, or fewer), with seat names."""
    return [kit.seat_refs(str(x), names) for x in view.get("log") or []][-count:] if count > 0 else []


# ---------------------------------------------------------------- layout


MAX_PANEL_LINES = 3
CHIP_GAP = 6


def chip_width(text: str) -> int:
    """The width of a kit.chip with this text."""
    return kit.text_width(text, kit.font(LABEL, True)) + LABEL


def _panel_lines(p: JSON, pile: list[int] | None) -> list[list[tuple[str, str]]]:
    """A panel's chips below its name, wrapped in at most three lines: the Commander, its Health and ability,
    the artifacts held, then the pieces toward each artifact still on Olympus, most first (a last chip "+N"
    counts the pieces left out)."""
    chips = _commander_chips(p) + _artifact_chips(p, pile)
    lines: list[list[tuple[str, str]]] = [[]]
    used = 0
    for k, (kind, text) in enumerate(chips):
        if lines[-1] and used + chip_width(text) > PANEL_W:
            if len(lines) == MAX_PANEL_LINES:
                left = len(chips) - k
                while lines[-1] and used + chip_width(f"+{left}") > PANEL_W:
                    used -= chip_width(lines[-1].pop()[1]) + CHIP_GAP
                    left += 1
                lines[-1].append(("more", f"+{left}"))
                break
            lines.append([])
            used = 0
        lines[-1].append((kind, text))
        used += chip_width(text) + CHIP_GAP
    return lines


def _commander_chips(p: JSON) -> list[tuple[str, str]]:
    """The Commander's chips: name, Health, and whether its once-per-game ability is spent."""
    name = short_name(kit.printable(str(p.get("commander_name") or "")))
    if not name:
        return [("none", "choosing a Commander")]
    health, most = max(0, _int(p.get("health"))), _int(p.get("max_health")) or 20
    hurt = "low" if health <= most // 4 else "health"
    ability = ("spent", "ability spent") if p.get("once_used") else ("ready", "ability ready")
    return [("commander", f"♛ {name}"), (hurt, f"♥ {health}/{most}"), ability]


def _artifact_chips(p: JSON, pile: list[int] | None) -> list[tuple[str, str]]:
    """("label" | "held" | "used" | "piece", text) for a panel's artifact line."""
    held = _dicts(p.get("artifacts"))
    out = [("label", f"★ {len(held)}/{TO_WIN}")]
    for h in held:
        name = kit.printable(str(h.get("name") or ""))
        if not name:
            spec = ARTIFACTS.get(_int(h.get("number")))
            name = spec.name if spec is not None else "?"
        used = " · used" if h.get("used") else ""  # its once-per-turn effect, this turn
        out.append(("held", f"{_int(h.get('number'))} {name}{used}"))
    pieces = p.get("pieces") if isinstance(p.get("pieces"), dict) else {}
    counts = []
    for n, c in pieces.items():
        try:
            number = int(n)
        except ValueError:
            continue
        if pile is None or number in pile:
            counts.append((-_int(c), number))
    for c, n in sorted(counts):
        out.append(("piece", f"{n} " + "●" * min(-c, PIECES) + "○" * max(0, PIECES + c)))
    if len(out) == 1:
        out.append(("none", "no pieces"))
    return out


def panel_height(p: JSON, pile: list[int] | None) -> int:
    """A panel: the name line, then the lines of chips."""
    return kit.PANEL_HEAD + 3 + ROW_H * len(_panel_lines(p, pile)) + 6


def side_columns(count: int) -> tuple[int, int]:
    """A side's columns and tile width: two wide columns up to 6 minions, three narrower ones for more."""
    return (2, SIDE_W) if count <= 6 else (3, SIDE_NARROW_W)


def _rows(count: int, cols: int) -> int:
    return max(1, -(-count // cols))


def zone_height(count: int, cols: int) -> int:
    """A zone of tiles: its label, then rows of tiles."""
    rows = _rows(count, cols)
    return kit.zone_head(LABEL) + rows * TILE_H + (rows - 1) * GAP + 6


def decision_lines(view: JSON, names: list[str]) -> list[str]:
    """The pending decision or window in words, wrapped in at most two lines of the turn strip."""
    text = decision_text(view, names)
    return kit.wrap_text(text, kit.font(LABEL, True), INNER_W, max_lines=2) if text else []


def strip_height(view: JSON, names: list[str]) -> int:
    """The turn strip: its label, the chips, and the decision's lines."""
    lines = len(decision_lines(view, names))
    return kit.zone_head(LABEL) + ROW_H + (lines * kit.LINE_H + 2 if lines else 0) + 4


def _pile(view: JSON) -> list[int] | None:
    pile = view.get("pile")
    return [_int(n) for n in pile] if isinstance(pile, list) else None


@dataclass(frozen=True, slots=True)
class Layout:
    """Where the parts of a board go, and where each minion's tile is (by uid)."""

    height: int
    strip: Box
    panels: tuple[Box, Box]  # P1's (bottom), P2's (top)
    sides: tuple[Box, Box]  # P1's minions (above P1's panel), P2's (below P2's panel)
    tartarus: Box
    agora: Box
    legend: Box
    log: Box | None
    log_lines: int
    tiles: dict[int, Box]  # each minion's tile by uid (sides and Tartarus)
    commanders: tuple[Box, Box]  # each panel's Commander line


def _commander_box(panel: Box, p: JSON) -> Box:
    """Where a panel's Commander and its Health are drawn (framed when it is attacked)."""
    x0, y0 = panel[0] + 16, panel[1] + kit.PANEL_HEAD + 3
    shown = [text for kind, text in _commander_chips(p) if kind in ("commander", "health", "low")]
    w = sum(chip_width(text) + CHIP_GAP for text in shown) - CHIP_GAP if shown else 0
    return (x0, y0 + 3, x0 + max(w, 40), y0 + ROW_H - 3)


def _tile_boxes(zone: Box, count: int, cols: int, w: int, bar: bool) -> list[Box]:
    x0 = zone[0] + 6 + (BAR_W + GAP if bar else 0)
    y0 = zone[1] + kit.zone_head(LABEL)
    out = []
    for k in range(count):
        x = x0 + (k % cols) * (w + GAP)
        y = y0 + (k // cols) * (TILE_H + GAP)
        out.append((x, y, x + w, y + TILE_H))
    return out


def layout(view: JSON, names: list[str]) -> Layout:
    """The board's layout: banner, strip, P2's panel and side, Tartarus, Agora, P1's side and panel, log."""
    W, M, G = kit.WIDTH, kit.MARGIN, kit.GAP
    players = _players(view)
    pile = _pile(view)
    minions = [_dicts(p.get("minions"))[:MAX_MINIONS] for p in players[:2]]
    prisoners = _dicts(view.get("tartarus"))[:MAX_POOL]
    y = M + kit.BANNER_H + G
    strip = (M, y, W - M, y + strip_height(view, names))
    y = strip[3] + G
    top_panel = (M, y, W - M, y + panel_height(players[1], pile))
    y = top_panel[3] + G
    top_side = (M, y, W - M, y + zone_height(len(minions[1]), side_columns(len(minions[1]))[0]))
    y = top_side[3] + G
    tartarus = (M, y, W - M, y + zone_height(len(prisoners), POOL_COLS))
    y = tartarus[3] + G
    agora = (M, y, W - M, y + zone_height(len(_ids(view.get("agora"))[:MAX_POOL]), POOL_COLS))
    y = agora[3] + G
    bottom_side = (M, y, W - M, y + zone_height(len(minions[0]), side_columns(len(minions[0]))[0]))
    y = bottom_side[3] + G
    bottom_panel = (M, y, W - M, y + panel_height(players[0], pile))
    y = bottom_panel[3] + G
    legend = (M, y, W - M, y + LEGEND_H)
    y = legend[3] + G
    count = len(_log(view, names))
    while count > 1 and y + kit.log_height(count) + M > MAX_HEIGHT:
        count -= 1  # a crowded board keeps fewer log lines
    log_h = kit.log_height(count)
    log = (M, y, W - M, y + log_h) if log_h else None
    height = (log[3] if log else legend[3]) + M
    tiles: dict[int, Box] = {}
    for zone, group, cols, w, bar in (
        (bottom_side, minions[0], *side_columns(len(minions[0])), True),
        (top_side, minions[1], *side_columns(len(minions[1])), True),
        (tartarus, prisoners, POOL_COLS, POOL_W, False),
    ):
        for m, box in zip(group, _tile_boxes(zone, len(group), cols, w, bar), strict=True):
            tiles[_int(m.get("uid"))] = box
    commanders = tuple(_commander_box(b, p) for b, p in ((bottom_panel, players[0]), (top_panel, players[1])))
    return Layout(height, strip, (bottom_panel, top_panel), (bottom_side, top_side), tartarus, agora, legend,
                  log, count, tiles, commanders)  # type: ignore[arg-type]  # fmt: skip


# ---------------------------------------------------------------- the board


def board(view: JSON, names: Sequence[str] | None = None, theme: str | None = None) -> Image.Image:
    """The public board: the turn strip, both Commanders and sides, Tartarus, the Agora and the log."""
    t = kit.theme(theme)
    seat_names = _seat_names(view, names)
    W, M = kit.WIDTH, kit.MARGIN
    players = _players(view)
    lay = layout(view, seat_names)
    canvas = kit.new_canvas(W, lay.height, t)
    kit.banner(canvas, (M, M, W - M, M + kit.BANNER_H), TITLE, status_text(view, seat_names),
               _acting_colour(view), t)  # fmt: skip
    _strip(canvas, lay.strip, view, seat_names, t)
    for seat in (1, 0):
        _panel(canvas, lay.panels[seat], view, players[seat], seat, seat_names, t)
        _side(canvas, lay.sides[seat], players[seat], seat, seat_names, t)
    _tartarus(canvas, lay.tartarus, view, t)
    _agora(canvas, lay.agora, view, t)
    _frames(canvas, lay, view, t)
    _legend(canvas, lay.legend, t)
    if lay.log is not None:
        kit.log_lines(canvas, lay.log, _log(view, seat_names, lay.log_lines), t)
    return canvas


def _strip(canvas: Image.Image, box: Box, view: JSON, names: list[str], t: Theme) -> None:
    """Deck, Underworld and Olympus in the label; the target and the phases; the decision or window."""
    d = ImageDraw.Draw(canvas)
    pile = _pile(view)
    underworld = len(_ids(view.get("underworld")))
    label = f"DECK {_int(view.get('deck_size'))} · UNDERWORLD {underworld}"
    if pile is not None:
        label += f" · {len(pile)} ARTIFACT{'' if len(pile) == 1 else 'S'} ON OLYMPUS"
    inner = kit.zone(d, box, label, t, size=LABEL)
    x0, y0, x1, _ = inner
    cy = y0 + ROW_H // 2
    phase = view.get("phase")
    right = x1
    if _over(view):
        right = kit.chip(d, (right, cy), "GAME OVER", t, fill=t.good, ink=kit.contrast_ink(t.good),
                         anchor_right=True)[0]  # fmt: skip
        text = status_text(view, names).removeprefix("Game over · ")
        kit.draw_text(d, (x0, cy), text, LABEL, t.text, True, max_w=right - x0 - 10, anchor="lm")
    elif phase == "setup":
        kit.chip(d, (right, cy), "Setup", t, fill=t.highlight, ink=kit.contrast_ink(t.highlight),
                 anchor_right=True)  # fmt: skip
    else:
        steps = [*PHASES, ("end", "End")]
        for k, (key, word) in enumerate(reversed(steps)):
            now = key == phase or (key == "end" and phase in END_PHASES)
            fill = t.highlight if now else None
            ink = kit.contrast_ink(fill) if fill else t.dim
            right = kit.chip(d, (right, cy), word, t, fill=fill, ink=ink, anchor_right=True)[0] - 3
            if k < len(steps) - 1:
                right -= kit.draw_text(d, (right, cy), "›", LABEL, t.dim, True, anchor="rm") + 3
    x = x0
    target = target_text(view, names)
    if target and not _over(view):
        words = "Target gone" if target == "gone" else f"Target: {target}"
        text = kit.fit_text(words, kit.font(LABEL, True), right - x - 40)
        x = kit.chip(d, (x, cy), text, t, fill=t.bad, ink=kit.contrast_ink(t.bad))[2] + 6
    if view.get("exchanged") and not _over(view) and right - x > 150:
        kit.chip(d, (x, cy), "Agora used", t, ink=t.dim)
    window = isinstance(view.get("decision"), dict) and view["decision"].get("kind") == "window"
    for i, line in enumerate(decision_lines(view, names)):
        y = y0 + ROW_H + 4 + i * kit.LINE_H
        kit.draw_text(d, (x0, y), line, LABEL, t.highlight if window else t.text, True, max_w=x1 - x0)


def _panel(canvas: Image.Image, box: Box, view: JSON, p: JSON, seat: int, names: list[str], t: Theme) -> None:
    """A player's panel: name, hand; the Commander's Health and ability; artifacts held and pieces."""
    d = ImageDraw.Draw(canvas)
    over = _over(view)
    chips = [f"hand {_int(p.get('hand_size'))}"]
    tag, tag_colour = "", None
    if over and seat in _winners(view):
        tag, tag_colour = "WINNER", t.good
    elif not over and seat == _seat(view.get("active")) and view.get("phase") != "setup":
        tag, tag_colour = "their turn", t.highlight
    active = seat in (view.get("to_act") or [])
    content = kit.player_panel(canvas, box, kit.who(seat, names), seat, t, chips, active, tag, tag_colour)
    x0, y0 = content[0], content[1]
    ink_of = {"ready": kit.contrast_ink(t.good), "spent": t.dim, "low": kit.contrast_ink(t.bad),
              "held": kit.contrast_ink(GOLD), "more": t.dim}  # fmt: skip
    fill_of = {"ready": t.good, "low": t.bad, "held": GOLD}
    for i, line in enumerate(_panel_lines(p, _pile(view))):
        cy = y0 + ROW_H * i + ROW_H // 2
        x = x0
        for kind, text in line:
            if kind == "none":
                x += kit.draw_text(d, (x + 4, cy), text, LABEL, t.dim, anchor="lm") + 4 + 2 * CHIP_GAP
                continue
            fill = fill_of.get(kind)
            x = kit.chip(d, (x, cy), text, t, fill=fill, ink=ink_of.get(kind, t.text))[2] + CHIP_GAP


def _side(canvas: Image.Image, box: Box, p: JSON, seat: int, names: list[str], t: Theme) -> None:
    """A player's minions in two columns beside a bar in their seat colour."""
    d = ImageDraw.Draw(canvas)
    minions = _dicts(p.get("minions"))[:MAX_MINIONS]
    inner = kit.zone(d, box, side_label(minions, seat, names), t, size=LABEL)
    d.rounded_rectangle((inner[0], inner[1], inner[0] + BAR_W, box[3] - 6), 4, fill=kit.seat_colour(seat))
    cols, w = side_columns(len(minions))
    boxes = _tile_boxes(box, max(1, len(minions)), cols, w, True)
    if not minions:
        kit.paste(canvas, empty_tile(w, "no minions", t.name), boxes[0][0], boxes[0][1])
    for m, b in zip(minions, boxes, strict=False):
        kit.paste(canvas, minion_tile(face(m), w, t.name), b[0], b[1])


def side_label(minions: list[JSON], seat: int, names: list[str]) -> str:
    """ "ADA'S MINIONS · 5/8 · SYNERGY Brawler 3", without the name when it does not fit."""
    count = f"{len(minions)}/{MAX_MINIONS}"
    synergies = _synergies(minions)
    tail = " · SYNERGY " + ", ".join(synergies) if synergies else ""
    f = kit.font(LABEL, True)
    for head in (f"{kit.who(seat, names).upper()}'S MINIONS", "MINIONS"):
        text = f"{head} · {count}{tail}"
        if kit.text_width(text, f) <= INNER_W:
            return text
    return f"MINIONS · {count}{tail}"


def _synergies(minions: list[JSON]) -> list[str]:
    """The classes (but Neutral) and races of which a side has 3 or more minions."""
    out = []
    for key, table in (("class", CLASSES), ("race", RACES)):
        counts: dict[str, int] = {}
        for m in minions:
            value = str(m.get(key) or "")
            counts[value] = counts.get(value, 0) + 1
        for value, n in counts.items():
            if n >= 3 and value in table and value != "neutral":
                out.append(f"{table[value]['name']} {n}")
    return out


def _tartarus(canvas: Image.Image, box: Box, view: JSON, t: Theme) -> None:
    """The prisoners, three to a row."""
    d = ImageDraw.Draw(canvas)
    prisoners = _dicts(view.get("tartarus"))[:MAX_POOL]
    label = f"TARTARUS · {len(prisoners)} PRISONER{'' if len(prisoners) == 1 else 'S'}"
    kit.zone(d, box, label, t, size=LABEL)
    boxes = _tile_boxes(box, max(1, len(prisoners)), POOL_COLS, POOL_W, False)
    if not prisoners:
        kit.paste(canvas, empty_tile(POOL_W, "empty", t.name), boxes[0][0], boxes[0][1])
    for m, b in zip(prisoners, boxes, strict=False):
        kit.paste(canvas, minion_tile(face(m), POOL_W, t.name), b[0], b[1])


def _agora(canvas: Image.Image, box: Box, view: JSON, t: Theme) -> None:
    """The Agora's cards, three to a row: minions as printed, spells; a card left this turn is marked."""
    d = ImageDraw.Draw(canvas)
    cards = _ids(view.get("agora"))[:MAX_POOL]
    left = set(_ids(view.get("left")))
    kit.zone(d, box, f"AGORA · {len(cards)} CARD{'' if len(cards) == 1 else 'S'}", t, size=LABEL)
    boxes = _tile_boxes(box, max(1, len(cards)), POOL_COLS, POOL_W, False)
    if not cards:
        kit.paste(canvas, empty_tile(POOL_W, "empty", t.name), boxes[0][0], boxes[0][1])
    for cid, b in zip(cards, boxes, strict=False):
        if is_minion(cid):
            kit.paste(canvas, minion_tile(printed_face(cid, cid in left), POOL_W, t.name), b[0], b[1])
        else:
            kit.paste(canvas, spell_tile(cid, POOL_W, cid in left, t.name), b[0], b[1])


def _frames(canvas: Image.Image, lay: Layout, view: JSON, t: Theme) -> None:
    """The turn's fixed target in red; what waits on a response window in gold: the attacking minion (and
    what it attacks in red: a minion, or a Commander's chips), the minion being summoned, or the Commander
    whose ability is being used."""
    d = ImageDraw.Draw(canvas)
    if _over(view):
        return
    target = _int(view.get("target"))
    if target and target in lay.tiles:
        kit.highlight(d, lay.tiles[target], t.bad, width=4, pad=3)
    w = view.get("window")
    if not isinstance(w, dict):
        return
    players = _players(view)[:2]
    seat = _seat(w.get("player"))
    acting, attacked = 0, 0
    if w.get("kind") == "attack":
        acting, attacked = _int(w.get("attacker")), _int(w.get("target"))
    elif w.get("kind") == "summon" and seat in (0, 1):
        summoned = [m for m in _dicts(players[seat].get("minions")) if m.get("card") == w.get("card")]
        acting = _int(summoned[-1].get("uid")) if summoned else 0
    elif w.get("kind") == "once" and seat in (0, 1):
        kit.highlight(d, lay.commanders[seat], t.highlight, width=4, pad=1)
    if acting and acting in lay.tiles:
        kit.highlight(d, lay.tiles[acting], t.highlight, width=4, pad=3)
    if attacked and attacked in lay.tiles:
        kit.highlight(d, lay.tiles[attacked], t.bad, width=4, pad=3)
    for k, p in enumerate(players):
        if attacked and _int(p.get("commander_uid")) == attacked:
            kit.highlight(d, lay.commanders[k], t.bad, width=4, pad=1)


# ---------------------------------------------------------------- the hand


ROW_PAD = 8
TEXT_LINE = kit.LINE_H


def card_text(cid: str) -> str:
    """A card's printed text."""
    spec = CARDS.get(cid)
    return (spec.text or "").strip() if spec is not None else ""


def hand_lines(cid: str, w: int = HAND_ROW_W) -> list[str]:
    """A card's text wrapped to a hand row of width w."""
    return kit.wrap_text(card_text(cid) or "No abilities.", kit.font(LABEL), w - 2 * ROW_PAD - 16)


def hand_row_height(cid: str, w: int = HAND_ROW_W) -> int:
    """A hand row: the name and cost, the kind and stats, the text."""
    return ROW_PAD + 32 + TEXT_LINE + len(hand_lines(cid, w)) * TEXT_LINE + ROW_PAD


def _kind_line(cid: str) -> tuple[str, str, str]:
    """A card's kind in words, its stats and its piece: ("Minion · Brawler · Giant · melee", "⚔ 2  ♥ 2",
    "1"); a spell has no stats nor piece."""
    spec = CARDS.get(cid)
    if spec is None:
        return "Card", "", ""
    if spec.type == "minion":
        klass = str(CLASSES.get(str(_flag(cid, "class")), {}).get("name") or "")
        race = str(RACES.get(str(_flag(cid, "race")), {}).get("name") or "")
        reach = "ranged" if _flag(cid, "ranged") else "melee"
        glyph = RANGED if _flag(cid, "ranged") else MELEE
        stats = f"{glyph} {_stat(cid, 'attack')}  ♥ {_stat(cid, 'health')}"
        return " · ".join(x for x in ("Minion", klass, race, reach) if x), stats, str(_stat(cid, "artifact"))
    kind = next((k.title() for k in ("ambush", "disrupt") if k in spec.keywords), "")
    return "Spell" + (f" · {kind}" if kind else ""), "", ""


@lru_cache(maxsize=256)
def hand_row(cid: str, fresh: bool, w: int, theme_name: str = "dark") -> Image.Image:
    """A card in hand as a wide row (RGBA, cached): its class's (or the spell) strip, cost disc, name and
    piece disc, its kind and printed stats, then its whole text; one not to summon this turn says so."""
    t = kit.theme(theme_name)
    h = hand_row_height(cid, w)
    s = kit.SUPERSAMPLE
    W = w * s
    colour = CLASS_COLOURS.get(str(_flag(cid, "class")), t.card_dim) if is_minion(cid) else SPELL_COLOUR
    img = _frame(w, h, t, colour)
    d = ImageDraw.Draw(img)
    low = LABEL * s
    regular, bold = kit.font(low), kit.font(low, True)
    x = (STRIP_W + ROW_PAD) * s
    y = ROW_PAD * s
    x += _disc(d, x, y + 16 * s, str(_stat(cid, "cost")), COST_INK, t) + 8 * s
    right = W - ROW_PAD * s
    kind, stats, piece = _kind_line(cid)
    if piece:
        right -= disc_width(piece)
        _disc(d, right, y + 16 * s, piece, GOLD, t)
        right -= 8 * s
    if fresh:
        note = "not this turn"
        nw = int(bold.getlength(note)) + 14 * s
        d.rounded_rectangle((right - nw, y + 3 * s, right, y + 29 * s), 13 * s, fill=t.card_dim)
        d.text((right - nw // 2, y + 16 * s), note, font=bold, fill=(255, 255, 255), anchor="mm")
        right -= nw + 8 * s
    name = kit.printable(card_name(cid))
    name_f = kit.fitting_font(name, right - x, kit.NAME_TEXT * s, True, min_size=low)
    d.text((x, y + 16 * s), kit.fit_text(name, name_f, right - x), font=name_f, fill=t.black_ink, anchor="lm")
    y += 32 * s
    stats_w = int(bold.getlength(stats))
    x = (STRIP_W + ROW_PAD) * s
    d.text((W - ROW_PAD * s, y + TEXT_LINE * s // 2), stats, font=bold, fill=t.black_ink, anchor="rm")
    ink = tuple(c * 3 // 4 for c in colour)  # the strip's colour, dark enough to read on card stock
    d.text((x, y + TEXT_LINE * s // 2), kit.fit_text(kind, regular, W - x - stats_w - 24 * s), font=regular,
           fill=ink, anchor="lm")  # fmt: skip
    y += TEXT_LINE * s
    for line in hand_lines(cid, w):
        d.text((x, y + TEXT_LINE * s // 2), line, font=regular, fill=t.black_ink, anchor="lm")
        y += TEXT_LINE * s
    return img.reduce(kit.SUPERSAMPLE)


def _own_lines(p: JSON, pile: list[int] | None) -> list[str]:
    """The viewer's Commander and artifacts, one text each, for the section under the hand."""
    lines = []
    name = kit.printable(str(p.get("commander_name") or ""))
    if name:
        state = "spent" if p.get("once_used") else "ready"
        health = f"{_int(p.get('health'))}/{_int(p.get('max_health')) or 20}"
        text = kit.printable(str(p.get("commander_text") or ""))
        lines.append(f"♛ {name} · ♥ {health} · ability {state}: {text}")
    for h in _dicts(p.get("artifacts")):
        spec = ARTIFACTS.get(_int(h.get("number")))
        text = spec.text if spec is not None else ""
        used = " (used this turn)" if h.get("used") else ""
        lines.append(f"★ {_int(h.get('number'))} {kit.printable(str(h.get('name') or ''))}{used}: {text}")
    return lines


def hand(view: JSON, names: Sequence[str] | None = None, theme: str | None = None) -> Image.Image:
    """The private image for view["viewer"]: each card in hand with its cost, kind, stats and whole text, then
    the viewer's Commander and artifacts with their texts."""
    t = kit.theme(theme)
    seat_names = _seat_names(view, names)
    p = kit.own_seat(view)
    if p is None:
        return kit.spectator_hand(TITLE, t)
    viewer: int = view["viewer"]
    cards = _ids(p.get("hand"))
    fresh = set(_ids(p.get("fresh")))
    kinds = list(dict.fromkeys(cards))
    head = kit.zone_head(LABEL)
    rows_h = sum(hand_row_height(c) + 6 for c in kinds)

    def draw_hand(canvas: Image.Image, box: Box) -> None:
        d = ImageDraw.Draw(canvas)
        label = f"HAND · {len(cards)} · cost = minions you must control · gold = piece"
        inner = kit.zone(d, box, label, t, size=LABEL)
        y = inner[1]
        for cid in kinds:
            tile = hand_row(cid, cid in fresh, HAND_ROW_W, t.name)
            kit.paste(canvas, tile, inner[0], y)
            y += tile.height + 6
        if not cards:
            kit.draw_text(d, (inner[0], inner[1] + 2), "no cards in hand", LABEL, t.dim)

    own = [kit.wrap_text(x, kit.font(LABEL), HAND_ROW_W, max_lines=4) for x in _own_lines(p, _pile(view))]

    def draw_own(canvas: Image.Image, box: Box) -> None:
        d = ImageDraw.Draw(canvas)
        inner = kit.zone(d, box, "YOUR COMMANDER AND ARTIFACTS", t, size=LABEL)
        y = inner[1]
        for lines in own:
            for line in lines:
                kit.draw_text(d, (inner[0], y), line, LABEL, t.text)
                y += kit.LINE_H
            y += 4

    sections: list[kit.Section] = [(head + (rows_h if cards else kit.LINE_H + 4) + 2, draw_hand)]
    if own:
        sections.append((head + sum(len(x) * kit.LINE_H + 4 for x in own) + 2, draw_own))
    held = len(_dicts(p.get("artifacts")))
    heading = f"Your hand · Turn {_int(view.get('turn')) or 1} · ★ {held}/{TO_WIN} artifacts"
    log = [kit.seat_refs(str(x), seat_names) for x in view.get("log") or []]
    last_text = log[-1] if log else ""
    return kit.hand_page(TITLE, heading, viewer, _prompt(view, viewer, seat_names), sections, last_text, t)


PHASE_PROMPTS = {
    "deploy": "Deploy: summon, cast, exchange, or go to Recruit",
    "recruit": "Recruit: attack prisoners, or go to Attack",
    "attack": "Attack: attack an enemy, or end your turn",
}


def _prompt(view: JSON, viewer: int, names: list[str]) -> tuple[str, bool]:
    """What the viewer should do now, and whether it is their move."""
    if _over(view):
        return status_text(view, names), False
    if viewer not in (view.get("to_act") or []):
        waiting = decision_text(view, names) or status_text(view, names)
        return f"Waiting · {waiting}", False
    d = view.get("decision") if isinstance(view.get("decision"), dict) else {}
    kind = d.get("kind")
    source = kit.printable(str(d.get("source_name") or ""))
    of = f" for {source}" if source else ""
    if kind == "window":
        what = "Ambush or Disrupt" if d.get("window") == "attack" else "Disrupt"
        return f"{window_text(view, names) or 'Your opponent acts'}: play {what}, or pass", True
    if kind == "pick":
        return f"Choose {what_text(d.get('what')).replace('their Hand', 'your Hand')}{of}", True
    words = {
        "commander": "Choose your Commander",
        "mulligan": "Return up to 3 cards to the Deck, or keep your hand",
        "discard": "Discard down to 8 cards",
        "option": f"Choose an option{of}",
        "order": "Order your triggered abilities",
        "may": f"You may use {source}'s ability" if source else "You may use an ability",
    }
    if kind is not None:
        return words.get(str(kind), f"Decide ({kind})"), True
    return f"Your turn · {PHASE_PROMPTS.get(str(view.get('phase')), 'your move')}", True


# ---------------------------------------------------------------- warming the caches


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
