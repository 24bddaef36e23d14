"""Ophidian 2350's rules: setup (teams, the 9-draw-2-bottom, The Flow, the arrangement), the Wave (actions
with flow symbols, responses in windows, Cheer spent to turn + into −, two passes), attacks with Intercept,
Protect, DDMG and Rage, Strategy cards, the Breather's five steps and victory. The game class is the card
kit's Host. RULINGS.md numbers are cited where a rule is ours."""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

from engine import eventlog, packs
from engine.abilities import resolve as kit
from engine.abilities.spec import Ability, CardSpec, Step
from engine.core import JSON, Action, Arg, Event, PlayerId
from engine.core import action as act
from engine.games.ophidian import board as b
from engine.games.ophidian import effects as fx
from engine.games.ophidian.attacks import Attacks
from engine.games.ophidian.breather import ARRANGE, BOTTOM, MAINTAIN, PROMOTE, REINFORCE, SCRAP, Breather
from engine.games.ophidian.cards import (
    ACTIVATED,
    CARDS,
    CP_BASE,
    EXTRA_DRAW,
    HAND,
    MAX_ACTIONS_PER_WAVE,
    MAX_WAVES,
    PROMOTE_HEAL,
    PROMOTION,
    RESPONSE_EVENTS,
    TEAMS,
    Team,
    add_pack,
    team_choice,
)
from engine.games.ophidian.decks import team_of, unseen_arsenal
from engine.games.ophidian.state import ACTION, SUPPORT, Char, OphidianState, Side
from engine.games.ophidian.table import leaves_hand, seat_word
from engine.rng import Rng
from engine.table.base import Moves, Slot, TableGame, slots
from engine.table.decisions import PASS, Decision, answering, push
from engine.table.events import emit
from engine.table.present import deck_of, picked

WINDOW, CHEER = "window", "cheer"  # a response window; the offer to spend Cheer on a + action
SYMBOLS = {"plus": "+", "minus": "-", "query": "?"}
MAX_X = 6  # the largest X offered for a paid X (RULINGS 41)


move: Moves[Ophidian, OphidianState] = Moves()  # the moves, registered below the class with @move(kind)


