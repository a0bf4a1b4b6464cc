"""Least Score: the rules of RULES.md as pure functions and small immutable types.

Both front ends score through this module: the scorekeeper (totals typed at the
table) and the virtual deck's engine (cards dealt by the program).

>>> score_deal({"A": 10, "B": 16, "C": 17}, "A").scores
{'A': 0, 'B': 6, 'C': 7}
>>> score_deal({"A": 10, "B": 8, "C": 15}, "A").scores
{'A': 22, 'B': 0, 'C': 0}
>>> discard_problem(parse_cards("3H 3S 3D"))
"three of a kind can't be discarded"
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from scorekeeper.cards import (  # noqa: F401  (parse_cards: doctests)
    JOKER,
    STANDARD_DECK,
    Card,
    Rank,
    parse_cards,
)
from scorekeeper.games.least_score.words import _

__all__ = [
    "DEFAULT_LIMIT",
    "FALSE_DECLARATION_PENALTY",
    "HAND_SIZE",
    "JOKER_VALUE",
    "MAX_HAND_TOTAL",
    "MAX_JOKERS",
    "MAX_LIMIT",
    "MAX_PLAYERS",
    "MIN_LIMIT",
    "MIN_PLAYERS",
    "DealScore",
    "End",
    "Options",
    "Scoring",
    "Tie",
    "TwoPairs",
    "card_value",
    "deck",
    "discard_problem",
    "first_player",
    "hand_value",
    "is_legal_discard",
    "knocked_out",
    "legal_discards",
    "may_declare",
    "new_total",
    "next_dealer",
    "score_deal",
    "score_declaration",
    "winners",
]

MIN_PLAYERS = 2
MAX_PLAYERS = 8
HAND_SIZE = 5
MAX_HAND_TOTAL = HAND_SIZE * 10
FALSE_DECLARATION_PENALTY = 20
DEFAULT_LIMIT = 100
SUGGESTED_LIMITS = (25, 50, 100)
MIN_LIMIT = 10
MAX_LIMIT = 500
JOKER_VALUE = 0
"""A joker's value in a game played with jokers (Yaniv's house rule ``jokers``)."""
MAX_JOKERS = 2
"""At most the two jokers of a pack."""


class Tie(StrEnum):
    """House rule ``tie``: who wins when the declarer's total equals the lowest other."""

    DECLARER_WINS = "declarer-wins"
    DECLARER_LOSES = "declarer-loses"


class End(StrEnum):
    """House rule ``end``: play until one is left, or stop at the first knock-out."""

    LAST_STANDING = "last-standing"
    FIRST_OUT = "first-out"


class TwoPairs(StrEnum):
    """House rule ``two_pairs``: may two pairs of different ranks go as one discard?"""

    SAME_RANK = "same-rank"
    ANY_RANK = "any-rank"


class Scoring(StrEnum):
    """How a declaration is scored: Least Score's differences, or each hand (Yaniv's)."""

    DIFFERENCE = "difference"
    """Good: the others score their total - D; false: the others 0, the declarer
    ``penalty`` + (D - L) (Least Score)."""
    HAND = "hand"
    """Good: the others score their own totals; false: the declarer ``penalty`` + D, the
    lowest other total(s) 0, the rest their own totals (Yaniv)."""


