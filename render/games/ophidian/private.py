"""Ophidian 2350's hand, the private image: each card in hand as a wide row (its play cost P and Maintain M,
name, flow symbol, type and requirement, and whole text), then the viewer's Gladiator Stack, under a prompt
of what the viewer should do now. A requirement the viewer's Gladiators do not meet is crossed out in red,
and a play cost above the viewer's CP is red.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.games.ophidian import present
from engine.games.ophidian.cards import CARDS
from engine.games.ophidian.view import OphidianView
from render import kit
from render.games.ophidian.common import (
    ADMG,
    COST_INK,
    CROWD,
    DISCIPLINE_COLOURS,
    DOWN,
    HAND_ROW_W,
    LABEL,
    MAINTAIN_INK,
    STRIP_W,
    SYMBOL_COLOURS,
    TITLE,
    _characters,
    _flag,
    _ids,
    _int,
    _seat_names,
    _stat,
    card_name,
    card_type,
    crowd_favorite,
    discipline_name,
    symbol,
)
from render.games.ophidian.tiles import _frame, pill, pill_width
from render.games.ophidian.words import wave_words
from render.kit import Theme

ROW_PAD = 8
TEXT_LINE = kit.LINE_H
HEAD_H = 36  # a hand row's first line: the costs, the name and the symbol
SYMBOL_TEXT = 30


def card_text(cid: str) -> str:
    """A card's printed text, without its "Unique." line (the type line says it)."""
    spec = CARDS.get(cid)
    text = (spec.text or "").strip() if spec is not None else ""
    return text.removeprefix("Unique.").strip() if "unique" in (spec.keywords if spec else ()) else text


def hand_lines(cid: str, w: int = HAND_ROW_W) -> list[str]:
    """A card's text wrapped to a hand row of width w."""
    return kit.wrap_text(card_text(cid) or "No text.", kit.font(LABEL), w - 2 * ROW_PAD - STRIP_W - 8)


def hand_row_height(cid: str, w: int = HAND_ROW_W) -> int:
    """A hand row: the costs, name and symbol; the type and requirement; the text."""
    return ROW_PAD + HEAD_H + TEXT_LINE + len(hand_lines(cid, w)) * TEXT_LINE + ROW_PAD


def requirement(cid: str) -> str:
    """A card's requirement in words: "Warrior 2", "Universal 1"."""
    spec = CARDS.get(cid)
    if spec is None:
        return ""
    return f"{discipline_name(spec.faction)} {spec.stat('level')}"


def meets(cid: str, view: OphidianView, seat: int) -> bool:
    """Whether a Gladiator the seat controls (a Reinforcement once promoted to Level 1, never a Minion:
    RULINGS 6, 48) has the card's discipline (any, for Universal) at the card's level or higher, as the view
    shows them."""
    spec = CARDS.get(cid)
    if spec is None:
        return True
    players = kit.as_list(view.get("players"))
    p = next((q for q in players if isinstance(q, dict) and q.get("seat") == seat), None)
    if p is None:
        return True
    for c in _characters(p):
        if c.get("kind") not in ("gladiator", "reinforcement") or _int(c.get("level")) < spec.stat("level"):
            continue
        if spec.faction == "universal" or spec.faction in (c.get("disciplines") or []):
            return True
    return False


def _maintain(cid: str) -> str:
    """The Maintain cost as printed ("☠" for an unmaintainable card); "" for a card without one."""
    spec = CARDS.get(cid)
    if spec is None or spec.type not in ("minion", "pump"):
        return ""
    return "☠" if _flag(cid, "unmaintainable") else str(spec.stat("maintain"))


