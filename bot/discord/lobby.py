"""The lobby: /play opens it (in a new thread, or in place by server setting) with Join / Leave / Add AI /
Start / Cancel buttons (custom_id `ag:lb:<action>:<match>`); the host starts once enough players sit.
Add AI seats an AI of the server's level (/config ai_level); the select below the buttons
(`ag:lbai:<match>`) seats one of any level. The seat list shows each AI's level ("Bot 1 · hard").
A game with seat choices (present.choices, e.g. a deck) gets one select per choice (`ag:lbch:<match>:<key>`)
with which each seated person picks theirs; the seat list shows it ("Ada — deck: Crown"), and a seat with
no pick gets a random one at the deal. For a game with a deck builder (present.deck_book), the select of the
choice its decks stand in for also offers "📂 One of my saved decks": the person then gets, privately, a
select of their own decks (`ag:lbdk:<match>`), which is also offered privately to whoever joins and has some;
the seat list shows "Ada — team: Tide v2 (saved deck)". The last rows are the host's table selects
(`ag:lb<option>:<match>`, bot/discord/prefs.py): the table's kind (`ag:lbtable:`, `ranked` or `casual`; the
lobby opens with the server's /config tables:, and the kind is fixed at the deal), the clock (`ag:lbclock:`,
`move` or `bank`), and for a game with response windows the pace (`ag:lbpace:`, `live` or `async`); the
lobby says which ("**Table:** Casual — not rated; hints allowed"), and how windows treat each player (their
own `/notify windows:` setting). A seated person away (/away) is marked "🏖️ away until …".

The lobby is one Components V2 message (lobby_layout): a container in the lobby's colour with its words and
its action rows (the biggest, with seat choices, saved decks and the three table selects, is 19 components
of Discord's 40). Its seats name people, which pings nobody. A lobby posted as an embed before Components V2
keeps its buttons (same custom_ids); its next update clears the embed and lays it out anew (an edit may add
the V2 flag only to a message it empties).

The buttons act only in the lobby: once the game has started or the lobby closed they answer ephemerally
(pointing to /game abandon) and the lobby message loses them. "Take my seat back" (`ag:lb:back:<match>`),
posted when an AI takes over a timed-out seat, is its own component (bot/discord/services.py
ReclaimButton): only that person may press it. Each component is built by its own class (its template and
its constructor are the only places that write its custom_id).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterable
from typing import Any

import discord

from bot.ai import DEFAULT_LEVEL, LEVELS
from bot.discord.away import EMOJI
from bot.discord.common import (
    BARE,
    Look,
    Rebuilt,
    StaticLayout,
    StaticView,
    archive_own_thread,
    channel_of,
    fits,
    reply,
    seat_label,
    shown,
    values_of,
)
from bot.discord.decks import answer_problems
from bot.discord.prefs import CLOCK_WORDS, PACE_WORDS, TABLE_WORDS, table_words
from bot.discord.services import guarded_press, services_of
from bot.discord.settings import Settings
from bot.ratings import RANKED, TABLE
from bot.sessions import MatchInfo, SessionError
from bot.sessions.decks import SAVED, DeckProblems, deck_book
from bot.sessions.lobby import NOT_JOINED, seat_picks
from bot.sessions.packs import pack_of, seat_choices
from bot.store import ABANDONED, ACTIVE, LOBBY, Store
from engine.registry import get as get_game
from engine.table.present import SeatChoice, deck_of, has_windows, of, player_count
from engine.text import printable

log = logging.getLogger("bot.discord.lobby")

ACTIONS = {"join": "Join", "leave": "Leave", "ai": "Add AI", "start": "Start", "cancel": "Cancel"}
STYLES = {
    "join": discord.ButtonStyle.success,
    "leave": discord.ButtonStyle.secondary,
    "ai": discord.ButtonStyle.secondary,
    "start": discord.ButtonStyle.primary,
    "cancel": discord.ButtonStyle.danger,
}
STARTED = (
    "This game has already started, so the lobby buttons do nothing now. "
    "To stop playing, use `/game abandon` in the game's channel."
)
CLOSED = "This lobby is closed; start a new game with `/play`."
# What each level is like, for the lobby's select (a level not named here is offered by its name alone).
LEVEL_WORDS = {
    "easy": "Plays at random, but takes a scoring or winning move when it sees one",
    "normal": "Looks one move ahead for the best position",
    "hard": "Thinks many moves ahead (search); a real opponent",
    "random": "Plays any legal move at random",
}
LEVEL_ORDER = ("easy", "normal", "hard", "random")
RANDOM = "🎲"  # the value of a choice select's "Random" option (no option id is this)
MY_DECKS = "📂"  # the value of its "One of my saved decks" option
FREE_ROWS = 4  # the rows left below the buttons and the AI select: seat choices, then the table's selects
COLOR = 0xA855F7  # the lobby's container
# The table options the host chooses with a select: the values each may take, and the select's placeholder.
TABLE_OPTIONS = {
    TABLE: (TABLE_WORDS, "Table: ranked or casual (host: choose)"),
    "clock": (CLOCK_WORDS, "Clock: per move unless the host chooses a bank"),
    "pace": (PACE_WORDS, "Pace: the server's default (host: choose live or async)"),
}


def choices(info: MatchInfo) -> tuple[SeatChoice, ...]:
    """The seat choices of a match: its game's (its presentation's `choices`), with its card pack's."""
    return seat_choices(get_game(info.game_id), info.options)


