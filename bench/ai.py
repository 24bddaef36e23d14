"""AI strength and speed: win rates between levels (95 % Wilson intervals, seats alternated) and each
level's decision time, for every registered game; at 4 players the hard seat's share against three random.

A game counts as its share of the win for the seat (a shared win counts part). Decision times are the
wall time of bot.ai.choose_move, the whole of an AI move. Games run in --jobs worker processes; each game's
rows are printed as soon as its games are done. --quick plays every pairing in turn, one game each and then
more only while the longest game so far would still end within QUICK_SECONDS (wide intervals), so a
game's rows come in under 3 minutes; --pairing hard:normal plays only the pairings named.
Run: .venv/bin/python bench/ai.py [GAME ...] [--quick] [--games N] [--pairing A:B ...] [--jobs 2]
(no GAME: every registered game)
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai import choose_move
from engine.core import find_action
from engine.registry import games

Job = tuple[str, int, tuple[str, ...]]
Result = tuple[list[float], dict[str, list[float]]]
FOUR = "hard vs 3 random (4p)"
QUICK_SECONDS = 150  # --quick starts a game only while the longest one so far would end within this


def play(job: Job) -> Result:
    """One game with these levels by seat; each seat's share and every decision's time by level."""
    game_id, seed, levels = job
    game = games()[game_id]
    s = game.setup(len(levels), seed)
    times: dict[str, list[float]] = {lvl: [] for lvl in levels}
    step = 0
    while to_act := game.to_act(s):
        seat = to_act[0]
        t0 = time.perf_counter()
        key = choose_move(game, s, seat, levels[seat], seed * 7919 + step)
        times[levels[seat]].append(time.perf_counter() - t0)
        game.apply(s, find_action(game, s, seat, key))
        step += 1
    returns = game.returns(s)
    assert returns is not None
    return returns, times


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def pct(q: float, xs: list[float]) -> float:
    """The q-quantile (nearest rank) of xs."""
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def game_jobs(
    game_id: str, pairings: list[tuple[str, str, int]], four: int
) -> tuple[list[Job], list[tuple[str, int]]]:
    """One game's jobs (seats alternated) and, for each, its pairing and the first level's seat."""
    jobs: list[Job] = []
    tags: list[tuple[str, int]] = []
    for i in range(max([four] + [count for _, _, count in pairings])):  # pairings in turn
        for a, b, count in pairings:
            if i < count:
                levels = (a, b) if i % 2 == 0 else (b, a)
                jobs.append((game_id, 1000 + i, levels))
                tags.append((f"{a} vs {b}", levels.index(a)))
        if i < four:
            levels = tuple("hard" if k == i % 4 else "random" for k in range(4))
            jobs.append((game_id, 5000 + i, levels))
            tags.append((FOUR, i % 4))
    return jobs, tags


def run(
    pool: ProcessPoolExecutor, jobs: list[Job], workers: int, budget: float | None, least: int
) -> list[Result]:
    """Play the jobs in order, `workers` at a time. With a budget (seconds), after the first `least` a job
    starts only while the longest game so far would still end within it; the rest are left out."""
    start = time.perf_counter()
    running: list[tuple[float, Future[Result]]] = []
    longest = 0.0
    for i, job in enumerate(jobs):
        while sum(not f.done() for _, f in running) >= workers:
            time.sleep(0.05)
        now = time.perf_counter()
        for began, f in running:
            if f.done():  # an upper bound: it ended at most 0.05 s ago
                longest = max(longest, now - began)
        if budget is not None and i >= least and now - start + longest > budget:
            break
        running.append((now, pool.submit(play, job)))
    return [f.result() for _, f in running]


def report(game_id: str, tags: list[tuple[str, int]], results: list, seconds: float) -> None:
    """Print one game's rows: win rates by pairing, then decision times by level."""
    wins: dict[str, list[float]] = {}
    times: dict[str, list[float]] = {}
    for (pairing, seat), (returns, t) in zip(tags, results, strict=True):
        wins.setdefault(pairing, []).append(returns[seat])
        if pairing != FOUR:
            for lvl, xs in t.items():
                times.setdefault(lvl, []).extend(xs)
    print(f"\n{game_id}: {len(results)} games in {seconds:.0f} s")
    print(f"{'game':<16} {'pairing':<24} {'games':>5} {'first wins':>10} {'95% interval':>15}")
    for pairing, xs in wins.items():
        p = sum(xs) / len(xs)
        lo, hi = wilson(p, len(xs))
        print(f"{game_id:<16} {pairing:<24} {len(xs):>5} {p:>9.0%} {f'{lo:.0%}-{hi:.0%}':>15}")
    print(f"{'game':<16} {'level':<8} {'decisions':>9} {'p50 ms':>9} {'p99 ms':>9} {'max ms':>9}")
    for lvl, xs in sorted(times.items()):
        p50, p99, top = pct(0.5, xs) * 1e3, pct(0.99, xs) * 1e3, max(xs) * 1e3
        print(f"{game_id:<16} {lvl:<8} {len(xs):>9} {p50:>9.1f} {p99:>9.1f} {top:>9.1f}", flush=True)


def main() -> None:
    """Print the tables, game by game."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("game", nargs="*", help="game ids (default: every registered game)")
    ap.add_argument("--quick", action="store_true", help=f"about {QUICK_SECONDS} s a game")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (times are per process)")
    ap.add_argument("--games", type=int, default=None, help="games per pairing with hard (default 40)")
    ap.add_argument("--pairing", action="append", default=[], help="only these pairings, e.g. hard:normal")
    args = ap.parse_args()
    hard_games = args.games or 40
    cheap_games = max(hard_games, 200)
    pairings = [
        ("hard", "random", hard_games),
        ("hard", "normal", hard_games),
        ("normal", "random", cheap_games),
    ]
    four = max(2, hard_games // 2)
    if args.pairing:
        chosen = [tuple(p.split(":")) for p in args.pairing]
        pairings = [(a, b, hard_games) for a, b in chosen]
        four = 0
    start = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        for game_id, game in games().items():
            if args.game and game_id not in args.game:
                continue
            t0 = time.perf_counter()
            jobs, tags = game_jobs(game_id, pairings, four if game.max_players >= 4 else 0)
            budget = QUICK_SECONDS if args.quick else None
            results = run(pool, jobs, args.jobs, budget, least=len(pairings) + 1)
            report(game_id, tags[: len(results)], results, time.perf_counter() - t0)
    print(f"\nall in {time.perf_counter() - start:.0f} s, {args.jobs} worker(s)", flush=True)


if __name__ == "__main__":
    main()
