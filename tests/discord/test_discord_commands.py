"""The commands, polished (issue 11): /stats by game, game titles on the leaderboard, /game log after the end,
/game status with the board image, every option described, and Undo offered in the hand menu."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from tests.discord_harness import HAND, Harness
from tests.fakediscord import FakeDiscord

DEFAULT_DESCRIPTION = "…"  # what discord.py sends for an option nobody described


def _options(options: list[dict[str, Any]], where: str) -> list[tuple[str, str]]:
    """(where, description) of every option, subcommands' options included."""
    out = []
    for o in options:
        here = f"{where} {o['name']}"
        if o.get("type") in (1, 2):  # a subcommand or a group
            out += _options(o.get("options", []), here)
        else:
            out.append((here, o.get("description", "")))
    return out


async def test_every_command_option_is_described(fake: FakeDiscord, tmp_path: Path) -> None:
    async with Harness.started(fake, tmp_path):
        commands = [c.data for c in fake.commands.values()]
        assert commands
        options = [o for c in commands for o in _options(c.get("options", []), "/" + c["name"])]
        assert options
        bare = [where for where, text in options if not text.strip() or text == DEFAULT_DESCRIPTION]
        assert not bare, f"options without a description: {bare}"


async def test_stats_by_game_leaderboard_titles_and_log_after_the_end(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await h.started_game(alice, bob)
        await h.play_move(alice, thread)
        await h.sessions.forfeit(mid, bob.id)
        await h.settle()
        omphala = await (await fake.slash(alice, thread, "stats", {"game": "omphala"})).wait_reply()
        assert "at Omphala" in omphala.text() and "1 game played" in omphala.text()
        ophion = await (await fake.slash(alice, thread, "stats", {"game": "ophion"})).wait_reply()
        assert "at Ophion" in ophion.text() and "0 games played" in ophion.text()
        board = await (await fake.slash(alice, thread, "leaderboard", {"game": "omphala"})).wait_reply()
        assert board.embeds[0]["title"] == "Leaderboard — Omphala" and alice.mention in board.text()
        log = await (await fake.slash(bob, thread, "game log")).wait_reply()
        assert log.ephemeral and "placed two cards face down" in log.text()
        assert "no game in this channel" not in log.text() and "— log" in log.text()
        status = await (await fake.slash(bob, thread, "game status")).wait_reply()
        assert "The game is over" in status.text() and "alice" in status.text()  # its result (issue 22)


async def test_status_shows_the_board_image(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, _ = await h.started_game(alice, bob)
        status = await (await fake.slash(bob, thread, "game status")).wait_reply()
        assert status.ephemeral and "Everyone at once" in status.text()
        assert status.attachment("board.png").data[:4] == b"\x89PNG"
        assert status.v2 and (status.alt("board.png") or "").startswith("Omphala board")


async def test_undo_is_offered_in_the_hand_menu_when_allowed(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await h.started_game(alice, bob)
        hand = await h.press(alice, h.board(thread), HAND)
        assert "↩ Undo" not in [b["label"] for b in hand.buttons]  # nothing to take back yet
        for user in (alice.id, bob.id, alice.id):  # the face-down choices, then alice's first own move
            info = await h.sessions.get(mid)
            moves = await h.sessions.moves_for(mid, user)
            pick = next(m for m in moves if m.key not in ("end_turn", "pass"))
            await h.sessions.submit(mid, user, pick.key, info.state_id)
        await h.settle()
        assert await h.sessions.can_undo(mid, alice.id)
        hand = await h.press(alice, h.board(thread), HAND)
        assert "↩ Undo" in [b["label"] for b in hand.buttons]
        undone = await h.press(alice, hand, "↩ Undo")
        assert "taken back" in undone.text() and undone.ephemeral
        assert len(await h.store.load_log(mid)) == 2
        assert "↩ Undo" not in [b["label"] for b in undone.buttons]
        await h.settle()
        bobs = await h.press(bob, h.board(thread), HAND)
        assert "↩ Undo" not in [b["label"] for b in bobs.buttons]  # not bob's move to take back


TREE_SNAPSHOT = Path(__file__).parents[1] / "snapshots" / "discord" / "commands.json"


async def test_the_registered_command_tree_is_unchanged(fake: FakeDiscord, tmp_path: Path) -> None:
    """The JSON the bot registers (the bulk overwrite CommandTree.sync sends: names, options, descriptions,
    permissions, guild_only) is byte-identical to tests/snapshots/discord/commands.json; to accept a change
    on purpose: AGORA_UPDATE_SNAPSHOTS=1 .venv/bin/python -m pytest tests/test_discord_commands.py"""
    async with Harness.started(fake, tmp_path):
        sent = json.dumps([c.data for c in fake.commands.values()], indent=1, sort_keys=True) + "\n"
    if os.environ.get("AGORA_UPDATE_SNAPSHOTS"):
        TREE_SNAPSHOT.parent.mkdir(parents=True, exist_ok=True)
        TREE_SNAPSHOT.write_text(sent, encoding="utf-8")
    assert sent == TREE_SNAPSHOT.read_text(encoding="utf-8")
