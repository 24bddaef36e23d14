"""The shared table parts: the decision stack, events, zones, modifiers and each game's own tables of moves
and effects (engine/table/, engine/abilities/resolve.py)."""

from __future__ import annotations

import pytest

from engine.abilities import effects as shared
from engine.core import Action, Event
from engine.registry import games
from engine.rng import Rng
from engine.table import decisions, zones
from engine.table.base import Moves, TableGame
from engine.table.decisions import Decision
from engine.table.events import emit, of_kind
from engine.table.modifiers import ROUND, TURN, Modifier, expire, total


def test_the_top_decision_says_who_acts_and_a_simultaneous_one_waits_for_all() -> None:
    stack: list[Decision] = []
    assert decisions.to_act(stack, 2) == (2,), "nothing pending: the turn player"
    decisions.push(stack, Decision("choose", [0, 1, 2], simultaneous=True))
    decisions.push(stack, Decision("discard", [1]))
    assert decisions.to_act(stack, 2) == (1,)
    decisions.answered(stack, 1)
    assert decisions.to_act(stack, 2) == (0, 1, 2)
    decisions.answered(stack, 1)
    decisions.answered(stack, 0)
    assert decisions.to_act(stack, 2) == (2,) and len(stack) == 1
    decisions.answered(stack, 2)
    assert stack == []


def test_events_carry_kind_arguments_and_readers() -> None:
    events: list[Event] = []
    emit(events, "drew", "P1 draws a card", chance=True, seat=0)
    emit(events, "drew_secretly", "You draw K♣", to=(0,), seat=0, card="KC")
    assert [e.kind for e in of_kind(events, "drew")] == ["drew"]
    secret = events[1]
    assert secret.arg("card") == "KC" and secret.visible(0) and not secret.visible(1)
    assert events[0].irreversible and not secret.visible(None)


def test_draw_refills_from_the_discard_pile_once_empty() -> None:
    pile, discard = ["a", "b"], ["c", "d", "e"]
    got, refills = zones.draw(pile, 4, Rng(1), refill=discard)
    assert got[:2] == ["b", "a"] and len(got) == 4 and refills == 1
    assert discard == [] and len(pile) == 1
    got, refills = zones.draw(pile, 3, Rng(1), refill=discard)
    assert len(got) == 1 and refills == 0, "both empty: draw what there is"


class _Uids(zones.Uids):
    __slots__ = ("next_uid",)

    def __init__(self) -> None:
        self.next_uid = 0


def test_a_row_slides_and_refills_with_new_uids() -> None:
    uids = _Uids()
    row: list[zones.Instance | None] = [None] * 4
    deck = ["w", "x", "y", "z", "v"]
    zones.refill(row, deck, uids)
    assert [c.card for c in row if c] == ["v", "z", "y", "x"] and [c.uid for c in row if c] == [1, 2, 3, 4]
    assert zones.last_card(row) == 3
    zones.take(row, 1)
    zones.slide(row)
    assert [c.uid if c else None for c in row] == [1, 3, 4, None]
    new = zones.refill(row, deck, uids)
    assert [c.uid for c in new] == [5] and deck == []
    assert zones.find([c for c in row if c], 4) is row[2]


def test_modifiers_are_computed_and_expire_with_their_duration() -> None:
    mods = [
        Modifier("attack", 2, owner=0, until=ROUND),
        Modifier("attack", 1, owner=0, until=TURN),
        Modifier("attack", 5, owner=1, until=ROUND),
        Modifier("attack", 3, owner=0, until=ROUND, condition="dragon on the grid"),
    ]
    assert total(mods, "attack", 0) == 3, "a conditional modifier counts only while it holds"
    assert total(mods, "attack", 0, holds=lambda c: c == "dragon on the grid") == 6
    expire(mods, TURN)
    assert total(mods, "attack", 0) == 2
    expire(mods, ROUND)
    assert mods == []


def test_a_games_moves_are_its_own_and_one_function_a_kind() -> None:
    """A move is found on the game by its kind: each game holds its own table, every kind it offers from
    setup is registered there, and a kind cannot be registered twice."""
    table_games = [g for g in games().values() if isinstance(g, TableGame)]  # not a test's toy game
    assert len(table_games) >= 5 and len({id(g.moves) for g in table_games}) == len(table_games)
    for game in table_games:
        s = game.setup(game.min_players, 7)
        for p in game.to_act(s):
            assert {a.kind for a in game.legal_actions(s, p)} <= set(game.moves), game.id
    move: Moves[object, object] = Moves()

    @move("draw")
    def draw(game: object, s: object, a: Action, events: list[Event]) -> None:
        """A toy move."""

    with pytest.raises(ValueError, match="two moves of kind 'draw'"):
        move("draw")(draw)


def test_each_card_game_has_its_own_effects_over_the_kits() -> None:
    """Each card game's effect table offers the kit's shared effects and adds its own, and only its own:
    Ophelia's `move` is not Siege's, Siege's `cripple` is not Ophidian's."""
    by_id = {g.id: getattr(g, "effects", None) for g in games().values()}
    ophelia, siege, ophidian = by_id["ophelia"], by_id["siege_of_olympus"], by_id["ophidian"]
    for table in (ophelia, siege, ophidian):
        assert table is not None and table["draw"] is shared.KIT["draw"]
    assert "move" in ophelia and "move" not in siege and "move" not in ophidian
    assert "cripple" in siege and "cripple" not in ophidian and "wound" not in siege
    assert "move" not in shared.KIT
