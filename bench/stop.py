"""A clean stop under load (issue 34, point 1): `agora run` in a subprocess against the fake Discord, people
pressing moves in several games at once, then SIGTERM as `docker stop` sends it. Per run: the moves people
were told were played, the moves in agora.db copied alone after the stop (the README's old backup step), an
agora.db-wal left beside it or not, the seconds from the signal to the process's end, and the presses
answered "restarting, nothing was played".

    .venv/bin/python bench/stop.py [--games 4,16] [--load 16,64] [--runs 2]

Each row runs once with Discord answering at full speed and once with it taking 3 s a message from the
signal on (boards in flight during the stop: the stop waits up to 5 s for them, then leaves them for the
restart).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import tempfile
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[1])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
os.environ.setdefault("AGORA_RENDER_WORKERS", "0")

from tests.fakediscord import FakeDiscord  # noqa: E402
from tests.ops.test_stop_backup import stop_under_load  # noqa: E402


async def one(games: int, load: int, slow: bool) -> list[str]:
    """One stop under load; its table row."""
    with tempfile.TemporaryDirectory(prefix="agora-stop-") as tmp:
        async with FakeDiscord(callback_deadline=None) as fake:
            got = await stop_under_load(fake, Path(tmp) / "agora.db", games, load, slow)
    lost = got.acknowledged - got.on_disk
    return [
        str(games), "slow" if slow else "answering", str(got.acknowledged), str(got.on_disk), str(lost),
        "yes" if got.wal_left else "no", f"{got.seconds:.1f}", str(got.restarting), str(got.code),
    ]  # fmt: skip


async def bench(games: list[int], loads: list[int], runs: int) -> None:
    """Every combination, `runs` times; one table."""
    header = ["games", "Discord", "acknowledged", "in agora.db alone", "lost", "-wal left", "stop s",
              "'restarting'", "exit"]  # fmt: skip
    rows = []
    for g, load in zip(games, loads, strict=True):
        for slow in (False, True):
            for _ in range(runs):
                rows.append(await one(g, load, slow))
                print("  ".join(rows[-1]), file=sys.stderr)
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    for line in [header, ["-" * w for w in widths], *rows]:
        print("  ".join(cell.rjust(w) for cell, w in zip(line, widths, strict=True)))


def main() -> None:
    """Parse the options and run."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", default="4,16", help="games played at once, per row (4,16)")
    parser.add_argument("--load", default="16,64", help="moves acknowledged before the signal, per row")
    parser.add_argument("--runs", type=int, default=2, help="runs of each row and Discord speed (2)")
    a = parser.parse_args()
    # the fake's "Connection lost" tracebacks, for the requests the stopping bot gives up on (not the bot's)
    logging.getLogger("aiohttp.server").setLevel(logging.CRITICAL)
    games = [int(x) for x in a.games.split(",")]
    loads = [int(x) for x in a.load.split(",")]
    asyncio.run(bench(games, loads, a.runs))


if __name__ == "__main__":
    main()
