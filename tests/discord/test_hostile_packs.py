"""Hostile card packs (issue 34, point 2): "Any card pack answered in two seconds, the bot never blocked ...
every malformed file gets a one-line refusal naming what is wrong, never the generic apology". A dotted key
of thousands of parts, arrays or inline tables nested thousands deep, a TOML date where text is wanted: each
refused in one line naming it (engine/toml_guard.py before tomllib), through the engine, the fake Discord and
the terminal; the check runs beside the event loop, so another server's command answers meanwhile."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.discord.common import OOPS
from bot.sessions import packs as server_packs
from engine import packs, toml_guard
from engine.carddata import CardDataError
from tests.discord_harness import Harness
from tests.fakediscord import FakeAttachment, FakeChannel, FakeDiscord, FakeUser

ROOT = Path(__file__).resolve().parents[2]
SILK = packs.example("ophelia")
assert SILK is not None
GOOD = SILK.read_text(encoding="utf-8")
HEAD = '[pack]\ngame = "ophelia"\nname = "Hostile"\n'

HOSTILE = {  # file -> (text, what its refusal says)
    "dotted.toml": (
        ".".join(["k"] * 20_000) + " = 1\n",
        "dotted.toml line 1: a key of more than 8 dotted parts",
    ),
    "header.toml": (
        HEAD + "[" + ".".join(["k"] * 30_000) + "]\n",
        "header.toml line 4: a table header of more than 8 dotted parts",
    ),
    "arrays.toml": (
        "a = " + "[" * 30_000 + "]" * 30_000 + "\n",
        "arrays.toml line 1: arrays nested more than 8 deep",
    ),
    "inline.toml": (
        "a=" + "{a=" * 15_000 + "1" + "}" * 15_000 + "\n",
        "inline.toml line 1: inline tables nested more than 8 deep",
    ),
    "date.toml": (
        GOOD.replace('name = "The Silk Road"', "name = 1979-05-27", 1),
        "date.toml: pack.name = 1979-05-27: a date; write it in quotes",
    ),
    "when.toml": (
        GOOD.replace("\npower = ", "\npower = 1979-05-27T07:32:00 #", 1),
        "when.toml: card[1].power = 1979-05-27T07:32:00: a date and time; write it in quotes",
    ),
    "digits.toml": (
        HEAD + "a = " + "9" * 5000 + "\n",
        "digits.toml line 4: a value of 5,000 characters; at most 100",
    ),
    "huge.toml": (HEAD + "a = 99999999999999999999\n", "huge.toml: pack.a is an integer beyond 64 bits"),
    "inf.toml": (HEAD + "a = inf\n", "inf.toml: pack.a = inf: not a finite number"),
    "keys.toml": (
        HEAD + "".join(f"k{i} = 1\n" for i in range(5000)),
        "keys.toml [pack]: unknown field k0, k1, k10 and 4,997 more; known: description, game, name",
    ),
    "value.toml": (
        GOOD.replace("\npower = ", "\npower = '" + "x" * 60_000 + "' #", 1),
        "value.toml card 1 (marco_polo): power must be int, not '" + "x" * 243 + "…",
    ),
    "cards.toml": (
        '[pack]\ngame = "ophion"\nname = "Listed"\n[[cards]]\nid = "x"\n',
        "cards.toml: no card tables ([cards.ID])",
    ),
}


def test_every_hostile_file_is_sized_like_the_issue_says() -> None:
    sizes = {name: len(text.encode()) for name, (text, _) in HOSTILE.items()}
    assert 39_000 < sizes["dotted.toml"] <= packs.MAX_PACK_BYTES
    assert all(size <= packs.MAX_PACK_BYTES for size in sizes.values())


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_pack_is_refused_in_one_line_naming_the_problem(name: str) -> None:
    text, says = HOSTILE[name]
    start = time.monotonic()
    with pytest.raises(CardDataError) as refused:
        packs.read(text, name)
    assert str(refused.value) == says
    assert time.monotonic() - start < 30  # no hang (the benchmark, bench/packs.py, measures: milliseconds)


def test_strings_and_comments_are_not_counted_as_keys_or_brackets() -> None:
    noise = '[[[[[[[[[[[[ {{{{{{{{{{ a.b.c.d.e.f.g.h.i.j.k = ]]]]]] \\ " '
    lines = GOOD.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("description = "))
    ml = "'" * 3
    lines[at] = f"# {noise}\ndescription = {ml}\n{noise}{noise}{ml} # {noise}\n"  # a description is one line
    pack = packs.read(f"# {noise}\n" + "".join(lines), "noise.toml")
    assert pack.description.startswith("[[[[")
    quoted = '"a.b.c.d.e.f.g.h.i.j" = 1\n' + "'k.k.k.k.k.k.k.k.k' = 2\n"
    escaped = noise.replace("\\", "\\\\").replace('"', '\\"')
    toml_guard.scan(f'k = "{escaped}"\nm = """\n{noise}"""\n{quoted}', "x")


def test_every_shipped_card_file_passes_the_scan() -> None:
    files = sorted((ROOT / "engine" / "games").glob("*/cards.toml"))
    files += sorted((ROOT / "engine" / "games").glob("*/packs/*.toml"))
    assert len(files) >= 9
    for path in files:
        toml_guard.scan(path.read_text(encoding="utf-8"), path.name)


def test_keys_and_nesting_at_the_limit_are_read() -> None:
    data = toml_guard.plain(
        __import__("tomllib").loads(".".join("k" * 8) + " = [[[[[[[1]]]]]]]\n"), "x"
    )  # 8 parts, 8 arrays deep
    assert data["k"]["k"]["k"]["k"]["k"]["k"]["k"]["k"] == [[[[[[[1]]]]]]]
    toml_guard.scan("a = " + "{b = " * 8 + "1" + "}" * 8, "x")


# --- through the fake Discord ------------------------------------------------------------------------------


async def test_hostile_uploads_get_their_own_line_not_the_apology(fake: FakeDiscord, tmp_path: Path) -> None:
    ann = fake.add_user("ann", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        for name in ("dotted.toml", "arrays.toml", "inline.toml", "date.toml", "keys.toml", "value.toml"):
            text, says = HOSTILE[name]
            file = FakeAttachment.from_upload(name, text.encode())
            slash = await fake.slash(ann, fake.channel, "config", {"cardpack": file, "hints": "off"})
            answer = await slash.wait_reply(timeout=30)
            assert answer.content == says and OOPS not in answer.content and answer.ephemeral
        assert await h.store.packs(fake.guild.id) == []


def _two_servers(fake: FakeDiscord) -> tuple[FakeUser, FakeUser, FakeChannel]:
    """ann, an admin of the fake's server; bob on another server, and that server's #general."""
    ann = fake.add_user("ann", admin=True)
    other = fake.add_guild("Elsewhere")
    return ann, fake.add_user("bob", guild=other), fake.add_channel("general", other)


