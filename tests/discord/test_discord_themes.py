"""Themes and text boards as people's and servers' choices: /config theme:, /notify theme: and board:."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import render
from bot.discord.common import THEME_WORDS, GuildSettings
from bot.drawing import Drawing
from engine.match import Match
from render.kit import THEMES
from tests.discord_harness import HAND, Harness
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.fakediscord.interactions import dm_channel


def drawn_in(png: bytes) -> str:
    """The theme an image was drawn in: the one whose background is nearest its top left pixel (the PNG's
    palette may move a colour by a step or two)."""
    pixel = Image.open(io.BytesIO(png)).convert("RGB").getpixel((0, 0))
    assert isinstance(pixel, tuple)
    return min(THEMES, key=lambda t: sum(abs(a - b) for a, b in zip(pixel, THEMES[t].bg, strict=True)))


def board_png(message: FakeMessage) -> bytes:
    """The board image of a board message."""
    return message.attachment("board.png").data


@pytest.fixture
def hands(monkeypatch: pytest.MonkeyPatch) -> list[str | None]:
    """The theme of every hand image drawn (as asked of Drawing.hand), in order."""
    asked: list[str | None] = []
    real = Drawing.hand

    async def hand(
        self: Drawing, game_id: str, view: Any, names: Any = None, options: Any = None, theme: Any = None
    ) -> bytes:
        asked.append(theme)
        return await real(self, game_id, view, names, options, theme)

    monkeypatch.setattr(Drawing, "hand", hand)
    return asked


async def notify(h: Harness, user: Any, **options: str) -> str:
    """/notify with these options in #general; the reply's text."""
    return (await (await h.fake.slash(user, h.fake.channel, "notify", options)).wait_reply()).text()


async def test_config_theme_draws_the_next_board_light(fake: FakeDiscord, tmp_path: Path) -> None:
    admin, bob = fake.add_user("alice", admin=True), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await h.started_game(admin, bob)
        assert drawn_in(board_png(h.board(thread))) == "dark"  # the default
        listed = await h.config(admin, theme="light")
        assert "Board theme: Light" in listed.text()
        people = {admin.id: admin, bob.id: bob}
        await h.play_move(people[(await h.sessions.get(mid)).users_to_act[0]], thread)  # a new board
        await h.settle()
        assert drawn_in(board_png(h.board(thread))) == "light"
        status = await (await fake.slash(bob, thread, "game status")).wait_reply()
        assert drawn_in(status.attachment("board.png").data) == "light"


async def test_notify_theme_draws_that_persons_hand_and_nobody_elses(
    fake: FakeDiscord, tmp_path: Path, hands: list[str | None]
) -> None:
    alice, bob = fake.add_user("alice", admin=True), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        await h.config(alice, theme="light")
        said = await notify(h, alice, theme="contrast")
        assert "Your hand image: **High contrast**" in said
        thread, _ = await h.started_game(alice, bob)
        await h.press(alice, h.board(thread), HAND)
        await h.press(bob, h.board(thread), HAND)
        assert hands == ["contrast", "light"]  # bob chose none: the server's
        assert drawn_in(board_png(h.board(thread))) == "light"  # the public board: the server's
        await h.config(alice, theme="dark")
        said = await notify(h, alice, theme="light")
        alices = await h.press(alice, h.board(thread), HAND)
        assert drawn_in(alices.attachment("hand.png").data) == "light"
        assert "Your hand image: **Light**" in said
        said = await notify(h, alice, theme="server")  # back to each server's
        assert "the server's boards' colours (here: Dark)" in said
        assert await h.store.user_setting(alice.id, "theme") is None


