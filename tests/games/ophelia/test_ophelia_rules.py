"""Ophelia's rules, each test quoting the sentence of shared/rules/ophelia.txt (or RULINGS.md) it checks.

The cards here are test-only (tests/ophelia_helpers.define), so the rules are checked apart from the card
set; tests/games/ophelia/test_ophelia_cards.py checks each card of the set does what its text says.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from engine.games.ophelia.board import stat
from engine.games.ophelia.cards import DECKS
from engine.games.ophelia.rules import MAX_MOVES
from engine.table.modifiers import TURN, Modifier
from tests.ophelia_helpers import (
    at,
    check_quotes,
    define,
    do,
    end_turn,
    fresh,
    game,
    keys,
    no_quote,
    place,
)

# -- setup -------------------------------------------------------------------------------------------


def test_first_round_hands_and_random_first_player() -> None:
    """ "In the first round, both players start with 5 cards. Randomly determine who goes first." """
    firsts = set()
    for seed in range(12):
        s = game.setup(2, seed)
        assert [len(side.hand) for side in s.sides] == [5, 5]
        assert [len(side.deck) for side in s.sides] == [25, 25]
        firsts.add(s.active)
        assert s.first == s.active and s.phase == "action"
    assert firsts == {0, 1}


def test_a_deck_is_chosen_or_random() -> None:
    """RULINGS 19: "A player picks a deck in the lobby or gets one at random." """
    s = game.setup(2, 3, {"seat_choices": [{"deck": "tide"}, {}]})
    assert s.sides[0].deck_name == DECKS["tide"][0]
    assert sorted(s.sides[0].deck + s.sides[0].hand) == sorted(DECKS["tide"][1])
    names = {game.setup(2, seed).sides[1].deck_name for seed in range(20)}
    assert len(names) > 1


def test_second_round_draws_up_to_3_to_at_most_7_and_the_loser_decides(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ "From the second round onwards, both players draw up to 3 cards to a maximum of 7 cards in hand, then
    the loser of the previous round decides who goes first." """
    define(monkeypatch, "t_big", power=4)
    s = fresh(hands=(["t_big"] * 6, ["t_big"] * 2), active=0)
    place(s, 0, 3, "t_big")
    s.quiet = 1  # the previous turn played nothing
    end_turn(s)  # no card played again: round resolution; P1 has the middle slot
    assert s.sides[0].points == 1 and s.round == 2
    assert len(s.sides[0].hand) == 7  # 6 + 1 (to the maximum of 7)
    assert len(s.sides[1].hand) == 5  # 2 + 3
    assert keys(s, 1) == {"first:p=0", "first:p=1"} and not keys(s, 0)
    do(s, 1, "first:p=1")
    assert s.active == 1 and s.first == 1 and s.phase == "action"


# -- the Action Phase --------------------------------------------------------------------------------


