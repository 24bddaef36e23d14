"""Learning a game (issue 38): /learn deals a private practice game (a private thread, or the learner's own
ephemeral messages where threads are off), whose board and menu say the guide's words
(engine/table/lesson.py; bot/discord/common.py lesson_text); a finished one offers a real table.

`open_table` opens a lobby in a channel, in a new thread of its own unless the server plays in place: /play
and the practice game's "Play for real" share it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.discord.common import Rebuilt, channel_of, jump_link, seat_names, with_names
from bot.discord.lobby import lobby_message, remember_lobby_message
from bot.discord.prefs import with_table
from bot.discord.services import Services, guarded_press, services_of
from bot.ratings import is_ranked
from bot.sessions import MatchInfo, SessionError
from bot.sessions.types import own_seat
from bot.store import ACTIVE
from engine.table import lesson

log = logging.getLogger("bot.discord.learn")

Opener = Callable[..., Awaitable[discord.Message]]  # posts the first message (keyword arguments of send)
THREADS_OFF = (
    "This server plays in place (no threads), so your practice game is here, in messages only you can see. "
    "Come back to it any time with `/learn` again."
)


async def open_table(
    services: Services,
    user: discord.abc.User,
    guild_id: int,
    channel: Any,
    game_id: str,
    title: str,
    options: dict[str, Any] | None,
    send: Opener,
) -> MatchInfo:
    """Open a lobby of a game hosted by `user` in `channel` (a text channel: in a new public thread started
    from the first message, unless the server chose to play in place or threads cannot be made there; a
    thread: in place), ranked or casual as the server's /config tables: says unless `options` choose;
    `send` posts that first message where the lobby is announced."""
    settings = await services.settings.of(guild_id)
    options = with_table(options, settings.tables)
    use_thread = settings.threads and isinstance(channel, discord.TextChannel)

    async def open_at(channel_id: int | None) -> MatchInfo:
        return await services.sessions.create(
            channel_id, guild_id, game_id, user.id, options, host_name=user.display_name
        )

    if not use_thread:
        info = await open_at(channel.id)
        await remember_lobby_message(
            services.store, info, await send(**lobby_message(info, services.settings))
        )
        return info
    opener = await send(
        content=f"🎲 {user.mention} is opening a table of **{title}** — join in the thread below!",
        allowed_mentions=discord.AllowedMentions.none(),  # the host is here: naming them is enough
    )
    try:
        thread = await opener.create_thread(
            name=f"{title} — {user.display_name}'s table"[:100], auto_archive_duration=10080
        )
    except discord.Forbidden:  # no "Create Public Threads" permission here: play in the channel
        log.warning("no permission to create a thread in channel %s; lobby opened in place", channel.id)
        info = await open_at(channel.id)
        await opener.edit(**lobby_message(info, services.settings))
        await remember_lobby_message(services.store, info, opener)
        return info
    info = await open_at(thread.id)
    sent = await thread.send(**lobby_message(info, services.settings))
    await remember_lobby_message(services.store, info, sent)
    return info


class RealTableButton(
    Rebuilt, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ag:real:(?P<mid>\d+)"
):
    """A finished practice game's "Play for real": a lobby of its game in the channel the practice began in
    (the private thread's parent), hosted by whoever presses it."""

    def __init__(self, mid: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Play for real",
                emoji="🎲",
                style=discord.ButtonStyle.success,
                custom_id=f"ag:real:{mid}",
            )
        )
        self.mid = mid

    async def callback(self, interaction: discord.Interaction) -> None:
        """Open the lobby where the practice game began, and say where."""

        async def work() -> None:
            services = services_of(interaction)
            info = await services.sessions.get(self.mid)
            channel: Any = interaction.channel
            if isinstance(channel, discord.Thread) and channel.parent is not None:
                channel = channel.parent
            if lesson.practice(info.options) is None or interaction.guild_id is None or channel is None:
                raise SessionError("Use `/play` in a channel of this server to open a table.")
            await interaction.response.defer(ephemeral=True, thinking=True)
            opened = await open_table(
                services,
                interaction.user,
                interaction.guild_id,
                channel,
                info.game_id,
                info.title,
                None,
                channel.send,
            )
            where = jump_link(interaction.guild_id, opened.channel_id or channel.id)
            await interaction.followup.send(
                f"🎲 Your table is open: {where} — invite your friends!", ephemeral=True
            )

        await guarded_press(interaction, self.mid, work)