def picks_text(info: MatchInfo, seat: int) -> str:
    """What a seat picked, as the lobby lists it: " — deck: Crown" ("" when nothing)."""
    picked = seat_picks(info.options, info.seats)
    mine = dict(picked[seat]) if seat < len(picked) else {}
    book = deck_book(get_game(info.game_id))
    if book is not None and (deck := deck_of(info.options, seat)) is not None:  # dealt with a saved deck
        mine[book.key] = SAVED + str(deck.get("name") or "")
    words = [
        f"{c.label[:1].lower()}{c.label[1:]}: {_option_label(c, mine[c.key])}"
        for c in choices(info)
        if c.key in mine
    ]
    return f" — {', '.join(words)}" if words else ""


def _option_label(choice: SeatChoice, option: str) -> str:
    """A pick in words: the option's label, or "<name> (saved deck)"."""
    if option.startswith(SAVED):
        return f"{shown(option[len(SAVED) :])} (saved deck)"
    return shown(dict(choice.options).get(option, option))  # a pack's ready deck: its author's words


def pack_words(info: MatchInfo) -> str:
    """The card pack a match is dealt with, as the lobby and the board name it: "Card pack Winter v2" ("" when
    it has none)."""
    found = pack_of(info.options)
    return "" if found is None else f"Card pack {shown(found[0])} v{found[1]}"


def away_mark(info: MatchInfo, user_id: int | None, settings: Settings) -> str:
    """A seated person's time away, as the lobby lists it: " — 🏖️ away until <t:…:f>" ("" when not away)."""
    stay = settings.known_away(info.guild_id, user_id)
    return f" — {EMOJI} away until <t:{int(stay.until)}:f>" if stay is not None else ""


def levels() -> list[str]:
    """The AI levels there are, weakest first (the known ones), then any others."""
    return [x for x in LEVEL_ORDER if x in LEVELS] + [x for x in LEVELS if x not in LEVEL_ORDER]


