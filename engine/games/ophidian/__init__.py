"""Ophidian 2350: teams of Gladiators fight through four Waves for The Flow, the crowd and Victory Points
(rules: shared/rules/ophidian-2350.txt; our rulings: RULINGS.md)."""

from engine.games.ophidian.rules import Ophidian

__all__ = ["Ophidian"]