def _slow_read(checked: threading.Event) -> Callable[[str, str], packs.Pack]:
    """packs.read 1.5 s slower, setting `checked` once it is done."""
    read = packs.read

    def slow(text: str, filename: str) -> packs.Pack:
        time.sleep(1.5)
        checked.set()
        return read(text, filename)

    return slow


async def test_another_servers_command_answers_while_a_pack_is_checked(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, bob, elsewhere = _two_servers(fake)
    checked = threading.Event()
    monkeypatch.setattr(packs, "read", _slow_read(checked))  # a slow but valid check (a loaded machine)
    async with Harness.started(fake, tmp_path) as h:
        file = FakeAttachment.from_upload("silk.toml", GOOD.encode())
        upload = await fake.slash(ann, fake.channel, "config", {"cardpack": file, "hints": "off"})
        added = asyncio.create_task(upload.wait_reply(timeout=30))
        await asyncio.sleep(0.3)  # the check is under way
        stats = await (await fake.slash(bob, elsewhere, "stats")).wait_reply(timeout=30)
        assert stats.text().startswith("📊 **bob**") and not checked.is_set()  # answered during the check
        assert (await added).text().startswith("📦 Card pack **The Silk Road** v1")
        assert len(await h.store.packs(fake.guild.id)) == 1


async def test_stored_packs_read_afresh_leave_the_event_loop_free(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, bob, elsewhere = _two_servers(fake)
    checked = threading.Event()
    slow = _slow_read(checked)  # a stored pack read again after a restart

    async with Harness.started(fake, tmp_path):
        file = FakeAttachment.from_upload("silk.toml", GOOD.encode())
        await (await fake.slash(ann, fake.channel, "config", {"cardpack": file, "hints": "off"})).wait_reply()
        server_packs._read.clear()  # as after a restart: nothing read yet
        monkeypatch.setattr(packs, "read", slow)
        listed = asyncio.create_task((await fake.slash(ann, fake.channel, "config")).wait_reply(timeout=30))
        await asyncio.sleep(0.3)
        stats = await (await fake.slash(bob, elsewhere, "stats")).wait_reply(timeout=30)
        assert stats.text().startswith("📊 **bob**") and not checked.is_set()
        assert "The Silk Road v1" in (await listed).text()


async def test_a_check_over_the_time_limit_is_refused_in_one_line(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann = fake.add_user("ann", admin=True)
    slow_read = packs.read

    def slow(text: str, filename: str) -> packs.Pack:
        time.sleep(1.0)
        return slow_read(text, filename)

    monkeypatch.setattr(packs, "read", slow)
    monkeypatch.setattr(server_packs, "READ_SECONDS", 0.2)
    async with Harness.started(fake, tmp_path) as h:
        file = FakeAttachment.from_upload("silk.toml", GOOD.encode())
        answer = await (
            await fake.slash(ann, fake.channel, "config", {"cardpack": file, "hints": "off"})
        ).wait_reply(timeout=30)
        assert answer.text().startswith("silk.toml: took more than 0.2 seconds to check, so it was refused")
        assert await h.store.packs(fake.guild.id) == []


# --- in the terminal -------------------------------------------------------------------------------------


def _play_pack(path: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    args = [
        sys.executable,
        "-m",
        "bot",
        "play",
        "ophelia",
        "--pack",
        path,
        "--line",
        "--db",
        str(tmp_path / "c.db"),
    ]
    env = {**os.environ, "AGORA_RENDER_WORKERS": "0"}
    return subprocess.run(args, cwd=ROOT, input="", capture_output=True, text=True, timeout=120, env=env)


@pytest.mark.parametrize("name", ["dotted.toml", "arrays.toml", "inline.toml", "date.toml"])
def test_the_terminal_refuses_a_hostile_pack_in_one_line(name: str, tmp_path: Path) -> None:
    text, says = HOSTILE[name]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    done = _play_pack(str(path), tmp_path)
    assert done.returncode == 2 and done.stdout == f"--pack: {says}\n", done
    assert "Traceback" not in done.stderr


def test_the_terminal_refuses_a_fifo_or_a_device_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    for path, says in ((str(fifo), "is a pipe (FIFO), not a regular file"), ("/dev/zero", "is a device")):
        done = _play_pack(path, tmp_path)
        assert done.returncode == 2 and done.stdout.startswith(f"--pack: {path} {says}"), done
        assert done.stdout.count("\n") == 1 and "Traceback" not in done.stderr


@pytest.mark.parametrize("unit", ['"\\', '"""\\', "'''a", '""\\', '\\"""', "[", "'"])
def test_unclosed_strings_do_not_make_the_scan_quadratic(unit: str) -> None:
    text = (unit * (packs.MAX_PACK_BYTES // len(unit)))[: packs.MAX_PACK_BYTES]
    start = time.monotonic()
    with pytest.raises(CardDataError):
        packs.read(text, "quotes.toml")
    assert (
        time.monotonic() - start < 10
    )  # no hang: a string's quotes once took 47 s to scan (milliseconds now)
