"""The slash commands, one class per concern, each built with the bot's services (bot/discord/services.py):

    /play, /learn, /game …, /games   TableCommands, GameCommands (a game in a channel; a practice game)
    /rules, /card, /stats, /leaderboard   ReadingCommands        (anyone may look)
    /config                       ConfigCommands                 (Manage Server)
    /notify, /away …              NotifyCommands, AwayCommands   (a person's own choices)
    /deck …                       bot/discord/decks.py DeckCommands

A group of subcommands is an `app_commands.Group` class; the top-level commands of a concern are methods
marked `@command(name, description)` of a `Commands` class, registered bound to it (`install`). Every
command runs under `guarded` (bot/discord/services.py): refusals and outages answered politely. `install`
adds them to the tree in the order Discord has always been given them.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.discord import replay
from bot.discord.away import EMOJI, NOTE_MAX, left_words
from bot.discord.board import board_alt, board_file, board_layout, on_board
from bot.discord.common import (
    DM_SETTING,
    MAX_AWAY_DAYS,
    MAX_RESPONSE_WAIT,
    THEME_WORDS,
    check_range,
    check_theme,
    drawn_names,
    jump_link,
    parse_quiet,
    parse_zone,
    reply,
    shown,
    theme_of,
)
from bot.discord.decks import DeckCommands
from bot.discord.learn import THREADS_OFF, hint_answer, open_table, practice_of, private_thread
from bot.discord.lobby import (
    LEVEL_WORDS,
    close_lobby_message,
    levels,
    lobby_layout,
)
from bot.discord.menus import SETTLE_WAIT, hand_message
from bot.discord.mine import games_list
from bot.discord.packs import (
    add_pack,
    card_packs,
    pack_choices,
    pack_list,
    pack_to_remove,
    removal_choices,
    remove_pack,
)
from bot.discord.pages import log_page, rules_message
from bot.discord.prefs import BOARD_WORDS, IMAGE, SERVER_THEME, TEXT
from bot.discord.replay import MAX_MATCH_ID
from bot.discord.seasons import MAX_WEEKS, configure, leaderboard_embeds, season_choices
from bot.discord.services import Services, guard, guarded
from bot.discord.standings import SCOPES, result_changes, stats_text
from bot.discord.texts import card_answer, card_choices
from bot.discord.tournaments import TournamentCommands
from bot.ratings import ALL_SERVERS, CASUAL, RANKED
from bot.sessions import MatchInfo, SessionError
from bot.sessions.packs import PACK, pack_option
from bot.sessions.types import WINDOW_HELP, WINDOW_SETTINGS, WINDOW_WORDS, own_seat
from bot.store import BROKEN, FINISHED, LOBBY
from engine.registry import games
from engine.table import lesson
from engine.table.present import player_count

log = logging.getLogger("bot.discord.commands")
MAX_LOG_PAGE = 10000
# /config's numbers: declared to Discord (app_commands.Range) and checked again here (check_range).
MAX_REMINDER_MINUTES = 10080  # a week
MAX_TIMEOUT_MINUTES = 43200  # thirty days
MAX_REMINDERS = 20
MAX_LOBBY_HOURS = 720  # thirty days
DM_LEADERBOARD = (
    "A DM has no server of its own: use `/leaderboard` in a server's channel for its players, or choose "
    "`scope: all servers` here."
)
DM_WINDOWS = "`windows:` is set per server: use `/notify windows:` in a server's channel."
F = TypeVar("F", bound=Callable[..., Any])


def theme_choices() -> list[app_commands.Choice[str]]:
    """The images' themes as slash-command choices (dark, light, high contrast)."""
    return [app_commands.Choice(name=words, value=name) for name, words in THEME_WORDS.items()]


def game_choices() -> list[app_commands.Choice[str]]:
    """Every registered game as a slash-command choice."""
    return [
        app_commands.Choice(name=g.title, value=g.id) for g in sorted(games().values(), key=lambda g: g.title)
    ][:25]


