"""Ophidian 2350's `on_table` (engine/games/ophidian/present.py): every card a view shows face up, for
"inspect any card", with its current stats; never a card the viewer may not see."""

from __future__ import annotations

from collections import Counter

from engine import registry
from engine.ai.random_player import RandomPlayer
from engine.games.ophidian import present
from engine.games.ophidian.state import OphidianState
from engine.table.present import Seen, seen_cards
from tests.ophidian_helpers import fresh, place, pump_on

game = registry.get("ophidian")
NAMES = ["Ada", "Bo"]
IDS = {e.id for e in present.catalogue()}


def _played(seed: int, moves: int) -> OphidianState:
    """A game after `moves` random moves (fewer if it ends)."""
    s = game.setup(2, seed)
    ai = RandomPlayer(seed)
    for _ in range(moves):
        if s.result is not None:
            break
        game.apply(s, ai.choose(game, s, game.to_act(s)[0]))
    return s


POSITIONS = [(seed, moves) for seed in (1, 2, 3) for moves in (0, 25, 70, 140)]


def test_every_card_listed_is_in_the_catalogue_with_the_hand_and_both_fields() -> None:
    for seed, moves in POSITIONS:
        s = _played(seed, moves)
        for viewer in (0, 1, None):
            view = game.view(s, viewer)
            seen = present.on_table(view, NAMES)
            assert seen == seen_cards(present, view, NAMES)
            assert {x.card for x in seen} <= IDS
            assert all(len(x.now) < 90 and x.where for x in seen)
            mine = [x.card for x in seen if x.mine]
            assert mine == (list(s.sides[viewer].hand) if viewer is not None else [])
            assert all(x.where == "Your hand" for x in seen if x.mine)
            assert seen[: len(mine)] == [x for x in seen if x.mine], "the hand comes first"
            fielded = Counter(x.card for x in seen if x.where.endswith("Field"))
            on_fields = Counter(c["card"] for p in view["players"] for c in p["characters"])
            assert fielded == on_fields
            attached = Counter(x.card for x in seen if x.where.startswith("on "))
            assert attached == Counter(
                u["card"] for p in view["players"] for c in p["characters"] for u in c["pumps"]
            )


def test_the_viewers_seat_comes_first_and_seats_are_named() -> None:
    s = _played(2, 70)
    for viewer in (0, 1):
        seen = present.on_table(game.view(s, viewer), NAMES)
        other = NAMES[1 - viewer]
        zones = [x.where for x in seen if not x.mine and not x.where.startswith(("on ", "Being played"))]
        first_other = next(i for i, w in enumerate(zones) if w.startswith(other))
        assert all(w.startswith("Your ") for w in zones[:first_other])
        assert all(w.startswith(f"{other} · ") for w in zones[first_other:])
    spectator = present.on_table(game.view(s, None), NAMES)
    assert not any(x.mine or x.where.startswith("Your") for x in spectator)


def test_hidden_cards_never_listed_and_unchanged_by_determinize() -> None:
    dealt_anew = False
    for seed, moves in POSITIONS:
        s = _played(seed, moves)
        seen = present.on_table(game.view(s, 0), NAMES)
        assert all(x.mine == (x.where == "Your hand") for x in seen)
        for d_seed in (5, 6, 7):
            d = game.determinize(s, 0, d_seed)
            dealt_anew |= d.sides[1].hand != s.sides[1].hand
            assert present.on_table(game.view(d, 0), NAMES) == seen
    assert dealt_anew, "determinize dealt the opponent's hand anew at least once"


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
