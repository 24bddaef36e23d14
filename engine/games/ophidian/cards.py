"""Ophidian 2350's card pool, read from cards.toml and checked against the vocabulary below, with the tables a
rules engine wants and the team and Arsenal checks a deck builder uses (RULINGS.md 8, 9).

The vocabulary is what a rules engine for Ophidian implements; RULINGS.md 60-66 say what each name means:
- card types: gladiator, reinforcement, minion, quick_hit, pump (their fields: RULINGS.md 60);
- ability types: passive, trigger, play, plus, minus, query;
- costs: set (↷), crowd (★), cheer, discard, scrap;
- events: attacks, attacked, defeats, defeated, damaged, advances, ally_attacks, ally_attacked, blocked,
  ally_defeated, enemy_plays, wave_end;
- effects: wound, heal, admg, ddmg, shield, assault, set, unset, shift, scrap, cheer, cp, draw, discard,
  recover, deploy, attach, flow, cancel (`heal`, `draw` and `discard` are the kit's shared effects; the
  others are Ophidian's own, in its own effect table);
- selectors: enemy, ally, other_ally, enemy_pump (chosen); self, bearer, it, attacker, defender,
  all_allies, ally_gladiators, ally_minions, all_enemies (fixed); filters only, in_field;
- conditions: raging, crowd_favorite (and defeated, for a ? action's flow step).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from engine.abilities.spec import Ability, CardSpec, Step, Vocabulary, parse_cards, parse_pack, renamed
from engine.carddata import CardDataError, PackCards, check_keys, check_words, every, in_game, load, pack_tag
from engine.carddata import field as checked
from engine.table.present import SeatChoice, plural

# The team and the Arsenal (RULINGS.md 8, 9).
TEAM_VP, MAX_GLADIATORS, MAX_REINFORCEMENTS = 10, 4, 3
MIN_ARSENAL, COPIES = 50, 3
# Hands and CP (RULINGS.md 11, 12, 46).
HAND, EXTRA_DRAW = 7, 2  # draw to 7 + 2, then put 2 on the bottom of the Arsenal
CP_BASE = 10  # a Wave starts with 10 + its number CP
# Waves, Cheer and damage (RULINGS.md 19, 29, 32, 48, 53-55, 58).
WAVES, MAX_WAVES, MAX_ACTIONS_PER_WAVE = 4, 7, 100
CHEER_WIN, PYRE_WIN = 15, 12
CHEER_PER_ATTACK, RDMG, PROMOTE_HEAL, TOP_LEVEL = 1, 1, 1, 4
REINFORCEMENT_TOP = 1  # a Reinforcement's card flips from Level 0 to Level 1, its top (RULINGS.md 4, 48)

DISCIPLINE_IDS = ("warrior", "tech", "summoner", "bio_gen", "psionic", "mystic", "universal")
GLADIATOR_TYPES = ("gladiator", "reinforcement")
CHARACTER_TYPES = (*GLADIATOR_TYPES, "minion")
STRATEGY_TYPES = ("minion", "quick_hit", "pump")
FLOWS = ("+", "-", "?")
RESPONSES = ("or", "dr", "r")
FIELDS = ("action", "support")
X_KINDS = ("paid", "cheer", "wave", "pyre")  # RULINGS.md 41
KEYWORDS = ("unique",)

# The events that open a response window, and which response symbol may answer which (RULINGS.md 16, 63).
WINDOW_EVENTS = ("ally_attacked", "ally_attacks", "blocked", "enemy_plays", "ally_defeated")
RESPONSE_EVENTS = {
    "or": ("ally_attacks", "blocked"),
    "dr": ("ally_attacked", "enemy_plays"),
    "r": WINDOW_EVENTS,
}
ATTACK_EVENTS = ("attacks", "attacked", "ally_attacks", "ally_attacked", "blocked")  # "for this attack"
CANCEL_EVENTS = ("ally_attacked", "enemy_plays")  # what a cancel can stop (RULINGS.md 43)

CHOSEN = ("enemy", "ally", "other_ally", "enemy_pump")
GROUPS = ("self", "bearer", "all_allies", "ally_gladiators", "ally_minions")
FIXED = (*GROUPS, "it", "attacker", "defender", "all_enemies")
CONDITIONS = ("raging", "crowd_favorite")
PICK = {"to": str, "only": str, "in_field": str}
AMOUNT = {"amount": int}
SHARED_EFFECTS = ("heal", "draw", "discard")  # the kit's (engine/abilities/effects.py), used as they are

VOCABULARY = Vocabulary(
    types={
        "gladiator": ("level", "vp", "life", "rage", "admg"),
        "reinforcement": ("level", "vp", "life", "rage", "admg", "maintain"),
        "minion": ("cp", "maintain", "level", "life", "admg"),
        "quick_hit": ("cp", "level"),
        "pump": ("cp", "maintain", "level"),
    },
    # passive: in force while in play; trigger: on an event (a response Quick-Hit's: the event it answers);
    # play: a Strategy card's text as it resolves; plus / minus / query: activated, symbol +, − or ?.
    abilities=("passive", "trigger", "play", "plus", "minus", "query"),
    costs=("set", "crowd", "cheer", "discard", "scrap"),
    events=(
        "attacks",
        "attacked",
        "defeats",
        "defeated",
        "damaged",
        "advances",
        "ally_attacks",
        "ally_attacked",
        "blocked",
        "ally_defeated",
        "enemy_plays",
        "wave_end",
    ),
    effects={
        "wound": {**PICK, **AMOUNT, "x": bool, "direct": bool},
        "heal": {**PICK, **AMOUNT},
        "admg": {**PICK, **AMOUNT, "x": bool, "until": str},
        "ddmg": {**PICK, **AMOUNT, "until": str},
        "shield": {**PICK, **AMOUNT, "until": str},
        "assault": {"by": str, "bonus": int, "direct": bool},
        "set": PICK,
        "unset": PICK,
        "shift": {**PICK, "to_field": str},
        "scrap": {"to": str},
        "cheer": {"player": str, **AMOUNT, "x": bool},
        "cp": {"player": str, **AMOUNT, "x": bool},
        "draw": AMOUNT,
        "discard": AMOUNT,
        "recover": {"kind": str},
        "deploy": {"max_cp": int},
        "attach": {"to": str, "only": str},
        "flow": {"plus_if": str},
        "cancel": {},
    },
    selectors=(*CHOSEN, *FIXED),
    groups=GROUPS,
    conditions=CONDITIONS,
    stats=("admg", "life", "ddmg", "rage"),
    keywords=KEYWORDS,
    flags={
        "pair": str,
        "species": str,
        "second_discipline": str,
        "flow": str,
        "response": str,
        "unmaintainable": bool,
        "x": str,
    },
    choices={
        "only": ("gladiator", "minion"),
        "in_field": FIELDS,
        "to_field": FIELDS,
        "until": ("attack", "wave"),
        "by": ("self", "bearer", "ally"),
        "player": ("you", "opponent"),
        "kind": ("minion", "quick_hit", "pump", "any"),
        "plus_if": (*CONDITIONS, "defeated"),
    },
)

# What each ability type may appear on.
ABILITY_ON = {
    "passive": ("gladiator", "reinforcement", "minion", "pump"),
    "trigger": ("gladiator", "reinforcement", "minion", "quick_hit", "pump"),
    "play": STRATEGY_TYPES,
    "plus": ("gladiator", "reinforcement", "minion", "pump"),
    "minus": ("gladiator", "reinforcement", "minion", "pump"),
    "query": ("gladiator", "reinforcement", "minion", "pump"),
}
ACTIVATED = ("plus", "minus", "query")
# The game fields each card type may carry.
FLAGS_ON = {
    "gladiator": ("pair", "species", "second_discipline", "x"),
    "reinforcement": ("species", "x"),
    "minion": ("flow", "unmaintainable", "x"),
    "quick_hit": ("flow", "response", "x"),
    "pump": ("flow", "unmaintainable", "x"),
}
# The arguments each effect cannot do without; "amount or x" for those that take X.
REQUIRED = {
    "wound": ("to",),
    "heal": ("to", "amount"),
    "admg": ("to", "until"),
    "ddmg": ("to", "amount", "until"),
    "shield": ("to", "amount", "until"),
    "assault": ("by",),
    "set": ("to",),
    "unset": ("to",),
    "shift": ("to", "to_field"),
    "scrap": ("to",),
    "cheer": ("player",),
    "cp": ("player",),
    "draw": ("amount",),
    "discard": ("amount",),
    "recover": ("kind",),
    "deploy": ("max_cp",),
    "attach": ("to",),
    "flow": ("plus_if",),
    "cancel": (),
}
X_EFFECTS = ("wound", "admg", "cheer", "cp")
TYPE_NAMES = {
    "gladiator": "Gladiator",
    "reinforcement": "Reinforcement",
    "minion": "Minion",
    "quick_hit": "Quick-Hit",
    "pump": "Pump",
}


def _fail(at: str, why: str) -> None:
    raise CardDataError(f"{at}: {why}")


def _one_of(values: Collection[Any]) -> str:
    return ", ".join(map(repr, values))


def _check_fields(at: str, card: CardSpec, disciplines: Collection[str], species: Collection[str]) -> None:
    """The card's discipline, game fields and printed numbers."""
    flags = dict(card.flags)
    if not card.faction:
        _fail(at, "missing field 'faction' (the discipline)")
    if card.type in GLADIATOR_TYPES and card.faction == "universal":
        _fail(at, "a Gladiator's discipline cannot be 'universal' (Universal is a requirement only)")
    extra = sorted(set(flags) - set(FLAGS_ON[card.type]))
    if extra:
        _fail(at, f"a {card.type} has no {', '.join(extra)}")
    needed = {"gladiator": ("pair", "species"), "reinforcement": ("species",)}.get(card.type, ())
    missing = [f for f in needed if f not in flags]
    if missing:
        _fail(at, f"missing field {', '.join(map(repr, missing))}")
    if card.type in STRATEGY_TYPES:
        if ("flow" in flags) == ("response" in flags):
            _fail(at, "needs exactly one of flow ('+', '-', '?') or response ('or', 'dr', 'r')")
        if "flow" in flags and flags["flow"] not in FLOWS:
            _fail(at, f"flow = {flags['flow']!r} is not one of {_one_of(FLOWS)}")
        if "response" in flags and flags["response"] not in RESPONSES:
            _fail(at, f"response = {flags['response']!r} is not one of {_one_of(RESPONSES)}")
        if flags.get("unmaintainable") and card.stat("maintain") != 0:
            _fail(at, "an unmaintainable (☠) card has maintain = 0")
    if "species" in flags and flags["species"] not in species:
        _fail(at, f"species = {flags['species']!r} is not one of {_one_of(species)}")
    if "second_discipline" in flags:
        second = flags["second_discipline"]
        allowed = [d for d in disciplines if d not in ("universal", card.faction)]
        if second not in allowed:
            _fail(at, f"second_discipline = {second!r} is not one of {_one_of(allowed)}")
    if "x" in flags:
        kinds = X_KINDS if card.type in STRATEGY_TYPES else tuple(k for k in X_KINDS if k != "paid")
        if flags["x"] not in kinds:
            _fail(at, f"x = {flags['x']!r} is not one of {_one_of(kinds)}")
    _check_numbers(at, card)


