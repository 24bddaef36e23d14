"""The terminal front end: whole games through the session manager and SQLite, hot seat, resume."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from bot.__main__ import main
from bot.console import PlayOptions, card_label, format_generic, format_view, play
from engine.match import Match

ROOT = Path(__file__).resolve().parents[1]


async def _play(tmp_path: Path, text: str, **kw: object) -> tuple[int, str]:
    out = io.StringIO()
    opts = PlayOptions(db=str(tmp_path / "c.db"), ai_delay=0.0, seed=4, **kw)  # type: ignore[arg-type]
    code = await play(opts, io.StringIO(text), out)
    return code, out.getvalue()


async def test_all_ai_game_plays_to_the_end(tmp_path: Path) -> None:
    code, out = await _play(tmp_path, "", players=4, ai=4)
    assert code == 0
    assert "Game #1: Omphala for 4" in out and "Game #1 is over. Won by:" in out
    assert "your move" not in out and "Pass the screen" not in out
    assert out.count("AI 2 (random): ") > 3  # AI moves are printed as they happen


async def test_one_human_against_ai_with_scripted_input(tmp_path: Path) -> None:
    code, out = await _play(tmp_path, "1\n" * 3000, players=3, ai=2)
    assert code == 0 and "Game #1 is over" in out
    assert "Player 1, your move:" in out and "Pass the screen" not in out
    assert "hand:" in out  # the human saw their own hand in the choose phase ...
    first_view = out.split("Player 1, your move:")[0]
    assert first_view.count("hand:") == 1  # ... and nobody else's
    assert "P2 AI 2 (random): 0 cards in front · choosing" not in first_view  # AIs choose before the human


async def test_hot_seat_asks_to_pass_the_screen(tmp_path: Path) -> None:
    code, out = await _play(tmp_path, "1\n" * 6000, players=3, ai=1)
    assert code == 0 and "is over" in out
    assert "Pass the screen to Player 1 — press Enter" in out
    assert "Pass the screen to Player 2 — press Enter" in out
    assert "Pass the screen to AI" not in out


async def test_quit_then_resume_the_same_game(tmp_path: Path) -> None:
    code, out = await _play(tmp_path, "h\nzz\n1\n1\nq\n", players=2, ai=1)
    assert code == 0 and "Saved. Resume with: python -m bot play --resume 1" in out
    assert "Please type a number" in out and "u = undo" in out
    code, listing = await _play(tmp_path, "", list=True)
    assert code == 0 and "active" in listing and "--resume 1" in listing
    code, out = await _play(tmp_path, "1\n" * 3000, resume="latest")
    assert code == 0 and "Resuming game #1." in out and "Game #1 is over" in out
    code, out = await _play(tmp_path, "", resume="latest")
    assert code == 1 and "no unfinished console game" in out
    code, out = await _play(tmp_path, "", resume=1)
    assert "Game #1 is over" in out


async def test_undo_from_the_console(tmp_path: Path) -> None:
    # Seed 4: Player 1 chooses, cannot undo the reveal, shields (option 9), then takes the shield back.
    code, out = await _play(tmp_path, "1\nu\n9\nu\nq\n", players=2, ai=1)
    assert code == 0 and "There is nothing you can take back now." in out
    assert "You: P1 shields front card 1 with K♦" in out and "You: Player 1 took back a move" in out
    assert "(2 actions left)" in out.rsplit("took back a move", 1)[1]  # both actions are back


async def test_bad_options_are_explained(tmp_path: Path) -> None:
    code, out = await _play(tmp_path, "", players=9)
    assert code == 2 and "2 to 6 players" in out
    code, out = await _play(tmp_path, "", players=3, ai=5)
    assert code == 2 and "--ai must be" in out
    code, out = await _play(tmp_path, "", game="chess")
    assert code == 2 and "unknown game" in out


def test_views_as_text() -> None:
    m = Match.new("omphala", 3, 9)
    text = format_view(m.game.view(m.state, 1), ["Ann", "Bo", "Cy"])
    assert "P2 Bo (you)" in text and text.count("hand:") == 1
    assert card_label("10H") == "10♥" and card_label(None) == "??"
    assert format_generic({"game": "x", "a": [1, 2]}, []) == "== x ==\na: [1,2]"


def test_run_without_a_token_says_how_to_get_one(capsys) -> None:  # type: ignore[no-untyped-def]
    env_token = os.environ.pop("DISCORD_TOKEN", None)
    try:
        assert main(["run"]) == 2
    finally:
        if env_token is not None:
            os.environ["DISCORD_TOKEN"] = env_token
    err = capsys.readouterr().err
    assert "Discord Developer Portal" in err and "Reset Token" in err and "python -m bot play omphala" in err


def test_python_dash_m_bot_plays_a_game(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    db = str(tmp_path / "m.db")
    args = [sys.executable, "-m", "bot", "play", "omphala", "--players", "2", "--ai", "2", "--ai-delay", "0"]
    done = subprocess.run([*args, "--db", db], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "is over" in done.stdout
    run = subprocess.run(
        [sys.executable, "-m", "bot", "run"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert run.returncode == 2 and "DISCORD_TOKEN" in run.stderr


async def test_ophion_in_the_terminal(tmp_path: Path) -> None:
    """Ophion has its own text board: the market with prices and each player's tracks and grids."""
    code, out = await _play(tmp_path, "1\n" * 3000, game="ophion", players=3, ai=2)
    assert code == 0 and "Game #1: Ophion for 3" in out and "Game #1 is over" in out
    first_view = out.split("Player 1, your move:")[0]
    assert "== Ophion · round 1/9 · tier 1" in first_view and "Market: " in first_view
    assert first_view.count("holding:") == 1  # only the human's own hand
    assert "Result: winner" in out
