"""The protocol glue every game shares: the player-count check, whose move and legal moves from the
decision stack, apply with a legality check and the event log, `returns` from the winners, the JSON codec,
and `determinize` from the zones a game declares hidden.

A game subclasses TableGame and writes its own parts: `setup`, `turn_player`, `turn_moves`, `answers`
(the moves that answer a pending decision), `moves` (its `Moves`: `@move("attack")` on each move function),
`after_move`, `view`, `describe` and `hidden`. See engine/games/omphala/rules.py for a worked example.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from operator import attrgetter
from typing import Any, ClassVar, Generic, TypeVar

from engine import eventlog, jsonstate
from engine.core import JSON, Action, Event, IllegalAction, PlayerId
from engine.rng import Rng
from engine.table import decisions
from engine.table.decisions import Decision
from engine.table.present import player_count

S = TypeVar("S")
G = TypeVar("G")
Slot = tuple[list[Any], int]  # a place holding one hidden card: (the list, the index in it)
Move = Callable[[G, S, Action, list[Event]], None]  # a move: (the game, the state, the action, the events)
ORDER = attrgetter("player", "kind", "args")  # the sort key of Action's order=True fields


def slots(zone: list[Any]) -> list[Slot]:
    """Every place of a zone (a pile, a hand), for `hidden`."""
    return [(zone, i) for i in range(len(zone))]


def shares(winners: Iterable[int], n: int) -> list[float]:
    """Winners share the win equally."""
    won = set(winners)
    return [1 / len(won) if i in won else 0.0 for i in range(n)]


class Moves(dict[str, Move[G, S]]):
    """One game's moves by kind, built where the game is defined: `move = Moves[Game, State]()`, then
    `@move("attack")` on each move function; the game class holds it as `moves`."""

    def __call__(self, *kinds: str) -> Callable[[Move[G, S]], Move[G, S]]:
        """Register a move function under these kinds (one function may play several)."""

        def register(fn: Move[G, S]) -> Move[G, S]:
            for kind in kinds:
                if kind in self:
                    raise ValueError(f"two moves of kind {kind!r}")
                self[kind] = fn
            return fn

        return register


class TableGame(Generic[S]):
    """The engine protocol of DESIGN.md written once; a game fills in its own rules."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    max_actions: ClassVar[int]
    rules_version: ClassVar[int] = 1
    state_cls: ClassVar[type]
    moves: ClassVar[Moves[Any, Any]]
    TURN_MOVES_SORTED: ClassVar[bool] = False  # turn_moves yields in sorted order (the property tests check)

    # -- what a game writes ----------------------------------------------------------------------

    def is_over(self, s: S) -> bool:
        """Whether the game has ended (default: a result has been set)."""
        return getattr(s, "result", None) is not None

    def turn_player(self, s: S) -> PlayerId:
        """Whose turn it is when no decision is pending."""
        raise NotImplementedError

    def turn_moves(self, s: S, player: PlayerId, kind: str | None = None) -> Iterable[Action]:
        """The turn player's moves when no decision is pending (only those of `kind` if given)."""
        raise NotImplementedError

    def answers(self, s: S, d: Decision, player: PlayerId) -> Iterable[Action]:
        """The moves that answer decision d (the explicit pass of an optional one is added for you)."""
        raise NotImplementedError

    def after_move(self, s: S, action: Action, events: list[Event]) -> None:
        """The automatic parts after a move (draws, the end of a turn), until someone must decide."""

    def hidden(self, s: S, observer: PlayerId) -> list[list[Slot]]:
        """Groups of places the observer cannot see; each group is resampled among itself."""
        raise NotImplementedError

    def after_determinize(self, s: S, observer: PlayerId, renamed: dict[Any, Any]) -> None:
        """Tidy a resampled state (re-sort hands, follow renamed cards); `renamed` maps old to new."""

    # -- the protocol ------------------------------------------------------------------------------

    def check_players(self, num_players: int) -> None:
        """ValueError unless the game is for this many players."""
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError(f"{self.title} is for {player_count(self, ' to ')}, not {num_players}")

    def to_act(self, s: S) -> tuple[PlayerId, ...]:
        """The top decision's players, else the turn player; () when the game is over."""
        stack = s.decisions  # type: ignore[attr-defined]
        if stack and not self.is_over(s):
            return tuple(stack[-1].players)
        return () if self.is_over(s) else (self.turn_player(s),)

    def legal_actions(self, s: S, player: PlayerId) -> list[Action]:
        """Every legal move of this seat, sorted; [] for a seat not to act."""
        moves = self._candidates(s, player, None)
        if self.TURN_MOVES_SORTED and not s.decisions:  # type: ignore[attr-defined]
            return moves
        return sorted(moves, key=ORDER)  # Action's own order, compared in C rather than by __lt__

    def _candidates(self, s: S, player: PlayerId, kind: str | None) -> list[Action]:
        """The seat's moves (only those of `kind` where the game can filter), unsorted."""
        stack = s.decisions  # type: ignore[attr-defined]
        if not stack:
            if player != self.turn_player(s) or self.is_over(s):
                return []
            return list(self.turn_moves(s, player, kind))
        d = stack[-1]
        if player not in d.players or self.is_over(s):
            return []
        moves = list(self.answers(s, d, player))
        if d.optional:
            moves.append(decisions.pass_move(player))
        return moves

    def apply(self, s: S, action: Action) -> list[Event]:
        """Play a legal move (IllegalAction, state untouched, otherwise) and what follows it."""
        if action not in self._candidates(s, action.player, action.kind):
            raise IllegalAction(f"{action.key!r} is not a legal move for P{action.player + 1} now")
        return self.apply_legal(s, action)

    def apply_legal(self, s: S, action: Action) -> list[Event]:
        """`apply` for a move just taken from `legal_actions` of this very state (a search's fast path:
        no second look at the legal moves)."""
        events: list[Event] = []
        stack = s.decisions  # type: ignore[attr-defined]
        d = decisions.answered(stack, action.player) if stack else None
        token = decisions.answering_as(d)
        try:
            self.moves[action.kind](self, s, action, events)
        finally:
            decisions.done_answering(token)
        self.after_move(s, action, events)
        eventlog.record(s.log, events)  # type: ignore[attr-defined]
        return events

    def returns(self, s: S) -> list[float] | None:
        """Winners share the win; None until the game is over."""
        result = getattr(s, "result", None)
        if result is None:
            return None
        return shares(result["winners"], s.num_players)  # type: ignore[attr-defined]

    def determinize(self, s: S, observer: PlayerId, seed: int) -> S:
        """A copy in which every group of hidden places is dealt anew; the RNG reseeded, the log redacted."""
        d = self.from_json(self.to_json(s))
        self.redeal(d, observer, Rng(seed).shuffle)
        d.rng = Rng(seed ^ 0x5EED)  # type: ignore[attr-defined]
        d.log = eventlog.redacted(d.log, observer)  # type: ignore[attr-defined]
        return d

    def redeal(
        self, s: S, observer: PlayerId, shuffle: Callable[[list[Any]], Any], sort: bool = True
    ) -> None:
        """Deal every group of places hidden from the observer anew, in place, with `shuffle`, and tidy as the
        game does (`after_determinize`)."""
        renamed: dict[Any, Any] = {}
        for group in self.hidden(s, observer):
            pool = [zone[i] for zone, i in group]
            # Sorted before the shuffle, so the sample depends only on what the observer can see (two states
            # they cannot tell apart give the same worlds for a seed), never on the true hidden order; the
            # tests' resampler (tests/hidden_helpers.py) shuffles the true order instead.
            if sort:
                pool.sort(key=repr)
            shuffle(pool)
            for (zone, i), new in zip(group, pool, strict=True):
                if isinstance(zone[i], str | int):
                    renamed[zone[i]] = new
                zone[i] = new
        self.after_determinize(s, observer, renamed)

    def to_json(self, s: S) -> JSON:
        """The state as JSON."""
        return jsonstate.to_json(s)

    def from_json(self, data: JSON) -> S:
        """The state from JSON."""
        return jsonstate.from_json(self.state_cls, data)
