"""Discord's rate limits, enforced by the fake: a global limit per bot and per-route buckets, answered past
them exactly as Discord does, so discord.py's own HTTP client (which reads the headers, waits on buckets and
retries 429s) behaves as against real Discord.

Source: https://discord.com/developers/docs/topics/rate-limits ("Rate Limits", read 2025):
- Every answer of a limited route carries `X-RateLimit-Limit`, `-Remaining`, `-Reset` (epoch seconds),
  `-Reset-After` (seconds) and `-Bucket` (an opaque id shared by the routes of one bucket); a bucket is
  per route and its major parameter (channel_id, guild_id, or webhook_id + webhook_token).
- Past a limit: HTTP 429, `Retry-After`, `X-RateLimit-Scope` (user, global or shared), for the global limit
  `X-RateLimit-Global: true`, and the body {"message": "You are being rate limited.", "retry_after": s,
  "global": bool}.
- "All bots can make up to 50 requests per second to our API"; interaction endpoints are not bound by the
  global limit (callbacks, and the follow-ups and edits made with an interaction's token, which are not
  authenticated with the bot's token).
Discord does not publish the per-route numbers ("you should not hard code rate limits"): the values in
ROUTES are those its headers announce, as bots and libraries report them (noted per row).

Windows are fixed: the first request of a bucket opens a window of `per` seconds in which `limit` requests
pass. `time_scale` (FakeDiscord's rate_limits=) multiplies every window: 1 for Discord's own (the load
bench, test_rate_limits.py), TEST_TIME_SCALE by default (the test suite), 0 turns the limits off.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections import Counter
from dataclasses import dataclass

from aiohttp import web

API = "/api/v10"
GLOBAL_LIMIT = 50  # requests per second per bot (Discord's docs, "Global Rate Limit")
GLOBAL_PER = 1.0
# FakeDiscord's default: Discord's limits and headers with windows 100 times shorter. Measured on
# test_discord_games.py + test_async_players.py (-n 0): off 42-47 s, 0.01 43-46 s, 0.05 55-62 s, and
# Discord's own (1) over ten minutes (a game's board edits in one thread wait 5 s per 5).
TEST_TIME_SCALE = 0.01
VIA = "1.1 google"  # Discord's own 429s come through its proxy; discord.py treats one without Via as a ban


@dataclass(frozen=True, slots=True)
class Limit:
    """A per-route bucket: `limit` requests per `per` seconds, per major parameter."""

    bucket: str  # the opaque X-RateLimit-Bucket (routes that share one share the count)
    limit: int
    per: float
    source: str


# (method, route as the fake registers it) -> its bucket. Values as Discord's headers announce them.
ROUTES: dict[tuple[str, str], Limit] = {
    ("POST", "/channels/{channel_id}/messages"): Limit(
        "msg-create", 5, 5.0, "headers on message create: 5 per 5 s per channel (widely reported)"
    ),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): Limit(
        "msg-edit", 5, 5.0, "headers on message edit: 5 per 5 s per channel"
    ),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}"): Limit(
        "msg-delete", 5, 1.0, "headers on message delete: 5 per 1 s per channel"
    ),
    ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me"): Limit(
        "reaction", 1, 0.25, "headers on reactions: 1 per 0.25 s per channel"
    ),
    ("PATCH", "/channels/{channel_id}"): Limit(
        "channel-edit",
        5,
        5.0,
        "channel edits (archive flags); the 2 per 10 min name/topic limit is not modelled",
    ),
    ("POST", "/channels/{channel_id}/threads"): Limit("thread-create", 5, 5.0, "thread create, as messages"),
    ("POST", "/channels/{channel_id}/messages/{message_id}/threads"): Limit(
        "thread-create", 5, 5.0, "thread create, as messages"
    ),
    ("POST", "/users/@me/channels"): Limit(
        "dm-create", 5, 5.0, "DM channel create: a write route, 5 per 5 s"
    ),
    ("POST", "/webhooks/{app_id}/{token}"): Limit(
        "webhook", 5, 2.0, "webhook execute: 5 per 2 s per webhook and token"
    ),
    ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}"): Limit(
        "webhook", 5, 2.0, "webhook message edit: as execute"
    ),
    ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}"): Limit(
        "webhook", 5, 2.0, "webhook message delete: as execute"
    ),
}
DEFAULT = Limit("default", 50, 1.0, "any other route: 50 per 1 s per major parameter (reads, command sync)")
MAJOR = ("channel_id", "guild_id")  # the major parameters; webhooks: app_id (the webhook id) + token
EXEMPT = ("/interactions/", "/webhooks/")  # interaction endpoints: not bound by the global limit


@dataclass(slots=True)
class Window:
    """A fixed window: when it ends and how many requests it has let through."""

    ends: float = 0.0
    used: int = 0


class RateLimits:
    """The fake's rate limiter: `check(request)` is None (let it through, `headers` to add) or the 429."""

    def __init__(self, time_scale: float = 1.0) -> None:
        self.time_scale = time_scale  # every window's length is multiplied by it; 0: no limits
        self.windows: dict[str, Window] = {}
        self.global_window = Window()
        self.limited: Counter[str] = Counter()  # 429s answered: "global" and per bucket

    @property
    def on(self) -> bool:
        """Whether the limits are enforced."""
        return self.time_scale > 0

    def check(self, request: web.Request) -> tuple[web.Response | None, dict[str, str]]:
        """The 429 for a request past a limit (or None), and the X-RateLimit headers of its answer."""
        path = request.path
        if not self.on or not path.startswith(API + "/"):
            return None, {}
        now = time.monotonic()
        if not any(part in path for part in EXEMPT):
            g = self._window(self.global_window, now, GLOBAL_PER)
            g.used += 1
            if g.used > GLOBAL_LIMIT:
                self.limited["global"] += 1
                return self._global(g.ends - now), {}
        info = request.match_info
        canonical = info.route.resource.canonical if info.route.resource is not None else path
        limit = ROUTES.get((request.method, canonical.removeprefix(API)), DEFAULT)
        major = info.get("app_id", "") + "+" + info["token"] if "token" in info else ""
        major = major or next((info[k] for k in MAJOR if k in info), "")
        key = f"{limit.bucket}:{canonical if limit is DEFAULT else ''}:{major}"
        window = self._window(self.windows.setdefault(key, Window()), now, limit.per)
        window.used += 1
        after = max(window.ends - now, 0.0)
        headers = {
            "X-RateLimit-Limit": str(limit.limit),
            "X-RateLimit-Remaining": str(max(limit.limit - window.used, 0)),
            "X-RateLimit-Reset": f"{time.time() + after:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": _hash(limit.bucket if limit is not DEFAULT else canonical),
        }
        if window.used > limit.limit:
            self.limited[limit.bucket] += 1
            return _too_many(after, False, {**headers, "X-RateLimit-Scope": "user"}), {}
        return None, headers

    def _window(self, window: Window, now: float, per: float) -> Window:
        if now >= window.ends:
            window.ends, window.used = now + per * self.time_scale, 0
        return window

    @staticmethod
    def _global(after: float) -> web.Response:
        return _too_many(after, True, {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"})


def _hash(name: str) -> str:
    """An opaque bucket id, stable per bucket (Discord's are hex strings)."""
    return hashlib.sha1(name.encode()).hexdigest()[:16]


def _too_many(after: float, is_global: bool, headers: dict[str, str]) -> web.Response:
    """A 429 as Discord answers it."""
    after = round(max(after, 0.001), 3)
    body = {"message": "You are being rate limited.", "retry_after": after, "global": is_global}
    return web.Response(
        body=json.dumps(body).encode(),
        status=429,
        headers={
            **headers,
            "Content-Type": "application/json",
            "Retry-After": str(math.ceil(after)),  # whole seconds, as Discord's header
            "Via": VIA,
        },
    )
