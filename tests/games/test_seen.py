"""Every game's `on_table` (engine/games/<id>/present.py, for "inspect any card") at positions of random
games: every card a view shows face up is listed by its catalogue id, zone by zone, the viewer's hand first
and the spectator's none; never a card the viewer may not see (a world resampled from what seat 0 knows
lists the same). Where each game's view keeps its zones is the one thing that differs: a small oracle per
game below. Positions placed by hand (how each card stands now) are in tests/games/<id>/test_seen_<id>.py."""

from __future__ import annotations

import importlib
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from engine import registry
from engine.ai.random_player import RandomPlayer
from engine.core import JSON, PlayerId
from engine.games.ophion.cards import CARDS as OPHION_CARDS
from engine.table.present import Seen, seen_cards


@dataclass(frozen=True)
class Oracle:
    """What differs per game: its seat names, its positions, how its random games are played, what its view
    shows face up and what its hidden cards are."""

    names: list[str]
    positions: list[tuple[int, int, int]]  # (players, seed, random moves)
    shows: Callable[[JSON, list[Seen], PlayerId | None, list[str]], None]  # asserts one view's listing
    hides: Callable[[Any, list[Seen], list[str], int], None]  # seat 0's listing names nothing hidden
    seeded_ai: bool = True  # moves by engine.ai's RandomPlayer, else by random.Random.choice
    worlds: tuple[int, ...] = (0, 1, 2)  # the determinize seeds tried


def present_of(game_id: str) -> Any:
    """The game's present module (engine/games/<id>/present.py)."""
    return importlib.import_module(f"engine.games.{game_id}.present")


def owner(seen: Seen, names: list[str]) -> int:
    """The rank of a listed card's zone in reading order: the viewer's, each seat's, the shared ones."""
    if seen.where.startswith("Your "):
        return -1
    name = seen.where.split(" · ", 1)[0]
    return names.index(name) if name in names else len(names)


def in_reading_order(seen: list[Seen], names: list[str]) -> None:
    """The viewer's zones, then each seat in order, then the shared ones."""
    ranks = [owner(x, names) for x in seen]
    assert ranks == sorted(ranks), "the viewer's zones, then each seat in order, then the shared ones"


# Omphala ----------------------------------------------------------------------------------------------------


def omphala_shows(view: JSON, seen: list[Seen], viewer: PlayerId | None, names: list[str]) -> None:
    """The hand, the known front- and back-row cards, the discard pile's top and the card just played."""
    shown: list[str] = []
    for p in view["players"]:
        shown += p["hand"] or []
        shown += [c for e in p["front_row"] for c in e["cards"] if c is not None]
        shown += [c for e in p["back_row"] or [] for c in e]
    shown += view["discard"][-1:]
    last = (view["last"] or {}).get("card")
    if last is not None and last not in shown:
        shown.append(last)
    assert Counter(x.card for x in seen) == Counter(shown)
    in_reading_order(seen, names)


def omphala_hides(s: Any, seen: list[Seen], names: list[str], moves: int) -> None:
    """Other seats' hands and face-down cards (and, while they choose, their rows) are never listed; a world
    resampled deals them anew unless the game is over or nobody has a face-down card."""
    game, n = registry.get("omphala"), len(s.seats)
    listed = {x.card for x in seen}
    for q in range(1, n):
        hidden = set(s.seats[q].hand) | (set(s.seats[q].secret) if s.phase != "over" else set())
        if s.phase == "choose":
            hidden |= {c for e in s.seats[q].front_row + s.seats[q].back_row for c in e}
        assert not hidden & listed
    resampled = False
    for sample in range(3):
        d = game.determinize(s, 0, sample)
        resampled |= any(
            d.seats[q].hand + d.seats[q].secret != s.seats[q].hand + s.seats[q].secret for q in range(n)
        )
    assert resampled or s.phase == "over" or not any(s.seats[q].secret for q in range(1, n))


# Ophion -----------------------------------------------------------------------------------------------------


