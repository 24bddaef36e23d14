"""Ophidian 2350's presentation (engine/table/present.py): summary, status and prompts, the card catalogue,
the team choice, menu order and the terminal board. Pure functions over views."""

from __future__ import annotations

import re
import sys
import textwrap
from collections.abc import Sequence
from typing import Any

from engine.abilities import resolve as kit
from engine.abilities.spec import CardSpec
from engine.core import JSON, Action
from engine.games.ophidian.cards import (
    BASE,
    CARDS,
    DISCIPLINES,
    PAIRS,
    TEAM_CHOICE,
    TYPE_NAMES,
    symbol,
    symbol_of,
)
from engine.games.ophidian.decks import BOOK as deck_book  # noqa: F401  (the deck builder: /deck)
from engine.games.ophidian.decks import TeamBook
from engine.table.decisions import PASS
from engine.table.describe import hand_lines
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
    viewer_first,
)

summary = (
    "**Goal:** defeat the enemy team, reach **15 Cheer**, hold **12 VP** of enemy Gladiators in their "
    "Funeral Pyre, or have the most VP after **4 Waves**.\n"
    "**The Flow:** only the player with The Flow acts. **+** actions (advance, attack, most cards) keep it; "
    "**−** actions (retreat, pass) hand it over. A Wave ends on two passes in a row. Either player may spend "
    "1 Cheer to turn a + into a −.\n"
    "**Attacks** come from the Action Field (front row) and Set the attacker. The defender may **Intercept** "
    "with an Unset Gladiator in the same field (it Sets and takes the hit, and its player gets the Cheer) or "
    "**Protect** a Support-Field character from the Action Field. Gladiators attacking earn 1 Cheer. Wounds "
    "at **Rage** make a Gladiator Raging: attacking it Unset costs 1 damage.\n"
    "**Responses:** OR cards with The Flow, DR cards without it, R cards either way, in the windows "
    "offered.\n"
    "**The Breather** after each Wave: Flow to the most wounded, unset, scrap and redraw to 9 then 2 to the "
    "bottom, CP 10 + the Wave, pay Maintain, promote one Gladiator, Reinforcements, rearrange."
)
rules = (
    "The rules are the Ophidian 2350 rules summary; /rules shows Agora's rulings where it is unclear and our "
    "original card pool, as the real card list is not public; Zones are out of scope "
    "(engine/games/ophidian/RULINGS.md)."
)
shortcuts = {"pass": "p", "spend": "s", "use": "u"}
choices = (TEAM_CHOICE,)
windows = True  # response windows: front ends show the pace and window settings

STEPS = {
    "bottom": "putting 2 cards on the bottom",
    "arrange": "arranging the teams",
    "regenerate": "the Breather: Regenerate",
    "maintain": "the Breather: Maintain",
    "promote": "the Breather: Promote",
    "reinforce": "the Breather: Reinforcements",
    "maneuver": "the Breather: Maneuver",
}
GROUPS = (
    "Respond",
    "Intercept",
    "Protect",
    "Play a card",
    "Attack (+)",
    "Use an ability",
    "Advance (+)",
    "Retreat (−)",
    "Spend 1 Cheer: turn the last + into −",
    "Choose",
    "Choose a card",
    "Put on the bottom of your Arsenal",
    "Scrap from your hand",
    "Move to the Action Field",
    "Move to the Support Field",
    "Maintain",
    "Promote",
    "Bring in a Reinforcement",
    "Resolve first",
    "Use the ability",
)
# Front ends say "<name>: play one or pass", "the <name> passes by itself", "bob let the <name> pass".
WINDOWS = {"window": "Response window", "defend": "Defence window", "cheer": "Cheer window"}
_WINDOW_EVENTS = {
    "ally_attacked": "an attack on your character",
    "ally_attacks": "your attack",
    "blocked": "your attack",
    "enemy_plays": "the card your opponent plays",
    "ally_defeated": "your character's defeat",
}
_PICKS = {
    "enemy": "an enemy character",
    "ally": "a character you control",
    "other_ally": "another character you control",
    "enemy_pump": "an enemy Pump",
    "attacker": "an Unset character in your Action Field to attack",
    "attack": "the character to attack",
    "recover": "a card to take from your Scrap pile",
    "deploy": "a Minion to put into play",
    "discard": "a card to scrap from your hand",
}


