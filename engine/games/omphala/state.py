"""Omphala's state: the deck, the discard pile and each seat's rows, plus whose turn it is."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.rng import Rng
from engine.table.decisions import Decision

Entity = list[str]  # a base card, then at most one modifier (a Heart or a Diamond)


@dataclass(slots=True)
class Seat:
    """One player's cards: the front row is the score, the back row does the work."""

    hand: list[str] = field(default_factory=list)  # the 7 dealt cards, until the front row is chosen
    front_row: list[Entity] = field(default_factory=list)  # face down; new cards go to the right
    front_ids: list[int] = field(default_factory=list)  # each front-row entity's uid (action keys name it)
    back_row: list[Entity] = field(default_factory=list)  # face up, at most 7 entities
    secret: list[str] = field(default_factory=list)  # front-row cards only their owner has seen
    reshuffles: int = 0  # all-red reshuffles taken (at most 2, see RULINGS.md)


@dataclass(slots=True)
class OmphalaState:
    """Everything about one game of Omphala; the RNG lives here too."""

    num_players: int
    rng: Rng
    deck: list[str]  # the top of the deck is the end of the list
    seats: list[Seat]
    discard: list[str] = field(default_factory=list)
    phase: str = "choose"  # choose -> play -> over
    turn: int = 0
    current: int = 0
    stage: str = "pre"  # within a turn: pre (two-player draw) -> act -> post (end-of-turn draws)
    actions_left: int = 0
    to_draw: int = 0
    decisions: list[Decision] = field(default_factory=list)  # choose (everyone), discard, reshuffle
    next_uid: int = 0  # the last uid given to a front-row entity
    changed: bool = False  # did any card move this turn
    quiet_turns: int = 0  # turns in a row, deck empty, in which nothing moved
    last: dict[str, Any] | None = None
    log: list[list[Any]] = field(default_factory=list)  # [text, visible_to or None], newest last
    result: dict[str, Any] | None = None
