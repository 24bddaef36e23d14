"""AI levels and hints on Discord (issue 12, items 3-4): Add AI offers the levels, /config sets the server's
levels and hints, the lobby and the board show each AI's level, /game hint answers only the player to act (at
a casual table)."""

from __future__ import annotations

import re
from pathlib import Path

from bot.ai import LEVELS
from tests.discord_harness import Harness
from tests.fakediscord import FakeDiscord, FakeMessage

MIN = 60.0


def _seats(message: FakeMessage) -> str:
    return next(t for t in message.text_displays() if t.startswith("**Seats"))


async def test_add_ai_offers_every_level_and_the_lobby_and_board_show_it(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice = fake.add_user("alice")
    admin = fake.add_user("admin", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        said = await h.config(admin, ai_level="easy")
        assert "**easy** for Add AI" in said.text()
        thread, lobby, mid = await h.open_lobby(alice)
        options = lobby.option_values("Add an AI of a chosen level…")
        assert set(options.values()) == set(LEVELS) and {"easy", "normal", "hard", "random"} <= set(LEVELS)
        assert "Bot · hard" in options
        after = await h.press(alice, lobby, "Add AI")  # the server's level
        assert "Bot 1 · easy" in _seats(after)
        picked = await (
            await fake.select(
                alice, fake.message(lobby.id), ["normal"], placeholder="Add an AI of a chosen level…"
            )
        ).wait_reply()
        assert "Bot 2 · normal" in _seats(picked)
        info = await h.sessions.get(mid)
        assert [s.ai for s in info.seats] == [None, "easy", "normal"]
        await h.press(alice, fake.message(lobby.id), "Start")
        await h.settle()
        players = next(t for t in h.board(thread).text_displays() if t.startswith("**Players**"))
        assert "Bot 1 · easy" in players and "Bot 2 · normal" in players


async def test_only_the_host_adds_an_ai_of_a_level(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        _, lobby, mid = await h.open_lobby(alice)
        await h.press(bob, lobby, "Join")
        refused = await (
            await fake.select(
                bob, fake.message(lobby.id), ["hard"], placeholder="Add an AI of a chosen level…"
            )
        ).wait_reply()
        assert refused.ephemeral and "Only the host" in refused.text()
        assert len((await h.sessions.get(mid)).seats) == 2


async def test_config_sets_the_level_that_takes_over_a_timed_out_seat(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    admin = fake.add_user("admin", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        said = await h.config(
            admin, reminder_minutes=0, timeout_minutes=60, timeout_policy="ai", timeout_ai_level="easy"
        )
        assert "**easy** for a timed-out seat" in said.text()
        thread, lobby, mid = await h.open_lobby(alice, "ophion")
        await h.press(bob, lobby, "Join")
        await h.press(alice, h.fake.message(lobby.id), "Start")
        await h.settle()
        assert await h.bot.timers.tick(h.clock[0] + 61 * MIN) == 1
        await h.settle()
        info = await h.sessions.get(mid)
        assert info.seats[0].ai == "easy" and info.seats[0].stands_for == alice.id
        players = next(t for t in h.board(thread).text_displays() if t.startswith("**Players**"))
        assert "· easy" in players


async def test_hint_is_off_where_the_server_says_so_then_ephemeral_for_the_player_to_act(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """At a casual table (a ranked one never has hints: tests/discord/test_discord_tables.py)."""
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    admin = fake.add_user("admin", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        await h.config(admin, tables="casual", hints="off")
        thread, lobby, mid = await h.open_lobby(alice, "ophion")
        await h.press(bob, lobby, "Join")
        await h.press(alice, h.fake.message(lobby.id), "Start")
        await h.settle()
        off = await (await fake.slash(alice, thread, "game hint")).wait_reply()
        assert off.ephemeral and "Hints are off on this server" in off.text()
        said = await h.config(admin, hints="on")
        assert "Hints (/game hint, casual tables only): on" in said.text()
        assert (await h.sessions.get(mid)).users_to_act == (alice.id,)
        waiting = await (await fake.slash(bob, thread, "game hint")).wait_reply()
        assert waiting.ephemeral and "not your turn" in waiting.text()
        stranger = await (await fake.slash(carol, thread, "game hint")).wait_reply()
        assert stranger.ephemeral and "Only the players" in stranger.text()
        # the search runs in an AI worker started now, at a lower priority than everything else here
        hint = await (await fake.slash(alice, thread, "game hint")).wait_reply(timeout=30)
        assert hint.ephemeral and hint.visible_to == alice.id
        text = hint.embeds[0]["description"]
        lines = text.splitlines()
        assert 1 <= len(lines) <= 3 and all(re.search(r"about \d+% to win$", line) for line in lines)
        assert not re.search(r"\bP[1-6]\b", text), "seats are named, not numbered"
        labels = {m.label for m in await h.sessions.moves_for(mid, alice.id)}
        first = re.match(r"1\. \*\*(.+)\*\* — ", lines[0])
        assert first is not None and first[1] in {lab.replace("P2", "bob") for lab in labels}
        assert all(
            not m.ephemeral or m.visible_to == alice.id for m in fake.messages[thread.id] if "💡" in m.text()
        )
