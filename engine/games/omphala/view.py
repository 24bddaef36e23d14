"""What a viewer of an Omphala game may see (`OmphalaView`, the contract the renderer and present.py read);
rules.py's `view` builds it."""

from __future__ import annotations

from typing import Any, TypedDict

from engine.core import JSON, PlayerId


class FrontCardView(TypedDict):
    """A face-down front-row entity: its cards (None where the viewer may not see them) and its size."""

    id: int
    cards: list[str | None]
    size: int


class PlayerView(TypedDict):
    """One seat: front row, back row (None while others choose), hand (own, while choosing)."""

    seat: PlayerId
    front_row: list[FrontCardView]
    back_row: list[list[str]] | None
    hand: list[str] | None
    hand_size: int
    chosen: bool
    cards: int


class OmphalaView(TypedDict):
    """Everything a viewer (None = a spectator) may see of an Omphala game."""

    game: str
    viewer: PlayerId | None
    num_players: int
    phase: str
    turn: int
    current: PlayerId | None
    actions_left: int
    to_act: list[PlayerId]
    pending: str | None
    deck: int
    discard: list[str]
    players: list[PlayerView]
    last: dict[str, Any] | None  # the last action: player, kind, text, card, target, success
    log: list[str]
    result: JSON | None
