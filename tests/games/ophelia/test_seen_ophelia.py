"""Ophelia's `on_table` (engine/games/ophelia/present.py): every card a view shows face up, for "inspect
any card", and never a card the viewer may not see."""

from __future__ import annotations

import random
from collections import Counter

from engine import registry
from engine.games.ophelia import present
from engine.games.ophelia.state import OpheliaState
from engine.table.modifiers import TURN, Modifier
from engine.table.present import Seen
from tests.ophelia_helpers import fresh, place

game = registry.get("ophelia")
NAMES = ["Ada", "AI 2"]
IDS = {e.id for e in present.catalogue()}


def _played(seed: int, moves: int) -> OpheliaState:
    """A game after `moves` random moves (fewer if it ends)."""
    s = game.setup(2, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        to_act = game.to_act(s)
        if not to_act:
            break
        game.apply(s, rng.choice(game.legal_actions(s, to_act[0])))
    return s


POSITIONS = [(seed, moves) for seed in range(4) for moves in (0, 15, 40, 90)]


def test_every_card_shown_is_listed_and_in_the_catalogue() -> None:
    for seed, moves in POSITIONS:
        s = _played(seed, moves)
        for viewer in (0, 1, None):
            view = game.view(s, viewer)
            seen = present.on_table(view, NAMES)
            assert all(x.card in IDS for x in seen)
            assert all(len(x.now) < 90 for x in seen)
            mine = [x.card for x in seen if x.mine]
            assert all(x.where == "Your hand" for x in seen if x.mine)
            hand = next((p["hand"] for p in view["players"] if p["seat"] == viewer), None) or []
            assert mine == hand
            if viewer is None:
                assert not mine and not any("hand" in x.where for x in seen)
            in_play = Counter(
                card
                for row in view["slots"]
                for u in row
                if u is not None
                for card in [u["card"], *(r["card"] for r in u["attached"])]
            )
            assert in_play == Counter(x.card for x in seen if " row · " in x.where)


def test_the_viewers_own_cards_come_first_and_seats_are_named() -> None:
    s = fresh(hands=(["joan_of_arc"], []))
    place(s, 0, 1, "charlemagne")
    place(s, 1, 4, "elizabeth_i")
    seen = present.on_table(game.view(s, 0), NAMES)
    assert [(x.card, x.where) for x in seen] == [
        ("joan_of_arc", "Your hand"),
        ("charlemagne", "Your row · slot 1 (outer)"),
        ("elizabeth_i", "AI 2's row · slot 4"),
    ]
    spectator = present.on_table(game.view(s, None), NAMES)
    assert [x.where for x in spectator] == ["Ada's row · slot 1 (outer)", "AI 2's row · slot 4"]


def test_hidden_cards_are_never_listed() -> None:
    for seed, moves in POSITIONS:
        s = _played(seed, moves)
        seen = present.on_table(game.view(s, 0), NAMES)
        assert not any(x.mine for x in seen if x.where != "Your hand")
        assert not any("hand" in x.where and x.where != "Your hand" for x in seen)
        for world in range(3):
            resampled = game.determinize(s, 0, world)
            assert present.on_table(game.view(resampled, 0), NAMES) == seen


def test_now_shows_stats_with_their_changes_damage_and_state() -> None:
    s = fresh()
    joan = place(s, 0, 3, "joan_of_arc", damage=1)  # printed: Power 3, Initiative 4, Life 3
    s.modifiers.append(Modifier("initiative", -2, joan.uid, TURN))
    place(s, 1, 3, "charlemagne")  # Power 3, Initiative 2, Life 4
    seen = present.on_table(game.view(s, 1), NAMES)
    assert seen == [
        Seen("charlemagne", "Your row · slot 3 (middle)", "Power 3 · Initiative 2 · Life 4/4 · contested"),
        Seen(
            "joan_of_arc",
            "Ada's row · slot 3 (middle)",
            "Power 4 (+1) · Initiative 2 (-2) · Life 2/3 · contested",  # +1 Power in the middle slot
        ),
    ]
