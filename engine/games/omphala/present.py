"""Omphala's presentation (engine/table/present.py): its summary, status lines, the 52 cards, menu order,
the terminal board and the cards on the table. Pure functions over views; nothing here reads a state."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from engine.core import JSON, Action
from engine.games.omphala import cards
from engine.table.present import (
    CardEntry,
    Prompt,
    Seen,
    Status,
    game_over,
    key_args,
    outcome,
    plural,
    seat_name,
    seat_refs,
    shorten,
    to_everyone,
    together,
    viewer_first,
)

summary = (
    "**Goal:** end the game with the most cards in your front row "
    "(ties: total power, then a line-up battle).\n"
    "**Setup:** everyone gets 7 cards and secretly puts 2 face down as their front row, left and right "
    "as they choose, all at once; "
    "the other 5 go face up as the back row.\n"
    "**Your turn:** up to 2 actions, then draw (1 card with 2 players, else 2). An action is: draw a "
    "card, or use a back-row card by its suit —\n"
    "♣ Club: attack an opponent's front card · ♠ Spade: attack, or steal a back-row card · "
    "♦ Diamond: shield one of your front cards · ♥ Heart: enhance one of your back-row cards.\n"
    "An attack or steal works when your card's power (A=1 … K=13, with its modifier) is **equal or "
    "greater**; the card that succeeded then retires face down to your front row.\n"
    "**End:** when the deck is empty and a full round passes with no change, or nobody can move."
)
rules = (
    "The full rules are Omphala's rule text; /rules shows Agora's rulings, how it settles what the text "
    "leaves open (engine/games/omphala/RULINGS.md)."
)
shortcuts = {"draw": "d", "end_turn": "e"}

RANK_NAMES = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
ACTION_TEXT = {
    "attack": "attack an opponent's front-row card (it falls if your power is equal or greater)",
    "steal": "steal an opponent's back-row card (equal or greater power), modifier and all",
    "shield": "shield one of your own front-row cards (its power adds to the defence)",
    "enhance": "enhance one of your own back-row cards (its power adds to the card)",
}
ACTION_ORDER = ("attack", "steal", "shield", "enhance")
PENDING = {  # a pending decision: as the status says it to everyone, and to the one who decides
    "discard": ("{who} must discard a back-row card (more than 7)", "discard a back-row card (more than 7)"),
    "reshuffle": (
        "{who} has an all-red back row: keep it, or shuffle it in and draw 5",
        "you have an all-red back row: keep it, or shuffle it in and draw 5",
    ),
}
_LABELS = {cards.label(c): c for c in cards.DECK}


# -- status --------------------------------------------------------------------------------------


def result_line(view: JSON, names: Sequence[str]) -> str:
    """ "Ada wins with 5 cards", "Ada and Bo share the win with 4 cards and 30 power", ..."""
    return outcome(*_winners(view, names), tie="share the win")


def _winners(view: JSON, names: Sequence[str]) -> tuple[list[str], str, str]:
    """The winners' names, no reason, and how they won ("with 4 cards and 30 power")."""
    result = view.get("result") or {}
    winners = [w for w in result.get("winners") or [] if isinstance(w, int)]
    people = [seat_name(w, names) for w in winners]
    card_counts, power = result.get("cards") or [], result.get("power") or []
    w = winners[0] if winners else len(card_counts)
    how = f"with {plural(card_counts[w], 'card')}" if w < len(card_counts) else ""
    tied_cards = [c for c in card_counts if w < len(card_counts) and c == card_counts[w]]
    if len(tied_cards) > 1 and w < len(power):
        how += f" and {power[w]} power"
        battle = result.get("battle")
        if battle and w < len(battle):
            how += f", {plural(battle[w], 'survivor')} in the line-up battle"
    return people, "", how


