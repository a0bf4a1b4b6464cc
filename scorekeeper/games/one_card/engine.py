"""One Card on the virtual deck: the state machine of one deal.

Modelled on OpenSpiel's games (``current_player``, ``legal_actions``, ``apply``,
a per-player observation), with the same API as the Least Score engine: a
:class:`Deal` holds the whole hidden state; a player (human or bot) only ever
gets a :class:`View`, which holds what that player may see at the table.

Every rule comes from :mod:`scorekeeper.games.one_card.rules`: the bidding
(:class:`rules.Bidding`), what may be played and why not (:func:`rules.legal_plays`,
:func:`rules.play_problem`), trump and the led suit (:func:`rules.trump_from_lead`,
:func:`rules.led_suit_of`), who wins a trick (:func:`rules.trick_winner`), the
downtown choice (:func:`rules.may_turn_downtown`) and the score
(:func:`rules.score_deal`, the same function the scorekeeper uses).

A deal runs through four phases: ``bidding`` (from left of the dealer), ``play``
(tricks; the high bidder's opening lead sets trump, a joker lead names trump),
``order`` (in a no-trump deal, right after a trick the joker won, its winner
chooses uptown or downtown; not asked after the last trick, when no trick is
left to play) and ``over`` (the One Card has gone to the winner of the last trick).

Randomness comes only from the ``random.Random`` passed to :meth:`Deal.new`. A
deal is saved as FORMAT.md's ``deal`` and ``actions`` (:meth:`Deal.to_record`) and
rebuilt from them exactly (:meth:`Deal.from_record` and :meth:`Deal.replay`).

Two leaner forms of the same deal work on card indices with int actions, for
simulations: :class:`SimDeal`, the position a bot searches (every hand filled in),
and :class:`LiveDeal`, a bots-only deal (``score simulate``) that keeps each player's
:class:`SeatView` current instead of building a :class:`View` for every decision.
Their lookup tables are built from the rules module (:func:`rules.effective_suit`,
:func:`rules.card_power`, :func:`rules.card_points`), they score through
:func:`rules.score_deal`, and the tests check both against :class:`Deal` move by move.

>>> import random
>>> deal = Deal.new(["Ann", "Bob", "Cy"], "Ann", random.Random(1), Options())
>>> deal.current_player, len(deal.view("Bob").hand), deal.legal_actions()[:2]
('Bob', 8, [Bid(amount=None), Bid(amount=7)])
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from scorekeeper.cards import SUITS, Card, CardError, Suit, parse_card, parse_suit
from scorekeeper.errors import IllegalAction
from scorekeeper.games.one_card import rules
from scorekeeper.games.one_card.rules import JokerRule, Options, Order

__all__ = [
    "BID0",
    "BIDDING",
    "DOWNTOWN",
    "JOKER_INDEX",
    "NAME0",
    "NO_TRUMP",
    "ORDER",
    "OVER",
    "PASS",
    "PLAY",
    "UPTOWN",
    "Action",
    "Bid",
    "ChooseOrder",
    "Deal",
    "DealInfo",
    "DealResult",
    "IllegalAction",
    "LiveDeal",
    "Phase",
    "Play",
    "SeatView",
    "SimDeal",
    "Trick",
    "View",
    "action_from_int",
    "action_from_record",
    "action_to_int",
    "card_index",
]


# ---------------------------------------------------------------------------
# Actions


@dataclass(frozen=True, slots=True)
class Bid:
    """Bid ``amount`` points, or pass (``amount=None``)."""

    amount: int | None

    def __str__(self) -> str:
        return "pass" if self.amount is None else f"bid {self.amount}"


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card``. ``suit`` is named only with a joker lead that names a suit: the
    bidder's opening lead (the suit is trump) or a lead in a no-trump deal."""

    card: Card
    suit: Suit | None = None

    def __str__(self) -> str:
        if self.suit is None:
            return f"play {self.card}"
        return f"play {self.card} naming {self.suit.english}"


@dataclass(frozen=True, slots=True)
class ChooseOrder:
    """After winning a trick with the joker in a no-trump deal: keep uptown or turn downtown."""

    order: Order

    def __str__(self) -> str:
        return f"order {self.order}"


Action = Bid | Play | ChooseOrder


class Phase(StrEnum):
    BIDDING = "bidding"
    PLAY = "play"
    ORDER = "order"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: who led, every play in order as ``(seat, card)``, the suit to
    follow, who won it and the points in it."""

    leader: int
    plays: tuple[tuple[int, Card], ...]
    led_suit: Suit
    winner: int
    points: int

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for _, card in self.plays)


# ---------------------------------------------------------------------------
# What a player sees


@dataclass(frozen=True, slots=True)
class View:
    """What ``player`` may see of a deal, and nothing more.

    Sequences indexed by seat follow ``players`` (seating order). ``bids`` is the
    bidding so far as ``(seat, bid)``, ``None`` for a pass. ``trick`` is the trick
    being played as ``(seat, card)``; ``led_suit`` the suit to follow in it (``None``
    before its lead). ``voids[seat]`` are the suits that player was seen not to
    follow (in a trump deal, void in trump includes the joker). ``points_taken`` are
    the points in the tricks each player has taken. ``one_card`` is shown only once
    the deal is over (the winner of the last trick has taken it face up).
    """

    player: str
    seat: int
    players: tuple[str, ...]
    dealer: str
    dealer_seat: int
    options: Options
    hand: tuple[Card, ...]
    phase: Phase
    bids: tuple[tuple[int, int | None], ...]
    high_bid: int | None
    high_bidder: int | None
    bidder: int | None
    bid: int | None
    no_trump: bool
    trump: Suit | None
    order: Order
    tricks: tuple[Trick, ...]
    trick: tuple[tuple[int, Card], ...]
    led_suit: Suit | None
    voids: tuple[frozenset[Suit], ...]
    points_taken: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    num_tricks: int
    current_seat: int | None
    legal: tuple[Action, ...]
    one_card: Card | None

    @property
    def current_player(self) -> str | None:
        return None if self.current_seat is None else self.players[self.current_seat]

    @property
    def my_turn(self) -> bool:
        return self.current_seat == self.seat

    @property
    def num_players(self) -> int:
        return len(self.players)

    def legal_actions(self) -> list[Action]:
        """The player's legal actions (empty when it is not their turn)."""
        return list(self.legal)


