"""The terminal app (Textual): the board always in view, the viewer's hand with its text, the log, and the
moves grouped as the Discord menus group them; any card on screen readable in two keys.

It plays through the same session manager and SQLite store as Discord and draws only from the game's
presentation (`present`) and the viewer's `view`. Every move is committed before the screen changes, so
q, Ctrl-C or a crash lose nothing. With two or more people at the screen (hot seat) each sees the result of
their own move, then a blank hand-over screen, and only then the next player's hand and log.
Nothing here names a game.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator, Sequence
from typing import Any, ClassVar

from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Key, Resize
from textual.widgets import Footer, Input, Static, Tree
from textual.widgets.tree import TreeNode

from bot.sessions import MatchInfo, Move, SessionError, SessionEvent, SessionManager
from bot.sessions.hooks import Hooks, Policy, always
from bot.sessions.pool import worker_context
from bot.sessions.types import walk
from bot.store import ACTIVE, Store, open_store
from bot.terminal import (
    card_entries,
    card_text,
    credit,
    credited_log,
    menu_keys,
    named_moves,
    plain,
    play_command,
    result_words,
    rules_text,
    terminal_names,
)
from bot.tui.screens import CardScreen, ConfirmScreen, HandOverScreen, TextScreen, escape, piles_last
from engine.core import JSON, Event, PlayerId
from engine.registry import get as get_game
from engine.table import lesson
from engine.table.decisions import PASS
from engine.table.events import event_owner
from engine.table.present import (
    CardEntry,
    Presentation,
    Seen,
    ends_of,
    fit_label,
    menu_labels,
    move_words,
    of,
    panel_text,
    player_count,
    prompt_of,
    seat_refs,
    seen_cards,
)

QUIT, REDRAW = "\0quit", "\0redraw"  # what a turn can end with besides a move's key
LOG_KEEP = 50  # log lines kept in the panel (l shows the whole log, from the database)
TYPING = 1.5  # seconds within which digits typed one after another make one number
SMALL = (70, 18)  # below this width or height the board folds into the status line (b shows it)
HEADS = ("📘", "🎓", "✓", "↪")  # the lesson panel's headings (bold): a step's, the end's, the verdicts


def status_line(present: Presentation, view: JSON, names: Sequence[str]) -> str:
    """The status bar's words: the game's headline, then the pending decision: the seat's own in the words
    of its hand image (`prompt_of`), another's as the status words it (a plain turn: the headline says it)."""
    status = present.status(view, names)
    asked = prompt_of(present, view, names)
    pending = asked.text if asked.yours and status.prompt else status.prompt
    return " · ".join(p for p in (status.headline, pending) if p)