def _names(view: JSON, names: Sequence[str] = ()) -> dict[Any, str]:
    """Each character's uid -> its name, with its seat's name when given."""
    return {
        c["uid"]: c["name"] + (f" ({seat_name(p['seat'], names)})" if names else "")
        for p in view.get("players") or []
        for c in p["characters"]
    }


def _decision(view: JSON) -> Pending:
    """Ophidian's pending decision in words; the windows front ends time out are named in WINDOWS."""
    d, _, kind = decision_of(view)
    if not d:
        return "", ""
    if kind == "window":
        about = _WINDOW_EVENTS.get(d.get("window", ""), "this")
        return f"play a response to {about}, or pass", WINDOWS["window"]
    if kind == "defend":
        what = "attack" if d.get("about") == "attack" else "damage"
        target = _names(view).get(d.get("uid"), "your character")
        return f"Intercept or Protect for {target} against the {what}, or take it", WINDOWS["defend"]
    if kind == "cheer":
        return "spend 1 Cheer to turn that + into − (The Flow passes), or keep it", WINDOWS["cheer"]
    if kind == "bottom":
        owe = plural(int(d.get("owe") or 1), "card")
        return f"put {owe} from your hand on the bottom of your Arsenal", ""
    return _DECISIONS.get(kind) or kit.prompt(d, "", _PICKS), ""


_DECISIONS = {
    "arrange": "move characters between the Action and Support Fields, then done",
    "scrap": "scrap cards from your hand before redrawing, or keep the rest",
    "maintain": "pay Maintain for the cards you keep; the rest are scrapped",
    "promote": "promote one Gladiator a level (it heals 1), or nobody",
    "reinforce": "bring in a Reinforcement, or no more",
}


def prompt(view: JSON, names: Sequence[str]) -> Prompt:
    """What the viewer is asked to decide (the hand page, the terminal): the pending decision, or their turn
    with The Flow, or what they wait for."""
    what, _ = _decision(view)
    idle = "you have The Flow: play, attack, move, or pass" if view.get("phase") == "wave" else "your move"
    return asked(view, status(view, names), what, idle)


def status(view: JSON, names: Sequence[str]) -> Status:
    """Headline (the Wave, who has The Flow), the pending decision, and each seat's VP, Cheer, CP and hand."""
    players = view.get("players") or []
    scores = tuple(
        f"{seat_name(p['seat'], names)} ({p['team']}): {p['vp']} VP · {p['cheer']} Cheer"
        f"{' ★' if p['crowd_favorite'] else ''} · {p['cp']} CP · hand {p['hand_size']} · "
        f"{plural(sum(c['kind'] != 'minion' for c in p['characters']), 'Gladiator')} standing"
        for p in players
    )
    over = ended(view, names, scores)
    if over:
        return over
    what, window = _decision(view)
    flow = seat_name(view.get("flow"), names)
    phase = view.get("phase")
    if phase == "setup":
        head = f"Setting up · {STEPS.get(view.get('step', ''), '')} · {flow} has The Flow"
    elif phase == "breather":
        step = STEPS.get(view.get("step", ""), "the Breather")
        head = f"After Wave {view.get('wave')} · {step} · {flow} will have The Flow"
    else:
        last = " · one more pass ends the Wave" if view.get("passed") else ""
        head = f"Wave {view.get('wave')} · {flow} has The Flow{last}"
    turn = ("flow", view.get("wave"), view.get("flow"))
    return Status(head, decided(deciders(view, names), what), scores, turn, window)


# -- cards ---------------------------------------------------------------------------------------


def card_entry(cid: str) -> CardEntry:
    """One card: its type, discipline, level and numbers, and its text."""
    return spec_entry(CARDS[cid])


