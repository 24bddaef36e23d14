"""Ophion's rules, each test quoting the sentence of shared/rules/ophion.txt (or RULINGS.md) it checks."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core import Action, IllegalAction
from engine.games.ophion.cards import CARDS, tier_deck
from engine.games.ophion.rules import Ophion
from engine.games.ophion.state import OphionState

game = Ophion()


def fresh(n: int = 2, seed: int = 1) -> OphionState:
    """A new game at the start of round 1, with known hands: every hand is gold1, gold1, vp1."""
    s = game.setup(n, seed)
    for p in s.players:
        p.deck = sorted(p.deck + p.hand)
        p.hand = ["gold1", "gold1", "vp1"]
        for c in p.hand:
            p.deck.remove(c)
    return s


def do(s: OphionState, player: int, key: str) -> list[str]:
    """Play the legal action with this key; return the event texts."""
    legal = {a.key: a for a in game.legal_actions(s, player)}
    assert key in legal, f"{key} not in {sorted(legal)}"
    return [e.text for e in game.apply(s, legal[key])]


def deal_row(s: OphionState, cards: list[str | None]) -> None:
    """Put these cards in the market row (slot 1 first), as new instances."""
    s.market = [None if c is None else s.mint(c) for c in cards]


def row(s: OphionState) -> list[str | None]:
    """The cards of the market row, slot 1 first."""
    return [None if c is None else c.card for c in s.market]


def uid(s: OphionState, slot: int) -> int:
    """The uid of the card in a market slot, which buy keys name."""
    card = s.market[slot]
    assert card is not None
    return card.uid


def keys(s: OphionState, player: int) -> set[str]:
    return {a.key for a in game.legal_actions(s, player)}


def finish_round(s: OphionState) -> None:
    """Everyone passes until the next round begins (or the game ends)."""
    r = s.round
    while s.round == r and s.phase != "over":
        do(s, s.current, "pass")


# -- cards and setup -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cid", "cost", "size", "attack", "defense", "tier", "number"),
    [
        ("suumpmolk", 3, 2, 2, 2, 1, 3),
        ("goblin", 2, 1, 1, 1, 1, 3),
        ("archer", 4, 2, 3, 2, 2, 3),
        ("ogre", 5, 4, 0, 4, 2, 3),
        ("troll", 3, 4, 3, 0, 1, 3),
        ("dragon", 8, 6, 6, 5, 2, 3),
    ],
)
def test_monster_table(
    cid: str, cost: int, size: int, attack: int, defense: int, tier: int, number: int
) -> None:
    """ "Name Cost Size Attack Defense Ability Tier Number" (the table read column by column, RULINGS 2)."""
    c = CARDS[cid]
    assert (c.type, c.cost, c.size, c.attack, c.defense, c.tier, c.count) == (
        "monster",
        cost,
        size,
        attack,
        defense,
        tier,
        number,
    )


def test_action_card_table_and_tier_decks() -> None:
    """ "+1 Action Points until end of turn 4 1 4 / +2 Mana 5 1 4 / +2 Mana Upgrade 4 2 4 / +1 Gold until
    end of turn 1 1 6 / +2 Gold until end of turn 3 1 8 / +3 Gold until end of turn 4 2 8 / +1 Gold upgrade
    2 1 4 / +2 Gold upgrade 4 1 4 / +3 Gold upgrade 7 2 4" and "Tier 1 deck consists of cards belonging to the
    tier 1." """
    table = {
        "ap1": (4, 1, 4),
        "mana2": (5, 1, 4),
        "mana2_up": (4, 2, 4),
        "gold1": (1, 1, 6),
        "gold2": (3, 1, 8),
        "gold3": (4, 2, 8),
        "gold1_up": (2, 1, 4),
        "gold2_up": (4, 1, 4),
        "gold3_up": (7, 2, 4),
    }
    for cid, printed in table.items():
        assert (CARDS[cid].cost, CARDS[cid].tier, CARDS[cid].count) == printed
    assert CARDS["archer"].mana == 5, "Skeleton Archer: 'Mana Cost 5'"
    assert len(tier_deck(1)) == 39 and len(tier_deck(2)) == 25
    assert all(CARDS[c].tier == 1 for c in tier_deck(1)) and all(CARDS[c].tier == 2 for c in tier_deck(2))
    s = game.setup(3, 5)
    assert Counter(s.tier1 + [c for c in row(s) if c]) == Counter(tier_deck(1))
    assert Counter(s.tier2) == Counter(tier_deck(2))


