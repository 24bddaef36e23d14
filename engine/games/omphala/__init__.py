"""Omphala: a game for the people (2-6 players, one standard deck)."""

from engine.games.omphala.rules import Omphala

__all__ = ["Omphala"]
