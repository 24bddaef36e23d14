"""Ophion's rules: setup, the market, the four actions, combat, rounds and the end, as small functions."""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement
from typing import Any, ClassVar

from engine import eventlog, packs
from engine.core import JSON, Action, Event, PlayerId
from engine.core import action as act
from engine.games.ophion.cards import (
    CARDS,
    COMBAT,
    RULES,
    STARTING_DECK,
    add_pack,
    card_name,
    surcharges,
    tier_deck,
    upgrade_value,
)
from engine.games.ophion.state import OphionState, Player
from engine.games.ophion.view import MarketCardView, OphionView, PlayerView
from engine.rng import Rng
from engine.table import zones
from engine.table.base import Moves, Slot, TableGame, slots
from engine.table.decisions import Decision
from engine.table.events import emit
from engine.table.modifiers import ROUND, Modifier, expire, total
from engine.table.present import article, plural
from engine.table.zones import Instance

MAX_PLAYED = 3  # one Play action plays up to three cards (RULINGS 13)
GRIDS = {"a": "attack", "d": "defense"}
DRAGON_BONUS = 2
AP_MOVES = frozenset({"buy", "play", "summon", "pass"})  # the four actions; convert and eat are free


def name(seat: int) -> str:
    """How texts name a seat: P1, P2, ..."""
    return f"P{seat + 1}"


def right_of(seat: int, n: int) -> int:
    """The player on a seat's right: the previous seat, as play goes to the left (RULINGS 17)."""
    return (seat - 1) % n


def price(s: OphionState, i: int) -> int:
    """What the card in market slot i costs: its cost plus the slot's surcharge."""
    card = s.market[i]
    assert card is not None
    return CARDS[card.card].cost + surcharges(s.num_players)[i]


def market_slot(s: OphionState, uid: int) -> int:
    """The row slot of the card with this uid."""
    return next(i for i, c in enumerate(s.market) if c is not None and c.uid == uid)


def grid_used(p: Player, grid: str) -> int:
    """The total Size of the monsters on one grid ("a" or "d")."""
    return sum(CARDS[m].size for m in (p.attack if grid == "a" else p.defense))


def grid_room(p: Player, grid: str, monster: str) -> bool:
    """Whether this monster fits on this grid (total Size at most 6)."""
    return grid_used(p, grid) + CARDS[monster].size <= RULES["grid_size"]


def attack_value(s: OphionState, seat: int) -> int:
    """The attack grid's total attack plus the Dragon bonuses in force."""
    p = s.players[seat]
    return sum(CARDS[m].attack for m in p.attack) + total(s.modifiers, "attack", seat)


def defense_value(s: OphionState, seat: int) -> int:
    """The defense grid's total defense plus the Dragon bonuses in force."""
    p = s.players[seat]
    return sum(CARDS[m].defense for m in p.defense) + total(s.modifiers, "defense", seat)


def final_score(p: Player) -> int:
    """VP, eternity tokens and the values of the upgrades in the slots."""
    return p.total() + sum(upgrade_value(u) for u in p.upgrades if u is not None)


move: Moves[Ophion, OphionState] = Moves()  # the moves, registered below the class with @move(kind)


