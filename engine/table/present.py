"""Presentation: what a game tells people about itself, read by every front end (bot/, render/).

Each game package has a pure `present` module (no I/O) that satisfies `Presentation`, and its Game class
points to it (`present: ClassVar = present_module`). Front ends call `of(game)` and never name a game;
a game without one gets `Generic`, which says what any view allows.
"""

from __future__ import annotations

import importlib
import re
import sys
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from engine.core import JSON, Action
from engine.table.decisions import PASS

Stat = tuple[str, int | str]


@dataclass(frozen=True, slots=True)
class CardEntry:
    """One card of a game's catalogue, as /card, the card face and the hand page show it."""

    id: str  # the id used in views and action keys ("KC", "goblin")
    name: str  # "King of Clubs", "Goblin"
    type: str  # "Club", "monster", "action"
    stats: tuple[Stat, ...] = ()  # in reading order: ("Power", 13), ("Cost", 5)
    text: str = ""  # what it does, in a sentence or two
    short: str = ""  # the corner label, e.g. "K♣" ("" = the name)
    colour: str = ""  # an ink hint for the card face: "red", "black", or the type's name
    # The ids of the other faces of the same card (a Gladiator's Level 1/2 and Level 3/4 cards): /card shows
    # them together, whichever face was asked for.
    faces: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """The short label, or the name."""
        return self.short or self.name


def card_lines(entry: CardEntry, bold: str = "") -> list[str]:
    """A card as the front ends write it: "Name (short) — type", its printed stats, its text; `bold` wraps
    the name and the numbers ("**" for Discord markdown, "" for a terminal)."""
    short = f" ({entry.short})" if entry.short and entry.short != entry.name else ""
    head = f"{bold}{entry.name}{bold}{short}"
    lines = [f"{head} — {entry.type}" if entry.type else head]
    if entry.stats:
        lines.append(" · ".join(f"{k} {bold}{v}{bold}" for k, v in entry.stats))
    return [*lines, entry.text] if entry.text else lines


@dataclass(frozen=True, slots=True)
class Status:
    """Where a game stands, from a view: one headline, the pending decision, a score line per seat."""

    headline: str  # "Ada to play · 2 actions left", "Game over · Ada wins"
    prompt: str = ""  # the pending decision in words: "Ada must discard a back-row card"
    scores: tuple[str, ...] = ()  # one line per seat, e.g. "Ada: 3 cards"
    turn: tuple[Any, ...] = ()  # identifies one turn: a front end posts anew when it changes
    # A response window offered to seats other than the turn player ("Turning Point window"): front ends
    # ping them, offer a Pass, and pass for them after a wait that is the same for every window.
    window: str = ""


@dataclass(frozen=True, slots=True)
class Prompt:
    """What a view's viewer is asked to decide, as the hand page and the terminal word it."""

    text: str  # "Your turn · 2 actions left", "Choose a card to discard", "Waiting for Ada"
    yours: bool = False  # the viewer's move (the hand page frames it in gold)


def outcome(winners: Sequence[str], why: str = "", how: str = "", tie: str = "draw") -> str:
    """How a game ended, the same in every game: "Ada wins", "Ada and Bo draw" (`tie`: the game's word for
    it), "a draw" when nobody wins; then how they won ("with 5 cards") and the game's reason in brackets
    ("(conquers Olympus)")."""
    head = f"{together(winners)} {'wins' if len(winners) == 1 else tie}" if winners else "a draw"
    return " ".join(x for x in (head, how, f"({why})" if why else "") if x)


def game_over(winners: Sequence[str], why: str = "", how: str = "", tie: str = "draw") -> str:
    """The headline of a finished game: "Game over · " and its `outcome`."""
    return f"Game over · {outcome(winners, why, how, tie)}"


# A game's pending decision in words: what to do, addressed to whoever decides ("" when none; the status puts
# the deciders' names before it, the hand page says it to the viewer), and the name of the response window it
# is ("" unless one: front ends time it out).
Pending = tuple[str, str]


