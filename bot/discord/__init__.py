"""Agora's Discord front end (discord.py 2.x): lobbies, public boards, ephemeral hands and menus, commands.

`run(token, db_path)` is what `python -m bot run` calls; `AgoraBot` is the client (see bot/discord/app.py).
"""

from __future__ import annotations

import asyncio
import logging

from bot.discord.app import AgoraBot, serve

__all__ = ["AgoraBot", "run", "serve"]


def run(token: str, db_path: str = "agora.db", guild_id: int | None = None, log_level: str = "INFO") -> int:
    """Log in and serve until interrupted; the exit code."""
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        asyncio.run(serve(token, db_path, guild_id))
    except KeyboardInterrupt:
        return 0
    return 0
