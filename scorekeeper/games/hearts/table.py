"""Hearts at the table: Points' table (its declared base) with Hearts' settings and
checks. A deal is each player's penalty points (adding up to 26, or 16 with the jack
of diamonds), or a moon: ``{"moon": NAME}`` (and ``"jack": NAME`` with the jack of
diamonds), scored 0 for the shooter and 26 for everyone else, or by the ``minus``
house rule (:class:`HeartsRound`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import ClassVar

from scorekeeper.games.hearts import rules
from scorekeeper.games.hearts.rules import MOON_KEY, JackRule, MoonRule, Passing, Problem
from scorekeeper.games.hearts.words import N_, WORDS, _
from scorekeeper.games.points.rules import POINTS_KEY, Options, Wins
from scorekeeper.games.points.table import (
    PointsRound,
    PointsScored,
    PointsTable,
)
from scorekeeper.kit.entries import EntryError, Question, RoundEntry, match_at_prompt, match_player
from scorekeeper.kit.options import (
    HouseRule,
    Language,
    option_choice,
    option_whole_number,
    parsed_once,
)
from scorekeeper.kit.roster import RosterChange
from scorekeeper.kit.rounds import (
    JSONObject,
    JSONRecord,
    Round,
    RoundCaption,
    carried_from_json,
    rename_keys,
)
from scorekeeper.kit.standings import Standings, StatFigure

JACK_KEY = "jack"
MAX_TARGET = 1000

_TARGET = N_("the game ends when a total reaches {target}; the lowest total wins")
_MOON = {
    MoonRule.ADD: N_("shooting the moon: 0 for the shooter, 26 for everyone else"),
    MoonRule.MINUS: N_("shooting the moon: 26 off the shooter's total, 0 for the others"),
}
_JACK = {
    JackRule.OFF: N_("the jack of diamonds counts nothing"),
    JackRule.ON: N_("the jack of diamonds counts -10 for whoever takes it: a deal adds up "
                    "to 16"),
}


def _name_or_none(data: JSONRecord, key: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise EntryError(_("'{key}' must be a player's name, not {value}").format(
            key=key, value=repr(value)[:40]))
    return value


@dataclass(frozen=True, slots=True, kw_only=True)
class HeartsRound(PointsRound):
    """A Hearts deal as entered: each player's penalty points, or a moon (who shot it,
    and who took the J♦ when the jack of diamonds counts) with no points of its own."""

    points: dict[str, int] = field(default_factory=dict)
    moon: str | None = None
    jack: str | None = None

    @classmethod
    def from_json(cls, data: JSONRecord) -> HeartsRound:
        shooter = _name_or_none(data, MOON_KEY)
        if not shooter:
            return cls(points=PointsRound.from_json(data).points, jack=_name_or_none(
                data, JACK_KEY), **carried_from_json(data))
        if POINTS_KEY in data:
            raise EntryError(_("a moon deal has no points of its own: they are counted"))
        return cls(moon=shooter, jack=_name_or_none(data, JACK_KEY), **carried_from_json(data))

    def to_json(self) -> JSONObject:
        data: JSONObject = {MOON_KEY: self.moon} if self.moon else {POINTS_KEY: dict(self.points)}
        if self.jack is not None:
            data[JACK_KEY] = self.jack
        return data | self.carried_json()

    def renamed(self, names: Mapping[str, str]) -> HeartsRound:
        return replace(self, points=rename_keys(self.points, names),
                       moon=None if self.moon is None else names.get(self.moon, self.moon),
                       jack=None if self.jack is None else names.get(self.jack, self.jack),
                       recorded=self.renamed_recorded(names))


@dataclass(frozen=True, slots=True, kw_only=True)
class HeartsScored(PointsScored):
    """A Hearts deal scored: Points' summary with who shot the moon (None: nobody) and,
    in a moon deal with the jack of diamonds, who took the J♦."""

    played: HeartsRound

    def results_json(self) -> JSONObject:
        data: JSONObject = {MOON_KEY: self.played.moon or None}
        if self.played.moon and self.played.jack is not None:
            data[JACK_KEY] = self.played.jack
        return data

    def shown_json(self) -> Mapping[str, object]:
        """The summary, and the deal's passing (``left``, ``right``, ``across``, ``hold``:
        :func:`rules.passing` of its number and its players) for the exports' column."""
        return PointsScored.to_json(self) | {  # (slots: no bare super)
            rules.PASSING_KEY: rules.passing(self.number, len(self.scores)).value}

    def caption(self) -> RoundCaption:
        shooter = self.played.moon
        if not shooter:
            return PointsScored.caption(self)  # (slots: no bare super)
        return RoundCaption(role=_("{name}: moon").format(name=shooter),
                            sentence=_("{name} shot the moon").format(name=shooter),
                            marked=shooter)

    def tallies(self) -> dict[str, dict[str, int]]:
        tallies = PointsScored.tallies(self)  # (slots: no bare super)
        for name in tallies:
            tallies[name]["moons"] = int(name == self.played.moon)
        return tallies


