"""The fake Discord: the state (guilds, channels, members, messages, commands, interactions), the server's
lifecycle, and the simulated users' side.

    fake = FakeDiscord()
    alice = fake.add_user("alice")                 # member of the default guild; admin=True for Manage Server
    await fake.start()                             # 127.0.0.1, random free port
    ...                                            # run a real discord.py client (see client.py)
    ix = await fake.slash(alice, fake.channel, "play", {"game": "omphala"})
    msg = await ix.wait_reply()                    # the bot's answer to that interaction
    ix2 = await fake.click(alice, msg, label="Join")
    await fake.stop()

Everything the bot sends is recorded in `fake.messages[channel_id]` (ephemerals too, with the user they were
shown to); `fake.visible(user, channel)` is what that user sees. The REST routes live in rest.py, the
gateway in gateway.py.

Shards: `FakeDiscord(shard_count=4)` answers `GET /gateway/bot` with 4 shards; each gateway session that
IDENTIFYs with `shard: [id, 4]` gets only its guilds' events (gateway.py). `fake.add_guild(name, shard=2)`
makes a guild of shard 2; `await fake.deliver_everywhere(ix)` sends an interaction again to every shard's
session (every bot process), as a test of it being applied once.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Callable
from typing import Any

from aiohttp import web

from . import mentions, models
from .gateway import INTENT_GUILD_MESSAGES, INTENT_GUILDS, INTENT_MESSAGE_CONTENT, Gateway
from .interactions import build_command_data, component_data, modal_submit_data
from .models import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    BOT_PERMISSIONS,
    JSON,
    MEMBER_PERMISSIONS,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    FakeAttachment,
    FakeChannel,
    FakeCommand,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeMessage,
    FakeOverwrite,
    FakeRole,
    FakeUser,
    snowflake,
    snowflake_on_shard,
)
from .ratelimit import TEST_TIME_SCALE
from .rest import ApiError, Fault, RestApi

__all__ = ["ApiError", "FakeDiscord", "FakeTimeout"]

POLL_INTERVAL = 0.02
CHANNEL_POLL = 1.0  # wait_channel also checks this often, whatever happens (a safety net, not the wake-up)
INTERACTION_DEADLINE = 3.0  # seconds to answer an interaction (callback) before its token is invalidated
TOKEN_LIFETIME = 15 * 60.0  # seconds an interaction token serves follow-ups and edits of the response
UPLOAD_LIMIT = 10 * 1024 * 1024  # bytes of files per request on a server without boosts (Discord, 2025)


class FakeTimeout(AssertionError):
    """A wait on the fake timed out: the bot never did what the test expected."""


class FakeDiscord:
    """A local Discord (REST + gateway): one application, its guilds, channels, members and messages."""

    def __init__(
        self,
        *,
        token: str | None = None,
        guild_name: str = "Agora Test",
        bot_name: str = "Agora",
        callback_deadline: float | None = INTERACTION_DEADLINE,
        token_lifetime: float = TOKEN_LIFETIME,
        shard_count: int = 1,
        rate_limits: float = TEST_TIME_SCALE,
        check_spec: bool = True,
    ) -> None:
        """Discord's clock rules are on by default: a callback later than `callback_deadline` seconds after
        the interaction is refused with 404 Unknown interaction (10062), and follow-ups or edits through the
        token later than `token_lifetime` with 401 Invalid Webhook Token (50027). A test that must be slow
        passes `callback_deadline=None` (or sets the attribute); `advance()` moves the fake's clock.
        Discord's rate limits (ratelimit.py) are enforced with their windows times `rate_limits`: 1 is
        Discord's own (the load bench, test_rate_limits.py); the default TEST_TIME_SCALE keeps every
        limit and header but shortens the windows 100 times (real ones made two Discord test files take
        over ten minutes instead of 45 s); 0 turns them off. `check_spec=False` skips the OpenAPI check of
        request bodies (spec.py), for the load bench, where the check's CPU would share the bot's loop."""
        self.check_spec = check_spec
        self.callback_deadline = callback_deadline
        self.rate_limits = rate_limits  # Discord's rate limits (ratelimit.py): windows times this; 0: off
        self.shard_count = shard_count  # what GET /gateway/bot answers (each session routes by its own count)
        self.token_lifetime = token_lifetime
        # Bytes of files one request may upload (a server without boosts: 10 MiB since 2025); interactions
        # carry it as attachment_size_limit, and a request over it is answered 413 (40005) as Discord does.
        self.upload_limit = UPLOAD_LIMIT
        self.clock_offset = 0.0
        self.errors: list[tuple[int, int, str]] = []
        self.token = token or "fake." + secrets.token_hex(12)
        self.application_id = snowflake()
        self.bot_user = FakeUser(self.application_id, bot_name, bot=True)
        self.owner = FakeUser(snowflake(), "owner")
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user, self.owner.id: self.owner}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, list[FakeMessage]] = {}
        self.commands: dict[int, FakeCommand] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self.requests: list[tuple[str, str]] = []
        self.uploads: dict[int, FakeAttachment] = {}  # files users attached to slash commands (served by id)
        self.unimplemented: list[str] = []
        self.rejected: list[str] = []
        self.unlabelled: list[str] = []  # images the bot sent without alt text ("message <id>: <file name>")
        self.faults: list[Fault] = []  # injected by fail(): the next matching requests are answered with them
        self.command_syncs = 0
        self.gateway = Gateway(self)
        self.url = ""
        self._runner: web.AppRunner | None = None
        self._change = asyncio.Event()
        self._channel_changes: dict[int, asyncio.Event] = {}  # wait_channel's wake-ups, by channel id
        self.by_token: dict[str, FakeInteraction] = {}
        self._message_index: dict[int, FakeMessage] = {}
        self.rest = RestApi(self)
        self.guild = self.add_guild(guild_name)
        self.channel = self.add_channel("general")

    # ----------------------------------------------------------------- setup

    def add_guild(self, name: str, *, shard: int | None = None) -> FakeGuild:
        """Add a guild (with @everyone and an Admin role) whose members are the owner and the bot; of that
        shard among `shard_count` when given."""
        gid = snowflake() if shard is None else snowflake_on_shard(shard, self.shard_count)
        guild = FakeGuild(gid, name, owner_id=self.owner.id)
        guild.roles[guild.id] = FakeRole(guild.id, "@everyone", MEMBER_PERMISSIONS)
        guild.admin_role_id = snowflake()
        guild.roles[guild.admin_role_id] = FakeRole(guild.admin_role_id, "Admin", models.ADMINISTRATOR, 1)
        bot_role = FakeRole(snowflake(), self.bot_user.name, BOT_PERMISSIONS, 2)
        guild.roles[bot_role.id] = bot_role
        guild.members[self.owner.id] = FakeMember(self.owner)
        guild.members[self.bot_user.id] = FakeMember(self.bot_user, [bot_role.id])
        self.guilds[guild.id] = guild
        return guild

    def add_channel(self, name: str, guild: FakeGuild | None = None) -> FakeChannel:
        """Add a text channel to a guild (the default guild when omitted)."""
        guild = guild or self.guild
        channel = FakeChannel(snowflake(), name, guild_id=guild.id, position=len(guild.channels))
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        self.messages[channel.id] = []
        return channel

    async def create_channel(self, name: str, guild: FakeGuild | None = None) -> FakeChannel:
        """Add a text channel while a bot is connected, telling it with CHANNEL_CREATE."""
        channel = self.add_channel(name, guild)
        await self.gateway.dispatch("CHANNEL_CREATE", channel.to_json(), intent=INTENT_GUILDS)
        return channel

    def fail(
        self,
        method: str,
        path: str,
        status: int,
        code: int = 0,
        times: int = 1,
        done: bool = False,
        delay: float = 0.0,
    ) -> Fault:
        """Answer the next `times` requests whose method matches ("*": any) and whose path contains `path`
        ("": any) with an error `status` (and Discord error `code`), after `delay` seconds; status 0 only
        delays them (a slow or hung Discord); with `done` the request is carried out first (a message
        created but answered 500). The fault, whose `hits` say how many requests it answered."""
        fault = Fault(method.upper(), path, status, code, times, done, delay)
        self.faults.append(fault)
        return fault

    async def redeliver(self, ix: FakeInteraction) -> None:
        """Deliver an interaction to the bot a second time, as Discord may after a reconnect."""
        await self.gateway.dispatch("INTERACTION_CREATE", ix.payload)

    async def deliver_everywhere(self, ix: FakeInteraction) -> int:
        """Deliver an interaction again to the session of every shard, whichever guild it is of (every bot
        process hears it, each once per shard it runs); how many sessions were sent it."""
        return await self.gateway.broadcast("INTERACTION_CREATE", ix.payload)

    async def delete(self, channel: FakeChannel) -> None:
        """Delete a channel or thread (a moderator, or the bot through REST), telling the bot as Discord does
        (THREAD_DELETE or CHANNEL_DELETE)."""
        channel.deleted = True
        self.notify()
        data = channel.to_json(self.message_count(channel.id))
        if channel.is_thread:
            gone = {k: data[k] for k in ("id", "guild_id", "parent_id", "type")}
            await self.gateway.dispatch("THREAD_DELETE", gone, intent=INTENT_GUILDS)
        else:
            await self.gateway.dispatch("CHANNEL_DELETE", data, intent=INTENT_GUILDS)

    async def archive(self, thread: FakeChannel) -> None:
        """Archive a thread as Discord does after its auto-archive time, telling the bot (THREAD_UPDATE)."""
        thread.archived = True
        self.notify()
        data = thread.to_json(self.message_count(thread.id))
        await self.gateway.dispatch("THREAD_UPDATE", data, intent=INTENT_GUILDS)

    async def set_permissions(
        self,
        channel: FakeChannel,
        target: FakeUser | FakeRole | FakeGuild | None = None,
        *,
        allow: int = 0,
        deny: int = 0,
    ) -> None:
        """Set a channel's permission overwrite for a member, a role or @everyone (the guild); the bot when
        `target` is None. A thread takes its parent's. Tells a connected bot (CHANNEL_UPDATE).

            await fake.set_permissions(fake.channel, deny=models.ATTACH_FILES)   # the bot may not attach
        """
        if channel.is_thread and channel.parent_id is not None:
            channel = self.channels[channel.parent_id]
        target = target or self.bot_user
        kind = models.MEMBER_OVERWRITE if isinstance(target, FakeUser) else models.ROLE_OVERWRITE
        if allow or deny:
            channel.overwrites[target.id] = FakeOverwrite(target.id, kind, allow, deny)
        else:
            channel.overwrites.pop(target.id, None)
        self.notify()
        data = channel.to_json(self.message_count(channel.id))
        await self.gateway.dispatch("CHANNEL_UPDATE", data, intent=INTENT_GUILDS)

    def bot_permissions(self, channel: FakeChannel) -> int:
        """The bot's permissions in a channel (everything in a DM)."""
        guild = self._guild_of(channel)
        return models.ALL_PERMISSIONS if guild is None else guild.permissions_in(self.bot_user, channel)

    # ----------------------------------------------------------------- clock

    def now(self) -> float:
        """The fake's clock (monotonic seconds, moved forward by `advance`): interaction deadlines use it."""
        return time.monotonic() + self.clock_offset

    def advance(self, seconds: float) -> None:
        """Move the fake's clock forward (e.g. past an interaction token's 15 minutes) without sleeping."""
        self.clock_offset += seconds
        self.notify()

    def add_user(self, name: str, *, admin: bool = False, guild: FakeGuild | None = None) -> FakeUser:
        """Add a simulated user as a member of a guild; an admin holds the Administrator role."""
        guild = guild or self.guild
        user = FakeUser(snowflake(), name, admin=admin)
        self.users[user.id] = user
        guild.members[user.id] = FakeMember(user, [guild.admin_role_id] if admin else [])
        return user

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Serve on 127.0.0.1 on a free port."""
        self._change = asyncio.Event()
        app = web.Application(client_max_size=64 * 1024 * 1024)
        self.rest.install(app)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.url = f"http://127.0.0.1:{port}"

    async def stop(self) -> None:
        """Close every websocket and stop serving."""
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def api_base(self) -> str:
        """What discord.py's Route.BASE must be set to."""
        return f"{self.url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """The websocket URL discord.py connects to (ws://, not wss://)."""
        return "ws" + self.url.removeprefix("http") + "/gateway"

    # -------------------------------------------------------------- waiting

    def notify(self) -> None:
        """Wake everything waiting in wait_until (called on every change)."""
        self._change.set()
        self._change = asyncio.Event()

    async def wait_until(self, predicate: Callable[[], Any], timeout: float = 5.0, what: str = "") -> Any:
        """Wait until predicate() is truthy and return its value; FakeTimeout after `timeout` seconds.

        Wakes on every change of the fake, and every POLL_INTERVAL for predicates on the client's state.
        """

        def timed_out() -> str:
            extra = f"; unimplemented routes: {self.unimplemented}" if self.unimplemented else ""
            return f"timed out after {timeout}s waiting for {what or predicate}{extra}"

        return await _wait(predicate, timeout, lambda: self._change, POLL_INTERVAL, timed_out)

    def touched(self, channel_id: int | None) -> None:
        """Wake what wait_channel waits on in this channel (the REST API calls it after every request about a
        channel: a message posted, edited or deleted there, an interaction of it answered or followed up)."""
        if channel_id is not None and (event := self._channel_changes.pop(channel_id, None)) is not None:
            event.set()

    async def wait_channel(
        self,
        channel: FakeChannel | int,
        predicate: Callable[[], Any],
        timeout: float = 5.0,
        what: str = "",
        poll: float = CHANNEL_POLL,
    ) -> Any:
        """wait_until for one channel: woken only after a request about that channel (and every `poll`
        seconds), not by every change of the fake, so thousands of waiters in different channels (a load
        test) each wake only for their own. Returns predicate()'s value; FakeTimeout after `timeout`."""
        channel_id = channel if isinstance(channel, int) else channel.id

        def change() -> asyncio.Event:
            return self._channel_changes.setdefault(channel_id, asyncio.Event())

        def timed_out() -> str:
            return f"timed out after {timeout}s waiting in channel {channel_id} for {what}"

        return await _wait(predicate, timeout, change, poll, timed_out)

    # -------------------------------------------------------------- queries

    def find_message(self, message_id: int) -> FakeMessage | None:
        """A message by id (deleted ones too), or None."""
        return self._message_index.get(message_id)

    def message(self, message_id: int) -> FakeMessage:
        """A message by id (deleted ones too)."""
        try:
            return self._message_index[message_id]
        except KeyError:
            raise LookupError(f"no message {message_id}") from None

    def message_count(self, channel_id: int) -> int:
        """How many messages a channel holds."""
        return len(self.messages.get(channel_id, []))

    def visible(self, user: FakeUser, channel: FakeChannel | int) -> list[FakeMessage]:
        """What `user` sees in a channel: public messages plus their own ephemerals, oldest first."""
        channel_id = channel if isinstance(channel, int) else channel.id
        return [m for m in self.messages.get(channel_id, []) if m.visible_for(user)]

    def public(self, channel: FakeChannel | int) -> list[FakeMessage]:
        """The non-ephemeral, undeleted messages of a channel, oldest first."""
        channel_id = channel if isinstance(channel, int) else channel.id
        return [m for m in self.messages.get(channel_id, []) if not m.deleted and not m.ephemeral]

    def latest(self, channel: FakeChannel | int, user: FakeUser | None = None) -> FakeMessage:
        """The newest message in a channel that `user` sees (public only when user is None)."""
        seen = self.public(channel) if user is None else self.visible(user, channel)
        if not seen:
            raise LookupError(f"no messages in channel {channel}")
        return seen[-1]

    def all_messages(self) -> list[FakeMessage]:
        """Every message in every channel (ephemeral and deleted ones too), in creation order."""
        return sorted(self._message_index.values(), key=lambda m: m.id)

    def public_messages(self) -> list[FakeMessage]:
        """Every message anyone can see, in every channel and thread (e.g. to check no hand leaked)."""
        return [m for m in self.all_messages() if not m.deleted and not m.ephemeral]

    def seen_by(self, user: FakeUser) -> list[FakeMessage]:
        """Every message `user` can see, in every channel and thread."""
        return [m for m in self.all_messages() if m.visible_for(user)]

    def pings(self, user: FakeUser, channel: FakeChannel | int | None = None) -> list[FakeMessage]:
        """The messages whose posting notified `user` (live mentions only: one allowed_mentions suppressed
        or an edit added is not a ping), in one channel when given, oldest first."""
        channel_id = channel if isinstance(channel, int) or channel is None else channel.id
        return [
            m
            for m in self.all_messages()
            if m.pinged(user) and (channel_id is None or m.channel_id == channel_id)
        ]

    def late_interactions(self) -> list[FakeInteraction]:
        """Interactions the bot answered after the callback deadline (refused with Unknown interaction)."""
        return [ix for ix in self.interactions.values() if ix.late]

    def threads(self, parent: FakeChannel | None = None) -> list[FakeChannel]:
        """Threads (of one parent channel, when given), oldest first."""
        return [
            c for c in self.channels.values() if c.is_thread and (parent is None or c.parent_id == parent.id)
        ]

    def command(self, name: str, guild_id: int | None = None) -> FakeCommand:
        """A registered command: the guild's own first, then the global one."""
        for cmd in self.commands.values():
            if cmd.name == name and cmd.guild_id == guild_id and guild_id is not None:
                return cmd
        for cmd in self.commands.values():
            if cmd.name == name and cmd.guild_id is None:
                return cmd
        raise LookupError(
            f"command {name!r} is not registered; have {[c.name for c in self.commands.values()]}"
        )

    # ----------------------------------------------------- simulated users

    async def slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        check_permissions: bool = True,
        check_options: bool = True,
    ) -> FakeInteraction:
        """`user` runs a slash command ("game status" for a subcommand) with option values by name.

        A value outside the option's registered choices, range or length raises `InvalidOption` (Discord's
        400 Invalid Form Body) and reaches no bot, unless check_options=False (an older registration)."""
        guild = self._guild_of(channel)
        root = command.split()[0]
        cmd = self.command(root, guild.id if guild else None)
        if check_permissions and guild is not None:
            required = cmd.data.get("default_member_permissions")
            if required is not None and int(required) & ~guild.permissions_of(user):
                raise PermissionError(f"{user.name} may not see /{root} (needs permissions {required})")
        data = build_command_data(self, cmd, command, options or {}, guild, check_options=check_options)
        return await self._interact(user, channel, APPLICATION_COMMAND, data, command_name=command)

    async def autocomplete(
        self, user: FakeUser, channel: FakeChannel, command: str, options: dict[str, Any], focused: str
    ) -> FakeInteraction:
        """`user` types into option `focused` of a slash command; the bot answers with choices (type 8)."""
        guild = self._guild_of(channel)
        cmd = self.command(command.split()[0], guild.id if guild else None)
        data = build_command_data(self, cmd, command, options, guild, focused=focused)
        return await self._interact(user, channel, AUTOCOMPLETE, data, command_name=command)

    async def click(
        self, user: FakeUser, message: FakeMessage, label: str | None = None, *, custom_id: str | None = None
    ) -> FakeInteraction:
        """`user` presses a button of `message`, found by label or custom_id.

        Pass `message.snapshot()` taken earlier to press a button of an older version of the message (a
        stale menu): the interaction then carries that version, as a slow client's would.
        """
        self._check_visible(user, message)
        button = message.button(label, custom_id=custom_id)
        if button.get("disabled"):
            raise ValueError(f"button {label or custom_id!r} is disabled")
        if "custom_id" not in button:
            raise ValueError(f"button {label!r} is a link button")
        return await self._component(user, message, component_data(button["custom_id"], 2))

    async def select(
        self,
        user: FakeUser,
        message: FakeMessage,
        values: list[str],
        *,
        placeholder: str | None = None,
        custom_id: str | None = None,
    ) -> FakeInteraction:
        """`user` picks `values` (option values) in a select menu of `message`."""
        self._check_visible(user, message)
        menu = message.select(placeholder, custom_id=custom_id)
        if menu.get("disabled"):
            raise ValueError("select menu is disabled")
        allowed = {o["value"] for o in menu.get("options", [])}
        if menu.get("type", 3) == 3 and not set(values) <= allowed:
            raise ValueError(f"values {values} not among the options {sorted(allowed)}")
        data = component_data(menu["custom_id"], menu.get("type", 3), values)
        return await self._component(user, message, data)

    async def submit_modal(
        self, user: FakeUser, opened_by: FakeInteraction, values: dict[str, str]
    ) -> FakeInteraction:
        """`user` submits the modal the bot opened in answer to `opened_by`, text inputs by custom_id."""
        modal = opened_by.modal
        if modal is None:
            raise ValueError(f"interaction {opened_by.id} opened no modal")
        channel = self.channels[opened_by.channel_id]
        message = self.message(opened_by.message_id) if opened_by.message_id else None
        return await self._interact(
            user, channel, MODAL_SUBMIT, modal_submit_data(modal, values), message=message
        )

    async def post(self, user: FakeUser, channel: FakeChannel, content: str) -> FakeMessage:
        """`user` writes a plain message (dispatched as MESSAGE_CREATE)."""
        message = self.record_message(channel, user, content=content)
        guild = self._guild_of(channel)
        perms = guild.permissions_in(user, channel) if guild is not None else 0
        self.set_mentions(message, None, perms, notify=True)
        await self.dispatch_message("MESSAGE_CREATE", message)
        return message

    @staticmethod
    def _check_visible(user: FakeUser, message: FakeMessage) -> None:
        if not message.visible_for(user):
            raise PermissionError(f"{user.name} cannot see message {message.id}")

    async def _component(self, user: FakeUser, message: FakeMessage, data: JSON) -> FakeInteraction:
        channel = self.channels[message.channel_id]
        return await self._interact(user, channel, MESSAGE_COMPONENT, data, message=message)

    async def _interact(
        self,
        user: FakeUser,
        channel: FakeChannel,
        type_: int,
        data: JSON,
        *,
        message: FakeMessage | None = None,
        command_name: str = "",
    ) -> FakeInteraction:
        guild = self._guild_of(channel)
        if not self.gateway.reachable_for(guild.id if guild else None):
            raise RuntimeError(
                "no bot is connected to the fake gateway for this guild (start a client first)"
            )
        ix = FakeInteraction(
            fake=self,
            id=snowflake(),
            token="aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48),
            type=type_,
            user=user,
            guild_id=guild.id if guild else None,
            channel_id=channel.id,
            data=data,
            message_id=message.id if message else None,
            command_name=command_name,
        )
        ix.payload = self._interaction_payload(ix, channel, guild, message)
        self.interactions[ix.id] = ix
        self.by_token[ix.token] = ix
        ix.dispatched_at = self.now()
        await self.gateway.dispatch("INTERACTION_CREATE", ix.payload)
        return ix

    def _interaction_payload(
        self, ix: FakeInteraction, channel: FakeChannel, guild: FakeGuild | None, message: FakeMessage | None
    ) -> JSON:
        payload: JSON = {
            "id": str(ix.id),
            "application_id": str(self.application_id),
            "type": ix.type,
            "token": ix.token,
            "version": 1,
            "channel_id": str(channel.id),
            "channel": channel.to_json(self.message_count(channel.id)),
            "data": ix.data,
            "locale": "en-US",
            "entitlements": [],
            "attachment_size_limit": self.upload_limit,
            "context": 0 if guild else 1,
        }
        if guild is not None:
            perms = guild.permissions_in(ix.user, channel)
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": "en-US", "features": []},
                guild_locale="en-US",
                member=guild.members[ix.user.id].to_json(permissions=perms),
                app_permissions=str(guild.permissions_in(self.bot_user, channel)),
                authorizing_integration_owners={"0": str(guild.id)},
            )
        else:
            payload.update(user=ix.user.to_json(), app_permissions=str(BOT_PERMISSIONS))
            payload["authorizing_integration_owners"] = {"1": str(ix.user.id)}
        if message is not None:
            payload["message"] = message.to_json(self)
        return payload

    def _guild_of(self, channel: FakeChannel) -> FakeGuild | None:
        return self.guilds.get(channel.guild_id) if channel.guild_id is not None else None

    # ------------------------------------------------------ gateway control

    async def drop_connection(self) -> None:
        """Drop the bot's websocket as a network failure would (close code 4000); it should RESUME."""
        await self.gateway.drop(4000)

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT; the bot should reconnect and RESUME."""
        await self.gateway.send_reconnect()

    # --------------------------------------------------------- recording

    def record_message(self, channel: FakeChannel, author: FakeUser, **fields: Any) -> FakeMessage:
        message = FakeMessage(snowflake(), channel.id, channel.guild_id, author, **fields)
        self.messages.setdefault(channel.id, []).append(message)
        self._message_index[message.id] = message
        self.notify()
        return message

    def set_mentions(self, message: FakeMessage, allowed: JSON | None, perms: int, *, notify: bool) -> None:
        """Work out the live mentions of the message's content under `allowed_mentions` (None: absent) and
        the author's permissions `perms`; record who was notified when `notify` (the message is posted)."""
        message.allowed_mentions = allowed
        live = mentions.live(self, message, allowed, perms)
        message.mentioned_users, message.mentioned_roles = live.users, live.roles
        message.mention_everyone = live.everyone
        if notify:
            message.pings = mentions.notified(self, message, live)

    async def dispatch_message(self, event: str, message: FakeMessage) -> None:
        if message.ephemeral:
            return
        data = message.to_json(self)
        session = self.gateway.current
        lacks_content = session is not None and not session.intents & INTENT_MESSAGE_CONTENT
        if (
            lacks_content
            and message.author.id != self.bot_user.id
            and self.bot_user.id not in message.mention_ids
        ):
            data.update(content="", embeds=[], attachments=[], components=[])
        if event == "MESSAGE_CREATE" and message.guild_id is not None:
            guild = self.guilds[message.guild_id]
            if message.author.id in guild.members:
                data["member"] = {
                    k: v for k, v in guild.members[message.author.id].to_json().items() if k != "user"
                }
        await self.gateway.dispatch(event, data, intent=INTENT_GUILD_MESSAGES)


async def _wait(
    predicate: Callable[[], Any],
    timeout: float,
    change: Callable[[], asyncio.Event],
    poll: float,
    timed_out: Callable[[], str],
) -> Any:
    """predicate()'s first truthy value, checked after each set of the event `change()` gives (and every
    `poll` seconds); FakeTimeout with `timed_out()` after `timeout` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = predicate()
        if value:
            return value
        remaining = deadline - loop.time()
        if remaining <= 0:
            raise FakeTimeout(timed_out())
        event = change()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), min(remaining, poll))
