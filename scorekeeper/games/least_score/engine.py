"""Least Score on the virtual deck: the state machine of one deal.

One engine, in two layers:

- :class:`State`, the lean core, modelled on OpenSpiel's games: players are seats
  (``0..n-1``), actions are integers (:func:`encode_action`), and chance is explicit:
  :meth:`State.current_player` is :data:`CHANCE` before the deal and whenever a player
  takes from an empty deck (the dead pile is reshuffled into a new deck), and the
  outcome of a chance step is an order of cards, drawn by
  :meth:`State.chance_outcome` from the caller's ``random.Random`` or taken from a
  record. Each seat's observation (:meth:`State.observation`, a :class:`SeatView`) is
  kept up to date as the deal goes, so bots-only play (``score simulate``) builds no
  view per decision. It trusts its caller: it checks nothing.
- :class:`Deal`, the typed facade for ``score play``, replay and import: player names,
  named actions (:class:`Discard`, :class:`Declare`) checked against the rules
  (:class:`IllegalAction`, state unchanged, when refused), immutable :class:`View`
  snapshots, the result, and FORMAT.md's ``deal`` and ``actions`` record
  (:meth:`Deal.to_record`, :meth:`Deal.from_record`, :meth:`Deal.replay`: a recorded
  reshuffle order is used instead of the random generator). Every move goes through
  its :class:`State`.

The rules themselves (what a legal discard is, hand values, scoring) come from
:mod:`scorekeeper.games.least_score.rules`; scoring goes through
:func:`rules.score_deal`, the same function the scorekeeper uses.

>>> import random
>>> deal = Deal.new(["Ann", "Bob", "Cy"], "Ann", random.Random(1), Options())
>>> deal.current_player, len(deal.view("Bob").hand), deal.view("Bob").deck_size
('Bob', 5, 36)
>>> state = State(["Ann", "Bob", "Cy"], "Ann", Options())
>>> state.current_player() == CHANCE
True
>>> state.apply_chance(state.chance_outcome(random.Random(1)))
>>> state.current_player(), state.observation(1).hand == list(deal.view("Bob").hand)
(1, True)
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol, TypedDict

from scorekeeper.cards import JOKER, STANDARD_DECK, Card, CardError, Rank, parse_card
from scorekeeper.errors import IllegalAction
from scorekeeper.games.least_score import rules
from scorekeeper.games.least_score.rules import Options, TwoPairs
from scorekeeper.games.least_score.words import _, ngettext
from scorekeeper.json_types import JSONObject, JSONRecord

__all__ = [
    "CHANCE",
    "DECLARE",
    "TAKE_DECK",
    "TERMINAL",
    "Action",
    "Deal",
    "DealInfo",
    "DealResult",
    "Declare",
    "Discard",
    "GameScore",
    "IllegalAction",
    "PlayerView",
    "SeatView",
    "State",
    "View",
    "action_from_record",
    "decode_action",
    "encode_action",
    "legal_actions_for",
    "legal_discard_sets",
]


_TEXT: dict[Card, str] = {card: str(card) for card in (*STANDARD_DECK, JOKER)}
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
    jokers = by_rank.get(Rank.JOKER)
    if jokers is not None and len(jokers) > 1:
        del out[jokers[1]]  # the two jokers are alike: one single
    if len(by_rank) < n:  # some rank repeats: pairs, quads, two pairs
        _add_same_rank_sets(out, hand, by_rank, two_pairs)
    if n >= 3 and len(by_rank) >= 3:
        _add_three_card_runs(out, hand, by_rank)
        if n == 5 and jokers is None:  # a joker is never wild
            run = len(by_rank) == 5 and _is_five_run(sorted(by_rank))
            if run or len({c.suit for c in hand}) == 1:  # a straight flush counts once
                out.append(tuple(hand))
    return out


def _add_same_rank_sets(out: list[tuple[Card, ...]], hand: Sequence[Card],
                        by_rank: dict[int, list[int]], two_pairs: TwoPairs) -> None:
    """Add to ``out`` the pairs and quads of ``hand`` (its card indexes ``by_rank``), and
    with ``two_pairs=any-rank`` its two pairs of different ranks."""
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


def _add_three_card_runs(out: list[tuple[Card, ...]], hand: Sequence[Card],
                         by_rank: dict[int, list[int]]) -> None:
    """Add to ``out`` the 3-card runs of ``hand`` (its card indexes ``by_rank``)."""
    ace = by_rank.get(Rank.ACE)
    for start, first in by_rank.items():  # runs start..start+2; 12 is Q-K-A
        if start == Rank.KING or start == Rank.JOKER:
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
# Actions as integers

CHANCE = -1
""":meth:`State.current_player` when chance acts: the deal, or a reshuffle."""
TERMINAL = -4
""":meth:`State.current_player` once a player has declared."""

TAKE_DECK = 52
"""The take of an action that takes the top card of the deck."""
CARD_ID: dict[Card, int] = {card: index for index, card in enumerate(STANDARD_DECK)} | {
    JOKER: TAKE_DECK + 1}
"""A card's number, 0 to 51: its place in ``STANDARD_DECK``; a joker (Yaniv's house rule
``jokers``: the jokers are alike) 53."""
_BY_ID: dict[int, Card] = {index: card for card, index in CARD_ID.items()}
DECLARE = 63
"""The action that declares."""
_FIELD = 6
_MASK = (1 << _FIELD) - 1


def encode_action(action: Action) -> int:
    """The integer of a named action: the take (a card's number, or :data:`TAKE_DECK`)
    in the lowest 6 bits, then each discarded card's number plus one, 6 bits each, in
    the order given (the order the cards land on the floor); :data:`DECLARE` to declare.

    >>> encode_action(Declare()) == DECLARE
    True
    >>> str(decode_action(encode_action(Discard((parse_card("5H"), parse_card("5S")), None))))
    'discard 5H 5S, take the deck'
    """
    if isinstance(action, Declare):
        return DECLARE
    return _discard_code(action.cards) | (
        TAKE_DECK if action.take is None else CARD_ID[action.take])


def _discard_code(cards: Sequence[Card]) -> int:
    """The discard part of an action's integer (the take is or-ed in)."""
    code = 0
    shift = _FIELD
    for card in cards:
        code |= (CARD_ID[card] + 1) << shift
        shift += _FIELD
    return code


def _decode_cards(code: int) -> tuple[Card, ...]:
    code >>= _FIELD
    cards = []
    while code:
        cards.append(_BY_ID[(code & _MASK) - 1])
        code >>= _FIELD
    return tuple(cards)


def decode_action(code: int) -> Action:
    """The named action of an integer from :func:`encode_action`."""
    if code == DECLARE:
        return Declare()
    take = code & _MASK
    return Discard(_decode_cards(code), None if take == TAKE_DECK else _BY_ID[take])


@functools.lru_cache(maxsize=4096)
def _legal_discard_codes(hand: tuple[Card, ...], two_pairs: TwoPairs) -> frozenset[int]:
    """The discard parts of the legal actions' integers from ``hand``
    (:func:`legal_discard_sets` in hand order), for :meth:`State.apply`'s check."""
    return frozenset(_discard_code(cards) for cards in legal_discard_sets(hand, two_pairs))


def _refused(action: int) -> str:
    """Why :meth:`State.apply` refuses ``action``: it is none of the legal actions."""
    return _("not a Least Score action: {action}").format(action=action)


# ---------------------------------------------------------------------------
# The core: what everyone sees, what each player sees, and the hidden rest


class PlayerView(Protocol):
    """What a bot reads of a player's view: a :class:`View` snapshot (``score play``), or
    the live :class:`SeatView` of the core (bots-only games). Sequences may be lists or
    tuples; a bot never changes them."""

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
    def game(self) -> GameScore | None: ...
    @property
    def deck_available(self) -> bool: ...

    def legal_discards(self) -> list[tuple[Card, ...]]: ...

    def take_options(self) -> list[Card | None]: ...


@dataclass(frozen=True, slots=True)
class GameScore:
    """The game around a deal, as the whole table knows it: the running total of each
    player in the deal (by seat) before it (a bot that plays for the game, not only for
    the deal, reads it with the session's limit and end rule from the options)."""

    totals: tuple[int, ...]


class DealInfo:
    """What every player at the table sees of a deal, kept up to date by its
    :class:`State`: the fields of :class:`View` that are the same for everyone (seats
    are indices into ``players``; ``floor_from`` and ``cur`` are seats, -1 for none;
    ``known[seat]`` is :attr:`View.taken_seen`). Before the deal the floor is empty."""

    __slots__ = (
        "any_hand",
        "cur",
        "dead",
        "dealer",
        "deck_size",
        "floor",
        "floor_from",
        "game",
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

    def __init__(self, players: Sequence[str], dealer: str, options: Options,
                 game: GameScore | None = None) -> None:
        n = len(players)
        self.players = tuple(players)
        self.dealer = dealer
        self.options = options
        self.any_hand = options.declare_at >= rules.MAX_HAND_TOTAL
        """May every hand declare (Least Score), so that no hand's total need be counted?"""
        self.game = game
        self.n = n
        self.floor: tuple[Card, ...] = ()
        self.floor_from = -1
        self.seen: list[Card] = []
        self.dead: list[Card] = []
        self.reshuffled: frozenset[Card] = frozenset()
        self.sizes = [0] * n
        self.known: list[list[Card]] = [[] for _ in range(n)]
        self.turns_taken = [0] * n
        self.deck_size = 0
        self.cur = (self.players.index(dealer) + 1) % n
        self.turn = 0

    def copy(self) -> DealInfo:
        other = DealInfo.__new__(DealInfo)
        for name in DealInfo.__slots__:
            setattr(other, name, getattr(self, name))
        other.seen = list(self.seen)
        other.dead = list(self.dead)
        other.sizes = list(self.sizes)
        other.known = [list(cards) for cards in self.known]
        other.turns_taken = list(self.turns_taken)
        return other


class SeatView:
    """One player's live observation of a deal: :class:`View`'s fields, read from the
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
    def game(self) -> GameScore | None:
        return self.info.game

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
        return (info.cur == self.seat and info.turn >= info.n
                and (info.any_hand or _may_declare(self.hand, info.options)))

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


class State:
    """One deal of Least Score as a state machine on integer actions (the core).

    ``players`` sit in this order (the deal passes to the left, i.e. to the next in
    this order); the player after ``dealer`` acts first. A new state waits for chance
    to deal (:meth:`apply_chance` with a shuffled deck). It holds the hidden hands and
    deck and keeps :attr:`info` (public) and :attr:`views` (one per seat) current.
    """

    __slots__ = ("_dealt", "_deck", "_pending", "declarer", "hands", "info", "views")

    def __init__(self, players: Sequence[str], dealer: str, options: Options,
                 game: GameScore | None = None) -> None:
        """A deal waiting for its chance step; ``game``: the game around it, which every
        view shows (``None``: a deal on its own)."""
        self.info = info = DealInfo(players, dealer, options, game)
        self.hands: list[list[Card]] = [[] for _ in range(info.n)]
        self.views = [SeatView(seat, self.hands[seat], info) for seat in range(info.n)]
        self._deck: list[Card] = []  # top of the deck is the end
        self._dealt = False
        self._pending: tuple[Card, ...] | None = None
        """A discard that takes from the empty deck, waiting for the reshuffle."""
        self.declarer = -1

    @classmethod
    def from_view(cls, view: PlayerView, hands: Sequence[Sequence[Card]],
                  deck: Sequence[Card]) -> State:
        """A state that ``view`` cannot tell from the real one, with the hidden cards
        filled in: ``hands`` by seat (the viewer's own as in the view) and ``deck``, top
        first. For a bot's search: sample the hidden cards, then play on (on copies from
        :meth:`clone`, say). ``view`` is a :class:`View` or a :class:`SeatView` at the
        viewer's turn; nothing is checked.
        """
        players = tuple(view.players)
        info = DealInfo(players, view.players[0], view.options)
        if isinstance(view, SeatView):
            info.dealer = view.info.dealer
            public = view.info
            info.floor_from = public.floor_from
            info.seen = list(public.seen)
            info.reshuffled = public.reshuffled
        else:
            assert isinstance(view, View)
            info.dealer = view.dealer
            info.floor_from = -1 if view.floor_from is None else players.index(view.floor_from)
            info.seen = list(view.seen)
            info.reshuffled = view.reshuffled
        info.cur = view.seat
        info.floor = tuple(view.floor)
        info.dead = list(view.dead_pile)
        info.known = [list(cards) for cards in view.taken_seen]
        info.turns_taken = list(view.turns_taken)
        info.turn = view.turn
        state = cls.__new__(cls)
        state.info = info
        state.hands = [list(hand) for hand in hands]
        info.sizes = [len(hand) for hand in state.hands]
        state.views = [SeatView(seat, state.hands[seat], info) for seat in range(info.n)]
        state._deck = list(reversed(deck))
        info.deck_size = len(deck)
        state._dealt = True
        state._pending = None
        state.declarer = -1
        return state

    # -- OpenSpiel's questions ---------------------------------------------

    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` or :data:`TERMINAL`."""
        if self.declarer >= 0:
            return TERMINAL
        if self._pending is not None or not self._dealt:
            return CHANCE
        return self.info.cur

    def is_terminal(self) -> bool:
        return self.declarer >= 0

    def is_chance_node(self) -> bool:
        return self.declarer < 0 and (self._pending is not None or not self._dealt)

    def legal_actions(self) -> list[int]:
        """The acting player's legal actions: each legal discard (in hand order, as
        :func:`legal_discard_sets` gives them) with each take (the floor in order, then
        the deck if it or the dead pile has cards), then :data:`DECLARE` once every player
        has had a turn. Empty at a chance node or once over."""
        if self.current_player() < 0:
            return []
        info = self.info
        takes = [CARD_ID[card] for card in info.floor]
        if self._deck or info.dead:
            takes.append(TAKE_DECK)
        actions = [code | take
                   for cards in legal_discard_sets(self.hands[info.cur], info.options.two_pairs)
                   for code in (_discard_code(cards),) for take in takes]
        if info.turn >= info.n and (info.any_hand
                                    or _may_declare(self.hands[info.cur], info.options)):
            actions.append(DECLARE)
        return actions

    def observation(self, seat: int) -> SeatView:
        """What the player at ``seat`` sees, kept current as the deal goes on."""
        return self.views[seat]

    def chance_outcome(self, rng: random.Random) -> list[Card]:
        """The outcome of the chance step due, drawn from ``rng``: the 52 cards (and the
        jokers of the house rule ``jokers``) shuffled (before the deal, in the order they
        are dealt) or the dead pile shuffled (a reshuffle, top of the new deck first)."""
        order = list(self.info.dead) if self._dealt else list(rules.deck(self.info.options))
        rng.shuffle(order)
        return order

    def apply_chance(self, order: Sequence[Card]) -> None:
        """Play the chance step due with the outcome ``order`` (not checked).

        The deal: 5 cards each, one at a time, starting left of the dealer; the next
        card is the first floor; the rest is the deck. A reshuffle: the dead pile (not
        the floor, not the cards being discarded) becomes the deck in this order, then
        the waiting discard draws its top card."""
        info = self.info
        if self._dealt:
            info.reshuffled = info.reshuffled.union(order)
            self._deck = list(reversed(order))
            info.dead = []
            cards = self._pending
            assert cards is not None
            self._pending = None
            self.move(cards, None)
            return
        n = info.n
        hands = self.hands
        position = 0
        for _round in range(rules.HAND_SIZE):
            for step in range(n):
                hands[(info.cur + step) % n].append(order[position])
                position += 1
        info.floor = (order[position],)
        info.seen.append(order[position])
        self._deck = deck = [*order[: position : -1]]
        info.deck_size = len(deck)
        info.sizes = [rules.HAND_SIZE] * n
        self._dealt = True

    def apply(self, action: int) -> None:
        """Play ``action`` for the player to act: exactly the integers of
        :meth:`legal_actions` are taken; any other (or any at a chance node, or once over)
        is refused with ``IllegalAction``, the state unchanged. A take from the empty deck
        leaves the state at a chance node: the reshuffle. (:meth:`move` and
        :meth:`declare` are the same steps unchecked, for a search's own legal moves.)"""
        if self.current_player() < 0:
            raise IllegalAction(_("the deal is over: a player has declared")
                                if self.declarer >= 0 else _refused(action))
        info = self.info
        if action == DECLARE:
            if info.turn < info.n:
                raise IllegalAction(_("you can't declare before every player has had a turn"))
            refusal = _declare_refusal(self.hands[info.cur], info.options)
            if refusal is not None:
                raise IllegalAction(refusal)
            self.declarer = info.cur
            return
        take = action & _MASK
        if action < 0 or (
            not (self._deck or info.dead) if take == TAKE_DECK
            else take not in _BY_ID or _BY_ID[take] not in info.floor
        ) or action - take not in _legal_discard_codes(tuple(self.hands[info.cur]),
                                                        info.options.two_pairs):
            raise IllegalAction(_refused(action))
        self.move(_decode_cards(action), None if take == TAKE_DECK else _BY_ID[take])

    def declare(self) -> None:
        """:meth:`apply` of :data:`DECLARE`."""
        self.declarer = self.info.cur

    def move(self, cards: tuple[Card, ...], take: Card | None) -> bool:
        """:meth:`apply` of a discard, given by its cards (in the order they land on the
        floor) and its take (``None``: the deck), as bots name it: the same step without
        the integer's encoding (``score simulate``'s bots choose named actions). True when
        it leaves a chance step due (the reshuffle)."""
        info = self.info
        seat = info.cur
        if take is None:
            deck = self._deck
            if not deck:
                self._pending = cards
                return True
            got = deck.pop()
            info.deck_size = len(deck)
        else:
            got = take
        hand = self.hands[seat]
        floor = info.floor
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
            if take.rank is Rank.JOKER:  # one of two alike jokers taken: not both
                rest = list(floor)
                rest.remove(take)
                info.dead.extend(rest)
            else:
                info.dead.extend(c for c in floor if c != take)
        else:
            info.dead.extend(floor)
        info.floor = cards
        info.floor_from = seat
        info.seen.extend(cards)
        info.sizes[seat] = len(hand)
        info.turn += 1
        info.turns_taken[seat] += 1
        info.cur = (seat + 1) % info.n
        return False

    def clone(self) -> State:
        """An independent copy (for a search that tries moves)."""
        other = State.__new__(State)
        other.info = info = self.info.copy()
        other.hands = [list(hand) for hand in self.hands]
        other.views = [SeatView(seat, other.hands[seat], info) for seat in range(info.n)]
        other._deck = list(self._deck)
        other._dealt = self._dealt
        other._pending = self._pending
        other.declarer = self.declarer
        return other

    # -- reading the hidden state ------------------------------------------

    def deck(self) -> tuple[Card, ...]:
        """The face-down deck, top first."""
        return tuple(reversed(self._deck))

    def totals(self) -> dict[str, int]:
        """Each player's hand total, by name."""
        values = _VALUES
        return {name: sum(values[c] for c in hand)
                for name, hand in zip(self.info.players, self.hands, strict=True)}

    def score(self) -> rules.DealScore:
        """The declared deal's scores, through :func:`rules.score_deal`."""
        info = self.info
        return rules.score_declaration(self.totals(), info.players[self.declarer],
                                       info.options)


_VALUES: dict[Card, int] = {card: rules.card_value(card) for card in (*STANDARD_DECK, JOKER)}


def _may_declare(hand: Iterable[Card], options: Options) -> bool:
    """May ``hand`` declare under ``options`` (a variant's ``declare_at``)? Least Score's
    every hand may: its total is not even counted."""
    if options.declare_at >= rules.MAX_HAND_TOTAL:
        return True
    return rules.may_declare(sum(_VALUES[card] for card in hand), options)


def _declare_refusal(hand: Sequence[Card], options: Options) -> str | None:
    if _may_declare(hand, options):
        return None
    return _("you can declare only with {most} or less, not {total}").format(
        most=options.declare_at, total=rules.hand_value(hand))


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
    game: GameScore | None = None
    """The game so far (``None``: a deal on its own, as in a replay)."""

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
# The typed facade: names, checked actions, views, the FORMAT.md record


def _card(text: Any, what: str) -> Card:
    if not isinstance(text, str):
        raise ValueError(_("{what}: expected a card such as 10H, not {value}").format(
            what=what, value=repr(text)))
    try:
        card = parse_card(text)  # (a joker in a game without them: not in the deck)
    except CardError as exc:
        raise ValueError(_("{what}: {problem}").format(what=what, problem=exc)) from None
    return card


def _cards(items: Any, what: str) -> list[Card]:
    if not isinstance(items, list | tuple):
        raise ValueError(_("{what}: expected a list of cards, not {value}").format(
            what=what, value=repr(items)))
    return [_card(item, what) for item in items]


def action_from_record(record: JSONRecord) -> Action:
    """The action of one FORMAT.md ``actions`` entry (not a ``reshuffle`` entry)."""
    if record.get("declare") is True:
        return Declare()
    if "discard" not in record or "take" not in record:
        raise ValueError(_("not a Least Score action: {record}").format(
            record=repr(dict(record))))
    cards = tuple(_cards(record["discard"], "discard"))
    take_text = record["take"]
    take = None if take_text == "deck" else _card(take_text, "take")
    return Discard(cards, take)


def _check_seating(players: Sequence[str], dealer: str) -> None:
    n = len(players)
    if not rules.MIN_PLAYERS <= n <= rules.MAX_PLAYERS:
        raise ValueError(_("Least Score is for {low} to {high} players, not {count}").format(
            low=rules.MIN_PLAYERS, high=rules.MAX_PLAYERS, count=n))
    if len({p.casefold() for p in players}) != n:
        raise ValueError(_("player names must be unique"))
    if dealer not in players:
        raise ValueError(_("the dealer {dealer} is not a player in this deal").format(
            dealer=dealer))


class _Initial(TypedDict):
    """A deal as it was dealt (FORMAT.md's ``deal``): the dealer, each hand, the floor
    and the deck."""

    dealer: str
    hands: dict[str, list[str]]
    floor: list[str]
    deck: list[str]


class Deal:
    """One deal of Least Score, from the deal to the declaration, by player name.

    ``players`` are the players in this deal in seating order (the deal passes to
    the left, i.e. to the next in this order); the player after the dealer acts first.
    Every move is checked here, then played on the deal's :class:`State` (:attr:`state`).
    """

    __slots__ = (
        "_actions",
        "_initial",
        "_pending_reshuffle",
        "_rng",
        "_state",
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
        _check_seating(players, dealer)
        n = len(players)
        if len(hands) != n:
            raise ValueError(_("one hand per player is needed"))
        for name, hand in zip(players, hands, strict=True):
            if len(hand) != rules.HAND_SIZE:
                raise ValueError(_("{name} must be dealt {size} cards, not {count}").format(
                    name=name, size=rules.HAND_SIZE, count=len(hand)))
        every = [card for hand in hands for card in hand] + [floor, *deck]
        if Counter(every) != Counter(rules.deck(options)):
            if options.jokers:
                raise ValueError(ngettext(
                    "the hands, the floor and the deck must hold the 52 cards once each "
                    "and {n} joker",
                    "the hands, the floor and the deck must hold the 52 cards once each "
                    "and {n} jokers", options.jokers).format(n=options.jokers))
            raise ValueError(
                _("the hands, the floor and the deck must hold the 52 cards once each"))
        # The order that deals these hands: one card each in turn, left of the dealer first.
        first = (list(players).index(dealer) + 1) % n
        order = [hands[(first + step) % n][round_] for round_ in range(rules.HAND_SIZE)
                 for step in range(n)]
        self._start(State(players, dealer, options), [*order, floor, *deck], rng)

    def _start(self, state: State, order: Sequence[Card], rng: random.Random | None) -> None:
        state.apply_chance(order)
        info = state.info
        self._state = state
        self.players = info.players
        self.dealer = info.dealer
        self.options = info.options
        self._rng = rng
        self._actions: list[JSONObject] = []
        self._pending_reshuffle: list[Card] | None = None
        text = _TEXT
        self._initial: _Initial = {
            "dealer": info.dealer,
            "hands": {name: [text[c] for c in hand]
                      for name, hand in zip(info.players, state.hands, strict=True)},
            "floor": [text[info.floor[0]]],
            "deck": [text[c] for c in order[len(order) - info.deck_size:]],
        }

    # -- construction ------------------------------------------------------

    @classmethod
    def new(
        cls, players: Sequence[str], dealer: str, rng: random.Random, options: Options,
        totals: Sequence[int] | None = None,
    ) -> Deal:
        """Shuffle with ``rng`` (the deal's chance step) and deal: 5 cards each, one at a
        time, starting left of the dealer; the next card is the first floor; the rest is
        the deck. ``totals``: each player's running total before the deal, shown in the
        views."""
        _check_seating(players, dealer)
        state = State(players, dealer, options,
                      None if totals is None else GameScore(tuple(totals)))
        deal = cls.__new__(cls)
        deal._start(state, state.chance_outcome(rng), rng)
        return deal

    @classmethod
    def from_record(
        cls,
        deal: JSONRecord,
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
            raise ValueError(_("the deal has no {key}").format(key=repr(exc.args[0]))) from None
        if not isinstance(hands, Mapping) or not isinstance(dealer, str):
            raise ValueError(_("the deal needs a dealer name and a hand per player"))
        if len(floor) != 1:
            raise ValueError(_("the deal's floor must be exactly one card"))
        players = [str(name) for name in hands]
        cards = [_cards(hands[name], _("{name}'s hand").format(name=name)) for name in players]
        return cls(players, dealer, cards, floor[0], deck, options, rng)

    def replay(self, actions: Iterable[JSONRecord]) -> None:
        """Apply FORMAT.md ``actions`` in order, checking each (``IllegalAction`` if not)."""
        for number, record in enumerate(actions, 1):
            if "reshuffle" in record:
                if self._pending_reshuffle is not None:
                    raise IllegalAction(_("action {number}: two reshuffles in a row").format(
                        number=number))
                self._pending_reshuffle = _cards(record["reshuffle"], "reshuffle")
                continue
            player = record.get("player")
            current = self.current_player
            if player != current:
                if current is None:
                    raise IllegalAction(_("action {number}: it is nobody's turn, not "
                                          "{player}'s").format(number=number, player=player))
                raise IllegalAction(_("action {number}: it is {current}'s turn, not "
                                      "{player}'s").format(number=number, current=current,
                                                           player=player))
            try:
                action = action_from_record(record)
            except ValueError as exc:
                raise IllegalAction(_("action {number}: {problem}").format(
                    number=number, problem=exc)) from None
            try:
                self.apply(action)
            except IllegalAction as exc:
                raise IllegalAction(_("action {number} ({player}): {problem}").format(
                    number=number, player=player, problem=exc)) from None
            if self._pending_reshuffle is not None:
                raise IllegalAction(
                    _("action {number} ({player}): a reshuffle is recorded before it, "
                      "but it does not take from an empty deck").format(
                        number=number, player=player))

    # -- state -------------------------------------------------------------

    @property
    def state(self) -> State:
        """The core this deal plays on (read it; move only through :meth:`apply`)."""
        return self._state

    @property
    def current_player(self) -> str | None:
        """Whose turn it is, or ``None`` once the deal is over."""
        state = self._state
        return None if state.declarer >= 0 else self.players[state.info.cur]

    @property
    def current_seat(self) -> int | None:
        state = self._state
        return None if state.declarer >= 0 else state.info.cur

    @property
    def is_over(self) -> bool:
        return self._state.declarer >= 0

    @property
    def turn(self) -> int:
        """How many turns (discard and take) have been played in this deal."""
        return self._state.info.turn

    @property
    def can_declare(self) -> bool:
        """Has every player taken at least one turn (and the deal is not over), and may the
        current hand declare (a variant's ``declare_at``)?"""
        state = self._state
        info = state.info
        return (state.declarer < 0 and info.turn >= info.n
                and _may_declare(state.hands[info.cur], info.options))

    def hand(self, player: str) -> tuple[Card, ...]:
        return tuple(self._state.hands[self.players.index(player)])

    @property
    def floor(self) -> tuple[Card, ...]:
        return self._state.info.floor

    @property
    def deck(self) -> tuple[Card, ...]:
        """The face-down deck, top first."""
        return self._state.deck()

    @property
    def dead_pile(self) -> tuple[Card, ...]:
        return tuple(self._state.info.dead)

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to act (empty once the deal is over)."""
        return [decode_action(code) for code in self._state.legal_actions()]

    def view(self, player: str) -> View:
        """What ``player`` may see: a snapshot of the core's observation."""
        seat = self.players.index(player)
        state = self._state
        info = state.info
        current = self.current_player
        return View(
            player=player,
            seat=seat,
            players=self.players,
            dealer=self.dealer,
            hand=tuple(state.hands[seat]),
            floor=info.floor,
            floor_from=None if info.floor_from < 0 else self.players[info.floor_from],
            seen=tuple(info.seen),
            dead_pile=tuple(info.dead),
            reshuffled=info.reshuffled,
            hand_sizes=tuple(info.sizes),
            taken_seen=tuple(tuple(k) for k in info.known),
            turns_taken=tuple(info.turns_taken),
            deck_size=info.deck_size,
            current_player=current,
            turn=info.turn,
            can_declare=(current == player and info.turn >= info.n
                         and _may_declare(state.hands[seat], info.options)),
            options=self.options,
            game=info.game,
        )

    # -- playing -----------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Play ``action`` for the current player; ``IllegalAction`` (state unchanged) if
        the rules refuse it."""
        state = self._state
        if state.declarer >= 0:
            raise IllegalAction(_("the deal is over: a player has declared"))
        seat = state.info.cur
        if isinstance(action, Declare):
            self._declare(seat)
            return
        if not isinstance(action, Discard):
            raise IllegalAction(_("not a Least Score action: {action}").format(
                action=repr(action)))
        cards = tuple(action.cards)
        self._check_discard(state.hands[seat], cards)
        take = action.take
        reshuffle = self._check_take(cards, take)
        state.move(cards, take)
        if reshuffle is not None:
            state.apply_chance(reshuffle)
            self._actions.append({"reshuffle": [_TEXT[c] for c in reshuffle]})
        self._actions.append(
            {
                "player": self.players[seat],
                "discard": [_TEXT[c] for c in cards],
                "take": "deck" if take is None else _TEXT[take],
            }
        )

    def _declare(self, seat: int) -> None:
        """The player at ``seat`` declares, once every player has had a turn."""
        state = self._state
        if state.info.turn < state.info.n:
            raise IllegalAction(_("you can't declare before every player has had a turn"))
        refusal = _declare_refusal(state.hands[seat], state.info.options)
        if refusal is not None:
            raise IllegalAction(refusal)
        state.declare()
        self._actions.append({"player": self.players[seat], "declare": True})

    def _check_discard(self, hand: Sequence[Card], cards: tuple[Card, ...]) -> None:
        """Refuse a discard of cards not in ``hand``, or not a legal set."""
        if not cards:
            raise IllegalAction(_("discard at least one card"))
        for card in Counter(cards) - Counter(hand):  # (the jokers are alike: counted)
            raise IllegalAction(_("{card} is not in your hand").format(card=card))
        if len(cards) > 1:
            problem = rules.discard_problem(cards, self.options.two_pairs,
                                            jokers=self.options.jokers > 0)
            if problem is not None:
                raise IllegalAction(problem)

    def _check_take(self, cards: tuple[Card, ...], take: Card | None) -> list[Card] | None:
        """Refuse a take that is not on the floor (or is one of the discarded ``cards``);
        for a take from an empty deck, the order of the dead pile's reshuffle."""
        info = self._state.info
        if take is not None:
            if take in cards and not take.is_joker:  # (a joker of the floor: the other)
                raise IllegalAction(_("you can't take back a card you just discarded"))
            if take not in info.floor:
                raise IllegalAction(
                    _("{card} is not on the floor: take one of {floor} or the deck").format(
                        card=take, floor=", ".join(str(c) for c in info.floor)))
            return None
        if info.deck_size:
            return None
        if not info.dead:
            raise IllegalAction(
                _("the deck and the dead pile are empty: take a card from the floor"))
        return self._reshuffle_order()

    def _reshuffle_order(self) -> list[Card]:
        """The order of the dead pile's reshuffle: the recorded one, else drawn."""
        order = self._pending_reshuffle
        self._pending_reshuffle = None
        dead = self._state.info.dead
        if order is None:
            if self._rng is None:
                raise IllegalAction(_("the deck is empty and no reshuffle is recorded (no "
                                      "random generator given)"))
            return self._state.chance_outcome(self._rng)
        if len(order) != len(dead) or set(order) != set(dead):
            raise IllegalAction(_("the recorded reshuffle is not the dead pile"))
        return order

    # -- the end -----------------------------------------------------------

    @property
    def declarer(self) -> str | None:
        state = self._state
        return None if state.declarer < 0 else self.players[state.declarer]

    def result(self) -> DealResult:
        """The revealed hands and totals and the scores (through rules.score_deal)."""
        state = self._state
        if state.declarer < 0:
            raise ValueError(_("the deal is not over: nobody has declared yet"))
        hands = {name: tuple(hand) for name, hand in zip(self.players, state.hands, strict=True)}
        totals = {name: rules.hand_value(hand) for name, hand in hands.items()}
        declarer = self.players[state.declarer]
        return DealResult(declarer, hands, totals,
                          rules.score_declaration(totals, declarer, self.options))

    def to_record(self) -> tuple[JSONObject, list[JSONObject]]:
        """FORMAT.md's ``deal`` and ``actions`` (copies; card strings, player names)."""
        initial = self._initial
        deal: JSONObject = {
            "dealer": initial["dealer"],
            "hands": {name: list(cards) for name, cards in initial["hands"].items()},
            "floor": list(initial["floor"]),
            "deck": list(initial["deck"]),
        }
        actions: list[JSONObject] = [
            {key: (list(value) if isinstance(value, list) else value)
             for key, value in record.items()}
            for record in self._actions
        ]
        return deal, actions

    def all_cards(self) -> list[Card]:
        """Every card of the deal wherever it is (hands, floor, deck, dead pile): for checks."""
        state = self._state
        return [c for hand in state.hands for c in hand] + [
            *state.info.floor, *state.deck(), *state.info.dead]
