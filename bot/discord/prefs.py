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

**Table kind** (per table, chosen in the lobby like the clock, `options["table"]`, bot.ratings.TABLE):
`ranked` — the result moves ratings, and hints are refused — or `casual` — not rated (its result still
counts in /stats), and /game hint answers where the server allows hints. The lobby opens with the server's
default (`/config tables:`, ranked unless chosen), so it shows the kind from the start; the host may change
it until the deal, after which it is fixed (a rematch keeps it). A table with no kind written is ranked
(is_ranked), so a ranked lobby from the server's default writes none, as before tables had a kind. The
lobby, the board's footer and the result say which; a practice game (/learn) says "Practice" instead, and
is never rated.

**Images** (per person, across servers): `/notify theme:` — the theme of their own hand image (none: the
theme of the server where it is shown, /config theme:) — and `/notify board:` — `image` (the default) or
`text`: their private hand menu then carries their hand and the public board as text (`board_text`, the
words of the images' alt text) instead of the hand image, for screen readers and slow connections. Kept in
the store's user settings under `theme` and `board`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.discord.common import THEME_WORDS, drawn_names, shown, theme_of
from bot.ratings import CASUAL, RANKED, TABLE, is_ranked
from bot.sessions import MatchInfo
from bot.sessions.clock import ADD, BANK, DAY, MOVE, RESERVE, is_bank
from bot.sessions.types import DEFAULT_WINDOWS, WINDOW_SETTINGS
from engine.core import JSON
from engine.registry import get as get_game
from engine.table.describe import TEXT_LIMIT, fit, text_board
from engine.table.lesson import practice
from engine.table.present import of

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
TABLE_WORDS = {
    RANKED: "Ranked: the result moves ratings; no hints",
    CASUAL: "Casual: not rated; hints allowed where the server allows them",
}
THEME_KEY, BOARD_KEY = "theme", "board"  # the user-settings keys of a person's image choices
IMAGE, TEXT = "image", "text"
UNCUT = 1 << 20  # the text board before its escapes: cut to TEXT_LIMIT once escaped
SERVER_THEME = "server"  # /notify theme:'s choice of no theme of one's own: each server's boards' theme
BOARD_WORDS = {
    IMAGE: "an image of your hand",
    TEXT: "your hand and the board as text (for screen readers and slow connections)",
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


def table_kind(options: JSON) -> str:
    """A table's kind as the board and the result name it: "Practice", "Ranked" or "Casual"."""
    if practice(options):
        return "Practice"
    return "Ranked" if is_ranked(options) else "Casual"


def table_words(options: JSON, hints: bool) -> str:
    """A table's kind in words for the lobby ("Ranked — the result moves ratings"); `hints`: whether the
    server allows hints at casual tables."""
    if is_ranked(options):
        return "Ranked — the result moves ratings; no hints"
    return "Casual — not rated" + ("; hints allowed" if hints else "")


def with_table(options: JSON | None, default: str) -> JSON:
    """A new table's options with its kind: its own if it has one (e.g. a tournament's), else `default`
    (the server's /config tables:), written only when casual: no kind reads as ranked (is_ranked), as
    every table dealt before tables had a kind."""
    if default == CASUAL and TABLE not in (options or {}):
        return {**(options or {}), TABLE: CASUAL}
    return dict(options or {})


def board_text(info: MatchInfo, view: dict[str, Any]) -> str:
    """The public board and the viewer's hand as text, from the viewer's own view (/notify board:text):
    the words of the images' alt text (engine/table/describe.py) as Markdown shows them as written (names
    and pack cards are people's text), whole lines within 4,000 characters."""
    words = text_board(of(get_game(info.game_id)), info.title, view, drawn_names(info), limit=UNCUT)
    return fit([shown(line) for line in words.splitlines()], TEXT_LIMIT)


class Prefs:
    """People's window settings and image choices, read from the store once and kept in memory."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._known: dict[tuple[int, int], str] = {}
        self._themes: dict[int, str | None] = {}
        self._boards: dict[int, str] = {}

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

    async def theme(self, user_id: int) -> str | None:
        """The theme a person chose for their hand image (None: the server's)."""
        if user_id not in self._themes:
            self._themes[user_id] = theme_of(await self.store.user_setting(user_id, THEME_KEY))
        return self._themes[user_id]

    async def set_theme(self, user_id: int, theme: str | None) -> None:
        """Keep a person's theme for their hand image (None: the server's)."""
        if theme is not None and theme not in THEME_WORDS:
            raise ValueError(theme)
        await self.store.set_user_setting(user_id, THEME_KEY, theme)
        self._themes[user_id] = theme

    async def board_style(self, user_id: int) -> str:
        """How a person's hand menu shows their hand: IMAGE (the default) or TEXT."""
        if user_id not in self._boards:
            stored = await self.store.user_setting(user_id, BOARD_KEY)
            self._boards[user_id] = TEXT if stored == TEXT else IMAGE
        return self._boards[user_id]

    async def set_board_style(self, user_id: int, style: str) -> None:
        """Keep how a person's hand menu shows their hand."""
        if style not in BOARD_WORDS:
            raise ValueError(style)
        await self.store.set_user_setting(user_id, BOARD_KEY, None if style == IMAGE else style)
        self._boards[user_id] = style