@dataclass(frozen=True, slots=True)
class Options:
    """The house rules of a Least Score session, and the rules a variant built on Least
    Score sets differently (``declare_at`` and after: Least Score's are fixed, and
    :meth:`as_dict` leaves them out; a variant's Options subclass names them)."""

    limit: int = DEFAULT_LIMIT
    tie: Tie = Tie.DECLARER_WINS
    end: End = End.LAST_STANDING
    two_pairs: TwoPairs = TwoPairs.SAME_RANK
    declare_at: int = MAX_HAND_TOTAL
    """The highest hand total a player may declare with (Least Score: any hand)."""
    penalty: int = FALSE_DECLARATION_PENALTY
    """What a false declaration costs the declarer, before the hands' part."""
    halving: int = 0
    """A running total that lands exactly on a multiple of this (at or under the limit)
    is halved; 0: never."""
    scoring: Scoring = Scoring.DIFFERENCE
    jokers: int = 0
    """The jokers shuffled into the deck, each worth 0 (Least Score: none)."""

    def __post_init__(self) -> None:
        if not 0 <= self.jokers <= MAX_JOKERS:
            raise ValueError(_("the jokers are 0 to {highest} (a pack has two), not {value}")
                             .format(highest=MAX_JOKERS, value=self.jokers))
        if not MIN_LIMIT <= self.limit <= MAX_LIMIT:
            raise ValueError(_("the limit must be a whole number from {lowest} to {highest} "
                               "(usually 25, 50 or 100), not {value}").format(
                lowest=MIN_LIMIT, highest=MAX_LIMIT, value=self.limit))

    def as_dict(self) -> dict[str, int | str]:
        return {
            "limit": self.limit,
            "tie": self.tie.value,
            "end": self.end.value,
            "two_pairs": self.two_pairs.value,
        }


def card_value(card: Card) -> int:
    """A = 1, 2..10 face value, J/Q/K = 10; a joker (in a game played with them) 0."""
    if card.is_joker:
        return JOKER_VALUE
    return min(int(card.rank), 10)


def deck(options: Options) -> tuple[Card, ...]:
    """The cards shuffled for a deal: the 52, and ``options.jokers`` jokers.

    >>> len(deck(Options())), len(deck(Options(jokers=2)))
    (52, 54)
    """
    return (*STANDARD_DECK, *(JOKER,) * options.jokers)


def hand_value(cards: Iterable[Card]) -> int:
    """The total of a hand.

    >>> hand_value(parse_cards("AH 9S KD"))
    20
    """
    return sum(card_value(card) for card in cards)


# ---------------------------------------------------------------------------
# Discards


def _is_run(ranks: Sequence[int]) -> bool:
    """Consecutive distinct ranks; the ace counts low (A-2-3) or high (Q-K-A), never both."""
    ordered = sorted(ranks)
    if ordered == list(range(ordered[0], ordered[0] + len(ordered))):
        return True
    if ordered[0] == Rank.ACE:
        high = sorted([*ordered[1:], Rank.KING + 1])
        return high == list(range(high[0], high[0] + len(high)))
    return False


def discard_problem(cards: Sequence[Card], two_pairs: TwoPairs = TwoPairs.SAME_RANK, *,
                    jokers: bool = False) -> str | None:
    """Why ``cards`` are not a legal discard, or ``None`` when they are.

    Legal: one card; a pair; all four of a rank; a run of exactly 3 or 5
    consecutive ranks (any suits, ace low or high, no wrap); a 5-card flush;
    with ``two_pairs=any-rank`` also two pairs of different ranks. With ``jokers`` (a
    game played with them) a joker is a rank of its own, never wild: alone, the two as
    a pair, or (``any-rank``) with another pair; never in a run or a flush.

    >>> discard_problem(parse_cards("JK JK"), jokers=True) is None
    True

    >>> discard_problem(parse_cards("QH KS AD")) is None
    True
    >>> discard_problem(parse_cards("KH AS 2D"))
    'K-A-2 is not a run: a run never wraps around the ace'
    """
    count = len(cards)
    if count == 0:
        return _("discard at least one card")
    wild = sum(card.is_joker for card in cards)
    if len(set(cards)) + max(wild - 1, 0) != count or (wild > 1 and not jokers):
        return _("the same card can't be discarded twice")
    if wild and not jokers:
        return _("Least Score is played without the joker")
    if wild and count in (3, 5):
        return _("a joker is not wild: it goes alone, with the other joker or with a pair")
    if count == 1:
        return None
    rank_counts = Counter(card.rank for card in cards)
    if max(rank_counts.values()) == 3:
        return _("three of a kind can't be discarded")
    if count == 2:
        return None if len(rank_counts) == 1 else _("two cards must be a pair of the same rank")
    if count == 4:
        return _four_card_problem(cards, rank_counts, two_pairs)
    if count in (3, 5):
        return _run_or_flush_problem(cards, rank_counts)
    return _("at most 5 cards can be discarded, and only as a run or a flush")


