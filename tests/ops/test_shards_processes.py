"""Two real bot processes sharing the shards of one bot (issue 27): process A runs shards 0-1 of 4, process B
shards 2-3, both on ONE database (a SQLite file, and PostgreSQL when the test server and store are there),
through the fake Discord, which routes each of the 50 guilds to the process of its shard.

Every guild has a game: AI against AI, except one where a person plays an AI; the test deals them and plays
their first AHEAD moves itself (cheaper), and the processes resume them. While the AI games go on, the
person (in one of B's guilds) plays three moves, each button press also delivered to every shard of both
processes (it is answered once, and applied once), and stops: the turn timeout (an AI takes the seat)
fires once. Then A is killed (SIGKILL) mid-game and started again. At the end every game is finished, and no
move either process acknowledged is lost or doubled: each acknowledged move is the stored move at its
position, no position was acknowledged twice, and every stored game is its log replayed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.sessions import SessionManager
from bot.sessions.cache import Live
from bot.store import FINISHED, Store, open_store
from engine.match import Match
from tests.discord_harness import is_board
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser

WORKER = Path(__file__).parents[1] / "shard_worker.py"  # beside conftest.py
GAME = "ophion"  # a short game (about 60 moves between two random AIs)
GUILDS = 50
SHARDS = 4
PROCESSES = {"A": "0-1", "B": "2-3"}
LEASE = 3.0  # seconds a dead process's claims hold its AI moves (a minute or two in production)
TIMEOUT = 5.0  # the person's guild: a turn times out after this, and an AI takes the seat
AHEAD = 52  # moves of each game the test plays before the bot processes start (of 60 to 70)
HUMAN_MOVES = 3
HAND = "My hand & moves"
NAV = ("‹ Back", "◀ Previous", "Next ▶")

Ack = tuple[int, int, int, str]  # match, state_id, seat, move


@dataclass
class BotProcess:
    """One bot process (tests/shard_worker.py) on some shards; its ACK lines, across restarts."""

    name: str
    shards: str
    fake: FakeDiscord
    db: str
    acks: list[Ack] = field(default_factory=list)
    proc: asyncio.subprocess.Process | None = None
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Start the process and wait until every one of its shards is connected."""
        self.ready = asyncio.Event()
        fake = self.fake
        args = [self.db, fake.api_base, fake.gateway_url, fake.token, "--shards", self.shards]
        args += ["--shard-count", str(SHARDS), "--lease", str(LEASE), "--timer-interval", "0.5"]
        self.proc = await asyncio.create_subprocess_exec(  # a process group of its own: see stop
            sys.executable, str(WORKER), *args, stdout=asyncio.subprocess.PIPE, start_new_session=True
        )
        self.reader = asyncio.create_task(self._read(self.proc))
        await asyncio.wait_for(self.ready.wait(), 60)

    async def _read(self, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdout is not None
        async for raw in proc.stdout:
            parts = raw.decode().split()
            if parts == ["READY"]:
                self.ready.set()
            elif parts[:1] == ["ACK"] and parts[3] == "action":
                self.acks.append((int(parts[1]), int(parts[2]), int(parts[4]), parts[5]))

    async def stop(self, sig: int) -> None:
        """SIGKILL (a crash: the bot and its drawing and AI worker processes, as when a container dies) or
        SIGTERM (a clean stop, which closes its workers); wait until it has ended, its workers too."""
        proc = self.proc
        if proc is not None and proc.returncode is None:
            if sig == signal.SIGKILL:
                os.killpg(proc.pid, sig)
            else:
                proc.send_signal(sig)
            await asyncio.wait_for(proc.wait(), 30)
        if proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)  # a worker left behind would hold our pipe open
        if self.reader is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(self.reader, return_exceptions=True), 5)


@contextlib.asynccontextmanager
async def processes(fake: FakeDiscord, db: str) -> AsyncIterator[dict[str, BotProcess]]:
    """Both bot processes, started; stopped cleanly on exit (killed if that fails)."""
    bots = {name: BotProcess(name, ids, fake, db) for name, ids in PROCESSES.items()}
    try:
        await asyncio.gather(*(b.start() for b in bots.values()))
        yield bots
    finally:
        for b in bots.values():
            try:
                await b.stop(signal.SIGTERM)
            except TimeoutError:
                await b.stop(signal.SIGKILL)


