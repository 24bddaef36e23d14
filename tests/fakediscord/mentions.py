"""Mentions and pings: which mentions in a message's content are live, and who was notified.

Discord parses `<@id>`, `<@&role>`, `@everyone` and `@here` from the content and, in a Components V2 message,
its text displays (never from embeds), then
filters them with the request's `allowed_mentions`:

- absent: every kind is parsed, and a reply pings the author of the message it replies to;
- `parse`: the kinds ("users", "roles", "everyone") to take from the content; `users` / `roles`: explicit ids
  to allow (each exclusive with the same kind in `parse`, at most 100); `replied_user` (default false).

Roles ping only when mentionable or when the bot may Mention Everyone; @everyone/@here only with Mention
Everyone. A live mention is listed in the message's `mentions` / `mention_roles` / `mention_everyone`; the
users it notifies are recorded in `FakeMessage.pings` when the message is posted (or a deferred response is
filled in). Edits re-compute the mention lists but notify nobody, and an ephemeral message notifies nobody.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .models import JSON, MENTION_EVERYONE, FakeChannel, FakeMessage

if TYPE_CHECKING:
    from .server import FakeDiscord

USER = re.compile(r"<@!?(\d+)>")
ROLE = re.compile(r"<@&(\d+)>")
EVERYONE = re.compile(r"@(?:everyone|here)\b")
KINDS = ("users", "roles", "everyone")


@dataclass(frozen=True)
class Live:
    """The live mentions of one version of a message."""

    users: tuple[int, ...]
    roles: tuple[int, ...]
    everyone: bool


def errors(allowed: JSON | None) -> list[str]:
    """What Discord would refuse in an `allowed_mentions` object (400 Invalid Form Body)."""
    if allowed is None:
        return []
    parse = allowed.get("parse") or []
    problems = [f"allowed_mentions.parse: unknown type {p!r}" for p in parse if p not in KINDS]
    for kind in ("users", "roles"):
        ids = allowed.get(kind) or []
        if ids and kind in parse:
            problems.append(f"allowed_mentions: parse {kind!r} and {kind} are mutually exclusive")
        if len(ids) > 100:
            problems.append(f"allowed_mentions.{kind}: {len(ids)} > 100")
    return problems


def live(fake: FakeDiscord, message: FakeMessage, allowed: JSON | None, author_perms: int) -> Live:
    """Which mentions in the content (and a V2 message's text displays) of `message` are live under `allowed`
    (None: field absent)."""
    content = message.spoken()
    parse = set(KINDS) if allowed is None else set(allowed.get("parse") or [])
    explicit_users = {int(u) for u in (allowed or {}).get("users") or []}
    explicit_roles = {int(r) for r in (allowed or {}).get("roles") or []}
    guild = fake.guilds.get(message.guild_id) if message.guild_id is not None else None
    users: list[int] = []
    for raw in USER.findall(content):
        uid = int(raw)
        if uid in users or uid not in fake.users:
            continue
        if guild is not None and uid not in guild.members:
            continue
        if "users" in parse or uid in explicit_users:
            users.append(uid)
    replied = _replied_author(fake, message)
    replied_allowed = True if allowed is None else bool(allowed.get("replied_user"))
    if replied is not None and replied_allowed and replied not in users:
        users.append(replied)
    roles: list[int] = []
    if guild is not None:
        for raw in ROLE.findall(content):
            rid = int(raw)
            role = guild.roles.get(rid)
            if role is None or rid in roles:
                continue
            if ("roles" in parse or rid in explicit_roles) and (
                role.mentionable or author_perms & MENTION_EVERYONE
            ):
                roles.append(rid)
    everyone = bool(
        guild is not None
        and EVERYONE.search(content)
        and "everyone" in parse
        and author_perms & MENTION_EVERYONE
    )
    return Live(tuple(users), tuple(roles), everyone)


def notified(fake: FakeDiscord, message: FakeMessage, mentions: Live) -> set[int]:
    """The users a newly posted message notifies: live user mentions, members holding a live role, and
    every member who can see the channel for @everyone/@here; never the author; nobody for an ephemeral."""
    if message.ephemeral:
        return set()
    out = set(mentions.users)
    guild = fake.guilds.get(message.guild_id) if message.guild_id is not None else None
    if guild is not None:
        channel = fake.channels[message.channel_id]
        for uid, member in guild.members.items():
            by_role = mentions.everyone or set(member.role_ids) & set(mentions.roles)
            if by_role and _can_see(fake, uid, channel):
                out.add(uid)
    out.discard(message.author.id)
    return out


def _can_see(fake: FakeDiscord, user_id: int, channel: FakeChannel) -> bool:
    guild = fake.guilds[channel.guild_id] if channel.guild_id is not None else None
    return guild is None or bool(guild.permissions_in(fake.users[user_id], channel))


def _replied_author(fake: FakeDiscord, message: FakeMessage) -> int | None:
    ref = message.reference or {}
    replied_id = ref.get("message_id")
    if replied_id is None:
        return None
    replied = fake.find_message(int(replied_id))
    return replied.author.id if replied is not None else None
