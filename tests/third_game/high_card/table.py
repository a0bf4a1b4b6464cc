"""High Card at the table: the whole scorekeeping side of a tiny game, in a few lines;
its words are its own catalog's (high_card.words)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from high_card.words import N_, WORDS, _
from scorekeeper.cards import CardError, parse_card
from scorekeeper.kit.entries import (
    EntryError,
    RoundEntry,
    RoundError,
    check_participants,
    collect_values,
    match_player,
)
from scorekeeper.kit.options import HouseRule, Language, option_whole_number
from scorekeeper.kit.rounds import JSONDict, Round, RoundCaption, ScoredRound, rename_keys
from scorekeeper.kit.standings import Standings, StatFigure, competition_ranks

DEFAULT_WINS = 3


@dataclass(frozen=True, slots=True, kw_only=True)
class HighCardRound(Round):
    caller: str
    cards: dict[str, str]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HighCardRound:
        caller, cards = data.get("caller"), data.get("cards")
        if not isinstance(caller, str) or not isinstance(cards, dict) \
                or not all(isinstance(card, str) for card in cards.values()):
            raise EntryError(_("a High Card round needs 'caller' and 'cards' ({error})").format(
                error=repr(data)[:40]))
        return cls(caller=caller, cards=dict(cards))

    def to_json(self) -> JSONDict:
        return {"caller": self.caller, "cards": dict(self.cards)}

    def renamed(self, names: Mapping[str, str]) -> HighCardRound:
        return HighCardRound(caller=names.get(self.caller, self.caller),
                             cards=rename_keys(self.cards, names))


@dataclass(frozen=True, slots=True, kw_only=True)
class HighCardScored(ScoredRound):
    played: HighCardRound
    wrong_call: bool

    @property
    def values(self) -> Mapping[str, object]:
        return self.played.cards

    def to_json(self) -> JSONDict:
        return {"number": self.number, "dealer": self.dealer, "caller": self.played.caller,
                "cards": dict(self.played.cards), "scores": dict(self.scores),
                "wrong_call": self.wrong_call}

    def caption(self) -> RoundCaption:
        caller = self.played.caller
        wrong = self.wrong_call
        return RoundCaption(role=caller, sentence=_("{name} called").format(name=caller),
                            failure=_("wrong") if wrong else "",
                            failure_note=_("{name} called wrong").format(name=caller)
                            if wrong else "",
                            marked=caller)

    def tallies(self) -> dict[str, dict[str, int]]:
        tallies = {name: {"deals": 1} for name in self.scores}
        tallies[self.played.caller]["calls"] = 1
        return tallies


@dataclass(frozen=True, slots=True)
class HighCardOptions:
    """A High Card session's house rules, typed once (:meth:`HighCardTable.parse_options`)."""

    wins: int = DEFAULT_WINS


class HighCardTable:
    name = "high-card"
    title = "High Card"
    min_players = 2
    max_players = 6
    target_label = "wins"
    lower_is_better = False
    rules_folder = resources.files(__package__ or "high_card") / "rules"
    stat_figures: tuple[StatFigure, ...] = (
        StatFigure("calls", N_("Calls"), N_("rounds called"), "calls"),)

    def default_options(self) -> JSONDict:
        return {"wins": DEFAULT_WINS}

    def parse_options(self, options: Mapping[str, Any]) -> HighCardOptions:
        unknown = set(options) - {"wins"}
        if unknown:
            raise EntryError(_("High Card has no option {option}").format(
                option=repr(sorted(unknown)[0])))
        wins = option_whole_number(options.get("wins", DEFAULT_WINS), _("wins"))
        if not 1 <= wins <= 10:
            raise EntryError(_("wins must be 1 to 10, not {wins}").format(wins=wins))
        return HighCardOptions(wins)

    def check_options(self, options: Mapping[str, Any]) -> JSONDict:
        return {"wins": self.parse_options(options).wins}

    def target(self, options: HighCardOptions) -> int:
        return options.wins

    def check_players(self, players: Sequence[str]) -> None:
        if not self.min_players <= len(players) <= self.max_players:
            raise EntryError(_("High Card takes 2 to 6 players, not {n}").format(n=len(players)))

    def make_round(self, players: Sequence[str], options: HighCardOptions,
                   standings: Standings, entry: RoundEntry) -> HighCardRound:
        caller = entry.text("caller")
        if caller is None:
            raise EntryError(_("say who called: --caller NAME"))
        cards: dict[str, str] = {}
        for name, raw in collect_values(players, entry, _("card")).items():
            try:
                cards[name] = str(parse_card(raw.strip()))
            except CardError as error:
                raise EntryError(_("{name}'s card: {error}").format(
                    name=name, error=error)) from None
        return HighCardRound(caller=match_player(players, caller, _("caller")), cards=cards)

    def standings(self, players: Sequence[str], options: HighCardOptions,
                  first_dealer: str | None, rounds: Sequence[Round]) -> Standings:
        wins = self.target(options)
        running = dict.fromkeys(players, 0)
        summaries: list[ScoredRound] = []
        winners: list[str] = []
        for number, round_ in enumerate(rounds, start=1):
            if winners:
                raise RoundError(number, _("the game was already over"))
            try:
                if not isinstance(round_, HighCardRound):
                    raise EntryError(_("not a High Card round"))
                check_participants(round_.cards, players, _("card"))
                ranks = {name: parse_card(card).rank.value
                         for name, card in round_.cards.items()}
            except (EntryError, CardError) as error:
                raise RoundError(number, str(error)) from None
            best = max(ranks.values())
            top = [name for name in players if ranks[name] == best]
            scores = dict.fromkeys(players, 0)
            caller = round_.caller
            wrong = caller not in top
            if wrong:
                scores[caller] = -1
            elif len(top) == 1:
                scores[caller] = 1
            for name, points in scores.items():
                running[name] += points
            summaries.append(HighCardScored(number=number, dealer=None, scores=scores,
                                            played=round_, wrong_call=wrong))
            winners = [name for name in players if running[name] >= wins]
        return Standings(totals=running, knocked_out=[], still_in=list(players),
                         finished=bool(winners), winners=winners, rounds=summaries,
                         next_dealer=None)

    def round_from_json(self, data: Mapping[str, Any]) -> HighCardRound:
        return HighCardRound.from_json(data)

    def round_from_summary(self, summary_round: Mapping[str, Any]) -> HighCardRound:
        return HighCardRound.from_json(summary_round)

    def house_rules(self, options: HighCardOptions, language: Language) -> list[HouseRule]:
        wins = self.target(options)
        words = WORDS.catalog(language.value).gettext
        return [HouseRule("wins", wins, DEFAULT_WINS,
                          words(N_("the first to {wins} points wins")).format(wins=wins))]

    def placings(self, players: Sequence[str], options: HighCardOptions,
                 standings: Standings) -> dict[str, int]:
        return competition_ranks({name: -standings.totals[name] for name in players})
