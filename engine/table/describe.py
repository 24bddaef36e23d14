"""Images in words: the alt text of every image the front ends send, and the text board, from the view the
image draws.

A screen reader reads an image's description; Discord keeps at most 1,024 characters of it (an attachment's
`description`, a media gallery item's). The words come from the game's present module (engine/games/<id>/
present.py): its status (whose turn, the pending decision, one score line per seat), then what each side
has in play, then the last move. A game may word its table for a listener itself with an optional
`describe(view, names) -> list[str]` (lines, most important first); otherwise its `board_text` is used
without the log. Everything here reads the view alone, so the alt text of a public board (the spectator
view) never names a card the image does not show.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from engine.core import JSON
from engine.table import lesson
from engine.table.lesson import Page
from engine.table.present import CardEntry, Seen, plural, prompt_of, seat_refs, seen_cards, viewer_first

ALT_LIMIT = 1024  # Discord's limit on an attachment's or a media gallery item's description
TEXT_LIMIT = 4000  # a text display component's limit: the text board


def fit(lines: Sequence[str], limit: int = ALT_LIMIT) -> str:
    """Lines joined by newlines, whole lines only while they fit within `limit` characters (a first line
    too long alone is cut with "…"); empty lines dropped."""
    out: list[str] = []
    used = 0
    for line in (clean(x) for x in lines):
        if not line:
            continue
        cost = len(line) + (1 if out else 0)
        if used + cost > limit:
            if not out:
                out.append(line[: limit - 1] + "…")
            break
        out.append(line)
        used += cost
    return "\n".join(out)


MARKS = re.compile(r"\s*[◀⟳★⚔←→]\s*")  # the board's marks: the words around them say it


def clean(line: str) -> str:
    """A line without control or format characters (a name's bidi marks, a newline), tabs as spaces."""
    if line.isprintable():  # no control, format or separator character but the space: the usual line
        return line.strip()
    kept = (" " if ch in "\t\n\r" else ch for ch in line)
    return "".join(ch for ch in kept if unicodedata.category(ch) not in ("Cc", "Cf")).strip()


def said(present: Any, text: str) -> str:
    """A text as a screen reader reads it well: cards by name rather than by their corner symbols ("10♦" ->
    "10 of Diamonds", "A♣+6♥" -> "Ace of Clubs plus 6 of Hearts"), " · " as a comma, the board's marks
    (◀, ⟳, ★) gone."""
    labels, pattern = _speech(present)
    if pattern is not None:
        text = pattern.sub(lambda m: labels[m.group(0)], text)
        text = re.sub(r"(?<=[a-z])\+(?=\w)", " plus ", text)
    text = MARKS.sub(" ", text.replace(" · ", ", "))
    return re.sub(r"  +", " ", text).strip()


@lru_cache(maxsize=64)
def _speech(present: Any) -> tuple[dict[str, str], re.Pattern[str] | None]:
    """The game's corner labels that are symbols rather than words ("K♣"), each with its card's name, and a
    pattern that finds them (None when the game has none); once per presentation."""
    labels = {
        e.short: e.name
        for e in entries(present).values()
        if e.short and e.short != e.name and not e.short.isascii()
    }
    if not labels:
        return labels, None
    alternatives = "|".join(re.escape(k) for k in sorted(labels, key=len, reverse=True))
    return labels, re.compile(rf"(?<!\w)(?:{alternatives})")


def entries(present: Any) -> dict[str, CardEntry]:
    """The game's catalogue by card id (read once per presentation)."""
    return _entries(present)


@lru_cache(maxsize=64)
def _entries(present: Any) -> dict[str, CardEntry]:
    return {e.id: e for e in present.catalogue()}


def cards_said(present: Any, seen: Sequence[Seen]) -> str:
    """Cards by name, each with how it stands now, copies that stand alike together: "Goblin (3 copies;
    Attack 1, Defense 1)", separated by semicolons."""
    named = entries(present)
    groups: dict[tuple[str, str], int] = {}
    for x in seen:
        groups[(x.card, x.now)] = groups.get((x.card, x.now), 0) + 1
    out = []
    for (card, now), count in groups.items():
        entry = named.get(card)
        details = [f"{count} copies" if count > 1 else "", said(present, now)]
        words = "; ".join(d for d in details if d)
        out.append(f"{entry.name if entry else card}{f' ({words})' if words else ''}")
    return "; ".join(out)


def zone_lines(
    present: Any,
    view: JSON,
    names: Sequence[str],
    keep: Callable[[str], bool] = lambda where: True,
    seen: Sequence[Seen] | None = None,
) -> list[str]:
    """The cards the view shows face up (the game's `on_table`, or `seen` when already read), a line a zone
    in reading order: "Bo's back row: Queen of Hearts; Ace of Spades"; only zones whose words `keep`
    accepts, the viewer's hand never (the hand lines say it)."""
    zones: dict[str, list[Seen]] = {}
    for x in seen_cards(present, view, names) if seen is None else seen:
        if not x.mine and keep(x.where):
            zones.setdefault(x.where, []).append(x)
    return [
        f"{said(present, owned(where, names))}: {cards_said(present, seen)}" for where, seen in zones.items()
    ]


def owned(where: str, names: Sequence[str]) -> str:
    """A seat's zone as a possessive: "Ada · back row" -> "Ada's back row" (other zones as they are)."""
    seat, sep, zone = where.partition(" · ")
    return f"{seat}'s {zone}" if sep and seat in names else where


def side_lines(
    present: Any,
    view: JSON,
    names: Sequence[str],
    head: Callable[[JSON, str], list[str]],
    keep: Callable[[str], bool] = lambda where: True,
) -> list[str]:
    """Each seat's side, the viewer's first: the game's `head` lines for every seat (its counters, its
    hidden zones as counts), then each seat's zones of face-up cards, then the zones no seat owns (a market,
    a shared row): a board too big for the limit loses details before it loses a seat."""
    heads: list[str] = []
    zones: list[str] = []
    prefixes: list[str] = []
    seen = seen_cards(present, view, names)
    for p, whose in viewer_first(view, names):
        prefixes.append(whose)
        heads += head(p, whose)
        zones += zone_lines(present, view, names, _within(whose, keep), seen)
    shared = zone_lines(present, view, names, lambda w: not w.startswith(tuple(prefixes)) and keep(w), seen)
    return [*heads, *zones, *shared]


def _within(prefix: str, keep: Callable[[str], bool]) -> Callable[[str], bool]:
    """The zones of one seat (their words start with its prefix) that `keep` accepts."""
    return lambda where: where.startswith(prefix) and keep(where)


def hand_lines(present: Any, view: JSON, names: Sequence[str], stats: bool = True) -> list[str]:
    """The viewer's hand by name (their view's `on_table` cards marked theirs): "Your hand, 3 cards:", a line
    a card with its type and printed stats (with `stats`)."""
    named = entries(present)
    mine = [x for x in seen_cards(present, view, names) if x.mine]
    hand = [x.card for x in mine]
    if not hand:
        return ["Your hand: no cards"]
    first: dict[str, Seen] = {}
    for x in mine:
        first.setdefault(x.card, x)
    lines = [f"Your hand, {plural(len(hand), 'card')}:"]
    for x in first.values():
        entry = named.get(x.card)
        copies = hand.count(x.card)
        details = [f"{copies} copies" if copies > 1 else ""]
        if stats and entry is not None:
            details += [entry.type, *(f"{k} {v}" for k, v in entry.stats)]
        words = ", ".join(said(present, d) for d in [*details, x.now] if d)
        lines.append(f"{entry.name if entry else x.card}{f' ({words})' if words else ''}")
    return lines


def hand_texts(present: Any, view: JSON, names: Sequence[str]) -> list[str]:
    """What each card in the viewer's hand does, a line a card ("Mind Spike: Deal 2 damage …"): last, as
    the least needed (the names come first)."""
    named = entries(present)
    hand = dict.fromkeys(x.card for x in seen_cards(present, view, names) if x.mine)
    return [
        f"{named[c].name}: {' '.join(named[c].text.split())}" for c in hand if c in named and named[c].text
    ]


def table_lines(present: Any, view: JSON, names: Sequence[str]) -> list[str]:
    """What each side has in play, in the game's words: its `describe`, else its `board_text` without the
    headline and the log."""
    found = getattr(present, "describe", None)
    if found is not None:
        return [said(present, str(x)) for x in found(view, names)]
    lines = str(present.board_text(view, names)).splitlines()
    if lines and lines[0].startswith("=="):
        lines = lines[1:]
    if "Log:" in lines:
        lines = lines[: lines.index("Log:")]
    return [said(present, line) for line in lines if not line.strip().startswith(("Last:", "Now:"))]


def own_lines(present: Any, view: JSON, names: Sequence[str]) -> list[str]:
    """What the hand image draws beside the cards' texts: the game's `describe_hand`, else the viewer's hand
    by name with each card's type and printed stats."""
    found = getattr(present, "describe_hand", None)
    if found is not None:
        return [said(present, str(x)) for x in found(view, names)]
    return hand_lines(present, view, names)


def own_texts(present: Any, view: JSON, names: Sequence[str]) -> list[str]:
    """What each card in the viewer's hand does, for a game whose hand image prints it (its presentation's
    optional `hand_text = True`)."""
    return hand_texts(present, view, names) if getattr(present, "hand_text", False) else []


def last_move(present: Any, view: JSON, names: Sequence[str]) -> str:
    """The log's last line in words ("" without a log)."""
    log = view.get("log") or []
    return f"Last move: {said(present, seat_refs(str(log[-1]), names))}" if log else ""


def heading(present: Any, view: JSON, names: Sequence[str]) -> list[str]:
    """The status in words: the headline, the pending decision and a score line per seat."""
    status = present.status(view, names)
    return [said(present, x) for x in (status.headline, status.prompt, *status.scores)]


def board_alt(present: Any, title: str, view: JSON, names: Sequence[str], limit: int = ALT_LIMIT) -> str:
    """The public board's alt text: "<title> board", the headline, the pending decision, the scores, the
    last move and the table, within `limit` characters (most important first)."""
    status, *rest = heading(present, view, names)
    lines = [f"{title} board. {status}", *rest, last_move(present, view, names)]
    return fit([*lines, *table_lines(present, view, names)], limit)


def hand_alt(present: Any, view: JSON, names: Sequence[str], limit: int = ALT_LIMIT) -> str:
    """A private hand image's alt text, from the viewer's own view: that only they see it, what they are
    asked to decide, then what the hand image draws (their hand first)."""
    prompt = said(present, prompt_of(present, view, names).text)
    lines = [f"Your hand (only you can see this): {prompt}", *own_lines(present, view, names)]
    return fit([*lines, last_move(present, view, names), *own_texts(present, view, names)], limit)


def text_board(present: Any, title: str, view: JSON, names: Sequence[str], limit: int = TEXT_LIMIT) -> str:
    """The board and the viewer's hand as text (/notify board:text), from the viewer's own view: the same
    words as the alt texts (the hand image's, then the board's), with room for all of it."""
    status, *rest = heading(present, view, names)
    asked = prompt_of(present, view, names)
    own = own_lines(present, view, names)
    table = [x for x in table_lines(present, view, names) if x not in own]
    lines = [f"{title}. {status}", *([said(present, asked.text)] if asked.yours else []), *rest]
    lines += [last_move(present, view, names), *own, *table]
    return fit([*lines, *own_texts(present, view, names)], limit)


def replay_alt(present: Any, title: str, view: JSON, names: Sequence[str], frames: int) -> str:
    """A replay's alt text, from the last frame's spectator view: the game, how many turns it shows and
    where it ended (its headline and scores)."""
    status, _, *scores = heading(present, view, names)
    lines = [f"Replay of {title}, {frames} frame{'s' if frames != 1 else ''}, one per turn.", status]
    return fit([*lines, *scores], ALT_LIMIT)


def page_alt(
    present: Any, title: str, page: Page, view: JSON, names: Sequence[str], limit: int = ALT_LIMIT
) -> str:
    """The one-page rules picture's alt text: its words (lesson.page_lines), then the sample board (its
    spectator `view`) as the board's own alt text says it, cut to what room the words leave within `limit`
    characters."""
    first, *rest = board_alt(present, title, view, names, limit).splitlines()
    return fit([*lesson.page_lines(title, page), f"The sample board: {first}", *rest], limit)
