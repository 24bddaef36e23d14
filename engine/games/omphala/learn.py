"""Omphala's tutorial (engine/table/lesson.py): a first game against the easy AI on a fixed deal.

On deal 2306 the learner is dealt 2♠ 3♠ 4♦ 6♥ 7♦ 8♣ J♠ and the rules' own two examples come up in their
first two turns: a Heart enhances a Club that then attacks a face-down card, and a Spade steals a Diamond
that then shields a front-row card. Before their third turn the easy AI steals their last Club, so the
back row has nothing left to attack or steal with and drawing is the move.
"""

from __future__ import annotations

from engine.games.omphala.cards import DECK, power
from engine.table.lesson import Idea, Page, Step, Tutorial

# A Spade's steal of a card of no higher rank (sure to work unless a Heart has made the target stronger):
# the steal step suggests the first of these, so a learner who kept another Spade is not sent to fail.
SURE_STEAL = "|".join(
    f"steal:c={s}:p=1:t={t}" for s in DECK if s.endswith("S") for t in DECK if t != s and power(t) <= power(s)
)

IDEAS = (
    Idea(
        "pair",
        "The face-down pair",
        "You start by hiding two of your seven cards face down as your front row: only you know them.",
    ),
    Idea(
        "win",
        "Front-row cards are points",
        "When nobody can move any more, the player with the most cards in their front row wins.",
    ),
    Idea(
        "turn",
        "Two actions a turn",
        "On your turn you take up to two actions with your face-up back-row cards; with two players you "
        "draw a card before and after your turn.",
    ),
    Idea("enhance", "Hearts enhance", "A Heart joins one of your back-row cards and adds its power to it."),
    Idea(
        "attack",
        "Clubs and Spades attack",
        "A Club or a Spade attacks an opponent's front-row card and destroys it if its power is equal or "
        "greater.",
    ),
    Idea(
        "retire",
        "Winners retire to your front row",
        "A card that wins an attack or a steal goes face down into your front row, where it is a point.",
    ),
    Idea(
        "steal",
        "Spades steal",
        "A Spade can instead take a card from an opponent's back row if its power is equal or greater.",
    ),
    Idea(
        "shield",
        "Diamonds shield",
        "A Diamond joins one of your front-row cards: its power helps against attacks and it counts as a "
        "card at the end.",
    ),
    Idea("draw", "Drawing", "An action can also draw a card from the deck into your back row."),
)

