"""Every game by id."""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from engine.core import Game

# Each entry is "module:ClassName"; a new game is one line here.
_GAMES = (
    "engine.games.omphala:Omphala",
    "engine.games.ophion:Ophion",
    "engine.games.ophelia:Ophelia",
    "engine.games.siege_of_olympus:Siege",
    "engine.games.ophidian:Ophidian",
)


@cache
def games() -> dict[str, Game[Any]]:
    """All registered games, by id, in registration order."""
    out: dict[str, Game[Any]] = {}
    for spec in _GAMES:
        module, _, name = spec.partition(":")
        game = getattr(importlib.import_module(module), name)()
        out[game.id] = game
    return out


def title_of(game_id: str) -> str:
    """A game's title by id (the id itself if no such game is registered: a game gone since)."""
    game = games().get(game_id)
    return game.title if game is not None else game_id


def get(game_id: str) -> Game[Any]:
    """The game with this id; KeyError with the known ids otherwise."""
    try:
        return games()[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}; known: {', '.join(games())}") from None


def register(game: Game[Any]) -> None:
    """Add a game at run time (a test's toy game, a plug-in); an id already taken is replaced."""
    games()[game.id] = game


def spec(game: Game[Any]) -> str:
    """Where a game's class lives, "module:Class": enough for another process to load it."""
    return f"{type(game).__module__}:{type(game).__qualname__}"


def load(ref: str) -> Game[Any]:
    """A game by id, or by spec(); a game another process registered at run time is imported and
    registered here too (a test's toy game, a plug-in)."""
    if ":" not in ref:
        return get(ref)
    module, _, name = ref.partition(":")
    game = getattr(importlib.import_module(module), name)()
    return games().setdefault(game.id, game)
