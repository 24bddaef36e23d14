"""Siege of Olympus's state: one shared Deck, Tartarus, the Agora and the Underworld; each player's
Commander, Hand, side of the board and artifacts; the attack or card waiting on its response window; and
the kit's queues of abilities waiting and resolving."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.rng import Rng
from engine.table.decisions import Decision
from engine.table.modifiers import Modifier
from engine.table.zones import Uids

NOBODY = -1  # a prisoner's controller


@dataclass(slots=True)
class Minion:
    """A minion on a side of the board or a prisoner in Tartarus."""

    uid: int
    card: str
    owner: int = NOBODY  # who controls it (NOBODY for a prisoner)
    damage: int = 0
    piece: int = 0  # its artifact piece now (printed, or copied by Joker / swapped by Copy and Replace)
    under: list[str] = field(default_factory=list)  # minion cards stuck under it by Add (extra pieces)
    attack_base: int = -1  # its Attack before bonuses, once swapped (-1 = printed)
    health_base: int = -1  # its Health before bonuses, once swapped (-1 = printed)
    attacked: bool = False  # recruited or attacked this turn
    crippled: bool = False
    paralyzed: int = -1  # the turn number in which it cannot attack
    dodge: bool = False  # a Trickster's dodge for the opponent's next turn (RULINGS 11)


@dataclass(slots=True)
class Held:
    """An artifact a player has taken: its number, the instance uid its abilities use, and whether its
    "Once per turn" effect was used this turn."""

    uid: int
    number: int
    used: bool = False


@dataclass(slots=True)
class Side:
    """One player's Commander, Hand, minions and artifacts."""

    commander: str = ""  # "" until chosen
    commander_uid: int = 0
    wounds: int = 0  # damage on the Commander (Health = 20 - wounds)
    once_used: bool = False  # the Commander's once-per-game ability
    hand: list[str] = field(default_factory=list)  # kept sorted
    fresh: list[str] = field(default_factory=list)  # cards in hand that cannot be summoned this turn
    minions: list[Minion] = field(default_factory=list)  # in the order they arrived
    artifacts: list[Held] = field(default_factory=list)
    hot: list[str] = field(default_factory=list)  # races at 3 or more whose destroy has fired (RULINGS 13)
    mulliganed: int = -1  # cards returned in the mulligan (-1 = not yet decided)
    ambushed: bool = False  # played an Ambush card this turn (one a turn)


@dataclass(slots=True)
class SiegeState(Uids):
    """Everything about one game of Siege of Olympus; the RNG lives here too."""

    num_players: int
    rng: Rng
    sides: list[Side]
    deck: list[str] = field(default_factory=list)  # the top is its end
    underworld: list[str] = field(default_factory=list)
    tartarus: list[Minion] = field(default_factory=list)
    agora: list[str] = field(default_factory=list)
    pile: list[int] = field(default_factory=list)  # artifact numbers still on Olympus
    turn: int = 0  # turns begun (1 = the first player's first turn)
    active: int = 0
    first: int = 0
    phase: str = "setup"  # setup -> deploy -> recruit -> attack -> (end) -> deploy ... | over
    dealt: bool = False  # the 6 cards each are dealt (after the Commanders: RULINGS 5)
    moves: int = 0  # decisions this turn (RULINGS 40)
    exchanged: bool = False  # the turn's Agora exchange is used
    left: list[str] = field(default_factory=list)  # cards left in the Agora this turn (not taken back)
    target: int = 0  # the enemy minion the turn's attacks are fixed on (RULINGS 18)
    window: dict[str, Any] | None = None  # what waits on a response window (RULINGS 20)
    combat: dict[str, Any] | None = None  # the attack being carried out
    log: list[list[Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    modifiers: list[Modifier] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    pending: list[dict[str, Any]] = field(default_factory=list)
    resolving: list[dict[str, Any]] = field(default_factory=list)
    ctx_seq: int = 0
    next_uid: int = 0
    pack: str = ""  # the card pack's data as canonical JSON text ("" for none): engine/packs.py


def window(kind: str, player: int, card: str, **more: Any) -> dict[str, Any]:
    """What waits on a response window: an attack, a spell, a Summon effect, an artifact or a Commander
    ability (RULINGS 20); `opened` once offered, `negated` by Disrupt, `chosen` its Pick/Combine options."""
    return {
        "kind": kind,
        "player": player,
        "card": card,
        "opened": False,
        "negated": False,
        "chosen": [],
        **more,
    }
