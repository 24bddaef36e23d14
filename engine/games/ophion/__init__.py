"""Ophion: a deck-building monster battle (2-4 players, Tier 1 and Tier 2 decks)."""

from engine.games.ophion.rules import Ophion

__all__ = ["Ophion"]