class Ophidian(Attacks, Breather, TableGame[OphidianState]):
    """Ophidian 2350: two teams of Gladiators fight through four Waves for The Flow, the crowd and VP."""

    id: ClassVar[str] = "ophidian"
    title: ClassVar[str] = "Ophidian 2350"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    max_actions: ClassVar[int] = MAX_WAVES * (2 * MAX_ACTIONS_PER_WAVE * 12 + 300) + 100  # RULINGS 58
    # 2: a Set bearer's Pump does not attack (RULINGS 21, 64); Regenerate draws a hand of 8 to 9 and puts 2
    # back (46); Reinforcements are promoted to Level 1 (4, 48); a saved deck is marked `custom` (67)
    rules_version: ClassVar[int] = 2
    state_cls: ClassVar[type] = OphidianState
    moves = move
    effects = fx.effect  # the card abilities' effects, by name

    # -- setup ---------------------------------------------------------------------------------

    def from_json(self, data: JSON) -> OphidianState:
        """The state from JSON, its card pack's cards made known to this process first."""
        add_pack(data.get("pack", ""))
        return super().from_json(data if "pack" in data else {**data, "pack": ""})

    def setup(self, num_players: int, seed: int, options: JSON | None = None) -> OphidianState:
        """Each team in play at Level 1, Arsenals shuffled and 9 drawn, CP 11 and Cheer 0, a random player
        with The Flow; then both put 2 on the bottom and arrange their Gladiators (RULINGS 11)."""
        self.check_players(num_players)
        rng = Rng(seed)
        s = OphidianState(num_players, rng, [Side(), Side()], pack=packs.text(options, self.id))
        cards, teams = add_pack(s.pack)  # a pack's ready teams join the game's own (RULINGS 68)
        ready = {**TEAMS, **teams}
        events: list[Event] = []
        for seat in range(num_players):
            team = self._deck(options, seat, rng, events, (teams, cards))
            side = s.sides[seat]
            side.team, side.started, side.stack = team.name, len(team.gladiators), list(team.stack)
            side.custom = team.id not in ready  # a saved deck: its list is its player's secret (RULINGS 67)
            side.chars = [Char(s.mint(g).uid, g, seat, ACTION) for g in team.gladiators]
            side.arsenal = list(team.arsenal)
            rng.shuffle(side.arsenal)
            side.cp, side.owe = CP_BASE + 1, EXTRA_DRAW
            emit(events, "team", f"{seat_word(seat)} fields {team.name}", seat=seat)
            self.draw(s, seat, HAND + EXTRA_DRAW, events)
        s.flow = rng.below(num_players)
        emit(events, "flow", f"{seat_word(s.flow)} has The Flow", seat=s.flow)
        self.advance(s, events)
        eventlog.record(s.log, events)
        return s

    def _deck(
        self,
        options: JSON | None,
        seat: int,
        rng: Rng,
        events: list[Event],
        pack: tuple[dict[str, Team], dict[str, CardSpec]],
    ) -> Team:
        """A seat's team: a saved deck from options["decks"], a ready team picked in the lobby, or a ready
        team at random (RULINGS 8-10), the game's card pack's teams and cards among them (68). A saved deck
        that is no longer legal (the pool changed since it was saved) gives way to a random ready team rather
        than stopping the game."""
        teams, cards = pack
        ready = {**TEAMS, **teams}
        deck = deck_of(options, seat)
        if deck is not None:
            try:
                return team_of(deck, cards)
            except ValueError as e:
                why = f"{seat_word(seat)}'s saved deck is not legal now ({e}): a ready team instead"
                emit(events, "refused", why, seat=seat)
        tid = picked(options, seat, team_choice(teams))
        if tid is None:
            tid = sorted(ready)[rng.below(len(ready))]
        return ready[tid]

    # -- whose move and what they may do -------------------------------------------------------

    def turn_player(self, s: OphidianState) -> PlayerId:
        """The player with The Flow."""
        return s.flow

    def turn_moves(self, s: OphidianState, player: PlayerId, kind: str | None = None) -> list[Action]:
        """The actions of the player with The Flow (RULINGS 13): play a card, advance, retreat, attack, use
        an ability, spend Cheer on the last + action, or pass."""
        out = [act(player, PASS)]
        side = s.sides[player]
        if s.spendable and side.cheer:
            out.append(act(player, "spend"))
        if s.phase != "wave" or side.actions >= MAX_ACTIONS_PER_WAVE:
            return out
        for cid in sorted(set(side.hand)):
            spec = CARDS[cid]
            if spec.flag("response") or not self._playable(s, player, cid):
                continue
            room = side.cp - spec.stat("cp")
            if b.x_kind(cid) == "paid":
                out += [act(player, "play", (("c", cid), ("x", x))) for x in range(1, min(room, MAX_X) + 1)]
            else:
                out.append(act(player, "play", (("c", cid),)))
        enemies = [e.uid for e in s.sides[1 - player].chars]
        for c in side.chars:
            if c.field == SUPPORT and not c.advanced:
                out.append(act(player, "advance", (("u", c.uid),)))
            if c.field == ACTION and not c.retreated and not b.raging_now(s, c):
                out.append(act(player, "retreat", (("u", c.uid),)))
            if c.field == ACTION and not c.set:
                out += [act(player, "attack", (("u", c.uid), ("t", t))) for t in enemies]
            out += self._abilities(s, player, c.uid, c.card, c.used)
        for p in s.pumps:
            if p.owner == player:
                out += self._abilities(s, player, p.uid, p.card, p.used)
        return out

    def _abilities(self, s: OphidianState, player: int, uid: int, cid: str, used: list[int]) -> list[Action]:
        """The activated abilities of one card in play its controller may use now (RULINGS 19, 42, 62)."""
        out = []
        for i, a in enumerate(CARDS[cid].abilities):
            if a.type not in ACTIVATED or i in used or not kit.payable(self, s, player, uid, a):
                continue
            if self._usable(s, player, uid, cid, a):
                out.append(act(player, "ability", (("u", uid), ("a", i))))
        return out

    def _playable(self, s: OphidianState, player: int, cid: str) -> bool:
        """Requirement, CP, Unique and a target for its first choice (RULINGS 35, 39)."""
        spec, side = CARDS[cid], s.sides[player]
        if spec.stat("cp") > side.cp or not b.can_play(s, player, cid):
            return False
        if b.spent(s, player, cid):
            return False
        if b.x_kind(cid) == "paid" and side.cp - spec.stat("cp") < 1:
            return False
        return all(self._usable(s, player, 0, cid, a) for _, a in spec.of_type("play") if a.cost != "crowd")

    def _usable(self, s: OphidianState, player: int, uid: int, cid: str, a: Ability) -> bool:
        """The first step that chooses finds something to choose (RULINGS 35)."""
        ctx = {"owner": player, "uid": uid, "card": cid}
        for step in a.effect:
            if step.do == "deploy":
                return bool(self.deployable(s, player, step.get("max_cp", 0)))
            if step.do == "assault" and step.get("by") == "ally":
                return any(c.field == ACTION and not c.set for c in s.sides[player].chars)
            if step.do == "assault":  # this card (Unset: its ↷ is the attack's Set) or a Pump's bearer
                found = b.fixed(s, ctx, step.get("by", "self"), None)
                attacker = b.find(s, found[0]) if found else None
                return attacker is not None and attacker.field == ACTION and not attacker.set  # RULINGS 21
            if step.do in ("recover", "draw", "cheer", "cp", "flow", "cancel", "discard"):
                continue
            if self.chosen(step.get("to", "self")):
                return bool(self.choices(s, ctx, step))
        return True

    def deployable(self, s: OphidianState, player: int, max_cp: int) -> list[str]:
        """The Minions in hand a `deploy` may put into play (RULINGS 64)."""
        side = s.sides[player]
        return [
            c
            for c in sorted(set(side.hand))
            if CARDS[c].type == "minion"
            and CARDS[c].stat("cp") <= max_cp
            and b.can_play(s, player, c)
            and not b.spent(s, player, c)
        ]

    def responses(self, s: OphidianState, player: int, events: list[str]) -> list[str]:
        """The response Quick-Hits a player may play into a window now (RULINGS 16, 63)."""
        out = []
        for cid in sorted(set(s.sides[player].hand)):
            spec = CARDS[cid]
            kind = spec.flag("response")
            if not kind or (kind == "or" and s.flow != player) or (kind == "dr" and s.flow == player):
                continue
            ons = [a.on for _, a in spec.of_type("trigger")]
            if not any(on in events and on in RESPONSE_EVENTS[kind] for on in ons):
                continue
            if (
                spec.stat("cp") > s.sides[player].cp
                or b.spent(s, player, cid)
                or not b.can_play(s, player, cid)
            ):
                continue
            if all(self._usable(s, player, 0, cid, a) for _, a in spec.of_type("trigger")):
                out.append(cid)
        return out

    def answers(self, s: OphidianState, d: Decision, player: PlayerId) -> list[Action]:
        """The moves answering the pending decision (the pass of an optional one is added by the base)."""
        if d.kind in kit.KINDS:
            return kit.kit_moves(d, player)
        side = s.sides[player]
        if d.kind == WINDOW:
            return [act(player, "respond", (("c", c),)) for c in self.responses(s, player, d.data["events"])]
        if d.kind == fx.DEFEND:
            return [act(player, "intercept", (("u", u),)) for u in d.data["intercept"]] + [
                act(player, "protect", (("u", u),)) for u in d.data["protect"]
            ]
        if d.kind == CHEER:
            return [act(player, "spend")]
        if d.kind in (BOTTOM, SCRAP):
            return [act(player, d.kind, (("c", c),)) for c in sorted(set(side.hand))]
        if d.kind == ARRANGE:
            return [act(player, "place", (("u", c.uid),)) for c in side.chars if not c.moved]
        if d.kind == MAINTAIN:
            return [
                act(player, "keep", (("u", u),))
                for u in self._upkeep(s, player)
                if self._fee(s, u) <= side.cp
            ]
        if d.kind == PROMOTE:
            return [
                act(player, "promote", (("u", c.uid),))
                for c in side.chars
                if b.gladiator(c) and c.level < b.top_level(c)  # RULINGS 48: a Reinforcement too
            ]
        if d.kind == REINFORCE:
            return [
                act(player, "reinforce", (("c", c),)) for c in sorted(set(self._reinforcements(s, player)))
            ]
        raise ValueError(f"unknown decision {d.kind!r}")

    # -- the flow of play ------------------------------------------------------------------------

    def after_move(self, s: OphidianState, action: Action, events: list[Event]) -> None:
        """Settle the board, then carry the game on until someone must decide."""
        self.settle(s, events)
        self.advance(s, events)

    def advance(self, s: OphidianState, events: list[Event]) -> None:
        """Resolve abilities, windows, attacks and cards, finish the action, and run the automatic parts
        (setup, the end of a Wave, the Breather) until a player must act."""
        while s.result is None:
            kit.run(self, s, events)
            if s.decisions or s.result is not None:
                return
            if s.windows:
                self._open_window(s)
            elif s.attack is not None:
                self._attack_step(s, events)
            elif s.playing:
                self._play_step(s, events)
            elif s.limbo:
                for seat, cid in s.limbo:
                    s.sides[seat].scrap.append(cid)
                s.limbo.clear()
            elif s.action is not None:
                self._finish(s, events)
            elif s.phase == "ending":
                self._breather(s, events)
            elif s.phase in ("setup", "breather"):
                self._step(s, events)
            else:
                return
            self.settle(s, events)

    def _open_window(self, s: OphidianState) -> None:
        """A response window, offered whenever the player holds a card (RULINGS 16)."""
        w = s.windows.pop(0)
        if s.sides[w["player"]].hand:
            source = s.playing[-1]["card"] if w["events"] == ["enemy_plays"] and s.playing else "window"
            push(s.decisions, Decision(WINDOW, [w["player"]], optional=True, source=source, data=w))

    def begin(self, s: OphidianState, player: int, symbol: str, events: list[Event]) -> None:
        """An action starts: who Rages is read now (RULINGS 29), the passes are broken (18)."""
        s.action = {"player": player, "symbol": symbol, "plus": symbol == "+", "defeats": 0}
        s.passed = s.spendable = False
        s.sides[player].actions += 1
        s.calm = [c.uid for c in b.chars(s) if not b.raging_now(s, c)]

    def _finish(self, s: OphidianState, events: list[Event]) -> None:
        """An action has resolved: + keeps The Flow (the opponent may spend Cheer to turn it), − passes it
        (RULINGS 14, 17)."""
        a, s.action, s.calm = s.action, None, []
        assert a is not None
        if a["plus"]:
            s.spendable = True
            opp = 1 - a["player"]
            if s.sides[opp].cheer:
                push(s.decisions, Decision(CHEER, [opp], optional=True, source="cheer"))
        else:
            self._pass_flow(s, events)

    def _pass_flow(self, s: OphidianState, events: list[Event]) -> None:
        s.spendable = False
        s.flow = 1 - s.flow
        emit(events, "flow", f"The Flow passes to {seat_word(s.flow)}", seat=s.flow)

    def play(self, s: OphidianState, player: int, cid: str, x: int, events: list[Event]) -> None:
        """Pay for a Strategy card from hand and start playing it (RULINGS 35)."""
        side = s.sides[player]
        spec = CARDS[cid]
        side.cp -= spec.stat("cp") + x
        leaves_hand(side, cid)
        extra = f" (X = {x})" if x else ""
        emit(events, "played", f"{seat_word(player)} plays {spec.name}{extra}", seat=player, card=cid)
        self.start_play(s, player, cid, x, events)

    def start_play(
        self, s: OphidianState, player: int, cid: str, x: int, events: list[Event], free: bool = False
    ) -> None:
        """A card is played: Unique counted, the opponent's window queued, then it resolves (RULINGS 35)."""
        side = s.sides[player]
        if free:
            leaves_hand(side, cid)
            emit(events, "deployed", f"{seat_word(player)} puts {CARDS[cid].name} into play", seat=player)
        if "unique" in CARDS[cid].keywords:
            side.unique.append(CARDS[cid].name)
        s.playing.append({"player": player, "card": cid, "x": x, "stage": "window", "cancelled": False})

    def _play_step(self, s: OphidianState, events: list[Event]) -> None:
        """The card being played: the opponent's window, then it resolves, then it is done."""
        p = s.playing[-1]
        player, cid = p["player"], p["card"]
        spec = CARDS[cid]
        if p["stage"] == "window":
            p["stage"] = "resolve"
            kit.fire(self, s, "enemy_plays", self.side_watchers(s, 1 - player))
            self.window(s, 1 - player, "enemy_plays")
            return
        if p["stage"] == "resolve":
            p["stage"] = "done"
            if p["cancelled"]:
                s.playing.pop()
                s.sides[player].scrap.append(cid)
                return
            uid = 0
            if spec.type == "minion":
                uid = self.enter(s, player, cid, events).uid
            elif spec.type == "quick_hit":
                s.limbo.append([player, cid])
            for i, _ in reversed(spec.of_type("play")):
                ctx = kit.new_ctx(s, uid, cid, i, player)
                ctx["x"] = p["x"]
                kit.activate(s, ctx)
            return
        s.playing.pop()
        if spec.type == "pump" and not p.get("attached"):
            s.sides[player].scrap.append(cid)

    # -- the kit's Host: cards, selectors, costs ------------------------------------------------

    def active(self, s: OphidianState) -> PlayerId:
        """The player with The Flow (their triggers resolve first)."""
        return s.flow

    def chosen(self, selector: str) -> bool:
        """Whether the controller picks the card (RULINGS 65)."""
        return selector in ("enemy", "ally", "other_ally", "enemy_pump")

    def choices(self, s: OphidianState, ctx: kit.Ctx, step: Step) -> list[int]:
        """The characters or Pumps a chosen selector may pick."""
        return b.chosen(s, ctx["owner"], ctx["uid"], step)

    def group(self, s: OphidianState, ctx: kit.Ctx, selector: str, step: Step | None = None) -> list[int]:
        """The characters a fixed selector stands for, filtered by the step."""
        return b.fixed(s, ctx, selector, step)

    def cost_options(self, s: OphidianState, owner: PlayerId, uid: int, cost: str) -> list[Arg]:
        """↷: this card is Unset; ★: its controller is the Crowd Favorite; Cheer: 1 to spend; a card in hand
        to scrap; Scrap this (RULINGS 62)."""
        if cost == "set":
            card = b.find(s, uid) or b.pump(s, uid)
            return [""] if card is not None and not card.set else []
        if cost == "crowd":
            return [""] if b.crowd_favorite(s, owner) else []
        if cost == "cheer":
            return [""] if s.sides[owner].cheer else []
        if cost == "discard":
            return sorted(set(s.sides[owner].hand))
        return [""] if b.pump(s, uid) or b.find(s, uid) else []

    def pay(self, s: OphidianState, ctx: kit.Ctx, cost: str, choice: Arg, events: list[Event]) -> None:
        """Pay a cost."""
        uid, owner = ctx["uid"], ctx["owner"]
        if cost == "set":
            self.turn(s, uid, True, events)
        elif cost == "cheer":
            s.sides[owner].cheer -= 1
            emit(events, "spent", f"{seat_word(owner)} spends 1 Cheer")
        elif cost == "discard":
            self.discard(s, owner, str(choice), events)
        elif cost == "scrap":
            holder = b.pump(s, uid)
            if holder is not None:
                ctx["bearer"] = holder.bearer
                self.scrap_pump(s, uid, events)
            elif (c := b.find(s, uid)) is not None:
                self.leave(s, c, "scrapped", events)

    def negated(self, s: OphidianState, ctx: kit.Ctx) -> bool:
        """Ophidian has no Claims."""
        return False

    # -- views ---------------------------------------------------------------------------------

    def view(self, s: OphidianState, viewer: PlayerId | None) -> OphidianView:
        """Everything public, and a hand only for its owner."""
        return _view(self, s, viewer)

    def describe(self, s: OphidianState, action: Action) -> tuple[str, ...]:
        """A menu path in the game's words."""
        return _describe(self, s, action)

    # -- hidden information --------------------------------------------------------------------

    def hidden(self, s: OphidianState, observer: PlayerId) -> list[list[Slot]]:
        """The opponent's hand and Arsenal together (a ready team's: its list is public), the observer's own
        Arsenal above the cards they put on its bottom. An opponent's saved deck is dealt by `determinize`
        from the pool instead (RULINGS 67)."""
        opp, mine = s.sides[1 - observer], s.sides[observer]
        own = slots(mine.arsenal)[mine.known :]
        return [own] if opp.custom else [slots(opp.hand) + slots(opp.arsenal), own]

    def determinize(self, s: OphidianState, observer: PlayerId, seed: int) -> OphidianState:
        """The hidden places dealt anew (the base); the hand and Arsenal of an opponent's saved deck from a
        legal Arsenal holding what the observer has seen of it, never from its true list (RULINGS 67)."""
        d = super().determinize(s, observer, seed)
        seat = 1 - observer
        side = d.sides[seat]
        if side.custom:
            rng = Rng(seed ^ _UNSEEN)
            n, unseen = len(side.hand), len(side.hand) + len(side.arsenal) - len(side.shown)
            fill = unseen_arsenal(_team(d, seat), _seen(d, seat), unseen, rng, add_pack(d.pack)[0])
            if side.shown:
                fill += side.shown
                rng.shuffle(fill)
            side.hand, side.arsenal = sorted(fill[:n]), fill[n:]
        kit.redeal_discards(d, lambda seat: d.sides[seat].hand)  # again, after the saved deck's redeal
        return d

    def after_determinize(self, s: OphidianState, observer: PlayerId, renamed: dict[Any, Any]) -> None:
        """Hands are kept sorted; a waiting discard offers the hand dealt, not the true one."""
        for side in s.sides:
            side.hand.sort()
        kit.redeal_discards(s, lambda seat: s.sides[seat].hand)