def _check_numbers(at: str, card: CardSpec) -> None:
    """Levels, Life, Rage and VP in their ranges."""
    level = card.stat("level")
    if card.type == "gladiator" and level not in (1, 3):
        _fail(at, f"level = {level} must be 1 (a Level 1/2 card) or 3 (a Level 3/4 card)")
    if card.type == "reinforcement" and level != 0:
        _fail(at, f"level = {level} must be 0 (a Reinforcement)")
    if card.type in STRATEGY_TYPES and not 1 <= level <= TOP_LEVEL:
        _fail(at, f"level = {level} must be from 1 to {TOP_LEVEL}")
    if card.type in CHARACTER_TYPES and card.stat("life") < 1:
        _fail(at, "life = 0 must be from 1")
    if card.type in GLADIATOR_TYPES:
        if card.stat("vp") < 1:
            _fail(at, "vp = 0 must be from 1")
        life, rage = card.stat("life"), card.stat("rage")
        if not 1 <= rage < life:
            _fail(at, f"rage = {rage} must be from 1 to {life - 1} (below life = {life})")


def _uses(at: str, card: CardSpec, i: int, ab: Ability, step: Step, first: bool) -> None:
    """One effect step: its required arguments and where its selectors and durations make sense."""
    where = f"{at} ability {i + 1} ({step.do})"
    args = dict(step.args)
    missing = [a for a in REQUIRED[step.do] if a not in args]
    if step.do in X_EFFECTS and "amount" not in args and not args.get("x"):
        missing.append("amount")
    if missing:
        _fail(where, f"missing argument {', '.join(map(repr, missing))}")
    to = args.get("to")
    if (to == "enemy_pump") != (step.do == "scrap"):
        _fail(where, "only scrap takes a Pump (to = 'enemy_pump'), and it takes nothing else")
    if step.do == "attach" and to not in ("enemy", "ally"):
        _fail(where, "a Pump is played on a character chosen as 'enemy' or 'ally'")
    if (to == "bearer" or args.get("by") == "bearer") and card.type != "pump":
        _fail(where, "only a Pump has a bearer")
    if (to == "self" or args.get("by") == "self") and card.type not in CHARACTER_TYPES:
        _fail(where, f"a {card.type} is not a character: 'self' means nothing on it")
    if to == "it" and first:
        _fail(where, "'it' is the character a previous step chose; this is the first step")
    if to in ("attacker", "defender") and ab.type != "trigger":
        _fail(where, f"'{to}' is only known to a trigger or response")
    if args.get("until") == "attack" and ab.on not in ATTACK_EVENTS:
        _fail(where, f"'for this attack' needs an attack event ({', '.join(ATTACK_EVENTS)})")
    if step.do == "cancel" and not (card.flag("response") and ab.on in CANCEL_EVENTS):
        _fail(where, f"only a response to {' or '.join(CANCEL_EVENTS)} can cancel")


