"""Where everything goes on Siege of Olympus's board (nothing is drawn here): each panel's chips wrapped
into lines, the heights of the turn strip, panels and zones, and the board's layout down to each minion's
tile (by uid) and each Commander's line, which the frames on targets and attackers use.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.games.siege_of_olympus.cards import ARTIFACTS
from engine.games.siege_of_olympus.view import SiegeView
from render import kit
from render.games.siege_of_olympus.common import (
    BAR_W,
    GAP,
    INNER_W,
    JSON,
    LABEL,
    MAX_HEIGHT,
    MAX_MINIONS,
    MAX_POOL,
    PANEL_W,
    PIECES,
    POOL_COLS,
    POOL_W,
    ROW_H,
    SIDE_NARROW_W,
    SIDE_W,
    TILE_H,
    TO_WIN,
    _dicts,
    _ids,
    _int,
    _pile,
    _players,
    short_name,
)
from render.games.siege_of_olympus.words import _log, decision_text
from render.kit import Box

MAX_PANEL_LINES = 3
CHIP_GAP = 6
LEGEND_H = 4 + 2 * kit.LINE_H + 4


def chip_width(text: str) -> int:
    """The width of a kit.chip with this text."""
    return kit.text_width(text, kit.font(LABEL, True)) + LABEL


def _panel_lines(p: Mapping[str, Any], pile: list[int] | None) -> list[list[tuple[str, str]]]:
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


def _commander_chips(p: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The Commander's chips: name, Health, and whether its once-per-game ability is spent."""
    name = short_name(kit.printable(str(p.get("commander_name") or "")))
    if not name:
        return [("none", "choosing a Commander")]
    health, most = max(0, _int(p.get("health"))), _int(p.get("max_health")) or 20
    hurt = "low" if health <= most // 4 else "health"
    ability = ("spent", "ability spent") if p.get("once_used") else ("ready", "ability ready")
    return [("commander", f"♛ {name}"), (hurt, f"♥ {health}/{most}"), ability]


def _artifact_chips(p: Mapping[str, Any], pile: list[int] | None) -> list[tuple[str, str]]:
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
    pieces = kit.as_dict(p.get("pieces"))
    counts = []
    for n, c in pieces.items():
        try:
            number = int(n)
        except ValueError:
            continue
        if pile is None or number in pile:
            counts.append((-_int(c), number))
    for c, num in sorted(counts):
        out.append(("piece", f"{num} " + "●" * min(-c, PIECES) + "○" * max(0, PIECES + c)))
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


def decision_lines(view: SiegeView, names: list[str]) -> list[str]:
    """The pending decision or window in words, wrapped in at most two lines of the turn strip."""
    text = decision_text(view, names)
    return kit.wrap_text(text, kit.font(LABEL, True), INNER_W, max_lines=2) if text else []


def strip_height(view: SiegeView, names: list[str]) -> int:
    """The turn strip: its label, the chips, and the decision's lines."""
    lines = len(decision_lines(view, names))
    return kit.zone_head(LABEL) + ROW_H + (lines * kit.LINE_H + 2 if lines else 0) + 4


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


def layout(view: SiegeView, names: list[str]) -> Layout:
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
