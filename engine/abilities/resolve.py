"""Resolving abilities: triggers queued on named events, costs paid, targets and other picks asked as
decisions, effects run step by step, and a Claim that waits for the triggers its entry caused.

An ability being resolved is a context (a plain dict in the state, so it survives JSON and replay):
    {"id", "uid" (the source card instance), "card", "ab" (its index on the card), "owner", "event" (the uid
     the triggering event is about, 0 if none), "step", "picks" (answers of the current step), "paid",
     "claim", "agreed"}
`s.pending` holds triggered contexts waiting their turn; `s.resolving` is a stack of contexts being resolved
(an Action ability or a Turning Point resolves at once, on top). A game implements `Host` and calls `fire`
when something happens, `activate` for an activated ability, and `run` until a decision is pending. Each
game holds its own `Effects` table (the kit's shared effects and the game's own, by the names its card data
uses) as `effects`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, NotRequired, Protocol, Self, TypedDict, TypeVar

from engine.abilities.spec import Ability, CardSpec, Step
from engine.core import Arg, Event, PlayerId
from engine.core import action as act
from engine.table.decisions import Decision, push
from engine.table.events import emit

Ctx = dict[str, Any]
PICK, ORDER, MAY = "pick", "order", "may"  # the kit's decisions


class Cards(Protocol):
    """What the kit needs to queue triggers: the game's cards."""

    def card(self, cid: str) -> CardSpec:
        """A card kind by id."""
        ...


class Host(Cards, Protocol):
    """What the kit needs from a game: its cards, its board's selectors, and its effects."""

    @property
    def effects(self) -> Mapping[str, Effect[Self]]:
        """The game's effect table, by the names its card data uses (each effect takes this game)."""
        ...

    def active(self, s: Any) -> PlayerId:
        """The turn player (whose triggers resolve first)."""
        ...

    def choices(self, s: Any, ctx: Ctx, step: Step) -> list[int]:
        """The cards a chosen selector (`step.get("to")`) may pick now."""
        ...

    def group(self, s: Any, ctx: Ctx, selector: str, step: Step | None = None) -> list[int]:
        """The cards a fixed selector stands for now (the step, when given, may filter them)."""
        ...

    def chosen(self, selector: str) -> bool:
        """Whether a selector is chosen by the controller (rather than fixed)."""
        ...

    def cost_options(self, s: Any, owner: PlayerId, uid: int, cost: str) -> list[Arg]:
        """The ways to pay a cost now ([] = cannot be paid; [""] = no choice needed)."""
        ...

    def pay(self, s: Any, ctx: Ctx, cost: str, choice: Arg, events: list[Event]) -> None:
        """Pay a cost with the chosen card."""
        ...

    def negated(self, s: Any, ctx: Ctx) -> bool:
        """Whether a Claim about to resolve has lost its ground."""
        ...

    def settle(self, s: Any, events: list[Event]) -> None:
        """The checks after every effect (defeats)."""
        ...

    def name(self, s: Any, uid: int) -> str:
        """How texts name a card instance."""
        ...


H = TypeVar("H", bound=Host)
Effect = Callable[[H, Any, Ctx, Step, list[Event]], bool]  # True when done, False when waiting


class Effects(dict[str, Effect[H]], Generic[H]):
    """One game's effects by the names its card data uses: `effect = Effects(shared.KIT)` where the game
    is defined (the kit's shared effects offered), then `@effect("name")` on each of the game's own."""

    def __call__(self, name: str) -> Callable[[Effect[H]], Effect[H]]:
        """Register an effect function under the name card data uses."""

        def register(fn: Effect[H]) -> Effect[H]:
            self[name] = fn
            return fn

        return register


def ability(host: Host, ctx: Ctx) -> Ability:
    """The ability a context resolves."""
    return host.card(ctx["card"]).abilities[ctx["ab"]]


def new_ctx(s: Any, uid: int, card: str, ab: int, owner: PlayerId, event: int = 0) -> Ctx:
    """A fresh context for one ability of one card instance."""
    s.ctx_seq += 1
    return {
        "id": s.ctx_seq,
        "uid": uid,
        "card": card,
        "ab": ab,
        "owner": owner,
        "event": event,
        "step": 0,
        "picks": [],
        "did": 0,
        "paid": False,
        "claim": False,
        "agreed": False,
    }


# -- asking -----------------------------------------------------------------------------------------


