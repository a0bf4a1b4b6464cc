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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum

MOON_KEY = "moon"
"""The stored round's key (FORMAT.md) and the round option: who shot the moon."""
MIN_PLAYERS = 3
MAX_PLAYERS = 6
USUAL_PLAYERS = 4
PENALTY_POINTS = 26
"""13 hearts at 1 each and the queen of spades at 13."""
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


def problem(points: Mapping[str, int], jack_rule: bool) -> tuple[Problem, str] | None:
    """The first thing wrong with a deal's points (and the player it concerns, or ""),
    or None when Hearts can score them so."""
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
    return None


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
