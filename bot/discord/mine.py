"""Where a person's games stand: `/games` and the finished board's Rematch button.

`/games` answers privately with every game of this server the person sits in: the running ones (theirs to
move first, then the longest waiting), each with whose move it is, how long it has waited (a Discord
relative timestamp, "⏳ 3 hours ago") and a link to its current board message; then the lobbies they sit
in. It reads the store only (`Store.user_matches`, the stored board and lobby messages), never loads a game.
Time away (bot/discord/away.py) shows as "🏖️ @bob away until <t:…:f>" on a game's line, and, when the person
asking is away, as a first line saying until when.

Rematch (`ag:rematch:<match>`, on a finished game's result board) opens a new lobby for the same game with
the same people and AI levels in the same seats and the same table options (each person's picks kept), the
presser as host, in a new thread or in the game's channel per the server's thread mode; the lobby message
pings the others and the host presses Start as usual. While that lobby (or the game it starts) is open, a
second press points to it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from typing import Any

import discord

from bot.discord.away import EMOJI, Away
from bot.discord.common import GuildSettings, Rebuilt, board_link, jump_link, reply, shown, unarchived, who
from bot.discord.lobby import lobby_message, remember_lobby_message
from bot.discord.services import Services, guarded_press, services_of
from bot.sessions import MatchInfo, SessionError
from bot.sessions.lobby import NOT_PLAYER, people_of
from bot.store import ACTIVE, FINISHED, LOBBY, MatchSummary, Store
from engine.registry import games, title_of

log = logging.getLogger("bot.discord.mine")

DESCRIPTION_MAX = 4096  # Discord's limit for an embed's description
NONE_HERE = "You are not in any game on this server right now. Start one with `/play`, or join a lobby."
_opening: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()


def _info(m: MatchSummary) -> MatchInfo:
    """A listing row as a match picture, for the seat-name helpers."""
    return MatchInfo(
        m.id, m.game_id, title_of(m.game_id), m.status, m.channel_id, m.guild_id, "discord", None, m.seats,
        m.state_id, to_act=tuple(s for s in m.to_act if 0 <= s < len(m.seats)), updated_at=m.updated_at,
    )  # fmt: skip


def my_move(m: MatchSummary, user: int) -> bool:
    """Whether the person is among those to act in this game."""
    return any(
        0 <= s < len(m.seats) and not m.seats[s].is_ai and m.seats[s].user_id == user for s in m.to_act
    )


def whose_move(m: MatchSummary, user: int) -> str:
    """Whose move it is, in words: "**your move**", a name, or several for a choice made at once."""
    info = _info(m)
    others = [who(info, s) for s in info.to_act if info.seats[s].user_id != user or info.seats[s].is_ai]
    if my_move(m, user):
        return "**your move**" + (f" (with {', '.join(others)})" if others else "")
    if not others:
        return "nobody to move"
    if all(info.seats[s].is_ai for s in info.to_act):
        return f"{', '.join(others)} thinking"
    return f"{', '.join(others)} to move"


async def _away_words(away: Away, settings: GuildSettings, m: MatchSummary, user: int) -> str:
    """The others of a game who are away: " · 🏖️ @bob away until <t:…:f>" ("" when nobody is)."""
    info, words = _info(m), []
    for i, s in enumerate(m.seats):
        if s.user_id is None or s.user_id == user or s.is_ai or m.guild_id is None:
            continue
        if (stay := await away.running(m.guild_id, s.user_id, settings)) is not None:
            words.append(f" · {EMOJI} {who(info, i)} away until <t:{int(stay.until)}:f>")
    return "".join(words)


async def _game_line(store: Store, m: MatchSummary, user: int, away: str = "", cup: str = "") -> str:
    """One running game: title and id, its tournament and round if any, whose move, since when, who is
    away, the link to its board."""
    line = (
        f"**{title_of(m.game_id)}** #{m.id}{cup} — {whose_move(m, user)} · ⏳ <t:{int(m.updated_at)}:R>{away}"
    )
    if any(s.is_ai and s.stands_for == user for s in m.seats):
        line += " · an AI plays your seat (**Take my seat back** there)"
    link = await board_link(store, m.guild_id, m.channel_id, m.id)
    return f"{line} · [board]({link})" if link else line


async def _lobby_line(store: Store, m: MatchSummary, user: int) -> str:
    """One lobby: title and id, how many sit, the link to its lobby message."""
    found = games().get(m.game_id)
    most = found.max_players if found is not None else len(m.seats)
    since = f"last change <t:{int(m.updated_at)}:R>"
    line = f"**{title_of(m.game_id)}** #{m.id} — {len(m.seats)}/{most} seated · {since}"
    where = await store.lobby_message(m.id)
    if where is not None:
        return f"{line} · [lobby]({jump_link(m.guild_id, where[0], where[1])})"
    return f"{line} · [lobby]({jump_link(m.guild_id, m.channel_id)})" if m.channel_id else line


def fit(blocks: list[tuple[str, list[str]]], limit: int = DESCRIPTION_MAX) -> str:
    """Headed lists of lines within `limit` characters; what does not fit is counted ("…and 3 more")."""
    total = sum(len(lines) for _, lines in blocks)
    out: list[str] = []
    listed = 0
    room = limit - len(f"\n…and {total} more.")
    for header, lines in blocks:
        if not lines:
            continue
        head = ("\n" if out else "") + header
        for i, line in enumerate(lines):
            add = ([head] if i == 0 else []) + [line]
            if sum(len(x) + 1 for x in [*out, *add]) > room:
                left = total - listed
                return "\n".join([*out, f"…and {left} more."])
            out += add
            listed += 1
    return "\n".join(out)


async def games_list(services: Services, interaction: discord.Interaction) -> None:
    """/games: the person's games on this server and the lobbies they sit in, privately."""
    gid = interaction.guild_id
    if gid is None:
        raise SessionError("Use `/games` in a server: it lists your games there.")
    store = services.store
    user = interaction.user.id
    settings = await services.settings.of(gid)
    running = await store.user_matches(gid, user, (ACTIVE,))
    running.sort(key=lambda m: (not my_move(m, user), m.updated_at, m.id))
    lobbies = await store.user_matches(gid, user, (LOBBY,))
    if not running and not lobbies:
        await reply(interaction, NONE_HERE)
        return
    yours = sum(my_move(m, user) for m in running)
    cups = {
        mid: f" · 🏆 {shown(name)}, round {key.round}"
        for mid, (key, name) in (await store.tournament_games([m.id for m in running])).items()
    }
    games_head = f"**Games ({len(running)}; your move in {yours})**"
    lobbies_head = f"**Lobbies you sit in ({len(lobbies)})**"
    blocks = [
        (
            games_head,
            [
                await _game_line(
                    store, m, user, await _away_words(services.away, settings, m, user), cups.get(m.id, "")
                )
                for m in running
            ],
        ),
        (lobbies_head, [await _lobby_line(store, m, user) for m in lobbies]),
    ]
    name = interaction.guild.name if interaction.guild is not None else "this server"
    mine = await services.away.running(gid, user, settings)
    head = (
        f"{EMOJI} You are away until <t:{int(mine.until)}:f>: your games here wait for you "
        "(`/away back`, or any button of one of them, ends it).\n\n"
        if mine is not None
        else ""
    )
    description = head + fit(blocks, DESCRIPTION_MAX - len(head))
    embed = discord.Embed(title=f"Your games on {name}"[:256], description=description, color=0x3B82F6)
    embed.set_footer(text="Only you see this · your move first, then the longest waiting")
    await reply(interaction, None, embed=embed, allowed_mentions=discord.AllowedMentions.none())


