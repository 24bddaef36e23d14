"""Ophelia's presentation (engine/table/present.py): summary, status and prompts, the card catalogue, the
deck choice, menu order, the terminal board and the cards on the table. Pure functions over views; nothing
here reads a state."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from engine.abilities import resolve as kit
from engine.abilities.spec import CardSpec
from engine.core import JSON, Action
from engine.games.ophelia.board import slot_name
from engine.games.ophelia.cards import BASE, CARDS, DECK_CHOICE, DECKS, FACTIONS
from engine.games.ophelia.rules import CLAIM, FIRST, WIN, WINDOW
from engine.games.ophelia.state import MIDDLE
from engine.table.describe import hand_lines
from engine.table.present import (
    CardEntry,
    Pending,
    Prompt,
    Seen,
    Status,
    asked,
    board_end,
    columns,
    decided,
    deciders,
    decision_of,
    ended,
    group_rank,
    key_args,
    plural,
    seat_name,
)

summary = (
    "**Goal:** 5 points. Rounds are worth **1-2-3-2-1**.\n"
    "**Board:** two rows of five slots facing each other; you play and move only into open slots of your "
    "row; the middle slot is column 3, the outer slots 1 and 5. Opposed cards **contest**.\n"
    "**Your turn:** *Action Phase* — in any order: play cards (free), move a character not played this turn "
    "and not contested to an adjacent open slot (once each), use each Action ability once, retire a "
    "character or discard a card. *Turning Point Phase* — your opponent may play Turning Points. *Contest "
    "Phase* — contesting characters deal their Power to the card they face, highest Initiative first (equal "
    "at once); damage lasts the round.\n"
    "**Round end:** after two turns in a row with no card played: most Power on a character in the middle "
    "slot, else most Power on your side, else the player who went second wins the round. Then the board is "
    "forgotten, everyone draws up to 3 (7 at most) and the round's loser decides who goes first.\n"
    "**Abilities:** Passive (unlabelled), **Claim** (once when the card enters an open, uncontested slot; "
    "negated if it is contested or gone before it resolves), **Action** (once a turn), Trigger (event; "
    "effect). Costs stand before “:”."
)
rules = (
    "The rules are Ophelia's quick start; /rules shows Agora's rulings on what it leaves open and the "
    "original card set we designed, as the real one is not public (engine/games/ophelia/RULINGS.md)."
)
shortcuts = {"end": "e", "pass": "p", "use": "u"}
ends = frozenset({"end", "pass"})  # end the turn (or phase), or pass: the terminal asks first

PHASES = {
    "action": "Action Phase",
    "turning_point": "Turning Point Phase",
    "contest": "Contest Phase",
    "end": "End Phase",
    "first": "between rounds",
    "over": "game over",
}
GROUPS = (
    "Play a character",
    "Play a relic",
    "Play a Turning Point",
    "Move",
    "Action",
    "Claim",
    "Choose",
    "Choose a card",
    "Choose a slot",
    "Resolve first",
    "Use the ability",
    "Who goes first",
    "Retire",
    "Discard",
    "End the Action Phase",
    "Pass",
)
_FACTION_OF_DECK = {did: name for did, (name, _) in DECKS.items()}

choices = (DECK_CHOICE,)
windows = True  # response windows: front ends show the pace and window settings


# -- status --------------------------------------------------------------------------------------


def _decision(view: JSON) -> Pending:
    """Ophelia's pending decision in words; its one window is the Turning Point window."""
    d, card, kind = decision_of(view)
    if not d:
        return "", ""
    if kind == "window":
        return "play a Turning Point now, or pass", "Turning Point window"
    if kind == "claim":
        return f"make {card}'s Claim, or pass", ""
    if kind == "first":
        return "you lost the round: choose who goes first", ""
    return kit.prompt(d, "", _PICKS), ""


def _pending(view: JSON, names: Sequence[str]) -> str:
    """The pending decision as the status words it for everyone ("Ann: make Archimedes's Claim, or pass")."""
    who = deciders(view, names)
    if (view.get("decision") or {}).get("kind") == "first":
        return f"{who} lost the round and decides who goes first"
    return decided(who, _decision(view)[0])


