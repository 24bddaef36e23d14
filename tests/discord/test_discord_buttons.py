"""Buttons that must keep working or refuse politely: restarts, strangers, stale menus, double presses."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest

from tests.discord_harness import HAND, Harness
from tests.fakediscord import ErrorLogCapture, FakeChannel, FakeDiscord, FakeMessage, FakeUser


async def test_restart_mid_game_old_buttons_still_work(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await h.started_game(alice, bob)
        await h.play_move(alice, thread)  # alice chose; bob still to choose
        bob_hand = await h.press(bob, h.board(thread), HAND)  # a menu opened before the restart
        old_board = h.board(thread).snapshot()  # as a client that has not seen its buttons removed yet
        await h.restart()
        level2 = await h.press(bob, bob_hand, bob_hand.buttons[0]["label"])  # the old ephemeral menu
        assert "Your move" in level2.text() and level2.buttons[-2]["label"] == "‹ Back"  # ❔ below the menu
        done = await h.press(bob, level2, level2.buttons[0]["label"])
        assert "✅ You played" in done.text()
        await h.settle()
        info = await h.sessions.get(mid)
        assert info.state_id == 2 and info.users_to_act == (alice.id,)
        assert [b["label"] for b in fake.message(old_board.id).buttons] == ["Log", "Rules"]  # superseded
        hand = await h.press(alice, old_board, HAND)  # the board sent before the restart
        assert hand.ephemeral and hand.buttons and hand.attachment("hand.png")
        log = await h.press(bob, old_board, "Log")
        assert "placed two cards face down" in log.text()


async def test_stranger_is_refused_but_may_look(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await h.started_game(alice, bob)
        board = h.board(thread)
        refusal = await h.press(carol, board, HAND)
        assert refusal.ephemeral and refusal.visible_to == carol.id and "not playing" in refusal.content
        assert not refusal.attachments and not refusal.buttons
        hand = await h.press(alice, board, HAND)
        ix = await fake.click(carol, board, HAND)  # carol cannot even see alice's menu; she tries the board
        await ix.wait_reply()
        log = await h.press(carol, board, "Log")
        assert log.ephemeral and "P1 has placed" not in log.text() and "You placed" not in log.text()
        rules = await h.press(carol, board, "Rules")
        assert "how to play" in rules.text() and "Rulings" in [b["label"] for b in rules.buttons]
        info = await h.sessions.get(mid)
        assert info.state_id == 0 and hand.visible_to == alice.id


async def _second_level(h: Harness, user: FakeUser, thread: FakeChannel) -> FakeMessage:
    """The user's hand menu opened on the board, then its first button pressed: the second level."""
    hand = await h.press(user, h.board(thread), HAND)
    return await h.press(user, hand, hand.buttons[0]["label"])


