"""One ply over the game's evaluation: play each legal move on a copy and keep the best; ties by seed."""

from __future__ import annotations

from typing import Any

from engine.ai.evaluation import values
from engine.core import Action, Game, PlayerId
from engine.rng import Rng


def scored_moves(game: Game[Any], state: Any, player: PlayerId) -> list[tuple[Action, float]]:
    """Every legal move of this seat with its evaluation (the seat's share) after it; state untouched.

    Call it on a determinized state: a move that draws reads the state's own deck."""
    data = game.to_json(state)
    out = []
    for a in game.legal_actions(state, player):
        copy = game.from_json(data)
        game.apply(copy, a)
        out.append((a, values(game, copy)[player]))
    return out


def best_moves(scored: list[tuple[Action, float]], eps: float = 1e-9) -> list[Action]:
    """The moves within eps of the best value."""
    top = max(v for _, v in scored)
    return [a for a, v in scored if v >= top - eps]


class GreedyPlayer:
    """Takes the move whose result the evaluation likes best for this seat; a seeded draw among ties."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, game: Game[Any], state: Any, player: PlayerId) -> Action:
        """The best move by one ply of look-ahead; ValueError if the seat has no move."""
        scored = scored_moves(game, state, player)
        if not scored:
            raise ValueError(f"seat {player} has no legal action")
        best = best_moves(scored)
        return best[self.rng.below(len(best))]


class EasyPlayer:
    """Plays at random, but takes the best move when it clearly improves the seat's evaluation (a
    capture, a point, a win)."""

    def __init__(self, seed: int = 0, margin: float = 0.05) -> None:
        self.rng = Rng(seed)
        self.margin = margin

    def choose(self, game: Game[Any], state: Any, player: PlayerId) -> Action:
        """A random move unless one is clearly better than the position now."""
        scored = scored_moves(game, state, player)
        if not scored:
            raise ValueError(f"seat {player} has no legal action")
        now = values(game, state)[player]
        best = best_moves(scored)
        if max(v for _, v in scored) >= now + self.margin:
            return best[self.rng.below(len(best))]
        return scored[self.rng.below(len(scored))][0]
