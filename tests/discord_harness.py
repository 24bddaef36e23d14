"""Shared helpers for the Discord end-to-end tests: a running AgoraBot on a fake Discord, simulated players.

async with Harness.started(fake, tmp_path) as h:
    thread, lobby = await h.open_lobby(alice)
    ...
    await h.play_until_over(mid, users)       # every person presses the first offered move
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import bot.sessions.lobby as sessions_module  # (new match seeds: lobby.secrets)
from bot.discord import AgoraBot
from bot.sessions import MatchInfo, SessionManager
from bot.store import SqliteStore
from tests.fakediscord import (
    BotRunner,
    FakeChannel,
    FakeDiscord,
    FakeMessage,
    FakeUser,
    make_client_kwargs,
    start_client,
)

HAND = "My hand & moves"
WHAT = "❔ What do these do?"  # the hand menu's explanation of its level, below the moves
HINT = "💡 Hint"  # a practice game's hint, beside it
NAV = ("‹ Back", "◀ Previous", "Next ▶", WHAT, HINT)


def is_board(message: FakeMessage) -> bool:
    """Whether a message is a game's public board: a V2 layout with board.png in a media gallery (or, posted
    before Components V2, an embed titled "… game #…" with the image)."""
    if message.v2:
        return any((m.get("media") or {}).get("url") == "attachment://board.png" for m in message.media())
    return bool(message.embeds and message.attachments and "game #" in (message.embeds[0].get("title") or ""))


def assert_v2_board(message: FakeMessage, title: str) -> None:
    """A Components V2 board (issue 37): no content or embeds, board.png in a media gallery whose alt text
    starts with "<title> board", the upload described the same."""
    assert message.v2 and not message.content and not message.embeds
    assert (message.alt("board.png") or "").startswith(f"{title} board"), message.alt("board.png")
    assert message.attachment("board.png").description == message.alt("board.png")


@dataclass
class Harness:
    """A fake Discord, the bot under test on a SQLite file, and helpers to act as users."""

    fake: FakeDiscord
    db: str
    clock: list[float] = field(default_factory=lambda: [1_000_000.0])
    store: Any = None
    sessions: Any = None
    bot: Any = None
    runner: BotRunner | None = None
    seeds: Any = None

    @classmethod
    @contextlib.asynccontextmanager
    async def started(cls, fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Harness]:
        """Start the bot; stop it (and the database) on exit."""
        h = cls(fake, str(tmp_path / "agora.db"))
        await h.start()
        try:
            yield h
        finally:
            await h.stop()

    async def start(self) -> None:
        """Open the database and log the bot in (a fresh process, as after a restart).

        Deals are reproducible: the session manager draws match seeds 1, 2, 3... instead of random ones.
        """
        if self.seeds is None:
            self.seeds = itertools.count(1)
        counter = self.seeds
        sessions_module.secrets = SimpleNamespace(randbits=lambda bits: next(counter))  # type: ignore[assignment]
        self.store = SqliteStore(self.db)
        await self.store.open()
        store, clock = self.store, lambda: self.clock[0]
        self.bot = AgoraBot(
            lambda hooks: SessionManager(store, clock=clock, hooks=hooks),
            timer_interval=0,
            **make_client_kwargs(),
        )
        self.sessions = self.bot.sessions
        self.runner = await start_client(self.bot, self.fake)

    async def stop(self) -> None:
        """Log out and close everything."""
        if self.runner is not None:
            under_way = set(self.bot._under_way)  # a test may end at its reply while the press still edits
            if under_way:
                await asyncio.wait(under_way, timeout=10)
            await self.settle()
            await self.runner.stop()
            self.runner = None
        await self.sessions.close()
        await self.store.close()
        sessions_module.secrets = secrets

    async def restart(self) -> None:
        """Stop the bot and start a new one on the same database."""
        await self.stop()
        await self.start()

    async def settle(self) -> None:
        """Wait until no AI is thinking and every board is drawn."""
        for _ in range(200):
            await self.sessions.wait_idle()
            await self.bot.boards.flush()
            if not self.sessions._ai_tasks and not self.bot.boards._tasks:
                return
        raise AssertionError("the bot never settled")

    # --- acting as users --------------------------------------------------------------------------------
    async def windows(self, setting: str, *users: FakeUser) -> None:
        """Choose how response windows treat these people on the fake server (as /notify windows: does)."""
        for user in users:
            await self.bot.services.prefs.set_windows(self.fake.guild.id, user.id, setting)

    async def config(self, admin: FakeUser, **options: Any) -> FakeMessage:
        """/config with these options, by an admin in #general; the reply."""
        return await (await self.fake.slash(admin, self.fake.channel, "config", options)).wait_reply()

    async def open_lobby(self, host: FakeUser, game: str = "omphala") -> tuple[FakeChannel, FakeMessage, int]:
        """/play in #general: the thread, its lobby message and the match id."""
        before = len(self.fake.threads(self.fake.channel))
        await (await self.fake.slash(host, self.fake.channel, "play", {"game": game})).wait_reply()

        def opened() -> bool:
            threads = self.fake.threads(self.fake.channel)
            return len(threads) > before and self.fake.message_count(threads[-1].id) > 0

        await self.fake.wait_until(opened, what="the lobby thread")
        thread = self.fake.threads(self.fake.channel)[-1]
        lobby = self.fake.latest(thread)
        info = await self.sessions.match_for_channel(thread.id)
        assert info is not None
        return thread, lobby, info.id

    async def press(self, user: FakeUser, message: FakeMessage, label: str) -> FakeMessage:
        """Press a button and return what the user then sees (the reply or the edited message)."""
        return await (await self.fake.click(user, message, label)).wait_reply()

    def board(self, channel: FakeChannel) -> FakeMessage:
        """The latest public board message in the channel."""
        boards = [m for m in self.fake.public(channel) if is_board(m)]
        assert boards, "no board was posted"
        return boards[-1]

    async def pick_choice(self, user: FakeUser, lobby: FakeMessage, value: str, menu: str) -> FakeMessage:
        """Pick a seat choice (a deck, a Commander) in the lobby's select menu whose placeholder is `menu`."""
        return await (await self.fake.select(user, lobby, [value], placeholder=menu)).wait_reply()

    async def started_game(
        self, host: FakeUser, guest: FakeUser, game: str = "omphala"
    ) -> tuple[FakeChannel, int]:
        """The host opens a lobby of `game`, the guest joins, the host starts: the thread and the match id."""
        thread, lobby, mid = await self.open_lobby(host, game)
        await self.press(guest, lobby, "Join")
        await self.press(host, self.fake.message(lobby.id), "Start")
        await self.settle()
        return thread, mid

    async def take_seats(
        self, host: FakeUser, guest: FakeUser, lobby: FakeMessage, menu: str, picks: tuple[str, str]
    ) -> FakeMessage:
        """The host picks a seat choice in `menu`, the guest joins and picks theirs; the lobby then."""
        lobby = await self.pick_choice(host, lobby, picks[0], menu)
        lobby = await self.press(guest, lobby, "Join")
        return await self.pick_choice(guest, lobby, picks[1], menu)

    async def start_match(self, host: FakeUser, lobby: FakeMessage, mid: int) -> MatchInfo:
        """The host presses Start; the match once every board is drawn."""
        await self.press(host, lobby, "Start")
        await self.settle()
        return await self.sessions.get(mid)

    async def offers_pass(self, channel: FakeChannel, info: MatchInfo, waiter: FakeUser) -> None:
        """The open window is named on the board without a ping, and the waiter's menu offers Pass."""
        board = self.board(channel)
        assert not board.pinged(waiter) and info.window in board.text()  # an edit names, never pings
        menu = await self.press(waiter, board, HAND)
        assert "Pass" in [b["label"] for b in menu.buttons]

    async def lets_pass(self, channel: FakeChannel, info: MatchInfo, waiter: FakeUser) -> None:
        """At its deadline the open window passes by itself: said on the board, with no message of its own."""
        self.clock[0] = info.deadline
        assert await self.bot.timers.tick() == 1
        await self.settle()
        assert not [m for m in self.fake.public(channel) if m.content.startswith("⏳")]
        assert f"⏳ {waiter.name} let the {info.window} pass." in self.board(channel).text()

    async def finish_after_restart(
        self, mid: int, channel: FakeChannel, people: dict[int, FakeUser]
    ) -> MatchInfo:
        """Restart the bot in the middle of the game, then play it to its end; the final match info."""
        await self.restart()
        info = await self.sessions.get(mid)
        assert not info.over and info.users_to_act
        final = await self.play_until_over(mid, channel, people)
        assert final.over
        return final

    async def play_through(self, user: FakeUser, channel: FakeChannel, first: str) -> FakeMessage:
        """From the hand menu: press `first`, then the first option at each level until a move is played."""
        hand = await self.press(user, self.board(channel), HAND)
        hand = await self.press(user, hand, first)
        for _ in range(6):
            if "✅ You played" in hand.text():
                return hand
            buttons = [b["label"] for b in hand.buttons if b["label"] not in NAV]
            if hand.selects:
                value = next(iter(hand.option_values().values()))
                hand = await (await self.fake.select(user, hand, [value])).wait_reply()
            else:
                hand = await self.press(user, hand, buttons[0])
        raise AssertionError(f"no move was played: {hand.text()}")

    async def play_move(
        self, user: FakeUser, channel: FakeChannel, message: FakeMessage | None = None
    ) -> FakeMessage:
        """Open 'My hand & moves' on `message` (else the latest board) and play End turn or Pass if offered,
        else the first."""
        hand = await self.press(user, message or self.board(channel), HAND)
        assert hand.ephemeral and hand.visible_to == user.id
        for _ in range(10):
            if "✅ You played" in hand.text():
                return hand
            options = [b["label"] for b in hand.buttons if b["label"] not in NAV]
            quick = [o for o in ("End turn", "Pass", "End the Action Phase") if o in options]
            if quick:  # the shortest way through a game
                hand = await self.press(user, hand, quick[0])
            elif options:
                hand = await self.press(user, hand, options[0])
            elif hand.selects:
                first = next(iter(hand.option_values().values()))
                hand = await (await self.fake.select(user, hand, [first])).wait_reply()
            else:
                raise AssertionError(f"no move offered to {user.name}: {hand.text()}")
        raise AssertionError("the menu never reached a move")

    async def play_until_over(
        self,
        mid: int,
        channel: FakeChannel,
        people: dict[int, FakeUser],
        play: Callable[[FakeUser], Awaitable[object]] | None = None,
    ) -> MatchInfo:
        """Let the people to act play (`play`, else `play_move`) until the game ends; the final match info."""
        for _ in range(1000):
            await self.settle()
            info = await self.sessions.get(mid)
            if info.over:
                return info
            user = people[info.users_to_act[0]]
            await (play(user) if play is not None else self.play_move(user, channel))
        raise AssertionError("the game did not end")
