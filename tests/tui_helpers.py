"""Helpers for the terminal app's tests: a new console game in a database file (and the app on it), and the
app's screen as plain text (every widget's text, scrolled out of view or not)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from bot.console import PlayOptions, _new_game, _Screen
from bot.sessions import SessionManager
from bot.store import SqliteStore
from bot.tui.app import AgoraApp


async def new_game(
    db: str,
    game: str,
    seed: int = 1,
    players: int = 2,
    ai: int = 1,
    level: str = "random",
    pack: str | None = None,
) -> int:
    """A console game saved in `db`, ready to play; its id."""
    store = SqliteStore(db)
    await store.open()
    sessions = SessionManager(store, ai_delay=0)
    out = io.StringIO()
    try:
        opts = PlayOptions(game=game, players=players, ai=ai, seed=seed, db=db, level=level, pack=pack)
        mid = await _new_game(sessions, opts, _Screen(io.StringIO(), out, clear=False))
        assert mid is not None, out.getvalue()
        return mid
    finally:
        await sessions.close()
        await store.close()


async def new_app(
    tmp_path: Path, game: str, seed: int = 1, windows: str = "auto", confirm: bool = True, **options: Any
) -> AgoraApp:
    """The terminal app on a new game in tmp_path (`options` as new_game's) whose AI moves at once."""
    db = str(tmp_path / "games.db")
    return AgoraApp(db, await new_game(db, game, seed, **options), windows, ai_delay=0, confirm=confirm)


async def press_for_screen(app: AgoraApp, pilot: Any, key: str, screen: type) -> None:
    """Press `key`, wait until a screen of that kind is up, and let it draw."""
    await pilot.press(key)
    for _ in range(100):
        await pilot.pause()
        if isinstance(app.screen, screen):
            break
    await pilot.pause()


def screen_text(app: Any) -> str:
    """Everything the app holds in its widgets now, on screen or scrolled away: Statics, the move tree and
    every pushed screen's Statics."""
    from textual.widgets import Static, Tree

    parts: list[str] = []
    for screen in app.screen_stack:
        for w in screen.query(Static):
            parts.append(str(w.visual) if w.visual is not None else "")
        for t in screen.query(Tree):
            stack = [t.root]
            while stack:
                node = stack.pop()
                parts.append(str(node.label))
                stack.extend(node.children)
    return "\n".join(parts)


def region_text(app: Any, selector: str) -> list[str]:
    """The lines the screen shows now inside one widget's region (what a person sees there, scrolled and
    cut as drawn)."""
    region = app.query_one(selector).region
    strips = app.screen._compositor.render_strips()
    return [s.text[region.x : region.right] for s in strips[region.y : region.bottom]]