def test_starting_deck_and_first_draw() -> None:
    """ "Every player has their own starting deck that consists of 6 +1 Gold Cards and 4 +1VP cards." and
    "Players draw three cards from their respective decks." """
    s = game.setup(4, 9)
    for p in s.players:
        assert Counter(p.deck + p.hand) == Counter({"gold1": 6, "vp1": 4})
        assert len(p.hand) == 3 and len(p.deck) == 7


def test_mana_starts_at_two_and_the_castle_pays() -> None:
    """ "Every player sets their mana to 2 points." and
    "Castle. Gives player 1 gold and 1 mana every turn." """
    s = game.setup(2, 3)
    assert all(p.mana == 2 + 1 and p.gold == 1 for p in s.players)
    assert all(p.upgrades == ["goblin", None, None] for p in s.players), "Player starts with Goblin upgrade."


def test_two_player_market_surcharges() -> None:
    """ "In two player game furthest card doesn't have any additional cost when bought. Next two cards cost
    1 extra gold. The fourth card (closest to the deck) cost 2 extra gold." """
    s = game.setup(2, 4)
    row = game.view(s, None)["market"]
    assert len(row) == 4
    assert [m["price"] - CARDS[m["card"]].cost for m in row] == [0, 1, 1, 2]


@pytest.mark.parametrize("n", [3, 4])
def test_three_and_four_player_market_surcharges(n: int) -> None:
    """ "In 6 player game two furthest cards doesn't have any additional cost when bought. Next two cards
    cost 1 extra gold. The two last cards (closest to the deck) cost 2 extra gold." (RULINGS 1)"""
    row = game.view(game.setup(n, 4), None)["market"]
    assert len(row) == 6
    assert [m["price"] - CARDS[m["card"]].cost for m in row] == [0, 0, 1, 1, 2, 2]


# -- buying and the row --------------------------------------------------------------------------


def test_buy_discards_last_slides_and_refills() -> None:
    """ "After card is bought, last card from the row is discarded if it wasn't bought. Remaining cards are
    pushed to the cheaper slots on the row. The extra cost slots are refreshed from the remaining deck." """
    s = fresh(2)
    deal_row(s, ["gold1", "gold2", "mana2", "troll"])
    s.tier1 = ["ap1", "goblin", "gold1_up"]  # top last
    s.players[0].gold = 4
    do(s, 0, f"buy:c={uid(s, 1)}")
    assert row(s) == ["gold1", "mana2", "gold1_up", "goblin"]
    assert s.market_discard == ["troll"]
    assert s.players[0].gold == 0, "+2 Gold costs 3, plus 1 in the second slot"
    assert s.players[0].discard == ["gold2"], "a bought action card goes to the discard pile (RULINGS 9)"


def test_buying_the_last_card_discards_nothing_else() -> None:
    """ "last card from the row is discarded if it wasn't bought" """
    s = fresh(2)
    deal_row(s, ["gold1", "gold2", "mana2", "gold1"])
    s.tier1 = ["ap1"]
    s.players[0].gold = 3
    do(s, 0, f"buy:c={uid(s, 3)}")
    assert row(s) == ["gold1", "gold2", "mana2", "ap1"] and s.market_discard == []


def test_last_card_discarded_even_when_the_deck_ran_out() -> None:
    """ "After card is bought, last card from the row is discarded if it wasn't bought." The last card is
    the one nearest the deck, even when the deck ran out and the slots beyond it are empty (RULINGS 10)."""
    s = fresh(2)
    deal_row(s, ["gold1", "gold2", "mana2", None])
    s.tier1 = []
    s.players[0].gold = 1
    do(s, 0, f"buy:c={uid(s, 0)}")
    assert row(s) == ["gold2", None, None, None] and s.market_discard == ["mana2"]
    s.players[1].gold = 3
    do(s, 1, f"buy:c={uid(s, 0)}")
    assert row(s) == [None] * 4 and s.market_discard == ["mana2"], "the bought card was the last one"


def test_a_key_names_the_same_card_after_the_row_slides() -> None:
    """Action keys name card instances, never positions (DESIGN.md, "The table"): after the row slides,
    a key still legal names the card it named before, at its new price."""
    s = fresh(2)
    deal_row(s, ["gold1", "gold2", "mana2", "troll"])
    s.tier1 = ["gold3"]
    s.players[0].gold, s.players[1].gold = 1, 6
    mana2 = uid(s, 2)
    do(s, 0, f"buy:c={uid(s, 0)}")
    assert row(s)[1] == "mana2" and uid(s, 1) == mana2, "slid one slot to the cheaper end"
    do(s, 1, f"buy:c={mana2}")
    assert s.players[1].discard[-1] == "mana2"
    assert s.players[1].gold == 0, "5 gold + 1 in slot 2 (it was 5 + 1 in slot 3 too)"


