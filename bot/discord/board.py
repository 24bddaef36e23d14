"""The public board: one message per turn in the game's channel, built from the spectator view only.

Every SessionEvent of a started game marks its board dirty; one task per match redraws it (coalescing bursts
of AI moves), rendering off the event loop. A new message is posted when the turn passes to a person (the
game's turn key changes: a new turn, round or Wave) outside a response window, when someone the bot waits
on was not pinged yet, and for the result; a live window, a forced step, a move played for someone and an
AI move edit the current message instead. A person is pinged (the new message's allowed mentions) only when
the bot waits on them (bot/sessions/automatic.py decides what is played for them instead, from what their
opponents may see), never when they moved in this game in the last few minutes (they are there) or are away
(/away), and at most once a turn; where windows wait like a turn (an async table), once a wait: a window
and the turn it returns to may be hours apart. An edit names people but notifies nobody, so a live window
tells the people it waits on by direct message if they asked for DMs (/notify dms:on). While a move is
about to be played for someone, or an AI seat is to answer, the board waits for it (one drawing shows a
person's move and the AI's answer). A new message takes the "My hand & moves" button away from the one it
supersedes.

The board message (channel, message id, the state_id and turn it shows, whom it pinged, the last public
events) is stored, so edits carry on after a restart, and at start-up every game whose latest state has no
board gets it (with the ping). A game thread archived by Discord is unarchived and the post retried (error
50083); at the end the result is posted and the bot's own thread archived. A board Discord failed to take
(5xx, a network error, a 429 discord.py stopped retrying) is tried again after a growing wait; a new post
carries a nonce that Discord enforces, kept across these tries, so a post Discord created but answered with
an error never appears twice.
Buttons: "My hand & moves" (menus.HandButton), "Log" and "Rules" (pages.LogButton, pages.RulesButton),
"Rematch" (mine.RematchButton); each built by its own class.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import secrets
from collections import deque
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord

from bot import ops
from bot.discord.away import OnBoard, away_line
from bot.discord.common import (
    StaticLayout,
    StaticView,
    archive_own_thread,
    channel_of,
    direct,
    drawn_names,
    fits,
    jump_link,
    lesson_text,
    seat_label,
    seat_names,
    unarchived,
    who,
    with_names,
    without,
)
from bot.discord.learn import real_table_button
from bot.discord.menus import HandButton
from bot.discord.mine import RematchButton
from bot.discord.pages import LogButton, RulesButton
from bot.discord.permissions import board_refused
from bot.discord.prefs import table_kind
from bot.discord.settings import Settings
from bot.discord.standings import result_changes
from bot.drawing import Drawing
from bot.sessions import MatchInfo, SessionEvent, SessionManager
from bot.sessions.packs import pack_of
from bot.sessions.types import TableSnapshot
from bot.store import (
    ABANDONED,
    ACTIVE,
    BROKEN,
    FINISHED,
    LOBBY,
    BoardRecord,
    DiskFull,
    StoreUnavailable,
    outage_backoff,
)
from engine.registry import get as get_game
from engine.table import describe
from engine.table.lesson import practice
from engine.table.present import Status, has_windows, of
from engine.text import printable

log = logging.getLogger("bot.discord.board")

RECENT = 6  # public events shown under the board
CLOSE_WAIT = 5.0  # seconds a shutdown waits for pending boards before cancelling them
RESULT = "result"  # the turn key a board showing the result is stored with
HERE = 300.0  # seconds after their own move in which a person counts as there (no ping)
NOBODY = discord.AllowedMentions.none()  # an edited board names people but pings nobody
RETRY_WAITS = (1.0, 2.0, 5.0, 15.0, 30.0, 60.0, 120.0, 300.0)  # a board Discord failed to take, tried again
# Failures of the moment: Discord's 5xx, a network error, a timeout, a rate limit discord.py gave up on (it
# waits and retries 429s itself, five times; then, or past max_ratelimit_timeout, it raises).
AGAIN = (discord.DiscordServerError, discord.RateLimited, aiohttp.ClientError, TimeoutError)
COLOR = {ACTIVE: 0x3B82F6, FINISHED: 0x22C55E, ABANDONED: 0x6B7280, BROKEN: 0xEF4444}


@dataclass(slots=True)
class Posted:
    """The current board message of a match (message_id 0: none known)."""

    channel_id: int
    message_id: int
    turn: Any
    pinged: frozenset[int]
    state_id: int = -1
    v2: bool | None = None  # laid out by Components V2 (None: not known, e.g. read from the store)


def status_of(info: MatchInfo, view: dict[str, Any]) -> Status:
    """The game's own words for where it stands (engine.table.present), from the spectator view."""
    return of(get_game(info.game_id)).status(view, seat_names(info))


