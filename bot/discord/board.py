"""The public board: one message per turn in the game's channel, built from the spectator view only.

Every SessionEvent of a started game marks its board dirty; one task per match redraws it (coalescing bursts
of AI moves), rendering off the event loop. A new message is posted when the turn changes or someone new
must act (so the mention pings them); otherwise the current turn's message is edited in place.
Buttons: "My hand & moves" (menus.HandButton), "Log" and "Rules" (commands.LogButton, commands.RulesButton).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

import render
from bot.discord.common import StaticView, seat_names, who, with_names
from bot.sessions import MatchInfo, SessionEvent
from bot.store import ABANDONED, ACTIVE, BROKEN, FINISHED, LOBBY
from engine.registry import get as get_game
from engine.table.present import Status, of

if TYPE_CHECKING:
    from bot.discord.app import AgoraBot

log = logging.getLogger("bot.discord.board")

RECENT = 6  # public events shown under the board
COLOR = {ACTIVE: 0x3B82F6, FINISHED: 0x22C55E, ABANDONED: 0x6B7280, BROKEN: 0xEF4444}


@dataclass(slots=True)
class Posted:
    """The current board message of a match."""

    channel_id: int
    message_id: int
    turn: Any
    pinged: frozenset[int]


def status_of(info: MatchInfo, view: dict[str, Any]) -> Status:
    """The game's own words for where it stands (engine.table.present), from the spectator view."""
    return of(get_game(info.game_id)).status(view, seat_names(info))


def turn_key(status: Status, info: MatchInfo) -> Any:
    """What identifies "one turn": the game's own turn key, else who is to act."""
    return status.turn or tuple(info.to_act)


def board_buttons(info: MatchInfo) -> StaticView:
    """My hand & moves (while the game runs), Log and Rules."""
    view = StaticView()
    if info.status == ACTIVE:
        view.add_item(
            discord.ui.Button(
                label="My hand & moves",
                emoji="🃏",
                style=discord.ButtonStyle.primary,
                custom_id=f"ag:hand:{info.id}:{info.state_id}",
            )
        )
    view.add_item(discord.ui.Button(label="Log", emoji="📜", custom_id=f"ag:log:{info.id}:-1"))
    view.add_item(discord.ui.Button(label="Rules", emoji="📖", custom_id=f"ag:rules:{info.game_id}"))
    return view


def _description(info: MatchInfo, status: Status) -> str:
    """The game's headline and pending decision, then who must act (mentions) or how it ended."""
    if info.status == FINISHED:
        lines = ["**The game is over.**" + (f" {info.note}" if info.note else "")]
        if status.headline:
            lines.append(status.headline)
        return "\n".join(lines)
    if info.status != ACTIVE:
        return f"**{info.note or 'This game has stopped.'}**"
    lines = [f"**{status.headline}**"] if status.headline else []
    if status.prompt:
        lines.append(status.prompt)
    names = [who(info, s) for s in info.to_act]
    if len(names) > 1:
        lines.append(f"**Everyone at once:** {', '.join(names)} — make your choice (*My hand & moves*).")
    elif names:
        lines.append(f"**Turn:** {names[0]}")
    return "\n".join(lines)


def _result(info: MatchInfo) -> str:
    if info.returns is None:
        return ""
    names = seat_names(info)
    winners = [i for i, r in enumerate(info.returns) if r > 0]
    if not winners:
        return "Nobody wins."
    text = " and ".join(
        f"{names[i]}" + (f" (<@{info.seats[i].user_id}>)" if not info.seats[i].is_ai else "") for i in winners
    )
    return f"🏆 {text} win{'s' if len(winners) == 1 else ''}!"


def board_embed(
    info: MatchInfo, view: dict[str, Any], recent: list[str], status: Status | None = None
) -> discord.Embed:
    """The embed under the image: the game's headline and prompt, whose turn, the last events, the scores."""
    status = status or status_of(info, view)
    title = f"{info.title} — game #{info.id}"
    embed = discord.Embed(
        title=title, description=_description(info, status)[:4096], color=COLOR.get(info.status, 0)
    )
    if info.status == FINISHED:
        embed.add_field(name="Result", value=_result(info) or "—", inline=False)
    events = [with_names(info, e) for e in recent[-RECENT:]]
    if events:
        embed.add_field(name="Last events", value="\n".join(f"• {e}" for e in events)[-1024:], inline=False)
    scores = "\n".join(status.scores) or "\n".join(seat_names(info))
    embed.add_field(name="Players", value=scores[:1024] or "—", inline=False)
    embed.set_image(url="attachment://board.png")
    embed.set_footer(text=f"Game #{info.id} · move {info.state_id} · anyone may look; only players act")
    return embed