class Ophion(TableGame[OphionState]):
    """Ophion: a deck-building battle of monsters for 2 to 4 players over 9 rounds."""

    id: ClassVar[str] = "ophion"
    title: ClassVar[str] = "Ophion"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    # Per round each player makes at most 5 AP moves plus one per "+1 AP" card (4 in the game) and 3
    # Dragon meals. Conversions have no cap (RULINGS 8) but each loses value: 2 * mana + 3 * gold falls
    # by 3 or more with each, so what a player gains bounds them; 40 a player a round is far above what
    # the cards can pay for in practice. 9 * 4 * (9 + 3 + 40) = 1,872.
    max_actions: ClassVar[int] = 1900
    rules_version: ClassVar[int] = 2  # 2: row cards named by uid; no conversion cap; last card discarded
    state_cls: ClassVar[type] = OphionState
    moves = move

    # -- setup ---------------------------------------------------------------------------------

    def from_json(self, data: JSON) -> OphionState:
        """The state from JSON, its card pack's cards made known to this process first."""
        add_pack(data.get("pack", ""))
        return super().from_json(data if "pack" in data else {**data, "pack": ""})

    def setup(self, num_players: int, seed: int, options: JSON | None = None) -> OphionState:
        """Shuffle both tier decks, deal the market row, give everyone a starting deck; round 1 begins."""
        self.check_players(num_players)
        rng = Rng(seed)
        pack = packs.text(options, self.id)
        extra = add_pack(pack)  # a pack's cards join their tier decks, by their count (RULINGS 25)
        tier1, tier2 = tier_deck(1, extra), tier_deck(2, extra)
        rng.shuffle(tier1)
        rng.shuffle(tier2)
        players = []
        for _ in range(num_players):
            deck = list(STARTING_DECK)
            rng.shuffle(deck)
            upgrades: list[str | None] = [None] * RULES["slots"]
            upgrades[0] = RULES["start_upgrade"]
            players.append(Player(deck=deck, upgrades=upgrades, mana=RULES["start_mana"]))
        row: list[Instance | None] = [None] * len(surcharges(num_players))
        s = OphionState(num_players, rng, players, tier1, tier2, row, pack=pack)
        events: list[Event] = []
        _refill(s, events)
        _start_round(s, events)
        eventlog.record(s.log, events)
        return s

    # -- whose move and what they may do -------------------------------------------------------

    def is_over(self, s: OphionState) -> bool:
        """After the combat of round 9."""
        return s.phase == "over"

    def turn_player(self, s: OphionState) -> PlayerId:
        """The player whose turn it is in this round's order."""
        return s.current

    def turn_moves(self, s: OphionState, player: PlayerId, kind: str | None = None) -> list[Action]:
        """Buy, play, summon or pass (1 AP each); convert and a Dragon's meal are free."""
        return _moves(s, player)

    def answers(self, s: OphionState, d: Decision, player: PlayerId) -> list[Action]:
        """Ophion raises no decisions: every choice is made in one move."""
        return []

    def after_move(self, s: OphionState, action: Action, events: list[Event]) -> None:
        """The turn passes after an AP action; free moves keep it."""
        s.last = {"player": action.player, "kind": action.kind, "text": events[0].text}
        if action.kind in AP_MOVES:
            _next_turn(s, action.player, events)

    # -- results and views ---------------------------------------------------------------------

    def view(self, s: OphionState, viewer: PlayerId | None) -> OphionView:
        """What this viewer may see: everything but hands (own only) and the order of draw piles."""
        charge = surcharges(s.num_players)
        market: list[MarketCardView | None] = [
            None
            if c is None
            else {
                "card": c.card,
                "uid": c.uid,
                "name": card_name(c.card),
                "price": price(s, i),
                "surcharge": charge[i],
            }
            for i, c in enumerate(s.market)
        ]
        players: list[PlayerView] = []
        for i, p in enumerate(s.players):
            players.append(
                {
                    "seat": i,
                    "vp": p.vp,
                    "eternity": p.eternity,
                    "total": p.total(),
                    "mana": p.mana,
                    "gold": p.gold,
                    "ap": p.ap,
                    "upgrades": list(p.upgrades),
                    "attack_grid": list(p.attack),
                    "defense_grid": list(p.defense),
                    "attack_used": grid_used(p, "a"),
                    "defense_used": grid_used(p, "d"),
                    "grid_capacity": RULES["grid_size"],
                    "attack": attack_value(s, i),
                    "defense": defense_value(s, i),
                    "hand": list(p.hand) if viewer == i else None,
                    "hand_size": len(p.hand),
                    "deck_size": len(p.deck),
                    "discard": list(p.discard),
                    "discard_size": len(p.discard),
                    "played": list(p.played),
                    "passed": p.passed,
                    "summoned": p.summoned,
                }
            )
        over = s.phase == "over"
        return {
            "game": self.id,
            "viewer": viewer,
            "num_players": s.num_players,
            "round": s.round,
            "rounds": RULES["rounds"],
            "tier": s.tier,
            "phase": s.phase,
            "current": None if over else s.current,
            "to_act": list(self.to_act(s)),
            "order": [(s.start + k) % s.num_players for k in range(s.num_players)],
            "market": market,
            "market_discard": list(s.market_discard),
            "tier1_size": len(s.tier1),
            "tier2_size": len(s.tier2),
            "players": players,
            "combat": [dict(c) for c in s.combat],
            "last": None if s.last is None else dict(s.last),
            "log": eventlog.visible(s.log, viewer),
            "result": None if s.result is None else dict(s.result),
        }

    def describe(self, s: OphionState, action: Action) -> tuple[str, ...]:
        """A menu path: the group (Buy, Play, Summon, Convert, Pass), then the card, then the details."""
        k = action.kind
        if k == "pass":
            return ("Pass",)
        if k == "convert":
            to = action.arg("to")
            return ("Convert", "2 gold → 1 mana" if to == "mana" else "3 mana → 1 gold")
        if k == "play":
            cards = _played(action)
            draws = RULES["draw_after_play"][len(cards)]
            what = ", ".join(card_name(c) for c in cards) if cards else "No cards"
            return ("Play", f"{what} → draw {draws}")
        if k == "summon":
            m = str(action.arg("m"))
            return ("Summon", f"{card_name(m)} ({CARDS[m].mana} mana)", f"{GRIDS[str(action.arg('g'))]} grid")
        if k == "eat":
            q, g, b = int(action.arg("p")), str(action.arg("g")), str(action.arg("b"))
            return ("Summon", "Dragon eats a Goblin", f"{name(q)}'s {GRIDS[g]} grid", f"+2 {GRIDS[b]}")
        i = market_slot(s, int(action.arg("c")))
        card = s.market[i]
        assert card is not None
        head = f"{card_name(card.card)}: {price(s, i)} gold (#{i + 1})"
        path: tuple[str, ...] = ("Buy", head)
        if len(action.args) > 1:
            slot = int(action.arg("s"))
            old = s.players[action.player].upgrades[slot]
            path += (f"slot {slot + 1}" + (f" (replaces {card_name(old)})" if old else " (empty)"),)
        if len(action.args) > 2:
            g = str(action.arg("g"))
            path += ("no free summon" if g == "-" else f"free summon to the {GRIDS[g]} grid",)
        return path

    # -- hidden information --------------------------------------------------------------------

    def hidden(self, s: OphionState, observer: PlayerId) -> list[list[Slot]]:
        """Each tier deck's order; the observer's own deck order; each other player's hand and deck."""
        groups = [slots(s.tier1), slots(s.tier2)]
        for i, p in enumerate(s.players):
            groups.append(slots(p.deck) if i == observer else slots(p.hand) + slots(p.deck))
        return groups

    def after_determinize(self, s: OphionState, observer: PlayerId, renamed: dict[Any, Any]) -> None:
        """Hands are kept sorted."""
        for p in s.players:
            p.hand.sort()


