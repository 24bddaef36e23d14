"""/game replay and /game export: this channel's game, or any game of this server by its number.

A replay is an animated GIF, one frame a turn from the spectator's view (engine/export.py turn_views, drawn
by render/replay.py in the drawing workers), made to fit the upload limit Discord gives the interaction. An
export is the match as JSON (docs/export.md); the seed and the log rebuild every hidden card, so only a
game that is over is exported. Another server's games do not exist here: the same answer as no game at all.
"""

from __future__ import annotations

import io

import discord

from bot.discord.common import drawn_names, seat_names
from bot.discord.services import Services
from bot.replay import export_filename, match_export
from bot.sessions import MatchInfo, SessionError
from bot.store import ABANDONED, BROKEN, FINISHED, LOBBY, MatchRecord
from engine.export import ExportError, to_text
from engine.registry import get as get_game
from engine.table import describe
from engine.table.present import of, plural, together

UPLOAD_MARGIN = 64 * 1024  # of the upload limit, left for the rest of the request (the embed, the form)
MAX_MATCH_ID = 2**53 - 1  # the largest integer option Discord accepts (its max_value is at most 2^53 - 1)
REPLAYS_AT_ONCE = 2  # replays being made for one server at a time; one more is refused politely
_making: dict[int, int] = {}  # replays under way, by server id
NO_GAME_HERE = (
    "There is no game in this channel. Give a game's number (it is in each board's title), e.g. "
    "`/game {sub} id:12`."
)
MEANWHILE = "; meanwhile `/game replay` shows it so far."  # ends bot/replay.py's LIVE_EXPORT


async def stored_match(
    services: Services, interaction: discord.Interaction, match_id: int | None, sub: str
) -> MatchRecord:
    """The stored match asked for (this channel's, or the last it had, when no number is given), if it is
    this server's and was dealt; SessionError saying why not otherwise."""
    store = services.store
    if match_id is None:
        channel = interaction.channel_id or 0
        here = await store.live_match_id(channel) or await store.latest_match_id(channel)
        if here is None:
            raise SessionError(NO_GAME_HERE.format(sub=sub))
        match_id = here
    record = await store.get_match(match_id) if 0 < match_id <= MAX_MATCH_ID else None
    if record is None or record.guild_id is None or record.guild_id != interaction.guild_id:
        raise SessionError(f"There is no game #{match_id} on this server.")
    if record.status == BROKEN:
        raise SessionError(f"Game #{record.id} was stopped because its saved data is damaged: {record.note}")
    if record.status == LOBBY or record.snapshot is None:
        raise SessionError(f"Game #{record.id} was never dealt, so there is nothing to show.")
    return record


def where_it_stands(info: MatchInfo, moves: int) -> str:
    """How the game ended, or that it goes on, in a sentence."""
    if info.status == FINISHED:
        names = seat_names(info)
        winners = [names[i] for i, share in enumerate(info.returns or ()) if share > 0]
        won = f"{together(winners)} {'wins' if len(winners) == 1 else 'share the win'}." if winners else ""
        return info.note or won or "Nobody won."  # a forfeit's note names the winners itself
    if info.status == ABANDONED:
        return f"Abandoned after {plural(moves, 'move')}."
    return f"Still being played: shown up to move {moves}, now."


async def replay(services: Services, interaction: discord.Interaction, match_id: int | None) -> None:
    """/game replay [id]: the game as an animated picture, one frame a turn, posted in the channel (at most
    REPLAYS_AT_ONCE under way per server: each takes seconds of the replay worker)."""
    record = await stored_match(services, interaction, match_id, "replay")
    server = interaction.guild_id or 0
    if _making.get(server, 0) >= REPLAYS_AT_ONCE:
        raise SessionError(
            f"{REPLAYS_AT_ONCE} replays are being made for this server right now; ask again once they are "
            "posted."
        )
    _making[server] = _making.get(server, 0) + 1
    try:
        await _replay(services, interaction, record)
    finally:
        _making[server] -= 1
        if not _making[server]:
            del _making[server]


async def _replay(services: Services, interaction: discord.Interaction, record: MatchRecord) -> None:
    """Make the replay in the replay worker and post it."""
    info = await services.sessions.get(record.id)
    rows = [r for r in await services.store.load_log(record.id) if not r.undone]
    await interaction.response.defer(thinking=True)  # drawing every turn takes seconds
    limit = max(1, interaction.filesize_limit - UPLOAD_MARGIN)
    names = drawn_names(info)  # drawn on the frames, not Markdown
    try:
        animation = await services.drawing.replay(
            record.game_id,
            len(record.seats),
            record.seed,
            record.options,
            [(r.seat, r.key) for r in rows],
            names,
            limit,
        )
    except ExportError:
        await interaction.followup.send(
            f"Game #{record.id} cannot be replayed: its moves no longer follow today's rules of "
            f"{info.title} (they changed since it was played)."
        )
        return
    if animation.frames == animation.turns:
        shown = f"All {animation.turns} turns, one a second." if animation.turns > 1 else "The deal."
    elif animation.frames > 1:
        shown = f"{animation.frames} of its {animation.turns} turns, evenly spread, one a second."
    else:
        shown = f"The last position (its {animation.turns} turns would not fit in this server's uploads)."
    embed = discord.Embed(
        title=f"{info.title} game #{record.id} — replay",
        description=f"{where_it_stands(info, len(rows))}\n{shown}",
        color=0x8B5CF6,
    )
    if not animation.fits:  # not even a thumbnail of the last position fits: say so rather than fail
        embed.description = (
            f"{where_it_stands(info, len(rows))}\nThe replay does not fit in this server's uploads."
        )
        await interaction.followup.send(embed=embed)
        return
    embed.set_image(url=f"attachment://{animation.filename}")
    try:  # the alt text words the last frame: the spectator's view where the game stands
        last = await services.sessions.view_for(record.id, None)
        alt = describe.replay_alt(of(get_game(record.game_id)), info.title, last, names, animation.frames)
    except SessionError:
        alt = f"{info.title} game #{record.id}, replayed"
    file = discord.File(io.BytesIO(animation.data), animation.filename, description=alt)
    await interaction.followup.send(embed=embed, file=file, allowed_mentions=discord.AllowedMentions.none())


async def export(services: Services, interaction: discord.Interaction, match_id: int | None) -> None:
    """/game export [id]: a game that is over as a JSON file (ephemeral), with how to play it back."""
    record = await stored_match(services, interaction, match_id, "export")
    exported = await match_export(services.sessions, record, drawn_names, MEANWHILE)
    await interaction.response.defer(ephemeral=True, thinking=True)
    data = to_text(exported).encode()
    name = export_filename(exported)
    if len(data) > interaction.filesize_limit - UPLOAD_MARGIN:
        await interaction.followup.send(
            f"Game #{record.id}'s export is {len(data) // 1024} KB, more than this server's uploads allow.",
            ephemeral=True,
        )
        return
    await interaction.followup.send(
        f"📦 **{exported.title}** game #{record.id}: the seed, the options and all "
        f"{len(exported.log)} moves. Play it back in a terminal with `agora replay {name}` (Agora's "
        "command line); the format is described in docs/export.md.",
        file=discord.File(io.BytesIO(data), name, description=f"{exported.title} game #{record.id}"),
        ephemeral=True,
    )
