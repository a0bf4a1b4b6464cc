"""Oh Hell at the table: each deal's hand size and dealer from the schedule, an entry of
each player's bid and tricks (``Ann=2/1``), the checks a scorekeeper can make (the tricks
add up to the hand size; with the hook rule, the dealer's bid does not make the bids add
up to it), and the standings recomputed from the rounds.

A stored round holds what was entered, ``{"bids": {...}, "tricks": {...}}``
(:class:`OhHellRound`); the hand size, the dealer, the scores and who made their bid are
recomputed (:class:`OhHellScored`)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from importlib import resources

from scorekeeper.errors import MalformedValue
from scorekeeper.games.oh_hell import rules
from scorekeeper.games.oh_hell.rules import BIDS_KEY, TRICKS_KEY, Hook, Options, Schedule, Scoring
from scorekeeper.games.oh_hell.words import N_, WORDS, _, ngettext
from scorekeeper.kit.entries import (
    EntryError,
    Question,
    RosterError,
    RoundEntry,
    check_participants,
    collect_values,
)
from scorekeeper.kit.options import (
    HouseRule,
    Language,
    option_choice,
    option_flag,
    option_whole_number,
    parsed_once,
)
from scorekeeper.kit.play import Played, first_players, play_rounds
from scorekeeper.kit.roster import RosterChange, RosterRule
from scorekeeper.kit.rounds import (
    GridMarks,
    JSONObject,
    JSONRecord,
    Round,
    RoundCaption,
    ScoredRound,
    carried_from_json,
    rename_keys,
)
from scorekeeper.kit.standings import Standings, StatFigure, TableGame, competition_ranks

_ENTRY = re.compile(r"([0-9]{1,3})\s*/\s*([0-9]{1,3})")

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


def _whole_numbers(data: JSONRecord, key: str) -> dict[str, int]:
    """One of a stored round's two parts: each player's whole number (a file may hold
    anything)."""
    values = data.get(key)
    if not isinstance(values, dict):
        raise EntryError(_("an Oh Hell round needs 'bids' and 'tricks': each player's bid "
                           "and the tricks they took"))
    for name, value in values.items():
        if type(value) is not int:  # (not a bool either)
            raise EntryError(_("{name}'s {what} must be a whole number, not {value}").format(
                name=name, what=_("bid") if key == BIDS_KEY else _("tricks"),
                value=repr(value)[:40]))
    return dict(values)


@dataclass(frozen=True, slots=True, kw_only=True)
class OhHellRound(Round):
    """A deal as entered: each player's bid and the tricks they took, in the order typed."""

    bids: dict[str, int]
    tricks: dict[str, int]

    @classmethod
    def from_json(cls, data: JSONRecord) -> OhHellRound:
        """The stored round (docs/format.md), each part checked for its type."""
        return cls(bids=_whole_numbers(data, BIDS_KEY), tricks=_whole_numbers(data, TRICKS_KEY),
                   **carried_from_json(data))

    def to_json(self) -> JSONObject:
        return {BIDS_KEY: dict(self.bids), TRICKS_KEY: dict(self.tricks)} | self.carried_json()

    def renamed(self, names: Mapping[str, str]) -> OhHellRound:
        return replace(self, bids=rename_keys(self.bids, names),
                       tricks=rename_keys(self.tricks, names),
                       recorded=self.renamed_recorded(names))

    def contract(self, name: str) -> str:
        """A player's entry as typed: ``2/1``."""
        return f"{self.bids[name]}/{self.tricks[name]}"


