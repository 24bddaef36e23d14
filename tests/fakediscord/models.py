"""What the fake Discord remembers: users, guilds, channels, messages, attachments, commands, interactions.

Every record can render itself as the JSON object Discord's API v10 would return (ids as snowflake strings),
so the real discord.py client parses it. Records are plain mutable dataclasses that tests may read freely.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import mimetypes
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .server import FakeDiscord

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1420070400000

# Message flags and permission bits the fake cares about.
EPHEMERAL = 1 << 6
LOADING = 1 << 7
IS_COMPONENTS_V2 = 1 << 15  # a message laid out by its components alone
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
ALL_PERMISSIONS = (1 << 53) - 1
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
SEND_TTS_MESSAGES = 1 << 12
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
PERMISSION_NAMES = {
    ADD_REACTIONS: "Add Reactions",
    VIEW_CHANNEL: "View Channel",
    SEND_MESSAGES: "Send Messages",
    MANAGE_MESSAGES: "Manage Messages",
    EMBED_LINKS: "Embed Links",
    ATTACH_FILES: "Attach Files",
    READ_MESSAGE_HISTORY: "Read Message History",
    MENTION_EVERYONE: "Mention Everyone",
    MANAGE_THREADS: "Manage Threads",
    CREATE_PUBLIC_THREADS: "Create Public Threads",
    CREATE_PRIVATE_THREADS: "Create Private Threads",
    SEND_MESSAGES_IN_THREADS: "Send Messages in Threads",
}
# What a member loses where they cannot send messages (Discord's implicit permissions).
NEEDS_SEND = SEND_TTS_MESSAGES | MENTION_EVERYONE | EMBED_LINKS | ATTACH_FILES
# A plain member: view channels, send messages (and in threads), embed links, attach files, read history,
# add reactions, use application commands, use external emojis.
MEMBER_PERMISSIONS = (
    (1 << 10) | (1 << 11) | (1 << 38) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 6) | (1 << 31) | (1 << 18)
)
BOT_PERMISSIONS = MEMBER_PERMISSIONS | (1 << 34) | (1 << 35) | (1 << 36) | (1 << 13)  # threads, manage msgs

# Channel types.
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (10, PUBLIC_THREAD, PRIVATE_THREAD)

# Interaction types and callback types.
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

_counter = itertools.count(1)
_last_snowflake = 0


def snowflake() -> int:
    """Return a new, strictly increasing snowflake whose timestamp is now."""
    global _last_snowflake
    value = ((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22) | (next(_counter) & 0x3FFFFF)
    _last_snowflake = max(value, _last_snowflake + 1)
    return _last_snowflake


def snowflake_on_shard(shard: int, count: int) -> int:
    """A new snowflake whose guild belongs to `shard` of `count` ((id >> 22) % count == shard): its timestamp
    moved a few milliseconds ahead if need be."""
    global _last_snowflake
    value = snowflake()
    stamp = value >> 22
    if stamp % count != shard:
        stamp += (shard - stamp) % count
        value = _last_snowflake = stamp << 22
    return value


def iso_now() -> str:
    """Return the current time as Discord's ISO-8601 timestamp."""
    return datetime.now(UTC).isoformat()


@dataclass
class FakeUser:
    """A Discord user: a simulated human, or the bot itself."""

    id: int
    name: str
    bot: bool = False
    admin: bool = False

    def to_json(self) -> JSON:
        """The user object."""
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
        }

    @property
    def mention(self) -> str:
        """How a message mentions this user."""
        return f"<@{self.id}>"


@dataclass
class FakeRole:
    """A guild role; the @everyone role has the guild's id."""

    id: int
    name: str
    permissions: int
    position: int = 0
    mentionable: bool = False

    def to_json(self) -> JSON:
        """The role object."""
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": self.mentionable,
            "flags": 0,
        }


ROLE_OVERWRITE, MEMBER_OVERWRITE = 0, 1


