"""The games' present modules (engine/games/<id>/present.py): status of real positions, catalogues,
menu order, the terminal board."""

from __future__ import annotations

from typing import Any

import pytest

from engine.ai.random_player import RandomPlayer
from engine.games.omphala.cards import DECK, POWER
from engine.games.omphala.cards import label as card_label
from engine.games.ophion.cards import CARDS, STARTING_DECK
from engine.match import Match
from engine.table import present
from engine.table.describe import said
from engine.table.present import CardEntry, find_card

NAMES = ["Ada", "Bo", "Cy", "Dee"]


def play_match(game_id: str, n: int, seed: int, steps: int | None = None) -> Match:
    """A match played by random players for `steps` moves (to the end when None)."""
    m = Match.new(game_id, n, seed)
    ai = RandomPlayer(seed)
    for _ in range(m.game.max_actions if steps is None else steps):
        if m.is_over():
            break
        m.apply(ai.choose(m.game, m.state, m.to_act()[0]))
    return m


def _until(game_id: str, n: int, seed: int, done: Any) -> Match:
    """Random play until done(view) holds (or the game ends)."""
    m = Match.new(game_id, n, seed)
    ai = RandomPlayer(seed)
    while not m.is_over() and not done(m.game.view(m.state, None)):
        m.apply(ai.choose(m.game, m.state, m.to_act()[0]))
    return m


def _pr(game_id: str) -> present.Presentation:
    return present.of(Match.new(game_id, 2, 1).game)


def _menu(m: Match) -> list[tuple[str, ...]]:
    """The seat to act's moves as menu paths, in the game's order."""
    pr = present.of(m.game)
    seat = m.to_act()[0]
    rows = [(a, m.game.describe(m.state, a)) for a in m.game.legal_actions(m.state, seat)]
    rows.sort(key=lambda r: pr.menu_rank(*r))
    return [path for _, path in rows]


# ---------------------------------------------------------------- the protocol


@pytest.mark.parametrize("game_id", ["omphala", "ophion"])
def test_each_game_has_its_own_presentation(game_id: str) -> None:
    pr = _pr(game_id)
    assert not isinstance(pr, present.Generic)
    assert pr.summary and "**" in pr.summary
    assert "/rules" in pr.rules
    assert all(len(letter) == 1 for letter in pr.shortcuts.values())


def test_shortcuts() -> None:
    assert _pr("omphala").shortcuts == {"draw": "d", "end_turn": "e"}
    assert _pr("ophion").shortcuts == {"pass": "p"}


# ---------------------------------------------------------------- Omphala status


def test_omphala_status_choose() -> None:
    m = Match.new("omphala", 3, 5)
    st = present.of(m.game).status(m.game.view(m.state, None), NAMES)
    assert st.headline == "Everyone chooses 2 face-down cards"
    assert st.prompt == "Still choosing: Ada, Bo and Cy"
    assert st.scores == ("Ada: 0 cards", "Bo: 0 cards", "Cy: 0 cards")
    assert st.turn == ("choose",)


def test_omphala_status_play_and_turns() -> None:
    m = _until("omphala", 2, 5, lambda v: v["phase"] == "play")
    game, pr = m.game, present.of(m.game)
    view = game.view(m.state, None)
    st = pr.status(view, NAMES)
    assert st.headline == f"{NAMES[view['current']]} to play · 2 actions left"
    assert st.scores == ("Ada: 2 cards", "Bo: 2 cards")
    assert st.prompt == ""
    # a move within the turn keeps the turn; the end of the turn changes it
    seat = m.to_act()[0]
    draw = next(a for a in game.legal_actions(m.state, seat) if a.kind == "draw")
    m.apply(draw)
    later = pr.status(game.view(m.state, None), NAMES)
    assert later.headline.endswith("1 action left") and later.turn == st.turn
    m.apply(next(a for a in game.legal_actions(m.state, seat) if a.kind == "end_turn"))
    assert pr.status(game.view(m.state, None), NAMES).turn != st.turn


def test_omphala_status_pending_decision() -> None:
    m = _until("omphala", 2, 2, lambda v: v.get("pending") == "discard")
    view = m.game.view(m.state, None)
    assert view["pending"] == "discard", "no discard in this game: pick another seed"
    st = present.of(m.game).status(view, NAMES)
    who = NAMES[view["current"]]
    assert st.headline == f"{who} to play"
    assert st.prompt == f"{who} must discard a back-row card (more than 7)"


def test_omphala_status_over() -> None:
    m = play_match("omphala", 3, 4)
    view = m.game.view(m.state, None)
    st = present.of(m.game).status(view, NAMES)
    winners = view["result"]["winners"]
    assert st.headline.startswith("Game over · " + NAMES[winners[0]])
    assert ("wins with" if len(winners) == 1 else "share the win") in st.headline
    assert "[" not in st.headline
    assert st.turn == ("over",)
    cards = view["result"]["cards"]
    assert st.scores == tuple(f"{NAMES[i]}: {c} card{'s' if c != 1 else ''}" for i, c in enumerate(cards))


