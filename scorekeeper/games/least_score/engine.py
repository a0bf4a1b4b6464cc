"""Least Score on the virtual deck: the state machine of one deal.

Modelled on OpenSpiel's games (``current_player``, ``legal_actions``, ``apply``,
a per-player observation): a :class:`Deal` holds the whole hidden state; a player
(human or bot) only ever gets a :class:`View`, which holds what that player may
see at the table and nothing more.

The rules themselves (what a legal discard is, hand values, scoring) come from
:mod:`scorekeeper.games.least_score.rules`; scoring goes through
:func:`rules.score_deal`, the same function the scorekeeper uses.

Randomness comes only from the ``random.Random`` passed in: the shuffle in
:meth:`Deal.new` and any reshuffle of the dead pile into a new deck. A deal is
saved as FORMAT.md's ``deal`` and ``actions`` (:meth:`Deal.to_record`) and rebuilt
from them exactly (:meth:`Deal.from_record` and :meth:`Deal.replay`): a recorded
reshuffle order is used instead of the random generator.

>>> import random
>>> deal = Deal.new(["Ann", "Bob", "Cy"], "Ann", random.Random(1), Options())
>>> deal.current_player, len(deal.view("Bob").hand), deal.view("Bob").deck_size
('Bob', 5, 36)
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from scorekeeper.cards import STANDARD_DECK, Card, CardError, Rank, parse_card
from scorekeeper.errors import IllegalAction
from scorekeeper.games.least_score import rules
from scorekeeper.games.least_score.rules import Options, TwoPairs

__all__ = [
    "Action",
    "Deal",
    "DealInfo",
    "DealResult",
    "Declare",
    "Discard",
    "IllegalAction",
    "LiveDeal",
    "PlayerView",
    "SeatView",
    "View",
    "action_from_record",
    "legal_actions_for",
    "legal_discard_sets",
]


_TEXT: dict[Card, str] = {card: str(card) for card in STANDARD_DECK}
"""The notation of each card (``str(card)``), looked up once."""


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard ``cards`` (a legal set, face up) then take ``take`` from the floor.

    ``take=None`` takes the top card of the deck.
    """

    cards: tuple[Card, ...]
    take: Card | None = None

    def __str__(self) -> str:
        taken = "the deck" if self.take is None else str(self.take)
        return f"discard {' '.join(str(c) for c in self.cards)}, take {taken}"


@dataclass(frozen=True, slots=True)
class Declare:
    """Declare at the start of the turn: all hands are revealed and the deal is scored."""

    def __str__(self) -> str:
        return "declare"


Action = Discard | Declare


# ---------------------------------------------------------------------------
# Legal discards, generated directly (no test of every subset)


def legal_discard_sets(
    hand: Sequence[Card], two_pairs: TwoPairs = TwoPairs.SAME_RANK
) -> list[tuple[Card, ...]]:
    """Every legal discard from ``hand``, each in hand order, without repeats.

    The same sets as :func:`rules.legal_discards` (which tests every subset with
    :func:`rules.discard_problem`), built directly: singles, pairs, all four of a
    rank, 3-card runs, the whole hand as a 5-card run or flush, and with
    ``two_pairs=any-rank`` two pairs of different ranks.
    """
    n = len(hand)
    out: list[tuple[Card, ...]] = [(c,) for c in hand]
    if n < 2:
        return out
    by_rank: dict[int, list[int]] = {}
    for i, card in enumerate(hand):
        by_rank.setdefault(card.rank, []).append(i)
    if len(by_rank) < n:  # some rank repeats: pairs, quads, two pairs
        multi = [idx for idx in by_rank.values() if len(idx) >= 2]
        for idx in multi:
            for a, b in itertools.combinations(idx, 2):
                out.append((hand[a], hand[b]))
            if len(idx) == 4:
                out.append(tuple(hand[i] for i in idx))
        if two_pairs is TwoPairs.ANY_RANK and len(multi) >= 2:
            for m1, m2 in itertools.combinations(multi, 2):
                for p1 in itertools.combinations(m1, 2):
                    for p2 in itertools.combinations(m2, 2):
                        out.append(tuple(hand[i] for i in sorted(p1 + p2)))
    if n >= 3 and len(by_rank) >= 3:
        ace = by_rank.get(Rank.ACE)
        for start, first in by_rank.items():  # runs start..start+2; 12 is Q-K-A
            if start == Rank.KING:
                continue
            second = by_rank.get(start + 1)
            if second is None:
                continue
            third = ace if start == 12 else by_rank.get(start + 2)
            if third is None:
                continue
            for a in first:
                for b in second:
                    for c in third:
                        out.append(tuple(hand[i] for i in sorted((a, b, c))))
        if n == 5:
            run = len(by_rank) == 5 and _is_five_run(sorted(by_rank))
            if run or len({c.suit for c in hand}) == 1:  # a straight flush counts once
                out.append(tuple(hand))
    return out


