"""Ophion's presentation (engine/table/present.py): its summary, status lines, the cards, menu order,
the terminal board and the cards on the table. Pure functions over views; nothing here reads a state."""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from typing import Any

from engine.core import JSON, Action
from engine.games.ophion.cards import BASE, CARDS, COMBAT, RULES, Card
from engine.table.describe import side_lines, zone_lines
from engine.table.present import (
    CardEntry,
    Prompt,
    Seen,
    Status,
    asked,
    game_over,
    key_args,
    outcome,
    plural,
    seat_name,
    seat_refs,
    viewer_first,
)

summary = (
    "**Goal:** the most VP after 9 rounds (VP track, eternity tokens worth 10, and each upgrade card in "
    "your slots worth its tier).\n"
    "**Each round:** income (your castle's 1 gold and 1 mana, plus your upgrades), 3 AP (+2 if you "
    "summoned no monster last round), draw 3. Then in turn, one action per AP: **Buy** a card from the "
    "row (its cost plus the slot's surcharge; monsters and upgrades go to one of your 3 upgrade slots, "
    "a monster with a free summon) · **Play** up to 3 action cards, then draw 3/2/2/1 · **Summon** a "
    "monster from your slots for mana onto your attack or defense grid (total size 6 each) · **Pass**. "
    "Converting (2 gold → 1 mana, 3 mana → 1 gold) is free; gold does not last past the round.\n"
    "**Combat:** when nobody has AP left, everyone's attack meets the defense of the player on their "
    "right: attacker higher 3 VP to the attacker, a tie 1 VP each, defense higher 2 VP to the defender.\n"
    "**Tier 2:** once anyone has 10 VP, the row is dealt from the stronger Tier 2 deck."
)
rules = (
    "The full rules are Ophion's rule text; /rules shows Agora's rulings, how it reads the garbled card "
    "table and settles what the text leaves open (engine/games/ophion/RULINGS.md)."
)
shortcuts = {"pass": "p"}

GROUPS = ("Buy", "Play", "Summon", "Convert", "Pass")
KIND_GROUP = {"buy": "Buy", "play": "Play", "summon": "Summon", "eat": "Summon", "convert": "Convert"}
SLOT_REF = re.compile(r"#(\d+)\)")


# -- status --------------------------------------------------------------------------------------


def result_line(view: JSON, names: Sequence[str]) -> str:
    """ "Ada wins with 31 VP", "Ada and Bo share the win with 24 VP"."""
    return outcome(*_winners(view, names), tie="share the win")


def _winners(view: JSON, names: Sequence[str]) -> tuple[list[str], str, str]:
    """The winners' names, no reason, and how they won ("with 31 VP")."""
    result = view.get("result") or {}
    winners = [w for w in result.get("winners") or [] if isinstance(w, int)]
    scores = result.get("scores") or []
    how = f"with {scores[winners[0]]} VP" if winners and winners[0] < len(scores) else ""
    return [seat_name(w, names) for w in winners], "", how


def _score(view: JSON, p: JSON) -> int:
    result = view.get("result") or {}
    final = result.get("scores") or []
    return final[p["seat"]] if p["seat"] < len(final) else p.get("total", 0)


def _vp_line(view: JSON, p: JSON) -> str:
    """A seat's VP as the status counts them: at the end the final score, with the upgrades' points that
    the track does not hold ("50 VP (47 + 3 from upgrades)")."""
    score = _score(view, p)
    ups = (view.get("result") or {}).get("upgrade_points") or []
    extra = ups[p["seat"]] if p["seat"] < len(ups) else 0
    return (
        f"{score} VP ({p['total']} + {extra} from upgrades)"
        if extra and score != p["total"]
        else f"{score} VP"
    )


def status(view: JSON, names: Sequence[str]) -> Status:
    """Headline, one VP line per seat (final scores at the end) and the turn, from any Ophion view."""
    players = view.get("players") or []
    scores = tuple(f"{seat_name(p['seat'], names)}: {_score(view, p)} VP" for p in players)
    if view.get("phase") == "over" or view.get("result"):
        return Status(game_over(*_winners(view, names), tie="share the win"), "", scores, ("over",))
    current = view.get("current")
    rnd = f"round {view.get('round')} of {view.get('rounds')}"
    if not isinstance(current, int):
        return Status(f"Combat · {rnd}", "", scores, ("round", view.get("round"), None))
    ap = next((p.get("ap") for p in players if p.get("seat") == current), None)
    head = f"{seat_name(current, names)} to play"
    if isinstance(ap, int):
        head += f" · {ap} AP left"
    return Status(f"{head} · {rnd}", "", scores, ("round", view.get("round"), current))


