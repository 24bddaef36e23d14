"""Tests for render/games/ophidian/: the hand-written views, the engine's view as the board reads it, what the
board marks, texts, sizes and odd views. What every card game's renderer gets (golden images of the views
below, real games, the public board and the private hand) is in tests/games/test_render_card_games.py.

The hand-written views follow the view contract of the engine (`game.view(state, viewer)`,
engine/games/ophidian/view.py) and are built from the ready teams of engine/games/ophidian/cards.toml; the
tests marked needs_engine play real games.
Golden images live in tests/golden/ (prefix ophidian_). They change only with the look, the card data or
the view's shape; regenerate them with
    AGORA_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/games/test_render_card_games.py -k ophidian
and look at the new PNGs before committing them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

from engine.games.ophidian import present
from engine.games.ophidian.cards import CARDS, TEAMS, disciplines
from engine.table.present import Prompt
from render import api as render
from render import kit
from render.games import ophidian as oph
from tests.golden_check import near

JSON = dict[str, Any]
GAME_ID = "ophidian"
NAMES = ["Ada", "Bartholomew the Magnificent"]


def _engine() -> Any:
    """The registered rules engine, or None while it is not registered yet."""
    from engine.registry import games

    return games().get(GAME_ID)


needs_engine = pytest.mark.skipif(_engine() is None, reason="the Ophidian rules engine is not registered yet")


# ---------------------------------------------------------------- hand-written views


def _printed_ddmg(cid: str) -> int:
    """A card's unconditional "DDMG N." passive (0 when it has none)."""
    return sum(
        a.amount for a in CARDS[cid].abilities if a.type == "passive" and a.stat == "ddmg" and not a.condition
    )


def _pump(cid: str, uid: int, owner: int, set_: bool = False) -> JSON:
    spec = CARDS[cid]
    return {"uid": uid, "card": cid, "name": spec.name, "owner": owner, "set": set_, "text": spec.text}


def _char(cid: str, owner: int, uid: int, field: str, **now: Any) -> JSON:
    """A character dict as the view gives it: printed values, or `now` values for what changed (a Gladiator
    is Raging when its wounds reach its Rage, unless `raging` says otherwise)."""
    spec = CARDS[cid]
    kind = spec.type
    level = {"gladiator": spec.stat("level"), "reinforcement": 0, "minion": spec.stat("level")}[kind]
    out: JSON = {
        "uid": uid, "card": cid, "name": spec.name, "kind": kind, "owner": owner, "field": field,
        "level": level, "life": spec.stat("life"), "wounds": 0,
        "rage": spec.stat("rage") if kind != "minion" else None, "raging": False,
        "admg": spec.stat("admg"), "ddmg": _printed_ddmg(cid), "set": False, "shield": 0,
        "disciplines": list(disciplines(cid)) if kind != "minion" else [spec.faction],
        "vp": spec.stat("vp"), "text": spec.text, "advanced": False, "retreated": False, "pumps": [],
    }  # fmt: skip
    out.update(now)
    if "raging" not in now and out["rage"] is not None:
        out["raging"] = out["wounds"] >= out["rage"]
    return out


def _player(seat: int, team: str, chars: list[JSON], **kw: Any) -> JSON:
    t = TEAMS[team]
    out: JSON = {
        "seat": seat, "team": t.name, "cp": 11, "cheer": 0, "crowd_favorite": False, "vp": 0,
        "hand": None, "hand_size": 7, "arsenal_size": 41, "scrap": [], "pyre": [], "stack": list(t.stack),
        "started": len(t.gladiators), "actions": 0, "characters": chars,
    }  # fmt: skip
    out.update(kw)
    return out


def _view(players: list[JSON], **kw: Any) -> JSON:
    """A view as the engine gives it (the contract: engine/games/ophidian/view.py): game, viewer,
    num_players, wave, phase, step, flow, passed, to_act, decision, attack, playing, players (seat, team,
    cp, cheer, crowd_favorite, vp, hand, hand_size, arsenal_size, scrap, pyre, stack, started, actions,
    characters), log, result."""
    cheers = [p["cheer"] for p in players]
    for k, p in enumerate(players):
        p["crowd_favorite"] = cheers[k] > cheers[1 - k]
    out: JSON = {
        "game": GAME_ID, "viewer": None, "num_players": 2, "wave": 1, "phase": "wave", "step": "",
        "flow": 0, "passed": False, "to_act": [0], "decision": None, "attack": None, "playing": None,
        "players": players, "log": [], "result": None,
    }  # fmt: skip
    out.update(kw)
    return out


