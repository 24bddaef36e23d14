"""Tests for render/games/ophelia.py: the hand-written views, the contest line, modified stats, names and
texts that fit, sizes and odd views. What every card game's renderer gets (golden images of the views below,
real games, the public board and the private hand) is in tests/games/test_render_card_games.py.

Golden images live in tests/golden/ (prefix ophelia_). They are drawn from the hand-written views below,
so they change only with the look, the card data (names, printed stats, texts) or the view's shape;
regenerate them with
    AGORA_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/games/test_render_card_games.py -k ophelia
and look at the new PNGs before committing them.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from PIL import Image

from engine.games.ophelia import Ophelia
from engine.games.ophelia.cards import CARDS
from render import api as render
from render import kit
from render.games import ophelia
from tests.golden_check import near

JSON = dict[str, Any]
NAMES = ["Ada", "Bartholomew the Magnificent"]
GAME = Ophelia()


# ---------------------------------------------------------------- hand-written views


def _unit(card: str, owner: int, damage: int = 0, attached: tuple[str, ...] = (), **now: int) -> JSON:
    """A unit dict as the view gives it: printed stats, or `now` values for the modified ones."""
    spec = CARDS[card]
    out: JSON = {
        "uid": abs(hash((card, owner))) % 1000,
        "card": card,
        "name": spec.name,
        "type": spec.type,
        "owner": owner,
        "damage": damage,
        "played": False,
        "moved": False,
        "contested": False,
    }
    for stat, value in spec.stats:
        out[stat] = now.get(stat, value)
        out[f"base_{stat}"] = value
    out["attached"] = [_unit(r, owner) for r in attached]
    return out


def _view(slots: list[list[JSON | None]], **kw: Any) -> JSON:
    for row in (0, 1):
        for col, u in enumerate(slots[row]):
            if u is not None:
                u["contested"] = slots[1 - row][col] is not None
    players = [
        {"seat": 0, "points": 1, "deck_name": "Crown", "deck_size": 17, "hand": None, "hand_size": 4,
         "forgotten": ["el_cid", "boudica", "saladin"], "power": 0},
        {"seat": 1, "points": 2, "deck_name": "Crown & Tide alliance", "deck_size": 15, "hand": None,
         "hand_size": 2, "forgotten": ["ching_shih"] * 5, "power": 0},
    ]  # fmt: skip
    for seat, p in enumerate(players):
        p["power"] = sum(u.get("power", 0) for u in slots[seat] if u is not None and u["type"] == "character")
    view: JSON = {
        "game": "ophelia", "viewer": None, "num_players": 2, "round": 3, "track": [1, 2, 3, 2, 1],
        "turn": 4, "active": 1, "first": 0, "phase": "action", "quiet": 0, "played": True, "to_act": [1],
        "decision": None, "slots": slots, "players": players,
        "last_round": {"round": 2, "winner": 1, "step": 1, "points": 2, "middle": [2, 4], "side": [6, 9]},
        "log": ["P1 ends the Action Phase", "P2's turn", "P2 plays Blackbeard into slot 4",
                "P2 attaches Joyeuse, Sword of Charlemagne to Richard the Lionheart"],
        "result": None,
    }  # fmt: skip
    view.update(kw)
    return view


def crowded() -> JSON:
    """Round 3, P2 to act: contests in columns 1-4 (damaged cards, raised and lowered stats, a relic in the
    middle slot), relics attached (one card with two), column 5 uncontested."""
    bottom = [
        _unit("joan_of_arc", 0, damage=2, life=4),  # Charlemagne: other allies +1 Life
        _unit("charlemagne", 0, attached=("iron_crown_of_lombardy",), power=5, life=6),
        _unit("the_oriflamme", 0),
        _unit("ferdinand_magellan", 0, power=2),  # Blackbeard: the opposing card -1 Power
        None,
    ]
    top = [
        _unit("mary_read", 1, damage=1),
        _unit("william_marshal", 1, power=5),  # +2 while contested
        _unit("leonardo_da_vinci", 1),
        _unit("blackbeard", 1, attached=("ulfberht_sword",), power=4, initiative=3),
        _unit("richard_the_lionheart", 1, attached=("joyeuse", "ulfberht_sword"), power=7, initiative=4),
    ]
    return _view([bottom, top])


def window() -> JSON:
    """P2 ended the Action Phase; P1 may play a Turning Point."""
    view = crowded()
    view.update(
        phase="turning_point",
        to_act=[0],
        decision={"kind": "window", "players": [0], "source": "Turning Point phase"},
    )
    view["log"] = [*view["log"], "P2 ends the Action Phase"]
    return view


def over() -> JSON:
    """P1 won round 4 with most Power in the middle slot and the game with 6 points."""
    view = crowded()
    view["players"][0]["points"] = 6
    view.update(
        round=4,
        phase="over",
        to_act=[],
        result={"winners": [0]},
        last_round={"round": 4, "winner": 0, "step": 1, "points": 2, "middle": [4, 3], "side": [12, 20]},
    )
    view["log"] = [*view["log"], "P1 wins round 4 (most Power in the middle slot) and 2 points",
                   "P1 wins the game with 6 points"]  # fmt: skip
    return view


def first() -> JSON:
    """Between rounds: P1 lost round 2 and chooses who goes first; the board is empty."""
    return _view(
        [[None] * 5, [None] * 5],
        phase="first",
        to_act=[0],
        decision={"kind": "first", "players": [0], "source": "round"},
    )


def hand_view() -> JSON:
    """P1's own view: seven cards (two copies of one), long texts, a forgotten zone."""
    view = crowded()
    view["viewer"] = 0
    view["players"][0]["hand"] = sorted(
        ["leonardo_da_vinci", "joyeuse", "crossing_the_rubicon", "crossing_the_rubicon",
         "richard_the_lionheart", "henry_morgan", "the_renaissance"]
    )  # fmt: skip
    view["players"][0]["hand_size"] = 7
    return view


