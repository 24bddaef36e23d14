"""Kill and restart: two bot processes sharing the 4 shards of one database lose and double no move.

    .venv/bin/python bench/shards.py [--cycles 20] [--guilds 50] [--backend postgres|sqlite] [--seed S]

Process A runs shards 0-1, B shards 2-3 (tests/shard_worker.py: the real ShardedAgoraBot), both on one
database, through the fake Discord on loopback. Every guild plays AI-against-AI games (a new one as soon as
one ends, dealt by this script; the processes pick them up, as they resume any game of theirs waiting on
an AI). Each cycle waits a random moment of play, SIGKILLs a random process and starts it again. Then the
dealing stops, the games left are played out (bounded by --finish seconds), both processes stop, and the
moves are counted: an acknowledged move (a process printed it after its commit) missing from the stored
log or different there is lost; a position acknowledged twice (two commits of one move) is doubled; a game
whose stored position is not its log replayed is damaged. Expected: 0 / 0 / 0.

PostgreSQL is the server named by AGORA_TEST_POSTGRES, else one from the `pgserver` wheel (tests/pg.py).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.store import FINISHED, Store, open_store
from tests.fakediscord import FakeChannel, FakeDiscord
from tests.ops.test_shards_processes import GAME, PROCESSES, SHARDS, BotProcess, Dealer, count_moves


async def top_up(store: Store, dealer: Dealer, fake: FakeDiscord, games: dict[int, FakeChannel]) -> None:
    """Deal a new AI-against-AI game in every guild whose game is over (or that has none yet)."""
    busy = set()
    for mid, channel in games.items():
        rec = await store.get_match(mid)
        if rec is not None and rec.status != FINISHED:
            busy.add(channel.id)
    for guild in list(fake.guilds.values())[1:]:
        channel = next(iter(guild.channels.values()))
        if channel.id in busy:
            continue
        info = await dealer.create(channel.id, guild.id, GAME, fake.owner.id, seat_host=False)
        for _ in range(2):
            await dealer.add_ai(info.id, fake.owner.id, "random")
        games[(await dealer.start(info.id, fake.owner.id)).id] = channel


async def bench(a: argparse.Namespace) -> list[str]:
    """Run the cycles; the table's rows."""
    rng = random.Random(a.seed)
    if a.backend == "postgres":
        from tests.pg import pg_url

        db = pg_url()
    else:
        db = str(Path(tempfile.mkdtemp(prefix="agora-shards-")) / "agora.db")
    started = time.perf_counter()
    async with FakeDiscord(shard_count=SHARDS, callback_deadline=None) as fake:
        for i in range(a.guilds):
            fake.add_channel("games", fake.add_guild(f"guild {i}", shard=i % SHARDS))
        store = open_store(db)
        await store.open()
        dealer = Dealer(store, ahead=0)  # deals only: the processes play every move
        games: dict[int, FakeChannel] = {}
        bots = {name: BotProcess(name, ids, fake, db) for name, ids in PROCESSES.items()}
        kills = {name: 0 for name in bots}
        try:
            await top_up(store, dealer, fake, games)
            await asyncio.gather(*(b.start() for b in bots.values()))
            for cycle in range(a.cycles):
                await asyncio.sleep(rng.uniform(0.5, 2.0))  # a moment of play
                name = rng.choice(sorted(bots))
                await bots[name].stop(signal.SIGKILL)
                kills[name] += 1
                await bots[name].start()
                await top_up(store, dealer, fake, games)
                print(f"cycle {cycle + 1}/{a.cycles}: killed and restarted {name}", file=sys.stderr)
            finish = time.perf_counter() + a.finish
            while time.perf_counter() < finish:
                recs = [await store.get_match(mid) for mid in games]
                if all(r is not None and r.status == FINISHED for r in recs):
                    break
                await asyncio.sleep(0.5)
        finally:
            for b in bots.values():
                await b.stop(signal.SIGTERM)
            await dealer.close()
        acks = [ack for b in bots.values() for ack in b.acks]
        counted = await count_moves(store, games, acks)
        await store.close()
    seconds = time.perf_counter() - started
    header = "| backend | guilds | cycles | kills A/B | games | finished | moves stored | acknowledged "
    header += "| lost | doubled | damaged | seconds |"
    row = (
        f"| {a.backend} | {a.guilds} | {a.cycles} | {kills['A']}/{kills['B']} | {len(games)} "
        f"| {counted.finished} | {counted.stored} | {len(acks)} | {counted.lost} | {counted.doubled} "
        f"| {counted.damaged} | {seconds:.0f} |"
    )
    return [header, "|" + "---|" * (header.count("|") - 1), row]


def main() -> int:
    """Parse the arguments, run, print the table."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cycles", type=int, default=20, help="kill-and-restart cycles (20)")
    parser.add_argument("--guilds", type=int, default=50, help="guilds across the 4 shards (50)")
    parser.add_argument("--backend", choices=("postgres", "sqlite"), default="postgres")
    parser.add_argument(
        "--finish", type=float, default=120.0, help="seconds to play out the games left (120)"
    )
    parser.add_argument("--seed", type=int, default=None, help="which process dies when")
    rows = asyncio.run(bench(parser.parse_args()))
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
