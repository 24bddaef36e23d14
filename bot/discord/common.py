"""Helpers every Discord callback shares: the error guard, ephemeral replies, seat names, guild settings."""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone, tzinfo
from typing import TYPE_CHECKING, Any, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import discord

from bot.ai import DEFAULT_LEVEL, LEVELS
from bot.discord.budget import yielding
from bot.ratings import CASUAL, RANKED
from bot.sessions import MatchInfo, SessionError
from engine.table.lesson import Guide, guide_lines
from engine.table.present import seat_refs
from engine.text import TextError, check_text, printable
from render.kit import THEMES

if TYPE_CHECKING:
    from bot.store import Store

log = logging.getLogger("bot.discord")

ALREADY_ANSWERED = 40060  # Discord: "Interaction has already been acknowledged"
OOPS = "Something went wrong on our side; the game is safe. Please try again."
# A press during a database outage (bot/store: StoreUnavailable, DiskFull), for a move and for anything else.
UNREACHABLE = "The database is unreachable right now; your move was not played — try again in a minute."
UNREACHABLE_OTHER = "The database is unreachable right now; nothing was done — try again in a minute."
DISK_FULL = "The server's disk is full; nothing was played."
DISK_FULL_OTHER = "The server's disk is full; nothing was saved."
ANSWER_WITHIN = 2.0  # seconds a press may wait on the database in all before it is answered (Discord: 3)
NOT_SEATED = (
    "You are not playing in this game, so you can't act in it — but anyone can look at the board and the Log."
)
V2_TEXT = 4000  # Discord: characters of text display content in one Components V2 message
DM_SETTING = "dm"  # a person's /notify choice, in the store's user settings
POLICIES = ("skip", "ai", "forfeit")
# A tournament game's match options (bot/discord/rounds.py): its tournament's id, and its round's end.
TOURNAMENT_OPTION, ROUND_ENDS = "tournament", "round_ends"
TABLE_POLICY = "timeout_policy"  # a table's own timeout policy (a tournament's: "forfeit"), over the server's


def policy_of(options: dict[str, Any], server_policy: str) -> str:
    """What happens when a table's time runs out: the table's own policy if it has one (TABLE_POLICY: a
    tournament game is lost), else the server's."""
    own = options.get(TABLE_POLICY)
    return own if own in POLICIES else server_policy


DEFAULT_REMINDER = 12 * 3600.0  # seconds
DEFAULT_REMINDERS = 3  # reminders per turn at most
DEFAULT_LOBBY_EXPIRY = 24 * 3600.0  # seconds a lobby may sit unchanged before it closes
MIN_LOBBY_EXPIRY = 3600.0  # the shortest lobby lifetime /config accepts
DEFAULT_RESPONSE_WAIT = 60.0  # seconds a response window waits before it passes by itself
MAX_RESPONSE_WAIT = 86400  # the longest wait /config accepts (seconds)
DEFAULT_AWAY_DAYS = 21  # days of time away (/away) a person has a year on a server; 0 turns it off
MAX_AWAY_DAYS = 366  # the most /config away_days accepts
POLICY_WORDS = {
    "skip": "skip the turn",
    "ai": "an AI takes the seat (a loss for the player unless they take it back)",
    "forfeit": "the player forfeits",
}
# The images' themes, as render draws them (render.kit.THEMES: name -> the words people see): a server's
# boards (/config theme:), a person's hand (/notify theme:); a stored name not among them reads as
# the default.
THEME_WORDS = {name: theme.title for name, theme in THEMES.items()}
DEFAULT_THEME = "dark"


@dataclass(frozen=True, slots=True)
class Look:
    """How a select menu shows: its options, placeholder and row (its DynamicItem writes its custom_id)."""

    options: tuple[discord.SelectOption, ...] = ()
    placeholder: str | None = None
    row: int | None = None

    def select(self, custom_id: str) -> discord.ui.Select[Any]:
        """The select menu with this custom_id."""
        return discord.ui.Select(
            custom_id=custom_id, options=list(self.options), placeholder=self.placeholder, row=self.row
        )


NUMBERS = frozenset({"mid", "sid", "page"})  # the template groups a DynamicItem's constructor takes as ints


