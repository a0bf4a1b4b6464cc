"""What the One Card expert plays for: the game, not the deal.

The strong bot scores the end of a deal by its own points. At the table what counts
is who reaches the target first with the highest total, so the expert scores the end
of a deal by each player's chance to win the game from there (:class:`WinChances`):
with the game's totals after the deal, it plays the rest of the game out many times
on deals drawn from a sample of deals the strong bots played against each other
(``outcomes.json``: the scores by seat counted from the dealer, for 2, 3 and 4
players; ``python scripts/deal_outcomes.py`` makes it). Four points are worth
more to a player at 27 of 30 than at 3, a bid that stops a leader is worth a loss of
points, and a trick that keeps a player below the target is worth fighting for.

Every future is drawn from a generator seeded by the position alone (the totals, the
next dealer, the target): the same position gets the same chances in any process and
in any order of questions, so games stay the same for the same seed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from functools import cache
from importlib.resources import files

from scorekeeper.games.one_card import rules

__all__ = ["DEAL_OUTCOMES", "WinChances", "deal_outcomes", "win_chances"]

DEAL_OUTCOMES = "outcomes.json"
"""The sample of deal scores, next to this module."""


@cache
def deal_outcomes() -> dict[int, tuple[tuple[int, ...], ...]]:
    """The sample of deals by number of players: each deal's scores by seat, the
    dealer's first."""
    text = files("scorekeeper.games.one_card").joinpath(DEAL_OUTCOMES).read_text("utf-8")
    raw = json.loads(text)
    return {int(n): tuple(tuple(int(x) for x in deal) for deal in deals)
            for n, deals in raw["deals"].items()}


class WinChances:
    """Each seat's chance to win the game from a position between two deals: the
    totals by seat, the seat that deals next. A game over (a total at the target or
    above, highest alone: :func:`rules.winners`) is decided; otherwise ``futures`` plays
    of the rest of the game on deals drawn from the sample, each until the rules' end
    (a tie at the top plays on). Answers are remembered (up to ``remember`` positions)."""

    def __init__(self, n: int, target: int, futures: int = 400,
                 remember: int = 200_000) -> None:
        self.n = n
        self.target = target
        self.futures = futures
        self._deals = deal_outcomes()[n]
        self._remember = remember
        self._known: dict[tuple[tuple[int, ...], int], tuple[float, ...]] = {}

    def of(self, totals: Sequence[int], next_dealer: int) -> tuple[float, ...]:
        key = (tuple(totals), next_dealer)
        known = self._known.get(key)
        if known is None:
            known = self._play_out(key[0], next_dealer)
            if len(self._known) >= self._remember:
                self._known.clear()
            self._known[key] = known
        return known

    def _play_out(self, totals: tuple[int, ...], next_dealer: int) -> tuple[float, ...]:
        n = self.n
        target = self.target
        over = rules.winners(totals, target)
        if over is not None:
            return tuple(1.0 if seat in over else 0.0 for seat in range(n))
        deals = self._deals
        count = len(deals)
        rng = random.Random(f"one-card/{target}/{next_dealer}/{totals}")
        draw = rng.random
        wins = [0] * n
        seats = range(n)
        winners = rules.winners
        for _ in range(self.futures):
            running = list(totals)
            dealer = next_dealer
            for _deal in range(200):  # a game ends long before (15 points a deal)
                scores = deals[int(draw() * count)]
                for seat in seats:
                    running[seat] += scores[(seat - dealer) % n]
                dealer = (dealer + 1) % n
                over = winners(running, target)
                if over is not None:
                    wins[over[0]] += 1
                    break
        return tuple(w / self.futures for w in wins)


@cache
def win_chances(n: int, target: int) -> WinChances:
    """The one :class:`WinChances` of a process for ``n`` players and ``target``."""
    return WinChances(n, target)
