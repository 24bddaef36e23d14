"""The Discord client: builds the services, registers the persistent components and commands, follows the
session manager, runs.

    bot = AgoraBot(lambda hooks: SessionManager(store, hooks=hooks))  # guild_id=: sync commands to one server
    await bot.start(token)

The bot builds its session manager whole (`bot.sessions`), handing it the hooks it needs
(bot/sessions/hooks.py): each match's policy (window settings, deadlines) and, on shards, its claims.

Nothing about a game lives only in memory: every button's custom_id names its match (and state), the
DynamicItem classes registered in setup_hook rebuild the handler from it, deadlines are written with each
move, and each game's board message is stored (a board not posted before a restart is posted at start-up).

Several processes can share the bot, each on some of its shards and all on one database:

    bot = ShardedAgoraBot(make_sessions, shards=Shards(8, frozenset({0, 1, 2, 3})))   # shards 0-3 of 8

A guild belongs to shard (guild_id >> 22) % count; each process resumes the AI moves, posts the missing
boards and runs the timers of its own shards' guilds only (Discord sends it only their interactions), and
claims in the database what must happen once, under its name `owner_name()`.

`serve` runs it until SIGTERM or SIGINT (what `docker stop` sends), then stops cleanly within STOP_WITHIN
seconds (`AgoraBot.shut_down`): presses from then on are answered "restarting, nothing was played", presses
under way finish (their moves committed and answered), timers and AI seats stop, pending boards are posted
(or left for the restart to post), and the database is closed with its write-ahead log folded in.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import aiohttp
import discord
from discord import app_commands

import render
from bot import ops
from bot.discord import commands, decks
from bot.discord.away import Away
from bot.discord.board import Boards
from bot.discord.budget import Budget, sweep_sparingly
from bot.discord.common import OOPS, reply
from bot.discord.decks import DeckEditButton
from bot.discord.learn import HintButton, RealTableButton
from bot.discord.lobby import LobbyAiSelect, LobbyButton, LobbyChoiceSelect, LobbyDeckSelect, LobbyTableSelect
from bot.discord.menus import HandButton, MoveButton, MoveSelect, UndoButton, WhatButton, answer_unclaimed
from bot.discord.mine import RematchButton
from bot.discord.pages import LogButton, RulesButton, RuleTextButton, RulingsButton
from bot.discord.prefs import Prefs
from bot.discord.rounds import Rounds
from bot.discord.seasons import Seasons
from bot.discord.services import ReclaimButton, Services
from bot.discord.settings import Settings
from bot.discord.timers import Timers
from bot.discord.tournament_words import JoinButton, LeaveButton
from bot.drawing import Drawing
from bot.sessions import MatchInfo, SessionEvent, SessionManager
from bot.sessions.hooks import CLAIM_LEASE, Hooks, Policy
from bot.sessions.lobby import people_of
from bot.store import DiskFull, StoreError, StoreUnavailable, open_store
from bot.store.base import Shards, reason_of

log = logging.getLogger("bot.discord")

STOP_WITHIN = 20.0  # seconds a clean stop may take (compose's stop_grace_period is longer)
STOP_OVERRUN = 5.0  # past STOP_WITHIN, this long for the database to close before the process just exits
RESTARTING = "Agora is restarting, so nothing was played. Please try again in a minute."
LOGIN_WAITS = (5.0, 10.0, 30.0, 60.0, 120.0, 300.0)  # between tries to reach Discord; then 300 s each

COMPONENTS = (
    HandButton,
    MoveButton,
    MoveSelect,
    UndoButton,
    WhatButton,
    LobbyButton,
    LobbyAiSelect,
    LobbyChoiceSelect,
    LobbyDeckSelect,
    LobbyTableSelect,
    ReclaimButton,
    LogButton,
    RulesButton,
    RuleTextButton,
    RulingsButton,
    DeckEditButton,
    RematchButton,
    RealTableButton,
    HintButton,
    JoinButton,
    LeaveButton,
)


class AgoraBot(discord.Client):
    """Agora on Discord: a thin adapter over the session manager. It builds the handlers' `services` once
    (bot/discord/services.py) and hands them to the boards, the timers and the commands."""

    def __init__(
        self,
        sessions: Callable[[Hooks], SessionManager],
        *,
        guild_id: int | None = None,
        sync_commands: bool = True,
        timer_interval: float = 30.0,
        drawing: Drawing | None = None,
        shards: Shards | None = None,
        claim_lease: float = CLAIM_LEASE,
        **client_kwargs: Any,
    ) -> None:
        client_kwargs.setdefault("intents", discord.Intents.default())
        client_kwargs.setdefault(
            "allowed_mentions", discord.AllowedMentions(everyone=False, roles=False, users=True)
        )
        # Discord's global rate limit, shared fairly between channels; boards before reminders (budget.py)
        self.budget = Budget.share(len(shards.ids), shards.count) if shards else Budget()
        client_kwargs.setdefault("http_trace", self.budget.trace())
        super().__init__(**client_kwargs)
        sweep_sparingly(self.http)  # discord.py's per-request bucket scan, once a minute instead (budget.py)
        self.own_shards = shards  # None: every guild is ours, and no other process shares the database
        self.claim_lease = claim_lease
        self.sessions = sessions(self._session_hooks())  # built whole: nothing is assigned onto it later
        self.guild_id = guild_id
        self.sync_commands = sync_commands
        self.tree: app_commands.CommandTree[AgoraBot] = app_commands.CommandTree(self)
        self.tree.on_error = self._command_error  # type: ignore[method-assign]
        self.drawing = drawing or Drawing()  # boards and hands drawn in worker processes
        store = self.sessions.store
        away = Away(store, lambda: self.sessions.clock())  # people's time away (/away)
        settings = Settings(store, away, lambda: self.sessions.clock())  # servers' /config, cached
        self.boards = Boards(self, self.sessions, settings, self.drawing)
        self.timers = Timers(self, self.sessions, settings, away, self.boards, timer_interval)
        self.seasons = Seasons(self, self.sessions, settings)  # a season's end posts its final standings
        self.timers.also.append(self.seasons.tick)
        prefs = Prefs(store)  # people's window settings
        self.services = Services(
            self, self.sessions, store, settings, prefs, away, self.drawing, self.boards, self.timers
        )
        self.rounds = Rounds(self.services)  # tournaments move on with time and as their games end
        self.timers.also.append(self.rounds.tick)
        self._unsubscribe: Any = None
        self._timing: Any = None
        self._counting: Any = None
        self._tournaments: Any = None
        self._heart: asyncio.Task[None] | None = None
        self.stopping = False  # a stop has begun: presses are answered RESTARTING
        self._under_way: set[asyncio.Task[Any]] = set()  # the tasks handling presses, until they end
        self._hooked = False
        commands.install(self.tree, self.services)

    async def setup_hook(self) -> None:
        """Register every persistent component, follow the sessions, sync commands, resume AI moves."""
        self._hooked = True
        parsers = self._connection.parsers  # discord.py has no public hook before it dispatches one
        parsers["INTERACTION_CREATE"] = self._gated(parsers["INTERACTION_CREATE"])
        self.add_dynamic_items(*COMPONENTS)
        self._unsubscribe = self.sessions.subscribe(self.boards.on_event)
        self._timing = self.sessions.subscribe(self.timers.on_event)
        self._counting = self.sessions.subscribe(_count_moves)
        self._tournaments = self.sessions.subscribe(self.rounds.on_event)
        await asyncio.to_thread(render.warm)
        if self.sync_commands:
            if self.guild_id is not None:
                guild = discord.Object(self.guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
            else:
                await self.tree.sync()
        resumed = await self.sessions.recover()
        if resumed:
            log.info("resumed %d games waiting on AI moves", resumed)
        self.boards.resume()  # boards of moves made just before the restart, with their pings
        self.timers.start()
        self._heart = asyncio.get_running_loop().create_task(self._heartbeat())

    def _session_hooks(self) -> Hooks:
        """What the session manager needs of the bot: each match's policy and, when other processes share the
        database, our guilds only, and claims under our name."""
        if self.own_shards is None:
            return Hooks(policy=self._policy)
        return Hooks(self._policy, self.own_shards, owner_name(), self.claim_lease)

    async def _policy(self, info: MatchInfo) -> Policy:
        """A match's policy (bot/sessions/hooks.py), read before the session manager takes its lock: each
        person's window setting, and the first deadline of a new position (written with the move)."""
        people = people_of(info.seats)
        windows = {u: await self.services.prefs.windows(info.guild_id, u) for u in people}
        return Policy(await self.timers.deadlines(info, people), windows)

    async def _heartbeat(self) -> None:
        """Every BEAT_EVERY seconds while connected and the database answers: the health file, live games."""
        await self.wait_until_ready()
        while not self.is_closed():
            try:
                if self.is_ready():
                    store = self.sessions.store
                    with contextlib.suppress(StoreUnavailable, DiskFull):  # said in the health file
                        await store.earliest_deadline()  # the database answers
                    since = store.outage.since_wall
                    outage = None if since is None else (since, store.outage.reason)
                    await asyncio.to_thread(ops.beat, None, outage)
                ops.LIVE_GAMES.set(self.sessions.cached())
            except Exception as e:  # no beat: the health check will say so
                log.warning("heartbeat skipped: %s", e)
            await asyncio.sleep(ops.BEAT_EVERY)

    def _gated(self, parse: Callable[[Any], None]) -> Callable[[Any], None]:
        """The interaction parser, gated: once stopping, a press is answered RESTARTING and not handled;
        before, the tasks discord.py starts to handle it are kept until they end (a stop waits for them)."""

        def gated(data: Any) -> None:
            loop = asyncio.get_running_loop()
            if self.stopping:
                self._keep(loop.create_task(self._refuse(data), name="agora-restarting"))
                return
            factory = loop.get_task_factory()
            started: list[asyncio.Task[Any]] = []

            def keeping(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Future[Any]:
                task = factory(loop, coro, **kwargs) if factory else asyncio.Task(coro, loop=loop, **kwargs)
                started.append(task)  # type: ignore[arg-type]
                return task

            loop.set_task_factory(keeping)  # parse() starts its handlers synchronously, right here
            try:
                parse(data)
            finally:
                loop.set_task_factory(factory)
            for task in started:
                self._keep(task)

        return gated

    def _keep(self, task: asyncio.Task[Any]) -> None:
        self._under_way.add(task)
        task.add_done_callback(self._under_way.discard)

    async def _refuse(self, data: Any) -> None:
        """Answer a press that came during a stop: nothing was played, try again in a minute."""
        interaction = discord.Interaction(data=data, state=self._connection)
        try:
            if interaction.type is discord.InteractionType.autocomplete:
                await interaction.response.autocomplete([])
            else:
                await interaction.response.send_message(RESTARTING, ephemeral=True)
        except discord.HTTPException as e:
            log.info("could not answer interaction %s during the stop: %s", interaction.id, e)

    async def shut_down(self) -> None:
        """A clean stop: presses from now on are answered RESTARTING; presses under way finish (committed
        and answered); timers and AI seats stop (a move they committed stays; the restart resumes them);
        pending boards are posted or left for the restart; then close. Bound it with a timeout."""
        self.stopping = True
        while self._under_way:  # a press that arrived meanwhile is answered at once
            log.info("stopping: %d presses under way", len(self._under_way))
            await asyncio.wait(set(self._under_way))
        await self.timers.stop()
        await self.sessions.close()
        await self.close()

    async def close(self) -> None:
        """Stop timers and board updates, then disconnect."""
        self.stopping = True
        await self.timers.stop()
        if self._heart is not None:
            self._heart.cancel()
        for unsubscribe in (self._unsubscribe, self._timing, self._counting, self._tournaments):
            if unsubscribe is not None:
                unsubscribe()
        self._unsubscribe = self._timing = self._counting = self._tournaments = None
        await self.rounds.stop()
        await self.boards.close()
        await self.drawing.close()
        await super().close()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A submitted /deck save form is answered by its custom_id (no form is kept in memory); a press no
        registered component claims (a malformed or foreign custom_id) still gets an answer."""
        if await decks.answer_form(interaction):
            return
        await answer_unclaimed(interaction, COMPONENTS)

    async def _command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        if isinstance(error, app_commands.CheckFailure):
            await reply(interaction, "You don't have permission to use this command here.")
            return
        log.error(
            "command %s failed", interaction.command and interaction.command.qualified_name, exc_info=error
        )
        await reply(interaction, OOPS)


async def _count_moves(event: SessionEvent) -> None:
    """Session subscriber: count each committed move by game and by whom (a person, an AI, their setting)."""
    if event.kind == "action" and event.seat is not None:
        seat = event.info.seats[event.seat]
        by = "auto" if event.auto else "ai" if seat.is_ai else "person"
        ops.MOVES.labels(event.info.game_id, by).inc()


class ShardedAgoraBot(AgoraBot, discord.AutoShardedClient):
    """AgoraBot on some of the bot's shards (`shards`): one gateway connection per shard, the guilds of
    those shards only. Other processes run the other shards on the same database."""

    def __init__(self, sessions: Callable[[Hooks], SessionManager], *, shards: Shards, **kwargs: Any) -> None:
        kwargs.setdefault("shard_count", shards.count)
        kwargs.setdefault("shard_ids", sorted(shards.ids))
        super().__init__(sessions, shards=shards, **kwargs)

    async def setup_hook(self) -> None:
        """AgoraBot's, and: an interaction of a guild of another process's shard is left to that process.
        (Discord sends a process only its own shards' interactions; this guards against one delivered
        twice, or to the wrong process, so that no two processes play one game from memory.)"""
        parsers = self._connection.parsers  # discord.py has no public hook before it dispatches one
        parse = parsers["INTERACTION_CREATE"]

        def ours_only(data: Any) -> None:
            guild_id = data.get("guild_id")
            if self.own_shards is None or self.own_shards.owns(int(guild_id) if guild_id else None):
                parse(data)
            else:
                log.info(
                    "interaction %s of guild %s: another process's shard; left to it",
                    data.get("id"),
                    guild_id,
                )

        parsers["INTERACTION_CREATE"] = ours_only
        await super().setup_hook()


def owner_name() -> str:
    """This process's name in the database's claims: host, process id and start time."""
    return f"{socket.gethostname()}:{os.getpid()}:{time.time():.3f}"


async def serve(
    token: str,
    db_path: str,
    guild_id: int | None = None,
    shards: Shards | None = None,
    within: float = STOP_WITHIN,
) -> None:
    """Open the database (a SQLite path or a postgresql:// URL), resume games and run the bot (on these
    shards only, when given) until SIGTERM or SIGINT, then stop cleanly within `within` seconds."""
    try:
        store = open_store(db_path)
    except ValueError as e:  # not a database URL this version knows: one line, not a traceback
        raise StoreError(str(e)) from None
    await store.open()

    def make_sessions(hooks: Hooks) -> SessionManager:
        return SessionManager(store, ai_delay=1.0, hooks=hooks)

    bot: AgoraBot = (
        AgoraBot(make_sessions, guild_id=guild_id)
        if shards is None
        else ShardedAgoraBot(make_sessions, guild_id=guild_id, shards=shards)
    )
    sessions = bot.sessions
    stop = Stop(within + STOP_OVERRUN)
    stop.install()
    try:
        async with bot:
            await run_until_stopped(bot, token, stop, within)
    finally:
        await sessions.close()
        await store.close()
        stop.uninstall()
    if stop.began is not None:
        log.info("stopped in %.1f s, the database closed", time.monotonic() - stop.began)


class Stop:
    """SIGTERM and SIGINT: the request to stop, and a watchdog that ends the process `overrun` seconds
    after it if the stop itself hangs (every acknowledged move is committed by then, so none is lost)."""

    def __init__(self, overrun: float) -> None:
        self.overrun = overrun
        self.requested = asyncio.Event()
        self.began: float | None = None
        self._watchdog: threading.Timer | None = None
        self._signals: list[int] = []

    def install(self) -> None:
        """Handle SIGTERM and SIGINT on the running loop (where the platform lets us)."""
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            try:
                loop.add_signal_handler(sig, self._signalled, sig)
            except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or Windows
                continue
            self._signals.append(sig)

    def uninstall(self) -> None:
        """Back to the default handlers; the watchdog disarmed."""
        loop = asyncio.get_running_loop()
        for sig in self._signals:
            loop.remove_signal_handler(sig)
        self._signals = []
        if self._watchdog is not None:
            self._watchdog.cancel()

    def _signalled(self, sig: int) -> None:
        if self.began is not None:
            log.info("%s: already stopping", signal.Signals(sig).name)
            return
        self.began = time.monotonic()
        log.info(
            "%s: stopping cleanly (new presses are asked to try again in a minute)", signal.Signals(sig).name
        )
        self._watchdog = threading.Timer(self.overrun, _exit_now, (self.overrun,))
        self._watchdog.daemon = True
        self._watchdog.start()
        self.requested.set()


def _exit_now(seconds: float) -> None:
    log.error("the stop did not end in %.0f s; exiting now (every acknowledged move is committed)", seconds)
    logging.shutdown()
    os._exit(1)


async def run_until_stopped(bot: AgoraBot, token: str, stop: Stop, within: float = STOP_WITHIN) -> None:
    """Log in (trying again while Discord cannot be reached) and run until `stop` is requested, then stop
    the bot cleanly, giving up on what is left after `within` seconds. LoginFailure for a refused token."""
    loop = asyncio.get_running_loop()
    running = loop.create_task(_log_in_and_connect(bot, token), name="agora-discord")
    asked = loop.create_task(stop.requested.wait())
    await asyncio.wait({running, asked}, return_when=asyncio.FIRST_COMPLETED)
    if not asked.done():
        asked.cancel()
        return running.result()  # Discord closed the connection for good, or the token was refused
    if not bot.is_ready():  # still logging in, or waiting to try again
        running.cancel()
    try:
        async with asyncio.timeout(within):
            await bot.shut_down()
            await asyncio.gather(running, return_exceptions=True)
    except TimeoutError:
        log.warning(
            "the stop took more than %.0f s; stopping anyway (every acknowledged move is committed)", within
        )
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
    return None


async def _log_in_and_connect(bot: AgoraBot, token: str) -> None:
    """bot.start(token), but a Discord that cannot be reached (a network error, a 5xx) is tried again with
    a growing pause (one log line a try), up to LOGIN_WAITS[-1] seconds apart."""
    tries = 0
    while True:
        try:
            await bot.login(token)
            break
        except (OSError, aiohttp.ClientError, discord.DiscordServerError, TimeoutError) as e:
            if bot._hooked:  # failed in setup_hook, which runs once: not safe to run again
                raise
            wait = LOGIN_WAITS[min(tries, len(LOGIN_WAITS) - 1)]
            tries += 1
            why = reason_of(e)
            log.warning("cannot reach Discord (%s); trying again in %.0f s (try %d)", why, wait, tries)
            await bot.http.close()  # a new session (and connector) for the next try
            bot.http.connector = discord.utils.MISSING
            await asyncio.sleep(wait)
    await bot.connect()