def turn_key(status: Status, info: MatchInfo) -> Any:
    """What identifies "one turn": the game's own turn key, else who is to act."""
    return status.turn or tuple(info.to_act)


def board_items(info: MatchInfo, *, hand: bool = True) -> list[discord.ui.Item[Any]]:
    """My hand & moves (while the game runs, on the current board only), Rematch (once it has finished; a
    practice game's is Play for real), Log and Rules."""
    items: list[discord.ui.Item[Any]] = []
    if info.status == FINISHED:  # a practice game's next step is a real table
        items.append(real_table_button(info.id) if practice(info.options) else RematchButton(info.id).item)
    if info.status == ACTIVE and hand:
        items.append(HandButton(info.id, info.state_id).item)
    items.append(LogButton(info.id, -1, emoji="📜").item)
    items.append(RulesButton(info.game_id).item)
    return items


def board_buttons(info: MatchInfo, *, hand: bool = True) -> StaticView:
    """The board's buttons as a classic view (a board posted as an embed before Components V2)."""
    view = StaticView()
    for item in board_items(info, hand=hand):
        view.add_item(item)
    return view


def board_alt(info: MatchInfo, view: dict[str, Any]) -> str:
    """The board image's alt text, from the spectator view it draws (engine/table/describe.py)."""
    return describe.board_alt(of(get_game(info.game_id)), info.title, view, drawn_names(info))


def _description(info: MatchInfo, status: Status) -> str:
    """The game's headline and pending decision, then who must act (mentions) or how it ended."""
    if info.status == FINISHED:
        lines = ["**The game is over.**" + (f" {info.note}" if info.note else "")]
        if status.headline:
            lines.append(status.headline)
        return "\n".join(lines)
    if info.status != ACTIVE:
        return f"**{info.note or 'This game has stopped.'}**"
    lines = [f"**{status.headline}**"] if status.headline else []
    if status.prompt:
        lines.append(status.prompt)
    names = [who(info, s) for s in info.to_act]
    if status.window and names:
        lines.append(f"**{status.window}:** {', '.join(names)} — play one or pass (*My hand & moves*).")
    elif len(names) > 1:
        lines.append(f"**Everyone at once:** {', '.join(names)} — make your choice (*My hand & moves*).")
    elif names:
        lines.append(f"**Turn:** {names[0]}")
    return "\n".join(lines)


def _result(info: MatchInfo) -> str:
    if info.returns is None:
        return ""
    names = seat_names(info)
    winners = [i for i, r in enumerate(info.returns) if r > 0]
    if not winners:
        return "Nobody wins."
    text = " and ".join(
        f"{names[i]}" + (f" (<@{info.seats[i].user_id}>)" if not info.seats[i].is_ai else "") for i in winners
    )
    if len(winners) == len(info.returns) > 1:  # every seat shares the win: a draw, not a joint victory
        return f"🤝 A draw: {text}."
    return f"🏆 {text} win{'s' if len(winners) == 1 else ''}!"


def _rated(kind: str, ratings: str) -> str:
    """What a finished game did to ratings: each person's change on this server (`ratings`: "" when none
    were recorded), or that a casual or practice game (its table_kind) is not rated."""
    if kind != "Ranked":
        return f"{kind} game: not rated."
    return f"**Rating on this server**\n{ratings}" if ratings else ""


