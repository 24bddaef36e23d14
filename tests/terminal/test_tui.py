"""The terminal app (bot/tui) driven by Textual's pilot: whole games of every game at 80x24 and 120x40 with
the keyboard (moves by number or letter, a card's text, a hint, undo, save and resume), the hot seat's
hand-over, and the log saying who did what."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from textual.events import Key
from textual.widgets import Tree

from bot.store import ACTIVE
from bot.terminal import clean_rule_text
from bot.tui.app import AgoraApp, help_page
from bot.tui.screens import TAGS, CardScreen, ConfirmScreen, HandOverScreen, TextScreen
from engine.registry import games
from engine.registry import get as get_game
from engine.table.present import of, rule_text
from tests.tui_helpers import new_app, press_for_screen, screen_text

GAMES = ["omphala", "ophion", "ophelia", "siege_of_olympus", "ophidian"]
SIZES = [(80, 24), (120, 40)]
WAIT = 60  # seconds for the app to be ready for a move (AI seats move in between)


async def ready(app: AgoraApp) -> None:
    """Until the app waits for a person (or shows the end)."""
    await asyncio.wait_for(app.ready.wait(), WAIT)


async def play_one(app: AgoraApp, pilot, step: int) -> None:  # type: ignore[no-untyped-def]
    """One move as a person would type it, then Enter: the game's fixed letter to end the turn or pass when
    offered (a short game), else a number. The keys go in as the terminal sends them, without the pilot's
    pauses for idleness between keys (the AI's turn keeps the process busy), and the move is played when
    the app asks for the next one."""
    keys = [k for k, _ in app.keyed]
    letter = next((k for k in "epns" if k in keys), None)
    numbers = [k for k in keys if k.isdigit()]
    typed = (
        [letter]
        if letter is not None and (step % 5 != 1 or not numbers)
        else list(numbers[step % len(numbers)])
    )
    target = dict(app.keyed)["".join(typed)].key
    tree = app.query_one("#moves", Tree)
    turn = app.turns
    for key in typed:
        app.post_message(Key(key, key))
    for _ in range(500):  # a person presses Enter once they see the cursor on the move
        await asyncio.sleep(0.01)
        node = tree.cursor_node
        if node is not None and node.data is not None and node.data.key == target:
            break
    app.post_message(Key("enter", None))
    answered = False
    for _ in range(WAIT * 100):
        await asyncio.sleep(0.01)
        if isinstance(app.screen, ConfirmScreen):  # "End turn? You still have N other moves.": yes
            if not answered:
                app.post_message(Key("enter", None))
            answered = True
            continue
        if app.turns != turn or app.screen is not app.screen_stack[0]:
            break
        if app.info is not None and app.info.status != ACTIVE:
            break


async def inspect_a_card(app: AgoraApp, pilot) -> bool:  # type: ignore[no-untyped-def]
    """Two keys show an opponent's card: i, then its key. False when no card of another seat is on screen."""
    seen = list(dict.fromkeys(app.seen))
    theirs = [i for i, s in enumerate(seen) if not s.mine and not s.where.startswith("Your")]
    if not theirs or theirs[0] >= len(TAGS):
        return False
    await pilot.press("i")
    await pilot.pause()
    assert isinstance(app.screen, CardScreen)
    card = seen[theirs[0]]
    await pilot.press(TAGS[theirs[0]])
    await pilot.pause()
    text = str(app.screen.query_one("#card-text").visual)
    entry = next(e for e in of(app.game).catalogue() if e.id == card.card)
    assert entry.name in text and entry.text[:40] in text and f"Here: {card.where}" in text
    await pilot.press("escape")
    await pilot.pause()
    return True


async def try_undo(app: AgoraApp, pilot) -> bool:  # type: ignore[no-untyped-def]
    """u: the app says what it would take back and takes it back on y, or says why it cannot."""
    assert app.sessions is not None and app.info is not None and app.viewer is not None
    can = await app.sessions.can_undo(app.match_id, app.info.seats[app.viewer].user_id)
    await pilot.press("u")
    for _ in range(20):
        await pilot.pause()
        if isinstance(app.screen, TextScreen) or "nothing you can take back" in screen_text(app):
            break
    if not can:
        assert "There is nothing you can take back now: " in screen_text(app)
        return False
    assert isinstance(app.screen, TextScreen)
    assert "Take back your last move?" in screen_text(app)
    await pilot.press("y")
    await ready(app)
    await pilot.pause()
    assert any(line.startswith("You took back: ") for line in app.log_lines)
    return True


async def drive(
    app: AgoraApp, pilot, *, stop_after: int | None = None, extras: bool = True
) -> dict[str, bool]:  # type: ignore[no-untyped-def]
    """Play until the game ends (or `stop_after` moves), trying a card's text, a hint and undo on the way."""
    done = {"inspect": False, "hint": False, "undo": False}
    for step in range(2000):
        await ready(app)
        assert app.info is not None
        if app.info.status != ACTIVE:
            return done
        if stop_after is not None and step >= stop_after:
            return done
        if extras and not done["inspect"]:
            done["inspect"] = await inspect_a_card(app, pilot)
        if extras and not done["undo"] and step >= 1:
            done["undo"] = await try_undo(app, pilot)
            if done["undo"]:
                continue
        if extras and not done["hint"] and step >= 2:
            await pilot.press("question_mark")
            for _ in range(400):
                await asyncio.sleep(0.05)
                if isinstance(app.screen, TextScreen):
                    break
            await pilot.pause()
            assert "to win" in screen_text(app) or "No move to suggest." in screen_text(app)
            await pilot.press("escape")
            await pilot.pause()
            done["hint"] = True
        await play_one(app, pilot, step)
    raise AssertionError("the game did not end in 2000 moves")


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
@pytest.mark.parametrize("game_id", GAMES)
async def test_a_whole_game_with_the_keyboard(tmp_path: Path, game_id: str, size: tuple[int, int]) -> None:
    app = await new_app(tmp_path, game_id, seed=3)
    db = app.db
    mid = app.match_id
    async with app.run_test(size=size) as pilot:  # save and quit after a few moves ...
        done = await drive(app, pilot, stop_after=4)
        board = app.query_one("#board-box")
        assert board.display and board.region.height >= 6, "the board is in view while choosing"
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0
    again = AgoraApp(db, mid, "auto", ai_delay=0)
    async with again.run_test(size=size) as pilot:  # ... and resume to the end
        more = await drive(again, pilot)
        assert again.info is not None and again.info.status == "finished"
        assert "is over" in screen_text(again)
        await pilot.press("q")
    assert again.return_code == 0
    assert done["hint"], "a hint was shown"
    assert done["inspect"] or more["inspect"], "an opponent's card was read"


async def test_a_card_packs_cards_read_like_the_games_own(tmp_path: Path) -> None:
    """A game dealt with a card pack shows its cards in hand and in the card list with their names and text,
    never as the hashed ids the engine gives them (the game's catalogue is the base set; the match's pack
    adds its own)."""
    app = await new_app(tmp_path, "siege_of_olympus", seed=3, pack="example")
    async with app.run_test(size=(120, 40)) as pilot:
        await app.ready.wait()
        await pilot.pause()
        hand = screen_text(app)
        assert "Atalanta — Primordial Attack." in hand
        await pilot.press("i", "3")  # the third card in hand: the pack's Atalanta
        await pilot.pause()
        listed = screen_text(app)
        await pilot.press("escape", "q")
    assert "Cost 1 · Attack 2 · Health 2 · Artifact 9\nPrimordial Attack." in listed
    assert not re.search(r"[a-z_]+\.[0-9a-f]{6}", hand + listed), "a pack card shown by its id"


@pytest.mark.parametrize("game_id", GAMES)
async def test_the_log_says_who_did_what(tmp_path: Path, game_id: str) -> None:
    """Each log line names who acted: your own private draw reads "You draw …", never "AI 2: You …"."""
    app = await new_app(tmp_path, game_id, seed=4)
    async with app.run_test(size=(120, 40)) as pilot:
        await drive(app, pilot, stop_after=12, extras=False)
        lines = list(app.log_lines)
        await pilot.press("q")
    names = ["Player 1", "AI 2 (random)"]
    assert lines
    for line in lines:
        assert not re.match(r"AI 2 \(random\): (You|Your) ", line), line
        assert line.startswith(("You ", "Your ", *names)) or ": " in line, line
    assert any(line.startswith("AI 2") for line in lines), "the AI's moves are credited to it"


async def test_the_hot_seat_hides_the_last_players_hand(tmp_path: Path) -> None:
    """Two people at one screen: the mover sees their move's result, then a blank hand-over; nothing of
    their hand is on screen or in any panel's scrollback when the next person takes the screen."""
    app = await new_app(tmp_path, "siege_of_olympus", seed=2, players=2, ai=0)
    mid = app.match_id
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(500):  # the first player is asked to take the screen too
            await pilot.pause()
            if isinstance(app.screen, HandOverScreen):
                break
        assert "Pass the screen to Player 1" in screen_text(app)
        await pilot.press("enter")
        await ready(app)
        first = app.viewer
        assert first is not None and app.sessions is not None
        hand = {s.card for s in app.seen if s.mine}
        entries = {e.id: e for e in of(app.game).catalogue()}
        for _ in range(40):  # play until the screen goes to the other player
            await play_one(app, pilot, 1)
            for _ in range(50):
                await pilot.pause()
                if isinstance(app.screen, TextScreen | HandOverScreen) or app.ready.is_set():
                    break
            if isinstance(app.screen, TextScreen):
                assert app.screen.title_text.endswith(": the result of your move"), app.screen.title_text
                assert "your move" in screen_text(app)
                await pilot.press("enter")
                await pilot.pause()
                break
        assert isinstance(app.screen, HandOverScreen)
        text = screen_text(app)
        assert "Pass the screen to" in text
        view = await app.sessions.view_for(mid, app.info.seats[1 - first].user_id)  # type: ignore[union-attr]
        private = {c for c in hand if c not in str(view)}
        assert private, "the first player held cards the second cannot see"
        for card in private:
            assert entries[card].name not in text, card
        await pilot.press("enter")
        await ready(app)
        await pilot.pause()
        assert app.viewer == 1 - first
        text = screen_text(app)
        for card in private:
            assert entries[card].name not in text, f"{card} of the last player's hand is still on screen"
        await pilot.press("u")  # their first undo: they have no move to take back, whoever moved before
        for _ in range(100):
            await pilot.pause()
            if "take back" in str(app.query_one("#prompt").visual):
                break
        assert "you have not moved yet" in str(app.query_one("#prompt").visual)
        await pilot.press("q")


async def test_a_small_screen_folds_the_board_into_the_status_line(tmp_path: Path) -> None:
    app = await new_app(tmp_path, "ophion", seed=1)
    async with app.run_test(size=(60, 16)) as pilot:
        await ready(app)
        await pilot.pause()
        assert not app.query_one("#board-box").display
        assert "Ophion" in str(app.query_one("#status").visual) or app.query_one("#status").region.height
        await pilot.press("b")
        await pilot.pause()
        assert isinstance(app.screen, TextScreen) and "== Ophion" in screen_text(app)
        await pilot.press("escape", "q")


@pytest.mark.parametrize("game_id", GAMES)
def test_help_comes_from_the_games_own_rule_text(game_id: str) -> None:
    game = get_game(game_id)
    title, body = help_page(game, of(game))
    text = clean_rule_text(rule_text(game))
    assert len(text) > 1000 and text[:200] in body
    for debris in ("Screen Shot", ".png", "Moster cards", "`", "[teams.", "Picture 1:"):
        assert debris not in body, debris
    assert "/rules" not in body.split("── The rules")[0], "no Discord command in the terminal's help"
    assert game.title in title


def test_every_game_is_covered() -> None:
    assert sorted(GAMES) == sorted(g for g in games() if g != "toy")


async def test_the_log_starts_with_the_deal_and_l_shows_it_whole(tmp_path: Path) -> None:
    app = await new_app(tmp_path, "ophion", seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app)
        assert any("draws 3 cards" in line for line in app.log_lines), "the deal is in the log"
        await play_one(app, pilot, 0)
        await ready(app)
        await press_for_screen(app, pilot, "l", TextScreen)
        text = screen_text(app)
        assert "The whole log" in text and "   1  " in text
        await pilot.press("escape", "q")


def test_big_piles_come_after_the_cards_in_play_so_those_get_the_keys() -> None:
    from bot.tui.screens import PILE, piles_last
    from engine.table.present import Seen

    hand = [Seen(f"h{i}", "Your hand", mine=True) for i in range(PILE + 2)]
    pile = [Seen(f"u{i}", "Underworld") for i in range(PILE + 1)]
    field = [Seen("m", "AI 2 · field"), Seen("x", "Being played")]
    assert piles_last([*hand, *pile, *field]) == [*hand, *field, *pile]
    assert len(TAGS) == 61 and len(set(TAGS)) == 61


async def test_omphalas_setup_hand_is_shown_whole_once_at_80x24(tmp_path: Path) -> None:
    """The issue: the hand line at the setup dropped the seventh card (it wrapped below the board's fold), and
    "each game's board text … never repeats the hand": all seven are in the cards panel, not the board."""
    app = await new_app(tmp_path, "omphala", seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app)
        await pilot.pause()
        hand = app.view["players"][0]["hand"]
        board = str(app.query_one("#board").visual)
        cards = str(app.query_one("#hand").visual)
        assert len(hand) == 7 and "hand:" not in board, board
        labels = [line.split(" — ")[0].strip() for line in cards.splitlines() if " — " in line]
        assert len(labels) == 7, cards
        await pilot.press("q")


def test_ophions_board_says_how_the_final_score_adds_up() -> None:
    """The issue: the board said 47 VP where the status said 50: at the end the upgrades' points are added."""

    game = get_game("ophion")
    view = game.view(game.setup(2, 1), 0)
    view["players"][0]["total"], view["players"][1]["total"] = 47, 20
    view["result"] = {"scores": [50, 20], "upgrade_points": [3, 0], "winners": [0]}
    present = of(game)
    assert "Player 1: 50 VP" in present.status(view, ["Player 1", "AI 2"]).scores
    board = present.board_text(view, ["Player 1", "AI 2"])
    assert "Player 1 (you): 50 VP (47 + 3 from upgrades)" in board and "AI 2: 20 VP ·" in board


async def test_at_game_over_the_help_and_undo_still_answer(tmp_path: Path) -> None:
    """The issue: at game over ? and u did nothing, silently. ? shows the help; u says there is nothing."""
    app = await new_app(tmp_path, "omphala", seed=1, ai=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app)
        await pilot.pause()
        assert app.over and "is over" in str(app.query_one("#prompt").visual)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, TextScreen) and "Omphala — help" in screen_text(app)
        await pilot.press("escape", "u")
        await pilot.pause()
        assert any("nothing to undo" in str(n.message) for n in app._notifications)
        await pilot.press("q")
