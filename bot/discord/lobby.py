"""The lobby: /play opens it (in a new thread, or in place by server setting) with Join / Leave / Add AI /
Start / Cancel buttons (custom_id `ag:lb:<action>:<match>`); the host starts once enough players sit."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.discord.common import StaticView, bot_of, guarded, reply, seat_names
from bot.sessions import MatchInfo, SessionError
from bot.store import LOBBY
from engine.registry import get as get_game

ACTIONS = {"join": "Join", "leave": "Leave", "ai": "Add AI", "start": "Start", "cancel": "Cancel"}
STYLES = {
    "join": discord.ButtonStyle.success,
    "leave": discord.ButtonStyle.secondary,
    "ai": discord.ButtonStyle.secondary,
    "start": discord.ButtonStyle.primary,
    "cancel": discord.ButtonStyle.danger,
}


def lobby_embed(info: MatchInfo) -> discord.Embed:
    """The lobby: game, player range, host, the seats so far, and what to do."""
    game = get_game(info.game_id)
    lo, hi = game.min_players, game.max_players
    names = seat_names(info)
    seats = [
        f"{i + 1}. {names[i] if s.is_ai else f'<@{s.user_id}>'}"
        + (" (host)" if s.user_id == info.host_user and not s.is_ai else "")
        for i, s in enumerate(info.seats)
    ]
    if info.status == LOBBY:
        need = max(0, lo - len(info.seats))
        status = (
            f"Waiting for {need} more player{'s' if need != 1 else ''}."
            if need
            else "Ready: the host can press **Start**."
        )
        desc = (
            f"{game.title} for {lo}–{hi} players. Press **Join** to take a seat; "
            f"the host can **Add AI** seats.\n{status}"
        )
    else:
        desc = (
            "The game has started — the board is below."
            if info.status != "abandoned"
            else "This lobby was cancelled."
        )
    embed = discord.Embed(title=f"{game.title} lobby — game #{info.id}", description=desc, color=0xA855F7)
    embed.add_field(name=f"Seats ({len(info.seats)}/{hi})", value="\n".join(seats) or "—", inline=False)
    return embed


def lobby_buttons(info: MatchInfo) -> StaticView | None:
    """The five lobby buttons (none once the lobby is closed)."""
    if info.status != LOBBY:
        return None
    view = StaticView()
    for action, label in ACTIONS.items():
        view.add_item(
            discord.ui.Button(label=label, style=STYLES[action], custom_id=f"ag:lb:{action}:{info.id}")
        )
    return view


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ag:lb:(?P<action>[a-z]+):(?P<mid>\d+)"
):
    """One lobby button; the lobby message is redrawn in place after every change."""

    def __init__(self, action: str, mid: int) -> None:
        super().__init__(
            discord.ui.Button(label=ACTIONS.get(action, action), custom_id=f"ag:lb:{action}:{mid}")
        )
        self.action, self.mid = action, mid

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyButton:
        """Rebuild from the custom_id."""
        return cls(match["action"], int(match["mid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Join, leave, add an AI, start or cancel."""
        await guarded(interaction, self.mid, lambda: self._act(interaction))

    async def _act(self, interaction: discord.Interaction) -> None:
        sessions = bot_of(interaction).sessions
        user = interaction.user
        mid = self.mid
        if self.action == "join":
            info = await sessions.join(mid, user.id, user.display_name)
        elif self.action == "leave":
            info = await sessions.leave(mid, user.id)
        elif self.action == "ai":
            info = await sessions.add_ai(mid, user.id)
        elif self.action == "start":
            info = await sessions.start(mid, user.id)
        elif self.action == "cancel":
            info = await sessions.get(mid)
            if info.status != LOBBY:
                raise SessionError("This game has already started; use /game abandon to stop it.")
            info = await sessions.abandon(mid, user.id)
        else:
            await reply(interaction, "That button no longer exists.")
            return
        await interaction.response.edit_message(embed=lobby_embed(info), view=lobby_buttons(info))
