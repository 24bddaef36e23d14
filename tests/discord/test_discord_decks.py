"""/deck and saved decks in the lobby, end to end through the fake Discord, nothing in bot/ naming a game: a
toy game (High Card, tests/toygame.py) whose presentation offers Ophidian 2350's real deck builder for a
"team" seat choice. A deck is written in a form, refused with every problem listed (nothing saved, the text
kept, Edit and try again), saved, listed, shown as text to copy, deleted, and brought to a lobby, where the
match is dealt with a copy of it (options["decks"]) and without that seat's pick for the choice."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from bot.sessions import SessionError
from bot.sessions.decks import MAX_DECKS, DeckProblems, deck_games
from bot.sessions.lobby import NOT_JOINED
from engine.games.ophidian.cards import TEAM_CHOICE, TEAMS
from engine.games.ophidian.decks import BOOK, deck_of
from tests.discord_harness import Harness
from tests.fakediscord import FakeDiscord, FakeInteraction, FakeMessage, FakeUser
from tests.toygame import HighCard, Present, registered

CHOOSE = "Choose your Team (random if none)"
MARROW = deck_of(TEAMS["mind_and_marrow"])


class DeckPresent(Present):
    """High Card's presentation plus a team choice and a deck builder for it."""

    choices = (*Present.choices, TEAM_CHOICE)
    deck_book = BOOK


class DeckCard(HighCard):
    """High Card with decks to build (the game itself ignores the team: the front end is under test)."""

    id: ClassVar[str] = "deckcard"
    title: ClassVar[str] = "Deck Card"
    present: ClassVar[Any] = DeckPresent


@pytest.fixture
def toy() -> Iterator[DeckCard]:
    with registered(DeckCard()) as game:
        yield game


async def _open_form(fake: FakeDiscord, user: FakeUser, name: str | None = "Tide v2") -> FakeInteraction:
    options = {"game": "deckcard"} | ({"name": name} if name is not None else {})
    ix = await fake.slash(user, fake.channel, "deck save", options)
    await ix.wait_callback()
    assert ix.modal is not None, ix.describe()
    return ix


def _inputs(modal: dict[str, Any]) -> dict[str, str]:
    """The text inputs of a form as {custom_id: value it opens with}."""
    found = {}
    for row in modal["components"]:
        for c in row.get("components") or [row.get("component")]:
            found[c["custom_id"]] = c.get("value") or ""
    return found


async def _submit(fake: FakeDiscord, user: FakeUser, opened: FakeInteraction, **values: str) -> FakeMessage:
    return await (await fake.submit_modal(user, opened, values)).wait_reply()


async def _complete(
    fake: FakeDiscord, user: FakeUser, command: str, focused: str, **options: str
) -> list[str]:
    """The values the bot suggests for the option being typed."""
    ix = await fake.autocomplete(user, fake.channel, command, options, focused)
    await ix.wait_callback()
    return [c["value"] for c in ix.choices]


async def _slash(fake: FakeDiscord, user: FakeUser, command: str, **options: str) -> FakeMessage:
    return await (await fake.slash(user, fake.channel, command, options)).wait_reply()