def spec_entry(c: CardSpec) -> CardEntry:
    """One card's entry from its spec (a pack's card too, known or not)."""
    cid = c.id
    discipline = DISCIPLINES.get(c.faction, c.faction)
    second = c.flag("second_discipline")
    if second:
        discipline += f"/{DISCIPLINES.get(second, second)}"
    stats: list[tuple[str, int | str]] = []
    if c.type in ("gladiator", "reinforcement"):
        low = c.stat("level")
        level = f"Level {low}/{low + 1}"  # the two faces of its card (RULINGS 4)
        kind = f"{discipline} {TYPE_NAMES[c.type]} · {level}"
        stats = [
            ("VP", c.stat("vp")),
            ("Life", c.stat("life")),
            ("Rage", c.stat("rage")),
            ("ADMG", c.stat("admg")),
        ]
        if c.type == "reinforcement":
            stats.append(("M", c.stat("maintain")))
    else:
        kind = f"{TYPE_NAMES[c.type]} · {discipline} Level {c.stat('level')} · {symbol_of(c)}"
        stats = [("P", c.stat("cp"))]
        if c.type != "quick_hit":
            stats.append(("M", "☠" if c.flag("unmaintainable") else c.stat("maintain")))
        if c.type == "minion":
            stats += [("Life", c.stat("life")), ("ADMG", c.stat("admg"))]
    if "unique" in c.keywords and not c.text.startswith("Unique"):
        kind += " · Unique"
    faces = tuple(f for f in PAIRS.get(str(c.flag("pair")), ()) if f != cid) if c.type == "gladiator" else ()
    return CardEntry(
        id=c.id,
        name=c.name,
        type=kind,
        stats=tuple(stats),
        text=c.text,
        short=c.name,
        colour=c.faction,
        faces=faces,
    )


_ORDER = {"gladiator": 0, "reinforcement": 1, "minion": 2, "quick_hit": 3, "pump": 4}
_CATALOGUE = [
    spec_entry(c)  # the game's own cards, never a pack's (engine/packs.py)
    for c in sorted(BASE.values(), key=lambda c: (_ORDER[c.type], c.faction, c.stat("level"), c.name))
]


def catalogue() -> list[CardEntry]:
    """Gladiators, Reinforcements, then Minions, Quick-Hits and Pumps, by discipline."""
    return list(_CATALOGUE)


def pack_deck_book(cards: dict[str, CardSpec]) -> TeamBook:
    """The deck builder with a card pack's cards as well as the game's own (engine/packs.py)."""
    return TeamBook(cards)


def pack_entries(cards: dict[str, CardSpec]) -> list[CardEntry]:
    """A card pack's cards (engine/packs.py), in the catalogue's order."""
    order = sorted(cards.values(), key=lambda c: (_ORDER[c.type], c.faction, c.stat("level"), c.name))
    return [spec_entry(c) for c in order]


# -- menus ---------------------------------------------------------------------------------------


def menu_rank(action: Action, path: tuple[str, ...]) -> tuple[Any, ...]:
    """Responses and defence first, then cards, attacks and abilities, and passing last."""
    return group_rank(GROUPS, path)


def skip(view: JSON, actions: list[Action]) -> Action:
    """A skipped seat passes (or finishes the step); else it takes the first answer offered."""
    by_kind = {a.kind: a for a in actions}
    return by_kind.get("pass") or actions[0]


# -- the terminal board --------------------------------------------------------------------------


def _marks(c: JSON) -> list[str]:
    """A character's state in words: Set, Raging, a shield."""
    marks = []
    if c["set"]:
        marks.append("Set")
    if c["raging"]:
        marks.append("Raging")
    if c["shield"]:
        marks.append(f"shield {c['shield']}")
    return marks


def _character(c: JSON) -> str:
    marks = _marks(c)
    rage = f" · Rage {c['rage']}" if c["rage"] is not None else ""
    ddmg = f" · DDMG {c['ddmg']}" if c["ddmg"] else ""
    level = f" L{c['level']}" if c["kind"] != "minion" else " (Minion)"
    pumps = "".join(f" + {p['name']}" for p in c["pumps"])
    head = f"{c['name']}{level} [{c['life'] - c['wounds']}/{c['life']} Life{rage} · {c['admg']} ADMG{ddmg}]"
    return head + (f" ({', '.join(marks)})" if marks else "") + pumps


