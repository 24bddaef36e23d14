"""Every card of Ophelia's set does what its text says: one test per card, each quoting the card's text.

First the texts themselves are rebuilt from the card data in the game's grammar ("Claim — COST: EFFECT",
"When EVENT; EFFECT.", "Turning Point — ...", passives unlabelled), so text and data cannot drift apart.
Then each card is put on a board placed by hand and performed (played, triggered, its Action or Claim
used), and the outcome its text promises is checked, with the durations, costs and "may" choices it names.
The rules themselves are checked apart from the card set in tests/games/ophelia/test_ophelia_rules.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.abilities.spec import Ability, CardSpec, Step
from engine.games.ophelia.board import stat
from engine.games.ophelia.cards import CARDS
from engine.games.ophelia.state import OpheliaState, Unit
from tests.ophelia_helpers import at, do, end_turn, fresh, keys, place

COVERED: set[str] = set()  # the cards a behaviour test below checks (filled as the tests are defined)


def covers(*cids: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a test as checking these cards; its docstring must quote each line of their text."""

    def mark(fn: Callable[..., Any]) -> Callable[..., Any]:
        doc = " ".join((fn.__doc__ or "").split())
        for cid in cids:
            for line in CARDS[cid].text.splitlines():
                assert line in doc, f"{fn.__name__} does not quote {cid}'s text {line!r}"
        COVERED.update(cids)
        return fn

    return mark


# -- helpers -------------------------------------------------------------------------------------------


def power(s: OpheliaState, u: Unit) -> int:
    """A card's Power now."""
    return stat(s, u, "power")


def initiative(s: OpheliaState, u: Unit) -> int:
    """A card's Initiative now."""
    return stat(s, u, "initiative")


def life(s: OpheliaState, u: Unit) -> int:
    """A card's Life now."""
    return stat(s, u, "life")


def slot(s: OpheliaState, seat: int, col: int) -> Unit:
    """The card in a slot (column 1-5), which must be there."""
    u = s.slots[seat][col - 1]
    assert u is not None, f"nothing in P{seat + 1}'s slot {col}"
    return u


def attach(s: OpheliaState, bearer: Unit, card: str) -> Unit:
    """Attach a relic to a character by hand, as if it had been played onto it on an earlier turn."""
    relic = Unit(s.mint(card).uid, card, bearer.owner)
    bearer.attached.append(relic)
    return relic


def ability_key(kind: str, u: Unit) -> str:
    """The move that makes this card's Claim or uses its Action ("claim" or "act")."""
    (index, _), *_ = CARDS[u.card].of_type("claim" if kind == "claim" else "action")
    return f"{kind}:u={u.uid}:a={index}"


def play_into(s: OpheliaState, seat: int, card: str, col: int) -> Unit:
    """Play a card from hand into a slot (column 1-5); the card that entered."""
    do(s, seat, f"play:c={card}:s={col}")
    return slot(s, seat, col)


def next_turn(s: OpheliaState) -> None:
    """End the active player's turn as if a card had been played in it, so the round goes on."""
    s.played = True
    end_turn(s)


def end_round(s: OpheliaState) -> None:
    """End turns with no card played until the round is resolved."""
    now = s.round
    while s.round == now:
        end_turn(s)
    assert not s.decisions or s.decisions[-1].kind == "first"


def forgotten(s: OpheliaState, seat: int) -> list[str]:
    """A player's forgotten zone."""
    return s.sides[seat].forgotten


def hand(s: OpheliaState, seat: int) -> list[str]:
    """A player's hand."""
    return s.sides[seat].hand


# -- the texts, rebuilt from the data ------------------------------------------------------------------

STAT = {"power": "Power", "initiative": "Initiative", "life": "Life"}
WHILE = {
    "in_middle": "in the middle slot",
    "in_outer": "in an outer slot",
    "contested": "contested",
    "uncontested": "uncontested",
    "damaged": "damaged",
}
GROUP = {  # a passive's or a modifier's subject, and whether it takes "get" (plural) or "gets"
    "self": ("this", False),
    "bearer": ("the bearer", False),
    "opposing": ("the opposing card", False),
    "event": ("it", False),
    "ally": ("an ally", False),
    "adjacent_allies": ("adjacent allies", True),
    "all_allies": ("all allies", True),
    "other_allies": ("other allies", True),
    "all_enemies": ("all enemy characters", True),
}
TARGET = {  # the object of damage, defeat, move, bounce, detach
    "self": "this",
    "event": "it",
    "opposing": "the opposing card",
    "enemy": "an enemy character",
    "other_ally": "another ally",
    "all_enemies": "all enemy characters",
    "all_allies": "all allies",
    "relic": "a relic",
    "enemy_relic": "an enemy relic",
    "middle_enemy": "the enemy card in the middle slot",
}
EVENT = {
    "played": "When this is played",
    "enters": "When this enters a slot",
    "moved": "When this moves",
    "defeated": "When this is defeated",
    "leaves": "When this leaves the field",
    "damaged": "When this takes damage and survives",
    "contested": "When an enemy enters the slot opposite this",
    "ally_defeated": "When another ally is defeated",
    "ally_played": "When you play another card into a slot",
    "enemy_played": "When your opponent plays a card into a slot",
    "enemy_enters": "When an enemy character enters a slot",
    "turning_point": "When your opponent plays a Turning Point",
    "turn_start": "At the start of your turn",
    "turn_end": "At the end of your turn",
    "contest": "Before damage in each Contest Phase",
}
KIND = {"character": "a character", "relic": "a relic", "turning_point": "a Turning Point", "any": "a card"}


def signed(n: int) -> str:
    """+2, -1."""
    return f"+{n}" if n >= 0 else str(n)


def cards_word(n: int) -> str:
    """a card, 2 cards."""
    return "a card" if n == 1 else f"{n} cards"


def target(step: Step) -> str:
    """The object of a step, with its Power filter."""
    words = TARGET[step.get("to", "self")]
    cap = step.get("max_power")
    return words if cap is None else f"{words} with {cap} or less Power"


def step_text(step: Step) -> str:
    """One effect step, as a sentence without its full stop."""
    do, amount = step.do, step.get("amount", 1)
    if do in STAT:
        who, plural = GROUP[step.get("to", "self")]
        until = "the end of the round" if step.get("until") == "round" else "the end of turn"
        return f"Until {until}, {who} {'get' if plural else 'gets'} {signed(amount)} {STAT[do]}"
    if do == "damage":
        return f"Deal {amount} damage to {target(step)}"
    if do == "heal":
        return f"Heal {amount} damage from {target(step)}"
    if do == "draw":
        return f"Draw {cards_word(amount)}"
    if do == "discard":
        return f"Your opponent discards {cards_word(amount)}"
    if do == "defeat":
        return f"Defeat {target(step)}"
    if do == "move":
        return f"Move {target(step)} to an adjacent open slot"
    if do == "bounce":
        return f"Return {target(step)} to its owner's hand"
    if do == "detach":
        return f"Detach {target(step)}"
    assert do == "recall", do
    kind = KIND[step.get("kind", "any")]
    if step.get("dest") == "slot":
        return f"Put {kind} from your forgotten zone into one of your open slots"
    return f"Return {kind} from your forgotten zone to your hand"


def effect_text(a: Ability) -> str:
    """An ability's effect steps, each a sentence."""
    return " ".join(f"{step_text(st)}." for st in a.effect)


def cost_text(a: Ability, card: CardSpec) -> str:
    """An ability's cost before ":" ("" when it has none)."""
    if not a.cost:
        return ""
    if a.cost == "sacrifice":
        return "Sacrifice an ally: " if card.type == "turning_point" else "Sacrifice another ally: "
    return {"discard": "Discard a card: ", "retire": "Retire this: "}[a.cost]


def lower_first(text: str) -> str:
    """An effect after ";" starts in lower case."""
    return text[:1].lower() + text[1:]


