"""Tests for the pure One Card rules (scorekeeper.games.one_card.rules)."""

from __future__ import annotations

import doctest
import random
from collections.abc import Sequence

import pytest
from examples_budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.cards import JOKER, SUITS, Card, Rank, Suit, parse_card, parse_cards
from scorekeeper.games.one_card import rules
from scorekeeper.games.one_card.rules import (
    MAX_BID,
    TOTAL_POINTS,
    Bidding,
    DealScore,
    JokerRule,
    Options,
    Order,
    bid_problem,
    card_points,
    deck,
    effective_suit,
    first_bidder,
    hand_size,
    is_joker,
    joker_card,
    led_suit_of,
    legal_plays,
    lowest_bid,
    may_turn_downtown,
    no_bid_leader,
    play_problem,
    score_deal,
    split_deal,
    trick_points,
    trick_winner,
    trump_from_lead,
    winners,
)

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS
UP, DOWN = Order.UPTOWN, Order.DOWNTOWN
JR, TD = JokerRule.JOKER, JokerRule.TWO_OF_DIAMONDS
TWO_D = Card(Rank.TWO, Suit.DIAMONDS)


def cs(text: str) -> list[Card]:
    return parse_cards(text)


def names(cards: Sequence[Card]) -> list[str]:
    return [str(card) for card in cards]


def winner(
    text: str, led: Suit, trump: Suit | None, order: Order = UP, rule: JokerRule = JR
) -> str:
    plays = cs(text)
    return str(plays[trick_winner(plays, led, trump, order, rule)])


def test_doctests() -> None:
    result = doctest.testmod(rules)
    assert result.attempted > 10
    assert result.failed == 0


# --------------------------------------------------------------------------- deck and points


@pytest.mark.parametrize("rule", list(JokerRule))
def test_deck(rule: JokerRule) -> None:
    cards = deck(rule)
    assert len(cards) == len(set(cards)) == 25
    assert cards[-1] == joker_card(rule)
    assert sum(card_points(card, rule) for card in cards) == TOTAL_POINTS == 15
    assert trick_points(cards, rule) == 15
    assert {card.rank for card in cards[:-1]} == {
        Rank.NINE,
        Rank.TEN,
        Rank.JACK,
        Rank.QUEEN,
        Rank.KING,
        Rank.ACE,
    }
    assert sum(1 for card in cards if is_joker(card, rule)) == 1


def test_joker_cards() -> None:
    assert joker_card(JR) == JOKER
    assert joker_card(TD) == TWO_D
    assert JOKER not in deck(TD)
    assert TWO_D not in deck(JR)


def test_card_points() -> None:
    assert [card_points(c, JR) for c in cs("JH QS KD KC AH 10S 9D JK")] == [1, 1, 1, 1, 0, 0, 0, 3]
    assert card_points(TWO_D, TD) == 3
    with pytest.raises(ValueError, match="not a card"):
        card_points(JOKER, TD)
    with pytest.raises(ValueError, match="not a card"):
        card_points(TWO_D, JR)
    with pytest.raises(ValueError, match="not a card"):
        trick_points(cs("2H"), JR)
    assert trick_points(cs("JK QH 9S"), JR) == 4
    assert trick_points([], JR) == 0


def test_players() -> None:
    assert [hand_size(n) for n in (2, 3, 4)] == [12, 8, 6]
    assert [lowest_bid(n) for n in (2, 3, 4)] == [8, 7, 6]
    for n in (0, 1, 5):
        with pytest.raises(ValueError, match="2 to 4 players"):
            hand_size(n)
        with pytest.raises(ValueError, match="2 to 4 players"):
            lowest_bid(n)
    # hands plus the One Card use the whole deck
    assert all(n * hand_size(n) + 1 == 25 for n in (2, 3, 4))


def test_seats() -> None:
    assert [first_bidder(d, 3) for d in range(3)] == [1, 2, 0]
    assert [no_bid_leader(d, 2) for d in range(2)] == [1, 0]
    assert [no_bid_leader(d, 3) for d in range(3)] == [1, 2, 0]
    assert [no_bid_leader(d, 4) for d in range(4)] == [2, 3, 0, 1]
    with pytest.raises(ValueError):
        first_bidder(3, 3)
    with pytest.raises(ValueError):
        no_bid_leader(-1, 4)


