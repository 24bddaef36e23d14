"""Siege of Olympus's presentation (engine/table/present.py): summary, status and prompts, the card
catalogue, the Commander choice, menu order, the terminal board and the cards on the table. Pure functions
over views."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from engine.abilities import resolve as kit
from engine.abilities.spec import CardSpec
from engine.core import JSON, Action
from engine.games.siege_of_olympus.cards import (
    ARTIFACTS,
    BASE,
    CARDS,
    CLASSES,
    COMMANDER_CHOICE,
    HAND,
    RACES,
    STATIC_KEYWORDS,
)
from engine.table.decisions import PASS
from engine.table.describe import hand_lines, side_lines
from engine.table.present import (
    CardEntry,
    Pending,
    Prompt,
    Seen,
    Status,
    asked,
    board_end,
    decided,
    deciders,
    decision_of,
    ended,
    group_rank,
    key_args,
    plural,
    seat_name,
    shorten,
    viewer_first,
)

summary = (
    "**Goal:** take **3 artifacts**, or bring the enemy Commander (20 Health) to 0.\n"
    "**Setup:** 6 cards each; you may return up to 3 and draw as many. Tartarus holds 6 prisoners, the "
    "Agora 4-6 cards, both shared.\n"
    "**Your turn:** *Draw* (not the first player's first turn). *Deploy* — summon minions (a card's cost is "
    "how many minions you must already control, at most 8), play spells, one Agora exchange, artifact "
    "powers once a turn, your Commander's power once a game. *Recruit* — your minions attack prisoners; a "
    "prisoner destroyed goes to your Hand. *Attack* — the others attack **one** enemy minion a turn (or the "
    "Commander with Primordial Attack). Melee attackers take the defender's Attack back; ranged ones (bow, "
    "spell) do not, unless the defender is ranged too. *End* — minions heal fully, Tartarus refills, "
    "discard down to 8.\n"
    "**Artifacts:** control 3 pieces of one number to take that artifact and draw a card.\n"
    "**Synergies** at 3 of a class or race; **Ambush** and **Disrupt** cards answer in your opponent's turn."
)
rules = (
    "The rules are Siege of Olympus's rulebook; /rules shows Agora's rulings where it is unclear and the "
    "original 86 cards we designed, as no card list is public (engine/games/siege_of_olympus/RULINGS.md)."
)
shortcuts = {"end": "e", "pass": "p", "next": "n", "use": "u"}
ends = frozenset({"end", "pass"})  # end the turn (or phase), or pass: the terminal asks first
choices = (COMMANDER_CHOICE,)
windows = True  # response windows: front ends show the pace and window settings

PHASES = {
    "setup": "setup",
    "deploy": "Deploy phase",
    "recruit": "Recruit phase",
    "attack": "Attack phase",
    "ending": "end of turn",
    "discarding": "end of turn",
    "over": "game over",
}
GROUPS = (
    "Choose your Commander",
    "Return a card to the Deck",
    "Respond",
    "Summon a minion",
    "Play a spell",
    "Use an artifact",
    "Commander's power",
    "Exchange at the Agora",
    "Recruit",
    "Attack",
    "Choose an option",
    "Choose",
    "Choose a card",
    "Take from the Agora",
    "Take the artifact",
    "Resolve first",
    "Use the ability",
    "Discard",
    "Go to the Recruit phase",
    "Go to the Attack phase",
    "End turn",
    "Keep your hand",
    "Keep the rest and draw",
    "Pass",
)
WINDOWS = {
    "attack": "Attack window",
    "spell": "Spell window",
    "summon": "Summon window",
    "action": "Artifact window",
    "once": "Commander window",
}


# -- status --------------------------------------------------------------------------------------


def _decision(view: JSON) -> Pending:
    """Siege's pending decision in words; its windows are named by what opened them (WINDOWS)."""
    d, card, kind = decision_of(view)
    if not d:
        return "", ""
    if kind == "window":
        w = view.get("window") or {}
        what = w.get("card_name") or card
        about = f"{what}'s attack" if w.get("kind") == "attack" else f"{what}"
        return f"answer {about} with Ambush or Disrupt, or pass", WINDOWS.get(d.get("window", ""), "")
    if kind == "commander":
        return "choose your Commander", ""
    if kind == "mulligan":
        return "return up to 3 cards to the Deck and draw as many, or keep your hand", ""
    if kind == "discard":
        return "discard down to 8 cards", ""
    if kind == "option":
        return f"choose an option of {card}", ""
    return kit.prompt(d, "", _PICKS), ""


