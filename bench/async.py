"""What an asynchronous game costs its people (issue 22): messages, pings and waits, per game and setting.

    .venv/bin/python bench/async.py [--quick] [--games N] [--games-per GAME=N,...] [--settings ask,auto,all]
                                    [--mode easy|random] [--only GAME] [--pause SEC] [--pace async|live|]
                                    [--seed S] [--jobs J]

--quick: one game per game and setting (a few minutes in all on 2 cores). Then, unless --no-away, a simulated
fortnight of three games in which one person is away 5 days (tests/async_players.py `away_fortnight`):
the timeouts and reminders that hit them while away (target 0) and the away lines on each board (target 1).

Two people play every game through the fake Discord and the real bot (tests/async_players.py): whoever is to
act opens "My hand & moves" on the latest board and presses through the menus to the move the easy AI would
choose (--mode easy) or to a random legal move (--mode random). Before each game both people's window
setting is stored (ask, auto or all; bot.sessions.types.WINDOW_SETTINGS). Play is asynchronous: the bot's
clock moves on --pause seconds (an hour) before a person acts after the other one moved; --pause 0 is both
people at the table all along (a bot that spares people who just moved a ping then pings almost nobody).
The host sets the table's pace (--pace, default async: windows wait like a turn; "" keeps the server's
default, live here). Each (game, setting) runs on a fresh bot and database, so the i-th game of every
setting is the same deal and the people's choices the same seed. --jobs rows are played at once, each in
a process (default 2, for 2 cores): the counts do not depend on it, the seconds per game do.

Columns (means over the games of the row):
  msgs         public messages the bot created in the game's thread (the lobby's included; no ephemerals)
  edits        edits of those messages
  win posts    of those messages, boards posted at a position in a response window (footer "· move N ·")
  pings/p      messages that notified a person (live mentions, allowed_mentions honoured; DMs), per person
  choice/p     turns (runs of one Status.turn key) in which a person was waited on with a real choice
  waits/p      runs of positions in which the bot waited on a person (at async pace each may ping once)
  ≤            share of (person, game) whose pings <= their waits (a target)
  waited       positions in a response window in which a person acted (the window waited for them)
  for them     moves the bot played for a person (SessionEvent.auto: window setting or a lone move)
  moves        moves the people made; moves/ping = moves / pings of both
  wrong word   replies to a move that offered no move (said who is next) while the bot then waited on the
               mover: the reply was written before the steps after the move settled (a total; target 0)
  no-ping win  windows that waited on a person who had not moved in the last few minutes and got no ping
               for it (a total; target 0 at async pace)
  hidden lone  moves played for a person as their lone move that they would not have had in some world an
               opponent cannot tell apart (resampled as tests/hidden_helpers.py does; a total; target 0)
  s/game       wall seconds per game
Targets with the default setting (auto): no window posts a message; pings/p <= choice/p; Ophidian msgs <= 60
and pings/p <= 30.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[1])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import bot.sessions.types as session_types  # noqa: E402
from engine.registry import games  # noqa: E402
from tests.async_players import MODES, PAUSE, GameRecord, away_fortnight, play_game  # noqa: E402
from tests.discord_harness import Harness  # noqa: E402
from tests.fakediscord import FakeDiscord  # noqa: E402

# The settings a person can choose (a bot from before issue 22 has no such list: the same three words).
WINDOW_SETTINGS: tuple[str, ...] = getattr(session_types, "WINDOW_SETTINGS", ("ask", "auto", "all"))
COLUMNS = (
    ("game", 17),
    ("setting", 7),
    ("games", 5),
    ("msgs", 6),
    ("edits", 6),
    ("win posts", 9),
    ("pings/p", 7),
    ("choice/p", 8),
    ("waits/p", 7),
    ("≤", 4),
    ("waited", 6),
    ("for them", 8),
    ("moves", 6),
    ("moves/ping", 10),
    ("wrong word", 10),
    ("no-ping win", 11),
    ("hidden lone", 11),
    ("s/game", 6),
)


async def run_row(
    game: str, setting: str, n: int, mode: str, seed: int, pause: float, pace: str
) -> list[GameRecord]:
    """Play n games of `game` with both people on `setting`, on a fresh fake Discord and database."""
    records = []
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            people = [fake.add_user("alice"), fake.add_user("bob")]
            async with Harness.started(fake, Path(tmp)) as h:
                for i in range(n):
                    rec = await play_game(
                        h, game, people, windows=setting, mode=mode, seed=seed + i, pause=pause, pace=pace
                    )
                    records.append(rec)
    return records


def _mean(values: list[float]) -> float:
    return statistics.fmean(values) if values else float("nan")


def row(game: str, setting: str, records: list[GameRecord]) -> list[str]:
    """One line of the table: means over the games."""
    per_person = [(rec.pings[u], rec.real_turns.get(u, 0)) for rec in records for u in rec.pings]
    waits = [getattr(rec, "waits", rec.real_turns).get(u, 0) for rec in records for u in rec.pings]
    ok = sum(1 for (pings, _), w in zip(per_person, waits, strict=True) if pings <= w) / max(1, len(waits))
    moves = sum(r.moves for r in records)
    pings = sum(r.total_pings for r in records)
    cells = [
        game,
        setting,
        str(len(records)),
        f"{_mean([r.messages for r in records]):.1f}",
        f"{_mean([r.edits for r in records]):.1f}",
        f"{_mean([r.window_posts for r in records]):.1f}",
        f"{_mean([p for p, _ in per_person]):.1f}",
        f"{_mean([t for _, t in per_person]):.1f}",
        f"{_mean([float(w) for w in waits]):.1f}",
        f"{ok:.0%}",
        f"{_mean([r.windows_waited for r in records]):.1f}",
        f"{_mean([sum(r.played_for.values()) for r in records]):.1f}",
        f"{_mean([r.moves for r in records]):.1f}",
        f"{moves / pings:.2f}" if pings else "-",
        str(sum(getattr(r, "wrong_word", 0) for r in records)),
        str(sum(getattr(r, "unpinged_windows", 0) for r in records)),
        str(sum(getattr(r, "hidden_forced", 0) for r in records)),
        f"{_mean([r.seconds for r in records]):.1f}",
    ]
    return cells


def format_table(rows: list[list[str]]) -> str:
    """The rows under a header, columns right-aligned but the first two."""
    lines = []
    for cells in [[name for name, _ in COLUMNS], *rows]:
        parts = [
            c.ljust(w) if i < 2 else c.rjust(w)
            for i, (c, (_, w)) in enumerate(zip(cells, COLUMNS, strict=True))
        ]
        lines.append("  ".join(parts))
    lines.insert(1, "-" * len(lines[0]))
    return "\n".join(lines)


def notes(game: str, setting: str, records: list[GameRecord]) -> list[str]:
    """Lines for games that did not end by themselves, menus found out of date, moves played for someone."""
    out = [f"{game} {setting}: game {i} stopped ({r.stopped})" for i, r in enumerate(records) if r.stopped]
    retries = sum(r.retries for r in records)
    if retries:
        out.append(f"{game} {setting}: {retries} menus were out of date and tried again")
    kinds: Counter[str] = Counter()
    for r in records:
        kinds.update(r.played_for)
    if kinds:
        out.append(f"{game} {setting}: played for them: {dict(kinds)}")
    return out


def parse_per(text: str, known: list[str]) -> dict[str, int]:
    """--games-per "ophidian=1,omphala=4" as a dict."""
    out: dict[str, int] = {}
    for part in filter(None, text.split(",")):
        name, _, n = part.partition("=")
        if name not in known or not n.isdigit():
            raise ValueError(f"--games-per: {part!r} is not GAME=N with GAME one of {', '.join(known)}")
        out[name] = int(n)
    return out


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The options above."""
    known = list(games())
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="one game per game and setting (a few minutes)")
    p.add_argument("--no-away", dest="away", action="store_false", help="skip the fortnight with time away")
    p.add_argument("--games", type=int, default=2, help="games per game and setting [2]")
    p.add_argument(
        "--pace", default="async", help="the table's pace the host picks: async, live or '' [async]"
    )
    p.add_argument("--games-per", default="", help="GAME=N,... overrides --games for some games")
    p.add_argument("--settings", default=",".join(WINDOW_SETTINGS), help="window settings [ask,auto,all]")
    p.add_argument("--mode", choices=MODES, default="easy", help="how people choose [easy]")
    p.add_argument("--only", choices=known, help="one game only")
    p.add_argument("--pause", type=float, default=PAUSE, help=f"seconds before answering [{PAUSE:g}]")
    p.add_argument("--jobs", type=int, default=2, help="rows played at once, each in a process [2]")
    p.add_argument("--seed", type=int, default=1, help="the people's choices: game i uses seed+i [1]")
    args = p.parse_args(argv)
    args.settings = [s for s in args.settings.split(",") if s]
    if args.quick:
        args.games = 1
    if args.games < 1 or args.jobs < 1:
        p.error("--games and --jobs must be positive")
    if not args.settings or any(s not in WINDOW_SETTINGS for s in args.settings):
        p.error(f"--settings: a comma-separated list of {', '.join(WINDOW_SETTINGS)}")
    try:
        args.per = parse_per(args.games_per, known)
    except ValueError as e:
        p.error(str(e))
    args.names = [args.only] if args.only else known
    return args