def _held(cid: str) -> str:
    c = CARDS[cid]
    need = f"{DISCIPLINES.get(c.faction, c.faction)} {c.stat('level')}"
    return f"{c.name} [{symbol(cid)} · {c.stat('cp')} CP · {need}]: {' / '.join(c.text.splitlines())}"


def board_text(view: JSON, names: Sequence[str]) -> str:
    """Each side's fields, counters and piles, the attack or card under way, the hand and the log."""
    st = status(view, names)
    viewer = view.get("viewer")
    lines = [f"== Ophidian 2350 · {st.headline} =="]
    chars = _names(view, names)
    for p in view.get("players") or []:
        seat = p["seat"]
        you = " (you)" if seat == viewer else ""
        mark = " ◀" if seat in (view.get("to_act") or []) else ""
        flow = " ⟳ The Flow" if seat == view.get("flow") else ""
        lines.append(
            f"{seat_name(seat, names)}{you} · {p['team']}: {p['vp']} VP · {p['cheer']} Cheer"
            f"{' ★' if p['crowd_favorite'] else ''} · {p['cp']} CP · hand {p['hand_size']} · Arsenal "
            f"{p['arsenal_size']}{flow}{mark}"
        )
        for field in ("action", "support"):
            row = [c for c in p["characters"] if c["field"] == field]
            lines.append(
                f"    {field.capitalize()} Field: " + (" | ".join(_character(c) for c in row) or "empty")
            )
        if p["pyre"]:
            lines.append("    Funeral Pyre: " + ", ".join(CARDS[c].name for c in p["pyre"]))
        for c in p.get("hand") or []:
            lines.append(f"    holding {_held(c)}")
    attack = view.get("attack")
    if attack:
        lines.append(f"Attack: {chars.get(attack['attacker'], '?')} → {chars.get(attack['target'], '?')}")
    if view.get("playing"):
        lines.append(f"Playing: {view['playing']['name']}")
    lines += board_end(view, st, names)
    return "\n".join(lines)


def _side(p: JSON, view: JSON, names: Sequence[str], width: int, facing_down: bool) -> list[str]:
    """One side for the panel: who and their counters (one line if it fits), then the fields, the Action
    Field nearest the middle (the side above lists its Support Field first)."""
    seat = p["seat"]
    who = "You" if seat == view.get("viewer") else seat_name(seat, names)
    head = f"{who} ⟳ Flow" if seat == view.get("flow") else who  # whose move it is: the status line
    counters = f"{p['vp']} VP · {p['cheer']} Cheer{' ★' if p['crowd_favorite'] else ''} · {p['cp']} CP"
    if who != "You":  # the viewer's own hand is in the app's cards panel
        counters += f" · hand {p['hand_size']}"
    fits = [f"{head} · {p['team']} · {counters}", f"{head} · {counters}"]
    top = next(([t] for t in fits if len(t) <= width), [f"{head} · {p['team']}", f"  {counters}"])
    blocks = [["Pyre " + ", ".join(CARDS[c].name for c in p["pyre"])]] if p["pyre"] else []
    for field in ("support", "action"):
        row = [c for c in p["characters"] if c["field"] == field]
        if row or field == "action":
            units = [_unit(c) for c in row] or ["—"]
            tags = [f"{field.capitalize()[:3]} "] + [" " * 4] * (len(units) - 1)
            blocks.append([w for t, u in zip(tags, units, strict=True) for w in _wrap(t + u, width)])
    if facing_down:
        return top + [line for block in blocks for line in block]
    return [line for block in reversed(blocks) for line in block] + top


def _wrap(line: str, width: int) -> list[str]:
    """A field's line within the width, its next lines indented under the names."""
    return textwrap.wrap(line, width, subsequent_indent=" " * 6, break_on_hyphens=False) or [line]


def _unit(c: JSON) -> str:
    """A character in a field, short: "Kestrel Nine L1 4/6 2 ADMG, Set + Pump" (Life left/Life)."""
    level = f" L{c['level']}" if c["kind"] != "minion" else " Minion"
    marks = _marks(c)
    pumps = "".join(f" + {p['name']}" for p in c["pumps"])
    return (
        f"{c['name']}{level} {c['life'] - c['wounds']}/{c['life']} {c['admg']} ADMG"
        + "".join(f", {m}" for m in marks)
        + pumps
    )


