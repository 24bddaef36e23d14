"""Ophion's cards on the table (present.on_table): every card a view shows face up, zone by zone, and how
each stands now; never a card in another player's hand."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import registry
from engine.ai.random_player import RandomPlayer
from engine.core import JSON
from engine.games.ophion import present
from engine.games.ophion.cards import CARDS
from engine.games.ophion.state import OphionState
from engine.table.present import Seen, seen_cards

game = registry.get("ophion")
NAMES = ["Ada", "Bo", "Cy", "Dee"]
IDS = {e.id for e in present.catalogue()}
# (players, seed, random moves): round 1, mid-game (Tier 2 for some), the end.
POSITIONS = [(2, 1, 0), (2, 2, 7), (3, 3, 25), (4, 4, 60), (2, 5, 120), (3, 6, 2000)]


def played(n: int, seed: int, moves: int) -> OphionState:
    """A game after `moves` random moves (fewer if it ends first)."""
    s = game.setup(n, seed)
    ai = RandomPlayer(seed)
    for _ in range(moves):
        if game.is_over(s):
            break
        game.apply(s, ai.choose(game, s, game.to_act(s)[0]))
    return s


def face_up(view: JSON) -> Counter[str]:
    """The cards a view shows, read straight from it: the viewer's hand, every seat's upgrades, grids, cards
    played and discard pile's top, the market row and the top card discarded from it."""
    shown: list[str] = []
    for p in view["players"]:
        shown += p["hand"] or []
        shown += [c for c in p["upgrades"] if c is not None]
        shown += p["attack_grid"] + p["defense_grid"] + p["played"] + p["discard"][-1:]
    shown += [m["card"] for m in view["market"] if m is not None]
    shown += view["market_discard"][-1:]
    return Counter(shown)


def owner(seen: Seen) -> int:
    """The rank of a listed card's zone in reading order: the viewer's, each seat's, the shared ones."""
    if seen.where.startswith("Your "):
        return -1
    name = seen.where.split(" · ", 1)[0]
    return NAMES.index(name) if name in NAMES else len(NAMES)


@pytest.mark.parametrize(("n", "seed", "moves"), POSITIONS)
def test_on_table_lists_exactly_what_each_view_shows(n: int, seed: int, moves: int) -> None:
    s = played(n, seed, moves)
    for viewer in [None, *range(n)]:
        view = game.view(s, viewer)
        seen = present.on_table(view, NAMES)
        assert seen == seen_cards(present, view, NAMES)
        assert all(x.card in IDS for x in seen)
        assert Counter(x.card for x in seen) == face_up(view)
        assert all(len(x.now) < 90 for x in seen)
        hand = (view["players"][viewer]["hand"] or []) if viewer is not None else []
        assert [x.card for x in seen if x.mine] == hand
        assert all(x.where == "Your hand" for x in seen if x.mine)
        assert [x.mine for x in seen] == [True] * len(hand) + [False] * (len(seen) - len(hand))
        ranks = [owner(x) for x in seen]
        assert ranks == sorted(ranks), "the viewer's zones, then each seat in order, then the shared ones"
        market = [x for x in seen if x.where == "Market row"]
        assert [x.now.split(" · ")[0] for x in market] == [
            f"Costs {m['price']} gold" for m in view["market"] if m
        ]
        for x in seen:  # a monster gives its fight wherever it lies, an upgrade what it gives
            c = CARDS[x.card]
            if c.type == "monster":
                assert f"Attack {c.attack} · Defense {c.defense} · Size {c.size}" in x.now
            if c.type == "upgrade":
                assert f"+{c.amount} {c.effect} every round" in x.now
        if viewer is None:
            assert not any(x.mine or x.where.startswith("Your") for x in seen)


@pytest.mark.parametrize(("n", "seed", "moves"), POSITIONS)
def test_on_table_never_names_a_hidden_card(n: int, seed: int, moves: int) -> None:
    s = played(n, seed, moves)
    seen = present.on_table(game.view(s, 0), NAMES)
    for sample in range(3):
        d = game.determinize(s, 0, sample)
        assert present.on_table(game.view(d, 0), NAMES) == seen
    # Other hands full of Dragons, which no view shows: nothing listed changes.
    other = game.from_json(game.to_json(s))
    for p in other.players[1:]:
        p.hand = ["dragon"] * 5
    assert present.on_table(game.view(other, 0), NAMES) == seen
    assert not any("hand" in x.where for x in seen if not x.mine)


def test_now_gives_a_monsters_fight_with_a_dragons_bonus_and_what_upgrades_and_prices_are() -> None:
    s = game.setup(2, 1)
    ada, bo = s.players
    ada.attack, ada.upgrades[1] = ["dragon"], "gold2_up"
    bo.defense = ["goblin", "ogre"]
    legal = {a.key: a for a in game.legal_actions(s, 0)}
    game.apply(s, legal["eat:p=1:g=d:b=a"])  # Ada's Dragon eats Bo's Goblin: +2 attack this round
    view = game.view(s, 1)
    seen = [(x.card, x.where, x.now) for x in present.on_table(view, NAMES)]
    hand = len(bo.hand)
    assert [where for _, where, _ in seen[:hand]] == ["Your hand"] * hand
    assert seen[hand : hand + 5] == [
        ("goblin", "Your upgrade slots", "Attack 1 · Defense 1 · Size 1 · summon for 2 mana · worth 1 VP"),
        ("ogre", "Your defense grid", "Attack 0 · Defense 4 · Size 4"),
        ("goblin", "Ada · upgrade slots", "Attack 1 · Defense 1 · Size 1 · summon for 2 mana · worth 1 VP"),
        ("gold2_up", "Ada · upgrade slots", "+2 gold every round · worth 1 VP"),
        ("dragon", "Ada · attack grid", "Attack 6 · Defense 5 · Size 6 · grid attack 8 (+2 from a Dragon)"),
    ]
    card, where, now = seen[hand + 5]
    first = view["market"][0]
    assert (card, where) == (first["card"], "Market row") and now.startswith(f"Costs {first['price']} gold")
