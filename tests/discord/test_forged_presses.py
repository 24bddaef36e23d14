"""Forged presses: Discord delivers whatever custom_id a client sends, with the client's own server and
channel, so every component that names a match or lobby checks that it belongs to the server (and channel)
the press comes from; server commands refuse a DM. Every kind of component the bot registers is forged here
from another server, from a DM and from another channel of the game's own server: the presser gets one
polite line, and nothing of the game changes."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.discord import commands, decks
from bot.discord.app import COMPONENTS
from bot.discord.common import DM_SETTING
from bot.discord.learn import HintButton, RealTableButton
from bot.discord.lobby import (
    ACTIONS,
    LobbyAiSelect,
    LobbyButton,
    LobbyChoiceSelect,
    LobbyDeckSelect,
    LobbyTableSelect,
)
from bot.discord.menus import HandButton, MoveButton, MoveSelect, UndoButton, WhatButton
from bot.discord.mine import RematchButton
from bot.discord.pages import LogButton, RulesButton, RuleTextButton, RulingsButton
from bot.discord.services import NOT_IN_A_DM, OTHER_SERVER, ReclaimButton
from bot.discord.tournament_words import JoinButton, LeaveButton
from tests.discord_harness import Harness
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.interactions import dm_channel, forge_press
from tests.fakediscord.models import FakeMember
from tests.toygame import HighCard

OOPS = "Something went wrong"


@dataclass(frozen=True)
class World:
    """Server A's games: an open lobby, a game under way (at state `sid`) and a finished game."""

    lobby: int
    game: int
    sid: int
    done: int
    channels: tuple[int, ...]  # A's channel and threads


Forgery = tuple[str, list[str] | None]  # a custom_id, and the values of a select (None: a button)
# Every kind of component that names a match or lobby, with the custom_ids forged for it (every action).
SAMPLES: dict[type, Callable[[World], list[Forgery]]] = {
    HandButton: lambda w: [(f"ag:hand:{w.game}:{w.sid}", None)],
    MoveButton: lambda w: [(f"ag:mv:{w.game}:{w.sid}:0", None), (f"ag:mv:{w.game}:{w.sid}:", None)],
    MoveSelect: lambda w: [(f"ag:ms:{w.game}:{w.sid}:", ["0"])],
    UndoButton: lambda w: [(f"ag:undo:{w.game}:{w.sid}", None)],
    WhatButton: lambda w: [(f"ag:what:{w.game}:{w.sid}:", None), (f"ag:what:{w.game}:{w.sid}:0", None)],
    LobbyButton: lambda w: [
        *((f"ag:lb:{action}:{w.lobby}", None) for action in ACTIONS),
    ],
    ReclaimButton: lambda w: [(f"ag:lb:back:{w.game}", None)],
    LobbyAiSelect: lambda w: [(f"ag:lbai:{w.lobby}", ["easy"])],
    LobbyChoiceSelect: lambda w: [(f"ag:lbch:{w.lobby}:deck", ["high"]), (f"ag:lbch:{w.lobby}:deck", ["📂"])],
    LobbyDeckSelect: lambda w: [(f"ag:lbdk:{w.lobby}", ["Mine"])],
    LobbyTableSelect: lambda w: [
        (f"ag:lbclock:{w.lobby}", ["bank"]),
        (f"ag:lbpace:{w.lobby}", ["async"]),
        (f"ag:lbtable:{w.lobby}", ["casual"]),
    ],
    LogButton: lambda w: [(f"ag:log:{w.game}:-1", None), (f"ag:log:{w.done}:0", None)],
    RematchButton: lambda w: [(f"ag:rematch:{w.done}", None)],
    RealTableButton: lambda w: [(f"ag:real:{w.done}", None)],
    HintButton: lambda w: [(f"ag:hint:{w.game}", None)],
}
# The components that name no match: the same for everyone, anywhere (the rules; one's own saved deck).
PLACELESS: dict[type, Callable[[World], list[Forgery]]] = {
    RulesButton: lambda w: [("ag:rules:highcard", None)],
    RuleTextButton: lambda w: [("ag:ruletext:highcard", None)],
    RulingsButton: lambda w: [("ag:rulings:highcard", None)],
    decks.DeckEditButton: lambda w: [("ag:dkedit:highcard:Mine", None)],
    # A tournament's sign-up (no tournament in this world: refused; its own place is checked in
    # tests/discord/test_discord_tournaments.py).
    JoinButton: lambda w: [("ag:tjoin:11", None)],
    LeaveButton: lambda w: [("ag:tleave:11", None)],
}
# Values for the required options of server commands, by option name.
REQUIRED = {
    "game": "highcard",
    "date": "3d",
    "format": "swiss",
    "rounds": 1,
    "days_per_round": 1,
    "id": 1,
    "table": 1,
}


