"""Siege of Olympus's own effects, in its own table beside the kit's shared ones (engine/abilities/
effects.py): the keywords that act (Cripple, Paralyze, Free, Reborn, Search, Exchange, Explore, Joker, Copy
and Replace, Add, Disrupt's negation, Ambush's strike), a summon from a zone, and a keyword granted. Each
calls the board operations of the rules class (`SiegeHost`); RULINGS.md 21-38 say what each one means."""

from __future__ import annotations

from typing import Any, Protocol

from engine.abilities import effects as shared
from engine.abilities.effects import Table
from engine.abilities.resolve import PICK, Ctx, Effects, pick, targets
from engine.abilities.spec import Step
from engine.core import Arg, Event
from engine.games.siege_of_olympus import board as b
from engine.games.siege_of_olympus.cards import CARDS
from engine.games.siege_of_olympus.state import Minion
from engine.table.decisions import Decision, push
from engine.table.modifiers import GAME, TURN, Modifier


class SiegeHost(Table, Protocol):
    """What Siege's own effects need of the game beyond the kit's `Table`: its board operations."""

    def emit(self, events: list[Event], kind: str, text: str, **args: Any) -> None:
        """Record an event in the game's words."""
        ...

    def carry_out(self, s: Any) -> bool:
        """The effect waiting on the window starts resolving; False while its options are asked."""
        ...

    def window_words(self, s: Any) -> str:
        """What the open window is about, in words."""
        ...

    def takeable(self, s: Any, zone: str, kind: str) -> list[Arg]:
        """What Free, Reborn or Search may take: prisoners by uid, cards by id."""
        ...

    def take(self, s: Any, player: int, zone: str, got: Arg, events: list[Event]) -> None:
        """Take a prisoner or a card to the Hand."""
        ...

    def summonable(self, s: Any, player: int, zone: str, max_cost: int | None) -> list[Arg]:
        """The minions of a zone a summon may bring in."""
        ...

    def summon_from(self, s: Any, player: int, zone: str, got: Arg, events: list[Event]) -> None:
        """Summon a minion from a zone."""
        ...

    def exchange(self, s: Any, player: int, left: str, took: str, events: list[Event]) -> None:
        """Leave a card in the Agora and take another."""
        ...

    def take_artifact(self, s: Any, seat: int, number: int, events: list[Event], draw: bool) -> None:
        """A player takes an artifact from Olympus."""
        ...

    def stick(self, s: Any, player: int, m: Minion, cid: str, events: list[Event]) -> None:
        """Add: a minion card from the Hand goes under this minion."""
        ...


effect: Effects[SiegeHost] = Effects(shared.KIT)  # the kit's shared effects and Siege's own

# The shared effects under the rulebook's words.
effect("destroy")(shared.defeat)
effect("return_to_hand")(shared.bounce)
effect("attack")(shared.stat_effect("attack"))
effect("health")(shared.stat_effect("health"))


def _each(host: SiegeHost, s: Any, ctx: Ctx, step: Step, do: Any) -> bool:
    """Targets as the kit selects them; a fixed group also keeps only those within `max_cost`."""
    got = targets(host, s, ctx, step)
    if got is None:
        return False
    limit = step.get("max_cost")
    for uid in got:
        m = b.find(s, uid)
        if m is not None and (limit is None or b.cost(m.card) <= limit):
            do(m)
    return True


