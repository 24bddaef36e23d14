"""Tests for render/games/siege_of_olympus/: the hand-written views, what the board marks, texts, sizes and
odd views. What every card game's renderer gets (golden images of the views below, real games, the public
board and the private hand) is in tests/games/test_render_card_games.py.

Golden images live in tests/golden/ (prefix siege_). They are drawn from the hand-written views below, so they
change only with the look, the card data (names, printed stats, texts) or the view's shape; regenerate them
with
    AGORA_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/games/test_render_card_games.py -k siege
and look at the new PNGs before committing them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from engine.games.siege_of_olympus import Siege, present
from engine.games.siege_of_olympus.cards import ARTIFACTS, CARDS
from engine.table.present import Prompt
from render import api as render
from render import kit
from render.games import siege_of_olympus as siege
from tests.golden_check import changes, inside, near

JSON = dict[str, Any]
GAME_ID = "siege_of_olympus"
NAMES = ["Ada", "Bartholomew the Magnificent"]
GAME = Siege()


# ---------------------------------------------------------------- hand-written views


def _minion(card: str, owner: int, uid: int, **now: Any) -> JSON:
    """A minion dict as the view gives it (engine/games/siege_of_olympus/view.py minion): printed values,
    or `now` values for what changed."""
    spec = CARDS[card]
    stats, flags = dict(spec.stats), dict(spec.flags)
    out: JSON = {
        "uid": uid, "card": card, "name": spec.name, "owner": owner, "cost": stats["cost"],
        "attack": stats["attack"], "health": stats["health"], "base_attack": stats["attack"],
        "base_health": stats["health"], "damage": 0, "piece": stats["artifact"],
        "pieces": [stats["artifact"]],
        "class": flags["class"], "race": flags["race"], "ranged": flags["ranged"],
        "keywords": list(spec.keywords), "crippled": False, "paralyzed": False, "dodge": False,
        "attacked": False, "text": spec.text,
    }  # fmt: skip
    out.update(now)
    if now.get("crippled"):
        out["keywords"] = []
    return out


def _held(number: int, used: bool = False) -> JSON:
    spec = ARTIFACTS[number]
    return {"number": number, "card": spec.id, "name": spec.name, "used": used}


def _player(seat: int, commander: str, uid: int, minions: list[JSON], held: list[JSON], **kw: Any) -> JSON:
    pieces: dict[str, int] = {}
    for m in minions:
        for p in m["pieces"]:
            pieces[str(p)] = pieces.get(str(p), 0) + 1
    out: JSON = {
        "seat": seat, "commander": commander, "commander_name": CARDS[commander].name, "commander_uid": uid,
        "commander_text": CARDS[commander].text, "health": 20, "max_health": 20, "once_used": False,
        "hand": None, "fresh": None, "hand_size": 5, "minions": minions, "artifacts": held,
        "pieces": {k: pieces[k] for k in sorted(pieces, key=int)}, "ambushed": False,
    }  # fmt: skip
    out.update(kw)
    return out


def crowded() -> JSON:
    """Turn 14, Bartholomew's Attack phase with Ada's Hera fixed as the turn's target: eight minions against
    six (damage, modified stats, crippled, paralyzed, dodges, Lethal, Resistant, Primordial Attack, a piece
    added by Hephaestus), six prisoners, six Agora cards (one left there this turn), artifacts held."""
    ada = [
        _minion("hera", 0, 21, damage=2),
        _minion("brontes", 0, 22, health=3),  # Brawler synergy: +1 Health
        _minion("briareus", 0, 23, health=7, damage=5),
        _minion("arges", 0, 24, health=4, crippled=True),
        _minion("hephaestus", 0, 25, pieces=[11, 4]),
        _minion("perseus", 0, 26, dodge=True),
        _minion("medusa", 0, 27, paralyzed=True),
        _minion("achilles", 0, 28, attack=3),
    ]
    bart = [
        _minion("castor", 1, 31, attack=3, attacked=True),  # Ranger synergy: +1 Attack
        _minion("bellerophon", 1, 32, attack=4),
        _minion("artemis", 1, 33, attack=3, damage=1),
        _minion("pollux", 1, 34, dodge=True),
        _minion("cerberus", 1, 35),
        _minion("mnemosyne", 1, 36, attacked=True),
    ]
    prisoners = [
        _minion(c, -1, 40 + k, damage=1 if k == 2 else 0)
        for k, c in enumerate(["heracles", "ocypete", "gyges", "atlas", "chimera", "alcyoneus"])
    ]
    players = [
        _player(0, "kronos", 1, ada, [_held(6)], health=13, once_used=True, hand_size=4),
        _player(1, "typhon", 2, bart, [_held(10, used=True), _held(3)], hand_size=7),
    ]
    return {
        "game": GAME_ID, "viewer": None, "num_players": 2, "turn": 14, "active": 1, "first": 0,
        "phase": "attack", "moves": 9, "exchanged": True, "target": 21, "to_act": [1], "decision": None,
        "window": None, "players": players, "tartarus": prisoners,
        "agora": ["venom_of_the_hydra", "oath_on_the_styx", "dionysus", "hydra", "trojan_horse", "themis"],
        "left": ["hydra"], "underworld": ["thunderbolt", "aello", "crius", "stheno", "orpheus"],
        "deck_size": 21, "pile": [1, 2, 4, 5, 7, 8, 9, 11, 12, 13, 14, 15],
        "log": ["P2 summons Mnemosyne", "P2 goes to the Attack phase",
                "Castor attacks Hera: 3, takes 0 back"],
        "result": None,
    }  # fmt: skip


def window() -> JSON:
    """Bellerophon (Primordial Attack) attacks Ada's Commander; Ada may answer with Ambush or Disrupt."""
    view = crowded()
    view.update(
        to_act=[0],
        decision={"kind": "window", "players": [0], "source": "bellerophon", "window": "attack",
                  "source_name": "Bellerophon"},
        window={"kind": "attack", "player": 1, "card": "bellerophon", "negated": False,
                "card_name": "Bellerophon", "attacker": 32, "target": 1},
    )  # fmt: skip
    view["log"] = [*view["log"], "Bellerophon attacks P1's Commander"]
    return view


