"""Omphala's end of game: most front-row cards, then total power, then the line-up battle."""

from __future__ import annotations

from typing import Any

from engine.games.omphala.cards import entity_power
from engine.games.omphala.state import Entity, Seat


def score(seats: list[Seat]) -> dict[str, Any]:
    """Most front-row cards (a pair is 2); then most total power; then the line-up battle."""
    cards = [sum(len(e) for e in seat.front_row) for seat in seats]
    total = [sum(entity_power(e) for e in seat.front_row) for seat in seats]
    best = [i for i, c in enumerate(cards) if c == max(cards)]
    top = max(total[i] for i in best)
    best = [i for i in best if total[i] == top]
    battle = None
    if len(best) > 1:
        battle = lineup_battle([seats[i].front_row if i in best else [] for i in range(len(seats))])
        most = max(battle[i] for i in best)
        best = [i for i in best if battle[i] == most]
    return {"cards": cards, "power": total, "battle": battle, "winners": best}


def lineup_battle(rows: list[list[Entity]]) -> list[int]:
    """Front rows side by side: at each position the highest power survives, ties all survive."""
    survivors = [0] * len(rows)
    for pos in range(max(len(r) for r in rows)):
        here = {i: entity_power(r[pos]) for i, r in enumerate(rows) if pos < len(r)}
        top = max(here.values())
        for i, pw in here.items():
            if pw == top:
                survivors[i] += 1
    return survivors
