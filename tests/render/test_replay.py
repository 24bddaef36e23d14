"""Replays: the animation (render/replay.py) and `python -m bot replay FILE` (bot/replay.py); issue 26.

"posts the whole game as an animated image: one frame per turn drawn from the spectator view, duplicate
frames dropped, a readable pace, within Discord's upload limit (fall back to fewer frames, then a smaller
size, never fail)" and "`python -m bot replay FILE` plays back in the terminal".
"""

from __future__ import annotations

import io
import json
import os
import threading
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from bot.__main__ import main
from bot.drawing import Drawing
from bot.replay import replay_file
from engine import packs
from engine.export import (
    MAX_EXPORT_BYTES,
    Export,
    ExportSeat,
    rules_version_of,
    state_digest,
    to_text,
    turn_views,
)
from engine.match import Match
from render.gallery import NAMES, play
from render.replay import FRAME_MS, LAST_MS, TINY_WIDTH, animate, spread


def frames_of(data: bytes) -> tuple[int, list[int], tuple[int, int]]:
    """A GIF's frame count, each frame's duration, and its size."""
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF"
    durations = []
    for i in range(gif.n_frames):
        gif.seek(i)
        durations.append(gif.info["duration"])
    return gif.n_frames, durations, gif.size


def views_of(game_id: str, seed: int = 2) -> list[dict]:
    m = play(game_id, 2, seed)
    return turn_views(game_id, 2, seed, None, m.log)


def test_one_frame_a_turn_at_a_readable_pace_the_last_held_longer() -> None:
    views = views_of("ophelia")
    animation = animate("ophelia", views, NAMES[:2])
    count, durations, size = frames_of(animation.data)
    assert count == animation.frames == animation.turns == len(views)
    assert durations == [FRAME_MS] * (count - 1) + [LAST_MS] and FRAME_MS == 1000 and LAST_MS > FRAME_MS
    assert size == (animation.width, animation.height) and animation.fits


def test_identical_pictures_are_shown_once() -> None:
    views = views_of("omphala")
    animation = animate("omphala", [views[0], views[0], views[1], views[1], views[-1]], NAMES[:2])
    assert animation.frames == 3


def test_fewer_frames_keep_the_first_and_the_last() -> None:
    assert spread(10, 10) == list(range(10))
    assert spread(100, 5) == [0, 25, 50, 74, 99]
    assert spread(7, 2) == [0, 6] and spread(7, 1) == [6]


def test_too_big_for_the_limit_means_fewer_frames_then_smaller_ones_never_a_failure() -> None:
    views = views_of("ophion")
    full = animate("ophion", views, NAMES[:2])
    fewer = animate("ophion", views, NAMES[:2], limit=len(full.data) // 2)
    assert fewer.fits and len(fewer.data) <= len(full.data) // 2
    assert fewer.frames < full.frames and fewer.width == full.width, "frames go first"
    smaller = animate("ophion", views, NAMES[:2], limit=len(full.data) // 20)
    assert smaller.fits and smaller.width < full.width, "then the size"
    tiny = animate("ophion", views, NAMES[:2], limit=8 * 1024)
    assert tiny.fits and tiny.frames == 1 and tiny.width >= TINY_WIDTH, "a thumbnail of the end at worst"
    assert frames_of(tiny.data)[0] == 1
    impossible = animate("ophion", views, NAMES[:2], limit=10)
    assert not impossible.fits and impossible.data, "still an image: the caller says it does not fit"


async def test_the_bot_draws_a_replay_in_a_process_of_its_own_beside_the_board_workers() -> None:
    """A replay takes seconds: it is made in its own (lower-priority) process, so that no board of another
    game waits behind it; the image is the one made here."""
    m = play("ophelia", 2, 2)
    drawing = Drawing(1)
    try:
        made = await drawing.replay("ophelia", 2, 2, None, m.log, NAMES[:2], 10 * 2**20)
        assert drawing._replays is not None and drawing._pool is None
        here = animate("ophelia", turn_views("ophelia", 2, 2, None, m.log), NAMES[:2])
        assert made.data == here.data
        view = m.game.view(m.state, None)
        assert (await drawing.board("ophelia", view, NAMES[:2]))[:4] == b"\x89PNG"
        assert drawing._pool is not None
    finally:
        await drawing.close()


# --- the terminal playback -----------------------------------------------------------------------------
def write_export(tmp_path: Path, m: Match, **changes: object) -> str:
    export = Export(
        game_id=m.game_id,
        rules_version=rules_version_of(m.game_id),
        seats=(ExportSeat("Ada"), ExportSeat("Bot 1", "hard")),
        seed=m.seed,
        options=m.options,
        log=tuple(m.log),
        status="finished",
        shares=tuple(m.game.returns(m.state) or ()),
        match_id=12,
        title=m.game.title,
        final_sha256=state_digest(m.game.to_json(m.state)),
    )
    path = tmp_path / "game.json"
    path.write_text(to_text(replace(export, **changes)))  # type: ignore[arg-type]
    return str(path)


def test_the_terminal_plays_a_good_file_through_and_says_it_matches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    m = play("ophion", 2, 3)
    assert main(["replay", write_export(tmp_path, m), "--all"]) == 0
    out, err = capsys.readouterr()
    assert not err
    assert out.startswith("Ophion game #12: Ada and Bot 1 (AI, hard);")
    assert "── The deal" in out and f"── Move {len(m.log)}/{len(m.log)} · " in out
    assert "── Move 1/" in out and "Ada: " in out
    assert "matches the recorded one; the rebuilt game ends with the same result." in out
    assert "Warning" not in out


def test_enter_steps_a_move_at_a_time_and_q_stops_but_still_checks(tmp_path: Path) -> None:
    m = play("omphala", 2, 3)
    answers = iter(["", "", "q"])
    out, err = io.StringIO(), io.StringIO()
    code = replay_file(write_export(tmp_path, m), out=out, err=err, ask=lambda _: next(answers))
    text = out.getvalue()
    assert code == 0 and "── Move 2/" in text and "── Move 3/" not in text
    assert "Stopped; the rest of the game was rebuilt" in text and "matches the recorded one" in text


def test_a_seat_sees_its_own_hand(tmp_path: Path) -> None:
    m = play("ophion", 2, 3)
    out = io.StringIO()
    assert replay_file(write_export(tmp_path, m), all_moves=True, seat=2, out=out) == 0
    assert "Watching as Bot 1" in out.getvalue() and "You draw" in out.getvalue()


def test_another_rules_version_is_a_warning(tmp_path: Path) -> None:
    m = play("omphala", 2, 3)
    out = io.StringIO()
    replay_file(write_export(tmp_path, m, rules_version="0"), all_moves=True, out=out)
    assert "Warning: this game was played under rules version 0" in out.getvalue()


def test_a_different_final_state_is_reported(tmp_path: Path) -> None:
    m = play("omphala", 2, 3)
    out = io.StringIO()
    assert replay_file(write_export(tmp_path, m, final_sha256="0" * 64), all_moves=True, out=out) == 1
    assert "does NOT match the recorded one" in out.getvalue()


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (None, "cannot read"),
        (b"\x89PNG\r\n\x1a\n\x00\xff", "is not a text file"),
        (b"{not json", "is not JSON"),
        (b'{"format": "something else"}', "not an Agora match export"),
        ("illegal", "move 4 ('nonsense' for seat"),
    ],
)
def test_a_wrong_file_gets_one_clear_line_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | str | None, says: str
) -> None:
    path = tmp_path / "game.json"
    if content == "illegal":
        m = play("omphala", 2, 3)
        seat = m.log[3][0]
        write_export(tmp_path, m, log=(*m.log[:3], (seat, "nonsense"), *m.log[4:]))
    elif content is not None:
        path.write_bytes(content)
    assert main(["replay", str(path), "--all"]) == 1
    _, err = capsys.readouterr()
    assert says in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert err.startswith(f"{err.split(' replay: ')[0]} replay: ")