def crowded() -> JSON:
    """Wave 3: Ada's Pit Hound (with Bo's Thought Leech on it) attacks Vashti Cole in Bo's Support Field and
    Kestrel Nine Protects her; Ada, with The Flow, may answer in the attacker's window. Both teams have
    characters in both fields: Set ones, a Raging Brakka Vohl, a promoted Juno Kessler, Pumps of both
    players, a shield, DDMG, and Lyra Shen in Bo's Funeral Pyre with Ninety come in for her."""
    ada = [
        _char("brakka_vohl_12", 0, 11, "action", level=2, wounds=5, set=True),
        _char("sera_quill_12", 0, 12, "action", admg=3, pumps=[_pump("gladius_mk_ix", 51, 0)]),
        _char("juno_kessler_34", 0, 13, "support", level=3, wounds=1),
        _char("pit_hound", 0, 14, "action", admg=1, set=True, pumps=[_pump("thought_leech", 52, 1)]),
        _char("sentry_turret", 0, 15, "support"),
    ]
    bo = [
        _char("kestrel_nine_12", 1, 21, "action", level=2, wounds=2),
        _char("nyx_arden_34", 1, 22, "action", level=3, wounds=4, set=True),
        _char("vashti_cole_12", 1, 23, "support", wounds=1),
        _char("ninety", 1, 24, "support"),
        _char("vat_brute", 1, 25, "action", shield=2, wounds=3),
        _char("symbiote_leech", 1, 26, "support", set=True),
    ]
    players = [
        _player(0, "iron_tide", ada, cp=6, cheer=4, vp=2, hand_size=4, arsenal_size=30,
                scrap=["overhand_smash", "second_wind"], actions=5,
                stack=["brakka_vohl_34", "sera_quill_34", "rook", "mags"]),
        _player(1, "mind_and_marrow", bo, cp=9, cheer=2, hand_size=6, arsenal_size=31, pyre=["lyra_shen_12"],
                stack=["kestrel_nine_34", "vashti_cole_34", "lyra_shen_34", "ashen_acolyte"], actions=4),
    ]  # fmt: skip
    return _view(
        players,
        wave=3,
        flow=0,
        to_act=[0],
        decision={"kind": "window", "players": [0], "source": "pit_hound", "source_name": "Pit Hound",
                  "window": "blocked"},
        attack={"attacker": 14, "target": 21, "original": 23, "intercepted": False, "protected": True,
                "direct": False},
        log=["P2 plays Thought Leech on Pit Hound", "P1 plays Overhand Smash: Sera Quill +2 ADMG",
             "Pit Hound attacks Vashti Cole", "Kestrel Nine protects Vashti Cole"],
    )  # fmt: skip


def playing() -> JSON:
    """Bo, with The Flow, plays Mind Spike; Ada may answer it (DR or R) before it resolves."""
    view = crowded()
    view.update(
        flow=1,
        passed=True,
        to_act=[0],
        attack=None,
        playing={"player": 1, "card": "mind_spike", "name": "Mind Spike"},
        decision={"kind": "window", "players": [0], "source": "mind_spike", "source_name": "Mind Spike",
                  "window": "enemy_plays"},
    )  # fmt: skip
    view["log"] = [*view["log"][:-2], "P1 passes", "P2 plays Mind Spike"]
    return view


def breather() -> JSON:
    """The Breather after Wave 2, Maintain step: Ada chooses what to pay for."""
    view = crowded()
    view.update(wave=2, phase="breather", step="maintain", flow=1, to_act=[0], attack=None,
                decision={"kind": "maintain", "players": [0], "source": "", "source_name": ""})  # fmt: skip
    for p in view["players"]:
        for c in p["characters"]:
            c["set"] = False
    view["log"] = [*view["log"], "Wave 2 ends", "P2 has The Flow (more wounds)"]
    return view


