"""Ophelia's rules: setup, the Action, Turning Point, Contest and End phases, round resolution on the
1-2-3-2-1 track, and the board operations the card-ability kit calls (this class is its Host)."""

from __future__ import annotations

from typing import Any, ClassVar

from engine import eventlog, packs
from engine.abilities import resolve as kit
from engine.abilities.spec import Ability, CardSpec, Step
from engine.core import JSON, Action, Arg, Event, PlayerId
from engine.core import action as act
from engine.games.ophelia import board as b
from engine.games.ophelia.cards import CARDS, CHOSEN, DECKS, add_pack, deck_choice
from engine.games.ophelia.effects import effect, recallable
from engine.games.ophelia.state import MIDDLE, OpheliaState, Side, Unit
from engine.rng import Rng
from engine.table.base import Moves, Slot, TableGame, slots
from engine.table.decisions import PASS, Decision, answering, push
from engine.table.events import emit
from engine.table.modifiers import TURN, expire
from engine.table.present import picked

START_HAND, DRAW, MAX_HAND = 5, 3, 7
WIN = 5
MAX_MOVES = 300  # Action Phase moves a turn (RULINGS 12: past any turn in which no card returns to a hand)
MAX_TURNS = 250  # turns a round (RULINGS 12: past any round in which no card returns to a hand: <= 122)
WINDOW, CLAIM, FIRST = "window", "claim", "first"


def seat_word(seat: int) -> str:
    """How texts name a seat: P1, P2."""
    return f"P{seat + 1}"


move: Moves[Ophelia, OpheliaState] = Moves()  # the moves, registered below the class with @move(kind)


