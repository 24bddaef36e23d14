"""Omphala's rules as the engine protocol: setup, whose move, legal moves, views and hidden information.

What each move does and how a turn runs are in moves.py; the end of the game in scoring.py.
"""

from __future__ import annotations

from itertools import combinations
from typing import ClassVar

from engine import eventlog
from engine.core import JSON, Action, Event, IllegalAction, PlayerId
from engine.core import action as act
from engine.games.omphala.cards import (
    DECK,
    by_rank,
    entity_label,
    entity_power,
    label,
)
from engine.games.omphala.moves import MOVES, advance, find_back, name, turn_moves
from engine.games.omphala.scoring import lineup_battle, score
from engine.games.omphala.state import OmphalaState, Seat
from engine.rng import Rng

HAND = 7


class Omphala:
    """Omphala: a game for the people, for 2 to 6 players with one standard deck."""

    id: ClassVar[str] = "omphala"
    title: ClassVar[str] = "Omphala"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    max_actions: ClassVar[int] = 2000
    rules_version: ClassVar[int] = 1

    # -- setup ---------------------------------------------------------------------------------

    def setup(self, num_players: int, seed: int, options: JSON | None = None) -> OmphalaState:
        """Shuffle, deal 7 to everyone; all choose their two face-down cards at once."""
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError(f"Omphala is for 2-6 players, not {num_players}")
        rng = Rng(seed)
        deck = list(DECK)
        rng.shuffle(deck)
        seats = []
        for _ in range(num_players):
            hand = sorted(deck[-HAND:], key=by_rank)
            del deck[-HAND:]
            seats.append(Seat(hand=hand))
        return OmphalaState(num_players=num_players, rng=rng, deck=deck, seats=seats)

    # -- whose move ----------------------------------------------------------------------------

    def to_act(self, s: OmphalaState) -> tuple[PlayerId, ...]:
        """Everyone who has not chosen (choose phase), else the current player; () when over."""
        if s.phase == "choose":
            return tuple(i for i, seat in enumerate(s.seats) if not seat.chosen)
        if s.phase == "over":
            return ()
        return (s.current,)

    def legal_actions(self, s: OmphalaState, player: PlayerId) -> list[Action]:
        """Every legal move of this seat, sorted."""
        if player not in self.to_act(s):
            return []
        if s.phase == "choose":
            hand = s.seats[player].hand
            pairs = [act(player, "choose", (("a", a), ("b", b))) for a, b in combinations(hand, 2)]
            return sorted(pairs)
        if s.pending == "discard":
            codes = sorted(e[0] for e in s.seats[player].back_row)
            return [act(player, "discard", (("c", c),)) for c in codes]
        if s.pending == "reshuffle":
            return [act(player, "keep"), act(player, "reshuffle")]
        return list(turn_moves(s, player, with_end=True))

    # -- moves ---------------------------------------------------------------------------------

    def apply(self, s: OmphalaState, action: Action) -> list[Event]:
        """Play one move; IllegalAction (state untouched) if it is not legal now."""
        if action not in self._candidates(s, action):
            raise IllegalAction(f"{action.key!r} is not a legal move for {name(action.player)} now")
        events: list[Event] = []
        MOVES[action.kind](s, action, events)
        if s.phase == "play":
            advance(s, events)
        eventlog.record(s.log, events)
        return events

    def _candidates(self, s: OmphalaState, action: Action) -> list[Action]:
        """The legal moves of the same kind as action (cheaper than all of them)."""
        p = action.player
        if p not in self.to_act(s):
            return []
        if s.phase == "choose" or s.pending:
            return self.legal_actions(s, p)
        return list(turn_moves(s, p, with_end=True, only=action.kind))

    # -- results and views ---------------------------------------------------------------------

    def returns(self, s: OmphalaState) -> list[float] | None:
        """Winners share the win equally; None until the game is over."""
        if s.result is None:
            return None
        winners = s.result["winners"]
        return [1 / len(winners) if i in winners else 0.0 for i in range(s.num_players)]

    def view(self, s: OmphalaState, viewer: PlayerId | None) -> JSON:
        """What this viewer may see; front rows are revealed to all when the game is over."""
        over = s.phase == "over"
        players = []
        for i, seat in enumerate(s.seats):
            own = viewer == i
            rows_public = s.phase != "choose"
            front = [
                {
                    "cards": [c if (own or over or c not in seat.secret) else None for c in e],
                    "size": len(e),
                }
                for e in seat.front_row
            ]
            players.append(
                {
                    "seat": i,
                    "front_row": front,
                    "back_row": [list(e) for e in seat.back_row] if (rows_public or own) else None,
                    "hand": list(seat.hand) if own and s.phase == "choose" else None,
                    "hand_size": len(seat.hand),
                    "chosen": seat.chosen,
                    "cards": sum(len(e) for e in seat.front_row),
                }
            )
        return {
            "game": self.id,
            "viewer": viewer,
            "num_players": s.num_players,
            "phase": s.phase,
            "turn": s.turn,
            "current": s.current if s.phase == "play" else None,
            "actions_left": s.actions_left if s.phase == "play" else 0,
            "to_act": list(self.to_act(s)),
            "pending": s.pending,
            "deck": len(s.deck),
            "discard": list(s.discard),
            "players": players,
            "last": None if s.last is None else dict(s.last),
            "log": eventlog.visible(s.log, viewer),
            "result": None if s.result is None else dict(s.result),
        }

    def describe(self, s: OmphalaState, action: Action) -> tuple[str, ...]:
        """A menu path: the card first, then what it does, then the target."""
        k = action.kind
        if k == "choose":
            a, b = str(action.arg("a")), str(action.arg("b"))
            return (label(a), f"{label(a)} + {label(b)} face down")
        if k == "draw":
            return ("Draw a card",)
        if k == "end_turn":
            return ("End turn",)
        if k in ("keep", "reshuffle"):
            return ("All red!", "Keep my back row" if k == "keep" else "Shuffle it in and draw 5")
        if k == "discard":
            return ("Discard", self._back_label(s, action.player, str(action.arg("c"))))
        card = str(action.arg("c"))
        me = self._back_label(s, action.player, card)
        if k == "attack":
            q, t = int(action.arg("p")), int(action.arg("t"))
            return (me, "Attack", f"{name(q)} front card {t + 1}")
        if k == "steal":
            q = int(action.arg("p"))
            return (me, "Steal", f"{name(q)}: {self._back_label(s, q, str(action.arg('t')))}")
        if k == "enhance":
            return (me, "Enhance", self._back_label(s, action.player, str(action.arg("t"))))
        return (me, "Shield", f"front card {int(action.arg('t')) + 1}")

    @staticmethod
    def _back_label(s: OmphalaState, seat: int, base: str) -> str:
        entity = find_back(s.seats[seat], base)
        if entity is None or len(entity) == 1:
            return label(base)
        return f"{entity_label(entity)} ({entity_power(entity)})"

    # -- hidden information --------------------------------------------------------------------

    def determinize(self, s: OmphalaState, observer: PlayerId, seed: int) -> OmphalaState:
        """A copy in which the deck and every card the observer has not seen are dealt anew."""
        d = OmphalaState.from_json(s.to_json())
        slots: list[tuple[list[str], int]] = [(d.deck, i) for i in range(len(d.deck))]
        for i, seat in enumerate(d.seats):
            if i == observer or d.phase == "over":  # at the end every front row is revealed
                continue
            if d.phase == "choose":
                slots += [(seat.hand, j) for j in range(len(seat.hand))]
                for row in (seat.front_row, seat.back_row):
                    slots += [(e, j) for e in row for j in range(len(e))]
            else:
                slots += [(e, j) for e in seat.front_row for j in range(len(e)) if e[j] in seat.secret]
        pool = [row[j] for row, j in slots]
        rng = Rng(seed)
        rng.shuffle(pool)
        renamed = {row[j]: new for (row, j), new in zip(slots, pool, strict=True)}
        for (row, j), new in zip(slots, pool, strict=True):
            row[j] = new
        for i, seat in enumerate(d.seats):
            if i != observer:
                seat.secret = [renamed.get(c, c) for c in seat.secret]
                if d.phase == "choose":
                    seat.hand.sort(key=by_rank)
        d.rng = Rng(seed ^ 0x5EED)
        d.log = eventlog.redacted(d.log, observer)
        return d

    def to_json(self, s: OmphalaState) -> JSON:
        """The state as JSON."""
        return s.to_json()

    def from_json(self, data: JSON) -> OmphalaState:
        """The state from JSON."""
        return OmphalaState.from_json(data)


__all__ = ["Omphala", "lineup_battle", "name", "score"]