def prompt(view: JSON, names: Sequence[str]) -> Prompt:
    """What the viewer is asked to decide (the hand page, the terminal): the pending decision, or their turn,
    or what they wait for."""
    what, _ = _decision(view)
    idle = f"your turn · {_YOUR_TURN.get(view.get('phase', ''), 'your move')}"
    return asked(view, status(view, names), what, idle)


_YOUR_TURN = {  # the viewer's own turn, by phase
    "deploy": "Deploy: summon, cast, exchange, or go to Recruit",
    "recruit": "Recruit: attack prisoners, or go to Attack",
    "attack": "Attack: attack an enemy, or end your turn",
}


_PICKS = {
    "enemy": "an enemy minion",
    "ally": "an ally",
    "other_minion": "another minion",
    "hand": "a card from your Hand",
    "discard": "a card to discard",
    "sacrifice": "a minion to sacrifice",
    "leave": "a card to leave in the Agora",
    "agora": "a card to take from the Agora",
    "tartarus": "a prisoner to free",
    "underworld": "a minion to take back from the Underworld",
    "deck": "a card to take from the Deck",
    "summon": "a minion to summon",
    "add": "a minion to add under it",
    "artifact": "an artifact to take",
    "striker": "a minion to strike",
    **{f"prey_{r}": f"an enemy {RACES[r]['name']} costing 3 or less to destroy" for r in RACES},
}


def status(view: JSON, names: Sequence[str]) -> Status:
    """Headline (whose turn, phase, turn number), the pending decision, and each seat's Commander, artifacts
    and hand."""
    players = view.get("players") or []
    scores = tuple(
        f"{seat_name(p['seat'], names)}: {p['commander_name'] or 'no Commander yet'} {p['health']}/"
        f"{p['max_health']} · {plural(len(p['artifacts']), 'artifact')} · hand {p['hand_size']}"
        for p in players
    )
    over = ended(view, names, scores)
    if over:
        return over
    what, window = _decision(view)
    phase = PHASES.get(view.get("phase", ""), "")
    if view.get("phase") == "setup":
        head = "Setting up · Commanders and mulligans"
    else:
        head = f"{seat_name(view.get('active'), names)}'s turn {view.get('turn')} · {phase}"
    turn = ("turn", view.get("turn"), view.get("active"))
    return Status(head, decided(deciders(view, names), what), scores, turn, window)


# -- cards ---------------------------------------------------------------------------------------

_TYPE_WORDS = {"minion": "Minion", "spell": "Spell", "artifact": "Artifact", "commander": "Commander"}


def card_entry(cid: str) -> CardEntry:
    """One card: its kind (class, race, ranged or melee for a minion), its numbers and its text."""
    return spec_entry(CARDS[cid])


def spec_entry(c: CardSpec) -> CardEntry:
    """One card's entry from its spec (a pack's card too, known or not)."""
    stats: list[tuple[str, int | str]] = []
    if c.type == "minion":
        kind = (
            f"{CLASSES[c.flag('class')]['name']} · {RACES[c.flag('race')]['name']} · "
            f"{'Ranged' if c.flag('ranged') else 'Melee'} Minion"
        )
        stats = [("Cost", c.stat("cost")), ("Attack", c.stat("attack")), ("Health", c.stat("health"))]
        stats.append(("Artifact", c.stat("artifact")))
        colour = str(c.flag("class"))
    elif c.type == "spell":
        kind, stats, colour = "Spell", [("Cost", c.stat("cost"))], "spell"
    elif c.type == "artifact":
        kind, stats, colour = "Artifact", [("Number", c.stat("number"))], "artifact"
    elif c.type == "commander":
        kind, stats, colour = "Commander", [("Health", c.stat("health"))], "commander"
    else:
        kind, colour = "Olympus", "olympus"
    return CardEntry(id=c.id, name=c.name, type=kind, stats=tuple(stats), text=c.text, colour=colour)


