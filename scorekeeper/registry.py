"""The one place where games are registered.

A new game is a folder under ``scorekeeper/games/`` with its rules, its table
module (scorekeeping) and, for the virtual deck, its engine, bots and virtual
adapter; add it to the two lists here.
"""

from __future__ import annotations

from scorekeeper.games.common import EntryError, TableGame
from scorekeeper.games.least_score.table import LeastScoreTable
from scorekeeper.games.least_score.virtual import LeastScoreVirtual
from scorekeeper.games.one_card.table import OneCardTable
from scorekeeper.games.one_card.virtual import OneCardVirtual
from scorekeeper.games.virtual import VirtualGame

GAMES: dict[str, TableGame] = {game.name: game for game in (LeastScoreTable(), OneCardTable())}
VIRTUAL: dict[str, VirtualGame] = {
    game.name: game for game in (LeastScoreVirtual(), OneCardVirtual())
}


def get_game(name: str) -> TableGame:
    try:
        return GAMES[name.strip().lower()]
    except KeyError:
        raise EntryError(
            f"there is no game called {name!r}: choose " + " or ".join(GAMES)
        ) from None


def get_virtual(name: str) -> VirtualGame:
    game = get_game(name)
    try:
        return VIRTUAL[game.name]
    except KeyError:
        raise EntryError(f"{game.title} has no virtual deck yet") from None
