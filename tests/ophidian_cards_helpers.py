"""Helpers for Ophidian 2350's card tests (tests/games/ophidian/test_ophidian_cards.py): a game past its
setup in Wave 1 with the board placed by hand (characters, Pumps, hands, CP, Cheer, who has The Flow), moves
made by key through the legal moves only, and the answers most tests give without looking (no response, no
defence, no Cheer)."""

from __future__ import annotations

from engine.games.ophidian import board as b
from engine.games.ophidian.cards import CARDS
from engine.games.ophidian.rules import Ophidian
from engine.games.ophidian.state import ACTION, Char, OphidianState, Pump
from tests.rule_helpers import Moves

game = Ophidian()


def fresh(
    hands: tuple[list[str], list[str]] = ([], []), flow: int = 0, cp: int = 20, seed: int = 1
) -> OphidianState:
    """A game in Wave 1 with The Flow to `flow`, no characters or Pumps in play, these hands, `cp` CP each,
    no Cheer; the Arsenals as dealt (so draws draw), the Scrap piles and Funeral Pyres empty."""
    s = game.setup(2, seed)
    for side in s.sides:
        side.arsenal += side.hand
        side.hand, side.chars, side.scrap, side.pyre = [], [], [], []
        side.cp, side.cheer, side.owe, side.known, side.actions = cp, 0, 0, 0, 0
        side.unique, side.done = [], False
    for seat, hand in enumerate(hands):
        give(s, seat, *hand)
    s.pumps.clear()
    s.modifiers.clear()
    s.decisions.clear()
    s.pending.clear()
    s.resolving.clear()
    s.windows.clear()
    s.playing.clear()
    s.limbo.clear()
    s.attack = s.action = None
    s.phase, s.wave, s.step, s.flow, s.passed, s.spendable = "wave", 1, "", flow, False, False
    return s


def give(s: OphidianState, seat: int, *cids: str) -> None:
    """Put cards into a hand."""
    side = s.sides[seat]
    side.hand = sorted(side.hand + list(cids))


def place(
    s: OphidianState, seat: int, cid: str, field: str = ACTION, wounds: int = 0, set_: bool = False
) -> Char:
    """Put a character in play as if it had been there since an earlier Wave: a Gladiator at its card's
    level (1 or 3), a Reinforcement or a Minion at 0."""
    spec = CARDS[cid]
    level = spec.stat("level") if spec.type == "gladiator" else 0
    c = Char(s.mint(cid).uid, cid, seat, field, level=level, wounds=wounds, set=set_)
    s.sides[seat].chars.append(c)
    return c


def attach(s: OphidianState, bearer: Char, cid: str, owner: int | None = None) -> Pump:
    """Put a Pump on a character as if it had been played on an earlier Wave."""
    p = Pump(s.mint(cid).uid, cid, bearer.owner if owner is None else owner, bearer.uid)
    s.pumps.append(p)
    return p


# -- reading the board -----------------------------------------------------------------------------------


def stat(s: OphidianState, c: Char, name: str) -> int:
    """A character's ADMG, DDMG, Life or Rage now."""
    return b.stat(s, c, name)


def alive(s: OphidianState, c: Char) -> bool:
    """Whether the character is still in play."""
    return b.find(s, c.uid) is not None


def top(s: OphidianState) -> str | None:
    """The kind of the decision waiting, or None."""
    return s.decisions[-1].kind if s.decisions else None


def who(s: OphidianState) -> int:
    """The one seat to act now."""
    (p,) = game.to_act(s)
    return p


# -- moves -------------------------------------------------------------------------------------------------


_moves = Moves(game)
keys, do = _moves.keys, _moves.do


def act(s: OphidianState, key: str) -> list[str]:
    """The seat that must act now makes this move."""
    return do(s, who(s), key)


def calm(s: OphidianState) -> list[str]:
    """Pass every response window, defence choice, Cheer offer and "may" now waiting, in turn, and let
    triggers resolve in the order they were queued, until a pick or an action is due; the event texts."""
    texts: list[str] = []
    while top(s) in ("window", "defend", "cheer", "may", "order"):
        texts += in_order(s) if top(s) == "order" else act(s, "pass")
    return texts


def play(s: OphidianState, seat: int, cid: str, *picks: int | str, x: int = 0) -> list[str]:
    """Play a card from hand as an action (with X paid), let the opponent's window pass, then answer the
    picks in order (uids or card ids), passing any window, defence or Cheer offer between them."""
    key = f"play:c={cid}" + (f":x={x}" if x else "")
    return do(s, seat, key) + answer(s, *picks)


def use(s: OphidianState, holder: Char | Pump, index: int, *picks: int | str) -> list[str]:
    """Use the activated ability `index` of a character or Pump, then answer the picks as `play` does."""
    return do(s, holder.owner, f"ability:u={holder.uid}:a={index}") + answer(s, *picks)


def answer(s: OphidianState, *picks: int | str) -> list[str]:
    """Answer the picks in order (uids or card ids), passing any window, defence or Cheer offer before and
    between them; a pick with one option is made by itself (the kit), so it is skipped when none waits."""
    texts = calm(s)
    for p in picks:
        if top(s) == "pick":
            texts += act(s, f"pick:{'c' if isinstance(p, str) else 't'}={p}")
        texts += calm(s)
    return texts


def attack(s: OphidianState, attacker: Char, target: Char) -> list[str]:
    """`attacker` attacks `target` as an action; every window, defence and Cheer offer passed."""
    texts = do(s, attacker.owner, f"attack:u={attacker.uid}:t={target.uid}")
    return texts + calm(s)


def in_order(s: OphidianState) -> list[str]:
    """Let a player's triggers waiting together resolve in the order they were queued."""
    texts: list[str] = []
    while top(s) == "order":
        texts += act(s, f"order:p={s.decisions[-1].data['options'][0]}")
    return texts


def end_wave(s: OphidianState) -> list[str]:
    """Both players pass: the Wave ends (its `wave_end` triggers resolve; the Breather waits)."""
    texts = do(s, s.flow, "pass")
    texts += do(s, s.flow, "pass")
    return texts + in_order(s)


def next_wave(s: OphidianState, *wanted: str) -> list[str]:
    """Both players pass, then the Breather runs with every choice declined but the `wanted` moves (by key,
    each made once when legal; the cards owed to the bottom of the Arsenal are the first of the hand) until
    the next Wave begins; the event texts."""
    wave, todo = s.wave, list(wanted)
    texts = end_wave(s)
    while s.result is None and not (s.phase == "wave" and s.wave > wave):
        ready = [k for k in todo if k in keys(s, who(s))]
        if ready:
            todo.remove(ready[0])
            texts += act(s, ready[0])
        elif top(s) == "order":
            texts += in_order(s)
        elif top(s) == "bottom":
            texts += act(s, sorted(k for k in keys(s, who(s)) if k.startswith("bottom"))[0])
        else:
            texts += act(s, "pass")
    assert not todo, f"never legal: {todo}"
    return texts


def index(cid: str, kind: str) -> int:
    """The index of a card's first ability of this type (plus, minus, query, trigger…)."""
    return next(i for i, a in enumerate(CARDS[cid].abilities) if a.type == kind)
