"""The entry points: board and hand images of any game's view, drawn by the game's board module.

A game's module is render/games/<game id>.py, found by its id, with `board(view, names, theme)` and
`hand(view, names, theme)` (and optionally `warm(theme)` and `TILE_CACHES`); a game without one gets the
generic rendering (render/generic.py). A new game's images are one new file, nothing here.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Sequence
from functools import cache
from types import ModuleType
from typing import Any

from PIL import Image

import render.games
from render import generic, kit

JSON = dict[str, Any]


@cache
def module(game_id: str) -> ModuleType | None:
    """render/games/<game_id>.py, or None when the game has no board module of its own."""
    if not game_id.isidentifier():
        return None
    name = f"render.games.{game_id}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:
            raise
        return None


def game_ids() -> list[str]:
    """The ids of every game with its own board module."""
    return sorted(m.name for m in pkgutil.iter_modules(render.games.__path__) if not m.name.startswith("_"))


def warm(theme: str | None = None) -> None:
    """Pre-draw the cached tiles of every board module that has a warm() (call once at start-up)."""
    for game_id in game_ids():
        found = module(game_id)
        if found is not None and hasattr(found, "warm"):
            found.warm(theme)


def board_image(
    game_id: str, view: JSON, names: Sequence[str] | None = None, theme: str | None = None
) -> Image.Image:
    """The public board as a Pillow image; ValueError if the view is not the spectator view."""
    if view.get("viewer") is not None:
        raise ValueError("the board is public: draw it from the spectator view, view(state, None)")
    found = module(game_id)
    if found is not None:
        return found.board(view, names, theme)
    return generic.board(game_id, view, names, theme)


def hand_image(
    game_id: str, view: JSON, names: Sequence[str] | None = None, theme: str | None = None
) -> Image.Image:
    """One viewer's private image as a Pillow image."""
    found = module(game_id)
    if found is not None:
        return found.hand(view, names, theme)
    return generic.hand(game_id, view, names, theme)


def board(game_id: str, view: JSON, names: Sequence[str] | None = None, theme: str | None = None) -> bytes:
    """The public board as PNG bytes, from the spectator view (game.view(state, None))."""
    return kit.to_png(board_image(game_id, view, names, theme))


def hand(game_id: str, view: JSON, names: Sequence[str] | None = None, theme: str | None = None) -> bytes:
    """One viewer's private image as PNG bytes, from game.view(state, seat)."""
    return kit.to_png(hand_image(game_id, view, names, theme))
