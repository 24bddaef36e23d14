"""The one-page rules picture (render/howto.py) and its alt text (describe.page_alt): for every game with a
tutorial and for a hand-made page of every registered game, in every theme: a PNG of the page's width, tall
and light enough, its text readable, its alt text within Discord's limit, and the sample board the
spectator's (no hidden card in its words)."""

from __future__ import annotations

import io
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image

from engine.registry import games
from engine.table import describe, lesson
from engine.table.lesson import Page, Tutorial
from engine.table.present import of, seen_cards
from render import howto, kit, vision

THEMES = list(kit.THEMES)
TUTORIALS = sorted(g for g, game in games().items() if lesson.of(game) is not None)
GAMES = sorted(games())
MAX_BYTES = 300_000

LONG = Page(
    summary=(
        "A duel for two to four players. Each of you builds a side of the table from your hand, and the "
        "cards you play stay in front of you for everyone to see, unless the rules say they are face down."
    ),
    turn=(
        "Draw a card from the deck (skip this on the very first turn of the game).",
        "Take up to two actions: play a card, attack with one, or use a card's power.",
        "End your turn: the player on your left goes next, and so on around the table.",
    ),
    win="The game ends when the deck runs out; whoever has the most points then wins, and a tie is shared.",
    parts=(
        ("The banner", "at the top: whose turn it is and what they are asked to do."),
        ("Your side", "the panel named You: your counters and the cards you have in play."),
        ("The opponent's side", "the panel named Opponent, drawn the same way as yours."),
        ("The log", "at the bottom: the last few moves, the newest last."),
    ),
    sample=6,
)


def made(game_id: str, players: int = 2, page: Page = LONG) -> Tutorial:
    """A hand-made tutorial of any game: a deal, no steps, a page of realistic length."""
    game = games()[game_id]
    seats = min(max(players, game.min_players), game.max_players)
    found = lesson.of(game)
    if found is not None:
        return replace(found, page=page, players=seats)
    return Tutorial(game_id=game_id, seed=5, ideas=(), steps=(), page=page, players=seats)


def check_png(png: bytes) -> Image.Image:
    """A PNG of the page's width, tall (a phone scrolls it) and light enough."""
    img = Image.open(io.BytesIO(png))
    img.load()
    assert img.format == "PNG"
    assert img.width == kit.WIDTH
    assert 1000 <= img.height <= 5000
    assert len(png) < MAX_BYTES, f"{len(png)} bytes"
    return img


def check_alt(text: str, title: str) -> None:
    """Non-empty, within Discord's limit, lines without control characters, the page's words first."""
    assert text.startswith(f"How to play {title}")
    assert 0 < len(text) <= describe.ALT_LIMIT
    assert all(line.isprintable() for line in text.split("\n")), repr(text)


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("game_id", TUTORIALS)
def test_every_tutorial_has_its_page(game_id: str, theme: str) -> None:
    """The page of each game's own tutorial, in each theme: a PNG in bounds, on the theme's background."""
    img = check_png(howto.page(game_id, theme))
    corner, bg = img.convert("RGB").getpixel((1, 1)), kit.theme(theme).bg
    assert all(abs(a - b) <= 3 for a, b in zip(corner, bg, strict=True))  # a palette PNG: within its rounding
    check_alt(howto.alt(game_id), games()[game_id].title)


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("game_id", GAMES)
def test_any_page_of_any_game_draws(game_id: str, theme: str) -> None:
    """A hand-made page of every registered game (so the pages the games are writing now draw too)."""
    tutorial = made(game_id)
    img = howto.page_image(game_id, theme, tutorial)
    check_png(kit.to_png(img))
    check_alt(howto.alt(game_id, tutorial), games()[game_id].title)


@pytest.mark.parametrize("game_id", GAMES)
def test_more_seats_are_opponents(game_id: str) -> None:
    """The sample board's seats: You, Opponent, Opponent 2, …; a game's most seats draw too."""
    game = games()[game_id]
    assert howto.sample_names(4) == ["You", "Opponent", "Opponent 2", "Opponent 3"]
    tutorial = made(game_id, players=game.max_players)
    check_png(kit.to_png(howto.page_image(game_id, "dark", tutorial)))
    assert len(howto.alt(game_id, tutorial)) <= describe.ALT_LIMIT


@pytest.mark.parametrize("theme", THEMES)
def test_page_text_reads(theme: str) -> None:
    """Every ink the page draws has WCAG 2 contrast of at least 4.5 on what it is drawn on."""
    low = vision.too_faint(howto.text_pairs(kit.theme(theme)))
    assert not low, "\n".join(low)


def test_page_text_is_large_on_a_phone() -> None:
    """Shown 400 px wide, the page's words are at least 13 px and its headings larger (a board's smallest
    text is 11 px there)."""
    scale = 400 / kit.WIDTH
    assert howto.BODY_TEXT * scale >= 13
    assert howto.HEAD_TEXT > howto.BODY_TEXT
    assert howto.TITLE_TEXT > howto.HEAD_TEXT


def test_a_tall_board_is_scaled_to_fit() -> None:
    """A board taller than BOARD_MAX_H (or wider than the page) is drawn smaller, whole."""
    t = kit.theme("dark")
    tall = Image.new("RGB", (kit.WIDTH + 200, 3 * howto.BOARD_MAX_H), (200, 0, 0))
    img = howto.draw("Test", LONG, tall, t)
    assert img.width == kit.WIDTH
    assert img.height < howto.BOARD_MAX_H + 2000


def test_alt_is_the_page_words_then_the_board() -> None:
    """The alt text says the page's words (lesson.page_lines) in order, then the sample board as its own
    alt text says it, within the limit even for words longer than the limit."""
    game_id = GAMES[0]
    game, tutorial = games()[game_id], made(game_id)
    title = game.title
    text = howto.alt(game_id, tutorial)
    words = [x for x in lesson.page_lines(title, LONG) if x]
    assert text.split("\n")[: len(words)] == words
    assert "The sample board: " in text
    huge = replace(LONG, turn=tuple(f"Step {k}: " + "do this and that, " * 6 for k in range(20)))
    long_text = howto.alt(game_id, made(game_id, page=huge))
    check_alt(long_text, title)


def _names(present: Any, view: Any, names: list[str]) -> set[str]:
    """The names of the cards a view shows face up."""
    catalogue = describe.entries(present)
    return {catalogue[x.card].name for x in seen_cards(present, view, names) if x.card in catalogue}


@pytest.mark.parametrize("game_id", GAMES)
def test_the_sample_board_is_the_spectators(game_id: str) -> None:
    """The alt text's board part names no card that only a seat's own view shows (a hand, a face-down card):
    it is drawn from the spectator view, like the picture (render.api refuses any other view)."""
    game, tutorial = games()[game_id], made(game_id)
    present = of(game)
    names = howto.sample_names(tutorial.players)
    state = lesson.sample_state(game, tutorial)
    public = game.view(state, None)
    shown = _names(present, public, names) | {
        e.name for e in present.catalogue() if e.name in describe.said(present, str(public.get("log")))
    }
    hidden = set().union(*(_names(present, game.view(state, s), names) for s in range(tutorial.players)))
    hidden -= shown
    text = howto.alt(game_id, tutorial)
    board = text[text.index("The sample board: ") :]
    assert board.startswith(f"The sample board: {game.title} board.")
    leaked = sorted(n for n in hidden if n in board)
    assert not leaked, leaked
