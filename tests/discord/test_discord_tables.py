"""Ranked and casual tables through the fake Discord (issue 39, part 1): "Ranked or casual, chosen in the
lobby (default: the server's, /config tables:): casual games are not rated and allow hints; ranked games
refuse hints and undo across a hidden draw, as today. The lobby, board and result say which."

Played with the toy game (tests/toygame.py), every window passed at once, so the turns simply alternate;
the hints with Ophion (the AI workers know the registered games only).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.discord.learn import RANKED_NO_HINTS
from bot.ratings import ALL_SERVERS, CASUAL, RANKED, TABLE, is_ranked
from bot.sessions import SessionError
from bot.sessions.types import ALL
from engine.registry import games
from engine.table import lesson
from tests.discord_harness import Harness
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser
from tests.toygame import HighCard

TABLE_MENU = "Table: ranked or casual (host: choose)"
RANKED_LINE = "**Table:** Ranked — the result moves ratings; no hints — the host may change it below."
CASUAL_LINE = "**Table:** Casual — not rated; hints allowed — the host may change it below."
RATING = "**Rating on this server**"


def _footer(board: FakeMessage) -> str:
    return next(t for t in board.text_displays() if t.startswith("-# Game #"))


async def _choose(h: Harness, user: FakeUser, lobby: FakeMessage, kind: str) -> FakeMessage:
    """`user` chooses the table's kind in the lobby's select; what they then see."""
    return await (
        await h.fake.select(user, h.fake.message(lobby.id), [kind], placeholder=TABLE_MENU)
    ).wait_reply()


async def _toy_game(
    h: Harness, toy: HighCard, alice: FakeUser, bob: FakeUser, kind: str | None = None
) -> tuple[FakeChannel, int]:
    """A toy game alice hosts and bob joins, its kind chosen by alice in the lobby (None: the server's),
    started and settled."""
    await h.windows(ALL, alice, bob)
    thread, lobby, mid = await h.open_lobby(alice, toy.id)
    lobby = await h.press(bob, lobby, "Join")
    if kind is not None:
        await _choose(h, alice, lobby, kind)
    await h.press(alice, h.fake.message(lobby.id), "Start")
    await h.settle()
    return thread, mid


async def _leaderboard(h: Harness, user: FakeUser, game: str) -> Any:
    """/leaderboard of a game on this server, as posted (its embed)."""
    said = await (await h.fake.slash(user, h.fake.channel, "leaderboard", {"game": game})).wait_reply()
    return said.embeds


async def test_the_servers_default_applies_and_the_host_switches_until_the_deal(
    toy: HighCard, fake: FakeDiscord, tmp_path: Path
) -> None:
    """ "Ranked or casual, chosen in the lobby (default: the server's, /config tables:)": a new lobby shows
    the server's kind from the start; only its host changes it, until the deal; then it is fixed."""
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    admin = fake.add_user("admin", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        _, lobby, first = await h.open_lobby(alice, toy.id)  # no /config yet: ranked, as every game so far
        assert RANKED_LINE in lobby.text()
        assert TABLE not in (await h.sessions.get(first)).options  # ranked: no kind reads as ranked
        marked = [o for o in lobby.select(TABLE_MENU).get("options", []) if o.get("default")]
        assert [o["value"] for o in marked] == [RANKED]

        said = await h.config(admin, tables=CASUAL)
        assert "New tables: **casual**" in said.text()
        assert "Hints (/game hint, casual tables only): on" in said.text()  # on unless turned off
        await h.windows(ALL, alice, bob)
        thread, lobby, mid = await h.open_lobby(alice, toy.id)
        assert CASUAL_LINE in lobby.text()
        assert (await h.sessions.get(mid)).options[TABLE] == CASUAL

        lobby = await h.press(bob, lobby, "Join")
        for stranger in (bob, carol):  # a seated guest and someone passing by
            refused = await _choose(h, stranger, lobby, RANKED)
            assert refused.ephemeral and refused.text() == "Only the host can do that."
        assert (await h.sessions.get(mid)).options[TABLE] == CASUAL
        lobby = await _choose(h, alice, lobby, RANKED)
        assert RANKED_LINE in lobby.text() and (await h.sessions.get(mid)).options[TABLE] == RANKED
        lobby = await _choose(h, alice, lobby, CASUAL)
        assert CASUAL_LINE in lobby.text()
        with pytest.raises(SessionError, match="A table is ranked or casual"):
            await h.sessions.set_option(mid, alice.id, TABLE, "friendly")

        await h.press(alice, fake.message(lobby.id), "Start")
        await h.settle()
        with pytest.raises(SessionError, match="already started"):  # fixed at the deal
            await h.sessions.set_option(mid, alice.id, TABLE, RANKED)
        assert (await h.sessions.get(mid)).options[TABLE] == CASUAL
        assert " · Casual · " in _footer(h.board(thread))


async def test_a_casual_game_is_not_rated_but_counts_in_stats_and_its_rematch_stays_casual(
    toy: HighCard, fake: FakeDiscord, tmp_path: Path
) -> None:
    """ "casual games are not rated": played to its end, no rating moves (/leaderboard unchanged), the
    result says so, and /stats counts the game; a rematch keeps the kind."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        before = await _leaderboard(h, alice, toy.id)
        thread, mid = await _toy_game(h, toy, alice, bob, CASUAL)
        board = h.board(thread)
        assert " · Casual · " in _footer(board)
        final = await h.play_until_over(mid, thread, {alice.id: alice, bob.id: bob})
        assert final.status == "finished"
        guild = fake.guild.id
        assert await h.store.match_rating_changes(mid, guild) == []
        assert await h.store.match_rating_changes(mid, ALL_SERVERS) == []
        assert await h.store.game_ratings(toy.id, guild, min_games=0, ranked=False) == []
        assert await _leaderboard(h, alice, toy.id) == before

        result = h.board(thread)
        assert "Casual game: not rated." in result.text_displays() and RATING not in result.text()
        status = await (await fake.slash(bob, thread, "game status")).wait_reply()
        assert "Casual game: not rated." in status.text_displays()
        stats = await (await fake.slash(alice, thread, "stats", {"game": toy.id})).wait_reply()
        assert "1 game played" in stats.text()

        again = await h.press(bob, result, "Rematch")
        assert again is not None
        await h.settle()
        rematch = await h.store.rematch_id(mid)
        assert rematch is not None and (await h.sessions.get(rematch)).options[TABLE] == CASUAL


async def test_a_ranked_game_is_rated_and_its_result_says_how(
    toy: HighCard, fake: FakeDiscord, tmp_path: Path
) -> None:
    """The server's default kind (ranked unless /config tables: says otherwise) moves ratings, as before."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await _toy_game(h, toy, alice, bob)
        assert is_ranked((await h.sessions.get(mid)).options)
        assert " · Ranked · " in _footer(h.board(thread))
        await h.sessions.forfeit(mid, bob.id)
        await h.settle()
        assert len(await h.store.match_rating_changes(mid, fake.guild.id)) == 2
        result = h.board(thread)
        assert any(t.startswith(f"{RATING}\n{alice.mention} ") for t in result.text_displays())
        assert "not rated" not in result.text()


async def test_hints_are_refused_at_a_ranked_table_and_given_at_a_casual_one(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """ "ranked games refuse hints"; "casual games ... allow hints" (the server's hints on by default)."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    admin = fake.add_user("admin", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        ranked, _ = await h.started_game(alice, bob, "ophion")
        refused = await (await fake.slash(alice, ranked, "game hint")).wait_reply()
        assert refused.ephemeral and refused.text() == RANKED_NO_HINTS
        assert refused.text().startswith("This is a ranked table: no hints.")

        await h.config(admin, tables=CASUAL)
        casual, mid = await h.started_game(alice, bob, "ophion")
        assert (await h.sessions.get(mid)).users_to_act == (alice.id,)
        waiting = await (await fake.slash(bob, casual, "game hint")).wait_reply()
        assert waiting.ephemeral and "not your turn" in waiting.text()  # past the table's rule
        hint = await (await fake.slash(alice, casual, "game hint")).wait_reply(timeout=30)
        assert hint.ephemeral and hint.visible_to == alice.id and hint.embeds
        assert hint.embeds[0]["title"].startswith("💡 Hint for alice")


async def test_a_practice_game_says_practice(fake: FakeDiscord, tmp_path: Path) -> None:
    """A practice game (/learn) says "Practice" where a kind would show; it is never rated."""
    ada = fake.add_user("ada")
    game = sorted(gid for gid, g in games().items() if lesson.of(g) is not None)[0]
    async with Harness.started(fake, tmp_path) as h:
        said = await (await fake.slash(ada, fake.channel, "learn", {"game": game})).wait_reply(timeout=15)
        assert said.ephemeral
        await h.settle()
        thread = fake.threads(fake.channel)[-1]
        info = await h.sessions.match_for_channel(thread.id)
        assert info is not None and TABLE not in info.options
        assert " · Practice · " in _footer(h.board(thread))