def ability_text(a: Ability, card: CardSpec) -> str:
    """One line of card text, the game's way."""
    if a.type == "passive":
        change = f"{signed(a.amount)} {STAT[a.stat]}"
        if a.to == "self":
            return f"{change}{f' while {WHILE[a.condition]}' if a.condition else ''}."
        who, plural = GROUP[a.to]
        assert not a.condition, "a passive on others with a condition has no wording yet"
        return f"{who[0].upper()}{who[1:]} {'get' if plural else 'gets'} {change}."
    if a.type == "trigger":
        may = "you may " if a.may else ""
        return f"{EVENT[a.on]}; {may}{lower_first(effect_text(a))}"
    label = {"claim": "Claim", "action": "Action", "play": "Turning Point"}[a.type]
    return f"{label} — {cost_text(a, card)}{effect_text(a)}"


def card_text(card: CardSpec) -> str:
    """A card's whole text: one ability a line."""
    return "\n".join(ability_text(a, card) for a in card.abilities)


@pytest.mark.parametrize("cid", sorted(CARDS))
def test_text_is_the_data_in_words(cid: str) -> None:
    """Each card's text says exactly what its data does: every amount, Power filter, cost, event, stat,
    duration and selector, in the grammar of the rest of the set."""
    card = CARDS[cid]
    assert card.text == card_text(card)


WORDS = {  # the words a selector needs in the text
    "self": "this",
    "bearer": "the bearer",
    "opposing": "the opposing card",
    "event": "it",
    "enemy": "an enemy character",
    "ally": "an ally",
    "other_ally": "another ally",
    "relic": "a relic",
    "enemy_relic": "an enemy relic",
    "adjacent_allies": "adjacent allies",
    "all_allies": "all allies",
    "other_allies": "other allies",
    "all_enemies": "all enemy characters",
    "middle_enemy": "the enemy card in the middle slot",
}


@pytest.mark.parametrize("cid", sorted(CARDS))
def test_text_names_every_number_and_word_of_the_data(cid: str) -> None:
    """A looser check beside the exact one: every amount and Power filter of the data is in the text, and
    every cost, stat, duration and selector ("enemy", "ally", ...) has its words."""
    card = CARDS[cid]
    text = card.text.lower()
    for a in card.abilities:
        steps = [dict(st.args) | {"do": st.do} for st in a.effect]
        if a.type == "passive":  # "+1 Power while in the middle slot." says nothing of "this"
            steps = [{"do": a.stat, "amount": a.amount} | ({"to": a.to} if a.to != "self" else {})]
            assert not a.condition or f"while {WHILE[a.condition]}" in text
        if a.cost:
            assert a.cost in text, f"cost {a.cost!r} missing from {card.text!r}"
        for st in steps:
            for name in ("amount", "max_power"):
                if name in st and st[name] != 1:
                    assert str(abs(st[name])) in text, f"{name} {st[name]} missing from {card.text!r}"
            if st["do"] in STAT:
                assert f"{signed(st['amount'])} {STAT[st['do']].lower()}" in text
            if "until" in st:
                assert f"until the end of {'the round' if st['until'] == 'round' else 'turn'}" in text
            if "to" in st:
                assert WORDS[st["to"]] in text, f"{st['to']!r} missing from {card.text!r}"


# -- vanilla characters --------------------------------------------------------------------------------


@covers("richard_the_lionheart", "nikola_tesla")
@pytest.mark.parametrize(
    ("cid", "stats"),
    [("richard_the_lionheart", (4, 3, 4)), ("nikola_tesla", (4, 5, 2))],
)
def test_vanilla_characters(cid: str, stats: tuple[int, int, int]) -> None:
    """Richard the Lionheart and Nikola Tesla have no text: their printed Power, Initiative and Life are all
    they bring to the board."""
    assert CARDS[cid].text == "" and CARDS[cid].abilities == ()
    s = fresh()
    u = place(s, 0, 3, cid)
    assert (power(s, u), initiative(s, u), life(s, u)) == stats


# -- The Crown -----------------------------------------------------------------------------------------


@covers("joan_of_arc")
def test_joan_of_arc() -> None:
    """ "+1 Power while in the middle slot." "When another ally is defeated; until the end of the round,
    this gets +1 Power." """
    s = fresh()
    joan = place(s, 0, 3, "joan_of_arc")
    assert power(s, joan) == 4
    do(s, 0, f"move:u={joan.uid}:s=2")
    assert power(s, joan) == 3
    place(s, 0, 4, "richard_the_lionheart", damage=3)
    place(s, 1, 4, "nikola_tesla")  # strikes first in the Contest Phase and defeats Richard
    end_turn(s)
    assert at(s, 0, 4) is None and "richard_the_lionheart" in forgotten(s, 0)
    assert power(s, joan) == 4, "+1 Power, kept past the end of the turn"
    end_round(s)
    assert not s.modifiers, "until the end of the round"


@covers("charlemagne")
def test_charlemagne() -> None:
    """ "Other allies get +1 Life." """
    s = fresh()
    charlemagne = place(s, 0, 1, "charlemagne")
    ally = place(s, 0, 2, "richard_the_lionheart", damage=4)
    enemy = place(s, 1, 5, "richard_the_lionheart")
    assert (life(s, charlemagne), life(s, ally), life(s, enemy)) == (4, 5, 4)
    next_turn(s)
    assert at(s, 0, 2) == "richard_the_lionheart", "4 damage does not defeat a Life of 5"


@covers("charlemagne")
def test_charlemagne_leaving_ends_the_life_bonus_at_once() -> None:
    """ "Other allies get +1 Life." — and when Charlemagne leaves, an ally whose damage now reaches its Life
    is defeated at once (RULINGS 17)."""
    s = fresh()
    charlemagne = place(s, 0, 1, "charlemagne")
    place(s, 0, 2, "richard_the_lionheart", damage=4)
    do(s, 0, f"retire:u={charlemagne.uid}")
    assert at(s, 0, 2) is None


@covers("elizabeth_i")
def test_elizabeth_i() -> None:
    """ "Action — Sacrifice another ally: Draw a card." """
    s = fresh()
    elizabeth = place(s, 0, 3, "elizabeth_i")
    key = ability_key("act", elizabeth)
    assert key not in keys(s, 0), "no other ally to sacrifice"
    richard = place(s, 0, 1, "richard_the_lionheart")
    place(s, 0, 5, "nikola_tesla")
    do(s, 0, key)
    assert keys(s, 0) == {f"pick:t={richard.uid}", f"pick:t={slot(s, 0, 5).uid}"}
    do(s, 0, f"pick:t={richard.uid}")
    assert at(s, 0, 1) is None and forgotten(s, 0) == ["richard_the_lionheart"]
    assert len(hand(s, 0)) == 1
    assert key not in keys(s, 0), "once per turn"


@covers("alexander_the_great")
def test_alexander_the_great() -> None:
    """ "Claim — Sacrifice another ally: Defeat an enemy character." """
    s = fresh(hands=(["alexander_the_great"], []))
    play_into(s, 0, "alexander_the_great", 3)
    assert not s.decisions, "no other ally to sacrifice: no Claim"

    s = fresh(hands=(["alexander_the_great"], []))
    place(s, 0, 1, "richard_the_lionheart")
    tesla = place(s, 1, 4, "nikola_tesla")
    socrates = place(s, 1, 5, "socrates")
    place(s, 1, 2, "rosetta_stone")
    alexander = play_into(s, 0, "alexander_the_great", 3)
    assert keys(s, 0) == {ability_key("claim", alexander), "pass"}
    do(s, 0, ability_key("claim", alexander))  # the only other ally is sacrificed
    assert at(s, 0, 1) is None and forgotten(s, 0) == ["richard_the_lionheart"]
    assert keys(s, 0) == {f"pick:t={tesla.uid}", f"pick:t={socrates.uid}"}, "enemy characters only"
    do(s, 0, f"pick:t={tesla.uid}")
    assert at(s, 1, 4) is None and forgotten(s, 1) == ["nikola_tesla"]


@covers("boudica")
def test_boudica() -> None:
    """ "When this takes damage and survives; until the end of turn, this gets +2 Power." """
    s = fresh(hands=([], ["nikola_tesla"]), active=1)
    boudica = place(s, 0, 3, "boudica")
    archimedes = place(s, 1, 1, "archimedes")
    do(s, 1, ability_key("act", archimedes))  # 2 damage to Boudica
    assert boudica.damage == 2 and power(s, boudica) == 5
    end_turn(s)
    assert power(s, boudica) == 3, "until the end of turn"

    s = fresh(hands=([], ["nikola_tesla"]), active=1)
    place(s, 0, 3, "boudica", damage=2)
    do(s, 1, ability_key("act", place(s, 1, 1, "archimedes")))
    assert at(s, 0, 3) is None and not s.modifiers, "defeated: she did not survive"


