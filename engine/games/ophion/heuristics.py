"""Ophion's evaluation for the AI: each seat's share of the win, from a projection of its final score.

The projection is the score now (VP, eternity tokens, upgrade values) plus, for every round still to come,
what the board and the deck should bring: the combat points the grids earn against the neighbours as they
stand, the VP cards drawn, and the gold and mana income (upgrades, the castle, the deck's cards) at a
rough VP rate; plus what is left of this round (AP, gold, cards in hand). The shares are a softmax of the
projections, flatter while many rounds remain.
"""

from __future__ import annotations

import math

from engine.ai.evaluation import softmax
from engine.games.ophion.cards import CARDS, RULES
from engine.games.ophion.rules import attack_value, defense_value, final_score, right_of
from engine.games.ophion.state import OphionState

GOLD_VP = 0.35  # a gold of income per round, in VP per round
MANA_VP = 0.3
DRAWS = 6  # cards a player sees in a round, roughly
NOW_GOLD = 0.3  # this round's gold (lost at its end), while AP remain to spend it
NOW_MANA = 0.3
NOW_AP = 0.5
MONSTER_SLOT = 0.3  # a monster in an upgrade slot, per round left (it can be summoned again)


def _sig(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-1.5 * x))


def projection(s: OphionState, seat: int) -> float:
    """The seat's expected final score, roughly."""
    n = s.num_players
    p = s.players[seat]
    combats = RULES["rounds"] - s.round + 1  # this round's combat and every later round's
    later = RULES["rounds"] - s.round  # round starts still to come (income, draws)
    v = float(final_score(p))
    atk, dfn = attack_value(s, seat), defense_value(s, seat)
    left = (seat + 1) % n  # the seat that attacks this one (everyone attacks the player on their right)
    target = right_of(seat, n)
    fight = 3 * _sig(atk - defense_value(s, target)) + 2 * _sig(dfn - attack_value(s, left))
    v += combats * fight
    cards = p.deck + p.hand + p.discard + p.played
    gold = mana = vp = 0
    for c in cards:
        card = CARDS[c]
        if card.effect == "gold":
            gold += card.amount
        elif card.effect == "mana":
            mana += card.amount
        elif card.effect == "vp":
            vp += card.amount
        elif card.effect == "ap":
            gold += card.amount  # an extra action is worth about a gold
    share = min(DRAWS, len(cards)) / max(1, len(cards))
    income_gold = RULES["castle_gold"] + share * gold
    income_mana = RULES["castle_mana"] + share * mana
    monsters = 0
    for u in p.upgrades:
        if u is None:
            continue
        card = CARDS[u]
        if card.type == "upgrade":
            if card.effect == "gold":
                income_gold += card.amount
            elif card.effect == "mana":
                income_mana += card.amount
            elif card.effect == "vp":
                vp += card.amount
        elif card.type == "monster":
            monsters += 1
    v += later * (share * vp + GOLD_VP * income_gold + MANA_VP * income_mana + MONSTER_SLOT * monsters)
    v += NOW_MANA * p.mana
    if p.ap > 0 and not p.passed:
        v += NOW_AP * p.ap + NOW_GOLD * p.gold
        for c in p.hand:
            card = CARDS[c]
            if card.effect == "vp":
                v += 0.8 * card.amount
            elif card.effect in ("gold", "ap"):
                v += 0.25 * card.amount
            elif card.effect == "mana":
                v += 0.2 * card.amount
    return v


def evaluate_all(s: OphionState) -> list[float]:
    """Every seat's share of the win (sum 1)."""
    if s.result is not None:
        won = s.result["winners"]
        return [1 / len(won) if i in won else 0.0 for i in range(s.num_players)]
    v = [projection(s, i) for i in range(s.num_players)]
    return softmax(v, 2.0 + 1.5 * (RULES["rounds"] - s.round + 1))


def evaluate(s: OphionState, seat: int) -> float:
    """This seat's share of the win, in [0, 1]."""
    return evaluate_all(s)[seat]
