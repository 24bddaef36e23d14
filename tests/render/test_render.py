"""Tests for render/: golden images, the public board, the generic fallback and every game's positions.

Golden images live in tests/golden/. After an intended change to the look, regenerate them with
    AGORA_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/render/test_render.py
and look at the new PNGs before committing them. The real_* goldens come from random Omphala games, so they
also need regenerating when Omphala's rules, RNG or event texts change.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.ai.random_player import RandomPlayer
from engine.match import Match
from engine.registry import games
from engine.table.present import CardEntry
from render import api as render
from render import generic, kit
from render.games import omphala
from tests.games.test_present import play_match
from tests.golden_check import check_golden, image

JSON = dict[str, Any]


# ---------------------------------------------------------------- hand-written views (omphala_view.md)


def _p(seat: int, front: list[list[str | None]], back: list[list[str]] | None, **kw: Any) -> JSON:
    return {
        "seat": seat,
        "front_row": [{"cards": c, "size": len(c)} for c in front],
        "back_row": back,
        "hand": kw.get("hand"),
        "hand_size": kw.get("hand_size", 0),
        "chosen": kw.get("chosen", True),
        "cards": sum(len(c) for c in front),
    }


MID4: JSON = {
    "game": "omphala", "viewer": None, "num_players": 4, "phase": "play", "turn": 7, "current": 2,
    "actions_left": 1, "to_act": [2], "pending": None, "deck": 23, "discard": ["5C", "QH", "9D"],
    "players": [
        _p(0, [[None], [None, None], [None]], [["KC", "5H"], ["7S"], ["2D"], ["JH"]]),
        _p(1, [[None]], [["QS"], ["3C"], ["8H"], ["10D"], ["AS", "4H"]]),
        _p(2, [[None], ["KC"], [None, "8D"]], [["9C"], ["6S"], ["KD"]]),
        _p(3, [[None], [None]], [["4C"], ["5S"], ["6H"], ["7D"], ["8C"], ["9S"]]),
    ],
    "last": {"player": 2, "kind": "attack", "text": "P3 attacks P1's front card 2 with K♣: destroyed 9♦",
             "card": "KC", "target": {"player": 0, "zone": "front", "index": 1}, "success": True},
    "log": ["P2 draws a card", "P2 ends the turn", "P3 shields front card 3 with 8♦",
            "P3 attacks P1's front card 2 with K♣: destroyed 9♦"],
    "result": None,
}  # fmt: skip

BIG6: JSON = {
    "game": "omphala", "viewer": None, "num_players": 6, "phase": "play", "turn": 31, "current": 5,
    "actions_left": 2, "to_act": [5], "pending": None, "deck": 3, "discard": ["AC"],
    "players": [
        _p(0, [[None]] * 6 + [[None, None]] * 2, [["KC", "5H"], ["QC", "10H"], ["JS", "9H"], ["10C", "8H"],
                                                  ["9S", "7H"], ["8C", "6H"], ["7S", "4H"]]),
        _p(1, [[None], [None, None]], [["QS"], ["3C"], ["8H"], ["10D"], ["AS", "4H"], ["2S"], ["3S"]]),
        _p(2, [[None]] * 3, [["9C"], ["6S"], ["KD"]]),
        _p(3, [], [["4C"], ["5S"]]),
        _p(4, [[None]] * 11, []),
        _p(5, [[None], [None]], [["KS", "QH"], ["2C"], ["3D"], ["4D"], ["5D"], ["6D"], ["7C"], ["8D"]]),
    ],
    "last": {"player": 4, "kind": "steal",
             "text": "P5 tries to steal P4's back card 2 with 2♠: it fails, and 2♠ stays where it was",
             "card": "2S", "target": {"player": 3, "zone": "back", "index": 1}, "success": False},
    "log": ["P4 ends the turn", "P5 draws a card", "P5 tries to steal P4's back card 2 with 2♠: it fails"],
    "result": None,
}  # fmt: skip

CHOOSE3: JSON = {
    "game": "omphala", "viewer": None, "num_players": 3, "phase": "choose", "turn": 0, "current": None,
    "actions_left": 0, "to_act": [0, 2], "pending": None, "deck": 31, "discard": [],
    "players": [
        _p(0, [], None, hand_size=7, chosen=False),
        _p(1, [[None], [None]], None, hand_size=0, chosen=True),
        _p(2, [], None, hand_size=7, chosen=False),
    ],
    "last": None, "log": [], "result": None,
}  # fmt: skip

OVER2: JSON = {
    "game": "omphala", "viewer": None, "num_players": 2, "phase": "over", "turn": 40, "current": None,
    "actions_left": 0, "to_act": [], "pending": None, "deck": 0, "discard": ["5C", "QH"],
    "players": [
        _p(0, [["KC"], ["10D", "5D"], ["3S"]], [["2H"]]),
        _p(1, [["QC"], ["JC", "2D"], ["4S"], ["AH"]], []),
    ],
    "last": {"player": 1, "kind": "pass", "text": "P2 passes", "card": None, "target": None, "success": None},
    "log": ["P1 passes", "P2 passes", "Game over: P2 wins with 5 cards"],
    "result": {"cards": [4, 5], "power": [36, 42], "battle": None, "winners": [1]},
}  # fmt: skip

HAND_CHOOSE: JSON = {
    **CHOOSE3,
    "viewer": 0,
    "players": [
        _p(0, [], [], hand=["KC", "5H", "7S", "2D", "JH", "10C", "AS"], hand_size=7, chosen=False),
        _p(1, [[None], [None]], None, hand_size=0, chosen=True),
        _p(2, [], None, hand_size=7, chosen=False),
    ],
}

HAND_PLAY: JSON = {
    **MID4,
    "viewer": 2,
    "pending": "discard",
    "players": [
        MID4["players"][0],
        MID4["players"][1],
        _p(
            2,
            [["QS"], ["KC"], ["JC", "8D"]],
            [["9C"], ["6S"], ["KD"], ["KC", "5H"], ["2C"], ["3C"], ["4C"], ["5C"]],
        ),
        MID4["players"][3],
    ],
}

BOARDS = {"mid4": MID4, "big6": BIG6, "choose3": CHOOSE3, "over2": OVER2}
HANDS = {"hand_choose": HAND_CHOOSE, "hand_play": HAND_PLAY}
NAMES = ["Ada", "Bartholomew the Magnificent", "Cy", "Dee", "Eve", "Finn"]


# ---------------------------------------------------------------- helpers


# ---------------------------------------------------------------- golden images


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_board_golden(name: str) -> None:
    check_golden(f"board_{name}", render.board("omphala", BOARDS[name]))


@pytest.mark.parametrize("name", sorted(HANDS))
def test_hand_golden(name: str) -> None:
    check_golden(name, render.hand("omphala", HANDS[name], NAMES))


def test_light_theme_golden() -> None:
    check_golden("board_mid4_light", render.board("omphala", MID4, NAMES, theme="light"))


def test_generic_golden() -> None:
    check_golden("generic_mid4", kit.to_png(generic.board("omphala", MID4, NAMES)))


@pytest.mark.parametrize(("n", "steps"), [(2, 25), (6, 45)])
def test_real_game_golden(n: int, steps: int) -> None:
    m = play_match("omphala", n, 3, steps)
    check_golden(f"real_omphala_{n}p_{steps}", render.board("omphala", m.game.view(m.state, None), NAMES))
    seat = m.to_act()[0] if m.to_act() else 0
    check_golden(f"real_omphala_{n}p_{steps}_hand", render.hand("omphala", m.game.view(m.state, seat), NAMES))


# ---------------------------------------------------------------- the board is public


def test_board_refuses_a_private_view() -> None:
    with pytest.raises(ValueError, match="spectator"):
        render.board("omphala", HAND_PLAY)
    with pytest.raises(ValueError, match="spectator"):
        render.board("some_future_game", {"viewer": 0, "secret": "hand"})


SPECTATED = {  # the games of more than two seats (the card games': tests/games/test_render_card_games.py)
    "omphala": [(2, 15), (4, 30), (6, 45), (4, 10_000)],
    "ophion": [(2, 12), (3, 40), (4, 70), (4, None)],
}


@pytest.mark.parametrize(("game_id", "n", "steps"), [(g, *p) for g, ps in SPECTATED.items() for p in ps])
def test_public_image_is_made_from_the_spectator_view(game_id: str, n: int, steps: int | None) -> None:
    """Resampling (redealing) everything a spectator cannot see leaves the board image unchanged, byte for
    byte, for every observer."""
    m = play_match(game_id, n, 11, steps)
    g = m.game
    png = render.board(game_id, g.view(m.state, None))
    for observer in range(n):
        other = g.determinize(m.state, observer, 1234 + observer)
        assert render.board(game_id, g.view(other, None)) == png


def test_hand_reveals_the_viewers_own_face_down_cards() -> None:
    m = play_match("omphala", 3, 5, 20)
    g = m.game
    public = g.view(m.state, None)
    seat = next(i for i, p in enumerate(public["players"]) if any(None in e["cards"] for e in p["front_row"]))
    own = g.view(m.state, seat)
    assert all(None not in e["cards"] for e in own["players"][seat]["front_row"])
    masked = copy.deepcopy(own)
    masked["players"][seat]["front_row"] = public["players"][seat]["front_row"]
    assert render.hand("omphala", own) != render.hand("omphala", masked)


# ---------------------------------------------------------------- every registered game


@pytest.mark.parametrize("game_id", sorted(games()))
def test_every_game_renders_through_a_whole_game(game_id: str) -> None:
    g = games()[game_id]
    for n in sorted({max(2, g.min_players), g.max_players}):
        m = Match.new(game_id, n, 2)
        ai = RandomPlayer(2)
        step = 0
        while True:
            if step % 7 == 0 or m.is_over():
                board = image(render.board(game_id, g.view(m.state, None)))
                assert board.width == kit.WIDTH and board.height < 2 * kit.WIDTH
                for seat in range(n) if step == 0 or m.is_over() else m.to_act()[:1]:
                    png = render.hand(game_id, g.view(m.state, seat))
                    assert len(png) < 300_000
                    assert image(png).width == kit.WIDTH
            if m.is_over():
                break
            m.apply(ai.choose(g, m.state, m.to_act()[0]))
            step += 1


def test_unknown_game_gets_the_generic_rendering() -> None:
    view = {
        "game": "nosuchgame",
        "viewer": None,
        "turn": 3,
        "current": 1,
        "players": [
            {"seat": 0, "score": 4, "zone": list(range(40))},
            {"seat": 1, "score": 2, "deep": {"a": {"b": [1]}}},
        ],
        "market": [{"name": "Card " * 30, "cost": i} for i in range(60)],
        "log": ["x" * 500, "second"],
    }
    img = image(render.board("nosuchgame", view, ["Ann", "Bob"]))
    assert img.width == kit.WIDTH
    assert image(render.hand("nosuchgame", {**view, "viewer": 1})).width == kit.WIDTH


@pytest.mark.parametrize(
    "view",
    [
        {},
        {"viewer": None},
        {"players": "not a list", "x": None},
        {"players": [1, 2]},
        {"a": [[[[[]]]]], "b": "é♥"},
    ],
)
def test_generic_survives_odd_views(view: JSON) -> None:
    assert image(render.board("unknown", view)).width == kit.WIDTH


def test_spectator_hand_and_unknown_theme() -> None:
    assert image(render.hand("omphala", MID4)).width == kit.WIDTH
    with pytest.raises(ValueError, match="theme"):
        render.board("omphala", MID4, theme="sepia")


def test_names_replace_seat_references_and_default_to_p1() -> None:
    assert kit.seat_refs("P2 attacks P1's front card 2", ["Ann", "Bob"]) == "Bob attacks Ann's front card 2"
    assert kit.seat_refs("P7 passes", ["Ann"]) == "P7 passes"
    assert kit.seat_names(3, ["Ann"]) == ["Ann", "P2", "P3"]
    assert kit.seat_names(2, ["🎲 Zoë ♥", "🎲"]) == ["Zoë ♥", "P2"]  # glyphs the font lacks are dropped


def test_package_exports_board_and_hand() -> None:
    """render.board / render.hand are the bot's entry points (render/__init__.py re-exports render.api)."""
    import render as package

    if getattr(package, "__file__", None) is None:
        pytest.skip(
            "render was imported as a namespace package: the editable install predates render/__init__.py"
        )
    assert package.board is render.board and package.hand is render.hand


