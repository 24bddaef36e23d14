"""Two people playing a whole game through the fake Discord as people would (issue 22), with counters.

    record = await play_game(h, "ophidian", people, windows="auto", mode="easy", seed=1)

Whoever is to act opens "My hand & moves" on the latest board and presses through the menu (buttons, select
menus, "Next ▶" pages) to the move the easy AI would choose from the real position (`mode="easy"`), or to a
random legal move (`mode="random"`). Nothing assumes a response window waits: the driver only acts where the
session manager says a person is to act, after the bot has settled. Each person's window setting
(bot.sessions.types.WINDOW_SETTINGS) is stored before the lobby opens, as the Discord front end keeps it.

Counted per game (GameRecord): public messages the bot created in the game's thread and their edits; pings
per person (messages created that notified them, as the fake records under allowed_mentions, plus direct
messages to them); each person's turns with a real choice (runs of positions with one turn key of the game's
Status, the same key coming back later being another turn, in which they were waited on with more than one
legal move) and their waits (runs of positions in which the bot waited on them: at async pace each may
ping them once); windows that waited for a person; replies to a move that said someone else was next while
the bot then waited on the mover; windows that waited on someone not there who got no ping; lone moves
played for someone that an opponent could not know were lone; moves played for someone
(SessionEvent.auto); people's moves. Time passes as in asynchronous play (see `play_game`'s `pause`).
"""

from __future__ import annotations

import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bot.ai import choose_move
from bot.discord.board import HERE
from bot.discord.menus import STALE, named_moves, walk
from bot.sessions import MatchInfo, Move
from bot.sessions.types import FORCED, SessionEvent
from engine.core import find_action
from engine.registry import games
from engine.table.present import of as presentation_of
from tests.discord_harness import HAND, Harness
from tests.fakediscord import FakeChannel, FakeMessage, FakeUser
from tests.fakediscord.models import DM, LOADING
from tests.hidden_helpers import resample

PLAYED = "✅ You played"
MODES = ("easy", "random")
MAX_MOVES = 3000  # people's moves in one game at most
MAX_SECONDS = 600.0  # wall time of one game at most
MAX_PRESSES = 40  # presses to reach one move at most (pages of a long select count)
MAX_RETRIES = 20  # menus found out of date in a row at most
PAUSE = 3600.0  # seconds of the session clock before a person answers after someone else moved
Path = tuple[str, ...]
FOOTER = re.compile(r"· move (\d+) ·")  # a board's footer names the position it was drawn at


@dataclass
class GameRecord:
    """What one game cost its two people, as counted by the driver."""

    game: str
    windows: str
    match_id: int = 0
    over: bool = False
    stopped: str = ""  # why the driver gave up ("" when the game ended by itself)
    messages: int = 0  # public messages the bot created in the thread (the lobby's too)
    edits: int = 0  # edits of those messages
    window_posts: int = 0  # of those messages, boards posted (created) at a position in a response window
    pings: dict[int, int] = field(default_factory=dict)  # person -> created messages that notified them
    dms: dict[int, int] = field(default_factory=dict)  # person -> direct messages among those pings
    real_turns: dict[int, int] = field(default_factory=dict)  # person -> turns waited on with a real choice
    waits: dict[int, int] = field(default_factory=dict)  # person -> runs of positions the bot waited on them
    windows_waited: int = 0  # positions in a response window in which a person acted
    played_for: Counter[str] = field(default_factory=Counter)  # SessionEvent.auto -> moves played for someone
    moves: int = 0  # moves the people made through the menus
    wrong_word: int = 0  # replies to a move that offered no move while the bot then waited on the mover
    unpinged_windows: int = 0  # windows that waited on someone away (not here) who got no ping for them
    hidden_forced: int = 0  # lone moves played for someone that they would not have had in a world their
    # opponent cannot tell apart (resampled independently of determinize: tests/hidden_helpers.py)
    retries: int = 0  # menus found out of date (the position changed under the person), tried again
    seconds: float = 0.0

    @property
    def total_pings(self) -> int:
        """Pings of both people."""
        return sum(self.pings.values())


@dataclass
class Position:
    """One position in which a person is to act, read under the match lock."""

    info: MatchInfo
    game: Any
    state: Any  # a copy of the real state
    turn: tuple[Any, ...]
    legal: dict[int, list[str]]  # person to act -> their legal move keys


