"""Issue 37: the words of every image the bot sends (engine/table/describe.py and each game's `describe` and
`describe_hand` in engine/games/<id>/present.py), at positions of seeded random games of every game (2
players and the most; the start, the middle and the end), for the spectator and every seat:

- the board's and the hand's alt texts are non-empty, within Discord's 1,024 characters (the text board
  within 4,000), hold no control or format character within a line, and start with the status words;
- the board's alt text (the spectator's view) names no card the spectator view does not show face up
  (`seen_cards`) or its log does not name; a seat's hand alt text and text board name no card of another
  seat's hand that the seat cannot see.

That two worlds a viewer cannot tell apart give them the same words is in the hidden-information property
(tests/hidden_helpers.py `_status`). A golden-ish test quotes one short position per game, so a change of
wording shows in review.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from typing import Any

import pytest

from engine.registry import games
from engine.table import present as table_present
from engine.table.describe import (
    ALT_LIMIT,
    TEXT_LIMIT,
    board_alt,
    fit,
    hand_alt,
    replay_alt,
    said,
    text_board,
)
from render.gallery import play

NAMES = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo"]
GAME_IDS = sorted(games())
STAGES = (0.0, 0.5, 1.0)  # the start, the middle and the end of a random game


@cache
def length(game_id: str, n: int, seed: int) -> int:
    """How many moves the seeded random game lasts."""
    return len(play(game_id, n, seed).log)


def positions() -> list[tuple[str, int, int, int]]:
    """(game, players, seed, moves): the start, middle and end of two random games per player count."""
    out = []
    for gid in GAME_IDS:
        g = games()[gid]
        for n in sorted({max(g.min_players, 2), g.max_players}):
            for seed in (1, 2):
                out += [(gid, n, seed, -1 if f == 1.0 else int(f * 1000)) for f in STAGES]
    return out


def match_at(gid: str, n: int, seed: int, per_mille: int) -> Any:
    """The match `per_mille` thousandths of the way through its random game (-1: the end)."""
    steps = None if per_mille < 0 else length(gid, n, seed) * per_mille // 1000
    return play(gid, n, seed, steps)


def clean_lines(text: str) -> bool:
    """No control or format character within a line (newlines separate the lines)."""
    return all(unicodedata.category(ch) not in ("Cc", "Cf") for line in text.split("\n") for ch in line)


def named(entries: dict[str, str], text: str, allowed: set[str]) -> set[str]:
    """The catalogue names in `text` other than the allowed ones (the allowed are taken out first, longest
    first, so "Athena" inside an allowed "Blessing of Athena" is not counted)."""
    for name in sorted(allowed, key=len, reverse=True):
        text = text.replace(name, "\0")
    found = set()
    for cid, name in entries.items():
        if re.search(rf"(?<![\w+]){re.escape(name)}(?![\w])", text):
            found.add(cid)
    return found


def log_text(pres: Any, view: dict, names: list[str]) -> str:
    """The view's log as the alt text says it."""
    return "\n".join(said(pres, table_present.seat_refs(str(x), names)) for x in view.get("log") or [])


@pytest.mark.parametrize(("gid", "n", "seed", "at"), positions())
def test_alt_texts_fit_and_name_only_what_the_image_shows(gid: str, n: int, seed: int, at: int) -> None:
    m = match_at(gid, n, seed, at)
    game, pres, names = m.game, table_present.of(m.game), NAMES[:n]
    entries = {e.id: e.name for e in pres.catalogue()}
    spectator = game.view(m.state, None)
    alt = board_alt(pres, game.title, spectator, names)
    assert alt and len(alt) <= ALT_LIMIT and clean_lines(alt)
    headline = said(pres, pres.status(spectator, names).headline)
    assert alt.startswith(f"{game.title} board. {headline}"[:ALT_LIMIT])
    shown = {entries[x.card] for x in table_present.seen_cards(pres, spectator, names) if x.card in entries}
    leaked = named(entries, alt, shown) - {
        c for c in entries if entries[c] in log_text(pres, spectator, names)
    }
    assert not leaked, f"the board's alt text names {sorted(leaked)}, which the board does not show:\n{alt}"
    views = [game.view(m.state, seat) for seat in range(n)]
    for seat, view in enumerate(views):
        mine = hand_alt(pres, view, names)
        board = text_board(pres, game.title, view, names)
        assert mine.startswith("Your hand (only you can see this): ") and len(mine) <= ALT_LIMIT
        assert board.startswith(f"{game.title}. ") and len(board) <= TEXT_LIMIT
        assert clean_lines(mine) and clean_lines(board)
        seen = {entries[x.card] for x in table_present.seen_cards(pres, view, names) if x.card in entries}
        seen |= {entries[c] for c in entries if entries[c] in log_text(pres, view, names)}
        for other, theirs in enumerate(views):
            hand = theirs["players"][other].get("hand") if other != seat else None
            hidden = {c for c in hand or [] if c in entries and entries[c] not in seen}
            for text in (mine, board):
                assert not named(entries, text, seen) & hidden, f"seat {seat} reads seat {other}'s hand"


