"""High Card at the table: the whole scorekeeping side of a tiny game, in a few lines;
its words are its own catalog's (high_card.words)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

from high_card.words import N_, WORDS, _
from scorekeeper.cards import CardError, parse_card
from scorekeeper.games.common import (
    EntryError,
    HouseRule,
    JSONDict,
    Language,
    RoundCaption,
    RoundEntry,
    RoundError,
    Standings,
    StatFigure,
    check_participants,
    collect_values,
    competition_ranks,
    match_player,
    option_whole_number,
    rename_keys,
)

DEFAULT_WINS = 3


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

    def check_options(self, options: Mapping[str, Any]) -> JSONDict:
        unknown = set(options) - {"wins"}
        if unknown:
            raise EntryError(_("High Card has no option {option}").format(
                option=repr(sorted(unknown)[0])))
        wins = option_whole_number(options.get("wins", DEFAULT_WINS), _("wins"))
        if not 1 <= wins <= 10:
            raise EntryError(_("wins must be 1 to 10, not {wins}").format(wins=wins))
        return {"wins": wins}

    def target(self, options: Mapping[str, Any]) -> int:
        return int(self.check_options(options)["wins"])

    def check_players(self, players: Sequence[str]) -> None:
        if not self.min_players <= len(players) <= self.max_players:
            raise EntryError(_("High Card takes 2 to 6 players, not {n}").format(n=len(players)))

    def make_round(self, players: Sequence[str], options: Mapping[str, Any],
                   standings: Standings, entry: RoundEntry) -> JSONDict:
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
        return {"caller": match_player(players, caller, _("caller")), "cards": cards}

    def standings(self, players: Sequence[str], options: Mapping[str, Any],
                  first_dealer: str | None, rounds: Sequence[JSONDict]) -> Standings:
        wins = self.target(options)
        running = dict.fromkeys(players, 0)
        summaries: list[JSONDict] = []
        winners: list[str] = []
        for number, round_ in enumerate(rounds, start=1):
            if winners:
                raise RoundError(number, _("the game was already over"))
            try:
                check_participants(round_["cards"], players, _("card"))
                ranks = {name: parse_card(card).rank.value
                         for name, card in round_["cards"].items()}
            except (EntryError, CardError, KeyError, AttributeError) as error:
                raise RoundError(number, str(error)) from None
            best = max(ranks.values())
            top = [name for name in players if ranks[name] == best]
            scores = dict.fromkeys(players, 0)
            caller = round_["caller"]
            wrong = caller not in top
            if wrong:
                scores[caller] = -1
            elif len(top) == 1:
                scores[caller] = 1
            for name, points in scores.items():
                running[name] += points
            summaries.append({"number": number, "dealer": None, "caller": caller,
                              "cards": dict(round_["cards"]), "scores": scores,
                              "wrong_call": wrong})
            winners = [name for name in players if running[name] >= wins]
        return Standings(totals=running, knocked_out=[], still_in=list(players),
                         finished=bool(winners), winners=winners, rounds=summaries,
                         next_dealer=None)

    def round_from_summary(self, summary_round: Mapping[str, Any]) -> JSONDict:
        try:
            return {"caller": str(summary_round["caller"]), "cards": dict(summary_round["cards"])}
        except (KeyError, TypeError, ValueError) as error:
            raise EntryError(_("a High Card round needs 'caller' and 'cards' ({error})").format(
                error=error)) from None

    def caption(self, summary_round: Mapping[str, Any]) -> RoundCaption:
        caller = str(summary_round["caller"])
        wrong = bool(summary_round["wrong_call"])
        return RoundCaption(role=caller, sentence=_("{name} called").format(name=caller),
                            failure=_("wrong") if wrong else "",
                            failure_note=_("{name} called wrong").format(name=caller)
                            if wrong else "",
                            marked=caller)

    def house_rules(self, options: Mapping[str, Any], language: Language) -> list[HouseRule]:
        wins = self.target(options)
        words = WORDS.catalog(language.value).gettext
        return [HouseRule("wins", wins, DEFAULT_WINS,
                          words(N_("the first to {wins} points wins")).format(wins=wins))]

    def placings(self, players: Sequence[str], options: Mapping[str, Any],
                 standings: Standings) -> dict[str, int]:
        return competition_ranks({name: -standings.totals[name] for name in players})

    def round_tallies(self, summary_round: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        tallies = {name: {"deals": 1} for name in summary_round["scores"]}
        tallies[summary_round["caller"]]["calls"] = 1
        return tallies

    def rename_players(self, round_: Mapping[str, Any], names: Mapping[str, str]) -> JSONDict:
        return {"caller": names.get(round_["caller"], round_["caller"]),
                "cards": rename_keys(round_["cards"], names)}