@dataclass
class FakeOverwrite:
    """A channel's permission overwrite for a role (type 0; @everyone has the guild's id) or a member (1)."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0

    def to_json(self) -> JSON:
        """The overwrite object."""
        return {"id": str(self.id), "type": self.type, "allow": str(self.allow), "deny": str(self.deny)}


@dataclass
class FakeChannel:
    """A text channel, a thread (type 11/12, with parent_id) or a DM channel (type 1)."""

    id: int
    name: str
    type: int = GUILD_TEXT
    guild_id: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    position: int = 0
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440  # minutes (threads): 60, 1440, 4320 or 10080
    recipient: FakeUser | None = None
    thread_member_ids: set[int] = field(default_factory=set)
    deleted: bool = False
    overwrites: dict[int, FakeOverwrite] = field(default_factory=dict)

    @property
    def is_thread(self) -> bool:
        """Whether this channel is a thread."""
        return self.type in THREAD_TYPES

    @property
    def mention(self) -> str:
        """How a message mentions this channel."""
        return f"<#{self.id}>"

    def to_json(self, message_count: int = 0) -> JSON:
        """The channel object (a thread object for threads)."""
        data: JSON = {"id": str(self.id), "type": self.type, "name": self.name, "flags": 0}
        if self.type == DM:
            data["recipients"] = [self.recipient.to_json()] if self.recipient else []
            data["last_message_id"] = None
            return data
        data.update(
            guild_id=str(self.guild_id),
            position=self.position,
            permission_overwrites=[] if self.is_thread else [o.to_json() for o in self.overwrites.values()],
            nsfw=False,
            rate_limit_per_user=0,
            last_message_id=None,
        )
        if self.is_thread:
            data.update(
                parent_id=str(self.parent_id),
                owner_id=str(self.owner_id),
                message_count=message_count,
                member_count=len(self.thread_member_ids),
                total_message_sent=message_count,
                thread_metadata={
                    "archived": self.archived,
                    "locked": self.locked,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": iso_now(),
                    "invitable": True,
                    "create_timestamp": iso_now(),
                },
            )
        else:
            data.update(topic=None, parent_id=None, default_auto_archive_duration=1440)
        return data


@dataclass
class FakeMember:
    """A user's membership of a guild."""

    user: FakeUser
    role_ids: list[int] = field(default_factory=list)
    joined_at: str = field(default_factory=iso_now)

    def to_json(self, permissions: int | None = None) -> JSON:
        """The guild member object (with `permissions` as in interaction payloads, when given)."""
        data: JSON = {
            "user": self.user.to_json(),
            "nick": None,
            "avatar": None,
            "banner": None,
            "roles": [str(r) for r in self.role_ids],
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass
class FakeGuild:
    """A guild with its roles, channels and members."""

    id: int
    name: str
    owner_id: int
    roles: dict[int, FakeRole] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    admin_role_id: int = 0

    def permissions_of(self, user: FakeUser) -> int:
        """The guild-wide permissions of a member (all of them for an administrator)."""
        member = self.members[user.id]
        value = 0
        for role_id in [self.id, *member.role_ids]:
            value |= self.roles[role_id].permissions
        if value & ADMINISTRATOR or user.id == self.owner_id:
            return ALL_PERMISSIONS
        return value

    def permissions_in(self, user: FakeUser, channel: FakeChannel) -> int:
        """A member's permissions in a channel, as Discord computes them: the guild's, then the channel's
        overwrites (@everyone, the member's roles, the member); a thread uses its parent's. Without View
        Channel nothing is left; without Send Messages (in Threads, for a thread) neither are Embed Links,
        Attach Files, Mention Everyone nor TTS."""
        base = self.permissions_of(user)
        if base == ALL_PERMISSIONS:
            return base
        source = self.channels.get(channel.parent_id, channel) if channel.is_thread else channel
        overwrites = source.overwrites
        everyone = overwrites.get(self.id)
        if everyone is not None:
            base = (base & ~everyone.deny) | everyone.allow
        role_ids = set(self.members[user.id].role_ids)
        allow = deny = 0
        for ow in overwrites.values():
            if ow.type == ROLE_OVERWRITE and ow.id in role_ids:
                allow, deny = allow | ow.allow, deny | ow.deny
        base = (base & ~deny) | allow
        member = overwrites.get(user.id)
        if member is not None and member.type == MEMBER_OVERWRITE:
            base = (base & ~member.deny) | member.allow
        if not base & VIEW_CHANNEL:
            return 0
        if not base & (SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES):
            base &= ~NEEDS_SEND
        return base

    def to_json(self, message_counts: Callable[[int], int]) -> JSON:
        """The GUILD_CREATE payload: channels, threads, members, roles; member_count == members sent."""
        live = [c for c in self.channels.values() if not c.deleted]
        members = [m.to_json() for m in self.members.values()]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": [r.to_json() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": iso_now(),
            "large": False,
            "unavailable": False,
            "member_count": len(members),
            "voice_states": [],
            "members": members,
            "channels": [c.to_json() for c in live if not c.is_thread],
            "threads": [c.to_json(message_counts(c.id)) for c in live if c.is_thread and not c.archived],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


@dataclass
class FakeAttachment:
    """A file the bot uploaded (or a user attached to a slash command), with its bytes."""

    id: int
    filename: str
    data: bytes
    content_type: str
    description: str | None = None

    @classmethod
    def from_upload(cls, filename: str, data: bytes, description: str | None = None) -> FakeAttachment:
        """An attachment from a multipart upload (which arrives as octet-stream: guess from the name)."""
        content_type = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        return cls(snowflake(), filename, data, content_type, description)

    def upload_json(self, base_url: str, application_id: int) -> JSON:
        """A file a user attached to a slash command (an attachment option), as the interaction's
        `resolved.attachments` carries it: its url, on the fake's CDN path, serves the bytes."""
        url = f"{base_url}/ephemeral-attachments/{application_id}/{self.id}/{self.filename}"
        return {
            "id": str(self.id),
            "filename": self.filename,
            "content_type": self.content_type,
            "size": len(self.data),
            "url": url,
            "proxy_url": url,
            "ephemeral": True,
        }

    @property
    def is_image(self) -> bool:
        """Whether the file is an image (a screen reader needs its alt text)."""
        return self.content_type.startswith("image/")

    def to_json(self, base_url: str, channel_id: int) -> JSON:
        """The attachment object; its url serves the bytes from the fake."""
        url = f"{base_url}/attachments/{channel_id}/{self.id}/{self.filename}"
        return {
            "id": str(self.id),
            "filename": self.filename,
            "description": self.description,
            "content_type": self.content_type,
            "size": len(self.data),
            "url": url,
            "proxy_url": url,
            "ephemeral": False,
        }


_MENTION = re.compile(r"<@!?(\d+)>")


@dataclass
class FakeMessage:
    """A message as everyone (or, for an ephemeral, the one user it was shown to) sees it."""

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    interaction: FakeInteraction | None = field(default=None, repr=False)
    visible_to: int | None = None
    webhook_id: int | None = None
    thread_id: int | None = None
    reference: JSON | None = None
    deleted: bool = False
    history: list[JSON] = field(default_factory=list, repr=False)
    reactions: dict[str, set[int]] = field(default_factory=dict)
    allowed_mentions: JSON | None = field(default=None, repr=False)
    mentioned_users: tuple[int, ...] = ()
    mentioned_roles: tuple[int, ...] = ()
    mention_everyone: bool = False
    pings: set[int] = field(default_factory=set)
    nonce: str | None = None
    created: float = field(default_factory=time.monotonic, repr=False)

    @property
    def ephemeral(self) -> bool:
        """Whether only `visible_to` can see this message."""
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Whether this is a deferred response still 'thinking'."""
        return bool(self.flags & LOADING)

    @property
    def edit_count(self) -> int:
        """How many times the message was edited."""
        return len(self.history)

    @property
    def answered_user_id(self) -> int | None:
        """The user whose interaction this message answered, if any."""
        return self.interaction.user.id if self.interaction else None

    @property
    def mention_ids(self) -> list[int]:
        """The user ids mentioned in the content or text displays (live or suppressed by allowed_mentions)."""
        return [int(m) for m in _MENTION.findall(self.spoken())]

    @property
    def v2(self) -> bool:
        """Whether the message is laid out by Components V2 (the IS_COMPONENTS_V2 flag)."""
        return bool(self.flags & IS_COMPONENTS_V2)

    def text_displays(self) -> list[str]:
        """The content of every text display, in order (those inside containers and sections too)."""
        return [str(c.get("content") or "") for c in self.all_components() if c.get("type") == 10]

    def spoken(self) -> str:
        """The text Discord reads mentions from: the content, and a V2 message's text displays."""
        return "\n".join([self.content, *self.text_displays()])

    def all_components(self) -> Iterator[JSON]:
        """Every component, depth first (containers, sections and their accessories, action rows and what
        they hold)."""
        stack = list(self.components)
        while stack:
            comp = stack.pop(0)
            yield comp
            inner = list(comp.get("components") or [])
            if comp.get("accessory"):
                inner.append(comp["accessory"])
            stack[:0] = inner

    def media(self) -> list[JSON]:
        """The media items of a V2 message: media gallery items and thumbnails."""
        found: list[JSON] = []
        for comp in self.all_components():
            if comp.get("type") == 12:
                found += comp.get("items") or []
            elif comp.get("type") == 11:
                found.append(comp)
        return found

    def alt(self, filename: str) -> str | None:
        """The alt text of an attached image: the media item's description that shows it, else the
        attachment's description (None: it has none)."""
        for item in self.media():
            if (item.get("media") or {}).get("url") == f"attachment://{filename}" and item.get("description"):
                return str(item["description"])
        return self.attachment(filename).description or None

    def images_without_alt(self) -> list[str]:
        """The file names of the attached images that have no alt text."""
        return [a.filename for a in self.attachments if a.is_image and not self.alt(a.filename)]

    def pinged(self, user: FakeUser | int) -> bool:
        """Whether posting this message notified `user` (a live mention of them, of a role they hold, or
        @everyone); a mention that allowed_mentions suppressed, or one added by an edit, is no ping."""
        return (user if isinstance(user, int) else user.id) in self.pings

    def snapshot(self) -> FakeMessage:
        """A frozen copy of this version of the message (same id), e.g. to press a stale button later."""
        return dataclasses.replace(
            self,
            embeds=copy.deepcopy(self.embeds),
            components=copy.deepcopy(self.components),
            attachments=list(self.attachments),
            history=[],
            reactions={},
            pings=set(self.pings),
        )

    def visible_for(self, user: FakeUser | int) -> bool:
        """Whether `user` can see this message (public, or an ephemeral shown to them)."""
        user_id = user if isinstance(user, int) else user.id
        return not self.deleted and (not self.ephemeral or self.visible_to == user_id)

    def iter_components(self) -> Iterator[JSON]:
        """Every interactive component (buttons, selects...): in action rows, in containers, as a section's
        accessory."""
        return (c for c in self.all_components() if c.get("type") in (2, 3, 4, 5, 6, 7, 8))

    @property
    def buttons(self) -> list[JSON]:
        """The buttons, in order."""
        return [c for c in self.iter_components() if c.get("type") == 2]

    @property
    def selects(self) -> list[JSON]:
        """The select menus, in order."""
        return [c for c in self.iter_components() if c.get("type") in (3, 5, 6, 7, 8)]

    def button(self, label: str | None = None, *, custom_id: str | None = None) -> JSON:
        """The button with this label (or with this exact custom_id)."""
        for b in self.buttons:
            if label is not None and b.get("label") == label:
                return b
            if custom_id is not None and b.get("custom_id") == custom_id:
                return b
        labels = [b.get("label") for b in self.buttons]
        raise LookupError(f"no button {label or custom_id!r} on message {self.id}; buttons: {labels}")

    def select(self, placeholder: str | None = None, *, custom_id: str | None = None) -> JSON:
        """The select menu with this placeholder (or custom_id); the first one when neither is given."""
        for s in self.selects:
            if placeholder is None and custom_id is None:
                return s
            if placeholder is not None and s.get("placeholder") == placeholder:
                return s
            if custom_id is not None and s.get("custom_id") == custom_id:
                return s
        raise LookupError(f"no select {placeholder or custom_id!r} on message {self.id}")

    def option_values(self, placeholder: str | None = None) -> dict[str, str]:
        """A select menu's options as {label: value}."""
        return {o["label"]: o["value"] for o in self.select(placeholder).get("options", [])}

    def attachment(self, filename: str) -> FakeAttachment:
        """The attachment with this file name."""
        for a in self.attachments:
            if a.filename == filename:
                return a
        raise LookupError(f"no attachment {filename!r} on message {self.id}")

    def text(self) -> str:
        """Content, text displays, embed titles, descriptions and fields, for easy `in` assertions."""
        parts = [self.content, *self.text_displays()]
        for e in self.embeds:
            parts += [e.get("title") or "", e.get("description") or ""]
            parts += [f"{f.get('name', '')} {f.get('value', '')}" for f in e.get("fields", [])]
            parts.append((e.get("footer") or {}).get("text", ""))
        return "\n".join(p for p in parts if p)

    def to_json(self, fake: FakeDiscord) -> JSON:
        """The message object as the API returns it."""
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": self.type,
            "content": self.content,
            "author": self.author.to_json(),
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": self.mention_everyone,
            "mentions": [fake.users[i].to_json() for i in self.mentioned_users if i in fake.users],
            "mention_roles": [str(r) for r in self.mentioned_roles],
            "attachments": [a.to_json(fake.url, self.channel_id) for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "flags": self.flags,
            **({"nonce": self.nonce} if self.nonce is not None else {}),
            "reactions": [
                {"emoji": {"id": None, "name": e}, "count": len(u), "me": fake.bot_user.id in u}
                for e, u in self.reactions.items()
            ],
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(fake.application_id)
        if self.reference is not None:
            data["message_reference"] = self.reference
        if self.interaction is not None:
            ix = self.interaction
            data["interaction_metadata"] = {
                "id": str(ix.id),
                "type": ix.type,
                "user": ix.user.to_json(),
                "authorizing_integration_owners": {"0": str(ix.guild_id)} if ix.guild_id else {},
            }
            if ix.message_id is not None:
                data["interaction_metadata"]["interacted_message_id"] = str(ix.message_id)
            if ix.type == APPLICATION_COMMAND:
                data["interaction"] = {
                    "id": str(ix.id),
                    "type": ix.type,
                    "name": ix.command_name,
                    "user": ix.user.to_json(),
                }
        if self.thread_id is not None and self.thread_id in fake.channels:
            thread = fake.channels[self.thread_id]
            data["thread"] = thread.to_json(len(fake.messages.get(thread.id, [])))
        return data


@dataclass
class FakeCommand:
    """An application command the bot registered (global when guild_id is None)."""

    id: int
    name: str
    data: JSON
    guild_id: int | None = None

    def to_json(self, application_id: int) -> JSON:
        """The command object, as returned by the sync endpoints."""
        out: JSON = {
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            "type": 1,
            **self.data,
            "id": str(self.id),
            "application_id": str(application_id),
            "version": str(self.id),
        }
        if out["default_member_permissions"] is not None:
            out["default_member_permissions"] = str(out["default_member_permissions"])
        if self.guild_id is not None:
            out["guild_id"] = str(self.guild_id)
        return out


@dataclass
class FakeInteraction:
    """One interaction a simulated user caused, and everything the bot did in answer to it.

    `events` lists ("callback", type), ("followup", message id), ("edit", message id), ("delete", message id)
    in the order they arrived; use the `wait_*` methods to await them.
    """

    fake: FakeDiscord = field(repr=False)
    id: int
    token: str
    type: int
    user: FakeUser
    guild_id: int | None
    channel_id: int
    data: JSON
    message_id: int | None = None
    command_name: str = ""
    payload: JSON = field(default_factory=dict, repr=False)
    dispatched_at: float = 0.0
    callback_at: float | None = None
    callback_type: int | None = None
    callback_data: JSON = field(default_factory=dict)
    original_id: int | None = None
    message_ids: list[int] = field(default_factory=list)
    events: list[tuple[str, int]] = field(default_factory=list)
    rejected_callbacks: int = 0
    late: bool = False

    @property
    def acknowledged(self) -> bool:
        """Whether the bot has answered the interaction callback."""
        return self.callback_type is not None

    @property
    def latency(self) -> float | None:
        """Seconds from dispatching INTERACTION_CREATE to the callback arriving at the fake."""
        return None if self.callback_at is None else self.callback_at - self.dispatched_at

    @property
    def messages(self) -> list[FakeMessage]:
        """The messages this interaction created (the original response first, then follow-ups)."""
        return [self.fake.message(i) for i in self.message_ids]

    @property
    def followups(self) -> list[FakeMessage]:
        """The follow-up messages (excluding the original response)."""
        return [m for m in self.messages if m.id != self.original_id]

    @property
    def original(self) -> FakeMessage | None:
        """The `@original` message: the response for types 4/5, the clicked message for types 6/7."""
        return None if self.original_id is None else self.fake.message(self.original_id)

    @property
    def edit_count(self) -> int:
        """How many edits (type 7 callbacks, webhook and message PATCHes) arrived for this interaction."""
        return sum(1 for kind, _ in self.events if kind == "edit")

    @property
    def choices(self) -> list[JSON]:
        """The autocomplete choices the bot answered (callback type 8)."""
        return list(self.callback_data.get("choices", []))

    @property
    def modal(self) -> JSON | None:
        """The modal the bot opened (callback type 9)."""
        return self.callback_data if self.callback_type == 9 else None

    async def wait_for(self, predicate: Callable[[FakeInteraction], bool], timeout: float = 5.0) -> None:
        """Wait until predicate(self) holds."""
        await self.fake.wait_until(lambda: predicate(self), timeout, f"interaction {self.describe()}")

    async def wait_callback(self, timeout: float = 5.0) -> FakeInteraction:
        """Wait for the interaction callback (any type); return self."""
        await self.wait_for(lambda ix: ix.acknowledged, timeout)
        return self

    async def wait_reply(self, timeout: float = 5.0) -> FakeMessage:
        """Wait for the visible answer: the sent message (4), the filled-in deferred one (5), the updated
        message (7), or the clicked message after its first edit (6)."""
        await self.wait_callback(timeout)

        def ready(ix: FakeInteraction) -> bool:
            original = ix.original
            if original is None:
                return False
            if ix.callback_type == 6:
                return ix.edit_count > 0
            return not original.loading

        await self.wait_for(ready, timeout)
        assert self.original is not None
        return self.original

    async def wait_followup(self, n: int = 1, timeout: float = 5.0) -> FakeMessage:
        """Wait for the n-th follow-up message (1-based) and return it."""
        await self.wait_for(lambda ix: len(ix.followups) >= n, timeout)
        return self.followups[n - 1]

    async def wait_edits(self, n: int = 1, timeout: float = 5.0) -> FakeMessage:
        """Wait until n edits arrived; return the last edited message."""
        await self.wait_for(lambda ix: ix.edit_count >= n, timeout)
        last = [mid for kind, mid in self.events if kind == "edit"][-1]
        return self.fake.message(last)

    def describe(self) -> str:
        """A short description for error messages."""
        what = self.command_name or self.data.get("custom_id", "")
        return f"{self.id} type={self.type} {what!r} by {self.user.name}: events={self.events}"
