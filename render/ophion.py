"""Ophion's board (public) and hand (private) images, drawn from its view JSON and the printed card data."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.games.ophion.cards import CARDS, Card
from render import kit
from render.kit import Box, Theme

JSON = dict[str, Any]

LABEL = 18  # zone label size
TYPE_COLOURS: dict[str, kit.RGB] = {
    "monster": (176, 60, 50),
    "action": (44, 130, 84),
    "upgrade": (70, 98, 186),
}
MONSTER_COLOURS: dict[str, kit.RGB] = {
    "goblin": (92, 150, 56),
    "suumpmolk": (36, 138, 140),
    "troll": (146, 100, 58),
    "archer": (124, 110, 170),
    "ogre": (160, 146, 56),
    "dragon": (196, 52, 44),
}
COIN: kit.RGB = (236, 184, 40)
MANA: kit.RGB = (84, 142, 232)
AP: kit.RGB = (200, 204, 214)
EFFECT_WORDS = {"gold": "GOLD", "mana": "MANA", "ap": "AP", "vp": "VP"}
ROW_H = 72  # tracks and upgrade slots
GRID_H = LABEL + 12 + 58 + 10  # a grid zone: label, tokens, padding
PANEL_H = 48 + ROW_H + 8 + GRID_H + 8
MAX_SLOTS = 8


def card(cid: str) -> Card:
    """The printed card for an id (an unknown id gets a blank action card named after it)."""
    return CARDS.get(cid) or Card(id=cid, name=cid, type="action", cost=0, tier=0, count=0)


# ---------------------------------------------------------------- card tiles


@lru_cache(maxsize=512)
def card_tile(cid: str, price: int, w: int, h: int, theme_name: str = "dark") -> Image.Image:
    """A card face (RGBA, cached): name band, type and tier, stats or effect, and a coin with the price."""
    t = kit.theme(theme_name)
    c = card(cid)
    s = kit.SUPERSAMPLE
    W, H = w * s, h * s
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(
        (0, 0, W - 1, H - 1), max(4, w // 12) * s, fill=t.card_face, outline=t.card_edge, width=2 * s
    )
    pad = 5 * s
    band = TYPE_COLOURS.get(c.type, t.card_dim)
    band_h = int(H * 0.27)
    d.rounded_rectangle((pad // 2, pad // 2, W - pad // 2, band_h), 4 * s, fill=band)
    size = int(h * 0.115) * s
    f = kit.font(size, True)
    lines = kit.wrap_text(c.name, f, W - 2 * pad, 2)
    while size > 10 * s and (len(lines) > 2 or any(f.getlength(x) > W - 2 * pad for x in lines)):
        size -= s
        f = kit.font(size, True)
        lines = kit.wrap_text(c.name, f, W - 2 * pad, 2)
    line_h = int(size * 1.08)
    top = (band_h + pad // 2 - line_h * len(lines)) // 2 + pad // 4
    for i, line in enumerate(lines):
        d.text((W // 2, top + i * line_h), line, font=f, fill=kit.contrast_ink(band), anchor="mt")
    small = kit.font(int(h * 0.075) * s, True)
    body_top = band_h + pad
    mid = body_top + int(H * 0.1)
    if c.type == "monster":  # the band's colour says monster: the stats get the room
        cols = (("ATK", c.attack), ("DEF", c.defense), ("SIZE", c.size))
        big = kit.font(int(h * 0.19) * s, True)
        label_f = kit.font(int(h * 0.09) * s, True)
        for k, (word, value) in enumerate(cols):
            cx = W * (2 * k + 1) // 6
            d.text((cx, body_top + s), word, font=label_f, fill=t.card_dim, anchor="mt")
            d.text((cx, body_top + int(H * 0.11)), str(value), font=big, fill=t.black_ink, anchor="mt")
    else:
        d.text((W // 2, body_top), c.type.upper(), font=small, fill=t.card_dim, anchor="mt")
        unit = EFFECT_WORDS.get(c.effect, c.effect.upper())
        if c.type == "upgrade":
            unit += " / ROUND"
        big = kit.font(int(h * 0.2) * s, True)
        d.text((W // 2, mid - int(H * 0.01)), f"+{c.amount}", font=big, fill=t.black_ink, anchor="mt")
        unit_f = kit.fitting_font(unit, W - 2 * pad, int(h * 0.09) * s, True)
        d.text((W // 2, mid + int(H * 0.2)), unit, font=unit_f, fill=t.black_ink, anchor="mt")
    r = int(H * 0.115)
    cx, cy = W - pad - r, H - pad - r
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=COIN, outline=t.card_edge, width=s)
    d.text((cx, cy), str(price), font=kit.font(int(r * 1.25), True), fill=t.black_ink, anchor="mm")
    foot = f"T{c.tier}" if c.tier else "START"
    if c.type == "monster":
        mx = pad + r
        d.ellipse((mx - r, cy - r, mx + r, cy + r), fill=MANA, outline=t.card_edge, width=s)
        d.text((mx, cy), str(c.mana), font=kit.font(int(r * 1.25), True), fill=(255, 255, 255), anchor="mm")
        d.text((W // 2, cy), foot, font=small, fill=t.card_dim, anchor="mm")
    else:
        d.text((pad + s, cy), foot, font=small, fill=t.card_dim, anchor="lm")
    return img.reduce(s)


@lru_cache(maxsize=256)
def slot_tile(cid: str | None, w: int, h: int, theme_name: str = "dark") -> Image.Image:
    """An upgrade slot (RGBA, cached): the card's name and what it gives, or an empty dashed slot."""
    t = kit.theme(theme_name)
    s = kit.SUPERSAMPLE
    W, H = w * s, h * s
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if cid is None:
        d.rounded_rectangle((0, 0, W - 1, H - 1), 8 * s, fill=t.zone, outline=t.border, width=2 * s)
        d.text((W // 2, H // 2), "empty slot", font=kit.font(16 * s), fill=t.dim, anchor="mm")
        return img.reduce(s)
    c = card(cid)
    colour = MONSTER_COLOURS.get(cid) or TYPE_COLOURS.get(c.type, t.card_dim)
    d.rounded_rectangle((0, 0, W - 1, H - 1), 8 * s, fill=t.card_face, outline=t.card_edge, width=2 * s)
    d.rounded_rectangle((0, 0, 12 * s, H - 1), 6 * s, fill=colour)
    name = c.name.removesuffix(" Upgrade")
    name_f = kit.fitting_font(name, W - 22 * s, 20 * s, True, min_size=12 * s)
    d.text((18 * s, H * 0.32), name, font=name_f, fill=t.black_ink, anchor="lm")
    if c.type == "monster":
        what = f"summon · {c.mana} mana"
    else:
        what = f"{EFFECT_WORDS.get(c.effect, c.effect).lower()} every round"
    what_f = kit.fitting_font(what, W - 22 * s, 16 * s, False, min_size=10 * s)
    d.text((18 * s, H * 0.72), what, font=what_f, fill=t.card_dim, anchor="lm")
    return img.reduce(s)


@lru_cache(maxsize=256)
def token(cid: str, w: int, h: int, theme_name: str = "dark") -> Image.Image:
    """A monster token on a grid (RGBA, cached): as wide as its Size, with name and attack/defense."""
    c = card(cid)
    s = kit.SUPERSAMPLE
    W, H = w * s, h * s
    colour = MONSTER_COLOURS.get(cid, TYPE_COLOURS["monster"])
    ink = kit.contrast_ink(colour)
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, W - 1, H - 1), 10 * s, fill=colour, outline=(250, 250, 250), width=2 * s)
    stats = f"{c.attack}/{c.defense}"
    name = c.name.split()[-1] if w < 130 else c.name  # "Archer" on a narrow token
    if w >= 150:
        name_f = kit.fitting_font(name, W - 80 * s, 22 * s, True, min_size=12 * s)
        d.text((10 * s, H // 2), name, font=name_f, fill=ink, anchor="lm")
        d.text((W - 10 * s, H // 2), stats, font=kit.font(26 * s, True), fill=ink, anchor="rm")
    else:
        name_f = kit.fitting_font(name, W - 10 * s, 17 * s, True, min_size=10 * s)
        d.text((W // 2, H * 0.3), name, font=name_f, fill=ink, anchor="mm")
        d.text((W // 2, H * 0.7), stats, font=kit.font(22 * s, True), fill=ink, anchor="mm")
    return img.reduce(s)


# ---------------------------------------------------------------- text


def status_text(view: JSON, names: list[str], max_w: int | None = None) -> str:
    """Round, tier and whose turn it is, in words; a long name is cut so the line fits max_w at 30 px."""
    if view.get("phase") == "over":
        result = view.get("result") or {}
        winners = [kit.who(w, names) for w in result.get("winners") or []]
        scores = result.get("scores") or []
        best = f" with {max(scores)} VP" if scores else ""
        if not winners:
            return "Game over"
        return "Game over · " + " & ".join(winners) + (" win" if len(winners) > 1 else " wins") + best
    current = view.get("current")
    players = view.get("players") or []
    ap = players[current].get("ap", 0) if isinstance(current, int) and current < len(players) else 0
    head = f"Round {view.get('round', 0)}/{view.get('rounds', 9)} · Tier {view.get('tier', 1)}"
    who, tail = kit.who(current, names), f" to play · {ap} AP left"
    if max_w is not None:
        f = kit.font(30, True)
        who = kit.fit_text(who, f, max(60, max_w - kit.text_width(f"{head} · {tail}", f)))
    return f"{head} · {who}{tail}"


def banner_width() -> int:
    """The room for the banner's text beside the title "OPHION" (as kit.banner lays it out)."""
    return kit.WIDTH - 2 * kit.MARGIN - kit.text_width("OPHION", kit.font(22, True)) - 60


def _acting_colour(view: JSON) -> kit.RGB:
    current = view.get("current")
    return kit.seat_colour(current) if isinstance(current, int) else (150, 150, 160)


# ---------------------------------------------------------------- the board


def board(view: JSON, names: Sequence[str] | None = None, theme: str | None = None) -> Image.Image:
    """The public board: market with prices, every player's board, whose turn, last action, log."""
    t = kit.theme(theme)
    seat_names = kit.view_names(view, names)
    players: list[JSON] = list(view.get("players") or [])
    W, M = kit.WIDTH, kit.MARGIN
    market = _slots(view)
    tw, th = _market_tile(len(market))
    market_h = LABEL + 12 + th + 34
    last = view.get("last") or None
    last_h = _last_height(last, seat_names)
    log = [kit.seat_refs(str(x), seat_names) for x in view.get("log") or []][-5:]
    log_h = LABEL + 22 + 27 * len(log) + 10 if log else 0
    H = M + 64 + 10 + market_h + 10 + (last_h + 10 if last_h else 0) + len(players) * (PANEL_H + 10)
    H += log_h + M - (0 if log_h else 10)
    canvas = kit.new_canvas(W, H, t)
    d = ImageDraw.Draw(canvas)

    kit.banner(
        canvas,
        (M, M, W - M, M + 64),
        "Ophion",
        status_text(view, seat_names, banner_width()),
        _acting_colour(view),
        t,
    )
    y = M + 64 + 10
    _market(canvas, (M, y, W - M, y + market_h), view, tw, th, t)
    y += market_h + 10
    if last_h and last:
        text = kit.seat_refs(str(last["text"]), seat_names)
        kit.last_action_bar(canvas, (M, y, W - M, y + last_h), text, None, t)
        y += last_h + 10
    for i, p in enumerate(players):
        player_board(canvas, (M, y, W - M, y + PANEL_H), view, p, i, seat_names, t)
        y += PANEL_H + 10
    if log:
        kit.log_lines(canvas, (M, y, W - M, y + log_h), log, t, size=20)
    del d
    return canvas


def _last_height(last: JSON | None, names: list[str]) -> int:
    """The height of the last-action bar: one or two lines of text, none without a last action."""
    if not last or not last.get("text"):
        return 0
    text = kit.seat_refs(str(last["text"]), names)
    lines = kit.wrap_text(text, kit.font(24), kit.WIDTH - 2 * kit.MARGIN - 130, max_lines=2)
    return 20 + 30 * len(lines)


def _slots(view: JSON) -> list[JSON | None]:
    """The market slots (at most MAX_SLOTS drawn; a real row has 4 or 6), each None or a dict."""
    slots = list(view.get("market") or [])[:MAX_SLOTS]
    return [x if x is None or isinstance(x, dict) else {"card": str(x)} for x in slots]


def _market_tile(n: int) -> tuple[int, int]:
    """Market card size: as large as fits the row (4 slots with 2 players, else 6)."""
    room = kit.WIDTH - 2 * kit.MARGIN - 16
    w = min(190, (room - 10 * (max(n, 1) - 1)) // max(n, 1))
    return w, min(196, int(w * 1.12))


def _market(canvas: Image.Image, box: Box, view: JSON, tw: int, th: int, t: Theme) -> None:
    """The market row, cheapest slot first, each with its price (cost + surcharge) on the coin."""
    d = ImageDraw.Draw(canvas)
    decks = f"Tier 1 deck {view.get('tier1_size', 0)} · Tier 2 deck {view.get('tier2_size', 0)}"
    inner = kit.zone(d, box, f"MARKET · TIER {view.get('tier', 1)} · {decks}", t, size=LABEL)
    market = _slots(view)
    step = tw + 10
    x = inner[0] + max(0, (inner[2] - inner[0] - step * len(market) + 10) // 2)
    for slot in market:
        y = inner[1]
        if slot is None:
            d.rounded_rectangle((x, y, x + tw, y + th), 10, outline=t.border, width=2)
            kit.draw_text(d, (x + tw // 2, y + th // 2), "empty", 20, t.dim, anchor="mm")
        else:
            price = int(slot.get("price") or 0)
            cid = str(slot.get("card") or slot.get("name") or "?")
            kit.paste(canvas, card_tile(cid, price, tw, th, t.name), x, y)
            extra = int(slot.get("surcharge") or 0)
            note = f"{price - extra} + {extra} surcharge" if extra else "no surcharge"
            ink = t.highlight if extra else t.dim
            kit.draw_text(
                d, (x + tw // 2, y + th + 14), note, 18, ink, bold=bool(extra), max_w=tw, anchor="mm"
            )
        x += step


def _grid_name(view: JSON, seat: int, names: list[str]) -> str:
    """Whom this seat attacks: the player on its right, the previous seat."""
    n = int(view.get("num_players") or len(view.get("players") or []))
    return kit.who((seat - 1) % n, names) if n > 1 else "?"


def player_board(
    canvas: Image.Image, box: Box, view: JSON, p: JSON, i: int, names: list[str], t: Theme
) -> None:
    """One player's panel: VP track, eternity tokens, resources, upgrade slots, both grids."""
    d = ImageDraw.Draw(canvas)
    seat = int(p.get("seat", i))
    over = view.get("phase") == "over"
    result = view.get("result") or {}
    last = view.get("last") or None
    chips = [f"hand {p.get('hand_size', 0)}"]
    scores = result.get("scores") or []
    if over and seat < len(scores):
        chips.append(f"★ {scores[seat]} VP final")
    else:
        chips.append(f"★ {p.get('total', 0)} VP")
    tag, tag_colour = "", None
    if over and seat in (result.get("winners") or []):
        tag, tag_colour = "WINNER", t.good
    elif p.get("passed") and not over:
        tag, tag_colour = "passed", t.border
    marked = t.highlight if last and last.get("player") == seat else None
    content = kit.player_panel(
        canvas, box, kit.who(seat, names), seat, t, chips, active=seat in (view.get("to_act") or []),
        marked=marked, tag=tag, tag_colour=tag_colour,
    )  # fmt: skip
    x0, y0, x1, _ = content
    slots_w = 3 * 150 + 2 * 8
    _tracks(canvas, (x0, y0, x1 - slots_w - 14, y0 + ROW_H), p, t)
    sx = x1 - slots_w
    mark_slot = _marked_slot(last, p, seat)
    for k, cid in enumerate(list(p.get("upgrades") or [])[:3]):
        tile = slot_tile(cid, 150, ROW_H - 8, t.name)
        b = kit.paste(canvas, tile, sx + k * 158, y0 + 4)
        if k == mark_slot:
            kit.highlight(d, b, t.highlight, width=4, pad=3)
    gy = y0 + ROW_H + 8
    mid = (x0 + x1) // 2
    cap = int(p.get("grid_capacity") or 6)
    mark_grid = _marked_grid(last, seat)
    atk_used = f"{p.get('attack_used', 0)}/{cap}"
    atk_label = f"ATTACK {p.get('attack', 0)} · {atk_used} · attacks {_grid_name(view, seat, names)}"
    def_label = f"DEFENSE {p.get('defense', 0)} · {p.get('defense_used', 0)}/{cap}"
    grids = (
        ((x0, gy, mid - 5, gy + GRID_H), atk_label, p.get("attack_grid") or [], "attack"),
        ((mid + 5, gy, x1, gy + GRID_H), def_label, p.get("defense_grid") or [], "defense"),
    )
    for gbox, label, monsters, kind in grids:
        _grid(canvas, gbox, label, list(monsters), cap, t, mark_last=mark_grid == kind)


def _marked_slot(last: JSON | None, p: JSON, seat: int) -> int | None:
    """The upgrade slot the last action bought into, if it was this seat's buy of a slot card."""
    if not last or last.get("player") != seat or last.get("kind") != "buy":
        return None
    text = str(last.get("text") or "")
    for k, cid in enumerate(p.get("upgrades") or []):
        if cid is not None and f" buys {card(cid).name} for " in text:
            return k
    return None


def _marked_grid(last: JSON | None, seat: int) -> str | None:
    """The grid the last action summoned a monster to, if it was this seat's summon."""
    if not last or last.get("player") != seat or last.get("kind") != "summon":
        return None
    text = str(last.get("text") or "")
    return "attack" if "attack grid" in text else "defense" if "defense grid" in text else None


def _tracks(canvas: Image.Image, box: Box, p: JSON, t: Theme) -> None:
    """The VP track (0-9) with eternity tokens on the first line; mana, gold, AP, deck and discard below."""
    d = ImageDraw.Draw(canvas)
    x0, y0, x1, _ = box
    cy = y0 + 16
    x = x0 + kit.draw_text(d, (x0, cy), "VP", 20, t.dim, True, anchor="lm") + 8
    vp = int(p.get("vp", 0))
    cell = 24
    for k in range(10):
        filled = k < vp
        d.rounded_rectangle(
            (x, cy - cell // 2, x + cell - 2, cy + cell // 2), 5,
            fill=t.highlight if filled else t.zone, outline=t.border,
        )  # fmt: skip
        x += cell + 1
    x += kit.draw_text(d, (x + 8, cy), str(vp), 22, t.text, True, anchor="lm") + 18
    eternity = int(p.get("eternity", 0))
    if eternity:
        kit.paste(canvas, kit.badge(f"∞ {eternity}×10", COIN, 28), x, cy - 14)
    cy = y0 + ROW_H - 18
    x = x0
    for text, fill in (
        (f"mana {p.get('mana', 0)}", MANA),
        (f"gold {p.get('gold', 0)}", COIN),
        (f"AP {p.get('ap', 0)}", AP),
    ):
        x = kit.chip(d, (x, cy), text, t, size=20, fill=fill, ink=kit.contrast_ink(fill))[2] + 8
    piles = f"deck {p.get('deck_size', 0)} · discard {p.get('discard_size', 0)}"
    kit.draw_text(d, (x + 6, cy), piles, 18, t.dim, max_w=max(0, x1 - x - 6), anchor="lm")


def _grid(
    canvas: Image.Image, box: Box, label: str, monsters: list[str], cap: int, t: Theme, mark_last: bool
) -> None:
    """A monster grid: capacity cells, and a token per monster as wide as its Size."""
    d = ImageDraw.Draw(canvas)
    inner = kit.zone(d, box, label, t, size=LABEL)
    x0, y0, x1, _ = inner
    unit = (x1 - x0) // max(cap, 1)
    th = 54
    used = sum(max(1, card(m).size) for m in monsters)
    for k in range(min(used, cap), cap):  # the free capacity, one cell per unit of Size
        d.rounded_rectangle((x0 + k * unit + 2, y0, x0 + (k + 1) * unit - 2, y0 + th), 8, outline=t.border)
    x = x0
    for k, m in enumerate(monsters):
        size = max(1, card(m).size)
        w = min(unit * size, x1 - x) - 4
        if w < 20:
            break
        b = kit.paste(canvas, token(m, w, th, t.name), x + 2, y0)
        if mark_last and k == len(monsters) - 1:
            kit.highlight(d, b, t.highlight, width=4, pad=3)
        x += unit * size


# ---------------------------------------------------------------- the hand


def hand(view: JSON, names: Sequence[str] | None = None, theme: str | None = None) -> Image.Image:
    """The private image for view["viewer"]: their hand as cards, then their own board."""
    t = kit.theme(theme)
    seat_names = kit.view_names(view, names)
    p = kit.own_seat(view)
    if p is None:
        return kit.spectator_hand("Ophion", t)
    viewer: int = view["viewer"]
    W, M = kit.WIDTH, kit.MARGIN
    cards = list(p.get("hand") or [])
    played = list(p.get("played") or [])
    cw, ch = 150, 168
    hand_h = LABEL + 12 + (ch + 40 if cards else 44)
    played_h = LABEL + 12 + 40 if played else 0
    last = view.get("last") or None
    last_h = _last_height(last, seat_names)
    H = M + 64 + 10 + 56 + 10 + hand_h + 10 + (played_h + 10 if played_h else 0) + PANEL_H
    H += (last_h + 10 if last_h else 0) + M
    canvas = kit.new_canvas(W, H, t)
    d = ImageDraw.Draw(canvas)

    head = f"Your hand · Round {view.get('round', 0)}/{view.get('rounds', 9)} · Tier {view.get('tier', 1)}"
    kit.banner(canvas, (M, M, W - M, M + 64), "Ophion", head, kit.seat_colour(viewer), t)
    y = M + 64 + 10
    prompt, urgent = _prompt(view, viewer, seat_names)
    d.rounded_rectangle((M, y, W - M, y + 56), 10, fill=t.panel_active if urgent else t.panel,
                        outline=t.highlight if urgent else t.border, width=3 if urgent else 1)  # fmt: skip
    kit.draw_text(d, (M + 16, y + 28), prompt, 28, t.text, True, max_w=W - 2 * M - 32, anchor="lm")
    y += 56 + 10

    inner = kit.zone(d, (M, y, W - M, y + hand_h), f"HAND · {len(cards)} · coin = cost", t, size=LABEL)
    kinds = list(dict.fromkeys(cards))  # copies of a card are one tile with a ×N badge
    step = kit.row_step(len(kinds), cw, inner[2] - inner[0] - 10, 14)
    for k, cid in enumerate(kinds):
        x, copies = inner[0] + k * step, cards.count(cid)
        tile = card_tile(cid, card(cid).cost, cw, ch, t.name)
        if copies > 1:  # a second card peeking out behind, and the count on the bottom edge
            kit.paste(canvas, tile, x + 6, inner[1])
        kit.paste(canvas, tile, x, inner[1] + 6)
        if copies > 1:
            badge = kit.badge(f"×{copies}", t.highlight, 34)
            kit.paste(canvas, badge, x + (cw - badge.width) // 2, inner[1] + ch - 8)
    if not cards:
        kit.draw_text(d, (inner[0], inner[1] + 6), "no cards in hand", 22, t.dim)
    y += hand_h + 10
    if played_h:
        inner = kit.zone(d, (M, y, W - M, y + played_h), "PLAYED THIS ROUND", t, size=LABEL)
        text = ", ".join(card(c).name for c in played)
        kit.draw_text(d, (inner[0], inner[1] + 2), text, 22, t.text, max_w=inner[2] - inner[0])
        y += played_h + 10
    player_board(canvas, (M, y, W - M, y + PANEL_H), view, p, viewer, seat_names, t)
    y += PANEL_H + 10
    if last_h and last:
        text = kit.seat_refs(str(last["text"]), seat_names)
        kit.last_action_bar(canvas, (M, y, W - M, y + last_h), text, None, t)
    return canvas


def _prompt(view: JSON, viewer: int, names: list[str]) -> tuple[str, bool]:
    """What the viewer should do now, and whether it is their move."""
    if view.get("phase") == "over":
        return status_text(view, names), False
    if viewer in (view.get("to_act") or []):
        ap = (view.get("players") or [{}])[viewer].get("ap", 0)
        return f"Your turn · {ap} AP left · buy, play, summon or pass", True
    return f"Waiting for {kit.who(view.get('current'), names)}", False


# ---------------------------------------------------------------- warming the caches


def warm(theme: str | None = None) -> None:
    """Draw every card face, slot tile and token at the standard sizes now, so no board pays for them."""
    t = kit.theme(theme)
    sizes = {_market_tile(4), _market_tile(6)}
    for cid, c in CARDS.items():
        card_tile(cid, c.cost, 150, 168, t.name)
        for w, h in sizes:
            for extra in (0, 1, 2):
                card_tile(cid, c.cost + extra, w, h, t.name)
        slot_tile(cid, 150, ROW_H - 8, t.name)
    slot_tile(None, 150, ROW_H - 8, t.name)


TILE_CACHES = (card_tile, slot_tile, token)  # for benchmarks that measure a cold render
