"""Servers' card packs: cards an admin adds to a game as a TOML file (engine/packs.py checks it), stored per
server, game and name, each upload a new version (bot.store `save_pack`).

A pack is checked before anything is stored, and read again (from its stored text) whenever it is used, so
a pack the game's card rules no longer accept is refused politely, never dealt. A match is dealt with a copy
of its pack (options["pack"] = engine.packs.option(pack, version)): a running game keeps the version it
started with whatever is uploaded or removed later, and its rematch keeps the same options.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from bot.sessions.types import SessionError, as_written
from bot.store import PackRecord, Store
from engine import packs
from engine.carddata import CardDataError
from engine.core import JSON, Game
from engine.registry import games, title_of
from engine.table.present import SeatChoice, choices_of
from engine.table.present import of as presentation_of

MAX_PACKS = 25  # packs per server and game (an autocomplete lists at most 25)
PACK = "pack"  # the match option that holds a match's pack
READ_SECONDS = 2.0  # the most an upload's check may take
_CACHE_SIZE = 256  # packs kept read (a version's text never changes, so neither does its Pack)
_read: OrderedDict[tuple[int, str, str, int], packs.Pack] = OrderedDict()


@dataclass(frozen=True, slots=True)
class ServerPack:
    """One of a server's packs as it is now: its latest version, read."""

    record: PackRecord
    pack: packs.Pack

    @property
    def label(self) -> str:
        """The name and version: "Winter v2"."""
        return f"{self.record.name} v{self.record.version}"


def pack_games() -> list[str]:
    """The ids of the registered games that take card packs, by title."""
    return sorted((g for g in games() if packs.supports(g)), key=title_of)


def read_pack(data: bytes, filename: str) -> packs.Pack:
    """A pack file's bytes checked as a card pack; SessionError with one line naming the file (and the card
    and field) otherwise."""
    if len(data) > packs.MAX_PACK_BYTES:
        raise SessionError(too_big(filename, len(data)))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SessionError(f"{filename}: not UTF-8 text (byte {e.start + 1} cannot be read)") from None
    try:
        pack = packs.read(text.removeprefix("\ufeff"), filename)
    except CardDataError as e:
        raise SessionError(str(e)) from None
    if pack.game_id not in games():
        raise SessionError(f"{filename}: the game {pack.game_id!r} is not available here")
    return pack


async def read_pack_aside(data: bytes, filename: str) -> packs.Pack:
    """read_pack in a thread, so the event loop (every other server's commands) goes on meanwhile;
    SessionError in one line if it takes more than READ_SECONDS. engine/toml_guard.py bounds what the
    TOML parser is given, so a read takes milliseconds and a thread is enough: no process to start, no Pack
    to pickle back; the time limit is a backstop, and a read it gives up on still ends by itself."""
    try:
        return await asyncio.wait_for(asyncio.to_thread(read_pack, data, filename), READ_SECONDS)
    except TimeoutError:
        raise SessionError(
            f"{filename}: took more than {READ_SECONDS:g} seconds to check, so it was refused; "
            "a card pack is a short TOML file of card tables"
        ) from None


def too_big(filename: str, size: int) -> str:
    """The refusal of a file over the size limit."""
    return f"{filename}: {size:,} bytes; a card pack is at most {packs.MAX_PACK_BYTES:,} bytes"


async def cached(record: PackRecord) -> packs.Pack:
    """A stored pack version, read (and kept read); SessionError if its game's rules now refuse it. A
    version not yet read this process is read beside the event loop (after a restart, a server's packs are
    read afresh: some milliseconds each)."""
    key = (record.guild_id, record.game_id, record.name.casefold(), record.version)
    pack = _read.get(key)
    if pack is None:
        pack = await asyncio.to_thread(read_pack, record.text.encode("utf-8"), record.filename)
        _read[key] = pack
        if len(_read) > _CACHE_SIZE:
            _read.popitem(last=False)
    else:
        _read.move_to_end(key)
    return pack


async def upload(
    store: Store, guild_id: int, user_id: int | None, filename: str, data: bytes, now: float
) -> tuple[packs.Pack, int]:
    """Check a pack file and store it as the next version of the server's pack of its name; the pack and
    its version. Refused (nothing stored) if the file is not a valid pack or the server has MAX_PACKS
    packs for the game already."""
    pack = await read_pack_aside(data, filename)
    text = data.decode("utf-8").removeprefix("\ufeff")
    version = await store.save_pack(
        guild_id, pack.game_id, pack.name, filename, text, user_id, now, limit=MAX_PACKS
    )
    if version is None:
        raise SessionError(
            f"This server has {MAX_PACKS} {title_of(pack.game_id)} card packs already; remove one with "
            "`/config remove_cardpack:` first."
        )
    return pack, version


async def server_packs(store: Store, guild_id: int | None, game_id: str | None = None) -> list[ServerPack]:
    """A server's packs (the latest version of each), read; a version its game now refuses is left out."""
    if guild_id is None:
        return []
    found = []
    for record in await store.packs(guild_id, game_id):
        try:
            found.append(ServerPack(record, await cached(record)))
        except SessionError:
            continue
    return found


async def pack_option(store: Store, guild_id: int | None, game_id: str, name: str) -> JSON:
    """The match option (options["pack"]) of the server's pack of this name for this game, at its latest
    version; a polite refusal for a game without packs, a missing pack, or one of another game."""
    game = title_of(game_id)
    if not packs.supports(game_id):
        raise SessionError(f"{game} takes no card packs; play it without `pack:`.")
    wanted = " ".join(name.split())
    record = None if guild_id is None else await store.pack(guild_id, game_id, wanted)
    if record is None:
        others = [] if guild_id is None else await store.packs(guild_id)
        other = next((r for r in others if r.name.casefold() == wanted.casefold()), None)
        if other is not None:
            raise SessionError(
                f"The card pack **{as_written(other.name)}** is for {title_of(other.game_id)}, not {game}; "
                "choose one of the packs the list offers for this game."
            )
        raise SessionError(
            f"This server has no {game} card pack called '{as_written(wanted)}'. `/config` lists the "
            "server's packs; an admin adds one with `/config cardpack:`."
        )
    try:
        pack = await cached(record)
    except SessionError as e:
        raise SessionError(
            f"The card pack **{as_written(record.name)}** v{record.version} no longer fits {game}'s card "
            f"rules ({e}); an admin can upload a fixed version with `/config cardpack:`."
        ) from None
    return packs.option(pack, record.version)


def pack_of(options: JSON) -> tuple[str, int] | None:
    """The name and version of the pack a match is dealt with, if any."""
    value = options.get(PACK)
    if not isinstance(value, dict):
        return None
    return str(value.get("name") or "?"), int(value.get("version") or 0)


def seat_choices(game: Game[Any], options: JSON | None) -> tuple[SeatChoice, ...]:
    """A match's seat choices: its game's, with what its card pack adds (a pack's ready decks)."""
    value = (options or {}).get(PACK)
    if isinstance(value, dict):
        try:
            return packs.choices(packs.from_option(game.id, value))
        except CardDataError:
            pass  # refused when the match was made; its game's own choices stand
    return choices_of(presentation_of(game))


def check_option(game_id: str, value: JSON) -> None:
    """Refuse (SessionError) a match option "pack" that does not hold a pack of this game."""
    try:
        packs.from_option(game_id, value)
    except CardDataError as e:
        raise SessionError(f"That card pack cannot be used: {e}") from None
