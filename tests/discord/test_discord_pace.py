"""Games that play well across days (issue 22): the table's pace chosen in the lobby (a `live` window passes
by itself; an `async` one waits like a turn, is reminded and survives a restart), each person's window setting
(/notify windows:, per server, changeable mid-game), and one board message per turn with pings only for a
real choice. Played with the toy game (tests/toygame.py), whose Jeer window always offers Jeer and Pass.
"""

from __future__ import annotations

from pathlib import Path

from bot.sessions.types import ALL, ASK
from tests.discord_harness import HAND, WHAT, Harness, is_board
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser
from tests.toygame import HighCard

MIN, HOUR = 60.0, 3600.0
PACE = "Pace: the server's default (host: choose live or async)"


async def _lobby(
    h: Harness, alice: FakeUser, bob: FakeUser, game: str
) -> tuple[FakeChannel, FakeMessage, int]:
    thread, lobby, mid = await h.open_lobby(alice, game)
    lobby = await h.press(bob, lobby, "Join")
    return thread, lobby, mid


async def _start(h: Harness, alice: FakeUser, lobby: FakeMessage) -> None:
    await h.press(alice, h.fake.message(lobby.id), "Start")
    await h.settle()


async def _draw(h: Harness, user: FakeUser, thread: FakeChannel) -> None:
    hand = await h.press(user, h.board(thread), HAND)
    played = await h.press(user, hand, "Draw a card")
    assert "✅ You played **Draw a card**" in played.text()
    await h.settle()


def _boards(h: Harness, thread: FakeChannel) -> list[FakeMessage]:
    return [m for m in h.fake.public(thread) if is_board(m)]


async def test_the_host_chooses_the_pace_and_an_async_window_waits_like_a_turn(
    toy: HighCard, fake: FakeDiscord, tmp_path: Path
) -> None:
    """The lobby shows the pace and only the host may change it; in an async game the window does not pass
    by itself: the reminder comes at the server's interval, and a restart keeps it waiting."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    admin = fake.add_user("admin", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        await h.config(admin, reminder_minutes=30)
        thread, lobby, mid = await _lobby(h, alice, bob, toy.id)
        assert (
            "**Pace:** live pace: response windows pass by themselves (the server's default)" in lobby.text()
        )
        assert "/notify windows:" in lobby.text()
        refused = await (await fake.select(bob, lobby, ["async"], placeholder=PACE)).wait_reply()
        assert refused.ephemeral and "Only the host" in refused.text()
        lobby = await (
            await fake.select(alice, fake.message(lobby.id), ["async"], placeholder=PACE)
        ).wait_reply()
        assert "**Pace:** async pace: response windows wait like a turn —" in lobby.text()
        await _start(h, alice, lobby)
        assert (await h.sessions.get(mid)).options.get("pace") == "async"
        assert "async pace" in h.board(thread).text_displays()[-1]

        await _draw(h, alice, thread)
        info = await h.sessions.get(mid)
        assert info.window and info.users_to_act == (bob.id,)
        assert info.deadline == info.updated_at + 30 * MIN  # the reminder, not the 60-s wait of a live window
        assert "passes by itself" not in h.board(thread).text()
        assert await h.bot.timers.tick(info.updated_at + 2 * MIN) == 0

        await h.restart()
        assert await h.bot.timers.tick(info.updated_at + 31 * MIN) == 1
        reminders = [m for m in fake.public(thread) if "reminder" in m.text()]
        assert len(reminders) == 1 and reminders[0].pinged(bob)
        after = await h.sessions.get(mid)
        assert after.state_id == info.state_id and after.window  # still waiting for bob's answer
        hand = await h.press(bob, h.board(thread), HAND)
        assert [b["label"] for b in hand.buttons] == [
            "Jeer",
            "Pass",
            WHAT,
        ]  # the old board's button still works
        assert "Your response windows: pass for me when I can't respond" in hand.text()


async def test_a_server_with_a_long_timeout_plays_async_by_default(
    toy: HighCard, fake: FakeDiscord, tmp_path: Path
) -> None:
    """A turn timeout of an hour or more makes `async` the default pace of a new table."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    admin = fake.add_user("admin", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        await h.config(admin, timeout_minutes=24 * 60)
        _, lobby, _ = await _lobby(h, alice, bob, toy.id)
        assert (
            "**Pace:** async pace: response windows wait like a turn (the server's default)" in lobby.text()
        )


