"""`agora learn GAME` (issue 38): every game's tutorial driven through the terminal app with the keyboard:
each guided step on screen before the choice with the cursor on the suggested move, the verdict after the
move (a tick, or another move explained while the game goes on), the ending of the guided part, and once
the game is over what was learned and how to start a real game. Also: h opens with the one-page rules, the
line under the moves says what the highlighted move does, and `learn` fails politely on a bad game."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest
from textual.events import Key
from textual.widgets import Tree

from bot.__main__ import main
from bot.console import _Screen, new_lesson
from bot.sessions import SessionManager
from bot.store import ACTIVE, SqliteStore
from bot.tui.app import AgoraApp, help_page
from bot.tui.screens import ConfirmScreen, TextScreen
from engine.registry import games
from engine.registry import get as get_game
from engine.rng import Rng
from engine.table import lesson
from engine.table.lesson import unmarked
from engine.table.present import move_words, of, seat_refs
from tests.tui_helpers import new_app, press_for_screen, screen_text

TUTORIALS = [g for g in games() if lesson.of(get_game(g)) is not None]
WAIT = 60  # seconds for the app to be ready for a move (AI seats move in between)
QUIET = 6  # after other moves, the learner's decisions in a row with no step before the test stops driving
RANDOM = 12  # the learner's random moves that finish the game quickly, before they give it up
LEARNER = 1  # the user id `learn` seats (the terminal's "Player 1")


async def lesson_app(tmp_path: Path, game_id: str) -> AgoraApp:
    """The app on a new practice game of the game's tutorial (made as `agora learn` makes it)."""
    db = str(tmp_path / "games.db")
    store = SqliteStore(db)
    await store.open()
    sessions = SessionManager(store, ai_delay=0)
    try:
        mid = await new_lesson(sessions, game_id, _Screen(io.StringIO(), io.StringIO(), clear=False))
    finally:
        await sessions.close()
        await store.close()
    return AgoraApp(db, mid, "auto", ai_delay=0)


def flat(text: str) -> str:
    """Text with its whitespace made single (the panels wrap lines)."""
    return " ".join(text.split())


def panel(app: AgoraApp) -> str:
    """What the lesson panel says now ("" when it is hidden)."""
    box = app.query_one("#lesson-box")
    return flat(str(app.query_one("#lesson").visual)) if box.display else ""


def said(app: AgoraApp, lines: list[str]) -> list[str]:
    """These lines of the guide as the panel words them (seat numbers as names), whitespace made single."""
    return [flat(seat_refs(line, app._names())) for line in lines if line]


async def ready(app: AgoraApp) -> None:
    await asyncio.wait_for(app.ready.wait(), WAIT)


async def lesson_page(app: AgoraApp) -> tuple[str, str]:
    """The lesson opened as a page over the board (its title and text), closed with Enter; ("", "") when
    none opened. Polled, not paused for: the pilot's pauses wait for a whole refresh each."""
    screen = app.screen
    if not isinstance(screen, TextScreen):  # the app opens it before it waits for the move
        return "", ""
    for _ in range(200):
        if screen.is_mounted and screen.query("#text-body"):
            break
        await asyncio.sleep(0.005)
    title = str(screen.query_one("#text-title").visual)
    text = flat(str(screen.query_one("#text-body").visual))
    app.post_message(Key("enter", None))
    for _ in range(200):
        if app.screen is not screen:
            return title, text
        await asyncio.sleep(0.005)
    raise AssertionError("Enter did not close the lesson's page")


async def cursor_on(app: AgoraApp, key: str) -> bool:
    """Whether the cursor comes to the move with this key (within a second: it moves after a refresh)."""
    tree = app.query_one("#moves", Tree)
    for _ in range(100):
        node = tree.cursor_node
        if node is not None and node.data is not None and node.data.key == key:
            return True
        await asyncio.sleep(0.01)
    return False


async def play_key(app: AgoraApp, typed: str | None, target: str) -> None:
    """Type a move's number or letter (None: the cursor is on it already), wait for the cursor on it, press
    Enter (and Enter again if asked to confirm), and wait for the next decision. The keys go in as the
    terminal sends them (the AI's moves keep the process busy: no pilot pauses for idleness)."""
    turn = app.turns
    for key in typed or "":
        app.post_message(Key(key, key))
    assert await cursor_on(app, target), f"the cursor never reached {target}"
    app.post_message(Key("enter", None))
    answered = False
    for _ in range(WAIT * 100):
        await asyncio.sleep(0.01)
        if isinstance(app.screen, ConfirmScreen) and not answered:
            app.post_message(Key("enter", None))
            answered = True
        if app.turns != turn or (app.info is not None and app.info.status != ACTIVE):
            return
    raise AssertionError("the app never asked for the next move")


