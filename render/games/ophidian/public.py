"""Ophidian 2350's board, the public image: the banner, the turn strip (Wave and step, who has The Flow, the
attack under way, the card being played, the decision or response window), both players' panels (CP,
Cheer and the Crowd Favorite, VP, hand and Arsenal sizes, the Funeral Pyre), their four fields of
characters, the frames on the attack's attacker and target, the key to the tiles, and the log.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.games.ophidian.view import OphidianView
from render import kit
from render.games.ophidian.common import (
    ADMG,
    BAR_W,
    BIG_TEXT,
    BREATHER_STEPS,
    CROWD,
    DDMG,
    DISCIPLINE_COLOURS,
    DOWN,
    FULL_W,
    GOLD,
    INNER_W,
    JSON,
    LABEL,
    MAX_WAVES_SHOWN,
    RAGE,
    REGULAR_WAVES,
    ROW_H,
    SET_GLYPH,
    SETUP_STEPS,
    SHIELD,
    STATS_H,
    TITLE,
    TO_WIN_VP,
    _characters,
    _flow,
    _int,
    _over,
    _players,
    _seat,
    _seat_names,
    _winners,
    crowd_favorite,
    discipline_name,
)
from render.games.ophidian.geometry import Layout, layout
from render.games.ophidian.tiles import character_tile, empty_tile
from render.games.ophidian.words import _log, pyre_text, status_text, wave_words
from render.kit import Box, Theme


def board(view: OphidianView, names: Sequence[str] | None = None, theme: str | None = None) -> Image.Image:
    """The public board: the turn strip, both panels and their fields, the attack's frames, key and log."""
    t = kit.theme(theme)
    seat_names = _seat_names(view, names)
    players = _players(view)
    lay = layout(view, seat_names)
    canvas = kit.board_canvas(lay.height, TITLE, status_text(view, seat_names), _acting_colour(view), t)
    _strip(canvas, lay, view, seat_names, t)
    for seat in (1, 0):
        _panel(canvas, lay.panels[seat], view, players[seat], seat, seat_names, t)
    for (seat, field), box in lay.fields.items():
        _field(canvas, box, players[seat], seat, field, lay, seat_names, t)
    _frames(canvas, lay, view, t)
    if lay.legend is not None:
        _legend(canvas, lay.legend, t)
    if lay.log is not None:
        kit.log_lines(canvas, lay.log, _log(view, seat_names, lay.log_lines), t)
    return canvas


def _acting_colour(view: OphidianView) -> kit.RGB:
    to_act = [x for x in view.get("to_act") or [] if _seat(x) is not None]
    return kit.seat_colour(to_act[0]) if to_act and not _over(view) else (150, 150, 160)


# ---------------------------------------------------------------- the turn strip


def strip_label(view: OphidianView) -> str:
    """ "WAVE 2 OF 4", "TIE WAVE 5", "BREATHER AFTER WAVE 2", "SETUP" or "GAME OVER"."""
    if _over(view):
        return f"GAME OVER · AFTER {wave_words(view).upper()}" if _int(view.get("wave")) else "GAME OVER"
    phase = view.get("phase")
    if phase == "setup":
        return "SETUP"
    wave = wave_words(view).upper()
    if phase == "breather":
        return f"BREATHER AFTER {wave}"
    return f"{wave} OF {REGULAR_WAVES}" if _int(view.get("wave")) <= REGULAR_WAVES else wave


def _strip(canvas: Image.Image, lay: Layout, view: OphidianView, names: list[str], t: Theme) -> None:
    """The Wave's pips and who has The Flow (or the steps of the setup and Breather); then the attack under
    way, the card being played and the decision, each on its line."""
    d = ImageDraw.Draw(canvas)
    inner = kit.zone(d, lay.strip, strip_label(view), t, size=LABEL)
    x0, y0, x1, _ = inner
    cy = y0 + ROW_H // 2
    phase = view.get("phase")
    if _over(view):
        x = _wave_pips(d, x0, cy, _int(view.get("wave")), t) + 10
        kit.chip(d, (x, cy), "GAME OVER", t, fill=t.good, ink=kit.contrast_ink(t.good))
    elif phase in ("setup", "breather"):
        steps = SETUP_STEPS if phase == "setup" else BREATHER_STEPS
        _steps(d, x0, cy, steps, str(view.get("step") or ""), t)
    else:
        x = _wave_pips(d, x0, cy, _int(view.get("wave")), t) + 10
        flow = _flow(view)
        passed = "a pass ends the Wave" if view.get("passed") else ""
        bold = kit.font(LABEL, True)
        pass_w = kit.text_width(passed, bold) + LABEL + 8 if passed else 0
        if flow is not None:
            colour = kit.seat_colour(flow)
            text = kit.fit_text(f"The Flow: {kit.who(flow, names)}", bold, x1 - x - pass_w - LABEL)
            x = kit.chip(d, (x, cy), text, t, fill=colour, ink=kit.contrast_ink(colour))[2] + 8
        if passed and x + pass_w <= x1 + 8:
            kit.chip(d, (x, cy), passed, t, fill=t.panel_active, ink=t.highlight_text)
    window = kit.as_dict(view.get("decision")).get("kind") == "window"
    inks = {"attack": t.bad_text, "playing": t.text, "decision": t.highlight_text if window else t.text,
            "result": t.text}  # fmt: skip
    for i, (kind, line) in enumerate(lay.lines):
        y = y0 + ROW_H + 4 + i * kit.LINE_H
        kit.draw_text(d, (x0, y), line, LABEL, inks[kind], True, max_w=x1 - x0)


