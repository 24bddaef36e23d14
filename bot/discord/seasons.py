"""Seasons of leaderboards (/config season_weeks): a server's leaderboards per season beside the all-time one,
and at a season's end its final standings posted, one message a game (an image and its words).

Ratings carry across seasons (nothing is reset): a season's board ranks each player by their rating after
their last rated game in the season, with their games and wins in it. Each season's row is written when it
starts (the store's `seasons`), so past seasons stay listable whatever the setting becomes. At each timer
check (`Seasons.tick`) the seasons whose end has passed are posted once across processes (a claim per
season, only the guild's own shards), marked posted, and the next one opened from the old end.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence
from datetime import UTC, datetime

import discord
from discord import app_commands

from bot.discord.common import channel_of
from bot.discord.settings import Settings
from bot.discord.standings import RATING_WORDS, board_embed, leaderboard_embed, ranked_lines
from bot.ratings import ALL_SERVERS, MIN_GAMES, person_of, shown
from bot.sessions import SessionError, SessionManager
from bot.store import RatingRow, Store, StoreUnavailable
from bot.store.base import DiskFull, SeasonRecord
from engine.registry import title_of
from render.standings import standings_alt, standings_image

log = logging.getLogger(__name__)

WEEK = 7 * 86400.0
MAX_WEEKS = 52
# A season asks fewer rated games than the all-time board (MIN_GAMES): the rating it shows is carried from
# before the season, so it is not a newcomer's luck; three games in it show the player took part.
SEASON_GAMES = 3
POSTED_TOP = 10  # players named in a final standings' words
IMAGE_ROWS = 40
CURRENT, ALL_TIME = "current", "all-time"
ALL_SERVERS_HAS_NO_SEASONS = "Seasons are per server: the board of all servers is all-time only."


def running(seasons: Sequence[SeasonRecord]) -> SeasonRecord | None:
    """The season running (not posted yet), if any."""
    return next((s for s in reversed(seasons) if s.posted_at is None), None)


async def configure(store: Store, guild_id: int, weeks: int, now: float) -> str:
    """After /config season_weeks: start a season (none running), move the running one's end to its start
    plus the new length (past: it ends at the next check), or (0) end it at the next check; what changed."""
    season = running(await store.seasons(guild_id))
    if weeks > 0 and season is None:
        started = await store.start_season(guild_id, now, now + weeks * WEEK)
        if started is None:
            return ""
        return f"🏁 Season {started.number} starts now and ends <t:{int(started.ends_at)}:R>."
    if season is None:
        return ""
    ends = season.starts_at + weeks * WEEK if weeks > 0 else now
    await store.set_season_end(guild_id, season.number, ends)
    if ends <= now:
        return f"🏁 Season {season.number} ends now: its final standings are posted shortly."
    return f"🏁 Season {season.number} now ends <t:{int(ends)}:R>."


def _date(when: float) -> str:
    return datetime.fromtimestamp(when, UTC).strftime("%d %b %Y")


async def season_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """/leaderboard season: autocomplete: current, all-time, then the server's seasons, the latest first."""
    choices = [app_commands.Choice(name="Current season", value=CURRENT)]
    choices.append(app_commands.Choice(name="All-time", value=ALL_TIME))
    store = getattr(getattr(interaction.client, "services", None), "store", None)
    if interaction.guild_id is not None and isinstance(store, Store):
        for s in reversed(await store.seasons(interaction.guild_id)):
            when = f"ended {_date(s.ends_at)}" if s.posted_at is not None else f"ends {_date(s.ends_at)}"
            choices.append(app_commands.Choice(name=f"Season {s.number} ({when})", value=str(s.number)))
    typed = current.strip().lower()
    return [c for c in choices if typed in c.name.lower() or typed == c.value][:25]


async def leaderboard_embeds(
    store: Store, game_id: str, scope: int, season: str | None
) -> list[discord.Embed]:
    """/leaderboard's answer: with seasons, the current season's board and the all-time one beside it; a
    past season's board by number; the all-time board without seasons (or asked for). SessionError for a
    season the server never had."""
    wanted = (season or "").strip().lower()
    if scope == ALL_SERVERS:
        if wanted not in ("", ALL_TIME):
            raise SessionError(ALL_SERVERS_HAS_NO_SEASONS)
        return [await leaderboard_embed(store, game_id, scope)]
    if wanted == ALL_TIME:
        return [await leaderboard_embed(store, game_id, scope)]
    seasons = await store.seasons(scope)
    now_running = running(seasons)
    if wanted in ("", CURRENT):
        if now_running is None:
            if wanted == CURRENT:
                raise SessionError("This server has no season running (`/config season_weeks:` starts them).")
            return [await leaderboard_embed(store, game_id, scope)]
        return [
            await season_embed(store, game_id, now_running),
            await leaderboard_embed(store, game_id, scope),
        ]
    number = wanted.removeprefix("season").strip()
    found = next((s for s in seasons if number.isdigit() and s.number == int(number)), None)
    if found is None:
        listed = ", ".join(str(s.number) for s in seasons) or "none yet"
        raise SessionError(f"This server has no season {season!r}; its seasons: {listed}.")
    return [await season_embed(store, game_id, found)]


