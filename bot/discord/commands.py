"""Slash commands (/play, /game ..., /rules, /card, /stats, /leaderboard, /config), Log and Rules buttons."""

from __future__ import annotations

import contextlib
import io
import logging
import re
from typing import Any

import discord
from discord import app_commands

from bot.discord import replay
from bot.discord.away import on_board
from bot.discord.board import board_embed
from bot.discord.common import (
    MAX_AWAY_DAYS,
    MAX_RESPONSE_WAIT,
    StaticView,
    bot_of,
    check_range,
    drawn_names,
    guarded,
    guarded_press,
    parse_quiet,
    parse_zone,
    reply,
    seat_names,
    with_names,
)
from bot.discord.lobby import (
    LEVEL_WORDS,
    close_lobby_message,
    levels,
    lobby_buttons,
    lobby_embed,
    remember_lobby_message,
)
from bot.discord.packs import (
    add_pack,
    card_packs,
    pack_choices,
    pack_list,
    pack_to_remove,
    removal_choices,
    remove_pack,
)
from bot.discord.replay import MAX_MATCH_ID
from bot.discord.standings import SCOPES, leaderboard_embed, result_changes, stats_text
from bot.discord.texts import card_answer, card_choices, rulings, summary
from bot.discord.timers import DM_SETTING
from bot.ratings import ALL_SERVERS
from bot.sessions import MatchInfo, SessionError
from bot.sessions.packs import PACK, pack_option
from bot.sessions.types import WINDOW_HELP, WINDOW_SETTINGS, WINDOW_WORDS, own_seat
from bot.store import ACTIVE, BROKEN, FINISHED, LOBBY
from engine.registry import games
from engine.table.present import player_count

log = logging.getLogger("bot.discord.commands")
LOG_PAGE = 15
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


def game_choices() -> list[app_commands.Choice[str]]:
    """Every registered game as a slash-command choice."""
    return [
        app_commands.Choice(name=g.title, value=g.id) for g in sorted(games().values(), key=lambda g: g.title)
    ][:25]


