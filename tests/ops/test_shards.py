"""Several bot processes sharing the shards (issue 27), in one process: the `run --shards` options, the fake
Discord's shard routing, a process leaving the other shards' guilds alone, and claims keeping exactly-once
work (a timeout, an AI move) to one process. The real two-process runs are in test_shards_processes.py.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.__main__ import main, parse_shards
from bot.discord import ShardedAgoraBot
from bot.discord.common import ALREADY_ANSWERED
from bot.discord.services import guard
from bot.sessions import SessionManager, StaleState
from bot.sessions.hooks import Hooks
from bot.store import SqliteStore
from bot.store.base import Shards
from tests.fakediscord import FakeDiscord, FakeGuild, make_client_kwargs, running_bot

GAME = "ophion"  # a short game
OTHER = "elsewhere:1:0"  # another process's name in the claims
NOW = 1_000_000.0


# --- the command line ---------------------------------------------------------------------------------


def test_shards_are_read_as_ranges_and_lists_of_ids() -> None:
    """`--shards 0-3 --shard-count 8` owns shards 0 to 3 of 8; `0,2,5` those three; a count alone owns
    every shard; neither: the unsharded bot of today."""
    assert parse_shards("0-3", "8") == Shards(8, frozenset({0, 1, 2, 3}))
    assert parse_shards("0,2,5", "8") == Shards(8, frozenset({0, 2, 5}))
    assert parse_shards(" 0-1, 6 ", "8") == Shards(8, frozenset({0, 1, 6}))
    assert parse_shards("", "4") == Shards(4, frozenset({0, 1, 2, 3}))
    assert parse_shards("", "") is None


@pytest.mark.parametrize(
    ("ids", "count", "says"),
    [
        ("0-8", "8", "shard 8 is not among the 8 shards 0-7"),  # an id >= count
        ("0-3", "", "--shards needs --shard-count"),
        ("0-3", "0", "--shard-count takes a number"),
        ("0-3", "many", "--shard-count takes a number"),
        ("zero", "4", "--shards takes shard ids like 0-3"),
        ("1-", "4", "--shards takes shard ids like 0-3"),
        ("3-1", "4", "runs backwards"),
    ],
)
def test_bad_shard_options_get_one_line_and_exit_code_2(
    ids: str, count: str, says: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bad range is refused in one line, exit code 2, before anything connects."""
    monkeypatch.setenv("DISCORD_TOKEN", "never-used")
    argv = ["run", "--shards", ids] + (["--shard-count", count] if count else [])
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1


def test_shard_options_come_from_the_environment_too(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """AGORA_SHARDS and AGORA_SHARD_COUNT are the defaults of --shards and --shard-count."""
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("AGORA_SHARDS", "0,2,9")
    monkeypatch.setenv("AGORA_SHARD_COUNT", "8")
    assert main(["run"]) == 2
    assert "--shards 0,2,9: shard 9 is not among the 8 shards 0-7" in capsys.readouterr().err
    monkeypatch.setenv("AGORA_SHARDS", "0,2,5")
    assert main(["run"]) == 2  # good shards: on to the next check, the missing token
    assert "DISCORD_TOKEN is not set" in capsys.readouterr().err


# --- the fake Discord ---------------------------------------------------------------------------------


class Pinged(discord.AutoShardedClient):
    """A sharded client with one command, /ping, that counts the interactions it hears."""

    def __init__(self, name: str, **kwargs: object) -> None:
        super().__init__(**make_client_kwargs(), **kwargs)  # type: ignore[arg-type]
        self.name = name
        self.heard: list[int] = []
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(name="ping", description="who answers")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"pong from {self.name}")

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Count every interaction heard (the tree answers it)."""
        self.heard.append(interaction.id)


async def test_the_fake_routes_each_guild_to_the_shard_that_owns_it() -> None:
    """IDENTIFY with `shard: [id, count]` gets READY and GUILD_CREATE for that shard's guilds only, and their
    interactions: a guild belongs to shard (guild_id >> 22) % count. `deliver_everywhere` hands one
    interaction to every shard's session."""
    async with FakeDiscord(shard_count=4) as fake:
        guilds = [fake.add_guild(f"shard {i}", shard=i) for i in range(4)]
        channels = [fake.add_channel("games", g) for g in guilds]
        alice = fake.add_user("alice")
        for g in guilds:
            fake.add_user("alice-too", guild=g).id = alice.id  # the same person, a member of every guild
            g.members[alice.id] = g.members.pop(max(g.members))
        low, high = (
            Pinged("low", shard_ids=[0, 1], shard_count=4),
            Pinged("high", shard_ids=[2, 3], shard_count=4),
        )
        async with running_bot(low, fake), running_bot(high, fake):
            await low.tree.sync()
            assert {g.id for g in low.guilds} == {g.id for g in fake.guilds.values() if (g.id >> 22) % 4 < 2}
            assert {g.id for g in high.guilds} == {
                g.id for g in fake.guilds.values() if (g.id >> 22) % 4 >= 2
            }
            assert sorted(s.shard for s in fake.gateway.shards.values()) == [(0, 4), (1, 4), (2, 4), (3, 4)]
            for shard, channel in enumerate(channels):
                ix = await fake.slash(alice, channel, "ping")
                answer = await ix.wait_reply()
                assert answer.content == f"pong from {'low' if shard < 2 else 'high'}"
            assert (len(low.heard), len(high.heard)) == (2, 2)

            ix = await fake.slash(alice, channels[3], "ping")
            await ix.wait_reply()
            assert await fake.deliver_everywhere(ix) == 4  # every shard's session, of both clients
            await fake.wait_until(lambda: low.heard.count(ix.id) == 2 and high.heard.count(ix.id) == 3)
            await fake.wait_until(lambda: ix.rejected_callbacks == 4)  # Discord takes the first answer only


