"""The guide of a tutorial (engine/table/lesson.py) on its own: marking the way in a nested menu, a guide
derived from a log (followed, another move, lone moves), its words, and a practice match's option."""

from __future__ import annotations

from dataclasses import replace

from engine.registry import get
from engine.table import lesson
from engine.table.lesson import LEARN, MARK, Step

GAME = get("omphala")


def _tutorial() -> lesson.Tutorial:
    found = lesson.of(GAME)
    assert found is not None
    return found


TUTORIAL = _tutorial()


def test_the_way_to_the_suggested_move_is_marked_at_every_level_it_shares() -> None:
    paths = [("K♣", "Attack", "front 1"), ("K♣", "Attack", "front 2"), ("K♣", "Enhance"), ("2♦", "Shield")]
    marked = lesson.marked(paths, 1)
    assert marked[1] == (MARK + "K♣", MARK + "Attack", MARK + "front 2")
    assert marked[0] == (MARK + "K♣", MARK + "Attack", "front 1")  # grouped with it as before
    assert marked[2] == (MARK + "K♣", "Enhance") and marked[3] == ("2♦", "Shield")


def test_a_new_practice_game_suggests_the_first_step_with_its_welcome_and_rule() -> None:
    guide = lesson.follow(GAME, TUTORIAL, [])
    assert guide.step == 0 and guide.suggested is not None and not guide.outcomes and not guide.done
    words = lesson.guide_lines(guide, bold="**")
    assert words[0] == TUTORIAL.welcome and words[1] == f"**📘 Lesson 1 of {len(TUTORIAL.steps)}**"
    assert words[-1] == f"Rule: {lesson.quoted(TUTORIAL.steps[0].rule)}"
    assert lesson.practice(TUTORIAL.match_options()) == "omphala" and lesson.practice({}) is None
    assert TUTORIAL.match_options()[LEARN] == "omphala"


def _after(keys_for_learner: list[str]) -> lesson.Guide:
    """The guide after the learner's opening moves (the AI choosing its first legal move meanwhile)."""
    state = GAME.setup(TUTORIAL.players, TUTORIAL.seed, TUTORIAL.match_options())
    log: list[tuple[int, str]] = []
    for key in keys_for_learner:
        while lesson.LEARNER not in GAME.to_act(state):
            seat = GAME.to_act(state)[0]
            move = GAME.legal_actions(state, seat)[0]
            GAME.apply(state, move)
            log.append((seat, move.key))
        move = next(a for a in GAME.legal_actions(state, lesson.LEARNER) if a.key == key)
        GAME.apply(state, move)
        log.append((lesson.LEARNER, key))
    return lesson.follow(GAME, TUTORIAL, log)


def test_another_move_is_answered_with_what_was_suggested_and_why() -> None:
    first = lesson.follow(GAME, TUTORIAL, [])
    assert first.suggested is not None
    other = next(
        a.key for a in GAME.legal_actions(GAME.setup(2, TUTORIAL.seed), 0) if a.key != first.suggested
    )
    guide = _after([other])
    assert guide.just is not None and not guide.just.followed and guide.just.step == 0
    said = lesson.feedback_lines(guide.just, TUTORIAL)
    assert said[0].startswith("↪ You played") and (TUTORIAL.steps[0].why or "") in said[1]
    followed = _after([first.suggested])
    assert followed.just is not None and followed.just.followed
    assert lesson.feedback_lines(followed.just, TUTORIAL) == ["✓ That's the move this lesson was about."]


def test_a_step_whose_move_is_not_open_is_missed_and_named_at_the_end() -> None:
    impossible = Step(say="Never.", rule=TUTORIAL.steps[0].rule, move="nothing:like:this", ideas=("win",))
    steps = (impossible, *(replace(s, ideas=tuple(i for i in s.ideas if i != "win")) for s in TUTORIAL.steps))
    tutorial = replace(TUTORIAL, steps=steps)
    guide = lesson.follow(GAME, tutorial, [])
    assert guide.step == 1 and guide.missed == (0,)
    assert "win" in {i.id for i in guide.unmet}
    assert any("Still to meet" in line for line in lesson.summary_lines(guide))
