"""Omphala's cards on the table (present.on_table): every card a view shows face up, zone by zone, and how
each stands now; never a card the viewer may not see."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import registry
from engine.ai.random_player import RandomPlayer
from engine.core import JSON
from engine.games.omphala import present
from engine.games.omphala.state import OmphalaState, Seat
from engine.table.present import Seen, seen_cards

game = registry.get("omphala")
NAMES = ["Ada", "Bo", "Cy", "Dee", "Eve", "Flo"]
IDS = {e.id for e in present.catalogue()}
# (players, seed, random moves): the face-down choice, its first picks, early and late play, the end.
POSITIONS = [(2, 1, 0), (2, 2, 1), (3, 3, 2), (2, 4, 30), (2, 5, 150), (3, 6, 60), (4, 7, 120), (6, 8, 3000)]


def played(n: int, seed: int, moves: int) -> OmphalaState:
    """A game after `moves` random moves (fewer if it ends first)."""
    s = game.setup(n, seed)
    ai = RandomPlayer(seed)
    for _ in range(moves):
        if game.is_over(s):
            break
        game.apply(s, ai.choose(game, s, game.to_act(s)[0]))
    return s


def face_up(view: JSON) -> Counter[str]:
    """The cards a view shows, read straight from it: the hand, the known front- and back-row cards, the
    discard pile's top and the card just played."""
    shown: list[str] = []
    for p in view["players"]:
        shown += p["hand"] or []
        shown += [c for e in p["front_row"] for c in e["cards"] if c is not None]
        shown += [c for e in p["back_row"] or [] for c in e]
    shown += view["discard"][-1:]
    last = (view["last"] or {}).get("card")
    if last is not None and last not in shown:
        shown.append(last)
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
        if viewer is None:
            assert not any(x.mine or x.where.startswith("Your") for x in seen)


@pytest.mark.parametrize(("n", "seed", "moves"), POSITIONS)
def test_on_table_never_names_a_hidden_card(n: int, seed: int, moves: int) -> None:
    s = played(n, seed, moves)
    seen = present.on_table(game.view(s, 0), NAMES)
    listed = {x.card for x in seen}
    for q in range(1, n):
        hidden = set(s.seats[q].hand) | (set(s.seats[q].secret) if s.phase != "over" else set())
        if s.phase == "choose":
            hidden |= {c for e in s.seats[q].front_row + s.seats[q].back_row for c in e}
        assert not hidden & listed
    resampled = False
    for sample in range(3):
        d = game.determinize(s, 0, sample)
        assert present.on_table(game.view(d, 0), NAMES) == seen
        resampled |= any(
            d.seats[q].hand + d.seats[q].secret != s.seats[q].hand + s.seats[q].secret for q in range(n)
        )
    assert resampled or s.phase == "over" or not any(s.seats[q].secret for q in range(1, n))


def position() -> OmphalaState:
    """Ada (P1) has 2♣ face down, shielded with 9♦, and 3♣ face down; K♣ and 5♥ in her back row. Bo has 4♣
    and 5♣ face down and 7♠ in his back row."""
    s = game.setup(2, 1)
    s.seats = [
        Seat(
            front_row=[["2C", "9D"], ["3C"]], front_ids=[1, 2], back_row=[["KC"], ["5H"]], secret=["2C", "3C"]
        ),
        Seat(front_row=[["4C"], ["5C"]], front_ids=[3, 4], back_row=[["7S"]], secret=["4C", "5C"]),
    ]
    s.deck, s.decisions, s.next_uid = ["2D", "3D", "4D"], [], 4
    s.phase, s.stage, s.current, s.actions_left, s.turn = "play", "act", 0, 2, 3
    return s


def do(s: OmphalaState, key: str) -> None:
    legal = {a.key: a for a in game.legal_actions(s, s.current)}
    assert key in legal, sorted(legal)
    game.apply(s, legal[key])


def test_now_tells_an_enhanced_or_shielded_card_by_its_power() -> None:
    s = position()
    do(s, "enhance:c=5H:t=KC")
    assert ("KC", "Your back row", "enhanced with 5♥: power 18") in [
        (x.card, x.where, x.now) for x in present.on_table(game.view(s, 0), NAMES)
    ]
    do(s, "attack:c=KC:p=1:t=3")  # 18 against 4: the 4♣ falls, K♣+5♥ retires to Ada's front row
    ada = [(x.card, x.where, x.now) for x in present.on_table(game.view(s, 0), NAMES)]
    assert ada == [
        ("2C", "Your front row", "front card 1 · face down · shielded with 9♦: power 11"),
        ("9D", "Your front row", "front card 1 · shielding 2♣: power 11"),
        ("3C", "Your front row", "front card 2 · face down"),
        ("KC", "Your front row", "front card 3 · enhanced with 5♥: power 18"),
        ("5H", "Your front row", "front card 3 · enhancing K♣: power 18"),
        ("4D", "Your back row", ""),  # drawn at the end of her turn; Bo's 5♣ is face down
        ("7S", "Bo · back row", ""),
        ("3D", "Bo · back row", ""),  # drawn before his turn
        ("4C", "Discard pile (top)", "1 card in the pile"),
    ]
    bo = [(x.card, x.where, x.now) for x in present.on_table(game.view(s, 1), NAMES)]
    assert ("9D", "Ada · front row", "front card 1 · shielding a face-down card") in bo
    assert ("KC", "Ada · front row", "front card 3 · enhanced with 5♥: power 18") in bo
    assert ("4C", "Discard pile (top)", "1 card in the pile") in bo
    assert not {"2C", "3C"} & {card for card, _, _ in bo}, "Ada's face-down cards"


def test_the_card_just_played_comes_last_when_it_is_nowhere_else() -> None:
    view = game.view(position(), 1)
    view["last"] = {"player": 0, "kind": "enhance", "card": "QH", "text": "P1 enhances J♥ with Q♥: power 23"}
    seen = present.on_table(view, NAMES)
    assert seen[-1] == Seen("QH", "Just played", "Ada enhances J♥ with Q♥: power 23")
    view["last"]["card"] = "7S"  # Bo's own back-row card: already listed
    assert [x.card for x in present.on_table(view, NAMES)].count("7S") == 1