def test_split_deal() -> None:
    cards = list(deck(JR))
    random.Random(1).shuffle(cards)
    hands, one_card = split_deal(cards, 3)
    assert [len(hand) for hand in hands] == [8, 8, 8]
    assert one_card == cards[-1]
    assert sorted([*(c for hand in hands for c in hand), one_card]) == sorted(deck(JR))
    with pytest.raises(ValueError):
        split_deal(cards[:-1], 3)
    with pytest.raises(ValueError):
        split_deal([*cards[:-1], cards[0]], 3)


def test_options() -> None:
    assert Options() == Options(JR, 30)
    assert Options(joker=TD).joker is TD
    for outside in (0, 9, 101, 500):
        with pytest.raises(ValueError):
            Options(target=outside)
    assert Options(target=10).target == 10 and Options(target=100).target == 100
    with pytest.raises(ValueError):
        Options(joker="jk")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- bidding


@pytest.mark.parametrize(("n", "lowest"), [(2, 8), (3, 7), (4, 6)])
def test_bid_problem_minimum(n: int, lowest: int) -> None:
    assert bid_problem(lowest, None, n) is None
    assert bid_problem(lowest - 1, None, n) == f"the lowest bid for {n} players is {lowest}"
    assert bid_problem(MAX_BID, None, n) is None
    assert bid_problem(16, None, n) == "the highest bid is 15"
    assert bid_problem(9, 9, n) == "a bid must be above the current high bid of 9"
    assert bid_problem(10, 9, n) is None
    assert Bidding.start(n, 0).legal_bids() == (None, *range(lowest, 16))


def test_bidding_fifteen_ends_at_once() -> None:
    b = Bidding.start(4, 0)
    assert b.to_act == 1
    b = b.apply(15)
    assert b.is_over and b.winner == 1 and b.high_bid == 15 and not b.no_bid
    assert b.legal_bids() == ()
    b = Bidding.start(4, 0).apply(6).apply(15)
    assert b.is_over and b.winner == 2
    assert b.passed == frozenset()


def test_bidding_all_pass() -> None:
    b = Bidding.start(3, 1)
    for seat in (2, 0):
        assert b.to_act == seat
        b = b.apply(None)
    assert not b.is_over and b.to_act == 1  # the dealer may still bid
    b = b.apply(None)
    assert b.is_over and b.no_bid and b.winner is None and b.high_bid is None
    assert b.history == ((2, None), (0, None), (1, None))


def test_bidding_last_player_bids_after_passes() -> None:
    b = Bidding.start(2, 0).apply(None)
    assert b.to_act == 0 and b.legal_bids()[1] == 8
    b = b.apply(8)
    assert b.is_over and b.winner == 0 and b.high_bid == 8


def test_bidding_passed_players_are_out() -> None:
    b = Bidding.start(4, 0)
    b = b.apply(6)  # seat 1
    b = b.apply(None)  # seat 2 passes
    b = b.apply(7)  # seat 3
    b = b.apply(None)  # seat 0 passes
    assert b.to_act == 1 and b.passed == frozenset({0, 2})
    b = b.apply(8)  # seat 1
    assert b.to_act == 3  # 2 and 0 are skipped
    assert b.legal_bids() == (None, *range(9, 16))
    b = b.apply(None)
    assert b.is_over and b.winner == 1 and b.high_bid == 8
    assert b.history == ((1, 6), (2, None), (3, 7), (0, None), (1, 8), (3, None))


def test_bidding_first_bid_then_everyone_passes() -> None:
    b = Bidding.start(3, 0).apply(7).apply(None)
    assert not b.is_over and b.to_act == 0
    b = b.apply(None)
    assert b.is_over and b.winner == 1


def test_bidding_illegal_calls() -> None:
    b = Bidding.start(3, 0)
    with pytest.raises(ValueError, match="the lowest bid for 3 players is 7"):
        b.apply(6)
    b = b.apply(9)
    with pytest.raises(ValueError, match="above the current high bid of 9"):
        b.apply(9)
    with pytest.raises(ValueError, match="the highest bid is 15"):
        b.apply(16)
    assert b.problem(10) is None and b.problem(None) is None
    done = b.apply(15)
    with pytest.raises(ValueError, match="bidding is over"):
        done.apply(None)
    with pytest.raises(ValueError):
        Bidding(3, 0, None, None, frozenset({1}), 1)
    with pytest.raises(ValueError):
        Bidding(3, 0, 9, None, frozenset(), 1)