STEPS = (
    Step(
        say=(
            "Hide two cards face down: they start your front row, and whoever ends with the most front-row "
            "cards wins. Hidden cards can no longer act, so hide your two weakest and keep the rest face up "
            "to use: choose 2♠ on the left › 2♠ left + 3♠ right, face down."
        ),
        rule=(
            "All players place any two cards from their hand face down [FD] in front of themselves to "
            "create their Front Row."
        ),
        move=r"choose:a=2S:b=3S",
        ideas=("pair", "win"),
        why=(
            "Hiding your two weakest cards keeps the strong ones face up in your back row, where they can "
            "act; the hidden ones only count as points."
        ),
    ),
    Step(
        say=(
            "Your turn: up to two actions, each using one of your face-up back-row cards. First make your "
            "8♣ stronger: choose 6♥ › Enhance › 8♣, and the Heart adds its 6 to the Club's 8: power 14."
        ),
        rule="Heart: Enhance Back Row card (stays face up, adds to the power of the card it’s placed on).",
        move=r"enhance:c=\w+H:t=\w+C",
        ideas=("turn", "enhance"),
        why=(
            "A Heart on your Club makes it stronger before it attacks: above 13 it beats any single card, "
            "even a hidden King."
        ),
    ),
    Step(
        say=(
            "Now attack: choose 8♣+6♥ (14) › Attack › your opponent's front card 1. You can't see that "
            "card, but no single card is above 13 (a King), so 14 wins. A card that wins retires face "
            "down to your front row: one more point for you."
        ),
        rule="Club: Attack Front Row card (destroys opponent’s card if attacker has equal or greater power).",
        move=r"attack:c=\w+C:p=1:t=\d+",
        ideas=("attack", "retire"),
        why=(
            "An attack destroys the card if your power is equal or greater, and your winning card then "
            "retires face down to your front row as a point."
        ),
    ),
    Step(
        say=(
            "A Spade can attack too, or steal from your opponent's back row, which you can see. Choose "
            "J♠ › Steal › 10♦: your J♠ (11) is equal or greater, so the 10♦ becomes yours and the J♠ "
            "retires to your front row."
        ),
        rule=(
            "Spade: Attack Front Row card (destroys opponent’s card if attacker has equal or greater power) "
            "OR steals Back Row card (steals opponent's card if equal or greater power)"
        ),
        move=SURE_STEAL,
        ideas=("steal",),
        why=(
            "A steal works on equal or greater power, and their back row is face up, so you know beforehand: "
            "the card you take joins your back row, and your Spade retires to your front row as a point."
        ),
    ),
    Step(
        say=(
            "Use the Diamond you just took: choose 10♦ › Shield › front card 1. It goes face down onto "
            "your hidden 2♠, so an attack now needs power 12 to destroy them, and at the end the pair counts "
            "as two cards."
        ),
        rule="Diamond: Shield Front Row card (turns face down, adds to the power of the card it’s placed on).",  # noqa: E501
        move=r"shield:c=\w+D:t=\d+",
        ideas=("shield",),
        why=(
            "A Diamond on a front-row card adds its power against attacks, and the pair counts as two cards "
            "at the end."
        ),
    ),
    Step(
        say=(
            "Your opponent stole your 10♣, and your back row has no Club or Spade left to attack or steal "
            "with. An action can also draw a card from the deck: choose Draw a card. (Besides, with two "
            "players you draw a card before and after each of your turns.)"
        ),
        rule="A player can also use an action to draw a card from the deck to place in their Back Row.",
        move=r"draw",
        ideas=("draw",),
        why="With nothing to attack or steal with, an action can draw a card to find one.",
    ),
)

PAGE = Page(
    summary=(
        "Omphala is a duel of hidden cards played with one standard deck (A = 1 … K = 13). Everyone hides "
        "two cards face down as their front row, their points, and lays the other five face up as their "
        "back row, their tools. Back-row cards act by suit: Clubs attack, Spades attack or steal, Diamonds "
        "shield and Hearts enhance; a card that wins an attack or a steal retires face down to its owner's "
        "front row."
    ),
    turn=(
        "With two players, draw a card (not on the game's very first turn).",
        "Take up to two actions: use a back-row card by its suit, or draw a card.",
        "An attack or a steal works if your power is equal or greater; the winner retires to your front row.",
        "Draw a card to end your turn (two with three or more players).",
    ),
    win=(
        "The game ends when nobody can move any more. The most front-row cards wins (a shielded or enhanced "
        "card counts as two); a tie goes to the higher total power."
    ),
    parts=(
        (
            "Piles",
            "at the top left, the deck face down (the number: cards left) and the discard pile face up",
        ),
        (
            "Last",
            "at the top right, the last action, ✓ if it worked and ✗ if it held; the card it hit is outlined",
        ),
        ("★ cards", "beside each name, the score, the cards in that player's front row (a pair counts two)"),
        (
            "Front row",
            "under each name, the points: a blue back is a card hidden since the start, and a card that "
            "retired there after winning shows its face, since everyone saw it",
        ),
        (
            "Power badge",
            "the yellow number on a paired card, its power with the Heart or Diamond shown under it",
        ),
        ("Back row", "below the front row, the face-up cards that act, by their suit"),
        ("Gold frame", "around the player whose move it is, with ▸ before the name"),
        ("Log", "at the bottom, the latest moves"),
    ),
    sample=9,
)

TUTORIAL = Tutorial(
    game_id="omphala",
    seed=2306,
    ideas=IDEAS,
    steps=STEPS,
    page=PAGE,
    welcome=(
        "Omphala is a duel of hidden cards: you hide two cards as your front row, then use your face-up "
        "back row to attack, steal, shield and enhance. Whoever ends with the most front-row cards wins."
    ),
)
