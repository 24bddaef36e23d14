"""Reading a game's card data file (TOML) with clear errors: which file, which card, which field, why.

A card pack that a server admin writes goes through the same checks as the cards that ship with a game.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from pathlib import Path
from typing import Any, Generic, TypeVar

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
        named = ", ".join(k if len(k) <= 40 else k[:39] + "…" for k in unknown[:3])
        more = f" and {len(unknown) - 3:,} more" if len(unknown) > 3 else ""
        raise CardDataError(f"{where}: unknown field {named}{more}; known: {', '.join(sorted(allowed))}")


def field(
    where: str,
    table: dict[str, Any],
    key: str,
    kind: type[Any],
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
    value: Any = table[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise CardDataError(f"{where}: {key} must be {kind.__name__}, not {value!r}")
    if choices is not None and value not in choices:
        raise CardDataError(f"{where}: {key} = {value!r} is not one of {', '.join(map(repr, choices))}")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"from {low}" + (f" to {high}" if high is not None else "")
        raise CardDataError(f"{where}: {key} = {value} must be {bounds}")
    return value


# -- card packs (engine/packs.py): the limits every game's pack check applies ------------------------------

MAX_PACK_CARDS = 40
MAX_CARD_NAME, MAX_CARD_TEXT = 40, 400
_ID = re.compile(r"[a-z][a-z0-9_]{0,15}")


def canonical(data: Any) -> str:
    """Data as one canonical JSON text: the same data gives the same text in every process."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def pack_tag(data: Any) -> str:
    """The short hash that namespaces a pack's ids: two packs, or two versions of one, differ in it."""
    return hashlib.sha256(canonical(data).encode("utf-8")).hexdigest()[:6]


def in_game(cid: str, tag: str) -> str:
    """A pack card's id in a game: its own id and the pack's tag ("ember_drake.3f9a2c")."""
    return f"{cid}.{tag}"


def check_pack_cards(where: str, tables: Any, base: Collection[str], key: str = "card") -> None:
    """A pack's card tables: some, at most MAX_PACK_CARDS, each id a short lowercase word used once and not
    a card of the game's own."""
    keyed = isinstance(tables, dict)  # a game whose cards are [cards.ID] tables (Ophion)
    if keyed:
        ids = list(tables)
    elif isinstance(tables, list):
        ids = [t.get("id") if isinstance(t, dict) else None for t in tables]
    else:
        raise CardDataError(f"{where}: no card tables ([[{key}]])")
    if not ids:
        raise CardDataError(f"{where}: no card tables ([[{key}]])")
    if len(ids) > MAX_PACK_CARDS:
        raise CardDataError(f"{where}: {len(ids)} cards; a pack holds at most {MAX_PACK_CARDS}")
    seen: set[str] = set()
    for i, cid in enumerate(ids):
        if not isinstance(cid, str):
            continue  # the card parser says what is wrong with it
        at = f"{where} [{key}.{cid}]" if keyed else f"{where} card {i + 1} ({cid})"
        if not _ID.fullmatch(cid):
            raise CardDataError(
                f"{at}: id must be 1-16 lowercase letters, digits or _, starting with a letter"
            )
        if cid in seen:
            raise CardDataError(f"{at}: id {cid!r} is used twice")
        if cid in base:
            raise CardDataError(f"{at}: id {cid!r} is already a card of the game; choose another")
        seen.add(cid)


def check_words(at: str, name: str, text: str) -> None:
    """A pack card's name and text: a name of 1-40 characters, a text of at most 400."""
    if not 1 <= len(name.strip()) <= MAX_CARD_NAME:
        raise CardDataError(f"{at}: name must be 1 to {MAX_CARD_NAME} characters")
    if len(text) > MAX_CARD_TEXT:
        raise CardDataError(f"{at}: text is {len(text)} characters; at most {MAX_CARD_TEXT}")


def check_range(at: str, key: str, value: int, bounds: tuple[int, int] | None) -> None:
    """A number within the range the game's own cards use (None: no card of the game uses it)."""
    if bounds is None:
        raise CardDataError(f"{at}: {key} is not used by the game's own cards here, so a pack cannot use it")
    low, high = bounds
    if not low <= value <= high:
        raise CardDataError(f"{at}: {key} = {value} must be from {low} to {high} (the game's own range)")


def widen(ranges: dict[Any, tuple[int, int]], key: Any, value: int) -> None:
    """Grow a (low, high) range to hold one more value."""
    low, high = ranges.get(key, (value, value))
    ranges[key] = (min(low, value), max(high, value))


T = TypeVar("T")


@dataclass
class PackCards(Generic[T]):
    """The card packs this process knows, by a state's pack text: each checked and added once to the game's
    card tables, told to what keeps its own tables over the cards (`learners`), and forgotten on request (a
    test's clean slate; a fresh process knows none)."""

    check: Callable[[Any, str], T]  # a pack's data -> what it adds, checked as the game's own cards are
    cards_of: Callable[[T], Mapping[str, Any]]  # its cards by in-game id
    tables: Sequence[tuple[dict[str, Any], Callable[[Any], bool]]]  # the game's card tables, what each holds
    learners: list[Callable[[dict[str, Any]], None]]
    added: dict[str, T] = dataclass_field(default_factory=dict)

    def add(self, text: str) -> T | None:
        """What a pack's text adds, made known to this process once (None for no pack)."""
        if not text:
            return None
        got = self.added.get(text)
        if got is None:
            got = self.check(json.loads(text), "pack")
            cards = dict(self.cards_of(got))
            for table, holds in self.tables:
                table.update({cid: card for cid, card in cards.items() if holds(card)})
            for learn in self.learners:
                learn(cards)
            self.added[text] = got
        return got

    def forget(self) -> None:
        """Forget every pack this process has added."""
        for got in self.added.values():
            for cid in self.cards_of(got):
                for table, _ in self.tables:
                    table.pop(cid, None)
        self.added.clear()


def every(_card: Any) -> bool:
    """A card table that holds every card (PackCards.tables)."""
    return True
