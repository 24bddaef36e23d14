"""High Card, a toy third game that proves the recipe of CONTRIBUTING.md: nothing in bot/ names it.

Each player in turn draws a card (1-10, four of each) or passes, which ends their drawing; over 21 is bust.
When everyone has passed or gone bust, the highest total of 21 or less wins (ties share). It implements
the engine protocol of DESIGN.md exactly, with its presentation beside it, and is registered at run time
by the tests that use it (`engine.registry.register(HighCard())`).

Two features of card-ability games, in miniature: a seat choice (each seat's deck: a "low" seat draws two
cards and keeps the lower, a "high" seat keeps the higher; the other goes under the pile; no pick, a
random one) and a response window (after a draw that leaves the drawer playing, the next seat still
playing may jeer, so that the drawer's next card counts one less (never below 1), or pass).
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Iterator, Sequence
from typing import Any, ClassVar, TypeVar

from engine.core import JSON, Action, Event, Game, IllegalAction, PlayerId, action
from engine.registry import games, register
from engine.rng import Rng
from engine.table.present import CardEntry, SeatChoice, Status, picked, seat_name

NAMES = ("Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten")
DECK = SeatChoice("deck", "Deck", (("low", "Low cards"), ("high", "High cards")))
WINDOW = "Jeer window"


def _total(s: JSON, p: int) -> int:
    return sum(s["hands"][p])


class Present:
    """High Card's presentation (the engine/table/present.py protocol)."""

    summary = "Draw cards (1-10) or pass; the highest total of **21 or less** wins."
    rules = "These few lines are the whole rules (tests/toygame.py)."
    shortcuts: ClassVar[dict[str, str]] = {"draw": "d", "pass": "p", "jeer": "j"}
    choices = (DECK,)
    windows = True

    @staticmethod
    def status(view: JSON, names: Sequence[str]) -> Status:
        scores = tuple(f"{seat_name(i, names)}: {p['total']}" for i, p in enumerate(view["players"]))
        if not view["to_act"]:
            best = [seat_name(w, names) for w in view["winners"]]
            return Status(f"Game over · {' and '.join(best)} win{'s' if len(best) == 1 else ''}", "", scores)
        turn = view["to_act"][0]
        if (w := view["window"]) is not None:
            who, drawer = seat_name(w["seat"], names), seat_name(w["drawer"], names)
            drawn = sum(len(p["hand"]) for p in view["players"])
            prompt = f"{who} may jeer {drawer} (their next card counts 1 less) or pass"
            return Status(f"{who} may jeer or pass", prompt, scores, ("jeer", drawn), WINDOW)
        return Status(f"{seat_name(turn, names)} to draw or pass", "", scores, (turn,))

    @staticmethod
    def catalogue() -> list[CardEntry]:
        return [
            CardEntry(str(v), NAMES[v - 1], "number", (("Value", v),), f"Adds {v}.") for v in range(1, 11)
        ]

    @staticmethod
    def menu_rank(a: Action, path: tuple[str, ...]) -> tuple[Any, ...]:
        return (a.kind != "draw",)

    @staticmethod
    def skip(view: JSON, actions: list[Action]) -> Action:
        return next((a for a in actions if a.kind == "pass"), actions[0])

    @staticmethod
    def board_text(view: JSON, names: Sequence[str]) -> str:
        lines = [f"== High Card · {Present.status(view, names).headline} · deck {view['deck']} =="]
        for i, p in enumerate(view["players"]):
            cards = " ".join(map(str, p["hand"])) or "—"
            flags = (" · done" if p["done"] else "") + (" · jeered" if p["jeered"] else "")
            lines.append(f"{seat_name(i, names)} ({p['deck']} deck): {cards} = {p['total']}{flags}")
        return "\n".join(lines)


