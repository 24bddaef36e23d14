"""Omphala's board (public) and hand (private) images, drawn from its view JSON only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from engine.games.omphala import present
from engine.games.omphala.view import OmphalaView
from engine.table.present import CardEntry, plural
from render import kit
from render.kit import Box, Theme

JSON = dict[str, Any]
Entity = Sequence[str | None]

SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
TAB_H = 32  # height of a modifier tab under a card (its text is at least kit.MIN_TEXT)
TAB_OVERLAP = 7
LABEL = kit.MIN_TEXT  # zone label size
BADGE_H = 33  # power and ×2 badges: their text is at least kit.MIN_TEXT
ENTRIES: dict[str, CardEntry] = {e.id: e for e in present.catalogue()}


def power(code: str) -> int:
    """A card's power: Ace 1 to King 13 (0 for an unknown code)."""
    rank = code[:-1]
    return RANKS.index(rank) + 1 if rank in RANKS else 0


def label(code: str) -> str:
    """The card as people write it, e.g. "K♣"."""
    return code[:-1] + SUITS.get(code[-1:], "?")


def ink(code: str, t: Theme) -> kit.RGB:
    """Red for Hearts and Diamonds, black for Clubs and Spades."""
    return t.red_ink if code[-1:] in "DH" else t.black_ink


def entry(code: str) -> CardEntry:
    """The catalogue entry of a card code such as "KC" (an unknown code gets a blank black card)."""
    return ENTRIES.get(code) or CardEntry(code, code, "", short=code + "?", colour="black")


def tile(code: str, w: int, h: int, t: Theme) -> Image.Image:
    """A face-up card: the shared card face of its catalogue entry."""
    return kit.card_face(entry(code), w, h, t.name)


# ---------------------------------------------------------------- entities and rows


def entity_height(h: int) -> int:
    """The height a card entity may take: the card plus a modifier tab."""
    return h + TAB_H - TAB_OVERLAP