def prompt(view: JSON, names: Sequence[str]) -> Prompt:
    """What the viewer is asked to decide (the hand page, the terminal): their turn, or what they wait for."""
    viewer = view.get("viewer")
    ap = next((p.get("ap", 0) for p in view.get("players") or [] if p.get("seat") == viewer), 0)
    return asked(view, status(view, names), "", f"your turn · {ap} AP left · buy, play, summon or pass")


# -- cards ---------------------------------------------------------------------------------------


def _text(c: Card) -> str:
    if c.type == "monster":
        text = (
            f"Bought, it goes to an upgrade slot with one free summon. Summon it for {c.mana} mana onto "
            f"your attack or defense grid (size {c.size} of {RULES['grid_size']})."
        )
        return f"{c.ability}. {text}" if c.ability and not c.ability.startswith("Mana cost") else text
    if c.type == "upgrade":
        what = f"+{c.amount} {c.effect}"
        return (
            f"In an upgrade slot: {what} at once and at the start of every round; "
            f"worth {plural(c.tier, 'VP')} at the end."
        )
    gain = {
        "gold": f"+{c.amount} gold until the end of the round",
        "mana": f"+{c.amount} mana",
        "ap": f"+{c.amount} action point this round",
        "vp": f"+{plural(c.amount, 'VP')}",
    }.get(c.effect, c.ability or c.effect)
    text = f"Play it from your hand: {gain}."
    return text + (" In every starting deck; never sold." if c.tier == 0 else "")


def card_entry(c: Card) -> CardEntry:
    """One card as the catalogue gives it: price and tier, and for a monster its mana, size and fight."""
    stats: tuple[tuple[str, int | str], ...] = (("Cost", c.cost),)
    if c.type == "monster":
        stats += (("Mana", c.mana), ("Size", c.size), ("Attack", c.attack), ("Defense", c.defense))
    stats += (("Tier", c.tier),)
    return CardEntry(id=c.id, name=c.name, type=c.type, stats=stats, text=_text(c), colour=c.type)


_ORDER = {"monster": 0, "upgrade": 1, "action": 2}
_CATALOGUE = [card_entry(c) for c in sorted(BASE.values(), key=lambda c: (_ORDER.get(c.type, 3), c.cost))]


def catalogue() -> list[CardEntry]:
    """Every card, starting-deck cards included: monsters, upgrades, then action cards, cheapest first."""
    return list(_CATALOGUE)


def pack_entries(cards: dict[str, Card]) -> list[CardEntry]:
    """A card pack's cards (engine/packs.py), in the catalogue's order."""
    return [card_entry(c) for c in sorted(cards.values(), key=lambda c: (_ORDER.get(c.type, 3), c.cost))]


def card_name(cid: str | None) -> str:
    """A card's name; "empty" for no card."""
    if cid is None:
        return "empty"
    return CARDS[cid].name if cid in CARDS else str(cid)


# -- menus ---------------------------------------------------------------------------------------


def menu_rank(action: Action, path: tuple[str, ...]) -> tuple[Any, ...]:
    """Buy (the row's order), Play, Summon, Convert, then Pass last."""
    group = path[0] if path and path[0] in GROUPS else KIND_GROUP.get(action.kind, "Pass")
    if action.kind == "pass":
        group = "Pass"
    slot = 0
    if group == "Buy":
        found = SLOT_REF.search(path[1]) if len(path) > 1 else None
        slot = int(found.group(1)) if found else 0
    return (GROUPS.index(group), slot, action.kind == "eat", path)


def skip(view: JSON, actions: list[Action]) -> Action:
    """What a skipped turn plays: a pass, which ends the player's round (RULINGS 24)."""
    return next((a for a in actions if a.kind == "pass"), actions[0])


# -- the terminal board --------------------------------------------------------------------------