class Rebuilt:
    """For a DynamicItem (listed first among its bases) whose constructor takes its template's named groups
    as arguments, `mid`, `sid` and `page` as numbers: discord.py rebuilds it from a custom_id alone."""

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Any:
        """Rebuild from the custom_id."""
        build: Any = cls
        return build(**{k: int(v) if k in NUMBERS else v for k, v in match.groupdict().items()})


BARE = Look()  # a select rebuilt from its custom_id to answer a press: how it shows does not matter


class StaticView(discord.ui.View):
    """A view of plain components that discord.py does not keep in memory.

    Every custom_id matches one of the registered DynamicItem templates, so presses are dispatched from the
    custom_id alone (after a restart too) and nothing accumulates per message sent.
    """

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        """Never stored: the registered DynamicItems handle every press."""
        return False


class StaticLayout(discord.ui.LayoutView):
    """A Components V2 layout (text, media, action rows) that discord.py does not keep in memory: its buttons
    and selects are dispatched from their custom_ids alone, as a StaticView's."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        """Never stored: the registered DynamicItems handle every press."""
        return False

    @classmethod
    def of(cls, message: discord.Message) -> StaticLayout:
        """A V2 message's layout as Discord returned it (to send it again changed: an edit replaces all)."""
        layout = cls()
        for item in discord.ui.LayoutView.from_message(message, timeout=None).children:
            layout.add_item(item)
        return layout


def fits(parts: list[str], limit: int = V2_TEXT) -> list[str]:
    """Text display contents cut to share `limit` characters in all (Discord's limit for a V2 message), the
    first ones kept whole first; one string per part, "" for a part left out."""
    out: list[str] = []
    for part in parts:
        cut = part if len(part) <= limit else part[: limit - 1] + "…" if limit > 1 else ""
        out.append(cut)
        limit -= len(cut)
    return out


def whole_lines(text: str, room: int) -> str:
    """The text if it fits in `room` characters, else its whole lines that fit (the first `room`
    characters when even its first line does not)."""
    if len(text) <= room:
        return text
    end = text.rfind("\n", 0, room)
    return text[: end if end > 0 else room]


def without(layout: discord.ui.LayoutView, custom_id: re.Pattern[str]) -> int:
    """Take the buttons and selects whose custom_id matches out of a layout (an action row left empty goes
    too); how many were taken."""
    taken = 0
    for item in list(layout.walk_children()):
        found = getattr(item, "custom_id", None)
        if isinstance(found, str) and custom_id.fullmatch(found):
            row: Any = item.parent
            if row is None:
                layout.remove_item(item)
            else:
                row.remove_item(item)
                if not row.children:
                    (row.parent or layout).remove_item(row)
            taken += 1
    return taken


async def reply(interaction: discord.Interaction, text: str | None, **kwargs: Any) -> None:
    """Answer ephemerally, whether or not the interaction was already acknowledged."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **kwargs)  # type: ignore[arg-type]  # None: no text
    else:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)


def values_of(interaction: discord.Interaction) -> list[str]:
    """The values chosen in a select menu (none for a button)."""
    data: Any = interaction.data or {}
    return [str(v) for v in data.get("values") or []]


def custom_id_of(interaction: discord.Interaction) -> str:
    """The custom_id of the pressed component or submitted form ("" for anything else)."""
    data: Any = interaction.data or {}
    return str(data.get("custom_id", ""))


def drawn_names(info: MatchInfo) -> list[str]:
    """A name per seat as written, for what is not Markdown (images, button and select labels, exports):
    the member's name, "AI for Bob" for a seat an AI took over from Bob, or "Bot 1", "Bot 2"... for the
    other AI seats."""
    names, bots = [], 0
    for seat in info.seats:
        if seat.is_ai and seat.stands_for is not None and seat.name:
            names.append(seat.name)
        elif seat.is_ai:
            bots += 1
            names.append(f"Bot {bots}")
        else:
            names.append(seat.name or f"Player {len(names) + 1}")
    return names


def seat_names(info: MatchInfo) -> list[str]:
    """A name per seat for message text and embeds: drawn_names with Markdown and mentions escaped (a member
    named "_x_" or "@everyone" shows as written)."""
    return [shown(name) for name in drawn_names(info)]


def with_names(info: MatchInfo, text: str) -> str:
    """An engine event text with seat numbers ("P2") replaced by the players' names."""
    return seat_refs(text, seat_names(info))


