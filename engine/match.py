"""A match: its setup arguments, its append-only action log and a state_id; replay and undo."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core import JSON, Action, Event, Game, IllegalAction, PlayerId, find_action
from engine.registry import get

LogEntry = tuple[PlayerId, str]  # (seat, action key)


@dataclass
class Match:
    """One game being played: the state is always setup(...) plus the log replayed."""

    game_id: str
    num_players: int
    seed: int
    options: JSON = field(default_factory=dict)
    log: list[LogEntry] = field(default_factory=list)
    state: Any = None
    state_id: int = 0  # grows with every change, undo included, so old buttons never match again
    undo_floor: int = 0  # undo never goes below this log length (a draw or a reveal happened)

    @property
    def game(self) -> Game[Any]:
        """The game definition."""
        return get(self.game_id)

    @classmethod
    def new(cls, game_id: str, num_players: int, seed: int, options: JSON | None = None) -> Match:
        """A fresh match."""
        game = get(game_id)
        opts = dict(options or {})  # setup refuses a player count the game is not for
        return cls(game_id, num_players, seed, opts, [], game.setup(num_players, seed, opts), 0, 0)

    @classmethod
    def replay(
        cls,
        game_id: str,
        num_players: int,
        seed: int,
        options: JSON | None,
        log: list[LogEntry],
        state_id: int | None = None,
    ) -> Match:
        """Rebuild a match from its setup arguments and log; IllegalAction if the log is corrupt."""
        m = cls.new(game_id, num_players, seed, options)
        for player, key in log:
            m.submit(player, key)
        if state_id is not None:
            m.state_id = state_id
        return m

    def to_act(self) -> tuple[PlayerId, ...]:
        """Seats to act now."""
        return self.game.to_act(self.state)

    def is_over(self) -> bool:
        """Whether the game has ended."""
        return not self.game.to_act(self.state)

    def submit(self, player: PlayerId, key: str) -> list[Event]:
        """Play the legal action with this key for this seat, or raise IllegalAction."""
        return self.apply(find_action(self.game, self.state, player, key))

    def apply(self, action: Action) -> list[Event]:
        """Play an action and append it to the log."""
        events = self.game.apply(self.state, action)
        self.log.append((action.player, action.key))
        self.state_id += 1
        if any(e.irreversible for e in events):
            self.undo_floor = len(self.log)
        return events

    def can_undo(self, player: PlayerId) -> bool:
        """Undo is allowed for the last action if it was this seat's, in its own turn, and hid no chance."""
        return self.undo_refusal(player) is None

    def undo_refusal(self, player: PlayerId, names: Sequence[str] = ()) -> str | None:
        """Why this seat cannot take its last move back now, in words (None when it can)."""
        if not self.log:
            return "nothing has been played yet"
        if all(seat != player for seat, _ in self.log):
            return "you have not moved yet"
        last = self.log[-1][0]
        if last != player:
            who = names[last] if last < len(names) else f"P{last + 1}"
            return f"{who} has moved since your last move"
        if len(self.log) <= self.undo_floor:
            return "your last move drew or revealed a card, and that cannot be taken back"
        if self.game.to_act(self.state) != (player,):
            return "your turn has passed"
        return None

    def undo_preview(self, player: PlayerId) -> tuple[str, ...]:
        """The menu path of the move undo would take back (describe() before it); IllegalAction if none."""
        if not self.can_undo(player):
            raise IllegalAction("There is nothing you can take back now.")
        before = Match.replay(self.game_id, self.num_players, self.seed, self.options, self.log[:-1])
        seat, key = self.log[-1]
        return tuple(self.game.describe(before.state, find_action(self.game, before.state, seat, key)))

    def undo(self, player: PlayerId) -> Match:
        """A new match with the last action taken back; IllegalAction if can_undo is false."""
        if not self.can_undo(player):
            raise IllegalAction("There is nothing you can take back now.")
        m = Match.replay(self.game_id, self.num_players, self.seed, self.options, self.log[:-1])
        m.state_id = self.state_id + 1
        return m