# -- legal moves ---------------------------------------------------------------------------------


def _played(a: Action) -> list[str]:
    c = str(a.arg("c"))
    return [] if c == "-" else c.split("+")


def _moves(s: OphionState, seat: int) -> list[Action]:
    """The current player's moves, unsorted."""
    p = s.players[seat]
    out: list[Action] = [act(seat, "pass")]
    for i, card in enumerate(s.market):
        if card is not None and p.gold >= price(s, i):
            out += _buy_moves(p, seat, card)
    if p.gold >= RULES["convert_gold"]:
        out.append(act(seat, "convert", (("to", "mana"),)))
    if p.mana >= RULES["convert_mana"]:
        out.append(act(seat, "convert", (("to", "gold"),)))
    out += _eat_moves(s, seat)
    out.append(act(seat, "play", (("c", "-"),)))
    out += [act(seat, "play", (("c", c),)) for c in _plays(tuple(p.hand))]
    for m in sorted({u for u in p.upgrades if u is not None and CARDS[u].type == "monster"}):
        if p.mana >= CARDS[m].mana:
            for g in GRIDS:
                if grid_room(p, g, m):
                    out.append(act(seat, "summon", (("m", m), ("g", g))))
    return out


_PLAYS: dict[tuple[str, ...], list[str]] = {}


