"""Cards as data: a card's stats, text and abilities read from TOML and checked against a vocabulary, with
errors that name the file, the card and the field.

An ability is a type (passive, claim, action, trigger, play), an optional cost, an event for a trigger, and
a list of effect steps, each naming an effect from the game's registry with its arguments. A card with no
code of its own is just these lines; see engine/abilities/VOCABULARY.md.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from engine.carddata import (
    CardDataError,
    check_keys,
    check_pack_cards,
    check_range,
    check_words,
    in_game,
    widen,
)
from engine.carddata import field as checked
from engine.table.present import plural

Args = tuple[tuple[str, Any], ...]


@dataclass(frozen=True, slots=True)
class Step:
    """One effect of an ability: the effect's name and its arguments."""

    do: str
    args: Args = ()

    def get(self, name: str, default: Any = None) -> Any:
        """One argument, or the default."""
        return next((v for k, v in self.args if k == name), default)


@dataclass(frozen=True, slots=True)
class Ability:
    """One ability of a card: what kind, what it costs, what sets it off, what it does."""

    type: str  # passive, claim, action, trigger, play
    cost: str = ""  # "" or a cost kind: discard, sacrifice, retire
    on: str = ""  # a trigger's event
    may: bool = False  # a trigger its controller may decline
    effect: tuple[Step, ...] = ()
    # a passive: +amount to stat for the cards `to` selects, while the condition holds
    stat: str = ""
    amount: int = 0
    to: str = ""
    condition: str = ""


@dataclass(frozen=True, slots=True)
class CardSpec:
    """One kind of card: identity, printed stats, text and abilities."""

    id: str
    name: str
    type: str
    faction: str = ""
    stats: tuple[tuple[str, int], ...] = ()
    text: str = ""
    abilities: tuple[Ability, ...] = ()
    keywords: tuple[str, ...] = ()
    flags: tuple[tuple[str, Any], ...] = ()  # other game fields (e.g. Ophelia's attach = true)

    def stat(self, name: str) -> int:
        """A printed stat (0 when the card has none)."""
        return next((v for k, v in self.stats if k == name), 0)

    def flag(self, name: str, default: Any = None) -> Any:
        """Another game field, or the default."""
        return next((v for k, v in self.flags if k == name), default)

    def of_type(self, kind: str) -> list[tuple[int, Ability]]:
        """This card's abilities of one type, with their index on the card."""
        return [(i, a) for i, a in enumerate(self.abilities) if a.type == kind]


@dataclass(frozen=True)
class Vocabulary:
    """The names a game's cards may use; each effect lists its arguments and their types."""

    types: Mapping[str, Collection[str]]  # card type -> the stats it carries
    abilities: Collection[str]
    costs: Collection[str]
    events: Collection[str]
    effects: Mapping[str, Mapping[str, type]]  # effect -> argument -> type
    selectors: Collection[str]  # chosen and fixed
    groups: Collection[str]  # the selectors a passive may use
    conditions: Collection[str]
    stats: Collection[str]
    keywords: Collection[str] = ()
    flags: Mapping[str, type] = field(default_factory=dict)
    choices: Mapping[str, Collection[Any]] = field(default_factory=dict)  # argument -> allowed values


_CARD_KEYS = ("id", "name", "type", "faction", "text", "ability", "keywords")
_ABILITY_KEYS = ("type", "cost", "on", "may", "effect", "stat", "amount", "to", "while")


def _step(at: str, d: Any, v: Vocabulary) -> Step:
    if not isinstance(d, dict):
        raise CardDataError(f'{at}: an effect step must be a table like {{ do = "damage", ... }}')
    do = checked(at, d, "do", str, choices=sorted(v.effects))
    params = v.effects[do]
    check_keys(f"{at} ({do})", d, ("do", *params))
    args = []
    for name, kind in params.items():
        if name not in d:
            continue
        value = checked(f"{at} ({do})", d, name, kind)
        allowed = v.selectors if name == "to" else v.choices.get(name)
        if allowed is not None and value not in allowed:
            raise CardDataError(f"{at} ({do}): {name} = {value!r} is not one of {', '.join(sorted(allowed))}")
        args.append((name, value))
    return Step(do, tuple(args))


