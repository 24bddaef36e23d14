"""The dataclass JSON codec every game's state uses."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from engine import jsonstate
from engine.rng import Rng


@dataclass
class Part:
    """A nested dataclass, as a game's seat or player."""

    cards: list[list[str]] = field(default_factory=list)
    slot: str | None = None


@dataclass
class Whole:
    """A state with every kind of field a game uses."""

    rng: Rng
    parts: list[Part]
    market: list[str | None]
    last: dict[str, Any] | None = None
    log: list[list[Any]] = field(default_factory=list)


def test_round_trip_is_exact_and_shares_nothing() -> None:
    """to_json(from_json(d)) == d, through real JSON text, and the copies are independent."""
    rng = Rng(5)
    rng.next64()
    w = Whole(rng, [Part([["KC", "5H"]], "goblin"), Part()], ["a", None], {"target": {"i": 1}}, [["x", None]])
    data = jsonstate.to_json(w)
    again = jsonstate.from_json(Whole, json.loads(json.dumps(data)))
    assert jsonstate.to_json(again) == data
    assert isinstance(again.rng, Rng) and again.rng.counter == 1 and isinstance(again.parts[0], Part)
    again.parts[0].cards[0].append("QD")
    assert again.last is not None
    again.last["target"]["i"] = 9
    assert w.parts[0].cards[0] == ["KC", "5H"] and w.last == {"target": {"i": 1}}
    data["parts"][0]["cards"][0].append("2C")  # nor does the JSON share with the state it came from
    assert w.parts[0].cards[0] == ["KC", "5H"]
    fresh = jsonstate.to_json(w)
    rebuilt = jsonstate.from_json(Whole, fresh)
    rebuilt.parts[0].cards[0].append("3C")
    rebuilt.log[0].append("y")
    assert fresh["parts"][0]["cards"][0] == ["KC", "5H"] and fresh["log"] == [["x", None]]
