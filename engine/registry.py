"""Every game by id."""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from engine.core import Game

# Each entry is "module:ClassName"; a new game is one line here.
_GAMES = ("engine.games.omphala:Omphala", "engine.games.ophion:Ophion")


@cache
def games() -> dict[str, Game[Any]]:
    """All registered games, by id, in registration order."""
    out: dict[str, Game[Any]] = {}
    for spec in _GAMES:
        module, _, name = spec.partition(":")
        game = getattr(importlib.import_module(module), name)()
        out[game.id] = game
    return out


def get(game_id: str) -> Game[Any]:
    """The game with this id; KeyError with the known ids otherwise."""
    try:
        return games()[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}; known: {', '.join(games())}") from None


def register(game: Game[Any]) -> None:
    """Add a game at run time (a test's toy game, a plug-in); an id already taken is replaced."""
    games()[game.id] = game
