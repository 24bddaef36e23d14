"""Ophelia's board (public) and hand (private) images, drawn from its view JSON and the printed card data.

The board, top to bottom: the banner (round, whose turn), the round track 1-2-3-2-1 with the phases of a
turn and the last round's result, P2's panel, the field (P2's five slots on top, the column strip, P1's
five slots below; the middle column tinted, the outer columns named, a red line and red frames joining
two contesting cards), P1's panel, and the last lines of the log. A card in a slot shows its name, type,
Power, Initiative and Life as computed now (Life as remaining/total), a modified stat in green or red with
an up or down mark, and its attached relics as tabs beside it (above the card in the top row, below it in
the bottom row, so the contesting cards always face each other across the strip).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.games.ophelia import present
from engine.games.ophelia.cards import CARDS
from engine.games.ophelia.view import OpheliaView
from engine.table.present import CardEntry
from render import kit
from render.kit import Box, Theme

JSON = dict[str, Any]

LABEL = kit.MIN_TEXT  # zone labels and every small text
_int, _seat = kit.as_int, kit.as_seat  # the view readers
WIN = 5  # points that win the game (rules: "enough rounds to secure 5 points")
COLUMNS = 5
MIDDLE = 2  # the middle column (0-based); 0 and 4 are the outer slots
FACTION_COLOURS: dict[str, kit.RGB] = {
    "crown": (118, 72, 160),  # royal purple
    "lyceum": (156, 96, 0),  # bronze
    "tide": (36, 72, 96),  # deep sea
}
TYPE_WORDS = {"character": "Character", "relic": "Relic", "turning_point": "Turning Point"}
STAT_ROWS = (("power", "Power"), ("initiative", "Init"), ("life", "Life"))  # on a card in a slot
UP: kit.RGB = (22, 128, 58)  # a raised stat, on card stock
DOWN: kit.RGB = (196, 30, 40)  # a lowered stat or damage, on card stock
PHASES = (("action", "Action"), ("turning_point", "Turning Point"), ("contest", "Contest"), ("end", "End"))
STEP_WORDS = {1: "most Power in the middle slot", 2: "most Power on the board", 3: "went second"}

# The field: five columns of cards between a seat-coloured bar on the left of each row.
BAR_W = 8  # the seat colour bar beside a row
CARD_GAP = 6
FIELD_W = kit.WIDTH - 2 * kit.MARGIN - 12  # the field zone's inner width
CARD_W = (FIELD_W - BAR_W - CARD_GAP - (COLUMNS - 1) * CARD_GAP) // COLUMNS
NAME_LINE = int(kit.MIN_TEXT * 1.1)  # a line of a name on a card
BAND_H = 2 * NAME_LINE + 10  # the name band: two lines of the name
TYPE_H = 28
STAT_H = 27
CARD_H = BAND_H + TYPE_H + 3 * STAT_H + 6
TAB_H = 2 * NAME_LINE + 10  # an attached relic: its name in up to two lines
TAB_GAP = 4
MAX_TABS = 3  # attached relics shown on a card (the last tab counts the rest)
STRIP_H = int(kit.MIN_TEXT * 1.5) + 8  # the column strip between the rows
CONTEST_W = 6  # the red contest line

PANEL_H = kit.PANEL_HEAD + 3 + 34 + 6  # name line, then the piles line
CELL_W, CELL_H = 34, 34  # a round on the track
HAND_ROW_W = kit.WIDTH - 2 * kit.MARGIN - 12


# ---------------------------------------------------------------- cards


@cache
def entries() -> dict[str, CardEntry]:
    """The presentation catalogue by id (engine/games/ophelia/present.py)."""
    return {e.id: e for e in present.catalogue()}


def entry(cid: str) -> CardEntry:
    """The catalogue entry of a card id (an unknown id gets a blank character named after it)."""
    got = entries().get(cid)
    if got is None and cid in CARDS:  # a card pack's card (engine/packs.py): known while its game is live
        got = present.card_entry(cid)
    return got or CardEntry(cid, cid, "character")


def faction(cid: str) -> str:
    """A card's faction id ("" for an unknown card)."""
    spec = CARDS.get(cid)
    return spec.faction if spec is not None else ""


