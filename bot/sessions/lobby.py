"""The lobby and the life of a match around play: open, join, seat an AI, leave, deal; abandon, vote
to abandon, forfeit."""

from __future__ import annotations

import secrets
from dataclasses import replace
from typing import Any

from bot.ai import DEFAULT_LEVEL, LEVELS
from bot.ratings import CASUAL, RANKED, TABLE
from bot.sessions.base import SessionBase, result_rows
from bot.sessions.cache import Live
from bot.sessions.clock import is_bank
from bot.sessions.decks import BROUGHT, SAVED, DeckProblems, deck_book, recheck
from bot.sessions.hooks import Policy
from bot.sessions.packs import PACK, check_option
from bot.sessions.packs import seat_choices as choices_with_pack
from bot.sessions.types import (
    MatchInfo,
    Move,
    SessionError,
    SessionEvent,
    UserId,
    as_written,
    seat_name,
    seat_of,
)
from bot.store import (
    ABANDONED,
    ACTIVE,
    FINISHED,
    LOBBY,
    Conflict,
    DeckRecord,
    MatchRecord,
    NewMatch,
    Seat,
    TableKey,
)
from engine.carddata import CardDataError
from engine.core import JSON, Event, Game, PlayerId
from engine.match import Match
from engine.registry import get as get_game
from engine.table import lesson
from engine.table.present import SeatChoice, deck_of, player_count
from engine.table.present import of as presentation_of