_UNSEEN = 0x0B5E  # mixed into determinize's seed for an unseen Arsenal


def _team(s: OphidianState, seat: int) -> list[str]:
    """The cards of a side's team, all face up: in play, in the Funeral Pyre and in the Gladiator Stack."""
    side = s.sides[seat]
    return [c.card for c in side.chars if b.gladiator(c)] + side.pyre + side.stack


def _seen(s: OphidianState, seat: int) -> Counter[str]:
    """The Strategy cards of a side's Arsenal its opponent has seen (RULINGS 67): in the Scrap pile, its
    Minions and Pumps in play, its cards being played or resolving, the cards shown going into its hand."""
    side = s.sides[seat]
    seen = Counter(side.scrap + side.shown)
    seen.update(c.card for c in side.chars if not b.gladiator(c))
    seen.update(p.card for p in s.pumps if p.owner == seat)
    seen.update(cid for who, cid in s.limbo if who == seat)
    seen.update(p["card"] for p in s.playing if p["player"] == seat)
    return seen


# -- moves ---------------------------------------------------------------------------------------


@move("play")
def _play(game: Ophidian, s: OphidianState, a: Action, events: list[Event]) -> None:
    cid = str(a.arg("c"))
    symbol = CARDS[cid].flag("flow")
    game.begin(s, a.player, symbol, events)
    x = dict(a.args).get("x", 0)
    game.play(s, a.player, cid, int(x), events)