def panel(view: JSON, names: Sequence[str], width: int) -> str:
    """Both sides facing, as the terminal app's board panel: the other side above (its Support Field, then
    its Action Field), the attack or card under way between, the viewer's Action and Support Fields below
    with their counters last; no hand (the app shows it), no log, no headline."""
    players = view.get("players") or []
    bottom = next((p for p in players if p["seat"] == view.get("viewer")), players[0] if players else None)
    lines: list[str] = []
    for p in players:
        if p is not bottom:
            lines += _side(p, view, names, width, True)
    chars = _names(view)
    attack, playing = view.get("attack"), view.get("playing")
    middle = ""
    if attack:
        middle = f" {chars.get(attack['attacker'], '?')} attacks {chars.get(attack['target'], '?')} "
    elif playing:
        middle = f" {seat_name(playing['player'], names)} plays {playing['name']} "
    lines.append(f"──{middle}".ljust(width, "─") if len(middle) + 2 <= width else middle.strip())
    if bottom is not None:
        lines += _side(bottom, view, names, width, False)
    result = view.get("result")
    if result:
        lines.append(status(view, names).headline)
    return "\n".join(lines)


# -- inspect any card ----------------------------------------------------------------------------

_FIELDS = {"action": "Action Field", "support": "Support Field"}
_PILES = (("stack", "Gladiator Stack"), ("pyre", "Funeral Pyre"), ("scrap", "Scrap pile"))


def _number(word: str, now: int, printed: int, left: int | None = None) -> str:
    """ "ADMG 3", "ADMG 3 (+1)", "Life 3/6 (−1)": the number in the view and its change from the printed."""
    shown = f"{word} {now}" if left is None else f"{word} {left}/{now}"
    gap = now - printed
    return shown + (f" ({'+' if gap > 0 else '−'}{abs(gap)})" if gap else "")


def _now(c: JSON, attack: JSON) -> str:
    """A character's level, Life left, Rage, ADMG and DDMG with modifiers, and its state, in a short line."""
    spec = CARDS[c["card"]]
    parts = [f"L{c['level']}"] if c["kind"] != "minion" else []
    parts.append(_number("Life", c["life"], spec.stat("life"), c["life"] - c["wounds"]))
    if c["rage"] is not None:
        parts.append(_number("Rage", c["rage"], spec.stat("rage")))
    parts.append(_number("ADMG", c["admg"], spec.stat("admg")))
    if c["ddmg"]:
        parts.append(f"DDMG {c['ddmg']}")
    parts += [m.capitalize() for m in _marks(c)]
    if c["uid"] == attack.get("attacker"):
        parts.append("Attacking")
    if c["uid"] == attack.get("target"):
        parts.append("Attacked")
    return " · ".join(parts)


def on_table(view: JSON, names: Sequence[str]) -> list[Seen]:
    """Every card face up: your hand, then each seat's fields (Pumps after their bearers) and piles, the
    viewer's seat first, then the card being played."""
    viewer = view.get("viewer")
    bearers = _names(view, names)
    attack = view.get("attack") or {}
    seen: list[Seen] = []
    for p, whose in viewer_first(view, names):
        mine = p["seat"] == viewer
        zone = whose + "{}"
        seen += [Seen(cid, "Your hand", mine=True) for cid in (p.get("hand") or []) if mine]
        for field, words in _FIELDS.items():
            for c in p["characters"]:
                if c["field"] != field:
                    continue
                seen.append(Seen(c["card"], zone.format(words), _now(c, attack)))
                for pump in c["pumps"]:
                    by = f"played by {seat_name(pump['owner'], names)}" if pump["owner"] != c["owner"] else ""
                    now = " · ".join(w for w in ("Set" if pump["set"] else "", by) if w)
                    seen.append(Seen(pump["card"], f"on {bearers[c['uid']]}", now))
        for key, words in _PILES:
            seen += [Seen(cid, zone.format(words)) for cid in p.get(key) or []]
    playing = view.get("playing")
    if playing and not _in_play(view, playing["player"], playing["card"]):
        by = "you" if playing["player"] == viewer else seat_name(playing["player"], names)
        seen.append(Seen(playing["card"], f"Being played by {by}"))
    return seen