def status(view: JSON, names: Sequence[str]) -> Status:
    """Headline, pending decision, one score line per seat and the turn, from any Omphala view."""
    players = view.get("players") or []
    phase = view.get("phase")
    scores = tuple(f"{seat_name(p['seat'], names)}: {plural(p.get('cards', 0), 'card')}" for p in players)
    if phase == "choose":
        waiting = [seat_name(s, names) for s in view.get("to_act") or []]
        prompt = f"Still choosing: {together(waiting)}" if waiting else ""
        return Status("Everyone chooses 2 face-down cards", prompt, scores, ("choose",))
    if phase == "over" or view.get("result"):
        return Status(game_over(*_winners(view, names), tie="share the win"), "", scores, ("over",))
    current = view.get("current")
    who = seat_name(current, names)
    pending = view.get("pending")
    head = f"{who} to play"
    left = view.get("actions_left")
    if not pending and isinstance(left, int):
        head += f" · {plural(left, 'action')} left"
    prompt = _pending(pending)[0].format(who=who) if pending else ""
    return Status(head, prompt, scores, ("play", view.get("turn"), current))


def _pending(pending: Any) -> tuple[str, str]:
    """A pending decision's words: for everyone ("{who}" for the name), and to the one who decides."""
    return PENDING.get(pending) or ("{who} must decide: " + str(pending), f"decide: {pending}")


def prompt(view: JSON, names: Sequence[str]) -> Prompt:
    """What the viewer is asked to decide (the hand page, the terminal): the front-row choice, the pending
    decision, their actions, or whom they wait for."""
    phase = view.get("phase")
    mine = view.get("viewer") in (view.get("to_act") or [])
    if phase == "over" or view.get("result") or view.get("viewer") is None:
        return to_everyone(status(view, names))
    if phase == "choose":
        return (
            Prompt("Choose 2 cards to place face down", True)
            if mine
            else Prompt("Waiting for the others to choose")
        )
    if not mine:
        return Prompt(f"Waiting for {seat_name(view.get('current'), names)}")
    if view.get("pending"):
        what = _pending(view["pending"])[1]
        return Prompt(what[:1].upper() + what[1:], True)
    return Prompt(f"Your turn · {plural(view.get('actions_left', 0), 'action')} left", True)


# -- cards ---------------------------------------------------------------------------------------


def card_name(code: str) -> str:
    """ "KC" -> "King of Clubs"."""
    rank, suit = code[:-1], code[-1]
    return f"{RANK_NAMES.get(rank, rank)} of {cards.SUITS[suit]['name']}"


def card_entry(code: str) -> CardEntry:
    """One card as the catalogue gives it."""
    suit = cards.SUITS[code[-1]]
    can = [a for a in ACTION_ORDER if a in cards.ACTIONS[code]]
    text = "In your back row it can " + "; or ".join(ACTION_TEXT[a] for a in can) + "."
    return CardEntry(
        id=code,
        name=card_name(code),
        type=suit["name"].removesuffix("s"),
        stats=(("Power", cards.power(code)),),
        text=text,
        short=cards.label(code),
        colour="red" if cards.is_red(code) else "black",
    )


_CATALOGUE = [card_entry(c) for c in cards.DECK]


def catalogue() -> list[CardEntry]:
    """The 52 cards, suit by suit (Clubs, Diamonds, Hearts, Spades), Ace to King."""
    return list(_CATALOGUE)


# -- menus ---------------------------------------------------------------------------------------


def _code(text: str) -> str | None:
    """The base card named at the start of a menu label: "K♣+5♥ (18)" -> "KC"; None if there is none."""
    head = text.split("+", 1)[0].split(" ", 1)[0].strip()
    return head if head in cards.POWER else _LABELS.get(head)


def _card_of(action: Action, path: tuple[str, ...]) -> str | None:
    """The card an action uses: from its arguments if one is a card code, else from its menu label."""
    for name, value in action.args:
        if name in ("c", "a") and isinstance(value, str) and value in cards.POWER:
            return value
    return _code(path[0]) if path else None


