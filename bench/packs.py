"""Benchmark: the worst card packs under the size limit (engine/packs.py MAX_PACK_BYTES), checked as an upload
is (bot.sessions.packs.read_pack_aside: engine/toml_guard.py's scan, tomllib, the game's card rules, in a
thread with a 2 s limit), with another server's commands on the same event loop meanwhile.

Usage (from the repository root): .venv/bin/python bench/packs.py [--runs N]
Each file is measured in a fresh child process: seconds to refuse or accept (median of --runs), the peak
memory the check allocates (tracemalloc, a run of its own, since tracing slows the parse) and the child's
peak resident size, and the longest delay of a coroutine ticking every 2 ms on the event loop during the
check (what another server's command would wait). Issue 34 found 6.3 s and 2.4 GB for the 40 KB dotted key
before the scan, the event loop frozen throughout; 26 s and 5.3 GB at 60 KB.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import argparse
import asyncio
import contextlib
import json
import resource
import statistics
import subprocess
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from bot.sessions import SessionError
from bot.sessions.packs import read_pack, read_pack_aside
from engine import packs

LIMIT = packs.MAX_PACK_BYTES
HEAD = '[pack]\ngame = "ophelia"\nname = "Bench"\n'
TICK = 0.002


def _fill(head: str, unit: Callable[[int], str], tail: str = "") -> str:
    """head + unit(0) + unit(1) + ... + tail, as many units as fit under the size limit."""
    parts, size, i = [head], len(head.encode()) + len(tail.encode()), 0
    while size + len(piece := unit(i).encode()) <= LIMIT:
        parts.append(piece.decode())
        size += len(piece)
        i += 1
    return "".join(parts) + tail


def _example() -> str:
    path = packs.example("ophelia")
    assert path is not None
    return path.read_text(encoding="utf-8")


def _biggest_valid() -> str:
    """The example pack with as many more cards as a pack may hold, each with the longest name and text."""
    text = _example()
    start = text.index("\n[[card]]")
    first = text[start : text.index("\n[[card]]", start + 1)]
    card = first.replace('id = "marco_polo"', 'id = "c{i}"').replace('name = "Marco Polo"', 'name = "{name}"')
    card = card.replace('text = "When this enters play; draw a card."', 'text = "{text}"')
    have = text.count("\n[[card]]")
    more = [
        card.replace("{i}", str(i)).replace("{name}", f"Card {i:02} " + "n" * 32).replace("{text}", "t" * 400)
        for i in range(packs.MAX_PACK_CARDS - have)
    ]
    return text + "\n" + "".join(more)


FILES: dict[str, Callable[[], str]] = {
    "dotted key, 40 KB (k.k.k… = 1)": lambda: ".".join(["k"] * 20_000) + " = 1\n",
    "dotted key, 64 KB": lambda: _fill("", lambda _: "k.", "k = 1\n"),
    "table header, 64 KB ([k.k.k…])": lambda: _fill(HEAD + "[", lambda _: "k.", "k]\n"),
    "arrays 32,000 deep": lambda: "a=" + "[" * 32_000 + "]" * 32_000,
    "inline tables 16,000 deep": lambda: "a=" + "{a=" * 16_000 + "1" + "}" * 16_000,
    "a date as a name": lambda: _example().replace('name = "The Silk Road"', "name = 1979-05-27", 1),
    "a 60,000-digit integer": lambda: HEAD + "a = " + "9" * 60_000 + "\n",
    "8-part keys, as many as fit": lambda: _fill(HEAD, lambda i: f"a.b.c.d.e.f.g.h{i} = 1\n"),
    "8-deep arrays, as many as fit": lambda: _fill(HEAD + "a = [", lambda _: "[[[[[[[1]]]]]]],", "]\n"),
    "8-deep inline tables, as many": lambda: _fill(
        HEAD + "a = [", lambda _: "{a={b={c={d={e={f={g=1}}}}}}},", "]"
    ),
    "tables, as many as fit ([tN])": lambda: _fill(HEAD, lambda i: f"[t{i}]\n"),
    "8-part headers, as many as fit": lambda: _fill(HEAD, lambda i: f"[a.b.c.d.e.f.g.h{i}]\n"),
    "keys, as many as fit (kN = 1)": lambda: _fill(HEAD, lambda i: f"k{i}=1\n"),
    "one 64 KB key": lambda: HEAD + "k" * (LIMIT - len(HEAD) - 10) + " = 1\n",
    "a 64 KB string of escapes": lambda: _fill(HEAD + 'd = "', lambda _: "\\u00e9", '"\n'),
    "a 64 KB multi-line string": lambda: _fill(HEAD + 'd = """', lambda _: "\\\n  x ", '"""\n'),
    "comments only, 64 KB": lambda: _fill("", lambda _: "# [[[ a.b.c.d.e.f.g.h.i.j ]]] \"'\n"),
    "one card, abilities as many as fit": lambda: _fill(
        _example(),
        lambda _: (
            '[[card.ability]]\ntype = "trigger"\non = "enters"\neffect = [{ do = "draw", amount = 1 }]\n'
        ),
    ),
    "cards, as many as fit ([[card]])": lambda: _fill(HEAD, lambda i: f'[[card]]\nid = "c{i}"\n'),
    "the biggest valid pack (40 cards)": _biggest_valid,
}


async def _checked(data: bytes, name: str) -> tuple[float, float, str]:
    """(seconds, the longest tick delay, the outcome) of one check as an upload does it."""
    ticks: list[float] = []
    done = False

    async def ticker() -> None:
        while not done:
            start = time.perf_counter()
            await asyncio.sleep(TICK)
            ticks.append(time.perf_counter() - start - TICK)

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0.02)
    ticks.clear()
    start = time.perf_counter()
    try:
        pack = await read_pack_aside(data, name)
        outcome = f"accepted: {len(pack.entries)} cards"
    except SessionError as e:
        outcome = f"refused: {e}"
    seconds = time.perf_counter() - start
    done = True
    await task
    return seconds, max(ticks, default=0.0), outcome


def _one(name: str, runs: int) -> dict[str, object]:
    """Measure one file (in this process, a fresh child)."""
    data = FILES[name]().encode()
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    timed = [asyncio.run(_checked(data, "bench.toml")) for _ in range(runs)]
    tracemalloc.start()
    with contextlib.suppress(SessionError):
        read_pack(data, "bench.toml")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {
        "size": len(data),
        "seconds": statistics.median(t[0] for t in timed),
        "tick": max(t[1] for t in timed),
        "peak": peak,
        "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base,
        "outcome": timed[0][2],
    }


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(_one(args.one, args.runs)))
        return
    print(f"Card packs under the {LIMIT:,}-byte limit; median of {args.runs} runs, each in a fresh process.")
    print("tick: the longest a coroutine on the same event loop waited past its 2 ms sleep meanwhile.\n")
    head = ("file", "bytes", "seconds", "peak MB", "+RSS MB", "tick ms")
    print("| {:<36} | {:>6} | {:>7} | {:>7} | {:>7} | {:>7} | outcome |".format(*head))
    print("|" + "|".join("-" * (w + 1) + ":" for w in (36, 6, 7, 7, 7, 7)).replace("-:", "--", 1) + "|---|")
    for name in FILES:
        child = [sys.executable, __file__, "--one", name, "--runs", str(args.runs)]
        done = subprocess.run(child, capture_output=True, text=True, timeout=600, check=True)
        r: dict[str, Any] = json.loads(done.stdout)
        outcome = str(r["outcome"])
        outcome = outcome if len(outcome) <= 90 else outcome[:89] + "…"
        print(
            f"| {name:<36} | {r['size']:>6,} | {r['seconds']:>7.3f} | {r['peak'] / 1e6:>7.1f} | "
            f"{r['rss'] / 1e3:>7.1f} | {r['tick'] * 1e3:>7.1f} | {outcome} |"
        )


if __name__ == "__main__":
    main()
