"""The bot's own channel permissions: without Attach Files the board cannot be posted (it needs no Embed
Links: a Components V2 message), and the channel is told in plain words which permission to grant (not a
silent failure, not a traceback)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.discord_harness import HAND, Harness
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser, models


async def _lobby_of_two(h: Harness, alice: FakeUser, bob: FakeUser) -> tuple[FakeChannel, FakeMessage, int]:
    thread, lobby, mid = await h.open_lobby(alice)
    await h.press(bob, lobby, "Join")
    return thread, h.fake.message(lobby.id), mid


async def _deny_bot(h: Harness, permission: int) -> None:
    """Take a permission from the bot in #general (and so in its game threads); wait until it knows."""
    await h.fake.set_permissions(h.fake.channel, deny=permission)
    channel = h.bot.get_channel(h.fake.channel.id)
    me = channel.guild.me
    await h.fake.wait_until(lambda: not channel.permissions_for(me).value & permission, what="CHANNEL_UPDATE")


async def _started_without(
    h: Harness, alice: FakeUser, bob: FakeUser, permission: int
) -> tuple[FakeChannel, int]:
    """A game of two started after the bot lost `permission`: the thread and the match id."""
    thread, lobby, mid = await _lobby_of_two(h, alice, bob)
    await _deny_bot(h, permission)
    await h.press(alice, lobby, "Start")
    await h.settle()
    return thread, mid


async def test_missing_attach_files_is_explained_and_the_game_goes_on(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await _started_without(h, alice, bob, models.ATTACH_FILES)
        with pytest.raises(AssertionError):
            h.board(thread)  # Discord refused the board image...
        refused = (403, 50013, f"POST /api/v10/channels/{thread.id}/messages")
        assert refused in fake.errors
        notice = fake.latest(thread)  # ...and the channel is told why, in words
        assert "**Attach Files**" in notice.text() and "Embed Links" not in notice.text()
        assert "admin" in notice.text() and not notice.attachments and not notice.embeds
        info = await h.sessions.get(mid)
        assert all(notice.pinged(u) for u in info.users_to_act)  # the turn's ping is not lost
        assert notice.buttons[0]["label"] == HAND  # and the game can go on meanwhile
        h.bot.boards.schedule(mid)  # the same board again (e.g. a redraw): the notice is not repeated
        await h.settle()
        assert fake.errors.count(refused) == 2 and fake.latest(thread) is notice
        await fake.set_permissions(fake.channel)  # an admin grants it back
        await fake.wait_until(lambda: h.bot.get_channel(fake.channel.id).overwrites == {})
        await h.play_move(fake.users[info.users_to_act[0]], thread, notice)
        await h.settle()
        board = h.board(thread)  # the next move brings the board back
        assert board.attachment("board.png") and board.id > notice.id


async def test_the_v2_board_needs_no_embed_links(fake: FakeDiscord, tmp_path: Path) -> None:
    """The board is a Components V2 message, no embed (issue 37): a channel without Embed Links shows it."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, _ = await _started_without(h, alice, bob, models.EMBED_LINKS)
        board = h.board(thread)
        assert board.v2 and board.alt("board.png") and "Embed Links" not in board.text()


async def test_without_send_messages_the_refusal_is_logged_not_raised(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, lobby, _ = await _lobby_of_two(h, alice, bob)
        before = fake.message_count(thread.id)
        await _deny_bot(h, models.SEND_MESSAGES_IN_THREADS)
        with caplog.at_level(logging.WARNING, logger="bot.discord.permissions"):
            await h.press(alice, lobby, "Start")
            await h.settle()
        assert fake.message_count(thread.id) == before  # nothing could be written there
        warned = [r for r in caplog.records if r.name == "bot.discord.permissions"]
        assert warned and "Send Messages in Threads" in warned[0].getMessage() and not warned[0].exc_info
