"""Siege of Olympus's rules: setup (Commanders, the mulligan, Tartarus and the Agora), the turn (Draw,
Deploy, Recruit, Attack, End), combat, response windows for Ambush and Disrupt, synergies, artifacts and
victory, and the board operations the card-ability kit calls (this class is its Host). RULINGS.md numbers
are cited where a rule is ours."""

from __future__ import annotations

from typing import Any, ClassVar

from engine import eventlog, packs
from engine.abilities import resolve as kit
from engine.abilities.spec import Ability, CardSpec, Step
from engine.core import JSON, Action, Arg, Event, PlayerId
from engine.core import action as act
from engine.games.siege_of_olympus import board as b
from engine.games.siege_of_olympus import effects as _own
from engine.games.siege_of_olympus.cards import (
    AGORA_MAX,
    AGORA_MIN,
    ARTIFACTS,
    ARTIFACTS_TO_WIN,
    CARDS,
    CHOSEN,
    COMMANDER_CHOICE,
    COMMANDER_HEALTH,
    COMMANDERS,
    DECK,
    HAND,
    MAX_HAND,
    MAX_MINIONS,
    MAX_TURNS,
    MULLIGAN,
    RACE_CYCLE,
    TARTARUS,
    add_pack,
)
from engine.games.siege_of_olympus.state import NOBODY, Minion, Side, SiegeState, window
from engine.games.siege_of_olympus.table import SiegeTable, seat_word
from engine.rng import Rng
from engine.table.base import Moves, Slot, TableGame, slots
from engine.table.decisions import PASS, Decision, answering, push
from engine.table.events import emit
from engine.table.modifiers import TURN, expire
from engine.table.present import picked, plural

MAX_MOVES = 60  # decisions a turn (RULINGS 40)
WINDOW, COMMANDER, MULLIGAN_D, OPTION, DISCARD = "window", "commander", "mulligan", "option", "discard"


def main_kind(spec: CardSpec) -> str:
    """The ability type a card's Pick or Combine options are (RULINGS 33)."""
    return "summon" if spec.type == "minion" else "play" if spec.type == "spell" else "once"


move: Moves[Siege, SiegeState] = Moves()  # the moves, registered below the class with @move(kind)


