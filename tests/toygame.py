"""High Card, a toy third game that proves the recipe of CONTRIBUTING.md: nothing in bot/ names it.

Each player in turn draws a card (1-10, four of each) or passes, which ends their drawing; over 21 is bust.
When everyone has passed or gone bust, the highest total of 21 or less wins (ties share). It implements
the engine protocol of DESIGN.md exactly, with its presentation beside it, and is registered at run time
by the tests that use it (`engine.registry.register(HighCard())`).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, ClassVar

from engine.core import JSON, Action, Event, IllegalAction, PlayerId, action
from engine.rng import Rng
from engine.table.present import CardEntry, Status, seat_name

NAMES = ("Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten")


def _total(s: JSON, p: int) -> int:
    return sum(s["hands"][p])


class Present:
    """High Card's presentation (the engine/table/present.py protocol)."""

    summary = "Draw cards (1-10) or pass; the highest total of **21 or less** wins."
    rules = "These few lines are the whole rules (tests/toygame.py)."
    shortcuts: ClassVar[dict[str, str]] = {"draw": "d", "pass": "p"}

    @staticmethod
    def status(view: JSON, names: Sequence[str]) -> Status:
        scores = tuple(f"{seat_name(i, names)}: {p['total']}" for i, p in enumerate(view["players"]))
        if not view["to_act"]:
            best = [seat_name(w, names) for w in view["winners"]]
            return Status(f"Game over · {' and '.join(best)} win{'s' if len(best) == 1 else ''}", "", scores)
        turn = view["to_act"][0]
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
            lines.append(f"{seat_name(i, names)}: {cards} = {p['total']}" + (" · done" if p["done"] else ""))
        return "\n".join(lines)


class HighCard:
    """The game: the state is plain JSON (deck, hands, done, turn)."""

    id: ClassVar[str] = "highcard"
    title: ClassVar[str] = "High Card"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    max_actions: ClassVar[int] = 4 * 12
    present: ClassVar[Any] = Present

    def setup(self, num_players: int, seed: int, options: JSON | None = None) -> JSON:
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError(f"High Card is for 2-4 players, not {num_players}")
        deck = [v for v in range(1, 11) for _ in range(4)]
        Rng(seed).shuffle(deck)  # the deck's order, kept in the state, is all the game's randomness
        n = num_players
        return {"deck": deck, "hands": [[] for _ in range(n)], "done": [False] * n, "turn": 0}

    def to_act(self, s: JSON) -> tuple[PlayerId, ...]:
        return () if all(s["done"]) else (s["turn"],)

    def legal_actions(self, s: JSON, player: PlayerId) -> list[Action]:
        if player not in self.to_act(s):
            return []
        return [action(player, "draw"), action(player, "pass")] if s["deck"] else [action(player, "pass")]

    def apply(self, s: JSON, a: Action) -> list[Event]:
        if a not in self.legal_actions(s, a.player):
            raise IllegalAction(f"{a.key} is not legal for P{a.player + 1} now")
        p = a.player
        if a.kind == "draw":
            card = s["deck"].pop()
            s["hands"][p].append(card)
            events = [Event("drew", f"P{p + 1} drew a {card} ({_total(s, p)})", irreversible=True)]
            if _total(s, p) >= 21 or not s["deck"]:
                s["done"][p] = True
        else:
            s["done"][p] = True
            events = [Event("passed", f"P{p + 1} stays at {_total(s, p)}")]
        n = len(s["done"])
        s["turn"] = next((q % n for q in range(p + 1, p + 1 + n) if not s["done"][q % n]), p)
        return events

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
            {"hand": list(h), "total": sum(h), "done": d} for h, d in zip(s["hands"], s["done"], strict=True)
        ]
        over = not self.to_act(s)
        return {"game": self.id, "viewer": viewer, "to_act": list(self.to_act(s)), "deck": len(s["deck"]),
                "players": players, "winners": self._winners(s) if over else []}  # fmt: skip

    def describe(self, s: JSON, a: Action) -> tuple[str, ...]:
        return ("Draw a card",) if a.kind == "draw" else ("Pass",)

    def determinize(self, s: JSON, observer: PlayerId, seed: int) -> JSON:
        d = copy.deepcopy(s)
        Rng(seed).shuffle(d["deck"])  # the deck's order is all that nobody can see
        return d

    def to_json(self, s: JSON) -> JSON:
        return copy.deepcopy(s)

    def from_json(self, data: JSON) -> JSON:
        return copy.deepcopy(data)