@dataclass(frozen=True, slots=True, kw_only=True)
class OhHellScored(ScoredRound):
    """A deal scored: the round as played (in the players' order), its hand size and who
    made their bid exactly."""

    played: OhHellRound
    hand_size: int
    made: tuple[str, ...]

    @property
    def values(self) -> Mapping[str, object]:
        """Each player's ``bid/tricks`` (the grid's and the CSV's value)."""
        return {name: self.played.contract(name) for name in self.played.bids}

    @property
    def missed(self) -> list[str]:
        return [name for name in self.played.bids if name not in self.made]

    def to_json(self) -> JSONObject:
        played = self.played
        return {"number": self.number, "dealer": self.dealer, "hand_size": self.hand_size,
                BIDS_KEY: dict(played.bids), TRICKS_KEY: dict(played.tricks),
                "contracts": {name: played.contract(name) for name in played.bids},
                "scores": dict(self.scores),
                "made": list(self.made), "knocked_out": list(self.knocked_out)} \
            | played.carried_json()

    def caption(self) -> RoundCaption:
        size, missed = self.hand_size, self.missed
        cards = ngettext("{size} card", "{size} cards", size).format(size=size)
        return RoundCaption(
            role=cards,
            sentence=ngettext("{size} card, {dealer} dealt", "{size} cards, {dealer} dealt",
                              size).format(size=size, dealer=self.dealer),
            failure_note=_("missed: {names}").format(names=", ".join(missed)) if missed
            else "")

    def tallies(self) -> dict[str, dict[str, int]]:
        played = self.played
        return {name: {"deals": 1, "made": int(name in self.made), "bid": bid,
                       "tricks": played.tricks[name], "points": self.scores[name]}
                for name, bid in played.bids.items()}


@dataclass(frozen=True, slots=True)
class OhHellStandings(Standings):
    """Oh Hell's standings: also the next deal's hand size (from the schedule the game
    started with; None once the game is over)."""

    next_size: int | None = None


