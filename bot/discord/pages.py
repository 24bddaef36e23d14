"""What anyone may read from a board: the match's Log (paged, each person's own secrets only) and the
game's Rules; their buttons (`LogButton`, `RulesButton`) and what /game log and /rules answer with: how to
play on one page (the picture and a summary), with the full rule text and the rulings behind buttons.
"""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord

from bot.discord.common import V2_TEXT, Rebuilt, StaticLayout, StaticView, whole_lines, with_names
from bot.discord.services import Services, guard, guarded_press, services_of
from bot.discord.texts import rulings, summary
from bot.sessions import SessionError
from engine.registry import games
from engine.table import lesson
from engine.table.present import rule_text
from render import howto

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


def _known(game_id: str) -> str:
    """The game's title; refused politely for a game that is not here."""
    if game_id not in games():
        raise SessionError("That game is not available here; /rules lists the games there are.")
    return games()[game_id].title


def rulings_message(game_id: str) -> dict[str, Any]:
    """Agora's rulings for a game as embeds (the whole text as a file when it is longer than they hold)."""
    title = _known(game_id)
    text = rulings(game_id) or "Agora has no rulings for this game: its rule text settles everything."
    kwargs: dict[str, Any] = {}
    room = 5800 - len(title) - 20  # 6,000 for all embeds
    shown = text if len(text) <= room else whole_lines(text, room - 80)
    if len(shown) < len(text):  # the rest is readable in the attached file, never cut silently
        kwargs["file"] = discord.File(io.BytesIO(text.encode()), f"{game_id}-rulings.md")
        shown += "\n\n*…the rest of the rulings is in the attached file.*"
    parts = [shown[i : i + 4000] for i in range(0, len(shown), 4000)]
    embeds = [
        discord.Embed(title=f"{title} — Agora's rulings" if i == 0 else None, description=p, color=0xF59E0B)
        for i, p in enumerate(parts)
    ]
    return {"embeds": embeds, **kwargs}


def full_rules_message(game_id: str) -> dict[str, Any]:
    """The game's own rule text: its start to read here, the whole of it as a file."""
    title = _known(game_id)
    text = rule_text(games()[game_id]) or "This game's rule text is not shipped with Agora."
    head = (
        f"### {title} — the rule text\n-# As published (extracted from its PDF: pictures and icons are lost)."
    )
    room = V2_TEXT - len(head) - 120
    start = text if len(text) <= room else whole_lines(text, room) + "\n\n*…the whole text is in the file.*"
    layout = StaticLayout()
    layout.add_item(discord.ui.Container(discord.ui.TextDisplay(head), discord.ui.TextDisplay(start or "…")))
    files = (
        [discord.File(io.BytesIO(text.encode()), f"{game_id}-rules.txt")] if len(start) < len(text) else []
    )
    if files:
        layout.add_item(discord.ui.File(f"attachment://{game_id}-rules.txt"))
    return {"view": layout, "files": files}


async def rules_message(game_id: str, theme: str | None = None) -> dict[str, Any]:
    """/rules: how to play on one page (the picture, render/howto.py, with its alt text, and a short
    summary), then buttons for the game's whole rule text and Agora's rulings. Without a tutorial: the
    summary."""
    title = _known(game_id)
    game = games()[game_id]
    tutorial = lesson.of(game)
    layout = StaticLayout()
    files: list[discord.File] = []
    body: list[discord.ui.Item[Any]] = [
        discord.ui.TextDisplay(f"### {title}: how to play\n{summary(game_id)}")
    ]
    if tutorial is not None:
        png = await asyncio.to_thread(howto.page, game_id, theme)
        alt = await asyncio.to_thread(howto.alt, game_id)
        files.append(discord.File(io.BytesIO(png), "howto.png", description=alt))
        body.append(
            discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://howto.png", description=alt))
        )
        body.append(discord.ui.TextDisplay(f"-# Learn it by playing: `/learn game:{game_id}`."))
    layout.add_item(discord.ui.Container(*body, accent_colour=0xF59E0B))
    layout.add_item(discord.ui.ActionRow(RuleTextButton(game_id).item, RulingsButton(game_id).item))
    return {"view": layout, "files": files}


class RuleTextButton(
    Rebuilt, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ag:ruletext:(?P<game_id>[a-z0-9_]+)"
):
    """/rules' "Full rules": the game's own rule text."""

    def __init__(self, game_id: str) -> None:
        super().__init__(
            discord.ui.Button(label="Full rules", emoji="📄", custom_id=f"ag:ruletext:{game_id}")
        )
        self.game_id = game_id

    async def callback(self, interaction: discord.Interaction) -> None:
        """The rule text, ephemerally."""

        async def work() -> None:
            await interaction.response.send_message(ephemeral=True, **full_rules_message(self.game_id))

        await guard(interaction, None, work)


class RulingsButton(
    Rebuilt, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ag:rulings:(?P<game_id>[a-z0-9_]+)"
):
    """/rules' "Rulings": how Agora settles what the rule text leaves open."""

    def __init__(self, game_id: str) -> None:
        super().__init__(discord.ui.Button(label="Rulings", emoji="⚖️", custom_id=f"ag:rulings:{game_id}"))
        self.game_id = game_id

    async def callback(self, interaction: discord.Interaction) -> None:
        """The rulings, ephemerally."""

        async def work() -> None:
            await interaction.response.send_message(ephemeral=True, **rulings_message(self.game_id))

        await guard(interaction, None, work)


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
            await interaction.response.defer(ephemeral=True, thinking=True)  # the page may be drawn now
            theme = await services_of(interaction).settings.theme(interaction.guild_id)
            kwargs = await rules_message(self.game_id, theme)
            await interaction.followup.send(ephemeral=True, **kwargs)

        await guard(interaction, None, work)
