"""A tournament's games and standings: what a round's tables record, and everyone's points and tiebreaks.

Pure (no I/O). The rules:
- A game scores each seat its share of the win (the shares sum to 1: a win 1, a draw of two 0.5 each); a bye
  scores BYE_POINTS, as a win. An unfinished game (no shares yet) counts nothing.
- A win is a game where the player's share is the largest at the table; a shared win counts for each winner,
  but a table where everyone's share is alike is a draw, nobody's win (else every drawn game of two would be
  two wins).
- Swiss and round robin rank by points, then the tiebreaks, then rating (and key: the order is total; the
  rank is shared while points and tiebreaks are equal). With two seats the tiebreaks are Buchholz (the sum of
  the opponents' points; a bye adds 0) then Sonneborn-Berger (the sum over games of one's share times the
  opponent's points). With more seats the game's own tiebreak is not known here (a game reports only shares),
  so both generalise and are named for what they are: per table the opponents' points averaged, summed
  ("Opponents' average"), and one's share times that average, summed ("Shares × opponents' average"); with
  two seats they are exactly Buchholz and Sonneborn-Berger.
- Knockout ranks whoever is still in the bracket first, then by the round reached (the last round one was
  paired in, a bye included), then points, then rating; players out in the same round with equal points
  share a rank. The one who goes through a table is the largest share; a shared win goes to the better seed,
  who sits in the earlier seat (bot/tournament/pairing.py seats knockout tables in seeding order).
- A drop-out is listed (marked by the round they dropped) and ranked like anyone; their games still count,
  for them and for their opponents' tiebreaks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

SWISS, ROUND_ROBIN, KNOCKOUT = "swiss", "round_robin", "knockout"
FORMATS = (SWISS, ROUND_ROBIN, KNOCKOUT)
BYE_POINTS = 1.0  # a bye scores as a win
DIGITS = 9  # points are sums of shares (thirds, halves): compared rounded to this many digits


@dataclass(frozen=True, slots=True)
class Game:
    """One table of a round, as played: its players in seat order (one player: a bye) and each seat's share
    of the win (None while unfinished; a bye: (BYE_POINTS,))."""

    players: tuple[str, ...]
    points: tuple[float, ...] | None

    @property
    def bye(self) -> bool:
        """Whether this table is a bye (one player)."""
        return len(self.players) == 1


@dataclass(frozen=True, slots=True)
class Entrant:
    """A tournament's player: their key (a user id as text, or "ai:<level>:<n>"), their rating in the game
    (seeding: higher is better; ties broken by key) and the first round they are not paired in, if dropped."""

    key: str
    rating: float
    dropped: int | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line in the standings; tiebreaks in the order of tiebreak_names(format, seats)."""

    rank: int
    key: str
    points: float
    tiebreaks: tuple[float, ...]
    played: int
    wins: int
    byes: int
    dropped: int | None
    alive: bool


def check_format(format: str) -> None:
    """Refuse a format that is not one of FORMATS."""
    if format not in FORMATS:
        raise ValueError(f"unknown tournament format {format!r}")


def shares(game: Game) -> tuple[float, ...] | None:
    """Each seat's points from this game: a bye BYE_POINTS, an unfinished game None."""
    return (BYE_POINTS,) if game.bye else game.points


def points_of(history: Sequence[Sequence[Game]]) -> dict[str, float]:
    """Everyone's points over the finished games and byes of these rounds."""
    total: dict[str, float] = {}
    for game in (g for round_ in history for g in round_):
        for player, share in zip(game.players, shares(game) or (), strict=False):
            total[player] = total.get(player, 0.0) + share
    return total


def met_counts(history: Sequence[Sequence[Game]]) -> Counter[frozenset[str]]:
    """How often each pair of players sat at one table (finished or not)."""
    met: Counter[frozenset[str]] = Counter()
    for game in (g for round_ in history for g in round_):
        for i, a in enumerate(game.players):
            met.update(frozenset((a, b)) for b in game.players[i + 1 :] if b != a)
    return met


def bye_counts(history: Sequence[Sequence[Game]]) -> Counter[str]:
    """How many byes each player had."""
    return Counter(g.players[0] for round_ in history for g in round_ if g.bye)


