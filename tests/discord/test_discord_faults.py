"""Discord misbehaving (issue 24): an archived thread, a refused or failed post never drops a game's
deadline, so reminders and the timeout still come. Faults are injected in the fake Discord (fake.fail)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import discord
import discord.webhook.async_
import pytest

from tests.discord.test_discord_restarts import boards, shows
from tests.discord_harness import HAND, NAV, Harness
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser

MIN = 60.0


async def _waiting_on_bob(h: Harness, fake: FakeDiscord, **config: int) -> tuple[FakeChannel, int, FakeUser]:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    admin = fake.add_user("admin", admin=True)
    await h.config(admin, **config)
    thread, mid = await h.started_game(alice, bob)
    await h.play_move(alice, thread)
    await h.settle()
    return thread, mid, bob


def _reminders(fake: FakeDiscord, thread: FakeChannel) -> list[str]:
    return [m.text() for m in fake.public(thread) if "reminder" in m.text()]


async def test_a_reminder_in_an_archived_thread_unarchives_it(fake: FakeDiscord, tmp_path: Path) -> None:
    """Discord archives a quiet thread (50083 on a post there): the reminder unarchives it and is posted,
    and the next reminder is still due."""
    async with Harness.started(fake, tmp_path) as h:
        thread, mid, _ = await _waiting_on_bob(h, fake, reminder_minutes=10, reminder_count=2)
        start = h.clock[0]
        await fake.archive(thread)
        assert await h.bot.timers.tick(start + 11 * MIN) == 1
        assert not thread.archived and len(_reminders(fake, thread)) == 1
        assert (await h.store.get_match(mid)).deadline is not None
        assert await h.bot.timers.tick(start + 21 * MIN) == 1
        assert len(_reminders(fake, thread)) == 2


async def test_a_refused_reminder_keeps_the_deadline(fake: FakeDiscord, tmp_path: Path) -> None:
    """A reminder Discord refuses (403, then 503) is logged; the game keeps its deadline, the next reminder
    comes and the turn still times out."""
    async with Harness.started(fake, tmp_path) as h:
        thread, mid, bob = await _waiting_on_bob(
            h, fake, reminder_minutes=10, reminder_count=3, timeout_minutes=60
        )
        start = h.clock[0]
        fake.fail("POST", f"/channels/{thread.id}/messages", 403, 50013)
        assert await h.bot.timers.tick(start + 11 * MIN) == 1
        assert not _reminders(fake, thread) and (await h.store.get_match(mid)).deadline is not None
        fake.fail("POST", f"/channels/{thread.id}/messages", 503)
        assert await h.bot.timers.tick(start + 21 * MIN) == 1
        assert (await h.store.get_match(mid)).deadline is not None
        assert await h.bot.timers.tick(start + 31 * MIN) == 1
        assert len(_reminders(fake, thread)) == 1
        assert await h.bot.timers.tick(start + 61 * MIN) == 1  # the timeout still comes (skip by default)
        await h.settle()
        info = await h.sessions.get(mid)
        assert bob.id not in info.users_to_act or info.state_id > 1


async def test_a_failed_timeout_post_keeps_the_next_turns_deadline(fake: FakeDiscord, tmp_path: Path) -> None:
    """The timeout skips the turn, then its message fails (503): the next turn keeps its deadline."""
    async with Harness.started(fake, tmp_path) as h:
        thread, mid, _ = await _waiting_on_bob(h, fake, timeout_minutes=60)
        start = h.clock[0]
        before = (await h.sessions.get(mid)).state_id
        fake.fail("POST", f"/channels/{thread.id}/messages", 503, times=1)
        assert await h.bot.timers.tick(start + 61 * MIN) == 1
        await h.settle()
        rec = await h.store.get_match(mid)
        assert rec.state_id > before and rec.deadline is not None  # (the harness clock stays at start)


async def _play_until(
    h: Harness, fake: FakeDiscord, thread: FakeChannel, people: list[FakeUser], hit: Any
) -> None:
    """Play moves (whoever the board waits for) until the injected fault has answered a request."""
    for _ in range(40):
        if hit.hits:
            return
        info = await h.sessions.get(int(h.board(thread).text().split("game #")[1].split()[0]))
        user = next(p for p in people if p.id in info.users_to_act)
        await h.play_move(user, thread)
        await h.settle()
    raise AssertionError("no new board was posted")


async def test_a_board_created_but_answered_500_appears_once(fake: FakeDiscord, tmp_path: Path) -> None:
    """Discord creates the board but answers 500; discord.py sends it again with the same nonce, which
    Discord enforces: one message, one ping."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await h.started_game(alice, bob)
        fault = fake.fail("POST", f"/channels/{thread.id}/messages", 500, done=True)
        await _play_until(h, fake, thread, [alice, bob], fault)
        state_id = (await h.sessions.get(mid)).state_id
        showing = [b for b in boards(fake, thread) if shows(b, state_id)]
        assert len(showing) == 1


