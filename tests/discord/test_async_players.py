"""The async players' driver (issue 22): two people play whole games through the menus of the fake Discord;
the counters agree, and the card games meet the issue's targets under each window setting."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.sessions.types import ALL, ASK, AUTO, BY_SETTING, WINDOW_SETTINGS
from tests.async_players import play_game
from tests.discord_harness import Harness, assert_v2_board, is_board
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
    """Through the fake Discord at async pace (issue 33): the reply to every move is written once the steps
    after it have settled (never "next: the other" while the bot then waits on the mover); every window
    that waits on someone who was not there pings them, and only windows that waited post a message;
    nothing is played for anyone as a lone move that an opponent could not know was lone; nobody is pinged
    more than once a wait (a turn, a window, the turn again after a window); *ask me* waits in windows and
    passes none by the setting, *pass every window* waits in none; the game ends."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        record = await play_game(h, "ophelia", [alice, bob], windows=windows, mode="easy", seed=2)
    assert record.over and not record.stopped
    assert record.wrong_word == record.unpinged_windows == record.hidden_forced == 0
    assert record.window_posts <= record.windows_waited
    assert all(record.pings[u] <= record.waits[u] for u in record.pings)  # at most one ping a wait
    if windows == ASK:
        assert record.windows_waited and record.window_posts and not record.played_for.get(BY_SETTING)
    if windows == ALL:
        assert not record.windows_waited and record.played_for.get(BY_SETTING)


async def test_a_live_table_posts_no_window(fake: FakeDiscord, tmp_path: Path) -> None:
    """At live pace (a window passes by itself soon) a window edits the board and posts nothing."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        record = await play_game(h, "ophelia", [alice, bob], windows=ASK, mode="easy", seed=2, pace="live")
    assert record.over and record.windows_waited and record.window_posts == 0 and record.wrong_word == 0


async def test_a_whole_ophidian_game_fits_async_play(fake: FakeDiscord, tmp_path: Path) -> None:
    """Ophidian with the default setting at live pace, the game that was noisiest (244 public messages and
    123 pings a person per game by bench/async.py before issue 22): about one message per hand-over of The
    Flow, about 30 pings a person at most (the bench prints the means), none beyond their turns with a real
    choice; the reply to every move names the right person; no lone move whose forcedness an opponent could
    not know is played for anyone (issue 33: the holder of The Flow who can only pass)."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        record = await play_game(h, "ophidian", [alice, bob], windows=AUTO, mode="easy", seed=2, pace="live")
    boards = [m for m in fake.public_messages() if is_board(m)]  # issue 37: each a V2 board with alt text
    assert boards and all(assert_v2_board(m, "Ophidian 2350") is None for m in boards)
    assert record.over and record.wrong_word == record.hidden_forced == record.window_posts == 0
    assert record.messages <= 80 and max(record.pings.values()) <= 32
    assert all(record.pings[u] <= record.real_turns[u] for u in record.pings)


async def test_siege_replies_name_the_right_person(fake: FakeDiscord, tmp_path: Path) -> None:
    """Siege of Olympus, where most moves open a window the opponent cannot answer (before issue 33, one
    reply in seven said "not your turn — waiting for bob" while the move was the mover's again): the first
    60 moves at async pace, each reply written once the window has passed."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        record = await play_game(
            h, "siege_of_olympus", [alice, bob], windows=AUTO, mode="easy", seed=1, max_moves=60
        )
    assert record.moves == 60 and record.played_for.get(BY_SETTING)
    assert record.wrong_word == record.unpinged_windows == record.hidden_forced == 0