def test_an_empty_tier_deck_leaves_slots_empty() -> None:
    """RULINGS 10: "The extra cost slots are refreshed from the remaining deck"; with none left, they stay
    empty."""
    s = fresh(2)
    deal_row(s, ["gold1", "gold2", "mana2", "troll"])
    s.tier1 = []
    s.players[0].gold = 1
    do(s, 0, f"buy:c={uid(s, 0)}")
    assert row(s) == ["gold2", "mana2", None, None]
    assert game.view(s, None)["market"][2] is None


def test_price_needs_gold() -> None:
    """ "Cost = Cost of the card" plus the slot's extra gold: a player cannot buy what they cannot pay."""
    s = fresh(2)
    deal_row(s, ["gold2", "gold2", "gold2", "gold2"])
    s.players[0].gold = 3
    assert {k for k in keys(s, 0) if k.startswith("buy")} == {f"buy:c={uid(s, 0)}"}
    with pytest.raises(IllegalAction):
        game.apply(s, Action(0, "buy", (("c", uid(s, 1)),)))


def test_bought_monster_goes_to_a_slot_with_a_free_summon() -> None:
    """ "If monster card or upgrade card is bought, player can put it straight to the upgrade slot and gets
    benefit that card has immediately. In case of monster, he can summon one moster of that type without
    paying its mana cost by placing an appropriate monster token to defenense or attack monster grid." """
    s = fresh(2)
    deal_row(s, ["troll", "gold1", "gold1", "gold1"])
    me = s.players[0]
    me.gold, mana = 3, me.mana
    options = {k for k in keys(s, 0) if k.startswith(f"buy:c={uid(s, 0)}")}
    assert f"buy:c={uid(s, 0)}:s=1:g=a" in options and f"buy:c={uid(s, 0)}:s=1:g=-" in options
    do(s, 0, f"buy:c={uid(s, 0)}:s=1:g=a")
    assert me.upgrades == ["goblin", "troll", None]
    assert me.attack == ["troll"] and me.mana == mana, "no mana paid"
    assert me.ap == 4 and me.summoned


def test_upgrades_replace_and_pay_at_once_and_every_round() -> None:
    """ "Upgrade cards are played to the three upgrade slots. (Upper part of the player board). Player can
    replace old upgrade cards with new ones." (RULINGS 9: the benefit comes at once and every round)"""
    s = fresh(2)
    deal_row(s, ["gold2_up", "gold1", "gold1", "gold1"])
    me = s.players[0]
    me.gold = 4
    first = f"buy:c={uid(s, 0)}"
    assert {k for k in keys(s, 0) if k.startswith(first)} == {f"{first}:s={i}" for i in range(3)}
    do(s, 0, f"buy:c={uid(s, 0)}:s=0")
    assert me.upgrades == ["gold2_up", None, None], "the Goblin upgrade is replaced"
    assert me.gold == 2, "+2 gold at once"
    do(s, 1, "play:c=-")
    assert not any(k.startswith("summon") for k in keys(s, 0)), "no Goblin in a slot any more"
    finish_round(s)
    assert me.gold == 1 + 2, "castle plus the upgrade"


# -- playing cards -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "drawn"),
    [("play:c=-", 3), ("play:c=gold1", 2), ("play:c=gold1+gold1", 2), ("play:c=gold1+gold1+vp1", 1)],
)
def test_draw_table(key: str, drawn: int) -> None:
    """ "*If 3 card was played, draw 1 card *If 1 card was played, draw 2 card *If 0 card was played, draw 3
    card" (RULINGS 13: 2 played draws 2, and one AP plays up to 3 cards)"""
    s = fresh(2)
    me = s.players[0]
    before, deck = len(me.hand), len(me.deck)
    played = 0 if key.endswith("-") else key.count("+") + 1
    do(s, 0, key)
    assert len(me.deck) == deck - drawn and len(me.hand) == before - played + drawn
    assert me.ap == 4