NOT_JOINED = "Only players in this game can choose; press **Join** first to take a seat."
NOT_PLAYER = "Only the players of this game can ask for a rematch; start a game of your own with `/play`."
SKIP_LIMIT = 20  # moves a skipped turn may take at most (a turn that never ends is a bug, not a hang)


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
        seats = (options or {}).get("seats")
        if seats is not None and not game.min_players <= seats <= game.max_players:
            raise SessionError(f"{game.title} is for {player_count(game, ' to ')}.")
        if (pack := (options or {}).get(PACK)) is not None:  # a card pack: checked before anything is made
            check_option(game_id, pack)
        if channel_id is not None and (mid := await self._live_in_channel(channel_id)) is not None:
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

    async def learn(
        self,
        channel_id: int | None,
        guild_id: int | None,
        game_id: str,
        user: UserId,
        *,
        name: str = "",
        origin: str = "discord",
    ) -> MatchInfo:
        """Deal a practice game of the game's tutorial (engine/table/lesson.py) for one person: its fixed
        deal, the person in the first seat, AI seats of the tutorial's level; never rated nor counted in
        stats, and no turn clock. Refused for a game without a tutorial, or a channel with a game."""
        try:
            tutorial = lesson.of(get_game(game_id))
        except KeyError:
            raise SessionError(f"There is no game called {game_id!r}.") from None
        if tutorial is None:
            raise SessionError(f"{get_game(game_id).title} has no tutorial yet.")
        options = tutorial.match_options()
        info = await self.create(
            channel_id, guild_id, game_id, user, options, seed=tutorial.seed, host_name=name, origin=origin
        )
        for _ in range(tutorial.players - 1):
            await self.add_ai(info.id, user, tutorial.level)
        return await self.start(info.id, user)

    async def rematch(
        self, match_id: int, user: UserId, channel_id: int | None, *, host_name: str = ""
    ) -> tuple[MatchInfo, bool]:
        """Open a lobby in a channel to play a finished match again: the same game and table options, the
        same people in the same seats with the picks they were dealt with (a saved deck checked again), AI
        seats at the same levels, and `user`, one of its players, as host. While a rematch of it is open (a
        lobby or a game), that one comes back instead; the flag says whether the lobby was opened now."""
        async with self._lock_for(match_id):
            rec = (await self._live(match_id)).record
            if user not in people_of(rec.seats):
                raise SessionError(NOT_PLAYER)
            if rec.status != FINISHED:
                raise SessionError("Only a finished game can be played again.")
            if (existing := await self.store.rematch_id(match_id)) is not None:
                return await self._info_of(existing), False
            if channel_id is not None and (mid := await self._live_in_channel(channel_id)) is not None:
                raise SessionError(f"This channel already has a game (#{mid}); finish or abandon it first.")
            game = get_game(rec.game_id)
            seats = _rematch_seats(rec.seats, user, host_name)
            new = NewMatch(
                game_id=rec.game_id,
                rules_version=_rules_version(game),
                guild_id=rec.guild_id,
                channel_id=channel_id,
                origin=rec.origin,
                seed=_random_seed(),
                options=_rematch_options(game, rec),
                seats=seats,
                host_user=user,
                now=self.clock(),
                rematch_of=match_id,
            )
            try:
                record = await self.store.create_match(new)
            except Conflict:  # another rematch, or another game in the channel, came first
                if (existing := await self.store.rematch_id(match_id)) is not None:
                    return await self._info_of(existing), False
                raise SessionError("This channel already has a game; finish or abandon it first.") from None
        async with self._lock_for(record.id):
            info = self._info(self._cache.remember(Live(record)))
            await self._publish(SessionEvent("created", info, seat=seat_of(seats, user), user=user))
        return info, True

    async def _info_of(self, match_id: int) -> MatchInfo:
        """The picture of a match by id (loaded if need be)."""
        async with self._lock_for(match_id):
            return self._info(await self._live(match_id))

    async def join(self, match_id: int, user: UserId, name: str = "") -> MatchInfo:
        """Take a seat in a lobby."""
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            rec = self._require_open_lobby(live.record)
            if seat_of(rec.seats, user) is not None:
                raise SessionError("You are already in this game.")
            self._require_free_seat(rec)
            await self._set_seats(live, (*rec.seats, Seat(user, None, name)))
            info = self._info(live)
            await self._publish(SessionEvent("joined", info, seat=len(rec.seats) - 1, user=user))
            return info

    async def pick(self, match_id: int, user: UserId, key: str, option: str | None) -> MatchInfo:
        """A seated person's pick for one of the game's seat choices (e.g. their deck) before the deal;
        option None goes back to a random one. Kept in the lobby's options under "picks"."""
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            rec, seat = self._require_seated(live.record, user)
            game = get_game(rec.game_id)
            check_pick(game, key, option, rec.options)
            options = _with_pick(rec.options, user, key, option)
            book = deck_book(game)
            if book is not None and book.key == key:  # a ready option instead of a saved deck
                options = _with_brought(options, user, None)
            await self._set_options(live, options)
            info = self._info(live)
            await self._publish(SessionEvent("picked", info, seat=seat, user=user))
            return info

    async def set_option(self, match_id: int, user: UserId, key: str, value: str | None) -> MatchInfo:
        """The host sets one of the table's own options before the deal (e.g. a front end's "pace"; None
        removes it). Not for the options the session manager keeps itself (seats, picks, decks). The table's
        kind (TABLE: ranked or casual) is one of them: fixed once dealt, kept by a rematch."""
        if key in ("seats", "picks", BROUGHT, "seat_choices", "decks", PACK):
            raise SessionError("That option is not one the host sets in the lobby.")
        if key == TABLE and value not in (RANKED, CASUAL):
            raise SessionError(f"A table is {RANKED} or {CASUAL}.")
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            rec = self._require_open_lobby(live.record)
            self._require_host(rec, user)
            options = {k: v for k, v in rec.options.items() if k != key}
            await self._set_options(live, options if value is None else {**options, key: value})
            return self._info(live)

    async def pick_deck(self, match_id: int, user: UserId, name: str) -> MatchInfo:
        """A seated person brings one of their saved decks (bot.sessions.decks) for the seat choice it
        stands in for: checked again by the game now, and dealt as it is now (options["decks"])."""
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            rec, seat = self._require_seated(live.record, user)
            game = get_game(rec.game_id)
            book = deck_book(game)
            if book is None:
                raise SessionError(f"{game.title} has no decks to bring; choose in the lobby's menus.")
            saved = await self.store.deck(user, rec.game_id, " ".join(name.split()))
            if saved is None:
                raise SessionError(
                    f"You have no {game.title} deck called {name!r}; `/deck list` shows yours."
                )
            deck = recheck(book, saved)
            options = _with_pick(rec.options, user, book.key, SAVED + saved.name)
            await self._set_options(live, _with_brought(options, user, deck))
            info = self._info(live)
            await self._publish(SessionEvent("picked", info, seat=seat, user=user))
            return info

    async def _set_options(self, live: Live, options: JSON) -> None:
        """Store and cache a lobby's new options."""
        now = self.clock()
        await self.store.set_options(live.record.id, options, now)
        live.record = replace(live.record, options=options, updated_at=now)

    async def add_ai(self, match_id: int, user: UserId, level: str = DEFAULT_LEVEL) -> MatchInfo:
        """Seat an AI of this level in a lobby (host only)."""
        if level not in LEVELS:
            raise SessionError(f"There is no AI level {level!r}; try one of: {', '.join(LEVELS)}.")
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            rec = self._require_open_lobby(live.record)
            self._require_host(rec, user)
            self._require_free_seat(rec)
            seat = len(rec.seats)
            await self._set_seats(live, (*rec.seats, Seat(None, level, f"AI {seat + 1} ({level})")))
            info = self._info(live)
            await self._publish(SessionEvent("ai_added", info, seat=seat, user=user))
            return info

    async def leave(
        self, match_id: int, user: UserId, *, lobby_only: bool = False, level: str = DEFAULT_LEVEL
    ) -> MatchInfo:
        """Leave a game: in a lobby the seat is freed; in a running game an AI of this level takes the seat
        over (the person may take it back; see reclaim). lobby_only: refused once the game has started."""
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            rec = live.record
            if lobby_only:
                self._require_open_lobby(rec)
            seat = self._require_seat(live, user)
            if rec.status == LOBBY:
                seats = rec.seats[:seat] + rec.seats[seat + 1 :]
                humans = [s.user_id for s in seats if not s.is_ai]
                if not humans:
                    await self._end(live, ABANDONED, "Everyone left the lobby.")
                    return self._info(live)
                host = rec.host_user if rec.host_user != user else humans[0]
                await self._set_seats(live, seats, host)
                picks = dict(rec.options.get("picks") or {})
                had = picks.pop(str(user), None) is not None
                if had or str(user) in (rec.options.get(BROUGHT) or {}):  # their picks go with them
                    await self._set_options(live, _with_brought(_with_picks(rec.options, picks), user, None))
            elif rec.status == ACTIVE:
                old = rec.seats[seat]
                name = f"AI for {old.name or f'Player {seat + 1}'}"
                ai = Seat(None, level if level in LEVELS else DEFAULT_LEVEL, name, stands_for=user)
                seats = (*rec.seats[:seat], ai, *rec.seats[seat + 1 :])
                await self._set_seats(live, seats)
                self._kick_ai(match_id)
            else:
                raise SessionError("This game is already over.")
            info = self._info(live)
            await self._publish(SessionEvent("left", info, seat=seat, user=user))
            return info

    async def start(self, match_id: int, user: UserId) -> MatchInfo:
        """Deal and begin (host only); AI seats start moving by themselves."""
        async with self._locked(match_id) as policy:
            live = await self._live(match_id)
            self._require_host(self._require_open_lobby(live.record), user)
            return await self._deal(live, policy, user)

    async def deal_table(
        self,
        channel_id: int | None,
        guild_id: int | None,
        game_id: str,
        seats: tuple[Seat, ...],
        options: JSON,
        table: TableKey,
        host: UserId,
    ) -> MatchInfo:
        """Deal a tournament table's game at once: these seats (people and AI entrants) and options, the
        match linked to its table in its own insert (so a restart finds it: `deal_dealt` deals one whose
        deal did not happen)."""
        new = NewMatch(
            game_id=game_id,
            rules_version=_rules_version(get_game(game_id)),
            guild_id=guild_id,
            channel_id=channel_id,
            origin="discord",
            seed=_random_seed(),
            options=dict(options),
            seats=seats,
            host_user=host,
            now=self.clock(),
            table=table,
        )
        try:
            record = await self.store.create_match(new)
        except Conflict:
            raise SessionError("This channel already has a game; finish or abandon it first.") from None
        async with self._lock_for(record.id):
            self._cache.remember(Live(record))
        return await self.deal_dealt(record.id)

    async def deal_dealt(self, match_id: int) -> MatchInfo:
        """Deal a tournament table's match if it is still a lobby (its deal was cut off); as it is if not."""
        async with self._locked(match_id) as policy:
            live = await self._live(match_id)
            if live.record.status != LOBBY:
                return self._info(live)
            return await self._deal(live, policy, live.record.host_user)

    async def _deal(self, live: Live, policy: Policy, user: UserId | None) -> MatchInfo:
        """Deal a lobby's match and begin (the caller holds its lock and checked who may)."""
        match_id = live.record.id
        rec = live.record
        game = get_game(rec.game_id)
        n = len(rec.seats)
        if not game.min_players <= n <= game.max_players:
            raise SessionError(f"{game.title} needs {player_count(game, ' to ')}; there {_are(n)}.")
        if (table := rec.options.get("seats")) is not None and n != table:
            raise SessionError(f"This table is set for {table} players; there {_are(n)} so far.")
        options = _dealt_options(game, rec)
        try:
            match = Match.new(rec.game_id, n, rec.seed, options)
        except CardDataError as e:  # its card pack no longer fits the game (the rules changed since)
            raise SessionError(f"This game's card pack cannot be dealt: {e}") from None
        update = self._state_update(live, match, ACTIVE)
        live.record = replace(live.record, started_at=update.now)  # the bank clock counts from the deal
        moves = () if is_bank(options) else None
        update = self._with_deadline(live, match, update, moves, policy)
        changed = options if options != rec.options else None
        await self.store.start_match(match_id, update, _rules_version(game), changed)
        live.record = replace(live.record, options=options)
        live.match = match
        self._apply_update(live, update, moves)
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

    async def cancel(self, match_id: int, user: UserId) -> MatchInfo:
        """The host closes a lobby that has not started (refused once it has: that is abandon's job)."""
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            self._require_host(self._require_open_lobby(live.record), user)
            await self._end(live, ABANDONED, "The host cancelled this lobby.")
            return self._info(live)

    async def expire_lobby(self, match_id: int, note: str) -> MatchInfo | None:
        """Close a lobby nobody started, with this note; None if it started or closed meanwhile."""
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            if live.record.status != LOBBY:
                return None
            await self._end(live, ABANDONED, note)
            return self._info(live)

    async def skip_turn(
        self, match_id: int, seat: PlayerId, *, state_id: int | None = None, limit: int = SKIP_LIMIT
    ) -> list[tuple[Move, tuple[Event, ...]]]:
        """Play for a seat what its game says a skipped turn plays (present.skip), again while the seat
        still owes moves in the same turn (at most `limit` moves; nothing if the match has moved on from
        `state_id`); the moves played (with their menu paths) and their events."""
        played: list[tuple[Move, tuple[Event, ...]]] = []
        async with self._locked(match_id) as policy:
            live = await self._live(match_id)
            match = self._require_active(live)
            if state_id is not None and match.state_id != state_id:
                return played
            game, present = match.game, presentation_of(match.game)
            names = [self._info(live).seat_name(i) for i in range(len(live.record.seats))]
            turn = present.status(game.view(match.state, None), names).turn
            for _ in range(limit):
                if live.record.status != ACTIVE or live.record.seats[seat].is_ai:
                    break
                if seat not in game.to_act(match.state):
                    break
                if played and present.status(game.view(match.state, None), names).turn != turn:
                    break  # a new turn (the seat acts again in it): that is not the skipped turn
                actions = game.legal_actions(match.state, seat)
                if not actions:
                    break
                action = present.skip(game.view(match.state, seat), actions)
                path = tuple(game.describe(match.state, action))
                result = await self._play(live, seat, None, action.key, None, policy)
                played.append((Move(action.key, path), result.events))
        return played

    async def reclaim(self, match_id: int, user: UserId, name: str = "") -> MatchInfo:
        """A person takes back the seat an AI has played for them since they left or ran out of time."""
        async with self._locked(match_id) as policy:
            live = await self._live(match_id)
            rec = live.record
            seat = next((i for i, s in enumerate(rec.seats) if s.is_ai and s.stands_for == user), None)
            if seat is None:
                waiting = any(s.is_ai and s.stands_for is not None for s in rec.seats)
                if not waiting and seat_of(rec.seats, user) is not None:
                    raise SessionError("You already play your own seat.")
                raise SessionError("Only the player whose seat this was can take it back.")
            self._require_active(live)
            old = rec.seats[seat]
            name = name or old.name.removeprefix("AI for ")
            seats = (*rec.seats[:seat], Seat(user, None, name), *rec.seats[seat + 1 :])
            await self._set_seats(live, seats)
            info = self._info(live)
            if policy.deadline_for is not None:
                await self.set_deadline(match_id, policy.deadline_for(info))
                info = self._info(live)
            await self._publish(SessionEvent("reclaimed", info, seat=seat, user=user))
            self._kick_ai(match_id)  # a window their setting passes, or a lone move, is played for them
            return info

    def _require_open_lobby(self, rec: MatchRecord) -> MatchRecord:
        """The row of a match still in its lobby; refused once it has started or closed."""
        if rec.status == ACTIVE:
            raise SessionError("This game has already started; the lobby is closed.")
        if rec.status != LOBBY:
            raise SessionError("This lobby is closed.")
        return rec

    def _require_seated(self, rec: MatchRecord, user: UserId) -> tuple[MatchRecord, PlayerId]:
        """The row of a match still in its lobby and the user's seat at it; refused to a person not seated."""
        rec = self._require_open_lobby(rec)
        seat = seat_of(rec.seats, user)
        if seat is None:
            raise SessionError(NOT_JOINED)
        return rec, seat

    def _require_free_seat(self, rec: MatchRecord) -> None:
        """Refused if every seat of the table (its `seats` option, else the game's maximum) is taken."""
        game = get_game(rec.game_id)
        table = rec.options.get("seats") or game.max_players
        if len(rec.seats) >= table:
            raise SessionError(f"This table is full ({table} players).")

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
            results = result_rows(live.record, shares)
            names = [as_written(seat_name(seats, i)) for i in range(n)]  # the note is Markdown
            why = f" ({reason})" if reason else ""
            won = f"{names[1 - seat]} wins" if n == 2 else "the others share the win"
            note = f"{names[seat]} forfeited{why}; {won}."  # "bob forfeited (out of time); alice wins."
            await self.store.set_status(match_id, FINISHED, note, self.clock(), results)
            rec = live.record
            live.record = replace(rec, status=FINISHED, note=note, ai_turn=False, deadline=None)
            live.forfeit_shares = shares
            info = self._info(live)
            await self._publish(SessionEvent(FINISHED, info, seat=seat, user=user))
            return info

    async def rule(self, match_id: int, shares: tuple[float, ...], note: str) -> MatchInfo:
        """End a running game by a ruling (a tournament round's end, a result a manager records): these
        shares of the win, recorded and rated like any result, and the note saying why."""
        async with self._lock_for(match_id):
            live = await self._live(match_id)
            match = self._require_active(live)
            if len(shares) != match.num_players:
                raise SessionError(f"This game has {match.num_players} seats; {len(shares)} results given.")
            await self.store.set_status(
                match_id, FINISHED, note, self.clock(), result_rows(live.record, shares)
            )
            rec = live.record
            live.record = replace(rec, status=FINISHED, note=note, ai_turn=False, deadline=None)
            live.forfeit_shares = shares
            info = self._info(live)
            await self._publish(SessionEvent(FINISHED, info))
            return info


