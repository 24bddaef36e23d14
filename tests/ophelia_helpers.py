"""Helpers for Ophelia's tests: a game at a known position, cards placed by hand, moves by key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.abilities.spec import parse_card
from engine.games.ophelia import Ophelia
from engine.games.ophelia.cards import CARDS, VOCABULARY
from engine.games.ophelia.state import OpheliaState, Unit
from tests.rule_helpers import Moves, no_quote, quote_checker  # noqa: F401  (re-exported)

game = Ophelia()
RULINGS_PATH = Path(__file__).resolve().parents[1] / "engine" / "games" / "ophelia" / "RULINGS.md"
check_quotes = quote_checker(RULINGS_PATH, "ophelia.txt")


def define(monkeypatch: Any, cid: str, **fields: Any) -> str:
    """A test-only card (a character with Power 2, Initiative 2, Life 3 unless told), for this test."""
    table: dict[str, Any] = {"id": cid, "name": cid.replace("_", " ").title(), "type": "character"}
    if fields.get("type", "character") == "character":
        table |= {"power": 2, "initiative": 2, "life": 3}
    elif fields.get("type") == "relic":
        table |= {"life": 3}
    table |= fields
    monkeypatch.setitem(CARDS, cid, parse_card("test", table, VOCABULARY))
    return cid


def fresh(seed: int = 1, hands: tuple[list[str], list[str]] = ([], []), active: int = 0) -> OpheliaState:
    """A game in round 1 at the start of `active`'s Action Phase, the board empty, these hands."""
    s = game.setup(2, seed)
    for seat, hand in enumerate(hands):
        side = s.sides[seat]
        side.deck += side.hand
        side.hand = sorted(hand)
    s.decisions.clear()
    s.pending.clear()
    s.first = s.active = active
    s.phase, s.fired, s.played, s.quiet, s.moves = "action", True, False, 0, 0
    return s


def place(s: OpheliaState, seat: int, col: int, card: str, damage: int = 0) -> Unit:
    """Put a card in a slot (column 1-5) as if it had been there since an earlier turn."""
    u = s.mint(card)
    unit = Unit(u.uid, card, seat, damage=damage)
    s.slots[seat][col - 1] = unit
    return unit


_moves = Moves(game)
keys, do = _moves.keys, _moves.do


def end_turn(s: OpheliaState) -> None:
    """The active player ends the Action Phase and the opponent passes any window (until the next turn's
    Action Phase, a pending decision, or the game's end)."""
    p = s.active
    do(s, p, "end")
    while s.decisions and s.decisions[-1].kind == "window":
        do(s, 1 - p, "pass")


def at(s: OpheliaState, seat: int, col: int) -> str | None:
    """The card id in a slot (column 1-5)."""
    u = s.slots[seat][col - 1]
    return None if u is None else u.card