def test_played_cards_give_their_benefit() -> None:
    """ "+1 Gold until end of turn", "+2 Mana", "+1 Action Points until end of turn" and the "+1VP" cards."""
    s = fresh(2)
    me = s.players[0]
    me.hand = ["ap1", "gold2", "mana2", "vp1"]
    gold, mana = me.gold, me.mana
    do(s, 0, "play:c=ap1+gold2+vp1")
    assert me.gold == gold + 2 and me.vp == 1 and me.ap == 5, "the +1 AP pays back the play"
    assert me.played == ["ap1", "gold2", "vp1"], "played cards stay out until the round ends (RULINGS 13)"
    do(s, 1, "pass")
    do(s, 0, "play:c=mana2")
    assert me.mana == mana + 2


def test_empty_deck_reshuffles_the_discard() -> None:
    """RULINGS 14: a draw from an empty deck shuffles the discard pile into a new deck."""
    s = fresh(2)
    me = s.players[0]
    me.deck, me.discard = ["gold1"], ["vp1", "vp1", "gold2"]
    do(s, 0, "play:c=-")
    assert me.discard == [] and len(me.deck) == 1 and len(me.hand) == 6


def test_hand_and_played_cards_are_discarded_at_the_end_of_the_round() -> None:
    """RULINGS 14: "At the end of the round the hand and the played cards go to the discard pile." """
    s = fresh(2)
    me = s.players[0]
    me.deck = ["gold2"] * 5
    do(s, 0, "play:c=vp1")
    finish_round(s)
    assert me.discard == ["vp1", "gold1", "gold1", "gold2", "gold2"]
    assert me.played == [] and me.hand == ["gold2"] * 3 and me.deck == []


# -- summoning -----------------------------------------------------------------------------------


def test_summon_pays_the_mana_cost() -> None:
    """ "After paying the mana cost, player can put a monster token to the defense or attack grid."
    (RULINGS 11: the mana cost is the card's cost)"""
    s = fresh(2)
    me = s.players[0]
    me.mana = 2
    assert {k for k in keys(s, 0) if k.startswith("summon")} == {"summon:m=goblin:g=a", "summon:m=goblin:g=d"}
    do(s, 0, "summon:m=goblin:g=d")
    assert me.defense == ["goblin"] and me.mana == 0 and me.ap == 4
    do(s, 1, "pass")
    assert not any(k.startswith("summon") for k in keys(s, 0)), "no mana, no summon"


def test_skeleton_archer_costs_five_mana() -> None:
    """ "Skeleton Archer ... Mana Cost 5" """
    s = fresh(2)
    me = s.players[0]
    me.upgrades = ["archer", None, None]
    me.mana = 4
    assert not any(k.startswith("summon") for k in keys(s, 0))
    me.mana = 5
    assert "summon:m=archer:g=a" in keys(s, 0)


def test_grids_hold_size_six() -> None:
    """RULINGS 12: each grid holds monsters of total Size at most 6."""
    s = fresh(2)
    me = s.players[0]
    me.upgrades = ["goblin", "troll", None]
    me.mana = 20
    me.attack = ["troll", "goblin"]  # size 5
    options = {k for k in keys(s, 0) if k.startswith("summon")}
    assert "summon:m=goblin:g=a" in options and "summon:m=troll:g=a" not in options
    assert "summon:m=troll:g=d" in options
    assert game.view(s, 0)["players"][0]["attack_used"] == 5


def test_ap_with_and_without_a_summon() -> None:
    """ "Every player has 3 Action Points (AP) at the beginning of the round. If player haven't summoned any
    monsters he gets 2 extra Action points." (RULINGS 5: in the previous round) and "Action points do not
    persist to next round" """
    s = fresh(2)
    assert [p.ap for p in s.players] == [5, 5]
    do(s, 0, "summon:m=goblin:g=a")
    finish_round(s)
    assert [p.ap for p in s.players] == [3, 5]
    finish_round(s)
    assert [p.ap for p in s.players] == [5, 5]


def test_mana_persists_gold_does_not() -> None:
    """ "Mana track. Mana persists between rounds" (RULINGS 7: gold is lost at the end of the round)"""
    s = fresh(2)
    me = s.players[0]
    me.gold, me.mana = 7, 9
    finish_round(s)
    assert me.mana == 10 and me.gold == 1


# -- converting ----------------------------------------------------------------------------------