# --------------------------------------------------------------------------- suits and leads


def test_effective_suit() -> None:
    assert effective_suit(JOKER, S, JR) is S
    assert effective_suit(JOKER, None, JR) is None
    assert effective_suit(TWO_D, H, TD) is H  # a trump, not a diamond
    assert effective_suit(TWO_D, None, TD) is None
    assert effective_suit(parse_card("9D"), H, TD) is D


def test_trump_and_led_suit_from_lead() -> None:
    assert trump_from_lead(parse_card("KH"), JR) is H
    assert trump_from_lead(JOKER, JR, named=C) is C
    assert trump_from_lead(TWO_D, TD, named=S) is S
    with pytest.raises(ValueError, match="name the trump"):
        trump_from_lead(JOKER, JR)
    with pytest.raises(ValueError, match="only a joker"):
        trump_from_lead(parse_card("KH"), JR, named=S)
    assert led_suit_of(parse_card("9C"), S, JR) is C
    assert led_suit_of(JOKER, S, JR) is S  # a joker lead in a trump deal leads trump
    assert led_suit_of(JOKER, S, JR, named=S) is S
    with pytest.raises(ValueError, match="leads trump"):
        led_suit_of(JOKER, S, JR, named=H)
    assert led_suit_of(JOKER, None, JR, named=H) is H
    assert led_suit_of(TWO_D, None, TD, named=C) is C
    assert led_suit_of(TWO_D, H, TD) is H
    with pytest.raises(ValueError, match="name the suit"):
        led_suit_of(JOKER, None, JR)


# --------------------------------------------------------------------------- trick winners


def test_rank_order_within_suit() -> None:
    assert winner("9H 10H JH QH KH AH", H, None) == "AH"
    assert winner("AH KH QH JH 10H 9H", H, None) == "AH"
    assert winner("QH KH JH", H, S) == "KH"
    assert winner("10C 9C", C, None) == "10C"


def test_joker_is_lowest_trump() -> None:
    assert winner("JK 9S", S, S) == "9S"  # the joker loses to the 9 of trump
    assert winner("9S JK", S, S) == "9S"
    assert winner("JK AH KD", S, S) == "JK"  # nobody else played trump
    assert winner("AH JK", H, S) == "JK"  # ruffing with the joker beats the led suit
    assert winner("AH JK 9S", H, S) == "9S"
    assert winner("AH 9S KS JK", H, S) == "KS"


def test_trump_beats_led_suit_and_off_suit_loses() -> None:
    assert winner("AH 9S", H, S) == "9S"
    assert winner("9H AC", H, S) == "9H"  # off-suit high card loses
    assert winner("9H AC", H, None) == "9H"
    assert winner("9H AC KD 10H", H, None) == "10H"


def test_joker_wins_any_no_trump_trick() -> None:
    assert winner("AH KH JK", H, None) == "JK"
    assert winner("9C JK AC QC", C, None) == "JK"
    assert winner("9D JK", D, None, DOWN) == "JK"  # stays highest downtown


def test_joker_lead_names_suit_in_no_trump() -> None:
    plays = cs("JK 9C AH")
    led = led_suit_of(plays[0], None, JR, named=C)
    assert trick_winner(plays, led, None, UP, JR) == 0
    # the others must follow the named suit
    assert names(legal_plays(cs("AH 9C KS"), led, None, JR)) == ["9C"]
    assert names(legal_plays(cs("AH KS"), led, None, JR)) == ["AH", "KS"]


def test_downtown() -> None:
    assert winner("AD 9D", D, None, UP) == "AD"
    assert winner("AD 9D", D, None, DOWN) == "9D"
    assert winner("KD 10D QD", D, None, DOWN) == "10D"
    assert winner("9H 9D", H, None, DOWN) == "9H"
    with pytest.raises(ValueError, match="uptown"):
        trick_winner(cs("AD 9D"), D, S, DOWN, JR)


def test_two_of_diamonds_as_joker() -> None:
    assert winner("2D 9S", S, S, rule=TD) == "9S"  # lowest trump
    assert winner("AD 2D", D, S, rule=TD) == "2D"  # a trump, beats the led diamonds
    assert winner("AD 2D KS", D, S, rule=TD) == "KS"
    assert winner("AD 2D", D, None, rule=TD) == "2D"  # wins any no-trump trick
    assert winner("2D AH", H, None, rule=TD) == "2D"
    assert winner("9D 2D", D, None, DOWN, rule=TD) == "2D"
    with pytest.raises(ValueError, match="not a card"):
        trick_winner(cs("AH JK"), H, None, UP, TD)
    with pytest.raises(ValueError, match="not a card"):
        trick_winner(cs("AH 2D"), H, None, UP, JR)


