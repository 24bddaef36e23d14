"""The lobby and the life of a match around play: open, join, seat an AI, leave, deal; abandon, vote
to abandon, forfeit."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.ai import DEFAULT_LEVEL, LEVELS
from bot.sessions.base import SessionBase
from bot.sessions.cache import Live
from bot.sessions.types import MatchInfo, SessionError, SessionEvent, UserId, seat_of
from bot.store import ABANDONED, ACTIVE, FINISHED, LOBBY, Conflict, NewMatch, ResultRow, Seat
from engine.core import JSON, Game
from engine.match import Match
from engine.registry import get as get_game


class Lobby(SessionBase):
    """Everything from opening a lobby to the deal, and every way a match ends early."""

    async def create(
        self,
        channel_id: int | None,
        guild_id: int | None,
        game_id: str,
        host_user: UserId,
        options: JSON | None = None,
        *,
        seed: int | None = None,
        host_name: str = "",
        origin: str = "discord",
        seat_host: bool = True,
    ) -> MatchInfo:
        """Open a lobby in a channel (the host seated unless seat_host=False); refused if it has a game.

        channel_id may be None (console games); the match is then addressed by its id only.
        """
        try:
            game = get_game(game_id)
        except KeyError:
            raise SessionError(f"There is no game called {game_id!r}.") from None
        if channel_id is not None and (mid := await self.store.live_match_id(channel_id)) is not None:
            raise SessionError(f"This channel already has a game (#{mid}); finish or abandon it first.")
        new = NewMatch(
            game_id=game_id,
            rules_version=_rules_version(game),
            guild_id=guild_id,
            channel_id=channel_id,
            origin=origin,
            seed=_random_seed() if seed is None else seed,
            options=dict(options or {}),
            seats=(Seat(host_user, None, host_name),) if seat_host else (),
            host_user=host_user,
            now=self.clock(),
        )
        try:
            record = await self.store.create_match(new)
        except Conflict:
            raise SessionError("This channel already has a game; finish or abandon it first.") from None
        async with self._lock_for(record.id):
            live = self._cache.remember(Live(record))
            info = self._info(live)
            await self._publish(SessionEvent("created", info, seat=0 if seat_host else None, user=host_user))
        return info

    async def join(self, match_id: int, user: UserId, name: str = "") -> MatchInfo:
        """Take a seat in a lobby."""
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            rec = self._require_lobby(live)
            if seat_of(rec.seats, user) is not None:
                raise SessionError("You are already in this game.")
            self._require_room(rec)
            await self._set_seats(live, (*rec.seats, Seat(user, None, name)))
            info = self._info(live)
            await self._publish(SessionEvent("joined", info, seat=len(rec.seats) - 1, user=user))
            return info

    async def add_ai(self, match_id: int, user: UserId, level: str = DEFAULT_LEVEL) -> MatchInfo:
        """Seat an AI of this level in a lobby (host only)."""
        if level not in LEVELS:
            raise SessionError(f"There is no AI level {level!r}; try one of: {', '.join(LEVELS)}.")
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            rec = self._require_lobby(live)
            self._require_host(rec, user)
            self._require_room(rec)
            seat = len(rec.seats)
            await self._set_seats(live, (*rec.seats, Seat(None, level, f"AI {seat + 1} ({level})")))
            info = self._info(live)
            await self._publish(SessionEvent("ai_added", info, seat=seat, user=user))
            return info

    async def leave(self, match_id: int, user: UserId) -> MatchInfo:
        """Leave a game: in a lobby the seat is freed; in a running game an AI takes the seat over."""
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            rec = live.record
            seat = self._require_seat(live, user)
            if rec.status == LOBBY:
                seats = rec.seats[:seat] + rec.seats[seat + 1 :]
                humans = [s.user_id for s in seats if not s.is_ai]
                if not humans:
                    await self._end(live, ABANDONED, "Everyone left the lobby.")
                    return self._info(live)
                host = rec.host_user if rec.host_user != user else humans[0]
                await self._set_seats(live, seats, host)
            elif rec.status == ACTIVE:
                old = rec.seats[seat]
                name = f"AI for {old.name or f'Player {seat + 1}'}"
                seats = (*rec.seats[:seat], Seat(None, DEFAULT_LEVEL, name), *rec.seats[seat + 1 :])
                await self._set_seats(live, seats)
                self._kick_ai(match_id)
            else:
                raise SessionError("This game is already over.")
            info = self._info(live)
            await self._publish(SessionEvent("left", info, seat=seat, user=user))
            return info

    async def start(self, match_id: int, user: UserId) -> MatchInfo:
        """Deal and begin (host only); AI seats start moving by themselves."""
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            rec = self._require_lobby(live)
            self._require_host(rec, user)
            game = get_game(rec.game_id)
            n = len(rec.seats)
            if not game.min_players <= n <= game.max_players:
                raise SessionError(
                    f"{game.title} needs {game.min_players} to {game.max_players} players; there {_are(n)}."
                )
            match = Match.new(rec.game_id, n, rec.seed, rec.options)
            update = self._state_update(live, match, ACTIVE)
            await self.store.start_match(match_id, update)
            live.match = match
            self._apply_update(live, update)
            info = self._info(live)
            await self._publish(SessionEvent("started", info, user=user))
            self._kick_ai(match_id)
            return info

    async def abandon(self, match_id: int, user: UserId | None, *, force: bool = False) -> MatchInfo:
        """Stop a lobby or a running game for good (the host, or anyone with force=True, e.g. an admin)."""
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            rec = live.record
            if rec.status not in (LOBBY, ACTIVE):
                raise SessionError("This game is already over.")
            if not force:
                self._require_host(rec, user)
            await self._end(live, ABANDONED, "The game was abandoned.")
            return self._info(live)

    async def vote_abandon(self, match_id: int, user: UserId) -> tuple[MatchInfo, frozenset[UserId]]:
        """A player asks to abandon the game; once every seated person has asked, it is abandoned.

        Returns the match and the people who still have to agree (empty once it is abandoned). The
        requests are stored, so they survive a restart.
        """
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            self._require_seat(live, user)
            rec = live.record
            if rec.status not in (LOBBY, ACTIVE):
                raise SessionError("This game is already over.")
            asked = await self.store.vote_abandon(match_id, user, self.clock())
            people = frozenset(s.user_id for s in rec.seats if not s.is_ai and s.user_id is not None)
            missing = people - asked
            if not missing:
                await self._end(live, ABANDONED, "Every player agreed to abandon the game.")
            return self._info(live), missing

    async def forfeit(self, match_id: int, user: UserId, reason: str = "") -> MatchInfo:
        """The user gives up a running game: it ends now, a loss for them and a shared win for the rest."""
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            seat = self._require_seat(live, user)
            match = self._require_active(live)
            n = match.num_players
            shares = tuple(0.0 if i == seat else 1 / (n - 1) for i in range(n))
            seats = live.record.seats
            results = [ResultRow(i, seats[i].user_id, seats[i].ai, shares[i]) for i in range(n)]
            who = self._info(live).seat_name(seat)
            note = f"{who} forfeited{f' ({reason})' if reason else ''}; the others share the win."
            await self.store.set_status(match_id, FINISHED, note, self.clock(), results)
            rec = live.record
            live.record = replace(rec, status=FINISHED, note=note, ai_turn=False, deadline=None)
            live.forfeit_shares = shares
            info = self._info(live)
            await self._publish(SessionEvent(FINISHED, info, seat=seat, user=user))
            return info


def _random_seed() -> int:
    """A fresh match seed, drawn through `bot.sessions.secrets` (the Discord test harness swaps that
    module for a counter, so that deals are reproducible)."""
    import bot.sessions

    return bot.sessions.secrets.randbits(62)


def _rules_version(game: Game[Any]) -> str:
    """The rules version a new match records for its game."""
    return str(getattr(game, "rules_version", getattr(game, "version", "1")))


def _are(n: int) -> str:
    """The verb and count for "there ... players": "is 1", "are 3"."""
    return "is 1" if n == 1 else f"are {n}"