def card_name(cid: str) -> str:
    """A card's printed name (its id when unknown)."""
    spec = CARDS.get(cid)
    return spec.name if spec is not None else entry(cid).name


ARTICLES = ("The ", "An ", "A ")


@lru_cache(maxsize=512)
def name_fit(name: str, max_w: int, size: int, max_lines: int = 2) -> tuple[Any, list[str]]:
    """A name in at most max_lines of max_w at this size (kit.name_lines), cut cleanly when it is too long:
    first without its leading article ("The Oseberg Ship" -> "Oseberg Ship"), then before its comma
    ("Joyeuse, Sword of Charlemagne" -> "Joyeuse"), then before its "of" ("Iron Crown of Lombardy" ->
    "Iron Crown"); an ellipsis only when none of these fits."""
    bare = next((name[len(a) :] for a in ARTICLES if name.startswith(a) and len(name) > len(a)), name)
    head = bare.split(",")[0].strip() or bare
    tries = [name, bare, head, head.split(" of ")[0].strip() or head]
    for text in dict.fromkeys(tries):
        f, lines = kit.name_lines(text, max_w, size, max_lines)
        if not lines[-1].endswith("…"):
            return f, lines
    return kit.name_lines(tries[-1], max_w, size, max_lines)


Stat = tuple[int, int]  # (now, printed)