def decision_of(view: JSON) -> tuple[JSON, str, str]:
    """The view's pending decision ({} when none), the name of its card ("" when none) and its kind."""
    d = view.get("decision") or {}
    return d, d.get("source_name") or "", d.get("kind") or ""


def ended(view: JSON, names: Sequence[str], scores: tuple[str, ...]) -> Status | None:
    """The status of a finished game (view["result"]: its winners and the game's reason, "why"), None while
    it goes on."""
    result = view.get("result")
    if not result:
        return None
    winners = [seat_name(w, names) for w in result.get("winners") or []]
    return Status(game_over(winners, result.get("why", "")), "", scores, ("over",))


def board_end(view: JSON, status: Status, names: Sequence[str], result: bool = True) -> list[str]:
    """The last lines of a terminal board: the result (with `result`) or the pending decision, then the log's
    last 12 lines."""
    lines = []
    if result and view.get("result"):
        lines.append(f"Result: {status.headline.split(' · ', 1)[1]}")
    elif status.prompt:
        lines.append(f"Now: {status.prompt}")
    if view.get("log"):
        lines.append("Log:")
        lines += [f"  · {seat_refs(t, names)}" for t in view["log"][-12:]]
    return lines


def deciders(view: JSON, names: Sequence[str]) -> str:
    """Whom the view's pending decision (view["decision"]["players"]) waits for: "Ada", "Ada and Bo"."""
    decision = view.get("decision") or {}
    return together([seat_name(p, names) for p in decision.get("players") or []])


def decided(who: str, what: str) -> str:
    """A pending decision as the status words it for everyone: "Ada: discard a card" ("" without one)."""
    return f"{who}: {what}" if what else ""


def to_everyone(status: Status) -> Prompt:
    """A spectator's prompt: the pending decision, else the headline."""
    return Prompt(status.prompt or status.headline)


def asked(view: JSON, status: Status, what: str, idle: str) -> Prompt:
    """The viewer's prompt in a game whose decisions are worded once as `what` (lower case, addressed to
    whoever decides): the headline once the game is over, `what` (or `idle`, the viewer's own turn) when the
    viewer is to act, else what everyone waits for (a spectator: the pending decision, else the headline)."""
    if status.turn == ("over",):
        return Prompt(status.headline)
    if view.get("viewer") is None:
        return to_everyone(status)
    if view.get("viewer") in (view.get("to_act") or []):
        text = what or idle
        return Prompt(text[:1].upper() + text[1:], True)
    return Prompt(f"Waiting · {status.prompt or status.headline}")


@dataclass(frozen=True, slots=True)
class Seen:
    """One card a view shows face up, where it lies and how it stands now: what a front end lists for
    "inspect any card" (the viewer's hand, cards in play, a market or shared row, a card just played)."""

    card: str  # a catalogue id (CardEntry.id)
    where: str  # the zone in words, seats by `names`: "Your hand", "AI 2 · Action Field", "Agora"
    now: str = ""  # current stats and state with modifiers, "" if none: "Life 3/8 · ADMG 3 (+1) · Set"
    mine: bool = False  # in the viewer's own hand (a front end shows these with their text at all times)


@dataclass(frozen=True, slots=True)
class SeatChoice:
    """Something each person picks for their seat before the deal, e.g. a deck; AI seats and people who
    do not pick get one at random from the game's seeded RNG."""

    key: str  # a short identifier (letters, digits, "_" or "-"): "deck"
    label: str  # "Deck"
    options: tuple[tuple[str, str], ...]  # (option id, option label): ("crown", "Crown")


