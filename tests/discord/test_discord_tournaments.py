"""Tournaments through the fake Discord (issue 39, part 3): "/tournament create game: format:(swiss|
round_robin|knockout) rounds: days_per_round: seats: [pack:] [ranked:] opens a sign-up message with Join/Leave
and a start time; at the start the bot pairs players …, opens each game in its own thread with the round's
deadline on everyone's clock …, and starts the next round when every game of this one is over or its deadline
passes (an unfinished game is adjudicated by the server's rule, stated at creation: a draw or the hard AI's
evaluation). Standings after each round as an image and text; drop-outs; a manager can pause, remove a player
or record a result. Everything survives restarts and runs once across shards.\""""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.discord.rounds import Rounds
from bot.sessions.clock import RESERVE
from bot.store import DONE, FINISHED, PAUSED, RUNNING, SIGNUP
from tests.discord_harness import Harness
from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord.interactions import forge_press
from tests.toygame import HighCard

HOUR, DAY = 3600.0, 86400.0


async def _create(h: Harness, admin: FakeUser, **options: Any) -> Any:
    """/tournament create in #general by the admin; its sign-up message."""
    given = {"game": "omphala", "format": "swiss", "rounds": 2, "days_per_round": 7, "starts_in_hours": 1}
    return await (
        await h.fake.slash(admin, h.fake.channel, "tournament create", {**given, **options})
    ).wait_reply()


async def _cup(h: Harness) -> Any:
    (t,) = await h.store.tournaments(h.fake.guild.id)
    return t


def _standings_posts(fake: FakeDiscord) -> list[Any]:
    return [m for m in fake.public(fake.channel) if any(a.filename == "standings.png" for a in m.attachments)]


async def _finish_by_forfeit(h: Harness, match_id: int, loser: int) -> None:
    await h.sessions.forfeit(match_id, loser, "test")
    await h.settle()


async def test_swiss_of_three_from_sign_up_to_final_standings(fake: FakeDiscord, tmp_path: Path) -> None:
    """Sign-up with Join and Leave and a start time; at the start a Swiss pairing with a bye "to the lowest
    without one"; each game in its own thread with the round's deadline on the board; the next round when
    every game is over; "Standings after each round as an image and text"; final standings; /games lists a
    person's tournament game."""
    admin = fake.add_user("admin", admin=True)
    alice, bob, carol, dave = (fake.add_user(n) for n in ("alice", "bob", "carol", "dave"))
    async with Harness.started(fake, tmp_path) as h:
        signup = await _create(h, admin, name="Winter Cup")
        assert not signup.ephemeral and "Winter Cup" in signup.text() and "Starts <t:" in signup.text()
        for who in (alice, bob, carol, dave):
            signup = await h.press(who, fake.message(signup.id), "Join")
        again = await h.press(alice, fake.message(signup.id), "Join")
        assert again.ephemeral and "already signed up" in again.text()
        await h.press(dave, fake.message(signup.id), "Leave")
        message = fake.message(signup.id)
        assert "Players (3)" in message.text() and "dave" not in message.text()
        assert await h.bot.timers.tick(h.clock[0]) == 0 or (await _cup(h)).status == SIGNUP, "not yet"

        h.clock[0] += HOUR
        await h.bot.timers.tick(h.clock[0])
        await h.settle()
        t = await _cup(h)
        assert (t.status, t.round) == (RUNNING, 1)
        tables = await h.store.tables(t.id, 1)
        assert [len(x.players) for x in tables] == [2, 1], "one game and a bye"
        game, bye = tables
        assert bye.points == (1.0,) and bye.how == "bye"
        assert game.thread_id is not None and game.match_id is not None
        thread = fake.channels[game.thread_id]
        board = h.board(thread)
        assert "round ends <t:" in board.text() and "adjudicated" in board.text()
        info = await h.sessions.get(game.match_id)
        assert info.options.get("clock") == "bank" and info.status == "active"
        announced = [m for m in fake.public(fake.channel) if "round 1 of 2" in m.text() and m.id != signup.id]
        assert "Running: round 1 of 2" in fake.message(signup.id).text()
        assert len(announced) == 1 and f"/channels/{fake.guild.id}/{thread.id}" in announced[0].text()

        player = next(u for u in (alice, bob, carol) if str(u.id) in game.players)
        listed = await (await fake.slash(player, fake.channel, "games")).wait_reply()
        assert "🏆 Winter Cup, round 1" in listed.text()

        loser = int(game.players[1])
        await _finish_by_forfeit(h, game.match_id, loser)
        await h.bot.timers.tick(h.clock[0])
        await h.settle()
        t = await _cup(h)
        assert t.round == 2
        second = await h.store.tables(t.id, 2)
        pairs = {frozenset(x.players) for x in second if len(x.players) == 2}
        assert frozenset(game.players) not in pairs, "no repeat pairings"
        (bye2,) = [x for x in second if len(x.players) == 1]
        assert bye2.players != bye.players, "a bye goes to one without one"
        posts = _standings_posts(fake)
        assert len(posts) == 1 and "standings after round 1" in (posts[0].alt("standings.png") or "")
        image = Image.open(io.BytesIO(posts[0].attachment("standings.png").data))
        assert image.format == "PNG"

        (game2,) = [x for x in second if len(x.players) == 2]
        await _finish_by_forfeit(h, game2.match_id, int(game2.players[0]))
        await h.bot.timers.tick(h.clock[0])
        await h.settle()
        t = await _cup(h)
        assert t.status == DONE
        final = _standings_posts(fake)[-1]
        assert "Final standings" in final.text() and "final standings" in (final.alt("standings.png") or "")
        assert not fake.pings(alice, fake.channel), "standings never ping"
        shown = await (await fake.slash(bob, fake.channel, "tournament standings", {"id": t.id})).wait_reply()
        assert shown.ephemeral and "Final standings" in shown.text()


