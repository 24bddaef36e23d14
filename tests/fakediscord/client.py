"""Running a real, unmodified discord.py client against the fake, and catching errors it logs.

    client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.1)
    async with running_bot(client, fake):          # REST and gateway pointed at the fake until exit
        ...                                        # client is READY here; the guilds are cached

discord.py 2.7 takes its REST base from the class attribute `discord.http.Route.BASE` (webhooks and
interaction callbacks too) and connects first to `DiscordWebSocket.DEFAULT_GATEWAY` (it only asks
`GET /gateway/bot` when sharded); both are patched for the client's lifetime and restored afterwards. It
resumes at the `resume_gateway_url` of READY, which the fake points at itself. These are process-wide class
attributes: run one fake per process at a time. A sharded client (discord.AutoShardedClient) waits 5 s before
each IDENTIFY but its first, for Discord's rate limit; the fake has none, so `quick_identify` (which
`running_bot` applies to sharded clients) drops the wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterator
from typing import Any, TypeVar

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from .server import FakeDiscord

ClientT = TypeVar("ClientT", bound=discord.Client)


@contextlib.contextmanager
def pointed_at(fake: FakeDiscord) -> Iterator[None]:
    """Point discord.py's REST base and default gateway at the fake; restore them on exit."""
    old_base, old_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = fake.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    try:
        yield
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = old_base, old_gateway


def quick_identify(client: discord.Client) -> None:
    """IDENTIFY every shard at once: the fake has no IDENTIFY rate limit to wait 5 seconds for."""

    async def at_once(shard_id: int | None, *, initial: bool = False) -> None:
        return None

    client.before_identify_hook = at_once  # type: ignore[method-assign]


def make_client_kwargs() -> dict[str, Any]:
    """The keyword arguments every test client should be built with (fast ready, default intents)."""
    return {"intents": discord.Intents.default(), "guild_ready_timeout": 0.1, "enable_debug_events": False}


class BotRunner:
    """Starts `client.start(token)` as a task against the fake, waits for READY, and closes it cleanly."""

    def __init__(self, client: discord.Client, fake: FakeDiscord) -> None:
        self.client = client
        self.fake = fake
        self.task: asyncio.Task[None] | None = None
        self._patch: contextlib.ExitStack | None = None

    async def start(self, timeout: float = 10.0) -> None:
        """Log in, connect and wait until the client is ready (raises what start() raised, if it failed)."""
        self._patch = contextlib.ExitStack()
        self._patch.enter_context(pointed_at(self.fake))
        if isinstance(self.client, discord.AutoShardedClient):
            quick_identify(self.client)
        self.task = asyncio.create_task(self.client.start(self.fake.token), name="discord-client")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not self.client.is_ready():
            if self.task.done():
                self._patch.close()
                self.task.result()
                raise RuntimeError("client.start() returned before READY")
            if loop.time() > deadline:
                await self.stop()
                raise TimeoutError("discord.py client did not become ready")
            await asyncio.sleep(0.005)

    async def stop(self) -> None:
        """Close the client and wait for its task; restore discord.py's URLs."""
        try:
            if not self.client.is_closed():
                await self.client.close()
            if self.task is not None:
                with contextlib.suppress(asyncio.CancelledError):
                    await self.task
        finally:
            if self._patch is not None:
                self._patch.close()
                self._patch = None


@contextlib.asynccontextmanager
async def running_bot(client: ClientT, fake: FakeDiscord, timeout: float = 10.0) -> AsyncIterator[ClientT]:
    """Run `client` against `fake` for the duration of the block (READY on entry, closed on exit)."""
    runner = BotRunner(client, fake)
    await runner.start(timeout)
    try:
        yield client
    finally:
        await runner.stop()


async def start_client(client: discord.Client, fake: FakeDiscord, timeout: float = 10.0) -> BotRunner:
    """Start `client` against `fake` and return its runner; call `await runner.stop()` to close it."""
    runner = BotRunner(client, fake)
    await runner.start(timeout)
    return runner


class ErrorLogCapture(logging.Handler):
    """Collects every log record at ERROR or above (discord.py logs callback exceptions there)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Keep the record."""
        self.records.append(record)

    def report(self) -> str:
        """The captured records, formatted with their tracebacks."""
        formatter = logging.Formatter("%(name)s %(levelname)s: %(message)s")
        return "\n".join(formatter.format(r) for r in self.records)


@contextlib.contextmanager
def capture_error_logs() -> Iterator[ErrorLogCapture]:
    """Attach an ErrorLogCapture to the root logger for the block."""
    handler = ErrorLogCapture()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