_ORDER = {"commander": 0, "minion": 1, "spell": 2, "artifact": 3, "olympus": 4}
_CATALOGUE = [
    spec_entry(c)  # the game's own cards, never a pack's (engine/packs.py)
    for c in sorted(
        BASE.values(), key=lambda c: (_ORDER[c.type], c.stat("artifact") or c.stat("number"), c.name)
    )
]


def catalogue() -> list[CardEntry]:
    """Commanders, the minions trio by trio, spells, artifacts by number, and Olympus."""
    return list(_CATALOGUE)


def pack_entries(cards: dict[str, CardSpec]) -> list[CardEntry]:
    """A card pack's cards (engine/packs.py), in the catalogue's order."""
    order = sorted(cards.values(), key=lambda c: (_ORDER[c.type], c.stat("artifact"), c.name))
    return [spec_entry(c) for c in order]


# -- menus ---------------------------------------------------------------------------------------


def menu_rank(action: Action, path: tuple[str, ...]) -> tuple[Any, ...]:
    """Responses and plays first, then attacks, then choices, and moving on or passing last."""
    return group_rank(GROUPS, path)


def skip(view: JSON, actions: list[Action]) -> Action:
    """A skipped seat ends its turn, passes, or keeps its hand; else it takes the first answer offered."""
    by_kind = {a.kind: a for a in actions}
    return by_kind.get("end") or by_kind.get("pass") or actions[0]


# -- the terminal board --------------------------------------------------------------------------


_FLAGS = {"crippled": "crippled", "paralyzed": "paralyzed", "dodge": "dodge", "attacked": "has attacked"}
_FRESH = "not summonable this turn"


def _flags(m: JSON) -> list[str]:
    """A minion's state in words: crippled, paralyzed, dodge, has attacked."""
    return [word for flag, word in _FLAGS.items() if m[flag]]


def _minion(m: JSON) -> str:
    marks = []
    if m["ranged"]:
        marks.append("ranged")
    marks += [k.replace("_", " ") for k in m["keywords"]]
    marks += [f"{CARDS[c].name} under it" for c in m.get("under") or ()]
    marks += _flags(m)
    pieces = "+".join(str(p) for p in m["pieces"])
    klass = CLASSES[m["class"]]["name"]
    race = RACES[m["race"]]["name"]
    left = m["health"] - m["damage"]
    return f"{m['name']} [{m['attack']}/{left} of {m['health']} · #{pieces} · {klass} {race}]" + (
        f" ({', '.join(marks)})" if marks else ""
    )


def _held(cid: str, fresh: Sequence[str]) -> str:
    c = CARDS[cid]
    if c.type == "minion":
        head = (
            f"{c.name} (cost {c.stat('cost')}, {c.stat('attack')}/{c.stat('health')}, #{c.stat('artifact')})"
        )
    else:
        head = f"{c.name} (spell, cost {c.stat('cost')})"
    note = f" [{_FRESH}]" if cid in fresh else ""
    return f"{head}{note}: {' / '.join(c.text.splitlines())}"


def board_text(view: JSON, names: Sequence[str]) -> str:
    """Tartarus and the Agora, then each side with its Commander, artifacts, minions and hand."""
    st = status(view, names)
    viewer = view.get("viewer")
    lines = [f"== Siege of Olympus · {st.headline} =="]
    lines.append(f"Olympus: artifacts left {', '.join(map(str, view.get('pile') or [])) or 'none'}")
    lines.append(f"Deck {view.get('deck_size', 0)} · Underworld {len(view.get('underworld') or [])}")
    lines.append("Tartarus: " + (" | ".join(_minion(m) for m in view.get("tartarus") or []) or "empty"))
    lines.append("Agora: " + (", ".join(CARDS[c].name for c in view.get("agora") or []) or "empty"))
    for p in view.get("players") or []:
        seat = p["seat"]
        you = " (you)" if seat == viewer else ""
        mark = " ◀" if seat in (view.get("to_act") or []) else ""
        spent = "power spent" if p["once_used"] else "power ready"
        lines.append(
            f"{seat_name(seat, names)}{you}: {p['commander_name'] or 'no Commander yet'} "
            f"{p['health']}/{p['max_health']} ({spent}) · hand {p['hand_size']}{mark}"
        )
        arts = ", ".join(f"{a['name']} (#{a['number']})" for a in p["artifacts"]) or "none"
        pieces = ", ".join(f"#{n}×{c}" for n, c in p["pieces"].items()) or "none"
        lines.append(f"    artifacts: {arts} · pieces: {pieces}")
        for m in p["minions"]:
            target = " ← the turn's target" if m["uid"] == view.get("target") else ""
            lines.append(f"    {_minion(m)}{target}")
        for c in p.get("hand") or []:
            lines.append(f"    holding {_held(c, p.get('fresh') or [])}")
    lines += board_end(view, st, names)
    return "\n".join(lines)


