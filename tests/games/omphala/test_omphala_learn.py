"""Omphala's tutorial (learn.py) and what its moves do (present.explain), each test quoting the sentence of
the rule text (or RULINGS.md) it checks."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.sessions import SessionManager
from bot.store import SqliteStore
from engine.ai.random_player import RandomPlayer
from engine.core import find_action
from engine.games.omphala import present, rules
from engine.games.omphala.cards import label
from engine.games.omphala.learn import TUTORIAL
from engine.games.omphala.rules import Omphala
from engine.games.omphala.state import OmphalaState, Seat
from engine.table import lesson
from engine.table.present import move_words
from tests.lesson_helpers import play_tutorial
from tests.rule_helpers import no_quote, quote_checker

game = Omphala()
check_quotes = quote_checker(Path(rules.__file__).with_name("RULINGS.md"), "omphala.txt")
NAMES = ["Ada", "Bo", "Cy", "Di"]


def position(fronts: list[list[str]], backs: list[list[str]], deck: int = 6) -> OmphalaState:
    """A two-player (or more) play position at the start of P1's actions: "KC+5H" is a card with its
    modifier; every front-row card is secret to the others (uids from 1, seat by seat)."""
    seats, uid = [], 0
    for front, back in zip(fronts, backs, strict=True):
        rows = [e.split("+") for e in front]
        ids = list(range(uid + 1, uid + 1 + len(rows)))
        uid += len(rows)
        seats.append(Seat(front_row=rows, front_ids=ids, back_row=[e.split("+") for e in back]))
        seats[-1].secret = [e[0] for e in rows]
    s = game.setup(len(fronts), 1)
    s.seats, s.decisions, s.next_uid = seats, [], uid
    s.deck = ["2C", "3C", "4C", "5C", "6C", "7C", "8C"][:deck]
    s.phase, s.stage, s.current, s.actions_left, s.turn = "play", "act", 0, 2, 3
    return s


def said(s: OmphalaState, key: str, seat: int = 0) -> str:
    """What the ❔ says of this legal move for the seat: explain's words, joined."""
    action = find_action(game, s, seat, key)
    words = present.explain(game.view(s, seat), key, tuple(game.describe(s, action)), NAMES)
    assert words and all(words)
    return " ".join(words)


# -- explain: every move, every position -----------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_legal_move_is_explained_from_the_movers_view(players: int) -> None:
    """ "Front Row cards are your victory points": the words of every legal move of the mover, at every
    position of seeded random games, are not empty, and never name a face-down card the mover has not seen
    ("All players place any two cards from their hand face down [FD] in front of themselves")."""
    for seed in range(3):
        s = game.setup(players, seed)
        bots = [RandomPlayer(seed * 10 + p) for p in range(players)]
        for _ in range(400):
            to_act = game.to_act(s)
            if not to_act:
                break
            for seat in to_act:
                view = game.view(s, seat)
                hidden = (
                    {label(c) for i, other in enumerate(s.seats) if i != seat for c in other.secret}
                    if s.phase == "play"
                    else set()
                )
                for action in game.legal_actions(s, seat):
                    path = tuple(game.describe(s, action))
                    words = present.explain(view, action.key, path, NAMES)
                    assert words and all(words), f"no words for {action.key}"
                    text = " ".join(words)
                    leaked = {c for c in hidden if re.search(rf"(?<![0-9AJQK]){re.escape(c)}", text)}
                    assert not leaked, f"{action.key}: {text!r} names {leaked}"
                    assert move_words(present, view, action.key, path, NAMES)
            seat = to_act[0]
            game.apply(s, bots[seat].choose(game, s, seat))


# -- explain: each kind of move --------------------------------------------------------------------


def test_a_club_attack_on_a_face_down_card() -> None:
    """ "Club: Attack Front Row card (destroys opponent’s card if attacker has equal or greater power)."
    A face-down card's power is hidden: a card above 13 (a King) is sure to win, a weaker one may not."""
    s = position([["2S"], ["9D", "4S"]], [["KC+5H", "8C"], ["3D"]])
    assert said(s, "attack:c=KC:p=1:t=2") == (
        "Your K♣+5♥ (power 18) attacks your opponent's front card 1. Its power is hidden but at most 13, "
        "so your 18 wins: it is destroyed, and your K♣+5♥ retires face down to your front row."
    )
    weak = said(s, "attack:c=8C:p=1:t=2")
    assert "A face-down card's power is hidden: if yours is equal or greater, it is destroyed" in weak
    assert "9♦" not in weak and "the action is spent and nothing moves" in weak