def _wave_pips(d: ImageDraw.ImageDraw, x: int, cy: int, wave: int, t: Theme) -> int:
    """A pip per Wave (4, more in tie Waves): past ones filled dim, the current one gold; returns the right
    edge."""
    last = max(REGULAR_WAVES, min(wave, MAX_WAVES_SHOWN))
    r = 15
    for n in range(1, last + 1):
        box = (x, cy - r, x + 2 * r, cy + r)
        if n == wave:
            fill, ink = t.highlight, kit.contrast_ink(t.highlight)
        elif n < wave:
            fill, ink = t.border, t.text
        else:
            fill, ink = t.zone, t.dim
        d.rounded_rectangle(box, 6, fill=fill, outline=t.border, width=1)
        kit.draw_text(d, (x + r, cy), str(n), LABEL, ink, True, anchor="mm")
        x += 2 * r + 4
        if n == REGULAR_WAVES and last > REGULAR_WAVES:
            x += 6  # a gap before the tie Waves
    return x


def _steps(d: ImageDraw.ImageDraw, x: int, cy: int, steps: tuple[tuple[str, str], ...], now: str,
           t: Theme) -> None:  # fmt: skip
    """The steps of the setup or Breather as chips, the current one gold."""
    for k, (key, word) in enumerate(steps):
        fill = t.highlight if key == now else None
        ink = kit.contrast_ink(fill) if fill else t.dim
        x = kit.chip(d, (x, cy), word, t, fill=fill, ink=ink)[2] + 3
        if k < len(steps) - 1:
            x += kit.draw_text(d, (x, cy), "›", LABEL, t.dim, True, anchor="lm") + 3


# ---------------------------------------------------------------- panels


def _panel(
    canvas: Image.Image, box: Box, view: OphidianView, p: JSON, seat: int, names: list[str], t: Theme
) -> None:
    """A player's panel: name, hand and Arsenal sizes, The Flow; CP, Cheer (★ the Crowd Favorite) and VP in
    big numbers, the team; the Funeral Pyre."""
    d = ImageDraw.Draw(canvas)
    over = _over(view)
    chips = [f"hand {_int(p.get('hand_size'))}", f"arsenal {_int(p.get('arsenal_size'))}"]
    tag, tag_colour = "", None
    if over and seat in _winners(view):
        tag, tag_colour = "WINNER", t.good
    elif _flow(view) == seat and view.get("phase") == "wave":
        tag, tag_colour = "THE FLOW", t.highlight
    active = not over and seat in (view.get("to_act") or [])
    content = kit.player_panel(canvas, box, kit.who(seat, names), seat, t, chips, active, tag, tag_colour)
    x0, y0, x1, _ = content
    cy = y0 + STATS_H // 2
    x = x0
    x += _number(d, x, cy, "CP", str(_int(p.get("cp"))), t) + 22
    fav = crowd_favorite(view, seat)
    cheer = f"{_int(p.get('cheer'))}" + (f" {CROWD}" if fav else "")
    x += _number(d, x, cy, "CHEER", cheer, t, GOLD if fav else None) + 22
    x += _number(d, x, cy, "VP", f"{_int(p.get('vp'))}/{TO_WIN_VP}", t) + 22
    team = kit.printable(str(p.get("team") or ""))
    if team:
        kit.draw_text(d, (x1, cy), team, LABEL, t.dim, max_w=x1 - x, anchor="rm")
    y = y0 + STATS_H + 4
    pyre = [c for c in p.get("pyre") or [] if isinstance(c, str)]
    label = f"PYRE {len(pyre)}"
    w = kit.draw_text(d, (x0, y), label, LABEL, t.dim, True)
    kit.draw_text(d, (x0 + w + 10, y), pyre_text(p) or "—", LABEL, t.text, max_w=x1 - x0 - w - 10)