# -- the cards on the table ----------------------------------------------------------------------


def _change(now: int, printed: int) -> str:
    return f" ({now - printed:+d})" if now != printed else ""


def _now(m: JSON, target: Any = None) -> str:
    """A minion's or prisoner's stats and state now: "Attack 3 (+1) · Health 2/4 · Resistant · Paralyzed"."""
    parts = [
        f"Attack {m['attack']}{_change(m['attack'], m['base_attack'])}",
        f"Health {m['health'] - m['damage']}/{m['health']}{_change(m['health'], m['base_health'])}",
    ]
    if m["pieces"] != [CARDS[m["card"]].stat("artifact")]:
        parts.append("Pieces #" + "+".join(str(p) for p in m["pieces"]))
    parts += [k.replace("_", " ").capitalize() for k in m["keywords"] if k in STATIC_KEYWORDS]
    parts += [f.capitalize() for f in _flags(m)]
    if m["uid"] == target:
        parts.append("The turn's target")
    return shorten(" · ".join(parts), 89)


def on_table(view: JSON, names: Sequence[str]) -> list[Seen]:
    """Every card the view shows face up: your Hand, each side (yours first), the Agora, Tartarus, Olympus
    and its artifacts, the Underworld, then a card being played and the Deck's cards you pick from."""
    viewer = view.get("viewer")
    players = view.get("players") or []
    target = view.get("target")
    seen: list[Seen] = []
    for p in players:
        if p["seat"] == viewer:
            fresh = p.get("fresh") or []
            for cid in p.get("hand") or []:
                now = _FRESH.capitalize() if cid in fresh and CARDS[cid].type == "minion" else ""
                seen.append(Seen(cid, "Your hand", now, mine=True))
    for p, side in viewer_first(view, names):
        if p["commander"]:
            power = "Power spent" if p["once_used"] else "Power ready"
            now = f"Health {p['health']}/{p['max_health']} · {power}"
            seen.append(Seen(p["commander"], side + "commander", now))
        for m in p["minions"]:
            seen.append(Seen(m["card"], side + "field", _now(m, target)))
            under = side + f"field, under {m['name']}"
            seen += [Seen(cid, under) for cid in m.get("under") or ()]
        for a in p["artifacts"]:
            now = "Used this turn" if a["used"] else ""
            seen.append(Seen(a["card"], side + "artifacts", now))
    seen += [Seen(cid, "Agora") for cid in view.get("agora") or []]
    seen += [Seen(m["card"], "Tartarus", _now(m)) for m in view.get("tartarus") or []]
    pile = view.get("pile") or []
    seen.append(Seen("olympus", "Olympus", f"{plural(len(pile), 'artifact')} left"))
    seen += [Seen(ARTIFACTS[n].id, "Olympus") for n in pile]
    seen += [Seen(cid, "Underworld") for cid in view.get("underworld") or []]
    listed = {s.card for s in seen}
    window, decision = view.get("window") or {}, view.get("decision") or {}
    for cid in (window.get("card"), decision.get("source")):
        if cid in CARDS and cid not in listed:
            listed.add(cid)
            negated = cid == window.get("card") and window.get("negated")
            seen.append(Seen(cid, "Being played", "Negated" if negated else ""))
    offered = [c for c in decision.get("options") or [] if isinstance(c, str) and c in CARDS]
    seen += [Seen(cid, "Deck · your pick") for cid in offered if cid not in listed]
    return seen


