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

:class:`SimDeal` is the same deal on card indices, for simulations: the bots'
search and the random-play benchmark. Its lookup tables are built from the rules
module (:func:`rules.effective_suit`, :func:`rules.card_power`,
:func:`rules.card_points`) and it scores through :func:`rules.score_deal`; the
tests check it against :class:`Deal` move by move.

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
from scorekeeper.games.one_card import rules
from scorekeeper.games.one_card.rules import JokerRule, Options, Order

__all__ = [
    "BID0",
    "DOWNTOWN",
    "JOKER_INDEX",
    "NAME0",
    "NO_TRUMP",
    "PASS",
    "UPTOWN",
    "Action",
    "Bid",
    "ChooseOrder",
    "Deal",
    "DealResult",
    "IllegalAction",
    "Phase",
    "Play",
    "SimDeal",
    "Trick",
    "View",
    "action_from_int",
    "action_from_record",
    "action_to_int",
    "card_index",
]


class IllegalAction(ValueError):
    """An action the rules refuse; the message says why, in words a player can act on."""


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

_BIDDING, _PLAY, _ORDER, _OVER = 0, 1, 2, 3
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


class SimDeal:
    """One deal on card indices with int actions, for simulations.

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
        self.phase = _BIDDING
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
    def deal(cls, n: int, dealer: int, rng: random.Random) -> SimDeal:
        """A random deal (Fisher-Yates with ``rng.random``); hand ``i`` to seat ``i``."""
        rnd = rng.random
        cards = list(range(25))
        for i in range(24, 0, -1):
            j = int(rnd() * (i + 1))
            cards[i], cards[j] = cards[j], cards[i]
        size = _SIZES[n]
        return cls(n, dealer, [cards[i * size : (i + 1) * size] for i in range(n)], cards[24])

    @classmethod
    def from_deal(cls, deal: Deal) -> SimDeal:
        """The start of ``deal`` (before any action) on card indices."""
        index = _INDEX[deal.options.joker]
        record, _ = deal.to_record()
        hands = [[index[parse_card(t)] for t in cards] for cards in record["hands"].values()]
        return cls(len(deal.players), deal.players.index(deal.dealer), hands,
                   index[deal.one_card])

    @classmethod
    def from_view(cls, view: View, hands: list[list[int]], one: int) -> SimDeal:
        """The position ``view`` shows, with the hidden cards filled in: ``hands`` by seat
        (the viewer's own hand included) and the One Card ``one``. Play phase or later."""
        if view.phase is Phase.BIDDING:
            raise ValueError("a position is built from a view after the bidding")
        rule = view.options.joker
        index = _INDEX[rule]
        n = len(view.players)
        sim = cls(n, view.dealer_seat, hands, one)
        sim.phase = {Phase.PLAY: _PLAY, Phase.ORDER: _ORDER, Phase.OVER: _OVER}[view.phase]
        sim.cur = -1 if view.current_seat is None else view.current_seat
        if view.bidder is not None and view.bid is not None:
            sim.high, sim.bidder = view.bid, view.bidder
        sim.passed = [True] * n
        sim.npassed = n
        if view.no_trump:
            sim.trump = NO_TRUMP
        elif view.trump is not None:
            sim.trump = _SUIT_INDEX[view.trump]
        sim.order = 0 if view.order is Order.UPTOWN else 1
        sim.trick = [index[card] for _, card in view.trick]
        if view.trick:
            sim.leader = view.trick[0][0]
            assert view.led_suit is not None
            sim.led = _SUIT_INDEX[view.led_suit]
        sim.done = len(view.tricks)
        sim.taken = list(view.points_taken)
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
        return self.phase == _OVER

    @property
    def in_bidding(self) -> bool:
        return self.phase == _BIDDING

    @property
    def choosing_order(self) -> bool:
        """Is the winner of a joker trick to choose uptown or downtown?"""
        return self.phase == _ORDER

    def legal(self) -> list[int]:
        """The legal actions of the player to act."""
        phase = self.phase
        if phase == _PLAY:
            hand = self.hands[self.cur]
            if not self.trick:
                if JOKER_INDEX in hand and (self.trump < 0 or self.trump == NO_TRUMP):
                    out = [c for c in hand if c != JOKER_INDEX]
                    out.extend((NAME0, NAME0 + 1, NAME0 + 2, NAME0 + 3))
                    return out
                return hand[:]
            follow = FOLLOW[self.trump][self.led]
            return [c for c in hand if follow[c]] or hand[:]
        if phase == _BIDDING:
            low = max(_LOWEST[self.n], self.high + 1)
            return [PASS, *range(BID0 + low, BID0 + _MAX_BID + 1)]
        if phase == _ORDER:
            return [UPTOWN, DOWNTOWN]
        return []

    def apply(self, action: int) -> None:
        """Play ``action`` (one of :meth:`legal`; not checked) for the player to act."""
        phase = self.phase
        if phase == _PLAY:
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
        elif phase == _BIDDING:
            self._bid(action)
        elif phase == _ORDER:
            self.order = action - UPTOWN
            self.phase = _PLAY

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
            self.phase = _PLAY
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
            self.phase = _OVER
        elif joker_in and self.trump == NO_TRUMP and self.order == 0:
            self.phase = _ORDER

    def score(self) -> rules.DealScore:
        """The finished deal's score, through :func:`rules.score_deal`."""
        if self.bidder < 0:
            return rules.score_deal(self.taken, None, None)
        return rules.score_deal(self.taken, self.bidder, self.high)

    def play_random(self, rng: random.Random, trace: list[int] | None = None) -> None:
        """Play the rest of the deal uniformly at random over the legal actions.

        The same moves as choosing uniformly from :meth:`legal` and calling
        :meth:`apply`, inlined for speed. ``trace`` (if given) gets every action.
        """
        rnd = rng.random
        while self.phase == _BIDDING:
            low = max(_LOWEST[self.n], self.high + 1)
            k = int(rnd() * (_MAX_BID + 2 - low))
            action = PASS if k == 0 else BID0 + low + k - 1
            if trace is not None:
                trace.append(action)
            self._bid(action)
        n = self.n
        hands = self.hands
        taken = self.taken
        size = self.size
        trump = self.trump
        order = self.order
        seat = self.cur
        done = self.done
        trick = self.trick
        if self.phase == _ORDER:
            order = int(rnd() * 2)
            if trace is not None:
                trace.append(UPTOWN + order)
        if trick:  # finish a trick in progress through the general path
            while self.trick and self.phase == _PLAY:
                legal = self.legal()
                action = legal[int(rnd() * len(legal))]
                if trace is not None:
                    trace.append(action)
                self.apply(action)
            if self.phase == _ORDER:
                self.order = int(rnd() * 2)
                self.phase = _PLAY
                if trace is not None:
                    trace.append(UPTOWN + self.order)
            if self.phase == _OVER:
                return
            seat, done, order, trump = self.cur, self.done, self.order, self.trump
        joker = JOKER_INDEX
        while done < size:
            # The lead.
            hand = hands[seat]
            m = len(hand)
            leader = seat
            if joker in hand and (trump < 0 or trump == NO_TRUMP):
                k = int(rnd() * (m + 3))
                if k < m:
                    card = hand[k]
                    named = 0
                else:
                    card = joker
                    named = k - m + 1
                if card == joker:
                    action = NAME0 + named
                    led = named
                    if trump < 0:
                        trump = named
                else:
                    action = card
                    led = SUIT_OF[card]
                    if trump < 0:
                        trump = led
            else:
                card = hand[int(rnd() * m)]
                action = card
                if trump < 0:
                    trump = SUIT_OF[card]
                led = trump if card == joker else SUIT_OF[card]
            hand.remove(card)
            if trace is not None:
                trace.append(action)
            power = POWER[trump][order][led]
            follow = FOLLOW[trump][led]
            top = power[card]
            winner = seat
            points = POINTS[card]
            joker_in = card == joker
            # The others follow.
            for step in range(1, n):
                seat = (leader + step) % n
                hand = hands[seat]
                legal = [c for c in hand if follow[c]] or hand
                card = legal[int(rnd() * len(legal))]
                hand.remove(card)
                if trace is not None:
                    trace.append(card)
                value = power[card]
                if value > top:
                    top, winner = value, seat
                points += POINTS[card]
                if card == joker:
                    joker_in = True
            taken[winner] += points
            done += 1
            seat = winner
            if joker_in and trump == NO_TRUMP and order == 0 and done < size:
                order = int(rnd() * 2)
                if trace is not None:
                    trace.append(UPTOWN + order)
        taken[seat] += POINTS[self.one]
        self.trump = trump
        self.order = order
        self.done = done
        self.cur = seat
        self.trick = []
        self.phase = _OVER
