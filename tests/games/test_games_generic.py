"""Property tests that every registered game gets for free (OpenSpiel's random-simulation test is the model).

Hypothesis picks the seed, the number of players and every move; at each step the engine protocol of
DESIGN.md is checked. A game added to engine.registry is covered without writing a line here.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from engine.core import Action, Game, IllegalAction
from engine.match import Match
from engine.registry import games

GAMES = sorted(games())
# Random games per registered game; CI plays at least 200 Omphala games across 2-6 players.
EXAMPLES = int(os.environ.get("AGORA_GAME_EXAMPLES", "200"))
# Long games check many more positions per example, so they play fewer: about 15,000 checked positions a
# game at the default, as 200 Omphala games check some 13,000. Siege of Olympus's random games run about 510
# steps (30 games), Ophidian 2350's about 300 through four to seven Waves (50 games).
SHARE = {"siege_of_olympus": 0.15, "ophidian": 0.25}


def dumps(data: Any) -> str:
    """Canonical JSON text: fails on anything that is not plain JSON."""
    return json.dumps(data, sort_keys=True, allow_nan=False)


def check_step(game: Game[Any], s: Any, n: int, step_seed: int) -> None:
    """Everything that must hold at one position of a game."""
    to_act = game.to_act(s)
    assert len(set(to_act)) == len(to_act)
    for p in range(n):
        acts = game.legal_actions(s, p)
        assert bool(acts) == (p in to_act), f"seat {p}: legal actions must be non-empty iff it is to act"
        assert acts == sorted(acts), "legal actions must be sorted"
        keys = [a.key for a in acts]
        assert len(set(keys)) == len(keys), "action keys must be unique"
        assert all(a.player == p and len(a.key) <= 80 for a in acts)

    data = game.to_json(s)
    text = dumps(data)
    assert game.to_json(game.from_json(json.loads(text))) == data, "JSON round trip must be exact"

    spectator = dumps(game.view(s, None))
    # Determinizing is the costly check: at each step the seats to act and one more seat in rotation (over a
    # game every seat is resampled many times, at a fraction of the cost of every seat at every step).
    observers = {*game.to_act(s), step_seed % n}
    for p in sorted(observers):
        mine = dumps(game.view(s, p))
        d = game.determinize(s, p, step_seed)
        assert game.to_json(s) == data, "determinize must not touch the original state"
        assert dumps(game.view(d, p)) == mine, "a determinization must look the same to its observer"
        assert dumps(game.view(d, None)) == spectator, "and the same to a spectator"


def check_illegal(game: Game[Any], s: Any, n: int, legal: list[Action]) -> None:
    """Moves that are not legal raise IllegalAction and leave the state as it was."""
    before = dumps(game.to_json(s))
    to_act = game.to_act(s)
    wrong = [Action(legal[0].player, "no_such_move")]
    wrong += [Action(q, a.kind, a.args) for q in range(n) if q not in to_act for a in legal[:1]]
    for a in legal[:3]:
        if a.args:
            name, value = a.args[-1]
            odd = value + 1000 if isinstance(value, int) else f"{value}?"
            wrong.append(Action(a.player, a.kind, (*a.args[:-1], (name, odd))))
    for a in wrong:
        with pytest.raises(IllegalAction):
            game.apply(s, a)
        assert dumps(game.to_json(s)) == before, f"a refused {a.key} must leave the state unchanged"


@pytest.mark.parametrize("game_id", GAMES)
def test_setup_is_deterministic_and_hides_something(game_id: str) -> None:
    """The same seed deals the same game; determinize resamples what an observer cannot see."""
    game = games()[game_id]
    for n in range(game.min_players, game.max_players + 1):
        a, b = game.setup(n, 7), game.setup(n, 7)
        assert game.to_json(a) == game.to_json(b)
        assert game.to_json(game.setup(n, 8)) != game.to_json(a)
        for p in range(n):
            d1, d2 = game.determinize(a, p, 1), game.determinize(a, p, 2)
            assert game.to_json(d1) != game.to_json(d2), "determinize must really resample hidden cards"


@pytest.mark.parametrize("game_id", GAMES)
def test_random_games(game_id: str) -> None:
    """Random legal play to the end, checking the protocol at every step."""
    game = games()[game_id]

    @settings(
        max_examples=max(1, int(EXAMPLES * SHARE.get(game_id, 1.0))),
        deadline=None,
        database=None,
        phases=(Phase.explicit, Phase.generate),  # no shrinking: a failure prints its seed and moves
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(
        n=st.integers(game.min_players, game.max_players),
        seed=st.integers(0, 2**32 - 1),
        data=st.data(),
    )
    def play(n: int, seed: int, data: st.DataObject) -> None:
        m = Match.new(game_id, n, seed)
        s = m.state
        steps = 0
        while game.to_act(s):
            check_step(game, s, n, seed + steps)
            p = data.draw(st.sampled_from(game.to_act(s)), label="seat")
            legal = game.legal_actions(s, p)
            if steps % 7 == 0:
                check_illegal(game, s, n, legal)
            action = legal[data.draw(st.integers(0, len(legal) - 1), label="move")]
            m.apply(action)
            steps += 1
            assert steps <= game.max_actions, "the game must end within max_actions"
        check_step(game, s, n, seed)
        assert all(not game.legal_actions(s, p) for p in range(n))
        returns = game.returns(s)
        assert returns is not None and len(returns) == n
        assert abs(sum(returns) - 1.0) < 1e-9 and min(returns) >= 0
        replayed = Match.replay(game_id, n, seed, None, m.log)
        assert game.to_json(replayed.state) == game.to_json(s), "replaying the log must rebuild the state"

    play()
