"""Pytest fixtures for end-to-end tests: `fake` (a started FakeDiscord), `error_logs` (fails on ERROR logs).

Use them from a test module with `pytest_plugins = ("tests.fakediscord.fixtures",)` or from a conftest.py.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from .client import ErrorLogCapture, capture_error_logs
from .server import INTERACTION_DEADLINE, FakeDiscord


@pytest.fixture
def error_logs() -> Iterator[ErrorLogCapture]:
    """Collect ERROR records for the test; the test fails at teardown if there were any."""
    with capture_error_logs() as handler:
        yield handler
    if handler.records:
        pytest.fail(f"ERROR logged during the test:\n{handler.report()}", pytrace=False)


@pytest.fixture
async def fake(error_logs: ErrorLogCapture) -> AsyncIterator[FakeDiscord]:
    """A started fake Discord; fails the test if the bot used a route the fake does not implement, sent
    something Discord would refuse (see limits.py), sent an image without alt text (an attachment's or a media
    gallery item's description), or answered an interaction after Discord's 3 seconds
    (unless the test changed `callback_deadline`)."""
    server = FakeDiscord()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
    assert not server.unimplemented, f"bot used unimplemented routes: {server.unimplemented}"
    assert not server.rejected, f"Discord would have refused: {server.rejected}"
    assert not server.unlabelled, f"images sent without alt text: {server.unlabelled}"
    if server.callback_deadline == INTERACTION_DEADLINE:
        late = [ix.describe() for ix in server.late_interactions()]
        assert not late, f"the bot answered after Discord's {INTERACTION_DEADLINE:g}-second deadline: {late}"
