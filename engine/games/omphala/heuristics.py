"""Omphala's evaluation for the AI: each seat's share of the win, judged from the cards on the table.

The score is front-row cards (what wins), then front-row power (the tie-break), less the cards an
opponent's attacker could take next, plus the back row's use: attackers that can take a card, Hearts and
Diamonds that can still grow or shield one, and plain material. The shares are a softmax of the scores,
flatter while the deck still holds many cards (the game is long and much can change).
"""

from __future__ import annotations

from engine.ai.evaluation import softmax
from engine.games.omphala.cards import POWER, entity_power
from engine.games.omphala.state import OmphalaState

# weights, in front-row cards
POWER_W = 1 / 40  # total front power: only a tie-break
AT_RISK_W = 0.45  # a front card an opponent's attacker beats now
CAN_TAKE_W = 0.5  # an attacker that beats some opponent's front card
ATTACKER_W = 0.12  # an attacker, by its power (of 13)
MODIFIER_W = 0.25  # a lone Heart or Diamond (a future enhance or shield)
CARD_W = 0.1  # any back-row card
HAND_W = 0.08  # a card still in hand while choosing

# The hard search (engine/ai/ismcts.py): a turn is two actions and a move is cheap to play, so the search
# gets more iterations to see both actions and the reply; the evaluation is judged at once (random moves
# after the move judged only blur it). Measured in bench/ai.py against normal (60 games): 0.60 at 600
# iterations with 4 random moves, 0.70 at 2100 with none, 0.82 [0.70-0.89] at 4800 (p50 0.85 s a move;
# the 1.2 s cap bounds the rest).
ROLLOUT_DEPTH = 0
EXPLORATION = 0.2
SEARCH_BUDGET = 8


def _strength(s: OmphalaState) -> list[float]:
    seats = s.seats
    n = len(seats)
    attackers = []  # per seat: the powers of its back-row attackers (Clubs, Spades)
    for seat in seats:
        attackers.append(sorted((entity_power(e) for e in seat.back_row if e[0][-1] in "CS"), reverse=True))
    out = []
    for i, seat in enumerate(seats):
        powers = [entity_power(e) for e in seat.front_row]
        v = sum(len(e) for e in seat.front_row) + POWER_W * sum(powers)
        threat = max((attackers[q][0] for q in range(n) if q != i and attackers[q]), default=0)
        v -= AT_RISK_W * sum(len(e) for e, p in zip(seat.front_row, powers, strict=True) if p <= threat)
        weakest = min((entity_power(e) for q in range(n) if q != i for e in seats[q].front_row), default=99)
        for p in attackers[i]:
            v += ATTACKER_W * p / 13 + (CAN_TAKE_W if p >= weakest else 0.0)
        for e in seat.back_row:
            v += CARD_W
            if len(e) == 1 and e[0][-1] in "HD":
                v += MODIFIER_W
        for c in seat.hand:
            v += HAND_W * POWER[c] / 13
        out.append(v)
    return out


def evaluate_all(s: OmphalaState) -> list[float]:
    """Every seat's share of the win (sum 1)."""
    if s.result is not None:
        won = s.result["winners"]
        return [1 / len(won) if i in won else 0.0 for i in range(s.num_players)]
    return softmax(_strength(s), 0.8 + len(s.deck) / 20)


def evaluate(s: OmphalaState, seat: int) -> float:
    """This seat's share of the win, in [0, 1]."""
    return evaluate_all(s)[seat]