# ---------------------------------------------------------------- the kit


def test_text_fitting() -> None:
    f = kit.font(20)
    assert kit.fit_text("short", f, 500) == "short"
    cut = kit.fit_text("a very long line " * 20, f, 200)
    assert cut.endswith("…") and f.getlength(cut) <= 200
    lines = kit.wrap_text("word " * 100, f, 300, max_lines=3)
    assert len(lines) == 3 and all(f.getlength(line) <= 300 for line in lines)


def test_card_faces_are_cached() -> None:
    king = omphala.entry("KC")
    assert kit.card_face(king, 80, 112, "dark") is omphala.tile("KC", 80, 112, kit.theme("dark"))
    named_card = CardEntry("hoplite", "Hoplite", "unit", (("Cost", 3), ("Attack", 2)), "Draws a card. " * 4)
    tile = kit.card_face(
        named_card, 120, 168, "light", columns=("Attack",), discs=(None, ("3", (236, 184, 40)))
    )
    assert tile.size == (120, 168)


def test_board_modules_are_found_by_game_id() -> None:
    assert set(render.game_ids()) >= {"omphala", "ophion"}
    assert render.module("omphala") is omphala
    assert render.module("nosuchgame") is None and render.module("../x") is None
    render.warm("dark")


def test_text_is_readable_on_a_phone() -> None:
    """11 px when the image is shown 390 px wide."""
    assert kit.MIN_TEXT * 390 / kit.WIDTH >= 11