def _in_play(view: JSON, seat: int, cid: str) -> bool:
    """Whether a seat has a character or a Pump on this card in play (a Minion or Pump just played lands
    there while it still resolves)."""
    for p in view.get("players") or []:
        for c in p["characters"]:
            if (c["card"] == cid and c["owner"] == seat) or any(
                u["card"] == cid and u["owner"] == seat for u in c["pumps"]
            ):
                return True
    return False


# -- the table for a listener (engine/table/describe.py) ---------------------------------------------------

hand_text = True  # the hand image prints each card's whole text


def _whose(p: JSON, view: JSON, names: Sequence[str]) -> str:
    return "Your" if p["seat"] == view.get("viewer") else f"{seat_name(p['seat'], names)}'s"


LEVEL = re.compile(r"^L(\d+)")  # "L1" in a character's stats, said "Level 1"
LEVEL_WORDS = r"Level \1"


def _field_said(view: JSON, names: Sequence[str], p: JSON, field: str) -> str:
    """A field character by character, with its stats, state and Pumps: "Ada's Action Field: Kestrel Nine
    (Level 1 · Life 6/6 · Rage 3 · ADMG 2 · Set), with Combat Stims"."""
    attack = view.get("attack") or {}
    said = [
        f"{c['name']} ({LEVEL.sub(LEVEL_WORDS, _now(c, attack))})"
        + "".join(f", with {u['name']}" for u in c["pumps"])
        for c in p["characters"]
        if c["field"] == field
    ]
    return f"{_whose(p, view, names)} {_FIELDS[field]}: {'; '.join(said) or 'empty'}"


def describe(view: JSON, names: Sequence[str]) -> list[str]:
    """The table for a screen reader (the alt text and the text board): the attack or card under way, each
    side's Arsenal, then the Action Fields and the Support Fields character by character and the Funeral
    Pyres, the viewer's first."""
    chars = _names(view, names)
    attack, playing = view.get("attack"), view.get("playing")
    lines = []
    if attack:
        lines.append(
            f"Attack: {chars.get(attack['attacker'], '?')} attacks {chars.get(attack['target'], '?')}"
        )
    if playing:
        lines.append(f"Being played: {playing['name']}")
    sides = sorted(view.get("players") or [], key=lambda p: p["seat"] != view.get("viewer"))
    arsenals = ", ".join(f"{seat_name(p['seat'], names)} {plural(p['arsenal_size'], 'card')}" for p in sides)
    lines.append(f"Arsenal: {arsenals}")
    lines += [f"Crowd Favorite: {seat_name(p['seat'], names)}" for p in sides if p["crowd_favorite"]]
    lines += [_field_said(view, names, p, field) for field in _FIELDS for p in sides]  # Action Fields first
    for p in sides:
        if p["pyre"]:
            lines.append(
                f"{_whose(p, view, names)} Funeral Pyre: " + ", ".join(CARDS[c].name for c in p["pyre"])
            )
    return lines


def describe_hand(view: JSON, names: Sequence[str]) -> list[str]:
    """What the hand image draws: each card in hand with its type and costs (their texts come last), then
    the viewer's Gladiator Stack."""
    mine = next((p for p in view.get("players") or [] if p["seat"] == view.get("viewer")), None)
    if mine is None:
        return []
    stack = ", ".join(CARDS[c].name for c in mine.get("stack") or [] if c in CARDS) or "empty"
    return [*hand_lines(sys.modules[__name__], view, names), f"Your Gladiator Stack: {stack}"]


# -- what a move does (the hand menu's ❔, the terminal's inspector, the tutorial) --------------------