def over() -> JSON:
    """Ada took her third artifact (Golden Fleece, Harpe, Bow of Artemis) and conquered Olympus."""
    view = crowded()
    view["players"][0]["artifacts"] = [_held(6), _held(2), _held(8, used=True)]
    view["pile"] = [1, 4, 5, 7, 9, 11, 12, 13, 14, 15]
    view.update(phase="over", to_act=[], target=0, result={"winners": [0], "why": "conquers Olympus"})
    view["log"] = [*view["log"], "P1 takes Bow of Artemis", "P1 wins: conquers Olympus"]
    return view


def hand_view() -> JSON:
    """Ada's own view: seven cards (minions, spells, one she cannot summon this turn), her artifact."""
    view = crowded()
    view["viewer"] = 0
    hand = ["ares", "athena", "nemesis", "sleep_of_hypnos", "tethys", "labours_of_heracles", "jason"]
    view["players"][0].update(hand=sorted(hand), fresh=["tethys"], hand_size=len(hand))
    return view


BOARDS = {"crowded": crowded, "window": window, "over": over}
# The seat to act, framed in gold: Bartholomew acts in his Attack phase; in the window the frame moves to Ada.
ACTING = [(crowded, 1), (window, 0)]


def panel_box(view: JSON, seat: int) -> kit.Box:
    """A seat's panel on the board."""
    return siege.layout(view, kit.seat_names(2, NAMES)).panels[seat]


# ---------------------------------------------------------------- sizes


def test_the_fullest_board_fits() -> None:
    """Eight minions a side, six prisoners, six Agora cards, a window's line and full artifact lines: still
    under twice as tall as wide."""
    view = window()
    view["players"][1]["minions"] += [_minion("hydra", 1, 37), _minion("ares", 1, 38)]
    for p in view["players"]:
        p["artifacts"] = [_held(13, used=True), _held(14)]
        p["pieces"] = {str(n): 2 for n in range(1, 13)}
    view["pile"] = list(range(1, 16))
    img = render.board_image(GAME_ID, view, NAMES)
    assert img.width == kit.WIDTH and img.height < 2 * kit.WIDTH


# ---------------------------------------------------------------- what the board shows


def test_the_turns_target_is_framed_in_red() -> None:
    """Fixing the target changes the board only around its tile (in red) and in the turn strip."""
    view = crowded()
    untargeted = copy.deepcopy(view)
    untargeted["target"] = 0
    img = render.board_image(GAME_ID, view, NAMES)
    lay = siege.layout(view, kit.seat_names(2, NAMES))
    changed = changes(img, render.board_image(GAME_ID, untargeted, NAMES))
    assert changed and inside(changed, [lay.tiles[21], lay.strip], pad=6)
    red = kit.theme("dark").bad
    x0, y0, _, y1 = lay.tiles[21]
    assert any(img.getpixel((x, y)) == red for x in range(x0 - 6, x0) for y in range(y0, y1))


