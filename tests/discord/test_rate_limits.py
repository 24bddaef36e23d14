"""Discord's rate limits (issue 34, point 7): the fake answers past them as Discord does
(tests/fakediscord/ratelimit.py), and the bot stays within them by itself (bot/discord/budget.py): its
requests share the global limit fairly between channels, reminders and direct messages yield to boards, and
a board Discord keeps answering 429 is neither lost nor posted twice."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace

import aiohttp
import pytest
from discord.http import Route

import bot.discord.budget as budget_module
from bot.discord.budget import FIRST, LAST, Budget
from tests.discord.test_discord_faults import _play_until, _waiting_on_bob
from tests.discord.test_discord_restarts import boards, shows
from tests.discord_harness import Harness
from tests.fakediscord import FakeDiscord

pytest_plugins = ("tests.fakediscord.fixtures",)

SLOW = 10.0  # windows ten times Discord's: the test's requests surely fall in one window, however slow


@pytest.fixture
async def real() -> AsyncIterator[FakeDiscord]:
    """A started fake Discord with Discord's own rate limits (windows of real length)."""
    server = FakeDiscord(rate_limits=1.0)
    await server.start()
    yield server
    await server.stop()


async def _send(
    session: aiohttp.ClientSession, fake: FakeDiscord, method: str, path: str
) -> aiohttp.ClientResponse:
    body = {"content": "hello"} if method == "POST" else None
    headers = {"Authorization": f"Bot {fake.token}"}
    async with session.request(method, f"{fake.url}/api/v10{path}", json=body, headers=headers) as r:
        await r.read()
        return r


async def test_a_sixth_message_in_five_seconds_is_answered_429_as_discord_does() -> None:
    """Five new messages in a channel pass with their bucket's headers counting down; the sixth is answered
    429 with Discord's body and headers; another channel has a bucket of its own."""
    fake = FakeDiscord(rate_limits=SLOW)
    other = fake.add_channel("other")
    await fake.start()
    try:
        async with aiohttp.ClientSession() as session:
            answers = [
                await _send(session, fake, "POST", f"/channels/{fake.channel.id}/messages") for _ in range(6)
            ]
            elsewhere = await _send(session, fake, "POST", f"/channels/{other.id}/messages")
    finally:
        await fake.stop()
    assert [a.status for a in answers] == [200] * 5 + [429]
    assert [a.headers["X-RateLimit-Remaining"] for a in answers[:5]] == ["4", "3", "2", "1", "0"]
    first = answers[0].headers
    assert first["X-RateLimit-Limit"] == "5" and 0 < float(first["X-RateLimit-Reset-After"]) <= 5 * SLOW
    assert float(first["X-RateLimit-Reset"]) > 1e9  # epoch seconds
    assert len({a.headers["X-RateLimit-Bucket"] for a in answers}) == 1
    refused = answers[5]
    assert refused.headers["X-RateLimit-Scope"] == "user" and "X-RateLimit-Global" not in refused.headers
    assert float(refused.headers["Retry-After"]) > 0 and refused.headers["Via"]  # Via: Discord's, not a ban
    assert elsewhere.status == 200 and elsewhere.headers["X-RateLimit-Remaining"] == "4"
    assert (
        len(fake.messages[fake.channel.id]) == 5
        and (429, 0, f"POST /api/v10/channels/{fake.channel.id}/messages") in fake.errors
    )


async def test_the_fifty_first_request_in_a_second_is_a_global_429() -> None:
    """Past 50 requests with the bot's token in a second (whatever their routes), Discord answers a global
    429: its own headers and body."""
    fake = FakeDiscord(rate_limits=SLOW)
    channels = [fake.add_channel(f"c{i}") for i in range(3)]
    await fake.start()
    try:
        async with aiohttp.ClientSession() as session:
            sent = [_send(session, fake, "GET", f"/channels/{channels[i % 3].id}") for i in range(50)]
            statuses = [a.status for a in await asyncio.gather(*sent)]
            headers = {"Authorization": f"Bot {fake.token}"}
            async with session.get(f"{fake.url}/api/v10/users/@me", headers=headers) as refused:
                body = await refused.json()
    finally:
        await fake.stop()
    assert statuses == [200] * 50 and refused.status == 429
    assert (
        refused.headers["X-RateLimit-Global"] == "true" and refused.headers["X-RateLimit-Scope"] == "global"
    )
    assert body == {
        "message": "You are being rate limited.",
        "retry_after": body["retry_after"],
        "global": True,
    }
    assert 0 < body["retry_after"] <= SLOW and refused.headers["Via"]