async def guided_part(app: AgoraApp, pilot, wrong: bool) -> lesson.Guide:  # type: ignore[no-untyped-def]
    """Play the guided part with the keyboard: at each of the learner's decisions the lesson panel says what
    the guide says (lesson.guide_lines: the answer to their last guided move, the end of the lessons, the
    welcome, the step now); at a guided step the cursor is on the suggested move: Enter plays it, or with
    `wrong` another move's key and Enter. The guide once the guided part is over and answered (with
    `wrong`, also once QUIET decisions in a row had no step: the other moves may have made a later step's
    move impossible for good)."""
    answered: set[int] = set()  # the guided moves whose answer was on screen
    opened: set[int | str] = set()  # the lessons that opened as a page
    quiet = 0
    for _ in range(200):
        await ready(app)
        title, page = await lesson_page(app)
        guide = app.guide
        assert guide is not None, "the learner's snapshot carries the guide"
        words = panel(app)
        for line in said(app, lesson.guide_lines(guide)):
            assert line in words, (line, words)
        news = guide.step if guide.step is not None else "end" if guide.done and guide.just else None
        if news is not None and news not in opened:  # a new step, or the end: first as a page of its own
            opened.add(news)
            assert title.startswith("Learning ") and page == words, (title, page)
        else:
            assert not title, f"{title} opened again"
        if guide.just is not None:
            answered.add(guide.just.step)
            assert ("✓" in words) == guide.just.followed and ("You played" in words) != guide.just.followed
        elif guide.step is not None and not guide.outcomes and guide.tutorial.welcome:
            assert flat(guide.tutorial.welcome) in words, "the welcome before the first step"
        if wrong and guide.outcomes:
            assert all(not o.followed for o in guide.outcomes), "every guided step got another move"
        if guide.done:
            assert answered == {o.step for o in guide.outcomes}, "every guided move was answered"
            assert words.count("🎓") == 1 and "last lesson" in words, "the end of the lessons is said"
            if not wrong:
                assert not guide.missed and all(o.followed for o in guide.outcomes)
            return guide
        if guide.step is None:  # a decision no step is about: play its first move
            quiet += 1
            if wrong and quiet >= QUIET and guide.outcomes:
                assert answered == {o.step for o in guide.outcomes}, "every guided move was answered"
                return guide
            first = app.keyed[0]
            await play_key(app, first[0], first[1].key)
            continue
        assert app.moves[0].key == guide.suggested and lesson.MARK in app.moves[0].label
        assert await cursor_on(app, guide.suggested), "the cursor starts on the suggested move"
        quiet = 0
        if not wrong:
            await play_key(app, None, guide.suggested)
            continue
        typed, other = [(k, m) for k, m in app.keyed if m.key != guide.suggested][-1]
        await play_key(app, typed, other.key)
    raise AssertionError("the guided part did not end")


async def finish(db: str, mid: int, seed: int = 5) -> lesson.Guide:
    """End the game quickly through the session manager: RANDOM random moves for the learner, and if the
    game still goes on they give it up (a practice game's forfeit is not a result). The learner's guide."""
    store = SqliteStore(db)
    await store.open()
    sessions = SessionManager(store, ai_delay=0)
    rng = Rng(seed)
    try:
        for _ in range(RANDOM):
            await sessions.wait_idle(mid)
            seen = await sessions.snapshot(mid, LEARNER)
            if seen.info.over:
                break
            if not seen.moves:
                assert await sessions.resume_ai(mid), "the AI is stuck"
                continue
            key = seen.moves[rng.below(len(seen.moves))].key
            await sessions.submit(mid, LEARNER, key, seen.info.state_id)
        await sessions.wait_idle(mid)
        if not (await sessions.get(mid)).over:
            await sessions.forfeit(mid, LEARNER, "the test is in a hurry")
        guide = (await sessions.snapshot(mid, LEARNER)).lesson
        assert guide is not None
        return guide
    finally:
        await sessions.close()
        await store.close()


@pytest.mark.parametrize("wrong", [False, True], ids=["suggested", "other"])
@pytest.mark.parametrize("game_id", TUTORIALS)
async def test_a_tutorial_played_with_the_keyboard(tmp_path: Path, game_id: str, wrong: bool) -> None:
    """The guided part by key presses (the suggested moves, or another at every guided step: each
    explained, the game goes on); q saves; the rest is played quickly; the app on the finished game shows
    what was learned and how to start a real game."""
    app = await lesson_app(tmp_path, game_id)
    db, mid = app.db, app.match_id
    async with app.run_test(size=(80, 24)) as pilot:
        await guided_part(app, pilot, wrong)
        await pilot.press("q")
    assert app.return_code == 0
    guide = await finish(db, mid)
    again = AgoraApp(db, mid, "auto", ai_delay=0)
    async with again.run_test(size=(80, 24)) as pilot:
        await ready(again)
        title, page = await lesson_page(again)  # what was learned opens as a page too
        await pilot.pause()
        assert again.over
        words = panel(again)
        assert title.startswith("Learning ") and page == words
        summary = said(again, lesson.guide_lines(guide, over=True))
        assert all(line in words for line in summary), (summary, words)
        assert "Ready for a real game? " in words and f"play {game_id}" in words
        await pilot.press("q")


