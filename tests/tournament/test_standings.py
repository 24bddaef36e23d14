"""Tournament standings (bot/tournament/standings.py) against small tournaments worked out by hand: points,
Buchholz and Sonneborn-Berger, their generalisations at tables of three, shared ranks, byes, drop-outs,
unfinished games and a knockout's order."""

from __future__ import annotations

from bot.tournament import KNOCKOUT, ROUND_ROBIN, SWISS, Entrant, Game, Standing, standings, tiebreak_names

PEOPLE = [Entrant("a", 4.0), Entrant("b", 3.0), Entrant("c", 2.0), Entrant("d", 1.0)]
# Three rounds of two seats:
#   1: a beats b; c draws d        points a 1.5, b 1, c 1, d 2.5
#   2: a draws c; d beats b        Buchholz a 1+1+2.5 = 4.5, b 1.5+2.5+1 = 5, c 2.5+1.5+1 = 5, d 1+1+1.5 = 3.5
#   3: d beats a; b beats c        Sonneborn-Berger a 1×1 + 0.5×1 = 1.5, b 1×1 = 1, c 0.5×2.5 + 0.5×1.5 = 2,
#                                  d 0.5×1 + 1×1 + 1×1.5 = 3
HISTORY = [
    [Game(("a", "b"), (1.0, 0.0)), Game(("c", "d"), (0.5, 0.5))],
    [Game(("a", "c"), (0.5, 0.5)), Game(("b", "d"), (0.0, 1.0))],
    [Game(("d", "a"), (1.0, 0.0)), Game(("b", "c"), (1.0, 0.0))],
]


def lines(rows: list[Standing]) -> list[tuple[int, str, float, tuple[float, ...]]]:
    """Rank, key, points and tiebreaks of each line."""
    return [(s.rank, s.key, s.points, s.tiebreaks) for s in rows]


def test_buchholz_and_sonneborn_berger_by_hand() -> None:
    """Swiss: "tiebreaks Buchholz then Sonneborn-Berger": the hand-worked example above."""
    rows = standings(SWISS, PEOPLE, HISTORY, 2)
    assert lines(rows) == [
        (1, "d", 2.5, (3.5, 3.0)),
        (2, "a", 1.5, (4.5, 1.5)),
        (3, "c", 1.0, (5.0, 2.0)),  # level with b on points and Buchholz: Sonneborn-Berger decides
        (4, "b", 1.0, (5.0, 1.0)),
    ]
    assert [(s.played, s.wins, s.byes) for s in rows] == [(3, 2, 0), (3, 1, 0), (3, 0, 0), (3, 1, 0)]
    assert all(s.alive and s.dropped is None for s in rows)
    assert tiebreak_names(SWISS, 2) == tiebreak_names(ROUND_ROBIN, 2) == ("Buchholz", "Sonneborn-Berger")


def test_ties_share_a_rank_and_rating_orders_them() -> None:
    """Ties: equal points and tiebreaks share a rank, listed by rating; a draw is nobody's win."""
    people = [Entrant("low", 1.0), Entrant("high", 2.0)]
    rows = standings(SWISS, people, [[Game(("low", "high"), (0.5, 0.5))]], 2)
    assert [(s.rank, s.key, s.points, s.wins) for s in rows] == [(1, "high", 0.5, 0), (1, "low", 0.5, 0)]


def test_byes_unfinished_games_and_drop_outs() -> None:
    """A bye scores as a win and adds nothing to Buchholz; unfinished games count nothing; a drop-out is
    listed, marked and ranked like anyone, and their games still count for their opponents."""
    people = [Entrant("a", 3.0), Entrant("b", 2.0, dropped=2), Entrant("c", 1.0)]
    history = [
        [Game(("a", "b"), (0.5, 0.5)), Game(("c",), (1.0,))],
        [Game(("c", "a"), None)],  # unfinished; b dropped before round 2
    ]
    rows = standings(SWISS, people, history, 2)
    assert lines(rows) == [(1, "c", 1.0, (0.0, 0.0)), (2, "a", 0.5, (0.5, 0.25)), (2, "b", 0.5, (0.5, 0.25))]
    assert [(s.played, s.byes, s.dropped, s.alive) for s in rows] == [
        (0, 1, None, True),
        (1, 0, None, True),
        (1, 0, 2, False),
    ]


def test_more_seats_generalised_tiebreaks_by_hand() -> None:
    """ "or the game's own where it has more than two seats": the game's own is not known (only shares are),
    so the opponents' points averaged per table, and share × that average, named as such.
    Round 1: a wins at (a, b, c), d has a bye; round 2: d and a share the win at (d, a, b), c has a bye.
    Points a 1.5, b 0, c 1, d 1.5. Opponents' average a 0.5 + 0.75 = 1.25, b 1.25 + 1.5 = 2.75, c 0.75,
    d 0.75; share × average a 1×0.5 + 0.5×0.75 = 0.875, d 0.5×0.75 = 0.375, b and c 0."""
    history = [
        [Game(("a", "b", "c"), (1.0, 0.0, 0.0)), Game(("d",), (1.0,))],
        [Game(("d", "a", "b"), (0.5, 0.5, 0.0)), Game(("c",), (1.0,))],
    ]
    rows = standings(SWISS, PEOPLE, history, 3)
    assert lines(rows) == [
        (1, "a", 1.5, (1.25, 0.875)),
        (2, "d", 1.5, (0.75, 0.375)),
        (3, "c", 1.0, (0.75, 0.0)),
        (4, "b", 0.0, (2.75, 0.0)),
    ]
    assert [s.wins for s in rows] == [2, 1, 0, 0]  # a shared win counts
    assert tiebreak_names(SWISS, 3) == ("Opponents' average", "Shares × opponents' average")


def test_knockout_order() -> None:
    """Knockout: who is still in first, then the round reached, then points; losers of one round share."""
    first = [Game(("a", "d"), (1.0, 0.0)), Game(("b", "c"), (0.0, 1.0))]
    during = standings(KNOCKOUT, PEOPLE, [first, [Game(("a", "c"), None)]], 2)
    assert [(s.rank, s.key, s.alive) for s in during] == [
        (1, "a", True),
        (1, "c", True),
        (3, "b", False),
        (3, "d", False),
    ]
    final = standings(
        KNOCKOUT, PEOPLE, [first, [Game(("a", "c"), (0.5, 0.5))]], 2
    )  # shared: a, the better seed
    assert [(s.rank, s.key, s.alive, s.tiebreaks) for s in final] == [
        (1, "a", True, (2.0,)),
        (2, "c", False, (2.0,)),
        (3, "b", False, (1.0,)),
        (3, "d", False, (1.0,)),
    ]
    assert tiebreak_names(KNOCKOUT, 2) == ("Round reached",)
    assert all(s.alive for s in standings(KNOCKOUT, PEOPLE, [], 2))
