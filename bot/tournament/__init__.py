"""Tournaments' pure logic: how many rounds, each round's tables, the standings and when it is over.

No I/O: the store keeps the tournament, its players (Entrant) and each round's tables (Game); the Discord
front end opens the tables as games and shows the standings. The formats:
- Swiss: a set number of rounds; players meet others on the same score (by score, then rating), never twice
  while that can be helped; with an odd count the lowest-ranked without a bye has one. Ties broken by
  Buchholz, then Sonneborn-Berger (tables of more than two: their generalisations by table averages).
- Round robin: everyone meets everyone once (two seats; the circle method), or for more seats a set number
  of rounds that spread who meets whom.
- Knockout: a seeded bracket; the largest share at a table goes through (a shared win: the better seed);
  the top seeds have byes when the count is not a power of the seats.
A game scores each seat its share of the win, a bye BYE_POINTS (as a win). Drop-outs are not paired from
their `dropped` round on; their games so far still count. bot/tournament/pairing.py and standings.py state
the rules in full.
"""

from bot.tournament.pairing import over, pair, rounds_of, table_sizes
from bot.tournament.standings import (
    BYE_POINTS,
    FORMATS,
    KNOCKOUT,
    ROUND_ROBIN,
    SWISS,
    Entrant,
    Game,
    Standing,
    standings,
    tiebreak_names,
)

__all__ = [
    "BYE_POINTS",
    "FORMATS",
    "KNOCKOUT",
    "ROUND_ROBIN",
    "SWISS",
    "Entrant",
    "Game",
    "Standing",
    "over",
    "pair",
    "rounds_of",
    "standings",
    "table_sizes",
    "tiebreak_names",
]
