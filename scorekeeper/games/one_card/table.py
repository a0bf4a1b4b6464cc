"""One Card at the table: checking an entered round and recomputing the standings.

A stored round holds only what was entered (or dealt): the bidder and the bid (both
``None`` for a no-bid deal), the trump suit when known, and the points each player
took, the One Card included. Scores, the dealer and the winner are recomputed here
from the whole list of rounds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from scorekeeper.cards import SUITS, CardError, parse_suit
from scorekeeper.games.one_card import rules, texts
from scorekeeper.games.one_card.rules import JokerRule, Options
from scorekeeper.games.one_card.words import N_, _, pgettext
from scorekeeper.kit.entries import (
    EntryError,
    MalformedValue,
    Question,
    RoundEntry,
    check_participants,
    collect_values,
    match_at_prompt,
    match_player,
    parse_whole_number,
)
from scorekeeper.kit.options import (
    HouseRule,
    Language,
    option_choice,
    option_flag,
    option_whole_number,
    parsed_once,
)
from scorekeeper.kit.play import Played, play_rounds
from scorekeeper.kit.roster import RosterChange, RosterRule
from scorekeeper.kit.rounds import (
    GridMarks,
    JSONObject,
    JSONRecord,
    Round,
    RoundCaption,
    ScoredRound,
    carried_from_json,
    check_deal_dealer,
    rename_keys,
)
from scorekeeper.kit.standings import Standings, StatFigure, TableGame, competition_ranks

_OPTION_NAMES = ("joker", "target")
_ROUND_FIELDS = ("bidder", "bid", "no_bid", "trump")


@dataclass(frozen=True, slots=True, kw_only=True)
class OneCardRound(Round):
    """A One Card round as entered (or dealt): the bidder and the bid (both None for a
    no-bid deal), the trump suit's letter when known, the points each player took."""

    bidder: str | None
    bid: int | None
    trump: str | None
    points: dict[str, int]
    dealer: str | None = None
    """Who dealt, in a deal of the virtual deck as its engine recorded it (None at a table:
    the standings know the dealer)."""

    @classmethod
    def from_json(cls, data: JSONRecord) -> OneCardRound:
        """The stored round (FORMAT.md), each part checked for its type."""
        points = data.get("points")
        if not isinstance(points, dict):
            raise EntryError(_("the round has no points: enter NAME=POINTS for every player"))
        for name, value in points.items():
            _check_points(name, value)
        bidder, bid, trump = data.get("bidder"), data.get("bid"), data.get("trump")
        if bidder is not None and not isinstance(bidder, str):
            raise EntryError(_("the bidder {name} is not a player: {players}").format(
                name=repr(bidder), players=", ".join(points)))
        if bid is not None and (isinstance(bid, bool) or not isinstance(bid, int)):
            raise EntryError(_("{name}'s bid must be a whole number from {lowest} to "
                               "{highest}, not {bid}").format(
                name=bidder, lowest=rules.lowest_bid(max(len(points), rules.MIN_PLAYERS)),
                highest=rules.MAX_BID, bid=repr(bid)))
        if trump is not None and not isinstance(trump, str):
            raise EntryError(_("the trump {trump} is not a suit: use S, H, D or C").format(
                trump=repr(trump)))
        dealer = data.get("dealer")
        return cls(bidder=bidder, bid=bid, trump=trump, points=dict(points),
                   dealer=dealer if isinstance(dealer, str) else None,
                   **carried_from_json(data))

    def to_json(self) -> JSONObject:
        dealt = {} if self.dealer is None else {"dealer": self.dealer}
        return dealt | {"bidder": self.bidder, "bid": self.bid, "trump": self.trump,
                        "points": dict(self.points)} | self.carried_json()

    def renamed(self, names: Mapping[str, str]) -> OneCardRound:
        bidder = self.bidder
        return OneCardRound(bidder=None if bidder is None else names.get(bidder, bidder),
                            bid=self.bid, trump=self.trump,
                            points=rename_keys(self.points, names),
                            dealer=self.dealer,  # as a rename always kept it (stored bytes)
                            note=self.note, recorded=self.renamed_recorded(names))


