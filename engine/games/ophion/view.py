"""What a viewer of an Ophion game may see (`OphionView`, the contract the renderer and present.py read);
rules.py's `view` builds it."""

from __future__ import annotations

from typing import Any, TypedDict

from engine.core import JSON, PlayerId


class MarketCardView(TypedDict):
    """A card of the market row, with its price now."""

    card: str
    uid: int
    name: str
    price: int
    surcharge: int


class PlayerView(TypedDict):
    """One seat: points, resources, grids, hand (own only), piles."""

    seat: PlayerId
    vp: int
    eternity: int
    total: int
    mana: int
    gold: int
    ap: int
    upgrades: list[str | None]
    attack_grid: list[str]
    defense_grid: list[str]
    attack_used: int
    defense_used: int
    grid_capacity: int
    attack: int
    defense: int
    hand: list[str] | None
    hand_size: int
    deck_size: int
    discard: list[str]
    discard_size: int
    played: list[str]
    passed: bool
    summoned: bool


class OphionView(TypedDict):
    """Everything a viewer (None = a spectator) may see of an Ophion game."""

    game: str
    viewer: PlayerId | None
    num_players: int
    round: int
    rounds: int
    tier: int
    phase: str
    current: PlayerId | None
    to_act: list[PlayerId]
    order: list[PlayerId]
    market: list[MarketCardView | None]
    market_discard: list[str]
    tier1_size: int
    tier2_size: int
    players: list[PlayerView]
    combat: list[dict[str, Any]]  # the last round's fights: attacker, defender, attack, defense, winner
    last: dict[str, Any] | None
    log: list[str]
    result: JSON | None
