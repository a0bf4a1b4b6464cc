"""Points at the table: each deal is every player's points as the table counted them;
the totals, the dealer, the end and the winners are recomputed from the deals.

A stored round is ``{"points": {name: int}}`` (:class:`PointsRound`). :class:`PointsTable`
is made with its name, title and default settings, so that a variant (Hearts) subclasses
it and the group's own games (group.py) are instances of it with their files' settings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from importlib import resources
from importlib.resources.abc import Traversable
from typing import ClassVar

from scorekeeper.errors import MalformedValue
from scorekeeper.games.points import rules
from scorekeeper.games.points.rules import POINTS_KEY, Options, Wins
from scorekeeper.games.points.words import N_, WORDS, _
from scorekeeper.kit.entries import (
    EntryError,
    Question,
    RoundEntry,
    check_participants,
    collect_values,
    parse_whole_number,
)
from scorekeeper.kit.options import (
    HouseRule,
    Language,
    option_choice,
    option_flag,
    option_whole_number,
)
from scorekeeper.kit.play import Played, play_rounds
from scorekeeper.kit.roster import RosterChange, RosterRule
from scorekeeper.kit.rounds import (
    JSONObject,
    JSONRecord,
    Round,
    RoundCaption,
    ScoredRound,
    carried_from_json,
    rename_keys,
)
from scorekeeper.kit.standings import Standings, StatFigure, TableGame, competition_ranks

RULES_FOLDER = resources.files("scorekeeper.games.points") / "rules"

_WINS = {Wins.HIGH: N_("the highest total wins"), Wins.LOW: N_("the lowest total wins")}
_TARGET = N_("the game ends when a total reaches {target}")
_NO_TARGET = N_("no target: the game ends after its deals")
_ROUNDS = N_("the game ends after {rounds} deals")
_NO_ROUNDS = N_("no set number of deals")
_SUM = N_("every deal's points add up to {sum}")
_NO_SUM = N_("a deal's points may add up to anything")


def checked_points(points: JSONRecord) -> dict[str, int]:
    """Each stored value a whole number (a file may hold anything)."""
    checked: dict[str, int] = {}
    for name, value in points.items():
        if type(value) is not int or not isinstance(value, int):  # (not a bool either)
            raise EntryError(_("{name}'s points must be a whole number, not {points}")
                             .format(name=name, points=repr(value)))
        checked[name] = value
    return checked


@dataclass(frozen=True, slots=True, kw_only=True)
class PointsRound(Round):
    """A deal as entered: each player's points, in the order typed."""

    points: dict[str, int]

    @classmethod
    def from_json(cls, data: JSONRecord) -> PointsRound:
        """The stored round (FORMAT.md), each part checked for its type."""
        points = data.get(POINTS_KEY)
        if not isinstance(points, dict):
            raise EntryError(_("the deal has no points"))
        return cls(points=checked_points(points), **carried_from_json(data))

    def to_json(self) -> JSONObject:
        return {POINTS_KEY: dict(self.points)} | self.carried_json()

    def renamed(self, names: Mapping[str, str]) -> PointsRound:
        return replace(self, points=rename_keys(self.points, names),
                       recorded=self.renamed_recorded(names))


@dataclass(frozen=True, slots=True, kw_only=True)
class PointsScored(ScoredRound):
    """A deal scored: its points are its scores (in the players' order), and who scored
    the deal's best."""

    played: PointsRound
    best: tuple[str, ...] = ()

    @property
    def values(self) -> Mapping[str, object]:
        return self.scores

    def results_json(self) -> JSONObject:
        """What the summary round says after its points and scores (a variant's keys)."""
        return {}

    def to_json(self) -> JSONObject:
        return {"number": self.number, "dealer": self.dealer, POINTS_KEY: dict(self.scores),
                "scores": dict(self.scores), **self.results_json(), "best": list(self.best),
                "knocked_out": list(self.knocked_out)} | self.played.carried_json()

    def caption(self) -> RoundCaption:
        names = ", ".join(self.best)
        return RoundCaption(role=names,
                            sentence=_("best: {names}").format(names=names),
                            marked=self.best[0] if len(self.best) == 1 else None)

    def tallies(self) -> dict[str, dict[str, int]]:
        return {name: {"deals": 1, "points": score, "best_deals": int(name in self.best)}
                for name, score in self.scores.items()}