def _check_abilities(at: str, card: CardSpec) -> None:
    """Each ability on a card that may have it, with the shape its card type needs."""
    abilities = card.abilities
    for i, ab in enumerate(abilities):
        where = f"{at} ability {i + 1}"
        if card.type not in ABILITY_ON[ab.type]:
            _fail(where, f"a {card.type} cannot have a {ab.type} ability")
        if ab.may and ab.type != "trigger":
            _fail(where, "only a trigger has may")
        if ab.type == "trigger" and ab.cost and not ab.may:
            _fail(where, "a trigger with a cost is a character's R ability: it needs may = true")
        if ab.type == "passive" and (ab.to == "bearer") != (card.type == "pump"):
            _fail(where, "a Pump's passives apply to its bearer (to = 'bearer'), and only a Pump's")
        steps = list(ab.effect)
        for j, step in enumerate(steps):
            _uses(at, card, i, ab, step, j == 0)
            if step.do == "attach" and (card.type != "pump" or (i, j) != (0, 0)):
                _fail(where, "attach is the first step of a Pump's first ability")
            if step.get("to") == "it" and j and steps[j - 1].get("to") not in ("enemy", "ally", "other_ally"):
                _fail(where, "'it' is the character a previous step chose (enemy, ally or other_ally)")
            if step.do == "assault" and step.get("by", "self") == "self" and ab.cost != "set":
                _fail(where, "'this attacks' is paid with ↷ (cost = 'set'): the Set of that attack")
            if step.do == "flow" and j != len(steps) - 1:
                _fail(where, "the flow step ends its ability ('This is + if …; otherwise −.')")
    first = abilities[0] if abilities else None
    if card.type == "pump" and not (first and first.type == "play" and first.effect[0].do == "attach"):
        _fail(at, "a Pump's first ability is a play ability whose first step is attach ('Play on …')")
    response = card.flag("response")
    plays = card.of_type("play")
    if card.type == "quick_hit" and response:
        if not abilities or any(ab.type != "trigger" or ab.cost or ab.may for ab in abilities):
            _fail(at, "a response's abilities are triggers on the event it answers, without cost or may")
        for ab in abilities:
            if ab.on not in RESPONSE_EVENTS[response]:
                allowed = ", ".join(RESPONSE_EVENTS[response])
                _fail(at, f"{response.upper()} answers {allowed}, not {ab.on}")
    elif card.type == "quick_hit" and len(plays) != len(abilities):
        _fail(at, "a Quick-Hit that is not a response has only play abilities")
    if card.type in STRATEGY_TYPES and not response:
        if card.type != "minion" and not plays:
            _fail(at, "needs a play ability (what it does as it resolves)")
        if len(plays) > 2 or any(ab.cost != ("crowd" if k else "") for k, (_, ab) in enumerate(plays)):
            _fail(at, "has one play ability, and at most one more with cost = 'crowd' (its ★ line)")
    _check_flow_and_x(at, card)


