"""Reading a game's card data file (TOML) with clear errors: which file, which card, which field, why.

A card pack that a server admin writes goes through the same checks as the cards that ship with a game.
"""

from __future__ import annotations

import tomllib
from collections.abc import Collection
from pathlib import Path
from typing import Any

_REQUIRED = object()


class CardDataError(ValueError):
    """A card data file that cannot be used; the message says where and why."""


def load(path: Path) -> dict[str, Any]:
    """A TOML file as a dict; CardDataError naming the file and line for a syntax error."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise CardDataError(f"{path}: cannot be read ({e.strerror})") from None
    except tomllib.TOMLDecodeError as e:
        raise CardDataError(f"{path.name}: not valid TOML: {e}") from None


def check_keys(where: str, table: dict[str, Any], allowed: Collection[str]) -> None:
    """Refuse keys a card does not know (a typo would otherwise be silently ignored)."""
    unknown = sorted(set(table) - set(allowed))
    if unknown:
        raise CardDataError(
            f"{where}: unknown field {', '.join(unknown)}; known: {', '.join(sorted(allowed))}"
        )


def field(
    where: str,
    table: dict[str, Any],
    key: str,
    kind: type,
    default: Any = _REQUIRED,
    choices: Collection[Any] | None = None,
    low: int | None = None,
    high: int | None = None,
) -> Any:
    """One checked field of a card's table: present (or defaulted), of the right type, in range."""
    if key not in table:
        if default is _REQUIRED:
            raise CardDataError(f"{where}: missing field {key!r}")
        return default
    value = table[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise CardDataError(f"{where}: {key} must be {kind.__name__}, not {value!r}")
    if choices is not None and value not in choices:
        raise CardDataError(f"{where}: {key} = {value!r} is not one of {', '.join(map(repr, choices))}")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"from {low}" + (f" to {high}" if high is not None else "")
        raise CardDataError(f"{where}: {key} = {value} must be {bounds}")
    return value
