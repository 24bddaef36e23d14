"""Omphala's moves and turn order: what each action does, and the automatic parts of a turn."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.core import Action, Event
from engine.core import action as act
from engine.games.omphala.cards import ACTIONS, entity_label, entity_power, is_red, label
from engine.games.omphala.scoring import score
from engine.games.omphala.state import Entity, OmphalaState, Seat
from engine.table.base import Moves, TableGame
from engine.table.decisions import Decision, push
from engine.table.events import emit
from engine.table.zones import draw, shuffle_in

BACK_ROW_LIMIT = 7
MAX_RESHUFFLES = 2
RESHUFFLE_DRAW = 5

move: Moves[TableGame[OmphalaState], OmphalaState] = Moves()  # every move below, by kind


def name(seat: int) -> str:
    """How texts name a seat: P1, P2, ..."""
    return f"P{seat + 1}"


# -- the moves of a turn -------------------------------------------------------------------------


def find_back(seat: Seat, base: str) -> Entity | None:
    """The back-row card (with its modifier) whose base card is `base`."""
    for e in seat.back_row:
        if e[0] == base:
            return e
    return None


def turn_moves(s: OmphalaState, p: int, with_end: bool, only: str | None = None) -> Iterator[Action]:
    """The moves of the current player's turn in sorted order (kinds alphabetically). The hot loop of
    every search: suits are read as the code's last letter rather than through a call."""
    me = s.seats[p]
    back = sorted(me.back_row)
    others = [q for q in range(s.num_players) if q != p]
    if only is None or only == "attack":
        for e in back:
            if "attack" in ACTIONS[e[0]]:
                for q in others:
                    for uid in s.seats[q].front_ids:
                        yield act(p, "attack", (("c", e[0]), ("p", q), ("t", uid)))
    if (only is None or only == "draw") and s.deck:
        yield act(p, "draw")
    if with_end and (only is None or only == "end_turn"):
        yield act(p, "end_turn")
    lone = [e[0] for e in back if len(e) == 1]
    if only is None or only == "enhance":
        for c in lone:
            if c[-1] == "H":  # a lone Heart enhances a lone card that is not a Diamond
                for t in lone:
                    if t is not c and t[-1] != "D":
                        yield act(p, "enhance", (("c", c), ("t", t)))
    if only is None or only == "shield":
        for c in lone:
            if c[-1] == "D":  # a lone Diamond shields a lone front-row card
                for uid, f in zip(me.front_ids, me.front_row, strict=True):
                    if len(f) == 1:
                        yield act(p, "shield", (("c", c), ("t", uid)))
    if only is None or only == "steal":
        for e in back:
            if "steal" in ACTIONS[e[0]]:
                for q in others:
                    for t in sorted(x[0] for x in s.seats[q].back_row):
                        yield act(p, "steal", (("c", e[0]), ("p", q), ("t", t)))


def front_index(seat: Seat, uid: int) -> int:
    """The position of the front-row entity with this uid."""
    return seat.front_ids.index(uid)


def _to_front(s: OmphalaState, seat: Seat, entity: Entity) -> None:
    """An entity goes face down to the right end of a front row, with a new uid."""
    s.next_uid += 1
    seat.front_row.append(entity)
    seat.front_ids.append(s.next_uid)


@move("choose")
def _choose(game: TableGame[OmphalaState], s: OmphalaState, a: Action, events: list[Event]) -> None:
    seat = s.seats[a.player]
    picks = [str(a.arg("a")), str(a.arg("b"))]  # left, right: in the order the player places them
    for c in picks:  # the left card gets the lower uid: position and uid say only what the player chose
        _to_front(s, seat, [c])
    seat.secret = list(picks)
    seat.back_row = [[c] for c in seat.hand if c not in picks]
    seat.hand = []
    emit(events, "chose", f"{name(a.player)} has placed two cards face down", seat=a.player)
    text = f"You placed {label(picks[0])} (left) and {label(picks[1])} (right) face down"
    emit(events, "chose_secretly", text, to=(a.player,), chance=True, seat=a.player)
    if not s.decisions:  # everyone has chosen
        s.phase = "play"
        emit(events, "revealed", f"Back rows are revealed. {name(0)} goes first.", chance=True)
        _start_turn(s, 0, events, first=True)