def lobby_words(info: MatchInfo, settings: Settings) -> tuple[str, str]:
    """The lobby in words: its headline (game, player range or the table size chosen, what to do, the clock,
    the pace, with the server's settings as last read) and its seats (host, picks, who is away)."""
    game = get_game(info.game_id)
    lo, hi = game.min_players, game.max_players
    table = info.options.get("seats")
    seats = [
        f"{i + 1}. {seat_label(info, i) if s.is_ai else f'<@{s.user_id}>'}"
        + (" (host)" if s.user_id == info.host_user and not s.is_ai else "")
        + picks_text(info, i)
        + away_mark(info, s.user_id, settings)
        for i, s in enumerate(info.seats)
    ]
    if info.status == LOBBY:
        need = max(0, (table or lo) - len(info.seats))
        status = (
            f"Waiting for {need} more player{'s' if need != 1 else ''}."
            if need
            else "Ready: the host can press **Start**."
        )
        players = f"a table of {table} players" if table else player_count(game)
        desc = (
            f"{game.title} for {players}. Press **Join** to take a seat; "
            f"the host can **Add AI** seats.\n{status}"
        )
        if choices(info):
            desc += "\nPlayers may choose below; a seat with no choice gets a random one."
        if pack := pack_words(info):
            desc += f"\n**{pack}**: its cards join the game's own (`/card` shows them)."
        known = settings.known(info)
        hints = known.hints if known is not None else True
        desc += f"\n**Table:** {table_words(info.options, hints)} — the host may change it below."
        changeable = " — the host may change it below" if "clock" in table_rows(info)[1] else ""
        desc += f"\n**Clock:** {settings.table_clock(info)}{changeable}."
        if has_windows(of(game)):
            default = "" if info.options.get("pace") else " (the server's default)"
            desc += (
                f"\n**Pace:** {settings.pace(info)}{default} — the host may change it below.\n**Response "
                "windows** treat each player as they chose with `/notify windows:` (by default, a window you "
                "cannot respond to passes at once)."
            )
    elif info.status == ACTIVE or info.state_id > 0:
        desc = "The game has started — the board is below."
    else:
        desc = info.note or "This lobby was cancelled."
    head = f"### {game.title} lobby — game #{info.id}\n{desc}"
    return head, f"**Seats ({len(info.seats)}/{table or hi})**\n" + ("\n".join(seats) or "—")


def lobby_layout(
    info: MatchInfo, settings: Settings, *, ping: str = "", buttons: bool = True
) -> StaticLayout:
    """The lobby as one Components V2 message: the line that pings (a rematch's), then a container in the
    lobby's colour with its words (lobby_words) and, while it is open, its action rows (`buttons`)."""
    ping, head, seats = fits([ping, *lobby_words(info, settings)])
    body: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay(t) for t in (head, seats) if t]
    if buttons:
        body += lobby_rows(info)
    layout = StaticLayout()
    if ping:
        layout.add_item(discord.ui.TextDisplay(ping))
    layout.add_item(discord.ui.Container(*body, accent_colour=COLOR))
    return layout


def lobby_message(
    info: MatchInfo, settings: Settings, ping: str = "", notify: Iterable[int] = ()
) -> dict[str, Any]:
    """The lobby message as keyword arguments of a post or an edit: its layout, with no content nor embed
    (an edit of a lobby posted as an embed before Components V2 clears them, which turns it into a V2
    message); no buttons once it is closed. Its seats name people, which pings nobody (an embed never did):
    only the people `notify` lists (those a rematch's `ping` line asks)."""
    users = [discord.Object(u) for u in notify]
    mentions = discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)
    layout = lobby_layout(info, settings, ping=ping)
    return {"view": layout, "content": None, "embed": None, "allowed_mentions": mentions}


def lobby_rows(info: MatchInfo) -> list[discord.ui.ActionRow[Any]]:
    """The lobby's action rows: the five buttons, the AI level select, the seat-choice selects and the
    host's table selects (none once the lobby is closed)."""
    if info.status != LOBBY:
        return []
    rows = [discord.ui.ActionRow(*(LobbyButton(action, info.id).item for action in ACTIONS))]
    options = [
        discord.SelectOption(label=f"Bot · {level}", value=level, description=LEVEL_WORDS.get(level))
        for level in levels()[:25]
    ]
    if options:
        look = Look(tuple(options), "Add an AI of a chosen level…")
        rows.append(discord.ui.ActionRow(LobbyAiSelect(info.id, look).item))
    book = deck_book(get_game(info.game_id))
    picks, table = table_rows(info)
    for choice in picks:
        offered = [
            discord.SelectOption(label=printable(label)[:100], value=o[:100]) for o, label in choice.options
        ][:25]
        if book is not None and book.key == choice.key:  # room for "my saved decks" (and Random if it fits)
            offered = [*offered[:24], discord.SelectOption(
                label="One of my saved decks…", value=MY_DECKS, emoji="📂",
                description="Decks you built with /deck save (a menu of yours opens)",
            )]  # fmt: skip
        if len(offered) < 25:
            offered.append(discord.SelectOption(label="Random", value=RANDOM, emoji="🎲"))
        placeholder = f"Choose your {choice.label} (random if none)"[:150]
        look = Look(tuple(offered), placeholder)
        rows.append(discord.ui.ActionRow(LobbyChoiceSelect(info.id, choice.key, look).item))
    rows += [discord.ui.ActionRow(table_select(info, key)) for key in table]
    return rows