async def position(h: Harness, mid: int) -> Position:
    """The match now: its picture, a copy of its state, the game's turn key and the people's legal moves."""
    s = h.sessions
    async with s._lock_for(mid):
        live = await s._live(mid)
        info = s._info(live)
        match = live.match
        if match is None or info.over:
            return Position(info, None, None, (), {})
        game = match.game
        state = game.from_json(game.to_json(match.state))
    names = [info.seat_name(i) for i in range(len(info.seats))]
    turn = tuple(presentation_of(game).status(game.view(state, None), names).turn)
    legal = {}
    for user in info.users_to_act:
        seat = info.seat_of(user)
        if seat is not None:
            legal[user] = [a.key for a in game.legal_actions(state, seat)]
    return Position(info, game, state, turn, legal)


def index_path(moves: list[Move], key: str) -> tuple[tuple[int, ...], Path]:
    """The menu's option indexes (and labels) leading to the move with this key."""
    target = next(m for m in moves if m.key == key)
    path: tuple[int, ...] = ()
    for depth in range(len(target.path)):
        level = walk(moves, path)
        assert level is not None
        path = (*path, level.options.index(target.path[depth]))
    return path, target.path


def _path_of(custom_id: str, prefix: str) -> tuple[int, ...] | None:
    """The option path in a menu custom_id of this match and state (None for another or a page button)."""
    if not custom_id.startswith(prefix) or ":p" in custom_id[len(prefix) :]:
        return None
    rest = custom_id[len(prefix) :]
    return tuple(int(x) for x in rest.split(".")) if rest else ()


async def press_to(
    h: Harness,
    user: FakeUser,
    menu: FakeMessage,
    where: tuple[int, int],
    target: tuple[int, ...],
    labels: Path,
) -> tuple[bool, FakeMessage]:
    """Press through the menu to the option path `target`; whether the move was played (False: out of date),
    and the last message (the reply to the move).

    A level is either buttons (one per option) or a select menu of 25 options a page ("Next ▶" pages on).
    """
    mid, sid = where
    for _ in range(MAX_PRESSES):
        if PLAYED in menu.text():
            return True, menu
        ids = [c.get("custom_id", "") for c in menu.iter_components()]
        if STALE in menu.text() or not any(
            i.startswith((f"ag:mv:{mid}:{sid}:", f"ag:ms:{mid}:{sid}:")) for i in ids
        ):
            return False, menu  # out of date, not (or no longer) this person's turn, or drawn elsewhere
        selects = [(s, _path_of(s.get("custom_id", ""), f"ag:ms:{mid}:{sid}:")) for s in menu.selects]
        on_way = [(s, p) for s, p in selects if p is not None and p == target[: len(p)]]
        if on_way:
            select, path = on_way[0]
            value = str(target[len(path)])
            if value in {o["value"] for o in select.get("options", [])}:
                ix = await h.fake.select(user, menu, [value], custom_id=select["custom_id"])
            else:
                ix = await h.fake.click(user, menu, "Next ▶")
        else:
            buttons = [(b, _path_of(b.get("custom_id", ""), f"ag:mv:{mid}:{sid}:")) for b in menu.buttons]
            ahead = [(len(p), b) for b, p in buttons if p and p == target[: len(p)]]
            if not ahead:
                raise AssertionError(f"no way to {labels} in the menu: {menu.text()!r}")
            depth, button = max(ahead, key=lambda x: x[0])
            shown = str(button["label"]).rstrip("…")  # a long label is cut short
            assert labels[depth - 1].startswith(shown), (button["label"], labels)
            ix = await h.fake.click(user, menu, custom_id=button["custom_id"])
        menu = await ix.wait_reply(timeout=30)
    raise AssertionError(f"{MAX_PRESSES} presses did not reach {labels}")


def _drawn_at(message: FakeMessage) -> int | None:
    """The position (state_id) a board message was posted at: the footer of its first version."""
    first = str(message.history[0].get("components")) if message.history else message.text()
    found = FOOTER.search(first)  # a V2 board's footer line (its first version's components)
    return int(found[1]) if found else None