@covers("genghis_khan")
def test_genghis_khan() -> None:
    """ "When you play another card into a slot; until the end of the round, this gets +1 Power." """
    s = fresh(hands=(["richard_the_lionheart", "printing_revolution", "genghis_khan"], ["socrates"]))
    genghis = place(s, 0, 1, "genghis_khan")
    do(s, 0, "play:c=printing_revolution")
    assert power(s, genghis) == 3, "a Turning Point is not played into a slot"
    play_into(s, 0, "richard_the_lionheart", 2)
    assert power(s, genghis) == 4
    second = play_into(s, 0, "genghis_khan", 3)
    assert (power(s, genghis), power(s, second)) == (5, 3), "another card: not itself"
    end_turn(s)
    play_into(s, 1, "socrates", 4)
    assert power(s, genghis) == 5, "kept past the end of the turn; the opponent's play does not count"


@covers("genghis_khan", "imhotep", "zheng_he")
@pytest.mark.parametrize("cid", ["genghis_khan", "imhotep", "zheng_he"])
def test_attaching_a_relic_is_not_playing_it_into_a_slot(cid: str) -> None:
    """ "When you play another card into a slot; until the end of the round, this gets +1 Power." "When you
    play another card into a slot; until the end of the round, it gets +1 Life." "When your opponent plays a
    card into a slot; you may move this to an adjacent open slot." — an attached relic is played onto a
    character, "instead of a slot" (RULINGS 20), so none of these trigger."""
    s = fresh(hands=(["joyeuse"], []))
    place(s, 1 if cid == "zheng_he" else 0, 2, cid)
    bearer = place(s, 0, 5, "richard_the_lionheart")
    do(s, 0, f"play:c=joyeuse:t={bearer.uid}")
    assert not s.decisions, "Zheng He is not offered a move"
    assert not s.modifiers, "no +1 Power or Life"


@covers("saladin")
def test_saladin() -> None:
    """ "When this is played; heal 2 damage from all allies." """
    s = fresh(hands=(["saladin"], []))
    hurt = place(s, 0, 1, "richard_the_lionheart", damage=3)
    scratched = place(s, 0, 2, "nikola_tesla", damage=1)
    enemy = place(s, 1, 5, "richard_the_lionheart", damage=2)
    play_into(s, 0, "saladin", 3)
    assert (hurt.damage, scratched.damage, enemy.damage) == (1, 0, 2)


@covers("william_marshal")
def test_william_marshal() -> None:
    """ "+2 Power while contested." """
    s = fresh()
    william = place(s, 0, 2, "william_marshal")
    assert power(s, william) == 3
    place(s, 1, 2, "socrates")
    assert power(s, william) == 5


@covers("tomoe_gozen")
def test_tomoe_gozen() -> None:
    """ "Before damage in each Contest Phase; until the end of turn, this gets +1 Power." """
    s = fresh(hands=([], ["richard_the_lionheart"]))
    tomoe = place(s, 0, 3, "tomoe_gozen")
    socrates = place(s, 1, 3, "socrates")
    end_turn(s)
    assert socrates.damage == 4 and tomoe.damage == 2, "she struck with 3 + 1"
    assert power(s, tomoe) == 3, "until the end of turn"
    play_into(s, 1, "richard_the_lionheart", 1)
    end_turn(s)  # the opponent's Contest Phase too: 4 more, Socrates (Life 5) falls before striking
    assert at(s, 1, 3) is None and tomoe.damage == 2


@covers("el_cid")
def test_el_cid() -> None:
    """ "When this is defeated; until the end of the round, other allies get +1 Power." """
    s = fresh(hands=([], ["nikola_tesla"]), active=1)
    place(s, 0, 1, "el_cid", damage=3)
    ally = place(s, 0, 5, "richard_the_lionheart")
    do(s, 1, ability_key("act", place(s, 1, 2, "marie_curie")))  # 1 damage to each enemy character
    assert at(s, 0, 1) is None and "el_cid" in forgotten(s, 0)
    assert power(s, ally) == 5
    end_turn(s)
    assert power(s, ally) == 5, "until the end of the round"


@covers("julius_caesar")
def test_julius_caesar() -> None:
    """ "+1 Power while in the middle slot." "Action — Sacrifice another ally: Until the end of the round,
    this gets +2 Power." """
    s = fresh()
    julius = place(s, 0, 3, "julius_caesar")
    assert power(s, julius) == 3
    key = ability_key("act", julius)
    assert key not in keys(s, 0), "no other ally to sacrifice"
    place(s, 0, 1, "richard_the_lionheart")
    place(s, 0, 5, "nikola_tesla")
    do(s, 0, key)
    do(s, 0, f"pick:t={slot(s, 0, 1).uid}")
    assert at(s, 0, 1) is None and power(s, julius) == 5
    assert key not in keys(s, 0), "once per turn"
    next_turn(s)
    assert power(s, julius) == 5, "until the end of the round"
    do(s, 1, "end")
    do(s, 0, f"move:u={julius.uid}:s=2")
    assert power(s, julius) == 4, "+1 only in the middle slot"


@covers("joyeuse", "iron_crown_of_lombardy", "galileos_telescope", "ulfberht_sword")
@pytest.mark.parametrize(
    ("cid", "text", "gain"),
    [
        ("joyeuse", "The bearer gets +2 Power.\nThe bearer gets +1 Initiative.", (2, 1, 0)),
        ("iron_crown_of_lombardy", "The bearer gets +1 Power.\nThe bearer gets +1 Life.", (1, 0, 1)),
        ("galileos_telescope", "The bearer gets +2 Initiative.", (0, 2, 0)),
        ("ulfberht_sword", "The bearer gets +1 Power.\nThe bearer gets +1 Initiative.", (1, 1, 0)),
    ],
)
def test_relics_for_a_bearer(cid: str, text: str, gain: tuple[int, int, int]) -> None:
    """ "The bearer gets +2 Power." "The bearer gets +1 Initiative." "The bearer gets +1 Power." "The bearer
    gets +1 Life." "The bearer gets +2 Initiative." — played onto a character you control (RULINGS 20)."""
    assert CARDS[cid].text == text
    s = fresh(hands=([cid], []))
    assert not any(k.startswith(f"play:c={cid}") for k in keys(s, 0)), "no character to bear it"
    bearer = place(s, 0, 1, "richard_the_lionheart")
    other = place(s, 0, 2, "nikola_tesla")
    enemy = place(s, 1, 5, "socrates")
    plays = {k for k in keys(s, 0) if k.startswith(f"play:c={cid}")}
    assert plays == {f"play:c={cid}:t={bearer.uid}", f"play:c={cid}:t={other.uid}"}, "only onto an ally"
    do(s, 0, f"play:c={cid}:t={bearer.uid}")
    got = (power(s, bearer), initiative(s, bearer), life(s, bearer))
    assert got == (4 + gain[0], 3 + gain[1], 4 + gain[2])
    assert (power(s, other), initiative(s, other), life(s, other)) == (4, 5, 2)
    assert (power(s, enemy), initiative(s, enemy), life(s, enemy)) == (2, 2, 5)
    next_turn(s)
    assert power(s, bearer) == 4 + gain[0], "for as long as it is attached"
    do(s, 1, "end")
    do(s, 0, f"retire:u={bearer.uid}")
    assert forgotten(s, 0) == ["richard_the_lionheart", cid], "it is detached when its bearer leaves"


@covers("the_oriflamme")
def test_the_oriflamme() -> None:
    """ "Adjacent allies get +1 Power." """
    s = fresh()
    place(s, 0, 3, "the_oriflamme")
    left, right, far = (place(s, 0, c, "richard_the_lionheart") for c in (2, 4, 1))
    enemy = place(s, 1, 2, "richard_the_lionheart")
    assert [power(s, u) for u in (left, right, far, enemy)] == [5, 5, 4, 4]