def test_omphala_result_in_words() -> None:
    pr = _pr("omphala")
    base = {"phase": "over", "players": [], "to_act": []}
    one = {"cards": [5, 3], "power": [40, 20], "battle": None, "winners": [0]}
    assert pr.status({**base, "result": one}, NAMES).headline == "Game over · Ada wins with 5 cards"
    tie = {"cards": [4, 4], "power": [30, 28], "battle": None, "winners": [0]}
    assert (
        pr.status({**base, "result": tie}, NAMES).headline == "Game over · Ada wins with 4 cards and 30 power"
    )
    shared = {"cards": [4, 4], "power": [30, 30], "battle": [2, 2], "winners": [0, 1]}
    assert pr.status({**base, "result": shared}, NAMES).headline == (
        "Game over · Ada and Bo share the win with 4 cards and 30 power, 2 survivors in the line-up battle"
    )


# ---------------------------------------------------------------- Ophion status


def test_ophion_status_start_and_over() -> None:
    m = Match.new("ophion", 2, 1)
    pr = present.of(m.game)
    st = pr.status(m.game.view(m.state, None), NAMES)
    assert st.headline == "Ada to play · 5 AP left · round 1 of 9"
    assert st.scores == ("Ada: 0 VP", "Bo: 0 VP")
    assert st.turn == ("round", 1, 0)
    m = play_match("ophion", 4, 1)
    view = m.game.view(m.state, None)
    st = pr.status(view, NAMES)
    final = view["result"]["scores"]
    best = max(final)
    assert st.headline.startswith("Game over · ") and st.headline.endswith(f"with {best} VP")
    assert st.scores == tuple(f"{NAMES[i]}: {v} VP" for i, v in enumerate(final))


def test_names_run_short() -> None:
    m = Match.new("ophion", 3, 1)
    st = present.of(m.game).status(m.game.view(m.state, None), ["Ada"])
    assert st.scores == ("Ada: 0 VP", "P2: 0 VP", "P3: 0 VP")


# ---------------------------------------------------------------- catalogues


def test_omphala_catalogue() -> None:
    entries = _pr("omphala").catalogue()
    assert len(entries) == 52 and len({e.id for e in entries}) == 52
    king = find_card(entries, "KC")
    assert king == find_card(entries, "king of clubs") == find_card(entries, "K♣")
    assert king is not None
    assert (king.name, king.type, king.stats, king.short, king.colour) == (
        "King of Clubs",
        "Club",
        (("Power", 13),),
        "K♣",
        "black",
    )
    assert "attack" in king.text
    heart = find_card(entries, "5H")
    assert heart is not None and heart.colour == "red" and "enhance" in heart.text
    spade = find_card(entries, "Queen of Spades")
    assert spade is not None and "attack" in spade.text and "steal" in spade.text
    assert find_card(entries, "Ace of") is not None
    assert find_card(entries, "Joker") is None


def test_ophion_catalogue() -> None:
    entries = _pr("ophion").catalogue()
    assert {e.id for e in entries} == set(CARDS) >= set(STARTING_DECK)
    assert all(isinstance(e, CardEntry) and e.text for e in entries)
    dragon = find_card(entries, "dragon")
    assert dragon is not None and dragon.type == "monster"
    assert dict(dragon.stats) == {"Cost": 8, "Mana": 8, "Size": 6, "Attack": 6, "Defense": 5, "Tier": 2}
    assert "goblin" in dragon.text.casefold()
    archer = find_card(entries, "archer")
    assert archer is not None and dict(archer.stats)["Mana"] == 5
    vp = find_card(entries, "+1 VP")
    assert vp is not None and "never sold" in vp.text
    upgrade = find_card(entries, "+2 Gold Upgrade")
    assert upgrade is not None and "every round" in upgrade.text


# ---------------------------------------------------------------- menus


def test_omphala_menu_by_rank_then_draw_and_end_turn() -> None:
    m = _until("omphala", 3, 7, lambda v: v["phase"] == "play" and not v.get("pending"))
    paths = _menu(m)
    assert paths[-2:] == [("Draw a card",), ("End turn",)]
    powers = [POWER[_code(p[0])] for p in paths[:-2]]
    assert powers == sorted(powers)


def _code(label: str) -> str:
    head = label.split("+")[0].split(" ")[0]
    return next(c for c in DECK if card_label(c) == head)


def test_omphala_menu_choose_in_rank_order() -> None:
    m = Match.new("omphala", 2, 3)
    paths = _menu(m)
    assert len(paths) == 42  # ordered pairs: the player chooses which card lies on the left (RULINGS 4)
    firsts = [_code(p[0]) for p in paths]
    assert [POWER[c] for c in firsts] == sorted(POWER[c] for c in firsts)


