"""Play in a terminal through the same session manager and SQLite store as Discord.

Each human sees only their own view (`game.view(state, seat)`) and a numbered menu of their legal moves
(`game.describe` paths joined by " › "). With two or more humans at one screen (hot seat) the screen is
cleared and the next player is asked to take it. AI moves print as they happen. Every move is committed
to the database before the next prompt, so `q` (or Ctrl-D, or a crash) loses nothing: resume later.
"""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import dataclass
from typing import Any, TextIO

from bot.sessions import MatchInfo, SessionError, SessionEvent, SessionManager
from bot.store import ACTIVE, LIVE_STATUSES, LOBBY, SqliteStore
from engine.core import JSON, Event, PlayerId
from engine.games.ophion.cards import card_name
from engine.registry import get as get_game

DEFAULT_DB = "agora-console.db"
CLEAR = "\033[2J\033[H"
SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
HELP = "Type a move's number; u = undo, r = show the board again, q = save and quit, h = this help."


# --- drawing views as text ------------------------------------------------------------------------------
def card_label(code: str | None) -> str:
    """An Omphala card code as people write it ("KC" -> "K♣"); "??" for a card this viewer cannot see."""
    if code is None:
        return "??"
    return code[:-1] + SUITS.get(code[-1], code[-1])


def _entity(cards: list[str | None]) -> str:
    return "+".join(card_label(c) for c in cards)


def format_omphala(view: JSON, names: list[str]) -> str:
    """An Omphala view (see the view JSON spec) as a few lines of text."""

    def who(seat: int | None) -> str:
        return "-" if seat is None else f"P{seat + 1}"

    lines = []
    phase, viewer = view["phase"], view.get("viewer")
    if phase == "choose":
        waiting = ", ".join(who(s) for s in view["to_act"])
        head = f"Omphala · everyone secretly chooses 2 face-down cards (waiting for {waiting})"
    elif phase == "play":
        left = view["actions_left"]
        head = (
            f"Omphala · turn {view['turn']} · {who(view['current'])} to play "
            f"({left} action{'s' if left != 1 else ''} left)"
        )
        if view.get("pending") == "discard":
            head += f" · {who(view['current'])} must discard"
        elif view.get("pending") == "reshuffle":
            head += f" · {who(view['current'])} may reshuffle"
    else:
        head = "Omphala · game over"
    lines.append(f"== {head} ==")
    discard = view.get("discard") or []
    top = f" (top {card_label(discard[-1])})" if discard else ""
    lines.append(f"Deck {view['deck']} · discard pile {len(discard)}{top}")
    for p in view["players"]:
        seat = p["seat"]
        name = names[seat] if seat < len(names) else f"Player {seat + 1}"
        you = " (you)" if seat == viewer else ""
        mark = " ◀" if seat in view["to_act"] else ""
        status = "" if phase != "choose" else (" · chosen" if p["chosen"] else " · choosing")
        plural = "s" if p["cards"] != 1 else ""
        lines.append(f"{who(seat)} {name}{you}: {p['cards']} card{plural} in front{status}{mark}")
        front = " ".join(f"[{_entity(e['cards'])}]" for e in p["front_row"]) or "—"
        lines.append(f"    front: {front}")
        if p["back_row"] is not None:
            back = "  ".join(_entity(e) for e in p["back_row"]) or "—"
            lines.append(f"    back:  {back}")
        if p.get("hand"):
            lines.append(f"    hand:  {'  '.join(card_label(c) for c in p['hand'])}")
    lines += _last_and_log(view)
    result = view.get("result")
    if result:
        winners = ", ".join(who(s) for s in result["winners"])
        lines.append(f"Result: winner{'s' if len(result['winners']) > 1 else ''} {winners}")
        lines.append(f"    cards {result['cards']} · power {result['power']}")
        if result.get("battle"):
            lines.append(f"    line-up battle survivors {result['battle']}")
    return "\n".join(lines)


