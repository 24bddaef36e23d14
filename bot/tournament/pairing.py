"""A tournament's rounds: how many there are, who sits at which table, and when it is over.

Pure (no I/O) and deterministic: the same entrants and history give the same tables. A round's tables come
in seat order, top tables first, byes (1-tuples) last; only entrants not dropped by the round are paired
(`dropped` is the first round they are not), and fewer than two such players pair nobody.

Table sizes (every format but round robin of two): as many tables of `seats` as the players fill; when the
count does not divide, some tables have fewer seats, down to `least` (the game's minimum), and players
left over who cannot fill a table of `least` have byes.

Swiss, two seats:
- Round 1 by rating: the top half meets the bottom half (1 v n/2+1, 2 v n/2+2 ...); with an odd count the
  lowest-rated has the bye.
- Later rounds rank players by points, then rating (then key). With an odd count the bye goes to the
  lowest-ranked of those with the fewest byes (nobody has a second bye while someone has none) whose removal
  leaves a pairing without repeats.
- The rest are paired by networkx's max_weight_matching (Edmonds' blossom algorithm, maximum cardinality):
  edges only between players who have not met, and among those pairings the one of least cost, where a
  pair costs M × (the gap between their score groups)² + the gap between their ranks; a score group is a
  distinct points total, M = n² makes one step of score outweigh every rank gap together. So equal scores
  are preferred strongly (a player floats to the nearest group, and one far float costs more than two near
  ones) and close ranks weakly.
- When no pairing without repeats exists (more rounds than the players allow), repeats are allowed at a
  cost above every other pairing's (each repeat counts once per earlier meeting): as few as can be.
- Seats: the higher-ranked player sits first unless the other sat first less often so far; so nobody sits
  first much more than half the time.

Swiss, more seats: the byes as above (fewest byes, lowest-ranked), then tables of the next players in
standings order, improved by swapping two players between tables while a swap lowers the cost: the same
pair cost summed over each pair at a table, plus a large cost per earlier meeting of a pair. Within a table
those who sat first less often come first, then by rank.

Round robin, two seats: the circle method (one player fixed, the others turning one place a round), which
pairs everyone once in n-1 rounds (n even) or n rounds (n odd: a dummy player, whose opponent has the
bye). The circle numbers the players by key, not rating: it must stay the same every round while ratings
move, and every pair meets anyway. A drop-out's scheduled opponent has a bye that round (pairing them again
would break the schedule). Seats as in Swiss.

Round robin, more seats: `asked` rounds; each round's tables are filled greedily, each with the player
who met those already there least, then improved by swaps; the cost is the sum over pairs at a table of
(their earlier meetings)², so repeats spread out. Byes and seats as in Swiss.

Knockout: seeded by rating; the standard bracket of `seats`^rounds places seeds so that 1 v n, 2 v n-1 ...
in round 1 and seeds 1 and 2 (their halves) meet only in the final; with more seats the seeds are dealt to
round 1's tables in a snake (1, 2, 3 then 6, 5, 4 ...). When the count is not a power of `seats` the top
seeds have byes in round 1, as few as let every other table have at least `least` players (the smaller
tables go to the better seeds). Later rounds join the tables of the bracket; the largest share goes through,
a shared win to the better seed (the earlier seat: knockout tables are seated by seed). A drop-out is out:
their opponent goes through by a bye; a table left with fewer than `least` players sends its best seed
through. Later rounds read round 1 of the history to know the bracket: its tables must come in the order
`pair` gave them.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence

import networkx as nx  # type: ignore[import-untyped]

from bot.tournament.standings import (
    KNOCKOUT,
    ROUND_ROBIN,
    SWISS,
    Entrant,
    Game,
    bye_counts,
    check_format,
    first_seats,
    met_counts,
    points_of,
    still_in,
    through,
)

Table = tuple[str, ...]
Cost = Callable[[Sequence[str]], int]  # the cost of one table's players (lower is better)


def rounds_of(format: str, players: int, seats: int, asked: int) -> int:
    """How many rounds a tournament of this many players has: swiss `asked` (at least 1); round robin:
    every pairing once (2 seats: n-1 for even n, n for odd), or `asked` for more seats; knockout: until one
    is left."""
    check_format(format)
    if seats < 2:
        raise ValueError("a tournament table has at least two seats")
    if format == SWISS or (format == ROUND_ROBIN and seats > 2):
        return max(1, asked)
    if players < 2:
        return 0
    if format == ROUND_ROBIN:
        return players - 1 if players % 2 == 0 else players
    rounds, reach = 0, 1
    while reach < players:
        rounds, reach = rounds + 1, reach * seats
    return rounds


def pair(
    format: str,
    round_no: int,
    entrants: Sequence[Entrant],
    history: Sequence[Sequence[Game]],
    seats: int,
    least: int = 2,
) -> list[tuple[str, ...]]:
    """The tables of round `round_no` (1-based; history holds rounds 1..round_no-1, all finished), each a
    tuple of player keys in seat order, byes last as 1-tuples. `seats`: players per table; `least`: the
    fewest a table may have (the game's minimum) when the count does not divide. Deterministic. Only
    entrants not dropped by this round (and, in a knockout, still in) are paired. [] when nobody can be
    paired (the tournament is over)."""
    check_format(format)
    if seats < 2:
        raise ValueError("a tournament table has at least two seats")
    least = max(2, min(least, seats))
    history = history[: round_no - 1]
    if format == KNOCKOUT:
        return _knockout(round_no, entrants, history, seats, least)
    active = [e for e in entrants if _plays(e, round_no)]
    if len(active) < 2:
        return []
    if format == ROUND_ROBIN and seats == 2:
        return _circle(round_no, entrants, history)
    ranked = _ranked(active, history)
    if format == SWISS and seats == 2:
        return _swiss_two(round_no, ranked, history)
    return _groups(format, ranked, history, seats, least)


def over(
    format: str, round_no: int, rounds: int, entrants: Sequence[Entrant], history: Sequence[Sequence[Game]]
) -> bool:
    """Whether the tournament ends after round `round_no` (all finished): its last round, or a knockout
    with one left (or fewer than two who can still play, in any format)."""
    check_format(format)
    if round_no >= rounds:
        return True
    history = history[:round_no]
    able = [e for e in entrants if _plays(e, round_no + 1)]
    if format == KNOCKOUT:
        able = [e for e in able if still_in(e.key, history)]
    return len(able) < 2


def table_sizes(players: int, seats: int, least: int) -> tuple[list[int], int]:
    """How many sit at each table (largest first) and how many have byes: as many tables as `seats` needs,
    fewer while they cannot all have `least`."""
    tables = -(-players // seats)
    while tables and tables * least > players:
        tables -= 1
    seated = min(players, tables * seats)
    size, larger = divmod(seated, tables) if tables else (0, 0)
    return [size + 1] * larger + [size] * (tables - larger), players - seated


def _plays(entrant: Entrant, round_no: int) -> bool:
    return entrant.dropped is None or entrant.dropped > round_no


def _ranked(active: Sequence[Entrant], history: Sequence[Sequence[Game]]) -> list[str]:
    """Players by points, then rating, then key."""
    points = points_of(history)
    order = sorted(active, key=lambda e: (-round(points.get(e.key, 0.0), 9), -e.rating, e.key))
    return [e.key for e in order]


def _seated(players: Sequence[str], firsts: Counter[str], rank: dict[str, int]) -> Table:
    """A table's seat order: who sat first less often comes first, then the higher-ranked."""
    return tuple(sorted(players, key=lambda p: (firsts[p], rank[p])))


def _by_rank(tables: list[Table], byes: Sequence[str], rank: dict[str, int]) -> list[Table]:
    """The round's tables, top tables first, then the byes."""
    return sorted(tables, key=lambda t: min(rank[p] for p in t)) + [(p,) for p in byes]


def _bye_order(ranked: Sequence[str], byes: Counter[str]) -> list[str]:
    """Who should have a bye first: the fewest byes so far, then the lowest-ranked."""
    return sorted(reversed(ranked), key=lambda p: byes[p])


def _pair_cost(ranked: Sequence[str], history: Sequence[Sequence[Game]]) -> Callable[[str, str], int]:
    """Swiss: a pair's cost, M × (score group gap)² + rank gap, M = n² (see the module docstring)."""
    points = points_of(history)
    scores = [round(points.get(p, 0.0), 9) for p in ranked]
    group = {p: sorted(set(scores), reverse=True).index(s) for p, s in zip(ranked, scores, strict=True)}
    rank = {p: i for i, p in enumerate(ranked)}
    weight = len(ranked) ** 2

    def cost(a: str, b: str) -> int:
        return weight * (group[a] - group[b]) ** 2 + abs(rank[a] - rank[b])

    return cost


def _swiss_two(round_no: int, ranked: list[str], history: Sequence[Sequence[Game]]) -> list[Table]:
    rank = {p: i for i, p in enumerate(ranked)}
    firsts = first_seats(history)
    if round_no == 1:
        bye = ranked[-1:] if len(ranked) % 2 else []
        rest = ranked[: len(ranked) - len(bye)]
        half = len(rest) // 2
        pairs = [(rest[i], rest[i + half]) for i in range(half)]
    else:
        met = met_counts(history)
        bye = []
        if len(ranked) % 2:
            had = bye_counts(history)
            order = _bye_order(ranked, had)
            fewest = [p for p in order if had[p] == had[order[0]]]
            fits = [p for p in fewest if _repeat_free([q for q in ranked if q != p], met)]
            bye = [fits[0] if fits else order[0]]
        rest = [p for p in ranked if p not in bye]
        pairs = _matching(rest, met, _pair_cost(ranked, history))
    return _by_rank([_seated(pair, firsts, rank) for pair in pairs], bye, rank)


def _repeat_free(players: Sequence[str], met: Counter[frozenset[str]]) -> bool:
    """Whether these players can all be paired with someone they have not met."""
    graph = nx.Graph()
    graph.add_nodes_from(players)
    graph.add_edges_from(
        (a, b) for i, a in enumerate(players) for b in players[i + 1 :] if not met[frozenset((a, b))]
    )
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(players)


def _matching(
    players: Sequence[str], met: Counter[frozenset[str]], cost: Callable[[str, str], int]
) -> list[tuple[str, str]]:
    """The pairing of least total cost without repeats, or, when there is none, with the fewest."""
    pairs = [(a, b) for i, a in enumerate(players) for b in players[i + 1 :]]
    worst = max((cost(a, b) for a, b in pairs), default=0)
    repeat = len(players) * (worst + 1)  # above any pairing's total cost without repeats
    for allow_repeats in (False, True):
        graph = nx.Graph()
        for a, b in pairs:
            times = met[frozenset((a, b))]
            if times and not allow_repeats:
                continue
            total = cost(a, b) + repeat * times
            graph.add_edge(a, b, weight=repeat * (max(met.values(), default=0) + 1) - total)
        matched = nx.max_weight_matching(graph, maxcardinality=True)
        if 2 * len(matched) == len(players):
            order = {p: i for i, p in enumerate(players)}
            return [(a, b) if order[a] < order[b] else (b, a) for a, b in matched]
    raise AssertionError("a complete graph of an even count has a perfect matching")


def _groups(
    format: str, ranked: list[str], history: Sequence[Sequence[Game]], seats: int, least: int
) -> list[Table]:
    """Tables of more than two seats, swiss or round robin."""
    rank = {p: i for i, p in enumerate(ranked)}
    met = met_counts(history)
    sizes, bye_count = table_sizes(len(ranked), seats, least)
    byes = _bye_order(ranked, bye_counts(history))[:bye_count]
    rest = [p for p in ranked if p not in byes]
    cost: Cost
    if format == SWISS:
        pair_cost = _pair_cost(ranked, history)
        worst = max((pair_cost(a, b) for a in ranked for b in ranked), default=0)
        repeat = len(ranked) ** 2 * (worst + 1)  # above any grouping's total cost without repeats

        link = {(a, b): pair_cost(a, b) + repeat * met[frozenset((a, b))] for a in rest for b in rest}

        def cost(table: Sequence[str]) -> int:
            return sum(link[a, b] for i, a in enumerate(table) for b in table[i + 1 :])

        tables, start = [], 0
        for size in sizes:
            tables.append(rest[start : start + size])
            start += size
    else:

        def cost(table: Sequence[str]) -> int:
            return sum(met[frozenset((a, b))] ** 2 for i, a in enumerate(table) for b in table[i + 1 :])

        tables = _greedy(rest, sizes, cost)
    _improve(tables, cost)
    firsts = first_seats(history)
    return _by_rank([_seated(t, firsts, rank) for t in tables], byes, rank)


def _greedy(players: Sequence[str], sizes: Sequence[int], cost: Cost) -> list[list[str]]:
    """Each table in turn: the first player left, then whoever adds the least cost (the first on ties)."""
    left = list(players)
    tables = []
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            best = min(left, key=lambda p: cost([*table, p]))
            left.remove(best)
            table.append(best)
        tables.append(table)
    return tables


def _improve(tables: list[list[str]], cost: Cost) -> None:
    """Swap two players of different tables, the best swap first, while one lowers the total cost."""
    while True:
        best: tuple[int, int, int, int, int] | None = None
        for t, u in itertools.combinations(range(len(tables)), 2):
            before = cost(tables[t]) + cost(tables[u])
            for i, a in enumerate(tables[t]):
                for j, b in enumerate(tables[u]):
                    one = [*tables[t][:i], b, *tables[t][i + 1 :]]
                    two = [*tables[u][:j], a, *tables[u][j + 1 :]]
                    gain = before - cost(one) - cost(two)
                    if gain > 0 and (best is None or gain > best[0]):
                        best = (gain, t, i, u, j)
        if best is None:
            return
        _gain, t, i, u, j = best
        tables[t][i], tables[u][j] = tables[u][j], tables[t][i]


def _circle(round_no: int, entrants: Sequence[Entrant], history: Sequence[Sequence[Game]]) -> list[Table]:
    """Round robin of two seats by the circle method, players numbered by key."""
    roster: list[str | None] = [*sorted(e.key for e in entrants if _plays(e, 1))]
    if len(roster) % 2:
        roster.append(None)
    turn = (round_no - 1) % (len(roster) - 1)
    others = roster[1:]
    circle = [roster[0], *others[len(others) - turn :], *others[: len(others) - turn]]
    playing = {e.key for e in entrants if _plays(e, round_no)}
    rank = {p: i for i, p in enumerate(_ranked([e for e in entrants if e.key in playing], history))}
    firsts = first_seats(history)
    tables: list[Table] = []
    byes: list[str] = []
    half = len(circle) // 2
    for a, b in zip(circle[:half], reversed(circle[half:]), strict=True):
        pair = [p for p in (a, b) if p is not None and p in playing]
        if len(pair) == 2:
            tables.append(_seated(pair, firsts, rank))
        byes += pair if len(pair) == 1 else []
    return _by_rank(tables, sorted(byes, key=rank.__getitem__), rank)


# Knockout


def _bracket(groups: int, seats: int) -> list[int]:
    """Round 1's tables (by the seed of their best player, 1-based) in bracket order: each run of `seats`
    meets in round 2, each run of `seats`² in round 3 ..., seeds 1 and 2 only in the final."""
    order, size = [1], 1
    while size < groups:
        order = [tier * size + (s if tier % 2 == 0 else size + 1 - s) for s in order for tier in range(seats)]
        size *= seats
    return order


def _first_round(players: Sequence[str], seats: int, least: int) -> list[list[str]]:
    """Round 1's tables by their best seed (1-based place in the list): the top seeds alone (byes), as few
    as let the other tables have at least `least`, the others dealt in a snake, smaller tables first."""
    groups = 1
    while groups * seats < len(players):
        groups *= seats
    fits = []
    for byes in range(groups):
        left, tables = len(players) - byes, groups - byes
        if -(-left // tables) <= seats:
            fits.append((left // tables < least, left // tables < 2, byes))
    _worse, _worst, byes = min(fits)
    left, tables = len(players) - byes, groups - byes
    size, larger = divmod(left, tables)
    sizes = [size] * (tables - larger) + [size + 1] * larger
    dealt: list[list[str]] = [[p] for p in players[:byes]] + [[] for _ in range(tables)]
    rest = iter(players[byes:])
    for tier in range(max(sizes)):
        order = range(tables) if tier % 2 == 0 else range(tables - 1, -1, -1)
        for t in order:
            if len(dealt[byes + t]) < sizes[t]:
                dealt[byes + t].append(next(rest))
    return dealt


def _knockout(
    round_no: int, entrants: Sequence[Entrant], history: Sequence[Sequence[Game]], seats: int, least: int
) -> list[Table]:
    """The knockout's round: round 1 from the seeding, later ones by playing the bracket through history."""
    if round_no == 1 or not history:
        seeded = sorted((e for e in entrants if _plays(e, 1)), key=lambda e: (-e.rating, e.key))
        if len(seeded) < 2:
            return []
        groups = _first_round([e.key for e in seeded], seats, least)
        return [tuple(g) for g in groups if len(g) > 1] + [tuple(g) for g in groups if len(g) == 1]
    # Round 1 as pair gave it: tables by best seed, then the byes (the top seeds) by seed.
    first = [g.players for g in history[0] if g.bye] + [g.players for g in history[0] if not g.bye]
    seed: dict[str, tuple[int, int]] = {}
    for number, group in enumerate(first, start=1):
        for tier, player in enumerate(group):
            seed[player] = (tier, number if tier % 2 == 0 else -number)
    entrant = {e.key: e for e in entrants}
    slots = [_winner(list(first[s - 1]), history[0], seed) for s in _bracket(len(first), seats)]
    for at in range(2, round_no + 1):
        if len(slots) < 2:
            return []
        tables = []
        for start in range(0, len(slots), seats):
            able = [
                p
                for p in slots[start : start + seats]
                if p is not None and p in entrant and _plays(entrant[p], at)
            ]
            able.sort(key=seed.__getitem__)
            tables.append(able if len(able) >= least else able[:1])
        if at == round_no:
            if sum(len(t) for t in tables) < 2:
                return []
            return [tuple(t) for t in tables if len(t) > 1] + [tuple(t) for t in tables if len(t) == 1]
        slots = [_winner(t, history[at - 1], seed) for t in tables]
    raise AssertionError("the loop returns at round_no")


def _winner(table: list[str], round_: Sequence[Game], seed: dict[str, tuple[int, int]]) -> str | None:
    """Who went through this table in that round: as its game says, or its best seed without a game."""
    game = next((g for g in round_ if table and table[0] in g.players), None)
    went = through(game) if game else None
    return went if went in table else (min(table, key=seed.__getitem__) if table else None)
