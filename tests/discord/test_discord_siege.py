"""Siege of Olympus end to end through the fake Discord: Commanders picked in the lobby, the mulligan as a
choice, a minion summoned from the hand menu, an Ambush/Disrupt window pinging the opponent and passing by
itself, a restart mid-game, and the game played to its end."""

from __future__ import annotations

from pathlib import Path

from bot.sessions.types import ASK
from tests.discord_harness import HAND, Harness
from tests.fakediscord import FakeDiscord

CHOOSE = "Choose your Commander (random if none)"
OPENERS = ("Summon a minion", "Play a spell", "Attack", "Use an artifact", "Commander's power")


async def test_a_siege_game_in_discord(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    people = {alice.id: alice, bob.id: bob}
    async with Harness.started(fake, tmp_path) as h:
        await h.windows(ASK, alice, bob)  # every window waits for them, whatever they hold
        thread, lobby, mid = await h.open_lobby(alice, "siege_of_olympus")
        info = await h.start_match(
            alice, await h.take_seats(alice, bob, lobby, CHOOSE, ("gaia", "typhon")), mid
        )
        assert info.options == {"seat_choices": [{"commander": "gaia"}, {"commander": "typhon"}]}
        view = await h.sessions.view_for(mid, None)
        assert [p["commander"] for p in view["players"]] == ["gaia", "typhon"]

        # The mulligan: each player in turn keeps their hand (the first player first).
        for _ in range(2):
            user = people[(await h.sessions.get(mid)).users_to_act[0]]
            hand = await h.press(user, h.board(thread), HAND)
            assert hand.ephemeral and hand.attachments
            assert "Keep your hand" in [b["label"] for b in hand.buttons]
            await h.press(user, hand, "Keep your hand")
            await h.settle()
        view = await h.sessions.view_for(mid, None)
        assert view["phase"] == "deploy" and len(view["tartarus"]) == 6 and 4 <= len(view["agora"]) <= 6

        # The turn player summons, plays and attacks until the other player gets a response window: a
        # ping, a Pass, and a pass by itself after the server's wait.
        for _ in range(60):
            info = await h.sessions.get(mid)
            if info.window:
                break
            mover = people[info.users_to_act[0]]
            hand = await h.press(mover, h.board(thread), HAND)
            labels = [b["label"] for b in hand.buttons]
            opener = next((o for o in OPENERS if o in labels), None)
            if opener:
                await h.play_through(mover, thread, opener)
            elif "Pass" in labels:
                await h.press(mover, hand, "Pass")
            else:
                await h.play_move(mover, thread)
            await h.settle()
        info = await h.sessions.get(mid)
        assert info.window.endswith("window"), info
        other = people[info.users_to_act[0]]
        await h.offers_pass(thread, info, other)
        await h.lets_pass(thread, info, other)

        await h.finish_after_restart(mid, thread, people)
        view = await h.sessions.view_for(mid, None)
        assert view["result"]["winners"]
