"""Card packs: cards a server admin adds to a game as a TOML file, without code.

A pack is a [pack] table (game, name, description) and the game's own card tables, in exactly the format of
the game's cards.toml, checked by the same parser and vocabulary plus the pack limits (engine/carddata.py).
How a pack's cards join a game is the game's own (its RULINGS.md); the game's cards module says it with
`PACK_TABLES` (the tables a pack may hold), `check_pack(data, where)` (the pack's cards, checked, by their
in-game ids) and `add_pack(text)` (make them known to the running process), and its present module with
`pack_entries(cards)`.

A pack's cards take in-game ids namespaced by a short hash of the pack's data ("ember_drake.3f9a2c"), so two
packs, or two versions of one pack, never collide; a state carries its pack's data as text, so a state
rebuilt from JSON in any process knows its cards. The games' static catalogues stay the base set.
"""

from __future__ import annotations

import importlib
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from engine import toml_guard
from engine.carddata import MAX_PACK_CARDS as MAX_PACK_CARDS  # a pack's most cards: 40
from engine.carddata import CardDataError, canonical, check_keys, field
from engine.core import JSON
from engine.table.present import CardEntry, DeckBook, SeatChoice
from engine.text import TextError, check_tree

MAX_PACK_BYTES = 64 * 1024  # a pack file's size limit
MAX_NAME = 32
MAX_DESCRIPTION = 300
MAX_REFUSAL = 300  # characters of a refusal, which may quote a file's keys and values
GAMES = ("ophelia", "siege_of_olympus", "ophion", "ophidian")  # the games that have cards to add to
_HEAD = ("game", "name", "description")


@dataclass(frozen=True, slots=True)
class Pack:
    """A checked card pack: its game, name and description, its data as stored, and its new cards."""

    game_id: str  # from the file's [pack] table: game = "ophelia"
    name: str  # [pack] name, 1-32 characters
    description: str  # [pack] description ("" if none)
    data: JSON  # the checked pack as plain JSON (tomllib output), what a match stores
    entries: tuple[CardEntry, ...]  # engine.table.present.CardEntry of each new card, for /card and the TUI


def supports(game_id: str) -> bool:
    """Whether a game takes card packs (Omphala, a standard deck, does not)."""
    return game_id in GAMES


def read(text: str, filename: str) -> Pack:
    """A pack file checked against its game's own card rules; CardDataError (engine.carddata) naming the
    file, the card and the field otherwise."""
    size = len(text.encode("utf-8"))
    if size > MAX_PACK_BYTES:
        raise CardDataError(f"{filename}: {size:,} bytes; a card pack is at most {MAX_PACK_BYTES:,} bytes")
    try:
        toml_guard.scan(text, filename)  # shapes that would cost tomllib far more than their size
        data = toml_guard.plain(tomllib.loads(text), filename)
    except toml_guard.TomlRefused as e:
        raise CardDataError(str(e)) from None
    except tomllib.TOMLDecodeError as e:
        raise CardDataError(f"{filename}: not valid TOML: {e}") from None
    except (ValueError, RecursionError) as e:  # what scan should have caught: still one line, never a trace
        raise CardDataError(f"{filename}: not a card pack TOML can read ({type(e).__name__})") from None
    try:
        return check(data, filename)
    except CardDataError as e:  # a refusal quotes the file's keys and values: keep it a readable line
        message = str(e)
        clipped = message if len(message) <= MAX_REFUSAL else message[: MAX_REFUSAL - 1] + "…"
        raise CardDataError(clipped) from None


def check(data: JSON, where: str, *, stored: bool = False) -> Pack:
    """A pack's data (read from TOML, or stored) checked; CardDataError naming file, card and field. Every
    string of a pack read afresh is plain text (engine/text.py; line breaks in a card's text only); a pack
    a match already `stored` is taken as it was dealt, so a game started before that check goes on."""
    if not isinstance(data, dict):
        raise CardDataError(f"{where}: a card pack is a TOML table")
    if not stored:
        try:
            check_tree(data, where, lines=("text",))
        except TextError as e:
            raise CardDataError(str(e)) from None
    head = data.get("pack")
    if not isinstance(head, dict):
        raise CardDataError(f'{where}: missing the [pack] table (game = "...", name = "...", description)')
    at = f"{where} [pack]"
    check_keys(at, head, _HEAD)
    game_id = field(at, head, "game", str)
    if not supports(game_id):
        if game_id == "omphala":
            raise CardDataError(
                f"{at}: game = 'omphala': Omphala is played with a standard deck and takes no packs"
            )
        raise CardDataError(
            f"{at}: game = {game_id!r} is not a game that takes packs; one of {', '.join(GAMES)}"
        )
    name = " ".join(field(at, head, "name", str).split())
    if not 1 <= len(name) <= MAX_NAME:
        raise CardDataError(f"{at}: name must be 1 to {MAX_NAME} characters, not {len(name)}")
    description = field(at, head, "description", str, "").strip()
    if len(description) > MAX_DESCRIPTION:
        raise CardDataError(f"{at}: description is {len(description)} characters; at most {MAX_DESCRIPTION}")
    cards = _cards(game_id)
    check_keys(where, data, ("pack", *cards.PACK_TABLES))
    specs = cards.check_pack(data, where)
    entries = tuple(_present(game_id).pack_entries(specs))
    return Pack(game_id, name, description, _plain(data), entries)