# --- Log and Rules: buttons on every board, and the commands behind them ------------------------------------
async def log_page(interaction: discord.Interaction, mid: int, page: int) -> dict[str, Any]:
    """One page of the match's log as this user may read it (their own secrets, nobody else's)."""
    bot = bot_of(interaction)
    info = await bot.sessions.get(mid)
    lines = [with_names(info, t) for _, t in await bot.sessions.log_for(mid, interaction.user.id)]
    pages = max(1, (len(lines) + LOG_PAGE - 1) // LOG_PAGE)
    page = pages - 1 if page < 0 or page >= pages else page
    end = len(lines) - (pages - 1 - page) * LOG_PAGE  # pages count back from the newest, which is full
    start = max(0, end - LOG_PAGE)
    chunk = lines[start:end]
    first = start + 1
    body = (
        "\n".join(f"`{first + i:>3}` {line}" for i, line in enumerate(chunk)) or "Nothing has happened yet."
    )
    embed = discord.Embed(title=f"{info.title} game #{mid} — log", description=body[:4000], color=0x64748B)
    embed.set_footer(text=f"Page {page + 1} of {pages} · only what you may see")
    view = StaticView()
    for label, target in (("◀ Older", page - 1), ("Newer ▶", page + 1)):
        if 0 <= target < pages:
            view.add_item(discord.ui.Button(label=label, custom_id=f"ag:log:{mid}:{target}"))
    return {"embed": embed, "view": view}


class LogButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ag:log:(?P<mid>\d+):(?P<page>-?\d+)"
):
    """The board's Log button (page -1 = the latest) and the log's own paging buttons."""

    def __init__(self, mid: int, page: int) -> None:
        super().__init__(discord.ui.Button(label="Log", custom_id=f"ag:log:{mid}:{page}"))
        self.mid, self.page = mid, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LogButton:
        """Rebuild from the custom_id."""
        return cls(int(match["mid"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Anyone may read the log: a new ephemeral message from the board, paged in place after that."""

        async def work() -> None:
            message = interaction.message
            in_place = message is not None and message.flags.ephemeral
            if in_place:  # the log is rebuilt by replaying the match: defer first
                await interaction.response.defer()
                await interaction.edit_original_response(**await log_page(interaction, self.mid, self.page))
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
                kwargs = await log_page(interaction, self.mid, self.page)
                await interaction.followup.send(ephemeral=True, **kwargs)

        await guarded_press(interaction, self.mid, work)


def rules_message(game_id: str) -> dict[str, Any]:
    """The summary and the rulings as embeds (or the rulings as a file if they are too long)."""
    if game_id not in games():
        raise SessionError("That game is not available here; /rules lists the games there are.")
    title = games()[game_id].title
    embeds = [discord.Embed(title=f"{title} — how to play", description=summary(game_id), color=0xF59E0B)]
    text = rulings(game_id)
    kwargs: dict[str, Any] = {}
    room = 5800 - len(embeds[0].title or "") - len(embeds[0].description or "")  # 6,000 for all embeds
    shown = text if len(text) <= room else text[: text.rfind("\n", 0, room - 80)]
    if len(shown) < len(text):  # the rest is readable in the attached file, never cut silently
        kwargs["file"] = discord.File(io.BytesIO(text.encode()), f"{game_id}-rulings.md")
        shown += "\n\n*…the rest of the rulings is in the attached file.*"
    if text:
        parts = [shown[i : i + 4000] for i in range(0, len(shown), 4000)]
        embeds += [
            discord.Embed(title="Rulings" if i == 0 else None, description=p) for i, p in enumerate(parts)
        ]
    return {"embeds": embeds, **kwargs}


class RulesButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ag:rules:(?P<game>[a-z0-9_]+)"):
    """The board's Rules button."""

    def __init__(self, game_id: str) -> None:
        super().__init__(discord.ui.Button(label="Rules", custom_id=f"ag:rules:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RulesButton:
        """Rebuild from the custom_id."""
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """The rules, ephemerally."""
        await guarded(
            interaction,
            None,
            lambda: interaction.response.send_message(ephemeral=True, **rules_message(self.game_id)),
        )


# --- the commands ----------------------------------------------------------------------------------------
async def _here(interaction: discord.Interaction, *, ended: bool = False) -> MatchInfo:
    """The channel's lobby or running game; with ended=True, else the last game it had."""
    sessions = bot_of(interaction).sessions
    info = await sessions.match_for_channel(interaction.channel_id or 0)
    if info is None and ended and (mid := await sessions.store.latest_match_id(interaction.channel_id or 0)):
        info = await sessions.get(mid)
    if info is None:
        raise SessionError("There is no game in this channel. Start one with /play.")
    return info


def _is_admin(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


async def play(
    interaction: discord.Interaction, game: str, seats: int | None = None, pack: str | None = None
) -> None:
    """/play: open a lobby, in a new thread unless the server chose "here" (or we are in a thread already);
    `seats` sets the table's size, `pack` deals the game with one of this server's card packs."""
    bot = bot_of(interaction)
    user = interaction.user
    channel = interaction.channel
    settings = await bot.timers.settings(interaction.guild_id) if interaction.guild_id else None
    found = games().get(game)
    if found is None:
        raise SessionError(f"There is no game called {game!r}.")
    title = found.title
    if seats is not None and not found.min_players <= seats <= found.max_players:
        raise SessionError(f"{title} is for {player_count(found, ' to ')}.")
    options: dict[str, Any] | None = {"seats": seats} if seats is not None else None
    if pack is not None and pack.strip():  # the pack's latest version, copied into the match
        dealt = await pack_option(bot.sessions.store, interaction.guild_id, game, pack)
        options = {**(options or {}), PACK: dealt}
    use_thread = settings is not None and settings.threads and isinstance(channel, discord.TextChannel)
    if not use_thread:
        info = await bot.sessions.create(
            interaction.channel_id, interaction.guild_id, game, user.id, options, host_name=user.display_name
        )
        await interaction.response.send_message(embed=lobby_embed(info), view=lobby_buttons(info))
        await remember_lobby_message(bot, info, await interaction.original_response())
        return
    await interaction.response.send_message(
        f"🎲 {user.mention} is opening a table of **{title}** — join in the thread below!",
        allowed_mentions=discord.AllowedMentions.none(),  # the host is here: naming them is enough
    )
    opener = await interaction.original_response()
    try:
        thread = await opener.create_thread(
            name=f"{title} — {user.display_name}'s table"[:100], auto_archive_duration=10080
        )
    except discord.Forbidden:  # no "Create Public Threads" permission here: play in the channel
        log.warning(
            "no permission to create a thread in channel %s; lobby opened in place", interaction.channel_id
        )
        info = await bot.sessions.create(
            interaction.channel_id, interaction.guild_id, game, user.id, options, host_name=user.display_name
        )
        await opener.edit(content=None, embed=lobby_embed(info), view=lobby_buttons(info))
        await remember_lobby_message(bot, info, opener)
        return
    info = await bot.sessions.create(
        thread.id, interaction.guild_id, game, user.id, options, host_name=user.display_name
    )
    sent = await thread.send(embed=lobby_embed(info), view=lobby_buttons(info))
    await remember_lobby_message(bot, info, sent)


async def status(interaction: discord.Interaction) -> None:
    """/game status: the game in this channel (or the last one it had, with its result), in words."""
    bot = bot_of(interaction)
    info = await _here(interaction, ended=True)
    if info.status == BROKEN:
        raise SessionError(info.note or "This game has been stopped; start a new one with /play.")
    try:
        view = await bot.sessions.view_for(info.id, None)
    except SessionError:  # a lobby, open or closed before the deal
        await reply(interaction, None, embed=lobby_embed(info))
        return
    await interaction.response.defer(ephemeral=True, thinking=True)  # drawing the board takes a moment
    ratings = await result_changes(bot.sessions.store, info) if info.status == FINISHED else ""
    recent = list(await bot.boards.recent_for(info.id))
    embed = board_embed(info, view, recent, ratings=ratings, away=await on_board(bot, info))
    png = await bot.drawing.board(info.game_id, view, drawn_names(info), info.options)
    file = discord.File(io.BytesIO(png), "board.png", description=f"{info.title} board")
    await reply(interaction, None, embed=embed, file=file)


ABANDON_REFUSED = "Only the host, a server manager, or all the players together can abandon this game."


async def abandon(interaction: discord.Interaction) -> None:
    """/game abandon: the host or an admin stops the game; otherwise every player must ask."""
    bot = bot_of(interaction)
    info = await _here(interaction)
    user = interaction.user.id
    host, admin = user == info.host_user, _is_admin(interaction)
    if not (host or admin):
        own_seat(info, user, ABANDON_REFUSED)
        closed, missing = await bot.sessions.vote_abandon(info.id, user)
        if not missing and info.status == LOBBY:
            await close_lobby_message(bot, closed)
        if missing:
            still = " ".join(f"<@{u}>" for u in sorted(missing))
            await interaction.response.send_message(
                f"<@{user}> wants to abandon game #{info.id}. It stops when every player agrees "
                f"with /game abandon; still to agree: {still}."
            )
        else:
            await interaction.response.send_message(f"Game #{info.id} was abandoned: every player agreed.")
        return
    closed = await bot.sessions.abandon(info.id, user, force=not host)
    await interaction.response.send_message(f"Game #{info.id} was abandoned by {interaction.user.mention}.")
    if info.status == LOBBY:
        await close_lobby_message(bot, closed)


async def undo(interaction: discord.Interaction) -> None:
    """/game undo: take back your last move (your own turn only, never past a draw or a reveal)."""
    bot = bot_of(interaction)
    info = await _here(interaction)
    await bot.sessions.undo(info.id, interaction.user.id)
    await reply(interaction, "↩️ Your last move was taken back. Press *My hand & moves* on the new board.")


HINT_REFUSED = "Only the players of this game can ask for a hint, and only on their own turn."
HINTS_OFF = (
    "Hints are off on this server (an admin can turn them on with `/config hints:on`), "
    "so every game here is played without help."
)


async def hint(interaction: discord.Interaction) -> None:
    """/game hint: the strongest AI's three best moves for the player to act, with its win estimates,
    ephemerally; searched from what that player can see (in the AI pool, never on the event loop)."""
    bot = bot_of(interaction)
    info = await _here(interaction)
    if interaction.guild_id is not None and not (await bot.settings(interaction.guild_id)).hints:
        raise SessionError(HINTS_OFF)
    seat = own_seat(info, interaction.user.id, HINT_REFUSED)
    if info.status != ACTIVE:
        raise SessionError("Hints are for a game in progress.")
    if seat not in info.to_act:
        raise SessionError("A hint is only for the player to act; it is not your turn yet.")
    await interaction.response.defer(ephemeral=True, thinking=True)  # a search takes a moment
    rated = await bot.sessions.hint(info.id, interaction.user.id)
    names = seat_names(info)
    lines = [
        f"{i + 1}. **{' › '.join(with_names(info, step) for step in move.path)}** — about {chance:.0%} to win"
        for i, (move, chance) in enumerate(rated)
    ]
    embed = discord.Embed(
        title=f"💡 Hint for {names[seat]} — game #{info.id}",
        description="\n".join(lines) or "No move to suggest.",
        color=0x22C55E,
    )
    embed.set_footer(text="The hard AI's view from what you can see; the choice is yours (My hand & moves).")
    await interaction.followup.send(embed=embed, ephemeral=True)


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

    await guarded(interaction, None, refuse)
    return False


def install(tree: app_commands.CommandTree[Any]) -> None:
    """Add every command to the tree."""
    tree.interaction_check = in_a_server  # type: ignore[method-assign]

    @tree.command(name="play", description="Open a lobby for a game")
    @app_commands.describe(
        game="Which game",
        seats="How many players the table is for (default: any)",
        pack="One of this server's card packs for the game: its cards join the game's own",
    )
    @app_commands.choices(game=game_choices())
    @app_commands.autocomplete(pack=pack_choices)
    @app_commands.guild_only()
    async def play_cmd(
        interaction: discord.Interaction,
        game: str,
        seats: app_commands.Range[int, 1, 25] | None = None,
        pack: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        await guarded(interaction, None, lambda: play(interaction, game, seats, pack))

    group = app_commands.Group(name="game", description="The game in this channel", guild_only=True)

    @group.command(name="status", description="Whose turn it is, the scores and the last events")
    async def status_cmd(interaction: discord.Interaction) -> None:
        await guarded(interaction, None, lambda: status(interaction))

    @group.command(name="log", description="Everything that happened (what you may see)")
    @app_commands.describe(page="Page number (default: the latest)")
    async def log_cmd(
        interaction: discord.Interaction, page: app_commands.Range[int, 0, MAX_LOG_PAGE] = 0
    ) -> None:
        async def work() -> None:
            check_range("page", page, 0, MAX_LOG_PAGE)
            info = await _here(interaction, ended=True)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.followup.send(ephemeral=True, **await log_page(interaction, info.id, page - 1))

        await guarded(interaction, None, work)

    @group.command(
        name="abandon", description="Stop the game (host, server managers, or all players agreeing)"
    )
    async def abandon_cmd(interaction: discord.Interaction) -> None:
        await guarded(interaction, None, lambda: abandon(interaction))

    @group.command(name="undo", description="Take back your last move (only within your own turn)")
    async def undo_cmd(interaction: discord.Interaction) -> None:
        await guarded(interaction, None, lambda: undo(interaction))

    @group.command(name="hint", description="The AI's three best moves for you, with its win estimates")
    async def hint_cmd(interaction: discord.Interaction) -> None:
        await guarded(interaction, None, lambda: hint(interaction))

    @group.command(name="replay", description="The game as an animated picture, one frame a turn")
    @app_commands.rename(match_id="id")
    @app_commands.describe(match_id="A game's number, from its board's title (default: this channel's game)")
    async def replay_cmd(
        interaction: discord.Interaction, match_id: app_commands.Range[int, 1, MAX_MATCH_ID] | None = None
    ) -> None:
        await guarded(interaction, None, lambda: replay.replay(interaction, match_id))

    @group.command(name="export", description="A finished game as a file: its seed and every move")
    @app_commands.rename(match_id="id")
    @app_commands.describe(match_id="A game's number, from its board's title (default: this channel's game)")
    async def export_cmd(
        interaction: discord.Interaction, match_id: app_commands.Range[int, 1, MAX_MATCH_ID] | None = None
    ) -> None:
        await guarded(interaction, None, lambda: replay.export(interaction, match_id))

    tree.add_command(group)

    @tree.command(name="rules", description="How to play a game, and Agora's rulings")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=game_choices())
    async def rules_cmd(interaction: discord.Interaction, game: str) -> None:
        await guarded(
            interaction,
            None,
            lambda: interaction.response.send_message(ephemeral=True, **rules_message(game)),
        )

    async def card_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        game = getattr(interaction.namespace, "game", None) or None
        packs = await card_packs(interaction, game)  # this server's packs' cards, never another's
        return [app_commands.Choice(name=n, value=v) for n, v in card_choices(game, current, packs=packs)]

    @tree.command(name="card", description="What a card does")
    @app_commands.describe(game="Which game", name="The card (type a few letters)")
    @app_commands.choices(game=game_choices())
    @app_commands.autocomplete(name=card_names)
    async def card_cmd(interaction: discord.Interaction, game: str, name: str) -> None:
        async def work() -> None:
            await reply(interaction, card_answer(game, name, await card_packs(interaction, game)))

        await guarded(interaction, None, work)

    @tree.command(name="stats", description="Games played and won, and your rating in each game")
    @app_commands.describe(user="Whose record (default: yours)", game="Only this game (default: every game)")
    @app_commands.choices(game=game_choices())
    async def stats_cmd(
        interaction: discord.Interaction, user: discord.User | None = None, game: str | None = None
    ) -> None:
        async def work() -> None:
            store = bot_of(interaction).sessions.store
            text = await stats_text(store, user or interaction.user, game, interaction.guild_id)
            await interaction.response.send_message(text, ephemeral=True)

        await guarded(interaction, None, work)

    @tree.command(name="leaderboard", description="The best players of a game, ranked by rating")
    @app_commands.describe(game="Which game", scope="This server's players (default), or all servers'")
    @app_commands.choices(
        game=game_choices(),
        scope=[app_commands.Choice(name=name, value=value) for value, name in SCOPES.items()],
    )
    async def leaderboard_cmd(interaction: discord.Interaction, game: str, scope: str = "server") -> None:
        async def work() -> None:
            store = bot_of(interaction).sessions.store
            guild = interaction.guild_id
            if scope == "server" and guild is None:
                raise SessionError(DM_LEADERBOARD)
            here = guild if scope == "server" and guild is not None else ALL_SERVERS
            embed = await leaderboard_embed(store, game, here)
            await interaction.response.send_message(
                embed=embed, allowed_mentions=discord.AllowedMentions.none()
            )

        await guarded(interaction, None, work)

    @tree.command(name="config", description="Server settings for games (Manage Server)")
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
        hints="Whether players may ask /game hint for the AI's advice (off for ranked play)",
        response_wait="Seconds a response window waits for an answer before it passes by itself (0 = never)",
        away_days="Days of time away (/away) each person has a year: their games wait for them (0 = off)",
        cardpack="Add a card pack: a .toml file of new cards for a game (a new version if its name exists)",
        remove_cardpack="Stop offering one of this server's card packs (games dealt with it keep it)",
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
    )
    async def config_cmd(
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
        cardpack: discord.Attachment | None = None,
        remove_cardpack: app_commands.Range[str, 1, 140] | None = None,
    ) -> None:
        async def work() -> None:
            bot = bot_of(interaction)
            gid = interaction.guild_id
            if gid is None or not _is_admin(interaction):
                raise SessionError("Only members with Manage Server can change the settings.")
            check_range("reminder_minutes", reminder_minutes, 0, MAX_REMINDER_MINUTES)
            check_range("timeout_minutes", timeout_minutes, 0, MAX_TIMEOUT_MINUTES)
            check_range("reminder_count", reminder_count, 0, MAX_REMINDERS)
            check_range("lobby_hours", lobby_hours, 0, MAX_LOBBY_HOURS)
            check_range("response_wait", response_wait, 0, MAX_RESPONSE_WAIT)
            check_range("away_days", away_days, 0, MAX_AWAY_DAYS)
            quiet = None if quiet_hours is None else list(parse_quiet(quiet_hours) or ())  # [] = none
            if timezone is not None:
                parse_zone(timezone)  # refused politely before anything is changed
            for level in (ai_level, timeout_ai_level):
                if level is not None and level not in levels():
                    raise SessionError(
                        f"There is no AI level {level!r}; the levels are: {', '.join(levels())}."
                    )
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
            }
            # Card packs: every file and name is checked before anything is written (a refusal changes
            # nothing at all), then the pack is stored, then the settings.
            removing = None if remove_cardpack is None else await pack_to_remove(interaction, remove_cardpack)
            done = []
            if cardpack is not None:
                await interaction.response.defer(ephemeral=True, thinking=True)  # a download
                done.append(await add_pack(interaction, cardpack))
            if removing is not None:
                done.append(await remove_pack(interaction, removing))
            for key, value in changes.items():
                if value is not None:
                    await bot.set_setting(gid, key, value)
            settings = await bot.timers.settings(gid)
            listed = await pack_list(bot.sessions.store, gid)
            text = "\n\n".join([*done, f"⚙️ Settings for this server:\n{settings.describe()}", listed])
            await reply(interaction, text.strip())

        await guarded(interaction, None, work)

    @tree.command(name="notify", description="Your reminders by DM, and how response windows treat you")
    @app_commands.describe(
        dms="on: also send me reminders by direct message; off: only in the channel",
        windows="How response windows, and decisions where you can only pass, treat you on this server",
    )
    @app_commands.choices(
        dms=[app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")],
        windows=[app_commands.Choice(name=WINDOW_WORDS[k], value=k) for k in WINDOW_SETTINGS],
    )
    async def notify_cmd(
        interaction: discord.Interaction, dms: str | None = None, windows: str | None = None
    ) -> None:
        async def work() -> None:
            bot = bot_of(interaction)
            store = bot.sessions.store
            user = interaction.user.id
            if windows is not None and interaction.guild_id is None:
                raise SessionError(DM_WINDOWS)  # before anything is changed
            if dms is not None:
                await store.set_user_setting(user, DM_SETTING, True if dms == "on" else None)
            if windows is not None:
                await bot.prefs.set_windows(interaction.guild_id, user, windows)
                await bot.sessions.setting_changed(user)  # a window waiting on them may pass now
            on = bool(await store.user_setting(user, DM_SETTING))
            setting = await bot.prefs.windows(interaction.guild_id, user)
            await reply(
                interaction,
                (
                    "🔔 Reminders reach you by direct message too. `/notify dms:off` stops them."
                    if on
                    else "🔕 Reminders reach you in the game's channel only; `/notify dms:on` adds DMs."
                )
                + f"\n🪟 Response windows: **{WINDOW_WORDS[setting]}** — {WINDOW_HELP[setting]}. "
                "Change it with `/notify windows:`.",
            )

        await guarded(interaction, None, work)
