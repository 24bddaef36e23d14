"""AI seats: each match whose turn is an AI's has one task that moves its AI seats, thinking in the worker
process pool (pool.py) and playing through the same path as a person; resumed after a restart. Hints for
the person to act think in the same pool."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from bot.ai import DEFAULT_LEVEL, choose_move
from bot.sessions.automatic import position_seed as ai_seed
from bot.sessions.base import SessionBase
from bot.sessions.cache import Live
from bot.sessions.hooks import Policy
from bot.sessions.pool import PoolError, judge
from bot.sessions.types import Move, SessionError, StaleState, UserId
from bot.store import ACTIVE
from engine.core import PlayerId
from engine.registry import spec

log = logging.getLogger(__name__)

# Levels that cost less to compute than to hand to a worker process (a random legal move): they pick in a
# thread here. Every other level thinks in the pool.
INLINE_LEVELS = frozenset({"random"})


class AiSeats(SessionBase):
    """Start, run, resume and stop the AI task of each match."""

    async def recover(self) -> int:
        """Resume every unfinished game that waits on an AI move (of this process's shards); the number of
        games resumed. An AI move another process has claimed is left to it.

        Games waiting on people need nothing: they load on demand when someone acts.
        """
        ids = await self.store.matches_awaiting_ai(shards=self.shards)
        for mid in ids:
            if self.owner is not None and mid not in self._ai_tasks:
                self._cache.forget(mid)  # another process may have moved it since: read it afresh
            self._kick_ai(mid)
        return len(ids)

    async def resume_ai(self, match_id: int) -> bool:
        """Make sure the AI seats to act in this match are moving, and the moves made for people (after a
        change of their window setting) are played; whether any such move is due."""
        async with self._locked(match_id) as policy:
            live = await self._live(match_id)
            if self._ai_to_act(live) is None and self._automatic(live, policy) is None:
                return False
            self._kick_ai(match_id)
            return True

    async def setting_changed(self, user: UserId) -> int:
        """A person changed their window setting: play what it now passes in the games in memory that wait
        on them (a game loaded later checks at its next move); how many games were nudged."""
        nudged = 0
        for mid in self._cache.ids():
            live = self._cache.peek(mid)
            if live is None or live.record.status != ACTIVE or live.match is None:
                continue
            seats = live.record.seats
            if any(seats[s].user_id == user and not seats[s].is_ai for s in live.match.to_act()):
                nudged += await self.resume_ai(mid)
        return nudged

    async def settled(self, match_id: int, timeout: float) -> bool:
        """Wait (at most `timeout` seconds) until the automatic steps after a move have been played: moves
        played for people, and AI seats answering; whether they have (False: an AI still thinks)."""
        task = self._ai_tasks.get(match_id)
        if task is None:
            return True
        done, _ = await asyncio.wait({task}, timeout=timeout)
        return bool(done)

    def ai_task(self, match_id: int) -> asyncio.Task[None] | None:
        """The task moving this match's AI seats (and the moves made for people), while it runs."""
        task = self._ai_tasks.get(match_id)
        return task if task is not None and not task.done() else None

    async def wait_idle(self, match_id: int | None = None) -> None:
        """Wait until no AI is moving (in this match, or anywhere)."""
        while True:
            if match_id is None:
                tasks = list(self._ai_tasks.values())
            else:
                tasks = [t] if (t := self._ai_tasks.get(match_id)) else []
            if not tasks:
                return
            await asyncio.wait(tasks)

    async def evaluation(self, match_id: int) -> tuple[float, ...]:
        """Every seat's share of the win in a running match's position by the game's evaluation (the one the
        hard AI's search judges positions by), as an arbiter sees it: the whole position. For adjudicating
        a game that must end (a tournament round's end), never shown to a player while it goes on."""
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            match = self._require_active(live)
            snapshot = json.dumps(match.game.to_json(match.state), separators=(",", ":"))
            game = spec(match.game)
        try:
            return tuple(await self.ai_pool.run(judge, game, snapshot))
        except (PoolError, TimeoutError) as e:
            log.warning("evaluation of match %s failed: %s", match_id, e)
            raise SessionError("The position could not be evaluated; please try again.") from None

    async def hint(self, match_id: int, user: UserId, top: int = 3) -> list[tuple[Move, float]]:
        """The strongest AI's `top` moves for the user's seat, each with its estimated chance of winning.

        Only for a person to act; the search (in the pool) starts from the seat's own view: it is handed
        the real position and the seat, and samples everything the seat cannot see.
        """
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            match = self._require_active(live)
            seat = self._require_seat(live, user)
            if seat not in match.to_act():
                raise SessionError("A hint is only for the player to act, and it is not your turn.")
            game = match.game
            snapshot = json.dumps(game.to_json(match.state), separators=(",", ":"))
            seed = ai_seed(live.record.seed, match.state_id, seat) ^ 0x5EED
        try:
            rated = await self.ai_pool.hint(spec(game), snapshot, seat, seed, top)
        except (PoolError, TimeoutError) as e:
            log.warning("hint for match %s failed: %s", match_id, e)
            raise SessionError("The hint took too long to think up; please try again.") from None
        state = game.from_json(json.loads(snapshot))  # the position the hint was searched for
        legal = {a.key: a for a in game.legal_actions(state, seat)}
        return [
            (Move(key, tuple(game.describe(state, legal[key]))), chance)
            for key, chance in rated[:top]
            if key in legal
        ]

    async def close(self) -> None:
        """Stop AI tasks (everything already applied is committed), then the worker processes."""
        self._closed = True
        tasks = list(self._ai_tasks.values())
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await t
        if self._own_pool:
            await self.ai_pool.close()

    def _kick_ai(self, match_id: int) -> None:
        """Start the AI loop of a match unless it runs already (call with the lock held, or at start-up)."""
        if self._closed or match_id in self._ai_tasks:
            return
        self._ai_tasks[match_id] = asyncio.get_running_loop().create_task(
            self._ai_loop(match_id), name=f"ai-{match_id}"
        )

    async def _ai_loop(self, match_id: int) -> None:
        """Move AI seats, and play the moves made for people (a window their setting passes, a lone move),
        until a person who must choose (or nobody) is to act; each move goes through _play."""
        me = asyncio.current_task()
        try:
            while True:
                async with self._locked(match_id) as policy:  # nothing to do: leave without queueing
                    live = await self._live(match_id)
                    if await self._play_for_person(live, policy):
                        continue
                    if self._ai_to_act(live) is None:
                        self._ai_tasks.pop(match_id, None)  # under the lock: no move is missed
                        return
                async with self._ai_slots:
                    async with self._lock_for(match_id):
                        live = await self._live(match_id)
                        todo = self._ai_to_act(live)
                        if todo is None:
                            continue  # a person's move is due first, or the game moved on
                        match = live.match
                        assert match is not None
                        seat, state_id = todo, match.state_id
                        # Another process makes this move (its claim runs out if it dies meanwhile;
                        # claims are never given back: a move's key names its state, and prune_claims
                        # clears them).
                        if not await self.claim(f"ai:{match_id}:{state_id}"):
                            self._ai_tasks.pop(match_id, None)  # under the lock: no move is missed
                            return
                        level = live.record.seats[seat].ai or DEFAULT_LEVEL
                        game = match.game
                        snapshot = json.dumps(game.to_json(match.state), separators=(",", ":"))
                        seed = ai_seed(live.record.seed, state_id, seat)
                    if self.ai_delay:
                        await asyncio.sleep(self.ai_delay)
                    key = await self._think(match_id, game, snapshot, seat, level, seed)
                async with self._locked(match_id) as policy:
                    live = await self._live(match_id)
                    if not live.record.seats[seat].is_ai:  # its person took the seat back meanwhile
                        continue
                    with contextlib.suppress(StaleState):  # a person moved meanwhile: think again
                        await self._play(live, seat, None, key, state_id, policy)
        except asyncio.CancelledError:
            raise
        except SessionError as e:
            log.warning("AI of match %s stopped: %s", match_id, e)
        except Exception:
            log.exception("AI of match %s failed", match_id)
        finally:
            if self._ai_tasks.get(match_id) is me:
                del self._ai_tasks[match_id]

    async def _play_for_person(self, live: Live, policy: Policy) -> bool:
        """Play the move made for a person now, if there is one (see _automatic); whether one was played.
        The caller holds the match lock."""
        todo = self._automatic(live, policy)
        if todo is None or live.match is None:
            return False
        seat, key, why = todo
        user = live.record.seats[seat].user_id
        await self._play(live, seat, user, key, live.match.state_id, policy, auto=why)
        return True

    async def _think(
        self, match_id: int, game: Any, snapshot: str, seat: PlayerId, level: str, seed: int
    ) -> str:
        """The AI's move, thought out in the pool; if the pool cannot give one (its workers kept dying or
        hanging, or the level failed), a random legal move, so the game never stalls on its AI."""
        if level not in INLINE_LEVELS:
            try:
                return await self.ai_pool.choose(spec(game), snapshot, seat, level, seed)
            except (PoolError, TimeoutError) as e:
                log.error("AI (%s) of match %s gave no move (%s); it plays a random one", level, match_id, e)
            level = "random"
        state = game.from_json(json.loads(snapshot))
        return await asyncio.to_thread(choose_move, game, state, seat, level, seed)

    @staticmethod
    def _ai_to_act(live: Live) -> PlayerId | None:
        """The first AI seat to act in a running match, or None."""
        if live.record.status != ACTIVE or live.match is None:
            return None
        for s in live.match.to_act():
            if live.record.seats[s].is_ai:
                return s
        return None