def _to_field(
    game: Ophidian, s: OphidianState, a: Action, flow: str, field: str, events: list[Event]
) -> Char:
    """The character an advance or a retreat moves (argument "u"), put in its new field once the move's + or
    − is spent on The Flow."""
    c = b.find(s, int(a.arg("u")))
    assert c is not None
    game.begin(s, a.player, flow, events)
    c.field = field
    return c


@move("advance")
def _advance(game: Ophidian, s: OphidianState, a: Action, events: list[Event]) -> None:
    c = _to_field(game, s, a, "+", ACTION, events)
    c.advanced = True
    emit(events, "advanced", f"{game.name(s, c.uid)} advances to the Action Field", uid=c.uid)
    kit.fire(game, s, "advances", game.watchers(s, c.uid), c.uid)


@move("retreat")
def _retreat(game: Ophidian, s: OphidianState, a: Action, events: list[Event]) -> None:
    c = _to_field(game, s, a, "-", SUPPORT, events)
    c.retreated = True
    emit(events, "retreated", f"{game.name(s, c.uid)} retreats to the Support Field", uid=c.uid)
    if not c.set:  # RULINGS 22
        game.turn(s, c.uid, True, events)


@move("attack")
def _attack(game: Ophidian, s: OphidianState, a: Action, events: list[Event]) -> None:
    game.begin(s, a.player, "+", events)
    game.declare(s, int(a.arg("u")), int(a.arg("t")), events)


