"""Points' rules, pure: a deal is each player's points (whole numbers, negatives
allowed), the higher or the lower total wins, the game ends at a target or after a
number of deals, and a house rule may make every deal's points add up to one sum.

>>> options = Options(wins=Wins.LOW, target=100)
>>> over({"Ann": 101, "Bob": 60}, 5, options), winners({"Ann": 101, "Bob": 60}, options)
(True, ['Bob'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

POINTS_KEY = "points"
"""The stored round's key (FORMAT.md): each player's points in the deal."""
MIN_PLAYERS = 2
MAX_PLAYERS = 12
MAX_POINTS = 1_000_000
"""The most points one player may score in one deal, either way (a typing slip guard)."""
MAX_TARGET = 1_000_000
MAX_ROUNDS = 1_000
DEFAULT_TARGET = 100
ANY_SUM = "any"
"""The ``sum`` setting when a deal's points may add up to anything."""


class Wins(StrEnum):
    HIGH = "high"
    LOW = "low"


@dataclass(frozen=True, slots=True)
class Options:
    """A points game's settings: who wins, when it ends, what a deal adds up to."""

    wins: Wins = Wins.HIGH
    target: int = DEFAULT_TARGET
    """The game ends when a total reaches it (0: no target)."""
    rounds: int = 0
    """The game ends after this many deals (0: no limit)."""
    sum: int | None = None
    """Every deal's points add up to this (None: any sum)."""

    def __post_init__(self) -> None:
        if not 0 <= self.target <= MAX_TARGET:
            raise ValueError(f"target {self.target}")
        if not 0 <= self.rounds <= MAX_ROUNDS:
            raise ValueError(f"rounds {self.rounds}")
        if self.sum is not None and not -MAX_TARGET <= self.sum <= MAX_TARGET:
            raise ValueError(f"sum {self.sum}")

    @property
    def ends(self) -> bool:
        """Whether the game has an end at all (a target or a number of deals)."""
        return self.target > 0 or self.rounds > 0

    def as_dict(self) -> dict[str, int | str]:
        return {"wins": self.wins.value, "target": self.target, "rounds": self.rounds,
                "sum": ANY_SUM if self.sum is None else self.sum}


def deal_sum(points: Mapping[str, int]) -> int:
    return sum(points.values())


def sum_is_right(points: Mapping[str, int], options: Options) -> bool:
    """Whether a deal's points add up as the house rule says (always, without one).

    >>> sum_is_right({"Ann": 30, "Bob": -30}, Options(sum=0))
    True
    """
    return options.sum is None or deal_sum(points) == options.sum


def over(totals: Mapping[str, int], deals: int, options: Options) -> bool:
    """The game is over: a total reached the target, or the last deal was played."""
    reached = options.target > 0 and any(total >= options.target
                                         for total in totals.values())
    return reached or 0 < options.rounds <= deals


def winners(totals: Mapping[str, int], options: Options) -> list[str]:
    """The best total's players (ties share the win): the highest, or the lowest."""
    best = (min if options.wins is Wins.LOW else max)(totals.values())
    return [name for name, total in totals.items() if total == best]


def order_key(total: int, options: Options) -> int:
    """A sort key, lower is better, for placings."""
    return total if options.wins is Wins.LOW else -total


def next_dealer(players: Sequence[str], dealer: str) -> str:
    """The deal passes to the left: the next player in seating order."""
    return players[(players.index(dealer) + 1) % len(players)]
