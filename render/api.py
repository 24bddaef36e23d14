"""The entry points: board and hand images of any game's view, dispatched to its renderer."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image

from render import generic, kit, omphala, ophion

JSON = dict[str, Any]
Renderer = Callable[[JSON, Sequence[str] | None, str | None], Image.Image]

# game id -> (board renderer, hand renderer); a new game's renderer is one line here.
RENDERERS: dict[str, tuple[Renderer, Renderer]] = {
    "omphala": (omphala.board, omphala.hand),
    "ophion": (ophion.board, ophion.hand),
}


def warm(theme: str | None = None) -> None:
    """Pre-draw the cached card tiles of every game with its own renderer (call once at start-up)."""
    omphala.warm(theme)
    ophion.warm(theme)


def board_image(
    game_id: str, view: JSON, names: Sequence[str] | None = None, theme: str | None = None
) -> Image.Image:
    """The public board as a Pillow image; ValueError if the view is not the spectator view."""
    if view.get("viewer") is not None:
        raise ValueError("the board is public: draw it from the spectator view, view(state, None)")
    if game_id in RENDERERS:
        return RENDERERS[game_id][0](view, names, theme)
    return generic.board(game_id, view, names, theme)


def hand_image(
    game_id: str, view: JSON, names: Sequence[str] | None = None, theme: str | None = None
) -> Image.Image:
    """One viewer's private image as a Pillow image."""
    if game_id in RENDERERS:
        return RENDERERS[game_id][1](view, names, theme)
    return generic.hand(game_id, view, names, theme)


def board(game_id: str, view: JSON, names: Sequence[str] | None = None, theme: str | None = None) -> bytes:
    """The public board as PNG bytes, from the spectator view (game.view(state, None))."""
    return kit.to_png(board_image(game_id, view, names, theme))


def hand(game_id: str, view: JSON, names: Sequence[str] | None = None, theme: str | None = None) -> bytes:
    """One viewer's private image as PNG bytes, from game.view(state, seat)."""
    return kit.to_png(hand_image(game_id, view, names, theme))