async def test_stale_menu_is_refreshed(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await h.started_game(alice, bob)
        level2 = await _second_level(h, alice, thread)
        stale = level2.snapshot()
        await h.play_move(bob, thread)  # only bob moved: alice's half-made pick still counts (issue 22)
        await h.play_move(alice, thread)  # but once she has moved herself, the old menu is out of date
        await h.settle()
        fresh = await (await fake.click(alice, stale, stale.buttons[0]["label"])).wait_reply()
        assert "out of date" in fresh.text() and fresh.buttons
        assert "Draw a card" in [b["label"] for b in fresh.buttons]  # a fresh first level of her turn
        sid = (await h.sessions.get(mid)).state_id
        assert all(f":{sid}:" in b["custom_id"] for b in fresh.buttons)
        assert (await h.sessions.get(mid)).state_id == 2  # nothing was played by the stale press


async def test_double_press_applies_once(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await h.started_game(alice, bob)
        level2 = await _second_level(h, alice, thread)
        leaf = level2.buttons[0]["label"]
        first, second = await asyncio.gather(fake.click(alice, level2, leaf), fake.click(alice, level2, leaf))
        played = await first.wait_edits(1)
        await second.wait_edits(1)  # both presses were answered (deferred, then the menu redrawn)
        await h.settle()
        versions = [str(v.get("components")) for v in played.history] + [played.text()]  # V2: text displays
        assert sum("✅ You played" in t for t in versions) == 1 and any("out of date" in t for t in versions)
        rows = await h.store.load_log(mid)
        assert len(rows) == 1 and (await h.sessions.get(mid)).state_id == 1


async def test_commands_rules_card_status_undo_abandon(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    admin = fake.add_user("admin", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        rules = await (await fake.slash(bob, fake.channel, "rules", {"game": "omphala"})).wait_reply()
        assert rules.ephemeral and "equal or greater" in rules.text()
        ix = await fake.autocomplete(
            bob, fake.channel, "card", {"game": "omphala", "name": "king"}, focused="name"
        )
        await ix.wait_callback()
        assert "K♣ King of Clubs" in [c["name"] for c in ix.choices]
        card = await (
            await fake.slash(bob, fake.channel, "card", {"game": "omphala", "name": "KS"})
        ).wait_reply()
        assert "Power **13**" in card.text() and "steal" in card.text()
        none = await (await fake.slash(bob, fake.channel, "game status")).wait_reply()
        assert "no game" in none.text()
        thread, mid = await h.started_game(alice, bob)
        status = await (await fake.slash(bob, thread, "game status")).wait_reply()
        assert "Everyone at once" in status.text()
        await h.play_move(alice, thread)
        await h.play_move(bob, thread)
        await h.settle()
        info = await h.sessions.get(mid)
        mover = alice if info.users_to_act == (alice.id,) else bob
        other = bob if mover is alice else alice
        nothing = await (await fake.slash(mover, thread, "game undo")).wait_reply()
        assert "nothing you can take back" in nothing.text()
        log = await (await fake.slash(other, thread, "game log")).wait_reply()
        assert "You placed" in log.text()  # your own secret, in your own ephemeral log
        vote = await (await fake.slash(bob, thread, "game abandon")).wait_reply()
        assert not vote.ephemeral and "still to agree" in vote.text() and alice.mention in vote.text()
        with_admin = await (await fake.slash(admin, thread, "game abandon")).wait_reply()
        assert "abandoned" in with_admin.text()
        assert (await h.sessions.get(mid)).status == "abandoned"


async def test_config_and_timeouts(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    admin = fake.add_user("admin", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        try:
            await fake.slash(bob, fake.channel, "config")
            raise AssertionError("a member without Manage Server saw /config")
        except PermissionError:
            pass
        options = {"reminder_minutes": 10, "timeout_minutes": 60, "timeout_policy": "ai"}
        shown = await (await fake.slash(admin, fake.channel, "config", options)).wait_reply()
        assert "Reminder after: 10 min" in shown.text() and "an AI takes the seat" in shown.text()
        thread, mid = await h.started_game(alice, bob)
        await h.play_move(alice, thread)
        await h.settle()
        start = h.clock[0]
        assert await h.bot.timers.tick(start + 60) == 0
        await h.restart()  # deadlines live in the database
        assert await h.bot.timers.tick(start + 11 * 60) == 1
        reminder = fake.latest(thread)
        assert "reminder" in reminder.content and reminder.mention_ids == [bob.id]
        assert await h.bot.timers.tick(start + 12 * 60) == 0  # reminded once
        assert await h.bot.timers.tick(start + 61 * 60) == 1
        await h.settle()
        info = await h.sessions.get(mid)
        assert info.seats[1].is_ai and info.state_id >= 2
        assert any("an AI plays" in m.text() for m in fake.public(thread))
        here = await (await fake.slash(admin, fake.channel, "config", {"thread_mode": "here"})).wait_reply()
        assert "in the channel itself" in here.text()
        lobby = await (await fake.slash(alice, fake.channel, "play", {"game": "omphala"})).wait_reply()
        assert lobby.channel_id == fake.channel.id and lobby.buttons


async def test_timeout_forfeit_ends_the_game_as_a_loss(fake: FakeDiscord, tmp_path: Path) -> None:
    """The forfeit policy: the sleeper loses, the others share the win, and it shows in /stats."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    admin = fake.add_user("admin", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        options = {"reminder_minutes": 0, "timeout_minutes": 60, "timeout_policy": "forfeit"}
        await (await fake.slash(admin, fake.channel, "config", options)).wait_reply()
        thread, mid = await h.started_game(alice, bob)
        await h.play_move(alice, thread)
        await h.settle()
        assert await h.bot.timers.tick(h.clock[0] + 61 * 60) == 1
        await h.settle()
        info = await h.sessions.get(mid)
        assert info.status == "finished" and info.returns == (1.0, 0.0) and "forfeited" in info.note
        final = h.board(thread)
        assert "forfeited" in final.text() and "🏆" in final.text()
        assert (
            "Game over" in final.text() and final.edit_count == 0
        )  # a new message, not the old board edited
        await fake.wait_until(lambda: thread.archived, what="the thread archived after the forfeit")
        assert any("forfeited (out of time); alice wins" in m.text() for m in fake.public(thread))
        won = await (await fake.slash(alice, thread, "stats")).wait_reply()
        lost = await (await fake.slash(bob, thread, "stats")).wait_reply()
        assert "1 game played" in won.text() and "1 won" in won.text()
        assert "1 game played" in lost.text() and "0 won" in lost.text()
        await h.restart()
        assert (await h.sessions.get(mid)).returns == (1.0, 0.0), "the result survives a restart"


async def test_callback_error_is_logged_with_match_id_and_answered(
    fake: FakeDiscord, tmp_path: Path, error_logs: ErrorLogCapture, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await h.started_game(alice, bob)

        async def broken(*args: object) -> None:
            raise RuntimeError("disk on fire")

        monkeypatch.setattr(h.sessions, "snapshot", broken)
        answer = await h.press(alice, h.board(thread), HAND)
        assert answer.ephemeral and "the game is safe" in answer.text()
        assert any(f"(match {mid})" in r.getMessage() for r in error_logs.records)
        assert "disk on fire" in error_logs.report() or any(r.exc_info for r in error_logs.records)
        error_logs.records.clear()


async def test_undo_takes_back_a_move_within_the_turn(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    people = {alice.id: alice, bob.id: bob}
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await h.started_game(alice, bob)
        for _ in range(20):  # end turns until the player to act can enhance or shield (no draw, no reveal)
            await h.settle()
            info = await h.sessions.get(mid)
            user = people[info.users_to_act[0]]
            moves = await h.sessions.moves_for(mid, user.id)
            quiet = next((m for m in moves if len(m.path) == 3 and m.path[1] in ("Enhance", "Shield")), None)
            if quiet is not None:
                break
            await h.play_move(user, thread)
        assert quiet is not None
        menu = await h.press(user, h.board(thread), HAND)
        for label in quiet.path:
            if label in [b["label"] for b in menu.buttons]:  # a level with one way on opens by itself
                menu = await h.press(user, menu, label)
        assert "✅ You played" in menu.text() and quiet.label in menu.text()
        await h.settle()
        before = await h.sessions.get(mid)
        other = bob if user is alice else alice
        refused = await (await fake.slash(other, thread, "game undo")).wait_reply()
        assert "nothing you can take back" in refused.text()
        taken = await (await fake.slash(user, thread, "game undo")).wait_reply()
        assert taken.ephemeral and "taken back" in taken.text()
        await h.settle()
        after = await h.sessions.get(mid)
        assert after.state_id == before.state_id + 1 and len(await h.store.load_log(mid)) == info.state_id
        assert "took back a move" in h.board(thread).text()


async def test_serve_logs_in_syncs_and_answers(fake: FakeDiscord, tmp_path: Path) -> None:
    """What `python -m bot run` runs: open the database, sync the commands, log in, answer."""
    from bot.discord import serve
    from tests.fakediscord import pointed_at

    alice = fake.add_user("alice")
    with pointed_at(fake):
        task = asyncio.create_task(serve(fake.token, str(tmp_path / "served.db")))
        await fake.wait_until(
            lambda: fake.gateway.connected and "play" in {c.name for c in fake.commands.values()}
        )
        await fake.wait_until(lambda: fake.gateway.identifies == 1)
        rules = await (await fake.slash(alice, fake.channel, "rules", {"game": "omphala"})).wait_reply()
        assert "how to play" in rules.text()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    assert (tmp_path / "served.db").exists()


async def test_lobby_in_place_without_thread_permission(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from types import SimpleNamespace

    import discord

    async def refuse(*args: object, **kwargs: object) -> None:
        raise discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"), "Missing Permissions")  # type: ignore[arg-type]

    monkeypatch.setattr(discord.Message, "create_thread", refuse)
    alice = fake.add_user("alice")
    async with Harness.started(fake, tmp_path) as h:
        opener = await (await fake.slash(alice, fake.channel, "play", {"game": "omphala"})).wait_reply()
        await fake.wait_until(lambda: fake.message(opener.id).buttons)
        assert "Join" in [b["label"] for b in fake.message(opener.id).buttons]
        info = await h.sessions.match_for_channel(fake.channel.id)
        assert info is not None and not fake.threads(fake.channel)