def format_ophion(view: JSON, names: list[str]) -> str:
    """An Ophion view as text: the market with prices, then each player's board."""

    def named(cards: list[str]) -> str:
        return ", ".join(card_name(c) for c in cards) or "—"

    viewer, to_act = view.get("viewer"), view.get("to_act") or []
    if view.get("result"):
        head = "Ophion · game over"
    else:
        current = view.get("current")
        who = f"P{current + 1} to play" if isinstance(current, int) else "combat"
        head = f"Ophion · round {view['round']}/{view['rounds']} · tier {view['tier']} · {who}"
    lines = [f"== {head} =="]
    market = "  ".join(f"{m['name']} ({m['price']}g)" for m in view.get("market") or [])
    lines.append(f"Market: {market or '—'}")
    lines.append(f"Decks: tier 1 {view.get('tier1_size', 0)} · tier 2 {view.get('tier2_size', 0)}")
    for p in view["players"]:
        seat = p["seat"]
        name = names[seat] if seat < len(names) else f"Player {seat + 1}"
        you = " (you)" if seat == viewer else ""
        mark = " ◀" if seat in to_act else (" · passed" if p.get("passed") else "")
        tracks = f"{p['total']} VP · mana {p['mana']} · gold {p['gold']} · AP {p['ap']}"
        lines.append(f"P{seat + 1} {name}{you}: {tracks}{mark}")
        upgrades = ", ".join(card_name(u) if u else "empty" for u in p["upgrades"])
        lines.append(f"    upgrades: {upgrades}")
        for grid in ("attack", "defense"):
            used = f"{p[grid + '_used']}/{p['grid_capacity']}"
            lines.append(f"    {grid} {p[grid]} ({used}): {named(p[grid + '_grid'])}")
        cards = f"hand {p['hand_size']} · deck {p['deck_size']} · discard {p['discard_size']}"
        lines.append(f"    {cards}" + (f" · holding: {named(p['hand'])}" if p.get("hand") else ""))
    lines += _last_and_log(view)
    result = view.get("result")
    if result:
        winners = ", ".join(f"P{w + 1}" for w in result["winners"])
        lines.append(f"Result: winner{'s' if len(result['winners']) > 1 else ''} {winners}")
        lines.append(f"    VP {result['scores']} (upgrades {result['upgrade_points']})")
    return "\n".join(lines)


def _last_and_log(view: JSON) -> list[str]:
    """The last action and the recent events of a view, as lines."""
    lines = [f"Last: {view['last']['text']}"] if view.get("last") else []
    if view.get("log"):
        lines.append("Log:")
        lines.extend(f"  · {t}" for t in view["log"])
    return lines


def format_generic(view: JSON, names: list[str]) -> str:
    """Any game's view, compactly: one line per top-level field."""
    lines = [f"== {view.get('game', 'game')} =="]
    for key, value in view.items():
        if key == "game":
            continue
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        lines.append(f"{key}: {text if len(text) <= 200 else text[:197] + '...'}")
    return "\n".join(lines)


FORMATTERS = {"omphala": format_omphala, "ophion": format_ophion}


def format_view(view: JSON, names: list[str]) -> str:
    """A view as text, with the game's own formatter if it has one."""
    return FORMATTERS.get(str(view.get("game")), format_generic)(view, names)


# --- one game at one screen -------------------------------------------------------------------------------
@dataclass
class _Screen:
    """Where text goes and comes from."""

    inp: TextIO
    out: TextIO
    clear: bool

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    async def ask(self, prompt: str) -> str | None:
        """A line of input, or None at end of input."""
        self.out.write(prompt)
        self.out.flush()
        line = await asyncio.to_thread(self.inp.readline)
        if not _isatty(self.inp):  # echo scripted input so a transcript reads like a session
            self.out.write(line if line.endswith("\n") else line + "\n")
        return None if line == "" else line.strip()

    def wipe(self) -> None:
        self.out.write(CLEAR if self.clear else "\n" + "-" * 60 + "\n")
        self.out.flush()