@covers("stone_of_scone")
def test_stone_of_scone() -> None:
    """ "At the end of your turn; heal 1 damage from all allies." """
    s = fresh()
    place(s, 0, 5, "stone_of_scone")
    hurt = place(s, 0, 1, "richard_the_lionheart", damage=2)
    scratched = place(s, 0, 2, "socrates", damage=1)
    enemy = place(s, 1, 4, "richard_the_lionheart", damage=2)
    next_turn(s)
    assert (hurt.damage, scratched.damage, enemy.damage) == (1, 0, 2)
    next_turn(s)
    assert hurt.damage == 1, "not at the end of the opponent's turn"
    next_turn(s)
    assert hurt.damage == 0


@covers("crossing_the_rubicon")
@pytest.mark.parametrize("middle", ["nikola_tesla", "the_oriflamme"])
def test_crossing_the_rubicon(middle: str) -> None:
    """ "Turning Point — Sacrifice an ally: Defeat the enemy card in the middle slot." """
    s = fresh(hands=(["crossing_the_rubicon"], []))
    place(s, 1, 3, middle)
    assert "play:c=crossing_the_rubicon" not in keys(s, 0), "no ally to sacrifice"
    richard = place(s, 0, 1, "richard_the_lionheart")
    place(s, 0, 5, "socrates")
    side = place(s, 1, 4, "nikola_tesla")
    do(s, 0, "play:c=crossing_the_rubicon")
    do(s, 0, f"pick:t={richard.uid}")
    assert at(s, 0, 1) is None and at(s, 0, 5) == "socrates"
    assert at(s, 1, 3) is None and forgotten(s, 1) == [middle], "a character or a relic"
    assert at(s, 1, 4) == "nikola_tesla" and side.damage == 0
    assert forgotten(s, 0) == ["crossing_the_rubicon", "richard_the_lionheart"]


@covers("coronation_of_charlemagne")
def test_coronation_of_charlemagne() -> None:
    """ "Turning Point — Until the end of the round, an ally gets +2 Power." """
    s = fresh(hands=(["coronation_of_charlemagne"], []))
    richard = place(s, 0, 1, "richard_the_lionheart")
    tesla = place(s, 0, 2, "nikola_tesla")
    enemy = place(s, 1, 5, "socrates")
    do(s, 0, "play:c=coronation_of_charlemagne")
    assert keys(s, 0) == {f"pick:t={richard.uid}", f"pick:t={tesla.uid}"}, "an ally: yours"
    do(s, 0, f"pick:t={richard.uid}")
    assert (power(s, richard), power(s, tesla), power(s, enemy)) == (6, 4, 2)
    end_turn(s)
    assert power(s, richard) == 6, "until the end of the round"
    end_round(s)
    assert not s.modifiers


@covers("battle_of_thermopylae")
def test_battle_of_thermopylae() -> None:
    """ "Turning Point — Until the end of the round, all allies get +2 Life." """
    s = fresh(hands=(["battle_of_thermopylae"], []))
    richard = place(s, 0, 1, "richard_the_lionheart")
    tesla = place(s, 0, 2, "nikola_tesla", damage=3)
    enemy = place(s, 1, 5, "socrates")
    do(s, 0, "play:c=battle_of_thermopylae")
    assert (life(s, richard), life(s, tesla), life(s, enemy)) == (6, 4, 5)
    end_turn(s)
    assert life(s, tesla) == 4 and at(s, 0, 2) == "nikola_tesla", "until the end of the round"
    end_round(s)
    assert not s.modifiers


@covers("battle_of_agincourt")
def test_battle_of_agincourt() -> None:
    """ "Turning Point — Until the end of the round, all enemy characters get -1 Power." """
    s = fresh(hands=(["battle_of_agincourt"], []))
    mine = place(s, 0, 1, "richard_the_lionheart")
    foes = [place(s, 1, 4, "richard_the_lionheart"), place(s, 1, 5, "socrates")]
    do(s, 0, "play:c=battle_of_agincourt")
    assert power(s, mine) == 4 and [power(s, u) for u in foes] == [3, 1]
    end_turn(s)
    assert [power(s, u) for u in foes] == [3, 1], "until the end of the round"


# -- The Lyceum ----------------------------------------------------------------------------------------


@covers("hypatia")
def test_hypatia() -> None:
    """ "Claim — Discard a card: Return a Turning Point from your forgotten zone to your hand." """
    s = fresh(hands=(["hypatia"], []))
    forgotten(s, 0).extend(["printing_revolution", "nikola_tesla"])
    play_into(s, 0, "hypatia", 3)
    assert not s.decisions, "no card to discard: no Claim"

    s = fresh(hands=(["hypatia", "richard_the_lionheart"], []))
    forgotten(s, 0).extend(["printing_revolution", "nikola_tesla", "battle_of_agincourt"])
    hypatia = play_into(s, 0, "hypatia", 3)
    do(s, 0, ability_key("claim", hypatia))  # Richard, the only card in hand, is discarded
    assert keys(s, 0) == {"pick:c=battle_of_agincourt", "pick:c=printing_revolution"}, "Turning Points only"
    do(s, 0, "pick:c=printing_revolution")
    assert hand(s, 0) == ["printing_revolution"]
    assert sorted(forgotten(s, 0)) == ["battle_of_agincourt", "nikola_tesla", "richard_the_lionheart"]


@covers("archimedes")
def test_archimedes() -> None:
    """ "Action — Discard a card: Deal 2 damage to an enemy character." """
    s = fresh()
    archimedes = place(s, 0, 1, "archimedes")
    socrates = place(s, 1, 3, "socrates")
    relic = place(s, 1, 4, "rosetta_stone")
    key = ability_key("act", archimedes)
    assert key not in keys(s, 0), "no card to discard"
    s.sides[0].hand = ["nikola_tesla", "richard_the_lionheart"]
    do(s, 0, key)
    assert keys(s, 0) == {"pick:c=nikola_tesla", "pick:c=richard_the_lionheart"}
    do(s, 0, "pick:c=nikola_tesla")  # the only enemy character is the target
    assert socrates.damage == 2 and relic.damage == 0
    assert hand(s, 0) == ["richard_the_lionheart"] and forgotten(s, 0) == ["nikola_tesla"]
    assert key not in keys(s, 0), "once per turn"


@covers("leonardo_da_vinci")
def test_leonardo_da_vinci() -> None:
    """ "Adjacent allies get +1 Initiative." "Claim — Discard a card: Put a relic from your forgotten zone
    into one of your open slots." """
    s = fresh(hands=(["leonardo_da_vinci", "richard_the_lionheart"], []))
    forgotten(s, 0).extend(["the_oriflamme", "joyeuse", "printing_revolution", "socrates"])
    left = place(s, 0, 2, "nikola_tesla")
    far = place(s, 0, 1, "charlemagne")
    enemy = place(s, 1, 4, "socrates")
    leonardo = play_into(s, 0, "leonardo_da_vinci", 3)
    do(s, 0, ability_key("claim", leonardo))  # discards Richard; the Oriflamme is the only relic that fits
    assert keys(s, 0) == {"pick:s=4", "pick:s=5"}
    do(s, 0, "pick:s=4")
    assert at(s, 0, 4) == "the_oriflamme" and "the_oriflamme" not in forgotten(s, 0)
    assert not s.decisions, "put into a slot, not played: no Claim of its own"
    assert (initiative(s, left), initiative(s, far), initiative(s, leonardo)) == (6, 2, 3)
    assert initiative(s, enemy) == 2


@covers("ada_lovelace")
def test_ada_lovelace() -> None:
    """ "At the start of your turn; draw a card." """
    s = fresh()
    place(s, 0, 1, "ada_lovelace")
    next_turn(s)
    assert hand(s, 0) == [], "not at the start of the opponent's turn"
    next_turn(s)
    assert s.active == 0 and len(hand(s, 0)) == 1


@covers("isaac_newton")
def test_isaac_newton() -> None:
    """ "Other allies get +1 Initiative." """
    s = fresh()
    newton = place(s, 0, 3, "isaac_newton")
    allies = [place(s, 0, 1, "richard_the_lionheart"), place(s, 0, 5, "nikola_tesla")]
    enemy = place(s, 1, 3, "socrates")
    assert [initiative(s, u) for u in allies] == [4, 6]
    assert (initiative(s, newton), initiative(s, enemy)) == (2, 2)


