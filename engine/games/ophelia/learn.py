"""Ophelia's tutorial (engine/table/lesson.py): the learner plays the Crown deck against the easy AI's Crown
deck, goes first, and in round 1 holds the middle slot with Alexander the Great and Joyeuse, answers the
AI's Boudica with a Turning Point, wins the Contest on Initiative, moves El Cid to face a relic and wins the
round when two turns pass with no card played."""

from __future__ import annotations

from engine.games.ophelia.cards import BASE
from engine.table.lesson import Idea, Page, Step, Tutorial


def _any(kind: str) -> str:
    """A regular expression matching the id of any of the game's own cards of this type."""
    return "(?:" + "|".join(sorted(c.id for c in BASE.values() if c.type == kind)) + ")"


CHARACTER, RELIC, TURNING_POINT = _any("character"), _any("relic"), _any("turning_point")

TUTORIAL = Tutorial(
    game_id="ophelia",
    seed=29,
    options={"seat_choices": [{"deck": "crown"}, {"deck": "crown"}]},
    welcome=(
        "Ophelia is a duel of historical characters on two facing rows of five slots: win rounds by holding "
        "the middle slot with the most Power, and be the first to 5 points. You play the Crown deck against "
        "an easy opponent, and you go first."
    ),
    ideas=(
        Idea(
            "slots",
            "Slots",
            "The board is two facing rows of five slots, one row each; you play and move cards only into "
            "open slots of your own row.",
        ),
        Idea(
            "round",
            "Winning a round",
            "A round is won by the most Power on a character in the middle slot (slot 3), or if that ties, "
            "by the most Power on your whole side.",
        ),
        Idea(
            "relic",
            "Relics",
            "A relic is played like a character but never fights: it helps your characters (one that "
            "attaches gives its bearer Power or Initiative), and it can be damaged.",
        ),
        Idea(
            "turn",
            "Your turn",
            "In your Action Phase you play cards, move characters and use abilities in any order, then end "
            "it; your opponent may answer with Turning Points, and the Contest Phase follows.",
        ),
        Idea(
            "turning_point",
            "Turning Points",
            "A one-use card played for its effect, in your Action Phase or in your opponent's Turning Point "
            "Phase, just before their Contest.",
        ),
        Idea(
            "contest",
            "The Contest",
            "Cards in facing slots contest: in every Contest Phase each contesting character deals its Power "
            "as damage to the card it faces, and a card whose damage reaches its Life is defeated.",
        ),
        Idea(
            "initiative",
            "Initiative",
            "In the Contest the higher Initiative strikes first, so a character can defeat its rival before "
            "the rival strikes back.",
        ),
        Idea(
            "move",
            "Moving",
            "Once a turn, a character that was not played this turn and is not contested may move to an "
            "adjacent open slot of your row.",
        ),
        Idea(
            "points",
            "Points",
            "A round ends after two turns in a row with no card played; its winner scores 1, 2, 3, 2 or 1 "
            "points (by round), and 5 points win the game.",
        ),
    ),
    steps=(
        Step(
            say=(
                "Your row is the bottom row of five slots; slot 3 is the middle slot. Choose Play a "
                "character › Alexander the Great › into slot 3 (middle): when the round ends, the most Power "
                "on a character in the middle slot wins it."
            ),
            rule="The player who has the most Power on a character in the middle slot",
            move=rf"play:c={CHARACTER}:s=3",
            ideas=("slots", "round"),
            why="The middle slot decides the round: a strong character there is the first thing to aim for.",
        ),
        Step(
            say=(
                "Joyeuse is a relic that attaches to a character. Choose Play a relic › Joyeuse, Sword of "
                "Charlemagne › attach to your character in the middle: it gets +2 Power and +1 Initiative. A "
                "relic never fights itself; it makes your characters stronger."
            ),
            rule=(
                "Relics are played just like characters, except they don't have an Attack or Initiative stat "
                "- as they don't fight in the contest phase."
            ),
            move=rf"play:c={RELIC}:.*",
            ideas=("relic",),
            why="A relic helps your characters without fighting: Joyeuse would have made yours stronger and "
            "quicker.",
        ),
        Step(
            say=(
                "You may do as much as you like in your Action Phase, but keep your other cards for later: "
                "choose End the Action Phase. Your opponent then gets a chance to play Turning Points, and "
                "the Contest Phase follows; no enemy faces your cards yet, so nobody fights."
            ),
            rule="You may take any number of the following actions, in any order you like.",
            move=r"end",
            ideas=("turn",),
            why="Ending the Action Phase keeps your other cards in hand for the turns to come.",
        ),
        Step(
            say=(
                "Your opponent has ended their Action Phase, and an enemy now faces your character in the "
                "middle. Before their Contest Phase you may answer with a Turning Point: choose Play a "
                "Turning Point › The Coronation of Charlemagne (800) to give your character +2 Power for the "
                "round."
            ),
            rule="You'll have a chance to play these on your opponent's turn too!",
            move=rf"play:c={TURNING_POINT}",
            ideas=("turning_point",),
            why=(
                "A Turning Point played in your opponent's turn, just before their Contest, can decide a "
                "fight they thought they would win."
            ),
        ),
        Step(
            say=(
                "Now choose Pass and keep Crossing the Rubicon. The Contest Phase follows: facing characters "
                "strike in order of Initiative, highest first, so your Alexander (Initiative 5) deals his "
                "Power before the character facing him can strike back."
            ),
            rule=(
                "All characters contesting slots deal damage to their opposing character, in order of "
                "highest to lowest Initiative."
            ),
            move=r"pass",
            ideas=("contest", "initiative"),
            why="Passing lets the Contest begin, where the higher Initiative strikes first and a character "
            "defeated before its turn deals no damage.",
        ),
        Step(
            say=(
                "Your turn again: add a second character beside the middle. Choose Play a character › El Cid "
                "› into slot 2: if the middle slots tie when the round ends, the most Power on your whole "
                "side wins it."
            ),
            rule="The player who has the most combined power on their side of the board",
            move=rf"play:c={CHARACTER}:s=2",
            why="More characters on your side win the round when the middle slots tie.",
        ),
        Step(
            say=(
                "Choose End the Action Phase. This time your opponent gets the Turning Point Phase, as you "
                "did in their turn, before your Contest Phase."
            ),
            rule=(
                "During this phase, your opponent has an opportunity to play Turning Point cards before you "
                "proceed to your Contest Phase."
            ),
            move=r"end",
            why="Ending the Action Phase gives your opponent a chance to answer; then the Contest follows.",
        ),
        Step(
            say=(
                "El Cid was not played this turn and faces nothing, so he may move one slot. Choose Move › "
                "El Cid › to slot 1 (outer): there he faces your opponent's relic and contests it, and a "
                "relic deals no damage back."
            ),
            rule=(
                "Characters that were not played this turn, and are not contested can be moved to an "
                "adjacent slot once each per turn."
            ),
            move=r"move:u=\d+:s=1",
            ideas=("move",),
            why="Moving a character in front of an enemy card starts a contest without playing a card.",
        ),
        Step(
            say=(
                "Now choose End the Action Phase without playing a card. If your opponent plays none in "
                "their turn either (their hand is empty), the round ends: the most Power on a character in "
                "the middle slot wins it and its point. Rounds are worth 1, 2, 3, 2 and 1 points."
            ),
            rule="After awarding points, if a player has 5 or more points, they have won the game!",
            move=r"end",
            ideas=("points",),
            why="When no card is played in two turns in a row the round ends: the middle slot decides who "
            "scores its points.",
        ),
    ),
    page=Page(
        summary=(
            "Ophelia is a duel of historical characters. Each player plays characters and relics into their "
            "own row of five slots; cards in facing slots contest and deal their Power as damage. A round is "
            "won by the most Power in the middle slot, and rounds are worth 1-2-3-2-1 points: 5 points win."
        ),
        turn=(
            "Action Phase: in any order, play cards (free), move a character one slot, use Action abilities, "
            "retire or discard; then end it.",
            "Turning Point Phase: your opponent may play Turning Points.",
            "Contest Phase: facing characters deal their Power to the card they face, highest Initiative "
            "first.",
            "End Phase: “until the end of turn” effects end; the next player's turn begins.",
            "Two turns in a row with no card played end the round.",
        ),
        win=(
            "A round goes to the most Power on a character in the middle slot, else the most Power on your "
            "side, else the player who went second; it scores 1, 2, 3, 2 or 1 points by round, and the first "
            "to 5 points wins the game."
        ),
        parts=(
            ("Round track", "top left: the five rounds and their points (1 2 3 2 1), this round lit"),
            ("Phases", "top right: Action › Turning Point › Contest › End, the phase now lit"),
            (
                "Player panels",
                "your opponent's above the field, yours below: hand, ★ points of 5, deck, forgotten zone and "
                "the Power on that side",
            ),
            ("The field", "your opponent's row on top, yours at the bottom; facing cards contest (red)"),
            ("Slots", "numbered between the rows, 1 outer to 5 outer; 3 middle, lit, decides the round"),
            (
                "A character",
                "El Cid and Alexander the Great: Power, Initiative and Life; ▲ marks a stat raised",
            ),
            (
                "An attached relic",
                "Joyeuse, under Alexander the Great: its bearer gets +2 Power and +1 Initiative",
            ),
            ("Log", "at the bottom: what has just happened"),
        ),
        sample=14,
    ),
)