@dataclass(frozen=True, slots=True, kw_only=True)
class OneCardScored(ScoredRound):
    """A One Card round scored: the round as played, and whether the bid failed."""

    played: OneCardRound
    bid_failed: bool

    @property
    def values(self) -> Mapping[str, object]:
        return self.played.points

    def to_json(self) -> JSONObject:
        played = self.played
        return {"number": self.number, "dealer": self.dealer, "bidder": played.bidder,
                "bid": played.bid, "trump": played.trump, "points": dict(played.points),
                "scores": dict(self.scores), "bid_failed": self.bid_failed} \
            | played.carried_json()

    def caption(self) -> RoundCaption:
        bidder, bid = self.played.bidder, self.played.bid
        if not bidder:
            no_bid = _("no bid")
            return RoundCaption(role=no_bid, sentence=no_bid, acted=False)
        failed = self.bid_failed
        return RoundCaption(
            role=f"{bidder} {bid}", sentence=_("{name} bid {bid}").format(name=bidder, bid=bid),
            suit=self.played.trump or "",
            failure=pgettext("a bid that failed", "failed") if failed else "",
            failure_note=_("{name} failed the bid of {bid}").format(name=bidder, bid=bid)
            if failed else "")

    def tallies(self) -> dict[str, dict[str, int]]:
        tallies = {name: {"deals": 1, "points": score} for name, score in self.scores.items()}
        bidder, bid = self.played.bidder, self.played.bid
        if bidder is not None:
            tallies[bidder] |= {"bids": 1, "bids_made": int(not self.bid_failed),
                                "bid_total": bid or 0}
        return tallies


