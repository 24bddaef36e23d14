"""Components V2 boards (issue 37): a whole game of every game with V2 boards whose image carries its alt
text (Ophidian 2350's in tests/discord/test_async_players.py), and a board posted as an embed before the
upgrade that keeps working after it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.discord.board import board_buttons
from bot.store import BoardRecord
from engine.registry import get as get_game
from tests.discord_harness import HAND, Harness, assert_v2_board, is_board
from tests.fakediscord import FakeAttachment, FakeDiscord

# Ophidian 2350's whole game with V2 boards is tests/discord/test_async_players.py's (the longest game: played
# once in the suite, checked there with the same assert_v2_board).
GAMES = ("omphala", "ophion", "ophelia", "siege_of_olympus")


@pytest.mark.parametrize("game", GAMES)
async def test_a_whole_game_with_v2_boards(fake: FakeDiscord, tmp_path: Path, game: str) -> None:
    alice, admin = fake.add_user("alice"), fake.add_user("admin", admin=True)
    title = get_game(game).title
    async with Harness.started(fake, tmp_path) as h:
        await h.config(admin, ai_level="easy")  # a quick opponent: the game, not the AI, is under test
        thread, lobby, mid = await h.open_lobby(alice, game)
        lobby = await h.press(alice, lobby, "Add AI")
        await h.start_match(alice, lobby, mid)
        assert_v2_board(h.board(thread), title)
        info = await h.play_until_over(mid, thread, {alice.id: alice})
        await h.settle()
        assert info.over
        boards = [m for m in fake.public(thread) if m.attachments]
        assert boards and all(is_board(m) for m in boards)
        for board in boards:
            assert_v2_board(board, title)
        final = h.board(thread)
        assert "The game is over" in final.text() and [b["label"] for b in final.buttons] == [
            "Rematch",
            "Log",
            "Rules",
        ]
        retired = [m for m in boards if m is not final]
        assert all(HAND not in [b["label"] for b in m.buttons] for m in retired)  # kept their layout
        assert all(m.alt("board.png") for m in retired)
        # each board was retired from what Discord answered its post with, never read back
        assert not [p for m, p in fake.requests if m == "GET" and f"/channels/{thread.id}/messages/" in p]


async def test_an_embed_board_from_before_the_upgrade(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    people = {alice.id: alice, bob.id: bob}
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await h.started_game(alice, bob)
        v2 = h.board(thread)
        info = await h.sessions.get(mid)
        stored = await h.store.board(mid)
        assert stored is not None and stored.message_id == v2.id
        # The board as the old code posted it: an embed over the image, the buttons in a classic row.
        old = fake.record_message(thread, fake.bot_user)
        old.embeds = [
            {
                "type": "rich",
                "title": f"Omphala — game #{mid}",
                "description": "**Everyone at once:** choose (*My hand & moves*).",
                "image": {"url": "attachment://board.png"},
                "footer": {"text": f"Game #{mid} · move {info.state_id} · anyone may look; only players act"},
            }
        ]
        old.components = board_buttons(info).to_components()
        old.attachments = [FakeAttachment.from_upload("board.png", v2.attachment("board.png").data, "board")]
        v2.deleted = True
        await h.store.save_board(
            BoardRecord(mid, thread.id, old.id, stored.state_id, stored.turn, stored.pinged, stored.recent)
        )
        await h.restart()
        assert not old.v2 and h.board(thread) is old
        # Its buttons still work after the restart.
        log = await h.press(bob, old, "Log")
        assert log.ephemeral and "Page" in log.text()
        rules = await h.press(bob, old, "Rules")
        assert rules.ephemeral and "how to play" in rules.text()
        hand = await h.press(alice, old, HAND)
        assert hand.ephemeral and hand.attachments
        before = old.snapshot()  # its My hand & moves, pressed after the board is replaced
        # A redraw of the same position cannot turn the embed into a V2 layout: a V2 board replaces it.
        h.bot.boards.schedule(mid)
        await h.settle()
        new = h.board(thread)
        assert new is not old and new.v2 and (await h.store.board(mid)).message_id == new.id  # type: ignore[union-attr]
        assert_v2_board(new, "Omphala")
        assert [b["label"] for b in old.buttons] == ["Log", "Rules"] and old.embeds  # retired, as an embed
        # A move pressed from the old board's menu: the game goes on with V2 boards.
        await h.play_move(alice, thread, before)
        await h.settle()
        assert h.board(thread).v2
        final = await h.play_until_over(mid, thread, people)
        assert final.over and h.board(thread).v2
