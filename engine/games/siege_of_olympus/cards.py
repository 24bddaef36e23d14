"""Siege of Olympus's 86 cards, read from cards.toml and checked against the vocabulary below (the names a
rules engine for Siege implements; their meaning is in RULINGS.md), with the tables a rules engine wants:
minions, spells, artifacts by number, commanders, classes, races and keyword reminders."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.abilities.spec import Ability, CardSpec, Step, Vocabulary, parse_cards, parse_pack, renamed
from engine.carddata import CardDataError, PackCards, check_keys, every, load, pack_tag
from engine.table.present import SeatChoice, article

ARTIFACTS_TO_WIN = 3  # RULINGS.md 1
COMMANDER_HEALTH = 20  # RULINGS.md 2
HAND, MULLIGAN, MAX_HAND, MAX_MINIONS = 6, 3, 8, 8
TARTARUS, AGORA_MIN, AGORA_MAX = 6, 4, 6
MAX_TURNS = 60  # RULINGS.md 40

# The race cycle: each race destroys the next one (RULINGS.md 13); cards.toml [races] must agree.
RACE_CYCLE = ("giant", "olympian", "titan", "half_god", "creature")
CLASS_IDS = ("brawler", "trickster", "spellcaster", "ranger", "neutral")
SYNERGY_CLASSES = CLASS_IDS[:4]
RANGED_CLASSES = ("spellcaster", "ranger")  # the bow or spell icon (RULINGS.md 14)

# Keywords that are a property of the minion carrying them (or granted to it) rather than an effect.
STATIC_KEYWORDS = ("primordial_attack", "lethal", "resistant")
KEYWORDS = (
    "reborn",
    "ambush",
    "disrupt",
    "free",
    "primordial_attack",
    "lethal",
    "copy_and_replace",
    "add",
    "resistant",
    "search",
    "pick",
    "joker",
    "cripple",
    "explore",
    "combine",
    "paralyze",
    "exchange",
)

CHOSEN = ("enemy", "ally", "other_minion")
GROUPS = ("self", "all_allies", "other_allies")
FIXED = (*GROUPS, "event", "all_enemies", "all_minions", "enemy_commander", "your_commander")
TARGET = {"to": str, "max_cost": int}
AMOUNT = {"amount": int}

VOCABULARY = Vocabulary(
    types={
        "minion": ("cost", "attack", "health", "artifact"),
        "spell": ("cost",),
        "artifact": ("number",),
        "commander": ("health",),
        "olympus": (),
    },
    # passive: in force while on the field (an artifact: while held); summon: the effect on summon;
    # play: a spell's effect; trigger: on an event; action: an artifact's once-per-turn effect;
    # once: a commander's once-per-game ability; ambush / disrupt: played from the hand in a window.
    abilities=("passive", "summon", "play", "trigger", "action", "once", "ambush", "disrupt"),
    costs=("discard", "sacrifice"),
    events=(
        "destroyed",
        "attacked",
        "ally_summoned",
        "ally_destroyed",
        "enemy_summoned",
        "turn_start",
        "turn_end",
    ),
    effects={
        "damage": {**TARGET, **AMOUNT},
        "heal": {"to": str, **AMOUNT},
        "attack": {**TARGET, **AMOUNT, "until": str},
        "health": {**TARGET, **AMOUNT, "until": str},
        "destroy": TARGET,
        "return_to_hand": TARGET,
        "cripple": TARGET,
        "paralyze": TARGET,
        "grant": {"to": str, "keyword": str, "until": str},
        "draw": AMOUNT,
        "discard": AMOUNT,
        "take": {"zone": str, "kind": str, **AMOUNT, "up_to": bool},  # up_to: its player may stop early
        "summon": {"zone": str, "max_cost": int},
        "exchange": {},
        "explore": {},
        "copy": {"to": str, "stat": str},
        "swap": {"to": str, "stat": str},
        "add": {"zone": str},
        "negate": {},
        "strike": {"to": str, "by": str},
    },
    selectors=(*CHOSEN, *FIXED),
    groups=GROUPS,
    conditions=("holds_artifact",),
    stats=("attack", "health"),
    keywords=KEYWORDS,
    flags={"ranged": bool, "class": str, "race": str},
    choices={
        "until": ("turn", "field"),
        "zone": ("deck", "tartarus", "underworld", "hand"),
        "kind": ("minion", "spell", "any"),
        "stat": ("attack", "health", "artifact"),
        "keyword": STATIC_KEYWORDS,
        "by": ("self", "ally"),
    },
)

# Which zones each zone-taking effect may name (the vocabulary's choices are their union).
ZONES = {
    "take": ("deck", "tartarus", "underworld"),
    "summon": ("hand", "tartarus", "underworld"),
    "add": ("hand",),
}
# What each ability type may appear on.
ABILITY_ON = {
    "passive": ("minion", "artifact"),
    "summon": ("minion",),
    "trigger": ("minion", "artifact"),
    "ambush": ("minion", "spell"),
    "disrupt": ("spell",),
    "play": ("spell",),
    "action": ("artifact",),
    "once": ("commander",),
}
MINION_FLAGS = ("ranged", "class", "race")


def _tables(data: dict[str, Any], where: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, str]]:
    """The [classes], [races] and [keywords] tables, checked against the rules' lists."""
    classes, races, keywords = (data.get(k) or {} for k in ("classes", "races", "keywords"))
    if tuple(classes) != CLASS_IDS:
        raise CardDataError(f"{where} [classes]: must be exactly {', '.join(CLASS_IDS)}")
    if set(races) != set(RACE_CYCLE):
        raise CardDataError(f"{where} [races]: must be exactly {', '.join(RACE_CYCLE)}")
    for table, entries, keys in (
        ("classes", classes, ("name", "synergy")),
        ("races", races, ("name", "prey", "synergy")),
    ):
        for k, d in entries.items():
            if not isinstance(d, dict) or not all(isinstance(d.get(f), str) for f in keys):
                raise CardDataError(f"{where} [{table}.{k}]: needs {', '.join(keys)} (strings)")
            check_keys(f"{where} [{table}.{k}]", d, keys)
    for i, race in enumerate(RACE_CYCLE):
        prey = RACE_CYCLE[(i + 1) % len(RACE_CYCLE)]
        if races[race]["prey"] != prey:
            raise CardDataError(f"{where} [races.{race}]: prey must be {prey!r} (the race cycle)")
    if set(keywords) != set(KEYWORDS) or not all(isinstance(t, str) and t for t in keywords.values()):
        raise CardDataError(f"{where} [keywords]: one reminder text for each of {', '.join(KEYWORDS)}")
    return classes, races, keywords


