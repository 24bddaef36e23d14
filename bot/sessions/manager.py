"""`SessionManager`: the parts of the session manager put together."""

from __future__ import annotations

from bot.sessions.ai import AiSeats
from bot.sessions.decks import Decks
from bot.sessions.lobby import Lobby
from bot.sessions.play import Play
from bot.sessions.repair import Repair


class SessionManager(Lobby, Play, AiSeats, Repair, Decks):
    """Creates, plays, saves and resumes matches for any number of front ends.

    SessionManager(store, *, cache_size=1000, ai_delay=0.0, ai_concurrency=4, turn_seconds=None,
    clock=time.time, ai_pool=None, hooks=NO_HOOKS); without ai_pool, a pool.AiPool of worker processes is
    made (and closed with the manager). hooks: what the front end decides (hooks.py), given here, never
    assigned later. The parts share what base.SessionBase holds (subscribe, claim, set_deadline, and _play,
    the one path every move takes):

        lobby.py   create, join, pick, pick_deck, add_ai, leave, start, abandon, vote_abandon, forfeit,
                   skip_turn
        decks.py   save_deck, decks, deck, delete_deck: people's saved decks, for games with a deck builder
        play.py    submit, undo, get, peek, match_for_channel, view_for, moves_for, can_undo, snapshot (a
                   person's whole picture under one lock), table_snapshot (the board's), fresh,
                   list_matches, overdue
        ai.py      recover, resume_ai, settled, wait_idle, hint, close, and the AI task of each match
        pool.py    the worker processes AI decisions and hints think in
        repair.py  loading a match (_live): from its snapshot, rebuilt from its log, or marked broken
        cache.py   the bounded LRU of live matches and the per-match locks
    """
