"""The bot's share of Discord's global rate limit (50 requests a second per bot), spent fairly.

discord.py waits on Discord's per-route buckets by itself (it reads the X-RateLimit headers) but not on the
global limit: it only learns of it from a 429, which then stops every request. So every request the bot
makes with its token takes a token from one Budget first, at the moment it goes on the wire (an aiohttp
trace hook on discord.py's session: after discord.py's bucket wait, so a request waiting on its channel's
bucket holds no share of the global one). Interaction callbacks and follow-ups (/interactions/, /webhooks/)
are not bound by the global limit and pass at once.

A token bucket of RATE a second holding at most BURST keeps every second under RATE + BURST < 50. When
requests wait, they are served one channel at a time in turn (round robin over the channels with waiting
requests: a busy channel never starves a quiet one), and requests made under `yielding()` (reminders, direct
messages) only when no board waits. A process that owns some of the shards takes their share of the rate.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from types import SimpleNamespace
from typing import Any

import aiohttp

RATE = 42.0  # requests a second (Discord: 50 a second per bot, outside interaction endpoints)
BURST = 4  # requests at once at most: no second ever holds more than RATE + BURST
FIRST, LAST = 0, 1  # priorities: boards and everything else; reminders and direct messages
EXEMPT = ("/interactions/", "/webhooks/")  # interaction endpoints: not bound by the global limit
_CHANNEL = re.compile(r"/channels/(\d+)")
_priority: ContextVar[int] = ContextVar("agora_request_priority", default=FIRST)


@contextlib.contextmanager
def yielding() -> Iterator[None]:
    """Requests made inside wait until no board's request waits (reminders and direct messages)."""
    token = _priority.set(LAST)
    try:
        yield
    finally:
        _priority.reset(token)


class Budget:
    """A token bucket of `rate` requests a second (at most `burst` at once), served round robin by channel
    and by priority when requests wait."""

    def __init__(
        self, rate: float = RATE, burst: int = BURST, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst, self._clock = rate, burst, clock
        self._tokens = float(burst)
        self._stamp = clock()
        self._waiting: tuple[dict[str, deque[asyncio.Future[None]]], ...] = ({}, {})  # by priority, lane
        self._pump: asyncio.Task[None] | None = None
        self.taken = 0  # requests let through
        self.waited = 0  # of them, those that waited for a token

    @classmethod
    def share(cls, owned: int, count: int) -> Budget:
        """The budget of a process owning `owned` of `count` shards (every process takes its share)."""
        part = owned / count
        return cls(RATE * part, max(1, round(BURST * part)))

    async def take(self, lane: str, priority: int | None = None) -> None:
        """Wait for a token for a request about `lane` (a channel id, "" for the rest)."""
        self.taken += 1
        self._refill()
        if self._tokens >= 1 and not any(self._waiting):
            self._tokens -= 1
            return
        self.waited += 1
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        level = _priority.get() if priority is None else priority
        self._waiting[level].setdefault(lane, deque()).append(future)
        if self._pump is None or self._pump.done():
            self._pump = loop.create_task(self._serve(), name="agora-budget")
        await future  # cancelled: the pump skips it

    async def _serve(self) -> None:
        while any(self._waiting):
            self._refill()
            if self._tokens < 1:
                await asyncio.sleep((1 - self._tokens) / self.rate)
                continue
            future = self._next()
            if not future.done():
                future.set_result(None)
                self._tokens -= 1

    def _next(self) -> asyncio.Future[None]:
        """The first waiter of the next lane in turn at the first priority that has any."""
        queue = next(q for q in self._waiting if q)
        lane = next(iter(queue))
        waiters = queue.pop(lane)
        future = waiters.popleft()
        if waiters:
            queue[lane] = waiters  # to the back of the round
        return future

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now

    def trace(self) -> aiohttp.TraceConfig:
        """An aiohttp trace for discord.py's session (Client(http_trace=...)): every request to Discord's API
        that is bound by the global limit takes a token just before it is sent."""

        async def on_start(_: aiohttp.ClientSession, __: SimpleNamespace, params: Any) -> None:
            path = params.url.path
            if "/api/v" in path and not any(part in path for part in EXEMPT):
                found = _CHANNEL.search(path)
                await self.take(found.group(1) if found else "")

        config = aiohttp.TraceConfig()
        config.on_request_start.append(on_start)
        return config


SWEEP_EVERY = 60.0  # seconds between sweeps of discord.py's idle rate-limit buckets


def sweep_sparingly(
    http: Any, every: float = SWEEP_EVERY, clock: Callable[[], float] = time.monotonic
) -> None:
    """Sweep discord.py's idle rate-limit buckets at most once every `every` seconds.

    discord.py keeps a bucket per route key, and an interaction's callback and follow-ups are routes of their
    own (the token is in the path): a bot answering thousands of presses holds thousands of buckets. Once it
    holds 256, discord.py scans them all for idle ones (300 s without a request) each time it makes a new one,
    which made that scan the bot's largest cost at 2,000 channels (bench/load.py: 76 s of CPU in 180 s).
    Sweeping on a timer keeps the same buckets (an idle one is at most `every` seconds late to go) for a scan
    a minute.
    """
    sweep = getattr(
        http, "_try_clear_expired_ratelimits", None
    )  # discord.py 2.x's sweep, bound to this client
    if sweep is None:  # a discord.py that sweeps otherwise: leave it be
        return
    last = clock()

    def sparingly() -> None:
        nonlocal last
        if clock() - last >= every:
            last = clock()
            sweep()

    http._try_clear_expired_ratelimits = sparingly
