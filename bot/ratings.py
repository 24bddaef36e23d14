"""Skill ratings: openskill's Weng-Lin Plackett-Luce model, with its defaults, over finished games' results.

Pure (no I/O): the store calls `rate` in the transaction that records a game's results, once per scope, and
a rebuild calls it again over every stored result in finish order, so both give the same numbers.

What is rated, and how:
- A player is a person, by user id (the player key is the id as text), or an AI level, as a player of its
  own ("ai:hard": one rating per level, per game and scope), so "beat the hard AI" means something.
- Ranks come from the shares of the win: a higher share ranks better, equal shares tie (a shared win is a
  tie between the winners, a forfeit a loss for the forfeiter). A seat an AI took over from someone stays
  that person's (the results record it with share 0) and ranks below every seat played to the end: they
  left, so they lost, even when nobody else scored. The AI that finished their seat is not rated for it.
- Several seats of one player in one game (two "hard" AIs at one table): each seat is rated as a player of
  its own starting from that player's rating, then the rating moves by the mean of its seats' changes (in
  mu and in sigma). The game counts once for the player, as a win if any of its seats won.
- A casual table (the match option TABLE, chosen in the lobby) is not rated; its results still count in
  stats.
- A game with fewer than two players (one person against their own seats, AIs of one level alone) is
  unrated; an abandoned game records no results, so it is unrated too.
- Scopes: each server (its guild id) and all servers together (ALL_SERVERS). Console games (no guild) are
  unrated: their players are names at one terminal, not Discord accounts.
- People see the conservative `ordinal` (mu - 3 sigma): 0 before the first game, rising as they play and
  win, so a lucky newcomer does not top a leaderboard.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
ALL_SERVERS = 0  # the scope of ratings across every server
MIN_GAMES = 5  # rated games before a player is ranked on a leaderboard
TREND_GAMES = 10  # /stats shows how the rating moved over this many last games
AI_PREFIX = "ai:"
TABLE = "table"  # a match option: RANKED (rated; no hints) or CASUAL (not rated; hints allowed)
RANKED, CASUAL = "ranked", "casual"


def is_ranked(options: Mapping[str, object]) -> bool:
    """Whether a match's table is ranked (its result moves ratings): any table not chosen casual, so games
    dealt before tables had a kind stay ranked."""
    return options.get(TABLE) != CASUAL


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating people see: openskill's ordinal with its defaults (mu - 3 sigma)."""
    return mu - 3.0 * sigma


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's skill estimate in one game and scope, with the rated games and wins behind it."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0
    wins: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative rating shown to people."""
        return ordinal(self.mu, self.sigma)


@dataclass(frozen=True, slots=True)
class Outcome:
    """One seat of a finished game, as the results table records it."""

    seat: int
    user_id: int | None
    ai: str | None
    share: float

    @property
    def player(self) -> str | None:
        """Who is rated for this seat (None: nobody)."""
        return player_of(self.user_id, self.ai)

    @property
    def handed_over(self) -> bool:
        """Whether an AI finished this seat for the person who left it."""
        return self.user_id is not None and self.ai is not None


@dataclass(frozen=True, slots=True)
class Change:
    """How one game moved one player's rating."""

    player: str
    before: Rating
    after: Rating

    @property
    def first(self) -> bool:
        """Whether this was the player's first rated game (in this game and scope)."""
        return self.before.games == 0


def player_of(user_id: int | None, ai: str | None) -> str | None:
    """The rated player of a seat: the person (also when an AI took the seat over), else the AI level."""
    if user_id is not None:
        return str(user_id)
    return f"{AI_PREFIX}{ai}" if ai else None


def person_of(player: str) -> int | None:
    """The user id of a person's player key; None for an AI level."""
    return None if player.startswith(AI_PREFIX) else int(player)


def label(player: str) -> str:
    """A player as Discord shows it: a mention for a person, "AI · hard" for an AI level."""
    person = person_of(player)
    return f"<@{person}>" if person is not None else f"AI · {player.removeprefix(AI_PREFIX)}"


def ranks(outcomes: Sequence[Outcome]) -> list[int]:
    """Each seat's place, 1 the best: higher share first, equal shares tie, a seat handed over last."""
    keys = [(o.share, not o.handed_over) for o in outcomes]
    return [1 + sum(other > mine for other in keys) for mine in keys]


def rate(outcomes: Sequence[Outcome], current: Mapping[str, Rating]) -> list[Change]:
    """The rating changes one finished game makes, by player key ([] for an unrated game).

    `current` holds the players' ratings before the game (a player missing from it starts afresh).
    """
    seats = [o for o in outcomes if o.player is not None]
    players = sorted({o.player for o in seats if o.player is not None})
    if len(players) < 2:
        return []
    before = {p: current.get(p, Rating()) for p in players}
    teams = [[MODEL.rating(mu=before[str(o.player)].mu, sigma=before[str(o.player)].sigma)] for o in seats]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks(seats)])
    changes = []
    for p in players:
        mine = [(o, team[0]) for o, team in zip(seats, rated, strict=True) if o.player == p]
        old = before[p]
        if len(mine) == 1:
            mu, sigma = mine[0][1].mu, mine[0][1].sigma
        else:
            mu = old.mu + sum(r.mu - old.mu for _, r in mine) / len(mine)
            sigma = old.sigma + sum(r.sigma - old.sigma for _, r in mine) / len(mine)
        won = any(o.share > 0 for o, _ in mine)
        changes.append(Change(p, old, Rating(mu, sigma, old.games + 1, old.wins + int(won))))
    return changes


# --- words -----------------------------------------------------------------------------------------------
def shown(value: float) -> str:
    """A rating as people read it: one decimal (never "-0.0")."""
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def _signed(before: float, after: float) -> str:
    """The change between two shown ratings, from the rounded values so the sum reads right: "+1.8"."""
    delta = float(shown(after)) - float(shown(before))
    return f"{'+' if delta >= 0 else '-'}{shown(abs(delta))}"


def change_text(change: Change) -> str:
    """A game's change for the result: "14.2 → 16.0 (+1.8)", or "3.4 (first rated game)"."""
    before, after = change.before.ordinal, change.after.ordinal
    if change.first:
        return f"{shown(after)} (first rated game)"
    return f"{shown(before)} → {shown(after)} ({_signed(before, after)})"


def trend_text(before: float, after: float, games: int) -> str:
    """How a rating moved over the last games: "▲ 2.1 over the last 10 games" ("▼", "=" when flat)."""
    delta = float(shown(after)) - float(shown(before))
    arrow = "▲" if delta > 0 else "▼" if delta < 0 else "="
    span = "the last game" if games == 1 else f"the last {games} games"
    return f"{arrow} {shown(abs(delta))} over {span}"
