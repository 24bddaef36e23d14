"""Shared test fixtures: the fake Discord (tests/fakediscord) for every end-to-end test, and the toy game."""

from collections.abc import Iterator

import pytest

from engine.registry import games, register
from tests.toygame import HighCard

pytest_plugins = ("tests.fakediscord.fixtures",)


@pytest.fixture
def toy() -> Iterator[HighCard]:
    """High Card (tests/toygame.py) in the registry for one test."""
    game = HighCard()
    assert game.id not in games()
    register(game)
    try:
        yield game
    finally:
        games().pop(game.id, None)
