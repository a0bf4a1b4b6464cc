"""Oh Hell at the table: each deal's hand size and dealer from the schedule, an entry of
each player's bid and tricks (``Ann=2/1``), the checks a scorekeeper can make (the tricks
add up to the hand size; with the hook rule, the dealer's bid does not make the bids add
up to it), and the standings recomputed from the rounds.

A stored round holds what was entered: ``{"bids": {...}, "tricks": {...}}``; the hand
size, the dealer, the scores and who made their bid are recomputed."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

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
    option_choice,
    option_flag,
    option_whole_number,
    parsed_once,
    rename_keys,
)
from scorekeeper.games.oh_hell import rules
from scorekeeper.games.oh_hell.rules import Hook, Options, Schedule, Scoring
from scorekeeper.games.oh_hell.words import N_, WORDS, _, ngettext

_ENTRY = re.compile(r"\s*([0-9]{1,3})\s*/\s*([0-9]{1,3})\s*")

_SCHEDULE = {
    Schedule.DOWN: N_("the deals go from {start} cards each down to 1"),
    Schedule.UP: N_("the deals go from 1 card each up to {start}"),
    Schedule.DOWN_UP: N_("the deals go from {start} cards each down to 1 and back up"),
}
_SCORING = {
    Scoring.TEN_PLUS_BID: N_("an exact bid scores 10 + the bid, a missed one 0"),
    Scoring.TRICKS_PLUS_TEN: N_("1 a trick, and 10 more for an exact bid"),
    Scoring.MINUS_DIFFERENCE: N_("an exact bid scores 10 + the bid, a missed one loses "
                                 "the difference"),
}
_HOOK = {
    Hook.ON: N_("the hook: the dealer may not make the bids add up to the hand size"),
    Hook.OFF: N_("no hook: the dealer may bid anything"),
}


class OhHellTable:
    name = "oh-hell"
    title = "Oh Hell"
    defaults = Options()
    min_players = rules.MIN_PLAYERS
    max_players = rules.MAX_PLAYERS
    target_label = "perfect"
    lower_is_better = False
    rules_folder = resources.files("scorekeeper.games.oh_hell") / "rules"
    stat_figures: tuple[StatFigure, ...] = (
        StatFigure("made_rate", N_("Made"), N_("the share of bids made exactly"),
                   "made", "deals", percent=True),
        StatFigure("average_bid", N_("Bid"), N_("the average bid"), "bid", "deals"),
        StatFigure("average_tricks", N_("Tricks"), N_("the average tricks taken"),
                   "tricks", "deals"),
    )

    # -- options ---------------------------------------------------------------

    def default_options(self) -> JSONDict:
        return self.defaults.as_dict()

    def check_options(self, options: Mapping[str, Any]) -> JSONDict:
        return self.options(options).as_dict()

    def options(self, options: Mapping[str, Any]) -> Options:
        return _parse_options(options)

    def check_players(self, players: Sequence[str]) -> None:
        if not rules.MIN_PLAYERS <= len(players) <= rules.MAX_PLAYERS:
            raise EntryError(_("Oh Hell takes {low} to {high} players, not {n}").format(
                low=rules.MIN_PLAYERS, high=rules.MAX_PLAYERS, n=len(players)))

    def target(self, options: Mapping[str, Any]) -> int:
        """A perfect game: every bid made on every deal (10 + the hand size each)."""
        opts = self.options(options)
        return sum(10 + size for size in rules.schedule(opts.hand_sizes, opts.most_cards))

    # -- entering a round ----------------------------------------------------

    def make_round(self, players: Sequence[str], options: Mapping[str, Any],
                   standings: Standings, entry: RoundEntry) -> JSONDict:
        given = entry.given()
        if given:
            raise EntryError(_("{flag} is not for Oh Hell: an Oh Hell round takes each "
                               "player's bid/tricks, such as Ann=2/1").format(
                flag=option_flag(given[0])))
        sizes = _sizes(players, self.options(options))
        opts = self.options(options)
        if standings.finished:
            raise EntryError(_game_over(len(sizes)))
        bids: dict[str, int] = {}
        tricks: dict[str, int] = {}
        for name, raw in collect_values(players, entry, _("bid/tricks")).items():
            bids[name], tricks[name] = _typed_entry(name, raw)
        round_: JSONDict = {"bids": bids, "tricks": tricks}
        number = len(standings.rounds) + 1
        dealer = standings.next_dealer or _first_dealer(players, None)
        _check_round(round_, players, sizes[number - 1], dealer, opts)
        return round_

    # -- recomputing -----------------------------------------------------------

    def standings(self, players: Sequence[str], options: Mapping[str, Any],
                  first_dealer: str | None, rounds: Sequence[JSONDict]) -> Standings:
        opts = self.options(options)
        sizes = _sizes(players, opts)
        first = _first_dealer(players, first_dealer)
        running = dict.fromkeys(players, 0)
        summaries: list[JSONDict] = []
        for number, round_ in enumerate(rounds, start=1):
            if number > len(sizes):
                raise RoundError(number, _game_over(len(sizes)))
            dealer = rules.dealer_of(players, first, number)
            size = sizes[number - 1]
            try:
                _check_round(round_, players, size, dealer, opts)
            except EntryError as error:
                raise RoundError(number, str(error)) from None
            bids = {name: round_["bids"][name] for name in players}
            tricks = {name: round_["tricks"][name] for name in players}
            scores = {name: rules.score(opts.bid_scoring, bids[name], tricks[name])
                      for name in players}
            for name, points in scores.items():
                running[name] += points
            summaries.append({
                "number": number,
                "dealer": dealer,
                "hand_size": size,
                "bids": bids,
                "tricks": tricks,
                "contracts": {name: f"{bids[name]}/{tricks[name]}" for name in players},
                "scores": scores,
                "made": [name for name in players if bids[name] == tricks[name]],
                "knocked_out": [],
            })
        finished = len(rounds) >= len(sizes)
        winners: list[str] = []
        next_dealer = next_deal = None
        if finished:
            best = max(running.values())
            winners = [name for name in players if running[name] == best]
        else:
            number = len(rounds) + 1
            next_dealer = rules.dealer_of(players, first, number)
            next_deal = _("Next deal: {dealer} deals {size} cards each (deal {number} of "
                          "{deals}).").format(dealer=next_dealer, size=sizes[number - 1],
                                              number=number, deals=len(sizes))
        return Standings(totals=running, knocked_out=[], still_in=list(players),
                         finished=finished, winners=winners, rounds=summaries,
                         next_dealer=next_dealer, next_deal=next_deal)

    def widest_round(self, players: Sequence[str], options: Mapping[str, Any]
                     ) -> dict[str, Any]:
        """The widest round the grid can show: the biggest deal, the longest name dealing,
        every bid missed, the highest score a deal gives."""
        opts = self.options(options)
        size = max(_sizes(players, opts))
        longest = max(players, key=len)
        lowest = -size if opts.bid_scoring is Scoring.MINUS_DIFFERENCE else 0
        highest = max(10 + size, lowest, key=lambda n: len(str(n)))
        return {"number": len(rules.schedule(opts.hand_sizes, opts.most_cards)), "dealer": longest,
                "hand_size": size, "bids": dict.fromkeys(players, size),
                "tricks": dict.fromkeys(players, size),
                "contracts": dict.fromkeys(players, f"{size}/{size}"),
                "scores": dict.fromkeys(players, highest), "made": [], "knocked_out": []}

    def round_from_summary(self, summary_round: Mapping[str, Any]) -> JSONDict:
        try:
            bids = dict(summary_round["bids"])
            tricks = dict(summary_round["tricks"])
        except (KeyError, TypeError, ValueError) as error:
            raise EntryError(_("an Oh Hell round needs 'bids' and 'tricks' ({error})").format(
                error=error)) from None
        return {"bids": bids, "tricks": tricks}

    # -- across sessions -------------------------------------------------------

    def placings(self, players: Sequence[str], options: Mapping[str, Any],
                 standings: Standings) -> dict[str, int]:
        """The highest total first; equal totals share a place."""
        return competition_ranks({name: -standings.totals[name] for name in players})

    def round_tallies(self, summary_round: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        made = summary_round["made"]
        return {name: {"deals": 1, "made": int(name in made), "bid": bid,
                       "tricks": summary_round["tricks"][name]}
                for name, bid in summary_round["bids"].items()}

    def rename_players(self, round_: Mapping[str, Any], names: Mapping[str, str]) -> JSONDict:
        return {**round_, "bids": rename_keys(round_["bids"], names),
                "tricks": rename_keys(round_["tricks"], names)}

    def caption(self, summary_round: Mapping[str, Any]) -> RoundCaption:
        size = int(summary_round["hand_size"])
        dealer = str(summary_round["dealer"])
        missed = [name for name in summary_round["bids"] if name not in summary_round["made"]]
        return RoundCaption(
            role=_("{size} cards").format(size=size),
            sentence=_("{size} cards, {dealer} dealt").format(size=size, dealer=dealer),
            failure_note=_("missed: {names}").format(names=", ".join(missed)) if missed else "")

    # -- the rules in words -------------------------------------------------------

    def house_rules(self, options: Mapping[str, Any], language: Language) -> list[HouseRule]:
        opts = self.options(options)
        words = WORDS.catalog(language.value).gettext
        default = self.defaults
        return [
            HouseRule("most_cards", opts.most_cards, default.most_cards,
                      words(N_("the biggest deal is {start} cards each")).format(
                          start=opts.most_cards)),
            HouseRule("hand_sizes", opts.hand_sizes.value, default.hand_sizes.value,
                      words(_SCHEDULE[opts.hand_sizes]).format(start=opts.most_cards)),
            HouseRule("bid_scoring", opts.bid_scoring.value, default.bid_scoring.value,
                      words(_SCORING[opts.bid_scoring])),
            HouseRule("hook", opts.hook.value, default.hook.value, words(_HOOK[opts.hook])),
        ]


def _game_over(deals: int) -> str:
    return ngettext("the game is over: it has {deals} deal", "the game is over: it has "
                    "{deals} deals", deals).format(deals=deals)


def _sizes(players: Sequence[str], options: Options) -> tuple[int, ...]:
    """The schedule's hand sizes, its biggest deal bounded by 52 // players."""
    return rules.schedule(options.hand_sizes,
                          min(options.most_cards, rules.max_hand_size(len(players))))


