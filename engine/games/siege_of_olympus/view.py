"""What a viewer of a Siege of Olympus game may see (`SiegeView`, the contract the renderer and present.py
read), and the menu words for each move."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from engine import eventlog
from engine.abilities import resolve as kit
from engine.core import JSON, Action, PlayerId
from engine.games.siege_of_olympus import board as b
from engine.games.siege_of_olympus.cards import (
    ARTIFACTS,
    CARDS,
    COMMANDER_HEALTH,
    EVERY,
    KEYWORDS,
    STATIC_KEYWORDS,
)
from engine.games.siege_of_olympus.state import Minion, SiegeState
from engine.table.decisions import PASS

# A minion as front ends draw it (the functional form: one key is "class").
MinionView = TypedDict(
    "MinionView",
    {
        "uid": int,
        "card": str,
        "name": str,
        "owner": PlayerId,
        "cost": int,
        "attack": int,
        "health": int,
        "base_attack": int,
        "base_health": int,
        "damage": int,
        "piece": int,
        "pieces": list[int],
        "under": list[str],
        "class": Any,
        "race": Any,
        "ranged": bool,
        "keywords": list[str],
        "crippled": bool,
        "paralyzed": bool,
        "dodge": bool,
        "attacked": bool,
        "text": str,
    },
)


class DecisionView(kit.DecisionView):
    """The pending decision, with the kind of window it opens."""

    window: NotRequired[str]


class WindowView(TypedDict):
    """What waits on a response window: a card, an ability or an attack."""

    kind: str
    player: PlayerId
    card: str
    negated: bool
    card_name: str
    attacker: NotRequired[int]  # an attack's
    target: NotRequired[int]


class ArtifactView(TypedDict):
    """An artifact a side holds."""

    number: int
    card: str
    name: str
    used: bool


class PlayerView(TypedDict):
    """One side: its Commander, hand (own only), minions, artifacts and pieces."""

    seat: PlayerId
    commander: str
    commander_name: str
    commander_uid: int
    commander_text: str
    health: int
    max_health: int
    once_used: bool
    hand: list[str] | None
    fresh: list[str] | None
    hand_size: int
    minions: list[MinionView]
    artifacts: list[ArtifactView]
    pieces: dict[str, int]
    ambushed: bool


class SiegeView(TypedDict):
    """Everything a viewer (None = a spectator) may see of a Siege of Olympus game."""

    game: str
    viewer: PlayerId | None
    num_players: int
    turn: int
    active: PlayerId
    first: PlayerId
    phase: str
    moves: int
    exchanged: bool
    target: int
    to_act: list[PlayerId]
    decision: DecisionView | None
    window: WindowView | None
    players: list[PlayerView]
    tartarus: list[MinionView]
    agora: list[str]
    left: list[str]
    underworld: list[str]
    deck_size: int
    pile: list[int]
    log: list[str]
    result: JSON | None


def minion(s: SiegeState, m: Minion) -> MinionView:
    """One minion as front ends draw it."""
    spec = CARDS[m.card]
    keywords = [k for k in KEYWORDS if k in spec.keywords or (k in STATIC_KEYWORDS and b.has(s, m, k))]
    if m.crippled:
        keywords = []
    return {
        "uid": m.uid,
        "card": m.card,
        "name": spec.name,
        "owner": m.owner,
        "cost": spec.stat("cost"),
        "attack": b.stat(s, m, "attack"),
        "health": b.stat(s, m, "health"),
        "base_attack": spec.stat("attack"),
        "base_health": spec.stat("health"),
        "damage": m.damage,
        "piece": m.piece,
        "pieces": b.pieces(m),
        "under": list(m.under),  # face up (RULINGS 30)
        "class": spec.flag("class"),
        "race": spec.flag("race"),
        "ranged": bool(spec.flag("ranged")),
        "keywords": keywords,
        "crippled": m.crippled,
        "paralyzed": m.paralyzed >= s.turn,
        "dodge": m.dodge,
        "attacked": m.attacked,
        "text": spec.text,
    }


def _decision(s: SiegeState, viewer: int | None) -> DecisionView | None:
    if not s.decisions:
        return None
    d = s.decisions[-1]
    out: DecisionView = {**kit.decision_view(d, viewer, EVERY)}
    if d.kind == "window":
        out["window"] = d.data.get("kind", "")
    return out


def _window(s: SiegeState) -> WindowView | None:
    w = s.window
    if w is None:
        return None
    name = CARDS[w["card"]].name if w["card"] in CARDS else ""
    out: WindowView = {
        "kind": w["kind"],
        "player": w["player"],
        "card": w["card"],
        "negated": w["negated"],
        "card_name": name,
    }
    if w["kind"] == "attack":
        out["attacker"], out["target"] = w["attacker"], w["target"]
    return out


def _view(game: Any, s: SiegeState, viewer: int | None) -> SiegeView:
    players: list[PlayerView] = []
    for i, side in enumerate(s.sides):
        players.append(
            {
                "seat": i,
                "commander": side.commander,
                "commander_name": CARDS[side.commander].name if side.commander else "",
                "commander_uid": side.commander_uid,
                "commander_text": CARDS[side.commander].text if side.commander else "",
                "health": COMMANDER_HEALTH - side.wounds,
                "max_health": COMMANDER_HEALTH,
                "once_used": side.once_used,
                "hand": list(side.hand) if viewer == i else None,
                "fresh": list(side.fresh) if viewer == i else None,
                "hand_size": len(side.hand),
                "minions": [minion(s, m) for m in side.minions],
                "artifacts": [
                    {
                        "number": h.number,
                        "card": ARTIFACTS[h.number].id,
                        "name": ARTIFACTS[h.number].name,
                        "used": h.used,
                    }
                    for h in side.artifacts
                ],
                "pieces": {str(n): c for n, c in sorted(b.pieces_of(s, i).items())},
                "ambushed": side.ambushed,
            }
        )
    return {
        "game": game.id,
        "viewer": viewer,
        "num_players": s.num_players,
        "turn": s.turn,
        "active": s.active,
        "first": s.first,
        "phase": s.phase,
        "moves": s.moves,
        "exchanged": s.exchanged,
        "target": s.target,
        "to_act": list(game.to_act(s)),
        "decision": _decision(s, viewer),
        "window": _window(s),
        "players": players,
        "tartarus": [minion(s, m) for m in s.tartarus],
        "agora": list(s.agora),
        "left": list(s.left),
        "underworld": list(s.underworld),
        "deck_size": len(s.deck),
        "pile": list(s.pile),
        "log": eventlog.visible(s.log, viewer),
        "result": None if s.result is None else dict(s.result),
    }


def _where(s: SiegeState, uid: int) -> str:
    for seat, side in enumerate(s.sides):
        if side.commander_uid == uid:
            return f"P{seat + 1}'s Commander {CARDS[side.commander].name}"
    m = b.find(s, uid)
    if m is None:
        return "a minion"
    where = "Tartarus" if m.owner < 0 else f"P{m.owner + 1}"
    return f"{CARDS[m.card].name} ({where}, {b.stat(s, m, 'attack')}/{b.health_left(s, m)})"


def option_text(cid: str, index: int) -> str:
    """The printed words of a Pick or Combine card's option (its n-th ability of the main kind)."""
    spec = CARDS[cid]
    kind = spec.abilities[index].type
    rank = [i for i, _ in spec.of_type(kind)].index(index)
    text = spec.text.split("— ", 1)[-1]
    parts = text.split("; or ") if "pick" in spec.keywords else text.split("; ")
    return parts[rank].rstrip(".") if rank < len(parts) else f"option {rank + 1}"


