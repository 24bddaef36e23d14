"""Ophidian 2350's deck builder (engine/games/ophidian/decks.py): a team and its Arsenal as text, read back
into JSON and checked by RULINGS.md 8 ("Players create a team of up to 4 Gladiators with a combined total of
exactly 10 Victory Points") and 9 ("The Arsenal (deck) must have a minimum of 50 Strategy (non-Gladiaor)
cards with no more than three of any card (by card title)"), every problem said in plain words."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.games.ophidian.cards import CARDS, PROMOTION, STRATEGY, TEAM_CHOICE, TEAMS, check_arsenal, meets
from engine.games.ophidian.decks import BOOK, DEFAULT_NAME, deck_of, team_of, unseen_arsenal, validate
from engine.rng import Rng
from engine.table.present import deck_book_of
from engine.table.present import deck_of as seat_deck

IRON = deck_of(TEAMS["iron_tide"])
TEAM_LINES = "Gladiators: Brakka Vohl, Sera Quill, Juno Kessler\nReinforcements: Rook, Mags\n"


def _arsenal_text(deck: dict) -> str:
    return "\n".join(f"{n} {CARDS[c].name}" for c, n in deck["arsenal"].items())


def _problems(text: str, name: str = "Mine") -> list[str]:
    with pytest.raises(ValueError) as e:
        BOOK.parse(text, name)
    return str(e.value).splitlines()


@pytest.mark.parametrize("tid", sorted(TEAMS))
def test_the_ready_teams_round_trip(tid: str) -> None:
    deck = deck_of(TEAMS[tid])
    assert deck["name"] == TEAMS[tid].name and sum(deck["arsenal"].values()) >= 50
    text = BOOK.text(deck)
    assert BOOK.parse(text, deck["name"]) == deck
    assert BOOK.text(BOOK.parse(text, deck["name"])) == text
    assert validate(deck) == deck
    team = team_of(deck)
    assert team.gladiators == TEAMS[tid].gladiators and team.stack == TEAMS[tid].stack
    assert sorted(team.arsenal) == sorted(TEAMS[tid].arsenal)


def test_the_example_is_iron_tide_and_the_book_stands_for_the_team_choice() -> None:
    assert BOOK.key == TEAM_CHOICE.key == "team"
    assert BOOK.example.startswith("# Iron Tide\nGladiators: Brakka Vohl, Sera Quill, Juno Kessler\n")
    assert BOOK.parse(BOOK.example, "Iron Tide") == IRON
    assert len(BOOK.example) < 1000  # it fits a chat message with room to spare

    class Present:
        deck_book = BOOK

    assert deck_book_of(Present) is BOOK and deck_book_of(object()) is None


def test_the_text_is_forgiving_in_what_it_accepts() -> None:
    """Any case, no punctuation, ids, "3x", "x3", a name alone, repeated lines, notes, headings, bullets and
    a code block's fences."""
    names = [CARDS[c].name for c in IRON["arsenal"]]
    assert "Berserker's Oath" in names and "Gladius Mk. IX" in names
    lines = [
        "```",
        "# my notes",
        "gladiators = brakka vohl; SERA QUILL, juno_kessler_12",
        "reinforcements: rook,mags",
    ]
    lines.append("Arsenal:")
    for c, n in IRON["arsenal"].items():
        name = CARDS[c].name
        if name == "Berserker's Oath":
            lines.append("berserkers oath")  # a name alone: one copy
        elif name == "Gladius Mk. IX":
            lines.append(f"- gladius mk ix x{n}")
        elif n == 3:
            lines += [f"2x {c}", f"1 {name.upper()}"]  # two lines add up
        else:
            lines.append(f"{n} {name}")
    lines += ["// the end", "```"]
    deck = BOOK.parse("\n".join(lines), "  Iron   Tide ")
    assert deck == IRON and deck["name"] == "Iron Tide"
    assert list(deck["arsenal"]) == [c for c in CARDS if c in deck["arsenal"]]  # the pool's order
    assert BOOK.parse(BOOK.example)["name"] == DEFAULT_NAME
    no_reinforcements = BOOK.parse(BOOK.example.replace("Reinforcements: Rook, Mags", "Reinforcements: none"))
    assert no_reinforcements["reinforcements"] == []
    assert BOOK.parse(BOOK.example.replace("Reinforcements: Rook, Mags\n", ""))["reinforcements"] == []


def test_unknown_names_get_a_did_you_mean() -> None:
    text = "Gladiators: Brakka, Sera Quill, Juno Kessler\nReinforcements: Rok, Mags\n" + _arsenal_text(IRON)
    text = text.replace("Pit Hound", "Pit Hund").replace("Overclock", "Zzyzx")
    lines = text.splitlines()
    hund, zzyzx = lines.index("3 Pit Hund") + 1, lines.index("3 Zzyzx") + 1
    assert _problems(text) == [
        "line 1: there is no Gladiator called 'Brakka' — did you mean Brakka Vohl?",
        "line 2: there is no Reinforcement called 'Rok' — did you mean Rook?",
        f"line {hund}: there is no card called 'Pit Hund' — did you mean Pit Hound?",
        f"line {zzyzx}: there is no card called 'Zzyzx'",
        "44 cards: an Arsenal has at least 50 Strategy cards",
    ]


