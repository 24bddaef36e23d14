"""Siege of Olympus's tutorial (engine/table/lesson.py): the learner leads Typhon and plays first on a deal
whose hand holds the three pieces of artifact 15 (Castor, Pollux and Bellerophon), so the first turn shows
the shared Deck, summoning by cost, taking an artifact, the Agora, the phases, recruiting from Tartarus and
a Primordial Attack on the enemy Commander."""

from __future__ import annotations

from engine.table.lesson import Idea, Page, Step, Tutorial

# The fixed deal (seed 5630, these Commanders): the learner (seat 0) goes first. Tartarus is dealt before
# the learner's first move, so its prisoners' ids are fixed: Brontes (2 Attack, 2 Health) is 4; the
# opponent's Commander is 1.
BRONTES = 4
ENEMY_COMMANDER = 1

TUTORIAL = Tutorial(
    game_id="siege_of_olympus",
    seed=5630,
    options={"seat_choices": [{"commander": "typhon"}, {"commander": "prometheus"}]},
    welcome=(
        "Siege of Olympus is a duel of two Commanders drawing from one shared Deck: take 3 artifacts, or "
        "bring the enemy Commander from 20 Health to 0, and you win. You lead Typhon and play first."
    ),
    ideas=(
        Idea(
            "deck",
            "The shared Deck",
            "both players draw from one Deck, which also fills Tartarus and the Agora",
        ),
        Idea(
            "turn", "A turn's phases", "draw, then Deploy (summon, cast, exchange), Recruit, Attack, and end"
        ),
        Idea("cost", "Summoning by cost", "a minion's cost is how many minions you must already control"),
        Idea(
            "artifacts",
            "Artifacts",
            "control 3 minions with the same artifact number to take that artifact and draw a card; "
            "3 artifacts win",
        ),
        Idea(
            "agora", "The Agora", "once a turn you may swap a card of your Hand for one in this shared market"
        ),
        Idea(
            "spells",
            "Spells",
            "one-off effects played in your Deploy phase; Ambush and Disrupt spells answer in your "
            "opponent's turn",
        ),
        Idea(
            "tartarus",
            "Tartarus and recruiting",
            "in the Recruit phase your minions attack the prisoners in Tartarus, and one you destroy joins "
            "your Hand",
        ),
        Idea(
            "attack",
            "Attacks",
            "in the Attack phase each minion that did not recruit may attack, all at one enemy minion a turn",
        ),
        Idea(
            "commander",
            "Commanders",
            "each side's Commander has 20 Health and a power for once a game; at 0 Health that side loses",
        ),
    ),
    steps=(
        Step(
            say=(
                "Both players drew 6 cards from the one Deck you share; you may send up to 3 back and draw "
                "as many. Your hand is good: Castor and Pollux cost 0, and with Bellerophon they carry the "
                "same artifact number, 15. Choose **Keep your hand**."
            ),
            rule=(
                "Additionally, in Siege Of Olympus, players share the same Deck, which unfolds lots of "
                "unique strategic options!"
            ),
            move=r"pass",
            ideas=("deck",),
            why=(
                "Keeping these 6 cards would have kept Castor, Pollux and Bellerophon together: the three "
                "pieces of artifact 15, all playable this turn."
            ),
        ),
        Step(
            say=(
                "A minion's cost is the number of minions you must already control, and you control none: "
                "start with a minion that costs 0. Choose **Summon a minion › Castor**; its Summon effect "
                "gives a minion you control (only Castor, for now) +1 Attack this turn."
            ),
            rule=(
                "This number indicates the number of minions that must be on your side of the board in "
                "order to summon a minion from your hand."
            ),
            move=r"summon:c=castor",
            ideas=("cost",),
            why="Castor costs 0, so he could come in first, and each minion on your side opens dearer ones.",
        ),
        Step(
            say=(
                "Castor carries artifact piece 15, and so does Pollux, who also costs 0. Choose **Summon a "
                "minion › Pollux**: when you control 3 pieces of one number, you take that artifact."
            ),
            rule="In order to draw a full artifact card, you need to control 3 pieces of it.",
            move=r"summon:c=pollux",
            ideas=("artifacts",),
            why="Pollux is a second piece 15 and costs 0: with him out, Bellerophon's cost of 2 is met.",
        ),
        Step(
            say=(
                "You control 2 minions now, so Bellerophon, who costs 2, can come in, and he is the third "
                "piece 15. Choose **Summon a minion › Bellerophon**: you take artifact 15 from Olympus and "
                "draw a card. Three artifacts win the game."
            ),
            rule="Having a certain number of artifacts is the second way to win a game of Siege of Olympus.",
            move=r"summon:c=bellerophon",
            why="Bellerophon was the third piece 15: summoning him takes an artifact and draws a card.",
        ),
        Step(
            say=(
                "The Agora is a market both players share: once a turn you may leave a card of your Hand "
                "there and take one. Choose **Exchange at the Agora › leave Labours of Heracles › take "
                "Trojan Horse**. Most spells are played in your Deploy phase, but Trojan Horse is an Ambush "
                "spell: you play it in your opponent's turn, when one of their minions attacks."
            ),
            rule="You can only exchange once in Agora each turn.",
            move=r"exchange:c=labours_of_heracles:g=trojan_horse",
            ideas=("agora", "spells"),
            why=(
                "The exchange would have brought Trojan Horse, a spell that costs nothing and answers an "
                "attack in your opponent's turn; you may exchange once a turn."
            ),
        ),
        Step(
            say=(
                "Deploy, the first phase of your turn, is for summoning, spells and the exchange; Recruit "
                "and Attack come next, then the turn ends. Choose **Go to the Recruit phase**: there your "
                "minions attack the prisoners in Tartarus."
            ),
            rule="Deploy: During this phase you can do everything except attacking.",
            move=r"next",
            ideas=("turn",),
            why=(
                "A turn goes Deploy, Recruit, Attack: moving on opens the Recruit phase, where you win new "
                "cards."
            ),
        ),
        Step(
            say=(
                "A prisoner your minions destroy joins your Hand. Castor has 3 Attack this turn and is "
                "ranged, so he takes no damage back from Brontes (2 Attack, 2 Health, melee). Choose "
                "**Recruit › Castor › attacks Brontes**."
            ),
            rule=(
                "By destroying a prisoner in the Tartarus zone, you add it to your hand, but you cannot "
                "summon it the same turn."
            ),
            move=rf"recruit:u=\d+:t={BRONTES}",
            ideas=("tartarus",),
            why="Brontes has 2 Health: a recruit that destroys him puts him in your Hand for your next turn.",
        ),
        Step(
            say=(
                "Each minion attacks once a turn: Castor has recruited, but Pollux and Bellerophon have not. "
                "Choose **Go to the Attack phase** to attack your opponent with them."
            ),
            rule=(
                "Before the end of your turn, minions that did not attack in the Recruit Phase, can declare "
                'attacks to enemy Commander, if they have the "Primordial Attack" ability, and/or choose an '
                "enemy minions as an attack target"
            ),
            move=r"next",
            ideas=("attack",),
            why="Minions that did not recruit may still attack in the Attack phase.",
        ),
        Step(
            say=(
                "Your opponent has no minions yet, but Bellerophon has Primordial Attack: he may attack the "
                "enemy Commander. Choose **Attack › Bellerophon › attacks P2's Commander**: it loses 3 of "
                "its 20 Health, and a Commander at 0 loses the game."
            ),
            rule='If their Health Points drop to "0", your opponent wins the Game.',
            move=rf"attack:u=\d+:t={ENEMY_COMMANDER}",
            ideas=("commander",),
            why=(
                "A minion with Primordial Attack can hit the enemy Commander, whose 20 Health is your target."
            ),
        ),
    ),
    page=Page(
        summary=(
            "Two Commanders, 20 Health each, build armies from one shared Deck. Minions come from your Hand, "
            "or from Tartarus, the shared prison whose prisoners you destroy to take. Three minions with the "
            "same artifact number take that artifact from Olympus."
        ),
        turn=(
            "Draw a card (not on the first player's first turn).",
            "Deploy: summon minions (cost = minions you already control), play spells, exchange once at the "
            "Agora, use your Commander's power once a game.",
            "Recruit: your minions attack prisoners in Tartarus; one destroyed joins your Hand.",
            "Attack: the others attack one enemy minion a turn, or the enemy Commander with Primordial "
            "Attack.",
            "End: minions heal fully, Tartarus refills to 6, discard down to 8 cards.",
        ),
        win="Take 3 artifacts, or bring the enemy Commander to 0 Health.",
        parts=(
            (
                "The top line",
                "the cards left in the shared Deck, the Underworld (the discard pile) and the artifacts "
                "still on Olympus; under it the phases Deploy › Recruit › Attack › End, the one now lit",
            ),
            (
                "Opponent and You",
                "each player's panel: the Commander (♛) with its Health (♥ 17/20), whether its once-a-game "
                "ability is ready, and ★ the artifacts taken of the 3 that win (You hold 15 Adamantine "
                "Chains)",
            ),
            (
                "Tartarus",
                "the prisoners in the middle: destroy one in your Recruit phase and it joins your Hand",
            ),
            (
                "The Agora",
                "the shared market under Tartarus: swap one card a turn; “left” marks the card you left "
                "there",
            ),
            (
                "Your minions",
                "your side, above your panel (3/8: at most 8); a synergy shows when 3 share a class or race",
            ),
            (
                "A minion",
                "its cost (black circle, top left), its artifact number (gold circle, top right), its class "
                "and race, its Attack (⚔ melee, ➶ ranged) and its Health (♥)",
            ),
            ("The log", "the last things that happened, at the bottom"),
        ),
        sample=12,
    ),
)