def setup() -> JSON:
    """The setup: both teams at Level 1 in their Support Fields; Bo, with The Flow, arranges them first."""
    ada = [_char(c, 0, 11 + k, "support") for k, c in enumerate(TEAMS["iron_tide"].gladiators)]
    bo = [_char(c, 1, 21 + k, "support") for k, c in enumerate(TEAMS["mind_and_marrow"].gladiators)]
    players = [_player(0, "iron_tide", ada), _player(1, "mind_and_marrow", bo)]
    return _view(players, wave=0, phase="setup", step="arrange", flow=1, to_act=[1],
                 decision={"kind": "arrange", "players": [1], "source": "", "source_name": ""},
                 log=["P2 has The Flow (die roll)"])  # fmt: skip


def over() -> JSON:
    """Ada wins with 12 VP in Bo's Funeral Pyre after Wave 4."""
    view = crowded()
    bo = view["players"][1]
    bo["characters"] = [c for c in bo["characters"] if c["card"] not in ("kestrel_nine_12", "nyx_arden_34")]
    bo["pyre"] = ["lyra_shen_12", "kestrel_nine_12", "nyx_arden_34"]
    view["players"][0]["vp"] = 2 + 3 + 5
    view.update(wave=4, phase="over", to_act=[], decision=None, attack=None,
                result={"winners": [0], "why": "the most VP after the 4th Wave"})  # fmt: skip
    view["log"] = [*view["log"], "Wave 4 ends", "P1 wins: the most VP after the 4th Wave"]
    return view


def hand_view() -> JSON:
    """Ada's own view of the crowded board: seven cards (two copies of one, a Minion, a Pump, responses,
    one whose requirement she does not meet, one she cannot pay for)."""
    view = crowded()
    view["viewer"] = 0
    hand = ["railgun_burst", "railgun_burst", "pit_hound", "gladius_mk_ix", "brutal_counter", "system_crash",
            "berserkers_oath", "cheap_shot", "mind_spike"]  # fmt: skip
    view["players"][0].update(hand=hand, hand_size=len(hand))
    return view


BOARDS = {"crowded": crowded, "playing": playing, "breather": breather, "setup": setup, "over": over}
# The seat to act, framed in gold: Ada answers the window on her own attack; in the setup Bartholomew arranges
# first.
ACTING = [(crowded, 0), (setup, 1)]


def panel_box(view: JSON, seat: int) -> kit.Box:
    """A seat's panel on the board."""
    return oph.layout(view, kit.seat_names(2, NAMES)).panels[seat]


# ---------------------------------------------------------------- real games (once the engine is registered)


@needs_engine
def test_real_views_have_what_the_board_reads() -> None:
    """The engine's view has every field the renderer reads (the contract), with the types it expects."""
    from tests.games.test_render_card_games import play  # it imports this module's views

    game = _engine()
    for steps in (0, 40, 160):
        view = game.view(play(GAME_ID, 5, steps), None)
        for key in ("wave", "phase", "step", "flow", "passed", "to_act", "decision", "attack", "playing",
                    "players", "log", "result"):  # fmt: skip
            assert key in view, key
        for p in view["players"]:
            for key in ("team", "cp", "cheer", "crowd_favorite", "vp", "hand_size", "arsenal_size", "pyre",
                        "stack", "characters"):  # fmt: skip
                assert key in p, key
            for c in p["characters"]:
                f = oph.face(c)
                assert f.life >= 1 and f.name and c["field"] in ("action", "support")
                assert c["kind"] in ("gladiator", "reinforcement", "minion")


# ---------------------------------------------------------------- hidden information, sizes, speed


def test_hand_reads_only_the_viewers_own_hand() -> None:
    """Even a view that wrongly carried the opponent's hand draws the same hand image: only the viewer's own
    cards and the opponent's hand size are read."""
    view = hand_view()
    leaked = copy.deepcopy(view)
    leaked["players"][1]["hand"] = ["smoke_screen", "mind_spike", "regen_gel"]
    assert render.hand(GAME_ID, leaked, NAMES) == render.hand(GAME_ID, view, NAMES)
    spectator = crowded()
    spectator["players"][1]["hand"] = ["smoke_screen"]
    assert render.board(GAME_ID, spectator, NAMES) == render.board(GAME_ID, crowded(), NAMES)


