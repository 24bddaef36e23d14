"""Issue 23: nothing a viewer reads may depend on what is hidden from them, in every game.

At positions of random games of every player count (mid-turn, in response windows and simultaneous
choices), for every seat and the spectator, the world is resampled in everything hidden from that viewer
(others' hands, deck orders, face-down cards, the RNG state) and the view, the legal moves and their menu
texts, the status texts, the log, the events of a move and `determinize` must not change. The checker is in
tests/hidden_helpers.py (its docstring says exactly what is compared). Then one leak per game, planted in a
test double, shows the checker catches that kind of leak.

AGORA_HIDDEN_POSITIONS sets the positions checked per game (default 400: some 2,400 in all, each against
every seat and the spectator); set it to e.g. 20000 for a long run.
"""

from __future__ import annotations

import dataclasses
import os
import random
import re
from typing import Any

import pytest

from engine import eventlog
from engine.core import Action, Event, PlayerId
from engine.games.omphala import Omphala
from engine.games.ophelia import Ophelia
from engine.games.ophelia.cards import CARDS as OPHELIA_CARDS
from engine.games.ophidian import Ophidian
from engine.games.ophion import Ophion
from engine.games.siege_of_olympus import Siege
from engine.registry import games
from engine.rng import Rng
from tests.hidden_helpers import Finding, check_position, playout, resample, sweep
from tests.toygame import HighCard

POSITIONS = int(os.environ.get("AGORA_HIDDEN_POSITIONS", "400"))
# Every registered game, and the toy game the tests register (tests/toygame.py).
GAMES: dict[str, Any] = {**games(), "highcard": HighCard()}


@dataclasses.dataclass(frozen=True)
class Leak:
    """A leak the property found that another package must fix: the findings it explains, and where it
    showed when found (the random game `playout(game, n, seed, steps)`, a viewer, seeds of the resampling
    RNG). Rules change under a position, so the test hunts over random games too."""

    game: str
    check: str
    pattern: str  # a regular expression the finding's detail matches
    reason: str
    at: tuple[int, int, int, PlayerId] | None = None  # n, seed, steps, viewer
    resamples: tuple[int, ...] = tuple(range(30))

    def explains(self, f: Finding) -> bool:
        """Whether a finding is this leak."""
        return f.game == self.game and f.check == self.check and re.search(self.pattern, f.detail) is not None


# Found by this test; each has a strict xfail below, so the fix shows up as an XPASS: then delete the entry.
KNOWN: tuple[Leak, ...] = ()  # none left open


def known(f: Finding) -> bool:
    """Whether a finding is one of the KNOWN leaks (reported there, checked by its own xfail test)."""
    return any(leak.explains(f) for leak in KNOWN)


def hunt(leak: Leak) -> list[Finding]:
    """The findings of a known leak: at the position where it showed, else over random games."""
    game = GAMES[leak.game]
    if leak.at is not None:
        n, seed, steps, viewer = leak.at
        try:
            s = playout(game, n, seed, steps)
        except ValueError:  # the rules changed and that game ends sooner now
            s = None
        if s is not None:
            rngs = [random.Random(r) for r in leak.resamples]
            found = [f for r in rngs for f in check_position(game, s, viewer, r, (n, seed, steps))]
            if any(leak.explains(f) for f in found):
                return [f for f in found if leak.explains(f)]
    count = max(20, int(POSITIONS * share(game)))
    return sweep(game, count, known=lambda f: not leak.explains(f), stop_after=1)[1]


def share(game: Any) -> float:
    """Long games cost more a position (bigger states, more moves): they check fewer."""
    return {"siege_of_olympus": 0.6, "ophidian": 0.6}.get(game.id, 1.0)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_nothing_hidden_shows(game_id: str) -> None:
    """Every viewer reads the same in a position and in any world resampled in what it hides from them."""
    game = GAMES[game_id]
    count = max(20, int(POSITIONS * share(game)))
    done, found = sweep(game, count, known=known)
    assert done == count
    assert not found, f"{len(found)} leaks, e.g.:\n" + "\n".join(map(str, found[:8]))


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_resampler_moves_hidden_cards(game_id: str) -> None:
    """The resampled worlds really differ from the true one (the property is not checked on copies)."""
    game = GAMES[game_id]
    rng = random.Random(1)
    s = game.setup(game.min_players, 3)

    def cards(state: Any) -> str:  # the state but for its RNG, which resample always reseeds
        return repr({k: v for k, v in game.to_json(state).items() if k != "rng"})

    for viewer in [*range(game.min_players), None]:
        worlds = {cards(resample(game, s, game.min_players, viewer, rng)) for _ in range(5)}
        assert len(worlds - {cards(s)}) >= 2, f"viewer {viewer}: resampling must change what is hidden"