def _plays(hand: tuple[str, ...]) -> list[str]:
    """Every way to play 1 to 3 cards of this hand, as "a+b+c" in the order combinations_with_replacement
    gives them; remembered per hand (the same hands recur all game long, and this is a search's hot loop)."""
    got = _PLAYS.get(hand)
    if got is None:
        counts = Counter(hand)
        kinds = sorted(counts)
        got = [
            "+".join(combo)
            for n in range(1, MAX_PLAYED + 1)
            for combo in combinations_with_replacement(kinds, n)
            if all(counts[c] >= k for c, k in Counter(combo).items())
        ]
        if len(_PLAYS) > 50_000:  # a bound far above the hands a game sees
            _PLAYS.clear()
        _PLAYS[hand] = got
    return got


def _buy_moves(p: Player, seat: int, card: Instance) -> list[Action]:
    """Action cards go to the discard; upgrades and monsters to a slot, a monster with its free summon."""
    kind, c = CARDS[card.card].type, ("c", card.uid)
    if kind == "action":
        return [act(seat, "buy", (c,))]
    out = []
    for slot in range(RULES["slots"]):
        if kind == "upgrade":
            out.append(act(seat, "buy", (c, ("s", slot))))
            continue
        for g in ("-", *(g for g in GRIDS if grid_room(p, g, card.card))):
            out.append(act(seat, "buy", (c, ("s", slot), ("g", g))))
    return out


def _eat_moves(s: OphionState, seat: int) -> list[Action]:
    """Each Dragon on the player's grids may eat one Goblin from any grid each round (RULINGS 19)."""
    p = s.players[seat]
    dragons = (p.attack + p.defense).count("dragon")
    if p.eaten >= dragons:
        return []
    out = []
    for q, other in enumerate(s.players):
        for g, grid in (("a", other.attack), ("d", other.defense)):
            if "goblin" in grid:
                out += [act(seat, "eat", (("p", q), ("g", g), ("b", b))) for b in GRIDS]
    return out


# -- the moves -----------------------------------------------------------------------------------


@move("buy")
def _buy(game: Ophion, s: OphionState, a: Action, events: list[Event]) -> None:
    p, i = s.players[a.player], market_slot(s, int(a.arg("c")))
    cost = price(s, i)
    card = _take_from_market(s, i, events, bought=f"{name(a.player)} buys {{}} for {cost} gold")
    p.gold -= cost
    p.ap -= 1
    c = CARDS[card]
    if c.type == "action":
        p.discard.append(card)
        return
    slot = int(a.arg("s"))
    old = p.upgrades[slot]
    p.upgrades[slot] = card
    if old is not None:
        text = f"{name(a.player)} replaces {card_name(old)} in upgrade slot {slot + 1}"
        emit(events, "replaced", text, seat=a.player, card=old, slot=slot)
    if c.type == "upgrade":
        _gain(p, c.effect, c.amount)
        emit(events, "gained", f"{name(a.player)} gets {c.amount} {c.effect} at once", seat=a.player)
        return
    g = str(a.arg("g"))
    if g != "-":
        (p.attack if g == "a" else p.defense).append(card)
        p.summoned = True
        text = f"{name(a.player)} summons {article(c.name)} to the {GRIDS[g]} grid for free"
        emit(events, "summoned", text, seat=a.player, card=card, grid=g)


def _take_from_market(s: OphionState, i: int, events: list[Event], bought: str) -> str:
    """The bought card leaves; the last card of the row is discarded unless it was the one bought (even
    when the slots at the deck's end are already empty, RULINGS 10); the rest slide; refill."""
    last = zones.last_card(s.market)
    card = zones.take(s.market, i).card
    emit(events, "bought", bought.format(card_name(card)), card=card)
    if last is not None and last != i:
        gone = zones.take(s.market, last).card
        s.market_discard.append(gone)
        emit(events, "discarded_from_row", f"{card_name(gone)} is discarded from the row", card=gone)
    zones.slide(s.market)
    _refill(s, events)
    return card


def _refill(s: OphionState, events: list[Event]) -> None:
    """Empty slots at the deck's end of the row are dealt from the current tier's deck."""
    new = zones.refill(s.market, s.tier1 if s.tier == 1 else s.tier2, s)
    if new:
        text = f"New in the row: {', '.join(card_name(c.card) for c in new)}"
        emit(events, "row_refilled", text, chance=True)