def _first_dealer(players: Sequence[str], first_dealer: str | None) -> str:
    """The first dealer: the session's, else the first player named."""
    return first_dealer if first_dealer is not None and first_dealer in players \
        else players[0]


def _parse(options: Mapping[str, Any]) -> Options:
    unknown = set(options) - set(Options().as_dict())
    if unknown:
        raise EntryError(_("Oh Hell has no option {option}").format(
            option=repr(sorted(unknown)[0])))
    defaults = Options()
    start = option_whole_number(options.get("most_cards", defaults.most_cards),
                                _("the biggest deal"))
    if not 1 <= start <= rules.DECK // rules.MIN_PLAYERS:
        raise EntryError(_("the biggest deal must be 1 to {most} cards, not {start}").format(
            most=rules.DECK // rules.MIN_PLAYERS, start=start))
    return Options(
        most_cards=start,
        hand_sizes=option_choice(Schedule, options.get("hand_sizes", defaults.hand_sizes),
                                 "hand-sizes"),
        bid_scoring=option_choice(Scoring, options.get("bid_scoring", defaults.bid_scoring),
                                  "bid-scoring"),
        hook=option_choice(Hook, options.get("hook", defaults.hook), "hook"),
    )


_parse_options = parsed_once(_parse)


def _typed_entry(name: str, raw: str) -> tuple[int, int]:
    match = _ENTRY.fullmatch(raw)
    if match is None:
        raise EntryError(_("{name}'s entry {text} is not bid/tricks, such as {name}=2/1")
                         .format(name=name, text=repr(raw.strip())))
    return int(match.group(1)), int(match.group(2))


def _check_round(round_: Mapping[str, Any], players: Sequence[str], size: int, dealer: str,
                 options: Options) -> None:
    """The checks of one deal of ``size`` cards each, dealt by ``dealer``."""
    bids, tricks = round_.get("bids"), round_.get("tricks")
    if not isinstance(bids, dict) or not isinstance(tricks, dict):
        raise EntryError(_("the round has no bids and tricks"))
    check_participants(bids, players, _("bid"))
    check_participants(tricks, players, _("tricks"))
    for name in players:
        for value, what in ((bids[name], _("bid")), (tricks[name], _("tricks"))):
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= size:
                raise EntryError(_("{name}'s {what} {value} is impossible: this deal has "
                                   "{size} cards each, so 0 to {size}").format(
                    name=name, what=what, value=value, size=size))
    taken = sum(tricks.values())
    if taken != size:
        raise EntryError(_("the tricks add up to {taken}, not {size}: this deal has {size} "
                           "tricks").format(taken=taken, size=size))
    if options.hook is Hook.ON:
        forbidden = rules.hook_bid(size, [bids[name] for name in players if name != dealer])
        if forbidden is not None and bids[dealer] == forbidden:
            raise EntryError(_("the hook: {dealer} deals and may not bid {bid}, which makes "
                               "the bids add up to {size}").format(
                dealer=dealer, bid=forbidden, size=size))
