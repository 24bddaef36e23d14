"""Ophidian 2350's tutorial (engine/games/ophidian/learn.py) and what its moves do (present.explain): the
words of each kind of move on the tutorial's fixed deal, every legal move explained in random games without
naming a hidden card, the first step's words, and the sample board of the one-page rules."""

from __future__ import annotations

from typing import Any

import pytest

from bot.ai import choose_move
from bot.sessions.automatic import position_seed
from engine.core import find_action
from engine.games.ophidian import present
from engine.games.ophidian.cards import CARDS
from engine.registry import games
from engine.rng import Rng
from engine.table import lesson
from engine.table.present import move_words, rule_text

GAME = games()["ophidian"]
TUTORIAL = lesson.of(GAME)
NAMES = ["You", "Opponent"]
assert TUTORIAL is not None


def _walk(step: int) -> tuple[Any, lesson.Guide]:
    """The tutorial's deal played as a session plays it (the learner's suggested moves, the easy AI's own)
    up to the learner's decision of this step (0-based): the state and the guide there."""
    assert TUTORIAL is not None
    state = GAME.setup(TUTORIAL.players, TUTORIAL.seed, TUTORIAL.match_options())
    log: list[tuple[int, str]] = []
    for state_id in range(200):
        to_act = GAME.to_act(state)
        seat = 1 if 1 in to_act else 0
        if seat == 0:
            guide = lesson.follow(GAME, TUTORIAL, log)
            if guide.step == step:
                return state, guide
            legal = GAME.legal_actions(state, 0)
            move = find_action(GAME, state, 0, guide.suggested) if guide.suggested else legal[0]
        else:
            key = choose_move(GAME, state, 1, "easy", position_seed(TUTORIAL.seed, state_id, 1))
            move = find_action(GAME, state, 1, key)
        GAME.apply(state, move)
        log.append((move.player, move.key))
    raise AssertionError(f"step {step + 1} never came")


def _words(state: Any, key: str, seat: int = 0) -> str:
    """What the seat's move with this key does, as the hand menu's ❔ says it (explain's lines only)."""
    move = find_action(GAME, state, seat, key)
    return " ".join(present.explain(GAME.view(state, seat), key, tuple(GAME.describe(state, move)), NAMES))


def _ruled(sentence: str) -> None:
    assert lesson.in_rules(sentence, rule_text(GAME)), sentence


def test_the_first_step_on_the_fixed_deal() -> None:
    """The words of the tutorial's first step, as the learner reads them (a small golden for review)."""
    _, guide = _walk(0)
    assert guide.suggested == "bottom:c=berserkers_oath"
    assert lesson.step_lines(guide) == [
        "📘 Lesson 1 of 10",
        "You drew 9 cards and keep 7: put 2 on the bottom of your Arsenal (your deck). Start with Put on "
        "the bottom of your Arsenal › Berserker's Oath: it is a Level 2 card, and your Gladiators are Level "
        "1, so you cannot play it yet.",
        "Rule: “Each player shuffles their Arsenal and draws to the maximum hand size (default of 7) plus "
        "two cards, then select 2 cards from hand to place on the bottom of their Arsenal in the order of "
        "their choice, keeping the remaining 7 cards to form their hand.”",
    ]


def test_every_step_suggests_the_move_its_words_name() -> None:
    """Each step's suggested move on the fixed deal is the one its `say` names (the menu's words)."""
    assert TUTORIAL is not None
    for i, step in enumerate(TUTORIAL.steps):
        state, guide = _walk(i)
        assert guide.suggested is not None
        path = GAME.describe(state, find_action(GAME, state, 0, guide.suggested))
        named = [w for w in (CARDS[c].name for c in CARDS) if w in " ".join(path)]
        assert path[0] in step.say or "Done arranging" in step.say, (i, path)
        assert all(n in step.say for n in named[:1]), (i, path, named)


def test_bottom_and_place_words() -> None:
    """ "select 2 cards from hand to place on the bottom of their Arsenal"; "The player with The Flow arranges
    their Gladiators in the Support Field (back row) and/or Action Field (front row) as they see fit." """
    _ruled("select 2 cards from hand to place on the bottom of their Arsenal in the order of their choice")
    state, _ = _walk(0)
    assert _words(state, "bottom:c=gladius_mk_ix") == (
        "Gladius Mk. IX goes to the bottom of your Arsenal; you keep the rest of your hand."
    )
    state, _ = _walk(2)
    assert _words(state, "place:u=1") == (
        "Your Brakka Vohl moves to your Support Field; this costs nothing and is not an advance or retreat."
    )
    assert "both teams are arranged" in _words(state, "pass")


def test_attack_words() -> None:
    """ "Attacks can only be made from the Action Field."; "When a Gladiator attacks, 1 Cheer is generated."
    The attack's words: its ADMG as wounds, the defender's Intercept or Protect, Set, Cheer and The Flow."""
    _ruled("Attacks can only be made from the Action Field.")
    _ruled("When a Gladiator attacks, 1 Cheer is generated.")
    state, _ = _walk(3)
    said = _words(state, "attack:u=1:t=4")
    assert said.startswith(
        "Your Brakka Vohl (2 ADMG) attacks your opponent's Kestrel Nine (6 Life left); unless your opponent "
        "Intercepts or Protects, it takes 2 (4 Life left)."
    )
    assert "Sets" in said and "1 Cheer" in said and "keep The Flow" in said


