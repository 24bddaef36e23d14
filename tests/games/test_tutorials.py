"""Every game's tutorial (issue 38; engine/table/lesson.py): its ideas are all taught by its script, its
steps quote the rule text, and it plays to the end through the session manager, followed step by step and
with another move at every guided step (each explained, the game going on), never rated."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.sessions import SessionManager
from bot.store import FINISHED, SqliteStore
from engine.registry import games
from engine.table import lesson
from engine.table.present import rule_text
from tests.lesson_helpers import LEARNER, play_tutorial

TAUGHT = sorted(gid for gid, game in games().items() if lesson.of(game) is not None)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    async with SqliteStore(str(tmp_path / "learn.db")) as s:
        yield s


@pytest.fixture
async def sessions(store: SqliteStore) -> AsyncIterator[SessionManager]:
    m = SessionManager(store)
    yield m
    await m.close()


def _tutorial(game_id: str) -> lesson.Tutorial:
    found = lesson.of(games()[game_id])
    assert found is not None
    return found


@pytest.mark.parametrize("game_id", TAUGHT)
def test_every_step_quotes_the_rules_and_every_idea_is_taught(game_id: str) -> None:
    """ "The tutorial introduces every idea on its list"; "quoting the rule it teaches": each step's rule is
    a sentence of the game's rule text, each idea is some step's, each step's ideas are on the list."""
    tutorial = _tutorial(game_id)
    text = rule_text(games()[game_id])
    assert tutorial.game_id == game_id and tutorial.steps and tutorial.ideas
    for i, step in enumerate(tutorial.steps):
        assert lesson.in_rules(step.rule, text), f"step {i + 1}'s rule is not in {game_id}'s RULES.txt"
        assert step.say.strip() and len(step.say) <= 600, f"step {i + 1} says too much or nothing"
    ids = [idea.id for idea in tutorial.ideas]
    assert len(set(ids)) == len(ids)
    taught = {i for step in tutorial.steps for i in step.ideas}
    assert taught <= set(ids), f"steps name ideas not on the list: {taught - set(ids)}"
    assert set(ids) <= taught, f"ideas no step teaches: {set(ids) - taught}"
    page = tutorial.page
    assert page.summary and page.turn and page.win and page.parts


@pytest.mark.parametrize("game_id", TAUGHT)
async def test_the_script_plays_every_step_in_order(
    sessions: SessionManager, store: SqliteStore, game_id: str
):
    """Followed as written on its fixed deal (the easy AI answering), the script meets every step in order,
    each at a decision where its move is open, and the game then plays on, unrated."""
    tutorial = _tutorial(game_id)
    run = await play_tutorial(sessions, game_id)
    steps = [o.step for o in run.final.outcomes]
    assert steps == list(range(len(tutorial.steps))), f"steps met: {steps}, missed: {run.final.missed}"
    assert all(o.followed for o in run.final.outcomes)
    assert run.final.done and {i.id for i in run.final.met} == {i.id for i in tutorial.ideas}
    assert run.info.status == FINISHED
    assert (await store.user_stats(LEARNER)).played == 0, "a practice game counted in stats"
    assert all(f and f[0].startswith("✓") for f in run.feedback)


@pytest.mark.parametrize("game_id", TAUGHT)
async def test_a_wrong_move_at_every_step_is_explained_and_the_game_goes_on(
    sessions: SessionManager, game_id: str
):
    """ "A wrong move is allowed and explained, never blocked": another move at every guided step is played,
    the guide says what was played, what it suggested and why, and the game goes on to its end."""
    run = await play_tutorial(sessions, game_id, wrong=True)
    assert run.info.status == FINISHED
    assert run.guides, "no guided step came up"
    assert len(run.feedback) == len(run.guides)
    for said in run.feedback:
        assert said, "a guided move got no word from the guide"
        assert said[0].startswith(("↪", "✓"))
    assert any(not o.followed for o in run.final.outcomes)
