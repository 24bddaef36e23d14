"""Omphala's cards on the table (present.on_table) at positions placed by hand: how each card stands now,
what the opponent never sees, the card just played (random games of every game: tests/games/test_seen.py)."""

from __future__ import annotations

from engine import registry
from engine.games.omphala import present
from engine.games.omphala.state import OmphalaState, Seat
from engine.table.present import Seen

game = registry.get("omphala")
NAMES = ["Ada", "Bo", "Cy", "Dee", "Eve", "Flo"]


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
