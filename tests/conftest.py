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


# The suite's longest tests (half a minute to more than a minute each on 2 cores: random games of the long
# games, the kill -9 property, whole games through the terminal app and the fake Discord). Started first, so
# that the two xdist workers end together rather than one waiting on a long test picked up last.
LONGEST = (
    "tests/games/test_games_generic.py::test_random_games",
    "tests/store/test_crash_safety.py::test_sigkill_at_random_moments",
    "tests/terminal/test_tui.py::test_a_whole_game_with_the_keyboard",
    "tests/discord/test_async_players.py::test_a_whole_",
    "tests/discord/test_discord_v2.py::test_a_whole_game",
    "tests/ops/test_shards_processes.py",
    "tests/discord/test_discord_restarts.py::test_a_whole_game",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests first (a stable sort: the rest keep their order)."""
    items.sort(key=lambda item: not item.nodeid.startswith(LONGEST))