class Ophelia(TableGame[OpheliaState]):
    """Ophelia: two players contest ten slots with historical characters over rounds worth 1-2-3-2-1."""

    id: ClassVar[str] = "ophelia"
    title: ClassVar[str] = "Ophelia"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    # At most 5 rounds of MAX_TURNS turns; a turn's moves and window plays, each with up to 10 answers
    # (its Claim, costs, targets, and the triggers it sets off).
    max_actions: ClassVar[int] = 5 * MAX_TURNS * (MAX_MOVES + 40) * 10
    # 2: each character strikes once a Contest Phase (RULINGS 5); rounds and turns bounded far past any legal
    # finite one (RULINGS 12); choices that can do nothing are not offered (RULINGS 22).
    rules_version: ClassVar[int] = 2
    state_cls: ClassVar[type] = OpheliaState
    moves = move
    effects = effect  # the card abilities' effects, by name

    # -- setup ---------------------------------------------------------------------------------

    def from_json(self, data: JSON) -> OpheliaState:
        """The state from JSON, its card pack's cards made known to this process first."""
        add_pack(data.get("pack", ""))
        return super().from_json(data if "pack" in data else {**data, "pack": ""})

    def setup(self, num_players: int, seed: int, options: JSON | None = None) -> OpheliaState:
        """Each player's deck (chosen in options["seat_choices"] or at random), 5 cards each, a random first
        player."""
        self.check_players(num_players)
        rng = Rng(seed)
        pack = packs.text(options, self.id)
        extra = add_pack(pack)[1]  # a pack's ready decks join the game's own (RULINGS 24)
        decks, choice = {**DECKS, **extra}, deck_choice(extra)
        sides = []
        for seat in range(num_players):
            deck_id = picked(options, seat, choice) or sorted(decks)[rng.below(len(decks))]
            deck_name, cards = decks[deck_id]
            deck = list(cards)
            rng.shuffle(deck)
            sides.append(Side(deck=deck, deck_name=deck_name))
        s = OpheliaState(num_players, rng, sides, [[None] * 5 for _ in range(num_players)], pack=pack)
        events: list[Event] = []
        for seat in range(num_players):
            self.draw(s, seat, START_HAND, events)
        s.first = s.active = rng.below(num_players)
        emit(events, "first", f"{seat_word(s.first)} goes first", seat=s.first)
        self.advance(s, events)
        eventlog.record(s.log, events)
        return s

    # -- whose move and what they may do -------------------------------------------------------

    def is_over(self, s: OpheliaState) -> bool:
        """Once someone has 5 points."""
        return s.result is not None

    def turn_player(self, s: OpheliaState) -> PlayerId:
        """The player whose turn it is."""
        return s.active

    def turn_moves(self, s: OpheliaState, player: PlayerId, kind: str | None = None) -> list[Action]:
        """The Action Phase: play, move, activate, retire, discard, end."""
        if s.phase != "action":
            return []
        out = [act(player, "end")]
        if s.moves >= MAX_MOVES:
            return out
        side = s.sides[player]
        opens = b.open_slots(s, player)
        mine = b.characters(s, player)
        for cid in sorted(set(side.hand)):
            out.append(act(player, "discard", (("c", cid),)))
            spec = CARDS[cid]
            if spec.type == "turning_point":
                if self._tp_ok(s, player, spec):
                    out.append(act(player, "play", (("c", cid),)))
            elif spec.flag("attach"):
                out += [act(player, "play", (("c", cid), ("t", u.uid))) for u in mine]
            else:
                out += [act(player, "play", (("c", cid), ("s", c + 1))) for c in opens]
        for row, col, u in b.every(s):
            if row != player:
                continue
            if b.is_character(u) and s.slots[row][col] is u:
                out.append(act(player, "retire", (("u", u.uid),)))
                if not u.played and not u.moved and not b.contested(s, row, col):
                    out += [
                        act(player, "move", (("u", u.uid), ("s", c + 1)))
                        for c in b.adjacent(col)
                        if c in opens
                    ]
            for i, a in CARDS[u.card].of_type("action"):
                if i not in u.used and self.usable(s, player, u.uid, a):
                    out.append(act(player, "act", (("u", u.uid), ("a", i))))
        return out

    def _tp_ok(self, s: OpheliaState, player: int, spec: CardSpec) -> bool:
        """A Turning Point may be played when its cost can be paid and it would do something (RULINGS 22)."""
        plays = [a for _, a in spec.of_type("play")]
        return all(kit.payable(self, s, player, 0, a) for a in plays) and any(
            self.can_do(s, player, 0, a) for a in plays
        )

    def usable(self, s: OpheliaState, player: PlayerId, uid: int, a: Ability) -> bool:
        """Whether an Action or a Claim is offered: its cost can be paid and it would do something."""
        return kit.payable(self, s, player, uid, a) and self.can_do(s, player, uid, a)

    def can_do(self, s: OpheliaState, owner: PlayerId, uid: int, a: Ability, event: int = 0) -> bool:
        """Whether an ability would do anything now: some step of its effect has something to act on
        (RULINGS 22)."""
        ctx: kit.Ctx = {"owner": owner, "uid": uid, "event": event}
        return any(self._step_does(s, ctx, a, step) for step in a.effect)

    def _step_does(self, s: OpheliaState, ctx: kit.Ctx, a: Ability, step: Step) -> bool:
        owner = ctx["owner"]
        if step.do == "draw":
            return bool(s.sides[owner].deck)
        if step.do == "discard":
            return bool(s.sides[1 - owner].hand)
        if step.do == "recall":
            kind, dest = step.get("kind", "any"), step.get("dest", "hand")
            if dest == "slot" and not b.open_slots(s, owner):
                return False
            if any(recallable(c, kind, dest) for c in s.sides[owner].forgotten):
                return True
            # Into a slot, the card a discard cost sends to the forgotten zone may be the one put there.
            return (
                dest == "slot"
                and a.cost == "discard"
                and any(recallable(c, kind, dest) for c in s.sides[owner].hand)
            )
        selector = step.get("to", "self")
        uids = self.choices(s, ctx, step) if self.chosen(selector) else self.group(s, ctx, selector, step)
        if step.do == "move":
            uids = [x for x in uids if b.movable(s, x)]
        elif step.do == "heal":
            uids = [x for x in uids if (u := b.unit(s, x)) is not None and u.damage > 0]
        return bool(uids)

    def answers(self, s: OpheliaState, d: Decision, player: PlayerId) -> list[Action]:
        """The moves answering the pending decision (the pass of an optional one is added by the base)."""
        if d.kind in kit.KINDS:
            return kit.kit_moves(d, player)
        if d.kind == CLAIM:
            u = b.unit(s, d.data["uid"])
            if u is None:
                return []
            return [
                act(player, "claim", (("u", u.uid), ("a", i)))
                for i, a in CARDS[u.card].of_type("claim")
                if self.usable(s, player, u.uid, a)
            ]
        if d.kind == WINDOW:
            cards = sorted({c for c in s.sides[player].hand if CARDS[c].type == "turning_point"})
            return [act(player, "play", (("c", c),)) for c in cards if self._tp_ok(s, player, CARDS[c])]
        if d.kind == FIRST:
            return [act(player, "first", (("p", p),)) for p in range(s.num_players)]
        raise ValueError(f"unknown decision {d.kind!r}")

    def after_move(self, s: OpheliaState, action: Action, events: list[Event]) -> None:
        """Resolve what the move set off, then carry the turn on until someone must decide."""
        self.advance(s, events)

    # -- the phases ----------------------------------------------------------------------------

    def advance(self, s: OpheliaState, events: list[Event]) -> None:
        """Resolve abilities and run the automatic parts of the turn until a player must act."""
        while s.result is None:
            kit.run(self, s, events)
            if s.decisions:
                if self._idle_may(s):
                    continue
                return
            if s.phase == "action":
                if not s.fired:
                    s.fired = True
                    kit.fire(self, s, "turn_start", self._watchers(s, s.active))
                    continue
                return
            if s.phase == "turning_point":
                opp = 1 - s.active
                if s.fired and s.sides[opp].hand:
                    push(s.decisions, Decision(WINDOW, [opp], optional=True, source="Turning Point phase"))
                    return
                s.phase, s.fired, s.struck = "contest", False, []
            elif s.phase == "contest":
                if not s.fired:
                    s.fired = True
                    kit.fire(self, s, "contest", self._watchers(s))
                    continue
                if not self._strike(s, events):
                    s.phase, s.fired, s.struck = "end", False, []
            elif s.phase == "end":
                if not s.fired:
                    s.fired = True
                    kit.fire(self, s, "turn_end", self._watchers(s, s.active))
                    continue
                self._end_turn(s, events)
            else:  # "first": waiting for the loser's choice
                return

    def _idle_may(self, s: OpheliaState) -> bool:
        """A "you may" trigger that would do nothing now is not asked: it ends as if declined (RULINGS
        22). True when one was dropped."""
        d = s.decisions[-1]
        if d.kind != kit.MAY or not s.resolving:
            return False
        ctx = s.resolving[-1]
        if self.can_do(s, ctx["owner"], ctx["uid"], kit.ability(self, ctx), ctx["event"]):
            return False
        s.decisions.pop()
        s.resolving.pop()
        return True

    def _strike(self, s: OpheliaState, events: list[Event]) -> bool:
        """The next Initiative step of the Contest Phase: of the contesting characters that have not struck
        yet this phase, those with the highest Initiative now deal their Power to the card they face, at
        once; each strikes once (RULINGS 5). False when none is left to strike."""
        fighters = []
        for row, col, u in b.on_field(s):
            if b.is_character(u) and b.contested(s, row, col) and u.uid not in s.struck:
                fighters.append((b.stat(s, u, "initiative", (row, col)), row, col, u))
        if not fighters:
            return False
        step = max(f[0] for f in fighters)
        hits = []
        for ini, row, col, u in fighters:
            if ini == step:
                s.struck.append(u.uid)
                target = b.opposite(s, row, col)
                power = b.stat(s, u, "power", (row, col))
                if target is not None and power > 0:
                    hits.append((u, target, power))
        for u, target, power in hits:
            emit(
                events,
                "struck",
                f"{self.name(s, u.uid)} deals {power} to {self.name(s, target.uid)}",
                uid=u.uid,
                target=target.uid,
                amount=power,
                seat=u.owner,  # the striker's owner: the log credits them
            )
            self.damage(s, target.uid, power, events)
        self.settle(s, events)
        return True

    def _end_turn(self, s: OpheliaState, events: list[Event]) -> None:
        """End Phase: "until the end of turn" effects end; two quiet turns resolve the round."""
        expire(s.modifiers, TURN)
        for _, _, u in b.every(s):
            u.played, u.moved, u.used = False, False, []
        self.settle(s, events)
        s.quiet = 0 if s.played else s.quiet + 1
        s.turn += 1
        if s.quiet >= 2 or s.turn >= MAX_TURNS:
            self._resolve_round(s, events)
            return
        s.active = 1 - s.active
        s.phase, s.fired, s.played, s.moves = "action", False, False, 0
        emit(events, "turn", f"{seat_word(s.active)}'s turn", seat=s.active)

    def _resolve_round(self, s: OpheliaState, events: list[Event]) -> None:
        """Round Resolution: the middle slot, then the side's combined Power, then who went second."""
        middle = [self._power_at(s, seat, MIDDLE) for seat in (0, 1)]
        side = [sum(b.stat(s, u, "power") for u in b.characters(s, seat)) for seat in (0, 1)]
        if middle[0] != middle[1]:
            winner, step = (0 if middle[0] > middle[1] else 1), 1
        elif side[0] != side[1]:
            winner, step = (0 if side[0] > side[1] else 1), 2
        else:
            winner, step = 1 - s.first, 3
        points = b.TRACK[min(s.round, len(b.TRACK)) - 1]
        s.sides[winner].points += points
        why = ("most Power in the middle slot", "most combined Power", "went second")[step - 1]
        emit(
            events,
            "round_won",
            f"{seat_word(winner)} wins round {s.round} ({why}) and {points} point"
            f"{'s' if points != 1 else ''}",
            seat=winner,
            round=s.round,
            step=step,
            points=points,
        )
        s.last_round = {
            "round": s.round,
            "winner": winner,
            "step": step,
            "points": points,
            "middle": middle,
            "side": side,
        }
        if s.sides[winner].points >= WIN:
            s.result = {"winners": [winner]}
            s.phase = "over"
            emit(
                events,
                "won",
                f"{seat_word(winner)} wins the game with {s.sides[winner].points} points",
                seat=winner,
            )
            return
        for row, _, u in list(b.every(s)):
            s.sides[row].forgotten.append(u.card)
        s.slots = [[None] * 5 for _ in range(s.num_players)]
        s.modifiers.clear()
        s.pending.clear()
        s.round += 1
        s.turn = s.quiet = 0
        for seat in (s.first, 1 - s.first):
            self.draw(s, seat, min(DRAW, MAX_HAND - len(s.sides[seat].hand)), events)
        s.phase = FIRST
        push(s.decisions, Decision(FIRST, [1 - winner], source="round"))

    def _power_at(self, s: OpheliaState, seat: int, col: int) -> int:
        u = s.slots[seat][col]
        return b.stat(s, u, "power", (seat, col)) if b.is_character(u) else 0

    # -- the kit's host: cards, selectors, costs ------------------------------------------------

    def card(self, cid: str) -> CardSpec:
        """A card kind by id."""
        return CARDS[cid]

    def active(self, s: OpheliaState) -> PlayerId:
        """The turn player."""
        return s.active

    def chosen(self, selector: str) -> bool:
        """Whether the controller picks the card."""
        return selector in CHOSEN

    def choices(self, s: OpheliaState, ctx: kit.Ctx, step: Step) -> list[int]:
        """The cards a chosen selector may pick."""
        pool = b.chosen(s, ctx["owner"], ctx["uid"], step.get("to"), step.get("max_power"))
        if step.do == "detach":  # only a relic borne by a character can be detached
            pool = [u for u in pool if (got := b.find(s, u.uid)) is not None and got[3] is not None]
        if step.do == "move":  # only a card with an open slot beside it can be moved (RULINGS 22)
            pool = [u for u in pool if b.movable(s, u.uid)]
        return [u.uid for u in pool]

    def group(self, s: OpheliaState, ctx: kit.Ctx, selector: str, step: Step | None = None) -> list[int]:
        """The cards a fixed selector stands for (nothing when the source has left the field)."""
        if selector == "event":
            return [ctx["event"]] if b.unit(s, ctx["event"]) is not None else []
        if selector == "all_enemies":
            return [u.uid for u in b.characters(s, 1 - ctx["owner"])]
        if selector == "all_allies":
            return [u.uid for u in b.characters(s, ctx["owner"])]
        if selector == "middle_enemy":
            m = s.slots[1 - ctx["owner"]][MIDDLE]
            return [m.uid] if m is not None else []
        if selector == "other_allies":  # also after the source has left ("When this is defeated; ...")
            return [u.uid for u in b.characters(s, ctx["owner"]) if u.uid != ctx["uid"]]
        got = b.find(s, ctx["uid"])
        if got is None:
            return []
        row, col, u, _ = got
        return [x.uid for x in b.group(s, u, row, col, selector)]

    def cost_options(self, s: OpheliaState, owner: PlayerId, uid: int, cost: str) -> list[Arg]:
        """Discard: a card in hand; sacrifice: another character you control; retire: this card."""
        if cost == "discard":
            return sorted(set(s.sides[owner].hand))
        if cost == "sacrifice":
            return [u.uid for u in b.characters(s, owner) if u.uid != uid]
        return [uid] if b.unit(s, uid) is not None else []

    def pay(self, s: OpheliaState, ctx: kit.Ctx, cost: str, choice: Arg, events: list[Event]) -> None:
        """Pay a cost with the chosen card."""
        owner = ctx["owner"]
        if cost == "discard":
            self.discard(s, owner, str(choice), events)
        else:
            self.leave(s, int(choice), "sacrificed" if cost == "sacrifice" else "retired", events)

    def negated(self, s: OpheliaState, ctx: kit.Ctx) -> bool:
        """A Claim is negated once its card is contested or has left the field."""
        got = b.find(s, ctx["uid"])
        return got is None or b.contested(s, got[0], got[1])

    def settle(self, s: OpheliaState, events: list[Event]) -> None:
        """Every card whose damage reaches its Life is defeated (all at once)."""
        while True:
            dead = [u.uid for row, col, u in b.every(s) if u.damage >= b.stat(s, u, "life", (row, col))]
            if not dead:
                return
            for uid in dead:
                if b.unit(s, uid) is not None:
                    self.leave(s, uid, "defeated", events)

    def name(self, s: OpheliaState, uid: int) -> str:
        """A card's name (and whose it is)."""
        got = b.find(s, uid)
        return CARDS[got[2].card].name if got else "a card"

    def opponent(self, s: OpheliaState, player: PlayerId) -> PlayerId:
        """The other player."""
        return 1 - player

    def _watchers(self, s: OpheliaState, seat: int | None = None, but: int = 0) -> list[tuple[int, str, int]]:
        """The cards on the field (of one seat if given, except one uid) as trigger watchers."""
        return [
            (u.uid, u.card, row) for row, _, u in b.every(s) if (seat is None or row == seat) and u.uid != but
        ]

    # -- board operations (the shared effects call these) ----------------------------------------

    def damage(self, s: OpheliaState, uid: int, amount: int, events: list[Event]) -> None:
        """Deal damage; a card that survives it sets off its "damaged" triggers."""
        got = b.find(s, uid)
        if got is None or amount <= 0:
            return
        row, col, u, _ = got
        u.damage += amount
        emit(
            events,
            "damaged",
            f"{CARDS[u.card].name} takes {amount} damage",
            uid=uid,
            amount=amount,
            seat=u.owner,
        )
        if u.damage < b.stat(s, u, "life", (row, col)):
            kit.fire(self, s, "damaged", [(uid, u.card, row)], uid)

    def heal(self, s: OpheliaState, uid: int, amount: int, events: list[Event]) -> None:
        """Remove damage."""
        u = b.unit(s, uid)
        if u is not None and u.damage:
            healed = min(amount, u.damage)
            u.damage -= healed
            emit(
                events, "healed", f"{CARDS[u.card].name} heals {healed}", uid=uid, amount=healed, seat=u.owner
            )

    def draw(self, s: OpheliaState, player: PlayerId, amount: int, events: list[Event]) -> None:
        """Draw from the top of the deck; an empty deck draws nothing."""
        side = s.sides[player]
        got = [side.deck.pop() for _ in range(min(amount, len(side.deck)))]
        if not got:
            return
        side.hand = sorted(side.hand + got)
        names = ", ".join(CARDS[c].name for c in got)
        emit(events, "drew", f"{seat_word(player)} draws {len(got)}", seat=player, n=len(got))
        emit(events, "drew_cards", f"You draw {names}", to=(player,), chance=True, seat=player)

    def hand(self, s: OpheliaState, player: PlayerId) -> list[str]:
        """A player's hand."""
        return s.sides[player].hand

    def discard(self, s: OpheliaState, player: PlayerId, card: str, events: list[Event]) -> None:
        """A card from hand to the forgotten zone, face up."""
        side = s.sides[player]
        side.hand.remove(card)
        side.forgotten.append(card)
        emit(events, "discarded", f"{seat_word(player)} discards {CARDS[card].name}", seat=player, card=card)

    def defeat(self, s: OpheliaState, uid: int, events: list[Event]) -> None:
        """Defeat a card outright."""
        if b.unit(s, uid) is not None:
            self.leave(s, uid, "defeated", events)

    def bounce(self, s: OpheliaState, uid: int, events: list[Event]) -> None:
        """Return a card to its owner's hand."""
        if b.unit(s, uid) is not None:
            self.leave(s, uid, "returned", events)

    def detach(self, s: OpheliaState, uid: int, events: list[Event]) -> None:
        """An attached relic goes to the forgotten zone."""
        got = b.find(s, uid)
        if got is not None and got[3] is not None:
            self.leave(s, uid, "detached", events)

    def leave(self, s: OpheliaState, uid: int, how: str, events: list[Event]) -> None:
        """A card leaves the field: to its owner's hand when returned, else face up to the forgotten zone
        (its attached relics detach); its triggers and its allies' are set off."""
        got = b.find(s, uid)
        assert got is not None
        row, col, u, bearer = got
        if bearer is not None:
            bearer.attached.remove(u)
        else:
            s.slots[row][col] = None
        side = s.sides[u.owner]
        if how == "returned":
            side.hand = sorted([*side.hand, u.card])
        else:
            side.forgotten.append(u.card)
        emit(events, how, f"{CARDS[u.card].name} is {how}", uid=uid, card=u.card, seat=u.owner)
        for r in u.attached:
            s.sides[r.owner].forgotten.append(r.card)
            emit(
                events, "detached", f"{CARDS[r.card].name} is detached", uid=r.uid, card=r.card, seat=r.owner
            )
            kit.fire(self, s, "leaves", [(r.uid, r.card, row)], r.uid)
        s.modifiers[:] = [m for m in s.modifiers if m.owner != uid]
        me = [(uid, u.card, row)]
        if how == "defeated":
            kit.fire(self, s, "defeated", me, uid)
            if b.is_character(u):
                kit.fire(self, s, "ally_defeated", self._watchers(s, row), uid)
        kit.fire(self, s, "leaves", me, uid)

    def enter(self, s: OpheliaState, u: Unit, row: int, col: int, how: str, events: list[Event]) -> None:
        """A card enters a slot (played, moved or recalled): its triggers, its rivals', and the Claim it may
        make when the slot is open and uncontested."""
        s.slots[row][col] = u
        me = [(u.uid, u.card, row)]
        if how == "played":
            kit.fire(self, s, "played", me, u.uid)
            kit.fire(self, s, "ally_played", self._watchers(s, row, but=u.uid), u.uid)
            kit.fire(self, s, "enemy_played", self._watchers(s, 1 - row), u.uid)
        if how == "moved":
            kit.fire(self, s, "moved", me, u.uid)
        kit.fire(self, s, "enters", me, u.uid)
        if b.is_character(u):
            kit.fire(self, s, "enemy_enters", self._watchers(s, 1 - row), u.uid)
        facing = b.opposite(s, row, col)
        if facing is not None:
            kit.fire(self, s, "contested", [(facing.uid, facing.card, 1 - row)], u.uid)
        elif how in ("played", "moved") and any(
            self.usable(s, row, u.uid, a) for _, a in CARDS[u.card].of_type("claim")
        ):
            push(s.decisions, Decision(CLAIM, [row], optional=True, source=u.card, data={"uid": u.uid}))

    # -- views ---------------------------------------------------------------------------------

    def view(self, s: OpheliaState, viewer: PlayerId | None) -> OpheliaView:
        """Everything on the field and in the forgotten zones; a hand only for its owner."""
        return _view(self, s, viewer)

    def describe(self, s: OpheliaState, action: Action) -> tuple[str, ...]:
        """A menu path in the game's words."""
        return _describe(s, action)

    # -- hidden information --------------------------------------------------------------------

    def hidden(self, s: OpheliaState, observer: PlayerId) -> list[list[Slot]]:
        """The observer's own deck order; the other player's hand and deck together (their cards are known:
        their deck list less their field and forgotten zone, RULINGS 23)."""
        groups = []
        for seat, side in enumerate(s.sides):
            groups.append(slots(side.deck) if seat == observer else slots(side.hand) + slots(side.deck))
        return groups

    def after_determinize(self, s: OpheliaState, observer: PlayerId, renamed: dict[Any, Any]) -> None:
        """Hands are kept sorted; a pending choice of a card to discard is made from the hand dealt."""
        for side in s.sides:
            side.hand.sort()
        kit.redeal_discards(s, lambda seat: s.sides[seat].hand)


