"""The decision stack: every choice a game waits for (a target, a discard, "you may", a simultaneous
opening, a response window) is a Decision on a stack in the state; `to_act` and legal moves come from its top.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from engine.core import Action, PlayerId
from engine.core import action as act

PASS = "pass"  # the kind of the explicit pass an optional decision offers
_ANSWERING: ContextVar[Decision | None] = ContextVar("answering", default=None)


@dataclass(slots=True)
class Decision:
    """A choice the game waits for: who owes it, whether it may be declined, and what it is about."""

    kind: str  # in the game's words: "choose", "discard", "reshuffle"
    players: list[PlayerId]  # who must answer; a simultaneous decision waits for all of them
    optional: bool = False  # offers an explicit pass
    simultaneous: bool = False  # several players answer, in any order, without seeing the others
    source: str = ""  # what raised it (a card, a rule), for texts
    data: dict[str, Any] = field(default_factory=dict)  # the game's own details (JSON values)


Stack = list[Decision]


def top(stack: Stack) -> Decision | None:
    """The decision to answer now, or None when the stack is empty."""
    return stack[-1] if stack else None


def push(stack: Stack, decision: Decision) -> Decision:
    """Wait for this decision before anything below it."""
    stack.append(decision)
    return decision


def to_act(stack: Stack, turn_player: PlayerId) -> tuple[PlayerId, ...]:
    """The top decision's players, or the turn player when nothing is pending."""
    return tuple(stack[-1].players) if stack else (turn_player,)


def answered(stack: Stack, player: PlayerId) -> Decision:
    """The top decision has this player's answer: drop them from it (pop it when nobody is left)."""
    d = stack[-1]
    d.players = [p for p in d.players if p != player]
    if not d.players:
        stack.pop()
    return d


def pass_move(player: PlayerId) -> Action:
    """The explicit pass of an optional decision."""
    return act(player, PASS)


def answering() -> Decision | None:
    """While a move runs: the decision it answers (already off the stack), else None."""
    return _ANSWERING.get()


def answering_as(d: Decision | None) -> object:
    """Mark d as the decision the running move answers; returns the token that `done_answering` takes."""
    return _ANSWERING.set(d)


def done_answering(token: object) -> None:
    """Forget the decision `answering_as` marked."""
    _ANSWERING.reset(token)  # type: ignore[arg-type]