async def test_a_client_without_a_shard_count_asks_the_gateway_for_it() -> None:
    """GET /gateway/bot answers the fake's shard count, and discord.py opens that many shards."""
    async with FakeDiscord(shard_count=3) as fake:
        client = discord.AutoShardedClient(**make_client_kwargs())
        async with running_bot(client, fake):
            assert client.shard_count == 3
            assert sorted(s.shard for s in fake.gateway.shards.values()) == [(0, 3), (1, 3), (2, 3)]


# --- one process on some of the shards -----------------------------------------------------------------


class Table:
    """A SQLite database with matches in guilds of every shard of 4, and a clock."""

    def __init__(self, fake: FakeDiscord, db: Path) -> None:
        self.fake, self.db = fake, str(db)
        self.clock = [NOW]
        self.guilds: list[FakeGuild] = [fake.add_guild(f"shard {i}", shard=i) for i in range(4)]
        self.channels = [fake.add_channel("games", g) for g in self.guilds]

    def shard_of(self, guild_id: int | None) -> int:
        """The shard of a guild among 4."""
        return ((guild_id or 0) >> 22) % 4

    async def deal(self, sessions: SessionManager, shard: int, *, people: int) -> int:
        """Start a game in that shard's guild: `people` people (ids 101, 102), AI seats to make two."""
        guild, channel = self.guilds[shard], self.channels[shard]
        info = await sessions.create(channel.id, guild.id, GAME, 101, seed=shard + 1, seat_host=people > 0)
        if people > 1:
            await sessions.join(info.id, 102)
        for _ in range(2 - people):
            await sessions.add_ai(info.id, 101, "random")
        return (await sessions.start(info.id, 101)).id

    @contextlib.asynccontextmanager
    async def sessions(self, **kwargs: object) -> AsyncIterator[SessionManager]:
        """A session manager on the database (AI seats wait for ever unless kwargs say otherwise)."""
        store = SqliteStore(self.db)
        await store.open()
        kwargs.setdefault("ai_delay", 3600.0)
        sessions = SessionManager(store, clock=lambda: self.clock[0], **kwargs)  # type: ignore[arg-type]
        try:
            yield sessions
        finally:
            await sessions.close()
            await store.close()

    @contextlib.asynccontextmanager
    async def bot(self, shards: Shards) -> AsyncIterator[ShardedAgoraBot]:
        """The bot on these shards of 4, on the database; timers run by hand (tick)."""
        store = SqliteStore(self.db)
        await store.open()

        def sessions(hooks: Hooks) -> SessionManager:
            return SessionManager(store, clock=lambda: self.clock[0], ai_delay=0.0, hooks=hooks)

        bot = ShardedAgoraBot(sessions, shards=shards, timer_interval=0, **make_client_kwargs())
        try:
            async with running_bot(bot, self.fake):
                yield bot
                await bot.sessions.wait_idle()
                await bot.boards.flush()
        finally:
            await bot.sessions.close()
            await store.close()


LOW = Shards(4, frozenset({0, 1}))


async def test_a_process_resumes_the_ai_moves_of_its_own_shards_only(tmp_path: Path) -> None:
    """Games waiting on an AI move in guilds of every shard: the process on shards 0-1 of 4 plays out those
    of shards 0 and 1 at start-up, and leaves the others where they were for the process of 2-3."""
    async with FakeDiscord(shard_count=4) as fake:
        table = Table(fake, tmp_path / "agora.db")
        async with table.sessions() as sessions:
            games = {shard: await table.deal(sessions, shard, people=0) for shard in range(4)}
            before = {shard: (await sessions.get(mid)).state_id for shard, mid in games.items()}
        async with table.bot(LOW) as bot:
            await bot.sessions.wait_idle()
            after = {shard: await bot.sessions.get(mid) for shard, mid in games.items()}
        assert after[0].over and after[1].over
        assert [after[s].state_id for s in (2, 3)] == [before[2], before[3]]
        assert not after[2].over and not after[3].over