class DeckBook(Protocol):
    """A game's deck builder (optional; read it with `deck_book_of`): decks people build from the card pool,
    save under a name and bring to a seat instead of one of the ready options of a seat choice.

    A deck is plain JSON with its name under "name"; people write it as text that fits a chat message box.
    Front ends keep each person's decks per game, offer them beside the choice's options in the lobby, and
    deal a seat that brings one with setup's `options["decks"]`: a list with one entry per seat in seat order,
    the deck's JSON (as `parse` returned it) or None; that seat's `options["seat_choices"]` entry then has no
    `key`. The list is missing when no seat brought a deck. Read a seat's with `deck_of`; the game checks it
    again (it may have been saved under older cards) and treats a deck it refuses as no pick (a random one).
    """

    key: str  # the key of the SeatChoice (one of `choices`) a saved deck stands in for ("team")
    example: str  # a ready deck written as text: what people copy and edit

    def parse(self, text: str, name: str = "") -> JSON:
        """The deck written in `text`, called `name`, as JSON; ValueError whose message lists every problem
        in plain words, one per line, when it is not a legal deck."""
        ...

    def text(self, deck: JSON) -> str:
        """A deck written back as text in the format `parse` reads (parse(text(d), d["name"]) == d)."""
        ...


class Presentation(Protocol):
    """The words and order a game gives its front ends; every function is pure.

    Optional attribute `choices: Sequence[SeatChoice]` (read it with `choices_of`; a module may omit it):
    what each person picks for their seat in the lobby (Discord's select menus, the terminal's
    `--choose KEY=ID`). The game gets the picks in `setup(n, seed, options)` as `options["seat_choices"]`:
    a list with one dict per seat in seat order, `{key: option id}` for what the seat picked and `{}` for a
    seat that did not (an AI seat, a person who did not choose); nothing else in options changes (but for
    the saved decks of a deck builder, below). The list may be missing (e.g. `setup(n, seed)` in tests): the
    game picks whatever is missing at random from its own seeded RNG.

    Optional function `prompt(view, names) -> Prompt` (read it with `prompt_of`; every game of Agora has
    one): what the view's viewer is asked to decide now (a spectator: what everyone waits for), the one
    wording of each decision that the hand page, the terminal and Discord's hand message all show; a game
    words each pending decision once, for the status (after the deciders' names) and the prompt alike.

    Optional function `on_table(view, names) -> list[Seen]` (read it with `seen_cards`): every card the
    view shows face up, zone by zone in reading order (the viewer's hand first), with its current stats;
    drawn from the view alone, so it never names a card the viewer may not see.

    Optional function `panel(view, names, width) -> str` (read it with `panel_text`): the board for a panel
    `width` columns wide beside the viewer's hand, the log and the status (the terminal app): every side in
    view in as few lines as it takes, without the hand, the log or the headline; `board_text` otherwise.

    Optional function `describe(view, names) -> list[str]` (read by engine/table/describe.py): the table
    for a screen reader, lines most important first, what the board image draws and nothing more: each
    side's counters and hidden zones as counts ("hand 6 cards"), then its cards in play by name with how
    they stand, the viewer's first, then the shared zones; no status, no log (describe.py adds them).
    Without it the alt text reads `board_text`.

    Optional function `describe_hand(view, names) -> list[str]`: what the hand image draws besides its
    prompt and the cards' texts: the viewer's hand by name (describe.py's `hand_lines`), then the rest of
    that image (their rows, their stack); without it, the hand by name with types and printed stats.
    Optional attribute `hand_text: bool`: True when the hand image prints each card's whole text (the alt
    text then ends with it).

    Optional function `explain(view, key, path, names) -> list[str]` (read it with `move_words`): what a
    move of the viewer does, in plain words, from their own view: "what will happen now" if they make it
    (the move's key and menu path as game.describe gives them), a sentence or two; the texts of the cards it
    names are added by `move_words` from the catalogue. The hand menu's ❔ and the terminal's inspector show
    it; a step of a tutorial points at it.

    Optional attribute `windows: bool` (read it with `has_windows`): True for a game with response windows.

    Optional attribute `ends: frozenset[str]` (read it with `ends_of`): the kinds of move that end the
    seat's turn or pass (default: "end_turn" and the decisions' PASS). A terminal keeps its cursor off them
    on the seat's own turn and asks before playing one while other moves are offered.

    Optional attribute `deck_book: DeckBook` (read it with `deck_book_of`): the game's deck builder, whose
    saved decks stand in for the seat choice with its key (`options["decks"]`).

    A response window (a pending decision offered to seats other than the turn player) sets
    `Status.window`; the front ends then ping those seats, offer them a Pass and pass for them after a wait
    that never depends on their hand.
    """

    summary: str  # the rules in a short paragraph (Discord markdown: **bold** allowed)
    rules: str  # where the full rules are, in one sentence

    @property
    def shortcuts(self) -> Mapping[str, str]:
        """Action kind -> the fixed letter a terminal offers ("end_turn": "e")."""
        ...

    def status(self, view: JSON, names: Sequence[str]) -> Status:
        """The status of any view (spectator or a seat's), naming seats by `names`."""
        ...

    def catalogue(self) -> list[CardEntry]:
        """Every card of the game, in the game's order ([] for a game with no distinct cards)."""
        ...

    def menu_rank(self, action: Action, path: tuple[str, ...]) -> tuple[Any, ...]:
        """A sort key that puts a seat's moves in the game's order (lowest first)."""
        ...

    def board_text(self, view: JSON, names: Sequence[str]) -> str:
        """The view as plain text lines, for a terminal."""
        ...

    def skip(self, view: JSON, actions: list[Action]) -> Action:
        """The move a timed-out seat makes when the server's policy is to skip it: end the turn or pass,
        or a default answer to a pending decision. `actions` are the seat's legal moves (never empty)."""
        ...