def ophion_shows(view: JSON, seen: list[Seen], viewer: PlayerId | None, names: list[str]) -> None:
    """The viewer's hand, every seat's upgrades, grids, cards played and discard pile's top, the market row
    and the top card discarded from it; a market card says its price, a monster its fight, an upgrade what it
    gives."""
    shown: list[str] = []
    for p in view["players"]:
        shown += p["hand"] or []
        shown += [c for c in p["upgrades"] if c is not None]
        shown += p["attack_grid"] + p["defense_grid"] + p["played"] + p["discard"][-1:]
    shown += [m["card"] for m in view["market"] if m is not None]
    shown += view["market_discard"][-1:]
    assert Counter(x.card for x in seen) == Counter(shown)
    in_reading_order(seen, names)
    market = [x for x in seen if x.where == "Market row"]
    assert [x.now.split(" · ")[0] for x in market] == [
        f"Costs {m['price']} gold" for m in view["market"] if m
    ]
    for x in seen:  # a monster gives its fight wherever it lies, an upgrade what it gives
        c = OPHION_CARDS[x.card]
        if c.type == "monster":
            assert f"Attack {c.attack} · Defense {c.defense} · Size {c.size}" in x.now
        if c.type == "upgrade":
            assert f"+{c.amount} {c.effect} every round" in x.now


def ophion_hides(s: Any, seen: list[Seen], names: list[str], moves: int) -> None:
    """Other hands full of Dragons, which no view shows: nothing listed changes."""
    game = registry.get("ophion")
    other = game.from_json(game.to_json(s))
    for p in other.players[1:]:
        p.hand = ["dragon"] * 5
    assert present_of(game.id).on_table(game.view(other, 0), names) == seen
    assert not any("hand" in x.where for x in seen if not x.mine)


# Ophelia ----------------------------------------------------------------------------------------------------


def ophelia_shows(view: JSON, seen: list[Seen], viewer: PlayerId | None, names: list[str]) -> None:
    """Every character in a slot and every card attached to one, listed in a row; no hand for a spectator."""
    if viewer is None:
        assert not any("hand" in x.where for x in seen)
    in_play = Counter(
        card
        for row in view["slots"]
        for u in row
        if u is not None
        for card in [u["card"], *(r["card"] for r in u["attached"])]
    )
    assert in_play == Counter(x.card for x in seen if " row · " in x.where)


def ophelia_hides(s: Any, seen: list[Seen], names: list[str], moves: int) -> None:
    """Nothing listed as the viewer's but the hand, and no other hand."""
    assert not any(x.mine for x in seen if x.where != "Your hand")
    assert not any("hand" in x.where and x.where != "Your hand" for x in seen)


# Ophidian 2350 ----------------------------------------------------------------------------------------------


def ophidian_shows(view: JSON, seen: list[Seen], viewer: PlayerId | None, names: list[str]) -> None:
    """Both fields' characters and the pumps on them, each zone named."""
    assert all(x.where for x in seen)
    fielded = Counter(x.card for x in seen if x.where.endswith("Field"))
    assert fielded == Counter(c["card"] for p in view["players"] for c in p["characters"])
    attached = Counter(x.card for x in seen if x.where.startswith("on "))
    assert attached == Counter(
        u["card"] for p in view["players"] for c in p["characters"] for u in c["pumps"]
    )


def ophidian_hides(s: Any, seen: list[Seen], names: list[str], moves: int) -> None:
    """A card is the viewer's exactly when it is in their hand."""
    assert all(x.mine == (x.where == "Your hand") for x in seen)


# Siege of Olympus -------------------------------------------------------------------------------------------


def siege_shows(view: JSON, seen: list[Seen], viewer: PlayerId | None, names: list[str]) -> None:
    """Each side's field, the Agora and Tartarus, zone by zone."""

    def at(where: str) -> Counter[str]:
        return Counter(x.card for x in seen if x.where == where)

    for p in view["players"]:
        field = "Your field" if p["seat"] == viewer else f"{names[p['seat']]} · field"
        assert at(field) == Counter(m["card"] for m in p["minions"])
    assert at("Agora") == Counter(view["agora"])
    assert at("Tartarus") == Counter(m["card"] for m in view["tartarus"])


def siege_hides(s: Any, seen: list[Seen], names: list[str], moves: int) -> None:
    """The opponent's hand is never listed, and a world resampled deals it anew (once anything is played)."""
    game = registry.get("siege_of_olympus")
    assert not set(s.sides[1].hand) & {x.card for x in seen}
    resampled = any(game.determinize(s, 0, k).sides[1].hand != s.sides[1].hand for k in range(3))
    assert resampled or not moves, "the opponent's hand is dealt anew"


