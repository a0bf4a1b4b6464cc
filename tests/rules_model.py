"""RULES.md written again, small and plain, for the property tests to check the
production code against: nothing here imports the program's rules or engines.

Cards are RULES.md's notation strings (``"10H"``, ``"QS"``, ``"JK"``).
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterable, Sequence

from hypothesis import strategies as st

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
DECK = tuple(rank + suit for rank in RANKS for suit in SUITS)
RANK_NUMBER = {rank: number for number, rank in enumerate(RANKS, 1)}  # A=1 .. K=13

# ---------------------------------------------------------------------------
# Least Score


def card_value(card: str) -> int:
    """A = 1, 2..10 face value, J/Q/K = 10."""
    rank = card[:-1]
    return 1 if rank == "A" else 10 if rank in ("J", "Q", "K") else int(rank)


def hand_total(cards: Iterable[str]) -> int:
    return sum(card_value(card) for card in cards)


def least_score_deal(totals: dict[str, int], declarer: str, tie: str) -> tuple[dict[str, int],
                                                                               bool]:
    """The deal's scores and whether the declaration was false."""
    d = totals[declarer]
    low = min(total for name, total in totals.items() if name != declarer)
    if d < low or (d == low and tie == "declarer-wins"):
        return {name: 0 if name == declarer else total - d for name, total in totals.items()}, False
    return {name: 20 + d - low if name == declarer else 0 for name in totals}, True


def is_legal_discard(cards: Sequence[str], two_pairs: str) -> bool:
    """A single, a pair, all four of a rank, a 3- or 5-card run (ace low or high, no
    wrap), a 5-card flush; with ``any-rank`` also two pairs of different ranks."""
    ranks = sorted(RANK_NUMBER[card[:-1]] for card in cards)
    counts = sorted(Counter(ranks).values())
    size = len(cards)
    if size == 1:
        return True
    if size == 2:
        return counts == [2]
    if size == 4:
        return counts == [4] or (two_pairs == "any-rank" and counts == [2, 2])
    if size == 5 and len({card[-1] for card in cards}) == 1:
        return True
    if size in (3, 5) and len(counts) == size:
        ace_high = [14 if rank == 1 else rank for rank in ranks]
        return any(max(r) - min(r) == size - 1 for r in (ranks, ace_high))
    return False


# ---------------------------------------------------------------------------
# One Card

ONE_CARD_HAND = {2: 12, 3: 8, 4: 6}
ONE_CARD_LOWEST_BID = {2: 8, 3: 7, 4: 6}
UPTOWN = ("9", "10", "J", "Q", "K", "A")  # low to high


def one_card_deck(joker: str) -> tuple[str, ...]:
    return (*(rank + suit for suit in SUITS for rank in UPTOWN), joker_card(joker))


def joker_card(joker: str) -> str:
    return "JK" if joker == "joker" else "2D"


def one_card_points(card: str, joker: str) -> int:
    if card == joker_card(joker):
        return 3
    return 1 if card[:-1] in ("J", "Q", "K") else 0


def one_card_deal(points: dict[str, int], bidder: str | None, bid: int | None) -> dict[str, int]:
    """The bidder who took fewer points than the bid scores 0; everyone else what they took."""
    return {name: 0 if name == bidder and bid is not None and taken < bid else taken
            for name, taken in points.items()}


def suit_of(card: str, joker: str, trump: str | None) -> str | None:
    """The suit a card counts as: the joker is trump in a trump deal, suitless without."""
    if card == joker_card(joker):
        return trump
    return card[-1]


def legal_plays(hand: Sequence[str], led: str | None, trump: str | None,
                joker: str) -> set[str]:
    """Lead anything; follow the led suit if able (a trump lead calls for any trump,
    the joker included); in a no-trump deal the joker goes only on a lead or when the
    player can't follow."""
    if led is None:
        return set(hand)
    following = {card for card in hand if suit_of(card, joker, trump) == led}
    return following or set(hand)


def trick_winner(cards: Sequence[str], led: str, trump: str | None, downtown: bool,
                 joker: str) -> int:
    """The index of the winning card: the highest trump (the joker lowest of them),
    else the highest of the led suit; without trump the joker wins any trick."""
    joker_text = joker_card(joker)

    def rank_power(card: str) -> int:
        power = UPTOWN.index(card[:-1])
        return -power if downtown else power

    if trump is None:
        if joker_text in cards:
            return cards.index(joker_text)
        candidates = [i for i, card in enumerate(cards) if card[-1] == led]
        return max(candidates, key=lambda i: rank_power(cards[i]))
    trumps = [i for i, card in enumerate(cards) if suit_of(card, joker, trump) == trump]
    if trumps:
        return max(trumps, key=lambda i: -1 if cards[i] == joker_text else rank_power(cards[i]))
    candidates = [i for i, card in enumerate(cards) if card[-1] == led]
    return max(candidates, key=lambda i: rank_power(cards[i]))


# ---------------------------------------------------------------------------
# Hearts (Pagat; Omnibus Hearts for the jack of diamonds)

HEART_RANK_ORDER = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
HEARTS_TAKEN_OUT = ("2C", "2D", "3C", "3D", "4C", "4D")
"""The low clubs and diamonds taken out, in this order, until the cards deal evenly."""


