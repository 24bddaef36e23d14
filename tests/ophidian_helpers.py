"""Helpers for Ophidian 2350's rule tests: a game at a known position (setup done, the fields cleared or
kept), characters placed in a field with chosen wounds, level and Set, cards put in a hand, moves made by
their menu words or by action key, the windows and offers nobody cares about passed, both players passing,
a Breather run through, and a check that every sentence a test quotes is in the rule text or in
RULINGS.md."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from engine.games.ophidian import Ophidian
from engine.games.ophidian import board as b
from engine.games.ophidian.cards import CARDS, TEAMS
from engine.games.ophidian.state import ACTION, SUPPORT, Char, OphidianState, Pump
from tests.rule_helpers import Moves, no_quote, quote_checker, quotes  # noqa: F401  (re-exported)

game = Ophidian()

IRON, MIND = "iron_tide", "mind_and_marrow"
READY = {"seat_choices": [{"team": IRON}, {"team": MIND}]}

RULINGS_PATH = Path(b.__file__).with_name("RULINGS.md")
check_quotes = quote_checker(RULINGS_PATH, "ophidian-2350.txt")


# -- a known position --------------------------------------------------------------------------------


def new_game(seed: int = 1, options: dict[str, Any] | None = None) -> OphidianState:
    """A game just set up with the two ready teams (Iron Tide for P1, Mind and Marrow for P2) unless
    options say otherwise."""
    return game.setup(2, seed, READY if options is None else options)


def finish_setup(s: OphidianState) -> None:
    """Both players put their first cards on the bottom and arrange nothing: Wave 1 begins."""
    while s.phase == "setup":
        (p,) = game.to_act(s)
        d = s.decisions[-1]
        do(s, p, f"bottom:c={s.sides[p].hand[0]}" if d.kind == "bottom" else "pass")


def fresh(
    flow: int = 0,
    *,
    seed: int = 1,
    wave: int = 1,
    hands: tuple[Iterable[str], Iterable[str]] = ((), ()),
    keep_teams: bool = False,
    options: dict[str, Any] | None = None,
) -> OphidianState:
    """Wave `wave` under way with `flow` holding The Flow and nothing done yet: the hands put back into the
    Arsenals (then these hands given), CP 10 + the Wave, Cheer 0; the fields empty unless `keep_teams` (the
    ready teams in the Action Field, as set up). Place characters with `place`: a field without a Gladiator
    loses at the next check."""
    s = new_game(seed, options)
    finish_setup(s)
    for seat, side in enumerate(s.sides):
        side.arsenal = side.hand + side.arsenal
        side.hand = []
        side.cp = 10 + wave
        if not keep_teams:
            side.chars = []
        give(s, seat, *hands[seat])
    s.pumps = []
    s.wave, s.flow, s.phase, s.step = wave, flow, "wave", ""
    s.passed = s.spendable = False
    s.decisions.clear()
    s.pending.clear()
    s.log.clear()
    return s


def give(s: OphidianState, seat: int, *cids: str) -> None:
    """Put cards into a hand (a copy in the Arsenal is taken out of it)."""
    side = s.sides[seat]
    for cid in cids:
        assert cid in CARDS, cid
        if cid in side.arsenal:
            side.arsenal.remove(cid)
        side.hand.append(cid)
    side.hand.sort()


def place(
    s: OphidianState,
    seat: int,
    cid: str,
    field: str = ACTION,
    *,
    wounds: int = 0,
    set_: bool = False,
    level: int | None = None,
) -> Char:
    """Put a character in play as if it had been there since the Wave began: a Gladiator at its card's level
    unless `level` is given (a Level 3/4 card at 3), a Reinforcement or Minion at level 0."""
    spec = CARDS[cid]
    if level is None:
        level = spec.stat("level") if spec.type == "gladiator" else 0
    c = Char(s.mint(cid).uid, cid, seat, field, level=level, wounds=wounds, set=set_)
    s.sides[seat].chars.append(c)
    return c


def pump_on(s: OphidianState, seat: int, cid: str, bearer: Char) -> Pump:
    """Put a Pump of `seat`'s on a character, as if played earlier."""
    p = Pump(s.mint(cid).uid, cid, seat, bearer.uid)
    s.pumps.append(p)
    return p


