"""The app's pop-up screens: a card's text, a page of text (help, hints, a result), a yes/no question and
the hot seat's hand-over. Each is drawn from what it is given; none reads a game."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from engine.table.present import Seen
from engine.text import printable

# One key picks a card in the card list: 61 cards, more than any view shows face up at once.
TAGS = "123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


PILE = 8  # a zone with more cards than this is a pile: listed after the others, so the keys go first to
# the cards in hand and in play (a late Siege of Olympus shows some 80 cards, the Underworld most of them)


def piles_last(seen: Sequence[Seen]) -> list[Seen]:
    """The cards in their zones' order, but with the big zones (piles) after the others; your own hand
    stays first whatever its size."""
    sizes = Counter(s.where for s in seen)
    return sorted(seen, key=lambda s: not s.mine and sizes[s.where] > PILE)  # stable: order kept within


class CardScreen(ModalScreen[None]):
    """Every card on screen, grouped by where it is, with the highlighted one's full text beside them.
    A card's key (1-9, a-z, A-Z) shows it at once; Esc closes."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("escape,i,q", "close", "Close"),
        Binding("enter", "close", "Close", show=False),
    ]

    def __init__(self, rows: Sequence[tuple[Seen, str]], start: int = 0) -> None:
        super().__init__()
        self.rows = list(rows)  # (what is seen, its full text)
        self.start = start

    def compose(self) -> ComposeResult:
        options: list[Option | None] = []
        where = None
        self.index: list[int] = []  # option index -> row
        for i, (seen, _) in enumerate(self.rows):
            if seen.where != where:
                where = seen.where
                options.append(Option(escape(f"── {where}"), disabled=True))
                self.index.append(-1)
            tag = TAGS[i] if i < len(TAGS) else " "
            options.append(Option(escape(f"{tag} {self.rows[i][1].splitlines()[0]}")))
            self.index.append(i)
        with Vertical(id="card-box"):
            yield Static("Cards on screen — press a card's key, or ↑↓; Esc closes", id="card-title")
            with Horizontal():
                yield OptionList(*[o for o in options if o is not None], id="card-list")
                with VerticalScroll(id="card-text-box"):
                    yield Static("", id="card-text", markup=False)

    def on_mount(self) -> None:
        listing = self.query_one(OptionList)
        listing.focus()
        if self.rows:
            listing.highlighted = self.index.index(max(0, min(self.start, len(self.rows) - 1)))
        else:
            self.query_one("#card-text", Static).update("No card is face up on the table.")

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        row = self.index[event.option_index]
        if row >= 0:
            self.query_one("#card-text", Static).update(printable(self.rows[row][1]))

    def on_key(self, event: Key) -> None:
        if event.character and event.character in TAGS[: len(self.rows)]:
            self.query_one(OptionList).highlighted = self.index.index(TAGS.index(event.character))
            event.stop()

    def action_close(self) -> None:
        self.dismiss(None)


class TextScreen(ModalScreen[bool]):
    """A page of text (help, hints, your move's result) in a scrolling box; Enter or Esc closes it, and a
    question's y / n answer it."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("escape,enter,space,q,h", "close(False)", "Close"),
        Binding("y", "close(True)", "Yes", show=False),
        Binding("n", "close(False)", "No", show=False),
    ]

    def __init__(self, title: str, body: str, footer: str = "Enter or Esc closes this.", ask: bool = False):
        super().__init__()
        self.title_text, self.body, self.footer, self.ask = title, body, footer, ask

    def compose(self) -> ComposeResult:
        with Vertical(id="text-box"):
            yield Static(printable(self.title_text), id="text-title", markup=False)
            with VerticalScroll(id="text-scroll"):
                yield Static(printable(self.body), id="text-body", markup=False)
            yield Static(printable(self.footer), id="text-footer", markup=False)

    def on_mount(self) -> None:
        self.query_one("#text-scroll").focus()

    def action_close(self, answer: bool) -> None:
        if self.ask or not answer:
            self.dismiss(answer)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question in a small box: Enter or y says yes, Esc or n says no."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("enter,y", "close(True)", "Yes"),
        Binding("escape,n,q", "close(False)", "No"),
    ]

    def __init__(self, question: str, footer: str = "Enter: yes · Esc: no") -> None:
        super().__init__()
        self.question, self.footer = question, footer

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box"):
            yield Static(printable(self.question), id="confirm-text", markup=False)
            yield Static(printable(self.footer), id="confirm-footer", markup=False)

    def action_close(self, answer: bool) -> None:
        self.dismiss(answer)


class HandOverScreen(ModalScreen[bool]):
    """The hot seat's hand-over: a blank screen that names the next player and shows nothing else; Enter
    goes on, q saves and quits."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("enter,space", "close(True)", "I am here"),
        Binding("q", "close(False)", "Save & quit"),
    ]

    def __init__(self, who: str) -> None:
        super().__init__()
        self.who = who

    def compose(self) -> ComposeResult:
        with Vertical(id="handover-box"):
            who = printable(self.who)
            yield Static(f"Pass the screen to {who}.", id="handover-title", markup=False)
            yield Static(f"{who}: press Enter when the others cannot see the screen.", markup=False)
            yield Static("(q saves the game and quits)", markup=False)

    def action_close(self, go_on: bool) -> None:
        self.dismiss(go_on)


def escape(text: str) -> str:
    """Text from data as Textual markup: control characters shown as escapes (engine/text.py), and every
    "[" literal (Textual's own escape leaves "[5♦" alone, which a link right after it would turn into a
    tag)."""
    return printable(text).replace("[", "\\[")
