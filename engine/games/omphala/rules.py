"""Omphala's rules: setup, moves, turn order and the end of the game, as small functions."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Any, ClassVar

from engine import eventlog
from engine.core import JSON, Action, Event, IllegalAction, PlayerId
from engine.core import action as act
from engine.games.omphala.cards import (
    ACTIONS,
    DECK,
    by_rank,
    entity_label,
    entity_power,
    is_red,
    label,
    power,
    suit,
)
from engine.games.omphala.state import Entity, OmphalaState, Seat
from engine.rng import Rng

BACK_ROW_LIMIT = 7
HAND = 7
MAX_RESHUFFLES = 2


def name(seat: int) -> str:
    """How texts name a seat: P1, P2, ..."""
    return f"P{seat + 1}"


class Omphala:
    """Omphala: a game for the people, for 2 to 6 players with one standard deck."""

    id: ClassVar[str] = "omphala"
    title: ClassVar[str] = "Omphala"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    max_actions: ClassVar[int] = 2000
    rules_version: ClassVar[int] = 1

    # -- setup ---------------------------------------------------------------------------------

    def setup(self, num_players: int, seed: int, options: JSON | None = None) -> OmphalaState:
        """Shuffle, deal 7 to everyone; all choose their two face-down cards at once."""
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError(f"Omphala is for 2-6 players, not {num_players}")
        rng = Rng(seed)
        deck = list(DECK)
        rng.shuffle(deck)
        seats = []
        for _ in range(num_players):
            hand = sorted(deck[-HAND:], key=by_rank)
            del deck[-HAND:]
            seats.append(Seat(hand=hand))
        return OmphalaState(num_players=num_players, rng=rng, deck=deck, seats=seats)

    # -- whose move ----------------------------------------------------------------------------

    def to_act(self, s: OmphalaState) -> tuple[PlayerId, ...]:
        """Everyone who has not chosen (choose phase), else the current player; () when over."""
        if s.phase == "choose":
            return tuple(i for i, seat in enumerate(s.seats) if not seat.chosen)
        if s.phase == "over":
            return ()
        return (s.current,)

    def legal_actions(self, s: OmphalaState, player: PlayerId) -> list[Action]:
        """Every legal move of this seat, sorted."""
        if player not in self.to_act(s):
            return []
        if s.phase == "choose":
            hand = s.seats[player].hand
            pairs = [act(player, "choose", (("a", a), ("b", b))) for a, b in combinations(hand, 2)]
            return sorted(pairs)
        if s.pending == "discard":
            codes = sorted(e[0] for e in s.seats[player].back_row)
            return [act(player, "discard", (("c", c),)) for c in codes]
        if s.pending == "reshuffle":
            return [act(player, "keep"), act(player, "reshuffle")]
        return list(_turn_moves(s, player, with_end=True))

    # -- moves ---------------------------------------------------------------------------------

    def apply(self, s: OmphalaState, action: Action) -> list[Event]:
        """Play one move; IllegalAction (state untouched) if it is not legal now."""
        if action not in self._candidates(s, action):
            raise IllegalAction(f"{action.key!r} is not a legal move for {name(action.player)} now")
        events: list[Event] = []
        MOVES[action.kind](s, action, events)
        if s.phase == "play":
            _advance(s, events)
        eventlog.record(s.log, events)
        return events

    def _candidates(self, s: OmphalaState, action: Action) -> list[Action]:
        """The legal moves of the same kind as action (cheaper than all of them)."""
        p = action.player
        if p not in self.to_act(s):
            return []
        if s.phase == "choose" or s.pending:
            return self.legal_actions(s, p)
        return list(_turn_moves(s, p, with_end=True, only=action.kind))

    # -- results and views ---------------------------------------------------------------------

    def returns(self, s: OmphalaState) -> list[float] | None:
        """Winners share the win equally; None until the game is over."""
        if s.result is None:
            return None
        winners = s.result["winners"]
        return [1 / len(winners) if i in winners else 0.0 for i in range(s.num_players)]

    def view(self, s: OmphalaState, viewer: PlayerId | None) -> JSON:
        """What this viewer may see; front rows are revealed to all when the game is over."""
        over = s.phase == "over"
        players = []
        for i, seat in enumerate(s.seats):
            own = viewer == i
            rows_public = s.phase != "choose"
            front = [
                {
                    "cards": [c if (own or over or c not in seat.secret) else None for c in e],
                    "size": len(e),
                }
                for e in seat.front_row
            ]
            players.append(
                {
                    "seat": i,
                    "front_row": front,
                    "back_row": [list(e) for e in seat.back_row] if (rows_public or own) else None,
                    "hand": list(seat.hand) if own and s.phase == "choose" else None,
                    "hand_size": len(seat.hand),
                    "chosen": seat.chosen,
                    "cards": sum(len(e) for e in seat.front_row),
                }
            )
        return {
            "game": self.id,
            "viewer": viewer,
            "num_players": s.num_players,
            "phase": s.phase,
            "turn": s.turn,
            "current": s.current if s.phase == "play" else None,
            "actions_left": s.actions_left if s.phase == "play" else 0,
            "to_act": list(self.to_act(s)),
            "pending": s.pending,
            "deck": len(s.deck),
            "discard": list(s.discard),
            "players": players,
            "last": None if s.last is None else dict(s.last),
            "log": eventlog.visible(s.log, viewer),
            "result": None if s.result is None else dict(s.result),
        }

    def describe(self, s: OmphalaState, action: Action) -> tuple[str, ...]:
        """A menu path: the card first, then what it does, then the target."""
        k = action.kind
        if k == "choose":
            a, b = str(action.arg("a")), str(action.arg("b"))
            return (label(a), f"{label(a)} + {label(b)} face down")
        if k == "draw":
            return ("Draw a card",)
        if k == "end_turn":
            return ("End turn",)
        if k in ("keep", "reshuffle"):
            return ("All red!", "Keep my back row" if k == "keep" else "Shuffle it in and draw 5")
        if k == "discard":
            return ("Discard", self._back_label(s, action.player, str(action.arg("c"))))
        card = str(action.arg("c"))
        me = self._back_label(s, action.player, card)
        if k == "attack":
            q, t = int(action.arg("p")), int(action.arg("t"))
            return (me, "Attack", f"{name(q)} front card {t + 1}")
        if k == "steal":
            q = int(action.arg("p"))
            return (me, "Steal", f"{name(q)}: {self._back_label(s, q, str(action.arg('t')))}")
        if k == "enhance":
            return (me, "Enhance", self._back_label(s, action.player, str(action.arg("t"))))
        return (me, "Shield", f"front card {int(action.arg('t')) + 1}")

    @staticmethod
    def _back_label(s: OmphalaState, seat: int, base: str) -> str:
        entity = _find_back(s.seats[seat], base)
        if entity is None or len(entity) == 1:
            return label(base)
        return f"{entity_label(entity)} ({entity_power(entity)})"

    # -- hidden information --------------------------------------------------------------------

    def determinize(self, s: OmphalaState, observer: PlayerId, seed: int) -> OmphalaState:
        """A copy in which the deck and every card the observer has not seen are dealt anew."""
        d = OmphalaState.from_json(s.to_json())
        slots: list[tuple[list[str], int]] = [(d.deck, i) for i in range(len(d.deck))]
        for i, seat in enumerate(d.seats):
            if i == observer or d.phase == "over":  # at the end every front row is revealed
                continue
            if d.phase == "choose":
                slots += [(seat.hand, j) for j in range(len(seat.hand))]
                for row in (seat.front_row, seat.back_row):
                    slots += [(e, j) for e in row for j in range(len(e))]
            else:
                slots += [(e, j) for e in seat.front_row for j in range(len(e)) if e[j] in seat.secret]
        pool = [row[j] for row, j in slots]
        rng = Rng(seed)
        rng.shuffle(pool)
        renamed = {row[j]: new for (row, j), new in zip(slots, pool, strict=True)}
        for (row, j), new in zip(slots, pool, strict=True):
            row[j] = new
        for i, seat in enumerate(d.seats):
            if i != observer:
                seat.secret = [renamed.get(c, c) for c in seat.secret]
                if d.phase == "choose":
                    seat.hand.sort(key=by_rank)
        d.rng = Rng(seed ^ 0x5EED)
        d.log = eventlog.redacted(d.log, observer)
        return d

    def to_json(self, s: OmphalaState) -> JSON:
        """The state as JSON."""
        return s.to_json()

    def from_json(self, data: JSON) -> OmphalaState:
        """The state from JSON."""
        return OmphalaState.from_json(data)


# -- the moves of a turn -------------------------------------------------------------------------


def _find_back(seat: Seat, base: str) -> Entity | None:
    for e in seat.back_row:
        if e[0] == base:
            return e
    return None


def _turn_moves(s: OmphalaState, p: int, with_end: bool, only: str | None = None) -> Iterator[Action]:
    """The moves of the current player's turn in sorted order (kinds alphabetically)."""
    me = s.seats[p]
    back = sorted(me.back_row)
    others = [q for q in range(s.num_players) if q != p]
    if only in (None, "attack"):
        for e in back:
            if "attack" in ACTIONS[e[0]]:
                for q in others:
                    for t in range(len(s.seats[q].front_row)):
                        yield act(p, "attack", (("c", e[0]), ("p", q), ("t", t)))
    if only in (None, "draw") and s.deck:
        yield act(p, "draw")
    if with_end and only in (None, "end_turn"):
        yield act(p, "end_turn")
    if only in (None, "enhance"):
        for e in back:
            if len(e) == 1 and suit(e[0]) == "H":
                for t in back:
                    if t is not e and len(t) == 1 and suit(t[0]) != "D":
                        yield act(p, "enhance", (("c", e[0]), ("t", t[0])))
    if only in (None, "shield"):
        for e in back:
            if len(e) == 1 and suit(e[0]) == "D":
                for t, f in enumerate(me.front_row):
                    if len(f) == 1:
                        yield act(p, "shield", (("c", e[0]), ("t", t)))
    if only in (None, "steal"):
        for e in back:
            if "steal" in ACTIONS[e[0]]:
                for q in others:
                    for t in sorted(x[0] for x in s.seats[q].back_row):
                        yield act(p, "steal", (("c", e[0]), ("p", q), ("t", t)))


