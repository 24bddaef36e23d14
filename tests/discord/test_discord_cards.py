"""/card and its autocomplete work for every registered game, from the game's own catalogue, within Discord's
limits (the fake refuses more than 25 choices, names over 100 characters and messages over 2,000)."""

from __future__ import annotations

from pathlib import Path

from engine.registry import games
from engine.table.present import of
from tests.discord_harness import Harness
from tests.fakediscord import FakeDiscord


async def test_card_for_ophion(fake: FakeDiscord, tmp_path: Path) -> None:
    bob = fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        del h
        card = await (
            await fake.slash(bob, fake.channel, "card", {"game": "ophion", "name": "Goblin"})
        ).wait_reply()
        assert card.ephemeral and "**Goblin**" in card.text() and "monster" in card.text()
        assert "Attack **" in card.text() and "Defense **" in card.text() and "Cost **" in card.text()
        ix = await fake.autocomplete(
            bob, fake.channel, "card", {"game": "ophion", "name": "gob"}, focused="name"
        )
        await ix.wait_callback()
        assert [c["name"] for c in ix.choices] == ["Goblin"] and ix.choices[0]["value"] == "goblin"
        by_id = await (
            await fake.slash(bob, fake.channel, "card", {"game": "ophion", "name": "goblin"})
        ).wait_reply()
        assert by_id.content == card.content


async def test_card_suggestions_and_polite_refusals(fake: FakeDiscord, tmp_path: Path) -> None:
    bob = fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        del h
        for game_id, game in games().items():  # every game with cards: 25 suggestions at most, all valid
            ix = await fake.autocomplete(
                bob, fake.channel, "card", {"game": game_id, "name": ""}, focused="name"
            )
            await ix.wait_callback()
            entries = of(game).catalogue()
            assert len(ix.choices) == min(25, len(entries))
            assert all(1 <= len(c["name"]) <= 100 for c in ix.choices)
        ix = await fake.autocomplete(bob, fake.channel, "card", {"name": "o"}, focused="name")
        await ix.wait_callback()
        assert ix.choices and all(" · " in c["name"] for c in ix.choices)  # no game yet: each says its game
        long = "x" * 3000
        reply = await (
            await fake.slash(bob, fake.channel, "card", {"game": "ophion", "name": long})
        ).wait_reply()
        assert reply.ephemeral and "longer than any card name" in reply.text() and long not in reply.text()
        none = await (
            await fake.slash(bob, fake.channel, "card", {"game": "ophion", "name": "Unicorn"})
        ).wait_reply()
        assert "no card called `Unicorn`" in none.text()
