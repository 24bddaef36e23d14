"""Tests for render/games/ophion.py: golden images of real games, the public board, sizes and odd views.

Golden images live in tests/golden/ (prefix ophion_). After an intended change to the look, or to Ophion's
rules, RNG or event texts, regenerate them with
    AGORA_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/games/ophion/test_render_ophion.py
and look at the new PNGs before committing them.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.ai.random_player import RandomPlayer
from engine.match import Match
from render import api as render
from render import kit
from render.games import ophion
from tests.games.test_present import play_match
from tests.golden_check import check_golden, image

NAMES = ["Ada", "Bartholomew the Magnificent", "Cy", "Dee"]
SEED = 1

JSON = dict[str, Any]


def _play(n: int, seed: int, steps: int | None = None) -> Match:
    """An Ophion match played by random players for `steps` moves (to the end when None)."""
    return play_match("ophion", n, seed, steps)


def _stage(n: int, stage: str) -> Match:
    length = len(_play(n, SEED).log)
    return _play(n, SEED, {"start": 0, "middle": length // 2, "end": None}[stage])


# ---------------------------------------------------------------- golden images


@pytest.mark.parametrize("stage", ["start", "middle", "end"])
@pytest.mark.parametrize("n", [2, 4])
def test_board_golden(n: int, stage: str) -> None:
    m = _stage(n, stage)
    check_golden(f"ophion_{n}p_{stage}", render.board("ophion", m.game.view(m.state, None), NAMES[:n]))


@pytest.mark.parametrize("n", [2, 4])
def test_hand_golden(n: int) -> None:
    m = _stage(n, "middle")
    seat = m.to_act()[0]
    check_golden(f"ophion_{n}p_middle_hand", render.hand("ophion", m.game.view(m.state, seat), NAMES[:n]))


def test_light_theme_golden() -> None:
    m = _stage(4, "middle")
    png = render.board("ophion", m.game.view(m.state, None), NAMES, "light")
    check_golden("ophion_4p_middle_light", png)


# ---------------------------------------------------------------- the board is public


def test_board_refuses_a_private_view() -> None:
    m = _play(3, 4, 10)
    with pytest.raises(ValueError, match="spectator"):
        render.board("ophion", m.game.view(m.state, 0))


def test_hand_shows_the_viewers_cards() -> None:
    m = _play(2, 5, 9)
    g = m.game
    seat = m.to_act()[0]
    own = g.view(m.state, seat)
    assert own["players"][seat]["hand"]
    emptied = copy.deepcopy(own)
    emptied["players"][seat]["hand"] = []
    assert render.hand("ophion", own) != render.hand("ophion", emptied)
    assert image(render.hand("ophion", g.view(m.state, None))).width == kit.WIDTH  # spectators: a banner


# ---------------------------------------------------------------- sizes through whole games


@pytest.mark.parametrize("n", [2, 3, 4])
def test_sizes_through_a_whole_game(n: int) -> None:
    """Every few moves: a phone-wide board under twice as tall as wide, and PNGs under 300 KB."""
    m = Match.new("ophion", n, 7)
    g, ai, step = m.game, RandomPlayer(7), 0
    while True:
        if step % 9 == 0 or m.is_over():
            png = render.board("ophion", g.view(m.state, None), NAMES[:n])
            board = image(png)
            assert board.width == kit.WIDTH and board.height < 2 * kit.WIDTH
            assert len(png) < 300_000
            seat = m.to_act()[0] if m.to_act() else 0
            hand_png = render.hand("ophion", g.view(m.state, seat), NAMES[:n])
            assert len(hand_png) < 300_000 and image(hand_png).width == kit.WIDTH
        if m.is_over():
            break
        m.apply(ai.choose(g, m.state, m.to_act()[0]))
        step += 1


# ---------------------------------------------------------------- odd views and helpers


def test_odd_views_still_draw() -> None:
    m = _play(4, 3, 30)
    view = m.game.view(m.state, None)
    view["market"][1] = None  # an empty market slot
    view["market"][2] = {"card": "no_such_card", "name": "?", "price": 9, "surcharge": 1}
    view["players"][0]["attack_grid"] = ["dragon", "dragon", "goblin"]  # more than the grid holds
    view["players"][1]["upgrades"] = [None, "mystery", None]
    view["players"][2]["eternity"] = 12
    view["last"] = {"player": 0, "kind": "summon", "text": "P1 summons a Goblin to the attack grid " * 6}
    assert image(render.board("ophion", view, NAMES)).width == kit.WIDTH
    assert image(render.board("ophion", {"viewer": None})).width == kit.WIDTH
    junk = {"viewer": None, "market": [{"name": "x", "cost": i} for i in range(60)], "players": [{"seat": 0}]}
    assert image(render.board("ophion", junk)).width == kit.WIDTH


def test_status_and_names() -> None:
    m = _play(2, 1, 0)
    view = m.game.view(m.state, None)
    assert ophion.status_text(view, ["Ann", "Bob"]).startswith("Round 1/9 · Ann to play · ")
    over = _play(2, 1).game.view(_play(2, 1).state, None)
    assert ophion.status_text(over, ["Ann", "Bob"]).startswith("Game over · ")
    assert kit.seat_refs("P2 attacks P1: 3 against 2", ["Ann", "Bob"]) == "Bob attacks Ann: 3 against 2"
    assert kit.seat_refs("P7 passes", ["Ann"]) == "P7 passes"


def test_tiles_are_cached_and_warm() -> None:
    ophion.warm("dark")
    assert ophion.card_tile("troll", 4, 150, 168, "dark") is ophion.card_tile("troll", 4, 150, 168, "dark")
    assert ophion.token("dragon", 300, 56, "dark").size == (300, 56)
    assert ophion.token("goblin", 80, 56, "dark").size == (80, 56)
