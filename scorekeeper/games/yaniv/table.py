"""Yaniv at the table: Least Score's table (entries, checks, standings, statistics) with
Yaniv's house rules, its calls' words and its rules texts.

An entry is Least Score's: ``--declarer NAME`` (who called Yaniv) and each player's hand
total or cards (a :class:`LeastScoreRound`); a caller over ``declare_at`` (7) is refused
at entry. A scored round is a :class:`YanivScored`: Least Score's, told as a Yaniv call
or an Assaf, with whose total was halved."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import ClassVar

from scorekeeper.games.least_score import texts
from scorekeeper.games.least_score.rules import MAX_HAND_TOTAL, End, Options, Tie, TwoPairs
from scorekeeper.games.least_score.table import (
    LeastScoreRound,
    LeastScoreScored,
    LeastScoreTable,
)
from scorekeeper.games.yaniv.rules import YanivOptions
from scorekeeper.games.yaniv.words import N_, WORDS, _, pgettext
from scorekeeper.kit.entries import EntryError
from scorekeeper.kit.options import (
    HouseRule,
    Language,
    option_choice,
    option_whole_number,
    parsed_once,
)
from scorekeeper.kit.rounds import JSONObject, RoundCaption
from scorekeeper.kit.standings import StatFigure


@dataclass(frozen=True, slots=True, kw_only=True)
class YanivScored(LeastScoreScored):
    """A Yaniv deal scored: Least Score's scored round, its declaration a Yaniv call (a
    false one is Assaf), and a tally of the totals halved."""

    halving: ClassVar[bool] = True

    def caption(self) -> RoundCaption:
        caller = self.declarer
        assaf = self.false_declaration
        note = _("Assaf: {name} called Yaniv and was not lowest").format(name=caller) \
            if assaf else ""
        if self.halved:
            halving = _("halved: {names}").format(names=", ".join(self.halved))
            note = f"{note}; {halving}" if note else halving
        return RoundCaption(
            role=caller, sentence=_("{name} called Yaniv").format(name=caller),
            failure=pgettext("a Yaniv call that failed", "Assaf") if assaf else "",
            failure_note=note, marked=caller)

    def tallies(self) -> dict[str, dict[str, int]]:
        tallies = LeastScoreScored.tallies(self)  # (slots: no bare super)
        for name, counts in tallies.items():
            counts["halvings"] = int(name in self.halved)
        return tallies


_JOKERS = (N_("played without jokers"), N_("played with one joker, worth 0"),
           N_("played with the two jokers, each worth 0"))
"""The house rule ``jokers`` in words, by the number of jokers (0 to MAX_JOKERS)."""


class YanivTable(LeastScoreTable):
    name = "yaniv"
    title = "Yaniv"
    defaults = YanivOptions()
    rules_folder = resources.files("scorekeeper.games.yaniv") / "rules"
    scored_type: ClassVar[type[LeastScoreScored]] = YanivScored

    stat_figures: tuple[StatFigure, ...] = (
        StatFigure("declarations", N_("Yaniv"), N_("Yaniv calls made"), "declarations"),
        StatFigure("false_declaration_rate", N_("Assaf"),
                   N_("the share of them that were Assaf"),
                   "false_declarations", "declarations", percent=True),
        StatFigure("average_declaring_hand", N_("Hand"), N_("the average hand when calling"),
                   "declaring_hand", "declarations"),
        StatFigure("knock_outs", N_("Outs"), N_("times knocked out"), "knock_outs"),
        StatFigure("halvings", N_("Halved"), N_("totals halved on a multiple"), "halvings"),
    )

    def widest_round(self, players: Sequence[str], options: Options
                     ) -> YanivScored:
        """The widest round the grid can show: the longest name's Assaf on a full hand,
        every total halved, each score as wide as Yaniv's can be (the penalty on a full
        hand, or a halving's fall of up to half the limit)."""
        longest = max(players, key=len)
        fall = -(options.limit // 2) if options.halving else 0
        highest = max(options.penalty + MAX_HAND_TOTAL, fall, key=lambda n: len(str(n)))
        played = LeastScoreRound(declarer=longest,
                                 totals=dict.fromkeys(players, MAX_HAND_TOTAL))
        return YanivScored(number=1, dealer=longest, scores=dict.fromkeys(players, highest),
                           knocked_out=tuple(players), played=played, false_declaration=True,
                           halved=tuple(players) if options.halving else ())

    def parse_options(self, options: Mapping[str, object]) -> YanivOptions:
        return _parse_options({**self.default_options(), **options})

    def check_options(self, options: Mapping[str, object]) -> JSONObject:
        """A new session's house rules: as :meth:`parse_options` reads them, and a
        threshold some hand is under (a stored 0 still reads; a new one is refused)."""
        opts = self.parse_options(options)
        problem = opts.problem()
        if problem is not None:
            raise EntryError(problem)
        return dict(opts.as_dict())

    def check_players(self, players: Sequence[str]) -> None:
        try:
            super().check_players(players)
        except EntryError:
            raise EntryError(_("Yaniv takes {low} to {high} players, not {n}").format(
                low=self.min_players, high=self.max_players, n=len(players))) from None

    def house_rules(self, options: Options, language: Language) -> list[HouseRule]:
        words = WORDS.catalog(language.value).gettext
        default = self.defaults
        halving = (words(N_("a total landing exactly on a multiple of {n} is halved"))
                   .format(n=options.halving) if options.halving
                   else words(N_("no total is halved")))
        tie = (N_("a tie is Assaf: the caller must be strictly lowest")
               if options.tie is Tie.DECLARER_LOSES
               else N_("a tie is a good call: the caller must be lowest or tied"))
        base = {rule.key: rule for rule in texts.house_rules(options, language, default)}
        return [
            HouseRule("limit", options.limit, default.limit,
                      words(N_("a player whose total goes over {limit} is out")).format(
                          limit=options.limit)),
            HouseRule("tie", options.tie.value, default.tie.value, words(tie)),
            base["end"],
            base["two_pairs"],
            HouseRule("declare_at", options.declare_at, default.declare_at,
                      words(N_("Yaniv may be called with {n} or less")).format(
                          n=options.declare_at)),
            HouseRule("penalty", options.penalty, default.penalty,
                      words(N_("Assaf costs the caller {n} plus their hand")).format(
                          n=options.penalty)),
            HouseRule("halving", options.halving, default.halving, halving),
            HouseRule("jokers", options.jokers, default.jokers, words(_JOKERS[options.jokers])),
        ]


def _parse(options: Mapping[str, object]) -> YanivOptions:
    unknown = set(options) - set(YanivOptions().as_dict())
    if unknown:
        raise EntryError(_("Yaniv has no option {option}").format(
            option=repr(sorted(unknown)[0])))
    defaults = YanivOptions()
    try:
        return YanivOptions(
            limit=option_whole_number(options.get("limit", defaults.limit), _("the limit")),
            tie=option_choice(Tie, options.get("tie", defaults.tie), "tie"),
            end=option_choice(End, options.get("end", defaults.end), "end"),
            two_pairs=option_choice(TwoPairs, options.get("two_pairs", defaults.two_pairs),
                                    "two-pairs"),
            declare_at=option_whole_number(options.get("declare_at", defaults.declare_at),
                                           _("the Yaniv threshold")),
            penalty=option_whole_number(options.get("penalty", defaults.penalty),
                                        _("the Assaf penalty")),
            halving=option_whole_number(options.get("halving", defaults.halving),
                                        _("halving")),
            jokers=option_whole_number(options.get("jokers", defaults.jokers),
                                       _("the jokers")),
        )
    except ValueError as error:
        raise EntryError(str(error)) from None


_parse_options = parsed_once(_parse)
