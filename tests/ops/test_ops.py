"""Operations for self-hosters (issue 24): log lines tagged with their match and guild (text or JSON),
Prometheus metrics (moves, latencies, errors) served on a port, and the heartbeat the health check reads."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import urllib.request
from pathlib import Path

import pytest

from bot import ops
from bot.__main__ import main
from tests.discord_harness import Harness
from tests.fakediscord import FakeDiscord


def _record(text: str, level: int = logging.INFO) -> logging.LogRecord:
    return logging.LogRecord("bot.discord.board", level, __file__, 1, text, (), None)


def _formatted(fmt: str, record: logging.LogRecord) -> str:
    handler = ops.log_handler(fmt)
    for f in handler.filters:
        f.filter(record)  # type: ignore[union-attr]
    return handler.format(record)


def test_log_lines_carry_their_match_and_guild() -> None:
    """Inside tagged(), text lines end with the ids; JSON lines hold them as fields; outside, neither."""
    with ops.tagged(12, 345):
        text = _formatted("text", _record("the board could not be posted"))
        data = json.loads(_formatted("json", _record("the board could not be posted")))
    assert text.endswith("the board could not be posted [match=12 guild=345]")
    assert data["match"] == 12 and data["guild"] == 345 and data["level"] == "INFO"
    assert data["message"] == "the board could not be posted" and data["logger"] == "bot.discord.board"
    assert "[" not in _formatted("text", _record("started"))


def test_errors_and_rate_limits_are_counted() -> None:
    """An error record counts under its logger; discord.py's rate-limit warning counts as a wait."""
    errors = ops.ERRORS.labels("bot.discord.board")
    before, waits = errors._value.get(), ops.RATE_LIMITS._value.get()
    _formatted("text", _record("boom", logging.ERROR))
    limited = logging.LogRecord(
        "discord.http", logging.WARNING, __file__, 1, "We are being rate limited. %s", ("POST",), None
    )
    _formatted("text", limited)
    assert errors._value.get() == before + 1 and ops.RATE_LIMITS._value.get() == waits + 1


def test_health_reads_the_heartbeat(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No heartbeat, or an old one, is unhealthy (exit 1, with the reason); a recent one is healthy."""
    monkeypatch.setenv("AGORA_HEALTH_FILE", str(tmp_path / "beat"))
    ok, line = ops.health(1000.0)
    assert not ok and "no heartbeat" in line
    ops.beat(1000.0)
    assert ops.health(1100.0)[0] and not ops.health(1000.0 + ops.HEALTH_MAX_AGE + 1)[0]
    ops.beat()
    assert main(["health"]) == 0
    (tmp_path / "beat").write_text("0\n")
    assert main(["health"]) == 1


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_a_running_bot_beats_counts_moves_and_serves_metrics(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the fake Discord: the connected bot writes its heartbeat; a person's move is counted by game
    and its press-to-disk time observed; /metrics (loopback) shows them."""
    monkeypatch.setenv("AGORA_HEALTH_FILE", str(tmp_path / "beat"))
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    moves = ops.MOVES.labels("omphala", "person")
    before, timed = moves._value.get(), ops.MOVE_SECONDS._sum.get()
    async with Harness.started(fake, tmp_path) as h:
        await fake.wait_until(lambda: (tmp_path / "beat").exists(), what="the heartbeat")
        assert ops.health()[0]
        thread, _mid = await h.started_game(alice, bob)
        await h.play_move(alice, thread)
        await h.settle()
    assert moves._value.get() == before + 1 and ops.MOVE_SECONDS._sum.get() > timed
    port = _free_port()
    ops.serve_metrics(port, addr="127.0.0.1")
    body = await asyncio.to_thread(
        lambda: urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    )
    assert 'agora_moves_total{by="person",game="omphala"}' in body and "agora_move_seconds_bucket" in body


def test_metrics_listen_on_loopback_unless_told_and_a_bad_port_is_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """AGORA_METRICS_ADDR: 127.0.0.1 unless set (the Docker image sets 0.0.0.0); no port, no metrics; a
    port that is not a port, or one another program listens on, is a MetricsError of one line that says
    what to change."""
    monkeypatch.delenv("AGORA_METRICS_ADDR", raising=False)
    monkeypatch.setenv("AGORA_METRICS_PORT", "")
    assert ops.serve_metrics_from_env() is None
    port = _free_port()
    monkeypatch.setenv("AGORA_METRICS_PORT", str(port))
    assert ops.serve_metrics_from_env() == f"127.0.0.1:{port}"
    with socket.socket() as s:  # taken on loopback: not on every address
        assert s.connect_ex(("127.0.0.1", port)) == 0
    seen: list[tuple[int, str]] = []
    monkeypatch.setattr(ops, "start_http_server", lambda p, addr, registry: seen.append((p, addr)))
    monkeypatch.setenv("AGORA_METRICS_ADDR", "0.0.0.0")
    assert ops.serve_metrics_from_env() == f"0.0.0.0:{port}" and seen == [(port, "0.0.0.0")]
    monkeypatch.undo()
    for bad in ("nine", "0", "65536", "-1"):
        monkeypatch.setenv("AGORA_METRICS_PORT", bad)
        with pytest.raises(ops.MetricsError, match="takes a port number from 1 to 65535") as e:
            ops.serve_metrics_from_env()
        assert "\n" not in str(e.value) and "AGORA_METRICS_PORT" in str(e.value)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        taken = busy.getsockname()[1]
        monkeypatch.setenv("AGORA_METRICS_PORT", str(taken))
        with pytest.raises(ops.MetricsError, match=f"port {taken} is in use by another program"):
            ops.serve_metrics_from_env()
    monkeypatch.setenv("AGORA_METRICS_PORT", str(_free_port()))
    monkeypatch.setenv("AGORA_METRICS_ADDR", "192.0.2.1")  # TEST-NET-1: not this machine's
    with pytest.raises(ops.MetricsError, match="is AGORA_METRICS_ADDR an address of this machine"):
        ops.serve_metrics_from_env()
