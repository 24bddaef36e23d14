"""Load: many communities playing every game at once through one bot and the fake Discord (issue 24, item 3).

    .venv/bin/python bench/load.py [--quick] [--channels 200] [--seconds 60] [--moves 0] [--think 5,20] ...

The default pace is a person playing live: 5-20 s to think, 0.5-2 s between the presses of a move.
`--think 1,4 --click 0.1,0.5` is a stress pace that offers more moves than 2 cores draw (about 60 moves/s
in all): the latencies then measure the queue. Games played across days move far slower than either.

N text channels (200 by default; 50 to a server) each play a game of every registered game in rotation
(channel i plays games[i % 5]), all at once, through ONE AgoraBot (tests/discord_harness.py: the real bot, its
session manager, AI pool and SQLite store) and the fake Discord on 127.0.0.1, in this process. Every other
channel seats one person and an AI (the lobby's "Add an AI of a chosen level…" select, --ai-level), the rest
two people. A community starts at a random moment within --ramp seconds: its host runs /play (the lobby
opens in a thread), picks the seat choices a game has (a deck, a Commander, a team: a random one of the
lobby's select, now and then left to "random if none"), the other person joins (and picks) or the AI is
seated, and the host presses Start; a game that ends is followed by a new /play in the same channel.

A simulated person watches the public board of their game: when the latest board names them (its line
above the board mentions whoever the bot waits for) at a state they have not acted at, they think for a
random --think time, press "My hand & moves" and walk the ephemeral menu to a move, --click apart: at each
level an option that ends a turn or answers a window (QUICK) with --quick-bias odds if offered, else a
random button; a level too long for buttons is a paged select menu, whose "Next ▶" they press now and then
(--page-bias) before picking a random option. A press the bot answers with a deferred update and then an
edit reading "✅ You played ..." played a move; "out of date" redraws the menu, which they walk on. AI seats
move by themselves.

Measured, from the fake's dispatch of INTERACTION_CREATE:
  ack        the interaction callback arriving (every press: the hand button, menu levels, the move)
  confirmed  the move press -> its menu edited to "✅ You played ..."
  board      the move press -> the public board showing the state the move produced (or a later one)
and moves/s (people's moves acknowledged + AI moves announced by the session manager), games started and
finished, the process's memory (RSS now and peak; the AI pool's workers apart), event-loop lag, and errors:
what the fake refused or failed (fake.errors by status, fake.rejected, interactions answered after Discord's
3 s), records logged at ERROR in this process, and the people's side (menus found out of date, presses
answered with a refusal, presses never answered).

The fake does not check request bodies against Discord's OpenAPI spec here unless --spec is given (the tests
always do): that check runs in this process, on the bot's event loop, and at 2,000 channels it was a sixth of
the CPU, counted as the bot's latency. fake.rejected says whether bodies were checked.

Discord's rate limits are on in the fake as Discord documents them (tests/fakediscord/ratelimit.py: 50
requests a second with the bot's token, 5 new messages per 5 s in a channel, ...; --rate-limits 0 turns them
off): the report gives the requests per move, the bot-token requests a second and the 429s the bot met.

Everything stops after --seconds or --moves: nobody starts a new move, moves under way get --drain seconds,
every game still going is abandoned, the bot is stopped. Then every move acknowledged to a person (the
press's menu carries the match and the state it was drawn at) and every AI move announced (match and the
state it produced) is looked up in the store's action log (bot/store load_log): one absent is lost, a log
holding one acknowledged move twice (a person's row no acknowledgement accounts for, or an AI move
announced twice) is duplicated. The very last line printed is `lost moves: N, duplicated moves: N`.

The waits are per channel (FakeDiscord.wait_channel: woken by requests about that channel only) and the
board is found from the end of the thread, so thousands of channels cost the fake and the people little.
By default the bench drops the image bytes of menus it is done with and of superseded boards from the fake's
records (--keep-files keeps them), so the RSS is mostly the bot's.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import logging
import math
import os
import random
import re
import resource
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[1])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from bot.sessions import SessionError, SessionEvent  # noqa: E402
from bot.store import SqliteStore  # noqa: E402
from engine.registry import games as registered_games  # noqa: E402
from tests.discord_harness import HAND, NAV, Harness  # noqa: E402
from tests.fakediscord import (  # noqa: E402
    FakeChannel,
    FakeDiscord,
    FakeInteraction,
    FakeMessage,
    FakeTimeout,
    FakeUser,
)

SKIP = (*NAV, "↩ Undo")  # menu buttons that are no option
NEXT_PAGE = "Next ▶"
# Options that end a turn or answer a window or a setup step soonest (as bench/e2e.py's QUICK).
from bench.e2e import QUICK  # noqa: E402  (options that end a turn or answer a window, as e2e walks)

PLAYED = "✅ You played"
STALE = "out of date"
AI_SELECT = "Add an AI of a chosen level…"
CHOICE = "Choose your "  # a seat choice's select: "Choose your Deck (random if none)"
NOT_AN_OPTION = ("🎲", "📂")  # a choice select's "Random" and "One of my saved decks"
DEFERRED_UPDATE, UPDATE, MESSAGE, DEFERRED_MESSAGE = 6, 7, 4, 5
SUCCESS = 3  # a button's style: green, the menu's options that play a move at once
ARCHIVED_THREAD = 50083  # Discord's "Thread is archived": the bot unarchives the thread and tries again
MAX_LEVELS = 14  # presses in one walk down the menu at most
LAG_TICK = 0.05  # the event-loop lag probe sleeps this long and records the overshoot
MEMORY_EVERY = 0.5  # seconds between RSS samples
PER_GUILD = 50  # channels to a server

_MOVE = re.compile(r"· move (\d+)\b")
_LOBBY_MATCH = re.compile(r"^ag:lb:\w+:(\d+)$")
_MENU_ID = re.compile(r"^ag:m[vs]:(\d+):(\d+):")

log = logging.getLogger("bench.load")


@dataclass
class Config:
    """What the load is: channels, how long, how people behave."""

    channels: int = 200
    seconds: float = 60.0
    moves: int = 0  # all moves (people's and AI's) at most; 0: no cap
    think: tuple[float, float] = (5.0, 20.0)  # seconds a person thinks before a move (uniform)
    click: tuple[float, float] = (0.5, 2.0)  # seconds between the presses of one move (uniform)
    ramp: float | None = None  # communities start within this many seconds (None: min(seconds/3, N/20))
    games: tuple[str, ...] = ()  # () = every registered game
    ai_level: str = "normal"
    quick_bias: float = 0.4  # odds of pressing a quick option (End turn, Pass, ...) when a level has one
    page_bias: float = 0.3  # odds of paging a long list before picking
    per_guild: int = PER_GUILD
    seed: int = 1
    timeout: float = 30.0  # seconds to wait for the bot's answer to one press
    stall: float = 30.0  # a person whose board has not changed for this long looks again
    drain: float = 20.0  # seconds moves under way get at the end
    keep_files: bool = False  # keep the image bytes of every message in the fake's records
    rate_limits: float = 1.0  # Discord's rate limits in the fake: windows times this (1: real; 0: off)
    spec: bool = False  # the fake checks request bodies against Discord's spec (its CPU is on the bot's loop)

    def ramp_seconds(self) -> float:
        """The ramp asked for, or by default a third of the run, at most one second per 20 channels."""
        if self.ramp is not None:
            return self.ramp
        return min(self.seconds / 3, max(1.0, self.channels / 20))


# --- the fake Discord, as a person reads it ---------------------------------------------------------------
def is_board(message: FakeMessage) -> bool:
    """Whether a message is a public board of a game (its footer says which move it shows; a lobby's not)."""
    return not message.ephemeral and not message.deleted and board_state(message) >= 0


def board_state(message: FakeMessage) -> int:
    """The state_id a board shows in its footer ("Game #3 · move 17 · ..."), -1 if none."""
    found = _MOVE.search(message.text())  # a V2 board's footer line (an embed's footer before)
    return int(found[1]) if found else -1


def has_button(message: FakeMessage, label: str) -> bool:
    """Whether a message offers an enabled button with this label."""
    return any(b.get("label") == label and not b.get("disabled") for b in message.buttons)


def answered(ix: FakeInteraction) -> bool:
    """Whether the bot's visible answer to an interaction is complete: the callback, and for a deferred
    message its content, for a deferred update the edit (or a follow-up)."""
    kind = ix.callback_type
    if kind is None:
        return False
    if kind == DEFERRED_MESSAGE:
        original = ix.original
        return original is not None and not original.loading
    if kind == DEFERRED_UPDATE:
        return ix.edit_count > 0 or len(ix.message_ids) > 0
    return True


def answer_text(ix: FakeInteraction) -> str:
    """What the person reads in answer: the edited or sent message, and any follow-up."""
    parts = []
    if ix.original is not None:
        parts.append(ix.original.text())
    parts += [m.text() for m in ix.followups]
    return "\n".join(parts)


# --- bookkeeping -------------------------------------------------------------------------------------------
@dataclass
class Person:
    """A simulated person of one community."""

    user: FakeUser
    rng: random.Random
    last: int = -1  # the board state they last acted at (they wait for a later one)


@dataclass
class Community:
    """One channel: its game in rotation, its people, the game now running."""

    index: int
    game: str
    channel: FakeChannel
    people: list[Person]
    with_ai: bool
    start_at: float
    rng: random.Random
    thread: FakeChannel | None = None
    mid: int | None = None
    board_id: int = 0  # the latest board seen (its image bytes are dropped once superseded)
    started: int = 0
    finished: int = 0


@dataclass(frozen=True)
class Ack:
    """A move acknowledged to a person: the match, who, the state the menu was drawn at, what they read."""

    mid: int
    user: int
    sid: int
    text: str


@dataclass
class Samples:
    """Latencies (seconds) and counters gathered while the load runs."""

    ack: list[float] = field(default_factory=list)
    confirmed: list[float] = field(default_factory=list)
    board: list[float] = field(default_factory=list)
    lag: list[float] = field(default_factory=list)
    rss: list[float] = field(default_factory=list)  # MB, sampled
    workers_rss: float = 0.0  # MB, the AI pool's processes (largest sample)
    counts: Counter[str] = field(default_factory=Counter)


@dataclass
class Audit:
    """The store's action log against what was acknowledged and announced."""

    lost: int = 0
    duplicated: int = 0
    person_rows: int = 0
    ai_rows: int = 0
    auto_rows: int = 0
    unannounced: int = 0  # AI rows of the log no event announced
    gaps: int = 0  # matches whose log is not 1..state_id
    unconfirmed: int = 0  # presses whose answer never came (a move may have been played by them)
    moves_by_game: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)