@move("attack")
def _attack(game: TableGame[OmphalaState], s: OmphalaState, a: Action, events: list[Event]) -> None:
    me, q, uid = s.seats[a.player], int(a.arg("p")), int(a.arg("t"))
    attacker = find_back(me, str(a.arg("c")))
    assert attacker is not None
    t = front_index(s.seats[q], uid)
    target = s.seats[q].front_row[t]
    hidden = any(c in s.seats[q].secret for c in target)
    win = entity_power(attacker) >= entity_power(target)
    what = f"{name(a.player)} attacks {name(q)}'s front card {t + 1} with {entity_label(attacker)}"
    if win:
        del s.seats[q].front_row[t]
        del s.seats[q].front_ids[t]
        s.seats[q].secret = [c for c in s.seats[q].secret if c not in target]
        s.discard += target
        _retire(s, a.player, attacker)
        text = f"{what}: destroys {entity_label(target)}"
        emit(events, "destroyed", text, chance=hidden, seat=a.player, target=q, card=attacker[0])
    else:
        emit(events, "held", f"{what}: it holds", chance=hidden, seat=a.player, target=q, card=attacker[0])
    _spend(s, a, attacker[0], {"player": q, "zone": "front", "index": t}, win, events[-1].text)


@move("steal")
def _steal(game: TableGame[OmphalaState], s: OmphalaState, a: Action, events: list[Event]) -> None:
    me, q = s.seats[a.player], int(a.arg("p"))
    attacker = find_back(me, str(a.arg("c")))
    target = find_back(s.seats[q], str(a.arg("t")))
    assert attacker is not None and target is not None
    index = s.seats[q].back_row.index(target)
    win = entity_power(attacker) >= entity_power(target)
    what = f"{name(a.player)} tries to steal {name(q)}'s {entity_label(target)} with {entity_label(attacker)}"
    if win:
        s.seats[q].back_row.remove(target)
        _retire(s, a.player, attacker)
        me.back_row.append(target)
        emit(events, "stole", f"{what}: stolen", seat=a.player, target=q, card=target[0])
    else:
        emit(events, "steal_failed", f"{what}: it fails", seat=a.player, target=q, card=target[0])
    _spend(s, a, attacker[0], {"player": q, "zone": "back", "index": index}, win, events[-1].text)
    if win:
        _check_all_red(s, a.player)


@move("shield")
def _shield(game: TableGame[OmphalaState], s: OmphalaState, a: Action, events: list[Event]) -> None:
    me = s.seats[a.player]
    t = front_index(me, int(a.arg("t")))
    diamond = find_back(me, str(a.arg("c")))
    assert diamond is not None
    me.back_row.remove(diamond)
    me.front_row[t].append(diamond[0])
    s.changed = True
    text = f"{name(a.player)} shields front card {t + 1} with {label(diamond[0])}"
    emit(events, "shielded", text, seat=a.player, card=diamond[0])
    _spend(s, a, diamond[0], {"player": a.player, "zone": "front", "index": t}, True, events[-1].text)


@move("enhance")
def _enhance(game: TableGame[OmphalaState], s: OmphalaState, a: Action, events: list[Event]) -> None:
    me = s.seats[a.player]
    heart, target = find_back(me, str(a.arg("c"))), find_back(me, str(a.arg("t")))
    assert heart is not None and target is not None
    me.back_row.remove(heart)
    target.append(heart[0])
    s.changed = True
    index = me.back_row.index(target)
    power_now = entity_power(target)
    text = f"{name(a.player)} enhances {label(target[0])} with {label(heart[0])}: power {power_now}"
    emit(events, "enhanced", text, seat=a.player, card=heart[0], target=target[0])
    _spend(s, a, heart[0], {"player": a.player, "zone": "back", "index": index}, True, events[-1].text)


@move("draw")
def _draw_action(game: TableGame[OmphalaState], s: OmphalaState, a: Action, events: list[Event]) -> None:
    _spend(s, a, None, None, None, f"{name(a.player)} draws a card")
    s.to_draw += 1


@move("end_turn")
def _end_turn(game: TableGame[OmphalaState], s: OmphalaState, a: Action, events: list[Event]) -> None:
    s.actions_left = 0
    emit(events, "ended_turn", f"{name(a.player)} ends the turn", seat=a.player)


@move("discard")
def _discard(game: TableGame[OmphalaState], s: OmphalaState, a: Action, events: list[Event]) -> None:
    me = s.seats[a.player]
    entity = find_back(me, str(a.arg("c")))
    assert entity is not None
    me.back_row.remove(entity)
    s.discard += entity
    emit(
        events,
        "discarded",
        f"{name(a.player)} discards {entity_label(entity)}",
        seat=a.player,
        card=entity[0],
    )
    _check_all_red(s, a.player)


