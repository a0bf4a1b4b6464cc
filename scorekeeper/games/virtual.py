"""What every game's virtual deck offers the match layer (see ``scorekeeper/match.py``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from scorekeeper.games.common import JSONDict


class DealState(Protocol):
    """A deal in progress: the OpenSpiel-like surface both engines share."""

    @property
    def current_player(self) -> str | None: ...

    @property
    def is_over(self) -> bool: ...

    def view(self, player: str) -> Any: ...

    def apply(self, action: Any) -> None: ...

    def legal_actions(self) -> list[Any]: ...


class Bot(Protocol):
    def choose(self, view: Any, rng: random.Random) -> Any: ...


class VirtualGame(Protocol):
    """A game's virtual deck: dealing, bots, and turning a finished deal into a round."""

    name: str

    @property
    def bots(self) -> Mapping[str, Bot]: ...

    def new_deal(self, players: Sequence[str], dealer: str, rng: random.Random,
                 options: Mapping[str, Any]) -> DealState: ...

    def round_of(self, deal: DealState) -> JSONDict:
        """The finished deal as a session round (with its ``deal`` and ``actions``)."""
        ...

    def replay(self, round_: Mapping[str, Any], options: Mapping[str, Any],
               upto: int | None = None) -> DealState:
        """The deal rebuilt from a saved round, its first ``upto`` actions (all) applied."""
        ...

    def verify(self, round_: Mapping[str, Any], options: Mapping[str, Any]) -> None:
        """Replay a saved round and refuse it (EntryError) unless it gives what it says."""
        ...

    def stats(self, rounds: Sequence[Mapping[str, Any]]) -> dict[str, tuple[int, int]]:
        """Per-game counts for ``simulate``: name -> (hits, out of)."""
        ...
