"""A match as a file anyone can read and replay: the export format (docs/export.md) to and from JSON, the
final state rebuilt through engine/match.py, and the spectator's views a replay shows, one a turn.

    data = to_json(export)                 # what /game export attaches
    export = from_json(data)               # ExportError (one line, naming the field) when it is not one
    check = verify(export)                 # the match rebuilt from seed + log, compared with the record

The seed and the log rebuild every hidden card, so only a game that is over is exported (the front ends
refuse a live one). Pure: no I/O.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import JSON, Event, IllegalAction, PlayerId
from engine.match import LogEntry, Match
from engine.registry import games
from engine.table.present import of as presentation_of
from engine.text import TextError, check_tree

FORMAT = "agora-match"
VERSION = 1
ENDED = ("finished", "abandoned")  # the statuses an export may record
MOVES_HERE = "\x00moves\x00"  # where to_text writes the log, one move a line (no other text is this)
# What a reader takes (agora replay): an export of the longest games played is well under 1 MB (a move is a
# line of some 30 bytes; a card pack in the options at most a few hundred KB), so these are generous.
MAX_EXPORT_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 32  # lists and objects inside one another; an export with a card pack has about 8
MAX_NAME = 100  # characters of a seat's name (Discord's display names have at most 32)
MAX_TEXT = 1000  # characters of the other texts: title, note, rules version, end time, AI level
MAX_KEY = 500  # characters of a move's action key


class ExportError(ValueError):
    """A file that is not a readable Agora export, said in one line."""


@dataclass(frozen=True, slots=True)
class ExportSeat:
    """Who played a seat: a display name, and the AI level for an AI seat (None for a person)."""

    name: str
    ai: str | None = None


@dataclass(frozen=True, slots=True)
class Export:
    """One match as exported: its setup, its log (undone moves left out) and how it ended."""

    game_id: str
    rules_version: str
    seats: tuple[ExportSeat, ...]
    seed: int
    options: JSON
    log: tuple[LogEntry, ...]
    status: str  # "finished" or "abandoned"
    shares: tuple[float, ...] | None = None  # each seat's share of the win; None when nobody won
    note: str = ""  # how it ended in words when not by the rules ("Ada forfeited; ...")
    match_id: int | None = None
    title: str = ""
    ended_at: str = ""  # ISO 8601, UTC
    final_sha256: str = ""  # state_digest of the final state as it was played ("" if unknown)

    @property
    def names(self) -> list[str]:
        """The seats' display names."""
        return [s.name for s in self.seats]


