"""The terminal's card packs: `play GAME --pack FILE` (or `--pack example`, the pack the game ships) deals
the game with the pack, checked as Discord checks an upload; a refused pack is one line and starts nothing."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from bot.console import PlayOptions, play
from bot.sessions.packs import pack_of
from bot.store import SqliteStore
from engine import packs

ROOT = Path(__file__).resolve().parents[2]
GAME = "ophion"


async def _play(tmp_path: Path, text: str, **kw: object) -> tuple[int, str]:
    out = io.StringIO()
    opts = PlayOptions(db=str(tmp_path / "c.db"), ai_delay=0.0, seed=4, line=True, **kw)  # type: ignore[arg-type]
    code = await play(opts, io.StringIO(text), out)  # type: ignore[arg-type]
    return code, out.getvalue()


async def _options(tmp_path: Path) -> list[dict[str, object]]:
    store = SqliteStore(str(tmp_path / "c.db"))
    await store.open()
    try:
        found = await store.list_matches(origin="console")
        return [rec.options for m in found if (rec := await store.get_match(m.id)) is not None]
    finally:
        await store.close()


async def test_the_example_pack_deals_its_cards_and_resumes(tmp_path: Path) -> None:
    example = packs.example(GAME)
    assert example is not None
    pack = packs.read(example.read_text(encoding="utf-8"), example.name)
    code, out = await _play(tmp_path, "q\n", game=GAME, players=2, ai=1, level="random", pack="example")
    assert (
        code == 0
        and f"Game #1: Ophion for 2 (Player 1 and AI 2 (random)) with the card pack {pack.name}." in out
    )
    [options] = await _options(tmp_path)
    assert pack_of(options) == (pack.name, 1) and options["pack"] == packs.option(pack, 1)
    code, again = await _play(tmp_path, "q\n", resume=1)  # a new session manager reads it back
    assert code == 0 and "Resuming game #1." in again and "Saved. Resume with:" in again


async def test_a_pack_file_of_ones_own(tmp_path: Path) -> None:
    example = packs.example(GAME)
    assert example is not None
    mine = tmp_path / "hills.toml"
    mine.write_text(example.read_text(encoding="utf-8").replace('name = "Wild Hills"', 'name = "My Hills"'))
    code, out = await _play(tmp_path, "q\n", game=GAME, players=2, ai=1, level="random", pack=str(mine))
    assert code == 0 and "with the card pack My Hills." in out


async def test_a_refused_pack_is_one_line_and_starts_nothing(tmp_path: Path) -> None:
    example = packs.example(GAME)
    other = packs.example("ophelia")
    assert example is not None and other is not None
    bad = tmp_path / "bad.toml"
    bad.write_text(example.read_text(encoding="utf-8").replace("\ncost = 2", '\ncost = "two"', 1))
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (packs.MAX_PACK_BYTES + 1))
    cases = [
        (GAME, str(bad), "--pack: bad.toml [cards.kobold]: cost must be int, not 'two'"),
        (GAME, str(big), "--pack: big.toml: 65,537 bytes; a card pack is at most 65,536 bytes"),
        (GAME, str(other), "--pack: example.toml is a card pack for Ophelia, not Ophion"),
        (
            GAME,
            str(tmp_path / "none.toml"),
            f"--pack: {tmp_path / 'none.toml'}: cannot be read (No such file",
        ),
        ("omphala", "example", "--pack: Omphala takes no card packs"),
    ]
    for game, where, line in cases:
        code, out = await _play(tmp_path, "", game=game, players=2, ai=1, pack=where)
        assert code == 2 and out.startswith(line) and out.count("\n") == 1, out
    assert await _options(tmp_path) == []  # nothing was started, nothing saved


def test_the_command_line_takes_pack(tmp_path: Path) -> None:
    db = str(tmp_path / "cli.db")
    args = [sys.executable, "-m", "bot", "play", "omphala", "--pack", "example", "--line", "--db", db]
    done = subprocess.run(args, cwd=ROOT, input="", capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == "--pack: Omphala takes no card packs\n", done
