"""Games that hold across days (issue 11): restarts of a real bot process, deadlines written with the move,
one board message per human turn, superseded boards without buttons, and game threads that are unarchived
when Discord archived them and archived at the end."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sqlite3
import sys
from collections.abc import AsyncIterator
from pathlib import Path

from bot.sessions import SessionEvent
from tests.discord_harness import HAND, Harness, is_board
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser

WORKER = Path(__file__).parents[1] / "discord_worker.py"  # beside conftest.py
DAY = 12 * 3600.0  # the default reminder


class Worker:
    """The bot in a subprocess, talking to the in-test fake; reads its READY and ACK lines."""

    def __init__(self, fake: FakeDiscord, db: Path, hold: Path) -> None:
        self.fake, self.db, self.hold = fake, db, hold
        self.proc: asyncio.subprocess.Process | None = None
        self.acks: list[tuple[int, int, str]] = []
        self.ready = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Start a new bot process on the same database and wait until it is connected."""
        self.ready = asyncio.Event()
        args = [self.fake.api_base, self.fake.gateway_url, self.fake.token, "--hold", str(self.hold)]
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, str(WORKER), str(self.db), *args, stdout=asyncio.subprocess.PIPE
        )
        self._reader = asyncio.create_task(self._read())
        await asyncio.wait_for(self.ready.wait(), 30)
        await self.fake.wait_until(lambda: self.fake.gateway.reachable, what="the bot's gateway session")

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        async for raw in self.proc.stdout:
            parts = raw.decode().split()
            if parts == ["READY"]:
                self.ready.set()
            elif parts and parts[0] == "ACK":
                self.acks.append((int(parts[1]), int(parts[2]), parts[3]))
                self.fake.notify()

    async def wait_ack(self, state_id: int) -> None:
        """Wait until the move that makes state_id is committed."""
        await self.fake.wait_until(lambda: any(s == state_id for _, s, _ in self.acks), 10, f"ACK {state_id}")

    async def stop(self, sig: int) -> None:
        """SIGKILL (a crash) or SIGTERM (a clean stop); wait for the process to end."""
        assert self.proc is not None
        if self.proc.returncode is None:
            self.proc.send_signal(sig)
        await asyncio.wait_for(self.proc.wait(), 30)
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)
        await self.fake.gateway.close_all()


@contextlib.asynccontextmanager
async def worker(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Worker]:
    """A started bot process; killed on exit."""
    w = Worker(fake, tmp_path / "agora.db", tmp_path / "hold")
    await w.start()
    try:
        yield w
    finally:
        await w.stop(signal.SIGKILL)


def boards(fake: FakeDiscord, thread: FakeChannel) -> list[FakeMessage]:
    """The board messages of a thread, oldest first."""
    return [m for m in fake.public(thread) if is_board(m)]


def with_hand(fake: FakeDiscord, thread: FakeChannel) -> list[FakeMessage]:
    """The boards that still offer "My hand & moves"."""
    return [b for b in boards(fake, thread) if any(x["label"] == HAND for x in b.buttons)]


def shows(message: FakeMessage, state_id: int) -> bool:
    """Whether a board message shows this move."""
    return f"· move {state_id} ·" in message.text()


def row(db: Path, match_id: int) -> tuple[int, float | None, float]:
    """state_id, deadline and updated_at of a match, read from the file as another process would."""
    con = sqlite3.connect(db)
    try:
        sql = "SELECT state_id, deadline, updated_at FROM matches WHERE id = ?"
        state_id, deadline, updated = con.execute(sql, (match_id,)).fetchone()
        return state_id, deadline, updated
    finally:
        con.close()


async def open_two_player_game(h: Harness, alice: FakeUser, bob: FakeUser) -> tuple[FakeChannel, int]:
    """/play, bob joins, alice starts (through the fake only); the thread and the match id."""
    fake = h.fake
    await (await fake.slash(alice, fake.channel, "play", {"game": "omphala"})).wait_reply()
    thread = await fake.wait_until(
        lambda: next((t for t in fake.threads(fake.channel) if fake.message_count(t.id)), None), what="thread"
    )
    lobby = fake.latest(thread)
    await h.press(bob, lobby, "Join")
    await h.press(alice, fake.message(lobby.id), "Start")
    mid = int(lobby.text().split("game #")[1].split()[0])
    return thread, mid


async def next_turn(h: Harness, w: Worker, thread: FakeChannel, state_id: int) -> FakeMessage:
    """Wait for the board of this move; it is the latest board."""
    await h.fake.wait_until(
        lambda: any(shows(b, state_id) for b in boards(h.fake, thread)), 15, f"board {state_id}"
    )
    latest = boards(h.fake, thread)[-1]
    assert shows(latest, state_id)
    return latest


