"""Shared test fixtures: the fake Discord (tests/fakediscord) for every end-to-end test, and the toy game."""

import os
import tempfile
from collections.abc import Iterator

import pytest

from engine import packs
from tests.toygame import HighCard, registered

pytest_plugins = ("tests.fakediscord.fixtures", "tests.pg")  # tests/pg.py: the test PostgreSQL

# The bots the tests start write their heartbeat (bot/ops.py) here, not where a running Agora writes its own.
os.environ.setdefault("AGORA_HEALTH_FILE", os.path.join(tempfile.mkdtemp(prefix="agora-tests-"), "health"))
# The bots the tests start draw in threads (hundreds of bot starts); tests/render/test_drawing.py tries the
# workers.
os.environ.setdefault("AGORA_RENDER_WORKERS", "0")


@pytest.fixture
def toy() -> Iterator[HighCard]:
    """High Card (tests/toygame.py) in the registry for one test."""
    with registered(HighCard()) as game:
        yield game


@pytest.fixture(autouse=True)
def _forget_card_packs() -> Iterator[None]:
    """Every test starts with the games' own cards only: a card pack a test loaded is forgotten after it."""
    yield
    packs.forget()
