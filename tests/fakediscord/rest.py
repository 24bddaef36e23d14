"""The fake's REST API v10: routes, request bodies (JSON or multipart), and the handlers acting on the state.

Every response is JSON with a Content-Type of exactly `application/json` (discord.py compares it verbatim);
errors are {"message", "code"} with Discord's codes. Requests to routes not listed here are logged and kept
in `fake.unimplemented`; bodies Discord would refuse (spec.py: by its OpenAPI spec; limits.py) answer 400,
kept in `fake.rejected`; files over `fake.upload_limit` in one request answer 413 Request entity too large
(40005).
Every error answered is kept in `fake.errors` as (status, code, "METHOD path"). The bot's channel permissions
are checked on channel routes (403: 50001 Missing Access without View Channel, else 50013 Missing
Permissions); interaction callbacks and webhooks are not, as on Discord, but their token expires (401 50027).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import limits, models, ratelimit, spec
from .gateway import INTENT_GUILD_MESSAGES, INTENT_GUILDS
from .interactions import dm_channel
from .models import (
    APPLICATION_COMMAND,
    EPHEMERAL,
    IS_COMPONENTS_V2,
    JSON,
    LOADING,
    FakeAttachment,
    FakeChannel,
    FakeCommand,
    FakeInteraction,
    FakeMessage,
    iso_now,
    snowflake,
)

if TYPE_CHECKING:
    from .server import FakeDiscord

log = logging.getLogger("fakediscord")

UNKNOWN_CHANNEL = 10003
UNKNOWN_GUILD = 10004
UNKNOWN_MEMBER = 10007
UNKNOWN_MESSAGE = 10008
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_INTERACTION = 10062
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
INVALID_WEBHOOK_TOKEN = 50027
ALREADY_ACKNOWLEDGED = 40060
ENTITY_TOO_LARGE = 40005  # files over the upload limit (HTTP 413)
EMPTY_MESSAGE = 50006
ARCHIVED_THREAD = 50083
AUTO_ARCHIVE_MINUTES = (60, 1440, 4320, 10080)  # ThreadAutoArchiveDuration in the OpenAPI spec
INVALID_FORM_BODY = 50035
NONCE_MINUTES = 5  # "if another message was created by the same author with the same nonce" within minutes

Files = dict[int, tuple[str, bytes]]


class ApiError(Exception):
    """An error the REST API answers with a JSON body {"message", "code"}."""

    def __init__(self, status: int, code: int, message: str, errors: list[str] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors or []

    def to_json(self) -> JSON:
        """The error body (with per-problem `errors` for Invalid Form Body, as discord.py flattens them)."""
        body: JSON = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = {
                f"fake{i}": {"_errors": [{"code": "LIMIT", "message": e}]} for i, e in enumerate(self.errors)
            }
        return body


@dataclass
class Fault:
    """An error (or a delay: status 0) injected for the next `times` requests of a method whose path holds
    `path` ("" for every path, "*" for every method): fake.fail."""

    method: str
    path: str
    status: int
    code: int = 0
    times: int = 1
    done: bool = False  # the request is carried out before the error is answered
    delay: float = 0.0  # seconds the answer takes (a slow or, long enough, a hung Discord)
    hits: int = 0
    healed: asyncio.Event = field(default_factory=asyncio.Event)  # set: the delays end at once

    async def wait(self) -> None:
        """The fault's delay, cut short when the fake is healed."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.healed.wait(), self.delay)

    def matches(self, request: web.Request) -> bool:
        """Whether this fault answers the request (and is not used up)."""
        method = self.method in ("*", request.method)
        return self.hits < self.times and method and self.path in request.path

    def response(self) -> web.Response:
        """The error as Discord words it (a 429 with its Retry-After)."""
        self.hits += 1
        if self.status == 429:
            body = {"message": "You are being rate limited.", "retry_after": 0.05, "global": False}
            return web.Response(
                body=json.dumps(body).encode(),
                status=429,
                headers={  # Discord's own 429s come through its proxy (Via); a bare one is Cloudflare's ban
                    "Content-Type": "application/json",
                    "Retry-After": "0.05",
                    "Via": "1.1 google",
                    "X-RateLimit-Scope": "user",
                },
            )
        return json_response({"message": f"injected {self.status}", "code": self.code}, self.status)


