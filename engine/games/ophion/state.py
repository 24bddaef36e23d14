"""Ophion's state: the tier decks and market row, each player's cards and board, and whose turn it is."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.rng import Rng
from engine.table.decisions import Decision
from engine.table.modifiers import Modifier
from engine.table.zones import Instance, Uids


@dataclass(slots=True)
class Player:
    """One player's cards and board; the draw pile's top is the end of `deck`."""

    deck: list[str] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)  # kept sorted
    discard: list[str] = field(default_factory=list)
    played: list[str] = field(default_factory=list)  # cards played this round, discarded at its end
    upgrades: list[str | None] = field(default_factory=list)  # the upgrade slots, None = empty
    attack: list[str] = field(default_factory=list)  # monsters on the attack grid
    defense: list[str] = field(default_factory=list)  # monsters on the defense grid
    vp: int = 0  # the VP track (below 10)
    eternity: int = 0  # eternity tokens, 10 VP each
    mana: int = 0
    gold: int = 0
    ap: int = 0
    passed: bool = False
    summoned: bool = False  # summoned a monster this round
    eaten: int = 0  # Goblins eaten by this player's Dragons this round

    def total(self) -> int:
        """VP on the track plus 10 for each eternity token."""
        return self.vp + 10 * self.eternity


@dataclass(slots=True)
class OphionState(Uids):
    """Everything about one game of Ophion; the RNG lives here too."""

    num_players: int
    rng: Rng
    players: list[Player]
    tier1: list[str]  # the Tier 1 deck, top last
    tier2: list[str]
    market: list[Instance | None]  # index 0 is furthest from the deck (no surcharge)
    market_discard: list[str] = field(default_factory=list)
    tier: int = 1
    round: int = 0
    phase: str = "act"  # act -> over
    start: int = 0  # the seat that acts first this round
    current: int = 0
    first_passer: int | None = None
    combat: list[dict[str, Any]] = field(default_factory=list)  # the last combat phase
    last: dict[str, Any] | None = None
    log: list[list[Any]] = field(default_factory=list)  # [text, visible_to or None], newest last
    result: dict[str, Any] | None = None
    modifiers: list[Modifier] = field(default_factory=list)  # Dragon bonuses until the end of the round
    decisions: list[Decision] = field(default_factory=list)  # none yet: every choice is one move
    next_uid: int = 0  # the last uid given to a card dealt to the row
    pack: str = ""  # the card pack's data as canonical JSON text ("" for none): engine/packs.py
