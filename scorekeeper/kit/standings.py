"""Standings (everything recomputed from a session's rounds), the game's figures for
statistics, and the table contract the generic layers read (TableGame)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from typing import Protocol, TypeVar

from scorekeeper.kit.entries import Question, RoundEntry
from scorekeeper.kit.options import HouseRule, Language
from scorekeeper.kit.rounds import JSONObject, JSONRecord, Round, ScoredRound

__all__ = [
    "OptionsT",
    "RoundQuestions",
    "Standings",
    "StatFigure",
    "TableGame",
    "competition_ranks",
]


@dataclass(frozen=True, slots=True)
class Standings:
    """Everything recomputed from a session's rounds."""

    totals: dict[str, int]
    knocked_out: list[str]
    still_in: list[str]
    finished: bool
    winners: list[str]
    rounds: list[ScoredRound]
    """Each round scored (its :meth:`ScoredRound.to_json` is FORMAT.md's summary round)."""
    next_dealer: str | None
    notes: list[str] = field(default_factory=list)
    """Game-specific lines for the standings view (e.g. a tie at the target)."""
    next_deal: str | None = None
    """Who deals next and who starts, as one sentence (the terminal's last note)."""
    next_starter: str | None = None
    """Who starts the next deal, without the dealer (where the dealer is shown apart)."""
    left: list[str] = field(default_factory=list)
    """The players who left the game (``score drop-player``), in the order they left: their
    rounds stay, they play no more deals and win nothing."""
    starting: dict[str, int] = field(default_factory=dict)
    """The total each player who joined late (``score add-player``) started at."""

    @property
    def all_notes(self) -> list[str]:
        """The notes, then the next deal: every line of the standings view."""
        return [*self.notes, *([self.next_deal] if self.next_deal else [])]

    def running_totals(self) -> list[dict[str, int]]:
        """Each player's total after each round, in order (the one place it is summed)."""
        running = {name: self.starting.get(name, 0) for name in self.totals}
        after: list[dict[str, int]] = []
        for summary in self.rounds:
            for name, score in summary.scores.items():
                running[name] += score
            after.append(dict(running))
        return after


@dataclass(frozen=True, slots=True)
class StatFigure:
    """One game-specific statistic: the sum of tally ``numerator`` over the player's rounds,
    divided by the sum of tally ``denominator`` when one is given (None when that is 0)."""

    key: str
    label: str
    meaning: str
    numerator: str
    denominator: str | None = None
    percent: bool = False


_Key = TypeVar("_Key", int, tuple[int, ...])


def competition_ranks(keys: Mapping[str, _Key]) -> dict[str, int]:
    """Places from sort keys (lower is better); equal keys share the better place (1, 2, 2, 4)."""
    ordered = sorted(keys, key=lambda name: keys[name])
    places: dict[str, int] = {}
    for index, name in enumerate(ordered):
        if index and keys[name] == keys[ordered[index - 1]]:
            places[name] = places[ordered[index - 1]]
        else:
            places[name] = index + 1
    return places


OptionsT = TypeVar("OptionsT")
"""A game's house rules, typed: its own frozen options object (``YanivOptions``)."""


class TableGame(Protocol[OptionsT]):
    """The scorekeeper side of a game: options, entry checks, recomputing standings.

    Generic in the game's typed house rules: :meth:`parse_options` is the one place the
    JSON/command-line mapping is read (``score new``, ``config``, reading a session);
    every other method takes the typed options it gave."""

    name: str
    title: str
    min_players: int
    max_players: int
    target_label: str
    lower_is_better: bool

    def default_options(self) -> JSONObject: ...

    def check_options(self, options: Mapping[str, object]) -> JSONObject:
        """A new session's house rules as stored (FORMAT.md's ``options``), validated with
        defaults filled in; raise EntryError otherwise."""
        ...

    def parse_options(self, options: Mapping[str, object]) -> OptionsT:
        """Stored or typed house rules (JSON) as the game's typed options, this game's
        defaults where none is given; raise EntryError otherwise."""
        ...

    def check_players(self, players: Sequence[str]) -> None: ...

    def make_round(self, players: Sequence[str], options: OptionsT,
                   standings: Standings, entry: RoundEntry) -> Round:
        """Check a typed entry against the standings; the round to store."""
        ...

    def standings(self, players: Sequence[str], options: OptionsT,
                  first_dealer: str | None, rounds: Sequence[Round]) -> Standings:
        """Recompute everything from the rounds; raise RoundError for a round that does not fit
        (another game's round among them included)."""
        ...

    def round_from_json(self, data: JSONRecord) -> Round:
        """A stored round (the store's JSON) as the game's typed round; EntryError when a
        part of it is not of its type."""
        ...

    def round_from_summary(self, summary_round: JSONRecord) -> Round:
        """The stored round behind one round of a FORMAT.md summary (for import)."""
        ...

    def target(self, options: OptionsT) -> int:
        """The line the chart draws: the knock-out limit, or the target to reach; 0 when
        the game has none (a Points game that ends after its deals): then no view shows
        a target (:func:`scorekeeper.ranking.target_line`)."""
        ...

    rules_folder: Traversable
    """The package folder holding the game's rules texts, one ``<language>.md`` each."""

    def house_rules(self, options: OptionsT, language: Language) -> list[HouseRule]:
        """Each house rule of ``options`` in words, in the order ``score new`` lists them."""
        ...

    # -- across sessions (players, statistics) ------------------------------------

    stat_figures: tuple[StatFigure, ...]
    """The game's own figures for ``score stats``, as ratios of :meth:`ScoredRound.tallies`."""

    def placings(self, players: Sequence[str], options: OptionsT,
                 standings: Standings) -> dict[str, int]:
        """Each player's place in a finished game as the game means it (1 = won; ties share)."""
        ...


_Options_contra = TypeVar("_Options_contra", contravariant=True)


class RoundQuestions(Protocol[_Options_contra]):
    """How a game asks, at a terminal, for what a round lacks: one question at a time,
    each answer checked with the same rules and messages as the command line."""

    def check_given(self, players: Sequence[str], options: _Options_contra,
                    standings: Standings, entry: RoundEntry) -> None:
        """Refuse, before anything is asked, what the command line gave that no answer
        could make right (an unknown name, contradictory options, an impossible value)."""
        ...

    def next_question(self, players: Sequence[str], options: _Options_contra,
                      standings: Standings, entry: RoundEntry,
                      previous: RoundEntry | None = None) -> Question | None:
        """What to ask next for an incomplete ``entry``, or None when nothing is missing;
        ``previous`` (edit-round: the round as it is now) gives each question's default."""
        ...

    def entry_of(self, round_: Round) -> RoundEntry:
        """A stored round as it would be typed on the command line."""
        ...
