"""Siege of Olympus's evaluation for the AI: each seat's share of the win (engine/ai/evaluation.py).

Two races decide the game: the enemy Commander's 20 Health and three artifacts. Each seat gets a score in
"turns of advantage": its artifacts (and how close it is to its next one: the most pieces of one number
still on Olympus that it controls), the damage its board can deal to the enemy Commander, its board's
worth (Attack and Health left, ranged and keywords a little more), cards in hand, and its Commander's
Health, with the last point of Health worth most. The share is a logistic of the difference.

A position in the middle of an action (an attack, a spell or a Summon effect waiting on the other player's
response window, a target or option to choose) is first played forward to the end of the action: windows
passed, and each pick, option, order or "you may" answered the way its player's static score likes best.
Judged before, an attack would change nothing and a spell would only cost a card, so the one-ply player
attacked at random and cast spells only with more than 8 cards in hand: boards filled up, few attacks
landed, and 1 game in 8 between two such players reached the 60-turn limit (RULINGS 40).
"""

from __future__ import annotations

import math

from engine.ai.evaluation import played_forward
from engine.games.siege_of_olympus import board as b
from engine.games.siege_of_olympus.cards import ARTIFACTS_TO_WIN, CARDS, COMMANDER_HEALTH
from engine.games.siege_of_olympus.rules import Siege
from engine.games.siege_of_olympus.state import SiegeState

K = 0.35  # logit per point of score
ARTIFACT = 5.0  # a taken artifact (3 win)
PIECES = (0.0, 0.6, 2.0)  # the best number still on Olympus: 0, 1 or 2 of its pieces controlled
HEALTH = 0.7  # a point of Commander Health ...
LOW = 4.0  # ... more when little is left: LOW / (Health + 2)
MINION = 0.3  # per point of Attack + Health left on the board
BODY = 0.6  # per minion (a body counts toward costs and pieces)
CARD = 0.5  # per card in hand
STRIKER = 0.5  # per point of Attack that may hit the Commander (Primordial Attack)

# The hard search (engine/ai/ismcts.py): this evaluation already plays the action under way forward, so no
# random rollout (random attacks and casts after the move judged made hard lose to normal: 0 of 4 games),
# and the small differences between moves want little exploration. A turn is many actions: every node's
# moves start from their one-ply order (PRIOR_DEEP), not only the first action's, else the rest of the
# turn is judged from random actions (hard won 0.42 of 40 against normal so). Measured in bench/ai.py.
ROLLOUT_DEPTH = 0
EXPLORATION = 0.1
PRIOR_DEEP = True

FORWARD = 24  # at most this many answers when playing an action forward
CHOOSE = 8  # a pick with more options than this weighs the first ones only
PASSED = ("window",)  # answered by passing
CHOSEN = ("pick", "option", "order", "may")  # answered by the chooser's best static score


def _sig(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, x))))


def score(s: SiegeState, seat: int) -> float:
    """One seat's standing, in points."""
    side = s.sides[seat]
    health = COMMANDER_HEALTH - side.wounds
    value = HEALTH * health - LOW / (health + 2)
    value += ARTIFACT * len(side.artifacts)
    if len(side.artifacts) >= ARTIFACTS_TO_WIN - 1:
        value += ARTIFACT  # one more wins
    pieces = b.pieces_of(s, seat)
    best = max((pieces.get(n, 0) for n in s.pile), default=0)
    value += PIECES[min(best, 2)]
    for m in side.minions:
        attack, left = b.stat(s, m, "attack"), b.health_left(s, m)
        worth = attack + left + (1 if b.ranged(m) else 0) + 0.5 * len(CARDS[m.card].keywords)
        if m.crippled:
            worth *= 0.4
        value += BODY + MINION * worth
        if b.has(s, m, "primordial_attack"):
            value += STRIKER * attack
    value += CARD * min(len(side.hand), 8)
    return value


def _static(s: SiegeState, seat: int) -> float:
    if s.result is not None:
        won = s.result["winners"]
        return 1e6 if won == [seat] else 0.0 if seat in won else -1e6
    return score(s, seat) - score(s, 1 - seat)


def _acting(s: SiegeState) -> bool:
    """Whether an action is under way: a window or a choice inside it."""
    return s.result is None and bool(s.decisions) and s.decisions[-1].kind in PASSED + CHOSEN


def forward(s: SiegeState) -> SiegeState:
    """The action under way played to its end with default answers (a copy; s itself when quiet)."""
    if not _acting(s) or not s.sides[0].commander or not s.sides[1].commander:
        return s
    return played_forward(Siege(), s, _acting, PASSED, _static, FORWARD, CHOOSE)


def evaluate_all(s: SiegeState) -> list[float]:
    """Both seats' shares of the win, once the action under way has been played forward."""
    s = forward(s)
    if s.result is not None:
        won = s.result["winners"]
        return [1.0 / len(won) if i in won else 0.0 for i in range(2)]
    if not s.sides[0].commander or not s.sides[1].commander:
        return [0.5, 0.5]
    p = _sig(K * (score(s, 0) - score(s, 1)))
    return [p, 1.0 - p]


def evaluate(s: SiegeState, seat: int) -> float:
    """One seat's share of the win."""
    return evaluate_all(s)[seat]