def _ability(at: str, d: Any, v: Vocabulary) -> Ability:
    if not isinstance(d, dict):
        raise CardDataError(f"{at}: must be a table")
    check_keys(at, d, _ABILITY_KEYS)
    kind = checked(at, d, "type", str, choices=sorted(v.abilities))
    if kind == "passive":
        return Ability(
            kind,
            stat=checked(at, d, "stat", str, choices=sorted(v.stats)),
            amount=checked(at, d, "amount", int),
            to=checked(at, d, "to", str, choices=sorted(v.groups)),
            condition=checked(at, d, "while", str, "", choices=["", *sorted(v.conditions)]),
        )
    steps = d.get("effect")
    if not isinstance(steps, list) or not steps:
        raise CardDataError(f"{at}: effect must be a non-empty list of steps")
    return Ability(
        kind,
        cost=checked(at, d, "cost", str, "", choices=["", *sorted(v.costs)]),
        on=checked(at, d, "on", str, choices=sorted(v.events)) if kind == "trigger" else "",
        may=checked(at, d, "may", bool, False),
        effect=tuple(_step(f"{at} effect {j + 1}", s, v) for j, s in enumerate(steps)),
    )


def parse_card(at: str, d: Any, v: Vocabulary, factions: Collection[str] = ()) -> CardSpec:
    """One [[card]] table as a CardSpec; CardDataError saying which field is wrong and why."""
    if not isinstance(d, dict):
        raise CardDataError(f"{at}: must be a table of fields")
    cid = checked(at, d, "id", str)
    at = f"{at} ({cid})"
    kind = checked(at, d, "type", str, choices=sorted(v.types))
    stat_names = tuple(v.types[kind])
    check_keys(at, d, (*_CARD_KEYS, *stat_names, *v.flags))
    stats = tuple((s, checked(at, d, s, int, low=0, high=99)) for s in stat_names)
    abilities = d.get("ability", [])
    if not isinstance(abilities, list):
        raise CardDataError(f"{at}: ability must be an array of tables ([[card.ability]])")
    keywords = checked(at, d, "keywords", list, [])
    for k in keywords:
        if k not in v.keywords:
            raise CardDataError(f"{at}: unknown keyword {k!r}")
    return CardSpec(
        id=cid,
        name=checked(at, d, "name", str),
        type=kind,
        faction=checked(at, d, "faction", str, "", choices=list(factions) or None),
        stats=stats,
        text=checked(at, d, "text", str, ""),
        abilities=tuple(_ability(f"{at} ability {i + 1}", a, v) for i, a in enumerate(abilities)),
        keywords=tuple(keywords),
        flags=tuple((f, checked(at, d, f, t)) for f, t in v.flags.items() if f in d),
    )


def parse_cards(
    data: dict[str, Any], where: str, v: Vocabulary, factions: Collection[str] | None = None
) -> dict[str, CardSpec]:
    """Every [[card]] of a data file, checked; ids unique (factions: those of the file, unless given)."""
    tables = data.get("card")
    if not isinstance(tables, list) or not tables:
        raise CardDataError(f"{where}: no [[card]] tables")
    if factions is None:
        factions = data.get("factions", {})
    out: dict[str, CardSpec] = {}
    for i, t in enumerate(tables):
        card = parse_card(f"{where} card {i + 1}", t, v, tuple(factions))
        if card.id in out:
            raise CardDataError(f"{where} card {i + 1}: id {card.id!r} is used twice")
        out[card.id] = card
    return out