def people_of(seats: tuple[Seat, ...]) -> set[UserId]:
    """The people who have a seat: their own, or one an AI plays for them since they left."""
    return {p for s in seats if (p := s.person) is not None}


def _rematch_seats(seats: tuple[Seat, ...], host: UserId, host_name: str) -> tuple[Seat, ...]:
    """A finished match's seats for its rematch: each person back in their seat (an AI that took one over
    gives it back), each AI of its own at the same level, the host under their current name."""
    again = []
    for i, s in enumerate(seats):
        if s.person is not None:
            name = host_name if s.person == host and host_name else s.name.removeprefix("AI for ")
            again.append(Seat(s.person, None, name))
        else:
            level = s.ai or DEFAULT_LEVEL
            again.append(Seat(None, level, f"AI {i + 1} ({level})"))
    return tuple(again)


def _rematch_options(game: Game[Any], rec: MatchRecord) -> JSON:
    """A finished match's options for its rematch lobby: the table's options as set before the deal, and
    what each person was dealt with as their lobby picks (a saved deck brought again, checked anew; a pick
    the game no longer offers left out)."""
    dealt = ("seat_choices", "decks", "picks", BROUGHT)
    options = {k: v for k, v in rec.options.items() if k not in dealt}
    book = deck_book(game)
    for seat, (who, picks) in enumerate(zip(rec.seats, seat_picks(rec.options, rec.seats), strict=False)):
        if (person := who.person) is None:
            continue
        for key, option in picks.items():
            try:
                check_pick(game, key, option, rec.options)
            except SessionError:
                continue
            options = _with_pick(options, person, key, option)
        if book is not None and (deck := deck_of(rec.options, seat)) is not None:
            name = str(deck.get("name") or "deck")
            try:
                brought = recheck(book, DeckRecord(person, game.id, name, deck, 0.0))
            except DeckProblems:
                continue
            options = _with_brought(_with_pick(options, person, book.key, SAVED + name), person, brought)
    return options


