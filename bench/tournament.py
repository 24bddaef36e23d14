"""A whole Swiss tournament through the fake Discord and the real bot (issue 39): 16 AI players, 4 rounds.

    .venv/bin/python bench/tournament.py [--game G] [--players 16] [--rounds 4] [--level easy] [--runs N]

A manager creates it with /tournament create, seats the AI players with /tournament add_ai and starts it
with /tournament start; the bot pairs each round, opens a thread and a game per table (the AI plays every
seat), announces the round and goes on when its games are over. On the way: in round 2, with games under
way, one player drops out (/tournament remove: out from round 3) and the bot is stopped at once and started
again; it is restarted again as soon as round 3 is paired; and the last round's clock is run past its end
at once, so the games still going then are adjudicated (the hard AI's evaluation). At the end it checks:
- every round paired each active player once, without a pairing that was played before;
- every table was played, adjudicated or a bye;
- the final standings (points, Buchholz, Sonneborn-Berger, computed here again from the stored tables,
  independently of bot/tournament) equal the bot's posted final standings, player by player.
It prints, per round, the tables, byes, games played and adjudicated, and the wall seconds the bot spent
from the round's pairing until the next round's (the AI's moves, the boards, the posts and the restarts
included; median over --runs).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = str(Path(__file__).resolve().parents[1])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
os.environ.setdefault("AGORA_RENDER_WORKERS", "0")

from bot.store import DONE, TableRecord  # noqa: E402
from tests.discord_harness import Harness  # noqa: E402
from tests.fakediscord import FakeDiscord  # noqa: E402

DAY = 86400.0


def independent_standings(
    tables: list[TableRecord], players: list[str]
) -> dict[str, tuple[float, float, float]]:
    """Points, Buchholz and Sonneborn-Berger of each player, from the decided tables alone (two seats)."""
    points: dict[str, float] = defaultdict(float)
    for t in tables:
        for key, share in zip(t.players, t.points or (), strict=False):
            points[key] += share
    buchholz: dict[str, float] = defaultdict(float)
    sonneborn: dict[str, float] = defaultdict(float)
    for t in tables:
        if len(t.players) != 2 or t.points is None:
            continue
        a, b = t.players
        buchholz[a] += points[b]
        buchholz[b] += points[a]
        sonneborn[a] += t.points[0] * points[b]
        sonneborn[b] += t.points[1] * points[a]
    return {p: (points[p], buchholz[p], sonneborn[p]) for p in players}


def posted_standings(text: str) -> dict[str, tuple[float, float, float]]:
    """The bot's final standings as posted: "🥇 Easy AI 3: **3.5** (Buchholz 8, Sonneborn-Berger 6.5)"."""
    found = {}
    for line in text.splitlines():
        m = re.match(
            r"^\S+ (.+?): \*\*([\d.]+)\*\*(?: \(Buchholz ([\d.]+), Sonneborn-Berger ([\d.]+)\))?", line
        )
        if m:
            found[m[1].replace("\\", "")] = (float(m[2]), float(m[3] or 0), float(m[4] or 0))
    return found


async def _slash(h: Harness, user: Any, command: str, options: dict[str, Any]) -> Any:
    return await (await h.fake.slash(user, h.fake.channel, command, options)).wait_reply()


async def hard_restart(h: Harness) -> None:
    """Stop the bot at once (AI seats stop where they are; committed moves stay) and start a new one on the
    same database, as a restart of the process does."""
    assert h.runner is not None
    await h.runner.stop()
    h.runner = None
    await h.sessions.close()
    await h.store.close()
    await h.start()


