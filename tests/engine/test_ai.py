"""The AI players: ISMCTS finds a winning move and reads nothing hidden, greedy prefers a better move,
and every level returns a legal move in random positions of every game."""

from __future__ import annotations

from typing import Any

import pytest

import bot.ai
from bot.ai import LEVELS, choose_move, hint
from engine.ai.evaluation import values
from engine.ai.greedy import GreedyPlayer
from engine.ai.ismcts import Ismcts
from engine.ai.random_player import RandomPlayer
from engine.core import find_action
from engine.games.omphala.cards import by_rank
from engine.games.omphala.state import Seat
from engine.registry import games

GAMES = sorted(games())


def random_position(game_id: str, players: int, seed: int, steps: int) -> Any:
    """A position reached by random play (or the last one before the end)."""
    game = games()[game_id]
    s = game.setup(players, seed)
    rnd = RandomPlayer(seed)
    for _ in range(steps):
        to_act = game.to_act(s)
        if not to_act:
            break
        nxt = game.from_json(game.to_json(s))
        game.apply(nxt, rnd.choose(game, nxt, to_act[0]))
        if not game.to_act(nxt):
            break
        s = nxt
    return s


def omphala_steal_position() -> Any:
    """Deck empty, P1 has one action left. Stealing P2's K♣ with K♠ leaves P2 without a move: a sure win.
    Attacking (P2's K♣ then takes K♠) or ending the turn (K♣ takes 2♣) loses."""
    game = games()["omphala"]
    s = game.setup(2, 1)
    s.phase, s.decisions, s.deck, s.discard = "play", [], [], []
    s.current, s.stage, s.actions_left, s.to_draw, s.turn = 0, "act", 1, 0, 20
    s.seats = [
        Seat(front_row=[["2C"]], front_ids=[1], back_row=[["KS"]]),
        Seat(front_row=[["JD"], ["10D"]], front_ids=[2, 3], back_row=[["KC"]]),
    ]
    s.next_uid = 3
    return s


def ophion_last_move_position() -> Any:
    """Round 9, P1's last AP: a Troll (attack 3) on the attack grid beats P2's empty defense and wins the
    game; anything else ties both combats and loses by two."""
    game = games()["ophion"]
    s = game.setup(2, 1)
    s.round = 9
    me, them = s.players
    me.vp, me.eternity, me.mana, me.gold, me.ap, me.hand = 0, 2, 3, 0, 1, []
    them.vp, them.eternity, them.ap, them.passed, them.gold = 2, 2, 0, True, 0
    me.upgrades, them.upgrades = ["troll", None, None], [None, None, None]
    s.current = 0
    return s


def test_levels_exist_by_name() -> None:
    assert list(LEVELS) == ["random", "easy", "normal", "hard"]
    for level in LEVELS:
        assert hasattr(bot.ai.player_for(level, 1), "choose")
    with pytest.raises(KeyError, match="known"):
        bot.ai.player_for("grandmaster", 1)


def test_ismcts_finds_omphala_winning_steal() -> None:
    game = games()["omphala"]
    s = omphala_steal_position()
    keys = [a.key for a in game.legal_actions(s, 0)]
    assert "steal:c=KS:p=1:t=KC" in keys and "attack:c=KS:p=1:t=2" in keys
    result = Ismcts(seed=3, iterations=300).search(game, s, 0)
    assert result.action.key == "steal:c=KS:p=1:t=KC"
    assert result.stats[0].key == result.action.key and result.stats[0].mean > 0.9


def test_ismcts_finds_ophion_winning_summon() -> None:
    game = games()["ophion"]
    s = ophion_last_move_position()
    win = find_action(game, s, 0, "summon:m=troll:g=a")
    after = game.from_json(game.to_json(s))
    game.apply(after, win)
    assert game.returns(after) == [1.0, 0.0]
    result = Ismcts(seed=5, iterations=200).search(game, s, 0)
    assert result.action.key == "summon:m=troll:g=a"