def _check_flow_and_x(at: str, card: CardSpec) -> None:
    """A ? card or ability decides its symbol with a flow step, and nothing else has one; X is defined and
    used together."""
    for i, ab in enumerate(card.abilities):
        has_flow = any(s.do == "flow" for s in ab.effect)
        wants = ab.type == "query" or (ab.type == "play" and not ab.cost and card.flag("flow") == "?")
        if has_flow != wants:
            why = "a ? card or ability ends with a flow step" if wants else "only a ? decides its flow"
            _fail(f"{at} ability {i + 1}", why)
    uses_x = any(s.get("x") for ab in card.abilities for s in ab.effect)
    x = card.flag("x")
    if uses_x and not x:
        _fail(at, f"a step uses X but the card does not say what X is (x = one of {_one_of(X_KINDS)})")
    if x and not uses_x:
        _fail(at, f"x = {x!r} but no step uses X (x = true)")


def check_card(
    where: str,
    card: CardSpec,
    disciplines: Collection[str] = DISCIPLINE_IDS,
    species: Collection[str] = ("human", "cyborg", "android", "alien", "mutant", "demon"),
) -> None:
    """What the shared parser cannot say: each type's fields and numbers, each ability type on the cards that
    use it, responses answering their events, ? cards deciding their symbol, X defined and used."""
    at = f"{where} ({card.id})"
    _check_fields(at, card, disciplines, species)
    _check_abilities(at, card)