class Siege(SiegeTable, TableGame[SiegeState]):
    """Siege of Olympus: two Commanders fight over a shared Deck of Greek myth to take 3 artifacts."""

    id: ClassVar[str] = "siege_of_olympus"
    title: ClassVar[str] = "Siege of Olympus"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    max_actions: ClassVar[int] = MAX_TURNS * (MAX_MOVES + 80) + 40
    # 2: Commanders chosen before the deal; a Summon effect by Gaia or Dragon's Teeth resolves at once
    # (RULINGS 48); Ambush strikes fire "attacked" triggers (21); Tartarus always refilled to 6 (19, 52);
    # "Free up to N" may stop early (51); a sacrificed minion is destroyed (53); Exchange (37) asks for
    # the Agora card first.
    rules_version: ClassVar[int] = 2
    state_cls: ClassVar[type] = SiegeState
    moves = move
    effects = _own.effect  # the card abilities' effects, by name

    # -- setup ---------------------------------------------------------------------------------

    def setup(self, num_players: int, seed: int, options: JSON | None = None) -> SiegeState:
        """The shared Deck shuffled, a random first player, then the Commanders, then 6 cards each ("1)
        Each player chooses … 2) Both players draw 6"). Commanders come from the lobby (the second player's
        pick first; a seat without one, or whose pick is taken, gets one at random), or with no lobby are
        chosen as the first moves, and the deal waits for them (RULINGS 5)."""
        self.check_players(num_players)
        rng = Rng(seed)
        pack = packs.text(options, self.id)
        s = SiegeState(num_players, rng, [Side() for _ in range(num_players)], pack=pack)
        s.deck = [*DECK, *add_pack(s.pack)]  # a pack's minions and spells join the Deck (RULINGS 55)
        rng.shuffle(s.deck)
        s.pile = sorted(ARTIFACTS)
        s.first = s.active = rng.below(num_players)
        events: list[Event] = []
        emit(events, "first", f"{seat_word(s.first)} goes first", seat=s.first)
        lobby = bool(options) and (options or {}).get("seat_choices") is not None
        for seat in (1 - s.first, s.first):  # RULINGS 5: the second player first
            cid = picked(options, seat, COMMANDER_CHOICE)
            left = [c for c in COMMANDERS if c not in (side.commander for side in s.sides)]
            if cid not in left and lobby:  # a lobby seat that did not pick, or picked a taken one
                cid = left[rng.below(len(left))]
            if cid in left:
                self._take_commander(s, seat, cid, events)
        self.advance(s, events)
        eventlog.record(s.log, events)
        return s

    def from_json(self, data: JSON) -> SiegeState:
        """The state from JSON, its card pack's cards made known to this process first."""
        add_pack(data.get("pack", ""))
        return super().from_json(data if "pack" in data else {**data, "pack": ""})

    def _take_commander(self, s: SiegeState, seat: int, cid: str, events: list[Event]) -> None:
        side = s.sides[seat]
        side.commander, side.commander_uid = cid, s.mint(cid).uid
        emit(events, "commander", f"{seat_word(seat)} leads {CARDS[cid].name}", seat=seat, card=cid)

    def _setup_step(self, s: SiegeState, events: list[Event]) -> None:
        """Commanders (second player first), the deal, mulligans (first player first), then Tartarus and
        the Agora."""
        for seat in (1 - s.first, s.first):
            if not s.sides[seat].commander:
                push(s.decisions, Decision(COMMANDER, [seat], source="setup"))
                return
        if not s.dealt:  # RULINGS 5-6: the deal comes after both Commanders are chosen
            s.dealt = True
            for seat in range(s.num_players):
                self.draw(s, seat, HAND, events)
        for seat in (s.first, 1 - s.first):
            if s.sides[seat].mulliganed < 0:
                push(s.decisions, Decision(MULLIGAN_D, [seat], optional=True, data={"returned": 0}))
                return
        self._refill(s, events, setup=True)
        s.turn, s.active, s.phase = 1, s.first, "deploy"
        emit(events, "turn", f"{seat_word(s.active)}'s turn 1", seat=s.active)
        kit.fire(self, s, "turn_start", self._watchers(s, s.active))

    def _refill(self, s: SiegeState, events: list[Event], setup: bool = False) -> None:
        """Tartarus to 6 minions, spells met on the way to the Agora (or the Deck's bottom when it has 6);
        at setup the Agora then to at least 4 (RULINGS 6, 19). When the Deck holds no minion, the Underworld
        is shuffled under it first; only when neither holds one does Tartarus stay short (RULINGS 52)."""
        while len(s.tartarus) < TARTARUS:
            if not any(CARDS[c].type == "minion" for c in s.deck):
                if not any(CARDS[c].type == "minion" for c in s.underworld):
                    break
                self._reshuffle(s, events, under=True)
            cid = s.deck.pop()
            if CARDS[cid].type == "minion":
                s.tartarus.append(Minion(s.mint(cid).uid, cid, NOBODY, piece=CARDS[cid].stat("artifact")))
            elif len(s.agora) < AGORA_MAX:
                s.agora.append(cid)
            else:
                s.deck.insert(0, cid)
        while setup and len(s.agora) < AGORA_MIN and s.deck:
            s.agora.append(s.deck.pop())
        emit(
            events,
            "refilled",
            f"Tartarus holds {plural(len(s.tartarus), 'prisoner')}, the Agora {plural(len(s.agora), 'card')}",
        )

    # -- whose move and what they may do -------------------------------------------------------

    def turn_player(self, s: SiegeState) -> PlayerId:
        """The player whose turn it is."""
        return s.active

    def turn_moves(self, s: SiegeState, player: PlayerId, kind: str | None = None) -> list[Action]:
        """Deploy: summon, cast, exchange, artifact and Commander abilities; Recruit; Attack; end."""
        out = [act(player, "end")]
        if s.phase in ("deploy", "recruit"):
            out.append(act(player, "next"))
        if s.moves >= MAX_MOVES:
            return out
        side, opp = s.sides[player], s.sides[1 - player]
        mine = len(side.minions)
        if s.phase == "deploy":
            for cid in sorted(set(side.hand)):
                spec = CARDS[cid]
                if spec.type == "minion":
                    if cid not in side.fresh and b.cost(cid) <= mine < MAX_MINIONS:
                        out.append(act(player, "summon", (("c", cid),)))
                elif spec.of_type("play") and self._castable(s, player, spec):
                    out.append(act(player, "cast", (("c", cid),)))
            if not s.exchanged and side.hand:
                for left in sorted(set(side.hand)):
                    for took in sorted(set(s.agora) - set(s.left)):
                        out.append(act(player, "exchange", (("c", left), ("g", took))))
            for h in side.artifacts:
                for _, a in ARTIFACTS[h.number].of_type("action"):
                    if (
                        not h.used
                        and kit.payable(self, s, player, h.uid, a)
                        and self._usable(s, player, h.uid, a)
                    ):
                        out.append(act(player, "act", (("n", h.number),)))
            if side.commander and not side.once_used:
                ab = COMMANDERS[side.commander].of_type("once")[0][1]
                if self._usable(s, player, side.commander_uid, ab):
                    out.append(act(player, "once"))
        elif s.phase == "recruit":
            for m in side.minions:
                if not m.attacked and b.can_attack(s, m):
                    out += [act(player, "recruit", (("u", m.uid), ("t", p.uid))) for p in s.tartarus]
        elif s.phase == "attack":
            targets = [m.uid for m in opp.minions if not s.target or m.uid == s.target]
            if s.target and b.on_board(s, s.target) is None:
                targets = []
            for m in side.minions:
                if m.attacked or not b.can_attack(s, m):
                    continue
                out += [act(player, "attack", (("u", m.uid), ("t", t))) for t in targets]
                if b.has(s, m, "primordial_attack"):
                    out.append(act(player, "attack", (("u", m.uid), ("t", opp.commander_uid))))
        return out

    def _castable(self, s: SiegeState, player: int, spec: CardSpec) -> bool:
        """A spell's cost is met and its ability's cost can be paid."""
        if b.cost(spec.id) > len(s.sides[player].minions):
            return False
        return all(kit.payable(self, s, player, 0, a) for _, a in spec.of_type("play"))

    def _usable(self, s: SiegeState, player: int, uid: int, a: Ability) -> bool:
        """Whether an ability would find a target for each of its chosen steps (RULINGS 16, 33)."""
        for step in a.effect:
            if step.do == "summon":
                if not self.summonable(s, player, step.get("zone"), step.get("max_cost")):
                    return False
            elif step.do == "take" and not self.takeable(s, step.get("zone"), step.get("kind", "any")):
                return False
            elif self.chosen(step.get("to", "self")):
                ctx = {"owner": player, "uid": uid, "event": 0, "card": ""}
                if not self.choices(s, ctx, step):
                    return False
        return True

    def answers(self, s: SiegeState, d: Decision, player: PlayerId) -> list[Action]:
        """The moves answering the pending decision (the pass of an optional one is added by the base)."""
        if d.kind in kit.KINDS:
            return kit.kit_moves(d, player)
        if d.kind == WINDOW:
            return [act(player, "respond", (("c", c),)) for c in self._responses(s, player, d.data["kind"])]
        if d.kind == OPTION:
            return [act(player, "option", (("o", i),)) for i in d.data["options"]]
        if d.kind == COMMANDER:
            taken = {side.commander for side in s.sides}
            return [act(player, "commander", (("c", c),)) for c in COMMANDERS if c not in taken]
        if d.kind == MULLIGAN_D:
            return [act(player, "return", (("c", c),)) for c in sorted(set(s.sides[player].hand))]
        if d.kind == DISCARD:
            return [act(player, "discard", (("c", c),)) for c in sorted(set(s.sides[player].hand))]
        raise ValueError(f"unknown decision {d.kind!r}")

    def _responses(self, s: SiegeState, player: int, kind: str) -> list[str]:
        """The Ambush and Disrupt cards a player may play into this window (RULINGS 20-22)."""
        side = s.sides[player]
        mine = len(side.minions)
        out = []
        for cid in sorted(set(side.hand)):
            spec = CARDS[cid]
            if b.cost(cid) > mine:
                continue
            if spec.of_type("disrupt"):
                out.append(cid)
            elif spec.of_type("ambush") and kind == "attack" and not side.ambushed:
                out += [cid] if spec.type == "spell" or (cid not in side.fresh and mine < MAX_MINIONS) else []
        return out

    def after_move(self, s: SiegeState, action: Action, events: list[Event]) -> None:
        """Resolve what the move set off, then carry the turn on until someone must decide. The board is
        settled first: artifacts, race synergies and victory are checked after every action (RULINGS 8,
        41), also one that resolves no ability (a summon without a Summon effect, an exchange, a "may"
        declined)."""
        self.settle(s, events)
        self.advance(s, events)

    # -- the turn ------------------------------------------------------------------------------

    def advance(self, s: SiegeState, events: list[Event]) -> None:
        """Resolve abilities, windows and attacks and run the automatic parts of the turn until a player
        must act."""
        while s.result is None:
            kit.run(self, s, events)
            if s.decisions or s.result is not None:
                return
            if s.phase == "setup":
                self._setup_step(s, events)
            elif s.combat is not None:  # before the window: an Ambush strike comes before the attack
                self._combat_step(s, events)
            elif s.window is not None:
                self._window_step(s, events)
            elif s.phase == "ending":
                self._end_turn(s, events)
            elif s.phase == "discarding":
                if len(s.sides[s.active].hand) > MAX_HAND:
                    push(s.decisions, Decision(DISCARD, [s.active], source="the end of your turn"))
                else:
                    self._next_turn(s, events)
            else:
                return

    def _window_step(self, s: SiegeState, events: list[Event]) -> None:
        """Open the window for the other player (whenever they hold a card: RULINGS 20), then carry out
        what opened it unless it was negated."""
        w = s.window
        assert w is not None
        if not w["opened"]:
            w["opened"] = True
            opp = 1 - w["player"]
            if s.sides[opp].hand:
                push(
                    s.decisions,
                    Decision(
                        WINDOW, [opp], optional=True, source=w.get("card", ""), data={"kind": w["kind"]}
                    ),
                )
            return
        if w["kind"] == "attack":
            s.window = None
            if not w["negated"] and b.on_board(s, w["attacker"]) is not None:
                s.combat = {"attacker": w["attacker"], "target": w["target"], "step": "attacked"}
            return
        self.carry_out(s)

    def carry_out(self, s: SiegeState) -> bool:
        """The spell, Summon effect, artifact or Commander ability waiting on the window (past or never
        opened) starts resolving, its Pick or Combine options chosen first; False while they are asked."""
        w = s.window
        assert w is not None
        spec = CARDS[w["card"]]
        if w["negated"]:
            s.window = None
            if w["kind"] == "spell":
                s.underworld.append(spec.id)
            return True
        kind = main_kind(spec) if w["kind"] != "action" else "action"
        abilities = spec.of_type(kind)
        need = 1 if "pick" in spec.keywords else 2 if "combine" in spec.keywords else 0
        if need and len(w["chosen"]) < need:
            owner, uid = w["player"], w.get("uid", 0)
            left = [i for i, _ in abilities if i not in w["chosen"]]
            usable = [i for i in left if self._usable(s, owner, uid, spec.abilities[i])]
            options = usable if len(usable) >= need - len(w["chosen"]) else left
            push(s.decisions, Decision(OPTION, [owner], source=spec.id, data={"options": options}))
            return False
        s.window = None
        if w["kind"] == "spell":
            s.underworld.append(spec.id)
        chosen = sorted(w["chosen"]) if need else [i for i, _ in abilities if i == w.get("ab", i)]
        for i in reversed(chosen):  # the stack resolves the first printed option first
            ctx = kit.new_ctx(s, w.get("uid", 0), spec.id, i, w["player"], w.get("event", 0))
            kit.activate(s, ctx)
            ctx["agreed"] = not spec.abilities[i].may
        return True

    def _combat_step(self, s: SiegeState, events: list[Event]) -> None:
        """An attack after its window, or an Ambush strike: a dodge (not against a recruit or a strike),
        then the defender's "attacked" triggers, then the blows (RULINGS 21, 45)."""
        c = s.combat
        assert c is not None
        attacker = b.on_board(s, c["attacker"])
        if c["step"] == "attacked":
            c["step"] = "strike"
            defender = b.find(s, c["target"])
            if attacker is None or defender is None:
                return
            if defender.dodge and not c.get("recruit") and not c.get("ambush"):
                defender.dodge = False
                s.combat = None
                emit(events, "dodged", f"{CARDS[defender.card].name} dodges the attack (Trickster)")
                return
            owner = defender.owner if defender.owner != NOBODY else 1 - attacker.owner
            if not defender.crippled:
                kit.fire(self, s, "attacked", [(defender.uid, defender.card, owner)], attacker.uid)
            return
        s.combat = None
        if attacker is None:
            return
        seat = b.commander_of(s, c["target"])
        if seat is not None:
            hit = b.stat(s, attacker, "attack")
            emit(events, "struck", f"{CARDS[attacker.card].name} attacks the enemy Commander for {hit}")
            self.damage(s, c["target"], hit, events)
        else:
            defender = b.find(s, c["target"])
            if defender is not None:
                self.fight(s, attacker, defender, events)
        self.settle(s, events)

    def fight(self, s: SiegeState, attacker: Minion, defender: Minion, events: list[Event]) -> None:
        """One attack between minions: the attacker deals its Attack, and takes the defender's back unless
        it is ranged and the defender is not; Lethal destroys what it damages (RULINGS 14, 27)."""
        hit, back = b.stat(s, attacker, "attack"), b.stat(s, defender, "attack")
        strikes_back = not (b.ranged(attacker) and not b.ranged(defender))
        emit(
            events,
            "fought",
            f"{CARDS[attacker.card].name} attacks {CARDS[defender.card].name}: {hit}"
            + (f", takes {back} back" if strikes_back else " (ranged)"),
            uid=attacker.uid,
            target=defender.uid,
        )
        blows = [(attacker, defender, hit)] + ([(defender, attacker, back)] if strikes_back else [])
        for source, victim, amount in blows:
            if amount <= 0:
                continue
            victim.damage += amount
            if b.has(s, source, "lethal"):
                victim.damage = max(victim.damage, b.stat(s, victim, "health"))
        self.settle(s, events)

    def _end_turn(self, s: SiegeState, events: list[Event]) -> None:
        """End of turn after its triggers (RULINGS 19): dodges, Health restored, "until the end of the turn"
        ends, Tartarus refilled; then the hand limit."""
        me, them = s.sides[s.active], s.sides[1 - s.active]
        for m in them.minions:
            m.dodge = False  # the dodges made for this turn expire
        if b.count(s, s.active, "class", "trickster") >= b.SYNERGY:
            for m in me.minions:
                if CARDS[m.card].flag("class") == "trickster":
                    m.dodge = True
        for m in [*b.field(s), *s.tartarus]:
            m.damage = 0
        expire(s.modifiers, TURN)
        self.settle(s, events)
        if s.result is not None:
            return
        self._refill(s, events)
        s.phase = "discarding"

    def _next_turn(self, s: SiegeState, events: list[Event]) -> None:
        """The next player's turn: draw (RULINGS 15), start-of-turn triggers and the Spellcaster synergy."""
        if s.turn >= MAX_TURNS:
            self._time_up(s, events)
            return
        s.active = 1 - s.active
        s.turn += 1
        s.phase, s.moves, s.exchanged, s.left, s.target = "deploy", 0, False, [], 0
        for side in s.sides:
            side.fresh, side.ambushed = [], False
            for m in side.minions:
                m.attacked = False
            for h in side.artifacts:
                h.used = False
        emit(events, "turn", f"{seat_word(s.active)}'s turn {s.turn}", seat=s.active)
        self.draw(s, s.active, 1, events)
        kit.fire(self, s, "turn_start", self._watchers(s, s.active))
        if b.count(s, s.active, "class", "spellcaster") >= b.SYNERGY:
            s.pending.append(kit.new_ctx(s, 0, "spellcaster", 0, s.active))

    def _time_up(self, s: SiegeState, events: list[Event]) -> None:
        """After 60 turns: most artifacts, then Commander Health, then minions; else a draw (RULINGS 40)."""
        for key in (
            lambda i: len(s.sides[i].artifacts),
            lambda i: -s.sides[i].wounds,
            lambda i: len(s.sides[i].minions),
        ):
            a, c = key(0), key(1)
            if a != c:
                self._win(s, [0 if a > c else 1], "after 60 turns", events)
                return
        self._win(s, [0, 1], "after 60 turns, all even", events)

    def _win(self, s: SiegeState, winners: list[int], why: str, events: list[Event]) -> None:
        s.result = {"winners": winners, "why": why}
        s.phase = "over"
        s.decisions.clear()  # nothing more resolves: no decision outlives the game
        s.pending.clear()
        s.resolving.clear()
        s.window = s.combat = None
        who = " and ".join(seat_word(w) for w in winners)
        text = f"{who} {'draw' if len(winners) > 1 else 'wins'}: {why}"
        emit(events, "won", text, seats=",".join(map(str, winners)))

    # -- the kit's Host: cards, selectors, costs ------------------------------------------------

    def active(self, s: SiegeState) -> PlayerId:
        """The turn player."""
        return s.active

    def chosen(self, selector: str) -> bool:
        """Whether the controller picks the card."""
        return selector in CHOSEN or selector.startswith("prey_")

    def choices(self, s: SiegeState, ctx: kit.Ctx, step: Step) -> list[int]:
        """The minions a chosen selector may pick (enemy Resistant minions never: RULINGS 28)."""
        selector, owner = step.get("to"), ctx["owner"]
        if selector.startswith("prey_"):  # RULINGS 13: an enemy of the prey race with cost 3 or less
            race = selector[5:]
            return [
                m.uid
                for m in s.sides[1 - owner].minions
                if CARDS[m.card].flag("race") == race and b.cost(m.card) <= 3 and not b.has(s, m, "resistant")
            ]
        return [m.uid for m in b.chosen(s, owner, ctx["uid"], selector, step.get("max_cost"))]

    def group(self, s: SiegeState, ctx: kit.Ctx, selector: str, step: Step | None = None) -> list[int]:
        """The minions or Commanders a fixed selector stands for (enemy Resistant minions skipped)."""
        owner = ctx["owner"]
        if selector == "enemy_commander":
            return [s.sides[1 - owner].commander_uid]
        if selector == "your_commander":
            return [s.sides[owner].commander_uid]
        if selector == "self":
            return [ctx["uid"]] if b.on_board(s, ctx["uid"]) is not None else []
        if selector == "event":
            m = b.find(s, ctx["event"])
            return [m.uid] if m is not None and not b.resistant_to(s, m, owner) else []
        if selector == "all_allies":
            pool = list(s.sides[owner].minions)
        elif selector == "other_allies":
            pool = [m for m in s.sides[owner].minions if m.uid != ctx["uid"]]
        elif selector == "all_enemies":
            pool = list(s.sides[1 - owner].minions)
        elif selector == "spell_victims":  # RULINGS 12: all but the Spellcasters making the synergy
            pool = [
                m
                for m in b.field(s)
                if not (m.owner == owner and CARDS[m.card].flag("class") == "spellcaster")
            ]
        else:  # all_minions
            pool = list(b.field(s))
        return [m.uid for m in pool if not b.resistant_to(s, m, owner)]

    def cost_options(self, s: SiegeState, owner: PlayerId, uid: int, cost: str) -> list[Arg]:
        """Discard: a card in hand; sacrifice: a minion you control."""
        if cost == "discard":
            return sorted(set(s.sides[owner].hand))
        return [m.uid for m in s.sides[owner].minions if m.uid != uid]

    def pay(self, s: SiegeState, ctx: kit.Ctx, cost: str, choice: Arg, events: list[Event]) -> None:
        """Pay a cost with the chosen card."""
        if cost == "discard":
            self.discard(s, ctx["owner"], str(choice), events)
        else:
            self.leave(s, int(choice), "sacrificed", events)

    def negated(self, s: SiegeState, ctx: kit.Ctx) -> bool:
        """Siege has no Claims: windows negate before anything resolves."""
        return False

    def settle(self, s: SiegeState, events: list[Event]) -> None:
        """After every step: destroyed minions leave, artifacts are taken, race synergies fire, and the
        game may be won (RULINGS 8, 13, 38, 41)."""
        if s.result is not None:
            return
        while True:
            dead = [m for m in b.field(s) if b.health_left(s, m) <= 0]
            jailed = [m for m in s.tartarus if b.health_left(s, m) <= 0]
            if not dead and not jailed:
                break
            for m in dead:
                if b.on_board(s, m.uid) is not None:
                    self.leave(s, m.uid, "destroyed", events)
            for m in jailed:
                self._recruited(s, m, events)
        for seat in (s.active, 1 - s.active):
            pieces = b.pieces_of(s, seat)
            for n in [n for n in s.pile if pieces.get(n, 0) >= 3]:
                self.take_artifact(s, seat, n, events, draw=True)
        for seat, side in enumerate(s.sides):
            counts = b.races(s, seat)
            for race in RACE_CYCLE:
                n = counts.get(race, 0)
                if n >= b.SYNERGY and race not in side.hot:
                    side.hot.append(race)
                    s.pending.append(kit.new_ctx(s, 0, f"race_{race}", 0, seat))
                elif n < b.SYNERGY and race in side.hot:
                    side.hot.remove(race)
        dead_commander = [i for i, side in enumerate(s.sides) if side.wounds >= COMMANDER_HEALTH]
        conquerors = [i for i, side in enumerate(s.sides) if len(side.artifacts) >= ARTIFACTS_TO_WIN]
        winners = sorted({1 - i for i in dead_commander} | set(conquerors))
        if winners:
            why = "conquers Olympus" if conquerors else "the enemy Commander falls"
            self._win(s, winners, why if len(winners) == 1 else "both at once", events)

    def name(self, s: SiegeState, uid: int) -> str:
        """How texts name a minion or Commander."""
        seat = b.commander_of(s, uid)
        if seat is not None:
            return f"{seat_word(seat)}'s Commander"
        m = b.find(s, uid)
        return CARDS[m.card].name if m else "a minion"

    def window_words(self, s: SiegeState) -> str:
        """What the open window is about, in words."""
        w = s.window or {}
        if w.get("kind") == "attack":
            return f"{self.name(s, w['attacker'])}'s attack"
        return f"{CARDS[w['card']].name}'s effect" if w.get("card") in CARDS else "The effect"

    # -- views ---------------------------------------------------------------------------------

    def view(self, s: SiegeState, viewer: PlayerId | None) -> SiegeView:
        """Everything public, and a Hand only for its owner."""
        return _view(self, s, viewer)

    def describe(self, s: SiegeState, action: Action) -> tuple[str, ...]:
        """A menu path in the game's words."""
        return _describe(s, action)

    # -- hidden information --------------------------------------------------------------------

    def hidden(self, s: SiegeState, observer: PlayerId) -> list[list[Slot]]:
        """The other player's Hand and the Deck together; apart while the observer searches the Deck (they
        see what it holds, not its order). The other player's cards taken this turn from Tartarus or the
        Underworld (`fresh`) were taken in the open: they stay where they are."""
        hand = s.sides[1 - observer].hand
        known = list(s.sides[1 - observer].fresh)
        unknown = []
        for slot in slots(hand):
            if hand[slot[1]] in known:
                known.remove(hand[slot[1]])
            else:
                unknown.append(slot)
        d = s.decisions[-1] if s.decisions else None
        if d is not None and d.kind == kit.PICK and d.data.get("what") == "deck" and observer in d.players:
            return [unknown, slots(s.deck)]
        return [unknown + slots(s.deck)]

    def after_determinize(self, s: SiegeState, observer: PlayerId, renamed: dict[Any, Any]) -> None:
        """Hands are kept sorted, and a pick the other player has waiting offers what their new Hand or the
        new Deck holds, never the true cards. (No pick of a hidden card waits in an ability half done: each
        is used at once, and Exchange asks for its Agora card first.)"""
        for side in s.sides:
            side.hand.sort()
        d = s.decisions[-1] if s.decisions else None
        if d is not None and d.kind == kit.PICK and observer not in d.players and s.resolving:
            options = self._offered(s, d.players[0], d.data.get("what", ""), s.resolving[-1])
            if options is not None:
                d.data["options"] = options

    def _offered(self, s: SiegeState, player: int, what: str, ctx: kit.Ctx) -> list[Arg] | None:
        """What a waiting pick from a hidden place offers now (None for a pick among public things)."""
        hand = s.sides[player].hand
        if what in ("leave", "discard"):  # Exchange, a discard, a "Discard a card:" cost
            return sorted(set(hand))
        if what == "add":
            return sorted({c for c in hand if CARDS[c].type == "minion"})
        step = kit.ability(self, ctx).effect[ctx["step"]] if ctx["paid"] else None
        if what == "deck" and step is not None:
            return self.takeable(s, "deck", step.get("kind", "any"))
        if what == "summon" and step is not None and step.get("zone") == "hand":
            return self.summonable(s, player, "hand", step.get("max_cost"))
        return None