async def test_a_board_answered_503_is_posted_again(fake: FakeDiscord, tmp_path: Path) -> None:
    """A 503 on a board post (which discord.py does not retry): the board is tried again shortly, with its
    ping, instead of waiting for the next move."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await h.started_game(alice, bob)
        fault = fake.fail("POST", f"/channels/{thread.id}/messages", 503)
        await _play_until(h, fake, thread, [alice, bob], fault)
        info = await h.sessions.get(mid)
        showing = [b for b in boards(fake, thread) if shows(b, info.state_id)]
        assert len(showing) == 1


class _Hurried:
    """asyncio for discord.py's webhook module, whose waits between retries of a 5xx take no time."""

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    @staticmethod
    async def sleep(delay: float, result: Any = None) -> Any:
        return await asyncio.sleep(0, result)


async def test_a_failed_menu_update_after_a_move_says_it_was_played(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The move is committed, then Discord answers 503 to the menu's update (five times: discord.py tries
    again on its own): the player reads that the move was played, never "please try again"."""
    monkeypatch.setattr(discord.webhook.async_, "asyncio", _Hurried())
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await h.started_game(alice, bob)
        user = alice if alice.id in (await h.sessions.get(mid)).users_to_act else bob
        hand = await h.press(user, h.board(thread), HAND)
        fault = fake.fail("PATCH", "/messages/@original", 503, times=5)
        for _ in range(10):
            option = next(b["label"] for b in hand.buttons if b["label"] not in NAV)
            ix = await fake.click(user, hand, option)
            await fake.wait_until(
                lambda ix=ix: fault.hits or (ix.original and ix.edit_count), what="an answer"
            )
            if fault.hits:
                said = await ix.wait_followup()
                assert "✅ You played" in said.text() and "try again" not in said.text()
                assert (await h.sessions.get(mid)).state_id == 1
                return
            hand = await ix.wait_reply()
        raise AssertionError("no move was played")


async def test_a_cancelled_lobby_closes_its_thread(fake: FakeDiscord, tmp_path: Path) -> None:
    """Cancel on a lobby: the buttons go and the table's thread is archived, as at the end of a game."""
    alice = fake.add_user("alice")
    async with Harness.started(fake, tmp_path) as h:
        thread, lobby, _mid = await h.open_lobby(alice)
        closed = await h.press(alice, lobby, "Cancel")
        assert not closed.buttons and "cancelled" in closed.text()
        await fake.wait_until(lambda: thread.archived, what="the cancelled lobby's thread archived")


async def test_a_slow_channel_never_delays_another(fake: FakeDiscord, tmp_path: Path) -> None:
    """Discord answers one thread's requests slowly (10 s): a game in another thread gets its board
    meanwhile."""
    alice, bob, carol, dave = (fake.add_user(n) for n in ("alice", "bob", "carol", "dave"))
    async with Harness.started(fake, tmp_path) as h:
        slow, slow_mid = await h.started_game(alice, bob)
        quick, quick_mid = await h.started_game(carol, dave)
        fake.fail("*", f"/channels/{slow.id}/", 0, times=1000, delay=10.0)
        for thread, mid, people in ((slow, slow_mid, (alice, bob)), (quick, quick_mid, (carol, dave))):
            info = await h.sessions.get(mid)
            await h.play_move(next(p for p in people if p.id in info.users_to_act), thread)
        moved = (await h.sessions.get(quick_mid)).state_id
        await fake.wait_until(lambda: shows(h.board(quick), moved), what="the quick game's board")
        assert not shows(h.board(slow), (await h.sessions.get(slow_mid)).state_id)  # still waiting
        for fault in fake.faults:
            fault.healed.set()  # Discord recovers: the slow thread's board follows
        slow_moved = (await h.sessions.get(slow_mid)).state_id
        await fake.wait_until(lambda: shows(h.board(slow), slow_moved), what="the slow game's board")


