"""A game's evaluation, found in its own package: `engine/games/<id>/heuristics.py` defines
`evaluate(state, seat) -> float` (a share of the win in [0, 1]) and may define `evaluate_all(state) ->
list[float]` (every seat's share at once, cheaper). A game without one is judged neutral until it ends.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from types import ModuleType
from typing import Any

from engine.core import Game, PlayerId

Evaluate = Callable[[Any, PlayerId], float]

_MODULES: dict[type, ModuleType | None] = {}


def heuristics(game: Game[Any]) -> ModuleType | None:
    """The heuristics module next to the game's rules, or None if the game has none."""
    cls = type(game)
    if cls not in _MODULES:
        package = cls.__module__.rpartition(".")[0]
        name = f"{package}.heuristics" if package else "heuristics"
        try:
            _MODULES[cls] = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name != name:
                raise
            _MODULES[cls] = None
    return _MODULES[cls]


def seats(game: Game[Any], state: Any) -> int:
    """How many seats a state has: its num_players, else the players its spectator view lists."""
    n = getattr(state, "num_players", None)
    if isinstance(n, int):
        return n
    view = game.view(state, None)
    return int(view.get("num_players") or len(view.get("players") or ()))


def softmax(strengths: list[float], temp: float) -> list[float]:
    """Shares of the win from each seat's strength: a softmax at this temperature (higher: closer to even)."""
    top = max(strengths)
    e = [math.exp((x - top) / temp) for x in strengths]
    total = sum(e)
    return [x / total for x in e]


def values(game: Game[Any], state: Any) -> list[float]:
    """Every seat's share of the win: the result once the game is over, else the game's evaluation
    (normalised to sum 1), else an equal share."""
    result = game.returns(state)
    if result is not None:
        return list(result)
    n = seats(game, state)
    mod = heuristics(game)
    if mod is None:
        return [1.0 / n] * n
    if hasattr(mod, "evaluate_all"):
        out = list(mod.evaluate_all(state))
    else:
        out = [float(mod.evaluate(state, i)) for i in range(n)]
    total = sum(out)
    return [v / total for v in out] if total > 0 else [1.0 / n] * n


def evaluate(game: Game[Any], state: Any, seat: PlayerId) -> float:
    """One seat's share of the win by the game's evaluation (see values)."""
    return values(game, state)[seat]


def played_forward(
    game: Any,
    s: Any,
    acting: Callable[[Any], bool],
    passed: tuple[str, ...],
    score: Callable[[Any, PlayerId], float],
    steps: int = 24,
    choose: int = 8,
) -> Any:
    """A copy of `s` with the action under way played to its end (while `acting(state)`), by default
    answers: a decision of a kind in `passed` is passed, a lone move played, any other choice answered by
    the move its player scores best (`score(state, seat)`, the first `choose` moves weighed); at most `steps`
    answers."""
    c = game.from_json(game.to_json(s))
    for _ in range(steps):
        if not acting(c):
            break
        d = c.decisions[-1]
        seat = d.players[0]
        moves = game.legal_actions(c, seat)
        by_kind = {m.kind: m for m in moves}
        if d.kind in passed and "pass" in by_kind:
            move = by_kind["pass"]
        elif len(moves) == 1:
            move = moves[0]
        else:
            data = game.to_json(c)
            best, move = -math.inf, moves[0]
            for m in moves[:choose]:
                trial = game.from_json(data)
                game.apply_legal(trial, m)
                value = score(trial, seat)
                if value > best:
                    best, move = value, m
        game.apply_legal(c, move)
    return c