ORACLES = {
    "omphala": Oracle(
        ["Ada", "Bo", "Cy", "Dee", "Eve", "Flo"],
        # the face-down choice, its first picks, early and late play, the end
        [(2, 1, 0), (2, 2, 1), (3, 3, 2), (2, 4, 30), (2, 5, 150), (3, 6, 60), (4, 7, 120), (6, 8, 3000)],
        omphala_shows,
        omphala_hides,
    ),
    "ophion": Oracle(
        ["Ada", "Bo", "Cy", "Dee"],
        # round 1, mid-game (Tier 2 for some), the end
        [(2, 1, 0), (2, 2, 7), (3, 3, 25), (4, 4, 60), (2, 5, 120), (3, 6, 2000)],
        ophion_shows,
        ophion_hides,
    ),
    "ophelia": Oracle(
        ["Ada", "AI 2"],
        [(2, seed, moves) for seed in range(4) for moves in (0, 15, 40, 90)],
        ophelia_shows,
        ophelia_hides,
        seeded_ai=False,
    ),
    "ophidian": Oracle(
        ["Ada", "Bo"],
        [(2, seed, moves) for seed in (1, 2, 3) for moves in (0, 25, 70, 140)],
        ophidian_shows,
        ophidian_hides,
        worlds=(5, 6, 7),
    ),
    "siege_of_olympus": Oracle(
        ["Ada", "AI 2"],
        [(2, seed, moves) for seed in (1, 2, 3, 4) for moves in (0, 15, 60, 150)],
        siege_shows,
        siege_hides,
        seeded_ai=False,
    ),
}
CASES = [(g, *p) for g, o in ORACLES.items() for p in o.positions]


def played(game_id: str, n: int, seed: int, moves: int) -> Any:
    """A game after `moves` random moves (fewer if it ends first)."""
    game: Any = registry.get(game_id)  # every game here is a table game, with is_over
    s = game.setup(n, seed)
    ai, rng = RandomPlayer(seed), random.Random(seed)
    for _ in range(moves):
        if game.is_over(s) or not game.to_act(s):
            break
        seat = game.to_act(s)[0]
        if ORACLES[game_id].seeded_ai:
            game.apply(s, ai.choose(game, s, seat))
        else:
            game.apply(s, rng.choice(game.legal_actions(s, seat)))
    return s


def test_every_game_has_an_oracle() -> None:
    assert sorted(ORACLES) == sorted(registry.games())


@pytest.mark.parametrize(("game_id", "n", "seed", "moves"), CASES)
def test_on_table_lists_exactly_what_each_view_shows(game_id: str, n: int, seed: int, moves: int) -> None:
    game, oracle = registry.get(game_id), ORACLES[game_id]
    present = present_of(game.id)
    ids = {e.id for e in present.catalogue()}
    s = played(game_id, n, seed, moves)
    for viewer in [None, *range(n)]:
        view = game.view(s, viewer)
        seen = present.on_table(view, oracle.names)
        assert seen == seen_cards(present, view, oracle.names)
        assert all(x.card in ids for x in seen)
        assert all(len(x.now) < 90 for x in seen)
        hand = (view["players"][viewer]["hand"] or []) if viewer is not None else []
        assert [x.card for x in seen if x.mine] == hand
        assert all(x.where == "Your hand" for x in seen if x.mine)
        assert [x.mine for x in seen] == [True] * len(hand) + [False] * (len(seen) - len(hand)), "hand first"
        if viewer is None:
            assert not any(x.mine or x.where.startswith("Your") for x in seen)
        oracle.shows(view, seen, viewer, oracle.names)


@pytest.mark.parametrize("game_id", sorted(ORACLES))
def test_on_table_never_names_a_hidden_card(game_id: str) -> None:
    game, oracle = registry.get(game_id), ORACLES[game_id]
    present = present_of(game.id)
    dealt_anew = False
    for n, seed, moves in oracle.positions:
        s = played(game_id, n, seed, moves)
        seen = present.on_table(game.view(s, 0), oracle.names)
        for world in oracle.worlds:
            d = game.determinize(s, 0, world)
            dealt_anew |= game.to_json(d) != game.to_json(s)
            assert present.on_table(game.view(d, 0), oracle.names) == seen
        oracle.hides(s, seen, oracle.names, moves)
    assert dealt_anew, "determinize dealt something hidden anew at least once"
