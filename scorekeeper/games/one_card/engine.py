"""One Card on the virtual deck: the state machine of one deal, once.

Modelled on OpenSpiel's games: :class:`State` is the one deal on card indices with int
actions (``current_player``, ``legal_actions``, ``apply``, ``clone``, an observation
per player, the deal itself as an explicit chance step). ``score play``, replays and
imports play it through :class:`Deal`, its typed face (cards, named actions
:class:`Bid` / :class:`Play` / :class:`ChooseOrder`, the :class:`View` a player gets,
the FORMAT.md record); the bots' search plays positions of it; ``score simulate``
plays it directly, each bot deciding on its seat's :class:`SeatView`.

Every rule comes from :mod:`scorekeeper.games.one_card.rules`: the core's tables are
built from it (:func:`rules.effective_suit`, :func:`rules.card_power`,
:func:`rules.card_points`), it scores through :func:`rules.score_deal`, and
:class:`Deal` checks each action with it (:func:`rules.bid_problem`,
:func:`rules.play_problem`, :func:`rules.trump_from_lead`, :func:`rules.led_suit_of`)
so that a refusal says why.

A deal runs through five phases: ``dealing`` (the chance step), ``bidding`` (from
left of the dealer), ``play`` (tricks; the high bidder's opening lead sets trump, a
joker lead names trump), ``order`` (in a no-trump deal, right after a trick the
joker won, its winner chooses uptown or downtown; not asked after the last trick,
when no trick is left to play) and ``over`` (the One Card has gone to the winner of
the last trick).

Randomness comes only from the ``random.Random`` passed to :meth:`Deal.new` or
:meth:`State.shuffled` (the same deal for the same generator). A deal is saved as
FORMAT.md's ``deal`` and ``actions`` (:meth:`Deal.to_record`) and rebuilt from them
exactly (:meth:`Deal.from_record` and :meth:`Deal.replay`).

>>> import random
>>> deal = Deal.new(["Ann", "Bob", "Cy"], "Ann", random.Random(1), Options())
>>> deal.current_player, len(deal.view("Bob").hand), deal.legal_actions()[:2]
('Bob', 8, [Bid(amount=None), Bid(amount=7)])
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypedDict

from scorekeeper.cards import SUITS, Card, CardError, Suit, parse_card, parse_suit
from scorekeeper.errors import IllegalAction
from scorekeeper.games.one_card import rules
from scorekeeper.games.one_card.rules import JokerRule, Options, Order
from scorekeeper.games.one_card.words import _
from scorekeeper.json_types import JSONObject, JSONRecord

__all__ = [
    "BID0",
    "BIDDING",
    "CHANCE_PLAYER",
    "DEALING",
    "DOWNTOWN",
    "FOLLOW",
    "JOKER_INDEX",
    "NAME0",
    "NO_TRUMP",
    "ORDER",
    "OVER",
    "PASS",
    "PLAY",
    "POINTS",
    "POWER",
    "SUIT_OF",
    "TERMINAL_PLAYER",
    "UPTOWN",
    "Action",
    "Bid",
    "ChooseOrder",
    "Deal",
    "DealInfo",
    "DealResult",
    "GameScore",
    "IllegalAction",
    "Phase",
    "Play",
    "SeatView",
    "State",
    "Trick",
    "View",
    "action_from_int",
    "action_from_record",
    "action_to_int",
    "card_index",
    "legal_actions_of",
    "scores_of",
    "shuffle",
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
class GameScore:
    """The game around a deal, as the whole table knows it: each seat's total before
    the deal and the score that ends the game (a bot that plays for the game, not only
    for the deal, reads it)."""

    totals: tuple[int, ...]
    target: int = rules.TARGET


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
    game: GameScore | None = None
    """The game so far (``None``: a deal on its own, as in a replay)."""

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


def action_from_record(record: JSONRecord, rule: JokerRule) -> Action:
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
            order = record["order"]
            if not isinstance(order, str):
                raise ValueError(order)
            return ChooseOrder(Order(order))
        except ValueError:
            raise ValueError(
                f"order: expected 'uptown' or 'downtown', not {record['order']!r}"
            ) from None
    raise ValueError(f"not a One Card action: {dict(record)!r}")


# ---------------------------------------------------------------------------
# The core: one deal on card indices with int actions
#
# A card is its index in ``rules.deck(rule)``: suit-major (spades, hearts, diamonds,
# clubs), 9 10 J Q K A within a suit, the joker card last (24), under both joker rules.
# Actions are ints: 0..24 play a card; NAME0 + s leads the joker naming suit s;
# UPTOWN / DOWNTOWN choose the order; PASS; BID0 + b bids b. In the chance step (the
# deal) an action is the card index dealt next.

JOKER_INDEX = 24
NO_TRUMP = 4
NAME0 = 25
UPTOWN = 29
DOWNTOWN = 30
PASS = 31
BID0 = 32

BIDDING, PLAY, ORDER, OVER, DEALING = 0, 1, 2, 3, 4
"""The phases of :class:`State` (in :attr:`DealInfo.phase`); ``DEALING`` is the chance
step: the cards are dealt."""
CHANCE_PLAYER = -1
""":meth:`State.current_player` while the cards are dealt (OpenSpiel's chance player)."""
TERMINAL_PLAYER = -4
""":meth:`State.current_player` once the deal is over (OpenSpiel's terminal player)."""

_PHASE_OF = {Phase.BIDDING: BIDDING, Phase.PLAY: PLAY, Phase.ORDER: ORDER, Phase.OVER: OVER}
_PHASES = (Phase.BIDDING, Phase.PLAY, Phase.ORDER, Phase.OVER)
_ORDERS = (Order.UPTOWN, Order.DOWNTOWN)
_SUIT_INDEX: dict[Suit, int] = {suit: i for i, suit in enumerate(SUITS)}
_INDEX: dict[JokerRule, dict[Card, int]] = {
    rule: {card: i for i, card in enumerate(rules.deck(rule))} for rule in JokerRule
}
_DECK_SIZE = 25

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
        if len(cards) != _DECK_SIZE or not rules.is_joker(cards[JOKER_INDEX], rule):
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
_NAMING = (NAME0, NAME0 + 1, NAME0 + 2, NAME0 + 3)
_ORDER_CHOICES = (UPTOWN, DOWNTOWN)


_WIDTHS = tuple(m.bit_length() for m in range(32))


def shuffle(items: list[int], getrandbits: Callable[[int], int]) -> None:
    """Shuffle ``items`` in place: the same draws and the same order as
    ``random.Random.shuffle`` (CPython 3.11+) with that generator's ``getrandbits``,
    without its per-item calls."""
    widths = _WIDTHS
    for i in range(len(items) - 1, 0, -1):
        m = i + 1
        width = widths[m] if m < 32 else m.bit_length()
        j = getrandbits(width)
        while j >= m:
            j = getrandbits(width)
        items[i], items[j] = items[j], items[i]


def scores_of(taken: list[int], bidder: int, high: int) -> list[int]:
    """Each seat's score when a deal ends with the points ``taken``: the points taken, or
    0 for the ``bidder`` (-1: none) short of the bid ``high``, as :func:`rules.score_deal`
    scores a deal (the tests check it), for bots-only play and the bots' playouts."""
    scores = taken[:]
    if bidder >= 0 and scores[bidder] < high:
        scores[bidder] = 0
    return scores


def card_index(card: Card, rule: JokerRule) -> int:
    """The index of ``card`` in ``rules.deck(rule)``."""
    return _INDEX[rule][card]


def action_to_int(action: Action, rule: JokerRule) -> int:
    """The :class:`State` int of an action."""
    if isinstance(action, Bid):
        return PASS if action.amount is None else BID0 + action.amount
    if isinstance(action, ChooseOrder):
        return UPTOWN if action.order is Order.UPTOWN else DOWNTOWN
    index = _INDEX[rule][action.card]
    if index == JOKER_INDEX and action.suit is not None:
        return NAME0 + _SUIT_INDEX[action.suit]
    return index


def action_from_int(value: int, rule: JokerRule) -> Action:
    """The action of a :class:`State` int."""
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


class DealInfo:
    """What every player at the table sees of a deal on card indices: the public part of
    a :class:`State`, kept up to date by :meth:`State.apply` (or built once from a
    :class:`View` by :meth:`SeatView.from_view`).

    ``phase`` is ``DEALING``, ``BIDDING``, ``PLAY``, ``ORDER`` or ``OVER``; ``cur`` the
    seat to act (-1 while dealing and once over). ``high``/``bidder``: the high bid so
    far (0: none) and its seat (-1), which is the bidder of the deal once the bidding is
    over. ``passed``: seats that passed; ``bids``: every call as ``(seat, amount)``,
    ``None`` for a pass. ``trump``: -1 until the bidder's opening lead, a suit index, or
    ``NO_TRUMP``. ``trick``: the cards of the trick being played (``leader`` led it, in
    suit ``led``; both -1 between tricks). ``played``/``played_by``: every card played so
    far in order, and by whom. ``voids[seat]``: bit ``1 << suit`` for each suit that
    player did not follow. ``sizes``: cards in each hand; ``done``: tricks finished;
    ``last_winner``: who took the last trick finished (-1: none yet); ``taken``: points
    taken (the One Card included once over).
    """

    __slots__ = (
        "bidder",
        "bids",
        "cur",
        "dealer",
        "done",
        "high",
        "last_winner",
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
        """The public state as the bidding starts."""
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
        self.last_winner = -1
        self.taken = [0] * n
        self.played: list[int] = []
        self.played_by: list[int] = []
        self.voids = [0] * n
        self.sizes = [size] * n

    def copy(self) -> DealInfo:
        """An independent copy (the search builds hundreds per decision: no ``__init__``)."""
        other = DealInfo.__new__(DealInfo)
        other.n = self.n
        other.size = self.size
        other.dealer = self.dealer
        other.phase = self.phase
        other.cur = self.cur
        other.high = self.high
        other.bidder = self.bidder
        other.passed = self.passed[:]
        other.bids = self.bids[:]
        other.trump = self.trump
        other.order = self.order
        other.trick = self.trick[:]
        other.leader = self.leader
        other.led = self.led
        other.done = self.done
        other.last_winner = self.last_winner
        other.taken = self.taken[:]
        other.played = self.played[:]
        other.played_by = self.played_by[:]
        other.voids = self.voids[:]
        other.sizes = self.sizes[:]
        return other

    def as_dict(self) -> dict[str, object]:
        """Every field (for tests that compare two of them)."""
        return {name: getattr(self, name) for name in self.__slots__}


class SeatView:
    """One player's observation of a deal on card indices: the :class:`DealInfo` everyone
    sees and the player's own ``hand``, in the order dealt. Never another hand, never the
    One Card before the end. A :class:`State` keeps its views current
    (:meth:`State.observation`); do not change what one holds.
    """

    __slots__ = ("game", "hand", "info", "seat")

    def __init__(self, seat: int, hand: list[int], info: DealInfo,
                 game: GameScore | None = None) -> None:
        self.seat = seat
        self.hand = hand
        self.info = info
        self.game = game

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
        if view.tricks:
            info.last_winner = view.tricks[-1].winner
        info.taken = list(view.points_taken)
        plays = [play for trick in view.tricks for play in trick.plays] + list(view.trick)
        info.played = [index[card] for _, card in plays]
        info.played_by = [seat for seat, _ in plays]
        info.voids = [sum(1 << _SUIT_INDEX[suit] for suit in voids) for voids in view.voids]
        info.sizes = list(view.hand_sizes)
        return cls(view.seat, [index[card] for card in view.hand], info, view.game)

    @property
    def my_turn(self) -> bool:
        return self.info.cur == self.seat

    def legal(self) -> Sequence[int]:
        """The player's legal actions, in :meth:`State.legal_actions` order (empty when it
        is not their turn)."""
        if self.info.cur != self.seat:
            return ()
        return legal_actions_of(self.info, self.hand, False)


def legal_actions_of(info: DealInfo, hand: list[int], naming_last: bool = False
                     ) -> Sequence[int]:
    """The legal actions of the player to act in the deal ``info`` shows, who holds
    ``hand``: the one rule of what may be called and played on card indices, behind
    :meth:`State.legal_actions` and :meth:`SeatView.legal` (a bot asked to act may call
    it on its view's ``info`` and ``hand`` directly)."""
    phase = info.phase
    if phase == PLAY:
        if info.trick:
            follow = FOLLOW[info.trump][info.led]
            return [c for c in hand if follow[c]] or hand[:]
        if (info.trump < 0 or info.trump == NO_TRUMP) and JOKER_INDEX in hand:
            if naming_last:
                return [*(c for c in hand if c != JOKER_INDEX), *_NAMING]
            at = hand.index(JOKER_INDEX)
            return [*hand[:at], *_NAMING, *hand[at + 1 :]]
        return hand[:]
    if phase == BIDDING:
        return _CALLS[max(_LOWEST[info.n], info.high + 1)]
    if phase == ORDER:
        return _ORDER_CHOICES
    return ()


def _lead_joker(info: DealInfo, hand: list[int], action: int) -> None:
    """Set the led suit (and trump, at the bidder's opening lead) for the joker lead
    ``action`` (the joker's id, or one naming a suit) if :func:`legal_actions_of` offers
    it: naming a suit at the opening lead and in a no-trump deal, naming none once a
    trump deal has its trump (the joker then leads trump); else ``IllegalAction``."""
    trump = info.trump
    naming = trump < 0 or trump == NO_TRUMP
    if JOKER_INDEX not in hand or action >= UPTOWN or naming == (action == JOKER_INDEX):
        raise IllegalAction(_refused(action))
    if trump < 0:
        info.trump = info.led = action - NAME0
    else:
        info.led = action - NAME0 if naming else trump


def _refused(action: int) -> str:
    """Why :meth:`State.apply` refuses ``action``: it is none of the legal actions."""
    return _("not a One Card action: {action!r}").format(action=action)


class State:
    """One deal of One Card on card indices with int actions, OpenSpiel style: the one
    state machine of the deal that ``score play`` (under the typed :class:`Deal`), the
    bots' search and ``score simulate`` all play.

    It starts with the chance step, dealing (:meth:`is_chance_node`): the 25 cards are
    dealt one by one (:meth:`chance_outcomes`, then :meth:`apply` with the card dealt
    next: a hand per seat in seat order, then the One Card, as :func:`rules.split_deal`
    deals a shuffled deck), or all at once from a shuffle (:meth:`deal`, :meth:`shuffled`).
    Then the players act (:meth:`current_player`, :meth:`legal_actions`, :meth:`apply`,
    which takes exactly the legal actions and refuses any other with ``IllegalAction``;
    the typed :class:`Deal` checks them against the rules first and says why one is
    refused). Each seat's observation (:meth:`observation`) is a
    :class:`SeatView`, kept current; the public part is :attr:`info`.

    ``hands`` (by seat) and ``one`` (the One Card) are the hidden part: read them only
    where every card is known (the search's own sampled positions, the tests).

    >>> import random
    >>> state = State.shuffled(3, 0, random.Random(1))
    >>> state.current_player(), state.legal_actions()[:3] == (PASS, BID0 + 7, BID0 + 8)
    (1, True)
    """

    __slots__ = ("_dealt", "_track", "_views", "game", "hands", "info", "one")

    def __init__(self, n: int, dealer: int) -> None:
        """A deal of ``n`` players with the dealer in seat ``dealer``, nothing dealt yet."""
        rules.check_players(n)
        self.info = info = DealInfo(n, dealer)
        info.phase = DEALING
        info.cur = -1
        info.sizes = [0] * n
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.one = -1
        self._dealt = 0
        self._track = True
        self._views: list[SeatView] | None = None
        self.game: GameScore | None = None
        """The game around the deal, shown in every observation (``None``: none)."""

    # -- the chance step ---------------------------------------------------------

    def is_chance_node(self) -> bool:
        return self.info.phase == DEALING

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards that may be dealt next, each as likely, with their probability."""
        if self.info.phase != DEALING:
            return []
        dealt = {card for hand in self.hands for card in hand}
        left = [card for card in range(_DECK_SIZE) if card not in dealt]
        return [(card, 1 / len(left)) for card in left]

    def deal(self, order: Sequence[int]) -> None:
        """The whole chance step at once: deal ``order`` (the 25 card indices as shuffled),
        the same as applying its cards one by one."""
        info = self.info
        if info.phase != DEALING or self._dealt:
            raise ValueError("the cards are dealt once, at the start of the deal")
        size = info.size
        for seat, hand in enumerate(self.hands):
            hand[:] = order[seat * size : (seat + 1) * size]
        self.one = order[-1]
        self._dealt = _DECK_SIZE
        info.sizes = [size] * info.n
        info.phase = BIDDING
        info.cur = (info.dealer + 1) % info.n

    @classmethod
    def shuffled(cls, n: int, dealer: int, rng: random.Random, *,
                 track: bool = True, game: GameScore | None = None) -> State:
        """A deal shuffled with ``rng``: the same cards as :meth:`Deal.new` with the same
        generator (it shuffles the cards in deck order)."""
        order = list(range(_DECK_SIZE))
        shuffle(order, rng.getrandbits)  # rng.shuffle's draws, faster
        return cls.dealt(n, dealer, order, track=track, game=game)

    @classmethod
    def dealt(cls, n: int, dealer: int, order: Sequence[int], *,
              track: bool = True, game: GameScore | None = None) -> State:
        """A deal of ``order`` (the 25 card indices as shuffled) as the bidding starts:
        ``State(n, dealer)`` after :meth:`deal` (``score simulate`` makes one per deal:
        built at once). Without ``track``, the public record of the deal
        (:attr:`DealInfo.bids`, ``played``, ``played_by``, ``voids``, ``sizes``) is not
        kept: for players that never read it (bots-only games of such bots)."""
        state = cls.__new__(cls)
        state.info = info = DealInfo(n, dealer)
        size = info.size
        state.hands = [list(order[seat * size : (seat + 1) * size]) for seat in range(n)]
        state.one = order[-1]
        state._dealt = _DECK_SIZE
        state._track = track
        state._views = None
        state.game = game
        return state

    def _deal_one(self, card: int) -> None:
        info = self.info
        dealt = self._dealt
        if dealt < info.n * info.size:
            seat = dealt // info.size
            self.hands[seat].append(card)
            info.sizes[seat] += 1
        else:
            self.one = card
            info.phase = BIDDING
            info.cur = (info.dealer + 1) % info.n
        self._dealt = dealt + 1

    # -- positions for a search ---------------------------------------------------

    @classmethod
    def from_observation(cls, view: SeatView, hands: list[list[int]], one: int) -> State:
        """The position ``view`` shows, with the hidden cards filled in: ``hands`` by seat
        (the viewer's own included; the state takes them) and the One Card ``one``.

        A search plays hundreds of these per decision and needs only the play, so the
        public record of the deal (:attr:`DealInfo.bids`, ``played``, ``played_by``,
        ``voids``, ``sizes``) stays as ``view`` shows it (shared with it, never changed)."""
        state = cls.__new__(cls)  # no __init__: set every field once
        info = view.info
        state.info = copy = DealInfo.__new__(DealInfo)
        copy.n = info.n
        copy.size = info.size
        copy.dealer = info.dealer
        copy.phase = info.phase
        copy.cur = info.cur
        copy.high = info.high
        copy.bidder = info.bidder
        copy.passed = info.passed[:]
        copy.bids = info.bids
        copy.trump = info.trump
        copy.order = info.order
        copy.trick = info.trick[:]
        copy.leader = info.leader
        copy.led = info.led
        copy.done = info.done
        copy.last_winner = info.last_winner
        copy.taken = info.taken[:]
        copy.played = info.played
        copy.played_by = info.played_by
        copy.voids = info.voids
        copy.sizes = info.sizes
        state.hands = hands
        state.one = one
        state._dealt = _DECK_SIZE
        state._track = False
        state._views = None
        state.game = view.game
        return state

    @classmethod
    def after_bidding(cls, n: int, dealer: int, hands: Sequence[list[int]], one: int,
                      bidder: int, bid: int) -> State:
        """The position right after a bidding that ``bidder`` won with ``bid`` (the
        others passed), or that nobody won (``bidder`` -1: a no-trump deal), with copies
        of ``hands`` (by seat) and the One Card ``one``: a search's sampled deal (the
        strong bot's bidding plays hundreds per decision), so it keeps no public record
        (:attr:`DealInfo.bids`, ``played``... stay empty)."""
        state = cls.__new__(cls)
        state.info = info = DealInfo(n, dealer)
        info.phase = PLAY
        if bidder < 0:
            info.passed = [True] * n
            info.trump = NO_TRUMP
            info.cur = (dealer + _NO_BID_LEADER_STEP[n]) % n
        else:
            info.passed = [seat != bidder for seat in range(n)]
            info.high = bid
            info.bidder = info.cur = bidder
        state.hands = [hand[:] for hand in hands]
        state.one = one
        state._dealt = _DECK_SIZE
        state._track = False
        state._views = None
        state.game = None
        return state

    def take_hands(self) -> list[list[int]]:
        """The hidden hands, handed over to a caller that plays the rest of the deal out
        by itself (a search's fast playout): the state is spent, use it no more."""
        hands = self.hands
        self.hands = []
        return hands

    def clone(self) -> State:
        other = State.__new__(State)
        other.info = self.info.copy()
        other.hands = [hand[:] for hand in self.hands]
        other.one = self.one
        other._dealt = self._dealt
        other._track = True
        other._views = None
        other.game = self.game
        return other

    # -- the players ---------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act; ``CHANCE_PLAYER`` while dealing, ``TERMINAL_PLAYER`` once over."""
        phase = self.info.phase
        if phase == DEALING:
            return CHANCE_PLAYER
        if phase == OVER:
            return TERMINAL_PLAYER
        return self.info.cur

    @property
    def is_over(self) -> bool:
        return self.info.phase == OVER

    def is_terminal(self) -> bool:
        return self.info.phase == OVER

    def legal_actions(self, naming_last: bool = False) -> Sequence[int]:
        """The legal actions of the player to act: the calls (pass, then the bids, lowest
        first), the cards in hand order (a joker lead that names a suit as four actions,
        at the joker's place, or last with ``naming_last``: the order the strong bot's
        search has always used), or the two orders; the cards left while dealing."""
        info = self.info
        if info.phase == DEALING:
            return [card for card, _ in self.chance_outcomes()]
        if info.phase == OVER:
            return ()
        return legal_actions_of(info, self.hands[info.cur], naming_last)

    def observation(self, seat: int) -> SeatView:
        """What ``seat`` sees, kept current as the deal goes on."""
        return self.observations()[seat]

    def observations(self) -> list[SeatView]:
        """Every seat's :meth:`observation`, by seat."""
        views = self._views
        if views is None:
            info = self.info
            game = self.game
            views = self._views = [SeatView(seat, hand, info, game)
                                   for seat, hand in enumerate(self.hands)]
        return views

    def apply(self, action: int) -> None:
        """Play ``action`` for the player to act (or deal it, in the chance step): exactly
        the actions of :meth:`legal_actions` are taken; any other is refused with
        ``IllegalAction``, the state unchanged. (The typed :class:`Deal` checks an action
        against the rules first, to say why it is refused.)"""
        info = self.info
        phase = info.phase
        if phase != PLAY:
            if phase == BIDDING:
                self._bid(info, action, self._track)
            else:
                self._apply_other(info, action)
            return
        seat = info.cur
        hand = self.hands[seat]
        trick = info.trick
        if trick:
            if action not in hand:  # no naming id is either
                raise IllegalAction(_refused(action))
            follow = FOLLOW[info.trump][info.led]
            if not follow[action]:
                for card in hand:  # (a loop: any() of a generator costs more than the rest)
                    if follow[card]:
                        raise IllegalAction(_refused(action))  # able to follow, not following
            hand.remove(action)
            if self._track:
                if not follow[action]:
                    info.voids[seat] |= 1 << info.led
                info.sizes[seat] -= 1
                info.played.append(action)
                info.played_by.append(seat)
            trick.append(action)
            if len(trick) == info.n:
                self._finish_trick(info)
                return
        else:
            if action < NAME0 and action != JOKER_INDEX:  # a suit card (or no card)
                if action not in hand:
                    raise IllegalAction(_refused(action))
                card = action
                info.led = led = SUIT_OF[card]
                if info.trump < 0:  # the bidder's opening lead sets trump
                    info.trump = led
            else:
                card = JOKER_INDEX
                _lead_joker(info, hand, action)
            hand.remove(card)
            info.leader = seat
            if self._track:
                info.sizes[seat] -= 1
                info.played.append(card)
                info.played_by.append(seat)
            trick.append(card)
        info.cur = (seat + 1) % info.n

    def _apply_other(self, info: DealInfo, action: int) -> None:
        """:meth:`apply` outside the bidding and the tricks: the order, a card dealt."""
        phase = info.phase
        if phase == ORDER:
            if action != UPTOWN and action != DOWNTOWN:
                raise IllegalAction(_refused(action))
            info.order = action - UPTOWN
            info.phase = PLAY
        elif phase == DEALING:
            if not 0 <= action < _DECK_SIZE or any(action in hand for hand in self.hands):
                raise IllegalAction(_refused(action))
            self._deal_one(action)
        else:
            raise IllegalAction(_("the deal is over"))

    @staticmethod
    def _bid(info: DealInfo, action: int, track: bool) -> None:
        seat = info.cur
        n = info.n
        passed = info.passed
        if action == PASS:
            passed[seat] = True
        else:
            amount = action - BID0  # over the high bid, from the lowest allowed to the most
            if amount <= info.high or amount > _MAX_BID or amount < _LOWEST[n]:
                raise IllegalAction(_refused(action))
            info.high = amount
            info.bidder = seat
        if track:
            info.bids.append((seat, None if action == PASS else info.high))
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
        info.last_winner = info.cur = winner
        info.trick = []
        info.leader = info.led = -1
        if info.done == info.size:
            info.taken[winner] += POINTS[self.one]
            info.phase = OVER
            info.cur = -1
        elif JOKER_INDEX in trick and info.trump == NO_TRUMP and info.order == 0:
            info.phase = ORDER

    # -- the end -------------------------------------------------------------------

    def score(self) -> rules.DealScore:
        """The finished deal's score, through :func:`rules.score_deal`."""
        info = self.info
        if info.bidder < 0:
            return rules.score_deal(info.taken, None, None)
        return rules.score_deal(info.taken, info.bidder, info.high)

    def returns(self) -> list[int]:
        """Each seat's score of the finished deal (OpenSpiel's returns): the scores of
        :meth:`score`, without :func:`rules.score_deal`'s checks of an entry."""
        info = self.info
        return scores_of(info.taken, info.bidder, info.high)


# ---------------------------------------------------------------------------
# The deal, typed: cards, named actions, views and FORMAT.md records on the core


class _Initial(TypedDict):
    """A deal as it was dealt (FORMAT.md's ``deal``): the dealer, each hand, the One Card."""

    dealer: str
    hands: dict[str, list[str]]
    one_card: str


class Deal:
    """One deal of One Card, from the bidding to the One Card: the typed face of a
    :class:`State` (which plays it), for ``score play``, replays and imports.

    It checks every action against the rules and says why one is refused
    (:class:`IllegalAction`), builds each player's :class:`View`, and keeps the deal
    as FORMAT.md records it. ``players`` are in seating order; "to the left" is the
    next in this order. ``hands`` are by seat, in the order dealt.
    """

    __slots__ = (
        "_actions",
        "_cards",
        "_dealer",
        "_initial",
        "_n",
        "_size",
        "_state",
        "_tricks",
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
        game: GameScore | None = None,
    ) -> None:
        """A deal as dealt. Prefer :meth:`new` or :meth:`from_record`. ``game``: the game
        around it, which every view shows (``None``: a deal on its own)."""
        self.players: tuple[str, ...] = tuple(players)
        n = self._n = len(self.players)
        rules.check_players(n)
        if len({p.casefold() for p in self.players}) != n:
            raise ValueError(_("player names must be unique"))
        if dealer not in self.players:
            raise ValueError(_("the dealer {dealer} is not a player in this deal").format(
                dealer=dealer))
        if len(hands) != n:
            raise ValueError(_("one hand per player is needed"))
        size = self._size = rules.hand_size(n)
        for name, hand in zip(self.players, hands, strict=True):
            if len(hand) != size:
                raise ValueError(_("{player} must be dealt {size} cards, not {count}").format(
                    player=name, size=size, count=len(hand)))
        every = [card for hand in hands for card in hand] + [one_card]
        deck = rules.deck(options.joker)
        if len(every) != len(deck) or set(every) != set(deck):
            raise ValueError(_("the hands and the One Card must hold the 25 cards once each"))
        self.dealer = dealer
        self.options = options
        self.one_card = one_card
        self._cards = deck
        self._dealer = self.players.index(dealer)
        index = _INDEX[options.joker]
        self._state = State(n, self._dealer)
        self._state.deal([index[card] for card in every])
        self._state.game = game
        self._tricks: list[Trick] = []
        self._actions: list[JSONObject] = []
        self._initial: _Initial = {
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
        cls, players: Sequence[str], dealer: str, rng: random.Random, options: Options,
        totals: Sequence[int] | None = None,
    ) -> Deal:
        """Shuffle the 25 cards with ``rng`` and deal them (:func:`rules.split_deal`):
        a hand per player (12, 8 or 6 cards) and the One Card, face down. ``totals``:
        each player's game total before the deal, shown in the views."""
        cards = list(rules.deck(options.joker))
        rng.shuffle(cards)
        hands, one_card = rules.split_deal(cards, len(players))
        game = None if totals is None else GameScore(tuple(totals), options.target)
        return cls(players, dealer, hands, one_card, options, game)

    @classmethod
    def from_record(cls, deal: JSONRecord, options: Options) -> Deal:
        """The deal as FORMAT.md records it (``dealer``, ``hands``, ``one_card``).

        The players are the keys of ``hands``, in seating order.
        """
        try:
            dealer = deal["dealer"]
            hands = deal["hands"]
            one_text = deal["one_card"]
        except KeyError as exc:
            raise ValueError(_("the deal has no {key!r}").format(key=exc.args[0])) from None
        if not isinstance(hands, Mapping) or not isinstance(dealer, str):
            raise ValueError(_("the deal needs a dealer name and a hand per player"))
        rule = options.joker
        players = [str(name) for name in hands]
        cards: list[list[Card]] = []
        for name in players:
            items = hands[name]
            if not isinstance(items, list | tuple):
                raise ValueError(_("{player}'s hand: expected a list of cards, not {items!r}")
                                 .format(player=name, items=items))
            cards.append([_card(item, rule, _("{player}'s hand").format(player=name))
                          for item in items])
        return cls(players, dealer, cards, _card(one_text, rule, "one_card"), options)

    def replay(self, actions: Iterable[JSONRecord]) -> None:
        """Apply FORMAT.md ``actions`` in order, checking each (``IllegalAction`` if not)."""
        for number, record in enumerate(actions, 1):
            player = record.get("player")
            current = self.current_player
            if player != current:
                if current is None:
                    raise IllegalAction(_("action {number}: the deal is over, it is not "
                                          "{player}'s turn").format(number=number,
                                                                    player=player))
                raise IllegalAction(_("action {number}: it is {current}'s turn, not "
                                      "{player}'s").format(number=number, current=current,
                                                           player=player))
            try:
                action = action_from_record(record, self.options.joker)
            except ValueError as exc:
                raise IllegalAction(_("action {number}: {reason}").format(
                    number=number, reason=exc)) from None
            try:
                self.apply(action)
            except IllegalAction as exc:
                raise IllegalAction(_("action {number} ({player}): {reason}").format(
                    number=number, player=player, reason=exc)) from None

    # -- state -------------------------------------------------------------

    @property
    def state(self) -> State:
        """The core this deal is played on (read it; play through :meth:`apply`)."""
        return self._state

    @property
    def game(self) -> GameScore | None:
        """The game around the deal, shown in every view (``None``: a deal on its own)."""
        return self._state.game

    @property
    def phase(self) -> Phase:
        return _PHASES[self._state.info.phase]

    @property
    def current_seat(self) -> int | None:
        cur = self._state.info.cur
        return None if cur < 0 else cur

    @property
    def current_player(self) -> str | None:
        """Whose turn it is, or ``None`` once the deal is over."""
        cur = self._state.info.cur
        return None if cur < 0 else self.players[cur]

    @property
    def is_over(self) -> bool:
        return self._state.info.phase == OVER

    @property
    def bidder(self) -> int | None:
        """The seat that won the bidding (``None`` while bidding or in a no-trump deal)."""
        info = self._state.info
        return None if info.phase == BIDDING or info.bidder < 0 else info.bidder

    @property
    def bid(self) -> int | None:
        return None if self.bidder is None else self._state.info.high

    @property
    def trump(self) -> Suit | None:
        trump = self._state.info.trump
        return SUITS[trump] if 0 <= trump < NO_TRUMP else None

    @property
    def order(self) -> Order:
        return _ORDERS[self._state.info.order]

    @property
    def no_trump(self) -> bool:
        return self._state.info.trump == NO_TRUMP

    @property
    def tricks(self) -> tuple[Trick, ...]:
        return tuple(self._tricks)

    def hand(self, player: str) -> tuple[Card, ...]:
        cards = self._cards
        return tuple(cards[c] for c in self._state.hands[self.players.index(player)])

    def _naming_lead(self) -> bool:
        """Would a joker lead now name a suit (opening lead of a trump deal, or no trump)?"""
        trump = self._state.info.trump
        return trump < 0 or trump == NO_TRUMP

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to act (empty once the deal is over)."""
        rule = self.options.joker
        cards = self._cards
        return [Play(cards[a]) if a < NAME0 else action_from_int(a, rule)
                for a in self._state.legal_actions()]

    def _trick_plays(self) -> tuple[tuple[int, Card], ...]:
        info = self._state.info
        cards = self._cards
        return tuple(((info.leader + i) % self._n, cards[c]) for i, c in enumerate(info.trick))

    def view(self, player: str) -> View:
        """What ``player`` may see: never another hand, never the One Card before the end."""
        seat = self.players.index(player)
        info = self._state.info
        current = self.current_seat
        legal = tuple(self.legal_actions()) if current == seat else ()
        return View(
            player=player,
            seat=seat,
            players=self.players,
            dealer=self.dealer,
            dealer_seat=self._dealer,
            options=self.options,
            hand=self.hand(player),
            phase=self.phase,
            bids=tuple(info.bids),
            high_bid=info.high or None,
            high_bidder=None if info.bidder < 0 else info.bidder,
            bidder=self.bidder,
            bid=self.bid,
            no_trump=self.no_trump,
            trump=self.trump,
            order=self.order,
            tricks=tuple(self._tricks),
            trick=self._trick_plays(),
            led_suit=SUITS[info.led] if info.trick else None,
            voids=tuple(frozenset(suit for i, suit in enumerate(SUITS) if bits >> i & 1)
                        for bits in info.voids),
            points_taken=tuple(info.taken),
            hand_sizes=tuple(info.sizes),
            num_tricks=self._size,
            current_seat=current,
            legal=legal,
            one_card=self.one_card if info.phase == OVER else None,
            game=self.game,
        )

    # -- playing -----------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Play ``action`` for the current player; ``IllegalAction`` (state unchanged) if
        the rules refuse it."""
        info = self._state.info
        phase = info.phase
        if phase == OVER:
            raise IllegalAction(_("the deal is over"))
        seat = info.cur
        if isinstance(action, Bid):
            if phase != BIDDING:
                raise IllegalAction(_("the bidding is over: play a card"))
            amount = action.amount
            if amount is not None:
                reason = rules.bid_problem(amount, info.high or None, self._n)
                if reason is not None:
                    raise IllegalAction(reason)
            self._state.apply(PASS if amount is None else BID0 + amount)
            self._actions.append({"player": self.players[seat], "bid": amount})
        elif isinstance(action, Play):
            if phase == BIDDING:
                raise IllegalAction(_("the bidding is not over: bid or pass"))
            if phase == ORDER:
                raise IllegalAction(_("choose uptown or downtown before the next lead"))
            self._apply_play(seat, action.card, action.suit)
        elif isinstance(action, ChooseOrder):
            if phase != ORDER:
                raise IllegalAction(_(
                    "the order is chosen only by the player who just won a trick with the "
                    "joker in a no-trump deal"
                ))
            if not isinstance(action.order, Order):
                raise IllegalAction(_("choose 'uptown' or 'downtown'"))
            self._state.apply(UPTOWN if action.order is Order.UPTOWN else DOWNTOWN)
            self._actions.append({"player": self.players[seat], "order": str(action.order)})
        else:
            raise IllegalAction(_("not a One Card action: {action!r}").format(action=action))

    def _apply_play(self, seat: int, card: Card, named: Suit | None) -> None:
        rule = self.options.joker
        info = self._state.info
        cards = self._cards
        hand = tuple(cards[c] for c in self._state.hands[seat])
        record: JSONObject = {"player": self.players[seat], "play": str(card)}
        trump = self.trump
        index = _INDEX[rule].get(card)
        if not info.trick:
            reason = rules.play_problem(card, hand, None, trump, rule)
            if reason is not None:
                raise IllegalAction(reason)
            try:
                if info.trump < 0:
                    rules.trump_from_lead(card, rule, named)
                else:
                    rules.led_suit_of(card, trump, rule, named)
            except ValueError as exc:
                raise IllegalAction(str(exc)) from None
            assert index is not None  # play_problem: the card is in the hand
            naming = self._naming_lead()
            if named is not None and naming:
                record["suit"] = named.value
                if index == JOKER_INDEX:
                    index = NAME0 + _SUIT_INDEX[named]
        else:
            if named is not None:
                raise IllegalAction(_("only the player who leads the joker names a suit"))
            reason = rules.play_problem(card, hand, SUITS[info.led], trump, rule)
            if reason is not None:
                raise IllegalAction(reason)
            assert index is not None
        last = len(info.trick) == self._n - 1  # this card ends the trick
        if last:
            plays = (*self._trick_plays(), (seat, card))
            led = info.led
        self._state.apply(index)
        self._actions.append(record)
        if last:
            points = rules.trick_points([c for _, c in plays], rule)
            self._tricks.append(Trick(plays[0][0], plays, SUITS[led], info.last_winner,
                                      points))

    # -- the end -----------------------------------------------------------

    def result(self) -> DealResult:
        """The points taken and the scores (through :func:`rules.score_deal`)."""
        info = self._state.info
        if info.phase != OVER:
            raise ValueError(_("the deal is not over"))
        bidder, bid = self.bidder, self.bid
        score = self._state.score()
        names = self.players
        return DealResult(
            dealer=self.dealer,
            bidder=None if bidder is None else names[bidder],
            bid=bid,
            trump=self.trump,
            points=dict(zip(names, score.points, strict=True)),
            scores=dict(zip(names, score.scores, strict=True)),
            bid_failed=score.bid_failed,
            one_card_to=names[info.last_winner],
        )

    def to_record(self) -> tuple[JSONObject, list[JSONObject]]:
        """FORMAT.md's ``deal`` and ``actions`` (copies; card strings, player names)."""
        initial = self._initial
        deal: JSONObject = {
            "dealer": initial["dealer"],
            "hands": {name: list(cards) for name, cards in initial["hands"].items()},
            "one_card": initial["one_card"],
        }
        return deal, [dict(record) for record in self._actions]

    def round_record(self) -> JSONObject:
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