def test_ophion_menu_groups() -> None:
    m = play_match("ophion", 3, 2, 6)
    paths = _menu(m)
    groups = [p[0] for p in paths]
    order = ["Buy", "Play", "Summon", "Convert", "Pass"]
    assert groups == sorted(groups, key=order.index)
    assert paths[-1] == ("Pass",)
    buys = [p[1] for p in paths if p[0] == "Buy"]
    slots = [int(b.rsplit("#", 1)[1].rstrip(")")) for b in buys]
    assert slots == sorted(slots)


# ---------------------------------------------------------------- the terminal board


@pytest.mark.parametrize("game_id", ["omphala", "ophion"])
def test_board_text_uses_names(game_id: str) -> None:
    m = play_match(game_id, 3, 2)
    pr = present.of(m.game)
    text = pr.board_text(m.game.view(m.state, 0), NAMES)
    assert "Ada (you)" in text and "Bo" in text
    assert "P1" not in text and "P2" not in text and "P3" not in text
    assert "Result: " in text and " with " in text
    assert "[" not in text.split("Result: ")[1].split("\n")[0]
    mid = play_match(game_id, 3, 2, 30)
    assert pr.board_text(mid.game.view(mid.state, None), NAMES).startswith(f"== {m.game.title} · ")


def test_a_skipped_turn_ends_it_or_answers_the_decision_by_default() -> None:
    """Omphala RULINGS 19 and Ophion RULINGS 24: what "skip the turn" plays."""
    from engine.games.omphala.present import blind_order
    from engine.match import Match
    from engine.table.present import of

    m = Match.new("omphala", 2, 3)
    omphala = of(m.game)
    seat = m.to_act()[0]
    first = omphala.skip(m.game.view(m.state, seat), m.game.legal_actions(m.state, seat))
    low = sorted(m.state.seats[seat].hand, key=lambda c: cards_by_rank(c))[:2]
    assert first.kind == "choose" and sorted([first.arg("a"), first.arg("b")], key=cards_by_rank) == low
    assert (first.arg("a"), first.arg("b")) == blind_order(*low)  # their order tells nothing of their ranks
    while m.state.phase == "choose":
        p = m.to_act()[0]
        m.apply(m.game.legal_actions(m.state, p)[0])
    p = m.to_act()[0]
    assert omphala.skip(m.game.view(m.state, p), m.game.legal_actions(m.state, p)).kind == "end_turn"
    o = Match.new("ophion", 3, 1)
    p = o.to_act()[0]
    assert of(o.game).skip(o.game.view(o.state, p), o.game.legal_actions(o.state, p)).kind == "pass"


def cards_by_rank(code: str) -> tuple[int, str]:
    from engine.games.omphala.cards import by_rank

    return by_rank(code)


# -- one source of words: the prompt every front end shows ---------------------------------------


@pytest.mark.parametrize("game_id", ["omphala", "ophelia", "ophidian", "ophion", "siege_of_olympus"])
def test_every_front_end_shows_the_prompt_of_the_games_present(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """For positions of seeded random games, the prompt drawn on the hand image, the terminal's status bar
    (for a pending decision) and the Discord hand message's description are the words of the game's own
    `prompt`, and a world that differs only in what is hidden from the seat words them the same
    (tests/hidden_helpers.py)."""
    import random

    from bot.discord.menus import hand_description
    from bot.tui.app import status_line
    from engine.registry import get as get_game
    from render import api, kit
    from tests.hidden_helpers import check_position, positions

    drawn: list[present.Prompt] = []
    real = kit.hand_page
    monkeypatch.setattr(kit, "hand_page", lambda *a, **k: drawn.append(a[3]) or real(*a, **k))
    game = get_game(game_id)
    pres = present.of(game)
    assert getattr(pres, "prompt", None) is not None, "every game words its own prompt"
    names = NAMES[: game.min_players]
    rng, seen = random.Random(game_id), set()
    for _, s in positions(game, game.min_players, seed=36, every=9, limit=8):
        for seat in range(game.min_players):
            view = game.view(s, seat)
            asked = pres.prompt(view, names)
            drawn.clear()
            api.hand(game_id, view, names)
            assert drawn == [asked]  # the hand image draws the game's prompt, unchanged
            alt = hand_description(game_id, view, names).splitlines()[0]  # in the words a screen reader says
            assert alt.endswith(f": {said(pres, asked.text)}")
            status = pres.status(view, names)
            line = status_line(pres, view, names)  # the seat's decision, or the headline for a plain turn
            assert line.startswith(status.headline)
            assert line.endswith(asked.text if asked.yours and status.prompt else status.prompt)
            assert not [f for f in check_position(game, s, seat, rng) if f.check == "status"]
            seen.add(asked.yours)
    assert seen == {True, False}  # the sample holds the seat's own move and a wait
