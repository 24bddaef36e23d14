"""A tournament's life, moved on by time and by its games ending (bot/discord/tournaments.py has the commands
and the messages; bot/tournament decides pairings and standings; bot/store/tournaments.py keeps it all).

`Rounds.step(id)` does whatever is due, each piece written to the store as soon as it is done, so a restart
(or another bot process, after a claim's lease) picks up exactly where it stopped:
1. At the start time, a sign-up with two players or more is paired (round 1); with fewer it is cancelled.
2. A round's tables are opened: for each, a thread in the tournament's channel (remembered at once), then
   its game dealt there (linked to the table in the match's own insert), with the tournament's table
   options, a bank clock (bot/sessions/clock.py) whose end is a loss (a forfeit: the table clock of the
   async games), and the round's end on the board. A bye scores at once.
3. The round is announced once (its tables, its end, the standings so far as an image and text).
4. A table is decided when its game ends (its shares), is abandoned (a draw), or the round's end passes: a
   game still running is then adjudicated by the rule stated at creation — a draw, or the game's evaluation
   that the hard AI judges positions by (the likelier winner wins; within EVEN of each other, a draw).
5. When every table is decided: the next round is paired (one process wins: store.save_round), or, after the
   last round, the final standings are posted and the tournament is over.
A paused tournament waits (its games go on; no adjudication, no next round); resuming moves the round's end
on by the time it was paused. Everything runs for the guilds of this process's shards only.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import weakref
from collections.abc import Sequence
from typing import Any

import discord

from bot import tournament
from bot.discord.common import ROUND_ENDS, TABLE_POLICY, TOURNAMENT_OPTION, channel_of, shown
from bot.discord.services import Services
from bot.discord.tournament_words import (
    FORMAT_WORDS,
    legend,
    redraw_message,
    round_text,
    standings_rows,
    standings_words,
)
from bot.ratings import player_of
from bot.sessions import MatchInfo, SessionError, SessionEvent
from bot.sessions.clock import BANK
from bot.store import (
    ABANDONED,
    ACTIVE,
    BROKEN,
    CANCELLED,
    DONE,
    FINISHED,
    LOBBY,
    RUNNING,
    SIGNUP,
    DiskFull,
    EntrantRecord,
    Seat,
    StoreUnavailable,
    TableKey,
    TableRecord,
    TournamentRecord,
)
from engine.registry import games, title_of
from engine.text import printable
from render.standings import standings_alt, standings_image

log = logging.getLogger("bot.discord.rounds")

EVEN = 0.05  # adjudication by evaluation: seats within this share of the best share the win
PLAYED, ADJUDICATED, RECORDED, BYE, VOID = "played", "adjudicated", "recorded", "bye", "abandoned"
HOW_WORDS = {
    PLAYED: "played",
    ADJUDICATED: "adjudicated at the round's end",
    RECORDED: "recorded by a manager",
    BYE: "a bye",
    VOID: "abandoned (a draw)",
}
_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()


def ruling(values: Sequence[float]) -> tuple[float, ...]:
    """Shares of the win from an evaluation: the seats within EVEN of the best share the win equally."""
    best = max(values)
    top = [i for i, v in enumerate(values) if v >= best - EVEN]
    return tuple(1.0 / len(top) if i in top else 0.0 for i in range(len(values)))


def draw(seats: int) -> tuple[float, ...]:
    """Equal shares of the win."""
    return tuple(1.0 / seats for _ in range(seats))


def history_of(tables: Sequence[TableRecord], before: int) -> list[list[tournament.Game]]:
    """The rounds before `before` as bot.tournament plays them (rounds 1..before-1)."""
    rounds: list[list[tournament.Game]] = [[] for _ in range(before - 1)]
    for t in tables:
        if 1 <= t.round < before:
            rounds[t.round - 1].append(tournament.Game(t.players, t.points))
    return rounds


def names_of(entrants: Sequence[EntrantRecord]) -> dict[str, str]:
    """Each player's display name by key."""
    return {e.player: e.name for e in entrants}


