"""Colour never alone, and text that reads: every game's palettes through simulated colour-blind eyes, and
every text ink's WCAG contrast on the colour it is drawn on, in every theme (render/vision.py)."""

from __future__ import annotations

import pytest

from engine.registry import games
from render import api, kit, vision
from render.gallery import NAMES, play, player_counts

THEMES = list(kit.THEMES)
GAMES = sorted(games())


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("game_id", GAMES)
def test_colours_that_mean_different_things_stay_apart(game_id: str, theme: str) -> None:
    """Two colours of one group closer than MIN_DELTA (CIEDE2000) for normal, protan, deutan or tritan
    vision fail, unless the palette names another cue (a letter, symbol, pattern or position)."""
    failing = [p for p in vision.pairs(game_id, theme) if p.fails]
    assert not failing, "\n".join(
        f"{p.group}: {p.a} / {p.b} ΔE00 {p.delta:.1f} ({vision.VISION_NAMES[p.vision]})" for p in failing
    )


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("game_id", GAMES)
def test_text_contrast_is_at_least_aa(game_id: str, theme: str) -> None:
    """WCAG 2 contrast ratio of at least 4.5 for every text ink on the colour it is drawn on."""
    low = vision.too_faint(vision.text_pairs(game_id, theme))
    assert not low, "\n".join(low)


def test_every_game_with_colours_of_its_own_declares_them() -> None:
    """A board module that defines colour tables declares them as palettes (else the check misses them)."""
    for game_id in api.game_ids():
        found = api.module(game_id)
        assert found is not None
        tables = [k for k in dir(found) if k.endswith("_COLOURS")]
        if tables:
            assert hasattr(found, "palettes"), f"{game_id} has {tables} but no palettes(theme)"


def test_the_check_finds_colours_that_merge() -> None:
    """Red and green that deuteranopia merges fail without a cue and pass with one; a cue for one pair only
    covers that pair."""
    red, green = (200, 60, 40), (110, 110, 30)
    assert vision.distance(red, green) > vision.MIN_DELTA
    assert vision.distance(red, green, "deutan") < vision.MIN_DELTA
    plain = kit.Palette({"red": red, "green": green, "blue": (0, 90, 220)})
    assert plain.cue_of("red", "green") == ""
    cued = kit.Palette(plain.colours, pair_cues=(("green", "red", "a letter"),))
    assert cued.cue_of("red", "green") == "a letter"
    assert cued.cue_of("red", "blue") == ""


def test_contrast_is_wcag() -> None:
    """Black on white is 21:1, a colour on itself 1:1."""
    assert vision.contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21, abs=0.01)
    assert vision.contrast((120, 30, 200), (120, 30, 200)) == pytest.approx(1)


def test_the_table_has_a_row_per_game_and_theme() -> None:
    """The gallery's table: a header, a rule, then a row per game and theme saying pass or FAIL."""
    rows = vision.table(GAMES[:2], THEMES).splitlines()
    assert len(rows) == 2 + 2 * len(THEMES)
    assert all(r.endswith(("| pass |", "| FAIL |")) for r in rows[2:])


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("game_id", GAMES)
def test_every_renderer_draws_every_theme(game_id: str, theme: str) -> None:
    """Each game's board and hand in each theme, on the theme's own background."""
    n = player_counts(game_id)[0]
    m = play(game_id, n, 3, 30)
    seat = m.to_act()[0] if m.to_act() else 0
    board = api.board_image(game_id, m.game.view(m.state, None), NAMES[:n], theme)
    hand = api.hand_image(game_id, m.game.view(m.state, seat), NAMES[:n], theme)
    for img in (board, hand):
        assert img.convert("RGB").getpixel((1, 1)) == kit.theme(theme).bg