def test_trick_winner_refuses_nonsense() -> None:
    with pytest.raises(ValueError, match="at least one card"):
        trick_winner([], H, None, UP, JR)
    with pytest.raises(ValueError, match="does not lead hearts"):
        trick_winner(cs("AS 9H"), H, None, UP, JR)
    with pytest.raises(ValueError, match="does not lead hearts"):
        trick_winner(cs("AS 9H"), H, S, UP, JR)
    with pytest.raises(ValueError, match="does not lead hearts"):
        trick_winner(cs("JK 9H"), H, S, UP, JR)  # a joker lead leads trump


def test_may_turn_downtown() -> None:
    assert may_turn_downtown(cs("AH JK"), None, UP, JR)
    assert not may_turn_downtown(cs("AH JK"), S, UP, JR)
    assert not may_turn_downtown(cs("AH KH"), None, UP, JR)
    assert not may_turn_downtown(cs("AH JK"), None, DOWN, JR)
    assert may_turn_downtown(cs("AH 2D"), None, UP, TD)


# --------------------------------------------------------------------------- legality


def test_leader_may_play_anything() -> None:
    hand = cs("JK 9D AS")
    assert legal_plays(hand, None, None, JR) == tuple(hand)
    assert legal_plays(hand, None, S, JR) == tuple(hand)
    assert all(play_problem(card, hand, None, None, JR) is None for card in hand)


def test_must_follow_even_holding_trump() -> None:
    hand = cs("AS 9H KS")
    assert names(legal_plays(hand, H, S, JR)) == ["9H"]
    assert play_problem(parse_card("AS"), hand, H, S, JR) == "you must follow hearts"
    assert play_problem(parse_card("9H"), hand, H, S, JR) is None


def test_cannot_follow_may_play_anything() -> None:
    hand = cs("JK AS 9C")
    assert legal_plays(hand, H, S, JR) == tuple(hand)  # the joker included
    assert legal_plays(hand, H, None, JR) == tuple(hand)
    assert all(play_problem(card, hand, H, S, JR) is None for card in hand)


def test_must_play_trump_when_trump_led() -> None:
    hand = cs("AH 10S KD")
    assert names(legal_plays(hand, S, S, JR)) == ["10S"]
    assert (
        play_problem(parse_card("AH"), hand, S, S, JR)
        == "you must play a trump: trump (spades) was led"
    )


def test_joker_as_only_trump_must_be_played() -> None:
    hand = cs("AH JK KD")
    assert names(legal_plays(hand, S, S, JR)) == ["JK"]
    reason = play_problem(parse_card("AH"), hand, S, S, JR)
    assert reason is not None
    assert reason.startswith("you must play a trump: trump (spades) was led")
    assert "joker is a trump" in reason
    # with another trump, either trump will do
    assert names(legal_plays(cs("JK 9S AH"), S, S, JR)) == ["JK", "9S"]


def test_joker_cannot_be_played_when_able_to_follow_other_suit() -> None:
    hand = cs("JK 9D AS")
    assert names(legal_plays(hand, D, S, JR)) == ["9D"]
    assert play_problem(JOKER, hand, D, S, JR) == "you must follow diamonds"


def test_joker_restriction_in_no_trump() -> None:
    hand = cs("JK 9D AS")
    assert names(legal_plays(hand, D, None, JR)) == ["9D"]
    assert (
        play_problem(JOKER, hand, D, None, JR)
        == "the joker may only lead or be played when you cannot follow diamonds"
    )
    assert play_problem(parse_card("AS"), hand, D, None, JR) == "you must follow diamonds"
    hand = cs("JK AS")
    assert legal_plays(hand, D, None, JR) == tuple(hand)
    assert play_problem(JOKER, hand, D, None, JR) is None


