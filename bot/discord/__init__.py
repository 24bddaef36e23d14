"""Agora's Discord front end (discord.py 2.x): lobbies, public boards, ephemeral hands and menus, commands.

`run(token, db_path)` is what `python -m bot run` calls; `AgoraBot` is the client (see bot/discord/app.py),
`ShardedAgoraBot` the same on some of the bot's shards (`run --shards 0-3 --shard-count 8`).

The modules, in layers (each imports only those below it; pyproject.toml's import-linter contract holds it):
`app` (the client) · `commands` (the slash commands, a class per concern) · `timers` (reminders, timeouts)
· `board` (the public boards) · `mine`, `lobby`, `menus`, `pages`, `replay`, `packs`, `decks` (the
components and what they answer) · `services` (what handlers share, `guard`) · `settings` (the servers'
settings, one cache) · `away`, `prefs` · `common`, `permissions`, `standings`, `texts` · `budget`.
"""

from __future__ import annotations

import asyncio
import logging
import sys

import discord

from bot import ops
from bot.discord.app import AgoraBot, ShardedAgoraBot, serve
from bot.store.base import Shards
from bot.terminal import command

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
    try:
        where = ops.serve_metrics_from_env()
    except ops.MetricsError as e:  # asked for and not served: say so rather than run without them
        sys.stderr.write(f"{command()} run: {e}\n")
        return 2
    if where is not None:
        logging.getLogger("bot.discord").info("metrics at http://%s/metrics", where)
    try:
        asyncio.run(serve(token, db_path, guild_id, shards))
    except discord.LoginFailure:
        sys.stderr.write(
            f"{command()} run: Discord refused the token in DISCORD_TOKEN; copy it again from the Developer "
            "Portal (your application → Bot → Reset Token)\n"
        )
        return 1
    except KeyboardInterrupt:  # where signals cannot be handled on the loop (Windows)
        return 0
    return 0