def check_card(where: str, card: CardSpec, classes: dict[str, Any], races: dict[str, Any]) -> None:
    """What the shared parser cannot say: minion fields on minions only, artifact numbers in range, each
    ability type on the kinds of card that use it, each effect's zone."""
    at = f"{where} ({card.id})"
    flags = dict(card.flags)
    if card.type == "minion":
        missing = [f for f in MINION_FLAGS if f not in flags]
        if missing:
            raise CardDataError(f"{at}: missing field {', '.join(map(repr, missing))}")
        if flags["class"] not in classes:
            raise CardDataError(f"{at}: class = {flags['class']!r} is not one of {', '.join(classes)}")
        if flags["race"] not in races:
            raise CardDataError(f"{at}: race = {flags['race']!r} is not one of {', '.join(races)}")
    elif flags:
        raise CardDataError(f"{at}: only minions have {', '.join(sorted(flags))}")
    for stat in ("artifact", "number"):
        if stat in dict(card.stats) and not 1 <= card.stat(stat) <= 15:
            raise CardDataError(f"{at}: {stat} = {card.stat(stat)} must be from 1 to 15")
    for i, ab in enumerate(card.abilities):
        if card.type not in ABILITY_ON[ab.type]:
            raise CardDataError(
                f"{at} ability {i + 1}: {article(card.type)} cannot have {article(ab.type)} ability"
            )
        for step in ab.effect:
            zone = step.get("zone")
            if zone is not None and zone not in ZONES[step.do]:
                allowed = ", ".join(ZONES[step.do])
                raise CardDataError(
                    f"{at} ability {i + 1} ({step.do}): zone = {zone!r} is not one of {allowed}"
                )


_PATH = Path(__file__).with_name("cards.toml")
_DATA: dict[str, Any] = load(_PATH)
CARDS: dict[str, CardSpec] = parse_cards(_DATA, _PATH.name, VOCABULARY)
CLASSES, RACES, KEYWORD_TEXT = _tables(_DATA, _PATH.name)
for _card in CARDS.values():
    check_card(_PATH.name, _card, CLASSES, RACES)

