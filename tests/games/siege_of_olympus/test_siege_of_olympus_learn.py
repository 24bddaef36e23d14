"""Siege of Olympus's tutorial (engine/games/siege_of_olympus/learn.py) and what its moves do
(present.explain): words for every legal move of random games, each kind of move on a known position with
the rule it explains quoted, the first step's words on the fixed deal, and the sample board's parts."""

from __future__ import annotations

import json

import pytest

from engine.core import Action, find_action
from engine.games.siege_of_olympus import present
from engine.games.siege_of_olympus.cards import CARDS
from engine.games.siege_of_olympus.learn import BRONTES, ENEMY_COMMANDER, TUTORIAL
from engine.games.siege_of_olympus.state import SiegeState
from engine.rng import Rng
from engine.table import lesson
from engine.table.present import move_words
from tests.siege_helpers import (
    check_quotes,
    do,
    fresh,
    game,
    hold,
    no_quote,
    phase,
    place,
)

NAMES = ["Ada", "Bo"]


def words(s: SiegeState, seat: int, key: str) -> str:
    """What the seat's move with this key does, as the hand menu's ❔ says it (explain's words only)."""
    move = find_action(game, s, seat, key)
    return " ".join(present.explain(game.view(s, seat), key, tuple(game.describe(s, move)), NAMES))


def scripted(upto: int) -> tuple[SiegeState, Action]:
    """The tutorial's deal played by its script up to step `upto`'s decision (the other seat making its first
    legal move), and that step's suggested move."""
    s = game.setup(TUTORIAL.players, TUTORIAL.seed, TUTORIAL.match_options())
    first = 0
    while True:
        seat = game.to_act(s)[0]
        legal = game.legal_actions(s, seat)
        move = legal[0]
        if seat == lesson.LEARNER and len(legal) > 1:
            for i in range(first, len(TUTORIAL.steps)):
                found = TUTORIAL.steps[i].suggests(legal)
                if found is not None:
                    if i == upto:
                        return s, found
                    first, move = i + 1, found
                    break
        game.apply(s, move)


# -- every move has words, and none names a hidden card ------------------------------------------------


def _seen_and_hidden(s: SiegeState, seat: int) -> tuple[list[str], set[str]]:
    """The names of the cards the seat's view shows (longest first), and of those it cannot see anywhere
    (the other Hand and the Deck)."""
    shown = json.dumps(game.view(s, seat))
    seen = sorted({CARDS[c].name for c in CARDS if f'"{c}"' in shown}, key=len, reverse=True)
    return seen, {CARDS[c].name for c in {*s.sides[1 - seat].hand, *s.deck} if f'"{c}"' not in shown}


@no_quote
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_legal_move_has_words_from_the_movers_view(seed: int) -> None:
    """explain gives words for every legal move of the mover, at every position of a random game, and they
    never name a card the mover cannot see (a seen card's name taken out first: "Heracles" is in "Labours
    of Heracles")."""
    s, rng = game.setup(2, seed, {}), Rng(seed)
    kinds = set()
    for _ in range(300):
        if not game.to_act(s):
            break
        seat = game.to_act(s)[0]
        legal, view = game.legal_actions(s, seat), game.view(s, seat)
        seen, hidden = _seen_and_hidden(s, seat)
        for a in legal:
            said = " ".join(present.explain(view, a.key, tuple(game.describe(s, a)), NAMES))
            assert said, f"no words for {a.key}"
            for name in seen:
                said = said.replace(name, "")
            assert not [n for n in hidden if n in said], f"{a.key}: {said} names a hidden card"
            kinds.add(a.kind)
        game.apply(s, legal[rng.below(len(legal))])
    assert {"summon", "exchange", "recruit", "next", "end"} <= kinds


@no_quote
def test_move_words_add_the_cards_text_after_explain() -> None:
    """The hand menu's ❔ reads explain through move_words, which adds the named card's printed text."""
    s, move = scripted(1)
    view = game.view(s, 0)
    lines = move_words(present, view, move.key, game.describe(s, move), NAMES)
    assert lines[0].startswith("You summon Castor") and lines[-1] == f"Castor: {CARDS['castor'].text}"


# -- each kind of move on a known position, with the rule it explains ----------------------------------


def test_keeping_or_returning_cards_at_the_start() -> None:
    """ "(If your starting hand does not suit you, you can return up to 3 cards in the deck and draw three
    more." """
    s, move = scripted(0)
    assert move.key == "pass" and words(s, 0, "pass") == "You keep these 6 cards."
    assert "back into the Deck (up to 3 cards)" in words(s, 0, "return:c=castor")


def test_summoning_says_the_cost_and_the_artifact_piece() -> None:
    """ "This number indicates the number of minions that must be on your side of the board in order to
    summon a minion from your hand." """
    s, move = scripted(1)
    said = words(s, 0, move.key)
    assert said.startswith("You summon Castor (cost 0: you control 0 minions) onto your side")
    assert "Its Summon effect resolves now" in said
    assert "artifact piece 15: you will have 1 of the 3" in said