# ---------------------------------------------------------------------------
# The result


@dataclass(frozen=True, slots=True)
class DealResult:
    """A finished deal: the points each player took (the One Card included) and the
    scores from :func:`rules.score_deal`, keyed by player name."""

    dealer: str
    bidder: str | None
    bid: int | None
    trump: Suit | None
    points: dict[str, int]
    scores: dict[str, int]
    bid_failed: bool
    one_card_to: str


# ---------------------------------------------------------------------------
# Record helpers


def _card(text: Any, rule: JokerRule, what: str) -> Card:
    if not isinstance(text, str):
        raise ValueError(f"{what}: expected a card such as 10H, not {text!r}")
    try:
        card = parse_card(text)
    except CardError as exc:
        raise ValueError(f"{what}: {exc}") from None
    if card not in _INDEX[rule]:
        raise ValueError(f"{what}: {card} is not a card of the One Card deck ({rule})")
    return card


def action_from_record(record: Mapping[str, Any], rule: JokerRule) -> Action:
    """The action of one FORMAT.md ``actions`` entry (``player`` is checked by the caller)."""
    if "bid" in record:
        amount = record["bid"]
        if amount is not None and (isinstance(amount, bool) or not isinstance(amount, int)):
            raise ValueError(f"a bid is a whole number or null (a pass), not {amount!r}")
        return Bid(amount)
    if "play" in record:
        card = _card(record["play"], rule, "play")
        suit_text = record.get("suit")
        if suit_text is None:
            return Play(card)
        if not isinstance(suit_text, str):
            raise ValueError(f"suit: expected S, H, D or C, not {suit_text!r}")
        try:
            return Play(card, parse_suit(suit_text))
        except CardError as exc:
            raise ValueError(f"suit: {exc}") from None
    if "order" in record:
        try:
            return ChooseOrder(Order(record["order"]))
        except ValueError:
            raise ValueError(
                f"order: expected 'uptown' or 'downtown', not {record['order']!r}"
            ) from None
    raise ValueError(f"not a One Card action: {dict(record)!r}")


# ---------------------------------------------------------------------------
# The deal


