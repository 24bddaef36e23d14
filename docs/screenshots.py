"""Draw the README's screenshots of the terminal app: one SVG per game at 100x30, saved by Textual's own
screenshot, after a few moves of a seeded game against the random AI.

    .venv/bin/python docs/screenshots.py          # writes docs/screens/<game>.svg
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.store import ACTIVE
from bot.tui.app import AgoraApp
from tests.terminal.test_tui import play_one, ready
from tests.tui_helpers import new_game

# moves played before the shot
GAMES = {"omphala": 3, "ophion": 4, "ophelia": 3, "siege_of_olympus": 5, "ophidian": 5}
OUT = Path(__file__).resolve().parent / "screens"


async def shoot(game_id: str, moves: int, folder: str) -> Path:
    """Play `moves` moves of a seeded game and save the screen."""
    db = str(Path(folder) / f"{game_id}.db")
    mid = await new_game(db, game_id, seed=5)
    app = AgoraApp(db, mid, "auto", ai_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        for step in range(moves):
            await ready(app)
            assert app.info is not None and app.info.status == ACTIVE
            await play_one(app, pilot, step * 5 + 1)
        await ready(app)
        await pilot.pause()
        path = OUT / f"{game_id}.svg"
        app.save_screenshot(str(path))
        await pilot.press("q")
    return path


async def main() -> None:
    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        for game_id, moves in GAMES.items():
            print(await shoot(game_id, moves, folder))


if __name__ == "__main__":
    asyncio.run(main())