def check_pick(game: Game[Any], key: str, option: str | None, options: JSON | None = None) -> SeatChoice:
    """The game's seat choice called `key`, if `option` is one of its options (or None: random), with what
    the match's card pack adds (its `options`); a SessionError naming the valid ones otherwise."""
    choices = choices_with_pack(game, options)
    choice = next((c for c in choices if c.key == key), None)
    if choice is None:
        if not choices:
            raise SessionError(f"{game.title} has no choices to make for a seat.")
        valid = "; ".join(f"{c.key} ({', '.join(o for o, _ in c.options)})" for c in choices)
        raise SessionError(f"{game.title} has no choice called {key!r}; the choices are: {valid}.")
    if option is not None and option not in dict(choice.options):
        valid = ", ".join(f"{o} ({label})" for o, label in choice.options)
        raise SessionError(f"There is no {choice.label.lower()} {option!r}; choose one of: {valid}.")
    return choice


def seat_picks(options: JSON, seats: tuple[Seat, ...]) -> list[dict[str, str]]:
    """What each seat picked, in seat order ({} for an AI seat or a person who picked nothing): from the
    lobby's picks before the deal, from the options the game was dealt with after it."""
    if "seat_choices" in options:
        return [dict(p) for p in options["seat_choices"]]
    picks = options.get("picks") or {}
    return [{} if s.is_ai or s.user_id is None else dict(picks.get(str(s.user_id)) or {}) for s in seats]


