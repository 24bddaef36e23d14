"""The services the Discord handlers share, and the one way a handler reaches them and answers a press.

The bot builds one `Services` (bot/discord/app.py) and hands its parts to `Boards`, `Timers` and the command
groups at construction; a DynamicItem, which discord.py rebuilds from a custom_id alone, reads them from the
client with `services_of(interaction)`. `guard` (and `guarded`, its decorator form for commands) turns
refusals, outages and errors into polite ephemeral answers; `guarded_press` adds the checks of a press on a
game's component. The boards and the timers are seen here through the few calls the handlers make of them
(`BoardCalls`, `TimerCalls`), so that this module sits below both.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

import discord

from bot.discord.away import Away
from bot.discord.common import (
    ALREADY_ANSWERED,
    ANSWER_WITHIN,
    DISK_FULL,
    DISK_FULL_OTHER,
    OOPS,
    UNREACHABLE,
    UNREACHABLE_OTHER,
    Rebuilt,
    StaticView,
    channel_of,
    reply,
)
from bot.discord.prefs import Prefs
from bot.discord.settings import Settings
from bot.drawing import Drawing
from bot.ops import tagged
from bot.sessions import MatchInfo, SeatTakenOver, SessionError, SessionManager
from bot.store import ANSWER_BY, DiskFull, Store, StoreUnavailable
from engine.table.lesson import practice

log = logging.getLogger("bot.discord")

P = ParamSpec("P")
G = TypeVar("G")


class BoardCalls(Protocol):
    """What handlers ask of the public boards (bot/discord/board.py Boards)."""

    def schedule(self, mid: int) -> None:
        """Redraw this match's board soon."""

    async def recent_for(self, mid: int) -> deque[str]:
        """The last public event texts of a match."""


class TimerCalls(Protocol):
    """What handlers ask of the timers (bot/discord/timers.py Timers)."""

    async def redraw_games(self, guild_id: int, user_id: int) -> None:
        """After someone went away or came back: redraw their games here, set their deadlines again."""

    async def back_from_away(self, guild_id: int, user_id: int) -> None:
        """A button of a game of this server was pressed: the presser's time away there ends."""


@dataclass(frozen=True, slots=True)
class Services:
    """What the Discord handlers use, built once by the bot."""

    client: discord.Client
    sessions: SessionManager
    store: Store
    settings: Settings
    prefs: Prefs
    away: Away
    drawing: Drawing
    boards: BoardCalls
    timers: TimerCalls

    async def channel(self, channel_id: int) -> Any:
        """A channel or thread by id (fetched if not cached); None if it is gone or hidden from us."""
        return await channel_of(self.client, channel_id)


def services_of(interaction: discord.Interaction) -> Services:
    """The services of the bot that received this interaction (its client's `services`)."""
    services = getattr(interaction.client, "services", None)
    if not isinstance(services, Services):
        raise TypeError(f"{type(interaction.client).__name__} has no Agora services")
    return services


_SEEN: dict[int, None] = {}  # the latest interaction ids handled, oldest first
SEEN_KEPT = 10_000


def _seen_before(interaction_id: int) -> bool:
    """Whether this interaction was handled already (remembering it if not)."""
    if interaction_id in _SEEN:
        return True
    _SEEN[interaction_id] = None
    if len(_SEEN) > SEEN_KEPT:
        del _SEEN[next(iter(_SEEN))]
    return False


async def guard(
    interaction: discord.Interaction,
    match_id: int | None,
    work: Callable[[], Awaitable[None]],
    *,
    move: bool = False,
) -> None:
    """Run a callback: refusals become ephemeral answers; a database outage is answered as one (the store
    gives up on the press's own calls ANSWER_WITHIN seconds after the press, not on the work it starts);
    any other error is logged with the match id. An interaction Discord delivers a second time (after a
    reconnect) is answered once: the repeat is dropped. `move`: the press plays a move (an outage says
    "your move was not played")."""
    if _seen_before(interaction.id):
        log.info("interaction %s delivered again (match %s); ignored", interaction.id, match_id)
        return
    answer_by, press = time.monotonic() + ANSWER_WITHIN, asyncio.current_task()
    budget = ANSWER_BY.set(lambda: answer_by if asyncio.current_task() is press else None)
    try:
        with tagged(match_id, interaction.guild_id):
            await work()
    except SeatTakenOver as refusal:  # an AI plays their seat: the way back comes with the answer
        await reply(interaction, str(refusal), view=ReclaimButton.view_of(refusal.match_id))
    except SessionError as refusal:
        await reply(interaction, str(refusal))
    except (StoreUnavailable, DiskFull) as outage:  # logged once per outage by the store, not per press
        await _answer_outage(interaction, outage, move)
    except Exception as e:
        if isinstance(e, discord.HTTPException) and e.code == ALREADY_ANSWERED:
            # Another process answered it (two on one shard during a rolling restart): not a failure.
            log.warning("interaction %s was already answered elsewhere (match %s)", interaction.id, match_id)
            return
        log.exception("Discord callback %r failed (match %s)", interaction.data, match_id)
        try:
            await reply(interaction, OOPS)
        except discord.HTTPException:
            log.exception("could not tell the user about the failure (match %s)", match_id)
    finally:
        ANSWER_BY.reset(budget)


