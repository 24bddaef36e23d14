"""Seat choices and response windows, the two front-end features card-ability games need, proved end to end
with the toy game (tests/toygame.py): people pick their decks in the lobby (kept across a restart, refused to
strangers, dropped on Leave) and the game is dealt with them; a window pings the seat it waits for, offers
it a Pass, and passes by itself after the server's wait (/config response_wait), the same for every window.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from bot.discord.timers import LATE, MIN_PAUSE, pause_for
from bot.sessions.lobby import NOT_JOINED
from engine.registry import games
from engine.table.present import Generic, SeatChoice, Status, choices_of, of, picked
from tests.discord_harness import HAND, WHAT, Harness
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser
from tests.toygame import DECK, HighCard

MIN = 60.0
CHOOSE = "Choose your Deck (random if none)"


async def _choose(h: Harness, user: FakeUser, lobby: FakeMessage, option: str) -> FakeMessage:
    """Pick a deck in the lobby's select; what the user then sees."""
    return await (await h.fake.select(user, lobby, [option], placeholder=CHOOSE)).wait_reply()


async def _draw(h: Harness, user: FakeUser, thread: FakeChannel) -> None:
    """The user draws a card from their hand menu on the latest board."""
    hand = await h.press(user, h.board(thread), HAND)
    played = await h.press(user, hand, "Draw a card")
    assert "✅ You played **Draw a card**" in played.text()
    await h.settle()


def test_the_presentation_parts() -> None:
    """A module without choices has none; Generic has none and no window; picked() reads a seat's pick."""
    omphala = games()["omphala"]
    assert choices_of(of(omphala)) == () and choices_of(Generic(omphala)) == ()
    assert choices_of(HighCard.present) == (DECK,) and Status("x").window == ""
    options = {"seat_choices": [{"deck": "high"}, {}, {"deck": "purple"}]}
    assert [picked(options, p, DECK) for p in range(4)] == ["high", None, None, None]
    assert picked(None, 0, DECK) is None and picked({}, 0, SeatChoice("deck", "Deck", ())) is None


def test_the_toy_deals_the_picked_decks(toy: HighCard) -> None:
    """The game gets options["seat_choices"] in seat order; a seat with no pick gets a deck from the seed."""
    dealt = toy.setup(2, 5, {"seat_choices": [{"deck": "high"}, {"deck": "low"}]})
    assert dealt["decks"] == ["high", "low"]
    assert toy.setup(2, 5, {"seat_choices": [{"deck": "low"}, {}]})["decks"][1] == toy.setup(2, 5)["decks"][1]
    for seed in range(20):  # the high deck keeps the higher of the top two cards, the low deck the lower
        s = toy.setup(2, seed, {"seat_choices": [{"deck": "high"}, {"deck": "low"}]})
        top = s["deck"][-2:]
        toy.apply(s, toy.legal_actions(s, 0)[0])
        assert s["hands"][0] == [max(top)]


async def test_people_pick_their_decks_in_the_lobby(toy: HighCard, fake: FakeDiscord, tmp_path: Path) -> None:
    """Each seated person picks a deck in the lobby's select: a stranger is refused, the pick shows by the
    name, survives a restart, goes with a person who leaves, and the game is dealt with the picks."""
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    async with Harness.started(fake, tmp_path) as h:
        thread, lobby, mid = await h.open_lobby(alice, toy.id)
        menu = lobby.select(CHOOSE)
        assert [o["label"] for o in menu["options"]] == ["Low cards", "High cards", "Random"]
        assert menu["custom_id"] == f"ag:lbch:{mid}:deck"
        refused = await _choose(h, carol, lobby, "high")
        assert refused.ephemeral and refused.visible_to == carol.id and refused.content == NOT_JOINED
        lobby = await _choose(h, alice, lobby, "high")
        assert f"<@{alice.id}> (host) — deck: High cards" in lobby.text()
        lobby = await h.press(bob, lobby, "Join")
        lobby = await h.press(carol, lobby, "Join")
        lobby = await _choose(h, carol, lobby, "low")
        lobby = await h.press(carol, lobby, "Leave")
        assert str(carol.id) not in (await h.sessions.get(mid)).options.get("picks", {})
        await h.restart()  # the pick is stored with the lobby, and the select is a persistent component
        lobby = await _choose(h, bob, fake.message(lobby.id), "low")
        assert "deck: High cards" in lobby.text() and f"<@{bob.id}> — deck: Low cards" in lobby.text()
        lobby = await _choose(h, bob, lobby, "🎲")  # Random: back to no pick
        assert f"<@{bob.id}> — deck" not in lobby.text()
        lobby = await _choose(h, bob, lobby, "low")
        old = lobby.snapshot()
        started = await h.press(alice, lobby, "Start")
        assert "started" in started.text() and "deck: High cards" in started.text()
        await h.settle()
        info = await h.sessions.get(mid)
        assert info.options == {"seat_choices": [{"deck": "high"}, {"deck": "low"}]}  # nothing else added
        view = await h.sessions.view_for(mid, None)
        assert [p["deck"] for p in view["players"]] == ["high", "low"]
        late = await _choose(h, bob, old, "high")  # a select on the lobby as it was before Start
        assert late.ephemeral and "started" in late.text()
        assert (await h.sessions.get(mid)).options == info.options and thread.id == info.channel_id