@covers("marie_curie")
def test_marie_curie() -> None:
    """ "Action — Discard a card: Deal 1 damage to all enemy characters." """
    s = fresh()
    curie = place(s, 0, 1, "marie_curie")
    foes = [place(s, 1, 3, "richard_the_lionheart"), place(s, 1, 4, "nikola_tesla")]
    relic = place(s, 1, 5, "rosetta_stone")
    ally = place(s, 0, 2, "socrates")
    key = ability_key("act", curie)
    assert key not in keys(s, 0), "no card to discard"
    s.sides[0].hand = ["richard_the_lionheart"]
    do(s, 0, key)
    assert [u.damage for u in foes] == [1, 1] and relic.damage == 0 and ally.damage == 0
    assert forgotten(s, 0) == ["richard_the_lionheart"]


@covers("galileo_galilei")
def test_galileo_galilei() -> None:
    """ "When your opponent plays a Turning Point; draw a card." """
    s = fresh(hands=(["printing_revolution"], ["printing_revolution"]))
    place(s, 0, 1, "galileo_galilei")
    do(s, 0, "play:c=printing_revolution")
    assert len(hand(s, 0)) == 2, "your own Turning Point: only its 2 cards"
    do(s, 0, "end")
    do(s, 1, "play:c=printing_revolution")
    assert len(hand(s, 0)) == 3


@covers("socrates")
def test_socrates() -> None:
    """ "When this is defeated; your opponent discards a card." """
    s = fresh(hands=(["coronation_of_charlemagne"], ["raid_on_lindisfarne", "nikola_tesla", "socrates"]))
    s.active = s.first = 1
    place(s, 0, 3, "socrates", damage=2)
    do(s, 1, "play:c=raid_on_lindisfarne")  # 3 damage: Socrates is defeated
    assert at(s, 0, 3) is None
    assert keys(s, 1) == {"pick:c=nikola_tesla", "pick:c=socrates"}, "the opponent chooses"
    do(s, 1, "pick:c=nikola_tesla")
    assert hand(s, 1) == ["socrates"] and forgotten(s, 1) == ["raid_on_lindisfarne", "nikola_tesla"]
    assert hand(s, 0) == ["coronation_of_charlemagne"]


@covers("johannes_gutenberg")
def test_johannes_gutenberg() -> None:
    """ "Claim — Discard a card: Draw 2 cards." """
    s = fresh(hands=(["johannes_gutenberg", "richard_the_lionheart"], []))
    deck = list(s.sides[0].deck)
    gutenberg = play_into(s, 0, "johannes_gutenberg", 3)
    do(s, 0, ability_key("claim", gutenberg))
    assert forgotten(s, 0) == ["richard_the_lionheart"]
    assert hand(s, 0) == sorted(deck[-2:])


@covers("zhang_heng")
def test_zhang_heng() -> None:
    """ "When an enemy enters the slot opposite this; until the end of turn, this gets +2 Initiative." """
    s = fresh(hands=([], ["richard_the_lionheart", "socrates"]), active=1)
    zhang = place(s, 0, 3, "zhang_heng")
    play_into(s, 1, "richard_the_lionheart", 2)
    assert initiative(s, zhang) == 3, "not opposite"
    play_into(s, 1, "socrates", 3)
    assert initiative(s, zhang) == 5
    end_turn(s)
    assert initiative(s, zhang) == 3, "until the end of turn"


@covers("imhotep")
def test_imhotep() -> None:
    """ "When you play another card into a slot; until the end of the round, it gets +1 Life." """
    s = fresh(hands=(["richard_the_lionheart", "printing_revolution", "imhotep"], []))
    imhotep = place(s, 0, 1, "imhotep")
    do(s, 0, "play:c=printing_revolution")
    assert not s.modifiers, "a Turning Point is not played into a slot"
    richard = play_into(s, 0, "richard_the_lionheart", 2)
    assert (life(s, richard), life(s, imhotep)) == (5, 4)
    second = play_into(s, 0, "imhotep", 4)
    assert (life(s, second), life(s, imhotep)) == (5, 4), "+1 from the first Imhotep, none from itself"
    end_turn(s)
    assert life(s, richard) == 5, "until the end of the round"


@covers("antikythera_mechanism")
def test_antikythera_mechanism() -> None:
    """ "All allies get +1 Initiative." """
    s = fresh()
    place(s, 0, 3, "antikythera_mechanism")
    allies = [place(s, 0, 1, "richard_the_lionheart"), place(s, 0, 5, "nikola_tesla")]
    enemy = place(s, 1, 1, "socrates")
    assert [initiative(s, u) for u in allies] == [4, 6] and initiative(s, enemy) == 2


@covers("library_of_alexandria")
def test_library_of_alexandria() -> None:
    """ "Claim — Discard a card: Return a card from your forgotten zone to your hand." """
    s = fresh(hands=(["library_of_alexandria", "richard_the_lionheart"], []))
    forgotten(s, 0).extend(["nikola_tesla", "printing_revolution"])
    library = play_into(s, 0, "library_of_alexandria", 3)
    do(s, 0, ability_key("claim", library))
    assert keys(s, 0) == {
        "pick:c=nikola_tesla",
        "pick:c=printing_revolution",
        "pick:c=richard_the_lionheart",
    }, "any card"
    do(s, 0, "pick:c=printing_revolution")
    assert hand(s, 0) == ["printing_revolution"]
    assert forgotten(s, 0) == ["nikola_tesla", "richard_the_lionheart"]


@covers("rosetta_stone")
def test_rosetta_stone() -> None:
    """ "When this is defeated; draw a card." """
    s = fresh()
    place(s, 0, 3, "rosetta_stone", damage=3)
    place(s, 1, 3, "richard_the_lionheart")
    end_turn(s)
    assert at(s, 0, 3) is None and forgotten(s, 0) == ["rosetta_stone"] and len(hand(s, 0)) == 1


@covers("printing_revolution")
def test_printing_revolution() -> None:
    """ "Turning Point — Draw 2 cards." """
    s = fresh(hands=(["printing_revolution"], []))
    deck = list(s.sides[0].deck)
    do(s, 0, "play:c=printing_revolution")
    assert hand(s, 0) == sorted(deck[-2:]) and forgotten(s, 0) == ["printing_revolution"]


@covers("copernican_revolution")
def test_copernican_revolution() -> None:
    """ "Turning Point — Until the end of turn, an ally gets +3 Initiative." """
    s = fresh(hands=(["copernican_revolution"], []))
    richard = place(s, 0, 1, "richard_the_lionheart")
    tesla = place(s, 0, 2, "nikola_tesla")
    place(s, 1, 5, "socrates")
    do(s, 0, "play:c=copernican_revolution")
    assert keys(s, 0) == {f"pick:t={richard.uid}", f"pick:t={tesla.uid}"}
    do(s, 0, f"pick:t={richard.uid}")
    assert (initiative(s, richard), initiative(s, tesla)) == (6, 5)
    end_turn(s)
    assert initiative(s, richard) == 3, "until the end of turn"


@covers("the_renaissance")
def test_the_renaissance() -> None:
    """ "Turning Point — Put a character from your forgotten zone into one of your open slots." """
    s = fresh(hands=(["the_renaissance", "richard_the_lionheart"], []))
    forgotten(s, 0).extend(["johannes_gutenberg", "rosetta_stone", "printing_revolution"])
    place(s, 0, 1, "socrates")
    do(s, 0, "play:c=the_renaissance")  # Gutenberg is the only character there
    assert keys(s, 0) == {"pick:s=2", "pick:s=3", "pick:s=4", "pick:s=5"}
    do(s, 0, "pick:s=3")
    assert at(s, 0, 3) == "johannes_gutenberg" and "johannes_gutenberg" not in forgotten(s, 0)
    assert not s.decisions, "put into a slot, not played: no Claim"
    assert hand(s, 0) == ["richard_the_lionheart"]


@covers("discovery_of_penicillin")
def test_discovery_of_penicillin() -> None:
    """ "Turning Point — Heal 3 damage from all allies." """
    s = fresh(hands=(["discovery_of_penicillin"], []))
    allies = [place(s, 0, 1, "richard_the_lionheart", damage=3), place(s, 0, 2, "socrates", damage=4)]
    enemy = place(s, 1, 5, "socrates", damage=2)
    do(s, 0, "play:c=discovery_of_penicillin")
    assert [u.damage for u in allies] == [0, 1] and enemy.damage == 2


