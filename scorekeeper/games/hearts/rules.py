"""Hearts' scoring, pure (Pagat, https://www.pagat.com/reverse/hearts.html): each heart
taken is 1 penalty point and the queen of spades 13, so a deal's penalty points add up
to 26. A player who takes them all *shoots the moon*: 0 for them and 26 for everyone
else (house rule ``minus``: 26 off their own total and 0 for the others). With the
jack of diamonds house rule (Omnibus Hearts) the J♦ counts -10 for whoever takes it,
moon or not, so a deal's points add up to 16.

>>> moon_scores(["Ann", "Bob", "Cy"], "Bob", MoonRule.ADD, jack=None)
{'Ann': 26, 'Bob': 0, 'Cy': 26}
>>> problem({"Ann": 13, "Bob": 13, "Cy": 0}, jack_rule=False) is None
True

Points that add up right can still be no deal's: somebody took the Q♠, so somebody's
points hold its 13.

>>> problem({"Ann": 12, "Bob": 12, "Cy": 1, "Dan": 1}, jack_rule=False)
(<Problem.QUEEN: 'queen'>, '')
>>> passing(3, 4), passing(4, 4), passing(3, 3)
(<Passing.ACROSS: 'across'>, <Passing.HOLD: 'hold'>, <Passing.HOLD: 'hold'>)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

MOON_KEY = "moon"
"""The stored round's key (FORMAT.md) and the round option: who shot the moon."""
PASSING_KEY = "pass_direction"
"""The exports' column of the cards passed before each deal (not in a summary)."""
MIN_PLAYERS = 3
MAX_PLAYERS = 6
USUAL_PLAYERS = 4
PENALTY_POINTS = 26
"""13 hearts at 1 each and the queen of spades at 13."""
HEARTS = 13
"""The hearts of a deal, 1 point each: all are dealt, with any number of players."""
QUEEN = 13
"""The queen of spades."""
JACK = -10
"""The jack of diamonds, with the house rule."""
TARGET = 100


class MoonRule(StrEnum):
    ADD = "add"
    """26 to every other player (the common rule; ``plus`` on the command line, CLI.md)."""
    MINUS = "minus"
    """26 off the shooter's own total, nothing to the others."""

    @classmethod
    def _missing_(cls, value: object) -> MoonRule | None:
        return cls.ADD if value == MOON_PLUS else None


MOON_PLUS = "plus"
"""The command line's name of :attr:`MoonRule.ADD` (a stored ``add`` reads as before)."""


class JackRule(StrEnum):
    OFF = "off"
    ON = "on"


def deal_sum(jack_rule: bool) -> int:
    """What a deal's points add up to: 26, or 16 with the jack of diamonds."""
    return PENALTY_POINTS + (JACK if jack_rule else 0)


def entry_range(jack_rule: bool) -> tuple[int, int]:
    """The points one player can take in a deal without shooting the moon: 0 to 25 (all
    26 is the moon), from -10 with the jack of diamonds."""
    return (JACK if jack_rule else 0), PENALTY_POINTS - 1


class Problem(StrEnum):
    """Why a deal's points can't be Hearts' (the table says it in words)."""

    MOON = "moon"
    """Someone has all 26: that is a moon, entered as one."""
    RANGE = "range"
    TWO_JACKS = "two-jacks"
    """Two players below 0: only one can hold the jack."""
    SUM = "sum"
    QUEEN = "queen"
    """Nobody's points can hold the Q♠'s 13."""
    CARDS = "cards"
    """No split of the hearts, the Q♠ (and the J♦) gives these points."""


@dataclass(frozen=True, slots=True)
class Taken:
    """Who took which penalty cards in a deal: a deal of cards that gives its points."""

    hearts: dict[str, int]
    queen: str
    jack: str | None

    def points(self) -> dict[str, int]:
        return {name: count + QUEEN * (name == self.queen) + JACK * (name == self.jack)
                for name, count in self.hearts.items()}

    @property
    def moon(self) -> bool:
        """The queen's taker took every heart too: that deal is a moon."""
        return self.hearts[self.queen] == HEARTS


def taken(points: Mapping[str, int], jack_rule: bool) -> Taken | None:
    """The penalty cards each player took in a deal that gives ``points`` (one of them,
    if several do), not a moon; None when no deal of cards gives them. The Q♠ and, with
    the house rule, the J♦ are always taken by somebody, and the 13 hearts are split."""
    names = list(points)
    for queen in names:
        for jack in (names if jack_rule else [None]):
            hearts = {name: value - QUEEN * (name == queen) - JACK * (name == jack)
                      for name, value in points.items()}
            if (all(0 <= count <= HEARTS for count in hearts.values())
                    and sum(hearts.values()) == HEARTS and hearts[queen] < HEARTS):
                return Taken(hearts, queen, jack)
    return None


def problem(points: Mapping[str, int], jack_rule: bool, *, dealt: bool = True
            ) -> tuple[Problem, str] | None:
    """The first thing wrong with a deal's points (and the player it concerns, or ""),
    or None when Hearts can score them so. ``dealt=False`` leaves out whether a deal of
    cards gives them (a round stored before that was checked still scores)."""
    low, high = entry_range(jack_rule)
    for name, value in points.items():
        if value == PENALTY_POINTS:
            return Problem.MOON, name
        if not low <= value <= high:
            return Problem.RANGE, name
    below = [name for name, value in points.items() if value < 0]
    if len(below) > 1:
        return Problem.TWO_JACKS, below[1]
    if sum(points.values()) != deal_sum(jack_rule):
        return Problem.SUM, ""
    if dealt and taken(points, jack_rule) is None:
        least = QUEEN + (JACK if jack_rule else 0)
        holds_queen = any(value >= least for value in points.values())
        return (Problem.CARDS if holds_queen else Problem.QUEEN), ""
    return None


class Passing(StrEnum):
    """Where the three cards each player passes before a deal go."""

    LEFT = "left"
    RIGHT = "right"
    ACROSS = "across"
    HOLD = "hold"
    """No passing in this deal."""


def passing(deal: int, players: int) -> Passing:
    """The passing of deal number ``deal`` (from 1): with 4 players left, right, across,
    hold, and again; with 3, 5 or 6, where nobody sits across, left, right, hold."""
    cycle = ((Passing.LEFT, Passing.RIGHT, Passing.ACROSS, Passing.HOLD)
             if players == USUAL_PLAYERS else (Passing.LEFT, Passing.RIGHT, Passing.HOLD))
    return cycle[(deal - 1) % len(cycle)]


def moon_scores(players: Sequence[str], shooter: str, rule: MoonRule,
                jack: str | None) -> dict[str, int]:
    """A moon deal's points: the shooter's and everyone else's, then -10 to whoever took
    the jack of diamonds (with that house rule)."""
    if rule is MoonRule.ADD:
        scores = {name: 0 if name == shooter else PENALTY_POINTS for name in players}
    else:
        scores = {name: -PENALTY_POINTS if name == shooter else 0 for name in players}
    if jack is not None:
        scores[jack] += JACK
    return scores
