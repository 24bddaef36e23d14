"""Tournament pairings (bot/tournament/pairing.py): each format at 2, 3 and odd player counts, byes, shared
wins, drop-outs, tables of 2, 3 and 4 seats; Swiss checked against a brute force written here without
networkx, and with Hypothesis over random results."""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament import (
    FORMATS,
    KNOCKOUT,
    ROUND_ROBIN,
    SWISS,
    Entrant,
    Game,
    over,
    pair,
    rounds_of,
    table_sizes,
)

COUNTS = (2, 3, 5, 7, 8, 16)


def entrants(n: int, dropped: dict[int, int] | None = None) -> list[Entrant]:
    """n players p00, p01 ... rated in that order (p00 the best)."""
    return [Entrant(f"p{i:02}", 1000.0 - i, (dropped or {}).get(i)) for i in range(n)]


def result(table: Sequence[str], rng: random.Random) -> Game:
    """A random finished game at this table: a bye, a win, a draw or (more seats) a shared win."""
    if len(table) == 1:
        return Game(tuple(table), (1.0,))
    kind = rng.random()
    if kind < 0.15:
        return Game(tuple(table), tuple(1 / len(table) for _ in table))
    if kind < 0.25 and len(table) > 2:
        return Game(tuple(table), (0.5, 0.5, *(0.0 for _ in table[2:])))
    winner = rng.randrange(len(table))
    return Game(tuple(table), tuple(1.0 if i == winner else 0.0 for i in range(len(table))))


def play(
    format: str, people: list[Entrant], seats: int, asked: int, seed: int, least: int = 2
) -> list[list[Game]]:
    """A whole tournament with random results, stopping when over() says so; every round checked for
    each active player at exactly one table."""
    rng = random.Random(seed)
    rounds = rounds_of(format, len(people), seats, asked)
    history: list[list[Game]] = []
    for round_no in range(1, rounds + 1):
        tables = pair(format, round_no, people, history, seats, least)
        assert tables == pair(format, round_no, people, history, seats, least)  # deterministic
        seated = [p for t in tables for p in t]
        assert len(seated) == len(set(seated))
        assert all(len(t) <= seats for t in tables)
        byes = [t for t in tables if len(t) == 1]
        assert tables[len(tables) - len(byes) :] == byes  # byes last
        active = {e.key for e in people if e.dropped is None or e.dropped > round_no}
        assert set(seated) <= active
        if format != KNOCKOUT:
            assert set(seated) == active
        history.append([result(t, rng) for t in tables])
        if over(format, round_no, rounds, people, history):
            break
    return history


def met(history: Sequence[Sequence[Game]]) -> Counter[frozenset[str]]:
    """How often each pair sat at one table, counted here independently of the module."""
    count: Counter[frozenset[str]] = Counter()
    for round_ in history:
        for game in round_:
            for a in game.players:
                for b in game.players:
                    if a < b:
                        count[frozenset((a, b))] += 1
    return count


def test_rounds_of() -> None:
    """Swiss plays the rounds asked; a round robin every pairing once; a knockout until one is left."""
    assert [rounds_of(SWISS, n, 2, 4) for n in (2, 9)] == [4, 4]
    assert rounds_of(SWISS, 5, 2, 0) == 1
    assert [rounds_of(ROUND_ROBIN, n, 2, 9) for n in COUNTS] == [1, 3, 5, 7, 7, 15]
    assert rounds_of(ROUND_ROBIN, 7, 3, 4) == 4
    assert [rounds_of(KNOCKOUT, n, 2, 9) for n in COUNTS] == [1, 2, 3, 3, 3, 4]
    assert [rounds_of(KNOCKOUT, n, 3, 9) for n in (2, 3, 4, 9, 10)] == [1, 1, 2, 2, 3]
    assert rounds_of(KNOCKOUT, 16, 4, 9) == 2
    with pytest.raises(ValueError):
        rounds_of("ladder", 4, 2, 3)


def test_table_sizes() -> None:
    """When n does not divide, some tables of seats-1 (down to the game's least); fewer left: byes."""
    assert table_sizes(8, 2, 2) == ([2, 2, 2, 2], 0)
    assert table_sizes(7, 2, 2) == ([2, 2, 2], 1)
    assert table_sizes(7, 3, 2) == ([3, 2, 2], 0)
    assert table_sizes(7, 4, 2) == ([4, 3], 0)
    assert table_sizes(5, 4, 4) == ([4], 1)
    assert table_sizes(6, 4, 4) == ([4], 2)
    assert table_sizes(10, 4, 3) == ([4, 3, 3], 0)
    assert table_sizes(1, 3, 2) == ([], 1)