class Boards:
    """Posts and updates the public board of every started match."""

    def __init__(self, bot: AgoraBot) -> None:
        self.bot = bot
        self.posted: dict[int, Posted] = {}
        self.recent: dict[int, deque[str]] = {}
        self._dirty: set[int] = set()
        self._tasks: dict[int, asyncio.Task[None]] = {}

    async def on_event(self, event: SessionEvent) -> None:
        """Session subscriber: remember public event texts, set deadlines, schedule a redraw."""
        info = event.info
        if info.origin != "discord" or info.channel_id is None or info.status == LOBBY:
            return
        texts = [e.text for e in event.visible_events(None)]
        if texts:
            self.recent.setdefault(info.id, deque(maxlen=RECENT)).extend(texts)
        if event.kind in ("started", "action", "undo", "left", "finished", "abandoned", "broken"):
            self.schedule(info.id)
        if event.kind in ("action", "started", "undo", "left"):
            await self.bot.timers.turn_changed(info)

    def schedule(self, mid: int) -> None:
        """Redraw this match's board soon (once, however many changes arrive meanwhile)."""
        self._dirty.add(mid)
        if mid not in self._tasks:
            self._tasks[mid] = asyncio.get_running_loop().create_task(self._run(mid), name=f"board-{mid}")

    async def flush(self) -> None:
        """Wait until every scheduled redraw is done (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def close(self) -> None:
        """Cancel pending redraws."""
        for task in list(self._tasks.values()):
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def _run(self, mid: int) -> None:
        try:
            while mid in self._dirty:
                self._dirty.discard(mid)
                try:
                    await self.redraw(mid)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("could not update the board of match %s", mid)
        finally:
            self._tasks.pop(mid, None)

    async def redraw(self, mid: int) -> None:
        """Post or edit the board of a match from its spectator view."""
        sessions = self.bot.sessions
        info = await sessions.get(mid)
        if info.status == LOBBY or info.channel_id is None:
            return
        channel = await self.bot.channel(info.channel_id)
        if channel is None:
            log.warning("match %s: channel %s is gone", mid, info.channel_id)
            return
        if info.status in (ABANDONED, BROKEN):
            if mid in self.posted or info.state_id > 0:  # a cancelled lobby has no board to close
                await self._stopped(info, channel)
            return
        view = await sessions.view_for(mid, None)  # the spectator view: nothing private ever goes public
        png = await asyncio.to_thread(render.board, info.game_id, view, seat_names(info))
        file = discord.File(io.BytesIO(png), "board.png", description=f"{info.title} board")
        status = status_of(info, view)
        embed = board_embed(info, view, list(self.recent.get(mid, ())), status)
        buttons = board_buttons(info)
        users = frozenset(info.users_to_act)
        key = turn_key(status, info)
        old = self.posted.get(mid)
        if old is not None and old.turn == key and users <= old.pinged and old.channel_id == channel.id:
            try:
                message = channel.get_partial_message(old.message_id)
                await message.edit(
                    content=self._ping(info, old.pinged), embed=embed, attachments=[file], view=buttons
                )
                return
            except discord.NotFound:
                pass
        content = self._ping(info, users)
        sent = await channel.send(content, embed=embed, file=file, view=buttons)
        self.posted[mid] = Posted(channel.id, sent.id, key, users)
        if info.over:
            self.forget(mid)

    @staticmethod
    def _ping(info: MatchInfo, users: frozenset[int]) -> str:
        if info.status == FINISHED:
            people = " ".join(f"<@{s.user_id}>" for s in info.seats if not s.is_ai and s.user_id is not None)
            return f"Game over! {people}".strip()
        if not info.users_to_act:
            return f"Waiting for {', '.join(who(info, s) for s in info.to_act) or '…'}."
        mentions = " ".join(f"<@{u}>" for u in info.users_to_act)
        return f"{mentions} — your turn! Press **My hand & moves**."

    async def _stopped(self, info: MatchInfo, channel: Any) -> None:
        old = self.posted.get(info.id)
        if old is not None:
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(old.message_id).edit(view=board_buttons(info))
        note = info.note or "The game was stopped."
        await channel.send(f"🛑 {info.title} game #{info.id}: {note}")
        self.forget(info.id)

    def forget(self, mid: int) -> None:
        """Drop what we remember about a finished match."""
        self.posted.pop(mid, None)
        self.recent.pop(mid, None)
