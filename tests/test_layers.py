"""The layering contract: engine is pure rules; render draws views; only bot knows Discord and storage."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {
    "engine": {"bot", "render", "discord", "aiosqlite", "asyncpg", "PIL", "asyncio"},
    "render": {"bot", "discord", "aiosqlite", "asyncpg"},
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
    """engine imports nothing from bot or render, nor discord, aiosqlite or PIL; render never bot."""
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