def lesson_text(info: MatchInfo, guide: Guide | None) -> str:
    """What a practice game's guide says now (engine/table/lesson.py guide_lines), with the players' names:
    on its board (a private thread) and in the learner's menu; "" for any other game."""
    if guide is None:
        return ""
    return "\n".join(with_names(info, line) for line in guide_lines(guide, info.over, bold="**"))


def who(info: MatchInfo, seat: int) -> str:
    """A mention for a person's seat, the bot's name for an AI seat."""
    s = info.seats[seat]
    return f"<@{s.user_id}>" if s.user_id is not None and not s.is_ai else seat_names(info)[seat]


def check_range(name: str, value: float | None, low: float, high: float) -> None:
    """Refuse politely (SessionError) a number given to option `name` outside low..high (None: not given)."""
    if value is not None and not low <= value <= high:
        raise SessionError(f"`{name}` must be between {low:g} and {high:g}; nothing was changed.")


def plain_text(name: str, text: str, most: int) -> str:
    """A person's short text (a note) with its whitespace collapsed; refused politely (SessionError) when
    longer than `most` characters or holding a control or format character (engine/text.py: a bell, a
    direction override, an invisible space; the joiner of emoji sequences is fine)."""
    clean = " ".join(text.split())
    try:
        check_text(f"The {name}", clean)
    except TextError as e:
        raise SessionError(f"{e}.") from None
    if len(clean) > most:
        raise SessionError(f"The {name} has at most {most} characters; that one has {len(clean)}.")
    return clean