def of(game: Any) -> Presentation:
    """The game's presentation: its `present` attribute, else the `present` module beside its class
    (engine/games/<id>/present.py), else the generic one."""
    found = getattr(game, "present", None)
    if found is None:
        package = type(game).__module__.rpartition(".")[0]
        try:
            found = importlib.import_module(f"{package}.present") if package else None
        except ModuleNotFoundError as e:
            if e.name != f"{package}.present":
                raise
    return found or Generic(game)


def prompt_of(present: Any, view: JSON, names: Sequence[str]) -> Prompt:
    """What the view's viewer is asked to decide (the presentation's `prompt`), or, for a game without one,
    "Your move", what they wait for, or the result, from its status."""
    found = getattr(present, "prompt", None)
    if found is not None:
        return found(view, names)
    return asked(view, present.status(view, names), "", "your move")


def seen_cards(present: Any, view: JSON, names: Sequence[str]) -> list[Seen]:
    """The cards a view shows (the presentation's `on_table`), or, for a game without one, every catalogue
    id the view mentions, where "the table"."""
    found = getattr(present, "on_table", None)
    if found is not None:
        return list(found(view, names))
    ids = {e.id for e in present.catalogue()}
    seen: dict[str, None] = {}

    def walk(node: Any) -> None:
        if isinstance(node, str) and node in ids:
            seen.setdefault(node)
        elif isinstance(node, dict):
            for k, v in node.items():
                if k != "log":
                    walk(v)
        elif isinstance(node, list | tuple):
            for v in node:
                walk(v)

    walk(view)
    return [Seen(card, "On the table") for card in seen]


def panel_text(present: Any, view: JSON, names: Sequence[str], width: int) -> str:
    """The board for a terminal panel `width` columns wide (the presentation's `panel`), else `board_text`
    without the viewer's hand: the app's cards panel shows the hand, and the board never repeats it."""
    found = getattr(present, "panel", None)
    if found is not None:
        return str(found(view, names, width))
    return str(present.board_text(without_hands(view), names))


def without_hands(view: JSON) -> JSON:
    """A view whose seats hold no cards in `hand` (a list emptied; a count or anything else kept): a shallow
    copy, the view itself unchanged."""
    seats = view.get("players")
    if not isinstance(seats, list):
        return view

    def emptied(p: Any) -> Any:
        return {**p, "hand": []} if isinstance(p, dict) and isinstance(p.get("hand"), list) else p

    return {**view, "players": [emptied(p) for p in seats]}


