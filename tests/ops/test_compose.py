"""compose.yaml: PostgreSQL 16 with a volume and a health check, bot processes that split the shards between
them, each waiting for a healthy database, with the token from a git-ignored .env that .env.example
documents. Read with a small reader of the YAML subset the file uses (no PyYAML in the project)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = (ROOT / "compose.yaml").read_text(encoding="utf-8")
EXAMPLE = (ROOT / ".env.example").read_text(encoding="utf-8")


def read_yaml(text: str) -> Any:
    """Block mappings, block lists of scalars, flow lists of quoted strings, and scalars: all compose.yaml
    uses. An unexpected line fails the test (the file then needs a real YAML reader)."""
    lines = [
        (len(line) - len(line.lstrip(" ")), line.strip())
        for line in text.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    value, end = _block(lines, 0, 0)
    assert end == len(lines), f"could not read line {lines[end][1]!r}"
    return value


def _block(lines: list[tuple[int, str]], i: int, indent: int) -> tuple[Any, int]:
    if lines[i][1].startswith("- "):
        items = []
        while i < len(lines) and lines[i][0] == indent and lines[i][1].startswith("- "):
            items.append(_scalar(lines[i][1][2:]))
            i += 1
        return items, i
    mapping: dict[str, Any] = {}
    while i < len(lines) and lines[i][0] == indent:
        key, colon, rest = lines[i][1].partition(":")
        assert colon and key not in mapping, f"not a mapping entry: {lines[i][1]!r}"
        i += 1
        if rest.strip():
            mapping[key] = _scalar(rest.strip())
        elif i < len(lines) and lines[i][0] > indent:
            mapping[key], i = _block(lines, i, lines[i][0])
        else:
            mapping[key] = None
    return mapping, i


def _scalar(text: str) -> Any:
    if text.startswith("["):
        assert text.endswith("]"), text
        return [_scalar(part.strip()) for part in re.findall(r'"[^"]*"|[^,\[\]]+', text[1:-1])]
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


COMPOSED = read_yaml(COMPOSE)
SERVICES: dict[str, Any] = COMPOSED["services"]
BOTS = {name: s for name, s in SERVICES.items() if name != "postgres"}


def _shards(text: str) -> set[int]:
    low, _, high = text.partition("-")
    return set(range(int(low), int(high or low) + 1))


def test_postgres_16_keeps_its_data_in_a_named_volume_and_checks_its_health() -> None:
    """ "a `postgres:16` service with a named volume and a pg_isready health check"."""
    pg = SERVICES["postgres"]
    assert pg["image"] == "postgres:16"
    volume = pg["volumes"][0].split(":")[0]
    assert volume in COMPOSED["volumes"] and pg["volumes"][0].endswith(":/var/lib/postgresql/data")
    assert "pg_isready" in " ".join(pg["healthcheck"]["test"])
    assert pg["restart"] == "unless-stopped"
    assert pg["environment"]["POSTGRES_PASSWORD"].startswith(
        "${POSTGRES_PASSWORD:?"
    )  # required, not a default


def test_bot_processes_share_every_shard_once() -> None:
    """ "N bot services (two, as an example: shards 0-1 and 2-3 of 4)": one shard count for all, and the
    ranges cover 0 .. count-1 with no shard run twice."""
    assert len(BOTS) >= 2
    counts = {bot["environment"]["AGORA_SHARD_COUNT"] for bot in BOTS.values()}
    assert len(counts) == 1
    count = int(counts.pop())
    ranges = [_shards(bot["environment"]["AGORA_SHARDS"]) for bot in BOTS.values()]
    assert sorted(s for r in ranges for s in r) == list(range(count))


def test_every_bot_uses_postgres_the_env_file_and_the_projects_image() -> None:
    """Built from the project's Dockerfile, AGORA_DB at the postgres service, the token from .env, started
    once the database is healthy, restarted if it stops, and healthy by `python -m bot health`."""
    for name, bot in BOTS.items():
        assert bot["build"] == ".", name
        assert bot["env_file"] == ".env", name
        assert bot["environment"]["AGORA_DB"].startswith("postgresql://agora:${POSTGRES_PASSWORD}@postgres:")
        assert bot["depends_on"]["postgres"]["condition"] == "service_healthy", name
        assert bot["restart"] == "unless-stopped", name
        assert bot["healthcheck"]["test"] == ["CMD", "python", "-m", "bot", "health"], name
        assert "DISCORD_TOKEN" not in bot["environment"], name  # a secret stays in .env


def test_env_example_documents_every_variable_the_bot_reads() -> None:
    """.env.example names every AGORA_* variable the bot reads (and the two secrets, empty)."""
    read = set()
    for path in (ROOT / "bot").rglob("*.py"):
        read |= set(
            re.findall(r"environ(?:\.get)?[\[(]\"(AGORA_[A-Z_]+)\"", path.read_text(encoding="utf-8"))
        )
    read |= {"AGORA_GUILD_ID"}  # read through _env_int in bot/__main__.py
    documented = set(re.findall(r"^#? ?([A-Z_]+)=", EXAMPLE, flags=re.MULTILINE))
    per_service = {"AGORA_DB", "AGORA_SHARDS", "AGORA_SHARD_COUNT"}  # set in compose.yaml itself
    assert read - per_service <= documented, read - per_service - documented
    assert {"DISCORD_TOKEN", "POSTGRES_PASSWORD"} <= documented
    assert re.search(r"^DISCORD_TOKEN=$", EXAMPLE, flags=re.MULTILINE)  # no token committed
    for name in per_service:
        assert name in EXAMPLE  # mentioned, as set per service


def test_the_env_file_is_never_committed() -> None:
    """git ignores .env (it holds the token) but not .env.example."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", ".env"], cwd=ROOT, capture_output=True, timeout=30
    ).returncode
    assert ignored == 0
    assert subprocess.run(["git", "check-ignore", "-q", ".env.example"], cwd=ROOT, timeout=30).returncode == 1


def test_the_reader_reads_what_it_claims() -> None:
    """The small YAML reader above, on a sample of each form it accepts."""
    sample = 'a:\n  b: "x"\n  c: [ "CMD", "y z" ]\n  d:\n    - p:q\n  e:\n'
    assert read_yaml(sample) == {"a": {"b": "x", "c": ["CMD", "y z"], "d": ["p:q"], "e": None}}


def test_every_bot_gets_longer_to_stop_than_its_clean_stop_takes() -> None:
    """`docker compose stop` sends SIGTERM and, after stop_grace_period, SIGKILL: each bot gets more than
    the bot's own bound on a clean stop (bot/discord/app.py STOP_WITHIN, and the watchdog after it), so it
    always closes its database itself."""
    from bot.discord.app import STOP_OVERRUN, STOP_WITHIN

    for name, bot in BOTS.items():
        grace = bot["stop_grace_period"]
        assert grace.endswith("s") and float(grace[:-1]) > STOP_WITHIN + STOP_OVERRUN, name
