"""One Card: the rules (pure functions) and, on top of them, the engine for a virtual deal."""