def check_pairs(where: str, cards: Mapping[str, CardSpec]) -> dict[str, tuple[str, str]]:
    """Each Gladiator's Level 1/2 and Level 3/4 cards, by pair; CardDataError when a pair is incomplete or its
    two cards disagree."""
    found: dict[str, dict[int, CardSpec]] = {}
    for card in cards.values():
        if card.type == "gladiator":
            levels = found.setdefault(str(card.flag("pair")), {})
            if card.stat("level") in levels:
                _fail(
                    f"{where} ({card.id})",
                    f"pair {card.flag('pair')!r} has two Level {card.stat('level')} cards",
                )
            levels[card.stat("level")] = card
    out = {}
    for pair, levels in found.items():
        if set(levels) != {1, 3}:
            ids = ", ".join(c.id for c in levels.values())
            _fail(f"{where} pair {pair!r}", f"needs a Level 1/2 card and a Level 3/4 card; it has {ids}")
        low, high = levels[1], levels[3]
        for what in ("name", "faction"):
            if getattr(low, what) != getattr(high, what):
                _fail(f"{where} pair {pair!r}", f"{low.id} and {high.id} have different {what}s")
        for flag in ("species", "second_discipline"):
            if low.flag(flag) != high.flag(flag):
                _fail(f"{where} pair {pair!r}", f"{low.id} and {high.id} have different {flag}")
        if high.stat("vp") <= low.stat("vp"):
            _fail(f"{where} pair {pair!r}", f"{high.id} must be worth more VP than {low.id}")
        out[pair] = (low.id, high.id)
    return out


