"""A subprocess for the restart tests: the real bot (AgoraBot on a SQLite file) connected to a fake Discord
that runs in the test process, until it is killed or told to stop.

    python tests/discord_worker.py DB API_BASE GATEWAY_URL TOKEN [--hold FILE]

Prints "READY" once connected, then "ACK <match> <state_id> <kind>" after each committed start, move and
undo (before any board is drawn for it). While FILE exists, boards are not drawn (so a test can kill the
process between a committed move and its board). SIGTERM stops it cleanly (AgoraBot.close).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.discord import AgoraBot, board
from bot.sessions import SessionEvent, SessionManager
from bot.store import SqliteStore, Store
from tests.fakediscord import make_client_kwargs


def say(line: str) -> None:
    """One line to the test, at once."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def _ack(ev: SessionEvent) -> None:
    """Called after the change's transaction committed, before the board subscriber."""
    if ev.kind in ("started", "action", "undo"):
        say(f"ACK {ev.info.id} {ev.info.state_id} {ev.kind}")


def _hold_boards(path: str) -> None:
    """Boards wait while the file exists."""
    redraw = board.Boards.redraw

    async def held(self: board.Boards, mid: int) -> None:
        while os.path.exists(path):
            await asyncio.sleep(0.01)
        await redraw(self, mid)

    board.Boards.redraw = held  # type: ignore[method-assign]
    board.CLOSE_WAIT = 0.2  # a clean stop does not wait long for held boards


async def serve(bot: AgoraBot, sessions: SessionManager, store: Store, token: str) -> int:
    """Run the bot until SIGTERM (or SIGKILL), saying READY once connected and STOPPED at the end."""
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, lambda: loop.create_task(bot.close()))

    async def ready() -> None:
        await bot.wait_until_ready()
        say("READY")

    announce = loop.create_task(ready())
    try:
        async with bot:
            await bot.start(token)
    finally:
        await sessions.close()
        await store.close()
        announce.cancel()
    say("STOPPED")
    return 0


def point_at(api_base: str, gateway: str) -> None:
    """Send discord.py's REST calls and gateway connection to the fake Discord."""
    Route.BASE = api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


async def main(db: str, api_base: str, gateway: str, token: str) -> int:
    """Run the bot until SIGTERM (or SIGKILL)."""
    point_at(api_base, gateway)
    store = SqliteStore(db)
    await store.open()
    bot = AgoraBot(lambda hooks: SessionManager(store, hooks=hooks), timer_interval=0, **make_client_kwargs())
    sessions = bot.sessions
    sessions.subscribe(_ack)
    return await serve(bot, sessions, store, token)


def worker_arguments() -> argparse.ArgumentParser:
    """The arguments every worker takes: the database, the fake's API base and gateway, the bot's token."""
    parser = argparse.ArgumentParser()
    for name in ("db", "api_base", "gateway", "token"):
        parser.add_argument(name)
    return parser


if __name__ == "__main__":
    parser = worker_arguments()
    parser.add_argument("--hold", default="")
    a = parser.parse_args()
    if a.hold:
        _hold_boards(a.hold)
    sys.exit(asyncio.run(main(a.db, a.api_base, a.gateway, a.token)))
