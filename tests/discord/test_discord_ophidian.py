"""Ophidian 2350 end to end through the fake Discord: ready teams picked in the lobby, the setup's 2 cards to
the bottom and the arrangement done with the hand menu's buttons, a card played and attacks made, a response
window offered to the player without The Flow, pinged and passed by itself after the server's wait (the same
wait whether or not the hand holds a response), a restart with a window open, a response played after it,
and the game played to its end."""

from __future__ import annotations

from pathlib import Path

from bot.sessions.types import ASK
from engine.games.ophidian.cards import CARDS
from tests.discord_harness import HAND, NAV, Harness
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser

CHOOSE = "Choose your Team (random if none)"
WAIT = 45.0  # /config response_wait, seconds
RESPONSES = {c.name for c in CARDS.values() if c.flag("response")}
# The answers that move a game on soonest: passes, and the Breather's "no more".
QUICK = (
    "Pass",
    "Pass (−)",
    "Keep the rest of your hand",
    "Pay for no more (scrap the rest)",
    "Promote nobody",
    "No more Reinforcements",
    "Done arranging",
)


def _labels(message: FakeMessage) -> list[str]:
    return [b["label"] for b in message.buttons if b["label"] not in (*NAV, "↩ Undo")]


async def _play(h: Harness, user: FakeUser, thread: FakeChannel, *labels: str) -> FakeMessage:
    """Open the hand menu, press `labels` in turn, then the first option at each level until a move is
    played; what the user then sees."""
    shown = await h.press(user, h.board(thread), HAND)
    assert shown.ephemeral and shown.visible_to == user.id
    for label in labels:
        shown = await h.press(user, shown, label)
    for _ in range(6):
        if "✅ You played" in shown.text():
            await h.settle()
            return shown
        if shown.selects:
            first = next(iter(shown.option_values().values()))
            shown = await (await h.fake.select(user, shown, [first])).wait_reply()
        else:
            shown = await h.press(user, shown, _labels(shown)[0])
    raise AssertionError(f"no move was played: {shown.text()}")


async def _holds_response(h: Harness, mid: int, user: FakeUser) -> bool:
    """Whether the open window offers the user a response card (their moves, not the board, tell)."""
    return any(m.path[0] == "Respond" for m in await h.sessions.moves_for(mid, user.id))


async def _quick(h: Harness, user: FakeUser, thread: FakeChannel) -> None:
    """Play the quickest answer offered (the Wave's pass, a window's Pass, the Breather's "no more"), else
    the first option at each level (the cards to put on the bottom)."""
    hand = await h.press(user, h.board(thread), HAND)
    quick = next((q for q in QUICK if q in _labels(hand)), None)
    if quick is not None:
        played = await h.press(user, hand, quick)
        assert f"✅ You played **{quick}**" in played.text(), played.text()
    else:
        await _play(h, user, thread)