async def test_save_list_show_and_delete_a_deck(toy: DeckCard, fake: FakeDiscord, tmp_path: Path) -> None:
    alice = fake.add_user("alice")
    async with Harness.started(fake, tmp_path) as h:
        # Only the games with a deck builder are offered.
        offered = await _complete(fake, alice, "deck save", "game", game="")
        assert "deckcard" in offered and offered == [g.id for g in deck_games()] and "omphala" not in offered
        assert await _complete(fake, alice, "deck save", "game", game="card") == ["deckcard"]
        refused = await _slash(fake, alice, "deck list", game="omphala")
        assert refused.ephemeral and refused.text().startswith("Omphala has no decks to build. Decks can be")
        assert "Deck Card" in refused.text()

        # The form opens with the game's example; a deck with problems is refused, every problem listed.
        form = await _open_form(fake, alice)
        assert form.modal is not None and form.modal["title"] == "Deck Card deck"
        assert _inputs(form.modal) == {"name": "Tide v2", "deck": BOOK.example}
        bad = BOOK.example.replace("Brakka Vohl", "Brakka").replace("3 Pit Hound", "4 Pit Hound")
        answer = await _submit(fake, alice, form, deck=bad)
        assert answer.ephemeral and answer.visible_to == alice.id
        assert answer.embeds[0]["title"] == "**Tide v2** was not saved: Deck Card says"
        assert answer.embeds[0]["description"] == (
            "2 problems to fix:\n"
            "• line 2: there is no Gladiator called 'Brakka' — did you mean Brakka Vohl?\n"
            "• 4 copies of Pit Hound: at most 3 of a title"
        )
        assert (
            answer.embeds[1]["title"] == "Your text" and answer.embeds[1]["description"] == f"```\n{bad}\n```"
        )
        assert await h.store.decks(alice.id, "deckcard") == []  # nothing saved

        # Edit and try again: the form opens again with the text as it was written.
        again = await fake.click(alice, answer, "Edit and try again")
        await again.wait_callback()
        assert again.modal is not None and _inputs(again.modal) == {"name": "Tide v2", "deck": bad}
        saved = await _submit(fake, alice, again, deck=BOOK.example)
        assert saved.ephemeral and saved.text().startswith(
            "✅ Saved **Tide v2** for Deck Card (1 of your 25)."
        )
        stored = await h.store.deck(alice.id, "deckcard", "tide V2")
        assert stored is not None and stored.name == "Tide v2"
        assert stored.deck == {**deck_of(TEAMS["iron_tide"]), "name": "Tide v2"}

        # Another one, then the list, the names offered as you type, and a deck shown as text to copy.
        marrow = await _open_form(fake, alice, "Marrow")
        await _submit(fake, alice, marrow, deck=BOOK.text(MARROW))
        listed = await _slash(fake, alice, "deck list")
        assert listed.ephemeral and listed.embeds[0]["title"] == "Your saved decks"
        field = {"name": "Deck Card", "value": "2 of 25: **Marrow** · **Tide v2**", "inline": False}
        assert field in listed.embeds[0]["fields"]
        assert await _complete(fake, alice, "deck show", "name", game="deckcard", name="ti") == ["Tide v2"]
        shown = await _slash(fake, alice, "deck show", game="deckcard", name="marrow")
        assert shown.ephemeral and f"```\n{BOOK.text({**MARROW, 'name': 'Marrow'})}\n```" in shown.text()
        assert shown.text().startswith("**Marrow** (Deck Card) — copy it")
        example = await _slash(fake, alice, "deck show", game="deckcard")
        assert f"```\n{BOOK.example}\n```" in example.text() and "ready Deck Card deck" in example.text()
        edit = await fake.click(alice, shown, "Edit")  # Edit on a shown deck: the form with that deck
        await edit.wait_callback()
        assert edit.modal is not None and _inputs(edit.modal)["deck"] == BOOK.text(
            {**MARROW, "name": "Marrow"}
        )
        missing = await _slash(fake, alice, "deck show", game="deckcard", name="nope")
        assert missing.content == "You have no Deck Card deck called 'nope'; `/deck list` shows yours."

        # Deleting one: its text is given back once more; it is gone from the list.
        gone = await _slash(fake, alice, "deck delete", game="deckcard", name="MARROW")
        assert gone.ephemeral and gone.text().startswith("🗑️ Deleted your Deck Card deck **Marrow**.")
        assert "Its text, should you want it back:" in gone.text() and "Kestrel Nine" in gone.text()
        assert [d.name for d in await h.store.decks(alice.id, "deckcard")] == ["Tide v2"]
        again_gone = await _slash(fake, alice, "deck delete", game="deckcard", name="Marrow")
        assert "You have no Deck Card deck called 'Marrow'" in again_gone.text()


