"""People's saved decks: each game whose presentation has a deck builder (`DeckBook`, engine/table/present.py)
lets a person save decks under names, list, read back and delete them, and bring one to a lobby (lobby.py,
`pick_deck`) instead of a ready option of the seat choice it stands in for.

A deck is saved as the JSON its game's DeckBook made of the person's text, so a refused deck is never saved;
it is checked again when it is brought to a lobby (the cards may have changed since), and the match is dealt
with a copy of it (options["decks"]), so a match never depends on a deck saved elsewhere.
"""

from __future__ import annotations

from typing import Any

from bot.sessions.base import SessionBase
from bot.sessions.types import SessionError, UserId
from bot.store import DeckRecord
from engine.core import JSON, Game
from engine.registry import games
from engine.table.present import DeckBook, deck_book_of
from engine.table.present import of as presentation_of
from engine.text import TextError, check_text, printable

MAX_DECKS = 25  # saved decks per person and game (a select menu lists at most 25)
NAME_MAX = 32  # characters in a deck's name
SAVED = "saved:"  # a lobby pick of a saved deck: "saved:<name>"
BROUGHT = "brought"  # lobby options: person -> the deck they bring (JSON), until the deal


class DeckProblems(SessionError):
    """A deck its game refused: every problem, in the game's words, and the text as it was written."""

    def __init__(self, title: str, problems: list[str], text: str = "") -> None:
        self.title, self.problems, self.text = title, problems, text
        super().__init__(f"{title}\n" + "\n".join(f"• {p}" for p in problems))


def deck_book(game: Game[Any]) -> DeckBook | None:
    """A game's deck builder, if it has one and the seat choice its decks stand in for."""
    present = presentation_of(game)
    book = deck_book_of(present)
    if book is None or not any(c.key == book.key for c in getattr(present, "choices", None) or ()):
        return None
    return book


def deck_games() -> list[Game[Any]]:
    """The registered games that have a deck builder, by title."""
    return sorted((g for g in games().values() if deck_book(g) is not None), key=lambda g: g.title)


def book_for(game_id: str) -> tuple[Game[Any], DeckBook]:
    """A game and its deck builder; a polite refusal naming the games that have one otherwise."""
    game = games().get(game_id)
    book = deck_book(game) if game is not None else None
    if game is None or book is None:
        having = [g.title for g in deck_games()]
        which = f"{game.title} has" if game is not None else f"There is no game called {game_id!r}, so it has"
        others = f"Decks can be built for: {', '.join(having)}." if having else "No game here uses decks yet."
        raise SessionError(f"{which} no decks to build. {others}")
    return game, book


def deck_name(name: str) -> str:
    """A deck's name as saved: spaces collapsed; a polite refusal when it is empty, too long or not plain
    text (engine/text.py)."""
    clean = " ".join(name.split())
    if not clean:
        raise SessionError("A deck needs a name, e.g. `Tide v2`.")
    if len(clean) > NAME_MAX:
        raise SessionError(f"A deck's name has at most {NAME_MAX} characters; that one has {len(clean)}.")
    try:
        return check_text("The deck's name", clean)
    except TextError as e:
        raise SessionError(f"{e}.") from None


def recheck(book: DeckBook, saved: DeckRecord) -> JSON:
    """A saved deck read again by its game (its cards may have changed since): its JSON, or DeckProblems."""
    name = printable(saved.name)  # a name saved before names were checked is shown, never obeyed
    try:
        text = book.text(saved.deck)
        return book.parse(text, saved.name)
    except (KeyError, TypeError, AttributeError) as e:
        raise DeckProblems(f"Your deck **{name}** can no longer be read.", [str(e)]) from None
    except ValueError as e:
        title = f"Your deck **{name}** no longer follows the rules; fix it with `/deck save`."
        raise DeckProblems(title, str(e).splitlines() or ["it is not a legal deck"], text) from None


class Decks(SessionBase):
    """Saving, listing, reading and deleting people's decks (bringing one to a lobby is lobby.py's)."""

    async def save_deck(self, user: UserId, game_id: str, name: str, text: str) -> DeckRecord:
        """Save (or replace) a deck written as text; DeckProblems listing every problem if the game refuses
        it, a refusal when the person already has MAX_DECKS decks for the game and the name is new."""
        game, book = book_for(game_id)
        name = deck_name(name)
        try:
            deck = book.parse(text, name)
        except ValueError as e:
            problems = str(e).splitlines() or ["it is not a legal deck"]
            title = f"**{name}** was not saved: {game.title} says"
            raise DeckProblems(title, problems, text) from None
        if not await self.store.save_deck(user, game.id, name, deck, self.clock(), limit=MAX_DECKS):
            raise SessionError(
                f"You already have {MAX_DECKS} {game.title} decks, the most there can be; delete one with "
                "`/deck delete` or save over one of them (same name)."
            )
        saved = await self.store.deck(user, game.id, name)
        assert saved is not None
        return saved

    async def decks(self, user: UserId, game_id: str) -> list[DeckRecord]:
        """A person's saved decks for a game, by name."""
        game, _ = book_for(game_id)
        return await self.store.decks(user, game.id)

    async def deck(self, user: UserId, game_id: str, name: str) -> DeckRecord:
        """One of a person's saved decks; a refusal when there is none of that name."""
        game, _ = book_for(game_id)
        saved = await self.store.deck(user, game.id, " ".join(name.split()))
        if saved is None:
            raise SessionError(f"You have no {game.title} deck called {name!r}; `/deck list` shows yours.")
        return saved

    async def delete_deck(self, user: UserId, game_id: str, name: str) -> DeckRecord:
        """Delete one of a person's saved decks; what it was; a refusal when there is none of that name."""
        saved = await self.deck(user, game_id, name)
        await self.store.delete_deck(user, saved.game_id, saved.name)
        return saved
