"""Ophidian 2350's tutorial (engine/table/lesson.py): Iron Tide against Mind and Marrow on a deal where the
learner's first Wave shows the hand, the fields, attacks and Set cards, a + card keeping The Flow, a pass,
a Defensive Response, an Intercept and Cheer spent to take The Flow back."""

from __future__ import annotations

from engine.table.lesson import Idea, Page, Step, Tutorial

LEVEL_2 = "(arena_veteran|berserkers_oath|gladius_mk_ix|system_crash|targeting_uplink)"  # Iron Tide's Level 2
MINIONS = "(arena_veteran|pit_hound|sentry_turret|targeting_drone)"  # Iron Tide's Minions

TUTORIAL = Tutorial(
    game_id="ophidian",
    seed=36,
    options={"seat_choices": [{"team": "iron_tide"}, {"team": "mind_and_marrow"}]},
    welcome=(
        "Ophidian 2350 is an arena duel: your team of Gladiators fights your opponent's over 4 Waves. Only "
        "the "
        "player with The Flow acts, and every move either keeps it (+) or hands it over (−)."
    ),
    ideas=(
        Idea(
            "cards",
            "Strategy cards",
            "Your hand comes from your Arsenal; a card costs CP and needs a Gladiator of its Discipline and "
            "Level.",
        ),
        Idea(
            "fields",
            "The two fields",
            "The Action Field is your front row, where Gladiators attack from; the Support Field is your "
            "back "
            "row.",
        ),
        Idea(
            "attack",
            "Attacks and VP",
            "An attack deals its ADMG as wounds; a Gladiator whose wounds reach its Life is defeated and you "
            "score its VP.",
        ),
        Idea(
            "set",
            "Set cards",
            "Attacking or Intercepting turns a card Set: it cannot attack or Intercept again until it is "
            "Unset.",
        ),
        Idea(
            "flow",
            "The Flow",
            "Only the player with The Flow acts: + moves keep it, − moves hand it to the opponent.",
        ),
        Idea(
            "wave",
            "Waves",
            "A Wave ends when both players pass one after the other; after 4 Waves the most VP wins.",
        ),
        Idea(
            "respond",
            "Responses",
            "Response cards interrupt without moving The Flow: DR ones are played when you don't have it.",
        ),
        Idea(
            "defend",
            "Intercept and Protect",
            "An Unset Gladiator can take an attack for a character in its field (Intercept) or, from the "
            "Action Field, for one in the Support Field (Protect).",
        ),
        Idea(
            "cheer",
            "Cheer",
            "Attacks earn Cheer; 1 Cheer turns a + into a −, and 15 Cheer wins the game.",
        ),
    ),
    steps=(
        Step(
            say=(
                "You drew 9 cards and keep 7: put 2 on the bottom of your Arsenal (your deck). Start with "
                "Put on the bottom of your Arsenal › Berserker's Oath: it is a Level 2 card, and your "
                "Gladiators are Level 1, so you cannot play it yet."
            ),
            rule=(
                "Each player shuffles their Arsenal and draws to the maximum hand size (default of 7) plus "
                "two "
                "cards, then select 2 cards from hand to place on the bottom of their Arsenal in the order "
                "of "
                "their choice, keeping the remaining 7 cards to form their hand."
            ),
            move=f"bottom:c={LEVEL_2}",
            ideas=("cards",),
            why=(
                "A Level 2 card waits in your hand until a Gladiator is promoted: the bottom is the place "
                "for it."
            ),
        ),
        Step(
            say=(
                "One more: Put on the bottom of your Arsenal › Gladius Mk. IX. It is Level 2 as well; every "
                "card shows the Discipline and Level a Gladiator of yours must have, and its cost in CP."
            ),
            rule=(
                "matching Discipline and Level (or higher) as well as enough CP to pay the card's play cost."
            ),
            move=f"bottom:c={LEVEL_2}",
            why=(
                "Gladius Mk. IX needs a Level 2 Warrior, and your Gladiators are Level 1: you cannot play "
                "it now."
            ),
        ),
        Step(
            say=(
                "Your three Gladiators stand in your Action Field, the front row: only from there can they "
                "attack. Keep them all there: choose Done arranging."
            ),
            rule=(
                "The player with The Flow arranges their Gladiators in the Support Field (back row) and/or "
                "Action Field (front row) as they see fit."
            ),
            move="pass",
            ideas=("fields",),
            why="A Gladiator in the Support Field cannot attack; with all three in front, all three can.",
        ),
        Step(
            say=(
                "You have The Flow, so it is your move. Attack (+) › Brakka Vohl attacks Kestrel Nine: an "
                "attack deals the attacker's ADMG as wounds, and defeating a Gladiator scores its VP for you."
            ),
            rule="Attacks can only be made from the Action Field.",
            move="attack:.*",
            ideas=("attack",),
            why="Attacking wounds your opponent's Gladiators: defeated ones score their VP for you.",
        ),
        Step(
            say=(
                "Brakka Vohl is now Set (turned sideways): it cannot attack again this Wave. Attack (+) "
                "with an "
                "Unset Gladiator instead: Sera Quill attacks Kestrel Nine."
            ),
            rule=(
                "Set cards cannot be used to Set again that Wave, unless they become Unset from an action "
                "or card."
            ),
            move="attack:.*",
            ideas=("set",),
            why="Each Unset Gladiator in your Action Field can attack once a Wave; a Set one has to wait.",
        ),
        Step(
            say=(
                "Play a card › Pit Hound: a Minion for 2 CP that comes into play in your Support Field. It "
                "is a "
                "+ card, so you keep The Flow and act again."
            ),
            rule=(
                'All **+** (positive) cards/actions (such as advancing or attacking) let a player keep "The '
                'Flow" and can continue to take actions.'
            ),
            move=f"play:c={MINIONS}",
            ideas=("flow",),
            why="A + card keeps The Flow: you could have played it and still acted after.",
        ),
        Step(
            say=(
                "Keep Juno Kessler Unset to defend, and Pass (−): a − move hands The Flow to your opponent. "
                "When both players pass one after the other, the Wave ends."
            ),
            rule=(
                'A **Wave** ends when both players consecutively "PASS" - usually because they have no other '
                "actions they can/wish to perform."
            ),
            move="pass",
            ideas=("wave",),
            why="Passing hands The Flow over; two passes in a row end the Wave.",
        ),
        Step(
            say=(
                "Your opponent attacks you. You don't have The Flow, so you may play a DR (Defensive "
                "Response) "
                "card: Respond › Pulse Shield prevents the first 2 damage of this attack."
            ),
            rule="**DR - Defensive Response** (playable only when a player does not have The Flow).",
            move="respond:.*",
            ideas=("respond",),
            why="A Response interrupts your opponent's move without taking The Flow from them.",
        ),
        Step(
            say=(
                "Juno Kessler is Unset and in the same field as the character attacked: Intercept › Juno "
                "Kessler to take the attack instead. She Sets, and the Cheer of this attack goes to you."
            ),
            rule=(
                "A Gladiator can take the damage for another Character if they are in the **SAME FIELD** as "
                "the target."
            ),
            move="(intercept|protect):.*",
            ideas=("defend",),
            why="An Unset Gladiator can jump in the way of an attack, and Intercepting wins you its Cheer.",
        ),
        Step(
            say=(
                "Your opponent made a + move and would keep The Flow. Spend 1 Cheer: turn the last + into −, "
                "and The Flow comes to you when it resolves."
            ),
            rule=(
                "During or after a **+** action but before the next action is performed, 1 Cheer can be "
                "used/spent to change that **+** action to a **-** action."
            ),
            move="spend",
            ideas=("cheer",),
            why="Cheer spent turns a + into a −: The Flow passes as soon as that action is done.",
        ),
    ),
    page=Page(
        summary=(
            "Two teams of Gladiators fight over 4 Waves. Only the player with The Flow acts: + moves "
            "(advance, "
            "attack, most cards) keep it, − moves (retreat, pass) hand it over. Cards cost CP, attacks deal "
            "wounds and earn Cheer, and defeated Gladiators score their VP for the other side."
        ),
        turn=(
            "With The Flow, make a move: play a card, advance, retreat, attack or use an ability.",
            "A + move keeps The Flow; a − move (or 1 Cheer spent on a +) hands it over.",
            "Without The Flow, answer: a Response card, Intercept or Protect, or let it happen.",
            "Two passes in a row end the Wave; the Breather then refills hands and CP.",
        ),
        win=(
            "Defeat every enemy Gladiator, reach 15 Cheer, or hold 12 VP of enemy Gladiators; otherwise the "
            "most VP after 4 Waves wins."
        ),
        parts=(
            ("Wave track", "at the top: Waves 1 to 4, the one now lit, and who has The Flow"),
            ("The Flow", "the gold badge beside the player who acts now, whose panel is outlined"),
            (
                "Counters",
                "in each player's panel: CP to spend on cards, Cheer (★: the Crowd Favorite), VP scored out "
                "of 12, hand and Arsenal, and the Funeral Pyre of their defeated Gladiators",
            ),
            ("Action Field", "each side's front row, nearest the middle: Gladiators attack from here"),
            ("Support Field", "each side's back row, away from the middle: your Brakka Vohl was moved there"),
            (
                "A Gladiator",
                "its Level in the box, ⚔ its ADMG (the damage it deals), its VP at the right, Life left/Life "
                "below",
            ),
            (
                "Wounds and Rage",
                "red boxes are wounds; the orange line marks Rage, and RAGING shows it reached",
            ),
            ("SET", "the ↷ SET tag: the card attacked or Intercepted and cannot do it again this Wave"),
        ),
        sample=30,
    ),
)