def test_team_problems_are_all_listed() -> None:
    """A team lists 1 to 4 Level 1/2 cards, no two of one Gladiator, exactly 10 VP; 0 to 3 different
    Reinforcements (RULINGS.md 8)."""
    arsenal = "\n" + _arsenal_text(IRON)
    assert _problems("Gladiators: Brakka Vohl, Sera Quill\n" + arsenal)[0].startswith(
        "the Gladiators are worth "
    )
    five = "Gladiators: Brakka Vohl, Sera Quill, Juno Kessler, Mother Ix, Orrin Vale"
    assert "5 Gladiators: a team has at most 4" in _problems(five + arsenal)
    twice = _problems("Gladiators: Brakka Vohl, brakka vohl, Juno Kessler" + arsenal)
    assert "Brakka Vohl 2 times: a team has no duplicates" in twice
    level34 = _problems(f"Gladiators: {PROMOTION['brakka_vohl_12']}, Sera Quill, Juno Kessler" + arsenal)
    assert any("is a Level 3/4 card: a team lists Level 1/2 cards" in p for p in level34)
    wrong = _problems(
        "Gladiators: Rook, Pit Hound\nReinforcements: Sera Quill, Mags, Ninety, Ashen Acolyte" + arsenal
    )
    assert "Rook (rook) is a Reinforcement: list it among the reinforcements" in wrong
    assert "Pit Hound (pit_hound) is not a Gladiator but a Minion" in wrong
    assert "Sera Quill (sera_quill_12) is not a Reinforcement" in wrong
    assert "4 Reinforcements: a team has at most 3" in wrong
    assert "Rook (rook) 2 times: a team has no duplicates" in _problems(
        "Gladiators: Brakka Vohl, Sera Quill, Juno Kessler\nReinforcements: Rook, rook" + arsenal
    )


def test_line_and_arsenal_problems_are_all_listed() -> None:
    """At least 50 Strategy cards, at most 3 of a title, no Gladiators in it (RULINGS.md 9); one Gladiators
    line; a name that fits."""
    assert _problems(_arsenal_text(IRON)) == [
        "there is no Gladiators line: start with one such as "
        "'Gladiators: Brakka Vohl, Sera Quill, Juno Kessler'"
    ]
    text = TEAM_LINES + "4 Pit Hound\n3 Brakka Vohl\n0 Overclock\nGladiators: Mags\n"
    assert _problems(text, "x" * 41) == [
        "line 6: a second Gladiators line (the first is line 1): list them all on one line",
        "Brakka Vohl (brakka_vohl_12) is a Gladiator: an Arsenal holds Strategy cards only",
        "Overclock (overclock) = 0: copies must be a whole number from 1",
        "4 copies of Pit Hound: at most 3 of a title",
        "4 cards: an Arsenal has at least 50 Strategy cards",
        "the name is 41 characters long: at most 40",
    ]


def test_validate_checks_json_again_and_seats_read_their_decks() -> None:
    """The engine gets decks as JSON in options["decks"] and checks them again."""
    with pytest.raises(ValueError, match="a deck is a JSON object"):
        validate(["nope"])
    with pytest.raises(ValueError) as e:
        validate({"name": "x", "gladiators": "brakka_vohl_12", "arsenal": [], "colour": "red"})
    assert str(e.value).splitlines() == [
        "gladiators: a list of card ids is missing",
        "reinforcements: a list of card ids is missing",
        "arsenal: an object of card id -> copies is missing",
        "unknown fields: colour",
    ]
    with pytest.raises(ValueError, match="at least 50"):
        validate({**IRON, "arsenal": {"pit_hound": 3}})
    with pytest.raises(ValueError, match="unknown card 'gone'"):
        team_of({**IRON, "arsenal": {**IRON["arsenal"], "gone": 1}})
    assert BOOK.text({**IRON, "arsenal": {"gone": 2}}).endswith("\n2 gone")  # text never fails
    options = {"decks": [None, IRON], "seat_choices": [{"team": "iron_tide"}, {}]}
    assert seat_deck(options, 1) == IRON and seat_deck(options, 0) is None
    assert seat_deck(options, 2) is None and seat_deck(None, 0) is None and seat_deck({}, 0) is None


def test_an_unseen_arsenal_is_legal_and_the_teams_cards_come_first() -> None:
    """RULINGS 67: a saved deck's unseen cards are dealt "from a legal Arsenal (9) drawn from the pool: every
    card seen, and for the rest random copies, at most 3 of a title in all, first of the cards the opponent's
    team can play"; others only when those run out, and the count is always exact."""
    team = ["brakka_vohl_12", "brakka_vohl_34", "rook"]  # Warrior only
    playable = {c for c in STRATEGY if meets(c, "brakka_vohl_34", 4)}
    seen = {"overhand_smash": 3, "railgun_burst": 1}  # a Tech card, dead in this team but seen
    cards = unseen_arsenal(team, seen, 47, Rng(5))
    assert len(cards) == 47 and set(cards) <= playable and "overhand_smash" not in cards
    assert check_arsenal(cards + ["overhand_smash"] * 3 + ["railgun_burst"]) == []
    assert cards == unseen_arsenal(team, seen, 47, Rng(5)) != unseen_arsenal(team, seen, 47, Rng(6))
    room = 3 * len(playable) - 3
    more = unseen_arsenal(team, seen, room + 10, Rng(5))
    assert len(more) == room + 10 and len(set(more) - playable) > 0
    assert max(Counter([*more, "railgun_burst"]).values()) == 3
