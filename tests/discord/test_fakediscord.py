"""The fake Discord, proven with a minimal real discord.py bot defined here (Client + CommandTree + views)."""

from __future__ import annotations

import asyncio
import io
import re
import sys
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:  # `tests` is a namespace package: import it from the repository root
    sys.path.insert(0, ROOT)

from tests.fakediscord import (  # noqa: E402
    INTERACTION_DEADLINE,
    TOKEN_LIFETIME,
    ErrorLogCapture,
    FakeDiscord,
    FakeTimeout,
    InvalidOption,
    capture_error_logs,
    limits,
    make_client_kwargs,
    models,
    running_bot,
)

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32


class BoardView(discord.ui.View):
    """A persistent view: survives restarts because every item has a fixed custom_id and timeout is None."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Next", custom_id="board:next")
    async def next_turn(self, interaction: discord.Interaction, button: discord.ui.Button[BoardView]) -> None:
        """Advance the turn counter in the message itself (callback type 7)."""
        assert interaction.message is not None
        turn = int(interaction.message.content.split()[-1]) + 1
        await interaction.response.edit_message(content=f"turn {turn}")

    @discord.ui.button(label="Hand", custom_id="board:hand")
    async def hand(self, interaction: discord.Interaction, button: discord.ui.Button[BoardView]) -> None:
        """Show the presser's private hand."""
        await interaction.response.send_message(f"hand of {interaction.user.name}", ephemeral=True)

    @discord.ui.select(
        custom_id="board:pick",
        placeholder="Pick a card",
        options=[discord.SelectOption(label=f"Card {c}", value=c) for c in "abc"],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[BoardView]) -> None:
        """Echo the picked values."""
        await interaction.response.send_message(f"picked {','.join(select.values)}", ephemeral=True)

    @discord.ui.button(label="Later", custom_id="board:later")
    async def later(self, interaction: discord.Interaction, button: discord.ui.Button[BoardView]) -> None:
        """Defer the update (callback type 6), then edit the message through the channel route."""
        await interaction.response.defer()
        assert interaction.message is not None
        await interaction.message.edit(content="later")

    @discord.ui.button(label="Feedback", custom_id="board:feedback")
    async def feedback(self, interaction: discord.Interaction, button: discord.ui.Button[BoardView]) -> None:
        """Open a modal."""
        await interaction.response.send_modal(FeedbackModal())