async def test_an_interaction_delivered_twice_is_played_once(fake: FakeDiscord, tmp_path: Path) -> None:
    """Discord delivers the press that completes a move a second time: the move is applied once."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await h.started_game(alice, bob)
        info = await h.sessions.get(mid)
        user = alice if alice.id in info.users_to_act else bob
        hand = await h.press(user, h.board(thread), HAND)
        for _ in range(10):
            option = next(b["label"] for b in hand.buttons if b["label"] not in NAV)
            ix = await fake.click(user, hand, option)
            hand = await ix.wait_reply()
            if "✅ You played" in hand.text():
                break
        played = (await h.sessions.get(mid)).state_id
        await fake.redeliver(ix)
        await h.settle()
        assert (await h.sessions.get(mid)).state_id == played
        assert len(await h.store.load_log(mid)) == played


async def test_a_rate_limited_board_appears_once(fake: FakeDiscord, tmp_path: Path) -> None:
    """A 429 with Retry-After on a board post: discord.py waits and posts it again; one board."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await h.started_game(alice, bob)
        fault = fake.fail("POST", f"/channels/{thread.id}/messages", 429)
        await _play_until(h, fake, thread, [alice, bob], fault)
        state_id = (await h.sessions.get(mid)).state_id
        assert len([b for b in boards(fake, thread) if shows(b, state_id)]) == 1


async def test_a_zombie_connection_resumes_and_loses_no_press(fake: FakeDiscord, tmp_path: Path) -> None:
    """The gateway goes silent (no heartbeat ACK, no events) while a player presses: the bot notices,
    reconnects and RESUMEs; the press replayed on RESUME is answered and the move played once."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await h.started_game(alice, bob)
        fake.gateway.heartbeat_interval_ms = 250  # the next connection beats often...
        h.bot._connection.heartbeat_timeout = 2.0  # ...and gives up on a silent gateway after 2 s
        session = fake.gateway.current
        assert session is not None
        await fake.drop_connection()
        await fake.wait_until(lambda: session.resumes == 1 and fake.gateway.connected, what="a RESUME")
        before = (await h.sessions.get(mid)).state_id
        user = alice if alice.id in (await h.sessions.get(mid)).users_to_act else bob
        fake.gateway.go_silent()
        await h.play_move(user, thread)  # its first press reaches the bot only after the RESUME
        assert session.resumes == 2
        await h.settle()
        assert (await h.sessions.get(mid)).state_id == before + 1
        assert len(await h.store.load_log(mid)) == before + 1


async def test_a_session_discord_ends_is_identified_anew_and_play_goes_on(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Discord ends the gateway session (RESUME refused): the bot IDENTIFYs anew, its caches refilled, and
    the game goes on from the board it left; nothing acknowledged is lost."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await h.started_game(alice, bob)
        before, identifies = (await h.sessions.get(mid)).state_id, fake.gateway.identifies
        await fake.gateway.invalidate()
        await fake.wait_until(
            lambda: fake.gateway.identifies == identifies + 1 and fake.gateway.connected and h.bot.is_ready(),
            timeout=15,
            what="a fresh IDENTIFY",
        )
        info = await h.sessions.get(mid)
        await h.play_move(alice if alice.id in info.users_to_act else bob, thread)
        await h.settle()
        now = (await h.sessions.get(mid)).state_id
        assert now > before and len(await h.store.load_log(mid)) == now and shows(h.board(thread), now)


async def test_a_table_of_ais_shows_its_moves_as_they_come(fake: FakeDiscord, tmp_path: Path) -> None:
    """While an AI answers a person, the board waits for the answer (one drawing for both); a table of AIs
    alone has nobody to wait for, so its board still shows the moves as they come, then the result."""
    host = fake.add_user("host")
    async with Harness.started(fake, tmp_path) as h:
        channel = await fake.create_channel("ai-table")
        s = h.sessions
        info = await s.create(channel.id, fake.guild.id, "omphala", host.id, seat_host=False)
        for _ in range(2):
            await s.add_ai(info.id, host.id, "random")
        await s.start(info.id, host.id)
        await h.settle()
        assert (await s.get(info.id)).over
        drawn = [m for m in fake.public(channel) if m.embeds] + [
            v for m in fake.public(channel) for v in m.history
        ]
        assert len(drawn) > 2  # boards along the way, not only the result