def first_seats(history: Sequence[Sequence[Game]]) -> Counter[str]:
    """How often each player sat first (seat 0) at a table of more than one."""
    return Counter(g.players[0] for round_ in history for g in round_ if not g.bye)


def winners(game: Game) -> tuple[str, ...]:
    """The players with the largest share at a finished table; none for a bye, an unfinished game or a
    table where every share is alike (a draw)."""
    if game.bye or game.points is None or len(set(game.points)) <= 1:
        return ()
    best = max(game.points)
    return tuple(p for p, share in zip(game.players, game.points, strict=False) if share == best)


def through(game: Game) -> str | None:
    """Knockout: who goes through this table: the bye's player, else the largest share, a tie to the earlier
    seat (the better seed); None while unfinished."""
    if game.bye:
        return game.players[0]
    if game.points is None:
        return None
    best = max(game.points)
    return next(p for p, share in zip(game.players, game.points, strict=False) if share == best)


def still_in(key: str, history: Sequence[Sequence[Game]]) -> bool:
    """Knockout: whether a player is still in the bracket after these rounds (drop-outs aside): paired in
    the last round and through it, or its game unfinished. Before round 1 everyone is in."""
    if not history:
        return True
    game = next((g for g in history[-1] if key in g.players), None)
    return game is not None and ((game.points is None and not game.bye) or through(game) == key)


def tiebreak_names(format: str, seats: int) -> tuple[str, ...]:
    """The names of the tiebreak columns, e.g. ("Buchholz", "Sonneborn-Berger")."""
    check_format(format)
    if format == KNOCKOUT:
        return ("Round reached",)
    if seats == 2:
        return ("Buchholz", "Sonneborn-Berger")
    return ("Opponents' average", "Shares × opponents' average")


@dataclass(slots=True)
class _Tally:
    played: int = 0
    wins: int = 0
    byes: int = 0
    reached: int = 0
    opponents: float = 0.0  # Buchholz, generalised
    weighted: float = 0.0  # Sonneborn-Berger, generalised


def _tallies(history: Sequence[Sequence[Game]], points: dict[str, float]) -> dict[str, _Tally]:
    tallies: dict[str, _Tally] = {}
    for round_no, round_ in enumerate(history, start=1):
        for game in round_:
            for player in game.players:
                tallies.setdefault(player, _Tally()).reached = round_no
            if game.bye:
                tallies[game.players[0]].byes += 1
                continue
            if game.points is None:
                continue
            won = winners(game)
            for player, share in zip(game.players, game.points, strict=False):
                others = [points.get(o, 0.0) for o in game.players if o != player]
                average = sum(others) / len(others) if others else 0.0
                tally = tallies[player]
                tally.played += 1
                tally.wins += player in won
                tally.opponents += average
                tally.weighted += share * average
    return tallies


def standings(
    format: str, entrants: Sequence[Entrant], history: Sequence[Sequence[Game]], seats: int
) -> list[Standing]:
    """Everyone (dropped too, marked) by points then tiebreaks then rating; unfinished games count nothing.
    Knockout: whoever is still in first, then the round reached, then points, then rating."""
    check_format(format)
    points = points_of(history)
    tallies = _tallies(history, points)
    rows: list[tuple[tuple[float, ...], Entrant, Standing]] = []
    for entrant in entrants:
        tally = tallies.get(entrant.key, _Tally())
        own = round(points.get(entrant.key, 0.0), DIGITS)
        if format == KNOCKOUT:
            alive = entrant.dropped is None and still_in(entrant.key, history)
            tiebreaks: tuple[float, ...] = (float(tally.reached),)
            order: tuple[float, ...] = (-alive, -tally.reached, -own)
        else:
            alive = entrant.dropped is None
            tiebreaks = (round(tally.opponents, DIGITS), round(tally.weighted, DIGITS))
            order = (-own, *(-t for t in tiebreaks))
        line = Standing(
            0, entrant.key, own, tiebreaks, tally.played, tally.wins, tally.byes, entrant.dropped, alive
        )
        rows.append((order, entrant, line))
    rows.sort(key=lambda row: (row[0], -row[1].rating, row[1].key))
    ranked: list[Standing] = []
    for i, (order, _entrant, line) in enumerate(rows):
        tied = i > 0 and rows[i - 1][0] == order
        rank = ranked[-1].rank if tied else i + 1
        ranked.append(replace(line, rank=rank))
    return ranked
