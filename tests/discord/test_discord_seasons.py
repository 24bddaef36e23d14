"""Seasons through the fake Discord (issue 39, part 2): "/config season_weeks: (0: none). Ratings carry
across seasons, leaderboards are per season with the all-time one beside; at a season's end the bot posts the
final standings of each game (an image and text) in the server's chosen channel, and /leaderboard season:
shows past ones."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

from PIL import Image

from bot.discord.seasons import SEASON_GAMES, WEEK
from bot.sessions.base import result_row
from bot.store import ACTIVE, FINISHED, LogRow, NewMatch, Seat, StateUpdate
from tests.discord_harness import Harness
from tests.fakediscord import FakeDiscord, FakeUser


async def _recorded(
    h: Harness, seats: tuple[Seat, ...], shares: tuple[float, ...], game: str = "omphala"
) -> None:
    """A finished game written straight into the bot's store, a minute later than the last."""
    now, guild = h.clock[0], h.fake.guild.id
    rec = await h.store.create_match(NewMatch(game, "1", guild, None, "discord", 1, {}, seats, None, now))
    await h.store.start_match(rec.id, StateUpdate("{}", 0, 0, 0, (0,), False, None, ACTIVE, now))
    over = StateUpdate("{}", 1, 1, 0, (), False, None, FINISHED, now)
    results = [result_row(i, s, share) for i, (s, share) in enumerate(zip(seats, shares, strict=True))]
    await h.store.record_action(rec.id, LogRow(1, 0, None, "x", now), over, 0, results)
    h.clock[0] += 60


async def _wins(h: Harness, winner: FakeUser, loser: FakeUser, times: int, game: str = "omphala") -> None:
    for _ in range(times):
        await _recorded(h, (Seat(winner.id), Seat(loser.id)), (1.0, 0.0), game)


async def _leaderboard(fake: FakeDiscord, user: FakeUser, **options: Any) -> Any:
    return await (
        await fake.slash(user, fake.channel, "leaderboard", {"game": "omphala", **options})
    ).wait_reply()


def _posts(fake: FakeDiscord) -> list[Any]:
    """The final standings posted in #general."""
    return [m for m in fake.public(fake.channel) if any(a.filename == "standings.png" for a in m.attachments)]


async def test_a_season_board_beside_the_all_time_one(fake: FakeDiscord, tmp_path: Path) -> None:
    """ "leaderboards are per season with the all-time one beside": games before the season count all-time
    only; the season board shows each player's carried rating, games and wins in the season."""
    admin = fake.add_user("admin", admin=True)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        await _wins(h, bob, alice, 6)  # before seasons
        said = await h.config(admin, season_weeks=4)
        assert "Season 1 starts now" in said.text() and "Seasons: 4 weeks each" in said.text()
        await _wins(h, alice, bob, SEASON_GAMES)
        board = await _leaderboard(fake, bob)
        season, all_time = board.embeds
        assert season["title"] == "Season 1 — Omphala" and all_time["title"] == "Leaderboard — Omphala"
        lines = season["description"].splitlines()
        assert lines[0].startswith("Season 1, <t:") and ", ends <t:" in lines[0]
        # Ratings carry: Bob's six wins before the season keep him ahead after three losses in it.
        assert lines[1].startswith(f"1. {bob.mention} — ") and lines[1].endswith("· 0/3 won")
        assert lines[2].startswith(f"2. {alice.mention} — ") and lines[2].endswith("· 3/3 won")
        assert "· 6/9 won" in all_time["description"], "all-time counts every game"
        alone = await _leaderboard(fake, bob, season="all-time")
        assert [e["title"] for e in alone.embeds] == ["Leaderboard — Omphala"]
        everywhere = await _leaderboard(fake, bob, scope="all", season="current")
        assert everywhere.ephemeral and "Seasons are per server" in everywhere.text()
        unknown = await _leaderboard(fake, bob, season="7")
        assert unknown.ephemeral and "no season '7'" in unknown.text()


