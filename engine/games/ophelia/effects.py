"""Ophelia's own effects, beside the kit's shared ones: move a card to an adjacent open slot, and recall a
card from the forgotten zone to the hand or into an open slot."""

from __future__ import annotations

from typing import Any, Protocol

from engine.abilities import effects as shared
from engine.abilities.effects import Table
from engine.abilities.resolve import Ctx, Effects, pick, targets
from engine.abilities.spec import Step
from engine.core import Event
from engine.games.ophelia import board as b
from engine.games.ophelia.cards import CARDS
from engine.games.ophelia.state import Unit
from engine.table.events import emit


class OpheliaHost(Table, Protocol):
    """What Ophelia's own effects need of the game beyond the kit's `Table`: a card entering a slot."""

    def enter(self, s: Any, u: Unit, row: int, col: int, how: str, events: list[Event]) -> None:
        """A card enters a slot (played, moved or recalled), with its triggers."""
        ...


effect: Effects[OpheliaHost] = Effects(shared.KIT)  # the kit's shared effects and Ophelia's own


@effect("move")
def move(host: OpheliaHost, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """Move the card `to` selects to an adjacent open slot of its controller's row (the ability's
    controller picks the slot)."""
    got = targets(host, s, ctx, step)
    if got is None:
        return False
    for uid in got:
        where = b.find(s, uid)
        if where is None or where[3] is not None:
            continue
        row, col, u, _ = where
        opens = [c for c in b.adjacent(col) if s.slots[row][c] is None]
        if not opens:
            continue
        k = 1 if host.chosen(step.get("to", "self")) else 0
        dest = pick(s, ctx, k, "s", [c + 1 for c in opens], what="slot")
        if dest is None:
            return False
        s.slots[row][col] = None
        emit(
            events,
            "moved",
            f"{CARDS[u.card].name} moves to {b.slot_name(int(dest) - 1)}",
            uid=uid,
            seat=u.owner,
        )
        host.enter(s, u, row, int(dest) - 1, "moved", events)
    return True


def recallable(cid: str, kind: str, dest: str) -> bool:
    """Whether a recall of `kind` to `dest` ("hand" or "slot") may take this card (only a card that stands
    in a slot goes into one)."""
    spec = CARDS[cid]
    return (kind == "any" or spec.type == kind) and (
        dest == "hand" or (spec.type != "turning_point" and not spec.flag("attach"))
    )


@effect("recall")
def recall(host: OpheliaHost, s: Any, ctx: Ctx, step: Step, events: list[Event]) -> bool:
    """Return a card of `kind` from your forgotten zone to your hand, or (`dest = "slot"`) into one of your
    open slots, where it enters without being played."""
    owner, kind, dest = ctx["owner"], step.get("kind", "any"), step.get("dest", "hand")
    side = s.sides[owner]
    fits = sorted({c for c in side.forgotten if recallable(c, kind, dest)})
    opens = b.open_slots(s, owner)
    if not fits or (dest == "slot" and not opens):
        return True
    card = pick(s, ctx, 0, "c", list(fits), what="recall")
    if card is None:
        return False
    if dest == "hand":
        side.forgotten.remove(card)
        side.hand = sorted([*side.hand, str(card)])
        emit(
            events, "recalled", f"{CARDS[str(card)].name} returns to hand from the forgotten zone", card=card
        )
        return True
    col = pick(s, ctx, 1, "s", [c + 1 for c in opens], what="slot")
    if col is None:
        return False
    side.forgotten.remove(card)
    u = s.mint(str(card))
    unit = Unit(u.uid, str(card), owner)
    emit(
        events,
        "recalled",
        f"{CARDS[str(card)].name} returns from the forgotten zone into {b.slot_name(int(col) - 1)}",
        card=card,
        uid=unit.uid,
    )
    host.enter(s, unit, owner, int(col) - 1, "recalled", events)
    return True
