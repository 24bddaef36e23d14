"""Every server's settings (/config), read once and kept in one cache, and what follows from them for a
table: its pace, when its open response window passes by itself, the board's deadline line, and the first
deadline of a new position (`Settings.deadlines`, which the session manager stores with the move).

Everything here is computed from the cache, the match and people's time away (bot/discord/away.py): nothing
touches Discord. A board or a lobby drawn before its server's settings were read shows no deadline and the
default pace (the read comes with the first move or timer check, which draws it again).

When a turn runs out depends on the table's clock (`turn_clock`): per move, the server's `timeout` after the
position arose; with a bank clock (bot/sessions/clock.py), the moment the first bank of the people it waits
on is empty. Time away stops a turn's clock (`clock_start`): it counts from the later of its start and the
return of the people it waits on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from bot.discord.away import Away, Stay, first_back
from bot.discord.common import POLICY_WORDS, ROUND_ENDS, GuildSettings, policy_of, seat_names
from bot.discord.prefs import LIVE, clock_words, pace_of
from bot.sessions import MatchInfo
from bot.store import ACTIVE, Store


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


def passes_by_itself(info: MatchInfo, settings: GuildSettings) -> bool:
    """Whether the open response window passes by itself after the server's wait: a `live` table's does;
    an `async` table's waits like a turn."""
    return bool(info.window and settings.response_wait and pace_of(info, settings) == LIVE)


def counts_from(info: MatchInfo, settings: GuildSettings, back: float) -> float:
    """When the turn's clock counts from (Settings.clock_start), given when the first of the people it waits
    on is back from time away (`back`)."""
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


