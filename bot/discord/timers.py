"""Asynchronous play: reminders, the turn-timeout policy (skip, AI, forfeit), response windows that pass by
themselves, and idle lobbies closing.

Deadlines live in the database (`matches.deadline`), so this survives restarts. The session manager writes
a new position's first deadline with the move itself (`deadline_for`): the earlier of the first reminder
and the moment the turn runs out, and for a response window (the game's Status.window) of a `live` table
the server's `response_wait` after it opened if that is sooner (an `async` table's window waits like a
turn: see bot/discord/prefs.py). When a turn runs out depends on the table's clock (`turn_clock`): per move,
the server's `timeout` after the position arose; with a bank clock (bot/sessions/clock.py), the moment the
first bank of the people it waits on is empty, whatever the server's timeout; the policy then meets only
those whose bank is empty (`out_of_time`).

A background loop asks `sessions.overdue()`: a live window still open past its wait is passed for the
people it waits for (the game's `present.skip`, as the "skip" policy plays); past the turn's end it applies
the policy; otherwise it sends a reminder (in the channel, and by direct message to those who chose
`/notify on`) and moves the deadline to the next reminder or the turn's end. The wait of a
window is the same for every window, whatever anyone holds: it tells nobody anything. Reminders come every
`reminder` seconds, at most `reminders` a turn, and never in the server's quiet hours (one due then waits
until they end). Lobbies unchanged for `lobby_expiry` seconds close. The loop checks every `interval`
seconds, or sooner when a stored deadline falls due sooner. The clock comes from the session manager;
`tick(now)` runs one check.

Time away (bot/discord/away.py) stops a turn's clock: `clock_start` is when the turn counts from, the later
of its start and the return of the people it waits on; while they are all away the deadline is the moment
the first is back (no reminder, no timeout before), and reminders and timeouts leave out whoever is away.

With several bot processes on one database (`run --shards`), each handles only the matches and lobbies of
its own shards' guilds, and claims in the database what must happen once (a timeout firing, a lobby
closing) before doing it; each check also resumes the AI moves whose claim a dead process left behind,
and now and then forgets claims whose lease has ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

import discord

from bot.discord.away import first_back
from bot.discord.budget import yielding
from bot.discord.common import (
    MIN_LOBBY_EXPIRY,
    POLICY_WORDS,
    GuildSettings,
    StaticView,
    reclaim_button,
    seat_names,
    unarchived,
    with_names,
)
from bot.discord.lobby import close_lobby_message
from bot.discord.mine import board_link
from bot.discord.prefs import LIVE, clock_words, pace_of
from bot.ops import tagged
from bot.sessions import MatchBroken, MatchInfo, SessionError
from bot.store import ACTIVE, DiskFull, MatchSummary, StoreUnavailable, outage_backoff
from engine.core import Event, PlayerId

if TYPE_CHECKING:
    from bot.discord.app import AgoraBot

log = logging.getLogger("bot.discord.timers")

DM_SETTING = "dm"  # a person's /notify choice, in the store's user settings
MIN_PAUSE = 1.0  # the loop never checks more often than this (seconds), even when a deadline is overdue
LATE = 0.05  # the loop wakes this long after a deadline, so that the deadline has passed by its clock
RETRY = 300.0  # a timer that failed (Discord or the database refused) is tried again this much later
PRUNE_EVERY = 600.0  # with other processes: how often (seconds) claims whose lease ended are forgotten
_KNOWN: dict[int, GuildSettings] = {}  # the settings of the guilds the running bot has read (deadline_line)


def turn_clock(info: MatchInfo, settings: GuildSettings) -> tuple[float, float | None]:
    """When the wait for the current position began, and when it runs out (None: never): the server's turn
    timeout after it began, or at a bank table the moment the first bank of the people it waits on runs
    out (bot/sessions/clock.py)."""
    if info.banks is not None:
        return info.banks.since, info.banks.runs_out()
    since = info.updated_at
    return since, since + settings.timeout if settings.timeout else None


def after_away(since: float, end: float | None, back: float | None) -> tuple[float, float | None]:
    """A wait's start and end moved on by the time away at its start: it counts from `back` (when the people
    it waits on are back, bot/discord/away.py) if that is later."""
    if back is None or back <= since:
        return since, end
    return back, None if end is None else end + (back - since)


def out_of_time(info: MatchInfo, now: float) -> tuple[PlayerId, ...]:
    """The seats whose time has run out once the turn has: everyone to act, or at a bank table those
    whose bank is empty."""
    return info.to_act if info.banks is None else info.banks.out_of_time(now)


def reminder_times(since: float, end: float | None, settings: GuildSettings) -> Iterator[float]:
    """When the reminders of a wait that began at `since` and runs out at `end` are due: every interval, at
    most the number set, before the end, each moved out of the quiet hours."""
    if not settings.reminder or settings.reminders <= 0:
        return
    for k in range(1, settings.reminders + 1):
        at = settings.after_quiet(since + k * settings.reminder)
        if end is not None and at >= end:
            return
        yield at


def next_deadline(
    since: float, end: float | None, after: float, settings: GuildSettings, window: bool = False
) -> float | None:
    """The first moment later than `after` when a wait that began at `since` and runs out at `end` needs
    the timers: a reminder, the end (at once if it is past), or (for a response window) the end of its
    wait; None if nothing is left."""
    times = [t for t in reminder_times(since, end, settings) if t > after]
    if end is not None:
        times.append(max(end, after))
    if window and settings.response_wait and since + settings.response_wait > after:
        times.append(since + settings.response_wait)
    return min(times) if times else None


def counts_from(info: MatchInfo, settings: GuildSettings, back: float) -> float:
    """When the turn's clock counts from (Timers.clock_start), given when the first of the people it waits on
    is back from time away (`back`)."""
    if info.guild_id is None or passes_by_itself(info, settings):
        return info.updated_at
    return max(info.updated_at, back)


def next_wait(info: MatchInfo, settings: GuildSettings, back: float, after: float) -> float | None:
    """The first moment after `after` when the current wait needs the timers (next_deadline), or the return
    of the people it waits on while they are all away (`back`, see counts_from)."""
    since, end = after_away(*turn_clock(info, settings), counts_from(info, settings, back))
    if since > after:
        return since
    return next_deadline(since, end, after, settings, passes_by_itself(info, settings))


def pause_for(now: float, earliest: float | None, interval: float) -> float:
    """How long the loop sleeps: the interval, or until just after the earliest deadline when that is
    sooner, but never less than MIN_PAUSE (an overdue deadline never makes it spin)."""
    wait = interval if earliest is None else min(interval, earliest - now + LATE)
    return max(MIN_PAUSE, wait)


def _known(info: MatchInfo) -> GuildSettings | None:
    """The settings of the match's server as the running bot last read them (None: not read yet)."""
    return _KNOWN.get(info.guild_id) if info.guild_id is not None else None


