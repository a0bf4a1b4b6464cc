"""Tests for the One Card engine (scorekeeper.games.one_card.engine)."""

from __future__ import annotations

import dataclasses
import doctest
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from examples_budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.cards import Card, Suit, parse_card, parse_cards
from scorekeeper.games.one_card import engine, rules
from scorekeeper.games.one_card.engine import (
    Bid,
    ChooseOrder,
    Deal,
    IllegalAction,
    Phase,
    Play,
    State,
    View,
    action_from_int,
    action_to_int,
    card_index,
)
from scorekeeper.games.one_card.rules import JokerRule, Options, Order

PLAYERS = ("Ann", "Bob", "Cy", "Dee")

# Spades, hearts, diamonds and clubs 9..A, the joker; AC is the One Card.
HANDS = {
    "Ann": "JK AH KH QH AS AD",
    "Bob": "9H 10S JS 9D 10D 9C",
    "Cy": "10H QS KS JD QD 10C",
    "Dee": "JH 9S KD JC QC KC",
}


def make_deal(dealer: str, rule: JokerRule = JokerRule.JOKER,
              hands: dict[str, str] | None = None, one: str = "AC") -> Deal:
    texts = hands or HANDS
    if rule is JokerRule.TWO_OF_DIAMONDS:
        texts = {name: text.replace("JK", "2D") for name, text in texts.items()}
    return Deal(PLAYERS, dealer, [parse_cards(texts[p]) for p in PLAYERS], parse_card(one),
                Options(joker=rule))


def play(deal: Deal, text: str, suit: str | None = None) -> None:
    deal.apply(Play(parse_card(text), None if suit is None else Suit(suit)))


def play_all(deal: Deal, cards: str) -> None:
    for text in cards.split():
        play(deal, text)


def test_doctests() -> None:
    assert doctest.testmod(engine).failed == 0


# --------------------------------------------------------------------------- scripted deals


def test_trump_deal_bidder_leads_the_joker_naming_trump() -> None:
    deal = make_deal("Dee")
    assert deal.current_player == "Ann"  # left of the dealer bids first
    for amount in (6, None, None, 7, 8, None):
        deal.apply(Bid(amount))
    assert deal.phase is Phase.PLAY and deal.bidder == 0 and deal.bid == 8
    assert deal.current_player == "Ann"
    legal = deal.legal_actions()
    assert {a for a in legal if a.card == parse_card("JK")} == {  # type: ignore[union-attr]
        Play(parse_card("JK"), suit) for suit in Suit
    }
    with pytest.raises(IllegalAction, match="must name the trump suit"):
        play(deal, "JK")
    with pytest.raises(IllegalAction, match="only a joker lead names a suit"):
        play(deal, "AH", "H")
    play(deal, "JK", "H")
    assert deal.trump is Suit.HEARTS
    with pytest.raises(IllegalAction, match=r"you must play a trump: trump \(hearts\) was led"):
        play(deal, "10S")
    play_all(deal, "9H 10H JH")  # the joker is the lowest trump: JH wins
    assert deal.tricks[0].winner == 3 and deal.tricks[0].points == 4
    play_all(deal, "KC QH 9C 10C")  # Ann, void in clubs, trumps
    play_all(deal, "AH 10S QS 9S")  # nobody else has a trump left
    play_all(deal, "KH JS KS KD")
    play_all(deal, "AS 9D JD JC")
    play_all(deal, "AD 10D QD QC")
    assert deal.is_over and deal.current_player is None
    result = deal.result()
    assert result.points == {"Ann": 11, "Bob": 0, "Cy": 0, "Dee": 4}
    assert result.scores == {"Ann": 11, "Bob": 0, "Cy": 0, "Dee": 4}
    assert (result.bidder, result.bid, result.trump, result.bid_failed) == ("Ann", 8, Suit.HEARTS,
                                                                           False)
    assert result.one_card_to == "Ann"
    record = deal.round_record()
    assert record["trump"] == "H" and record["bidder"] == "Ann" and record["bid"] == 8
    assert record["actions"][6] == {"player": "Ann", "play": "JK", "suit": "H"}
    assert record["actions"][7] == {"player": "Bob", "play": "9H"}
    assert set(record) == {"dealer", "bidder", "bid", "trump", "points", "deal", "actions"}


