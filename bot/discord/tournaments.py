"""/tournament: tournaments of async games on a server (bot/discord/rounds.py runs them; tournament_words.py
says them).

- `create` (Manage Server, or the Manage Events permission) opens the sign-up message in this channel:
  the game, format (Swiss, round robin, knockout), rounds, days per round, players per table, a card pack,
  ranked or casual (the server's default), how an unfinished game is adjudicated at a round's end (a draw,
  or the hard AI's evaluation), and when it starts (default in 24 hours); people press Join or Leave.
- `list`, `show`, `standings` for anyone; `leave` drops the person out (a running game of theirs is lost).
- Its manager (whoever created it, or anyone with Manage Server) may `start` it now, `pause` and `resume` it,
  `add_ai` entrants (AI players of a level: to fill a field, or to try one out), `remove` a player, `record` a
  table's result (a running game ends with it; a decided one is corrected), or `cancel` it.
"""

from __future__ import annotations

import contextlib
from typing import Any

import discord
from discord import app_commands

from bot import tournament
from bot.ai import LEVELS
from bot.discord.common import check_range, plain_text, reply, shown
from bot.discord.decks import game_names
from bot.discord.packs import pack_choices
from bot.discord.rounds import RECORDED, Rounds
from bot.discord.services import Services, guarded, services_of
from bot.discord.tournament_words import (
    ADJUDICATION_WORDS,
    FORMAT_WORDS,
    STATUS_WORDS,
    redraw_message,
    round_state,
    round_text,
    tournament_embed,
    tournament_message,
)
from bot.ratings import CASUAL, RANKED, TABLE
from bot.sessions import SessionError
from bot.sessions.packs import PACK, pack_option
from bot.store import (
    ACTIVE,
    CANCELLED,
    FINISHED,
    PAUSED,
    RUNNING,
    SIGNUP,
    TOURNAMENT_LIVE,
    EntrantRecord,
    NewTournament,
    TableKey,
    TournamentRecord,
)
from engine.registry import games, title_of

MAX_ROUNDS = 20
MAX_DAYS = 30
MAX_START_HOURS = 24 * 30
MAX_PLAYERS = 256
MAX_AI = 32  # AI entrants added at once
NAME_MAX = 80
TournamentId = app_commands.Range[int, 1, 2**53 - 1]  # a tournament's number (Discord's largest integer)
NOT_MANAGER = "Only the tournament's creator or a member with Manage Server can do that."


def is_manager(interaction: discord.Interaction, t: TournamentRecord) -> bool:
    """Whether the person may manage this tournament: its creator, or a member with Manage Server."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return interaction.user.id == t.created_by or bool(perms and perms.manage_guild)


async def tournament_here(interaction: discord.Interaction, tournament_id: int) -> TournamentRecord:
    """A tournament of this server by id; refused politely otherwise."""
    t = await services_of(interaction).store.tournament(tournament_id)
    if t is None or t.guild_id != interaction.guild_id:
        raise SessionError(f"This server has no tournament #{tournament_id}; `/tournament list` shows them.")
    return t


async def managed(interaction: discord.Interaction, tournament_id: int) -> TournamentRecord:
    """A tournament of this server that the person manages; refused politely otherwise."""
    t = await tournament_here(interaction, tournament_id)
    if not is_manager(interaction, t):
        raise SessionError(NOT_MANAGER)
    return t


async def tournament_ids(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    """This server's tournaments, the live ones first, by number or name."""
    if interaction.guild_id is None:
        return []
    store = services_of(interaction).store
    found = await store.tournaments(interaction.guild_id, live=True) + await store.tournaments(
        interaction.guild_id, live=False, limit=10
    )
    q = current.strip().casefold()
    return [
        app_commands.Choice(
            name=f"#{t.id} {t.name} · {STATUS_WORDS.get(t.status, t.status)}"[:100], value=t.id
        )
        for t in found
        if q in f"#{t.id} {t.name}".casefold()
    ][:25]


