"""Ophidian 2350's deck builder (the `DeckBook` of engine/table/present.py): a team and its Arsenal written as
text that fits a chat message box, read back into JSON and checked by the rules of RULINGS.md 8 and 9.

    # Iron Tide
    Gladiators: Brakka Vohl, Sera Quill, Juno Kessler
    Reinforcements: Rook, Mags
    3 Overhand Smash
    2x Gladius Mk. IX
    Pit Hound x3

- One `Gladiators:` line: 1 to 4 Gladiators (their Level 1/2 cards), separated by commas; at most one
  `Reinforcements:` line (0 to 3, empty or `none` for none). Their Level 3/4 cards join the Stack by
  themselves.
- Every other line is an Arsenal card: the copies then the name (`3 Pit Hound`, `3x Pit Hound`), or the name
  then `x3`; a name alone is one copy, and a card on two lines counts its copies together.
- Names are matched in any case and without their punctuation (`berserkers oath`); card ids work too. An
  unknown name gets a "did you mean". Blank lines, lines starting with `#` or `//` (notes), a heading such as
  `Arsenal:` and the fences of a Discord code block are skipped.

A deck as JSON: {"name": str, "gladiators": [Level 1/2 card ids], "reinforcements": [card ids],
"arsenal": {card id: copies}}, the Arsenal in the pool's order. `validate` checks such JSON again (the engine
does, for the decks of setup's options["decks"]) and `team_of` makes it a `Team`. `unseen_arsenal` deals,
for `determinize`, the cards of a saved deck its opponent has not seen: from the pool, never from its list.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from engine.abilities.spec import CardSpec
from engine.core import JSON
from engine.games.ophidian.cards import (
    BASE,
    CARDS,
    COPIES,
    GLADIATORS,
    PROMOTION,
    REINFORCEMENT_TOP,
    REINFORCEMENTS,
    STRATEGY,
    STRATEGY_TYPES,
    TEAM_CHOICE,
    TEAMS,
    TOP_LEVEL,
    Team,
    check_arsenal,
    check_team,
    meets,
)
from engine.rng import Rng

NAME_MAX = 40  # characters in a deck's name
DEFAULT_NAME = "Custom team"
PLURALS = {"minion": "Minions", "quick_hit": "Quick-Hits", "pump": "Pumps"}

LABEL = re.compile(r"^(gladiators?|reinforcements?)\s*[:=]\s*(.*)$", re.IGNORECASE)
HEADING = re.compile(r"^[^\W\d][\w' -]*:$")  # "Arsenal:", "Quick-Hits:"
COPIES_FIRST = re.compile(r"^(\d+)\s*[x×*]?\s+(.+)$", re.IGNORECASE)
COPIES_LAST = re.compile(r"^(.+?)\s+[x×*]\s*(\d+)$", re.IGNORECASE)
NONE = ("", "none", "-", "—")


def _key(text: str) -> str:
    """A name or id as it is matched: lower case, letters and digits only ("Mk. IX" -> "mkix")."""
    return re.sub(r"[\W_]+", "", text.casefold())


def _index(pool: Mapping[str, CardSpec]) -> dict[str, str]:
    """Every card by the key of its id and of its name; a Gladiator's name gives its Level 1/2 card. A pack
    card answers to its own id too ("rivet_gun" for "rivet_gun.8f296e")."""
    out = {}
    for cid, card in pool.items():
        out[_key(cid)] = cid
        out.setdefault(_key(cid.split(".")[0]), cid)
        if _key(card.name) not in out or cid in GLADIATORS:
            out[_key(card.name)] = cid
    return out


def _suggest(text: str, among: Mapping[str, CardSpec]) -> str:
    """ " — did you mean X?" for the closest name of these cards, or ""."""
    names = {_key(c.name): c.name for c in among.values()}
    close = difflib.get_close_matches(_key(text), list(names), n=1, cutoff=0.6)
    return f" — did you mean {names[close[0]]}?" if close else ""


def deck_of(team: Team) -> JSON:
    """A ready team as a deck."""
    arsenal = {c: team.arsenal.count(c) for c in CARDS if c in team.arsenal}
    reinforcements = [c for c in team.stack if c in REINFORCEMENTS]
    return {"name": team.name, "gladiators": list(team.gladiators), "reinforcements": reinforcements,
            "arsenal": arsenal}  # fmt: skip


def _pool_order(arsenal: Mapping[str, Any]) -> dict[str, Any]:
    """An Arsenal in the pool's order (cards the pool does not have last, as given)."""
    known = {c: arsenal[c] for c in CARDS if c in arsenal}
    return {**known, **{c: n for c, n in arsenal.items() if c not in known}}


def _checked_name(name: str, problems: list[str]) -> str:
    name = " ".join(str(name).split()) or DEFAULT_NAME
    if len(name) > NAME_MAX:
        problems.append(f"the name is {len(name)} characters long: at most {NAME_MAX}")
    return name


