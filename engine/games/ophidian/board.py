"""Ophidian 2350's board: finding characters and Pumps, stats computed from printed values and modifiers
(RULINGS 24, 28), Rage (29), the Crowd Favorite (33), the play requirement (6) and the selectors the cards
use (65)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.abilities.spec import Step
from engine.games.ophidian.cards import CARDS, GLADIATOR_TYPES, meets
from engine.games.ophidian.state import ACTION, Char, OphidianState, Pump
from engine.table.modifiers import total

# card id -> its passives: (stat, amount, to, condition)
PASSIVES: dict[str, tuple[tuple[str, int, str, str], ...]] = {
    cid: tuple((a.stat, a.amount, a.to, a.condition) for _, a in c.of_type("passive"))
    for cid, c in CARDS.items()
}
FLOORS = {"admg": 0, "ddmg": 0, "life": 0, "rage": 1}


def chars(s: OphidianState) -> Iterator[Char]:
    """Every character in play, P1's first."""
    for side in s.sides:
        yield from side.chars


def find(s: OphidianState, uid: int) -> Char | None:
    """The character in play with this uid, or None."""
    for side in s.sides:
        for c in side.chars:
            if c.uid == uid:
                return c
    return None


def pump(s: OphidianState, uid: int) -> Pump | None:
    """The Pump in play with this uid, or None."""
    return next((p for p in s.pumps if p.uid == uid), None)


def pumps_on(s: OphidianState, uid: int) -> list[Pump]:
    """The Pumps a character bears."""
    return [p for p in s.pumps if p.bearer == uid]


def gladiator(c: Char) -> bool:
    """A Gladiator or a Reinforcement (RULINGS 3)."""
    return CARDS[c.card].type in GLADIATOR_TYPES


def crowd_favorite(s: OphidianState, seat: int) -> bool:
    """Strictly more Cheer than the opponent (RULINGS 33)."""
    return s.sides[seat].cheer > s.sides[1 - seat].cheer


def _sources(s: OphidianState, c: Char) -> Iterator[tuple[str, int, str, int]]:
    """The passives that may apply to c: (stat, amount, condition, the controller whose condition it is)."""
    glad = gladiator(c)
    for st, amount, to, cond in PASSIVES[c.card]:
        if to in ("self", "all_allies") or to == ("ally_gladiators" if glad else "ally_minions"):
            yield st, amount, cond, c.owner
    for p in s.pumps:
        if p.bearer == c.uid:
            for st, amount, to, cond in PASSIVES[p.card]:
                if to == "bearer":
                    yield st, amount, cond, p.owner
    for other in s.sides[c.owner].chars:
        if other.uid == c.uid:
            continue
        for st, amount, to, cond in PASSIVES[other.card]:
            if to == "all_allies" or to == ("ally_gladiators" if glad else "ally_minions"):
                yield st, amount, cond, c.owner


def raging_now(s: OphidianState, c: Char) -> bool:
    """Wounds at least its Rage (Gladiators only: RULINGS 29)."""
    return gladiator(c) and c.wounds >= stat(s, c, "rage")


def raging(s: OphidianState, c: Char) -> bool:
    """Raging for Rage effects: also Raging as the action began (RULINGS 29)."""
    return c.uid not in s.calm and raging_now(s, c)


def stat(s: OphidianState, c: Char, name: str) -> int:
    """A character's ADMG, DDMG, Life or Rage: printed, plus passives in force and modifiers (RULINGS 28)."""
    spec = CARDS[c.card]
    value = spec.stat(name) if name != "ddmg" else 0
    for st, amount, cond, seat in _sources(s, c):
        if st != name:
            continue
        if cond == "raging" and (name == "rage" or not raging(s, c)):
            continue
        if cond == "crowd_favorite" and not crowd_favorite(s, seat):
            continue
        value += amount
    value += total(s.modifiers, name, c.uid)
    return max(FLOORS[name], value)


def life_left(s: OphidianState, c: Char) -> int:
    """Life less wounds."""
    return stat(s, c, "life") - c.wounds


def vp(cid: str) -> int:
    """A Gladiator card's Victory Points (RULINGS 5)."""
    return CARDS[cid].stat("vp")


def scored(s: OphidianState, seat: int) -> int:
    """The VP a player has: those of the Gladiators in the opponent's Funeral Pyre (RULINGS 54)."""
    return sum(vp(cid) for cid in s.sides[1 - seat].pyre)


def can_play(s: OphidianState, seat: int, cid: str) -> bool:
    """A Gladiator of the player's in play meets the card's discipline and level (RULINGS 6)."""
    return any(CARDS[c.card].type == "gladiator" and meets(cid, c.card, c.level) for c in s.sides[seat].chars)


def spent(s: OphidianState, seat: int, cid: str) -> bool:
    """A Unique card its player has played this Wave already (RULINGS 39)."""
    return "unique" in CARDS[cid].keywords and CARDS[cid].name in s.sides[seat].unique


def x_kind(cid: str) -> str:
    """What X is on a card ("" when it has none: RULINGS 41)."""
    return str(CARDS[cid].flag("x") or "") if cid in CARDS else ""


def keep(c: Char, step: Step | None) -> bool:
    """The filters `only` and `in_field` of a step (RULINGS 65)."""
    if step is None:
        return True
    only, where = step.get("only"), step.get("in_field")
    if only == "gladiator" and not gladiator(c):
        return False
    if only == "minion" and gladiator(c):
        return False
    return not where or c.field == where


def chosen(s: OphidianState, owner: int, uid: int, step: Step) -> list[int]:
    """The uids a chosen selector may pick (RULINGS 65)."""
    selector = step.get("to")
    if selector == "enemy_pump":
        return [p.uid for p in s.pumps if p.owner != owner]
    mine = s.sides[owner].chars
    if selector == "enemy":
        pool = s.sides[1 - owner].chars
    elif selector == "other_ally":
        holder = pump(s, uid)
        me = holder.bearer if holder else uid
        pool = [c for c in mine if c.uid != me]
    else:
        pool = mine
    return [c.uid for c in pool if keep(c, step)]


def fixed(s: OphidianState, ctx: dict[str, Any], selector: str, step: Step | None) -> list[int]:
    """The uids a fixed selector stands for now (RULINGS 65)."""
    owner, uid = ctx["owner"], ctx["uid"]
    attack = s.attack or {}
    if selector == "self":
        found = find(s, uid)
        return [uid] if found is not None and keep(found, step) else []
    if selector in ("bearer", "it", "attacker", "defender"):
        if selector == "bearer":
            holder = pump(s, uid)
            target = holder.bearer if holder else ctx.get("bearer", 0)
        elif selector == "it":
            target = ctx.get("it", 0)
        else:
            target = attack.get("attacker" if selector == "attacker" else "target", 0)
        found = find(s, target) if target else None
        return [target] if found is not None and keep(found, step) else []
    side = s.sides[1 - owner if selector == "all_enemies" else owner]
    pool = side.chars
    if selector == "ally_gladiators":
        pool = [c for c in pool if gladiator(c)]
    elif selector == "ally_minions":
        pool = [c for c in pool if not gladiator(c)]
    return [c.uid for c in pool if keep(c, step)]


def in_action(c: Char) -> bool:
    """In the Action Field (front row)."""
    return c.field == ACTION