# -- the table for a listener (engine/table/describe.py) ---------------------------------------------------

hand_text = True  # the hand image prints each card's whole text
_SUMMED = ("commander", "artifacts", "Olympus", "Underworld")  # said in counts and heads, not card by card


def _side(p: JSON, whose: str, names: Sequence[str]) -> str:
    """A side's Commander's power and its artifacts (the status has its health and hand): "Ada's Commander
    Prometheus, the Fire-Bringer: power spent; artifacts: Aegis (number 3)"."""
    who = "Your" if whose == "Your " else f"{seat_name(p['seat'], names)}'s"
    spent = "power spent" if p["once_used"] else "power ready"
    arts = ", ".join(f"{a['name']} (number {a['number']})" for a in p["artifacts"]) or "none"
    return f"{who} Commander {p['commander_name'] or 'not chosen yet'}: {spent}; artifacts: {arts}"


def describe(view: JSON, names: Sequence[str]) -> list[str]:
    """The table for a screen reader (the alt text and the text board): each side's Commander, hand and
    artifacts, then its minions, the viewer's first; Tartarus and the Agora; the piles and Olympus in
    counts."""
    piles = (
        f"Olympus: {plural(len(view.get('pile') or []), 'artifact')} left; deck {view.get('deck_size', 0)}, "
        f"Underworld {len(view.get('underworld') or [])}"
    )
    keep = lambda where: not where.endswith(_SUMMED)  # noqa: E731
    lines = side_lines(sys.modules[__name__], view, names, lambda p, whose: [_side(p, whose, names)], keep)
    return [*lines, piles]


def describe_hand(view: JSON, names: Sequence[str]) -> list[str]:
    """What the hand image draws: each card in hand with its cost, kind and stats (their texts come last),
    then the viewer's Commander and artifacts."""
    me = sys.modules[__name__]
    mine = next((p for p in view.get("players") or [] if p["seat"] == view.get("viewer")), None)
    if mine is None:
        return []
    health = f"Your Commander's health: {mine['health']} of {mine['max_health']}"
    return [*hand_lines(me, view, names), _side(mine, "Your ", names), health]


# -- what a move does (the hand menu's ❔, the terminal's inspector, the tutorial) ---------------------


def _mine(view: JSON) -> JSON:
    """The viewer's side of the board."""
    return next(p for p in view.get("players") or [] if p["seat"] == view.get("viewer"))


def _theirs(view: JSON) -> JSON:
    """The other side of the board."""
    return next(p for p in view.get("players") or [] if p["seat"] != view.get("viewer"))


def _minion_at(view: JSON, uid: int) -> JSON | None:
    """The minion or prisoner with this id in the view, or None."""
    for m in [*(m for p in view.get("players") or [] for m in p["minions"]), *(view.get("tartarus") or [])]:
        if m["uid"] == uid:
            return m
    return None


def _left(m: JSON) -> int:
    return int(m["health"]) - int(m["damage"])


def _blows(mine: JSON, other: JSON) -> str:
    """What one attack between minions does before card effects (RULINGS 14, 27): the attacker's Attack
    against the defender's Health left, and the defender's Attack back unless only the attacker is ranged."""
    hit, left = mine["attack"], _left(other)
    falls = hit >= left or (hit > 0 and "lethal" in mine["keywords"])
    words = f"{other['name']} is destroyed" if falls else f"{other['name']} keeps {left - hit} Health"
    if mine["ranged"] and not other["ranged"]:
        return (
            f"{words}; your {mine['name']} is ranged and {other['name']} is not, so it takes no damage back."
        )
    back, own = other["attack"], _left(mine)
    dies = back >= own or (back > 0 and "lethal" in other["keywords"])
    after = "and is destroyed" if dies else f"({own - back} Health left)"
    return f"{words}, and it strikes back for {back}: your {mine['name']} takes {back} {after}."


