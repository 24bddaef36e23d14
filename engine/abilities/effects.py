"""The effects most card games share, written once against a small `Table` protocol: damage, heal, stat
changes with a duration, draw, a discard the opponent chooses, defeat, return to hand and detach.

A game implements `Table` (its own board does the work); its own effect table starts as a copy of `KIT`
(`effect = Effects(shared.KIT)`) and registers its further effects with `@KIT("name")` beside these
(Ophelia's `move` and `recall`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from engine.abilities.resolve import Ctx, Effect, Effects, Host, pick, targets
from engine.abilities.spec import Step
from engine.core import Event, PlayerId
from engine.table.modifiers import GAME, ROUND, TURN, Modifier


class Table(Host, Protocol):
    """The board operations the shared effects need."""

    def damage(self, s: Any, uid: int, amount: int, events: list[Event]) -> int | None:
        """Deal damage to a card in play (a game may answer how much it dealt)."""
        ...

    def heal(self, s: Any, uid: int, amount: int, events: list[Event]) -> None:
        """Remove damage from a card in play."""
        ...

    def draw(self, s: Any, player: PlayerId, amount: int, events: list[Event]) -> None:
        """A player draws."""
        ...

    def hand(self, s: Any, player: PlayerId) -> list[str]:
        """A player's hand (card ids)."""
        ...

    def discard(self, s: Any, player: PlayerId, card: str, events: list[Event]) -> None:
        """A player discards this card from hand."""
        ...

    def defeat(self, s: Any, uid: int, events: list[Event]) -> None:
        """Defeat a card in play."""
        ...

    def bounce(self, s: Any, uid: int, events: list[Event]) -> None:
        """Return a card in play to its owner's hand."""
        ...

    def detach(self, s: Any, uid: int, events: list[Event]) -> None:
        """Send an attached relic to its owner's forgotten zone."""
        ...

    def opponent(self, s: Any, player: PlayerId) -> PlayerId:
        """The other player."""
        ...


KIT: Effects[Table] = Effects()  # the shared effects, offered to every game's table


def each(host: Host, s: Any, ctx: Ctx, step: Step, do: Callable[[int], object]) -> bool:
    """Do something to each card the step's `to` selects (False while a pick is being asked)."""
    got = targets(host, s, ctx, step)
    if got is None:
        return False
    for uid in got:
        do(uid)
    return True


@KIT("damage")
def damage(host: Table, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """Deal `amount` damage to the cards `to` selects."""
    return each(host, s, ctx, step, lambda u: host.damage(s, u, step.get("amount", 1), events))


@KIT("heal")
def heal(host: Table, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """Remove `amount` damage from the cards `to` selects."""
    return each(host, s, ctx, step, lambda u: host.heal(s, u, step.get("amount", 1), events))


_UNTIL = {"turn": (TURN, "until the end of turn"), "round": (ROUND, "until the end of the round")}
_UNTIL["field"] = (GAME, "while it stays on the field")  # the game removes a card's modifiers as it leaves


def stat_effect(
    stat: str, untils: dict[str, tuple[str, str]] | None = None, label: str = ""
) -> Effect[Table]:
    """The effect "+amount `stat` (or less) for the cards `to` selects, `until` the end of the turn, of the
    round, or while they stay on the field"; a game registers it under its stats' names. `untils` gives a
    game's own durations (word -> (modifier duration, text)); with `x = true` the amount is the host's
    `x_value(s, ctx)` plus `amount` (0 unless given); `label` is how texts name the stat (its name
    capitalized unless given)."""
    durations = untils or _UNTIL

    def modify(host: Table, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
        until, word = durations[step.get("until", "turn")]
        x = step.get("x", False)
        amount = step.get("amount", 0 if x else 1) + (host.x_value(s, ctx) if x else 0)  # type: ignore[attr-defined]  # x only where the game counts it

        def add(uid: int) -> None:
            s.modifiers.append(Modifier(stat, amount, uid, until, ctx["card"]))
            sign = "+" if amount >= 0 else ""
            text = f"{host.name(s, uid)} gets {sign}{amount} {label or stat.capitalize()} {word}"
            events.append(
                Event("modified", text, None, False, (("uid", uid), ("stat", stat), ("amount", amount)))
            )

        return each(host, s, ctx, step, add)

    modify.__doc__ = f"+amount {stat} (or less) until the end of turn or round, or while on the field."
    return modify


for _stat in ("power", "initiative", "life"):
    KIT(_stat)(stat_effect(_stat))


@KIT("draw")
def draw(host: Table, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """The ability's controller draws `amount` cards."""
    host.draw(s, ctx["owner"], step.get("amount", 1), events)
    return True


@KIT("discard")
def discard(host: Table, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """The opponent discards `amount` cards of their choice (fewer if their hand is smaller)."""
    victim = host.opponent(s, ctx["owner"])
    while ctx["did"] < step.get("amount", 1):
        done = ctx["did"]
        if len(ctx["picks"]) <= done:
            hand = sorted(set(host.hand(s, victim)))
            if not hand:
                return True
            if pick(s, ctx, done, "c", list(hand), who=victim, what="discard") is None:
                return False
        host.discard(s, victim, str(ctx["picks"][done]), events)
        ctx["did"] = done + 1
    return True


@KIT("defeat")
def defeat(host: Table, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """Defeat the cards `to` selects."""
    return each(host, s, ctx, step, lambda u: host.defeat(s, u, events))


@KIT("bounce")
def bounce(host: Table, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """Return the cards `to` selects to their owners' hands."""
    return each(host, s, ctx, step, lambda u: host.bounce(s, u, events))


@KIT("detach")
def detach(host: Table, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """Send the attached relics `to` selects to their owners' forgotten zones."""
    return each(host, s, ctx, step, lambda u: host.detach(s, u, events))
