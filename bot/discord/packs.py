"""Servers' card packs on Discord (bot/sessions/packs.py keeps them): `/config cardpack:<file>` adds one (or
its next version), `/config remove_cardpack:` stops offering one, `/config` lists them; `/play game: pack:`
deals a game with one, and `/card` finds their cards (texts.py). Only this server's packs are ever offered.

An uploaded file is refused before it is downloaded when Discord says it is too large, then read as UTF-8
and checked by the game's own card rules (engine/packs.py); a refusal names the file, the card and the field,
is answered privately, and stores nothing.
"""

from __future__ import annotations

import time

import aiohttp
import discord
from discord import app_commands

from bot.discord.common import shown, whole_lines
from bot.discord.services import Services, services_of
from bot.discord.texts import CHOICE_MAX, PackCards
from bot.sessions import SessionError
from bot.sessions.packs import ServerPack, server_packs, too_big, upload
from bot.store import PackRecord, Store
from engine import packs
from engine.registry import title_of
from engine.table.present import plural
from engine.text import printable

PACK_LIST_MAX = 900  # characters of the server's pack list in /config's answer


def described(pack: packs.Pack, version: int) -> str:
    """A pack in a line: "Card pack **Winter** v2 for <game>: 3 cards (Frost Giant, Ice Queen, Thaw)"."""
    names = [shown(e.name) for e in pack.entries]
    listed = ", ".join(names[:8]) + (f", and {len(names) - 8} more" if len(names) > 8 else "")
    count = plural(len(names), "card")
    return f"Card pack **{shown(pack.name)}** v{version} for {title_of(pack.game_id)}: {count} ({listed})"


async def add_pack(services: Services, interaction: discord.Interaction, file: discord.Attachment) -> str:
    """Download, check and store an uploaded pack file (Manage Server is checked by the caller); what to
    answer. Refused (SessionError, nothing stored) for a file too large, not UTF-8 or not a valid pack."""
    if file.size > packs.MAX_PACK_BYTES:  # Discord says how large it is: no need to download it
        raise SessionError(too_big(file.filename, file.size))
    try:
        data = await file.read()
    except (discord.HTTPException, aiohttp.ClientError):
        raise SessionError(
            f"{file.filename} could not be downloaded from Discord; please try again."
        ) from None
    guild_id = interaction.guild_id or 0
    store = services.store
    pack, version = await upload(store, guild_id, interaction.user.id, file.filename, data, time.time())
    game, typed = title_of(pack.game_id), printable(pack.name.replace("`", "'"))
    kept = "; games already running keep the version they started with" if version > 1 else ""
    return (
        f"📦 {described(pack, version)}.\nPlay with it: `/play game:{game} pack:{typed}`; "
        f"`/card` finds its cards{kept}."
    )


async def pack_to_remove(services: Services, interaction: discord.Interaction, which: str) -> PackRecord:
    """The server's pack that `/config remove_cardpack:` names (`game_id/name`, as the autocomplete gives,
    or a bare name); a polite refusal if there is none, or several of that name."""
    game_id, name = _which(which)
    found = [
        r
        for r in await services.store.packs(interaction.guild_id or 0, game_id)
        if r.name.casefold() == name.casefold()
    ]
    if not found:
        raise SessionError(f"This server has no card pack called {name!r}; `/config` lists its packs.")
    if len(found) > 1:
        raise SessionError(
            f"Several games have a card pack called {name!r}; pick the one you mean from the list."
        )
    return found[0]


async def remove_pack(services: Services, interaction: discord.Interaction, record: PackRecord) -> str:
    """Stop offering one of this server's packs; what to answer. Games already dealt with it keep it."""
    await services.store.remove_pack(record.guild_id, record.game_id, record.name, time.time())
    return (
        f"🗑️ Card pack **{shown(record.name)}** for {title_of(record.game_id)} is no longer offered; games "
        "dealt with it keep it. Uploading a file of that name adds it again, as its next version."
    )


def _which(value: str) -> tuple[str | None, str]:
    """(game id or None, pack name) of a remove_cardpack value: "game_id/Name" or "Name"."""
    game_id, slash, name = value.partition("/")
    if slash and game_id in packs.GAMES:
        return game_id, " ".join(name.split())
    return None, " ".join(value.split())


async def pack_list(store: Store, guild_id: int) -> str:
    """This server's packs in a few lines ("" when it has none)."""
    found = await server_packs(store, guild_id)
    if not found:
        return ""
    lines = [
        f"• {title_of(s.record.game_id)}: **{shown(s.label)}**, {plural(len(s.pack.entries), 'card')}"
        for s in found
    ]
    text = "\n".join(lines)
    if len(text) > PACK_LIST_MAX:
        text = whole_lines(text, PACK_LIST_MAX) + "\n• …"
    return f"📦 Card packs (`/play game: pack:` deals one):\n{text}"


def pack_cards(found: list[ServerPack]) -> dict[str, list[PackCards]]:
    """A server's packs as /card searches them: by game."""
    by_game: dict[str, list[PackCards]] = {}
    for s in found:
        cards = PackCards(s.record.name, s.record.version, s.pack.entries)
        by_game.setdefault(s.record.game_id, []).append(cards)
    return by_game


async def pack_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """/play's `pack:` suggestions: this server's packs for the game chosen (every game's until one is)."""
    game = getattr(interaction.namespace, "game", None) or None
    found = await server_packs(services_of(interaction).store, interaction.guild_id, game)
    q = current.strip().casefold()
    return [
        app_commands.Choice(
            name=f"{printable(s.label)} · {title_of(s.record.game_id)}"[:CHOICE_MAX], value=s.record.name
        )
        for s in found
        if q in s.record.name.casefold()
    ][:25]


async def removal_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """/config remove_cardpack's suggestions: this server's packs, as "game_id/name"."""
    found = await server_packs(services_of(interaction).store, interaction.guild_id)
    q = current.strip().casefold()
    return [
        app_commands.Choice(
            name=f"{printable(s.record.name)} · {title_of(s.record.game_id)}"[:CHOICE_MAX],
            value=f"{s.record.game_id}/{s.record.name}",
        )
        for s in found
        if q in s.record.name.casefold()
    ][:25]


async def card_packs(interaction: discord.Interaction, game_id: str | None) -> dict[str, list[PackCards]]:
    """This server's packs (none outside a server) for /card: one game's, or every game's."""
    return pack_cards(await server_packs(services_of(interaction).store, interaction.guild_id, game_id))