def command(name: str, description: str, *, games: bool = False) -> Callable[[F], F]:
    """Mark a method of a `Commands` class as the top-level slash command `name`; `games`: its `game` option
    offers the games registered when the bot is built (a test registers its own)."""

    def mark(method: F) -> F:
        method.__agora_command__ = (name, description, games)  # type: ignore[attr-defined]  # for commands()
        return method

    return mark


class Commands:
    """A concern's top-level slash commands: its methods marked with `command`, bound to its services."""

    def __init__(self, services: Services) -> None:
        self.services = services

    def commands(self) -> list[app_commands.Command[Any, ..., None]]:
        """Its commands, in the order they are written."""
        found = []
        for attr, method in vars(type(self)).items():
            if (marked := getattr(method, "__agora_command__", None)) is not None:
                name, description, games = marked
                made: app_commands.Command[Any, ..., Any] = app_commands.Command(
                    name=name, description=description, callback=getattr(self, attr)
                )
                found.append(app_commands.choices(game=game_choices())(made) if games else made)
        return found


async def _here(services: Services, interaction: discord.Interaction, *, ended: bool = False) -> MatchInfo:
    """The channel's lobby or running game; with ended=True, else the last game it had."""
    sessions = services.sessions
    info = await sessions.match_for_channel(interaction.channel_id or 0)
    if info is None and ended and (mid := await services.store.latest_match_id(interaction.channel_id or 0)):
        info = await sessions.get(mid)
    if info is None:
        raise SessionError("There is no game in this channel. Start one with /play.")
    return info


