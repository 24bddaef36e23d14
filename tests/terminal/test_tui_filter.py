"""The terminal app's move filter, focus and end-of-turn question, driven by Textual's pilot at 80x24: the
filter clears after every move and says how many moves it lets through; Esc in it gives the app's keys
back; on a person's own turn the cursor starts off "End turn" / "Pass", and ending the turn while other
moves are offered asks once (unless the setting turns the question off); a lone pass never asks."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.events import Key
from textual.widgets import Input, Tree

from bot.store import ACTIVE
from bot.tui.app import AgoraApp
from bot.tui.screens import TextScreen
from engine.table.present import ends_of, of
from tests.terminal.test_tui import ready
from tests.tui_helpers import new_app, screen_text

SIZE = (80, 24)
ASKED = "You still have"
SIEGE = "siege_of_olympus"


def shown_moves(app: AgoraApp) -> list[str]:
    """The keys of the moves the tree lists now."""
    tree = app.query_one("#moves", Tree)
    out, stack = [], [tree.root]
    while stack:
        node = stack.pop()
        if node.data is not None:
            out.append(node.data.key)
        stack.extend(node.children)
    return out


def title(app: AgoraApp) -> str:
    return str(app.query_one("#moves", Tree).border_title or "")


def ender(app: AgoraApp, key: str) -> bool:
    return key.split(":", 1)[0] in ends_of(of(app.game))


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    for _ in range(3):
        await pilot.pause()


async def next_turn(app: AgoraApp, pilot, turn: int) -> None:  # type: ignore[no-untyped-def]
    """Until the app asks for the move after `turn` (answering the end-of-turn question with Enter)."""
    for _ in range(6000):
        await asyncio.sleep(0.01)
        if ASKED in screen_text(app) and app.screen is not app.screen_stack[0]:
            await pilot.press("enter")
        if app.turns != turn and app.ready.is_set():
            break
        if app.info is not None and app.info.status != ACTIVE:
            break
    await settle(pilot)


async def play(app: AgoraApp, pilot, key: str) -> None:  # type: ignore[no-untyped-def]
    """A move by its number or letter, then Enter (and Enter again if the question comes)."""
    turn = app.turns
    await pilot.press(*key)
    await settle(pilot)
    await pilot.press("enter")
    await next_turn(app, pilot, turn)


async def enter_never_asks(app: AgoraApp, pilot) -> None:  # type: ignore[no-untyped-def]
    """Enter plays the move under the cursor without the end-of-turn question; the turn moves on."""
    turn = app.turns
    await pilot.press("enter")
    for _ in range(3000):
        await asyncio.sleep(0.01)
        assert ASKED not in screen_text(app)
        if app.turns != turn:
            break
    assert app.turns != turn


async def own_turn(app: AgoraApp, pilot) -> None:  # type: ignore[no-untyped-def]
    """Past the deal's decisions to a turn of the person's own with an end and other moves."""
    await ready(app)
    await settle(pilot)
    for _ in range(20):
        assert app.info is not None
        kinds = [ender(app, m.key) for m in app.moves]
        if not app.info.window and any(kinds) and not all(kinds) and len(app.moves) > 8:
            return
        await play(app, pilot, app.keyed[-1][0])  # the deal's decisions: keep, pass, the last offered
    raise AssertionError("no turn of the person's own")


async def test_the_filter_counts_what_it_lets_through_and_clears_after_a_move(tmp_path: Path) -> None:
    app = await new_app(tmp_path, SIEGE, 3)
    async with app.run_test(size=SIZE) as pilot:
        await own_turn(app, pilot)
        total = len(app.moves)
        await pilot.press("slash", *"summon")
        await settle(pilot)
        wanted = [m.key for m in app.moves if "summon" in m.label.casefold()]
        assert 1 < len(wanted) < total
        assert f"filter: summon — {len(wanted)} of {total} moves" in title(app)
        assert sorted(shown_moves(app)) == sorted(wanted)
        await pilot.press(*"zzz")
        await settle(pilot)
        assert "no move matches" in title(app) and "no move matches" in screen_text(app)
        await pilot.press("backspace", "backspace", "backspace", "enter")
        await settle(pilot)
        assert isinstance(app.focused, Tree), "Enter in the filter goes back to the list"
        node = app.query_one("#moves", Tree).cursor_node
        assert node is not None and node.data is not None and node.data.key in wanted
        turn = app.turns
        await pilot.press("enter")
        await next_turn(app, pilot, turn)
        assert app.query_one("#filter", Input).value == ""
        assert "filter" not in title(app)
        assert sorted(shown_moves(app)) == sorted(m.key for m in app.moves), "the next decision unfiltered"
        await pilot.press("q")


async def test_esc_in_the_filter_gives_the_keys_back(tmp_path: Path) -> None:
    app = await new_app(tmp_path, SIEGE, 3)
    async with app.run_test(size=SIZE) as pilot:
        await own_turn(app, pilot)
        total = len(app.moves)
        await pilot.press("slash", "x", "escape")
        await settle(pilot)
        assert isinstance(app.focused, Tree)
        assert app.query_one("#filter", Input).value == "", "Esc clears the filter"
        assert len(shown_moves(app)) == total
        await pilot.press("h")
        await settle(pilot)
        assert isinstance(app.screen, TextScreen) and "help" in screen_text(app)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("slash", *"end turn", "enter")  # Enter in the filter plays the only match
        await settle(pilot)
        assert ASKED in screen_text(app)
        await pilot.press("escape", "escape")  # no to the question, then the filter clears
        await settle(pilot)
        assert app.query_one("#filter", Input).value == "" and len(shown_moves(app)) == total
        await pilot.press("slash", "x", "escape", "question_mark")
        await settle(pilot)
        assert app.query_one("#filter", Input).value == ""
        assert "Thinking" in screen_text(app) or isinstance(app.screen, TextScreen), "? asks for a hint"
        await pilot.press("q")


@pytest.mark.parametrize("game_id", ["siege_of_olympus", "ophidian"])
async def test_the_cursor_starts_off_the_end_of_the_turn(tmp_path: Path, game_id: str) -> None:
    app = await new_app(tmp_path, game_id, 3)
    checked = 0
    async with app.run_test(size=SIZE) as pilot:
        await ready(app)
        await settle(pilot)
        for step in range(6):
            assert app.info is not None
            kinds = [ender(app, m.key) for m in app.moves]
            if not app.info.window and any(kinds) and not all(kinds):
                node = app.query_one("#moves", Tree).cursor_node
                assert node is not None and node.data is not None, "the cursor is on a move"
                assert not ender(app, node.data.key), f"the cursor starts on {node.data.label}"
                checked += 1
            letters = [k for k, m in app.keyed if ender(app, m.key)]
            numbers = [k for k, _ in app.keyed if k.isdigit()]
            await play(app, pilot, letters[0] if letters and step % 2 else (numbers or letters)[0])
        await pilot.press("q")
    assert checked >= 2


async def test_ending_the_turn_asks_once_esc_keeps_it_enter_ends_it(tmp_path: Path) -> None:
    app = await new_app(tmp_path, SIEGE, 3)
    async with app.run_test(size=SIZE) as pilot:
        await own_turn(app, pilot)
        others = sum(not ender(app, m.key) for m in app.moves)
        turn, state = app.turns, app.info.state_id  # type: ignore[union-attr]
        await pilot.press("e")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        text = screen_text(app)
        assert f"End turn? You still have {others} other moves." in text and "Enter: yes · Esc: no" in text
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is app.screen_stack[0] and app.turns == turn and app.ready.is_set()
        await pilot.press("enter")  # the cursor is still on End turn: it asks again, once
        await settle(pilot)
        assert ASKED in screen_text(app)
        await pilot.press("enter")
        for _ in range(3000):
            await asyncio.sleep(0.01)
            if app.turns != turn:
                break
        await ready(app)
        assert app.info.state_id != state  # type: ignore[union-attr]
        assert app.screen is app.screen_stack[0]
        await pilot.press("q")


async def test_the_setting_turns_the_question_off(tmp_path: Path) -> None:
    app = await new_app(tmp_path, SIEGE, 3, confirm=False)
    async with app.run_test(size=SIZE) as pilot:
        await own_turn(app, pilot)
        await pilot.press("e")
        await settle(pilot)
        await enter_never_asks(app, pilot)
        await pilot.press("q")


async def test_a_lone_pass_never_asks(tmp_path: Path) -> None:
    """With windows set to ask, a response window whose only move is Pass waits for the person; Enter
    passes at once."""
    app = await new_app(tmp_path, SIEGE, 3, windows="ask")
    async with app.run_test(size=SIZE) as pilot:
        await ready(app)
        await settle(pilot)
        for step in range(30):
            if [m.key for m in app.moves] == ["pass"]:
                break
            keys = [k for k, _ in app.keyed]
            await play(app, pilot, keys[-1] if step % 3 == 0 else keys[0])
        assert [m.key for m in app.moves] == ["pass"]
        await enter_never_asks(app, pilot)
        await pilot.press("q")


@pytest.mark.parametrize(("argv", "asks"), [([], True), (["--no-confirm"], False)])
def test_no_confirm_on_the_command_line_reaches_the_app(
    monkeypatch: pytest.MonkeyPatch, argv: list[str], asks: bool
) -> None:
    import bot.__main__ as cli
    from bot.console import PlayOptions

    got: list[PlayOptions] = []

    async def fake_play(opts: PlayOptions) -> int:
        got.append(opts)
        return 0

    monkeypatch.setattr(cli, "play", fake_play)
    assert cli.main(["play", "siege_of_olympus", *argv]) == 0
    assert got[0].confirm is asks


async def test_right_opens_a_group_and_left_closes_it(tmp_path: Path) -> None:
    """The help says → opens a group: → opens the group under the cursor, then steps into it; ← goes back to
    the group, then closes it."""
    app = await new_app(tmp_path, SIEGE, 3)
    async with app.run_test(size=SIZE) as pilot:
        await own_turn(app, pilot)
        tree = app.query_one("#moves", Tree)
        group = next(n for n in tree.root.children if n.children)
        group.collapse()
        tree.move_cursor(group)
        tree.focus()
        await settle(pilot)
        await pilot.press("right")
        await settle(pilot)
        assert group.is_expanded
        await pilot.press("right")
        await settle(pilot)
        assert tree.cursor_node is group.children[0]
        await pilot.press("left")
        await settle(pilot)
        assert tree.cursor_node is group and group.is_expanded
        await pilot.press("left")
        await settle(pilot)
        assert not group.is_expanded


async def test_a_number_then_enter_at_once_plays_that_move(tmp_path: Path) -> None:
    """Typed fast (the keys in one burst, as a paste or tmux sends them), a move's number then Enter plays the
    move the number names, not the one the cursor was on before it got there."""
    app = await new_app(tmp_path, SIEGE, 3)
    async with app.run_test(size=SIZE) as pilot:
        await own_turn(app, pilot)
        keyed = dict(app.keyed)
        tree = app.query_one("#moves", Tree)
        start = tree.cursor_node.data.key if tree.cursor_node and tree.cursor_node.data else None
        number = next(k for k, m in keyed.items() if k.isdigit() and m.key != start and not ender(app, m.key))
        played: list[str] = []
        app._decide = lambda move: played.append(move.key)  # type: ignore[method-assign]
        for key in number:  # the keys as the terminal sends them, Enter at once after the number
            app.post_message(Key(key, key))
        app.post_message(Key("enter", None))
        await settle(pilot)
        assert played == [keyed[number].key], (played, keyed[number])
