"""Ophelia end to end through the fake Discord: decks picked in the lobby, a character played from the
hand menu, the Turning Point window pinging the opponent and passing by itself, a restart mid-game, and the
game played to its end."""

from __future__ import annotations

from pathlib import Path

from bot.sessions.types import ASK
from tests.discord_harness import HAND, Harness
from tests.fakediscord import FakeDiscord

CHOOSE = "Choose your Deck (random if none)"


async def test_an_ophelia_game_in_discord(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    people = {alice.id: alice, bob.id: bob}
    async with Harness.started(fake, tmp_path) as h:
        await h.windows(ASK, alice, bob)  # every window waits for them, whatever they hold
        thread, lobby, mid = await h.open_lobby(alice, "ophelia")
        info = await h.start_match(
            alice, await h.take_seats(alice, bob, lobby, CHOOSE, ("crown", "tide")), mid
        )
        assert info.options == {"seat_choices": [{"deck": "crown"}, {"deck": "tide"}]}
        view = await h.sessions.view_for(mid, None)
        assert [p["deck_name"] for p in view["players"]] == ["Crown", "Tide"]

        # The turn player opens their hand (an image and the moves) and plays a character.
        mover = people[info.users_to_act[0]]
        other = bob if mover is alice else alice
        hand = await h.press(mover, h.board(thread), HAND)
        assert hand.ephemeral and hand.attachments
        played = await h.play_through(mover, thread, "Play a character")
        assert "into slot" in played.text()
        await h.settle()
        view = await h.sessions.view_for(mid, None)
        assert any(u for row in view["slots"] for u in row)

        # Ending the Action Phase opens the opponent's Turning Point window: a ping, a Pass, and a pass by
        # itself after the server's wait.
        while (await h.sessions.get(mid)).users_to_act == (mover.id,):
            hand = await h.press(mover, h.board(thread), HAND)
            labels = [b["label"] for b in hand.buttons]
            if "End the Action Phase" in labels:
                await h.press(mover, hand, "End the Action Phase")
            elif "Pass" in labels:  # a Claim or a "you may" of the card just played
                await h.press(mover, hand, "Pass")
            else:
                await h.play_through(mover, thread, labels[0])
            await h.settle()
        info = await h.sessions.get(mid)
        assert info.window == "Turning Point window" and info.users_to_act == (other.id,)
        await h.offers_pass(thread, info, other)
        assert info.deadline == info.updated_at + 60
        await h.lets_pass(thread, info, other)

        await h.finish_after_restart(mid, thread, people)
        view = await h.sessions.view_for(mid, None)
        assert max(p["points"] for p in view["players"]) >= 5