def json_response(data: Any, status: int = 200) -> web.Response:
    """A JSON response whose Content-Type is exactly application/json (discord.py compares it verbatim)."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def not_found(code: int, what: str) -> ApiError:
    """A 404 for an unknown thing."""
    return ApiError(404, code, f"Unknown {what}")


class RestApi:
    """The REST routes of one FakeDiscord."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self._deferred_updates: dict[int, FakeInteraction] = {}
        self.limits = ratelimit.RateLimits(fake.rate_limits)  # Discord's rate limits (ratelimit.py)

    def install(self, app: web.Application) -> None:
        """Add the middleware and every route to an aiohttp application."""
        app.middlewares.append(self._middleware)
        app.middlewares.append(self._rate_limited)  # inside: requests and injected faults come first
        self._routes(app)

    @web.middleware
    async def _rate_limited(
        self, request: web.Request, handler: Callable[[web.Request], Any]
    ) -> web.StreamResponse:
        """Discord's rate limits (ratelimit.py): a 429 past one, else the answer with X-RateLimit headers."""
        refused, headers = self.limits.check(request)
        if refused is not None:
            self.fake.errors.append((429, 0, f"{request.method} {request.path}"))
            return refused
        answer = await handler(request)  # (an error raised is answered without them, as some of Discord's)
        if not answer.prepared:
            answer.headers.update(headers)
        return answer

    @web.middleware
    async def _middleware(
        self, request: web.Request, handler: Callable[[web.Request], Any]
    ) -> web.StreamResponse:
        self.fake.requests.append((request.method, request.path))
        fault = next((f for f in self.fake.faults if f.matches(request)), None)
        if fault is not None and fault.status == 0:  # only slow
            fault.hits += 1
            await fault.wait()
            fault = None
        elif fault is not None:
            self.fake.errors.append((fault.status, fault.code, f"{request.method} {request.path}"))
            await fault.wait()
            if not fault.done:
                return fault.response()
        try:
            answer = await handler(request)
            return fault.response() if fault is not None else answer
        except ApiError as err:
            if err.status == 400 and err.code != ARCHIVED_THREAD:  # a refusal of the moment, not of the body
                log.warning(
                    "fake discord: %s %s refused: %s %s", request.method, request.path, err, err.errors
                )
                self.fake.rejected.append(f"{request.method} {request.path}: {err.message} {err.errors}")
                self.fake.notify()
            self.fake.errors.append((err.status, err.code, f"{request.method} {request.path}"))
            return json_response(err.to_json(), err.status)
        finally:
            self.fake.touched(self._channel_of(request))

    def _routes(self, app: web.Application) -> None:
        r = app.router
        api = "/api/v10"
        r.add_get("/gateway", self.fake.gateway.handle)
        r.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._get_attachment)
        r.add_get("/ephemeral-attachments/{app_id}/{attachment_id}/{filename}", self._get_upload)
        r.add_get(api + "/gateway", self._get_gateway)
        r.add_get(api + "/gateway/bot", self._get_gateway_bot)
        r.add_get(api + "/users/@me", self._get_me)
        r.add_post(api + "/users/@me/channels", self._create_dm)
        r.add_get(api + "/users/{user_id}", self._get_user)
        r.add_get(api + "/oauth2/applications/@me", self._get_application)
        r.add_get(api + "/applications/@me", self._get_application)
        r.add_get(api + "/applications/{app_id}/commands", self._get_commands)
        r.add_put(api + "/applications/{app_id}/commands", self._put_commands)
        r.add_get(api + "/applications/{app_id}/guilds/{guild_id}/commands", self._get_commands)
        r.add_put(api + "/applications/{app_id}/guilds/{guild_id}/commands", self._put_commands)
        r.add_post(api + "/interactions/{interaction_id}/{token}/callback", self._callback)
        r.add_post(api + "/webhooks/{app_id}/{token}", self._followup)
        webhook_message = api + "/webhooks/{app_id}/{token}/messages/{message_id}"
        r.add_get(webhook_message, self._get_webhook_message)
        r.add_patch(webhook_message, self._edit_webhook_message)
        r.add_delete(webhook_message, self._delete_webhook_message)
        r.add_get(api + "/guilds/{guild_id}", self._get_guild)
        r.add_get(api + "/guilds/{guild_id}/channels", self._get_guild_channels)
        r.add_get(api + "/guilds/{guild_id}/members/{user_id}", self._get_member)
        r.add_get(api + "/channels/{channel_id}", self._get_channel)
        r.add_patch(api + "/channels/{channel_id}", self._edit_channel)
        r.add_delete(api + "/channels/{channel_id}", self._delete_channel)
        r.add_post(api + "/channels/{channel_id}/typing", self._no_content)
        r.add_get(api + "/channels/{channel_id}/messages", self._get_history)
        r.add_post(api + "/channels/{channel_id}/messages", self._create_message)
        r.add_get(api + "/channels/{channel_id}/messages/{message_id}", self._get_message)
        r.add_patch(api + "/channels/{channel_id}/messages/{message_id}", self._edit_message)
        r.add_delete(api + "/channels/{channel_id}/messages/{message_id}", self._delete_message)
        r.add_put(
            api + "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self._add_reaction
        )
        r.add_post(api + "/channels/{channel_id}/messages/{message_id}/threads", self._thread_from_message)
        r.add_post(api + "/channels/{channel_id}/threads", self._thread_without_message)
        r.add_put(api + "/channels/{channel_id}/thread-members/{user_id}", self._add_thread_member)
        r.add_route("*", "/{tail:.*}", self._unimplemented)

    async def _unimplemented(self, request: web.Request) -> web.Response:
        what = f"{request.method} {request.path}"
        log.warning("fake discord: unimplemented route %s", what)
        self.fake.unimplemented.append(what)
        self.fake.notify()
        return json_response({"message": f"404: Not Found ({what})", "code": 0}, 404)

    @staticmethod
    async def _no_content(request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def _read_body(self, request: web.Request) -> tuple[JSON, Files]:
        """The request's body, refused (400, 50035) where Discord's OpenAPI spec says it is invalid."""
        body, files = await RestApi._parse_body(request)
        if self.fake.check_spec:
            RestApi._check(spec.errors(request.method, request.path, body, present=request.body_exists))
        return body, files

    @staticmethod
    async def _parse_body(request: web.Request) -> tuple[JSON, Files]:
        """A JSON body, or a multipart one: payload_json plus files[n] (which arrive as octet-stream)."""
        if not request.content_type.startswith("multipart/"):
            if not request.can_read_body:
                return {}, {}
            return await request.json(), {}
        body: JSON = {}
        files: Files = {}
        reader = await request.multipart()
        async for part in reader:
            name = part.name or ""
            if name == "payload_json":
                body = json.loads(await part.text())  # type: ignore[union-attr]
            elif name.startswith("files["):
                index = int(name.removeprefix("files[").removesuffix("]"))
                files[index] = (part.filename or f"file{index}", bytes(await part.read()))  # type: ignore[union-attr]
        return body, files

    # ------------------------------------------------------------ lookups

    def _channel_of(self, request: web.Request) -> int | None:
        """The channel a request is about: its path's, or the channel of the interaction it answers (the
        thread a follow-up goes to, when it names one); None for the rest."""
        found = request.match_info
        raw = found.get("channel_id", "")
        if raw.isdigit():
            return int(raw)
        ix = None
        if (raw := found.get("interaction_id", "")).isdigit():
            ix = self.fake.interactions.get(int(raw))
        elif "token" in found:
            ix = self.fake.by_token.get(found["token"])
        if ix is None:
            return None
        thread = request.query.get("thread_id", "")
        return int(thread) if thread.isdigit() else ix.channel_id

    def _channel(self, request: web.Request) -> FakeChannel:
        channel = self.fake.channels.get(int(request.match_info["channel_id"]))
        if channel is None or channel.deleted:
            raise not_found(UNKNOWN_CHANNEL, "Channel")
        return channel

    @staticmethod
    def _writable(channel: FakeChannel) -> FakeChannel:
        """The channel, unless it is an archived thread: Discord refuses posts and edits there (50083)."""
        if channel.is_thread and channel.archived:
            raise ApiError(400, ARCHIVED_THREAD, "Thread is archived")
        return channel

    def _message_in(self, channel: FakeChannel, message_id: str) -> FakeMessage:
        message = self.fake.find_message(int(message_id)) if message_id.isdigit() else None
        if message is None or message.deleted or message.channel_id != channel.id:
            raise not_found(UNKNOWN_MESSAGE, "Message")
        return message

    def _interaction(self, request: web.Request) -> FakeInteraction:
        ix = self.fake.by_token.get(request.match_info["token"])
        if ix is None:
            raise not_found(UNKNOWN_WEBHOOK, "Webhook")
        if self.fake.now() - ix.dispatched_at > self.fake.token_lifetime:  # 15 minutes on Discord
            raise ApiError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
        return ix

    def _require(self, channel: FakeChannel, *needed: int) -> None:
        """Refuse as Discord does when the bot lacks a permission in a guild channel: 403 Missing Access
        (50001) without View Channel, else 403 Missing Permissions (50013)."""
        if channel.guild_id is None:
            return
        have = self.fake.bot_permissions(channel)
        needed = (models.VIEW_CHANNEL, *needed)
        missing = [models.PERMISSION_NAMES.get(p, str(p)) for p in needed if not have & p]
        if not missing:
            return
        log.info("fake discord: the bot lacks %s in #%s", ", ".join(missing), channel.name)
        if not have & models.VIEW_CHANNEL:
            raise ApiError(403, MISSING_ACCESS, "Missing Access")
        raise ApiError(403, MISSING_PERMISSIONS, "Missing Permissions")

    @staticmethod
    def _send_permission(channel: FakeChannel) -> int:
        return models.SEND_MESSAGES_IN_THREADS if channel.is_thread else models.SEND_MESSAGES

    def _webhook_message(self, request: web.Request) -> tuple[FakeInteraction, FakeMessage]:
        ix = self._interaction(request)
        raw = request.match_info["message_id"]
        message_id = ix.original_id if raw == "@original" else int(raw) if raw.isdigit() else None
        message = self.fake.find_message(message_id) if message_id is not None else None
        if message is None or message.deleted:
            raise not_found(UNKNOWN_MESSAGE, "Message")
        return ix, message

    # ------------------------------------------------------- REST handlers

    async def _get_attachment(self, request: web.Request) -> web.Response:
        attachment_id = int(request.match_info["attachment_id"])
        for message in self.fake.messages.get(int(request.match_info["channel_id"]), []):
            for a in message.attachments:
                if a.id == attachment_id:
                    return web.Response(body=a.data, headers={"Content-Type": a.content_type})
        raise not_found(UNKNOWN_MESSAGE, "Attachment")

    async def _get_upload(self, request: web.Request) -> web.Response:
        """The bytes of a file a user attached to a slash command (the CDN URL in `resolved.attachments`)."""
        upload = self.fake.uploads.get(int(request.match_info["attachment_id"]))
        if upload is None or upload.filename != request.match_info["filename"]:
            raise not_found(UNKNOWN_MESSAGE, "Attachment")
        return web.Response(body=upload.data, headers={"Content-Type": upload.content_type})

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.fake.gateway_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        shards = self.fake.shard_count
        return json_response({"url": self.fake.gateway_url, "shards": shards, "session_start_limit": limit})

    async def _get_me(self, request: web.Request) -> web.Response:
        if request.headers.get("Authorization") != f"Bot {self.fake.token}":
            raise ApiError(401, 0, "401: Unauthorized")
        return json_response(self.fake.bot_user.to_json() | {"verified": True, "mfa_enabled": False})

    async def _get_user(self, request: web.Request) -> web.Response:
        user = self.fake.users.get(int(request.match_info["user_id"]))
        if user is None:
            raise not_found(UNKNOWN_USER, "User")
        return json_response(user.to_json())

    async def _create_dm(self, request: web.Request) -> web.Response:
        body, _ = await self._read_body(request)
        user = self.fake.users.get(int(body["recipient_id"]))
        if user is None:
            raise not_found(UNKNOWN_USER, "User")
        return json_response(dm_channel(self.fake, user).to_json())

    async def _get_application(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "id": str(self.fake.application_id),
                "name": self.fake.bot_user.name,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "hook": True,
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "bot": self.fake.bot_user.to_json(),
                "owner": self.fake.owner.to_json(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "tags": [],
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "approximate_guild_count": len(self.fake.guilds),
            }
        )

    async def _get_commands(self, request: web.Request) -> web.Response:
        guild_id = int(request.match_info["guild_id"]) if "guild_id" in request.match_info else None
        found = [
            c.to_json(self.fake.application_id) for c in self.fake.commands.values() if c.guild_id == guild_id
        ]
        return json_response(found)

    async def _put_commands(self, request: web.Request) -> web.Response:
        """Bulk overwrite (what CommandTree.sync does): replaces the scope's commands, keeping ids by name."""
        guild_id = int(request.match_info["guild_id"]) if "guild_id" in request.match_info else None
        body, _ = await self._read_body(request)
        self._check(limits.command_errors(body or []))
        old = {c.name: c for c in self.fake.commands.values() if c.guild_id == guild_id}
        for cmd in old.values():
            del self.fake.commands[cmd.id]
        out = []
        for data in body or []:
            previous = old.get(data["name"])
            cmd = FakeCommand(previous.id if previous else snowflake(), data["name"], data, guild_id)
            self.fake.commands[cmd.id] = cmd
            out.append(cmd.to_json(self.fake.application_id))
        self.fake.command_syncs += 1
        self.fake.notify()
        return json_response(out)

    async def _callback(self, request: web.Request) -> web.Response:
        """An interaction callback: 1 pong, 4 message, 5 deferred message, 6 deferred update, 7 update,
        8 autocomplete result, 9 modal."""
        now = self.fake.now()
        ix = self.fake.interactions.get(int(request.match_info["interaction_id"]))
        if ix is None or ix.token != request.match_info["token"]:
            raise not_found(UNKNOWN_INTERACTION, "interaction")
        body, files = await self._read_body(request)
        if ix.acknowledged:
            ix.rejected_callbacks += 1
            self.fake.notify()
            raise ApiError(400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged.")
        kind, data = int(body["type"]), body.get("data") or {}
        if kind in (4, 7):
            edited = self.fake.find_message(ix.message_id) if kind == 7 and ix.message_id else None
            self._check_message(data, files, new=kind == 4, message=edited)
        elif kind == 8:
            self._check(limits.choices_errors(data))
        elif kind == 9:
            self._check(limits.modal_errors(data))
        if self.fake.callback_deadline is not None and now - ix.dispatched_at > self.fake.callback_deadline:
            ix.late = True
            self.fake.notify()
            raise not_found(UNKNOWN_INTERACTION, "interaction")
        ix.callback_at, ix.callback_type, ix.callback_data = now, kind, data
        ix.events.append(("callback", kind))
        channel = self.fake.channels[ix.channel_id]
        message: FakeMessage | None = None
        if kind in (4, 5):
            flags = int(data.get("flags") or 0)
            message = self.fake.record_message(
                channel,
                self.fake.bot_user,
                interaction=ix,
                webhook_id=self.fake.application_id,
                type=20 if ix.type == APPLICATION_COMMAND else 0,
                visible_to=ix.user.id if flags & EPHEMERAL else None,
            )
            if kind == 5:
                message.flags = LOADING | (flags & EPHEMERAL)
            else:
                self._apply(message, data, files, new=True)
            ix.original_id = message.id
            ix.message_ids.append(message.id)
            await self.fake.dispatch_message("MESSAGE_CREATE", message)
        elif kind in (6, 7):
            if ix.message_id is None:
                raise ApiError(400, 50035, "Invalid Form Body: no message to update")
            message = self.fake.message(ix.message_id)
            ix.original_id = message.id
            if kind == 6:
                self._deferred_updates[message.id] = ix
            if kind == 7:
                self._apply(message, data, files, new=False)
                ix.events.append(("edit", message.id))
                await self.fake.dispatch_message("MESSAGE_UPDATE", message)
        self.fake.notify()
        info: JSON = {
            "id": str(ix.id),
            "type": ix.type,
            "response_message_id": str(message.id) if message else None,
            "response_message_loading": kind == 5,
            "response_message_ephemeral": bool(message and message.ephemeral),
        }
        result: JSON = {"interaction": info}
        if message is not None and kind != 6:
            result["resource"] = {"type": kind, "message": message.to_json(self.fake)}
        elif kind == 9:
            result["resource"] = {"type": kind}
        return json_response(result)

    async def _followup(self, request: web.Request) -> web.Response:
        """POST /webhooks/{app}/{token}: a follow-up; the first after a type 5 fills the deferred message."""
        ix = self._interaction(request)
        body, files = await self._read_body(request)
        if not ix.acknowledged:
            raise not_found(UNKNOWN_WEBHOOK, "Webhook")
        self._check_message(body, files, new=True)
        original = ix.original
        if ix.callback_type == 5 and original is not None and original.loading:
            message = original
            v2 = int(body.get("flags") or 0) & IS_COMPONENTS_V2  # the deferral chose ephemeral or not
            body = {k: v for k, v in body.items() if k != "flags"}
            self._apply(message, body, files, new=True)
            message.flags = (message.flags & ~LOADING) | v2
            await self.fake.dispatch_message("MESSAGE_UPDATE", message)
        else:
            flags = int(body.get("flags") or 0)
            channel = self._followup_channel(ix, request)
            message = self.fake.record_message(
                channel,
                self.fake.bot_user,
                interaction=ix,
                webhook_id=self.fake.application_id,
                visible_to=ix.user.id if flags & EPHEMERAL else None,
            )
            self._apply(message, body, files, new=True)
            ix.message_ids.append(message.id)
            await self.fake.dispatch_message("MESSAGE_CREATE", message)
        ix.events.append(("followup", message.id))
        self.fake.notify()
        if request.query.get("wait") in ("true", "1", "True"):
            return json_response(message.to_json(self.fake))
        return web.Response(status=204)

    def _followup_channel(self, ix: FakeInteraction, request: web.Request) -> FakeChannel:
        thread_id = request.query.get("thread_id")
        return self.fake.channels[int(thread_id)] if thread_id else self.fake.channels[ix.channel_id]

    async def _get_webhook_message(self, request: web.Request) -> web.Response:
        _, message = self._webhook_message(request)
        return json_response(message.to_json(self.fake))

    async def _edit_webhook_message(self, request: web.Request) -> web.Response:
        ix, message = self._webhook_message(request)
        body, files = await self._read_body(request)
        self._check_message(body, files, new=message.loading, message=None if message.loading else message)
        self._apply(message, body, files, new=False)
        self._deferred_updates.pop(message.id, None)
        message.flags &= ~LOADING
        ix.events.append(("edit", message.id))
        self.fake.notify()
        await self.fake.dispatch_message("MESSAGE_UPDATE", message)
        return json_response(message.to_json(self.fake))

    async def _delete_webhook_message(self, request: web.Request) -> web.Response:
        ix, message = self._webhook_message(request)
        await self._delete(message)
        ix.events.append(("delete", message.id))
        return web.Response(status=204)

    async def _get_guild(self, request: web.Request) -> web.Response:
        guild = self.fake.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            raise not_found(UNKNOWN_GUILD, "Guild")
        data = guild.to_json(self.fake.message_count)
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            data.pop(key)
        return json_response(data)

    async def _get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self.fake.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            raise not_found(UNKNOWN_GUILD, "Guild")
        return json_response(
            [c.to_json() for c in guild.channels.values() if not c.is_thread and not c.deleted]
        )

    async def _get_member(self, request: web.Request) -> web.Response:
        guild = self.fake.guilds.get(int(request.match_info["guild_id"]))
        member = guild.members.get(int(request.match_info["user_id"])) if guild else None
        if member is None:
            raise ApiError(404, UNKNOWN_MEMBER, "Unknown Member")
        return json_response(member.to_json())

    async def _get_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self._require(channel)
        return json_response(channel.to_json(self.fake.message_count(channel.id)))

    async def _edit_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body, _ = await self._read_body(request)
        channel.name = body.get("name", channel.name)
        channel.archived = bool(body.get("archived", channel.archived))
        channel.locked = bool(body.get("locked", channel.locked))
        self.fake.notify()
        data = channel.to_json(self.fake.message_count(channel.id))
        await self.fake.gateway.dispatch(
            "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", data, intent=INTENT_GUILDS
        )
        return json_response(data)

    async def _delete_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        await self.fake.delete(channel)
        return json_response(channel.to_json(self.fake.message_count(channel.id)))

    async def _get_history(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self._require(channel, models.READ_MESSAGE_HISTORY)
        limit = int(request.query.get("limit", 50))
        before = int(request.query.get("before", 0)) or None
        after = int(request.query.get("after", 0)) or None
        found = [
            m
            for m in self.fake.public(channel)
            if (before is None or m.id < before) and (after is None or m.id > after)
        ]
        found = (found[:limit] if after is not None else found[-limit:])[::-1]  # newest first, like Discord
        return json_response([m.to_json(self.fake) for m in found])

    async def _create_message(self, request: web.Request) -> web.Response:
        channel = self._writable(self._channel(request))
        body, files = await self._read_body(request)
        self._require(channel, self._send_permission(channel), *self._content_permissions(body, files))
        if body.get("message_reference"):
            self._require(channel, models.READ_MESSAGE_HISTORY)
        self._check_message(body, files, new=True)
        nonce = str(body["nonce"]) if body.get("nonce") is not None else None
        if nonce is not None and body.get("enforce_nonce") and (same := self._with_nonce(channel, nonce)):
            return json_response(same.to_json(self.fake))  # as Discord: the message already created
        message = self.fake.record_message(
            channel, self.fake.bot_user, type=19 if body.get("message_reference") else 0, nonce=nonce
        )
        self._apply(message, body, files, new=True)
        message.flags &= ~EPHEMERAL
        await self.fake.dispatch_message("MESSAGE_CREATE", message)
        return json_response(message.to_json(self.fake))

    def _with_nonce(self, channel: FakeChannel, nonce: str) -> FakeMessage | None:
        """The bot's message in the channel made with this nonce in the last few minutes (enforce_nonce)."""
        recent = time.monotonic() - NONCE_MINUTES * 60
        for message in reversed(self.fake.messages.get(channel.id, [])):
            if message.created < recent:
                return None
            if message.nonce == nonce and message.author.id == self.fake.bot_user.id and not message.deleted:
                return message
        return None

    async def _get_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self._require(channel, models.READ_MESSAGE_HISTORY)
        message = self._message_in(channel, request.match_info["message_id"])
        if message.ephemeral:
            raise not_found(UNKNOWN_MESSAGE, "Message")
        return json_response(message.to_json(self.fake))

    async def _edit_message(self, request: web.Request) -> web.Response:
        message = self._message_in(self._writable(self._channel(request)), request.match_info["message_id"])
        if message.author.id != self.fake.bot_user.id or message.ephemeral:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        body, files = await self._read_body(request)
        self._require(self.fake.channels[message.channel_id], *self._content_permissions(body, files))
        self._check_message(body, files, new=False, message=message)
        self._apply(message, body, files, new=False)
        deferred = self._deferred_updates.pop(message.id, None)
        if deferred is not None:  # a component answered with type 6, then edited through the channel route
            deferred.events.append(("edit", message.id))
        self.fake.notify()
        await self.fake.dispatch_message("MESSAGE_UPDATE", message)
        return json_response(message.to_json(self.fake))

    async def _delete_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        message = self._message_in(channel, request.match_info["message_id"])
        others = message.author.id != self.fake.bot_user.id
        self._require(channel, *([models.MANAGE_MESSAGES] if others else []))
        await self._delete(message)
        return web.Response(status=204)

    async def _delete(self, message: FakeMessage) -> None:
        message.deleted = True
        self.fake.notify()
        if not message.ephemeral:
            data = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id is not None:
                data["guild_id"] = str(message.guild_id)
            await self.fake.gateway.dispatch("MESSAGE_DELETE", data, intent=INTENT_GUILD_MESSAGES)

    async def _add_reaction(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        message = self._message_in(channel, request.match_info["message_id"])
        first = not message.reactions.get(request.match_info["emoji"])
        self._require(channel, models.READ_MESSAGE_HISTORY, *([models.ADD_REACTIONS] if first else []))
        message.reactions.setdefault(request.match_info["emoji"], set()).add(self.fake.bot_user.id)
        self.fake.notify()
        return web.Response(status=204)

    async def _thread_from_message(self, request: web.Request) -> web.Response:
        """A public thread started from a message: it takes the message's id, as on Discord."""
        parent = self._channel(request)
        message = self._message_in(parent, request.match_info["message_id"])
        self._require(parent, models.CREATE_PUBLIC_THREADS)
        body, _ = await self._read_body(request)
        if message.thread_id is not None:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        thread = self._new_thread(parent, body, message.id, models.PUBLIC_THREAD)
        message.thread_id = thread.id
        return await self._announce_thread(thread)

    async def _thread_without_message(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        body, _ = await self._read_body(request)
        type_ = int(body.get("type") or models.PRIVATE_THREAD)
        private = type_ == models.PRIVATE_THREAD
        self._require(parent, models.CREATE_PRIVATE_THREADS if private else models.CREATE_PUBLIC_THREADS)
        thread = self._new_thread(parent, body, snowflake(), type_)
        return await self._announce_thread(thread)

    def _new_thread(self, parent: FakeChannel, body: JSON, thread_id: int, type_: int) -> FakeChannel:
        minutes = int(body.get("auto_archive_duration") or 1440)
        if minutes not in AUTO_ARCHIVE_MINUTES:
            self._check([f"auto_archive_duration must be one of {AUTO_ARCHIVE_MINUTES}, not {minutes}"])
        thread = FakeChannel(
            thread_id,
            body.get("name", "thread"),
            type=type_,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=self.fake.bot_user.id,
            thread_member_ids={self.fake.bot_user.id},
            auto_archive_duration=minutes,
        )
        self.fake.channels[thread.id] = thread
        self.fake.messages[thread.id] = []
        if parent.guild_id is not None:
            self.fake.guilds[parent.guild_id].channels[thread.id] = thread
        self.fake.notify()
        return thread

    async def _announce_thread(self, thread: FakeChannel) -> web.Response:
        data = thread.to_json() | {"newly_created": True}
        await self.fake.gateway.dispatch("THREAD_CREATE", data, intent=INTENT_GUILDS)
        return json_response(thread.to_json())

    async def _add_thread_member(self, request: web.Request) -> web.Response:
        thread = self._channel(request)
        raw = request.match_info["user_id"]
        thread.thread_member_ids.add(self.fake.bot_user.id if raw == "@me" else int(raw))
        self.fake.notify()
        return web.Response(status=204)

    @staticmethod
    def _content_permissions(body: JSON, files: Files) -> list[int]:
        """What sending (or editing in) this body needs besides Send Messages: Embed Links for embeds,
        Attach Files for uploads."""
        needed = []
        if body.get("embeds") or body.get("embed"):
            needed.append(models.EMBED_LINKS)
        if files:
            needed.append(models.ATTACH_FILES)
        return needed

    def _apply(self, message: FakeMessage, body: JSON, files: Files, *, new: bool) -> None:
        """Apply message fields from a create/edit body (content, embeds, components, flags, attachments)."""
        if not new:
            message.history.append(message.to_json(self.fake))
            message.edited_timestamp = iso_now()
        if "content" in body:
            message.content = body["content"] or ""
        if "embeds" in body or "embed" in body:
            embeds = body.get("embeds")
            if embeds is None and body.get("embed") is not None:
                embeds = [body["embed"]]
            message.embeds = [{"type": "rich", **e} for e in embeds or []]
        if "components" in body:
            message.components = body["components"] or []
        if body.get("flags") is not None:
            keep = message.flags & (EPHEMERAL | LOADING) if not new else 0
            message.flags = (int(body["flags"]) & ~LOADING) | keep
        if body.get("message_reference"):
            message.reference = body["message_reference"]
        had = {a.id for a in message.attachments}
        if "attachments" in body:
            old = {str(a.id): a for a in message.attachments}
            kept: list[FakeAttachment] = []
            for spec in body["attachments"] or []:
                sid = str(spec.get("id"))
                if sid in old:
                    kept.append(old[sid])
                elif sid.isdigit() and int(sid) in files:
                    name, data = files.pop(int(sid))
                    kept.append(
                        FakeAttachment.from_upload(
                            spec.get("filename") or name, data, spec.get("description")
                        )
                    )
            message.attachments = kept
        message.attachments += [FakeAttachment.from_upload(name, data) for name, data in files.values()]
        self._link_embed_images(message)
        for name in message.images_without_alt():
            if message.attachment(name).id not in had:  # counted once, when uploaded
                self.fake.unlabelled.append(f"message {message.id}: {name}")
        if new or message.loading or {"content", "components", "allowed_mentions"} & body.keys():
            # posting (or filling in a deferred response) notifies; an edit only re-computes the mentions
            allowed = body.get("allowed_mentions", message.allowed_mentions)
            perms = self.fake.bot_permissions(self.fake.channels[message.channel_id])
            self.fake.set_mentions(message, allowed, perms, notify=new or message.loading)
        self.fake.notify()

    @staticmethod
    def _check(errors: list[str]) -> None:
        if errors:
            raise ApiError(400, INVALID_FORM_BODY, "Invalid Form Body", errors)

    def _check_message(
        self, body: JSON, files: Files, *, new: bool, message: FakeMessage | None = None
    ) -> None:
        """Refuse what Discord would (limits.py); `message` the one an edit changes."""
        size = sum(len(data) for _, data in files.values())
        if size > self.fake.upload_limit:  # Discord refuses the whole request, before reading the body
            raise ApiError(413, ENTITY_TOO_LARGE, "Request entity too large")
        before = None
        names = {name for name, _ in files.values()}
        specs = [a for a in body.get("attachments") or [] if isinstance(a, dict)]
        names |= {str(a["filename"]) for a in specs if a.get("filename")}
        if message is not None:
            before = limits.Before(message.flags, bool(message.content), bool(message.embeds))
            listed = {str(a.get("id")) for a in specs}
            keep = "attachments" not in body
            names |= {a.filename for a in message.attachments if keep or str(a.id) in listed}
        self._check(limits.message_errors(body, len(files), new=new, files=frozenset(names), before=before))
        if new and limits.is_empty(body, len(files)):
            raise ApiError(400, EMPTY_MESSAGE, "Cannot send an empty message")

    def _link_embed_images(self, message: FakeMessage) -> None:
        urls = {a.filename: a.to_json(self.fake.url, message.channel_id)["url"] for a in message.attachments}
        for embed in message.embeds:
            for key in ("image", "thumbnail"):
                part = embed.get(key)
                if part and str(part.get("url", "")).startswith("attachment://"):
                    name = part["url"].removeprefix("attachment://")
                    if name in urls:
                        part.update(proxy_url=urls[name], width=1, height=1)