def play_row(
    game: str, setting: str, n: int, mode: str, seed: int, pause: float, pace: str
) -> list[GameRecord]:
    """run_row in a fresh event loop (and, with --jobs, a process of its own)."""
    return asyncio.run(run_row(game, setting, n, mode, seed, pause, pace))


AWAY_GAMES = ("ophelia", "siege_of_olympus", "ophidian")


async def fortnight() -> str:
    """The simulated fortnight of tests/async_players.py `away_fortnight`, as lines of text."""
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            people = [fake.add_user("alice"), fake.add_user("bob")]
            async with Harness.started(fake, Path(tmp)) as h:
                t0 = time.monotonic()
                r = await away_fortnight(h, people, AWAY_GAMES)
    return (
        f"time away: a fortnight, {r.games} games at async pace (2-day timeout: an AI takes the seat; a"
        f" reminder every 12 h), bob away 5 days after the first; {r.moves} moves,"
        f" {time.monotonic() - t0:.0f} s\n"
        f"  timeouts on bob: {r.timeouts} (target 0) · reminders to bob while away: {r.reminders_away}"
        f" (target 0) · games waiting on him while away (game-hours): {r.waited_on_away}\n"
        f"  away lines per board, once a day while away: {r.lines} (target: all 1)"
    )


def main(args: argparse.Namespace) -> None:
    """Play every row (--jobs at a time), then print the table, the notes and the time it took."""
    t0 = time.monotonic()
    keys = [(game, setting) for game in args.names for setting in args.settings]
    jobs = [(g, s, args.per.get(g, args.games), args.mode, args.seed, args.pause, args.pace) for g, s in keys]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
            results = list(pool.map(play_row, *zip(*jobs, strict=True)))
    else:
        results = [play_row(*job) for job in jobs]
    seconds = time.monotonic() - t0
    print(
        f"two people, mode {args.mode}, {args.pace or 'default'} pace, {args.pause:g} s before answering the"
        f" other, {args.jobs} job(s) at once; means over the games of each row"
    )
    print(format_table([row(g, s, recs) for (g, s), recs in zip(keys, results, strict=True)]))
    for (game, setting), records in zip(keys, results, strict=True):
        for line in notes(game, setting, records):
            print(line)
    games_played = sum(len(r) for r in results)
    print(f"took {seconds:.0f} s for {games_played} games")
    if args.away:
        print(asyncio.run(fortnight()))


if __name__ == "__main__":
    main(parse_args())