# Swiss


def test_swiss_round_one_top_half_meets_bottom_half() -> None:
    """Swiss: "by score then rating": round 1 by rating, 1 v n/2+1 ...; odd: the lowest-rated has the bye."""
    assert pair(SWISS, 1, entrants(8), [], 2) == [
        ("p00", "p04"),
        ("p01", "p05"),
        ("p02", "p06"),
        ("p03", "p07"),
    ]
    assert pair(SWISS, 1, entrants(7), [], 2) == [("p00", "p03"), ("p01", "p04"), ("p02", "p05"), ("p06",)]
    assert pair(SWISS, 1, entrants(3), [], 2) == [("p00", "p01"), ("p02",)]
    assert pair(SWISS, 1, entrants(2), [], 2) == [("p00", "p01")]
    assert pair(SWISS, 1, entrants(1), [], 2) == []


def test_swiss_pairs_by_score_and_alternates_seats() -> None:
    """Swiss: "by score then rating, no repeat pairings": winners meet winners; who sat first sits second."""
    people = entrants(4)
    first = [Game(("p00", "p02"), (1.0, 0.0)), Game(("p01", "p03"), (0.0, 1.0))]
    assert pair(SWISS, 2, people, [first], 2) == [("p03", "p00"), ("p02", "p01")]


def test_swiss_bye_goes_to_the_lowest_without_one() -> None:
    """Swiss: "byes to the lowest without one"."""
    people = entrants(3)
    history: list[list[Game]] = [[Game(("p00", "p01"), (1.0, 0.0)), Game(("p02",), (1.0,))]]
    tables = pair(SWISS, 2, people, history, 2)
    assert tables[-1] == ("p01",) and set(tables[0]) == {"p00", "p02"}
    history.append([Game(tables[0], (0.5, 0.5)), Game(("p01",), (1.0,))])
    assert pair(SWISS, 3, people, history, 2)[-1] == ("p00",)
    # everyone has had a bye: the lowest-ranked of them has a second one, and p00 v p01 is repeated
    history.append([Game(("p01", "p02"), (1.0, 0.0)), Game(("p00",), (1.0,))])
    assert pair(SWISS, 4, people, history, 2)[-1] == ("p02",)


def test_swiss_bye_skips_whoever_would_force_a_repeat() -> None:
    """Swiss: the bye goes to the lowest-ranked without one whose removal leaves a pairing without repeats."""
    people = entrants(5)
    history = [
        [Game(("p03", "p04"), (1.0, 0.0)), Game(("p00", "p02"), (0.5, 0.5)), Game(("p01",), (1.0,))],
        [Game(("p01", "p04"), (0.0, 1.0)), Game(("p00", "p02"), (1.0, 0.0)), Game(("p03",), (1.0,))],
        [Game(("p01", "p03"), (0.0, 1.0)), Game(("p04", "p02"), (1.0, 0.0)), Game(("p00",), (1.0,))],
    ]
    # p02 (0.5 points) is the lowest without a bye, but without p02 p03 must meet p00, and p04 p01 again;
    # p04 (2 points) is the next without one
    assert pair(SWISS, 4, people, history, 2) == [("p03", "p00"), ("p02", "p01"), ("p04",)]


Pairing = list[tuple[str, str]]


def swiss_rule(
    people: Sequence[Entrant], history: Sequence[Sequence[Game]]
) -> tuple[str | None, list[str], Callable[[Pairing], tuple[int, int, int]]]:
    """The brief's Swiss rule in plain Python, by trying every pairing: the bye, the players to pair and the
    cost of a pairing: (repeats, Σ score-group gap², Σ rank gap), compared in that order."""
    points: defaultdict[str, float] = defaultdict(float)
    byes: Counter[str] = Counter()
    for round_ in history:
        for game in round_:
            if len(game.players) == 1:
                byes[game.players[0]] += 1
                points[game.players[0]] += 1.0
            else:
                for p, share in zip(game.players, game.points or (), strict=True):
                    points[p] += share
    ranked = sorted(people, key=lambda e: (-round(points[e.key], 9), -e.rating, e.key))
    keys = [e.key for e in ranked]
    scores = sorted({round(points[k], 9) for k in keys}, reverse=True)
    group = {k: scores.index(round(points[k], 9)) for k in keys}
    met_before = met(history)

    def cost(pairing: Pairing) -> tuple[int, int, int]:
        return (
            sum(met_before[frozenset(p)] for p in pairing),
            sum((group[a] - group[b]) ** 2 for a, b in pairing),
            sum(abs(keys.index(a) - keys.index(b)) for a, b in pairing),
        )

    bye = None
    if len(keys) % 2:
        fewest = min(byes[k] for k in keys)
        candidates = [k for k in reversed(keys) if byes[k] == fewest]
        free = [c for c in candidates if any(cost(p)[0] == 0 for p in pairings([k for k in keys if k != c]))]
        bye = (free or candidates)[0]
    return bye, [k for k in keys if k != bye], cost


