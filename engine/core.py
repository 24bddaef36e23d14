"""The engine protocol every game implements: Action, Event, IllegalAction and Game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

PlayerId = int
JSON = dict[str, Any]
Arg = int | str

S = TypeVar("S")


@dataclass(frozen=True, slots=True, order=True)
class Action:
    """One move by one seat: a kind and named arguments, e.g. attack:c=KC:p=1:t=0."""

    player: PlayerId
    kind: str
    args: tuple[tuple[str, Arg], ...] = ()

    @property
    def key(self) -> str:
        """A stable text form of the move without the player, at most 80 characters."""
        if not self.args:
            return self.kind
        return self.kind + "".join(f":{k}={v}" for k, v in self.args)

    def arg(self, name: str) -> Arg:
        """The value of one named argument; KeyError if the action has none by that name."""
        for k, v in self.args:
            if k == name:
                return v
        raise KeyError(name)


_SHARED: dict[tuple[PlayerId, str, tuple[tuple[str, Arg], ...]], Action] = {}


def action(player: PlayerId, kind: str, args: tuple[tuple[str, Arg], ...] = ()) -> Action:
    """The Action for these fields, made once and shared: games build the same moves again and again."""
    k = (player, kind, args)
    a = _SHARED.get(k)
    if a is None:
        if len(_SHARED) > 500_000:  # a bound, far above any game's move space
            _SHARED.clear()
        a = _SHARED[k] = Action(player, kind, args)
    return a


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, in words; visible_to=None means every player and spectators."""

    kind: str
    text: str
    visible_to: tuple[PlayerId, ...] | None = None
    irreversible: bool = False  # a random draw or a hidden reveal: undo may not step back over it
    args: tuple[tuple[str, Arg], ...] = ()  # what it is about, in the game's words (seat=1, card="KC")

    def arg(self, name: str) -> Arg:
        """The value of one named argument; KeyError if the event has none by that name."""
        for k, v in self.args:
            if k == name:
                return v
        raise KeyError(name)

    def visible(self, viewer: PlayerId | None) -> bool:
        """Whether this viewer (None = spectator) may read the event."""
        return self.visible_to is None or (viewer is not None and viewer in self.visible_to)


class IllegalAction(ValueError):
    """Raised by apply for a move that is not legal; the state is left unchanged."""


class Game(Protocol[S]):
    """A game definition: pure functions over a mutable, JSON-serialisable state."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    max_actions: ClassVar[int]

    def setup(self, num_players: int, seed: int, options: JSON | None = None) -> S:
        """A new game for num_players seats, fully determined by seed and options."""
        ...

    def to_act(self, s: S) -> tuple[PlayerId, ...]:
        """Seats that must act now; () iff the game is over."""
        ...

    def legal_actions(self, s: S, player: PlayerId) -> list[Action]:
        """Sorted legal moves with unique keys; [] for a player not in to_act."""
        ...

    def apply(self, s: S, action: Action) -> list[Event]:
        """Play a legal move on s (mutating it); IllegalAction otherwise, with s untouched."""
        ...

    def returns(self, s: S) -> list[float] | None:
        """Each seat's share of the win (sum 1) once the game is over, else None."""
        ...

    def view(self, s: S, viewer: PlayerId | None) -> JSON:
        """Everything viewer may see (None = a spectator), as JSON."""
        ...

    def describe(self, s: S, action: Action) -> tuple[str, ...]:
        """A menu path for the move, e.g. ("K♣", "Attack", "P2: front 1")."""
        ...

    def determinize(self, s: S, observer: PlayerId, seed: int) -> S:
        """A new state that observer cannot tell from s, with all they cannot see resampled."""
        ...

    def to_json(self, s: S) -> JSON:
        """The state as JSON."""
        ...

    def from_json(self, data: JSON) -> S:
        """The state back from JSON; to_json(from_json(d)) == d."""
        ...


def find_action(game: Game[Any], s: Any, player: PlayerId, key: str) -> Action:
    """The legal action of this player with this key, or IllegalAction."""
    for a in game.legal_actions(s, player):
        if a.key == key:
            return a
    raise IllegalAction(f"{key!r} is not a legal move for seat {player} now")
