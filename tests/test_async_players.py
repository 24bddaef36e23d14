"""The async players' driver (issue 22): two people play whole games through the menus of the fake Discord;
the counters agree, and the card games meet the issue's targets under each window setting."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.sessions.types import ALL, ASK, AUTO, BY_SETTING, WINDOW_SETTINGS
from tests.async_players import play_game
from tests.discord_harness import Harness
from tests.fakediscord import FakeDiscord


async def test_two_people_play_omphala_to_the_end(fake: FakeDiscord, tmp_path: Path) -> None:
    """The game ends by itself; messages, pings, turns and moves are counted and consistent."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        record = await play_game(h, "omphala", [alice, bob], windows="ask", mode="easy", seed=3)
        assert record.over and not record.stopped
        info = await h.sessions.get(record.match_id)
        assert await h.store.user_setting(alice.id, f"windows:{fake.guild.id}") == "ask"
    assert record.moves >= 1 and record.messages >= 2  # the lobby and at least one board
    assert set(record.pings) == set(record.real_turns) == {alice.id, bob.id}
    assert all(n >= 0 for n in record.pings.values()) and record.total_pings >= 1
    assert all(n >= 1 for n in record.real_turns.values())
    assert record.moves + sum(record.played_for.values()) == info.state_id  # every move was someone's
    assert record.windows_waited == record.window_posts == 0  # Omphala has no response windows
    assert record.edits >= 0 and record.seconds > 0


@pytest.mark.parametrize("windows", WINDOW_SETTINGS)
async def test_a_whole_ophelia_game_under_each_window_setting(
    fake: FakeDiscord, tmp_path: Path, windows: str
) -> None:
    """Through the fake Discord: no window posts a message of its own; nobody is pinged more often than they
    had a turn with a real choice; *ask me* waits in windows and passes none by the setting, *pass every
    window* waits in none; the game ends."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        record = await play_game(h, "ophelia", [alice, bob], windows=windows, mode="easy", seed=2)
    assert record.over and not record.stopped and record.window_posts == 0
    assert all(record.pings[u] <= record.real_turns[u] for u in record.pings)
    if windows == ASK:
        assert record.windows_waited and not record.played_for.get(BY_SETTING)
    if windows == ALL:
        assert not record.windows_waited and record.played_for.get(BY_SETTING)


async def test_a_whole_ophidian_game_fits_async_play(fake: FakeDiscord, tmp_path: Path) -> None:
    """Ophidian with the default setting, the game that was noisiest (244 public messages and 123 pings a
    person per game by bench/async.py before issue 22): one message per hand-over of The Flow (about 60; the
    bench prints the mean), about 30 pings a person at most (this seeded game has 31 since issue 23's rules;
    the bench's mean is lower), none beyond their turns with a real choice, and no window posting one."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        record = await play_game(h, "ophidian", [alice, bob], windows=AUTO, mode="easy", seed=2)
    assert record.over and record.window_posts == 0
    assert record.messages <= 80 and max(record.pings.values()) <= 32
    assert all(record.pings[u] <= record.real_turns[u] for u in record.pings)
