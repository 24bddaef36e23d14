"""The short event log a game keeps in its state, so views can show recent events redacted per viewer.

An entry is [text, visible_to] with visible_to a list of seats, or None for everyone (JSON-friendly).
"""

from __future__ import annotations

from typing import Any

from engine.core import Event, PlayerId

KEEP = 12  # entries kept in the state
SHOWN = 8  # entries a view shows


def record(log: list[list[Any]], events: list[Event], keep: int = KEEP) -> None:
    """Append the events to the log and keep only the newest `keep` entries."""
    for e in events:
        log.append([e.text, None if e.visible_to is None else list(e.visible_to)])
    del log[:-keep]


def visible(log: list[list[Any]], viewer: PlayerId | None, shown: int = SHOWN) -> list[str]:
    """The newest texts this viewer (None = spectator) may read."""
    texts = [text for text, vis in log if vis is None or (viewer is not None and viewer in vis)]
    return texts[-shown:]


def redacted(log: list[list[Any]], observer: PlayerId) -> list[list[Any]]:
    """The entries an observer may read, for a determinized state (the rest spoke of resampled cards)."""
    return [list(e) for e in log if e[1] is None or observer in e[1]]