def state_digest(state_json: JSON) -> str:
    """A SHA-256 of a state's JSON (keys sorted, no spaces): equal digests, equal states."""
    text = json.dumps(state_json, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def rules_version_of(game_id: str) -> str:
    """The rules version today's engine gives this game (what a new match records)."""
    game = games()[game_id]
    return str(getattr(game, "rules_version", getattr(game, "version", "1")))


# --- to and from JSON ------------------------------------------------------------------------------------
def to_json(export: Export) -> JSON:
    """The export as the JSON document docs/export.md describes."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": export.game_id,
        "title": export.title or export.game_id,
        "rules_version": export.rules_version,
        "match": export.match_id,
        "ended_at": export.ended_at or None,
        "seats": [{"name": s.name, "ai": s.ai} for s in export.seats],
        "seed": export.seed,
        "options": export.options,
        "log": [[seat, key] for seat, key in export.log],
        "result": {
            "status": export.status,
            "shares": None if export.shares is None else list(export.shares),
            "note": export.note,
        },
        "final": {"moves": len(export.log), "sha256": export.final_sha256 or None},
    }


def to_text(export: Export) -> str:
    """The export as JSON text people can read: indented, one move a line."""
    data = to_json(export)
    moves = data.pop("log")
    text = json.dumps({**data, "log": MOVES_HERE}, indent=1, ensure_ascii=False)
    lines = ",\n".join(f"  {json.dumps(move, ensure_ascii=False)}" for move in moves)
    placed = f"[\n{lines}\n ]" if moves else "[]"
    return text.replace(json.dumps(MOVES_HERE), placed, 1) + "\n"


def from_json(data: Any) -> Export:
    """The export in a parsed JSON document; ExportError naming what is wrong when it is not one."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ExportError(f'this is not an Agora match export (no "format": "{FORMAT}")')
    if too_deep(data, MAX_DEPTH):
        raise ExportError(f"the export has lists or objects nested more than {MAX_DEPTH} deep")
    for key in ("title", "rules_version", "ended_at"):
        _short(data.get(key), key, MAX_TEXT)
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ExportError('the export has no valid "version"')
    if version > VERSION:
        raise ExportError(f"the export is format version {version}; this Agora reads up to {VERSION}")
    try:  # every name and text in it is plain text (a card pack's card texts may hold line breaks)
        check_tree(data, "the export's", lines=("text",))
    except TextError as e:
        raise ExportError(str(e)) from None
    game_id = _field(data, "game", str)
    if game_id not in games():
        raise ExportError(f"the export is a game of {game_id!r}, which this Agora does not have")
    game = games()[game_id]
    seats = tuple(_seat(i, s) for i, s in enumerate(_field(data, "seats", list)))
    if not game.min_players <= len(seats) <= game.max_players:
        raise ExportError(f'"seats": {game.title} is not played by {len(seats)}')
    log = tuple(_entry(i, e, len(seats)) for i, e in enumerate(_field(data, "log", list)))
    result = _field(data, "result", dict)
    status = _field(result, "status", str, "result.status")
    if status not in ENDED:
        raise ExportError(f'"result.status" is {status!r}, not one of {", ".join(ENDED)}')
    shares = result.get("shares")
    if shares is not None and (
        not isinstance(shares, list)
        or len(shares) != len(seats)
        or not all(isinstance(x, int | float) and not isinstance(x, bool) for x in shares)
    ):
        raise ExportError('"result.shares" must be one number per seat, or null')
    _short(result.get("note"), "result.note", MAX_TEXT)
    final = data.get("final") or {}
    digest = final.get("sha256") if isinstance(final, dict) else None
    return Export(
        game_id=game_id,
        rules_version=str(_field(data, "rules_version", str | int)),
        seats=seats,
        seed=_field(data, "seed", int),
        options=_field(data, "options", dict),
        log=log,
        status=status,
        shares=None if shares is None else tuple(float(x) for x in shares),
        note=str(result.get("note") or ""),
        match_id=data["match"] if isinstance(data.get("match"), int) else None,
        title=str(data.get("title") or game.title),
        ended_at=str(data.get("ended_at") or ""),
        final_sha256=digest if isinstance(digest, str) else "",
    )


def _field(data: JSON, key: str, kind: Any, where: str = "") -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise ExportError(f'"{where or key}" is missing or not {_KIND_WORDS.get(kind, "valid")}')
    return value


_KIND_WORDS: dict[Any, str] = {str: "text", int: "a whole number", list: "a list", dict: "an object"}


def _seat(i: int, data: Any) -> ExportSeat:
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise ExportError(f'"seats[{i}]" must be {{"name": text, "ai": level or null}}')
    ai = data.get("ai")
    if ai is not None and not isinstance(ai, str):
        raise ExportError(f'"seats[{i}].ai" must be an AI level or null')
    _short(data["name"], f"seats[{i}].name", MAX_NAME)
    _short(ai, f"seats[{i}].ai", MAX_TEXT)
    return ExportSeat(data["name"], ai)


def _entry(i: int, data: Any, seats: int) -> LogEntry:
    ok = isinstance(data, list) and len(data) == 2 and isinstance(data[1], str)
    seat = data[0] if ok else None
    if not ok or not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
        raise ExportError(f'"log[{i}]" must be [seat, action key] with a seat from 0 to {seats - 1}')
    _short(data[1], f"log[{i}]", MAX_KEY)
    return seat, data[1]


def _short(value: Any, where: str, most: int) -> None:
    """Refuse a text longer than `most` characters, naming the field (other values: checked elsewhere)."""
    if isinstance(value, str) and len(value) > most:
        raise ExportError(f'"{where}" is {len(value):,} characters long; at most {most:,}')


def too_deep(data: Any, most: int) -> bool:
    """Whether JSON data has lists or objects nested more than `most` deep (walked without recursion)."""
    level: list[tuple[Any, int]] = [(data, 0)]
    while level:
        value, depth = level.pop()
        if isinstance(value, dict | list):
            if depth >= most:
                return True
            items = value.values() if isinstance(value, dict) else value
            level.extend((v, depth + 1) for v in items)
    return False


# --- rebuilding ------------------------------------------------------------------------------------------
def new_match(export: Export) -> Match:
    """The match as dealt, before its first move (ExportError if the setup is refused)."""
    try:
        return Match.new(export.game_id, len(export.seats), export.seed, export.options)
    except Exception as e:  # the reason may quote the options' values: a line, not the whole of them
        reason = str(e) if len(str(e)) <= MAX_TEXT else str(e)[: MAX_TEXT - 1] + "…"
        raise ExportError(
            f"the game cannot be dealt from this export's seed and options ({reason})"
        ) from None


def play_move(match: Match, number: int, seat: PlayerId, key: str) -> list[Event]:
    """Play move `number` (from 1) of a log; ExportError saying which move when it is not legal."""
    try:
        return match.submit(seat, key)
    except IllegalAction:
        raise ExportError(f"move {number} ({key!r} for seat {seat + 1}) is not a legal move there") from None


def rebuild(export: Export) -> Match:
    """The match at its last move, rebuilt from the seed and the log through the engine."""
    match = new_match(export)
    for number, (seat, key) in enumerate(export.log, 1):
        play_move(match, number, seat, key)
    return match


@dataclass(frozen=True, slots=True)
class Check:
    """An export's match rebuilt and compared with what it records."""

    match: Match
    same_state: bool | None  # the final state's digest equals the recorded one (None: none recorded)
    same_result: bool | None  # the rebuilt game's shares equal the recorded ones (None: not decided by play)


def verify(export: Export) -> Check:
    """Rebuild the match and compare its final state and result with the export's record."""
    match = rebuild(export)
    game = match.game
    same_state = None
    if export.final_sha256:
        same_state = state_digest(game.to_json(match.state)) == export.final_sha256
    returns = game.returns(match.state)
    same_result = None
    if returns is not None and export.shares is not None:
        same_result = all(abs(a - b) < 1e-9 for a, b in zip(returns, export.shares, strict=True))
    elif returns is not None:
        same_result = False  # the rules ended the game, but the export records no result
    return Check(match, same_state, same_result)


# --- what a replay shows ---------------------------------------------------------------------------------
def turn_key(game_id: str, view: JSON, names: Sequence[str]) -> tuple[Any, ...]:
    """What identifies a turn in the spectator's view: the presentation's Status.turn (the key front ends
    post a new board on), or its headline for a game whose status gives none."""
    status = presentation_of(games()[game_id]).status(view, names)
    return tuple(status.turn) or (status.headline,)


def turn_views(
    game_id: str,
    num_players: int,
    seed: int,
    options: JSON | None,
    log: Sequence[LogEntry],
    on_view: Callable[[JSON], None] | None = None,
) -> list[JSON]:
    """The spectator's views a replay shows, one a turn: the deal, then the position after each move that
    starts a new turn (its turn key changes), and the last position; a view equal to the one before it is
    left out. Only views with viewer None are ever made (on_view sees every view computed, for tests)."""
    match = Match.new(game_id, num_players, seed, options)
    game = match.game
    names = [f"P{i + 1}" for i in range(num_players)]
    view = game.view(match.state, None)
    if on_view is not None:
        on_view(view)
    shown, last_key = [view], turn_key(game_id, view, names)
    for number, (seat, key) in enumerate(log, 1):
        play_move(match, number, seat, key)
        view = game.view(match.state, None)
        if on_view is not None:
            on_view(view)
        key_now = turn_key(game_id, view, names)
        if (key_now != last_key or number == len(log)) and view != shown[-1]:
            shown.append(view)
        last_key = key_now
    return shown