class Deal:
    """One deal of One Card, from the bidding to the One Card.

    ``players`` are in seating order; "to the left" is the next in this order.
    ``hands`` are by seat, in the order dealt.
    """

    __slots__ = (
        "_actions",
        "_bidding",
        "_current",
        "_dealer",
        "_hands",
        "_initial",
        "_leader",
        "_led",
        "_n",
        "_no_trump",
        "_one_card_to",
        "_order",
        "_phase",
        "_size",
        "_taken",
        "_trick",
        "_tricks",
        "_trump",
        "_voids",
        "dealer",
        "one_card",
        "options",
        "players",
    )

    def __init__(
        self,
        players: Sequence[str],
        dealer: str,
        hands: Sequence[Sequence[Card]],
        one_card: Card,
        options: Options,
    ) -> None:
        """A deal as dealt. Prefer :meth:`new` or :meth:`from_record`."""
        self.players: tuple[str, ...] = tuple(players)
        n = self._n = len(self.players)
        rules.check_players(n)
        if len({p.casefold() for p in self.players}) != n:
            raise ValueError("player names must be unique")
        if dealer not in self.players:
            raise ValueError(f"the dealer {dealer} is not a player in this deal")
        if len(hands) != n:
            raise ValueError("one hand per player is needed")
        size = self._size = rules.hand_size(n)
        for name, hand in zip(self.players, hands, strict=True):
            if len(hand) != size:
                raise ValueError(f"{name} must be dealt {size} cards, not {len(hand)}")
        every = [card for hand in hands for card in hand] + [one_card]
        deck = rules.deck(options.joker)
        if len(every) != len(deck) or set(every) != set(deck):
            raise ValueError("the hands and the One Card must hold the 25 cards once each")
        self.dealer = dealer
        self.options = options
        self.one_card = one_card
        self._dealer = self.players.index(dealer)
        self._hands: list[list[Card]] = [list(hand) for hand in hands]
        self._bidding = rules.Bidding.start(n, self._dealer)
        self._phase = Phase.BIDDING
        self._current: int | None = self._bidding.to_act
        self._no_trump = False
        self._trump: Suit | None = None
        self._order = Order.UPTOWN
        self._tricks: list[Trick] = []
        self._trick: list[tuple[int, Card]] = []
        self._led: Suit | None = None
        self._leader: int | None = None
        self._taken = [0] * n
        self._voids: list[set[Suit]] = [set() for _ in range(n)]
        self._one_card_to: int | None = None
        self._actions: list[dict[str, Any]] = []
        self._initial: dict[str, Any] = {
            "dealer": dealer,
            "hands": {
                name: [str(c) for c in hand]
                for name, hand in zip(self.players, hands, strict=True)
            },
            "one_card": str(one_card),
        }

    # -- construction ------------------------------------------------------

    @classmethod
    def new(
        cls, players: Sequence[str], dealer: str, rng: random.Random, options: Options
    ) -> Deal:
        """Shuffle the 25 cards with ``rng`` and deal them (:func:`rules.split_deal`):
        a hand per player (12, 8 or 6 cards) and the One Card, face down."""
        cards = list(rules.deck(options.joker))
        rng.shuffle(cards)
        hands, one_card = rules.split_deal(cards, len(players))
        return cls(players, dealer, hands, one_card, options)

    @classmethod
    def from_record(cls, deal: Mapping[str, Any], options: Options) -> Deal:
        """The deal as FORMAT.md records it (``dealer``, ``hands``, ``one_card``).

        The players are the keys of ``hands``, in seating order.
        """
        try:
            dealer = deal["dealer"]
            hands = deal["hands"]
            one_text = deal["one_card"]
        except KeyError as exc:
            raise ValueError(f"the deal has no {exc.args[0]!r}") from None
        if not isinstance(hands, Mapping) or not isinstance(dealer, str):
            raise ValueError("the deal needs a dealer name and a hand per player")
        rule = options.joker
        players = [str(name) for name in hands]
        cards: list[list[Card]] = []
        for name in players:
            items = hands[name]
            if not isinstance(items, list | tuple):
                raise ValueError(f"{name}'s hand: expected a list of cards, not {items!r}")
            cards.append([_card(item, rule, f"{name}'s hand") for item in items])
        return cls(players, dealer, cards, _card(one_text, rule, "one_card"), options)

    def replay(self, actions: Iterable[Mapping[str, Any]]) -> None:
        """Apply FORMAT.md ``actions`` in order, checking each (``IllegalAction`` if not)."""
        for number, record in enumerate(actions, 1):
            player = record.get("player")
            current = self.current_player
            if player != current:
                raise IllegalAction(
                    f"action {number}: it is {current or 'nobody'}'s turn, not {player}'s"
                )
            try:
                action = action_from_record(record, self.options.joker)
            except ValueError as exc:
                raise IllegalAction(f"action {number}: {exc}") from None
            try:
                self.apply(action)
            except IllegalAction as exc:
                raise IllegalAction(f"action {number} ({player}): {exc}") from None

    # -- state -------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def current_seat(self) -> int | None:
        return self._current

    @property
    def current_player(self) -> str | None:
        """Whose turn it is, or ``None`` once the deal is over."""
        return None if self._current is None else self.players[self._current]

    @property
    def is_over(self) -> bool:
        return self._phase is Phase.OVER

    @property
    def bidder(self) -> int | None:
        """The seat that won the bidding (``None`` while bidding or in a no-trump deal)."""
        return self._bidding.winner

    @property
    def bid(self) -> int | None:
        return self._bidding.high_bid if self._bidding.winner is not None else None

    @property
    def trump(self) -> Suit | None:
        return self._trump

    @property
    def order(self) -> Order:
        return self._order

    @property
    def no_trump(self) -> bool:
        return self._no_trump

    @property
    def tricks(self) -> tuple[Trick, ...]:
        return tuple(self._tricks)

    def hand(self, player: str) -> tuple[Card, ...]:
        return tuple(self._hands[self.players.index(player)])

    def _naming_lead(self) -> bool:
        """Would a joker lead now name a suit (opening lead of a trump deal, or no trump)?"""
        return self._no_trump or self._trump is None

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to act (empty once the deal is over)."""
        phase = self._phase
        if phase is Phase.BIDDING:
            return [Bid(b) for b in self._bidding.legal_bids()]
        if phase is Phase.ORDER:
            return [ChooseOrder(Order.UPTOWN), ChooseOrder(Order.DOWNTOWN)]
        if phase is Phase.OVER:
            return []
        assert self._current is not None
        rule = self.options.joker
        hand = self._hands[self._current]
        leading = not self._trick
        cards = rules.legal_plays(hand, None if leading else self._led, self._trump, rule)
        naming = leading and self._naming_lead()
        out: list[Action] = []
        for card in cards:
            if naming and rules.is_joker(card, rule):
                out.extend(Play(card, suit) for suit in SUITS)
            else:
                out.append(Play(card))
        return out

    def view(self, player: str) -> View:
        """What ``player`` may see: never another hand, never the One Card before the end."""
        seat = self.players.index(player)
        bidding = self._bidding
        current = self._current
        legal = tuple(self.legal_actions()) if current == seat else ()
        return View(
            player=player,
            seat=seat,
            players=self.players,
            dealer=self.dealer,
            dealer_seat=self._dealer,
            options=self.options,
            hand=tuple(self._hands[seat]),
            phase=self._phase,
            bids=bidding.history,
            high_bid=bidding.high_bid,
            high_bidder=bidding.high_bidder,
            bidder=self.bidder,
            bid=self.bid,
            no_trump=self._no_trump,
            trump=self._trump,
            order=self._order,
            tricks=tuple(self._tricks),
            trick=tuple(self._trick),
            led_suit=self._led if self._trick else None,
            voids=tuple(frozenset(v) for v in self._voids),
            points_taken=tuple(self._taken),
            hand_sizes=tuple(len(h) for h in self._hands),
            num_tricks=self._size,
            current_seat=current,
            legal=legal,
            one_card=self.one_card if self._phase is Phase.OVER else None,
        )

    # -- playing -----------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Play ``action`` for the current player; ``IllegalAction`` (state unchanged) if
        the rules refuse it."""
        phase = self._phase
        if phase is Phase.OVER:
            raise IllegalAction("the deal is over")
        seat = self._current
        assert seat is not None
        if isinstance(action, Bid):
            if phase is not Phase.BIDDING:
                raise IllegalAction("the bidding is over: play a card")
            self._apply_bid(seat, action.amount)
        elif isinstance(action, Play):
            if phase is Phase.BIDDING:
                raise IllegalAction("the bidding is not over: bid or pass")
            if phase is Phase.ORDER:
                raise IllegalAction("choose uptown or downtown before the next lead")
            self._apply_play(seat, action.card, action.suit)
        elif isinstance(action, ChooseOrder):
            if phase is not Phase.ORDER:
                raise IllegalAction(
                    "the order is chosen only by the player who just won a trick with the "
                    "joker in a no-trump deal"
                )
            if not isinstance(action.order, Order):
                raise IllegalAction("choose 'uptown' or 'downtown'")
            self._order = action.order
            self._phase = Phase.PLAY
            self._actions.append({"player": self.players[seat], "order": str(action.order)})
        else:
            raise IllegalAction(f"not a One Card action: {action!r}")

    def _apply_bid(self, seat: int, amount: int | None) -> None:
        bidding = self._bidding
        reason = bidding.problem(amount)
        if reason is not None:
            raise IllegalAction(reason)
        bidding = self._bidding = bidding.apply(amount)
        self._actions.append({"player": self.players[seat], "bid": amount})
        if not bidding.is_over:
            self._current = bidding.to_act
            return
        self._phase = Phase.PLAY
        if bidding.no_bid:
            self._no_trump = True
            self._current = rules.no_bid_leader(self._dealer, self._n)
        else:
            self._current = bidding.winner

    def _apply_play(self, seat: int, card: Card, named: Suit | None) -> None:
        rule = self.options.joker
        hand = self._hands[seat]
        record: dict[str, Any] = {"player": self.players[seat], "play": str(card)}
        trump = self._trump
        if not self._trick:
            reason = rules.play_problem(card, hand, None, trump, rule)
            if reason is not None:
                raise IllegalAction(reason)
            opening = not self._no_trump and trump is None
            try:
                if opening:
                    trump = rules.trump_from_lead(card, rule, named)
                    led = trump
                else:
                    led = rules.led_suit_of(card, trump, rule, named)
            except ValueError as exc:
                raise IllegalAction(str(exc)) from None
            if named is not None and self._naming_lead():
                record["suit"] = named.value
            self._trump = trump
            self._led = led
            self._leader = seat
        else:
            if named is not None:
                raise IllegalAction("only the player who leads the joker names a suit")
            following = self._led
            assert following is not None
            reason = rules.play_problem(card, hand, following, trump, rule)
            if reason is not None:
                raise IllegalAction(reason)
            if rules.effective_suit(card, trump, rule) is not following:
                self._voids[seat].add(following)
        hand.remove(card)
        self._trick.append((seat, card))
        self._actions.append(record)
        if len(self._trick) < self._n:
            self._current = (seat + 1) % self._n
            return
        self._finish_trick()

    def _finish_trick(self) -> None:
        rule = self.options.joker
        led, leader = self._led, self._leader
        assert led is not None and leader is not None
        plays = tuple(self._trick)
        cards = [card for _, card in plays]
        winner = plays[rules.trick_winner(cards, led, self._trump, self._order, rule)][0]
        points = rules.trick_points(cards, rule)
        self._taken[winner] += points
        self._tricks.append(Trick(leader, plays, led, winner, points))
        self._trick = []
        self._led = None
        self._leader = None
        self._current = winner
        if len(self._tricks) == self._size:
            self._taken[winner] += rules.card_points(self.one_card, rule)
            self._one_card_to = winner
            self._phase = Phase.OVER
            self._current = None
        elif rules.may_turn_downtown(cards, self._trump, self._order, rule):
            self._phase = Phase.ORDER

    # -- the end -----------------------------------------------------------

    def result(self) -> DealResult:
        """The points taken and the scores (through :func:`rules.score_deal`)."""
        if self._phase is not Phase.OVER or self._one_card_to is None:
            raise ValueError("the deal is not over")
        bidder, bid = self.bidder, self.bid
        score = rules.score_deal(self._taken, bidder, bid)
        names = self.players
        return DealResult(
            dealer=self.dealer,
            bidder=None if bidder is None else names[bidder],
            bid=bid,
            trump=self._trump,
            points=dict(zip(names, score.points, strict=True)),
            scores=dict(zip(names, score.scores, strict=True)),
            bid_failed=score.bid_failed,
            one_card_to=names[self._one_card_to],
        )

    def to_record(self) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """FORMAT.md's ``deal`` and ``actions`` (copies; card strings, player names)."""
        initial = self._initial
        deal = {
            "dealer": initial["dealer"],
            "hands": {name: list(cards) for name, cards in initial["hands"].items()},
            "one_card": initial["one_card"],
        }
        return deal, [dict(record) for record in self._actions]

    def round_record(self) -> dict[str, Any]:
        """The finished deal as a FORMAT.md One Card round of a virtual session, without
        ``number`` and ``scores`` (the session adds them):
        ``{"dealer", "bidder", "bid", "trump", "points", "deal", "actions"}``."""
        result = self.result()
        deal, actions = self.to_record()
        return {
            "dealer": result.dealer,
            "bidder": result.bidder,
            "bid": result.bid,
            "trump": None if result.trump is None else result.trump.value,
            "points": dict(result.points),
            "deal": deal,
            "actions": actions,
        }