def hearts_deck(players: int) -> list[str]:
    """The 52 cards, less the fewest of HEARTS_TAKEN_OUT that make them deal evenly."""
    deck = list(DECK)
    out = iter(HEARTS_TAKEN_OUT)
    while len(deck) % players:
        deck.remove(next(out))
    return deck


def hearts_play(players: int, shuffle: Iterable[int]) -> list[list[str]]:
    """A whole deal played out: the deck dealt in the order ``shuffle`` gives (a
    permutation of its indexes), every trick's cards chosen by ``shuffle`` too among the
    legal ones (follow suit if you can), each trick won by the highest card of the suit
    led; the cards each player took."""
    deck = hearts_deck(players)
    order = list(shuffle)
    dealt = [deck[index] for index in order]
    hands = [dealt[seat::players] for seat in range(players)]
    taken: list[list[str]] = [[] for _ in range(players)]
    leader = next(seat for seat, hand in enumerate(hands) if set(hand) & {"2C", "3C", "4C"})
    choices = iter(order * (len(deck) // players + 1))
    while hands[leader]:
        trick: list[str] = []
        for step in range(players):
            hand = hands[(leader + step) % players]
            led = trick[0][-1] if trick else None
            legal = [card for card in hand if led is None or card[-1] == led] or hand
            card = legal[next(choices) % len(legal)]
            hand.remove(card)
            trick.append(card)
        led = trick[0][-1]
        best = max((i for i, card in enumerate(trick) if card[-1] == led),
                   key=lambda i: HEART_RANK_ORDER.index(trick[i][:-1]))
        leader = (leader + best) % players
        taken[leader].extend(trick)
    return taken


def hearts_outcome(taken: Sequence[Sequence[str]], jack_on: bool
                   ) -> tuple[tuple[int, int | None] | None, tuple[int, ...]]:
    """A played deal as the table enters it: ``((shooter, jack taker or None), ())``
    when one player took every heart and the Q♠ (a moon), else ``(None, each player's
    points)``."""
    jack = next(seat for seat, cards in enumerate(taken) if "JD" in cards) if jack_on \
        else None
    for seat, cards in enumerate(taken):
        if "QS" in cards and sum(card[-1] == "H" for card in cards) == 13:
            return (seat, jack), ()
    return None, tuple(sum(card[-1] == "H" for card in cards) + 13 * ("QS" in cards)
                           - 10 * (seat == jack) for seat, cards in enumerate(taken))


def hearts_ways(players: int, jack_on: bool, *, every_order: bool = True
                ) -> Iterable[list[list[str]]]:
    """The 13 hearts, the Q♠ (and the J♦) given to ``players`` in every way, as the cards
    each seat took: the hearts split in every way (``every_order``) or only in the ways
    whose counts go down from the first seat to the last."""
    hearts = [rank + "H" for rank in HEART_RANK_ORDER]

    def splits(left: int, seats: int, most: int) -> Iterable[tuple[int, ...]]:
        if seats == 1:
            if left <= most:
                yield (left,)
            return
        for first in range(min(left, most) + 1):
            for rest in splits(left - first, seats - 1, 13 if every_order else first):
                yield (first, *rest)

    for split in splits(13, players, 13):
        cards: list[list[str]] = []
        given = 0
        for count in split:
            cards.append(hearts[given:given + count])
            given += count
        for queen in range(players):
            for jack in (range(players) if jack_on else (None,)):
                yield [[*held, *(["QS"] if seat == queen else []),
                        *(["JD"] if seat == jack else [])] for seat, held in enumerate(cards)]


@functools.cache
def hearts_reachable(players: int, jack_on: bool) -> frozenset[tuple[int, ...]]:
    """Every deal's points a deal of cards can give, moons aside: the 13 hearts, the Q♠
    (and the J♦) given to the players in every way (tricks of a deal freely dealt can
    bring any player any of them), each scored by :func:`hearts_outcome`.

    The seats are alike (a way of giving the cards, its seats reordered, is a way too, and
    scores the same points reordered), so the hearts are split only with counts going
    down, and every order of each deal's points is taken: the same set as every split,
    some twenty times quicker (tests/test_hearts_deals.py checks the two agree)."""
    found: set[tuple[int, ...]] = set()
    for taken in hearts_ways(players, jack_on, every_order=False):
        moon, points = hearts_outcome(taken, jack_on)
        if moon is None:
            found.add(tuple(sorted(points)))
    return frozenset(order for points in found for order in itertools.permutations(points))


@st.composite
def hearts_near_deals(draw: st.DrawFn, nudge_one_in: int) -> tuple[tuple[int, ...], bool]:
    """Hearts points that add up right (26, or 16 with the jack), split at random among 3
    to 6 players: some a deal's, some no deal's; one in ``nudge_one_in`` nudged off."""
    jack_on = draw(st.booleans())
    count = draw(st.integers(3, 6))
    cuts = sorted(draw(st.lists(st.integers(0, 26), min_size=count - 1,
                                max_size=count - 1)))
    values = [high - low for low, high in zip([0, *cuts], [*cuts, 26], strict=True)]
    if jack_on:
        values[draw(st.integers(0, count - 1))] -= 10
    if draw(st.integers(1, nudge_one_in)) == 1:
        values[draw(st.integers(0, count - 1))] += draw(st.integers(-3, 3))
    return tuple(values), jack_on
