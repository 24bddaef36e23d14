"""What a viewer of an Ophidian 2350 game may see (`OphidianView`, the contract the renderer and present.py
read), and the menu words for each move."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from engine import eventlog
from engine.abilities import resolve as kit
from engine.core import JSON, Action, Arg, PlayerId
from engine.games.ophidian import board as b
from engine.games.ophidian.cards import CARDS, disciplines
from engine.games.ophidian.state import Char, OphidianState
from engine.table.decisions import PASS


class PumpView(TypedDict):
    """A Pump attached to a character."""

    uid: int
    card: str
    name: str
    owner: PlayerId
    set: bool
    text: str


class CharacterView(TypedDict):
    """A Gladiator or a Minion in play, as front ends draw it."""

    uid: int
    card: str
    name: str
    kind: str
    owner: PlayerId
    field: str
    level: int
    life: int
    wounds: int
    rage: int | None  # None for a Minion
    raging: bool
    admg: int
    ddmg: int
    set: bool
    shield: int
    disciplines: list[str]
    vp: int
    text: str
    advanced: bool
    retreated: bool
    pumps: list[PumpView]


class DecisionView(kit.DecisionView):
    """The pending decision, with what Ophidian's own decisions add."""

    window: NotRequired[str]  # a response window: the event it answers
    events: NotRequired[list[str]]
    uid: NotRequired[int]  # a defence: the character attacked or damaged
    about: NotRequired[str]  # "attack" or "damage"
    owe: NotRequired[int]  # the cards still to put on the bottom


class PlayerView(TypedDict):
    """One side: its team, CP, Cheer, VP, hand (own only) and piles, and its characters."""

    seat: PlayerId
    team: str
    cp: int
    cheer: int
    crowd_favorite: bool
    vp: int
    hand: list[str] | None
    hand_size: int
    arsenal_size: int
    scrap: list[str]
    pyre: list[str]
    stack: list[str]
    started: int
    actions: int
    characters: list[CharacterView]


class PlayingView(TypedDict):
    """The Strategy card being played."""

    player: PlayerId
    card: str
    name: str


class OphidianView(TypedDict):
    """Everything a viewer (None = a spectator) may see of an Ophidian 2350 game."""

    game: str
    viewer: PlayerId | None
    num_players: int
    wave: int
    phase: str
    step: str
    flow: PlayerId
    passed: bool
    to_act: list[PlayerId]
    decision: DecisionView | None
    attack: dict[str, Arg] | None  # attacker, target, original, intercepted, protected, direct
    playing: PlayingView | None
    players: list[PlayerView]
    log: list[str]
    result: JSON | None


def character(s: OphidianState, c: Char) -> CharacterView:
    """One character as front ends draw it."""
    spec = CARDS[c.card]
    glad = b.gladiator(c)
    return {
        "uid": c.uid,
        "card": c.card,
        "name": spec.name,
        "kind": spec.type,
        "owner": c.owner,
        "field": c.field,
        "level": c.level,
        "life": b.stat(s, c, "life"),
        "wounds": c.wounds,
        "rage": b.stat(s, c, "rage") if glad else None,
        "raging": b.raging_now(s, c),
        "admg": b.stat(s, c, "admg"),
        "ddmg": b.stat(s, c, "ddmg"),
        "set": c.set,
        "shield": c.shield,
        "disciplines": list(disciplines(c.card)) if glad else [spec.faction],
        "vp": spec.stat("vp"),
        "text": spec.text,
        "advanced": c.advanced,
        "retreated": c.retreated,
        "pumps": [
            {
                "uid": p.uid,
                "card": p.card,
                "name": CARDS[p.card].name,
                "owner": p.owner,
                "set": p.set,
                "text": CARDS[p.card].text,
            }
            for p in b.pumps_on(s, c.uid)
        ],
    }


def _decision(s: OphidianState, viewer: int | None) -> DecisionView | None:
    if not s.decisions:
        return None
    d = s.decisions[-1]
    out: DecisionView = {**kit.decision_view(d, viewer, CARDS)}
    if d.kind == "window":
        out["window"] = d.data["events"][-1]
        out["events"] = list(d.data["events"])
    elif d.kind == "defend":
        out["uid"] = d.data["uid"]
        out["about"] = "attack" if d.source == "attack" else "damage"
    elif d.kind == "bottom":
        out["owe"] = d.data.get("owe", 0)
    return out


