"""The game kit: what every game's scorekeeper side is built from, with a declared public API.

A game (built in, a plug-in or a variant) imports only these modules, each of which
declares ``__all__`` (docs/adding-a-game.md):

- ``scorekeeper.kit.entries``: a round as typed, names, whole numbers, the user's errors;
- ``scorekeeper.kit.rounds``: the typed round (its note and the time it was recorded are
  kept for every game), the scored round, FORMAT.md's JSON;
- ``scorekeeper.kit.options``: house rules and round options, typed once;
- ``scorekeeper.kit.standings``: standings, statistics' figures, the table contract;
- ``scorekeeper.kit.roster``: players who join and leave;
- ``scorekeeper.kit.entry_form``: what players enter on their own pages;
- ``scorekeeper.kit.declaration``: ``GameDeclaration``, what the generic layers know of a game.
"""

__all__: list[str] = []
