"""Games that hold across days (issue 11, items 2-4 and what async players expect): skipped turns that pass,
lobby buttons after Start, an AI that stands in and gives the seat back, reminders, idle lobbies, /play seats.
Time moves with the timers' tick(now); everything goes through the fake Discord."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.sessions import SessionError
from tests.discord.test_discord_games import assert_nothing_private_public
from tests.discord_harness import Harness
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.models import DM

MIN = 60.0
HOUR = 3600.0


async def _bob_sleeps(
    h: Harness, admin: FakeUser, alice: FakeUser, bob: FakeUser, policy: str
) -> tuple[FakeChannel, int, int]:
    """An Omphala game with a 60-minute timeout under `policy`: alice plays, then bob sleeps past it; the
    thread, the match id and how many timers fired."""
    await h.config(admin, reminder_minutes=0, timeout_minutes=60, timeout_policy=policy)
    thread, mid = await h.started_game(alice, bob)
    await h.play_move(alice, thread)
    await h.settle()
    fired = await h.bot.timers.tick(h.clock[0] + 61 * MIN)
    await h.settle()
    return thread, mid, fired


def _dms(fake: FakeDiscord, user: FakeUser) -> list[FakeMessage]:
    return [
        m
        for c in fake.channels.values()
        if c.type == DM and c.recipient is user
        for m in fake.messages.get(c.id, [])
    ]


async def test_skip_policy_passes_the_turn_in_the_games_words(fake: FakeDiscord, tmp_path: Path) -> None:
    """Item 2: in Ophion, skipping plays the game's pass (not the first move, a conversion), so the turn
    really moves on, and the channel says what was played."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    admin = fake.add_user("admin", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        await h.config(admin, reminder_minutes=0, timeout_minutes=60, timeout_policy="skip")
        thread, mid = await h.started_game(alice, bob, "ophion")
        assert (await h.sessions.get(mid)).users_to_act == (alice.id,)
        assert await h.bot.timers.tick(h.clock[0] + 61 * MIN) == 1
        await h.settle()
        info = await h.sessions.get(mid)
        assert info.users_to_act == (bob.id,), "the sleeper's turn passed"
        assert [r.key for r in await h.store.load_log(mid)] == ["pass"]
        said = [m.text() for m in fake.public(thread) if "ran out of time" in m.text()]
        passed = "alice passes first and will act last next round"
        assert said == [f"⏰ alice ran out of time: the turn was skipped ({passed})."]