async def season_embed(store: Store, game_id: str, season: SeasonRecord) -> discord.Embed:
    """A season's board of a game on its server."""
    rows = await store.season_ratings(season.guild_id, game_id, season.starts_at, season.ends_at)
    span = f"<t:{int(season.starts_at)}:D> to <t:{int(season.ends_at)}:D>"
    ended = season.posted_at is not None
    intro = f"Season {season.number}, {span}" + (
        " (ended)" if ended else f", ends <t:{int(season.ends_at)}:R>"
    )
    return board_embed(
        f"Season {season.number} — {title_of(game_id)}",
        intro,
        rows,
        SEASON_GAMES,
        f"This server, this season · ranked by rating after the season's last game ({RATING_WORDS}) · "
        f"listed after {SEASON_GAMES} rated games in the season (all-time: {MIN_GAMES})",
    )


class Seasons:
    """The seasons' ends, checked by the timers (`tick` is one of `Timers.also`)."""

    def __init__(self, client: discord.Client, sessions: SessionManager, settings: Settings) -> None:
        self.client, self.sessions, self.settings = client, sessions, settings
        self.store = sessions.store
        self._lock = asyncio.Lock()  # two checks at once in one process post a season once

    async def tick(self, now: float) -> int:
        """Post the final standings of every season of our servers whose end has passed (once across
        processes), mark each posted and open the next; how many were posted."""
        async with self._lock:
            done = 0
            for season in await self.store.due_seasons(now, shards=self.sessions.shards):
                if not await self.sessions.claim(f"season:{season.guild_id}:{season.number}"):
                    continue  # another process posts it
                again = {s.number: s for s in await self.store.seasons(season.guild_id)}.get(season.number)
                if again is None or again.posted_at is not None:
                    continue  # posted meanwhile
                settings = await self.settings.of(season.guild_id)
                await self.post(again, settings.season_channel)
                weeks = settings.season_weeks
                next_ends = again.ends_at + weeks * WEEK if weeks else None
                done += await self.store.season_posted(season.guild_id, season.number, now, next_ends)
            return done

    async def post(self, season: SeasonRecord, channel_id: int | None) -> int:
        """One message per game with rated games in the season: its final standings as an image and in
        words; how many were sent. A channel gone or closed to us is logged (nobody waits on it)."""
        channel = None if channel_id is None else await channel_of(self.client, channel_id)
        if channel is None:
            log.warning(
                "season %s of %s: no channel to post in (%s)", season.number, season.guild_id, channel_id
            )
            return 0
        sent = 0
        for game_id in await self.store.season_games(season.guild_id, season.starts_at, season.ends_at):
            rows = await self.store.season_ratings(season.guild_id, game_id, season.starts_at, season.ends_at)
            text, file = await self._message(season, game_id, rows)
            try:
                await channel.send(text, file=file, allowed_mentions=discord.AllowedMentions.none())
            except (StoreUnavailable, DiskFull):
                raise
            except discord.HTTPException as e:
                log.warning(
                    "season %s of %s: could not post %s: %s", season.number, season.guild_id, game_id, e
                )
                continue
            sent += 1
        return sent

    async def _message(
        self, season: SeasonRecord, game_id: str, rows: list[RatingRow]
    ) -> tuple[str, discord.File]:
        """A game's final standings: the words (the top POSTED_TOP ranked, mentions that never ping) and the
        image with its alt text (ranked players numbered, those still getting there after them)."""
        ranked = [r for r in rows if r.rating.games >= SEASON_GAMES]
        coming = [r for r in rows if r.rating.games < SEASON_GAMES]
        title = f"{title_of(game_id)} — Season {season.number} final standings"
        span = f"{_date(season.starts_at)} to {_date(season.ends_at)}"
        subtitle = f"{span} · ranked after {SEASON_GAMES} rated games in the season"
        lines = [f"🏁 **{title}** (<t:{int(season.starts_at)}:D> to <t:{int(season.ends_at)}:D>)"]
        lines += ranked_lines(ranked[:POSTED_TOP]) or [
            f"Nobody played {SEASON_GAMES} rated games this season."
        ]
        if len(ranked) > POSTED_TOP:
            lines.append(f"…and {len(ranked) - POSTED_TOP} more in the picture.")
        if coming:
            lines.append(f"Not ranked yet (fewer than {SEASON_GAMES} rated games): {len(coming)}")
        columns = ["#", "Player", "Rating", "Games", "Wins"]
        table = [
            [str(i) if i else "–", await self._name(season.guild_id, r.player), shown(r.rating.ordinal),
             str(r.rating.games), str(r.rating.wins)]
            for i, r in [*((k, r) for k, r in enumerate(ranked, 1)), *((0, r) for r in coming)]
        ]  # fmt: skip
        theme = (await self.settings.of(season.guild_id)).theme
        png = await asyncio.to_thread(
            standings_image, title, subtitle, columns, table, theme, min(3, len(ranked))
        )
        alt = standings_alt(title, subtitle, columns, table)
        return "\n".join(lines)[:2000], discord.File(io.BytesIO(png), "standings.png", description=alt)

    async def _name(self, guild_id: int, player: str) -> str:
        """A player as the picture names them: a person's name on the server, an AI level as "AI · hard"."""
        person = person_of(player)
        if person is None:
            return f"AI · {player.split(':', 1)[-1]}"
        guild = self.client.get_guild(guild_id)
        member = guild.get_member(person) if guild is not None else None
        user = member or self.client.get_user(person)
        if user is None:
            try:
                user = await self.client.fetch_user(person)
            except discord.HTTPException:
                return "someone who left"
        return str(user.display_name)  # drawn as text, cleaned by the picture
