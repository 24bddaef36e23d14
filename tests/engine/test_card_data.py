"""Card data files: a malformed card gets a clear error naming the file, the card, the field and why."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.carddata import CardDataError, load
from engine.games.ophion.cards import CARDS, parse_cards

GOBLIN = {
    "name": "Goblin",
    "type": "monster",
    "cost": 2,
    "size": 1,
    "attack": 1,
    "defense": 1,
    "tier": 1,
    "count": 3,
}


def test_shipped_cards_load() -> None:
    """The cards that ship with Ophion pass the checks (16 kinds, the Dragon as read in GAPS.md)."""
    assert len(CARDS) == 16 and CARDS["dragon"].size == 6 and CARDS["goblin"].mana == 2


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"type": "wizard"}, "[cards.bad]: type = 'wizard' is not one of 'monster', 'action', 'upgrade'"),
        ({"cost": -1}, "[cards.bad]: cost = -1 must be from 0"),
        ({"cost": "two"}, "[cards.bad]: cost must be int, not 'two'"),
        ({"size": 9}, "[cards.bad]: size = 9 must be from 1 to 6"),
        ({"colour": "red"}, "[cards.bad]: unknown field colour"),
        ({"count": True}, "[cards.bad]: count must be int, not True"),
    ],
)
def test_malformed_card_is_explained(change: dict[str, object], message: str) -> None:
    """Each kind of mistake names the card and the field."""
    with pytest.raises(CardDataError) as err:
        parse_cards({"cards": {"bad": {**GOBLIN, **change}}}, "mypack.toml")
    assert str(err.value).startswith("mypack.toml") and message in str(err.value)


def test_missing_field_and_empty_pack() -> None:
    """A required field that is absent, and a file without cards."""
    with pytest.raises(CardDataError, match=r"\[cards.bad\]: missing field 'name'"):
        parse_cards({"cards": {"bad": {k: v for k, v in GOBLIN.items() if k != "name"}}})
    with pytest.raises(CardDataError, match="no \\[cards"):
        parse_cards({}, "empty.toml")


def test_toml_syntax_error_names_the_file_and_line(tmp_path: Path) -> None:
    """A file that is not TOML at all."""
    path = tmp_path / "pack.toml"
    path.write_text("[cards.goblin\nname = 'Goblin'\n", encoding="utf-8")
    with pytest.raises(CardDataError, match=r"pack.toml: not valid TOML: .*line 1"):
        load(path)
    with pytest.raises(CardDataError, match="cannot be read"):
        load(tmp_path / "missing.toml")