def ask(s: Any, ctx: Ctx, arg: str, options: list[Arg], who: PlayerId | None = None, what: str = "") -> None:
    """Ask for one pick of the current step: `arg` is the move's argument ("t" a card in play, "c" a card
    id, "s" a slot); the answer is appended to ctx["picks"] and the step runs again."""
    player = ctx["owner"] if who is None else who
    push(
        s.decisions,
        Decision(PICK, [player], source=ctx["card"], data={"arg": arg, "options": options, "what": what}),
    )


def pick(
    s: Any, ctx: Ctx, k: int, arg: str, options: list[Arg], who: PlayerId | None = None, what: str = ""
) -> Arg | None:
    """The k-th pick of this step: already answered, the only option, or None after asking (the caller
    returns False and runs again once it is answered). None with no options asks nothing: check first."""
    if len(ctx["picks"]) > k:
        return ctx["picks"][k]
    if len(options) == 1:
        ctx["picks"].append(options[0])
        return options[0]
    ask(s, ctx, arg, options, who, what)
    return None


def targets(host: Host, s: Any, ctx: Ctx, step: Step) -> list[int] | None:
    """The cards a step acts on: a fixed group, or one chosen (asked, or the only one); None while asking."""
    selector = step.get("to", "self")
    if not host.chosen(selector):
        return host.group(s, ctx, selector, step)
    options = host.choices(s, ctx, step)
    if not options:
        return []
    got = pick(s, ctx, 0, "t", list(options), what=selector)
    return None if got is None else [int(got)]


def redeal_discards(s: Any, hand: Callable[[PlayerId], list[Any]]) -> None:
    """After a determinize: each waiting "discard" pick offers the hand dealt to its player (`hand(seat)`),
    never the cards they really hold, which its options would otherwise still name."""
    for d in s.decisions:
        if d.kind == PICK and d.data.get("what") == "discard":
            d.data["options"] = sorted(set(hand(d.players[0])))


def pick_moves(d: Decision, player: PlayerId) -> list[Any]:
    """The moves answering a pick decision."""
    arg = d.data["arg"]
    return [act(player, PICK, ((arg, o),)) for o in d.data["options"]]


def order_moves(d: Decision, player: PlayerId) -> list[Any]:
    """The moves answering an order decision: which of your triggers resolves next."""
    return [act(player, ORDER, (("p", i),)) for i in d.data["options"]]


USE = "use"  # the move that accepts a "may"
KINDS = (PICK, ORDER, MAY)


def kit_moves(d: Decision, player: PlayerId) -> list[Any]:
    """The moves answering one of the kit's decisions (pick, order, may: its "use"; the base adds the
    pass); a game's `answers` returns these for `d.kind in KINDS`."""
    if d.kind == PICK:
        return pick_moves(d, player)
    if d.kind == ORDER:
        return order_moves(d, player)
    return [act(player, USE)]


class DecisionView(TypedDict):
    """A pending decision in a card game's view (`decision_view`); a game may add its own keys."""

    kind: str
    players: list[PlayerId]
    source: str
    what: NotRequired[str]  # a pick's: what it is for
    options: NotRequired[list[Arg]]  # a pick's, to the players who pick
    source_name: NotRequired[str]  # the source card's name


def decision_view(d: Decision, viewer: PlayerId | None, names: Any) -> DecisionView:
    """A pending decision as a view shows it: kind, players, source (and its card name from `names`, a
    card-id -> CardSpec mapping); a pick's options only to the players who pick."""
    out: DecisionView = {"kind": d.kind, "players": list(d.players), "source": d.source}
    if d.kind == PICK:
        out["what"] = d.data.get("what", "")
        if viewer in d.players:
            out["options"] = list(d.data["options"])
    if d.source in names:
        out["source_name"] = names[d.source].name
    return out


def prompt(d: Mapping[str, Any], who: str, words: dict[str, str]) -> str:
    """A kit decision from a view (`decision_view`) in words, after "who: " (without it when `who` is "");
    `words` says what a pick is for, by the pick's `what` ("discard": "a card to discard"), else "a target
    (…)"."""
    card = d.get("source_name") or ""
    if d.get("kind") == MAY:
        text = f"use {card}'s ability, or pass"
    elif d.get("kind") == ORDER:
        text = "choose which of your triggers resolves first"
    else:
        what = d.get("what") or ""
        word = words.get(what) or (f"a target ({what.replace('_', ' ')})" if what else "a target")
        text = f"choose {word}" + (f" for {card}" if card else "")
    return f"{who}: {text}" if who else text