def table_rows(info: MatchInfo) -> tuple[list[SeatChoice], list[str]]:
    """The seat choices and the table options (its kind, the clock, and the pace for a game with windows)
    that get a select in the lobby's free rows; a seat choice matters more than the clock, so with no room
    left the clock select gives way (the table keeps `per move`)."""
    picks = list(choices(info))
    table = [TABLE, "clock", "pace"] if has_windows(of(get_game(info.game_id))) else [TABLE, "clock"]
    if len(picks) + len(table) > FREE_ROWS:
        table.remove("clock")
    return picks[: FREE_ROWS - len(table)], table


def table_select(info: MatchInfo, key: str) -> discord.ui.Select[Any]:
    """The host's select of one table option (TABLE_OPTIONS), the table's choice marked (a table dealt
    before tables had a kind is ranked)."""
    words, placeholder = TABLE_OPTIONS[key]
    chosen = info.options.get(key, RANKED if key == TABLE else None)
    options = [discord.SelectOption(label=w[:100], value=v, default=v == chosen) for v, w in words.items()]
    return LobbyTableSelect(key, info.id, Look(tuple(options), placeholder)).item


async def remember_lobby_message(store: Store, info: MatchInfo, message: discord.Message) -> None:
    """Store where the lobby message is, so that it can lose its buttons when the lobby closes."""
    await store.set_lobby_message(info.id, message.channel.id, message.id)


async def redraw_lobby_message(client: discord.Client, settings: Settings, info: MatchInfo) -> None:
    """Redraw a lobby's message in place (after a change made from another message)."""
    where = await settings.store.lobby_message(info.id)
    channel = await channel_of(client, where[0]) if where is not None else None
    if where is None or channel is None:
        return
    with contextlib.suppress(discord.HTTPException):
        await channel.get_partial_message(where[1]).edit(**lobby_message(info, settings))


async def my_decks_menu(interaction: discord.Interaction, info: MatchInfo) -> tuple[str, StaticView] | None:
    """A person's own saved decks for this lobby's game, as a private select; None if the game has no
    deck builder or the person no decks."""
    game = get_game(info.game_id)
    book = deck_book(game)
    if book is None:
        return None
    decks = await services_of(interaction).store.decks(interaction.user.id, info.game_id)
    if not decks:
        return None
    label = next((c.label for c in choices(info) if c.key == book.key), "deck")
    view = StaticView()
    options = [
        discord.SelectOption(label=f"{printable(d.name)} (yours)"[:100], value=d.name) for d in decks[:25]
    ]
    placeholder = f"Bring one of your saved decks as your {label}"[:150]
    view.add_item(LobbyDeckSelect(info.id, Look(tuple(options), placeholder)).item)
    text = (
        f"📂 Your saved {game.title} decks: bring one to game #{info.id} as your {label}, "
        "or choose a ready one (or Random) in the lobby."
    )
    return text, view


async def close_lobby_message(client: discord.Client, settings: Settings, info: MatchInfo) -> None:
    """Redraw a started or closed lobby's message without its buttons (if we know where it is)."""
    where = await settings.store.lobby_message(info.id)
    if where is None:
        return
    channel = await channel_of(client, where[0])
    if channel is None:
        return
    with contextlib.suppress(discord.HTTPException):
        await channel.get_partial_message(where[1]).edit(**lobby_message(info, settings))
    if info.status == ABANDONED:  # closed before it started: its table is done with
        await archive_own_thread(client, channel)


