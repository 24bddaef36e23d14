"""A bounded look at TOML text before tomllib reads it, and its output made plain JSON.

Python's tomllib is fine on the files people write, but some shapes cost it far more than their size: a
dotted key of thousands of parts (`k.k.k… = 1`) takes memory and time growing with the square of its length
(40 KB: 6 s and 2.4 GB), a table header the same, arrays or inline tables nested thousands deep end in a
RecursionError, and an integer of thousands of digits in a ValueError. `scan` walks the text once (strings
and comments understood, so a dot or bracket inside them counts for nothing) and refuses those shapes in one
line naming the line; what it lets through is parsed by tomllib in time and memory linear in its size.
`plain` then turns tomllib's output into JSON values, refusing what JSON cannot hold (dates and times,
infinities, integers beyond 64 bits) with the field named.

    scan(text, "silk.toml")              # TomlRefused: "silk.toml line 3: a key of more than 8 dotted parts"
    data = plain(tomllib.loads(text), "silk.toml")
"""

from __future__ import annotations

import datetime
import math
import re
from typing import Any

MAX_KEY_PARTS = 8  # `a.b.c = 1` has 3; the games' card files use 2 at most ([[card.ability]])
MAX_NESTING = 8  # arrays and inline tables inside one another; the card files use 2
MAX_WORD = 100  # characters of a bare value (a number, a date, true): a 64-bit integer has 20
_INT_RANGE = (-(2**63), 2**63 - 1)  # TOML's integers are 64-bit

_TOKEN = re.compile(  # a string's closing quotes are optional: an unclosed one ends the text (or its line)
    r'(?P<str>"""(?:[^"\\]|\\.|"(?!""))*(?:"{3,5})?'  # multi-line basic string
    r"|'''(?:[^']|'(?!''))*(?:'{3,5})?"  # multi-line literal string
    r'|"(?:[^"\\\n]|\\[^\n])*"?'  # basic string
    r"|'[^'\n]*'?)"  # literal string
    r"|(?P<comment>#[^\n]*)"
    r"|(?P<space>[ \t\r]+)"
    r"|(?P<word>[A-Za-z0-9_+\-:]+)"
    r"|(?P<mark>.)",
    re.DOTALL,
)


class TomlRefused(ValueError):
    """TOML text refused before or after parsing: one line naming where and why."""


def scan(text: str, where: str) -> None:
    """Refuse (TomlRefused) a dotted key or table header of more than MAX_KEY_PARTS parts, arrays or
    inline tables nested more than MAX_NESTING deep, and a bare value of more than MAX_WORD characters;
    anything else is left for tomllib to judge. One pass, linear in the text."""
    stack: list[str] = []  # the open arrays ("[") and inline tables ("{") of the value being read
    key = True  # reading a key (or a table header), not a value
    header = False  # inside a [table] or [[array of tables]] header
    dots = 0  # dots in the key being read
    line = 1
    for m in _TOKEN.finditer(text):
        kind, tok = m.lastgroup, m.group()
        if kind in ("space", "comment"):
            continue
        if kind == "str":
            line += tok.count("\n")
            continue
        if kind == "word":
            if not key and len(tok) > MAX_WORD:
                raise TomlRefused(
                    f"{where} line {line}: a value of {len(tok):,} characters; at most {MAX_WORD}"
                )
            continue
        if tok == "\n":
            line += 1
            if not stack:
                key, header, dots = True, False, 0
        elif key:
            if tok == ".":
                dots += 1
                if dots >= MAX_KEY_PARTS:
                    what = "table header" if header else "key"
                    raise TomlRefused(
                        f"{where} line {line}: a {what} of more than {MAX_KEY_PARTS} dotted parts"
                    )
            elif tok == "=" and not header:
                key, dots = False, 0
            elif tok == "[" and not stack:
                header, dots = True, 0  # "[[" opens a header too
            elif tok == "]":
                header = False
            elif tok == "}" and stack:  # an empty inline table, or a trailing comma
                stack.pop()
                key = False
            elif tok == ",":
                dots = 0
        elif tok in "[{":
            stack.append(tok)
            if len(stack) > MAX_NESTING:
                what = "arrays" if tok == "[" else "inline tables"
                raise TomlRefused(f"{where} line {line}: {what} nested more than {MAX_NESTING} deep")
            key = tok == "{"
        elif tok in "]}" and stack:
            stack.pop()
        elif tok == "," and stack and stack[-1] == "{":
            key = True


def plain(data: Any, where: str, path: str = "") -> Any:
    """tomllib's output as JSON values (a copy); TomlRefused naming the field for a date or time (which
    JSON cannot hold), a number that is not finite, or an integer beyond 64 bits."""
    if isinstance(data, dict):
        return {k: plain(v, where, f"{path}.{k}" if path else k) for k, v in data.items()}
    if isinstance(data, list):
        return [plain(v, where, f"{path}[{i + 1}]") for i, v in enumerate(data)]
    if isinstance(data, datetime.date | datetime.time):
        names: dict[type, str] = {datetime.datetime: "a date and time", datetime.date: "a date"}
        what = names.get(type(data), "a time")
        raise TomlRefused(f"{where}: {path} = {data.isoformat()}: {what}; write it in quotes")
    if isinstance(data, float) and not math.isfinite(data):
        raise TomlRefused(f"{where}: {path} = {data}: not a finite number")
    if isinstance(data, int) and not isinstance(data, bool) and not _INT_RANGE[0] <= data <= _INT_RANGE[1]:
        raise TomlRefused(f"{where}: {path} is an integer beyond 64 bits")
    return data
