"""Crash safety: an AI-vs-AI process killed with SIGKILL at random moments loses no acknowledged move.

After every kill the database must hold every acknowledged move, and each match's snapshot and state_id
must be exactly what replaying its log gives. Restarted workers resume the game (start-up recovery), and
every finished game must equal the same game played without interruption (AI choices are seeded by the
position, so a resumed game continues exactly as it would have).
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from engine.match import Match

WORKER = Path(__file__).parents[1] / "crash_worker.py"  # beside conftest.py
KILLS = 50
PLAYERS = 3

Acked = dict[int, dict[int, tuple[int, str]]]  # match -> seq -> (seat, key)


def _spawn(db: Path, seed: int) -> subprocess.Popen[str]:
    cmd = [sys.executable, str(WORKER), str(db), "--players", str(PLAYERS), "--seed", str(seed)]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)


def _read(line: str, acked: Acked) -> int | None:
    """Record an ACK line; the match id if the line says DONE."""
    parts = line.split()
    if parts and parts[0] == "ACK":
        acked.setdefault(int(parts[1]), {})[int(parts[2])] = (int(parts[3]), parts[4])
    elif parts and parts[0] == "DONE":
        return int(parts[1])
    return None


def _check(db: Path, acked: Acked) -> dict[int, list[tuple[int, str]]]:
    """Every acknowledged move is stored; every snapshot is its log replayed. Returns the logs."""
    if not db.exists():
        return {}
    con = sqlite3.connect(db)
    try:
        version = con.execute("PRAGMA user_version").fetchone()[0]
        if version == 0:
            return {}
        rows = con.execute(
            "SELECT id, game_id, seed, options, seats, snapshot, state_id, log_len, status FROM matches"
        ).fetchall()
        logs = {}
        for mid, game_id, seed, options, seats, snapshot, state_id, log_len, status in rows:
            log = con.execute(
                "SELECT seq, seat, action_key FROM actions WHERE match_id = ? AND undone = 0 ORDER BY seq",
                (mid,),
            ).fetchall()
            assert [seq for seq, _, _ in log] == list(range(1, len(log) + 1)), f"gap in the log of {mid}"
            for seq, move in acked.get(mid, {}).items():
                assert seq <= len(log) and tuple(log[seq - 1][1:]) == move, f"acknowledged move {seq} lost"
            if snapshot is None:  # killed while seating: a lobby, abandoned by the next worker
                assert status in ("lobby", "abandoned") and not log
                continue
            entries = [(seat, key) for _, seat, key in log]
            m = Match.replay(game_id, len(json.loads(seats)), seed, json.loads(options), entries, state_id)
            assert json.loads(snapshot) == m.game.to_json(m.state), f"snapshot of {mid} is not its log"
            assert state_id == log_len == len(log)
            assert (status == "finished") == m.is_over()
            logs[mid] = entries
        return logs
    finally:
        con.close()


def _uninterrupted(tmp: Path, seed: int) -> list[tuple[int, str]]:
    db = tmp / f"reference-{seed}.db"
    subprocess.run(
        [sys.executable, str(WORKER), str(db), "--players", str(PLAYERS), "--seed", str(seed)], check=True
    )
    return next(iter(_check(db, {}).values()))


def test_sigkill_at_random_moments_loses_no_acknowledged_move(tmp_path: Path) -> None:
    rng = random.Random(20261121)
    db = tmp_path / "crash.db"
    acked: Acked = {}
    seed_of: dict[int, int] = {}
    seed = 1
    kills = 0
    while kills < KILLS:
        proc = _spawn(db, seed)
        assert proc.stdout is not None
        target = rng.randint(0, 8)  # acknowledged moves to wait for before the kill
        finished = None
        for _ in range(target):
            line = proc.stdout.readline()
            if not line:
                break
            finished = _read(line, acked)
            if finished is not None:
                break
        if finished is None and proc.poll() is None:
            # 0 acks: somewhere in start-up, migration or recovery; else mid-move.
            delay = rng.uniform(0, 0.25) if target == 0 else rng.uniform(0, 0.004)
            try:
                proc.wait(timeout=delay)
            except subprocess.TimeoutExpired:
                os.kill(proc.pid, signal.SIGKILL)
                kills += 1
        for line in proc.stdout.read().splitlines():  # acks printed before the kill count too
            finished = _read(line, acked) or finished
        proc.stdout.close()
        proc.wait()
        for mid in acked:
            seed_of.setdefault(mid, seed)
        _check(db, acked)
        if finished is not None:
            seed += 1
    # Let the last game finish, then compare every finished game with an uninterrupted one.
    cmd = [sys.executable, str(WORKER), str(db), "--players", str(PLAYERS), "--seed", str(seed)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        _read(line, acked)
    logs = _check(db, acked)
    assert kills >= KILLS and len(logs) >= 2
    for mid, log in logs.items():
        assert log == _uninterrupted(tmp_path, seed_of.get(mid, seed)), f"match {mid} diverged after restarts"