def board_layout(
    info: MatchInfo,
    view: dict[str, Any],
    recent: list[str],
    settings: Settings,
    status: Status | None = None,
    ratings: str = "",
    away: OnBoard | None = None,
    *,
    ping: str = "",
    buttons: bool = True,
    alt: str = "",
    lesson: str = "",
) -> StaticLayout:
    """The board as one Components V2 message: the line that pings (new messages only notify), then a
    container in the status's colour with the game's headline, prompt and whose turn, the image (board.png,
    with its alt text), the result and rating changes once finished, the last events, the scores, who is
    away (bot/discord/away.py), the deadline (with the server's settings as last read) and a footer; then
    the buttons (`buttons`: the board's own; else none, as /game status shows it). `alt`: the image's alt
    text, when the caller has it already (board_alt otherwise). `lesson`: a practice game's guide (after
    the image, before the events: what the learner reads first after the picture)."""
    away = away or OnBoard()
    status = status or status_of(info, view)
    labels = [seat_label(info, i) for i in range(len(info.seats))]  # an AI seat with its level
    scored = of(get_game(info.game_id)).status(view, labels) if labels != seat_names(info) else status
    events = [with_names(info, e) for e in recent[-RECENT:]]
    pace = f" · {settings.pace(info)}" if has_windows(of(get_game(info.game_id))) else ""
    pack = f" · card pack {printable(found[0])} v{found[1]}" if (found := pack_of(info.options)) else ""
    kind = table_kind(info.options)  # Ranked, Casual or Practice
    finished = info.status == FINISHED
    deadline = settings.deadline_line(info, away.since)  # the turn's timeout as a Discord timestamp
    ping, head, lesson, result, rated, *rest = fits([
        ping,
        f"### {info.title} — game #{info.id}\n{_description(info, status)}",
        lesson,
        f"**Result:** {_result(info) or '—'}" if finished else "",
        _rated(kind, ratings) if finished else "",
        "**Last events**\n" + "\n".join(f"• {e}" for e in events) if events else "",
        "**Players**\n" + ("\n".join(scored.scores) or "\n".join(labels) or "—"),
        f"**Away**\n{away.lines}" if away.lines else "",
        f"**Deadline:** {deadline}" if deadline else "",
        f"-# Game #{info.id} · {kind} · move {info.state_id}{pace}{pack} · anyone may look; only players act",
    ])  # fmt: skip
    image = discord.MediaGalleryItem("attachment://board.png", description=alt or board_alt(info, view))
    body: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay(head), discord.ui.MediaGallery(image)]
    body += [discord.ui.TextDisplay(t) for t in (lesson, result, rated, *rest) if t]
    layout = StaticLayout()
    if ping:
        layout.add_item(discord.ui.TextDisplay(ping))
    layout.add_item(discord.ui.Container(*body, accent_colour=COLOR.get(info.status, 0)))
    if buttons:
        layout.add_item(discord.ui.ActionRow(*board_items(info)))
    return layout


def board_file(png: bytes, alt: str) -> discord.File:
    """The board image as an upload (board.png), with its alt text (board_alt)."""
    return discord.File(io.BytesIO(png), "board.png", description=alt)


async def on_board(settings: Settings, info: MatchInfo) -> OnBoard:
    """The time away a match's board shows (nothing for a game not running or outside a server)."""
    if info.guild_id is None or info.status != ACTIVE:
        return OnBoard()
    server = await settings.of(info.guild_id)
    now, names = settings.clock(), seat_names(info)
    lines, gone = [], set()
    for seat, s in enumerate(info.seats):
        if s.user_id is None or s.is_ai:
            continue
        if (stay := await settings.away.running(info.guild_id, s.user_id, server)) is not None:
            lines.append(away_line(names[seat], stay, now, server))
            gone.add(s.user_id)
    return OnBoard("\n".join(lines), await settings.clock_start(info, server), frozenset(gone))


def _again(e: discord.HTTPException) -> bool:
    """Whether Discord refused for the moment (a 5xx, or a 429 discord.py stopped retrying)."""
    return isinstance(e, discord.DiscordServerError) or e.status == 429


def _json_key(key: Any) -> Any:
    """A turn key as it reads back from the store (tuples become lists)."""
    return json.loads(json.dumps(key, default=str))