@move("ability")
def _ability(game: Ophidian, s: OphidianState, a: Action, events: list[Event]) -> None:
    uid, i = int(a.arg("u")), int(a.arg("a"))
    holder = b.find(s, uid) or b.pump(s, uid)
    assert holder is not None
    ab = CARDS[holder.card].abilities[i]
    game.begin(s, a.player, SYMBOLS[ab.type], events)
    holder.used.append(i)
    emit(events, "used", f"{game.name(s, uid)} uses its ability", uid=uid)
    ctx = kit.new_ctx(s, uid, holder.card, i, a.player)
    if isinstance(holder, b.Pump):
        ctx["bearer"] = holder.bearer
    kit.activate(s, ctx)


@move(PASS)
def _pass(game: Ophidian, s: OphidianState, a: Action, events: list[Event]) -> None:
    d = answering()
    if d is None:  # the action "pass" (RULINGS 18)
        s.spendable = False
        emit(events, "passed", f"{seat_word(a.player)} passes", seat=a.player)
        if s.passed:
            game._end_wave(s, events)
            return
        game._pass_flow(s, events)
        s.passed = True
        return
    if d.kind in kit.KINDS:
        kit.answer(s, d, a)
    elif d.kind == fx.DEFEND and d.source != "attack":
        s.resolving[-1]["picks"].append(0)
    elif d.kind == WINDOW:
        emit(events, "no_response", f"{seat_word(a.player)} does not respond", seat=a.player)
    elif d.kind in (ARRANGE, SCRAP, PROMOTE, REINFORCE):
        if d.kind == PROMOTE:
            s.sides[a.player].promoted = True
        else:
            s.sides[a.player].done = True
    elif d.kind == MAINTAIN:
        game._unpaid(s, a.player, events)


