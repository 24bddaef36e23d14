"""What both terminal front ends (line mode, bot/console.py, and the app, bot/tui) say: the words of moves,
results, the log, cards, help and rules, and the seats' names. Nothing here names a game or draws a screen."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.sessions import MatchInfo, Move
from engine import packs
from engine.core import PlayerId
from engine.registry import games
from engine.table.present import (
    CardEntry,
    Presentation,
    Seen,
    card_lines,
    of,
    player_count,
    rule_text,
    rulings_text,
    seat_refs,
    together,
)

DEFAULT_DB = "agora-console.db"
# Cursor home, clear the screen, and clear the scrollback (ESC[3J): the previous player's hand is gone.
CLEAR = "\033[H\033[2J\033[3J"
KEYS = (
    "? = a hint from the AI, u = undo, i NAME = a card's text (i alone lists the cards), l = the whole log, "
    "r = show the board again, q = save and quit, h = this help"
)
ITALIC = re.compile(r"\*(\S[^*\n]*?)\*")  # *Draw*, not the * of "2 * 3"
RESERVED = frozenset("urqhibl")  # the terminal's own keys (u r q h; the app's i b l)


def _as_typed(path: str) -> str:
    """A program's path as short as it can be typed from here: its name if the PATH finds this very file,
    else relative to the current directory when below it, else absolute."""
    path = os.path.abspath(path)
    found = shutil.which(os.path.basename(path))
    if found and os.path.abspath(found) == path:
        return os.path.basename(path)
    rel = os.path.relpath(path)
    return (rel if os.sep in rel else f".{os.sep}{rel}") if not rel.startswith("..") else path


def command() -> str:
    """How to run Agora from here, as a command that works when typed as printed: the `agora` script of
    this installation when there is one (`agora`, `.venv/bin/agora`), else this Python with `-m bot`."""
    if not sys.executable:
        return "python3 -m bot"
    script = os.path.join(os.path.dirname(os.path.abspath(sys.executable)), "agora")
    if os.path.isfile(script) and os.access(script, os.X_OK):
        return _as_typed(script)
    return f"{_as_typed(sys.executable)} -m bot"


def play_command(args: str, db: str = DEFAULT_DB) -> str:
    """`<command> play <args>`, with `--db` when the games are in another file than the default."""
    where = "" if db == DEFAULT_DB else f" --db {shlex.quote(db)}"
    return f"{command()} play {args}{where}"


def first_game() -> str:
    """The id of the first registered game: the default of `play` and the one hints name."""
    return next(iter(games()))


def plain(text: str) -> str:
    """Discord markdown (**bold**, __underline__, *italic*) as plain terminal text."""
    return ITALIC.sub(r"\1", text.replace("**", "").replace("__", ""))


def result_words(info: MatchInfo) -> str:
    """Who won, in a sentence: "Ann wins.", "Ann and Bo share the win.", "Nobody wins."."""
    winners = [info.seat_name(i) for i, v in enumerate(info.returns or ()) if v > 0]
    if not winners:
        return "Nobody wins."
    return f"{winners[0]} wins." if len(winners) == 1 else f"{together(winners)} share the win."


def credit(who: str, text: str, names: Sequence[str]) -> str:
    """An event line credited to the seat that acted, unless it starts by naming a seat itself (the actor,
    or another seat an effect of the move concerns: never "Ann: Ann draws") or speaks to the viewer ("You
    draw …" during the AI's move is the viewer's own draw, not the AI's)."""
    named = seat_refs(text, names)
    if named.startswith(("You ", "Your ")) or any(named.startswith(n) for n in (who, *names) if n):
        return named
    return f"{who}: {named}"


def named_moves(moves: Sequence[Move], names: Sequence[str]) -> list[Move]:
    """Menu paths with seat numbers replaced by names, unless two moves would then read the same."""
    named = [Move(m.key, tuple(seat_refs(step, names) for step in m.path)) for m in moves]
    return named if len({m.path for m in named}) == len(named) else list(moves)


def menu_keys(moves: Sequence[Move], shortcuts: dict[str, str]) -> list[tuple[str, Move]]:
    """What to type for each move, in the given order: the game's fixed letter for a kind of move that is
    offered once (end turn, pass, draw), so it never changes; numbers from 1 for the rest."""
    kinds = [m.key.split(":", 1)[0] for m in moves]
    count = Counter(kinds)
    letters: dict[str, str] = {}
    for kind, letter in shortcuts.items():
        ok = len(letter) == 1 and letter.isalpha() and letter.lower() not in RESERVED
        if ok and count[kind] == 1 and letter.lower() not in letters.values():
            letters[kind] = letter.lower()
    out, n = [], 0
    for move, kind in zip(moves, kinds, strict=True):
        if kind in letters:
            out.append((letters[kind], move))
        else:
            n += 1
            out.append((str(n), move))
    return out


def card_text(entry: CardEntry, others: Sequence[CardEntry] = (), seen: Seen | None = None) -> str:
    """A card's full text as plain lines: name and type, printed stats, text, where it is with its current
    stats when it is on the table, then its other faces (the app's card screen and line mode's i)."""
    lines = card_lines(entry)
    if seen is not None:
        lines += ["", f"Here: {seen.where}" + (f" — {seen.now}" if seen.now else "")]
    for face in others:
        lines += ["", "Other face:", *card_lines(face)]
    return "\n".join(lines)


def card_entries(present: Presentation, info: MatchInfo) -> dict[str, CardEntry]:
    """The game's catalogue with the match's card pack, by card id."""
    return {e.id: e for e in (*present.catalogue(), *packs.entries_of(info.game_id, info.options))}


def credited_log(rows: Sequence[tuple[PlayerId, str]], names: Sequence[str]) -> list[str]:
    """Replayed log rows as lines that say who acted (seat -1: a line of the app's own)."""
    return [credit(names[s], t, names) if 0 <= s < len(names) else t for s, t in rows]


def inspect_text(wanted: str, seen: Sequence[Seen], entries: dict[str, CardEntry]) -> str:
    """Line mode's `i NAME`: the full text of the card on screen whose name or label is NAME (or starts with
    it; any case), or which cards there are when NAME is empty, matches none or several."""
    rows = [(s, entries[s.card]) for s in dict.fromkeys(seen) if s.card in entries]
    if not rows:
        return "No card is face up on the table."
    key = wanted.strip().casefold()
    exact = [(s, e) for s, e in rows if key in (e.name.casefold(), e.label.casefold())]
    found = exact or [(s, e) for s, e in rows if key and e.name.casefold().startswith(key)]
    if key and len({e.id for _, e in found}) == 1:
        s, e = found[0]
        return card_text(e, [entries[f] for f in e.faces if f in entries and f != e.id], s)
    listed = found if key and found else rows
    head = f"Several cards match {wanted.strip()!r}:" if found else "The cards on screen (type i and a name):"
    if key and not found:
        head = f"No card named {wanted.strip()!r} is on screen. {head}"
    return "\n".join([head, *(f"  {e.name} — {s.where}" for s, e in listed)])


def help_text(game: Any, present: Presentation) -> str:
    """The game's summary, how to read its full rules here (or, for a game that ships no rule text, where
    they are), and the keys."""
    shipped = "Type `h rules` for the full rules (the game's own text) and Agora's rulings."
    return (
        f"{game.title} ({player_count(game)})\n{plain(present.summary)}\n"
        f"{shipped if rule_text(game) else plain(present.rules)}\n\n"
        f"Type a move's number or letter; {KEYS}. Ctrl-C also saves and quits."
    )


def rules_text(game: Any) -> str:
    """The game's own rule text (or, when it ships none, where its rules are), then Agora's rulings: what
    `h rules` prints and the app's help ends with."""
    text = clean_rule_text(rule_text(game)) or plain(of(game).rules)
    rulings = plain_rulings(rulings_text(game))
    return f"{text}\n\n-- Agora's rulings (where the text is unclear) --\n\n{rulings}" if rulings else text


# --- the help's rule text and rulings, as a player reads them ---------------------------------------------
# The rule texts are PDF and web extractions shared with the other front ends: the help cleans them as it
# shows them, line by line, by these patterns (each names the debris it drops, as found in the five texts).
DEBRIS = (
    re.compile(r".*\.(png|jpe?g|gif|webp)", re.I),  # an image's file name ("Screen Shot … 6.37.04 PM.png")
    re.compile(r"(Picture|Figure|Image) \d+:.*"),  # a picture's caption ("Picture 1: Player board")
    re.compile(r"(https?://|www\.)\S+", re.I),  # a page footer's web address ("WWW.HACKANDSLASHGAMES.COM")
    re.compile(r"[A-Z][A-Z &]+ GAMES"),  # the publisher's name beside it ("HACK AND SLASH GAMES")
    re.compile(r"CONTENTS|[^\t]+\t\d*"),  # a table of contents: its heading, and "Relics<TAB>4"
    re.compile(r"- \|[ |]*|\|[-| ]+\|"),  # an empty table header ("- | | |") and its rule ("|---|---|")
    re.compile(r"DEFENSE|ATTACK"),  # a picture's labels, alone on their lines
)
TYPOS = (("Moster cards:", "Monster cards:"),)  # a heading misspelt in the source
CODE = re.compile(r"`([^`]*)`")
SOURCE = re.compile(r"[\w./-]*/[\w./-]*|[\w-]+\.(py|toml|md|txt)|\[[\w.]+\]")  # a file, a data table
REFS = (  # the rulings' references to one another and to issues, dropped from the display
    re.compile(r"[;,]? (?:see|checked by) (?:rulings? )?\d+(?:(?:,| and) \d+)*[^.;)]*"),  # "; see 20 for …"
    re.compile(r"\s*\((?:rulings? |see )?\d+(?:[–-]\d+)?(?:(?:,| and) \d+(?:[–-]\d+)?)*\)"),  # (48), (4, 48)
    re.compile(
        r", (?:rulings? |see )?\d+(?:[–-]\d+)?(?:(?:,| and) \d+(?:[–-]\d+)?)*(?=\))"
    ),  # "(plus X, 41)"
    re.compile(
        r"\s*\((?:ruling|issue) \d+\)| in issue \d+|[;,] issue \d+(?=[.);])|issue \d+[;,] ?"
    ),  # "Changed in issue 23"
)
ABOUT_CODE = re.compile(r"Numbers are stable")  # a sentence for the developers ("… tests and code cite them")
CODE_HEAVY = 10  # a ruling naming this many code words describes the data format, for card-pack authors
LIST_ITEM = re.compile(r"\s*(?:[-*•] |\d+\. |\([a-z]\) )")


def clean_rule_text(text: str) -> str:
    """A rule text without its extraction debris (DEBRIS), its known misprints fixed (TYPOS), and no run of
    more than one blank line."""
    for wrong, right in TYPOS:
        text = text.replace(wrong, right)
    lines = [line for line in text.splitlines() if not any(p.fullmatch(line.strip()) for p in DEBRIS)]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def _names_a_source(sentence: str) -> bool:
    """Whether a sentence is about the code: it names a file or a data table outside any aside."""
    return any(SOURCE.fullmatch(c) for c in CODE.findall(re.sub(r"\([^()]*\)", "", sentence)))


def plain_rulings(text: str) -> str:
    """Agora's rulings in plain words: each one a paragraph without its number, references to other rulings
    or issue numbers; no file names or code (an aside naming a file is dropped, and so is a sentence about
    the code; a code word is written as a word); and no ruling about the data format (CODE_HEAVY)."""
    out: list[str] = []
    text = re.sub(
        r"\n *```.*?```", "", text.strip(), flags=re.S
    )  # a measurement's table: a benchmark's output
    for block in re.split(r"\n(?=\d+\. |#)", text):
        if len(CODE.findall(block)) >= CODE_HEAVY:
            continue
        lines: list[str] = []
        for line in block.splitlines():  # the source's hard wraps undone: the screen wraps
            if lines and lines[-1].strip() and line.startswith(" ") and not LIST_ITEM.match(line):
                lines[-1] += " " + line.strip()
            else:
                lines.append(line)
        block = re.sub(r"^\d+\. ", "• ", re.sub(r"^#+ ", "", "\n".join(lines)))
        block = re.sub(r"\s*\((?:issue \d+; )?`[^`]*`\)", "", block)  # "(`shared/rules/x.txt`)"
        block = " ".join(
            s
            for s in re.split(r"(?<=[.)]) (?=[A-Z*])", block)
            if not ABOUT_CODE.search(s) and not _names_a_source(s)
        )
        block = CODE.sub(lambda m: "" if SOURCE.search(m.group(1)) else m.group(1).replace("_", " "), block)
        block = re.sub(r" in [\w/]+\.py\b", "", block)  # "MAX_X in rules.py"
        for ref in REFS:
            block = ref.sub("", block)
        block = re.sub(r"\(\s*[;,]\s*", "(", re.sub(r"\(\s*[;,]?\s*\)", "", block))
        out.append(plain(re.sub(r"(?<=\S)  +", " ", re.sub(r" +([.,;:)])", r"\1", block))))
    return "\n\n".join(b for b in out if b.strip()).strip()


def terminal_names(info: MatchInfo) -> list[str]:
    """The seats' names as a terminal game stores them ("Player 1", "AI 2 (normal)", ...)."""
    return [info.seat_name(i) for i in range(len(info.seats))]


def no_database(db: str) -> bool:
    """Whether `db` names a database file that does not exist (a server's URL always exists here)."""
    path = db.removeprefix("sqlite:///")
    return "://" not in path and not Path(path).is_file()
