"""The terminal front end: whole games through the session manager and SQLite, hot seat, resume, Ctrl-C."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import time
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.ai import DEFAULT_LEVEL
from bot.console import PlayOptions, _Screen, play
from bot.sessions import Move
from bot.sessions.types import ALL, ASK, AUTO
from bot.store import SqliteStore
from bot.terminal import (
    CLEAR,
    DEBRIS,
    clean_rule_text,
    command,
    credit,
    first_game,
    menu_keys,
    plain,
    plain_rulings,
    rules_text,
)
from engine.registry import get as get_game

ROOT = Path(__file__).resolve().parents[2]
# A driver that gets through any game: the first numbered move, else the game's fixed letters.
ANY_MOVE = "1\ne\np\nd\n"


async def _play(tmp_path: Path, text: str | io.TextIOBase, **kw: object) -> tuple[int, str]:
    out = io.StringIO()
    opts = PlayOptions(db=str(tmp_path / "c.db"), ai_delay=0.0, seed=4, **kw)  # type: ignore[arg-type]
    inp = io.StringIO(text) if isinstance(text, str) else text
    code = await play(opts, inp, out)  # type: ignore[arg-type]
    return code, out.getvalue()


class Reacting(io.TextIOBase):
    """Input that answers what the screen shows: each step sees the output so far and returns a line."""

    def __init__(self, out: Callable[[], str], steps: list[str | Callable[[str], str]]) -> None:
        self.out, self.steps = out, list(steps)

    def readline(self, size: int = -1) -> str:
        if not self.steps:
            return ""
        step = self.steps.pop(0)
        return (step if isinstance(step, str) else step(self.out())) + "\n"


def key_of(screen: str, text: str) -> str:
    """What to type for the last menu line of the screen that contains text."""
    found = re.findall(rf"^ +(\w+)\. .*{re.escape(text)}.*$", screen.rsplit("your move:", 1)[-1], re.M)
    assert found, f"no move with {text!r} in:\n{screen[-2000:]}"
    return found[0]


async def test_all_ai_game_plays_to_the_end(tmp_path: Path) -> None:
    code, out = await _play(tmp_path, "", game="omphala", players=4, ai=4)
    assert code == 0
    assert "Game #1: Omphala for 4" in out and "Game #1 is over. " in out
    assert "your move" not in out and "Pass the screen" not in out
    ai2 = f"AI 2 ({DEFAULT_LEVEL})"  # the AI seats play at the default level
    assert len(re.findall(rf"^  {re.escape(ai2)}", out, re.M)) > 3  # AI moves print as they happen, by name
    assert f"{ai2}: AI 2" not in out  # credited once, not "who: who did"


async def test_one_human_against_ai_with_scripted_input(tmp_path: Path) -> None:
    code, out = await _play(tmp_path, ANY_MOVE * 1500, game="omphala", players=3, ai=2)
    assert code == 0 and "Game #1 is over" in out
    assert "Player 1, your move:" in out and "Pass the screen" not in out
    first_view = out.split("Player 1, your move:")[0]
    assert first_view.count("hand:") == 1  # the human sees their own hand, and nobody else's
    # the AIs choose before the human
    assert f"AI 2 ({DEFAULT_LEVEL}): 0 cards in front · choosing" not in first_view
    assert re.search(r"Game #1 is over\. .*(wins|share the win|Nobody wins)\.", out)  # words, not lists


async def test_hot_seat_asks_to_pass_the_screen(tmp_path: Path) -> None:
    code, out = await _play(tmp_path, ANY_MOVE * 3000, game="omphala", players=3, ai=1)
    assert code == 0 and "is over" in out
    assert "Pass the screen to Player 1 — press Enter" in out
    assert "Pass the screen to Player 2 — press Enter" in out
    assert "Pass the screen to AI" not in out


def test_hot_seat_clears_the_scrollback_on_a_terminal() -> None:
    """ESC[2J clears the screen only; ESC[3J also drops the scrollback, where the last hand could be read."""
    out = io.StringIO()
    _Screen(io.StringIO(), out, clear=True).wipe()
    assert out.getvalue() == CLEAR and "\033[2J" in CLEAR and "\033[3J" in CLEAR
    piped = io.StringIO()
    _Screen(io.StringIO(), piped, clear=False).wipe()
    assert "\033" not in piped.getvalue()


async def test_quit_then_resume_the_same_game(tmp_path: Path) -> None:
    code, out = await _play(tmp_path, "h\nzz\n1\n1\nq\n", game="omphala", players=2, ai=1)
    db = str(tmp_path / "c.db")
    assert code == 0 and f"Saved. Resume with: {command()} play --resume 1 --db {db}\n" in out  # as printed
    assert "Please type one of 1-" in out and "u = undo" in out
    assert "Omphala (2–6 players)" in out and "equal or greater" in out and "h rules" in out  # h
    code, listing = await _play(tmp_path, "", list=True)
    assert code == 0 and "active" in listing and "--resume 1" in listing
    code, out = await _play(tmp_path, ANY_MOVE * 1500, resume="latest")
    assert code == 0 and "Resuming game #1." in out and "Game #1 is over" in out
    code, out = await _play(tmp_path, "", resume="latest")
    assert code == 1 and "no unfinished console game" in out and f"{command()} play {first_game()}" in out
    code, out = await _play(tmp_path, "", resume=1)
    assert "Game #1 is over" in out


async def test_undo_from_the_console(tmp_path: Path) -> None:
    """Player 1 chooses, cannot undo the reveal, shields, then takes the shield back."""
    out = io.StringIO()
    steps: list[str | Callable[[str], str]] = ["1", "u", lambda s: key_of(s, "Shield"), "u", "q"]
    opts = PlayOptions(game="omphala", players=2, ai=1, seed=4, db=str(tmp_path / "c.db"), ai_delay=0.0)
    code = await play(opts, Reacting(out.getvalue, steps), out)  # type: ignore[arg-type]
    text = out.getvalue()
    assert code == 0 and "There is nothing you can take back now: " in text  # and why (issue 25)
    assert any(why in text for why in ("drew or revealed a card", "has moved since", "have not moved yet"))
    assert re.search(r"^  Player 1 shields front card 1 with ", text, re.M)
    assert "  Player 1 took back a move" in text
    assert "2 actions left" in text.rsplit("took back a move", 1)[1]  # both actions are back


async def test_fixed_choices_keep_their_letters(tmp_path: Path) -> None:
    """Draw and End turn are "d" and "e" on every menu, however many numbered moves come and go."""
    code, out = await _play(tmp_path, "1\ne\n" * 40 + "q\n", game="omphala", players=2, ai=1)
    assert code == 0
    menus = [m for m in out.split("your move:")[1:] if "End turn" in m]
    assert len(menus) >= 3
    for m in menus:
        assert re.search(r"^ +e\. End turn$", m, re.M), m
        assert "e, ?, u, i, l, r, q, h] > " in m  # the hint's ? too


def test_menu_keys() -> None:
    moves = [Move("attack:c=1", ("A",)), Move("draw", ("Draw",)), Move("end_turn", ("End",))]
    moves.insert(1, Move("attack:c=2", ("B",)))
    keys = menu_keys(moves, {"draw": "d", "end_turn": "e", "attack": "a"})
    assert [k for k, _ in keys] == ["1", "2", "d", "e"]  # a kind offered twice is numbered
    assert [k for k, _ in menu_keys(moves[2:], {"draw": "q", "end_turn": "E"})] == ["1", "e"]  # q is ours


def test_credit() -> None:
    names = ["Ann", "AI 2 (random)"]
    assert credit("AI 2 (random)", "P2 attacks P1", names) == "AI 2 (random) attacks Ann"
    assert credit("Ann", "The deck is empty", names) == "Ann: The deck is empty"
    # issue 25: a line that speaks to the viewer is theirs, whoever moved ("AI 2 (hard): You draw" was wrong)
    assert credit("AI 2 (hard)", "You draw +1 VP", names) == "You draw +1 VP"
    assert credit("AI 2 (hard)", "Your hand is full", names) == "Your hand is full"
    assert credit("Ann", "P2 draws 3♦", names) == "AI 2 (random) draws 3♦"  # what the move made P2 do


async def test_bad_options_are_explained_and_leave_nothing_saved(tmp_path: Path) -> None:
    code, out = await _play(tmp_path, "", game="omphala", players=9)
    assert code == 2 and "2 to 6 players" in out
    code, out = await _play(tmp_path, "", game="omphala", players=3, ai=5)
    assert code == 2 and "--ai must be" in out
    code, out = await _play(tmp_path, "", game="chess")
    assert code == 2 and "unknown game" in out and "play --help" in out
    code, out = await _play(tmp_path, "", level="grandmaster")
    assert code == 2 and "There is no AI level 'grandmaster'" in out and "random" in out
    code, listing = await _play(tmp_path, "", list=True)
    assert "No console games yet" in listing
    store = SqliteStore(str(tmp_path / "c.db"))
    await store.open()
    try:
        assert await store.list_matches() == []
    finally:
        await store.close()


def test_run_without_a_token_says_how_to_get_one(capsys) -> None:  # type: ignore[no-untyped-def]
    env_token = os.environ.pop("DISCORD_TOKEN", None)
    try:
        assert main(["run"]) == 2
    finally:
        if env_token is not None:
            os.environ["DISCORD_TOKEN"] = env_token
    err = capsys.readouterr().err
    assert "Discord Developer Portal" in err and "Reset Token" in err
    assert f"{command()} play {first_game()}" in err


def test_play_help_lists_games_and_levels(capsys) -> None:  # type: ignore[no-untyped-def]
    try:
        main(["play", "--help"])
    except SystemExit as e:
        assert e.code == 0
    out = capsys.readouterr().out
    from bot.ai import LEVELS
    from engine.registry import games
    from engine.table.present import player_count

    for g in games().values():
        assert re.search(rf"^  {g.id} +{re.escape(g.title)}, {player_count(g)}", out, re.M)
    assert "Ophelia, 2 players" in out
    assert all(level in out for level in LEVELS) and "AI levels:" in out


def test_hints_work_as_printed() -> None:
    """The command hints print runs from here, and pyproject installs it as `agora`."""
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["agora"] == "bot.__main__:main"
    cmd = command()
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    done = subprocess.run(
        f"{cmd} play --help", shell=True, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and "AI levels:" in done.stdout, done.stderr


def test_python_dash_m_bot_plays_a_game(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    db = str(tmp_path / "m.db")
    args = [sys.executable, "-m", "bot", "play", "--players", "2", "--ai", "2", "--ai-delay", "0"]
    done = subprocess.run([*args, "--db", db], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "is over" in done.stdout
    run = subprocess.run(
        [sys.executable, "-m", "bot", "run"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert run.returncode == 2 and "DISCORD_TOKEN" in run.stderr


def test_ctrl_c_saves_and_quits_at_once(tmp_path: Path) -> None:
    """SIGINT while the game waits for input (a pipe that stays open): out within seconds, with the hint."""
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    args = [
        sys.executable,
        "-m",
        "bot",
        "play",
        "--ai-delay",
        "0",
        "--seed",
        "1",
        "--db",
        str(tmp_path / "i.db"),
    ]
    proc = subprocess.Popen(
        args,
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        seen = ""
        deadline = time.monotonic() + 30
        while "] > " not in seen and time.monotonic() < deadline:
            seen += os.read(proc.stdout.fileno(), 4096).decode()
        assert "] > " in seen, seen
        started = time.monotonic()
        proc.send_signal(signal.SIGINT)
        rest, err = proc.communicate(timeout=10)
        assert time.monotonic() - started < 5
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert "Saved. Resume with: " in rest and "play --resume 1" in rest and "Traceback" not in err


async def test_ophion_in_the_terminal(tmp_path: Path) -> None:
    """Ophion's own text board: the row with prices and each player's tracks and grids."""
    code, out = await _play(tmp_path, ANY_MOVE * 1500, game="ophion", players=3, ai=2)
    assert code == 0 and "Game #1: Ophion for 3" in out and "Game #1 is over" in out
    first_view = out.split("Player 1, your move:")[0]
    assert "== Ophion · " in first_view and "gold" in first_view
    assert first_view.count("holding:") == 1  # only the human's own hand
    assert "  p. Pass" in out


async def _ophelia_with_windows(tmp_path: Path, windows: str) -> str:
    """A terminal game of Ophelia against the AI, every window answered with Enter; what the screen showed."""
    out = io.StringIO()

    def answer(screen: str) -> str:
        menu = screen.rsplit("your move:", 1)[-1]
        if "press Enter to pass" in menu:
            return ""
        if "Game #1 is over" in screen:
            return "q"
        return key_of(screen, "End the Action Phase") if "End the Action Phase" in menu else "1"

    steps: list[str | Callable[[str], str]] = [answer] * 400
    opts = PlayOptions(
        game="ophelia", players=2, ai=1, seed=4, db=str(tmp_path / "c.db"), ai_delay=0.0, windows=windows
    )
    code = await play(opts, Reacting(out.getvalue, steps), out)  # type: ignore[arg-type]
    text = out.getvalue()
    assert code == 0 and "Game #1 is over" in text
    return text


async def test_enter_passes_a_response_window(tmp_path: Path) -> None:
    """With --windows ask, a Turning Point window in the terminal says so, and Enter lets it pass (the same
    for any hand)."""
    text = await _ophelia_with_windows(tmp_path, ASK)
    windows = [m for m in text.split("your move:")[1:] if "press Enter to pass" in m]
    assert windows and all("Pass" in w for w in windows)
    menus = [w.split("\n[")[0] for w in windows]  # the menu, up to the prompt line
    assert any(not any(line.strip()[:1].isdigit() for line in m.splitlines()) for m in menus)  # Pass only
    assert "Player 1 plays no Turning Point" in text and "window setting" not in text


@pytest.mark.parametrize("windows", [AUTO, ALL])
async def test_windows_pass_by_the_setting(tmp_path: Path, windows: str) -> None:
    """--windows auto (the default) never shows a window in which the only move is to pass; --windows all
    shows none at all: each is passed at once, and the terminal says so."""
    text = await _ophelia_with_windows(tmp_path, windows)
    assert "Player 1's window setting let the window pass." in text
    shown = [m.split("\n[")[0] for m in text.split("your move:")[1:] if "press Enter to pass" in m]
    if windows == ALL:
        assert not shown
    else:  # a window still shown offers more than the pass
        assert all(sum(line.strip()[:1].isdigit() for line in w.splitlines()) >= 1 for w in shown)


async def test_help_reads_the_rules_here_not_a_discord_command(tmp_path: Path) -> None:
    """The issue: "`h` shows the game's rules summary from the game's own rule text (shipped with the
    package), never a Discord command"."""
    code, text = await _play(tmp_path, "h\nh rules\nq\n", game="ophion")
    assert code == 0
    assert not re.search(r"(^|\s)/rules\b", text) and "h rules" in text
    assert "Agora's rulings" in text and "Attack power of the monster" in text  # Ophion's own rule text


def test_plain_drops_discord_markdown() -> None:
    assert plain("**Goal:** your turn: *Draw*, then __Deploy__; 2 * 3 stays") == (
        "Goal: your turn: Draw, then Deploy; 2 * 3 stays"
    )


def test_help_cleans_the_rule_text_and_words_the_rulings_plainly() -> None:
    """The issue: help showed "Screen Shot 2021-05-12 at 6.37.04 PM.png", "Moster cards:", ruling numbers
    and code ("[teams.ID]"). Each debris pattern drops its line; the rulings lose numbers and code."""
    debris = (
        "Screen Shot 2021-05-12 at 6.37.04 PM.png\nPicture 1: Player board\nWWW.X.COM\nRelics\t4\n- | | |"
    )
    assert (
        clean_rule_text(f"Club: attack.\n\n\n\n{debris}\nMoster cards:\n")
        == "Club: attack.\n\nMonster cards:"
    )
    assert len(DEBRIS) >= 5
    rulings = (
        "# X — rulings\n\nThe text (`shared/rules/x.txt`) is short. Each line below is what Agora does;\n"
        "`tests/test_x.py` checks them.\n\n## Setup\n4. **Reinforcements** (issue 23; `engine/x.py`) may\n"
        "   be promoted (48), as a card (`[teams.ID]`, checked by 8 and 9) or by X (plus X, 41; see 20 for\n"
        "   more). A `second_discipline` counts."
    )
    assert plain_rulings(rulings) == (
        "X — rulings\n\nThe text is short.\n\nSetup\n\n• Reinforcements may be promoted, as a card or by X"
        " (plus X). A second discipline counts."
    )
    for game_id in ("omphala", "ophion", "ophelia", "ophidian", "siege_of_olympus"):
        text = rules_text(get_game(game_id))
        for bad in ("Screen Shot", ".png", ".JPG", "Picture 1:", "Moster", "WWW.", "`", "[teams.", "issue 2"):
            assert bad not in text, (game_id, bad)
        rulings = text.split("Agora's rulings")[1]
        assert not re.search(r"\(\d+(?:[,–-] ?\d+)*\)|^\d+\. |\.py\b|\.toml\b|ruling \d", rulings, re.M), (
            game_id
        )
        assert len(rulings) > 3000, game_id  # the rulings are still there


async def test_list_and_resume_of_a_missing_database_create_nothing(tmp_path: Path) -> None:
    for kw in ({"list": True}, {"resume": "latest"}, {"resume": 3}):
        db = tmp_path / "new.db"
        out = io.StringIO()
        code = await play(PlayOptions(db=str(db), **kw), io.StringIO(""), out)  # type: ignore[arg-type]
        assert out.getvalue().startswith(f"There is no database at {db}; start a game with: ")
        assert out.getvalue().count("\n") == 1 and code == (0 if "list" in kw else 1)
        assert not db.exists(), kw


async def test_quitting_the_app_leaves_only_the_save_line(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """In a terminal the app starts; what stays on the terminal after it names the game, never "Type h for
    help." (the app is gone), and says how to resume."""
    import bot.console as console

    async def app(opts: PlayOptions, match_id: int, screen: _Screen) -> int:
        screen.say(f"Saved. Resume with: {match_id}")
        return 0

    monkeypatch.setattr(console, "_isatty", lambda stream: True)
    monkeypatch.setattr(console, "_run_app", app)
    code, out = await _play(tmp_path, "", game="omphala")
    assert code == 0 and "Game #1: Omphala" in out and "Saved. Resume with: 1" in out
    assert "Type h for help" not in out
    code, out = await _play(tmp_path, "q\n", game="omphala", line=True)
    assert "Type h for help" in out  # line mode keeps it: h works there


async def test_line_mode_inspects_a_card_and_shows_the_whole_log(tmp_path: Path) -> None:
    """`i` lists the cards on screen, `i NAME` shows one card's text as the app's card screen does, and `l`
    the whole log, numbered, as the app's l does."""
    out = io.StringIO()

    def first_card(screen: str) -> str:
        return (
            "i " + re.findall(r"^  (.+) — Your ", screen.rsplit("The cards on screen", 1)[1], re.M)[0].upper()
        )

    steps: list[str | Callable[[str], str]] = ["i", first_card, "i zzz", "1", "l", "q"]
    opts = PlayOptions(game="omphala", players=2, ai=1, seed=4, db=str(tmp_path / "c.db"), ai_delay=0.0)
    code = await play(opts, Reacting(out.getvalue, steps), out)  # type: ignore[arg-type]
    text = out.getvalue()
    assert code == 0 and "The cards on screen (type i and a name):" in text
    shown = text.split("The cards on screen", 1)[1]
    assert "Here: Your hand" in shown and "Power" in shown  # the card's text, where it is
    assert "No card named 'zzz' is on screen." in text
    assert re.search(r"^   1  ", text, re.M) and re.search(r"^   2  ", text, re.M)  # the numbered log
    assert "[1-" in text and ", ?, u, i, l, r, q, h] > " in text


async def test_line_mode_prints_no_bare_moved(tmp_path: Path) -> None:
    """Line mode shares the app's log rule: a move with no event to read is "X makes a choice", never "X
    moved." (Ophidian's silent passes and arranging; two AIs, played to the end)."""
    out = io.StringIO()
    opts = PlayOptions("ophidian", 2, 2, 4, str(tmp_path / "c.db"), level="random", ai_delay=0, line=True)
    await play(opts, io.StringIO(""), out)
    text = out.getvalue()
    assert " moved." not in text and "makes a choice." in text
