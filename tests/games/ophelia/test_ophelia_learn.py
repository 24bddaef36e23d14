"""Ophelia's tutorial (engine/games/ophelia/learn.py) and what its moves do (present.explain): each kind of
move's words on a known position, quoting the rule they explain; words for every legal move of random
games, never naming a card the mover cannot see; the first step's words on the fixed deal; the sample
board and the steps' menu words."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import render
from engine.core import find_action
from engine.games.ophelia import present
from engine.games.ophelia.cards import CARDS
from engine.games.ophelia.learn import TUTORIAL
from engine.games.ophelia.state import OpheliaState
from engine.table import lesson
from tests import ophelia_helpers
from tests.ophelia_helpers import check_quotes, do, end_turn, fresh, keys, no_quote, place

NAMES = ["Ann", "Bob"]
game: Any = ophelia_helpers.game  # its views as plain JSON, as front ends read them


def words(s: OpheliaState, seat: int, key: str) -> str:
    """What `explain` says of this legal move of the seat, from its own view, as one text."""
    action = find_action(game, s, seat, key)
    said = present.explain(game.view(s, seat), key, game.describe(s, action), NAMES)
    assert said and all(said), f"no words for {key}"
    return " ".join(said)


def key_of(s: OpheliaState, seat: int, prefix: str) -> str:
    """The seat's one legal move whose key starts with this."""
    (found,) = [k for k in keys(s, seat) if k.startswith(prefix)]
    return found


def unseen(view: Any, s: OpheliaState, seat: int) -> list[str]:
    """The names of the cards in the other player's hand that this seat's view shows nowhere (and that no
    name it sees contains)."""
    shown = set((view["players"][seat]["hand"] or []) + [c for p in view["players"] for c in p["forgotten"]])
    for row in view["slots"]:
        for u in row:
            shown |= {x["card"] for x in [u, *(u or {}).get("attached", [])] if x is not None}
    seen_names = [CARDS[c].name for c in shown]
    hidden = {CARDS[c].name for c in s.sides[1 - seat].hand} - set(seen_names)
    return [n for n in hidden if not any(n in m for m in seen_names)]


# -- every move, in random games ---------------------------------------------------------------------


@no_quote
def test_every_legal_move_of_random_games_is_explained_without_hidden_cards() -> None:
    """At many positions of random games (seeded), `explain` gives words for every legal move of the
    seat to act, from its own view, and never names a card of the other's hand it cannot see; every kind
    of move the game has comes up."""
    kinds: set[str] = set()
    for seed in range(6):
        rng = random.Random(seed)
        s = game.setup(2, seed)
        for _ in range(400):
            to_act = game.to_act(s)
            if not to_act:
                break
            seat = to_act[0]
            legal = game.legal_actions(s, seat)
            view = game.view(s, seat)
            hidden = unseen(view, s, seat)
            for a in legal:
                said = " ".join(present.explain(view, a.key, game.describe(s, a), NAMES))
                assert said, f"seed {seed}: no words for {a.key}"
                assert not [n for n in hidden if re.search(rf"\b{re.escape(n)}\b", said)], (a.key, said)
                kinds.add(a.kind)
            plays = [a for a in legal if a.kind not in ("discard", "retire")] or legal  # keep the board full
            game.apply(s, rng.choice(plays))
    assert kinds >= {"play", "move", "end", "pass", "discard", "retire", "act", "claim", "pick", "first"}


# -- each kind of move, on a known position ----------------------------------------------------------


def test_playing_a_character_says_what_it_faces_and_who_strikes_first() -> None:
    """ "Characters that are in vertically opposing slots are contesting, and attack in the contest
    phase." "All characters contesting slots deal damage to their opposing character, in order of highest
    to lowest Initiative." "The player who has the most Power on a character in the middle slot" """
    s = fresh(hands=(["alexander_the_great", "el_cid"], []))
    place(s, 1, 3, "boudica")
    place(s, 1, 1, "the_oriflamme")
    said = words(s, 0, "play:c=alexander_the_great:s=3")
    assert "Your Alexander the Great (printed Power 3, Initiative 4, Life 3) enters slot 3 (middle)" in said
    assert "where the most Power wins the round" in said
    assert "faces your opponent's Boudica (Power 3, Life 4 left)" in said
    assert "Alexander the Great strikes first (Initiative 4 against 2)" in said
    assert "both strike at once (Initiative 2 against 2)" in words(s, 0, "play:c=el_cid:s=3")
    assert "relic The Oriflamme: they contest, and a relic deals no damage back" in words(
        s, 0, "play:c=el_cid:s=1"
    )