def board_text(view: JSON, names: Sequence[str]) -> str:
    """An Ophion view as text: the row with prices, then each player's tracks, upgrades and grids."""

    def named(cids: list[str]) -> str:
        return ", ".join(card_name(c) for c in cids) or "—"

    st = status(view, names)
    viewer, to_act = view.get("viewer"), view.get("to_act") or []
    tier = "" if view.get("result") else f" · tier {view.get('tier')}"
    lines = [f"== Ophion · {st.headline}{tier} =="]
    market = "  ".join(f"{m['name']} ({m['price']}g)" if m else "(empty)" for m in view.get("market") or [])
    lines.append(f"Row: {market or '—'}")
    lines.append(f"Decks: tier 1 {view.get('tier1_size', 0)} · tier 2 {view.get('tier2_size', 0)}")
    for p in view.get("players") or []:
        seat = p["seat"]
        you = " (you)" if seat == viewer else ""
        mark = " ◀" if seat in to_act else (" · passed" if p.get("passed") else "")
        tracks = f"{_vp_line(view, p)} · mana {p['mana']} · gold {p['gold']} · AP {p['ap']}"
        lines.append(f"{seat_name(seat, names)}{you}: {tracks}{mark}")
        lines.append(f"    upgrades: {', '.join(card_name(u) for u in p['upgrades'])}")
        for grid in ("attack", "defense"):
            used = f"{p[grid + '_used']}/{p['grid_capacity']}"
            lines.append(f"    {grid} {p[grid]} ({used}): {named(p[grid + '_grid'])}")
        piles = f"hand {p['hand_size']} · deck {p['deck_size']} · discard {p['discard_size']}"
        lines.append(f"    {piles}" + (f" · holding: {named(p['hand'])}" if p.get("hand") else ""))
    if view.get("last"):
        lines.append(f"Last: {seat_refs(view['last']['text'], names)}")
    if view.get("log"):
        lines.append("Log:")
        lines += [f"  · {seat_refs(t, names)}" for t in view["log"]]
    result = view.get("result")
    if result:
        lines.append(f"Result: {result_line(view, names)}.")
        final = result.get("scores") or []
        ups = result.get("upgrade_points") or []
        parts = [
            f"{seat_name(i, names)} {v} VP" + (f" ({ups[i]} from upgrades)" if i < len(ups) else "")
            for i, v in enumerate(final)
        ]
        if parts:
            lines.append(f"    {' · '.join(parts)}")
    return "\n".join(lines)


# -- cards on the table --------------------------------------------------------------------------


def _words(*parts: str) -> str:
    """The parts that say something, joined by " · "."""
    return " · ".join(w for w in parts if w)


def _printed(cid: str) -> str:
    """What a card's face says it does, in short: a monster's fight, an upgrade's gift ("" for an action)."""
    c = CARDS[cid]
    if c.type == "monster":
        return f"Attack {c.attack} · Defense {c.defense} · Size {c.size}"
    return f"+{c.amount} {c.effect} every round" if c.type == "upgrade" else ""


def _in_slot(cid: str) -> str:
    """A card in an upgrade slot: what it does, a monster's summoning cost, and its worth at the end."""
    c = CARDS[cid]
    summon = f"summon for {c.mana} mana" if c.type == "monster" else ""
    return _words(_printed(cid), summon, f"worth {c.tier} VP")


def _on_grid(p: JSON, grid: str, cid: str) -> str:
    """A monster on a grid: its fight, and the grid's total when a Dragon's meal adds to it this round."""
    bonus = p[grid] - sum(getattr(CARDS[m], grid) for m in p[f"{grid}_grid"])
    return _words(_printed(cid), f"grid {grid} {p[grid]} (+{bonus} from a Dragon)" if bonus else "")


def on_table(view: JSON, names: Sequence[str]) -> list[Seen]:
    """Every card the view shows: your hand, each seat's upgrade slots, grids, cards played this round and
    discard pile's top (yours first), then the market row and the last card discarded from it."""
    viewer = view.get("viewer")
    seen: list[Seen] = []
    for p, whose in viewer_first(view, names):
        own = p["seat"] == viewer
        if own:
            seen += [Seen(c, "Your hand", mine=True) for c in p.get("hand") or []]
        for c in filter(None, p.get("upgrades") or []):
            seen.append(Seen(c, whose + "upgrade slots", _in_slot(c)))
        for grid in ("attack", "defense"):
            seen += [
                Seen(m, f"{whose}{grid} grid", _on_grid(p, grid, m)) for m in p.get(f"{grid}_grid") or []
            ]
        seen += [Seen(c, whose + "cards played this round") for c in p.get("played") or []]
        if p.get("discard"):
            seen.append(Seen(p["discard"][-1], whose + "discard pile (top)", _printed(p["discard"][-1])))
    for m in filter(None, view.get("market") or []):
        seen.append(Seen(m["card"], "Market row", _words(f"Costs {m['price']} gold", _printed(m["card"]))))
    gone = view.get("market_discard") or []
    if gone:
        seen.append(
            Seen(gone[-1], "Discarded from the row (top)", _words(_printed(gone[-1]), "out of the game"))
        )
    return seen