# -- The Tide ------------------------------------------------------------------------------------------


@covers("ching_shih")
def test_ching_shih() -> None:
    """ "Action — Retire this: Defeat an enemy character with 4 or less Power." """
    s = fresh()
    ching = place(s, 0, 1, "ching_shih")
    place(s, 1, 3, "nikola_tesla")  # Power 4
    ragnar = place(s, 1, 4, "ragnar_lodbrok", damage=1)  # Power 5 while damaged
    do(s, 0, ability_key("act", ching))
    assert at(s, 0, 1) is None and forgotten(s, 0) == ["ching_shih"], "retired"
    assert at(s, 1, 3) is None and forgotten(s, 1) == ["nikola_tesla"]
    assert at(s, 1, 4) == "ragnar_lodbrok" and power(s, ragnar) == 5


@covers("blackbeard")
def test_blackbeard() -> None:
    """ "The opposing card gets -1 Power." """
    s = fresh()
    place(s, 0, 3, "blackbeard")
    facing = place(s, 1, 3, "richard_the_lionheart")
    beside = place(s, 1, 4, "richard_the_lionheart")
    ally = place(s, 0, 2, "richard_the_lionheart")
    assert [power(s, u) for u in (facing, beside, ally)] == [3, 4, 4]


@covers("anne_bonny")
def test_anne_bonny() -> None:
    """ "When this enters a slot; deal 1 damage to the opposing card." """
    s = fresh(hands=(["anne_bonny"], []))
    facing = place(s, 1, 3, "richard_the_lionheart")
    other = place(s, 1, 2, "socrates")
    play_into(s, 0, "anne_bonny", 3)
    assert facing.damage == 1 and other.damage == 0, "played"
    mover = place(s, 0, 1, "anne_bonny")
    do(s, 0, f"move:u={mover.uid}:s=2")
    assert other.damage == 1 and facing.damage == 1, "moved"


@covers("mary_read")
def test_mary_read() -> None:
    """ "When an enemy character enters a slot; you may deal 1 damage to it." """
    s = fresh(hands=(["richard_the_lionheart", "nikola_tesla", "rosetta_stone"], []))
    place(s, 1, 5, "mary_read")
    richard = play_into(s, 0, "richard_the_lionheart", 1)
    assert keys(s, 1) == {"use", "pass"}
    do(s, 1, "use")
    assert richard.damage == 1
    tesla = play_into(s, 0, "nikola_tesla", 2)
    do(s, 1, "pass")
    assert tesla.damage == 0, "she may decline"
    play_into(s, 0, "rosetta_stone", 3)
    assert not s.decisions, "a relic is not a character"
    mover = place(s, 0, 4, "socrates")
    do(s, 0, f"move:u={mover.uid}:s=5")
    do(s, 1, "use")
    assert mover.damage == 1, "moved in"


@covers("francis_drake")
def test_francis_drake() -> None:
    """ "Claim — Return a relic to its owner's hand." """
    s = fresh(hands=(["francis_drake"], []))
    stone = place(s, 1, 1, "rosetta_stone")
    bearer = place(s, 1, 2, "richard_the_lionheart")
    joyeuse = attach(s, bearer, "joyeuse")
    mine = place(s, 0, 5, "antikythera_mechanism")
    drake = play_into(s, 0, "francis_drake", 3)
    do(s, 0, ability_key("claim", drake))
    assert keys(s, 0) == {f"pick:t={u.uid}" for u in (stone, joyeuse, mine)}, "any relic"
    do(s, 0, f"pick:t={joyeuse.uid}")
    assert hand(s, 1) == ["joyeuse"] and bearer.attached == [] and power(s, bearer) == 4


@covers("leif_erikson")
def test_leif_erikson() -> None:
    """ "+1 Power while in an outer slot." """
    s = fresh()
    outer, inner, other_outer = (place(s, 0, c, "leif_erikson") for c in (1, 2, 5))
    assert [power(s, u) for u in (outer, inner, other_outer)] == [4, 3, 4]


@covers("zheng_he")
def test_zheng_he() -> None:
    """ "When your opponent plays a card into a slot; you may move this to an adjacent open slot." """
    s = fresh(hands=(["richard_the_lionheart", "rosetta_stone", "printing_revolution"], []))
    zheng = place(s, 1, 3, "zheng_he")
    play_into(s, 0, "richard_the_lionheart", 1)
    assert keys(s, 1) == {"use", "pass"}
    do(s, 1, "use")
    assert keys(s, 1) == {"pick:s=2", "pick:s=4"}
    do(s, 1, "pick:s=4")
    assert at(s, 1, 4) == "zheng_he" and at(s, 1, 3) is None
    play_into(s, 0, "rosetta_stone", 5)
    do(s, 1, "pass")
    assert at(s, 1, 4) == "zheng_he", "he may stay"
    do(s, 0, "play:c=printing_revolution")
    assert not s.decisions, "a Turning Point is not played into a slot"
    assert zheng.damage == 0


@covers("ferdinand_magellan")
def test_ferdinand_magellan() -> None:
    """ "When this moves; until the end of the round, this gets +1 Power." """
    s = fresh()
    magellan = place(s, 0, 2, "ferdinand_magellan")
    do(s, 0, f"move:u={magellan.uid}:s=3")
    assert power(s, magellan) == 4
    end_turn(s)
    assert power(s, magellan) == 4, "until the end of the round"
    end_round(s)
    assert not s.modifiers


@covers("grace_omalley")
def test_grace_omalley() -> None:
    """ "Claim — Return an enemy character with 3 or less Power to its owner's hand." """
    s = fresh(hands=(["grace_omalley"], []))
    place(s, 1, 1, "richard_the_lionheart")  # Power 4
    charlemagne = place(s, 1, 2, "charlemagne")  # 3
    socrates = place(s, 1, 4, "socrates")  # 2
    place(s, 1, 5, "rosetta_stone")
    place(s, 0, 5, "leif_erikson")  # an ally with 3 Power
    grace = play_into(s, 0, "grace_omalley", 3)
    do(s, 0, ability_key("claim", grace))
    assert keys(s, 0) == {f"pick:t={charlemagne.uid}", f"pick:t={socrates.uid}"}
    do(s, 0, f"pick:t={charlemagne.uid}")
    assert at(s, 1, 2) is None and hand(s, 1) == ["charlemagne"] and not forgotten(s, 1)


@covers("ragnar_lodbrok")
def test_ragnar_lodbrok() -> None:
    """ "+2 Power while damaged." """
    s = fresh()
    ragnar = place(s, 0, 1, "ragnar_lodbrok")
    assert power(s, ragnar) == 3
    ragnar.damage = 1
    assert power(s, ragnar) == 5


@covers("henry_morgan")
def test_henry_morgan() -> None:
    """ "When this leaves the field; draw a card." "Action — Retire this: Deal 1 damage to an enemy
    character." """
    s = fresh()
    henry = place(s, 0, 1, "henry_morgan")
    socrates = place(s, 1, 3, "socrates")
    relic = place(s, 1, 4, "rosetta_stone")
    do(s, 0, ability_key("act", henry))
    assert at(s, 0, 1) is None and forgotten(s, 0) == ["henry_morgan"], "retired"
    assert socrates.damage == 1 and relic.damage == 0
    assert len(hand(s, 0)) == 1, "it left the field: a card drawn"
    other = place(s, 0, 2, "henry_morgan")
    do(s, 0, f"retire:u={other.uid}")
    assert len(hand(s, 0)) == 2, "leaving any way"


@covers("ibn_battuta")
def test_ibn_battuta() -> None:
    """ "+2 Power while uncontested." """
    s = fresh()
    ibn = place(s, 0, 2, "ibn_battuta")
    assert power(s, ibn) == 5
    place(s, 1, 2, "rosetta_stone")
    assert power(s, ibn) == 3