@move("pass")  # declining the optional all-red reshuffle
def _keep(game: TableGame[OmphalaState], s: OmphalaState, a: Action, events: list[Event]) -> None:
    emit(events, "kept", f"{name(a.player)} keeps an all-red back row", seat=a.player)


@move("reshuffle")
def _reshuffle(game: TableGame[OmphalaState], s: OmphalaState, a: Action, events: list[Event]) -> None:
    me = s.seats[a.player]
    shuffle_in(s.deck, [c for e in me.back_row for c in e], s.rng)
    me.back_row = []
    me.reshuffles += 1
    s.changed = True
    text = f"{name(a.player)} shuffles an all-red back row into the deck and draws 5"
    emit(events, "reshuffled", text, chance=True, seat=a.player)
    me.back_row = [[c] for c in draw(s.deck, RESHUFFLE_DRAW)[0]]


def _retire(s: OmphalaState, p: int, attacker: Entity) -> None:
    """A successful attacker (and any Heart on it) goes face down to the right end of the front row."""
    s.seats[p].back_row.remove(attacker)
    _to_front(s, s.seats[p], attacker)
    s.changed = True


def _spend(
    s: OmphalaState, a: Action, card: str | None, target: Any, success: bool | None, text: str
) -> None:
    """One of the turn's two actions is used; remember it for the board's highlight."""
    s.actions_left -= 1
    s.last = {
        "player": a.player,
        "kind": a.kind,
        "text": text,
        "card": card,
        "target": target,
        "success": success,
    }


def _check_all_red(s: OmphalaState, p: int) -> None:
    """Seven red cards and no black one in the back row: the player may reshuffle at once. A pair counts
    as one card, as everywhere in the back row (RULINGS 14)."""
    me = s.seats[p]
    full = not s.decisions and len(me.back_row) == BACK_ROW_LIMIT and me.reshuffles < MAX_RESHUFFLES
    if full and all(is_red(c) for e in me.back_row for c in e):
        push(s.decisions, Decision("reshuffle", [p], optional=True, source="all red"))


# -- turn order ----------------------------------------------------------------------------------


def _start_turn(s: OmphalaState, p: int, events: list[Event], first: bool = False) -> None:
    s.turn += 1
    s.current = p
    s.stage = "pre"
    s.actions_left = 2
    s.changed = False
    s.to_draw = 1 if s.num_players == 2 and not first else 0


def advance(s: OmphalaState, events: list[Event]) -> None:
    """Run the automatic parts of the turn (draws, its end, the next turn) until someone must decide."""
    while not s.decisions and s.phase == "play":
        p = s.current
        if s.to_draw and s.deck:
            card = s.deck.pop()  # the top card (zones.draw for more than one)
            s.to_draw -= 1
            s.seats[p].back_row.append([card])
            s.changed = True
            emit(events, "drew", f"{name(p)} draws {label(card)}", chance=True, seat=p, card=card)
            if len(s.seats[p].back_row) > BACK_ROW_LIMIT:
                push(s.decisions, Decision("discard", [p], source="back-row limit"))
            else:
                _check_all_red(s, p)
            continue
        s.to_draw = 0
        if s.stage == "pre":
            s.stage = "act"
        if s.stage == "act":
            if s.actions_left > 0:
                return
            s.stage = "post"
            s.to_draw = 1 if s.num_players == 2 else 2
            continue
        _end_of_turn(s, events)


def _end_of_turn(s: OmphalaState, events: list[Event]) -> None:
    """With the deck empty, the game ends when nobody can move or a full round passes with no change."""
    if not s.deck:
        s.quiet_turns = 0 if s.changed else s.quiet_turns + 1
        if s.quiet_turns >= s.num_players or not any(_can_move(s, q) for q in range(s.num_players)):
            _finish(s, events)
            return
    _start_turn(s, (s.current + 1) % s.num_players, events)


def _can_move(s: OmphalaState, p: int) -> bool:
    return next(turn_moves(s, p, with_end=False), None) is not None


def _finish(s: OmphalaState, events: list[Event]) -> None:
    s.phase = "over"
    s.decisions.clear()
    s.result = score(s.seats)
    winners = ", ".join(name(w) for w in s.result["winners"])
    emit(events, "game_over", f"The game is over. Winner: {winners}", chance=True, winners=winners)
