"""The parts every game is made of: decisions, events, zones, modifiers, the game base, presentation."""
