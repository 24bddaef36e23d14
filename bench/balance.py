"""First-seat advantage under random play: seat 1's win share over many games, with a 95 % interval.

Every seat is a RandomPlayer; a shared win counts as a fraction (returns[0]). A fair game gives 1/N.
Run: .venv/bin/python bench/balance.py [GAME ...] [--games 2000] [--players N] [--seed 1]
(no GAME: every registered game; no --players: every player count the game allows).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.ai.random_player import RandomPlayer
from engine.registry import games

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (fractional successes allowed)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def first_seat_share(game_id: str, players: int, count: int, seed: int) -> tuple[float, float, float]:
    """Play count random games; return seat 1's total win share, games per second and mean moves."""
    game = games()[game_id]
    share = 0.0
    moves = 0
    start = time.perf_counter()
    for i in range(count):
        s = game.setup(players, seed * 1_000_003 + i)
        bots = [RandomPlayer(seed * 7919 + i * 31 + p) for p in range(players)]
        while to_act := game.to_act(s):
            p = to_act[0]
            game.apply(s, bots[p].choose(game, s, p))
            moves += 1
        returns = game.returns(s)
        assert returns is not None
        share += returns[0]
    elapsed = time.perf_counter() - start
    return share, count / elapsed, moves / count


def main() -> None:
    """Print one table row per game and player count."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game", nargs="*", help="game ids (default: every registered game)")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    ids = args.game or list(games())
    print(
        f"{'game':<10} {'N':>2} {'games':>6} {'seat 1 wins':>11} {'95% interval':>15} {'fair':>6} "
        f"{'moves':>6} {'games/s':>8}"
    )
    for game_id in ids:
        game = games()[game_id]
        counts = [args.players] if args.players else range(game.min_players, game.max_players + 1)
        for n in counts:
            share, rate, moves = first_seat_share(game_id, n, args.games, args.seed)
            lo, hi = wilson(share, args.games)
            print(
                f"{game_id:<10} {n:>2} {args.games:>6} {share / args.games:>11.3f} "
                f"{f'[{lo:.3f}, {hi:.3f}]':>15} {1 / n:>6.3f} {moves:>6.0f} {rate:>8.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