@move("spend")
def _spend(game: Ophidian, s: OphidianState, a: Action, events: list[Event]) -> None:
    s.sides[a.player].cheer -= 1
    emit(events, "spent", f"{seat_word(a.player)} spends 1 Cheer: the action turns −", seat=a.player)
    game._pass_flow(s, events)


@move("respond")
def _respond(game: Ophidian, s: OphidianState, a: Action, events: list[Event]) -> None:
    cid = str(a.arg("c"))
    d = answering()
    side, spec = s.sides[a.player], CARDS[cid]
    side.cp -= spec.stat("cp")
    leaves_hand(side, cid)
    if "unique" in spec.keywords:
        side.unique.append(spec.name)
    s.limbo.append([a.player, cid])
    emit(events, "responded", f"{seat_word(a.player)} responds with {spec.name}", seat=a.player, card=cid)
    events_open = d.data["events"] if d is not None else []
    for i, ab in reversed(spec.of_type("trigger")):
        if ab.on in events_open:
            ctx = kit.new_ctx(s, 0, cid, i, a.player)
            ctx["on"] = ab.on
            kit.activate(s, ctx)
            break


@move("intercept", "protect")
def _cover(game: Ophidian, s: OphidianState, a: Action, events: list[Event]) -> None:
    d = answering()
    assert d is not None
    uid = int(a.arg("u"))
    intercept = a.kind == "intercept"
    if intercept:
        game.turn(s, uid, True, events)
    word = "Intercepts" if intercept else "Protects"
    emit(events, a.kind, f"{game.name(s, uid)} {word} for {game.name(s, d.data['uid'])}", uid=uid)
    if d.source == "attack" and s.attack is not None:
        s.attack["target"] = uid
        s.attack["intercepted" if intercept else "protected"] = True
    else:
        s.resolving[-1]["picks"].append(uid)


