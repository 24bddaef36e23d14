"""`agora export`: a terminal game that is over, written in the /game export format, plays back with
`agora replay --all` (issue 35, point 6), and every refusal is one line that writes nothing."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.console import PlayOptions, play
from engine.export import from_json
from engine.registry import games


def _play(db: Path, game: str, ai: int = 2, moves: str = "", seed: int = 1) -> int:
    """A terminal game in line mode (all-AI seats by default: it plays to the end at once); its exit code."""
    opts = PlayOptions(game, 2, ai, seed, str(db), level="random", ai_delay=0, line=True)
    return asyncio.run(play(opts, io.StringIO(moves), io.StringIO()))


@pytest.mark.parametrize("game_id", list(games()))
def test_a_finished_terminal_game_exports_and_replays(
    game_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, file = tmp_path / "console.db", tmp_path / "game.json"
    assert _play(db, game_id) == 0
    capsys.readouterr()
    assert main(["export", "--db", str(db), "--to", str(file)]) == 0
    out, err = capsys.readouterr()
    assert not err and out.startswith(f"Wrote {games()[game_id].title} game #1 (") and "replay" in out
    export = from_json(json.loads(file.read_text()))
    assert export.game_id == game_id and export.status == "finished" and export.match_id == 1
    names = [(s.name, s.ai) for s in export.seats]
    assert names == [("AI 1 (random)", "random"), ("AI 2 (random)", "random")], "the names the game stored"
    assert main(["replay", str(file), "--all"]) == 0
    out, err = capsys.readouterr()
    assert not err and "matches the recorded one; the rebuilt game ends with the same result." in out


def test_refusals_are_one_line_and_write_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "console.db"

    def refused(*args: str) -> str:
        assert main(["export", "--db", str(db), *args]) == 1
        out, err = capsys.readouterr()
        assert not out and err.count("\n") == 1 and "Traceback" not in err
        return err

    assert "there is no database at" in refused()
    assert not db.exists(), "looking for a game makes no database"
    assert _play(db, "ophion", ai=1, moves="1\nq\n") == 0  # a person's game, saved half-way
    err = refused()
    assert "there is no finished terminal game in" in err
    err = refused("1")
    assert "Game #1 is still being played, so it cannot be exported yet" in err and "hidden card" in err
    assert "there is no terminal game #7 in" in refused("7")
    assert list(tmp_path.iterdir()) == [db], "no file written"

    assert _play(db, "omphala") == 0  # game #2, over
    assert main(["export", "--db", str(db)]) == 0  # the latest finished one, named for its game and number
    capsys.readouterr()
    written = tmp_path / "agora-omphala-2.json"
    first = written.read_text()
    written.write_text("mine")
    assert f"{written.name} exists; add --force to replace it" in refused("2", "--to", written.name)
    assert written.read_text() == "mine"
    assert main(["export", "2", "--to", written.name, "--force", "--db", str(db)]) == 0
    assert written.read_text() == first