def char(s: OphidianState, seat: int, cid: str) -> Char:
    """A seat's character on this card (it must be in play)."""
    for c in s.sides[seat].chars:
        if c.card == cid:
            return c
    raise AssertionError(f"{cid} is not in play for P{seat + 1}")


def in_play(s: OphidianState, uid: int) -> bool:
    """Whether a character is still in play."""
    return b.find(s, uid) is not None


def stat(s: OphidianState, c: Char, name: str) -> int:
    """A character's ADMG, DDMG, Life or Rage now."""
    return b.stat(s, c, name)


# -- moves ---------------------------------------------------------------------------------------------


_moves = Moves(game)
keys, do, menu, by_words, say = _moves.keys, _moves.do, _moves.menu, _moves.by_words, _moves.say


def kinds(s: OphidianState, player: int) -> set[str]:
    """The kinds of a seat's legal moves."""
    return {a.kind for a in game.legal_actions(s, player)}


def top(s: OphidianState) -> str | None:
    """The kind of the decision waiting, or None."""
    return s.decisions[-1].kind if s.decisions else None


def who(s: OphidianState) -> int:
    """The one seat to act."""
    (p,) = game.to_act(s)
    return p


def play(s: OphidianState, player: int, cid: str, x: int | None = None) -> list[str]:
    """Play a card from hand as an action."""
    return do(s, player, f"play:c={cid}" + (f":x={x}" if x is not None else ""))


def attack(s: OphidianState, attacker: Char, target: Char) -> list[str]:
    """Declare an attack (the defence, windows and the rest are left to the test or to `quiet`)."""
    return do(s, attacker.owner, f"attack:u={attacker.uid}:t={target.uid}")


def pick(s: OphidianState, target: Char | int | str) -> list[str]:
    """Answer the pick waiting with this character (or card id)."""
    if isinstance(target, Char):
        arg = f"t={target.uid}"
    elif isinstance(target, int):
        arg = f"t={target}"
    else:
        arg = f"c={target}"
    return do(s, who(s), f"pick:{arg}")


QUIET = ("window", "defend", "cheer", "may")


def quiet(s: OphidianState) -> list[str]:
    """Pass every window, defence choice (take it), Cheer offer and "you may" now waiting, until the player
    with The Flow may act (or someone must pick something)."""
    texts: list[str] = []
    while top(s) in QUIET and s.result is None:
        texts += do(s, who(s), "pass")
    return texts


def pass_action(s: OphidianState) -> list[str]:
    """The player with The Flow passes (after anything waiting is let go)."""
    quiet(s)
    assert not s.decisions, s.decisions
    return do(s, s.flow, "pass")


def end_wave(s: OphidianState) -> list[str]:
    """Both players pass, one after the other: the Wave ends."""
    wave = s.wave
    texts = pass_action(s)
    texts += pass_action(s)
    assert s.wave == wave and s.phase != "wave", "two passes end the Wave"
    return texts


def breather(s: OphidianState, keep: bool = True) -> None:
    """Run the Breather with the least choice: scrap nothing, put the first cards of the hand on the bottom,
    maintain whatever can be paid if `keep` (the first offered each time), promote nobody, bring in no
    Reinforcement, reposition nobody; until the next Wave begins or the game ends."""
    while s.phase != "wave" and s.result is None:
        p = who(s)
        kind = top(s)
        if kind == "bottom":
            do(s, p, f"bottom:c={s.sides[p].hand[0]}")
        elif kind == "maintain" and keep:
            do(s, p, sorted(k for k in keys(s, p) if k.startswith("keep"))[0])
        else:
            do(s, p, "pass")


def run_to(s: OphidianState, kind: str) -> None:
    """In the Breather, pass every decision until one of this kind waits."""
    while top(s) != kind:
        assert s.result is None and s.phase != "wave", f"no {kind} decision came"
        p = who(s)
        if top(s) == "bottom":
            do(s, p, f"bottom:c={s.sides[p].hand[0]}")
        else:
            do(s, p, "pass")


def team_of(tid: str) -> Any:
    """A ready team."""
    return TEAMS[tid]


SUPPORT_FIELD, ACTION_FIELD = SUPPORT, ACTION
