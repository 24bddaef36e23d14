"""AI strength and speed: win rates between levels (95 % Wilson intervals, seats alternated) and each
level's decision time, for every registered game; at 4 players the hard seat's share against three random.

A game counts as its share of the win for the seat (a shared win counts part). Decision times are the
wall time of bot.ai.choose_move, the whole of an AI move. Games run in --jobs worker processes.
Run: .venv/bin/python bench/ai.py [GAME ...] [--quick] [--games N] [--jobs 2] (no GAME: every registered game)
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai import choose_move
from engine.core import find_action
from engine.registry import games


def play(job: tuple[str, int, tuple[str, ...], int]) -> tuple[list[float], dict[str, list[float]]]:
    """One game with these levels by seat; each seat's share and every decision's time by level."""
    game_id, seed, levels, _ = job
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


def main() -> None:
    """Print the tables."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("game", nargs="*", help="game ids (default: every registered game)")
    ap.add_argument("--quick", action="store_true", help="a short run (few games; wide intervals)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (times are per process)")
    ap.add_argument("--games", type=int, default=None, help="games per pairing with hard (default 40)")
    args = ap.parse_args()
    hard_games = args.games or (4 if args.quick else 40)
    cheap_games = max(hard_games, 20 if args.quick else 200)
    pairings = [
        ("hard", "random", hard_games),
        ("hard", "normal", hard_games),
        ("normal", "random", cheap_games),
    ]
    jobs, tags = [], []
    for game_id, game in games().items():
        if args.game and game_id not in args.game:
            continue
        for a, b, count in pairings:
            for i in range(count):
                levels = (a, b) if i % 2 == 0 else (b, a)
                jobs.append((game_id, 1000 + i, levels, 0))
                tags.append((game_id, f"{a} vs {b}", levels.index(a)))
        if game.max_players >= 4:
            for i in range(max(2, hard_games // 2)):
                levels = tuple("hard" if k == i % 4 else "random" for k in range(4))
                jobs.append((game_id, 5000 + i, levels, 0))
                tags.append((game_id, "hard vs 3 random (4p)", i % 4))
    start = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(play, jobs))
    wins: dict[tuple[str, str], list[float]] = {}
    times: dict[tuple[str, str], list[float]] = {}
    for (game_id, pairing, seat), (returns, t) in zip(tags, results, strict=True):
        wins.setdefault((game_id, pairing), []).append(returns[seat])
        if not pairing.endswith("(4p)"):
            for lvl, xs in t.items():
                times.setdefault((game_id, lvl), []).extend(xs)
    print(f"{len(jobs)} games in {time.perf_counter() - start:.0f} s, {args.jobs} worker(s)")
    print(f"{'game':<16} {'pairing':<24} {'games':>5} {'first wins':>10} {'95% interval':>15}")
    for (game_id, pairing), xs in wins.items():
        p = sum(xs) / len(xs)
        lo, hi = wilson(p, len(xs))
        print(f"{game_id:<16} {pairing:<24} {len(xs):>5} {p:>9.0%} {f'{lo:.0%}-{hi:.0%}':>15}")
    print(f"\n{'game':<16} {'level':<8} {'decisions':>9} {'p50 ms':>9} {'p99 ms':>9}")
    for (game_id, lvl), xs in sorted(times.items()):
        print(f"{game_id:<16} {lvl:<8} {len(xs):>9} {pct(0.5, xs) * 1e3:>9.1f} {pct(0.99, xs) * 1e3:>9.1f}")


if __name__ == "__main__":
    main()
