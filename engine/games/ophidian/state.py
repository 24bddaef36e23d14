"""Ophidian 2350's state: each player's team in the Action and Support Fields, hand, Arsenal, Scrap pile,
Funeral Pyre and Gladiator Stack, CP and Cheer; who has The Flow; the action, attack and cards under way;
and the kit's queues of abilities waiting and resolving."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as _f
from typing import Any

from engine.rng import Rng
from engine.table.decisions import Decision
from engine.table.modifiers import Modifier
from engine.table.zones import Uids

ACTION, SUPPORT = "action", "support"  # the front and back rows


@dataclass(slots=True)
class Char:
    """A character in play: a Gladiator (a Reinforcement included) or a Minion."""

    uid: int
    card: str  # the card it is on now (a promotion to Level 3 changes it)
    owner: int
    field: str = ACTION
    level: int = 1  # 0 for a Reinforcement or a Minion
    wounds: int = 0
    set: bool = False
    shield: int = 0  # damage still to prevent (RULINGS 31)
    shield_until: str = ""  # "attack" or "wave"
    advanced: bool = False  # this Wave (RULINGS 19)
    retreated: bool = False
    moved: bool = False  # repositioned in the current arrangement (RULINGS 11, 50)
    used: list[int] = _f(default_factory=list)  # abilities used this Wave, by index


@dataclass(slots=True)
class Pump:
    """A Pump attached to a character, its bearer (RULINGS 38)."""

    uid: int
    card: str
    owner: int  # who played it and pays its Maintain
    bearer: int
    set: bool = False
    used: list[int] = _f(default_factory=list)


@dataclass(slots=True)
class Side:
    """One player's cards and counters."""

    team: str = ""  # the team's name
    custom: bool = False  # a saved deck, its list its player's secret; a ready team's is public (RULINGS 67)
    started: int = 0  # Gladiators the team started with (RULINGS 49)
    hand: list[str] = _f(default_factory=list)  # kept sorted
    arsenal: list[str] = _f(default_factory=list)  # the top is its end
    owe: int = 0  # cards still to put on the bottom of the Arsenal (RULINGS 11, 46)
    known: int = 0  # cards at the bottom of the Arsenal its owner put there (and so knows)
    shown: list[str] = _f(default_factory=list)  # cards both players saw go into the hand, still unplayed
    scrap: list[str] = _f(default_factory=list)
    pyre: list[str] = _f(default_factory=list)  # the cards of its defeated Gladiators
    stack: list[str] = _f(default_factory=list)  # Level 3/4 cards and Reinforcements not in play
    chars: list[Char] = _f(default_factory=list)  # in order of arrival
    cp: int = 0
    cheer: int = 0
    actions: int = 0  # actions this Wave (RULINGS 19)
    unique: list[str] = _f(default_factory=list)  # Unique titles played this Wave (RULINGS 39)
    paid: list[int] = _f(default_factory=list)  # cards maintained in this Breather
    promoted: bool = False  # in this Breather
    done: bool = False  # finished the current setup or Breather step


@dataclass(slots=True)
class OphidianState(Uids):
    """Everything about one game of Ophidian 2350; the RNG lives here too."""

    num_players: int
    rng: Rng
    sides: list[Side]
    wave: int = 0  # 0 during setup
    phase: str = "setup"  # setup -> wave -> breather -> wave ... | over
    step: str = "bottom"  # the setup or Breather step
    flow: int = 0  # who has The Flow
    passed: bool = False  # the last action of the Wave was a pass (RULINGS 18)
    action: dict[str, Any] | None = None  # the action under way: player, symbol, plus, defeats
    spendable: bool = False  # the last action was + and no Cheer was spent on it (RULINGS 17)
    calm: list[int] = _f(default_factory=list)  # not Raging as the action began (RULINGS 29)
    attack: dict[str, Any] | None = None  # the attack under way (RULINGS 23)
    playing: list[dict[str, Any]] = _f(default_factory=list)  # Strategy cards being played (RULINGS 35)
    limbo: list[list[Any]] = _f(default_factory=list)  # [seat, card]: Quick-Hits resolving (RULINGS 37)
    windows: list[dict[str, Any]] = _f(default_factory=list)  # response windows to open (RULINGS 16)
    hurt: list[int] = _f(default_factory=list)  # characters damaged since the last settle
    dirty: bool = True  # something may have lowered a Life since the last settle (Pumps, cards leaving)
    mods: int = 0  # how many modifiers there were at the last settle
    pumps: list[Pump] = _f(default_factory=list)
    log: list[list[Any]] = _f(default_factory=list)
    result: dict[str, Any] | None = None
    modifiers: list[Modifier] = _f(default_factory=list)
    decisions: list[Decision] = _f(default_factory=list)
    pending: list[dict[str, Any]] = _f(default_factory=list)
    resolving: list[dict[str, Any]] = _f(default_factory=list)
    ctx_seq: int = 0
    next_uid: int = 0
    pack: str = ""  # the card pack's data as canonical JSON text ("" for none): engine/packs.py