async def test_notify_board_text_puts_the_text_board_in_the_hand_menu(
    fake: FakeDiscord, tmp_path: Path, hands: list[str | None]
) -> None:
    alice, bob = fake.add_user("*alice*"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        said = await notify(h, alice, board="text")
        assert "shows **your hand and the board as text" in said
        thread, mid = await h.started_game(alice, bob)
        menu = await h.press(alice, h.board(thread), HAND)
        info = await h.sessions.get(mid)
        assert not menu.attachments and not menu.media() and hands == []  # no image drawn
        assert menu.v2 and not menu.embeds  # the text board in a text display, where the image would be
        text = menu.text_displays()[0]
        assert text.startswith(f"{info.title}.") and sum(map(len, menu.text_displays())) <= 4000
        assert "\\*alice\\*" in text and "*alice*" not in text.replace("\\*", "")  # a name, not Markdown
        assert menu.buttons  # the moves are still there
        played = await h.press(alice, menu, menu.buttons[0]["label"])
        assert not played.attachments
        await notify(h, alice, board="image")
        again = await h.press(alice, h.board(thread), HAND)
        assert again.attachments and again.alt("hand.png")
        assert not again.text_displays()[0].startswith(info.title)  # no text board


async def test_notify_alone_shows_the_choices_and_a_dm_may_choose(fake: FakeDiscord, tmp_path: Path) -> None:
    alice = fake.add_user("alice")
    async with Harness.started(fake, tmp_path) as h:
        said = await notify(h, alice)
        assert "Your hand image: the server's boards' colours (here: Dark)" in said
        assert "shows **an image of your hand**" in said
        dm = dm_channel(fake, alice)
        answer = await (await fake.slash(alice, dm, "notify", {"theme": "light"})).wait_reply()
        assert "Your hand image: **Light**" in answer.text()


async def test_bad_stored_values_fall_back(
    fake: FakeDiscord, tmp_path: Path, hands: list[str | None]
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        await h.store.set_guild_setting(fake.guild.id, "theme", "sepia")
        await h.store.set_user_setting(alice.id, "theme", ["neon"])
        await h.store.set_user_setting(alice.id, "board", "braille")
        await h.restart()  # read afresh
        assert (await h.bot.services.settings.of(fake.guild.id)).theme == "dark"
        thread, _ = await h.started_game(alice, bob)
        assert drawn_in(board_png(h.board(thread))) == "dark"
        menu = await h.press(alice, h.board(thread), HAND)
        assert menu.attachments and hands == ["dark"]
    assert GuildSettings.from_json({"theme": 3}).theme == "dark"


async def test_the_choices_survive_a_restart(fake: FakeDiscord, tmp_path: Path) -> None:
    alice = fake.add_user("alice", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        await h.config(alice, theme="contrast")
        await notify(h, alice, theme="light", board="text")
        await h.restart()
        assert await h.bot.services.settings.theme(fake.guild.id) == "contrast"
        prefs = h.bot.services.prefs
        assert await prefs.theme(alice.id) == "light" and await prefs.board_style(alice.id) == "text"
        assert "Board theme: High contrast" in (await h.config(alice)).text()


def test_every_theme_offered_is_one_render_draws() -> None:
    """/config theme: and /notify theme: offer render's themes (high contrast: with the colour37 part)."""
    if "contrast" not in THEMES:
        pytest.skip("render draws no high contrast theme yet (the colour37 part adds it)")
    assert set(THEME_WORDS) <= set(THEMES)


async def test_a_worker_draws_in_the_theme_asked_and_dark_for_one_it_does_not_know() -> None:
    """Drawing passes the theme to render in its worker; a name render does not draw draws dark."""
    m = Match.new("ophion", 2, 7)
    public, private, names = m.game.view(m.state, None), m.game.view(m.state, 0), ["ann", "bo"]
    drawing = Drawing(1)
    try:
        light = await drawing.board("ophion", public, names, theme="light")
        assert light == render.board("ophion", public, names, "light") and drawn_in(light) == "light"
        hand = await drawing.hand("ophion", private, names, None, "light")
        assert hand == render.hand("ophion", private, names, "light")
        dark = render.board("ophion", public, names)
        assert await drawing.board("ophion", public, names, theme="sepia") == dark
    finally:
        await drawing.close()


async def test_a_forged_theme_or_board_is_refused(fake: FakeDiscord, tmp_path: Path) -> None:
    """Discord offers only the registered choices; a value outside them (an older registration, a forged
    interaction) is refused politely before anything changes."""
    alice = fake.add_user("alice", admin=True)
    async with Harness.started(fake, tmp_path) as h:

        async def said(command: str, options: dict[str, Any]) -> str:
            sent = await fake.slash(alice, fake.channel, command, options, check_options=False)
            return (await sent.wait_reply()).text()

        assert "There is no theme 'sepia'" in await said("config", {"theme": "sepia", "hints": "off"})
        assert (await h.bot.services.settings.of(fake.guild.id)).hints
        assert "There is no theme" in await said("notify", {"theme": "sepia", "dms": "on"})
        assert "`board:` is `image` or `text`" in await said("notify", {"board": "braille"})
        assert await h.store.user_setting(alice.id, "dm") is None
        assert await h.store.user_setting(alice.id, "theme") is None