class OhHellTable:
    name = "oh-hell"
    title = "Oh Hell"
    defaults = Options()
    min_players = rules.MIN_PLAYERS
    max_players = rules.MAX_PLAYERS
    target_label = "perfect"
    knocks_out = False
    """No "To 98" and no status "in": the target is only the chart's perfect game, and
    the next deal's line says how far the game is (deal 2 of 7)."""
    lower_is_better = False
    rules_folder = resources.files("scorekeeper.games.oh_hell") / "rules"
    stat_figures: tuple[StatFigure, ...] = (
        StatFigure("made_rate", N_("Made %"), N_("the share of bids made exactly"),
                   "made", "deals", percent=True),
        StatFigure("average_bid", N_("Avg bid"), N_("the average bid"), "bid", "deals"),
        StatFigure("average_tricks", N_("Avg tricks"), N_("the average tricks taken"),
                   "tricks", "deals"),
        StatFigure("points_per_deal", N_("Pts/deal"), N_("points scored per deal"), "points",
                   "deals"),
    )

    # -- options ---------------------------------------------------------------

    def default_options(self) -> JSONObject:
        return dict(self.defaults.as_dict())

    def check_options(self, options: Mapping[str, object]) -> JSONObject:
        return dict(self.parse_options(options).as_dict())

    def parse_options(self, options: Mapping[str, object]) -> Options:
        """The house rules as the typed Options (parsed once per set of values)."""
        return _parse_options(options)

    def check_players(self, players: Sequence[str]) -> None:
        if not rules.MIN_PLAYERS <= len(players) <= rules.MAX_PLAYERS:
            raise EntryError(_("Oh Hell takes {low} to {high} players, not {n}").format(
                low=rules.MIN_PLAYERS, high=rules.MAX_PLAYERS, n=len(players)))

    def target(self, options: Options) -> int:
        """A perfect game (the chart's line): every bid made on every deal, the most a deal
        can score each time (10 + the hand size)."""
        return sum(10 + size for size in rules.schedule(options.hand_sizes, options.most_cards))

    # -- entering a round ------------------------------------------------------

    def make_round(self, players: Sequence[str], options: Options,
                   standings: Standings, entry: RoundEntry) -> OhHellRound:
        _refuse_other_options(entry)
        size, dealer = _next_deal(standings)
        bids: dict[str, int] = {}
        tricks: dict[str, int] = {}
        for name, raw in collect_values(players, entry, _("bid/tricks")).items():
            bids[name], tricks[name] = _typed_entry(name, raw, size)
        round_ = OhHellRound(bids=bids, tricks=tricks)
        _check_round(round_, players, size, dealer, options)
        return round_

    # -- entering a round at a terminal (RoundQuestions) ---------------------------

    def check_given(self, players: Sequence[str], options: Options,
                    standings: Standings, entry: RoundEntry) -> None:
        """What the command line gave, checked before anything is asked: each entry's
        form and range, the tricks not over the hand size, and the whole deal when
        nobody is missing."""
        _refuse_other_options(entry)
        size, dealer = _next_deal(standings)
        entered = {name: _typed_entry(name, raw, size)
                   for name, raw in collect_values(players, entry, _("bid/tricks")).items()}
        _check_partial(entered, players, size, dealer, options)

    def next_question(self, players: Sequence[str], options: Options,
                      standings: Standings, entry: RoundEntry,
                      previous: RoundEntry | None = None) -> Question | None:
        size, dealer = _next_deal(standings)
        entered = {name: _typed_entry(name, raw, size)
                   for name, raw in collect_values(players, entry, _("bid/tricks")).items()}
        missing = [name for name in rules.bidding_order(players, dealer) if name not in entered]
        if not missing:
            return None
        name = missing[0]

        def answer(text: str) -> RoundEntry:
            typed = {**entered, name: _typed_entry(name, text, size)}
            _check_partial(typed, players, size, dealer, options)
            return entry.with_values((*entry.values, (name, text.strip())))

        before = {} if previous is None else dict(previous.values)
        prompt = ngettext("{name}'s bid/tricks ({size} card)", "{name}'s bid/tricks ({size} "
                          "cards)", size).format(name=name, size=size)
        return Question(prompt, answer, before.get(name))

    def entry_of(self, round_: Round) -> RoundEntry:
        own = _own(round_)
        return RoundEntry(tuple((name, own.contract(name)) for name in own.bids
                                if name in own.tricks))

    def narrow_marks(self, summary_round: ScoredRound) -> GridMarks:
        """The narrow grid: the hand size in its own column, ``!`` after the total of
        each player who missed their bid."""
        if not isinstance(summary_round, OhHellScored):
            return GridMarks({})
        return GridMarks(dict.fromkeys(summary_round.missed, "!"), str(summary_round.hand_size))

    # -- recomputing -----------------------------------------------------------

    def standings(self, players: Sequence[str], options: Options,
                  first_dealer: str | None, rounds: Sequence[Round],
                  roster: Sequence[RosterChange] = ()) -> OhHellStandings:
        """Recompute from the deals, with the players who joined and left between them
        (``roster``): the schedule is the one the game started with; each deal is dealt,
        bid and hooked by the players in it; the deal passes over a leaver."""
        first = first_players(players, roster, len(rounds), rules.MIN_PLAYERS,
                              rules.MAX_PLAYERS)
        sizes = rules.hand_sizes(options.hand_sizes, options.most_cards, len(first))

        def score(number: int, entered: Round, played: Played) -> OhHellScored:
            still_in, size = played.still_in, sizes[number - 1]
            dealer = _dealer(played)
            round_ = _own(entered)
            _check_round(round_, still_in, size, dealer, options)
            kept = replace(round_, bids={name: round_.bids[name] for name in still_in},
                           tricks={name: round_.tricks[name] for name in still_in})
            return OhHellScored(
                number=number, dealer=dealer, played=kept, hand_size=size,
                scores={name: rules.score(options.bid_scoring, round_.bids[name],
                                          round_.tricks[name]) for name in still_in},
                made=tuple(name for name in still_in if kept.bids[name] == kept.tricks[name]))

        def dealable(after: int, changes: Sequence[RosterChange], played: Played) -> None:
            _check_dealable(after, changes, played, sizes)

        played = play_rounds(players, _first_dealer(first, first_dealer), rounds, roster,
                             rules.MIN_PLAYERS, rules.MAX_PLAYERS, score=score,
                             over=lambda played, number: number >= len(sizes),
                             already_over=lambda number, played: _game_over(len(sizes)),
                             before_changes=_check_late_totals, after_changes=dealable)
        if played.finished:
            best = max(played.running[name] for name in played.still_in)
            return _oh_hell_standings(played.standings(
                [name for name in played.still_in if played.running[name] == best]), None)
        number = len(rounds) + 1
        size, dealer = sizes[number - 1], _dealer(played)
        starter = rules.bidding_order(played.still_in, dealer)[0]
        words = {"dealer": dealer, "size": size, "starter": starter, "number": number,
                 "deals": len(sizes)}
        next_deal = ngettext(
            "Next deal: {dealer} deals {size} card each, {starter} bids first (deal "
            "{number} of {deals}).",
            "Next deal: {dealer} deals {size} cards each, {starter} bids first (deal "
            "{number} of {deals}).", size).format(**words)
        next_starter = ngettext(
            "{size} card each, {starter} bids first (deal {number} of {deals}).",
            "{size} cards each, {starter} bids first (deal {number} of {deals}).",
            size).format(**words)
        return _oh_hell_standings(played.standings(next_deal=next_deal,
                                                   next_starter=next_starter), size)

    def round_from_json(self, data: JSONRecord) -> OhHellRound:
        return OhHellRound.from_json(data)

    def round_from_summary(self, summary_round: JSONRecord) -> OhHellRound:
        return OhHellRound.from_json(summary_round)

    def widest_round(self, players: Sequence[str], options: Options
                     ) -> OhHellScored:
        """The widest deal the grid can show: the biggest deal, the longest name dealing,
        every bid missed, the score a deal gives that takes the most digits."""
        size = max(rules.hand_sizes(options.hand_sizes, options.most_cards, len(players)))
        longest = max(players, key=len)
        highest = 10 + size  # an exact bid of the whole hand, in every scoring
        lowest = -size if options.bid_scoring is Scoring.MINUS_DIFFERENCE else 0
        widest = max(highest, lowest, key=lambda points: len(str(points)))
        played = OhHellRound(bids=dict.fromkeys(players, size), tricks=dict.fromkeys(players, 0))
        return OhHellScored(number=1, dealer=longest, scores=dict.fromkeys(players, widest),
                            played=played, hand_size=size, made=())

    # -- across sessions -------------------------------------------------------

    def placings(self, players: Sequence[str], options: Options,
                 standings: Standings) -> dict[str, int]:
        """The highest total first; equal totals share a place."""
        return competition_ranks({name: -standings.totals[name] for name in players})

    # -- the rules in words ----------------------------------------------------

    def house_rules(self, options: Options, language: Language) -> list[HouseRule]:
        words = WORDS.catalog(language.value).gettext
        default = self.defaults
        return [
            HouseRule("most_cards", options.most_cards, default.most_cards,
                      words(N_("the biggest deal is {start} cards each, at most 52 / players"))
                      .format(start=options.most_cards)),
            HouseRule("hand_sizes", options.hand_sizes.value, default.hand_sizes.value,
                      words(_SCHEDULE[options.hand_sizes]).format(start=options.most_cards)),
            HouseRule("bid_scoring", options.bid_scoring.value, default.bid_scoring.value,
                      words(_SCORING[options.bid_scoring])),
            HouseRule("hook", options.hook.value, default.hook.value, words(_HOOK[options.hook])),
        ]