def option(pack: Pack, version: int) -> JSON:
    """The value a match stores as options["pack"]: {"name": ..., "version": ..., "data": ...} (everything
    the game needs: a running game keeps it)."""
    return {"name": pack.name, "version": version, "data": _plain(pack.data)}


def from_option(game_id: str, value: JSON) -> Pack:
    """The Pack a match's options["pack"] holds."""
    if not isinstance(value, dict) or not isinstance(value.get("data"), dict):
        raise CardDataError(f"the {game_id} match's pack option holds no pack data")
    pack = check(value["data"], str(value.get("name") or "pack"), stored=True)
    if pack.game_id != game_id:
        raise CardDataError(f"pack {pack.name!r} is for {pack.game_id}, not {game_id}")
    return pack


def example(game_id: str) -> Path | None:
    """The example pack shipped with a game (package data)."""
    if not supports(game_id):
        return None
    path = Path(__file__).parent / "games" / game_id / "packs" / "example.toml"
    return path if path.is_file() else None


def choices(pack: Pack) -> tuple[SeatChoice, ...]:
    """The game's seat choices with the pack's ready decks (or teams) added to the one they belong to."""
    present = _present(pack.game_id)
    extra = getattr(_cards(pack.game_id), "pack_choices", None)
    base = tuple(getattr(present, "choices", ()))
    return tuple(extra(pack.data, base)) if extra is not None else base


def deck_book(pack: Pack) -> DeckBook | None:
    """The game's deck builder (`/deck`) knowing the pack's cards as well as the game's own, or None for a
    game without one: a deck it reads may hold pack cards, and is legal in a game with that pack version."""
    present = _present(pack.game_id)
    book = getattr(present, "pack_deck_book", None)
    return None if book is None else book(_cards(pack.game_id).check_pack(pack.data, pack.name))


# -- what a game's setup and from_json use ------------------------------------------------------------------


def text(options: JSON | None, game_id: str) -> str:
    """The pack data of a match's options as the canonical text a state carries ("" without a pack);
    CardDataError for a pack of another game."""
    value = (options or {}).get("pack")
    if not value:
        return ""
    if not isinstance(value, dict) or not isinstance(value.get("data"), dict):
        raise CardDataError("options['pack'] must be packs.option(...): {'name', 'version', 'data'}")
    game = (value["data"].get("pack") or {}).get("game")
    if game != game_id:
        raise CardDataError(f"pack {value.get('name')!r} is for {game}, not {game_id}")
    return canonical(value["data"])


def entries_of(game_id: str, options: JSON | None) -> tuple[CardEntry, ...]:
    """The catalogue entries of a match's pack cards (none without a pack): the game's own catalogue is the
    base set only, so a front end showing a match's cards adds these."""
    value = (options or {}).get("pack")
    return from_option(game_id, value).entries if value and supports(game_id) else ()


def learn(game_id: str, options: JSON | None) -> None:
    """Make a match's pack cards known to this process without its state: a render worker draws views, which
    name pack cards by id only."""
    if supports(game_id) and (pack_text := text(options, game_id)):
        _cards(game_id).add_pack(pack_text)


def forget() -> None:
    """Forget every pack this process has added (a test's clean slate; a fresh process knows none): the
    next state set up or loaded with a pack adds its cards again."""
    for game_id in GAMES:
        _cards(game_id).forget_packs()


def _plain(data: Any) -> Any:
    """A copy of TOML/JSON data as plain JSON values."""
    return json.loads(json.dumps(data))


def _cards(game_id: str) -> ModuleType:
    return importlib.import_module(f"engine.games.{game_id}.cards")


def _present(game_id: str) -> ModuleType:
    return importlib.import_module(f"engine.games.{game_id}.present")
