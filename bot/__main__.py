"""The command line (`agora`, or `python -m bot`): `play` a game in the terminal, `learn` one there, `run`
the Discord bot, `export` a terminal game, `replay` an exported game."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import os
import sys
from pathlib import Path

from bot.ai import DEFAULT_LEVEL, LEVELS
from bot.console import PlayOptions, learn, play
from bot.sessions.types import DEFAULT_WINDOWS, WINDOW_SETTINGS
from bot.store import StoreError, open_store
from bot.store.base import Shards
from bot.store.sqlite import backup as sqlite_backup
from bot.terminal import DEFAULT_DB, command, first_game, no_database
from engine.packs import supports as supports_packs
from engine.registry import games
from engine.table.present import choices_of, of, player_count, plural


def no_token() -> str:
    """What `run` says without a token: how to get one, and how to play in the terminal meanwhile."""
    cmd, game = command(), first_game()
    return f"""\
DISCORD_TOKEN is not set, so the Discord bot cannot start.

To get a token: Discord Developer Portal (https://discord.com/developers/applications)
→ New Application → Bot → Reset Token, copy it, then run:
    DISCORD_TOKEN=your-token {cmd} run
(Invite it to your server from OAuth2 → URL Generator with the "bot" and "applications.commands" scopes.)

To play in the terminal instead, no token needed:
    {cmd} play {game}                  # you against one AI
    {cmd} play {game} --players 4 --ai 2
"""


def _games_help() -> str:
    lines = ["games:"]
    for g in games().values():
        lines.append(f"  {g.id:<12} {g.title}, {player_count(g)}")
        for c in choices_of(of(g)):
            ids = ", ".join(option for option, _ in c.options)
            lines.append(f"  {'':<12}   --choose {c.key}=ID, {c.label.lower()}: {ids} (random if not chosen)")
        if supports_packs(g.id):
            lines.append(f"  {'':<12}   --pack FILE (or --pack example): add a card pack of new cards")
    lines.append(f"AI levels: {', '.join(LEVELS)} (default {DEFAULT_LEVEL})")
    lines.append(
        "in a game: a move's number or letter; u undo, r redraw, q (or Ctrl-C) save and quit, h help"
    )
    return "\n".join(lines)


def _parser() -> argparse.ArgumentParser:
    cmd = command()
    parser = argparse.ArgumentParser(prog=cmd, description="Agora: tabletop card games on Discord.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser(
        "play",
        help="play a game in this terminal (against AI seats and/or hot seat)",
        description="Play a game in this terminal, against AI seats and/or with others at this screen.",
        epilog=_games_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    first = first_game()
    p.add_argument("game", nargs="?", default=first, metavar="GAME", help=f"the game id (default: {first})")
    p.add_argument("--players", type=int, default=2, metavar="N", help="number of seats (default: 2)")
    p.add_argument(
        "--ai", type=int, default=None, metavar="K", help="how many seats an AI plays; the rest are humans "
        "sharing this screen (default: all but one)"
    )  # fmt: skip
    p.add_argument(
        "--level", default=DEFAULT_LEVEL, metavar="LEVEL",
        help=f"AI level for the AI seats: {', '.join(LEVELS)} (default: {DEFAULT_LEVEL})",
    )  # fmt: skip
    p.add_argument(
        "--choose", action="append", default=[], metavar="KEY=ID",
        help="what your seat(s) pick before the deal in a game that offers choices (listed under games "
        "below), e.g. --choose deck=crown; repeatable; without it, random",
    )  # fmt: skip
    p.add_argument(
        "--windows", choices=WINDOW_SETTINGS, default=DEFAULT_WINDOWS,
        help="how response windows treat you: ask = every window waits for you, whatever you hold; auto = "
        "a window you cannot respond to passes at once (the default; opponents may infer you held nothing); "
        "all = every window passes at once",
    )  # fmt: skip
    p.add_argument(
        "--no-confirm", dest="confirm", action="store_false",
        help="the full-screen app does not ask before ending your turn or passing while you have other moves",
    )  # fmt: skip
    p.add_argument(
        "--pack", default=None, metavar="FILE",
        help="deal the game with a card pack: a TOML file of new cards for it (checked first), or `example` "
        "for the example pack the game ships",
    )  # fmt: skip
    p.add_argument("--seed", type=int, default=None, metavar="S", help="deal seed, for a reproducible game")
    _db_option(p, f"SQLite file of saved games ({DEFAULT_DB})", DEFAULT_DB)
    p.add_argument(
        "--resume", nargs="?", const="latest", default=None, metavar="MATCH_ID",
        help="resume a saved game (the latest unfinished one if no id is given)",
    )  # fmt: skip
    p.add_argument("--list", action="store_true", help="list the saved console games and exit")
    p.add_argument(
        "--line", action="store_true",
        help="plain line mode instead of the full-screen app (what piped input always gets)",
    )  # fmt: skip
    p.add_argument(
        "--ai-delay", type=float, default=0.4, metavar="SEC", help="pause before each AI move (0.4)"
    )

    n = sub.add_parser(
        "learn",
        help="learn a game: a guided practice game against the easy AI, in the full-screen app",
        description="Learn a game by playing it: a practice game on a fixed deal against the easy AI whose "
        "first turns are guided (each step says what to do and why, quoting the rule, with the cursor on the "
        "suggested move; any move is allowed and explained). Then play on freely with hints (?); h shows "
        "the rules on one page. Not rated; saved like any terminal game (play --resume ID goes on with it).",
    )
    n.add_argument("game", metavar="GAME", help="the game id (see play --help for the games)")
    _db_option(n, f"SQLite file of saved games ({DEFAULT_DB})", DEFAULT_DB)
    n.add_argument(
        "--ai-delay", type=float, default=0.4, metavar="SEC", help="pause before each AI move (0.4)"
    )

    r = sub.add_parser("run", help="start the Discord bot (needs DISCORD_TOKEN)")
    _db_option(r, "the SQLite file, or a postgresql:// URL (several processes share one PostgreSQL database)")
    r.add_argument(
        "--guild", type=int, default=_env_int("AGORA_GUILD_ID"), metavar="ID",
        help="sync slash commands to this one server only (instant; global sync can take up to an hour)",
    )  # fmt: skip
    r.add_argument(
        "--log-level", default=os.environ.get("AGORA_LOG_LEVEL", "INFO"), help="logging level (INFO)"
    )
    r.add_argument(
        "--shards", default=os.environ.get("AGORA_SHARDS", ""), metavar="IDS",
        help="run only these Discord shards, e.g. 0-3 or 0,2,5 (needs --shard-count); other processes on "
        "the same PostgreSQL database run the rest (default: every shard)",
    )  # fmt: skip
    r.add_argument(
        "--shard-count", default=os.environ.get("AGORA_SHARD_COUNT", ""), metavar="N",
        help="how many shards the bot has in all, across every process (default: one unsharded connection)",
    )  # fmt: skip
    g = sub.add_parser(
        "ratings",
        help="rebuild the skill ratings from the stored results (--rebuild)",
        description="Skill ratings (per game, per server and across servers) move as games finish. --rebuild "
        "recomputes every one of them from the stored results, in finish order, in one transaction; the bot "
        "waits for it, so on a big database stop the bot first.",
    )
    g.add_argument("--rebuild", action="store_true", help="recompute every rating from the stored results")
    _db_option(g, "the bot's SQLite file")
    x = sub.add_parser(
        "replay",
        help="play back a game exported with /game export, move by move, and check it",
        description="Play back a game exported with /game export: the deal, then each move with its log "
        "lines and the board (Enter for the next move), then whether the engine rebuilds the recorded final "
        "position and result from the seed and the moves.",
    )
    x.add_argument("file", metavar="FILE", help="the export (a .json file)")
    x.add_argument("--all", action="store_true", help="print every move straight through, without waiting")
    x.add_argument(
        "--seat", type=int, default=None, metavar="N",
        help="watch through seat N's eyes (1 = the first seat): their hand and their own secrets shown",
    )  # fmt: skip
    e = sub.add_parser(
        "export",
        help="write a terminal game that is over as a file `replay` plays back (the /game export format)",
        description="Write a finished terminal game as the JSON file /game export attaches (docs/export.md): "
        "the seed, the options and every move, which `replay FILE` plays back. A game still being played "
        "is refused: its export would reveal every hidden card.",
    )
    e.add_argument(
        "id", nargs="?", type=int, default=None, metavar="ID",
        help="the game's number (--list of play shows them; default: the latest finished game)",
    )  # fmt: skip
    e.add_argument(
        "--to", dest="target", default=None, metavar="FILE",
        help="the file to write (default: agora-GAME-ID.json here)",
    )  # fmt: skip
    e.add_argument("--force", action="store_true", help="replace FILE if it exists")
    _db_option(e, f"SQLite file of saved games ({DEFAULT_DB})", DEFAULT_DB)
    sub.add_parser(
        "health",
        help="exit 0 if the running bot's heartbeat is recent (the Docker health check; see bot/ops.py)",
    )
    b = sub.add_parser(
        "backup",
        help="copy the bot's SQLite database to a file, safely while the bot runs (SQLite's backup API)",
        description="Copy the bot's SQLite database, with the moves still in its write-ahead log, into one "
        "self-contained file: a consistent snapshot, safe while the bot runs and writes. For PostgreSQL, "
        "use pg_dump.",
    )
    b.add_argument("--to", dest="target", required=True, metavar="FILE", help="the backup file to write")
    _db_option(b, "the bot's SQLite file (default: AGORA_DB, else agora.db)")
    b.add_argument("--force", action="store_true", help="replace FILE if it exists")
    m = sub.add_parser(
        "migrate",
        help="copy a SQLite database's games, stats and settings into an empty PostgreSQL database",
        description="Copy every table of the bot's SQLite file into an empty PostgreSQL database (brought "
        "to the same schema version first), in one transaction, then compare each table's row count and "
        "checksum on both sides. Stop the bot first. Exit 0 only when everything matches.",
    )
    m.add_argument("--from", dest="source", required=True, metavar="PATH", help="the bot's SQLite file")
    env_db = os.environ.get("AGORA_DB", "")
    to = env_db if env_db.startswith(("postgresql://", "postgres://")) else None
    m.add_argument(
        "--to", dest="target", required=to is None, default=to, metavar="URL",
        help="the empty PostgreSQL database, postgresql://user:password@host:5432/database (default: "
        "AGORA_DB when it is a PostgreSQL URL)",
    )  # fmt: skip
    return parser


def _db_option(parser: argparse.ArgumentParser, help: str, default: str = "") -> None:
    """The --db option of a command: the bot's database (AGORA_DB, else agora.db) unless another default."""
    parser.add_argument(
        "--db", default=default or os.environ.get("AGORA_DB", "agora.db"), metavar="PATH", help=help
    )


def _env_int(name: str) -> int | None:
    value = os.environ.get(name, "").strip()
    return int(value) if value.isdigit() else None


def parse_shards(ids: str, count: str) -> Shards | None:
    """The shards `run` owns from --shards/--shard-count ("0-3", "0,2,5", "8"); None without either (one
    unsharded connection). ValueError with a one-line reason for anything else."""
    ids, count = ids.strip(), count.strip()
    if not ids and not count:
        return None
    if not count:
        raise ValueError("--shards needs --shard-count: how many shards the bot has in all (e.g. 8)")
    if not count.isdigit() or int(count) < 1:
        raise ValueError(f"--shard-count takes a number of shards of at least 1, not {count!r}")
    total = int(count)
    if not ids:
        return Shards(total, frozenset(range(total)))
    owned: set[int] = set()
    for part in ids.split(","):
        first, dash, last = part.strip().partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise ValueError(f"--shards takes shard ids like 0-3 or 0,2,5, not {ids!r}")
        low, high = int(first), int(last) if dash else int(first)
        if high < low:
            raise ValueError(f"--shards: the range {part.strip()} runs backwards")
        owned.update(range(low, high + 1))
    if past := sorted(i for i in owned if i >= total):
        raise ValueError(f"--shards {ids}: shard {past[0]} is not among the {total} shards 0-{total - 1}")
    return Shards(total, frozenset(owned))


def _run_discord(
    db: str, guild_id: int | None = None, log_level: str = "INFO", shards: Shards | None = None
) -> int:
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        sys.stderr.write(no_token())
        return 2
    try:
        front = importlib.import_module("bot.discord")
    except ModuleNotFoundError as e:
        if e.name is None or not e.name.startswith("bot.discord"):
            raise
        sys.stderr.write(
            f"The Discord front end is not part of this build yet; try: {command()} play {first_game()}\n"
        )
        return 1
    return int(front.run(token=token, db_path=db, guild_id=guild_id, log_level=log_level, shards=shards) or 0)


async def _ratings(db: str, rebuild: bool) -> int:
    """`ratings --rebuild`: recompute every rating from the stored results and say what was done."""
    if not rebuild:
        sys.stderr.write(f"Nothing to do: {command()} ratings --rebuild recomputes them from the results.\n")
        return 2
    if no_database(db):
        sys.stderr.write(f"{command()}: there is no database at {db}\n")
        return 1
    async with open_store(db) as store:
        done = await store.rebuild_ratings()
    unrated = done.games - done.rated
    print(
        f"Rebuilt the ratings of {db} from {plural(done.games, 'finished game')}: {done.rated} rated, "
        f"{unrated} unrated (console games, or fewer than two players); "
        f"{plural(done.ratings, 'rating')} and {plural(done.changes, 'rating change')} stored."
    )
    return 0


def _backup(db: str, target: str, force: bool) -> int:
    """`backup --to FILE`: a consistent copy of the SQLite database, and one line saying what it holds."""
    if db.startswith(("postgresql://", "postgres://")):
        sys.stderr.write(
            f"{command()} backup copies a SQLite file; back up PostgreSQL with pg_dump "
            "(e.g. pg_dump -Fc -f agora.dump DATABASE_URL)\n"
        )
        return 2
    made = sqlite_backup(Path(db.removeprefix("sqlite:///")), Path(target), force=force)
    print(
        f"Backed up {db} to {target}: {plural(made.matches, 'game')}, {plural(made.moves, 'move')}, "
        f"{made.size / 1e6:.1f} MB."
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run it; the exit code."""
    args = _parser().parse_args(argv)
    try:
        return _command(args)
    except StoreError as e:  # a database this version cannot use: one line, not a traceback
        sys.stderr.write(f"{command()}: {e}\n")
        return 1


def _command(args: argparse.Namespace) -> int:
    """Run the parsed command; the exit code."""
    if args.command == "run":
        try:
            shards = parse_shards(args.shards, args.shard_count)
        except ValueError as e:
            sys.stderr.write(f"{command()} run: {e}\n")
            return 2
        return _run_discord(args.db, args.guild, args.log_level, shards)
    if args.command == "ratings":
        return asyncio.run(_ratings(args.db, args.rebuild))
    if args.command == "replay":
        from bot.replay import replay_file

        try:
            return replay_file(args.file, all_moves=args.all, seat=args.seat)
        except KeyboardInterrupt:
            return 130
        except BrokenPipeError:  # `agora replay FILE --all | head`: stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
    if args.command == "learn":
        try:
            return asyncio.run(learn(args.game, args.db, max(0.0, args.ai_delay)))
        except KeyboardInterrupt:
            return 130
    if args.command == "export":
        from bot.export import export_game

        return asyncio.run(export_game(args.db, args.id, args.target, args.force))
    if args.command == "backup":
        return _backup(args.db, args.target, args.force)
    if args.command == "migrate":
        from bot.migrate import migrate

        return asyncio.run(migrate(args.source, args.target))
    if args.command == "health":
        from bot.ops import health

        ok, line = health()
        print(line)
        return 0 if ok else 1
    resume = args.resume
    if resume not in (None, "latest"):
        try:
            resume = int(resume)
        except ValueError:
            sys.stderr.write(f"--resume takes a game number, not {resume!r}\n")
            return 2
    choose = []
    for text in args.choose:
        key, eq, option = text.partition("=")
        if not (eq and key.strip() and option.strip()):
            sys.stderr.write(f"--choose takes KEY=ID (e.g. --choose deck=crown), not {text!r}\n")
            return 2
        choose.append((key.strip(), option.strip()))
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
        choose=tuple(choose),
        windows=args.windows,
        confirm=args.confirm,
        line=args.line,
        pack=args.pack,
    )
    try:
        return asyncio.run(play(opts))
    except KeyboardInterrupt:  # play() has said the game is saved and how to resume it
        return 130


if __name__ == "__main__":
    sys.exit(main())