_FLOW_WORDS = {
    "+": "+, so you keep The Flow",
    "-": "−, so The Flow passes to your opponent once it resolves",
    "?": "? — its text says whether it is + or −",
}
_ABILITY_FLOW = {"plus": "+", "minus": "-", "query": "?"}
_PASSING = {
    "window": "You let it happen without playing a Response.",
    "cheer": "You keep your Cheer: that + move stands, and your opponent keeps The Flow.",
    "arrange": "Your characters stay where they are; the Wave begins once both teams are arranged.",
    "scrap": "You keep the rest of your hand, draw to 9 and then put 2 on the bottom of your Arsenal.",
    "maintain": "Every card you have not paid Maintain for is scrapped now.",
    "promote": "No Gladiator of yours is promoted this Breather.",
    "reinforce": "No more Reinforcements come in this Breather.",
}


def _chars(view: JSON) -> dict[int, JSON]:
    """Each character in play by uid."""
    return {c["uid"]: c for p in view.get("players") or [] for c in p["characters"]}


def _pumps(view: JSON) -> dict[int, JSON]:
    """Each Pump in play by uid."""
    return {u["uid"]: u for c in _chars(view).values() for u in c["pumps"]}


def _who(view: JSON, c: JSON) -> str:
    """ "your Brakka Vohl" or "your opponent's Kestrel Nine"."""
    whose = "your" if c["owner"] == view.get("viewer") else "your opponent's"
    return f"{whose} {c['name']}"


def _left(c: JSON) -> int:
    return int(c["life"]) - int(c["wounds"])


def _card_flow(cid: str) -> str:
    """A card's flow symbol in words."""
    return _FLOW_WORDS.get(str(CARDS[cid].flag("flow") or ""), "")


def _attack_words(view: JSON, attacker: JSON, target: JSON) -> list[str]:
    """An attack declared now: who hits whom and for how much, what the defender may do, and its after-effects
    (Set, Cheer, Rage, DDMG), from the viewer's view."""
    hit, left = int(attacker["admg"]), _left(target)
    outcome = (
        f"and is defeated: you score its {target['vp']} VP"
        if left <= hit and target["kind"] != "minion"
        else ("and is defeated" if left <= hit else f"({left - hit} Life left)")
    )
    said = [
        f"Your {attacker['name']} ({hit} ADMG) attacks {_who(view, target)} ({left} Life left); unless your "
        f"opponent Intercepts or Protects, it takes {hit} {outcome}.",
        f"Your {attacker['name']} Sets (no more attacks from it this Wave); you gain 1 Cheer unless the "
        "attack is Intercepted, and you keep The Flow (+).",
    ]
    if target["raging"]:
        said.append(
            f"{target['name']} is Raging and Set: attacking it Unsets it."
            if target["set"]
            else f"{target['name']} is Raging: your {attacker['name']} takes 1 Rage damage."
        )
    if target["ddmg"]:
        said.append(f"{target['name']} deals {target['ddmg']} DDMG back to your {attacker['name']}.")
    return said


