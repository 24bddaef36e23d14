"""The async session manager: the one place where matches are created, played, saved and resumed.

Front ends (Discord, the console) are thin adapters over `SessionManager`:

    store = SqliteStore("agora.db"); await store.open()
    sessions = SessionManager(store, hooks=Hooks(...))        # the front end's policy (hooks.py), given whole
    await sessions.recover()                                  # resume unfinished games (AI moves too)
    sessions.subscribe(callback)                              # SessionEvent for every change
    info = await sessions.create(channel_id, guild_id, game_id, host_user)
    await sessions.join(info.id, user); await sessions.add_ai(info.id, host_user, "random")
    info = await sessions.start(info.id, host_user)
    moves = await sessions.moves_for(info.id, user)          # [Move(key, path)], from game.describe
    view = await sessions.view_for(info.id, user)            # game.view for the user's seat (or spectator)
    seen = await sessions.snapshot(info.id, user)             # match, moves, view, can_undo: one lock
    result = await sessions.submit(info.id, user, moves[0].key, info.state_id)

Every method that a person triggers raises `SessionError` with a short, polite message on refusal; a
`StaleState` refusal (an out-of-date button) carries the current state_id so the front end can redraw.
One live match per channel, one asyncio lock per match, never held while the front end's hooks are
awaited (their policy is read before it is taken: hooks.py); each action is committed (log row + snapshot +
state_id in one transaction) before `submit` returns. AI seats move by themselves, thinking in worker
processes (pool.py), and go through the same path as a human. A bounded LRU cache holds live matches;
the rest load on demand.

The package, read in this order: types.py (what front ends see), hooks.py (what they tell it), cache.py,
base.py (what the parts share), lobby.py, play.py, pool.py, ai.py, repair.py, manager.py (the parts put
together).
"""

from bot.sessions.hooks import Hooks, Policy
from bot.sessions.manager import SessionManager
from bot.sessions.types import (
    MatchBroken,
    MatchInfo,
    Move,
    SeatSnapshot,
    SeatTakenOver,
    SessionError,
    SessionEvent,
    StaleState,
    SubmitResult,
    Subscriber,
    TableSnapshot,
    UserId,
)

__all__ = [
    "Hooks",
    "MatchBroken",
    "MatchInfo",
    "Move",
    "Policy",
    "SeatSnapshot",
    "SeatTakenOver",
    "SessionError",
    "SessionEvent",
    "SessionManager",
    "StaleState",
    "SubmitResult",
    "Subscriber",
    "TableSnapshot",
    "UserId",
]