class PointsTable:
    """A game scored in points per deal. Made with its name, title, default settings and
    players' range; a variant subclasses it and overrides what differs."""

    target_label = "target"
    knocks_out = False
    """Nobody is knocked out: the game ends at the target or after its deals, so the
    views say no "left before N" and no status "in" (lowest wins or highest)."""
    shows_margin = True
    """The standings show each player's points still to reach the target ("To 100")."""
    house_rule_keys: tuple[str, ...] = ("wins", "target", "rounds", "sum")
    """The settings a session of this game takes (``score new``'s house rules)."""
    round_keys: tuple[str, ...] = ()
    """The round options a deal of this game takes (``add-round``)."""
    round_type: ClassVar[type[PointsRound]] = PointsRound
    """The game's stored round (a variant's extends Points')."""

    def __init__(self, name: str = "points", title: str = "Points",
                 defaults: Options = Options(),
                 min_players: int = rules.MIN_PLAYERS, max_players: int = rules.MAX_PLAYERS,
                 rules_folder: Traversable = RULES_FOLDER) -> None:
        self.name = name
        self.title = title
        self.defaults = defaults
        self.min_players = min_players
        self.max_players = max_players
        self.rules_folder = rules_folder
        self.lower_is_better = defaults.wins is Wins.LOW

    # -- options ---------------------------------------------------------------

    def default_options(self) -> JSONObject:
        return self.options_dict(self.defaults)

    def options_dict(self, options: Options) -> JSONObject:
        return dict(options.as_dict())

    def check_options(self, options: Mapping[str, object]) -> JSONObject:
        return self.options_dict(self.parse_options(options))

    def lowest_wins(self, options: Options) -> bool:
        """Whether the lowest total wins a session with these house rules (``--wins``)."""
        return options.wins is Wins.LOW

    def parse_options(self, options: Mapping[str, object]) -> Options:
        """The settings as the typed Options, this game's defaults where none is given."""
        unknown = sorted(set(options) - set(self.house_rule_keys))
        if unknown:
            raise EntryError(_("{game} has no option {option}").format(
                game=self.title, option=repr(unknown[0])))
        given = {**self.default_options(), **options}
        target = option_whole_number(given.get("target", self.defaults.target), _("the target"))
        rounds = option_whole_number(given.get("rounds", self.defaults.rounds),
                                     _("the number of deals"))
        raw_sum = given.get("sum", rules.ANY_SUM)
        total = None if raw_sum == rules.ANY_SUM else option_whole_number(raw_sum,
                                                                           _("the sum"))
        if not 0 <= target <= rules.MAX_TARGET:
            raise EntryError(_("the target must be 0 (none) to {most}, not {target}").format(
                most=rules.MAX_TARGET, target=target))
        if not 0 <= rounds <= rules.MAX_ROUNDS:
            raise EntryError(_("the number of deals must be 0 (no limit) to {most}, not "
                               "{rounds}").format(most=rules.MAX_ROUNDS, rounds=rounds))
        if total is not None and not -rules.MAX_TARGET <= total <= rules.MAX_TARGET:
            raise EntryError(_("the sum must be -{most} to {most}, not {sum}").format(
                most=rules.MAX_TARGET, sum=total))
        parsed = replace(self.defaults, target=target, rounds=rounds, sum=total,
                         wins=option_choice(Wins, given.get("wins", self.defaults.wins),
                                            "wins"))
        if not parsed.ends:
            raise EntryError(_("{game} needs an end: --target N, --rounds N or both").format(
                game=self.title))
        return parsed

    def check_players(self, players: Sequence[str]) -> None:
        if not self.min_players <= len(players) <= self.max_players:
            raise EntryError(_("{game} takes {low} to {high} players, not {n}").format(
                game=self.title, low=self.min_players, high=self.max_players,
                n=len(players)))

    def target(self, options: Options) -> int:
        return options.target

    # -- entering a round ------------------------------------------------------

    def make_round(self, players: Sequence[str], options: Options,
                   standings: Standings, entry: RoundEntry) -> PointsRound:
        self.refuse_other_options(entry)
        points = self.typed_points(players, entry)
        check_participants(points, players, _("score"))
        self.check_deal(points, options)
        return self.round_type(points=points)

    def refuse_other_options(self, entry: RoundEntry) -> None:
        others = [key for key in entry.given() if key not in self.round_keys]
        if others:
            raise MalformedValue(_("{flag} is not for {game}: a deal of {game} is each player's "
                               "points (Ann=12 Bob=-3)").format(flag=option_flag(others[0]),
                                                                 game=self.title))

    def typed_points(self, players: Sequence[str], entry: RoundEntry) -> dict[str, int]:
        """Each ``NAME=POINTS`` as the session spells the name, a whole number each."""
        points: dict[str, int] = {}
        for name, raw in collect_values(players, entry, _("score")).items():
            points[name] = parse_whole_number(raw, _("{name}'s points").format(name=name))
        return points

    def check_deal(self, points: Mapping[str, int], options: Options) -> None:
        """Refuse a deal's points the rules can't give: out of range, or a wrong sum."""
        self.check_entry_types(points)
        for name, value in points.items():
            self.check_entry(name, value, options)
        if not rules.sum_is_right(points, options):
            raise EntryError(_("the points add up to {total}, not {sum}: every deal's points "
                               "add up to {sum} (--sum)").format(
                total=rules.deal_sum(points), sum=options.sum))

    # -- entering a round at a terminal (RoundQuestions) ---------------------------

    def check_given(self, players: Sequence[str], options: Options,
                    standings: Standings, entry: RoundEntry) -> None:
        self.refuse_other_options(entry)
        for name, value in self.typed_points(players, entry).items():
            self.check_entry(name, value, options)

    def next_question(self, players: Sequence[str], options: Options,
                      standings: Standings, entry: RoundEntry,
                      previous: RoundEntry | None = None) -> Question | None:
        before = {} if previous is None else dict(previous.values)
        entered = self.typed_points(players, entry)
        for name in players:
            if name in entered:
                continue

            def answer(text: str, name: str = name) -> RoundEntry:
                value = parse_whole_number(text, _("{name}'s points").format(name=name))
                self.check_entry(name, value, options)
                return entry.with_values((*entry.values, (name, text.strip())))

            return Question(_("{name}'s points").format(name=name), answer, before.get(name))
        return None

    def entry_of(self, round_: Round) -> RoundEntry:
        points = round_.points if isinstance(round_, PointsRound) else {}
        return RoundEntry(tuple((name, str(value)) for name, value in points.items()))

    def check_entry(self, name: str, value: int, options: Options) -> None:
        """One player's points, as typed at a prompt: within the guard."""
        if abs(value) > rules.MAX_POINTS:
            raise EntryError(_("{name}'s points {points} are out of range: at most "
                               "{most} either way in a deal").format(
                name=name, points=value, most=rules.MAX_POINTS))

    def check_entry_types(self, points: JSONRecord) -> None:
        """Each stored value a whole number (a file may hold anything)."""
        checked_points(points)

    # -- recomputing -----------------------------------------------------------

    def deal_scores(self, players: Sequence[str], settings: Options,
                    round_: PointsRound) -> dict[str, int]:
        """A stored deal checked: each player's score, in the players' order; EntryError
        when it does not fit the rules."""
        options = settings
        points = round_.points
        check_participants(points, players, _("score"))
        self.check_deal(points, options)
        return {name: points[name] for name in players}

    def scored(self, number: int, dealer: str | None, round_: PointsRound,
               scores: dict[str, int], best: list[str]) -> PointsScored:
        """The deal as the standings score it (a variant's record extends Points')."""
        return PointsScored(number=number, dealer=dealer, scores=scores, played=round_,
                            best=tuple(best))

    def standings(self, players: Sequence[str], options: Options,
                  first_dealer: str | None, rounds: Sequence[Round],
                  roster: Sequence[RosterChange] = ()) -> Standings:
        """Recompute from the deals, with the players who joined and left between them
        (``roster``): a leaver's deals stay, the deal passes over them, and only those
        still in can reach the end or win."""

        def score(number: int, entered: Round, played: Played) -> PointsScored:
            if not isinstance(entered, PointsRound):  # another game's round
                raise EntryError(_("the deal has no points"))
            scores = self.deal_scores(played.still_in, options, entered)
            return self.scored(number, played.dealer, entered, scores,
                               self.best_in_deal(scores, options))

        played = play_rounds(players, first_dealer, rounds, roster, self.min_players,
                             self.max_players, score=score,
                             over=lambda played, number: rules.over(played.totals_in(),
                                                                    number, options))
        finished = played.finished
        winners = rules.winners(played.totals_in(), options) if finished else []
        next_deal = None
        if not finished and played.dealer is not None:
            next_deal = _("Next deal: {dealer} deals.").format(dealer=played.dealer)
        return played.standings(winners, self.notes(options, len(rounds), finished), next_deal)

    def notes(self, options: Options, deals: int, finished: bool) -> list[str]:
        if finished or not options.rounds:
            return []
        return [_("Deal {number} of {rounds}.").format(number=deals + 1,
                                                       rounds=options.rounds)]

    def round_from_json(self, data: JSONRecord) -> PointsRound:
        return self.round_type.from_json(data)

    def round_from_summary(self, summary_round: JSONRecord) -> PointsRound:
        points = summary_round.get(POINTS_KEY)
        if not isinstance(points, dict):
            raise EntryError(_("a {game} deal needs 'points': each player's points").format(
                game=self.title))
        return self.round_type.from_json(summary_round)

    # -- across sessions -------------------------------------------------------

    stat_figures: tuple[StatFigure, ...] = (
        StatFigure("average_deal", N_("Per deal"), N_("the average points in a deal"),
                   "points", "deals"),
        StatFigure("best_deals", N_("Best"), N_("deals with the best points of the table"),
                   "best_deals"),
        StatFigure("best_deal_rate", N_("Best %"), N_("the share of deals with the best "
                                                      "points"),
                   "best_deals", "deals", percent=True),
    )

    def placings(self, players: Sequence[str], options: Options,
                 standings: Standings) -> dict[str, int]:
        return competition_ranks({name: rules.order_key(standings.totals[name], options)
                                  for name in players})

    def best_in_deal(self, scores: Mapping[str, int], options: Options) -> list[str]:
        """Who scored the deal's best (the highest, or the lowest when low wins)."""
        best = (min if options.wins is Wins.LOW else max)(scores.values())
        return [name for name, score in scores.items() if score == best]

    # -- the rules in words ----------------------------------------------------

    def house_rules(self, options: Options, language: Language) -> list[HouseRule]:
        words = WORDS.catalog(language.value).gettext
        default = self.defaults
        return [
            HouseRule("wins", options.wins.value, default.wins.value, words(_WINS[options.wins])),
            HouseRule("target", options.target, default.target,
                      words(_TARGET).format(target=options.target) if options.target
                      else words(_NO_TARGET)),
            HouseRule("rounds", options.rounds, default.rounds,
                      words(_ROUNDS).format(rounds=options.rounds) if options.rounds
                      else words(_NO_ROUNDS)),
            HouseRule("sum", rules.ANY_SUM if options.sum is None else options.sum,
                      rules.ANY_SUM if default.sum is None else default.sum,
                      words(_SUM).format(sum=options.sum) if options.sum is not None
                      else words(_NO_SUM)),
        ]


class PointsRoster(RosterRule[Options]):
    """Players joining and leaving a points game (Hearts and the group's games too): a
    late player starts at 0; a total given instead must stay short of the target, where
    the game has one (at it, the game would be over before they played)."""

    def check_total(self, table: TableGame[Options], options: Options, total: int) -> None:
        super().check_total(table, options, total)
        if not isinstance(table, PointsTable):
            return
        target = options.target
        if target and total >= target:
            raise EntryError(_("a late player's total must be under the target, {target}, "
                               "not {total}: at it the game would be over").format(
                target=target, total=total))

    def recompute(self, table: TableGame[Options], players: Sequence[str], options: Options,
                  first_dealer: str | None, rounds: Sequence[Round],
                  roster: Sequence[RosterChange]) -> Standings:
        if not isinstance(table, PointsTable):
            raise EntryError(_("the deal has no points"))
        return table.standings(players, options, first_dealer, rounds, roster)
