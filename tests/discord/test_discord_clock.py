"""Clocks counted in days (issue 33, part 5), as BGA's turn-based mode: the host chooses the table's clock in
the lobby (`per move`, the server's turn timeout, or `bank`: 3 days each, a day back after each hand-over,
at most 3 days); the board shows each person's bank and when the one to act runs out; the time the game
waits on someone drains their bank; an empty bank meets the server's timeout policy; banks are counted from
the stored log, so a restart resumes them exactly. Played with the toy game (tests/toygame.py), every window
passed at once (each person's window setting), so the turns simply alternate.
"""

from __future__ import annotations

from pathlib import Path

from bot.discord.settings import bank_words
from bot.sessions.clock import ADD, BANK, DAY, RESERVE, Banks, Span, banks, banks_now, spans
from bot.sessions.types import ALL
from bot.store import LogRow, Seat
from tests.discord_harness import HAND, Harness
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser
from tests.toygame import HighCard

HOUR = 3600.0
CLOCK = "Clock: per move unless the host chooses a bank"


def test_bank_arithmetic() -> None:
    """A span drains every seat it waited on (never below zero); a hand-over gives ADD back (never above
    the reserve); a move that keeps the wait on its seat gives nothing; an undone move's time is its
    position's; the open position drains only those it waits on."""
    assert banks(2, [Span(0, 2.5 * DAY, (0,), handed=0)]) == [1.5 * DAY, RESERVE]
    assert banks(2, [Span(0, 5 * DAY, (0,), handed=0)]) == [ADD, RESERVE]  # emptied, then a day back
    assert banks(2, [Span(0, HOUR, (0,), handed=0)]) == [RESERVE, RESERVE]  # capped at the reserve
    assert banks(2, [Span(0, DAY, (0, 1))]) == [2 * DAY, 2 * DAY]  # a simultaneous choice drains both
    assert banks(2, [], reserve=10.0, add=1.0) == [10.0, 10.0]

    def row(seq: int, seat: int, at: float, waited: tuple[int, ...]) -> LogRow:
        return LogRow(seq, seat, None, "k", at, waited=waited)

    # Seat 0 moves twice in one turn (one hand-over, at its second move), then seat 1 answers after a day.
    log = [row(1, 0, 2 * DAY, (0,)), row(2, 0, 2 * DAY + 60, (0,)), row(3, 1, 3 * DAY + 60, (1,))]
    closed = spans(0.0, log, waiting=(0,))
    assert [s.handed for s in closed] == [None, 0, 1]
    assert banks(2, closed) == [2 * DAY - 60, RESERVE]  # 3 d - 2 d - 1 min + 1 d; 3 d - 1 d + 1 d
    people = (Seat(1), Seat(None, "normal"))  # seat 1 is an AI: never waited on
    clocks = banks_now(0.0, log, people, to_act=(0,))
    assert clocks == Banks(3 * DAY + 60, (2 * DAY - 60, RESERVE), (0,))
    assert clocks.runs_out() == 5 * DAY and clocks.first() == 0
    assert clocks.at(4 * DAY + 60) == (DAY - 60, RESERVE) and clocks.out_of_time(5 * DAY) == (0,)
    assert banks_now(0.0, log, people, to_act=(1,)).runs_out() is None  # it waits on the AI only
    undone = banks_now(0.0, log[:1], people, to_act=(0,))  # the second move taken back
    assert undone.since == 2 * DAY and undone.left[0] == DAY  # no hand-over yet: nothing came back
    assert [bank_words(x) for x in (2 * DAY + 4 * HOUR, 3 * DAY, 5 * HOUR + 59 * 60, 40 * 60 + 59)] == [
        "2 d 4 h",
        "3 d",
        "5 h",
        "40 min",
    ]


async def _bank_game(h: Harness, alice: FakeUser, bob: FakeUser, toy: HighCard) -> tuple[FakeChannel, int]:
    """A toy game at a bank table, started by alice with bob, every window passed at once for both."""
    await h.windows(ALL, alice, bob)
    thread, lobby, mid = await h.open_lobby(alice, toy.id)
    lobby = await h.press(bob, lobby, "Join")
    lobby = await (await h.fake.select(alice, lobby, [BANK], placeholder=CLOCK)).wait_reply()
    await h.press(alice, h.fake.message(lobby.id), "Start")
    await h.settle()
    return thread, mid


async def _draw(h: Harness, user: FakeUser, thread: FakeChannel) -> None:
    hand = await h.press(user, h.board(thread), HAND)
    assert "✅ You played **Draw a card**" in (await h.press(user, hand, "Draw a card")).text()
    await h.settle()