async def test_interaction_callbacks_pass_past_the_global_limit(tmp_path: Path) -> None:
    """Interaction callbacks and follow-ups are outside the global limit: with the bot's global budget
    spent, a command is still answered."""
    fake = FakeDiscord(rate_limits=SLOW)
    alice = fake.add_user("alice")
    await fake.start()
    try:
        async with Harness.started(fake, tmp_path) as h:
            async with aiohttp.ClientSession() as session:
                while not fake.rest.limits.limited["global"]:  # spend the rest of this second
                    await _send(session, fake, "GET", "/users/@me")
            ix = await fake.slash(alice, fake.channel, "rules", {"game": "omphala"})
            await ix.wait_reply()
            assert h.bot.is_ready()
    finally:
        await fake.stop()
    assert not [e for e in fake.errors if e[0] == 429 and "/api/v10/users/@me" not in e[2]], fake.errors


async def test_the_bot_never_meets_the_global_limit_and_a_quiet_channel_is_served_in_turn(
    real: FakeDiscord, tmp_path: Path
) -> None:
    """150 requests at once from the bot in five busy channels (3.5 s of Discord's global budget), and
    meanwhile one board in a quiet thread: the bot spaces its requests under 50 a second (no global 429),
    and the quiet thread's edit is sent in its turn, not after the busy channels' flood."""
    fake = real
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    busy = [fake.add_channel(f"busy{i}") for i in range(5)]
    async with Harness.started(fake, tmp_path) as h:
        quiet, mid = await h.started_game(alice, bob)
        await asyncio.sleep(1.0)  # the set-up's requests' global window ends
        start = len(fake.requests)
        flood = [
            h.bot.http.request(Route("GET", "/channels/{channel_id}", channel_id=busy[i % 5].id))
            for i in range(150)
        ]
        flooding = asyncio.gather(*flood)
        await asyncio.sleep(0.1)  # the flood is under way
        h.bot.boards.schedule(mid)  # the quiet thread's board is drawn again (an edit)
        await h.bot.boards.flush()
        await flooding
        sent = fake.requests[start:]
    assert fake.rest.limits.limited["global"] == 0, fake.rest.limits.limited
    edit = next(i for i, (method, path) in enumerate(sent) if method == "PATCH" and str(quiet.id) in path)
    assert edit < 60, f"the quiet thread's board went out after {edit} of the busy channels' 150 requests"


