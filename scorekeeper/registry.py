"""The one place where games are registered.

A game is one folder under ``scorekeeper/games/``: its rules, its table module
(scorekeeping), for the virtual deck its engine, bots, adapter and keyboard UI, and
a ``game.py`` whose :class:`~scorekeeper.games.common.GameDeclaration` says all the
generic layers need. This module lists those declarations. A game from elsewhere (a
plug-in, a test's folder) is added with :func:`register`, or named in the
``SCOREKEEPER_GAMES`` environment variable as ``module:ATTRIBUTE`` (comma-separated).
"""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING

from scorekeeper.games.common import EntryError, GameDeclaration, RoundOption, TableGame
from scorekeeper.games.least_score.game import GAME as LEAST_SCORE
from scorekeeper.games.one_card.game import GAME as ONE_CARD
from scorekeeper.i18n import _

if TYPE_CHECKING:
    from scorekeeper.games.virtual import VirtualGame

DECLARATIONS: dict[str, GameDeclaration] = {}
GAMES: dict[str, TableGame] = {}
"""Each game's table side by name (kept for the callers that only score)."""

_virtual: dict[str, VirtualGame] = {}
"""Each game's virtual deck, imported on first use, so that the commands at the table
never load the engines and bots (start-up time is the table's wait)."""

GAMES_VARIABLE = "SCOREKEEPER_GAMES"


def register(declaration: GameDeclaration) -> None:
    """Add a game; refuse a name taken, or a round option another game gives another kind."""
    if declaration.name in DECLARATIONS and DECLARATIONS[declaration.name] is not declaration:
        raise ValueError(f"a game called {declaration.name!r} is already registered")
    for option in declaration.round_options:
        other = round_options().get(option.key)
        if other is not None and other.kind != option.kind:
            raise ValueError(f"{option.flag} is a {other.kind} in another game, "
                             f"not a {option.kind}")
    DECLARATIONS[declaration.name] = declaration
    GAMES[declaration.name] = declaration.table


def _register_from_environment() -> None:
    for spec in filter(None, (part.strip() for part in
                              os.environ.get(GAMES_VARIABLE, "").split(","))):
        module, _colon, attribute = spec.partition(":")
        declaration = getattr(importlib.import_module(module), attribute or "GAME")
        if not isinstance(declaration, GameDeclaration):
            raise TypeError(f"{spec} (from ${GAMES_VARIABLE}) is not a GameDeclaration")
        register(declaration)


def declaration_of(name: str) -> GameDeclaration:
    try:
        return DECLARATIONS[name.strip().lower()]
    except KeyError:
        raise EntryError(_("there is no game called {name}: choose {games}").format(
            name=repr(name), games=_(" or ").join(DECLARATIONS))) from None


def get_game(name: str) -> TableGame:
    return declaration_of(name).table


def round_options() -> dict[str, RoundOption]:
    """Every game's round options by key (``add-round`` takes them all)."""
    found: dict[str, RoundOption] = {}
    for declaration in DECLARATIONS.values():
        for option in declaration.round_options:
            found.setdefault(option.key, option)
    return found


def games_taking(key: str) -> list[GameDeclaration]:
    """The games whose rounds take the round option ``key``."""
    return [declaration for declaration in DECLARATIONS.values()
            if any(option.key == key for option in declaration.round_options)]


def get_virtual(name: str) -> VirtualGame:
    declaration = declaration_of(name)
    if declaration.name not in _virtual:
        if declaration.virtual is None:
            raise EntryError(_("{game} has no virtual deck yet").format(
                game=declaration.title))
        module, _colon, attribute = declaration.virtual.partition(":")
        adapter: VirtualGame = getattr(importlib.import_module(module), attribute)()
        _virtual[declaration.name] = adapter
    return _virtual[declaration.name]


register(LEAST_SCORE)
register(ONE_CARD)
_register_from_environment()