def real_table_button(mid: int) -> discord.ui.Button[Any]:
    """The "Play for real" button of a finished practice game."""
    return RealTableButton(mid).item


HINT_REFUSED = "Only the players of this game can ask for a hint, and only on their own turn."
HINTS_OFF = (
    "Hints are off on this server (an admin can turn them on with `/config hints:on`), "
    "so even casual tables here play without help."
)
RANKED_NO_HINTS = (
    "This is a ranked table: no hints. Its result moves ratings, so everyone plays on their own; "
    "a casual table (chosen in the lobby) allows them."
)


async def hint_answer(interaction: discord.Interaction, info: MatchInfo) -> None:
    """The strongest AI's three best moves for the presser, the player to act, with its win estimates,
    ephemerally; searched from what they can see (in the AI pool, never on the event loop). /game hint and
    a practice game's 💡 Hint. The rule: a practice game always has hints; a ranked table never (its result
    moves ratings); a casual table where the server allows them (/config hints:, on unless turned off)."""
    services = services_of(interaction)
    guild = interaction.guild_id
    seat = own_seat(info, interaction.user.id, HINT_REFUSED)
    if not lesson.practice(info.options):
        if is_ranked(info.options):
            raise SessionError(RANKED_NO_HINTS)
        if guild is not None and not (await services.settings.of(guild)).hints:
            raise SessionError(HINTS_OFF)
    if info.status != ACTIVE:
        raise SessionError("Hints are for a game in progress.")
    if seat not in info.to_act:
        raise SessionError("A hint is only for the player to act; it is not your turn yet.")
    await interaction.response.defer(ephemeral=True, thinking=True)  # a search takes a moment
    rated = await services.sessions.hint(info.id, interaction.user.id)
    names = seat_names(info)
    lines = []
    for i, (move, chance) in enumerate(rated, 1):
        path = " › ".join(with_names(info, lesson.unmarked(step)) for step in move.path)
        lines.append(f"{i}. **{path}** — about {chance:.0%} to win")
    embed = discord.Embed(
        title=f"💡 Hint for {names[seat]} — game #{info.id}",
        description="\n".join(lines) or "No move to suggest.",
        color=0x22C55E,
    )
    embed.set_footer(text="The hard AI's view from what you can see; the choice is yours (My hand & moves).")
    await interaction.followup.send(embed=embed, ephemeral=True)


class HintButton(Rebuilt, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ag:hint:(?P<mid>\d+)"):
    """A practice game's 💡 Hint in the learner's menu (where there may be no channel for /game hint)."""

    def __init__(self, mid: int) -> None:
        super().__init__(discord.ui.Button(label="💡 Hint", custom_id=f"ag:hint:{mid}"))
        self.mid = mid

    async def callback(self, interaction: discord.Interaction) -> None:
        """The hint, in a message of its own."""

        async def work() -> None:
            await hint_answer(interaction, await services_of(interaction).sessions.get(self.mid))

        await guarded_press(interaction, self.mid, work)


async def practice_of(
    services: Services, client: discord.Client, guild_id: int, user: int, game_id: str
) -> MatchInfo | None:
    """The person's practice game of this game on this server that is still going, if any; one whose
    private thread is gone (deleted, or hidden from the bot) is abandoned: a new one takes its place."""
    for m in await services.store.user_matches(guild_id, user, (ACTIVE,)):
        if m.game_id == game_id and m.seats and m.seats[0].user_id == user:
            info = await services.sessions.get(m.id)
            if lesson.practice(info.options) is None:
                continue
            if info.channel_id is not None and await channel_of(client, info.channel_id) is None:
                await services.sessions.abandon(info.id, None, force=True)
                continue
            return info
    return None


async def private_thread(
    channel: Any, title: str, name: str, user: discord.abc.User
) -> discord.Thread | None:
    """A new private thread for a practice game, with the learner in it; None where the server plays in
    place or the bot may not make one here."""
    if not isinstance(channel, discord.TextChannel):
        return None
    try:
        thread = await channel.create_thread(
            name=f"📘 Learn {title} — {name}"[:100],
            type=discord.ChannelType.private_thread,
            invitable=False,
            auto_archive_duration=10080,
        )
    except discord.HTTPException as e:  # no permission, or no private threads here: practice in place
        log.warning("no private thread in channel %s (%s); practice in place", channel.id, e)
        return None
    try:
        await thread.add_user(user)
    except discord.HTTPException as e:  # they are pinged into it by the board all the same
        log.warning("could not add user %s to practice thread %s: %s", user.id, thread.id, e)
    return thread
