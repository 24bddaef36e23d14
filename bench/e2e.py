"""End-to-end latency of a move through the fake Discord, beside a no-op discord.py bot in the same run.

    .venv/bin/python bench/e2e.py [moves] [runs]

Two people play Omphala in a thread (both always end their turn, so every press is a move and a new turn).
For each move press (the button that completes a move in the ephemeral menu) it records, from the dispatch
of INTERACTION_CREATE:
  ack        the interaction callback arriving (the bot defers at once: committing and rendering follow)
  confirmed  the ephemeral menu edited to "You played ..." with the new hand image and the next menu
  board      the public board of the new turn posted (spectator view rendered, the next player pinged)
Each percentile is the median over runs; the no-op row is bench/e2e_noop.py's bot answering a button.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[1])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from bench.e2e_noop import format_table, noop_row, summarize  # noqa: E402
from tests.discord_harness import HAND, NAV, Harness  # noqa: E402
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage  # noqa: E402

WARMUP = 10


def _footer_has(message: FakeMessage, state_id: int) -> bool:
    return any(f"· move {state_id} ·" in (e.get("footer") or {}).get("text", "") for e in message.embeds)


def _board_at(fake: FakeDiscord, thread: FakeChannel, state_id: int) -> bool:
    return any(_footer_has(m, state_id) for m in fake.public(thread)[-3:])


async def agora_run(moves: int) -> tuple[list[float], list[float], list[float]]:
    """One run: fresh fake, fresh database; games are played until `moves` move presses were timed."""
    ack: list[float] = []
    confirmed: list[float] = []
    board: list[float] = []
    done = 0
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            alice, bob = fake.add_user("alice"), fake.add_user("bob")
            people = {alice.id: alice, bob.id: bob}
            async with Harness.started(fake, Path(tmp)) as h:
                loop = asyncio.get_running_loop()
                while done < WARMUP + moves:
                    thread, lobby, mid = await h.open_lobby(alice)
                    await h.press(bob, lobby, "Join")
                    await h.press(alice, fake.message(lobby.id), "Start")
                    while done < WARMUP + moves:
                        await h.settle()
                        info = await h.sessions.get(mid)
                        if info.over:
                            break
                        user = people[info.users_to_act[0]]
                        menu = await h.press(user, h.board(thread), HAND)
                        while True:  # walk down to a button that completes a move
                            labels = [b["label"] for b in menu.buttons if b["label"] not in NAV]
                            label = "End turn" if "End turn" in labels else labels[0]
                            leaf = next(b for b in menu.buttons if b["label"] == label)["style"] == 3
                            if leaf:
                                break
                            menu = await h.press(user, menu, label)
                        ix = await fake.click(user, menu, label)
                        await ix.wait_callback(timeout=30)
                        await ix.wait_edits(1, timeout=30)
                        t_confirmed = loop.time() - ix.dispatched_at
                        new_state = info.state_id + 1
                        await fake.wait_until(lambda t=thread, n=new_state: _board_at(fake, t, n), 30)
                        t_board = loop.time() - ix.dispatched_at
                        done += 1
                        if done > WARMUP and ix.latency is not None:
                            ack.append(ix.latency)
                            confirmed.append(t_confirmed)
                            board.append(t_board)
    return ack, confirmed, board


async def main(moves: int, runs: int) -> None:
    """Measure the no-op bot and Agora in the same process, then print one table."""
    noop = await noop_row(max(moves, 100), runs)
    results = [await agora_run(moves) for _ in range(runs)]
    rows = [
        noop,
        summarize("agora move: ack (deferred)", [r[0] for r in results]),
        summarize("agora move: confirmed", [r[1] for r in results]),
        summarize("agora move: public board", [r[2] for r in results]),
    ]
    print("from INTERACTION_CREATE dispatched by the fake Discord (ms; median over runs)")
    print(format_table(rows))


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 120
    r = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    asyncio.run(main(n, r))
