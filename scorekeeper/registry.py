"""The one place where games are registered.

A new game is a folder under ``scorekeeper/games/`` with its rules, its table
module (scorekeeping) and, for the virtual deck, its engine, bots and virtual
adapter; add it to the two lists here.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from scorekeeper.games.common import EntryError, TableGame
from scorekeeper.games.least_score.table import LeastScoreTable
from scorekeeper.games.one_card.table import OneCardTable

if TYPE_CHECKING:
    from scorekeeper.games.virtual import VirtualGame

GAMES: dict[str, TableGame] = {game.name: game for game in (LeastScoreTable(), OneCardTable())}

VIRTUAL_ADAPTERS: dict[str, tuple[str, str]] = {
    "least-score": ("scorekeeper.games.least_score.virtual", "LeastScoreVirtual"),
    "one-card": ("scorekeeper.games.one_card.virtual", "OneCardVirtual"),
}
"""Where each game's virtual deck lives: imported on first use, so that the commands
at the table never load the engines and bots (start-up time is the table's wait)."""

_virtual: dict[str, VirtualGame] = {}


def get_game(name: str) -> TableGame:
    try:
        return GAMES[name.strip().lower()]
    except KeyError:
        raise EntryError(
            f"there is no game called {name!r}: choose " + " or ".join(GAMES)
        ) from None


def get_virtual(name: str) -> VirtualGame:
    game = get_game(name)
    if game.name not in _virtual:
        try:
            module, attribute = VIRTUAL_ADAPTERS[game.name]
        except KeyError:
            raise EntryError(f"{game.title} has no virtual deck yet") from None
        adapter: VirtualGame = getattr(importlib.import_module(module), attribute)()
        _virtual[game.name] = adapter
    return _virtual[game.name]