def _gain(p: Player, effect: str, amount: int) -> None:
    if effect == "gold":
        p.gold += amount
    elif effect == "mana":
        p.mana += amount
    elif effect == "ap":
        p.ap += amount
    else:
        _add_vp(p, amount)


def _add_vp(p: Player, amount: int) -> None:
    """VP go on the track; each time it reaches 10 it resets and the player takes an eternity token."""
    p.vp += amount
    while p.vp >= RULES["eternity"]:
        p.vp -= RULES["eternity"]
        p.eternity += 1


@move("play")
def _play(game: Ophion, s: OphionState, a: Action, events: list[Event]) -> None:
    p = s.players[a.player]
    cards = _played(a)
    p.ap -= 1
    for c in cards:
        p.hand.remove(c)
        p.played.append(c)
        _gain(p, CARDS[c].effect, CARDS[c].amount)
    what = ", ".join(card_name(c) for c in cards) if cards else "no cards"
    draws = RULES["draw_after_play"][len(cards)]
    emit(events, "played", f"{name(a.player)} plays {what} and draws {draws}", seat=a.player)
    _draw(s, a.player, draws, events)


@move("summon")
def _summon(game: Ophion, s: OphionState, a: Action, events: list[Event]) -> None:
    p, m, g = s.players[a.player], str(a.arg("m")), str(a.arg("g"))
    p.mana -= CARDS[m].mana
    p.ap -= 1
    (p.attack if g == "a" else p.defense).append(m)
    p.summoned = True
    text = f"{name(a.player)} summons {article(card_name(m))} to the {GRIDS[g]} grid for {CARDS[m].mana} mana"
    emit(events, "summoned", text, seat=a.player, card=m, grid=g)


@move("eat")
def _eat(game: Ophion, s: OphionState, a: Action, events: list[Event]) -> None:
    p = s.players[a.player]
    q, g, b = int(a.arg("p")), str(a.arg("g")), str(a.arg("b"))
    victim = s.players[q]
    (victim.attack if g == "a" else victim.defense).remove("goblin")
    p.eaten += 1
    s.modifiers.append(Modifier(GRIDS[b], DRAGON_BONUS, a.player, ROUND, source="dragon"))
    text = f"{name(a.player)}'s Dragon eats a Goblin from {name(q)}'s {GRIDS[g]} grid: +2 {GRIDS[b]}"
    emit(events, "ate", text, seat=a.player, target=q, grid=g)


@move("convert")
def _convert(game: Ophion, s: OphionState, a: Action, events: list[Event]) -> None:
    p = s.players[a.player]
    if a.arg("to") == "mana":
        p.gold -= RULES["convert_gold"]
        p.mana += 1
        emit(events, "converted", f"{name(a.player)} converts 2 gold to 1 mana", seat=a.player, into="mana")
    else:
        p.mana -= RULES["convert_mana"]
        p.gold += 1
        emit(events, "converted", f"{name(a.player)} converts 3 mana to 1 gold", seat=a.player, into="gold")


@move("pass")
def _pass(game: Ophion, s: OphionState, a: Action, events: list[Event]) -> None:
    p = s.players[a.player]
    p.ap = 0
    p.passed = True
    first = s.first_passer is None
    if first:
        s.first_passer = a.player
    text = f"{name(a.player)} passes" + (" first and will act last next round" if first else "")
    emit(events, "passed", text, seat=a.player)


def _draw(s: OphionState, seat: int, n: int, events: list[Event]) -> None:
    """Draw n cards; an empty deck is refilled by shuffling the discard pile (RULINGS 14)."""
    p = s.players[seat]
    got, refills = zones.draw(p.deck, n, s.rng, refill=p.discard)
    if refills:
        emit(events, "shuffled", f"{name(seat)} shuffles the discard pile into a new deck", seat=seat)
    p.hand += got
    p.hand.sort()
    if got:
        text = f"{name(seat)} draws {plural(len(got), 'card')}"
        emit(events, "drew", text, chance=True, seat=seat, count=len(got))
        # Named in hand order, not in the order they came off the pile: that order is secret (RULINGS 23).
        text = f"You draw {', '.join(card_name(c) for c in sorted(got))}"
        emit(events, "drew_secretly", text, to=(seat,), chance=True, seat=seat)