@move(BOTTOM)
def _bottom(game: Ophidian, s: OphidianState, a: Action, events: list[Event]) -> None:
    side = s.sides[a.player]
    side.hand.remove(str(a.arg("c")))
    side.arsenal.insert(0, str(a.arg("c")))
    side.known += 1
    side.owe -= 1
    emit(events, "bottomed", f"{seat_word(a.player)} puts a card on the bottom of the Arsenal", seat=a.player)


@move(SCRAP)
def _scrap(game: Ophidian, s: OphidianState, a: Action, events: list[Event]) -> None:
    game.discard(s, a.player, str(a.arg("c")), events)


@move("place")
def _place(game: Ophidian, s: OphidianState, a: Action, events: list[Event]) -> None:
    c = b.find(s, int(a.arg("u")))
    assert c is not None
    c.moved = True
    game.shift(s, c.uid, SUPPORT if c.field == ACTION else ACTION, events)


@move("keep")
def _keep(game: Ophidian, s: OphidianState, a: Action, events: list[Event]) -> None:
    uid = int(a.arg("u"))
    side = s.sides[a.player]
    side.cp -= game._fee(s, uid)
    side.paid.append(uid)
    emit(events, "maintained", f"{seat_word(a.player)} maintains {game.name(s, uid)}", seat=a.player)