class ConsoleGame:
    """Runs one match at one screen until it ends or the people quit."""

    def __init__(self, sessions: SessionManager, match_id: int, screen: _Screen) -> None:
        self.sessions = sessions
        self.match_id = match_id
        self.screen = screen
        self.info: MatchInfo | None = None
        self.humans: list[PlayerId] = []

    def _names(self, info: MatchInfo) -> list[str]:
        return [info.seat_name(i) for i in range(len(info.seats))]

    def _viewer(self) -> PlayerId | None:
        """Whose eyes the shared screen shows events to: the one human, or public if several."""
        return self.humans[0] if len(self.humans) == 1 else None

    def _on_event(self, ev: SessionEvent) -> None:
        """Print AI moves as they happen."""
        if ev.info.id != self.match_id or ev.kind != "action" or ev.seat is None:
            return
        if not ev.info.seats[ev.seat].is_ai:
            return
        self._print_events(ev.info.seat_name(ev.seat), ev.visible_events(self._viewer()))

    def _print_events(self, who: str, events: list[Event]) -> None:
        if not events:
            self.screen.say(f"  {who} moved.")
        for e in events:
            self.screen.say(f"  {who}: {e.text}")

    async def run(self) -> int:
        """Play until the game ends (0) or the people quit (0, saved); 1 if the game cannot go on."""
        info = await self.sessions.get(self.match_id)
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
                    self.screen.say("The AI players are stuck; the game is saved. Try --resume later.")
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
        view = await self.sessions.view_for(self.match_id, user)
        self.screen.say()
        self.screen.say(format_view(view, self._names(info)))
        moves = await self.sessions.moves_for(self.match_id, user)
        self.screen.say(f"\n{info.seat_name(seat)}, your move:")
        width = len(str(len(moves)))
        for i, m in enumerate(moves, 1):
            self.screen.say(f"  {i:>{width}}. {m.label}")
        while True:
            answer = await self.screen.ask(f"[1-{len(moves)}, u, r, q, h] > ")
            if answer is None or answer.lower() in ("q", "quit", "exit"):
                return "quit"
            cmd = answer.lower()
            if cmd in ("h", "?", "help"):
                self.screen.say(HELP)
            elif cmd == "r":
                return "moved"  # redraws
            elif cmd == "u":
                try:
                    result = await self.sessions.undo(self.match_id, user, info.state_id)
                except SessionError as e:
                    self.screen.say(str(e))
                    continue
                self._print_events("You", [e for e in result.events if e.visible(seat)])
                return "moved"
            elif cmd.isdigit() and 1 <= int(cmd) <= len(moves):
                try:
                    result = await self.sessions.submit(
                        self.match_id, user, moves[int(cmd) - 1].key, info.state_id
                    )
                except SessionError as e:
                    self.screen.say(str(e))
                    return "moved"
                self._print_events("You", [e for e in result.events if e.visible(seat)])
                return "moved"
            else:
                self.screen.say(f"Please type a number from 1 to {len(moves)}. {HELP}")

    async def _the_end(self, info: MatchInfo) -> int:
        if info.status != "finished":
            self.screen.say(f"This game is {info.status}. {info.note}".strip())
            return 0 if info.status == "abandoned" else 1
        viewer = self._viewer()
        user = None if viewer is None else info.seats[viewer].user_id
        view = await self.sessions.view_for(self.match_id, user)
        self.screen.say()
        self.screen.say(format_view(view, self._names(info)))
        shares = info.returns or ()
        winners = [info.seat_name(i) for i, v in enumerate(shares) if v > 0]
        self.screen.say(f"\nGame #{info.id} is over. Won by: {', '.join(winners) or 'nobody'}.")
        return 0

    def _saved(self, info: MatchInfo) -> int:
        self.screen.say(f"\nSaved. Resume with: python -m bot play --resume {info.id}")
        return 0