def _game_over(deals: int) -> str:
    return ngettext("the game is over: it has {deals} deal", "the game is over: it has "
                    "{deals} deals", deals).format(deals=deals)


def _own(round_: Round) -> OhHellRound:
    if not isinstance(round_, OhHellRound):  # another game's round
        raise EntryError(_("an Oh Hell round needs 'bids' and 'tricks': each player's bid "
                           "and the tricks they took"))
    return round_


def _first_dealer(players: Sequence[str], first_dealer: str | None) -> str:
    """The first dealer: the session's, else the first player named (a session from a
    file that kept no dealer: the hook needs one)."""
    return first_dealer if first_dealer is not None and first_dealer in players \
        else players[0]


def _next_deal(standings: Standings) -> tuple[int, str]:
    """The hand size and the dealer of the deal to enter next."""
    if not isinstance(standings, OhHellStandings) or standings.next_size is None \
            or standings.next_dealer is None:
        raise EntryError(_game_over(len(standings.rounds)))
    return standings.next_size, standings.next_dealer


def _dealer(played: Played) -> str:
    """Who deals now: the loop's dealer (Oh Hell always has one: the first is the
    session's, else the first player named)."""
    return played.dealer if played.dealer is not None else played.still_in[0]


def _oh_hell_standings(standings: Standings, next_size: int | None) -> OhHellStandings:
    """The loop's standings with the next deal's hand size."""
    return OhHellStandings(**{part.name: getattr(standings, part.name)
                              for part in fields(standings)}, next_size=next_size)