def test_every_registered_component_is_forged() -> None:
    """A new kind of component fails here until it is forged below (and so checked against its place)."""
    assert set(SAMPLES) | set(PLACELESS) == set(COMPONENTS)
    assert not set(SAMPLES) & set(PLACELESS)
    world = World(11, 12, 3, 13, ())
    for kind, forge in {**SAMPLES, **PLACELESS}.items():
        for custom_id, _ in forge(world):
            assert kind.__discord_ui_compiled_template__.fullmatch(custom_id), (kind, custom_id)


async def _world(h: Harness, alice: FakeUser, bob: FakeUser) -> World:
    """Server A: a finished game, a game under way and an open lobby, all of alice and bob."""
    done_thread, lobby, done = await h.open_lobby(alice, "highcard")
    await h.press(bob, lobby, "Join")
    await h.press(alice, h.fake.message(lobby.id), "Start")
    await h.play_until_over(done, done_thread, {alice.id: alice, bob.id: bob})
    _, lobby, game = await h.open_lobby(alice, "highcard")
    await h.press(bob, lobby, "Join")
    await h.press(alice, h.fake.message(lobby.id), "Start")
    await h.settle()
    _, lobby, open_lobby = await h.open_lobby(alice, "highcard")
    await h.press(bob, lobby, "Join")
    sid = (await h.sessions.get(game)).state_id
    channels = tuple(c.id for c in h.fake.channels.values() if c.guild_id == h.fake.guild.id)
    return World(open_lobby, game, sid, done, channels)


async def _picture(h: Harness, world: World) -> Any:
    """Everything of server A a press could change: its matches as stored, their logs, the rematch of the
    finished game, and every public message of its channels and threads (with its edits)."""
    matches = [await h.store.get_match(m) for m in (world.lobby, world.game, world.done)]
    logs = [len(await h.store.load_log(m)) for m in (world.game, world.done)]
    messages = [
        (m.id, m.text(), repr(m.embeds), repr(m.components), len(m.history))
        for c in world.channels
        for m in h.fake.public(c)
    ]
    threads = [c.id for c in h.fake.channels.values() if c.guild_id == h.fake.guild.id]
    return matches, logs, await h.store.rematch_id(world.done), messages, threads


def _carrier(fake: FakeDiscord, channel: FakeChannel, user: FakeUser) -> FakeMessage:
    """A message of the bot that only `user` sees in `channel` (e.g. its answer to their /rules there): the
    strongest carrier, since menus act only on ephemeral messages."""
    return fake.record_message(channel, fake.bot_user, content="How to play…", flags=64, visible_to=user.id)


