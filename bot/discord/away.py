"""Time away (a vacation): `/away until date:<date> [note:]` and `/away back`.

While a person is away from a server, their games there neither remind them nor time them out; each of
their running games shows one line under its board ("🏖️ Ada is away until <t:…:f> — note · 9 of 21 away
days left this year"), edited in (no new message, no ping) when they go away and taken out when they come
back; `/games` and the lobby show it too. The others keep playing whatever does not wait on them.

**Dates.** `2025-07-31` means until the end of that day in the server's timezone (/config timezone);
`3d` or `2w` counts from now. A date in the past, a stay longer than MAX_DAYS or one longer than the days
left this year is refused with the reason. Going away again while away replaces the stay (from now).

**Allowance.** `/config away_days:` (default 21 days a year per person; 0 turns time away off: /away is
refused and stays already running are ignored). A stay costs the whole days it lasts, an hour's grace
aside (a stay undone within the hour costs nothing), counted to the year it began in (server time); a
running stay counts its whole planned length until it ends.

**Ending.** At its date by itself, with `/away back`, or when the person presses any button of a game of
this server (services.guarded_press calls `Timers.back_from_away`). Coming back early sets the stay's end
to that moment.

**Storage.** The store's user settings, key `away:<guild id>` (no migration), as JSON: the last stay
(`since`, `until`, `note`), the days of earlier stays per year (`used`) and `open`, true while boards may
still show the stay. Whoever notices first that a stay ended by itself (the timers' check, `Away.ended`)
redraws the person's boards and clears `open`, so an end that fell while the bot was down is shown too.

**Clock** (bot/discord/settings.py `Settings.clock_start`): a turn's clock counts from the later of the
turn's start and the end of the last stay of the people it waits on (the first of them back): the time
before someone went away is forgiven, not added. While everyone it waits on is away, the match's stored
deadline is the moment the first comes back, so nothing fires before and a restart resumes from the store. A
live response window ignores time away: it passes by itself, as the table's pace says. When some of the
people a simultaneous choice waits on are away, the clock runs for the others, and reminders and timeouts
leave the away ones alone.
"""

from __future__ import annotations

import logging
import math
import re
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta
from typing import TYPE_CHECKING, Any

from bot.discord.common import GuildSettings, plain_text, shown
from bot.sessions import SessionError
from bot.sessions.clock import DAY
from bot.store import Store

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable


log = logging.getLogger("bot.discord.away")

GRACE = 3600.0  # a stay costs its whole days, less this grace: one undone at once costs nothing
MAX_DAYS = 60  # the longest stay at once
NOTE_MAX = 100  # characters of a note
EMOJI = "🏖️"
DATE = re.compile(r"^\s*(\d{4})-(\d{1,2})-(\d{1,2})\s*$")
SPAN = re.compile(r"^\s*(\d{1,3})\s*(d|days?|w|weeks?)\s*$", re.IGNORECASE)
HOW = "give a day as `2025-07-31` (until the end of that day, server time) or a length such as `3d` or `2w`"
OFF = "Time away is off on this server (a server manager can turn it on with `/config away_days:`)."


def away_key(guild_id: int) -> str:
    """The user-settings key of a person's time away on a server."""
    return f"away:{guild_id}"


def stay_days(since: float, until: float) -> int:
    """The days a stay from `since` to `until` costs: every day begun, less an hour's grace."""
    return max(0, math.ceil((until - since - GRACE) / DAY))


def year_of(when: float, settings: GuildSettings) -> str:
    """The year of a moment in the server's timezone, as the key of the days used ("2025")."""
    return str(datetime.fromtimestamp(when, settings.tz).year)


@dataclass(frozen=True, slots=True)
class Stay:
    """A person's last stay away from a server (running while since <= now < until), the days their earlier
    stays used per year, and whether boards may still show it (open)."""

    since: float
    until: float
    note: str = ""
    used: tuple[tuple[str, int], ...] = ()
    open: bool = False

    def running(self, now: float) -> bool:
        """Whether the person is away at this moment."""
        return self.since <= now < self.until

    def days_used(self, year: str, settings: GuildSettings) -> int:
        """The away days used in a year, this stay's included (the whole of it while it runs)."""
        this = stay_days(self.since, self.until) if year_of(self.since, settings) == year else 0
        return dict(self.used).get(year, 0) + this

    def to_json(self) -> dict[str, Any]:
        """As kept in the store."""
        return {
            "since": self.since,
            "until": self.until,
            "note": self.note,
            "used": dict(self.used),
            "open": self.open,
        }

    @classmethod
    def from_json(cls, data: Any) -> Stay | None:
        """From the store (None for anything that does not read as a stay)."""
        try:
            used = tuple((str(y), int(d)) for y, d in dict(data.get("used") or {}).items())
            note, shown = str(data.get("note") or ""), bool(data.get("open"))
            return cls(float(data["since"]), float(data["until"]), note, used, shown)
        except (AttributeError, KeyError, TypeError, ValueError):
            return None


def days_left(stay: Stay | None, now: float, settings: GuildSettings) -> int:
    """The away days a person has left this year on a server."""
    used = stay.days_used(year_of(now, settings), settings) if stay is not None else 0
    return max(0, settings.away_days - used)


def left_words(stay: Stay | None, now: float, settings: GuildSettings) -> str:
    """ "9 of 21 away days left this year"."""
    return f"{days_left(stay, now, settings)} of {settings.away_days} away days left this year"