def _tables(data: dict[str, Any], where: str) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """The [factions] (disciplines), [species] and [keywords] tables."""
    factions, species, keywords = (data.get(k) or {} for k in ("factions", "species", "keywords"))
    if tuple(factions) != DISCIPLINE_IDS:
        _fail(f"{where} [factions]", f"must be exactly {', '.join(DISCIPLINE_IDS)} (the disciplines)")
    for table, entries in (("factions", factions), ("species", species), ("keywords", keywords)):
        if not entries or not all(isinstance(v, str) and v for v in entries.values()):
            _fail(f"{where} [{table}]", "needs a non-empty text for each entry")
    if tuple(keywords) != KEYWORDS:
        _fail(f"{where} [keywords]", f"one reminder text for each of {', '.join(KEYWORDS)}")
    return factions, species, keywords


# ---------------------------------------------------------------------------------- teams and Arsenals ----


@dataclass(frozen=True)
class Team:
    """A team ready to play: its Gladiators in play at setup, its Gladiator Stack and its Arsenal."""

    id: str
    name: str
    gladiators: tuple[str, ...]  # Level 1/2 cards
    stack: tuple[str, ...]  # their Level 3/4 cards, then the Reinforcements
    arsenal: tuple[str, ...]  # every card, copies repeated


def _label(cid: str, cards: Mapping[str, CardSpec]) -> str:
    return f"{cards[cid].name} ({cid})"


def check_team(
    gladiators: Sequence[Any], reinforcements: Sequence[Any] = (), cards: Mapping[str, CardSpec] | None = None
) -> list[str]:
    """What makes a team illegal, in words (RULINGS.md 8); [] for a legal team."""
    pool = BASE if cards is None else cards  # the game's own cards, unless told
    problems: list[str] = []
    chosen: list[CardSpec] = []
    for cid in gladiators:
        if not isinstance(cid, str) or cid not in pool:
            problems.append(f"unknown Gladiator {cid!r}")
        elif pool[cid].type == "reinforcement":
            problems.append(f"{_label(cid, pool)} is a Reinforcement: list it among the reinforcements")
        elif pool[cid].type != "gladiator":
            problems.append(f"{_label(cid, pool)} is not a Gladiator but a {TYPE_NAMES[pool[cid].type]}")
        elif pool[cid].stat("level") != 1:
            problems.append(
                f"{_label(cid, pool)} is a Level 3/4 card: a team lists Level 1/2 cards, and their "
                "Level 3/4 cards join the Gladiator Stack by themselves"
            )
        else:
            chosen.append(pool[cid])
    if not gladiators:
        problems.append("no Gladiators: a team has 1 to 4")
    elif len(gladiators) > MAX_GLADIATORS:
        problems.append(f"{len(gladiators)} Gladiators: a team has at most {MAX_GLADIATORS}")
    for gname, n in Counter(c.name for c in chosen).items():
        if n > 1:
            problems.append(f"{gname} {n} times: a team has no duplicates")
    vp = sum(c.stat("vp") for c in chosen)
    if chosen and len(chosen) == len(gladiators) and vp != TEAM_VP:
        parts = " + ".join(f"{c.name} {c.stat('vp')}" for c in chosen)
        problems.append(f"the Gladiators are worth {vp} VP ({parts}): a team has exactly {TEAM_VP}")
    for cid in reinforcements:
        if not isinstance(cid, str) or cid not in pool:
            problems.append(f"unknown Reinforcement {cid!r}")
        elif pool[cid].type != "reinforcement":
            problems.append(f"{_label(cid, pool)} is not a Reinforcement")
    if len(reinforcements) > MAX_REINFORCEMENTS:
        problems.append(f"{len(reinforcements)} Reinforcements: a team has at most {MAX_REINFORCEMENTS}")
    for cid, n in Counter(r for r in reinforcements if isinstance(r, str)).items():
        if n > 1 and cid in pool:
            problems.append(f"{_label(cid, pool)} {n} times: a team has no duplicates")
    return problems