class FeedbackModal(discord.ui.Modal, title="Feedback"):
    """A modal with one text input."""

    text: discord.ui.TextInput[FeedbackModal] = discord.ui.TextInput(label="Text", custom_id="fb:text")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Thank the user, echoing the text."""
        await interaction.response.send_message(f"thanks: {self.text.value}", ephemeral=True)


class CounterButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"counter:(?P<n>\d+)"):
    """A button whose custom_id carries its state: works for any client that registered the class."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"counter:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CounterButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Replace the message with the next count."""
        view = discord.ui.View(timeout=None).add_item(CounterButton(self.n + 1))
        await interaction.response.edit_message(content=f"count {self.n + 1}", view=view)


class MiniBot(discord.Client):
    """A minimal bot exercising every part of the fake the real bot will use."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(**make_client_kwargs())
        self.guild_id = guild_id
        self.tree = app_commands.CommandTree(self)
        self.ready_count = 0
        self.resumed_count = 0
        self.seen: list[tuple[int, str]] = []
        self.closed_card_names = ["King", "Kite", "Queen"]
        self.gate = asyncio.Event()  # /gate and /later wait for the test to open it
        self.outcomes: list[str] = []  # what /gate and /later managed ("ok ...") or the error code they got
        self._add_commands()

    async def setup_hook(self) -> None:
        """Register persistent components and sync commands (global + one guild command)."""
        self.add_view(BoardView())
        self.add_dynamic_items(CounterButton)
        await self.tree.sync()
        await self.tree.sync(guild=discord.Object(self.guild_id))

    async def on_ready(self) -> None:
        """Count READY events."""
        self.ready_count += 1

    async def on_message(self, message: discord.Message) -> None:
        """Record (author id, content) of every message the gateway delivered."""
        self.seen.append((message.author.id, message.content))

    async def on_resumed(self) -> None:
        """Count RESUMED events."""
        self.resumed_count += 1

    def _add_commands(self) -> None:
        tree = self.tree

        @tree.command(description="Public answer with an embed and an image")
        async def hello(interaction: discord.Interaction, name: str) -> None:
            embed = discord.Embed(title=f"Hello {name}").set_image(url="attachment://board.png")
            file = discord.File(io.BytesIO(PNG), "board.png", description="board")
            await interaction.response.send_message(f"hi {name}", embed=embed, file=file)

        @tree.command(description="Ephemeral answer")
        async def secret(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("only you", ephemeral=True)

        @tree.command(description="Deferred answer, follow-ups and an @original edit")
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.followup.send("filled")
            await interaction.followup.send(
                "second", file=discord.File(io.BytesIO(PNG), "x.png", description="x")
            )
            original = await interaction.original_response()
            await interaction.edit_original_response(content=original.content + " and edited")

        @tree.command(description="Post the board")
        async def board(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("turn 1", view=BoardView())

        @tree.command(description="Post a counter")
        async def counter(interaction: discord.Interaction, start: int) -> None:
            view = discord.ui.View(timeout=None).add_item(CounterButton(start))
            await interaction.response.send_message(f"count {start}", view=view)

        @tree.command(description="Open a lobby thread")
        async def lobby(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("lobby")
            message = await interaction.original_response()
            thread = await message.create_thread(name="Lobby")
            await thread.send("welcome", file=discord.File(io.BytesIO(PNG), "t.png", description="t"))
            assert isinstance(interaction.channel, discord.TextChannel)
            side = await interaction.channel.create_thread(
                name="side", type=discord.ChannelType.public_thread
            )
            await side.send("side talk")

        @tree.command(description="Answers once the test opens the gate")
        async def gate(interaction: discord.Interaction) -> None:
            await self.gate.wait()
            try:
                await interaction.response.send_message("through")
                self.outcomes.append("ok callback")
            except discord.HTTPException as e:
                self.outcomes.append(f"{e.status} {e.code}")

        @tree.command(description="Defers, then follows up and edits once the test opens the gate")
        async def later(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await self.gate.wait()
            for what, step in (
                ("followup", lambda: interaction.followup.send("done")),
                ("edit", lambda: interaction.edit_original_response(content="edited")),
            ):
                try:
                    await step()
                    self.outcomes.append(f"ok {what}")
                except discord.HTTPException as e:
                    self.outcomes.append(f"{e.status} {e.code}")

        @tree.command(description="Fails on purpose")
        async def boom(interaction: discord.Interaction) -> None:
            raise RuntimeError("boom")

        @tree.command(description="Admin only")
        @app_commands.default_permissions(manage_guild=True)
        async def config(interaction: discord.Interaction) -> None:
            allowed = interaction.permissions.manage_guild
            await interaction.response.send_message(f"admin={allowed}", ephemeral=True)

        @tree.command(description="Autocompleted card name")
        async def card(interaction: discord.Interaction, name: str) -> None:
            await interaction.response.send_message(f"card {name}")

        @card.autocomplete("name")
        async def card_names(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return [
                app_commands.Choice(name=n, value=n) for n in self.closed_card_names if n.startswith(current)
            ]

        game = app_commands.Group(name="game", description="Game commands")

        @game.command(description="Show the status")
        @app_commands.choices(detail=[app_commands.Choice(name=n, value=n) for n in ("short", "long")])
        async def status(
            interaction: discord.Interaction, detail: str, who: discord.Member | None = None
        ) -> None:
            name = who.name if who else "nobody"
            await interaction.response.send_message(f"status {detail} {name}")

        tree.add_command(game)

        @tree.command(description="Options with registered limits")
        @app_commands.choices(size=[app_commands.Choice(name=n, value=n) for n in ("small", "large")])
        async def limits(
            interaction: discord.Interaction,
            count: app_commands.Range[int, 0, 10] = 0,
            ratio: app_commands.Range[float, 0.5, 2.0] = 1.0,
            word: app_commands.Range[str, 2, 5] = "ok",
            size: str = "small",
        ) -> None:
            await interaction.response.send_message(f"limits {count} {ratio:g} {word} {size}")

        @app_commands.command(description="A guild-only command")
        async def local(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"guild {interaction.guild_id}")

        tree.add_command(local, guild=discord.Object(self.guild_id))


@pytest.fixture
async def bot(fake: FakeDiscord) -> Any:
    """The test bot, READY against the fake."""
    client = MiniBot(fake.guild.id)
    async with running_bot(client, fake):
        yield client


async def test_login_ready_and_guild_create(fake: FakeDiscord) -> None:
    alice = fake.add_user("alice")
    client = MiniBot(fake.guild.id)
    async with running_bot(client, fake):
        assert client.user is not None and client.user.id == fake.bot_user.id
        assert client.application_id == fake.application_id
        guild = client.get_guild(fake.guild.id)
        assert guild is not None and guild.name == fake.guild.name
        assert guild.member_count == len(fake.guild.members) == 3
        assert guild.get_channel(fake.channel.id) is not None
        assert guild.default_role.id == fake.guild.id
        assert client.ready_count == 1
        assert fake.gateway.identifies == 1 and fake.gateway.heartbeats >= 1
        assert alice.id in fake.guild.members
    assert not fake.gateway.reachable


async def test_commands_bot_works_too(fake: FakeDiscord) -> None:
    alice = fake.add_user("alice")
    client = commands.Bot(command_prefix="!", **make_client_kwargs())

    @client.tree.command(description="Ping")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong", ephemeral=True)

    async with running_bot(client, fake):
        await client.tree.sync()
        reply = await (await fake.slash(alice, fake.channel, "ping")).wait_reply()
        assert reply.content == "pong" and reply.visible_to == alice.id


async def test_command_sync_recorded(fake: FakeDiscord, bot: MiniBot) -> None:
    names = {c.name for c in fake.commands.values() if c.guild_id is None}
    assert {"hello", "secret", "slow", "board", "counter", "lobby", "game", "config", "card"} <= names
    assert fake.command("local", fake.guild.id).guild_id == fake.guild.id
    status = fake.command("game").data["options"][0]
    assert status["name"] == "status" and status["type"] == 1
    assert int(fake.command("config").data["default_member_permissions"]) == 1 << 5
    assert fake.command_syncs == 2


async def test_public_message_with_embed_and_image(fake: FakeDiscord, bot: MiniBot) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    ix = await fake.slash(alice, fake.channel, "hello", {"name": "Ada"})
    msg = await ix.wait_reply()
    assert ix.callback_type == 4 and not msg.ephemeral
    assert msg.content == "hi Ada" and msg.embeds[0]["title"] == "Hello Ada"
    assert msg.embeds[0]["image"]["url"] == "attachment://board.png"
    png = msg.attachment("board.png")
    assert png.data == PNG and png.content_type == "image/png"
    assert msg.answered_user_id == alice.id and msg.author.id == fake.bot_user.id
    assert msg in fake.visible(bob, fake.channel) and fake.latest(fake.channel) is msg
    async with (
        aiohttp.ClientSession() as session,
        session.get(png.to_json(fake.url, msg.channel_id)["url"]) as r,
    ):
        assert await r.read() == PNG


async def test_ephemeral_seen_only_by_invoker(fake: FakeDiscord, bot: MiniBot) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    msg = await (await fake.slash(alice, fake.channel, "secret")).wait_reply()
    assert msg.ephemeral and msg.visible_to == alice.id and msg.content == "only you"
    assert fake.visible(alice, fake.channel) == [msg] == fake.seen_by(alice)
    assert fake.visible(bob, fake.channel) == [] and fake.public(fake.channel) == []
    assert fake.public_messages() == [] and fake.seen_by(bob) == []


async def test_deferred_followups_and_original_edit(fake: FakeDiscord, bot: MiniBot) -> None:
    alice = fake.add_user("alice")
    ix = await fake.slash(alice, fake.channel, "slow")
    await ix.wait_edits(1)
    assert ix.callback_type == 5
    original, second = ix.messages
    assert original.content == "filled and edited" and not original.loading
    assert second.content == "second" and second.attachment("x.png").data == PNG
    assert [kind for kind, _ in ix.events] == ["callback", "followup", "followup", "edit"]
    assert original.history[-1]["content"] == "filled"
    assert await ix.wait_followup(1) is second


async def test_persistent_button_edit_and_ephemeral(fake: FakeDiscord, bot: MiniBot) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    board = await (await fake.slash(alice, fake.channel, "board")).wait_reply()
    assert [b["label"] for b in board.buttons] == ["Next", "Hand", "Later", "Feedback"]
    ix = await fake.click(bob, board, "Next")
    assert await ix.wait_reply() is board
    assert ix.callback_type == 7 and board.content == "turn 2" and board.buttons
    hand = await (await fake.click(bob, board, "Hand")).wait_reply()
    assert hand.ephemeral and hand.visible_to == bob.id and hand.content == "hand of bob"
    assert hand not in fake.visible(alice, fake.channel)
    with pytest.raises(PermissionError):
        await fake.click(alice, hand, "anything")


async def test_deferred_update_then_channel_edit(fake: FakeDiscord, bot: MiniBot) -> None:
    alice = fake.add_user("alice")
    board = await (await fake.slash(alice, fake.channel, "board")).wait_reply()
    ix = await fake.click(alice, board, "Later")
    assert await ix.wait_reply() is board
    assert ix.callback_type == 6 and board.content == "later" and board.edit_count == 1


async def test_stale_snapshot_and_concurrent_presses(fake: FakeDiscord, bot: MiniBot) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    board = await (await fake.slash(alice, fake.channel, "board")).wait_reply()
    old = board.snapshot()
    await (await fake.click(alice, board, "Next")).wait_reply()
    stale = await fake.click(bob, old, "Next")  # bob's client still showed "turn 1"
    assert stale.payload["message"]["content"] == "turn 1"
    await stale.wait_reply()
    assert board.content == "turn 2" and board.edit_count == 2  # this bot trusts the stale message
    first, second = await asyncio.gather(fake.click(alice, board, "Next"), fake.click(bob, board, "Next"))
    await first.wait_reply()
    await second.wait_reply()
    assert first.payload["message"]["content"] == "turn 2"
    seen_by_second = int(second.payload["message"]["content"].split()[-1])
    assert board.content == f"turn {seen_by_second + 1}" and board.edit_count == 4


async def test_history_and_user_messages(fake: FakeDiscord, bot: MiniBot) -> None:
    alice = fake.add_user("alice")
    channel = bot.get_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel)
    for i in range(5):
        await channel.send(f"m{i}")
    assert [m.content async for m in channel.history(limit=3)] == ["m4", "m3", "m2"]
    first = fake.public(fake.channel)[0]
    assert [m.content async for m in channel.history(after=first, limit=2)] == ["m1", "m2"]
    await fake.post(alice, fake.channel, "no content intent")
    await fake.post(alice, fake.channel, f"{fake.bot_user.mention} mentioned")
    await fake.wait_until(lambda: len(bot.seen) == 7)
    assert bot.seen[-2:] == [(alice.id, ""), (alice.id, f"<@{fake.bot_user.id}> mentioned")]


async def test_select_menu(fake: FakeDiscord, bot: MiniBot) -> None:
    alice = fake.add_user("alice")
    board = await (await fake.slash(alice, fake.channel, "board")).wait_reply()
    assert board.option_values("Pick a card") == {"Card a": "a", "Card b": "b", "Card c": "c"}
    reply = await (await fake.select(alice, board, ["b"], placeholder="Pick a card")).wait_reply()
    assert reply.content == "picked b" and reply.ephemeral
    with pytest.raises(ValueError):
        await fake.select(alice, board, ["z"])


async def test_modal_submit(fake: FakeDiscord, bot: MiniBot) -> None:
    alice = fake.add_user("alice")
    board = await (await fake.slash(alice, fake.channel, "board")).wait_reply()
    opened = await (await fake.click(alice, board, "Feedback")).wait_callback()
    assert opened.callback_type == 9 and opened.modal is not None and opened.modal["title"] == "Feedback"
    reply = await (await fake.submit_modal(alice, opened, {"fb:text": "nice"})).wait_reply()
    assert reply.content == "thanks: nice"


async def test_dynamic_item_survives_restart(fake: FakeDiscord) -> None:
    alice = fake.add_user("alice")
    async with running_bot(MiniBot(fake.guild.id), fake):
        msg = await (await fake.slash(alice, fake.channel, "counter", {"start": 5})).wait_reply()
        await (await fake.click(alice, msg, "Count 5")).wait_reply()
        board = await (await fake.slash(alice, fake.channel, "board")).wait_reply()
    assert msg.content == "count 6"
    with pytest.raises(RuntimeError):
        await fake.click(alice, msg, "Count 6")  # nobody connected
    async with running_bot(MiniBot(fake.guild.id), fake):
        ix = await fake.click(alice, msg, "Count 6")
        assert (await ix.wait_reply()).content == "count 7"
        assert msg.buttons[0]["custom_id"] == "counter:7"
        await (await fake.click(alice, board, "Next")).wait_reply()
        assert board.content == "turn 2"
    assert fake.gateway.identifies == 2


async def test_threads(fake: FakeDiscord, bot: MiniBot) -> None:
    alice = fake.add_user("alice")
    ix = await fake.slash(alice, fake.channel, "lobby")
    msg = await ix.wait_reply()
    await fake.wait_until(
        lambda: len(fake.threads(fake.channel)) == 2 and fake.message_count(fake.threads()[1].id)
    )
    lobby, side = fake.threads(fake.channel)
    assert lobby.id == msg.id == msg.thread_id and lobby.name == "Lobby" and lobby.type == 11
    assert [m.content for m in fake.visible(alice, lobby)] == ["welcome"]
    assert fake.latest(lobby).attachment("t.png").data == PNG
    assert side.type == 11 and fake.latest(side).content == "side talk"
    await fake.wait_until(lambda: bot.get_channel(side.id) is not None)
    thread = bot.get_channel(lobby.id)
    assert isinstance(thread, discord.Thread)
    board = fake.message((await thread.send("turn 1", view=BoardView())).id)
    await (await fake.click(alice, board, "Next")).wait_reply()
    assert board.content == "turn 2" and board.channel_id == lobby.id
    reply = await (await fake.slash(alice, lobby, "secret")).wait_reply()
    assert reply.channel_id == lobby.id and reply.ephemeral


async def test_resume_after_dropped_connection(fake: FakeDiscord, bot: MiniBot) -> None:
    alice = fake.add_user("alice")
    board = await (await fake.slash(alice, fake.channel, "board")).wait_reply()
    session = fake.gateway.current
    assert session is not None
    await fake.drop_connection()
    ix = await fake.click(alice, board, "Next")  # dispatched while down: replayed on RESUME
    await fake.wait_until(lambda: session.resumes == 1 and fake.gateway.connected)
    assert (await ix.wait_reply()).content == "turn 2"
    await fake.request_reconnect()
    await fake.wait_until(lambda: session.resumes == 2 and fake.gateway.connected)
    await (await fake.click(alice, board, "Next")).wait_reply()
    assert board.content == "turn 3"
    await fake.wait_until(lambda: bot.resumed_count == 2)
    assert fake.gateway.identifies == 1 and bot.ready_count == 1


async def test_subcommand_options_and_member_resolution(fake: FakeDiscord, bot: MiniBot) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    reply = await (
        await fake.slash(alice, fake.channel, "game status", {"detail": "long", "who": bob})
    ).wait_reply()
    assert reply.content == "status long bob"
    with pytest.raises(ValueError):
        await fake.slash(alice, fake.channel, "game status", {"detail": "medium"})
    with pytest.raises(ValueError):
        await fake.slash(alice, fake.channel, "game")
    local = await (await fake.slash(alice, fake.channel, "local")).wait_reply()
    assert local.content == f"guild {fake.guild.id}"


async def test_registered_option_limits_are_enforced_as_discord_does(fake: FakeDiscord, bot: MiniBot) -> None:
    alice = fake.add_user("alice")
    spec = {o["name"]: o for o in fake.command("limits").data["options"]}
    assert (spec["count"]["min_value"], spec["count"]["max_value"]) == (0, 10)
    assert (spec["word"]["min_length"], spec["word"]["max_length"]) == (2, 5)
    ok = {"count": 10, "ratio": 0.5, "word": "abcde", "size": "large"}
    assert (await (await fake.slash(alice, fake.channel, "limits", ok)).wait_reply()).content == (
        "limits 10 0.5 abcde large"
    )
    refused = {
        "count": (-1, "NUMBER_TYPE_MIN", "int value should be greater than or equal to 0."),
        "ratio": (2.5, "NUMBER_TYPE_MAX", "float value should be less than or equal to 2.0."),
        "word": ("abcdef", "BASE_TYPE_BAD_LENGTH", "Must be between 2 and 5 in length."),
        "size": ("medium", "BASE_TYPE_CHOICES", "Value must be one of {'small', 'large'}."),
    }
    heard = len(fake.interactions)
    for name, (value, code, words) in refused.items():
        with pytest.raises(InvalidOption) as caught:
            await fake.slash(alice, fake.channel, "limits", {"word": "abc", name: value})
        err = caught.value
        assert (err.status, err.code, err.error_code, err.error) == (400, 50035, code, words)
        index = 0 if name == "word" else 1  # the options in the order given
        body = err.to_json()
        assert body["message"] == "Invalid Form Body"
        assert body["errors"]["data"]["options"][str(index)]["value"]["_errors"] == [
            {"code": code, "message": words}
        ]
    assert len(fake.interactions) == heard  # nothing reached the bot
    old = await fake.slash(alice, fake.channel, "limits", {"count": -1}, check_options=False)
    assert (await old.wait_reply()).content == "limits -1 1 ok small"  # an older registration: the bot's job


async def test_autocomplete(fake: FakeDiscord, bot: MiniBot) -> None:
    alice = fake.add_user("alice")
    ix = await fake.autocomplete(alice, fake.channel, "card", {"name": "Ki"}, focused="name")
    await ix.wait_callback()
    assert ix.callback_type == 8 and [c["value"] for c in ix.choices] == ["King", "Kite"]


async def test_admin_permissions(fake: FakeDiscord, bot: MiniBot) -> None:
    admin, bob = fake.add_user("admin", admin=True), fake.add_user("bob")
    assert (await (await fake.slash(admin, fake.channel, "config")).wait_reply()).content == "admin=True"
    with pytest.raises(PermissionError):
        await fake.slash(bob, fake.channel, "config")
    reply = await (await fake.slash(bob, fake.channel, "config", check_permissions=False)).wait_reply()
    assert reply.content == "admin=False"


async def test_second_callback_is_refused(fake: FakeDiscord, bot: MiniBot) -> None:
    alice = fake.add_user("alice")
    ix = await (await fake.slash(alice, fake.channel, "secret")).wait_callback()
    url = f"{fake.api_base}/interactions/{ix.id}/{ix.token}/callback"
    async with aiohttp.ClientSession() as session, session.post(url, json={"type": 4, "data": {}}) as r:
        assert r.status == 400 and r.headers["Content-Type"] == "application/json"
        assert (await r.json())["code"] == 40060
    assert ix.rejected_callbacks == 1 and len(ix.messages) == 1
    assert len(fake.rejected) == 1
    fake.rejected.clear()


async def test_unknown_message_is_404_json(fake: FakeDiscord, bot: MiniBot) -> None:
    channel = bot.get_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.NotFound) as err:
        await channel.fetch_message(1234)
    assert err.value.code == 10008
    sent = await channel.send("plain", file=discord.File(io.BytesIO(PNG), "p.png", description="p"))
    assert fake.latest(fake.channel).id == sent.id and sent.attachments[0].filename == "p.png"
    assert (await channel.fetch_message(sent.id)).content == "plain"
    await sent.edit(content="edited")
    assert fake.message(sent.id).content == "edited"
    await sent.delete()
    assert fake.message(sent.id).deleted and fake.public(fake.channel) == []


async def test_channel_created_while_connected(fake: FakeDiscord, bot: MiniBot) -> None:
    alice = fake.add_user("alice")
    games = await fake.create_channel("games")
    await fake.wait_until(lambda: bot.get_channel(games.id) is not None)
    reply = await (await fake.slash(alice, games, "hello", {"name": "x"})).wait_reply()
    assert reply.channel_id == games.id and fake.latest(games) is reply


async def test_direct_message(fake: FakeDiscord, bot: MiniBot) -> None:
    alice = fake.add_user("alice")
    user = await bot.fetch_user(alice.id)
    await user.send("your turn")
    dm = next(c for c in fake.channels.values() if c.recipient is alice)
    assert fake.latest(dm).content == "your turn"


async def test_callback_errors_are_caught(
    fake: FakeDiscord, bot: MiniBot, error_logs: ErrorLogCapture
) -> None:
    alice = fake.add_user("alice")
    ix = await fake.slash(alice, fake.channel, "boom")
    await fake.wait_until(lambda: error_logs.records)
    assert "boom" in error_logs.report() or any("boom" in str(r.exc_info) for r in error_logs.records)
    assert not ix.acknowledged
    with pytest.raises(FakeTimeout):
        await ix.wait_callback(timeout=0.05)
    error_logs.records.clear()


async def test_discord_limits_are_enforced(fake: FakeDiscord) -> None:
    url = f"{fake.api_base}/channels/{fake.channel.id}/messages"
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": "x"}]}
    bodies = {
        "six rows": {"components": [row] * 6},
        "long content": {"content": "x" * 2001},
        "empty": {"content": ""},
        "26 options": {"components": [{"type": 1, "components": [_select(26)]}]},
    }
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {fake.token}"}) as session:
        for body in bodies.values():
            async with session.post(url, json=body) as r:
                assert r.status == 400 and (await r.json())["code"] in (50035, 50006)
        commands = f"{fake.api_base}/applications/{fake.application_id}/commands"
        async with session.put(commands, json=[{"name": "Bad Name", "description": "d"}]) as r:
            assert r.status == 400
    assert len(fake.rejected) == 5 and fake.public(fake.channel) == [] and not fake.commands
    fake.rejected.clear()


def _select(n: int) -> dict[str, Any]:
    return {"type": 3, "custom_id": "s", "options": [{"label": str(i), "value": str(i)} for i in range(n)]}


async def test_late_callback_is_unknown_interaction(
    fake: FakeDiscord, bot: MiniBot, error_logs: ErrorLogCapture
) -> None:
    alice = fake.add_user("alice")
    fake.callback_deadline = 0.0
    ix = await fake.slash(alice, fake.channel, "secret")
    await fake.wait_until(lambda: ix.late and error_logs.records, what="the bot logging the 404")
    assert "Unknown interaction" in str(error_logs.records[0].exc_info)
    assert not ix.acknowledged
    error_logs.records.clear()


async def test_unimplemented_routes_are_recorded() -> None:
    async with FakeDiscord() as fake:
        async with aiohttp.ClientSession() as session, session.get(f"{fake.api_base}/voice/regions") as r:
            assert r.status == 404
        assert fake.unimplemented == ["GET /api/v10/voice/regions"]


def test_error_capture_sees_discord_loggers() -> None:
    with capture_error_logs() as handler:
        import logging

        logging.getLogger("discord.ui.view").error("Ignoring exception in view")
    assert len(handler.records) == 1


# --- Discord's clock: the 3-second deadline and the 15-minute token ---------------------------------------


async def test_three_second_deadline_is_enforced_by_default(fake: FakeDiscord, bot: MiniBot) -> None:
    assert FakeDiscord().callback_deadline == INTERACTION_DEADLINE == 3.0
    alice = fake.add_user("alice")
    in_time = await fake.slash(alice, fake.channel, "gate")
    fake.advance(2.5)  # in time with half a second of real time to spare (a busy CI machine is slow)
    bot.gate.set()
    assert (await in_time.wait_reply()).content == "through"
    bot.gate.clear()
    late = await fake.slash(alice, fake.channel, "gate")
    fake.advance(3.1)  # the bot took longer than 3 s to answer: Discord has dropped the interaction
    bot.gate.set()
    await fake.wait_until(lambda: len(bot.outcomes) == 2)
    assert bot.outcomes == ["ok callback", "404 10062"] and late.late and not late.acknowledged
    assert fake.late_interactions() == [late] and (404, 10062, f"POST {_callback_path(late)}") in fake.errors
    late.late = False  # the fixture fails a test whose bot answered late; this one did it on purpose


async def test_a_slow_test_can_opt_out_of_the_deadline(error_logs: ErrorLogCapture) -> None:
    async with FakeDiscord(callback_deadline=None) as fake:
        alice = fake.add_user("alice")
        async with running_bot(MiniBot(fake.guild.id), fake) as bot:
            ix = await fake.slash(alice, fake.channel, "gate")
            fake.advance(60)
            bot.gate.set()
            assert (await ix.wait_reply()).content == "through" and not ix.late


async def test_interaction_token_expires_after_15_minutes(fake: FakeDiscord, bot: MiniBot) -> None:
    assert TOKEN_LIFETIME == 15 * 60
    alice = fake.add_user("alice")
    fresh = await (await fake.slash(alice, fake.channel, "later")).wait_callback()
    fake.advance(14 * 60)  # 14 minutes on: follow-ups and edits still work
    bot.gate.set()
    await fresh.wait_edits(1)
    assert bot.outcomes == ["ok followup", "ok edit"] and fresh.original.content == "edited"
    bot.gate.clear()
    stale = await (await fake.slash(alice, fake.channel, "later")).wait_callback()
    fake.advance(15 * 60 + 1)
    bot.gate.set()
    await fake.wait_until(lambda: len(bot.outcomes) == 4)
    assert bot.outcomes[2:] == ["401 50027", "401 50027"]  # Invalid Webhook Token, as from Discord
    assert stale.original is not None and stale.original.loading and not stale.followups


def _callback_path(ix: Any) -> str:
    return f"/api/v10/interactions/{ix.id}/{ix.token}/callback"


# --- allowed_mentions: who is really pinged ---------------------------------------------------------------


async def test_allowed_mentions_decide_who_is_pinged(fake: FakeDiscord, bot: MiniBot) -> None:
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    channel = bot.get_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel)
    both = f"{alice.mention} {bob.mention}"
    default = fake.message((await channel.send(both)).id)  # no allowed_mentions: every mention pings
    assert default.pinged(alice) and default.pinged(bob) and not default.pinged(carol)
    only_alice = await channel.send(
        both, allowed_mentions=discord.AllowedMentions(users=[discord.Object(alice.id)])
    )
    suppressed = fake.message(only_alice.id)
    assert suppressed.pinged(alice) and not suppressed.pinged(bob)
    assert suppressed.mention_ids == [alice.id, bob.id]  # both are written in the content...
    assert [u.id for u in only_alice.mentions] == [alice.id]  # ...only the live one is a mention
    silent = fake.message((await channel.send(both, allowed_mentions=discord.AllowedMentions.none())).id)
    assert silent.pings == set() and not silent.mentioned_users
    in_embed = await channel.send(embed=discord.Embed(description=both))  # embeds never ping
    assert fake.message(in_embed.id).pings == set()
    plain = await channel.send("no one yet")
    await plain.edit(content=f"now {carol.mention}")  # a mention added by an edit notifies nobody
    assert not fake.message(plain.id).pinged(carol) and fake.message(plain.id).mentioned_users == (carol.id,)
    assert fake.pings(alice) == [default, suppressed] and fake.pings(bob, fake.channel) == [default]


async def test_reply_everyone_and_role_pings(fake: FakeDiscord, bot: MiniBot) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    channel = bot.get_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel)
    said = await fake.post(alice, fake.channel, "hello bot")
    await fake.wait_until(lambda: channel.last_message_id == said.id)
    question = channel.get_partial_message(said.id)
    replied = await question.reply("hi")  # a reply pings its author unless told otherwise
    quiet = await question.reply("hi", mention_author=False)
    assert fake.message(replied.id).pinged(alice) and not fake.message(quiet.id).pinged(alice)
    everyone = await channel.send("@everyone games tonight")  # needs Mention Everyone
    assert fake.message(everyone.id).pings == set() and not everyone.mention_everyone
    await fake.set_permissions(fake.channel, allow=models.MENTION_EVERYONE)
    everyone = await channel.send("@everyone games tonight")
    assert fake.message(everyone.id).pings == {fake.owner.id, alice.id, bob.id} and everyone.mention_everyone
    role = models.FakeRole(models.snowflake(), "players", 0, mentionable=True)
    fake.guild.roles[role.id] = role
    fake.guild.members[bob.id].role_ids.append(role.id)
    call = f"<@&{role.id}> your turn"
    assert fake.message((await channel.send(call)).id).pings == {bob.id}
    no_roles = discord.AllowedMentions(roles=False)
    assert fake.message((await channel.send(call, allowed_mentions=no_roles)).id).pings == set()
    secret = await (await fake.slash(alice, fake.channel, "secret")).wait_reply()
    assert secret.pings == set()  # an ephemeral message notifies nobody


async def test_contradictory_allowed_mentions_are_refused(fake: FakeDiscord) -> None:
    url = f"{fake.api_base}/channels/{fake.channel.id}/messages"
    body = {"content": "<@1>", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}
    async with aiohttp.ClientSession() as session, session.post(url, json=body) as r:
        assert r.status == 400 and (await r.json())["code"] == 50035
    assert len(fake.rejected) == 1 and "mutually exclusive" in fake.rejected[0]
    fake.rejected.clear()


# --- the bot's channel permissions ------------------------------------------------------------------------


async def test_missing_permissions_are_refused_as_discord_does(fake: FakeDiscord, bot: MiniBot) -> None:
    alice = fake.add_user("alice")
    channel = bot.get_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel)
    await fake.set_permissions(fake.channel, deny=models.ATTACH_FILES | models.EMBED_LINKS)
    await fake.wait_until(lambda: not channel.permissions_for(channel.guild.me).attach_files)
    for kwargs in (
        {"file": discord.File(io.BytesIO(PNG), "b.png", description="b")},
        {"embed": discord.Embed(title="t")},
    ):
        with pytest.raises(discord.Forbidden) as err:
            await channel.send("board", **kwargs)
        assert err.value.status == 403 and err.value.code == 50013 and err.value.text == "Missing Permissions"
    text = await channel.send("plain text still works")
    with pytest.raises(discord.Forbidden):
        await text.edit(attachments=[discord.File(io.BytesIO(PNG), "b.png", description="b")])
    assert [m.content for m in fake.public(fake.channel)] == ["plain text still works"]
    ix = await fake.slash(alice, fake.channel, "secret")
    assert int(ix.payload["app_permissions"]) & models.ATTACH_FILES == 0
    await ix.wait_reply()  # interaction responses are not the bot's channel messages: they still work
    await fake.set_permissions(fake.channel)  # overwrite removed
    await fake.wait_until(lambda: channel.permissions_for(channel.guild.me).attach_files)
    await channel.send("board", file=discord.File(io.BytesIO(PNG), "b.png", description="b"))