# -- moves ---------------------------------------------------------------------------------------


def _count(s: SiegeState, a: Action) -> None:
    if a.player == s.active and s.phase in ("deploy", "recruit", "attack"):
        s.moves += 1


@move("summon")
def _summon(game: Siege, s: SiegeState, a: Action, events: list[Event]) -> None:
    _count(s, a)
    cid = str(a.arg("c"))
    game.unhand(s, a.player, cid)
    m = game.enter(s, a.player, cid, events)
    if CARDS[cid].of_type("summon"):
        s.window = window("summon", a.player, cid, uid=m.uid, event=m.uid)


@move("cast")
def _cast(game: Siege, s: SiegeState, a: Action, events: list[Event]) -> None:
    _count(s, a)
    cid = str(a.arg("c"))
    game.unhand(s, a.player, cid)
    emit(events, "cast", f"{seat_word(a.player)} plays {CARDS[cid].name}", seat=a.player, card=cid)
    s.window = window("spell", a.player, cid)


@move("exchange")
def _exchange(game: Siege, s: SiegeState, a: Action, events: list[Event]) -> None:
    _count(s, a)
    s.exchanged = True
    game.exchange(s, a.player, str(a.arg("c")), str(a.arg("g")), events)


@move("act")
def _act(game: Siege, s: SiegeState, a: Action, events: list[Event]) -> None:
    _count(s, a)
    n = int(a.arg("n"))
    h = next(x for x in s.sides[a.player].artifacts if x.number == n)
    h.used = True
    spec = ARTIFACTS[n]
    emit(events, "activated", f"{seat_word(a.player)} uses {spec.name}", seat=a.player)
    s.window = window("action", a.player, spec.id, uid=h.uid, ab=spec.of_type("action")[0][0])