def test_summoning_the_third_piece_takes_the_artifact() -> None:
    """ "Every time a player completes an Artifact piece, they draw a card from the Deck." """
    s, move = scripted(3)
    assert move.key == "summon:c=bellerophon"
    said = words(s, 0, move.key)
    assert "cost 2: you control 2 minions" in said
    assert "That makes 3 pieces of number 15: you take Adamantine Chains and draw a card." in said


def test_an_exchange_at_the_agora() -> None:
    """ "You can exchange 1 card from your Hand with another in the Agora each turn (you cannot take back
    the one you left there the same turn, so think wisely)." """
    s, move = scripted(4)
    assert words(s, 0, move.key) == (
        "You leave Labours of Heracles in the Agora and take Trojan Horse into your Hand, to play this turn "
        "if you like; Labours of Heracles cannot be taken back this turn. This is your one exchange a turn."
    )


def test_moving_on_to_the_next_phase() -> None:
    """ "Deploy: During this phase you can do everything except attacking." """
    s, move = scripted(5)
    assert move.key == "next" and words(s, 0, "next").startswith("You move on to the Recruit phase")
    s, move = scripted(7)
    assert move.key == "next" and words(s, 0, "next").startswith("You move on to the Attack phase")


def test_a_ranged_recruit_takes_no_damage_back() -> None:
    """ "This means that they do not take damage while attacking." … "By destroying a prisoner in the
    Tartarus zone, you add it to your hand, but you cannot summon it the same turn." """
    s, move = scripted(6)
    assert move.key.endswith(f":t={BRONTES}")
    assert words(s, 0, move.key) == (
        "Your Castor (3 Attack) attacks the prisoner Brontes (2 Health): Brontes is destroyed; your Castor "
        "is ranged and Brontes is not, so it takes no damage back. A prisoner destroyed joins your Hand; you "
        "can summon it from your next turn."
    )


def test_a_melee_attack_is_struck_back() -> None:
    """ "For example if a Ranger attacks a Raider, only the Raider takes damage from the attack." (a melee
    attacker takes the defender's Attack back) … "(You can target only 1 enemy minion each turn for an
    attack)" """
    s = fresh()
    ares, themis = place(s, 0, "ares"), place(s, 1, "themis")
    phase(s, "attack")
    assert words(s, 0, f"attack:u={ares.uid}:t={themis.uid}") == (
        "Your Ares (5 Attack) attacks your opponent's Themis (3 Health): Themis is destroyed, and it strikes "
        "back for 1: your Ares takes 1 (3 Health left). Themis becomes the one enemy minion you may attack "
        "this turn. Your opponent may answer with Ambush or Disrupt first."
    )


def test_a_primordial_attack_on_the_commander() -> None:
    """ "Lastly, some minions have a "Primordial Attack" indicator which means they can attack either minions
    (or prisoners), or the enemy Commander" """
    s, move = scripted(8)
    assert move.key.endswith(f":t={ENEMY_COMMANDER}")
    assert words(s, 0, move.key).startswith(
        "Your Bellerophon (3 Attack) attacks your opponent's Commander (Prometheus, the Fire-Bringer: 20 "
        "Health) for 3; a Commander never strikes back."
    )


def test_ending_the_turn() -> None:
    """ "At the end of each players turn, minions across the board return to their full original Health." """
    s = fresh()
    assert words(s, 0, "end").startswith("You end your turn (skipping the phases left): every minion heals")


def test_a_spell_and_a_commanders_power() -> None:
    """ "Spell cards, are just extra effects that you can activate during your turn, before you begin the
    attacking phase" … "Each Commander has a unique ability that can be activated once per game" """
    s = fresh(hands=(["nectar_and_ambrosia"], []), commanders=("typhon", "gaia"))
    assert words(s, 0, "cast:c=nectar_and_ambrosia").startswith("You play Nectar and Ambrosia;")
    assert words(s, 0, "once").startswith("You use the power of Typhon, Father of Monsters, once a game")


def test_choosing_a_commander() -> None:
    """ "1)Each player chooses one of the four available Commanders" """
    s = game.setup(2, 3, {})
    seat = game.to_act(s)[0]
    assert words(s, seat, "commander:c=typhon").startswith("You lead Typhon, Father of Monsters: 20 Health")


def test_answering_with_disrupt() -> None:
    """ "Disrupt Negate an enemy minion's Attack or a card's Effect." """
    s = fresh(hands=(["nectar_and_ambrosia"], ["oath_on_the_styx"]))
    do(s, 0, "cast:c=nectar_and_ambrosia")
    assert words(s, 1, "respond:c=oath_on_the_styx") == (
        "You play Oath on the Styx from your Hand to negate Nectar and Ambrosia; it goes to the Underworld."
    )
    assert words(s, 1, "pass") == "You let Nectar and Ambrosia happen without an answer."


