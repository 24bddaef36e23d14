"""Engine speed: random full games per second and the median decision step, per registered game.

A decision step is what an AI search repeats: legal_actions for the seat to act, then apply one of them.
Run: .venv/bin/python bench/engine.py [--games 200] [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.registry import games
from engine.rng import Rng


def play_games(game_id: str, players: int, count: int, seed: int) -> tuple[float, list[int]]:
    """Play count random games; return the wall time and every decision step's time in ns."""
    game = games()[game_id]
    rng = Rng(seed)
    steps: list[int] = []
    clock = time.perf_counter_ns
    start = clock()
    for i in range(count):
        s = game.setup(players, seed * 100_000 + i)
        while to_act := game.to_act(s):
            p = to_act[0]
            t0 = clock()
            legal = game.legal_actions(s, p)
            game.apply(s, legal[rng.below(len(legal))])
            steps.append(clock() - t0)
    return (clock() - start) / 1e9, steps


def baseline_step() -> float:
    """A floor to compare against: building and sorting 40 tuples, in ns (median)."""
    clock = time.perf_counter_ns
    out = []
    for _ in range(2000):
        t0 = clock()
        sorted((1, "attack", (("c", f"{i}C"), ("t", i))) for i in range(40))
        out.append(clock() - t0)
    return statistics.median(out)


def main() -> None:
    """Print the table."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=200, help="games per run")
    ap.add_argument("--runs", type=int, default=5, help="runs; the table shows medians")
    args = ap.parse_args()
    base = baseline_step()
    print(f"baseline (sort 40 small tuples): {base / 1000:.1f} µs")
    print(
        f"{'game':<16} {'players':>7} {'games/s':>9} {'step p50 µs':>12} {'step p90 µs':>12} "
        f"{'steps/game':>10} {'vs baseline':>11}"
    )
    for game_id, game in games().items():
        for players in sorted({game.min_players, min(4, game.max_players)}):
            rates, p50s, p90s, lengths = [], [], [], []
            for run in range(args.runs):
                seconds, steps = play_games(game_id, players, args.games, run + 1)
                rates.append(args.games / seconds)
                steps.sort()
                p50s.append(steps[len(steps) // 2])
                p90s.append(steps[len(steps) * 9 // 10])
                lengths.append(len(steps) / args.games)
            p50 = statistics.median(p50s)
            print(
                f"{game_id:<16} {players:>7} {statistics.median(rates):>9.0f} {p50 / 1000:>12.1f} "
                f"{statistics.median(p90s) / 1000:>12.1f} {statistics.median(lengths):>10.0f} "
                f"{p50 / base:>10.1f}x"
            )


if __name__ == "__main__":
    main()