# -- rounds --------------------------------------------------------------------------------------


def _next_turn(s: OphionState, seat: int, events: list[Event]) -> None:
    """The next player in this round's order with AP left acts; with nobody left, combat and a new round."""
    n = s.num_players
    order = [(s.start + k) % n for k in range(n)]
    at = order.index(seat)
    for k in range(1, n + 1):
        q = order[(at + k) % n]
        if s.players[q].ap > 0:
            s.current = q
            return
    _combat(s, events)
    _end_round(s, events)
    if s.round >= RULES["rounds"]:
        _finish(s, events)
    else:
        _start_round(s, events)


def _start_round(s: OphionState, events: list[Event]) -> None:
    """Tier 2 if someone has 10 VP; castle and upgrade income; 3 AP (+2 with no summon); draw 3."""
    s.round += 1
    if s.tier == 1 and any(p.total() >= RULES["tier2_at"] for p in s.players):
        s.tier = 2
        s.market_discard += [c.card for c in s.market if c is not None]
        s.market = [None] * len(s.market)
        emit(events, "tier_two", "Tier 2 begins: the row is dealt from the Tier 2 deck")
        _refill(s, events)
    emit(events, "round_began", f"Round {s.round} begins; {name(s.start)} acts first", round=s.round)
    for seat, p in enumerate(s.players):
        p.gold = RULES["castle_gold"]
        p.mana += RULES["castle_mana"]
        for u in p.upgrades:
            if u is not None and CARDS[u].type == "upgrade":
                _gain(p, CARDS[u].effect, CARDS[u].amount)
        p.ap = RULES["ap"] + (0 if p.summoned else RULES["no_summon_ap"])
        p.summoned = p.passed = False
        p.eaten = 0
        _draw(s, seat, RULES["hand"], events)
    s.first_passer = None
    s.current = s.start


def _combat(s: OphionState, events: list[Event]) -> None:
    """Everyone attacks the player on their right: attacker wins 3 VP, tie 1 VP each, defender wins 2 VP."""
    n = s.num_players
    s.combat = []
    for a in range(n):
        d = right_of(a, n)
        atk, dfn = attack_value(s, a), defense_value(s, d)
        if atk > dfn:
            winner, gains = "attacker", {a: COMBAT["attacker_wins"]}
        elif atk == dfn:
            winner, gains = "tie", {a: COMBAT["tie"], d: COMBAT["tie"]}
        else:
            winner, gains = "defender", {d: COMBAT["defender_wins"]}
        for q, v in gains.items():
            _add_vp(s.players[q], v)
        s.combat.append({"attacker": a, "defender": d, "attack": atk, "defense": dfn, "winner": winner})
        result = {"attacker": f"{name(a)} wins", "tie": "a tie", "defender": f"{name(d)} holds"}[winner]
        text = f"{name(a)} attacks {name(d)}: {atk} against {dfn}, {result}"
        emit(events, "fought", text, seat=a, target=d, winner=winner)


def _end_round(s: OphionState, events: list[Event]) -> None:
    """Hands and played cards go to the discard; gold and AP are lost; the first to pass acts last."""
    for p in s.players:
        p.discard += p.played + p.hand
        p.played, p.hand = [], []
        p.gold = p.ap = 0
    expire(s.modifiers, ROUND)
    if s.first_passer is not None:
        s.start = (s.first_passer + 1) % s.num_players


def _finish(s: OphionState, events: list[Event]) -> None:
    s.phase = "over"
    scores = [final_score(p) for p in s.players]
    best = max(scores)
    winners = [i for i, v in enumerate(scores) if v == best]
    upgrades = [sum(upgrade_value(u) for u in p.upgrades if u is not None) for p in s.players]
    s.result = {"scores": scores, "upgrade_points": upgrades, "winners": winners}
    text = f"The game is over. Winner: {', '.join(name(w) for w in winners)} with {best} VP"
    emit(events, "game_over", text)


__all__ = ["Ophion", "attack_value", "defense_value", "final_score", "name", "price", "right_of"]
