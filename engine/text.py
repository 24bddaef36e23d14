"""Text from people is data: one check for every name and text a person supplies, and one way to print
stored text to a terminal.

    name = check_text("card 'Ember Drake' name", name)     # TextError naming the field and the character
    check_tree(data, "ember.toml", lines=("text",))        # every string (and key) of parsed data
    out.write(printable(stored))                           # control characters shown, never obeyed

Refused: the Unicode control (Cc), format (Cf) and surrogate (Cs) characters: NUL, BEL, ESC and the other C0
and C1 controls; the bidi overrides and isolates (U+202A-202E, U+2066-2069) that reverse what follows; the
invisible zero-width space, non-joiner and word joiner (U+200B, U+200C, U+2060) and U+FEFF.

One exception, the zero-width joiner (U+200D) between two emoji: it builds the emoji sequences people use
in names (a family, a rainbow flag), shows as one picture, and reverses or hides nothing. Anywhere else it is
refused, since between letters it only makes two names that look alike differ ("Ann" and "A‍nn").
A newline is allowed only where `lines` says (a card's text, which every renderer draws line by line).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection
from typing import Any

ZWJ = "\u200d"  # the zero-width joiner of emoji sequences
_BAD = frozenset({"Cc", "Cf", "Cs"})
_EMOJI_BEFORE = frozenset({"So", "Sk"})  # an emoji, or a skin tone modifier, may come before a joiner
_VS16 = "\ufe0f"  # the emoji presentation selector ("🏳️‍🌈" is flag, VS16, ZWJ, rainbow)


class TextError(ValueError):
    """A text holding a character that is not plain text; the message names the field and the character."""


def _joins_emoji(text: str, i: int) -> bool:
    """Whether the joiner at text[i] stands between two emoji."""
    before = text[i - 1] if i > 0 else ""
    after = text[i + 1] if i + 1 < len(text) else ""
    return (
        before != ""
        and after != ""
        and (before == _VS16 or unicodedata.category(before) in _EMOJI_BEFORE)
        and unicodedata.category(after) == "So"
    )


def _bad_at(text: str, i: int, lines: bool) -> bool:
    """Whether text[i] is a character plain text must not hold."""
    c = text[i]
    if c == "\n":
        return not lines
    if unicodedata.category(c) not in _BAD:
        return False
    return not (c == ZWJ and _joins_emoji(text, i))


def first_bad(text: str, *, lines: bool = False) -> int:
    """The index of the first character that is not plain text, -1 if there is none."""
    if text.isprintable() and "\n" not in text:  # the common case, at C speed
        return -1
    return next((i for i in range(len(text)) if _bad_at(text, i, lines)), -1)


def _what(c: str) -> str:
    kind = {"Cc": "a control character", "Cf": "a formatting character", "Cs": "a lone surrogate"}
    name = "a line break" if c in "\n\r" else kind.get(unicodedata.category(c), "a control character")
    return f"{name} (U+{ord(c):04X})"


def check_text(field: str, text: str, *, most: int | None = None, lines: bool = False) -> str:
    """The text, unchanged, if it is plain text of at most `most` characters; TextError naming `field`
    ("card 'Ember Drake' name: holds a control character (U+0007); only plain text") otherwise."""
    at = first_bad(text, lines=lines)
    if at >= 0:
        raise TextError(f"{field}: holds {_what(text[at])}; only plain text")
    if most is not None and len(text) > most:
        raise TextError(f"{field}: {len(text)} characters; at most {most}")
    return text


def check_tree(data: Any, where: str, *, lines: Collection[str] = ()) -> None:
    """Every string in parsed data (JSON or TOML: values and keys) checked with check_text, the field named
    by its path ("ember.toml card 2 (ember_drake) text"); `lines` are the keys whose values may hold line
    breaks. TextError at the first that is not plain text. Iterative: any depth, no recursion."""
    stack: list[tuple[Any, str, bool]] = [(data, where, False)]
    while stack:
        value, at, multi = stack.pop()
        if isinstance(value, str):
            check_text(at, value, lines=multi)
        elif isinstance(value, dict):
            for key, item in reversed(value.items()):
                key = str(key)
                check_text(f"{at} key {printable(key)!r}", key)
                stack.append((item, f"{at} {key}", key in lines))
        elif isinstance(value, list):
            for i, item in reversed(list(enumerate(value))):
                label = (item.get("id") or item.get("name")) if isinstance(item, dict) else None
                named = f" ({printable(label)})" if isinstance(label, str) else ""
                stack.append((item, f"{at} {i + 1}{named}", False))


def printable(text: str) -> str:
    """Text as a terminal may print it: every character plain text must not hold shown as an escape
    (ESC as \\x1b, U+202E as \\u202e), line breaks and tabs kept. Stored data printed through this never
    moves the cursor, clears the screen or reverses the line."""
    if text.isprintable():
        return text
    out = []
    for i, c in enumerate(text):
        if c in "\n\t" or not _bad_at(text, i, lines=True):
            out.append(c)
        elif ord(c) < 0x100:
            out.append(f"\\x{ord(c):02x}")
        else:
            out.append(f"\\u{ord(c):04x}")
    return "".join(out)