async def _forge_all(
    h: Harness, world: World, user: FakeUser, channel: FakeChannel, refusal: Callable[[str], str]
) -> None:
    """Forge every kind of component as `user` in `channel`: each match-bound press gets `refusal` (by the
    match id) and nothing of server A changes; a placeless one gets its own answer."""
    carrier = _carrier(h.fake, channel, user)
    before = await _picture(h, world)
    for kind, forge in SAMPLES.items():
        for custom_id, values in forge(world):
            answer = await (await forge_press(h.fake, user, carrier, custom_id, values)).wait_reply()
            mid = int(re.findall(r"\d+", custom_id.split(":", 2)[2])[0])
            assert answer.ephemeral and answer.visible_to == user.id, (kind, custom_id)
            assert answer.content == refusal(str(mid)), (kind, custom_id, answer.content)
            await h.settle()
            assert await _picture(h, world) == before, (kind, custom_id)
    for kind, forge in PLACELESS.items():
        for custom_id, values in forge(world):
            ix = await forge_press(h.fake, user, carrier, custom_id, values)
            await ix.wait_callback()
            answer = ix.original
            assert ix.modal is not None or (answer is not None and OOPS not in answer.text()), (kind, ix)
            await h.settle()
            assert await _picture(h, world) == before, (kind, custom_id)


def _two_servers(fake: FakeDiscord) -> tuple[FakeUser, FakeUser, FakeUser, FakeChannel]:
    """alice and bob on server A (alice on B too), mallory on server B only; B's channel."""
    other = fake.add_guild("Elsewhere")
    b_channel = fake.add_channel("b-general", other)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    other.members[alice.id] = FakeMember(alice)
    mallory = fake.add_user("mallory", guild=other)
    return alice, bob, mallory, b_channel


@pytest.mark.parametrize("where", ["another server", "a DM"])
async def test_presses_forged_from_another_server_or_in_a_dm_are_refused(
    fake: FakeDiscord, tmp_path: Path, toy: HighCard, where: str
) -> None:
    alice, bob, mallory, b_channel = _two_servers(fake)
    async with Harness.started(fake, tmp_path) as h:
        world = await _world(h, alice, bob)
        for user in (mallory, alice):  # a stranger, and a player of the game pressing from elsewhere
            if where == "a DM":
                await _forge_all(h, world, user, dm_channel(fake, user), lambda _: NOT_IN_A_DM)
            else:
                await _forge_all(h, world, user, b_channel, lambda _: OTHER_SERVER)


async def test_presses_forged_in_another_channel_of_the_server_point_there(
    fake: FakeDiscord, tmp_path: Path, toy: HighCard
) -> None:
    alice, bob, _, _ = _two_servers(fake)
    async with Harness.started(fake, tmp_path) as h:
        world = await _world(h, alice, bob)
        infos = {m: await h.sessions.get(m) for m in (world.lobby, world.game, world.done)}

        def there(mid: str) -> str:
            info = infos[int(mid)]
            return f"That button belongs to game #{info.id} in <#{info.channel_id}>; press it there."

        await _forge_all(h, world, alice, fake.channel, there)  # #general; the games are in its threads


# The commands that are not server commands, and why a DM is a fine place for them.
ANYWHERE = {
    "rules": "a game's rules",
    "card": "a card's text (the games' own cards; a server's packs are offered in that server only)",
    "stats": "one's record on all servers",
    "leaderboard": "all servers' ranking (the server scope is refused in a DM)",
    "notify": "one's reminder DMs (the per-server window setting is refused in a DM)",
    "deck save": "one's own decks",
    "deck list": "one's own decks",
    "deck show": "one's own decks",
    "deck delete": "one's own decks",
}


def _leaves(tree: Any) -> list[Any]:
    """Every command a person can run: the top-level commands and the subcommands of groups."""
    out = []
    for command in tree.get_commands():
        out += list(getattr(command, "commands", None) or [command])
    return out