def database(backend: str, tmp_path: Path) -> str:
    """The shared database's URL: a SQLite file, or a fresh PostgreSQL database (skipped without one)."""
    if backend == "sqlite":
        return str(tmp_path / "agora.db")
    pytest.importorskip("asyncpg")
    from tests.pg import pg_url_or_skip

    return pg_url_or_skip()


class Dealer(SessionManager):
    """The test's session manager: its AI seats play up to move `ahead`, then leave the rest to the bots."""

    def __init__(self, store: Store, ahead: int = AHEAD) -> None:
        super().__init__(store)
        self.ahead = ahead

    def _ai_to_act(self, live: Live) -> int | None:  # type: ignore[override]
        if live.match is not None and live.match.state_id >= self.ahead:
            return None
        return SessionManager._ai_to_act(live)


async def deal(store: Store, fake: FakeDiscord, alice: FakeUser) -> dict[int, FakeChannel]:
    """A game in every guild (alice against an AI in her guild, AIs elsewhere), played up to move AHEAD (her
    moves: the first offered); the bot processes resume them. Alice's guild: a turn times out after
    TIMEOUT, and a random AI takes over."""
    games = {}
    sessions = Dealer(store)
    try:
        for guild in list(fake.guilds.values())[1:]:
            channel = next(iter(guild.channels.values()))
            person = alice.id in guild.members
            host = alice.id if person else fake.owner.id
            info = await sessions.create(channel.id, guild.id, GAME, host, seed=len(games), seat_host=person)
            for _ in range(1 if person else 2):
                await sessions.add_ai(info.id, host, "random")
            games[(await sessions.start(info.id, host)).id] = channel
            while person:
                await sessions.wait_idle(info.id)
                now = await sessions.get(info.id)
                if now.over or now.state_id >= AHEAD:
                    break
                await sessions.submit(
                    info.id, alice.id, (await sessions.moves_for(info.id, alice.id))[0].key, None
                )
            if person:
                settings = {"timeout_seconds": TIMEOUT, "timeout_policy": "ai", "timeout_ai_level": "random"}
                for key, value in settings.items():
                    await store.set_guild_setting(guild.id, key, value)
        await sessions.wait_idle()
    finally:
        await sessions.close()
    return games


