"""JSON for game states written as dataclasses: one codec serves every game instead of a to_json per class.

Fields are encoded by value (lists and dicts copied, nested dataclasses as objects, the Rng as its two
integers) and decoded by their type hints, so `from_json(cls, to_json(x))` rebuilds x and
`to_json(from_json(cls, d)) == d` for any d that to_json produced.
"""

from __future__ import annotations

import types
from dataclasses import fields, is_dataclass
from functools import cache
from typing import Any, TypeVar, Union, get_args, get_origin, get_type_hints

from engine.rng import Rng

T = TypeVar("T")


def to_json(value: Any) -> Any:
    """A dataclass state (or any part of it) as plain JSON values, sharing nothing with the original."""
    if isinstance(value, Rng):
        return value.to_json()
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    return value


def from_json(cls: type[T], data: dict[str, Any]) -> T:
    """A dataclass rebuilt from to_json's output, each field decoded by its type hint."""
    hints = _hints(cls)
    return cls(**{name: _decode(hint, data[name]) for name, hint in hints.items()})


@cache
def _hints(cls: type) -> dict[str, Any]:
    names = [f.name for f in fields(cls)]
    hints = get_type_hints(cls)
    return {name: hints[name] for name in names}


def _decode(hint: Any, value: Any) -> Any:
    if value is None:
        return None
    if hint is Rng:
        return Rng.from_json(value)
    if is_dataclass(hint):
        return from_json(hint, value)
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        inner = [a for a in get_args(hint) if a is not type(None)]
        return _decode(inner[0], value) if len(inner) == 1 else _plain(value)
    if origin is list:
        (item,) = get_args(hint) or (Any,)
        return [_decode(item, v) for v in value]
    return _plain(value)


def _plain(value: Any) -> Any:
    """A deep copy of plain JSON values."""
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value