def _number(d: ImageDraw.ImageDraw, x: int, cy: int, label: str, value: str, t: Theme,
            fill: kit.RGB | None = None) -> int:  # fmt: skip
    """A small label and a big number after it (on a coloured pill when fill is given); returns the
    width."""
    w = kit.draw_text(d, (x, cy), label, LABEL, t.dim, True, anchor="lm") + 8
    vw = kit.text_width(value, kit.font(BIG_TEXT, True))
    if fill is not None:
        d.rounded_rectangle((x + w - 4, cy - 19, x + w + vw + 8, cy + 19), 10, fill=fill)
        kit.draw_text(d, (x + w + 2, cy), value, BIG_TEXT, kit.contrast_ink(fill), True, anchor="lm")
        return w + vw + 8
    kit.draw_text(d, (x + w, cy), value, BIG_TEXT, t.text, True, anchor="lm")
    return w + vw


# ---------------------------------------------------------------- fields


def field_label(p: JSON, seat: int, field: str, names: list[str], drawn: int | None = None) -> str:
    """ "ADA · ACTION FIELD · 3" (the name shortened or left out when it does not fit; "· N NOT SHOWN" for
    characters a crowded board leaves out)."""
    count = len(_characters(p, field))
    more = f" · {count - drawn} NOT SHOWN" if drawn is not None and count > drawn else ""
    what = f"{field.upper()} FIELD · {count}{more}"
    f = kit.font(LABEL, True)
    name = kit.who(seat, names).upper()
    for head in (name, name.split()[0] if name.split() else ""):
        text = f"{head} · {what}"
        if head and kit.text_width(text, f) <= INNER_W:
            return text
    return what


def _field(canvas: Image.Image, box: Box, p: JSON, seat: int, field: str, lay: Layout, names: list[str],
           t: Theme) -> None:  # fmt: skip
    """A field's characters beside a bar in their seat's colour, one or two to a row, where the layout
    placed them."""
    d = ImageDraw.Draw(canvas)
    inner = kit.zone(d, box, field_label(p, seat, field, names, lay.drawn[(seat, field)]), t, size=LABEL)
    d.rounded_rectangle((inner[0], inner[1], inner[0] + BAR_W, box[3] - 6), 4, fill=kit.seat_colour(seat))
    placed = lay.placed[(seat, field)]
    if not placed:
        kit.paste(canvas, empty_tile(FULL_W, "empty", t.name), inner[0] + BAR_W + 6, inner[1])
    for f, b in placed:
        kit.paste(canvas, character_tile(f, b[2] - b[0], t.name), b[0], b[1])


def _frames(canvas: Image.Image, lay: Layout, view: OphidianView, t: Theme) -> None:
    """The attack under way: its attacker framed gold, its target red (and the original target, when
    Intercepted or Protected, in a thin red line); a character a card's damage is about to hit, red."""
    a = view.get("attack")
    d = ImageDraw.Draw(canvas)
    decision = kit.as_dict(view.get("decision"))
    if decision.get("kind") == "defend" and decision.get("about") == "damage" and not _over(view):
        hurt = _int(decision.get("uid"))  # a card's damage that may be Intercepted or Protected
        if hurt in lay.tiles:
            kit.highlight(d, lay.tiles[hurt], t.bad, width=4, pad=3, double=True)
    if not isinstance(a, dict) or _over(view):
        return
    attacker, target = _int(a.get("attacker")), _int(a.get("target"))
    original = _int(a.get("original", target))
    if original != target and original in lay.tiles:
        kit.highlight(d, lay.tiles[original], t.bad, width=2, pad=3, double=True)
    if target in lay.tiles:
        kit.highlight(d, lay.tiles[target], t.bad, width=4, pad=3, double=True)
    if attacker in lay.tiles:
        kit.highlight(d, lay.tiles[attacker], t.highlight, width=4, pad=3)


# ---------------------------------------------------------------- the key


def legend_lines() -> list[list[kit.KeyItem]]:
    """The key: (glyph, word, glyph ink) for the tiles' marks, then each discipline's colour."""
    marks: list[kit.KeyItem] = [
        (ADMG, "ADMG", None),
        (DDMG, "DDMG", None),
        (SHIELD, "shield", None),
        ("■", "wound", DOWN),
        ("■", "Rage", RAGE),
        (SET_GLYPH, "Set", None),
        ("M", "Minion", None),
    ]
    disciplines: list[kit.KeyItem] = [
        ("■", discipline_name(k), c) for k, c in DISCIPLINE_COLOURS.items() if k != "universal"
    ]
    return [marks, disciplines]


def _legend(canvas: Image.Image, box: Box, t: Theme) -> None:
    """The key, two lines, each spread across the width (each glyph in its ink, as on the tiles)."""
    kit.key(canvas, box, legend_lines(), t)
