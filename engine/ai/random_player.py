"""A seeded random player: picks uniformly among the legal actions."""

from __future__ import annotations

from typing import Any

from engine.core import Action, Game, PlayerId
from engine.rng import Rng


class RandomPlayer:
    """Chooses uniformly at random from legal_actions, reproducibly from its seed."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, game: Game[Any], state: Any, player: PlayerId) -> Action:
        """One legal action for this seat; ValueError if it has none."""
        actions = game.legal_actions(state, player)
        if not actions:
            raise ValueError(f"seat {player} has no legal action")
        return actions[self.rng.below(len(actions))]
