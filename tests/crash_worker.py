"""A subprocess for the crash-safety test: plays AI against AI in a SQLite file until killed or done.

    python tests/crash_worker.py DB [--players N] [--seed S] [--synchronous FULL|NORMAL]

Resumes the unfinished game in DB if there is one (the session manager's start-up recovery), else
starts a new one. Prints "ACK <match> <state_id> <seat> <key>" after each committed move and
"DONE <match>" when the game is over.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.sessions import SessionEvent, SessionManager
from bot.store import ACTIVE, LOBBY, SqliteStore


def _ack(ev: SessionEvent) -> None:
    """Called after the move's transaction committed."""
    if ev.kind == "action":
        sys.stdout.write(f"ACK {ev.info.id} {ev.info.state_id} {ev.seat} {ev.action_key}\n")
        sys.stdout.flush()


async def main(db: str, players: int, seed: int, synchronous: str) -> int:
    """Resume or start one all-AI game and play it to the end."""
    store = SqliteStore(db, synchronous)
    await store.open()
    sessions = SessionManager(store)
    sessions.subscribe(_ack)
    for lobby in await store.list_matches(statuses=(LOBBY,)):
        await sessions.abandon(lobby.id, None, force=True)  # killed while seating: start again
    unfinished = await store.list_matches(statuses=(ACTIVE,), limit=1)
    if unfinished:
        match_id = unfinished[0].id
        await sessions.recover()
    else:
        info = await sessions.create(None, None, "omphala", 1, seed=seed, origin="console", seat_host=False)
        for _ in range(players):
            await sessions.add_ai(info.id, 1, "random")
        match_id = (await sessions.start(info.id, 1)).id
    while True:
        await sessions.wait_idle(match_id)
        info = await sessions.get(match_id)
        if info.status != ACTIVE:
            break
        if not await sessions.resume_ai(match_id):
            return 1
    sys.stdout.write(f"DONE {match_id}\n")
    sys.stdout.flush()
    await sessions.close()
    await store.close()
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--synchronous", default="FULL")
    a = parser.parse_args()
    sys.exit(asyncio.run(main(a.db, a.players, a.seed, a.synchronous)))
