"""What a tournament says: its message in its channel (the sign-up with Join and Leave, then where it stands),
a round's tables, and its standings as image rows and as words. Nothing here moves a tournament on
(bot/discord/rounds.py does); the sign-up buttons only add or take off the presser.

The Join and Leave buttons (`ag:tjoin:<id>`, `ag:tleave:<id>`) work only on the tournament's own server and
in its own channel, while sign-up is open (a press forged for another server or channel, or a stale one, gets
a short reason)."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

import discord

from bot import tournament
from bot.discord.common import Rebuilt, StaticView, jump_link, shown
from bot.discord.services import NOT_IN_A_DM, OTHER_SERVER, Services, guard, services_of
from bot.ratings import CASUAL, TABLE
from bot.sessions import SessionError
from bot.sessions.packs import PACK
from bot.store import (
    CANCELLED,
    DONE,
    PAUSED,
    RUNNING,
    SIGNUP,
    EntrantRecord,
    TableRecord,
    TournamentRecord,
)
from engine.registry import title_of

FORMAT_WORDS = {
    tournament.SWISS: "Swiss",
    tournament.ROUND_ROBIN: "Round robin",
    tournament.KNOCKOUT: "Knockout",
}
ADJUDICATION_WORDS = {
    "draw": "a draw",
    "ai": "the hard AI's evaluation (the likelier winner wins)",
}
STATUS_WORDS = {
    SIGNUP: "Sign-up open",
    RUNNING: "Running",
    PAUSED: "Paused by a manager",
    DONE: "Finished",
    CANCELLED: "Cancelled",
}
LISTED = 40  # players named on the message (more: "and N more")
# The tiebreaks' short names on the standings image, said in full in its subtitle (a legend).
SHORT = {
    "Buchholz": "BH",
    "Sonneborn-Berger": "SB",
    "Opponents' average": "OA",
    "Shares × opponents' average": "SOA",
    "Round reached": "Round",
}
COLOUR = discord.Colour.gold()


def days(seconds: float) -> str:
    """A round's length in words."""
    d = seconds / 86400
    return f"{d:g} day" + ("" if d == 1 else "s")


def table_kind(t: TournamentRecord) -> str:
    """Whether its games are ranked or casual, in words."""
    return "casual (not rated)" if t.options.get(TABLE) == CASUAL else "ranked (rated)"


def player_line(e: EntrantRecord) -> str:
    """A player as the message lists them (never pinged: mentions are off on these messages)."""
    who = f"<@{e.user_id}>" if e.user_id is not None else f"🤖 {shown(e.name)}"
    return who + (f" (dropped before round {e.dropped})" if e.dropped is not None else "")


def tournament_embed(t: TournamentRecord, entrants: Sequence[EntrantRecord]) -> discord.Embed:
    """The tournament's message: what it is, its state, its players."""
    lines = [
        f"**{title_of(t.game_id)}** · {FORMAT_WORDS.get(t.format, t.format)} · {t.seats} per table · "
        f"{t.rounds} round{'s' if t.rounds != 1 else ''} of {days(t.round_seconds)}",
        f"Games: {table_kind(t)}, bank clock (running out of time loses the game)"
        + (f", card pack **{shown(str(t.options[PACK]))}**" if t.options.get(PACK) else ""),
        f"An unfinished game at a round's end: {ADJUDICATION_WORDS.get(t.adjudication, t.adjudication)}.",
        f"Run by <@{t.created_by}>.",
        "",
    ]
    if t.status == SIGNUP:
        lines.append(
            f"**Starts <t:{int(t.starts_at)}:R>** (<t:{int(t.starts_at)}:f>): press **Join** to play."
        )
    elif t.status in (RUNNING, PAUSED) and t.round:
        lines.append(f"**{round_state(t)}.** `/tournament standings id:{t.id}`")
    else:
        lines.append(f"**{STATUS_WORDS.get(t.status, t.status)}.**" + (f" {shown(t.note)}" if t.note else ""))
    lines.append(f"\n**Players ({len(entrants)}):**")
    lines += [f"{i}. {player_line(e)}" for i, e in enumerate(entrants[:LISTED], start=1)]
    if len(entrants) > LISTED:
        lines.append(f"… and {len(entrants) - LISTED} more")
    if not entrants:
        lines.append("Nobody yet.")
    embed = discord.Embed(title=f"🏆 {shown(t.name)} (#{t.id})"[:256], colour=COLOUR)
    embed.description = "\n".join(lines)[:4096]
    return embed