# ---------------------------------------------------------------------------
# The fast deal on card indices
#
# A card is its index in ``rules.deck(rule)``: suit-major (spades, hearts, diamonds,
# clubs), 9 10 J Q K A within a suit, the joker card last (24), under both joker rules.
# Actions are ints: 0..24 play a card; NAME0 + s leads the joker naming suit s;
# UPTOWN / DOWNTOWN choose the order; PASS; BID0 + b bids b.

JOKER_INDEX = 24
NO_TRUMP = 4
NAME0 = 25
UPTOWN = 29
DOWNTOWN = 30
PASS = 31
BID0 = 32

BIDDING, PLAY, ORDER, OVER = 0, 1, 2, 3
"""The phases of :class:`SimDeal` and :class:`DealInfo`."""
_PHASE_OF = {Phase.BIDDING: BIDDING, Phase.PLAY: PLAY, Phase.ORDER: ORDER, Phase.OVER: OVER}
_ORDERS = (Order.UPTOWN, Order.DOWNTOWN)
_SUIT_INDEX: dict[Suit, int] = {suit: i for i, suit in enumerate(SUITS)}
_INDEX: dict[JokerRule, dict[Card, int]] = {
    rule: {card: i for i, card in enumerate(rules.deck(rule))} for rule in JokerRule
}