def test_two_of_diamonds_legality() -> None:
    # trump deal: the 2D is a trump, not a diamond
    assert names(legal_plays(cs("2D 9D AC"), D, S, TD)) == ["9D"]
    reason = play_problem(TWO_D, cs("2D 9D AC"), D, S, TD)
    assert reason is not None and reason.startswith("you must follow diamonds")
    assert "2D is the joker" in reason
    assert names(legal_plays(cs("2D AC"), D, S, TD)) == ["2D", "AC"]
    assert names(legal_plays(cs("2D AH"), S, S, TD)) == ["2D"]
    # no-trump: the 2D has no suit and the joker's restriction
    assert names(legal_plays(cs("2D 9D AC"), D, None, TD)) == ["9D"]
    assert (
        play_problem(TWO_D, cs("2D 9D"), D, None, TD)
        == "the joker (2D) may only lead or be played when you cannot follow diamonds"
    )
    assert names(legal_plays(cs("2D AC"), D, None, TD)) == ["2D", "AC"]


def test_card_not_in_hand() -> None:
    assert play_problem(JOKER, cs("AH"), None, None, JR) == "JK is not in your hand"
    assert play_problem(JOKER, [JOKER], None, None, TD) is not None


# --------------------------------------------------------------------------- scoring


def test_score_failed_bid() -> None:
    score = score_deal([6, 5, 4], bidder=0, bid=7)
    assert score == DealScore((6, 5, 4), (0, 5, 4), True)


def test_score_exact_and_over_bid() -> None:
    assert score_deal([7, 4, 4], bidder=0, bid=7) == DealScore((7, 4, 4), (7, 4, 4), False)
    assert score_deal([2, 13], bidder=1, bid=8).scores == (2, 13)  # points taken, not the bid
    assert score_deal([15, 0, 0, 0], bidder=0, bid=15).scores == (15, 0, 0, 0)


def test_score_no_bid() -> None:
    assert score_deal([3, 4, 4, 4], None, None) == DealScore((3, 4, 4, 4), (3, 4, 4, 4), False)


def test_score_refuses_bad_entries() -> None:
    with pytest.raises(ValueError, match="add up to 14"):
        score_deal([5, 5, 4], None, None)
    with pytest.raises(ValueError, match="add up to 16"):
        score_deal([8, 8], 0, 8)
    with pytest.raises(ValueError, match="0 to 15"):
        score_deal([16, -1], None, None)
    with pytest.raises(ValueError, match="lowest bid for 2 players is 8"):
        score_deal([8, 7], 0, 7)
    with pytest.raises(ValueError, match="highest bid is 15"):
        score_deal([8, 7], 0, 16)
    with pytest.raises(ValueError, match="both a bidder and a bid"):
        score_deal([8, 7], 0, None)
    with pytest.raises(ValueError, match="both a bidder and a bid"):
        score_deal([8, 7], None, 8)
    with pytest.raises(ValueError, match="bidder"):
        score_deal([8, 7], 2, 8)
    with pytest.raises(ValueError, match="2 to 4 players"):
        score_deal([15], None, None)


def test_winners() -> None:
    assert winners([29, 20, 10]) is None
    assert winners([30, 20]) == (0,)
    assert winners([12, 35, 31]) == (1,)
    assert winners([31, 31, 5]) is None  # tied at the top: play on
    assert winners([31, 31, 32]) == (2,)
    assert winners([29, 29]) is None
    assert winners([10, 9], target=10) == (0,)
    with pytest.raises(ValueError):
        winners([])


# --------------------------------------------------------------------------- whole random deals

RANK_LIST = [Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE]


def ref_follows(card: Card, led: Suit, trump: Suit | None, rule: JokerRule) -> bool:
    """Independent reading of the follow rules: does ``card`` follow ``led``?"""
    if card == joker_card(rule):
        return trump is not None and led == trump
    return card.suit == led


def ref_winner(
    plays: Sequence[Card], led: Suit, trump: Suit | None, order: Order, rule: JokerRule
) -> int:
    """Independent, slow reading of who wins a trick."""
    joker = joker_card(rule)
    if trump is None and joker in plays:
        return plays.index(joker)

    def height(card: Card) -> int:
        if card == joker:
            return -1
        index = RANK_LIST.index(card.rank)
        return -index if order is Order.DOWNTOWN else index

    trumps = [
        i for i, c in enumerate(plays) if trump is not None and (c == joker or c.suit == trump)
    ]
    if trumps:
        return max(trumps, key=lambda i: height(plays[i]))
    followers = [i for i, c in enumerate(plays) if c != joker and c.suit == led]
    return max(followers, key=lambda i: height(plays[i]))