BOARDS = {"crowded": crowded, "window": window, "over": over, "first": first}
# The seat to act, framed in gold: P2 in the Action Phase; in the Turning Point window the frame moves to P1.
ACTING = [(crowded, 1), (window, 0)]


def panel_box(view: JSON, seat: int) -> kit.Box:
    """A seat's panel on the board (seat 1's on top)."""
    lay = ophelia.layout(view, NAMES)
    return lay.top_panel if seat == 1 else lay.bottom_panel


# ---------------------------------------------------------------- what the board shows


def _red(img: Image.Image, xy: tuple[int, int]) -> bool:
    return img.getpixel(xy) == kit.theme("dark").bad


def test_contest_line_joins_opposed_cards_only() -> None:
    """A red line crosses the strip in every column with a card on both sides, and in no other."""
    view = crowded()
    view["slots"][1][2] = None  # the middle: only P1's relic
    view["slots"][0][2]["contested"] = False
    img = render.board_image("ophelia", view, NAMES)
    lay = ophelia.layout(view, NAMES)
    for col in range(5):
        contested = view["slots"][0][col] is not None and view["slots"][1][col] is not None
        assert _red(img, (lay.xs[col] + ophelia.CARD_W // 2, lay.strip + 3)) == contested, col
    assert [c for c in range(5) if view["slots"][0][c] and view["slots"][0][c]["contested"]] == [0, 1, 3]
    assert view["slots"][1][4] is not None and view["slots"][0][4] is None


def test_contest_line_in_a_real_game() -> None:
    """The first position of a real game with a contest: the red line is where the view says."""
    s = GAME.setup(2, 8)
    rng = random.Random(8)
    while GAME.to_act(s):
        view = GAME.view(s, None)
        if any(u and u["contested"] for u in view["slots"][0]):
            break
        acts = GAME.legal_actions(s, GAME.to_act(s)[0])
        busy = [a for a in acts if a.kind not in ("end", "discard", "retire", "pass")]
        GAME.apply(s, rng.choice(busy) if busy else rng.choice(acts))
    img = render.board_image("ophelia", view)
    lay = ophelia.layout(view, kit.seat_names(2))
    seen = []
    for col in range(5):
        bottom = view["slots"][0][col]
        seen.append(bool(bottom and bottom["contested"]))
        assert _red(img, (lay.xs[col] + ophelia.CARD_W // 2, lay.strip + 3)) == seen[-1], col
    assert any(seen), "a game with cards played has a contest"


def test_modified_stats_are_marked() -> None:
    """A stat above its printed value is green (▲), below it red (▼); a damaged card's Life is red."""
    w, h = ophelia.CARD_W, ophelia.CARD_H
    plain = ophelia.unit_tile("blackbeard", "Blackbeard", "character", ((3, 3), (2, 2), (4, 4)), 0, w, h)
    up = ophelia.unit_tile("blackbeard", "Blackbeard", "character", ((5, 3), (2, 2), (4, 4)), 0, w, h)
    down = ophelia.unit_tile("blackbeard", "Blackbeard", "character", ((2, 3), (2, 2), (4, 4)), 0, w, h)
    hurt = ophelia.unit_tile("blackbeard", "Blackbeard", "character", ((3, 3), (2, 2), (4, 4)), 3, w, h)
    assert near(plain, ophelia.UP) == 0 and near(plain, ophelia.DOWN) == 0
    assert near(up, ophelia.UP) > 20 and near(up, ophelia.DOWN) == 0
    assert near(down, ophelia.DOWN) > 20 and near(down, ophelia.UP) == 0
    assert near(hurt, ophelia.DOWN) > 10 and near(hurt, ophelia.UP) == 0


def test_a_modified_stat_changes_the_board() -> None:
    view = crowded()
    raised = copy.deepcopy(view)
    raised["slots"][0][1]["power"] += 2
    assert render.board("ophelia", view) != render.board("ophelia", raised)


def test_texts() -> None:
    names = ["Ann", "Bob"]
    assert ophelia.status_text(crowded(), names) == "Round 3 · Bob's turn"
    assert ophelia.status_text(over(), names) == "Game over · Ann wins"
    assert ophelia.status_text(first(), names) == "Round 3 · Ann chooses who goes first"
    assert ophelia.decision_text(window(), names) == "Ann: play a Turning Point now, or pass"
    assert ophelia.decision_text(crowded(), names) == ""
    assert ophelia.final_score(over()) == "6–2"
    assert ophelia.last_round_text(crowded(), names) == (
        "Round 2 to Bob, +2 points: most Power in the middle slot (4–2)"
    )
    pick = crowded()
    pick["decision"] = {"kind": "pick", "players": [1], "source": "archimedes", "what": "enemy",
                        "source_name": "Archimedes"}  # fmt: skip
    assert ophelia.decision_text(pick, names) == "Bob: choose an enemy character for Archimedes"


# ---------------------------------------------------------------- names and texts that fit


def test_names_on_the_board_are_cut_cleanly() -> None:
    """Every card that can be in a slot or attached shows its name whole, without its article, or before
    its comma or "of": never an ellipsis."""
    s = kit.SUPERSAMPLE
    for cid, spec in CARDS.items():
        if spec.type == "turning_point":
            continue
        _, lines = ophelia.name_fit(spec.name, (ophelia.CARD_W - 8) * s, kit.MIN_TEXT * s)
        assert len(lines) <= 2 and not any(line.endswith("…") for line in lines), (cid, lines)
        if spec.flag("attach"):
            _, lines = ophelia.name_fit(spec.name, (ophelia.CARD_W - 15) * s, kit.MIN_TEXT * s)
            assert not any(line.endswith("…") for line in lines), (cid, lines)
    assert ophelia.name_fit("Joyeuse, Sword of Charlemagne", 130 * s, kit.MIN_TEXT * s)[1] == ["Joyeuse"]


def test_hand_texts_wrap_whole() -> None:
    """Every card's whole ability text fits its hand row, wrapped, at MIN_TEXT: nothing is cut."""
    f = kit.font(kit.MIN_TEXT)
    room = ophelia.HAND_ROW_W - 2 * ophelia.ROW_PAD - 16
    for cid, entry in ophelia.entries().items():
        lines = ophelia.hand_lines(cid, ophelia.HAND_ROW_W)
        assert all(f.getlength(line) <= room and not line.endswith("…") for line in lines), cid
        assert " ".join(lines).split() == entry.text.split(), cid
    assert ophelia.LABEL >= kit.MIN_TEXT


# ---------------------------------------------------------------- odd views and caches


def odd() -> JSON:
    """crowded() with odd entries: unknown cards, wrong types, a long log line (they still draw:
    tests/games/test_render_card_games.py, with JUNK and JUNK_HAND)."""
    view = crowded()
    view["slots"][0][0]["attached"] = [_unit("joyeuse", 0) for _ in range(6)]  # more than the tabs hold
    view["slots"][1][0] = {"card": "no_such_card"}
    view["slots"][1][1]["name"] = "A Name Far Too Long To Fit On Any Card At All"
    view["last_round"] = {"round": 9, "winner": 7, "step": 4}
    view["decision"] = {"kind": "something_new", "players": [3]}
    view["log"] = ["P1 " + "does a great many things " * 10]
    return view


JUNK: list[JSON] = [
    {},
    {"viewer": None},
    {"viewer": None, "slots": "x", "players": [1, 2]},
    {"slots": [[1], None]},
]
JUNK_HAND: JSON = {"viewer": 0, "players": [{"seat": 0, "hand": ["nope"]}]}


def test_tiles_are_cached_and_warm() -> None:
    ophelia.warm("dark")
    stats = ((3, 3), (2, 2), (4, 4))
    w, h = ophelia.CARD_W, ophelia.CARD_H
    tile = ophelia.unit_tile("blackbeard", "Blackbeard", "character", stats, 0, w, h, "dark")
    assert tile is ophelia.unit_tile("blackbeard", "Blackbeard", "character", stats, 0, w, h, "dark")
    assert tile.size == (w, h)
    assert render.module("ophelia") is ophelia