def menu_rank(action: Action, path: tuple[str, ...]) -> tuple[Any, ...]:
    """Back-row cards in rank order (each card's moves together: attack, steal, shield, enhance), then
    Draw a card and End turn last; the two-card choice by its left card, then its right one."""
    kind = action.kind
    if kind == "draw":
        return (2, 0)
    if kind == "end_turn":
        return (2, 1)
    if kind in ("pass", "reshuffle"):  # the all-red decision: keep (its explicit pass) first
        return (0, kind != "pass")
    card = _card_of(action, path)
    rank = cards.by_rank(card) if card else (99, "")
    second: tuple[int, str] = (0, "")
    right = action.arg("b") if kind == "choose" else None
    if isinstance(right, str) and right in cards.POWER:
        second = cards.by_rank(right)
    order = ACTION_ORDER.index(kind) if kind in ACTION_ORDER else -1
    return (1, rank, second, order, path)


def skip(view: JSON, actions: list[Action]) -> Action:
    """What a skipped turn plays (RULINGS 19): the turn ends; a pending discard drops the weakest card; an
    all-red back row is kept; the opening choice puts the two lowest cards face down, in an order that
    says nothing of which is weaker."""
    by_kind = {a.kind: a for a in actions}
    for kind in ("end_turn", "pass"):
        if kind in by_kind:
            return by_kind[kind]
    if by_kind.keys() == {"discard"}:
        return min(actions, key=lambda a: cards.by_rank(str(a.arg("c"))))
    if by_kind.keys() == {"choose"}:
        low = min(actions, key=lambda a: sorted(cards.by_rank(str(a.arg(k))) for k in "ab")[::-1])
        left, right = blind_order(str(low.arg("a")), str(low.arg("b")))
        return next(a for a in actions if a.arg("a") == left and a.arg("b") == right)
    return actions[0]


def blind_order(a: str, b: str) -> tuple[str, str]:
    """Two cards as (left, right) in an order drawn from a hash of the pair, not from their ranks: a
    skipped seat has no RNG, and an opponent who cannot see the cards learns nothing from it."""
    pair = sorted((a, b))
    flip = hashlib.sha256(" ".join(pair).encode()).digest()[0] & 1
    return (pair[1], pair[0]) if flip else (pair[0], pair[1])


# -- what a move does (the hand menu's ❔, the terminal's inspector) ------------------------------------

TOP = cards.power("KC")  # no single card is stronger than a King (13)


def explain(view: JSON, key: str, path: tuple[str, ...], names: Sequence[str]) -> list[str]:
    """What will happen now if the viewer makes this move, in a sentence or two from their own view only
    (a face-down card's power stays unknown; the cards' texts are added by present.move_words)."""
    kind, args = key.partition(":")[0], key_args(key)
    me = _seat(view, view.get("viewer"))
    if kind == "choose":
        a, b = _label(args.get("a")), _label(args.get("b"))
        return [
            f"Your {a} goes face down on the left of your front row and your {b} on the right: your first "
            "two points, which only you know. The other five cards go face up as your back row, where they "
            "act."
        ]
    if me is None:
        return []
    if kind == "draw":
        return [_drawing(view, me)]
    if kind == "end_turn":
        return [_ending(view, names)]
    if kind == "pass":
        return ["You keep your all-red back row as it is."]
    if kind == "reshuffle":
        n = sum(len(e) for e in me.get("back_row") or [])
        return [
            f"Your whole back row ({plural(n, 'card')}) is shuffled into the deck and you draw 5 new cards "
            "(at most twice a game)."
        ]
    mine = _back(me, args.get("c"))
    if mine is None:
        return []
    if kind == "discard":
        return [f"Your {_named(mine)} goes face up to the discard pile for good, leaving 7 in your back row."]
    if kind == "enhance":
        return _enhancing(mine, _back(me, args.get("t")))
    if kind == "shield":
        return _shielding(mine, _front(me, args.get("t")))
    other = _seat(view, _int(args.get("p")))
    if other is None:
        return []
    whose = _whose(view, other["seat"], names)
    if kind == "attack":
        return _attacking(mine, _front(other, args.get("t")), whose)
    if kind == "steal":
        return _stealing(mine, _back(other, args.get("t")), whose)
    return []


def _int(text: str | None) -> int | None:
    return int(text) if text is not None and text.isdigit() else None


def _seat(view: JSON, seat: Any) -> JSON | None:
    """A seat's part of the view."""
    return next((p for p in view.get("players") or [] if p["seat"] == seat), None)