@pytest.mark.parametrize("gid", GAME_IDS)
def test_a_text_board_says_what_the_hand_alt_and_the_board_say(gid: str) -> None:
    """The text board is the hand image's words and the board's, for one seat of a game in its middle."""
    m = match_at(gid, 2, 1, 500)
    game, pres = m.game, table_present.of(m.game)
    view = game.view(m.state, 0)
    board = text_board(pres, game.title, view, NAMES[:2]).split("\n")
    hand = hand_alt(pres, view, NAMES[:2]).split("\n")[1:]
    assert set(hand) <= set(board)
    assert any(line.startswith(("Your hand", "You")) for line in board)


def test_fit_keeps_whole_lines_most_important_first_and_drops_control_characters() -> None:
    assert fit(["one", "", "two", "three"], 7) == "one\ntwo"
    assert fit(["x" * 10], 5) == "xxxx…"
    assert fit(["Bo\u202e wins\x07"]) == "Bo wins"


def test_names_with_bidi_marks_are_read_without_them() -> None:
    m = play("omphala", 2, 1, 20)
    pres = table_present.of(m.game)
    alt = board_alt(pres, m.game.title, m.game.view(m.state, None), ["A\u202eda", "Bo\u200b"])
    assert clean_lines(alt) and "Ada" in alt


def test_replay_alt_says_the_game_the_frames_and_the_end() -> None:
    m = play("omphala", 2, 1)
    pres = table_present.of(m.game)
    alt = replay_alt(pres, m.game.title, m.game.view(m.state, None), NAMES[:2], 12)
    assert alt.startswith("Replay of Omphala, 12 frames, one per turn.\nGame over, ")


def test_corner_labels_are_read_as_names() -> None:
    pres = table_present.of(games()["omphala"])
    assert said(pres, "Bo attacks with A♣+6♥: destroys 10♠ · it holds ◀") == (
        "Bo attacks with Ace of Clubs plus 6 of Hearts: destroys 10 of Spades, it holds"
    )


