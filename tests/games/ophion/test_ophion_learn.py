"""Ophion's tutorial (engine/games/ophion/learn.py) and what its moves do (present.explain), each test quoting
the sentence of the rule text (or RULINGS.md) whose move it explains."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.ai import choose_move
from bot.sessions.automatic import position_seed
from engine.core import find_action
from engine.games.ophion import present
from engine.games.ophion.learn import TUTORIAL
from engine.games.ophion.rules import Ophion
from engine.games.ophion.state import OphionState
from engine.rng import Rng
from engine.table import lesson
from engine.table.present import move_words, rule_text
from render.api import board

game = Ophion()
NAMES = ["Ada", "Bo", "Cy", "Di"]


def fresh(seed: int = 1) -> OphionState:
    """A two-player game at the start of round 1 (Ada to act), both hands +1 Gold, +1 Gold, +1 VP."""
    s = game.setup(2, seed)
    for p in s.players:
        p.deck = sorted(p.deck + p.hand)
        p.hand = ["gold1", "gold1", "vp1"]
        for c in p.hand:
            p.deck.remove(c)
    return s


def deal_row(s: OphionState, cards: list[str]) -> None:
    """Put these cards in the market row, slot #1 first."""
    s.market = [s.mint(c) for c in cards]


def words(s: OphionState, key: str, seat: int = 0) -> list[str]:
    """What the seat's move with this key will do, from the seat's own view."""
    action = find_action(game, s, seat, key)
    return present.explain(game.view(s, seat), key, game.describe(s, action), NAMES)


def said(s: OphionState, key: str, seat: int = 0) -> str:
    return " ".join(words(s, key, seat))


def uid(s: OphionState, slot: int) -> int:
    card = s.market[slot]
    assert card is not None
    return card.uid


def rule(sentence: str) -> None:
    """The quoted sentence is in Ophion's rule text."""
    assert lesson.in_rules(sentence, rule_text(game)), sentence


# -- explain, at every legal move of random games -------------------------------------------------


@pytest.mark.parametrize("players,seed", [(2, 1), (2, 2), (3, 3), (4, 4)])
def test_explain_has_words_for_every_legal_move_and_reads_only_the_view(players: int, seed: int) -> None:
    """Every legal move of the mover, at every position of random games, gets words; a determinized copy
    (the hidden hands and draw piles dealt anew) gets the same words, so nothing hidden is in them."""
    s = game.setup(players, seed)
    rng = Rng(seed)
    for n in range(400):
        if game.is_over(s):
            break
        seat = game.to_act(s)[0]
        legal = game.legal_actions(s, seat)
        view = game.view(s, seat)
        other = game.view(game.determinize(s, seat, seed * 1000 + n), seat) if n % 7 == 0 else None
        for a in legal:
            path = game.describe(s, a)
            got = present.explain(view, a.key, path, NAMES)
            assert got and all(line.strip() for line in got), (a.key, path)
            assert len(got) <= 2, got  # a sentence or two
            assert move_words(present, view, a.key, path, NAMES)[: len(got)] == got
            if other is not None:
                assert present.explain(other, a.key, path, NAMES) == got
        game.apply(s, legal[rng.below(len(legal))])


def test_explain_is_empty_for_a_spectator() -> None:
    """A spectator makes no move: no words."""
    s = fresh()
    assert present.explain(game.view(s, None), "pass", ("Pass",), NAMES) == []


# -- explain, each kind of move on a known position -----------------------------------------------


def test_explain_buying_an_action_card() -> None:
    """ "The fourth card (closest to the deck) cost 2 extra gold." and "After card is bought, last card from
    the row is discarded if it wasn't bought." """
    rule("The fourth card (closest to the deck) cost 2 extra gold.")
    rule("After card is bought, last card from the row is discarded if it wasn't bought.")
    s = fresh()
    deal_row(s, ["gold1", "gold2", "troll", "goblin"])
    s.players[0].gold = 6
    assert words(s, f"buy:c={uid(s, 1)}") == [
        "You pay 4 of your 6 gold (3 + 1 for its place #2); the +2 Gold goes to your discard pile, your "
        "next deck.",
        "Then the row's last card, Goblin, is discarded, the other cards slide toward #1 and the places at "
        "the deck's end are refilled from the Tier 1 deck.",
    ]
    last = said(s, f"buy:c={uid(s, 3)}:s=1:g=-")
    assert "is discarded" not in last and "You pay 4 of your 6 gold (2 + 2 for its place #4)" in last