def columns(cells: Sequence[str | Sequence[str]], widths: Sequence[int], gap: str = " ") -> list[str]:
    """Cells side by side as lines padded to the widths (a terminal's table row). A cell is a text wrapped
    at spaces, or pieces kept whole where they fit, joined by " · " ("3 points", "Power 5", "hand 2")."""
    wrapped = [_pack([c] if isinstance(c, str) else c, w) for c, w in zip(cells, widths, strict=True)]
    depth = max(len(w) for w in wrapped)
    rows = []
    for i in range(depth):
        parts = [(w[i] if i < len(w) else "").ljust(n) for w, n in zip(wrapped, widths, strict=True)]
        rows.append(gap.join(parts).rstrip())
    return rows


def _pack(pieces: Sequence[str], width: int) -> list[str]:
    """Pieces joined by " · " into lines within the width; a piece too long alone wraps at its spaces."""
    lines: list[str] = []
    for piece in pieces:
        if lines and len(lines[-1]) + 3 + len(piece) <= width:
            lines[-1] += f" · {piece}"
        else:
            lines += textwrap.wrap(piece, width, break_on_hyphens=False) or [""]
    return lines or [""]


def viewer_first(view: JSON, names: Sequence[str]) -> list[tuple[JSON, str]]:
    """The view's players (view["players"], each with a "seat"), the viewer's first, each with the prefix
    `on_table` names its zones by: "Your " for the viewer's, "Ann · " for another seat's."""
    viewer = view.get("viewer")
    players = sorted(view.get("players") or [], key=lambda p: p["seat"] != viewer)
    return [(p, "Your " if p["seat"] == viewer else f"{seat_name(p['seat'], names)} · ") for p in players]


def rule_text(game: Any) -> str:
    """The game's own rule text (RULES.txt beside its module, shipped with the package), or ""."""
    return _beside(game, "RULES.txt")


def rulings_text(game: Any) -> str:
    """The game's RULINGS.md (how Agora settles what the rule text leaves open), or ""."""
    return _beside(game, "RULINGS.md")


def _beside(game: Any, name: str) -> str:
    module = sys.modules.get(type(game).__module__)
    path = getattr(module, "__file__", None)
    found = Path(path).resolve().parent / name if path else None
    return found.read_text(encoding="utf-8") if found is not None and found.is_file() else ""


def key_args(key: str) -> dict[str, str]:
    """The arguments of an action key ("attack:c=KC:t=1" -> {"c": "KC", "t": "1"})."""
    return dict(part.partition("=")[::2] for part in key.split(":")[1:] if "=" in part)


def move_words(
    present: Any, view: JSON, key: str, path: Sequence[str], names: Sequence[str], *, cards: bool = True
) -> list[str]:
    """What a move does, in plain words: the game's `explain` (what will happen now), else the move's menu
    path; then (with `cards`) each card the move names (by a catalogue id among its key's arguments), by
    name with its text. Drawn from the viewer's own view and the printed catalogue only."""
    explain = getattr(present, "explain", None)
    lines = [line for line in (explain(view, key, tuple(path), names) if explain else []) if line]
    if not lines:
        lines = [" › ".join(path) + "."]
    if not cards:
        return lines
    catalogue = {e.id: e for e in present.catalogue()}
    named = dict.fromkeys(v for v in key_args(key).values() if v in catalogue)
    for card in named:
        entry = catalogue[card]
        if entry.text:
            lines.append(f"{entry.name}: {entry.text}")
    return lines


def has_windows(present: Any) -> bool:
    """Whether a game offers response windows (its presentation's optional `windows = True`): front ends
    then show the table's pace and people's window settings."""
    return bool(getattr(present, "windows", False))


ENDS = frozenset({"end_turn", PASS})  # the kinds of move that end a turn or pass, unless a game says


def ends_of(present: Any) -> frozenset[str]:
    """The kinds of move that end the seat's turn or pass (the presentation's optional `ends`)."""
    return frozenset(getattr(present, "ends", ENDS))


def choices_of(present: Any) -> tuple[SeatChoice, ...]:
    """The seat choices a presentation offers (() when it has none)."""
    return tuple(getattr(present, "choices", None) or ())


