"""Ophelia's board: where each card is, who contests whom, computed stats (printed values, passives in
force and modifiers with a duration), and what each selector of the card data stands for."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeGuard

from engine.abilities.spec import Ability
from engine.games.ophelia.cards import CARDS
from engine.games.ophelia.state import COLUMNS, MIDDLE, OpheliaState, Unit
from engine.table.modifiers import Modifier

TRACK = (1, 2, 3, 2, 1)  # points for winning rounds 1 to 5
SLOT_WORDS = ("slot 1 (outer)", "slot 2", "slot 3 (middle)", "slot 4", "slot 5 (outer)")


def slot_name(col: int) -> str:
    """How texts name a column (0-based): "slot 3 (middle)", "slot 1 (outer)"."""
    return SLOT_WORDS[col]


def on_field(s: OpheliaState) -> Iterator[tuple[int, int, Unit]]:
    """Every card in a slot: (row, column, unit), row by row, left to right."""
    for row in (0, 1):
        for col, u in enumerate(s.slots[row]):
            if u is not None:
                yield row, col, u


def every(s: OpheliaState) -> Iterator[tuple[int, int, Unit]]:
    """Every card on the field, attached relics right after their bearer (with the bearer's place)."""
    for row, col, u in on_field(s):
        yield row, col, u
        for r in u.attached:
            yield row, col, r


def find(s: OpheliaState, uid: int) -> tuple[int, int, Unit, Unit | None] | None:
    """Where a card is: (row, column, the unit, its bearer if attached), or None when it left the field."""
    for row, col, u in on_field(s):
        if u.uid == uid:
            return row, col, u, None
        for r in u.attached:
            if r.uid == uid:
                return row, col, r, u
    return None


def unit(s: OpheliaState, uid: int) -> Unit | None:
    """The card with this uid on the field, or None."""
    got = find(s, uid)
    return None if got is None else got[2]


def kind(u: Unit) -> str:
    """character, relic or turning_point."""
    return CARDS[u.card].type


def is_character(u: Unit | None) -> TypeGuard[Unit]:
    """Whether a unit is a character."""
    return u is not None and CARDS[u.card].type == "character"


def opposite(s: OpheliaState, row: int, col: int) -> Unit | None:
    """The card in the slot facing this one."""
    return s.slots[1 - row][col]


def contested(s: OpheliaState, row: int, col: int) -> bool:
    """Whether the card in this slot faces an enemy card (both slots of the column are filled)."""
    return s.slots[row][col] is not None and s.slots[1 - row][col] is not None


def open_slots(s: OpheliaState, seat: int) -> list[int]:
    """The columns of a player's row with no card."""
    return [c for c in range(COLUMNS) if s.slots[seat][c] is None]


def adjacent(col: int) -> list[int]:
    """The columns next to this one."""
    return [c for c in (col - 1, col + 1) if 0 <= c < COLUMNS]


def movable(s: OpheliaState, uid: int) -> bool:
    """Whether a card is in a slot with an open slot next to it in its row (somewhere to be moved to)."""
    got = find(s, uid)
    if got is None or got[3] is not None:
        return False
    row, col = got[0], got[1]
    return any(s.slots[row][c] is None for c in adjacent(col))


# -- stats -------------------------------------------------------------------------------------------


def _holds(s: OpheliaState, a: Ability, row: int, col: int, src: Unit) -> bool:
    c = a.condition
    if not c:
        return True
    if c == "in_middle":
        return col == MIDDLE
    if c == "in_outer":
        return col in (0, COLUMNS - 1)
    if c == "contested":
        return contested(s, row, col)
    if c == "uncontested":
        return not contested(s, row, col)
    return src.damage > 0  # damaged


def passive_on(s: OpheliaState, target: Unit, trow: int, tcol: int, stat: str) -> int:
    """The passives in force on one card's stat."""
    total = 0
    for row, col, src in every(s):
        for a in CARDS[src.card].abilities:
            if a.type != "passive" or a.stat != stat or not _holds(s, a, row, col, src):
                continue
            if target.uid in (x.uid for x in group(s, src, row, col, a.to)):
                total += a.amount
    return total


def stat(s: OpheliaState, u: Unit, name: str, where: tuple[int, int] | None = None) -> int:
    """A card's stat now: printed + passives in force + modifiers (never below 0)."""
    spec = CARDS[u.card]
    if name not in dict(spec.stats):
        return 0
    if where is None:
        got = find(s, u.uid)
        where = (got[0], got[1]) if got else None
    value = spec.stat(name) + _mods(s.modifiers, name, u.uid)
    if where is not None:
        value += passive_on(s, u, where[0], where[1], name)
    return max(value, 0)


def _mods(mods: list[Modifier], name: str, uid: int) -> int:
    return sum(m.amount for m in mods if m.owner == uid and m.stat == name)


# -- selectors -----------------------------------------------------------------------------------


def characters(s: OpheliaState, seat: int | None = None) -> list[Unit]:
    """The characters on the field (of one player if given), row by row."""
    return [u for row, _, u in on_field(s) if is_character(u) and (seat is None or row == seat)]


def relics(s: OpheliaState, seat: int | None = None) -> list[Unit]:
    """The relics on the field, in slots or attached (of one player if given)."""
    return [u for row, _, u in every(s) if kind(u) == "relic" and (seat is None or row == seat)]


def group(s: OpheliaState, src: Unit, row: int, col: int, selector: str) -> list[Unit]:
    """The cards a fixed selector stands for, seen from a source card at (row, col)."""
    if selector == "self":
        return [src]
    if selector == "bearer":
        holder = s.slots[row][col]
        return [holder] if holder is not None and holder is not src else []
    if selector == "opposing":
        o = opposite(s, row, col)
        return [o] if o is not None else []
    if selector == "adjacent_allies":
        return [u for c in adjacent(col) if is_character(u := s.slots[row][c])]
    if selector == "all_allies":
        return characters(s, row)
    if selector == "other_allies":
        return [u for u in characters(s, row) if u.uid != src.uid]
    if selector == "all_enemies":
        return characters(s, 1 - row)
    if selector == "middle_enemy":
        m = s.slots[1 - row][MIDDLE]
        return [m] if m is not None else []
    raise ValueError(f"unknown selector {selector!r}")


def chosen(s: OpheliaState, owner: int, source: int, selector: str, max_power: int | None) -> list[Unit]:
    """The cards a chosen selector may pick, for a player (source = the ability's card, 0 for none)."""
    if selector in ("relic", "enemy_relic"):
        pool = relics(s, 1 - owner) if selector == "enemy_relic" else relics(s)
    else:
        seat = {"enemy": 1 - owner, "ally": owner, "other_ally": owner}.get(selector)
        pool = characters(s, seat)
        if selector == "other_ally":
            pool = [u for u in pool if u.uid != source]
    if max_power is not None:
        pool = [u for u in pool if stat(s, u, "power") <= max_power]
    return pool