async def test_server_commands_refuse_a_dm(fake: FakeDiscord, tmp_path: Path, toy: HighCard) -> None:
    alice, _, _, _ = _two_servers(fake)
    async with Harness.started(fake, tmp_path) as h:
        dm = dm_channel(fake, alice)
        leaves = _leaves(h.bot.tree)
        servers = [c for c in leaves if commands.server_only(c)]
        assert {c.qualified_name for c in leaves if c not in servers} == set(ANYWHERE)  # each one decided
        assert {"play", "config", "games", "game status", "away until"} <= {c.qualified_name for c in servers}
        public = len(fake.public_messages())
        for command in servers:
            options = {p.name: REQUIRED[p.name] for p in command.parameters if p.required}
            answer = await (await fake.slash(alice, dm, command.qualified_name, options)).wait_reply()
            assert answer.ephemeral and answer.content == commands.dm_refusal(command.qualified_name)
        assert commands.dm_refusal("play") == "Use /play in a server's channel; I can't host a game in a DM."
        await h.settle()
        assert await h.store.live_match_id(dm.id) is None and await h.store.latest_match_id(dm.id) is None
        assert len(fake.public_messages()) == public
        suggest = await fake.autocomplete(alice, dm, "play", {"game": "highcard", "pack": "w"}, "pack")
        await suggest.wait_callback()
        assert suggest.callback_type == 8 and suggest.choices == []


async def test_commands_for_anywhere_answer_in_a_dm(fake: FakeDiscord, tmp_path: Path, toy: HighCard) -> None:
    alice, _, _, _ = _two_servers(fake)
    async with Harness.started(fake, tmp_path) as h:
        dm = dm_channel(fake, alice)

        async def said(name: str, options: dict[str, Any]) -> str:
            return (await (await fake.slash(alice, dm, name, options)).wait_reply()).text()

        assert "how to play" in await said("rules", {"game": "highcard"})
        assert "📊" in await said("stats", {})
        assert await said("leaderboard", {"game": "highcard"}) == commands.DM_LEADERBOARD
        board = await (
            await fake.slash(alice, dm, "leaderboard", {"game": "highcard", "scope": "all"})
        ).wait_reply()
        assert board.embeds and OOPS not in board.text()
        assert await said("notify", {"dms": "on", "windows": "auto"}) == commands.DM_WINDOWS
        assert not await h.store.user_setting(alice.id, DM_SETTING)  # refused: nothing changed
        assert "🔔" in await said("notify", {"dms": "on"})


async def test_a_refused_press_does_not_end_time_away_elsewhere(
    fake: FakeDiscord, tmp_path: Path, toy: HighCard
) -> None:
    """alice is away on server B; a press she forges there for server A's game is refused before anything,
    her time away on B included, changes."""
    alice, bob, _, b_channel = _two_servers(fake)
    async with Harness.started(fake, tmp_path) as h:
        world = await _world(h, alice, bob)
        away = await (await fake.slash(alice, b_channel, "away until", {"date": "3d"})).wait_reply()
        assert "away" in away.text().lower(), away.text()
        b = b_channel.guild_id
        assert await h.bot.services.away.running(b, alice.id, await h.bot.services.settings.of(b)) is not None
        carrier = _carrier(fake, b_channel, alice)
        answer = await (
            await forge_press(fake, alice, carrier, f"ag:hand:{world.game}:{world.sid}")
        ).wait_reply()
        assert answer.content == OTHER_SERVER
        assert await h.bot.services.away.running(b, alice.id, await h.bot.services.settings.of(b)) is not None


def test_each_custom_id_is_written_by_its_own_component_class() -> None:
    """A custom_id ("ag:…") is written only inside the DynamicItem (or form) class that answers it: its
    template and its constructor; nowhere else in bot/discord builds one by hand."""
    found, paths = [], sorted((Path(__file__).resolve().parents[2] / "bot" / "discord").glob("*.py"))
    assert paths, "bot/discord is read"
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        inside: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and any(
                "DynamicItem" in ast.unparse(base) or "Modal" in ast.unparse(base) for base in node.bases
            ):
                inside |= {id(n) for n in ast.walk(node)}
        for node in ast.walk(tree):
            written = isinstance(node, ast.Constant) and str(node.value).startswith("ag:")
            if written and id(node) not in inside:
                found.append(f"{path.name}:{node.lineno}: {getattr(node, 'value', '')}")
    assert not found, "\n".join(found)