def _is_five_run(ranks: list[int]) -> bool:
    if ranks[4] - ranks[0] == 4:
        return True
    return ranks == [1, 10, 11, 12, 13]


def legal_actions_for(
    hand: Sequence[Card],
    floor: Sequence[Card],
    deck_available: bool,
    can_declare: bool,
    two_pairs: TwoPairs = TwoPairs.SAME_RANK,
) -> list[Action]:
    """Every legal action from what the player to act can see.

    Each legal discard set combined with each take: any card of the floor, or the
    deck (``None``) when the deck or the dead pile has cards; then ``Declare`` when
    declaring is allowed.
    """
    takes: list[Card | None] = list(floor)
    if deck_available:
        takes.append(None)
    actions: list[Action] = [
        Discard(cards, take) for cards in legal_discard_sets(hand, two_pairs) for take in takes
    ]
    if can_declare:
        actions.append(Declare())
    return actions


# ---------------------------------------------------------------------------
# What a player sees


class View(NamedTuple):
    """What ``player`` may see of a deal, and nothing more (an immutable tuple).

    Sequences indexed by seat follow ``players`` (seating order). ``taken_seen``
    holds, for each player, the floor cards that player was seen to take and has
    not been seen to discard since (for the viewer: the same, although the viewer
    knows their whole hand). ``seen`` is every card that has been face up on a
    floor in this deal, in the order it appeared; ``dead_pile`` is the floor cards
    nobody took (all seen). ``reshuffled`` are the dead-pile cards shuffled back
    into the deck (seen, but now face down somewhere). ``can_declare`` is true when
    it is the viewer's turn and every player has had a turn in this deal.
    """

    player: str
    seat: int
    players: tuple[str, ...]
    dealer: str
    hand: tuple[Card, ...]
    floor: tuple[Card, ...]
    floor_from: str | None
    seen: tuple[Card, ...]
    dead_pile: tuple[Card, ...]
    reshuffled: frozenset[Card]
    hand_sizes: tuple[int, ...]
    taken_seen: tuple[tuple[Card, ...], ...]
    turns_taken: tuple[int, ...]
    deck_size: int
    current_player: str | None
    turn: int
    can_declare: bool
    options: Options

    @property
    def my_turn(self) -> bool:
        return self.current_player == self.player

    @property
    def deck_available(self) -> bool:
        """Can the player take from the deck (the deck or the dead pile has cards)?"""
        return self.deck_size > 0 or bool(self.dead_pile)

    def legal_discards(self) -> list[tuple[Card, ...]]:
        return legal_discard_sets(self.hand, self.options.two_pairs)

    def take_options(self) -> list[Card | None]:
        """The cards that can be taken: each floor card, and ``None`` for the deck."""
        takes: list[Card | None] = list(self.floor)
        if self.deck_available:
            takes.append(None)
        return takes

    def legal_actions(self) -> list[Action]:
        """The player's legal actions (empty when it is not their turn)."""
        if not self.my_turn:
            return []
        return legal_actions_for(
            self.hand, self.floor, self.deck_available, self.can_declare, self.options.two_pairs
        )


# ---------------------------------------------------------------------------
# The result


@dataclass(frozen=True, slots=True)
class DealResult:
    """A declared deal: the revealed hands and totals and the score from rules.score_deal."""

    declarer: str
    hands: dict[str, tuple[Card, ...]]
    totals: dict[str, int]
    score: rules.DealScore

    @property
    def scores(self) -> dict[str, int]:
        return self.score.scores

    @property
    def false_declaration(self) -> bool:
        return self.score.false_declaration


# ---------------------------------------------------------------------------
# The deal