@pytest.mark.parametrize("game_id", TUTORIALS)
async def test_h_opens_with_the_rules_on_one_page(tmp_path: Path, game_id: str) -> None:
    game = get_game(game_id)
    tutorial = lesson.of(game)
    assert tutorial is not None
    page = lesson.page_lines(game.title, tutorial.page)
    _, body = help_page(game, of(game))
    before = body.split("\nKeys\n")[0]
    assert body.startswith(page[0]) and all(line in before for line in page), "the page, then the keys"
    assert body.index("\nKeys\n") < body.index("── The rules")
    app = await lesson_app(tmp_path, game_id)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app)
        title, _ = await lesson_page(app)
        assert title == f"Learning {game.title}"
        await press_for_screen(app, pilot, "h", TextScreen)
        text = screen_text(app)
        assert f"How to play {game.title}" in text and page[1] in text
        await pilot.press("escape", "q")


async def test_the_line_under_the_moves_says_what_the_highlighted_move_does(tmp_path: Path) -> None:
    """The words follow the cursor: the highlighted move's path, then what present.move_words says it does
    (the cards' texts it adds are in the hand and the inspector)."""
    app = await new_app(tmp_path, "omphala", seed=1)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(app)
        await pilot.pause()
        tree = app.query_one("#moves", Tree)
        chosen = app.query_one("#chosen")
        seen: set[str] = set()
        for _ in range(6):
            node = tree.cursor_node
            assert node is not None
            if node.data is not None:
                move = node.data
                path = tuple(unmarked(p) for p in move.path)
                words = move_words(app.present, app.view, move.key, path, app._names())
                shown = flat(str(chosen.visual))
                assert shown.startswith(flat(f"Enter: {' › '.join(path)}")), shown
                cards = {f"{e.name}: {e.text}" for e in of(app.game).catalogue()}
                for line in words:  # the game's words; not the path again, nor card texts (the hand has them)
                    said = line in cards or line == " › ".join(path) + "."
                    assert (flat(line) in shown) != said, (line, shown)
                seen.add(shown)
            await pilot.press("down")
            await pilot.pause()
        assert len(seen) >= 2, "the line changed with the cursor"
        await pilot.press("q")


def test_learn_fails_politely_on_a_game_it_cannot_teach(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unknown game, or one without a tutorial: one line and exit code 2; no database is made."""
    db = tmp_path / "games.db"
    assert main(["learn", "nosuchgame", "--db", str(db)]) == 2
    out = capsys.readouterr().out.strip()
    assert out.startswith("There is no game called 'nosuchgame'.") and "\n" not in out
    for game_id in TUTORIALS:
        assert game_id in out, "the line names the games that have a tutorial"
    untaught = [g for g in games() if lesson.of(get_game(g)) is None]
    for game_id in untaught[:1]:
        assert main(["learn", game_id, "--db", str(db)]) == 2
        out = capsys.readouterr().out.strip()
        assert "has no tutorial yet" in out and f"play {game_id}" in out and "\n" not in out
    assert not db.exists()


@pytest.mark.skipif(not TUTORIALS, reason="no game has a tutorial")
async def test_learn_deals_the_tutorial_into_the_console_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`learn` deals the practice game where `play` keeps its games (listed and resumable like them), then
    runs the app on it; without a terminal it says it needs one."""
    import bot.console as console

    db = str(tmp_path / "games.db")
    out = io.StringIO()
    assert await console.learn(TUTORIALS[0], db, 0, io.StringIO(), out) == 2
    assert "needs a terminal" in out.getvalue()
    ran: list[int] = []

    async def app(opts: console.PlayOptions, match_id: int, screen: console._Screen) -> int:
        ran.append(match_id)
        return 0

    monkeypatch.setattr(console, "_isatty", lambda stream: True)
    monkeypatch.setattr(console, "_run_app", app)
    out = io.StringIO()
    assert await console.learn(TUTORIALS[0], db, 0, io.StringIO(), out) == 0
    assert ran and f"Game #{ran[0]}: a practice game of" in out.getvalue()
    store = SqliteStore(db)
    await store.open()
    sessions = SessionManager(store, ai_delay=0)
    try:
        listed = await sessions.list_matches(origin="console")
        assert [g.id for g in listed] == ran and listed[0].status == ACTIVE
        info = await sessions.get(ran[0])
        assert lesson.practice(info.options) == TUTORIALS[0]
    finally:
        await sessions.close()
        await store.close()
