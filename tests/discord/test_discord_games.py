"""Whole Omphala games through the fake Discord: users press the real buttons and selects the bot sent."""

from __future__ import annotations

from pathlib import Path

from tests.discord_harness import HAND, WHAT, Harness
from tests.fakediscord import FakeDiscord, FakeMessage


def assert_nothing_private_public(fake: FakeDiscord) -> None:
    """No hand image, no private event text and no secret card choice ever reaches a public message."""
    for m in fake.public_messages():
        assert not any(a.filename == "hand.png" for a in m.attachments), m.text()
        assert "You placed" not in m.text() and "face down:" not in m.text()
    for m in fake.all_messages():
        if any(a.filename == "hand.png" for a in m.attachments):
            assert m.ephemeral and m.visible_to is not None


async def test_two_player_game_to_stats(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, lobby, mid = await h.open_lobby(alice)
        assert "2–6 players" in lobby.text() and [b["label"] for b in lobby.buttons] == [
            "Join",
            "Leave",
            "Add AI",
            "Start",
            "Cancel",
        ]
        refused = await h.press(bob, lobby, "Start")
        assert refused.ephemeral and "Only the host" in refused.text()
        lobby = await h.press(bob, lobby, "Join")
        assert bob.mention in lobby.text() and "Ready" in lobby.text()
        lobby = await h.press(alice, lobby, "Start")
        assert not lobby.buttons and "started" in lobby.text()
        await h.settle()
        first = h.board(thread)
        assert set(first.mention_ids) == {alice.id, bob.id}  # the simultaneous choice pings both
        assert "Everyone at once" in first.text() and first.attachment("board.png").data[:4] == b"\x89PNG"
        info = await h.play_until_over(mid, thread, {alice.id: alice, bob.id: bob})
        await h.settle()
        final = h.board(thread)
        assert "The game is over" in final.text()
        # a game every seat shares is posted as a draw (this seed's is), one seat's win with the trophy
        shared = info.returns is not None and all(r > 0 for r in info.returns)
        assert ("🤝 A draw" in final.text()) == shared and ("🏆" in final.text()) != shared
        assert [b["label"] for b in final.buttons] == ["Rematch", "Log", "Rules"]
        stats = await (await fake.slash(alice, thread, "stats")).wait_reply()
        assert "1 game played" in stats.text()
        winners = [i for i, r in enumerate(info.returns or ()) if r > 0]
        assert ("1 won" in stats.content) == (0 in winners)
        board = await (await fake.slash(bob, thread, "leaderboard", {"game": "omphala"})).wait_reply()
        assert "1/1 won" in board.text() or "0/1 won" in board.text()
        log = await h.press(bob, final, "Log")
        assert log.ephemeral and "Page" in log.text() and "◀ Older" in [b["label"] for b in log.buttons]
        older = await h.press(bob, log, "◀ Older")
        assert older.id == log.id and "`" in older.text()
    assert_nothing_private_public(fake)


async def test_four_player_game_with_ai_seats(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, lobby, mid = await h.open_lobby(alice)
        lobby = await h.press(bob, lobby, "Join")
        lobby = await h.press(alice, lobby, "Add AI")
        lobby = await h.press(alice, lobby, "Add AI")
        assert "Seats (4/6)" in lobby.text() and "Bot 2" in lobby.text()
        await h.press(alice, lobby, "Start")
        info = await h.play_until_over(mid, thread, {alice.id: alice, bob.id: bob})
        assert len(info.seats) == 4 and info.returns is not None
        await h.settle()
        for user in (alice, bob):
            stats = await (await fake.slash(user, thread, "stats")).wait_reply()
            assert "1 game played" in stats.text()
        boards = [m for m in fake.public(thread) if m.attachments]
        assert len(boards) >= 4  # one message per turn
        turn_pings = [m for m in boards if "your turn" in m.text()]
        assert turn_pings and all(set(m.mention_ids) <= {alice.id, bob.id} for m in turn_pings)
    assert_nothing_private_public(fake)


async def test_menu_levels_and_select_paging(fake: FakeDiscord, tmp_path: Path) -> None:
    """Omphala's choice of 2 from 7: level 1 is the left card, level 2 the pair in order; Back goes up."""
    alice = fake.add_user("alice")
    async with Harness.started(fake, tmp_path) as h:
        thread, lobby, mid = await h.open_lobby(alice)
        await h.press(alice, lobby, "Add AI")
        await h.press(alice, (lobby := fake.message(lobby.id)), "Start")
        await h.settle()
        hand = await h.press(alice, h.board(thread), HAND)
        assert hand.attachment("hand.png").data[:4] == b"\x89PNG"
        first_level = [b["label"] for b in hand.buttons if b["label"] != WHAT]
        assert len(first_level) == 7 and "‹ Back" not in first_level
        second = await h.press(alice, hand, first_level[0])
        labels = [b["label"] for b in second.buttons if b["label"] != WHAT]
        assert labels[-1] == "‹ Back" and all("face down" in x for x in labels[:-1]) and len(labels) == 7
        assert all(len(b["custom_id"]) <= 100 and "♣" not in b["custom_id"] for b in second.buttons)
        back = await h.press(alice, second, "‹ Back")
        assert [b["label"] for b in back.buttons if b["label"] != WHAT] == first_level
        # a level with more than 25 options becomes a paged select
        from bot.discord.menus import menu
        from bot.sessions import Move

        many = [Move(f"k{i}", (f"Option {i}",)) for i in range(60)]
        text, view = menu(mid, 0, many)
        items = view.children
        assert (
            "page 1 of 3" in text and items[0].custom_id == f"ag:ms:{mid}:0:" and len(items[0].options) == 25
        )  # type: ignore[attr-defined]
        assert [getattr(i, "label", None) for i in items[1:]] == ["Next ▶"]


def _first_move_button(hand: FakeMessage) -> str:
    return next(b["label"] for b in hand.buttons if b["label"] != "‹ Back")


async def test_three_player_ophion_with_ai_seats(fake: FakeDiscord, tmp_path: Path) -> None:
    """Issue 6: a whole 3-player Ophion game with two AI seats, through the real buttons, to /stats."""
    alice = fake.add_user("alice")
    async with Harness.started(fake, tmp_path) as h:
        thread, lobby, mid = await h.open_lobby(alice, "ophion")
        assert "2–4 players" in lobby.text()
        lobby = await h.press(alice, lobby, "Add AI")
        lobby = await h.press(alice, lobby, "Add AI")
        await h.press(alice, lobby, "Start")
        await h.settle()
        hand = await h.press(alice, h.board(thread), HAND)
        groups = {b["label"] for b in hand.buttons}
        assert groups - {WHAT} <= {"Buy", "Play", "Summon", "Convert", "Pass"} and "Pass" in groups
        info = await h.play_until_over(mid, thread, {alice.id: alice})
        assert len(info.seats) == 3 and info.returns is not None
        await h.settle()
        final = h.board(thread)
        assert "The game is over" in final.text()
        stats = await (await fake.slash(alice, thread, "stats")).wait_reply()
        assert "1 game played" in stats.text()
    assert_nothing_private_public(fake)
