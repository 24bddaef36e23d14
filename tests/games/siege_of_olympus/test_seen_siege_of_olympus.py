"""Siege of Olympus's `on_table` (engine/games/siege_of_olympus/present.py): every card a view shows face up,
zone by zone, with its stats now; never a card the viewer may not see."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from engine import registry
from engine.games.siege_of_olympus import present
from engine.table.present import Seen
from tests.siege_helpers import fresh, hold, jail, place, say, top

GAME = registry.get("siege_of_olympus")
NAMES = ["Ada", "AI 2"]
IDS = {e.id for e in present.catalogue()}


def played(seed: int, moves: int) -> Any:
    """A two-player game after `moves` random moves (or its end)."""
    s = GAME.setup(2, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if s.result is not None:
            break
        (p, *_) = GAME.to_act(s)
        GAME.apply(s, rng.choice(GAME.legal_actions(s, p)))
    return s


def at(seen: list[Seen], where: str) -> Counter[str]:
    """The cards listed in one zone."""
    return Counter(x.card for x in seen if x.where == where)


POSITIONS = [(seed, moves) for seed in (1, 2, 3, 4) for moves in (0, 15, 60, 150)]


@pytest.mark.parametrize(("seed", "moves"), POSITIONS)
def test_every_card_in_view_is_listed_by_its_catalogue_id(seed: int, moves: int) -> None:
    s = played(seed, moves)
    for viewer in (0, 1, None):
        view = GAME.view(s, viewer)
        seen = present.on_table(view, NAMES)
        assert {x.card for x in seen} <= IDS
        assert all(len(x.now) < 90 for x in seen)
        mine = [x for x in seen if x.mine]
        assert all(x.where == "Your hand" for x in mine)
        hand = view["players"][viewer]["hand"] if viewer is not None else []
        assert Counter(x.card for x in mine) == Counter(hand)
        for p in view["players"]:
            field = "Your field" if p["seat"] == viewer else f"{NAMES[p['seat']]} · field"
            assert at(seen, field) == Counter(m["card"] for m in p["minions"])
        assert at(seen, "Agora") == Counter(view["agora"])
        assert at(seen, "Tartarus") == Counter(m["card"] for m in view["tartarus"])


@pytest.mark.parametrize(("seed", "moves"), POSITIONS)
def test_what_the_viewer_cannot_see_changes_nothing(seed: int, moves: int) -> None:
    s = played(seed, moves)
    seen = present.on_table(GAME.view(s, 0), NAMES)
    hidden = set(s.sides[1].hand)
    assert not hidden & {x.card for x in seen}
    resampled = False
    for k in range(3):
        world = GAME.determinize(s, 0, k)
        resampled |= world.sides[1].hand != s.sides[1].hand
        assert present.on_table(GAME.view(world, 0), NAMES) == seen
    assert resampled or not moves, "the opponent's hand is dealt anew"


def test_now_shows_damage_and_modifiers() -> None:
    s = fresh(hands=(["crius"], ["arges"]))
    heracles = place(s, 0, "heracles", damage=2)  # 5/6, Primordial Attack
    hold(s, 0, 8, 1)  # Bow of Artemis: +1 Attack; Aegis: +1 Health
    place(s, 0, "hephaestus").under.append("hermes")
    place(s, 1, "achilles").crippled = True  # 5/3, Resistant
    jail(s, "tethys")
    s.target = heracles.uid
    buffed = "Attack 6 (+1) · Health 5/7 (+1) · Primordial attack · The turn's target"
    seen = present.on_table(GAME.view(s, 0), NAMES)
    assert seen[0] == Seen("crius", "Your hand", mine=True)
    assert Seen("kronos", "Your commander", "Health 20/20 · Power ready") in seen
    assert Seen("heracles", "Your field", buffed) in seen
    assert Seen("hermes", "Your field, under Hephaestus") in seen
    assert Seen("bow_of_artemis", "Your artifacts") in seen
    assert Seen("gaia", "AI 2 · commander", "Health 20/20 · Power ready") in seen
    assert Seen("achilles", "AI 2 · field", "Attack 5 · Health 3/3 · Crippled") in seen
    assert Seen("tethys", "Tartarus", "Attack 1 · Health 1/1") in seen
    assert Seen("olympus", "Olympus", "13 artifacts left") in seen
    order = [x.where.split(" · ")[0] for x in seen]
    assert order.index("Your field") < order.index("AI 2") < order.index("Agora") < order.index("Tartarus")
    assert "arges" not in {x.card for x in seen}
    their = present.on_table(GAME.view(s, 1), NAMES)
    assert Seen("heracles", "Ada · field", buffed) in their
    assert [x.card for x in their if x.mine] == ["arges"]


def test_a_spell_being_answered_and_a_deck_pick_are_listed() -> None:
    s = fresh(hands=(["oracle_of_delphi"], ["oath_on_the_styx"]))
    place(s, 0, "cottus")
    say(s, 0, "Play a spell", "Oracle of Delphi")
    assert top(s) == "window"
    for viewer in (0, 1, None):
        assert present.on_table(GAME.view(s, viewer), NAMES)[-1] == Seen("oracle_of_delphi", "Being played")
    say(s, 1, "Pass")
    mine = present.on_table(GAME.view(s, 0), NAMES)
    picks = [x.card for x in mine if x.where == "Deck · your pick"]
    assert sorted(picks) == sorted(set(s.deck)) and picks
    assert not any(x.where == "Deck · your pick" for x in present.on_table(GAME.view(s, 1), NAMES))
