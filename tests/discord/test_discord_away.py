"""Time away (issue 33, part 4): `/away until date: [note:]` and `/away back`. While away, a person's games of
the server neither remind them nor time them out, each running game's board shows one line about it (edited
in, nobody pinged), /games and the lobby show it; it ends at its date, with /away back, or with any press
of a game's button; /config away_days sets the yearly allowance (0: off). Played with the toy game
(tests/toygame.py); time moves with the bot's clock (h.clock) and the timers' tick."""

from __future__ import annotations

from pathlib import Path

from tests.discord.test_discord_pace import _boards
from tests.discord.test_discord_windows import _draw
from tests.discord_harness import HAND, Harness
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser
from tests.toygame import HighCard

MIN, HOUR, DAY = 60.0, 3600.0, 86400.0
AWAY = "is away until"


async def _away(fake: FakeDiscord, user: FakeUser, date: str, note: str | None = None) -> FakeMessage:
    options = {"date": date} | ({"note": note} if note is not None else {})
    return await (await fake.slash(user, fake.channel, "away until", options)).wait_reply()


async def _back(fake: FakeDiscord, user: FakeUser) -> FakeMessage:
    return await (await fake.slash(user, fake.channel, "away back", {})).wait_reply()


async def _tick(h: Harness, now: float) -> int:
    """Move the bot's clock to `now` and run one timer check; how many matches it handled."""
    h.clock[0] = now
    handled = await h.bot.timers.tick(now)
    await h.settle()
    return handled


def _reminders(h: Harness, thread: FakeChannel) -> list[FakeMessage]:
    return [m for m in h.fake.public(thread) if "reminder" in m.text()]