# -- moves ---------------------------------------------------------------------------------------


@move("play")
def _play(game: Ophelia, s: OpheliaState, a: Action, events: list[Event]) -> None:
    p, cid = a.player, str(a.arg("c"))
    side, spec = s.sides[p], CARDS[str(a.arg("c"))]
    side.hand.remove(cid)
    s.played = True
    if s.phase == "action" and p == s.active:
        s.moves += 1
    if spec.type == "turning_point":
        side.forgotten.append(cid)
        emit(events, "played", f"{seat_word(p)} plays the Turning Point {spec.name}", seat=p, card=cid)
        kit.fire(game, s, "turning_point", game._watchers(s, 1 - p))
        for i, _ in reversed(spec.of_type("play")):
            kit.activate(s, kit.new_ctx(s, 0, cid, i, p))
        return
    u = s.mint(cid)
    unit = Unit(u.uid, cid, p, played=True)
    if spec.flag("attach"):
        bearer = b.unit(s, int(a.arg("t")))
        assert bearer is not None
        bearer.attached.append(unit)
        emit(
            events,
            "played",
            f"{seat_word(p)} attaches {spec.name} to {CARDS[bearer.card].name}",
            seat=p,
            card=cid,
            uid=unit.uid,
        )
        kit.fire(game, s, "played", [(unit.uid, cid, p)], unit.uid)  # no ally_played: not into a slot
        return
    col = int(a.arg("s")) - 1
    emit(
        events,
        "played",
        f"{seat_word(p)} plays {spec.name} into {b.slot_name(col)}",
        seat=p,
        card=cid,
        uid=unit.uid,
        slot=col,
    )
    game.enter(s, unit, p, col, "played", events)