#: Suit index of each card (the joker card: -1).
SUIT_OF: tuple[int, ...]
#: FOLLOW[trump][led][card]: the card follows ``led`` (trump 0..3, or NO_TRUMP).
FOLLOW: tuple[tuple[tuple[bool, ...], ...], ...]
#: POWER[trump][order][led][card]: the card's power in the trick (order 0 uptown, 1 downtown).
POWER: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]
#: Points of each card.
POINTS: tuple[int, ...]


def _build_tables() -> None:
    global SUIT_OF, FOLLOW, POWER, POINTS
    tables = []
    for rule in JokerRule:
        cards = rules.deck(rule)
        if len(cards) != 25 or not rules.is_joker(cards[JOKER_INDEX], rule):
            raise AssertionError("the One Card deck must be 24 suit cards then the joker")
        suit_of = tuple(
            -1 if i == JOKER_INDEX or c.suit is None else _SUIT_INDEX[c.suit]
            for i, c in enumerate(cards)
        )
        follow = tuple(
            tuple(
                tuple(rules.effective_suit(c, trump, rule) is led for c in cards)
                for led in SUITS
            )
            for trump in (*SUITS, None)
        )
        power = tuple(
            tuple(
                tuple(
                    tuple(
                        rules.card_power(
                            c, led, trump, order if trump is None else Order.UPTOWN, rule
                        )
                        for c in cards
                    )
                    for led in SUITS
                )
                for order in _ORDERS
            )
            for trump in (*SUITS, None)
        )
        points = tuple(rules.card_points(c, rule) for c in cards)
        tables.append((suit_of, follow, power, points))
    if any(t != tables[0] for t in tables):
        raise AssertionError("the joker rules must differ only in which card is the joker")
    SUIT_OF, FOLLOW, POWER, POINTS = tables[0]


_build_tables()

_LOWEST = {n: rules.lowest_bid(n) for n in range(rules.MIN_PLAYERS, rules.MAX_PLAYERS + 1)}
_SIZES = {n: rules.hand_size(n) for n in range(rules.MIN_PLAYERS, rules.MAX_PLAYERS + 1)}
_NO_BID_LEADER_STEP = {
    n: rules.no_bid_leader(0, n) for n in range(rules.MIN_PLAYERS, rules.MAX_PLAYERS + 1)
}
_MAX_BID = rules.MAX_BID
_CALLS: dict[int, tuple[int, ...]] = {
    low: (PASS, *range(BID0 + low, BID0 + _MAX_BID + 1)) for low in range(_MAX_BID + 2)
}
"""The calls open when the lowest bid allowed is ``low``: pass, then the bids, lowest first."""


def card_index(card: Card, rule: JokerRule) -> int:
    """The index of ``card`` in ``rules.deck(rule)``."""
    return _INDEX[rule][card]


def action_to_int(action: Action, rule: JokerRule) -> int:
    """The :class:`SimDeal` int of an action."""
    if isinstance(action, Bid):
        return PASS if action.amount is None else BID0 + action.amount
    if isinstance(action, ChooseOrder):
        return UPTOWN if action.order is Order.UPTOWN else DOWNTOWN
    index = _INDEX[rule][action.card]
    if index == JOKER_INDEX and action.suit is not None:
        return NAME0 + _SUIT_INDEX[action.suit]
    return index


def action_from_int(value: int, rule: JokerRule) -> Action:
    """The action of a :class:`SimDeal` int."""
    cards = rules.deck(rule)
    if value < NAME0:
        return Play(cards[value])
    if value < UPTOWN:
        return Play(cards[JOKER_INDEX], SUITS[value - NAME0])
    if value <= DOWNTOWN:
        return ChooseOrder(_ORDERS[value - UPTOWN])
    if value == PASS:
        return Bid(None)
    return Bid(value - BID0)