def _lock(mid: int) -> asyncio.Lock:
    """The lock that lets one Rematch press of a match at a time open its lobby (held while in use)."""
    lock = _opening.get(mid)
    if lock is None:
        lock = _opening[mid] = asyncio.Lock()
    return lock


async def _pointer(interaction: discord.Interaction, info: MatchInfo, old: int) -> None:
    """Tell the presser where the rematch of game #old already is."""
    store = services_of(interaction).store
    where = await store.lobby_message(info.id)
    link = jump_link(info.guild_id, *where) if where else f"<#{info.channel_id}>"
    if info.status == ACTIVE:  # its board, once there is one
        link = await board_link(store, info.guild_id, info.channel_id, info.id) or link
    state = "is being played" if info.status == ACTIVE else "is already open"
    await reply(interaction, f"🔁 The rematch of game #{old} {state}: game #{info.id}, {link}.")


class RematchButton(
    Rebuilt, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ag:rematch:(?P<mid>\d+)"
):
    """A finished board's Rematch button: one of that game's players opens a new lobby like it."""

    def __init__(self, mid: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Rematch", emoji="🔁", style=discord.ButtonStyle.success, custom_id=f"ag:rematch:{mid}"
            )
        )
        self.mid = mid

    async def callback(self, interaction: discord.Interaction) -> None:
        """Open the rematch lobby (players only), or point to the one already open."""
        await guarded_press(interaction, self.mid, lambda: self._rematch(interaction))

    async def _rematch(self, interaction: discord.Interaction) -> None:
        services = services_of(interaction)
        sessions = services.sessions
        info = await sessions.get(self.mid)
        if interaction.user.id not in people_of(info.seats):
            raise SessionError(NOT_PLAYER)
        if info.status != FINISHED:
            raise SessionError("Only a finished game can be played again.")
        async with _lock(self.mid):
            if (existing := await services.store.rematch_id(self.mid)) is not None:
                await _pointer(interaction, await sessions.get(existing), self.mid)
                return
            await interaction.response.defer(ephemeral=True, thinking=True)  # a thread and two posts
            lobby, created = await _open(interaction, info)
        if not created:
            await _pointer(interaction, lobby, self.mid)
            return
        await reply(
            interaction,
            f"🔁 Your rematch is open: game #{lobby.id} in <#{lobby.channel_id}>, everyone seated as before. "
            "Press **Start** there when you are all ready.",
        )