@move("once")
def _once(game: Siege, s: SiegeState, a: Action, events: list[Event]) -> None:
    _count(s, a)
    side = s.sides[a.player]
    side.once_used = True
    spec = COMMANDERS[side.commander]
    emit(events, "once", f"{seat_word(a.player)}'s {spec.name} uses their power", seat=a.player)
    s.window = window("once", a.player, spec.id, uid=side.commander_uid)


@move("next")
def _next(game: Siege, s: SiegeState, a: Action, events: list[Event]) -> None:
    s.phase = "recruit" if s.phase == "deploy" else "attack"
    emit(events, "phase", f"{seat_word(a.player)} goes to the {s.phase.capitalize()} phase", seat=a.player)


@move("end")
def _end(game: Siege, s: SiegeState, a: Action, events: list[Event]) -> None:
    s.phase = "ending"
    emit(events, "ended", f"{seat_word(a.player)} ends the turn", seat=a.player)
    kit.fire(game, s, "turn_end", game._watchers(s, a.player))


def _attacker(s: SiegeState, a: Action) -> Minion:
    """The minion a recruit or an attack sends (argument "u"), marked as having attacked; the move counted."""
    _count(s, a)
    m = b.on_board(s, int(a.arg("u")))
    assert m is not None
    m.attacked = True
    return m