@pytest.mark.parametrize(
    "leak",
    [
        pytest.param(
            k, marks=pytest.mark.xfail(strict=True, raises=AssertionError, reason=k.reason), id=k.game
        )
        for k in KNOWN
    ],
)
def test_known_leak(leak: Leak) -> None:
    """A leak the property found (KNOWN) still shows: xfail until its game fixes it, then delete the entry."""
    found = hunt(leak)
    assert not found, str(found[0])


# -- planted leaks: one per game, each a realistic slip, each caught --------------------------------------


class TopCardInMenu(HighCard):
    """High Card whose draw menu previews the card on top of the deck."""

    def describe(self, s: Any, a: Action) -> tuple[str, ...]:
        path = super().describe(s, a)
        return (*path, f"next: {s['deck'][-1]}") if a.kind == "draw" else path


class FaceDownInView(Omphala):
    """Omphala whose view forgets to hide the cards chosen face down (the secret ones) from the others."""

    def view(self, s: Any, viewer: PlayerId | None) -> Any:
        v = super().view(s, viewer)
        if s.phase != "choose":
            for p, seat in zip(v["players"], s.seats, strict=True):
                for entry, cards in zip(p["front_row"], seat.front_row, strict=True):
                    entry["cards"] = list(cards)
        return v


class DrawShownToAll(Ophion):
    """Ophion whose "draws 3 cards" event, shown to everyone, names the cards drawn."""

    def after_move(self, s: Any, action: Action, events: list[Event]) -> None:
        super().after_move(s, action, events)
        for i, e in enumerate(events):
            if e.kind == "drew_secretly":
                who = f"P{e.arg('seat') + 1}"  # type: ignore[operator]
                events[i] = dataclasses.replace(
                    e, text=e.text.replace("You draw", f"{who} draws"), visible_to=None
                )


class MovesReadTheirHand(Ophelia):
    """Ophelia that stops offering "end" (the end of the turn) while the opponent holds a Turning Point,
    as if to spare the player a turn that would be punished."""

    def legal_actions(self, s: Any, player: PlayerId) -> list[Action]:
        moves = super().legal_actions(s, player)
        hand = s.sides[1 - player].hand
        if any(OPHELIA_CARDS[c].type == "turning_point" for c in hand):
            moves = [a for a in moves if a.kind != "end"] or moves
        return moves


class DeterminizeKeepsTheTruth(Siege):
    """Siege of Olympus whose determinize copies the state and reseeds its RNG but deals nothing anew."""

    def determinize(self, s: Any, observer: PlayerId, seed: int) -> Any:
        d = self.from_json(self.to_json(s))
        d.rng = Rng(seed ^ 0x5EED)
        d.log = eventlog.redacted(d.log, observer)
        return d


class RngInView(Ophidian):
    """Ophidian 2350 whose view carries the RNG state (say, for a replay link): the next shuffles."""

    def view(self, s: Any, viewer: PlayerId | None) -> Any:
        return {**super().view(s, viewer), "rng": s.rng.to_json()}


PLANTED = {
    "highcard": (TopCardInMenu, "menu"),
    "omphala": (FaceDownInView, "view"),
    "ophion": (DrawShownToAll, "events"),
    "ophelia": (MovesReadTheirHand, "moves"),
    "siege_of_olympus": (DeterminizeKeepsTheTruth, "determinize"),
    "ophidian": (RngInView, "view"),
}


def test_every_game_has_a_planted_leak() -> None:
    """Each game the property runs over has a planted leak below."""
    assert set(PLANTED) == set(GAMES)


@pytest.mark.parametrize("game_id", sorted(PLANTED))
def test_planted_leak_is_caught(game_id: str) -> None:
    """The same checker, run on a test double with one leak, reports that leak."""
    cls, check = PLANTED[game_id]
    leaky = cls()
    done, found = sweep(leaky, 300, known=lambda f: known(f) or f.check != check, stop_after=1)
    assert found, f"{cls.__name__}: the {check} leak went unseen over {done} positions"
    assert found[0].game == game_id


def test_a_lone_move_played_from_the_true_hand_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 33: a bot that played a person's lone move for them whenever it was their only one (the true
    count, not the count in every world their opponent cannot tell apart) is caught: in Ophidian 2350 the
    holder of The Flow who can only pass would have had other moves in worlds the opponent cannot rule out."""
    from bot.sessions import automatic

    monkeypatch.setattr(
        automatic, "forced_in_public", lambda g, s, seat, n, seed: len(g.legal_actions(s, seat)) == 1
    )
    game = GAMES["ophidian"]
    s = playout(game, 2, 62, 71)  # where the sweep met it (seed 62, 71 moves): Ada holds The Flow
    found = [
        f for r in range(20) for f in check_position(game, s, 1, random.Random(r)) if f.check == "automatic"
    ]
    assert found, "a lone move decided from the true hand went unseen"