class OneCardTable:
    name = "one-card"
    title = "One Card"
    min_players = rules.MIN_PLAYERS
    max_players = rules.MAX_PLAYERS
    target_label = "target"
    lower_is_better = False
    knocks_out = False
    """Nobody is knocked out (the first to the target wins): no status "in"."""
    shows_margin = True
    """The standings show each player's points still to reach the target ("To 5")."""

    # -- options ---------------------------------------------------------------

    def default_options(self) -> JSONObject:
        return _options_dict(Options())

    def check_options(self, options: Mapping[str, object]) -> JSONObject:
        return _options_dict(self.parse_options(options))

    def parse_options(self, options: Mapping[str, object]) -> Options:
        """The house rules as the typed Options (parsed once per set of values)."""
        return _parse_options(options)

    def check_players(self, players: Sequence[str]) -> None:
        try:
            rules.check_players(len(players))
        except ValueError as error:
            raise EntryError(str(error)) from None

    def target(self, options: Options) -> int:
        return options.target

    # -- entering a round ------------------------------------------------------

    def make_round(
        self,
        players: Sequence[str],
        options: Options,
        standings: Standings,
        entry: RoundEntry,
    ) -> OneCardRound:
        opts = options
        _refuse_contradictions(standings, entry)
        lowest = rules.lowest_bid(len(players))
        typed_bidder, bid = entry.text("bidder"), entry.number("bid")
        no_bid, typed_trump = entry.switch("no_bid"), entry.text("trump")
        # a --no-bid entry has no bidder, bid or trump (_refuse_contradictions)
        if not no_bid and typed_bidder is None:
            if bid is not None:
                raise MalformedValue(_("--bid {bid} needs --bidder NAME: say who bid").format(
                    bid=bid))
            raise EntryError(_("say --bidder NAME --bid N, or --no-bid"))
        if not no_bid and bid is None:
            raise MalformedValue(_("--bidder needs --bid N: the winning bid, from {lowest} to "
                               "{highest}").format(lowest=lowest, highest=rules.MAX_BID))
        bidder = None if no_bid else match_player(players, typed_bidder or "", _("bidder"))
        trump = None if typed_trump is None else _typed_trump(typed_trump)
        values = collect_values(players, entry, _("points value"))
        points = {
            name: parse_whole_number(raw, _("{name}'s points").format(name=name))
            for name, raw in values.items()
        }
        round_ = OneCardRound(bidder=bidder, bid=None if no_bid else bid, trump=trump,
                              points=points)
        _check_round(round_, players, opts, standings.next_dealer)
        return round_

    # -- entering a round at a terminal (RoundQuestions) ---------------------------

    def check_given(self, players: Sequence[str], options: Options,
                    standings: Standings, entry: RoundEntry) -> None:
        opts = options
        _refuse_contradictions(standings, entry)
        typed_bidder, bid = entry.text("bidder"), entry.number("bid")
        bidder = None if typed_bidder is None else match_player(players, typed_bidder,
                                                                _("bidder"))
        if bid is not None:
            _check_bid(bidder or _("the bidder"), bid, len(players))
        trump = entry.text("trump")
        if trump is not None:
            _typed_trump(trump)
        points = {name: _typed_points(name, raw)
                  for name, raw in collect_values(players, entry, _("points value")).items()}
        total = sum(points.values())
        if total > rules.TOTAL_POINTS or (len(points) == len(players)
                                          and total != rules.TOTAL_POINTS):
            raise EntryError(_points_total_problem(total, opts))

    def next_question(self, players: Sequence[str], options: Options,
                      standings: Standings, entry: RoundEntry,
                      previous: RoundEntry | None = None) -> Question | None:
        opts = options
        lowest = rules.lowest_bid(len(players))
        typed_bidder = entry.text("bidder")
        if not entry.switch("no_bid") and typed_bidder is None:
            def bidder(text: str) -> RoundEntry:
                if is_no_bid_answer(text):
                    bid = entry.number("bid")
                    if bid is not None:
                        raise EntryError(_("--bid {bid} needs a bidder: say who bid").format(
                            bid=bid))
                    return entry.with_fields(no_bid=True)
                return entry.with_fields(bidder=match_at_prompt(players, text, _("bidder")))

            none = pgettext("nobody bid", "none")
            default = None if previous is None else previous.text("bidder") or none
            return Question(_("Who won the bid? ({players}, or {none})").format(
                                players=", ".join(players), none=none), bidder, default)
        if typed_bidder is not None and entry.number("bid") is None:
            name = match_player(players, typed_bidder, _("bidder"))

            def bid(text: str) -> RoundEntry:
                amount = parse_whole_number(text, _("{name}'s bid").format(name=name))
                _check_bid(name, amount, len(players))
                return entry.with_fields(bid=amount)

            earlier = None if previous is None else previous.number("bid")
            return Question(_("{name}'s bid ({lowest} to {highest})").format(
                                name=name, lowest=lowest, highest=rules.MAX_BID), bid,
                            None if earlier is None else str(earlier))
        entered = {name: _typed_points(name, raw)
                   for name, raw in collect_values(players, entry, _("points value")).items()}
        missing = [name for name in players if name not in entered]
        if not missing:
            return None
        name = missing[0]
        so_far = sum(entered.values())

        def points(text: str) -> RoundEntry:
            value = _typed_points(name, text)
            total = so_far + value
            if total > rules.TOTAL_POINTS or (len(missing) == 1
                                              and total != rules.TOTAL_POINTS):
                raise EntryError(_points_total_problem(total, opts))
            return entry.with_values((*entry.values, (name, text.strip())))

        before = {} if previous is None else dict(previous.values)
        default = before.get(name)
        if default is None and len(missing) == 1:
            default = str(rules.TOTAL_POINTS - so_far)  # the rest of the deck's points
        return Question(_("{name}'s points (the One Card included)").format(name=name), points,
                        default)

    def entry_of(self, round_: Round) -> RoundEntry:
        own = _own(round_)
        values = tuple((name, str(points)) for name, points in own.points.items())
        return RoundEntry(values, bidder=own.bidder, bid=own.bid, no_bid=own.bidder is None,
                          trump=own.trump)

    def narrow_marks(self, summary_round: ScoredRound) -> GridMarks:
        """The narrow grid: the bid in its own column, ``*`` after the bidder's total when
        the bid was made, ``!`` when it failed."""
        if not isinstance(summary_round, OneCardScored) or summary_round.played.bidder is None:
            return GridMarks({}, "-")
        return GridMarks({summary_round.played.bidder: "!" if summary_round.bid_failed
                          else "*"}, str(summary_round.played.bid))

    # -- recomputing -----------------------------------------------------------

    def standings(
        self,
        players: Sequence[str],
        options: Options,
        first_dealer: str | None,
        rounds: Sequence[Round],
        roster: Sequence[RosterChange] = (),
    ) -> Standings:
        """Recompute from the deals, with the players who joined and left between them
        (``roster``): each deal is played by those in the game at the time, the deal
        passes to the left among them, and only they can win."""
        opts = options

        def score(number: int, entered: Round, played: Played) -> OneCardScored:
            in_deal, dealer = played.still_in, played.dealer
            try:
                round_ = _own(entered)
                _check_round(round_, in_deal, opts, dealer)
                bidder = round_.bidder
                seat = None if bidder is None else in_deal.index(bidder)
                score = rules.score_deal([round_.points[name] for name in in_deal], seat,
                                         round_.bid)
            except EntryError:
                raise
            except ValueError as error:  # the rules' own refusal
                raise EntryError(str(error)) from None
            kept = round_ if list(round_.points) == in_deal else replace(
                round_, points={name: round_.points[name] for name in in_deal})
            return OneCardScored(number=number, dealer=dealer,
                                 scores=dict(zip(in_deal, score.scores, strict=True)),
                                 played=kept, bid_failed=score.bid_failed)

        def already_over(number: int, played: Played) -> str:
            return _("the game was already over after round {number} ({winners} won)").format(
                number=number - 1, winners=_(" and ").join(_winners(played, opts)))

        played = play_rounds(players, first_dealer, rounds, roster, rules.MIN_PLAYERS,
                             rules.MAX_PLAYERS, score=score,
                             over=lambda played, number: bool(_winners(played, opts)),
                             already_over=already_over)
        if played.finished:
            return played.standings(_winners(played, opts))
        still_in, dealer, running = played.still_in, played.dealer, played.running
        notes: list[str] = []
        top = max(running[name] for name in still_in)
        leaders = [name for name in still_in if running[name] == top]
        if top >= opts.target and len(leaders) > 1:
            notes.append(_("{names} are tied at {top}: everyone plays on until one leads "
                           "alone at the target or more.").format(
                names=_(" and ").join(leaders), top=top))
        if dealer is None:
            return played.standings(notes=notes)
        starter = still_in[rules.first_bidder(still_in.index(dealer), len(still_in))]
        return played.standings(
            notes=notes,
            next_deal=_("Next deal: {dealer} deals, {starter} bids first.").format(
                dealer=dealer, starter=starter),
            next_starter=_("{starter} bids first.").format(starter=starter))

    def round_from_json(self, data: JSONRecord) -> OneCardRound:
        return OneCardRound.from_json(data)

    def round_from_summary(self, summary_round: JSONRecord) -> OneCardRound:
        missing = [key for key in ("bidder", "bid", "points") if key not in summary_round]
        if missing:
            raise EntryError(_("a One Card round needs 'bidder', 'bid' and 'points' ({error})")
                             .format(error=repr(missing[0]))) from None
        round_ = replace(OneCardRound.from_json(summary_round), dealer=None)
        if round_.trump is not None:
            try:
                return replace(round_, trump=parse_suit(round_.trump).value)
            except CardError as error:
                raise EntryError(_("trump: {error}").format(error=error)) from None
        return round_

    # -- across sessions -------------------------------------------------------

    stat_figures: tuple[StatFigure, ...] = (
        StatFigure("bids", N_("Bids"), N_("bids won"), "bids"),
        StatFigure("bids_made", N_("Made"), N_("bids made"), "bids_made"),
        StatFigure("average_bid", N_("Avg bid"), N_("the average winning bid"), "bid_total",
                   "bids"),
        StatFigure("points_per_deal", N_("Pts/deal"), N_("points scored per deal"), "points",
                   "deals"),
    )

    def placings(self, players: Sequence[str], options: Options,
                 standings: Standings) -> dict[str, int]:
        """The highest total first (the winner leads alone); equal totals share a place."""
        return competition_ranks({name: -standings.totals[name] for name in players})

    def widest_round(self, players: Sequence[str], options: Options
                     ) -> OneCardScored:
        """The widest round the grid can show: the longest name's highest bid, trumps
        named, failed, and every point of the deck to one player."""
        longest = max(players, key=len)
        played = OneCardRound(bidder=longest, bid=rules.MAX_BID, trump="H",
                              points=dict.fromkeys(players, 0))
        return OneCardScored(number=1, dealer=longest,
                             scores=dict.fromkeys(players, rules.TOTAL_POINTS), played=played,
                             bid_failed=True)

    # -- the rules in words -------------------------------------------------------

    rules_folder = texts.RULES_FOLDER

    def house_rules(self, options: Options, language: Language) -> list[HouseRule]:
        return texts.house_rules(options, language)