_NAMING = (NAME0, NAME0 + 1, NAME0 + 2, NAME0 + 3)
_ORDER_CHOICES = (UPTOWN, DOWNTOWN)


class SimDeal:
    """One deal on card indices with int actions: the position a bot searches.

    Hands are lists of card indices by seat. ``trump`` is -1 until the bidder's
    opening lead, then a suit index, or ``NO_TRUMP``. ``high`` is the high bid
    (0: none) and ``bidder`` its seat (-1: none). ``taken`` are the points taken so
    far (the One Card included at the end). The attributes are public for the bots'
    search; change them only through :meth:`apply`.
    """

    __slots__ = (
        "bidder",
        "cur",
        "dealer",
        "done",
        "hands",
        "high",
        "leader",
        "led",
        "n",
        "npassed",
        "one",
        "order",
        "passed",
        "phase",
        "size",
        "taken",
        "trick",
        "trump",
    )

    def __init__(self, n: int, dealer: int, hands: list[list[int]], one: int) -> None:
        self.n = n
        self.size = _SIZES[n]
        self.dealer = dealer
        self.hands = hands
        self.one = one
        self.phase = BIDDING
        self.cur = (dealer + 1) % n
        self.high = 0
        self.bidder = -1
        self.passed = [False] * n
        self.npassed = 0
        self.trump = -1
        self.order = 0
        self.trick: list[int] = []
        self.led = -1
        self.leader = -1
        self.done = 0
        self.taken = [0] * n

    @classmethod
    def from_deal(cls, deal: Deal) -> SimDeal:
        """The start of ``deal`` (before any action) on card indices."""
        index = _INDEX[deal.options.joker]
        record, _ = deal.to_record()
        hands = [[index[parse_card(t)] for t in cards] for cards in record["hands"].values()]
        return cls(len(deal.players), deal.players.index(deal.dealer), hands,
                   index[deal.one_card])

    @classmethod
    def from_info(cls, info: DealInfo, hands: list[list[int]], one: int) -> SimDeal:
        """The position ``info`` shows, with the hidden cards filled in: ``hands`` by seat
        (the viewer's own hand included) and the One Card ``one``. Play phase or later."""
        if info.phase == BIDDING:
            raise ValueError("a position is built from a view after the bidding")
        n = info.n
        sim = cls.__new__(cls)  # the search builds hundreds per decision: no __init__
        sim.n = n
        sim.size = info.size
        sim.dealer = info.dealer
        sim.hands = hands
        sim.one = one
        sim.phase = info.phase
        sim.cur = info.cur
        if info.bidder >= 0:
            sim.high, sim.bidder = info.high, info.bidder
        else:
            sim.high, sim.bidder = 0, -1
        sim.passed = [True] * n
        sim.npassed = n
        sim.trump = info.trump
        sim.order = info.order
        sim.trick = info.trick[:]
        sim.leader = info.leader
        sim.led = info.led
        sim.done = info.done
        sim.taken = info.taken[:]
        return sim

    def clone(self) -> SimDeal:
        other = SimDeal.__new__(SimDeal)
        other.n = self.n
        other.size = self.size
        other.dealer = self.dealer
        other.hands = [h[:] for h in self.hands]
        other.one = self.one
        other.phase = self.phase
        other.cur = self.cur
        other.high = self.high
        other.bidder = self.bidder
        other.passed = self.passed[:]
        other.npassed = self.npassed
        other.trump = self.trump
        other.order = self.order
        other.trick = self.trick[:]
        other.led = self.led
        other.leader = self.leader
        other.done = self.done
        other.taken = self.taken[:]
        return other

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def in_bidding(self) -> bool:
        return self.phase == BIDDING

    @property
    def choosing_order(self) -> bool:
        """Is the winner of a joker trick to choose uptown or downtown?"""
        return self.phase == ORDER

    def legal(self) -> list[int]:
        """The legal actions of the player to act: the cards in hand order, a joker lead
        that names a suit last (the order the strong bot's search has always used)."""
        phase = self.phase
        if phase == PLAY:
            hand = self.hands[self.cur]
            if self.trick:
                follow = FOLLOW[self.trump][self.led]
                return [c for c in hand if follow[c]] or hand[:]
            if (self.trump < 0 or self.trump == NO_TRUMP) and JOKER_INDEX in hand:
                return [*(c for c in hand if c != JOKER_INDEX), *_NAMING]
            return hand[:]
        if phase == BIDDING:
            return list(_CALLS[max(_LOWEST[self.n], self.high + 1)])
        if phase == ORDER:
            return [UPTOWN, DOWNTOWN]
        return []

    def apply(self, action: int) -> None:
        """Play ``action`` (one of :meth:`legal`; not checked) for the player to act."""
        phase = self.phase
        if phase == PLAY:
            if action >= NAME0:
                card, named = JOKER_INDEX, action - NAME0
            else:
                card, named = action, -1
            seat = self.cur
            self.hands[seat].remove(card)
            trick = self.trick
            if not trick:
                self.leader = seat
                trump = self.trump
                if trump < 0:
                    trump = self.trump = named if card == JOKER_INDEX else SUIT_OF[card]
                    self.led = trump
                elif card == JOKER_INDEX:
                    self.led = named if trump == NO_TRUMP else trump
                else:
                    self.led = SUIT_OF[card]
            trick.append(card)
            if len(trick) < self.n:
                self.cur = (seat + 1) % self.n
            else:
                self._finish_trick()
        elif phase == BIDDING:
            self._bid(action)
        elif phase == ORDER:
            self.order = action - UPTOWN
            self.phase = PLAY

    def _bid(self, action: int) -> None:
        seat = self.cur
        n = self.n
        if action == PASS:
            self.passed[seat] = True
            self.npassed += 1
        else:
            self.high = action - BID0
            self.bidder = seat
        if (
            (action != PASS and self.high == _MAX_BID)
            or self.npassed == n
            or (self.bidder >= 0 and self.npassed == n - 1)
        ):
            self.phase = PLAY
            if self.bidder < 0:
                self.trump = NO_TRUMP
                self.cur = (self.dealer + _NO_BID_LEADER_STEP[n]) % n
            else:
                self.cur = self.bidder
            return
        nxt = (seat + 1) % n
        passed = self.passed
        while passed[nxt]:
            nxt = (nxt + 1) % n
        self.cur = nxt

    def _finish_trick(self) -> None:
        trick = self.trick
        power = POWER[self.trump][self.order][self.led]
        best = 0
        top = -1
        points = 0
        for i, card in enumerate(trick):
            value = power[card]
            if value > top:
                best, top = i, value
            points += POINTS[card]
        winner = (self.leader + best) % self.n
        self.taken[winner] += points
        self.done += 1
        self.cur = winner
        joker_in = JOKER_INDEX in trick
        self.trick = []
        if self.done == self.size:
            self.taken[winner] += POINTS[self.one]
            self.phase = OVER
        elif joker_in and self.trump == NO_TRUMP and self.order == 0:
            self.phase = ORDER

    def score(self) -> rules.DealScore:
        """The finished deal's score, through :func:`rules.score_deal`."""
        if self.bidder < 0:
            return rules.score_deal(self.taken, None, None)
        return rules.score_deal(self.taken, self.bidder, self.high)