def _is_admin(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


ABANDON_REFUSED = "Only the host, a server manager, or all the players together can abandon this game."


def level_choices() -> list[app_commands.Choice[str]]:
    """Every AI level as a slash-command choice."""
    return [
        app_commands.Choice(name=f"{lv} — {LEVEL_WORDS[lv]}"[:100] if lv in LEVEL_WORDS else lv, value=lv)
        for lv in levels()
    ][:25]


def dm_refusal(name: str) -> str:
    """The one-line answer to a server command (`name`, e.g. "game status") used in a direct message."""
    if name == "play":
        return "Use /play in a server's channel; I can't host a game in a DM."
    return f"Use /{name} in a server's channel; a DM has no server's games or settings to act on."


def server_only(command: Any) -> bool:
    """Whether a command is registered for servers only (`guild_only`, on it or on its group)."""
    root = getattr(command, "root_parent", None) or command
    return bool(getattr(root, "guild_only", False))


async def in_a_server(interaction: discord.Interaction) -> bool:
    """The tree's check before every command: a server command is refused in a DM, in one line. Discord
    offers those in servers only, but an interaction can be forged from a DM all the same."""
    command = interaction.command
    if interaction.guild_id is not None or command is None or not server_only(command):
        return True
    if interaction.type == discord.InteractionType.autocomplete:  # nothing to suggest outside a server
        with contextlib.suppress(discord.HTTPException):
            await interaction.response.autocomplete([])
        return False
    refusal = SessionError(dm_refusal(command.qualified_name))

    async def refuse() -> None:
        raise refusal

    await guard(interaction, None, refuse)
    return False


class TableCommands(Commands):
    """/play opens a lobby; /learn deals a practice game; /games lists a person's games here."""

    @command("play", "Open a lobby for a game", games=True)
    @app_commands.describe(
        game="Which game",
        seats="How many players the table is for (default: any)",
        pack="One of this server's card packs for the game: its cards join the game's own",
    )
    @app_commands.autocomplete(pack=pack_choices)
    @app_commands.guild_only()
    @guarded
    async def play(
        self,
        interaction: discord.Interaction,
        game: str,
        seats: app_commands.Range[int, 1, 25] | None = None,
        pack: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        """/play: open a lobby, in a new thread unless the server chose "here" (or we are in a thread
        already); `seats` sets the table's size, `pack` deals it with one of this server's card packs."""
        services = self.services
        found = games().get(game)
        if found is None or interaction.guild_id is None:
            raise SessionError(f"There is no game called {game!r}.")
        title = found.title
        if seats is not None and not found.min_players <= seats <= found.max_players:
            raise SessionError(f"{title} is for {player_count(found, ' to ')}.")
        options: dict[str, Any] | None = {"seats": seats} if seats is not None else None
        if pack is not None and pack.strip():  # the pack's latest version, copied into the match
            dealt = await pack_option(services.store, interaction.guild_id, game, pack)
            options = {**(options or {}), PACK: dealt}

        async def respond(**kwargs: Any) -> discord.Message:
            await interaction.response.send_message(**kwargs)
            return await interaction.original_response()

        channel = interaction.channel
        await open_table(
            services, interaction.user, interaction.guild_id, channel, game, title, options, respond
        )

    @command("learn", "Learn a game by playing it: a private practice game, guided step by step", games=True)
    @app_commands.describe(game="Which game")
    @app_commands.guild_only()
    @guarded
    async def learn(self, interaction: discord.Interaction, game: str) -> None:
        """/learn: a private practice game of the game's tutorial against the easy AI (a private thread, or
        the learner's own messages where the server plays in place); the one still going comes back."""
        services = self.services
        found = games().get(game)
        if found is None or interaction.guild_id is None:
            raise SessionError(f"There is no game called {game!r}.")
        if lesson.of(found) is None:
            raise SessionError(f"{found.title} has no tutorial yet; `/rules` shows how to play it.")
        user, guild = interaction.user, interaction.guild_id
        await interaction.response.defer(ephemeral=True, thinking=True)
        info = await practice_of(services, interaction.client, guild, user.id, game)
        note = "📘 Your practice game, where you left it."
        if info is None:
            thread = None
            if (await services.settings.of(guild)).threads:
                thread = await private_thread(interaction.channel, found.title, user.display_name, user)
            where = thread.id if thread is not None else None
            info = await services.sessions.learn(where, guild, game, user.id, name=user.display_name)
            note = f"📘 **Learn {found.title}** — a practice game against the easy AI, never rated."
            if thread is None:
                note += f"\n-# {THREADS_OFF}"
        if info.channel_id is not None:
            link = jump_link(guild, info.channel_id)
            await interaction.followup.send(
                f"{note}\nIt is in a private thread only you can see: {link} — press **My hand & moves** "
                "there: the lesson's move is first in your menu, marked 👉.",
                ephemeral=True,
            )
            return
        await services.sessions.settled(info.id, SETTLE_WAIT)
        kwargs = await hand_message(interaction, info.id, note)
        await interaction.followup.send(ephemeral=True, view=kwargs["view"], files=kwargs["attachments"])

    @command("games", "Your games on this server: whose move, and a link to each board")
    @app_commands.guild_only()
    @guarded
    async def games(self, interaction: discord.Interaction) -> None:
        """/games."""
        await games_list(self.services, interaction)


class GameCommands(app_commands.Group, name="game", description="The game in this channel", guild_only=True):
    """/game status, log, abandon, undo, hint, replay and export: the game in this channel."""

    def __init__(self, services: Services) -> None:
        super().__init__()
        self.services = services

    @app_commands.command(name="status", description="Whose turn it is, the scores and the last events")
    @guarded
    async def status(self, interaction: discord.Interaction) -> None:
        """/game status: the game in this channel (or the last one it had, with its result), in words."""
        services = self.services
        info = await _here(services, interaction, ended=True)
        if info.status == BROKEN:
            raise SessionError(info.note or "This game has been stopped; start a new one with /play.")
        try:
            view = await services.sessions.view_for(info.id, None)
        except SessionError:  # a lobby, open or closed before the deal
            await reply(interaction, None, view=lobby_layout(info, services.settings, buttons=False))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)  # drawing the board takes a moment
        ratings = await result_changes(services.store, info) if info.status == FINISHED else ""
        recent = list(await services.boards.recent_for(info.id))
        away = await on_board(services.settings, info)
        alt = board_alt(info, view)
        layout = board_layout(
            info, view, recent, services.settings, ratings=ratings, away=away, buttons=False, alt=alt
        )
        theme = await services.settings.theme(info.guild_id)
        png = await services.drawing.board(info.game_id, view, drawn_names(info), info.options, theme)
        await reply(interaction, None, view=layout, file=board_file(png, alt))

    @app_commands.command(name="log", description="Everything that happened (what you may see)")
    @app_commands.describe(page="Page number (default: the latest)")
    @guarded
    async def log(
        self, interaction: discord.Interaction, page: app_commands.Range[int, 0, MAX_LOG_PAGE] = 0
    ) -> None:
        """/game log."""
        check_range("page", page, 0, MAX_LOG_PAGE)
        info = await _here(self.services, interaction, ended=True)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send(
            ephemeral=True, **await log_page(self.services, interaction, info.id, page - 1)
        )

    @app_commands.command(
        name="abandon", description="Stop the game (host, server managers, or all players agreeing)"
    )
    @guarded
    async def abandon(self, interaction: discord.Interaction) -> None:
        """/game abandon: the host or an admin stops the game; otherwise every player must ask."""
        services = self.services
        info = await _here(services, interaction)
        user = interaction.user.id
        host, admin = user == info.host_user, _is_admin(interaction)
        if not (host or admin):
            own_seat(info, user, ABANDON_REFUSED)
            closed, missing = await services.sessions.vote_abandon(info.id, user)
            if not missing and info.status == LOBBY:
                await close_lobby_message(services.client, services.settings, closed)
            if missing:
                still = " ".join(f"<@{u}>" for u in sorted(missing))
                await interaction.response.send_message(
                    f"<@{user}> wants to abandon game #{info.id}. It stops when every player agrees "
                    f"with /game abandon; still to agree: {still}."
                )
            else:
                await interaction.response.send_message(
                    f"Game #{info.id} was abandoned: every player agreed."
                )
            return
        closed = await services.sessions.abandon(info.id, user, force=not host)
        await interaction.response.send_message(
            f"Game #{info.id} was abandoned by {interaction.user.mention}."
        )
        if info.status == LOBBY:
            await close_lobby_message(services.client, services.settings, closed)

    @app_commands.command(name="undo", description="Take back your last move (only within your own turn)")
    @guarded
    async def undo(self, interaction: discord.Interaction) -> None:
        """/game undo: take back your last move (your own turn only, never past a draw or a reveal)."""
        services = self.services
        info = await _here(services, interaction)
        await services.sessions.undo(info.id, interaction.user.id)
        await reply(interaction, "↩️ Your last move was taken back. Press *My hand & moves* on the new board.")

    @app_commands.command(
        name="hint", description="The AI's three best moves for you, with its win estimates"
    )
    @guarded
    async def hint(self, interaction: discord.Interaction) -> None:
        """/game hint: the strongest AI's three best moves for the player to act, with its win estimates,
        ephemerally; searched from what that player can see (in the AI pool, never on the event loop)."""
        info = await _here(self.services, interaction)
        await hint_answer(interaction, info)

    @app_commands.command(name="replay", description="The game as an animated picture, one frame a turn")
    @app_commands.rename(match_id="id")
    @app_commands.describe(match_id="A game's number, from its board's title (default: this channel's game)")
    @guarded
    async def replay(
        self,
        interaction: discord.Interaction,
        match_id: app_commands.Range[int, 1, MAX_MATCH_ID] | None = None,
    ) -> None:
        """/game replay."""
        await replay.replay(self.services, interaction, match_id)

    @app_commands.command(name="export", description="A finished game as a file: its seed and every move")
    @app_commands.rename(match_id="id")
    @app_commands.describe(match_id="A game's number, from its board's title (default: this channel's game)")
    @guarded
    async def export(
        self,
        interaction: discord.Interaction,
        match_id: app_commands.Range[int, 1, MAX_MATCH_ID] | None = None,
    ) -> None:
        """/game export."""
        await replay.export(self.services, interaction, match_id)


async def card_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """/card's names: the game's cards and this server's packs' (never another server's)."""
    game = getattr(interaction.namespace, "game", None) or None
    packs = await card_packs(interaction, game)
    return [app_commands.Choice(name=n, value=v) for n, v in card_choices(game, current, packs=packs)]


class ReadingCommands(Commands):
    """/rules, /card, /stats and /leaderboard: what anyone may read."""

    @command("rules", "How to play a game, and Agora's rulings", games=True)
    @app_commands.describe(game="Which game")
    @guarded
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        """/rules."""
        await interaction.response.defer(ephemeral=True, thinking=True)  # the page may be drawn now
        theme = await self.services.settings.theme(interaction.guild_id)
        await interaction.followup.send(ephemeral=True, **await rules_message(game, theme))

    @command("card", "What a card does", games=True)
    @app_commands.describe(game="Which game", name="The card (type a few letters)")
    @app_commands.autocomplete(name=card_names)
    @guarded
    async def card(self, interaction: discord.Interaction, game: str, name: str) -> None:
        """/card."""
        await reply(interaction, card_answer(game, name, await card_packs(interaction, game)))

    @command("stats", "Games played and won, and your rating in each game", games=True)
    @app_commands.describe(user="Whose record (default: yours)", game="Only this game (default: every game)")
    @guarded
    async def stats(
        self, interaction: discord.Interaction, user: discord.User | None = None, game: str | None = None
    ) -> None:
        """/stats."""
        text = await stats_text(self.services.store, user or interaction.user, game, interaction.guild_id)
        await interaction.response.send_message(text, ephemeral=True)

    @command("leaderboard", "The best players of a game, ranked by rating", games=True)
    @app_commands.describe(
        game="Which game",
        scope="This server's players (default), or all servers'",
        season="The current season (default with seasons), all-time, or a past season",
    )
    @app_commands.choices(
        scope=[app_commands.Choice(name=name, value=value) for value, name in SCOPES.items()]
    )
    @app_commands.autocomplete(season=season_choices)
    @guarded
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: str,
        scope: str = "server",
        season: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        """/leaderboard."""
        guild = interaction.guild_id
        if scope == "server" and guild is None:
            raise SessionError(DM_LEADERBOARD)
        here = guild if scope == "server" and guild is not None else ALL_SERVERS
        embeds = await leaderboard_embeds(self.services.store, game, here, season)
        await interaction.response.send_message(
            embeds=embeds, allowed_mentions=discord.AllowedMentions.none()
        )


class ConfigCommands(Commands):
    """/config: the server's settings (Manage Server), and its card packs."""

    @command("config", "Server settings for games (Manage Server)")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    @app_commands.describe(
        thread_mode="Open lobbies in a new thread, or right here in the channel",
        reminder_minutes="Remind a player after this many minutes, and again as often (0 = never)",
        timeout_minutes="A turn times out after this many minutes (0 = never)",
        timeout_policy="What happens when a turn times out (or a bank table's bank runs out)",
        reminder_count="At most this many reminders in one turn",
        quiet_hours="No reminders between these hours, e.g. 22-7 (or off)",
        timezone="The server's timezone for quiet hours: UTC+2, -05:30 or Europe/Paris",
        lobby_hours="A lobby nobody touches closes after this many hours (0 = never)",
        ai_level="The level of the AI the lobby's Add AI button seats",
        timeout_ai_level="The level of the AI that takes over a timed-out seat",
        hints="Whether players may ask /game hint at casual tables (never at ranked ones)",
        tables="Whether new tables are ranked (rated) or casual (not rated) by default; the host may choose",
        response_wait="Seconds a response window waits for an answer before it passes by itself (0 = never)",
        away_days="Days of time away (/away) each person has a year: their games wait for them (0 = off)",
        season_weeks="Leaderboards per season of this many weeks, the all-time one beside (0 = no seasons)",
        season_channel="Where a season's final standings are posted (default: where season_weeks was set)",
        cardpack="Add a card pack: a .toml file of new cards for a game (a new version if its name exists)",
        remove_cardpack="Stop offering one of this server's card packs (games dealt with it keep it)",
        theme="The colours of this server's boards (each person may choose their hand's: /notify theme:)",
    )
    @app_commands.autocomplete(remove_cardpack=removal_choices)
    @app_commands.choices(
        thread_mode=[
            app_commands.Choice(name="new thread", value="thread"),
            app_commands.Choice(name="here", value="here"),
        ],
        timeout_policy=[
            app_commands.Choice(name="skip the turn", value="skip"),
            app_commands.Choice(name="an AI takes the seat", value="ai"),
            app_commands.Choice(name="the player forfeits (game ends)", value="forfeit"),
        ],
        ai_level=level_choices(),
        timeout_ai_level=level_choices(),
        hints=[app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")],
        tables=[
            app_commands.Choice(name="ranked", value=RANKED),
            app_commands.Choice(name="casual", value=CASUAL),
        ],
        theme=theme_choices(),
    )
    @guarded
    async def config(
        self,
        interaction: discord.Interaction,
        thread_mode: str | None = None,
        reminder_minutes: app_commands.Range[int, 0, MAX_REMINDER_MINUTES] | None = None,
        timeout_minutes: app_commands.Range[int, 0, MAX_TIMEOUT_MINUTES] | None = None,
        timeout_policy: str | None = None,
        reminder_count: app_commands.Range[int, 0, MAX_REMINDERS] | None = None,
        quiet_hours: app_commands.Range[str, 1, 20] | None = None,
        timezone: app_commands.Range[str, 1, 60] | None = None,
        lobby_hours: app_commands.Range[int, 0, MAX_LOBBY_HOURS] | None = None,
        ai_level: str | None = None,
        timeout_ai_level: str | None = None,
        hints: str | None = None,
        response_wait: app_commands.Range[int, 0, MAX_RESPONSE_WAIT] | None = None,
        away_days: app_commands.Range[int, 0, MAX_AWAY_DAYS] | None = None,
        season_weeks: app_commands.Range[int, 0, MAX_WEEKS] | None = None,
        season_channel: discord.TextChannel | None = None,
        cardpack: discord.Attachment | None = None,
        remove_cardpack: app_commands.Range[str, 1, 140] | None = None,
        theme: str | None = None,
        tables: str | None = None,
    ) -> None:
        """/config: every value is checked before anything is changed."""
        gid = interaction.guild_id
        if gid is None or not _is_admin(interaction):
            raise SessionError("Only members with Manage Server can change the settings.")
        check_range("reminder_minutes", reminder_minutes, 0, MAX_REMINDER_MINUTES)
        check_range("timeout_minutes", timeout_minutes, 0, MAX_TIMEOUT_MINUTES)
        check_range("reminder_count", reminder_count, 0, MAX_REMINDERS)
        check_range("lobby_hours", lobby_hours, 0, MAX_LOBBY_HOURS)
        check_range("response_wait", response_wait, 0, MAX_RESPONSE_WAIT)
        check_range("away_days", away_days, 0, MAX_AWAY_DAYS)
        check_range("season_weeks", season_weeks, 0, MAX_WEEKS)
        quiet = None if quiet_hours is None else list(parse_quiet(quiet_hours) or ())  # [] = none
        if timezone is not None:
            parse_zone(timezone)  # refused politely before anything is changed
        check_theme(theme)
        for level in (ai_level, timeout_ai_level):
            if level is not None and level not in levels():
                raise SessionError(f"There is no AI level {level!r}; the levels are: {', '.join(levels())}.")
        changes = {
            "thread_mode": thread_mode,
            "reminder_seconds": None if reminder_minutes is None else reminder_minutes * 60,
            "timeout_seconds": None if timeout_minutes is None else timeout_minutes * 60,
            "timeout_policy": timeout_policy,
            "reminder_count": reminder_count,
            "quiet_hours": quiet,
            "timezone": None if timezone is None else timezone.strip(),
            "lobby_seconds": None if lobby_hours is None else lobby_hours * 3600,
            "ai_level": ai_level,
            "timeout_ai_level": timeout_ai_level,
            "hints": hints,
            "response_seconds": response_wait,
            "away_days": away_days,
            "season_weeks": season_weeks,
            "season_channel": season_channel.id if season_channel is not None else None,
            "theme": theme,
            "tables": tables if tables in (RANKED, CASUAL) else None,  # Discord sends only its choices
        }
        # Card packs: every file and name is checked before anything is written (a refusal changes
        # nothing at all), then the pack is stored, then the settings.
        removing = (
            None
            if remove_cardpack is None
            else await pack_to_remove(self.services, interaction, remove_cardpack)
        )
        done = []
        if cardpack is not None:
            await interaction.response.defer(ephemeral=True, thinking=True)  # a download
            done.append(await add_pack(self.services, interaction, cardpack))
        if removing is not None:
            done.append(await remove_pack(self.services, interaction, removing))
        for key, value in changes.items():
            if value is not None:
                await self.services.settings.set(gid, key, value)
        if season_weeks is not None:  # the final standings go where seasons were set, unless told otherwise
            if season_channel is None and (await self.services.settings.of(gid)).season_channel is None:
                await self.services.settings.set(gid, "season_channel", interaction.channel_id)
            now = self.services.sessions.clock()
            said = await configure(self.services.store, gid, season_weeks, now)
            done += [said] if said else []
        settings = await self.services.settings.of(gid)
        listed = await pack_list(self.services.store, gid)
        text = "\n\n".join([*done, f"⚙️ Settings for this server:\n{settings.describe()}", listed])
        await reply(interaction, text.strip())


class NotifyCommands(Commands):
    """/notify: a person's reminders by DM, how response windows treat them, and how they see their hand."""

    @command("notify", "Your reminders by DM, how response windows treat you, and how you see your hand")
    @app_commands.describe(
        dms="on: also send me reminders by direct message; off: only in the channel",
        windows="How response windows, and decisions where you can only pass, treat you on this server",
        theme="The colours of your hand image, on every server (default: the server's boards' colours)",
        board="Your hand as an image, or your hand and the board as text (for screen readers)",
    )
    @app_commands.choices(
        dms=[app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")],
        windows=[app_commands.Choice(name=WINDOW_WORDS[k], value=k) for k in WINDOW_SETTINGS],
        theme=[*theme_choices(), app_commands.Choice(name="Each server's", value=SERVER_THEME)],
        board=[
            app_commands.Choice(name="image", value=IMAGE),
            app_commands.Choice(name="text (for screen readers and slow connections)", value=TEXT),
        ],
    )
    @guarded
    async def notify(
        self,
        interaction: discord.Interaction,
        dms: str | None = None,
        windows: str | None = None,
        theme: str | None = None,
        board: str | None = None,
    ) -> None:
        """/notify: every value is checked before anything is changed; with none, the current choices."""
        services = self.services
        user = interaction.user.id
        if windows is not None and interaction.guild_id is None:
            raise SessionError(DM_WINDOWS)  # before anything is changed
        check_theme(None if theme == SERVER_THEME else theme)
        if board is not None and board not in BOARD_WORDS:
            raise SessionError(f"`board:` is `{IMAGE}` or `{TEXT}`.")
        if dms is not None:
            await services.store.set_user_setting(user, DM_SETTING, True if dms == "on" else None)
        if windows is not None:
            await services.prefs.set_windows(interaction.guild_id, user, windows)
            await services.sessions.setting_changed(user)  # a window waiting on them may pass now
        if theme is not None:
            await services.prefs.set_theme(user, theme_of(theme))
        if board is not None:
            await services.prefs.set_board_style(user, board)
        on = bool(await services.store.user_setting(user, DM_SETTING))
        setting = await services.prefs.windows(interaction.guild_id, user)
        await reply(
            interaction,
            (
                "🔔 Reminders reach you by direct message too. `/notify dms:off` stops them."
                if on
                else "🔕 Reminders reach you in the game's channel only; `/notify dms:on` adds DMs."
            )
            + f"\n🪟 Response windows: **{WINDOW_WORDS[setting]}** — {WINDOW_HELP[setting]}. "
            "Change it with `/notify windows:`."
            + "\n"
            + await image_choices(services, interaction.guild_id, user),
        )


async def image_choices(services: Services, guild_id: int | None, user: int) -> str:
    """A person's image choices in words, for /notify: their hand's theme and image or text."""
    chosen = await services.prefs.theme(user)
    if chosen is None:
        here = f" (here: {THEME_WORDS[await services.settings.theme(guild_id)]})" if guild_id else ""
        colours = f"the server's boards' colours{here}"
    else:
        colours = f"**{THEME_WORDS[chosen]}**"
    style = await services.prefs.board_style(user)
    return (
        f"🎨 Your hand image: {colours}. Change it with `/notify theme:`.\n"
        f"🃏 *My hand & moves* shows **{BOARD_WORDS[style]}**. Change it with `/notify board:`."
    )


class AwayCommands(app_commands.Group, name="away", description="Time away: your games here wait for you"):
    """/away until and /away back: time away from this server's games (bot/discord/away.py)."""

    def __init__(self, services: Services) -> None:
        super().__init__(guild_only=True)
        self.services = services

    @app_commands.command(
        name="until", description="Go away until a date: no reminders, no timeouts, others told"
    )
    @app_commands.describe(
        date="The last day away, e.g. 2025-07-31 (server time), or a length such as 3d or 2w",
        note="A short note the other players see under the board (at most 100 characters)",
    )
    @guarded
    async def until(
        self,
        interaction: discord.Interaction,
        date: app_commands.Range[str, 1, 40],
        note: app_commands.Range[str, 1, NOTE_MAX] | None = None,
    ) -> None:
        """/away until: go away from this server's games until a date, with a note the others see."""
        services = self.services
        gid, user = interaction.guild_id, interaction.user.id
        if gid is None:
            raise SessionError("Use `/away` in a server: time away is per server.")
        settings = await services.settings.of(gid)
        stay = await services.away.go(gid, user, date, note or "", settings)
        await services.timers.redraw_games(gid, user)
        at = int(stay.until)
        noted = f" Your note: “{shown(stay.note)}”." if stay.note else ""
        await reply(
            interaction,
            f"{EMOJI} You are away from this server's games until <t:{at}:f> (<t:{at}:R>): they wait for "
            f"you, with no reminders and no timeouts, and their boards say so.{noted} "
            f"{left_words(stay, services.sessions.clock(), settings)}. `/away back` or any button of one of "
            "your games here ends it sooner.",
        )

    @app_commands.command(name="back", description="Come back now: your games count your time again")
    @guarded
    async def back(self, interaction: discord.Interaction) -> None:
        """/away back: end one's time away from this server's games now."""
        services = self.services
        gid, user = interaction.guild_id, interaction.user.id
        if gid is None:
            raise SessionError("Use `/away back` in a server: time away is per server.")
        settings = await services.settings.of(gid)
        ended = await services.away.end(gid, user)
        if ended is not None:
            await services.timers.redraw_games(gid, user)
        left = left_words(await services.away.stay(gid, user), services.sessions.clock(), settings)
        text = (
            "👋 Welcome back: your games here count your time again." if ended else "You are not away here."
        )
        await reply(interaction, f"{text} {left}." if settings.away_days else text)


def install(tree: app_commands.CommandTree[Any], services: Services) -> None:
    """Add every command to the tree, in the order Discord has always been given them (the registered JSON
    is the same byte for byte: tests/test_discord_commands.py)."""
    tree.interaction_check = in_a_server  # type: ignore[method-assign]
    play, learn, games_cmd = TableCommands(services).commands()
    ordered: list[app_commands.Command[Any, ..., Any] | app_commands.Group] = [
        play,
        GameCommands(services),
        *ReadingCommands(services).commands(),
        *ConfigCommands(services).commands(),
        *NotifyCommands(services).commands(),
        DeckCommands(services),
        games_cmd,
        AwayCommands(services),
        learn,
        TournamentCommands(services),
    ]
    for cmd in ordered:
        tree.add_command(cmd)
