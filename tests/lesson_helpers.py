"""Playing a game's tutorial through the session manager, as a learner would: the suggested moves, or
another move at every guided step (issue 38). Shared by the tutorial tests of every game and front end."""

from __future__ import annotations

from dataclasses import dataclass

from bot.sessions import MatchInfo, SessionManager
from engine.rng import Rng
from engine.table.lesson import Guide, Outcome, feedback_lines

LEARNER = 501  # the learner's user id
MOVES = 2000  # a bound on the learner's moves in one practice game
UNGUIDED = 30  # the learner's decisions in a row without a step after which no step is still to come


@dataclass(frozen=True)
class Run:
    """A tutorial played to its end: the guide at every guided decision, and how it ended."""

    guides: tuple[Guide, ...]  # the learner's guide at each decision that had a step
    final: Guide  # the guide after the last move (its outcomes: every guided step done)
    info: MatchInfo
    feedback: tuple[tuple[str, ...], ...]  # the guide's words after each guided move


def other_than(keys: list[str], suggested: str) -> str:
    """A move other than the suggested one when there is one (the last in menu order), else it."""
    others = [k for k in keys if k != suggested]
    return others[-1] if others else suggested


async def play_tutorial(
    sessions: SessionManager, game_id: str, *, wrong: bool = False, seed: int = 5, free: int = 10
) -> Run:
    """Play the game's tutorial for LEARNER: the suggested move at every guided step (or, with `wrong`,
    another one whenever there is one), then `free` random legal moves (seeded) once the lessons are over
    (or when no step has come for UNGUIDED decisions: a step missed after another move), and the learner
    forfeits (whole games to their end are the Discord test's: tests/discord/test_discord_learn.py)."""
    info = await sessions.learn(None, None, game_id, LEARNER, name="Ada", origin="console")
    mid, rng, unguided = info.id, Rng(seed), 0
    guides: list[Guide] = []
    feedback: list[tuple[str, ...]] = []
    final: Guide | None = None
    for _ in range(MOVES):
        await sessions.wait_idle(mid)
        seen = await sessions.snapshot(mid, LEARNER)
        if seen.lesson is not None:
            final = seen.lesson
        if seen.info.over:
            break
        unguided = 0 if seen.lesson is not None and seen.lesson.step is not None else unguided + 1
        if seen.lesson is not None and (seen.lesson.done or unguided > UNGUIDED):
            free -= 1
            if free < 0:
                await sessions.forfeit(mid, LEARNER, "the test stops here")
                continue
        assert seen.moves, f"{game_id}: the learner waits with no move and the AI does not move"
        guide = seen.lesson
        keys = [m.key for m in seen.moves]
        if guide is not None and guide.suggested is not None:
            guides.append(guide)
            key = other_than(keys, guide.suggested) if wrong else guide.suggested
        else:
            key = keys[rng.below(len(keys))]
        done = len(guide.outcomes) if guide is not None else 0
        await sessions.submit(mid, LEARNER, key, seen.info.state_id)
        if guide is not None and guide.suggested is not None:
            after = await sessions.snapshot(mid, LEARNER)
            assert after.lesson is not None
            just: Outcome | None = after.lesson.outcomes[done] if len(after.lesson.outcomes) > done else None
            feedback.append(tuple(feedback_lines(just, after.lesson.tutorial)))
    else:
        raise AssertionError(
            f"{game_id}: the practice game did not end within {MOVES} of the learner's moves"
        )
    assert final is not None
    return Run(tuple(guides), final, await sessions.get(mid), tuple(feedback))