@move("recruit")
def _recruit(game: Siege, s: SiegeState, a: Action, events: list[Event]) -> None:
    m = _attacker(s, a)
    p = b.find(s, int(a.arg("t")))
    emit(events, "recruiting", f"{CARDS[m.card].name} attacks the prisoner {CARDS[p.card].name if p else ''}")
    s.combat = {"attacker": m.uid, "target": int(a.arg("t")), "step": "attacked", "recruit": True}


@move("attack")
def _attack(game: Siege, s: SiegeState, a: Action, events: list[Event]) -> None:
    m = _attacker(s, a)
    target = int(a.arg("t"))
    if b.commander_of(s, target) is None:
        s.target = target  # RULINGS 18: the turn's one target
    what = game.name(s, target)
    emit(events, "attacks", f"{CARDS[m.card].name} attacks {what}", uid=m.uid, target=target)
    s.window = window("attack", a.player, m.card, attacker=m.uid, target=target, event=m.uid)


@move("respond")
def _respond(game: Siege, s: SiegeState, a: Action, events: list[Event]) -> None:
    cid, p = str(a.arg("c")), a.player
    side, spec, w = s.sides[p], CARDS[str(a.arg("c"))], s.window
    assert w is not None
    game.unhand(s, p, cid)
    kind = "disrupt" if spec.of_type("disrupt") else "ambush"
    event = w.get("event", 0)
    uid = 0
    if kind == "ambush":
        side.ambushed = True
    if spec.type == "minion":
        uid = game.enter(s, p, cid, events, how="summons by Ambush").uid
    else:
        s.underworld.append(cid)
        emit(events, "responded", f"{seat_word(p)} answers with {spec.name}", seat=p, card=cid)
    for i, _ in reversed(spec.of_type(kind)):
        kit.activate(s, kit.new_ctx(s, uid, cid, i, p, event))


