"""Least Score at the table: checking an entered round and recomputing the standings.

A stored round holds only what was entered (or dealt): the declarer, each
player's hand total and, when known, the cards. Scores, knock-outs, dealers and
winners are recomputed here from the whole list of rounds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from scorekeeper.cards import JOKER, CardError, format_cards, iter_duplicates, parse_cards
from scorekeeper.errors import MalformedValue
from scorekeeper.games.least_score import rules, texts
from scorekeeper.games.least_score.rules import End, Options, Tie, TwoPairs
from scorekeeper.games.least_score.words import N_, _, ngettext, pgettext
from scorekeeper.kit.entries import (
    EntryError,
    Question,
    RoundEntry,
    check_participants,
    collect_values,
    looks_like_whole_number,
    match_at_prompt,
    match_player,
    parse_whole_number,
    same_name,
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


@dataclass(frozen=True, slots=True, kw_only=True)
class LeastScoreRound(Round):
    """A Least Score round as entered (or dealt): who declared, each hand's total and,
    when known, its cards."""

    declarer: str
    totals: dict[str, int]
    hands: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: JSONRecord) -> LeastScoreRound:
        """The stored round (FORMAT.md), each part checked for its type."""
        declarer = data.get("declarer")
        if not isinstance(declarer, str):
            raise EntryError(_("a Least Score round needs 'declarer' and 'totals' ({error})")
                             .format(error=f"declarer {declarer!r}"))
        totals = data.get("totals")
        if not isinstance(totals, dict):
            raise EntryError(_("the round has no hand totals"))
        hands = data.get("hands") or {}
        if not isinstance(hands, dict) or (hands and not all(
                isinstance(cards, list) and all(isinstance(card, str) for card in cards)
                for cards in hands.values())):
            raise EntryError(_("'hands' must map each player to a list of cards such as "
                               '["AH", "10S"]'))
        for name, total in totals.items():
            if type(total) is not int:  # (not a bool either)
                _check_hand(name, total, None)  # refused: the cards are checked in scoring
        return cls(declarer=declarer, totals=dict(totals),
                   hands={name: list(cards) for name, cards in hands.items()} if hands else {},
                   **carried_from_json(data))

    def to_json(self) -> JSONObject:
        data: JSONObject = {"declarer": self.declarer, "totals": dict(self.totals)}
        if self.hands:
            data["hands"] = {name: list(cards) for name, cards in self.hands.items()}
        return data | self.carried_json()

    def renamed(self, names: Mapping[str, str]) -> LeastScoreRound:
        return LeastScoreRound(declarer=names.get(self.declarer, self.declarer),
                               totals=rename_keys(self.totals, names),
                               hands=rename_keys(self.hands, names), note=self.note,
                               recorded=self.renamed_recorded(names))


@dataclass(frozen=True, slots=True, kw_only=True)
class LeastScoreScored(ScoredRound):
    """A Least Score round scored: the round as played by those still in, whether the
    declaration was false, and whose running total was halved (a variant's ``halving``;
    Least Score's never is)."""

    played: LeastScoreRound
    false_declaration: bool
    halved: tuple[str, ...] = ()

    halving: ClassVar[bool] = False
    """Does the game halve totals (its rounds always say whose were, ``halved``)?"""

    @property
    def declarer(self) -> str:
        return self.played.declarer

    @property
    def values(self) -> Mapping[str, object]:
        return self.played.totals

    def to_json(self) -> JSONObject:
        played = self.played
        data: JSONObject = {"number": self.number, "dealer": self.dealer,
                          "declarer": played.declarer, "totals": dict(played.totals)}
        if played.hands:
            data["hands"] = {name: list(cards) for name, cards in played.hands.items()}
        data |= {"scores": dict(self.scores), "false_declaration": self.false_declaration,
                 "knocked_out": list(self.knocked_out)}
        if self.halved or self.halving:
            data["halved"] = list(self.halved)
        return data | played.carried_json()

    def caption(self) -> RoundCaption:
        declarer = self.declarer
        false = self.false_declaration
        return RoundCaption(
            role=declarer, sentence=_("{name} declared").format(name=declarer),
            failure=pgettext("a declaration that failed", "false") if false else "",
            failure_note=_("false declaration by {name}").format(name=declarer) if false else "",
            marked=declarer)

    def tallies(self) -> dict[str, dict[str, int]]:
        out = self.knocked_out
        totals = self.played.totals
        tallies = {name: {"deals": 1, "deals_survived": int(name not in out),
                          "knock_outs": int(name in out)}
                   for name in totals}
        declarer = self.declarer
        tallies[declarer] |= {
            "declarations": 1,
            "false_declarations": int(self.false_declaration),
            "declaring_hand": totals[declarer],
        }
        return tallies


class LeastScoreTable:
    """Least Score's table. A variant subclasses it and overrides what differs: its
    ``name``, ``title`` and default house rules (``defaults``); the rest is inherited."""

    name = "least-score"
    title = "Least Score"
    defaults = Options()
    """The house rules a session gets where ``score new`` names none."""
    scored_type: ClassVar[type[LeastScoreScored]] = LeastScoreScored
    """The game's scored round (a variant's says its calls in its own words)."""
    min_players = rules.MIN_PLAYERS
    max_players = rules.MAX_PLAYERS
    target_label = "limit"
    lower_is_better = True

    # -- options ---------------------------------------------------------------

    def default_options(self) -> JSONObject:
        return dict(self.defaults.as_dict())

    def check_options(self, options: Mapping[str, object]) -> JSONObject:
        return dict(self.parse_options(options).as_dict())

    def parse_options(self, options: Mapping[str, object]) -> Options:
        """The house rules as the typed Options (parsed once per set of values), this
        table's defaults where ``options`` names none."""
        if self.defaults != _STANDARD:
            options = {**self.default_options(), **options}
        return _parse_options(options)

    def check_players(self, players: Sequence[str]) -> None:
        if not rules.MIN_PLAYERS <= len(players) <= rules.MAX_PLAYERS:
            raise EntryError(_("Least Score takes {low} to {high} players, not {n}").format(
                low=rules.MIN_PLAYERS, high=rules.MAX_PLAYERS, n=len(players)))

    def target(self, options: Options) -> int:
        return options.limit

    # -- entering a round ----------------------------------------------------

    def make_round(
        self,
        players: Sequence[str],
        options: Options,
        standings: Standings,
        entry: RoundEntry,
    ) -> LeastScoreRound:
        others = [key for key in entry.given() if key != "declarer"]
        if others:
            raise MalformedValue(_("{flag} is not for Least Score: a Least Score round takes "
                               "--declarer NAME").format(flag=option_flag(others[0])))
        typed = entry.text("declarer")
        if typed is None:
            raise EntryError(_("say who declared: --declarer NAME, one of {players}").format(
                players=", ".join(standings.still_in)))
        declarer = match_player(players, typed, _("declarer"))
        values = collect_values(players, entry, _("total"))
        totals: dict[str, int] = {}
        hands: dict[str, list[str]] = {}
        for name, raw in values.items():
            totals[name], cards = _typed_hand(name, raw, options.jokers)
            if cards is not None:
                hands[name] = cards
        if declarer in totals:
            _check_declaring_hand(declarer, totals[declarer], options)
        return LeastScoreRound(declarer=declarer, totals=totals, hands=hands)

    # -- entering a round at a terminal (RoundQuestions) ---------------------------

    def check_given(self, players: Sequence[str], options: Options,
                    standings: Standings, entry: RoundEntry) -> None:
        typed = entry.text("declarer")
        declarer = None if typed is None else _declarer_still_in(players, standings, typed,
                                                                 match_player)
        hands: dict[str, list[str]] = {}
        for name, raw in collect_values(players, entry, _("total")).items():
            _still_in(standings, name)
            total, cards = _typed_hand(name, raw, options.jokers)
            _check_hand(name, total, cards, options.jokers)
            if name == declarer:
                _check_declaring_hand(name, total, options)
            if cards is not None:
                hands[name] = cards
        _check_no_card_twice(hands, options.jokers)

    def next_question(self, players: Sequence[str], options: Options,
                      standings: Standings, entry: RoundEntry,
                      previous: RoundEntry | None = None) -> Question | None:
        before = {} if previous is None else dict(previous.values)
        if entry.text("declarer") is None:
            def declarer(text: str) -> RoundEntry:
                name = _declarer_still_in(players, standings, text, match_at_prompt)
                return entry.with_fields(declarer=name)

            return Question(_("Who declared? ({players})").format(
                                players=", ".join(standings.still_in)), declarer,
                            None if previous is None else previous.text("declarer"))
        entered = collect_values(players, entry, _("total"))
        for name in standings.still_in:
            if name in entered:
                continue

            def hand(text: str, name: str = name) -> RoundEntry:
                total, cards = _typed_hand(name, text, options.jokers)
                _check_hand(name, total, cards, options.jokers)
                if same_name(name, str(entry.text("declarer"))):
                    _check_declaring_hand(name, total, options)
                if cards is not None:
                    _check_no_card_twice({**_entered_hands(entered, options.jokers),
                                          name: cards}, options.jokers)
                return entry.with_values((*entry.values, (name, text.strip())))

            return Question(_("{name}'s hand total or cards").format(name=name), hand,
                            before.get(name))
        return None

    def entry_of(self, round_: Round) -> RoundEntry:
        own = _own(round_)
        values = tuple((name, ",".join(own.hands[name]) if name in own.hands else str(total))
                       for name, total in own.totals.items())
        return RoundEntry(values, declarer=own.declarer)

    # -- recomputing -----------------------------------------------------------

    def standings(
        self,
        players: Sequence[str],
        options: Options,
        first_dealer: str | None,
        rounds: Sequence[Round],
        roster: Sequence[RosterChange] = (),
    ) -> Standings:
        """Recompute from the rounds, with the players who joined and left between them
        (``roster``): a late player is dealt in from the next deal, a leaver's rounds stay
        and the deal passes over them; a player whose total goes over the limit is out."""

        def score(number: int, entered: Round, played: Played) -> LeastScoreScored:
            return self.scored_round(number, _own(entered), players, played, options)

        def already_over(number: int, played: Played) -> str:
            return _("the game was already over after round {number} ({winners} won)").format(
                number=number - 1, winners=_(" and ").join(_winners(played, options) or []))

        played = play_rounds(players, first_dealer, rounds, roster, rules.MIN_PLAYERS,
                             rules.MAX_PLAYERS, score=score,
                             over=lambda played, number: _winners(played, options) is not None,
                             already_over=already_over)
        dealer, still_in = played.dealer, played.still_in
        if played.finished or dealer is None:
            return played.standings(_winners(played, options) or [])
        starter = rules.first_player(players, dealer, still_in)
        return played.standings(
            next_deal=_("Next deal: {dealer} deals, {starter} plays first.").format(
                dealer=dealer, starter=starter),
            next_starter=_("{starter} plays first.").format(starter=starter))

    def scored_round(self, number: int, round_: LeastScoreRound, players: Sequence[str],
                     played: Played, opts: Options) -> LeastScoreScored:
        """One round checked and scored against the night so far: each total after it (a
        variant's halving), and who it knocked out (over the limit)."""
        still_in, running = played.still_in, played.running
        _check_round(round_, players, still_in, played.knocked, played.dealer, opts.jokers)
        _check_declaring_hand(round_.declarer, round_.totals[round_.declarer], opts)
        totals: dict[str, int] = {name: round_.totals[name] for name in still_in}
        score = rules.score_declaration(totals, round_.declarer, opts)
        scores = dict(score.scores)
        after: dict[str, int] = {}
        halved: list[str] = []
        for name, points in score.scores.items():
            after[name] = rules.new_total(running[name], points, opts)
            if after[name] != running[name] + points:
                halved.append(name)
                scores[name] = after[name] - running[name]
        out = [name for name in rules.knocked_out(
            {name: after.get(name, total) for name, total in running.items()}, opts.limit)
            if name in still_in]
        hands = {name: round_.hands[name] for name in still_in if name in round_.hands}
        in_deal = round_ if list(round_.totals) == still_in and list(round_.hands) == list(
            hands) else LeastScoreRound(declarer=round_.declarer, totals=totals, hands=hands,
                                        note=round_.note, recorded=round_.recorded)
        return self.scored_type(number=number, dealer=played.dealer, scores=scores,
                                knocked_out=tuple(out), played=in_deal,
                                false_declaration=score.false_declaration,
                                halved=tuple(halved))

    def round_from_json(self, data: JSONRecord) -> LeastScoreRound:
        return LeastScoreRound.from_json(data)

    def round_from_summary(self, summary_round: JSONRecord) -> LeastScoreRound:
        missing = [key for key in ("declarer", "totals") if key not in summary_round]
        if missing:
            raise EntryError(_("a Least Score round needs 'declarer' and 'totals' ({error})")
                             .format(error=repr(missing[0]))) from None
        return LeastScoreRound.from_json(summary_round)

    # -- across sessions -------------------------------------------------------

    stat_figures: tuple[StatFigure, ...] = (
        StatFigure("declarations", N_("Declared"), N_("declarations made"), "declarations"),
        StatFigure("false_declaration_rate", N_("False"), N_("the share of them that were false"),
                   "false_declarations", "declarations", percent=True),
        StatFigure("average_declaring_hand", N_("Hand"), N_("the average hand when declaring"),
                   "declaring_hand", "declarations"),
        StatFigure("knock_outs", N_("Outs"), N_("times knocked out"), "knock_outs"),
        StatFigure("deals_survived", N_("Survived"), N_("deals come through still in"),
                   "deals_survived"),
    )

    def placings(self, players: Sequence[str], options: Options,
                 standings: Standings) -> dict[str, int]:
        """Last standing: the winner first, then the knocked-out players by how long they
        lasted (out in the same deal: a shared place). First out: the lowest total first."""
        if options.end is End.FIRST_OUT:
            return competition_ranks({name: standings.totals[name] for name in players})
        out_in_round = {name: summary.number for summary in standings.rounds
                        for name in summary.knocked_out}
        return competition_ranks({name: -out_in_round.get(name, len(standings.rounds) + 1)
                                  for name in players})

    def widest_round(self, players: Sequence[str], options: Options
                     ) -> LeastScoreScored:
        """The widest round the grid can show: the longest name declared falsely and was
        knocked out, with the highest score a deal gives (the penalty on a full hand)."""
        longest = max(players, key=len)
        highest = options.penalty + rules.MAX_HAND_TOTAL
        played = LeastScoreRound(declarer=longest,
                                 totals=dict.fromkeys(players, rules.MAX_HAND_TOTAL))
        return LeastScoreScored(number=1, dealer=longest, scores=dict.fromkeys(players, highest),
                                knocked_out=tuple(players), played=played,
                                false_declaration=True)

    # -- the rules in words -------------------------------------------------------

    rules_folder = texts.RULES_FOLDER

    def house_rules(self, options: Options, language: Language) -> list[HouseRule]:
        return texts.house_rules(options, language, self.defaults)


def _parse(options: Mapping[str, object]) -> Options:
    unknown = set(options) - set(Options().as_dict())
    if unknown:
        raise EntryError(_("Least Score has no option {option}").format(
            option=repr(sorted(unknown)[0])))
    defaults = Options()
    try:
        return Options(
            limit=option_whole_number(options.get("limit", defaults.limit), _("the limit")),
            tie=option_choice(Tie, options.get("tie", defaults.tie), "tie"),
            end=option_choice(End, options.get("end", defaults.end), "end"),
            two_pairs=option_choice(TwoPairs, options.get("two_pairs", defaults.two_pairs),
                                    "two-pairs"),
        )
    except ValueError as error:
        raise EntryError(str(error)) from None


_parse_options = parsed_once(_parse)
_STANDARD = Options()


def _own(round_: Round) -> LeastScoreRound:
    if not isinstance(round_, LeastScoreRound):
        raise EntryError(_("the round has no hand totals"))
    return round_


def _winners(played: Played, opts: Options) -> list[str] | None:
    """The winners once the game is over (one player left, or the first knock-out
    with ``end`` first-out), else None; a player who left wins nothing."""
    return rules.winners({name: total for name, total in played.running.items()
                          if name not in played.left}, played.still_in, bool(played.knocked),
                         opts.end)


def _check_round(
    round_: LeastScoreRound,
    players: Sequence[str],
    still_in: Sequence[str],
    knocked: Sequence[str],
    dealer: str | None,
    jokers: int = 0,
) -> None:
    declarer = round_.declarer
    if declarer not in players:
        raise EntryError(_("the declarer {name} is not a player: {players}").format(
            name=repr(declarer), players=", ".join(players)))
    if declarer in knocked:
        raise EntryError(_("{name} is knocked out and can't declare: the players still in "
                           "are {players}").format(name=declarer, players=", ".join(still_in)))
    if declarer not in still_in:
        raise EntryError(_("{name} is not in this deal and can't declare: the players in it "
                           "are {players}").format(name=declarer, players=", ".join(still_in)))
    totals = round_.totals
    for name in totals:
        if name in knocked:
            raise EntryError(_("{name} is knocked out and has no hand: enter a total for "
                               "{players}").format(name=name, players=", ".join(still_in)))
    check_participants(totals, still_in, _("total"))
    hands = round_.hands
    for name, total in totals.items():
        _check_hand(name, total, hands.get(name), jokers)
    unknown_hands = [name for name in hands if name not in totals]
    if unknown_hands:
        raise EntryError(_("{name} has cards but is not in this deal").format(
            name=unknown_hands[0]))
    _check_no_card_twice(hands, jokers)
    check_deal_dealer(round_, dealer)


def _check_declaring_hand(declarer: str, total: object, options: Options) -> None:
    """A variant's ``declare_at``: a declarer's hand no higher (Least Score: any hand)."""
    if isinstance(total, int) and total <= rules.MAX_HAND_TOTAL \
            and not rules.may_declare(total, options):
        raise EntryError(_("{name} declared with {total}: a player may declare only with "
                           "{most} or less").format(name=declarer, total=total,
                                                    most=options.declare_at))


def _still_in(standings: Standings, name: str) -> None:
    if name in standings.knocked_out:
        raise EntryError(_("{name} is knocked out and has no hand: enter a total for "
                           "{players}").format(name=name, players=", ".join(standings.still_in)))
    if name not in standings.still_in:
        check_participants([name], standings.still_in, _("total"))


def _declarer_still_in(players: Sequence[str], standings: Standings, typed: str,
                       match: Callable[[Sequence[str], str, str], str]) -> str:
    name = match(players, typed, _("declarer"))
    if name in standings.knocked_out:
        raise EntryError(_("{name} is knocked out and can't declare: the players still in "
                           "are {players}").format(name=name,
                                                   players=", ".join(standings.still_in)))
    if name not in standings.still_in:
        raise EntryError(_("{name} is not in this deal and can't declare: the players in it "
                           "are {players}").format(name=name,
                                                   players=", ".join(standings.still_in)))
    return name


def _typed_hand(name: str, raw: str, jokers: int = 0) -> tuple[int, list[str] | None]:
    """A player's hand as typed: its total, and its cards when cards were typed (a joker
    only in a game played with ``jokers``)."""
    text = raw.strip()
    if looks_like_whole_number(text):
        return parse_whole_number(text, _("{name}'s total").format(name=name)), None
    try:
        cards = parse_cards(text, allow_joker=jokers > 0)
    except CardError as error:
        raise EntryError(_("{name}'s hand: {error}").format(name=name, error=error)) from None
    total = rules.hand_value(cards) if 1 <= len(cards) <= rules.HAND_SIZE else 0
    return total, format_cards(cards)  # a wrong count is refused by _check_hand


def _check_hand(name: str, total: object, hand: Sequence[str] | None, jokers: int = 0) -> None:
    """A hand at the end of a deal: 1 to 5 cards adding up to its total, 1 to 50 (with
    ``jokers``, each worth 0, 0 to 50: a hand of jokers is 0)."""
    if hand is not None:
        try:
            cards = parse_cards(hand, allow_joker=jokers > 0)
        except CardError as error:
            raise EntryError(_("{name}'s hand: {error}").format(name=name, error=error)) \
                from None
        if not 1 <= len(cards) <= rules.HAND_SIZE:
            raise EntryError(ngettext(
                "{name} has {n} card: a hand at the end of a deal holds 1 to {most} cards",
                "{name} has {n} cards: a hand at the end of a deal holds 1 to {most} cards",
                len(cards)).format(name=name, n=len(cards), most=rules.HAND_SIZE))
        if rules.hand_value(cards) != total:
            raise EntryError(_("{name}'s cards add up to {sum}, not {total}").format(
                name=name, sum=rules.hand_value(cards), total=total))
    if jokers and type(total) is int and 0 <= total <= rules.MAX_HAND_TOTAL:
        return
    if not isinstance(total, int) or isinstance(total, bool) \
            or not 1 <= total <= rules.MAX_HAND_TOTAL:
        if jokers:
            raise EntryError(_("{name}'s total {total} is impossible: a hand is 1 to {cards} "
                               "cards worth 0 (a joker) to 10 each, so 0 to {most}").format(
                name=name, total=total, cards=rules.HAND_SIZE, most=rules.MAX_HAND_TOTAL))
        raise EntryError(_("{name}'s total {total} is impossible: a hand is 1 to {cards} "
                           "cards worth 1 to 10 each, so 1 to {most}").format(
            name=name, total=total, cards=rules.HAND_SIZE, most=rules.MAX_HAND_TOTAL))


def _entered_hands(values: Mapping[str, str], jokers: int = 0) -> dict[str, list[str]]:
    """The cards among typed values (totals have none)."""
    hands: dict[str, list[str]] = {}
    for name, raw in values.items():
        _total, cards = _typed_hand(name, raw, jokers)
        if cards is not None:
            hands[name] = cards
    return hands


def _check_no_card_twice(hands: Mapping[str, Sequence[str]], jokers: int = 0) -> None:
    """A deck has one of each card (and with ``jokers``, that many jokers, alike)."""
    all_cards = [card for name in hands for card in parse_cards(hands[name])]
    held = all_cards.count(JOKER)
    if held > jokers and jokers:
        raise EntryError(ngettext("the hands hold {held} jokers: the deck has {n} joker",
                                  "the hands hold {held} jokers: the deck has {n} jokers",
                                  jokers).format(held=held, n=jokers))
    for card in iter_duplicates(card for card in all_cards if not card.is_joker or not jokers):
        holders = [name for name in hands if card in parse_cards(hands[name])]
        if len(holders) == 1:
            raise EntryError(_("{card} is twice in {name}'s hand: a deck has one of each "
                               "card").format(card=card, name=holders[0]))
        raise EntryError(_("{card} is in both {first}'s and {second}'s hands: a deck has one "
                           "of each card").format(card=card, first=holders[0],
                                                  second=holders[1]))



class LeastScoreRoster(RosterRule[Options]):
    """Players joining and leaving a Least Score game (a variant's too: it inherits).

    A late player starts at the highest total still in (a common house rule: no better
    off than anyone at the table), or 0 before the first deal; a total given instead
    must be 0 up to the limit (over it, the player would be out before playing)."""

    def starting_total(self, table: TableGame[Options], options: Options,
                       standings: Standings) -> int:
        if not standings.rounds:
            return 0
        return max((standings.totals[name] for name in standings.still_in), default=0)

    def starting_words(self, table: TableGame[Options], options: Options,
                       standings: Standings, name: str, total: int) -> str:
        others = [standings.totals[other] for other in standings.still_in if other != name]
        if standings.rounds and others and total == max(others):
            return _("at {total}, the highest total still in").format(total=total)
        return super().starting_words(table, options, standings, name, total)

    def check_total(self, table: TableGame[Options], options: Options, total: int) -> None:
        limit = table.target(options)
        if not 0 <= total <= limit:
            raise EntryError(_("a late player's total must be 0 to the limit, {limit}, not "
                               "{total}: over it they would be knocked out before playing")
                             .format(limit=limit, total=total))

    def recompute(self, table: TableGame[Options], players: Sequence[str], options: Options,
                  first_dealer: str | None, rounds: Sequence[Round],
                  roster: Sequence[RosterChange]) -> Standings:
        if not isinstance(table, LeastScoreTable):
            raise EntryError(_("the round has no hand totals"))
        return table.standings(players, options, first_dealer, rounds, roster)
