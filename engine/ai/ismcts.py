"""Single-observer information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012).

Each iteration deals a world the searching seat cannot tell from the real one (`determinize`), walks the
one tree down it by UCT over the moves (a child's availability counts the iterations in which its move
was legal, so moves that exist only in some worlds are judged fairly), expands one move, plays a few
random moves, scores the position with the game's evaluation and backs up every seat's share. A node's
statistics are from the view of the seat that moved into it, so the search works at 2-6 seats; pending
decisions and simultaneous choices are nodes like any other (the first seat in to_act moves; at the root,
the searching seat).

The root's moves start with PRIOR visits at their one-ply evaluation in one world (the normal level's
view of them): the search begins from the normal level's order and leaves it only when its own visits say
so, and iterations go to the moves that order favours rather than to every move alike. With PRIOR_DEEP
every node's moves are ordered so on its second visit (progressive bias down the decision stack: the rest
of a turn and the replies are searched from their one-ply order, not from random moves), and a move only
the prior has judged is judged again, in the iteration's own world, before the search goes below it.

The game tunes its search in its heuristics module: ROLLOUT_DEPTH and EXPLORATION (an evaluation that
already looks ahead wants no rollout, and its small differences between moves want little exploration;
otherwise 4 moves and 0.7), PRIOR (else 20), PRIOR_DEEP (else the root only) and SEARCH_BUDGET, a factor
on the iterations for a game whose moves are cheap to search. A game that offers `apply_legal` (TableGame)
has the moves the search takes from its own legal list applied without a second legality check.

Reproducible: for a fixed seed and iteration budget the result is always the same. A time budget stops
early (and is then not reproducible); give both to bound the time of a slow position.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

from engine.ai.evaluation import heuristics, values
from engine.core import Action, Game, PlayerId
from engine.rng import Rng

DEPTH, EXPLORATION, PRIOR = 4, 0.7, 20  # a game's defaults unless its heuristics module sets its own


@dataclass(slots=True)
class Node:
    """Statistics of one move (the key that led here) from the view of the seat that made it."""

    player: PlayerId
    visits: int = 0
    avail: int = 1
    reward: float = 0.0
    prior: int = 0  # visits that are the one-ply evaluation's, not the search's
    children: dict[Action, Node] = field(default_factory=dict)  # by the move (hashed faster than its key)


@dataclass(frozen=True, slots=True)
class MoveStat:
    """One root move: how often the search tried it and the searching seat's mean share after it."""

    key: str
    visits: int
    mean: float


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The move chosen (the most visited) and every root move's statistics, best first."""

    action: Action
    stats: tuple[MoveStat, ...]
    iterations: int


class Ismcts:
    """The search with its budget; `search` gives the statistics, `choose` just the move (a Player)."""

    def __init__(
        self,
        seed: int = 0,
        iterations: int = 500,
        max_time: float | None = None,
        rollout_depth: int | None = None,
        exploration: float | None = None,
        prior: int | None = None,
    ) -> None:
        self.seed = seed
        self.iterations = iterations
        self.max_time = max_time
        self.rollout_depth = rollout_depth
        self.exploration = exploration
        self.prior = prior

    def choose(self, game: Game[Any], state: Any, player: PlayerId) -> Action:
        """The move the search picks for this seat (a single legal move is played without search)."""
        legal = game.legal_actions(state, player)
        if len(legal) == 1:
            return legal[0]
        return self.search(game, state, player).action

    def search(self, game: Game[Any], state: Any, seat: PlayerId) -> SearchResult:
        """Search from what `seat` can see of state (state itself is never modified nor read beyond that)."""
        legal = game.legal_actions(state, seat)
        if not legal:
            raise ValueError(f"seat {seat} has no legal action")
        base = state  # determinize depends only on what the seat sees (TableGame sorts before it shuffles)
        rng = Rng(self.seed)
        root = Node(player=seat)
        deadline = None if self.max_time is None else time.perf_counter() + self.max_time
        tuning = heuristics(game)
        c = getattr(tuning, "EXPLORATION", EXPLORATION) if self.exploration is None else self.exploration
        depth = getattr(tuning, "ROLLOUT_DEPTH", DEPTH) if self.rollout_depth is None else self.rollout_depth
        prior = getattr(tuning, "PRIOR", PRIOR) if self.prior is None else self.prior
        iterations = round(self.iterations * getattr(tuning, "SEARCH_BUDGET", 1))
        deep = prior > 0 and getattr(tuning, "PRIOR_DEEP", False)
        play = getattr(game, "apply_legal", game.apply)
        if prior > 0:
            self._seed(game, game.determinize(base, seat, rng.next64()), seat, root, prior)
        done = 0
        for it in range(iterations):
            if deadline is not None and it and time.perf_counter() > deadline:
                break
            world = game.determinize(base, seat, rng.next64())
            path = [root]
            node = root
            mover = seat  # the root is the searching seat's decision, even among several to act
            while True:
                if deep and node is not root and not node.children:  # its second visit: order its moves
                    self._seed(game, world, mover, node, prior)
                moves = game.legal_actions(world, mover)
                untried = []
                best, best_score = None, -1.0
                for a in moves:
                    child = node.children.get(a)
                    if child is None:
                        untried.append(a)
                        continue
                    child.avail += 1
                    if not untried:
                        explore = c * math.sqrt(math.log(child.avail) / child.visits)
                        score = child.reward / child.visits + explore
                        if score > best_score:
                            best, best_score = (a, child), score
                if untried:
                    a = untried[rng.below(len(untried))]
                    child = node.children[a] = Node(player=mover)
                    play(world, a)
                    path.append(child)
                    break
                assert best is not None
                a, node = best
                play(world, a)
                path.append(node)
                if deep and node.visits == node.prior:  # a move only the prior has judged: judge it now
                    break
                to_act = game.to_act(world)
                if not to_act:
                    break
                mover = to_act[0]
            for _ in range(depth):
                to_act = game.to_act(world)
                if not to_act:
                    break
                options = game.legal_actions(world, to_act[0])
                play(world, options[rng.below(len(options))])
            shares = values(game, world)
            for n in path:
                n.visits += 1
                n.reward += shares[n.player]
            done += 1
        stats = sorted(
            (
                MoveStat(a.key, n.visits - n.prior, n.reward / max(1, n.visits))
                for a, n in root.children.items()
            ),
            key=lambda m: (-m.visits, -m.mean, m.key),
        )
        by_key = {a.key: a for a in legal}
        # The most visited move that is legal in the real position (a world's own moves are the seat's own).
        choice = next((by_key[m.key] for m in stats if m.key in by_key), legal[0])
        return SearchResult(choice, tuple(stats), done)

    @staticmethod
    def _seed(game: Game[Any], world: Any, seat: PlayerId, node: Node, prior: int) -> None:
        """Give each move of this seat at this node `prior` visits at its one-ply evaluation in this world
        (what the normal level weighs): the search starts from that order and leaves it only on evidence."""
        play = getattr(game, "apply_legal", game.apply)
        data = game.to_json(world)
        for a in game.legal_actions(world, seat):
            trial = game.from_json(data)
            play(trial, a)
            value = values(game, trial)[seat]
            node.children[a] = Node(seat, visits=prior, avail=prior, reward=prior * value, prior=prior)