def _say(
    events: list[Event], text: str, visible_to: tuple[int, ...] | None = None, chance: bool = False
) -> None:
    events.append(Event("info", text, visible_to, chance))


def _choose(s: OmphalaState, a: Action, events: list[Event]) -> None:
    seat = s.seats[a.player]
    picks = [str(a.arg("a")), str(a.arg("b"))]
    seat.front_row = [[c] for c in picks]
    seat.secret = list(picks)
    seat.back_row = [[c] for c in seat.hand if c not in picks]
    seat.hand = []
    seat.chosen = True
    _say(events, f"{name(a.player)} has placed two cards face down")
    _say(events, f"You placed {label(picks[0])} and {label(picks[1])} face down", (a.player,), True)
    if all(x.chosen for x in s.seats):
        s.phase = "play"
        _say(events, f"Back rows are revealed. {name(0)} goes first.", None, True)
        _start_turn(s, 0, events, first=True)


def _attack(s: OmphalaState, a: Action, events: list[Event]) -> None:
    me, q, t = s.seats[a.player], int(a.arg("p")), int(a.arg("t"))
    attacker = _find_back(me, str(a.arg("c")))
    assert attacker is not None
    target = s.seats[q].front_row[t]
    hidden = any(c in s.seats[q].secret for c in target)
    win = entity_power(attacker) >= entity_power(target)
    what = f"{name(a.player)} attacks {name(q)}'s front card {t + 1} with {entity_label(attacker)}"
    if win:
        del s.seats[q].front_row[t]
        s.seats[q].secret = [c for c in s.seats[q].secret if c not in target]
        s.discard += target
        _retire(s, a.player, attacker)
        _say(events, f"{what}: destroys {entity_label(target)}", None, hidden)
    else:
        _say(events, f"{what}: it holds", None, hidden)
    _spend(s, a, attacker[0], {"player": q, "zone": "front", "index": t}, win, events[-1].text)


