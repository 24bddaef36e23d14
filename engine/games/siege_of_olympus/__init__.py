"""Siege of Olympus, for two players: one shared Deck of 86 cards, minions recruited from Tartarus and
traded in the Agora, artifacts assembled from three pieces; the first to bring down the enemy Commander or
to hold three artifacts conquers Olympus. The card data and rulings are here; the rules engine comes next."""
