"""Ophion's cards on the table (present.on_table) at a position placed by hand: a monster's fight with a
Dragon's bonus, what upgrades give and the market's prices (random games of every game:
tests/games/test_seen.py)."""

from __future__ import annotations

from engine import registry
from engine.games.ophion import present

game = registry.get("ophion")
NAMES = ["Ada", "Bo", "Cy", "Dee"]


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
