"""Ratings through the fake Discord (issue 26): the result shows each person's rating change on this server,
/stats shows rating, games, wins and trend, /leaderboard ranks by rating once a player has enough games,
with AI levels as players of their own, on this server or across servers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.ratings import MIN_GAMES
from bot.sessions.base import result_row
from bot.store import ACTIVE, FINISHED, LogRow, NewMatch, Seat, StateUpdate
from tests.discord_harness import Harness
from tests.fakediscord import FakeDiscord, FakeUser


async def _forfeited(h: Harness, alice: FakeUser, bob: FakeUser) -> tuple[Any, int]:
    """Alice's lobby, Bob joins, it starts and Bob gives up: Alice wins. The thread and the match id."""
    thread, mid = await h.started_game(alice, bob)
    await h.sessions.forfeit(mid, bob.id)
    await h.settle()
    return thread, mid


def _rating_field(message: Any) -> str | None:
    head = "**Rating on this server**\n"
    return next((t.removeprefix(head) for t in message.text_displays() if t.startswith(head)), None)


async def _recorded(h: Harness, guild: int, seats: tuple[Seat, ...], shares: tuple[float, ...]) -> None:
    """A finished game written straight into the bot's store (as the session manager writes results)."""
    now = h.clock[0]
    new = NewMatch("omphala", "1", guild, None, "discord", 1, {}, seats, None, now)
    rec = await h.store.create_match(new)
    state = StateUpdate("{}", 0, 0, 0, (0,), False, None, ACTIVE, now)
    await h.store.start_match(rec.id, state)
    over = StateUpdate("{}", 1, 1, 0, (), False, None, FINISHED, now)
    results = [result_row(i, s, share) for i, (s, share) in enumerate(zip(seats, shares, strict=True))]
    await h.store.record_action(rec.id, LogRow(1, 0, None, "x", now), over, 0, results)
    h.clock[0] += 60


async def test_the_result_shows_each_persons_rating_change(fake: FakeDiscord, tmp_path: Path) -> None:
    """Issue 26: "After a game the result embed shows each human's rating change"; a first game says so."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, _ = await _forfeited(h, alice, bob)
        first = _rating_field(h.board(thread))
        assert first is not None
        assert f"{alice.mention} 3.4 (first rated game)" in first
        assert f"{bob.mention} -1.8 (first rated game)" in first
        again, _ = await _forfeited(h, alice, bob)
        second = _rating_field(h.board(again))
        assert second is not None and f"{alice.mention} 3.4 → " in second and "(+" in second
        assert f"{bob.mention} -1.8 → " in second and "(-" in second
        status = await (await fake.slash(bob, again, "game status")).wait_reply()
        assert _rating_field(status) == second, "/game status after the end shows the same changes"

        stats = await (await fake.slash(alice, thread, "stats", {"game": "omphala"})).wait_reply()
        assert stats.ephemeral and "2 games played, 2 won (100%)" in stats.text()
        lines = stats.text().splitlines()
        assert "**Rating**" in lines[1]
        (here,) = [line for line in lines if line.startswith("Omphala · ")]  # one server: said once
        assert here.startswith(
            "Omphala · this server and all servers: **6.2** · 2 rated games, 2 won · ▲ 6.2"
        )
        assert here.endswith("over the last 2 games")
        lost = await (await fake.slash(alice, thread, "stats", {"user": bob.id})).wait_reply()
        assert "**bob**" in lost.text() and "2 rated games, 0 won · ▼" in lost.text()


async def test_an_unrated_game_says_nothing_about_ratings(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The result reads the match's stored changes; without them (an unrated game) no rating is shown."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:

        async def none(*_: object) -> list[Any]:
            return []

        monkeypatch.setattr(h.store, "match_rating_changes", none)
        thread, _ = await _forfeited(h, alice, bob)
        final = h.board(thread)
        assert "🏆" in final.text() and _rating_field(final) is None and "rating" not in final.text().lower()


async def test_the_leaderboard_ranks_by_rating_after_enough_games(fake: FakeDiscord, tmp_path: Path) -> None:
    """Issue 26: "/leaderboard game: ranks by rating with a minimum number of games before a player is
    listed. AI levels have their own ratings"; on this server, or across servers."""
    alice, bob, cy = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("cy")
    elsewhere = 4242
    async with Harness.started(fake, tmp_path) as h:
        here = fake.guild.id
        hard = Seat(None, "hard", "AI")
        for _ in range(MIN_GAMES):
            await _recorded(h, here, (Seat(alice.id), hard), (1.0, 0.0))
            await _recorded(h, here, (Seat(bob.id), hard), (0.0, 1.0))
        await _recorded(h, here, (Seat(cy.id), Seat(alice.id)), (1.0, 0.0))
        for _ in range(MIN_GAMES):
            await _recorded(h, elsewhere, (Seat(cy.id), hard), (1.0, 0.0))

        board = await (await fake.slash(bob, fake.channel, "leaderboard", {"game": "omphala"})).wait_reply()
        embed = board.embeds[0]
        assert embed["title"] == "Leaderboard — Omphala" and not board.ephemeral
        ranked = embed["description"].splitlines()
        assert [line.split(" — ")[0] for line in ranked] == [
            f"1. {alice.mention}",
            "2. AI · hard",
            f"3. {bob.mention}",
        ]
        assert ranked[0].endswith("· 5/6 won") and "· 5/10 won" in ranked[1]
        ratings = [float(line.split("**")[1]) for line in ranked]
        assert ratings == sorted(ratings, reverse=True)
        waiting = embed["fields"][0]
        assert waiting["name"] == f"Not ranked yet (fewer than {MIN_GAMES} rated games)"
        assert waiting["value"].startswith(f"{cy.mention} — ") and waiting["value"].endswith(" · 1/1 won")
        assert f"listed after {MIN_GAMES} rated games" in embed["footer"]["text"]
        assert embed["footer"]["text"].startswith("This server")
        assert not board.mention_ids  # names, never pings

        options = {"game": "omphala", "scope": "all"}
        everywhere = await (await fake.slash(bob, fake.channel, "leaderboard", options)).wait_reply()
        ranked = everywhere.embeds[0]["description"].splitlines()
        assert any(cy.mention in line for line in ranked) and "All servers" in everywhere.text()
        assert "· 5/15 won" in next(line for line in ranked if "AI · hard" in line)

        stats = await (await fake.slash(cy, fake.channel, "stats", {"game": "omphala"})).wait_reply()
        assert "Omphala · this server: **" in stats.text() and "1 rated game, 1 won" in stats.text()
        assert "Omphala · all servers: **" in stats.text() and "6 rated games, 6 won" in stats.text()

        empty = await (await fake.slash(bob, fake.channel, "leaderboard", {"game": "ophion"})).wait_reply()
        assert f"Nobody has played {MIN_GAMES} rated games of Ophion on this server yet." in empty.text()