MINIONS: dict[str, CardSpec] = {c: s for c, s in CARDS.items() if s.type == "minion"}
SPELLS: dict[str, CardSpec] = {c: s for c, s in CARDS.items() if s.type == "spell"}
ARTIFACTS: dict[int, CardSpec] = {s.stat("number"): s for s in CARDS.values() if s.type == "artifact"}
COMMANDERS: dict[str, CardSpec] = {c: s for c, s in CARDS.items() if s.type == "commander"}
OLYMPUS: CardSpec = next(s for s in CARDS.values() if s.type == "olympus")
DECK: tuple[str, ...] = (*MINIONS, *SPELLS)  # the shared Deck: every minion and spell once (RULINGS.md 3)
# Chosen in the lobby, or as the first moves by whoever did not (RULINGS.md 5).
COMMANDER_CHOICE = SeatChoice("commander", "Commander", tuple((c, s.name) for c, s in COMMANDERS.items()))


def name(cid: str) -> str:
    """A card's printed name."""
    return CARDS[cid].name


def minion_class(cid: str) -> str:
    """A minion's class id (brawler, trickster, spellcaster, ranger, neutral)."""
    return str(CARDS[cid].flag("class"))


def race(cid: str) -> str:
    """A minion's race id (giant, olympian, titan, half_god, creature)."""
    return str(CARDS[cid].flag("race"))


def prey(race_id: str) -> str:
    """The race a race's synergy destroys (the cycle Giant > Olympian > Titan > Half-god > Creature)."""
    return str(RACES[race_id]["prey"])


# The synergies that act are abilities of pseudo-cards, so the kit resolves them like any trigger.
SYNERGIES: dict[str, CardSpec] = {
    f"race_{r}": CardSpec(
        f"race_{r}",
        f"{RACES[r]['name']} synergy",
        "synergy",
        text=RACES[r]["synergy"],
        abilities=(Ability("trigger", effect=(Step("destroy", (("to", f"prey_{prey(r)}"),)),)),),
    )
    for r in RACE_CYCLE
}
SYNERGIES["spellcaster"] = CardSpec(
    "spellcaster",
    "Spellcaster synergy",
    "synergy",
    text="1 damage to all other minions on the field.",
    abilities=(Ability("trigger", effect=(Step("damage", (("to", "spell_victims"), ("amount", 1))),)),),
)
EVERY: dict[str, CardSpec] = {**CARDS, **SYNERGIES}  # what the kit may resolve, by id


# -- card packs (engine/packs.py; RULINGS.md 55): minions and spells shuffled into the shared Deck ----------

PACK_TABLES = ("card",)
PACK_TYPES = ("minion", "spell")
BASE: dict[str, CardSpec] = dict(CARDS)  # the game's own cards: the catalogue, never a pack's
# What else keeps a table over the cards (board.py) learns a pack's cards here when they are added.
LEARNERS: list[Callable[[dict[str, CardSpec]], None]] = []


def check_pack(data: dict[str, Any], where: str) -> dict[str, CardSpec]:
    """A pack's minions and spells, checked as the game's own cards are, by their in-game ids."""
    own = parse_pack(data, where, VOCABULARY, BASE)
    tag = pack_tag(data)
    out = {}
    for i, card in enumerate(own.values()):
        at = f"{where} card {i + 1}"
        if card.type not in PACK_TYPES:
            raise CardDataError(
                f"{at} ({card.id}): type = {card.type!r}: a pack adds minions and spells only"
            )
        check_card(at, card, CLASSES, RACES)
        new = renamed(card, tag)
        out[new.id] = new
    return out


PACKS = PackCards(
    check_pack,
    lambda cards: cards,
    [
        (CARDS, every),
        (EVERY, every),
        (MINIONS, lambda spec: spec.type == "minion"),
        (SPELLS, lambda spec: spec.type == "spell"),
    ],
    LEARNERS,
)  # pack text -> its cards


def add_pack(text: str) -> dict[str, CardSpec]:
    """Make a pack's cards (a state's `pack` text) known to this process, once; its cards by in-game id."""
    return PACKS.add(text) or {}


def forget_packs() -> None:
    """Forget every pack this process has added: a test's clean slate (a fresh process knows none)."""
    PACKS.forget()