def test_convert_table_both_ways() -> None:
    """ "Convert table. Convert 2 gold to 1 mana. Or 3 mana to 1 gold." (RULINGS 8: free, no cap)"""
    s = fresh(2)
    me = s.players[0]
    me.gold, me.mana = 2, 3
    do(s, 0, "convert:to=mana")
    assert (me.gold, me.mana, me.ap, s.current) == (0, 4, 5, 0), "no AP, still my turn"
    do(s, 0, "convert:to=gold")
    assert (me.gold, me.mana) == (1, 1)
    me.gold, me.mana = 10, 30
    for _ in range(8):
        do(s, 0, "convert:to=gold")
    assert (me.gold, me.mana) == (18, 6), "the rules set no limit"
    while me.gold >= 2 or me.mana >= 3:
        do(s, 0, "convert:to=mana" if me.gold >= 2 else "convert:to=gold")
    assert not any(k.startswith("convert") for k in keys(s, 0)), "every conversion loses value: it stops"


def test_no_conversion_after_the_last_action_point() -> None:
    """ "Convert table." is a free move in one's own turn, and the turn passes when the last AP is spent
    (RULINGS 8): gold left then is lost at the end of the round ("Gold lasts one round", RULINGS 7)."""
    s = fresh(2)
    me = s.players[0]
    me.ap, me.gold = 1, 4
    do(s, 0, "play:c=-")
    assert s.current == 1 and keys(s, 0) == set(), "P1 has no AP and no turn: no conversion"
    finish_round(s)
    assert me.gold == 1, "the castle's 1 gold of the new round; the 4 left over are gone"


# -- passing and turn order ----------------------------------------------------------------------


def test_one_action_at_a_time_in_turn() -> None:
    """RULINGS 6: players take one AP action each in turn, skipping players with no AP left."""
    s = fresh(3)
    do(s, 0, "play:c=-")
    assert s.current == 1
    do(s, 1, "pass")
    do(s, 2, "play:c=-")
    assert s.current == 0
    do(s, 0, "play:c=-")
    assert s.current == 2, "P2 passed and is skipped"


def test_pass_and_first_to_pass_is_last() -> None:
    """ "Player passes his turns and set Action Points to zero. If player is first one to pass, he gets to be
    the last player in next turn." """
    s = fresh(3)
    do(s, 0, "play:c=-")
    do(s, 1, "pass")
    assert s.players[1].ap == 0 and s.players[1].passed
    finish_round(s)
    assert s.round == 2 and s.current == 2
    assert game.view(s, None)["order"] == [2, 0, 1]


# -- combat --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attack", "defense", "attacker_gets", "defender_gets"),
    [(["troll"], ["goblin"], 3, 0), (["goblin"], ["goblin"], 1, 1), (["goblin"], ["suumpmolk"], 0, 2)],
)
def test_combat_vp_table(
    attack: list[str], defense: list[str], attacker_gets: int, defender_gets: int
) -> None:
    """ "Attacker wins: 3 VP(Victory Points) to attacker / Tie: 1 VP (Both) / Defender wins: 2 VP to
    defender" and "Players always attacks to the player on their right." (RULINGS 17: P2 attacks P1)"""
    s = fresh(3)
    s.players[1].attack = list(attack)
    s.players[0].defense = list(defense)
    finish_round(s)
    fight = next(c for c in s.combat if c["attacker"] == 1)
    assert fight["defender"] == 0
    # P1 also ties 0-0 attacking P3, P2 ties 0-0 defending against P3.
    assert s.players[1].vp == 1 + attacker_gets and s.players[0].vp == 1 + defender_gets


def test_everyone_attacks_the_player_on_their_right() -> None:
    """ "Players always attacks to the player on their right." (RULINGS 17)"""
    s = fresh(4)
    finish_round(s)
    assert [(c["attacker"], c["defender"]) for c in s.combat] == [(0, 3), (1, 0), (2, 1), (3, 2)]
    s = fresh(2)
    finish_round(s)
    assert [(c["attacker"], c["defender"]) for c in s.combat] == [(0, 1), (1, 0)]


def test_attack_and_defense_totals() -> None:
    """ "Defense value is the combined total of monsters' defense in the defense grid. Attack value is the
    combined total of monsters' attack in the attack grid." """
    s = fresh(2)
    s.players[0].attack = ["troll", "goblin", "goblin"]  # 3 + 1 + 1, Size 6
    s.players[1].defense = ["ogre", "suumpmolk"]  # 4 + 2
    finish_round(s)
    assert s.combat[0] == {"attacker": 0, "defender": 1, "attack": 5, "defense": 6, "winner": "defender"}


