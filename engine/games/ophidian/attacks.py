"""Ophidian 2350's attacks (RULINGS 23-30, 32): the declaration, the defender's window and defence, the
Cheer, the attacker's window, the damage with DDMG and Rage all at one moment, and the attack's end. A mixin
of the rules class: `self` is the game, with the board operations of table.py."""

from __future__ import annotations

from typing import Any

from engine.abilities import resolve as kit
from engine.core import Event
from engine.games.ophidian import board as b
from engine.games.ophidian import effects as fx
from engine.games.ophidian.cards import RDMG
from engine.games.ophidian.state import OphidianState
from engine.games.ophidian.table import OphidianTable, seat_word
from engine.table.events import emit
from engine.table.modifiers import expire


class Attacks(OphidianTable):
    """Attacks, step by step; the rules' `advance` calls `_attack_step` while one is under way."""

    def declare(
        self,
        s: OphidianState,
        attacker: int,
        target: int,
        events: list[Event],
        bonus: int = 0,
        direct: bool = False,
    ) -> None:
        """Step 1 of an attack: the attacker Sets, a Gladiator generates Cheer, triggers (RULINGS 23, 32)."""
        c = b.find(s, attacker)
        assert c is not None
        c.set = True
        what = " (XDMG)" if direct else ""
        emit(
            events, "attacks", f"{self.name(s, attacker)} attacks {self.name(s, target)}{what}", uid=attacker
        )
        s.attack = {
            "player": c.owner,
            "attacker": attacker,
            "target": target,
            "original": target,
            "bonus": bonus,
            "direct": direct,
            "cheer": b.gladiator(c),
            "intercepted": False,
            "protected": False,
            "cancelled": False,
            "defeated": False,
            "step": "declared",
        }
        kit.fire(self, s, "attacks", self.watchers(s, attacker), attacker)
        kit.fire(self, s, "attacked", self.watchers(s, target), attacker)

    def _attack_step(self, s: OphidianState, events: list[Event]) -> None:
        """Steps 2-7 of an attack (RULINGS 23)."""
        a = s.attack
        assert a is not None
        defender = 1 - a["player"]
        if a["step"] == "declared":
            a["step"] = "defence"
            kit.fire(self, s, "ally_attacked", self.side_watchers(s, defender), a["attacker"])
            self.window(s, defender, "ally_attacked")
        elif a["step"] == "defence":
            a["step"] = "cheer"
            if not a["cancelled"] and not a["direct"] and b.find(s, a["target"]) and b.find(s, a["attacker"]):
                fx.ask_defence(s, a["target"], "attack")
        elif a["step"] == "cheer":
            a["step"] = "damage" if not a["cancelled"] else "after"
            if a["cheer"]:
                to = defender if a["intercepted"] else a["player"]
                s.sides[to].cheer += 1
                emit(
                    events,
                    "cheer",
                    f"The crowd cheers for {seat_word(to)} ({s.sides[to].cheer} Cheer)",
                    seat=to,
                )
            if not a["cancelled"]:
                blocked = a["intercepted"] or a["protected"]
                ons = ("ally_attacks", "blocked") if blocked else ("ally_attacks",)
                for on in ons:
                    kit.fire(self, s, on, self.side_watchers(s, a["player"]), a["attacker"])
                self.window(s, a["player"], *ons)
        elif a["step"] == "damage":
            a["step"] = "after"
            self._strike(s, a, events)
        else:
            s.attack = None
            for c in b.chars(s):
                if c.shield_until == "attack":
                    c.shield, c.shield_until = 0, ""
            expire(s.modifiers, "attack")
            s.dirty = True

    def _strike(self, s: OphidianState, a: dict[str, Any], events: list[Event]) -> None:
        """Step 6: ADMG to the target, and unless Intercepted or Protected the original target's DDMG and
        the Rage effects to the attacker, all at one moment (RULINGS 24, 29, 30); then defeats."""
        attacker, target = b.find(s, a["attacker"]), b.find(s, a["target"])
        if a["cancelled"] or attacker is None or target is None:
            return
        blows = [(target.uid, b.stat(s, attacker, "admg") + a["bonus"])]
        original = b.find(s, a["original"])
        unset = None
        if not (a["intercepted"] or a["protected"]) and original is not None:
            blows.append((attacker.uid, b.stat(s, original, "ddmg")))
            if b.gladiator(original) and b.raging(s, original):
                if original.set:
                    unset = original
                else:
                    blows.append((attacker.uid, RDMG))
                    emit(events, "rage", f"{self.name(s, original.uid)} Rages: 1 RDMG to the attacker")
        for uid, amount in blows:
            self.damage(s, uid, amount, events)
        if unset is not None and unset.wounds < b.stat(s, unset, "life"):
            self.turn(s, unset.uid, False, events)
        self.settle(s, events)
        if a["defeated"]:
            kit.fire(self, s, "defeats", [(attacker.uid, attacker.card, attacker.owner)], a["target"])
