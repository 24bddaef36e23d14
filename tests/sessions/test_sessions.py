"""The session manager: lobbies, moves, refusals, AI seats, undo, caching, recovery and damaged saves."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.sessions import (
    Hooks,
    MatchBroken,
    MatchInfo,
    Policy,
    SessionError,
    SessionEvent,
    SessionManager,
    StaleState,
)
from bot.sessions.types import ASK
from bot.store import ABANDONED, ACTIVE, BROKEN, FINISHED, LOBBY, SqliteStore
from engine.core import Action
from engine.match import Match

ANN, BO, CY = 101, 102, 103


@pytest.fixture
async def store(tmp_path: Path):
    async with SqliteStore(str(tmp_path / "s.db")) as s:
        yield s


@pytest.fixture
async def sessions(store: SqliteStore):
    m = SessionManager(store)
    yield m
    await m.close()


async def _duel(sessions: SessionManager, channel: int = 1, seed: int = 7, ai: int = 0) -> int:
    """An Omphala match Ann vs Bo (plus ai AI seats), started."""
    info = await sessions.create(channel, 900, "omphala", ANN, seed=seed)
    await sessions.join(info.id, BO)
    for _ in range(ai):
        await sessions.add_ai(info.id, ANN)
    await sessions.start(info.id, ANN)
    return info.id


async def _first_move(sessions: SessionManager, match_id: int) -> tuple[int, str, int]:
    """(user, key, state_id) of the first legal move of the first human to act."""
    await sessions.wait_idle(match_id)
    info = await sessions.get(match_id)
    user = info.users_to_act[0]
    return user, (await sessions.moves_for(match_id, user))[0].key, info.state_id


async def _play_out(sessions: SessionManager, match_id: int) -> None:
    """Humans always pick their first move; AIs move by themselves."""
    while (await sessions.get(match_id)).status == ACTIVE:
        await sessions.wait_idle(match_id)
        info = await sessions.get(match_id)
        if info.status == ACTIVE and info.users_to_act:
            user, key, sid = await _first_move(sessions, match_id)
            await sessions.submit(match_id, user, key, sid)


async def _replayed(store: SqliteStore, match_id: int) -> Match:
    rec = await store.get_match(match_id)
    assert rec is not None
    log = [(r.seat, r.key) for r in await store.load_log(match_id)]
    return Match.replay(rec.game_id, len(rec.seats), rec.seed, rec.options, log, rec.state_id)


async def _assert_snapshot_is_replay(store: SqliteStore, match_id: int) -> None:
    rec = await store.get_match(match_id)
    assert rec is not None and rec.snapshot is not None
    m = await _replayed(store, match_id)
    assert json.loads(rec.snapshot) == m.game.to_json(m.state)
    assert rec.state_id == m.state_id and rec.log_len == len(m.log)


async def test_lobby_rules(sessions: SessionManager) -> None:
    info = await sessions.create(1, 900, "omphala", ANN)
    assert info.status == LOBBY and info.seat_of(ANN) == 0
    with pytest.raises(SessionError, match="already has a game"):
        await sessions.create(1, 900, "omphala", BO)
    with pytest.raises(SessionError, match="no game called"):
        await sessions.create(2, 900, "chess", BO)
    with pytest.raises(SessionError, match="needs 2 to 6"):
        await sessions.start(info.id, ANN)
    await sessions.join(info.id, BO)
    with pytest.raises(SessionError, match="already in"):
        await sessions.join(info.id, BO)
    with pytest.raises(SessionError, match="Only the host"):
        await sessions.start(info.id, BO)
    with pytest.raises(SessionError, match="Only the host"):
        await sessions.add_ai(info.id, BO)
    for _ in range(4):
        await sessions.add_ai(info.id, ANN)
    with pytest.raises(SessionError, match="full"):
        await sessions.join(info.id, CY)
    await sessions.leave(info.id, ANN)  # the host leaves: Bo hosts now
    info = await sessions.get(info.id)
    assert info.host_user == BO and info.seat_of(BO) == 0
    info = await sessions.start(info.id, BO)
    assert info.status == ACTIVE and len(info.seats) == 5
    with pytest.raises(SessionError, match="already started"):
        await sessions.join(info.id, CY)
    await sessions.abandon(info.id, BO)
    assert (await sessions.get(info.id)).status == ABANDONED
    restarted = SessionManager(sessions.store)  # an abandoned game can still be looked at after a restart
    assert (await restarted.view_for(info.id, BO))["phase"] == "choose"
    with pytest.raises(SessionError, match="over"):
        await restarted.submit(info.id, BO, "draw", None)
    assert await sessions.match_for_channel(1) is None
    assert (await sessions.create(1, 900, "omphala", CY)).status == LOBBY  # the channel is free again


async def test_full_game_with_humans_and_ai_records_results(
    sessions: SessionManager, store: SqliteStore
) -> None:
    seen: list[SessionEvent] = []
    sessions.subscribe(seen.append)
    mid = await _duel(sessions, ai=2)
    await _play_out(sessions, mid)
    info = await sessions.get(mid)
    assert info.status == FINISHED and info.returns is not None and sum(info.returns) == pytest.approx(1.0)
    kinds = [e.kind for e in seen]
    assert kinds[:5] == ["created", "joined", "ai_added", "ai_added", "started"] and kinds[-1] == "finished"
    assert sum(k == "action" for k in kinds) == info.state_id
    await _assert_snapshot_is_replay(store, mid)
    ann = await store.user_stats(ANN, "omphala")
    assert ann.played == 1 and ann.points == pytest.approx(info.returns[0])
    assert {r.user_id for r in await store.leaderboard("omphala")} == {ANN, BO}
    with pytest.raises(SessionError, match="over"):
        await sessions.submit(mid, ANN, "draw", None)


async def test_moves_come_in_the_games_menu_order(
    sessions: SessionManager, store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """moves_for sorts a seat's moves by the game's presentation (menu_rank of each engine Action and its
    path); moves of equal rank keep the order of legal_actions."""
    mid = await _duel(sessions)
    info = await sessions.get(mid)
    user = info.users_to_act[0]
    seat = info.seat_of(user)
    match = await _replayed(store, mid)
    game = match.game
    rules_order = [a.key for a in game.legal_actions(match.state, seat)]
    assert len(rules_order) >= 3

    class Backwards:  # pairs of moves in reverse order, each pair's two moves of equal rank
        @staticmethod
        def menu_rank(action: Action, path: tuple[str, ...]) -> tuple[int, ...]:
            assert path == tuple(game.describe(match.state, action))
            return (-(rules_order.index(action.key) // 2),)

    monkeypatch.setattr(type(game), "present", Backwards, raising=False)
    keys = [m.key for m in await sessions.moves_for(mid, user)]
    pairs = [rules_order[i : i + 2] for i in range(0, len(rules_order), 2)]
    assert keys == [k for pair in reversed(pairs) for k in pair]


async def test_refusals_are_readable(sessions: SessionManager) -> None:
    mid = await _duel(sessions)
    user, key, sid = await _first_move(sessions, mid)
    with pytest.raises(SessionError, match="not playing in this game"):
        await sessions.submit(mid, CY, key, sid)
    with pytest.raises(StaleState) as stale:
        await sessions.submit(mid, user, key, sid + 5)
    assert stale.value.state_id == sid and "moved on" in str(stale.value)
    with pytest.raises(SessionError, match="not possible"):
        await sessions.submit(mid, user, "fly:to=moon", sid)
    await sessions.submit(mid, user, key, sid)  # choose phase: Ann has chosen
    with pytest.raises(SessionError, match="not your turn"):
        await sessions.submit(mid, user, key, sid + 1)
    with pytest.raises(SessionError, match="no game #"):
        await sessions.submit(999, user, key, sid)
    assert await sessions.moves_for(mid, CY) == []
    view = await sessions.view_for(mid, CY)  # a spectator sees no hand
    assert all(p["hand"] is None for p in view["players"])


async def test_stale_state_id_is_refused_and_nothing_changes(
    sessions: SessionManager, store: SqliteStore
) -> None:
    mid = await _duel(sessions)
    user, key, sid = await _first_move(sessions, mid)
    result = await sessions.submit(mid, user, key, sid)
    assert result.state_id == sid + 1
    with pytest.raises(StaleState):
        await sessions.submit(mid, user, key, sid)  # the same press again: this seat moved since
    assert len(await store.load_log(mid)) == 1
    other = next(u for u in (ANN, BO) if u != user)
    other_key = (await sessions.moves_for(mid, other))[0].key
    # Drawn before the first player's choice, but only another seat moved since, in a simultaneous
    # decision: the menu is still good and the move applies.
    await sessions.submit(mid, other, other_key, sid)
    assert len(await store.load_log(mid)) == 2
    user, key, sid = await _first_move(sessions, mid)
    await sessions.submit(mid, user, key, sid)
    with pytest.raises(StaleState):
        await sessions.submit(mid, user, key, sid)  # a double press in a turn applies once


async def test_same_action_submitted_twice_at_once_applies_once(
    sessions: SessionManager, store: SqliteStore
) -> None:
    mid = await _duel(sessions)
    await _play_until_turns(sessions, mid)
    user, key, sid = await _first_move(sessions, mid)
    outcomes = await asyncio.gather(
        *(sessions.submit(mid, user, key, sid) for _ in range(5)), return_exceptions=True
    )
    assert sum(not isinstance(o, BaseException) for o in outcomes) == 1
    assert all(isinstance(o, StaleState) for o in outcomes if isinstance(o, BaseException))
    log = await store.load_log(mid)
    assert [r.key for r in log].count(key) >= 1 and log[-1].seq == sid + 1 == len(log)


async def _play_until_turns(sessions: SessionManager, match_id: int) -> None:
    """Get past the simultaneous choose phase."""
    for _ in range(2):
        user, key, sid = await _first_move(sessions, match_id)
        await sessions.submit(match_id, user, key, sid)


async def test_undo_in_own_turn(sessions: SessionManager, store: SqliteStore) -> None:
    mid = await _duel(sessions, seed=1)
    await _play_until_turns(sessions, mid)
    info = await sessions.get(mid)
    user = info.users_to_act[0]
    other = BO if user == ANN else ANN
    with pytest.raises(SessionError, match="nothing you can take back"):
        await sessions.undo(mid, user)  # the last move was not theirs (or revealed cards)
    moves = await sessions.moves_for(mid, user)
    quiet = next(m for m in moves if m.key.startswith("enhance"))  # reveals nothing, draws nothing
    before = await sessions.view_for(mid, user)
    await sessions.submit(mid, user, quiet.key, info.state_id)
    assert await sessions.can_undo(mid, user)
    with pytest.raises(SessionError):
        await sessions.undo(mid, other)
    result = await sessions.undo(mid, user)
    assert result.state_id == info.state_id + 2
    after = await sessions.view_for(mid, user)
    assert after["players"] == before["players"] and after["turn"] == before["turn"]
    rows = await store.load_log(mid, include_undone=True)
    assert rows[-1].undone and rows[-1].key == quiet.key
    await _assert_snapshot_is_replay(store, mid)
    # A fresh manager (a restart) loads the same position.
    fresh = SessionManager(store)
    assert (await fresh.view_for(mid, user))["players"] == before["players"]
    await fresh.close()


async def test_ai_moves_by_itself_and_a_leaver_is_replaced(
    sessions: SessionManager, store: SqliteStore
) -> None:
    info = await sessions.create(5, 900, "omphala", ANN, seed=11)
    for _ in range(2):
        await sessions.add_ai(info.id, ANN)
    await sessions.join(info.id, BO)
    await sessions.start(info.id, ANN)
    await sessions.wait_idle(info.id)
    info = await sessions.get(info.id)
    assert set(info.to_act) == {0, 3}  # both AIs have chosen, the humans have not
    await sessions.leave(info.id, BO)
    info = await sessions.get(info.id)
    assert info.seats[3].is_ai and info.seat_of(BO) is None
    await _play_out(sessions, info.id)
    assert (await sessions.get(info.id)).status == FINISHED
    await _assert_snapshot_is_replay(store, info.id)


async def test_recovery_resumes_pending_ai_moves(store: SqliteStore) -> None:
    slow = SessionManager(store, ai_delay=30)  # the AI is "thinking" when the process goes away
    info = await slow.create(None, None, "omphala", ANN, seed=5, seat_host=False)
    for _ in range(3):
        await slow.add_ai(info.id, ANN)
    await slow.start(info.id, ANN)
    await asyncio.sleep(0)
    await slow.close()
    assert await store.matches_awaiting_ai() == [info.id]
    restarted = SessionManager(store)
    assert await restarted.recover() == 1
    await restarted.wait_idle()
    assert (await restarted.get(info.id)).status == FINISHED
    await _assert_snapshot_is_replay(store, info.id)
    await restarted.close()


async def test_cache_is_bounded_and_evicted_matches_load_on_demand(store: SqliteStore) -> None:
    sessions = SessionManager(store, cache_size=2)
    ids = [await _duel(sessions, channel=c, seed=c) for c in range(1, 6)]
    assert sessions.cached() <= 2
    for _round in range(3):
        for mid in ids:
            user, key, sid = await _first_move(sessions, mid)
            await sessions.submit(mid, user, key, sid)
            assert sessions.cached() <= 2
    for mid in ids:
        await _assert_snapshot_is_replay(store, mid)
    await sessions.close()


async def _two_under_way(sessions: SessionManager) -> tuple[int, int]:
    """Two duels (channels 1 and 2, seeds 1 and 2) played until their turns come round; their ids."""
    a = await _duel(sessions, channel=1, seed=1)
    b = await _duel(sessions, channel=2, seed=2)
    for mid in (a, b):
        await _play_until_turns(sessions, mid)
    return a, b


async def test_damaged_snapshot_is_rebuilt_from_the_log(store: SqliteStore) -> None:
    sessions = SessionManager(store)
    a, _b = await _two_under_way(sessions)
    expected = await sessions.view_for(a, ANN)
    await sessions.close()
    await store.db.execute('UPDATE matches SET snapshot = \'{"not": "a state\' WHERE id = ?', (a,))
    fresh = SessionManager(store)
    assert await fresh.view_for(a, ANN) == expected
    await _assert_snapshot_is_replay(store, a)  # and the repaired snapshot was saved
    user, key, sid = await _first_move(fresh, a)
    await fresh.submit(a, user, key, sid)
    await fresh.close()


async def test_damaged_beyond_repair_is_marked_broken_and_others_play_on(store: SqliteStore) -> None:
    sessions = SessionManager(store)
    a, b = await _two_under_way(sessions)
    await sessions.close()
    await store.db.execute("UPDATE matches SET snapshot = 'garbage' WHERE id = ?", (a,))
    await store.db.execute("UPDATE actions SET action_key = 'nonsense' WHERE match_id = ? AND seq = 1", (a,))
    seen: list[SessionEvent] = []
    fresh = SessionManager(store)
    fresh.subscribe(seen.append)
    with pytest.raises(MatchBroken, match="damaged") as broken:
        await fresh.get(a)
    assert "start a new game" in str(broken.value)
    assert [e.kind for e in seen] == ["broken"]
    with pytest.raises(MatchBroken):
        await fresh.submit(a, ANN, "draw", None)
    assert (await store.get_match(a)).status == BROKEN  # type: ignore[union-attr]
    user, key, sid = await _first_move(fresh, b)  # the other match is unaffected
    await fresh.submit(b, user, key, sid)
    assert (await fresh.create(1, 900, "omphala", CY)).status == LOBBY  # its channel is free again
    await fresh.close()


async def test_turn_deadlines(store: SqliteStore) -> None:
    now = [1000.0]
    sessions = SessionManager(store, turn_seconds=60, clock=lambda: now[0])
    mid = await _duel(sessions)
    assert [m.id for m in await sessions.overdue(1059.0)] == []
    assert [m.id for m in await sessions.overdue(1061.0)] == [mid]
    now[0] = 2000.0
    user, key, sid = await _first_move(sessions, mid)
    await sessions.submit(mid, user, key, sid)
    assert [m.id for m in await sessions.overdue(1061.0)] == []
    assert (await sessions.get(mid)).deadline == 2060.0
    await sessions.set_deadline(mid, 1500.0)  # a front end's own timer policy
    assert (await sessions.get(mid)).deadline == 1500.0
    assert [m.id for m in await sessions.overdue(1501.0)] == [mid]
    await sessions.close()


async def test_events_are_redacted_per_seat(sessions: SessionManager) -> None:
    seen: list[SessionEvent] = []
    sessions.subscribe(seen.append)
    mid = await _duel(sessions)
    user, key, sid = await _first_move(sessions, mid)
    await sessions.submit(mid, user, key, sid)
    ev = seen[-1]
    assert ev.kind == "action" and ev.user == user
    seat = ev.seat
    assert seat is not None
    mine, theirs = ev.visible_events(seat), ev.visible_events(1 - seat)
    assert len(mine) > len(theirs) and ev.visible_events(None) == theirs


async def test_abandon_by_every_player_agreeing_survives_a_restart(
    sessions: SessionManager, store: SqliteStore
) -> None:
    mid = await _duel(sessions, ai=1)
    info, missing = await sessions.vote_abandon(mid, BO)
    assert info.status == ACTIVE and missing == {ANN}
    with pytest.raises(SessionError, match="not playing"):
        await sessions.vote_abandon(mid, CY)
    restarted = SessionManager(store)  # the request is stored, not held in memory
    info, missing = await restarted.vote_abandon(mid, ANN)
    assert info.status == ABANDONED and missing == frozenset()
    await restarted.close()


async def test_a_game_without_ai_to_move_never_queues_for_an_ai_slot(store: SqliteStore) -> None:
    """With every AI slot busy (other games' AIs thinking), a move in a game of people is settled at once:
    its AI check leaves without waiting for a slot (so an AI seat elsewhere is not queued behind it)."""
    sessions = SessionManager(store, ai_concurrency=1)
    try:
        mid = await _duel(sessions)
        user, key, sid = await _first_move(sessions, mid)
        async with sessions._ai_slots:  # another game's AI holds the only slot
            await sessions.submit(mid, user, key, sid)
            for _ in range(100):  # at most 2 s
                if mid not in sessions._ai_tasks:
                    break
                await asyncio.sleep(0.02)
            assert mid not in sessions._ai_tasks, "the check waited for a slot it did not need"
    finally:
        await sessions.close()


async def test_the_front_ends_policy_is_never_awaited_under_the_match_lock(store: SqliteStore) -> None:
    """The hooks are given at construction; the policy hook (a front end reading its records, which may
    await the database) runs before the match's lock is taken, never while the caller holds it; the
    deadline it hands back is a plain function, used under the lock and written with each move."""
    held: dict[int, set[asyncio.Task[object] | None]] = {}
    asked: list[int] = []

    def deadline_for(after: MatchInfo) -> float | None:
        assert asyncio.current_task() in held.get(after.id, set()), "used with the move, under the lock"
        return 5_000.0 + after.state_id

    async def policy(info: MatchInfo) -> Policy:
        assert asyncio.current_task() not in held.get(info.id, set()), "awaited under the match lock"
        asked.append(info.id)
        await asyncio.sleep(0)  # a read of the front end's records
        return Policy(deadline_for=deadline_for, windows={ANN: ASK, BO: ASK})

    sessions = SessionManager(store, hooks=Hooks(policy=policy))
    lock = sessions._cache.lock

    @contextlib.asynccontextmanager
    async def watched(match_id: int) -> AsyncIterator[None]:
        async with lock(match_id):
            me = asyncio.current_task()
            held.setdefault(match_id, set()).add(me)
            try:
                yield
            finally:
                held[match_id].discard(me)

    sessions._cache.lock = watched  # type: ignore[method-assign]
    try:
        mid = await _duel(sessions, ai=1)  # an AI seat: its task gathers the policy too
        while (info := await sessions.get(mid)).status == ACTIVE and info.state_id < 6:
            seen = await sessions.snapshot(mid, person := info.users_to_act[0])
            result = await sessions.submit(mid, person, seen.moves[0].key, info.state_id, seen=True)
            assert result.seen is not None and result.seen.info.state_id == result.state_id
            await sessions.wait_idle(mid)
        await sessions.table_snapshot(mid)
        assert asked and set(asked) == {mid}
        stored = await store.get_match(mid)
        assert stored is not None and stored.deadline == 5_000.0 + stored.state_id
    finally:
        await sessions.close()