def test_the_export_in_the_file_is_the_documented_format(tmp_path: Path) -> None:
    data = json.loads(Path(write_export(tmp_path, play("omphala", 2, 3))).read_text())
    assert data["format"] == "agora-match" and data["version"] == 1


def _ophion_pack() -> packs.Pack:
    example = packs.example("ophion")
    assert example is not None
    return packs.read(example.read_text(encoding="utf-8"), example.name)


def _hostile(tmp_path: Path, kind: str) -> str:
    """A file `agora replay` must refuse in one line: a device, a FIFO, deep JSON, a huge name, too large."""
    path = tmp_path / "game.json"
    if kind == "device":
        return "/dev/zero"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "deep":
        path.write_text("[" * 100_000 + "]" * 100_000)
    elif kind == "deeper than an export":
        data = json.loads(Path(write_export(tmp_path, play("omphala", 2, 3))).read_text())
        data["options"]["x"] = json.loads("[" * 40 + "]" * 40)
        path.write_text(json.dumps(data))
    elif kind == "name":
        write_export(tmp_path, play("omphala", 2, 3), seats=(ExportSeat("A" * 1_000_000), ExportSeat("B")))
    elif kind == "key":
        m = play("omphala", 2, 3)
        write_export(tmp_path, m, log=((m.log[0][0], "k" * 100_000), *m.log[1:]))
    elif kind == "pack value":
        m = Match.new("ophion", 2, 3, {"pack": packs.option(_ophion_pack(), 1)})
        data = json.loads(Path(write_export(tmp_path, m, shares=None)).read_text())
        data["options"]["pack"]["data"]["cards"]["kobold"]["cost"] = "x" * 1_000_000
        path.write_text(json.dumps(data))
    elif kind == "large":
        with path.open("wb") as f:
            f.truncate(MAX_EXPORT_BYTES + 1)  # sparse: no disk used
    return str(path)


@pytest.mark.parametrize(
    ("kind", "says"),
    [
        ("device", "/dev/zero is a device, not a regular file"),
        ("fifo", "game.json is a pipe (FIFO), not a regular file"),
        ("deep", "game.json has lists or objects nested too deep for an Agora export"),
        ("deeper than an export", "the export has lists or objects nested more than 32 deep"),
        ("name", '"seats[0].name" is 1,000,000 characters long; at most 100'),
        ("key", '"log[0]" is 100,000 characters long; at most 500'),
        (
            "pack value",
            "the game cannot be dealt from this export's seed and options (pack [cards.kobold]: cost",
        ),
        (
            "large",
            f"game.json: {MAX_EXPORT_BYTES + 1:,} bytes; an Agora export is at most {MAX_EXPORT_BYTES:,}",
        ),
    ],
)
def test_a_hostile_file_is_refused_in_one_line_without_reading_it_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, says: str
) -> None:
    done: list[int] = []
    runner = threading.Thread(
        target=lambda: done.append(main(["replay", _hostile(tmp_path, kind), "--all"])), daemon=True
    )
    runner.start()
    runner.join(60)  # a FIFO once hung here, and /dev/zero ran out of memory
    assert done == [1]
    out, err = capsys.readouterr()
    assert says in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err[:300]
    assert len(out) < 1000 and len(err) < 1500
