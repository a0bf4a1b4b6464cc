"""Property tests of the two engines that draw the ACTIONS, not only the deal's seed.

Each example deals from a drawn seed and then plays a drawn index into the engine's
``legal_actions()`` at every step, so a failure shrinks to a short deal and a few
choices. At every step the engine must agree with RULES.md as tests/rules_model.py
writes it (nothing from the program's rules): every card still there exactly once,
hand sizes, which discards / bids / plays are legal, who wins each trick, and at the
end the hand totals, points and scores. An action drawn from outside the legal list
must be refused with the engine's ``IllegalAction`` and leave the deal unchanged.

Only the public API is used (``Deal.new``, ``legal_actions``, ``apply``, ``hand``,
``view``, ``result``, ``to_record`` and the read-only properties), so the engines'
insides can change freely.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import pytest
from examples_budget import examples
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from rules_model import (
    DECK,
    ONE_CARD_HAND,
    ONE_CARD_LOWEST_BID,
    SUITS,
    hand_total,
    is_legal_discard,
    joker_card,
    least_score_deal,
    legal_plays,
    one_card_deal,
    one_card_deck,
    one_card_points,
    trick_winner,
)

from scorekeeper.cards import SUITS as SUIT_ENUMS
from scorekeeper.cards import parse_card, parse_suit
from scorekeeper.games.least_score import engine as least
from scorekeeper.games.least_score.rules import Options as LeastOptions
from scorekeeper.games.least_score.rules import Tie, TwoPairs
from scorekeeper.games.one_card import engine as one
from scorekeeper.games.one_card.rules import JokerRule, Order
from scorekeeper.games.one_card.rules import Options as OneCardOptions

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal")
PROPERTY = settings(max_examples=examples(60), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
LONG = settings(PROPERTY, max_examples=examples(600))

# ---------------------------------------------------------------------------
# Least Score


def least_snapshot(deal: least.Deal) -> Any:
    return (deal.to_record(), [deal.hand(name) for name in deal.players], deal.floor,
            deal.deck, deal.dead_pile, deal.current_player, deal.turn, deal.is_over)


def least_key(action: least.Action) -> Any:
    """An action without the order of its cards (the legal list gives them in hand order)."""
    if isinstance(action, least.Discard):
        return frozenset(map(str, action.cards)), None if action.take is None else str(action.take)
    return "declare"


def expected_least_actions(hand: list[str], floor: list[str], deck_available: bool,
                           can_declare: bool, two_pairs: str) -> set[Any]:
    takes: list[str | None] = [*floor, None] if deck_available else list(floor)
    discards = [frozenset(cards) for size in range(1, len(hand) + 1)
                for cards in combinations(hand, size) if is_legal_discard(cards, two_pairs)]
    expected: set[Any] = {(cards, take) for cards in discards for take in takes}
    return expected | {"declare"} if can_declare else expected


def draw_illegal_least(data: st.DataObject, deal: least.Deal, legal: set[Any]) -> Any:
    """A Declare or a Discard (of hand cards, maybe one card from elsewhere; any take)
    that the legal list does not hold, or None when the draw happened to be legal."""
    hand = deal.hand(deal.current_player or "")
    if data.draw(st.integers(0, 5), label="declare?") == 0:
        action: least.Action = least.Declare()
    else:
        picked = data.draw(st.lists(st.sampled_from(range(len(hand))), min_size=1, max_size=5,
                                    unique=True), label="discard seats")
        cards = [hand[i] for i in sorted(picked)]
        if data.draw(st.booleans(), label="a card from elsewhere"):
            cards.append(parse_card(data.draw(st.sampled_from(DECK), label="other card")))
        take_text = data.draw(st.sampled_from([None, *DECK]), label="take")
        action = least.Discard(tuple(cards),
                               None if take_text is None else parse_card(take_text))
    return None if least_key(action) in legal else action


@given(data=st.data())
@PROPERTY
def test_least_score_deal_played_by_drawn_actions_follows_the_rules(data: st.DataObject) -> None:
    check_least_score_deal(data)


@pytest.mark.slow
@given(data=st.data())
@LONG
def test_least_score_deal_played_by_drawn_actions_follows_the_rules_long(
        data: st.DataObject) -> None:
    check_least_score_deal(data)


def check_least_score_deal(data: st.DataObject) -> None:
    count = data.draw(st.integers(2, 8), label="players")
    players = NAMES[:count]
    dealer = data.draw(st.sampled_from(players), label="dealer")
    tie = data.draw(st.sampled_from(list(Tie)), label="tie")
    two_pairs = data.draw(st.sampled_from(list(TwoPairs)), label="two pairs")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    declare_from = data.draw(st.integers(count, 8 * count + 40), label="declare at turn")
    from_the_deck = data.draw(st.booleans(), label="always take from the deck")
    deal = least.Deal.new(players, dealer, random.Random(seed),
                          LeastOptions(tie=tie, two_pairs=two_pairs))

    sizes = dict.fromkeys(players, 5)
    deck_size, dead_size = 52 - 5 * count - 1, 0
    turns = 0
    seat = (players.index(dealer) + 1) % count
    while not deal.is_over:
        player = deal.current_player
        assert player == players[seat]
        hands = {name: [str(card) for card in deal.hand(name)] for name in players}
        floor = [str(card) for card in deal.floor]
        every = [card for hand in hands.values() for card in hand] + floor + [
            str(card) for card in (*deal.deck, *deal.dead_pile)]
        assert sorted(every) == sorted(DECK), "a card was lost or doubled"
        assert {name: len(hand) for name, hand in hands.items()} == sizes
        assert all(1 <= size <= 5 for size in sizes.values())
        assert (len(deal.deck), len(deal.dead_pile)) == (deck_size, dead_size)

        actions = deal.legal_actions()
        legal = {least_key(action) for action in actions}
        assert len(legal) == len(actions), "the legal list repeats an action"
        assert legal == expected_least_actions(
            hands[player], floor, deck_size + dead_size > 0, turns >= count, two_pairs)

        if data.draw(st.booleans(), label="try an illegal action"):
            illegal = draw_illegal_least(data, deal, legal)
            if illegal is not None:
                before = least_snapshot(deal)
                with pytest.raises(least.IllegalAction):
                    deal.apply(illegal)
                assert least_snapshot(deal) == before, f"refused {illegal} changed the deal"

        if turns >= declare_from and "declare" in legal:
            action: least.Action = least.Declare()
        elif from_the_deck and (blind := [a for a in actions if isinstance(a, least.Discard)
                                          and a.take is None]):  # empties the deck: reshuffles
            action = blind[data.draw(st.integers(0, len(blind) - 1), label="action")]
        else:
            action = actions[data.draw(st.integers(0, len(actions) - 1), label="action")]
        deal.apply(action)
        if isinstance(action, least.Discard):
            sizes[player] += 1 - len(action.cards)
            taken = len(floor) - 1 if action.take is not None else len(floor)
            if action.take is None:
                if deck_size == 0:
                    deck_size, dead_size = dead_size, 0
                deck_size -= 1
            dead_size += taken
            assert action.take is None or action.take in deal.hand(player)
            assert sorted(map(str, deal.floor)) == sorted(map(str, action.cards))
            turns += 1
            seat = (seat + 1) % count

    assert deal.current_player is None and deal.legal_actions() == []
    event(f"reshuffles: {sum('reshuffle' in record for record in deal.to_record()[1])}")
    with pytest.raises(least.IllegalAction):
        deal.apply(least.Declare())
    result = deal.result()
    totals = {name: hand_total(str(card) for card in deal.hand(name)) for name in players}
    scores, false_declaration = least_score_deal(totals, players[seat], tie)
    assert result.declarer == players[seat]
    assert result.totals == totals
    assert result.scores == scores
    assert result.false_declaration == false_declaration


# ---------------------------------------------------------------------------
# One Card

ALL_ONE_CARD_ACTIONS: list[one.Action] = [
    *(one.Bid(amount) for amount in (None, *range(0, 17))),
    *(one.Play(parse_card(text), suit) for text in {*one_card_deck("joker"), "2D"}
      for suit in (None, *SUIT_ENUMS)),
    one.ChooseOrder(Order.UPTOWN), one.ChooseOrder(Order.DOWNTOWN),
]


def one_snapshot(deal: one.Deal) -> Any:
    return (deal.to_record(), [deal.view(name) for name in deal.players], deal.phase,
            deal.current_player)


def in_tricks(deal: one.Deal) -> list[str]:
    done = [str(card) for trick in deal.tricks for card in trick.cards]
    return done + [str(card) for _, card in deal.view(deal.players[0]).trick]


@given(data=st.data())
@PROPERTY
def test_one_card_deal_played_by_drawn_actions_follows_the_rules(data: st.DataObject) -> None:
    check_one_card_deal(data)


@pytest.mark.slow
@given(data=st.data())
@LONG
def test_one_card_deal_played_by_drawn_actions_follows_the_rules_long(
        data: st.DataObject) -> None:
    check_one_card_deal(data)


def try_an_illegal_action(data: st.DataObject, deal: one.Deal, player: str,
                          actions: list[one.Action], *, trick_empty: bool, trump: str | None,
                          the_joker: str) -> None:
    """Draw an action (any, or a card of the player's hand) and, when it is illegal, check
    that the deal refuses it and stays as it was."""
    in_hand = [one.Play(card, suit) for card in deal.hand(player)
               for suit in (None, *SUIT_ENUMS)]  # a revoke, a wrong joker lead
    illegal = data.draw(st.sampled_from(ALL_ONE_CARD_ACTIONS) | st.sampled_from(in_hand),
                        label="illegal action")
    # Leading the joker once trump is known leads trump: naming that very suit
    # is accepted as a redundant spelling of the legal Play(joker) (rules.led_suit_of).
    redundant = (isinstance(illegal, one.Play) and trick_empty and trump is not None
                 and str(illegal.card) == the_joker and illegal.suit is not None
                 and illegal.suit.value == trump and one.Play(illegal.card) in actions)
    if illegal not in actions and not redundant:
        before = one_snapshot(deal)
        with pytest.raises(one.IllegalAction):
            deal.apply(illegal)
        assert one_snapshot(deal) == before, f"refused {illegal} changed the deal"


def check_one_card_deal(data: st.DataObject) -> None:
    count = data.draw(st.integers(2, 4), label="players")
    players = NAMES[:count]
    dealer = data.draw(st.sampled_from(players), label="dealer")
    joker = data.draw(st.sampled_from(list(JokerRule)), label="joker")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    everyone_passes = data.draw(st.booleans(), label="a no-trump deal")
    deal = one.Deal.new(players, dealer, random.Random(seed), OneCardOptions(joker=joker))
    the_joker = joker_card(joker)
    deck = one_card_deck(joker)

    high: int | None = None
    high_bidder: str | None = None
    passed: set[str] = set()
    trump: str | None = None
    no_trump = False
    downtown = False
    trick: list[tuple[str, str]] = []
    led: str | None = None
    taken = dict.fromkeys(players, 0)
    tricks_done = 0
    last_winner: str | None = None
    assert deal.current_player == players[(players.index(dealer) + 1) % count]

    while not deal.is_over:
        player = deal.current_player
        assert player is not None
        hands = {name: [str(card) for card in deal.hand(name)] for name in players}
        every = [card for hand in hands.values() for card in hand] + in_tricks(deal)
        assert sorted([*every, str(deal.one_card)]) == sorted(deck), "a card was lost or doubled"
        size = ONE_CARD_HAND[count] - tricks_done
        assert sorted(len(hand) for hand in hands.values()) == sorted(
            [size - 1] * len(trick) + [size] * (count - len(trick)))

        actions = deal.legal_actions()
        assert len(set(actions)) == len(actions), "the legal list repeats an action"
        if deal.phase is one.Phase.BIDDING:
            assert player not in passed
            lowest = max(ONE_CARD_LOWEST_BID[count], (high or 0) + 1)
            assert set(actions) == {one.Bid(None), *(one.Bid(b) for b in range(lowest, 16))}
        elif deal.phase is one.Phase.ORDER:
            assert set(actions) == {one.ChooseOrder(Order.UPTOWN),
                                    one.ChooseOrder(Order.DOWNTOWN)}
        else:
            plays = legal_plays(hands[player], led, trump, joker)
            naming = not trick and (no_trump or trump is None)
            expected = {one.Play(parse_card(card), suit)
                        for card in plays
                        for suit in ((*SUIT_ENUMS,) if naming and card == the_joker else (None,))}
            assert set(actions) == expected

        if data.draw(st.booleans(), label="try an illegal action"):
            try_an_illegal_action(data, deal, player, actions, trick_empty=not trick,
                                  trump=trump, the_joker=the_joker)

        if everyone_passes and deal.phase is one.Phase.BIDDING:
            action: one.Action = one.Bid(None)
        else:
            action = actions[data.draw(st.integers(0, len(actions) - 1), label="action")]
        deal.apply(action)

        if isinstance(action, one.Bid):
            if action.amount is None:
                passed.add(player)
            else:
                high, high_bidder = action.amount, player
            everyone_else_passed = len(passed) == count - 1 and high is not None
            if high == 15 or everyone_else_passed or len(passed) == count:
                assert deal.phase is one.Phase.PLAY
                if high is None:
                    no_trump = True
                    steps = {2: 1, 3: 1, 4: 2}[count]
                    assert deal.current_player == players[(players.index(dealer) + steps) % count]
                else:
                    assert deal.current_player == high_bidder
            else:
                assert deal.phase is one.Phase.BIDDING
        elif isinstance(action, one.ChooseOrder):
            downtown = action.order is Order.DOWNTOWN
            assert deal.current_player == player  # the winner of the trick leads next
        else:
            card = str(action.card)
            if not trick:
                named = None if action.suit is None else action.suit.value
                if not no_trump and trump is None:
                    trump = named if card == the_joker else card[-1]
                led = named if card == the_joker and named else (
                    trump if card == the_joker else card[-1])
            trick.append((player, card))
            if len(trick) == count:
                cards = [c for _, c in trick]
                assert led is not None
                winner = trick[trick_winner(cards, led, None if no_trump else trump,
                                            downtown, joker)][0]
                taken[winner] += sum(one_card_points(c, joker) for c in cards)
                tricks_done += 1
                assert deal.tricks[-1].winner == players.index(winner)
                last = tricks_done == ONE_CARD_HAND[count]
                if not last:
                    assert deal.current_player == winner
                    turns_order = no_trump and the_joker in cards
                    assert deal.phase is (one.Phase.ORDER if turns_order else one.Phase.PLAY)
                trick, led, last_winner = [], None, winner

    assert deal.legal_actions() == []
    event("no-trump deal, downtown" if downtown else "no-trump deal" if no_trump else "trump deal")
    assert tricks_done == ONE_CARD_HAND[count]
    assert last_winner is not None
    taken[last_winner] += one_card_points(str(deal.one_card), joker)
    assert sum(taken.values()) == 15
    result = deal.result()
    assert result.points == taken
    bid = None if no_trump else high
    bidder = None if no_trump else high_bidder
    assert (result.bidder, result.bid) == (bidder, bid)
    assert result.trump == (None if trump is None else parse_suit(trump))
    assert result.scores == one_card_deal(taken, bidder, bid)
    assert result.bid_failed == (bid is not None and bidder is not None and taken[bidder] < bid)


def test_the_model_deck_is_the_engines() -> None:
    """The model's decks are the 52 and 25 cards the engines deal (a check on the model)."""
    rng = random.Random(0)
    least_deal = least.Deal.new(NAMES[:2], "Ann", rng, LeastOptions())
    cards = [str(c) for name in NAMES[:2] for c in least_deal.hand(name)]
    cards += [str(c) for c in (*least_deal.floor, *least_deal.deck)]
    assert sorted(cards) == sorted(DECK)
    for rule in JokerRule:
        one_deal = one.Deal.new(NAMES[:3], "Ann", rng, OneCardOptions(joker=rule))
        cards = [str(c) for name in NAMES[:3] for c in one_deal.hand(name)]
        assert sorted([*cards, str(one_deal.one_card)]) == sorted(one_card_deck(rule.value))
    assert len(SUITS) == 4
