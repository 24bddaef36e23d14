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

from collections.abc import Sequence
from typing import Any

from engine.core import JSON
from engine.table.present import prompt_of, seat_refs

ALT_LIMIT = 1024  # Discord's limit on an attachment's or a media gallery item's description
TEXT_LIMIT = 4000  # a text display component's limit: the text board


def fit(lines: Sequence[str], limit: int = ALT_LIMIT) -> str:
    """Lines joined by newlines, whole lines only while they fit within `limit` characters (a first line
    too long alone is cut with "…"); empty lines dropped."""
    out: list[str] = []
    used = 0
    for line in (x.strip() for x in lines):
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


def table_lines(present: Any, view: JSON, names: Sequence[str]) -> list[str]:
    """What each side has in play, in the game's words: its `describe`, else its `board_text` without the
    headline and the log."""
    found = getattr(present, "describe", None)
    if found is not None:
        return [str(x) for x in found(view, names)]
    lines = str(present.board_text(view, names)).splitlines()
    if lines and lines[0].startswith("=="):
        lines = lines[1:]
    if "Log:" in lines:
        lines = lines[: lines.index("Log:")]
    return [line.strip() for line in lines]


def last_move(view: JSON, names: Sequence[str]) -> str:
    """The log's last line in words ("" without a log)."""
    log = view.get("log") or []
    return f"Last: {seat_refs(str(log[-1]), names)}" if log else ""


def board_alt(present: Any, title: str, view: JSON, names: Sequence[str], limit: int = ALT_LIMIT) -> str:
    """The public board's alt text: "<title> board", the headline, the pending decision, the scores, the
    table and the last move, within `limit` characters (most important first)."""
    status = present.status(view, names)
    lines = [f"{title} board. {status.headline}", status.prompt, *status.scores]
    return fit([*lines, last_move(view, names), *table_lines(present, view, names)], limit)


def hand_alt(present: Any, view: JSON, names: Sequence[str], limit: int = ALT_LIMIT) -> str:
    """A private hand image's alt text, from the viewer's own view: that only they see it, what they are
    asked to decide, then their table (their hand among it)."""
    prompt = prompt_of(present, view, names).text
    lines = [f"Your hand (only you can see this): {prompt}", *table_lines(present, view, names)]
    return fit(lines, limit)


def text_board(present: Any, title: str, view: JSON, names: Sequence[str], limit: int = TEXT_LIMIT) -> str:
    """The board and the viewer's hand as text (/notify board:text), from the viewer's own view: the same
    words as the alt text, with room for all of it."""
    status = present.status(view, names)
    prompt = prompt_of(present, view, names).text
    lines = [f"{title}. {status.headline}", prompt, *status.scores, last_move(view, names)]
    return fit([*lines, *table_lines(present, view, names)], limit)


def replay_alt(present: Any, title: str, view: JSON, names: Sequence[str], frames: int) -> str:
    """A replay's alt text, from the last frame's spectator view: the game, how many turns it shows and
    where it ended (its headline and scores)."""
    status = present.status(view, names)
    lines = [f"Replay of {title}, {frames} frame{'s' if frames != 1 else ''}, one a turn.", status.headline]
    return fit([*lines, *status.scores], ALT_LIMIT)