async def test_the_end_posts_image_and_text_once_and_the_next_opens(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """ "at a season's end the bot posts the final standings of each game (an image and text) in the
    server's chosen channel": once though two checks race; mentions never ping; the next season opens at
    the old end; "/leaderboard season: shows past ones"."""
    admin = fake.add_user("admin", admin=True)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        await h.config(admin, season_weeks=1)
        await _wins(h, alice, bob, SEASON_GAMES)
        await _wins(h, bob, alice, 1, game="ophion")
        assert await h.bot.seasons.tick(h.clock[0]) == 0, "not over yet"
        h.clock[0] += WEEK
        done = await asyncio.gather(h.bot.seasons.tick(h.clock[0]), h.bot.timers.tick(h.clock[0]))
        assert done[0] == 1 and done[1] == 0
        posts = _posts(fake)
        assert len(posts) == 2, "one message a game with rated games"
        omphala = next(p for p in posts if "Omphala" in p.text())
        text = omphala.text()
        assert "Omphala — Season 1 final standings" in text and f"1. {alice.mention}" in text
        assert not fake.pings(alice) and not fake.pings(bob), "mentions never ping"
        image = Image.open(io.BytesIO(omphala.attachment("standings.png").data))
        assert image.format == "PNG" and image.width == 780
        alt = omphala.alt("standings.png") or ""
        assert alt.startswith("Omphala — Season 1 final standings") and "1, alice, Rating" in alt
        assert len(alt) <= 1024
        ophion = next(p for p in posts if "Ophion" in p.text())
        assert f"Nobody played {SEASON_GAMES} rated games this season." in ophion.text()
        await h.bot.timers.tick(h.clock[0] + 60)
        assert len(_posts(fake)) == 2, "posted once"
        one, two = await h.store.seasons(fake.guild.id)
        assert one.posted_at is not None and (two.starts_at, two.ends_at) == (one.ends_at, one.ends_at + WEEK)

        past = await _leaderboard(fake, bob, season="1")
        (embed,) = past.embeds
        assert embed["title"] == "Season 1 — Omphala" and "(ended)" in embed["description"]
        current = await _leaderboard(fake, bob)
        assert current.embeds[0]["title"] == "Season 2 — Omphala"
        assert "Nobody has played" in current.embeds[0]["description"]
        ix = await fake.autocomplete(
            bob, fake.channel, "leaderboard", {"game": "omphala", "season": ""}, "season"
        )
        await ix.wait_callback()
        names = [c["name"] for c in ix.choices]
        assert names[:2] == ["Current season", "All-time"] and names[3].startswith("Season 1 (ended ")


async def test_zero_ends_the_season_and_none_follows(fake: FakeDiscord, tmp_path: Path) -> None:
    """ "/config season_weeks: (0: none)": the running season ends at the next check, its standings posted,
    and no new one starts; a shorter length moves the running season's end."""
    admin = fake.add_user("admin", admin=True)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        await h.config(admin, season_weeks=8)
        moved = await h.config(admin, season_weeks=2)
        assert "Season 1 now ends <t:" in moved.text()
        (season,) = await h.store.seasons(fake.guild.id)
        assert season.ends_at == season.starts_at + 2 * WEEK
        await _wins(h, alice, bob, 1)
        off = await h.config(admin, season_weeks=0)
        assert "Season 1 ends now" in off.text() and "Seasons: off" in off.text()
        await h.bot.timers.tick(h.clock[0])
        assert len(_posts(fake)) == 1
        (season,) = await h.store.seasons(fake.guild.id)
        assert season.posted_at is not None
        board = await _leaderboard(fake, bob)
        assert [e["title"] for e in board.embeds] == ["Leaderboard — Omphala"]
        again = await h.config(admin, season_weeks=1)
        assert "Season 2 starts now" in again.text()


async def test_a_restart_between_the_end_and_the_post(fake: FakeDiscord, tmp_path: Path) -> None:
    """A season due while the bot was down is posted at the first check after it starts again, once."""
    admin = fake.add_user("admin", admin=True)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        await h.config(admin, season_weeks=1)
        await _wins(h, alice, bob, 2)
        await h.stop()
        h.clock[0] += 3 * WEEK
        await h.start()
        await h.bot.timers.tick(h.clock[0])
        assert len(_posts(fake)) == 1
        seasons = await h.store.seasons(fake.guild.id)
        assert [s.number for s in seasons] == [1, 2] and seasons[1].ends_at <= h.clock[0], "due next check"
        for _ in range(3):  # the seasons missed while down follow, one a check, empty ones posting nothing
            await h.bot.timers.tick(h.clock[0])
        assert len(_posts(fake)) == 1
        last = (await h.store.seasons(fake.guild.id))[-1]
        assert last.posted_at is None and last.starts_at <= h.clock[0] < last.ends_at


async def test_a_gone_channel_still_marks_the_season(fake: FakeDiscord, tmp_path: Path) -> None:
    """A failed post (the channel gone) is logged and the season still marked posted: nobody waits on it."""
    admin = fake.add_user("admin", admin=True)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        await h.config(admin, season_weeks=1)
        await h.bot.services.settings.set(fake.guild.id, "season_channel", 987654321)
        await _wins(h, alice, bob, 1)
        h.clock[0] += WEEK
        assert await h.bot.seasons.tick(h.clock[0]) == 1
        assert _posts(fake) == []
        (one, _) = await h.store.seasons(fake.guild.id)
        assert one.posted_at is not None