def _steal(s: OmphalaState, a: Action, events: list[Event]) -> None:
    me, q = s.seats[a.player], int(a.arg("p"))
    attacker = _find_back(me, str(a.arg("c")))
    target = _find_back(s.seats[q], str(a.arg("t")))
    assert attacker is not None and target is not None
    index = s.seats[q].back_row.index(target)
    win = entity_power(attacker) >= entity_power(target)
    what = f"{name(a.player)} tries to steal {name(q)}'s {entity_label(target)} with {entity_label(attacker)}"
    if win:
        s.seats[q].back_row.remove(target)
        _retire(s, a.player, attacker)
        me.back_row.append(target)
        _say(events, f"{what}: stolen")
    else:
        _say(events, f"{what}: it fails")
    _spend(s, a, attacker[0], {"player": q, "zone": "back", "index": index}, win, events[-1].text)
    if win:
        _check_all_red(s, a.player)


def _shield(s: OmphalaState, a: Action, events: list[Event]) -> None:
    me, t = s.seats[a.player], int(a.arg("t"))
    diamond = _find_back(me, str(a.arg("c")))
    assert diamond is not None
    me.back_row.remove(diamond)
    me.front_row[t].append(diamond[0])
    s.changed = True
    _say(events, f"{name(a.player)} shields front card {t + 1} with {label(diamond[0])}")
    _spend(s, a, diamond[0], {"player": a.player, "zone": "front", "index": t}, True, events[-1].text)


def _enhance(s: OmphalaState, a: Action, events: list[Event]) -> None:
    me = s.seats[a.player]
    heart, target = _find_back(me, str(a.arg("c"))), _find_back(me, str(a.arg("t")))
    assert heart is not None and target is not None
    me.back_row.remove(heart)
    target.append(heart[0])
    s.changed = True
    index = me.back_row.index(target)
    power_now = entity_power(target)
    _say(events, f"{name(a.player)} enhances {label(target[0])} with {label(heart[0])}: power {power_now}")
    _spend(s, a, heart[0], {"player": a.player, "zone": "back", "index": index}, True, events[-1].text)