def test_greedy_prefers_the_better_move() -> None:
    game = games()["ophion"]
    s = ophion_last_move_position()
    assert GreedyPlayer(1).choose(game, s, 0).key == "summon:m=troll:g=a"
    game = games()["omphala"]
    s = omphala_steal_position()
    s.actions_left = 2
    s.seats[1].back_row = []  # nothing threatens P1: any capture beats ending the turn
    assert GreedyPlayer(1).choose(game, s, 0).kind in ("attack", "steal")


def _same_search(game_id: str, a: Any, b: Any, seat: int) -> None:
    game = games()[game_id]
    assert game.view(a, seat) == game.view(b, seat), "the two worlds must look the same to the seat"
    assert game.to_json(a) != game.to_json(b), "the two worlds must differ"
    ra = Ismcts(seed=11, iterations=60).search(game, a, seat)
    rb = Ismcts(seed=11, iterations=60).search(game, b, seat)
    assert ra == rb
    for level in ("easy", "normal"):
        assert choose_move(game, a, seat, level, 4) == choose_move(game, b, seat, level, 4)


def test_search_reads_no_hidden_omphala() -> None:
    game = games()["omphala"]
    a = random_position("omphala", 2, 7, 12)
    seat = game.to_act(a)[0]
    other = 1 - seat
    b = game.from_json(game.to_json(a))
    theirs = b.seats[other]
    secret = theirs.secret[0]
    for e in theirs.front_row:  # swap one of their face-down cards with the deck's top card
        if secret in e:
            e[e.index(secret)] = b.deck[-1]
    theirs.secret[0], b.deck[-1] = b.deck[-1], secret
    b.deck[0], b.deck[1] = b.deck[1], b.deck[0]
    _same_search("omphala", a, b, seat)


def test_search_reads_no_hidden_omphala_opening() -> None:
    game = games()["omphala"]
    a = game.setup(3, 5)
    b = game.from_json(game.to_json(a))
    b.seats[2].hand[0], b.deck[-1] = b.deck[-1], b.seats[2].hand[0]
    b.seats[2].hand.sort(key=by_rank)
    _same_search("omphala", a, b, 1)


def test_search_reads_no_hidden_ophion() -> None:
    game = games()["ophion"]
    for steps in range(10, 60):  # a position where the opponent holds a card unlike one in their deck
        a = random_position("ophion", 2, 3, steps)
        seat = game.to_act(a)[0]
        b = game.from_json(game.to_json(a))
        theirs = b.players[1 - seat]
        swaps = [(h, i) for h, x in enumerate(theirs.hand) for i, y in enumerate(theirs.deck) if x != y]
        if swaps:
            break
    h, i = swaps[0]
    theirs.hand[h], theirs.deck[i] = theirs.deck[i], theirs.hand[h]
    theirs.hand.sort()
    b.players[seat].deck.reverse()
    b.tier1.reverse()
    _same_search("ophion", a, b, seat)


def test_search_is_reproducible() -> None:
    game = games()["ophion"]
    s = random_position("ophion", 3, 9, 15)
    seat = game.to_act(s)[0]
    r1 = Ismcts(seed=2, iterations=40).search(game, s, seat)
    r2 = Ismcts(seed=2, iterations=40).search(game, s, seat)
    assert r1 == r2 and r1.iterations == 40
    assert sum(m.visits for m in r1.stats) == 40


@pytest.mark.parametrize("game_id", GAMES)
def test_every_level_plays_legal_moves(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot.ai, "HARD_ITERATIONS", 20)
    game = games()[game_id]
    for seed, players, steps in ((1, 2, 0), (2, 2, 9), (3, 3, 25), (4, 4, 60), (5, 2, 400)):
        players = min(max(players, game.min_players), game.max_players)
        s = random_position(game_id, players, seed, steps)
        before = game.to_json(s)
        for seat in game.to_act(s):
            legal = {a.key for a in game.legal_actions(s, seat)}
            for level in LEVELS:
                assert choose_move(game, s, seat, level, seed) in legal
        assert game.to_json(s) == before, "choosing must not touch the state"


