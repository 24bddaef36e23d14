"""Ophelia: Histories Collide, for two players: characters from across time contest ten slots."""

from engine.games.ophelia.rules import Ophelia

__all__ = ["Ophelia"]