def parse_decks(
    data: dict[str, Any], where: str, cards: Mapping[str, CardSpec], size: int, copies: int
) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Every [decks.ID] (name, cards = {id = copies}) as (name, card list), checked against the cards."""
    out = {}
    for did, d in (data.get("decks") or {}).items():
        at = f"{where} [decks.{did}]"
        if not isinstance(d, dict):
            raise CardDataError(f"{at}: must be a table")
        check_keys(at, d, ("name", "cards"))
        counts = checked(at, d, "cards", dict)
        for cid, n in counts.items():
            if cid not in cards:
                raise CardDataError(f"{at}: unknown card {cid!r}")
            if not isinstance(n, int) or not 1 <= n <= copies:
                raise CardDataError(f"{at}: {cid} = {n!r}: at most {copies} copies of a card")
        total = sum(counts.values())
        if total != size:
            raise CardDataError(f"{at}: {plural(total, 'card')}; a deck has exactly {size}")
        out[did] = (checked(at, d, "name", str), tuple(c for c, n in counts.items() for _ in range(n)))
    return out


# -- card packs: a pack's cards within the ranges of the game's own ------------------------------------------


@dataclass(frozen=True)
class Ranges:
    """What a game's own cards use: each type's stat ranges, each effect argument's, and how many abilities
    a card and steps an ability have at most; a pack card stays within them, so the game stays as finite
    and as fair as its own set."""

    stats: dict[tuple[str, str], tuple[int, int]]
    args: dict[tuple[str, str] | str, tuple[int, int]]  # (effect, argument) or an argument for every effect
    passive: tuple[int, int]
    abilities: int
    steps: int


def ranges(cards: Mapping[str, CardSpec]) -> Ranges:
    """The ranges a game's own cards use."""
    stats: dict[Any, tuple[int, int]] = {}
    args: dict[Any, tuple[int, int]] = {}
    passive: dict[Any, tuple[int, int]] = {}
    for c in cards.values():
        for k, n in c.stats:
            widen(stats, (c.type, k), n)
        for a in c.abilities:
            if a.type == "passive":
                widen(passive, 0, a.amount)
            for st in a.effect:
                for k, n in st.args:
                    if isinstance(n, int) and not isinstance(n, bool):
                        widen(args, (st.do, k), n)
                        widen(args, k, n)  # for an effect the game's cards use without this argument
    most = max((len(c.abilities) for c in cards.values()), default=0)
    steps = max((len(a.effect) for c in cards.values() for a in c.abilities), default=0)
    return Ranges(stats, args, passive.get(0, (0, 0)), most, steps)


def parse_pack(
    data: dict[str, Any],
    where: str,
    v: Vocabulary,
    base: Mapping[str, CardSpec],
    factions: Collection[str] = (),
) -> dict[str, CardSpec]:
    """A pack's [[card]] tables: parsed as the game's own, ids new, numbers in the game's own ranges."""
    check_pack_cards(where, data.get("card"), base)
    cards = parse_cards(data, where, v, factions)
    r = ranges(base)
    for i, c in enumerate(cards.values()):
        at = f"{where} card {i + 1} ({c.id})"
        check_words(at, c.name, c.text)
        for k, n in c.stats:
            check_range(at, k, n, r.stats.get((c.type, k)))
        if len(c.abilities) > r.abilities:
            raise CardDataError(
                f"{at}: {len(c.abilities)} abilities; the game's cards have at most {r.abilities}"
            )
        for j, a in enumerate(c.abilities):
            where_ab = f"{at} ability {j + 1}"
            if a.type == "passive":
                check_range(where_ab, "amount", a.amount, r.passive)
            if len(a.effect) > r.steps:
                raise CardDataError(f"{where_ab}: {len(a.effect)} effect steps; at most {r.steps}")
            for s, st in enumerate(a.effect):
                for k, n in st.args:
                    if isinstance(n, int) and not isinstance(n, bool):
                        bounds = r.args.get((st.do, k)) or r.args.get(k)
                        check_range(f"{where_ab} effect {s + 1} ({st.do})", k, n, bounds)
    return cards


def renamed(card: CardSpec, tag: str) -> CardSpec:
    """A pack card under its in-game id (its own id and the pack's tag)."""
    return replace(card, id=in_game(card.id, tag))
