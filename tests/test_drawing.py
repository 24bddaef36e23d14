"""Boards and hands drawn in worker processes (bot/drawing.py): the same images as drawn in the bot's own
process, and a worker that dies costs no drawing."""

from __future__ import annotations

import os
import signal

import render
from bot.drawing import Drawing
from engine.match import Match


async def test_workers_draw_what_the_bot_would_and_survive_a_killed_worker() -> None:
    """The board and a hand drawn by a worker are the bytes render gives here; after its worker is killed
    (SIGKILL), the next drawing still comes (the pool is started again)."""
    m = Match.new("ophion", 2, 7)
    public, private = m.game.view(m.state, None), m.game.view(m.state, 0)
    drawing, names = Drawing(1), ["ann", "bo"]
    try:
        assert await drawing.board("ophion", public, ["ann", "bo"]) == render.board(
            "ophion", public, ["ann", "bo"]
        )
        assert await drawing.hand("ophion", private, ["ann", "bo"]) == render.hand(
            "ophion", private, ["ann", "bo"]
        )
        pool = drawing._pool
        assert pool is not None
        for pid in list(pool._processes):  # type: ignore[attr-defined]
            os.kill(pid, signal.SIGKILL)
        assert (await drawing.board("ophion", public, names))[:4] == b"\x89PNG"
    finally:
        await drawing.close()


async def test_no_workers_draws_in_threads() -> None:
    """workers=0 (AGORA_RENDER_WORKERS=0, as the tests' bots use) draws in a thread of this process."""
    m = Match.new("omphala", 2, 1)
    drawing = Drawing(0)
    assert (await drawing.board("omphala", m.game.view(m.state, None)))[:4] == b"\x89PNG"
    assert drawing._pool is None
    await drawing.close()