def _crowd(n: int) -> JSON:
    """The crowded view with n Minions more on each side, spread over both fields, Pumps on some."""
    view = crowded()
    minions = ["holo_wolf", "brood_crawler", "phantom_decoy", "bound_colossus", "wraith", "medic_bot"]
    for seat, p in enumerate(view["players"]):
        for k in range(n):
            pumps = [_pump("pack_tactics", 900 + seat * 50 + k, seat)] if k % 3 == 0 else []
            field = "action" if k % 2 else "support"
            p["characters"].append(_char(minions[k % len(minions)], seat, 100 + seat * 50 + k, field,
                                         pumps=pumps, wounds=k % 2))  # fmt: skip
    return view


@pytest.mark.parametrize("extra", [0, 3, 6, 10, 20])
def test_the_fullest_boards_fit(extra: int) -> None:
    """Up to 9 characters a side: under twice as tall as wide (crowded fields go two to a row, the log and
    the key give way); more, and the board grows rather than leave a character out, up to 12 a field (the
    label counts the rest)."""
    view = _crowd(extra)
    img = render.board_image(GAME_ID, view, NAMES)
    lay = oph.layout(view, kit.seat_names(2, NAMES))
    assert img.width == kit.WIDTH and img.height == lay.height
    if extra <= 3:
        assert img.height < 2 * kit.WIDTH
    if extra == 0:
        assert set(oph.layout(setup(), NAMES).columns.values()) == {1}  # room for every field one to a row
    if extra >= 6:
        assert 2 in lay.columns.values()
    drawn = set()
    for p in view["players"]:
        for f in ("action", "support"):
            field = [c["uid"] for c in p["characters"] if c["field"] == f]
            assert lay.drawn[(p["seat"], f)] == min(12, len(field))
            drawn |= set(field[:12])
    assert set(lay.tiles) == drawn
    assert len(render.board(GAME_ID, view, NAMES)) < 300_000


# ---------------------------------------------------------------- what the board marks


def _frame_colour(img: Image.Image, box: kit.Box, colour: kit.RGB) -> bool:
    """Whether the band just left of a box has the colour (a highlight frame)."""
    x0, y0, _, y1 = box
    return any(img.getpixel((x, y)) == colour for x in range(x0 - 6, x0) for y in range(y0, y1))


def test_the_attack_frames_attacker_and_target() -> None:
    """The attack under way frames its attacker (Pit Hound) in gold and its target (Kestrel Nine, who
    Protects) in red, and the original target (Vashti Cole) too; without the attack none is framed."""
    t = kit.theme("dark")
    calm = crowded()
    calm.update(attack=None, decision=None)
    for view, framed in ((crowded(), True), (calm, False)):
        img = render.board_image(GAME_ID, view, NAMES)
        lay = oph.layout(view, kit.seat_names(2, NAMES))
        assert _frame_colour(img, lay.tiles[14], t.highlight) == framed
        assert _frame_colour(img, lay.tiles[21], t.bad) == framed
        assert _frame_colour(img, lay.tiles[23], t.bad) == framed


def test_damage_a_card_is_about_to_deal_is_framed() -> None:
    """A defend decision about a card's damage frames the character it would hit in red."""
    t = kit.theme("dark")
    view = crowded()
    decision = {"kind": "defend", "players": [1], "source": "mind_spike", "source_name": "Mind Spike",
                "uid": 23, "about": "damage"}  # fmt: skip
    view.update(attack=None, decision=decision)
    img = render.board_image(GAME_ID, view, NAMES)
    lay = oph.layout(view, kit.seat_names(2, NAMES))
    assert _frame_colour(img, lay.tiles[23], t.bad)
    assert not _frame_colour(img, lay.tiles[21], t.bad)