def _rules(
    gladiators: list[str], reinforcements: list[str], arsenal: Mapping[str, Any], pool: Mapping[str, CardSpec]
) -> list[str]:
    """check_team and check_arsenal, without their words for names already reported as unknown."""
    problems = check_team(gladiators, reinforcements, pool) + check_arsenal(arsenal, pool)
    return [p for p in problems if not p.startswith("unknown ")]


class TeamBook:
    """Ophidian 2350's DeckBook: the seat choice "team", a team and Arsenal as text (see the module)."""

    key = TEAM_CHOICE.key

    def __init__(self, pack: Mapping[str, CardSpec] | None = None) -> None:
        """The book of the game's own cards, or of them and a card pack's (engine/packs.py)."""
        self.pool: dict[str, CardSpec] = {**BASE, **(pack or {})}
        self.strategy = {c: spec for c, spec in self.pool.items() if spec.type in STRATEGY_TYPES}
        self.by_key = _index(self.pool)
        self.example = self.text(deck_of(TEAMS["iron_tide"]))

    def _find(self, text: str) -> str | None:
        """The id of the card this name or id means, if any."""
        return self.by_key.get(_key(text))

    def parse(self, text: str, name: str = "") -> JSON:
        """The deck written in `text`; ValueError listing every problem, one per line."""
        problems: list[str] = []
        gladiators: list[str] | None = None
        reinforcements: list[str] = []
        seen: dict[str, int] = {}  # label -> the line it was on
        arsenal: dict[str, int] = {}
        for n, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip().lstrip("-•").strip()
            if not line or line.startswith(("#", "//", "```")):
                continue
            if m := LABEL.match(line):
                label = "reinforcements" if m[1].lower().startswith("r") else "gladiators"
                if label in seen:
                    problems.append(
                        f"line {n}: a second {label.capitalize()} line (the first is line {seen[label]}): "
                        "list them all on one line"
                    )
                    continue
                seen[label] = n
                wanted = GLADIATORS if label == "gladiators" else REINFORCEMENTS
                names = [] if m[2].strip().lower() in NONE else [x.strip() for x in re.split(r"[,;]", m[2])]
                found = []
                for who in names:
                    if not who:
                        continue
                    cid = self._find(who)
                    if cid is None:
                        kind = "Gladiator" if label == "gladiators" else "Reinforcement"
                        problems.append(f"line {n}: there is no {kind} called {who!r}{_suggest(who, wanted)}")
                        found.append(f"?{who}")  # counted, so the team's size and VP are not misjudged
                    else:
                        found.append(cid)
                if label == "gladiators":
                    gladiators = found
                else:
                    reinforcements = found
                continue
            if HEADING.match(line):
                continue
            if m := COPIES_FIRST.match(line):
                copies, card = int(m[1]), m[2].strip()
            elif m := COPIES_LAST.match(line):
                copies, card = int(m[2]), m[1].strip()
            else:
                copies, card = 1, line
            cid = self._find(card)
            if cid is None:
                problems.append(f"line {n}: there is no card called {card!r}{_suggest(card, self.strategy)}")
            else:
                arsenal[cid] = arsenal.get(cid, 0) + copies
        if gladiators is None:
            problems.append(
                "there is no Gladiators line: start with one such as "
                "'Gladiators: Brakka Vohl, Sera Quill, Juno Kessler'"
            )
        rules = _rules(gladiators or [], reinforcements, arsenal, self.pool)
        if gladiators is None:
            rules = [p for p in rules if not p.startswith("no Gladiators")]
        problems += rules
        deck_name = _checked_name(name, problems)
        if problems:
            raise ValueError("\n".join(problems))
        return {"name": deck_name, "gladiators": gladiators or [], "reinforcements": reinforcements,
                "arsenal": _pool_order(arsenal)}  # fmt: skip

    def text(self, deck: JSON) -> str:
        """The deck as text: its name as a note, the Gladiators, the Reinforcements, the Arsenal by type."""
        lines = [f"# {deck['name']}"] if deck.get("name") else []
        lines.append("Gladiators: " + ", ".join(self._name(c) for c in deck.get("gladiators") or []))
        lines.append("Reinforcements: " + ", ".join(self._name(c) for c in deck.get("reinforcements") or []))
        arsenal: dict[str, Any] = dict(deck.get("arsenal") or {})
        for kind in STRATEGY_TYPES:
            mine = {c: n for c, n in arsenal.items() if c in self.strategy and self.strategy[c].type == kind}
            if mine:
                lines.append(f"# {PLURALS[kind]}: {sum(mine.values())}")
                lines += [f"{n} {self._name(c)}" for c, n in mine.items()]
        others = {c: n for c, n in arsenal.items() if c not in self.strategy}
        lines += [f"{n} {self._name(c)}" for c, n in others.items()]
        return "\n".join(lines)

    def _name(self, cid: str) -> str:
        """A card's printed name (its id as given when the pool no longer has it)."""
        card = self.pool.get(cid)
        return card.name if card is not None else str(cid)


