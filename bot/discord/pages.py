"""What anyone may read from a board: the match's Log (paged, each person's own secrets only) and the
game's Rules; their buttons (`LogButton`, `RulesButton`) and what /game log and /rules answer with.
"""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.discord.common import Rebuilt, StaticView, with_names
from bot.discord.services import Services, guard, guarded_press, services_of
from bot.discord.texts import rulings, summary
from bot.sessions import SessionError
from engine.registry import games

LOG_PAGE = 15


async def log_page(
    services: Services, interaction: discord.Interaction, mid: int, page: int
) -> dict[str, Any]:
    """One page of the match's log as this user may read it (their own secrets, nobody else's)."""
    sessions = services.sessions
    info = await sessions.get(mid)
    lines = [with_names(info, t) for _, t in await sessions.log_for(mid, interaction.user.id)]
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
            view.add_item(LogButton(mid, target, label).item)
    return {"embed": embed, "view": view}


class LogButton(
    Rebuilt, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ag:log:(?P<mid>\d+):(?P<page>-?\d+)"
):
    """The board's Log button (page -1 = the latest) and the log's own paging buttons."""

    def __init__(self, mid: int, page: int, label: str = "Log", *, emoji: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=label, emoji=emoji, custom_id=f"ag:log:{mid}:{page}"))
        self.mid, self.page = mid, page

    async def callback(self, interaction: discord.Interaction) -> None:
        """Anyone may read the log: a new ephemeral message from the board, paged in place after that."""

        async def work() -> None:
            message = interaction.message
            in_place = message is not None and message.flags.ephemeral
            if in_place:  # the log is rebuilt by replaying the match: defer first
                await interaction.response.defer()
                await interaction.edit_original_response(
                    **await log_page(services_of(interaction), interaction, self.mid, self.page)
                )
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
                kwargs = await log_page(services_of(interaction), interaction, self.mid, self.page)
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


class RulesButton(
    Rebuilt, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ag:rules:(?P<game_id>[a-z0-9_]+)"
):
    """The board's Rules button."""

    def __init__(self, game_id: str) -> None:
        super().__init__(discord.ui.Button(label="Rules", emoji="📖", custom_id=f"ag:rules:{game_id}"))
        self.game_id = game_id

    async def callback(self, interaction: discord.Interaction) -> None:
        """The rules, ephemerally."""

        async def work() -> None:
            await interaction.response.send_message(ephemeral=True, **rules_message(self.game_id))

        await guard(interaction, None, work)