def answer(s: Any, d: Decision | None, action: Any) -> None:
    """Record the answer to one of the kit's decisions (pick, order, may: use or pass)."""
    if d is None:
        return
    if d.kind == PICK:
        holder = s.resolving[-1]
        holder["picks"].append(action.args[0][1])
    elif d.kind == ORDER:
        chosen = int(action.arg("p"))
        i = next(j for j, c in enumerate(s.pending) if c["id"] == chosen)
        s.pending.insert(0, s.pending.pop(i))
        s.pending[0]["ordered"] = True
    elif d.kind == MAY:
        top = s.resolving[-1]
        if action.kind == "pass":
            s.resolving.pop()
        else:
            top["agreed"] = True


# -- events and activation --------------------------------------------------------------------------


def fire(host: Cards, s: Any, on: str, watchers: list[tuple[int, str, PlayerId]], event: int = 0) -> None:
    """Queue the triggers on event `on` of these watching cards (uid, card id, controller)."""
    for uid, cid, owner in watchers:
        for i, a in enumerate(host.card(cid).abilities):
            if a.type == "trigger" and a.on == on:
                s.pending.append(new_ctx(s, uid, cid, i, owner, event))


def payable(host: Host, s: Any, owner: PlayerId, uid: int, a: Ability) -> bool:
    """Whether an ability's cost can be paid now."""
    return not a.cost or bool(host.cost_options(s, owner, uid, a.cost))


def activate(s: Any, ctx: Ctx, *, claim: bool = False) -> None:
    """Start resolving an activated ability now (a Claim only pays now and resolves after the triggers)."""
    ctx["claim"] = claim
    ctx["agreed"] = True
    s.resolving.append(ctx)


def run(host: Host, s: Any, events: list[Event]) -> None:
    """Resolve until a decision is pending or nothing is left."""
    while not s.decisions:
        if s.resolving:
            _advance(host, s, s.resolving[-1], events)
        elif s.pending:
            _next_trigger(host, s, events)
        else:
            return


def _advance(host: Host, s: Any, ctx: Ctx, events: list[Event]) -> None:
    a = ability(host, ctx)
    if not ctx["agreed"]:  # a "may" trigger: its controller decides first
        if a.cost and not host.cost_options(s, ctx["owner"], ctx["uid"], a.cost):
            s.resolving.pop()  # a cost that cannot be paid now: nothing to ask
            return
        push(
            s.decisions,
            Decision(MAY, [ctx["owner"]], optional=True, source=ctx["card"], data={"uid": ctx["uid"]}),
        )
        return
    if not ctx["paid"]:
        if a.cost:
            options = host.cost_options(s, ctx["owner"], ctx["uid"], a.cost)
            if not options:  # the cost can no longer be paid: nothing happens
                s.resolving.pop()
                return
            arg = "t" if a.cost == "sacrifice" else "c"
            got = pick(s, ctx, 0, arg, options, what=a.cost)
            if got is None:
                return
            host.pay(s, ctx, a.cost, got, events)
        ctx["paid"], ctx["picks"] = True, []
        if ctx["claim"]:  # paid now; it resolves after every trigger the entry caused
            s.pending.append(s.resolving.pop())
            return
    if ctx["claim"] and ctx["step"] == 0 and host.negated(s, ctx):
        s.resolving.pop()
        emit(events, "negated", f"{host.name(s, ctx['uid'])}'s Claim is negated", card=ctx["card"])
        return
    if ctx["step"] >= len(a.effect):
        s.resolving.pop()
        return
    step = a.effect[ctx["step"]]
    if not host.effects[step.do](host, s, ctx, step, events):
        return
    ctx["step"] += 1
    if ctx["picks"] and isinstance(ctx["picks"][0], int):  # "it": the card this step chose
        ctx["it"] = ctx["picks"][0]
    ctx["picks"], ctx["did"] = [], 0
    host.settle(s, events)


def _next_trigger(host: Host, s: Any, events: list[Event]) -> None:
    triggers = [c for c in s.pending if not c["claim"]]
    if not triggers:  # Claims resolve once every trigger is done, in the order they were made
        ctx = s.pending.pop(0)
        ctx["step"] = 0
        s.resolving.append(ctx)
        return
    active = host.active(s)
    player = active if any(c["owner"] == active for c in triggers) else triggers[0]["owner"]
    mine = [c for c in triggers if c["owner"] == player]
    if not mine[0].get("ordered") and len({(c["uid"], c["ab"]) for c in mine}) > 1:
        push(
            s.decisions,
            Decision(ORDER, [player], source="triggers", data={"options": [c["id"] for c in mine]}),
        )
        return
    ctx = mine[0]
    s.pending.remove(ctx)
    ctx["agreed"] = not ability(host, ctx).may
    s.resolving.append(ctx)