def test_set_raging_wounds_and_modified_stats_are_marked() -> None:
    """A Set character's card stock greys; a Raging one is orange; wounds are red cells; ADMG above its
    printed value is green, below it red; Pumps show at both widths."""
    plain = oph.face(_char("sera_quill_12", 0, 1, "action"))
    for w in (oph.FULL_W, oph.HALF_W):
        base = oph.character_tile(plain, w)
        assert near(base, oph.SET_FACE, 4) < 20 and near(base, oph.RAGE, 6) < 40  # (the Rage tick)
        assert near(base, oph.UP, 6) == 0 and near(base, oph.DOWN, 6) == 0
        assert near(oph.character_tile(plain._replace(set=True), w), oph.SET_FACE, 4) > 500
        assert near(oph.character_tile(plain._replace(wounds=4, raging=True), w), oph.RAGE, 6) > 150
        assert near(oph.character_tile(plain._replace(wounds=2), w), oph.DOWN, 6) > 100
        assert near(oph.character_tile(plain._replace(admg=3), w), oph.UP, 6) > 20
        assert near(oph.character_tile(plain._replace(admg=1), w), oph.DOWN, 6) > 20
        pumped = plain._replace(pumps=(oph.Pump("Gladius Mk. IX", 1, False),))
        tile = oph.character_tile(pumped, w)
        assert tile.height == oph.TILE_H + 28 and near(tile, kit.seat_colour(1), 10) > 30


def test_faces_read_the_view() -> None:
    c = _char("nyx_arden_34", 1, 5, "action", level=4, wounds=5, admg=2, set=True, shield=1,
              pumps=[_pump("neural_crown", 9, 1, set_=True)])  # fmt: skip
    f = oph.face(c)
    assert (f.name, f.kind, f.disciplines, f.level, f.vp) == ("Nyx Arden", "gladiator", ("psionic", "mystic"),
                                                             4, 5)  # fmt: skip
    assert (f.life, f.wounds, f.rage, f.raging, f.admg, f.base_admg, f.shield, f.set) == (
        8, 5, 4, True, 2, 3, 1, True)  # fmt: skip
    assert f.pumps == (oph.Pump("Neural Crown", 1, True),)
    minion = oph.face(_char("pit_hound", 0, 6, "support"))
    assert minion.kind == "minion" and minion.rage == 0 and not minion.raging


# Changes to crowded() that the board shows: each changes the image (tests/games/test_render_card_games.py).
CHANGES: list[Callable[[JSON], object]] = [
    lambda v: v["players"][0]["characters"][1].update(wounds=1),
    lambda v: v["players"][0]["characters"][1].update(set=True),
    lambda v: v["players"][1]["characters"][0].update(level=3),
    lambda v: v["players"][1]["characters"][4].update(shield=0),
    lambda v: v["players"][1]["characters"][4].update(ddmg=1),
    lambda v: v["players"][0]["characters"][3]["pumps"].clear(),
    lambda v: v["players"][0].update(cp=5),
    lambda v: v["players"][1].update(cheer=5),
    lambda v: v["players"][0].update(vp=4),
    lambda v: v["players"][0].update(hand_size=3),
    lambda v: v["players"][1].update(arsenal_size=12),
    lambda v: v["players"][0]["pyre"].append("rook"),
    lambda v: v.update(flow=1),
    lambda v: v.update(wave=4),
    lambda v: v.update(passed=True),
    lambda v: v.update(playing={"player": 0, "card": "cheap_shot", "name": "Cheap Shot"}),
    lambda v: v["players"][1]["characters"][2].update(field="action"),
]


# ---------------------------------------------------------------- texts