@dataclass
class Report:
    """What a run measured."""

    config: Config
    seconds: float  # the load's wall time (ramp included, drain excluded)
    cpu: float  # CPU seconds of this process in that time
    person_moves: int
    ai_moves: int
    samples: Samples
    games_started: int
    games_finished: int
    finished_by_game: Counter[str]
    errors_5xx: int
    errors_4xx: Counter[str]  # "status/code" -> count
    rejected: list[str]
    error_examples: list[str]  # the first few of fake.errors: "status/code METHOD path"
    archived: int  # 400/50083 refusals (a post in a thread archived meanwhile: the bot unarchives, retries)
    requests: Counter[str]  # API requests until the load stopped: "bot" (the global limit's), "interaction"
    limited: Counter[str]  # 429s the bot met: "global" and per route bucket (fake.rest.limits)
    late: int
    error_logs: list[str]
    warnings: int
    first_warnings: list[str]
    audit: Audit
    rss_start: float
    rss_end: float
    maxrss: float  # MB, the process's peak (ru_maxrss)
    fake_files: float  # MB of image bytes the fake still holds
    teardown: float  # seconds from the stop to the bot being stopped
    load: Load = field(repr=False)  # what the people saw and the bot announced (for the audit)

    @property
    def moves(self) -> int:
        return self.person_moves + self.ai_moves

    @property
    def errors(self) -> int:
        """Everything counted as an error: the fake's 5xx and 4xx, refusals, late answers, ERROR logs."""
        return (
            self.errors_5xx
            + sum(self.errors_4xx.values())
            + len(self.rejected)
            + self.late
            + len(self.error_logs)
        )


