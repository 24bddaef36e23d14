"""The layering contract: engine is pure rules; render draws views; only bot knows Discord and storage; within
bot, the session manager, the store and the terminal front ends know no Discord front end; and mypy finds no
error."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from engine.registry import games

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = {
    "engine": {"bot", "render", "discord", "sqlite3", "asyncpg", "PIL", "asyncio"},
    "render": {"bot", "discord", "sqlite3", "asyncpg"},
}


def imported_roots(path: Path) -> set[str]:
    """The top-level package of every import in a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_no_forbidden_imports() -> None:
    """engine imports nothing from bot or render, nor discord, sqlite3 or PIL; render never bot."""
    bad = []
    for package, forbidden in FORBIDDEN.items():
        for path in sorted((ROOT / package).rglob("*.py")):
            bad += [f"{path.relative_to(ROOT)} imports {m}" for m in imported_roots(path) & forbidden]
    assert not bad, "\n".join(bad)


def test_import_linter_contracts() -> None:
    """The same contracts, as import-linter checks them (they live in pyproject.toml)."""
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_finds_no_error() -> None:
    """The annotations hold: mypy as pyproject.toml configures it (engine, render, bot) reports no error."""
    result = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stdout + result.stderr


def game_names_in(folder: Path, ids: list[str]) -> list[str]:
    """Every line of every file under folder that names one of the game ids (whole word, any case)."""
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, ids)) + r")\b", re.IGNORECASE)
    found = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.relative_to(folder.parent)}:{n}: {line.strip()}")
    return found


def test_bot_names_no_game() -> None:
    """Presentation is the game's: bot/ reads engine.table.present and the registry, and names no game id,
    in code, strings, comments or docs (a new game must need no change in bot/)."""
    ids = sorted(games())
    assert ids, "no registered games"
    found = game_names_in(ROOT / "bot", ids)
    assert not found, "bot/ names a game:\n" + "\n".join(found)


def test_the_name_check_finds_names(tmp_path: Path) -> None:
    """The check above would catch a game id in a string, in any case, but not inside a longer word."""
    (tmp_path / "a.py").write_text('x = "Play OPHION now"\ny = "ophionic"\n', encoding="utf-8")
    (tmp_path / "b.md").write_text("nothing here\n", encoding="utf-8")
    assert [f.split(":", 2)[1] for f in game_names_in(tmp_path, ["ophion"])] == ["1"]


def bot_imports() -> dict[str, set[str]]:
    """Every module of bot/ and the modules of bot/ it imports, all imports counted: top-level, inside
    functions and under `if TYPE_CHECKING` (`from bot.discord import away` names bot.discord.away)."""
    modules = {}
    for path in sorted((ROOT / "bot").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                named = {f"{node.module}.{alias.name}" for alias in node.names}
                found |= (named & modules.keys()) or {node.module}
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles: each group of modules that import each other in a circle (Tarjan's strongly
    connected components of more than one module)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def test_no_import_cycle_in_bot() -> None:
    """No module of bot/ imports itself through others, type-only and function-local imports counted
    (`python tests/ops/test_layers.py` prints the count and the circles; issue 36 began with 3, of 20
    modules: bot/discord's 14, the session manager's package and its parts, the terminal's two)."""
    assert import_cycles(bot_imports()) == []


if __name__ == "__main__":
    cycles = import_cycles(bot_imports())
    print(f"{len(cycles)} import cycles in bot/ ({sum(map(len, cycles))} modules in them)")
    for group in cycles:
        print("  " + " ".join(group))