def test_an_uncontested_character_may_claim() -> None:
    """ "One Claim ability can be activated each time a card is played or moved into an open and
    uncontested slot." """
    s = fresh(hands=(["alexander_the_great", "el_cid"], []))
    said = words(s, 0, "play:c=alexander_the_great:s=2")
    assert "No card faces it there, so Alexander the Great is uncontested." in said
    assert "It may make its Claim, if it can." in said
    assert "Claim" not in words(s, 0, "play:c=el_cid:s=2")  # El Cid has none


def test_playing_a_relic_says_it_never_fights() -> None:
    """ "Relics are played just like characters, except they don't have an Attack or Initiative stat - as
    they don't fight in the contest phase." RULINGS 20: "played onto a character you control instead of a
    slot" """
    s = fresh(hands=(["stone_of_scone", "joyeuse"], []))
    bearer = place(s, 0, 3, "alexander_the_great")
    place(s, 1, 2, "boudica")
    said = words(s, 0, "play:c=stone_of_scone:s=2")
    assert "Your relic The Stone of Scone (Life 5) enters slot 2; a relic never fights." in said
    assert "Your opponent's Boudica faces it and will damage it." in said
    said = words(s, 0, f"play:c=joyeuse:t={bearer.uid}")
    assert "attaches to Alexander the Great" in said
    assert "goes to your forgotten zone when Alexander the Great leaves the field" in said


def test_a_turning_point_in_the_opponents_turn() -> None:
    """ "You'll have a chance to play these on your opponent's turn too!" "A Turning Point is a one-use card
    that is then sent to the forgotten zone." """
    s = fresh(hands=(["coronation_of_charlemagne"], ["coronation_of_charlemagne"]))
    place(s, 0, 3, "alexander_the_great")
    place(s, 1, 3, "boudica")
    own = words(s, 0, "play:c=coronation_of_charlemagne")
    assert own.startswith("You play The Coronation of Charlemagne (800) for its effect")
    assert "forgotten zone (one use)" in own
    do(s, 0, "end")
    assert s.decisions[-1].kind == "window"
    said = words(s, 1, "play:c=coronation_of_charlemagne")
    assert "now, in your opponent's Turning Point Phase just before their Contest" in said
    assert words(s, 1, "pass") == "You play no Turning Point now; your opponent's Contest Phase follows."


def test_moving_says_where_and_what_it_meets() -> None:
    """ "Characters that were not played this turn, and are not contested can be moved to an adjacent slot
    once each per turn." """
    s = fresh()
    cid = place(s, 0, 2, "el_cid")
    place(s, 1, 1, "the_oriflamme")
    said = words(s, 0, f"move:u={cid.uid}:s=1")
    assert said.startswith("Your El Cid moves from slot 2 to slot 1 (outer) and cannot move again this turn")
    assert "moving is not playing a card" in said
    assert "relic The Oriflamme: they contest" in said
    assert "uncontested" in words(s, 0, f"move:u={cid.uid}:s=3")


def test_ending_the_action_phase_and_the_round() -> None:
    """ "During this phase, your opponent has an opportunity to play Turning Point cards before you proceed
    to your Contest Phase." "If no cards are played in any two consecutive turns, move to the Round
    Resolution Phase." "The player who has the most combined power on their side of the board" """
    s = fresh()
    place(s, 0, 3, "richard_the_lionheart")
    place(s, 1, 3, "boudica")
    said = words(s, 0, "end")
    assert said.startswith("Your Action Phase ends: your opponent may play Turning Points, then the Contest")
    assert "1 card of yours contests, the highest Initiative striking first" in said
    assert "round" not in said  # a card was played last turn (quiet is 0)
    s.quiet = 1
    said = words(s, 0, "end")
    assert "unless a Turning Point is played now the round ends after the Contest" in said
    assert "you would win it (most Power in the middle slot, 4 against 3)" in said
    s.slots[0][2] = s.slots[1][2] = None
    place(s, 1, 1, "boudica")
    assert "your opponent would win it (most Power on a side, 0 against 3)" in words(s, 0, "end")


