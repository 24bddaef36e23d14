"""Exports for people: a stored match as an export (engine/export.py), and `agora replay FILE`, which plays
one back in the terminal move by move and checks that the engine rebuilds the recorded final state.

    export = await match_export(sessions, record, names_of)  # what /game export and agora export write
    code = replay_file("game-12.json", all_moves=True)        # the terminal playback; 0 when all matches
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import TextIO

from bot.files import FileRefused, read_regular
from bot.sessions import MatchInfo, SessionError, SessionManager
from bot.store import ACTIVE, LogRow, MatchRecord
from bot.terminal import command, credit, plain
from engine.core import IllegalAction, PlayerId, find_action
from engine.export import (
    MAX_EXPORT_BYTES,
    Export,
    ExportError,
    ExportSeat,
    from_json,
    new_match,
    play_move,
    rules_version_of,
    state_digest,
    verify,
)
from engine.registry import title_of
from engine.table.present import of as presentation_of
from engine.table.present import together
from engine.text import printable

PROMPT = "Enter: next move · a: all the rest · q: stop here "
LIVE_EXPORT = (
    "Game #{id} is still being played, so it cannot be exported yet: an export holds the deal's seed and "
    "every move, enough to work out every hidden card. Export it once it is over"
)  # each front end ends the sentence: "." or what it offers meanwhile


# --- a stored match as an export -------------------------------------------------------------------------
async def match_export(
    sessions: SessionManager,
    record: MatchRecord,
    names_of: Callable[[MatchInfo], Sequence[str]],
    meanwhile: str = ".",
) -> Export:
    """The export of a stored match that is over, its seats named by names_of (/game export and agora
    export); SessionError with LIVE_EXPORT (ended by meanwhile) for a game still being played."""
    if record.status == ACTIVE:
        raise SessionError(LIVE_EXPORT.format(id=record.id) + meanwhile)
    info = await sessions.get(record.id)
    rows = await sessions.store.load_log(record.id)
    shares = info.returns if info.returns is not None else await sessions.store.match_shares(record.id)
    return stored_export(record, rows, names_of(info), shares)


def stored_export(
    record: MatchRecord, rows: Sequence[LogRow], names: Sequence[str], shares: Sequence[float] | None
) -> Export:
    """The export of a stored match: its setup, its log without undone moves, how it ended, and the digest
    of its stored final state (when the snapshot is the log's last position)."""
    digest = ""
    if record.snapshot is not None and record.log_len == len(rows):
        try:
            digest = state_digest(json.loads(record.snapshot))
        except ValueError:
            digest = ""
    return Export(
        game_id=record.game_id,
        rules_version=record.rules_version,
        seats=tuple(
            ExportSeat(printable(names[i]), s.ai) for i, s in enumerate(record.seats)
        ),  # readable back
        seed=record.seed,
        options=record.options,
        log=tuple((r.seat, r.key) for r in rows if not r.undone),
        status=record.status,
        shares=None if shares is None else tuple(float(x) for x in shares),
        note=record.note,
        match_id=record.id,
        title=title_of(record.game_id),
        ended_at=datetime.fromtimestamp(record.updated_at, UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        final_sha256=digest,
    )


def export_filename(export: Export) -> str:
    """A file name for an export: agora-<game id>-<match number>.json."""
    return f"agora-{export.game_id}-{export.match_id if export.match_id is not None else 'match'}.json"


# --- the terminal playback -------------------------------------------------------------------------------
def replay_file(
    path: str,
    *,
    all_moves: bool = False,
    seat: int | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
    ask: Callable[[str], str] = input,
) -> int:
    """Play an export back: the deal, then each move with its log lines and the board (Enter for the next,
    or all at once), then whether the rebuilt final state and result match the record. 0 when they do (or
    nothing is recorded to compare), 1 for a file that is not a replayable export or a mismatch."""
    out, err = out or sys.stdout, err or sys.stderr
    say = lambda text: out.write(printable(text))  # noqa: E731  names from the file never drive the terminal
    try:
        export = read_export(path)
    except ExportError as e:
        err.write(printable(f"{command()} replay: {e}\n"))
        return 1
    if seat is not None and not 1 <= seat <= len(export.seats):
        err.write(f"{command()} replay: --seat must be from 1 to {len(export.seats)} for this game\n")
        return 1
    viewer: PlayerId | None = None if seat is None else seat - 1
    say(_header(export, viewer) + "\n")
    try:
        shown = _play_back(export, viewer, say, ask, all_moves)
        check = verify(export)
    except ExportError as e:
        err.write(printable(f"{command()} replay: {path}: {e}\n"))
        return 1
    say("\n" if shown else "\n(Stopped; the rest of the game was rebuilt without showing it.)\n\n")
    return _report(export, check.same_state, check.same_result, say)


def read_export(path: str) -> Export:
    """The export in a file; ExportError saying in a line why it cannot be read as one."""
    try:  # a regular file within the limit only: a FIFO or /dev/zero is refused, not waited on
        text = read_regular(path, MAX_EXPORT_BYTES, lambda size: _too_big(path, size)).decode("utf-8")
    except FileRefused as e:
        raise ExportError(str(e)) from None
    except OSError as e:
        raise ExportError(f"cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise ExportError(f"{path} is not a text file, so not an Agora export") from None
    try:
        data = json.loads(text)
    except RecursionError:
        raise ExportError(f"{path} has lists or objects nested too deep for an Agora export") from None
    except ValueError as e:
        raise ExportError(f"{path} is not JSON, so not an Agora export ({e})") from None
    try:
        return from_json(data)
    except ExportError as e:
        raise ExportError(f"{path}: {e}") from None


def _too_big(path: str, size: int) -> str:
    return f"{path}: {size:,} bytes; an Agora export is at most {MAX_EXPORT_BYTES:,} bytes"


def _header(export: Export, viewer: PlayerId | None) -> str:
    """The game, the table, when it ended, whose eyes we watch through, and any rules warning."""
    seats = [f"{s.name} (AI, {s.ai})" if s.ai else s.name for s in export.seats]
    number = f" game #{export.match_id}" if export.match_id is not None else ""
    when = f", ended {export.ended_at}" if export.ended_at else ""
    lines = [
        f"{export.title}{number}: {together(seats)}; {len(export.log)} moves, {export.status}{when}.",
        "Watching as a spectator (--seat N to see a player's hand)."
        if viewer is None
        else f"Watching as {export.names[viewer]}: their hand and their own secrets are shown.",
    ]
    today = rules_version_of(export.game_id)
    if export.rules_version != today:
        lines.append(
            f"Warning: this game was played under rules version {export.rules_version}; this Agora has "
            f"version {today}, so its moves may no longer replay or may end differently."
        )
    return "\n".join(lines)


def _play_back(
    export: Export,
    viewer: PlayerId | None,
    say: Callable[[str], object],
    ask: Callable[[str], str],
    all_moves: bool,
) -> bool:
    """Print the deal and every move until the end, or until the person stops (False then)."""
    match = new_match(export)
    game, present, names = match.game, presentation_of(match.game), export.names
    say(f"\n── The deal\n{plain(present.board_text(game.view(match.state, viewer), names))}\n")
    total = len(export.log)
    for number, (seat, key) in enumerate(export.log, 1):
        if not all_moves:
            answer = _ask(ask)
            if answer == "q":
                return False
            all_moves = answer == "a"
        try:
            path = " › ".join(game.describe(match.state, find_action(game, match.state, seat, key)))
        except IllegalAction:
            path = key  # play_move says which move, and why
        events = play_move(match, number, seat, key)
        who = names[seat]
        say(f"\n── Move {number}/{total} · {who}: {plain(path)}\n")
        for e in events:
            if e.visible(viewer):
                say(f"   {plain(credit(who, e.text, names))}\n")
        say(plain(present.board_text(game.view(match.state, viewer), names)) + "\n")
    return True


def _ask(ask: Callable[[str], str]) -> str:
    """The person's answer at the prompt: "" (next), "a" (all the rest) or "q" (stop); at the end of the
    input (a pipe), all the rest."""
    try:
        return ask(PROMPT).strip().lower()[:1]
    except EOFError:
        return "a"


def _report(
    export: Export, same_state: bool | None, same_result: bool | None, say: Callable[[str], object]
) -> int:
    """The rebuilt match compared with the record, in words; the exit code."""
    names = export.names
    winners = [names[i] for i, share in enumerate(export.shares or ()) if share > 0]
    if export.status == "abandoned":
        ended = "It was abandoned" + (f": {export.note}" if export.note else ".")
    elif not winners:
        ended = "Nobody won." + (f" {export.note}" if export.note else "")
    else:
        won = f"{winners[0]} won." if len(winners) == 1 else f"{together(winners)} shared the win."
        ended = won + (f" ({export.note})" if export.note else "")
    say(f"Recorded result: {ended}\n")
    state_words = {
        True: "the final position the engine rebuilt from the seed and the moves matches the recorded one",
        False: "the final position the engine rebuilt does NOT match the recorded one",
        None: "the export records no final position to compare with",
    }
    result_words = {
        True: "the rebuilt game ends with the same result",
        False: "the rebuilt game does NOT end with the recorded result",
        None: "the game did not end by its rules, so there is no result to rebuild",
    }
    say(f"Check: {state_words[same_state]}; {result_words[same_result]}.\n")
    return 1 if same_state is False or same_result is False else 0