@covers("golden_hind")
def test_golden_hind() -> None:
    """ "At the start of your turn; you may move another ally to an adjacent open slot." """
    s = fresh()
    place(s, 0, 5, "golden_hind")
    richard = place(s, 0, 1, "richard_the_lionheart")
    tesla = place(s, 0, 3, "nikola_tesla")
    next_turn(s)
    assert not s.decisions, "not at the start of the opponent's turn"
    next_turn(s)
    assert s.active == 0 and keys(s, 0) == {"use", "pass"}
    do(s, 0, "use")
    assert keys(s, 0) == {f"pick:t={richard.uid}", f"pick:t={tesla.uid}"}, "another ally, not the Hind"
    do(s, 0, f"pick:t={tesla.uid}")
    assert keys(s, 0) == {"pick:s=2", "pick:s=4"}
    do(s, 0, "pick:s=4")
    assert at(s, 0, 4) == "nikola_tesla" and at(s, 0, 3) is None
    next_turn(s)
    next_turn(s)
    do(s, 0, "pass")
    assert at(s, 0, 4) == "nikola_tesla" and at(s, 0, 1) == "richard_the_lionheart", "you may decline"


@covers("jolly_roger")
def test_jolly_roger() -> None:
    """ "All enemy characters get -1 Power." """
    s = fresh()
    place(s, 0, 3, "jolly_roger")
    foes = [place(s, 1, 1, "richard_the_lionheart"), place(s, 1, 3, "socrates")]
    ally = place(s, 0, 1, "richard_the_lionheart")
    assert [power(s, u) for u in foes] == [3, 1] and power(s, ally) == 4


@covers("oseberg_ship")
def test_oseberg_ship() -> None:
    """ "When this is defeated; deal 3 damage to an enemy character." """
    s = fresh()
    place(s, 0, 3, "oseberg_ship", damage=3)
    richard = place(s, 1, 3, "richard_the_lionheart")
    socrates = place(s, 1, 4, "socrates")
    end_turn(s)  # Richard strikes the Ship down in the Contest Phase
    assert at(s, 0, 3) is None
    assert keys(s, 0) == {f"pick:t={richard.uid}", f"pick:t={socrates.uid}"}
    do(s, 0, f"pick:t={socrates.uid}")
    assert socrates.damage == 3 and richard.damage == 0


@covers("raid_on_lindisfarne")
def test_raid_on_lindisfarne() -> None:
    """ "Turning Point — Deal 3 damage to an enemy character." """
    s = fresh(hands=(["raid_on_lindisfarne"], []))
    richard = place(s, 1, 1, "richard_the_lionheart")
    socrates = place(s, 1, 3, "socrates")
    place(s, 1, 4, "rosetta_stone")
    ally = place(s, 0, 5, "richard_the_lionheart")
    do(s, 0, "play:c=raid_on_lindisfarne")
    assert keys(s, 0) == {f"pick:t={richard.uid}", f"pick:t={socrates.uid}"}
    do(s, 0, f"pick:t={socrates.uid}")
    assert socrates.damage == 3 and richard.damage == 0 and ally.damage == 0


@covers("protestant_wind")
def test_protestant_wind() -> None:
    """ "Turning Point — Move an enemy character to an adjacent open slot. Draw a card." """
    s = fresh(hands=(["protestant_wind"], []))
    place(s, 1, 3, "richard_the_lionheart")
    place(s, 1, 5, "rosetta_stone")
    do(s, 0, "play:c=protestant_wind")
    assert keys(s, 0) == {"pick:s=2", "pick:s=4"}, "you choose the slot"
    do(s, 0, "pick:s=2")
    assert at(s, 1, 2) == "richard_the_lionheart" and at(s, 1, 3) is None
    assert len(hand(s, 0)) == 1


@covers("battle_of_red_cliffs")
def test_battle_of_red_cliffs() -> None:
    """ "Turning Point — Deal 1 damage to all enemy characters." """
    s = fresh(hands=(["battle_of_red_cliffs"], []))
    foes = [place(s, 1, 1, "richard_the_lionheart"), place(s, 1, 3, "nikola_tesla")]
    relic = place(s, 1, 4, "rosetta_stone")
    ally = place(s, 0, 5, "socrates")
    do(s, 0, "play:c=battle_of_red_cliffs")
    assert [u.damage for u in foes] == [1, 1] and relic.damage == 0 and ally.damage == 0


@covers("sack_of_panama")
def test_sack_of_panama() -> None:
    """ "Turning Point — Detach an enemy relic. Your opponent discards a card." """
    s = fresh(hands=(["sack_of_panama"], ["nikola_tesla", "socrates"]))
    bearer = place(s, 1, 2, "richard_the_lionheart")
    attach(s, bearer, "joyeuse")
    place(s, 1, 4, "rosetta_stone")  # in a slot: not detached
    mine = place(s, 0, 5, "richard_the_lionheart")
    attach(s, mine, "ulfberht_sword")
    do(s, 0, "play:c=sack_of_panama")  # Joyeuse is the only enemy relic borne by a character
    assert bearer.attached == [] and power(s, bearer) == 4
    assert at(s, 1, 4) == "rosetta_stone" and len(mine.attached) == 1
    assert keys(s, 1) == {"pick:c=nikola_tesla", "pick:c=socrates"}, "the opponent chooses"
    do(s, 1, "pick:c=socrates")
    assert hand(s, 1) == ["nikola_tesla"] and forgotten(s, 1) == ["joyeuse", "socrates"]


# -- choices that can do nothing (RULINGS 22) ------------------------------------------------------------

Built = tuple[OpheliaState, int, str]  # a board, a seat, and the move offered to it iff it does something
Board = Callable[[OpheliaState, bool], Any]  # sets a board up with (True) or without something to act on


def foe(s: OpheliaState, useful: bool, col: int = 2) -> Unit:
    """An enemy character in a slot (column 1-5) when `useful`, else an enemy relic (no character)."""
    return place(s, 1, col, "socrates" if useful else "rosetta_stone")


def ally(s: OpheliaState, useful: bool) -> Unit:
    """An ally in slot 2 when `useful`, else the same character on the enemy side."""
    return place(s, 0 if useful else 1, 2, "socrates")


def deck(s: OpheliaState, useful: bool) -> None:
    """The deck as it is when `useful`, else empty."""
    if not useful:
        s.sides[0].deck.clear()


def forgotten_card(card: str, other: str) -> Board:
    """`card` in the forgotten zone when useful, else `other`."""
    return lambda s, useful: forgotten(s, 0).append(card if useful else other)


def action(cid: str, board: Board, cards: tuple[str, ...] = ("nikola_tesla",)) -> Callable[[bool], Built]:
    """The card on the field with `cards` in hand (to pay a cost): its Action."""

    def build(useful: bool) -> Built:
        s = fresh(hands=(list(cards), []))
        u = place(s, 0, 1, cid)
        board(s, useful)
        return s, 0, ability_key("act", u)

    return build


def claim(cid: str, board: Board, cards: tuple[str, ...] = ("nikola_tesla",)) -> Callable[[bool], Built]:
    """The card played into the middle slot with `cards` also in hand (to pay a cost): its Claim."""

    def build(useful: bool) -> Built:
        s = fresh(hands=([cid, *cards], []))
        board(s, useful)
        return s, 0, ability_key("claim", play_into(s, 0, cid, 3))

    return build


def some_forgotten(s: OpheliaState, useful: bool) -> None:
    """A card in the forgotten zone when `useful`, else none."""
    if useful:
        forgotten(s, 0).append("socrates")


def turning_point(cid: str, board: Board) -> Callable[[bool], Built]:
    """The Turning Point in hand: playing it."""

    def build(useful: bool) -> Built:
        s = fresh(hands=([cid], []))
        board(s, useful)
        return s, 0, f"play:c={cid}"

    return build


def strong_foe(s: OpheliaState, useful: bool) -> None:
    """An enemy character with 4 Power when `useful`, else 5 (Richard bearing the Iron Crown)."""
    richard = place(s, 1, 2, "richard_the_lionheart")
    if not useful:
        attach(s, richard, "iron_crown_of_lombardy")


def sacrifice_and_draw(s: OpheliaState, useful: bool) -> None:
    """An ally to sacrifice; the deck empty unless `useful`."""
    place(s, 0, 5, "socrates")
    deck(s, useful)


def sacrifice_and_foe(s: OpheliaState, useful: bool) -> None:
    """An ally to sacrifice; an enemy character away from the middle column unless not `useful`."""
    place(s, 0, 1, "socrates")
    foe(s, useful, 5)