def picked(options: Mapping[str, Any] | None, seat: int, choice: SeatChoice) -> str | None:
    """The option id this seat picked for a choice (from setup's options["seat_choices"]); None if it
    picked none or one the choice does not offer (the game then picks at random)."""
    picks = (options or {}).get("seat_choices") or []
    pick = picks[seat].get(choice.key) if 0 <= seat < len(picks) and isinstance(picks[seat], dict) else None
    return pick if any(pick == option for option, _ in choice.options) else None


def deck_book_of(present: Any) -> DeckBook | None:
    """The deck builder a presentation offers (None when it has none)."""
    return getattr(present, "deck_book", None)


def deck_of(options: Mapping[str, Any] | None, seat: int) -> JSON | None:
    """The deck this seat brought to the deal (from setup's options["decks"]); None if it brought none."""
    decks = (options or {}).get("decks") or []
    deck = decks[seat] if 0 <= seat < len(decks) else None
    return deck if isinstance(deck, dict) else None


def group_rank(groups: Sequence[str], path: tuple[str, ...]) -> tuple[Any, ...]:
    """A menu_rank by the first word of a move's menu path: in the order of `groups`, unknown groups after
    them, then by the path."""
    group = path[0] if path and path[0] in groups else ""
    return (groups.index(group) if group else len(groups), path)


def seat_name(seat: Any, names: Sequence[str]) -> str:
    """A seat's display name, or "P<n>" when the names run short."""
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return f"P{seat + 1}" if isinstance(seat, int) else str(seat)


def player_count(game: Any, between: str = "–") -> str:
    """ "2 players" or "2–4 players" ("2 to 4 players" with between=" to ")."""
    lo, hi = game.min_players, game.max_players
    return f"{lo} players" if lo == hi else f"{lo}{between}{hi} players"


def plural(n: float, word: str, many: str = "") -> str:
    """ "1 card", "3 cards", "0.5 points" (`many` for a word that does not just add an s: "copies")."""
    count = f"{n:g}" if isinstance(n, float) else str(n)
    return f"{count} {word if n == 1 else many or word + 's'}"


def article(word: str) -> str:
    """The word after its indefinite article, by its first letter: "a Goblin", "an Ogre"."""
    return f"{'an' if word[:1].lower() in ('a', 'e', 'i', 'o', 'u') else 'a'} {word}"


def short_name(name: str) -> str:
    """A card's name without its title: "Prometheus, the Fire-Bringer" -> "Prometheus"."""
    return name.split(", ", 1)[0]


TITLED = re.compile(r"[A-Z][\w'’-]*(?: [A-Z][\w'’-]*)*, the [A-Z][\w-]*(?: [A-Z][\w-]*)*")


def titled_names(text: str) -> list[str]:
    """The card names with a title in a text ("Prometheus, the Fire-Bringer"), for `shorten`."""
    return TITLED.findall(text)


def shorten(text: str, limit: float, names: Sequence[str] = (), width: Callable[[str], float] = len) -> str:
    """The text within `limit` (characters, or what `width` measures: pixels) keeping its sentence: first the
    long names in it lose their titles ("Prometheus, the Fire-Bringer" -> "Prometheus"), then whole words go
    from the end, with "…" (a word is cut only when it alone is longer than the limit)."""
    if width(text) <= limit:
        return text
    for name in sorted(names, key=len, reverse=True):
        if name in text and short_name(name) != name:
            text = text.replace(name, short_name(name))
            if width(text) <= limit:
                return text
    words = text.split(" ")
    while len(words) > 1:
        words.pop()
        kept = " ".join(words).rstrip(" ,;:·—–-") + "…"
        if width(kept) <= limit:
            return kept
    while text and width(text + "…") > limit:
        text = text[:-1]
    return text + "…"