@dataclass(frozen=True, slots=True)
class HeartsRules(Options):
    """A Hearts session's house rules, typed: Points' settings as Hearts fixes them
    (lowest wins, at the target, each deal adding up to 26, 16 with the jack), so Points'
    table reads them as its own, and Hearts' two rules of its own."""

    wins: Wins = Wins.LOW
    target: int = rules.TARGET
    moon_rule: MoonRule = MoonRule.ADD
    jack: JackRule = JackRule.OFF

    def __post_init__(self) -> None:
        object.__setattr__(self, "sum", rules.deal_sum(self.jack is JackRule.ON))
        Options.__post_init__(self)

    def as_dict(self) -> dict[str, int | str]:
        return {"target": self.target, "moon_rule": self.moon_rule.value,
                "jack_of_diamonds": self.jack.value}

    @property
    def jack_on(self) -> bool:
        return self.jack is JackRule.ON

    def points_options(self) -> Options:
        """The same rules as Points reads them: lowest wins, at the target, every deal
        adding up to 26 (16 with the jack)."""
        return Options(wins=Wins.LOW, target=self.target, rounds=0,
                       sum=rules.deal_sum(self.jack_on))


def _parse(options: Mapping[str, object]) -> HeartsRules:
    unknown = sorted(set(options) - set(HeartsRules().as_dict()))
    if unknown:
        raise EntryError(_("Hearts has no option {option}").format(option=repr(unknown[0])))
    target = option_whole_number(options.get("target", rules.TARGET), _("the target"))
    if not 1 <= target <= MAX_TARGET:
        raise EntryError(_("the target must be 1 to {most}, not {target}").format(
            most=MAX_TARGET, target=target))
    return HeartsRules(
        target=target,
        moon_rule=option_choice(MoonRule, options.get("moon_rule", MoonRule.ADD), "moon-rule"),
        jack=option_choice(JackRule, options.get("jack_of_diamonds", JackRule.OFF),
                           "jack-of-diamonds"))


_parse_rules = parsed_once(_parse)


_PASSING = {
    Passing.LEFT: N_("Before the next deal each player passes three cards to the left."),
    Passing.RIGHT: N_("Before the next deal each player passes three cards to the right."),
    Passing.ACROSS: N_("Before the next deal each player passes three cards across."),
    Passing.HOLD: N_("No passing before the next deal: each keeps their cards."),
}


