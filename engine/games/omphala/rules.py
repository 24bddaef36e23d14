"""Omphala's rules as the engine protocol: setup, whose move, legal moves, views and hidden information.

What each move does and how a turn runs are in moves.py; the end of the game in scoring.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import permutations
from typing import Any, ClassVar

from engine import eventlog
from engine.core import JSON, Action, Event, PlayerId
from engine.core import action as act
from engine.games.omphala.cards import (
    DECK,
    by_rank,
    entity_label,
    entity_power,
    label,
)
from engine.games.omphala.moves import advance, find_back, front_index, move, name, turn_moves
from engine.games.omphala.scoring import lineup_battle, score
from engine.games.omphala.state import OmphalaState, Seat
from engine.games.omphala.view import FrontCardView, OmphalaView, PlayerView
from engine.rng import Rng
from engine.table.base import Slot, TableGame, slots
from engine.table.decisions import Decision, top
from engine.table.zones import deal

HAND = 7


class Omphala(TableGame[OmphalaState]):
    """Omphala: a game for the people, for 2 to 6 players with one standard deck."""

    id: ClassVar[str] = "omphala"
    title: ClassVar[str] = "Omphala"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    max_actions: ClassVar[int] = 2000
    rules_version: ClassVar[int] = 2  # 2: front-row targets named by uid, the all-red pass is "pass"
    # (not bumped for the free left/right order of the face-down pair: an old "choose:a=..:b=.." key still
    # puts a on the left and b on the right, so stored logs replay as before)
    state_cls: ClassVar[type] = OmphalaState
    moves = move
    TURN_MOVES_SORTED = True  # turn_moves yields kinds, cards and targets in key order

    # -- setup ---------------------------------------------------------------------------------

    def setup(self, num_players: int, seed: int, options: JSON | None = None) -> OmphalaState:
        """Shuffle, deal 7 to everyone; all choose their two face-down cards at once."""
        self.check_players(num_players)
        rng = Rng(seed)
        deck = list(DECK)
        rng.shuffle(deck)
        seats = [Seat(hand=sorted(hand, key=by_rank)) for hand in deal(deck, num_players, HAND)]
        everyone = Decision("choose", list(range(num_players)), simultaneous=True, source="setup")
        return OmphalaState(num_players=num_players, rng=rng, deck=deck, seats=seats, decisions=[everyone])

    # -- whose move and what they may do -------------------------------------------------------

    def is_over(self, s: OmphalaState) -> bool:
        """The game ends when nobody can move any more (RULINGS 16)."""
        return s.phase == "over"

    def turn_player(self, s: OmphalaState) -> PlayerId:
        """The current player."""
        return s.current

    def turn_moves(self, s: OmphalaState, player: PlayerId, kind: str | None = None) -> Iterator[Action]:
        """Up to two actions a turn, or end it."""
        return turn_moves(s, player, with_end=True, only=kind)

    def answers(self, s: OmphalaState, d: Decision, player: PlayerId) -> list[Action]:
        """Choose two face-down cards, left one first; discard a back-row card; reshuffle an all-red back
        row."""
        if d.kind == "choose":  # a goes on the left, b on the right: the player places them (RULINGS 4)
            hand = s.seats[player].hand
            return [act(player, "choose", (("a", a), ("b", b))) for a, b in permutations(hand, 2)]
        if d.kind == "discard":
            back = sorted(e[0] for e in s.seats[player].back_row)
            return [act(player, "discard", (("c", c),)) for c in back]
        return [act(player, "reshuffle")]

    def after_move(self, s: OmphalaState, action: Action, events: list[Event]) -> None:
        """Draws, the end of the turn and the next turn run by themselves."""
        if s.phase == "play":
            advance(s, events)

    # -- results and views ---------------------------------------------------------------------

    def view(self, s: OmphalaState, viewer: PlayerId | None) -> OmphalaView:
        """What this viewer may see; front rows are revealed to all when the game is over."""
        over = s.phase == "over"
        d = top(s.decisions)
        choosing = d.players if d is not None and d.kind == "choose" else []
        players: list[PlayerView] = []
        for i, seat in enumerate(s.seats):
            own = viewer == i
            rows_public = s.phase != "choose"
            front: list[FrontCardView] = [
                {
                    "id": uid,
                    "cards": [c if (own or over or c not in seat.secret) else None for c in e],
                    "size": len(e),
                }
                for uid, e in zip(seat.front_ids, seat.front_row, strict=True)
            ]
            players.append(
                {
                    "seat": i,
                    "front_row": front,
                    "back_row": [list(e) for e in seat.back_row] if (rows_public or own) else None,
                    "hand": list(seat.hand) if own and s.phase == "choose" else None,
                    "hand_size": len(seat.hand),
                    "chosen": i not in choosing,
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
            "pending": d.kind if d is not None and s.phase == "play" else None,
            "deck": len(s.deck),
            "discard": list(s.discard),
            "players": players,
            "last": None if s.last is None else dict(s.last),
            "log": eventlog.visible(s.log, viewer),
            "result": None if s.result is None else dict(s.result),
        }

    def describe(self, s: OmphalaState, action: Action) -> tuple[str, ...]:
        """A menu path: the card first, then what it does, then the target; the opening choice is the left
        card, then the right one."""
        k = action.kind
        if k == "choose":
            a, b = label(str(action.arg("a"))), label(str(action.arg("b")))
            return (f"{a} on the left", f"{a} left + {b} right, face down")
        if k == "draw":
            return ("Draw a card",)
        if k == "end_turn":
            return ("End turn",)
        if k in ("pass", "reshuffle"):
            return ("All red!", "Keep my back row" if k == "pass" else "Shuffle it in and draw 5")
        if k == "discard":
            return ("Discard", self._back_label(s, action.player, str(action.arg("c"))))
        card = str(action.arg("c"))
        me = self._back_label(s, action.player, card)
        if k == "attack":
            q = int(action.arg("p"))
            return (me, "Attack", self._front_label(s, q, int(action.arg("t"))))
        if k == "steal":
            q = int(action.arg("p"))
            return (me, "Steal", f"{name(q)}: {self._back_label(s, q, str(action.arg('t')))}")
        if k == "enhance":
            return (me, "Enhance", self._back_label(s, action.player, str(action.arg("t"))))
        return (me, "Shield", self._front_label(s, action.player, int(action.arg("t")), own=True))

    @staticmethod
    def _front_label(s: OmphalaState, seat: int, uid: int, own: bool = False) -> str:
        """A front-row target: by its cards when everyone has seen them, else by its position."""
        row = s.seats[seat]
        t = front_index(row, uid)
        entity = row.front_row[t]
        where = f"front card {t + 1}" if own else f"{name(seat)} front card {t + 1}"
        if any(c in row.secret for c in entity):
            return where
        return f"{where}: {entity_label(entity)}"

    @staticmethod
    def _back_label(s: OmphalaState, seat: int, base: str) -> str:
        entity = find_back(s.seats[seat], base)
        if entity is None or len(entity) == 1:
            return label(base)
        return f"{entity_label(entity)} ({entity_power(entity)})"

    # -- hidden information --------------------------------------------------------------------

    def hidden(self, s: OmphalaState, observer: PlayerId) -> list[list[Slot]]:
        """The deck and every card the observer has not seen: others' hands and rows while everyone
        chooses, then only the two cards each other player chose face down (all revealed at the end)."""
        group = slots(s.deck)
        for i, seat in enumerate(s.seats):
            if i == observer or s.phase == "over":
                continue
            if s.phase == "choose":
                group += slots(seat.hand)
                for row in (seat.front_row, seat.back_row):
                    group += [(e, j) for e in row for j in range(len(e))]
            else:
                group += [(e, j) for e in seat.front_row for j in range(len(e)) if e[j] in seat.secret]
        return [group]

    def after_determinize(self, s: OmphalaState, observer: PlayerId, renamed: dict[Any, Any]) -> None:
        """Secrets follow their renamed cards; hands are held in rank order again."""
        for i, seat in enumerate(s.seats):
            if i != observer:
                seat.secret = [renamed.get(c, c) for c in seat.secret]
                if s.phase == "choose":
                    seat.hand.sort(key=by_rank)


__all__ = ["Omphala", "lineup_battle", "name", "score"]