def _whose(view: JSON, seat: int, names: Sequence[str]) -> str:
    """ "your opponent's" with two players, else the seat's name with 's."""
    return "your opponent's" if view.get("num_players") == 2 else f"{seat_name(seat, names)}'s"


def _back(p: JSON, base: str | None) -> list[str] | None:
    """The back-row card (with its modifier) whose first card is `base`."""
    return next((list(e) for e in p.get("back_row") or [] if e and e[0] == base), None)


def _front(p: JSON, uid: str | None) -> tuple[int, list[str | None]] | None:
    """A front-row card by its id: its position (1 = left) and its cards as the view shows them."""
    for i, e in enumerate(p.get("front_row") or [], 1):
        if str(e["id"]) == uid:
            return i, list(e["cards"])
    return None


def _named(entity: Sequence[str | None]) -> str:
    """A card with its modifier as the view shows it: "8♣+6♥", "??+K♦"."""
    return "+".join(_label(c) for c in entity)


def _power(entity: Sequence[str | None]) -> int:
    """The power of the cards of an entity that the view shows."""
    return sum(cards.power(c) for c in entity if c is not None)


def _strength(entity: list[str]) -> str:
    """ "8♣+6♥ (power 14)"."""
    return f"{_named(entity)} (power {_power(entity)})"


def _attacking(mine: list[str], target: tuple[int, list[str | None]] | None, whose: str) -> list[str]:
    if target is None:
        return []
    at, cards_there = target
    power, name = _power(mine), _named(mine)
    head = f"Your {_strength(mine)} attacks {whose} front card {at}"
    win = f"it is destroyed, and your {name} retires face down to your front row"
    fail = "the action is spent and nothing moves"
    hidden = sum(c is None for c in cards_there)
    if not hidden:
        theirs = _power(cards_there)
        if power >= theirs:
            return [f"{head}, {_named(cards_there)} (power {theirs}): {win}."]
        return [f"{head}, {_named(cards_there)} (power {theirs}): it holds, since {power} is less; {fail}."]
    known = _power(cards_there)
    low, high = known + hidden, known + TOP * hidden
    seen = [c for c in cards_there if c is not None]
    if seen:
        head += f" (face down, with {_named(seen)} on it)"
    if power >= high:
        return [f"{head}. Its power is hidden but at most {high}, so your {power} wins: {win}."]
    if power < low:
        return [f"{head}. Its power is hidden but at least {low}, so your {power} cannot win: {fail}."]
    return [
        f"{head}. A face-down card's power is hidden: if yours is equal or greater, {win}; if not, {fail}."
    ]


def _stealing(mine: list[str], target: list[str] | None, whose: str) -> list[str]:
    if target is None:
        return []
    power, theirs = _power(mine), _power(target)
    head = f"Your {_strength(mine)} tries to steal {whose} {_strength(target)}"
    if power >= theirs:
        return [
            f"{head}: it comes to your back row, and your {_named(mine)} retires face down to your front row."
        ]
    return [f"{head}: it fails, since {power} is less; the action is spent and nothing moves."]


def _shielding(mine: list[str], target: tuple[int, list[str | None]] | None) -> list[str]:
    if target is None:
        return []
    at, there = target
    both = [*there, *mine]
    return [
        f"Your {_named(mine)} goes face down onto your front card {at} ({_named(there)}): together "
        f"power {_power(both)} against attacks, and they count as two cards at the end."
    ]


def _enhancing(mine: list[str], target: list[str] | None) -> list[str]:
    if target is None:
        return []
    both = [*target, *mine]
    return [
        f"Your {_named(mine)} joins your {_named(target)} in your back row: together power "
        f"{_power(both)}, and they act as your {_label(target[0])} did; the two stay one card from now on."
    ]


def _drawing(view: JSON, me: JSON) -> str:
    deck, held = view.get("deck", 0), len(me.get("back_row") or [])
    over = f" Your back row then holds {held + 1}, so you discard one to keep 7." if held >= 7 else ""
    return f"You take the top card of the deck ({plural(deck, 'card')} left) into your back row.{over}"