class HeartsTable(PointsTable):
    house_rule_keys = ("target", "moon_rule", "jack_of_diamonds")
    knocks_out = False
    shows_margin = False
    """No "left before 100" and no status "in": a Hearts game ends when a total reaches
    the target, and its standings say the next deal's passing instead."""
    round_keys = (MOON_KEY, JACK_KEY)
    round_type: ClassVar[type[PointsRound]] = HeartsRound

    def __init__(self) -> None:
        super().__init__(name="hearts", title="Hearts",
                         defaults=HeartsRules().points_options(),
                         min_players=rules.MIN_PLAYERS, max_players=rules.MAX_PLAYERS,
                         rules_folder=resources.files("scorekeeper.games.hearts") / "rules")
        self.lower_is_better = True

    # -- options ---------------------------------------------------------------

    def hearts_rules(self, options: Options) -> HeartsRules:
        """The session's options as Hearts' own (:meth:`parse_options` made them so)."""
        if not isinstance(options, HeartsRules):
            raise TypeError(f"not the house rules of a Hearts session: {options!r}")
        return options

    def default_options(self) -> JSONObject:
        return dict(HeartsRules().as_dict())

    def check_options(self, options: Mapping[str, object]) -> JSONObject:
        return dict(_parse_rules(options).as_dict())

    def parse_options(self, options: Mapping[str, object]) -> HeartsRules:
        return _parse_rules(options)

    # -- entering a deal -------------------------------------------------------

    def make_round(self, players: Sequence[str], options: Options,
                   standings: Standings, entry: RoundEntry) -> PointsRound:
        self.refuse_other_options(entry)
        house = self.hearts_rules(options)
        if entry.text(MOON_KEY) is None:
            if entry.text(JACK_KEY) is not None:
                raise EntryError(_("--jack is for a moon deal: otherwise the -10 is in the "
                                   "points of whoever took the J♦"))
            made = super().make_round(players, options, standings, entry)
            self.refuse_undealt(made.points, house.jack_on)
            return made
        shooter = match_player(players, str(entry.text(MOON_KEY)), _("moon shooter"))
        if entry.values:
            raise EntryError(_("with --moon the points are counted for you: give no "
                               "NAME=POINTS ({name} took all 26)").format(name=shooter))
        jack = self._moon_jack(players, house, entry.text(JACK_KEY), match_player)
        return HeartsRound(moon=shooter, jack=jack)

    def _moon_jack(self, players: Sequence[str], house: HeartsRules, typed: str | None,
                   match: Callable[[Sequence[str], str, str], str]) -> str | None:
        if not house.jack_on:
            if typed is not None:
                raise EntryError(_("--jack is for the jack of diamonds house rule, and this "
                                   "session plays without it (--jack-of-diamonds off)"))
            return None
        if typed is None:
            raise EntryError(_("say who took the J♦ in the moon deal: --jack NAME"))
        return match(players, typed, _("player"))

    def check_deal(self, points: Mapping[str, int], options: Options) -> None:
        """The checks of a stored deal too: in range, adding up (an entered deal is
        checked against the cards as well, :meth:`refuse_undealt`)."""
        super().check_entry_types(points)
        jack_on = options.sum != rules.PENALTY_POINTS
        self.refuse(points, jack_on, rules.problem(points, jack_on, dealt=False))

    def refuse_undealt(self, points: Mapping[str, int], jack_on: bool) -> None:
        """Refuse an entered deal that no deal of cards gives."""
        self.refuse(points, jack_on, rules.problem(points, jack_on))

    def refuse(self, points: Mapping[str, int], jack_on: bool,
               found: tuple[Problem, str] | None) -> None:
        if found is None:
            return
        kind, name = found
        low, high = rules.entry_range(jack_on)
        if kind is Problem.MOON:
            raise EntryError(_("{name} took all 26: that is shooting the moon, entered as "
                               "--moon {name} with no points").format(name=name))
        if kind is Problem.RANGE:
            raise EntryError(_("{name}'s {points} is impossible: a player takes {low} to "
                               "{high} points in a deal").format(
                name=name, points=points[name], low=low, high=high))
        if kind is Problem.TWO_JACKS:
            raise EntryError(_("two players are below 0, and only one can take the J♦ "
                               "(-10): {name} can't be"
                               ).format(name=name))
        if kind is Problem.QUEEN:
            raise EntryError(_("no deal of cards gives these points: somebody took the Q♠, "
                               "and nobody's points hold its 13"))
        if kind is Problem.CARDS:
            raise EntryError(_("no deal of cards gives these points: the 13 hearts, the Q♠ "
                               "and the J♦ can't be split between the players so"))
        total = sum(points.values())
        if jack_on:
            raise EntryError(_("the points add up to {total}, not {sum}: with the jack of "
                               "diamonds, whoever took the J♦ has -10 in their points, so a "
                               "deal adds up to {sum}").format(total=total,
                                                               sum=rules.deal_sum(jack_on)))
        raise EntryError(_("the points add up to {total}, not {sum}: a deal's penalty points "
                           "add up to {sum}").format(total=total, sum=rules.deal_sum(jack_on)))

    def check_entry(self, name: str, value: int, options: Options) -> None:
        jack_on = options.sum != rules.PENALTY_POINTS
        low, high = rules.entry_range(jack_on)
        if value == rules.PENALTY_POINTS:
            raise EntryError(_("{name} took all 26: that is shooting the moon, entered as "
                               "--moon {name} with no points").format(name=name))
        if not low <= value <= high:
            raise EntryError(_("{name}'s {points} is impossible: a player takes {low} to "
                               "{high} points in a deal").format(
                name=name, points=value, low=low, high=high))

    # -- at a terminal ---------------------------------------------------------

    def check_given(self, players: Sequence[str], options: Options,
                    standings: Standings, entry: RoundEntry) -> None:
        if entry.text(MOON_KEY) is None:
            if entry.text(JACK_KEY) is not None:
                self.make_round(players, options, standings, entry)  # refused: no moon
            super().check_given(players, options, standings, entry)
            return
        self.refuse_other_options(entry)
        shooter = match_player(players, str(entry.text(MOON_KEY)), _("moon shooter"))
        if entry.values:
            raise EntryError(_("with --moon the points are counted for you: give no "
                               "NAME=POINTS ({name} took all 26)").format(name=shooter))
        typed = entry.text(JACK_KEY)
        if typed is not None or not self.hearts_rules(options).jack_on:
            self._moon_jack(players, self.hearts_rules(options), typed, match_player)

    def next_question(self, players: Sequence[str], options: Options,
                      standings: Standings, entry: RoundEntry,
                      previous: RoundEntry | None = None) -> Question | None:
        house = self.hearts_rules(options)
        if entry.text(MOON_KEY) is None:
            return super().next_question(players, options, standings, entry, previous)
        if house.jack_on and entry.text(JACK_KEY) is None:
            def answer(text: str) -> RoundEntry:
                return entry.with_fields(jack=match_at_prompt(players, text))

            return Question(_("Who took the J♦? ({players})").format(
                players=", ".join(players)), answer,
                None if previous is None else previous.text(JACK_KEY))
        return None

    def entry_of(self, round_: Round) -> RoundEntry:
        if isinstance(round_, HeartsRound) and round_.moon:
            return RoundEntry((), moon=round_.moon, jack=round_.jack)
        return super().entry_of(round_)

    # -- recomputing -----------------------------------------------------------

    def standings(self, players: Sequence[str], options: Options,
                  first_dealer: str | None, rounds: Sequence[Round],
                  roster: Sequence[RosterChange] = ()) -> Standings:
        """Points' standings, and while the game is on the next deal's passing (left,
        right, across, hold with four players: :func:`rules.passing`)."""
        found = super().standings(players, options, first_dealer, rounds, roster)
        if found.finished:
            return found
        passing = rules.passing(len(rounds) + 1, len(found.still_in))
        return replace(found, notes=[*found.notes, _(_PASSING[passing])])

    def deal_scores(self, players: Sequence[str], settings: Options,
                    round_: PointsRound) -> dict[str, int]:
        if not isinstance(round_, HeartsRound) or not round_.moon:
            return super().deal_scores(players, settings, round_)
        house = self.hearts_rules(settings)
        shooter = round_.moon
        if shooter not in players:
            raise EntryError(_("the moon shooter {name} is not a player: {players}").format(
                name=repr(shooter), players=", ".join(players)))
        if round_.points:
            raise EntryError(_("a moon deal has no points of its own: they are counted"))
        jack = round_.jack
        if house.jack_on and jack not in players:
            raise EntryError(_("a moon deal with the jack of diamonds says who took it"))
        if not house.jack_on and jack is not None:
            raise EntryError(_("--jack is for the jack of diamonds house rule, and this "
                               "session plays without it (--jack-of-diamonds off)"))
        return dict(rules.moon_scores(players, shooter, house.moon_rule, jack))

    def scored(self, number: int, dealer: str | None, round_: PointsRound,
               scores: dict[str, int], best: list[str]) -> HeartsScored:
        played = round_ if isinstance(round_, HeartsRound) else HeartsRound(
            points=round_.points, note=round_.note, recorded=round_.recorded)
        return HeartsScored(number=number, dealer=dealer, scores=scores, played=played,
                            best=tuple(best))

    def round_from_summary(self, summary_round: JSONRecord) -> HeartsRound:
        shooter = _name_or_none(summary_round, MOON_KEY)
        if not shooter:
            return HeartsRound(points=super().round_from_summary(summary_round).points,
                               **carried_from_json(summary_round))
        return HeartsRound(moon=shooter, jack=_name_or_none(summary_round, JACK_KEY),
                           **carried_from_json(summary_round))

    # -- across sessions -------------------------------------------------------

    stat_figures: tuple[StatFigure, ...] = (
        *PointsTable.stat_figures,
        StatFigure("moons", N_("Moons"), N_("times shot the moon"), "moons"),
    )

    def widest_round(self, players: Sequence[str], options: Options
                     ) -> HeartsScored:
        """The widest deal the grid can show: the longest name's moon, every other
        player's score as wide as a moon makes it."""
        house = self.hearts_rules(options)
        longest = max(players, key=len)
        score = -rules.PENALTY_POINTS if house.moon_rule is MoonRule.MINUS \
            else rules.PENALTY_POINTS
        return HeartsScored(number=1, dealer=longest, scores=dict.fromkeys(players, score),
                            played=HeartsRound(moon=longest), best=(longest,))

    # -- the rules in words ----------------------------------------------------

    def house_rules(self, options: Options, language: Language) -> list[HouseRule]:
        house = self.hearts_rules(options)
        words = WORDS.catalog(language.value).gettext
        default = HeartsRules()
        return [
            HouseRule("target", house.target, default.target,
                      words(_TARGET).format(target=house.target)),
            HouseRule("moon_rule", house.moon_rule.value, default.moon_rule.value,
                      words(_MOON[house.moon_rule])),
            HouseRule("jack_of_diamonds", house.jack.value, default.jack.value,
                      words(_JACK[house.jack])),
        ]