@move(PASS)
def _pass(game: Siege, s: SiegeState, a: Action, events: list[Event]) -> None:
    d = answering()
    if d is None:
        return
    if d.kind == WINDOW:
        emit(events, "passed", f"{seat_word(a.player)} lets it happen", seat=a.player)
    elif d.kind == MULLIGAN_D:
        _mulligan_done(game, s, a.player, int(d.data["returned"]), events)
    elif d.kind == kit.MAY:
        kit.answer(s, d, a)
    elif d.kind == kit.PICK:  # "up to N": take no more (RULINGS 51)
        s.resolving[-1]["picks"].append(_own.STOP)


@move("return")
def _return(game: Siege, s: SiegeState, a: Action, events: list[Event]) -> None:
    d = answering()
    n = int(d.data["returned"]) + 1 if d is not None else 1
    side = s.sides[a.player]
    game.unhand(s, a.player, str(a.arg("c")))
    s.deck.append(str(a.arg("c")))
    emit(events, "returned_card", f"{seat_word(a.player)} returns a card to the Deck", seat=a.player)
    if n < MULLIGAN and side.hand:
        push(s.decisions, Decision(MULLIGAN_D, [a.player], optional=True, data={"returned": n}))
    else:
        _mulligan_done(game, s, a.player, n, events)


def _mulligan_done(game: Siege, s: SiegeState, seat: int, n: int, events: list[Event]) -> None:
    s.sides[seat].mulliganed = n
    if n:
        s.rng.shuffle(s.deck)
        game.draw(s, seat, n, events)
    else:
        emit(events, "kept", f"{seat_word(seat)} keeps their hand", seat=seat)


@move("commander")
def _commander(game: Siege, s: SiegeState, a: Action, events: list[Event]) -> None:
    game._take_commander(s, a.player, str(a.arg("c")), events)


@move("option")
def _option(game: Siege, s: SiegeState, a: Action, events: list[Event]) -> None:
    assert s.window is not None
    s.window["chosen"].append(int(a.arg("o")))


@move("discard")
def _discard(game: Siege, s: SiegeState, a: Action, events: list[Event]) -> None:
    game.discard(s, a.player, str(a.arg("c")), events)


@move(kit.PICK, kit.ORDER, kit.USE)
def _answer(game: Siege, s: SiegeState, a: Action, events: list[Event]) -> None:
    kit.answer(s, answering(), a)


from engine.games.siege_of_olympus.view import SiegeView, _describe, _view  # noqa: E402  (the view reads the rules)