def test_texts() -> None:
    names = ["Ann", "Bob"]
    assert oph.status_text(crowded(), names) == "Wave 3 · The Flow: Ann"
    assert oph.status_text(breather(), names) == "Breather after Wave 2 · Maintain"
    assert oph.status_text(setup(), names) == "Setup · Arrange"
    assert oph.status_text(over(), names) == "Game over · Ann wins (the most VP after the 4th Wave)"
    tie = crowded()
    tie["wave"] = 5
    assert oph.status_text(tie, names) == "Tie Wave 5 · The Flow: Ann"
    draw = over()
    draw["result"] = {"winners": [0, 1], "why": "still tied after Wave 7"}
    assert oph.status_text(draw, names) == "Game over · Ann and Bob draw (still tied after Wave 7)"
    assert oph.attack_text(crowded(), names) == "Pit Hound → Vashti Cole · Kestrel Nine protects"
    direct = crowded()
    direct["attack"].update(target=23, direct=True, protected=False)
    assert oph.attack_text(direct, names) == "Pit Hound → Vashti Cole · XDMG"
    assert oph.decision_text(crowded(), names) == "Ann: play a response to your attack, or pass"
    assert oph.decision_text(playing(), names) == (
        "Ann: play a response to the card your opponent plays, or pass"
    )
    assert oph.playing_text(playing(), names) == "Bob plays Mind Spike (+)"
    assert (
        oph.decision_text(breather(), names)
        == "Ann: pay Maintain for the cards you keep; the rest are scrapped"
    )
    assert (
        oph.decision_text(setup(), names)
        == "Bob: move characters between the Action and Support Fields, then done"
    )
    both = setup()
    both["decision"] = {"kind": "bottom", "players": [0, 1], "source": "bottom", "owe": 2}
    assert (
        oph.decision_text(both, names)
        == "Ann and Bob: put 2 cards from your hand on the bottom of your Arsenal"
    )
    pick = crowded()
    pick["decision"] = {"kind": "pick", "players": [1], "source": "mind_spike", "source_name": "Mind Spike",
                        "what": "enemy"}  # fmt: skip
    assert oph.decision_text(pick, names) == "Bob: choose an enemy character for Mind Spike"
    defend = crowded()
    defend["decision"] = {"kind": "defend", "players": [1], "source": "attack", "uid": 23, "about": "attack"}
    assert (
        oph.decision_text(defend, names)
        == "Bob: Intercept or Protect for Vashti Cole against the attack, or take it"
    )
    odd = crowded()
    odd["decision"] = {"kind": "something_new", "players": [1]}
    assert oph.decision_text(odd, names) == "Bob: choose a target"
    assert oph.decision_text(over(), names) == ""
    assert oph.strip_label(crowded()) == "WAVE 3 OF 4"
    assert oph.strip_label(tie) == "TIE WAVE 5"
    assert oph.strip_label(breather()) == "BREATHER AFTER WAVE 2"
    assert oph.field_label(crowded()["players"][0], 0, "action", names) == "ANN · ACTION FIELD · 3"


def test_prompts() -> None:
    names = ["Ann", "Bob"]
    mine = hand_view()
    assert present.prompt(mine, names) == Prompt("Play a response to your attack, or pass", True)
    theirs = playing()
    theirs["viewer"] = 1
    waiting = "Waiting · Ann: play a response to the card your opponent plays, or pass"
    assert present.prompt(theirs, names) == Prompt(waiting)
    flow = copy.deepcopy(mine)
    flow.update(decision=None, attack=None)
    assert present.prompt(flow, names) == Prompt("You have The Flow: play, attack, move, or pass", True)
    cheer = copy.deepcopy(mine)
    cheer["decision"] = {"kind": "cheer", "players": [0], "source": "cheer"}
    cheer_words = "Spend 1 Cheer to turn that + into − (The Flow passes), or keep it"
    assert present.prompt(cheer, names) == Prompt(cheer_words, True)
    bottom = copy.deepcopy(mine)
    bottom["decision"] = {"kind": "bottom", "players": [0], "source": "bottom", "owe": 2}
    assert present.prompt(bottom, names) == Prompt(
        "Put 2 cards from your hand on the bottom of your Arsenal", True
    )
    pick = copy.deepcopy(mine)
    pick["decision"] = {"kind": "pick", "players": [0], "source": "x", "what": "discard"}
    assert present.prompt(pick, names) == Prompt("Choose a card to scrap from your hand", True)
    done = over()
    done["viewer"] = 0
    assert present.prompt(done, names) == Prompt("Game over · Ann wins (the most VP after the 4th Wave)")


# ---------------------------------------------------------------- names and texts that fit


