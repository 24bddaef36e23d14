"""Ophelia's evaluation for the AI: each seat's share of the win (see engine/ai/evaluation.py).

This round: the board is played forward through the Contest Phases still to come if nobody played another
card (Initiative steps on computed stats, deaths and their triggers), abilities waiting for a cost or a
target counted as resolved the way their controller likes best, and the round resolved as the rules do
(the middle slot, then combined Power, then who went second). The leader keeps the round unless the
trailer still gets an Action Phase before it ends: now, if one card from hand (a character into the
middle slot and the fight that follows, a Power boost, damage, a defeat), a move or an Action turns the
middle slot, else in its next turn. Then the round is a war of cards in which the trailer must spend
first: the leader's chance is a logistic of the difference in cards in hand plus that tempo, and of the
middle-slot Power the leader would keep after the trailer's best one-card answer. A position is judged as
if the turn player ended its Action Phase now, which is what a one-ply player weighs for each move.

Later rounds: board cards are lost at a round's end and hands refill only up to 3 (at most 7), so hands
carry the advantage over. A table gives the chance of reaching 5 points on the 1-2-3-2-1 track from the
points and the chance q of winning each later round, q a logistic of next round's hands.

Speed (ISMCTS calls this at every rollout's end): no state is copied; stats are computed for the whole
board in one pass (the sums of board.stat: printed + modifiers + passives in force, never below 0; the
tests check they agree), about 0.05 ms a position.
"""

from __future__ import annotations

import math
from typing import Any

from engine.abilities.spec import CardSpec
from engine.games.ophelia.board import TRACK
from engine.games.ophelia.cards import CARDS, LEARNERS
from engine.games.ophelia.rules import DRAW, MAX_HAND, MAX_TURNS, WIN
from engine.games.ophelia.state import COLUMNS, MIDDLE, OpheliaState, Unit

# -- weights -----------------------------------------------------------------------------------------
K_LEAD = 0.2  # logit per point of Power the leader keeps in the middle slot after the trailer's best answer
K_HAND = 0.45  # logit per card in hand more than the rival, while the round is still open
TEMPO = 0.6  # the leader's edge when the trailer can still answer, in cards: the trailer must spend first
SIDE = 0.15  # the combined-Power lead behind a middle-slot lead, in Power
SAFE = 0.96  # the leader's chance when the trailer has no Action Phase left before the round ends
TP_FLIP = 0.4  # ... when a Turning Point in the trailer's hand turns the middle slot in the window to come
K_FUTURE = 0.3  # logit per card of next round's hand more than the rival (each later round)
QUALITY = 0.2  # how much a card's own worth (stats) adds to its count in hand
MATERIAL = 0.01  # cards of next round's hand per point of Power more on the field (a tie-break)
STATS = ("power", "initiative", "life")

# The hard search (engine/ai/ismcts.py): this evaluation already plays the round forward, so no random
# rollout (random moves spend cards badly and taught the search to end turns early: 0 % against normal),
# and the small differences between moves want little exploration. Measured in bench/ai.py.
ROLLOUT_DEPTH = 0
EXPLORATION = 0.05