def prompt(view: JSON, names: Sequence[str]) -> Prompt:
    """What the viewer is asked to decide (the hand page, the terminal): the pending decision, or their turn,
    or what they wait for."""
    what, _ = _decision(view)
    return asked(view, status(view, names), what, "your turn · Action Phase: play, move, act, or end it")


_PICKS = {
    "enemy": "an enemy character",
    "ally": "an ally",
    "other_ally": "another ally",
    "any": "a character",
    "relic": "a relic",
    "enemy_relic": "an enemy relic",
    "retire": "a card to retire",
    "discard": "a card to discard",
    "sacrifice": "a character to sacrifice",
    "slot": "a slot",
    "recall": "a card to return from the forgotten zone",
}


def status(view: JSON, names: Sequence[str]) -> Status:
    """Headline (whose turn, phase, round), the pending decision, and each seat's points."""
    players = view.get("players") or []
    scores = tuple(
        f"{seat_name(p['seat'], names)}: {plural(p['points'], 'point')} · hand {p['hand_size']}"
        for p in players
    )
    over = ended(view, names, scores)
    if over:
        return over
    rnd, track = view.get("round", 1), view.get("track") or [1, 2, 3, 2, 1]
    worth = track[min(rnd, len(track)) - 1]
    phase = PHASES.get(view.get("phase", ""), "")
    window = _decision(view)[1]
    if view.get("phase") == "first":
        head = f"Round {rnd} (worth {plural(worth, 'point')}) · who goes first?"
    else:
        head = f"{seat_name(view.get('active'), names)}'s turn · {phase} · round {rnd} (worth {worth})"
    turn = ("round", rnd, view.get("turn"), view.get("active"), view.get("phase") == "first")
    return Status(head, _pending(view, names), scores, turn, window)


# -- cards ---------------------------------------------------------------------------------------

_STAT_WORDS = {"power": "Power", "initiative": "Initiative", "life": "Life"}
_TYPE_WORDS = {"character": "Character", "relic": "Relic", "turning_point": "Turning Point"}


def card_entry(cid: str) -> CardEntry:
    """One card: faction and type, Power, Initiative and Life, and its full text."""
    return spec_entry(CARDS[cid])


def spec_entry(c: CardSpec) -> CardEntry:
    """One card's entry from its spec (a pack's card too, known or not)."""
    stats: tuple[tuple[str, int | str], ...] = tuple((_STAT_WORDS[k], v) for k, v in c.stats)
    kind = _TYPE_WORDS[c.type] + (" (attaches)" if c.flag("attach") else "")
    faction = FACTIONS.get(c.faction, c.faction)
    return CardEntry(
        id=c.id,
        name=c.name,
        type=f"{faction} · {kind}",
        stats=stats,
        text=c.text or "No abilities.",
        colour=c.faction,
    )


_ORDER = {"character": 0, "relic": 1, "turning_point": 2}
_CATALOGUE = [
    spec_entry(c)  # the game's own cards, never a pack's (engine/packs.py)
    for c in sorted(BASE.values(), key=lambda c: (list(FACTIONS).index(c.faction), _ORDER[c.type], c.name))
]


def catalogue() -> list[CardEntry]:
    """Every card, faction by faction: characters, relics, then Turning Points."""
    return list(_CATALOGUE)


def pack_entries(cards: dict[str, CardSpec]) -> list[CardEntry]:
    """A card pack's cards (engine/packs.py), in the catalogue's order."""
    rank = {f: i for i, f in enumerate(FACTIONS)}
    order = sorted(cards.values(), key=lambda c: (rank.get(c.faction, len(rank)), _ORDER[c.type], c.name))
    return [spec_entry(c) for c in order]