def _ending(view: JSON, names: Sequence[str]) -> str:
    n, left = int(view.get("num_players") or 2), int(view.get("actions_left") or 0)
    unused = f" with {plural(left, 'action')} unused" if left else ""
    if n == 2:
        again = "you draw one more before your next turn"
        return f"Your turn ends{unused}: you draw a card and your opponent plays; {again}."
    after = seat_name((int(view.get("viewer") or 0) + 1) % n, names)
    return f"Your turn ends{unused}: you draw 2 cards, then {after} plays."


# -- the terminal board --------------------------------------------------------------------------


def _label(code: str | None) -> str:
    return "??" if code is None else cards.label(code) if code in cards.POWER else str(code)


def _entity(entity: list[str | None]) -> str:
    return "+".join(_label(c) for c in entity)


def board_text(view: JSON, names: Sequence[str]) -> str:
    """An Omphala view as a few lines of text: the deck, each seat's rows, the last move, the log."""
    st = status(view, names)
    phase, viewer = view.get("phase"), view.get("viewer")
    head = f"Omphala · turn {view['turn']} · {st.headline}" if phase == "play" else f"Omphala · {st.headline}"
    lines = [f"== {head} =="]
    if st.prompt:
        lines.append(st.prompt)
    discard = view.get("discard") or []
    top = f" (top {_label(discard[-1])})" if discard else ""
    lines.append(f"Deck {view.get('deck', 0)} · discard pile {len(discard)}{top}")
    to_act = view.get("to_act") or []
    for p in view.get("players") or []:
        seat = p["seat"]
        you = " (you)" if seat == viewer else ""
        mark = " ◀" if seat in to_act else ""
        state = "" if phase != "choose" else (" · chosen" if p.get("chosen") else " · choosing")
        lines.append(f"{seat_name(seat, names)}{you}: {plural(p['cards'], 'card')} in front{state}{mark}")
        front = " ".join(f"[{_entity(e['cards'])}]" for e in p["front_row"]) or "—"
        lines.append(f"    front: {front}")
        if p.get("back_row") is not None:
            lines.append(f"    back:  {'  '.join(_entity(e) for e in p['back_row']) or '—'}")
        if p.get("hand"):
            lines.append(f"    hand:  {' '.join(_label(c) for c in p['hand'])}")  # seven fit in 36 columns
    if view.get("last"):
        lines.append(f"Last: {seat_refs(view['last']['text'], names)}")
    if view.get("log"):
        lines.append("Log:")
        lines += [f"  · {seat_refs(t, names)}" for t in view["log"]]
    if view.get("result"):
        lines.append(f"Result: {result_line(view, names)}.")
    return "\n".join(lines)


# -- cards on the table --------------------------------------------------------------------------


def _row_card(entity: list[str | None], where: str, at: str = "", face_down: bool = False) -> list[Seen]:
    """The cards of one row card that the view shows, the card then its modifier, each with how it stands:
    its position `at` ("front card 2"), face down, the modifier and the power with it."""
    base, mod = entity[0], entity[1] if len(entity) > 1 else None
    power = f": power {cards.power(base) + cards.power(mod)}" if base and mod else ""
    seen = []
    if base is not None:
        words = [at, "face down" if face_down else ""]
        if mod is not None:
            words.append(f"{'enhanced' if cards.suit(mod) == 'H' else 'shielded'} with {_label(mod)}{power}")
        seen.append(Seen(base, where, " · ".join(w for w in words if w)))
    if mod is not None:
        verb = "enhancing" if cards.suit(mod) == "H" else "shielding"
        what = f"{verb} {_label(base)}{power}" if base is not None else f"{verb} a face-down card"
        seen.append(Seen(mod, where, f"{at} · {what}" if at else what))
    return seen