def round_state(t: TournamentRecord) -> str:
    """A running or paused tournament's round in words: "Running: round 2 of 4, ends <t:…:R>"."""
    ends = f", ends <t:{int(t.round_ends)}:R>" if t.round_ends and t.status == RUNNING else ""
    return f"{STATUS_WORDS[t.status]}: round {t.round} of {t.rounds}{ends}"


def tournament_message(t: TournamentRecord, entrants: Sequence[EntrantRecord]) -> dict[str, Any]:
    """The message's content: its embed, and Join/Leave while sign-up is open."""
    view = StaticView()
    if t.status == SIGNUP:
        view.add_item(JoinButton(t.id).item)
        view.add_item(LeaveButton(t.id).item)
    return {"embed": tournament_embed(t, entrants), "view": view}


async def redraw_message(services: Services, tournament_id: int) -> None:
    """Redraw a tournament's message where it is (a failure is logged by discord.py: nobody waits on it)."""
    t = await services.store.tournament(tournament_id)
    if t is None or t.message_id is None:
        return
    channel = await services.channel(t.channel_id)
    if channel is None:
        return
    entrants = await services.store.entrants(t.id)
    # the message was deleted, or the channel cannot hold one: the commands still answer
    with contextlib.suppress(discord.HTTPException, AttributeError):
        await channel.get_partial_message(t.message_id).edit(**tournament_message(t, entrants))


def round_text(t: TournamentRecord, tables: Sequence[TableRecord], entrants: Sequence[EntrantRecord]) -> str:
    """A round's announcement: its tables with their threads, its byes and its end."""
    names = {e.player: e for e in entrants}

    def who(key: str) -> str:
        e = names.get(key)
        return player_line(e).split(" (dropped")[0] if e is not None else shown(key)

    ends = f" — its games end <t:{int(t.round_ends)}:R> (<t:{int(t.round_ends)}:f>)" if t.round_ends else ""
    lines = [f"🏆 **{shown(t.name)}: round {t.round} of {t.rounds}**{ends}"]
    for table in tables:
        players = " v ".join(who(p) for p in table.players)
        if len(table.players) == 1:
            lines.append(f"• {players}: a bye ({tournament.BYE_POINTS:g} point)")
        elif table.thread_id is not None:
            lines.append(f"• Table {table.table_no}: {players} — {jump_link(t.guild_id, table.thread_id)}")
        else:
            lines.append(f"• Table {table.table_no}: {players} (its thread comes soon)")
    return "\n".join(lines)


def standings_rows(
    t: TournamentRecord, table: Sequence[tournament.Standing], names: dict[str, str]
) -> tuple[list[str], list[list[str]]]:
    """The standings as the image's columns and rows (names as written: the image draws text, no Markdown;
    tiebreaks by their short names, see legend)."""
    tiebreaks = [SHORT.get(n, n) for n in tournament.tiebreak_names(t.format, t.seats)]
    columns = ["#", "Player", "Points", *tiebreaks, "Games", "Wins"]
    rows = []
    for s in table:
        name = names.get(s.key, s.key) + (" (out)" if s.dropped is not None or not s.alive else "")
        rows.append(
            [str(s.rank), name, f"{s.points:g}", *(f"{x:g}" for x in s.tiebreaks), str(s.played), str(s.wins)]
        )
    return columns, rows


def legend(t: TournamentRecord) -> str:
    """What the image's short tiebreak names stand for ("BH Buchholz · SB Sonneborn-Berger")."""
    return " · ".join(
        f"{SHORT.get(n, n)} {n}" for n in tournament.tiebreak_names(t.format, t.seats) if n in SHORT
    )