async def test_names_and_the_limit_keep_the_text(toy: DeckCard, fake: FakeDiscord, tmp_path: Path) -> None:
    """A blank name or a 26th deck is refused politely, and the text written is kept all the same."""
    alice = fake.add_user("alice")
    async with Harness.started(fake, tmp_path) as h:
        form = await _open_form(fake, alice, None)
        assert _inputs(form.modal or {}) == {"name": "", "deck": BOOK.example}
        blank = await _submit(fake, alice, form, name="   ", deck=BOOK.example)
        assert "A deck needs a name" in blank.text() and blank.embeds[1]["title"] == "Your text"
        for i in range(MAX_DECKS):
            await h.sessions.save_deck(alice.id, "deckcard", f"Deck {i}", BOOK.example)
        full = await _submit(fake, alice, await _open_form(fake, alice, "One more"), deck=BOOK.example)
        assert f"You already have {MAX_DECKS} Deck Card decks" in full.text()
        assert len(await h.store.decks(alice.id, "deckcard")) == MAX_DECKS
        same = await _submit(fake, alice, await _open_form(fake, alice, "deck 3"), deck=BOOK.text(MARROW))
        assert same.text().startswith("✅ Saved **deck 3**")  # saving over one of them is fine
        with pytest.raises(SessionError, match="at most 32 characters"):
            await h.sessions.save_deck(alice.id, "deckcard", "x" * 33, BOOK.example)
        with pytest.raises(DeckProblems) as e:
            await h.sessions.save_deck(alice.id, "deckcard", "Empty", "")
        assert e.value.problems[0].startswith("there is no Gladiators line")


async def test_bring_a_saved_deck_to_a_lobby(toy: DeckCard, fake: FakeDiscord, tmp_path: Path) -> None:
    """The team select offers "One of my saved decks", which opens the person's own decks privately (and
    whoever joins with decks gets them); the match is dealt with a copy of the deck in options["decks"]."""
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    async with Harness.started(fake, tmp_path) as h:
        await h.sessions.save_deck(alice.id, "deckcard", "Tide v2", BOOK.example)
        await h.sessions.save_deck(bob.id, "deckcard", "Marrow", BOOK.text(MARROW))
        _, lobby, mid = await h.open_lobby(alice, toy.id)
        # two seat choices and response windows fill the lobby's rows: the clock select gives way
        placeholders = [s.get("placeholder", "") for s in lobby.selects]
        assert not any(p.startswith("Clock") for p in placeholders) and any(
            p.startswith("Pace") for p in placeholders
        )
        assert "**Clock:** per move" in lobby.text() and "may change it below.\n**Pace" not in lobby.text()
        menu = lobby.select(CHOOSE)
        assert [o["label"] for o in menu["options"]] == [
            "Iron Tide", "Mind and Marrow", "One of my saved decks…", "Random"
        ]  # fmt: skip
        stranger = await h.pick_choice(carol, lobby, "📂", CHOOSE)
        assert stranger.ephemeral and stranger.content == NOT_JOINED

        mine = await h.pick_choice(alice, lobby, "📂", CHOOSE)
        assert (
            mine.ephemeral
            and mine.visible_to == alice.id
            and mine.text().startswith("📂 Your saved Deck Card")
        )
        assert mine.option_values() == {"Tide v2 (yours)": "Tide v2"}
        chosen = await (await fake.select(alice, mine, ["Tide v2"])).wait_reply()
        assert chosen.content == f"✅ You bring your deck **Tide v2** to game #{mid}." and not chosen.selects
        await fake.wait_until(
            lambda: "team: Tide v2 (saved deck)" in fake.message(lobby.id).text(), what="redraw"
        )

        # bob joins: his own decks are offered to him privately at once.
        join = await fake.click(bob, fake.message(lobby.id), "Join")
        offer = await join.wait_followup()
        assert (
            offer.ephemeral
            and offer.visible_to == bob.id
            and offer.option_values() == {"Marrow (yours)": "Marrow"}
        )
        await (await fake.select(bob, offer, ["Marrow"])).wait_reply()
        lobby = await h.pick_choice(
            bob, fake.message(lobby.id), "mind_and_marrow", CHOOSE
        )  # changed his mind
        assert f"<@{bob.id}> — team: Mind and Marrow" in lobby.text()
        assert (
            "brought" in (await h.sessions.get(mid)).options
            and str(bob.id) not in ((await h.sessions.get(mid)).options["brought"])
        )
        carol_join = await fake.click(carol, lobby, "Join")
        await carol_join.wait_reply()
        assert carol_join.followups == []  # no decks, no offer
        lobby = await h.press(carol, fake.message(lobby.id), "Leave")

        # A deck that no longer follows the rules is refused when it is brought, every problem listed.
        await h.store.save_deck(alice.id, "deckcard", "Old", {**MARROW, "arsenal": {"pit_hound": 4}}, 1.0)
        mine = await h.pick_choice(alice, fake.message(lobby.id), "📂", CHOOSE)
        refused = await (await fake.select(alice, mine, ["Old"])).wait_reply()
        assert refused.ephemeral and "no longer follows the rules" in refused.text()
        assert "4 copies of Pit Hound: at most 3 of a title" in refused.text()
        assert "team: Tide v2 (saved deck)" in fake.message(lobby.id).text()  # still the deck it brought

        await h.restart()  # the picks and the deck brought are stored with the lobby
        started = await h.press(alice, fake.message(lobby.id), "Start")
        assert "team: Tide v2 (saved deck)" in started.text() and "team: Mind and Marrow" in started.text()
        await h.settle()
        info = await h.sessions.get(mid)
        tide = {**deck_of(TEAMS["iron_tide"]), "name": "Tide v2"}
        assert info.options == {"seat_choices": [{}, {"team": "mind_and_marrow"}], "decks": [tide, None]}
        await h.sessions.delete_deck(alice.id, "deckcard", "Tide v2")  # the match keeps its own copy
        assert (await h.sessions.get(mid)).options["decks"][0] == tide