async def test_thread_and_view_permissions(fake: FakeDiscord, bot: MiniBot) -> None:
    channel = bot.get_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel)
    await fake.set_permissions(fake.channel, deny=models.CREATE_PUBLIC_THREADS)
    with pytest.raises(discord.Forbidden):
        await channel.create_thread(name="t", type=discord.ChannelType.public_thread)
    await fake.set_permissions(fake.channel, deny=models.SEND_MESSAGES_IN_THREADS)
    thread = await channel.create_thread(name="t", type=discord.ChannelType.public_thread)
    await channel.send("the channel itself is fine")
    with pytest.raises(discord.Forbidden) as err:
        await thread.send("but not its threads")
    assert err.value.code == 50013
    # @everyone may not see the channel, the bot's own overwrite lets it: the member overwrite wins
    await fake.set_permissions(fake.channel, fake.guild, deny=models.VIEW_CHANNEL)
    await fake.set_permissions(fake.channel, allow=models.VIEW_CHANNEL)
    await channel.send("seen")
    await fake.set_permissions(fake.channel)
    with pytest.raises(discord.Forbidden) as err:
        await channel.send("unseen")
    assert err.value.code == 50001 and err.value.text == "Missing Access"
    assert [m.content for m in fake.public(fake.channel)] == ["the channel itself is fine", "seen"]