def test_discarding_down_to_eight() -> None:
    """ "Also, if a player has more than 8 cards in their hand at the end of their turn, they must discard
    the excess number of cards" """
    hand = ["ares", "athena", "apollo", "brontes", "cottus", "gyges", "themis", "crius", "coeus"]
    s = fresh(hands=(hand, []))
    do(s, 0, "end")
    assert words(s, 0, "discard:c=ares").startswith("You discard Ares to the Underworld")


def test_picking_an_option_and_a_target() -> None:
    """ "Pick Choose one." """
    s = fresh(hands=(["judgement_of_paris"], []))
    place(s, 1, "themis")
    place(s, 1, "crius")
    do(s, 0, "cast:c=judgement_of_paris")
    (o,) = [a.key for a in game.legal_actions(s, 0) if "Deal 2 damage" in " ".join(game.describe(s, a))]
    assert words(s, 0, o) == "Judgement of Paris will do this: Deal 2 damage to an enemy minion."
    do(s, 0, o)
    pick = next(a.key for a in game.legal_actions(s, 0) if a.kind == "pick")
    assert words(s, 0, pick).startswith("You choose the enemy Themis (1 Attack, 3 Health) for Judgement")


def test_a_may_and_an_artifact() -> None:
    """ "Exchange Leave a card to the Agora zone and add one from there to your hand." … "Having a certain
    number of artifacts is the second way to win a game of Siege of Olympus." """
    s = fresh(hands=(["aello", "ares"], []))
    do(s, 0, "summon:c=aello")
    assert words(s, 0, "use") == "You use the optional effect of Aello now."
    assert words(s, 0, "pass") == "You skip the optional effect of Aello."
    s = fresh(hands=(["ares"], []))
    place(s, 1, "themis")
    hold(s, 0, 2)
    assert words(s, 0, "act:n=2") == (
        "You use the effect of Harpe, once this turn; your opponent may answer with Disrupt."
    )


# -- the tutorial -------------------------------------------------------------------------------------


@no_quote
def test_the_first_steps_words_on_the_fixed_deal() -> None:
    """The first step's words, as the learner reads them (a small golden for review)."""
    guide = lesson.follow(game, TUTORIAL, [])
    assert lesson.step_lines(guide) == [
        "📘 Lesson 1 of 9",
        "Both players drew 6 cards from the one Deck you share; you may send up to 3 back and draw as many. "
        "Your hand is good: Castor and Pollux cost 0, and with Bellerophon they carry the same artifact "
        "number, 15. Choose **Keep your hand**.",
        "Rule: “Additionally, in Siege Of Olympus, players share the same Deck, which unfolds lots of unique "
        "strategic options!”",
    ]
    assert guide.suggested == "pass"


@no_quote
def test_the_learner_goes_first_with_the_pieces_of_artifact_15() -> None:
    """The deal the steps speak of: the learner plays first, leads Typhon, holds Castor, Pollux and
    Bellerophon; Brontes is the prisoner the recruit step names; the enemy Commander's id is fixed."""
    s, _ = scripted(1)  # Tartarus is filled once the hands are kept
    assert s.first == 0 and s.sides[0].commander == "typhon"
    assert {"castor", "pollux", "bellerophon", "labours_of_heracles"} <= set(s.sides[0].hand)
    assert s.sides[1].commander_uid == ENEMY_COMMANDER
    assert any(m.uid == BRONTES and m.card == "brontes" for m in s.tartarus)


@no_quote
def test_each_step_suggests_the_move_its_words_name() -> None:
    """On the scripted path each step's suggested move has the menu words its `say` names."""
    for i, step in enumerate(TUTORIAL.steps):
        s, move = scripted(i)
        path = game.describe(s, move)
        assert path[0] in step.say, f"step {i + 1}: {path} not in its words"


@no_quote
def test_the_sample_board_shows_the_parts() -> None:
    """The one-page rules' sample board: the learner's three minions and artifact, a wounded enemy
    Commander, Tartarus and the Agora filled, the Agora's left card marked."""
    view = game.view(lesson.sample_state(game, TUTORIAL), None)
    me, them = view["players"]
    assert [m["name"] for m in me["minions"]] == ["Castor", "Pollux", "Bellerophon"]
    assert [a["name"] for a in me["artifacts"]] == ["Adamantine Chains"] and them["health"] == 17
    assert len(view["tartarus"]) == 5 and len(view["agora"]) == 6 and view["left"]
    names = [name for name, _ in TUTORIAL.page.parts]
    assert {"Tartarus", "The Agora", "Your minions"} <= set(names)


@no_quote
def test_every_quote_is_in_the_rules() -> None:
    """Each test above quotes the rulebook or RULINGS.md, word for word."""
    check_quotes(globals())
