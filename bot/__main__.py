"""The command line: `python -m bot play omphala` (terminal) and `python -m bot run` (Discord)."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import os
import sys

from bot.console import DEFAULT_DB, PlayOptions, play

NO_TOKEN = """\
DISCORD_TOKEN is not set, so the Discord bot cannot start.

To get a token: Discord Developer Portal (https://discord.com/developers/applications)
→ New Application → Bot → Reset Token, copy it, then run:
    DISCORD_TOKEN=your-token python -m bot run
(Invite it to your server from OAuth2 → URL Generator with the "bot" and "applications.commands" scopes.)

To play in the terminal instead, no token needed:
    python -m bot play omphala                  # you against one AI
    python -m bot play omphala --players 4 --ai 2
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot", description="Agora: tabletop card games on Discord."
    )
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("play", help="play a game in this terminal (against AI seats and/or hot seat)")
    p.add_argument("game", nargs="?", default="omphala", help="the game id (default: omphala)")
    p.add_argument("--players", type=int, default=2, metavar="N", help="number of seats (default: 2)")
    p.add_argument(
        "--ai", type=int, default=None, metavar="K", help="how many seats an AI plays; the rest are humans "
        "sharing this screen (default: all but one)"
    )  # fmt: skip
    p.add_argument("--level", default="random", help="AI level for the AI seats (default: random)")
    p.add_argument("--seed", type=int, default=None, metavar="S", help="deal seed, for a reproducible game")
    p.add_argument(
        "--db", default=DEFAULT_DB, metavar="PATH", help=f"SQLite file of saved games ({DEFAULT_DB})"
    )
    p.add_argument(
        "--resume", nargs="?", const="latest", default=None, metavar="MATCH_ID",
        help="resume a saved game (the latest unfinished one if no id is given)",
    )  # fmt: skip
    p.add_argument("--list", action="store_true", help="list the saved console games and exit")
    p.add_argument(
        "--ai-delay", type=float, default=0.4, metavar="SEC", help="pause before each AI move (0.4)"
    )

    r = sub.add_parser("run", help="start the Discord bot (needs DISCORD_TOKEN)")
    r.add_argument("--db", default=os.environ.get("AGORA_DB", "agora.db"), metavar="PATH", help="SQLite file")
    r.add_argument(
        "--guild", type=int, default=_env_int("AGORA_GUILD_ID"), metavar="ID",
        help="sync slash commands to this one server only (instant; global sync can take up to an hour)",
    )  # fmt: skip
    r.add_argument(
        "--log-level", default=os.environ.get("AGORA_LOG_LEVEL", "INFO"), help="logging level (INFO)"
    )
    return parser


def _env_int(name: str) -> int | None:
    value = os.environ.get(name, "").strip()
    return int(value) if value.isdigit() else None


def _run_discord(db: str, guild_id: int | None = None, log_level: str = "INFO") -> int:
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        sys.stderr.write(NO_TOKEN)
        return 2
    try:
        front = importlib.import_module("bot.discord")
    except ModuleNotFoundError as e:
        if e.name is None or not e.name.startswith("bot.discord"):
            raise
        sys.stderr.write(
            "The Discord front end is not part of this build yet; try: python -m bot play omphala\n"
        )
        return 1
    return int(front.run(token=token, db_path=db, guild_id=guild_id, log_level=log_level) or 0)


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run it; the exit code."""
    args = _parser().parse_args(argv)
    if args.command == "run":
        return _run_discord(args.db, args.guild, args.log_level)
    resume = args.resume
    if resume not in (None, "latest"):
        try:
            resume = int(resume)
        except ValueError:
            sys.stderr.write(f"--resume takes a game number, not {resume!r}\n")
            return 2
    opts = PlayOptions(
        game=args.game,
        players=args.players,
        ai=args.ai,
        seed=args.seed,
        db=args.db,
        resume=resume,
        list=args.list,
        level=args.level,
        ai_delay=max(0.0, args.ai_delay),
    )
    try:
        return asyncio.run(play(opts))
    except KeyboardInterrupt:
        sys.stdout.write("\nSaved. Resume with: python -m bot play --resume\n")
        return 130


if __name__ == "__main__":
    sys.exit(main())