async def run(game: str, players: int, rounds: int, level: str) -> dict[str, Any]:
    """One tournament, watched as it goes; its per-round numbers and its checks."""
    out: dict[str, Any] = {"rounds": []}
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            admin = fake.add_user("admin", admin=True)
            async with Harness.started(fake, Path(tmp)) as h:
                options = {"game": game, "format": "swiss", "rounds": rounds, "days_per_round": 2,
                           "adjudication": "ai", "name": "Bench Cup"}  # fmt: skip
                await _slash(h, admin, "tournament create", options)
                (cup,) = await h.store.tournaments(fake.guild.id)
                await _slash(h, admin, "tournament add_ai", {"id": cup.id, "level": level, "count": players})
                began: dict[int, float] = {}
                restarts: dict[int, int] = defaultdict(int)
                dropped = ended_early = False
                deadline = time.monotonic() + 900
                await _slash(h, admin, "tournament start", {"id": cup.id})
                while time.monotonic() < deadline:
                    t = await h.store.tournament(cup.id)
                    if t.round not in began:
                        began[t.round] = time.perf_counter()
                        if t.round == 3:  # a restart as soon as round 3 is paired
                            await hard_restart(h)
                            restarts[3] += 1
                    if t.status == DONE:
                        break
                    if t.round == 2 and not dropped:  # games under way: one player drops out, then a restart
                        await asyncio.sleep(0.3)
                        gone = (await h.store.entrants(cup.id))[4]
                        await _slash(h, admin, "tournament remove", {"id": cup.id, "ai": gone.player[3:]})
                        await hard_restart(h)
                        restarts[2] += 1
                        dropped = True
                    if t.round == rounds and not ended_early:  # the round's end at once: the rest adjudicated
                        h.clock[0] += 2 * DAY + 1
                        ended_early = True
                    await h.bot.timers.tick(h.clock[0])
                    await asyncio.sleep(0.05)
                finished = time.perf_counter()
                await h.settle()
                tables = await h.store.tables(cup.id)
                for r in range(1, rounds + 1):
                    these = [x for x in tables if x.round == r]
                    out["rounds"].append({
                        "round": r, "tables": sum(len(x.players) > 1 for x in these),
                        "byes": sum(len(x.players) == 1 for x in these),
                        "played": sum(x.how in ("played", "abandoned") for x in these),
                        "adjudicated": sum(x.how == "adjudicated" for x in these),
                        "restarts": restarts[r], "seconds": began.get(r + 1, finished) - began[r],
                    })  # fmt: skip
                out["checks"] = await _checks(h, cup.id, rounds)
    return out


async def _checks(h: Harness, tid: int, rounds: int) -> dict[str, bool]:
    """The issue's checks over the stored tournament and what the bot posted."""
    tables = await h.store.tables(tid)
    entrants = await h.store.entrants(tid)
    seen: set[frozenset[str]] = set()
    once = no_repeat = True
    for r in range(1, rounds + 1):
        these = [t for t in tables if t.round == r]
        active = sorted(e.player for e in entrants if e.dropped is None or e.dropped > r)
        seated = sorted(p for t in these for p in t.players)
        once &= seated == active
        for t in these:
            pair = frozenset(t.players)
            if len(pair) == 2:
                no_repeat &= pair not in seen
                seen.add(pair)
    decided = all(
        t.points is not None and t.how in ("played", "adjudicated", "bye", "abandoned") for t in tables
    )
    names = {e.player: e.name for e in entrants}
    mine = {names[p]: v for p, v in independent_standings(tables, list(names)).items()}
    finals = [m for m in h.fake.public(h.fake.channel) if "Final standings" in m.text()]
    posted = posted_standings(finals[-1].text()) if finals else {}
    same = (
        bool(posted)
        and all(all(abs(a - b) < 1e-9 for a, b in zip(mine[n], v, strict=True)) for n, v in posted.items())
        and set(posted) == set(mine)
    )
    return {"each once a round": once, "no repeat pairing": no_repeat, "every table decided": decided,
            "final standings = independent": same}  # fmt: skip


def main() -> None:
    """Run the tournament --runs times and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="omphala")
    ap.add_argument("--players", type=int, default=16)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--level", default="easy")
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args()
    runs = [asyncio.run(run(args.game, args.players, args.rounds, args.level)) for _ in range(args.runs)]
    print(f"Swiss of {args.players} {args.level} AI players, {args.rounds} rounds, {args.game}; "
          f"{len(runs)} run(s); 2 restarts and 1 drop-out each")  # fmt: skip
    print(f"{'round':>5} {'tables':>6} {'byes':>4} {'played':>6} {'adjud.':>6} {'restart':>7} {'bot s':>8}")
    for i, first in enumerate(runs[0]["rounds"]):
        seconds = statistics.median(r["rounds"][i]["seconds"] for r in runs)
        print(f"{first['round']:>5} {first['tables']:>6} {first['byes']:>4} {first['played']:>6} "
              f"{first['adjudicated']:>6} {first['restarts']:>7} {seconds:>8.1f}")  # fmt: skip
    total = statistics.median(sum(x["seconds"] for x in r["rounds"]) for r in runs)
    print(f"{'all':>5} {'':>6} {'':>4} {'':>6} {'':>6} {'':>7} {total:>8.1f}")
    for name in runs[0]["checks"]:
        ok = all(r["checks"][name] for r in runs)
        print(f"{'✓' if ok else '✗'} {name}")
    if not all(all(r["checks"].values()) for r in runs):
        sys.exit(1)


if __name__ == "__main__":
    main()