# -- the table for a listener (engine/table/describe.py) ---------------------------------------------------

_UNDRAWN = ("cards played this round", "discard pile (top)", "Discarded from the row")  # not on the board


def _side(view: JSON, names: Sequence[str], p: JSON, whose: str) -> list[str]:
    """A seat's tracks, grids' strength and piles in words (its VP is in the status): "Ada: mana 4, gold 1,
    2 AP, passed; attack 0 (0 of 6 used), defense 2 (2 of 6 used); hand 4 cards, deck 5, discard 0"."""
    who = "You" if whose == "Your " else seat_name(p["seat"], names)
    passed = ", passed" if p.get("passed") else ""
    grids = ", ".join(
        f"{grid} {p[grid]} ({p[grid + '_used']} of {p['grid_capacity']} used)"
        for grid in ("attack", "defense")
    )
    piles = f"hand {plural(p['hand_size'], 'card')}, deck {p['deck_size']}, discard {p['discard_size']}"
    return [f"{who}: mana {p['mana']}, gold {p['gold']}, {p['ap']} AP{passed}; {grids}; {piles}"]


def describe(view: JSON, names: Sequence[str]) -> list[str]:
    """The table for a screen reader (the alt text and the text board): each seat's tracks, grids and
    piles, the viewer's first; the market row with its prices; then the cards in each seat's upgrade slots
    and grids."""
    decks = f"Decks: tier 1 {view.get('tier1_size', 0)} cards, tier 2 {view.get('tier2_size', 0)} cards"

    def head(p: JSON, whose: str) -> list[str]:
        return _side(view, names, p, whose)

    me = sys.modules[__name__]
    keep = lambda where: not any(x in where for x in _UNDRAWN) and where != "Market row"  # noqa: E731
    market = zone_lines(me, view, names, lambda where: where == "Market row")
    lines = side_lines(me, view, names, head, keep)
    seats = len(view.get("players") or [])
    return [*lines[:seats], *market, decks, *lines[seats:]]  # the row before the cards in play


def describe_hand(view: JSON, names: Sequence[str]) -> list[str]:
    """What the hand image draws: the hand with each card's cost, the cards played this round, the
    viewer's own board."""
    mine = next((p for p in view.get("players") or [] if p["seat"] == view.get("viewer")), None)
    if mine is None:
        return []
    hand = list(mine.get("hand") or [])
    said = [
        f"{CARDS[c].name} ({plural(hand.count(c), 'copy', 'copies')}, costs {CARDS[c].cost} gold)"
        if hand.count(c) > 1
        else f"{CARDS[c].name} (costs {CARDS[c].cost} gold)"
        for c in dict.fromkeys(hand)
    ]
    lines = [f"Your hand, {plural(len(hand), 'card')}: {'; '.join(said)}" if hand else "Your hand: no cards"]
    if mine.get("played"):
        lines.append("Played this round: " + "; ".join(CARDS[c].name for c in mine["played"]))
    own = lambda where: where.startswith("Your ") and not any(x in where for x in _UNDRAWN)  # noqa: E731
    return [*lines, *_side(view, names, mine, "Your "), *zone_lines(sys.modules[__name__], view, names, own)]


# -- what a move does (engine/table/present.py's `explain`) -------------------------------------------

_GRID = {"a": "attack", "d": "defense"}
_GAIN_WORDS = {"gold": "gold for this round", "mana": "mana", "ap": "AP", "vp": "VP"}


def _gains(cards: Sequence[str]) -> str:
    """What playing these cards gives, totalled by kind: "+3 gold for this round and +1 VP"."""
    totals: dict[str, int] = {}
    for c in cards:
        totals[CARDS[c].effect] = totals.get(CARDS[c].effect, 0) + CARDS[c].amount
    return " and ".join(f"+{n} {_GAIN_WORDS.get(e, e)}" for e, n in totals.items())