def play_random_deal(
    rng: random.Random, n: int, rule: JokerRule, dealer: int, bid_rate: float
) -> None:
    cards = list(deck(rule))
    rng.shuffle(cards)
    dealt, one_card = split_deal(cards, n)
    hands = [list(hand) for hand in dealt]
    joker = joker_card(rule)

    bidding = Bidding.start(n, dealer)
    while not bidding.is_over:
        calls = bidding.legal_bids()
        assert calls[0] is None
        call = rng.choice(calls[1:]) if len(calls) > 1 and rng.random() < bid_rate else None
        bidding = bidding.apply(call)
    bidder, bid = bidding.winner, bidding.high_bid
    assert (bidder is None) == (bid is None) == bidding.no_bid

    trump: Suit | None = None
    order = Order.UPTOWN
    leader = no_bid_leader(dealer, n) if bidder is None else bidder
    taken = [0] * n
    played: list[Card] = []
    for trick in range(hand_size(n)):
        plays: list[Card] = []
        seats: list[int] = []
        led: Suit | None = None
        for k in range(n):
            seat = (leader + k) % n
            hand = hands[seat]
            legal = legal_plays(hand, led, trump, rule)
            assert legal and set(legal) <= set(hand)
            for card in hand:
                assert (play_problem(card, hand, led, trump, rule) is None) == (card in legal)
            card = rng.choice(legal)
            if led is not None:
                # follow suit is never broken, checked against an independent reading
                can_follow = any(ref_follows(c, led, trump, rule) for c in hand)
                assert ref_follows(card, led, trump, rule) or not can_follow
                if card == joker and trump is None:
                    assert not can_follow
            else:
                named = rng.choice(SUITS) if card == joker else None
                if bidder is not None and trick == 0:
                    trump = trump_from_lead(card, rule, named)
                    led = trump
                else:
                    led = led_suit_of(card, trump, rule, named if trump is None else None)
            hand.remove(card)
            plays.append(card)
            seats.append(seat)
        assert led is not None
        win = trick_winner(plays, led, trump, order, rule)
        assert 0 <= win < n
        assert win == ref_winner(plays, led, trump, order, rule)
        assert plays[win] in plays and seats[win] in range(n)
        if trump is None and joker in plays:
            assert plays[win] == joker
        if may_turn_downtown(plays, trump, order, rule):
            assert plays[win] == joker
            order = rng.choice([Order.UPTOWN, Order.DOWNTOWN])
        leader = seats[win]
        taken[leader] += trick_points(plays, rule)
        played.extend(plays)
    taken[leader] += card_points(one_card, rule)  # the last trick's winner takes the One Card

    assert all(not hand for hand in hands)
    assert len(played) == len(set(played)) == 24
    assert sorted([*played, one_card]) == sorted(deck(rule))
    assert sum(taken) == TOTAL_POINTS
    score = score_deal(taken, bidder, bid)
    assert score.points == tuple(taken)
    if bidder is not None and bid is not None:
        assert score.bid_failed == (taken[bidder] < bid)
        assert score.scores[bidder] == (0 if score.bid_failed else taken[bidder])
    else:
        assert score.scores == tuple(taken)


@settings(max_examples=examples(300), deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.sampled_from([2, 3, 4]),
    rule=st.sampled_from(list(JokerRule)),
    dealer=st.integers(0, 3),
    bid_rate=st.sampled_from([0.0, 0.3, 1.0]),
)
def test_random_deals(seed: int, n: int, rule: JokerRule, dealer: int, bid_rate: float) -> None:
    play_random_deal(random.Random(seed), n, rule, dealer % n, bid_rate)


@settings(max_examples=examples(200), deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    rule=st.sampled_from(list(JokerRule)),
    trump=st.sampled_from([None, *SUITS]),
    downtown=st.booleans(),
    size=st.integers(1, 4),
)
def test_random_tricks_match_reference(
    seed: int, rule: JokerRule, trump: Suit | None, downtown: bool, size: int
) -> None:
    rng = random.Random(seed)
    order = Order.DOWNTOWN if downtown and trump is None else Order.UPTOWN
    plays = rng.sample(deck(rule), size)
    led = effective_suit(plays[0], trump, rule) or rng.choice(SUITS)
    win = trick_winner(plays, led, trump, order, rule)
    assert win == ref_winner(plays, led, trump, order, rule)