# ---------------------------------------------------------------------------
# Bots-only play on card indices: what each player sees, kept up to date


class DealInfo:
    """What every player at the table sees of a deal on card indices, kept up to date by
    a :class:`LiveDeal` (or built once from a :class:`View` by :meth:`SeatView.from_view`).

    ``phase`` is ``BIDDING``, ``PLAY``, ``ORDER`` or ``OVER``; ``cur`` the seat to act
    (-1 once over). ``high``/``bidder``: the high bid so far (0: none) and its seat (-1),
    which is the bidder of the deal once the bidding is over. ``passed``: seats that
    passed; ``bids``: every call as ``(seat, amount)``, ``None`` for a pass. ``trump``:
    -1 until the bidder's opening lead, a suit index, or ``NO_TRUMP``. ``trick``: the
    cards of the trick being played (``leader`` led it, in suit ``led``; both -1
    between tricks). ``played``/``played_by``: every card played so far in order, and
    by whom. ``voids[seat]``: bit ``1 << suit`` for each suit that player did not
    follow. ``sizes``: cards in each hand; ``done``: tricks finished; ``taken``: points
    taken (the One Card included once over).
    """

    __slots__ = (
        "bidder",
        "bids",
        "cur",
        "dealer",
        "done",
        "high",
        "leader",
        "led",
        "n",
        "order",
        "passed",
        "phase",
        "played",
        "played_by",
        "size",
        "sizes",
        "taken",
        "trick",
        "trump",
        "voids",
    )

    def __init__(self, n: int, dealer: int) -> None:
        size = _SIZES[n]
        self.n = n
        self.size = size
        self.dealer = dealer
        self.phase = BIDDING
        self.cur = (dealer + 1) % n
        self.high = 0
        self.bidder = -1
        self.passed = [False] * n
        self.bids: list[tuple[int, int | None]] = []
        self.trump = -1
        self.order = 0
        self.trick: list[int] = []
        self.leader = -1
        self.led = -1
        self.done = 0
        self.taken = [0] * n
        self.played: list[int] = []
        self.played_by: list[int] = []
        self.voids = [0] * n
        self.sizes = [size] * n

    def as_dict(self) -> dict[str, Any]:
        """Every field (for tests that compare two of them)."""
        return {name: getattr(self, name) for name in self.__slots__}