async def test_a_process_runs_the_timers_of_its_own_shards_only(tmp_path: Path) -> None:
    """Overdue turns in guilds of every shard: one check of the process on shards 0-1 handles those of
    shards 0 and 1 (their next deadline is set) and leaves the others overdue."""
    async with FakeDiscord(shard_count=4) as fake:
        table = Table(fake, tmp_path / "agora.db")
        async with table.sessions() as sessions:
            games = {shard: await table.deal(sessions, shard, people=2) for shard in range(4)}
            for mid in games.values():
                await sessions.set_deadline(mid, NOW - 1)
        async with table.bot(LOW) as bot:
            assert await bot.timers.tick() == 2
            overdue = await bot.sessions.store.expired_deadlines(NOW)
            assert sorted(table.shard_of(m.guild_id) for m in overdue) == [2, 3]


async def test_a_timeout_claimed_by_another_process_does_not_fire_twice(tmp_path: Path) -> None:
    """A turn timed out (the "skip" policy): while another process holds the claim on that timeout, this
    one does nothing; once the claim's lease has run out (that process died), the timeout fires, once."""
    async with FakeDiscord(shard_count=4) as fake:
        table = Table(fake, tmp_path / "agora.db")
        async with table.sessions() as sessions:
            mid = await table.deal(sessions, 0, people=2)
            await sessions.store.set_guild_setting(table.guilds[0].id, "timeout_seconds", 60)
            await sessions.store.set_guild_setting(table.guilds[0].id, "timeout_policy", "skip")
            await sessions.set_deadline(mid, NOW + 60)
            state_id = (await sessions.get(mid)).state_id
        async with table.bot(LOW) as bot:
            store, channel = bot.sessions.store, table.channels[0]
            table.clock[0] = NOW + 61
            assert await store.claim(f"timeout:{mid}:{state_id}", OTHER, NOW + 61, 90.0)

            def timed_out() -> int:
                return sum("ran out of time" in m.content for m in fake.public(channel))

            await bot.timers.tick()
            assert (await bot.sessions.get(mid)).state_id == state_id and timed_out() == 0

            table.clock[0] = NOW + 61 + 91  # the other process's lease has run out
            await bot.timers.tick()
            await fake.wait_until(timed_out, what="the timeout message")
            skipped = (await bot.sessions.get(mid)).state_id
            assert skipped > state_id
            await bot.timers.tick()
            assert (await bot.sessions.get(mid)).state_id == skipped and timed_out() == 1


async def test_an_ai_move_claimed_by_another_process_waits_for_its_lease(tmp_path: Path) -> None:
    """An AI move another process has claimed ("ai:<match>:<state_id>") is left to it; once that claim's
    lease has run out (the process died mid-move), resuming plays it."""
    async with FakeDiscord(shard_count=4) as fake:
        table = Table(fake, tmp_path / "agora.db")
        async with table.sessions() as sessions:
            mid = await table.deal(sessions, 0, people=0)
            state_id = (await sessions.get(mid)).state_id
        async with table.sessions(ai_delay=0.0) as sessions:
            sessions.owner, sessions.shards = "here:2:0", LOW
            assert await sessions.store.claim(f"ai:{mid}:{state_id}", OTHER, NOW, 90.0)
            assert await sessions.recover() == 1
            await sessions.wait_idle()
            assert (await sessions.get(mid)).state_id == state_id  # left to the other process
            table.clock[0] = NOW + 91
            await sessions.recover()
            await sessions.wait_idle()
            assert (await sessions.get(mid)).over


async def test_a_move_another_process_made_first_is_not_doubled(tmp_path: Path) -> None:
    """Two processes on one database both hold a game and are handed the same move: the first commits; the
    second is refused politely (the game has moved on), reloads the game as it is now, and the log holds
    the move once."""
    async with FakeDiscord(shard_count=4) as fake:
        table = Table(fake, tmp_path / "agora.db")
        async with table.sessions() as first, table.sessions() as second:
            mid = await table.deal(first, 0, people=2)
            info = await second.get(mid)  # both have the game in memory at the same position
            user = info.users_to_act[0]
            move = (await first.moves_for(mid, user))[0].key
            played = await first.submit(mid, user, move, info.state_id)
            with pytest.raises(StaleState, match="Another move was made first") as refused:
                await second.submit(mid, user, move, info.state_id)
            assert refused.value.state_id == played.state_id
            assert (await second.get(mid)).state_id == played.state_id  # reloaded
            log = await first.store.load_log(mid)
            assert [row.seq for row in log] == list(range(1, played.state_id + 1))


async def test_an_interaction_another_process_answered_is_a_warning_not_a_failure(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Two processes on one shard (a rolling restart) may both take an interaction: Discord refuses the second
    answer (40060, "already acknowledged"). That is logged as a warning and not answered with an apology."""
    response = SimpleNamespace(status=400, reason="Bad Request")
    refused = discord.HTTPException(response, {"code": ALREADY_ANSWERED, "message": "already acknowledged"})

    async def answer_twice() -> None:
        raise refused

    interaction: Any = SimpleNamespace(id=987654321, guild_id=None, data={})  # no reply is attempted on it
    with caplog.at_level(logging.WARNING, logger="bot.discord"):
        await guard(interaction, 7, answer_twice)
    assert [r.levelno for r in caplog.records] == [logging.WARNING]
    assert "already answered elsewhere" in caplog.records[0].getMessage()