async def test_a_window_pings_offers_pass_and_passes_by_itself(
    toy: HighCard, fake: FakeDiscord, tmp_path: Path
) -> None:
    """After alice draws, bob's jeer window: the board (alice's, edited: a window posts no message and pings
    nobody) names him in the window's words, his menu has Jeer and Pass, and at the server's wait (60 s by
    default, counted from the window, whatever the hands) the bot passes for him and says so under the
    board."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await h.started_game(alice, bob, toy.id)
        turn_board = h.board(thread)
        await _draw(h, alice, thread)
        info = await h.sessions.get(mid)
        assert info.window == "Jeer window" and info.users_to_act == (bob.id,)
        since = info.updated_at
        assert info.deadline == since + MIN
        board = h.board(thread)
        assert board.id == turn_board.id and board.edit_count  # the same message, edited
        assert board.text().startswith(f"<@{bob.id}>, Jeer window: play one or pass")
        assert not board.pinged(bob)  # the message pinged alice for her turn, nobody since
        assert f"passes by itself <t:{int(since + MIN)}:R>" in board.text()
        hand = await h.press(bob, board, HAND)
        assert [b["label"] for b in hand.buttons] == ["Jeer", "Pass", WHAT]
        assert "**Jeer window** — play one, or press **Pass**" in hand.text()

        assert await h.bot.timers.tick(since + MIN - 1) == 0  # not yet
        h.clock[0] = since + MIN
        assert await h.bot.timers.tick() == 1
        await h.settle()
        rows = await h.store.load_log(mid)
        assert [(r.seat, r.key) for r in rows] == [(0, "draw"), (1, "pass")]
        assert not [m.text() for m in fake.public(thread) if m.text().startswith("⏳")]
        assert "⏳ bob let the Jeer window pass." in h.board(thread).text()
        after = await h.sessions.get(mid)
        assert after.window == "" and after.users_to_act == (bob.id,)  # bob's own turn: no wait of a window
        assert after.deadline is not None and after.deadline - after.updated_at > 3600

        waits = [(info.deadline or 0) - since]  # the same wait for every window, whatever the hands
        for drawer, other in ((bob, alice), (alice, bob), (bob, alice)):
            await _draw(h, drawer, thread)
            info = await h.sessions.get(mid)
            if not info.window:
                break  # someone reached 21
            waits.append((info.deadline or 0) - info.updated_at)
            answer = await h.press(other, h.board(thread), HAND)
            await h.press(other, answer, "Pass")
            await h.settle()
        assert len(waits) > 1 and set(waits) == {MIN}


async def test_config_response_wait_changes_the_wait_and_zero_disables(
    toy: HighCard, fake: FakeDiscord, tmp_path: Path
) -> None:
    """/config response_wait (seconds) shows in the listing; 5 passes a window at 5 s; 0 never passes one."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    admin = fake.add_user("admin", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        shown = await h.config(admin)
        assert "Response windows pass by themselves after: 1 min" in shown.text()
        shown = await h.config(admin, response_wait=5)
        assert "Response windows pass by themselves after: 5 s" in shown.text()
        thread, mid = await h.started_game(alice, bob, toy.id)
        await _draw(h, alice, thread)
        info = await h.sessions.get(mid)
        assert info.window and info.deadline == info.updated_at + 5
        assert await h.bot.timers.tick(info.updated_at + 5) == 1
        await h.settle()
        assert (await h.store.load_log(mid))[-1].key == "pass"

        shown = await h.config(admin, response_wait=0)
        assert "Response windows pass by themselves after: never" in shown.text()
        await _draw(h, bob, thread)
        info = await h.sessions.get(mid)
        assert info.window and info.users_to_act == (alice.id,)
        assert info.deadline == info.updated_at + 12 * 3600  # only the server's reminder
        assert "passes by itself" not in h.board(thread).text()
        assert await h.bot.timers.tick(info.updated_at + 3600) == 0
        assert (await h.sessions.get(mid)).state_id == info.state_id


def test_the_loop_sleeps_until_the_nearest_deadline() -> None:
    """The interval, or just past a sooner deadline, never under MIN_PAUSE (an overdue one never spins)."""
    assert pause_for(1000.0, None, 30.0) == 30.0
    assert pause_for(1000.0, 1100.0, 30.0) == 30.0
    assert pause_for(1000.0, 1010.0, 30.0) == pytest.approx(10.0 + LATE)
    assert pause_for(1000.0, 990.0, 30.0) == MIN_PAUSE


async def test_the_running_loop_passes_a_window_in_time(
    toy: HighCard, fake: FakeDiscord, tmp_path: Path
) -> None:
    """With the real loop (a 30-s interval) and a real clock, a 2-s window opened while the loop sleeps
    passes about 2 s later: the new deadline wakes the loop."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    admin = fake.add_user("admin", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        await h.config(admin, response_wait=2)
        thread, mid = await h.started_game(alice, bob, toy.id)
        base, t0 = h.clock[0], time.monotonic()
        h.sessions.clock = lambda: base + (time.monotonic() - t0)
        h.bot.timers.interval = 30.0
        h.bot.timers.start()
        await asyncio.sleep(0.2)  # the loop has checked once and sleeps for the interval
        await _draw(h, alice, thread)
        opened = time.monotonic()
        await fake.wait_until(
            lambda: "⏳ bob let" in h.board(thread).text(), timeout=10, what="the window passing by itself"
        )
        assert 1.5 <= time.monotonic() - opened <= 2 + MIN_PAUSE + 2
        await h.bot.timers.stop()
        assert (await h.store.load_log(mid))[-1].key == "pass"