def test_names_fit_their_tiles() -> None:
    """Every character's name fits its tile at MIN_TEXT (bold or regular) at both widths beside its VP."""
    regular = kit.font(kit.MIN_TEXT * kit.SUPERSAMPLE)
    for cid, spec in CARDS.items():
        if spec.type not in ("gladiator", "reinforcement", "minion"):
            continue
        vp = f"{spec.stat('vp')} VP" if spec.type != "minion" else ""
        for w in (oph.FULL_W, oph.HALF_W):
            assert regular.getlength(spec.name) <= oph.name_room(w, vp), (cid, w)


def test_hand_texts_wrap_whole() -> None:
    """Every Strategy card's whole text fits its hand row, wrapped, at MIN_TEXT: nothing is cut (but the
    "Unique." line, which the type line says)."""
    f = kit.font(kit.MIN_TEXT)
    room = oph.HAND_ROW_W - 2 * 8 - 10 - 8
    for cid, spec in CARDS.items():
        if spec.type not in ("minion", "quick_hit", "pump"):
            continue
        lines = oph.hand_lines(cid)
        assert all(f.getlength(line) <= room and not line.endswith("…") for line in lines), cid
        text = spec.text.removeprefix("Unique.") if "unique" in spec.keywords else spec.text
        assert " ".join(lines).split() == (text.split() or ["No", "text."]), cid


def test_requirements() -> None:
    """A card's requirement is met by a Gladiator (not a Reinforcement nor a Minion) of its discipline, or
    any for Universal, at its level or higher."""
    view = hand_view()  # Ada: Brakka Vohl (Warrior 2), Sera Quill (Warrior 1), Juno Kessler (Tech 3)
    assert oph.requirement("gladius_mk_ix") == "Warrior 2"
    assert oph.meets("gladius_mk_ix", view, 0) and oph.meets("system_crash", view, 0)
    assert oph.meets("cheap_shot", view, 0) and not oph.meets("mind_spike", view, 0)
    assert oph.meets("hard_reset", view, 0)  # Universal 3: Juno Kessler is Level 3
    view["players"][0]["characters"][2]["level"] = 2
    assert not oph.meets("hard_reset", view, 0)
    assert oph.meets("system_crash", view, 0)  # Tech 2
    view["players"][0]["characters"][2]["level"] = 1
    assert not oph.meets("system_crash", view, 0)
    assert oph.meets("berserkers_oath", view, 0)
    view["players"][0]["characters"] = [_char("rook", 0, 1, "action")]
    assert not oph.meets("overhand_smash", view, 0)


def test_the_hands_stack_lines() -> None:
    own = hand_view()
    assert oph.stack_lines(own["players"][0])[2] == "Rook · Reinforcement · M 1 · ⚔1 ♥4 Rage 2 · 1 VP"


# ---------------------------------------------------------------- odd views and caches


def odd() -> JSON:
    """crowded() with odd entries: unknown cards, wrong types, a long log line (they still draw:
    tests/games/test_render_card_games.py, with JUNK and JUNK_HAND)."""
    view = crowded()
    view["players"][0]["characters"] += [{"card": "no_such_card"}, {"uid": "x", "pumps": [1, {"card": 3}]}]
    view["players"][1]["pyre"] = ["nope", 7, None]
    view["players"][1]["team"] = None
    view["attack"] = {"attacker": "?", "target": None}
    view["playing"] = {"player": 9, "card": None}
    view["decision"] = {"kind": "window", "players": [3], "window": "nothing"}
    view["log"] = ["P1 " + "does a great many things " * 10]
    return view


JUNK: list[JSON] = [
    {},
    {"viewer": None},
    {"viewer": None, "players": "x", "attack": [1, 2], "decision": "abc"},
    {"players": [1, {"characters": [None, 3]}], "wave": "x", "result": {"winners": [7]}},
    {"phase": "breather", "step": "new_step", "wave": 9},
]
JUNK_HAND: JSON = {"viewer": 0, "players": [{"seat": 0, "hand": ["nope", 3]}]}


def test_tiles_are_cached_and_warm() -> None:
    oph.warm("dark")
    f = oph.face(_char("brakka_vohl_12", 0, 1, "support"))
    tile = oph.character_tile(f, oph.HALF_W, "dark")
    assert tile is oph.character_tile(f, oph.HALF_W, "dark")
    assert tile.size == (oph.HALF_W, oph.TILE_H)
    assert render.module(GAME_ID) is oph