def test_explain_buying_an_upgrade_into_a_taken_slot() -> None:
    """ "If monster card or upgrade card is bought, player can put it straight to the upgrade slot and gets
    benefit that card has immediately." and "Player can replace old upgrade cards with new ones." """
    rule("Player can replace old upgrade cards with new ones.")
    s = fresh()
    deal_row(s, ["gold1_up", "gold2", "troll", "goblin"])
    s.players[0].gold = 2
    assert words(s, f"buy:c={uid(s, 0)}:s=0")[0] == (
        "You pay 2 of your 2 gold and put the +1 Gold Upgrade in your upgrade slot 1 in place of your "
        "Goblin, which leaves the game: +1 gold now and every round."
    )


def test_explain_buying_a_monster_with_its_free_summon() -> None:
    """ "In case of monster, he can summon one moster of that type without paying its mana cost by placing an
    appropriate monster token to defenense or attack monster grid." """
    rule("In case of monster, he can summon one moster of that type without paying its mana cost")
    s = fresh()
    deal_row(s, ["troll", "gold2", "gold1", "goblin"])
    s.players[0].gold = 3
    assert words(s, f"buy:c={uid(s, 0)}:s=1:g=a")[0] == (
        "You pay 3 of your 3 gold, put the Troll in your upgrade slot 2 and summon one Troll free onto your "
        "attack grid (attack 0 → 3)."
    )
    assert "summon none now (later, for 3 mana)" in said(s, f"buy:c={uid(s, 0)}:s=1:g=-")


def test_explain_playing_cards() -> None:
    """ "*If 3 card was played, draw 1 card" and "*If 0 card was played, draw 3 card" """
    rule("If 3 card was played, draw 1 card")
    rule("If 0 card was played, draw 3 card")
    s = fresh()
    assert words(s, "play:c=gold1+gold1+vp1") == [
        "You play +1 Gold, +1 Gold, +1 VP: +2 gold for this round and +1 VP; then you draw 1 card."
    ]
    assert words(s, "play:c=-") == ["You play no card; then you draw 3 cards."]


def test_explain_summoning_for_mana() -> None:
    """ "After paying the mana cost, player can put a monster token to the defense or attack grid." """
    rule("After paying the mana cost, player can put a monster token to the defense or attack grid.")
    s = fresh()
    s.players[0].defense = ["troll"]
    assert words(s, "summon:m=goblin:g=d") == [
        "You pay 2 of your 3 mana and put a Goblin on your defense grid to stay: defense 0 → 1, size 5 of 6 "
        "used."
    ]


def test_explain_a_dragons_meal() -> None:
    """RULINGS 19: "the Dragon eats one Goblin from any grid (an opponent's or its owner's own). That Goblin
    is removed from the game and the Dragon's owner gets +2 attack or +2 defense (their choice) until the end
    of the round." """
    s = fresh()
    s.players[0].attack = ["dragon"]
    s.players[1].defense = ["goblin"]
    assert words(s, "eat:p=1:g=d:b=a") == [
        "Your Dragon eats a Goblin from Bo's defense grid, which leaves the game, and you get +2 attack "
        "until the end of the round, for no AP."
    ]


def test_explain_converting() -> None:
    """ "Convert 2 gold to 1 mana. Or 3 mana to 1 gold." and "Mana persists between rounds" """
    rule("Convert 2 gold to 1 mana. Or 3 mana to 1 gold.")
    s = fresh()
    s.players[0].gold = 2
    assert words(s, "convert:to=mana") == [
        "You turn 2 of your 2 gold into 1 mana (mana 3 → 4), for no AP: mana is kept from round to round, "
        "gold is lost at the end of the round."
    ]
    assert words(s, "convert:to=gold") == [
        "You turn 3 of your 3 mana into 1 gold to spend this round, for no AP."
    ]


