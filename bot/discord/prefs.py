"""What people and tables choose about time: each person's window setting, each table's pace and clock.

**Window setting** (per person and per server, `/notify windows:`): how response windows treat them —
*ask me* (every window waits for them whatever they hold: nothing leaks), *pass for me when I can't
respond* (the default: a window in which they can only pass passes at once; opponents may infer they held
nothing) or *pass every window*. Kept in the store's user settings under `windows:<guild id>`; the session
manager gets them in a match's policy (bot/sessions/hooks.py) and plays the pass for them (`_automatic`).

**Pace** (per table, chosen in the lobby, `options["pace"]`): `live` — a window passes by itself after the
server's `response_wait`; `async` — a window waits like a turn (reminders and the turn timeout apply). A
table that chose none gets `async` on a server whose turn timeout is an hour or more, else `live`.

**Clock** (per table, chosen in the lobby like the pace, `options["clock"]`): `move` (the default) — each
wait has the server's turn timeout (/config timeout_minutes) — or `bank` — BGA's turn-based clock: 3 days
each, a day back after each hand-over, at most 3 days (bot/sessions/clock.py counts it). Either way the
server's timeout policy meets the person whose time runs out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.sessions import MatchInfo
from bot.sessions.clock import ADD, BANK, DAY, MOVE, RESERVE, is_bank
from bot.sessions.types import DEFAULT_WINDOWS, WINDOW_SETTINGS

if TYPE_CHECKING:
    from bot.discord.common import GuildSettings
    from bot.store import Store

LIVE, ASYNC = "live", "async"
PACES = (LIVE, ASYNC)
PACE_WORDS = {
    LIVE: "Live: response windows pass by themselves after a short wait",
    ASYNC: "Async: response windows wait like a turn (reminders, timeout)",
}
ASYNC_FROM = 3600.0  # a server turn timeout at least this long makes `async` the tables' default pace
CLOCK_WORDS = {
    MOVE: "Per move: each wait has the server's turn timeout",
    BANK: f"Bank: {RESERVE / DAY:g} days each, {ADD / DAY:g} day back after each turn (turn-based)",
}


def windows_key(guild_id: int | None) -> str:
    """The user-settings key of a person's window setting on a server (0 outside a server)."""
    return f"windows:{guild_id or 0}"


def pace_of(info: MatchInfo, settings: GuildSettings) -> str:
    """The table's pace: its own choice, else the server's default."""
    chosen = info.options.get("pace")
    if chosen in PACES:
        return str(chosen)
    return ASYNC if settings.timeout and settings.timeout >= ASYNC_FROM else LIVE


def clock_words(info: MatchInfo, settings: GuildSettings) -> str:
    """The table's clock in words for the lobby ("bank: 3 days each, …")."""
    if is_bank(info.options):
        return (
            f"bank: {RESERVE / DAY:g} days each; the time you are waited on comes off yours, and each "
            f"time you hand the move on {ADD / DAY:g} day comes back (at most {RESERVE / DAY:g} days)"
        )
    if settings.timeout:
        return f"per move: {settings.timeout / 3600:g} h each time the game waits on you"
    return "per move: no time limit on this server"


class Prefs:
    """People's window settings, read from the store once and kept in memory."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._known: dict[tuple[int, int], str] = {}

    async def windows(self, guild_id: int | None, user_id: int) -> str:
        """A person's window setting on a server (the default if they chose none)."""
        key = (guild_id or 0, user_id)
        if key not in self._known:
            stored = await self.store.user_setting(user_id, windows_key(guild_id))
            self._known[key] = stored if stored in WINDOW_SETTINGS else DEFAULT_WINDOWS
        return self._known[key]

    async def set_windows(self, guild_id: int | None, user_id: int, setting: str) -> None:
        """Keep a person's window setting on a server."""
        if setting not in WINDOW_SETTINGS:
            raise ValueError(setting)
        stored = None if setting == DEFAULT_WINDOWS else setting
        await self.store.set_user_setting(user_id, windows_key(guild_id), stored)
        self._known[(guild_id or 0, user_id)] = setting
