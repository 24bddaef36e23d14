"""Each person's window setting, applied by the session manager (issue 22): *ask me* waits in every window
whatever the hand, *pass for me when I can't respond* (the default) passes a window in which passing is all a
person can do, *pass every window* passes them all; a lone move that only continues play is played for its
person; every such move is said in the events, survives a restart, and the engine never reads a setting.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from bot.sessions import SessionEvent, SessionManager
from bot.sessions.cache import Live
from bot.sessions.hooks import Hooks, Policy, always
from bot.sessions.types import ALL, ASK, AUTO, BY_SETTING, FORCED, WINDOW_SETTINGS
from bot.store import ACTIVE, SqliteStore
from engine.match import Match
from engine.registry import get as get_game
from engine.table.decisions import PASS

ANN, BO = 101, 102
CARD_GAMES = ("ophelia", "siege_of_olympus", "ophidian")


async def _game(sessions: SessionManager, game_id: str, seed: int = 3) -> int:
    """A started two-person match of this game (Ann and Bo)."""
    info = await sessions.create(None, 900, game_id, ANN, seed=seed, origin="console")
    await sessions.join(info.id, BO)
    await sessions.start(info.id, ANN)
    return info.id


def _with_setting(setting: str) -> Hooks:
    """A front end where everyone has this window setting."""
    return Hooks(policy=always(Policy(default_window=setting)))


async def _play_randomly(
    sessions: SessionManager, mid: int, seed: int, limit: int = 400
) -> tuple[list[int], list[SessionEvent]]:
    """People choose random legal moves until the game ends (or `limit` moves); the number of legal moves
    of every person the bot waited on in a response window, and the events of moves played for people."""
    rng = random.Random(seed)
    waited: list[int] = []
    played_for: list[SessionEvent] = []
    sessions.subscribe(lambda e: played_for.append(e) if e.auto else None)
    for _ in range(limit):
        await sessions.wait_idle(mid)
        info = await sessions.get(mid)
        if info.status != ACTIVE:
            break
        user = info.users_to_act[0]
        moves = await sessions.moves_for(mid, user)
        if info.window:
            waited.append(len(moves))
        await sessions.submit(mid, user, rng.choice(moves).key, info.state_id)
    return waited, played_for


@pytest.mark.parametrize("game_id", CARD_GAMES)
@pytest.mark.parametrize("setting", WINDOW_SETTINGS)
async def test_a_whole_game_under_each_setting(tmp_path: Path, game_id: str, setting: str) -> None:
    """ask: the bot waits in windows where passing is all a person can do, and passes none by the setting;
    auto: it never waits on a person who can only pass; all: it never waits on a person in a window."""
    store = SqliteStore(str(tmp_path / "w.db"))
    await store.open()
    sessions = SessionManager(store, hooks=_with_setting(setting))
    try:
        mid = await _game(sessions, game_id)
        waited, played_for = await _play_randomly(sessions, mid, seed=len(game_id))
        by_setting = [e for e in played_for if e.auto == BY_SETTING]
        assert all(e.events[0].kind == "played_for" and e.action_key for e in played_for)
        if setting == ASK:
            assert not by_setting and 1 in waited  # a window with only the pass still waits
        elif setting == AUTO:
            assert by_setting and waited and min(waited) > 1
        else:
            assert by_setting and not waited
        assert all(e.info.seats[e.seat].user_id == e.user for e in played_for if e.seat is not None)
    finally:
        await sessions.close()
        await store.close()


def _window_positions(game_id: str, seed: int, want: int = 6) -> list[Match]:
    """Positions of a random game where a window waits on a seat (a Match around each state)."""
    game = get_game(game_id)
    rng = random.Random(seed)
    m = Match.new(game_id, 2, seed)
    found: list[Match] = []
    for _ in range(600):
        to_act = game.to_act(m.state)
        if not to_act or len(found) >= want:
            break
        seat = to_act[0]
        actions = game.legal_actions(m.state, seat)
        if any(a.kind == PASS for a in actions) and _is_window(m):
            found.append(m.replay(game_id, 2, seed, {}, list(m.log)))
        m.apply(rng.choice(actions))
    return found


def _is_window(m: Match) -> bool:
    from engine.table.present import of

    return bool(of(m.game).status(m.game.view(m.state, None), ["Ann", "Bo"]).window)


@pytest.mark.parametrize("game_id", CARD_GAMES)
async def test_ask_me_keeps_the_schedule_whatever_the_hand(tmp_path: Path, game_id: str) -> None:
    """Two deals that differ only in what the window's player holds (resampled by determinize for the
    other seat): with *ask me* the bot waits in both; with *pass for me* it passes exactly where passing is
    all the hand allows; with *pass every window* it passes both."""
    store = SqliteStore(str(tmp_path / "h.db"))
    await store.open()
    sessions = SessionManager(store)
    try:
        mid = await _game(sessions, game_id)
        record = (await sessions._live(mid)).record
        game = get_game(game_id)
        outcomes: dict[str, set[tuple[bool, bool]]] = {s: set() for s in WINDOW_SETTINGS}
        for position in _window_positions(game_id, seed=11):
            seat = position.to_act()[0]
            for k in range(8):
                state = game.determinize(position.state, 1 - seat, k)  # the other seat's guess at the hand
                variant = replace(position, state=state)
                only_pass = [a.kind for a in game.legal_actions(state, seat)] == [PASS]
                live = Live(replace(record, state_id=variant.state_id), variant)
                for setting in WINDOW_SETTINGS:
                    todo = sessions._automatic(live, Policy(default_window=setting))
                    passed = todo is not None and todo[2] == BY_SETTING
                    outcomes[setting].add((only_pass, passed))
        assert outcomes[ASK] and all(not passed for _, passed in outcomes[ASK])
        assert all(passed == only for only, passed in outcomes[AUTO])
        assert all(passed for _, passed in outcomes[ALL])
    finally:
        await sessions.close()
        await store.close()


async def test_a_lone_move_is_played_unless_undo_is_still_yours(tmp_path: Path) -> None:
    """A choice with exactly one legal answer outside a window is played for its person and said; one that
    follows their own move, which they could still take back, waits (so that undo stays theirs)."""
    store = SqliteStore(str(tmp_path / "f.db"))
    await store.open()
    sessions = SessionManager(store)
    try:
        mid = await _game(sessions, "ophidian", seed=5)
        _, played_for = await _play_randomly(sessions, mid, seed=2, limit=150)
        forced = [e for e in played_for if e.auto == FORCED]
        assert forced and all("had one possible move" in e.events[0].text for e in forced)
        live = await sessions._live(mid)
        m = live.match
        assert m is not None
        for seat in m.to_act():
            lone = len(m.game.legal_actions(m.state, seat)) == 1
            assert not lone or m.can_undo(seat) or live.record.seats[seat].is_ai or _is_window(m)
    finally:
        await sessions.close()
        await store.close()


async def test_a_pass_due_before_a_crash_is_played_at_recovery(tmp_path: Path) -> None:
    """A window the setting passes, still open when the process stopped (the move committed, the pass not
    yet played), is passed at start-up: the position is stored as waiting on the bot."""
    db = str(tmp_path / "r.db")
    store = SqliteStore(db)
    await store.open()
    sessions = SessionManager(store, hooks=_with_setting(ALL))
    mid = await _game(sessions, "siege_of_olympus")
    sessions._kick_ai = lambda match_id: None  # type: ignore[method-assign]  # the process "dies" first
    rng = random.Random(4)
    for _ in range(300):  # until a window waits on someone
        info = await sessions.get(mid)
        if info.window:
            break
        user = info.users_to_act[0]
        await sessions.submit(mid, user, rng.choice(await sessions.moves_for(mid, user)).key, info.state_id)
    assert info.window
    await sessions.close()
    await store.close()

    store = SqliteStore(db)
    await store.open()
    sessions = SessionManager(store, hooks=_with_setting(ALL))
    try:
        assert await sessions.recover() == 1
        await sessions.wait_idle(mid)
        after = await sessions.get(mid)
        rows = await store.load_log(mid)
        assert after.state_id > info.state_id and rows[info.state_id].key.startswith(PASS)
        assert not after.window
    finally:
        await sessions.close()
        await store.close()