def _fight(view: JSON, key: str) -> str:
    """A recruit or an attack in words."""
    args = key_args(key)
    mine, uid = _minion_at(view, int(args.get("u", 0))), int(args.get("t", 0))
    if mine is None:
        return ""
    head = f"Your {mine['name']} ({mine['attack']} Attack)"
    them = _theirs(view)
    if uid == them["commander_uid"]:
        health = them["health"]
        return (
            f"{head} attacks your opponent's Commander ({them['commander_name']}: {health} Health) for "
            f"{mine['attack']}; a Commander never strikes back. Your opponent may answer with Ambush or "
            "Disrupt first."
        )
    other = _minion_at(view, uid)
    if other is None:
        return ""
    if key.startswith("recruit"):
        taken = f"the prisoner {other['name']} ({_left(other)} Health)"
        return (
            f"{head} attacks {taken}: {_blows(mine, other)} A prisoner destroyed joins your Hand; you can "
            "summon it from your next turn."
        )
    fixed = (
        ""
        if view.get("target")
        else f" {other['name']} becomes the one enemy minion you may attack this turn."
    )
    dodge = f" {other['name']} can dodge the first attack this turn (Trickster)." if other["dodge"] else ""
    return (
        f"{head} attacks your opponent's {other['name']} ({_left(other)} Health): {_blows(mine, other)}"
        f"{fixed}{dodge} Your opponent may answer with Ambush or Disrupt first."
    )


def _summon_words(view: JSON, cid: str) -> str:
    """Summoning a minion from the Hand: its cost, and an artifact it completes (RULINGS 7, 8)."""
    spec = CARDS[cid]
    mine = _mine(view)
    count = len(mine["minions"])
    words = f"You summon {spec.name} (cost {spec.stat('cost')}: you control {plural(count, 'minion')})"
    words += " onto your side; it may recruit and attack this turn."
    if spec.of_type("summon"):
        words += " Its Summon effect resolves now, unless your opponent answers with Disrupt."
    number = spec.stat("artifact")
    pieces = int((mine.get("pieces") or {}).get(str(number), 0)) + 1
    if number in (view.get("pile") or []):
        if pieces >= 3:
            words += (
                f" That makes 3 pieces of number {number}: you take {ARTIFACTS[number].name} and draw a card."
            )
        else:
            words += f" It carries artifact piece {number}: you will have {pieces} of the 3 that take it."
    return words


def _window_words(view: JSON) -> str:
    """What the open response window is about: "Castor's attack", "Thunderbolt"."""
    w = view.get("window") or {}
    name = w.get("card_name") or "it"
    return f"{name}'s attack" if w.get("kind") == "attack" else name


def _respond_words(view: JSON, cid: str) -> str:
    spec = CARDS[cid]
    about = _window_words(view)
    if spec.of_type("disrupt"):
        return f"You play {spec.name} from your Hand to negate {about}; it goes to the Underworld."
    if spec.type == "minion":
        return f"You summon {spec.name} by Ambush, and it attacks the attacking minion first ({about})."
    return f"You play {spec.name} by Ambush against {about}: one Ambush a turn."


def _pass_words(view: JSON) -> str:
    """Passing: keeping a hand, letting a card or an attack happen, declining, taking no more."""
    _, card, kind = decision_of(view)
    if kind == "mulligan":
        back = HAND - len(_mine(view).get("hand") or [])
        if not back:
            return "You keep these 6 cards."
        return f"You keep the rest; the Deck is shuffled and you draw {plural(back, 'card')}."
    if kind == "window":
        return f"You let {_window_words(view)} happen without an answer."
    if kind == kit.MAY:
        return f"You skip the optional effect of {card or 'the card'}."
    if kind == kit.PICK:
        return "You take no more, and the effect goes on."
    return ""