# One short position per game, quoted: a change of wording shows here in review.
GOLDEN: dict[str, str] = {
    "omphala": (
        "Omphala board. Bo to play, 2 actions left\n"
        "Ada: 3 cards\n"
        "Bo: 2 cards\n"
        "Last move: Bo draws Jack of Spades\n"
        "Deck 36 cards, discard pile 0 cards\n"
        "Ada's front row, 2 cards: a face-down card; a face-down card shielded with 2 of Diamonds\n"
        "Bo's front row, 2 cards: a face-down card; a face-down card\n"
        "Ada's back row: 10 of Clubs; Jack of Hearts enhanced with 4 of Hearts, power 15; Queen of Diamonds; 10 of Diamonds\n"  # noqa: E501
        "Bo's back row: Ace of Spades; 2 of Spades; 3 of Clubs; 4 of Diamonds; King of Clubs; Jack of Spades"
    ),
    "ophelia": (
        "Ophelia board. Bo's turn, Action Phase, round 1 (worth 1)\n"
        "Ada: 0 points, hand 5\n"
        "Bo: 0 points, hand 1\n"
        "Last move: Bo discards Crossing the Rubicon (49 BC)\n"
        "Ada: 0 points, Crown & Tide alliance, hand 5 cards, deck 25, Power 0\n"
        "Bo: 0 points, Crown & Tide alliance, hand 1 card, deck 25, Power 7\n"
        "Ada's row: slot 1 (outer): empty; slot 2: empty; slot 3 (middle): empty; slot 4: empty; slot 5 (outer): empty\n"  # noqa: E501
        "Bo's row: slot 1 (outer): empty; slot 2: Mary Read (Power 3, Initiative 3, Life 3/3, played this turn); slot 3 (middle): empty; slot 4: Ching Shih (Power 4 (+1), Initiative 3, Life 4/4, played this turn); slot 5 (outer): The Oriflamme (Life 3/3, played this turn)"  # noqa: E501
    ),
    "ophidian": (
        "Ophidian 2350 board. Setting up, arranging the teams, Bo has The Flow\n"
        "Bo: move characters between the Action and Support Fields, then done\n"
        "Ada (Mind and Marrow): 0 VP, 0 Cheer, 11 CP, hand 7, 4 Gladiators standing\n"
        "Bo (Iron Tide): 0 VP, 0 Cheer, 11 CP, hand 7, 3 Gladiators standing\n"
        "Last move: Ada puts a card on the bottom of the Arsenal\n"
        "Arsenal: Ada 43 cards, Bo 43 cards\n"
        "Ada's Action Field: Kestrel Nine (Level 1, Life 6/6, Rage 3, ADMG 2); Vashti Cole (Level 1, Life 5/5, Rage 3, ADMG 1); Lyra Shen (Level 1, Life 5/5, Rage 2, ADMG 1); Nyx Arden (Level 1, Life 6/6, Rage 3, ADMG 2)\n"  # noqa: E501
        "Bo's Action Field: Brakka Vohl (Level 1, Life 8/8, Rage 4, ADMG 2); Sera Quill (Level 1, Life 6/6, Rage 3, ADMG 2); Juno Kessler (Level 1, Life 5/5, Rage 3, ADMG 2)\n"  # noqa: E501
        "Ada's Support Field: empty\n"
        "Bo's Support Field: empty"
    ),
    "ophion": (
        "Ophion board. Ada to play, 3 AP left, round 1 of 9\n"
        "Ada: 0 VP\n"
        "Bo: 0 VP\n"
        "Last move: Ada summons a Goblin to the defense grid for 2 mana\n"
        "Ada: mana 2, gold 0, 3 AP; attack 0 (0 of 6 used), defense 1 (1 of 6 used); hand 4 cards, deck 5, discard 0\n"  # noqa: E501
        "Bo: mana 3, gold 1, 0 AP, passed; attack 0 (0 of 6 used), defense 0 (0 of 6 used); hand 3 cards, deck 7, discard 0\n"  # noqa: E501
        "Market row: +1 Action Points (Costs 4 gold); +2 Mana (Costs 6 gold); +2 Gold (Costs 4 gold); +2 Gold (Costs 5 gold)\n"  # noqa: E501
        "Decks: tier 1 35 cards, tier 2 25 cards\n"
        "Ada's upgrade slots: Goblin (Attack 1, Defense 1, Size 1, summon for 2 mana, worth 1 VP)\n"
        "Ada's defense grid: Goblin (Attack 1, Defense 1, Size 1)\n"
        "Bo's upgrade slots: Goblin (Attack 1, Defense 1, Size 1, summon for 2 mana, worth 1 VP)"
    ),
    "siege_of_olympus": (
        "Siege of Olympus board. Setting up, Commanders and mulligans\n"
        "Bo: return up to 3 cards to the Deck and draw as many, or keep your hand\n"
        "Ada: Kronos, the Devourer 20/20, 0 artifacts, hand 6\n"
        "Bo: Gaia, Mother of Giants 20/20, 0 artifacts, hand 4\n"
        "Last move: Bo returns a card to the Deck\n"
        "Ada's Commander Kronos, the Devourer: power ready; artifacts: none\n"
        "Bo's Commander Gaia, Mother of Giants: power ready; artifacts: none\n"
        "Olympus: 15 artifacts left; deck 56, Underworld 0"
    ),
}


@pytest.mark.parametrize("gid", GAME_IDS)
def test_golden_alt_text(gid: str) -> None:
    m = play(gid, 2, 3, 4)
    alt = board_alt(table_present.of(m.game), m.game.title, m.game.view(m.state, None), NAMES[:2])
    assert alt == GOLDEN[gid]