def _check_late_totals(after: int, changes: Sequence[RosterChange], played: Played) -> None:
    """Oh Hell's rule for the players who join after deal ``after``: a late player's total
    within those of the players still in at that moment, 0 included."""
    present = {name: played.running[name] for name in played.still_in}
    away = dict(played.running)  # a returning player's total: the one they left with
    for change in changes:  # in order: a total within those in at that moment
        if not change.joined:
            away[change.player] = present.pop(change.player, away.get(change.player, 0))
            continue
        if change.back:  # at the total they left with
            present[change.player] = away.get(change.player, 0)
            continue
        total = change.total or 0
        low, high = min(0, *present.values()), max(0, *present.values())
        if not low <= total <= high:
            raise RosterError(after, change.describe(), _(
                "a late player's total must be {low} to {high} (0, or a total still in), "
                "not {total}").format(low=low, high=high, total=total))
        present[change.player] = total


def _check_dealable(after: int, changes: Sequence[RosterChange], played: Played,
                    sizes: Sequence[int]) -> None:
    """Every deal still to come dealable to the players in once the changes made after
    deal ``after`` are laid over the night (hand size x players <= 52)."""
    now_in = played.still_in
    for number in range(after + 1, len(sizes) + 1):
        size = sizes[number - 1]
        if size * len(now_in) > rules.DECK:
            raise RosterError(after, changes[-1].describe(), _(
                "deal {number} has {size} cards each, and {n} players would need {cards}: "
                "more than the {deck} in a deck").format(
                number=number, size=size, n=len(now_in), cards=size * len(now_in),
                deck=rules.DECK))


def _parse(options: Mapping[str, object]) -> Options:
    unknown = sorted(set(options) - set(Options().as_dict()))
    if unknown:
        raise EntryError(_("Oh Hell has no option {option}").format(option=repr(unknown[0])))
    defaults = Options()
    start = option_whole_number(options.get("most_cards", defaults.most_cards),
                                _("the biggest deal"))
    most = rules.max_hand_size(rules.MIN_PLAYERS)
    if not 1 <= start <= most:
        raise EntryError(_("the biggest deal must be 1 to {most} cards, not {start}").format(
            most=most, start=start))
    return Options(
        most_cards=start,
        hand_sizes=option_choice(Schedule, options.get("hand_sizes", defaults.hand_sizes),
                                 "hand-sizes"),
        bid_scoring=option_choice(Scoring, options.get("bid_scoring", defaults.bid_scoring),
                                  "bid-scoring"),
        hook=option_choice(Hook, options.get("hook", defaults.hook), "hook"),
    )


_parse_options = parsed_once(_parse)


def _refuse_other_options(entry: RoundEntry) -> None:
    given = entry.given()
    if given:
        raise MalformedValue(_("{flag} is not for Oh Hell: an Oh Hell round takes each player's "
                           "bid/tricks, such as Ann=2/1").format(flag=option_flag(given[0])))