def test_explain_passing_and_the_combat_that_follows() -> None:
    """ "If player is  first one to pass, he gets to be the last player in next turn." and "Attacker wins: 3
    VP(Victory Points) to attacker" / "Tie: 1 VP (Both)" """
    rule("If player is first one to pass, he gets to be the last player in next turn.")
    rule("Attacker wins: 3 VP(Victory Points) to attacker")
    s = fresh()
    assert words(s, "pass") == [
        "You end your round now: your 5 AP left are lost, and as the first to pass you act last next round."
    ]
    s.players[0].attack = ["troll"]
    s.players[1].ap = 0
    s.players[1].passed = True
    assert words(s, "pass") == [
        "You end your round now: your 5 AP left are lost.",
        "Nobody else has AP left, so combat follows: your attack 3 against Bo's defense 0 (you win 3 VP), "
        "and Bo's attack 0 against your defense 0 (1 VP each).",
    ]
    s.players[0].ap = 1
    assert "combat follows" in said(s, "play:c=gold1")
    assert "combat follows" not in said(s, "convert:to=gold")
    assert "your attack 4 against Bo's defense 0" in said(s, "summon:m=goblin:g=a")  # with the new Goblin
    deal_row(s, ["troll", "gold2", "gold1", "goblin"])
    s.players[0].gold, s.players[0].attack = 3, []
    bought = words(s, f"buy:c={uid(s, 0)}:s=1:g=a")  # the row's sliding left out: the round ends
    assert len(bought) == 2 and "your attack 3 against Bo's defense 0" in bought[1]


# -- the tutorial --------------------------------------------------------------------------------


def test_the_first_step_on_the_fixed_deal() -> None:
    """The first step's words on the fixed deal (a golden for review)."""
    assert lesson.step_lines(lesson.follow(game, TUTORIAL, [])) == [
        "📘 Lesson 1 of 8",
        "You and your opponent take turns, one action for each action point (AP): you have 5 this round. "
        "Start with Play › +1 Gold, +1 Gold, +1 Gold → draw 1: your three cards give you 3 more gold to "
        "spend this round, and you draw 1 card.",
        "Rule: “Player can use as many actions as he has Action Points(AP).”",
    ]


def scripted() -> list[tuple[str, ...]]:
    """The menu paths of the suggested moves, the script followed on the fixed deal with the easy AI
    answering as a session does."""
    s = game.setup(TUTORIAL.players, TUTORIAL.seed, TUTORIAL.match_options())
    log: list[tuple[int, str]] = []
    paths = []
    for state_id in range(60):
        seat = game.to_act(s)[0]
        if seat == lesson.LEARNER:
            guide = lesson.follow(game, TUTORIAL, log)
            if guide.done:
                break
            assert guide.suggested is not None
            key = guide.suggested
            paths.append(game.describe(s, find_action(game, s, seat, key)))
        else:
            key = choose_move(game, s, seat, TUTORIAL.level, position_seed(TUTORIAL.seed, state_id, seat))
        log.append((seat, key))
        game.apply(s, find_action(game, s, seat, key))
    return paths


def test_the_script_names_the_moves_its_steps_say() -> None:
    """Each step's words name its move as the menu shows it on the fixed deal."""
    paths = scripted()
    assert paths == [
        ("Play", "+1 Gold, +1 Gold, +1 Gold → draw 1"),
        ("Buy", "+1 Gold Upgrade: 2 gold (#1)", "slot 2 (empty)"),
        ("Buy", "Troll: 3 gold (#1)", "slot 3 (empty)", "free summon to the attack grid"),
        ("Summon", "Goblin (2 mana)", "defense grid"),
        ("Play", "+1 VP → draw 2"),
        ("Play", "+1 Gold, +1 Gold, +1 VP → draw 1"),
        ("Convert", "2 gold → 1 mana"),
        ("Summon", "Goblin (2 mana)", "attack grid"),
    ]
    for step, path in zip(TUTORIAL.steps, paths, strict=True):
        assert " › ".join(path[:2]) in step.say.replace(" (empty)", ""), (step.say, path)


def test_the_sample_board_shows_its_parts() -> None:
    """The sample board (round 2 of the fixed deal) shows what the page names: the row with surcharges, a
    monster on each of your grids ("ATTACK 3", "DEFENSE 1"), monsters in your slots, your opponent's
    upgrade; and it draws."""
    view = game.view(lesson.sample_state(game, TUTORIAL), None)
    you, opponent = view["players"]
    assert view["round"] == 2 and view["current"] == 0
    assert [m["surcharge"] for m in view["market"] if m] == [0, 1, 1, 2]
    assert (you["attack_grid"], you["attack"]) == (["troll"], 3)
    assert (you["defense_grid"], you["defense"]) == (["goblin"], 1)
    assert you["upgrades"] == ["goblin", None, "troll"] and opponent["upgrades"][0] == "gold1_up"
    names = [name for name, _ in TUTORIAL.page.parts]
    assert {"MARKET", "LAST", "ATTACK 3 → Opponent", "DEFENSE 1", "LOG"} <= set(names)
    image = Image.open(io.BytesIO(board("ophion", view, ["You", "Opponent"], "dark")))
    assert image.width > 0 and image.height > 0