# --- Components V2 ---------------------------------------------------------------------------------------


def _layout(*items: discord.ui.Item[Any]) -> discord.ui.LayoutView:
    view = discord.ui.LayoutView(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def _v2_errors(*components: dict[str, Any]) -> list[str]:
    return limits.message_errors({"flags": 1 << 15, "components": list(components)}, 0, new=True)


async def test_v2_layout_is_read_like_discord(fake: FakeDiscord, bot: MiniBot) -> None:
    alice = fake.add_user("alice")
    channel = bot.get_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel)
    png = discord.File(io.BytesIO(PNG), "board.png")
    gallery = discord.ui.MediaGallery(
        discord.MediaGalleryItem(png.uri, description="Omphala board. Ada to play")
    )
    button = discord.ui.Button[Any](label="Look", custom_id="look")
    go = discord.ui.Button[Any](label="Go", custom_id="go")
    section = discord.ui.Section(discord.ui.TextDisplay("beside"), accessory=go)
    body = discord.ui.Container(discord.ui.TextDisplay(f"{alice.mention} — your turn"), gallery, section)
    view = _layout(body, discord.ui.ActionRow(button))
    sent = await channel.send(view=view, file=png, allowed_mentions=discord.AllowedMentions(users=True))
    message = fake.message(sent.id)
    assert message.v2 and message.content == "" and sent.flags.components_v2
    assert "your turn" in message.text() and "beside" in message.text()
    assert message.pinged(alice)  # a mention in a text display pings
    assert [b["label"] for b in message.buttons] == ["Go", "Look"]  # an accessory, then the action row
    assert message.alt("board.png") == "Omphala board. Ada to play" and not fake.unlabelled
    await sent.edit(view=_layout(discord.ui.TextDisplay(f"{alice.mention} edited")), attachments=[])
    assert fake.message(sent.id).v2 and fake.message(sent.id).text() == f"{alice.mention} edited"