# --- the `python -m bot play` command ---------------------------------------------------------------------
@dataclass(frozen=True)
class PlayOptions:
    """What `python -m bot play` was asked to do."""

    game: str = "omphala"
    players: int = 2
    ai: int | None = None  # None: everyone but one human
    seed: int | None = None
    db: str = DEFAULT_DB
    resume: int | str | None = None  # a match id, "latest", or None for a new game
    list: bool = False
    level: str = "random"
    ai_delay: float = 0.4


async def play(opts: PlayOptions, inp: TextIO | None = None, out: TextIO | None = None) -> int:
    """Start (or resume, or list) console games; the process exit code."""
    inp = inp if inp is not None else sys.stdin
    out = out if out is not None else sys.stdout
    screen = _Screen(inp, out, clear=_isatty(out))
    store = SqliteStore(opts.db)
    await store.open()
    sessions = SessionManager(store, ai_delay=opts.ai_delay)
    try:
        if opts.list:
            return await _list(sessions, screen)
        if opts.resume is not None:
            match_id = await _find_resume(sessions, opts.resume, screen)
            if match_id is None:
                return 1
            screen.say(f"Resuming game #{match_id}.")
        else:
            created = await _new_game(sessions, opts, screen)
            if created is None:
                return 2
            match_id = created
        return await ConsoleGame(sessions, match_id, screen).run()
    except SessionError as e:
        screen.say(str(e))
        return 1
    finally:
        await sessions.close()
        await store.close()


async def _new_game(sessions: SessionManager, opts: PlayOptions, screen: _Screen) -> int | None:
    try:
        game = get_game(opts.game)
    except KeyError as e:
        screen.say(str(e.args[0]))
        return None
    ai = opts.players - 1 if opts.ai is None else opts.ai
    if not game.min_players <= opts.players <= game.max_players:
        screen.say(f"{game.title} is for {game.min_players} to {game.max_players} players.")
        return None
    if not 0 <= ai <= opts.players:
        screen.say(f"--ai must be between 0 and --players ({opts.players}).")
        return None
    humans = opts.players - ai
    info = await sessions.create(
        None, None, opts.game, 1, seed=opts.seed, host_name="Player 1", origin="console", seat_host=humans > 0
    )
    for i in range(2, humans + 1):
        await sessions.join(info.id, i, f"Player {i}")
    for _ in range(ai):
        await sessions.add_ai(info.id, 1, opts.level)
    info = await sessions.start(info.id, 1)
    names = ", ".join(info.seat_name(i) for i in range(len(info.seats)))
    screen.say(f"Game #{info.id}: {game.title} for {len(info.seats)} ({names}).")
    return info.id


async def _find_resume(sessions: SessionManager, which: int | str, screen: _Screen) -> int | None:
    if which == "latest":
        games = await sessions.list_matches(origin="console", statuses=(ACTIVE,), limit=1)
        if not games:
            screen.say(
                "There is no unfinished console game to resume; start one with: python -m bot play omphala"
            )
            return None
        return games[0].id
    try:
        info = await sessions.get(int(which))
    except SessionError as e:
        screen.say(str(e))
        return None
    if info.status == LOBBY:
        screen.say(f"Game #{info.id} never started.")
        return None
    return info.id


async def _list(sessions: SessionManager, screen: _Screen) -> int:
    games = await sessions.list_matches(origin="console", limit=30)
    if not games:
        screen.say("No console games yet; start one with: python -m bot play omphala")
        return 0
    screen.say(f"{'id':>5}  {'game':<10} {'status':<10} {'moves':>5}  players")
    for g in games:
        names = ", ".join(
            s.name or (f"AI {i + 1}" if s.is_ai else f"Player {i + 1}") for i, s in enumerate(g.seats)
        )
        live = " ◀ resume with --resume " + str(g.id) if g.status in LIVE_STATUSES else ""
        screen.say(f"{g.id:>5}  {g.game_id:<10} {g.status:<10} {g.state_id:>5}  {names}{live}")
    return 0


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