def _parse(options: Mapping[str, object]) -> Options:
    unknown = sorted(set(options) - set(_OPTION_NAMES))
    if unknown:
        raise EntryError(_("One Card has no option {option}: its options are {options}")
                         .format(option=repr(unknown[0]),
                                 options=_(" and ").join(_OPTION_NAMES)))
    defaults = Options()
    joker = option_choice(JokerRule, options.get("joker", defaults.joker), "joker")
    target = option_whole_number(options.get("target", defaults.target), _("the target"))
    try:
        return Options(joker=joker, target=target)
    except ValueError as error:
        raise EntryError(str(error)) from None


_parse_options = parsed_once(_parse)


def _winners(played: Played, opts: Options) -> list[str]:
    """Who won, once someone leads alone at the target or more (else nobody)."""
    still_in = played.still_in
    won = rules.winners([played.running[name] for name in still_in], opts.target)
    return [] if won is None else [still_in[i] for i in won]


def _own(round_: Round) -> OneCardRound:
    if not isinstance(round_, OneCardRound):
        raise EntryError(_("the round has no points: enter NAME=POINTS for every player"))
    return round_


def _check_round(
    round_: OneCardRound,
    players: Sequence[str],
    opts: Options,
    dealer: str | None,
) -> None:
    """Raise EntryError unless the stored round is one the table could have seen."""
    points = round_.points
    check_participants(points, players, _("points value"))
    for name in players:
        _check_points(name, points[name])
    total = sum(points[name] for name in players)
    if total != rules.TOTAL_POINTS:
        raise EntryError(_points_total_problem(total, opts))
    bidder, bid, trump = round_.bidder, round_.bid, round_.trump
    lowest = rules.lowest_bid(len(players))
    if bidder is None:
        if bid is not None:
            raise EntryError(_("a bid of {bid} needs a bidder: enter the bidder, or no bid")
                             .format(bid=repr(bid)))
        if trump is not None:
            raise EntryError(_("a no-bid deal has no trump"))
    else:
        if bidder not in players:
            raise EntryError(_("the bidder {name} is not a player: {players}").format(
                name=repr(bidder), players=", ".join(players)))
        if isinstance(bid, bool) or not isinstance(bid, int):
            raise EntryError(_("{name}'s bid must be a whole number from {lowest} to "
                               "{highest}, not {bid}").format(
                name=bidder, lowest=lowest, highest=rules.MAX_BID, bid=repr(bid)))
        _check_bid(bidder, bid, len(players))
        if trump is not None and (not isinstance(trump, str)
                                  or trump not in {suit.value for suit in SUITS}):
            raise EntryError(_("the trump {trump} is not a suit: use S, H, D or C").format(
                trump=repr(trump)))
    check_deal_dealer(round_, dealer)


