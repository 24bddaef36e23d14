"""A plain, readable rendering of any game's view JSON, for games without their own renderer yet."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from render import kit

JSON = dict[str, Any]

LINE = kit.MIN_TEXT  # text size: 11 px on a phone, like every text
LINE_H = kit.LINE_H
WRAP = 56  # characters a line holds at that size, about
MAX_FIELD_LINES = 24
MAX_PLAYER_LINES = 4
SKIP = {"game", "viewer", "players", "log", "last", "num_players"}


def _compact(value: Any) -> str:
    if isinstance(value, str):
        return value
    if value is None:
        return "–"
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def flatten(value: Any, key: str = "", depth: int = 0, width: int = WRAP) -> list[tuple[int, str]]:
    """(indent, text) lines for a JSON value: short values inline, long dicts and lists one entry a line."""
    text = _compact(value)
    prefix = f"{key}: " if key else ""
    if len(prefix) + len(text) <= width or not isinstance(value, dict | list) or not value:
        return [(depth, prefix + text)]
    lines = [(depth, f"{key}:")] if key else []
    items = value.items() if isinstance(value, dict) else ((f"[{i}]", v) for i, v in enumerate(value))
    for k, v in items:
        lines.extend(flatten(v, str(k), depth + (1 if key else 0), width))
    return lines


def status_text(view: JSON, names: list[str]) -> str:
    """Whose turn it is, from the common keys current / to_act / phase / turn, if present."""
    parts: list[str] = []
    if view.get("turn") is not None:
        parts.append(f"Turn {view['turn']}")
    if view.get("phase") == "over":
        parts.append("Game over")
    elif isinstance(view.get("current"), int):
        parts.append(f"{_name(view['current'], names)} to play")
    elif view.get("to_act"):
        parts.append(", ".join(_name(s, names) for s in view["to_act"]) + " to act")
    elif view.get("phase"):
        parts.append(str(view["phase"]))
    return " · ".join(parts) or "Game in progress"


def _name(seat: Any, names: list[str]) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else str(seat)


def _title(game_id: str, view: JSON) -> str:
    return str(view.get("title") or view.get("game") or game_id).replace("_", " ")


def _players(view: JSON) -> list[JSON]:
    players = view.get("players")
    if isinstance(players, list) and all(isinstance(p, dict) for p in players):
        return players
    return []


def _player_chips(p: JSON) -> tuple[list[str], list[tuple[int, str]]]:
    """Short scalar fields as chips, everything else as lines."""
    chips: list[str] = []
    lines: list[tuple[int, str]] = []
    for k, v in p.items():
        if k == "seat":
            continue
        if isinstance(v, bool | int | float) and len(chips) < 4:
            chips.append(f"{k.replace('_', ' ')} {_compact(v)}")
        else:
            lines.extend(flatten(v, k, 0))
    return chips, lines


def render(
    game_id: str,
    view: JSON,
    names: Sequence[str] | None = None,
    theme: str | None = None,
    private: bool = False,
) -> Image.Image:
    """Any view as a banner, player panels (if the view has a players list), other fields and the log."""
    t = kit.theme(theme)
    players = _players(view)
    seat_names = kit.seat_names(int(view.get("num_players") or len(players) or 0), names)
    W, M = kit.WIDTH, kit.MARGIN
    panels = [_player_chips(p) for p in players]
    panel_hs = [kit.PANEL_HEAD + 6 + LINE_H * min(MAX_PLAYER_LINES, len(lines)) + 6 for _, lines in panels]
    fields: list[tuple[int, str]] = []
    for k, v in view.items():
        if k not in SKIP:
            fields.extend(flatten(v, k, 0))
    last = view.get("last")
    if isinstance(last, dict) and last.get("text"):
        fields.insert(0, (0, f"last: {last['text']}"))
    elif last:
        fields.insert(0, (0, f"last: {_compact(last)}"))
    shown = fields[:MAX_FIELD_LINES]
    if len(fields) > MAX_FIELD_LINES:
        shown[-1] = (0, f"… {len(fields) - MAX_FIELD_LINES + 1} more lines")
    fields_h = kit.zone_head() + LINE_H * len(shown) + 7 if shown else 0
    log = [str(x) for x in view.get("log") or []][-5:]
    log_h = kit.log_height(len(log))
    G = kit.GAP
    H = M + kit.BANNER_H + G + sum(h + G for h in panel_hs) + (fields_h + G if shown else 0) + log_h + M
    canvas = kit.new_canvas(W, H, t)
    d = ImageDraw.Draw(canvas)

    viewer = view.get("viewer")
    status = status_text(view, seat_names)
    if private and isinstance(viewer, int):
        status = f"Your view · {_name(viewer, seat_names)} · {status}"
    current = view.get("current")
    colour = kit.seat_colour(current) if isinstance(current, int) else (150, 150, 160)
    kit.banner(canvas, (M, M, W - M, M + kit.BANNER_H), _title(game_id, view), status, colour, t)
    y = M + kit.BANNER_H + G
    to_act = set(view.get("to_act") or [])
    for i, ((chips, lines), ph) in enumerate(zip(panels, panel_hs, strict=True)):
        seat = int(players[i].get("seat", i)) if isinstance(players[i].get("seat", i), int) else i
        name = _name(seat, seat_names) + (" (you)" if seat == viewer else "")
        content = kit.player_panel(canvas, (M, y, W - M, y + ph), name, seat, t, chips, active=seat in to_act)
        if len(lines) > MAX_PLAYER_LINES:
            lines = [*lines[: MAX_PLAYER_LINES - 1], (0, f"… {len(lines) - MAX_PLAYER_LINES + 1} more lines")]
        _lines(d, content, lines, t)
        y += ph + G
    if shown:
        inner = kit.zone(d, (M, y, W - M, y + fields_h), "STATE", t)
        _lines(d, inner, shown, t)
        y += fields_h + G
    if log:
        kit.log_lines(canvas, (M, y, W - M, y + log_h), log, t)
    return canvas


def _lines(d: ImageDraw.ImageDraw, box: kit.Box, lines: Sequence[tuple[int, str]], t: kit.Theme) -> None:
    x0, y0, x1, _ = box
    for i, (depth, text) in enumerate(lines):
        x = x0 + 17 * depth
        kit.draw_text(d, (x, y0 + i * LINE_H), text, LINE, t.text if depth == 0 else t.dim, max_w=x1 - x)


def board(
    game_id: str, view: JSON, names: Sequence[str] | None = None, theme: str | None = None
) -> Image.Image:
    """The generic public image."""
    return render(game_id, view, names, theme, private=False)


def hand(
    game_id: str, view: JSON, names: Sequence[str] | None = None, theme: str | None = None
) -> Image.Image:
    """The generic private image (the same layout, titled for the viewer)."""
    return render(game_id, view, names, theme, private=True)