def menu_labels(options: Sequence[str], owners: Sequence[str], you: str | None = None) -> list[str]:
    """A menu level's sibling labels as a narrow screen shows them: an owner's possessive ("AI 2's ") goes
    when every label naming an owner names the same one (the group makes the side clear: the unit's name
    is enough); else the viewer's own reads "your" and another's loses its bracket ("AI 2 (normal)'s" ->
    "AI 2's") when no other owner then reads the same."""
    found = {o for o in owners if o and any(f"{o}'s " in label for label in options)}
    found = {o for o in found if not any(o != other and o in other for other in found)}  # "AI 2" in "AI 20"
    if len(found) == 1:
        (owner,) = found
        return [_drop_owner(label, owner) for label in options]
    labels = list(options)
    short = {o: re.sub(r" \([^()]*\)$", "", o) for o in found}
    for o in sorted(found, key=len, reverse=True):
        if o == you:
            labels = [_capital(label.replace(f"{o}'s ", "your "), label) for label in labels]
        elif list(short.values()).count(short[o]) == 1:
            labels = [label.replace(f"{o}'s ", f"{short[o]}'s ") for label in labels]
    return labels


def _capital(out: str, label: str) -> str:
    """`out` (a label changed at its start) with a capital first letter when the label had one."""
    return out[:1].upper() + out[1:] if label[:1].isupper() else out


def _drop_owner(label: str, owner: str) -> str:
    """The label without the owner's possessive."""
    return _capital(label.replace(f"{owner}'s ", ""), label)


def fit_label(label: str, width: int) -> str:
    """A menu label within `width` columns: titles go from long names, then words from the end (`shorten`),
    so what is cut is the details after a name, not the name."""
    return shorten(label, max(width, 1), titled_names(label))


def together(people: Sequence[str]) -> str:
    """ "Ada", "Ada and Bo", "Ada, Bo and Cy"."""
    if len(people) <= 1:
        return "".join(people)
    return ", ".join(people[:-1]) + " and " + people[-1]


SEAT_REF = re.compile(r"\bP(\d+)\b")


def seat_refs(text: str, names: Sequence[str]) -> str:
    """An engine text with its seat references ("P2") replaced by display names (kept when unknown)."""

    def sub(m: re.Match[str]) -> str:
        i = int(m.group(1)) - 1
        return names[i] if 0 <= i < len(names) else m.group(0)

    return SEAT_REF.sub(sub, text)


def find_card(entries: Sequence[CardEntry], query: str) -> CardEntry | None:
    """A card by exact id, name or label first, then by a part of its name or label; None if none."""
    q = query.strip().casefold()
    if not q:
        return None
    for e in entries:
        if q in (e.id.casefold(), e.name.casefold(), e.label.casefold()):
            return e
    return next((e for e in entries if q in e.name.casefold() or q in e.label.casefold()), None)


class Generic:
    """What any game's view allows to say: whose turn, the log; no cards, moves in key order."""

    shortcuts: Mapping[str, str] = {"end_turn": "e", "pass": "p", "draw": "d"}
    choices: Sequence[SeatChoice] = ()
    deck_book: DeckBook | None = None

    def __init__(self, game: Any) -> None:
        self.game = game
        self.summary = f"{game.title} for {player_count(game)}."
        self.rules = f"Agora's rulings for {game.title} are shown by /rules."

    def status(self, view: JSON, names: Sequence[str]) -> Status:
        """Who is to act, from the view's to_act."""
        to_act = [seat_name(s, names) for s in view.get("to_act") or []]
        if not to_act:
            return Status("Game over", turn=("over",))
        return Status(f"{', '.join(to_act)} to act", turn=tuple(view.get("to_act") or ()))

    def catalogue(self) -> list[CardEntry]:
        """No catalogue."""
        return []

    def menu_rank(self, action: Action, path: tuple[str, ...]) -> tuple[Any, ...]:
        """Fixed choices (the shortcuts) last, the rest in key order."""
        return (action.kind in self.shortcuts, action.key)

    def skip(self, view: JSON, actions: list[Action]) -> Action:
        """End the turn or pass when the game offers it, else the first legal move."""
        by_kind = {a.kind: a for a in actions}
        return by_kind.get("end_turn") or by_kind.get("pass") or actions[0]

    def board_text(self, view: JSON, names: Sequence[str]) -> str:
        """The status and the log."""
        lines = [f"== {self.game.title} · {self.status(view, names).headline} =="]
        lines += [f"  · {t}" for t in view.get("log") or []]
        return "\n".join(lines)
