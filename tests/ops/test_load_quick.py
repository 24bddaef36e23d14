"""The load bench's core (bench/load.py), small: six channels at once through one bot and the fake Discord, a
game of each registered game plus a game of forty options (a paged select menu), one person and an AI or two
people in each; no move acknowledged or announced is lost or applied twice, nothing fails, every game moves
on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from bench.load import Ack, Config, audit, format_report, run_load
from engine.registry import games
from tests.discord.test_discord_menus import Wide as MenuWide
from tests.toygame import registered

BUILTIN = tuple(g for g, game in games().items() if type(game).__module__.startswith("engine.games."))


class Wide(MenuWide):
    """The menu tests' Wide (each of two players picks a number from 0 to 39 once; the higher pick wins: a
    game over in two moves, so the channel opens game after game) under an id of its own."""

    id: ClassVar[str] = "load_wide"


@pytest.fixture
def wide() -> Iterator[Wide]:
    """The wide game in the registry for this test."""
    with registered(Wide()) as game:
        yield game


async def test_six_channels_at_once_lose_no_move(wide: Wide, tmp_path: Path) -> None:
    cfg = Config(
        channels=len(BUILTIN)
        + 1,  # channel i plays games[i]; odd channels seat two people, even a person + AI
        seconds=10.0,
        think=(0.2, 0.8),
        click=(0.02, 0.1),
        ramp=1.0,
        games=(*BUILTIN, wide.id),  # the wide game's channel (the last, odd) seats two people
        page_bias=0.5,
        timeout=20.0,
        drain=10.0,
        spec=True,  # a test: every body checked, as everywhere in the tests
    )
    report = await run_load(cfg, tmp_path)
    text = format_report(report)
    print(text)
    assert text.splitlines()[-1] == "lost moves: 0, duplicated moves: 0", text
    assert report.errors == 0, text
    counts = report.samples.counts
    assert not counts["presses never answered"] and not counts["bench failures"], text
    assert report.audit.unconfirmed == 0 and report.audit.gaps == 0 and report.audit.unannounced == 0, text
    for game in cfg.games:  # every game moved on
        assert report.audit.moves_by_game[game] >= 3, (game, text)
    assert report.person_moves >= 20 and report.ai_moves >= 5, text
    assert report.audit.person_rows == report.person_moves, text
    assert counts["select menus"] > 0, text  # the wide game's picks: a paged select menu
    assert report.finished_by_game[wide.id] >= 1, text  # and a new /play after a game ended
    assert report.samples.board and report.samples.confirmed, text
    # Discord's rate limits are on (as Discord's own): the bot kept under the global limit by itself.
    assert cfg.rate_limits == 1.0 and report.requests["bot"] > 0, text
    assert report.limited["global"] == 0, text

    # The audit is no rubber stamp: an acknowledgement forgotten leaves its row unaccounted for (duplicated),
    # one the log never got is lost.
    db, acks = str(tmp_path / "agora.db"), report.load.acks
    forgotten = acks.pop()
    assert ((checked := await audit(db, report.load)).lost, checked.duplicated) == (0, 1)
    acks += [forgotten, Ack(forgotten.mid, forgotten.user, forgotten.sid + 10_000, "✅ You played **air**.")]
    assert ((checked := await audit(db, report.load)).lost, checked.duplicated) == (1, 0)