def _card(text: Any, what: str) -> Card:
    if not isinstance(text, str):
        raise ValueError(f"{what}: expected a card such as 10H, not {text!r}")
    try:
        card = parse_card(text, allow_joker=False)
    except CardError as exc:
        raise ValueError(f"{what}: {exc}") from None
    return card


def _cards(items: Any, what: str) -> list[Card]:
    if not isinstance(items, list | tuple):
        raise ValueError(f"{what}: expected a list of cards, not {items!r}")
    return [_card(item, what) for item in items]


def action_from_record(record: Mapping[str, Any]) -> Action:
    """The action of one FORMAT.md ``actions`` entry (not a ``reshuffle`` entry)."""
    if record.get("declare") is True:
        return Declare()
    if "discard" not in record or "take" not in record:
        raise ValueError(f"not a Least Score action: {dict(record)!r}")
    cards = tuple(_cards(record["discard"], "discard"))
    take_text = record["take"]
    take = None if take_text == "deck" else _card(take_text, "take")
    return Discard(cards, take)


class Deal:
    """One deal of Least Score, from the deal to the declaration.

    ``players`` are the players in this deal in seating order (the deal passes to
    the left, i.e. to the next in this order); the player after the dealer acts first.
    """

    __slots__ = (
        "_actions",
        "_current",
        "_dead",
        "_deck",
        "_declarer",
        "_floor",
        "_floor_from",
        "_hands",
        "_initial",
        "_known",
        "_n",
        "_pending_reshuffle",
        "_reshuffled",
        "_rng",
        "_seen",
        "_turn",
        "_turns_taken",
        "dealer",
        "options",
        "players",
    )

    def __init__(
        self,
        players: Sequence[str],
        dealer: str,
        hands: Sequence[Sequence[Card]],
        floor: Card,
        deck: Sequence[Card],
        options: Options,
        rng: random.Random | None,
    ) -> None:
        """A deal as dealt: ``hands`` by seat, the turned-up ``floor`` card, ``deck`` top first.

        Prefer :meth:`new` or :meth:`from_record`.
        """
        self.players: tuple[str, ...] = tuple(players)
        self._n = len(self.players)
        if not rules.MIN_PLAYERS <= self._n <= rules.MAX_PLAYERS:
            raise ValueError(
                f"Least Score is for {rules.MIN_PLAYERS} to {rules.MAX_PLAYERS} players, "
                f"not {self._n}"
            )
        if len({p.casefold() for p in self.players}) != self._n:
            raise ValueError("player names must be unique")
        if dealer not in self.players:
            raise ValueError(f"the dealer {dealer} is not a player in this deal")
        if len(hands) != self._n:
            raise ValueError("one hand per player is needed")
        for name, hand in zip(self.players, hands, strict=True):
            if len(hand) != rules.HAND_SIZE:
                raise ValueError(f"{name} must be dealt {rules.HAND_SIZE} cards, not {len(hand)}")
        every = [card for hand in hands for card in hand] + [floor, *deck]
        if len(every) != len(STANDARD_DECK) or set(every) != set(STANDARD_DECK):
            raise ValueError("the hands, the floor and the deck must hold the 52 cards once each")
        self.dealer = dealer
        self.options = options
        self._rng = rng
        self._hands: list[list[Card]] = [list(hand) for hand in hands]
        self._floor: tuple[Card, ...] = (floor,)
        self._floor_from: int | None = None
        self._deck: list[Card] = list(reversed(deck))  # top of the deck is the end
        self._dead: list[Card] = []
        self._seen: list[Card] = [floor]
        self._reshuffled: frozenset[Card] = frozenset()
        self._known: list[list[Card]] = [[] for _ in self.players]
        self._turns_taken = [0] * self._n
        self._turn = 0
        self._current = (self.players.index(dealer) + 1) % self._n
        self._declarer: int | None = None
        self._actions: list[dict[str, Any]] = []
        self._pending_reshuffle: list[Card] | None = None
        self._initial: dict[str, Any] = {
            "dealer": dealer,
            "hands": {
                name: [_TEXT[c] for c in hand]
                for name, hand in zip(self.players, hands, strict=True)
            },
            "floor": [_TEXT[floor]],
            "deck": [_TEXT[c] for c in deck],
        }

    # -- construction ------------------------------------------------------

    @classmethod
    def new(
        cls, players: Sequence[str], dealer: str, rng: random.Random, options: Options
    ) -> Deal:
        """Shuffle with ``rng`` and deal: 5 cards each, one at a time, starting left of
        the dealer; the next card is the first floor; the rest is the deck."""
        cards = list(STANDARD_DECK)
        rng.shuffle(cards)
        n = len(players)
        if dealer not in players:
            raise ValueError(f"the dealer {dealer} is not a player in this deal")
        first = (list(players).index(dealer) + 1) % n
        hands: list[list[Card]] = [[] for _ in players]
        position = 0
        for _ in range(rules.HAND_SIZE):
            for step in range(n):
                hands[(first + step) % n].append(cards[position])
                position += 1
        floor = cards[position]
        return cls(players, dealer, hands, floor, cards[position + 1 :], options, rng)

    @classmethod
    def from_record(
        cls,
        deal: Mapping[str, Any],
        options: Options,
        rng: random.Random | None = None,
    ) -> Deal:
        """The deal as FORMAT.md records it (``dealer``, ``hands``, ``floor``, ``deck``).

        The players are the keys of ``hands``, in seating order. ``rng`` is only
        needed to go on playing past the recorded actions (for a reshuffle).
        """
        try:
            dealer = deal["dealer"]
            hands = deal["hands"]
            floor = _cards(deal["floor"], "floor")
            deck = _cards(deal["deck"], "deck")
        except KeyError as exc:
            raise ValueError(f"the deal has no {exc.args[0]!r}") from None
        if not isinstance(hands, Mapping) or not isinstance(dealer, str):
            raise ValueError("the deal needs a dealer name and a hand per player")
        if len(floor) != 1:
            raise ValueError("the deal's floor must be exactly one card")
        players = [str(name) for name in hands]
        cards = [_cards(hands[name], f"{name}'s hand") for name in players]
        return cls(players, dealer, cards, floor[0], deck, options, rng)

    def replay(self, actions: Iterable[Mapping[str, Any]]) -> None:
        """Apply FORMAT.md ``actions`` in order, checking each (``IllegalAction`` if not)."""
        for number, record in enumerate(actions, 1):
            if "reshuffle" in record:
                if self._pending_reshuffle is not None:
                    raise IllegalAction(f"action {number}: two reshuffles in a row")
                self._pending_reshuffle = _cards(record["reshuffle"], "reshuffle")
                continue
            player = record.get("player")
            current = self.current_player
            if player != current:
                raise IllegalAction(
                    f"action {number}: it is {current or 'nobody'}'s turn, not {player}'s"
                )
            try:
                action = action_from_record(record)
            except ValueError as exc:
                raise IllegalAction(f"action {number}: {exc}") from None
            try:
                self.apply(action)
            except IllegalAction as exc:
                raise IllegalAction(f"action {number} ({player}): {exc}") from None
            if self._pending_reshuffle is not None:
                raise IllegalAction(
                    f"action {number} ({player}): a reshuffle is recorded before it, "
                    "but it does not take from an empty deck"
                )

    # -- state -------------------------------------------------------------

    @property
    def current_player(self) -> str | None:
        """Whose turn it is, or ``None`` once the deal is over."""
        return None if self._declarer is not None else self.players[self._current]

    @property
    def current_seat(self) -> int | None:
        return None if self._declarer is not None else self._current

    @property
    def is_over(self) -> bool:
        return self._declarer is not None

    @property
    def turn(self) -> int:
        """How many turns (discard and take) have been played in this deal."""
        return self._turn

    @property
    def can_declare(self) -> bool:
        """Has every player taken at least one turn (and the deal is not over)?"""
        return self._declarer is None and self._turn >= self._n

    def hand(self, player: str) -> tuple[Card, ...]:
        return tuple(self._hands[self.players.index(player)])

    @property
    def floor(self) -> tuple[Card, ...]:
        return self._floor

    @property
    def deck(self) -> tuple[Card, ...]:
        """The face-down deck, top first."""
        return tuple(reversed(self._deck))

    @property
    def dead_pile(self) -> tuple[Card, ...]:
        return tuple(self._dead)

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to act (empty once the deal is over)."""
        if self._declarer is not None:
            return []
        return legal_actions_for(
            self._hands[self._current],
            self._floor,
            bool(self._deck) or bool(self._dead),
            self._turn >= self._n,
            self.options.two_pairs,
        )

    def view(self, player: str) -> View:
        """What ``player`` may see."""
        seat = self.players.index(player)
        current = self.current_player
        return View(
            player=player,
            seat=seat,
            players=self.players,
            dealer=self.dealer,
            hand=tuple(self._hands[seat]),
            floor=self._floor,
            floor_from=None if self._floor_from is None else self.players[self._floor_from],
            seen=tuple(self._seen),
            dead_pile=tuple(self._dead),
            reshuffled=self._reshuffled,
            hand_sizes=tuple(len(h) for h in self._hands),
            taken_seen=tuple(tuple(k) for k in self._known),
            turns_taken=tuple(self._turns_taken),
            deck_size=len(self._deck),
            current_player=current,
            turn=self._turn,
            can_declare=current == player and self._turn >= self._n,
            options=self.options,
        )

    # -- playing -----------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Play ``action`` for the current player; ``IllegalAction`` (state unchanged) if
        the rules refuse it."""
        if self._declarer is not None:
            raise IllegalAction("the deal is over: a player has declared")
        seat = self._current
        if isinstance(action, Declare):
            if self._turn < self._n:
                raise IllegalAction("you can't declare before every player has had a turn")
            self._declarer = seat
            self._actions.append({"player": self.players[seat], "declare": True})
            return
        if not isinstance(action, Discard):
            raise IllegalAction(f"not a Least Score action: {action!r}")
        hand = self._hands[seat]
        cards = action.cards
        if not cards:
            raise IllegalAction("discard at least one card")
        for card in cards:
            if card not in hand:
                raise IllegalAction(f"{card} is not in your hand")
        if len(cards) > 1:
            problem = rules.discard_problem(cards, self.options.two_pairs)
            if problem is not None:
                raise IllegalAction(problem)
        take = action.take
        floor = self._floor
        if take is not None:
            if take in cards:
                raise IllegalAction("you can't take back a card you just discarded")
            if take not in floor:
                raise IllegalAction(
                    f"{take} is not on the floor: take one of "
                    f"{', '.join(str(c) for c in floor)} or the deck"
                )
            got = take
        else:
            if not self._deck:
                if not self._dead:
                    raise IllegalAction(
                        "the deck and the dead pile are empty: take a card from the floor"
                    )
                self._reshuffle()
            got = self._deck.pop()
        # Commit.
        for card in cards:
            hand.remove(card)
        hand.append(got)
        known = self._known[seat]
        if known:
            for card in cards:
                if card in known:
                    known.remove(card)
        if take is not None:
            known.append(take)
            self._dead.extend(c for c in floor if c != take)
        else:
            self._dead.extend(floor)
        self._floor = tuple(cards)
        self._floor_from = seat
        self._seen.extend(cards)
        self._actions.append(
            {
                "player": self.players[seat],
                "discard": [_TEXT[c] for c in cards],
                "take": "deck" if take is None else _TEXT[take],
            }
        )
        self._turn += 1
        self._turns_taken[seat] += 1
        self._current = (seat + 1) % self._n

    def _reshuffle(self) -> None:
        """The dead pile (not the floor, not the cards being discarded) becomes the deck."""
        order = self._pending_reshuffle
        if order is None:
            if self._rng is None:
                raise IllegalAction(
                    "the deck is empty and no reshuffle is recorded (no random generator given)"
                )
            order = list(self._dead)
            self._rng.shuffle(order)
        elif len(order) != len(self._dead) or set(order) != set(self._dead):
            self._pending_reshuffle = None
            raise IllegalAction("the recorded reshuffle is not the dead pile")
        self._pending_reshuffle = None
        self._actions.append({"reshuffle": [_TEXT[c] for c in order]})
        self._reshuffled = self._reshuffled.union(order)
        self._deck = list(reversed(order))
        self._dead = []

    # -- the end -----------------------------------------------------------

    @property
    def declarer(self) -> str | None:
        return None if self._declarer is None else self.players[self._declarer]

    def result(self) -> DealResult:
        """The revealed hands and totals and the scores (through rules.score_deal)."""
        if self._declarer is None:
            raise ValueError("the deal is not over: nobody has declared yet")
        hands = {name: tuple(hand) for name, hand in zip(self.players, self._hands, strict=True)}
        totals = {name: rules.hand_value(hand) for name, hand in hands.items()}
        declarer = self.players[self._declarer]
        return DealResult(declarer, hands, totals, rules.score_deal(totals, declarer,
                                                                     self.options.tie))

    def to_record(self) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """FORMAT.md's ``deal`` and ``actions`` (copies; card strings, player names)."""
        initial = self._initial
        deal = {
            "dealer": initial["dealer"],
            "hands": {name: list(cards) for name, cards in initial["hands"].items()},
            "floor": list(initial["floor"]),
            "deck": list(initial["deck"]),
        }
        actions = [
            {key: (list(value) if isinstance(value, list) else value)
             for key, value in record.items()}
            for record in self._actions
        ]
        return deal, actions

    def all_cards(self) -> list[Card]:
        """Every card of the deal wherever it is (hands, floor, deck, dead pile): for checks."""
        return [c for hand in self._hands for c in hand] + [
            *self._floor, *self._deck, *self._dead]