def on_table(view: JSON, names: Sequence[str]) -> list[Seen]:
    """Every card the view shows: your hand, each seat's front and back rows (yours first), the discard
    pile's top and the card just played."""
    viewer, over = view.get("viewer"), view.get("phase") == "over"
    # Only the two cards each seat chose at the start are secret (RULINGS 11); they hold uids 1 to 2n.
    chosen = 2 * int(view.get("num_players") or 0)
    seen: list[Seen] = []
    for p, whose in viewer_first(view, names):
        own = p["seat"] == viewer
        if own:
            seen += [Seen(c, "Your hand", mine=True) for c in p.get("hand") or []]
        for i, e in enumerate(p["front_row"], 1):
            face_down = own and not over and e["id"] <= chosen
            seen += _row_card(e["cards"], whose + "front row", f"front card {i}", face_down)
        for e in p.get("back_row") or []:
            seen += _row_card(e, whose + "back row")
    discard = view.get("discard") or []
    if discard:
        seen.append(Seen(discard[-1], "Discard pile (top)", plural(len(discard), "card") + " in the pile"))
    last = view.get("last") or {}
    card = last.get("card")
    if card in cards.POWER and all(s.card != card for s in seen):
        seen.append(Seen(card, "Just played", shorten(seat_refs(str(last.get("text", "")), names), 89)))
    return seen


# -- the table for a listener (engine/table/describe.py) ---------------------------------------------------


def _said(entity: list[str | None], face_down: bool = False) -> str:
    """A row card by name: "a face-down card", "8 of Clubs shielded with 10 of Diamonds, power 18"; one the
    viewer sees but the others do not says so."""
    base, mod = entity[0], entity[1] if len(entity) > 1 else None
    head = "a face-down card" if base is None else card_name(base) + (" (face down)" if face_down else "")
    if mod is None:
        return head
    power = f", power {cards.power(base) + cards.power(mod)}" if base is not None else ""
    return f"{head} {'enhanced' if cards.suit(mod) == 'H' else 'shielded'} with {card_name(mod)}{power}"


def _rows(view: JSON, names: Sequence[str], p: JSON) -> list[str]:
    """One seat's rows in words: the front row card by card, the back row, the cards still in hand."""
    over = view.get("phase") == "over"
    chosen = 2 * int(view.get("num_players") or 0)  # the secret cards hold uids 1 to 2n (RULINGS 11)
    own = p["seat"] == view.get("viewer")
    who = "Your" if own else f"{seat_name(p['seat'], names)}'s"
    front = [_said(e["cards"], own and not over and e["id"] <= chosen) for e in p["front_row"]]
    lines = [f"{who} front row, {plural(len(front), 'card')}: {'; '.join(front) or 'empty'}"]
    if p.get("back_row") is not None:
        lines.append(f"{who} back row: {'; '.join(_said(e) for e in p['back_row']) or 'empty'}")
    if view.get("phase") == "choose":
        lines.append(
            f"{who} hand: {plural(p.get('hand_size') or 0, 'card')}, "
            + ("chosen" if p.get("chosen") else "choosing")
        )
    return lines


def describe(view: JSON, names: Sequence[str]) -> list[str]:
    """The table for a screen reader (the alt text and the text board): the piles, then every seat's front
    row card by card (face-down ones as such), then the back rows, the viewer's first: a crowded table
    loses back rows before it loses a seat's score cards."""
    discard = view.get("discard") or []
    top = f", top card {card_name(discard[-1])}" if discard else ""
    lines = [f"Deck {plural(view.get('deck', 0), 'card')}, discard pile {plural(len(discard), 'card')}{top}"]
    rows = [_rows(view, names, p) for p, _ in viewer_first(view, names)]
    return lines + [line for i in range(3) for seat in rows for line in seat[i : i + 1]]  # front rows first


def describe_hand(view: JSON, names: Sequence[str]) -> list[str]:
    """What the hand image draws: the hand, the viewer's front row shown to them, their back row, the deck."""
    mine = [p for p in view.get("players") or [] if p["seat"] == view.get("viewer")]
    hand = [card_name(c) for c in (mine[0].get("hand") or [])] if mine else []
    lines = [f"Your hand, {plural(len(hand), 'card')}: {'; '.join(hand)}" if hand else "Your hand: no cards"]
    rows = [x for x in _rows(view, names, mine[0]) if not x.startswith("Your hand")] if mine else []
    return [*lines, *rows, f"Deck {plural(view.get('deck', 0), 'card')}"]