def test_play_only_into_your_open_slots(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "You can only play or move characters into your open slots." (RULINGS 1: your own row)"""
    define(monkeypatch, "t_a")
    s = fresh(hands=(["t_a"], []))
    place(s, 0, 2, "t_a")
    plays = {k for k in keys(s, 0) if k.startswith("play")}
    assert plays == {"play:c=t_a:s=1", "play:c=t_a:s=3", "play:c=t_a:s=4", "play:c=t_a:s=5"}
    do(s, 0, "play:c=t_a:s=5")
    assert at(s, 0, 5) == "t_a" and "t_a" not in s.sides[0].hand


def test_moving_once_not_when_played_or_contested(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "Characters that were not played this turn, and are not contested can be moved to an adjacent slot
    once each per turn." """
    define(monkeypatch, "t_a")
    s = fresh(hands=(["t_a"], []))
    old = place(s, 0, 2, "t_a")
    fought = place(s, 0, 4, "t_a")
    place(s, 1, 4, "t_a")
    do(s, 0, "play:c=t_a:s=5")
    k = keys(s, 0)
    new = s.slots[0][4]
    assert new is not None
    assert {f"move:u={old.uid}:s=1", f"move:u={old.uid}:s=3"} <= k
    assert not any(x.startswith(f"move:u={new.uid}") for x in k), "played this turn"
    assert not any(x.startswith(f"move:u={fought.uid}") for x in k), "contested"
    do(s, 0, f"move:u={old.uid}:s=3")
    assert not any(x.startswith(f"move:u={old.uid}") for x in keys(s, 0)), "once per turn"


def test_action_abilities_once_per_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "Activate an Action ability on a character you control. (Each action ability on a card can be used
    once per turn)" """
    define(monkeypatch, "t_scribe", ability=[{"type": "action", "effect": [{"do": "draw", "amount": 1}]}])
    s = fresh(hands=([], [define(monkeypatch, "t_a")]))
    u = place(s, 0, 3, "t_scribe")
    before = len(s.sides[0].hand)
    do(s, 0, f"act:u={u.uid}:a=0")
    assert len(s.sides[0].hand) == before + 1
    assert f"act:u={u.uid}:a=0" not in keys(s, 0)
    end_turn(s)
    do(s, 1, "play:c=t_a:s=1")  # a card played: the round goes on
    end_turn(s)
    assert s.active == 0 and f"act:u={u.uid}:a=0" in keys(s, 0)


def test_retire_and_discard_go_to_the_forgotten_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "Retire a character you own and control, or discard a card. (send to the forgotten zone)" """
    define(monkeypatch, "t_a")
    s = fresh(hands=(["t_a"], []))
    u = place(s, 0, 1, "t_a")
    assert f"retire:u={u.uid}" not in keys(s, 1)
    do(s, 0, f"retire:u={u.uid}")
    do(s, 0, "discard:c=t_a")
    assert at(s, 0, 1) is None and s.sides[0].forgotten == ["t_a", "t_a"] and not s.sides[0].hand


def test_action_phase_moves_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """RULINGS 12: "at most 300 Action Phase moves a turn (then only ending the phase is offered)"."""
    define(monkeypatch, "t_a")
    s = fresh()
    s.moves = MAX_MOVES
    assert keys(s, 0) == {"end"}


# -- the Turning Point Phase -------------------------------------------------------------------------


def test_the_opponent_gets_a_window_whatever_their_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "During this phase, your opponent has an opportunity to play Turning Point cards before you proceed
    to your Contest Phase." RULINGS 7: offered on the same schedule whatever the hand."""
    define(monkeypatch, "t_a")
    define(monkeypatch, "t_tp", type="turning_point", ability=[{"type": "play", "effect": [{"do": "draw"}]}])
    for hand in (["t_a"], ["t_tp"]):
        s = fresh(hands=([], hand))
        do(s, 0, "end")
        assert s.phase == "turning_point" and game.to_act(s) == (1,)
        assert "pass" in keys(s, 1)
        assert game.view(s, 0)["decision"]["kind"] == "window"
    assert keys(s, 1) == {"pass", "play:c=t_tp"}


def test_no_window_for_an_empty_hand() -> None:
    """RULINGS 7: the window is offered "in every Turning Point Phase in which the opponent holds at least one
    card (hand sizes are public)": with no card in hand there is nothing to offer."""
    s = fresh(hands=([], []))
    do(s, 0, "end")
    assert s.active == 1 and s.phase == "action"


