"""Operations for self-hosters: log lines that carry their match and guild, Prometheus metrics, a heartbeat.

- Logs: `setup_logging(level, fmt)` (AGORA_LOG_FORMAT: `text`, the default, or `json`, one object a line).
  Inside `tagged(match=..., guild=...)` every record carries those ids (`match=12 guild=345` in text).
- Metrics (prometheus-client): moves by game and by whom, the time from a person's press to their move on
  disk, board redraws, live games, errors, rate-limit waits. `serve_metrics_from_env()` exposes them at
  http://AGORA_METRICS_ADDR:AGORA_METRICS_PORT/metrics (the address 127.0.0.1 unless set: this machine
  only; the Docker image sets 0.0.0.0, reachable where the port is published); without a port they are
  only counted. A port that is invalid or busy is one line (MetricsError), and `agora run` stops.
- Health: while the bot is connected, `beat()` writes the time to a file (AGORA_HEALTH_FILE,
  /tmp/agora-health by default), with a second line while its database does not answer; `python -m bot
  health` is healthy when the file is younger than AGORA_HEALTH_MAX_AGE seconds (120) and names no outage.
  The Docker image's HEALTHCHECK runs it.
"""

from __future__ import annotations

import contextlib
import contextvars
import errno
import json
import logging
import os
import time
from collections.abc import Iterator
from pathlib import Path

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server

METRICS_ADDR = "127.0.0.1"  # where the metrics listen unless AGORA_METRICS_ADDR says otherwise
HEALTH_FILE = "/tmp/agora-health"
HEALTH_MAX_AGE = 120.0
BEAT_EVERY = 30.0  # seconds between heartbeats

_TAGS: contextvars.ContextVar[tuple[int | None, int | None]] = contextvars.ContextVar(
    "agora_log_tags", default=(None, None)
)

REGISTRY = CollectorRegistry()
MOVES = Counter("agora_moves", "Moves committed", ["game", "by"], registry=REGISTRY)
MOVE_SECONDS = Histogram(
    "agora_move_seconds",
    "From a person's press to their move on disk",
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
    registry=REGISTRY,
)
BOARD_SECONDS = Histogram(
    "agora_board_seconds",
    "Drawing and posting (or editing) one board",
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
    registry=REGISTRY,
)
LIVE_GAMES = Gauge("agora_live_games", "Games held in memory by the session manager", registry=REGISTRY)
ERRORS = Counter("agora_errors", "Failures logged as errors", ["where"], registry=REGISTRY)
RATE_LIMITS = Counter("agora_rate_limit_waits", "Times Discord asked us to wait (429)", registry=REGISTRY)


@contextlib.contextmanager
def tagged(match: int | None = None, guild: int | None = None) -> Iterator[None]:
    """Within this block, log records carry these match and guild ids."""
    token = _TAGS.set((match, guild))
    try:
        yield
    finally:
        _TAGS.reset(token)


class _Tags(logging.Filter):
    """Adds `match` and `guild` to every record (None outside `tagged`); counts errors and rate limits."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.match, record.guild = _TAGS.get()
        if record.levelno >= logging.ERROR:
            ERRORS.labels(record.name).inc()
        if record.name.startswith("discord.") and "rate limited" in str(record.msg):
            RATE_LIMITS.inc()
        return True


class _Text(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        tags = " ".join(f"{k}={v}" for k in ("match", "guild") if (v := getattr(record, k, None)) is not None)
        return f"{text} [{tags}]" if tags else text


class _Json(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        data = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "match": getattr(record, "match", None),
            "guild": getattr(record, "guild", None),
        }
        if record.exc_info:
            data["error"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False)


def log_handler(fmt: str = "text") -> logging.Handler:
    """A stderr handler writing tagged records as text or as JSON lines."""
    handler = logging.StreamHandler()
    handler.addFilter(_Tags())
    text = _Text("%(asctime)s %(levelname)s %(name)s: %(message)s")
    handler.setFormatter(_Json() if fmt == "json" else text)
    return handler


def setup_logging(level: str = "INFO", fmt: str | None = None) -> None:
    """Log to stderr at `level`, as text or JSON (AGORA_LOG_FORMAT when fmt is None)."""
    fmt = (fmt or os.environ.get("AGORA_LOG_FORMAT", "text")).strip().lower()
    logging.basicConfig(level=level.upper(), handlers=[log_handler(fmt)], force=True)


class MetricsError(Exception):
    """The metrics were asked for but cannot be served; the message says why and what to change."""


def serve_metrics(port: int, addr: str = METRICS_ADDR) -> None:
    """Expose the metrics at http://addr:port/metrics (a thread of prometheus-client's own)."""
    start_http_server(port, addr=addr, registry=REGISTRY)


def serve_metrics_from_env() -> str | None:
    """Serve the metrics where AGORA_METRICS_PORT and AGORA_METRICS_ADDR say; "addr:port", or None when
    no port is set. MetricsError (one line) for a port that is not a port number, or cannot be listened
    on (in use, or an address that is not this machine's)."""
    text = os.environ.get("AGORA_METRICS_PORT", "").strip()
    if not text:
        return None
    addr = os.environ.get("AGORA_METRICS_ADDR", "").strip() or METRICS_ADDR
    fix = "set AGORA_METRICS_PORT to a free port, or leave it empty for no metrics"
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise MetricsError(f"AGORA_METRICS_PORT takes a port number from 1 to 65535, not {text!r}; {fix}")
    port = int(text)
    try:
        serve_metrics(port, addr)
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            why = f"port {port} is in use by another program"
        elif e.errno in (errno.EACCES, errno.EPERM):
            why = f"port {port} needs privileges this process lacks"
        else:
            why = f"{e.strerror or e}; is AGORA_METRICS_ADDR an address of this machine?"
        raise MetricsError(f"cannot serve the metrics on {addr}:{port}: {why}; {fix}") from None
    return f"{addr}:{port}"


def health_file() -> Path:
    """Where the heartbeat is written."""
    return Path(os.environ.get("AGORA_HEALTH_FILE", HEALTH_FILE))


UNREACHABLE_SINCE = "database unreachable since"


def beat(now: float | None = None, outage: tuple[float, str] | None = None) -> None:
    """Record that the bot is connected, and whether its database answers (outage: since when, as
    time.time(), and why not)."""
    text = f"{time.time() if now is None else now:.0f}\n"
    if outage is not None:
        since, reason = outage
        text += f"{UNREACHABLE_SINCE} {since:.0f} {' '.join(reason.split())}\n"
    health_file().write_text(text)


def health(now: float | None = None) -> tuple[bool, str]:
    """Whether the last heartbeat is recent enough, and a line saying so."""
    path = health_file()
    limit = float(os.environ.get("AGORA_HEALTH_MAX_AGE", HEALTH_MAX_AGE))
    try:
        lines = path.read_text().splitlines()
        last = float(lines[0].strip())
    except (OSError, ValueError, IndexError):
        return False, f"unhealthy: no heartbeat in {path} (is the bot running and connected?)"
    age = (time.time() if now is None else now) - last
    if age > limit:
        return False, f"unhealthy: the last heartbeat is {age:.0f} s old (more than {limit:.0f} s)"
    outage = next((line for line in lines[1:] if line.startswith(UNREACHABLE_SINCE)), None)
    if outage is not None:
        since, _, reason = outage.removeprefix(UNREACHABLE_SINCE).strip().partition(" ")
        try:
            when = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(float(since)))
        except ValueError:
            when = since
        return False, f"unhealthy: database: unreachable since {when} ({reason or 'no reason given'})"
    return True, f"healthy: heartbeat {age:.0f} s ago"