# ---------------------------------------------------------------------------
# Bots-only play: what each player sees, kept up to date


class PlayerView(Protocol):
    """What a bot reads of a player's view: a :class:`View`, or the live :class:`SeatView`
    of a bots-only game. Sequences may be lists or tuples; a bot never changes them."""

    @property
    def seat(self) -> int: ...
    @property
    def player(self) -> str: ...
    @property
    def players(self) -> Sequence[str]: ...
    @property
    def hand(self) -> Sequence[Card]: ...
    @property
    def floor(self) -> Sequence[Card]: ...
    @property
    def dead_pile(self) -> Sequence[Card]: ...
    @property
    def hand_sizes(self) -> Sequence[int]: ...
    @property
    def taken_seen(self) -> Sequence[Sequence[Card]]: ...
    @property
    def turns_taken(self) -> Sequence[int]: ...
    @property
    def deck_size(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def can_declare(self) -> bool: ...
    @property
    def options(self) -> Options: ...
    @property
    def deck_available(self) -> bool: ...

    def legal_discards(self) -> list[tuple[Card, ...]]: ...

    def take_options(self) -> list[Card | None]: ...


class DealInfo:
    """What every player at the table sees of a deal, kept up to date by a
    :class:`LiveDeal`: the fields of :class:`View` that are the same for everyone
    (seats are indices into ``players``; ``floor_from`` and ``cur`` are seats, -1 for
    none; ``known[seat]`` is :attr:`View.taken_seen`)."""

    __slots__ = (
        "cur",
        "dead",
        "dealer",
        "deck_size",
        "floor",
        "floor_from",
        "known",
        "n",
        "options",
        "players",
        "reshuffled",
        "seen",
        "sizes",
        "turn",
        "turns_taken",
    )

    def __init__(self, players: Sequence[str], dealer: str, floor: Card, deck_size: int,
                 options: Options) -> None:
        n = len(players)
        self.players = tuple(players)
        self.dealer = dealer
        self.options = options
        self.n = n
        self.floor: tuple[Card, ...] = (floor,)
        self.floor_from = -1
        self.seen: list[Card] = [floor]
        self.dead: list[Card] = []
        self.reshuffled: frozenset[Card] = frozenset()
        self.sizes = [rules.HAND_SIZE] * n
        self.known: list[list[Card]] = [[] for _ in range(n)]
        self.turns_taken = [0] * n
        self.deck_size = deck_size
        self.cur = (self.players.index(dealer) + 1) % n
        self.turn = 0


class SeatView:
    """One player's live view of a bots-only deal: :class:`View`'s fields, read from the
    :class:`DealInfo` everyone sees and the player's own hand. Made once per deal; it
    never holds another hand or the deck."""

    __slots__ = ("hand", "info", "player", "seat")

    def __init__(self, seat: int, hand: list[Card], info: DealInfo) -> None:
        self.seat = seat
        self.player = info.players[seat]
        self.hand = hand
        self.info = info

    @property
    def players(self) -> tuple[str, ...]:
        return self.info.players

    @property
    def dealer(self) -> str:
        return self.info.dealer

    @property
    def options(self) -> Options:
        return self.info.options

    @property
    def floor(self) -> tuple[Card, ...]:
        return self.info.floor

    @property
    def floor_from(self) -> str | None:
        seat = self.info.floor_from
        return None if seat < 0 else self.info.players[seat]

    @property
    def seen(self) -> list[Card]:
        return self.info.seen

    @property
    def dead_pile(self) -> list[Card]:
        return self.info.dead

    @property
    def reshuffled(self) -> frozenset[Card]:
        return self.info.reshuffled

    @property
    def hand_sizes(self) -> list[int]:
        return self.info.sizes

    @property
    def taken_seen(self) -> list[list[Card]]:
        return self.info.known

    @property
    def turns_taken(self) -> list[int]:
        return self.info.turns_taken

    @property
    def deck_size(self) -> int:
        return self.info.deck_size

    @property
    def current_player(self) -> str | None:
        return self.info.players[self.info.cur]

    @property
    def turn(self) -> int:
        return self.info.turn

    @property
    def my_turn(self) -> bool:
        return self.info.cur == self.seat

    @property
    def can_declare(self) -> bool:
        info = self.info
        return info.cur == self.seat and info.turn >= info.n

    @property
    def deck_available(self) -> bool:
        return self.info.deck_size > 0 or bool(self.info.dead)

    def legal_discards(self) -> list[tuple[Card, ...]]:
        return legal_discard_sets(self.hand, self.info.options.two_pairs)

    def take_options(self) -> list[Card | None]:
        takes: list[Card | None] = list(self.info.floor)
        if self.deck_available:
            takes.append(None)
        return takes


class LiveDeal:
    """A deal for bots-only games (``score simulate``): the same deal as :class:`Deal`,
    move by move and draw by draw, without a view built per decision, without the record
    and without checking the bots' actions (which come from :class:`SeatView`'s legal
    sets). It holds the hidden hands and deck and keeps :attr:`info` and each seat's
    :attr:`views` current.
    """

    __slots__ = ("_deck", "_rng", "declarer", "hands", "info", "views")

    def __init__(self, players: Sequence[str], dealer: str, rng: random.Random,
                 options: Options) -> None:
        """Shuffle and deal exactly as :meth:`Deal.new` does, with the same draws."""
        cards = list(STANDARD_DECK)
        rng.shuffle(cards)
        n = len(players)
        first = (list(players).index(dealer) + 1) % n
        hands: list[list[Card]] = [[] for _ in players]
        position = 0
        for _ in range(rules.HAND_SIZE):
            for step in range(n):
                hands[(first + step) % n].append(cards[position])
                position += 1
        self._rng = rng
        self._deck = cards[: position : -1]  # top of the deck is the end
        self.hands = hands
        self.declarer = -1
        self.info = info = DealInfo(players, dealer, cards[position], len(self._deck), options)
        self.views = [SeatView(seat, hands[seat], info) for seat in range(n)]

    @property
    def is_over(self) -> bool:
        return self.declarer >= 0

    def apply(self, action: Action) -> None:
        info = self.info
        seat = info.cur
        if isinstance(action, Declare):
            self.declarer = seat
            return
        hand = self.hands[seat]
        cards = action.cards
        take = action.take
        floor = info.floor
        if take is None:
            if not self._deck:
                order = list(info.dead)
                self._rng.shuffle(order)
                info.reshuffled = info.reshuffled.union(order)
                self._deck = order[::-1]
                info.dead = []
            got = self._deck.pop()
            info.deck_size = len(self._deck)
        else:
            got = take
        for card in cards:
            hand.remove(card)
        hand.append(got)
        known = info.known[seat]
        if known:
            for card in cards:
                if card in known:
                    known.remove(card)
        if take is not None:
            known.append(take)
            info.dead.extend(c for c in floor if c != take)
        else:
            info.dead.extend(floor)
        info.floor = tuple(cards)
        info.floor_from = seat
        info.seen.extend(cards)
        info.sizes[seat] = len(hand)
        info.turn += 1
        info.turns_taken[seat] += 1
        info.cur = (seat + 1) % info.n

    def totals(self) -> dict[str, int]:
        """Each player's hand total, by name (once a player has declared)."""
        values = _VALUES
        return {name: sum(values[c] for c in hand)
                for name, hand in zip(self.info.players, self.hands, strict=True)}


_VALUES: dict[Card, int] = {card: rules.card_value(card) for card in STANDARD_DECK}
