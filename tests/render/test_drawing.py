"""Boards and hands drawn in worker processes (bot/drawing.py): the same images as drawn in the bot's own
process, and a worker that dies costs no drawing."""

from __future__ import annotations

import json
import os
import signal

import render
from bot.drawing import Drawing
from engine import packs
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


async def test_a_worker_draws_a_card_packs_cards_it_learns_from_the_match_options() -> None:
    """A worker process never saw the game's state, only views naming pack cards by id: given the match's
    options it learns the pack first, so a pack card is drawn as here (with its name and stats), not blank."""
    text = packs.example("ophion")
    assert text is not None
    options = {"pack": packs.option(packs.read(text.read_text(encoding="utf-8"), text.name), 1)}
    pack_ids = {e.id for e in packs.from_option("ophion", options["pack"]).entries}
    for seed in range(200):
        m = Match.new("ophion", 2, seed, options)
        view = m.game.view(m.state, None)  # Ophion's market is on the board
        if any(f'"{cid}"' in json.dumps(view) for cid in pack_ids):
            break
    else:
        raise AssertionError("no deal with a pack card in sight")
    here = render.board("ophion", view, ["ann", "bo"])
    drawing = Drawing(1)
    try:
        assert await drawing.board("ophion", view, ["ann", "bo"], m.options) == here
    finally:
        await drawing.close()