class Boards:
    """Posts and updates the public board of every started match."""

    def __init__(
        self, client: discord.Client, sessions: SessionManager, settings: Settings, drawing: Drawing
    ) -> None:
        self.client, self.sessions, self.settings, self.drawing = client, sessions, settings, drawing
        self.store = sessions.store
        self.posted: dict[int, Posted] = {}
        self.recent: dict[int, deque[str]] = {}
        self._dirty: set[int] = set()
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._resuming: asyncio.Task[None] | None = None
        self._moved: dict[tuple[int, int], float] = {}  # (match, person) -> when they last moved
        self._nonces: dict[int, tuple[Any, str]] = {}  # match -> (what a failed post showed, its nonce)
        # match -> its board message as Discord returned it after our last post or edit: what _retire sends
        # again without My hand & moves, with no request to read it back
        self._shown: dict[int, discord.Message] = {}
        self._closed = False
        # A database outage ends: post the boards of moves whose commit went unanswered meanwhile.
        self.store.outage.listeners.append(self.resume)

    async def on_event(self, event: SessionEvent) -> None:
        """Session subscriber: remember public event texts, schedule a redraw (the deadline is written with
        the move by the session manager; a seat handed to an AI gets one from the timers)."""
        info = event.info
        if info.origin != "discord" or info.channel_id is None or info.status == LOBBY:
            return
        texts = [e.text for e in event.visible_events(None)]
        if event.kind in ("action", "undo") and event.user is not None and not event.auto:
            self._moved[(info.id, event.user)] = self.sessions.clock()  # they are there
        if texts:
            with contextlib.suppress(StoreUnavailable, DiskFull):  # the board is redrawn without these lines
                (await self.recent_for(info.id)).extend(texts)
        if event.kind in ("started", "action", "undo", "left", "finished", "abandoned", "broken"):
            self.schedule(info.id)

    async def recent_for(self, mid: int) -> deque[str]:
        """The last public event texts of a match (loaded from the store after a restart)."""
        await self._load(mid)
        return self.recent.setdefault(mid, deque(maxlen=RECENT))

    async def _load(self, mid: int) -> Posted | None:
        """The match's current board message, from memory or the store."""
        if mid in self.posted or mid in self.recent:
            return self.posted.get(mid)
        stored = await self.store.board(mid)
        self.recent[mid] = deque(stored.recent if stored else (), maxlen=RECENT)
        if stored is None:
            return None
        posted = Posted(
            stored.channel_id, stored.message_id, stored.turn, frozenset(stored.pinged), stored.state_id
        )
        self.posted[mid] = posted
        return posted

    def schedule(self, mid: int) -> None:
        """Redraw this match's board soon (once, however many changes arrive meanwhile)."""
        if self._closed:
            return
        self._dirty.add(mid)
        if mid not in self._tasks:
            self._tasks[mid] = asyncio.get_running_loop().create_task(self._run(mid), name=f"board-{mid}")

    def resume(self) -> None:
        """At start-up: once connected, draw the board of every game (of this process's shards) whose latest
        state has none."""
        self._resuming = asyncio.get_running_loop().create_task(self._resume(), name="boards-resume")

    async def _resume(self) -> None:
        await self.client.wait_until_ready()
        try:
            missing = await self.store.unposted_boards(shards=self.sessions.shards)
        except (StoreUnavailable, DiskFull):  # looked for again when the outage ends (see __init__)
            return
        except Exception:
            log.exception("could not list the boards to post after the restart")
            return
        if missing:
            log.info("posting the boards of %d games changed before the restart", len(missing))
        for mid in missing:
            self.schedule(mid)

    async def flush(self) -> None:
        """Wait until every scheduled redraw is done (tests, shutdown)."""
        if self._resuming is not None:
            await asyncio.gather(self._resuming, return_exceptions=True)
        while self._tasks:
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def close(self) -> None:
        """Let pending redraws finish for a few seconds, then cancel the rest (start-up posts them)."""
        self._closed = True
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self.flush()), CLOSE_WAIT)
        pending = [t for t in (self._resuming, *self._tasks.values()) if t is not None]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    async def _run(self, mid: int) -> None:
        failed, outage = 0, 0.0
        try:
            while mid in self._dirty:
                self._dirty.discard(mid)
                try:
                    with ops.tagged(mid):
                        await self.redraw(mid)
                    failed, outage = 0, 0.0
                except asyncio.CancelledError:
                    raise
                except (StoreUnavailable, DiskFull):  # logged once per outage by the store: kept, tried later
                    outage = outage_backoff(outage)
                    self._dirty.add(mid)
                    await asyncio.sleep(outage)
                except (*AGAIN, discord.HTTPException) as e:
                    if isinstance(e, discord.HTTPException) and not _again(e):
                        log.exception("could not update the board of match %s", mid)
                        continue
                    if failed == len(RETRY_WAITS):  # ten minutes of failures: wait for a change
                        log.error("match %s: the board could not be posted (%s); giving up for now", mid, e)
                        failed = 0
                        continue
                    wait, failed = RETRY_WAITS[failed], failed + 1
                    log.warning("match %s: the board could not be posted (%s); again in %.0f s", mid, e, wait)
                    self._dirty.add(mid)
                    await asyncio.sleep(wait)
                except Exception:
                    log.exception("could not update the board of match %s", mid)
        finally:
            self._tasks.pop(mid, None)

    def _nonce(self, mid: int, shows: Any) -> str:
        """The nonce of a new board post: the same while the post of this very board is tried again."""
        kept = self._nonces.get(mid)
        if kept is None or kept[0] != shows:
            kept = self._nonces[mid] = (shows, secrets.token_hex(8))
        return kept[1]

    async def redraw(self, mid: int) -> None:
        """Post or edit the board of a match from its spectator view."""
        sessions = self.sessions
        seen = await sessions.table_snapshot(mid)  # the one read of a board: what _show draws, too
        info = seen.info
        if info.status == LOBBY or info.channel_id is None:
            return
        channel = await channel_of(self.client, info.channel_id)
        if channel is None:
            log.warning("match %s: channel %s is gone", mid, info.channel_id)
            return
        old = await self._load(mid)
        shown = (old.turn, old.state_id) if old is not None else None
        if info.status == FINISHED and shown == (RESULT, info.state_id):
            return  # the result is posted and its thread archived: a late redraw would only unarchive it
        if info.status in (ABANDONED, BROKEN):
            if old is not None or info.state_id > 0:  # a cancelled lobby has no board to close
                await self._stopped(info, channel)
            return
        if info.status == ACTIVE and seen.automating:
            return  # a move is being played for someone: its own event redraws the board after it
        answering = info.status == ACTIVE and not info.users_to_act
        people = any(not s.is_ai for s in info.seats)  # (an all-AI table shows every move)
        thinking = sessions.ai_task(mid) if answering and people else None
        if thinking is not None:  # an AI answers a person next: one board shows the move and its answer
            thinking.add_done_callback(lambda _: self.schedule(mid))
            return
        with ops.BOARD_SECONDS.time():  # only the boards drawn and sent (not the redraws that wait)
            await self._show(mid, seen, channel, old)

    async def _show(self, mid: int, seen: TableSnapshot, channel: Any, old: Posted | None) -> None:
        """Draw the board and post it anew or edit the current message (see the module doc for which)."""
        sessions = self.sessions
        info, view = seen.info, seen.view  # the spectator view: nothing private ever goes public
        theme = await self.settings.theme(info.guild_id)
        png = await self.drawing.board(info.game_id, view, drawn_names(info), info.options, theme)
        status = status_of(info, view)
        ratings = await result_changes(sessions.store, info) if info.status == FINISHED else ""
        away = await on_board(self.settings, info)
        recent = list(self.recent.get(mid, ()))
        alt = board_alt(info, view)  # worded once, whatever is tried below

        lesson = lesson_text(info, seen.lesson)

        def layout(ping: str) -> StaticLayout:
            return board_layout(
                info, view, recent, self.settings, status, ratings, away, ping=ping, alt=alt, lesson=lesson
            )

        key = RESULT if info.status == FINISHED else _json_key(turn_key(status, info))
        # the people the bot waits on (the result names everyone and pings nobody)
        waits = frozenset() if info.status == FINISHED else seen.waits
        here = self._here(mid)

        def file() -> discord.File:
            return board_file(png, alt)

        known = old is not None and old.message_id != 0 and old.channel_id == channel.id
        if known and old is not None and old.v2 is None:  # stored before a restart: ask the message
            old.v2 = await self._is_v2(channel, old.message_id)
        same_turn = known and old is not None and (old.turn == key or bool(info.window))
        already = old.pinged if same_turn and old is not None else frozenset()
        waits_like_turns = self.settings.windows_wait(info) and has_windows(of(get_game(info.game_id)))
        if waits_like_turns and old is not None and old.state_id != info.state_id:
            already &= waits  # once a wait (a turn, a window, the turn again after a window): hours apart
        # at most once a turn (where windows wait, a wait); never someone who is here, or someone away
        due = waits - already - here - away.gone
        already |= waits & away.gone  # told by the away line: coming back pings nobody
        live_window = bool(info.window) and not waits_like_turns  # it passes soon: an edit, and DMs
        to_ping = frozenset() if live_window else due
        # a board posted as an embed before Components V2 cannot become one: a new board replaces it
        editable = old is not None and known and old.v2 is not False
        if old is not None and editable and not self._posts_anew(info, old, key, to_ping):
            message = channel.get_partial_message(old.message_id)
            try:
                text = self._ping(info, status)
                self._shown[mid] = await unarchived(
                    channel,
                    lambda: message.edit(view=layout(text), attachments=[file()], allowed_mentions=NOBODY),
                )
            except (discord.NotFound, discord.Forbidden):
                pass  # deleted by someone, or we may no longer embed/attach here: post anew (or explain)
            else:
                told = await self._tell_privately(info, due, old.message_id) if live_window else frozenset()
                turn = old.turn if info.window else key  # a window belongs to the turn it opens in
                await self._save(
                    mid, Posted(channel.id, old.message_id, turn, already | told, info.state_id, v2=True)
                )
                return
        ping = self._ping(info, status)
        mentions = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(u) for u in to_ping]
        )
        nonce = self._nonce(mid, (info.state_id, info.status, key))
        try:
            sent = await unarchived(
                channel,
                lambda: channel.send(view=layout(ping), file=file(), allowed_mentions=mentions, nonce=nonce),
            )
        except discord.Forbidden as refused:  # a missing channel permission: tell the channel, in words
            await board_refused(self.client, channel, info, refused, board_buttons(info))
            return
        self._nonces.pop(mid, None)
        shown, self._shown[mid] = self._shown.get(mid), sent
        turn = old.turn if info.window and old is not None and known else key  # a window is its turn's
        await self._save(mid, Posted(channel.id, sent.id, turn, already | to_ping, info.state_id, v2=True))
        if old is not None and known:
            await self._retire(channel, old.message_id, info, shown)
        if info.over:
            await archive_own_thread(self.client, channel)
            self.forget(mid)

    async def _tell_privately(
        self, info: MatchInfo, users: frozenset[int], message_id: int
    ) -> frozenset[int]:
        """A live window that waits on people edits the board, which notifies nobody: those who
        asked for direct messages (/notify dms:on) get one with a link to the board; the people told."""
        if not users or info.channel_id is None:
            return frozenset()
        link = jump_link(info.guild_id, info.channel_id, message_id)
        text = f"🪟 {info.title} game #{info.id}: the {info.window} waits for your answer — {link}"
        return frozenset(await direct(self.client, self.store, tuple(sorted(users)), text))

    @staticmethod
    def _posts_anew(info: MatchInfo, old: Posted, key: Any, to_ping: frozenset[int]) -> bool:
        """Whether this change gets a new board message rather than an edit of the current one: the result;
        the turn passing to a person (or a new round or Wave) outside a response window; or someone the bot
        waits on who was not pinged yet (in the same turn; where windows wait like a turn, in this wait). A
        live window, a forced step, a move played for someone and an AI move edit the board."""
        if info.status == FINISHED:  # the result, once (a forfeit ends a game without a move)
            return old.turn != RESULT
        if old.state_id == info.state_id:
            return False  # the same position drawn again (a seat handed over)
        if not info.users_to_act:
            return False
        if info.window:  # a window that waits like a turn on someone not here pings them, as a turn does
            return bool(to_ping)
        return old.turn != key or bool(to_ping)

    def _here(self, mid: int) -> frozenset[int]:
        """The people who moved in this game in the last few minutes: they are there, so no ping."""
        now = self.sessions.clock()
        return frozenset(u for (m, u), at in self._moved.items() if m == mid and now - at < HERE)

    async def _save(self, mid: int, posted: Posted) -> None:
        """Remember the board message, in memory and in the store."""
        self.posted[mid] = posted
        recent = tuple(self.recent.get(mid, ()))
        await self.store.save_board(
            BoardRecord(
                mid, posted.channel_id, posted.message_id, posted.state_id, posted.turn,
                tuple(sorted(posted.pinged)), recent,
            )
        )  # fmt: skip

    async def _is_v2(self, channel: Any, message_id: int) -> bool | None:
        """Whether a board message is laid out by Components V2 (False: an embed board posted before them;
        None: the message could not be read)."""
        try:
            message = await channel.fetch_message(message_id)
        except discord.HTTPException:
            return None
        return bool(message.flags.components_v2)

    async def _retire(
        self, channel: Any, message_id: int, info: MatchInfo, shown: discord.Message | None = None
    ) -> None:
        """Take "My hand & moves" away from a superseded board (Log and Rules stay). A V2 edit replaces
        every component, so the board's layout as Discord holds it (`shown`, as our last post or edit of it
        returned it; else read back) is sent again without the button; an embed board (posted before
        Components V2) gets its classic buttons without it."""
        try:
            known = shown is not None and shown.id == message_id
            message = shown if known and shown is not None else await channel.fetch_message(message_id)
            if message.flags.components_v2:
                layout = StaticLayout.of(message)
                if not without(layout, HandButton.__discord_ui_compiled_template__):
                    return  # retired already
                await unarchived(channel, lambda: message.edit(view=layout))
            else:
                await unarchived(channel, lambda: message.edit(view=board_buttons(info, hand=False)))
        except discord.HTTPException as e:
            log.info("match %s: could not retire board %s: %s", info.id, message_id, e)

    def _ping(self, info: MatchInfo, status: Status) -> str:
        """The line above the board: who is waited for and how (only new messages notify, and only the people
        their allowed mentions name)."""
        if info.status == FINISHED:
            people = " ".join(f"<@{s.user_id}>" for s in info.seats if not s.is_ai and s.user_id is not None)
            return f"Game over! {people}".strip()
        if not info.users_to_act:
            return f"Waiting for {', '.join(who(info, s) for s in info.to_act) or '…'}."
        mentions = " ".join(f"<@{u}>" for u in info.users_to_act)
        if status.window:  # a response window: the people it waits for may answer it, or let it pass
            at = self.settings.pass_time(info)
            by_itself = f" It passes by itself <t:{int(at)}:R>." if at is not None else ""
            return f"{mentions}, {status.window}: play one or pass — press **My hand & moves**.{by_itself}"
        return f"{mentions} — your turn! Press **My hand & moves**."

    async def _stopped(self, info: MatchInfo, channel: Any) -> None:
        old = self.posted.get(info.id)
        if old is not None and old.message_id and old.channel_id == channel.id:
            await self._retire(channel, old.message_id, info, self._shown.get(info.id))
        note = info.note or "The game was stopped."
        await unarchived(channel, lambda: channel.send(f"🛑 {info.title} game #{info.id}: {note}"))
        await archive_own_thread(self.client, channel)
        self.forget(info.id)

    def forget(self, mid: int) -> None:
        """Drop what we remember in memory about a finished match (the store keeps its last board)."""
        self.posted.pop(mid, None)
        self.recent.pop(mid, None)
        self._nonces.pop(mid, None)
        self._shown.pop(mid, None)
        for done in [k for k in self._moved if k[0] == mid]:
            del self._moved[done]
