"""AI levels a seat can be given, by name; each picks a move from what the seat can see.

random: uniform among the legal moves (tests, benchmarks). easy: random, but takes a move that clearly
improves its position (a capture, points). normal: the best move by one ply over the game's evaluation.
hard: information-set MCTS with the evaluation, starting from normal's order of the moves; at most about
1.2 s a move. `hint` is the hard search's top moves with their estimated win chances, for the player to act.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from engine.ai.greedy import EasyPlayer, GreedyPlayer
from engine.ai.ismcts import Ismcts
from engine.ai.random_player import RandomPlayer
from engine.core import Action, Game, PlayerId

# The hard level's budget: iterations make it reproducible (a game whose moves are cheap to search scales
# them, engine/ai/ismcts.py); the time cap bounds a slow position, with margin under 1.5 s a decision.
HARD_ITERATIONS = 600
HARD_MAX_TIME = 1.2
HINT_ITERATIONS = 1000
HINT_MAX_TIME = 2.0


class Player(Protocol):
    """Anything that picks a legal action for a seat."""

    def choose(self, game: Game[Any], state: Any, player: PlayerId) -> Action:
        """One legal action for this seat."""
        ...


def hard_player(seed: int) -> Player:
    """ISMCTS at the hard level's budget."""
    return Ismcts(seed, iterations=HARD_ITERATIONS, max_time=HARD_MAX_TIME)


# name -> factory(seed), weakest first.
LEVELS: dict[str, Callable[[int], Player]] = {
    "random": RandomPlayer,
    "easy": EasyPlayer,
    "normal": GreedyPlayer,
    "hard": hard_player,
}
DEFAULT_LEVEL = "normal"  # what a server or a terminal game gets unless it asks; random stays for tests
SEARCHES = frozenset({"hard"})  # levels that deal their own worlds from the seat's view


def player_for(level: str, seed: int) -> Player:
    """A fresh player of this level, seeded; KeyError naming the known levels otherwise."""
    try:
        return LEVELS[level](seed)
    except KeyError:
        raise KeyError(f"unknown AI level {level!r}; known: {', '.join(LEVELS)}") from None


def _sample(game: Game[Any], state: Any, seat: PlayerId, seed: int) -> Any:
    """A world the seat cannot tell from the real one, the same for every real state it cannot tell apart."""
    try:
        return game.determinize(state, seat, seed)
    except NotImplementedError:
        return game.from_json(game.to_json(state))


def choose_move(game: Game[Any], state: Any, seat: PlayerId, level: str, seed: int) -> str:
    """The key of the move an AI of this level makes; pure CPU work (run it in a worker process).

    The player sees a determinized copy (what the seat cannot see is resampled), so it cannot cheat
    and never touches the live state; a search deals its own worlds from the seat's view. If a game's
    determinize were to change the seat's own legal moves, the choice is checked and the AI falls back
    to a random legal move of the real state.
    """
    player = player_for(level, seed)
    legal = [a.key for a in game.legal_actions(state, seat)]
    if not legal:
        raise ValueError(f"seat {seat} has no legal action")
    if len(legal) == 1:
        return legal[0]
    sample = state if level in SEARCHES else _sample(game, state, seat, seed)
    key = player.choose(game, sample, seat).key
    if key not in legal:
        key = legal[RandomPlayer(seed).rng.below(len(legal))]
    return key


def hint(
    game: Game[Any],
    state: Any,
    seat: PlayerId,
    seed: int,
    top: int = 3,
    iterations: int = HINT_ITERATIONS,
    max_time: float | None = HINT_MAX_TIME,
) -> list[tuple[str, float]]:
    """The hard search's best moves for this seat, best first, each with its estimated chance of winning
    (0..1) after it; searched from the seat's own view only. [] for a seat not to act."""
    if not game.legal_actions(state, seat):
        return []
    result = Ismcts(seed, iterations=iterations, max_time=max_time).search(game, state, seat)
    return [(m.key, m.mean) for m in result.stats[:top]]