class AgoraApp(App[int]):
    """One match at one screen, until it ends or the people quit (exit code 0; 1 if it cannot go on)."""

    CSS_PATH = "agora.tcss"
    ENABLE_COMMAND_PALETTE = False
    TITLE = "Agora"
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("question_mark", "hint", "Hint"),
        Binding("u", "undo", "Undo"),
        Binding("i", "inspect", "Cards"),
        Binding("slash", "filter", "Filter"),
        Binding("b", "board", "Board", show=False),
        Binding("l", "whole_log", "Log", show=False),
        Binding("h", "help", "Help"),
        Binding("q", "quit_saved", "Save & quit"),
        Binding("ctrl+c", "quit_saved", "Quit", show=False, priority=True),
    ]

    def __init__(
        self, db: str, match_id: int, windows: str, ai_delay: float = 0.4, confirm: bool = True
    ) -> None:
        super().__init__()
        self.db, self.match_id, self.windows, self.ai_delay = db, match_id, windows, ai_delay
        self.confirm = confirm  # ask before ending the turn or passing while other moves are offered
        self.store: Store | None = None
        self.sessions: SessionManager | None = None
        self.game: Any = None
        self.present: Presentation | None = None
        self.info: MatchInfo | None = None
        self.humans: list[PlayerId] = []
        self.viewer: PlayerId | None = None  # whose eyes the screen shows now
        self.view: dict[str, Any] = {}
        self.seen: list[Seen] = []
        self.moves: list[Move] = []
        self.keyed: list[tuple[str, Move]] = []
        self.log_lines: list[str] = []
        self.choice: asyncio.Future[str] | None = None
        self.typed = ""  # digits typed so far, for a numbered move
        self.pointed: TreeNode[Move] | None = None  # a move typed by its key, till the cursor is on it
        self._typed_at = 0.0
        self.ready = asyncio.Event()  # set while the app waits for a person's move (tests wait on it)
        self.outcome = 0
        self.turns = 0  # times the app has waited for a move (tests wait for the next)
        self.over = False  # the game has ended: ? shows the help, u says there is nothing to undo
        self.guide: lesson.Guide | None = None  # a practice game's guide for the learner at the screen
        self._opened: set[int | str] = set()  # the lessons opened as a page (a step's index, "end")
        self._unsubscribe: Any = None
        self._catalogue: dict[str, CardEntry] | None = None
        self._log_due = False
        self._names_at: list[Seen] = []
        self._link_names: dict[str, str] = {}
        self._link_pattern: re.Pattern[str] | None = None
        warm_workers()  # before Textual takes the terminal's streams: the AI's worker server needs them

    # --- layout -------------------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static("", id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                with VerticalScroll(id="lesson-box"):
                    yield Static("", id="lesson")
                with VerticalScroll(id="board-box"):
                    yield Static("", id="board")
                with VerticalScroll(id="log-box"):
                    yield Static("", id="log")
            with Vertical(id="right"):
                yield Static("", id="prompt")
                yield Input(placeholder="/ filters the moves", id="filter")
                yield Tree("Moves", id="moves")
                yield Static("", id="chosen")
                with VerticalScroll(id="hand-box"):
                    yield Static("", id="hand")
        yield Footer()

    def on_mount(self) -> None:
        tree = self.query_one("#moves", Tree)
        tree.show_root = False
        tree.auto_expand = True
        self.query_one("#board-box").border_title = "Board"
        self.query_one("#log-box").border_title = "Log"
        self.query_one("#hand-box").border_title = "Your cards"
        self.query_one("#lesson-box").border_title = "Lesson"
        self.query_one("#lesson-box").display = False
        self._fold(self.size.width, self.size.height)
        self._play()

    def on_resize(self, event: Resize) -> None:
        self._fold(event.size.width, event.size.height)

    def _fold(self, width: int, height: int) -> None:
        """A small screen folds the board into the status line; a wide one gives the moves more room."""
        self.set_class(width < SMALL[0] or height < SMALL[1], "small")
        self.set_class(width >= 110, "wide")
        self.set_class(height < 30, "short")
        self.call_after_refresh(self._draw_board)  # the board's lines are laid out for its width

    # --- the game loop ------------------------------------------------------------------------------------
    @work(exclusive=True, group="game")
    async def _play(self) -> None:
        try:
            await self._open()
            self.outcome = await self._rounds()
        except SessionError as e:
            await self._say("This game cannot go on", str(e))
            self.outcome = 1
        self.exit(self.outcome)

    async def _open(self) -> None:
        self.store = open_store(self.db)
        await self.store.open()
        hooks = Hooks(policy=always(Policy(default_window=self.windows)))  # everyone at this screen
        self.sessions = SessionManager(self.store, ai_delay=self.ai_delay, hooks=hooks)
        info = await self.sessions.get(self.match_id)
        self.game = get_game(info.game_id)
        self.present = of(self.game)
        self.humans = [i for i, s in enumerate(info.seats) if not s.is_ai]
        self.title = f"Agora · {self.game.title} · game #{info.id}"
        self._unsubscribe = self.sessions.subscribe(self._on_event)

    async def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self.sessions is not None:
            await self.sessions.close()
        if self.store is not None:
            await self.store.close()

    async def _rounds(self) -> int:
        assert self.sessions is not None
        nudged = False
        while True:
            await self.sessions.wait_idle(self.match_id)
            info = self.info = await self.sessions.get(self.match_id)
            if info.status != ACTIVE:
                return await self._the_end(info)
            seats = [s for s in info.to_act if not info.seats[s].is_ai]
            if not seats:  # an AI is to act but idle (a resumed game, or its last try failed)
                if nudged or not await self.sessions.resume_ai(self.match_id):
                    hint = play_command(f"--resume {info.id}", self.db)
                    await self._say("The AI players are stuck", f"The game is saved. Try later: {hint}")
                    return 1
                nudged = True
                continue
            nudged = False
            seat = seats[0]
            if seat != self.viewer:
                if len(self.humans) >= 2 and not await self._hand_over(info, seat):
                    return 0
                await self._meet(seat)
            key = await self._turn(info, seat)
            if key == QUIT:
                return 0
            if key != REDRAW:
                await self._submit(info, seat, key)

    async def _meet(self, seat: PlayerId) -> None:
        """The screen is now this seat's: its log, replayed from the database (only what it may read)."""
        assert self.sessions is not None and self.info is not None
        self.viewer = seat
        user = self.info.seats[seat].user_id
        names = self._names()
        rows = await self.sessions.log_for(self.match_id, user)
        self.log_lines = self._credited(rows[-LOG_KEEP:])
        if not rows:  # nothing played yet: the deal's own lines, as the game logged them for this seat
            view = await self.sessions.view_for(self.match_id, user)
            self.log_lines = [seat_refs(str(t), names) for t in view.get("log") or []]
        self._show_log()

    async def _turn(self, info: MatchInfo, seat: PlayerId) -> str:
        """Draw everything for one person and wait for their move (a key), QUIT or REDRAW."""
        assert self.sessions is not None and self.present is not None
        user = info.seats[seat].user_id
        assert user is not None  # a person's turn: the AI seats play in the session manager
        seen = await self.sessions.snapshot(self.match_id, user)  # a learner's: the suggested move first
        self.view, self.guide = seen.view, seen.lesson
        self.moves = named_moves(seen.moves, self._names())
        self.keyed = menu_keys(self.moves, dict(self.present.shortcuts))
        self._draw(info)
        self._teach()
        self._fill_moves()
        loop = asyncio.get_running_loop()
        self.choice = loop.create_future()
        self.turns += 1
        self.ready.set()
        try:
            return await self.choice
        finally:
            self.ready.clear()
            self.choice = None

    async def _submit(self, info: MatchInfo, seat: PlayerId, key: str) -> None:
        assert self.sessions is not None
        user = info.seats[seat].user_id
        assert user is not None
        try:
            result = await self.sessions.submit(self.match_id, user, key, info.state_id)
        except SessionError as e:
            self._note(str(e), toast=True)
            return
        mine = [e for e in result.events if e.visible(seat)]
        chosen = next((lesson.unmarked(m.label) for m in self.moves if m.key == key), "")  # theirs to read
        self._add_events(seat, mine, f"{self._who(seat)}: {chosen}" if chosen else "")
        if len(self.humans) >= 2:  # hot seat: the mover sees their move's result before handing over
            await self.sessions.wait_idle(self.match_id)
            after = await self.sessions.get(self.match_id)
            nxt = [s for s in after.to_act if not after.seats[s].is_ai]
            text = "\n".join(self.log_lines[-12:])
            if after.status != ACTIVE:  # the last move: its result is the game's
                await self._say("Game over", f"{result_words(after)}\n\n{text}".strip())
            elif nxt and nxt[0] != seat:
                await self._say(
                    f"{self._who(seat)}: the result of your move", text, "Enter: hand the screen over"
                )

    async def _hand_over(self, info: MatchInfo, seat: PlayerId) -> bool:
        """Blank every panel, then wait for the next person (False: they chose to save and quit)."""
        self.viewer = None
        self.log_lines, self.view, self.seen, self.moves, self.keyed = [], {}, [], [], []
        for wid in ("#status", "#board", "#log", "#prompt", "#hand", "#chosen"):
            self.query_one(wid, Static).update("")
        self.query_one("#moves", Tree).clear()
        here = await self.push_screen(HandOverScreen(info.seat_name(seat)), wait_for_dismiss=True)
        return bool(here)

    async def _the_end(self, info: MatchInfo) -> int:
        assert self.sessions is not None
        if info.status != "finished":
            await self._say(f"This game is {info.status}", info.note or "")
            return 0 if info.status == "abandoned" else 1
        viewer = self.humans[0] if len(self.humans) == 1 else None
        if viewer != self.viewer or not self.log_lines:
            await self._meet(viewer) if viewer is not None else None
        user = None if viewer is None else info.seats[viewer].user_id
        self.view = await self.sessions.view_for(self.match_id, user)
        self.moves, self.keyed = [], []
        self._draw(info)
        self._fill_moves()
        self.over = True
        words = f"Game #{info.id} is over. {result_words(info)}"
        self.query_one("#prompt", Static).update(escape(words) + "\nPress q to leave.")
        if lesson.practice(info.options) is not None and user is not None:
            guide = (await self.sessions.snapshot(self.match_id, user)).lesson
            if guide is not None:
                real = play_command(info.game_id, self.db)
                lines = [*lesson.guide_lines(guide, over=True), "", f"Ready for a real game? {real}"]
                self._lesson(lines)
                self.push_screen(TextScreen(f"Learning {self.game.title}", "\n".join(lines)))
        loop = asyncio.get_running_loop()
        self.choice = loop.create_future()
        self.ready.set()
        await self.choice
        return 0

    # --- drawing ------------------------------------------------------------------------------------------
    def _names(self) -> list[str]:
        assert self.info is not None
        return terminal_names(self.info)

    def _credited(self, rows: Sequence[tuple[PlayerId, str]]) -> list[str]:
        """Replayed log rows as lines that say who acted (seat -1: a line of the app's own)."""
        return credited_log(rows, self._names())

    def _eyes(self) -> PlayerId | None:
        """Whose eyes the screen shows: the seat on screen, else the one person, else nobody's (public)."""
        if self.viewer is not None:
            return self.viewer
        return self.humans[0] if len(self.humans) == 1 else None

    def _who(self, seat: PlayerId) -> str:
        assert self.info is not None
        return self.info.seat_name(seat)

    def _draw(self, info: MatchInfo) -> None:
        """Status, board and hand from the view; card names become links to their text."""
        assert self.present is not None
        names = self._names()
        status = self.present.status(self.view, names)
        self.seen = seen_cards(self.present, self.view, names)
        scores = " · ".join(status.scores)
        self.query_one("#status", Static).update(
            escape(status_line(self.present, self.view, names))
            + (f"\n[dim]{escape(scores)}[/]" if scores else "")
        )
        self._draw_board()
        hand = [s for s in self.seen if s.mine] or [s for s in self.seen if s.where.startswith("Your ")]
        entries = self._entries()
        lines = []
        for s in hand:
            e = entries.get(s.card)
            text = f" — {e.text}" if e is not None and e.text else ""
            lines.append(self._linked(f"{e.label if e else s.card}{text}", only=s.card))
        self.query_one("#hand", Static).update("\n".join(lines) or "[dim](no cards in hand)[/]")
        self._show_log()

    def _draw_board(self) -> None:
        """The board panel: the game's board for the panel's width (both sides in view, no hand)."""
        if self.present is None or not self.view:
            return
        box = self.query_one("#board-box", VerticalScroll)
        text = panel_text(self.present, self.view, self._names(), max(20, box.size.width))
        if len(text.splitlines()) > box.size.height:  # taller than the box: leave room for its scroll bar
            text = panel_text(self.present, self.view, self._names(), max(20, box.size.width - 2))
        self.query_one("#board", Static).update(self._linked(text))

    def _entries(self) -> dict[str, CardEntry]:
        """The game's catalogue, with the match's card pack, by card id (read once)."""
        if self._catalogue is None:
            assert self.present is not None and self.info is not None
            self._catalogue = card_entries(self.present, self.info)
        return self._catalogue

    def _linked(self, text: str, only: str | None = None) -> str:
        """Plain text as markup, each visible card's name a link that shows the card."""
        if only is not None:
            e = self._entries().get(only)
            names = {w: only for w in ((e.name, e.label) if e else ()) if len(w) >= 2}
            return _links(text, names, _pattern(names))
        if self._names_at != self.seen:  # the names to link change only when the view does
            self._names_at = list(self.seen)
            entries = self._entries()
            self._link_names = {}
            for s in self.seen:
                e = entries.get(s.card)
                for word in (e.name, e.label) if e else ():
                    if len(word) >= 2:
                        self._link_names.setdefault(word, s.card)
            self._link_pattern = _pattern(self._link_names)
        return _links(text, self._link_names, self._link_pattern)

    def _show_log(self) -> None:
        """Draw the log soon: many events in a row are drawn once."""
        if not self._log_due:
            self._log_due = True
            self.call_later(self._draw_log)

    def _draw_log(self) -> None:
        self._log_due = False
        self.query_one("#log", Static).update("\n".join(self._linked(line) for line in self.log_lines))
        self.query_one("#log-box", VerticalScroll).scroll_end(animate=False)

    def _add_log(self, seat: PlayerId, texts: Sequence[str]) -> None:
        names = self._names()
        self.log_lines += [credit(self._who(seat), t, names) for t in texts]
        self.log_lines = self.log_lines[-LOG_KEEP:]
        self._show_log()

    def _add_events(self, seat: PlayerId, events: Sequence[Event], silent: str = "") -> None:
        """A move's events as log lines, each credited to the seat the event names as its own (the card's
        owner when another seat's card acts during this move), else to the mover. A move with no event to
        read gets the line `silent` (the mover's own move as its menu path; "X passes"), else "X makes a
        choice": public words, never a bare "moved"."""
        names = self._names()
        lines = [credit(self._who(event_owner(e, len(names), seat)), e.text, names) for e in events]
        if not lines:
            lines = [silent or f"{self._who(seat)} makes a choice"]
        self.log_lines += lines
        self.log_lines = self.log_lines[-LOG_KEEP:]
        self._show_log()

    def _note(self, text: str, toast: bool = False) -> None:
        """A short message in the prompt line (and as a toast for a refusal)."""
        if toast:
            self.notify(escape(text), timeout=6)
        prompt = self.query_one("#prompt", Static)
        prompt.update(escape(text))

    def _teach(self) -> None:
        """The lesson panel at a learner's decision in a practice game: what the guide says now (the answer
        to their last guided move, the end of the lessons, the welcome, the step now: lesson.guide_lines);
        once the lessons are over and answered, a line on playing on freely. A new step, and the end of the
        lessons, first open as a page of their own: read in full before choosing, whatever the screen."""
        guide = self.guide
        lines = lesson.guide_lines(guide) if guide is not None else []
        if guide is not None and not lines and guide.done:
            lines = ["Practice game: play on freely. ? gives a hint, h the rules on one page."]
        self._lesson(lines)
        if guide is None:
            return
        news = guide.step if guide.step is not None else "end" if guide.done and guide.just else None
        if news is not None and news not in self._opened:  # each lesson opens once, over the board
            self._opened.add(news)
            body = "\n".join(spaced([seat_refs(line, self._names()) for line in lines]))
            closing = "Enter: to the board (the lesson stays there)"
            page = TextScreen(f"Learning {self.game.title}", body, closing)
            self.push_screen(page, lambda _: self._repoint())

    def _repoint(self) -> None:
        """The cursor on the suggested move again once the lesson's page closes (the list under it could not
        lay out its lines for the cursor while covered)."""
        target = self._suggested()
        if target is not None and self.choice is not None and not self.choice.done():
            self._point_at(target.key)

    def _lesson(self, lines: Sequence[str]) -> None:
        """Show these lines of the tutorial in the lesson panel (headings bold; none: the panel hides)."""
        box = self.query_one("#lesson-box", VerticalScroll)
        box.display = bool(lines)
        names = self._names()
        said = spaced([seat_refs(line, names) for line in lines])  # "P2" in a move's menu path: a name
        marked = [f"[b]{escape(line)}[/]" if line.startswith(HEADS) else escape(line) for line in said]
        self.query_one("#lesson", Static).update("\n".join(marked))
        box.scroll_home(animate=False)

    def _fill_moves(self) -> None:
        """The moves as a tree: card › action › target, as the Discord menus nest them; each complete move
        shows its key (a number, or the game's fixed letter)."""
        tree = self.query_one("#moves", Tree)
        tree.clear()
        self.pointed = None
        field = self.query_one("#filter", Input)
        wanted = field.value.strip().casefold()
        moves = [m for m in self.moves if wanted in " › ".join(m.path).casefold()] if wanted else self.moves
        typed = {m.key: k for k, m in self.keyed}
        open_all = bool(wanted) or len(moves) <= 14
        self.typed = ""
        self.query_one("#chosen", Static).update("")
        self._branch(tree.root, moves, (), typed, open_all)
        tree.border_title = filter_report(field.value.strip(), len(moves), len(self.moves))
        if wanted and self.moves and not moves:
            tree.root.add_leaf("[dim]no move matches (Esc clears)[/]")
        prompt = self.query_one("#prompt", Static)
        info = self.info
        if info is not None and self.viewer is not None and self.moves:
            who = info.seat_name(self.viewer)
            passing = next((m for m in self.moves if m.key == PASS), None) if info.window else None
            head = f"{who}, your move" + (f" · {info.window}: play one, or Enter passes" if passing else "")
            prompt.update(escape(head))
            target = self._suggested() or passing or self._first_move(tree.root)
            if target is not None:
                self._point_at(target.key)
        if self.focused is not field:  # typing in the filter goes on typing
            tree.focus()

    def _suggested(self) -> Move | None:
        """The move the lesson suggests now (a learner's guided decision), else None."""
        key = self.guide.suggested if self.guide is not None else None
        return next((m for m in self.moves if m.key == key), None) if key is not None else None

    def _first_move(self, node: TreeNode[Move]) -> Move | None:
        """Where the cursor starts: the first move the list shows that does not end the turn or pass (one of
        those only when nothing else is offered)."""
        shown = list(_leaves(node))
        return next((m for m in shown if not self._ends(m)), shown[0] if shown else None)

    def _ends(self, move: Move) -> bool:
        """Whether a move ends the turn or passes (the game's `ends` kinds)."""
        return self.present is not None and move.key.split(":", 1)[0] in ends_of(self.present)

    def _clear_filter(self) -> None:
        """Each decision starts unfiltered."""
        field = self.query_one("#filter", Input)
        with field.prevent(Input.Changed):
            field.value = ""
        self.query_one("#moves", Tree).border_title = ""

    def _branch(
        self,
        node: TreeNode[Move],
        moves: list[Move],
        path: tuple[int, ...],
        typed: dict[str, str],
        open_all: bool,
    ) -> None:
        level = walk(moves, path)
        if level is None:
            return
        owners = self._names() if self.info is not None else []
        you = self._who(self.viewer) if self.info is not None and self.viewer is not None else None
        tree = self.query_one("#moves", Tree)
        room = tree.size.width - 2 - 4 * len(path)  # 2: the scroll bar a long list has, 4: a level's indent
        for i, option in enumerate(menu_labels(level.options, owners, you)):
            sub, label = (*path, i), option
            below = walk(moves, sub)
            assert below is not None
            while below.options and len(below.options) == 1 and not below.leaves and below.move is None:
                sub = (*sub, 0)
                label += f" › {menu_labels(below.options, owners, you)[0]}"
                below = walk(moves, sub)
                assert below is not None
            if below.move is not None:
                key = typed.get(below.move.key, "·")
                label = fit_label(label, room - len(key) - 1)
                node.add_leaf(f"[b]{escape(key)}[/] {escape(label)}", data=below.move)
            if below.options:
                child = node.add(escape(fit_label(label, room - 2)), expand=open_all)
                self._branch(child, moves, sub, typed, open_all)

    def _point_at(self, key: str) -> None:
        """Put the cursor on a move (opening the groups above it)."""
        tree = self.query_one("#moves", Tree)

        def find(node: TreeNode[Move]) -> TreeNode[Move] | None:
            for child in node.children:
                if child.data is not None and child.data.key == key:
                    return child
                hit = find(child)
                if hit is not None:
                    return hit
            return None

        hit = find(tree.root)
        if hit is None:
            return
        parent = hit.parent
        while parent is not None:
            parent.expand()
            parent = parent.parent
        tree.refresh()
        if hit.data is not None:
            self._show_chosen(hit.data)
        self.pointed = hit  # Enter plays it even if it comes before the cursor gets there (fast typing)
        self.call_after_refresh(tree.move_cursor, hit)
        self.call_after_refresh(tree.scroll_to_node, hit)

    # --- input --------------------------------------------------------------------------------------------
    def _choose(self, key: str) -> None:
        if self.choice is not None and not self.choice.done():
            self.choice.set_result(key)

    def on_tree_node_selected(self, event: Tree.NodeSelected[Move]) -> None:
        pointed, self.pointed = self.pointed, None
        node = pointed if pointed is not None and pointed.data in self.moves else event.node
        if node.data is not None:
            self._decide(node.data)

    def _decide(self, move: Move) -> None:
        """Play a move; ending the turn or passing on one's own turn, while other moves are offered, asks
        first (unless the setting is off; a response window's Pass never asks)."""
        if self.choice is None or self.choice.done():  # no decision waits (the AI is moving)
            return
        others = sum(not self._ends(m) for m in self.moves)
        info = self.info
        suggested = move == self._suggested()  # the lesson's move: asking again would only confuse
        if not self.confirm or not self._ends(move) or not others or info is None or info.window or suggested:
            self._clear_filter()
            self._choose(move.key)
            return
        asked = self.choice
        plural = "s" if others != 1 else ""

        def answer(yes: bool | None) -> None:
            if yes and self.choice is asked:  # the same decision still waits
                self._clear_filter()
                self._choose(move.key)

        question = f"{move.label}? You still have {others} other move{plural}."
        self.push_screen(ConfirmScreen(question), answer)

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[Move]) -> None:
        """The highlighted move in full under the list (a long one is cut in the list)."""
        move = event.node.data
        if event.node is not self.pointed:
            self.pointed = None  # the cursor moved elsewhere since a number or letter named a move
        if move is not None and move not in self.moves:  # a tree drawn before this one
            return
        if move is not None:
            self._show_chosen(move)
        else:
            group = "Enter or → opens this group" if event.node.allow_expand else ""
            self.query_one("#chosen", Static).update(escape(group))

    def _show_chosen(self, move: Move) -> None:
        """Under the list: the highlighted move in full, then what making it does now, from the viewer's view
        (present.move_words without the card texts it adds: the hand and the inspector show those)."""
        assert self.present is not None
        path = tuple(lesson.unmarked(step) for step in move.path)
        said = f"Enter: {' › '.join(path)}"
        words = move_words(self.present, self.view, move.key, path, self._names(), cards=False)
        lines = [said, *(w for w in words if w != " › ".join(path) + ".")]  # not the path said again
        self.query_one("#chosen", Static).update("\n".join(escape(plain(line)) for line in lines))

    def on_input_changed(self, event: Input.Changed) -> None:
        self._fill_moves()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the filter plays the only matching move, else goes back to the list (filter kept)."""
        tree = self.query_one("#moves", Tree)
        tree.focus()
        shown = list(_leaves(tree.root))
        if len(shown) == 1:
            self._decide(shown[0])

    def on_key(self, event: Key) -> None:
        """A move's number or fixed letter puts the cursor on it (Enter plays it); Esc leaves the filter."""
        tree = self.query_one("#moves", Tree)
        if self.screen is not self.screen_stack[0]:
            return
        if event.key == "escape" and (
            isinstance(self.focused, Input) or self.query_one("#filter", Input).value
        ):
            self._clear_filter()  # Esc clears the filter and gives the keys back to the list
            tree.focus()
            self._fill_moves()
            event.stop()
            return
        if isinstance(self.focused, Input):
            return
        if event.key in ("right", "left") and self.focused is tree and tree.cursor_node is not None:
            self._open_or_close(tree, tree.cursor_node, event.key == "right")
            event.stop()
            return
        if event.key == "enter" and self.focused is not tree and tree.cursor_node is not None:
            tree.focus()  # Enter plays the highlighted move wherever the focus is
            if tree.cursor_node.data is not None:
                self._decide(tree.cursor_node.data)
            event.stop()
            return
        char = event.character or ""
        by_key = dict(self.keyed)
        if char.isdigit():
            now = time.monotonic()
            more = self.typed + char if now - self._typed_at < TYPING else char  # "1" then "2" is 12
            self.typed = more if more in _prefixes(by_key) else char
            self._typed_at = now
            if self.typed in by_key:
                self._point_at(by_key[self.typed].key)
                self._note(f"Enter plays {self.typed}: {by_key[self.typed].label}")
            event.stop()
        elif char and char in by_key:
            self._point_at(by_key[char].key)
            self._note(f"Enter plays {char}: {by_key[char].label}")
            event.stop()

    @staticmethod
    def _open_or_close(tree: Tree[Move], node: TreeNode[Move], opening: bool) -> None:
        """→ opens the group under the cursor (steps into it when open); ← closes it, or goes to its group."""
        if opening and node.children:
            if node.is_expanded:
                tree.move_cursor(node.children[0])
            else:
                node.expand()
        elif not opening and node.children and node.is_expanded:
            node.collapse()
        elif not opening and node.parent is not None and node.parent is not tree.root:
            tree.move_cursor(node.parent)

    # --- actions ------------------------------------------------------------------------------------------
    def action_quit_saved(self) -> None:
        """Save and quit: every move is already in the database."""
        if self.choice is not None and not self.choice.done():
            self._choose(QUIT)
        else:
            self.exit(self.outcome)

    def action_filter(self) -> None:
        self.query_one("#filter", Input).focus()

    def action_inspect(self, card: str | None = None) -> None:
        """Every card on screen with its full text; `card` starts on that one (a click on its name)."""
        entries = self._entries()
        rows = self._inspectable(entries)
        start = next((i for i, (s, _) in enumerate(rows) if s.card == card), 0)
        if card is not None and not any(s.card == card for s, _ in rows) and card in entries:
            rows.append((Seen(card, "Named in the log"), card_text(entries[card])))
            start = len(rows) - 1
        self.push_screen(CardScreen(rows, start))

    def _inspectable(self, entries: dict[str, CardEntry]) -> list[tuple[Seen, str]]:
        """The cards on screen, then those the recent log names (what was just played), with their text."""
        rows: list[tuple[Seen, str]] = []
        for s in piles_last(list(dict.fromkeys(self.seen))):  # a pile's copies of one card are one row
            e = entries.get(s.card)
            if e is not None:
                rows.append((s, card_text(e, [entries[f] for f in e.faces if f in entries and f != e.id], s)))
        listed = {s.card for s, _ in rows}
        recent = "\n".join(self.log_lines[-12:])
        for e in entries.values():
            if e.id not in listed and len(e.name) >= 3 and e.name in recent:
                rows.append((Seen(e.id, "Named in the log"), card_text(e)))
                listed.add(e.id)
        return rows

    def action_board(self) -> None:
        """The whole board in a page of its own (on a small screen the board is folded)."""
        if self.present is not None and self.view:
            text = self.present.board_text(self.view, self._names())
            self.push_screen(TextScreen("The board", text))

    @work(group="log", exclusive=True)
    async def action_whole_log(self) -> None:
        """The whole log as this seat may read it, replayed from the database, numbered."""
        if self.sessions is None or self.info is None:
            return
        seat = self._eyes()
        user = None if seat is None else self.info.seats[seat].user_id
        rows = await self.sessions.log_for(self.match_id, user)
        lines = self._credited(rows)
        body = (
            "\n".join(f"{i:>4}  {line}" for i, line in enumerate(lines, 1)) or "Nothing has been played yet."
        )
        await self.push_screen(EndFirst("The whole log (what you may see)", body), wait_for_dismiss=True)

    def action_help(self) -> None:
        if self.game is not None and self.present is not None:
            title, body = help_page(self.game, self.present)
            self.push_screen(TextScreen(title, body))

    @work(group="hint", exclusive=True)
    async def action_hint(self) -> None:
        """The strongest AI's three best moves for this player, from what they can see (the help once the
        game is over)."""
        if self.over:
            self.action_help()
            return
        if self.sessions is None or self.info is None or self.viewer is None or self.choice is None:
            return
        self._note("Thinking…")
        user = self.info.seats[self.viewer].user_id
        assert user is not None  # the viewer is a person
        try:
            rated = await self.sessions.hint(self.match_id, user)
        except SessionError as e:
            self._note(str(e), toast=True)
            return
        typed = {m.key: k for k, m in self.keyed}
        names = self._names()
        lines = [
            f"{typed.get(m.key, '?')}. {' › '.join(seat_refs(step, names) for step in m.path)}"
            f" — about {min(1.0, max(0.0, chance)):.0%} to win"
            for m, chance in rated
        ]
        self._note("")
        await self.push_screen(
            TextScreen("Hint: the AI's best moves for you", "\n".join(lines) or "No move to suggest."),
            wait_for_dismiss=True,
        )

    @work(group="undo", exclusive=True)
    async def action_undo(self) -> None:
        """Say what undo would take back (or why it cannot), and take it back on y."""
        if self.over:
            self.notify("The game is over; there is nothing to undo.", timeout=6)
            return
        if self.sessions is None or self.info is None or self.viewer is None or self.choice is None:
            return
        info, seat = self.info, self.viewer
        user = info.seats[seat].user_id
        assert user is not None
        try:
            what = await self.sessions.undo_preview(self.match_id, user)
        except SessionError as e:
            self._note(str(e), toast=True)
            return
        sure = await self.push_screen(
            TextScreen(
                "Undo", f"Take back your last move?\n\n  {what}", "y: take it back · n: keep it", True
            ),
            wait_for_dismiss=True,
        )
        if not sure:
            return
        try:
            result = await self.sessions.undo(self.match_id, user, info.state_id)
        except SessionError as e:
            self._note(str(e), toast=True)
            return
        self._add_log(seat, [f"You took back: {what}"] if result.events else [])
        self._clear_filter()
        self._choose(REDRAW)

    async def _say(self, title: str, body: str, footer: str = "Enter or Esc closes this.") -> None:
        await self.push_screen(TextScreen(title, body, footer), wait_for_dismiss=True)

    # --- what happens meanwhile ---------------------------------------------------------------------------
    def _on_event(self, ev: SessionEvent) -> None:
        """AI moves and the moves played for a person (their window setting, a lone move) join the log as
        they happen, as the viewer may read them."""
        if ev.info.id != self.match_id or ev.kind != "action" or ev.seat is None or self.info is None:
            return
        if not ev.info.seats[ev.seat].is_ai and not ev.auto:
            return
        passed = (ev.action_key or "").split(":", 1)[0] == PASS
        silent = f"{self._who(ev.seat)} passes" if passed else ""
        self._add_events(ev.seat, ev.visible_events(self._eyes()), silent)
        if self.choice is not None and not self.choice.done() and ev.seat != self.viewer:
            self._choose(REDRAW)  # the position changed under the person's eyes: draw it again


