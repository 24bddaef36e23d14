"""Benchmark: median board and hand render time and PNG size per game, players and stage of a random game;
then the replay row: time and size of a 100-turn replay per game.

Usage (from the repository root):
    .venv/bin/python bench/render.py [--runs N] [--theme dark|light|contrast] [--replay]
Board time is the whole render.board call (drawing + palette PNG encoding), wall clock and CPU time (CPU
time is steadier on a busy machine), then split into draw and encode; cold is one board drawn with every
tile cache emptied first (the first board a process draws).

Replay: the longest of a few random games at the most players (engine.export.turn_views, one spectator view a
turn), its first 100 turns (all of them when it has fewer: then "per 100" scales time and size to 100), made
into the GIF /game replay posts (render.replay.animate, 10 MiB limit): views (replaying the log), the whole
animate call (drawing + encoding), and for comparison the same frames as animated WebP (lossless, method 2,
on the GIF's palette), the format render/replay.py did not choose. --replay prints only these rows.
"""

from __future__ import annotations

import sys
from pathlib import Path

# This file is named render.py: keep its own folder off the path so `import render` finds the package.
_HERE, _ROOT = Path(__file__).resolve().parent, Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_ROOT))

import argparse  # noqa: E402
import io  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from functools import partial  # noqa: E402
from typing import Any  # noqa: E402

from PIL import Image  # noqa: E402

from engine.export import turn_views  # noqa: E402
from engine.match import Match  # noqa: E402
from engine.registry import games  # noqa: E402
from render import api, kit  # noqa: E402
from render.gallery import NAMES, play, player_counts, positions  # noqa: E402
from render.replay import animate  # noqa: E402


def median_ms(
    fn: Callable[[], Any], runs: int, clock: Callable[[], float] = time.perf_counter
) -> tuple[float, Any]:
    """Median time of fn in milliseconds over runs calls (wall clock by default), and its last result."""
    times, result = [], None
    for _ in range(runs):
        t0 = clock()
        result = fn()
        times.append((clock() - t0) * 1000)
    return statistics.median(times), result


def print_head(header: str) -> None:
    """A table's header line and the rule under it."""
    print(header)
    print("-" * len(header))


def clear_caches() -> None:
    """Forget every cached tile, so the next render is a cold one."""
    caches = [kit.card_face, kit.card_back, kit.badge, kit.modifier_tab]
    for game_id in api.game_ids():
        caches += getattr(api.module(game_id), "TILE_CACHES", ())
    for cached in caches:
        cached.cache_clear()


def measure(game_id: str, m: Match, theme: str, runs: int) -> dict[str, Any]:
    """Timings (ms) and sizes (bytes) of one position's board and hand."""
    names = NAMES[: m.num_players]
    public = m.game.view(m.state, None)
    seat = m.to_act()[0] if m.to_act() else 0
    private = m.game.view(m.state, seat)
    clear_caches()
    t0 = time.perf_counter()
    api.board(game_id, public, names, theme)
    cold = (time.perf_counter() - t0) * 1000
    board_ms, png = median_ms(lambda: api.board(game_id, public, names, theme), runs)
    cpu_ms, _ = median_ms(lambda: api.board(game_id, public, names, theme), runs, time.process_time)
    draw_ms, img = median_ms(lambda: api.board_image(game_id, public, names, theme), runs)
    encode_ms, _ = median_ms(lambda: kit.to_png(img), runs)
    hand_ms, hand_png = median_ms(lambda: api.hand(game_id, private, names, theme), runs)
    return {
        "dims": f"{img.width}x{img.height}",
        "board": board_ms,
        "cpu": cpu_ms,
        "draw": draw_ms,
        "encode": encode_ms,
        "cold": cold,
        "kb": len(png) / 1024,
        "hand": hand_ms,
        "hand_kb": len(hand_png) / 1024,
    }


def replay_game(game_id: str, seed: int, tries: int = 4) -> Match:
    """The longest (in turns) of a few random games at the most players."""
    best: tuple[int, Match] | None = None
    players = player_counts(game_id)[-1]
    for k in range(tries):
        m = play(game_id, players, seed + k)
        turns = len(turn_views(game_id, players, m.seed, m.options, m.log))
        if best is None or turns > best[0]:
            best = (turns, m)
    assert best is not None
    return best[1]