@move("move")
def _move(game: Ophelia, s: OpheliaState, a: Action, events: list[Event]) -> None:
    uid, col = int(a.arg("u")), int(a.arg("s")) - 1
    row, old, u, _ = b.find(s, uid)  # type: ignore[misc]
    s.slots[row][old] = None
    u.moved = True
    s.moves += 1
    emit(
        events, "moved", f"{CARDS[u.card].name} moves to {b.slot_name(col)}", uid=uid, slot=col, seat=u.owner
    )
    game.enter(s, u, row, col, "moved", events)


@move("act")
def _act(game: Ophelia, s: OpheliaState, a: Action, events: list[Event]) -> None:
    uid, i = int(a.arg("u")), int(a.arg("a"))
    row, _, u, _ = b.find(s, uid)  # type: ignore[misc]
    u.used.append(i)
    s.moves += 1
    emit(events, "activated", f"{CARDS[u.card].name} uses its Action", uid=uid, card=u.card, seat=u.owner)
    kit.activate(s, kit.new_ctx(s, uid, u.card, i, row))


@move("claim")
def _claim(game: Ophelia, s: OpheliaState, a: Action, events: list[Event]) -> None:
    uid, i = int(a.arg("u")), int(a.arg("a"))
    row, _, u, _ = b.find(s, uid)  # type: ignore[misc]
    emit(events, "claimed", f"{CARDS[u.card].name} makes its Claim", uid=uid, card=u.card, seat=u.owner)
    kit.activate(s, kit.new_ctx(s, uid, u.card, i, row, uid), claim=True)


