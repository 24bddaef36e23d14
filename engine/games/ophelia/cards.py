"""Ophelia's cards, read from cards.toml and checked against the vocabulary the engine understands
(engine/abilities/VOCABULARY.md); the ready decks beside them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.abilities.spec import CardSpec, Vocabulary, parse_cards, parse_decks
from engine.carddata import load
from engine.table.present import SeatChoice

DECK_SIZE, COPIES = 30, 2
TARGET = {"to": str}
CHOSEN = ("enemy", "ally", "other_ally", "any", "relic", "enemy_relic")
GROUPS = ("self", "bearer", "opposing", "adjacent_allies", "all_allies", "other_allies", "all_enemies")
FIXED = (*GROUPS, "event", "middle_enemy")

VOCABULARY = Vocabulary(
    types={"character": ("power", "initiative", "life"), "relic": ("life",), "turning_point": ()},
    abilities=("passive", "claim", "action", "trigger", "play"),
    costs=("discard", "sacrifice", "retire"),
    events=(
        "played",
        "enters",
        "moved",
        "defeated",
        "leaves",
        "damaged",
        "contested",
        "ally_defeated",
        "ally_played",
        "enemy_played",
        "enemy_enters",
        "turning_point",
        "turn_start",
        "turn_end",
        "contest",
    ),
    effects={
        "damage": {"to": str, "amount": int, "max_power": int},
        "heal": {"to": str, "amount": int, "max_power": int},
        "power": {"to": str, "amount": int, "until": str, "max_power": int},
        "initiative": {"to": str, "amount": int, "until": str, "max_power": int},
        "life": {"to": str, "amount": int, "until": str, "max_power": int},
        "draw": {"amount": int},
        "discard": {"amount": int},
        "defeat": {"to": str, "max_power": int},
        "move": {"to": str, "max_power": int},
        "bounce": {"to": str, "max_power": int},
        "detach": {"to": str},
        "recall": {"kind": str, "dest": str},
    },
    selectors=(*CHOSEN, *FIXED),
    groups=GROUPS,
    conditions=("in_middle", "in_outer", "contested", "uncontested", "damaged"),
    stats=("power", "initiative", "life"),
    flags={"attach": bool},
    choices={
        "until": ("turn", "round"),
        "kind": ("character", "relic", "turning_point", "any"),
        "dest": ("hand", "slot"),
    },
)

_PATH = Path(__file__).with_name("cards.toml")
_DATA: dict[str, Any] = load(_PATH)
CARDS: dict[str, CardSpec] = parse_cards(_DATA, _PATH.name, VOCABULARY)
FACTIONS: dict[str, str] = dict(_DATA.get("factions", {}))
DECKS: dict[str, tuple[str, tuple[str, ...]]] = parse_decks(_DATA, _PATH.name, CARDS, DECK_SIZE, COPIES)
DECK_CHOICE = SeatChoice("deck", "Deck", tuple((did, name) for did, (name, _) in DECKS.items()))


def name(cid: str) -> str:
    """A card's printed name."""
    return CARDS[cid].name