def test_an_attack_window_frames_attacker_and_commander() -> None:
    """The attack's window frames the attacker in gold and the Commander it attacks in red; without the
    window neither is framed."""
    t = kit.theme("dark")
    closed = window()
    closed.update(window=None, decision=None, to_act=[1])
    for view, framed in ((window(), True), (closed, False)):
        img = render.board_image(GAME_ID, view, NAMES)
        lay = siege.layout(view, kit.seat_names(2, NAMES))
        x0, y0, _, y1 = lay.tiles[32]
        gold = any(img.getpixel((x, y)) == t.highlight for x in range(x0 - 6, x0) for y in range(y0, y1))
        x0, y0, _, y1 = lay.commanders[0]
        red = any(img.getpixel((x, y)) == t.bad for x in range(x0 - 4, x0 + 1) for y in range(y0, y1))
        assert gold == framed and red == framed


def test_modified_stats_damage_and_badges_are_marked() -> None:
    """Attack above its printed value is green, below it red; damage makes Health left red; each badge
    (crippled, paralyzed, dodge, Lethal, Resistant, Primordial Attack) shows in its colour."""
    plain = siege.face(_minion("perseus", 0, 1, keywords=[]))
    assert near(siege.minion_tile(plain, siege.SIDE_W), siege.UP) == 0
    assert near(siege.minion_tile(plain, siege.SIDE_W), siege.DOWN) == 0
    up = siege.minion_tile(plain._replace(attack=4), siege.SIDE_W)
    down = siege.minion_tile(plain._replace(attack=1), siege.SIDE_W)
    hurt = siege.minion_tile(plain._replace(damage=1), siege.SIDE_W)
    assert near(up, siege.UP) > 20 and near(up, siege.DOWN) == 0
    assert near(down, siege.DOWN) > 20 and near(down, siege.UP) == 0
    assert near(hurt, siege.DOWN) > 20
    for badge, (_, _, fill) in siege.BADGES.items():
        for w in (siege.SIDE_W, siege.SIDE_NARROW_W, siege.POOL_W):
            tile = siege.minion_tile(plain._replace(badges=(badge,)), w)
            assert near(tile, fill, 6) > 30, (badge, w)
    assert siege.face(_minion("medusa", 0, 1, crippled=True)).badges == ("crippled",)


def test_faces_read_the_view() -> None:
    m = _minion("hephaestus", 0, 5, pieces=[11, 4], attack=4, damage=2, paralyzed=True, dodge=True)
    f = siege.face(m)
    assert (f.name, f.cost, f.klass, f.race, f.ranged) == ("Hephaestus", 2, "neutral", "olympian", False)
    assert (f.attack, f.base_attack, f.health, f.damage, f.pieces) == (4, 2, 5, 2, (11, 4))
    assert f.badges == ("paralyzed", "dodge")
    assert siege.face(_minion("medusa", 0, 6)).badges == ("lethal",)
    assert siege.face(_minion("bellerophon", 0, 7)).ranged
    assert siege.printed_face("hydra", left=True).badges == ("left",)


# Changes to crowded() that the board shows: each changes the image (tests/games/test_render_card_games.py).
CHANGES: list[Callable[[JSON], object]] = [
    lambda v: v["players"][0]["minions"][1].update(damage=1),
    lambda v: v["players"][1].update(once_used=True),
    lambda v: v["players"][0].update(health=12),
    lambda v: v.update(target=22),
    lambda v: v.update(phase="deploy"),
    lambda v: v.update(deck_size=20),
    lambda v: v["agora"].pop(),
    lambda v: v["players"][1]["artifacts"].pop(),
]


def test_texts() -> None:
    names = ["Ann", "Bob"]
    assert siege.status_text(crowded(), names) == "Turn 14 · Bob's turn"
    assert siege.status_text(over(), names) == "Game over · Ann wins (conquers Olympus)"
    draw = over()
    draw["result"] = {"winners": [0, 1], "why": "after 60 turns, all even"}
    assert siege.status_text(draw, names) == "Game over · Ann and Bob draw (after 60 turns, all even)"
    assert siege.target_text(crowded(), names) == "Hera"
    assert siege.window_text(window(), names) == "Bellerophon attacks Ann's Commander"
    assert siege.decision_text(window(), names) == (
        "Ann: answer Bellerophon's attack with Ambush or Disrupt, or pass"
        " · Now: Bellerophon attacks Ann's Commander"
    )
    assert siege.decision_text(crowded(), names) == ""
    spell = crowded()
    spell["window"] = {"kind": "spell", "player": 1, "card": "thunderbolt", "negated": True,
                       "card_name": "Thunderbolt"}  # fmt: skip
    assert siege.window_text(spell, names) == "Bob plays Thunderbolt (negated)"
    pick = crowded()
    pick["decision"] = {"kind": "pick", "players": [1], "source": "hyperion", "what": "enemy",
                        "source_name": "Hyperion"}  # fmt: skip
    assert siege.decision_text(pick, names) == "Bob: choose an enemy minion for Hyperion"
    pick["decision"].update(what="prey_titan", source_name="Olympian synergy")
    assert siege.decision_text(pick, names) == (
        "Bob: choose an enemy Titan costing 3 or less to destroy for Olympian synergy"
    )
    gone = crowded()
    gone["players"][0]["minions"].pop(0)  # Hera, the turn's target, left the field
    assert siege.target_text(gone, names) == "gone"
    assert siege.short_name("Kronos, the Devourer") == "Kronos"