@move("retire")
def _retire(game: Ophelia, s: OpheliaState, a: Action, events: list[Event]) -> None:
    s.moves += 1
    game.leave(s, int(a.arg("u")), "retired", events)
    game.settle(s, events)  # a Life bonus it gave ends at once (RULINGS 17)


@move("discard")
def _discard(game: Ophelia, s: OpheliaState, a: Action, events: list[Event]) -> None:
    s.moves += 1
    game.discard(s, a.player, str(a.arg("c")), events)


@move("end")
def _end(game: Ophelia, s: OpheliaState, a: Action, events: list[Event]) -> None:
    s.phase, s.fired = "turning_point", True
    emit(events, "ended", f"{seat_word(a.player)} ends the Action Phase", seat=a.player)


@move(PASS)
def _pass(game: Ophelia, s: OpheliaState, a: Action, events: list[Event]) -> None:
    d = answering()
    if d is not None and d.kind == WINDOW:
        s.fired = False  # the window closes
        emit(events, "passed", f"{seat_word(a.player)} plays no Turning Point", seat=a.player)
    elif d is not None and d.kind == kit.MAY:
        kit.answer(s, d, a)


@move(kit.PICK, kit.ORDER, kit.USE)
def _answer(game: Ophelia, s: OpheliaState, a: Action, events: list[Event]) -> None:
    kit.answer(s, answering(), a)


@move("first")
def _first(game: Ophelia, s: OpheliaState, a: Action, events: list[Event]) -> None:
    s.first = s.active = int(a.arg("p"))
    s.phase, s.fired, s.played, s.moves = "action", False, False, 0
    emit(events, "first", f"{seat_word(a.player)} decides that {seat_word(s.first)} goes first", seat=s.first)


from engine.games.ophelia.view import OpheliaView, _describe, _view  # noqa: E402  (the view reads the rules above)