BOOK = TeamBook()


def validate(deck: Any, pack: Mapping[str, CardSpec] | None = None) -> JSON:
    """A deck (JSON, e.g. from setup's options["decks"]) checked again, against the game's own cards and a
    card pack's: a normalized copy, or ValueError listing every problem, one per line."""
    if not isinstance(deck, Mapping):
        raise ValueError(f"a deck is a JSON object, not {type(deck).__name__}")
    problems: list[str] = []
    gladiators, reinforcements, arsenal = (deck.get(k) for k in ("gladiators", "reinforcements", "arsenal"))
    if not isinstance(gladiators, list):
        problems.append("gladiators: a list of card ids is missing")
    if not isinstance(reinforcements, list):
        problems.append("reinforcements: a list of card ids is missing")
    if not isinstance(arsenal, Mapping):
        problems.append("arsenal: an object of card id -> copies is missing")
    extra = sorted(set(deck) - {"name", "gladiators", "reinforcements", "arsenal"})
    if extra:
        problems.append(f"unknown fields: {', '.join(map(str, extra))}")
    if problems:
        raise ValueError("\n".join(problems))
    assert isinstance(gladiators, list) and isinstance(reinforcements, list) and isinstance(arsenal, Mapping)
    pool = {**BASE, **(pack or {})}
    problems = check_team(gladiators, reinforcements, pool) + check_arsenal(arsenal, pool)
    name = _checked_name(str(deck.get("name") or ""), problems)
    if problems:
        raise ValueError("\n".join(problems))
    return {"name": name, "gladiators": list(gladiators), "reinforcements": list(reinforcements),
            "arsenal": _pool_order(arsenal)}  # fmt: skip


def team_of(deck: Any, pack: Mapping[str, CardSpec] | None = None) -> Team:
    """A deck as a Team ready to play (its Stack: the Level 3/4 cards, then the Reinforcements); ValueError
    listing every problem if it is not a legal deck (of the game's own cards and a card pack's)."""
    d = validate(deck, pack)
    stack = (*(PROMOTION[g] for g in d["gladiators"]), *d["reinforcements"])
    arsenal = tuple(c for c, n in d["arsenal"].items() for _ in range(n))
    return Team("custom", d["name"], tuple(d["gladiators"]), stack, arsenal)


# -- an Arsenal the opponent cannot see (RULINGS 67) ----------------------------------------------------


@cache
def _copies(team: tuple[str, ...], pack: tuple[str, ...] = ()) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Every copy the deck rules allow (RULINGS 9), of the game's own Strategy cards and a pack's: those of
    the cards some card of the team meets at the highest level it can reach (RULINGS 4, 6), then others."""
    tops = [(g, TOP_LEVEL if CARDS[g].type == "gladiator" else REINFORCEMENT_TOP) for g in team]
    pool = (*STRATEGY, *pack)
    playable = [any(meets(c, g, level) for g, level in tops) for c in pool]
    first = tuple(c for c, ok in zip(pool, playable, strict=True) if ok for _ in range(COPIES))
    then = tuple(c for c, ok in zip(pool, playable, strict=True) if not ok for _ in range(COPIES))
    return first, then


def _sample(items: list[str], k: int, rng: Rng) -> list[str]:
    """k of the items at random, in random order (a partial shuffle: only k draws)."""
    k = min(k, len(items))
    for i in range(k):
        j = i + rng.below(len(items) - i)
        items[i], items[j] = items[j], items[i]
    return items[:k]


def unseen_arsenal(
    team: Iterable[str], seen: Mapping[str, int], count: int, rng: Rng, pack: Iterable[str] = ()
) -> list[str]:
    """`count` cards that make, with the cards `seen`, a legal Arsenal (RULINGS 9), drawn from the pool (the
    game's own Strategy cards and the game's card pack's) at random: copies the team can play first, others
    only when those run out (RULINGS 67). Titles are unique in the pool: a card's copies are its title's."""
    extra = tuple(c for c in pack if CARDS[c].type in STRATEGY_TYPES)
    first, then = (list(copies) for copies in _copies(tuple(sorted(set(team))), extra))
    for cid, n in seen.items():
        pile = first if cid in first else then
        for _ in range(min(n, pile.count(cid))):
            pile.remove(cid)
    out = _sample(first, count, rng)
    if len(out) < count:
        out += _sample(then, count - len(out), rng)
        rng.shuffle(out)
    pool = sorted(STRATEGY)
    while len(out) < count:  # a deck the pool no longer holds (never a legal one): sizes stay exact
        out.append(pool[rng.below(len(pool))])
    return out