def test_an_attack_on_a_card_everyone_has_seen() -> None:
    """ "If you successfully attack/steal a card during your turn, the card that you attacked with (and any
    Heart enhancing it) is immediately flipped over and added to your Front Row" — a card that retired there
    was seen by all (RULINGS 11), so the words know whether the attack holds."""
    s = position([["2S"], ["9D", "JC"]], [["8C", "QS"], ["3D"]])
    s.seats[1].secret = ["9D"]
    assert said(s, "attack:c=8C:p=1:t=3") == (
        "Your 8♣ (power 8) attacks your opponent's front card 2, J♣ (power 11): it holds, since 8 is less; "
        "the action is spent and nothing moves."
    )
    assert said(s, "attack:c=QS:p=1:t=3").endswith(
        "it is destroyed, and your Q♠ retires face down to your front row."
    )


def test_a_spade_steal() -> None:
    """ "Spade: Attack Front Row card (destroys opponent’s card if attacker has equal or greater power) OR
    steals Back Row card (steals opponent's card if equal or greater power)" """
    s = position([["2S"], ["9D"]], [["10S"], ["10D", "JD", "4C+6H"]])
    assert said(s, "steal:c=10S:p=1:t=10D") == (
        "Your 10♠ (power 10) tries to steal your opponent's 10♦ (power 10): it comes to your back row, and "
        "your 10♠ retires face down to your front row."
    )
    assert said(s, "steal:c=10S:p=1:t=JD").endswith(
        "it fails, since 10 is less; the action is spent and nothing moves."
    )
    assert "4♣+6♥ (power 10)" in said(s, "steal:c=10S:p=1:t=4C")


def test_a_diamond_shield() -> None:
    """ "Diamond: Shield Front Row card (turns face down, adds to the power of the card it’s placed on)." """
    s = position([["2S", "3S"], ["9D"]], [["10D"], ["4C"]])
    assert said(s, "shield:c=10D:t=1") == (
        "Your 10♦ goes face down onto your front card 1 (2♠): together power 12 against attacks, and they "
        "count as two cards at the end."
    )


def test_a_heart_enhancement() -> None:
    """ "Heart: Enhance Back Row card (stays face up, adds to the power of the card it’s placed on)." """
    s = position([["2S"], ["9D"]], [["5H", "KC"], ["4C"]])
    assert said(s, "enhance:c=5H:t=KC") == (
        "Your 5♥ joins your K♣ in your back row: together power 18, and they act as your K♣ did; the two "
        "stay one card from now on."
    )


def test_drawing_and_ending_the_turn() -> None:
    """ "A player can also use an action to draw a card from the deck to place in their Back Row."
    "Players draw 1 card before their turn and 1 card after their turn." """
    s = position([["2S"], ["9D"]], [["5H", "KC"], ["4C"]], deck=5)
    assert said(s, "draw") == "You take the top card of the deck (5 cards left) into your back row."
    assert said(s, "end_turn") == (
        "Your turn ends with 2 actions unused: you draw a card and your opponent plays; you draw one more "
        "before your next turn."
    )


def test_ending_the_turn_with_three_players() -> None:
    """ "Draw two cards from the deck to end your turn." "The player to the left goes next." """
    s = position([["2S"], ["9D"], ["3D"]], [["KC"], ["4C"], ["5C"]])
    s.actions_left = 1
    assert said(s, "end_turn") == "Your turn ends with 1 action unused: you draw 2 cards, then Bo plays."
    assert "Bo's front card 1" in said(s, "attack:c=KC:p=1:t=2")


def test_drawing_an_eighth_card_and_discarding() -> None:
    """ "Only 7 cards are allowed in the Back Row (paired cards are treated as single cards)." """
    back = ["KC+5H", "2C", "3C", "4C", "5C", "6C", "7C"]
    s = position([["2S"], ["9D"]], [back, ["4S"]])
    assert said(s, "draw").endswith("Your back row then holds 8, so you discard one to keep 7.")
    game.apply(s, find_action(game, s, 0, "draw"))
    assert s.decisions and s.decisions[-1].kind == "discard"
    assert said(s, "discard:c=KC") == (
        "Your K♣+5♥ goes face up to the discard pile for good, leaving 7 in your back row."
    )


def test_an_all_red_back_row() -> None:
    """ "If a player has 7 red suit cards in their Back Row (and no black suit cards), they may shuffle their
    Back Row into the deck and draw 5 new cards." """
    back = ["2H", "3H", "4H", "5H", "6H", "7H"]
    s = position([["2S"], ["9D"]], [back, ["4S"]], deck=1)
    s.deck = ["8D"]
    game.apply(s, find_action(game, s, 0, "draw"))
    assert s.decisions and s.decisions[-1].kind == "reshuffle"
    assert said(s, "pass") == "You keep your all-red back row as it is."
    assert said(s, "reshuffle") == (
        "Your whole back row (7 cards) is shuffled into the deck and you draw 5 new cards "
        "(at most twice a game)."
    )