def _view(game: Any, s: OphidianState, viewer: int | None) -> OphidianView:
    players: list[PlayerView] = []
    for i, side in enumerate(s.sides):
        players.append(
            {
                "seat": i,
                "team": side.team,
                "cp": side.cp,
                "cheer": side.cheer,
                "crowd_favorite": b.crowd_favorite(s, i),
                "vp": b.scored(s, i),
                "hand": list(side.hand) if viewer == i else None,
                "hand_size": len(side.hand),
                "arsenal_size": len(side.arsenal),
                "scrap": list(side.scrap),
                "pyre": list(side.pyre),
                "stack": list(side.stack),
                "started": side.started,
                "actions": side.actions,
                "characters": [character(s, c) for c in side.chars],
            }
        )
    attack: dict[str, Arg] | None = None
    if s.attack is not None:
        attack = {
            k: s.attack[k] for k in ("attacker", "target", "original", "intercepted", "protected", "direct")
        }
    playing: PlayingView | None = None
    if s.playing:
        top = s.playing[-1]
        playing = {"player": top["player"], "card": top["card"], "name": CARDS[top["card"]].name}
    return {
        "game": game.id,
        "viewer": viewer,
        "num_players": s.num_players,
        "wave": s.wave,
        "phase": s.phase if s.phase != "ending" else "wave",
        "step": s.step,
        "flow": s.flow,
        "passed": s.passed,
        "to_act": list(game.to_act(s)),
        "decision": _decision(s, viewer),
        "attack": attack,
        "playing": playing,
        "players": players,
        "log": eventlog.visible(s.log, viewer),
        "result": None if s.result is None else dict(s.result),
    }


def where(s: OphidianState, uid: int) -> str:
    """A character or Pump named for a menu: whose, what, its numbers."""
    c = b.find(s, uid)
    if c is None:
        p = b.pump(s, uid)
        if p is None:
            return "a card"
        return f"{CARDS[p.card].name} on {where(s, p.bearer)}"
    field = "Action" if c.field == "action" else "Support"
    state = ", Set" if c.set else ""
    life = b.life_left(s, c)
    return f"P{c.owner + 1}'s {CARDS[c.card].name} ({field}{state}, {b.stat(s, c, 'admg')} ADMG, {life} Life)"


def name(cid: Any) -> str:
    """A card's printed name."""
    return str(CARDS[str(cid)].name)


def _card(cid: str) -> str:
    spec = CARDS[cid]
    from engine.games.ophidian.cards import symbol

    return f"{spec.name} [{symbol(cid)}] {spec.stat('cp')} CP"


def _describe(game: Any, s: OphidianState, a: Action) -> tuple[str, ...]:
    k = a.kind
    d = s.decisions[-1] if s.decisions else None
    if k == PASS:
        if d is None:
            return ("Pass (−)",)
        words = {
            "window": "Do not respond",
            "defend": "Take it",
            "cheer": "Keep your Cheer",
            "arrange": "Done arranging",
            "scrap": "Keep the rest of your hand",
            "maintain": "Pay for no more (scrap the rest)",
            "promote": "Promote nobody",
            "reinforce": "No more Reinforcements",
            "may": "Do not use it",
        }
        return (words.get(d.kind, "Pass"),)
    if k == "play":
        x = dict(a.args).get("x")
        extra = (f"X = {x} (+{x} CP)",) if x is not None else ()
        return ("Play a card", _card(str(a.arg("c"))), *extra)
    if k == "advance":
        return ("Advance (+)", where(s, int(a.arg("u"))))
    if k == "retreat":
        return ("Retreat (−)", where(s, int(a.arg("u"))))
    if k == "attack":
        return ("Attack (+)", where(s, int(a.arg("u"))), f"attacks {where(s, int(a.arg('t')))}")
    if k == "ability":
        uid, i = int(a.arg("u")), int(a.arg("a"))
        holder = b.find(s, uid) or b.pump(s, uid)
        card = holder.card if holder else ""
        line = CARDS[card].text.splitlines()[min(i, len(CARDS[card].text.splitlines()) - 1)] if card else ""
        return ("Use an ability", where(s, uid), line or f"ability {i + 1}")
    if k == "spend":
        return ("Spend 1 Cheer: turn the last + into −",)
    if k == "respond":
        return ("Respond", _card(str(a.arg("c"))))
    if k in ("intercept", "protect"):
        return (k.capitalize(), where(s, int(a.arg("u"))))
    if k == "bottom":
        return ("Put on the bottom of your Arsenal", name(a.arg("c")))
    if k == "scrap":
        return ("Scrap from your hand", name(a.arg("c")))
    if k == "place":
        c = b.find(s, int(a.arg("u")))
        to = "Support" if c is not None and c.field == "action" else "Action"
        return (f"Move to the {to} Field", where(s, int(a.arg("u"))))
    if k == "keep":
        uid = int(a.arg("u"))
        return ("Maintain", f"{where(s, uid)} for {game._fee(s, uid)} CP")
    if k == "promote":
        return ("Promote", where(s, int(a.arg("u"))))
    if k == "reinforce":
        return ("Bring in a Reinforcement", name(a.arg("c")))
    if k == "use":
        return ("Use the ability",)
    if k == "order":
        ctx = next((c for c in s.pending if c["id"] == int(a.arg("p"))), None)
        return ("Resolve first", CARDS[ctx["card"]].name if ctx else "a trigger")
    if k == "pick":
        arg, value = a.args[0]
        if arg == "t":
            return ("Choose", where(s, int(value)))
        return ("Choose a card", name(value))
    return (a.key,)
