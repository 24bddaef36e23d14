"""Seat fairness in Omphala: seat 1's share of the wins under random play, against the fair share 1/N.

Seat 1 (P1) goes first (RULINGS 3), so its share above 1/N is the first player's advantage under the rules.
Every seat plays with a seeded RandomPlayer (engine/ai); a shared win counts as a fraction; the interval is
a 95 % Wilson interval. The last column gives every seat's share, seat 1 first, to show where the
advantage goes.
Run: .venv/bin/python bench/seat_fairness.py [--games N] [--players 2,3,4,5,6] [--seed 1]
(defaults: 2000 games at each player count from 2 to 6, about a minute).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.balance import seat_shares, wilson


def main() -> None:
    """One table row per player count."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=2000, help="games at each player count")
    parser.add_argument("--players", default="2,3,4,5,6", help="player counts, comma-separated")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    counts = [int(n) for n in args.players.split(",") if n.strip()]
    print(f"{'N':>2} {'games':>6} {'seat 1':>7} {'95% interval':>15} {'fair':>6} {'games/s':>8}  every seat")
    for n in counts:
        shares, rate, _ = seat_shares("omphala", n, args.games, args.seed)
        lo, hi = wilson(shares[0], args.games)
        each = " ".join(f"{x / args.games:.3f}" for x in shares)
        print(
            f"{n:>2} {args.games:>6} {shares[0] / args.games:>7.3f} {f'[{lo:.3f}, {hi:.3f}]':>15} "
            f"{1 / n:>6.3f} {rate:>8.1f}  {each}",
            flush=True,
        )


if __name__ == "__main__":
    main()
