"""The games: one folder per game, each with rules, engine and bots (see registry.py)."""