async def test_a_move_committed_just_before_a_crash_gets_its_board_and_ping(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    h = Harness(fake, str(tmp_path / "agora.db"))  # only its user helpers: the bot runs in the subprocess
    hold = tmp_path / "hold"
    async with worker(fake, tmp_path) as w:
        thread, mid = await open_two_player_game(h, alice, bob)
        await next_turn(h, w, thread, 0)
        await h.play_move(alice, thread)
        await w.wait_ack(1)
        await next_turn(h, w, thread, 1)
        hold.touch()  # from here on the running bot draws no board
        await h.play_move(bob, thread)  # both chose: a new turn, one person to act
        await w.wait_ack(2)
        await w.stop(signal.SIGKILL)  # right after the commit, before its board
        hold.unlink()
        assert not any(shows(b, 2) for b in boards(fake, thread))
        state_id, deadline, updated = row(tmp_path / "agora.db", mid)
        assert state_id == 2 and deadline == updated + DAY  # the reminder was stored with the move
        await w.start()
        board = await next_turn(h, w, thread, 2)
        to_act = [u for u in (alice, bob) if board.pinged(u)]
        assert len(to_act) == 1 and "your turn" in board.text() and board.button(HAND)
        await fake.wait_until(lambda: len(with_hand(fake, thread)) == 1, what="the old board retired")


async def test_a_whole_game_across_two_restarts(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    people = {alice.id: alice, bob.id: bob}
    h = Harness(fake, str(tmp_path / "agora.db"))
    hold = tmp_path / "hold"
    async with worker(fake, tmp_path) as w:
        thread, _ = await open_two_player_game(h, alice, bob)
        state_id = 0
        restarts = {3: signal.SIGKILL, 8: signal.SIGTERM}  # a crash, then a clean stop
        while True:
            board = await next_turn(h, w, thread, state_id)
            if "Game over" in board.text():
                break
            assert state_id < 500, "the game did not end"
            user = people[board.mention_ids[0]]
            if state_id + 1 in restarts:
                hold.touch()
            await h.play_move(user, thread)
            state_id += 1
            await w.wait_ack(state_id)
            if state_id in restarts:
                await w.stop(restarts[state_id])
                hold.unlink()
                assert not any(shows(b, state_id) for b in boards(fake, thread))
                await w.start()
                board = await next_turn(h, w, thread, state_id)  # the board arrives after the restart...
                if "Game over" not in board.text():
                    assert board.pinged(people[board.mention_ids[0]])  # ...with the ping
        assert "The game is over" in board.text()
        assert "🏆" in board.text() or "🤝 A draw" in board.text()  # Omphala may end in a draw
        await fake.wait_until(lambda: not with_hand(fake, thread), what="no live hand button")
        await fake.wait_until(lambda: thread.archived, what="the thread archived at the end")


# --- in-process ---------------------------------------------------------------------------------------
async def test_deadline_is_written_with_the_move(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        seen: list[tuple[int, float | None]] = []

        async def first(ev: SessionEvent) -> None:  # runs before the bot's own subscriber
            if ev.kind == "action":
                rec = await h.store.get_match(ev.info.id)
                seen.append((rec.state_id, rec.deadline))

        h.sessions._subscribers.insert(0, first)
        thread, _ = await open_two_player_game(h, alice, bob)
        await h.settle()
        await h.play_move(alice, thread)
        await h.settle()
        assert seen == [(1, h.clock[0] + DAY)]


async def test_superseded_boards_lose_their_hand_button(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await open_two_player_game(h, alice, bob)
        for _ in range(6):
            await h.settle()
            info = await h.sessions.get(mid)
            await h.play_move({alice.id: alice, bob.id: bob}[info.users_to_act[0]], thread)
        await h.settle()
        posted = boards(fake, thread)
        live = [b for b in posted if any(x["label"] == HAND for x in b.buttons)]
        assert len(posted) >= 3 and live == [posted[-1]]
        assert all([x["label"] for x in b.buttons] == ["Log", "Rules"] for b in posted[:-1])


async def test_a_run_of_ai_moves_edits_one_message(fake: FakeDiscord, tmp_path: Path) -> None:
    alice = fake.add_user("alice")
    async with Harness.started(fake, tmp_path) as h:
        h.sessions.ai_delay = 0.05  # AI moves far enough apart for each to be drawn
        thread, lobby, mid = await h.open_lobby(alice)
        for _ in range(3):
            lobby = await h.press(alice, lobby, "Add AI")
        await h.press(alice, lobby, "Start")
        turns = 0
        for _ in range(4):
            await h.settle()
            if (await h.sessions.get(mid)).over:
                break
            await h.play_move(alice, thread)
            turns += 1
        await h.settle()
        posted = boards(fake, thread)
        first_version = [(str(b.history[0]["components"]) if b.history else b.text()) for b in posted]
        assert all(alice.mention in c or "Game over" in c for c in first_version), first_version
        assert len(posted) <= turns + 1
        assert any(b.history for b in posted)  # the AI moves were edits


async def test_archived_thread_is_unarchived_and_the_board_posted(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await open_two_player_game(h, alice, bob)
        await h.settle()
        assert thread.auto_archive_duration == 10080  # the longest Discord allows
        await h.play_move(alice, thread)
        await h.settle()
        before = len(boards(fake, thread))
        await fake.archive(thread)  # a week without a move
        await h.sessions.submit(mid, bob.id, (await h.sessions.moves_for(mid, bob.id))[0].key, None)
        await h.settle()
        assert not thread.archived and len(boards(fake, thread)) == before + 1
        assert shows(boards(fake, thread)[-1], 2)


async def test_the_result_is_posted_and_the_thread_archived(fake: FakeDiscord, tmp_path: Path) -> None:
    alice = fake.add_user("alice")
    async with Harness.started(fake, tmp_path) as h:
        thread, lobby, mid = await h.open_lobby(alice)
        lobby = await h.press(alice, lobby, "Add AI")
        await h.press(alice, lobby, "Start")
        await h.play_until_over(mid, thread, {alice.id: alice})
        await h.settle()
        final = boards(fake, thread)[-1]
        assert "The game is over" in final.text() and not final.pinged(alice)  # named; nothing waits on her
        assert [x["label"] for x in final.buttons] == ["Rematch", "Log", "Rules"]
        assert thread.archived