def count_messages(
    h: Harness, thread: FakeChannel, since: int, window_at: dict[int | None, str], record: GameRecord
) -> None:
    """Count the bot's public messages in the thread since the message id `since`, their edits, the boards
    posted in a window (`window_at`: state_id -> window), and the pings of everything the bot created since:
    live mentions anywhere, and direct messages."""
    fake, bot_id = h.fake, h.fake.bot_user.id
    new = [m for m in fake.all_messages() if m.id > since and m.author.id == bot_id and not m.ephemeral]
    mine = [m for m in new if m.channel_id == thread.id]
    record.messages = len(mine)
    filled = sum(1 for m in mine if m.history and int(m.history[0].get("flags") or 0) & LOADING)
    record.edits = sum(m.edit_count for m in mine) - filled  # filling in a deferred reply is no edit

    def recipient(m: FakeMessage) -> int | None:
        channel = fake.channels[m.channel_id]
        return channel.recipient.id if channel.type == DM and channel.recipient is not None else None

    record.window_posts = sum(1 for m in mine if window_at.get(_drawn_at(m), ""))
    for user in record.pings:
        record.dms[user] = sum(1 for m in new if recipient(m) == user)
        record.pings[user] = sum(1 for m in new if user in m.pings) + record.dms[user]


PACE_MENU = "Pace: the server's default (host: choose live or async)"


async def start_game(
    h: Harness, game: str, people: list[FakeUser], pace: str = ""
) -> tuple[FakeChannel, int]:
    """/play in #general by the first person, the second joins, the host picks the table's pace (if one is
    given and the game has response windows), the first starts (seat choices random)."""
    host, guest = people
    thread, lobby, mid = await h.open_lobby(host, game)
    await h.press(guest, lobby, "Join")
    lobby = h.fake.message(lobby.id)
    if pace and any(s.get("placeholder") == PACE_MENU for s in lobby.selects):
        await (await h.fake.select(host, lobby, [pace], placeholder=PACE_MENU)).wait_reply()
    await h.press(host, h.fake.message(lobby.id), "Start")
    return thread, mid


def _auto(event: SessionEvent) -> str:
    """Why the move was played for someone ("" when its seat chose it; older bots lack the field)."""
    return str(getattr(event, "auto", "") or "")


async def set_windows(h: Harness, people: list[FakeUser], windows: str) -> None:
    """Store each person's window setting for the fake guild, as the front end keeps it (through the bot's
    `prefs` when it has them, which remember settings in memory; else in the store's user settings)."""
    guild = h.fake.guild.id
    prefs = getattr(h.bot, "prefs", None)
    for p in people:
        if prefs is not None:
            await prefs.set_windows(guild, p.id, windows)
        else:
            await h.store.set_user_setting(p.id, f"windows:{guild}", windows)


def _here(moved: dict[int, float], user: int, now: float) -> bool:
    """Whether the person moved in the game in the last few minutes (the bot spares them a ping)."""
    return now - moved.get(user, float("-inf")) < HERE


def _pings(h: Harness, user: int, since: int) -> int:
    """Messages the bot created since the message id `since` that notified this person (DMs included)."""
    fake = h.fake
    new = [m for m in fake.all_messages() if m.id > since and m.author.id == fake.bot_user.id]
    dm = [m for m in new if (c := fake.channels[m.channel_id]).type == DM and c.recipient is not None]
    return sum(1 for m in new if user in m.pings) + sum(
        1 for m in dm if fake.channels[m.channel_id].recipient.id == user
    )


async def _hidden_forced(h: Harness, mid: int, before: set[int]) -> int:
    """Of the moves played for someone as their lone move (at these state_ids), how many were not lone in
    some world an opponent cannot tell apart (resampled as tests/hidden_helpers.py does, independently of
    the game's determinize)."""
    record = await h.store.get_match(mid)
    rows = await h.store.load_log(mid)
    game = games()[record.game_id]
    n = len(record.seats)
    state = game.setup(n, record.seed, record.options)
    count, rng = 0, random.Random(mid)
    for i, row in enumerate(rows):
        if i in before:
            worlds = (resample(game, state, n, o, rng) for o in range(n) if o != row.seat for _ in range(20))
            count += any(len(game.legal_actions(w, row.seat)) != 1 for w in worlds)
        game.apply(state, find_action(game, state, row.seat, row.key))
    return count


def pick(pos: Position, user: int, mode: str, rng: random.Random) -> str:
    """The key of the move this person makes: the easy AI's choice, or a random legal move."""
    if mode == "random":
        return rng.choice(pos.legal[user])
    seat = pos.info.seat_of(user)
    assert seat is not None
    return choose_move(pos.game, pos.state, seat, "easy", rng.randrange(1 << 31))