def test_card_names_stay_readable_in_narrow_cards() -> None:
    """A name is wrapped, set regular or hyphenated at MIN_TEXT, never shrunk below it."""
    f, lines = kit.name_lines("Skeleton Archer", 111, kit.MIN_TEXT)
    assert f.size == kit.MIN_TEXT and lines == ["Skeleton", "Archer"]
    f, lines = kit.name_lines("Suumpmolk", 111, kit.MIN_TEXT)
    assert f.size == kit.MIN_TEXT and len(lines) == 2 and lines[0].endswith("-")
    assert "".join(lines).replace("-", "") == "Suumpmolk"
    assert all(f.getlength(line) <= 111 for line in lines)
    f, lines = kit.name_lines("Supercalifragilistic Expialidocious Name", 60, kit.MIN_TEXT)
    assert f.size == kit.MIN_TEXT and len(lines) == 2 and lines[-1].endswith("…")


def test_gold_frame_marks_the_player_to_act() -> None:
    """MID4: P3 acted last and is still to act; after the turn passes to P4 the frame follows P4."""
    view = copy.deepcopy(MID4)
    view.update(current=3, to_act=[3])
    img = render.board_image("omphala", view)
    gold = kit.theme("dark").highlight
    panels = [y for y in range(img.height) if img.getpixel((kit.MARGIN + 1, y)) == gold]
    assert panels, "a gold frame is drawn"
    assert min(panels) > img.height // 2  # P4's panel is the last one


def test_suit_glyphs_are_in_the_shipped_font() -> None:
    f = kit.font(40, bold=True)
    missing = f.getmask("\uffff").getbbox()
    for glyph in "♣♦♥♠★×…":
        assert f.getmask(glyph).getbbox() != missing, glyph
    assert (kit.FONT_DIR / "LICENSE-DejaVu.txt").exists()