async def standings_reply(interaction: discord.Interaction, t: TournamentRecord, *, ephemeral: bool) -> None:
    """The standings after the rounds decided so far, as an image with alt text and in words."""
    tables = await services_of(interaction).store.tables(t.id)
    done = 0
    while any(x.round == done + 1 for x in tables) and all(
        x.points is not None for x in tables if x.round == done + 1
    ):
        done += 1
    text, file = await Rounds(services_of(interaction)).standings(t, done, final=t.status == FINISHED)
    await interaction.response.send_message(
        text[:2000], file=file, ephemeral=ephemeral, allowed_mentions=discord.AllowedMentions.none()
    )


class TournamentCommands(
    app_commands.Group,
    name="tournament",
    description="Tournaments of async games on this server",
    guild_only=True,
):
    """/tournament create, list, show, standings, leave; and its manager's start, pause, resume, add_ai,
    remove, record and cancel."""

    def __init__(self, services: Services) -> None:
        super().__init__()
        self.services = services

    @app_commands.command(name="create", description="Open a tournament's sign-up in this channel")
    @app_commands.describe(
        game="Which game",
        format="Swiss (by score), round robin (everyone meets), or knockout",
        rounds="How many rounds (Swiss; round robin and knockout count their own)",
        days_per_round="Days each round's games have before they are adjudicated",
        seats="Players per table",
        pack="One of this server's card packs for the game",
        ranked="Whether its games move ratings (default: the server's tables)",
        adjudication="How a game still running at a round's end is decided",
        starts_in_hours="When sign-up closes and round 1 begins (default: 24 hours)",
        name="The tournament's name",
    )
    @app_commands.choices(
        format=[app_commands.Choice(name=w, value=k) for k, w in FORMAT_WORDS.items()],
        adjudication=[app_commands.Choice(name=w[:100], value=k) for k, w in ADJUDICATION_WORDS.items()],
    )
    @app_commands.autocomplete(game=game_names, pack=pack_choices)
    @guarded
    async def create(
        self,
        interaction: discord.Interaction,
        game: str,
        format: str,
        rounds: app_commands.Range[int, 1, MAX_ROUNDS],
        days_per_round: app_commands.Range[int, 1, MAX_DAYS],
        seats: app_commands.Range[int, 2, 25] = 2,
        pack: app_commands.Range[str, 1, 100] | None = None,
        ranked: bool | None = None,
        adjudication: str = "draw",
        starts_in_hours: app_commands.Range[int, 0, MAX_START_HOURS] = 24,
        name: app_commands.Range[str, 1, NAME_MAX] | None = None,
    ) -> None:
        """/tournament create: checked whole before anything is made."""
        services, guild = self.services, interaction.guild_id
        perms = getattr(interaction.user, "guild_permissions", None)
        if guild is None or not (perms and (perms.manage_guild or perms.manage_events)):
            raise SessionError("Only members with Manage Server or Manage Events can create a tournament.")
        found = games().get(game)
        if found is None:
            raise SessionError(f"There is no game called {game!r}.")
        if format not in tournament.FORMATS:
            raise SessionError("The format is swiss, round_robin or knockout.")
        if adjudication not in ADJUDICATION_WORDS:
            raise SessionError("An unfinished game is adjudicated as a draw or by the AI's evaluation.")
        if not found.min_players <= seats <= found.max_players:
            raise SessionError(
                f"{found.title} is for {found.min_players} to {found.max_players} players a table."
            )
        check_range("rounds", rounds, 1, MAX_ROUNDS)
        check_range("days_per_round", days_per_round, 1, MAX_DAYS)
        check_range("starts_in_hours", starts_in_hours, 0, MAX_START_HOURS)
        if not isinstance(interaction.channel, discord.TextChannel):
            raise SessionError(
                "Create a tournament in a text channel: each of its games gets a thread there."
            )
        title = _checked_name(name or f"{found.title} {FORMAT_WORDS[format]}")
        if ranked is None:
            ranked = (await services.settings.of(guild)).tables != CASUAL
        options: dict[str, Any] = {TABLE: RANKED if ranked else CASUAL}
        if pack is not None and pack.strip():
            options[PACK] = await pack_option(services.store, guild, game, pack)
        now = services.sessions.clock()
        new = NewTournament(
            guild, interaction.channel.id, game, title, format, rounds, days_per_round * 86400.0, seats,
            options, adjudication, now + starts_in_hours * 3600.0, interaction.user.id, now,
        )  # fmt: skip
        t = await services.store.create_tournament(new)
        await interaction.response.send_message(
            **tournament_message(t, []), allowed_mentions=discord.AllowedMentions.none()
        )
        sent = await interaction.original_response()
        await services.store.update_tournament(t.id, now, message_id=sent.id)

    @app_commands.command(name="list", description="This server's tournaments")
    @guarded
    async def list(self, interaction: discord.Interaction) -> None:
        """/tournament list: the live ones, then the last finished."""
        store, guild = self.services.store, interaction.guild_id or 0
        live = await store.tournaments(guild, live=True)
        past = await store.tournaments(guild, live=False, limit=10)
        if not live and not past:
            raise SessionError("This server has no tournaments yet; `/tournament create` opens one.")
        lines = [
            f"**#{t.id} {shown(t.name)}** — {title_of(t.game_id)}, {FORMAT_WORDS.get(t.format, t.format)} · "
            f"{_state(t)}"
            for t in [*live, *past]
        ]
        await reply(interaction, "\n".join(lines)[:2000])

    @app_commands.command(
        name="show", description="A tournament: its players, its state and its current round"
    )
    @app_commands.describe(id="Which tournament")
    @app_commands.autocomplete(id=tournament_ids)
    @guarded
    async def show(self, interaction: discord.Interaction, id: TournamentId) -> None:
        """/tournament show."""
        t = await tournament_here(interaction, id)
        store = self.services.store
        entrants = await store.entrants(t.id)
        text = round_text(t, await store.tables(t.id, t.round), entrants) if t.round else None
        await reply(interaction, text, embed=tournament_embed(t, entrants))

    @app_commands.command(name="standings", description="A tournament's standings, as an image and in words")
    @app_commands.describe(id="Which tournament")
    @app_commands.autocomplete(id=tournament_ids)
    @guarded
    async def standings(self, interaction: discord.Interaction, id: TournamentId) -> None:
        """/tournament standings."""
        await standings_reply(interaction, await tournament_here(interaction, id), ephemeral=True)

    @app_commands.command(
        name="leave", description="Drop out of a tournament (a game of yours still running is lost)"
    )
    @app_commands.describe(id="Which tournament")
    @app_commands.autocomplete(id=tournament_ids)
    @guarded
    async def leave(self, interaction: discord.Interaction, id: TournamentId) -> None:
        """/tournament leave: off the list during sign-up; later, out from the next round, forfeiting a game
        still running."""
        t = await tournament_here(interaction, id)
        await reply(interaction, await self._drop(t, str(interaction.user.id), interaction.user.id, you=True))

    # --- the manager's ----------------------------------------------------------------------------------
    @app_commands.command(name="start", description="Manager: start a tournament now (sign-up closes)")
    @app_commands.describe(id="Which tournament")
    @app_commands.autocomplete(id=tournament_ids)
    @guarded
    async def start(self, interaction: discord.Interaction, id: TournamentId) -> None:
        """/tournament start: its start time becomes now, and it moves on at once."""
        t = await managed(interaction, id)
        if t.status != SIGNUP:
            raise SessionError("That tournament has already started.")
        now = self.services.sessions.clock()
        await self.services.store.update_tournament(t.id, now, starts_at=now)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await Rounds(self.services).step(t.id, now)
        after = await self.services.store.tournament(t.id) or t
        await reply(interaction, f"🏆 **{shown(t.name)}**: {_state(after)}.")

    @app_commands.command(
        name="pause", description="Manager: pause a tournament (games go on; no round ends)"
    )
    @app_commands.describe(id="Which tournament")
    @app_commands.autocomplete(id=tournament_ids)
    @guarded
    async def pause(self, interaction: discord.Interaction, id: TournamentId) -> None:
        """/tournament pause: no adjudication and no next round until it is resumed."""
        t = await managed(interaction, id)
        if t.status != RUNNING:
            raise SessionError("Only a running tournament can be paused.")
        now = self.services.sessions.clock()
        await self.services.store.update_tournament(t.id, now, status=PAUSED, paused_at=now)
        await self._told(interaction, t, f"⏸️ **{shown(t.name)}** is paused by <@{interaction.user.id}>.")

    @app_commands.command(name="resume", description="Manager: resume a paused tournament")
    @app_commands.describe(id="Which tournament")
    @app_commands.autocomplete(id=tournament_ids)
    @guarded
    async def resume(self, interaction: discord.Interaction, id: TournamentId) -> None:
        """/tournament resume: the round's end moves on by the time it was paused."""
        t = await managed(interaction, id)
        if t.status != PAUSED:
            raise SessionError("That tournament is not paused.")
        now = self.services.sessions.clock()
        ends = None if t.round_ends is None else t.round_ends + (now - (t.paused_at or now))
        await self.services.store.update_tournament(
            t.id, now, status=RUNNING, paused_at=None, round_ends=ends
        )
        when = f"; this round ends <t:{int(ends)}:R>" if ends else ""
        await self._told(interaction, t, f"▶️ **{shown(t.name)}** goes on{when}.")
        await Rounds(self.services).step(t.id, now)

    @app_commands.command(name="add_ai", description="Manager: add AI players during sign-up")
    @app_commands.describe(id="Which tournament", level="The AI's level", count="How many")
    @app_commands.autocomplete(id=tournament_ids)
    @app_commands.choices(level=[app_commands.Choice(name=lv, value=lv) for lv in LEVELS])
    @guarded
    async def add_ai(
        self, interaction: discord.Interaction, id: TournamentId, level: str = "easy",
        count: app_commands.Range[int, 1, MAX_AI] = 1,
    ) -> None:  # fmt: skip
        """/tournament add_ai: AI entrants ("Hard AI 3"), each a player of its own."""
        t = await managed(interaction, id)
        if level not in LEVELS or not 1 <= count <= MAX_AI:
            raise SessionError(f"The levels are {', '.join(LEVELS)}; at most {MAX_AI} at once.")
        store, now = self.services.store, self.services.sessions.clock()
        entrants = await store.entrants(t.id)
        if len(entrants) + count > MAX_PLAYERS:
            raise SessionError(f"A tournament has at most {MAX_PLAYERS} players.")
        taken = {e.player for e in entrants}
        added, n = 0, 0
        while added < count:
            n += 1
            key = f"ai:{level}:{n}"
            if key in taken:
                continue
            if not await store.add_entrant(
                t.id, EntrantRecord(key, None, level, f"{level.title()} AI {n}", now)
            ):
                raise SessionError("Sign-up is closed: AI players join before the start.")
            added += 1
        await self._told(
            interaction,
            t,
            f"🤖 {added} {level} AI player{'s' if added != 1 else ''} joined **{shown(t.name)}**.",
        )

    @app_commands.command(
        name="remove", description="Manager: take a player out (a game of theirs still running is lost)"
    )
    @app_commands.describe(
        id="Which tournament", player="Who (a member)", ai="Or an AI player's number, e.g. easy:3"
    )
    @app_commands.autocomplete(id=tournament_ids)
    @guarded
    async def remove(
        self, interaction: discord.Interaction, id: TournamentId, player: discord.Member | None = None,
        ai: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:  # fmt: skip
        """/tournament remove."""
        t = await managed(interaction, id)
        if (player is None) == (ai is None):
            raise SessionError("Name one player: a member, or an AI player as `level:number`.")
        key = str(player.id) if player is not None else f"ai:{(ai or '').strip()}"
        said = await self._drop(t, key, player.id if player is not None else None, you=False)
        await self._told(interaction, t, said)

    @app_commands.command(name="record", description="Manager: record a table's result (ends its game)")
    @app_commands.describe(
        id="Which tournament", table="The table's number in the current round (see /tournament show)",
        winner="Who won (leave out for a draw)", round="Another round than the current one",
    )  # fmt: skip
    @app_commands.autocomplete(id=tournament_ids)
    @guarded
    async def record(
        self, interaction: discord.Interaction, id: TournamentId, table: app_commands.Range[int, 1, 1000],
        winner: discord.Member | None = None, round: app_commands.Range[int, 1, MAX_ROUNDS] | None = None,
    ) -> None:  # fmt: skip
        """/tournament record: the winner takes the win (none: a draw); a running game ends with it."""
        t = await managed(interaction, id)
        number = round or t.round
        found = [x for x in await self.services.store.tables(t.id, number) if x.table_no == table]
        if not found or len(found[0].players) < 2:
            raise SessionError(f"Round {number} has no table {table} with a game.")
        row = found[0]
        players = row.players
        if winner is not None and str(winner.id) not in players:
            raise SessionError(f"{winner.mention} does not play at table {table}.")
        shares = (
            tuple(1.0 if p == str(winner.id) else 0.0 for p in players)
            if winner is not None
            else tuple(1.0 / len(players) for _ in players)
        )
        said = f"won by {winner.mention}" if winner is not None else "a draw"
        if row.match_id is not None:
            info = await self.services.sessions.peek(row.match_id)
            if info.status == ACTIVE:
                await self.services.sessions.rule(
                    row.match_id, shares, f"Result recorded by a manager: {said}."
                )
        await self.services.store.set_points(TableKey(t.id, number, table), shares, RECORDED, again=True)
        await self._told(interaction, t, f"📝 **{shown(t.name)}**, round {number}, table {table}: {said}.")
        await Rounds(self.services).step(t.id)

    @app_commands.command(
        name="cancel", description="Manager: cancel a tournament (its games go on, unscored)"
    )
    @app_commands.describe(id="Which tournament")
    @app_commands.autocomplete(id=tournament_ids)
    @guarded
    async def cancel(self, interaction: discord.Interaction, id: TournamentId) -> None:
        """/tournament cancel."""
        t = await managed(interaction, id)
        now = self.services.sessions.clock()
        if not await self.services.store.finish_tournament(t.id, CANCELLED, "cancelled by a manager", now):
            raise SessionError("That tournament is already over.")
        await self._told(interaction, t, f"🛑 **{shown(t.name)}** is cancelled.")

    # --- shared ------------------------------------------------------------------------------------------
    async def _drop(self, t: TournamentRecord, key: str, user_id: int | None, *, you: bool) -> str:
        """Take a player out: off the list during sign-up; later out from the next round, their running game
        forfeited. The words speak to the player (`you`) or of them (to a manager)."""
        store = self.services.store
        who, whose = ("You", "your") if you else ("They", "their")
        if t.status not in TOURNAMENT_LIVE:
            raise SessionError("That tournament is over.")
        if t.status == SIGNUP:
            if not await store.remove_entrant(t.id, key):
                raise SessionError(f"{who} are not signed up for it.")
            return f"👋 {who} are off the list of **{shown(t.name)}**."
        if (out_from := await store.drop_entrant(t.id, key)) is None:
            raise SessionError(f"{who} are not in it (or dropped out already).")
        for row in await store.tables(t.id, out_from - 1):  # a game of theirs still going is lost
            if key in row.players and row.points is None and row.match_id is not None and user_id is not None:
                with contextlib.suppress(SessionError):  # it ended meanwhile
                    await self.services.sessions.forfeit(
                        row.match_id, user_id, "dropped out of the tournament"
                    )
        return (
            f"🚪 {who} are out of **{shown(t.name)}** from round {out_from} on; {whose} results so far count."
        )

    async def _told(self, interaction: discord.Interaction, t: TournamentRecord, text: str) -> None:
        """Answer the manager, say it in the tournament's channel, and redraw its message."""
        await reply(interaction, text)
        channel = await self.services.channel(t.channel_id)
        if channel is not None and channel.id != interaction.channel_id:
            with contextlib.suppress(discord.HTTPException):
                await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
        await redraw_message(self.services, t.id)


def _state(t: TournamentRecord) -> str:
    """Where a tournament stands, in a few words."""
    if t.status == SIGNUP:
        return f"Sign-up open, starts <t:{int(t.starts_at)}:R>"
    if t.status in (RUNNING, PAUSED):
        return round_state(t)
    return STATUS_WORDS.get(t.status, t.status)


def _checked_name(name: str) -> str:
    """A tournament's name as written, checked (no control or format characters)."""
    return plain_text("tournament's name", name, NAME_MAX)
