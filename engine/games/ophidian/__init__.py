"""Ophidian 2350, for two players: teams of Gladiators fight four Waves in the arena of 2350, keeping The Flow
to act, for Cheer and Victory Points. Groundwork only: the rulings and the card pool as validated data
(cards.py, cards.toml); the rules engine comes next, and the game is not registered yet."""