def shown(text: str) -> str:
    """Text a person supplied (a pack, card, deck or seat name, a note) as Discord message content or an
    embed shows it: as written, never as Markdown or a mention, any control character visible as an escape
    (engine/text.py). Autocomplete choices and select labels, which are not Markdown, take printable()."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(printable(text)))


QUIET = re.compile(r"^\s*(\d{1,2})\s*-\s*(\d{1,2})\s*$")
OFFSET = re.compile(r"^\s*(?:UTC|GMT)?\s*(?:([+-])\s*(\d{1,2})(?::?(\d{2}))?)?\s*$", re.IGNORECASE)


def parse_quiet(text: str) -> tuple[int, int] | None:
    """Quiet hours "22-7" as (22, 7); "off" or "" as None; SessionError for anything else."""
    if text.strip().lower() in ("", "off", "none", "0"):
        return None
    m = QUIET.match(text)
    if m is None or not (0 <= int(m[1]) <= 23 and 0 <= int(m[2]) <= 23) or m[1] == m[2]:
        raise SessionError("Quiet hours look like `22-7` (from 22:00 to 07:00), or `off`.")
    return int(m[1]), int(m[2])


def parse_zone(text: str) -> tzinfo:
    """A timezone: an offset ("UTC+2", "-05:30") or a name ("Europe/Paris"); SessionError if unknown."""
    m = OFFSET.match(text)
    if m is not None:
        sign = -1 if m[1] == "-" else 1
        hours, minutes = int(m[2] or 0), int(m[3] or 0)
        if hours > 14 or minutes > 59:
            raise SessionError("A UTC offset is between -12 and +14 hours, e.g. `UTC+2` or `-05:30`.")
        return timezone(sign * timedelta(hours=hours, minutes=minutes))
    try:
        return ZoneInfo(text.strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise SessionError(
            "I don't know that timezone; give a UTC offset such as `UTC+2`, or a name such as `Europe/Paris`."
        ) from None


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's choices (/config): lobbies in threads, reminders and turn timeouts (seconds; None = off),
    quiet hours (local start and end hour) in the server's timezone, how long an idle lobby lives, the AI
    level Add AI seats and the one that takes over a timed-out seat, whether /game hint is allowed (at casual
    tables), whether new tables are ranked or casual (`tables`: the lobby's default), and how
    long a response window waits before it passes by itself (None = never; the same for every window), and
    how many days of time away (/away) each person has a year (0: time away is off), and the theme its
    public boards are drawn in (THEME_WORDS)."""

    threads: bool = True
    reminder: float | None = DEFAULT_REMINDER
    timeout: float | None = None
    policy: str = "ai"
    reminders: int = DEFAULT_REMINDERS
    quiet: tuple[int, int] | None = None
    zone: str = "UTC"
    lobby_expiry: float | None = DEFAULT_LOBBY_EXPIRY
    ai_level: str = DEFAULT_LEVEL
    takeover_level: str = DEFAULT_LEVEL
    hints: bool = True
    tables: str = RANKED
    response_wait: float | None = DEFAULT_RESPONSE_WAIT
    away_days: int = DEFAULT_AWAY_DAYS
    theme: str = DEFAULT_THEME
    season_weeks: int = 0  # 0: no seasons
    season_channel: int | None = None  # where a season's final standings are posted

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GuildSettings:
        """From the store's guild settings dict (a value that no longer parses falls back to the default)."""
        policy = data.get("timeout_policy", "ai")
        quiet = data.get("quiet_hours")
        zone = str(data.get("timezone") or "UTC")
        try:
            parse_zone(zone)
        except SessionError:
            zone = "UTC"
        return cls(
            threads=data.get("thread_mode", "thread") != "here",
            reminder=data.get("reminder_seconds", DEFAULT_REMINDER) or None,
            timeout=data.get("timeout_seconds") or None,
            policy=policy if policy in POLICIES else "ai",
            reminders=int(data.get("reminder_count", DEFAULT_REMINDERS)),
            quiet=(int(quiet[0]), int(quiet[1])) if isinstance(quiet, list) and len(quiet) == 2 else None,
            zone=zone,
            lobby_expiry=data.get("lobby_seconds", DEFAULT_LOBBY_EXPIRY) or None,
            ai_level=_level(data.get("ai_level")),
            takeover_level=_level(data.get("timeout_ai_level")),
            hints=data.get("hints") != "off",
            tables=CASUAL if data.get("tables") == CASUAL else RANKED,
            response_wait=data.get("response_seconds", DEFAULT_RESPONSE_WAIT) or None,
            away_days=max(0, int(data.get("away_days", DEFAULT_AWAY_DAYS))),
            theme=theme_of(data.get("theme")) or DEFAULT_THEME,
            season_weeks=max(0, int(data.get("season_weeks") or 0)),
            season_channel=int(data["season_channel"]) if data.get("season_channel") else None,
        )

    @property
    def tz(self) -> tzinfo:
        """The server's timezone."""
        return parse_zone(self.zone)

    def is_quiet(self, when: float) -> bool:
        """Whether this moment falls in the server's quiet hours."""
        if self.quiet is None:
            return False
        start, end = self.quiet
        hour = datetime.fromtimestamp(when, self.tz).hour
        return start <= hour < end if start < end else hour >= start or hour < end

    def after_quiet(self, when: float) -> float:
        """The moment itself, or the end of the quiet hours it falls in."""
        if not self.is_quiet(when):
            return when
        assert self.quiet is not None
        local = datetime.fromtimestamp(when, self.tz)
        end = local.replace(hour=self.quiet[1], minute=0, second=0, microsecond=0)
        if end <= local:
            end += timedelta(days=1)
        return end.timestamp()

    def describe(self) -> str:
        """The settings in words."""

        def span(s: float | None) -> str:
            if s is None:
                return "off"
            if s < 60:
                return f"{s:g} s"
            return f"{s / 3600:g} h" if s >= 3600 else f"{s / 60:g} min"

        quiet = f"{self.quiet[0]}:00–{self.quiet[1]}:00 ({self.zone})" if self.quiet else "none"
        reminders = span(self.reminder)
        if self.reminder and self.reminders:
            reminders += f" (again every {span(self.reminder)}, at most {self.reminders} a turn)"
        elif self.reminder:
            reminders = "off"
        return (
            f"Lobbies: {'in a new thread' if self.threads else 'in the channel itself'}; "
            f"an idle lobby closes after {span(self.lobby_expiry)}\n"
            f"Reminder after: {reminders}\n"
            f"Quiet hours (no reminders): {quiet}\n"
            f"Turn timeout (tables with the per-move clock): {span(self.timeout)}\n"
            f"When time runs out (that timeout, or a bank table's bank): {POLICY_WORDS[self.policy]}"
            f"\nAI level: **{self.ai_level}** for Add AI; **{self.takeover_level}** for a timed-out seat\n"
            f"Hints (/game hint, casual tables only): {'on' if self.hints else 'off'}\n"
            f"New tables: **{self.tables}** (the host may choose in the lobby)\n"
            "Response windows pass by themselves after: "
            + (span(self.response_wait) if self.response_wait else "never (they wait for an answer)")
            + "\nTime away (/away): "
            + (f"{self.away_days} days a year per person" if self.away_days else "off")
            + f"\nBoard theme: {THEME_WORDS[self.theme]}"
            + "\nSeasons: "
            + (f"{self.season_weeks} weeks each" if self.season_weeks else "off")
            + (f", final standings posted in <#{self.season_channel}>" if self.season_channel else "")
        )