def test_turning_points_are_forgotten_after_use_and_the_window_reopens(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ "A Turning Point is a one-use card that is then sent to the forgotten zone." RULINGS 6: the window
    reopens until the player passes."""
    define(
        monkeypatch,
        "t_tp",
        type="turning_point",
        ability=[{"type": "play", "effect": [{"do": "damage", "to": "enemy", "amount": 1}]}],
    )
    s = fresh(hands=([], ["t_tp", "t_tp"]))
    u = place(s, 0, 3, define(monkeypatch, "t_a"))
    do(s, 0, "end")
    do(s, 1, "play:c=t_tp")
    assert u.damage == 1 and s.sides[1].forgotten == ["t_tp"]
    assert s.decisions[-1].kind == "window" and "play:c=t_tp" in keys(s, 1)
    do(s, 1, "pass")
    assert s.active == 1


def test_turning_points_in_your_own_action_phase(monkeypatch: pytest.MonkeyPatch) -> None:
    """RULINGS 6: "Turning Points may be played in your own Action Phase and in the opponent's Turning Point
    Phase." """
    define(monkeypatch, "t_tp", type="turning_point", ability=[{"type": "play", "effect": [{"do": "draw"}]}])
    s = fresh(hands=(["t_tp"], []))
    do(s, 0, "play:c=t_tp")
    assert s.sides[0].forgotten == ["t_tp"] and len(s.sides[0].hand) == 1 and s.played


# -- the Contest Phase -------------------------------------------------------------------------------


def test_contest_deals_power_highest_initiative_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "All characters contesting slots deal damage to their opposing character, in order of highest to
    lowest Initiative." "Characters deal damage to opposing characters equal to their Power." RULINGS 5: a
    character defeated before its step deals none."""
    define(monkeypatch, "t_fast", power=3, initiative=4, life=3)
    define(monkeypatch, "t_slow", power=5, initiative=1, life=3)
    define(monkeypatch, "t_tough", power=1, initiative=2, life=9)
    s = fresh()
    fast = place(s, 0, 2, "t_fast")
    place(s, 1, 2, "t_slow")
    place(s, 0, 4, "t_tough")
    far = place(s, 1, 4, "t_fast")
    lone = place(s, 0, 5, "t_tough")
    end_turn(s)
    assert fast.damage == 0 and at(s, 1, 2) is None, "the slow one died before striking"
    assert s.slots[0][3].damage == 3 and far.damage == 1
    assert lone.damage == 0, "an uncontested character deals and takes nothing"


def test_a_character_strikes_once_when_its_initiative_falls(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "All characters contesting slots deal damage to their opposing character, in order of highest to
    lowest Initiative." RULINGS 5: "A character whose Initiative falls after it struck does not strike
    again". The audit's example: The Antikythera Mechanism raises Richard the Lionheart to Initiative 4;
    Joan of Arc defeats the Mechanism at step 4; Richard, back to 3, does not strike again at 3."""
    s = fresh()
    place(s, 0, 2, "antikythera_mechanism")  # "All allies get +1 Initiative.", Life 3
    richard = place(s, 0, 3, "richard_the_lionheart")  # Power 4, Initiative 3 (4 with the Mechanism)
    place(s, 1, 2, "joan_of_arc")  # Power 3, Initiative 4: defeats the Mechanism at step 4
    wall = place(s, 1, 3, define(monkeypatch, "t_wall", power=0, initiative=1, life=20))
    assert stat(s, richard, "initiative") == 4
    end_turn(s)
    assert at(s, 0, 2) is None, "the Mechanism was defeated"
    assert wall.damage == 4, "Richard struck once, at 4 (not again at 3)"


def test_a_character_whose_initiative_rises_strikes_next(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "All characters contesting slots deal damage to their opposing character, in order of highest to
    lowest Initiative." RULINGS 5: "one whose Initiative rises above the step already passed strikes next,
    before the lower ones still waiting"."""
    define(
        monkeypatch,
        "t_fog",
        type="relic",
        life=1,
        ability=[{"type": "passive", "stat": "initiative", "amount": -3, "to": "all_enemies"}],
    )
    define(monkeypatch, "t_blade", power=2, initiative=6, life=5)  # 3 in the fog: defeats it at step 3
    define(monkeypatch, "t_runner", power=3, initiative=4, life=3)  # 1 in the fog; 4 once it lifts
    define(monkeypatch, "t_guard", power=3, initiative=2, life=3)
    s = fresh()
    place(s, 1, 2, "t_fog")
    place(s, 0, 2, "t_blade")
    runner = place(s, 0, 4, "t_runner")
    place(s, 1, 4, "t_guard")
    end_turn(s)
    assert at(s, 1, 2) is None, "the fog lifted at step 3"
    assert at(s, 1, 4) is None and runner.damage == 0, "the runner struck at 4, before the guard's 2"
    assert "t_guard" in s.sides[1].forgotten


def test_equal_initiative_strikes_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "Characters with the same Initiative attack simultaneously." """
    define(monkeypatch, "t_duel", power=3, initiative=2, life=3)
    s = fresh()
    place(s, 0, 3, "t_duel")
    place(s, 1, 3, "t_duel")
    end_turn(s)
    assert at(s, 0, 3) is None and at(s, 1, 3) is None
    assert s.sides[0].forgotten == ["t_duel"] and s.sides[1].forgotten == ["t_duel"]


def test_life_is_cumulative_damage(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "Life: The amount of cumulative damage it takes to defeat this character." RULINGS 5: damage lasts
    the round."""
    define(monkeypatch, "t_a", power=1, initiative=1, life=3)
    define(monkeypatch, "t_filler", power=0)
    s = fresh(hands=(["t_filler"] * 2, ["t_filler"] * 2))
    a = place(s, 0, 3, "t_a")
    place(s, 1, 3, "t_a")
    do(s, 0, "play:c=t_filler:s=1")
    end_turn(s)
    do(s, 1, "play:c=t_filler:s=5")
    end_turn(s)
    assert a.damage == 2, "one damage a turn, kept"
    do(s, 0, "play:c=t_filler:s=2")
    end_turn(s)
    assert at(s, 0, 3) is None and "t_a" in s.sides[0].forgotten


def test_relics_take_damage_and_deal_none(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "Relics are played just like characters, except they don't have an Attack or Initiative stat - as
    they don't fight in the contest phase." RULINGS 2."""
    define(monkeypatch, "t_a", power=2)
    define(monkeypatch, "t_idol", type="relic", life=5)
    s = fresh()
    a = place(s, 0, 3, "t_a")
    idol = place(s, 1, 3, "t_idol")
    end_turn(s)
    assert idol.damage == 2 and a.damage == 0


# -- the End Phase and rounds ------------------------------------------------------------------------


def test_until_the_end_of_turn_effects_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "Resolve all “until the end of turn” effects." """
    define(monkeypatch, "t_a", power=2)
    s = fresh()
    a = place(s, 0, 1, "t_a")
    s.modifiers.append(Modifier("power", 3, a.uid, TURN))
    assert stat(s, a, "power") == 5
    end_turn(s)
    assert stat(s, a, "power") == 2


def test_two_turns_without_a_card_played_end_the_round(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "If no cards are played in any two consecutive turns, move to the Round Resolution Phase. Otherwise,
    the next player begins a new turn and an Action Phase." RULINGS 8: a Turning Point counts."""
    define(monkeypatch, "t_a")
    define(monkeypatch, "t_tp", type="turning_point", ability=[{"type": "play", "effect": [{"do": "draw"}]}])
    s = fresh(hands=(["t_a"], ["t_a"]))
    end_turn(s)  # P1 plays nothing
    assert s.quiet == 1 and s.active == 1 and s.round == 1
    end_turn(s)  # nor does P2
    assert s.round == 2
    s = fresh(hands=(["t_a"], ["t_tp", "t_a"]))
    do(s, 0, "end")
    do(s, 1, "play:c=t_tp")  # a Turning Point in P1's turn counts as a card played
    do(s, 1, "pass")
    assert s.quiet == 0 and s.active == 1
    end_turn(s)
    assert s.quiet == 1 and s.round == 1


def test_a_round_goes_on_past_30_turns_while_cards_are_played(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "If no cards are played in any two consecutive turns, move to the Round Resolution Phase. Otherwise,
    the next player begins a new turn and an Action Phase." RULINGS 12: "A round ends as the text says";
    "with Ada Lovelace drawing a card every turn, a player can retire one character and play another every
    turn for more than 30 turns"."""
    define(monkeypatch, "t_a")
    s = fresh(hands=(["t_a"], []))
    s.sides[0].deck = ["t_a"] * 40
    place(s, 0, 1, "ada_lovelace")  # "At the start of your turn; draw a card."
    for _ in range(25):  # 25 turns of P1's, 50 turns in all
        assert s.active == 0 and s.round == 1
        here = s.slots[0][2]
        if here is not None:
            do(s, 0, f"retire:u={here.uid}")
        do(s, 0, "play:c=t_a:s=3")
        end_turn(s)
        end_turn(s)  # P2 plays nothing
    assert s.round == 1 and s.turn == 50 and s.sides[0].points == s.sides[1].points == 0
    end_turn(s)  # now P1 plays nothing either: two quiet turns in a row
    assert s.round == 2 and s.last_round is not None


@pytest.mark.parametrize(
    ("mine", "theirs", "step", "winner"),
    [
        ({3: "t_four"}, {3: "t_two", 1: "t_four", 5: "t_four"}, 1, 0),  # step 1: the middle slot decides
        ({1: "t_four"}, {5: "t_two"}, 2, 0),  # step 2: nobody in the middle, combined Power
        ({3: "t_two", 1: "t_two"}, {3: "t_two", 5: "t_two"}, 3, 1),  # step 3: P2 went second
    ],
)
def test_round_resolution_steps(
    monkeypatch: pytest.MonkeyPatch, mine: dict[int, str], theirs: dict[int, str], step: int, winner: int
) -> None:
    """ "1. The player who has the most Power on a character in the middle slot, or: 2. The player who has
    the most combined power on their side of the board, or: 3. The player who went second in the round." """
    define(monkeypatch, "t_four", power=4, initiative=1, life=99)
    define(monkeypatch, "t_two", power=2, initiative=1, life=99)
    s = fresh()
    for col, c in mine.items():
        place(s, 0, col, c)
    for col, c in theirs.items():
        place(s, 1, col, c)
    s.quiet = 1
    end_turn(s)
    assert s.last_round is not None
    assert (s.last_round["step"], s.last_round["winner"]) == (step, winner)


def test_a_relic_in_the_middle_counts_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """RULINGS 11: "Step 1 compares the Power of each player's card in their middle slot; an empty middle slot
    or a relic there counts 0." """
    define(monkeypatch, "t_idol", type="relic", life=9)
    define(monkeypatch, "t_two", power=2, initiative=1, life=99)
    s = fresh()
    place(s, 0, 3, "t_idol")
    place(s, 1, 1, "t_two")
    s.quiet = 1
    end_turn(s)
    assert s.last_round["step"] == 2 and s.last_round["winner"] == 1


def test_the_round_track_and_five_points_win(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "ROUND 1 2 3 4 5" "POINTS 1 2 3 2 1" and "After awarding points, if a player has 5 or more points,
    they have won the game! Otherwise, send all cards on the board to the forgotten zone and proceed to a
    new Setup Phase." """
    define(monkeypatch, "t_two", power=2, initiative=1, life=99)
    s = fresh()
    got = []
    for _ in range(3):
        place(s, 0, 3, "t_two")
        s.quiet = 1
        end_turn(s)
        got.append(s.sides[0].points)
        if s.result:
            break
        assert all(u is None for row in s.slots for u in row), "the board is cleared"
        assert "t_two" in s.sides[0].forgotten
        do(s, 1, "first:p=0")
    assert got == [1, 3, 6]
    assert s.result == {"winners": [0]} and game.returns(s) == [1.0, 0.0] and not game.to_act(s)


# -- abilities ---------------------------------------------------------------------------------------


def test_passive_abilities_are_static(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "Passive abilities are static effects that passively affect the game" — in force while their card is
    on the field (and while their condition holds)."""
    define(
        monkeypatch,
        "t_banner",
        ability=[
            {"type": "passive", "stat": "power", "amount": 2, "to": "adjacent_allies", "while": "in_middle"}
        ],
    )
    define(monkeypatch, "t_a", power=1)
    s = fresh()
    left = place(s, 0, 2, "t_a")
    banner = place(s, 0, 3, "t_banner")
    assert stat(s, left, "power") == 3
    s.slots[0][2], s.slots[0][3] = None, banner  # not in the middle any more
    assert stat(s, left, "power") == 1
    assert game.view(s, None)["slots"][0][1]["base_power"] == 1


def test_claim_on_entering_an_open_uncontested_slot(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "One Claim ability can be activated each time a card is played or moved into an open and uncontested
    slot." """
    define(
        monkeypatch,
        "t_claimer",
        ability=[
            {"type": "claim", "cost": "discard", "effect": [{"do": "damage", "to": "enemy", "amount": 2}]}
        ],
    )
    define(monkeypatch, "t_a", life=5)
    s = fresh(hands=(["t_claimer", "t_claimer", "t_a"], []))
    foe = place(s, 1, 1, "t_a")
    do(s, 0, "play:c=t_claimer:s=1")  # contested: no Claim
    assert not s.decisions
    do(s, 0, "play:c=t_claimer:s=3")
    claimer = s.slots[0][2]
    assert claimer is not None and keys(s, 0) == {f"claim:u={claimer.uid}:a=0", "pass"}
    do(s, 0, f"claim:u={claimer.uid}:a=0")  # the only card left to discard pays; the only enemy is hit
    assert foe.damage == 2 and s.sides[0].hand == [] and s.sides[0].forgotten == ["t_a"]


def test_a_claim_is_negated_when_it_becomes_contested(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "If a character becomes contested or leaves the field before the ability resolved, the effect is
    negated." RULINGS 14: the Claim waits for the triggers its entry set off."""
    define(
        monkeypatch,
        "t_claimer",
        ability=[{"type": "claim", "effect": [{"do": "draw", "amount": 2}]}],
    )
    define(
        monkeypatch,
        "t_guard",
        ability=[{"type": "trigger", "on": "enemy_enters", "effect": [{"do": "move", "to": "self"}]}],
    )
    s = fresh(hands=(["t_claimer"], []))
    place(s, 1, 2, "t_guard")
    do(s, 0, "play:c=t_claimer:s=3")
    claimer = s.slots[0][2]
    do(s, 0, f"claim:u={claimer.uid}:a=0")
    # The guard's trigger moves it: P2 picks the slot opposite the claimer.
    assert keys(s, 1) == {"pick:s=1", "pick:s=3"}
    texts = do(s, 1, "pick:s=3")
    assert any("negated" in t for t in texts)
    assert len(s.sides[0].hand) == 0, "no cards drawn"


def test_a_claim_is_negated_when_its_card_leaves(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "If a character ... leaves the field before the ability resolved, the effect is negated." """
    define(
        monkeypatch, "t_claimer", life=1, ability=[{"type": "claim", "effect": [{"do": "draw", "amount": 2}]}]
    )
    define(
        monkeypatch,
        "t_archer",
        ability=[
            {
                "type": "trigger",
                "on": "enemy_played",
                "effect": [{"do": "damage", "to": "event", "amount": 1}],
            }
        ],
    )
    s = fresh(hands=(["t_claimer"], []))
    place(s, 1, 1, "t_archer")
    do(s, 0, "play:c=t_claimer:s=3")
    claimer = s.slots[0][2]
    texts = do(s, 0, f"claim:u={claimer.uid}:a=0")
    assert any("negated" in t for t in texts) and at(s, 0, 3) is None and s.sides[0].hand == []


def test_a_claim_resolves_when_nothing_interferes(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "One Claim ability can be activated..." and resolves when still uncontested."""
    define(monkeypatch, "t_claimer", ability=[{"type": "claim", "effect": [{"do": "draw", "amount": 2}]}])
    s = fresh(hands=(["t_claimer"], []))
    do(s, 0, "play:c=t_claimer:s=3")
    do(s, 0, f"claim:u={s.slots[0][2].uid}:a=0")
    assert len(s.sides[0].hand) == 2


def test_trigger_event_then_effect(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "The trigger can be found before the “;” in the card’s text, which describes the event that would
    cause this ability activate. Text after the “;” is the resulting effect." """
    define(
        monkeypatch,
        "t_martyr",
        power=0,
        life=1,
        ability=[{"type": "trigger", "on": "defeated", "effect": [{"do": "draw", "amount": 1}]}],
    )
    define(monkeypatch, "t_a", power=3, initiative=3)
    s = fresh()
    place(s, 0, 3, "t_martyr")
    place(s, 1, 3, "t_a")
    before = len(s.sides[0].hand)
    end_turn(s)
    assert len(s.sides[0].hand) == before + 1 and "t_martyr" in s.sides[0].forgotten


def test_costs_must_be_payable(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "To activate any ability, you must be able to pay the cost. Costs are found preceding any “:” in an
    ability’s text." """
    define(
        monkeypatch,
        "t_zealot",
        ability=[{"type": "action", "cost": "sacrifice", "effect": [{"do": "draw", "amount": 2}]}],
    )
    define(monkeypatch, "t_a")
    s = fresh()
    z = place(s, 0, 3, "t_zealot")
    assert f"act:u={z.uid}:a=0" not in keys(s, 0), "nothing to sacrifice"
    victim = place(s, 0, 1, "t_a")
    do(s, 0, f"act:u={z.uid}:a=0")
    assert at(s, 0, 1) is None and "t_a" in s.sides[0].forgotten and len(s.sides[0].hand) == 2
    assert victim.uid not in [u.uid for row in s.slots for u in row if u]


def test_each_player_orders_their_simultaneous_triggers(monkeypatch: pytest.MonkeyPatch) -> None:
    """RULINGS 15: the turn player's triggers first; a player with two or more chooses their order; a
    "you may" trigger asks."""
    define(monkeypatch, "t_w1", ability=[{"type": "trigger", "on": "turn_end", "effect": [{"do": "draw"}]}])
    define(
        monkeypatch,
        "t_w2",
        ability=[{"type": "trigger", "on": "turn_end", "may": True, "effect": [{"do": "draw", "amount": 2}]}],
    )
    s = fresh()
    a = place(s, 0, 1, "t_w1")
    b = place(s, 0, 2, "t_w2")
    do(s, 0, "end")  # P2 holds no card: no window (RULINGS 7)
    assert s.decisions[-1].kind == "order"
    order = sorted(keys(s, 0))
    assert len(order) == 2
    pending = {c["uid"]: c["id"] for c in s.pending}
    do(s, 0, f"order:p={pending[b.uid]}")
    assert keys(s, 0) == {"use", "pass"}
    do(s, 0, "pass")
    assert len(s.sides[0].hand) == 1, "w2 declined, w1 drew one"
    assert a.uid and s.active == 1


def test_stats_never_go_below_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    """RULINGS 17: stats are "never below 0"."""
    define(monkeypatch, "t_a", power=1)
    s = fresh()
    a = place(s, 0, 1, "t_a")
    s.modifiers.append(Modifier("power", -3, a.uid, TURN))
    assert stat(s, a, "power") == 0


def test_a_card_with_two_actions_names_each_by_its_own_line(monkeypatch: Any) -> None:
    """ "Each action ability on a card can be used once per turn": the menu names each Action of a card by its
    own line of text, not the first one twice."""
    cid = define(
        monkeypatch,
        "two_actions",
        text="Action — Draw a card.\nAction — Heal 1 damage from this.",
        ability=[
            {"type": "action", "effect": [{"do": "draw", "amount": 1}]},
            {"type": "action", "effect": [{"do": "heal", "to": "self", "amount": 1}]},
        ],
    )
    s = fresh()
    u = place(s, 0, 3, cid, damage=1)  # (damaged, so that healing it does something)
    acts = [a for a in game.legal_actions(s, 0) if a.kind == "act" and int(a.arg("u")) == u.uid]
    assert {game.describe(s, a) for a in acts} == {
        ("Action", "Two Actions: Action — Draw a card."),
        ("Action", "Two Actions: Action — Heal 1 damage from this."),
    }


# -- hidden information ------------------------------------------------------------------------------


def _midgame(seed: int, steps: int) -> Any:
    """A state after random legal moves."""
    s = game.setup(2, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if not game.to_act(s):
            break
        game.apply(s, rng.choice(game.legal_actions(s, game.to_act(s)[0])))
    return s


def _known_rest(view: dict[str, Any], seat: int) -> Counter[str]:
    """What a view tells of a seat's hand and deck together: its deck list less its field and forgotten
    zone."""
    deck = next(cards for name, cards in DECKS.values() if name == view["players"][seat]["deck_name"])
    rest = Counter(deck) - Counter(view["players"][seat]["forgotten"])
    for u in view["slots"][seat]:
        if u is not None:
            rest -= Counter([u["card"], *(r["card"] for r in u["attached"])])
    return rest


@pytest.mark.parametrize("seed", range(6))
def test_determinize_deals_only_what_the_observer_can_know(seed: int) -> None:
    """RULINGS 23: "the cards in the other's hand and deck together are known — their deck list less their
    field and forgotten zone — but not which are in hand, nor the order of either deck"."""
    s = _midgame(seed, 40 + 15 * seed)
    for observer in (0, 1):
        other = 1 - observer
        known = _known_rest(game.view(s, observer), other)
        assert Counter(s.sides[other].hand + s.sides[other].deck) == known
        worlds = [game.determinize(s, observer, k) for k in range(4)]
        for d in worlds:
            assert Counter(d.sides[other].hand + d.sides[other].deck) == known
            assert len(d.sides[other].hand) == len(s.sides[other].hand)
            assert d.sides[observer].hand == s.sides[observer].hand
            assert sorted(d.sides[observer].deck) == sorted(s.sides[observer].deck)


def test_determinize_cannot_tell_apart_what_the_observer_cannot(monkeypatch: pytest.MonkeyPatch) -> None:
    """RULINGS 23: not "which are in hand, nor the order of either deck": two states that differ only
    there give the same worlds."""
    s = fresh(hands=(["joan_of_arc"], ["nikola_tesla", "socrates"]))
    t = game.from_json(game.to_json(s))
    other = next(c for c in t.sides[1].deck if c not in t.sides[1].hand)
    i = t.sides[1].deck.index(other)
    t.sides[1].deck[i], t.sides[1].hand[0] = t.sides[1].hand[0], other
    t.sides[1].hand.sort()
    t.sides[0].deck.reverse()
    assert game.view(t, 0) == game.view(s, 0) and game.to_json(t) != game.to_json(s)
    for k in range(3):
        assert game.to_json(game.determinize(t, 0, k)) == game.to_json(game.determinize(s, 0, k))


def test_a_pending_discard_is_chosen_from_the_dealt_hand() -> None:
    """RULINGS 23: "a pending choice of a card to discard from the other's hand is rebuilt from the hand it
    dealt"."""
    s = fresh(hands=(["sack_of_panama"], ["nikola_tesla", "socrates", "joan_of_arc"]))
    do(s, 0, "play:c=sack_of_panama")  # "... Your opponent discards a card."
    assert keys(s, 1) == {"pick:c=joan_of_arc", "pick:c=nikola_tesla", "pick:c=socrates"}
    for k in range(8):
        d = game.determinize(s, 0, k)
        assert {a.key for a in game.legal_actions(d, 1)} == {f"pick:c={c}" for c in d.sides[1].hand}
        for a in game.legal_actions(d, 1):
            world = game.from_json(game.to_json(d))
            game.apply(world, a)
            assert len(world.sides[1].hand) == 2


# -- the tests themselves ----------------------------------------------------------------------------


@no_quote
def test_every_rule_test_quotes_the_rules() -> None:
    """Each test above quotes a sentence found in shared/rules/ophelia.txt or in RULINGS.md."""
    check_quotes(globals())