async def test_skipped_secret_choice_stays_secret(fake: FakeDiscord, tmp_path: Path) -> None:
    """Item 2: a skipped simultaneous choice (Omphala's face-down cards) is made for the sleeper by the game's
    default, and the channel says so without naming the cards."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    admin = fake.add_user("admin", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        thread, mid, fired = await _bob_sleeps(h, admin, alice, bob, "skip")
        assert fired == 1
        info = await h.sessions.get(mid)
        assert info.state_id == 2 and len(info.users_to_act) == 1
        said = [m.text() for m in fake.public(thread) if "ran out of time" in m.text()]
        assert said == ["⏰ bob ran out of time: the turn was skipped (bob has placed two cards face down)."]
        assert_nothing_private_public(fake)


async def test_lobby_buttons_after_start_refuse_and_never_seat_an_ai(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Item 3: a Leave pressed on the lobby message after Start answers ephemerally, points to /game
    abandon, leaves the seat alone and takes the buttons away; /game abandon on a lobby closes it too."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        _thread, lobby, mid = await h.open_lobby(alice)
        lobby = await h.press(bob, lobby, "Join")
        old = lobby.snapshot()  # the lobby as a slow client still shows it
        await h.press(alice, fake.message(lobby.id), "Start")
        await h.settle()
        late = await (await fake.click(bob, old, "Leave")).wait_reply()
        assert late.ephemeral and late.visible_to == bob.id and "/game abandon" in late.text()
        info = await h.sessions.get(mid)
        assert not any(s.is_ai for s in info.seats) and info.seat_of(bob.id) == 1
        assert not fake.message(lobby.id).buttons and "started" in fake.message(lobby.id).text()
        for label in ("Join", "Add AI", "Cancel"):
            answer = await (await fake.click(alice, old, label)).wait_reply()
            assert answer.ephemeral and "/game abandon" in answer.text()
        for late_call in (h.sessions.leave(mid, bob.id, lobby_only=True), h.sessions.cancel(mid, alice.id)):
            with pytest.raises(SessionError):  # a press racing Start: refused under the match's lock
                await late_call
        assert (await h.sessions.get(mid)).status == "active" and not (await h.sessions.get(mid)).seats[
            1
        ].is_ai

        here = fake.add_channel("tables")
        await (await fake.slash(alice, here, "play", {"game": "omphala"})).wait_reply()
        await fake.wait_until(lambda: len(fake.threads(here)) == 1)
        second = fake.threads(here)[0]
        await fake.wait_until(lambda: fake.message_count(second.id) > 0)
        message = fake.latest(second)
        assert message.buttons
        gone = await (await fake.slash(alice, second, "game abandon")).wait_reply()
        assert "abandoned" in gone.text()
        await fake.wait_until(
            lambda: not fake.message(message.id).buttons, what="the lobby loses its buttons"
        )
        await fake.wait_until(lambda: second.archived, what="the closed lobby's thread archived")


async def test_ai_stands_in_records_the_loss_and_shows_its_name(fake: FakeDiscord, tmp_path: Path) -> None:
    """Item 4: "an AI takes the seat" shows "AI for bob" (not "Bot 1") and bob's /stats shows the game."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    admin = fake.add_user("admin", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        thread, mid, fired = await _bob_sleeps(h, admin, alice, bob, "ai")
        assert fired == 1
        notice = next(m for m in fake.public(thread) if "ran out of time" in m.text())
        assert "AI for bob" in notice.content and [b["label"] for b in notice.buttons] == [
            "Take my seat back"
        ]
        assert "AI for bob" in h.board(thread).text() and "Bot 1" not in h.board(thread).text()
        info = await h.play_until_over(mid, thread, {alice.id: alice})
        assert info.status == "finished"
        stats = await (await fake.slash(bob, thread, "stats")).wait_reply()
        assert "1 game played" in stats.text() and "0 won" in stats.text()