def test_dragon_eats_a_goblin() -> None:
    """ "Dragon ... Can eat goblins +2 to attack or defence until end of turn" (RULINGS 19)"""
    s = fresh(2)
    me, other = s.players[0], s.players[1]
    me.attack = ["dragon"]
    other.defense = ["goblin", "ogre"]
    options = {k for k in keys(s, 0) if k.startswith("eat")}
    assert options == {"eat:p=1:g=d:b=a", "eat:p=1:g=d:b=d"}
    do(s, 0, "eat:p=1:g=d:b=a")
    assert other.defense == ["ogre"] and me.ap == 5 and s.current == 0, "a free move"
    assert not any(k.startswith("eat") for k in keys(s, 0)), "once per Dragon per round"
    finish_round(s)
    assert s.combat[0]["attack"] == 8 and s.combat[0]["defense"] == 4
    assert not s.modifiers, "until the end of the round"


# -- VP, tiers and the end -----------------------------------------------------------------------


def test_eternity_token_at_ten() -> None:
    """ "Victory point track. After 10 VP you get one eternity token, worth 10 VP" (RULINGS 20)"""
    s = fresh(2)
    me = s.players[0]
    me.vp = 9
    me.hand = ["vp1", "vp1"]
    do(s, 0, "play:c=vp1+vp1")
    assert (me.vp, me.eternity, me.total()) == (1, 1, 11)
    assert game.view(s, None)["players"][0]["eternity"] == 1


def test_tier_two_begins_after_ten_vp() -> None:
    """ "Tier 2 begins when someone of the players reaches 10 Victory Points. Tier 2 is played same way as
    the tier 1, only card deck changes." (RULINGS 21: from the next round)"""
    s = fresh(2)
    s.players[1].eternity = 1
    assert s.tier == 1
    finish_round(s)
    assert s.tier == 2
    assert all(CARDS[c].tier == 2 for c in row(s) if c) and len(s.market_discard) == 4
    assert len(s.tier2) == 25 - 4


def test_game_ends_after_nine_rounds_with_upgrade_values() -> None:
    """ "Game ends after 9 rounds. Upgrade card values are added to the total Victory points at the end of
    the game. Winner is the player with most Victory Points." (RULINGS 22: an upgrade is worth its tier)"""
    s = fresh(2)
    for _ in range(8):
        finish_round(s)
    assert s.round == 9 and s.phase == "act"
    s.players[0].upgrades = ["goblin", "gold3_up", "mana2_up"]  # 1 + 2 + 2
    finish_round(s)
    assert s.phase == "over" and game.to_act(s) == ()
    vp = [p.total() for p in s.players]
    assert s.result is not None and s.result["scores"] == [vp[0] + 5, vp[1] + 1]
    assert game.returns(s) == [1.0, 0.0]


# -- views ---------------------------------------------------------------------------------------


def test_hands_are_hidden_and_menus_have_five_groups() -> None:
    """RULINGS 23: hands are secret, their sizes public; menus group moves as Buy/Play/Summon/Convert/Pass."""
    s = fresh(2)
    s.players[0].attack = ["dragon"]
    s.players[1].attack = ["goblin"]
    v = game.view(s, 1)
    assert v["players"][0]["hand"] is None and v["players"][0]["hand_size"] == 3
    assert v["players"][1]["hand"] == ["gold1", "gold1", "vp1"]
    d = game.determinize(s, 1, 5)
    assert game.view(d, 1) == v
    groups = {game.describe(s, a)[0] for a in game.legal_actions(s, 0)}
    assert groups <= {"Buy", "Play", "Summon", "Convert", "Pass"} and {"Play", "Summon", "Pass"} <= groups


def test_drawn_cards_are_named_in_hand_order_not_pile_order() -> None:
    """RULINGS 23: "the order of every draw pile (own decks and both tier decks) is secret to all": the
    cards a player draws are named to them in hand order, not in the order they came off the pile."""
    texts = []
    for top in (["vp1", "gold1", "gold2"], ["gold2", "vp1", "gold1"]):
        s = fresh(2)
        s.players[0].deck = ["gold1", "gold1", *top]  # the pile's top is its end
        secret = [e for e in game.apply(s, Action(0, "play", (("c", "-"),))) if e.kind == "drew_secretly"]
        assert [e.visible_to for e in secret] == [(0,)]
        texts.append(secret[0].text)
    assert texts[0] == texts[1] == "You draw +1 Gold, +2 Gold, +1 VP"