async def _answer_outage(
    interaction: discord.Interaction, outage: StoreUnavailable | DiskFull, move: bool
) -> None:
    """Tell the presser the database is unreachable (or its disk full) and that nothing was played."""
    if isinstance(outage, DiskFull):
        text = DISK_FULL if move else DISK_FULL_OTHER
    else:
        text = UNREACHABLE if move else UNREACHABLE_OTHER
    services_of(interaction).store.outage.told()
    try:
        await reply(interaction, text)
    except discord.HTTPException as e:
        log.warning("could not tell %s the database is unreachable: %s", interaction.user.id, e)


OTHER_SERVER = "That button belongs to a game on another server."
NOT_IN_A_DM = "That button belongs to a game on a server; it does nothing in a direct message."


async def owned_here(interaction: discord.Interaction, match_id: int) -> MatchInfo:
    """The match or lobby a pressed component names, if it belongs to the server and the channel the press
    comes from; refused politely (SessionError) otherwise. Discord delivers whatever custom_id a client
    sends, with the client's own server and channel, so a custom_id proves nothing about where it was shown:
    every component of a game is shown in the game's channel (or thread) only, ephemeral ones included; a
    practice game without a channel is its learner's alone, shown in their own messages wherever they are."""
    info = await services_of(interaction).sessions.peek(match_id)  # its server and channel never change
    if info.guild_id is None or info.guild_id != interaction.guild_id:
        raise SessionError(OTHER_SERVER if interaction.guild_id is not None else NOT_IN_A_DM)
    if info.channel_id is None and practice(info.options):  # shown only in its learner's own messages
        if interaction.user.id != info.host_user:
            raise SessionError("That is someone else's practice game; start your own with `/learn`.")
        return info
    if info.channel_id != interaction.channel_id:
        raise SessionError(f"That button belongs to game #{info.id} in <#{info.channel_id}>; press it there.")
    return info


async def guarded_press(
    interaction: discord.Interaction,
    match_id: int,
    work: Callable[[], Awaitable[None]],
    *,
    move: bool = False,
) -> None:
    """`guard` for the press of a component that names a match or lobby: `work` runs only if that game
    belongs to the server and channel the press comes from (owned_here), and then it ends the presser's time
    away (bot/discord/away.py); every such component goes here."""

    async def checked() -> None:
        await owned_here(interaction, match_id)
        # a press on one's own server's game: back from time away (bot/discord/away.py)
        await services_of(interaction).timers.back_from_away(interaction.guild_id or 0, interaction.user.id)
        await work()

    await guard(interaction, match_id, checked, move=move)


def guarded(
    command: Callable[Concatenate[G, discord.Interaction, P], Awaitable[None]],
) -> Callable[Concatenate[G, discord.Interaction, P], Coroutine[Any, Any, None]]:
    """A command of a group, run under `guard` (refusals answered politely, errors logged). The signature
    discord.py reads is the command's own, its annotations resolved where the command is written."""

    @functools.wraps(command)
    async def run(group: G, interaction: discord.Interaction, *args: P.args, **kwargs: P.kwargs) -> None:
        await guard(interaction, None, lambda: command(group, interaction, *args, **kwargs))

    run.__signature__ = inspect.signature(command, eval_str=True)  # type: ignore[attr-defined]  # read by discord.py
    return run


class ReclaimButton(
    Rebuilt, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ag:lb:back:(?P<mid>\d+)"
):
    """ "Take my seat back": posted when an AI takes over a timed-out seat (and with the refusal of a press
    on such a seat); only that person may press it."""

    def __init__(self, mid: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Take my seat back", style=discord.ButtonStyle.success, custom_id=f"ag:lb:back:{mid}"
            )
        )
        self.mid = mid

    @classmethod
    def view_of(cls, mid: int) -> StaticView:
        """The message view holding the button."""
        view = StaticView()
        view.add_item(cls(mid).item)
        return view

    async def callback(self, interaction: discord.Interaction) -> None:
        """Take the seat back from the AI; the board follows."""
        await guarded_press(interaction, self.mid, lambda: self._reclaim(interaction))

    async def _reclaim(self, interaction: discord.Interaction) -> None:
        services, user = services_of(interaction), interaction.user
        info = await services.sessions.reclaim(self.mid, user.id, user.display_name)
        services.boards.schedule(self.mid)
        await reply(interaction, f"✅ You play your seat in game #{info.id} again; the board will follow.")
        if isinstance(interaction.channel, discord.abc.Messageable):
            await interaction.channel.send(
                f"↩️ {user.display_name} is back in the game and plays their own seat."
            )
