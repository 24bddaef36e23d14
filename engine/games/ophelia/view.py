"""What a viewer of an Ophelia game may see (`OpheliaView`, the contract the renderer and present.py read),
and the menu words for each move."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict, cast

from engine import eventlog
from engine.abilities import resolve as kit
from engine.core import JSON, Action, PlayerId
from engine.games.ophelia import board as b
from engine.games.ophelia.cards import CARDS, name
from engine.games.ophelia.state import OpheliaState, Unit
from engine.table.decisions import PASS

STATS = ("power", "initiative", "life")


class UnitView(TypedDict):
    """A card in a slot (a character, or a relic attached to one)."""

    uid: int
    card: str
    name: str
    type: str
    owner: PlayerId
    damage: int
    played: bool
    moved: bool
    contested: bool
    power: NotRequired[int]  # each stat the card prints, now and as printed
    base_power: NotRequired[int]
    initiative: NotRequired[int]
    base_initiative: NotRequired[int]
    life: NotRequired[int]
    base_life: NotRequired[int]
    attached: list[UnitView]


class PlayerView(TypedDict):
    """One side: points, deck, hand (own only), forgotten zone and Power in play."""

    seat: PlayerId
    points: int
    deck_name: str
    deck_size: int
    hand: list[str] | None
    hand_size: int
    forgotten: list[str]
    power: int


class OpheliaView(TypedDict):
    """Everything a viewer (None = a spectator) may see of an Ophelia game."""

    game: str
    viewer: PlayerId | None
    num_players: int
    round: int
    track: list[int]
    turn: int
    active: PlayerId
    first: PlayerId
    phase: str
    quiet: int
    played: bool
    to_act: list[PlayerId]
    decision: kit.DecisionView | None
    slots: list[list[UnitView | None]]
    players: list[PlayerView]
    last_round: JSON | None
    log: list[str]
    result: JSON | None


def _unit(s: OpheliaState, u: Unit, row: int, col: int) -> UnitView:
    spec = CARDS[u.card]
    out: JSON = {
        "uid": u.uid,
        "card": u.card,
        "name": spec.name,
        "type": spec.type,
        "owner": u.owner,
        "damage": u.damage,
        "played": u.played,
        "moved": u.moved,
        "contested": b.contested(s, row, col),
    }
    for stat in dict(spec.stats):
        out[stat] = b.stat(s, u, stat, (row, col))
        out[f"base_{stat}"] = spec.stat(stat)
    out["attached"] = [_unit(s, r, row, col) for r in u.attached]
    return cast(UnitView, out)  # the stats' keys are the card's own


def _decision(s: OpheliaState, viewer: int | None) -> kit.DecisionView | None:
    if not s.decisions:
        return None
    return kit.decision_view(s.decisions[-1], viewer, CARDS)


def _view(game: Any, s: OpheliaState, viewer: int | None) -> OpheliaView:
    slots: list[list[UnitView | None]] = [
        [None if u is None else _unit(s, u, row, col) for col, u in enumerate(s.slots[row])] for row in (0, 1)
    ]
    players: list[PlayerView] = [
        {
            "seat": i,
            "points": side.points,
            "deck_name": side.deck_name,
            "deck_size": len(side.deck),
            "hand": list(side.hand) if viewer == i else None,
            "hand_size": len(side.hand),
            "forgotten": list(side.forgotten),
            "power": sum(b.stat(s, u, "power") for u in b.characters(s, i)),
        }
        for i, side in enumerate(s.sides)
    ]
    return {
        "game": game.id,
        "viewer": viewer,
        "num_players": s.num_players,
        "round": s.round,
        "track": list(b.TRACK),
        "turn": s.turn,
        "active": s.active,
        "first": s.first,
        "phase": s.phase,
        "quiet": s.quiet,
        "played": s.played,
        "to_act": list(game.to_act(s)),
        "decision": _decision(s, viewer),
        "slots": slots,
        "players": players,
        "last_round": None if s.last_round is None else dict(s.last_round),
        "log": eventlog.visible(s.log, viewer),
        "result": None if s.result is None else dict(s.result),
    }


def _card_at(s: OpheliaState, uid: int) -> str:
    got = b.find(s, uid)
    if got is None:
        return "a card"
    row, col, u, bearer = got
    where = f"on {CARDS[bearer.card].name}" if bearer else b.slot_name(col)
    return f"{CARDS[u.card].name} (P{row + 1}, {where})"


def _describe(s: OpheliaState, a: Action) -> tuple[str, ...]:
    k = a.kind
    if k == "end":
        return ("End the Action Phase",)
    if k == PASS:
        return ("Pass",)
    if k == "discard":
        return ("Discard", name(str(a.arg("c"))))
    if k == "play":
        cid = str(a.arg("c"))
        spec = CARDS[cid]
        if spec.type == "turning_point":
            return ("Play a Turning Point", spec.name)
        head = "Play a relic" if spec.type == "relic" else "Play a character"
        if spec.flag("attach"):
            return (head, spec.name, f"attach to {_card_at(s, int(a.arg('t')))}")
        return (head, spec.name, f"into {b.slot_name(int(a.arg('s')) - 1)}")
    if k == "move":
        return ("Move", _card_at(s, int(a.arg("u"))), f"to {b.slot_name(int(a.arg('s')) - 1)}")
    if k in ("act", "claim"):
        u = b.unit(s, int(a.arg("u")))
        label = "Action" if k == "act" else "Claim"
        return (label, f"{name(u.card) if u else 'a card'}: {_ability_text(u, int(a.arg('a')), label)}")
    if k == "retire":
        return ("Retire", _card_at(s, int(a.arg("u"))))
    if k == "first":
        return ("Who goes first", f"P{int(a.arg('p')) + 1} goes first")
    if k == "use":
        return ("Use the ability",)
    if k == "order":
        ctx = next((c for c in s.pending if c["id"] == int(a.arg("p"))), None)
        return ("Resolve first", name(ctx["card"]) if ctx else "a trigger")
    if k == "pick":
        arg, value = a.args[0]
        if arg == "t":
            return ("Choose", _card_at(s, int(value)))
        if arg == "s":
            return ("Choose a slot", b.slot_name(int(value) - 1))
        return ("Choose a card", name(str(value)))
    return (a.key,)


def _ability_text(u: Unit | None, index: int, label: str) -> str:
    if u is None:
        return label
    spec = CARDS[u.card]
    lines = [ln for ln in spec.text.splitlines() if ln.startswith(label)]
    of_type = [i for i, _ in spec.of_type(label.lower())]
    rank = of_type.index(index) if index in of_type else 0  # the card's n-th Action is its n-th Action line
    return lines[rank] if rank < len(lines) else label
