"""Ophion's board (public) and hand (private) images, drawn from its view JSON and the printed card data."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.games.ophion import present
from engine.games.ophion.cards import CARDS, Card
from engine.games.ophion.view import OphionView
from engine.table.present import CardEntry
from render import kit
from render.kit import Box, Theme

JSON = dict[str, Any]

LABEL = kit.MIN_TEXT  # zone label size
ENTRIES: dict[str, CardEntry] = {e.id: e for e in present.catalogue()}
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
EFFECT_WORDS = {"gold": "gold", "mana": "mana", "ap": "AP", "vp": "VP"}
TRACK_H = 35  # the VP track and the mana, gold and AP chips
SLOT_H = 58  # upgrade slots
TOKEN_H = 40
GRID_H = kit.zone_head(LABEL) + TOKEN_H + 5  # a grid zone: label, tokens, padding
PANEL_H = kit.PANEL_HEAD + 3 + TRACK_H + 6 + SLOT_H + 6 + GRID_H + 5
BADGE_H = 33  # ×N and eternity badges: their text is at least kit.MIN_TEXT
PILES_W = 137  # deck and discard beside the upgrade slots
SLOT_W = (kit.WIDTH - 2 * kit.MARGIN - 23 - PILES_W - 3 * 6) // 3  # the panel's content is 23 px narrower
CARD_H = 190  # market and hand cards: a name of two lines, three stat rows and the discs, all readable
HAND_W, HAND_H = 130, CARD_H
MAX_SLOTS = 8


def card(cid: str) -> Card:
    """The printed card for an id (an unknown id gets a blank action card named after it)."""
    return CARDS.get(cid) or Card(id=cid, name=cid, type="action", cost=0, tier=0, count=0)


# ---------------------------------------------------------------- card tiles


def entry(cid: str) -> CardEntry:
    """The catalogue entry of a card id (an unknown id gets a blank action card named after it)."""
    got = ENTRIES.get(cid)
    if got is None and cid in CARDS:  # a card pack's card (engine/packs.py): known while its game is live
        got = present.card_entry(CARDS[cid])
    return got or CardEntry(cid, cid, "action")


@lru_cache(maxsize=512)
def card_tile(cid: str, price: int, w: int, h: int, theme_name: str = "dark") -> Image.Image:
    """A card: the shared card face of its entry, with the price in the gold disc (bottom right) and, for a
    monster, the mana to summon it in the blue disc (bottom left)."""
    c = card(cid)
    band = TYPE_COLOURS.get(c.type)
    foot = f"T{c.tier}" if c.tier else "START"
    coin = (str(price), COIN)
    if c.type == "monster":
        return kit.card_face(entry(cid), w, h, theme_name, band, ("Attack", "Defense", "Size"),
                             discs=((str(c.mana), MANA), coin), foot=foot)  # fmt: skip
    unit = EFFECT_WORDS.get(c.effect, c.effect.upper()) + ("\nper round" if c.type == "upgrade" else "")
    return kit.card_face(entry(cid), w, h, theme_name, band, headline=f"+{c.amount}", sub=unit,
                         discs=(None, coin), foot=foot)  # fmt: skip


@lru_cache(maxsize=256)
def slot_tile(cid: str | None, w: int, h: int, theme_name: str = "dark") -> Image.Image:
    """An upgrade slot (RGBA, cached): the card's name and what it gives, or an empty dashed slot."""
    t = kit.theme(theme_name)
    s = kit.SUPERSAMPLE
    W, H = w * s, h * s
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    text = kit.font(kit.MIN_TEXT * s)
    if cid is None:
        d.rounded_rectangle((0, 0, W - 1, H - 1), 6 * s, fill=t.zone, outline=t.border, width=2 * s)
        d.text((W // 2, H // 2), "empty slot", font=text, fill=t.dim, anchor="mm")
        return img.reduce(s)
    c = card(cid)
    colour = MONSTER_COLOURS.get(cid) or TYPE_COLOURS.get(c.type, t.card_dim)
    d.rounded_rectangle((0, 0, W - 1, H - 1), 6 * s, fill=t.card_face, outline=t.card_edge, width=2 * s)
    d.rounded_rectangle((0, 0, 9 * s, H - 1), 4 * s, fill=colour)
    name = c.name.removesuffix(" Upgrade")
    name_f, lines = kit.name_lines(name, W - 20 * s, kit.MIN_TEXT * s, max_lines=1)
    d.text((15 * s, H * 0.3), lines[0], font=name_f, fill=t.black_ink, anchor="lm")
    what = f"{c.mana} mana" if c.type == "monster" else "every round"
    d.text((15 * s, H * 0.72), kit.fit_text(what, text, W - 20 * s), font=text, fill=t.card_dim, anchor="lm")
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
    d.rounded_rectangle((0, 0, W - 1, H - 1), 7 * s, fill=colour, outline=(250, 250, 250), width=2 * s)
    stats = f"{c.attack}/{c.defense}"
    stats_f = kit.font(kit.MIN_TEXT * s, True)
    name = c.name.split()[-1]  # "Archer": a token is at most half a panel wide
    name_f = kit.font(kit.MIN_TEXT * s, True)
    if name_f.getlength(name) + stats_f.getlength(stats) + 22 * s <= W:
        d.text((7 * s, H // 2), name, font=name_f, fill=ink, anchor="lm")
        d.text((W - 7 * s, H // 2), stats, font=stats_f, fill=ink, anchor="rm")
    else:  # a Size-1 token: the numbers matter most; the colour names the monster (see the legend)
        d.text((W // 2, H // 2), stats, font=stats_f, fill=ink, anchor="mm")
    return img.reduce(s)


# ---------------------------------------------------------------- text


def status_text(view: OphionView, names: list[str]) -> str:
    """Round, tier and whose turn it is, in words (the game's own status headline)."""
    head = kit.status_of(present, view, names).headline
    if view.get("phase") == "over":
        return head
    return f"Round {view.get('round', 0)}/{view.get('rounds', 9)} · {head.split(' · round')[0]}"


def _acting_colour(view: OphionView) -> kit.RGB:
    current = view.get("current")
    return kit.seat_colour(current) if isinstance(current, int) else (150, 150, 160)


# ---------------------------------------------------------------- the board


def board(view: OphionView, names: Sequence[str] | None = None, theme: str | None = None) -> Image.Image:
    """The public board: market with prices, every player's board, whose turn, last action, log."""
    t = kit.theme(theme)
    seat_names = kit.view_names(view, names)
    players: list[Mapping[str, Any]] = list(view.get("players") or [])
    W, M = kit.WIDTH, kit.MARGIN
    market = _slots(view)
    tw, th = _market_tile(len(market))
    market_h = kit.zone_head(LABEL) + th + NOTE_H + LEGEND_H
    last_text = kit.seat_refs(str((view.get("last") or {}).get("text") or ""), seat_names)
    last_h = kit.last_height(last_text)
    log = [kit.seat_refs(str(x), seat_names) for x in view.get("log") or []]
    log = [x for x in log if x != last_text][-3:]  # the last action has its own bar
    log_h = kit.log_height(len(log))
    G = kit.GAP
    H = M + kit.BANNER_H + G + market_h + G + (last_h + G if last_h else 0) + len(players) * (PANEL_H + G)
    H += log_h + M - (0 if log_h else G)
    canvas = kit.new_canvas(W, H, t)

    status = status_text(view, seat_names)
    kit.banner(canvas, (M, M, W - M, M + kit.BANNER_H), "Ophion", status, _acting_colour(view), t)
    y = M + kit.BANNER_H + G
    _market(canvas, (M, y, W - M, y + market_h), view, tw, th, t)
    y += market_h + G
    if last_h:
        kit.last_action_bar(canvas, (M, y, W - M, y + last_h), last_text, None, t)
        y += last_h + G
    for i, p in enumerate(players):
        player_board(canvas, (M, y, W - M, y + PANEL_H), view, p, i, seat_names, t)
        y += PANEL_H + G
    if log:
        kit.log_lines(canvas, (M, y, W - M, y + log_h), log, t)
    return canvas


NOTE_H = kit.LINE_H + 6  # the surcharge under a market card
LEGEND_H = kit.LINE_H + 10  # what the discs mean


def _slots(view: OphionView) -> list[Mapping[str, Any] | None]:
    """The market slots (at most MAX_SLOTS drawn; a real row has 4 or 6), each None or a dict."""
    slots = list(view.get("market") or [])[:MAX_SLOTS]
    return [x if x is None or isinstance(x, dict) else {"card": str(x)} for x in slots]


def _market_tile(n: int) -> tuple[int, int]:
    """Market card size: as large as fits the row (4 slots with 2 players, else 6)."""
    room = kit.WIDTH - 2 * kit.MARGIN - 12
    return min(145, (room - 7 * (max(n, 1) - 1)) // max(n, 1)), CARD_H


def _market(canvas: Image.Image, box: Box, view: OphionView, tw: int, th: int, t: Theme) -> None:
    """The market row, cheapest slot first, each with its price (cost + surcharge) on the gold disc, the
    surcharge under it, and a legend of the discs."""
    d = ImageDraw.Draw(canvas)
    decks = f"DECKS T1 {view.get('tier1_size', 0)} · T2 {view.get('tier2_size', 0)}"
    inner = kit.zone(d, box, f"MARKET · TIER {view.get('tier', 1)} · {decks}", t, size=LABEL)
    market = _slots(view)
    step = tw + 7
    x = inner[0] + max(0, (inner[2] - inner[0] - step * len(market) + 7) // 2)
    for slot in market:
        y = inner[1]
        if slot is None:
            d.rounded_rectangle((x, y, x + tw, y + th), 7, outline=t.border, width=2)
            kit.draw_text(d, (x + tw // 2, y + th // 2), "empty", LABEL, t.dim, anchor="mm")
        else:
            price = int(slot.get("price") or 0)
            cid = str(slot.get("card") or slot.get("name") or "?")
            kit.paste(canvas, card_tile(cid, price, tw, th, t.name), x, y)
            extra = int(slot.get("surcharge") or 0)
            if extra:
                note = (x + tw // 2, y + th + NOTE_H // 2 + 2)
                kit.draw_text(
                    d, note, f"+{extra} extra", LABEL, t.highlight_text, True, max_w=tw, anchor="mm"
                )
        x += step
    _legend(d, (inner[0], box[3] - LEGEND_H // 2 - 4), t)


def _legend(d: ImageDraw.ImageDraw, xy: tuple[int, int], t: Theme) -> None:
    """What the discs on the cards mean: gold = price, blue = mana to summon; "+N extra" = surcharge."""
    x, cy = xy
    r = kit.MIN_TEXT // 2
    for fill, text in ((COIN, "price in gold"), (MANA, "mana to summon")):
        d.ellipse((x, cy - r, x + 2 * r, cy + r), fill=fill, outline=t.card_edge)
        x += 2 * r + 6
        x += kit.draw_text(d, (x, cy), text, LABEL, t.dim, anchor="lm") + 20
    kit.draw_text(d, (x, cy), "+N extra: slot surcharge", LABEL, t.dim, anchor="lm")


def _grid_name(view: OphionView, seat: int, names: list[str]) -> str:
    """Whom this seat attacks: the player on its right, the previous seat."""
    n = int(view.get("num_players") or len(view.get("players") or []))
    return kit.who((seat - 1) % n, names) if n > 1 else "?"


def player_board(
    canvas: Image.Image, box: Box, view: OphionView, p: Mapping[str, Any], i: int, names: list[str], t: Theme
) -> None:
    """One player's panel: VP track, eternity tokens, resources, upgrade slots and piles, both grids."""
    d = ImageDraw.Draw(canvas)
    seat = int(p.get("seat", i))
    over = view.get("phase") == "over"
    result = view.get("result") or {}
    last = view.get("last") or None
    scores = result.get("scores") or []
    vp = f"★ {scores[seat]} VP" if over and seat < len(scores) else f"★ {p.get('total', 0)} VP"
    chips = [f"hand {p.get('hand_size', 0)}", vp]
    tag, tag_colour = "", None
    if over and seat in (result.get("winners") or []):
        tag, tag_colour = "WINNER", t.good
    elif p.get("passed") and not over:
        tag, tag_colour = "passed", t.border
    content = kit.player_panel(
        canvas, box, kit.who(seat, names), seat, t, chips, active=seat in (view.get("to_act") or []),
        tag=tag, tag_colour=tag_colour,
    )  # fmt: skip
    x0, y0, x1, _ = content
    _tracks(canvas, (x0, y0, x1, y0 + TRACK_H), p, t)
    sy = y0 + TRACK_H + 6
    piles_w, slot_w = PILES_W, SLOT_W
    mark_slot = _marked_slot(last, p, seat)
    for k, cid in enumerate(list(p.get("upgrades") or [])[:3]):
        b = kit.paste(canvas, slot_tile(cid, slot_w, SLOT_H, t.name), x0 + k * (slot_w + 6), sy)
        if k == mark_slot:
            kit.highlight(d, b, t.highlight, width=3, pad=2)
    px = x1 - piles_w + 6
    for k, line in enumerate((f"deck {p.get('deck_size', 0)}", f"discard {p.get('discard_size', 0)}")):
        kit.draw_text(d, (px, sy + 3 + k * kit.LINE_H), line, LABEL, t.dim, max_w=piles_w - 6)
    gy = sy + SLOT_H + 6
    mid = (x0 + x1) // 2
    cap = int(p.get("grid_capacity") or 6)
    mark_grid = _marked_grid(last, seat)
    atk_label = f"ATTACK {p.get('attack', 0)} → {_grid_name(view, seat, names)}"
    def_label = f"DEFENSE {p.get('defense', 0)}"
    grids = (
        ((x0, gy, mid - 4, gy + GRID_H), atk_label, p.get("attack_grid") or [], "attack"),
        ((mid + 4, gy, x1, gy + GRID_H), def_label, p.get("defense_grid") or [], "defense"),
    )
    for gbox, label, monsters, kind in grids:
        _grid(canvas, gbox, label, list(monsters), cap, t, mark_last=mark_grid == kind)


def _marked_slot(last: JSON | None, p: Mapping[str, Any], seat: int) -> int | None:
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


def _tracks(canvas: Image.Image, box: Box, p: Mapping[str, Any], t: Theme) -> None:
    """The VP track (0-9) with eternity tokens on the left; mana, gold and AP on the right."""
    d = ImageDraw.Draw(canvas)
    x0, y0, x1, y1 = box
    cy = (y0 + y1) // 2
    right = x1
    for text, fill in reversed(((f"mana {p.get('mana', 0)}", MANA), (f"gold {p.get('gold', 0)}", COIN),
                                (f"AP {p.get('ap', 0)}", AP))):  # fmt: skip
        right = (
            kit.chip(d, (right, cy), text, t, fill=fill, ink=kit.contrast_ink(fill), anchor_right=True)[0] - 6
        )
    x = x0 + kit.draw_text(d, (x0, cy), "VP", LABEL, t.dim, True, anchor="lm") + 6
    vp = int(p.get("vp", 0))
    cell = 14
    for k in range(10):
        d.rounded_rectangle((x, cy - 10, x + cell - 2, cy + 10), 4, fill=t.highlight if k < vp else t.zone,
                            outline=t.border)  # fmt: skip
        x += cell + 1
    x += kit.draw_text(d, (x + 6, cy), str(vp), LABEL, t.text, True, anchor="lm") + 14
    eternity = int(p.get("eternity", 0))
    if eternity:
        tile = kit.badge(f"∞ {eternity}×10", COIN, BADGE_H)
        if x + tile.width <= right:
            kit.paste(canvas, tile, x, cy - BADGE_H // 2)


def _grid(
    canvas: Image.Image, box: Box, label: str, monsters: list[str], cap: int, t: Theme, mark_last: bool
) -> None:
    """A monster grid: capacity cells, and a token per monster as wide as its Size."""
    d = ImageDraw.Draw(canvas)
    inner = kit.zone(d, box, label, t, size=LABEL)
    x0, y0, x1, _ = inner
    unit = (x1 - x0) // max(cap, 1)
    th = TOKEN_H
    used = sum(max(1, card(m).size) for m in monsters)
    for k in range(min(used, cap), cap):  # the free capacity, one cell per unit of Size
        d.rounded_rectangle((x0 + k * unit + 2, y0, x0 + (k + 1) * unit - 2, y0 + th), 6, outline=t.border)
    x = x0
    for k, m in enumerate(monsters):
        size = max(1, card(m).size)
        w = min(unit * size, x1 - x) - 4
        if w < 20:
            break
        b = kit.paste(canvas, token(m, w, th, t.name), x + 2, y0)
        if mark_last and k == len(monsters) - 1:
            kit.highlight(d, b, t.highlight, width=3, pad=2)
        x += unit * size


# ---------------------------------------------------------------- the hand


def _hand(
    view: OphionView, names: Sequence[str] | None, p: Mapping[str, Any], viewer: int, t: Theme
) -> Image.Image:
    """The private image for view["viewer"]: their hand as cards, the cards played this round, their board."""
    seat_names = kit.view_names(view, names)
    cards = list(p.get("hand") or [])
    played = list(p.get("played") or [])
    cw, ch = HAND_W, HAND_H
    head = kit.zone_head(LABEL)

    def draw_hand(canvas: Image.Image, box: Box) -> None:
        d = ImageDraw.Draw(canvas)
        inner = kit.zone(d, box, f"HAND · {len(cards)}", t, size=LABEL)
        kinds = list(dict.fromkeys(cards))  # copies of a card are one tile with a ×N badge under it
        step = kit.row_step(len(kinds), cw, inner[2] - inner[0] - 7, 10)
        for k, cid in enumerate(kinds):
            x, copies = inner[0] + k * step, cards.count(cid)
            tile = card_tile(cid, card(cid).cost, cw, ch, t.name)
            if copies > 1:  # a second card peeking out behind
                kit.paste(canvas, tile, x + 4, inner[1])
            kit.paste(canvas, tile, x, inner[1] + 4)
            if copies > 1:
                badge = kit.badge(f"×{copies}", t.highlight, BADGE_H)
                kit.paste(canvas, badge, x + (cw - badge.width) // 2, inner[1] + ch + 9)
        if not cards:
            kit.draw_text(d, (inner[0], inner[1] + 6), "no cards in hand", LABEL, t.dim)

    def draw_played(canvas: Image.Image, box: Box) -> None:
        d = ImageDraw.Draw(canvas)
        inner = kit.zone(d, box, "PLAYED THIS ROUND", t, size=LABEL)
        text = ", ".join(card(c).name for c in played)
        kit.draw_text(d, (inner[0], inner[1] + 2), text, LABEL, t.text, max_w=inner[2] - inner[0])

    def draw_board(canvas: Image.Image, box: Box) -> None:
        player_board(canvas, box, view, p, viewer, seat_names, t)

    badges = BADGE_H + 12 if len(set(cards)) < len(cards) else 0
    sections: list[kit.Section] = [(head + (ch + 12 + badges if cards else kit.LINE_H + 9), draw_hand)]
    if played:
        sections.append((head + kit.LINE_H + 7, draw_played))
    sections.append((PANEL_H, draw_board))
    heading = f"Your hand · Round {view.get('round', 0)}/{view.get('rounds', 9)} · Tier {view.get('tier', 1)}"
    last_text = kit.seat_refs(str((view.get("last") or {}).get("text") or ""), seat_names)
    chips = ["gold disc = cost"] if cards else []
    prompt = kit.hand_prompt(present, view, seat_names)
    return kit.hand_page("Ophion", heading, viewer, prompt, sections, last_text, t, chips)


hand = kit.own_hand("Ophion", _hand)


# ---------------------------------------------------------------- warming the caches


def warm(theme: str | None = None) -> None:
    """Draw every card face, slot tile and token at the standard sizes now, so no board pays for them."""
    t = kit.theme(theme)
    sizes = {_market_tile(4), _market_tile(6)}
    for cid, c in CARDS.items():
        card_tile(cid, c.cost, HAND_W, HAND_H, t.name)
        for w, h in sizes:
            for extra in (0, 1, 2):
                card_tile(cid, c.cost + extra, w, h, t.name)
        slot_tile(cid, SLOT_W, SLOT_H, t.name)
    slot_tile(None, SLOT_W, SLOT_H, t.name)


TILE_CACHES = (card_tile, slot_tile, token)  # for benchmarks that measure a cold render


# ---------------------------------------------------------------- the colours that tell things apart


def palettes(t: Theme) -> dict[str, kit.Palette]:
    """The colours that tell things apart on Ophion's images, by group (checked by tests/render/
    test_colours.py with kit's own)."""
    return {
        "card types": kit.Palette(
            dict(TYPE_COLOURS),
            cue="a monster shows Attack, Defense and Size; an action its +N; an upgrade says 'per round'",
        ),
        "monsters": kit.Palette(
            dict(MONSTER_COLOURS), cue="the monster's name and attack/defense on its token"
        ),
        "discs": kit.Palette(
            {"price": COIN, "mana": MANA}, cue="position: the price bottom right, mana left"
        ),
    }


def text_pairs(t: Theme) -> list[kit.TextPair]:
    """Ophion's own text inks on what they are drawn on (for the contrast check)."""
    fills = {**TYPE_COLOURS, **MONSTER_COLOURS, "price disc": COIN, "mana disc": MANA, "AP chip": AP}
    return [(f"text on {k}", kit.contrast_ink(c), c) for k, c in fills.items()]
