"""Ophelia's cards, read from cards.toml and checked against the vocabulary the engine understands
(engine/abilities/VOCABULARY.md); the ready decks beside them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from engine.abilities.spec import CardSpec, Vocabulary, parse_cards, parse_decks, parse_pack, renamed
from engine.carddata import CardDataError, PackCards, check_words, every, in_game, load, pack_tag
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


# -- card packs (engine/packs.py; RULINGS.md 24): new cards, played in the pack's ready decks ----------------

PACK_TABLES = ("card", "decks")
BASE: dict[str, CardSpec] = dict(CARDS)  # the game's own cards: the catalogue, never a pack's
Decks = dict[str, tuple[str, tuple[str, ...]]]
# What else keeps a table over the cards (heuristics.py) learns a pack's cards here when they are added.
LEARNERS: list[Callable[[dict[str, CardSpec]], None]] = []


def _check(data: dict[str, Any], where: str) -> tuple[dict[str, CardSpec], Decks]:
    """A pack's cards (of the game's factions) and its ready decks of pack and game cards, by in-game id."""
    own = parse_pack(data, where, VOCABULARY, BASE, tuple(FACTIONS))
    if not isinstance(data.get("decks"), dict) or not data["decks"]:
        raise CardDataError(
            f"{where}: no [decks.ID] table; an Ophelia pack's cards are played in its ready decks "
            f"({DECK_SIZE} cards, at most {COPIES} of each)"
        )
    decks = parse_decks(data, where, {**BASE, **own}, DECK_SIZE, COPIES)
    for did, (name, _) in decks.items():
        check_words(f"{where} [decks.{did}]", name, "")
    tag = pack_tag(data)
    cards = {in_game(c, tag): renamed(spec, tag) for c, spec in own.items()}
    ready = {
        in_game(did, tag): (name, tuple(in_game(c, tag) if c in own else c for c in deck))
        for did, (name, deck) in decks.items()
    }
    return cards, ready


def check_pack(data: dict[str, Any], where: str) -> dict[str, CardSpec]:
    """A pack's cards, checked as the game's own are, by their in-game ids (its decks checked too)."""
    return _check(data, where)[0]


PACKS = PackCards(_check, lambda got: got[0], [(CARDS, every)], LEARNERS)  # pack text -> its cards and decks


def add_pack(text: str) -> tuple[dict[str, CardSpec], Decks]:
    """Make a pack's cards (a state's `pack` text) known to this process, once; its cards and its decks."""
    return PACKS.add(text) or ({}, {})


def forget_packs() -> None:
    """Forget every pack this process has added: a test's clean slate (a fresh process knows none)."""
    PACKS.forget()


def deck_choice(decks: Decks) -> SeatChoice:
    """The deck choice with a pack's ready decks after the game's own."""
    return replace(
        DECK_CHOICE, options=(*DECK_CHOICE.options, *((d, name) for d, (name, _) in decks.items()))
    )


def pack_choices(data: dict[str, Any], base: tuple[SeatChoice, ...]) -> tuple[SeatChoice, ...]:
    """The seat choices of a game with this pack: its ready decks offered beside the game's own."""
    _, decks = _check(data, "pack")
    return tuple(deck_choice(decks) if c.key == DECK_CHOICE.key else c for c in base)