def test_failed_bid_with_two_of_diamonds_as_the_joker() -> None:
    deal = make_deal("Dee", JokerRule.TWO_OF_DIAMONDS)
    deal.apply(Bid(15))  # a bid of 15 ends the bidding at once
    assert deal.phase is Phase.PLAY and deal.bid == 15
    play(deal, "2D", "H")
    play_all(deal, "9H 10H JH")
    play_all(deal, "KC QH 9C 10C")
    play_all(deal, "AH 10S QS 9S")
    play_all(deal, "KH JS KS KD")
    play_all(deal, "AS 9D JD JC")
    play_all(deal, "AD 10D QD QC")
    result = deal.result()
    assert result.points == {"Ann": 11, "Bob": 0, "Cy": 0, "Dee": 4}
    assert result.scores == {"Ann": 0, "Bob": 0, "Cy": 0, "Dee": 4}
    assert result.bid_failed
    deal_record, actions = deal.to_record()
    assert "2D" in deal_record["hands"]["Ann"]
    assert actions[1] == {"player": "Ann", "play": "2D", "suit": "H"}


def test_two_of_diamonds_is_a_trump_not_a_diamond() -> None:
    hands = {
        "Ann": "AS 9S 10S JS QS KS",
        "Bob": "AD KD 2D 9H 10H JH",
        "Cy": "QD JD 10D 9D QH KH",
        "Dee": "AH 9C 10C JC QC KC",
    }
    deal = make_deal("Dee", JokerRule.TWO_OF_DIAMONDS, hands, one="AC")
    deal.apply(Bid(6))
    for _ in range(3):
        deal.apply(Bid(None))
    play(deal, "AS")  # spades are trump: Bob's 2D is a trump and he must play it
    with pytest.raises(IllegalAction, match="must play a trump"):
        play(deal, "AD")
    play(deal, "2D")
    with pytest.raises(IllegalAction, match="not in your hand"):
        play(deal, "2D")


def test_no_trump_deal_joker_lead_names_a_suit_then_downtown() -> None:
    deal = make_deal("Cy")
    for _ in range(4):
        deal.apply(Bid(None))
    assert deal.no_trump and deal.trump is None
    assert deal.current_player == "Ann"  # across from the dealer
    with pytest.raises(IllegalAction, match="must name the suit to follow"):
        play(deal, "JK")
    play(deal, "JK", "C")
    with pytest.raises(IllegalAction, match="you must follow clubs"):
        play(deal, "9H")
    play_all(deal, "9C 10C KC")
    assert deal.phase is Phase.ORDER and deal.current_player == "Ann"
    assert deal.legal_actions() == [ChooseOrder(Order.UPTOWN), ChooseOrder(Order.DOWNTOWN)]
    with pytest.raises(IllegalAction, match="choose uptown or downtown"):
        play(deal, "AD")
    deal.apply(ChooseOrder(Order.DOWNTOWN))
    assert deal.order is Order.DOWNTOWN
    play_all(deal, "AD 9D JD KD")  # downtown: the 9 is high, the ace low
    assert deal.tricks[-1].winner == 1
    play_all(deal, "10D QD 9S QH")
    play_all(deal, "9H 10H JH KH")
    play_all(deal, "JS QS QC AS")
    play_all(deal, "10S KS JC AH")
    result = deal.result()
    assert result.points == {"Ann": 4, "Bob": 11, "Cy": 0, "Dee": 0}
    assert result.scores == result.points
    assert (result.bidder, result.bid, result.trump, result.bid_failed) == (None, None, None,
                                                                           False)
    _, actions = deal.to_record()
    assert actions[4] == {"player": "Ann", "play": "JK", "suit": "C"}
    assert actions[8] == {"player": "Ann", "order": "downtown"}
    assert deal.view("Cy").voids[0] == frozenset({Suit.DIAMONDS, Suit.SPADES})


def test_no_trump_joker_played_when_void_wins_and_may_keep_uptown() -> None:
    deal = make_deal("Dee")
    for _ in range(4):
        deal.apply(Bid(None))
    assert deal.current_player == "Bob"
    play(deal, "9C")
    with pytest.raises(IllegalAction, match="you must follow clubs"):
        play(deal, "QS")
    play_all(deal, "10C KC")
    play(deal, "JK")  # Ann has no club: the joker may be played, and it wins
    assert deal.tricks[0].winner == 0 and deal.tricks[0].points == 4
    assert deal.view("Bob").voids[0] == frozenset({Suit.CLUBS})
    deal.apply(ChooseOrder(Order.UPTOWN))
    assert deal.to_record()[1][-1] == {"player": "Ann", "order": "uptown"}
    play(deal, "AH")
    play(deal, "9H")
    play(deal, "10H")
    with pytest.raises(IllegalAction, match="only the player who leads the joker"):
        deal.apply(Play(parse_card("JH"), Suit.HEARTS))
    play(deal, "JH")
    assert deal.tricks[1].winner == 0  # uptown: the ace wins
    assert deal.view("Ann").points_taken == (5, 0, 0, 0)