async def test_notify_windows_is_per_server_and_passes_a_waiting_window_at_once(
    toy: HighCard, fake: FakeDiscord, tmp_path: Path
) -> None:
    """/notify windows: shows and keeps a person's choice on this server; changed mid-game to *pass every
    window*, the window that waits on them passes at once and the board says why."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        shown = await (await fake.slash(bob, fake.channel, "notify", {})).wait_reply()
        assert shown.ephemeral and "Response windows: **pass for me when I can't respond**" in shown.text()
        assert "opponents may infer" in shown.text()
        thread, lobby, mid = await _lobby(h, alice, bob, toy.id)
        await _start(h, alice, lobby)
        await _draw(h, alice, thread)
        info = await h.sessions.get(mid)
        assert info.window and info.users_to_act == (bob.id,)  # Jeer or Pass: a real choice, it waits

        chosen = await (await fake.slash(bob, fake.channel, "notify", {"windows": ALL})).wait_reply()
        assert "Response windows: **pass every window**" in chosen.text()
        await h.settle()
        after = await h.sessions.get(mid)
        assert not after.window and after.state_id == info.state_id + 1
        assert (await h.store.load_log(mid))[-1].key == "pass"
        assert "bob's window setting let the window pass." in h.board(thread).text()
        assert await h.bot.services.prefs.windows(fake.guild.id, bob.id) == ALL
        assert await h.bot.services.prefs.windows(fake.guild.id + 1, bob.id) != ALL  # another server: default

        await h.restart()
        assert await h.bot.services.prefs.windows(fake.guild.id, bob.id) == ALL  # kept in the store


async def test_one_message_per_turn_and_a_ping_only_for_a_real_choice(
    toy: HighCard, fake: FakeDiscord, tmp_path: Path
) -> None:
    """Each turn posts one board, which pings the person whose turn it is unless they moved in the last
    minutes (they are there); a window between turns edits that board and pings nobody."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        await h.windows(ASK, alice, bob)
        thread, lobby, _ = await _lobby(h, alice, bob, toy.id)
        await _start(h, alice, lobby)
        first = _boards(h, thread)
        assert len(first) == 1 and first[0].pinged(alice)
        await _draw(h, alice, thread)  # bob's window: the same message, edited, naming him
        assert len(_boards(h, thread)) == 1 and not h.board(thread).pinged(bob)
        answer = await h.press(bob, h.board(thread), HAND)
        await h.press(bob, answer, "Pass")
        await h.settle()
        boards = _boards(h, thread)
        assert len(boards) == 2 and not boards[-1].pinged(bob)  # his turn, but he just moved: no ping

        await h.windows(ALL, alice, bob)  # from now on windows pass at once for both
        h.clock[0] += 10 * MIN  # alice has not moved for a while
        await _draw(h, bob, thread)
        boards = _boards(h, thread)
        assert len(boards) == 3 and boards[-1].pinged(alice) and not boards[-1].pinged(bob)
        assert "alice's window setting let the window pass." in boards[-1].text()


async def test_the_old_buttons_of_an_edited_board_keep_working(
    toy: HighCard, fake: FakeDiscord, tmp_path: Path
) -> None:
    """A board edited by a window (a newer state in its buttons) still answers a press on the buttons of
    its older version, as a slow client still shows them: the hand and the current moves, never a wrong
    move; Log and Rules too."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, lobby, mid = await _lobby(h, alice, bob, toy.id)
        await _start(h, alice, lobby)
        before = h.board(thread).snapshot()  # alice's turn, as first posted
        await _draw(h, alice, thread)  # bob's window edits the same message
        assert h.board(thread).id == before.id and h.board(thread).edit_count
        hand = await h.press(bob, before, HAND)
        assert hand.ephemeral and [b["label"] for b in hand.buttons] == [
            "Jeer",
            "Pass",
            WHAT,
        ]
        log = await h.press(alice, before, "Log")
        assert log.ephemeral and "drew" in log.text()
        rules = await h.press(bob, before, "Rules")
        assert rules.ephemeral and rules.text()
        assert (await h.sessions.get(mid)).window  # nothing was played by the old buttons


async def test_a_game_without_windows_shows_no_pace(fake: FakeDiscord, tmp_path: Path) -> None:
    """Omphala has no response windows: its lobby offers no pace and its board says none."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, lobby, _ = await _lobby(h, alice, bob, "omphala")
        assert "Pace" not in lobby.text() and PACE not in [s.get("placeholder") for s in lobby.selects]
        await _start(h, alice, lobby)
        assert "pace" not in h.board(thread).text_displays()[-1]