async def test_decks_in_the_session_manager(toy: DeckCard, fake: FakeDiscord, tmp_path: Path) -> None:
    """pick_deck: only seated people, only decks they have; a ready pick or leaving drops the deck."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        s = h.sessions
        await s.save_deck(alice.id, "deckcard", "Tide", BOOK.example)
        await s.save_deck(bob.id, "deckcard", "Tide", BOOK.example)
        info = await s.create(None, None, "deckcard", alice.id, origin="console")
        with pytest.raises(SessionError, match="no Deck Card deck called 'Nope'"):
            await s.pick_deck(info.id, alice.id, "Nope")
        with pytest.raises(SessionError, match="Join"):
            await s.pick_deck(info.id, bob.id, "Tide")
        await s.join(info.id, bob.id, "Bob")
        await s.pick_deck(info.id, alice.id, "tide")
        await s.pick_deck(info.id, bob.id, "Tide")
        info = await s.pick(info.id, alice.id, "team", "iron_tide")
        assert list(info.options["brought"]) == [str(bob.id)]
        assert info.options["picks"] == {
            str(alice.id): {"team": "iron_tide"},
            str(bob.id): {"team": "saved:Tide"},
        }
        info = await s.leave(info.id, bob.id)
        assert "brought" not in info.options and info.options["picks"] == {
            str(alice.id): {"team": "iron_tide"}
        }
        info = await s.pick_deck(info.id, alice.id, "Tide")
        await s.add_ai(info.id, alice.id, "random")
        info = await s.start(info.id, alice.id)
        assert info.options["seat_choices"] == [{}, {}] and info.options["decks"][1] is None
        assert info.options["decks"][0]["name"] == "Tide"
        with pytest.raises(SessionError, match="Omphala has no decks to build"):
            await s.save_deck(alice.id, "omphala", "x", BOOK.example)
