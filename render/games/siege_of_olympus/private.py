"""Siege of Olympus's hand, the private image: each card in hand as a wide row (its cost, name, piece, kind,
printed stats and whole text), then the viewer's Commander and artifacts with their texts, under a prompt of
what the viewer should do now.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.games.siege_of_olympus import present
from engine.games.siege_of_olympus.cards import ARTIFACTS, CARDS, CLASSES, RACES
from engine.games.siege_of_olympus.view import SiegeView
from render import kit
from render.games.siege_of_olympus.common import (
    CLASS_COLOURS,
    COST_INK,
    GOLD,
    HAND_ROW_W,
    LABEL,
    MELEE,
    RANGED,
    SPELL_COLOUR,
    STRIP_W,
    TITLE,
    TO_WIN,
    _dicts,
    _flag,
    _ids,
    _int,
    _pile,
    _seat_names,
    _stat,
    card_name,
    is_minion,
)
from render.games.siege_of_olympus.tiles import _disc, _frame, disc_width
from render.kit import Theme

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


def _own_lines(p: Mapping[str, Any], pile: list[int] | None) -> list[str]:
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


def _hand(
    view: SiegeView, names: Sequence[str] | None, p: Mapping[str, Any], viewer: int, t: Theme
) -> Image.Image:
    """The private image for view["viewer"]: each card in hand with its cost, kind, stats and whole text, then
    the viewer's Commander and artifacts with their texts."""
    seat_names = _seat_names(view, names)
    cards = _ids(p.get("hand"))
    fresh = set(_ids(p.get("fresh")))
    kinds = list(dict.fromkeys(cards))

    own = [kit.wrap_text(x, kit.font(LABEL), HAND_ROW_W, max_lines=4) for x in _own_lines(p, _pile(view))]

    label = f"HAND · {len(cards)} · cost = minions you must control · gold = piece"

    def row(cid: str) -> Image.Image:
        return hand_row(cid, cid in fresh, HAND_ROW_W, t.name)

    sections = [kit.hand_rows(label, kinds, row, hand_row_height, t)]
    if own:
        sections.append(kit.text_zone("YOUR COMMANDER AND ARTIFACTS", own, t, gap=4, pad=2))
    held = len(_dicts(p.get("artifacts")))
    heading = f"Your hand · Turn {_int(view.get('turn')) or 1} · ★ {held}/{TO_WIN} artifacts"
    log = [kit.seat_refs(str(x), seat_names) for x in view.get("log") or []]
    last_text = log[-1] if log else ""
    prompt = kit.hand_prompt(present, view, seat_names)
    return kit.hand_page(TITLE, heading, viewer, prompt, sections, last_text, t)


hand = kit.own_hand(TITLE, _hand)