async def test_the_host_chooses_a_bank_and_the_board_shows_each_bank_as_it_drains(
    toy: HighCard, fake: FakeDiscord, tmp_path: Path
) -> None:
    """Only the host may change the clock; the lobby says which. The board shows both banks and when the
    one to act runs out; waiting drains a bank, and handing the move on gives a day back, at most 3."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        await h.windows(ALL, alice, bob)
        thread, lobby, mid = await h.open_lobby(alice, toy.id)
        lobby = await h.press(bob, lobby, "Join")
        assert "**Clock:** per move: no time limit on this server —" in lobby.text()
        refused = await (await fake.select(bob, lobby, [BANK], placeholder=CLOCK)).wait_reply()
        assert refused.ephemeral and "Only the host" in refused.text()
        lobby = await (
            await fake.select(alice, fake.message(lobby.id), [BANK], placeholder=CLOCK)
        ).wait_reply()
        assert "**Clock:** bank: 3 days each;" in lobby.text()
        await h.press(alice, fake.message(lobby.id), "Start")
        await h.settle()
        start = h.clock[0]
        info = await h.sessions.get(mid)
        assert info.options["clock"] == BANK and info.banks is not None
        board = h.board(thread).text()
        assert "⏳ Banks: alice 3 d · bob 3 d" in board
        assert f"⏳ alice's bank runs out <t:{int(start + 3 * DAY)}:R>" in board
        assert info.deadline == start + 12 * HOUR  # the server's first reminder comes before

        h.clock[0] += 2.5 * DAY
        await _draw(h, alice, thread)  # 3 d - 2.5 d + 1 d
        now = h.clock[0]
        board = h.board(thread).text()
        assert "⏳ Banks: alice 1 d 12 h · bob 3 d" in board
        assert f"⏳ bob's bank runs out <t:{int(now + 3 * DAY)}:R>" in board
        assert (await h.sessions.get(mid)).users_to_act == (bob.id,)

        h.clock[0] += DAY
        await _draw(h, bob, thread)  # 3 d - 1 d + 1 d: capped at 3 d
        assert "⏳ Banks: alice 1 d 12 h · bob 3 d" in h.board(thread).text()
        info = await h.sessions.get(mid)
        assert info.banks is not None and info.banks.runs_out() == h.clock[0] + 1.5 * DAY


async def test_an_empty_bank_skips_the_turn_and_a_restart_resumes_the_banks_exactly(
    toy: HighCard, fake: FakeDiscord, tmp_path: Path
) -> None:
    """Under the skip policy, the person whose bank runs out has the turn skipped (not a moment before) and
    a day back; after a restart the banks and the deadline are the same, and the next one fires on time."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    admin = fake.add_user("admin", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        await h.config(admin, timeout_policy="skip")
        thread, mid = await _bank_game(h, alice, bob, toy)
        start = h.clock[0]
        h.clock[0] = start + 3 * DAY - 1
        await h.bot.timers.tick()  # a reminder; not yet out
        assert (await h.sessions.get(mid)).users_to_act == (alice.id,)
        reminders = [m for m in fake.public(thread) if "reminder" in m.text()]
        assert reminders and f"Time runs out <t:{int(start + 3 * DAY)}:R>" in reminders[-1].text()
        h.clock[0] = start + 3 * DAY
        assert await h.bot.timers.tick() == 1
        await h.settle()
        info = await h.sessions.get(mid)
        assert info.users_to_act == (bob.id,) and [r.key for r in await h.store.load_log(mid)] == ["pass"]
        said = [m.text() for m in fake.public(thread) if "ran out of time" in m.text()]
        assert said == ["⏰ alice ran out of time: the turn was skipped (alice stays at 0)."]
        assert info.banks is not None and info.banks.left == (ADD, RESERVE)  # emptied, then a day back

        h.clock[0] += 10 * HOUR
        await h.restart()
        after = await h.sessions.get(mid)
        assert (after.banks, after.deadline) == (info.banks, info.deadline)
        assert "⏳ Banks: alice 1 d · bob 3 d" in h.board(thread).text()
        out = info.updated_at + 3 * DAY  # bob's bank runs out 3 days after alice's skip
        h.clock[0] = out - 1
        await h.bot.timers.tick()
        assert (await h.sessions.get(mid)).users_to_act == (bob.id,)
        h.clock[0] = out
        assert await h.bot.timers.tick() == 1
        await h.settle()
        assert [r.key for r in await h.store.load_log(mid)] == ["pass", "pass"]
        assert (await h.sessions.get(mid)).over  # both stayed: the game ends


async def test_an_empty_bank_forfeits_under_the_forfeit_policy(
    toy: HighCard, fake: FakeDiscord, tmp_path: Path
) -> None:
    """Under the forfeit policy, the person whose bank runs out loses the game there."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    admin = fake.add_user("admin", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        await h.config(admin, timeout_policy="forfeit", reminder_minutes=0)
        thread, mid = await _bank_game(h, alice, bob, toy)
        h.clock[0] += DAY
        await _draw(h, alice, thread)  # alice keeps 3 d; bob's runs out 3 days from now
        info = await h.sessions.get(mid)
        assert info.deadline == h.clock[0] + 3 * DAY  # no reminders: the deadline is the bank's end
        h.clock[0] = info.deadline
        assert await h.bot.timers.tick() == 1
        await h.settle()
        over = await h.sessions.get(mid)
        assert over.over and over.returns == (1.0, 0.0)
        assert any("bob forfeited (out of time); alice wins." in m.text() for m in fake.public(thread))
