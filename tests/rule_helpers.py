"""What the rule-test helpers of every game share: the check that each test quotes sentences found in the
game's rule text or its RULINGS.md, and moves made by action key or by menu words."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.core import Action

RULES_DIR = Path(__file__).resolve().parents[2] / "shared" / "rules"  # beside the repository


def collapse(text: str) -> str:
    """Whitespace collapsed, Markdown emphasis and code marks dropped."""
    return " ".join(text.replace("*", "").replace("`", "").split())


def quotes(doc: str) -> list[str]:
    """The sentences a docstring quotes: each "..." span, split at an ellipsis (… or ...)."""
    out = []
    for span in re.findall(r'"([^"]+)"', collapse(doc)):
        out += [part.strip(" ,;") for part in re.split(r"…|\.\.\.", span) if part.strip(" ,;")]
    return out


def no_quote(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a test that checks the tests themselves (it quotes nothing)."""
    fn.no_quote = True  # type: ignore[attr-defined]
    return fn


def quote_checker(rulings: Path, rulebook: str) -> Callable[[dict[str, Any]], None]:
    """`check_quotes(globals())` for a game: its RULINGS.md, and its rule text in shared/rules (where it
    is missing only RULINGS.md is checked, and a quote found in neither fails only when the rule text is
    there to be read)."""
    rulings_text = collapse(rulings.read_text())
    path = RULES_DIR / rulebook
    rulebook_text = collapse(path.read_text()) if path.exists() else None

    def check_quotes(namespace: dict[str, Any]) -> None:
        """Every test function of a module quotes at least one sentence in its docstring, and each quoted
        sentence is in the rule text or in RULINGS.md (whitespace collapsed)."""
        tests = {k: v for k, v in namespace.items() if k.startswith("test_") and callable(v)}
        missing, unknown = [], []
        for name, fn in tests.items():
            if getattr(fn, "no_quote", False):
                continue
            found = quotes(fn.__doc__ or "")
            if not found:
                missing.append(name)
            for q in found:
                if q in rulings_text or rulebook_text is None or q in rulebook_text:
                    continue
                unknown.append(f"{name}: {q!r}")
        assert not missing, f"tests quoting nothing: {missing}"
        assert not unknown, "quotes found in neither the rule text nor RULINGS.md:\n" + "\n".join(unknown)

    return check_quotes


class Moves:
    """Moves of one game made by action key or by the words of its menu path."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def keys(self, s: Any, player: int) -> set[str]:
        """The keys of a seat's legal moves."""
        return {a.key for a in self.game.legal_actions(s, player)}

    def do(self, s: Any, player: int, key: str) -> list[str]:
        """Play the legal move with this key; the event texts."""
        legal = {a.key: a for a in self.game.legal_actions(s, player)}
        assert key in legal, f"P{player + 1}: {key} not in {sorted(legal)}"
        return [e.text for e in self.game.apply(s, legal[key])]

    def menu(self, s: Any, player: int) -> list[tuple[str, ...]]:
        """The menu words of a seat's legal moves."""
        return [self.game.describe(s, a) for a in self.game.legal_actions(s, player)]

    def by_words(self, s: Any, player: int, *words: str) -> Action:
        """The one legal move whose menu words begin with these."""
        found = [
            a for a in self.game.legal_actions(s, player) if self.game.describe(s, a)[: len(words)] == words
        ]
        assert len(found) == 1, f"{words} matches {len(found)} of {self.menu(s, player)}"
        return found[0]

    def say(self, s: Any, player: int, *words: str) -> list[str]:
        """Play the one legal move whose menu words begin with these; the event texts."""
        return [e.text for e in self.game.apply(s, self.by_words(s, player, *words))]