async def play_game(
    h: Harness,
    game: str,
    people: list[FakeUser],
    *,
    windows: str = "auto",
    mode: str = "easy",
    seed: int = 0,
    pause: float = PAUSE,
    pace: str = "async",
    max_moves: int = MAX_MOVES,
    max_seconds: float = MAX_SECONDS,
) -> GameRecord:
    """Open, start and play one game of two people to its end (or a cap); its counters.

    Asynchronous play: the session clock (`h.clock`) moves on `pause` seconds before a person acts after
    someone else's move (they were away); a person who goes on after their own move acts at once. The host
    sets the table's pace (`pace`, "" for the server's default) where the game has response windows.
    """
    assert mode in MODES, mode
    t0 = time.monotonic()
    record = GameRecord(game, windows, pings={p.id: 0 for p in people})
    by_id = {p.id: p for p in people}
    rng = random.Random(seed)
    turns: dict[int, int] = {p.id: 0 for p in people}  # turns (runs of one turn key) with a real choice
    turn: tuple[Any, ...] | None = None  # the turn key of the last position seen
    chose: set[int] = set()  # who had a real choice in it
    waiting: set[int] = set()  # whom the bot waited on at the last position seen
    waited: set[int] = set()
    events: list[SessionEvent] = []
    await set_windows(h, people, windows)
    since = max((m.id for m in h.fake.all_messages()), default=0)
    last: int | None = None  # who made the last move
    moved: dict[int, float] = {}  # person -> the session clock at their last move
    before_last: dict[int, int] = {}  # person -> their pings before the last move was pressed
    in_a_row = 0  # menus found out of date since the last move
    unsubscribe = h.sessions.subscribe(events.append)
    try:
        thread, mid = await start_game(h, game, people, pace)
        record.match_id = mid
        while True:
            await h.settle()
            pos = await position(h, mid)
            if pos.info.over:
                record.over = True
                break
            if record.moves >= max_moves or time.monotonic() - t0 > max_seconds:
                record.stopped = f"cap: {record.moves} moves, {time.monotonic() - t0:.0f} s"
                await h.sessions.abandon(mid, None, force=True)
                break
            if not pos.legal:
                raise AssertionError(f"nobody to act in match {mid}: {pos.info}")
            if in_a_row >= MAX_RETRIES:
                raise AssertionError(f"{in_a_row} menus in a row were out of date in match {mid}")
            if pos.turn != turn:  # a new turn (the same key again later is another turn)
                turn, chose = pos.turn, set()
            for user, keys in pos.legal.items():
                if len(keys) > 1 and user not in chose:
                    chose.add(user)
                    turns[user] += 1
                if user not in waiting:
                    record.waits[user] = record.waits.get(user, 0) + 1
            waiting = set(pos.legal)
            user = pos.info.users_to_act[0]
            moves = named_moves(pos.info, await h.sessions.moves_for(mid, user))
            if (await h.sessions.get(mid)).state_id != pos.info.state_id:
                record.retries, in_a_row = record.retries + 1, in_a_row + 1
                continue  # the bot moved meanwhile (a window passed by itself)
            target, labels = index_path(moves, pick(pos, user, mode, rng))
            if pos.info.window and pos.info.state_id not in waited and not _here(moved, user, h.clock[0]):
                pinged = _pings(h, user, since)
                record.unpinged_windows += pinged == before_last.get(user, pinged)
            if user != last:
                h.clock[0] += pause
            pings_now = {u: _pings(h, u, since) for u in by_id}
            hand = await h.press(by_id[user], h.board(thread), HAND)
            played, reply = await press_to(h, by_id[user], hand, (mid, pos.info.state_id), target, labels)
            if played:
                record.moves, last, in_a_row = record.moves + 1, user, 0
                moved[user] = h.clock[0]
                if pos.info.window:
                    waited.add(pos.info.state_id)
                await h.settle()
                before_last = pings_now
                offered = any(
                    str(c.get("custom_id", "")).startswith(("ag:mv:", "ag:ms:"))
                    for c in reply.iter_components()
                )
                after = await position(h, mid)
                record.wrong_word += not offered and user in after.legal
            else:
                record.retries, in_a_row = record.retries + 1, in_a_row + 1
        await h.settle()
        window_at: dict[int | None, str] = {
            e.info.state_id: e.info.window for e in events if e.info.id == mid
        }
        count_messages(h, thread, since, window_at, record)
    finally:
        unsubscribe()
    record.real_turns = turns
    record.windows_waited = len(waited)
    record.played_for = Counter(
        a for e in events if e.kind == "action" and e.info.id == mid and (a := _auto(e))
    )
    forced = {
        e.info.state_id - 1 for e in events if e.kind == "action" and e.info.id == mid and _auto(e) == FORCED
    }
    record.hidden_forced = await _hidden_forced(h, mid, forced)
    record.seconds = time.monotonic() - t0
    return record