async def test_a_board_discord_answers_429_six_times_is_posted_once(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Discord answers a new board 429 six times, so discord.py (five tries) gives up: the board tries again
    with the same nonce; the board of every move is posted exactly once, none lost."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await h.started_game(alice, bob)
        fault = fake.fail("POST", f"/channels/{thread.id}/messages", 429, times=6)
        await _play_until(h, fake, thread, [alice, bob], fault)
        await fake.wait_until(lambda: fault.hits == 6, timeout=20, what="six 429s")
        info = await h.sessions.get(mid)
        await fake.wait_until(
            lambda: any(shows(b, info.state_id) for b in boards(fake, thread)), timeout=20, what="the board"
        )
        await h.settle()
        for state in {b.text().split("· move ")[1].split()[0] for b in boards(fake, thread)}:
            assert len([b for b in boards(fake, thread) if shows(b, int(state))]) == 1, state


async def test_requests_wait_in_turn_by_channel_and_reminders_after_boards() -> None:
    """The budget serves waiting requests one channel at a time in turn, and requests made under
    yielding() (reminders, direct messages) only when no other waits."""
    budget = Budget(rate=200.0, burst=1)
    order: list[str] = []

    async def take(lane: str, priority: int = FIRST) -> None:
        await budget.take(lane, priority)
        order.append(lane)

    tasks = [asyncio.create_task(take("busy")) for _ in range(20)]
    await asyncio.sleep(0)
    tasks += [asyncio.create_task(take("reminder", LAST)), asyncio.create_task(take("quiet"))]
    await asyncio.gather(*tasks)
    assert order.index("quiet") <= 2, order  # next in turn, not after the 20 busy ones
    assert order[-1] == "reminder", order


async def test_reminders_and_direct_messages_wait_behind_boards(fake: FakeDiscord, tmp_path: Path) -> None:
    """A reminder in the channel and by direct message asks Discord's global budget at the last priority;
    a board at the first."""
    asked: list[int] = []
    async with Harness.started(fake, tmp_path) as h:
        _, mid, bob = await _waiting_on_bob(h, fake, reminder_minutes=10)
        await (await fake.slash(bob, fake.channel, "notify", {"dms": "on"})).wait_reply()
        budget, take = h.bot.budget, h.bot.budget.take

        async def recording(lane: str, priority: int | None = None) -> None:
            asked.append(budget_module._priority.get())
            await take(lane, priority)

        budget.take = recording  # type: ignore[method-assign]
        assert await h.bot.timers.tick(h.clock[0] + 11 * 60) == 1
        reminded = len(asked)
        h.bot.boards.schedule(mid)
        await h.settle()
    assert fake.pings(bob) and reminded >= 2 and set(asked[:reminded]) == {LAST}, asked  # channel + DM
    assert asked[reminded:] and set(asked[reminded:]) == {FIRST}, asked


SPENT = {"flags": 1 << 15, "components": [{"type": 10, "content": "…"}]}  # a V2 board's edit, spending


async def test_changes_while_a_board_waits_on_its_bucket_make_one_more_edit(tmp_path: Path) -> None:
    """While a board's edit waits on its channel's bucket (5 edits per window, spent), ten more changes
    of the match coalesce into one more edit, not ten (board.py: one redraw task per match)."""
    fake = FakeDiscord(rate_limits=0.2)  # windows of 1 s
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await fake.start()
    try:
        async with Harness.started(fake, tmp_path) as h:
            thread, mid = await h.started_game(alice, bob)
            board = h.board(thread)
            route = "/channels/{channel_id}/messages/{message_id}"
            path = f"/api/v10/channels/{thread.id}/messages/{board.id}"
            spend = [
                h.bot.http.request(
                    Route("PATCH", route, channel_id=thread.id, message_id=board.id), json=SPENT
                )
                for _ in range(5)
            ]
            spending = asyncio.gather(*spend)  # (the last one then sleeps until the window ends)
            await fake.wait_until(lambda: fake.requests.count(("PATCH", path)) >= 5, what="5 edits")
            start = len(fake.requests)
            for _ in range(10):
                h.bot.boards.schedule(mid)
                await asyncio.sleep(0.02)
            await h.settle()
            await spending
            edits = [r for r in fake.requests[start:] if r == ("PATCH", path)]
            assert 1 <= len(edits) <= 2, edits
            assert fake.message(board.id).text() != "…"  # the board shows the game again
    finally:
        await fake.stop()


async def test_discord_py_buckets_are_swept_once_a_minute_not_on_every_new_one() -> None:
    """An interaction's callback is a route of its own: thousands of buckets, not scanned per request."""
    from discord.http import HTTPClient, Ratelimit

    now = [0.0]
    http = HTTPClient(asyncio.get_running_loop())
    budget_module.sweep_sparingly(http, every=60.0, clock=lambda: now[0])
    looked_at = [0]
    inactive = Ratelimit.is_inactive

    def counted(self: Ratelimit) -> bool:
        looked_at[0] += 1
        return inactive(self)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Ratelimit, "is_inactive", counted)
        for i in range(2000):
            http.get_ratelimit(f"POST /interactions/{i}/token{i}/callback")
        assert looked_at[0] == 0  # discord.py alone scans them all for each new one past 256: ~2 million
        assert len(http._buckets) == 2000
        for bucket in http._buckets.values():
            bucket._last_request -= 301  # every one idle for over 300 s, as discord.py counts it
        http.get_ratelimit("POST /interactions/a/b/callback")
        assert len(http._buckets) == 2001  # within the minute: not swept yet
        now[0] = 61.0
        http.get_ratelimit("POST /interactions/c/d/callback")
        assert len(http._buckets) == 2  # a minute on: the idle ones are gone, the two fresh ones kept
        assert looked_at[0] == 2002  # one scan


def test_a_discord_py_without_that_sweep_is_left_as_it_is() -> None:
    """The sweep is discord.py's private method: a version without it starts the bot unchanged."""
    http = SimpleNamespace()
    budget_module.sweep_sparingly(http)
    assert vars(http) == {}