def _four_card_problem(cards: Sequence[Card], rank_counts: Counter[Rank],
                       two_pairs: TwoPairs) -> str | None:
    """Why four ``cards`` (with no three of a kind) are not a legal discard, or None."""
    if len(rank_counts) == 1:
        return None
    if sorted(rank_counts.values()) == [2, 2]:
        if two_pairs is TwoPairs.ANY_RANK:
            return None
        return _("two pairs must be of the same rank (house rule two_pairs = same-rank)")
    if len(rank_counts) == 4 and _is_run([c.rank for c in cards]):
        return _("4-card runs can't be discarded: a run is exactly 3 or 5 cards")
    return _("four cards must be all four of one rank")


def _run_or_flush_problem(cards: Sequence[Card], rank_counts: Counter[Rank]) -> str | None:
    """Why three or five ``cards`` (with no three of a kind) are not a legal discard (a
    run, or five of a suit), or None."""
    count = len(cards)
    if len(rank_counts) == count and _is_run([c.rank for c in cards]):
        return None
    if count == 5 and len({card.suit for card in cards}) == 1:
        return None
    ranks = {card.rank for card in cards}
    if len(rank_counts) == count and Rank.ACE in ranks and Rank.KING in ranks:
        order = _wrap_order(cards)
        # Only a sequence that is consecutive through K-A (e.g. K-A-2) is a wrap.
        if all((b.rank - a.rank) % 13 == 1 for a, b in itertools.pairwise(order)):
            labels = "-".join(c.rank.symbol for c in order)
            return _("{cards} is not a run: a run never wraps around the ace").format(
                cards=labels)
    if count == 3:
        return _("three cards must be a run of consecutive ranks")
    return _("five cards must be a run of consecutive ranks or a flush (one suit)")


def _wrap_order(cards: Sequence[Card]) -> list[Card]:
    """Order a wrapping sequence as it reads at the table: K-A-2, not A-2-K."""
    high = sorted(cards, key=lambda c: c.rank)
    # Rotate so the sequence starts after the largest gap in ranks.
    gaps = [(high[i + 1].rank - high[i].rank, i + 1) for i in range(len(high) - 1)]
    _gap, start = max(gaps)
    return high[start:] + high[:start]


def is_legal_discard(cards: Sequence[Card], two_pairs: TwoPairs = TwoPairs.SAME_RANK) -> bool:
    return discard_problem(cards, two_pairs) is None


def legal_discards(
    hand: Sequence[Card], two_pairs: TwoPairs = TwoPairs.SAME_RANK, *, jokers: bool = False,
) -> list[tuple[Card, ...]]:
    """Every legal discard from ``hand``, each as a tuple in hand order, no repeats.

    >>> len(legal_discards(parse_cards("3H 3S 4D 5C 9H")))
    8
    """
    found: list[tuple[Card, ...]] = []
    for size in (1, 2, 3, 4, 5):
        if size > len(hand):
            break
        for combo in itertools.combinations(hand, size):
            if combo not in found and discard_problem(combo, two_pairs,
                                                      jokers=jokers) is None:
                found.append(combo)  # (the two jokers are alike: each set once)
    return found


# ---------------------------------------------------------------------------
# Scoring a declaration


@dataclass(frozen=True, slots=True)
class DealScore:
    """What one declaration adds to each player's running total."""

    scores: dict[str, int]
    false_declaration: bool
    declarer_total: int
    lowest_other: int