@lru_cache(maxsize=512)
def hand_row(
    cid: str, count: int, met: bool, affordable: bool, w: int, theme_name: str = "dark"
) -> Image.Image:
    """A card in hand as a wide row (RGBA, cached): its discipline's strip; P and M, the name (×N for copies)
    and the flow symbol; its type, requirement (crossed out in red when unmet), Unique, and a Minion's ADMG
    and Life; then its whole text."""
    t = kit.theme(theme_name)
    h = hand_row_height(cid, w)
    s = kit.SUPERSAMPLE
    W = w * s
    spec = CARDS.get(cid)
    faction = spec.faction if spec is not None else ""
    colour = DISCIPLINE_COLOURS.get(faction, t.card_dim)
    img = _frame(w, h, t, (colour,), t.card_face)
    d = ImageDraw.Draw(img)
    low = LABEL * s
    regular, bold = kit.font(low), kit.font(low, True)
    x = (STRIP_W + ROW_PAD) * s
    cy = (ROW_PAD + HEAD_H // 2) * s
    x += pill(d, x, cy, f"P {_stat(cid, 'cp')}", COST_INK if affordable else DOWN, LABEL + 2) + 6 * s
    maintain = _maintain(cid)
    if maintain:
        x += pill(d, x, cy, f"M {maintain}", MAINTAIN_INK, LABEL + 2) + 6 * s
    x += 4 * s
    right = W - ROW_PAD * s
    sym = symbol(cid)
    if sym:
        sw = pill_width(sym, SYMBOL_TEXT) * s
        right -= sw
        pill(d, right, cy, sym, SYMBOL_COLOURS.get(sym, t.card_dim), SYMBOL_TEXT)
        right -= 8 * s
    if count > 1:
        right -= pill_width(f"×{count}") * s
        pill(d, right, cy, f"×{count}", t.card_dim)
        right -= 8 * s
    name = card_name(cid)
    name_f = kit.fitting_font(name, right - x, kit.NAME_TEXT * s, True, min_size=low)
    d.text((x, cy), kit.fit_text(name, name_f, right - x), font=name_f, fill=t.black_ink, anchor="lm")
    # the type, the requirement and Unique; a Minion's stats on the right
    y = (ROW_PAD + HEAD_H) * s
    ly = y + TEXT_LINE * s // 2
    x = (STRIP_W + ROW_PAD) * s
    stats = ""
    if spec is not None and spec.type == "minion":
        stats = f"{ADMG} {_stat(cid, 'admg')}   ♥ {_stat(cid, 'life')}"
        d.text((W - ROW_PAD * s, ly), stats, font=bold, fill=t.black_ink, anchor="rm")
    kind = card_type(cid) + " · "
    d.text((x, ly), kind, font=regular, fill=t.card_dim, anchor="lm")
    x += int(regular.getlength(kind))
    req = requirement(cid)
    ink = tuple(c * 2 // 3 for c in colour) if met else DOWN
    d.text((x, ly), req, font=bold, fill=ink, anchor="lm")
    rw = int(bold.getlength(req))
    if not met:
        d.line((x, ly, x + rw, ly), fill=DOWN, width=2 * s)
    x += rw
    if spec is not None and "unique" in spec.keywords:
        d.text((x, ly), " · Unique", font=regular, fill=t.card_dim, anchor="lm")
    y += TEXT_LINE * s
    x = (STRIP_W + ROW_PAD) * s
    for line in hand_lines(cid, w):
        d.text((x, y + TEXT_LINE * s // 2), line, font=regular, fill=t.black_ink, anchor="lm")
        y += TEXT_LINE * s
    return img.reduce(s)


def stack_lines(p: Mapping[str, Any]) -> list[str]:
    """The viewer's Gladiator Stack, a line each: "Brakka Vohl · Level 3/4 · ⚔3 ♥10 · 6 VP"."""
    out = []
    for cid in _ids(p.get("stack")):
        spec = CARDS.get(cid)
        if spec is None:
            out.append(card_name(cid))
            continue
        if spec.type == "reinforcement":
            what = f"Reinforcement · M {spec.stat('maintain')}"
        else:
            what = f"Level {spec.stat('level')}/{spec.stat('level') + 1}"
        stats = f"{ADMG}{spec.stat('admg')} ♥{spec.stat('life')} Rage {spec.stat('rage')}"
        out.append(f"{card_name(cid)} · {what} · {stats} · {spec.stat('vp')} VP")
    return out


def _hand(
    view: OphidianView, names: Sequence[str] | None, p: Mapping[str, Any], viewer: int, t: Theme
) -> Image.Image:
    """The private image for view["viewer"]: each card in hand with its costs, symbol, type, requirement
    and whole text, then the viewer's Gladiator Stack."""
    seat_names = _seat_names(view, names)
    cards = _ids(p.get("hand"))
    counts = Counter(cards)
    kinds = sorted(counts, key=lambda c: (card_type(c), card_name(c)))
    cp = _int(p.get("cp"))

    def row(cid: str) -> Image.Image:
        return hand_row(
            cid, counts[cid], meets(cid, view, viewer), _stat(cid, "cp") <= cp, HAND_ROW_W, t.name
        )

    stack = [kit.wrap_text(x, kit.font(LABEL), HAND_ROW_W, max_lines=2) for x in stack_lines(p)]

    label = f"HAND · {len(cards)} · P = play cost · M = Maintain (CP)"
    sections = [kit.hand_rows(label, kinds, row, hand_row_height, t)]
    if stack:
        sections.append(kit.text_zone("YOUR GLADIATOR STACK", stack, t))
    cheer = f"Cheer {_int(p.get('cheer'))}" + (f" {CROWD}" if crowd_favorite(view, viewer) else "")
    heading = f"Your hand · {wave_words(view)} · CP {cp} · {cheer}"
    log = [kit.seat_refs(kit.printable(str(x)), seat_names) for x in view.get("log") or []]
    last_text = log[-1] if log else ""
    prompt = kit.hand_prompt(present, view, seat_names)
    return kit.hand_page(TITLE, heading, viewer, prompt, sections, last_text, t)


hand = kit.own_hand(TITLE, _hand)