def name(cid: Any) -> str:
    """A card's printed name."""
    return str(CARDS[str(cid)].name)


def _describe(s: SiegeState, a: Action) -> tuple[str, ...]:
    k = a.kind
    if k == "end":
        return ("End turn",)
    if k == "next":
        return ("Go to the Recruit phase",) if s.phase == "deploy" else ("Go to the Attack phase",)
    if k == PASS:
        d = s.decisions[-1] if s.decisions else None
        if d is not None and d.kind == "mulligan":
            return ("Keep your hand",) if not d.data.get("returned") else ("Keep the rest and draw",)
        if d is not None and d.kind == "pick":
            return ("Take no more",)
        return ("Pass",)
    if k == "summon":
        return ("Summon a minion", name(a.arg("c")))
    if k == "cast":
        return ("Play a spell", name(a.arg("c")))
    if k == "exchange":
        return ("Exchange at the Agora", f"leave {name(a.arg('c'))}", f"take {name(a.arg('g'))}")
    if k == "act":
        spec = ARTIFACTS[int(a.arg("n"))]
        return ("Use an artifact", f"{spec.name}: {spec.text}")
    if k == "once":
        side = s.sides[a.player]
        return ("Commander's power", f"{CARDS[side.commander].name}: {CARDS[side.commander].text}")
    if k == "recruit":
        return ("Recruit", _where(s, int(a.arg("u"))), f"attacks {_where(s, int(a.arg('t')))}")
    if k == "attack":
        return ("Attack", _where(s, int(a.arg("u"))), f"attacks {_where(s, int(a.arg('t')))}")
    if k == "respond":
        return ("Respond", name(a.arg("c")))
    if k == "return":
        return ("Return a card to the Deck", name(a.arg("c")))
    if k == "commander":
        return ("Choose your Commander", f"{name(a.arg('c'))}: {CARDS[str(a.arg('c'))].text}")
    if k == "option":
        card = s.window["card"] if s.window else ""
        return ("Choose an option", option_text(card, int(a.arg("o"))) if card else str(a.arg("o")))
    if k == "discard":
        return ("Discard", name(a.arg("c")))
    if k == "use":
        return ("Use the ability",)
    if k == "order":
        ctx = next((c for c in s.pending if c["id"] == int(a.arg("p"))), None)
        return ("Resolve first", EVERY[ctx["card"]].name if ctx else "a trigger")
    if k == "pick":
        arg, value = a.args[0]
        if arg == "t":
            return ("Choose", _where(s, int(value)))
        if arg == "g":
            return ("Take from the Agora", name(value))
        if arg == "n":
            return ("Take the artifact", ARTIFACTS[int(value)].name)
        return ("Choose a card", name(value))
    return (a.key,)