def _fight(attack: int, defense: int, attacker: str, defender: str) -> str:
    """One attack's result by the VP table: "you win 3 VP", "1 VP each", "Bo gets 2 VP"."""
    if attack > defense:
        return f"{attacker} {'win' if attacker == 'you' else 'wins'} {COMBAT['attacker_wins']} VP"
    if attack == defense:
        return f"{COMBAT['tie']} VP each"
    return f"{defender} {'get' if defender == 'you' else 'gets'} {COMBAT['defender_wins']} VP"


def _combat_now(view: JSON, me: JSON, names: Sequence[str], last: bool) -> str:
    """The combat that follows when this is the round's last AP move ("" while anyone else has AP): your
    attack against the defense of the player on your right, and the attack on you from your left."""
    players = view.get("players") or []
    n, seat = len(players), me["seat"]
    if not last or any(p["ap"] > 0 for p in players if p["seat"] != seat):
        return ""
    right, left = players[(seat - 1) % n], players[(seat + 1) % n]
    rname, lname = seat_name(right["seat"], names), seat_name(left["seat"], names)
    mine = f"your attack {me['attack']} against {rname}'s defense {right['defense']}"
    theirs = f"{lname}'s attack {left['attack']} against your defense {me['defense']}"
    return (
        f"Nobody else has AP left, so combat follows: {mine} "
        f"({_fight(me['attack'], right['defense'], 'you', rname)}), and {theirs} "
        f"({_fight(left['attack'], me['defense'], lname, 'you')})."
    )


def _row_after(view: JSON, i: int) -> str:
    """What a purchase from row place i does to the row: the last card discarded, the rest sliding, the
    refill from the current tier's deck (whose cards nobody knows)."""
    market = view.get("market") or []
    last = max((k for k, m in enumerate(market) if m is not None), default=i)
    gone = f"the row's last card, {market[last]['name']}, is discarded, " if last != i else ""
    tier = view.get("tier", 1)
    refill = f"refilled from the Tier {tier} deck"
    if not view.get(f"tier{tier}_size", 0):
        refill = f"left empty (the Tier {tier} deck is out)"
    return f"Then {gone}the other cards slide toward #1 and the places at the deck's end are {refill}."


def _buy(view: JSON, me: JSON, args: dict[str, str]) -> list[str]:
    """A purchase: its price, where the card goes (the discard pile, or an upgrade slot with a monster's
    free summon), and what the row does."""
    market = view.get("market") or []
    i = next((k for k, m in enumerate(market) if m is not None and str(m["uid"]) == args.get("c")), None)
    if i is None:
        return []
    m = market[i]
    c = CARDS[m["card"]]
    extra = f" ({c.cost} + {m['surcharge']} for its place #{i + 1})" if m["surcharge"] else ""
    paid = f"You pay {m['price']} of your {me['gold']} gold{extra}"
    if c.type == "action":
        return [
            f"{paid}; the {c.name} goes to your discard pile, your next deck.",
            _row_after(view, i),
        ]
    slot = int(args.get("s", "0"))
    old = (me.get("upgrades") or [None] * (slot + 1))[slot]
    place = f"your upgrade slot {slot + 1}"
    if old:
        place += f" in place of your {card_name(old)}, which leaves the game"
    if c.type == "upgrade":
        gives = f"+{c.amount} {c.effect} now and every round"
        return [f"{paid} and put the {c.name} in {place}: {gives}.", _row_after(view, i)]
    g = args.get("g", "-")
    summon = f"summon none now (later, for {c.mana} mana)"
    if g in _GRID:
        grid = _GRID[g]
        now = f"{grid} {me[grid]} → {me[grid] + getattr(c, grid)}"
        summon = f"summon one {c.name} free onto your {grid} grid ({now})"
    return [f"{paid}, put the {c.name} in {place} and {summon}.", _row_after(view, i)]


def _play(me: JSON, args: dict[str, str]) -> str:
    """Playing 0 to 3 cards: what they give, and how many cards are drawn after."""
    cards = [] if args.get("c", "-") == "-" else args["c"].split("+")
    draws = RULES["draw_after_play"][len(cards)]
    left = me["deck_size"] + me["discard_size"]
    draw = plural(min(draws, left), "card") + ("" if left >= draws else " (all you have left to draw)")
    what = (
        f"You play {', '.join(CARDS[c].name for c in cards)}: {_gains(cards)}"
        if cards
        else "You play no card"
    )
    return f"{what}; then you draw {draw}."