def deck_list(deck_id: str) -> str:
    """A ready deck as "2× Joan of Arc, 1× ..."."""
    name, cards = DECKS[deck_id]
    counts: dict[str, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    return f"{name}: " + ", ".join(f"{n}× {CARDS[c].name}" for c, n in counts.items())


# -- menus ---------------------------------------------------------------------------------------


def menu_rank(action: Action, path: tuple[str, ...]) -> tuple[Any, ...]:
    """Plays first, then moves and abilities, retire and discard, and ending the phase (or passing) last."""
    return group_rank(GROUPS, path)


def skip(view: JSON, actions: list[Action]) -> Action:
    """A skipped seat ends its Action Phase or passes; otherwise it takes the first answer offered."""
    by_kind = {a.kind: a for a in actions}
    return by_kind.get("end") or by_kind.get("pass") or actions[0]


# -- the terminal board --------------------------------------------------------------------------


def _card(u: JSON | None) -> str:
    if u is None:
        return "·"
    if u["type"] == "relic":
        text = f"{u['name']} [relic {u['life'] - u['damage']}/{u['life']}]"
    else:
        marks = "".join("*" if u[k] != u[f"base_{k}"] else "" for k in ("power", "initiative", "life"))
        text = f"{u['name']} [P{u['power']} I{u['initiative']} L{u['life'] - u['damage']}/{u['life']}{marks}]"
    if u.get("attached"):
        text += " + " + ", ".join(r["name"] for r in u["attached"])
    return text


def _held(cid: str) -> str:
    """A card in hand with its stats and text, on one line."""
    c = CARDS[cid]
    stats = " ".join(f"{_STAT_WORDS[k][0]}{v}" for k, v in c.stats)
    text = " / ".join(c.text.splitlines()) or "no abilities"
    return f"{c.name} ({_TYPE_WORDS[c.type]}{' ' + stats if stats else ''}): {text}"


def board_text(view: JSON, names: Sequence[str]) -> str:
    """The two rows slot by slot, contests marked, then each player's points, hand, deck and forgotten."""
    st = status(view, names)
    viewer = view.get("viewer")
    lines = [f"== Ophelia · {st.headline} =="]
    rnd = view.get("round", 1)
    track = " ".join(f"[{p}]" if i + 1 == rnd else str(p) for i, p in enumerate(view.get("track") or []))
    lines.append(f"Round track: {track}")
    for row in (1, 0):
        lines.append(f"{seat_name(row, names)}'s row:")
        for col, u in enumerate(view["slots"][row]):
            where = ("1 outer", "2", "3 middle", "4", "5 outer")[col]
            fight = " ⚔" if u is not None and u.get("contested") else ""
            lines.append(f"    {where:>8}: {_card(u)}{fight}")
    for p in view.get("players") or []:
        seat = p["seat"]
        you = " (you)" if seat == viewer else ""
        mark = " ◀" if seat in (view.get("to_act") or []) else ""
        lines.append(
            f"{seat_name(seat, names)}{you}: {plural(p['points'], 'point')} · {p['deck_name']} · hand "
            f"{p['hand_size']} · deck {p['deck_size']} · forgotten {len(p['forgotten'])} · "
            f"Power {p['power']}{mark}"
        )
        for c in p.get("hand") or []:
            lines.append(f"    holding {_held(c)}")
    lines += board_end(view, st, names, result=False)
    return "\n".join(lines)


def panel(view: JSON, names: Sequence[str], width: int) -> str:
    """The rows side by side, as the terminal app's board panel: each slot's two facing cards on one line
    (the viewer's on the left), then each player's points, Power and cards; no hand (the app shows it), no
    log; after the game, the result and only the slots a card still holds."""
    st = status(view, names)
    viewer = view.get("viewer")
    mine = viewer if viewer in (0, 1) else 0
    seats = (mine, 1 - mine)
    who = ["You" if seat == viewer else seat_name(seat, names) for seat in seats]  # whose move: the status
    rnd = view.get("round", 1)
    track = " ".join(f"[{p}]" if i + 1 == rnd else str(p) for i, p in enumerate(view.get("track") or []))
    lines = [f"Round {track} · the middle: 3"]
    slots = view.get("slots") or [[], []]
    half = max(8, (width - 5) // 2)
    widths = [1, half, half]
    lines += columns(["", *who], widths, " │ ")
    over = bool(view.get("result"))
    if over:
        lines[0] = st.headline  # the result; of the board, only the slots a card still holds
    for col in range(len(slots[0])):
        cells = [slots[seat][col] for seat in seats]
        if not over or any(cells):
            lines += columns([str(col + 1), *(_cell(u) for u in cells)], widths, " │ ")
    players = {p["seat"]: p for p in view.get("players") or []}
    counts: list[list[str]] = []
    for seat in seats:
        p = players.get(seat) or {}
        hand = [] if seat == viewer else [f"hand {p.get('hand_size', 0)}"]
        counts.append([plural(p.get("points", 0), "point"), f"Power {p.get('power', 0)}", *hand])
    lines += columns(["", *counts], widths, " │ ")
    return "\n".join(lines)


def _cell(u: JSON | None) -> str:
    """A slot's card, short: its name, Power, Initiative and Life left, ⚔ when contested."""
    if u is None:
        return "·"
    if u["type"] == "relic":
        text = f"{u['name']} (relic {u['life'] - u['damage']}/{u['life']})"
    else:
        text = f"{u['name']} P{u['power']} I{u['initiative']} L{u['life'] - u['damage']}/{u['life']}"
    text += "".join(f" + {r['name']}" for r in u.get("attached") or [])
    return text + (" ⚔" if u.get("contested") else "")


# -- the cards on the table ----------------------------------------------------------------------

_STATES = (("contested", "contested"), ("played", "played this turn"), ("moved", "moved this turn"))


def _change(u: JSON, stat: str) -> str:
    """ " (+2)" when a stat differs from the printed one, else ""."""
    d = u[stat] - u[f"base_{stat}"]
    return f" ({d:+d})" if d else ""


def _now(u: JSON) -> str:
    """A card in play now: Power, Initiative and Life left, each with its change, then its state."""
    parts = [f"{_STAT_WORDS[k]} {u[k]}{_change(u, k)}" for k in ("power", "initiative") if k in u]
    if "life" in u:
        parts.append(f"Life {u['life'] - u['damage']}/{u['life']}{_change(u, 'life')}")
    return " · ".join(parts + [word for key, word in _STATES if u.get(key)])


def _whose(seat: int, viewer: Any, names: Sequence[str]) -> str:
    return "Your" if seat == viewer else f"{seat_name(seat, names)}'s"


def on_table(view: JSON, names: Sequence[str]) -> list[Seen]:
    """Every face-up card: your hand, the rows (yours first), the forgotten zones (newest first), a card
    being resolved."""
    viewer = view.get("viewer")
    players = {p["seat"]: p for p in view.get("players") or []}
    seats = sorted(range(len(view["slots"])), key=lambda seat: seat != viewer)  # yours first
    seen = [Seen(c, "Your hand", mine=True) for c in (players.get(viewer) or {}).get("hand") or []]
    for seat in seats:
        for col, u in enumerate(view["slots"][seat]):
            if u is not None:
                where = f"{_whose(seat, viewer, names)} row · {slot_name(col)}"
                seen.append(Seen(u["card"], where, _now(u)))
                seen += [Seen(r["card"], f"{where} · on {u['name']}", _now(r)) for r in u["attached"]]
    for seat in seats:
        where = f"{_whose(seat, viewer, names)} forgotten zone"
        seen += [Seen(c, where) for c in reversed(players[seat]["forgotten"])]
    source = (view.get("decision") or {}).get("source")
    if source in CARDS and all(x.card != source for x in seen):
        seen.append(Seen(source, "Resolving"))
    return seen


# -- the table for a listener (engine/table/describe.py) ---------------------------------------------------

hand_text = True  # the hand image prints each card's whole ability text


def describe(view: JSON, names: Sequence[str]) -> list[str]:
    """The table for a screen reader (the alt text and the text board): each player's points, deck and
    hand, then each row slot by slot (the viewer's first), then a card being resolved."""
    viewer = view.get("viewer")
    lines = []
    for p in sorted(view.get("players") or [], key=lambda p: p["seat"] != viewer):
        who = "You" if p["seat"] == viewer else seat_name(p["seat"], names)
        lines.append(
            f"{who}: {plural(p['points'], 'point')}, {p['deck_name']}, "
            f"hand {plural(p['hand_size'], 'card')}, deck {p['deck_size']}, Power {p['power']}"
        )
    seen = on_table(view, names)
    for seat in sorted(range(len(view["slots"])), key=lambda seat: seat != viewer):
        row = f"{_whose(seat, viewer, names)} row"
        cells = []
        for col, u in enumerate(view["slots"][seat]):
            here = [x for x in seen if x.where.startswith(f"{row} · {slot_name(col)}")]
            said = [CARDS[x.card].name + (f" ({x.now})" if x.now else "") for x in here]
            cells.append(f"{slot_name(col)}: {' with '.join(said) if u is not None else 'empty'}")
        lines.append(f"{row}: {'; '.join(cells)}")
    lines += [f"Resolving: {CARDS[x.card].name}" for x in seen if x.where == "Resolving"]
    return lines


def describe_hand(view: JSON, names: Sequence[str]) -> list[str]:
    """What the hand image draws: each card in hand with its type and stats (their texts come last), the
    deck, the viewer's forgotten zone and points."""
    mine = next((p for p in view.get("players") or [] if p["seat"] == view.get("viewer")), None)
    if mine is None:
        return []
    gone = ", ".join(CARDS[c].name for c in mine.get("forgotten") or []) or "empty"
    return [
        *hand_lines(sys.modules[__name__], view, names),
        f"{plural(mine['points'], 'point')} of {WIN}, deck {plural(mine['deck_size'], 'card')}",
        f"Your forgotten zone: {gone}",
    ]


# -- what a move does (the hand menu's ❔, the terminal's inspector) --------------------------------------


def explain(view: JSON, key: str, path: tuple[str, ...], names: Sequence[str]) -> list[str]:
    """What will happen now if the viewer makes this move, in one or two plain sentences, from their own
    view only (the named cards' texts are added by engine.table.present.move_words)."""
    kind, args = key.partition(":")[0], key_args(key)
    if kind == "play":
        words = _explain_play(view, args)
    elif kind == "move":
        words = _explain_move(view, args)
    elif kind == "end":
        words = _explain_end(view)
    elif kind == "pass":
        words = _explain_pass(view)
    elif kind == "pick":
        words = _explain_pick(view, args)
    else:
        words = _explain_other(view, kind, args, path)
    return [line for line in words if line]


def _facing(view: JSON, seat: int, col: int) -> JSON | None:
    """The card in the slot facing this one (the other row, same column), or None."""
    slots = view.get("slots") or []
    return slots[1 - seat][col] if len(slots) == 2 else None


def _me(view: JSON) -> int:
    """The viewer's seat (the first seat for a spectator)."""
    viewer = view.get("viewer")
    return viewer if viewer in (0, 1) else 0


def _placed(view: JSON, uid: int) -> tuple[int, int, JSON] | None:
    """Where a card in a slot (or attached to one) is: (row, column, the card), or None."""
    for row, cells in enumerate(view.get("slots") or []):
        for col, u in enumerate(cells):
            for x in [u, *((u or {}).get("attached") or [])]:
                if x is not None and x["uid"] == uid:
                    return row, col, x
    return None


def _meeting(name: str, foe: JSON | None, initiative: int | None) -> str:
    """What a card entering a slot meets there: the enemy card it will contest, who strikes first, or no
    one (then it makes its Claim, if it has one it can make)."""
    if foe is None:
        return f"No card faces it there, so {name} is uncontested."
    if foe["type"] == "relic":
        return (
            f"It faces your opponent's relic {foe['name']}: they contest, and a relic deals no damage back."
        )
    if initiative is None:
        return f"It faces your opponent's {foe['name']}, which will damage it in every Contest Phase."
    theirs = foe["initiative"]
    order = (
        f"{name} strikes first"
        if initiative > theirs
        else f"{foe['name']} strikes first"
        if initiative < theirs
        else "both strike at once"
    )
    return (
        f"It faces your opponent's {foe['name']} (Power {foe['power']}, Life {foe['life'] - foe['damage']} "
        f"left): they contest, and {order} (Initiative {initiative} against {theirs})."
    )


def _explain_play(view: JSON, args: dict[str, str]) -> list[str]:
    me, cid = _me(view), args.get("c", "")
    spec = CARDS.get(cid)
    if spec is None:
        return []
    if spec.type == "turning_point":
        when = (
            "now, in your opponent's Turning Point Phase just before their Contest, "
            if (view.get("decision") or {}).get("kind") == WINDOW
            else ""
        )
        return [f"You play {spec.name} {when}for its effect; it then goes to your forgotten zone (one use)."]
    if "t" in args:
        got = _placed(view, int(args["t"]))
        bearer = got[2]["name"] if got else "your character"
        return [
            f"{spec.name} attaches to {bearer}: what it gives “the bearer” goes to {bearer}. It never "
            f"fights, and goes to your forgotten zone when {bearer} leaves the field."
        ]
    col = int(args.get("s", "1")) - 1
    foe = _facing(view, me, col)
    stats = dict(spec.stats)
    if spec.type == "relic":
        first = (
            f"Your relic {spec.name} (Life {stats['life']}) enters {slot_name(col)}; a relic never fights."
        )
        return [first, f"Your opponent's {foe['name']} faces it and will damage it." if foe else ""]
    first = (
        f"Your {spec.name} (printed Power {stats['power']}, Initiative {stats['initiative']}, Life "
        f"{stats['life']}) enters {slot_name(col)}"
        + (", where the most Power wins the round." if col == MIDDLE else ".")
    )
    meets = _meeting(spec.name, foe, stats["initiative"])
    if foe is None and spec.of_type("claim"):
        meets += " It may make its Claim, if it can."
    return [first, meets]


def _explain_move(view: JSON, args: dict[str, str]) -> list[str]:
    got = _placed(view, int(args.get("u", "-1")))
    if got is None:
        return []
    row, col, u = got
    to = int(args.get("s", "1")) - 1
    meets = _meeting(u["name"], _facing(view, row, to), u.get("initiative"))
    if _facing(view, row, to) is None and CARDS[u["card"]].of_type("claim"):
        meets += " It may make its Claim, if it can."
    return [
        f"Your {u['name']} moves from {slot_name(col)} to {slot_name(to)} and cannot move again this turn; "
        "moving is not playing a card.",
        meets,
    ]


def _leader(view: JSON) -> str:
    """Who would win the round if it ended now: the middle slot, then each side's Power, then who went
    second (Round Resolution)."""
    me, slots = _me(view), view.get("slots") or [[], []]
    middle = [
        (u["power"] if u is not None and u["type"] == "character" else 0)
        for u in (slots[me][MIDDLE], slots[1 - me][MIDDLE])
    ]
    powers = {p["seat"]: p["power"] for p in view.get("players") or []}
    side = [powers.get(me, 0), powers.get(1 - me, 0)]
    if middle[0] != middle[1]:
        why, ours = f"most Power in the middle slot, {middle[0]} against {middle[1]}", middle[0] > middle[1]
    elif side[0] != side[1]:
        why, ours = f"most Power on a side, {side[0]} against {side[1]}", side[0] > side[1]
    else:
        why, ours = "Power tied: the player who went second", view.get("first") != me
    return f"{'you' if ours else 'your opponent'} would win it ({why})"


def _explain_end(view: JSON) -> list[str]:
    me, slots = _me(view), view.get("slots") or [[], []]
    fights = sum(1 for u in slots[me] if u is not None and u.get("contested"))
    contest = "then the Contest Phase, where nothing of yours contests."
    if fights:
        verb = "contests" if fights == 1 else "contest"
        contest = (
            f"then the Contest Phase: {plural(fights, 'card')} of yours {verb}, the highest Initiative "
            "striking first."
        )
    lines = [f"Your Action Phase ends: your opponent may play Turning Points, {contest}"]
    if not view.get("played") and view.get("quiet", 0) >= 1:
        lines.append(
            "No card was played this turn or the last, so unless a Turning Point is played now the round "
            f"ends after the Contest; as the board stands, {_leader(view)}."
        )
    return lines


def _explain_pass(view: JSON) -> list[str]:
    _, card, kind = decision_of(view)
    if kind == WINDOW:
        return ["You play no Turning Point now; your opponent's Contest Phase follows."]
    if kind == CLAIM:
        return [f"{card or 'Your card'} makes no Claim this time; it stays where it is."]
    if kind == kit.MAY:
        return [f"You do not use {card}'s ability this time." if card else "You do not use the ability."]
    return ["You let this choice pass."]


def _explain_pick(view: JSON, args: dict[str, str]) -> list[str]:
    d, card = decision_of(view)[:2]
    what, source = d.get("what") or "", card or "the ability"
    if "t" in args:
        got = _placed(view, int(args["t"]))
        if got is None:
            return []
        row, _, u = got
        whose = "Your" if row == _me(view) else "Your opponent's"
        if what in ("sacrifice", "retire"):
            return [f"{whose} {u['name']} goes to your forgotten zone to pay {source}'s cost ({what})."]
        return [f"{whose} {u['name']} is the card {source}'s ability acts on."]
    if "c" in args:
        spec = CARDS.get(args["c"])
        name = spec.name if spec else args["c"]
        if what == "discard":
            return [f"{name} goes from your hand to your forgotten zone, face up."]
        if what == "recall":
            return [f"{name} comes back from your forgotten zone for {source}."]
        return [f"You choose {name} for {source}."]
    if "s" in args:
        return [f"{source} puts the card into {slot_name(int(args['s']) - 1)}."]
    return []


def _explain_other(view: JSON, kind: str, args: dict[str, str], path: tuple[str, ...]) -> list[str]:
    """Discard, retire, an Action or a Claim, who goes first, the order of triggers, using a "may"."""
    if kind == "discard":
        spec = CARDS.get(args.get("c", ""))
        name = spec.name if spec else "The card"
        return [
            f"{name} goes from your hand to your forgotten zone, face up; discarding is not playing a card."
        ]
    if kind == "retire":
        got = _placed(view, int(args.get("u", "-1")))
        if got is None:
            return []
        _, col, u = got
        gear = [r["name"] for r in u.get("attached") or []]
        return [
            f"Your {u['name']} leaves {slot_name(col)} for your forgotten zone, and the slot opens; retiring "
            "is not playing a card.",
            f"What is attached to it goes too: {', '.join(gear)}." if gear else "",
        ]
    if kind in ("act", "claim"):
        got = _placed(view, int(args.get("u", "-1")))
        name = got[2]["name"] if got else "Your card"
        text = path[-1].partition(": ")[2] if path else ""
        if kind == "act":
            return [f"{name} uses this Action (once this turn), paying any cost before “:” first: {text}"]
        return [
            f"{name} makes this Claim, paying any cost before “:” first: {text}",
            f"It is negated if {name} is contested or has left the field before it resolves.",
        ]
    if kind == FIRST:
        me = int(args.get("p", "0")) == _me(view)
        who = "You go" if me else "Your opponent goes"
        second = "your opponent wins" if me else "you win"
        return [f"{who} first this round; if Power ties when it ends, {second} it, having gone second."]
    if kind == kit.ORDER:
        return [f"{path[-1] if path else 'This trigger'} resolves first, then your other waiting triggers."]
    if kind == kit.USE:
        card = decision_of(view)[1]
        return [f"You use {card}'s ability now." if card else "You use the ability now."]
    return []