def test_prompts() -> None:
    names = ["Ann", "Bob"]
    mine = hand_view()
    assert present.prompt(mine, names) == Prompt("Waiting · Bob's turn 14 · Attack phase")
    answer = window()
    answer["viewer"] = 0
    assert present.prompt(answer, names) == Prompt(
        "Answer Bellerophon's attack with Ambush or Disrupt, or pass", True
    )
    deploy = copy.deepcopy(mine)
    deploy.update(active=0, to_act=[0], phase="deploy")
    assert present.prompt(deploy, names) == Prompt(
        "Your turn · Deploy: summon, cast, exchange, or go to Recruit", True
    )


# ---------------------------------------------------------------- names and texts that fit


def test_names_fit_their_tiles() -> None:
    """Every minion's name fits on its tile at MIN_TEXT (bold or regular) at every width beside its cost
    and piece (Hephaestus's added pieces move below it); every spell's name fits the Agora tile's two
    lines."""
    s = kit.SUPERSAMPLE
    regular = kit.font(kit.MIN_TEXT * s)
    for cid, spec in CARDS.items():
        if spec.type == "minion":
            for w in (siege.SIDE_W, siege.SIDE_NARROW_W, siege.POOL_W):
                room = siege.name_room(w, str(spec.stat("cost")), str(spec.stat("artifact")))
                assert regular.getlength(spec.name) <= room, (cid, w)
        elif spec.type == "spell":
            room = siege.name_room(siege.POOL_W, "0", "")
            kind = next((k.title() for k in ("ambush", "disrupt") if k in spec.keywords), "Spell")
            pill = kit.font(kit.MIN_TEXT * s, True).getlength(kind) + 18 * s
            first, second = siege._two_lines(spec.name, room, int(room - pill))
            assert regular.getlength(first) <= room and regular.getlength(second) <= room - pill, cid


def test_hand_texts_wrap_whole() -> None:
    """Every card's whole text fits its hand row, wrapped, at MIN_TEXT: nothing is cut."""
    f = kit.font(kit.MIN_TEXT)
    room = siege.HAND_ROW_W - 2 * siege.ROW_PAD - 16
    for cid, spec in CARDS.items():
        if spec.type not in ("minion", "spell"):
            continue
        lines = siege.hand_lines(cid)
        assert all(f.getlength(line) <= room and not line.endswith("…") for line in lines), cid
        assert " ".join(lines).split() == spec.text.split(), cid


# ---------------------------------------------------------------- odd views and caches


def odd() -> JSON:
    """crowded() with odd entries: unknown cards, wrong types, a long log line (they still draw:
    tests/games/test_render_card_games.py, with JUNK and JUNK_HAND)."""
    view = crowded()
    view["players"][0]["minions"] += [{"card": "no_such_card"}, {"uid": "x", "pieces": [1, 2, 3, 4, 5]}]
    view["players"][1]["commander_name"] = ""
    view["players"][1]["pieces"] = {"x": 1, "3": "two"}
    view["agora"] = ["nope", 7, None]
    view["target"] = 9999
    view["window"] = {"kind": "attack", "attacker": "?", "target": None}
    view["decision"] = {"kind": "something_new", "players": [3]}
    view["log"] = ["P1 " + "does a great many things " * 10]
    return view


JUNK: list[JSON] = [
    {},
    {"viewer": None},
    {"viewer": None, "players": "x", "tartarus": [1, 2], "agora": "abc"},
    {"players": [1, {"minions": [None, 3]}], "pile": "x", "result": {"winners": [7]}},
]
JUNK_HAND: JSON = {"viewer": 0, "players": [{"seat": 0, "hand": ["nope", 3]}]}


def test_tiles_are_cached_and_warm() -> None:
    siege.warm("dark")
    f = siege.printed_face("hydra")
    tile = siege.minion_tile(f, siege.SIDE_W, "dark")
    assert tile is siege.minion_tile(f, siege.SIDE_W, "dark")
    assert tile.size == (siege.SIDE_W, siege.TILE_H)
    assert render.module(GAME_ID) is siege
