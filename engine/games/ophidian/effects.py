"""Ophidian 2350's own effects (RULINGS 64), registered in its own table beside the kit's shared `heal`,
`draw` and `discard`; each is a short function over the board operations of table.py (`OphidianHost`)."""

from __future__ import annotations

from typing import Any, Protocol

from engine.abilities import effects as shared
from engine.abilities.effects import Table
from engine.abilities.resolve import Ctx, Effects, pick, targets
from engine.abilities.spec import Step
from engine.core import Arg, Event
from engine.games.ophidian import board as b
from engine.games.ophidian.cards import CARDS
from engine.games.ophidian.state import Pump
from engine.table.decisions import Decision, push


class OphidianHost(Table, Protocol):
    """What Ophidian's own effects need of the game beyond the kit's `Table`: its board operations."""

    def say(self, events: list[Event], kind: str, text: str, **args: Any) -> None:
        """Record an event in the game's words."""
        ...

    def x_value(self, s: Any, ctx: Ctx) -> int:
        """The X paid for the card being played."""
        ...

    def turn(self, s: Any, uid: int, to_set: bool, events: list[Event]) -> None:
        """Set or Unset a character."""
        ...

    def shift(self, s: Any, uid: int, where: str, events: list[Event]) -> None:
        """Move a character to a field."""
        ...

    def attach(self, s: Any, player: int, cid: str, bearer: int, events: list[Event]) -> Pump:
        """A Pump enters play attached to its bearer."""
        ...

    def scrap_pump(self, s: Any, uid: int, events: list[Event]) -> None:
        """A Pump goes to the Scrap pile."""
        ...

    def deployable(self, s: Any, player: int, max_cp: int) -> list[str]:
        """The cards of the hand a Deploy may bring in."""
        ...

    def start_play(
        self, s: Any, player: int, cid: str, x: int, events: list[Event], free: bool = False
    ) -> None:
        """A card is played: the opponent's window queued, then it resolves."""
        ...

    def declare(
        self, s: Any, attacker: int, target: int, events: list[Event], bonus: int = 0, direct: bool = False
    ) -> None:
        """Step 1 of an attack."""
        ...


effect: Effects[OphidianHost] = Effects(shared.KIT)  # the kit's shared effects and Ophidian's own

UNTIL = {"attack": ("attack", "for this attack"), "wave": ("wave", "until the end of the Wave")}
DEFEND = "defend"  # the defender's choice to Intercept, Protect or receive (RULINGS 25-27)

effect("admg")(shared.stat_effect("admg", UNTIL, "ADMG"))
effect("ddmg")(shared.stat_effect("ddmg", UNTIL, "DDMG"))


def _amount(host: OphidianHost, s: Any, ctx: Ctx, step: Step) -> int:
    x = step.get("x", False)
    return int(step.get("amount", 0 if x else 1)) + (host.x_value(s, ctx) if x else 0)


def covers(s: Any, uid: int) -> dict[str, list[int]]:
    """Who may Intercept (an Unset Gladiator in the target's field) or Protect (an Unset Gladiator in the
    Action Field, for a target in the Support Field) for a character (RULINGS 25, 26)."""
    target = b.find(s, uid)
    if target is None:
        return {"intercept": [], "protect": []}
    mine = [c for c in s.sides[target.owner].chars if c.uid != uid and b.gladiator(c) and not c.set]
    intercept = [c.uid for c in mine if c.field == target.field]
    protect = [c.uid for c in mine if target.field == "support" and c.field == "action"]
    return {"intercept": intercept, "protect": protect}


def ask_defence(s: Any, uid: int, about: str) -> bool:
    """Ask the target's controller to Intercept, Protect or receive; False when nobody can."""
    options = covers(s, uid)
    if not options["intercept"] and not options["protect"]:
        return False
    owner = b.find(s, uid).owner  # type: ignore[union-attr]
    push(s.decisions, Decision(DEFEND, [owner], optional=True, source=about, data={"uid": uid, **options}))
    return True