async def test_a_restart_between_pairing_and_the_games_start(
    fake: FakeDiscord, tmp_path: Path, toy: HighCard
) -> None:
    """ "a restart between pairing and the games' start": the round paired, the bot stopped before its
    tables opened (and once more after a thread was made but before its game was dealt) — after each restart
    every table gets exactly one thread and one game."""
    admin = fake.add_user("admin", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        await _create(h, admin, game="highcard", starts_in_hours=0)  # AI players: a quick game to play
        t = await _cup(h)
        await (
            await fake.slash(admin, fake.channel, "tournament add_ai", {"id": t.id, "count": 4})
        ).wait_reply()
        opened: list[Any] = []
        original = Rounds._open

        async def cut_off(self: Rounds, *args: Any) -> None:
            opened.append(args)  # the process dies before any table opens

        Rounds._open = cut_off  # type: ignore[method-assign]
        try:
            await h.bot.rounds.step(t.id, h.clock[0])
        finally:
            Rounds._open = original  # type: ignore[method-assign]
        assert opened and all(x.match_id is None for x in await h.store.tables(t.id, 1))
        await h.restart()

        dealt: list[Any] = []
        deal = h.sessions.deal_table

        async def thread_then_die(*args: Any, **kwargs: Any) -> Any:
            dealt.append(args)
            raise RuntimeError("the process died after making the thread")

        h.sessions.deal_table = thread_then_die
        with contextlib.suppress(RuntimeError):
            await h.bot.rounds.step(t.id, h.clock[0])
        h.sessions.deal_table = deal
        made = [x.thread_id for x in await h.store.tables(t.id, 1)]
        assert dealt and made[0] is not None
        await h.restart()
        await h.bot.timers.tick(h.clock[0])
        await h.settle()
        tables = await h.store.tables(t.id, 1)
        assert tables[0].thread_id == made[0], "the thread made before the restart is used"
        assert all(x.match_id is not None and x.thread_id is not None for x in tables)
        first_round = [c for c in fake.threads(fake.channel) if " · R1 · " in c.name]
        assert len(first_round) == len(tables), "one thread per table, none twice"
        assert len({x.match_id for x in tables}) == len(tables)


async def test_a_round_end_adjudicates(fake: FakeDiscord, tmp_path: Path) -> None:
    """ "an unfinished game is adjudicated by the server's rule, stated at creation: a draw or the hard AI's
    evaluation"."""
    admin = fake.add_user("admin", admin=True)
    alice, bob, carol, dave = (fake.add_user(n) for n in ("alice", "bob", "carol", "dave"))
    async with Harness.started(fake, tmp_path) as h:
        signup = await _create(h, admin, days_per_round=1, adjudication="ai", starts_in_hours=0, rounds=1)
        for who in (alice, bob, carol, dave):
            await h.press(who, fake.message(signup.id), "Join")
        await h.bot.timers.tick(h.clock[0])
        await h.settle()
        t = await _cup(h)
        _first, _second = await h.store.tables(t.id, 1)
        assert "an unfinished game" in fake.message(signup.id).text().lower()
        h.clock[0] += DAY + 1  # the round's end (a day), before anyone's bank (three days) runs out
        await h.bot.timers.tick(h.clock[0])
        await h.settle()
        for table in await h.store.tables(t.id, 1):
            assert table.how == "adjudicated" and table.points is not None and sum(table.points) == 1.0
            info = await h.sessions.get(table.match_id)
            assert info.status == FINISHED and "adjudicated" in info.note
        assert (await _cup(h)).status == DONE


async def test_a_player_whose_bank_runs_out_loses_the_game(fake: FakeDiscord, tmp_path: Path) -> None:
    """ "the round's deadline on everyone's clock (the table clock of the async issue: a player who runs out
    loses that game)": whatever the server's timeout policy (here: an AI takes the seat), a tournament
    game's bank running out is a forfeit, and the table is decided by it."""
    admin = fake.add_user("admin", admin=True)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        await h.config(admin, timeout_policy="ai")
        signup = await _create(h, admin, starts_in_hours=0, rounds=1)
        for who in (alice, bob):
            await h.press(who, fake.message(signup.id), "Join")
        await h.bot.timers.tick(h.clock[0])
        await h.settle()
        t = await _cup(h)
        (table,) = await h.store.tables(t.id, 1)
        assert "(the player forfeits)" in h.board(fake.channels[table.thread_id]).text()
        h.clock[0] += RESERVE + 1  # both banks empty (both choose at once), the round's end a week away
        await h.bot.timers.tick(h.clock[0])
        await h.settle()
        info = await h.sessions.get(table.match_id)
        assert info.status == FINISHED and "out of time" in info.note
        (table,) = await h.store.tables(t.id, 1)
        assert table.how == "played" and sorted(table.points or ()) == [0.0, 1.0]


async def test_the_manager_pauses_records_and_removes(fake: FakeDiscord, tmp_path: Path) -> None:
    """ "drop-outs; a manager can pause, remove a player or record a result"; others are refused."""
    admin = fake.add_user("admin", admin=True)
    alice, bob, carol, dave = (fake.add_user(n) for n in ("alice", "bob", "carol", "dave"))
    async with Harness.started(fake, tmp_path) as h:
        signup = await _create(h, admin, starts_in_hours=0, rounds=3, days_per_round=1)
        for who in (alice, bob, carol, dave):
            await h.press(who, fake.message(signup.id), "Join")
        await h.bot.timers.tick(h.clock[0])
        await h.settle()
        t = await _cup(h)
        refused = await (await fake.slash(alice, fake.channel, "tournament pause", {"id": t.id})).wait_reply()
        assert refused.ephemeral and "Only the tournament's creator" in refused.text()
        await (await fake.slash(admin, fake.channel, "tournament pause", {"id": t.id})).wait_reply()
        paused = await _cup(h)
        assert paused.status == PAUSED
        h.clock[0] += 2 * DAY  # past the round's end (not yet a bank's): nothing is adjudicated while paused
        await h.bot.timers.tick(h.clock[0])
        assert all(x.points is None for x in await h.store.tables(t.id, 1))
        await (await fake.slash(admin, fake.channel, "tournament resume", {"id": t.id})).wait_reply()
        resumed = await _cup(h)
        assert resumed.status == RUNNING and resumed.round_ends == paused.round_ends + 2 * DAY

        first, second = await h.store.tables(t.id, 1)
        winner = next(u for u in (alice, bob, carol, dave) if str(u.id) == first.players[0])
        said = await (
            await fake.slash(
                admin, fake.channel, "tournament record", {"id": t.id, "table": 1, "winner": winner}
            )
        ).wait_reply()
        assert "table 1: won by" in said.text()
        first = (await h.store.tables(t.id, 1))[0]
        assert first.points == (1.0, 0.0) and first.how == "recorded"
        assert (await h.sessions.get(first.match_id)).status == FINISHED

        quitter = next(u for u in (alice, bob, carol, dave) if str(u.id) == second.players[1])
        said = await (await fake.slash(quitter, fake.channel, "tournament leave", {"id": t.id})).wait_reply()
        assert "You are out" in said.text()
        await h.bot.timers.tick(h.clock[0])
        await h.settle()
        t = await _cup(h)
        assert t.round == 2
        (left,) = [e for e in await h.store.entrants(t.id) if e.dropped is not None]
        assert left.player == str(quitter.id) and left.dropped == 2
        assert all(str(quitter.id) not in x.players for x in await h.store.tables(t.id, 2)), (
            quitter.id,
            await h.store.tables(t.id),
            await h.store.entrants(t.id),
        )
        again = await (await fake.slash(quitter, fake.channel, "tournament leave", {"id": t.id})).wait_reply()
        assert again.ephemeral and again.text() == "You are not in it (or dropped out already)."
        cancelled = await (
            await fake.slash(admin, fake.channel, "tournament cancel", {"id": t.id})
        ).wait_reply()
        assert "is cancelled" in cancelled.text() and (await _cup(h)).status == "cancelled"
        twice = await (await fake.slash(admin, fake.channel, "tournament cancel", {"id": t.id})).wait_reply()
        assert twice.ephemeral and "already over" in twice.text()


async def test_presses_forged_for_another_place_are_refused(fake: FakeDiscord, tmp_path: Path) -> None:
    """A sign-up button names its tournament; pressed from another channel (a forged custom_id), it is
    refused politely and nothing changes."""
    admin = fake.add_user("admin", admin=True)
    alice = fake.add_user("alice")
    async with Harness.started(fake, tmp_path) as h:
        signup = await _create(h, admin)
        t = await _cup(h)
        other = fake.add_channel("other")
        carrier = fake.record_message(other, fake.bot_user, content="…", flags=64, visible_to=alice.id)
        reply = await (await forge_press(fake, alice, carrier, f"ag:tjoin:{t.id}")).wait_reply()
        assert reply.ephemeral and "press it there" in reply.text()
        assert await h.store.entrants(t.id) == []
        assert "Players (0)" in fake.message(signup.id).text()


@pytest.mark.parametrize(("format", "players", "rounds", "byes"), [
    ("round_robin", 2, 1, 0), ("round_robin", 3, 3, 3), ("knockout", 2, 1, 0), ("knockout", 3, 2, 1),
    ("swiss", 5, 2, 2),
])  # fmt: skip
async def test_every_format_runs_to_its_end(
    fake: FakeDiscord, tmp_path: Path, toy: HighCard, format: str, players: int, rounds: int, byes: int
) -> None:
    """ "Tests for each format at 2, 3 and odd player counts, byes": AI players through the whole run — a
    round robin and a knockout count their own rounds from the players; the final standings are posted."""
    admin = fake.add_user("admin", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        await _create(h, admin, game="highcard", format=format, rounds=2, starts_in_hours=0)
        t = await _cup(h)
        await (
            await fake.slash(admin, fake.channel, "tournament add_ai", {"id": t.id, "count": players})
        ).wait_reply()
        for _ in range(200):
            await h.bot.timers.tick(h.clock[0])
            await h.settle()
            if (t := await _cup(h)).status == DONE:
                break
        assert t.status == DONE and t.rounds == rounds
        tables = await h.store.tables(t.id)
        assert sum(len(x.players) == 1 for x in tables) == byes
        assert all(x.points is not None for x in tables)
        assert "Final standings" in _standings_posts(fake)[-1].text()
