"""The rules of One Card (RULES.md, "One Card"), as pure functions and small immutable types.

Nothing here does I/O or uses a global random generator; the scorekeeper and the
engine for a virtual deal are built on top of it.

Conventions:

* Seats are numbered ``0 .. n-1`` and "to the left" means the next seat number, so
  the player left of seat ``s`` is ``(s + 1) % n``.
* *The joker card* is the card that has the joker's powers and value: ``JK``, or
  ``2D`` under the house rule ``two-of-diamonds`` (see :func:`joker_card`).
* A trick is described by its context: ``trump`` (a :class:`~scorekeeper.cards.Suit`,
  or ``None`` in a no-trump deal), the :class:`Order` and the :class:`JokerRule`,
  plus the *led suit*, the suit the others must follow (see :func:`led_suit_of`).
* The joker card has no suit of its own: in a trump deal it is a card of the
  trump suit (the lowest trump), in a no-trump deal it belongs to no suit (see
  :func:`effective_suit`). So under ``two-of-diamonds`` the 2D is never a diamond.

A trick in a trump deal (spades) where the joker, the lowest trump, loses to the 9:

>>> from scorekeeper.cards import parse_cards
>>> plays = parse_cards("JK 9S AS")
>>> trick_winner(plays[:2], Suit.SPADES, Suit.SPADES, Order.UPTOWN, JokerRule.JOKER)
1
>>> trick_points(plays, JokerRule.JOKER)
3

In a no-trump deal the joker wins any trick it is in:

>>> trick_winner(parse_cards("AH KH JK"), Suit.HEARTS, None, Order.UPTOWN, JokerRule.JOKER)
2
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from scorekeeper.cards import JOKER, SUITS, Card, Rank, Suit
from scorekeeper.games.one_card.words import _

__all__ = [
    "MAX_BID",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "RANKS",
    "TARGET",
    "TOTAL_POINTS",
    "Bidding",
    "DealScore",
    "JokerRule",
    "Options",
    "Order",
    "bid_problem",
    "card_points",
    "check_players",
    "deck",
    "effective_suit",
    "first_bidder",
    "hand_size",
    "is_joker",
    "led_suit_of",
    "legal_plays",
    "lowest_bid",
    "may_turn_downtown",
    "no_bid_leader",
    "play_problem",
    "score_deal",
    "split_deal",
    "trick_points",
    "trick_winner",
    "trump_from_lead",
    "winners",
]


class JokerRule(StrEnum):
    """House rule ``joker``: which card is the joker."""

    JOKER = "joker"
    TWO_OF_DIAMONDS = "two-of-diamonds"


class Order(StrEnum):
    """Rank order within a suit. Downtown exists only in a no-trump deal."""

    UPTOWN = "uptown"  # A K Q J 10 9 (A high)
    DOWNTOWN = "downtown"  # 9 10 J Q K A (9 high)


TARGET = 30
MIN_TARGET, MAX_TARGET = 10, 100
TOTAL_POINTS = 15
MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_BID = 15

#: The ranks of the suit cards in the deck, lowest to highest uptown.
RANKS: tuple[Rank, ...] = (Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)

_HAND_SIZES = {2: 12, 3: 8, 4: 6}
_LOWEST_BIDS = {2: 8, 3: 7, 4: 6}
_JOKER_POINTS = 3
_FACE_RANKS = frozenset({Rank.JACK, Rank.QUEEN, Rank.KING})


@dataclass(frozen=True, slots=True)
class Options:
    """The house rules of a One Card session.

    >>> Options()
    Options(joker=<JokerRule.JOKER: 'joker'>, target=30)
    """

    joker: JokerRule = JokerRule.JOKER
    target: int = TARGET

    def __post_init__(self) -> None:
        if not isinstance(self.joker, JokerRule):
            raise ValueError(_("unknown joker rule {value}: use 'joker' or 'two-of-diamonds'")
                             .format(value=repr(self.joker)))
        if (isinstance(self.target, bool) or not isinstance(self.target, int)
                or not MIN_TARGET <= self.target <= MAX_TARGET):
            raise ValueError(_("the target must be a whole number from {lowest} to {highest} "
                               "(usually 30), not {value}").format(
                lowest=MIN_TARGET, highest=MAX_TARGET, value=repr(self.target)))


# --------------------------------------------------------------------------- cards


_JOKER_CARDS: dict[JokerRule, Card] = {
    JokerRule.JOKER: JOKER,
    JokerRule.TWO_OF_DIAMONDS: Card(Rank.TWO, Suit.DIAMONDS),
}
_DECKS: dict[JokerRule, tuple[Card, ...]] = {
    rule: (*(Card(rank, suit) for suit in SUITS for rank in RANKS), joker)
    for rule, joker in _JOKER_CARDS.items()
}
_POINTS: dict[JokerRule, dict[Card, int]] = {
    rule: {
        card: _JOKER_POINTS if card == _JOKER_CARDS[rule] else int(card.rank in _FACE_RANKS)
        for card in cards
    }
    for rule, cards in _DECKS.items()
}


def joker_card(rule: JokerRule) -> Card:
    """The card with the joker's powers and value under ``rule``.

    >>> str(joker_card(JokerRule.JOKER)), str(joker_card(JokerRule.TWO_OF_DIAMONDS))
    ('JK', '2D')
    """
    return _JOKER_CARDS[rule]


def is_joker(card: Card, rule: JokerRule) -> bool:
    """Whether ``card`` is the joker card under ``rule``."""
    return card == _JOKER_CARDS[rule]


def deck(rule: JokerRule) -> tuple[Card, ...]:
    """The 25 cards: 9 10 J Q K A of each suit, then the joker card.

    >>> cards = deck(JokerRule.TWO_OF_DIAMONDS)
    >>> len(cards), str(cards[0]), str(cards[-1])
    (25, '9S', '2D')
    """
    return _DECKS[rule]


def card_points(card: Card, rule: JokerRule) -> int:
    """The points in a card: J, Q, K 1 each, the joker card 3, 9, 10 and A none.

    Raises :class:`ValueError` for a card that is not in the deck under ``rule``.

    >>> from scorekeeper.cards import parse_card
    >>> [card_points(parse_card(c), JokerRule.JOKER) for c in ("QH", "AS", "9D", "JK")]
    [1, 0, 0, 3]
    """
    try:
        return _POINTS[rule][card]
    except KeyError:
        raise ValueError(_("{card} is not a card of the One Card deck ({rule})").format(
            card=card, rule=rule)) from None


def trick_points(cards: Iterable[Card], rule: JokerRule) -> int:
    """The points in a trick (or in any pile of cards of the deck)."""
    points = _POINTS[rule]
    try:
        return sum(points[card] for card in cards)
    except KeyError as error:
        raise ValueError(_("{card} is not a card of the One Card deck ({rule})").format(
            card=error.args[0], rule=rule)) from None


# --------------------------------------------------------------------------- players and deal


def check_players(num_players: int) -> None:
    """Raise :class:`ValueError` unless One Card can be played by ``num_players``."""
    if num_players not in _HAND_SIZES:
        raise ValueError(_("One Card is for {low} to {high} players, not {n}").format(
            low=MIN_PLAYERS, high=MAX_PLAYERS, n=num_players))


def _check_seat(seat: int, num_players: int, what: str) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < num_players:
        raise ValueError(f"the {what} must be a seat from 0 to {num_players - 1}, not {seat!r}")


def hand_size(num_players: int) -> int:
    """Cards dealt to each player: 12 (2 players), 8 (3) or 6 (4); also the number of tricks.

    >>> [hand_size(n) for n in (2, 3, 4)]
    [12, 8, 6]
    """
    check_players(num_players)
    return _HAND_SIZES[num_players]


def lowest_bid(num_players: int) -> int:
    """The lowest legal bid: 8 (2 players), 7 (3) or 6 (4)."""
    check_players(num_players)
    return _LOWEST_BIDS[num_players]


def split_deal(
    cards: Sequence[Card], num_players: int
) -> tuple[tuple[tuple[Card, ...], ...], Card]:
    """Split a shuffled deck into the hands and the One Card (the last card).

    The hands are consecutive slices of ``cards``: hand ``i`` belongs to seat ``i``.

    >>> hands, one_card = split_deal(deck(JokerRule.JOKER), 4)
    >>> [len(hand) for hand in hands], str(one_card)
    ([6, 6, 6, 6], 'JK')
    """
    size = hand_size(num_players)
    if len(cards) != len(_DECKS[JokerRule.JOKER]) or len(set(cards)) != len(cards):
        raise ValueError("a One Card deal needs the 25 distinct cards of the deck")
    hands = tuple(tuple(cards[i * size : (i + 1) * size]) for i in range(num_players))
    return hands, cards[-1]


def first_bidder(dealer: int, num_players: int) -> int:
    """The first to bid: the player left of the dealer."""
    check_players(num_players)
    _check_seat(dealer, num_players, "dealer")
    return (dealer + 1) % num_players


def no_bid_leader(dealer: int, num_players: int) -> int:
    """The first leader of a no-trump deal: the player across from the dealer.

    That is the non-dealer with 2 players, the player left of the dealer with 3,
    and the dealer's partner seat (two to the left) with 4.

    >>> [no_bid_leader(0, n) for n in (2, 3, 4)]
    [1, 1, 2]
    """
    check_players(num_players)
    _check_seat(dealer, num_players, "dealer")
    step = 2 if num_players == 4 else 1
    return (dealer + step) % num_players


# --------------------------------------------------------------------------- bidding


def bid_problem(bid: int, current_high: int | None, num_players: int) -> str | None:
    """``None`` if ``bid`` may be made now, else the reason it may not.

    >>> bid_problem(6, None, 3)
    'the lowest bid for 3 players is 7'
    >>> bid_problem(9, 9, 3)
    'a bid must be above the current high bid of 9'
    >>> bid_problem(16, None, 2)
    'the highest bid is 15'
    >>> bid_problem(15, 14, 4) is None
    True
    """
    lowest = lowest_bid(num_players)
    if isinstance(bid, bool) or not isinstance(bid, int):
        return _("a bid is a whole number of points from {lowest} to {highest}").format(
            lowest=lowest, highest=MAX_BID)
    if bid > MAX_BID:
        return _("the highest bid is {highest}").format(highest=MAX_BID)
    if current_high is not None and bid <= current_high:
        return _("a bid must be above the current high bid of {high}").format(high=current_high)
    if bid < lowest:
        return _("the lowest bid for {n} players is {lowest}").format(n=num_players,
                                                                      lowest=lowest)
    return None


@dataclass(frozen=True, slots=True)
class Bidding:
    """The state of the bidding of one deal. Start it with :meth:`Bidding.start`.

    ``to_act`` is the seat to bid or pass next, ``None`` once the bidding is over.
    ``history`` lists every call in order as ``(seat, bid)``, ``None`` for a pass.

    >>> b = Bidding.start(num_players=3, dealer=2)
    >>> b.to_act, b.legal_bids()[:3]
    (0, (None, 7, 8))
    >>> b = b.apply(7).apply(None).apply(9)
    >>> b.to_act, b.high_bid, b.high_bidder, b.is_over
    (0, 9, 2, False)
    >>> b = b.apply(None)
    >>> b.is_over, b.winner, b.high_bid
    (True, 2, 9)
    """

    num_players: int
    dealer: int
    high_bid: int | None
    high_bidder: int | None
    passed: frozenset[int]
    to_act: int | None
    history: tuple[tuple[int, int | None], ...] = ()

    @classmethod
    def start(cls, num_players: int, dealer: int) -> Bidding:
        """The bidding before anyone has called: the player left of the dealer acts."""
        first = first_bidder(dealer, num_players)
        return cls(num_players, dealer, None, None, frozenset(), first)

    def __post_init__(self) -> None:
        n = self.num_players
        check_players(n)
        _check_seat(self.dealer, n, "dealer")
        if (self.high_bid is None) != (self.high_bidder is None):
            raise ValueError("a high bid needs a high bidder and a high bidder needs a bid")
        if self.high_bidder is not None:
            _check_seat(self.high_bidder, n, "high bidder")
            if self.high_bidder in self.passed:
                raise ValueError("the high bidder cannot have passed")
        if any(not 0 <= seat < n for seat in self.passed):
            raise ValueError(f"passed seats must be from 0 to {n - 1}")
        if self.to_act is not None:
            _check_seat(self.to_act, n, "player to act")
            if self.to_act in self.passed:
                raise ValueError("a player who has passed is out of the bidding")

    @property
    def is_over(self) -> bool:
        """Whether the bidding has ended (nobody is left to act)."""
        return self.to_act is None

    @property
    def winner(self) -> int | None:
        """The seat that won the bidding; ``None`` while bidding goes on or if nobody bid."""
        return self.high_bidder if self.to_act is None else None

    @property
    def no_bid(self) -> bool:
        """Whether the bidding ended with every player passed (a no-trump deal)."""
        return self.to_act is None and self.high_bid is None

    @property
    def min_bid(self) -> int:
        """The lowest bid the player to act may make now (may exceed 15 only when over)."""
        lowest = _LOWEST_BIDS[self.num_players]
        return lowest if self.high_bid is None else max(lowest, self.high_bid + 1)

    def legal_bids(self) -> tuple[int | None, ...]:
        """The calls open to the player to act: ``None`` (pass) then the bids, lowest first.

        Empty once the bidding is over.
        """
        if self.to_act is None:
            return ()
        return (None, *range(self.min_bid, MAX_BID + 1))

    def problem(self, bid: int | None) -> str | None:
        """``None`` if the player to act may call ``bid`` (``None`` = pass), else why not."""
        if self.to_act is None:
            return _("the bidding is over")
        if bid is None:
            return None
        return bid_problem(bid, self.high_bid, self.num_players)

    def apply(self, bid: int | None) -> Bidding:
        """The bidding after the player to act calls ``bid`` (``None`` = pass).

        Raises :class:`ValueError` with the reason when the call is not legal.
        """
        reason = self.problem(bid)
        if reason is not None:
            raise ValueError(reason)
        seat = self.to_act
        assert seat is not None
        n = self.num_players
        passed = self.passed
        high_bid, high_bidder = self.high_bid, self.high_bidder
        if bid is None:
            passed = passed | {seat}
        else:
            high_bid, high_bidder = bid, seat
        to_act: int | None
        if bid == MAX_BID or len(passed) == n or (high_bidder is not None and len(passed) == n - 1):
            to_act = None
        else:
            to_act = (seat + 1) % n
            while to_act in passed:
                to_act = (to_act + 1) % n
        history = (*self.history, (seat, bid))
        return Bidding(n, self.dealer, high_bid, high_bidder, passed, to_act, history)


# --------------------------------------------------------------------------- trick play

# Per joker rule and trump (None = no-trump): the effective suit of each card of the deck.
_EFFECTIVE: dict[JokerRule, dict[Suit | None, dict[Card, Suit | None]]] = {}
# Per joker rule and trump: for each suit, the cards of the deck that follow it.
_FOLLOWERS: dict[JokerRule, dict[Suit | None, dict[Suit, frozenset[Card]]]] = {}
# Per joker rule, trump, order and led suit: each card's power in the trick (higher wins,
# 0 cannot win). Trump deals only have the uptown order.
_POWER: dict[JokerRule, dict[Suit | None, dict[Order, dict[Suit, dict[Card, int]]]]] = {}

_STRENGTH: dict[Order, dict[Rank, int]] = {
    Order.UPTOWN: {rank: i + 1 for i, rank in enumerate(RANKS)},
    Order.DOWNTOWN: {rank: i + 1 for i, rank in enumerate(reversed(RANKS))},
}
_NO_TRUMP_JOKER_POWER = 100
_TRUMP_POWER = 20
_LED_POWER = 10


def _build_tables() -> None:
    for rule, cards in _DECKS.items():
        joker = _JOKER_CARDS[rule]
        _EFFECTIVE[rule], _FOLLOWERS[rule], _POWER[rule] = {}, {}, {}
        for trump in (None, *SUITS):
            eff = {card: trump if card == joker else card.suit for card in cards}
            _EFFECTIVE[rule][trump] = eff
            _FOLLOWERS[rule][trump] = {
                suit: frozenset(card for card in cards if eff[card] is suit) for suit in SUITS
            }
            orders = (Order.UPTOWN,) if trump is not None else (Order.UPTOWN, Order.DOWNTOWN)
            by_order: dict[Order, dict[Suit, dict[Card, int]]] = {}
            for order in orders:
                strength = _STRENGTH[order]
                by_led: dict[Suit, dict[Card, int]] = {}
                for led in SUITS:
                    power: dict[Card, int] = {}
                    for card in cards:
                        if card == joker and trump is None:
                            power[card] = _NO_TRUMP_JOKER_POWER  # above everything
                        elif card == joker:
                            power[card] = _TRUMP_POWER  # the lowest trump, below the 9
                        elif trump is not None and card.suit is trump:
                            power[card] = _TRUMP_POWER + strength[card.rank]
                        elif card.suit is led:
                            power[card] = _LED_POWER + strength[card.rank]
                        else:
                            power[card] = 0
                    by_led[led] = power
                by_order[order] = by_led
            _POWER[rule][trump] = by_order


_build_tables()


def effective_suit(card: Card, trump: Suit | None, rule: JokerRule) -> Suit | None:
    """The suit a card counts as: its own, except for the joker card.

    The joker card is of the trump suit in a trump deal and of no suit (``None``) in a
    no-trump deal. Under ``two-of-diamonds`` the 2D is therefore never a diamond.

    >>> from scorekeeper.cards import parse_card
    >>> two_d = parse_card("2D")
    >>> effective_suit(two_d, Suit.SPADES, JokerRule.TWO_OF_DIAMONDS)
    <Suit.SPADES: 'S'>
    >>> effective_suit(two_d, None, JokerRule.TWO_OF_DIAMONDS) is None
    True
    """
    if card == _JOKER_CARDS[rule]:
        return trump
    return card.suit


def trump_from_lead(lead: Card, rule: JokerRule, named: Suit | None = None) -> Suit:
    """The trump of a trump deal, set by the bidder's opening lead.

    It is the suit of the lead; a bidder who leads the joker card names the trump
    suit (``named``), which is then also the led suit of that first trick.
    """
    if lead == _JOKER_CARDS[rule]:
        if named is None:
            raise ValueError(_("the bidder who leads the joker must name the trump suit"))
        return named
    if lead not in _POINTS[rule]:
        raise ValueError(_("{card} is not a card of the One Card deck ({rule})").format(
            card=lead, rule=rule))
    if named is not None:
        raise ValueError(_("only a joker lead names a suit"))
    assert lead.suit is not None
    return lead.suit


def led_suit_of(lead: Card, trump: Suit | None, rule: JokerRule, named: Suit | None = None) -> Suit:
    """The suit the others must follow after ``lead``, once trump is known.

    The suit of the lead, except for the joker card: in a trump deal it leads trump
    (``named`` may be omitted), in a no-trump deal its leader names the suit.
    For the bidder's opening lead, first find trump with :func:`trump_from_lead`.

    >>> from scorekeeper.cards import parse_card
    >>> led_suit_of(parse_card("JK"), None, JokerRule.JOKER, named=Suit.CLUBS)
    <Suit.CLUBS: 'C'>
    >>> led_suit_of(parse_card("JK"), Suit.HEARTS, JokerRule.JOKER)
    <Suit.HEARTS: 'H'>
    """
    if lead == _JOKER_CARDS[rule]:
        if trump is not None:
            if named is not None and named is not trump:
                raise ValueError(_("the joker leads trump ({suit}) in a trump deal").format(
                    suit=trump.in_words))
            return trump
        if named is None:
            raise ValueError(_("the player who leads the joker must name the suit to follow"))
        return named
    return trump_from_lead(lead, rule, named)


def legal_plays(
    hand: Sequence[Card], led_suit: Suit | None, trump: Suit | None, rule: JokerRule
) -> tuple[Card, ...]:
    """The cards of ``hand`` that may be played, in hand order; ``led_suit`` ``None`` = leading.

    A leader may play any card. A follower must play a card of the led suit if able
    (the joker card counts as a trump in a trump deal and as no suit in a no-trump
    deal), and otherwise may play any card.

    >>> from scorekeeper.cards import parse_cards
    >>> hand = parse_cards("JK 9H AS")
    >>> [str(c) for c in legal_plays(hand, Suit.SPADES, Suit.SPADES, JokerRule.JOKER)]
    ['JK', 'AS']
    >>> [str(c) for c in legal_plays(hand, Suit.HEARTS, None, JokerRule.JOKER)]
    ['9H']
    """
    if led_suit is None:
        return tuple(hand)
    followers = _FOLLOWERS[rule][trump][led_suit]
    follow = [card for card in hand if card in followers]
    return tuple(follow) if follow else tuple(hand)


def play_problem(
    card: Card,
    hand: Sequence[Card],
    led_suit: Suit | None,
    trump: Suit | None,
    rule: JokerRule,
) -> str | None:
    """``None`` if ``card`` may be played from ``hand`` now, else the reason it may not.

    >>> from scorekeeper.cards import parse_card, parse_cards
    >>> hand = parse_cards("JK 9D AS")
    >>> play_problem(parse_card("JK"), hand, Suit.DIAMONDS, None, JokerRule.JOKER)
    'the joker may only lead or be played when you cannot follow diamonds'
    >>> play_problem(parse_card("AS"), hand, Suit.DIAMONDS, Suit.SPADES, JokerRule.JOKER)
    'you must follow diamonds'
    """
    if card not in hand:
        return _("{card} is not in your hand").format(card=card)
    effective = _EFFECTIVE[rule][trump]
    if card not in effective:
        return _("{card} is not a card of the One Card deck ({rule})").format(card=card,
                                                                              rule=rule)
    if led_suit is None:
        return None
    followers = _FOLLOWERS[rule][trump][led_suit]
    if card in followers or not any(other in followers for other in hand):
        return None
    joker = _JOKER_CARDS[rule]
    suit = led_suit.in_words
    if card == joker and trump is None:
        if joker == JOKER:
            return _("the joker may only lead or be played when you cannot follow {suit}")\
                .format(suit=suit)
        return _("the joker ({joker}) may only lead or be played when you cannot follow "
                 "{suit}").format(joker=joker, suit=suit)
    if led_suit is trump:
        if joker in hand and not any(other in followers for other in hand if other != joker):
            if joker == JOKER:
                return _("you must play a trump: trump ({suit}) was led; the joker is a "
                         "trump").format(suit=suit)
            return _("you must play a trump: trump ({suit}) was led; the joker ({joker}) is a "
                     "trump").format(suit=suit, joker=joker)
        return _("you must play a trump: trump ({suit}) was led").format(suit=suit)
    if card == joker and joker.suit is led_suit:
        return _("you must follow {suit}: {joker} is the joker, a trump here, not one of the "
                 "{suit}").format(suit=suit, joker=joker)
    return _("you must follow {suit}").format(suit=suit)


def trick_winner(
    plays: Sequence[Card], led_suit: Suit, trump: Suit | None, order: Order, rule: JokerRule
) -> int:
    """The index in ``plays`` (in playing order, the lead first) of the card that wins.

    The highest trump wins (the joker card is the lowest trump), else the highest
    card of the led suit in ``order``; in a no-trump deal the joker card wins any
    trick it is in. A trump deal is always uptown.

    >>> from scorekeeper.cards import parse_cards
    >>> trick_winner(parse_cards("AD 9D"), Suit.DIAMONDS, None, Order.DOWNTOWN, JokerRule.JOKER)
    1
    """
    try:
        power = _POWER[rule][trump][order][led_suit]
    except KeyError:
        if trump is not None and order is Order.DOWNTOWN:
            raise ValueError("a trump deal is always played uptown") from None
        context = f"{rule!r}, {trump!r}, {order!r}, {led_suit!r}"
        raise ValueError(f"not a trick context: {context}") from None
    if not plays:
        raise ValueError("a trick needs at least one card")
    best = 0
    top = -1
    try:
        for i, card in enumerate(plays):
            value = power[card]
            if value > top:
                best, top = i, value
    except KeyError as error:
        raise ValueError(_("{card} is not a card of the One Card deck ({rule})").format(
            card=error.args[0], rule=rule)) from None
    lead = plays[0]
    if _EFFECTIVE[rule][trump][lead] is not led_suit and not (
        trump is None and lead == _JOKER_CARDS[rule]
    ):
        raise ValueError(_("{card} does not lead {suit}").format(card=lead,
                                                                 suit=led_suit.in_words))
    return best


def may_turn_downtown(
    plays: Sequence[Card], trump: Suit | None, order: Order, rule: JokerRule
) -> bool:
    """Whether the winner of this trick may turn the order downtown for the rest of the deal.

    True in a no-trump deal, still uptown, when the joker card is in the trick (and
    so wins it).
    """
    return trump is None and order is Order.UPTOWN and _JOKER_CARDS[rule] in plays


# --------------------------------------------------------------------------- scoring


@dataclass(frozen=True, slots=True)
class DealScore:
    """The outcome of one deal: the points each player took and the scores they get."""

    points: tuple[int, ...]
    scores: tuple[int, ...]
    bid_failed: bool


def score_deal(points: Sequence[int], bidder: int | None, bid: int | None) -> DealScore:
    """Score a deal from the points each player took (the One Card included).

    A bidder who took fewer points than the bid scores 0; everyone else (and a
    bidder who made the bid) scores the points taken. ``bidder`` and ``bid`` are
    both ``None`` for a no-bid deal. Raises :class:`ValueError` for impossible entries.

    >>> score_deal([6, 5, 4], bidder=0, bid=7)
    DealScore(points=(6, 5, 4), scores=(0, 5, 4), bid_failed=True)
    >>> score_deal([6, 5, 4], bidder=None, bid=None).scores
    (6, 5, 4)
    >>> score_deal([6, 5, 5], bidder=None, bid=None)
    Traceback (most recent call last):
    ...
    ValueError: the points add up to 16, but every deal holds exactly 15
    """
    taken = tuple(points)
    n = len(taken)
    check_players(n)
    for value in taken:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= TOTAL_POINTS:
            raise ValueError(_("points must be whole numbers from 0 to {most}, not {value}")
                             .format(most=TOTAL_POINTS, value=repr(value)))
    total = sum(taken)
    if total != TOTAL_POINTS:
        raise ValueError(_("the points add up to {total}, but every deal holds exactly {all}")
                         .format(total=total, all=TOTAL_POINTS))
    if (bidder is None) != (bid is None):
        raise ValueError("a deal has both a bidder and a bid, or neither (no bid)")
    if bidder is None or bid is None:
        return DealScore(taken, taken, False)
    _check_seat(bidder, n, "bidder")
    problem = bid_problem(bid, None, n)
    if problem is not None:
        raise ValueError(problem)
    failed = taken[bidder] < bid
    scores = tuple(0 if failed and seat == bidder else value for seat, value in enumerate(taken))
    return DealScore(taken, scores, failed)


def winners(totals: Sequence[int], target: int = TARGET) -> tuple[int, ...] | None:
    """The winner once the game is over, as ``(index,)``; ``None`` while it goes on.

    The game is over when the highest total is at least ``target`` and held by one
    player alone; players tied for the lead at the target play on.

    >>> winners([31, 12, 30]), winners([31, 31, 5]), winners([29, 10])
    ((0,), None, None)
    """
    if not totals:
        raise ValueError("no totals")
    top = max(totals)
    if top < target:
        return None
    leaders = [i for i, total in enumerate(totals) if total == top]
    return (leaders[0],) if len(leaders) == 1 else None


def card_power(
    card: Card, led_suit: Suit, trump: Suit | None, order: Order, rule: JokerRule
) -> int:
    """How strongly ``card`` plays in a trick led in ``led_suit``: the highest power wins.

    The same measure :func:`trick_winner` compares (0: the card cannot win the
    trick). Engines use it to build their own lookup tables from these rules.

    >>> from scorekeeper.cards import parse_card
    >>> ace, nine = parse_card("AH"), parse_card("9H")
    >>> card_power(ace, Suit.HEARTS, None, Order.UPTOWN, JokerRule.JOKER) > card_power(
    ...     nine, Suit.HEARTS, None, Order.UPTOWN, JokerRule.JOKER)
    True
    >>> card_power(ace, Suit.SPADES, None, Order.UPTOWN, JokerRule.JOKER)
    0
    """
    try:
        return _POWER[rule][trump][order][led_suit][card]
    except KeyError:
        if trump is not None and order is Order.DOWNTOWN:
            raise ValueError("a trump deal is always played uptown") from None
        raise ValueError(_("{card} is not a card of the One Card deck ({rule})").format(
            card=card, rule=rule)) from None