@effect("wound")
def wound(host: OphidianHost, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """Deal damage; a chosen enemy may be Intercepted or Protected unless it is XDMG (RULINGS 27)."""
    got = targets(host, s, ctx, step)
    if got is None:
        return False
    if step.get("to") == "enemy" and got and not step.get("direct", False):
        if len(ctx["picks"]) < 2:
            if ask_defence(s, got[0], ctx["card"]):
                return False
            ctx["picks"].append(0)
        cover = int(ctx["picks"][1])
        got = [cover] if cover else got
    amount = _amount(host, s, ctx, step)
    for uid in got:
        host.damage(s, uid, amount, events)
    return True


@effect("shield")
def shield(host: OphidianHost, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """Prevent the next `amount` damage to it, for this attack or this Wave (RULINGS 31)."""

    def guard(uid: int) -> None:
        c = b.find(s, uid)
        if c is not None:
            c.shield += step.get("amount", 1)
            c.shield_until = "wave" if step.get("until") == "wave" or c.shield_until == "wave" else "attack"
            host.say(events, "shielded", f"{host.name(s, uid)} is shielded from {c.shield} damage")

    return shared.each(host, s, ctx, step, guard)


@effect("set")
def set_(host: OphidianHost, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """Set the characters `to` selects (RULINGS 21)."""
    return shared.each(host, s, ctx, step, lambda u: host.turn(s, u, True, events))


@effect("unset")
def unset(host: OphidianHost, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """Unset the characters `to` selects."""
    return shared.each(host, s, ctx, step, lambda u: host.turn(s, u, False, events))


@effect("shift")
def shift(host: OphidianHost, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """Move to `to_field`, neither advancing nor retreating (RULINGS 22)."""
    return shared.each(host, s, ctx, step, lambda u: host.shift(s, u, step.get("to_field"), events))


@effect("scrap")
def scrap(host: OphidianHost, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """Scrap the Pump `to` selects."""
    return shared.each(host, s, ctx, step, lambda u: host.scrap_pump(s, u, events))


def _gain(host: OphidianHost, s: Any, ctx: Ctx, step: Step, events: list[Event], what: str) -> bool:
    seat = ctx["owner"] if step.get("player") == "you" else 1 - ctx["owner"]
    side = s.sides[seat]
    amount = _amount(host, s, ctx, step)
    before = getattr(side, what)
    setattr(side, what, max(0, before + amount))
    word = "Cheer" if what == "cheer" else "CP"
    change = getattr(side, what) - before
    verb = "gains" if change >= 0 else "loses"
    host.say(events, what, f"P{seat + 1} {verb} {abs(change)} {word} ({getattr(side, what)})")
    return True


@effect("cheer")
def cheer(host: OphidianHost, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """You or your opponent gain (or lose) Cheer, never below 0 (RULINGS 34)."""
    return _gain(host, s, ctx, step, events, "cheer")


@effect("cp")
def cp(host: OphidianHost, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """You or your opponent gain (or lose) CP, never below 0 (RULINGS 12)."""
    return _gain(host, s, ctx, step, events, "cp")


@effect("recover")
def recover(host: OphidianHost, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """Take a card of a kind from your Scrap pile into your hand, seen by both (RULINGS 64)."""
    side = s.sides[ctx["owner"]]
    kind = step.get("kind", "any")
    options = sorted({c for c in side.scrap if kind == "any" or CARDS[c].type == kind})
    if not options:
        return True
    got = pick(s, ctx, 0, "c", list(options), what="recover")
    if got is None:
        return False
    side.scrap.remove(str(got))
    side.hand = sorted([*side.hand, str(got)])
    side.shown.append(str(got))  # RULINGS 67
    host.say(events, "recovered", f"P{ctx['owner'] + 1} takes {CARDS[str(got)].name} from the Scrap pile")
    return True


@effect("deploy")
def deploy(host: OphidianHost, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """Put a Minion costing at most `max_cp` from your hand into play without paying for it; it counts as
    played (RULINGS 64)."""
    options: list[Arg] = [*host.deployable(s, ctx["owner"], step.get("max_cp", 0))]
    if not options:
        return True
    got = pick(s, ctx, 0, "c", options, what="deploy")
    if got is None:
        return False
    host.start_play(s, ctx["owner"], str(got), 0, events, free=True)
    return True


@effect("assault")
def assault(host: OphidianHost, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """A character attacks now with +bonus ADMG, as XDMG if `direct` (RULINGS 23, 64)."""
    by = step.get("by", "self")
    if by == "ally":
        options = [c.uid for c in s.sides[ctx["owner"]].chars if c.field == "action" and not c.set]
        if not options:
            return True
        got = pick(s, ctx, 0, "t", options, what="attacker")
        if got is None:
            return False
        attacker = int(got)
    else:
        found = b.fixed(s, ctx, by, None)
        if not found:
            return True
        attacker = found[0]
    c = b.find(s, attacker)
    enemies = [e.uid for e in s.sides[1 - ctx["owner"]].chars]
    if c is None or c.field != "action" or not enemies:
        return True
    if c.set and by != "self":  # a Set card cannot Set again; `self` was Set by its own ↷ (RULINGS 21, 64)
        return True
    target = pick(s, ctx, 1 if by == "ally" else 0, "t", enemies, what="attack")
    if target is None:
        return False
    host.declare(
        s, attacker, int(target), events, bonus=step.get("bonus", 0), direct=step.get("direct", False)
    )
    return True


@effect("attach")
def attach(host: OphidianHost, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """A Pump's first step: the character it goes on (RULINGS 38)."""
    got = targets(host, s, ctx, step)
    if got is None:
        return False
    if got:
        p = host.attach(s, ctx["owner"], ctx["card"], got[0], events)
        ctx["uid"] = p.uid
        if s.playing:
            s.playing[-1]["attached"] = p.uid
    return True


@effect("flow")
def flow(host: OphidianHost, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """A ? action is + if the condition holds now, otherwise − (RULINGS 15)."""
    if s.action is None:
        return True
    cond = step.get("plus_if")
    if cond == "defeated":
        plus = s.action["defeats"] > 0
    elif cond == "crowd_favorite":
        plus = b.crowd_favorite(s, ctx["owner"])
    else:
        holder = b.find(s, ctx["uid"])
        plus = holder is not None and b.raging(s, holder)
    s.action["plus"] = plus
    host.say(events, "flow", f"It is {'+' if plus else '−'}: The Flow {'stays' if plus else 'passes'}")
    return True


@effect("cancel")
def cancel(host: OphidianHost, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """Cancel the attack or the card the response's window answers (RULINGS 43)."""
    if ctx.get("on") == "enemy_plays" and s.playing:
        s.playing[-1]["cancelled"] = True
        host.say(events, "cancelled", f"{CARDS[s.playing[-1]['card']].name} is cancelled")
    elif s.attack is not None:
        s.attack["cancelled"] = True
        host.say(events, "cancelled", "The attack is cancelled")
    return True