@pytest.mark.parametrize("game_id", GAMES)
def test_evaluation_is_a_share(game_id: str) -> None:
    game = games()[game_id]
    for seed, players, steps in ((1, 2, 5), (2, 4, 40), (3, 3, 400)):
        players = min(max(players, game.min_players), game.max_players)
        v = values(game, random_position(game_id, players, seed, steps))
        assert len(v) == players and abs(sum(v) - 1) < 1e-9 and all(0 <= x <= 1 for x in v)


def test_hint_gives_top_moves_with_estimates() -> None:
    game = games()["ophion"]
    s = ophion_last_move_position()
    tips = hint(game, s, 0, seed=1, top=3, iterations=150, max_time=None)
    assert len(tips) == 3 and tips[0][0] == "summon:m=troll:g=a"
    assert all(0 <= p <= 1 for _, p in tips) and tips[0][1] > 0.9
    assert hint(game, s, 1, seed=1) == []


@pytest.mark.parametrize("game_id", sorted(games()))
def test_apply_legal_is_apply_without_the_check(game_id: str) -> None:
    """The search's fast path plays a legal move exactly as apply does (same events, same state)."""
    game = games()[game_id]
    a, b = game.setup(2, 3), game.setup(2, 3)
    pick = RandomPlayer(5)
    for _ in range(60):
        if not (to_act := game.to_act(a)):
            break
        move = pick.choose(game, a, to_act[0])
        assert [e.text for e in game.apply(a, move)] == [e.text for e in game.apply_legal(b, move)]
        assert game.to_json(a) == game.to_json(b)


def test_the_game_tunes_its_search() -> None:
    """A game's heuristics module may set the rollout depth, the exploration and a factor on the
    iterations (Ophelia and Siege of Olympus: no rollout; Omphala: more iterations, its moves are cheap)."""
    from engine.ai.evaluation import heuristics

    assert heuristics(games()["ophelia"]).ROLLOUT_DEPTH == 0
    assert heuristics(games()["siege_of_olympus"]).ROLLOUT_DEPTH == 0
    assert not hasattr(heuristics(games()["ophion"]), "ROLLOUT_DEPTH")  # the defaults
    budget = heuristics(games()["omphala"]).SEARCH_BUDGET
    result = Ismcts(seed=1, iterations=10).search(games()["omphala"], omphala_steal_position(), 0)
    assert result.iterations == round(10 * budget) > 10


def test_prior_starts_the_search_from_the_one_ply_order() -> None:
    """Root priors: each root move starts with the one-ply evaluation's value (what the normal level
    weighs), so with no iteration the search plays the normal level's move; the visits it reports are
    its own, never the prior's."""
    game = games()["ophion"]
    s = ophion_last_move_position()
    result = Ismcts(seed=1, iterations=0, prior=10).search(game, s, 0)
    assert result.action.key == GreedyPlayer(1).choose(game, s, 0).key == "summon:m=troll:g=a"
    assert result.iterations == 0 and all(m.visits == 0 for m in result.stats)
    assert result.stats[0].mean == 1.0
    searched = Ismcts(seed=1, iterations=50, prior=10).search(game, s, 0)
    assert sum(m.visits for m in searched.stats) == 50
    assert searched.action.key == "summon:m=troll:g=a"


def test_deep_priors_search_reproducibly() -> None:
    """PRIOR_DEEP (Siege of Olympus: a turn is many actions) orders every node's moves by their one-ply
    value; the search stays a function of the seat's view and the seed, and counts only its own visits."""
    from engine.ai.evaluation import heuristics

    game = games()["siege_of_olympus"]
    assert heuristics(game).PRIOR_DEEP
    s = random_position("siege_of_olympus", 2, 4, 40)
    seat = game.to_act(s)[0]
    r1 = Ismcts(seed=2, iterations=30).search(game, s, seat)
    r2 = Ismcts(seed=2, iterations=30).search(game, s, seat)
    assert r1 == r2 and r1.iterations == 30 and sum(m.visits for m in r1.stats) == 30
    assert r1.action in game.legal_actions(s, seat)