@effect("cripple")
def cripple(host: SiegeHost, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """The minion cannot attack and loses its abilities while it stays on the field (RULINGS 35)."""

    def do(m: Any) -> None:
        m.crippled = True
        host.emit(events, "crippled", f"{CARDS[m.card].name} is crippled", uid=m.uid)

    return _each(host, s, ctx, step, do)


@effect("paralyze")
def paralyze(host: SiegeHost, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """The minion cannot attack in its controller's next turn (RULINGS 36)."""

    def do(m: Any) -> None:
        m.paralyzed = s.turn + (2 if m.owner == s.active else 1)
        host.emit(events, "paralyzed", f"{CARDS[m.card].name} is paralyzed", uid=m.uid)

    return _each(host, s, ctx, step, do)


@effect("grant")
def grant(host: SiegeHost, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """The minion gains a static keyword until the end of turn or while it stays on the field."""
    keyword = step.get("keyword")
    until = GAME if step.get("until") == "field" else TURN

    def do(m: Any) -> None:
        s.modifiers.append(Modifier(keyword, 1, m.uid, until, ctx["card"]))
        word = CARDS[ctx["card"]].name
        host.emit(events, "granted", f"{CARDS[m.card].name} gains {keyword.replace('_', ' ')} ({word})")

    return _each(host, s, ctx, step, do)


STOP = ""  # the pick recorded when a player stops taking ("up to N": RULINGS 51)


@effect("take")
def take(host: SiegeHost, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """Free (from Tartarus), Reborn (from the Underworld) or Search (from the Deck, then shuffled): `amount`
    cards of `kind`, one at a time, to the Hand, or fewer when fewer are there; with `up_to` its player may
    stop before any of them (RULINGS 23-25, 51)."""
    zone, kind = step.get("zone"), step.get("kind", "any")
    arg = "t" if zone == "tartarus" else "c"
    while ctx["did"] < step.get("amount", 1):
        k = ctx["did"]
        options = host.takeable(s, zone, kind)
        if not options:
            break
        if step.get("up_to", False) and len(ctx["picks"]) <= k:
            data = {"arg": arg, "options": options, "what": zone}
            push(s.decisions, Decision(PICK, [ctx["owner"]], optional=True, source=ctx["card"], data=data))
            return False
        got = pick(s, ctx, k, arg, options, what=zone)
        if got is None:
            return False
        if got == STOP:
            break
        host.take(s, ctx["owner"], zone, got, events)
        ctx["did"] = k + 1
    if zone == "deck":
        s.rng.shuffle(s.deck)
    return True


@effect("summon")
def summon(host: SiegeHost, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """Summon a minion from a zone, ignoring its cost, never past 8 minions (RULINGS 7, 39); its Summon
    effect resolves at once, before this ability goes on (RULINGS 48)."""
    if not ctx["did"]:
        zone, limit = step.get("zone"), step.get("max_cost")
        options = host.summonable(s, ctx["owner"], zone, limit)
        if not options:
            return True
        got = pick(s, ctx, 0, "t" if zone == "tartarus" else "c", options, what="summon")
        if got is None:
            return False
        host.summon_from(s, ctx["owner"], zone, got, events)
        ctx["did"] = 1
    return s.window is None or host.carry_out(s)


@effect("exchange")
def exchange(host: SiegeHost, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """Leave a card of your Hand in the Agora and take one from there (RULINGS 37); not the turn's own
    exchange. The Agora card is chosen first, so no pick naming a card of the hidden Hand ever waits."""
    owner = ctx["owner"]
    hand = sorted(set(s.sides[owner].hand))
    options = sorted({c for c in s.agora if c not in s.left})
    if not hand or not options:
        return True
    took = pick(s, ctx, 0, "g", options, what="agora")
    if took is None:
        return False
    left = pick(s, ctx, 1, "c", hand, what="leave")
    if left is None:
        return False
    host.exchange(s, owner, str(left), str(took), events)
    return True


@effect("explore")
def explore(host: SiegeHost, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """Take an artifact whose 3 pieces are on the field, both sides together; no card drawn (RULINGS 32)."""
    counts: dict[int, int] = {}
    for m in b.field(s):
        for p in b.pieces(m):
            counts[p] = counts.get(p, 0) + 1
    options = sorted(n for n in s.pile if counts.get(n, 0) >= 3)
    if not options:
        return True
    got = pick(s, ctx, 0, "n", options, what="artifact")
    if got is None:
        return False
    host.take_artifact(s, ctx["owner"], int(got), events, draw=False)
    return True


def _with_other(host: SiegeHost, s: Any, ctx: Ctx, step: Step, do: Any) -> bool:
    """Joker and Copy and Replace: `do(me, other)` with this minion and the one chosen, both on the board."""
    got = targets(host, s, ctx, step)
    if got is None:
        return False
    me, other = b.on_board(s, ctx["uid"]), b.on_board(s, got[0]) if got else None
    if me is not None and other is not None:
        do(me, other)
    return True


@effect("copy")
def copy(host: SiegeHost, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """Joker: this minion's artifact piece becomes the chosen minion's (RULINGS 31)."""

    def do(me: Any, other: Any) -> None:
        me.piece = other.piece
        host.emit(events, "copied", f"{CARDS[me.card].name} copies piece {other.piece}", uid=me.uid)

    return _with_other(host, s, ctx, step, do)


@effect("swap")
def swap(host: SiegeHost, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """Copy and Replace: this minion and the chosen one exchange a value (RULINGS 29)."""

    def do(me: Any, other: Any) -> None:
        what = step.get("stat", "artifact")
        if what == "artifact":
            me.piece, other.piece = other.piece, me.piece
        else:  # each takes the other's value now: its base moves by the difference
            mine, theirs = b.stat(s, me, what), b.stat(s, other, what)
            for m, delta in ((me, theirs - mine), (other, mine - theirs)):
                base = getattr(m, f"{what}_base")
                printed = CARDS[m.card].stat(what) if base < 0 else base
                setattr(m, f"{what}_base", max(0, printed + delta))
        host.emit(
            events,
            "swapped",
            f"{CARDS[me.card].name} and {CARDS[other.card].name} swap {what}",
            uid=me.uid,
            other=other.uid,
        )

    return _with_other(host, s, ctx, step, do)


@effect("add")
def add(host: SiegeHost, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """Add: a minion card from your Hand goes under this one; it counts as both pieces (RULINGS 30)."""
    me = b.on_board(s, ctx["uid"])
    owner = ctx["owner"]
    options = sorted({c for c in s.sides[owner].hand if CARDS[c].type == "minion"})
    if me is None or not options:
        return True
    got = pick(s, ctx, 0, "c", options, what="add")
    if got is None:
        return False
    host.stick(s, owner, me, str(got), events)
    return True


@effect("negate")
def negate(host: SiegeHost, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """Disrupt: the attack or effect that opened the window is negated (RULINGS 22)."""
    if s.window is not None:
        s.window["negated"] = True
        host.emit(events, "negated", f"{host.window_words(s)} is negated")
    return True


@effect("strike")
def strike(host: SiegeHost, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """Ambush: this minion, or one you choose, attacks the attacking minion at once, before its own attack
    goes on; as an attack, it fires the attacking minion's "attacked" triggers first (RULINGS 21, 45)."""
    foe = b.on_board(s, ctx["event"])
    if foe is None:
        return True
    owner = ctx["owner"]
    by_self = step.get("by") == "self"
    options = [ctx["uid"]] if by_self else [m.uid for m in s.sides[owner].minions]
    options = [u for u in options if (m := b.on_board(s, u)) is not None and b.can_attack(s, m)]
    if not options:
        return True
    got = pick(s, ctx, 0, "t", options, what="striker")
    if got is None:
        return False
    if b.on_board(s, int(got)) is not None:
        s.combat = {"attacker": int(got), "target": foe.uid, "step": "attacked", "ambush": True}
    return True
