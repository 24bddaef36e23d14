"""Snapshots of the terminal app's main screen, one per game: the text of every panel at the first move of
a seeded game at 80x24, compared with tests/snapshots/tui/<game>.txt. A change to the layout or the words
shows up here as a diff to review; after a deliberate change, rewrite them with
AGORA_UPDATE_SNAPSHOTS=1 .venv/bin/python -m pytest tests/terminal/test_tui_snapshots.py"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.tui.app import AgoraApp
from tests.terminal.test_tui import GAMES, ready
from tests.tui_helpers import new_app

SNAPSHOTS = Path(__file__).parents[1] / "snapshots" / "tui"


def main_screen(app: AgoraApp) -> str:
    """The main screen's panels as text, panel by panel, in reading order."""
    from textual.widgets import Static, Tree

    parts = []
    for wid in ("#status", "#board", "#log", "#prompt", "#moves", "#chosen", "#hand"):
        widget = app.query_one(wid)
        if isinstance(widget, Tree):
            lines, stack = [], [(0, n) for n in reversed(widget.root.children)]
            while stack:
                depth, node = stack.pop()
                lines.append("  " * depth + str(node.label))
                stack.extend((depth + 1, n) for n in reversed(node.children))
            text = "\n".join(lines)
        else:
            assert isinstance(widget, Static)
            text = str(widget.visual)
        parts.append(f"--- {wid[1:]} ---\n{text.rstrip()}")
    return "\n".join(parts) + "\n"


@pytest.mark.parametrize("game_id", GAMES)
async def test_the_main_screen(tmp_path: Path, game_id: str) -> None:
    app = await new_app(tmp_path, game_id, seed=7)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app)
        await pilot.pause()
        shown = main_screen(app)
        board = app.query_one("#board-box")
        assert board.display and board.region.height >= 6 and board.region.width >= 30
        await pilot.press("q")
    path = SNAPSHOTS / f"{game_id}.txt"
    if os.environ.get("AGORA_UPDATE_SNAPSHOTS") or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(shown, encoding="utf-8")
    assert shown == path.read_text(encoding="utf-8")
