"""How a game marks a round in the narrow grid of ``score show`` (re-exported by
:mod:`scorekeeper.kit.rounds`, where games import it from)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["GridMarks"]


@dataclass(frozen=True, slots=True)
class GridMarks:
    """How a game marks one round in the narrow grid of ``score show``: a sign after
    some players' running totals (``*`` the player who led), and the text of the game's own
    column, if it has one (a number the round names)."""

    marks: dict[str, str]
    note: str = ""
