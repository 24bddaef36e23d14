"""Ophidian 2350's board: finding characters and Pumps, stats computed from printed values and modifiers
(RULINGS 24, 28), Rage (29), the Crowd Favorite (33), the play requirement (6) and the selectors the cards
use (65)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.abilities.spec import CardSpec, Step
from engine.games.ophidian.cards import CARDS, GLADIATOR_TYPES, LEARNERS, REINFORCEMENT_TOP, TOP_LEVEL, meets
from engine.games.ophidian.state import ACTION, Char, OphidianState, Pump
from engine.table.modifiers import total

# card id -> its passives: (stat, amount, to, condition); and its printed numbers (the hot path reads these)
PASSIVES: dict[str, tuple[tuple[str, int, str, str], ...]] = {}
PRINTED: dict[str, dict[str, int]] = {}
BY_STAT: dict[str, dict[str, tuple[tuple[int, str, str], ...]]] = {}
GLADIATOR: dict[str, bool] = {}


def learn(cards: dict[str, CardSpec]) -> None:
    """Add cards to the tables (the game's own at import, a pack's when it is added: engine/packs.py)."""
    for cid, c in cards.items():
        ps = PASSIVES[cid] = tuple((a.stat, a.amount, a.to, a.condition) for _, a in c.of_type("passive"))
        PRINTED[cid] = dict(c.stats)
        BY_STAT[cid] = {
            st: tuple((a, to, cond) for s_, a, to, cond in ps if s_ == st) for st in {p[0] for p in ps}
        }
        GLADIATOR[cid] = c.type in GLADIATOR_TYPES


learn(CARDS)
LEARNERS.append(learn)
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
    return GLADIATOR[c.card]


def top_level(c: Char) -> int:
    """The highest level a character's cards reach: 4 for a Gladiator, 1 for a Reinforcement, 0 for a Minion
    (RULINGS 4, 48)."""
    kind = CARDS[c.card].type
    return TOP_LEVEL if kind == "gladiator" else REINFORCEMENT_TOP if kind == "reinforcement" else 0


def crowd_favorite(s: OphidianState, seat: int) -> bool:
    """Strictly more Cheer than the opponent (RULINGS 33)."""
    return s.sides[seat].cheer > s.sides[1 - seat].cheer


def raging_now(s: OphidianState, c: Char) -> bool:
    """Wounds at least its Rage (Gladiators only: RULINGS 29)."""
    return gladiator(c) and c.wounds >= stat(s, c, "rage")


def raging(s: OphidianState, c: Char) -> bool:
    """Raging for Rage effects: also Raging as the action began (RULINGS 29)."""
    return c.uid not in s.calm and raging_now(s, c)


def _adds(s: OphidianState, c: Char, amount: int, cond: str, seat: int, name: str) -> int:
    """A passive's amount if its condition holds (a Rage bonus never feeds Rage itself)."""
    if cond == "raging" and (name == "rage" or not raging(s, c)):
        return 0
    if cond == "crowd_favorite" and not crowd_favorite(s, seat):
        return 0
    return amount


def stat(s: OphidianState, c: Char, name: str) -> int:
    """A character's ADMG, DDMG, Life or Rage: printed, plus passives in force and modifiers (RULINGS 28):
    its own, its Pumps' ("it gets"), and its allies' ("Your Minions get")."""
    value = PRINTED[c.card].get(name, 0) if name != "ddmg" else 0
    group = "ally_gladiators" if GLADIATOR[c.card] else "ally_minions"
    for amount, to, cond in BY_STAT[c.card].get(name, ()):
        if to in ("self", "all_allies") or to == group:
            value += _adds(s, c, amount, cond, c.owner, name)
    for p in s.pumps:
        if p.bearer == c.uid:
            for amount, to, cond in BY_STAT[p.card].get(name, ()):
                if to == "bearer":
                    value += _adds(s, c, amount, cond, p.owner, name)
    for o in s.sides[c.owner].chars:
        if o.uid != c.uid:
            for amount, to, cond in BY_STAT[o.card].get(name, ()):
                if to == "all_allies" or to == group:
                    value += _adds(s, c, amount, cond, c.owner, name)
    if s.modifiers:
        value += total(s.modifiers, name, c.uid)
    return max(FLOORS[name], value)


def life_left(s: OphidianState, c: Char) -> int:
    """Life less wounds."""
    return stat(s, c, "life") - c.wounds


def vp(cid: str) -> int:
    """A Gladiator card's Victory Points (RULINGS 5)."""
    return PRINTED[cid].get("vp", 0)


def scored(s: OphidianState, seat: int) -> int:
    """The VP a player has: those of the Gladiators in the opponent's Funeral Pyre (RULINGS 54)."""
    return sum(vp(cid) for cid in s.sides[1 - seat].pyre)


def can_play(s: OphidianState, seat: int, cid: str) -> bool:
    """A Gladiator (a Reinforcement included) of the player's in play meets the card's discipline and level
    (RULINGS 6)."""
    return any(GLADIATOR[c.card] and meets(cid, c.card, c.level) for c in s.sides[seat].chars)


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
