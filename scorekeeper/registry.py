"""The one place where games are registered.

A new game is a folder under ``scorekeeper/games/`` with its rules, its table
module (scorekeeping) and, for the virtual deck, its engine and bots; add it here.
"""

from __future__ import annotations

from scorekeeper.games.common import EntryError, TableGame
from scorekeeper.games.least_score.table import LeastScoreTable
from scorekeeper.games.one_card.table import OneCardTable

GAMES: dict[str, TableGame] = {
    game.name: game
    for game in (LeastScoreTable(), OneCardTable())
}


def get_game(name: str) -> TableGame:
    try:
        return GAMES[name.strip().lower()]
    except KeyError:
        raise EntryError(
            f"there is no game called {name!r}: choose " + " or ".join(GAMES)
        ) from None