def test_play_ability_advance_retreat_and_pass_words() -> None:
    """ "All + (positive) cards/actions (such as advancing or attacking) let a player keep "The Flow"";
    "All - (negative) cards/actions (such as retreating) will pass The Flow to the next player"; "When an
    Unset card retreats, it becomes Set."; "A Wave ends when both players consecutively "PASS"." """
    _ruled("When an Unset card retreats, it becomes Set.")
    state, _ = _walk(5)
    assert _words(state, "play:c=pit_hound") == (
        "You pay 2 CP (9 left) and play Pit Hound (+, so you keep The Flow); your opponent may answer it "
        "with a Response first. It comes into play in your Support Field."
    )
    assert _words(state, "ability:u=3:a=0").startswith("Your Juno Kessler uses its ability (+, so you keep")
    assert _words(state, "retreat:u=3") == (
        "Your Juno Kessler moves back to your Support Field and becomes Set: a − move, The Flow passes to "
        "your opponent."
    )
    state, _ = _walk(6)
    assert "moves to your Action Field" in _words(state, "advance:u=8")
    assert (
        _words(state, "pass")
        == "You pass (−): The Flow goes to your opponent; if they pass next, the Wave ends."
    )


def test_response_intercept_and_cheer_words() -> None:
    """ "DR - Defensive Response (playable only when a player does not have The Flow)."; "The Intercepting
    Gladiator Sets to jump in the way of the attack"; "If the attack is Intercepted, the Intercepting player
    gains the Cheer"; "1 Cheer can be used/spent to change that + action to a - action." """
    _ruled(
        "If the attack is Intercepted, the Intercepting player gains the Cheer (Protecting does not grant "
        "Cheer)."
    )
    state, _ = _walk(7)
    assert _words(state, "respond:c=pulse_shield") == (
        "You pay 1 CP and play Pulse Shield as a Response: it resolves now, and The Flow stays where it is."
    )
    assert _words(state, "pass") == "You let it happen without playing a Response."
    state, _ = _walk(8)
    assert _words(state, "intercept:u=3") == (
        "Your Juno Kessler Sets and takes the attack on your Brakka Vohl instead, and you gain this attack's "
        "Cheer."
    )
    assert _words(state, "pass") == "Your Brakka Vohl takes the attack itself."
    state, _ = _walk(9)
    assert _words(state, "spend") == (
        "You spend 1 Cheer (2 left): the last + move turns −, so The Flow passes to you once it resolves."
    )
    assert _words(state, "pass").startswith("You keep your Cheer")


def _hidden_names(view: dict[str, Any], state: Any, seat: int) -> set[str]:
    """The names of the opponent's hand cards that nothing in the seat's view shows."""
    shown = {c.name for c in CARDS.values() if c.id in repr(view)}
    return {CARDS[c].name for c in state.sides[1 - seat].hand} - shown


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_every_legal_move_is_explained_without_a_hidden_card(seed: int) -> None:
    """At every position of a random game, every legal move of each seat to act gets words, and none names a
    card of the opponent's hand the seat cannot see."""
    rng = Rng(seed)
    state = GAME.setup(2, seed)
    kinds: set[str] = set()
    for _ in range(700):
        to_act = GAME.to_act(state)
        if not to_act:
            break
        for seat in to_act:
            view = GAME.view(state, seat)
            hidden = _hidden_names(view, state, seat)
            for move in GAME.legal_actions(state, seat):
                said = present.explain(view, move.key, tuple(GAME.describe(state, move)), NAMES)
                assert said and all(said), (move.key, said)
                words = " ".join(move_words(present, view, move.key, GAME.describe(state, move), NAMES))
                assert not [n for n in hidden if n in words], (move.key, words)
                kinds.add(move.kind)
        seat = to_act[0]
        legal = GAME.legal_actions(state, seat)
        GAME.apply(state, legal[rng.below(len(legal))])
    assert {"attack", "play", "pass", "bottom", "advance", "retreat", "keep", "promote"} <= kinds


def test_the_sample_board_shows_the_parts_it_names() -> None:
    """The one-page rules' sample board has what its parts name: both fields in use, a Set card, a Raging
    Gladiator, wounds, The Flow and the Crowd Favorite."""
    assert TUTORIAL is not None
    view = GAME.view(lesson.sample_state(GAME, TUTORIAL), None)
    chars = [c for p in view["players"] for c in p["characters"]]
    assert {c["field"] for c in chars} == {"action", "support"}
    assert (
        any(c["set"] for c in chars) and any(c["raging"] for c in chars) and any(c["wounds"] for c in chars)
    )
    assert any(p["crowd_favorite"] for p in view["players"]) and view["phase"] == "wave"
    named = {name for name, _ in TUTORIAL.page.parts}
    assert {"Action Field", "Support Field", "SET", "The Flow"} <= named
