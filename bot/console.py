"""Play in a terminal through the same session manager and SQLite store as Discord.

Each human sees only their own view, drawn as text by the game itself (`present.board_text`), and a menu of
their legal moves in the game's order (`game.describe` paths joined by " › "). The game's fixed choices
(`present.shortcuts`, e.g. "e" to end the turn) keep their letter; the other moves are numbered. With two
or more humans at one screen (hot seat) the screen and its scrollback are cleared and the next player is
asked to take it. Every move is committed to the database before the next prompt, so `q`, Ctrl-C, Ctrl-D
or a crash lose nothing: resume later. Nothing here names a game.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from bot.ai import DEFAULT_LEVEL, LEVELS
from bot.files import FileRefused, read_regular
from bot.sessions import MatchInfo, Move, SessionError, SessionEvent, SessionManager
from bot.sessions.hooks import Hooks, Policy, always
from bot.sessions.lobby import check_pick
from bot.sessions.packs import PACK, pack_of, read_pack, too_big
from bot.sessions.types import DEFAULT_WINDOWS
from bot.store import ACTIVE, LIVE_STATUSES, LOBBY, open_store
from bot.terminal import (
    CLEAR,
    DEFAULT_DB,
    KEYS,
    card_entries,
    command,
    credit,
    credited_log,
    first_game,
    help_text,
    inspect_text,
    menu_keys,
    named_moves,
    no_database,
    play_command,
    result_words,
    rules_text,
    terminal_names,
)
from engine import packs
from engine.core import Event, PlayerId
from engine.registry import games
from engine.registry import get as get_game
from engine.table import lesson
from engine.table.decisions import PASS
from engine.table.events import event_owner
from engine.table.present import (
    Presentation,
    of,
    player_count,
    seat_refs,
    seen_cards,
    together,
)
from engine.text import printable


# --- one game at one screen -------------------------------------------------------------------------------
@dataclass
class _Screen:
    """Where text goes and comes from.

    Lines are read by a daemon thread, not the event loop's executor: a blocked read can neither delay
    Ctrl-C (the game is saved and the process exits at once) nor hold up the loop's shutdown.
    """

    inp: TextIO
    out: TextIO
    clear: bool
    _pending: asyncio.Future[str] | None = None

    def say(self, text: str = "") -> None:
        self.out.write(printable(text) + "\n")  # stored names and texts never drive the terminal
        self.out.flush()

    def _read(self) -> asyncio.Future[str]:
        if self._pending is not None:  # a read outlived its prompt (an interrupted ask): keep its line
            return self._pending
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[str] = loop.create_future()

        def settle(line: str | None, error: BaseException | None) -> None:
            if fut.done():
                return
            if error is not None:
                fut.set_exception(error)
            else:
                fut.set_result(line or "")

        def reader() -> None:
            try:
                line, error = self.inp.readline(), None
            except Exception as e:  # a closed or broken input ends the game like end of input
                line, error = None, e
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody is waiting any more
                loop.call_soon_threadsafe(settle, line, error)

        threading.Thread(target=reader, name="console-input", daemon=True).start()
        self._pending = fut
        return fut

    async def ask(self, prompt: str) -> str | None:
        """A line of input, or None at end of input."""
        self.out.write(printable(prompt))
        self.out.flush()
        fut = self._read()
        try:
            line = await asyncio.shield(fut)
        except (OSError, ValueError):
            line = ""
        finally:
            if fut.done():
                self._pending = None
        if not _isatty(self.inp):  # echo scripted input so a transcript reads like a session
            self.out.write(printable(line.removesuffix("\n")) + "\n")
        return None if line == "" else line.strip()

    def wipe(self) -> None:
        self.out.write(CLEAR if self.clear else "\n" + "-" * 60 + "\n")
        self.out.flush()


class ConsoleGame:
    """Runs one match at one screen until it ends or the people quit."""

    def __init__(
        self, sessions: SessionManager, match_id: int, screen: _Screen, db: str = DEFAULT_DB
    ) -> None:
        self.sessions = sessions
        self.db = db  # named in the hints, so they work as printed
        self.match_id = match_id
        self.screen = screen
        self.info: MatchInfo | None = None
        self.humans: list[PlayerId] = []
        self.game: Any = None
        self.present: Presentation | None = None

    def _names(self, info: MatchInfo) -> list[str]:
        return terminal_names(info)

    def _viewer(self) -> PlayerId | None:
        """Whose eyes the shared screen shows events to: the one human, or public if several."""
        return self.humans[0] if len(self.humans) == 1 else None

    def _on_event(self, ev: SessionEvent) -> None:
        """Print AI moves, and the moves played for a person (their window setting, a lone move), as they
        happen."""
        if ev.info.id != self.match_id or ev.kind != "action" or ev.seat is None:
            return
        if not ev.info.seats[ev.seat].is_ai and not ev.auto:
            return
        self._print_events(ev.info, ev.seat, ev.visible_events(self._viewer()))

    def _print_events(self, info: MatchInfo, seat: PlayerId, events: Sequence[Event]) -> None:
        names = self._names(info)
        if not events:  # public words only: what the move was is theirs to know
            self.screen.say(f"  {info.seat_name(seat)} makes a choice.")
        for e in events:  # credited to the seat the event names (a card's owner), else the mover
            self.screen.say(f"  {credit(info.seat_name(event_owner(e, len(names), seat)), e.text, names)}")

    def _board(self, view: Any, info: MatchInfo) -> str:
        assert self.present is not None
        return self.present.board_text(view, self._names(info))

    async def run(self) -> int:
        """Play until the game ends (0) or the people quit (0, saved); 1 if the game cannot go on."""
        info = await self.sessions.get(self.match_id)
        self.game = get_game(info.game_id)
        self.present = of(self.game)
        self.humans = [i for i, s in enumerate(info.seats) if not s.is_ai]
        unsubscribe = self.sessions.subscribe(self._on_event)
        try:
            return await self._loop()
        finally:
            unsubscribe()

    async def _loop(self) -> int:
        last_seat: PlayerId | None = None
        nudged = False
        while True:
            await self.sessions.wait_idle(self.match_id)
            info = await self.sessions.get(self.match_id)
            if info.status != ACTIVE:
                return await self._the_end(info)
            seats = [s for s in info.to_act if not info.seats[s].is_ai]
            if not seats:  # an AI is to act but idle (resumed game, or its last try failed)
                if nudged or not await self.sessions.resume_ai(self.match_id):
                    hint = play_command(f"--resume {info.id}", self.db)
                    self.screen.say(f"The AI players are stuck; the game is saved. Try later: {hint}")
                    return 1
                nudged = True
                continue
            nudged = False
            seat = seats[0]
            user = info.seats[seat].user_id
            assert user is not None
            if len(self.humans) >= 2 and seat != last_seat:
                self.screen.wipe()
                answer = await self.screen.ask(f"Pass the screen to {info.seat_name(seat)} — press Enter ")
                if answer is None or answer.lower() == "q":
                    return self._saved(info)
            last_seat = seat
            outcome = await self._turn(info, seat, user)
            if outcome == "quit":
                return self._saved(info)

    async def _turn(self, info: MatchInfo, seat: PlayerId, user: int) -> str:
        """Show the board and menu to one human and play what they pick: "moved" or "quit"."""
        assert self.present is not None
        view = await self.sessions.view_for(self.match_id, user)
        self.screen.say()
        self.screen.say(self._board(view, info))
        moves = named_moves(await self.sessions.moves_for(self.match_id, user), self._names(info))
        keyed = menu_keys(moves, dict(self.present.shortcuts))
        by_key = dict(keyed)
        # A response window: Enter lets it pass, whatever the hand (the same prompt for every hand).
        passing = next((k for k, m in keyed if m.key == PASS), None) if info.window else None
        self.screen.say(f"\n{info.seat_name(seat)}, your move:")
        if passing is not None:
            self.screen.say(f"{info.window}: play one, or press Enter to pass.")
        width = max((len(k) for k, _ in keyed), default=1)
        for k, m in keyed:
            self.screen.say(f"  {k:>{width}}. {m.label}")
        numbers = [k for k, _ in keyed if k.isdigit()]
        letters = [k for k, _ in keyed if not k.isdigit()]
        span = [f"1-{numbers[-1]}" if len(numbers) > 1 else numbers[0]] if numbers else []
        prompt = f"[{', '.join([*span, *letters, '?', 'u', 'i', 'l', 'r', 'q', 'h'])}] > "
        while True:
            answer = await self.screen.ask(prompt)
            if answer is None or answer.lower() in ("q", "quit", "exit"):
                return "quit"
            cmd = answer.strip().lower()
            if not cmd and passing is not None:
                cmd = passing
            if cmd in ("h", "help"):
                self.screen.say(help_text(self.game, self.present))
            elif cmd in ("h rules", "help rules", "rules"):
                self.screen.say(rules_text(self.game))
            elif cmd in ("?", "hint"):
                await self._hint(user, keyed, info)
            elif cmd == "r":
                return "moved"  # redraws
            elif cmd == "i" or cmd.startswith("i "):
                names = self._names(info)
                seen = seen_cards(self.present, view, names)
                self.screen.say(inspect_text(answer.strip()[1:], seen, card_entries(self.present, info)))
            elif cmd == "l":
                await self._whole_log(info, user)
            elif cmd == "u":
                try:
                    result = await self.sessions.undo(self.match_id, user, info.state_id)
                except SessionError as e:
                    self.screen.say(str(e))
                    continue
                self._print_events(result.info, seat, [e for e in result.events if e.visible(seat)])
                return "moved"
            elif cmd in by_key:
                try:
                    result = await self.sessions.submit(self.match_id, user, by_key[cmd].key, info.state_id)
                except SessionError as e:
                    self.screen.say(str(e))
                    return "moved"
                self._print_events(result.info, seat, [e for e in result.events if e.visible(seat)])
                return "moved"
            else:
                self.screen.say(f"Please type one of {prompt[1:-4]}. {KEYS}.")

    async def _whole_log(self, info: MatchInfo, user: int) -> None:
        """The whole log as this seat may read it, replayed from the database, numbered (the app's l)."""
        lines = credited_log(await self.sessions.log_for(self.match_id, user), self._names(info))
        self.screen.say("\n".join(f"{i:>4}  {line}" for i, line in enumerate(lines, 1)) or "Nothing yet.")

    async def _hint(self, user: int, keyed: list[tuple[str, Move]], info: MatchInfo) -> None:
        """The strongest AI's three best moves for this player (from what they can see), with what to type."""
        self.screen.say("Thinking…")
        try:
            rated = await self.sessions.hint(self.match_id, user)
        except SessionError as e:
            self.screen.say(str(e))
            return
        typed = {m.key: k for k, m in keyed}
        names = self._names(info)
        if not rated:
            self.screen.say("No move to suggest.")
        for move, chance in rated:
            label = " › ".join(seat_refs(step, names) for step in move.path)
            self.screen.say(
                f"  {typed.get(move.key, '?')}. {label} — about {min(1.0, max(0.0, chance)):.0%} to win"
            )

    async def _the_end(self, info: MatchInfo) -> int:
        if info.status != "finished":
            self.screen.say(f"This game is {info.status}. {info.note}".strip())
            return 0 if info.status == "abandoned" else 1
        viewer = self._viewer()
        user = None if viewer is None else info.seats[viewer].user_id
        view = await self.sessions.view_for(self.match_id, user)
        self.screen.say()
        self.screen.say(self._board(view, info))
        self.screen.say(f"\nGame #{info.id} is over. {result_words(info)}")
        return 0

    def _saved(self, info: MatchInfo) -> int:
        self.screen.say(f"\nSaved. Resume with: {play_command(f'--resume {info.id}', self.db)}")
        return 0


# --- the `play` command ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PlayOptions:
    """What `play` was asked to do."""

    game: str = ""  # a registered game id; "" = the first registered game
    players: int = 2
    ai: int | None = None  # None: everyone but one human
    seed: int | None = None
    db: str = DEFAULT_DB
    resume: int | str | None = None  # a match id, "latest", or None for a new game
    list: bool = False
    level: str = DEFAULT_LEVEL
    ai_delay: float = 0.4
    choose: tuple[tuple[str, str], ...] = ()  # (choice key, option id) for the human seats (--choose)
    windows: str = DEFAULT_WINDOWS  # how response windows treat the people at this screen (--windows)
    line: bool = False  # plain line mode even in a terminal (--line); piped input always gets it
    confirm: bool = True  # the app asks before ending the turn or passing with other moves (--no-confirm)
    pack: str | None = None  # a card pack file to deal the game with, or "example" (--pack)


async def play(opts: PlayOptions, inp: TextIO | None = None, out: TextIO | None = None) -> int:
    """Start (or resume, or list) console games; the process exit code.

    Cancelled (Ctrl-C under asyncio.run), it says the game is saved and how to resume it, then lets the
    cancellation go on: every move was committed when it was made, so there is nothing left to save.
    """
    inp = inp if inp is not None else sys.stdin
    out = out if out is not None else sys.stdout
    screen = _Screen(inp, out, clear=_isatty(out))
    if (opts.list or opts.resume is not None) and no_database(opts.db):  # reading makes no database file
        screen.say(
            f"There is no database at {opts.db}; start a game with: {play_command(first_game(), opts.db)}"
        )
        return 0 if opts.list else 1
    in_app = not opts.line and _isatty(inp) and _isatty(out)
    store = open_store(opts.db)
    await store.open()
    hooks = Hooks(policy=always(Policy(default_window=opts.windows)))  # everyone here: --windows
    sessions = SessionManager(store, ai_delay=opts.ai_delay, hooks=hooks)
    match_id: int | None = None
    try:
        if opts.list:
            return await _list(sessions, screen, opts.db)
        if opts.resume is not None:
            match_id = await _find_resume(sessions, opts.resume, screen, opts.db)
            if match_id is None:
                return 1
            screen.say(f"Resuming game #{match_id}.")
        else:
            match_id = await _new_game(sessions, opts, screen, help_hint=not in_app)
            if match_id is None:
                return 2
        if in_app:
            await sessions.close()
            await store.close()
            return await _run_app(opts, match_id, screen)
        return await ConsoleGame(sessions, match_id, screen, opts.db).run()
    except SessionError as e:
        screen.say(str(e))
        return 1
    except asyncio.CancelledError:
        if match_id is not None:
            screen.say(f"\nSaved. Resume with: {play_command(f'--resume {match_id}', opts.db)}")
        else:
            screen.say("\nStopped.")
        raise
    finally:
        await sessions.close()
        await store.close()


async def learn(
    game_id: str,
    db: str = DEFAULT_DB,
    ai_delay: float = 0.4,
    inp: TextIO | None = None,
    out: TextIO | None = None,
) -> int:
    """`learn GAME`: deal the game's tutorial as a console game in `db` (resumable like any other) and play
    it in the app; 2 with one line for an unknown game, a game without a tutorial or no terminal."""
    inp = inp if inp is not None else sys.stdin
    out = out if out is not None else sys.stdout
    screen = _Screen(inp, out, clear=False)
    try:
        game = get_game(game_id)
    except KeyError:
        names = ", ".join(g for g in games() if lesson.of(games()[g]) is not None)
        screen.say(f"There is no game called {game_id!r}. Tutorials: {names or 'none yet'}.")
        return 2
    if lesson.of(game) is None:
        screen.say(f"{game.title} has no tutorial yet; play a game instead: {play_command(game_id, db)}")
        return 2
    if not (_isatty(inp) and _isatty(out)):
        screen.say(f"{command()} learn needs a terminal: it plays the tutorial in the full-screen app.")
        return 2
    store = open_store(db)
    await store.open()
    sessions = SessionManager(store, ai_delay=ai_delay)
    try:
        mid = await new_lesson(sessions, game_id, screen)
    except SessionError as e:
        screen.say(str(e))
        return 2
    finally:
        await sessions.close()
        await store.close()
    opts = PlayOptions(game=game_id, db=db, ai_delay=ai_delay)
    return await _run_app(opts, mid, screen)


async def new_lesson(sessions: SessionManager, game_id: str, screen: _Screen) -> int:
    """A practice game of the game's tutorial for the one person at this screen (seat 1, "Player 1"),
    started; its id. SessionError for a game without a tutorial."""
    info = await sessions.learn(None, None, game_id, 1, name="Player 1", origin="console")
    title = get_game(game_id).title
    screen.say(f"Game #{info.id}: a practice game of {title} against {together(terminal_names(info)[1:])}.")
    return info.id


async def _run_app(opts: PlayOptions, match_id: int, screen: _Screen) -> int:
    """The full-screen app on this terminal (it opens the database itself); then one line on where the game
    stands, left on the terminal after the app's screen is gone."""
    from bot.tui.app import AgoraApp  # Textual loads only for the app

    app = AgoraApp(opts.db, match_id, opts.windows, opts.ai_delay, confirm=opts.confirm)
    code = await app.run_async()
    info = app.info
    if info is not None and info.status == "finished":
        screen.say(f"Game #{info.id} is over. {result_words(info)}")
        if (taught := lesson.practice(info.options)) is not None:
            screen.say(f"Ready for a real game? {play_command(taught, opts.db)}")
    else:
        screen.say(f"Saved. Resume with: {play_command(f'--resume {match_id}', opts.db)}")
    return code or 0


async def _new_game(
    sessions: SessionManager, opts: PlayOptions, screen: _Screen, help_hint: bool = True
) -> int | None:
    """Check every option first, so a start that cannot work leaves nothing saved; the new game's id. The
    line that says so ends with "Type h for help." in line mode only (the app's own footer says it, and the
    line stays on the terminal after the app is gone)."""
    game_id = opts.game or first_game()
    try:
        game = get_game(game_id)
    except KeyError as e:
        screen.say(f"{e.args[0]}. Try: {command()} play --help")
        return None
    ai = opts.players - 1 if opts.ai is None else opts.ai
    if not game.min_players <= opts.players <= game.max_players:
        screen.say(f"{game.title} is for {player_count(game, ' to ')}.")
        return None
    if not 0 <= ai <= opts.players:
        screen.say(f"--ai must be between 0 and --players ({opts.players}).")
        return None
    if ai and opts.level not in LEVELS:
        screen.say(f"There is no AI level {opts.level!r}; the levels are: {', '.join(LEVELS)}.")
        return None
    options = None
    if opts.pack is not None:
        try:
            options = {PACK: packs.option(_read_pack(game_id, opts.pack), 1)}
        except SessionError as e:
            screen.say(f"--pack: {e}")
            return None
    try:
        for key, option in opts.choose:
            check_pick(game, key, option, options)  # a pack's ready decks may be chosen too
    except SessionError as e:
        screen.say(f"--choose: {e}")
        return None
    humans = opts.players - ai
    info = await sessions.create(
        None, None, game_id, 1, options, seed=opts.seed, host_name="Player 1", origin="console",
        seat_host=humans > 0,
    )  # fmt: skip
    try:
        for i in range(2, humans + 1):
            await sessions.join(info.id, i, f"Player {i}")
        for _ in range(ai):
            await sessions.add_ai(info.id, 1, opts.level)
        for user in range(1, humans + 1):  # the choices apply to every human seat; the rest are random
            for key, option in opts.choose:
                await sessions.pick(info.id, user, key, option)
        info = await sessions.start(info.id, 1)
    except BaseException:  # no half-made lobby stays behind to be listed or resumed
        with contextlib.suppress(SessionError):
            await asyncio.shield(sessions.abandon(info.id, None, force=True))
        raise
    names = together([info.seat_name(i) for i in range(len(info.seats))])
    pack = f" with the card pack {found[0]}" if (found := pack_of(info.options)) else ""
    hint = " Type h for help." if help_hint else ""
    screen.say(f"Game #{info.id}: {game.title} for {len(info.seats)} ({names}){pack}.{hint}")
    return info.id


def _read_pack(game_id: str, where: str) -> packs.Pack:
    """The card pack of --pack: a TOML file, or "example" (the game's own example pack), checked as Discord
    checks an upload; SessionError in one line otherwise."""
    title = get_game(game_id).title
    if not packs.supports(game_id):
        raise SessionError(f"{title} takes no card packs")
    path = packs.example(game_id) if where == "example" else Path(where).expanduser()
    if path is None:
        raise SessionError(f"{title} ships no example pack")
    try:  # a regular file within the limit only: a FIFO or /dev/zero is refused, not waited on
        data = read_regular(path, packs.MAX_PACK_BYTES, lambda size: too_big(path.name, size))
    except FileRefused as e:
        raise SessionError(str(e)) from None
    except OSError as e:
        raise SessionError(f"{where}: cannot be read ({e.strerror})") from None
    pack = read_pack(data, path.name)
    if pack.game_id != game_id:
        raise SessionError(f"{path.name} is a card pack for {get_game(pack.game_id).title}, not {title}")
    return pack


async def _find_resume(sessions: SessionManager, which: int | str, screen: _Screen, db: str) -> int | None:
    if which == "latest":
        found = await sessions.list_matches(origin="console", statuses=(ACTIVE,), limit=1)
        if not found:
            hint = play_command(first_game(), db)
            screen.say(f"There is no unfinished console game to resume; start one with: {hint}")
            return None
        return found[0].id
    try:
        info = await sessions.get(int(which))
    except SessionError as e:
        screen.say(str(e))
        return None
    if info.status == LOBBY:
        screen.say(f"Game #{info.id} never started.")
        return None
    return info.id


async def _list(sessions: SessionManager, screen: _Screen, db: str) -> int:
    found = await sessions.list_matches(origin="console", limit=30)
    if not found:
        screen.say(f"No console games yet; start one with: {play_command(first_game(), db)}")
        return 0
    screen.say(f"{'id':>5}  {'game':<12} {'status':<10} {'moves':>5}  players")
    for g in found:
        names = ", ".join(
            s.name or (f"AI {i + 1}" if s.is_ai else f"Player {i + 1}") for i, s in enumerate(g.seats)
        )
        live = f" ◀ resume with --resume {g.id}" if g.status in LIVE_STATUSES else ""
        screen.say(f"{g.id:>5}  {g.game_id:<12} {g.status:<10} {g.state_id:>5}  {names}{live}")
    return 0


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