def parse_until(text: str, now: float, settings: GuildSettings) -> float:
    """When a stay asked for as `2025-07-31` (the end of that day, server time) or `3d` / `2w` ends;
    SessionError for anything else."""
    if (m := SPAN.match(text)) is not None:
        return now + int(m[1]) * (7 if m[2][0].lower() == "w" else 1) * DAY
    m = DATE.match(text)
    try:
        day = date(int(m[1]), int(m[2]), int(m[3])) if m is not None else None
    except ValueError:
        day = None
    if day is None:
        raise SessionError(f"I don't understand `{shown(text[:40])}`: {HOW}.")
    return datetime.combine(day + timedelta(days=1), time(), tzinfo=settings.tz).timestamp()


def away_line(name: str, stay: Stay, now: float, settings: GuildSettings) -> str:
    """The board's line for a person away: "🏖️ Ada is away until <t:…:f> — note · 9 of 21 away days left
    this year"."""
    note = f" — {shown(stay.note)}" if stay.note else ""
    who = shown(name)
    return f"{EMOJI} {who} is away until <t:{int(stay.until)}:f>{note} · {left_words(stay, now, settings)}"


def first_back(stays: Iterable[Stay | None]) -> float:
    """When the first of some people is (or was) back from their last stay: 0 if one was never away."""
    return min((stay.until if stay is not None else 0.0 for stay in stays), default=0.0)


class Away:
    """People's time away, read from the store once and kept in memory (a guild's people are handled by one
    process, so what it remembers stays true)."""

    def __init__(self, store: Store, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock
        self._known: dict[tuple[int, int], Stay | None] = {}  # (guild, person) -> last stay, as read or set

    async def stay(self, guild_id: int, user_id: int) -> Stay | None:
        """A person's last stay away from a server (running or not), or None."""
        key = (guild_id, user_id)
        if key not in self._known:
            self._known[key] = Stay.from_json(await self.store.user_setting(user_id, away_key(guild_id)))
        return self._known[key]

    def shown(self, guild_id: int, user_id: int) -> Stay | None:
        """A person's stay as last read, while boards may show it (no store read: for the lobby)."""
        stay = self._known.get((guild_id, user_id))
        return stay if stay is not None and stay.open else None

    async def _keep(self, guild_id: int, user_id: int, stay: Stay) -> None:
        await self.store.set_user_setting(user_id, away_key(guild_id), stay.to_json())
        self._known[(guild_id, user_id)] = stay

    async def running(self, guild_id: int, user_id: int, settings: GuildSettings) -> Stay | None:
        """A person's stay if they are away now (None if not, or if time away is off on the server)."""
        stay = await self.stay(guild_id, user_id) if settings.away_days else None
        return stay if stay is not None and stay.running(self.clock()) else None

    async def back_at(self, guild_id: int, users: Iterable[int], settings: GuildSettings) -> float:
        """When the first of these people is (or was) back from their last stay: the end of that stay, 0 for
        someone never away (or for nobody, or when time away is off)."""
        if not settings.away_days:
            return 0.0
        return first_back([await self.stay(guild_id, u) for u in users])

    async def go(self, guild_id: int, user_id: int, until: str, note: str, settings: GuildSettings) -> Stay:
        """Start (or replace) a person's stay until a date (`parse_until`); SessionError with the reason if
        refused."""
        if not settings.away_days:
            raise SessionError(OFF)
        now = self.clock()
        end = parse_until(until, now, settings)
        if end <= now:
            raise SessionError(f"That moment has passed; {HOW}.")
        days = stay_days(now, end)
        if end - now > MAX_DAYS * DAY:
            raise SessionError(f"Time away lasts at most {MAX_DAYS} days at once; that is {days} days.")
        last = await self.stay(guild_id, user_id)
        if last is not None and last.running(now):  # replaced: it ends now and costs what it lasted
            last = replace(last, until=now)
        used: dict[str, int] = {}
        if last is not None:
            used = dict(last.used)
            year = year_of(last.since, settings)
            used[year] = used.get(year, 0) + stay_days(last.since, last.until)
        this = int(year_of(now, settings))
        used = {y: d for y, d in used.items() if y.isdigit() and int(y) >= this - 1}
        left = max(0, settings.away_days - used.get(str(this), 0))
        if days > left:
            raise SessionError(
                f"That is {days} day{'s' if days != 1 else ''} away, but you have {left} of your "
                f"{settings.away_days} away days left this year; choose a nearer date."
            )
        stay = Stay(now, end, plain_text("note", note, NOTE_MAX), tuple(sorted(used.items())), open=True)
        await self._keep(guild_id, user_id, stay)
        return stay

    async def end(self, guild_id: int, user_id: int) -> Stay | None:
        """End a person's running stay now (their boards are redrawn by the caller); the stay as ended, or
        None if they were not away."""
        now = self.clock()
        stay = await self.stay(guild_id, user_id)
        if stay is None or not stay.running(now):
            return None
        ended = replace(stay, until=now, open=False)
        await self._keep(guild_id, user_id, ended)
        return ended

    async def ended(self, now: float) -> list[tuple[int, int]]:
        """The (guild, person) of the stays this process knows that ended by themselves and may still be
        shown: each is marked as no longer shown, and the caller redraws their boards."""
        done = [(k, s) for k, s in self._known.items() if s is not None and s.open and s.until <= now]
        for (guild_id, user_id), stay in done:
            await self._keep(guild_id, user_id, replace(stay, open=False))
        return [key for key, _ in done]


@dataclass(frozen=True, slots=True)
class OnBoard:
    """What a running game's board shows of time away: a line per seated person away, when the turn's
    clock counts from (None: its start), and the people away (named on the board, never pinged)."""

    lines: str = ""
    since: float | None = None
    gone: frozenset[int] = frozenset()