def latest_board(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage | None:
    """The latest public board in the channel."""
    boards = [m for m in fake.public(channel) if is_board(m)]
    return boards[-1] if boards else None


async def press_everywhere(
    fake: FakeDiscord, user: FakeUser, message: FakeMessage, label: str
) -> FakeMessage:
    """Press a button, and have the same press delivered to every shard of both processes too; what the
    person then sees (the first answer: Discord refuses the others)."""
    ix = await fake.click(user, message, label)
    assert await fake.deliver_everywhere(ix) == SHARDS
    return await ix.wait_reply(timeout=20)


async def play_a_move(
    fake: FakeDiscord, store: Store, mid: int, alice: FakeUser, channel: FakeChannel
) -> None:
    """Wait for alice's turn, then play it from the board's hand menu (End turn or Pass when offered, else
    the first option at each step), every press delivered everywhere."""

    async def her_turn() -> FakeMessage | None:
        rec = await store.get_match(mid)
        board = latest_board(fake, channel)
        ready = rec is not None and rec.to_act == (0,) and board is not None
        return board if ready and f"· move {rec.state_id} ·" in board.text() else None

    board = None
    for _ in range(400):
        if (board := await her_turn()) is not None:
            break
        await asyncio.sleep(0.05)
    assert board is not None, "alice's turn never came"
    hand = await press_everywhere(fake, alice, board, HAND)
    for _ in range(10):
        if "✅ You played" in hand.text():
            return
        options = [b["label"] for b in hand.buttons if b["label"] not in NAV]
        quick = [o for o in ("End turn", "Pass") if o in options]
        if quick or options:
            hand = await press_everywhere(fake, alice, hand, (quick or options)[0])
        else:
            assert hand.selects, f"no move offered to alice: {hand.text()}"
            ix = await fake.select(alice, hand, [next(iter(hand.option_values().values()))])
            assert await fake.deliver_everywhere(ix) == SHARDS
            hand = await ix.wait_reply(timeout=20)
    raise AssertionError(f"alice's move was never played: {hand.text()}")


async def play(fake: FakeDiscord, store: Store, mid: int, alice: FakeUser, channel: FakeChannel) -> None:
    """Alice plays her HUMAN_MOVES moves, then stops."""
    for _ in range(HUMAN_MOVES):
        await play_a_move(fake, store, mid, alice, channel)


async def until_finished(store: Store, games: dict[int, FakeChannel], limit: float) -> None:
    """Wait until every game is finished."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while True:
        left = [mid for mid in games if (rec := await store.get_match(mid)) is None or rec.status != FINISHED]
        if not left:
            return
        assert loop.time() < deadline, f"games never finished: {left}"
        await asyncio.sleep(0.5)


@dataclass
class Counted:
    """What the database holds against what the processes acknowledged."""

    stored: int = 0  # moves in the logs
    finished: int = 0  # games over
    lost: int = 0  # acknowledged moves missing from the log, or different there
    doubled: int = 0  # positions acknowledged more than once (two commits of one move)
    damaged: int = 0  # games whose stored position is not their log replayed, or whose log has a gap


async def count_moves(store: Store, games: dict[int, FakeChannel], acks: list[Ack]) -> Counted:
    """Count the acknowledged moves lost and doubled, and the games that are not their log replayed."""
    counted = Counted()
    positions = [(mid, state_id) for mid, state_id, _, _ in acks]
    counted.doubled = len(positions) - len(set(positions))
    by_match: dict[int, list[Ack]] = {}
    for ack in acks:
        by_match.setdefault(ack[0], []).append(ack)
    for mid in games:
        rec = await store.get_match(mid)
        assert rec is not None and rec.snapshot is not None
        log = await store.load_log(mid)
        moves = {row.seq: (row.seat, row.key) for row in log}
        counted.lost += sum(
            moves.get(state_id) != (seat, key) for _, state_id, seat, key in by_match.get(mid, [])
        )
        entries = [(row.seat, row.key) for row in log]
        replayed = Match.replay(rec.game_id, len(rec.seats), rec.seed, rec.options, entries, rec.state_id)
        gap = [row.seq for row in log] != list(range(1, len(log) + 1))
        counted.damaged += gap or json.loads(rec.snapshot) != replayed.game.to_json(replayed.state)
        counted.finished += rec.status == FINISHED and replayed.is_over()
        counted.stored += len(log)
    return counted


# PostgreSQL only in the suite: it is what several processes are deployed on, and each run costs ~15 s of
# the 10-minute budget (the SQLite file shared by two processes passes it too: backend="sqlite").
@pytest.mark.parametrize("backend", ["postgres"])
async def test_two_processes_share_the_shards_of_one_database(backend: str, tmp_path: Path) -> None:
    """50 guilds over 4 shards, process A on 0-1 and B on 2-3: A is killed mid-game and restarted; a
    person's presses are delivered to both processes; a timeout fires; every game finishes, and no
    acknowledged move is lost or doubled."""
    db = database(backend, tmp_path)
    async with FakeDiscord(shard_count=SHARDS, callback_deadline=None) as fake:
        for i in range(GUILDS):
            fake.add_channel("games", fake.add_guild(f"guild {i}", shard=i % SHARDS))
        alice = fake.add_user("alice", guild=list(fake.guilds.values())[3])  # shard 2: process B's
        store = open_store(db)
        await store.open()
        try:
            games = await deal(store, fake, alice)
            mine = next(
                mid for mid, channel in games.items() if alice.id in fake.guilds[channel.guild_id].members
            )
            dealt = sum(row.user_id == alice.id for row in await store.load_log(mine))
            async with processes(fake, db) as bots:
                await play(fake, store, mine, alice, games[mine])  # the AI games are being played
                await asyncio.sleep(random.uniform(0.0, 0.5))
                await bots["A"].stop(signal.SIGKILL)
                await bots["A"].start()
                await until_finished(store, games, limit=120)
                acks = [ack for b in bots.values() for ack in b.acks]
            counted = await count_moves(store, games, acks)
            assert (counted.lost, counted.doubled, counted.damaged) == (0, 0, 0)
            assert counted.finished == len(games) == GUILDS
            assert all(b.acks for b in bots.values()) and counted.stored > len(acks)
            people = [row for row in await store.load_log(mine) if row.user_id == alice.id]
            assert len(people) == dealt + HUMAN_MOVES  # each of her moves once, whatever the deliveries
            # Each press answered once: its owner drops the repeats, the other process leaves them alone.
            assert [ix.rejected_callbacks for ix in fake.interactions.values()] == [0] * len(
                fake.interactions
            )
            timed_out = [m for m in fake.public(games[mine]) if "ran out of time" in m.content]
            assert len(timed_out) == 1
        finally:
            await store.close()