async def test_v2_rules_are_enforced(fake: FakeDiscord, bot: MiniBot) -> None:
    channel = bot.get_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel)
    refused = [
        ({"content": "no", "view": _layout(discord.ui.TextDisplay("hello"))}, "content"),
        ({"view": _layout(*[discord.ui.TextDisplay("x" * 1500) for _ in range(3)])}, "4000 characters"),
        (
            {"view": _layout(discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://gone.png")))},
            "names no attachment",
        ),
    ]
    for kwargs, why in refused:
        with pytest.raises(discord.HTTPException) as err:
            await channel.send(**kwargs)
        assert err.value.code == 50035 and why in fake.rejected[-1]
    fake.rejected.clear()

    def row(i: int) -> dict[str, Any]:
        return {"type": 1, "components": [{"type": 2, "style": 1, "label": "a", "custom_id": f"a{i}"}]}

    assert _v2_errors(*[row(i) for i in range(20)]) == []  # discord.py counts to 40 itself: raw bodies here
    assert _v2_errors(*[row(i) for i in range(21)]) == ["components: 42 > 40 components in all"]
    nested = {"type": 17, "components": [{"type": 17, "components": [{"type": 10, "content": "x"}]}]}
    assert "not allowed here" in " ".join(_v2_errors(nested))
    assert "accessory: required" in " ".join(
        _v2_errors({"type": 9, "components": [{"type": 10, "content": "x"}]})
    )
    classic = await channel.send("classic", embed=discord.Embed(title="t"))
    with pytest.raises(discord.HTTPException):  # the flag is not added to a message still showing an embed
        await classic.edit(view=_layout(discord.ui.TextDisplay("v2 now")))
    assert "cannot be set" in fake.rejected[-1]
    await classic.edit(content=None, embed=None, view=_layout(discord.ui.TextDisplay("v2 now")))  # cleared
    v2 = await channel.send(view=_layout(discord.ui.TextDisplay("v2")))
    was_v2 = limits.Before(flags=1 << 15)  # nor taken away (discord.py never tries: a raw body)
    removed = limits.message_errors({"flags": 0, "content": "classic"}, 0, new=False, before=was_v2)
    assert removed == ["flags: the IS_COMPONENTS_V2 flag cannot be removed from a message"]
    with pytest.raises(discord.HTTPException):  # a V2 message has no embeds
        await v2.edit(embed=discord.Embed(title="t"))
    fake.rejected.clear()


async def test_an_image_without_alt_text_is_counted(fake: FakeDiscord, bot: MiniBot) -> None:
    channel = bot.get_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send(file=discord.File(io.BytesIO(PNG), "bare.png"))
    await channel.send(file=discord.File(io.BytesIO(b"x"), "notes.txt"))  # not an image: no alt text needed
    assert fake.message(sent.id).alt("bare.png") is None
    assert fake.unlabelled == [f"message {sent.id}: bare.png"]
    fake.unlabelled.clear()
