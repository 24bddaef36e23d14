"""Siege of Olympus, for two players: Commanders fight over a shared Deck of Greek myth to take three
artifacts or bring the enemy Commander down."""

from engine.games.siege_of_olympus.rules import Siege

__all__ = ["Siege"]