def pairings(players: list[str]) -> Iterator[Pairing]:
    """Every perfect pairing of an even list."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        for more in pairings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *more]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8])
def test_swiss_is_optimal_against_a_brute_force(n: int) -> None:
    """Swiss: "no repeat pairings, byes to the lowest without one", pairing by score then rating: each round
    the same bye and the same least cost as trying every pairing (no networkx in the checker)."""
    for seed in range(6):
        rng = random.Random(seed * 100 + n)
        people = entrants(n)
        history: list[list[Game]] = []
        for round_no in range(1, min(n + 2, 7)):
            tables = pair(SWISS, round_no, people, history, 2)
            if round_no > 1:
                bye, rest, cost = swiss_rule(people, history)
                assert (tables[-1][0] if len(tables[-1]) == 1 else None) == bye
                ours = [(t[0], t[1]) for t in tables if len(t) == 2]
                assert sorted(p for t in ours for p in t) == sorted(rest)
                assert cost(ours) == min(cost(p) for p in pairings(rest)), (seed, round_no, tables)
            history.append([result(t, rng) for t in tables])


def fair_bye_free_pairing_exists(people: Sequence[Entrant], history: Sequence[Sequence[Game]]) -> bool:
    """Whether some bye among those with the fewest leaves a pairing without repeats (brute force)."""
    _bye, rest, cost = swiss_rule(people, history)
    return any(cost(p)[0] == 0 for p in pairings(rest))


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 9), rounds=st.integers(1, 7), seed=st.integers(0, 10**6), drop=st.integers(0, 12))
def test_swiss_hypothesis(n: int, rounds: int, seed: int, drop: int) -> None:
    """Swiss over random results (and maybe a drop-out): each active player at exactly one table a round,
    no repeat while a pairing without one is possible, nobody has a second bye while someone has none."""
    people = entrants(n, {drop % n: 2 + drop % 3} if drop < 6 else None)
    rng = random.Random(seed)
    history: list[list[Game]] = []
    for round_no in range(1, rounds + 1):
        active = [e for e in people if e.dropped is None or e.dropped > round_no]
        tables = pair(SWISS, round_no, people, history, 2)
        if len(active) < 2:
            assert tables == []
            break
        seated = Counter(p for t in tables for p in t)
        assert set(seated) == {e.key for e in active} and set(seated.values()) == {1}
        repeats = [t for t in tables if len(t) == 2 and met(history)[frozenset(t)]]
        assert not repeats or not fair_bye_free_pairing_exists(active, history)
        byes_before = Counter(g.players[0] for r in history for g in r if len(g.players) == 1)
        for t in tables:
            if len(t) == 1:
                assert byes_before[t[0]] == min(byes_before[e.key] for e in active)
        history.append([result(t, rng) for t in tables])


def test_swiss_sixteen_players_four_rounds_one_drop_out() -> None:
    """Swiss, 16 players, 4 rounds, random results, one drop-out after round 2: no repeats, 8 tables a round
    (7 and a bye after the drop-out)."""
    people = entrants(16, {5: 3})
    history = play(SWISS, people, 2, 4, seed=16)
    assert [len(r) for r in history] == [8, 8, 8, 8]
    assert [sum(len(g.players) == 1 for g in r) for r in history] == [0, 0, 1, 1]
    assert max(met(history).values()) == 1
    assert all("p05" not in g.players for r in history[2:] for g in r)
    byes = [g.players[0] for r in history for g in r if len(g.players) == 1]
    assert len(set(byes)) == 2


@pytest.mark.parametrize("seats", [3, 4])
@pytest.mark.parametrize("n", COUNTS)
def test_swiss_more_seats(n: int, seats: int) -> None:
    """Swiss at tables of 3 and 4: sizes from seats down to the least, byes when too few are left; swaps
    keep repeats away while there are enough players."""
    history = play(SWISS, entrants(n), seats, 3, seed=n * seats)
    for round_ in history:
        sizes = sorted((len(g.players) for g in round_ if len(g.players) > 1), reverse=True)
        expected, byes = table_sizes(n, seats, 2)
        assert sizes == expected and sum(len(g.players) == 1 for g in round_) == byes
    if n == 16 and seats == 4:
        assert max(met(history[:2]).values()) == 1  # round 2 meets nobody again


def test_swiss_more_seats_least() -> None:
    """A game of at least 3 at tables of 4: 7 players sit 4 + 3; 5 players sit 4 and one has a bye."""
    assert [len(t) for t in pair(SWISS, 1, entrants(7), [], 4, least=3)] == [4, 3]
    assert [len(t) for t in pair(SWISS, 1, entrants(5), [], 4, least=4)] == [4, 1]
    assert pair(SWISS, 1, entrants(5), [], 4, least=4)[-1] == ("p04",)


# Round robin


@pytest.mark.parametrize("n", COUNTS)
def test_round_robin_everyone_meets_everyone_once(n: int) -> None:
    """Round robin, 2 seats: every pairing exactly once; odd counts: each player one bye."""
    people = entrants(n)
    history = play(ROUND_ROBIN, people, 2, 0, seed=n)
    assert len(history) == rounds_of(ROUND_ROBIN, n, 2, 0)
    meetings = met(history)
    assert len(meetings) == n * (n - 1) // 2 and set(meetings.values()) == {1}
    byes = Counter(g.players[0] for r in history for g in r if len(g.players) == 1)
    assert byes == (Counter({e.key: 1 for e in people}) if n % 2 else Counter())
    firsts = Counter(g.players[0] for r in history for g in r if len(g.players) == 2)
    assert max(firsts.values()) - min(firsts[e.key] for e in people) <= 2  # seats alternate


def test_round_robin_drop_out_gives_a_bye() -> None:
    """Round robin: a drop-out is not paired from their round on; their scheduled opponent has a bye."""
    people = entrants(6, {2: 3})
    history = play(ROUND_ROBIN, people, 2, 0, seed=1)
    assert len(history) == 5
    for round_no, round_ in enumerate(history, start=1):
        byes = [g.players for g in round_ if len(g.players) == 1]
        assert len(byes) == (1 if round_no >= 3 else 0)
        assert ("p02" in {p for g in round_ for p in g.players}) == (round_no < 3)
    assert set(met(history).values()) == {1}


@pytest.mark.parametrize("seats", [3, 4])
@pytest.mark.parametrize("n", COUNTS)
def test_round_robin_more_seats(n: int, seats: int) -> None:
    """Round robin at tables of 3 and 4: `asked` rounds, everyone at one table a round."""
    history = play(ROUND_ROBIN, entrants(n), seats, 3, seed=n)
    assert len(history) == 3


def test_round_robin_more_seats_spreads_meetings() -> None:
    """Nine players at tables of three: four rounds in which no pair meets twice exist; greedy and swaps
    find two, and the four rounds repeat few pairs."""
    history = play(ROUND_ROBIN, entrants(9), 3, 4, seed=9)
    assert max(met(history[:2]).values()) == 1
    assert sum(times - 1 for times in met(history).values()) <= 3


# Knockout


@pytest.mark.parametrize("n", COUNTS)
def test_knockout_bracket(n: int) -> None:
    """Knockout: seeded by rating; the top seeds get byes when n is not a power of two; when the better seed
    always wins, seeds 1 and 2 meet in the final; one is left after rounds_of rounds."""
    people = entrants(n)
    history: list[list[Game]] = []
    rounds = rounds_of(KNOCKOUT, n, 2, 0)
    for round_no in range(1, rounds + 1):
        tables = pair(KNOCKOUT, round_no, people, history, 2)
        history.append([Game(t, (1.0,) if len(t) == 1 else (1.0, 0.0)) for t in tables])
        assert over(KNOCKOUT, round_no, rounds, people, history) == (round_no == rounds)
    assert [g.players for g in history[-1]] == [("p00", "p01")]
    byes = [g.players[0] for g in history[0] if len(g.players) == 1]
    assert byes == [f"p{i:02}" for i in range(2**rounds - n)]
    assert pair(KNOCKOUT, rounds + 1, people, history, 2) == []


def test_knockout_standard_bracket_of_eight() -> None:
    """Knockout of 8: 1 v 8, 2 v 7, 3 v 6, 4 v 5; then the winners of 1-8 and 4-5 meet, 2-7 and 3-6."""
    people = entrants(8)
    first = pair(KNOCKOUT, 1, people, [], 2)
    assert first == [("p00", "p07"), ("p01", "p06"), ("p02", "p05"), ("p03", "p04")]
    upsets = [Game(t, (0.0, 1.0)) for t in first]  # every lower seed wins
    assert pair(KNOCKOUT, 2, people, [upsets], 2) == [("p04", "p07"), ("p05", "p06")]


def test_knockout_shared_win_goes_to_the_better_seed() -> None:
    """Knockout: a shared win (an adjudicated draw) goes through with the better seed."""
    people = entrants(4)
    first = [Game(("p00", "p03"), (0.5, 0.5)), Game(("p01", "p02"), (0.5, 0.5))]
    assert pair(KNOCKOUT, 2, people, [first], 2) == [("p00", "p01")]


def test_knockout_drop_out_opponent_goes_through_by_bye() -> None:
    """Knockout: a drop-out is out; their next opponent goes through by a bye."""
    people = entrants(8, {7: 2})  # p07 beats p00, then drops before round 2
    first = [Game(t, (0.0, 1.0) if t[0] == "p00" else (1.0, 0.0)) for t in pair(KNOCKOUT, 1, people, [], 2)]
    second = pair(KNOCKOUT, 2, people, [first], 2)
    assert second == [("p01", "p02"), ("p03",)]
    history = [first, [Game(("p01", "p02"), (1.0, 0.0)), Game(("p03",), (1.0,))]]
    assert pair(KNOCKOUT, 3, people, history, 2) == [("p01", "p03")]


def test_knockout_two_and_three_players() -> None:
    """Knockout at 2 and 3 players; one left ends it early when the other finalist drops."""
    assert pair(KNOCKOUT, 1, entrants(2), [], 2) == [("p00", "p01")]
    assert pair(KNOCKOUT, 1, entrants(3), [], 2) == [("p01", "p02"), ("p00",)]
    people = entrants(3, {0: 2})
    history = [[Game(("p01", "p02"), (1.0, 0.0)), Game(("p00",), (1.0,))]]
    assert over(KNOCKOUT, 1, 2, people, history)
    assert pair(KNOCKOUT, 2, people, history, 2) == []


@pytest.mark.parametrize("seats", [3, 4])
@pytest.mark.parametrize("n", COUNTS)
def test_knockout_more_seats(n: int, seats: int) -> None:
    """Knockout at tables of 3 and 4: a bracket of seats^rounds, one left at the end."""
    people = entrants(n)
    history = play(KNOCKOUT, people, seats, 0, seed=n)
    assert len(history) == rounds_of(KNOCKOUT, n, seats, 0)
    last = history[-1]
    assert len(last) == 1 and len(last[0].players) > 1


def test_knockout_more_seats_snake() -> None:
    """Knockout of 9 at tables of 3: seeds dealt 1 2 3, 6 5 4, 7 8 9; of 7: the top seeds sit the smaller
    tables (no byes: every table has two or more)."""
    assert pair(KNOCKOUT, 1, entrants(9), [], 3) == [
        ("p00", "p05", "p06"),
        ("p01", "p04", "p07"),
        ("p02", "p03", "p08"),
    ]
    assert pair(KNOCKOUT, 1, entrants(7), [], 3) == [("p00", "p05"), ("p01", "p04"), ("p02", "p03", "p06")]
    assert pair(KNOCKOUT, 1, entrants(5), [], 3, least=3) == [("p02", "p03", "p04"), ("p00",), ("p01",)]


# All formats


@pytest.mark.parametrize("format", FORMATS)
def test_restart_between_pairing_and_start(format: str) -> None:
    """ "Everything survives restarts": pairing is a pure function of the stored entrants and history, so a
    restart between pairing and the games' start pairs the same tables, whatever order the store lists
    the entrants in."""
    people = entrants(7)
    history = play(format, people, 2, 2, seed=7)[:1]
    again = list(reversed(people))
    assert pair(format, 2, people, history, 2) == pair(format, 2, again, history, 2)


def test_over() -> None:
    """over: the last round, or fewer than two who can still play."""
    people = entrants(4)
    assert not over(SWISS, 1, 3, people, [])
    assert over(SWISS, 3, 3, people, [])
    assert over(ROUND_ROBIN, 1, 3, entrants(4, {1: 2, 2: 2, 3: 2}), [])
    assert pair(SWISS, 2, entrants(4, {1: 2, 2: 2, 3: 2}), [], 2) == []
