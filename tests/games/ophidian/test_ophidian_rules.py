"""Ophidian 2350's rules, each test quoting the sentence of shared/rules/ophidian-2350.txt (or of
engine/games/ophidian/RULINGS.md, cited as "RULINGS n") it checks.

Positions are built by hand (tests/ophidian_helpers.py): `fresh` skips the setup to a Wave with empty fields
and hands, `place` puts a character in a field with chosen wounds, level and Set, `give` puts cards in a
hand; moves are made by action key (`do`) or menu words (`say`), and `quiet` passes the windows, defence
choices and Cheer offers nobody in the test cares about.
"""

from __future__ import annotations

import pytest

from engine.core import IllegalAction, action
from engine.games.ophidian import board as b
from engine.games.ophidian.cards import PROMOTION, STRATEGY, TEAMS, check_arsenal, meets
from engine.games.ophidian.decks import team_of
from engine.games.ophidian.state import ACTION, SUPPORT, OphidianState
from tests.ophidian_helpers import (
    IRON,
    MIND,
    attack,
    breather,
    char,
    check_quotes,
    do,
    end_wave,
    finish_setup,
    fresh,
    game,
    give,
    in_play,
    keys,
    new_game,
    no_quote,
    pick,
    place,
    play,
    pump_on,
    quiet,
    run_to,
    say,
    stat,
    top,
    who,
)

# -- setup (RULINGS 11) ------------------------------------------------------------------------------------


def test_setup_teams_at_level_1_nine_drawn_cp_11_cheer_0() -> None:
    """ "All Gladiators start in play at Level 1" — "(Set any Level 3/4 Gladiators and Reinforcement
    Gladiators aside to form the Gladiator Stack.)" — "Each player shuffles their Arsenal and draws to the
    maximum hand size (default of 7) plus two cards" — "Set Credit Points (CP represented by ) to 11, and the
    Cheer Value to 0." """
    for seed in range(4):
        s = new_game(seed)
        for seat, tid in enumerate((IRON, MIND)):
            team, side = TEAMS[tid], s.sides[seat]
            assert [c.card for c in side.chars] == list(team.gladiators)
            assert all(c.level == 1 and c.wounds == 0 and not c.set for c in side.chars)
            assert side.stack == list(team.stack) and side.team == team.name
            assert side.started == len(team.gladiators)
            assert len(side.hand) == 9 and len(side.arsenal) == len(team.arsenal) - 9
            assert sorted(side.hand + side.arsenal) == sorted(team.arsenal)
            assert side.cp == 11 and side.cheer == 0 and not side.pyre and not side.scrap
        assert s.phase == "setup" and s.wave == 0


def test_setup_two_to_the_bottom_then_flow_holder_arranges_first() -> None:
    """ "then select 2 cards from hand to place on the bottom of their Arsenal in the order of their choice,
    keeping the remaining 7 cards to form their hand." — "The player with The Flow arranges their Gladiators
    in the Support Field (back row) and/or Action Field (front row) as they see fit. Then the opposing player
    does the same. Once finished the player with The Flow begins!" """
    s = new_game(3)
    first, second = s.flow, 1 - s.flow
    for p in (first, second):
        side = s.sides[p]
        a, c = side.hand[0], side.hand[-1]
        assert who(s) == p and top(s) == "bottom" and "pass" not in keys(s, p)
        do(s, p, f"bottom:c={a}")
        do(s, p, f"bottom:c={c}")
        assert side.arsenal[:2] == [c, a], "the bottom of the Arsenal, in the order chosen"
        assert len(side.hand) == 7 and side.known == 2
    assert top(s) == "arrange" and who(s) == first
    mover = s.sides[first].chars[0]
    do(s, first, f"place:u={mover.uid}")
    assert mover.field == SUPPORT and f"place:u={mover.uid}" not in keys(s, first)
    do(s, first, "pass")
    assert top(s) == "arrange" and who(s) == second, "then the opposing player, seeing the first arrangement"
    do(s, second, "pass")
    assert s.phase == "wave" and s.wave == 1 and not s.decisions and who(s) == first
    assert all(c.field == ACTION for c in s.sides[second].chars)


def test_the_flow_at_setup_is_a_die_roll() -> None:
    """ "Roll a die to see who starts with The Flow" — RULINGS 11: "A random player, from the game's seeded
    RNG" """
    holders = {new_game(seed).flow for seed in range(12)}
    assert holders == {0, 1}
    assert all(new_game(seed).flow == new_game(seed).flow for seed in range(5))


def test_setup_ready_teams_from_the_lobby_or_at_random() -> None:
    """RULINGS 10: "Two ready teams, each legal under 8 and 9 and holding only cards its Gladiators can
    play" """
    s = new_game(2, {"seat_choices": [{"team": MIND}, {"team": IRON}]})
    assert [side.team for side in s.sides] == ["Mind and Marrow", "Iron Tide"]
    s = new_game(2, {"seat_choices": [{}, {"team": MIND}]})
    assert s.sides[1].team == "Mind and Marrow" and s.sides[0].team in {t.name for t in TEAMS.values()}
    seats = [[side.team for side in game.setup(2, seed).sides] for seed in range(8)]
    assert {team for pair in seats for team in pair} == {t.name for t in TEAMS.values()}, "picked at random"
    assert seats == [[side.team for side in game.setup(2, seed).sides] for seed in range(8)], "by the seed"


