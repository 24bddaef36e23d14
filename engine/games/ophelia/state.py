"""Ophelia's state: two rows of five slots, each player's deck, hand and forgotten zone, the round track,
and the kit's queues of abilities waiting and resolving."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.rng import Rng
from engine.table.decisions import Decision
from engine.table.modifiers import Modifier
from engine.table.zones import Uids

COLUMNS = 5
MIDDLE = 2  # the middle slot's column (0-based); columns 0 and 4 are the outer slots


@dataclass(slots=True)
class Unit:
    """A card on the field: a character or relic in a slot, or a relic attached to a character."""

    uid: int
    card: str
    owner: int
    damage: int = 0
    played: bool = False  # played this turn (it may not move this turn)
    moved: bool = False  # moved this turn
    used: list[int] = field(default_factory=list)  # Action abilities used this turn, by index
    attached: list[Unit] = field(default_factory=list)  # relics attached to this character


@dataclass(slots=True)
class Side:
    """One player's cards off the field; the deck's top is its end."""

    deck: list[str] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)  # kept sorted
    forgotten: list[str] = field(default_factory=list)  # face up, oldest first
    points: int = 0
    deck_name: str = ""


@dataclass(slots=True)
class OpheliaState(Uids):
    """Everything about one game of Ophelia; the RNG lives here too."""

    num_players: int
    rng: Rng
    sides: list[Side]
    slots: list[list[Unit | None]]  # slots[row][column]; row = the owner's seat; None = open
    round: int = 1
    turn: int = 0  # turns played this round
    active: int = 0  # whose turn it is
    first: int = 0  # who went first this round
    phase: str = "action"  # first -> action -> turning_point -> contest -> end -> (next turn | over)
    played: bool = False  # a card was played this turn
    quiet: int = 0  # consecutive turns in which no card was played
    moves: int = 0  # action-phase moves this turn (bounded, RULINGS)
    struck: list[int] = field(default_factory=list)  # the characters that have struck this Contest Phase
    fired: bool = False  # this phase's triggers have been queued
    last_round: dict[str, Any] | None = None  # who won the last round, at which step, for how many points
    log: list[list[Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    modifiers: list[Modifier] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    pending: list[dict[str, Any]] = field(default_factory=list)  # triggered abilities waiting their turn
    resolving: list[dict[str, Any]] = field(default_factory=list)  # abilities being resolved, top last
    ctx_seq: int = 0
    next_uid: int = 0
    pack: str = ""  # the card pack's data as canonical JSON text ("" for none): engine/packs.py