def standings_words(
    t: TournamentRecord, table: Sequence[tournament.Standing], names: dict[str, str], *, final: bool
) -> str:
    """The standings in words (the first 20; the image holds more)."""
    tiebreaks = tournament.tiebreak_names(t.format, t.seats)
    head = "🏁 **Final standings**" if final else "📊 **Standings**"
    lines = [head + (f" (ties broken by {', then '.join(tiebreaks)})" if tiebreaks else "")]
    for s in table[:20]:
        medal = {1: "🥇", 2: "🥈", 3: "🥉"}.get(s.rank, f"{s.rank}.") if final else f"{s.rank}."
        extra = ", ".join(f"{n} {v:g}" for n, v in zip(tiebreaks, s.tiebreaks, strict=False))
        out = " — out" if s.dropped is not None or not s.alive else ""
        extra = f" ({extra})" if extra else ""
        lines.append(f"{medal} {shown(names.get(s.key, s.key))}: **{s.points:g}**{extra}{out}")
    if len(table) > 20:
        lines.append(f"… and {len(table) - 20} more in the image")
    return "\n".join(lines)


# --- the sign-up buttons -----------------------------------------------------------------------------------
async def signup_here(interaction: discord.Interaction, tournament_id: int) -> TournamentRecord:
    """The tournament a sign-up button names, if it is this server's and this channel's; refused politely
    otherwise (a custom_id proves nothing about where it was shown)."""
    if interaction.guild_id is None:
        raise SessionError(NOT_IN_A_DM)
    t = await services_of(interaction).store.tournament(tournament_id)
    if t is None or t.guild_id != interaction.guild_id:
        raise SessionError(OTHER_SERVER if t is not None else "That tournament no longer exists.")
    if t.channel_id != interaction.channel_id:
        raise SessionError(f"That button belongs to a tournament in <#{t.channel_id}>; press it there.")
    if t.status != SIGNUP:
        raise SessionError(
            f"Sign-up for **{shown(t.name)}** is closed ({STATUS_WORDS.get(t.status, t.status)})."
        )
    return t


async def _show_signup(interaction: discord.Interaction, t: TournamentRecord, said: str) -> None:
    services = services_of(interaction)
    fresh = await services.store.tournament(t.id) or t
    message = tournament_message(fresh, await services.store.entrants(t.id))
    await interaction.response.edit_message(**message)
    await interaction.followup.send(said, ephemeral=True)


class JoinButton(Rebuilt, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ag:tjoin:(?P<tid>\d+)"):
    """Sign-up's Join: the presser becomes a player of the tournament."""

    def __init__(self, tid: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Join", emoji="✋", style=discord.ButtonStyle.success, custom_id=f"ag:tjoin:{tid}"
            )
        )
        self.tid = tid

    async def callback(self, interaction: discord.Interaction) -> None:
        """Join, and redraw the sign-up."""

        async def work() -> None:
            t = await signup_here(interaction, self.tid)
            user = interaction.user
            entrant = EntrantRecord(
                str(user.id), user.id, None, user.display_name, interaction.created_at.timestamp()
            )
            if not await services_of(interaction).store.add_entrant(t.id, entrant):
                raise SessionError(f"You are already signed up for **{shown(t.name)}**.")
            await _show_signup(
                interaction, t, f"✅ You are in **{shown(t.name)}**; it starts <t:{int(t.starts_at)}:R>."
            )

        await guard(interaction, None, work)


class LeaveButton(
    Rebuilt, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ag:tleave:(?P<tid>\d+)"
):
    """Sign-up's Leave: the presser is taken off the list."""

    def __init__(self, tid: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Leave", style=discord.ButtonStyle.secondary, custom_id=f"ag:tleave:{tid}"
            )
        )
        self.tid = tid

    async def callback(self, interaction: discord.Interaction) -> None:
        """Leave, and redraw the sign-up."""

        async def work() -> None:
            t = await signup_here(interaction, self.tid)
            if not await services_of(interaction).store.remove_entrant(t.id, str(interaction.user.id)):
                raise SessionError(f"You are not signed up for **{shown(t.name)}**.")
            await _show_signup(interaction, t, f"👋 You left **{shown(t.name)}**.")

        await guard(interaction, None, work)