def check_arsenal(
    arsenal: Mapping[Any, Any] | Sequence[Any], cards: Mapping[str, CardSpec] | None = None
) -> list[str]:
    """What makes an Arsenal (card id -> copies, or a list of card ids) illegal, in words (RULINGS.md 9); []
    for a legal one."""
    pool = BASE if cards is None else cards  # the game's own cards, unless told
    if not isinstance(arsenal, Mapping):
        arsenal = Counter(arsenal)
    problems: list[str] = []
    titles: Counter[str] = Counter()
    total = 0
    for cid, n in arsenal.items():
        if not isinstance(cid, str) or cid not in pool:
            problems.append(f"unknown card {cid!r}")
        elif pool[cid].type not in STRATEGY_TYPES:
            kind = TYPE_NAMES[pool[cid].type]
            problems.append(f"{_label(cid, pool)} is a {kind}: an Arsenal holds Strategy cards only")
        elif not isinstance(n, int) or isinstance(n, bool) or n < 1:
            problems.append(f"{_label(cid, pool)} = {n!r}: copies must be a whole number from 1")
        else:
            titles[pool[cid].name] += n
            total += n
    for title, n in titles.items():
        if n > COPIES:
            problems.append(f"{n} copies of {title}: at most {COPIES} of a title")
    if total < MIN_ARSENAL:
        problems.append(f"{plural(total, 'card')}: an Arsenal has at least {MIN_ARSENAL} Strategy cards")
    return problems


def parse_teams(data: dict[str, Any], where: str, cards: Mapping[str, CardSpec]) -> dict[str, Team]:
    """Every [teams.ID] (name, gladiators, reinforcements, arsenal = {id = copies}), checked as a team and an
    Arsenal; CardDataError naming the team and every problem."""
    pairs = {c.id: c.flag("pair") for c in cards.values() if c.type == "gladiator"}
    level_34 = {
        c.flag("pair"): c.id for c in cards.values() if c.type == "gladiator" and c.stat("level") == 3
    }
    out = {}
    for tid, t in (data.get("teams") or {}).items():
        at = f"{where} [teams.{tid}]"
        if not isinstance(t, dict):
            _fail(at, "must be a table")
        check_keys(at, t, ("name", "gladiators", "reinforcements", "arsenal"))
        name = checked(at, t, "name", str)
        gladiators = checked(at, t, "gladiators", list)
        reinforcements = checked(at, t, "reinforcements", list, [])
        arsenal = checked(at, t, "arsenal", dict)
        problems = check_team(gladiators, reinforcements, cards) + check_arsenal(arsenal, cards)
        if problems:
            _fail(at, "; ".join(problems))
        stack = (*(level_34[pairs[g]] for g in gladiators), *reinforcements)
        cards_list = tuple(c for c, n in arsenal.items() for _ in range(n))
        out[tid] = Team(tid, name, tuple(gladiators), stack, cards_list)
    return out


# ------------------------------------------------------------------------------------------- the pool ----

_PATH = Path(__file__).with_name("cards.toml")
_DATA: dict[str, Any] = load(_PATH)
DISCIPLINES, SPECIES, KEYWORD_TEXT = _tables(_DATA, _PATH.name)
CARDS: dict[str, CardSpec] = parse_cards(_DATA, _PATH.name, VOCABULARY)
for _card in CARDS.values():
    check_card(_PATH.name, _card, tuple(DISCIPLINES), tuple(SPECIES))
PAIRS: dict[str, tuple[str, str]] = check_pairs(_PATH.name, CARDS)  # pair -> (Level 1/2, Level 3/4 card)

GLADIATORS: dict[str, CardSpec] = {low: CARDS[low] for low, _ in PAIRS.values()}  # what a team lists
PROMOTION: dict[str, str] = dict(PAIRS.values())  # Level 1/2 card -> its Level 3/4 card (RULINGS.md 48)
REINFORCEMENTS: dict[str, CardSpec] = {c: s for c, s in CARDS.items() if s.type == "reinforcement"}
STRATEGY: dict[str, CardSpec] = {c: s for c, s in CARDS.items() if s.type in STRATEGY_TYPES}
TEAMS: dict[str, Team] = parse_teams(_DATA, _PATH.name, CARDS)
TEAM_CHOICE = SeatChoice("team", "Team", tuple((tid, team.name) for tid, team in TEAMS.items()))


def name(cid: str) -> str:
    """A card's printed name."""
    return CARDS[cid].name