def _draw_action(s: OmphalaState, a: Action, events: list[Event]) -> None:
    _spend(s, a, None, None, None, f"{name(a.player)} draws a card")
    s.to_draw += 1


def _end_turn(s: OmphalaState, a: Action, events: list[Event]) -> None:
    s.actions_left = 0
    _say(events, f"{name(a.player)} ends the turn")


def _discard(s: OmphalaState, a: Action, events: list[Event]) -> None:
    me = s.seats[a.player]
    entity = _find_back(me, str(a.arg("c")))
    assert entity is not None
    me.back_row.remove(entity)
    s.discard += entity
    s.pending = None
    _say(events, f"{name(a.player)} discards {entity_label(entity)}")
    _check_all_red(s, a.player)


def _keep(s: OmphalaState, a: Action, events: list[Event]) -> None:
    s.pending = None
    _say(events, f"{name(a.player)} keeps an all-red back row")


def _reshuffle(s: OmphalaState, a: Action, events: list[Event]) -> None:
    me = s.seats[a.player]
    for e in me.back_row:
        s.deck += e
    me.back_row = []
    me.reshuffles += 1
    s.rng.shuffle(s.deck)
    s.pending = None
    s.changed = True
    _say(events, f"{name(a.player)} shuffles an all-red back row into the deck and draws 5", None, True)
    for _ in range(5):
        if s.deck:
            me.back_row.append([s.deck.pop()])


MOVES = {
    "choose": _choose,
    "attack": _attack,
    "steal": _steal,
    "shield": _shield,
    "enhance": _enhance,
    "draw": _draw_action,
    "end_turn": _end_turn,
    "discard": _discard,
    "keep": _keep,
    "reshuffle": _reshuffle,
}


def _retire(s: OmphalaState, p: int, attacker: Entity) -> None:
    """A successful attacker (and any Heart on it) goes face down to the right end of the front row."""
    s.seats[p].back_row.remove(attacker)
    s.seats[p].front_row.append(attacker)
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
    """Seven red cards and no black one in the back row: the player may reshuffle at once."""
    me = s.seats[p]
    full = s.pending is None and len(me.back_row) == BACK_ROW_LIMIT and me.reshuffles < MAX_RESHUFFLES
    if full and all(is_red(c) for e in me.back_row for c in e):
        s.pending = "reshuffle"


# -- turn order ----------------------------------------------------------------------------------


def _start_turn(s: OmphalaState, p: int, events: list[Event], first: bool = False) -> None:
    s.turn += 1
    s.current = p
    s.stage = "pre"
    s.actions_left = 2
    s.changed = False
    s.to_draw = 1 if s.num_players == 2 and not first else 0


def _advance(s: OmphalaState, events: list[Event]) -> None:
    """Run the automatic parts of the turn (draws, its end, the next turn) until someone must decide."""
    while s.pending is None and s.phase == "play":
        p = s.current
        if s.to_draw and s.deck:
            card = s.deck.pop()
            s.to_draw -= 1
            s.seats[p].back_row.append([card])
            s.changed = True
            _say(events, f"{name(p)} draws {label(card)}", None, True)
            if len(s.seats[p].back_row) > BACK_ROW_LIMIT:
                s.pending = "discard"
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
    return next(_turn_moves(s, p, with_end=False), None) is not None


def _finish(s: OmphalaState, events: list[Event]) -> None:
    s.phase = "over"
    s.pending = None
    s.result = score(s.seats)
    winners = ", ".join(name(w) for w in s.result["winners"])
    _say(events, f"The game is over. Winner: {winners}", None, True)


def score(seats: list[Seat]) -> dict[str, Any]:
    """Most front-row cards (a pair is 2); then most total power; then the line-up battle."""
    cards = [sum(len(e) for e in seat.front_row) for seat in seats]
    total = [sum(entity_power(e) for e in seat.front_row) for seat in seats]
    best = [i for i, c in enumerate(cards) if c == max(cards)]
    top = max(total[i] for i in best)
    best = [i for i in best if total[i] == top]
    battle = None
    if len(best) > 1:
        battle = lineup_battle([seats[i].front_row if i in best else [] for i in range(len(seats))])
        most = max(battle[i] for i in best)
        best = [i for i in best if battle[i] == most]
    return {"cards": cards, "power": total, "battle": battle, "winners": best}


def lineup_battle(rows: list[list[Entity]]) -> list[int]:
    """Front rows side by side: at each position the highest power survives, ties all survive."""
    survivors = [0] * len(rows)
    for pos in range(max(len(r) for r in rows)):
        here = {i: entity_power(r[pos]) for i, r in enumerate(rows) if pos < len(r)}
        top = max(here.values())
        for i, pw in here.items():
            if pw == top:
                survivors[i] += 1
    return survivors


__all__ = ["Omphala", "lineup_battle", "name", "power", "score"]