class EndFirst(TextScreen):
    """A page of text opened at its end: the whole log, whose newest line is the one wanted."""

    def on_mount(self) -> None:  # TextScreen's own on_mount runs too: Textual calls each class's handler
        self.query_one("#text-scroll", VerticalScroll).scroll_end(animate=False)


def spaced(lines: Sequence[str]) -> list[str]:
    """The guide's lines with a blank line before each heading or verdict (HEADS) but the first."""
    out: list[str] = []
    for line in lines:
        out += [""] * (bool(out) and line.startswith(HEADS) and out[-1] != "") + [line]
    return out


def _pattern(names: dict[str, str]) -> re.Pattern[str] | None:
    """One regex for every name, the longest first (None for none)."""
    if not names:
        return None
    return re.compile("|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)))


def _links(text: str, names: dict[str, str], pattern: re.Pattern[str] | None) -> str:
    """Plain text as markup with each name found a link to its card (app.inspect)."""
    if pattern is None:
        return escape(text)
    out, at = [], 0
    for m in pattern.finditer(text):
        out.append(escape(text[at : m.start()]))
        out.append(f"[@click=app.inspect('{names[m.group(0)]}')]{escape(m.group(0))}[/]")
        at = m.end()
    out.append(escape(text[at:]))
    return "".join(out)


def warm_workers() -> None:
    """Start the AI workers' fork server now, while this process still has its real stdio."""
    ctx = worker_context()
    if ctx.get_start_method() == "forkserver":
        from multiprocessing import forkserver

        forkserver.ensure_running()


def _leaves(node: TreeNode[Move]) -> Iterator[Move]:
    """The moves under a node of the list, in the order it shows them."""
    for child in node.children:
        if child.data is not None:
            yield child.data
        yield from _leaves(child)


def filter_report(text: str, shown: int, total: int) -> str:
    """What the filter lets through, as the move list's title ("" with no filter)."""
    if not text:
        return ""
    counted = f"{shown} of {total} moves" if shown else "no move matches"
    return escape(f"filter: {text} — {counted}")


def _prefixes(by_key: dict[str, Any]) -> set[str]:
    return {k[:i] for k in by_key if k.isdigit() for i in range(1, len(k) + 1)}


def help_page(game: Any, present: Presentation) -> tuple[str, str]:
    """The help screen: how to play on one page (the game's tutorial's; else the summary), the keys, then
    the game's own rule text and Agora's rulings."""
    keys = (
        "↑↓ and Enter choose a move (→ opens a group, ← closes it); a move's number or letter points at it\n"
        "/ filters the moves (Enter: back to the list, Esc: clear) · i every card on screen with its text\n"
        "? a hint from the AI · u undo (it says what it would take back) · b the whole board\n"
        "l the whole log · q save & quit"
    )
    tutorial = lesson.of(game)
    if tutorial is not None:  # the one-page rules first
        page = "\n".join(lesson.page_lines(game.title, tutorial.page))
        body = f"{page}\n\n{game.title}, {player_count(game)}."
    else:
        body = f"{game.title}, {player_count(game)}.\n\n{plain(present.summary)}"
    body += f"\n\nKeys\n{keys}"
    body += f"\n\n── The rules ({game.title}'s own text) ──\n\n{rules_text(game)}"
    return f"{game.title} — help", body