async def _open(interaction: discord.Interaction, old: MatchInfo) -> tuple[MatchInfo, bool]:
    """Open the rematch lobby of a finished game: in a new thread of the channel it was played from, or in
    its own channel (the server's thread mode); the lobby and whether it was opened now."""
    services = services_of(interaction)
    user = interaction.user
    title = old.title
    settings = await services.settings.of(old.guild_id)
    here = await services.channel(old.channel_id) if old.channel_id else None
    if here is None:
        raise SessionError("This game's channel is gone; start a new game with `/play`.")
    parent = here
    if isinstance(here, discord.Thread):
        parent = here.parent or await services.channel(here.parent_id)
    channel: Any = here
    opener: discord.Message | None = None
    if settings.threads and isinstance(parent, discord.TextChannel):
        opener = await parent.send(
            f"🔁 {user.mention} opens a rematch of **{title}** game #{old.id}: the table is in the thread "
            "below!",
            allowed_mentions=discord.AllowedMentions.none(),
        )
        try:
            channel = await opener.create_thread(
                name=f"{title} — rematch of #{old.id}"[:100], auto_archive_duration=10080
            )
        except discord.Forbidden:  # no "Create Public Threads" permission here: the lobby goes in the channel
            log.warning("no permission to create a thread in channel %s; rematch opened in place", parent.id)
            channel = parent
    lobby, created = await services.sessions.rematch(old.id, user.id, channel.id, host_name=user.display_name)
    if not created:
        if opener is not None:
            with contextlib.suppress(discord.HTTPException):
                await opener.edit(content=f"🔁 The rematch of game #{old.id} is game #{lobby.id}.")
        return lobby, False
    asked = [p for p in sorted(people_of(lobby.seats)) if p != user.id]
    others = " ".join(f"<@{p}>" for p in asked)
    text = (
        f"🔁 {others + ' — ' if others else ''}{user.display_name} asks for a rematch of game #{old.id}: "
        "everyone is seated as before. The host presses **Start** when you are all ready."
    )
    kwargs = lobby_message(lobby, services.settings, ping=text, notify=asked)
    if opener is not None and channel is parent:  # no thread: the opener becomes the lobby
        sent = await opener.edit(**kwargs)
    else:
        sent = await unarchived(channel, lambda: channel.send(**kwargs))
    await remember_lobby_message(services.store, lobby, sent)
    return lobby, True
