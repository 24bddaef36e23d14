"""AI levels a seat can be given, by name; each picks a move from the seat's own determinized view."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from engine.ai.random_player import RandomPlayer
from engine.core import Action, Game, PlayerId


class Player(Protocol):
    """Anything that picks a legal action for a seat."""

    def choose(self, game: Game[Any], state: Any, player: PlayerId) -> Action:
        """One legal action for this seat."""
        ...


# name -> factory(seed); stronger players (greedy, ISMCTS) are one line each here.
LEVELS: dict[str, Callable[[int], Player]] = {
    "random": RandomPlayer,
}
DEFAULT_LEVEL = "random"


def player_for(level: str, seed: int) -> Player:
    """A fresh player of this level, seeded; KeyError naming the known levels otherwise."""
    try:
        return LEVELS[level](seed)
    except KeyError:
        raise KeyError(f"unknown AI level {level!r}; known: {', '.join(LEVELS)}") from None


def choose_move(game: Game[Any], state: Any, seat: PlayerId, level: str, seed: int) -> str:
    """The key of the move an AI of this level makes; runs in a worker thread.

    The player sees a determinized copy (what the seat cannot see is resampled), so it cannot cheat
    and never touches the live state. If a game's determinize were to change the seat's own legal
    moves, the choice is checked and the AI falls back to a random legal move of the real state.
    """
    try:
        sample = game.determinize(state, seat, seed)
    except NotImplementedError:
        sample = game.from_json(game.to_json(state))
    key = player_for(level, seed).choose(game, sample, seat).key
    legal = [a.key for a in game.legal_actions(state, seat)]
    if key not in legal:
        key = legal[RandomPlayer(seed).rng.below(len(legal))]
    return key
