"""Asynchronous play: reminders, the turn-timeout policy (skip, AI, forfeit), response windows that pass by
themselves, and idle lobbies closing.

Deadlines live in the database (`matches.deadline`), so this survives restarts. The session manager writes
a new position's first deadline with the move itself (`deadline_for`, computed by bot/discord/settings.py
from the settings cache and the match alone): the earlier of the first reminder
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
`tick(now)` runs one check. The timers also redraw a person's games when their time away begins or ends
(`redraw_games`, `back_from_away`), and give a seat handed to an AI its next deadline (`on_event`).

Time away (bot/discord/away.py) stops a turn's clock: `Settings.clock_start` is when the turn counts from,
the later of its start and the return of the people it waits on; while they are all away the deadline is the
moment the first is back (no reminder, no timeout before), and reminders and timeouts leave out whoever is
away.

With several bot processes on one database (`run --shards`), each handles only the matches and lobbies of
its own shards' guilds, and claims in the database what must happen once (a timeout firing, a lobby
closing) before doing it; each check also resumes the AI moves whose claim a dead process left behind,
and now and then forgets claims whose lease has ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable

import discord

from bot.discord.away import Away
from bot.discord.board import Boards
from bot.discord.budget import yielding
from bot.discord.common import (
    MIN_LOBBY_EXPIRY,
    StaticView,
    board_link,
    channel_of,
    direct,
    policy_of,
    seat_names,
    unarchived,
    with_names,
)
from bot.discord.lobby import close_lobby_message, redraw_lobby_message
from bot.discord.services import ReclaimButton
from bot.discord.settings import Settings, next_deadline, passes_by_itself, reminder_times
from bot.ops import tagged
from bot.sessions import MatchBroken, MatchInfo, SessionError, SessionEvent, SessionManager
from bot.store import ACTIVE, LOBBY, DiskFull, MatchSummary, StoreUnavailable, outage_backoff
from engine.core import Event, PlayerId

log = logging.getLogger("bot.discord.timers")

MIN_PAUSE = 1.0  # the loop never checks more often than this (seconds), even when a deadline is overdue
LATE = 0.05  # the loop wakes this long after a deadline, so that the deadline has passed by its clock
RETRY = 300.0  # a timer that failed (Discord or the database refused) is tried again this much later
PRUNE_EVERY = 600.0  # with other processes: how often (seconds) claims whose lease ended are forgotten


def out_of_time(info: MatchInfo, now: float) -> tuple[PlayerId, ...]:
    """The seats whose time has run out once the turn has: everyone to act, or at a bank table those
    whose bank is empty."""
    return info.to_act if info.banks is None else info.banks.out_of_time(now)


def pause_for(now: float, earliest: float | None, interval: float) -> float:
    """How long the loop sleeps: the interval, or until just after the earliest deadline when that is
    sooner, but never less than MIN_PAUSE (an overdue deadline never makes it spin)."""
    wait = interval if earliest is None else min(interval, earliest - now + LATE)
    return max(MIN_PAUSE, wait)


def _public(events: tuple[Event, ...]) -> list[Event]:
    """The events everyone may read (a skipped move's own words, never a secret it chose)."""
    return [e for e in events if e.visible(None)]


class Timers:
    """Turn reminders and timeouts for every guild, driven by deadlines stored with the match."""

    def __init__(
        self,
        client: discord.Client,
        sessions: SessionManager,
        settings: Settings,
        away: Away,
        boards: Boards,
        interval: float = 30.0,
    ) -> None:
        self.client, self.sessions, self.settings, self.away, self.boards = (
            client,
            sessions,
            settings,
            away,
            boards,
        )
        self.store = sessions.store
        self.interval = interval
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()  # set when a deadline is handed out sooner than the loop will wake
        self._wake_at = float("inf")  # when the sleeping loop wakes (by the sessions' clock)
        self._handed: float | None = None  # the earliest deadline handed out since the loop last planned
        self._next_prune = 0.0  # when claims whose lease ended are next forgotten (with other processes)
        self._next_resume = 0.0  # when AI moves left by a dead process are next looked for (the same)
        # Other work that comes due with time (a season's end, a tournament's round): each is called with
        # the check's time on every check and returns how many things it handled.
        self.also: list[Callable[[float], Awaitable[int]]] = []

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
            stored = await self.store.earliest_deadline(shards=self.sessions.shards)
        except (StoreUnavailable, DiskFull):  # an outage: the next tick backs off
            stored = None
        except Exception:
            log.exception("could not read the earliest deadline")
            stored = None
        known = [t for t in (stored, handed) if t is not None]
        now = self.sessions.clock()
        wait = pause_for(now, min(known) if known else None, self.interval)
        self._wake_at = now + wait
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), wait)

    async def deadline_for(self, info: MatchInfo) -> float | None:
        """The first deadline of a new position, or None (see deadlines)."""
        return (await self.deadlines(info, info.users_to_act))(info)

    async def deadlines(self, info: MatchInfo, people: Iterable[int]) -> Callable[[MatchInfo], float | None]:
        """Settings.deadlines, and the loop wakes for a deadline due before it would: the session manager
        calls the function holding the match's lock, so it reads nothing (bot/sessions/hooks.py)."""
        first = await self.settings.deadlines(info, people)

        def deadline_for(after: MatchInfo) -> float | None:
            deadline = first(after)
            if deadline is not None and deadline < self._wake_at:
                self._handed = deadline if self._handed is None else min(self._handed, deadline)
                self._wake.set()
            return deadline

        return deadline_for

    async def away_now(self, info: MatchInfo) -> set[int]:
        """The people the match waits on who are away now: neither reminded nor timed out."""
        if info.guild_id is None:
            return set()
        settings = await self.settings.of(info.guild_id)
        return {u for u in info.users_to_act if await self.away.running(info.guild_id, u, settings)}

    async def rearm(self, info: MatchInfo) -> None:
        """Set a running match's next deadline again after someone it waits on went away or came back (a
        deadline already due is left to the loop, which reads the new state)."""
        settings = await self.settings.of(info.guild_id)
        now = self.sessions.clock()
        if info.status != ACTIVE or not info.users_to_act:
            return
        if info.deadline is not None and info.deadline <= now:
            return
        await self.sessions.set_deadline(info.id, await self.settings.next(info, settings, now))

    async def on_event(self, event: SessionEvent) -> None:
        """Session subscriber: a seat handed to an AI (no move, so no deadline was written) gets its next
        deadline."""
        info = event.info
        if event.kind == "left" and info.origin == "discord" and info.channel_id is not None:
            await self.turn_changed(info)

    async def redraw_games(self, guild_id: int, user_id: int) -> None:
        """After someone went away or came back: edit the boards and lobbies of their games on the server, and
        set again the deadline of those that wait on them."""
        for m in await self.store.user_matches(guild_id, user_id, (ACTIVE, LOBBY)):
            info = await self.sessions.get(m.id)
            if info.status == LOBBY:
                await redraw_lobby_message(self.client, self.settings, info)
                continue
            self.boards.schedule(m.id)
            if user_id in info.users_to_act:
                await self.rearm(info)

    async def back_from_away(self, guild_id: int, user_id: int) -> None:
        """A button of a game of this server was pressed: the presser's time away there ends (if any)."""
        try:
            if await self.away.running(guild_id, user_id, await self.settings.of(guild_id)) is None:
                return
            if await self.away.end(guild_id, user_id) is not None:
                await self.redraw_games(guild_id, user_id)
        except (StoreUnavailable, DiskFull):  # the press is answered that the database is out
            raise
        except Exception:  # the press itself goes on
            log.exception("could not end the time away of %s on guild %s", user_id, guild_id)

    async def turn_changed(self, info: MatchInfo) -> None:
        """Set the next deadline after a change (the session manager now writes it with the move itself)."""
        deadline = await self.deadline_for(info)
        if deadline is not None:
            await self.store.set_deadline(info.id, deadline)

    async def tick(self, now: float | None = None) -> int:
        """Handle every overdue match and every idle lobby (of this process's shards) once; the number
        handled."""
        sessions = self.sessions
        now = sessions.clock() if now is None else now
        await self._share(now)
        due = await sessions.overdue(now)
        for summary in due:
            try:
                with tagged(summary.id, summary.guild_id):
                    await self._handle(summary, now)
            except MatchBroken as e:  # stopped for good: its players were told when it was found
                log.warning("timer of match %s: the match is damaged (%s); no more timers", summary.id, e)
                await self.store.set_deadline(summary.id, None)
            except (StoreUnavailable, DiskFull):  # the deadline stays; the loop backs off
                raise
            except Exception:  # never drop a deadline for a failure of the moment: try again later
                log.exception("timer of match %s failed; trying again in %.0f s", summary.id, RETRY)
                with contextlib.suppress(Exception):
                    await self.store.set_deadline(summary.id, now + RETRY)
        await self._returns(now)
        handled = len(due) + await self._expire_lobbies(now)
        for work in self.also:
            try:
                handled += await work(now)
            except (StoreUnavailable, DiskFull):
                raise
            except Exception:  # one failing piece of work never stops the others: the next check tries again
                log.exception("timer work %s failed", getattr(work, "__qualname__", work))
        return handled

    async def _returns(self, now: float) -> None:
        """Redraw the games of the people whose time away ended by itself (their boards drop the line)."""
        for guild_id, user_id in await self.away.ended(now):
            try:
                await self.redraw_games(guild_id, user_id)
            except (StoreUnavailable, DiskFull):
                raise
            except Exception:
                log.exception("could not redraw the games of %s after their time away", user_id)

    async def _share(self, now: float) -> None:
        """With other processes on the database: resume the AI moves of our guilds whose claim ran out (its
        process died; looked for every third of a lease), and now and then forget the claims whose lease
        has ended."""
        sessions = self.sessions
        if sessions.owner is None:
            return
        if now >= self._next_resume:
            self._next_resume = now + sessions.claim_lease / 3
            await sessions.recover()
        if now >= self._next_prune:
            self._next_prune = now + PRUNE_EVERY
            pruned = await self.store.prune_claims(now)
            log.debug("forgot %d claims whose lease ended", pruned)

    async def _handle(self, s: MatchSummary, now: float) -> None:
        settings = await self.settings.of(s.guild_id)
        info = await self.sessions.get(s.id)
        store = self.store
        if info.status != ACTIVE or not info.users_to_act:
            await store.set_deadline(s.id, None)
            return
        since, end = await self.settings.turn(
            info, settings
        )  # time away stops the clock (bot/discord/away.py)
        window = passes_by_itself(info, settings)
        if window and settings.response_wait and now - since >= settings.response_wait:
            await self._let_pass(info)
            after = await self.sessions.get(s.id)
            if (after.state_id, after.seats) == (info.state_id, info.seats):  # not passed: on as a turn
                await self.sessions.set_deadline(s.id, next_deadline(since, end, now, settings))
            return
        if since > now:  # everyone it waits on is away: nothing fires before the first of them is back
            await self.sessions.set_deadline(s.id, since)
            return
        if end is not None and now >= end:
            if not await self.sessions.claim(f"timeout:{s.id}:{info.state_id}"):
                return  # another process fires this timeout (or has fired it)
            if info.window:  # a response window's timeout is a pass, whatever the policy for turns
                await self._let_pass(info)
            else:
                await self._timeout(info, policy_of(info.options, settings.policy), out_of_time(info, now))
            after = await self.sessions.get(s.id)
            if (after.state_id, after.seats) == (info.state_id, info.seats):  # nothing changed: don't retry
                await store.set_deadline(s.id, None)
            return
        if any(t <= now for t in reminder_times(since, end, settings)) and not settings.is_quiet(now):
            await self._remind(info, now, since, end)
        await self.sessions.set_deadline(s.id, next_deadline(since, end, now, settings, window))

    async def _let_pass(self, info: MatchInfo) -> None:
        """Pass a response window for each person it still waits for (the game's `present.skip`, one move
        each), and say so in one line each under the board."""
        sessions = self.sessions
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
            (await self.boards.recent_for(info.id)).extend(said)
            self.boards.schedule(info.id)

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
        link = await board_link(self.store, info.guild_id, info.channel_id, info.id)
        board = f" The board: {link}" if link else ""
        await direct(
            self.client,
            self.store,
            users,
            f"⏰ Reminder: {info.title} game #{info.id}{where} has waited for your move for {span}.{left}"
            f"{board}",
        )

    async def _say(self, info: MatchInfo, text: str, view: StaticView | None = None) -> bool:
        """Post in the game's channel (unarchiving its thread if need be); a refusal is logged in one line and
        never stops the timer that asked (the deadline stays). Whether it was posted."""
        try:
            channel = await channel_of(self.client, info.channel_id) if info.channel_id else None
            if channel is None:
                return False
            kwargs = {"view": view} if view is not None else {}
            with yielding():  # a reminder waits while boards wait for Discord's global limit
                await unarchived(channel, lambda: channel.send(text, **kwargs))
        except discord.HTTPException as e:
            log.warning("match %s: could not post in channel %s: %s", info.id, info.channel_id, e)
            return False
        return True

    async def _timeout(self, info: MatchInfo, policy: str, seats: tuple[PlayerId, ...]) -> None:
        """Apply the server's timeout policy to these seats (those out of time) and say so."""
        sessions = self.sessions
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
                    level = (await self.settings.of(info.guild_id)).takeover_level  # /config timeout_ai_level
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
        await self._say(info, "\n".join(said), view=ReclaimButton.view_of(info.id) if yours else None)
        for user in info.users_to_act:
            text = f"{info.title} game #{info.id}: {yours.get(user, ' '.join(said))}"
            await direct(self.client, self.store, (user,), text)

    async def _expire_lobbies(self, now: float) -> int:
        """Close the lobbies nobody has touched for their server's lobby lifetime; how many closed."""
        closed = 0
        sessions = self.sessions
        for lobby in await self.store.idle_lobbies(now - MIN_LOBBY_EXPIRY, shards=sessions.shards):
            settings = await self.settings.of(lobby.guild_id)
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
                await close_lobby_message(self.client, self.settings, info)
        return closed