async def test_the_sleeper_takes_the_seat_back(fake: FakeDiscord, tmp_path: Path) -> None:
    """Item 4: only bob may press "Take my seat back"; then he plays his own seat again."""
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    admin = fake.add_user("admin", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        thread, mid, _fired = await _bob_sleeps(h, admin, alice, bob, "ai")
        notice = next(m for m in fake.public(thread) if "ran out of time" in m.text())
        for stranger in (carol, alice):
            no = await h.press(stranger, notice, "Take my seat back")
            assert no.ephemeral and "Only the player whose seat" in no.text()
        await h.restart()  # a persistent button
        back = await h.press(bob, notice, "Take my seat back")
        assert back.ephemeral and "again" in back.text()
        await h.settle()
        info = await h.sessions.get(mid)
        assert info.seat_of(bob.id) == 1 and not info.seats[1].is_ai
        assert any("bob is back" in m.text() for m in fake.public(thread))
        again = await h.press(bob, notice, "Take my seat back")
        assert "already" in again.text()
        info = await h.play_until_over(mid, thread, {alice.id: alice, bob.id: bob})
        stats = await (await fake.slash(bob, thread, "stats")).wait_reply()
        won = info.returns is not None and info.returns[1] > 0
        assert "1 game played" in stats.content and ("1 won" in stats.content) == won


async def test_reminders_repeat_up_to_a_number_with_a_deadline_and_dms(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Reminders every interval, at most the number set; the board shows the deadline as <t:…:R>; a player
    who chose /notify on gets them by direct message too."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    admin = fake.add_user("admin", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        shown = await h.config(admin, reminder_minutes=10, reminder_count=2, timeout_minutes=120)
        assert "at most 2" in shown.text()
        on = await (await fake.slash(bob, fake.channel, "notify", {"dms": "on"})).wait_reply()
        assert on.ephemeral and "direct message" in on.text()
        thread, _mid = await h.started_game(alice, bob)
        await h.play_move(alice, thread)
        await h.settle()
        start = h.clock[0]
        board = h.board(thread)
        assert f"<t:{int(start + 120 * MIN)}:R>" in board.text()
        for minutes, handled in ((11, 1), (21, 1), (31, 0), (45, 0)):
            assert await h.bot.timers.tick(start + minutes * MIN) == handled, minutes
        reminders = [m for m in fake.public(thread) if "reminder" in m.text()]
        assert len(reminders) == 2 and all(m.mention_ids == [bob.id] for m in reminders)
        assert len(_dms(fake, bob)) == 2 and "Omphala game" in _dms(fake, bob)[0].content
        assert not _dms(fake, alice)


async def test_no_reminder_in_quiet_hours(fake: FakeDiscord, tmp_path: Path) -> None:
    """Quiet hours in the server's timezone: a reminder due then waits until they end."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    admin = fake.add_user("admin", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        bad = await h.config(admin, quiet_hours="at night")
        assert bad.ephemeral and "22-7" in bad.text()
        # the harness clock starts at 13:46:40 UTC, 14:46:40 at UTC+1: quiet until 15:00 there (14:00 UTC)
        shown = await h.config(admin, reminder_minutes=10, quiet_hours="14-15", timezone="UTC+1")
        assert "14:00–15:00 (UTC+1)" in shown.text()
        thread, _mid = await h.started_game(alice, bob)
        await h.play_move(alice, thread)
        await h.settle()
        start = h.clock[0]
        assert await h.bot.timers.tick(start + 11 * MIN) == 0
        assert not [m for m in fake.public(thread) if "reminder" in m.text()]
        assert await h.bot.timers.tick(start + 14 * MIN) == 1
        assert len([m for m in fake.public(thread) if "reminder" in m.content]) == 1


async def test_an_idle_lobby_expires(fake: FakeDiscord, tmp_path: Path) -> None:
    """A lobby nobody starts closes after the server's lobby lifetime (24 h by default): its message says
    so and loses its buttons, and the channel is free again."""
    alice = fake.add_user("alice")
    async with Harness.started(fake, tmp_path) as h:
        thread, lobby, mid = await h.open_lobby(alice)
        old = lobby.snapshot()
        assert await h.bot.timers.tick(h.clock[0] + 23 * HOUR) == 0
        assert await h.bot.timers.tick(h.clock[0] + 25 * HOUR) == 1
        closed = fake.message(lobby.id)
        assert not closed.buttons and "expired" in closed.text()
        assert (await h.sessions.get(mid)).status == "abandoned"
        assert await h.sessions.match_for_channel(thread.id) is None
        late = await h.press(alice, old, "Join")
        assert late.ephemeral and "closed" in late.text()


async def test_play_with_a_number_of_seats(fake: FakeDiscord, tmp_path: Path) -> None:
    """/play seats:3 shows a table of 3 in the lobby, refuses a fourth and a start with two."""
    alice, bob, carol, dave = (fake.add_user(n) for n in ("alice", "bob", "carol", "dave"))
    async with Harness.started(fake, tmp_path) as h:
        wrong = await (
            await fake.slash(alice, fake.channel, "play", {"game": "omphala", "seats": 9})
        ).wait_reply()
        assert wrong.ephemeral and "2 to 6 players" in wrong.text() and not fake.threads(fake.channel)
        await (await fake.slash(alice, fake.channel, "play", {"game": "omphala", "seats": 3})).wait_reply()
        await fake.wait_until(
            lambda: fake.threads(fake.channel) and fake.message_count(fake.threads()[-1].id)
        )
        lobby = fake.latest(fake.threads(fake.channel)[-1])
        assert "a table of 3 players" in lobby.text() and "Seats (1/3)" in lobby.text()
        lobby = await h.press(bob, lobby, "Join")
        early = await h.press(alice, lobby, "Start")
        assert early.ephemeral and "set for 3 players" in early.text()
        lobby = await h.press(carol, fake.message(lobby.id), "Join")
        full = await h.press(dave, lobby, "Join")
        assert full.ephemeral and "full (3 players)" in full.text()
        started = await h.press(alice, fake.message(lobby.id), "Start")
        assert "started" in started.text()
