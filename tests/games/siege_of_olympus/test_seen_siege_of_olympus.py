"""Siege of Olympus's `on_table` (engine/games/siege_of_olympus/present.py) at positions placed by hand:
damage and modifiers, zones in order, a spell being answered and a deck pick (random games of every game:
tests/games/test_seen.py)."""

from __future__ import annotations

from engine import registry
from engine.games.siege_of_olympus import present
from engine.table.present import Seen
from tests.siege_helpers import fresh, hold, jail, place, say, top

GAME = registry.get("siege_of_olympus")
NAMES = ["Ada", "AI 2"]


def test_now_shows_damage_and_modifiers() -> None:
    s = fresh(hands=(["crius"], ["arges"]))
    heracles = place(s, 0, "heracles", damage=2)  # 5/6, Primordial Attack
    hold(s, 0, 8, 1)  # Bow of Artemis: +1 Attack; Aegis: +1 Health
    place(s, 0, "hephaestus").under.append("hermes")
    place(s, 1, "achilles").crippled = True  # 5/3, Resistant
    jail(s, "tethys")
    s.target = heracles.uid
    buffed = "Attack 6 (+1) · Health 5/7 (+1) · Primordial attack · The turn's target"
    seen = present.on_table(GAME.view(s, 0), NAMES)
    assert seen[0] == Seen("crius", "Your hand", mine=True)
    assert Seen("kronos", "Your commander", "Health 20/20 · Power ready") in seen
    assert Seen("heracles", "Your field", buffed) in seen
    assert Seen("hermes", "Your field, under Hephaestus") in seen
    assert Seen("bow_of_artemis", "Your artifacts") in seen
    assert Seen("gaia", "AI 2 · commander", "Health 20/20 · Power ready") in seen
    assert Seen("achilles", "AI 2 · field", "Attack 5 · Health 3/3 · Crippled") in seen
    assert Seen("tethys", "Tartarus", "Attack 1 · Health 1/1") in seen
    assert Seen("olympus", "Olympus", "13 artifacts left") in seen
    order = [x.where.split(" · ")[0] for x in seen]
    assert order.index("Your field") < order.index("AI 2") < order.index("Agora") < order.index("Tartarus")
    assert "arges" not in {x.card for x in seen}
    their = present.on_table(GAME.view(s, 1), NAMES)
    assert Seen("heracles", "Ada · field", buffed) in their
    assert [x.card for x in their if x.mine] == ["arges"]


def test_a_spell_being_answered_and_a_deck_pick_are_listed() -> None:
    s = fresh(hands=(["oracle_of_delphi"], ["oath_on_the_styx"]))
    place(s, 0, "cottus")
    say(s, 0, "Play a spell", "Oracle of Delphi")
    assert top(s) == "window"
    for viewer in (0, 1, None):
        assert present.on_table(GAME.view(s, viewer), NAMES)[-1] == Seen("oracle_of_delphi", "Being played")
    say(s, 1, "Pass")
    mine = present.on_table(GAME.view(s, 0), NAMES)
    picks = [x.card for x in mine if x.where == "Deck · your pick"]
    assert sorted(picks) == sorted(set(s.deck)) and picks
    assert not any(x.where == "Deck · your pick" for x in present.on_table(GAME.view(s, 1), NAMES))