def theme_of(name: Any) -> str | None:
    """A stored theme name if it is one of THEME_WORDS, else None."""
    return name if isinstance(name, str) and name in THEME_WORDS else None


def check_theme(name: str | None) -> None:
    """Refuse politely (SessionError) a theme name that is none of THEME_WORDS (None: not given)."""
    if name is not None and theme_of(name) is None:
        raise SessionError(f"There is no theme {name!r}; the themes are: {', '.join(THEME_WORDS)}.")


def _level(name: Any) -> str:
    """A stored AI level if it still exists, else the default one."""
    return name if isinstance(name, str) and name in LEVELS else DEFAULT_LEVEL


def ai_level_of(info: MatchInfo, seat: int) -> str | None:
    """The AI level playing a seat (None for a person)."""
    s = info.seats[seat]
    return (s.ai or DEFAULT_LEVEL) if s.is_ai else None


def seat_label(info: MatchInfo, seat: int) -> str:
    """A seat's name as the lobby and the board list it: an AI seat with its level ("Bot 1 · hard")."""
    name = seat_names(info)[seat]
    level = ai_level_of(info, seat)
    return name if level is None else f"{name} · {level}"


ARCHIVED_THREAD = 50083  # Discord's "Thread is archived" error code
T = TypeVar("T")


async def archive_own_thread(client: discord.Client, channel: Any) -> None:
    """Archive a thread the bot opened (a game's table) once its game is over or its lobby closed."""
    if not isinstance(channel, discord.Thread) or client.user is None or channel.owner_id != client.user.id:
        return
    try:
        await channel.edit(archived=True)
    except discord.HTTPException as e:
        log.info("could not archive thread %s: %s", channel.id, e)


async def unarchived(channel: Any, action: Callable[[], Awaitable[T]]) -> T:
    """Run a post or edit in a channel; if Discord refuses because the thread is archived, unarchive it and
    try once more."""
    try:
        return await action()
    except discord.HTTPException as e:
        if e.code != ARCHIVED_THREAD or not isinstance(channel, discord.Thread):
            raise
    log.info("thread %s was archived; unarchiving it to post there", channel.id)
    await channel.edit(archived=False)
    return await action()


async def channel_of(client: discord.Client, channel_id: int) -> Any:
    """A channel or thread by id (fetched if not cached); None if it is gone or hidden from us."""
    found = client.get_channel(channel_id)
    if found is not None:
        return found
    try:
        return await client.fetch_channel(channel_id)
    except (discord.NotFound, discord.Forbidden):
        return None


async def direct(client: discord.Client, store: Store, users: tuple[int, ...], text: str) -> list[int]:
    """Send a direct message to those of these people who asked for them (/notify on); who got it."""
    sent = []
    for user_id in users:
        if not await store.user_setting(user_id, DM_SETTING):
            continue
        try:
            with yielding():  # a direct message waits while boards wait for Discord's global limit
                user = client.get_user(user_id) or await client.fetch_user(user_id)
                await user.send(text)
        except discord.HTTPException as e:  # DMs closed, or the person left Discord
            log.info("could not send a direct message to %s: %s", user_id, e)
        else:
            sent.append(user_id)
    return sent


def jump_link(guild_id: int | None, channel_id: int, message_id: int = 0) -> str:
    """A link to a message (or, with no message, to the channel)."""
    where = f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"
    return f"{where}/{message_id}" if message_id else where


async def board_link(store: Store, guild_id: int | None, channel_id: int | None, match_id: int) -> str | None:
    """A link to a match's current board message (its channel while none is known); None without a channel."""
    board = await store.board(match_id)
    if board is not None:
        return jump_link(guild_id, board.channel_id, board.message_id)
    return jump_link(guild_id, channel_id) if channel_id else None