def _sig(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


# -- card tables (built once) ------------------------------------------------------------------------

Passive = tuple[int, int, str, str]  # stat index, amount, selector, condition

_BASE: dict[str, tuple[int, int, int]] = {}
_HAS: dict[str, tuple[bool, bool, bool]] = {}
_CHAR: dict[str, bool] = {}
_PASSIVES: dict[str, tuple[Passive, ...]] = {}
_CONTEST_POWER: dict[str, int] = {}  # "before damage in each Contest Phase; +N Power until end of turn"
_HURT_POWER: dict[str, int] = {}  # "when this takes damage and survives; +N Power until end of turn"
_ON_DEATH: dict[str, tuple[Any, ...]] = {}  # the effect steps of "when this is defeated / leaves"
_ALLY_DIED_POWER: dict[str, int] = {}  # "when another ally is defeated; +N Power until end of round"
_WORTH: dict[str, float] = {}  # a card's worth in hand, about 1
# What one card from hand can do to the middle slot, each way: ("char", power, initiative, life, +power
# contested, +power uncontested) played there; ("buff", power) to one's own card there; to the enemy
# card there, ("hit", damage, cost), ("weaken", Power, cost), ("kill", max Power, cost) or ("shift", ...).
_ANSWER: dict[str, tuple[tuple[Any, ...], ...]] = {}


def _build(cards: dict[str, CardSpec]) -> None:
    """The tables of these cards: the game's own at import, a card pack's when it is added."""
    for cid, spec in cards.items():
        _ACTIONS[cid] = tuple(
            (i, got)
            for i, a in enumerate(spec.abilities)
            if a.type == "action" and (got := _removal(a)) is not None
        )
        names = dict(spec.stats)
        _BASE[cid] = (spec.stat("power"), spec.stat("initiative"), spec.stat("life"))
        _HAS[cid] = (STATS[0] in names, STATS[1] in names, STATS[2] in names)
        _CHAR[cid] = spec.type == "character"
        _PASSIVES[cid] = tuple(
            (STATS.index(a.stat), a.amount, a.to, a.condition) for a in spec.abilities if a.type == "passive"
        )
        death: list[Any] = []
        for a in spec.abilities:
            if a.type != "trigger":
                continue
            for st in a.effect:
                self_power = st.do == "power" and st.get("to") == "self"
                if a.on == "contest" and self_power:
                    _CONTEST_POWER[cid] = _CONTEST_POWER.get(cid, 0) + st.get("amount", 1)
                elif a.on == "damaged" and self_power and st.get("until", "turn") == "turn":
                    _HURT_POWER[cid] = _HURT_POWER.get(cid, 0) + st.get("amount", 1)
                elif a.on == "ally_defeated" and self_power:
                    _ALLY_DIED_POWER[cid] = _ALLY_DIED_POWER.get(cid, 0) + st.get("amount", 1)
                elif a.on in ("defeated", "leaves"):
                    death.append(st)
        if death:
            _ON_DEATH[cid] = tuple(death)
        _ANSWER[cid] = _answer_profile(cid)
        if spec.type == "character":
            p, i, life = _BASE[cid]
            _WORTH[cid] = (p + 0.5 * life + 0.25 * i + 0.7 * len(spec.abilities)) / 6.0
        else:
            _WORTH[cid] = 0.9 if spec.type == "turning_point" else 0.8


def _removal(a: Any) -> tuple[Any, ...] | None:
    """What an activated ability does to the enemy card in the middle slot, with the ability's cost:
    ("hit", damage, cost), ("weaken", Power, cost), ("kill", max Power, cost), ("shift", 99, cost)."""
    for st in a.effect:
        to = st.get("to")
        if to not in ("enemy", "all_enemies", "middle_enemy", "any", "opposing"):
            continue
        amount = st.get("amount", 1)
        if st.do == "damage" and amount > 0:
            return ("hit", amount, a.cost)
        if st.do in ("defeat", "bounce"):
            return ("kill", st.get("max_power") or 99, a.cost)
        if st.do == "move":
            return ("shift", st.get("max_power") or 99, a.cost)
        if st.do == "power" and amount < 0 and st.get("until") == "round":
            return ("weaken", -amount, a.cost)
    return None


def _answer_profile(cid: str) -> tuple[tuple[Any, ...], ...]:
    """The ways one card from hand can turn the middle slot (see _ANSWER)."""
    spec = CARDS[cid]
    out: list[tuple[Any, ...]] = []
    if spec.type == "character":
        p, i, life = _BASE[cid]
        vs, free = 0, 0
        for k, amount, to, cond in _PASSIVES[cid]:
            if to != "self":
                continue
            if k == 0 and cond in ("", "in_middle"):
                p += amount
            elif k == 0 and cond == "contested":
                vs += amount
            elif k == 0 and cond == "uncontested":
                free += amount
            elif k == 1 and cond in ("", "in_middle"):
                i += amount
            elif k == 2 and cond in ("", "in_middle"):
                life += amount
        out.append(("char", p, i, life, vs, free))
        for a in spec.abilities:  # a Claim made in an open side slot, an Action used at once
            if a.type in ("claim", "action") and (got := _removal(a)) is not None:
                out.append(got)
    elif spec.type == "relic":
        if spec.flag("attach"):
            boost = sum(
                a.amount
                for a in spec.abilities
                if a.type == "passive" and a.stat == "power" and a.to == "bearer"
            )
            if boost > 0:
                out.append(("buff", boost))
    else:
        for a in spec.abilities:
            if a.type != "play":
                continue
            for st in a.effect:
                if (
                    st.do == "power"
                    and st.get("to") == "ally"
                    and st.get("until") == "round"
                    and st.get("amount", 1) > 0
                ):
                    out.append(("buff", st.get("amount", 1)))
            if (got := _removal(a)) is not None:
                out.append(got)
    return tuple(out)


_ACTIONS: dict[str, tuple[tuple[int, tuple[Any, ...]], ...]] = {}
_build(CARDS)
LEARNERS.append(_build)  # a card pack's cards (engine/packs.py)

# -- the later rounds: chance of reaching 5 points -----------------------------------------------------

_QN = 40  # q in steps of 1/40


def _win_table() -> list[list[list[list[float]]]]:
    """table[qi][r][a][b]: seat 0's chance of the game with a and b points before round r, each round won
    with chance qi/_QN."""
    rounds = len(TRACK)
    out = []
    for qi in range(_QN + 1):
        q = qi / _QN
        t = [[[0.0] * (WIN + 1) for _ in range(WIN + 1)] for _ in range(rounds + 2)]
        for r in range(rounds + 1, 0, -1):
            for a in range(WIN + 1):
                for b in range(WIN + 1):
                    if a >= WIN:
                        t[r][a][b] = 1.0
                    elif b >= WIN:
                        t[r][a][b] = 0.0
                    elif r > rounds:
                        t[r][a][b] = 0.5 if a == b else float(a > b)
                    else:
                        pts = TRACK[r - 1]
                        t[r][a][b] = (
                            q * t[r + 1][min(a + pts, WIN)][b] + (1 - q) * t[r + 1][a][min(b + pts, WIN)]
                        )
        out.append(t)
    return out


_TABLE = _win_table()


def _future(q: float, r: int, a: int, b: int) -> float:
    """Seat 0's chance of the game with a and b points before round r, each round won with chance q."""
    a, b = min(a, WIN), min(b, WIN)
    r = min(r, len(TRACK) + 1)
    x = max(0.0, min(1.0, q)) * _QN
    lo = min(int(x), _QN - 1)
    f = x - lo
    return (1 - f) * _TABLE[lo][r][a][b] + f * _TABLE[lo + 1][r][a][b]


# -- stats on a board (a copy of the slot rows, simulated damage) ---------------------------------------

Rows = list[list[Unit | None]]
Mod = tuple[int, int, int, bool]  # uid, stat index, amount, until the end of turn only


def _stats(rows: Rows, dmg: dict[int, int], mods: list[Mod], turn: bool) -> dict[int, list[int]]:
    """Power, Initiative and Life of every card in a slot: printed + modifiers (the turn's only if `turn`)
    + passives in force, never below 0; a stat the card does not carry is 0."""
    st: dict[int, list[int]] = {}
    for line in rows:
        for u in line:
            if u is not None:
                st[u.uid] = list(_BASE[u.card])
    for uid, k, amount, this_turn in mods:
        if this_turn and not turn:
            continue
        v = st.get(uid)
        if v is not None:
            v[k] += amount
    for row in (0, 1):
        line, other = rows[row], rows[1 - row]
        for col in range(COLUMNS):
            u = line[col]
            if u is None:
                continue
            for src in (u, *u.attached) if u.attached else (u,):
                for k, amount, to, cond in _PASSIVES[src.card]:
                    if cond:
                        if cond == "in_middle":
                            ok = col == MIDDLE
                        elif cond == "in_outer":
                            ok = col == 0 or col == COLUMNS - 1
                        elif cond == "contested":
                            ok = other[col] is not None
                        elif cond == "uncontested":
                            ok = other[col] is None
                        else:  # damaged
                            ok = dmg.get(src.uid, src.damage) > 0
                        if not ok:
                            continue
                    for t in _group(rows, row, col, u, src, to):
                        v = st.get(t.uid)
                        if v is not None:
                            v[k] += amount
    for line in rows:
        for u in line:
            if u is not None:
                v, has = st[u.uid], _HAS[u.card]
                for k in (0, 1, 2):
                    v[k] = max(v[k], 0) if has[k] else 0
    return st


def _group(rows: Rows, row: int, col: int, holder: Unit, src: Unit, to: str) -> list[Unit]:
    """The cards a fixed selector stands for, from a source at (row, col) (held by `holder` if attached)."""
    line, other = rows[row], rows[1 - row]
    if to == "self":
        return [src]
    if to == "bearer":
        return [holder] if holder is not src else []
    if to == "opposing":
        o = other[col]
        return [o] if o is not None else []
    if to == "adjacent_allies":
        return [
            u for c in (col - 1, col + 1) if 0 <= c < COLUMNS and (u := line[c]) is not None and _CHAR[u.card]
        ]
    if to == "all_allies":
        return [u for u in line if u is not None and _CHAR[u.card]]
    if to == "other_allies":
        return [u for u in line if u is not None and _CHAR[u.card] and u.uid != src.uid]
    if to == "all_enemies":
        return [u for u in other if u is not None and _CHAR[u.card]]
    if to == "middle_enemy":
        o = other[MIDDLE]
        return [o] if o is not None else []
    return []


def _where(rows: Rows, uid: int) -> tuple[int, int] | None:
    for row in (0, 1):
        for col, u in enumerate(rows[row]):
            if u is not None and u.uid == uid:
                return row, col
    return None


# -- what waits to resolve, counted as resolved -------------------------------------------------------


class _Board:
    """The projection's working copy: slot rows, damage, extra modifiers and hand-size changes."""

    __slots__ = ("dirty", "dmg", "hands", "mods", "rows", "sides")

    def __init__(self, s: OpheliaState) -> None:
        self.rows: Rows = [list(s.slots[0]), list(s.slots[1])]
        self.dmg: dict[int, int] = {}
        for line in self.rows:
            for u in line:
                if u is not None:
                    self.dmg[u.uid] = u.damage
        self.mods: list[Mod] = []
        for m in s.modifiers:
            if m.stat in STATS:
                self.mods.append((m.owner, STATS.index(m.stat), m.amount, m.until == "turn"))
        self.hands = [0.0, 0.0]
        self.dirty = False
        self.sides = s.sides

    def remove(self, uid: int) -> Unit | None:
        got = _where(self.rows, uid)
        if got is None:
            return None
        row, col = got
        u = self.rows[row][col]
        self.rows[row][col] = None
        self.dirty = True
        return u


def _pick_enemy(
    b: _Board, st: dict[int, list[int]], owner: int, amount: int, max_power: int | None
) -> Unit | None:
    """The enemy character the owner would most like to hit (kills first, the middle slot first)."""
    best, best_score = None, -1.0
    for col, u in enumerate(b.rows[1 - owner]):
        if u is None or not _CHAR[u.card]:
            continue
        p, _, life = st[u.uid]
        if max_power is not None and p > max_power:
            continue
        dies = amount < 0 or b.dmg[u.uid] + amount >= life
        score = p + (4.0 if dies else 0.0) + (3.0 if col == MIDDLE else 0.0)
        if score > best_score:
            best, best_score = u, score
    return best


def _pick_ally(b: _Board, st: dict[int, list[int]], owner: int, other_than: int = -1) -> Unit | None:
    """The ally a boon goes to (the middle slot first, then the strongest)."""
    best, best_score = None, -1.0
    for col, u in enumerate(b.rows[owner]):
        if u is None or not _CHAR[u.card] or u.uid == other_than:
            continue
        score = st[u.uid][0] + (10.0 if col == MIDDLE else 0.0)
        if score > best_score:
            best, best_score = u, score
    return best


def _targets(b: _Board, st: dict[int, list[int]], step: Any, owner: int, uid: int, event: int) -> list[Unit]:
    to = step.get("to", "self")
    harmful = step.do in ("damage", "defeat", "bounce") or step.get("amount", 1) < 0
    if to in ("enemy", "any") or (to == "ally" and harmful):
        if to == "ally":
            return []
        amount = step.get("amount", 1) if step.do == "damage" else -1
        u = _pick_enemy(b, st, owner, amount, step.get("max_power"))
        return [u] if u is not None else []
    if to in ("ally", "other_ally"):
        u = _pick_ally(b, st, owner, uid if to == "other_ally" else -1)
        return [u] if u is not None else []
    if to in ("relic", "enemy_relic"):
        return []
    if to == "event":
        got = _where(b.rows, event)
        return [b.rows[got[0]][got[1]]] if got is not None else []  # type: ignore[list-item]
    got = _where(b.rows, uid)
    if got is None:
        if to == "all_enemies":
            return [u for u in b.rows[1 - owner] if u is not None and _CHAR[u.card]]
        if to in ("all_allies", "other_allies"):
            return [u for u in b.rows[owner] if u is not None and _CHAR[u.card]]
        if to == "middle_enemy":
            m = b.rows[1 - owner][MIDDLE]
            return [m] if m is not None else []
        return []
    row, col = got
    holder = b.rows[row][col]
    assert holder is not None
    return _group(b.rows, row, col, holder, holder, to)


def _steps(
    b: _Board, st: dict[int, list[int]], steps: Any, owner: int, uid: int, event: int, turn: bool
) -> None:
    """Apply effect steps to the working board, as their controller would pick."""
    for step in steps:
        do = step.do
        if do == "draw":
            b.hands[owner] += step.get("amount", 1)
        elif do == "discard":
            b.hands[1 - owner] -= step.get("amount", 1)
        elif do == "recall":  # a card back from the forgotten zone, if one fits
            kind, dest = step.get("kind", "any"), step.get("dest", "hand")
            for c in b.sides[owner].forgotten:
                spec = CARDS[c]
                if (kind == "any" or spec.type == kind) and (
                    dest == "hand" or (spec.type != "turning_point" and not spec.flag("attach"))
                ):
                    b.hands[owner] += 1
                    break
        elif do in ("move", "detach"):
            continue
        else:
            for t in _targets(b, st, step, owner, uid, event):
                if do == "damage":
                    b.dmg[t.uid] = b.dmg.get(t.uid, 0) + step.get("amount", 1)
                    b.dirty = True
                elif do == "heal":
                    b.dmg[t.uid] = max(0, b.dmg.get(t.uid, 0) - step.get("amount", 1))
                elif do == "defeat":
                    b.remove(t.uid)
                elif do == "bounce":
                    if b.remove(t.uid) is not None:
                        b.hands[t.owner] += 1
                elif do in STATS:
                    this_turn = step.get("until", "turn") != "round"
                    b.mods.append((t.uid, STATS.index(do), step.get("amount", 1), this_turn and turn))


def _resolve_waiting(s: OpheliaState, b: _Board) -> None:
    """Count what is being resolved or waits to (costs still to pay, effects still to come) as done."""
    ctxs = list(s.resolving) + list(s.pending)
    if not ctxs:
        return
    st = _stats(b.rows, b.dmg, b.mods, True)
    for ctx in ctxs:
        a = CARDS[ctx["card"]].abilities[ctx["ab"]]
        owner, uid = ctx["owner"], ctx["uid"]
        if ctx["claim"] and ctx["paid"]:
            got = _where(b.rows, uid)
            if got is None or b.rows[1 - got[0]][got[1]] is not None:
                continue  # negated
        if not ctx["paid"] and a.cost:
            if a.cost == "discard":
                b.hands[owner] -= 1
            elif a.cost == "retire":
                b.remove(uid)
            else:  # sacrifice the weakest other ally
                weakest = min(
                    (u for u in b.rows[owner] if u is not None and _CHAR[u.card] and u.uid != uid),
                    key=lambda u: st[u.uid][0],
                    default=None,
                )
                if weakest is None:
                    continue
                b.remove(weakest.uid)
        _steps(b, st, a.effect[ctx["step"] :], owner, uid, ctx["event"], True)
        if b.dirty:
            st = _stats(b.rows, b.dmg, b.mods, True)
            b.dirty = False


# -- the contests to come --------------------------------------------------------------------------


def _deaths(b: _Board, st: dict[int, list[int]]) -> None:
    """Every card whose damage reaches its Life leaves, with its death triggers (Power, cards)."""
    dead = []
    for row in (0, 1):
        for col, u in enumerate(b.rows[row]):
            if u is not None and b.dmg[u.uid] >= st[u.uid][2]:
                dead.append((row, col, u))
    for row, col, _ in dead:
        b.rows[row][col] = None
    for row, _, u in dead:
        steps = _ON_DEATH.get(u.card)
        if steps:
            _steps(b, st, steps, row, u.uid, u.uid, False)
        if _CHAR[u.card]:
            for ally in b.rows[row]:
                if ally is not None and ally.card in _ALLY_DIED_POWER:
                    b.mods.append((ally.uid, 0, _ALLY_DIED_POWER[ally.card], False))


def _contest(b: _Board, turn: bool, struck: set[int]) -> bool:
    """One Contest Phase on the working board (the characters in `struck` have struck already): each
    contesting character strikes once, the highest Initiative first; False if nobody fights."""
    rows = b.rows
    hurt: dict[int, int] = {}  # +Power until the end of turn from "when this takes damage"
    fought = False
    while True:
        st = _stats(rows, b.dmg, b.mods, turn)
        fighters = []
        for col in range(COLUMNS):
            x, y = rows[0][col], rows[1][col]
            if x is None or y is None:
                continue
            if _CHAR[x.card] and x.uid not in struck:
                fighters.append((st[x.uid][1], 0, col))
            if _CHAR[y.card] and y.uid not in struck:
                fighters.append((st[y.uid][1], 1, col))
        if not fighters:
            return fought
        fought = True
        step = max(f[0] for f in fighters)
        hits: list[tuple[Unit, int]] = []
        for ini, row, col in fighters:
            if ini != step:
                continue
            u = rows[row][col]
            assert u is not None
            struck.add(u.uid)
            power = st[u.uid][0] + _CONTEST_POWER.get(u.card, 0) + hurt.get(u.uid, 0)
            target = rows[1 - row][col]
            if power > 0 and target is not None:  # both slots of a fighting column are filled
                hits.append((target, power))
        for target, power in hits:
            b.dmg[target.uid] += power
            if target.card in _HURT_POWER and b.dmg[target.uid] < st[target.uid][2]:
                hurt[target.uid] = hurt.get(target.uid, 0) + _HURT_POWER[target.card]
        _deaths(b, st)


# -- the round --------------------------------------------------------------------------------------


def _duel(c: list[int], m: list[int]) -> tuple[bool, bool]:
    """Two Contest Phases between a card entering a slot (power, initiative, life, damage) and the card
    facing it: whether each is still standing."""
    cp, ci, cl, cd = c
    mp, mi, ml, md = m
    for _ in range(2):
        if ci > mi:
            md += cp
            if md < ml:
                cd += mp
        elif mi > ci:
            cd += mp
            if cd < cl:
                md += cp
        else:
            cd += mp
            md += cp
        if cd >= cl or md >= ml:
            break
    return cd < cl, md < ml


def _best_answer(
    b: _Board, st: dict[int, list[int]], trailer: int, hand: list[str], tps_only: bool, s_active: int
) -> int:
    """The lowest middle-slot lead (the leader's Power there less the trailer's) the trailer can reach with
    one card from hand (a character into the middle slot, a Power boost, damage, a defeat) or, unless only
    Turning Points count, by moving a side character into an open middle slot."""
    rows = b.rows
    leader = 1 - trailer
    m_l, m_t = rows[leader][MIDDLE], rows[trailer][MIDDLE]
    lead_char = m_l is not None and _CHAR[m_l.card]
    p_l = st[m_l.uid][0] if lead_char else 0  # type: ignore[union-attr]
    p_t = st[m_t.uid][0] if m_t is not None and _CHAR[m_t.card] else 0
    best = p_l - p_t
    facing = [p_l, st[m_l.uid][1], st[m_l.uid][2], b.dmg[m_l.uid]] if lead_char else None  # type: ignore[union-attr]
    weaken = 0  # the leader's passives on the card facing it (Blackbeard)
    if m_l is not None:
        weaken = sum(amount for k, amount, to, _ in _PASSIVES[m_l.card] if k == 0 and to == "opposing")
    allies = sum(1 for u in rows[trailer] if u is not None and _CHAR[u.card])

    def enter(p: int, i: int, life: int, damage: int) -> int:
        if facing is None:
            return -p
        mine, theirs = _duel([p, i, life, damage], facing)
        return (p_l if theirs else 0) - (p if mine else 0)

    if not tps_only and m_t is None:
        for col in (MIDDLE - 1, MIDDLE + 1):
            u = rows[trailer][col]
            if u is not None and _CHAR[u.card] and rows[leader][col] is None:
                v = st[u.uid]
                best = min(best, enter(max(0, v[0] + weaken), v[1], v[2], b.dmg[u.uid]))
    spare = len(hand) - 1  # cards left to discard as a cost once one is played

    def remove(prof: tuple[Any, ...], allies: int, spare: int) -> int:
        kind, amount, cost = prof
        if (cost == "sacrifice" and allies < 1) or (cost == "discard" and spare < 1) or facing is None:
            return best
        if kind == "hit":
            return -p_t if facing[3] + amount >= facing[2] else best
        if kind == "weaken":
            return max(p_l - amount, 0) - p_t
        if kind == "shift" and not any(rows[leader][c] is None for c in (MIDDLE - 1, MIDDLE + 1)):
            return best
        return -p_t if p_l <= amount else best

    for cid in set(hand):
        if tps_only and CARDS[cid].type != "turning_point":
            continue
        for prof in _ANSWER[cid]:
            kind = prof[0]
            if kind == "char":
                _, p, i, life, vs, free = prof
                p += (vs if m_l is not None else free) + weaken
                best = min(best, enter(max(0, p), i, life, 0))
            elif kind == "buff":
                if m_t is not None and _CHAR[m_t.card]:
                    best = min(best, p_l - p_t - prof[1])
            else:
                best = min(best, remove(prof, allies, spare))
    if not tps_only:  # Actions of the trailer's cards on the field
        for u in rows[trailer]:
            if u is not None and _ACTIONS[u.card]:
                for i, prof in _ACTIONS[u.card]:
                    if i not in u.used or s_active != trailer:
                        best = min(best, remove(prof, allies - (1 if _CHAR[u.card] else 0), spare + 1))
    return best


def _hand(side: Any) -> float:
    n = len(side.hand)
    return n + QUALITY * (sum(_WORTH[c] for c in side.hand) - n)


def _round(s: OpheliaState, b: _Board) -> float:
    """Seat 0's chance of winning the round in progress."""
    phase = s.phase
    quiet_after = 0 if s.played else s.quiet + 1  # after this turn, if nobody plays another card
    ends_now = quiet_after >= 2 or s.turn + 1 >= MAX_TURNS
    pending_contest = phase in ("action", "turning_point", "contest")
    extra = 0 if ends_now else min(2 - quiet_after, MAX_TURNS - s.turn - 1)
    contests = min(3, (1 if pending_contest else 0) + extra)

    _resolve_waiting(s, b)
    if b.dirty:
        _deaths(b, _stats(b.rows, b.dmg, b.mods, True))
    for i in range(contests):
        struck = set(s.struck) if (i == 0 and phase == "contest") else set()
        if not _contest(b, i == 0, struck):
            break
    st = _stats(b.rows, b.dmg, b.mods, False)
    mid = [0, 0]
    side = [0, 0]
    for row in (0, 1):
        for col, u in enumerate(b.rows[row]):
            if u is not None and _CHAR[u.card]:
                power = st[u.uid][0]
                side[row] += power
                if col == MIDDLE:
                    mid[row] = power
    if mid[0] != mid[1]:
        leader = 0 if mid[0] > mid[1] else 1
    elif side[0] != side[1]:
        leader = 0 if side[0] > side[1] else 1
    else:
        leader = 1 - s.first
    trailer = 1 - leader
    lead = mid[leader] - mid[trailer] + SIDE * (side[leader] - side[trailer])

    # Does the trailer still get to answer? In its own Action Phase, now, if one card turns the middle
    # slot; otherwise the position is judged as if the turn player ended the Action Phase now (a one-ply
    # player weighs each move followed by the end of the phase): the trailer answers in its next turn
    # unless the round ends first.
    active = s.active
    reach = _best_answer(b, st, trailer, s.sides[trailer].hand, False, active)
    if phase == "action" and active == trailer and reach <= 0:
        answer = True
    elif ends_now:
        answer = False
    elif 1 - active == trailer:
        answer = True
    else:  # the trailer's turn is over: the leader's comes next, and it may end the round then
        answer = quiet_after == 0
    if answer:
        hands = [_hand(s.sides[0]) + b.hands[0], _hand(s.sides[1]) + b.hands[1]]
        p = _sig(K_LEAD * max(reach, 0) + K_HAND * (hands[leader] - hands[trailer] + TEMPO))
    else:
        p = 1 - (1 - SAFE) * math.exp(-0.2 * max(lead, 0))
        if phase in ("action", "turning_point") and active == leader:  # the trailer's window is to come
            tp_reach = _best_answer(b, st, trailer, s.sides[trailer].hand, True, s.active)
            if tp_reach < 0 or (tp_reach == 0 and mid[leader] > mid[trailer]):
                p = TP_FLIP
    b.hands[0] += MATERIAL * (side[0] - side[1])  # a tie-break: Power kept on the field
    return p if leader == 0 else 1 - p


def _next_hand(side: Any, extra: float) -> float:
    h = max(0.0, _hand(side) + extra)
    return min(h + min(DRAW, len(side.deck)), MAX_HAND)


def evaluate_all(s: OpheliaState) -> list[float]:
    """Every seat's share of the win (sum 1)."""
    if s.result is not None:
        won = s.result["winners"]
        return [1 / len(won) if i in won else 0.0 for i in range(s.num_players)]
    a, b_pts = s.sides[0].points, s.sides[1].points
    if s.phase == "first":  # between rounds: the new round has not started
        q = _sig(K_FUTURE * (_hand(s.sides[0]) - _hand(s.sides[1])))
        v = _future(q, s.round, a, b_pts)
        return [v, 1 - v]
    board = _Board(s)
    p = _round(s, board)
    q = _sig(K_FUTURE * (_next_hand(s.sides[0], board.hands[0]) - _next_hand(s.sides[1], board.hands[1])))
    pts = TRACK[min(s.round, len(TRACK)) - 1]
    nxt = s.round + 1
    v = p * _future(q, nxt, a + pts, b_pts) + (1 - p) * _future(q, nxt, a, b_pts + pts)
    return [v, 1 - v]


def evaluate(s: OpheliaState, seat: int) -> float:
    """This seat's share of the win, in [0, 1]."""
    return evaluate_all(s)[seat]