class LogCounter(logging.Handler):
    """Counts records at WARNING and above in this process; keeps the ERROR ones (formatted)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.errors: list[str] = []
        self.warnings = 0
        self.first_warnings: list[str] = []
        self._format = logging.Formatter("%(name)s %(levelname)s: %(message)s")

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.ERROR:
            self.errors.append(self._format.format(record))
        elif "voice will NOT be supported" not in record.getMessage():  # discord.py without PyNaCl
            self.warnings += 1
            if len(self.first_warnings) < 5:
                self.first_warnings.append(self._format.format(record))


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _descendants_rss_mb() -> float:
    """RSS of every process below this one (the AI pool's forkserver and workers)."""
    parent: dict[int, int] = {}
    rss: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(name)], rss[int(name)] = int(fields[1]), int(fields[21])
    mine, frontier = set(), {os.getpid()}
    while frontier:
        frontier = {p for p, pp in parent.items() if pp in frontier and p not in mine}
        mine |= frontier
    return sum(rss[p] for p in mine) * os.sysconf("SC_PAGE_SIZE") / 2**20


# --- the load ----------------------------------------------------------------------------------------------
class Load:
    """The communities, their people, and what they saw, on one running bot."""

    def __init__(self, cfg: Config, fake: FakeDiscord, h: Harness, communities: list[Community]) -> None:
        self.cfg, self.fake, self.h = cfg, fake, h
        self.communities = communities
        self.people = {p.user.id for c in communities for p in c.people}
        self.samples = Samples()
        self.acks: list[Ack] = []
        self.ai_moves: list[tuple[int, int, int, str]] = []  # mid, seq, seat, key (announced)
        self.auto_rows: set[tuple[int, int]] = set()  # moves played for a person (their setting, forced)
        self.own_state: dict[tuple[int, int], int] = {}  # (mid, person) -> state their latest move produced
        self.matches: dict[int, str] = {}  # every match opened -> its game
        self.unconfirmed: Counter[tuple[int, int]] = Counter()  # presses that may be moves, never answered
        self.stopping = False
        self.cpu = 0.0  # CPU seconds of this process (every thread) until the load stopped
        self.in_time = (0, 0)  # people's and AI moves when the load stopped (the rest came while draining)
        self.started_at = 0.0
        self.stopped_at = 0.0
        self.requests_in_time = 0  # requests the fake had received when the load stopped

    # --- what the bot announces (the session manager's events) --------------------------------------------
    def on_event(self, event: SessionEvent) -> None:
        """Session subscriber: note every move with the state it produced (called under the match lock)."""
        if event.kind != "action":
            return
        mid, seq = event.info.id, event.info.state_id
        if event.auto:
            self.auto_rows.add((mid, seq))
        elif event.user is None:
            self.ai_moves.append(
                (mid, seq, event.seat if event.seat is not None else -1, event.action_key or "")
            )
        else:
            self.own_state[(mid, event.user)] = seq

    @property
    def moves(self) -> int:
        return len(self.acks) + len(self.ai_moves)

    # --- running -------------------------------------------------------------------------------------------
    async def run(self) -> None:
        """Start every community; stop at the time or move cap, let moves under way finish, abandon the
        rest."""
        loop = asyncio.get_running_loop()
        self.started_at, cpu = loop.time(), time.process_time()
        monitor = loop.create_task(self._monitor(), name="load-monitor")
        probe = loop.create_task(self._lag(), name="load-lag")
        tasks = [loop.create_task(self._community(c), name=f"community-{c.index}") for c in self.communities]
        try:
            await self._until_stop()
        finally:
            self.stopping = True
            self.stopped_at = loop.time()
            self.in_time = (len(self.acks), len(self.ai_moves))
            self.requests_in_time = len(self.fake.requests)
            self.cpu = time.process_time() - cpu
            self._wake_all()
            done, left = await asyncio.wait(tasks, timeout=self.cfg.drain) if tasks else (set(), set())
            for task in left:
                task.cancel()
            await asyncio.gather(*left, return_exceptions=True)
            self.samples.counts["cut at the end"] += len(left)
            for task in done:
                if not task.cancelled() and (exc := task.exception()) is not None:
                    self.samples.counts["bench failures"] += 1
                    log.error("community task failed", exc_info=exc)
            for task in (monitor, probe):
                task.cancel()
            await asyncio.gather(monitor, probe, return_exceptions=True)
            await self._abandon_all()

    async def _until_stop(self) -> None:
        loop = asyncio.get_running_loop()
        end = self.started_at + self.cfg.seconds
        while loop.time() < end and not (self.cfg.moves and self.moves >= self.cfg.moves):
            await asyncio.sleep(0.05)

    def _wake_all(self) -> None:
        for c in self.communities:
            self.fake.touched(c.channel.id)
            if c.thread is not None:
                self.fake.touched(c.thread.id)

    async def _abandon_all(self) -> None:
        """Abandon every game still going (and every lobby still open)."""
        for mid in self.matches:
            with contextlib.suppress(SessionError):
                info = await self.h.sessions.get(mid)
                if not info.over:
                    await self.h.sessions.abandon(mid, None, force=True)

    async def _monitor(self) -> None:
        """RSS every MEMORY_EVERY seconds; the AI workers' now and then."""
        n = 0
        while True:
            self.samples.rss.append(_rss_mb())
            if n % 10 == 0:
                self.samples.workers_rss = max(self.samples.workers_rss, _descendants_rss_mb())
            n += 1
            await asyncio.sleep(MEMORY_EVERY)

    async def _lag(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            t = loop.time()
            await asyncio.sleep(LAG_TICK)
            self.samples.lag.append(loop.time() - t - LAG_TICK)

    # --- one community -------------------------------------------------------------------------------------
    async def _community(self, c: Community) -> None:
        """Games one after another in this channel until the load stops."""
        await asyncio.sleep(c.start_at)
        failures = 0
        while not self.stopping:
            if not await self._open(c):
                failures += 1
                self.samples.counts["lobbies that failed"] += 1
                if failures >= 3:
                    return
                await asyncio.sleep(1.0)
                continue
            await asyncio.gather(*(self._person(c, p) for p in c.people))
            if self.stopping:
                return
            c.finished += 1

    async def _open(self, c: Community) -> bool:
        """/play in the channel, seat choices, the second seat (a person or an AI), Start; False if the bot
        did not open the lobby or start the game."""
        host = c.people[0]
        fake, cfg = self.fake, self.cfg
        try:
            ix = await fake.slash(host.user, c.channel, "play", {"game": c.game})
            await fake.wait_channel(
                c.channel, lambda: answered(ix) and ix.original is not None, cfg.timeout, "the /play answer"
            )
            opener = ix.original
            assert opener is not None
            thread_id = await fake.wait_channel(
                c.channel, lambda: opener.thread_id, cfg.timeout, "the lobby thread"
            )
            thread = fake.channels[thread_id]

            def lobby_posted() -> FakeMessage | None:
                return next((m for m in fake.messages[thread.id] if _lobby_mid(m) is not None), None)

            lobby = await fake.wait_channel(thread, lobby_posted, cfg.timeout, "the lobby")
        except FakeTimeout:
            self.samples.counts["no answer"] += 1
            return False
        mid = _lobby_mid(lobby)
        assert mid is not None
        c.thread, c.mid, c.started = thread, mid, c.started + 1
        self.matches[mid] = c.game
        for p in c.people:
            p.last = -1
        await self._choose(c, host, lobby)
        if c.with_ai:
            await self._lobby_press(
                c,
                host,
                lambda: fake.select(host.user, fake.message(lobby.id), [cfg.ai_level], placeholder=AI_SELECT),
            )
        for other in c.people[1:]:
            await self._lobby_press(
                c, other, lambda o=other: fake.click(o.user, fake.message(lobby.id), "Join")
            )
            await self._choose(c, other, lobby)
        if not await self._lobby_press(
            c, host, lambda: fake.click(host.user, fake.message(lobby.id), "Start")
        ):
            return False
        try:  # the first board
            await fake.wait_channel(thread, lambda: self._latest_board(c), cfg.timeout, "the first board")
        except FakeTimeout:
            self.samples.counts["games that never started"] += 1
            return False
        return True

    async def _choose(self, c: Community, person: Person, lobby: FakeMessage) -> None:
        """Pick each seat choice of the lobby (a random option; one time in five left to "random")."""
        for menu in [
            s for s in self.fake.message(lobby.id).selects if str(s.get("placeholder", "")).startswith(CHOICE)
        ]:
            values = [o["value"] for o in menu.get("options", []) if o["value"] not in NOT_AN_OPTION]
            if not values or person.rng.random() < 0.2:
                continue
            value = person.rng.choice(values)
            placeholder = menu["placeholder"]
            await self._lobby_press(
                c,
                person,
                lambda v=value, ph=placeholder: self.fake.select(
                    person.user, self.fake.message(lobby.id), [v], placeholder=ph
                ),
            )

    async def _lobby_press(
        self, c: Community, person: Person, start: Callable[[], Awaitable[FakeInteraction]]
    ) -> bool:
        await asyncio.sleep(person.rng.uniform(*self.cfg.click))
        found = await self._interact(c, person, start)
        return found is not None

    # --- one person ----------------------------------------------------------------------------------------
    def _latest_board(self, c: Community) -> FakeMessage | None:
        """The newest public board of the community's thread (found from the end of the thread)."""
        assert c.thread is not None
        for message in reversed(self.fake.messages[c.thread.id]):
            if is_board(message):
                if message.id != c.board_id:
                    if c.board_id and not self.cfg.keep_files:
                        _drop_files(self.fake.find_message(c.board_id))
                    c.board_id = message.id
                return message
        return None

    def _turn(self, c: Community, p: Person) -> FakeMessage | bool | None:
        """The board if it waits for this person at a state they have not acted at; True if the game is
        over (its latest board offers no hand any more); None otherwise."""
        board = self._latest_board(c)
        if board is None:
            return None
        if not has_button(board, HAND):
            return True
        if board_state(board) > p.last and p.user.id in board.mention_ids:
            return board
        return None

    async def _person(self, c: Community, p: Person) -> None:
        """Wait for one's turn, think, play; until the game is over or the load stops."""
        assert c.thread is not None
        while not self.stopping:
            try:
                found = await self.fake.wait_channel(
                    c.thread, lambda: self.stopping or self._turn(c, p), self.cfg.stall, "their turn"
                )
            except FakeTimeout:
                p.last = -1  # nothing happened for a while: look at the board afresh
                if self._turn(c, p) is not None:
                    self.samples.counts["people who looked again"] += 1
                continue
            if self.stopping or found is True:
                return
            await asyncio.sleep(p.rng.uniform(*self.cfg.think))
            if self.stopping:
                return
            board = self._turn(c, p)
            if board is True:
                return
            if board is None:  # someone else moved meanwhile (a choice everyone makes at once)
                continue
            assert isinstance(board, FakeMessage)
            p.last = board_state(board)
            await self._play(c, p, board)

    async def _play(self, c: Community, p: Person, board: FakeMessage) -> None:
        """Open the hand menu on the board and walk down to a move."""
        fake, cfg = self.fake, self.cfg
        found = await self._interact(c, p, lambda: fake.click(p.user, board, HAND))
        if found is None:
            return
        ix, _ = found
        menu = ix.original
        if menu is None or not menu.ephemeral:  # a refusal (not seated, the game is over)
            self.samples.counts["refusals"] += 1
            return
        try:
            for _ in range(MAX_LEVELS):
                options = [
                    b["label"] for b in menu.buttons if b.get("label") not in SKIP and not b.get("disabled")
                ]
                if not options and not menu.selects:  # "It's not your turn", "This game is over."
                    self.samples.counts["menus without a move"] += 1
                    return
                await asyncio.sleep(p.rng.uniform(*cfg.click))
                if self.stopping:
                    return
                quick = [q for q in QUICK if q in options]
                maybe_move = True  # a green button plays a move at once; a select's option may
                if quick and p.rng.random() < cfg.quick_bias:
                    press, maybe_move = _click(fake, p.user, menu, quick[0])
                elif options:
                    press, maybe_move = _click(fake, p.user, menu, p.rng.choice(options))
                elif has_button(menu, NEXT_PAGE) and p.rng.random() < cfg.page_bias:
                    self.samples.counts["pages turned"] += 1
                    press, _ = _click(fake, p.user, menu, NEXT_PAGE)
                    maybe_move = False
                else:
                    values = [o["value"] for o in menu.select().get("options", [])]
                    self.samples.counts["select menus"] += 1
                    press = _select(fake, p.user, menu, p.rng.choice(values))
                found = await self._interact(c, p, press, maybe_move)
                if found is None:
                    return
                ix, seen = found
                if ix.callback_type == UPDATE:  # the next level, drawn in place
                    menu = fake.message(menu.id)
                    continue
                text = answer_text(ix)
                if ix.callback_type == DEFERRED_UPDATE and PLAYED in text:
                    await self._acknowledged(c, p, ix, seen, text)
                    return
                if ix.callback_type == DEFERRED_UPDATE and STALE in text:
                    self.samples.counts["menus out of date"] += 1
                    menu = fake.message(menu.id)
                    continue
                self.samples.counts["refusals"] += 1
                return
            self.samples.counts["walks without a move"] += 1
        finally:
            if not cfg.keep_files:
                _drop_files(menu)

    async def _acknowledged(
        self, c: Community, p: Person, ix: FakeInteraction, seen: float, text: str
    ) -> None:
        """A move acknowledged: note it, then wait for the board to show it."""
        found = _MENU_ID.match(str(ix.data.get("custom_id", "")))
        assert found is not None and c.thread is not None
        mid, sid = int(found[1]), int(found[2])
        self.acks.append(Ack(mid, p.user.id, sid, text.splitlines()[0]))
        self.samples.confirmed.append(seen - ix.dispatched_at)
        target = self.own_state.get((mid, p.user.id), -1)
        if target <= sid:
            self.samples.counts["moves not announced"] += 1
            return
        try:
            await self.fake.wait_channel(
                c.thread,
                lambda: (
                    self.stopping or ((b := self._latest_board(c)) is not None and board_state(b) >= target)
                ),
                self.cfg.timeout,
                "the board",
            )
        except FakeTimeout:
            self.samples.counts["boards never shown"] += 1
            return
        if not self.stopping:
            self.samples.board.append(self.fake.now() - ix.dispatched_at)

    async def _interact(
        self,
        c: Community,
        p: Person,
        start: Callable[[], Awaitable[FakeInteraction]],
        maybe_move: bool = False,
    ) -> tuple[FakeInteraction, float] | None:
        """Press (click or select) and wait for the bot's whole answer; the interaction and when the
        answer was seen (the fake's clock), or None (the button was gone, or no answer came). A press that
        may play a move and whose answer never came (or the load stopped waiting) is noted: the audit
        allows one move of theirs that nobody acknowledged for each."""
        try:
            ix = await start()
        except (LookupError, ValueError, PermissionError):
            self.samples.counts["buttons gone"] += 1  # a board or menu superseded meanwhile
            return None
        self.samples.counts["presses"] += 1
        try:
            await self.fake.wait_channel(ix.channel_id, lambda: answered(ix), self.cfg.timeout, "an answer")
        except (FakeTimeout, asyncio.CancelledError) as stopped:
            self.samples.counts["presses never answered"] += 1
            if maybe_move:
                self.unconfirmed[(c.mid or 0, p.user.id)] += 1
            if isinstance(stopped, asyncio.CancelledError):
                raise
            return None
        if ix.latency is not None:
            self.samples.ack.append(ix.latency)
        return ix, self.fake.now()


def _click(
    fake: FakeDiscord, user: FakeUser, message: FakeMessage, label: str
) -> tuple[Callable[[], Awaitable[FakeInteraction]], bool]:
    """Pressing a button, and whether it may play a move (a green one: the menu's leaves)."""
    green = any(b.get("label") == label and b.get("style") == SUCCESS for b in message.buttons)
    return (lambda: fake.click(user, message, label)), green


def _select(
    fake: FakeDiscord, user: FakeUser, message: FakeMessage, value: str
) -> Callable[[], Awaitable[FakeInteraction]]:
    return lambda: fake.select(user, message, [value])


def _lobby_mid(message: FakeMessage) -> int | None:
    """The match id of a lobby message (from its buttons' custom_ids), None if it is no lobby."""
    for b in message.buttons:
        if found := _LOBBY_MATCH.match(str(b.get("custom_id", ""))):
            return int(found[1])
    return None


def _drop_files(message: FakeMessage | None) -> None:
    """Forget a message's image bytes (the bot never reads them back)."""
    if message is not None:
        for a in message.attachments:
            a.data = b""


# --- the world and the audit -------------------------------------------------------------------------------
def build_world(fake: FakeDiscord, cfg: Config) -> list[Community]:
    """Servers of cfg.per_guild channels each, and the people of every channel (before the bot connects)."""
    games = list(cfg.games or registered_games())
    rng = random.Random(cfg.seed)
    ramp = cfg.ramp_seconds()
    guilds = [fake.add_guild(f"community {g + 1}") for g in range(math.ceil(cfg.channels / cfg.per_guild))]
    out = []
    for i in range(cfg.channels):
        guild = guilds[i // cfg.per_guild]
        channel = fake.add_channel(f"games-{i + 1}", guild)
        with_ai = i % 2 == 0
        names = ["host"] if with_ai else ["host", "guest"]
        people = [
            Person(fake.add_user(f"c{i + 1}-{n}", guild=guild), random.Random(rng.random())) for n in names
        ]
        start = rng.uniform(0, ramp) if cfg.channels > 1 else 0.0
        out.append(
            Community(i, games[i % len(games)], channel, people, with_ai, start, random.Random(rng.random()))
        )
    return out


async def audit(db: str, load: Load) -> Audit:
    """Every acknowledged and announced move against the store's action log (the bot stopped)."""
    out = Audit()
    ai_announced: dict[int, Counter[int]] = defaultdict(Counter)  # mid -> seq -> times announced
    ai_what: dict[tuple[int, int], tuple[int, str]] = {}
    for mid, seq, seat, key in load.ai_moves:
        ai_announced[mid][seq] += 1
        ai_what[(mid, seq)] = (seat, key)
    acks: dict[int, dict[int, list[Ack]]] = defaultdict(lambda: defaultdict(list))  # mid -> user -> acks
    for a in load.acks:
        acks[a.mid][a.user].append(a)
    store = SqliteStore(db)
    await store.open()
    try:
        for mid, game in load.matches.items():
            rows = await store.load_log(mid)
            out.moves_by_game[game] += len(rows)
            if [r.seq for r in rows] != list(range(1, len(rows) + 1)):
                out.gaps += 1
                out.examples.append(f"match {mid}: log seqs {[r.seq for r in rows][:20]}...")
            by_seq = {r.seq: r for r in rows}
            # AI moves: each announced once, found at the state it produced, with its seat and key.
            for seq, n in ai_announced[mid].items():
                row = by_seq.get(seq)
                if row is None or (row.seat, row.key) != ai_what[(mid, seq)] or row.user_id is not None:
                    out.lost += 1
                    out.examples.append(f"match {mid}: AI move announced at state {seq} is not in the log")
                out.duplicated += n - 1
            theirs: dict[int, list[int]] = defaultdict(list)  # person -> seqs of the moves they chose
            for row in rows:
                if (mid, row.seq) in load.auto_rows:
                    out.auto_rows += 1
                elif row.user_id is None:
                    out.ai_rows += 1
                    out.unannounced += row.seq not in ai_announced[mid]
                elif row.user_id in load.people:
                    out.person_rows += 1
                    theirs[row.user_id].append(row.seq)
            # People's moves: in the order acknowledged, each the first row of theirs after the state its
            # menu was drawn at; a row of theirs no acknowledgement accounts for (nor a press left
            # unanswered) is a duplicate.
            for user in set(acks[mid]) | set(theirs):
                seqs = theirs.get(user, [])
                at = matched = 0
                for a in acks[mid].get(user, []):
                    while at < len(seqs) and seqs[at] <= a.sid:
                        at += 1
                    if at < len(seqs):
                        at, matched = at + 1, matched + 1
                    else:
                        out.lost += 1
                        out.examples.append(f"match {mid}: {a.text!r} at state {a.sid} is not in the log")
                extra = len(seqs) - matched - load.unconfirmed.get((mid, user), 0)
                if extra > 0:
                    out.duplicated += extra
                    out.examples.append(f"match {mid}: {extra} moves of user {user} nobody acknowledged")
        out.unconfirmed = sum(load.unconfirmed.values())
    finally:
        await store.close()
    return out


# --- a run -------------------------------------------------------------------------------------------------
async def run_load(cfg: Config, workdir: Path | None = None) -> Report:
    """The whole load on a fresh fake Discord, bot and database (agora.db in `workdir`, kept there when
    given, else in a temporary directory); the report."""
    counter = LogCounter()
    root = logging.getLogger()
    root.addHandler(counter)
    rss_start = _rss_mb()
    try:
        with contextlib.ExitStack() as stack:
            tmp = str(workdir) if workdir is not None else stack.enter_context(tempfile.TemporaryDirectory())
            async with FakeDiscord(rate_limits=cfg.rate_limits, check_spec=cfg.spec) as fake:
                communities = build_world(fake, cfg)
                async with Harness.started(fake, Path(tmp)) as h:
                    load = Load(cfg, fake, h, communities)
                    unsubscribe = h.sessions.subscribe(load.on_event)
                    try:
                        await load.run()
                    finally:
                        unsubscribe()
                loop = asyncio.get_running_loop()
                teardown = loop.time() - load.stopped_at
                rss_end = _rss_mb()
                fake_files = sum(len(a.data) for m in fake.all_messages() for a in m.attachments) / 2**20
                errors_5xx = sum(1 for status, _, _ in fake.errors if status >= 500)
                errors_4xx = Counter(
                    f"{s}/{code}"
                    for s, code, _ in fake.errors
                    if 400 <= s < 500 and code != ARCHIVED_THREAD and s != 429  # 429s: `limited`
                )
                archived = sum(1 for _, code, _ in fake.errors if code == ARCHIVED_THREAD)
                error_examples = [f"{s}/{code} {what}" for s, code, what in fake.errors[:5]]
                rejected = list(fake.rejected)
                late = len(fake.late_interactions())
                requests = Counter(  # until the load stopped (not the drain's and the abandons')
                    _request_kind(path)
                    for _, path in fake.requests[: load.requests_in_time]
                    if path.startswith("/api/")
                )
                limited = Counter(fake.rest.limits.limited)
            checked = await audit(str(Path(tmp) / "agora.db"), load)
    finally:
        root.removeHandler(counter)
    finished = Counter()
    for c in communities:
        finished[c.game] += c.finished
    return Report(
        config=cfg,
        seconds=load.stopped_at - load.started_at,
        cpu=load.cpu,
        person_moves=len(load.acks),
        ai_moves=len(load.ai_moves),
        samples=load.samples,
        games_started=sum(c.started for c in communities),
        games_finished=sum(c.finished for c in communities),
        finished_by_game=finished,
        errors_5xx=errors_5xx,
        errors_4xx=errors_4xx,
        rejected=rejected,
        error_examples=error_examples,
        archived=archived,
        requests=requests,
        limited=limited,
        late=late,
        error_logs=counter.errors,
        warnings=counter.warnings,
        first_warnings=counter.first_warnings,
        audit=checked,
        rss_start=rss_start,
        rss_end=rss_end,
        maxrss=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        fake_files=fake_files,
        teardown=teardown,
        load=load,
    )


def _request_kind(path: str) -> str:
    """ "interaction" for Discord's interaction endpoints (callbacks, follow-ups: outside the global limit),
    else "bot" (made with the bot's token, bound by the global limit of 50 a second)."""
    return "interaction" if "/interactions/" in path or "/webhooks/" in path else "bot"


# --- the report --------------------------------------------------------------------------------------------
def percentile(samples: list[float], q: float) -> float:
    """The q-th percentile (0..100) by nearest rank."""
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))
    return ordered[index]