class SeatView:
    """One player's view of a deal on card indices: the :class:`DealInfo` everyone sees
    and the player's own ``hand``, in the order dealt. Never another hand, never the One
    Card before the end. In a bots-only game (:class:`LiveDeal`) it is made once per deal
    and stays current; do not change what it holds.
    """

    __slots__ = ("hand", "info", "seat")

    def __init__(self, seat: int, hand: list[int], info: DealInfo) -> None:
        self.seat = seat
        self.hand = hand
        self.info = info

    @classmethod
    def from_view(cls, view: View) -> SeatView:
        """The same view on card indices (for a bot in ``score play``)."""
        rule = view.options.joker
        index = _INDEX[rule]
        n = len(view.players)
        info = DealInfo(n, view.dealer_seat)
        info.phase = _PHASE_OF[view.phase]
        info.cur = -1 if view.current_seat is None else view.current_seat
        info.high = view.high_bid or 0
        info.bidder = -1 if view.high_bidder is None else view.high_bidder
        info.bids = list(view.bids)
        for seat, amount in view.bids:
            if amount is None:
                info.passed[seat] = True
        if view.no_trump:
            info.trump = NO_TRUMP
        elif view.trump is not None:
            info.trump = _SUIT_INDEX[view.trump]
        info.order = 0 if view.order is Order.UPTOWN else 1
        info.trick = [index[card] for _, card in view.trick]
        if view.trick:
            info.leader = view.trick[0][0]
            assert view.led_suit is not None
            info.led = _SUIT_INDEX[view.led_suit]
        info.done = len(view.tricks)
        info.taken = list(view.points_taken)
        plays = [play for trick in view.tricks for play in trick.plays] + list(view.trick)
        info.played = [index[card] for _, card in plays]
        info.played_by = [seat for seat, _ in plays]
        info.voids = [sum(1 << _SUIT_INDEX[suit] for suit in voids) for voids in view.voids]
        info.sizes = list(view.hand_sizes)
        return cls(view.seat, [index[card] for card in view.hand], info)

    @property
    def my_turn(self) -> bool:
        return self.info.cur == self.seat

    def legal(self) -> Sequence[int]:
        """The player's legal actions, in :meth:`Deal.legal_actions` order (empty when it
        is not their turn)."""
        info = self.info
        if info.cur != self.seat:
            return ()
        phase = info.phase
        if phase == PLAY:
            hand = self.hand
            if info.trick:
                follow = FOLLOW[info.trump][info.led]
                return [c for c in hand if follow[c]] or hand[:]
            if (info.trump < 0 or info.trump == NO_TRUMP) and JOKER_INDEX in hand:
                at = hand.index(JOKER_INDEX)
                return [*hand[:at], *_NAMING, *hand[at + 1 :]]
            return hand[:]
        if phase == BIDDING:
            return _CALLS[max(_LOWEST[info.n], info.high + 1)]
        if phase == ORDER:
            return _ORDER_CHOICES
        return ()


class LiveDeal:
    """A deal on card indices for bots-only games (``score simulate``): the same deal as
    :class:`Deal` move by move, without views rebuilt per decision or a record.

    It holds the hidden state (every hand, the One Card) and keeps the public
    :attr:`info` and each seat's :class:`SeatView` (:attr:`views`) up to date. Actions are
    the ints of :meth:`SeatView.legal`; they are not checked.
    """

    __slots__ = ("hands", "info", "one", "views")

    def __init__(self, n: int, dealer: int, order: Sequence[int]) -> None:
        """Deal ``order`` (a permutation of the 25 card indices, as shuffled) the way
        :func:`rules.split_deal` does: consecutive hands by seat, the last card the One
        Card."""
        size = _SIZES[n]
        self.hands = [list(order[seat * size : (seat + 1) * size]) for seat in range(n)]
        self.one = order[-1]
        self.info = info = DealInfo(n, dealer)
        self.views = [SeatView(seat, self.hands[seat], info) for seat in range(n)]

    def apply(self, action: int) -> None:
        info = self.info
        phase = info.phase
        if phase == PLAY:
            if action >= NAME0:
                card, named = JOKER_INDEX, action - NAME0
            else:
                card, named = action, -1
            seat = info.cur
            self.hands[seat].remove(card)
            info.sizes[seat] -= 1
            trick = info.trick
            if not trick:
                info.leader = seat
                trump = info.trump
                if trump < 0:
                    trump = info.trump = named if card == JOKER_INDEX else SUIT_OF[card]
                    info.led = trump
                elif card == JOKER_INDEX:
                    info.led = named if trump == NO_TRUMP else trump
                else:
                    info.led = SUIT_OF[card]
            elif not FOLLOW[info.trump][info.led][card]:
                info.voids[seat] |= 1 << info.led
            trick.append(card)
            info.played.append(card)
            info.played_by.append(seat)
            if len(trick) < info.n:
                info.cur = (seat + 1) % info.n
            else:
                self._finish_trick(info)
        elif phase == BIDDING:
            self._bid(info, action)
        elif phase == ORDER:
            info.order = action - UPTOWN
            info.phase = PLAY

    @staticmethod
    def _bid(info: DealInfo, action: int) -> None:
        seat = info.cur
        n = info.n
        passed = info.passed
        if action == PASS:
            passed[seat] = True
            info.bids.append((seat, None))
        else:
            info.high = action - BID0
            info.bidder = seat
            info.bids.append((seat, info.high))
        npassed = passed.count(True)
        if (
            (action != PASS and info.high == _MAX_BID)
            or npassed == n
            or (info.bidder >= 0 and npassed == n - 1)
        ):
            info.phase = PLAY
            if info.bidder < 0:
                info.trump = NO_TRUMP
                info.cur = (info.dealer + _NO_BID_LEADER_STEP[n]) % n
            else:
                info.cur = info.bidder
            return
        nxt = (seat + 1) % n
        while passed[nxt]:
            nxt = (nxt + 1) % n
        info.cur = nxt

    def _finish_trick(self, info: DealInfo) -> None:
        trick = info.trick
        power = POWER[info.trump][info.order][info.led]
        best = 0
        top = -1
        points = 0
        for i, card in enumerate(trick):
            value = power[card]
            if value > top:
                best, top = i, value
            points += POINTS[card]
        winner = (info.leader + best) % info.n
        info.taken[winner] += points
        info.done += 1
        info.cur = winner
        info.trick = []
        info.leader = info.led = -1
        if info.done == info.size:
            info.taken[winner] += POINTS[self.one]
            info.phase = OVER
            info.cur = -1
        elif JOKER_INDEX in trick and info.trump == NO_TRUMP and info.order == 0:
            info.phase = ORDER

    def score(self) -> rules.DealScore:
        """The finished deal's score, through :func:`rules.score_deal`."""
        info = self.info
        if info.bidder < 0:
            return rules.score_deal(info.taken, None, None)
        return rules.score_deal(info.taken, info.bidder, info.high)
