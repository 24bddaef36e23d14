"""Ophelia's evaluation for the AI (engine/games/ophelia/heuristics.py): shares in [0, 1] that sum to 1, more
points and the middle slot are worth more, its one-pass stats agree with board.stat, and the greedy player
(the normal level) finishes games with every ready deck."""

from __future__ import annotations

import time

import pytest

from engine.ai.evaluation import values
from engine.ai.greedy import GreedyPlayer
from engine.ai.random_player import RandomPlayer
from engine.games.ophelia import board as b
from engine.games.ophelia import heuristics as h
from engine.games.ophelia.cards import DECKS
from engine.games.ophelia.rules import Ophelia
from engine.games.ophelia.state import MIDDLE, OpheliaState, Unit

game = Ophelia()
DECK_IDS = sorted(DECKS)


def fresh(seed: int = 1, decks: tuple[str, str] = ("crown", "crown")) -> OpheliaState:
    """A new game with these decks."""
    return game.setup(2, seed, {"seat_choices": [{"deck": d} for d in decks]})


def place(s: OpheliaState, seat: int, col: int, card: str) -> Unit:
    """Put a new instance of a card into a slot."""
    u = Unit(s.mint(card).uid, card, seat)
    s.slots[seat][col] = u
    return u


def positions(games: int = 8) -> list[OpheliaState]:
    """Positions along games of greedy against random play (greedy fills the board), every deck."""
    out = []
    for i in range(games):
        s = fresh(100 + i, (DECK_IDS[i % 4], DECK_IDS[(i + 1 + i // 4) % 4]))
        players = [GreedyPlayer(i), RandomPlayer(i)] if i % 2 else [RandomPlayer(i), GreedyPlayer(i)]
        step = 0
        while to_act := game.to_act(s):
            if step % 3 == 0:
                out.append(game.from_json(game.to_json(s)))
            seat = to_act[0]
            game.apply(s, players[seat].choose(game, s, seat))
            step += 1
    return out


@pytest.fixture(scope="module")
def some_positions() -> list[OpheliaState]:
    return positions()


def test_shares_are_in_range_and_sum_to_one(some_positions: list[OpheliaState]) -> None:
    assert len(some_positions) > 100
    for s in some_positions:
        both = h.evaluate_all(s)
        assert all(0.0 <= v <= 1.0 for v in both)
        assert sum(both) == pytest.approx(1.0)
        assert h.evaluate(s, 0) == pytest.approx(both[0])
        assert values(game, s) == pytest.approx(both)


def test_one_pass_stats_agree_with_board_stat(some_positions: list[OpheliaState]) -> None:
    seen = 0
    for s in some_positions:
        work = h._Board(s)
        stats = h._stats(work.rows, work.dmg, work.mods, True)
        for row, col, u in b.on_field(s):
            assert stats[u.uid] == [b.stat(s, u, name, (row, col)) for name in h.STATS], u.card
            seen += 1
    assert seen > 100


def test_a_finished_game_is_scored_exactly() -> None:
    s = fresh()
    s.result = {"winners": [1]}
    assert h.evaluate_all(s) == [0.0, 1.0]


def test_more_points_are_worth_more() -> None:
    s = fresh()
    even = h.evaluate(s, 0)
    s.sides[0].points = 3
    ahead = h.evaluate(s, 0)
    s.sides[0].points, s.sides[1].points = 0, 3
    behind = h.evaluate(s, 0)
    assert behind < even < ahead
    assert ahead > 0.6 and behind < 0.4
    s.sides[0].points, s.sides[1].points = 4, 0
    assert h.evaluate(s, 0) > ahead


def test_the_middle_slot_wins_the_round() -> None:
    # Seat 1's turn after a quiet turn, hands empty: if it plays nothing, the round ends now.
    s = fresh()
    s.active, s.first, s.quiet, s.sides[0].hand, s.sides[1].hand = 1, 0, 1, [], []
    richard = place(s, 0, MIDDLE, "richard_the_lionheart")
    in_middle = h.evaluate(s, 0)
    s.slots[0][MIDDLE] = None
    s.slots[0][0] = richard
    outer = h.evaluate(s, 0)
    s.slots[0][0] = None
    place(s, 1, MIDDLE, "richard_the_lionheart")
    theirs = h.evaluate(s, 0)
    assert in_middle > 0.5 > theirs
    assert in_middle > outer > theirs


def test_more_power_in_the_middle_beats_more_power_on_the_side() -> None:
    s = fresh()
    s.active, s.first, s.quiet, s.sides[0].hand, s.sides[1].hand = 1, 0, 1, [], []
    place(s, 0, MIDDLE, "julius_caesar")  # 3 Power there
    for col in (0, 1, 3):
        place(s, 1, col, "richard_the_lionheart")  # 12 Power, none in the middle
    assert h.evaluate(s, 0) > 0.5


def test_the_coming_contest_is_counted() -> None:
    # 4 Power each in the middle slot, a tie that seat 1 (second this round) would win; but Nikola Tesla
    # (Initiative 5) strikes first in this turn's contest and defeats Joan of Arc (Life 3).
    s = fresh(decks=("lyceum", "crown"))
    s.active, s.first, s.quiet, s.sides[0].hand, s.sides[1].hand = 1, 0, 1, [], []
    place(s, 1, MIDDLE, "joan_of_arc")
    tesla = place(s, 0, MIDDLE, "nikola_tesla")
    assert h.evaluate(s, 0) > 0.5
    s.slots[0][MIDDLE] = None
    s.slots[0][0] = tesla  # out of the middle: no contest, Joan holds it
    assert h.evaluate(s, 0) < 0.5


def test_cards_in_hand_are_worth_keeping() -> None:
    s = fresh()
    full = h.evaluate(s, 0)
    s.sides[0].hand = s.sides[0].hand[:2]
    assert h.evaluate(s, 0) < full


def test_the_evaluation_is_fast(some_positions: list[OpheliaState]) -> None:
    start = time.perf_counter()
    for s in some_positions:
        h.evaluate_all(s)
    assert (time.perf_counter() - start) / len(some_positions) < 0.002  # about 0.05 ms on a quiet machine


@pytest.mark.parametrize("decks", [("crown", "lyceum"), ("tide", "crown_tide")])
def test_greedy_players_finish_a_game(decks: tuple[str, str]) -> None:
    s = fresh(7, decks)
    players = [GreedyPlayer(1), GreedyPlayer(2)]
    moves = 0
    while to_act := game.to_act(s):
        seat = to_act[0]
        game.apply(s, players[seat].choose(game, s, seat))
        moves += 1
        assert moves < game.max_actions
    result = game.returns(s)
    assert result is not None and sorted(result) == [0.0, 1.0]
    assert max(side.points for side in s.sides) >= 5