@move("promote")
def _promote(game: Ophidian, s: OphidianState, a: Action, events: list[Event]) -> None:
    c = b.find(s, int(a.arg("u")))
    assert c is not None
    side = s.sides[a.player]
    side.promoted = True
    c.level += 1
    if c.level == 3 and c.card in PROMOTION:  # RULINGS 4, 48: the Level 3/4 card replaces it
        new = PROMOTION[c.card]
        if new in side.stack:
            side.stack.remove(new)
        c.card = new
        s.dirty = True
    emit(events, "promoted", f"{game.name(s, c.uid)} is promoted to Level {c.level}", uid=c.uid)
    game.heal(s, c.uid, PROMOTE_HEAL, events)


@move("reinforce")
def _reinforce(game: Ophidian, s: OphidianState, a: Action, events: list[Event]) -> None:
    cid = str(a.arg("c"))
    side = s.sides[a.player]
    side.stack.remove(cid)
    c = Char(s.mint(cid).uid, cid, a.player, SUPPORT, level=0)
    side.chars.append(c)
    side.paid.append(c.uid)
    emit(events, "reinforced", f"{seat_word(a.player)} brings in {CARDS[cid].name}", seat=a.player)


@move(kit.PICK, kit.ORDER, kit.USE)
def _answer(game: Ophidian, s: OphidianState, a: Action, events: list[Event]) -> None:
    kit.answer(s, answering(), a)


from engine.games.ophidian.view import OphidianView, _describe, _view  # noqa: E402  (the view reads the rules)