async def still_open(interaction: discord.Interaction, mid: int) -> MatchInfo | None:
    """The lobby a select of it names, if it is still open; else None, the presser told it started or
    closed."""
    info = await services_of(interaction).sessions.get(mid)
    if info.status != LOBBY:
        await reply(interaction, STARTED if info.status == ACTIVE else CLOSED)
        return None
    return info


class LobbyButton(
    Rebuilt,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ag:lb:(?P<action>(?!back:)[a-z]+):(?P<mid>\d+)",
):
    """One lobby button; the lobby message is redrawn in place after every change. (Its `back` action is
    "Take my seat back": bot/discord/services.py ReclaimButton.)"""

    def __init__(self, action: str, mid: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=ACTIONS.get(action, action),
                style=STYLES.get(action, discord.ButtonStyle.secondary),
                custom_id=f"ag:lb:{action}:{mid}",
            )
        )
        self.action, self.mid = action, mid

    async def callback(self, interaction: discord.Interaction) -> None:
        """Join, leave, add an AI, start or cancel."""
        await guarded_press(interaction, self.mid, lambda: self._act(interaction))

    async def _act(self, interaction: discord.Interaction) -> None:
        services = services_of(interaction)
        sessions, settings = services.sessions, services.settings
        user = interaction.user
        mid = self.mid
        if self.action not in ACTIONS:
            await reply(interaction, "That button no longer exists.")
            return
        info = await sessions.get(mid)
        if info.status != LOBBY:  # an old lobby message, or a press just after Start: nothing changes
            await reply(interaction, STARTED if info.status == ACTIVE else CLOSED)
            if interaction.message is not None:  # and the message loses its buttons, if it still had them
                with contextlib.suppress(discord.HTTPException):
                    await interaction.message.edit(**lobby_message(info, settings))
            return
        if self.action == "join":
            info = await sessions.join(mid, user.id, user.display_name)
            await interaction.response.edit_message(**lobby_message(info, settings))
            if (menu := await my_decks_menu(interaction, info)) is not None:  # their decks, privately
                await interaction.followup.send(menu[0], view=menu[1], ephemeral=True)
            return
        elif self.action == "leave":
            info = await sessions.leave(mid, user.id, lobby_only=True)
        elif self.action == "ai":  # at the server's level (/config ai_level)
            level = (
                (await settings.of(interaction.guild_id)).ai_level if interaction.guild_id else DEFAULT_LEVEL
            )
            info = await sessions.add_ai(mid, user.id, level)
        elif self.action == "start":
            info = await sessions.start(mid, user.id)
        else:
            info = await sessions.cancel(mid, user.id)
        await interaction.response.edit_message(**lobby_message(info, settings))
        if info.status == ABANDONED and interaction.channel is not None:
            await archive_own_thread(services.client, interaction.channel)


class LobbyAiSelect(
    Rebuilt, discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"ag:lbai:(?P<mid>\d+)"
):
    """The lobby's "Add an AI of a chosen level" select; its values are level names."""

    def __init__(self, mid: int, look: Look = BARE) -> None:
        super().__init__(look.select(f"ag:lbai:{mid}"))
        self.mid = mid

    async def callback(self, interaction: discord.Interaction) -> None:
        """Seat an AI of the chosen level (host only), then redraw the lobby in place."""

        async def work() -> None:
            services = services_of(interaction)
            sessions, settings = services.sessions, services.settings
            values = values_of(interaction)
            level = values[0] if values else ""
            if (info := await still_open(interaction, self.mid)) is None:
                return
            info = await sessions.add_ai(self.mid, interaction.user.id, level)
            await interaction.response.edit_message(**lobby_message(info, settings))

        await guarded_press(interaction, self.mid, work)


