"""One Card at the table: checking an entered round and recomputing the standings.

A stored round holds only what was entered (or dealt): the bidder and the bid (both
``None`` for a no-bid deal), the trump suit when known, and the points each player
took, the One Card included. Scores, the dealer and the winner are recomputed here
from the whole list of rounds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.cards import SUITS, CardError, parse_suit
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
    check_deal_dealer,
    check_participants,
    collect_values,
    competition_ranks,
    copy_recorded_deal,
    match_player,
    option_choice,
    option_whole_number,
    parse_whole_number,
    parsed_once,
    rename_keys,
    rename_recorded_deal,
)
from scorekeeper.games.one_card import rules, texts
from scorekeeper.games.one_card.rules import JokerRule, Options

_OPTION_NAMES = ("joker", "target")
_ROUND_FIELDS = ("bidder", "bid", "no_bid", "trump")


class OneCardTable:
    name = "one-card"
    title = "One Card"
    min_players = rules.MIN_PLAYERS
    max_players = rules.MAX_PLAYERS
    target_label = "target"
    lower_is_better = False

    # -- options ---------------------------------------------------------------

    def default_options(self) -> JSONDict:
        return _options_dict(Options())

    def check_options(self, options: Mapping[str, Any]) -> JSONDict:
        return _options_dict(self.options(options))

    def options(self, options: Mapping[str, Any]) -> Options:
        """The house rules as the typed Options (parsed once per set of values)."""
        return _parse_options(options)

    def check_players(self, players: Sequence[str]) -> None:
        try:
            rules.check_players(len(players))
        except ValueError as error:
            raise EntryError(str(error)) from None

    def target(self, options: Mapping[str, Any]) -> int:
        return self.options(options).target

    # -- entering a round ------------------------------------------------------

    def make_round(
        self,
        players: Sequence[str],
        options: Mapping[str, Any],
        standings: Standings,
        entry: RoundEntry,
    ) -> JSONDict:
        opts = self.options(options)
        others = [key for key in entry.given() if key not in _ROUND_FIELDS]
        if others:
            raise EntryError(f"--{others[0].replace('_', '-')} is not for One Card: "
                             "a One Card round takes --bidder NAME --bid N, or --no-bid")
        if standings.finished:
            raise EntryError(
                f"the game is over ({' and '.join(standings.winners)} won): "
                "it takes no more rounds"
            )
        lowest = rules.lowest_bid(len(players))
        typed_bidder, bid = entry.text("bidder"), entry.number("bid")
        no_bid, typed_trump = entry.switch("no_bid"), entry.text("trump")
        if no_bid:
            if typed_bidder is not None:
                raise EntryError("say --bidder NAME --bid N, or --no-bid, not both")
            if bid is not None:
                raise EntryError("--bid goes with --bidder: a --no-bid deal has no bid")
            if typed_trump is not None:
                raise EntryError("--trump goes with a bid: a no-bid deal has no trump")
        elif typed_bidder is None:
            if bid is not None:
                raise EntryError(f"--bid {bid} needs --bidder NAME: say who bid")
            raise EntryError("say --bidder NAME --bid N, or --no-bid")
        elif bid is None:
            raise EntryError(
                f"--bidder needs --bid N: the winning bid, from {lowest} to {rules.MAX_BID}"
            )
        bidder = None if no_bid else match_player(players, typed_bidder or "", "bidder")
        trump: str | None = None
        if typed_trump is not None:
            try:
                trump = parse_suit(typed_trump).value
            except CardError as error:
                raise EntryError(f"--trump: {error}") from None
        values = collect_values(players, entry, "points value")
        points = {
            name: parse_whole_number(raw, f"{name}'s points") for name, raw in values.items()
        }
        round_: JSONDict = {
            "bidder": bidder,
            "bid": None if no_bid else bid,
            "trump": trump,
            "points": points,
        }
        _check_round(round_, players, opts, standings.next_dealer)
        return round_

    # -- recomputing -----------------------------------------------------------

    def standings(
        self,
        players: Sequence[str],
        options: Mapping[str, Any],
        first_dealer: str | None,
        rounds: Sequence[JSONDict],
    ) -> Standings:
        opts = self.options(options)
        n = len(players)
        running = dict.fromkeys(players, 0)
        dealer = first_dealer
        winners: list[str] | None = None
        summaries: list[JSONDict] = []
        for number, round_ in enumerate(rounds, start=1):
            if winners is not None:
                raise RoundError(number, "the game was already over after round "
                                 f"{number - 1} ({' and '.join(winners)} won)")
            try:
                _check_round(round_, players, opts, dealer)
                bidder = round_["bidder"]
                seat = None if bidder is None else players.index(bidder)
                score = rules.score_deal(
                    [round_["points"][name] for name in players], seat, round_["bid"]
                )
            except (EntryError, ValueError) as error:
                raise RoundError(number, str(error)) from None
            scores = dict(zip(players, score.scores, strict=True))
            for name, value in scores.items():
                running[name] += value
            won = rules.winners([running[name] for name in players], opts.target)
            if won is not None:
                winners = [players[i] for i in won]
            summary: JSONDict = {
                "number": number,
                "dealer": dealer,
                "bidder": bidder,
                "bid": round_["bid"],
                "trump": round_.get("trump"),
                "points": {name: round_["points"][name] for name in players},
                "scores": scores,
                "bid_failed": score.bid_failed,
            }
            copy_recorded_deal(round_, summary)
            summaries.append(summary)
            if dealer is not None:
                dealer = players[(players.index(dealer) + 1) % n]
        notes: list[str] = []
        if winners is None:
            top = max(running.values())
            leaders = [name for name in players if running[name] == top]
            if top >= opts.target and len(leaders) > 1:
                notes.append(f"{' and '.join(leaders)} are tied at {top}: everyone plays on "
                             "until one leads alone at the target or more.")
            if dealer is not None:
                starter = players[rules.first_bidder(players.index(dealer), n)]
                notes.append(f"Next deal: {dealer} deals, {starter} bids first.")
        return Standings(
            totals=running,
            knocked_out=[],
            still_in=list(players),
            finished=winners is not None,
            winners=winners or [],
            rounds=summaries,
            next_dealer=dealer if winners is None else None,
            notes=notes,
        )

    def round_from_summary(self, summary_round: Mapping[str, Any]) -> JSONDict:
        try:
            points = summary_round["points"]
            round_: JSONDict = {
                "bidder": summary_round["bidder"],
                "bid": summary_round["bid"],
                "trump": summary_round.get("trump"),
                "points": dict(points),
            }
        except (KeyError, TypeError, ValueError) as error:
            raise EntryError(
                f"a One Card round needs 'bidder', 'bid' and 'points' ({error})"
            ) from None
        trump = round_["trump"]
        if isinstance(trump, str):
            try:
                round_["trump"] = parse_suit(trump).value
            except CardError as error:
                raise EntryError(f"trump: {error}") from None
        copy_recorded_deal(summary_round, round_)
        return round_

    # -- across sessions -------------------------------------------------------

    stat_figures: tuple[StatFigure, ...] = (
        StatFigure("bids", "Bids", "bids won", "bids"),
        StatFigure("bids_made", "Made", "bids made", "bids_made"),
        StatFigure("average_bid", "Avg bid", "the average winning bid", "bid_total", "bids"),
        StatFigure("points_per_deal", "Pts/deal", "points scored per deal", "points", "deals"),
    )

    def placings(self, players: Sequence[str], options: Mapping[str, Any],
                 standings: Standings) -> dict[str, int]:
        """The highest total first (the winner leads alone); equal totals share a place."""
        return competition_ranks({name: -standings.totals[name] for name in players})

    def round_tallies(self, summary_round: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        tallies = {name: {"deals": 1, "points": score}
                   for name, score in summary_round["scores"].items()}
        bidder = summary_round.get("bidder")
        if bidder is not None:
            tallies[bidder] |= {"bids": 1, "bids_made": int(not summary_round["bid_failed"]),
                                "bid_total": summary_round["bid"]}
        return tallies

    def rename_players(self, round_: Mapping[str, Any], names: Mapping[str, str]) -> JSONDict:
        renamed = dict(round_)
        bidder = round_.get("bidder")
        renamed["bidder"] = names.get(bidder, bidder) if isinstance(bidder, str) else bidder
        renamed["points"] = rename_keys(round_["points"], names)
        rename_recorded_deal(renamed, names)
        return renamed

    def caption(self, summary_round: Mapping[str, Any]) -> RoundCaption:
        bidder = summary_round.get("bidder")
        if not bidder:
            return RoundCaption(role="no bid", sentence="no bid", acted=False)
        bid = summary_round.get("bid")
        failed = bool(summary_round.get("bid_failed"))
        return RoundCaption(role=f"{bidder} {bid}", sentence=f"{bidder} bid {bid}",
                            suit=str(summary_round.get("trump") or ""),
                            failure="failed" if failed else "",
                            failure_note=f"{bidder} failed the bid of {bid}" if failed else "")

    # -- the rules in words -------------------------------------------------------

    rules_folder = texts.RULES_FOLDER

    def house_rules(self, options: Mapping[str, Any], language: Language) -> list[HouseRule]:
        return texts.house_rules(self.options(options), language)


def _parse(options: Mapping[str, Any]) -> Options:
    unknown = sorted(set(options) - set(_OPTION_NAMES))
    if unknown:
        raise EntryError(
            f"One Card has no option {unknown[0]!r}: its options are "
            + " and ".join(_OPTION_NAMES)
        )
    defaults = Options()
    joker = option_choice(JokerRule, options.get("joker", defaults.joker), "joker")
    target = option_whole_number(options.get("target", defaults.target), "the target")
    try:
        return Options(joker=joker, target=target)
    except ValueError as error:
        raise EntryError(str(error)) from None


_parse_options = parsed_once(_parse)


def _check_round(
    round_: Mapping[str, Any],
    players: Sequence[str],
    opts: Options,
    dealer: str | None,
) -> None:
    """Raise EntryError unless the stored round is one the table could have seen."""
    points = round_.get("points")
    if not isinstance(points, dict):
        raise EntryError("the round has no points: enter NAME=POINTS for every player")
    check_participants(points, players, "points value")
    total_points = rules.TOTAL_POINTS
    for name in players:
        value = points[name]
        if isinstance(value, bool) or not isinstance(value, int):
            raise EntryError(f"{name}'s points must be a whole number, not {value!r}")
        if not 0 <= value <= total_points:
            raise EntryError(
                f"{name}'s points must be from 0 to {total_points} "
                f"(the deck holds {total_points} points), not {value}"
            )
    total = sum(points[name] for name in players)
    if total != total_points:
        joker = "the joker" if opts.joker is JokerRule.JOKER else "the joker (2D)"
        raise EntryError(
            f"the points add up to {total}, not {total_points}: every point card is taken "
            f"(J, Q, K 1 each, {joker} 3, the One Card included)"
        )
    bidder = round_.get("bidder")
    bid = round_.get("bid")
    trump = round_.get("trump")
    lowest = rules.lowest_bid(len(players))
    if bidder is None:
        if bid is not None:
            raise EntryError(f"a bid of {bid!r} needs a bidder: enter the bidder, or no bid")
        if trump is not None:
            raise EntryError("a no-bid deal has no trump")
    else:
        if bidder not in players:
            raise EntryError(f"the bidder {bidder!r} is not a player: " + ", ".join(players))
        if isinstance(bid, bool) or not isinstance(bid, int):
            raise EntryError(
                f"{bidder}'s bid must be a whole number from {lowest} to {rules.MAX_BID}, "
                f"not {bid!r}"
            )
        problem = rules.bid_problem(bid, None, len(players))
        if problem is not None:
            raise EntryError(f"{bidder} can't have bid {bid}: {problem}")
        if trump is not None and (not isinstance(trump, str)
                                  or trump not in {suit.value for suit in SUITS}):
            raise EntryError(f"the trump {trump!r} is not a suit: use S, H, D or C")
    check_deal_dealer(round_, dealer)


def _options_dict(opts: Options) -> JSONDict:
    return {"joker": opts.joker.value, "target": opts.target}