def score_deal(
    totals: Mapping[str, int], declarer: str, tie: Tie = Tie.DECLARER_WINS, *,
    penalty: int = FALSE_DECLARATION_PENALTY, scoring: Scoring = Scoring.DIFFERENCE,
) -> DealScore:
    """Score a declaration from the revealed hand totals of the players in the deal.

    Good (D <= L, or D < L with ``tie=declarer-loses``): declarer 0, others total - D.
    False: others 0, declarer 20 + (D - L). With ``scoring=hand`` (Yaniv): good, the
    others score their totals; false, the declarer ``penalty`` + D, the lowest others 0
    and the rest their totals.

    >>> score_deal({"A": 5, "B": 16, "C": 4}, "A", Tie.DECLARER_LOSES, penalty=30,
    ...            scoring=Scoring.HAND).scores
    {'A': 35, 'B': 16, 'C': 0}
    """
    if declarer not in totals:
        raise ValueError(f"the declarer {declarer} has no total")
    if len(totals) < MIN_PLAYERS:
        raise ValueError("a deal needs at least two players")
    declared = totals[declarer]
    lowest = min(total for name, total in totals.items() if name != declarer)
    good = declared < lowest or (declared == lowest and tie is Tie.DECLARER_WINS)
    if scoring is Scoring.HAND:
        if good:
            scores = {name: (0 if name == declarer else total) for name, total in totals.items()}
        else:
            scores = {name: (penalty + declared if name == declarer
                             else 0 if total == lowest else total)
                      for name, total in totals.items()}
        return DealScore(scores, not good, declared, lowest)
    if good:
        scores = {
            name: (0 if name == declarer else total - declared) for name, total in totals.items()
        }
    else:
        cost = penalty + declared - lowest
        scores = {name: (cost if name == declarer else 0) for name in totals}
    return DealScore(scores, not good, declared, lowest)


def score_declaration(totals: Mapping[str, int], declarer: str, options: Options) -> DealScore:
    """:func:`score_deal` under ``options`` (its tie, penalty and scoring)."""
    return score_deal(totals, declarer, options.tie, penalty=options.penalty,
                      scoring=options.scoring)


def may_declare(total: int, options: Options) -> bool:
    """May a player holding ``total`` declare (``declare_at`` or less)?"""
    return total <= options.declare_at


def new_total(before: int, points: int, options: Options) -> int:
    """A running total after a deal that scored ``points``: with ``halving``, a total that
    lands exactly on a multiple of it (a deal that scored, at or under the limit) is halved.

    >>> new_total(90, 10, Options(limit=200, halving=50)), new_total(90, 10, Options())
    (50, 100)
    """
    total = before + points
    if options.halving and points > 0 and total % options.halving == 0 \
            and total <= options.limit:
        return total // 2
    return total


# ---------------------------------------------------------------------------
# Knock-outs, the end of the game, the dealer


def knocked_out(running: Mapping[str, int], limit: int) -> list[str]:
    """Players whose running total is strictly over the limit, in the mapping's order."""
    return [name for name, total in running.items() if total > limit]


def winners(
    running: Mapping[str, int], still_in: Sequence[str], any_knocked_out: bool, end: End
) -> list[str] | None:
    """The winners once the game is over, else ``None``.

    ``last-standing``: over when one player is left; ``first-out``: over at the
    first knock-out, the lowest running total wins (a tie shares the win).
    """
    if end is End.LAST_STANDING:
        return list(still_in) if len(still_in) <= 1 else None
    if not any_knocked_out:
        return None
    lowest = min(running.values())
    return [name for name, total in running.items() if total == lowest]


def next_dealer(players: Sequence[str], dealer: str, still_in: Iterable[str]) -> str:
    """The deal passes to the left (next in seating order) among the players still in."""
    remaining = set(still_in)
    if not remaining:
        raise ValueError("nobody is left to deal")
    start = players.index(dealer)
    for step in range(1, len(players) + 1):
        candidate = players[(start + step) % len(players)]
        if candidate in remaining:
            return candidate
    raise AssertionError("unreachable: some player is still in")


def first_player(players: Sequence[str], dealer: str, still_in: Iterable[str]) -> str:
    """The player to the dealer's left (among those still in) takes the first turn."""
    return next_dealer(players, dealer, still_in)