def _pick_words(view: JSON, key: str) -> str:
    """A pick for an effect: whom or what it chooses, named as the view shows it."""
    d, card, _ = decision_of(view)
    arg, _, value = key.split(":", 1)[1].partition("=")
    for_card = f" for {card}" if card else ""
    if arg == "t":
        m = _minion_at(view, int(value))
        if m is not None:
            where = "the prisoner" if m["owner"] < 0 else "the enemy"
            where = "your" if m["owner"] == view.get("viewer") else where
            return f"You choose {where} {m['name']} ({m['attack']} Attack, {_left(m)} Health){for_card}."
        for p in view.get("players") or []:
            if p["commander_uid"] == int(value):
                whose = "your" if p["seat"] == view.get("viewer") else "your opponent's"
                return f"You choose {whose} Commander {p['commander_name']}{for_card}."
        return ""
    if arg == "n":
        return f"You take the artifact {ARTIFACTS[int(value)].name}{for_card}."
    what = _PICKS.get(str(d.get("what", "")), "a card")
    return f"You choose {CARDS[value].name} as {what}{for_card}." if value in CARDS else ""


def _card_words(view: JSON, kind: str, cid: str, key: str) -> str:
    """A move naming a card of the viewer's (argument "c"): summon, cast, exchange, respond, return, lead,
    discard."""
    name = CARDS[cid].name
    if kind == "summon":
        return _summon_words(view, cid)
    if kind == "cast":
        return (
            f"You play {name}; your opponent may answer with Disrupt, then it resolves and goes to the "
            "Underworld."
        )
    if kind == "exchange":
        took = key_args(key).get("g", "")
        taken = CARDS[took].name if took in CARDS else "a card"
        return (
            f"You leave {name} in the Agora and take {taken} into your Hand, to play this turn if you like; "
            f"{name} cannot be taken back this turn. This is your one exchange a turn."
        )
    if kind == "respond":
        return _respond_words(view, cid)
    if kind == "return":
        return (
            f"You put {name} back into the Deck (up to 3 cards); when you stop, the Deck is shuffled and you "
            "draw as many."
        )
    if kind == "commander":
        return f"You lead {name}: 20 Health, and its power once a game. If it falls to 0, you lose."
    if kind == "discard":
        return f"You discard {name} to the Underworld: at the end of your turn you keep at most 8 cards."
    return ""


_NEXT = {  # moving on, by the phase it leaves
    "deploy": (
        "You move on to the Recruit phase: your minions may attack the prisoners in Tartarus, and you can no "
        "longer summon, play spells or exchange this turn."
    ),
    "recruit": (
        "You move on to the Attack phase: minions that did not recruit may attack one enemy minion, or the "
        "enemy Commander with Primordial Attack; no more recruiting this turn."
    ),
}


def explain(view: JSON, key: str, path: tuple[str, ...], names: Sequence[str]) -> list[str]:
    """What will happen now if the viewer makes this move, in a sentence or two, from their own view (the
    cards it names are added with their texts by move_words)."""
    kind, args = key.split(":", 1)[0], key_args(key)
    _, card, _ = decision_of(view)
    if kind == kit.PICK:
        words = _pick_words(view, key)
    elif args.get("c") in CARDS:
        words = _card_words(view, kind, args["c"], key)
    elif kind == "end":
        skip = " (skipping the phases left)" if view.get("phase") in _NEXT else ""
        words = (
            f"You end your turn{skip}: every minion heals fully, Tartarus is refilled to 6 prisoners and you "
            "discard down to 8 cards; then your opponent draws and plays."
        )
    elif kind == "next":
        words = _NEXT.get(view.get("phase", ""), "")
    elif kind == "act" and int(args.get("n", 0)) in ARTIFACTS:
        art = ARTIFACTS[int(args["n"])].name
        words = f"You use the effect of {art}, once this turn; your opponent may answer with Disrupt."
    elif kind == "once":
        who = _mine(view)["commander_name"]
        words = f"You use the power of {who}, once a game: spent even if your opponent answers with Disrupt."
    elif kind in ("recruit", "attack"):
        words = _fight(view, key)
    elif kind == PASS:
        words = _pass_words(view)
    elif kind == "option" and path:
        words = f"{card or 'The card'} will do this: {path[-1]}."
    elif kind == kit.USE:
        words = f"You use the optional effect of {card or 'the card'} now."
    elif kind == kit.ORDER:
        words = (
            f"The trigger of {path[-1] if path else 'this card'} resolves first; your other triggers follow."
        )
    else:
        words = ""
    return [words] if words else []
