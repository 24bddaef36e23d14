"""Omphala's tutorial (engine/table/lesson.py): a placeholder of two steps, to be written in full."""

from __future__ import annotations

from engine.table.lesson import Idea, Page, Step, Tutorial

TUTORIAL = Tutorial(
    game_id="omphala",
    seed=11,
    ideas=(
        Idea("pair", "The face-down pair", "two cards you hide as your front row"),
        Idea("attack", "Attacks", "a Club in your back row attacks an opponent's front card"),
    ),
    steps=(
        Step(
            say="Choose two cards to hide face down: they are your front row.",
            rule=(
                "All players place any two cards from their hand face down [FD] in front of themselves to "
                "create their Front Row."
            ),
            move=r"choose:.*",
            ideas=("pair",),
        ),
        Step(
            say="Attack with a Club.",
            rule="Club: Attack Front Row card (destroys opponent’s card if attacker has equal or greater power).",  # noqa: E501
            move=r"attack:.*",
            ideas=("attack",),
        ),
    ),
    page=Page(
        summary="Omphala is a duel of hidden cards.",
        turn=("Take up to 2 actions.", "Draw."),
        win="Most front-row cards wins.",
        parts=(("Front row", "your face-down cards"),),
    ),
)
