"""The recipe of CONTRIBUTING.md, proved with a toy third game (tests/toygame.py, "High Card"): registered at
run time, it goes through the engine's generic checks, the terminal and the fake Discord, and nothing in
bot/ knows it. It is registered only for each test here, and removed after, so no other test sees it."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import tests.games.test_games_generic as generic
from bot.__main__ import main
from bot.ai import DEFAULT_LEVEL
from bot.console import PlayOptions, play
from bot.terminal import CLEAR
from tests.discord_harness import HAND, WHAT, Harness
from tests.fakediscord import FakeDiscord
from tests.ops.test_layers import ROOT, game_names_in
from tests.toygame import HighCard


def test_bot_does_not_know_the_toy() -> None:
    """Adding the game touched nothing in bot/: no file there names it."""
    assert not game_names_in(ROOT / "bot", [HighCard.id, HighCard.title])


def test_the_generic_engine_checks_pass(toy: HighCard) -> None:
    """The property tests every registered game gets, run on the toy (reused, not copied)."""
    generic.test_setup_is_deterministic_and_hides_something(toy.id)
    generic.test_random_games(toy.id)


async def test_the_toy_in_the_terminal(toy: HighCard, tmp_path: Path) -> None:
    """One human against an AI, by the game's own letters (d draw, j jeer, p pass), to a result in words:
    the human draws, the AI answers its window and draws, the human jeers in theirs, then stays."""
    out = io.StringIO()
    opts = PlayOptions(game=toy.id, players=2, ai=1, seed=3, db=str(tmp_path / "c.db"), ai_delay=0.0)
    code = await play(opts, io.StringIO("h\nd\nj\np\n"), out)
    text = out.getvalue()
    assert code == 0, text
    assert f"Game #1: High Card for 2 (Player 1 and AI 2 ({DEFAULT_LEVEL}))" in text  # the pool loads the toy
    assert "== High Card · Player 1 to draw or pass" in text  # the game's own board text and status
    assert "  d. Draw a card" in text and "  p. Pass" in text and "[d, p, ?, u, i, l, r, q, h] > " in text
    assert "21 or less wins" in text and "the whole rules" in text  # h: the summary and where the rules are
    assert "  Player 1 drew a " in text  # credited once, by name
    assert (
        "Player 1 may jeer or pass" in text
        and "  j. Jeer" in text
        and "[j, p, ?, u, i, l, r, q, h] > " in text
    )
    assert "  Player 1 jeers AI 2" in text and "· jeered" in text  # the window's answer, on the board
    assert "Game #1 is over. " in text and text.rstrip().endswith(("wins.", "share the win.", "Nobody wins."))


async def test_the_toy_hot_seat(toy: HighCard, tmp_path: Path) -> None:
    """Two humans at one screen: each is asked to take it; a pipe gets a rule, never escape codes. (Player 1
    draws; Player 2 lets the window pass and stays in the same sitting; Player 1 stays.)"""
    out = io.StringIO()
    opts = PlayOptions(game=toy.id, players=2, ai=0, seed=3, db=str(tmp_path / "c.db"), ai_delay=0.0)
    code = await play(opts, io.StringIO("\nd\n\np\np\n\np\n"), out)
    text = out.getvalue()
    assert code == 0 and "Pass the screen to Player 2 — press Enter" in text and "is over" in text
    assert CLEAR not in text and "\033" not in text


async def test_the_toy_through_the_fake_discord(toy: HighCard, fake: FakeDiscord, tmp_path: Path) -> None:
    """/play it, join, start, draw and pass with the real buttons, to the result; /rules and /card too."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, lobby, mid = await h.open_lobby(alice, toy.id)
        assert "High Card for 2–4 players" in lobby.text()
        lobby = await h.press(bob, lobby, "Join")
        lobby = await h.press(alice, lobby, "Start")
        await h.settle()
        board = h.board(thread)
        assert "alice to draw or pass" in board.text() and "alice: 0" in board.text()
        assert set(board.mention_ids) == {alice.id} and board.pinged(alice) and not board.pinged(bob)
        hand = await h.press(alice, board, HAND)
        assert [b["label"] for b in hand.buttons] == ["Draw a card", "Pass", WHAT]
        played = await h.press(alice, hand, "Draw a card")
        assert "✅ You played **Draw a card**" in played.text()
        info = await h.play_until_over(mid, thread, {alice.id: alice, bob.id: bob})
        assert info.returns is not None and sum(info.returns) == pytest.approx(1.0)
        await h.settle()
        final = h.board(thread)
        assert "The game is over" in final.text() and "Game over · " in final.text()
        rules = await (await fake.slash(bob, thread, "rules", {"game": toy.id})).wait_reply()
        assert "21 or less" in rules.text() and "2–4 players" in rules.text()
        card = await (await fake.slash(bob, thread, "card", {"game": toy.id, "name": "ten"})).wait_reply()
        assert "**Ten**" in card.content and "Value **10**" in card.content


async def test_choose_a_deck_in_the_terminal(toy: HighCard, tmp_path: Path) -> None:
    """--choose deck=high deals the human seat the high deck; the AI seat gets one from the seed."""
    out = io.StringIO()
    opts = PlayOptions(
        game=toy.id,
        players=2,
        ai=1,
        seed=3,
        db=str(tmp_path / "c.db"),
        ai_delay=0.0,
        choose=(("deck", "high"),),
    )
    assert await play(opts, io.StringIO("q\n"), out) == 0
    assert "Player 1 (high deck): — = 0" in out.getvalue()
    out = io.StringIO()
    low = PlayOptions(
        game=toy.id, players=2, ai=1, seed=3, db=str(tmp_path / "c.db"), choose=(("deck", "low"),)
    )
    assert await play(low, io.StringIO("q\n"), out) == 0
    assert "Player 1 (low deck): — = 0" in out.getvalue()


async def test_a_bad_choice_is_explained_and_leaves_nothing_saved(toy: HighCard, tmp_path: Path) -> None:
    """An unknown key or id names the valid ones; the exit code is 2 and no game is saved."""
    db = str(tmp_path / "c.db")
    cases = (
        (("dock", "high"), "High Card has no choice called 'dock'; the choices are: deck (low, high)."),
        (("deck", "purple"), "There is no deck 'purple'; choose one of: low (Low cards), high (High cards)."),
    )
    for choose, words in cases:
        out = io.StringIO()
        opts = PlayOptions(game=toy.id, players=2, ai=1, seed=3, db=db, choose=(choose,))
        assert await play(opts, io.StringIO(""), out) == 2
        assert f"--choose: {words}" in out.getvalue()
    out = io.StringIO()
    assert await play(PlayOptions(db=db, list=True), io.StringIO(""), out) == 0
    assert "No console games yet" in out.getvalue()


def test_play_help_mentions_choose(toy: HighCard, capsys: pytest.CaptureFixture[str]) -> None:
    """`play --help` explains --choose and lists the toy's choice; a malformed one is refused."""
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = capsys.readouterr().out
    assert "--choose KEY=ID" in out and "--choose deck=ID, deck: low, high (random if not chosen)" in out
    assert main(["play", toy.id, "--choose", "deck"]) == 2
    assert "--choose takes KEY=ID" in capsys.readouterr().err
