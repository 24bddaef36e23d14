"""Ophidian 2350's evaluation for the AI: each seat's share of the win (engine/ai/evaluation.py).

Three races decide the game: VP (12 in the opponent's Funeral Pyre wins at once, and the most after the 4th
Wave wins), Cheer (15 wins) and the enemy team (annihilation). Each seat scores its VP, its Cheer (more as it
nears 15), its characters' worth (a Gladiator's VP at stake, Life left, ADMG and DDMG; Minions less), the
Crowd Favorite, cards in hand and CP. The share is a logistic of the difference.

A position in the middle of an action (an attack waiting on its windows and defence, a card waiting on
its window or its targets) is first played forward to the end of the action: windows and Cheer offers
passed, a pick, a defence or a "you may" answered the way its player's static score likes best. Judged
before, every attack and card would look like a loss (a Set attacker, CP and a card spent, nothing dealt
yet) and the one-ply player would only ever pass. Since the evaluation looks ahead, the hard search
plays no random rollout.
"""

from __future__ import annotations

import math

from engine.ai.evaluation import played_forward
from engine.games.ophidian import board as b
from engine.games.ophidian.cards import CARDS, CHEER_WIN, PYRE_WIN
from engine.games.ophidian.rules import Ophidian
from engine.games.ophidian.state import OphidianState

K = 0.3  # logit per point of score
VP = 1.2  # a VP scored
NEAR = 6.0  # ... more as 12 nears: NEAR / (12 - VP + 1)
CHEER = 0.5  # a point of Cheer ...
RIOT = 4.0  # ... more as 15 nears: RIOT / (15 - Cheer + 1)
AT_STAKE = 0.35  # per VP of a Gladiator still standing
LIFE = 0.25  # per point of Life left
ADMG = 0.5  # per point of ADMG (DDMG counts half)
MINION = 0.5  # a Minion's worth is scaled by this
FAVOURITE = 0.4
CARD = 0.25  # per card in hand
CP = 0.05

ROLLOUT_DEPTH = 0  # the evaluation plays the action under way forward itself (engine/ai/ismcts.py)
FORWARD = 24  # at most this many answers when playing an action forward
CHOOSE = 8  # a pick with more options than this takes the first ones only
PASSED = ("window", "cheer")  # answered by passing
CHOSEN = ("pick", "defend", "may", "order")  # answered by the chooser's best static score


def _sig(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, x))))


def score(s: OphidianState, seat: int) -> float:
    """One seat's standing, in points."""
    side = s.sides[seat]
    vp = b.scored(s, seat)
    value = VP * vp + NEAR / (PYRE_WIN - min(vp, PYRE_WIN - 1))
    value += CHEER * side.cheer + RIOT / (CHEER_WIN - min(side.cheer, CHEER_WIN - 1))
    for c in side.chars:
        worth = LIFE * b.life_left(s, c) + ADMG * (b.stat(s, c, "admg") + 0.5 * b.stat(s, c, "ddmg"))
        if b.gladiator(c):
            value += worth + AT_STAKE * CARDS[c.card].stat("vp") + 0.2 * c.level
        else:
            value += MINION * worth
        if c.set:
            value -= 0.15
    if b.crowd_favorite(s, seat):
        value += FAVOURITE
    return value + CARD * min(len(side.hand), 9) + CP * side.cp


def _static(s: OphidianState, seat: int) -> float:
    if s.result is not None:
        return 1e6 if seat in s.result["winners"] else -1e6
    return score(s, seat) - score(s, 1 - seat)


def forward(s: OphidianState) -> OphidianState:
    """The action under way played to its end with default answers (a copy; s itself when quiet)."""
    if not _acting(s):
        return s
    return played_forward(Ophidian(), s, _acting, PASSED, _static, FORWARD, CHOOSE)


def _acting(s: OphidianState) -> bool:
    """Whether an action is under way: a window or a choice of the kit waits."""
    return s.result is None and bool(s.decisions) and s.decisions[-1].kind in PASSED + CHOSEN


def evaluate_all(s: OphidianState) -> list[float]:
    """Both seats' shares of the win, once the action under way has been played forward."""
    s = forward(s)
    if s.result is not None:
        won = s.result["winners"]
        return [1.0 / len(won) if i in won else 0.0 for i in range(2)]
    p = _sig(K * (score(s, 0) - score(s, 1)))
    return [p, 1.0 - p]


def evaluate(s: OphidianState, seat: int) -> float:
    """One seat's share of the win."""
    return evaluate_all(s)[seat]