def webp_of(game_id: str, views: list[Any], names: list[str]) -> bytes:
    """The same frames as animated WebP (lossless, method 2, mapped onto a 96-colour palette like the GIF)."""
    frames = [api.board_image(game_id, v, names).convert("RGB") for v in views]
    width, height = max(f.width for f in frames), max(f.height for f in frames)
    palette = frames[len(frames) // 2].reduce(4).quantize(96, method=Image.Quantize.FASTOCTREE)
    padded = []
    for f in frames:
        canvas = Image.new("RGB", (width, height), f.getpixel((0, 0)))
        canvas.paste(f, (0, 0))
        padded.append(canvas.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB"))
    out = io.BytesIO()
    padded[0].save(
        out, format="WEBP", save_all=True, append_images=padded[1:], duration=1000, lossless=True, method=2
    )
    return out.getvalue()


def replay_rows(seed: int, runs: int) -> None:
    """One row per game: a 100-turn replay's time (median of runs) and size, as GIF (posted) and WebP
    (compared)."""
    header = (
        f"{'replay':<16} {'pl':>2} {'turns':>5} {'moves':>5} {'size':>9} | {'views s':>7} {'GIF s':>6} "
        f"{'GIF KB':>7} {'frames':>6} | {'per 100: s':>10} {'KB':>6} | {'WebP s':>6} {'WebP KB':>7}"
    )
    print_head(header)
    for game_id in games():
        m = replay_game(game_id, seed)
        names = NAMES[: m.num_players]
        along = partial(turn_views, game_id, m.num_players, m.seed, m.options, m.log)
        views_ms, views = median_ms(along, runs)
        views = views[:100]
        gif_ms, animation = median_ms(partial(animate, game_id, views, names), runs)
        webp_ms, webp = median_ms(partial(webp_of, game_id, views, names), runs)
        views_s, gif_s, webp_s = views_ms / 1000, gif_ms / 1000, webp_ms / 1000
        scale = 100 / len(views)
        kb = len(animation.data) / 1024
        print(
            f"{game_id:<16} {m.num_players:>2} {len(views):>5} {len(m.log):>5} "
            f"{animation.width}x{animation.height:<5} | {views_s:>7.2f} {gif_s:>6.2f} {kb:>7.0f} "
            f"{animation.frames:>6} | {(views_s + gif_s) * scale:>10.2f} {kb * scale:>6.0f} | "
            f"{webp_s:>6.2f} {len(webp) / 1024:>7.0f}"
        )
    print(
        "GIF s: the whole replay drawn and encoded (what the replay worker spends); frames < turns means "
        "frames were dropped to fit 10 MiB. Targets: under 10 MiB; seconds, not tens of seconds."
    )


def main() -> None:
    """Print one row per position and a summary line per game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--theme", default="dark")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--replay", action="store_true", help="only the replay rows")
    parser.add_argument("--replay-runs", type=int, default=3, help="runs of each replay (median)")
    args = parser.parse_args()
    if args.replay:
        replay_rows(args.seed, args.replay_runs)
        return
    header = (
        f"{'game':<16} {'pl':>2} {'stage':<7} {'size':>9} | {'board ms':>8} {'cpu':>6} {'draw':>6} "
        f"{'encode':>6} {'cold':>6} {'KB':>5} | {'hand ms':>7} {'KB':>5}"
    )
    print_head(header)
    for game_id in games():
        rows = []
        for n in player_counts(game_id):
            for stage, m in positions(game_id, n, args.seed):
                r = measure(game_id, m, args.theme, args.runs)
                rows.append(r)
                times = " ".join(f"{r[k]:>6.1f}" for k in ("cpu", "draw", "encode", "cold"))
                times = f"{r['board']:>8.1f} {times}"
                print(
                    f"{game_id:<16} {n:>2} {stage:<7} {r['dims']:>9} | {times} {r['kb']:>5.0f} | "
                    f"{r['hand']:>7.1f} {r['hand_kb']:>5.0f}"
                )
        boards, sizes = [r["board"] for r in rows], [r["kb"] for r in rows]
        cpus = [r["cpu"] for r in rows]
        hands = [r["hand"] for r in rows]
        print(
            f"{game_id}: board median {statistics.median(boards):.1f} ms wall (max {max(boards):.1f}), "
            f"{statistics.median(cpus):.1f} ms CPU (max {max(cpus):.1f}); "
            f"hand median {statistics.median(hands):.1f} ms, PNG median {statistics.median(sizes):.0f} KB "
            f"(max {max(sizes):.0f}); targets: board <= 40 ms, PNG <= 300 KB"
        )
    print()
    replay_rows(args.seed, args.replay_runs)


if __name__ == "__main__":
    main()
