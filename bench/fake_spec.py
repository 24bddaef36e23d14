"""What checking a request body against Discord's OpenAPI spec costs the fake (tests/fakediscord/spec.py).

    .venv/bin/python bench/fake_spec.py [repeats]

prints, for bodies shaped like the bot's (a short reply, a board with its rows of buttons, a full message of
25 buttons and 10 embed fields, a command registration), the CPU time of one check (median of the runs),
and the one-off cost of loading the spec and building the first validator.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = str(Path(__file__).resolve().parents[1])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from tests.fakediscord import spec  # noqa: E402

RUNS = 5


def _button(i: int) -> dict[str, Any]:
    return {"type": 2, "style": 1 + i % 4, "label": f"Card {i}", "custom_id": f"ag:mv:{i}:12345"}


def _rows(rows: int, buttons: int) -> list[dict[str, Any]]:
    return [{"type": 1, "components": [_button(r * 5 + b) for b in range(buttons)]} for r in range(rows)]


def _embed(fields: int) -> dict[str, Any]:
    items = [{"name": f"Seat {i}", "value": "12 points", "inline": True} for i in range(fields)]
    return {"title": "Omphala — round 3", "description": "d" * 300, "fields": items, "color": 0x5865F2}


def _option(i: int) -> dict[str, Any]:
    return {"type": 4, "name": f"id{i}", "description": "The match", "min_value": 1, "max_value": 2**53 - 1}


COMMANDS = [
    {"name": f"cmd{i}", "description": "A command", "options": [_option(j) for j in range(5)]}
    for i in range(15)
]
CASES: dict[str, tuple[str, str, Any]] = {
    "short reply (callback)": (
        "POST",
        "/api/v10/interactions/1/t/callback",
        {"type": 4, "data": {"content": "Your move is played.", "flags": 64}},
    ),
    "board: embed + 3 rows": (
        "PATCH",
        "/api/v10/channels/1/messages/2",
        {
            "content": "<@1> to play",
            "embeds": [_embed(4)],
            "components": _rows(3, 4),
            "attachments": [{"id": 0}],
        },
    ),
    "25 buttons + 10 fields": (
        "POST",
        "/api/v10/channels/1/messages",
        {"content": "x" * 500, "embeds": [_embed(10)], "components": _rows(5, 5)},
    ),
    "15 commands x 5 options": ("PUT", "/api/v10/applications/1/commands", COMMANDS),
}


def _cpu_ms(check: Callable[[], Any], repeats: int) -> float:
    """The median over RUNS of the CPU milliseconds one check takes."""
    runs = []
    for _ in range(RUNS):
        start = time.process_time()
        for _ in range(repeats):
            check()
        runs.append((time.process_time() - start) / repeats * 1000)
    return statistics.median(runs)


def main() -> None:
    """Print the table."""
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    start = time.process_time()
    assert spec.errors("POST", "/api/v10/channels/1/messages", {"content": "warm"}) == []
    first = (time.process_time() - start) * 1000
    print(f"{'body':<26} {'ms per check':>12}")
    print(f"{'spec load + 1st validator':<26} {first:>12.1f}")
    for name, (method, path, body) in CASES.items():
        assert spec.errors(method, path, body) == [], name
        print(f"{name:<26} {_cpu_ms(lambda m=method, p=path, b=body: spec.errors(m, p, b), repeats):>12.3f}")


if __name__ == "__main__":
    main()
