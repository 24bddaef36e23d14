"""Matches: replay from the log, monotonic state_id, and undo within the player's own turn only."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.match import Match
from engine.rng import Rng


def started(n: int = 3, seed: int = 4) -> Match:
    """A match past the simultaneous front-row choice."""
    m = Match.new("omphala", n, seed)
    for p in range(n):
        m.apply(m.game.legal_actions(m.state, p)[0])
    return m


def test_rng_is_a_pure_function_of_seed_and_counter() -> None:
    """Output i depends only on (seed, i), so a state's RNG can be saved as two integers."""
    a, b = Rng(42), Rng(42)
    assert [a.next64() for _ in range(5)] == [b.next64() for _ in range(5)]
    c = Rng.from_json(a.to_json())
    assert c.below(1000) == a.below(1000)
    counts = [0] * 4
    for _ in range(4000):
        counts[a.below(4)] += 1
    assert all(800 < x < 1200 for x in counts)


def test_replay_rebuilds_and_state_id_grows() -> None:
    """setup + log always rebuilds the same state."""
    m = started()
    assert m.state_id == 3 and len(m.log) == 3
    again = Match.replay("omphala", 3, 4, None, m.log)
    assert m.game.to_json(again.state) == m.game.to_json(m.state)


def test_wrong_player_count_is_refused() -> None:
    """Omphala is for 2 to 6 players."""
    with pytest.raises(ValueError, match="2 to 6 players"):
        Match.new("omphala", 7, 1)


def test_undo_within_own_turn_but_not_past_a_draw() -> None:
    """Undo replays the log without the last action, only within the acting player's own turn and never
    past a random draw or a hidden reveal (DESIGN.md)."""
    m = started()
    p = m.state.current
    m.submit(p, f"shield:c=KD:t={m.state.seats[p].front_ids[0]}")  # seed 4 deals P1 a K♦
    assert m.can_undo(p) and not m.can_undo((p + 1) % 3)
    back = m.undo(p)
    assert back.log == m.log[:-1] and back.state_id == m.state_id + 1
    m = back
    m.submit(p, "draw")
    assert not m.can_undo(p), "a draw reveals a random card: no undo past it"
    with pytest.raises(IllegalAction):
        m.undo(p)


def test_undo_is_refused_after_the_turn_passed() -> None:
    """Only within the acting player's own turn."""
    m = started()
    p = m.state.current
    m.submit(p, "end_turn")
    assert not m.can_undo(p)
