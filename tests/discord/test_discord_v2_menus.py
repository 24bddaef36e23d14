"""The lobby and the hand menu as Components V2 layouts (issue 37): the lobby's words and rows in its
container within Discord's 40 components; the hand image in a media gallery with its alt text, kept while
the menu moves between levels; and a lobby posted as an embed before the upgrade whose buttons still work
and which becomes a V2 lobby at its next update."""

from __future__ import annotations

from pathlib import Path

import discord

from bot.discord.common import Look, StaticView
from bot.discord.lobby import ACTIONS, LobbyAiSelect, LobbyButton, redraw_lobby_message
from tests.discord_harness import HAND, NAV, Harness
from tests.fakediscord import FakeDiscord, FakeMessage

LOBBY_BUTTONS = list(ACTIONS.values())


def assert_v2_lobby(message: FakeMessage, title: str, mid: int) -> None:
    """A V2 lobby: no content nor embed, its title and seats in text displays, no image."""
    assert message.v2 and not message.content and not message.embeds and not message.attachments
    assert f"{title} lobby — game #{mid}" in message.text_displays()[0]
    assert any(t.startswith("**Seats (") for t in message.text_displays())


async def test_the_biggest_lobby_is_a_v2_layout_within_40_components(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Ophidian has the most rows: a seat choice (its team, with saved decks), the table's kind, the clock
    and the pace."""
    alice = fake.add_user("alice")
    async with Harness.started(fake, tmp_path) as h:
        _, lobby, mid = await h.open_lobby(alice, "ophidian")
        assert_v2_lobby(lobby, "Ophidian 2350", mid)
        assert not lobby.pings  # its seats name people (a text display), as the embed did: no ping
        assert [b["label"] for b in lobby.buttons] == LOBBY_BUTTONS
        selects = [s["custom_id"] for s in lobby.selects]
        table = [f"ag:lbtable:{mid}", f"ag:lbclock:{mid}", f"ag:lbpace:{mid}"]
        assert selects == [f"ag:lbai:{mid}", f"ag:lbch:{mid}:team", *table]
        (container,) = [c for c in lobby.components if c["type"] == 17]
        assert container["accent_color"] == 0xA855F7
        assert len(list(lobby.all_components())) <= 40
        lobby = await h.press(alice, lobby, "Add AI")
        assert "Bot 1" in lobby.text() and lobby.v2
        await h.press(alice, lobby, "Start")
        await h.settle()
        closed = fake.message(lobby.id)
        assert closed.v2 and not closed.buttons and not closed.selects
        assert "The game has started" in closed.text()
        status = await (await fake.slash(alice, fake.channel, "game status")).wait_reply()
        assert status is not None


async def test_the_hand_menu_is_v2_with_its_alt_text(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, _ = await h.started_game(alice, bob)
        hand = await h.press(alice, h.board(thread), HAND)
        assert hand.ephemeral and hand.visible_to == alice.id
        assert hand.v2 and not hand.content and not hand.embeds
        alt = hand.alt("hand.png") or ""
        assert alt.startswith("Your hand (only you can see this)") and hand.images_without_alt() == []
        assert hand.attachment("hand.png").description == alt
        assert "**Your move" in hand.text() and hand.buttons
        assert sum(map(len, hand.text_displays())) <= 4000 and len(list(hand.all_components())) <= 40
        # A level down and back: the hand image stays, with its alt text; only the prompt and buttons change.
        for label in [b["label"] for b in hand.buttons]:
            deeper = await h.press(alice, hand, label)
            if "✅ You played" in deeper.text():
                break
            assert deeper.v2 and deeper.alt("hand.png") == alt and "›" in deeper.text()
            assert [m["media"]["url"] for m in deeper.media()] == ["attachment://hand.png"]
            if "‹ Back" in [b["label"] for b in deeper.buttons]:
                back = await h.press(alice, deeper, "‹ Back")
                assert back.alt("hand.png") == alt and back.buttons
                break
        # Bob's own menu: his own hand, his own words.
        bobs = await h.press(bob, h.board(thread), HAND)
        assert bobs.visible_to == bob.id and bobs.alt("hand.png")
        played = await h.play_move(bob, thread)
        assert played.v2 and "✅ You played" in played.text()


def old_lobby(fake: FakeDiscord, thread: object, mid: int, ai_levels: tuple[str, ...]) -> FakeMessage:
    """A lobby as the code before Components V2 posted it: an embed and a classic row of its buttons."""
    old = fake.record_message(thread, fake.bot_user)  # type: ignore[arg-type]
    old.embeds = [
        {
            "type": "rich",
            "title": f"Omphala lobby — game #{mid}",
            "description": "Omphala for 2 to 6 players. Press **Join** to take a seat.",
            "color": 0xA855F7,
            "fields": [{"name": "Seats (1/6)", "value": "1. <@1> (host)", "inline": False}],
        }
    ]
    view = StaticView()
    for action in ACTIONS:
        view.add_item(LobbyButton(action, mid).item)
    options = tuple(discord.SelectOption(label=f"Bot · {x}", value=x) for x in ai_levels)
    view.add_item(LobbyAiSelect(mid, Look(options, "Add an AI of a chosen level…", 1)).item)
    old.components = view.to_components()
    return old


async def test_an_embed_lobby_from_before_the_upgrade(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, lobby, mid = await h.open_lobby(alice)
        lobby.deleted = True
        old = old_lobby(fake, thread, mid, ("easy", "hard"))
        await h.store.set_lobby_message(mid, thread.id, old.id)
        await h.restart()
        assert not old.v2 and old.embeds
        # Its buttons work after the restart; the press's update clears the embed and lays it out anew.
        joined = await h.press(bob, old, "Join")
        assert joined.id == old.id
        assert_v2_lobby(fake.message(old.id), "Omphala", mid)
        assert f"<@{bob.id}>" in fake.message(old.id).text()
        assert [b["label"] for b in fake.message(old.id).buttons] == LOBBY_BUTTONS
        # A second old lobby, updated from elsewhere (the timers, a deck chosen privately): converted too.
        other = old_lobby(fake, thread, mid, ("easy",))
        await h.store.set_lobby_message(mid, thread.id, other.id)
        await redraw_lobby_message(h.bot, h.bot.services.settings, await h.sessions.get(mid))
        assert_v2_lobby(fake.message(other.id), "Omphala", mid)
        # Its AI select (from before the upgrade) and Start still act.
        chosen = await (await fake.select(alice, old, ["hard"])).wait_reply()
        assert chosen is not None and "Bot 1 · hard" in fake.message(old.id).text()
        await h.press(alice, fake.message(old.id), "Start")
        await h.settle()
        assert (await h.sessions.get(mid)).status == "active"
        closed = fake.message(old.id)
        assert closed.v2 and not closed.buttons and "The game has started" in closed.text()
        hand = await h.press(alice, h.board(thread), HAND)
        assert hand.v2 and hand.alt("hand.png")
        assert [b["label"] for b in hand.buttons if b["label"] not in NAV]