async def test_going_away_refuses_bad_dates_and_more_than_the_allowance(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Each refusal says why and what is left; a stay costs the days it lasted."""
    alice = fake.add_user("alice")
    async with Harness.started(fake, tmp_path) as h:  # the clock: 1970-01-12 13:46 UTC
        said = await _away(fake, alice, "next week")
        assert said.ephemeral and "I don't understand `next week`" in said.text() and "`3d`" in said.text()
        assert "That moment has passed" in (await _away(fake, alice, "1970-01-05")).text()
        assert "at most 60 days at once; that is 63 days" in (await _away(fake, alice, "9w")).text()
        said = await _away(fake, alice, "30d")
        assert "you have 21 of your 21 away days left this year" in said.text()
        assert "plain text" in (await _away(fake, alice, "3d", "back \u202esoon")).text()
        assert await h.bot.services.away.stay(fake.guild.id, alice.id) is None  # nothing was refused half-way

        said = await _away(fake, alice, "1970-01-14", "at sea")  # until the end of the 14th: 3 days begun
        until = 1_000_000 // DAY * DAY + 3 * DAY
        assert f"until <t:{int(until)}:f>" in said.text() and "“at sea”" in said.text()
        assert "18 of 21 away days left this year" in said.text()
        h.clock[0] += 2 * DAY + 2 * HOUR
        assert "Welcome back" in (back := await _back(fake, alice)).text()
        assert "18 of 21 away days left this year" in back.text()  # three days begun
        assert "not away" in (await _back(fake, alice)).text()
        said = await _away(fake, alice, "19d")
        assert "That is 19 days away, but you have 18 of your 21 away days left this year" in said.text()


async def test_away_stops_the_clock_across_a_restart_and_ends_at_its_date(
    toy: HighCard, fake: FakeDiscord, tmp_path: Path
) -> None:
    """bob goes away: the line is edited into the board (no new message); the turn that then passes to him
    waits with no reminder and no timeout, far past the timeout and across a restart; at the date the line
    goes and his clock counts from there."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    admin = fake.add_user("admin", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        await h.config(admin, reminder_minutes=60, timeout_minutes=24 * 60, timeout_policy="skip")
        thread, mid = await h.started_game(alice, bob, toy.id)
        posted = [m.id for m in _boards(h, thread)]
        await _away(fake, bob, "5d", "Beach *week*")
        await h.settle()
        until = h.clock[0] + 5 * DAY
        assert [m.id for m in _boards(h, thread)] == posted  # edited in: no new message
        line = f"🏖️ bob {AWAY} <t:{int(until)}:f> — Beach \\*week\\* · 16 of 21 away days left this year"
        assert h.board(thread).text().count(AWAY) == 1 and line in h.board(thread).text()

        await _draw(h, alice, thread)  # the Jeer window (an async table's) waits on bob like a turn
        start = await h.sessions.get(mid)
        assert start.window and start.users_to_act == (bob.id,)
        assert start.deadline == until  # nothing before he is back
        assert f"Time runs out <t:{int(until + DAY)}:R>" in h.board(thread).text()
        assert await _tick(h, start.updated_at + 3 * DAY) == 0  # far past the timeout: nothing due

        await h.restart()
        assert (await h.sessions.get(mid)).deadline == until  # resumed from the store
        await h.sessions.set_deadline(mid, start.updated_at + HOUR)  # a deadline found due while he is away
        assert await _tick(h, until - MIN) == 1
        assert (await h.sessions.get(mid)).deadline == until  # moved to his return; nothing fired
        assert AWAY in h.board(thread).text()
        assert not _reminders(h, thread) and (await h.sessions.get(mid)).state_id == start.state_id

        assert await _tick(h, until) == 1  # back: the line goes, the clock counts from here
        assert AWAY not in h.board(thread).text()
        assert not _reminders(h, thread)
        assert await _tick(h, until + 61 * MIN) == 1
        assert len(reminders := _reminders(h, thread)) == 1 and reminders[0].pinged(bob)
        await _tick(h, until + 23 * HOUR)
        assert (await h.sessions.get(mid)).state_id == start.state_id
        await _tick(h, until + DAY)  # the timeout, a day after his return: a window's timeout is a pass
        assert (await h.store.load_log(mid))[-1].key == "pass"
        assert any("⏳ bob let the Jeer window pass." in m.text() for m in _boards(h, thread))


async def test_the_line_shows_once_on_each_game_and_a_press_ends_it(
    toy: HighCard, fake: FakeDiscord, tmp_path: Path
) -> None:
    """Two games: one line on each board; bob's /games shows it, alice's says she is away; the lobby too.
    Her press of a button of one game ends it everywhere and her clock counts from then."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    admin = fake.add_user("admin", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        await h.config(admin, reminder_minutes=60)
        first, one = await h.started_game(alice, bob, toy.id)
        second, _ = await h.started_game(alice, bob, toy.id)
        _, lobby, _ = await h.open_lobby(bob, toy.id)
        await h.press(alice, lobby, "Join")
        await _away(fake, alice, "1w")
        await h.settle()
        for thread in (first, second):
            assert h.board(thread).text().count(AWAY) == 1
            assert "14 of 21 away days left this year" in h.board(thread).text()
        assert f"{alice.mention} — 🏖️ away until <t:" in fake.message(lobby.id).text()
        listed = await (await fake.slash(bob, fake.channel, "games", {})).wait_reply()
        assert listed.text().count(f"🏖️ {alice.mention} away until <t:") == 2
        mine = await (await fake.slash(alice, fake.channel, "games", {})).wait_reply()
        assert "🏖️ You are away until <t:" in mine.text()

        h.clock[0] += DAY
        hand = await h.press(alice, h.board(first), HAND)
        assert hand.ephemeral and "Draw a card" in [b["label"] for b in hand.buttons]
        await h.settle()
        settings = await h.bot.services.settings.of(fake.guild.id)
        assert await h.bot.services.away.running(fake.guild.id, alice.id, settings) is None
        for thread in (first, second):
            assert AWAY not in h.board(thread).text()
        assert "away until" not in fake.message(lobby.id).text()
        assert (await h.sessions.get(one)).deadline == h.clock[0] + HOUR  # her clock counts from the press
        assert "20 of 21 away days left" in (await _back(fake, alice)).text()  # a day begun


async def test_away_days_zero_turns_it_off(toy: HighCard, fake: FakeDiscord, tmp_path: Path) -> None:
    """/config away_days:0 refuses /away, and a stay already running no longer stops the clock."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    admin = fake.add_user("admin", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        shown = await h.config(admin, reminder_minutes=60)
        assert "Time away (/away): 21 days a year per person" in shown.text()
        thread, mid = await h.started_game(alice, bob, toy.id)
        await _away(fake, alice, "3d")
        start = h.clock[0]
        assert await _tick(h, start + 2 * HOUR) == 0 and not _reminders(h, thread)
        shown = await h.config(admin, away_days=0)
        assert "Time away (/away): off" in shown.text()
        said = await _away(fake, bob, "3d")
        assert "Time away is off on this server" in said.text()
        assert await h.bot.services.away.stay(fake.guild.id, bob.id) is None
        await h.bot.timers.turn_changed(await h.sessions.get(mid))  # (a move would do the same)
        assert await _tick(h, start + 3 * HOUR) == 1
        assert len(_reminders(h, thread)) == 1