NO_BID_ANSWERS = ("none", "no", "nobody", "-", "pass", "no bid")
"""What may be typed at "Who won the bid?" for a deal nobody bid on (in any language)."""


def is_no_bid_answer(text: str) -> bool:
    """An answer to "Who won the bid?" that means nobody: English, or the word the prompt
    offers in the user's language."""
    answer = text.strip().lower()
    return answer in NO_BID_ANSWERS or answer == pgettext("nobody bid", "none").lower()


def _refuse_contradictions(standings: Standings, entry: RoundEntry) -> None:
    """What the command line can get wrong before any name or number is read."""
    others = [key for key in entry.given() if key not in _ROUND_FIELDS]
    if others:
        raise MalformedValue(_("{flag} is not for One Card: a One Card round takes --bidder NAME "
                           "--bid N, or --no-bid").format(flag=option_flag(others[0])))
    if standings.finished:
        raise EntryError(_("the game is over ({winners} won): it takes no more rounds").format(
            winners=_(" and ").join(standings.winners)))
    if entry.switch("no_bid"):
        if entry.text("bidder") is not None:
            raise MalformedValue(_("say --bidder NAME --bid N, or --no-bid, not both"))
        if entry.number("bid") is not None:
            raise MalformedValue(_("--bid goes with --bidder: a --no-bid deal has no bid"))
        if entry.text("trump") is not None:
            raise MalformedValue(_("--trump goes with a bid: a no-bid deal has no trump"))


