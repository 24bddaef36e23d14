"""Agora's Discord front end (discord.py 2.x): lobbies, public boards, ephemeral hands and menus, commands.

`run(token, db_path)` is what `python -m bot run` calls; `AgoraBot` is the client (see bot/discord/app.py),
`ShardedAgoraBot` the same on some of the bot's shards (`run --shards 0-3 --shard-count 8`).
"""

from __future__ import annotations

import asyncio
import os

from bot import ops
from bot.discord.app import AgoraBot, ShardedAgoraBot, serve
from bot.store.base import Shards

__all__ = ["AgoraBot", "ShardedAgoraBot", "run", "serve"]


def run(
    token: str,
    db_path: str = "agora.db",
    guild_id: int | None = None,
    log_level: str = "INFO",
    shards: Shards | None = None,
) -> int:
    """Log in and serve until interrupted (only these shards' guilds, when given); the exit code."""
    ops.setup_logging(log_level)
    port = os.environ.get("AGORA_METRICS_PORT", "").strip()
    if port.isdigit():
        ops.serve_metrics(int(port))
    try:
        asyncio.run(serve(token, db_path, guild_id, shards))
    except KeyboardInterrupt:
        return 0
    return 0
