"""Balance: the first seat's win share over many games, and for a game whose seats pick something before
the deal (a deck: the presentation's seat choices), each option's win share against the field.

Plain games play with RandomPlayers by default: the first-seat advantage of the rules themselves. A game
with seat choices plays at the normal AI level by default (bot/ai.py: the greedy player with the game's
evaluation) on every seat, since random play says nothing about decks; its games cycle through every
assignment of options to seats (mirrors included), and the report adds the share of the seat that moved
first (when a game draws the first player, seat 1 is fair by construction), each option's share against
the others (mirror games left out) and the matchup table. A shared win counts as a fraction; intervals are
95 % Wilson intervals.
Run: .venv/bin/python bench/balance.py [GAME ...] [--games N] [--players N] [--seed 1] [--level L] [--jobs 2]
(no GAME: every registered game; no --players: every player count the game allows; no --games: 2000
random games, 400 at an AI level).
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai import choose_move
from engine.ai.random_player import RandomPlayer
from engine.core import find_action
from engine.registry import games
from engine.table.present import choices_of, of

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


def seat_shares(game_id: str, players: int, count: int, seed: int) -> tuple[list[float], float, float]:
    """Play count random games; every seat's total win share, games per second and mean moves."""
    game = games()[game_id]
    shares = [0.0] * players
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
        shares = [a + b for a, b in zip(shares, returns, strict=True)]
    elapsed = time.perf_counter() - start
    return shares, count / elapsed, moves / count


def first_seat_share(game_id: str, players: int, count: int, seed: int) -> tuple[float, float, float]:
    """Play count random games; return seat 1's total win share, games per second and mean moves."""
    shares, rate, moves = seat_shares(game_id, players, count, seed)
    return shares[0], rate, moves


Job = tuple[str, int, int, str, str, tuple[str, ...]]  # game, players, seed, level, choice key, picks


def play(job: Job) -> tuple[list[float], int, int]:
    """One game at this AI level on every seat, each seat picking its option; every seat's share, the seat
    that moved first and the number of moves."""
    game_id, players, seed, level, key, picks = job
    game = games()[game_id]
    options = {"seat_choices": [{key: pick} for pick in picks]} if key else None
    s = game.setup(players, seed, options)
    first = game.to_act(s)[0]
    moves = 0
    while to_act := game.to_act(s):
        seat = to_act[0]
        if level == "random":
            action = RandomPlayer(seed * 7919 + moves).choose(game, s, seat)
        else:
            action = find_action(game, s, seat, choose_move(game, s, seat, level, seed * 7919 + moves))
        game.apply(s, action)
        moves += 1
    returns = game.returns(s)
    assert returns is not None
    return returns, first, moves


def _row(label: str, share: float, n: int) -> str:
    lo, hi = wilson(share, n)
    return f"{label:<14} {n:>6} {share / n if n else float('nan'):>7.3f} {f'[{lo:.3f}, {hi:.3f}]':>15}"


def choice_report(game_id: str, players: int, count: int, seed: int, level: str, jobs: int) -> None:
    """The seat-choice game's tables: seat 1, the first mover, each option against the field, matchups."""
    choice = choices_of(of(games()[game_id]))[0]
    ids = [option for option, _ in choice.options]
    combos = list(itertools.product(ids, repeat=players))
    work: list[Job] = [
        (game_id, players, seed * 1_000_003 + i, level, choice.key, combos[i % len(combos)])
        for i in range(count)
    ]
    start = time.perf_counter()
    with ProcessPoolExecutor(jobs) as pool:
        results = list(pool.map(play, work, chunksize=4))
    elapsed = time.perf_counter() - start
    seat1 = sum(r[0] for r, _, _ in results)
    first = sum(r[first] for r, first, _ in results)
    moves = sum(m for _, _, m in results) / count
    print(
        f"\n{game_id}, {players} players, {level} AI on every seat, {count} games "
        f"({moves:.0f} moves a game, {count / elapsed:.1f} games/s, {jobs} worker(s))"
    )
    print(f"{'':<14} {'games':>6} {'wins':>7} {'95% interval':>15}")
    print(_row("seat 1", seat1, count))
    print(_row("first mover", first, count))
    print(f"{choice.label.lower()} vs the field (mirror games left out):")
    vs: dict[tuple[str, str], list[float]] = {}
    for (returns, _, _), job in zip(results, work, strict=True):
        picks = job[5]
        for seat, mine in enumerate(picks):
            for other, theirs in enumerate(picks):
                if other != seat and theirs != mine:
                    vs.setdefault((mine, theirs), []).append(returns[seat])
    for option in ids:
        xs = [x for (mine, _), got in vs.items() if mine == option for x in got]
        print(_row(option, sum(xs), len(xs)))
    print("matchups (row's share against column):")
    width = max(13, *(len(option) + 1 for option in ids))  # each column as wide as its option's name
    first_col = max(14, *(len(option) + 1 for option in ids))
    print(f"{'':<{first_col}}" + "".join(f"{option:>{width}}" for option in ids))
    for mine in ids:
        cells = []
        for theirs in ids:
            xs = vs.get((mine, theirs), [])
            cell = f"{sum(xs) / len(xs):.2f} ({len(xs):>2})" if xs else "-"
            cells.append(f"{cell:>{width}}")
        print(f"{mine:<{first_col}}" + "".join(cells))


def main() -> None:
    """Print one table row per plain game and player count, and the seat-choice games' reports."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game", nargs="*", help="game ids (default: every registered game)")
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default=None, help="AI level on every seat (bot/ai.py LEVELS)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes for AI-level games")
    args = parser.parse_args()
    ids = args.game or list(games())
    header = False
    for game_id in ids:
        game = games()[game_id]
        counts = [args.players] if args.players else list(range(game.min_players, game.max_players + 1))
        has_choices = bool(choices_of(of(game)))
        level = args.level or ("normal" if has_choices else "random")
        for n in counts:
            if has_choices:
                choice_report(game_id, n, args.games or 400, args.seed, level, args.jobs)
                continue
            if not header:
                header = True
                print(
                    f"{'game':<10} {'N':>2} {'games':>6} {'seat 1 wins':>11} {'95% interval':>15} "
                    f"{'fair':>6} {'moves':>6} {'games/s':>8}"
                )
            count = args.games or (2000 if level == "random" else 400)
            share, rate, moves = plain_share(game_id, n, count, args.seed, level, args.jobs)
            lo, hi = wilson(share, count)
            print(
                f"{game_id:<10} {n:>2} {count:>6} {share / count:>11.3f} "
                f"{f'[{lo:.3f}, {hi:.3f}]':>15} {1 / n:>6.3f} {moves:>6.0f} {rate:>8.1f}",
                flush=True,
            )


def plain_share(
    game_id: str, n: int, count: int, seed: int, level: str, jobs: int
) -> tuple[float, float, float]:
    """Seat 1's total win share, games per second and mean moves: random games in this process, AI-level
    games in worker processes."""
    if level == "random":
        return first_seat_share(game_id, n, count, seed)
    start = time.perf_counter()
    work: list[Job] = [(game_id, n, seed * 1_000_003 + i, level, "", ()) for i in range(count)]
    with ProcessPoolExecutor(jobs) as pool:
        results = list(pool.map(play, work, chunksize=4))
    share = sum(r[0] for r, _, _ in results)
    return share, count / (time.perf_counter() - start), sum(m for _, _, m in results) / count


if __name__ == "__main__":
    main()