def _deck(gladiators: list[str], reinforcements: list[str], cards: int = 51) -> dict:
    titles = [c for c in STRATEGY][: (cards + 2) // 3]
    arsenal = {c: 3 for c in titles}
    extra = sum(arsenal.values()) - cards
    arsenal[titles[-1]] -= extra
    return {
        "name": "Night Shift",
        "gladiators": gladiators,
        "reinforcements": reinforcements,
        "arsenal": arsenal,
    }


def test_setup_with_a_custom_deck() -> None:
    """RULINGS 8: "A team lists 1 to 4 Level 1/2 cards, no two of one Gladiator (one name), whose VP add up to
    exactly 10. Its Gladiator Stack holds the Level 3/4 card of each of its Gladiators" — RULINGS 9: "at
    least 50 Minions, Quick-Hits and Pumps, at most 3 copies of a title" """
    deck = _deck(["dusk_mahr_12", "hollow_saint_12"], ["rook"])
    s = new_game(4, {"decks": [deck, None], "seat_choices": [{}, {"team": IRON}]})
    mine = s.sides[0]
    assert mine.team == "Night Shift" and [c.card for c in mine.chars] == ["dusk_mahr_12", "hollow_saint_12"]
    assert mine.stack == ["dusk_mahr_34", "hollow_saint_34", "rook"] and mine.started == 2
    assert sorted(mine.hand + mine.arsenal) == sorted(c for c, n in deck["arsenal"].items() for _ in range(n))
    assert s.sides[1].team == "Iron Tide"


def test_an_illegal_custom_deck_is_refused_with_its_problems() -> None:
    """ "Players create a team of up to 4 Gladiators with a combined total of exactly 10 Victory Points." —
    "The Arsenal (deck) must have a minimum of 50 Strategy (non-Gladiaor) cards with no more than three of any
    card (by card title)." A saved deck checked again at the deal and found illegal (the pool changed since it
    was saved) gives way to a ready team, and the table is told every problem."""
    bad = _deck(["dusk_mahr_12", "sera_quill_12"], ["rook", "rook"], cards=49)
    with pytest.raises(ValueError) as e:
        team_of(bad)
    problems = str(e.value).splitlines()
    assert any("exactly 10" in p for p in problems) and any("at least 50" in p for p in problems)
    assert any("no duplicates" in p for p in problems)
    s = new_game(1, {"decks": [None, bad], "seat_choices": [{"team": IRON}, {}]})
    assert s.sides[1].team in {t.name for t in TEAMS.values()} and s.sides[0].team == "Iron Tide"
    refused = [text for text, _ in s.log if "not legal" in text]
    assert len(refused) == 1 and "P2" in refused[0] and "exactly 10" in refused[0]


# -- The Flow (RULINGS 13-19) ------------------------------------------------------------------------------


def test_plus_keeps_the_flow() -> None:
    """ "Advancing (moving from the Support Field to the Action Field) is +." — RULINGS 14: "After a + action
    has resolved (its responses and triggers included) its player keeps The Flow and acts again" """
    s = fresh(0)
    g = place(s, 0, "brakka_vohl_12", SUPPORT)
    foe = place(s, 1, "kestrel_nine_12")
    do(s, 0, f"advance:u={g.uid}")
    assert g.field == ACTION and g.advanced and s.flow == 0 and who(s) == 0
    attack(s, g, foe)
    assert s.flow == 0 and who(s) == 0 and not s.decisions
    assert f"advance:u={g.uid}" not in keys(s, 0), "RULINGS 19: at most once per Wave"


def test_minus_passes_the_flow_and_an_unset_retreater_sets() -> None:
    """ "Retreating (moving from the Action Field to the Support Field) is -. When an Unset card retreats, it
    becomes Set." — "All - (negative) cards/actions (such as retreating) will pass The Flow to the next player
    after the card/action resolves." """
    s = fresh(0)
    g = place(s, 0, "brakka_vohl_12")
    place(s, 1, "kestrel_nine_12")
    do(s, 0, f"retreat:u={g.uid}")
    assert g.field == SUPPORT and g.set and g.retreated
    assert s.flow == 1 and who(s) == 1


def test_query_is_plus_or_minus_by_its_condition() -> None:
    """ "There are also ? cards and actions. The game text of the card/action will determine if it is + or
    -." — RULINGS 15: "as it resolves it is + if that condition holds at that moment, − otherwise." """
    for minion, plus in (("psi_hound", True), ("vat_brute", False)):
        s = fresh(0)
        pike = place(s, 0, "gideon_pike_12")
        place(s, 1, "kestrel_nine_12", set_=True)  # Set: it cannot Intercept
        m = place(s, 1, minion)
        do(s, 0, f"ability:u={pike.uid}:a=0")
        assert pike.set, "↷: the card Sets"
        assert in_play(s, m.uid) != plus
        assert s.flow == (0 if plus else 1), minion


def test_a_query_cancelled_before_its_flow_step_is_minus() -> None:
    """RULINGS 15: "A ? action that is cancelled (43), or whose flow step is never reached, is −." —
    RULINGS 43: "a cancelled card is scrapped without effect, its CP spent and its Unique play counted." """
    s = fresh(0, hands=(["emp_grenade"], ["system_crash"]))
    place(s, 0, "juno_kessler_12")
    place(s, 1, "juno_kessler_12", level=2)
    m = place(s, 1, "psi_hound", wounds=1)
    play(s, 0, "emp_grenade")
    assert top(s) == "window" and who(s) == 1
    assert "respond:c=system_crash" in keys(s, 1)
    do(s, 1, "respond:c=system_crash")
    quiet(s)
    assert in_play(s, m.uid) and m.wounds == 1, "cancelled: no effect"
    assert s.sides[0].cp == 11 - 2 and s.sides[1].cp == 11 - 3
    assert "emp_grenade" in s.sides[0].scrap and "system_crash" in s.sides[1].scrap
    assert s.flow == 1, "a cancelled ? is −"


def test_a_pass_passes_the_flow_and_two_consecutive_passes_end_the_wave() -> None:
    """ "A Wave ends when both players consecutively" pass — RULINGS 18: "A pass is an action with symbol
    −: The Flow passes to the opponent." """
    s = fresh(0)
    place(s, 0, "brakka_vohl_12")
    foe = place(s, 1, "kestrel_nine_12", SUPPORT)
    do(s, 0, "pass")
    assert s.flow == 1 and s.passed and s.wave == 1 and s.phase == "wave"
    do(s, 1, f"advance:u={foe.uid}")
    assert s.flow == 1 and not s.passed, "an action between the passes: not consecutive"
    do(s, 1, "pass")
    assert s.flow == 0 and s.phase == "wave"
    do(s, 0, "pass")
    assert s.phase != "wave", "both players passed one after the other: the Wave is over"


def test_responses_do_not_change_the_flow() -> None:
    """ "In addition to + and - actions there are Responses which do not cause The Flow to change but instead
    act as brief interruptions." """
    s = fresh(0, hands=([], ["pulse_shield"]))
    g = place(s, 0, "brakka_vohl_12")
    foe = place(s, 1, "juno_kessler_12")
    attack(s, g, foe)
    do(s, 1, "respond:c=pulse_shield")
    quiet(s)
    assert foe.wounds == 0, "Pulse Shield prevented the 2 damage"
    assert s.flow == 0 and who(s) == 0 and s.sides[0].actions == 1 and s.sides[1].actions == 0


def test_the_opponent_may_spend_1_cheer_to_turn_a_plus_into_minus() -> None:
    """ "During or after a + action but before the next action is performed, 1 Cheer can be used/spent to
    change that + action to a - action. The action will still resolve as normal, but The Flow will pass to the
    next player when it is complete." — RULINGS 17: "the player without The Flow, if they have at least 1
    Cheer (public), is asked to spend 1 Cheer or pass" """
    s = fresh(0)
    g = place(s, 0, "brakka_vohl_12", SUPPORT)
    place(s, 1, "kestrel_nine_12")
    s.sides[1].cheer = 2
    do(s, 0, f"advance:u={g.uid}")
    assert top(s) == "cheer" and who(s) == 1 and keys(s, 1) == {"spend", "pass"}
    do(s, 1, "spend")
    assert g.field == ACTION, "the action still resolved as normal"
    assert s.sides[1].cheer == 1 and s.flow == 1 and who(s) == 1
    assert not s.passed and s.sides[1].actions == 0, "spending is neither an action nor a pass"


def test_the_flow_player_may_spend_1_cheer_and_only_after_a_plus() -> None:
    """RULINGS 17: "the player with The Flow may spend 1 Cheer as their next move instead of an action." —
    "At most 1 Cheer per action." """
    s = fresh(0)
    g = place(s, 0, "brakka_vohl_12", SUPPORT)
    foe = place(s, 1, "kestrel_nine_12", SUPPORT)
    s.sides[0].cheer = 2
    assert "spend" not in keys(s, 0), "nothing done yet"
    do(s, 0, f"advance:u={g.uid}")
    assert top(s) is None, "an opponent without Cheer is not asked"
    assert "spend" in keys(s, 0)
    do(s, 0, "spend")
    assert s.sides[0].cheer == 1 and s.flow == 1
    assert "spend" not in keys(s, 1), "the action was already turned"
    s.sides[1].cheer = 0
    do(s, 1, f"advance:u={foe.uid}")
    assert top(s) == "cheer" and who(s) == 0, "a + by P2: P1 (with Cheer) is asked"
    do(s, 0, "pass")
    assert s.flow == 1 and "spend" not in keys(s, 1), "P2 has no Cheer to spend"
    do(s, 1, f"retreat:u={foe.uid}")
    assert s.flow == 0 and "spend" not in keys(s, 0), "a − action: nothing to turn"


def test_after_the_100th_action_only_passing() -> None:
    """RULINGS 19: "after a player's 100th action in a Wave, passing is the only action they are offered." """
    s = fresh(0, hands=(["stim_shot"], []))
    g = place(s, 0, "brakka_vohl_12", SUPPORT)
    place(s, 1, "kestrel_nine_12")
    s.sides[0].actions = 99
    assert {"pass", f"advance:u={g.uid}", "play:c=stim_shot"} <= keys(s, 0)
    do(s, 0, f"advance:u={g.uid}")
    assert s.sides[0].actions == 100 and keys(s, 0) == {"pass"}


# -- responses and their windows (RULINGS 16, 43, 63) ---------------------------------------------------


def test_offensive_response_only_with_the_flow() -> None:
    """ "OR - Offensive Response (must have The Flow to play)" — RULINGS 63: "OR cards answer ally_attacks or
    blocked" """
    s = fresh(0, hands=(["cheap_shot"], []))
    g = place(s, 0, "brakka_vohl_12")
    foe = place(s, 1, "kestrel_nine_12")
    attack(s, g, foe)
    assert top(s) == "window" and who(s) == 0 and s.decisions[-1].data["events"] == ["ally_attacks"]
    assert keys(s, 0) == {"respond:c=cheap_shot", "pass"}
    do(s, 0, "respond:c=cheap_shot")
    quiet(s)
    assert foe.wounds == 3, "2 ADMG + 1 for this attack"
    assert stat(s, g, "admg") == 2, "for this attack only"
    assert game.responses(s, 0, ["ally_attacks"]) == []  # played: none left in hand
    give(s, 1, "cheap_shot")
    assert s.flow == 0 and game.responses(s, 1, ["ally_attacks", "blocked"]) == [], "P2 has no Flow"


def test_defensive_response_only_without_the_flow() -> None:
    """ "DR - Defensive Response (playable only when a player does not have The Flow)." """
    s = fresh(0, hands=(["brutal_counter"], ["brutal_counter"]))
    g = place(s, 0, "sera_quill_12")
    foe = place(s, 1, "brakka_vohl_12")
    assert game.responses(s, 0, ["ally_attacked", "enemy_plays"]) == [], "P1 has The Flow"
    attack(s, g, foe)
    assert top(s) == "window" and who(s) == 1 and keys(s, 1) == {"respond:c=brutal_counter", "pass"}
    do(s, 1, "respond:c=brutal_counter")
    quiet(s)
    assert foe.wounds == 2 and g.wounds == 2, "DDMG 2 for this attack"


def test_response_any_time_with_or_without_the_flow() -> None:
    """ "R - Response (playable any time as defined by the card or ability as a reaction)." """
    s = fresh(0, hands=(["dig_deep"], ["dig_deep"]))
    sera = place(s, 0, "sera_quill_12", wounds=5)
    place(s, 0, "juno_kessler_12", SUPPORT)
    foe = place(s, 1, "dusk_mahr_12")
    attack(s, sera, foe)
    do(s, 1, "pass")  # P2's ally_attacked window
    do(s, 0, "pass")  # P1's ally_attacks window
    assert not in_play(s, sera.uid), "Dusk Mahr's DDMG 1 defeats it"
    assert top(s) == "window" and who(s) == 0 and s.decisions[-1].data["events"] == ["ally_defeated"]
    assert "respond:c=dig_deep" in keys(s, 0), "with The Flow"
    hand = len(s.sides[0].hand)
    do(s, 0, "respond:c=dig_deep")
    assert len(s.sides[0].hand) == hand - 1 + 2
    s = fresh(0, hands=([], ["dig_deep"]))
    g = place(s, 0, "dusk_mahr_12")
    foe = place(s, 1, "kestrel_nine_12", wounds=4)
    place(s, 1, "vashti_cole_12", SUPPORT, set_=True)
    attack(s, g, foe)
    do(s, 1, "pass")  # P2's ally_attacked window
    assert not in_play(s, foe.uid)
    assert top(s) == "window" and who(s) == 1 and s.decisions[-1].data["events"] == ["ally_defeated"]
    assert "respond:c=dig_deep" in keys(s, 1), "without The Flow"


def test_windows_open_on_their_events_whatever_the_hand_holds() -> None:
    """RULINGS 16: "A window opens whenever its event happens and the player holds at least one card — hand
    sizes are public — whether or not they hold a card that could answer, so a window tells the other player
    nothing about the hand" """
    s = fresh(0, hands=(["pit_hound", "pit_hound"], ["pit_hound"]))
    g = place(s, 0, "brakka_vohl_12")
    foe = place(s, 1, "kestrel_nine_12", wounds=4)
    place(s, 1, "vashti_cole_12", SUPPORT, set_=True)
    attack(s, g, foe)
    assert top(s) == "window" and who(s) == 1 and s.decisions[-1].data["events"] == ["ally_attacked"]
    assert keys(s, 1) == {"pass"}
    do(s, 1, "pass")
    assert top(s) == "window" and who(s) == 0 and s.decisions[-1].data["events"] == ["ally_attacks"]
    assert keys(s, 0) == {"pass"}
    do(s, 0, "pass")
    assert not in_play(s, foe.uid)
    assert top(s) == "window" and who(s) == 1 and s.decisions[-1].data["events"] == ["ally_defeated"]
    do(s, 1, "pass")
    play(s, 0, "pit_hound")
    assert top(s) == "window" and who(s) == 1 and s.decisions[-1].data["events"] == ["enemy_plays"]
    assert keys(s, 1) == {"pass"}
    do(s, 1, "pass")
    assert not s.decisions and who(s) == 0
    s.sides[1].hand = []
    s.sides[0].hand = []
    hound = place(s, 0, "pit_hound")
    attack(s, hound, char(s, 1, "vashti_cole_12"))
    assert not s.decisions, "an empty hand: no window"


def test_a_blocked_attack_opens_the_attackers_blocked_window() -> None:
    """RULINGS 16: "ally_attacks (and blocked if it was Intercepted or Protected) — a character you control
    attacks: you, after the defence, before damage" """
    s = fresh(0, hands=(["spiteful_echo"], []))
    g = place(s, 0, "nyx_arden_12")
    foe = place(s, 1, "kestrel_nine_12")
    guard = place(s, 1, "vashti_cole_12")
    attack(s, g, foe)
    do(s, 1, f"intercept:u={guard.uid}")
    assert top(s) == "window" and s.decisions[-1].data["events"] == ["ally_attacks", "blocked"]
    do(s, 0, "respond:c=spiteful_echo")
    quiet(s)
    assert guard.wounds == 2 + 1 and foe.wounds == 0, "1 XDMG to the character now taking it, then 2 ADMG"


def test_no_chains_a_response_opens_no_window() -> None:
    """RULINGS 16: "In a window the player plays one response or passes. A response opens no window and
    nothing answers a response (no chains)." """
    s = fresh(0, hands=(["pit_hound"], ["pulse_shield", "pulse_shield"]))
    g = place(s, 0, "brakka_vohl_12")
    foe = place(s, 1, "juno_kessler_12")
    attack(s, g, foe)
    do(s, 1, "respond:c=pulse_shield")
    assert top(s) == "window" and who(s) == 0, "no second response in the same window"
    assert s.decisions[-1].data["events"] == ["ally_attacks"], "no enemy_plays window for a response"
    do(s, 0, "pass")
    assert not s.decisions and foe.wounds == 0 and s.sides[1].hand == ["pulse_shield"]


def test_a_characters_r_ability_is_offered_as_you_may() -> None:
    """RULINGS 42: "is a character's response: its controller may use it, paying its cost, and The Flow is
    unchanged (16)." """
    s = fresh(0)
    g = place(s, 0, "brakka_vohl_12")
    nyx = place(s, 1, "nyx_arden_12")
    attack(s, g, nyx)
    assert top(s) == "may" and who(s) == 1 and keys(s, 1) == {"use", "pass"}
    do(s, 1, "use")
    quiet(s)
    assert nyx.set and nyx.wounds == 1 and s.flow == 0, "−1 ADMG for this attack; ↷ paid"
    assert stat(s, g, "admg") == 2


def test_smoke_screen_cancels_an_attack() -> None:
    """RULINGS 43: "a cancelled attack deals no damage and its attacker stays Set (the Cheer already generated
    goes to the attacker, 32)" — RULINGS 37: "also when cancelled (43)." """
    s = fresh(0, hands=(["pit_hound"], ["smoke_screen"]))
    g = place(s, 0, "brakka_vohl_12")
    foe = place(s, 1, "kestrel_nine_12", level=2)
    place(s, 1, "vashti_cole_12")
    attack(s, g, foe)
    do(s, 1, "respond:c=smoke_screen")
    assert not s.decisions, "no defence to choose and no window for the attacker: the attack is over"
    assert foe.wounds == 0 and g.wounds == 0 and g.set
    assert s.sides[0].cheer == 1 and s.sides[1].cheer == 0
    assert s.sides[1].scrap == ["smoke_screen"] and s.sides[1].cp == 11 - 3
    assert s.flow == 0, "the attack keeps its symbol: +"


def test_system_crash_cancels_a_card() -> None:
    """ "Cards with the Unique keyword can only be played once per player, per Wave." — RULINGS 43: "a
    cancelled card is scrapped without effect, its CP spent and its Unique play counted. The cancelled action
    keeps its symbol" """
    s = fresh(0, hands=(["crowd_surge"], ["system_crash"]))
    place(s, 0, "sera_quill_12")
    place(s, 1, "juno_kessler_12", level=2)
    play(s, 0, "crowd_surge")
    do(s, 1, "respond:c=system_crash")
    assert s.sides[0].cheer == 0 and s.sides[0].cp == 11 - 2 and s.sides[0].scrap == ["crowd_surge"]
    assert s.flow == 0 and who(s) == 0, "a + card cancelled is still +"
    s = fresh(0, hands=(["sponsors_bonus", "sponsors_bonus"], ["system_crash"]))
    place(s, 0, "sera_quill_12")
    place(s, 1, "juno_kessler_12", level=2)
    s.sides[0].cheer = 3
    play(s, 0, "sponsors_bonus")
    do(s, 1, "respond:c=system_crash")
    assert s.sides[0].cp == 11 and s.flow == 1, "no CP gained; − passes The Flow"
    do(s, 1, "pass")
    assert "play:c=sponsors_bonus" not in keys(s, 0), "its Unique play was counted"


# -- attacks, Intercept, Protect, DDMG and XDMG (RULINGS 23-27) ------------------------------------------


def test_attacks_only_from_the_action_field_only_on_enemies_and_the_attacker_sets() -> None:
    """ "Attacks can only be made from the Action Field. Attacking Characters may attack Characters in the
    Support or Action Field. A player may not attack Characters they control." — "Attacking and Intercepting
    (and using certain abilities) causes a card to Set." """
    s = fresh(0)
    a = place(s, 0, "brakka_vohl_12")
    place(s, 0, "sera_quill_12", SUPPORT)
    place(s, 0, "pit_hound", set_=True)
    t, u = place(s, 1, "kestrel_nine_12"), place(s, 1, "vashti_cole_12", SUPPORT)
    assert {k for k in keys(s, 0) if k.startswith("attack")} == {
        f"attack:u={a.uid}:t={t.uid}",
        f"attack:u={a.uid}:t={u.uid}",
    }
    with pytest.raises(IllegalAction):
        game.apply(s, action(0, "attack", (("u", a.uid), ("t", a.uid))))
    attack(s, a, u)
    quiet(s)
    assert a.set and u.wounds == 2
    assert not any(k.startswith("attack") for k in keys(s, 0)), "Set cards cannot be used to Set again"


def test_a_set_gladiator_does_not_attack_again_through_a_pump() -> None:
    """ "Set cards cannot be used to Set again that Wave, unless they become Unset from an action or card." —
    RULINGS 21: "So a Set Gladiator cannot attack again through a Pump" — RULINGS 64: "The attacker must be
    in the Action Field and Unset, and it Sets (21): a Set bearer does not attack, and the ability is not
    offered." """
    s = fresh(0)
    g = place(s, 0, "brakka_vohl_12")
    uplink = pump_on(s, 0, "targeting_uplink", g)
    foe = place(s, 1, "kestrel_nine_12")
    use = f"ability:u={uplink.uid}:a=1"
    assert use in keys(s, 0), "an Unset bearer: offered"
    attack(s, g, foe)
    quiet(s)
    assert g.set and not uplink.set and foe.wounds == 2
    assert use not in keys(s, 0), "the bearer is Set: the Pump's attack is not offered"
    g.set = False  # as if Unset by a card
    assert use in keys(s, 0), "unless they become Unset from an action or card"
    do(s, 0, use)
    quiet(s)
    assert g.set and uplink.set and foe.wounds == 4, "the bearer attacks and Sets; the Pump Sets for its ↷"
    assert use not in keys(s, 0)


def test_intercept_same_field_sets_takes_the_damage_and_the_cheer() -> None:
    """ "A Gladiator can take the damage for another Character if they are in the SAME FIELD as the target.
    The Intercepting Gladiator Sets to jump in the way of the attack, becoming the target and receiving the
    Damage instead of the original target." — "If the attack is Intercepted, the Intercepting player gains the
    Cheer" """
    s = fresh(0)
    g = place(s, 0, "brakka_vohl_12")
    dusk = place(s, 1, "dusk_mahr_12")
    guard = place(s, 1, "kestrel_nine_12")
    place(s, 1, "vashti_cole_12", SUPPORT)  # another field
    place(s, 1, "lyra_shen_12", set_=True)  # Set
    place(s, 1, "pit_hound")  # a Minion
    attack(s, g, dusk)
    assert top(s) == "defend" and who(s) == 1 and keys(s, 1) == {f"intercept:u={guard.uid}", "pass"}
    do(s, 1, f"intercept:u={guard.uid}")
    assert guard.set and guard.wounds == 2 and dusk.wounds == 0
    assert g.wounds == 0, "no DDMG from the original target when Intercepted"
    assert (s.sides[0].cheer, s.sides[1].cheer) == (0, 1)
    assert s.flow == 0, "Intercepting does not touch The Flow"


def test_protect_an_action_field_gladiator_for_a_support_field_character() -> None:
    """ "An Unset Gladiator in the Action Field may" Protect "a Character in the Support Field. This is
    similar to Intercepting, except that it does not cause the Gladiator to Set." — "(Protecting does not
    grant Cheer)" — RULINGS 32: "the parenthesis only says the protecting player gains none." """
    s = fresh(0)
    brakka, sera = place(s, 0, "brakka_vohl_12"), place(s, 0, "sera_quill_12")
    back = place(s, 1, "dusk_mahr_12", SUPPORT)
    shield = place(s, 1, "kestrel_nine_12")
    mate = place(s, 1, "vashti_cole_12", SUPPORT)
    place(s, 1, "pit_hound")
    attack(s, brakka, back)
    assert keys(s, 1) == {f"protect:u={shield.uid}", f"intercept:u={mate.uid}", "pass"}
    do(s, 1, f"protect:u={shield.uid}")
    assert not shield.set and shield.wounds == 2 and back.wounds == 0 and brakka.wounds == 0
    assert (s.sides[0].cheer, s.sides[1].cheer) == (1, 0)
    attack(s, sera, back)
    assert f"protect:u={shield.uid}" in keys(s, 1), "still Unset: it may Protect again"


def test_minions_never_intercept_or_protect() -> None:
    """RULINGS 25: "Only Gladiators intercept or protect" — RULINGS 36: "They never Intercept or Protect
    (25)" """
    s = fresh(0)
    g = place(s, 0, "brakka_vohl_12")
    target = place(s, 1, "kestrel_nine_12", SUPPORT)
    place(s, 1, "pit_hound")
    place(s, 1, "arena_veteran", SUPPORT)
    attack(s, g, target)
    assert not s.decisions and target.wounds == 2


def test_xdmg_cannot_be_intercepted_or_protected() -> None:
    """ "XDMG is Direct Damage, which cannot be Protected or Intercepted." — RULINGS 24: "it is otherwise
    ordinary damage (Cheer, DDMG and Rage still apply to an XDMG attack)." """
    s = fresh(0)
    juno = place(s, 0, "juno_kessler_12")
    dusk = place(s, 1, "dusk_mahr_12")
    place(s, 1, "kestrel_nine_12")
    do(s, 0, f"ability:u={juno.uid}:a=0")
    assert top(s) == "pick"
    pick(s, dusk)
    assert not s.decisions, "no defence offered"
    assert juno.set and dusk.wounds == 2 and juno.wounds == 1 and s.sides[0].cheer == 1
    assert s.flow == 0


def test_ddmg_only_while_being_attacked_even_if_it_falls() -> None:
    """ "DDMG is defense damage, which is only dealt while the card that can inflict DDMG is being attacked."
    — RULINGS 24: "the attacker takes the original target's DDMG, even if the target falls to the same
    attack" """
    s = fresh(0)
    dusk = place(s, 0, "dusk_mahr_12")
    foe = place(s, 1, "kestrel_nine_12")
    attack(s, dusk, foe)
    assert foe.wounds == 3 and dusk.wounds == 0, "attacking, Dusk Mahr's DDMG is not dealt"
    s = fresh(0)
    g = place(s, 0, "sera_quill_12")
    saint = place(s, 1, "hollow_saint_12", wounds=7, set_=True)  # Set: no RDMG
    place(s, 1, "kestrel_nine_12", SUPPORT, set_=True)
    attack(s, g, saint)
    assert not in_play(s, saint.uid) and g.wounds == 2, "The Hollow Saint's DDMG 2 as it falls"


def test_damage_from_a_card_can_be_intercepted_unless_xdmg() -> None:
    """RULINGS 27: "A damage effect (wound) that chooses one character of the opponent's may be Intercepted or
    Protected by that character's controller under 25 and 26, as their choice before it is dealt, unless it
    is XDMG. It is not an attack: no Cheer, no DDMG, no Rage effects, no window of its own." """
    s = fresh(0, hands=(["mind_spike", "hex_bolt"], []))
    place(s, 0, "nyx_arden_12")
    foe = place(s, 1, "kestrel_nine_12")
    guard = place(s, 1, "vashti_cole_12")
    play(s, 0, "mind_spike")
    pick(s, foe)
    assert top(s) == "defend" and keys(s, 1) == {f"intercept:u={guard.uid}", "pass"}
    do(s, 1, f"intercept:u={guard.uid}")
    assert guard.set and guard.wounds == 2 and foe.wounds == 0
    assert s.sides[0].cheer == s.sides[1].cheer == 0 and s.flow == 0
    guard.set = False
    play(s, 0, "hex_bolt")
    pick(s, foe)
    assert not s.decisions and foe.wounds == 2 and guard.wounds == 2
    s = fresh(0, hands=(["mind_spike"], []))
    place(s, 0, "nyx_arden_12")
    back = place(s, 1, "kestrel_nine_12", SUPPORT)
    front = place(s, 1, "vashti_cole_12")
    play(s, 0, "mind_spike")
    pick(s, back)
    assert keys(s, 1) == {f"protect:u={front.uid}", "pass"}
    do(s, 1, f"protect:u={front.uid}")
    assert front.wounds == 2 and not front.set and back.wounds == 0


# -- Rage (RULINGS 29) ---------------------------------------------------------------------------------------


def test_raging_when_wounds_reach_rage() -> None:
    """ "When a Gladiator has wounds on them equal to or greater than their value they are Raging." —
    RULINGS 29: "read from the wounds at each moment: healed below its Rage, a Gladiator stops Raging." """
    s = fresh(0)
    brakka = place(s, 0, "brakka_vohl_12", wounds=3)
    hound = place(s, 0, "arena_veteran", wounds=4)
    place(s, 1, "kestrel_nine_12")
    assert stat(s, brakka, "rage") == 4 and not b.raging_now(s, brakka)
    brakka.wounds = 4
    assert b.raging_now(s, brakka) and stat(s, brakka, "admg") == 3, "While Raging: +1 ADMG"
    view = game.view(s, None)["players"][0]["characters"]
    assert view[0]["raging"] and not view[1]["raging"] and view[1]["rage"] is None
    assert not b.raging_now(s, hound)
    brakka.wounds = 3
    assert not b.raging_now(s, brakka) and stat(s, brakka, "admg") == 2


def test_attacking_an_unset_raging_gladiator_costs_1_rdmg() -> None:
    """ "If a Character attacks an Unset Raging Gladiator that Character takes 1 RDMG (Rage Damage, always a
    default of 1)." — RULINGS 29: "RDMG is always 1, whatever modifiers or XDMG the attack has, and Minion
    attackers take it too." """
    s = fresh(0)
    sera = place(s, 0, "sera_quill_12")
    hound = place(s, 0, "pit_hound")
    juno = place(s, 0, "juno_kessler_12")
    brakka = place(s, 1, "brakka_vohl_12", wounds=4)
    attack(s, sera, brakka)
    assert sera.wounds == 1 and brakka.wounds == 6 and not brakka.set
    place(s, 1, "kestrel_nine_12", SUPPORT, set_=True)
    attack(s, hound, brakka)
    assert hound.wounds == 1 and not in_play(s, brakka.uid), "RDMG as it falls (RULINGS 30)"
    s = fresh(0)
    juno = place(s, 0, "juno_kessler_12")
    brakka = place(s, 1, "brakka_vohl_12", wounds=4)
    do(s, 0, f"ability:u={juno.uid}:a=0")
    assert juno.wounds == 1 and brakka.wounds == 6, "an XDMG attack: still 1 RDMG"


def test_attacking_a_set_raging_gladiator_unsets_it() -> None:
    """ "If a Character attacks a Set Raging Gladiator, the Raging Gladiator Unsets." """
    s = fresh(0)
    sera = place(s, 0, "sera_quill_12")
    brakka = place(s, 1, "brakka_vohl_12", wounds=4, set_=True)
    attack(s, sera, brakka)
    assert not brakka.set and brakka.wounds == 6 and sera.wounds == 0


def test_the_targets_set_or_unset_is_read_as_the_damage_is_dealt() -> None:
    """RULINGS 29: "For this and for RDMG the target's Set or Unset is read at step 6, not at the declaration:
    a target that Set or Unset in between" … "counts as it is then." """
    s = fresh(0)
    sera = place(s, 0, "sera_quill_12")
    nyx = place(s, 1, "nyx_arden_12", wounds=3)
    attack(s, sera, nyx)
    do(s, 1, "use")  # ↷: Nyx Arden Sets, the attacker gets −1 ADMG
    quiet(s)
    assert nyx.wounds == 4 and not nyx.set and sera.wounds == 0, "Set at step 6: it Unsets, no RDMG"


def test_no_rage_effects_when_intercepting_or_protecting() -> None:
    """ "(this does not apply when the Raging Gladiator Intercepting or Protecting.)" — RULINGS 29: "an attack
    that was Intercepted or Protected causes no RDMG and no Unset, whoever is Raging." """
    s = fresh(0)
    sera = place(s, 0, "sera_quill_12")
    foe = place(s, 1, "kestrel_nine_12")
    raging = place(s, 1, "brakka_vohl_12", wounds=4)
    attack(s, sera, foe)
    do(s, 1, f"intercept:u={raging.uid}")
    assert raging.wounds == 6 and sera.wounds == 0, "a Raging interceptor: no RDMG"
    s = fresh(0)
    sera = place(s, 0, "sera_quill_12")
    back = place(s, 1, "kestrel_nine_12", SUPPORT)
    raging = place(s, 1, "brakka_vohl_12", wounds=4)
    attack(s, sera, back)
    do(s, 1, f"protect:u={raging.uid}")
    assert raging.wounds == 6 and sera.wounds == 0 and not raging.set, "a Raging protector: no RDMG"
    s = fresh(0)
    sera = place(s, 0, "sera_quill_12")
    target = place(s, 1, "brakka_vohl_12", wounds=4, set_=True)
    guard = place(s, 1, "kestrel_nine_12")
    attack(s, sera, target)
    do(s, 1, f"intercept:u={guard.uid}")
    assert target.set and sera.wounds == 0, "a Raging target Intercepted for: no Unset, no RDMG"


def test_no_rage_effects_during_the_action_that_made_it_rage() -> None:
    """ "A Gladiator cannot use Rage effects during the action that caused them to become Raging." — RULINGS
    29: "one that becomes Raging during an action (its responses and triggers included) counts as not Raging
    until that action has fully resolved. So the attack that makes its target Raging deals no RDMG" """
    s = fresh(0)
    dusk, sera = place(s, 0, "dusk_mahr_12"), place(s, 0, "sera_quill_12")
    brakka = place(s, 1, "brakka_vohl_12", wounds=2)
    attack(s, dusk, brakka)
    assert brakka.wounds == 5 and b.raging_now(s, brakka) and dusk.wounds == 0
    attack(s, sera, brakka)
    assert sera.wounds == 1, "the next action: 1 RDMG"
    s = fresh(0, hands=([], ["pit_hound"]))
    brakka = place(s, 0, "brakka_vohl_12", wounds=3)
    hound = place(s, 1, "pit_hound", wounds=1)
    place(s, 1, "kestrel_nine_12", SUPPORT, set_=True)
    attack(s, brakka, hound)
    do(s, 1, "pass")  # the ally_attacked window
    assert not in_play(s, hound.uid) and brakka.wounds == 4, "Pit Hound's last bite"
    assert top(s) == "window" and s.action is not None, "the attack is still under way"
    assert b.raging_now(s, brakka) and not b.raging(s, brakka) and stat(s, brakka, "admg") == 2
    do(s, 1, "pass")
    assert s.action is None and b.raging(s, brakka) and stat(s, brakka, "admg") == 3


def test_raging_characters_cannot_retreat() -> None:
    """RULINGS 22: "Raging characters cannot retreat" """
    s = fresh(0)
    brakka = place(s, 0, "brakka_vohl_12", wounds=4)
    sera = place(s, 0, "sera_quill_12", wounds=2)
    place(s, 1, "kestrel_nine_12")
    assert f"retreat:u={brakka.uid}" not in keys(s, 0) and f"retreat:u={sera.uid}" in keys(s, 0)


# -- Cheer and the Crowd Favorite (RULINGS 32-34) -----------------------------------------------------------


def test_cheer_from_gladiators_attacks_only() -> None:
    """ "When a Gladiator attacks, 1 Cheer is generated." — RULINGS 32: "only attacks by Gladiators generate
    Cheer" — "Cheer is generated when a Gladiator attacks any character (Set or Unset)" """
    s = fresh(0)
    hound, g = place(s, 0, "pit_hound"), place(s, 0, "brakka_vohl_12")
    foe = place(s, 1, "kestrel_nine_12", set_=True)
    attack(s, hound, foe)
    assert s.sides[0].cheer == 0 and foe.wounds == 2
    attack(s, g, foe)
    assert s.sides[0].cheer == 1


def test_the_crowd_favorite_has_strictly_more_cheer_and_uses_star_abilities() -> None:
    """ "At any point in the game, if a player has more cheer than all other players, they are considered the
    Crowd Favorite, allowing abilities with the symbol to be used." — RULINGS 33: "with equal Cheer nobody
    is." """
    s = fresh(0)
    lyra = place(s, 0, "lyra_shen_12")
    foe = place(s, 1, "kestrel_nine_12")
    use = f"ability:u={lyra.uid}:a=0"
    s.sides[0].cheer = s.sides[1].cheer = 2
    assert not b.crowd_favorite(s, 0) and not b.crowd_favorite(s, 1) and use not in keys(s, 0)
    assert not game.view(s, None)["players"][0]["crowd_favorite"]
    s.sides[0].cheer = 3
    assert b.crowd_favorite(s, 0) and game.view(s, None)["players"][0]["crowd_favorite"]
    do(s, 0, use)
    assert foe.field == SUPPORT and not foe.set, "moved, neither advancing nor retreating"
    assert s.flow == 0 and use not in keys(s, 0), "RULINGS 19: once per Wave"


def test_a_star_line_of_a_strategy_card_needs_the_crowd_favorite() -> None:
    """RULINGS 33: "line of a Strategy card resolves after the card's other text, and only if its player is
    the Crowd Favorite at that moment." """
    for cheer, gained in ((0, 1), (1, 3)):
        s = fresh(0, hands=(["showboat"], []))
        place(s, 0, "sera_quill_12")
        place(s, 1, "kestrel_nine_12")
        s.sides[0].cheer = cheer
        play(s, 0, "showboat")
        assert s.sides[0].cp == 11 + gained and s.sides[0].scrap == ["showboat"]


# -- the Breather (RULINGS 44-50) ------------------------------------------------------------------------


def test_determine_flow_most_wounds_on_gladiators_including_the_fallen() -> None:
    """ "DETERMINE FLOW - The player with the MOST wounds on Gladiators (including defeated Gladiators) starts
    the next Wave with The Flow" — RULINGS 45: "for each Gladiator in their Funeral Pyre, the Life printed on
    its card there" — "Minions never count." """
    s = fresh(0)
    place(s, 0, "brakka_vohl_12", wounds=3)
    place(s, 0, "arena_veteran", wounds=4)
    place(s, 1, "kestrel_nine_12")
    s.sides[1].pyre = ["juno_kessler_12"]  # Life 5
    s.sides[0].cheer = 5
    end_wave(s)
    assert s.flow == 1 and s.phase == "breather"


def test_wave_end_triggers_come_before_determine_flow() -> None:
    """ "The Breather: 5 steps occur after the end of a Wave." — RULINGS 44: "When a Wave ends: wave_end
    triggers, then the victory check of 55 after Wave 4 and later; if the game goes on, the five steps in the
    printed order, 45–50." """
    s = fresh(0)
    place(s, 0, "brakka_vohl_12", wounds=2)
    vashti = place(s, 1, "vashti_cole_12", wounds=3)  # At the end of each Wave: heal 1 wound from this.
    s.sides[0].cheer = 1
    end_wave(s)
    assert vashti.wounds == 2 and s.flow == 0, "2 wounds each after the heal: the most Cheer"


def test_determine_flow_ties_go_to_the_most_cheer() -> None:
    """ "(If tied player with the most Cheer starts with The Flow. If still tied roll a die.)" """
    for cheer, flow in (((0, 1), 1), ((2, 1), 0)):
        s = fresh(0)
        place(s, 0, "brakka_vohl_12", wounds=2)
        place(s, 1, "kestrel_nine_12", wounds=2)
        s.sides[0].cheer, s.sides[1].cheer = cheer
        end_wave(s)
        assert s.flow == flow
    rolls = set()
    for seed in range(8):
        s = fresh(0, seed=seed)
        place(s, 0, "brakka_vohl_12")
        place(s, 1, "kestrel_nine_12")
        end_wave(s)
        rolls.add(s.flow)
    assert rolls == {0, 1}


def test_regenerate_unset_scrap_draw_to_9_two_to_the_bottom_and_reset_cp() -> None:
    """ "REGENERATE - Unset all Set cards. Players scrap as many cards in their hand as they want then
    re-draw." — "Reset CP according to the Wave number. (10+ the next Wave number) Unspent CP from the
    previous Wave is lost." — "(Players draw to the maximum hand size (default of 7) plus two cards, then
    select 2 cards from hand to place on the bottom of their Arsenal in the order of their choice)" — RULINGS
    46: "So a hand of 8 draws 1 and puts 2 back (7 are left)" """
    s = fresh(
        0,
        hands=(
            ["stim_shot", "overclock", "cheap_shot"],
            ["mind_spike"] * 3 + ["hex_bolt"] * 3 + ["showboat"] * 2,
        ),
    )
    g = place(s, 0, "brakka_vohl_12", wounds=2, set_=True)
    stims = pump_on(s, 0, "combat_stims", g)
    stims.set = True
    place(s, 1, "kestrel_nine_12", set_=True)
    s.sides[0].cp, s.sides[1].cp = 3, 0
    end_wave(s)
    assert s.flow == 0 and not g.set and not stims.set and not any(c.set for c in s.sides[1].chars)
    assert top(s) == "scrap" and who(s) == 0, "The Flow's player first"
    do(s, 0, "scrap:c=overclock")
    do(s, 0, "pass")
    assert top(s) == "scrap" and who(s) == 1
    do(s, 1, "pass")
    assert s.sides[0].scrap == ["overclock"] and len(s.sides[0].hand) == 9
    assert len(s.sides[1].hand) == 9 and s.sides[1].owe == 2, "a hand of 8 draws 1 and puts 2 back"
    assert (s.sides[0].cp, s.sides[1].cp) == (12, 12)
    assert top(s) == "bottom" and who(s) == 0 and "pass" not in keys(s, 0)
    do(s, 0, f"bottom:c={s.sides[0].hand[0]}")
    do(s, 0, f"bottom:c={s.sides[0].hand[0]}")
    assert len(s.sides[0].hand) == 7 and top(s) == "bottom" and who(s) == 1
    do(s, 1, f"bottom:c={s.sides[1].hand[0]}")
    do(s, 1, f"bottom:c={s.sides[1].hand[0]}")
    assert len(s.sides[1].hand) == 7 and s.step != "bottom"


def test_regenerate_a_hand_above_9_draws_nothing_and_still_puts_2_back() -> None:
    """ "then select 2 cards from hand to place on the bottom of their Arsenal in the order of their
    choice" — RULINGS 46: "a hand already holding that many or more draws nothing" — "and a hand of 10 draws
    nothing and puts 2 back (8 are left)" """
    s = fresh(0, hands=([], ["mind_spike"] * 3 + ["hex_bolt"] * 3 + ["showboat"] * 2 + ["precognition"] * 2))
    place(s, 0, "brakka_vohl_12")
    place(s, 1, "kestrel_nine_12")
    arsenal = len(s.sides[1].arsenal)
    end_wave(s)
    do(s, 1, "pass")  # scraps nothing
    assert len(s.sides[1].hand) == 10 and len(s.sides[1].arsenal) == arsenal, "draws nothing"
    assert top(s) == "bottom" and who(s) == 1 and s.sides[1].owe == 2
    do(s, 1, "bottom:c=showboat")
    do(s, 1, "bottom:c=mind_spike")
    assert len(s.sides[1].hand) == 8 and s.sides[1].arsenal[:2] == ["mind_spike", "showboat"]


def test_maintain_pay_or_scrap_and_the_skull_always_goes() -> None:
    """ "MAINTAIN - Players pay the Maintain cost (in CP) for the cards they wish to remain in play. Cards
    with unpaid Maintain costs are Scrapped. Cards with a skull and crossbones as their Maintain value cannot
    be Maintained and must be Scrapped at this step." """
    s = fresh(0)
    g = place(s, 0, "brakka_vohl_12", wounds=3)
    hound = place(s, 0, "pit_hound", SUPPORT)  # M 1
    vet = place(s, 0, "arena_veteran", SUPPORT)  # M 2
    turret = place(s, 0, "sentry_turret", SUPPORT)  # ☠
    stims = pump_on(s, 0, "combat_stims", vet)  # M 1, on a Minion not paid for
    tether = pump_on(s, 0, "spirit_tether", hound)  # M 0
    place(s, 1, "kestrel_nine_12")
    end_wave(s)
    run_to(s, "maintain")
    assert who(s) == 0 and s.sides[0].cp == 12
    assert not in_play(s, turret.uid) and "sentry_turret" in s.sides[0].scrap, "☠: scrapped whatever the CP"
    assert keys(s, 0) == {f"keep:u={hound.uid}", f"keep:u={vet.uid}", f"keep:u={stims.uid}", "pass"}
    do(s, 0, f"keep:u={hound.uid}")
    assert s.sides[0].cp == 11 and f"keep:u={hound.uid}" not in keys(s, 0)
    do(s, 0, "pass")
    assert in_play(s, hound.uid) and tether in s.pumps, "paid, and a Maintain of 0 costs nothing"
    assert not in_play(s, vet.uid) and stims not in s.pumps
    assert sorted(s.sides[0].scrap) == ["arena_veteran", "combat_stims", "sentry_turret"]
    assert in_play(s, g.uid) and s.sides[0].cp == 11


def test_an_unpaid_reinforcement_goes_to_the_funeral_pyre_and_gives_its_vp() -> None:
    """ "If a Reinforcement Gladiator's Maintain cost is not paid, they are Scrapped and the opponent receives
    the Victory Points for defeating them." — RULINGS 56: "it goes to its owner's Funeral Pyre too" """
    s = fresh(0)
    place(s, 0, "brakka_vohl_12", wounds=3)
    rook = place(s, 0, "rook", SUPPORT)
    s.sides[0].stack.remove("rook")
    place(s, 1, "kestrel_nine_12")
    end_wave(s)
    run_to(s, "maintain")
    assert keys(s, 0) == {f"keep:u={rook.uid}", "pass"}
    do(s, 0, "pass")
    assert not in_play(s, rook.uid) and s.sides[0].pyre == ["rook"] and b.scored(s, 1) == 1


def test_promote_one_level_heals_1_and_level_3_takes_the_level_3_4_card() -> None:
    """ "PROMOTE - Players may Promote one Gladiator, raising it up a level. (Flip the card or replace it with
    the matching higher-level Gladiator card.) That Gladiator also heals 1 wound." — RULINGS 4: "wounds,
    field, Set or Unset, and Pumps carry over to the new card" """
    s = fresh(0)
    brakka = place(s, 0, "brakka_vohl_12", SUPPORT, wounds=3)
    sera = place(s, 0, "sera_quill_12")
    rook = place(s, 0, "rook", SUPPORT)
    gladius = pump_on(s, 0, "gladius_mk_ix", brakka)
    place(s, 1, "kestrel_nine_12")
    end_wave(s)
    run_to(s, "maintain")
    do(s, 0, f"keep:u={gladius.uid}")
    do(s, 0, f"keep:u={rook.uid}")
    run_to(s, "promote")
    assert who(s) == 0 and keys(s, 0) == {
        f"promote:u={brakka.uid}",
        f"promote:u={sera.uid}",
        f"promote:u={rook.uid}",
        "pass",
    }
    do(s, 0, f"promote:u={brakka.uid}")
    assert brakka.level == 2 and brakka.card == "brakka_vohl_12" and brakka.wounds == 2, "flipped"
    assert top(s) == "promote" and who(s) == 1, "one Gladiator only: P2's turn to promote"
    breather(s)
    brakka.level = 2  # as if promoted again
    end_wave(s)
    run_to(s, "maintain")
    do(s, 0, f"keep:u={gladius.uid}")
    run_to(s, "promote")
    do(s, 0, f"promote:u={brakka.uid}")
    assert brakka.level == 3 and brakka.card == PROMOTION["brakka_vohl_12"] == "brakka_vohl_34"
    assert "brakka_vohl_34" not in s.sides[0].stack
    assert (
        brakka.wounds == 1 and brakka.field == SUPPORT and gladius in s.pumps and gladius.bearer == brakka.uid
    )
    assert stat(s, brakka, "life") == 10 and stat(s, brakka, "admg") == 3 + 1, "the Level 3/4 card's numbers"
    brakka.level = 4  # as if promoted again
    breather(s)
    end_wave(s)
    run_to(s, "maintain")
    do(s, 0, "pass")
    run_to(s, "promote")
    assert keys(s, 0) == {f"promote:u={sera.uid}", "pass"}, "Level 4 is the top"


def test_a_reinforcement_is_promoted_once_to_level_1() -> None:
    """ "Starting at Level 0, they can be brought into play during the PROMOTE step" — "PROMOTE - Players may
    Promote one Gladiator, raising it up a level. (Flip the card or replace it with the matching higher-level
    Gladiator card.) That Gladiator also heals 1 wound." — RULINGS 4: "A Reinforcement is a single card with
    two faces, Level 0 and, flipped, Level 1" — RULINGS 6: "promoted to Level 1 (4, 48), it meets the Level 1
    cards of its discipline like any Gladiator." """
    s = fresh(0, hands=(["overhand_smash"], []))
    place(s, 0, "juno_kessler_34", level=4)  # Tech, at its top
    rook = place(s, 0, "rook", SUPPORT, wounds=2)  # Warrior
    place(s, 1, "kestrel_nine_12")
    s.sides[0].stack.remove("rook")
    assert "play:c=overhand_smash" not in keys(s, 0), "a Warrior card: Rook at Level 0 does not meet it"
    end_wave(s)
    run_to(s, "maintain")
    do(s, 0, f"keep:u={rook.uid}")
    run_to(s, "promote")
    assert keys(s, 0) == {f"promote:u={rook.uid}", "pass"}, "a Reinforcement Gladiator at Level 0"
    do(s, 0, f"promote:u={rook.uid}")
    assert rook.level == 1 and rook.card == "rook" and rook.wounds == 1, "flipped, and it heals 1 wound"
    assert stat(s, rook, "life") == 4 and stat(s, rook, "admg") == 1, "its numbers unchanged"
    breather(s)
    assert s.phase == "wave" and "play:c=overhand_smash" in keys(s, 0), "a Level 1 Warrior now"
    end_wave(s)
    run_to(s, "maintain")
    do(s, 0, f"keep:u={rook.uid}")
    run_to(s, "promote")
    assert f"promote:u={rook.uid}" not in keys(s, 0), "Level 1 is the top of its one card"


def test_reinforcements_never_more_gladiators_than_the_team_started_with() -> None:
    """ "Players can bring in Reinforcements if it doesn't give them more Gladiators than they started out
    with." — "Reinforcement Gladiators have a Maintain cost but since they come into play in the PROMOTE step,
    that cost will not have to be paid during the Breather that they come into play." """
    s = fresh(0)
    place(s, 0, "brakka_vohl_12", wounds=3)
    place(s, 0, "sera_quill_12")
    s.sides[0].pyre = ["juno_kessler_12"]
    assert s.sides[0].started == 3 and {"rook", "mags"} <= set(s.sides[0].stack)
    place(s, 1, "kestrel_nine_12")
    end_wave(s)
    run_to(s, "reinforce")
    assert who(s) == 0 and keys(s, 0) == {"reinforce:c=rook", "reinforce:c=mags", "pass"}
    do(s, 0, "reinforce:c=mags")
    mags = char(s, 0, "mags")
    assert mags.field == SUPPORT and not mags.set and mags.wounds == 0 and mags.level == 0
    assert "mags" not in s.sides[0].stack
    assert who(s) == 1, "3 Gladiators again: no more for P1 (P2 decides now)"
    breather(s, keep=False)
    assert in_play(s, mags.uid) and s.sides[0].cp == 12, "its Maintain is not paid this Breather"
    end_wave(s)
    run_to(s, "maintain")
    assert who(s) == 0 and keys(s, 0) == {f"keep:u={mags.uid}", "pass"}, "the next Breather it must be paid"


def test_maneuver_the_flow_player_repositions_first_then_the_wave_begins() -> None:
    """ "MANEUVER - Players may reposition their Characters in play into whatever position they would like
    (Action or Support Fields) and continue. (The player from the DETERMINE FLOW step starts with The Flow.
    Repositioning costs nothing, and does not count as advancing or retreating.)" """
    s = fresh(0)
    mine = place(s, 0, "brakka_vohl_12", wounds=1)
    theirs = place(s, 1, "kestrel_nine_12", SUPPORT)
    end_wave(s)
    run_to(s, "arrange")
    assert s.step == "maneuver" and who(s) == 0
    do(s, 0, f"place:u={mine.uid}")
    do(s, 0, "pass")
    assert who(s) == 1 and top(s) == "arrange"
    do(s, 1, f"place:u={theirs.uid}")
    do(s, 1, "pass")
    assert s.phase == "wave" and s.wave == 2 and who(s) == 0 and not s.decisions
    assert mine.field == SUPPORT and not mine.set and not mine.retreated
    assert theirs.field == ACTION and not theirs.advanced
    assert f"advance:u={mine.uid}" in keys(s, 0)


# -- victory (RULINGS 51-57) -----------------------------------------------------------------------------


def test_annihilation() -> None:
    """ "Annihilation Victory: Eliminate all enemy Gladiators, and you win!" — RULINGS 52: "A player with no
    Gladiator in play (Reinforcements in play count; those in the Stack, and Minions, do not) has lost." """
    s = fresh(0)
    g = place(s, 0, "dusk_mahr_12")
    last = place(s, 1, "kestrel_nine_12", wounds=3, set_=True)
    place(s, 1, "arena_veteran", SUPPORT)
    attack(s, g, last)
    assert s.result == {"winners": [0], "why": "annihilation"} and game.to_act(s) == ()
    s = fresh(0)
    g = place(s, 0, "dusk_mahr_12")
    last = place(s, 1, "kestrel_nine_12", wounds=3, set_=True)
    attack(s, g, last)
    assert not s.sides[1].chars and s.result is not None and s.result["winners"] == [0]


def test_crowd_riot_at_15_cheer() -> None:
    """ "If a player has 15 points of Cheer at any point in the game they win." """
    s = fresh(0)
    g = place(s, 0, "brakka_vohl_12")
    foe = place(s, 1, "kestrel_nine_12")
    s.sides[0].cheer = 14
    attack(s, g, foe)
    assert s.result is not None and s.result["winners"] == [0] and "Crowd Riot" in s.result["why"]
    assert foe.wounds == 0 and game.to_act(s) == (), "at once: the Cheer comes before the damage"


def test_12_vp_in_the_funeral_pyre_wins_at_once() -> None:
    """ "If a player has 12 or more Victory Points in their opponents' Funeral Pyre at any point they win the
    game." """
    s = fresh(0)
    g = place(s, 0, "dusk_mahr_12")
    place(s, 1, "kestrel_nine_12", SUPPORT)
    rook = place(s, 1, "rook", wounds=2, set_=True)
    s.sides[1].pyre = ["brakka_vohl_34", "dusk_mahr_12"]  # 6 + 5
    assert b.scored(s, 0) == 11
    attack(s, g, rook)
    quiet(s)
    assert b.scored(s, 0) == 12 and s.result is not None and s.result["winners"] == [0]
    assert "12 VP" in s.result["why"]


def test_most_vp_after_the_4th_wave() -> None:
    """ "Point Victory: At the end of the 4th Wave whoever has the most VP wins" """
    s = fresh(0, wave=3)
    place(s, 0, "brakka_vohl_12")
    place(s, 1, "kestrel_nine_12")
    s.sides[0].pyre = ["juno_kessler_12"]
    end_wave(s)
    assert s.result is None, "before the 4th Wave nobody wins on VP"
    s = fresh(0, wave=4)
    place(s, 0, "brakka_vohl_12")
    place(s, 1, "kestrel_nine_12")
    s.sides[0].pyre = ["juno_kessler_12"]  # P2 has 3 VP
    s.sides[0].cheer = 9
    end_wave(s)
    assert s.result is not None and s.result["winners"] == [1] and "most VP" in s.result["why"]


def test_a_tie_after_wave_4_plays_more_waves_up_to_7() -> None:
    """ "if there is a tie, additional Waves are played until there is no tie during the Breather." — RULINGS
    55: "At most 3 tie Waves: if still tied when Wave 7 ends, the player with more Cheer wins, otherwise the
    game is a draw." """
    s = fresh(0, wave=4)
    place(s, 0, "brakka_vohl_12")
    place(s, 1, "kestrel_nine_12")
    s.sides[1].cheer = 3
    end_wave(s)
    assert s.result is None
    breather(s)
    assert s.wave == 5 and s.phase == "wave" and s.sides[0].cp == 15
    for cheer, winners in (((1, 2), [1]), ((2, 2), [0, 1])):
        s = fresh(0, wave=7)
        place(s, 0, "brakka_vohl_12")
        place(s, 1, "kestrel_nine_12")
        s.sides[0].cheer, s.sides[1].cheer = cheer
        end_wave(s)
        assert s.result is not None and s.result["winners"] == winners
        assert game.returns(s) == ([0.0, 1.0] if winners == [1] else [0.5, 0.5])


def test_both_annihilated_at_once_goes_to_the_later_conditions() -> None:
    """ "Victory Conditions (resolved in this order in case of tie):" — RULINGS 57: "When both meet the same
    one — both teams annihilated at once" — "the conditions after it in that order decide between them as
    tie-breaks (for annihilation: 15 Cheer, then 12 VP, then more VP" """
    s = fresh(0)
    sera = place(s, 0, "sera_quill_12", wounds=5)  # 3 VP
    dusk = place(s, 1, "dusk_mahr_12", wounds=5, set_=True)  # 5 VP, DDMG 1
    attack(s, sera, dusk)
    assert not s.sides[0].chars and not s.sides[1].chars
    assert s.result is not None and s.result["winners"] == [0] and "most VP (5 to 3)" in s.result["why"]


def test_the_earlier_condition_wins_when_both_players_meet_one() -> None:
    """RULINGS 57: "When both players meet victory conditions at one check, the player meeting the earlier one
    in the order of 51 wins." """
    s = fresh(0)
    sera = place(s, 0, "sera_quill_12", wounds=5)  # 3 VP: P2's 12th
    place(s, 0, "juno_kessler_12", SUPPORT)
    s.sides[0].pyre = ["brakka_vohl_34", "halcyon_12", "lyra_shen_12"]  # 6 + 2 + 1... as P2's 9 VP
    s.sides[0].pyre = ["brakka_vohl_34", "ember_vey_12", "rook"]  # 6 + 2 + 1
    assert b.scored(s, 1) == 9
    dusk = place(s, 1, "dusk_mahr_12", wounds=5, set_=True)
    attack(s, sera, dusk)
    assert b.scored(s, 1) == 12 and not s.sides[1].chars
    assert s.result is not None and s.result["winners"] == [0] and s.result["why"] == "annihilation"


def test_your_own_gladiator_falling_to_your_card_gives_the_opponent_its_vp() -> None:
    """RULINGS 56: "scrapping your own Gladiator gives its VP to the opponent" — RULINGS 28: "With two players
    the VP always go to the opponent, whoever's effect did it." """
    s = fresh(0, hands=(["blood_pact"], []))
    place(s, 0, "nyx_arden_12")
    sera = place(s, 0, "sera_quill_12", wounds=4)
    place(s, 1, "kestrel_nine_12")
    play(s, 0, "blood_pact")
    pick(s, sera)
    assert not in_play(s, sera.uid) and s.sides[0].pyre == ["sera_quill_12"]
    assert b.scored(s, 1) == 3 and b.scored(s, 0) == 0 and s.sides[0].cp == 11 + 2


# -- Strategy cards (RULINGS 35-39) ----------------------------------------------------------------------


def test_unique_once_per_player_per_wave() -> None:
    """ "Cards with the Unique keyword can only be played once per player, per Wave." — RULINGS 39: "Each
    player may play each Unique title at most once per Wave" """
    s = fresh(0, hands=(["sponsors_bonus", "sponsors_bonus"], ["sponsors_bonus"]))
    place(s, 0, "sera_quill_12")
    place(s, 1, "kestrel_nine_12")
    play(s, 0, "sponsors_bonus")
    quiet(s)
    assert s.flow == 1
    play(s, 1, "sponsors_bonus")
    quiet(s)
    assert s.flow == 0, "the other player's own copy"
    assert "play:c=sponsors_bonus" not in keys(s, 0)
    end_wave(s)
    breather(s)
    give(s, 0, "sponsors_bonus")
    s.flow = 0
    assert "play:c=sponsors_bonus" in keys(s, 0), "a new Wave"


def test_minions_come_into_play_in_the_support_field() -> None:
    """ "Minions (similar to Gladiators except: they come into play in the Support Field and do not have a
    Rage value)" """
    s = fresh(0, hands=(["pit_hound"], []))
    place(s, 0, "sera_quill_12")
    place(s, 1, "kestrel_nine_12")
    play(s, 0, "pit_hound")
    hound = char(s, 0, "pit_hound")
    assert hound.field == SUPPORT and not hound.set and s.sides[0].cp == 11 - 2 and s.flow == 0
    assert f"advance:u={hound.uid}" in keys(s, 0) and not any(
        k.startswith(f"attack:u={hound.uid}") for k in keys(s, 0)
    )


def test_quick_hits_are_scrapped_after_they_resolve() -> None:
    """ "Quick-Hits (cards that are played then Scrapped (discarded) after they resolve)" """
    s = fresh(0, hands=(["crowd_surge"], ["pit_hound"]))
    place(s, 0, "sera_quill_12")
    place(s, 1, "kestrel_nine_12")
    play(s, 0, "crowd_surge")
    assert top(s) == "window" and "crowd_surge" not in s.sides[0].hand + s.sides[0].scrap, "under way"
    do(s, 1, "pass")
    assert s.sides[0].scrap == ["crowd_surge"] and s.sides[0].cheer == 1


def test_pumps_stay_on_their_bearer_and_go_with_it() -> None:
    """ "Pumps (cards that play on other cards and stay in play)" — RULINGS 38: "A Pump whose bearer leaves
    play is scrapped at once" """
    s = fresh(0, hands=(["combat_stims"], []))
    place(s, 0, "sera_quill_12", SUPPORT)
    hound = place(s, 0, "pit_hound")
    foe = place(s, 1, "dusk_mahr_12")
    play(s, 0, "combat_stims")
    pick(s, hound)
    (stims,) = s.pumps
    assert (
        stims.bearer == hound.uid and stat(s, hound, "admg") == 3 and "combat_stims" not in s.sides[0].scrap
    )
    hound.wounds = 2
    attack(s, hound, foe)
    assert (
        not in_play(s, hound.uid)
        and not s.pumps
        and sorted(s.sides[0].scrap) == ["combat_stims", "pit_hound"]
    )
    assert foe.wounds == 3


def test_a_paid_x_is_chosen_as_the_card_is_played() -> None:
    """ "Cards sometimes have variable values, represented by X. The variable value is defined in the text of
    the card." — RULINGS 41: "as you play the card you pay X more CP, X of your choice from 1 to what you can
    pay but at most 6" """
    s = fresh(0, hands=(["overcharge"], []))
    place(s, 0, "juno_kessler_12")
    foe = place(s, 1, "hex_marrow_12")
    plays = {f"play:c=overcharge:x={x}" for x in range(1, 7)}
    assert {k for k in keys(s, 0) if k.startswith("play")} == plays
    s.sides[0].cp = 4
    assert {k for k in keys(s, 0) if k.startswith("play")} == {k for k in plays if int(k[-1]) <= 3}
    s.sides[0].cp = 1
    assert not any(k.startswith("play") for k in keys(s, 0)), "X of at least 1 cannot be paid"
    s.sides[0].cp = 11
    say(s, 0, "Play a card", "Overcharge [+] 1 CP", "X = 3 (+3 CP)")
    assert s.sides[0].cp == 11 - 1 - 3 and foe.wounds == 3 and s.flow == 0


def test_the_play_requirement_discipline_and_level() -> None:
    """ "To play a card from hand a player must have a Gladiator with the matching Discipline and Level (or
    higher) as well as enough CP to pay the card's play cost." — RULINGS 6: "a Universal card needs any
    Gladiator of sufficient level" — "Minions never meet a requirement, and a Reinforcement at Level 0 never
    does either" """
    hand = ["gladius_mk_ix", "overhand_smash", "mind_spike", "crowd_surge", "smoke_screen", "pit_hound"]
    s = fresh(0, hands=(hand, []))
    brakka = place(s, 0, "brakka_vohl_12", SUPPORT, set_=True)
    place(s, 1, "kestrel_nine_12")
    playable = {k for k in keys(s, 0) if k.startswith("play")}
    assert playable == {"play:c=overhand_smash", "play:c=crowd_surge", "play:c=pit_hound"}
    brakka.level = 2
    assert "play:c=gladius_mk_ix" in keys(s, 0), "Level 2 or higher"
    s.sides[0].cp = 1
    assert {k for k in keys(s, 0) if k.startswith("play")} == {"play:c=overhand_smash"}, "enough CP"
    s = fresh(0, hands=(hand, []))
    place(s, 0, "juno_kessler_12")
    place(s, 0, "rook")
    place(s, 0, "arena_veteran")
    place(s, 1, "kestrel_nine_12")
    assert {k for k in keys(s, 0) if k.startswith("play")} == {"play:c=crowd_surge"}


# -- hidden information (RULINGS 67) ----------------------------------------------------------------------


def _saved_game(arsenal: dict[str, int]) -> OphidianState:
    """P2 brings a saved deck (Warrior and Mystic) with this Arsenal, P1 Iron Tide; Wave 1 under way, and P2
    has played the first card of the pool (it lies in P2's Scrap pile)."""
    deck = {**_deck(["dusk_mahr_12", "hollow_saint_12"], ["rook"]), "arsenal": arsenal}
    s = new_game(4, {"decks": [None, deck], "seat_choices": [{"team": IRON}, {}]})
    finish_setup(s)
    side, played = s.sides[1], next(iter(STRATEGY))
    (side.hand if played in side.hand else side.arsenal).remove(played)
    side.scrap.append(played)
    return s


def test_a_saved_decks_unseen_cards_are_dealt_from_the_pool_not_its_list() -> None:
    """RULINGS 67: "A saved deck's list (9, `/deck`) is its player's secret" — "the hand and Arsenal of an
    opponent's saved deck are dealt from a legal Arsenal (9) drawn from the pool: every card seen, and for
    the rest random copies, at most 3 of a title in all" — "never from the deck's true list" """
    titles = list(STRATEGY)
    first = _saved_game({c: 3 for c in titles[:17]})  # 51 cards
    other = game.from_json(game.to_json(first))  # the same, but another list behind what P1 has seen
    theirs = other.sides[1]
    cards = [titles[0]] * 2 + [c for c in titles[20:36] for _ in range(3)]  # 50: the unseen part
    theirs.hand, theirs.arsenal = sorted(cards[: len(theirs.hand)]), cards[len(theirs.hand) :]
    assert game.view(first, 0) == game.view(other, 0) and first.sides[1].custom
    true = sorted(first.sides[1].hand + first.sides[1].arsenal)
    dealt = []
    for seed in range(4):
        d = game.determinize(first, 0, seed)
        assert game.to_json(d) == game.to_json(game.determinize(other, 0, seed)), "what P1 sees only"
        assert game.view(d, 0) == game.view(first, 0)
        deck = d.sides[1].hand + d.sides[1].arsenal + d.sides[1].scrap
        assert check_arsenal(deck) == [] and titles[0] in deck, "a legal Arsenal holding the card seen"
        assert all(meets(c, "dusk_mahr_34", 4) or meets(c, "hollow_saint_34", 4) for c in deck), "playable"
        dealt.append(sorted(d.sides[1].hand + d.sides[1].arsenal))
    assert true not in dealt and len({tuple(x) for x in dealt}) == 4
    mine, true_mine = game.determinize(first, 1, 0).sides[1], first.sides[1]
    assert mine.hand == true_mine.hand and sorted(mine.arsenal) == sorted(true_mine.arsenal), "P2's own"


def test_a_ready_teams_list_is_public() -> None:
    """RULINGS 67: "A ready team's list (10) is public: whoever plays against it knows every card of its
    Arsenal, and only where those cards lie is hidden." """
    s = _saved_game({c: 3 for c in list(STRATEGY)[:17]})
    ready = sorted(s.sides[0].hand + s.sides[0].arsenal)
    assert not s.sides[0].custom
    for seed in range(3):
        d = game.determinize(s, 1, seed)
        assert sorted(d.sides[0].hand + d.sides[0].arsenal) == ready


def test_a_card_seen_going_into_the_hand_is_known_until_one_of_its_name_leaves_face_up() -> None:
    """RULINGS 67: "and the cards they saw go into its hand (`recover`, 64), each until a card of that name
    leaves the hand face up." """
    s = fresh(1, hands=([], ["recall_the_fallen", "pit_hound"]))
    place(s, 0, "kestrel_nine_12")
    place(s, 1, "orrin_vale_12", level=2)  # Summoner: it meets Recall the Fallen
    place(s, 1, "brakka_vohl_12")  # Warrior: Pit Hound
    s.sides[1].scrap = ["pit_hound"]
    play(s, 1, "recall_the_fallen")
    quiet(s)
    assert s.sides[1].hand == ["pit_hound", "pit_hound"] and s.sides[1].shown == ["pit_hound"]
    do(s, 0, "pass")
    play(s, 1, "pit_hound")
    assert s.sides[1].shown == [], "which copy was played, P1 cannot tell"


@no_quote
def test_every_quote_is_in_the_rules() -> None:
    """Each test above quotes the rule text or RULINGS.md, word for word."""
    check_quotes(globals())


def test_a_waiting_discard_offers_the_hand_dealt_not_the_true_one() -> None:
    """RULINGS 67: "A choice of a card to discard from the other's hand that waits while the engine deals
    anew offers the hand it dealt, never the cards really held" (Whispers of Doubt's discard, found by
    tests/games/test_hidden_info.py)."""
    from engine.registry import get
    from tests.hidden_helpers import playout

    game = get("ophidian")
    s = playout(game, 2, 13, 15)
    d = s.decisions[-1]
    assert d.kind == "pick" and d.data["what"] == "discard" and d.players == [0]
    for seed in range(5):
        dealt = game.determinize(s, 1, seed)
        assert dealt.decisions[-1].data["options"] == sorted(set(dealt.sides[0].hand))