@lru_cache(maxsize=1024)
def unit_tile(
    cid: str,
    name: str,
    kind: str,
    stats: tuple[Stat | None, Stat | None, Stat | None],
    damage: int,
    w: int,
    h: int,
    theme_name: str = "dark",
) -> Image.Image:
    """A card in a slot (RGBA, cached by everything it shows): the name on its faction's band, its type,
    then Power, Initiative and Life (remaining/total) as computed now; a stat above its printed value is
    green with ▲, below it red with ▼; a damaged card's remaining Life is red."""
    t = kit.theme(theme_name)
    s = kit.SUPERSAMPLE
    W, H = w * s, h * s
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, W - 1, H - 1), 8 * s, fill=t.card_face, outline=t.card_edge, width=2 * s)
    pad = 4 * s
    low = kit.MIN_TEXT * s
    colour = FACTION_COLOURS.get(faction(cid), t.card_dim)
    d.rounded_rectangle((pad // 2, pad // 2, W - pad // 2, BAND_H * s), 6 * s, fill=colour)
    f, lines = name_fit(name, W - 2 * pad, low)
    line_h = NAME_LINE * s
    top = (BAND_H * s + pad // 2 - line_h * len(lines)) // 2 + s
    for i, line in enumerate(lines):
        d.text(
            (W // 2, top + i * line_h + line_h // 2), line, font=f, fill=kit.contrast_ink(colour), anchor="mm"
        )
    regular = kit.font(low)
    y = BAND_H * s + TYPE_H * s // 2 + s
    d.text((2 * pad, y), TYPE_WORDS.get(kind, kind.replace("_", " ").capitalize()), font=regular,
           fill=t.card_dim, anchor="lm")  # fmt: skip
    y = (BAND_H + TYPE_H) * s + STAT_H * s // 2
    for (stat, label), value in zip(STAT_ROWS, stats, strict=True):
        if value is not None:
            now, printed = value
            _stat_row(d, (2 * pad, W - 2 * pad, y), label, now, printed, damage if stat == "life" else 0, t)
        y += STAT_H * s
    return img.reduce(s)


def _stat_row(
    d: ImageDraw.ImageDraw,
    where: tuple[int, int, int],
    label: str,
    now: int,
    printed: int,
    damage: int,
    t: Theme,
) -> None:
    """One stat on a card: the label on the left, the value on the right (Life as remaining/total)."""
    x0, x1, y = where
    low = kit.MIN_TEXT * kit.SUPERSAMPLE
    regular, bold = kit.font(low), kit.font(low, True)
    d.text((x0, y), label, font=regular, fill=t.card_dim, anchor="lm")
    mark = "▲" if now > printed else "▼" if now < printed else ""
    mark_ink = UP if now > printed else DOWN
    x = x1
    if mark:
        d.text((x, y), mark, font=bold, fill=mark_ink, anchor="rm")
        x -= int(bold.getlength(mark)) + 2
    total_ink = mark_ink if mark else t.black_ink
    if label == "Life" and damage:
        total = f"/{now}"
        d.text((x, y), total, font=bold, fill=total_ink, anchor="rm")
        x -= int(bold.getlength(total))
        d.text((x, y), str(max(now - damage, 0)), font=bold, fill=DOWN, anchor="rm")
    else:
        d.text((x, y), str(now), font=bold, fill=total_ink, anchor="rm")


@lru_cache(maxsize=256)
def attach_tab(cid: str, w: int, h: int, theme_name: str = "dark") -> Image.Image:
    """A relic attached to a character (RGBA, cached): card stock with its faction's strip and its name."""
    t = kit.theme(theme_name)
    s = kit.SUPERSAMPLE
    W, H = w * s, h * s
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    colour = FACTION_COLOURS.get(faction(cid), t.card_dim)
    d.rounded_rectangle((0, 0, W - 1, H - 1), 6 * s, fill=t.card_face, outline=colour, width=2 * s)
    d.rounded_rectangle((0, 0, 7 * s, H - 1), 4 * s, fill=colour)
    f, lines = name_fit(card_name(cid), W - 15 * s, kit.MIN_TEXT * s)
    line_h = NAME_LINE * s
    top = (H - line_h * len(lines)) // 2
    for i, line in enumerate(lines):
        d.text((W // 2 + 4 * s, top + i * line_h + line_h // 2), line, font=f, fill=t.black_ink, anchor="mm")
    return img.reduce(s)


@lru_cache(maxsize=64)
def open_slot(w: int, h: int, theme_name: str = "dark") -> Image.Image:
    """An open slot (RGBA, cached): a dashed outline with "open"."""
    return kit.outline_tile(w, h, "open", theme_name, radius=8, dashed=True)


def _stat(unit: JSON, stat: str) -> Stat | None:
    """A unit's stat now and printed, or None when its card has no such stat."""
    if stat not in unit and f"base_{stat}" not in unit:
        return None
    now = _int(unit.get(stat, unit.get(f"base_{stat}")))
    return now, _int(unit.get(f"base_{stat}", now))


def unit_image(unit: JSON, w: int, h: int, t: Theme) -> Image.Image:
    """The tile of a unit dict of the view."""
    cid = str(unit.get("card") or "?")
    name = str(unit.get("name") or card_name(cid))
    kind = str(unit.get("type") or entry(cid).type or "character")
    stats = (_stat(unit, "power"), _stat(unit, "initiative"), _stat(unit, "life"))
    return unit_tile(cid, name, kind, stats, _int(unit.get("damage")), w, h, t.name)


# ---------------------------------------------------------------- text


def _points(view: OpheliaView, seat: int) -> int:
    players = view.get("players") or []
    return _int(players[seat].get("points")) if 0 <= seat < len(players) else 0


def final_score(view: OpheliaView) -> str:
    """The points, the winner's first: "6–2"."""
    winners = [w for w in (view.get("result") or {}).get("winners") or [] if _seat(w) is not None]
    seats = list(range(len(view.get("players") or [])))
    seats.sort(key=lambda i: i not in winners)
    return "–".join(str(_points(view, i)) for i in seats)


def status_text(view: OpheliaView, names: list[str]) -> str:
    """The banner: the round and whose turn it is, or the result."""
    if view.get("phase") == "over" or view.get("result"):
        return kit.status_of(present, view, names).headline or "Game over"
    rnd = f"Round {_int(view.get('round')) or 1}"
    to_act = [x for x in view.get("to_act") or [] if _seat(x) is not None]
    if view.get("phase") == "first":
        return f"{rnd} · {kit.who(to_act[0] if to_act else None, names)} chooses who goes first"
    return f"{rnd} · {kit.who(_seat(view.get('active')), names)}'s turn"


def decision_text(view: OpheliaView, names: list[str]) -> str:
    """The pending decision as the game words it for everyone ("Bo: play a Turning Point now, or pass"), or
    "" when there is none (or the banner says it: who goes first)."""
    if view.get("phase") in ("over", "first"):
        return ""
    return kit.status_of(present, view, names).prompt


def last_round_text(view: OpheliaView, names: list[str]) -> str:
    """ "Round 2 to Bo, +2 points: most Power in the middle slot (3–1)"."""
    last = view.get("last_round")
    if not isinstance(last, dict):
        return ""
    step = last.get("step")
    points = _int(last.get("points"))
    why = STEP_WORDS.get(_int(step), "")
    scores = last.get("middle") if step == 1 else last.get("side") if step == 2 else None
    winner = _seat(last.get("winner"))
    if isinstance(scores, list) and len(scores) == 2:
        high, low = (scores[1], scores[0]) if winner == 1 else (scores[0], scores[1])
        why += f" ({_int(high)}–{_int(low)})"  # the winner's first
    head = f"Round {_int(last.get('round'))} to {kit.who(winner, names)}"
    return f"{head}, +{points} point{'' if points == 1 else 's'}" + (f": {why}" if why else "")


def _acting_colour(view: OpheliaView) -> kit.RGB:
    to_act = [x for x in view.get("to_act") or [] if _seat(x) is not None]
    return kit.seat_colour(to_act[0]) if to_act else (150, 150, 160)


# ---------------------------------------------------------------- the board


def _rows(view: OpheliaView) -> list[list[JSON | None]]:
    """slots[row][column] as two lists of five (unit dict or None), whatever the view holds."""
    slots = kit.as_list(view.get("slots"))
    out = []
    for row in range(2):
        got = slots[row] if row < len(slots) and isinstance(slots[row], list) else []
        out.append([u if isinstance(u, dict) else None for u in list(got)[:COLUMNS]])
        out[-1] += [None] * (COLUMNS - len(out[-1]))
    return out


def _attached(unit: JSON | None) -> list[str]:
    """The card ids of the relics attached to a unit, as tabs: at most MAX_TABS, the last one saying how many
    more there are ("+2 more") when they do not all fit."""
    cards = [str(r.get("card") or "?") for r in (unit or {}).get("attached") or [] if isinstance(r, dict)]
    if len(cards) > MAX_TABS:
        cards = [*cards[: MAX_TABS - 1], f"+{len(cards) - MAX_TABS + 1} more"]
    return cards


def _stack_h(row: list[JSON | None]) -> int:
    """The height the attached relics of a row take beside its cards."""
    most = max((len(_attached(u)) for u in row), default=0)
    return most * (TAB_H + TAB_GAP)


def track_height(view: OpheliaView, names: list[str]) -> int:
    """The round track zone: the rounds and phases, then a line for a decision and the last round's lines."""
    lines = bool(decision_text(view, names)) + len(_last_lines(view, names))
    return kit.zone_head(LABEL) + CELL_H + 6 + lines * kit.LINE_H + 2


LAST_LABEL = "LAST ROUND"


def _last_lines(view: OpheliaView, names: list[str]) -> list[str]:
    """The last round's result, wrapped after its label in at most two lines."""
    text = last_round_text(view, names)
    if not text:
        return []
    indent = kit.text_width(LAST_LABEL, kit.font(LABEL, True)) + 10
    return kit.wrap_text(text, kit.font(LABEL), FIELD_W - indent, max_lines=2)


def field_height(rows: list[list[JSON | None]]) -> int:
    """The field zone: the top row (attachments above its cards), the strip, the bottom row."""
    return kit.zone_head(LABEL) + _stack_h(rows[1]) + CARD_H + STRIP_H + CARD_H + _stack_h(rows[0]) + 8


@dataclass(frozen=True, slots=True)
class Layout:
    """Where the parts of a board go (y coordinates on the canvas)."""

    height: int
    track: Box
    top_panel: Box
    field: Box
    bottom_panel: Box
    log: Box | None
    xs: tuple[int, ...]  # each column's left edge
    top_card: int  # the top row's cards (P2), under their attached relics
    strip: int  # the column strip between the rows
    bottom_card: int  # the bottom row's cards (P1), over their attached relics
    bottom_end: int


def layout(view: OpheliaView, names: list[str]) -> Layout:
    """The board's layout for a view: banner, track, P2's panel, the field, P1's panel, the log."""
    W, M, G = kit.WIDTH, kit.MARGIN, kit.GAP
    rows = _rows(view)
    y = M + kit.BANNER_H + G
    track = (M, y, W - M, y + track_height(view, names))
    y = track[3] + G
    top_panel = (M, y, W - M, y + PANEL_H)
    y += PANEL_H + G
    field = (M, y, W - M, y + field_height(rows))
    y = field[3] + G
    bottom_panel = (M, y, W - M, y + PANEL_H)
    y += PANEL_H + G
    log_h = kit.log_height(len(_log(view, names)))
    log = (M, y, W - M, y + log_h) if log_h else None
    height = (log[3] if log else bottom_panel[3]) + M
    inner_top = field[1] + kit.zone_head(LABEL)
    xs = tuple(M + 6 + BAR_W + CARD_GAP + k * (CARD_W + CARD_GAP) for k in range(COLUMNS))
    top_card = inner_top + _stack_h(rows[1])
    strip = top_card + CARD_H
    bottom_card = strip + STRIP_H
    bottom_end = bottom_card + CARD_H + _stack_h(rows[0])
    return Layout(
        height, track, top_panel, field, bottom_panel, log, xs, top_card, strip, bottom_card, bottom_end
    )


def _log(view: OpheliaView, names: list[str]) -> list[str]:
    """The last three lines of the log, with seat names."""
    return [kit.seat_refs(str(x), names) for x in view.get("log") or []][-3:]


def board(view: OpheliaView, names: Sequence[str] | None = None, theme: str | None = None) -> Image.Image:
    """The public board: round track and phase, both players, the ten slots with the contests, the log."""
    t = kit.theme(theme)
    seat_names = kit.seat_names(max(2, _int(view.get("num_players")), len(view.get("players") or [])), names)
    players: list[Mapping[str, Any]] = [p if isinstance(p, dict) else {} for p in view.get("players") or []]
    players += [{} for _ in range(2 - len(players))]
    lay = layout(view, seat_names)
    canvas = kit.board_canvas(lay.height, "Ophelia", status_text(view, seat_names), _acting_colour(view), t)
    _track(canvas, lay.track, view, seat_names, t)
    _panel(canvas, lay.top_panel, view, players[1], 1, seat_names, t)
    _field(canvas, lay, _rows(view), t)
    _panel(canvas, lay.bottom_panel, view, players[0], 0, seat_names, t)
    if lay.log is not None:
        kit.log_lines(canvas, lay.log, _log(view, seat_names), t)
    return canvas


def _track(canvas: Image.Image, box: Box, view: OpheliaView, names: list[str], t: Theme) -> None:
    """The points of each round (1-2-3-2-1) with the current round in gold, the phases of a turn with the
    current one in gold (or the result), the pending decision and the last round's result."""
    d = ImageDraw.Draw(canvas)
    track = [_int(x) for x in view.get("track") or (1, 2, 3, 2, 1)]
    rnd = _int(view.get("round")) or 1
    worth = track[min(rnd, len(track)) - 1] if track else 0
    over = view.get("phase") == "over" or bool(view.get("result"))
    label = f"ROUND {rnd} · WORTH {worth} POINT{'' if worth == 1 else 'S'} · {WIN} POINTS WIN"
    inner = kit.zone(d, box, label, t, size=LABEL)
    x0, y0, x1, _ = inner
    cy = y0 + CELL_H // 2
    x = x0
    for k, points in enumerate(track[:8]):
        now, past = k + 1 == rnd, k + 1 < rnd
        fill = t.highlight if now else t.zone if past else t.panel
        d.rounded_rectangle((x, y0, x + CELL_W, y0 + CELL_H), 6, fill=fill, outline=t.border)
        ink = kit.contrast_ink(fill) if now else t.dim if past else t.text
        kit.draw_text(d, (x + CELL_W // 2, cy), str(points), LABEL, ink, True, anchor="mm")
        x += CELL_W + 3
    right = x1
    if over:
        text = f"GAME OVER · {final_score(view)}".strip(" ·")
        kit.chip(d, (right, cy), text, t, fill=t.good, ink=kit.contrast_ink(t.good), anchor_right=True)
    elif view.get("phase") == "first":
        kit.chip(d, (right, cy), "choosing who goes first", t, fill=t.highlight,
                 ink=kit.contrast_ink(t.highlight), anchor_right=True)  # fmt: skip
    else:
        for k, (phase, word) in enumerate(reversed(PHASES)):
            lit = t.highlight if view.get("phase") == phase else None
            ink = kit.contrast_ink(lit) if lit else t.dim
            right = kit.chip(d, (right, cy), word, t, fill=lit, ink=ink, anchor_right=True)[0] - 3
            if k < len(PHASES) - 1:
                right -= kit.draw_text(d, (right, cy), "›", LABEL, t.dim, True, anchor="rm") + 3
    y = y0 + CELL_H + 6
    decision = decision_text(view, names)
    if decision:
        kit.draw_text(d, (x0, y), decision, LABEL, t.text, True, max_w=x1 - x0)
        y += kit.LINE_H
    lines = _last_lines(view, names)
    if lines:
        indent = kit.draw_text(d, (x0, y), LAST_LABEL, LABEL, t.dim, True) + 10
        for line in lines:
            kit.draw_text(d, (x0 + indent, y), line, LABEL, t.text)
            y += kit.LINE_H


def _panel(
    canvas: Image.Image,
    box: Box,
    view: OpheliaView,
    p: Mapping[str, Any],
    seat: int,
    names: list[str],
    t: Theme,
) -> None:
    """A player's panel: name, hand and points; then deck, forgotten zone, Power on the board, deck name."""
    d = ImageDraw.Draw(canvas)
    over = view.get("phase") == "over" or bool(view.get("result"))
    winners = (view.get("result") or {}).get("winners") or []
    points = _int(p.get("points"))
    chips = [f"hand {_int(p.get('hand_size'))}", f"★ {points}/{WIN}"]
    tag, tag_colour = "", None
    if over and seat in winners:
        tag, tag_colour = "WINNER", t.good
    elif not over and view.get("phase") != "first" and seat == _seat(view.get("active")):
        tag, tag_colour = "their turn", t.highlight
    row = "top row" if seat == 1 else "bottom row"
    active = seat in (view.get("to_act") or [])
    content = kit.player_panel(canvas, box, kit.who(seat, names), seat, t, chips, active, tag, tag_colour)
    x0, y0, x1, _ = content
    cy = y0 + 16
    forgotten = p.get("forgotten")
    gone = len(forgotten) if isinstance(forgotten, list) else _int(forgotten)
    x = x0
    for text in (f"deck {_int(p.get('deck_size'))}", f"forgotten {gone}", f"Power {_int(p.get('power'))}"):
        x = kit.chip(d, (x, cy), text, t)[2] + 6
    deck = kit.printable(str(p.get("deck_name") or ""))
    words = f"{deck} · {row}" if deck else row
    if deck and kit.text_width(words, kit.font(LABEL)) > x1 - x - 4:
        words = deck  # the panel's place above or below the field says which row is theirs
    kit.draw_text(d, (x + 4, cy), words, LABEL, t.dim, max_w=x1 - x - 4, anchor="lm")


def _field(canvas: Image.Image, lay: Layout, rows: list[list[JSON | None]], t: Theme) -> None:
    """P2's row on top, the column strip, P1's row below; the middle column tinted, contests in red."""
    d = ImageDraw.Draw(canvas)
    inner = kit.zone(d, lay.field, "FIELD · red: contest · ▲▼ modified · Life left/total", t, size=LABEL)
    x0, y0, _, _ = inner
    xs, bottom_end = lay.xs, lay.bottom_end
    top_card, strip, bottom_card = lay.top_card, lay.strip, lay.bottom_card
    mid = xs[MIDDLE]
    d.rounded_rectangle((mid - 4, y0 - 2, mid + CARD_W + 4, bottom_end + 2), 8, fill=t.panel_active)
    for row, (y, up) in ((1, (top_card, True)), (0, (bottom_card, False))):
        span = (y0, strip) if up else (bottom_card, bottom_end)
        d.rounded_rectangle((x0, span[0], x0 + BAR_W, span[1]), 4, fill=kit.seat_colour(row))
        for col, unit in enumerate(rows[row]):
            x = xs[col]
            if unit is None:
                kit.paste(canvas, open_slot(CARD_W, CARD_H, t.name), x, y)
                continue
            b = kit.paste(canvas, unit_image(unit, CARD_W, CARD_H, t), x, y)
            if unit.get("contested") or rows[1 - row][col] is not None:
                kit.highlight(d, b, t.bad, width=3, pad=2, double=True)
            for k, cid in enumerate(_attached(unit)):
                ty = y - (k + 1) * (TAB_H + TAB_GAP) if up else y + CARD_H + TAB_GAP + k * (TAB_H + TAB_GAP)
                kit.paste(canvas, attach_tab(cid, CARD_W, TAB_H, t.name), x, ty)
    cy = strip + STRIP_H // 2
    for col in range(COLUMNS):
        cx = xs[col] + CARD_W // 2
        contested = rows[0][col] is not None and rows[1][col] is not None
        if contested:
            d.rectangle((cx - CONTEST_W // 2, strip, cx + CONTEST_W // 2, bottom_card), fill=t.bad)
        word = "middle" if col == MIDDLE else "outer" if col in (0, COLUMNS - 1) else ""
        text = f"{col + 1} {word}".strip()
        w = kit.text_width(text, kit.font(LABEL, True)) + LABEL
        fill = t.bad if contested else t.highlight if col == MIDDLE else None
        kit.chip(d, (cx - w // 2, cy), text, t, fill=fill, ink=kit.contrast_ink(fill) if fill else t.dim)


# ---------------------------------------------------------------- the hand


ROW_PAD = 8
TEXT_LINE = kit.LINE_H


def hand_lines(cid: str, w: int) -> list[str]:
    """A card's ability text wrapped to a hand row of width w (each ability on its own lines)."""
    text = entry(cid).text.strip()
    if not text:
        return ["No abilities."]
    return kit.wrap_text(text, kit.font(LABEL), w - 2 * ROW_PAD - 16)


def hand_row_height(cid: str, w: int = HAND_ROW_W) -> int:
    """A hand row: the name, the type and stats, the ability text."""
    return ROW_PAD + 32 + TEXT_LINE + len(hand_lines(cid, w)) * TEXT_LINE + ROW_PAD


@lru_cache(maxsize=256)
def hand_row(cid: str, copies: int, w: int, theme_name: str = "dark") -> Image.Image:
    """A card in hand as a wide row (RGBA, cached): its faction's strip, the name (×N for copies), type,
    faction and printed stats, then its whole ability text, wrapped."""
    t = kit.theme(theme_name)
    e = entry(cid)
    h = hand_row_height(cid, w)
    s = kit.SUPERSAMPLE
    W, H = w * s, h * s
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    colour = FACTION_COLOURS.get(faction(cid) or e.colour, t.card_dim)
    d.rounded_rectangle((0, 0, W - 1, H - 1), 8 * s, fill=t.card_face, outline=t.card_edge, width=2 * s)
    d.rounded_rectangle((0, 0, 12 * s, H - 1), 5 * s, fill=colour)
    x = (12 + ROW_PAD) * s
    y = ROW_PAD * s
    low = kit.MIN_TEXT * s
    regular, bold = kit.font(low), kit.font(low, True)
    name = e.name + (f"  ×{copies}" if copies > 1 else "")
    name_f = kit.fitting_font(name, W - x - ROW_PAD * s, kit.NAME_TEXT * s, True, min_size=low)
    d.text((x, y + 16 * s), kit.fit_text(name, name_f, W - x - ROW_PAD * s), font=name_f, fill=t.black_ink,
           anchor="lm")  # fmt: skip
    y += 32 * s
    stats = "   ".join(f"{k} {v}" for k, v in e.stats)
    stats_w = int(bold.getlength(stats))
    d.text((W - ROW_PAD * s, y + TEXT_LINE * s // 2), stats, font=bold, fill=t.black_ink, anchor="rm")
    kind_text = kit.fit_text(TYPE_WORDS.get(e.type, e.type), regular, W - x - stats_w - 24 * s)
    ink = tuple(c * 3 // 4 for c in colour)  # the faction's colour, dark enough to read on card stock
    d.text((x, y + TEXT_LINE * s // 2), kind_text, font=regular, fill=ink, anchor="lm")
    y += TEXT_LINE * s
    for line in hand_lines(cid, w):
        d.text((x, y + TEXT_LINE * s // 2), line, font=regular, fill=t.black_ink, anchor="lm")
        y += TEXT_LINE * s
    return img.reduce(s)


def _hand(
    view: OpheliaView, names: Sequence[str] | None, p: Mapping[str, Any], viewer: int, t: Theme
) -> Image.Image:
    """The private image for view["viewer"]: each card in hand with its stats and whole ability text, and
    the viewer's forgotten zone."""
    seat_names = kit.seat_names(max(2, _int(view.get("num_players")), len(view.get("players") or [])), names)
    cards = [str(c) for c in p.get("hand") or []]
    kinds = list(dict.fromkeys(cards))  # copies of a card are one row with ×N
    forgotten = [card_name(str(c)) for c in p.get("forgotten") or []]
    gone_lines = kit.wrap_text(", ".join(forgotten), kit.font(LABEL), HAND_ROW_W, max_lines=3)

    label = f"HAND · {len(cards)} · {p.get('deck_size', 0)} in deck"

    def row(cid: str) -> Image.Image:
        return hand_row(cid, cards.count(cid), HAND_ROW_W, t.name)

    sections = [kit.hand_rows(label, kinds, row, hand_row_height, t)]
    if forgotten:
        sections.append(kit.text_zone(f"YOUR FORGOTTEN ZONE · {len(forgotten)}", [gone_lines], t))
    points = _int(p.get("points"))
    heading = f"Your hand · Round {_int(view.get('round')) or 1} · ★ {points}/{WIN} points"
    log = [kit.seat_refs(str(x), seat_names) for x in view.get("log") or []]
    last_text = log[-1] if log else ""
    prompt = kit.hand_prompt(present, view, seat_names)
    return kit.hand_page("Ophelia", heading, viewer, prompt, sections, last_text, t)


hand = kit.own_hand("Ophelia", _hand)


# ---------------------------------------------------------------- warming the caches


def warm(theme: str | None = None) -> None:
    """Draw every card's tile (undamaged, unmodified) and attached relic tab now, so no board pays for them
    (hand rows are drawn on a hand's first request: warming them all would cost a second at start-up)."""
    t = kit.theme(theme)
    for cid, spec in CARDS.items():
        stats = dict(spec.stats)
        if spec.type != "turning_point":
            values = tuple((stats[k], stats[k]) if k in stats else None for k, _ in STAT_ROWS)
            unit_tile(cid, spec.name, spec.type, values, 0, CARD_W, CARD_H, t.name)
        if spec.flag("attach"):
            attach_tab(cid, CARD_W, TAB_H, t.name)
    open_slot(CARD_W, CARD_H, t.name)


TILE_CACHES = (unit_tile, attach_tab, open_slot, hand_row)  # for benchmarks that measure a cold render


# ---------------------------------------------------------------- the colours that tell things apart


def palettes(t: Theme) -> dict[str, kit.Palette]:
    """The colours that tell things apart on Ophelia's images, by group (checked by tests/render/
    test_colours.py with kit's own)."""
    return {
        "factions": kit.Palette(dict(FACTION_COLOURS)),
        "stat changes": kit.Palette({"raised": UP, "lowered": DOWN}, cue=kit.UP_DOWN),
        "columns": kit.Palette(
            {"contested": t.bad, "middle": t.highlight},
            cue="the middle chip says 'middle'; a contest has cards in both rows joined by a bar",
        ),
    }


def text_pairs(t: Theme) -> list[kit.TextPair]:
    """Ophelia's own text inks on what they are drawn on (for the contrast check)."""
    pairs = [(f"a {k} card's name", kit.contrast_ink(c), c) for k, c in FACTION_COLOURS.items()]
    return [*pairs, ("a raised stat", UP, t.card_face), ("a lowered stat", DOWN, t.card_face)]