def explain(view: JSON, key: str, path: tuple[str, ...], names: Sequence[str]) -> list[str]:
    """What will happen now if the viewer makes this move, in a sentence or two, from their own view only."""
    kind, args = key.partition(":")[0], key_args(key)
    chars = _chars(view)
    me = next((p for p in view.get("players") or [] if p["seat"] == view.get("viewer")), None)
    unit = chars.get(int(args["u"])) if args.get("u", "").isdigit() else None
    card = args.get("c", "")
    if kind == "attack" and unit is not None and (target := chars.get(int(args.get("t", -1)))) is not None:
        return _attack_words(view, unit, target)
    if kind == "play" and card in CARDS:
        spec = CARDS[card]
        x = int(args.get("x") or 0)
        cost = spec.stat("cp") + x
        where = " It comes into play in your Support Field." if spec.type == "minion" else ""
        left = f" ({int(me['cp']) - cost} left)" if me else ""
        return [
            f"You pay {cost} CP{left} and play {spec.name} ({_card_flow(card)}); your opponent may answer it "
            f"with a Response first.{where}"
        ]
    if kind == "respond" and card in CARDS:
        spec = CARDS[card]
        return [
            f"You pay {spec.stat('cp')} CP and play {spec.name} as a Response: it resolves now, and The Flow "
            "stays where it is."
        ]
    if kind == "advance" and unit is not None:
        return [
            f"Your {unit['name']} moves to your Action Field, where it can attack: a + move, you keep The "
            "Flow."
        ]
    if kind == "retreat" and unit is not None:
        sets = " and becomes Set" if not unit["set"] else ""
        return [
            f"Your {unit['name']} moves back to your Support Field{sets}: a − move, The Flow passes to your "
            "opponent."
        ]
    if kind == "ability" and (holder := unit or _pumps(view).get(int(args.get("u") or -1))) is not None:
        ability = CARDS[holder["card"]].abilities[int(args.get("a") or 0)]
        symbol = _ABILITY_FLOW.get(ability.type, "")
        flow = f" ({_FLOW_WORDS[symbol]})" if symbol else ""
        says = [f"It says: {path[-1]}"] if len(path) > 2 else []
        return [f"Your {holder['name']} uses its ability{flow}.", *says]
    if kind == "spend":
        to = "your opponent" if view.get("flow") == view.get("viewer") else "you"
        cheer = f" ({int(me['cheer']) - 1} left)" if me else ""
        return [
            f"You spend 1 Cheer{cheer}: the last + move turns −, so The Flow passes to {to} once it resolves."
        ]
    if kind in ("intercept", "protect") and unit is not None:
        d = view.get("decision") or {}
        guarded = chars.get(int(d.get("uid", -1)))
        what = "attack" if d.get("about") == "attack" else "damage"
        instead = f" on {_who(view, guarded)}" if guarded is not None else ""
        if kind == "intercept":
            cheer = ", and you gain this attack's Cheer" if what == "attack" else ""
            return [f"Your {unit['name']} Sets and takes the {what}{instead} instead{cheer}."]
        return [
            f"Your {unit['name']} takes the {what}{instead} instead, without Setting (Protecting earns no "
            "Cheer)."
        ]
    if kind == "bottom" and card in CARDS:
        return [f"{CARDS[card].name} goes to the bottom of your Arsenal; you keep the rest of your hand."]
    if kind == "scrap" and card in CARDS:
        return [f"{CARDS[card].name} goes to your Scrap pile; you draw to 9 afterwards."]
    if kind == "place" and unit is not None:
        to = "Support" if unit["field"] == "action" else "Action"
        return [
            f"Your {unit['name']} moves to your {to} Field; this costs nothing and is not an advance or "
            "retreat."
        ]
    if kind == "keep" and (kept := unit or _pumps(view).get(int(args.get("u") or -1))) is not None:
        fee = path[-1].rpartition(" for ")[2]
        return [f"You pay Maintain for your {kept['name']} ({fee}): it stays in play into the next Wave."]
    if kind == "promote" and unit is not None:
        return [f"Your {unit['name']} goes up to Level {int(unit['level']) + 1} and heals 1 wound."]
    if kind == "reinforce" and card in CARDS:
        return [
            f"{CARDS[card].name} joins your team at Level 0 in your Support Field; no Maintain this Breather."
        ]
    if kind == PASS:
        return [_passing(view, chars)]
    if kind == kit.PICK:
        picked_unit = chars.get(int(args["t"])) if args.get("t", "").isdigit() else None
        if picked_unit is not None:
            return [f"You choose {_who(view, picked_unit)} for the effect under way."]
        return [f"You choose {' › '.join(path[1:]) or 'this'} for the effect under way."]
    if kind == kit.USE:
        return ["You use the ability offered now."]
    if kind == kit.ORDER:
        return [f"{path[-1]}'s ability resolves before the others waiting."]
    return []


def _passing(view: JSON, chars: dict[int, JSON]) -> str:
    """A pass, by the decision it answers: the Wave's pass, or letting a window, a defence or a step go."""
    d, _, kind = decision_of(view)
    if not d:
        if view.get("passed"):
            return "You pass (−): your opponent passed just before, so the Wave ends now."
        return "You pass (−): The Flow goes to your opponent; if they pass next, the Wave ends."
    if kind == "defend":
        target = chars.get(int(d.get("uid", -1)))
        what = "attack" if d.get("about") == "attack" else "damage"
        who = _who(view, target) if target else "your character"
        return f"{who[0].upper()}{who[1:]} takes the {what} itself."
    if kind == "bottom":
        return "You put no more cards on the bottom."
    return _PASSING.get(kind, "You let it go and do not use it.")