def test_the_joker_may_not_be_played_when_you_can_follow() -> None:
    deal = make_deal("Dee")
    for _ in range(4):
        deal.apply(Bid(None))
    play_all(deal, "9H 10H JH")
    with pytest.raises(IllegalAction, match="the joker may only lead"):
        play(deal, "JK")
    assert Play(parse_card("JK")) not in deal.legal_actions()


def test_bidding_errors_and_turns() -> None:
    deal = make_deal("Dee")
    with pytest.raises(IllegalAction, match="the lowest bid for 4 players is 6"):
        deal.apply(Bid(5))
    with pytest.raises(IllegalAction, match="the bidding is not over"):
        play(deal, "AH")
    deal.apply(Bid(9))
    with pytest.raises(IllegalAction, match="above the current high bid of 9"):
        deal.apply(Bid(9))
    with pytest.raises(IllegalAction, match="the order is chosen only"):
        deal.apply(ChooseOrder(Order.DOWNTOWN))


def test_no_order_choice_after_the_last_trick() -> None:
    hands = {  # 2 players would be long; 4 players, Ann keeps the joker to the end
        "Ann": "JK AH KH QH AS AD",
        "Bob": "9H 10S JS 9D 10D 9C",
        "Cy": "10H QS KS JD QD 10C",
        "Dee": "JH 9S KD JC QC KC",
    }
    deal = make_deal("Cy", hands=hands)
    for _ in range(4):
        deal.apply(Bid(None))
    play_all(deal, "AH 9H 10H JH")
    play_all(deal, "KH 10S QS 9S")
    play_all(deal, "QH JS KS KD")
    play_all(deal, "AS 9D JD JC")
    play_all(deal, "AD 10D QD QC")
    play(deal, "JK", "C")
    play_all(deal, "9C 10C KC")
    assert deal.is_over and deal.result().points["Ann"] == 15


# --------------------------------------------------------------------------- random play


def random_deal(seed: int, n: int, rule: JokerRule = JokerRule.JOKER) -> Deal:
    rng = random.Random(seed)
    players = PLAYERS[:n]
    deal = Deal.new(players, players[rng.randrange(n)], rng, Options(joker=rule))
    while not deal.is_over:
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    return deal


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([2, 3, 4]), st.sampled_from(list(JokerRule)))
def test_random_legal_play_keeps_every_rule(seed: int, n: int, rule: JokerRule) -> None:
    deal = random_deal(seed, n, rule)
    result = deal.result()
    assert sum(result.points.values()) == rules.TOTAL_POINTS
    record, actions = deal.to_record()
    hands = {name: parse_cards(cards) for name, cards in record["hands"].items()}
    played = [card for trick in deal.tricks for card in trick.cards]
    assert len(played) == len(set(played)) == rules.hand_size(n) * n
    assert set(played) | {deal.one_card} == set(rules.deck(rule))
    trump = deal.trump
    order = Order.UPTOWN
    for trick in deal.tricks:
        for i, (seat, card) in enumerate(trick.plays):
            hand = hands[PLAYERS[seat]]
            led = None if i == 0 else trick.led_suit
            assert card in rules.legal_plays(hand, led, trump, rule)
            hand.remove(card)
        cards = list(trick.cards)
        winner = trick.plays[rules.trick_winner(cards, trick.led_suit, trump, order, rule)][0]
        assert winner == trick.winner
        if rules.may_turn_downtown(cards, trump, order, rule) and trick is not deal.tricks[-1]:
            chosen = [a for a in actions if "order" in a]
            order = Order(chosen.pop(0)["order"]) if order is Order.UPTOWN else order
    assert all(not hand for hand in hands.values())
    expected = rules.score_deal(tuple(result.points.values()), deal.bidder, deal.bid)
    assert tuple(result.scores.values()) == expected.scores


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([2, 3, 4]), st.sampled_from(list(JokerRule)))
def test_record_replay_round_trip(seed: int, n: int, rule: JokerRule) -> None:
    deal = random_deal(seed, n, rule)
    deal_record, actions = json.loads(json.dumps(deal.to_record()))
    again = Deal.from_record(deal_record, Options(joker=rule))
    again.replay(actions)
    assert again.round_record() == deal.round_record()
    assert again.result() == deal.result()


