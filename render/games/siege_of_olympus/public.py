"""Siege of Olympus's board, the public image: the banner, the turn strip (piles, phases, the turn's target,
the decision), both players' panels and minions, Tartarus's prisoners, the Agora, the frames on the turn's
target and on what waits on a response window, the key to the glyphs, and the log.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.games.siege_of_olympus.cards import CLASSES, RACES
from engine.games.siege_of_olympus.view import SiegeView
from render import kit
from render.games.siege_of_olympus.common import (
    BAR_W,
    CLASS_COLOURS,
    CLASS_GLYPHS,
    END_PHASES,
    GOLD,
    INNER_W,
    JSON,
    LABEL,
    MAX_MINIONS,
    MAX_POOL,
    PHASES,
    POOL_COLS,
    POOL_W,
    RACE_GLYPHS,
    RACE_INKS,
    ROW_H,
    TITLE,
    _dicts,
    _ids,
    _int,
    _over,
    _pile,
    _players,
    _seat,
    _seat_names,
    _winners,
    is_minion,
)
from render.games.siege_of_olympus.geometry import (
    CHIP_GAP,
    Layout,
    _panel_lines,
    _tile_boxes,
    decision_lines,
    layout,
    side_columns,
)
from render.games.siege_of_olympus.tiles import empty_tile, face, minion_tile, printed_face, spell_tile
from render.games.siege_of_olympus.words import _log, status_text, target_text
from render.kit import Box, Theme


def board(view: SiegeView, names: Sequence[str] | None = None, theme: str | None = None) -> Image.Image:
    """The public board: the turn strip, both Commanders and sides, Tartarus, the Agora and the log."""
    t = kit.theme(theme)
    seat_names = _seat_names(view, names)
    players = _players(view)
    lay = layout(view, seat_names)
    canvas = kit.board_canvas(lay.height, TITLE, status_text(view, seat_names), _acting_colour(view), t)
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


def _acting_colour(view: SiegeView) -> kit.RGB:
    to_act = [x for x in view.get("to_act") or [] if _seat(x) is not None]
    return kit.seat_colour(to_act[0]) if to_act else (150, 150, 160)


def _strip(canvas: Image.Image, box: Box, view: SiegeView, names: list[str], t: Theme) -> None:
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
    window = kit.as_dict(view.get("decision")).get("kind") == "window"
    for i, line in enumerate(decision_lines(view, names)):
        y = y0 + ROW_H + 4 + i * kit.LINE_H
        kit.draw_text(d, (x0, y), line, LABEL, t.highlight_text if window else t.text, True, max_w=x1 - x0)


def _panel(
    canvas: Image.Image, box: Box, view: SiegeView, p: JSON, seat: int, names: list[str], t: Theme
) -> None:
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


def _tartarus(canvas: Image.Image, box: Box, view: SiegeView, t: Theme) -> None:
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


def _agora(canvas: Image.Image, box: Box, view: SiegeView, t: Theme) -> None:
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


def _frames(canvas: Image.Image, lay: Layout, view: SiegeView, t: Theme) -> None:
    """The turn's fixed target in red; what waits on a response window in gold: the attacking minion (and
    what it attacks in red: a minion, or a Commander's chips), the minion being summoned, or the Commander
    whose ability is being used."""
    d = ImageDraw.Draw(canvas)
    if _over(view):
        return
    target = _int(view.get("target"))
    if target and target in lay.tiles:
        kit.highlight(d, lay.tiles[target], t.bad, width=4, pad=3, double=True)
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
        kit.highlight(d, lay.tiles[attacked], t.bad, width=4, pad=3, double=True)
    for k, p in enumerate(players):
        if attacked and _int(p.get("commander_uid")) == attacked:
            kit.highlight(d, lay.commanders[k], t.bad, width=4, pad=1, double=True)


# ---------------------------------------------------------------- the key to the glyphs


def legend_lines() -> list[list[kit.KeyItem]]:
    """The key to the tiles' glyphs: (glyph, word, glyph ink) for the classes, then for the races."""
    classes: list[kit.KeyItem] = [
        (g, str(CLASSES[k]["name"]), CLASS_COLOURS[k]) for k, g in CLASS_GLYPHS.items() if k in CLASSES
    ]
    races: list[kit.KeyItem] = [
        (g, str(RACES[k]["name"]), RACE_INKS[k]) for k, g in RACE_GLYPHS.items() if k in RACES
    ]
    return [classes, races]


def _legend(canvas: Image.Image, box: Box, t: Theme) -> None:
    """The key to the glyphs, two lines, each spread across the width."""
    kit.key(canvas, box, legend_lines(), t, _on_zone)


def _on_zone(ink: kit.RGB, t: Theme) -> kit.RGB:
    """An ink made for card stock, lightened to read on a dark zone (as is on a light one)."""
    if t.name != "dark":
        return ink
    return tuple(min(255, c + (255 - c) * 2 // 5) for c in ink)  # type: ignore[return-value]