def passes_by_itself(info: MatchInfo, settings: GuildSettings) -> bool:
    """Whether the open response window passes by itself after the server's wait: a `live` table's does;
    an `async` table's waits like a turn."""
    return bool(info.window and settings.response_wait and pace_of(info, settings) == LIVE)


def windows_wait(info: MatchInfo) -> bool:
    """Whether the table's response windows wait for their answer like a turn (an async table, or a server
    whose windows never pass by themselves), with the server's settings as the running bot last read them."""
    settings = _known(info) or GuildSettings()
    return not (settings.response_wait and pace_of(info, settings) == LIVE)


def pass_time(info: MatchInfo) -> float | None:
    """When the open response window passes by itself (None: no window, an async table, or the server
    never passes)."""
    settings = _known(info)
    if settings is None or info.status != ACTIVE or not passes_by_itself(info, settings):
        return None
    assert settings.response_wait is not None
    return info.updated_at + settings.response_wait


def table_pace(info: MatchInfo) -> str:
    """The table's pace in words for the board ("live pace: windows pass by themselves")."""
    if pace_of(info, _known(info) or GuildSettings()) == LIVE:
        return "live pace: response windows pass by themselves"
    return "async pace: response windows wait like a turn"


def bank_words(seconds: float) -> str:
    """A bank in days and hours, rounded down ("2 d 4 h", "3 d", "5 h", "40 min")."""
    days, rest = divmod(int(max(0.0, seconds)) // 60, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return f"{days} d" + (f" {hours} h" if hours else "")
    return f"{hours} h" if hours else f"{minutes} min"


def banks_line(info: MatchInfo) -> str:
    """Each person's bank when the current position arose ("⏳ Banks: Ada 2 d 4 h · Bob 3 d"); "" at a
    per-move table."""
    if info.banks is None:
        return ""
    names = seat_names(info)
    left = [f"{names[i]} {bank_words(info.banks.left[i])}" for i, s in enumerate(info.seats) if not s.is_ai]
    return "⏳ Banks: " + " · ".join(left)


def table_clock(info: MatchInfo) -> str:
    """The table's clock in words for the lobby (see bot/discord/prefs.py clock_words)."""
    return clock_words(info, _known(info) or GuildSettings())


def deadline_line(info: MatchInfo, since: float | None = None) -> str:
    """The board's lines for when a response window passes by itself and when the turn runs out (the
    server's timeout, or the bank of the one to act), as Discord timestamps, and a bank table's banks (""
    without any); `since`: when the wait's clock counts from after time away, if later than its start."""
    settings = _known(info)
    if settings is None or info.status != ACTIVE or not info.users_to_act:
        return ""
    lines = [banks_line(info)] if info.banks is not None else []
    if (at := pass_time(info)) is not None:
        lines.append(f"⏳ The {info.window} passes by itself <t:{int(at)}:R> unless answered")
    _, end = after_away(*turn_clock(info, settings), since)
    if end is not None:
        whose = "Time runs out"
        if info.banks is not None and (first := info.banks.first()) is not None:
            whose = f"{seat_names(info)[first]}'s bank runs out"
        what = f"the {info.window} passes" if info.window else POLICY_WORDS[settings.policy]
        lines.append(f"⏳ {whose} <t:{int(end)}:R> ({what})")
    return "\n".join(lines)


def _public(events: tuple[Event, ...]) -> list[Event]:
    """The events everyone may read (a skipped move's own words, never a secret it chose)."""
    return [e for e in events if e.visible(None)]


class Timers:
    """Turn reminders and timeouts for every guild, driven by deadlines stored with the match."""

    def __init__(self, bot: AgoraBot, interval: float = 30.0) -> None:
        self.bot = bot
        self.interval = interval
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()  # set when a deadline is handed out sooner than the loop will wake
        self._wake_at = float("inf")  # when the sleeping loop wakes (by the sessions' clock)
        self._handed: float | None = None  # the earliest deadline handed out since the loop last planned
        self._next_prune = 0.0  # when claims whose lease ended are next forgotten (with other processes)
        self._next_resume = 0.0  # when AI moves left by a dead process are next looked for (the same)
        _KNOWN.clear()  # one bot per process: what an earlier one read may be out of date

    def start(self) -> None:
        """Start the background loop (interval <= 0: never; tests call tick themselves)."""
        if self.interval > 0 and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._loop(), name="agora-timers")

    async def stop(self) -> None:
        """Stop the loop."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _loop(self) -> None:
        backoff = 0.0
        while True:
            self._wake_at = float("inf")  # until the next pause is planned, every deadline handed out counts
            try:
                await self.tick()
                backoff = 0.0
            except asyncio.CancelledError:
                raise
            except (StoreUnavailable, DiskFull):  # logged once per outage by the store: try again later
                backoff = outage_backoff(backoff)
                await asyncio.sleep(backoff)
                continue
            except Exception:
                log.exception("timer check failed")
            await self._pause()

    async def _pause(self) -> None:
        """Sleep until the next check (see pause_for); a sooner deadline handed out meanwhile wakes us."""
        self._wake.clear()
        handed, self._handed = self._handed, None  # may not be in the store yet: it is written with its move
        try:
            stored = await self.bot.sessions.store.earliest_deadline(shards=self.bot.sessions.shards)
        except (StoreUnavailable, DiskFull):  # an outage: the next tick backs off
            stored = None
        except Exception:
            log.exception("could not read the earliest deadline")
            stored = None
        known = [t for t in (stored, handed) if t is not None]
        now = self.bot.sessions.clock()
        wait = pause_for(now, min(known) if known else None, self.interval)
        self._wake_at = now + wait
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), wait)

    async def settings(self, guild_id: int | None) -> GuildSettings:
        """A server's settings (the defaults outside a server), remembered for the board's deadline line."""
        if guild_id is None:
            return GuildSettings()
        settings = _KNOWN[guild_id] = await self.bot.settings(guild_id)
        return settings

    async def deadline_for(self, info: MatchInfo) -> float | None:
        """The first deadline of a new position, or None (see deadlines)."""
        return (await self.deadlines(info, info.users_to_act))(info)

    async def deadlines(self, info: MatchInfo, people: Iterable[int]) -> Callable[[MatchInfo], float | None]:
        """The first deadline of a new position of this match (None: none), as a function of that position,
        with the server's settings and these people's time away read first: the session manager calls it
        holding the match's lock, so it reads nothing (bot/sessions/hooks.py). The loop wakes for a
        deadline due before it would."""
        gid = info.guild_id
        settings = await self.settings(gid)
        stays = {u: await self.bot.away.stay(gid, u) for u in people} if gid and settings.away_days else {}

        def deadline_for(after: MatchInfo) -> float | None:
            if after.status != ACTIVE or not after.users_to_act or after.guild_id is None:
                return None
            back = first_back(stays.get(u) for u in after.users_to_act)
            deadline = next_wait(after, settings, back, after.updated_at)
            if deadline is not None and deadline < self._wake_at:
                self._handed = deadline if self._handed is None else min(self._handed, deadline)
                self._wake.set()
            return deadline

        return deadline_for

    async def clock(self, info: MatchInfo, settings: GuildSettings) -> tuple[float, float | None]:
        """When the current wait counts from and when it runs out (None: never): the table's clock (a turn
        timeout, or a bank: turn_clock), moved on by the time away at its start (clock_start)."""
        since, end = turn_clock(info, settings)
        return after_away(since, end, await self.clock_start(info, settings))

    async def clock_start(self, info: MatchInfo, settings: GuildSettings) -> float:
        """When the turn's clock counts from: its start, or the return from time away of the people it waits
        on (the first of them back) if later, in the future while they are all away. A live response window
        ignores time away: it passes by itself."""
        return counts_from(info, settings, await self._back(info, settings))

    async def _back(self, info: MatchInfo, settings: GuildSettings) -> float:
        """When the first of the people the match waits on is (or was) back from time away (0: never away)."""
        return (
            0.0
            if info.guild_id is None
            else await self.bot.away.back_at(info.guild_id, info.users_to_act, settings)
        )

    async def away_now(self, info: MatchInfo) -> set[int]:
        """The people the match waits on who are away now: neither reminded nor timed out."""
        if info.guild_id is None:
            return set()
        settings = await self.settings(info.guild_id)
        return {u for u in info.users_to_act if await self.bot.away.running(info.guild_id, u, settings)}

    async def rearm(self, info: MatchInfo) -> None:
        """Set a running match's next deadline again after someone it waits on went away or came back (a
        deadline already due is left to the loop, which reads the new state)."""
        settings = await self.settings(info.guild_id)
        now = self.bot.sessions.clock()
        if info.status != ACTIVE or not info.users_to_act:
            return
        if info.deadline is not None and info.deadline <= now:
            return
        await self.bot.sessions.set_deadline(info.id, await self._next(info, settings, now))

    async def _next(self, info: MatchInfo, settings: GuildSettings, after: float) -> float | None:
        """The first moment after `after` when the current wait needs the timers (next_deadline), or the
        return of the people it waits on while they are all away."""
        return next_wait(info, settings, await self._back(info, settings), after)

    async def turn_changed(self, info: MatchInfo) -> None:
        """Set the next deadline after a change (the session manager now writes it with the move itself)."""
        deadline = await self.deadline_for(info)
        if deadline is not None:
            await self.bot.sessions.store.set_deadline(info.id, deadline)

    async def tick(self, now: float | None = None) -> int:
        """Handle every overdue match and every idle lobby (of this process's shards) once; the number
        handled."""
        sessions = self.bot.sessions
        now = sessions.clock() if now is None else now
        await self._share(now)
        due = await sessions.overdue(now)
        for summary in due:
            try:
                with tagged(summary.id, summary.guild_id):
                    await self._handle(summary, now)
            except MatchBroken as e:  # stopped for good: its players were told when it was found
                log.warning("timer of match %s: the match is damaged (%s); no more timers", summary.id, e)
                await sessions.store.set_deadline(summary.id, None)
            except (StoreUnavailable, DiskFull):  # the deadline stays; the loop backs off
                raise
            except Exception:  # never drop a deadline for a failure of the moment: try again later
                log.exception("timer of match %s failed; trying again in %.0f s", summary.id, RETRY)
                with contextlib.suppress(Exception):
                    await sessions.store.set_deadline(summary.id, now + RETRY)
        await self._returns(now)
        return len(due) + await self._expire_lobbies(now)

    async def _returns(self, now: float) -> None:
        """Redraw the games of the people whose time away ended by itself (their boards drop the line)."""
        from bot.discord.away import redraw_games  # away imports the lobby, which imports this module

        for guild_id, user_id in await self.bot.away.ended(now):
            try:
                await redraw_games(self.bot, guild_id, user_id)
            except (StoreUnavailable, DiskFull):
                raise
            except Exception:
                log.exception("could not redraw the games of %s after their time away", user_id)

    async def _share(self, now: float) -> None:
        """With other processes on the database: resume the AI moves of our guilds whose claim ran out (its
        process died; looked for every third of a lease), and now and then forget the claims whose lease
        has ended."""
        sessions = self.bot.sessions
        if sessions.owner is None:
            return
        if now >= self._next_resume:
            self._next_resume = now + sessions.claim_lease / 3
            await sessions.recover()
        if now >= self._next_prune:
            self._next_prune = now + PRUNE_EVERY
            pruned = await sessions.store.prune_claims(now)
            log.debug("forgot %d claims whose lease ended", pruned)

    async def _handle(self, s: MatchSummary, now: float) -> None:
        settings = await self.settings(s.guild_id)
        info = await self.bot.sessions.get(s.id)
        store = self.bot.sessions.store
        if info.status != ACTIVE or not info.users_to_act:
            await store.set_deadline(s.id, None)
            return
        since, end = await self.clock(info, settings)  # time away stops the clock (bot/discord/away.py)
        window = passes_by_itself(info, settings)
        if window and settings.response_wait and now - since >= settings.response_wait:
            await self._let_pass(info)
            after = await self.bot.sessions.get(s.id)
            if (after.state_id, after.seats) == (info.state_id, info.seats):  # not passed: on as a turn
                await self.bot.sessions.set_deadline(s.id, next_deadline(since, end, now, settings))
            return
        if since > now:  # everyone it waits on is away: nothing fires before the first of them is back
            await self.bot.sessions.set_deadline(s.id, since)
            return
        if end is not None and now >= end:
            if not await self.bot.sessions.claim(f"timeout:{s.id}:{info.state_id}"):
                return  # another process fires this timeout (or has fired it)
            if info.window:  # a response window's timeout is a pass, whatever the policy for turns
                await self._let_pass(info)
            else:
                await self._timeout(info, settings.policy, out_of_time(info, now))
            after = await self.bot.sessions.get(s.id)
            if (after.state_id, after.seats) == (info.state_id, info.seats):  # nothing changed: don't retry
                await store.set_deadline(s.id, None)
            return
        if any(t <= now for t in reminder_times(since, end, settings)) and not settings.is_quiet(now):
            await self._remind(info, now, since, end)
        await self.bot.sessions.set_deadline(s.id, next_deadline(since, end, now, settings, window))

    async def _let_pass(self, info: MatchInfo) -> None:
        """Pass a response window for each person it still waits for (the game's `present.skip`, one move
        each), and say so in one line each under the board."""
        sessions = self.bot.sessions
        names = seat_names(info)
        said: list[str] = []
        for seat in info.to_act:
            current = await sessions.get(info.id)
            if not current.window or seat not in current.to_act or current.seats[seat].is_ai:
                continue
            try:
                played = await sessions.skip_turn(info.id, seat, state_id=current.state_id, limit=1)
            except SessionError as e:
                log.warning("match %s: could not pass the window for seat %s: %s", info.id, seat, e)
                continue
            if played:
                said.append(f"⏳ {names[seat]} let the {current.window} pass.")
        if said:  # in the board's last events: a window never posts a message of its own
            (await self.bot.boards.recent_for(info.id)).extend(said)
            self.bot.boards.schedule(info.id)

    async def _remind(self, info: MatchInfo, now: float, since: float, end: float | None) -> None:
        away = await self.away_now(info)  # not reminded
        users = tuple(u for u in info.users_to_act if u not in away)
        waited = now - since
        hours = waited / 3600
        span = (
            f"{hours:.0f} hour{'s' if round(hours) != 1 else ''}" if hours >= 1 else f"{waited / 60:.0f} min"
        )
        left = f" Time runs out <t:{int(end)}:R>." if end is not None else ""
        mentions = " ".join(f"<@{u}>" for u in users)
        await self._say(
            info,
            f"⏰ {mentions} — reminder: {info.title} game #{info.id} has been waiting for you for {span}."
            f"{left} Press **My hand & moves** on the latest board.",
        )
        where = f" in <#{info.channel_id}>" if info.channel_id else ""
        link = await board_link(self.bot.sessions.store, info.guild_id, info.channel_id, info.id)
        board = f" The board: {link}" if link else ""
        await self.direct(
            users,
            f"⏰ Reminder: {info.title} game #{info.id}{where} has waited for your move for {span}.{left}"
            f"{board}",
        )

    async def _say(self, info: MatchInfo, text: str, view: StaticView | None = None) -> bool:
        """Post in the game's channel (unarchiving its thread if need be); a refusal is logged in one line and
        never stops the timer that asked (the deadline stays). Whether it was posted."""
        try:
            channel = await self.bot.channel(info.channel_id) if info.channel_id else None
            if channel is None:
                return False
            kwargs = {"view": view} if view is not None else {}
            with yielding():  # a reminder waits while boards wait for Discord's global limit
                await unarchived(channel, lambda: channel.send(text, **kwargs))
        except discord.HTTPException as e:
            log.warning("match %s: could not post in channel %s: %s", info.id, info.channel_id, e)
            return False
        return True

    async def direct(self, users: tuple[int, ...], text: str) -> list[int]:
        """Send a direct message to those of these people who asked for them (/notify on); who got it."""
        store = self.bot.sessions.store
        sent = []
        for user_id in users:
            if not await store.user_setting(user_id, DM_SETTING):
                continue
            try:
                with yielding():  # a direct message waits while boards wait for Discord's global limit
                    user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
                    await user.send(text)
            except discord.HTTPException as e:  # DMs closed, or the person left Discord
                log.info("could not send a direct message to %s: %s", user_id, e)
            else:
                sent.append(user_id)
        return sent

    async def _timeout(self, info: MatchInfo, policy: str, seats: tuple[PlayerId, ...]) -> None:
        """Apply the server's timeout policy to these seats (those out of time) and say so."""
        sessions = self.bot.sessions
        names = seat_names(info)
        said: list[str] = []
        yours: dict[int, str] = {}  # the direct message to a person whose seat an AI took, in their words
        away = await self.away_now(info)
        for seat in seats:
            user = info.seats[seat].user_id
            if user is None or info.seats[seat].is_ai or user in away:
                continue
            name = names[seat]
            try:
                if policy == "skip":
                    played = await sessions.skip_turn(info.id, seat)
                    what = [
                        with_names(info, public[0].text)
                        for _, events in played
                        if (public := _public(events))
                    ]
                    said.append(
                        f"⏰ {name} ran out of time: the turn was skipped"
                        + (f" ({'; '.join(what)})." if what else ".")
                    )
                elif policy == "forfeit":
                    ended = await sessions.forfeit(info.id, user, "out of time")
                    said.append(f"⌛ {ended.note}")  # "bob forfeited (out of time); alice wins."
                    break
                else:
                    level = (await self.settings(info.guild_id)).takeover_level  # /config timeout_ai_level
                    stand_in = seat_names(await sessions.leave(info.id, user, level=level))[seat]
                    said.append(
                        f"⌛ {name} ran out of time: an AI plays the seat from now on as **{stand_in}** "
                        f"(a loss for them unless <@{user}> presses **Take my seat back**)."
                    )
                    yours[user] = (
                        f"⌛ You ran out of time: an AI plays your seat from now on as **{stand_in}** "
                        "(a loss for you unless you press **Take my seat back** in the game's channel)."
                    )
            except SessionError as e:
                log.warning("match %s: timeout policy %s for seat %s refused: %s", info.id, policy, seat, e)
        if not said:
            return
        await self._say(info, "\n".join(said), view=reclaim_button(info.id) if yours else None)
        for user in info.users_to_act:
            await self.direct((user,), f"{info.title} game #{info.id}: {yours.get(user, ' '.join(said))}")

    async def _expire_lobbies(self, now: float) -> int:
        """Close the lobbies nobody has touched for their server's lobby lifetime; how many closed."""
        closed = 0
        sessions = self.bot.sessions
        for lobby in await sessions.store.idle_lobbies(now - MIN_LOBBY_EXPIRY, shards=sessions.shards):
            settings = await self.settings(lobby.guild_id)
            if not settings.lobby_expiry or now - lobby.updated_at < settings.lobby_expiry:
                continue
            if not await sessions.claim(f"lobby:{lobby.id}"):
                continue  # another process closes it
            hours = settings.lobby_expiry / 3600
            plural = "s" if hours != 1 else ""
            note = f"This lobby expired: nobody started the game within {hours:g} hour{plural}."
            try:
                info = await sessions.expire_lobby(lobby.id, note)
            except SessionError as e:
                log.warning("lobby %s could not expire: %s", lobby.id, e)
                continue
            if info is not None:
                closed += 1
                await close_lobby_message(self.bot, info)
        return closed