def _table(header: list[str], rows: list[list[str]], right: int = 1) -> list[str]:
    """Columns padded to their widest cell; the first `right` columns left-aligned, the rest right."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]

    def line(cells: list[str]) -> str:
        pairs = enumerate(zip(cells, widths, strict=True))
        padded = [c.ljust(w) if i < right else c.rjust(w) for i, (c, w) in pairs]
        return "  ".join(padded).rstrip()

    return [line(header), "  ".join("-" * w for w in widths), *(line(r) for r in rows)]


def format_report(r: Report) -> str:
    """The printed tables; the very last line is `lost moves: N, duplicated moves: N`."""
    cfg, s, a = r.config, r.samples, r.audit
    games = list(cfg.games or registered_games())
    lines = [
        f"Load: {cfg.channels} channels ({math.ceil(cfg.channels / cfg.per_guild)} servers) through one bot "
        f"and the fake Discord on 127.0.0.1; games in rotation: {', '.join(games)}",
        f"  every other channel one person + an AI ({cfg.ai_level}), the rest two people; people think "
        f"{cfg.think[0]:g}-{cfg.think[1]:g} s before a move and {cfg.click[0]:g}-{cfg.click[1]:g} s between "
        f"presses; started within {cfg.ramp_seconds():g} s; stopped after {r.seconds:.1f} s"
        + (f" (cap {cfg.moves} moves)" if cfg.moves else ""),
        "",
        "latency from INTERACTION_CREATE dispatched (ms)",
    ]

    def row(name: str, xs: list[float]) -> list[str]:
        if not xs:
            return [name, "0", "-", "-", "-", "-"]
        return [
            name,
            str(len(xs)),
            f"{percentile(xs, 50) * 1000:.0f}",
            f"{percentile(xs, 90) * 1000:.0f}",
            f"{percentile(xs, 99) * 1000:.0f}",
            f"{max(xs) * 1000:.0f}",
        ]

    lines += _table(
        ["measure", "n", "p50", "p90", "p99", "max"],
        [
            row("press -> ack (answered presses)", s.ack),
            row('move press -> "✅ You played"', s.confirmed),
            row("move press -> board shows it", s.board),
            row("event-loop lag (50 ms ticks)", s.lag),
        ],
    )
    people, ai = r.load.in_time
    rate = (people + ai) / r.seconds if r.seconds else 0.0
    drained = r.moves - people - ai
    fours = ", ".join(f"{k}: {n}" for k, n in r.errors_4xx.most_common()) or "0"
    client = ", ".join(f"{k} {n}" for k, n in sorted(s.counts.items()))
    progress = ", ".join(f"{g} {a.moves_by_game[g]}" for g in games)
    finished = ", ".join(f"{g} {r.finished_by_game[g]}" for g in games)
    peak = max(s.rss, default=r.rss_end)
    moved = max(people + ai, 1)
    limits = f"on, time scale {cfg.rate_limits:g}" if cfg.rate_limits else "off"
    checked = "checked against the spec (--spec)" if cfg.spec else "not checked against the spec (--spec)"
    rows = [
        [
            "moves/s",
            f"{rate:.1f} ({people + ai} moves in {r.seconds:.0f} s: {people} people's acknowledged, {ai} AI; "
            f"{drained} more while draining)",
        ],
        ["people's moves/s", f"{people / r.seconds if r.seconds else 0:.1f}"],
        ["CPU of this process", f"{r.cpu / r.seconds if r.seconds else 0:.0%} of a core (bot, fake, people)"],
        ["games started / finished", f"{r.games_started} / {r.games_finished} (finished: {finished})"],
        ["moves in the log by game", progress],
        [
            "process RSS",
            f"{r.rss_start:.0f} MB before, {peak:.0f} MB peak sampled, {r.rss_end:.0f} MB at the end",
        ],
        [
            "process peak (ru_maxrss)",
            f"{r.maxrss:.0f} MB; AI workers {s.workers_rss:.0f} MB; "
            f"fake keeps {r.fake_files:.0f} MB of images",
        ],
        [
            "requests per move",
            f"{sum(r.requests.values()) / moved:.1f} ({r.requests['bot'] / moved:.1f} with the bot's token, "
            f"{r.requests['interaction'] / moved:.1f} interaction callbacks and follow-ups; until the stop, "
            "lobbies and menus included)",
        ],
        [
            "bot-token requests/s",
            f"{r.requests['bot'] / r.seconds if r.seconds else 0:.1f} until the stop (Discord's global "
            f"limit: 50; rate limits {limits})",
        ],
        [
            "429s met",
            f"{sum(r.limited.values())} ("
            + (", ".join(f"{k} {n}" for k, n in r.limited.most_common()) or "none")
            + "; discord.py waits and retries them)",
        ],
        ["fake.errors 5xx", str(r.errors_5xx)],
        ["fake.errors 4xx (status/code)", fours],
        ["fake.errors 400/50083", f"{r.archived} (a thread archived meanwhile: unarchived, retried)"],
        ["fake.rejected", f"{len(r.rejected)} (request bodies {checked})"],
        ["answered after 3 s", str(r.late)],
        ["logged at ERROR / WARNING", f"{len(r.error_logs)} / {r.warnings}"],
        ["people's side", client],
        [
            "action log",
            f"{a.person_rows} people's rows, {a.ai_rows} AI, {a.auto_rows} played for someone; "
            f"{a.unannounced} AI unannounced, {a.gaps} gaps; {a.unconfirmed} move presses never answered",
        ],
        ["teardown", f"{r.teardown:.1f} s (drain, abandon, stop the bot)"],
    ]
    lines += ["", *_table(["measure", "value"], rows, right=2)]
    for text in r.error_logs[:5]:
        lines.append("ERROR: " + text.splitlines()[0][:300])
    for text in r.first_warnings[:3]:
        lines.append("WARNING: " + text.splitlines()[0][:300])
    for text in r.error_examples:
        lines.append("fake.errors: " + text)
    for text in r.rejected[:5]:
        lines.append("rejected: " + text[:300])
    for text in a.examples[:10]:
        lines.append("audit: " + text)
    lines.append(f"lost moves: {a.lost}, duplicated moves: {a.duplicated}")
    return "\n".join(lines)


def _pair(text: str) -> tuple[float, float]:
    lo, _, hi = text.partition(",")
    pair = (float(lo), float(hi or lo))
    if not 0 <= pair[0] <= pair[1]:
        raise argparse.ArgumentTypeError(f"{text!r}: want LOW,HIGH seconds with 0 <= LOW <= HIGH")
    return pair


def parse_args(argv: list[str] | None = None) -> tuple[Config, str | None]:
    """The configuration (with --quick's defaults where not given) and the profile path."""
    known = list(registered_games())
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(
        "--quick", action="store_true", help="a short run: 10 channels, 20 s, people think 0.5-2 s"
    )
    p.add_argument("--channels", type=int, help="channels playing at once [200; quick 10]")
    p.add_argument("--seconds", type=float, help="seconds of load [60; quick 20]")
    p.add_argument("--moves", type=int, default=0, help="stop after this many moves in all [0: no cap]")
    p.add_argument(
        "--think", type=_pair, help="seconds a person thinks before a move, LOW,HIGH [5,20; quick 0.5,2]"
    )
    p.add_argument(
        "--click",
        type=_pair,
        help="seconds between the presses of a move, LOW,HIGH [0.5,2; quick 0.05,0.3]",
    )
    p.add_argument(
        "--ramp", type=float, help="communities start within this many seconds [min(seconds/3, N/20)]"
    )
    p.add_argument("--games", default=",".join(known), help=f"games in rotation [{','.join(known)}]")
    p.add_argument("--ai-level", default="normal", help="the AI seats' level [normal]")
    p.add_argument("--quick-bias", type=float, default=0.4, help="odds of a quick option when offered [0.4]")
    p.add_argument("--page-bias", type=float, default=0.3, help="odds of paging a long list first [0.3]")
    p.add_argument("--per-guild", type=int, default=PER_GUILD, help=f"channels to a server [{PER_GUILD}]")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--drain", type=float, default=20.0, help="seconds moves under way get at the end [20]")
    p.add_argument("--keep-files", action="store_true", help="keep every image the bot sent in the fake")
    p.add_argument("--profile", metavar="FILE", help="write a cProfile of the run to FILE (pstats)")
    p.add_argument(
        "--rate-limits",
        type=float,
        default=1.0,
        help="Discord's rate limits in the fake: their windows times this [1: real; 0: off]",
    )
    p.add_argument(
        "--spec",
        action="store_true",
        help="the fake checks every request body against Discord's OpenAPI spec, as the tests do [off: its "
        "CPU, up to 1.7 ms a request, would run on the bot's event loop and count as the bot's latency]",
    )
    a = p.parse_args(argv)
    games = tuple(g.strip() for g in a.games.split(",") if g.strip())
    if unknown := [g for g in games if g not in known]:
        p.error(f"unknown game {', '.join(unknown)}; known: {', '.join(known)}")
    quick = a.quick
    cfg = Config(
        channels=a.channels or (10 if quick else 200),
        seconds=a.seconds or (20.0 if quick else 60.0),
        moves=a.moves,
        think=a.think or ((0.5, 2.0) if quick else (5.0, 20.0)),
        click=a.click or ((0.05, 0.3) if quick else (0.5, 2.0)),
        ramp=a.ramp,
        games=games,
        ai_level=a.ai_level,
        quick_bias=a.quick_bias,
        page_bias=a.page_bias,
        per_guild=a.per_guild,
        seed=a.seed,
        drain=a.drain,
        keep_files=a.keep_files,
        rate_limits=a.rate_limits,
        spec=a.spec,
    )
    if cfg.channels < 1 or cfg.seconds <= 0 or cfg.per_guild < 1 or not games:
        p.error("--channels, --seconds, --per-guild must be positive, --games not empty")
    return cfg, a.profile


def main() -> None:
    cfg, profile = parse_args()
    profiler = cProfile.Profile() if profile else None
    if profiler is not None:
        profiler.enable()
    report = asyncio.run(run_load(cfg))
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(profile)
    print(format_report(report))


if __name__ == "__main__":
    main()