def middle_foe(s: OpheliaState, useful: bool) -> None:
    """An ally to sacrifice; an enemy card in the middle slot when `useful`, else beside it."""
    place(s, 0, 1, "socrates")
    place(s, 1, 3 if useful else 4, "socrates")


def hurt_ally(s: OpheliaState, useful: bool) -> None:
    """An ally, damaged when `useful`."""
    place(s, 0, 2, "socrates", damage=1 if useful else 0)


def relic_or_not(s: OpheliaState, useful: bool) -> None:
    """A relic on the field when `useful`, else a character."""
    place(s, 1, 5, "rosetta_stone" if useful else "socrates")


def weak_foe(s: OpheliaState, useful: bool) -> None:
    """An enemy character with 2 Power when `useful`, else 4."""
    place(s, 1, 5, "socrates" if useful else "richard_the_lionheart")


def wind(s: OpheliaState, useful: bool) -> None:
    """The deck empty; an enemy character in slot 2 with a relic beside it in 1 and, unless `useful`, in 3."""
    deck(s, False)
    place(s, 1, 1, "rosetta_stone")
    if not useful:
        place(s, 1, 3, "stone_of_scone")
    place(s, 1, 2, "socrates")


def sack(s: OpheliaState, useful: bool) -> None:
    """The opponent's hand empty; an enemy relic borne by a character when `useful`, else one in a slot."""
    if useful:
        attach(s, place(s, 1, 2, "socrates"), "joyeuse")
    else:
        place(s, 1, 2, "rosetta_stone")


def zheng_he(useful: bool) -> Built:
    """P2's Zheng He in the middle slot, an ally beside him in 2 and, unless `useful`, in 4; P1 plays."""
    s = fresh(hands=(["richard_the_lionheart"], []))
    place(s, 1, 3, "zheng_he")
    place(s, 1, 2, "socrates")
    if not useful:
        place(s, 1, 4, "socrates")
    play_into(s, 0, "richard_the_lionheart", 1)
    return s, 1, "use"


def golden_hind(useful: bool) -> Built:
    """The Golden Hind in slot 5, allies in slots 2-4 and, unless `useful`, in 1: at P1's turn start."""
    s = fresh()
    place(s, 0, 5, "golden_hind")
    for col in (2, 3, 4) if useful else (1, 2, 3, 4):
        place(s, 0, col, "socrates")
    next_turn(s)
    next_turn(s)
    assert s.active == 0
    return s, 0, "use"


IDLE: dict[str, Callable[[bool], Built]] = {
    "archimedes": action("archimedes", foe),
    "marie_curie": action("marie_curie", foe),
    "henry_morgan": action("henry_morgan", foe),
    "ching_shih": action("ching_shih", strong_foe),
    "elizabeth_i": action("elizabeth_i", sacrifice_and_draw),
    "alexander_the_great": claim("alexander_the_great", sacrifice_and_foe, ()),
    "hypatia": claim("hypatia", forgotten_card("printing_revolution", "socrates")),
    "leonardo_da_vinci": claim("leonardo_da_vinci", forgotten_card("the_oriflamme", "socrates")),
    "johannes_gutenberg": claim("johannes_gutenberg", deck),
    "library_of_alexandria": claim("library_of_alexandria", some_forgotten),
    "francis_drake": claim("francis_drake", relic_or_not, ()),
    "grace_omalley": claim("grace_omalley", weak_foe, ()),
    "crossing_the_rubicon": turning_point("crossing_the_rubicon", middle_foe),
    "coronation_of_charlemagne": turning_point("coronation_of_charlemagne", ally),
    "battle_of_thermopylae": turning_point("battle_of_thermopylae", ally),
    "battle_of_agincourt": turning_point("battle_of_agincourt", foe),
    "printing_revolution": turning_point("printing_revolution", deck),
    "copernican_revolution": turning_point("copernican_revolution", ally),
    "the_renaissance": turning_point("the_renaissance", forgotten_card("socrates", "rosetta_stone")),
    "discovery_of_penicillin": turning_point("discovery_of_penicillin", hurt_ally),
    "raid_on_lindisfarne": turning_point("raid_on_lindisfarne", foe),
    "battle_of_red_cliffs": turning_point("battle_of_red_cliffs", foe),
    "protestant_wind": turning_point("protestant_wind", wind),
    "sack_of_panama": turning_point("sack_of_panama", sack),
    "zheng_he": zheng_he,
    "golden_hind": golden_hind,
}


@pytest.mark.parametrize("cid", sorted(IDLE))
def test_a_choice_that_can_do_nothing_is_not_offered(cid: str) -> None:
    """RULINGS 22: an Action, a Claim or a Turning Point "is offered only when its cost can be paid ... and
    its effect would do something now", and a 'you may' trigger that would do nothing is not asked. Each
    card on a board where it would do nothing, then on the same board with something to act on."""
    s, seat, key = IDLE[cid](False)
    assert key not in keys(s, seat)
    s, seat, key = IDLE[cid](True)
    assert key in keys(s, seat)


@covers("protestant_wind")
def test_protestant_wind_offers_only_characters_that_can_move() -> None:
    """ "Turning Point — Move an enemy character to an adjacent open slot. Draw a card." RULINGS 22: only a
    character with an open slot beside it is offered."""
    s = fresh(hands=(["protestant_wind"], []))
    place(s, 1, 1, "richard_the_lionheart")
    place(s, 1, 2, "rosetta_stone")
    socrates = place(s, 1, 3, "socrates")
    tesla = place(s, 1, 5, "nikola_tesla")
    do(s, 0, "play:c=protestant_wind")
    assert keys(s, 0) == {f"pick:t={socrates.uid}", f"pick:t={tesla.uid}"}, "not Richard, hemmed in"


@covers("golden_hind")
def test_golden_hind_offers_only_allies_that_can_move() -> None:
    """ "At the start of your turn; you may move another ally to an adjacent open slot." RULINGS 22: only
    an ally with an open slot beside it is offered."""
    s = fresh()
    place(s, 0, 5, "golden_hind")
    place(s, 0, 4, "richard_the_lionheart")  # between the Hind and Socrates: cannot move
    socrates = place(s, 0, 3, "socrates")
    next_turn(s)
    next_turn(s)
    do(s, 0, "use")  # Socrates, the only ally that can move, is the target; slot 2 his only way
    assert not s.decisions and at(s, 0, 2) == "socrates" and at(s, 0, 3) is None
    assert s.slots[0][1] is socrates and at(s, 0, 4) == "richard_the_lionheart"


@covers("mary_read")
def test_mary_read_is_not_asked_once_the_character_is_gone() -> None:
    """ "When an enemy character enters a slot; you may deal 1 damage to it." RULINGS 22: "Mary Read when
    the character has already gone" is not asked."""
    s = fresh(hands=(["nikola_tesla"], []))  # Life 2
    for col in (1, 2, 3):
        place(s, 1, col, "mary_read")
    play_into(s, 0, "nikola_tesla", 5)
    for _ in range(2):
        assert s.decisions[-1].kind == "order"
        do(s, 1, sorted(keys(s, 1))[0])
        do(s, 1, "use")
    assert at(s, 0, 5) is None, "two Marys defeated Tesla"
    assert not s.decisions, "the third is not asked"


@covers("leonardo_da_vinci")
def test_leonardo_may_claim_to_put_back_the_relic_he_discards() -> None:
    """ "Claim — Discard a card: Put a relic from your forgotten zone into one of your open slots."
    "Adjacent allies get +1 Initiative." RULINGS 22: into a slot, the card to recall may be "in hand, since
    the discarded card can be the one put back"."""
    s = fresh(hands=(["leonardo_da_vinci", "the_oriflamme"], []))
    leonardo = play_into(s, 0, "leonardo_da_vinci", 3)
    do(s, 0, ability_key("claim", leonardo))  # discards the Oriflamme, the only card in hand
    assert keys(s, 0) == {"pick:s=1", "pick:s=2", "pick:s=4", "pick:s=5"}
    do(s, 0, "pick:s=4")
    assert at(s, 0, 4) == "the_oriflamme" and not hand(s, 0) and not forgotten(s, 0)


# -- every card ----------------------------------------------------------------------------------------


def test_every_card_has_a_behaviour_test() -> None:
    """One test per card: the cards checked above are exactly the cards of the set."""
    assert sorted(COVERED) == sorted(CARDS)