def test_choosing_the_face_down_pair() -> None:
    """ "All players place any two cards from their hand face down [FD] in front of themselves to create their
    Front Row." "All players place their remaining 5 cards face up [FU] to create their Back Row." """
    s = game.setup(2, TUTORIAL.seed)
    assert said(s, "choose:a=2S:b=3S").startswith(
        "Your 2♠ goes face down on the left of your front row and your 3♠ on the right"
    )


# -- the tutorial ----------------------------------------------------------------------------------


def test_the_first_step_on_the_fixed_deal() -> None:
    """ "Deal 7 cards, look at them." The learner's first lesson on deal 2306, as the guide says it (a
    golden for review)."""
    assert lesson.step_lines(lesson.follow(game, TUTORIAL, [])) == [
        "📘 Lesson 1 of 6",
        "Hide two cards face down: they start your front row, and whoever ends with the most front-row "
        "cards wins. Hidden cards can no longer act, so hide your two weakest and keep the rest face up to "
        "use: choose 2♠ on the left › 2♠ left + 3♠ right, face down.",
        "Rule: “All players place any two cards from their hand face down [FD] in front of themselves to "
        "create their Front Row.”",
    ]


@pytest.fixture
async def sessions(tmp_path: Path) -> AsyncIterator[SessionManager]:
    async with SqliteStore(str(tmp_path / "learn.db")) as store:
        m = SessionManager(store)
        yield m
        await m.close()


async def test_the_script_meets_the_moves_its_words_name(sessions: SessionManager) -> None:
    """ "On my turn, I enhance my King of Clubs in my Back Row with a 5 of Hearts in my Back Row (one action)"
    "I use my Queen of Spades to steal a Jack of Diamonds from another player's Back Row and add it to my
    Back Row (one action), then I use the Jack of Diamonds to shield one of my Front Row cards" — the rules'
    two examples are the learner's first two turns: on the fixed deal with the easy AI answering, each step
    suggests the move its words name, and what they say of the table is what the learner sees."""
    run = await play_tutorial(sessions, "omphala")
    assert [o.suggested for o in run.final.outcomes] == [
        "choose:a=2S:b=3S",
        "enhance:c=6H:t=8C",
        "attack:c=8C:p=1:t=1",
        "steal:c=JS:p=1:t=10D",
        "shield:c=10D:t=3",
        "draw",
    ]
    paths = [" › ".join(o.suggested_path) for o in run.final.outcomes]
    for step, path in zip(TUTORIAL.steps, paths, strict=True):
        named = path.replace("P2 front card", "your opponent's front card").replace("P2: ", "")
        assert named in step.say, f"{step.say!r} does not name {named!r}"
    # The last step's words of the table: the opponent stole the 10♣, and no Club or Spade is left.
    log = [(row.seat, row.key) for row in await sessions.store.load_log(run.info.id) if not row.undone]
    s = game.setup(2, TUTORIAL.seed, TUTORIAL.match_options())
    for seat, key in log:
        if seat == 0 and key == "draw":
            break
        game.apply(s, find_action(game, s, seat, key))
    assert (1, "steal:c=QS:p=0:t=10C") in log[: log.index((0, "draw"))]
    back = game.view(s, 0)["players"][0]["back_row"]
    assert back and not any(e[0][-1] in "CS" for e in back)


@no_quote
def test_the_sample_board_shows_the_parts_it_names() -> None:
    """The one-page rules' sample board has what its parts name: a face-down card, cards retired face up,
    a paired card with its power badge, back rows, both piles and a last action."""
    s = lesson.sample_state(game, TUTORIAL)
    view = game.view(s, None)
    fronts = [e for p in view["players"] for e in p["front_row"]]
    assert any(None in e["cards"] for e in fronts), "no face-down card"
    assert any(None not in e["cards"] for e in fronts), "no retired card"
    assert any(e["size"] == 2 and None not in e["cards"] for e in fronts), "no power badge"
    assert all(p["back_row"] for p in view["players"]) and view["deck"] and view["discard"]
    assert view["last"] and view["log"] and view["current"] is not None
    names = [name for name, _ in TUTORIAL.page.parts]
    assert {"Front row", "Back row", "Piles", "Last", "Power badge"} <= set(names)


@no_quote
def test_every_test_quotes_the_rules() -> None:
    """Every test above quotes the rule text or RULINGS.md."""
    check_quotes(globals())
