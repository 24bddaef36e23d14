"""Ophidian 2350's `on_table` (engine/games/ophidian/present.py): the viewer's seat first and seats named,
wounds, modifiers and pumps by their bearer (random games of every game: tests/games/test_seen.py)."""

from __future__ import annotations

from engine import registry
from engine.games.ophidian import present
from engine.table.present import Seen
from tests.games.test_seen import played
from tests.ophidian_helpers import fresh, place, pump_on

game = registry.get("ophidian")
NAMES = ["Ada", "Bo"]


def test_the_viewers_seat_comes_first_and_seats_are_named() -> None:
    s = played("ophidian", 2, 2, 70)
    for viewer in (0, 1):
        seen = present.on_table(game.view(s, viewer), NAMES)
        other = NAMES[1 - viewer]
        zones = [x.where for x in seen if not x.mine and not x.where.startswith(("on ", "Being played"))]
        first_other = next(i for i, w in enumerate(zones) if w.startswith(other))
        assert all(w.startswith("Your ") for w in zones[:first_other])
        assert all(w.startswith(f"{other} · ") for w in zones[first_other:])
    spectator = present.on_table(game.view(s, None), NAMES)
    assert not any(x.mine or x.where.startswith("Your") for x in spectator)


def test_now_shows_wounds_and_modifiers_and_pumps_by_their_bearer() -> None:
    s = fresh(0, hands=(("combat_stims",), ()))
    brakka = place(s, 0, "brakka_vohl_12", wounds=3, set_=True)
    pump_on(s, 0, "gladius_mk_ix", brakka)
    lyra = place(s, 1, "lyra_shen_12", "support")
    pump_on(s, 0, "curse_of_frailty", lyra)
    seen = [x for x in present.on_table(game.view(s, 0), NAMES) if not x.where.endswith("Gladiator Stack")]
    assert seen == [
        Seen("combat_stims", "Your hand", mine=True),
        Seen("brakka_vohl_12", "Your Action Field", "L1 · Life 5/8 · Rage 4 · ADMG 3 (+1) · Set"),
        Seen("gladius_mk_ix", "on Brakka Vohl (Ada)"),
        Seen("lyra_shen_12", "Bo · Support Field", "L1 · Life 3/3 (−2) · Rage 2 · ADMG 1"),
        Seen("curse_of_frailty", "on Lyra Shen (Bo)", "played by Ada"),
    ]