# -- time away over a simulated fortnight (issue 33) -----------------------------------------------------

DAY, HOUR = 86400.0, 3600.0
AWAY_LINE = "is away until"


@dataclass
class AwayRecord:
    """What a fortnight with someone away cost them (see `away_fortnight`)."""

    games: int = 0
    moves: int = 0
    timeouts: int = (
        0  # timeouts that hit the person who went away (a seat handed to an AI, a forfeit, a skip)
    )
    reminders_away: int = 0  # reminders that pinged them while they were away
    lines: list[int] = field(default_factory=list)  # per game: away lines on its board while they were away
    waited_on_away: int = 0  # (game, hour) in which a game waited on them while they were away


async def _move(h: Harness, mid: int, thread: FakeChannel, user: FakeUser, rng: random.Random) -> bool:
    """The person presses through "My hand & moves" to the easy AI's move; whether it was played."""
    pos = await position(h, mid)
    if user.id not in pos.legal:
        return False
    moves = named_moves(pos.info, await h.sessions.moves_for(mid, user.id))
    target, labels = index_path(moves, pick(pos, user.id, "easy", rng))
    hand = await h.press(user, h.board(thread), HAND)
    played, _ = await press_to(h, user, hand, (mid, pos.info.state_id), target, labels)
    await h.settle()
    return played


async def away_fortnight(
    h: Harness, people: list[FakeUser], games: tuple[str, ...], *, seed: int = 1, days: int = 14
) -> AwayRecord:
    """Two people play `games` at async pace on a server with a 2-day timeout (an AI takes the seat) and a
    reminder every 12 hours. Hour by hour the timers run; alice answers whatever waits on her at once, bob
    looks in every 8 hours, and bob is away for 5 days after the first day (`/away until date:5d`). Counted:
    timeouts that hit bob, the reminders that pinged him while away, and the away lines on each board."""
    alice, bob = people
    admin = h.fake.add_user("admin", admin=True)
    options = {"timeout_minutes": 2 * 24 * 60, "timeout_policy": "ai", "reminder_minutes": 12 * 60}
    await (await h.fake.slash(admin, h.fake.channel, "config", options)).wait_reply()
    await set_windows(h, people, "auto")
    rng = random.Random(seed)
    tables = [await start_game(h, g, people, "async") for g in games]
    record = AwayRecord(games=len(tables))
    start = h.clock[0]
    leave, back = start + DAY, start + 6 * DAY
    seen = {m.id for m in h.fake.all_messages()}
    gone = False
    for hour in range(days * 24):
        h.clock[0] = now = start + hour * HOUR
        if now >= leave and not gone:
            await (await h.fake.slash(bob, h.fake.channel, "away until", {"date": "5d"})).wait_reply()
            await h.settle()
            gone = True
        await h.bot.timers.tick(now)
        await h.settle()
        away = leave <= now < back
        for thread, mid in tables:
            bob_moved, bob_done = False, False  # bob makes one run of moves a look-in (every 8 hours)
            for _ in range(40):  # alice answers at once
                info = await h.sessions.get(mid)
                if info.over:
                    break
                if away and bob.id in info.users_to_act:
                    record.waited_on_away += 1
                mover = alice if alice.id in info.users_to_act else bob
                if mover is bob and (away or hour % 8 or bob_done):
                    break
                if not await _move(h, mid, thread, mover, rng):
                    break
                record.moves += 1
                bob_done = bob_moved and mover is alice
                bob_moved = bob_moved or mover is bob
            if away and hour % 24 == 12 and not (await h.sessions.get(mid)).over:
                record.lines.append(h.board(thread).text().count(AWAY_LINE))
        new = [m for m in h.fake.all_messages() if m.id not in seen]
        seen |= {m.id for m in new}
        record.reminders_away += sum(1 for m in new if away and "reminder" in m.content and bob.id in m.pings)
        record.timeouts += sum(
            1 for m in new if "bob ran out of time" in m.content or "bob forfeited" in m.content
        )
    return record