def disciplines(cid: str) -> tuple[str, ...]:
    """A Gladiator's one or two disciplines (RULINGS.md 6)."""
    card = CARDS[cid]
    second = card.flag("second_discipline")
    return (card.faction, second) if second else (card.faction,)


def symbol(cid: str) -> str:
    """A Strategy card's flow symbol as printed: +, −, ?, OR, DR or R."""
    return symbol_of(CARDS[cid])


def symbol_of(card: CardSpec) -> str:
    """symbol() of a card's spec (a pack's card too, known or not)."""
    response = card.flag("response")
    return str(response).upper() if response else "−" if card.flag("flow") == "-" else str(card.flag("flow"))


def meets(cid: str, gladiator: str, level: int) -> bool:
    """Whether a Gladiator card at this level meets a Strategy card's requirement (RULINGS.md 6)."""
    card = CARDS[cid]
    wanted = card.faction
    return level >= card.stat("level") and (wanted == "universal" or wanted in disciplines(gladiator))


# -- card packs (engine/packs.py; RULINGS.md 68): Strategy cards, played in the pack's ready teams ----------

PACK_TABLES = ("card", "teams")
PACK_TYPES = STRATEGY_TYPES
BASE: dict[str, CardSpec] = dict(CARDS)  # the game's own cards: the catalogue, never a pack's
# What else keeps a table over the cards (board.py) learns a pack's cards here when they are added.
LEARNERS: list[Callable[[dict[str, CardSpec]], None]] = []


def _check(data: dict[str, Any], where: str) -> tuple[dict[str, CardSpec], dict[str, Team]]:
    """A pack's Strategy cards and its ready teams of pack and game cards, by in-game id."""
    own = parse_pack(data, where, VOCABULARY, BASE, tuple(DISCIPLINES))
    for i, card in enumerate(own.values()):
        at = f"{where} card {i + 1}"
        if card.type not in PACK_TYPES:
            _fail(
                f"{at} ({card.id})",
                f"type = {card.type!r}: a pack adds Strategy cards ({', '.join(PACK_TYPES)})",
            )
        check_card(at, card, tuple(DISCIPLINES), tuple(SPECIES))
    if not isinstance(data.get("teams"), dict) or not data["teams"]:
        _fail(where, "no [teams.ID] table; an Ophidian 2350 pack's cards are played in its ready teams")
    teams = parse_teams(data, where, {**BASE, **own})
    for tid, team in teams.items():
        check_words(f"{where} [teams.{tid}]", team.name, "")
    tag = pack_tag(data)
    cards = {in_game(c, tag): renamed(spec, tag) for c, spec in own.items()}
    ready = {}
    for tid, team in teams.items():
        arsenal = tuple(in_game(c, tag) if c in own else c for c in team.arsenal)
        ready[in_game(tid, tag)] = replace(team, id=in_game(tid, tag), arsenal=arsenal)
    return cards, ready


def check_pack(data: dict[str, Any], where: str) -> dict[str, CardSpec]:
    """A pack's cards, checked as the game's own are, by their in-game ids (its teams checked too)."""
    return _check(data, where)[0]


PACKS = PackCards(_check, lambda got: got[0], [(CARDS, every)], LEARNERS)  # pack text -> its cards and teams


def add_pack(text: str) -> tuple[dict[str, CardSpec], dict[str, Team]]:
    """Make a pack's cards (a state's `pack` text) known to this process, once; its cards and its teams."""
    return PACKS.add(text) or ({}, {})


def forget_packs() -> None:
    """Forget every pack this process has added: a test's clean slate (a fresh process knows none)."""
    PACKS.forget()


def team_choice(teams: Mapping[str, Team]) -> SeatChoice:
    """The team choice with a pack's ready teams after the game's own."""
    return replace(
        TEAM_CHOICE, options=(*TEAM_CHOICE.options, *((t, team.name) for t, team in teams.items()))
    )


def pack_choices(data: dict[str, Any], base: tuple[SeatChoice, ...]) -> tuple[SeatChoice, ...]:
    """The seat choices of a game with this pack: its ready teams offered beside the game's own."""
    _, teams = _check(data, "pack")
    return tuple(team_choice(teams) if c.key == TEAM_CHOICE.key else c for c in base)