def test_discarding_and_retiring_go_to_the_forgotten_zone() -> None:
    """ "Retire a character you own and control, or discard a card." RULINGS 8: "Moving, abilities,
    retiring and discarding are not playing a card." """
    s = fresh(hands=(["el_cid"], []))
    u = place(s, 0, 3, "alexander_the_great")
    u.attached.append(place(s, 0, 4, "joyeuse"))
    s.slots[0][3] = None
    assert words(s, 0, "discard:c=el_cid") == (
        "El Cid goes from your hand to your forgotten zone, face up; discarding is not playing a card."
    )
    said = words(s, 0, f"retire:u={u.uid}")
    assert said.startswith("Your Alexander the Great leaves slot 3 (middle) for your forgotten zone")
    assert "What is attached to it goes too: Joyeuse, Sword of Charlemagne." in said


def test_an_action_ability_once_a_turn() -> None:
    """ "An Action ability can be activated once each per card, during your Action Phase." """
    s = fresh()
    queen = place(s, 0, 2, "elizabeth_i")
    place(s, 0, 3, "el_cid")
    said = words(s, 0, f"act:u={queen.uid}:a=0")
    assert said.startswith("Elizabeth I uses this Action (once this turn)")
    assert "Sacrifice another ally: Draw a card." in said


def test_a_claim_its_cost_and_its_target() -> None:
    """ "If a character becomes contested or leaves the field before the ability resolved, the effect is
    negated." "To activate any ability, you must be able to pay the cost." """
    s = fresh(hands=(["alexander_the_great"], []))
    ally = place(s, 0, 1, "el_cid")
    place(s, 0, 5, "boudica")
    foe = place(s, 1, 2, "saladin")
    place(s, 1, 4, "julius_caesar")
    do(s, 0, "play:c=alexander_the_great:s=3")
    claim = key_of(s, 0, "claim:")
    said = words(s, 0, claim)
    assert "Alexander the Great makes this Claim" in said and "Defeat an enemy character." in said
    assert "negated if Alexander the Great is contested or has left the field" in said
    assert words(s, 0, "pass") == "Alexander the Great makes no Claim this time; it stays where it is."
    do(s, 0, claim)
    said = words(s, 0, f"pick:t={ally.uid}")
    assert said == "Your El Cid goes to your forgotten zone to pay Alexander the Great's cost (sacrifice)."
    do(s, 0, f"pick:t={ally.uid}")
    assert words(s, 0, f"pick:t={foe.uid}") == (
        "Your opponent's Saladin is the card Alexander the Great's ability acts on."
    )


def test_triggers_in_order_and_a_may() -> None:
    """RULINGS 15: "a player with two or more waiting chooses their order" "trigger asks its controller" """
    s = fresh(hands=(["el_cid"], []))
    place(s, 1, 2, "mary_read")
    place(s, 1, 4, "mary_read")
    do(s, 0, "play:c=el_cid:s=3")
    order = sorted(keys(s, 1))[0]
    assert words(s, 1, order) == "Mary Read resolves first, then your other waiting triggers."
    do(s, 1, order)
    assert words(s, 1, "use") == "You use Mary Read's ability now."
    assert words(s, 1, "pass") == "You do not use Mary Read's ability this time."


def test_the_round_loser_chooses_who_goes_first() -> None:
    """ "then the loser of the previous round decides who goes first." "The player who went second in the
    round." """
    s = fresh(hands=(["el_cid"], ["el_cid"]))
    place(s, 0, 3, "richard_the_lionheart")
    s.quiet = 1
    end_turn(s)
    assert keys(s, 1) == {"first:p=0", "first:p=1"}
    assert words(s, 1, "first:p=1") == (
        "You go first this round; if Power ties when it ends, your opponent wins it, having gone second."
    )
    assert words(s, 1, "first:p=0") == (
        "Your opponent goes first this round; if Power ties when it ends, you win it, having gone second."
    )