async def test_an_ophidian_game_in_discord(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    admin = fake.add_user("admin", admin=True)
    people = {alice.id: alice, bob.id: bob}
    async with Harness.started(fake, tmp_path) as h:
        await h.windows(ASK, alice, bob)  # every window waits for them, whatever they hold
        said = await (await fake.slash(admin, fake.channel, "config", {"response_wait": WAIT})).wait_reply()
        assert "Response windows pass by themselves after: 45 s" in said.text()

        # The lobby: each player picks a ready team.
        thread, lobby, mid = await h.open_lobby(alice, "ophidian")
        assert lobby.option_values(CHOOSE) == {
            "Iron Tide": "iron_tide",
            "Mind and Marrow": "mind_and_marrow",
            "Random": "🎲",
            "One of my saved decks…": "📂",  # Ophidian has a deck builder (/deck)
        }
        lobby = await h.take_seats(alice, bob, lobby, CHOOSE, ("iron_tide", "mind_and_marrow"))
        assert "team: Iron Tide" in lobby.text() and f"<@{bob.id}> — team: Mind and Marrow" in lobby.text()
        info = await h.start_match(alice, lobby, mid)
        assert info.options == {"seat_choices": [{"team": "iron_tide"}, {"team": "mind_and_marrow"}]}
        view = await h.sessions.view_for(mid, None)
        assert [p["team"] for p in view["players"]] == ["Iron Tide", "Mind and Marrow"]
        assert [p["hand_size"] for p in view["players"]] == [9, 9]

        # Setup: each puts 2 cards on the bottom of the Arsenal (the player with The Flow first), keeping
        # the response cards; the menu goes straight to the cards, and there is no Pass.
        first = people[info.users_to_act[0]]
        assert "putting 2 cards on the bottom" in h.board(thread).text()
        for _ in range(4):
            user = people[(await h.sessions.get(mid)).users_to_act[0]]
            hand = await h.press(user, h.board(thread), HAND)
            assert hand.attachments and "Put on the bottom of your Arsenal › …" in hand.text()
            assert "Pass" not in _labels(hand)
            card = next(c for c in _labels(hand) if c not in RESPONSES)
            played = await h.press(user, hand, card)
            assert f"✅ You played **Put on the bottom of your Arsenal › {card}**" in played.text()
            await h.settle()
        view = await h.sessions.view_for(mid, None)
        assert [p["hand_size"] for p in view["players"]] == [7, 7]

        # Arranging: the first player moves a Gladiator to the Support Field, then both are done.
        assert "arranging the teams" in h.board(thread).text()
        moved = await _play(h, first, thread, "Move to the Support Field")
        assert f"✅ You played **Move to the Support Field › {first.name}'s " in moved.text()
        for _ in range(2):
            user = people[(await h.sessions.get(mid)).users_to_act[0]]
            await _play(h, user, thread, "Done arranging")
        view = await h.sessions.view_for(mid, None)
        assert view["phase"] == "wave" and view["wave"] == 1
        seat = 0 if first is alice else 1
        assert [c["field"] for c in view["players"][seat]["characters"]].count("support") == 1

        # Wave 1: the player with The Flow plays a card; the other's window pings them, offers Pass, and
        # passes by itself at the configured wait.
        mover = people[(await h.sessions.get(mid)).users_to_act[0]]
        other = bob if mover is alice else alice
        assert view["flow"] == seat and mover is first
        hand = await h.press(mover, h.board(thread), HAND)
        assert {"Play a card", "Attack (+)", "Pass (−)"} <= set(_labels(hand))
        played = await _play(h, mover, thread, "Play a card")
        assert "✅ You played **Play a card ›" in played.text()
        info = await h.sessions.get(mid)
        assert info.window == "Response window" and info.users_to_act == (other.id,)
        since = info.updated_at
        assert info.deadline == since + WAIT
        board = h.board(thread)
        assert board.text().startswith(f"<@{other.id}>, Response window: play one or pass")
        assert not board.pinged(other)  # a window edits the board: it names, never pings
        assert f"passes by itself <t:{int(since + WAIT)}:R>" in board.text()
        assert "play a response to the card your opponent plays, or pass" in board.text()
        menu = await h.press(other, board, HAND)
        assert "**Response window** — play one, or press **Pass**" in menu.text()
        assert _labels(menu)[-1] == "Pass"
        assert (await h.sessions.view_for(mid, None))["flow"] == seat  # offered to the one without it
        waits = [(info.window, await _holds_response(h, mid, other), info.deadline - since)]
        assert await h.bot.timers.tick(since + WAIT - 1) == 0  # not yet
        await h.lets_pass(thread, info, other)  # at since + WAIT
        rows = await h.store.load_log(mid)
        assert (rows[-1].seat, rows[-1].key) == (1 - seat, "pass")

        # Play on: the player with The Flow attacks once and then passes it; every window is answered with
        # Pass (its wait noted) until one offers a response card.
        attacked: set[int] = set()
        for _ in range(60):
            info = await h.sessions.get(mid)
            user = people[info.users_to_act[0]]
            if info.window:
                holds = await _holds_response(h, mid, user)
                waits.append((info.window, holds, info.deadline - info.updated_at))
                assert user.mention in h.board(thread).text()
                if holds and info.window == "Response window":
                    break
                passed = await _play(h, user, thread, "Pass")
                assert "✅ You played **Pass**" in passed.text()
                continue
            view = await h.sessions.view_for(mid, None)
            labels = _labels(await h.press(user, h.board(thread), HAND))
            if info.users_to_act[0] != info.seats[view["flow"]].user_id or "Pass (−)" not in labels:
                await _play(h, user, thread)  # a choice of the card or ability under way
            elif view["flow"] not in attacked and "Attack (+)" in labels:
                attacked.add(view["flow"])
                played = await _play(h, user, thread, "Attack (+)")
                assert "attacks" in played.text()
            else:
                await _play(h, user, thread, "Pass (−)")
        else:
            raise AssertionError("no window offered a response")
        assert attacked  # an attack made through the menu
        assert {"Response window", "Defence window"} <= {window for window, _, _ in waits}
        assert {holds for _, holds, _ in waits} == {True, False}
        assert {wait for _, _, wait in waits} == {WAIT}  # the same wait, whatever the hand holds
        view = await h.sessions.view_for(mid, None)
        responder = user
        assert view["flow"] != info.seat_of(responder.id) and view["attack"] is not None

        await h.restart()  # a restart in the middle of the game, with the window open
        after = await h.sessions.get(mid)
        assert not after.over and after.window == info.window and after.users_to_act == (responder.id,)
        assert after.deadline == info.deadline
        menu = await h.press(responder, h.board(thread), HAND)
        assert _labels(menu) == ["Respond", "Pass"]
        played = await _play(h, responder, thread, "Respond")
        assert "✅ You played **Respond ›" in played.text()
        assert any("responds with" in t for t in (await h.sessions.view_for(mid, None))["log"])

        final = await h.play_until_over(mid, thread, people, lambda user: _quick(h, user, thread))
        assert final.over
        view = await h.sessions.view_for(mid, None)
        assert view["result"]["winners"]
        assert "Game over" in h.board(thread).text()
