"""Ophidian 2350's setup steps and the Breather (RULINGS 11, 44-50): the end of a Wave, Determine Flow,
Regenerate with the 9-draw-2-bottom, Maintain, Promote and Reinforcements, Maneuver, and the next Wave. A
mixin of the rules class: `self` is the game, with the board operations of table.py."""

from __future__ import annotations

from engine.abilities import resolve as kit
from engine.core import Event
from engine.games.ophidian import board as b
from engine.games.ophidian.cards import CARDS, CP_BASE, EXTRA_DRAW, HAND
from engine.games.ophidian.state import OphidianState
from engine.games.ophidian.table import OphidianTable, seat_word
from engine.table.decisions import Decision, push
from engine.table.events import emit
from engine.table.modifiers import expire

# The decisions of the setup and the Breather (moves in rules.py answer them).
BOTTOM, ARRANGE, SCRAP, MAINTAIN, PROMOTE, REINFORCE = (
    "bottom",
    "arrange",
    "scrap",
    "maintain",
    "promote",
    "reinforce",
)


class Breather(OphidianTable):
    """The setup steps and the Breather; the rules' `advance` calls `_breather` and `_step`."""

    def _end_wave(self, s: OphidianState, events: list[Event]) -> None:
        """Two passes in a row: the Wave ends and its `wave_end` triggers fire (RULINGS 18, 44)."""
        emit(events, "wave_end", f"Wave {s.wave} ends")
        s.phase = "ending"
        for seat in (s.flow, 1 - s.flow):
            kit.fire(self, s, "wave_end", self.side_watchers(s, seat))

    def _breather(self, s: OphidianState, events: list[Event]) -> None:
        """After the `wave_end` triggers: the victory check of the 4th Wave and later, then Determine Flow
        and Regenerate's Unset (RULINGS 45, 46, 55)."""
        if self.after_waves(s, events):
            return
        wounds = [self._wounds(s, p) for p in (0, 1)]
        cheer = [s.sides[p].cheer for p in (0, 1)]
        if wounds[0] != wounds[1]:
            s.flow = 0 if wounds[0] > wounds[1] else 1
        elif cheer[0] != cheer[1]:
            s.flow = 0 if cheer[0] > cheer[1] else 1
        else:
            s.flow = s.rng.below(2)
        emit(events, "flow", f"The Breather: {seat_word(s.flow)} will have The Flow", seat=s.flow)
        for c in b.chars(s):
            c.set = False
        for p in s.pumps:
            p.set = False
        s.phase, s.step = "breather", "regenerate"
        for side in s.sides:
            side.done = False

    def _wounds(self, s: OphidianState, seat: int) -> int:
        """Wounds on a player's Gladiators, the fallen counting their Life (RULINGS 45)."""
        side = s.sides[seat]
        return sum(c.wounds for c in side.chars if b.gladiator(c)) + sum(
            CARDS[c].stat("life") for c in side.pyre
        )

    def _step(self, s: OphidianState, events: list[Event]) -> None:
        """The next setup or Breather step: each player in turn, The Flow's first (RULINGS 11, 44-50)."""
        order = (s.flow, 1 - s.flow)
        waiting = [p for p in order if not s.sides[p].done]
        if s.step == "regenerate":
            for p in waiting:
                if not s.sides[p].hand:
                    s.sides[p].done = True
            waiting = [p for p in waiting if not s.sides[p].done]
            if waiting:
                push(s.decisions, Decision(SCRAP, [waiting[0]], optional=True, source="regenerate"))
                return
            for p in order:
                side = s.sides[p]
                self.draw(s, p, max(0, HAND + EXTRA_DRAW - len(side.hand)), events)  # RULINGS 46
                side.owe = min(EXTRA_DRAW, len(side.hand))
                side.cp = CP_BASE + s.wave + 1
            self._next_step(s, "bottom")
        elif s.step == "bottom":
            owing = [p for p in order if s.sides[p].owe > 0]
            if owing:
                push(
                    s.decisions,
                    Decision(BOTTOM, [owing[0]], source="bottom", data={"owe": s.sides[owing[0]].owe}),
                )
                return
            self._next_step(s, "arrange" if s.phase == "setup" else "maintain")
        elif s.step == "maintain":
            if waiting:
                p = waiting[0]
                self._skull(s, p, events)
                if any(self._fee(s, u) <= s.sides[p].cp for u in self._upkeep(s, p)):
                    push(s.decisions, Decision(MAINTAIN, [p], optional=True, source="maintain"))
                else:
                    self._unpaid(s, p, events)
                return
            self._next_step(s, "promote")
        elif s.step in ("promote", "reinforce"):
            if waiting:
                p = waiting[0]
                if (
                    s.step == "promote"
                    and not s.sides[p].promoted
                    and self.answers(s, Decision(PROMOTE, [p]), p)
                ):
                    push(s.decisions, Decision(PROMOTE, [p], optional=True, source="promote"))
                elif self._reinforcements(s, p):
                    push(s.decisions, Decision(REINFORCE, [p], optional=True, source="promote"))
                else:
                    s.sides[p].done = True
                return
            self._next_step(s, "maneuver")
        elif s.step in ("arrange", "maneuver"):
            if waiting:
                push(s.decisions, Decision(ARRANGE, [waiting[0]], optional=True, source=s.step))
                return
            self._start_wave(s, events)

    def _next_step(self, s: OphidianState, step: str) -> None:
        s.step = step
        for side in s.sides:
            side.done = side.promoted = False
            side.paid = []
            for c in side.chars:
                c.moved = False

    def _upkeep(self, s: OphidianState, seat: int) -> list[int]:
        """A player's cards in play with a Maintain cost not yet paid in this Breather (RULINGS 47)."""
        side = s.sides[seat]
        out = [c.uid for c in side.chars if CARDS[c.card].type != "gladiator" and c.uid not in side.paid]
        return out + [p.uid for p in s.pumps if p.owner == seat and p.uid not in side.paid]

    def _fee(self, s: OphidianState, uid: int) -> int:
        c = b.find(s, uid)
        return CARDS[(c or b.pump(s, uid)).card].stat("maintain")  # type: ignore[union-attr]

    def _skull(self, s: OphidianState, seat: int, events: list[Event]) -> None:
        """☠ cards are scrapped; those costing nothing stay (RULINGS 40, 47)."""
        side = s.sides[seat]
        for uid in self._upkeep(s, seat):
            holder = b.find(s, uid) or b.pump(s, uid)
            if holder is None:  # a Pump scrapped with its bearer a moment ago
                continue
            card = holder.card
            if CARDS[card].flag("unmaintainable"):
                self._lapse(s, uid, events)
            elif CARDS[card].stat("maintain") == 0:
                side.paid.append(uid)

    def _lapse(self, s: OphidianState, uid: int, events: list[Event]) -> None:
        """An unmaintained card leaves: a Reinforcement to the Funeral Pyre (RULINGS 56), others scrapped."""
        c = b.find(s, uid)
        if c is not None:
            self.leave(s, c, "not maintained", events)
        else:
            self.scrap_pump(s, uid, events)

    def _unpaid(self, s: OphidianState, seat: int, events: list[Event]) -> None:
        for uid in self._upkeep(s, seat):
            self._lapse(s, uid, events)
        s.sides[seat].done = True

    def _reinforcements(self, s: OphidianState, seat: int) -> list[str]:
        """Reinforcements a player may bring in now (RULINGS 49)."""
        side = s.sides[seat]
        if sum(b.gladiator(c) for c in side.chars) >= side.started or not side.chars:
            return []
        return [c for c in side.stack if CARDS[c].type == "reinforcement"]

    def _start_wave(self, s: OphidianState, events: list[Event]) -> None:
        """A new Wave with the player who has The Flow (RULINGS 11, 50)."""
        s.wave += 1
        s.phase, s.step, s.passed, s.spendable = "wave", "", False, False
        expire(s.modifiers, "wave")
        s.dirty = True
        for side in s.sides:
            side.actions, side.unique, side.done = 0, [], False
            for c in side.chars:
                c.advanced = c.retreated = c.moved = False
                c.used = []
                c.shield, c.shield_until = 0, ""
        for p in s.pumps:
            p.used = []
        emit(events, "wave", f"Wave {s.wave} begins: {seat_word(s.flow)} has The Flow", wave=s.wave)