# -- the tutorial ------------------------------------------------------------------------------------


def _scripted() -> list[tuple[Any, int, list[str]]]:
    """The tutorial's scripted path: at each guided step, the state (a copy), the step and the menu path of
    its suggested move; the learner follows every step and the easy AI answers as a session does."""
    from bot.ai import choose_move
    from bot.sessions.automatic import position_seed

    s = game.setup(2, TUTORIAL.seed, TUTORIAL.match_options())
    log: list[tuple[int, str]] = []
    met: list[tuple[Any, int, list[str]]] = []
    while len(met) < len(TUTORIAL.steps):
        seat = game.to_act(s)[0]
        if seat == lesson.LEARNER:
            guide = lesson.follow(game, TUTORIAL, log)
            legal = game.legal_actions(s, seat)
            key = guide.suggested or legal[0].key
            if guide.step is not None:
                path = list(game.describe(s, find_action(game, s, seat, key)))
                met.append((game.from_json(game.to_json(s)), guide.step, path))
        else:
            key = choose_move(game, s, seat, TUTORIAL.level, position_seed(TUTORIAL.seed, len(log), seat))
        log.append((seat, key))
        game.apply(s, find_action(game, s, seat, key))
    return met


@pytest.fixture(scope="module")
def scripted() -> list[tuple[Any, int, list[str]]]:
    return _scripted()


@no_quote
def test_the_first_step_on_the_fixed_deal() -> None:
    """The first step's words on the fixed deal, as the learner reads them (a small golden for review)."""
    guide = lesson.follow(game, TUTORIAL, [])
    assert guide.step == 0 and guide.suggested == "play:c=alexander_the_great:s=3"
    assert lesson.step_lines(guide) == [
        "📘 Lesson 1 of 9",
        "Your row is the bottom row of five slots; slot 3 is the middle slot. Choose Play a character › "
        "Alexander the Great › into slot 3 (middle): when the round ends, the most Power on a character in "
        "the middle slot wins it.",
        "Rule: “The player who has the most Power on a character in the middle slot”",
    ]


@no_quote
def test_each_step_names_its_move_as_the_menu_shows_it_and_no_hidden_card(
    scripted: list[tuple[Any, int, list[str]]],
) -> None:
    """On the scripted path every step comes up in order; its words name the suggested move's menu group
    and card as the menu shows them, and no card of the opponent's hand the learner cannot see."""
    assert [step for _, step, _ in scripted] == list(range(len(TUTORIAL.steps)))
    for s, step, path in scripted:
        say = TUTORIAL.steps[step].say
        assert path[0] in say, (step, path)
        if len(path) > 1:
            assert path[1].split(" (P")[0] in say, (step, path)
        hidden = unseen(game.view(s, lesson.LEARNER), s, lesson.LEARNER)
        assert not [n for n in hidden if n in say], (step, hidden)


@no_quote
def test_the_sample_board_shows_the_parts_it_names() -> None:
    """The one-page rules' sample board (after `page.sample` scripted moves) has the cards its parts name:
    two characters of the learner's, Alexander the Great in the middle slot bearing Joyeuse; and it
    renders."""
    s = lesson.sample_state(game, TUTORIAL)
    view = game.view(s, None)
    row = view["slots"][lesson.LEARNER]
    assert [u and u["name"] for u in row] == [None, "El Cid", "Alexander the Great", None, None]
    assert [r["name"] for r in row[2]["attached"]] == ["Joyeuse, Sword of Charlemagne"]
    named = " ".join(what for _, what in TUTORIAL.page.parts)
    for name in ("El Cid", "Alexander the Great", "Joyeuse"):
        assert name in named
    png = render.board("ophelia", view, ["You", "Opponent"], "dark")
    assert png.startswith(b"\x89PNG")


@no_quote
def test_every_test_here_quotes_the_rules() -> None:
    """Each test above that checks a rule quotes a sentence of the rule text or of RULINGS.md."""
    check_quotes(globals())
