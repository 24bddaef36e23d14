"""Ophidian 2350's board operations: drawing, hands and the Scrap pile, damage with shields, healing, Set and
Unset, Minions entering, Pumps attaching, characters leaving play, the checks after every step (defeats,
their triggers and windows, victory) and the trigger watchers. The effects (effects.py) and the rules
(rules.py) call these."""

from __future__ import annotations

from typing import Any

from engine.abilities import resolve as kit
from engine.abilities.spec import CardSpec
from engine.core import Action, Event, PlayerId
from engine.games.ophidian import board as b
from engine.games.ophidian.cards import CARDS, CHEER_WIN, MAX_WAVES, PYRE_WIN, WAVES
from engine.games.ophidian.state import SUPPORT, Char, OphidianState, Pump, Side
from engine.table.decisions import Decision
from engine.table.events import emit

Watcher = tuple[int, str, int]


def seat_word(seat: int) -> str:
    """How texts name a seat: P1, P2."""
    return f"P{seat + 1}"


def leaves_hand(side: Side, card: str) -> None:
    """A card leaves the hand face up (played, scrapped): one card of that name stops being "shown", whichever
    copy it was (RULINGS 67)."""
    side.hand.remove(card)
    if card in side.shown:
        side.shown.remove(card)


class OphidianTable:
    """The board operations of the rules class (a mixin: `self` is the game, the kit's Host)."""

    def card(self, cid: str) -> CardSpec:
        """A card kind by id."""
        return CARDS[cid]

    def answers(self, s: OphidianState, d: Decision, player: PlayerId) -> list[Action]:
        """The moves that answer decision d (written by the rules class)."""
        raise NotImplementedError

    def opponent(self, s: OphidianState, player: PlayerId) -> PlayerId:
        """The other player."""
        return 1 - player

    def say(self, events: list[Event], kind: str, text: str, **args: Any) -> None:
        """An event for everyone (the effects' way to speak)."""
        emit(events, kind, text, **args)

    def name(self, s: OphidianState, uid: int) -> str:
        """How texts name a character or Pump in play."""
        c = b.find(s, uid)
        if c is not None:
            return f"{seat_word(c.owner)}'s {CARDS[c.card].name}"
        p = b.pump(s, uid)
        return CARDS[p.card].name if p is not None else "a card"

    # -- cards in hand and piles ----------------------------------------------------------------

    def draw(self, s: OphidianState, player: PlayerId, amount: int, events: list[Event]) -> None:
        """Draw from the top of the Arsenal; an empty Arsenal draws nothing (RULINGS 59)."""
        side = s.sides[player]
        n = min(amount, len(side.arsenal))
        if n <= 0:
            return
        got = side.arsenal[-n:]
        del side.arsenal[-n:]
        side.known = min(side.known, len(side.arsenal))
        side.hand = sorted(side.hand + got)
        names = ", ".join(CARDS[c].name for c in got)
        emit(events, "drew", f"{seat_word(player)} draws {n}", seat=player, n=n)
        emit(events, "drew_cards", f"You draw {names}", to=(player,), chance=True, seat=player)

    def hand(self, s: OphidianState, player: PlayerId) -> list[str]:
        """A player's hand."""
        return s.sides[player].hand

    def discard(self, s: OphidianState, player: PlayerId, card: str, events: list[Event]) -> None:
        """A card from hand to its player's Scrap pile."""
        side = s.sides[player]
        leaves_hand(side, card)
        side.scrap.append(card)
        emit(events, "scrapped", f"{seat_word(player)} scraps {CARDS[card].name} from hand", seat=player)

    # -- characters -----------------------------------------------------------------------------

    def damage(self, s: OphidianState, uid: int, amount: int, events: list[Event]) -> int:
        """Wound a character, less what its shield prevents (RULINGS 28, 31); the wounds dealt."""
        c = b.find(s, uid)
        if c is None or amount <= 0:
            return 0
        stopped = min(c.shield, amount)
        c.shield -= stopped
        dealt = amount - stopped
        if stopped:
            emit(events, "prevented", f"{self.name(s, uid)}'s shield prevents {stopped}", uid=uid)
        if dealt:
            c.wounds += dealt
            s.hurt.append(uid)
            left = b.life_left(s, c)
            emit(events, "wounded", f"{self.name(s, uid)} takes {dealt} ({max(left, 0)} Life left)", uid=uid)
        return dealt

    def heal(self, s: OphidianState, uid: int, amount: int, events: list[Event]) -> None:
        """Remove up to `amount` wounds (RULINGS 31)."""
        c = b.find(s, uid)
        if c is not None and c.wounds and amount > 0:
            healed = min(amount, c.wounds)
            c.wounds -= healed
            emit(events, "healed", f"{self.name(s, uid)} heals {healed}", uid=uid)

    def turn(self, s: OphidianState, uid: int, to_set: bool, events: list[Event]) -> None:
        """Set or Unset a character or Pump (RULINGS 21); nothing if it already is."""
        card: Char | Pump | None = b.find(s, uid) or b.pump(s, uid)
        if card is None or card.set == to_set:
            return
        card.set = to_set
        emit(events, "set" if to_set else "unset", f"{self.name(s, uid)} {'Sets' if to_set else 'Unsets'}")

    def shift(self, s: OphidianState, uid: int, where: str, events: list[Event]) -> None:
        """Move a character to a field, neither advancing nor retreating (RULINGS 22)."""
        c = b.find(s, uid)
        if c is not None and c.field != where:
            c.field = where
            emit(events, "shifted", f"{self.name(s, uid)} moves to the {where.capitalize()} Field", uid=uid)

    def enter(self, s: OphidianState, player: int, cid: str, events: list[Event]) -> Char:
        """A Minion comes into play in the Support Field, Unset (RULINGS 35, 36)."""
        c = Char(s.mint(cid).uid, cid, player, SUPPORT, level=0)
        s.sides[player].chars.append(c)
        emit(
            events, "entered", f"{seat_word(player)}'s {CARDS[cid].name} enters the Support Field", uid=c.uid
        )
        return c

    def attach(self, s: OphidianState, player: int, cid: str, bearer: int, events: list[Event]) -> Pump:
        """A Pump goes onto its bearer (RULINGS 38)."""
        p = Pump(s.mint(cid).uid, cid, player, bearer)
        s.pumps.append(p)
        s.dirty = True
        emit(events, "attached", f"{CARDS[cid].name} goes onto {self.name(s, bearer)}", uid=p.uid)
        return p

    def scrap_pump(self, s: OphidianState, uid: int, events: list[Event]) -> None:
        """A Pump to its controller's Scrap pile."""
        p = b.pump(s, uid)
        if p is None:
            return
        s.pumps.remove(p)
        s.dirty = True
        s.sides[p.owner].scrap.append(p.card)
        s.modifiers[:] = [m for m in s.modifiers if m.owner != uid]
        emit(events, "scrapped", f"{CARDS[p.card].name} is scrapped", uid=uid)

    def leave(self, s: OphidianState, c: Char, why: str, events: list[Event]) -> None:
        """A character leaves play: a Gladiator to its owner's Funeral Pyre, a Minion to the Scrap pile; its
        wounds, modifiers and Pumps go with it (RULINGS 28, 38, 56)."""
        side = s.sides[c.owner]
        side.chars.remove(c)
        s.dirty = True
        (side.pyre if b.gladiator(c) else side.scrap).append(c.card)
        s.modifiers[:] = [m for m in s.modifiers if m.owner != c.uid]
        emit(events, why, f"{seat_word(c.owner)}'s {CARDS[c.card].name} is {why}", uid=c.uid, seat=c.owner)
        for p in b.pumps_on(s, c.uid):
            self.scrap_pump(s, p.uid, events)

    # -- the kit's shared effects need these; Ophidian has no bounce or detach ------------------------

    def defeat(self, s: OphidianState, uid: int, events: list[Event]) -> None:
        """Defeat a character outright."""
        c = b.find(s, uid)
        if c is not None:
            c.wounds = max(c.wounds, b.stat(s, c, "life"))

    def bounce(self, s: OphidianState, uid: int, events: list[Event]) -> None:
        """Ophidian returns nothing to hand."""

    def detach(self, s: OphidianState, uid: int, events: list[Event]) -> None:
        """Ophidian's Pumps are scrapped, never detached."""

    # -- watchers, settling and victory -----------------------------------------------------------

    def watchers(self, s: OphidianState, uid: int) -> list[Watcher]:
        """A character and the Pumps it bears, for its own events (RULINGS 38)."""
        c = b.find(s, uid)
        out = [(c.uid, c.card, c.owner)] if c is not None else []
        return out + [(p.uid, p.card, p.owner) for p in b.pumps_on(s, uid)]

    def side_watchers(self, s: OphidianState, seat: int, but: int = 0) -> list[Watcher]:
        """A player's characters (but one) and the Pumps they bear."""
        out: list[Watcher] = []
        for c in s.sides[seat].chars:
            if c.uid != but:
                out += self.watchers(s, c.uid)
        return out

    def window(self, s: OphidianState, player: int, *events: str) -> None:
        """Queue a response window for a player (RULINGS 16)."""
        s.windows.append({"player": player, "events": list(events)})

    def settle(self, s: OphidianState, events: list[Event]) -> None:
        """After every step: the fallen leave together, with their triggers and windows; the damaged who
        stand fire theirs; then victory (RULINGS 28, 51)."""
        if s.result is not None:
            return
        fallen: list[Char] = []
        if s.hurt or s.dirty or s.mods != len(s.modifiers):  # only wounds and these change who falls
            lowered = bool(s.pumps or s.modifiers)  # only these take Life away: a 0-Life character falls too
            fallen = [c for c in b.chars(s) if (c.wounds or lowered) and c.wounds >= b.stat(s, c, "life")]
            s.dirty, s.mods = False, len(s.modifiers)
        hurt, s.hurt = s.hurt, []
        watching = {c.uid: self.watchers(s, c.uid) for c in fallen}
        for c in fallen:  # all at once: none of them sees another fall (RULINGS 28, 63)
            self.leave(s, c, "defeated", events)
        for c in fallen:
            kit.fire(self, s, "defeated", watching[c.uid], c.uid)
            kit.fire(self, s, "ally_defeated", self.side_watchers(s, c.owner), c.uid)
            if s.action is not None:
                s.action["defeats"] += 1
            if s.attack is not None and c.uid == s.attack["target"]:
                s.attack["defeated"] = True
        for owner in sorted({c.owner for c in fallen}):
            self.window(s, owner, "ally_defeated")
        for uid in dict.fromkeys(hurt):
            if b.find(s, uid) is not None:
                kit.fire(self, s, "damaged", self.watchers(s, uid), uid)
        self.victory(s, events)

    def victory(self, s: OphidianState, events: list[Event]) -> None:
        """Annihilation, Crowd Riot, 12 VP at once, in that order; a tie on one goes to the later ones,
        then to more Cheer, else a draw (RULINGS 51-54, 57)."""
        if s.result is not None:
            return
        seats = (0, 1)
        annihilated = [p for p in seats if not any(b.gladiator(c) for c in s.sides[p].chars)]
        checks = [
            ("annihilation", [1 - p for p in annihilated]),
            ("a Crowd Riot (15 Cheer)", [p for p in seats if s.sides[p].cheer >= CHEER_WIN]),
            (f"{PYRE_WIN} VP in the Funeral Pyre", [p for p in seats if b.scored(s, p) >= PYRE_WIN]),
        ]
        for i, (why, met) in enumerate(checks):
            if not met:
                continue
            if len(met) == 1:
                self.win(s, met, why, events)
                return
            for then, later in checks[i + 1 :]:
                if len(later) == 1:
                    self.win(s, later, f"{why} on both sides, then {then}", events)
                    return
            self.decide(s, why + " on both sides", events)
            return

    def decide(self, s: OphidianState, why: str, events: list[Event]) -> bool:
        """More VP wins, then more Cheer; else a draw. False when it is a tie on VP and more Waves may be
        played (RULINGS 55, 57)."""
        vp = [b.scored(s, p) for p in (0, 1)]
        if vp[0] != vp[1]:
            self.win(s, [0 if vp[0] > vp[1] else 1], f"{why}: most VP ({max(vp)} to {min(vp)})", events)
            return True
        if why.startswith("the end of Wave") and s.wave < MAX_WAVES:
            return False
        cheer = [s.sides[p].cheer for p in (0, 1)]
        if cheer[0] != cheer[1]:
            self.win(s, [0 if cheer[0] > cheer[1] else 1], f"{why}: VP tied, more Cheer", events)
        else:
            self.win(s, [0, 1], f"{why}: VP and Cheer tied", events)
        return True

    def win(self, s: OphidianState, winners: list[int], why: str, events: list[Event]) -> None:
        """The game ends; nothing more resolves."""
        s.result = {"winners": winners, "why": why}
        s.phase = "over"
        s.decisions.clear()
        s.pending.clear()
        s.resolving.clear()
        s.windows.clear()
        s.playing.clear()
        s.attack = s.action = None
        who = " and ".join(seat_word(w) for w in winners)
        emit(events, "won", f"{who} {'draw' if len(winners) > 1 else 'wins'}: {why}", seats=str(winners))

    def after_waves(self, s: OphidianState, events: list[Event]) -> bool:
        """After the 4th Wave and each tie Wave: most VP wins (RULINGS 55); True if the game ended."""
        return s.wave >= WAVES and self.decide(s, f"the end of Wave {s.wave}", events)

    def x_value(self, s: OphidianState, ctx: dict[str, Any]) -> int:
        """X for the card a step belongs to (RULINGS 41)."""
        kind = b.x_kind(ctx["card"])
        side = s.sides[ctx["owner"]]
        if kind == "paid":
            return int(ctx.get("x", 0))
        if kind == "cheer":
            return side.cheer
        if kind == "wave":
            return s.wave
        return len(side.pyre) if kind == "pyre" else 0