def _typed_entry(name: str, raw: str, size: int) -> tuple[int, int]:
    """``BID/TRICKS`` as typed, each 0 to the hand size."""
    match = _ENTRY.fullmatch(raw.strip())
    if match is None:
        raise EntryError(_("{name}'s entry {text} is not bid/tricks, such as {name}=2/1")
                         .format(name=name, text=repr(raw.strip())[:40]))
    bid, tricks = int(match.group(1)), int(match.group(2))
    _check_range(name, bid, tricks, size)
    return bid, tricks


def _check_range(name: str, bid: int, tricks: int, size: int) -> None:
    for value, what in ((bid, _("bid")), (tricks, _("tricks"))):
        if not 0 <= value <= size:
            raise EntryError(ngettext(
                "{name}'s {what} {value} is impossible: this deal has {size} card each, so "
                "0 to {size}",
                "{name}'s {what} {value} is impossible: this deal has {size} cards each, so "
                "0 to {size}", size).format(name=name, what=what, value=value, size=size))


def _check_partial(entered: Mapping[str, tuple[int, int]], players: Sequence[str], size: int,
                   dealer: str, options: Options) -> None:
    """Some players' entries so far: their tricks not over the hand size, and the whole
    deal's checks once nobody is missing."""
    taken = sum(tricks for _bid, tricks in entered.values())
    if taken > size:
        raise EntryError(_tricks_problem(taken, size))
    if len(entered) == len(players):
        _check_round(OhHellRound(bids={name: bid for name, (bid, _t) in entered.items()},
                                 tricks={name: took for name, (_b, took) in entered.items()}),
                     players, size, dealer, options)


def _tricks_problem(taken: int, size: int) -> str:
    return ngettext("the tricks add up to {taken}, not {size}: this deal has {size} trick",
                    "the tricks add up to {taken}, not {size}: this deal has {size} tricks",
                    size).format(taken=taken, size=size)


def _check_round(round_: OhHellRound, players: Sequence[str], size: int, dealer: str,
                 options: Options) -> None:
    """The checks of one deal of ``size`` cards each, dealt by ``dealer``."""
    check_participants(round_.bids, players, _("bid/tricks"))
    check_participants(round_.tricks, players, _("bid/tricks"))
    for name in players:
        _check_range(name, round_.bids[name], round_.tricks[name], size)
    taken = sum(round_.tricks.values())
    if taken != size:
        raise EntryError(_tricks_problem(taken, size))
    if options.hook is Hook.ON:
        forbidden = rules.hook_bid(size, [round_.bids[name] for name in players
                                          if name != dealer])
        if forbidden is not None and round_.bids[dealer] == forbidden:
            raise EntryError(_("the hook: {dealer} deals and may not bid {bid}, which makes "
                               "the bids add up to {size}").format(
                dealer=dealer, bid=forbidden, size=size))


class OhHellRoster(RosterRule[Options]):
    """Players joining and leaving an Oh Hell game between deals.

    A late player starts at 0 (an exact bid is worth at least 10, so a few deals put them
    back in the game); a total given instead must lie within the totals of the players
    still in, 0 included: never ahead of the leader. The game keeps 3 to 7 players, and
    every deal still to come must be dealable to them from one deck (hand size x players
    <= 52), else the change is refused naming the deal. Dealing and bidding follow the
    players in the game; a leaver's deal passes on."""

    def recompute(self, table: TableGame[Options], players: Sequence[str], options: Options,
                  first_dealer: str | None, rounds: Sequence[Round],
                  roster: Sequence[RosterChange]) -> Standings:
        if not isinstance(table, OhHellTable):
            raise EntryError(_("an Oh Hell round needs 'bids' and 'tricks': each player's "
                               "bid and the tricks they took"))
        return table.standings(players, options, first_dealer, rounds, roster)
