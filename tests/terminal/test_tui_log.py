"""The terminal app's log (issue 35, point 5): a card's effect is credited to the card's owner, not to the
seat whose move set it off; a move with no event to read is worded, never a bare "moved"; and `l` opens the
whole log at its newest line."""

from __future__ import annotations

import re
from pathlib import Path

from textual.containers import VerticalScroll

from bot.tui.app import EndFirst
from engine.core import Event
from engine.table.events import emit
from tests.terminal.test_tui import drive, ready
from tests.tui_helpers import new_app, press_for_screen


async def test_an_ais_card_acting_in_your_move_is_credited_to_the_ai(tmp_path: Path) -> None:
    app = await new_app(tmp_path, "ophelia", seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app)
        events: list[Event] = []  # the shapes Ophelia's events have: a card of seat 1 leaves in seat 0's move
        emit(events, "retired", "Socrates is retired", uid=7, card="socrates", seat=1)
        emit(events, "turn", "P1 ends the Action Phase", seat=0)
        emit(events, "damaged", "Plato takes 2 damage", uid=8)
        app._add_events(0, events)
        assert app.log_lines[-3:] == [
            "AI 2 (random): Socrates is retired",
            "Player 1 ends the Action Phase",
            "Player 1: Plato takes 2 damage",
        ]
        await pilot.press("q")


async def test_ophidian_logs_no_bare_moved_and_l_opens_at_the_newest_line(tmp_path: Path) -> None:
    app = await new_app(tmp_path, "ophidian", seed=4)
    async with app.run_test(size=(80, 24)) as pilot:
        await drive(app, pilot, stop_after=8, extras=False)
        lines = list(app.log_lines)
        assert not [line for line in lines if re.search(r"(^|: )moved$", line)], lines
        assert any(line.startswith("AI 2 (random) passes") for line in lines), "the AI's silent pass"
        await press_for_screen(app, pilot, "l", EndFirst)
        scroll = app.screen.query_one("#text-scroll", VerticalScroll)
        assert scroll.max_scroll_y > 0, "the whole log is longer than the screen"
        assert scroll.scroll_y == scroll.max_scroll_y, "opened at the newest line"
        await pilot.press("escape", "q")


def test_ophelias_card_events_name_the_cards_owner() -> None:
    """ "Socrates deals 2 …" is Socrates's owner's line, whoever's move set the Contest off: Ophelia's card
    events carry their card's owner as their seat, which the log credits."""
    from engine.games.ophelia.cards import CARDS
    from tests.ophelia_helpers import fresh, game, place

    s = fresh(seed=1)
    mine, theirs = place(s, 0, 1, next(iter(CARDS))), place(s, 1, 1, next(iter(CARDS)))
    owners = {mine.uid: 0, theirs.uid: 1}
    seen: list[Event] = []
    for _ in range(60):
        if game.returns(s) is not None or not game.to_act(s):
            break
        player = game.to_act(s)[0]
        legal = {a.key: a for a in game.legal_actions(s, player)}
        key = next((k for k in ("end", "pass") if k in legal), sorted(legal)[0])
        seen += [e for e in game.apply(s, legal[key]) if e.kind in ("struck", "damaged")]
        if any(e.kind == "struck" for e in seen):
            break
    struck = [e for e in seen if e.kind == "struck"]
    assert struck, "the Contest came"
    for e in seen:
        assert e.arg("seat") == owners[int(e.arg("uid"))], e
