"""The terminal app's board panel and move labels at 80x24 (issue 35, point 4): both sides of the board in
view at the start of a turn, the hand never repeated in the board, no move label cut inside a card's
name (an owner the group makes clear is dropped), and Ophelia after the game without empty rows."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from bot.store import ACTIVE
from bot.tui.app import AgoraApp
from engine.registry import get as get_game
from engine.table.present import fit_label, menu_labels, of
from tests.terminal.test_tui import WAIT, play_one, ready
from tests.tui_helpers import new_app, region_text

SIZE = (80, 24)


async def _first_turn(tmp_path: Path, game_id: str) -> AgoraApp:
    """The app on a new game against the random AI (seed 7), not yet started."""
    return await new_app(tmp_path, game_id, seed=7)


def _board_in_view(app: AgoraApp) -> str:
    return "\n".join(region_text(app, "#board-box"))


@pytest.mark.parametrize("game_id", ["ophidian", "ophelia"])
async def test_both_sides_of_the_board_are_in_view_and_the_hand_is_not_repeated(
    tmp_path: Path, game_id: str
) -> None:
    app = await _first_turn(tmp_path, game_id)
    async with app.run_test(size=SIZE) as pilot:
        await ready(app)
        await pilot.pause()
        shown = _board_in_view(app)
        board = str(app.query_one("#board").visual)
        view, seen = app.view, list(app.seen)
        await pilot.press("q")
    other = next(p for p in view["players"] if p["seat"] != view["viewer"])
    assert "AI 2 (random)" in shown and "You" in shown, shown
    if game_id == "ophidian":
        mine = next(p for p in view["players"] if p["seat"] == view["viewer"])
        for c in other["characters"] + mine["characters"]:
            assert c["name"] in shown, f"{c['name']} is off the screen:\n{shown}"
    else:
        assert re.search(r"You.*│ AI 2 \(random\)", shown), "the rows face each other side by side"
        for col in range(1, 6):
            assert re.search(rf"^│ {col} │ .* │ ", shown, re.M), f"slot {col} is off the screen:\n{shown}"
    entries = {e.id: e.name for e in of(get_game(game_id)).catalogue()}
    held = {entries[s.card] for s in seen if s.mine} - {entries.get(s.card) for s in seen if not s.mine}
    assert held
    for name in held:
        assert name not in board, f"the hand's {name} is repeated in the board"
    assert "holding" not in board


def _leaves(node: TreeNode) -> list[TreeNode]:  # type: ignore[type-arg]
    out = []
    for child in node.children:
        out += [child] if child.data is not None else []
        out += _leaves(child)
    return out


async def test_ophidian_attack_labels_say_the_targets_whole_name(tmp_path: Path) -> None:
    """ "7 attacks AI 2 (normal)'s Br" was cut by the tree: now the owner the group makes clear goes and
    what does not fit is the details after the name, never a part of a name."""
    app = await _first_turn(tmp_path, "ophidian")
    names = sorted({e.name for e in of(get_game("ophidian")).catalogue()}, key=len, reverse=True)
    async with app.run_test(size=SIZE) as pilot:
        for step in range(40):
            await ready(app)
            assert app.info is not None and app.info.status == ACTIVE
            if any(m.path[0] == "Attack (+)" for m in app.moves):
                break
            await play_one(app, pilot, step)
        else:
            raise AssertionError("no attack offered in 40 moves")
        tree = app.query_one("#moves", Tree)
        tree.root.expand_all()
        await pilot.pause()
        first = next(n for n in _leaves(tree.root) if n.data.path[0] == "Attack (+)")
        tree.scroll_to_node(first, animate=False)  # the attacks in view (the words under the list take rows)
        await pilot.pause()
        lines = region_text(app, "#moves")
        labels = [(str(n.label), n.data) for n in _leaves(tree.root)]
        await pilot.press("q")
    attacks = [(label, m) for label, m in labels if m.path[0] == "Attack (+)"]
    assert attacks
    for label, move in attacks:
        assert "AI 2 (random)'s" not in label, label  # the group says whose: attacks go to the enemy
        cut = label.rstrip("…")
        whole = " › ".join(move.path)
        for name in names:
            if name in whole and name not in label:
                assert not any(cut.endswith(name[:i]) for i in range(2, len(name))), f"{label} cuts {name}"
    shown = [lab for lab, _ in attacks if any(f" {lab.split(' ', 1)[0]} attacks " in line for line in lines)]
    assert shown, lines
    for label in shown:
        assert any(label in line for line in lines), f"the tree cuts {label!r}:\n" + "\n".join(lines)


async def test_ophelia_after_the_game_shows_no_empty_rows(tmp_path: Path) -> None:
    """The board is forgotten at the end: the result and the points, not ten rows of empty slots."""
    app = await new_app(tmp_path, "ophelia", seed=2, players=2, ai=2)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(WAIT * 10):
            await asyncio.sleep(0.1)
            if app.ready.is_set() and app.info is not None and app.info.status != ACTIVE:
                break
        await pilot.pause()
        board = str(app.query_one("#board").visual)
        shown = _board_in_view(app)
        await pilot.press("q")
    assert "Game over" in shown, shown
    empty = r"^\s*\d\s*(outer|middle)?:?\s*(│\s*)?·\s*(│\s*·\s*)?$"  # "  2: ·" or "2 │ · │ ·"
    assert not re.search(empty, board, re.M), board


def test_menu_labels_drop_an_owner_the_group_makes_clear_and_shorten_the_others() -> None:
    owners = ["Player 1", "AI 2 (normal)", "AI 3 (normal)"]
    same = ["attacks AI 2 (normal)'s Brakka Vohl (Action)", "attacks AI 2 (normal)'s Sera Quill (Action)"]
    names = ["attacks Brakka Vohl (Action)", "attacks Sera Quill (Action)"]
    assert menu_labels(same, owners, "Player 1") == names
    mixed = ["Player 1's Kestrel Nine", "AI 2 (normal)'s Sera Quill", "Pass"]
    assert menu_labels(mixed, owners, "Player 1") == ["Your Kestrel Nine", "AI 2's Sera Quill", "Pass"]
    twins = ["AI 2 (normal)'s Sera Quill", "AI 2 (easy)'s Sera Quill"]  # the bracket is what tells them apart
    assert menu_labels(twins, ["AI 2 (normal)", "AI 2 (easy)"], None) == twins
    assert fit_label("attacks Brakka Vohl (Action, 2 ADMG, 8 Life)", 28) == "attacks Brakka Vohl (Action…"