class Settings:
    """The servers' settings, read from the store once and kept in memory (/config changes them here), and
    the times and words that follow from them for a table."""

    def __init__(self, store: Store, away: Away, clock: Callable[[], float]) -> None:
        self.store = store
        self.away = away
        self.clock = clock
        self._cache: dict[int, GuildSettings] = {}

    async def of(self, guild_id: int | None) -> GuildSettings:
        """A server's settings (the defaults outside a server)."""
        if guild_id is None:
            return GuildSettings()
        cached = self._cache.get(guild_id)
        if cached is None:
            cached = self._cache[guild_id] = GuildSettings.from_json(
                await self.store.guild_settings(guild_id)
            )
        return cached

    async def theme(self, guild_id: int | None) -> str:
        """The theme a server's public boards are drawn in (/config theme:; the default outside a server)."""
        return (await self.of(guild_id)).theme

    async def set(self, guild_id: int, key: str, value: Any) -> None:
        """Change one server setting (read again at the next use)."""
        await self.store.set_guild_setting(guild_id, key, value)
        self._cache.pop(guild_id, None)

    def known(self, info: MatchInfo) -> GuildSettings | None:
        """The settings of the match's server as last read (None: not read yet)."""
        return self._cache.get(info.guild_id) if info.guild_id is not None else None

    def known_away(self, guild_id: int | None, user_id: int | None) -> Stay | None:
        """A person's stay as last read, while it may be shown (for the lobby, drawn without the store; a stay
        that ended by itself is taken out by the timers' next check)."""
        if guild_id is None or user_id is None:
            return None
        settings = self._cache.get(guild_id)
        if settings is not None and not settings.away_days:
            return None
        return self.away.shown(guild_id, user_id)

    def windows_wait(self, info: MatchInfo) -> bool:
        """Whether the table's response windows wait for their answer like a turn (an async table, or a server
        whose windows never pass by themselves)."""
        settings = self.known(info) or GuildSettings()
        return not (settings.response_wait and pace_of(info, settings) == LIVE)

    def pass_time(self, info: MatchInfo) -> float | None:
        """When the open response window passes by itself (None: no window, an async table, or the server
        never passes)."""
        settings = self.known(info)
        if settings is None or info.status != ACTIVE or not passes_by_itself(info, settings):
            return None
        assert settings.response_wait is not None
        return info.updated_at + settings.response_wait

    def pace(self, info: MatchInfo) -> str:
        """The table's pace in words for the board ("live pace: windows pass by themselves")."""
        if pace_of(info, self.known(info) or GuildSettings()) == LIVE:
            return "live pace: response windows pass by themselves"
        return "async pace: response windows wait like a turn"

    def table_clock(self, info: MatchInfo) -> str:
        """The table's clock in words for the lobby (see bot/discord/prefs.py clock_words)."""
        return clock_words(info, self.known(info) or GuildSettings())

    def deadline_line(self, info: MatchInfo, since: float | None = None) -> str:
        """The board's lines for when a response window passes by itself and when the turn runs out (the
        server's timeout, or the bank of the one to act), as Discord timestamps, and a bank table's banks (""
        without any); `since`: when the wait's clock counts from after time away, if later than its start."""
        settings = self.known(info)
        if settings is None or info.status != ACTIVE or not info.users_to_act:
            return ""
        lines = [banks_line(info)] if info.banks is not None else []
        if (at := self.pass_time(info)) is not None:
            lines.append(f"⏳ The {info.window} passes by itself <t:{int(at)}:R> unless answered")
        _, end = after_away(*turn_clock(info, settings), since)
        if end is not None:
            whose = "Time runs out"
            if info.banks is not None and (first := info.banks.first()) is not None:
                whose = f"{seat_names(info)[first]}'s bank runs out"
            policy = policy_of(info.options, settings.policy)
            what = f"the {info.window} passes" if info.window else POLICY_WORDS[policy]
            lines.append(f"⏳ {whose} <t:{int(end)}:R> ({what})")
        if isinstance(ends := info.options.get(ROUND_ENDS), (int, float)):
            lines.append(
                f"🏆 The tournament's round ends <t:{int(ends)}:R>: a game still going is adjudicated"
            )
        return "\n".join(lines)

    async def clock_start(self, info: MatchInfo, settings: GuildSettings) -> float:
        """When the turn's clock counts from: its start, or the return from time away of the people it waits
        on (the first of them back) if later, in the future while they are all away. A live response window
        ignores time away: it passes by itself."""
        return counts_from(info, settings, await self._back(info, settings))

    async def turn(self, info: MatchInfo, settings: GuildSettings) -> tuple[float, float | None]:
        """When the current wait counts from and when it runs out (None: never): the table's clock (a turn
        timeout or a bank), moved on by the time away at its start (clock_start)."""
        since, end = turn_clock(info, settings)
        return after_away(since, end, await self.clock_start(info, settings))

    async def next(self, info: MatchInfo, settings: GuildSettings, after: float) -> float | None:
        """The first moment after `after` when the current wait needs the timers (next_deadline), or the
        return of the people it waits on while they are all away."""
        return next_wait(info, settings, await self._back(info, settings), after)

    async def deadlines(self, info: MatchInfo, people: Iterable[int]) -> Callable[[MatchInfo], float | None]:
        """The first deadline of a new position of this match (None: none), as a function of that position,
        with the server's settings and these people's time away read first: the session manager calls it
        holding the match's lock, so it reads nothing (bot/sessions/hooks.py)."""
        gid = info.guild_id
        settings = await self.of(gid)
        stays = {u: await self.away.stay(gid, u) for u in people} if gid and settings.away_days else {}

        def deadline_for(after: MatchInfo) -> float | None:
            if after.status != ACTIVE or not after.users_to_act or after.guild_id is None:
                return None
            back = first_back(stays.get(u) for u in after.users_to_act)
            return next_wait(after, settings, back, after.updated_at)

        return deadline_for

    async def _back(self, info: MatchInfo, settings: GuildSettings) -> float:
        """When the first of the people the match waits on is (or was) back from time away (0: never away)."""
        if info.guild_id is None:
            return 0.0
        return await self.away.back_at(info.guild_id, info.users_to_act, settings)
