"""A subprocess for the shard tests: the real bot on some of the bot's shards (ShardedAgoraBot), on a shared
database (a SQLite file or a postgresql:// URL), connected to a fake Discord that runs in the test process,
until it is killed or told to stop.

    python tests/shard_worker.py DB API_BASE GATEWAY_URL TOKEN --shards 0-1 --shard-count 4
        [--lease SECONDS] [--timer-interval SECONDS]

Prints "READY" once every shard is connected, then "ACK <match> <state_id> <kind> <seat> <move>" after each
committed start, move and undo (the subscriber runs after the commit, before any board is drawn). SIGTERM
stops it cleanly (AgoraBot.close).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.__main__ import parse_shards
from bot.discord import ShardedAgoraBot
from bot.sessions import SessionEvent, SessionManager
from bot.store import open_store
from tests.discord_worker import point_at, say, serve, worker_arguments
from tests.fakediscord import make_client_kwargs, quick_identify


def _ack(ev: SessionEvent) -> None:
    """Called after the change's transaction committed, before the board subscriber."""
    if ev.kind in ("started", "action", "undo"):
        seat = "-" if ev.seat is None else ev.seat
        say(f"ACK {ev.info.id} {ev.info.state_id} {ev.kind} {seat} {ev.action_key or '-'}")


async def main(a: argparse.Namespace) -> int:
    """Run the bot until SIGTERM (or SIGKILL)."""
    logging.basicConfig(level=logging.WARNING, format=f"{a.shards} %(name)s %(levelname)s: %(message)s")
    point_at(a.api_base, a.gateway)
    shards = parse_shards(a.shards, a.shard_count)
    assert shards is not None
    store = open_store(a.db)
    await store.open()
    bot = ShardedAgoraBot(
        lambda hooks: SessionManager(store, hooks=hooks),
        shards=shards,
        timer_interval=a.timer_interval,
        claim_lease=a.lease,
        **make_client_kwargs(),
    )
    sessions = bot.sessions
    sessions.subscribe(_ack)
    quick_identify(bot)  # the fake has no IDENTIFY rate limit
    return await serve(bot, sessions, store, a.token)


if __name__ == "__main__":
    parser = worker_arguments()
    parser.add_argument("--shards", required=True)
    parser.add_argument("--shard-count", required=True)
    parser.add_argument("--lease", type=float, default=3.0)
    parser.add_argument("--timer-interval", type=float, default=0.5)
    sys.exit(asyncio.run(main(parser.parse_args())))