class LobbyTableSelect(
    Rebuilt,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"ag:lb(?P<key>table|clock|pace):(?P<mid>\d+)",
):
    """The lobby's select of a table option (host only): its kind (`ranked` or `casual`), the clock (`move`
    or `bank`) or the pace (`live` or `async`); see bot/discord/prefs.py."""

    def __init__(self, key: str, mid: int, look: Look = BARE) -> None:
        super().__init__(look.select(f"ag:lb{key}:{mid}"))
        self.key, self.mid = key, mid

    async def callback(self, interaction: discord.Interaction) -> None:
        """Set the table option (host only), then redraw the lobby in place."""

        async def work() -> None:
            services = services_of(interaction)
            sessions, settings = services.sessions, services.settings
            values = values_of(interaction)
            value = values[0] if values else ""
            if (info := await still_open(interaction, self.mid)) is None:
                return
            allowed = TABLE_OPTIONS[self.key][0]
            if value not in allowed:
                raise SessionError(f"That {self.key} is not one Agora knows; choose {' or '.join(allowed)}.")
            info = await sessions.set_option(self.mid, interaction.user.id, self.key, value)
            await interaction.response.edit_message(**lobby_message(info, settings))

        await guarded_press(interaction, self.mid, work)


class LobbyChoiceSelect(
    Rebuilt, discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"ag:lbch:(?P<mid>\d+):(?P<key>[\w-]+)"
):
    """A lobby's select for one seat choice (e.g. "Choose your Deck"); its values are option ids."""

    def __init__(self, mid: int, key: str, look: Look = BARE) -> None:
        super().__init__(look.select(f"ag:lbch:{mid}:{key}"))
        self.mid, self.key = mid, key

    async def callback(self, interaction: discord.Interaction) -> None:
        """Record a seated person's pick (refused politely for anyone else), then redraw the lobby."""

        async def work() -> None:
            services = services_of(interaction)
            sessions, settings = services.sessions, services.settings
            values = values_of(interaction)
            option = values[0] if values else RANDOM
            if (info := await still_open(interaction, self.mid)) is None:
                return
            if option == MY_DECKS:
                await self._my_decks(interaction, info)
                return
            info = await sessions.pick(
                self.mid, interaction.user.id, self.key, None if option == RANDOM else option
            )
            await interaction.response.edit_message(**lobby_message(info, settings))

        await guarded_press(interaction, self.mid, work)

    async def _my_decks(self, interaction: discord.Interaction, info: MatchInfo) -> None:
        """The "One of my saved decks" option: the person's own decks, privately (seated people only)."""
        if info.seat_of(interaction.user.id) is None:
            raise SessionError(NOT_JOINED)
        menu = await my_decks_menu(interaction, info)
        if menu is None:
            title = get_game(info.game_id).title
            raise SessionError(
                f"You have no saved {title} decks yet. Build one with `/deck save` (`/deck show` gives a "
                "ready one to start from), then choose it here; meanwhile pick a ready one or Random."
            )
        await reply(interaction, menu[0], view=menu[1])


class LobbyDeckSelect(
    Rebuilt, discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"ag:lbdk:(?P<mid>\d+)"
):
    """A person's private select of their own saved decks for a lobby; its values are deck names."""

    def __init__(self, mid: int, look: Look = BARE) -> None:
        super().__init__(look.select(f"ag:lbdk:{mid}"))
        self.mid = mid

    async def callback(self, interaction: discord.Interaction) -> None:
        """Bring the chosen deck (checked again by the game), then redraw the lobby message."""

        async def work() -> None:
            services = services_of(interaction)
            values = values_of(interaction)
            name = values[0] if values else ""
            if (info := await still_open(interaction, self.mid)) is None:
                return
            try:
                info = await services.sessions.pick_deck(self.mid, interaction.user.id, name)
            except DeckProblems as e:
                await answer_problems(interaction, e, info.game_id, name)
                return
            await interaction.response.edit_message(
                content=f"✅ You bring your deck **{shown(name)}** to game #{info.id}.", view=None
            )
            await redraw_lobby_message(services.client, services.settings, info)

        await guarded_press(interaction, self.mid, work)