def draw_entity(
    canvas: Image.Image,
    x: int,
    y: int,
    cards: Entity,
    w: int,
    h: int,
    t: Theme,
    size: int | None = None,
    frame: kit.RGB | None = None,
) -> Box:
    """One entity (a base card and at most one modifier) at (x, y); face down where a card is None.

    A pair with both cards hidden is a stack of two backs marked ×2; a known modifier is a tab under the
    card; a face-up pair also gets a badge with its total power. Returns the card's box.
    """
    size = size if size is not None else len(cards)
    base = cards[0] if cards else None
    mod = cards[1] if len(cards) > 1 else None
    hidden_pair = size > 1 and base is None and mod is None
    if hidden_pair:
        kit.paste(canvas, kit.card_back(w, h, t.name), x, y - 5)
    if base is None:
        box = kit.paste(canvas, kit.card_back(w, h, t.name), x, y)
    else:
        box = kit.paste(canvas, tile(base, w, h, t), x, y)
        if frame is not None:
            radius = max(4, w // 10) + 2
            ImageDraw.Draw(canvas).rounded_rectangle(
                (x - 2, y - 2, x + w + 1, y + h + 1), radius, outline=frame, width=3
            )
    if hidden_pair:  # on the back's own middle: it covers no label
        pair = kit.badge("×2", t.highlight, BADGE_H)
        kit.paste(canvas, pair, x + (w - pair.width) // 2, y + (h - BADGE_H) // 2)
    elif size > 1:
        if mod is None:
            tab = kit.card_back(w - 2, TAB_H, t.name)
        else:
            tab = kit.modifier_tab(label(mod), ink(mod, t), w - 2, TAB_H, t.name)
        kit.paste(canvas, tab, x + 1, y + h - TAB_OVERLAP)
        if base is not None and mod is not None:  # the total over the card's own middle, not its corner
            total = kit.badge(str(power(base) + power(mod)), t.highlight, BADGE_H)
            kit.paste(canvas, total, x + (w - total.width) // 2, y + h * 62 // 100 - BADGE_H // 2)
    return box


def draw_row(
    canvas: Image.Image,
    area: Box,
    entities: Sequence[Entity],
    sizes: Sequence[int],
    w: int,
    h: int,
    t: Theme,
    frame: kit.RGB | None = None,
    mark: tuple[int, kit.RGB] | None = None,
    min_w: int | None = None,
) -> list[Box]:
    """A row of entities inside area: cards shrink (down to min_w) and then overlap to fit.

    mark = (index, colour) outlines one entity. Returns the card boxes.
    """
    x0, y0, x1, _ = area
    gap = 7
    n = len(entities)
    if min_w is not None and n * (w + gap) - gap > x1 - x0:
        fit = max(min_w, (x1 - x0 - gap * (n - 1)) // n)
        w, h = fit, h * fit // w
    step = kit.row_step(n, w, x1 - x0, gap)
    boxes = []
    d = ImageDraw.Draw(canvas)
    for i, (cards, size) in enumerate(zip(entities, sizes, strict=True)):
        x, y = x0 + i * step, y0 + 4
        if mark is not None and mark[0] == i:
            bottom = y + (entity_height(h) if size > 1 else h)
            kit.highlight(d, (x, y, x + w, bottom), mark[1], width=4, pad=4, double=mark[1] == t.bad)
        boxes.append(draw_entity(canvas, x, y, cards, w, h, t, size, frame))
    return boxes


def _front(p: Mapping[str, Any]) -> tuple[list[Entity], list[int]]:
    front = list(p.get("front_row") or [])
    entities = [e.get("cards") or [None] for e in front]
    return entities, [int(e.get("size", len(c))) for e, c in zip(front, entities, strict=True)]


# ---------------------------------------------------------------- text helpers


def _cards(n: int) -> str:
    return f"★ {plural(n, 'card')}"


def status_text(view: OmphalaView, names: list[str]) -> str:
    """Whose turn it is, in words (the game's own status headline)."""
    phase = view.get("phase")
    if phase == "choose":
        players = view.get("players") or []
        done = sum(1 for p in players if p.get("chosen"))
        return f"Choosing front rows · {done}/{len(players)} done"
    head = kit.status_of(present, view, names).headline
    pending = {"discard": " · discarding", "reshuffle": " · may reshuffle"}.get(view.get("pending") or "", "")
    return head if phase == "over" else f"Turn {view.get('turn', 0)} · {head}{pending}"


def _acting_colour(view: OmphalaView) -> kit.RGB:
    current = view.get("current")
    return kit.seat_colour(current) if isinstance(current, int) else (150, 150, 160)


# ---------------------------------------------------------------- the board


@dataclass(frozen=True, slots=True)
class Layout:
    """Sizes for one board: card sizes, front and back rows stacked or side by side, panel height."""

    cw: int
    ch: int
    fw: int
    fh: int
    stacked: bool  # front row above back row (few players), else side by side
    split: float  # share of the width for the front row when side by side
    panel_h: int


ZONE_HEAD = kit.zone_head(LABEL) + 1
PANEL_TOP = kit.PANEL_HEAD + 3
PILE_W, PILE_H = 58, 81  # deck and discard cards
PILES_H = ZONE_HEAD + PILE_H + 9
ROW_PAD = 6  # below a row of cards in its zone
HAND_CARD = (92, 129)  # the hand page: hand and back row cards
HAND_FRONT = (75, 105)  # the hand page: front row cards
MODIFIED_MIN_W = 52  # a modifier tab as wide as its card shows "10♦" at kit.MIN_TEXT


def layout(players: list[Mapping[str, Any]], choosing: bool) -> Layout:
    """Card sizes by player count; up to 3 players get full-width rows, more get side-by-side rows."""
    n = len(players)
    if choosing:  # no back rows yet: small backs, short panels
        return Layout(58, 81, 40, 56, False, 0.4, PANEL_TOP + ZONE_HEAD + 56 + 12)
    if n <= 3:
        cw, fw = 78, 64
        ch, fh = int(cw * 1.4), int(fw * 1.4)
        zones = ZONE_HEAD + entity_height(fh) + ROW_PAD + 6 + ZONE_HEAD + entity_height(ch) + ROW_PAD
        return Layout(cw, ch, fw, fh, True, 0.0, PANEL_TOP + zones)
    cw, fw = (64, 54) if n == 4 else (60, MODIFIED_MIN_W)
    ch, fh = int(cw * 1.4), int(fw * 1.4)
    # Face-down cards may overlap (a back says nothing); face-up ones need their full width.
    front_need = max([_front_need(p, fw) for p in players] + [3 * (fw + 7)])
    back_need = max([len(p.get("back_row") or []) for p in players] + [3]) * (cw + 7)
    split = min(0.5, max(0.3, front_need / (front_need + back_need)))
    return Layout(cw, ch, fw, fh, False, split, PANEL_TOP + ZONE_HEAD + entity_height(ch) + ROW_PAD)


def _front_need(p: Mapping[str, Any], fw: int) -> int:
    entities, _ = _front(p)
    return sum(fw + 7 if any(entities_i) else int(fw * 0.45) for entities_i in entities)


def board(view: OmphalaView, names: Sequence[str] | None = None, theme: str | None = None) -> Image.Image:
    """The public board: every player's rows, deck and discard, whose turn, the last action."""
    t = kit.theme(theme)
    seat_names = kit.view_names(view, names)
    players: list[Mapping[str, Any]] = list(view.get("players") or [])
    choosing = view.get("phase") == "choose" or all(p.get("back_row") is None for p in players)
    lay = layout(players, choosing)
    W, M = kit.WIDTH, kit.MARGIN
    G = kit.GAP
    top_h = kit.BANNER_H + G + PILES_H + G
    last_text = kit.seat_refs(str((view.get("last") or {}).get("text") or ""), seat_names)
    log = [kit.seat_refs(str(x), seat_names) for x in view.get("log") or []]
    log = [x for x in log if x != last_text][-3:]  # the last action has its own bar
    log_h = kit.log_height(len(log))
    H = M + top_h + len(players) * (lay.panel_h + G) + log_h + M - (0 if log_h else G)
    canvas = kit.new_canvas(W, H, t)

    status = status_text(view, seat_names)
    kit.banner(canvas, (M, M, W - M, M + kit.BANNER_H), "Omphala", status, _acting_colour(view), t)
    y = M + kit.BANNER_H + G
    _piles(canvas, (M, y, W - M, y + PILES_H), view, t, seat_names)
    y += PILES_H + G

    last = view.get("last") or None
    over = view.get("phase") == "over"
    result = view.get("result") or {}
    winners = set(result.get("winners") or [])
    to_act = set(view.get("to_act") or [])
    for i, p in enumerate(players):
        seat = int(p.get("seat", i))
        chips = [_cards(int(p.get("cards", 0)))]
        if over and result.get("power"):
            chips.append(f"power {result['power'][seat]}")
        if p.get("hand_size"):
            chips.append(f"hand {p['hand_size']}")
        tag, tag_colour = "", None
        if over and seat in winners:
            tag, tag_colour = "WINNER", t.good
        elif view.get("phase") == "choose":
            tag, tag_colour = ("chosen", t.good) if p.get("chosen") else ("choosing…", t.highlight)
        content = kit.player_panel(
            canvas, (M, y, W - M, y + lay.panel_h), kit.who(seat, seat_names), seat, t, chips,
            active=seat in to_act, tag=tag, tag_colour=tag_colour,
        )  # fmt: skip
        if choosing:
            _choosing_rows(canvas, content, p, t, lay)
        else:
            _rows(canvas, content, p, seat, last, t, lay)
        y += lay.panel_h + G

    if log:
        kit.log_lines(canvas, (M, y, W - M, y + log_h), log, t)
    return canvas


def _piles(canvas: Image.Image, box: Box, view: OmphalaView, t: Theme, names: list[str]) -> None:
    """Deck and discard counts with the discard's top card, and the last action beside them."""
    d = ImageDraw.Draw(canvas)
    x0, y0, x1, y1 = box
    pile_w = 2 * PILE_W + 65
    inner = kit.zone(d, (x0, y0, x0 + pile_w, y1), "PILES", t, size=LABEL)
    cw, ch = PILE_W, PILE_H
    deck = int(view.get("deck") or 0)
    if deck:
        kit.paste(canvas, kit.card_back(cw, ch, t.name, str(deck)), inner[0], inner[1])
    else:
        d.rounded_rectangle((inner[0], inner[1], inner[0] + cw, inner[1] + ch), 5, outline=t.border, width=2)
        kit.draw_text(d, (inner[0] + cw // 2, inner[1] + ch // 2), "0", LABEL, t.dim, True, anchor="mm")
    discard = list(view.get("discard") or [])
    dx = inner[0] + cw + 14
    if discard:
        if len(discard) > 1:
            kit.paste(canvas, tile(discard[-2], cw, ch, t), dx + 4, inner[1] - 2)
        kit.paste(canvas, tile(discard[-1], cw, ch, t), dx, inner[1])
    else:
        d.rounded_rectangle((dx, inner[1], dx + cw, inner[1] + ch), 5, outline=t.border, width=2)
    kit.draw_text(d, (dx + cw + 8, inner[1] + ch - 3), f"{len(discard)}", LABEL, t.text, True, anchor="ld")
    last = view.get("last") or None
    right = (x0 + pile_w + 9, y0, x1, y1)
    if last and last.get("text"):
        text = kit.seat_refs(str(last["text"]), names)
        kit.last_action_bar(canvas, right, text, last.get("success"), t)
    else:
        inner = kit.zone(d, right, "NO ACTION YET", t, size=LABEL)
        if view.get("phase") == "choose":
            hint = "Everyone secretly places 2 cards face down as their front row."
            for i, line in enumerate(kit.wrap_text(hint, kit.font(LABEL), inner[2] - inner[0], 3)):
                kit.draw_text(d, (inner[0], inner[1] + i * kit.LINE_H), line, LABEL, t.text)


def _choosing_rows(canvas: Image.Image, content: Box, p: Mapping[str, Any], t: Theme, lay: Layout) -> None:
    """During the choose phase: the chosen front row (face down) and the cards still in hand, as backs."""
    d = ImageDraw.Draw(canvas)
    x0, y0, x1, y1 = content
    split = x0 + int((x1 - x0) * lay.split)
    entities, sizes = _front(p)
    f_inner = kit.zone(d, (x0, y0, split - 6, y1), f"FRONT ROW · {len(entities)}", t, size=LABEL)
    draw_row(canvas, f_inner, entities, sizes, lay.fw, lay.fh, t)
    if not entities:
        kit.draw_text(d, (f_inner[0], f_inner[1] + 14), "not chosen yet", LABEL, t.dim)
    n = int(p.get("hand_size") or 0)
    h_inner = kit.zone(d, (split + 6, y0, x1, y1), f"HAND · {n}", t, size=LABEL)
    draw_row(canvas, h_inner, [[None]] * n, [1] * n, lay.fw, lay.fh, t)
    if not n:
        kit.draw_text(d, (h_inner[0], h_inner[1] + 14), "waits for the others", LABEL, t.dim)


def _rows(
    canvas: Image.Image,
    content: Box,
    p: Mapping[str, Any],
    seat: int,
    last: JSON | None,
    t: Theme,
    lay: Layout,
) -> None:
    """A player's front row (left) and back row (right) inside a panel's content box."""
    d = ImageDraw.Draw(canvas)
    x0, y0, x1, y1 = content
    if lay.stacked:
        mid = y0 + ZONE_HEAD + entity_height(lay.fh) + ROW_PAD
        front_box, back_box = (x0, y0, x1, mid), (x0, mid + 6, x1, y1)
    else:
        split = x0 + int((x1 - x0) * lay.split)
        front_box, back_box = (x0, y0, split - 4, y1), (split + 4, y0, x1, y1)
    entities, sizes = _front(p)
    back = p.get("back_row")
    f_inner = kit.zone(d, front_box, f"FRONT ROW · {len(entities)}", t, size=LABEL)
    b_inner = kit.zone(d, back_box, "BACK ROW" if back is None else f"BACK ROW · {len(back)}", t, size=LABEL)

    # The last action's target: its card outlined, or its whole zone if the card is gone.
    target = (last or {}).get("target") or None
    f_mark = b_mark = None
    if target and target.get("player") == seat and last is not None:
        gone = bool(last.get("success")) and last.get("kind") in ("attack", "steal")
        colour = t.bad if gone else t.highlight
        in_front = target.get("zone") == "front"
        idx = target.get("index")
        count = len(entities) if in_front else len(back or [])
        if gone or not isinstance(idx, int) or not 0 <= idx < count:
            kit.highlight(d, front_box if in_front else back_box, colour, width=3, pad=0, double=gone)
        elif in_front:
            f_mark = (idx, colour)
        else:
            b_mark = (idx, colour)

    draw_row(canvas, f_inner, entities, sizes, lay.fw, lay.fh, t, mark=f_mark, min_w=lay.fw * 3 // 4)
    if not entities:
        kit.draw_text(d, (f_inner[0], f_inner[1] + 14), "empty", LABEL, t.dim)
    if back is None:
        kit.draw_text(d, (b_inner[0], b_inner[1] + 14), "hidden", LABEL, t.dim, max_w=b_inner[2] - b_inner[0])
    elif not back:
        kit.draw_text(d, (b_inner[0], b_inner[1] + 14), "empty", LABEL, t.dim)
    else:
        draw_row(
            canvas,
            b_inner,
            back,
            [len(e) for e in back],
            lay.cw,
            lay.ch,
            t,
            mark=b_mark,
            min_w=lay.cw * 3 // 4,
        )


# ---------------------------------------------------------------- the hand


def _hand(
    view: OmphalaView, names: Sequence[str] | None, p: Mapping[str, Any], viewer: int, t: Theme
) -> Image.Image:
    """The private image for view["viewer"]: their hand, their front row revealed to them, their back row."""
    seat_names = kit.view_names(view, names)
    cw, ch = HAND_CARD
    fw, fh = HAND_FRONT
    hand_cards = list(p.get("hand") or [])
    entities, sizes = _front(p)
    back = list(p.get("back_row") or [])
    last = view.get("last") or {}

    def draw_hand(canvas: Image.Image, box: Box) -> None:
        inner = kit.zone(ImageDraw.Draw(canvas), box, f"HAND · {len(hand_cards)}", t, size=LABEL)
        draw_row(canvas, inner, [[c] for c in hand_cards], [1] * len(hand_cards), cw, ch, t)

    def draw_front(canvas: Image.Image, box: Box) -> None:
        d = ImageDraw.Draw(canvas)
        inner = kit.zone(d, box, f"FRONT ROW · {len(entities)} · your score", t, size=LABEL)
        draw_row(canvas, inner, entities, sizes, fw, fh, t, frame=t.back, min_w=MODIFIED_MIN_W)
        if not entities:
            msg = "choose 2 cards from your hand" if hand_cards else "empty"
            kit.draw_text(d, (inner[0], inner[1] + 6), msg, LABEL, t.dim)

    def draw_back(canvas: Image.Image, box: Box) -> None:
        d = ImageDraw.Draw(canvas)
        inner = kit.zone(d, box, f"BACK ROW · {len(back)}", t, size=LABEL)
        draw_row(canvas, inner, back, [len(e) for e in back], cw, ch, t, min_w=69)
        if not back:
            kit.draw_text(d, (inner[0], inner[1] + 6), "empty", LABEL, t.dim)

    sections: list[kit.Section] = []
    if hand_cards:
        sections.append((ZONE_HEAD + ch + ROW_PAD + 2, draw_hand))
    sections.append((ZONE_HEAD + (entity_height(fh) + ROW_PAD if entities else 36), draw_front))
    if back or not hand_cards:
        sections.append((ZONE_HEAD + (entity_height(ch) + ROW_PAD if back else 36), draw_back))
    chips = [f"deck {view.get('deck', 0)}", _cards(int(p.get("cards", 0)))]
    heading = f"Your cards · {seat_names[viewer]}"
    last_text = kit.seat_refs(str(last.get("text") or ""), seat_names)
    prompt = kit.hand_prompt(present, view, seat_names)
    return kit.hand_page("Omphala", heading, viewer, prompt, sections, last_text, t, chips)


hand = kit.own_hand("Omphala", _hand)


# ---------------------------------------------------------------- warming the caches


def warm(theme: str | None = None) -> None:
    """Draw every card face, back and modifier tab at the standard sizes now, so no board pays for them."""
    t = kit.theme(theme)
    sizes = {(PILE_W, PILE_H), HAND_CARD, HAND_FRONT}  # piles, hand cards, hand front row
    for n in (2, 4, 6):
        lay = layout([{"seat": i} for i in range(n)], choosing=False)
        sizes |= {(lay.cw, lay.ch), (lay.fw, lay.fh)}
    for w, h in sorted(sizes):
        kit.card_back(w, h, t.name)
        for code in ENTRIES:
            tile(code, w, h, t)
            if code[-1] in "DH":
                kit.modifier_tab(label(code), ink(code, t), w - 2, TAB_H, t.name)
