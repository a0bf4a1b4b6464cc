"""Oh Hell's rules as pure functions: the deals' hand sizes, the dealer, the hook rule and
scoring a deal (rules/en.md cites the source).

>>> schedule(Schedule.DOWN, 7)
(7, 6, 5, 4, 3, 2, 1)
>>> schedule(Schedule.DOWN_UP, 3)
(3, 2, 1, 2, 3)
>>> score(Scoring.TEN_PLUS_BID, bid=2, tricks=2), score(Scoring.TEN_PLUS_BID, bid=2, tricks=1)
(12, 0)
>>> hook_bid(hand_size=7, others=[2, 3])
2
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "BIDS_KEY",
    "DECK",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "START",
    "TRICKS_KEY",
    "Hook",
    "Options",
    "Schedule",
    "Scoring",
    "bidding_order",
    "dealer_of",
    "hand_sizes",
    "hook_bid",
    "max_hand_size",
    "schedule",
    "score",
]

BIDS_KEY = "bids"
TRICKS_KEY = "tricks"
"""The stored round's keys (docs/format.md): each player's bid and the tricks they took."""
MIN_PLAYERS = 3
MAX_PLAYERS = 7
DECK = 52
START = 7


class Schedule(StrEnum):
    """House rule ``hand_sizes``: the hand sizes of the deals, from ``start``."""

    DOWN = "descend"
    """start, start - 1, ..., 1 (the default: 7 down to 1)."""
    UP = "ascend"
    """1, 2, ..., start."""
    DOWN_UP = "both"
    """start down to 1, then back up to start."""


class Scoring(StrEnum):
    """House rule ``bid_scoring``: what a deal is worth to a player."""

    TEN_PLUS_BID = "ten-plus"
    """An exact bid scores 10 + the bid; a missed one 0 (the default)."""
    TRICKS_PLUS_TEN = "per-trick"
    """1 a trick taken, and 10 more for an exact bid."""
    MINUS_DIFFERENCE = "minus"
    """An exact bid scores 10 + the bid; a missed one loses the difference."""


class Hook(StrEnum):
    """House rule ``hook``: may the dealer's bid make the bids add up to the hand size?"""

    ON = "hook"
    OFF = "no-hook"


@dataclass(frozen=True, slots=True)
class Options:
    """An Oh Hell session's house rules."""

    most_cards: int = START
    hand_sizes: Schedule = Schedule.DOWN
    bid_scoring: Scoring = Scoring.TEN_PLUS_BID
    hook: Hook = Hook.ON

    def as_dict(self) -> dict[str, int | str]:
        return {"most_cards": self.most_cards, "hand_sizes": self.hand_sizes.value,
                "bid_scoring": self.bid_scoring.value, "hook": self.hook.value}


def max_hand_size(players: int) -> int:
    """The most cards each of ``players`` can be dealt from one deck: 52 // players."""
    return DECK // players


def schedule(kind: Schedule, start: int) -> tuple[int, ...]:
    """The hand size of each deal, in order."""
    down = tuple(range(start, 0, -1))
    up = tuple(range(1, start + 1))
    if kind is Schedule.DOWN:
        return down
    if kind is Schedule.UP:
        return up
    return down + up[1:]


def hand_sizes(kind: Schedule, most_cards: int, players: int) -> tuple[int, ...]:
    """The hand size of each deal for ``players``: the schedule from ``most_cards``, its
    biggest deal bounded by what one deck allows (52 // players).

    >>> hand_sizes(Schedule.DOWN, 10, 7)
    (7, 6, 5, 4, 3, 2, 1)
    """
    return schedule(kind, min(most_cards, max_hand_size(players)))


def bidding_order(players: Sequence[str], dealer: str) -> list[str]:
    """Who bids, in order: from the dealer's left round to the dealer, who bids last.

    >>> bidding_order(["Ann", "Bob", "Cy"], "Bob")
    ['Cy', 'Ann', 'Bob']
    """
    seat = players.index(dealer)
    return [players[(seat + step) % len(players)] for step in range(1, len(players) + 1)]


def dealer_of(players: Sequence[str], first_dealer: str, deal: int) -> str:
    """Who deals deal number ``deal`` (1-based): the deal passes to the left."""
    return players[(players.index(first_dealer) + deal - 1) % len(players)]


def hook_bid(hand_size: int, others: Sequence[int]) -> int | None:
    """The one bid the hook rule forbids the dealer (who bids last): the bid that makes the
    bids add up to the hand size; ``None`` when no bid could (the others bid too much)."""
    forbidden = hand_size - sum(others)
    return forbidden if 0 <= forbidden <= hand_size else None


def score(kind: Scoring, bid: int, tricks: int) -> int:
    """What a player's bid and tricks score under ``kind``."""
    exact = bid == tricks
    if kind is Scoring.TRICKS_PLUS_TEN:
        return tricks + (10 if exact else 0)
    if exact:
        return 10 + bid
    return -abs(bid - tricks) if kind is Scoring.MINUS_DIFFERENCE else 0
