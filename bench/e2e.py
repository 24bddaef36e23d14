"""End-to-end latency of a move through the fake Discord, beside a no-op discord.py bot in the same run.

    .venv/bin/python bench/e2e.py [moves] [runs] [--games omphala,ophion,...] [--time-limit 600]
    .venv/bin/python bench/e2e.py [moves] [runs] --ai-games 20 [--ai-level hard] [--time-limit 900]

For each game (every registered one by default, engine.registry.games(); --games picks some), two people play
it in a thread, opened through the lobby (seat choices such as a deck or a Commander left to "random if
none"); whoever the board waits for plays (in a response window the one it is offered to; in a choice both
make at once, one then the other), and a game that ends is replaced by a new one of the same game until
`moves` moves were timed (after WARMUP untimed ones). A move is walked down the ephemeral menu: at each level
an option that ends a turn or answers a window (QUICK: "End turn", "Pass", "End the Action Phase", ...) if
offered, else the first button, else the first option of a select menu (a level too long for buttons); the
press the bot answers with a deferred update is the move press. For each move press it records, from the
dispatch of INTERACTION_CREATE:
  ack        the interaction callback arriving (the bot defers at once: committing and rendering follow)
  confirmed  the ephemeral menu edited to "You played ..." with the new hand image and the next menu
  board      the public board showing the move (a new message for a new turn, an edit otherwise)
It prints one row per game under the no-op row (bench/e2e_noop.py's bot answering a button: its ack); each
percentile is the median over runs of each run's percentile. Each run and game gets a fresh fake Discord,
bot and database; within a run the games take turns, so a busy machine slows all of them alike.

With --ai-games N (issue 12; Omphala only, --games not taken), each run measures the people's Omphala moves
twice on one bot: first alone, then while N games of AI seats only (two seats of --ai-level, `hard` by
default) play in channels of their own through the same bot, its session manager and its worker pool (a
game that ends is replaced by a new one, at most --ai-cap games in all). It prints both rows and the ratio of
the p99s (issue 12's target: <= 1.5). The AI games are abandoned at the end of each run; every phase stops
after --time-limit seconds with what it has.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[1])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from bench.e2e_noop import LatencyRow, format_table, noop_row, percentile, summarize  # noqa: E402
from engine.registry import games as registered_games  # noqa: E402
from tests.discord_harness import HAND, NAV, Harness  # noqa: E402
from tests.fakediscord import FakeChannel, FakeDiscord, FakeInteraction, FakeMessage, FakeUser  # noqa: E402

WARMUP = 10  # untimed moves of each game before the timed ones
MOVES = 30  # timed moves per game and run, by default
AI_MOVES = 120  # timed moves per phase with --ai-games, by default
AI_SEATS = 2  # seats of each AI-only game
LAG_TICK = 0.01  # the event-loop lag probe sleeps this long and records the overshoot
DEFERRED_UPDATE = 6  # the interaction callback of a menu press that plays a move (committing follows)
SKIP = (*NAV, "↩ Undo")  # menu buttons that are no option
# Options that end a turn or answer a window or a setup step soonest (as Harness.play_move and the Ophidian
# test's quick answers), pressed whenever a level offers one; otherwise the first option.
QUICK = (
    "End turn",
    "Pass",
    "End the Action Phase",
    "Pass (−)",
    "Keep your hand",
    "Keep the rest of your hand",
    "Pay for no more (scrap the rest)",
    "Promote nobody",
    "No more Reinforcements",
    "Done arranging",
)

Samples = tuple[list[float], list[float], list[float]]  # ack, confirmed, board (seconds)


_MOVE = re.compile(r"· move (\d+)\b")


def _shown_move(message: FakeMessage) -> int:
    """The state_id a board message shows in its footer ("Game #3 · move 17 · ..."), -1 if none."""
    found = _MOVE.search(message.text())  # an embed's footer, or a V2 board's footer line
    return int(found[1]) if found else -1


def _board_at(fake: FakeDiscord, thread: FakeChannel, state_id: int) -> bool:
    """Whether a recent public board of the thread shows this state or a later one (a move can be followed
    by steps nobody chooses, e.g. a window passed for someone who can't respond)."""
    return any(_shown_move(m) >= state_id for m in fake.public(thread)[-3:])


class NoMove(RuntimeError):
    """The menu walk did not end in a move (an out-of-date menu, or nothing offered)."""


@dataclass
class HumanTable:
    """Two people playing one game (`game`, a registry id), game after game in threads of #general;
    `measure` times their moves."""

    h: Harness
    fake: FakeDiscord
    people: dict[int, FakeUser]
    settle: Callable[[int], Awaitable[None]]  # wait until the match (or everything) is quiet
    game: str = "omphala"
    thread: FakeChannel | None = None
    mid: int | None = None
    started: int = 0  # games opened
    finished: int = 0  # games played to their end

    async def _open(self) -> None:
        """A new game through the lobby: the host opens it, the other joins, the host starts (seat choices
        such as a deck or a Commander are left to the lobby's "random if none")."""
        alice, bob = self.people.values()
        self.thread, lobby, self.mid = await self.h.open_lobby(alice, self.game)
        await self.h.press(bob, lobby, "Join")
        await self.h.press(alice, self.fake.message(lobby.id), "Start")
        self.started += 1

    async def _walk(self, user: FakeUser, thread: FakeChannel) -> FakeInteraction:
        """Open the hand menu and walk down to a move; the interaction that played it.

        At each level: a quick move (one that ends a turn or answers a window) if offered, else the first
        button, else the first option of a select menu (a long level; its options do not say whether they
        end the move, the answer does). A press the bot answers with a deferred update (callback type 6)
        plays a move; any other answer is the next level. Paging and Back are never pressed.
        """
        h, fake = self.h, self.fake
        menu = await h.press(user, h.board(thread), HAND)
        for _ in range(12):
            options = [b["label"] for b in menu.buttons if b["label"] not in SKIP]
            choice = next((q for q in QUICK if q in options), options[0] if options else None)
            if choice is not None:
                ix = await fake.click(user, menu, choice)
            elif menu.selects:
                ix = await fake.select(user, menu, [next(iter(menu.option_values().values()))])
            else:
                raise NoMove(f"{self.game}: no move offered to {user.name}: {menu.text()}")
            await ix.wait_callback(timeout=30)
            if ix.callback_type == DEFERRED_UPDATE:
                return ix
            menu = await ix.wait_reply(timeout=30)
        raise NoMove(f"{self.game}: the menu never reached a move: {menu.text()}")

    async def measure(self, moves: int, deadline: float = float("inf")) -> Samples:
        """Time `moves` move presses after WARMUP untimed ones (fewer if the loop's clock passes deadline).

        Whoever the board waits for plays (in a response window the one it is offered to; in a choice
        made by both at once, the first of them, then the other); a game that ends is replaced.
        """
        h, fake = self.h, self.fake
        ack: list[float] = []
        confirmed: list[float] = []
        board: list[float] = []
        done = misses = 0
        loop = asyncio.get_running_loop()
        while done < WARMUP + moves and loop.time() < deadline:
            if self.mid is None:
                await self._open()
            assert self.mid is not None and self.thread is not None
            thread = self.thread
            await self.settle(self.mid)
            info = await h.sessions.get(self.mid)
            if info.over:
                self.mid = None
                self.finished += 1
                continue
            if not info.users_to_act:
                raise NoMove(f"{self.game}: game #{self.mid} waits for nobody: {info}")
            ix = await self._walk(self.people[info.users_to_act[0]], thread)
            played = await ix.wait_edits(1, timeout=30)
            t_confirmed = loop.time() - ix.dispatched_at
            if "✅ You played" not in played.text():  # an out-of-date menu, redrawn: try again
                misses += 1
                if misses > 20:
                    raise NoMove(f"{self.game}: moves keep failing: {played.text()}")
                continue
            new_state = info.state_id + 1
            await fake.wait_until(lambda t=thread, n=new_state: _board_at(fake, t, n), 30, "the new board")
            t_board = loop.time() - ix.dispatched_at
            done += 1
            if done > WARMUP and ix.latency is not None:
                ack.append(ix.latency)
                confirmed.append(t_confirmed)
                board.append(t_board)
        return ack, confirmed, board


@dataclass
class GameRun:
    """One game's measured moves in one run, and what it took."""

    samples: Samples
    seconds: float
    started: int  # games opened
    finished: int  # games played to their end


async def agora_run(game: str, moves: int, limit: float = float("inf")) -> GameRun:
    """One run of one game: fresh fake, fresh database; games of it are played until `moves` move presses
    were timed (or `limit` seconds passed)."""
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            alice, bob = fake.add_user("alice"), fake.add_user("bob")
            people = {alice.id: alice, bob.id: bob}
            async with Harness.started(fake, Path(tmp)) as h:

                async def settle_all(mid: int) -> None:
                    await h.settle()

                table = HumanTable(h, fake, people, settle_all, game)
                loop = asyncio.get_running_loop()
                t0 = loop.time()
                samples = await table.measure(moves, deadline=t0 + limit)
                return GameRun(samples, loop.time() - t0, table.started, table.finished)


# --- issue 12: a person's move while AI games think ---------------------------------------------------------
async def settle_match(h: Harness, mid: int) -> None:
    """Wait until this match's board redraw is done; other matches keep going.

    Not sessions.wait_idle(mid): every move kicks the match's AI task, which first queues for one of the
    session manager's AI slots (ai_concurrency) before it finds no AI seat to move, so with AI games
    thinking it lingers for seconds though this match has no AI seat (it holds up nobody's move).
    """
    for _ in range(100):
        task = h.bot.boards._tasks.get(mid)
        if task is None or task.done():
            return
        await asyncio.wait({task})


@dataclass
class AiGames:
    """`count` games of AI seats only, each in a channel of its own, created through the session manager of
    the running bot (which posts their boards); a game that ends is replaced, at most `cap` games in all."""

    h: Harness
    fake: FakeDiscord
    count: int
    level: str
    cap: int
    live: set[int] = field(default_factory=set)
    created: int = 0
    finished: int = 0
    finished_moves: int = 0  # moves of the games that ended (for `moves`)
    _refill: asyncio.Task[None] | None = None

    async def _new_game(self) -> None:
        host = self.fake.add_user(f"ai-host-{self.created}")
        channel = await self.fake.create_channel(f"ai-{self.created}")
        s = self.h.sessions
        info = await s.create(channel.id, self.fake.guild.id, "omphala", host.id, seat_host=False)
        for _ in range(AI_SEATS):
            await s.add_ai(info.id, host.id, self.level)
        await s.start(info.id, host.id)
        self.created += 1
        self.live.add(info.id)

    async def start(self) -> None:
        """Start the games, then keep `count` of them going."""
        for _ in range(self.count):
            await self._new_game()
        self._refill = asyncio.get_running_loop().create_task(self._keep_going(), name="bench-ai-refill")

    async def _keep_going(self) -> None:
        while True:
            await asyncio.sleep(0.5)
            for mid in list(self.live):
                if (info := await self.h.sessions.get(mid)).over:
                    self.live.discard(mid)
                    self.finished += 1
                    self.finished_moves += info.state_id
            while len(self.live) < self.count and self.created < self.cap:
                await self._new_game()

    async def wait_thinking(self, timeout: float = 30.0) -> None:
        """Until every worker of the pool is busy and every game has its AI task."""
        pool, s = self.h.sessions.ai_pool, self.h.sessions

        def thinking() -> bool:
            workers = len(pool._busy) >= max(1, pool.size)
            return workers and all(mid in s._ai_tasks for mid in self.live)

        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not thinking():
            if loop.time() > end:
                raise TimeoutError("the AI games never all started thinking")
            await asyncio.sleep(0.05)

    async def moves(self) -> int:
        """AI moves played so far in the games still going (their state ids)."""
        total = self.finished_moves
        for mid in list(self.live):
            total += (await self.h.sessions.get(mid)).state_id
        return total

    async def stop(self) -> None:
        """Stop refilling, abandon every game still going and wait (bounded) for their AI tasks to end."""
        if self._refill is not None:
            self._refill.cancel()
            await asyncio.gather(self._refill, return_exceptions=True)
        for mid in list(self.live):
            info = await self.h.sessions.get(mid)
            if not info.over:
                await self.h.sessions.abandon(mid, None, force=True)
        tasks = [t for mid in self.live if (t := self.h.sessions._ai_tasks.get(mid)) is not None]
        if tasks:
            await asyncio.wait(tasks, timeout=30)
        self.live.clear()


class LagProbe:
    """Event-loop lag: a task sleeping LAG_TICK records how late it wakes (the bot's loop being starved)."""

    def __init__(self) -> None:
        self.samples: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            t = loop.time()
            await asyncio.sleep(LAG_TICK)
            self.samples.append(loop.time() - t - LAG_TICK)

    def start(self) -> None:
        self.samples = []
        self._task = asyncio.get_running_loop().create_task(self._run(), name="bench-lag")

    async def stop(self) -> list[float]:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        return self.samples


@dataclass
class Phase:
    """One measured phase of a run: the samples and what went on beside them."""

    samples: Samples
    seconds: float
    cpu: float  # CPU seconds of this process (the bot and the fake) during the phase
    lag: list[float]
    ai_moves: int = 0


async def _phase(table: HumanTable, moves: int, limit: float, ai: AiGames | None) -> Phase:
    loop = asyncio.get_running_loop()
    probe = LagProbe()
    before = await ai.moves() if ai else 0
    probe.start()
    t0, c0 = loop.time(), time.process_time()
    samples = await table.measure(moves, deadline=t0 + limit)
    seconds, cpu = loop.time() - t0, time.process_time() - c0
    lag = await probe.stop()
    ai_moves = (await ai.moves() - before) if ai else 0
    return Phase(samples, seconds, cpu, lag, ai_moves)


async def ai_run(moves: int, games: int, level: str, cap: int, limit: float) -> tuple[Phase, Phase, AiGames]:
    """One run on one bot: the people's moves alone, then with `games` AI games thinking."""
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            alice, bob = fake.add_user("alice"), fake.add_user("bob")
            people = {alice.id: alice, bob.id: bob}
            async with Harness.started(fake, Path(tmp)) as h:

                async def settle(mid: int) -> None:
                    await settle_match(h, mid)

                table = HumanTable(h, fake, people, settle)
                alone = await _phase(table, moves, limit, None)
                ai = AiGames(h, fake, games, level, cap)
                try:
                    await ai.start()
                    await ai.wait_thinking()
                    loaded = await _phase(table, moves, limit, ai)
                finally:
                    await ai.stop()
                return alone, loaded, ai


def _ms(samples: list[float], q: float) -> float:
    return percentile(samples, q) * 1000 if samples else float("nan")


async def ai_main(moves: int, runs: int, games: int, level: str, cap: int, limit: float) -> None:
    """Measure the no-op bot, then each run's two phases; print the table, the p99 ratios and notes."""
    noop = await noop_row(max(moves, 100), runs)
    results = [await ai_run(moves, games, level, cap, limit) for _ in range(runs)]
    with_ = f"with {games} {level} AI games"
    rows = [noop]
    for what, i in (("confirmed", 1), ("public board", 2)):
        rows.append(summarize(f"alone: {what}", [r[0].samples[i] for r in results]))
        rows.append(summarize(f"{games} AI games: {what}", [r[1].samples[i] for r in results]))
    print("from INTERACTION_CREATE dispatched by the fake Discord (ms; median over runs)")
    print(format_table(rows))
    print()
    for what, i in (("confirmed", 1), ("public board", 2)):
        ratios = [percentile(r[1].samples[i], 99) / percentile(r[0].samples[i], 99) for r in results]
        each = ", ".join(f"{x:.2f}" for x in ratios)
        print(f"p99 {with_} / alone, {what}: {statistics.median(ratios):.2f}x (runs: {each}; target <= 1.5x)")
    print()
    for n, (alone, loaded, ai) in enumerate(results, 1):
        for name, p in (("alone", alone), ("loaded", loaded)):
            ai_note = f", AI moves {p.ai_moves} ({p.ai_moves / p.seconds:.1f}/s)" if name == "loaded" else ""
            print(
                f"run {n} {name:<6}: {len(p.samples[1])} moves in {p.seconds:.1f} s, bot process CPU "
                f"{p.cpu / p.seconds:.0%}, loop lag p50/p99/max {_ms(p.lag, 50):.1f}/{_ms(p.lag, 99):.1f}/"
                f"{max(p.lag, default=0) * 1000:.1f} ms{ai_note}"
            )
        print(f"run {n} AI games: {ai.created} started, {ai.finished} finished")


MEASURES = (("ack", (50, 99)), ("confirmed", (50, 90, 99)), ("board", (50, 90, 99)))


def format_games_table(noop: LatencyRow, rows: list[tuple[str, list[GameRun]]]) -> str:
    """One row per game (each cell the median over runs of that run's percentile, ms), under the no-op
    bot's row (its ack: the callback of a button answered at once)."""
    groups = [(i, what, qs) for i, (what, qs) in enumerate(MEASURES)]

    def line(name: str, moves: object, runs: object, cells: list[list[str]]) -> str:
        parts = [" ".join(f"{c:>8}" for c in group) for group in cells]
        return f"{name:<22} {moves:>5} {runs:>4} | " + " | ".join(parts)

    def number(v: float | None) -> str:
        return "" if v is None else f"{v:.1f}"

    head = f"{'':<22} {'':>5} {'':>4} | " + " | ".join(f"{what:<{9 * len(qs) - 1}}" for _, what, qs in groups)
    sub = line("game", "moves", "runs", [[f"p{q}" for q in qs] for _, _, qs in groups])
    lines = [head.rstrip(), sub, "-" * len(sub)]
    noop_cells = [[number(noop.p50), number(noop.p99)]] + [[""] * len(qs) for _, _, qs in groups[1:]]
    lines.append(line("no-op discord.py bot", noop.presses, noop.runs, noop_cells).rstrip())
    for game, runs in rows:
        cells = []
        for i, _, qs in groups:
            group = []
            for q in qs:
                per_run = [percentile(r.samples[i], q) for r in runs if r.samples[i]]
                group.append(number(statistics.median(per_run) * 1000 if per_run else None))
            cells.append(group)
        lines.append(line(game, min(len(r.samples[0]) for r in runs), len(runs), cells))
    return "\n".join(lines)


async def main(moves: int, runs: int, games: list[str], limit: float) -> None:
    """Measure the no-op bot, then each game's moves (the games in turn within each run, so noise of the
    machine falls on all of them); print one table with a row per game, and what each game took."""
    noop = await noop_row(max(moves, 100), runs)
    results: dict[str, list[GameRun]] = {g: [] for g in games}
    for _ in range(runs):
        for game in games:
            results[game].append(await agora_run(game, moves, limit))
    print("from INTERACTION_CREATE dispatched by the fake Discord (ms; each the median over runs)")
    print('  ack: the callback (the bot defers) · confirmed: the menu edited to "You played ..." · board:')
    print("  the public board showing the move; no-op: a discord.py bot answering a button at once")
    print(format_games_table(noop, list(results.items())))
    print()
    print(f"per run: timed moves (after {WARMUP} untimed) in seconds (with the lobby and the warm-up); games")
    for game, runs_ in results.items():
        each = ", ".join(f"{len(r.samples[0])} in {r.seconds:.1f} s" for r in runs_)
        started, ended = sum(r.started for r in runs_), sum(r.finished for r in runs_)
        print(f"  {game:<20} {each}; games started {started}, played to the end {ended}")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """moves and runs (positional, as before), the games, and the AI options of issue 12."""
    known = list(registered_games())
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(
        "moves",
        type=int,
        nargs="?",
        default=None,
        help=f"timed moves per game and run [{MOVES}], per phase with --ai-games [{AI_MOVES}]",
    )
    p.add_argument("runs", type=int, nargs="?", default=3, help="runs; percentiles are medians over them [3]")
    p.add_argument(
        "--games",
        default=",".join(known),
        help=f"comma-separated game ids to measure [all registered: {','.join(known)}]",
    )
    p.add_argument(
        "--ai-games",
        type=int,
        default=0,
        help="instead, measure Omphala alone and with this many AI-only games [0: off]",
    )
    p.add_argument("--ai-level", default="hard", help="the AI games' level [hard]")
    p.add_argument("--ai-cap", type=int, default=0, help="AI games started per run at most [3x --ai-games]")
    p.add_argument(
        "--time-limit",
        type=float,
        default=600.0,
        help="seconds per game and run (per measured phase with --ai-games) at most [600]",
    )
    args = p.parse_args(argv)
    if args.moves is None:
        args.moves = AI_MOVES if args.ai_games else MOVES
    if args.ai_games < 0 or args.moves < 1 or args.runs < 1:
        p.error("moves and runs must be positive, --ai-games not negative")
    args.games = [g.strip() for g in args.games.split(",") if g.strip()]
    if unknown := [g for g in args.games if g not in known]:
        p.error(f"unknown game {', '.join(unknown)}; known: {', '.join(known)}")
    if not args.games:
        p.error("--games names no game")
    if args.ai_games and args.games != known:
        p.error("--ai-games measures Omphala only; leave out --games")
    return args


if __name__ == "__main__":
    a = parse_args()
    if a.ai_games:
        cap = a.ai_cap or 3 * a.ai_games
        asyncio.run(ai_main(a.moves, a.runs, a.ai_games, a.ai_level, max(cap, a.ai_games), a.time_limit))
    else:
        asyncio.run(main(a.moves, a.runs, a.games, a.time_limit))
