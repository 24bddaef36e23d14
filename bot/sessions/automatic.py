"""Which moves the bot plays for a person without asking them, decided so that it tells nobody anything the
person did not choose to tell (issue 33).

A person's move is played for them only where
- its forcedness is public: they have exactly one legal move, and so they would in every world their
  opponents cannot tell apart from this one (`forced_in_public`, sampled with the game's `determinize`
  from each other seat's view, from a seed of the position, so the answer never depends on the true hidden
  cards: `determinize` deals the unseen cards from a sorted pool); or
- their setting says so, a choice they made knowing what it tells (bot.sessions.types): in a response
  window, *pass every window*, or *pass for me when I can't respond* and passing is all they can do; outside
  a window, a decision whose only move is a pass, under either of those two settings. *Ask me* waits.
A lone move never goes before an undo the person may still take (their last move stays theirs to take back).
Everything else waits for the person, on the same schedule whatever they hold; the board pings whoever the
bot waits on, so who is pinged is decided by the same rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.sessions.types import ALL, AUTO, BY_SETTING, FORCED
from engine.core import Action, PlayerId
from engine.table.decisions import PASS

WORLDS = 12  # worlds sampled from each other seat's view to decide that a lone move is public


def position_seed(seed: int, state_id: int, seat: int) -> int:
    """A reproducible seed for one decision about a seat at a position (an AI's move, a lone move's check):
    the same after a crash or a restart."""
    return (seed * 1_000_003 + state_id * 7919 + seat) & ((1 << 63) - 1)


def forced_in_public(game: Any, state: Any, seat: PlayerId, players: int, seed: int) -> bool:
    """Whether `seat` has one legal move here and in every sampled world another seat cannot tell apart
    from this one: playing it for them then tells nobody anything."""
    if len(game.legal_actions(state, seat)) != 1:
        return False
    for observer in range(players):
        if observer == seat:
            continue
        for k in range(WORLDS):
            world = game.determinize(state, observer, (seed * 31 + observer * 1009 + k) & ((1 << 62) - 1))
            if len(game.legal_actions(world, seat)) != 1:
                return False
    return True


def played_for_them(
    game: Any,
    state: Any,
    seat: PlayerId,
    *,
    players: int,
    seed: int,
    window: bool,
    setting: str,
    can_undo: bool,
    actions: Sequence[Action] | None = None,
) -> tuple[str, str] | None:
    """The move the bot plays for the person in `seat` now, as (action key, why: BY_SETTING or FORCED), or
    None when the bot waits for them (see the module doc); actions: the seat's legal actions here, if
    known."""
    actions = game.legal_actions(state, seat) if actions is None else actions
    passing = next((a for a in actions if a.kind == PASS), None)
    if window:
        if passing is not None and (setting == ALL or (setting == AUTO and len(actions) == 1)):
            return passing.key, BY_SETTING
        return None
    if len(actions) != 1 or can_undo:
        return None
    if forced_in_public(game, state, seat, players, seed):
        return actions[0].key, FORCED
    if passing is not None and setting in (AUTO, ALL):
        return passing.key, BY_SETTING
    return None
