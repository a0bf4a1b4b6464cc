"""scorekeeper: score card games at a real table, or play them with a virtual deck."""

__version__ = "0.1.0"
