"""Helpers for Siege of Olympus's tests: a game at a known position (setup skipped), minions placed on a side
or in Tartarus by hand, hands set, moves done by their menu words or by action key, and a check that every
sentence a test quotes is in the rulebook or in RULINGS.md."""

from __future__ import annotations

from pathlib import Path

from engine.games.siege_of_olympus import Siege
from engine.games.siege_of_olympus import board as b
from engine.games.siege_of_olympus.cards import ARTIFACTS, CARDS
from engine.games.siege_of_olympus.state import NOBODY, Held, Minion, SiegeState
from tests.rule_helpers import Moves, no_quote, quote_checker, quotes  # noqa: F401  (re-exported)

game = Siege()

RULINGS_PATH = Path(b.__file__).with_name("RULINGS.md")
check_quotes = quote_checker(RULINGS_PATH, "siege-of-olympus.txt")


# -- a known position --------------------------------------------------------------------------------


def take_out(s: SiegeState, cid: str) -> None:
    """Take a card out of wherever it is (Deck, Agora, Underworld, Tartarus, a Hand, a side), so that each
    card of the shared Deck stays in one place when a test puts it somewhere by hand."""
    for pile in (s.deck, s.agora, s.underworld, *(side.hand for side in s.sides)):
        if cid in pile:
            pile.remove(cid)
            return
    for zone in (s.tartarus, *(side.minions for side in s.sides)):
        for m in zone:
            if m.card == cid:
                zone.remove(m)
                return


def fresh(
    hands: tuple[list[str], list[str]] = ([], []),
    active: int = 0,
    turn: int = 3,
    seed: int = 1,
    commanders: tuple[str, str] = ("kronos", "gaia"),
    tartarus: list[str] | None = None,
    agora: list[str] | None = None,
) -> SiegeState:
    """A game past its setup at the start of `active`'s Deploy phase in turn `turn`: the boards empty, these
    hands; Tartarus and the Agora as dealt unless given (given cards are taken out of the Deck)."""
    s = game.setup(2, seed, {"seat_choices": [{"commander": c} for c in commanders]})
    while s.phase == "setup":
        (p,) = game.to_act(s)
        do(s, p, "pass")
    for side in s.sides:
        s.deck += side.hand
        side.hand = []
    if tartarus is not None:
        s.deck += [m.card for m in s.tartarus]
        s.tartarus = []
        for cid in tartarus:
            jail(s, cid)
    if agora is not None:
        s.deck += s.agora
        s.agora = []
        for cid in agora:
            take_out(s, cid)
            s.agora.append(cid)
    for seat, hand in enumerate(hands):
        give(s, seat, *hand)
    s.decisions.clear()
    s.pending.clear()
    s.active, s.turn, s.phase, s.moves = active, turn, "deploy", 0
    return s


def give(s: SiegeState, seat: int, *cids: str) -> None:
    """Put cards into a Hand (taken out of wherever they were)."""
    side = s.sides[seat]
    for cid in cids:
        take_out(s, cid)
        side.hand.append(cid)
    side.hand.sort()


def place(s: SiegeState, seat: int, cid: str, damage: int = 0) -> Minion:
    """Put a minion on a side of the board as if it had been there since an earlier turn."""
    take_out(s, cid)
    m = Minion(s.mint(cid).uid, cid, seat, damage=damage, piece=CARDS[cid].stat("artifact"))
    s.sides[seat].minions.append(m)
    return m


def jail(s: SiegeState, cid: str, damage: int = 0) -> Minion:
    """Put a minion in Tartarus as a prisoner."""
    take_out(s, cid)
    m = Minion(s.mint(cid).uid, cid, NOBODY, damage=damage, piece=CARDS[cid].stat("artifact"))
    s.tartarus.append(m)
    return m


def hold(s: SiegeState, seat: int, *numbers: int) -> None:
    """A player holds these artifacts, as if taken from the pile on an earlier turn."""
    for n in numbers:
        s.pile.remove(n)
        s.sides[seat].artifacts.append(Held(s.mint(ARTIFACTS[n].id).uid, n))


def on_side(s: SiegeState, seat: int) -> list[str]:
    """The card ids on a side of the board, in the order they arrived."""
    return [m.card for m in s.sides[seat].minions]


def minion(s: SiegeState, cid: str) -> Minion:
    """The minion of this card on the board or in Tartarus (it must be there)."""
    for m in [*b.field(s), *s.tartarus]:
        if m.card == cid:
            return m
    raise AssertionError(f"{cid} is not on the board nor in Tartarus")


def attack_of(s: SiegeState, m: Minion) -> int:
    """A minion's Attack now."""
    return b.stat(s, m, "attack")


def health_of(s: SiegeState, m: Minion) -> int:
    """A minion's Health now (before damage)."""
    return b.stat(s, m, "health")


def life(s: SiegeState, seat: int) -> int:
    """A Commander's Health now."""
    return 20 - s.sides[seat].wounds


# -- moves ---------------------------------------------------------------------------------------------


_moves = Moves(game)
keys, do, menu, by_words, say = _moves.keys, _moves.do, _moves.menu, _moves.by_words, _moves.say


def offers(s: SiegeState, player: int, *words: str) -> bool:
    """Whether some legal move's menu words begin with these."""
    return any(m[: len(words)] == words for m in menu(s, player))


def top(s: SiegeState) -> str | None:
    """The kind of the decision waiting, or None."""
    return s.decisions[-1].kind if s.decisions else None


def let_it_happen(s: SiegeState) -> None:
    """The player not taking the turn passes every response window now open."""
    while top(s) == "window":
        do(s, 1 - s.active, "pass")


def phase(s: SiegeState, name: str) -> None:
    """The turn player goes on to a phase (recruit or attack)."""
    while s.phase != name:
        do(s, s.active, "next")


def end_turn(s: SiegeState) -> None:
    """The turn player ends the turn; windows are passed (a discard down to 8 is left to the test)."""
    do(s, s.active, "end")
    let_it_happen(s)


def attack(s: SiegeState, attacker: Minion, target: int) -> list[str]:
    """In the Attack phase, `attacker` attacks the minion or Commander with this uid; the window passed."""
    phase(s, "attack")
    texts = do(s, s.active, f"attack:u={attacker.uid}:t={target}")
    while top(s) == "window":
        texts += do(s, 1 - s.active, "pass")
    return texts


def recruit(s: SiegeState, attacker: Minion, prisoner: Minion) -> list[str]:
    """In the Recruit phase, `attacker` attacks a prisoner."""
    phase(s, "recruit")
    return do(s, s.active, f"recruit:u={attacker.uid}:t={prisoner.uid}")


def commander(s: SiegeState, seat: int) -> int:
    """A Commander's uid."""
    return s.sides[seat].commander_uid