def _with_picks(options: JSON, picks: dict[str, dict[str, str]]) -> JSON:
    """The options with these picks (people with none left out; no "picks" at all when nobody has one)."""
    kept = {u: p for u, p in picks.items() if p}
    rest = {k: v for k, v in options.items() if k != "picks"}
    return {**rest, "picks": kept} if kept else rest


def _with_pick(options: JSON, user: UserId, key: str, option: str | None) -> JSON:
    """The options with one person's pick for one choice changed (None: no pick, a random one)."""
    picks = {u: dict(p) for u, p in (options.get("picks") or {}).items()}
    mine = picks.setdefault(str(user), {})
    if option is None:
        mine.pop(key, None)
    else:
        mine[key] = option
    return _with_picks(options, picks)


def _with_brought(options: JSON, user: UserId, deck: JSON | None) -> JSON:
    """The options with the saved deck a person brings (None: none), under BROUGHT until the deal (no
    BROUGHT at all when nobody brings one)."""
    brought = {u: d for u, d in (options.get(BROUGHT) or {}).items() if u != str(user)}
    if deck is not None:
        brought[str(user)] = deck
    rest = {k: v for k, v in options.items() if k != BROUGHT}
    return {**rest, BROUGHT: brought} if brought else rest


def _dealt_options(game: Game[Any], rec: MatchRecord) -> JSON:
    """The options the game is dealt with: for a game with seat choices, the lobby's picks become
    options["seat_choices"], one dict per seat in seat order; the saved decks people bring become
    options["decks"], one per seat (the deck's JSON or None), and leave their choice out of that seat's
    seat_choices (present only when someone brings one); nothing else changes."""
    if not choices_with_pack(game, rec.options) or lesson.practice(rec.options):
        return rec.options  # a practice game is dealt with its tutorial's own choices
    seat_choices = seat_picks(rec.options, rec.seats)
    options = {k: v for k, v in rec.options.items() if k not in ("picks", BROUGHT)}
    brought = rec.options.get(BROUGHT) or {}
    book = deck_book(game)
    decks: list[JSON | None] = [
        None if s.is_ai or s.user_id is None else brought.get(str(s.user_id)) for s in rec.seats
    ]
    for seat, picks in enumerate(seat_choices):
        if book is not None and (decks[seat] is not None or str(picks.get(book.key, "")).startswith(SAVED)):
            picks.pop(book.key, None)
    if book is not None and any(d is not None for d in decks):
        options["decks"] = decks
    return {**options, "seat_choices": seat_choices}


def _random_seed() -> int:
    """A fresh match seed, drawn through this module's `secrets` (the Discord test harness swaps it for a
    counter, so that deals are reproducible)."""
    return secrets.randbits(62)


def _rules_version(game: Game[Any]) -> str:
    """The rules version a new match records for its game."""
    return str(getattr(game, "rules_version", getattr(game, "version", "1")))


def _are(n: int) -> str:
    """The verb and count for "there ... players": "is 1", "are 3"."""
    return "is 1" if n == 1 else f"are {n}"