class Rounds:
    """Moves tournaments on (stateless: everything is in the store; any number may exist at once)."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.store = services.store
        self.sessions = services.sessions
        self._tasks: set[asyncio.Task[Any]] = set()  # steps started by games' ends, until they finish

    # --- what drives it ----------------------------------------------------------------------------------
    async def tick(self, now: float) -> int:
        """Step every tournament of this process's shards that time may move on; how many moved."""
        moved = 0
        for t in await self.store.tournaments_to_run(shards=self.sessions.shards):
            if t.status == SIGNUP and now < t.starts_at:
                continue
            try:
                moved += await self.step(t.id, now)
            except (StoreUnavailable, DiskFull):
                raise
            except Exception:  # one tournament's failure never stops the others; the next check tries again
                log.exception("tournament %s could not move on", t.id)
        return moved

    async def on_event(self, event: SessionEvent) -> None:
        """A tournament game that ended moves its tournament on at once (the timers would, later)."""
        if event.kind not in (FINISHED, ABANDONED, BROKEN) or TOURNAMENT_OPTION not in event.info.options:
            return
        task = asyncio.get_running_loop().create_task(self._after_game(event.info.id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def stop(self) -> None:
        """Stop the steps under way (the bot is closing): each resumes from the store after the restart."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _after_game(self, match_id: int) -> None:
        """Step the tournament of a game that ended (a failure waits for the timers' next check)."""
        try:
            if (key := await self.store.table_of_match(match_id)) is not None:
                await self.step(key.tournament_id, self.sessions.clock())
        except Exception:
            log.exception("the tournament of match %s could not move on after it ended", match_id)

    async def step(self, tournament_id: int, now: float | None = None) -> int:
        """Do whatever is due for one tournament (see the module's steps); 1 if anything was, else 0."""
        lock = _locks.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            now = self.sessions.clock() if now is None else now
            t = await self.store.tournament(tournament_id)
            if t is None or t.status not in (SIGNUP, RUNNING):
                return 0
            if t.status == SIGNUP:
                return await self._begin(t, now)
            return await self._run(t, now)

    # --- the steps ---------------------------------------------------------------------------------------
    async def _begin(self, t: TournamentRecord, now: float) -> int:
        """Pair the first round at the start time, or cancel a sign-up of fewer than two."""
        if now < t.starts_at:
            return 0
        entrants = await self.store.entrants(t.id)
        if len(entrants) < 2:
            if await self.store.finish_tournament(t.id, CANCELLED, "fewer than two players signed up", now):
                await self._say(t, f"🏆 **{shown(t.name)}** is cancelled: fewer than two players signed up.")
                await self._redraw(t.id)
            return 1
        rounds = tournament.rounds_of(t.format, len(entrants), t.seats, t.rounds)
        if rounds != t.rounds:  # a round robin or a knockout counts its own rounds from the players
            await self.store.update_tournament(t.id, now, rounds=rounds)
            t = await self.store.tournament(t.id) or t
        await self._pair(t, 1, entrants, [], now)
        return 1

    async def _run(self, t: TournamentRecord, now: float) -> int:
        """Open what is unopened, announce, decide what is decided, and go on when the round is complete."""
        tables = await self.store.tables(t.id, t.round)
        entrants = await self.store.entrants(t.id)
        await self._open(t, tables, entrants)
        if t.announced < t.round and await self.sessions.claim(f"tournament:{t.id}:announce:{t.round}"):
            await self._announce(t, entrants)
            await self.store.update_tournament(t.id, now, announced=t.round)
        decided = await self._decide(t, await self.store.tables(t.id, t.round), now)
        tables = await self.store.tables(t.id, t.round)
        if any(x.points is None for x in tables):
            return decided
        everything = await self.store.tables(t.id)
        history = history_of(everything, t.round + 1)
        field = await self.field(t, entrants)
        if tournament.over(t.format, t.round, t.rounds, field, history):
            if await self.sessions.claim(f"tournament:{t.id}:final"):
                await self._post_standings(t, t.round, final=True)
                await self.store.finish_tournament(t.id, DONE, "", now)
                await self._redraw(t.id)
            return 1
        await self._pair(t, t.round + 1, entrants, history, now)
        return 1

    async def field(self, t: TournamentRecord, entrants: Sequence[EntrantRecord]) -> list[tournament.Entrant]:
        """The players as bot.tournament pairs and ranks them: each with their rating in the game on this
        server (an AI entrant: its level's), for seeding, and the round they dropped out before."""
        field = []
        for e in entrants:
            rated = player_of(e.user_id, e.ai)
            rows = [] if rated is None else await self.store.player_ratings(rated, (t.guild_id,), t.game_id)
            field.append(tournament.Entrant(e.player, rows[0].rating.ordinal if rows else 0.0, e.dropped))
        return field

    async def _pair(
        self,
        t: TournamentRecord,
        round_no: int,
        entrants: Sequence[EntrantRecord],
        history: list[list[tournament.Game]],
        now: float,
    ) -> None:
        """Pair a round and make it current (once, whoever races), then open its tables."""
        field = await self.field(t, entrants)
        game = games().get(t.game_id)
        least = game.min_players if game is not None else 2
        # A big field's Swiss matching takes a good part of a second: off the event loop.
        paired = await asyncio.to_thread(tournament.pair, t.format, round_no, field, history, t.seats, least)
        tables = [
            TableRecord(round_no, k, players, points=(tournament.BYE_POINTS,) if len(players) == 1 else None,
                        how=BYE if len(players) == 1 else "")
            for k, players in enumerate(paired, start=1)
        ]  # fmt: skip
        if not await self.store.save_round(t.id, round_no, tables, now + t.round_seconds, now):
            return  # paired already (another process, or a step before a restart)
        fresh = await self.store.tournament(t.id)
        if fresh is not None:
            await self._run(fresh, now)

    async def _open(
        self, t: TournamentRecord, tables: Sequence[TableRecord], entrants: Sequence[EntrantRecord]
    ) -> None:
        """Open each table of the round still without its thread or game (byes have neither)."""
        names = names_of(entrants)
        people = {e.player: e for e in entrants}
        for table in tables:
            if len(table.players) < 2 or table.points is not None:
                continue
            key = TableKey(t.id, table.round, table.table_no)
            if table.match_id is not None:  # dealt, or cut off between its insert and its deal
                with contextlib.suppress(SessionError):
                    info = await self.sessions.peek(table.match_id)
                    if info.status == LOBBY:
                        await self.sessions.deal_dealt(table.match_id)
                continue
            if not await self.sessions.claim(f"tournament:{t.id}:open:{table.round}:{table.table_no}"):
                continue
            thread_id = table.thread_id
            if thread_id is None:
                thread_id = await self._thread(t, table, names)
                if thread_id is None:
                    continue  # no thread could be made: said in the channel; tried again at the next check
                await self.store.set_table_thread(key, thread_id)
            seats = tuple(_seat(people[p]) for p in table.players)
            # The round's end, for its boards (a running tournament's round always has one).
            ends = {ROUND_ENDS: t.round_ends} if t.round_ends is not None else {}
            options = {**t.options, "clock": BANK, TABLE_POLICY: "forfeit", TOURNAMENT_OPTION: t.id, **ends}
            try:
                await self.sessions.deal_table(
                    thread_id, t.guild_id, t.game_id, seats, options, key, host=t.created_by
                )
            except SessionError as e:
                log.warning("tournament %s: table %s could not be dealt: %s", t.id, key, e)

    async def _thread(self, t: TournamentRecord, table: TableRecord, names: dict[str, str]) -> int | None:
        """A new public thread for a table's game in the tournament's channel; None if it cannot be made."""
        channel = await channel_of(self.services.client, t.channel_id)
        if not isinstance(channel, discord.TextChannel):
            log.warning("tournament %s: its channel %s is gone or not a text channel", t.id, t.channel_id)
            return None
        who = " v ".join(printable(names.get(p, p)) for p in table.players)
        title = f"🏆 {t.name} · R{table.round} · {who}"[:100]
        try:
            thread = await channel.create_thread(
                name=title, type=discord.ChannelType.public_thread, auto_archive_duration=10080
            )
        except discord.HTTPException as e:
            log.warning("tournament %s: no thread for table %s: %s", t.id, table.table_no, e)
            return None
        return thread.id

    async def _decide(self, t: TournamentRecord, tables: Sequence[TableRecord], now: float) -> int:
        """Score each table whose game ended; past the round's end, adjudicate the rest."""
        decided = 0
        over_time = t.round_ends is not None and now >= t.round_ends
        for table in tables:
            if table.points is not None:
                continue
            key = TableKey(t.id, table.round, table.table_no)
            n = len(table.players)
            info = None if table.match_id is None else await self._info(table.match_id)
            if info is not None and info.status == FINISHED:
                shares = await self.store.match_shares(info.id)
                decided += await self.store.set_points(key, shares or draw(n), PLAYED)
            elif info is not None and info.status in (ABANDONED, BROKEN):
                decided += await self.store.set_points(key, draw(n), VOID)
            elif over_time:
                shares = await self._adjudicate(t, info, n)
                decided += await self.store.set_points(key, shares, ADJUDICATED)
        return decided

    async def _info(self, match_id: int) -> MatchInfo | None:
        try:
            return await self.sessions.peek(match_id)
        except SessionError:
            return None

    async def _adjudicate(self, t: TournamentRecord, info: MatchInfo | None, n: int) -> tuple[float, ...]:
        """A running game at the round's end: ended by the tournament's rule (a draw, or the evaluation)."""
        if info is None or info.status != ACTIVE:
            return draw(n)
        shares = draw(n)
        how = "a draw"
        if t.adjudication == "ai":
            with contextlib.suppress(SessionError):
                shares = ruling(await self.sessions.evaluation(info.id))
                how = "the hard AI's evaluation of the position"
        note = f"The round's time ran out: adjudicated as {how}."
        try:
            await self.sessions.rule(info.id, shares, note)
        except SessionError as e:  # it ended meanwhile: its own result counts
            log.info("tournament %s: match %s ended before its adjudication: %s", t.id, info.id, e)
            after = await self.store.match_shares(info.id)
            return after or shares
        return shares

    # --- what is posted ----------------------------------------------------------------------------------
    async def _say(self, t: TournamentRecord, text: str, **kwargs: Any) -> None:
        """Post in the tournament's channel (a failure is logged: nobody waits on it)."""
        channel = await channel_of(self.services.client, t.channel_id)
        if channel is None:
            log.warning("tournament %s: its channel %s is gone", t.id, t.channel_id)
            return
        try:
            await channel.send(text, allowed_mentions=discord.AllowedMentions.none(), **kwargs)
        except discord.HTTPException as e:
            log.warning("tournament %s: could not post in %s: %s", t.id, t.channel_id, e)

    async def _redraw(self, tournament_id: int) -> None:
        """Redraw the tournament's message (its status and players)."""
        await redraw_message(self.services, tournament_id)

    async def _announce(self, t: TournamentRecord, entrants: Sequence[EntrantRecord]) -> None:
        """The round's tables, links to their threads and its end; the standings so far (after round 1)."""
        text = round_text(t, await self.store.tables(t.id, t.round), entrants)
        if t.round > 1:
            await self._post_standings(t, t.round - 1, final=False, text=text)
        else:
            await self._say(t, text)
        await self._redraw(t.id)

    async def _post_standings(self, t: TournamentRecord, upto: int, *, final: bool, text: str = "") -> None:
        """Post the standings after round `upto` (image and words) in the channel, after `text`."""
        words, file = await self.standings(t, upto, final=final)
        await self._say(t, "\n\n".join(x for x in (text, words) if x)[:2000], file=file)

    async def standings(self, t: TournamentRecord, upto: int, *, final: bool) -> tuple[str, discord.File]:
        """The standings after rounds 1..upto: their words, and the image (with its alt text) as a file."""
        entrants = await self.store.entrants(t.id)
        history = history_of(await self.store.tables(t.id), upto + 1)
        table = tournament.standings(t.format, await self.field(t, entrants), history, t.seats)
        names = names_of(entrants)
        after = "final standings" if final else f"standings after round {upto}" if upto else "players"
        title = f"{t.name} — {after}"
        subtitle = f"{title_of(t.game_id)} · {FORMAT_WORDS.get(t.format, t.format)} · {legend(t)}"
        columns, rows = standings_rows(t, table, names)
        theme = await self.services.settings.theme(t.guild_id)  # the server's boards' colours, as seasons
        png = await asyncio.to_thread(standings_image, title, subtitle, columns, rows, theme)
        alt = standings_alt(title, subtitle, columns, rows)
        file = discord.File(io.BytesIO(png), filename="standings.png", description=alt)
        return standings_words(t, table, names, final=final), file


def _seat(e: EntrantRecord) -> Seat:
    """A player's seat at a table: the person, or an AI entrant of its level."""
    if e.ai is not None:
        return Seat(None, e.ai, e.name)
    return Seat(e.user_id, None, e.name)
