"""Yaniv's rules: Least Score's (scorekeeper.games.least_score.rules) with Yaniv's numbers.

What Yaniv changes (rules/en.md cites the sources): a player may call Yaniv only with 7
or less; a call that fails (Assaf: another hand is as low or lower) costs the caller 30
plus their own hand; a good call scores every other player their own hand; a player
over 200 is out; a total that lands exactly on a multiple of 50 is halved. Each is a
house rule with that default. A table that plays with the pack's jokers says how many
(house rule ``jokers``, 0 by default): each is worth 0, so a hand of jokers is 0 and
Yaniv may be called at 0. Everything else (the deal, the turn, the discards, the end) is
Least Score's.

>>> YanivOptions().as_dict()["limit"], YanivOptions().declare_at
(200, 7)
>>> YanivOptions(jokers=2, declare_at=0).problem() is None, YanivOptions(declare_at=0).problem()
(True, 'Yaniv may be called at 1 to 50 (no hand is under 1, an ace; with --jokers, at 0), not 0')
"""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.games.least_score.rules import (
    JOKER_VALUE,
    MAX_HAND_TOTAL,
    MAX_JOKERS,
    End,
    Options,
    Scoring,
    Tie,
    TwoPairs,
)
from scorekeeper.games.yaniv.words import _

__all__ = [
    "DECLARE_AT",
    "HALVING",
    "LIMIT",
    "LOWEST_HAND",
    "MAX_HALVING",
    "MAX_JOKERS",
    "MAX_PENALTY",
    "PENALTY",
    "YanivOptions",
]

DECLARE_AT = 7
LOWEST_HAND = 1
"""The lowest hand at the end of a deal without jokers: one ace, so Yaniv can't be called
at less; ``declare_at`` is 1 to 50 (with the house rule ``jokers``, 0 to 50: a joker is
worth 0)."""
PENALTY = 30
LIMIT = 200
HALVING = 50
MAX_PENALTY = 100
MAX_HALVING = 500


@dataclass(frozen=True, slots=True)
class YanivOptions(Options):
    """A Yaniv session's house rules: Least Score's four, Yaniv's defaults, and the three
    Yaniv adds (``declare_at``, ``penalty``, ``halving``; 0 turns halving off)."""

    limit: int = LIMIT
    tie: Tie = Tie.DECLARER_LOSES
    end: End = End.LAST_STANDING
    two_pairs: TwoPairs = TwoPairs.SAME_RANK
    declare_at: int = DECLARE_AT
    penalty: int = PENALTY
    halving: int = HALVING
    scoring: Scoring = Scoring.HAND
    jokers: int = 0

    def __post_init__(self) -> None:
        Options.__post_init__(self)
        # 0 still reads (a session stored before 1 was the lowest); a new one is refused
        # it (YanivTable.check_options).
        if not 0 <= self.declare_at <= MAX_HAND_TOTAL:
            raise ValueError(declare_at_range(self.declare_at))
        if not 0 <= self.penalty <= MAX_PENALTY:
            raise ValueError(_("the Assaf penalty must be 0 to {highest}, not {value}").format(
                highest=MAX_PENALTY, value=self.penalty))
        if self.halving and not 10 <= self.halving <= MAX_HALVING:
            raise ValueError(_("halving is 0 (off) or a whole number from 10 to {highest}, "
                               "not {value}").format(highest=MAX_HALVING, value=self.halving))

    @property
    def lowest_hand(self) -> int:
        """The lowest hand at the end of a deal: an ace, or with jokers a joker's 0."""
        return JOKER_VALUE if self.jokers else LOWEST_HAND

    def problem(self) -> str | None:
        """What a new session may not have: a threshold no hand is under."""
        return declare_at_range(self.declare_at) if self.declare_at < self.lowest_hand \
            else None

    def as_dict(self) -> dict[str, int | str]:
        return {
            **Options.as_dict(self),
            "declare_at": self.declare_at,
            "penalty": self.penalty,
            "halving": self.halving,
            "jokers": self.jokers,
        }


def declare_at_range(value: int) -> str:
    """Why a new session may not call Yaniv at ``value`` (below an ace, with no jokers)."""
    return _("Yaniv may be called at {lowest} to {highest} (no hand is under {lowest}, an "
             "ace; with --jokers, at 0), not {value}").format(
        lowest=LOWEST_HAND, highest=MAX_HAND_TOTAL, value=value)
