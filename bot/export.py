"""`agora export [ID] --to FILE`: a terminal game that is over, written as the export `/game export` attaches
(docs/export.md), built by the same function (bot/replay.py `match_export`), so `agora replay FILE` plays it
back. Every refusal is one line on stderr and exit code 1; nothing is written then."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import TextIO

from bot.replay import export_filename, match_export
from bot.sessions import SessionError, SessionManager
from bot.store import BROKEN, FINISHED, LOBBY, open_store
from bot.terminal import DEFAULT_DB, command, no_database, terminal_names
from engine.export import to_text
from engine.text import printable

ORIGIN = "console"  # the games `agora play` stores


async def export_game(
    db: str = DEFAULT_DB,
    match_id: int | None = None,
    to: str | None = None,
    force: bool = False,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Write terminal game match_id (None: the latest finished one) of the database db to the file `to`
    (None: agora-<game>-<id>.json here); 0 when written, 1 with one line saying why not."""
    out, err = out or sys.stdout, err or sys.stderr
    try:
        written = await _export(db, match_id, to, force)
    except SessionError as e:
        err.write(printable(f"{command()} export: {e}") + "\n")
        return 1
    out.write(printable(written) + "\n")
    return 0


async def _export(db: str, match_id: int | None, to: str | None, force: bool) -> str:
    """The export written, in a sentence; SessionError with the reason it is not."""
    if no_database(db):  # never create a database to find nothing in it
        raise SessionError(f"there is no database at {db}")
    store = open_store(db)
    await store.open()
    sessions = SessionManager(store)
    try:
        if match_id is None:
            found = await sessions.list_matches(origin=ORIGIN, statuses=(FINISHED,), limit=1)
            if not found:
                raise SessionError(f"there is no finished terminal game in {db}")
            match_id = found[0].id
        record = await store.get_match(match_id) if 0 < match_id < 2**63 else None
        if record is None or record.origin != ORIGIN:
            raise SessionError(f"there is no terminal game #{match_id} in {db}")
        if record.status == BROKEN:
            raise SessionError(f"game #{record.id} was stopped because its saved data is damaged")
        if record.status == LOBBY or record.snapshot is None:
            raise SessionError(f"game #{record.id} was never dealt, so there is nothing to export")
        exported = await match_export(sessions, record, terminal_names)
    finally:
        await sessions.close()
        await store.close()
    target = Path(to if to is not None else export_filename(exported))
    if target.exists() and not force:
        raise SessionError(f"{target} exists; add --force to replace it")
    try:
        target.write_text(to_text(exported), encoding="utf-8")
    except OSError as e:
        raise SessionError(f"cannot write {target}: {e.strerror or e}") from None
    moves = len(exported.log)
    return (
        f"Wrote {exported.title} game #{record.id} ({moves} moves) to {target}. "
        f"Play it back with: {command()} replay {shlex.quote(str(target))}"
    )
