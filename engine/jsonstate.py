"""JSON for game states written as dataclasses: one codec serves every game instead of a to_json per class.

Each field is encoded and decoded by its type hint (lists and dicts copied, nested dataclasses as objects,
the Rng as its two integers), with the converters built once per class, so that it costs about what a
hand-written to_json does. `to_json(from_json(cls, d)) == d` for any d that to_json produced.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from dataclasses import fields, is_dataclass
from functools import cache
from typing import Any, TypeVar, Union, get_args, get_origin, get_type_hints

from engine.rng import Rng

T = TypeVar("T")
Convert = Callable[[Any], Any]
SCALARS = (int, str, bool, float, type(None))


def to_json(value: Any) -> Any:
    """A dataclass state as plain JSON values, sharing nothing with the original."""
    return _encoder(type(value))(value)


def from_json(cls: type[T], data: dict[str, Any]) -> T:
    """A dataclass rebuilt from to_json's output."""
    return _decoder(cls)(data)


def _plain(value: Any) -> Any:
    """A deep copy of plain JSON values (for fields typed Any or dict)."""
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _optional(convert: Convert) -> Convert:
    return lambda v: None if v is None else convert(v)


def _each(convert: Convert) -> Convert:
    return lambda v: [convert(x) for x in v]


def _object(cls: type, names: list[str], converts: list[Convert], encode: bool) -> Convert:
    pairs = list(zip(names, converts, strict=True))
    if encode:
        return lambda v: {name: c(getattr(v, name)) for name, c in pairs}
    return lambda d: cls(**{name: c(d[name]) for name, c in pairs})


def _optional_scalar(hint: Any) -> bool:
    """str | None and the like."""
    return get_origin(hint) in (Union, types.UnionType) and all(a in SCALARS for a in get_args(hint))


def _converter(hint: Any, encode: bool) -> Convert:
    """The function that encodes (or decodes) a value of this type hint."""
    if hint in SCALARS:
        return lambda v: v
    if hint is Rng:
        return Rng.to_json if encode else Rng.from_json
    if is_dataclass(hint):
        if (hint, encode) in _BUILDING:  # a dataclass that holds its own kind (a card with attached cards)
            return (lambda v: _encoder(hint)(v)) if encode else (lambda v: _decoder(hint)(v))
        return _encoder(hint) if encode else _decoder(hint)
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        return _optional(_converter(inner[0], encode)) if len(inner) == 1 else _plain
    if origin is list and args:
        if args[0] in SCALARS or _optional_scalar(args[0]):
            return list  # a list of scalars (or of optional scalars): a shallow copy is a full copy
        return _each(_converter(args[0], encode))
    return _plain


_BUILDING: set[tuple[type, bool]] = set()


def _build(cls: type, encode: bool) -> Convert:
    hints = get_type_hints(cls)
    names = [f.name for f in fields(cls)]
    _BUILDING.add((cls, encode))
    try:
        return _object(cls, names, [_converter(hints[n], encode) for n in names], encode=encode)
    finally:
        _BUILDING.discard((cls, encode))


def _build_encoder(cls: type) -> Convert:
    return _build(cls, True)


def _build_decoder(cls: type) -> Convert:
    return _build(cls, False)


# Built once per class; typed as taking any class (functools.cache's wrapper asks for Hashable arguments).
_encoder: Callable[[Any], Convert] = cache(_build_encoder)
_decoder: Callable[[Any], Convert] = cache(_build_decoder)
