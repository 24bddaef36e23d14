"""Ratings in words for Discord (bot/ratings.py is the model): /stats, /leaderboard and the rating changes
a finished game's result shows. People are named by mention, AI levels as "AI · hard"."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.ratings import ALL_SERVERS, MIN_GAMES, TREND_GAMES, change_text, label, player_of, shown, trend_text
from bot.sessions import MatchInfo
from bot.store import RatingRow, Store
from engine.registry import games, title_of
from engine.table.present import plural

MESSAGE_MAX = 2000  # Discord: a message's content
FIELD_MAX = 1024  # Discord: an embed field's value
LEADERS = 15  # players ranked on a leaderboard
NEWCOMERS = 10  # players not ranked yet, named under it
RATING_WORDS = "a cautious estimate of skill: 0 at first, it rises as you play and win"
SCOPES = {"server": "this server", "all": "all servers"}


def _scope_name(scope: int) -> str:
    return SCOPES["all"] if scope == ALL_SERVERS else SCOPES["server"]


async def _trend(store: Store, row: RatingRow) -> str:
    """How the rating moved over the player's last games: "▲ 2.1 over the last 10 games"."""
    recent = await store.recent_rating_changes(row.scope, row.game_id, row.player, TREND_GAMES)
    if not recent:
        return ""
    return trend_text(recent[-1].change.before.ordinal, recent[0].change.after.ordinal, len(recent))


async def stats_text(store: Store, user: discord.abc.User, game_id: str | None, guild_id: int | None) -> str:
    """/stats: the person's games, wins and points, then their rating, games, wins and trend in each game,
    on this server and across servers."""
    s = await store.user_stats(user.id, game_id=game_id, guild_id=guild_id)
    rate = f" ({s.wins / s.played:.0%})" if s.played else ""
    at = f" at {title_of(game_id)}" if game_id in games() else ""
    lines = [
        f"📊 **{user.display_name}**{at}: {plural(s.played, 'game')} played, {s.wins} won{rate}, "
        f"{plural(float(s.points), 'point')} (a shared win splits the point)."
    ]
    scopes = (ALL_SERVERS,) if guild_id is None else (guild_id, ALL_SERVERS)
    rows = await store.player_ratings(str(user.id), scopes, game_id)
    if rows:
        lines.append(f"**Rating** — {RATING_WORDS}.")
    said: list[tuple[str, str, str]] = []  # (game, scope, what it says)
    for row in rows:
        r, trend = row.rating, await _trend(store, row)
        text = f"**{shown(r.ordinal)}** · {plural(r.games, 'rated game')}, {r.wins} won"
        text += f" · {trend}" if trend else ""
        title = title_of(row.game_id)
        if said and said[-1][0] == title and said[-1][2] == text:  # all servers reads as this server: once
            said[-1] = (title, "this server and all servers", text)
        else:
            said.append((title, _scope_name(row.scope), text))
    lines += [f"{title} · {scope}: {text}" for title, scope, text in said]
    if not rows and s.played:
        lines.append("No rated games yet.")
    text = "\n".join(lines)
    return text if len(text) <= MESSAGE_MAX else text[: MESSAGE_MAX - 1] + "…"


def _line(row: RatingRow, *, bold: bool = False) -> str:
    """A player on a leaderboard: "<@id> — **16.0** · 7/12 won"."""
    rating = shown(row.rating.ordinal)
    rating = f"**{rating}**" if bold else rating
    return f"{label(row.player)} — {rating} · {row.rating.wins}/{row.rating.games} won"


async def leaderboard_embed(store: Store, game_id: str, scope: int) -> discord.Embed:
    """/leaderboard: a game's players ranked by rating once they have MIN_GAMES rated games, and who is
    getting there."""
    leaders = await store.game_ratings(game_id, scope, min_games=MIN_GAMES, limit=LEADERS)
    coming = await store.game_ratings(game_id, scope, min_games=MIN_GAMES, ranked=False, limit=NEWCOMERS + 1)
    title = title_of(game_id) if game_id in games() else "no such game"
    lines = [f"{i}. {_line(row, bold=True)}" for i, row in enumerate(leaders, 1)]
    where = _scope_name(scope)
    nobody = f"Nobody has played {MIN_GAMES} rated games of {title} on {where} yet."
    embed = discord.Embed(title=f"Leaderboard — {title}", description="\n".join(lines) or nobody)
    _getting_there(embed, coming, MIN_GAMES)
    embed.set_footer(
        text=f"{where.capitalize()} · ranked by rating, {RATING_WORDS} · listed after {MIN_GAMES} rated games"
    )
    return embed


def ranked_lines(rows: Sequence[RatingRow], *, bold: bool = True) -> list[str]:
    """Players on a leaderboard, numbered from 1: "1. <@id> — **16.0** · 7/12 won"."""
    return [f"{i}. {_line(row, bold=bold)}" for i, row in enumerate(rows, 1)]


def board_embed(title: str, intro: str, rows: Sequence[RatingRow], least: int, footer: str) -> discord.Embed:
    """A leaderboard from rows already ranked best first: those with `least` rated games ranked (LEADERS of
    them), then who is getting there (NEWCOMERS, most games first)."""
    leaders = [r for r in rows if r.rating.games >= least][:LEADERS]
    coming = sorted((r for r in rows if r.rating.games < least), key=lambda r: -r.rating.games)
    nobody = f"Nobody has played {least} rated games yet."
    lines = [intro, *ranked_lines(leaders)] if leaders else [intro, nobody]
    embed = discord.Embed(title=title[:256], description="\n".join(x for x in lines if x))
    _getting_there(embed, coming, least)
    embed.set_footer(text=footer)
    return embed


def _getting_there(embed: discord.Embed, coming: Sequence[RatingRow], least: int) -> None:
    """A leaderboard's field of the players not ranked yet (the first NEWCOMERS of them), if any."""
    if coming:
        names = [_line(row) for row in coming[:NEWCOMERS]]
        more = "\n…" if len(coming) > NEWCOMERS else ""
        embed.add_field(
            name=f"Not ranked yet (fewer than {least} rated games)",
            value=("\n".join(names) + more)[:FIELD_MAX],
            inline=False,
        )


async def result_changes(store: Store, info: MatchInfo) -> str:
    """Each person's rating change on this server from a finished game, one line each ("" if unrated)."""
    if info.guild_id is None:
        return ""
    changes = {c.change.player: c.change for c in await store.match_rating_changes(info.id, info.guild_id)}
    people = dict.fromkeys(p for s in info.seats if (p := s.person) is not None)
    lines = [
        f"<@{person}> {change_text(change)}"
        for person in people
        if (change := changes.get(str(player_of(person, None)))) is not None
    ]
    return "\n".join(lines)[:FIELD_MAX]