def test_replay_refuses_a_wrong_turn_or_an_illegal_move() -> None:
    deal = random_deal(7, 4)
    deal_record, actions = deal.to_record()
    wrong = [dict(actions[0], player="Nobody")]
    with pytest.raises(IllegalAction, match="action 1: it is"):
        Deal.from_record(deal_record, Options()).replay(wrong)
    bad = [dict(actions[0], bid=3)]
    with pytest.raises(IllegalAction, match=r"action 1 .*lowest bid"):
        Deal.from_record(deal_record, Options()).replay(bad)
    with pytest.raises(ValueError, match="not a card of the One Card deck"):
        Deal.from_record(deal_record, Options(joker=JokerRule.TWO_OF_DIAMONDS))


def test_seed_determinism() -> None:
    a, b = random_deal(123, 4), random_deal(123, 4)
    assert a.to_record() == b.to_record()
    assert random_deal(124, 4).to_record() != a.to_record()


def test_new_deal_shape() -> None:
    for n, size in ((2, 12), (3, 8), (4, 6)):
        deal = Deal.new(PLAYERS[:n], PLAYERS[0], random.Random(n), Options())
        record, actions = deal.to_record()
        assert set(record) == {"dealer", "hands", "one_card"} and actions == []
        assert [len(h) for h in record["hands"].values()] == [size] * n
        assert deal.current_player == PLAYERS[1 % n]


# --------------------------------------------------------------------------- views


def cards_in(value: Any) -> Iterator[Card]:
    if isinstance(value, Card):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from cards_in(getattr(value, f.name))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from cards_in(key)
            yield from cards_in(item)
    elif isinstance(value, tuple | list | set | frozenset):
        for item in value:
            yield from cards_in(item)


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([2, 3, 4]))
def test_a_view_shows_no_hidden_card(seed: int, n: int) -> None:
    rng = random.Random(seed)
    deal = Deal.new(PLAYERS[:n], PLAYERS[0], rng, Options())
    while not deal.is_over:
        for name in deal.players:
            view = deal.view(name)
            assert view.hand == deal.hand(name)
            public = {c for t in view.tricks for c in t.cards} | {c for _, c in view.trick}
            allowed = public | set(view.hand)
            seen = set(cards_in(view))
            assert seen <= allowed, seen - allowed
            assert view.one_card is None
            assert (view.legal != ()) == (name == deal.current_player)
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    assert deal.view(PLAYERS[0]).one_card == deal.one_card


def test_view_of_the_bidding() -> None:
    deal = make_deal("Dee")
    deal.apply(Bid(7))
    deal.apply(Bid(None))
    view: View = deal.view("Cy")
    assert view.bids == ((0, 7), (1, None))
    assert view.high_bid == 7 and view.high_bidder == 0 and view.bidder is None
    assert view.my_turn and view.legal[0] == Bid(None) and view.legal[1] == Bid(8)
    assert deal.view("Ann").legal == ()


# --------------------------------------------------------------------------- the fast deal


def check_sim_against_deal(seed: int, n: int, rule: JokerRule) -> None:
    rng = random.Random(seed)
    players = PLAYERS[:n]
    deal = Deal.new(players, players[rng.randrange(n)], rng, Options(joker=rule))
    record, _ = deal.to_record()
    sim = State(n, players.index(deal.dealer))
    for card in [*(c for cards in record["hands"].values() for c in cards), record["one_card"]]:
        assert sim.is_chance_node()
        sim.apply(card_index(parse_card(card), rule))  # the deal, card by card
    while not deal.is_over:
        legal = deal.legal_actions()
        assert [action_to_int(a, rule) for a in legal] == list(sim.legal_actions())
        assert sorted(sim.legal_actions()) == sorted(sim.legal_actions(naming_last=True))
        action = legal[rng.randrange(len(legal))]
        deal.apply(action)
        sim.apply(action_to_int(action, rule))
        assert action_from_int(action_to_int(action, rule), rule) == action
    assert sim.is_over
    assert tuple(deal.result().points.values()) == tuple(sim.info.taken)
    assert tuple(deal.result().scores.values()) == sim.score().scores


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([2, 3, 4]), st.sampled_from(list(JokerRule)))
def test_sim_deal_follows_the_same_rules(seed: int, n: int, rule: JokerRule) -> None:
    check_sim_against_deal(seed, n, rule)