class HighCard:
    """The game: the state is plain JSON (deck, hands, done, turn, each seat's deck, jeers, the window)."""

    id: ClassVar[str] = "highcard"
    title: ClassVar[str] = "High Card"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    max_actions: ClassVar[int] = 40 * 2 + 4  # a draw per card, a window after each, a pass per seat
    present: ClassVar[Any] = Present

    def setup(self, num_players: int, seed: int, options: JSON | None = None) -> JSON:
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError(f"High Card is for 2-4 players, not {num_players}")
        deck = [v for v in range(1, 11) for _ in range(4)]
        rng = Rng(seed)
        rng.shuffle(deck)  # the deck's order, kept in the state, is all the game's randomness
        n = num_players
        rolls = [DECK.options[rng.below(2)][0] for _ in range(n)]  # drawn for every seat, picked or not
        decks = [picked(options, p, DECK) or rolls[p] for p in range(n)]
        return {"deck": deck, "hands": [[] for _ in range(n)], "done": [False] * n, "turn": 0,
                "decks": decks, "jeered": [False] * n, "window": None}  # fmt: skip

    def to_act(self, s: JSON) -> tuple[PlayerId, ...]:
        if s["window"] is not None:
            return (s["window"]["seat"],)
        return () if all(s["done"]) else (s["turn"],)

    def legal_actions(self, s: JSON, player: PlayerId) -> list[Action]:
        if player not in self.to_act(s):
            return []
        if s["window"] is not None:
            return [action(player, "jeer"), action(player, "pass")]
        return [action(player, "draw"), action(player, "pass")] if s["deck"] else [action(player, "pass")]

    def apply(self, s: JSON, a: Action) -> list[Event]:
        if a not in self.legal_actions(s, a.player):
            raise IllegalAction(f"{a.key} is not legal for P{a.player + 1} now")
        p = a.player
        if (window := s["window"]) is not None:  # the window closes with its one answer
            s["window"] = None
            drawer = window["drawer"]
            if a.kind == "jeer":
                s["jeered"][drawer] = True
                return [Event("jeered", f"P{p + 1} jeers P{drawer + 1}: their next card counts 1 less")]
            return [Event("let_pass", f"P{p + 1} lets P{drawer + 1}'s draw pass")]
        n = len(s["done"])
        if a.kind == "draw":
            jeered = " (jeered: 1 less)" if s["jeered"][p] else ""
            card = self._draw(s, p)
            s["hands"][p].append(card)
            events = [Event("drew", f"P{p + 1} drew a {card}{jeered} ({_total(s, p)})", irreversible=True)]
            if _total(s, p) >= 21 or not s["deck"]:
                s["done"][p] = True
            elif (q := next((q % n for q in range(p + 1, p + n) if not s["done"][q % n]), None)) is not None:
                s["window"] = {"seat": q, "drawer": p}
        else:
            s["done"][p] = True
            events = [Event("passed", f"P{p + 1} stays at {_total(s, p)}")]
        s["turn"] = next((q % n for q in range(p + 1, p + 1 + n) if not s["done"][q % n]), p)
        return events

    @staticmethod
    def _draw(s: JSON, p: int) -> int:
        """The card a seat keeps: of the top two, the lower ("low" deck) or the higher ("high"), the other
        going under the pile; one less if the seat was jeered."""
        top = [s["deck"].pop() for _ in range(min(2, len(s["deck"])))]
        card = max(top) if s["decks"][p] == "high" else min(top)
        top.remove(card)
        s["deck"][:0] = top
        if s["jeered"][p]:
            s["jeered"][p] = False
            card = max(1, card - 1)
        return card

    def _winners(self, s: JSON) -> list[int]:
        totals = [t if t <= 21 else -1 for t in (_total(s, p) for p in range(len(s["hands"])))]
        return [p for p, t in enumerate(totals) if t == max(totals)]

    def returns(self, s: JSON) -> list[float] | None:
        if self.to_act(s):
            return None
        winners = self._winners(s)
        return [1 / len(winners) if p in winners else 0.0 for p in range(len(s["hands"]))]

    def view(self, s: JSON, viewer: PlayerId | None) -> JSON:
        players = [
            {"hand": list(h), "total": sum(h), "done": d, "deck": k, "jeered": j}
            for h, d, k, j in zip(s["hands"], s["done"], s["decks"], s["jeered"], strict=True)
        ]
        over = not self.to_act(s)
        return {"game": self.id, "viewer": viewer, "to_act": list(self.to_act(s)), "deck": len(s["deck"]),
                "players": players, "winners": self._winners(s) if over else [],
                "window": copy.deepcopy(s["window"])}  # fmt: skip

    def describe(self, s: JSON, a: Action) -> tuple[str, ...]:
        return {"draw": ("Draw a card",), "jeer": ("Jeer",)}.get(a.kind, ("Pass",))

    def determinize(self, s: JSON, observer: PlayerId, seed: int) -> JSON:
        d = copy.deepcopy(s)
        d["deck"].sort()  # first forget the true order: the sample depends on what the observer sees only
        Rng(seed).shuffle(d["deck"])  # the deck's order is all that nobody can see
        return d

    def to_json(self, s: JSON) -> JSON:
        return copy.deepcopy(s)

    def from_json(self, data: JSON) -> JSON:
        return copy.deepcopy(data)


G = TypeVar("G", bound=Game[Any])


@contextlib.contextmanager
def registered(game: G) -> Iterator[G]:
    """The game in the registry for the length of the with block (a test's own game)."""
    assert game.id not in games()
    register(game)
    try:
        yield game
    finally:
        games().pop(game.id, None)