def _summon(me: JSON, args: dict[str, str]) -> str:
    """A summon for mana: the grid's new total and the room used."""
    c, grid = CARDS[args["m"]], _GRID[args["g"]]
    now = f"{grid} {me[grid]} → {me[grid] + getattr(c, grid)}"
    used = f"size {me[f'{grid}_used'] + c.size} of {me['grid_capacity']} used"
    paid = f"You pay {c.mana} of your {me['mana']} mana"
    return f"{paid} and put a {c.name} on your {grid} grid to stay: {now}, {used}."


def _eat(view: JSON, args: dict[str, str], names: Sequence[str]) -> str:
    """A Dragon's meal: the Goblin leaves the game, +2 attack or defense until the round ends."""
    q, grid, bonus = int(args["p"]), _GRID[args["g"]], _GRID[args["b"]]
    whose = "your own" if q == view.get("viewer") else f"{seat_name(q, names)}'s"
    return (
        f"Your Dragon eats a Goblin from {whose} {grid} grid, which leaves the game, and you get +2 {bonus} "
        "until the end of the round, for no AP."
    )


def _convert(me: JSON, args: dict[str, str]) -> str:
    """A conversion by the convert table, for no AP."""
    if args.get("to") == "mana":
        mana = f"mana {me['mana']} → {me['mana'] + 1}"
        return (
            f"You turn 2 of your {me['gold']} gold into 1 mana ({mana}), for no AP: mana is kept from round "
            "to round, gold is lost at the end of the round."
        )
    return f"You turn 3 of your {me['mana']} mana into 1 gold to spend this round, for no AP."


def _pass(view: JSON, me: JSON) -> str:
    """A pass: the AP left are lost; the first to pass acts last next round."""
    first = not any(p.get("passed") for p in view.get("players") or [])
    later = ", and as the first to pass you act last next round" if first else ""
    lost = f"your {me['ap']} AP left {'is' if me['ap'] == 1 else 'are'} lost"
    return f"You end your round now: {lost}{later}."


def explain(view: JSON, key: str, path: tuple[str, ...], names: Sequence[str]) -> list[str]:
    """What a move of the viewer will do now, in a sentence or two, from their own view: what it costs and
    gives, where a bought card goes and what the row does, a grid's new total, and the combat that follows
    the round's last AP."""
    me = next((p for p in view.get("players") or [] if p["seat"] == view.get("viewer")), None)
    if me is None:
        return []
    kind, args = key.partition(":")[0], key_args(key)
    lines: list[str] = []
    if kind == "buy":
        lines = _buy(view, me, args)
    elif kind == "play":
        lines = [_play(me, args)]
    elif kind == "summon":
        lines = [_summon(me, args)]
    elif kind == "eat":
        lines = [_eat(view, args, names)]
    elif kind == "convert":
        lines = [_convert(me, args)]
    elif kind == "pass":
        lines = [_pass(view, me)]
    more = kind == "play" and any(CARDS[c].effect == "ap" for c in args.get("c", "").split("+") if c in CARDS)
    ends = kind == "pass" or (kind in {"buy", "play", "summon"} and me["ap"] == 1 and not more)
    fight = _combat_now(view, _summoned(view, me, kind, args), names, ends)
    if fight and kind == "buy":
        lines = lines[:1]  # the round ends: the combat matters more than the row
    return [line for line in (*lines, fight) if line]


def _summoned(view: JSON, me: JSON, kind: str, args: dict[str, str]) -> JSON:
    """The viewer's side after this move's summon (for the combat that follows it): a grid's total raised by
    the monster summoned, for mana or free with a purchase."""
    grid = _GRID.get(args.get("g", "-"))
    monster = args.get("m") if kind == "summon" else None
    if kind == "buy":
        bought = [m for m in view.get("market") or [] if m is not None and str(m["uid"]) == args.get("c")]
        monster = bought[0]["card"] if bought else None
    if grid is None or monster is None or monster not in CARDS:
        return me
    return {**me, grid: me[grid] + getattr(CARDS[monster], grid)}