def _check_bid(bidder: str, bid: Any, players: int) -> None:
    problem = rules.bid_problem(bid, None, players)
    if problem is not None:
        raise EntryError(_("{name} can't have bid {bid}: {problem}").format(
            name=bidder, bid=bid, problem=problem))


def _typed_trump(typed: str) -> str:
    """``--trump``'s suit letter; a word that is no suit is a malformed command line."""
    try:
        return parse_suit(typed).value
    except CardError as error:
        raise MalformedValue(_("--trump: {error}").format(error=error)) from None


def _typed_points(name: str, raw: str) -> int:
    value = parse_whole_number(raw, _("{name}'s points").format(name=name))
    _check_points(name, value)
    return value


def _check_points(name: str, value: Any) -> None:
    total_points = rules.TOTAL_POINTS
    if isinstance(value, bool) or not isinstance(value, int):
        raise EntryError(_("{name}'s points must be a whole number, not {value}").format(
            name=name, value=repr(value)))
    if not 0 <= value <= total_points:
        raise EntryError(_("{name}'s points must be from 0 to {most} (the deck holds {most} "
                           "points), not {value}").format(name=name, most=total_points,
                                                          value=value))


def _points_total_problem(total: int, opts: Options) -> str:
    if opts.joker is JokerRule.JOKER:
        problem = _("the points add up to {total}, not {all}: every point card is taken "
                    "(J, Q, K 1 each, the joker 3, the One Card included)")
    else:
        problem = _("the points add up to {total}, not {all}: every point card is taken "
                    "(J, Q, K 1 each, the joker (2D) 3, the One Card included)")
    return problem.format(total=total, all=rules.TOTAL_POINTS)


def _options_dict(opts: Options) -> JSONObject:
    return {"joker": opts.joker.value, "target": opts.target}



class OneCardRoster(RosterRule[Options]):
    """Players joining and leaving a One Card game: 2 to 4 at the table at any time (the
    session checks the range); a late player starts at 0, as everyone did, and a total
    given instead must be 0 up to one short of the target (at it they would have won
    without playing)."""

    def check_total(self, table: TableGame[Options], options: Options, total: int) -> None:
        target = table.target(options)
        if not 0 <= total < target:
            raise EntryError(_("a late player's total must be 0 to {most}, under the target "
                               "{target}, not {total}").format(most=target - 1, target=target,
                                                               total=total))

    def recompute(self, table: TableGame[Options], players: Sequence[str], options: Options,
                  first_dealer: str | None, rounds: Sequence[Round],
                  roster: Sequence[RosterChange]) -> Standings:
        if not isinstance(table, OneCardTable):
            raise EntryError(_("a One Card round needs 'bidder', 'bid' and 'points' ({error})")
                             .format(error="points"))
        return table.standings(players, options, first_dealer, rounds, roster)
