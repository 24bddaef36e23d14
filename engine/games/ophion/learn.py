"""Ophion's tutorial (engine/table/lesson.py): a first game against the easy AI on a deal where the learner
plays gold, buys an upgrade and a monster from the row, summons onto both grids, sees a combat and Tier 2
explained, and converts gold into mana in the first two rounds."""

from __future__ import annotations

from engine.table.lesson import Idea, Page, Step, Tutorial

# On seed 10 the learner's first hand is three +1 Gold cards and the row starts with a +1 Gold Upgrade
# (2 gold, no surcharge) and a Troll (3 gold once the row slides): the whole first round fits in 5 AP.
PLAY_THREE = r"play:c=\w+\+\w+\+\w+"  # play three cards of the hand (the first three in the menu's order)

TUTORIAL = Tutorial(
    game_id="ophion",
    seed=10,
    welcome=(
        "Ophion is a battle of monsters over 9 rounds: you play cards for gold, buy upgrades and monsters "
        "from the row, and summon monsters onto your attack and defense grids. Every round ends in combat, "
        "which scores victory points (VP); the most VP after 9 rounds wins."
    ),
    ideas=(
        Idea(
            "turn",
            "Action points",
            "Each round everyone gets 3 action points (AP), 5 after a round without summoning, and you take "
            "turns spending them one action at a time: buy, play, summon or pass.",
        ),
        Idea(
            "play",
            "Playing cards",
            "One action plays up to 3 cards from your hand for their gold, mana, AP or VP; then you draw 3, "
            "2, 2 or 1 cards for 0, 1, 2 or 3 cards played.",
        ),
        Idea(
            "row",
            "The row",
            "Four cards are for sale; each costs its price plus 0, 1, 1 or 2 gold by its place, the one "
            "furthest from the deck cheapest.",
        ),
        Idea(
            "slots",
            "Upgrade slots",
            "Upgrades and monsters you buy go into your 3 upgrade slots: an upgrade pays every round, a "
            "monster can be summoned, and each card there is worth VP at the end.",
        ),
        Idea(
            "summon",
            "Summoning onto the grids",
            "A monster from your slots is summoned for mana onto your attack or defense grid (total size 6 "
            "each) and stays there; buying a monster card summons one for free.",
        ),
        Idea(
            "combat",
            "Combat",
            "When nobody has AP left, your attack total meets your opponent's defense total: higher attack "
            "wins 3 VP, a tie gives 1 VP each, higher defense 2 VP to the defender.",
        ),
        Idea(
            "mana",
            "Gold and mana",
            "Gold buys cards and is lost at the end of the round, mana summons monsters and is kept; you can "
            "convert 2 gold into 1 mana or 3 mana into 1 gold without spending an AP.",
        ),
        Idea(
            "tiers",
            "Tier 2 and the end",
            "Once anyone has 10 VP the row is dealt from the stronger Tier 2 deck from the next round on; "
            "after 9 rounds the most VP wins, each upgrade card counting too.",
        ),
    ),
    steps=(
        Step(
            say=(
                "You and your opponent take turns, one action for each action point (AP): you have 5 this "
                "round. Start with Play › +1 Gold, +1 Gold, +1 Gold → draw 1: your three cards give you 3 "
                "more gold to spend this round, and you draw 1 card."
            ),
            rule="Player can use as many actions as he has Action Points(AP).",
            move=PLAY_THREE,
            ideas=("turn", "play"),
            why=(
                "Playing three +1 Gold cards at once gives you the gold to buy with this round, for one AP; "
                "the fewer cards you play, the more you draw instead."
            ),
        ),
        Step(
            say=(
                "Now buy from the row: Buy › +1 Gold Upgrade: 2 gold (#1) › slot 2. The card furthest from "
                "the deck (#1) costs no extra; the others cost 1 or 2 gold more. An upgrade goes into one of "
                "your 3 upgrade slots and pays at once: +1 gold now, and again every round."
            ),
            rule=(
                "If monster card or upgrade card is bought, player can put it straight to the upgrade slot "
                "and gets benefit that card has immediately."
            ),
            move=r"buy:c=\d+:s=1",
            ideas=("row", "slots"),
            why="An upgrade card in a slot pays you every round from now on, and counts for VP at the end.",
        ),
        Step(
            say=(
                "Buy a monster: Buy › Troll: 3 gold (#1) › slot 3 › free summon to the attack grid. A "
                "monster card goes into an upgrade slot too, and buying it summons one of that monster for "
                "free: the Troll (attack 3) goes onto your attack grid."
            ),
            rule=(
                "In case of monster, he can summon one moster of that type without paying its mana cost by "
                "placing an appropriate monster token to defenense or attack monster grid."
            ),
            move=r"buy:c=\d+:s=2:g=a",
            ideas=("summon",),
            why=(
                "Buying a monster card summons one for free onto a grid; from its slot you can summon more "
                "later, for mana."
            ),
        ),
        Step(
            say=(
                "Summon › Goblin (2 mana) › defense grid: the Goblin card you start with in slot 1 costs 2 "
                "of your 3 mana. When nobody has AP left comes combat: your attack total against your "
                "opponent's defense total, and their attack against your defense, which the Goblin makes 1."
            ),
            rule="Attack value of the attacker and defense value of the defender is compared.",
            move=r"summon:m=goblin:g=d",
            ideas=("combat",),
            why=(
                "With no defense, any attack from your opponent beats you and wins them 3 VP; a Goblin on "
                "your defense grid gives you 1 defense."
            ),
        ),
        Step(
            say=(
                "Use your last AP on Play › +1 VP → draw 2: a +1 VP card scores a victory point at once. "
                "Once anyone has 10 VP, Tier 2 begins with the next round: the row is then dealt from a deck "
                "of stronger cards (Dragons, Ogres, Skeleton Archers)."
            ),
            rule="Tier 2 begins when someone of the players reaches 10 Victory Points.",
            move=r"play:c=vp1",
            ideas=("tiers",),
            why="+1 VP cards are points waiting in your deck: play them when you can spare the AP.",
        ),
        Step(
            say=(
                "A new round: your castle gave you 1 gold and 1 mana, your upgrades their income, and you "
                "drew 3 cards. You get 3 AP a round, and 2 more only after a round in which you summoned no "
                "monster. Play all three cards: Play › +1 Gold, +1 Gold, +1 VP → draw 1."
            ),
            rule="If player haven't summoned any monsters he gets 2 extra Action points.",
            move=PLAY_THREE,
            why="Playing all three cards gives you their gold and VP for a single AP.",
        ),
        Step(
            say=(
                "Gold is lost at the end of the round, but mana is kept. Convert › 2 gold → 1 mana costs no "
                "AP, and gives you the mana for another summon; converting also turns 3 mana into 1 gold."
            ),
            rule="Convert 2 gold to 1 mana.",
            move=r"convert:to=mana",
            ideas=("mana",),
            why="Gold you don't spend is lost at the end of the round; the mana you convert it into is kept.",
        ),
        Step(
            say=(
                "Summon › Goblin (2 mana) › attack grid: a second Goblin adds 1 to your attack for every "
                "combat from now on. Monsters stay on their grid for the whole game, and each grid holds a "
                "total size of 6. From here on you play freely."
            ),
            rule="After paying the mana cost, player can put a monster token to the defense or attack grid.",
            move=r"summon:m=goblin:g=a",
            why="Monsters stay for the whole game: each one summoned counts in every combat that follows.",
        ),
    ),
    page=Page(
        summary=(
            "Ophion is a deck-building battle of monsters over 9 rounds. You play cards from your hand for "
            "gold, buy upgrades and monsters from the row, and summon monsters onto your attack and defense "
            "grids. At the end of every round your attack meets your opponent's defense for VP."
        ),
        turn=(
            "Income: your castle's 1 gold and 1 mana, plus your upgrades; draw 3 cards.",
            "Get 3 AP (5 if you summoned nothing last round).",
            "In turn, one action per AP: Buy from the row, Play up to 3 cards, Summon a monster, or Pass.",
            "Convert gold and mana whenever you like, for free (2 gold → 1 mana, 3 mana → 1 gold).",
            "When nobody has AP left: combat, then unspent gold is lost.",
        ),
        win=(
            "After 9 rounds the most VP wins: VP from combat and +1 VP cards, 10 per eternity token, and "
            "each card in your upgrade slots worth its tier."
        ),
        parts=(
            (
                "MARKET",
                "the row across the top: the cards for sale, each with its price in the gold disc and its "
                "place's surcharge (+1 extra, +2 extra) under it; the heading gives the tier and both decks' "
                "sizes",
            ),
            ("LAST", "the bar under the row: the last move made"),
            (
                "Your panel",
                "framed while it is your turn: your hand size and VP (★), the VP track, and your mana, gold "
                "and AP",
            ),
            (
                "Upgrade slots",
                "the three cards in your panel: the Goblin and the Troll, each with the mana that summons "
                "it, and an empty slot; your deck and discard pile beside them",
            ),
            (
                "ATTACK 3 → Opponent",
                "your attack grid: the Troll (attack 3, defense 0) and the total that meets your opponent's "
                "defense in combat",
            ),
            (
                "DEFENSE 1",
                "your defense grid: the Goblin (1/1), which meets your opponent's attack; a grid's 6 squares "
                "are its room for monsters of total size 6",
            ),
            (
                "Opponent",
                "your opponent's panel below yours, with the same parts: a +1 Gold upgrade and empty grids",
            ),
            ("LOG", "at the bottom: what has just happened"),
        ),
        sample=8,
    ),
)
