"""Siege of Olympus's board: where each minion is, its stats now (printed or swapped values, passives of
its side's minions and artifacts, synergies and modifiers), its keywords, its artifact pieces, and what each
selector of the card data stands for (RULINGS 44)."""

from __future__ import annotations

from collections.abc import Iterator

from engine.abilities.spec import Ability, CardSpec
from engine.games.siege_of_olympus.cards import ARTIFACTS, CARDS, LEARNERS, MINIONS
from engine.games.siege_of_olympus.state import Minion, SiegeState
from engine.table.modifiers import total

SYNERGY = 3  # minions of one class or race that make a synergy (RULINGS 9)


def field(s: SiegeState) -> Iterator[Minion]:
    """Every minion on the board, the first player's side first."""
    for side in s.sides:
        yield from side.minions


def find(s: SiegeState, uid: int) -> Minion | None:
    """The minion with this uid on the board or in Tartarus, or None."""
    for m in field(s):
        if m.uid == uid:
            return m
    return next((m for m in s.tartarus if m.uid == uid), None)


def on_board(s: SiegeState, uid: int) -> Minion | None:
    """The minion with this uid on a side of the board (not a prisoner), or None."""
    return next((m for m in field(s) if m.uid == uid), None)


def commander_of(s: SiegeState, uid: int) -> int | None:
    """The seat whose Commander has this uid, or None."""
    return next((i for i, side in enumerate(s.sides) if side.commander_uid == uid and uid), None)


def cost(cid: str) -> int:
    """A card's printed cost (RULINGS 7)."""
    return CARDS[cid].stat("cost")


# Card tables built once: a minion's class and race, and every card's passives.
CLASS: dict[str, str] = {}
RACE: dict[str, str] = {}
PRINTED: dict[str, dict[str, int]] = {}
PASSIVES: dict[str, list[Ability]] = {}


def learn(cards: dict[str, CardSpec]) -> None:
    """Add cards to the tables (the game's own at import, a pack's when it is added: engine/packs.py)."""
    for c, spec in cards.items():
        PASSIVES[c] = [a for _, a in spec.of_type("passive")]
        if spec.type == "minion":
            CLASS[c], RACE[c] = str(spec.flag("class")), str(spec.flag("race"))
            PRINTED[c] = {"attack": spec.stat("attack"), "health": spec.stat("health")}


learn(CARDS)
LEARNERS.append(learn)
ARTIFACT_PASSIVES = {n: PASSIVES[spec.id] for n, spec in ARTIFACTS.items()}


def count(s: SiegeState, seat: int, key: str, value: str) -> int:
    """How many minions a seat controls of one class or race (crippled ones too: RULINGS 9)."""
    table = CLASS if key == "class" else RACE
    return sum(1 for m in s.sides[seat].minions if table[m.card] == value)


def races(s: SiegeState, seat: int) -> dict[str, int]:
    """How many minions of each race a seat controls."""
    out: dict[str, int] = {}
    for m in s.sides[seat].minions:
        r = RACE[m.card]
        out[r] = out.get(r, 0) + 1
    return out


def has(s: SiegeState, m: Minion, keyword: str) -> bool:
    """Whether a minion has a keyword now: printed or granted, and not crippled (RULINGS 35)."""
    if m.crippled:
        return False
    return keyword in CARDS[m.card].keywords or total(s.modifiers, keyword, m.uid) > 0


def ranged(m: Minion) -> bool:
    """A bow or spell icon (RULINGS 14)."""
    return bool(CARDS[m.card].flag("ranged"))


def holds(s: SiegeState, seat: int, condition: str) -> bool:
    """A passive's condition."""
    return condition == "holds_artifact" and bool(s.sides[seat].artifacts)


def stat(s: SiegeState, m: Minion, name: str) -> int:
    """Attack or Health now: base, modifiers, passives in force and synergies; never below 0."""
    base = m.attack_base if name == "attack" else m.health_base
    value = PRINTED[m.card][name] if base < 0 else base
    if s.modifiers:
        value += total(s.modifiers, name, m.uid)
    seat = m.owner
    if seat < 0:
        return max(0, value)
    side = s.sides[seat]
    klass = CLASS[m.card]
    if name == "health" and klass == "brawler" and count(s, seat, "class", "brawler") >= SYNERGY:
        value += 1  # RULINGS 10
    if name == "attack" and klass == "ranger" and count(s, seat, "class", "ranger") >= SYNERGY:
        value += 1
    sources = [(o.uid, PASSIVES[o.card]) for o in side.minions if PASSIVES[o.card] and not o.crippled]
    sources += [(h.uid, ARTIFACT_PASSIVES[h.number]) for h in side.artifacts if ARTIFACT_PASSIVES[h.number]]
    for uid, passives in sources:
        for a in passives:
            if a.stat != name or (a.condition and not holds(s, seat, a.condition)):
                continue
            mine = uid == m.uid
            if a.to == "all_allies" or (a.to == "self" and mine) or (a.to == "other_allies" and not mine):
                value += a.amount
    return max(0, value)


def health_left(s: SiegeState, m: Minion) -> int:
    """Health minus damage."""
    return stat(s, m, "health") - m.damage


def pieces(m: Minion) -> list[int]:
    """The artifact pieces a minion carries: its own and any stuck under it by Add (RULINGS 30)."""
    return [m.piece, *(MINIONS[c].stat("artifact") for c in m.under)]


def pieces_of(s: SiegeState, seat: int) -> dict[int, int]:
    """How many pieces of each number a seat controls on its side."""
    out: dict[int, int] = {}
    for m in s.sides[seat].minions:
        for p in pieces(m):
            out[p] = out.get(p, 0) + 1
    return out


def can_attack(s: SiegeState, m: Minion) -> bool:
    """Whether a minion may attack (recruit, attack or strike) now: not crippled, not paralyzed for this
    turn (RULINGS 35, 36)."""
    return not m.crippled and m.paralyzed != s.turn


def resistant_to(s: SiegeState, m: Minion, seat: int) -> bool:
    """Whether an effect of this seat's passes this minion by: an enemy Resistant minion (RULINGS 28)."""
    return m.owner != seat and has(s, m, "resistant")


def chosen(s: SiegeState, seat: int, source: int, selector: str, max_cost: int | None) -> list[Minion]:
    """The minions a chosen selector may pick for an ability of this seat's (RULINGS 44)."""
    if selector == "enemy":
        pool = list(s.sides[1 - seat].minions)
    elif selector == "ally":
        pool = list(s.sides[seat].minions)
    else:  # other_minion: either side
        pool = [m for m in field(s) if m.uid != source]
    if max_cost is not None:
        pool = [m for m in pool if cost(m.card) <= max_cost]
    return [m for m in pool if not resistant_to(s, m, seat)]
