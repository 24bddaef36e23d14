"""Ophelia's `on_table` (engine/games/ophelia/present.py) at positions placed by hand: the viewer's own
cards first, seats named, stats with their changes (random games of every game: tests/games/test_seen.py)."""

from __future__ import annotations

from engine import registry
from engine.games.ophelia import present
from engine.table.modifiers import TURN, Modifier
from engine.table.present import Seen
from tests.ophelia_helpers import fresh, place

game = registry.get("ophelia")
NAMES = ["Ada", "AI 2"]


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
