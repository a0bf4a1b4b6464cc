"""Both engines' integer cores take exactly the actions they offer.

At every state along random deals of Least Score and One Card (every house rule drawn;
One Card's deal also dealt card by card through its chance actions), the core's
``State.apply`` must accept every action of ``State.legal_actions()`` and refuse every
other action id with the engine's ``IllegalAction``, leaving the state as it was.

One Card's action ids are few (the 25 cards, a joker lead naming each suit, the two
orders, pass and the bids): every one of them is tried, and ids out of range. Least
Score's encode a discard of up to five cards and a take in 36 bits, too many to try
them all: tried are every discard made of the hand's cards, in every order, with the
takes that matter (each floor card, the deck, a card of the hand, cards from nowhere;
a legal discard with every value the take's six bits can hold), each card not in the
hand, declaring, and malformed ids (out of range, an empty or sixth card field, a card
field past the deck, a card twice).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from itertools import permutations
from typing import Any

from examples_budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.cards import STANDARD_DECK
from scorekeeper.errors import IllegalAction
from scorekeeper.games.least_score import engine as least
from scorekeeper.games.least_score import rules as least_rules
from scorekeeper.games.one_card import engine as one
from scorekeeper.games.one_card import rules as one_rules

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal")
EXAMPLES = settings(max_examples=examples(40), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def check_state(state: Any, legal: Iterable[int], others: Iterable[int],
                snapshot: Callable[[Any], Any]) -> None:
    """``state.apply`` accepts each of ``legal`` (on a clone) and refuses each of
    ``others`` that is not legal, the state unchanged by the refusals."""
    legal = list(legal)
    assert len(set(legal)) == len(legal), "legal_actions lists an action twice"
    for action in legal:
        state.clone().apply(action)  # must not raise
    before = snapshot(state)
    offered = set(legal)
    accepted = [a for a in others if a not in offered and _accepts(state, a)]
    assert accepted == [], f"apply took actions legal_actions does not offer: {accepted[:10]}"
    assert snapshot(state) == before, "a refused action changed the state"


def _accepts(state: Any, action: int) -> bool:
    try:
        state.apply(action)
    except IllegalAction:
        return False
    return True


# ---------------------------------------------------------------------------
# One Card

ONE_CARD_IDS = range(-3, one.BID0 + one_rules.MAX_BID + 4)
"""Every action id (the cards, the joker naming each suit, the orders, pass, the bids)
and a few out of range on each side."""
FAR_OUT = (-(10**9), -one.NAME0, 10**9, 2**40)


def one_snapshot(state: one.State) -> Any:
    return (state.info.as_dict(), [list(hand) for hand in state.hands], state.one,
            state.current_player())


@given(players=st.integers(one_rules.MIN_PLAYERS, one_rules.MAX_PLAYERS),
       dealer=st.integers(0, one_rules.MAX_PLAYERS - 1),
       joker=st.sampled_from(list(one_rules.JokerRule)),
       target=st.sampled_from([one_rules.MIN_TARGET, one_rules.TARGET, one_rules.MAX_TARGET]),
       by_chance=st.booleans(), seed=st.integers(0, 2**32 - 1))
@EXAMPLES
def test_one_card_core_applies_exactly_its_legal_actions(
        players: int, dealer: int, joker: one_rules.JokerRule, target: int, by_chance: bool,
        seed: int) -> None:
    rng = random.Random(seed)
    dealer %= players
    if by_chance:  # the deal itself, card by card: the chance actions are checked too
        state = one.State(players, dealer)
    else:
        names = list(NAMES[:players])
        deal = one.Deal.new(names, names[dealer], rng, one_rules.Options(joker, target))
        state = deal.state.clone()
    steps = 0
    while True:
        legal = list(state.legal_actions())
        check_state(state, legal, [*ONE_CARD_IDS, *FAR_OUT], one_snapshot)
        if state.is_terminal():
            assert legal == []
            break
        state.apply(rng.choice(legal))
        steps += 1
        assert steps < 200, "a deal that does not end"
    assert sum(state.returns()) >= 0


def test_one_card_core_refuses_a_joker_lead_naming_trump_after_the_opening_lead() -> None:
    """The case that slipped through: in a trump deal, after the bidder's opening lead
    set trump, the joker leads trump and names nothing; its naming ids are not offered
    and must be refused (so must leading it unnamed at the opening lead, which would set
    no trump at all)."""
    for seed in range(200):
        state = one.State.shuffled(3, 0, random.Random(seed))
        state.apply(one.BID0 + 7)  # seat 1 bids 7, the others pass
        state.apply(one.PASS)
        state.apply(one.PASS)
        bidder = state.info.cur
        hand = state.hands[bidder]
        if one.JOKER_INDEX in hand:
            assert one.JOKER_INDEX not in state.legal_actions()
            assert not _accepts(state.clone(), one.JOKER_INDEX)
            continue
        state.apply(hand[0])  # the opening lead sets trump
        while state.info.trick:  # the rest of the first trick
            state.apply(state.legal_actions()[0])
        leader = state.info.cur
        if one.JOKER_INDEX not in state.hands[leader]:
            continue
        trump = state.info.trump
        assert 0 <= trump < one.NO_TRUMP
        legal = state.legal_actions()
        assert one.JOKER_INDEX in legal and one.NAME0 + trump not in legal
        for named in range(4):
            assert not _accepts(state.clone(), one.NAME0 + named)
        return
    raise AssertionError("no deal reached a joker lead after the opening lead")


# ---------------------------------------------------------------------------
# Least Score

CARD = least.CARD_ID
FIELD = 6
TAKES = range(1 << FIELD)
"""Every value the take's six bits can hold (0-51 a card, 52 the deck, 53-63 nothing)."""


def discard_id(card_ids: Iterable[int]) -> int:
    """The discard part of an action id, from card numbers (as FORMAT's encoding does)."""
    code = 0
    for place, card in enumerate(card_ids, 1):
        code |= (card + 1) << (FIELD * place)
    return code


def least_space(state: least.State, rng: random.Random) -> list[int]:
    """The Least Score action ids tried at ``state`` (see the module's docstring)."""
    ids = [least.DECLARE, -1, -least.DECLARE, 1 << 40, 0, least.TAKE_DECK]
    if state.current_player() < 0:
        hand: list[int] = []
        floor: list[int] = []
    else:
        hand = [CARD[c] for c in state.hands[state.info.cur]]
        floor = [CARD[c] for c in state.info.floor]
    legal_discards = {a & ~((1 << FIELD) - 1) for a in state.legal_actions()
                      if a != least.DECLARE}
    elsewhere = [c for c in range(52) if c not in hand and c not in floor]
    for size in range(1, len(hand) + 1):
        for cards in permutations(hand, size):
            code = discard_id(cards)
            if code in legal_discards:
                ids += [code | take for take in TAKES]
            else:
                takes = {*floor, least.TAKE_DECK, *hand[:1], *rng.sample(elsewhere, 2), 60}
                ids += [code | take for take in takes]
    for take in (*floor, least.TAKE_DECK):
        ids += [discard_id([card]) | take for card in elsewhere]  # a card not in the hand
        if hand:
            ids += [
                discard_id([hand[0], hand[0]]) | take,  # the same card twice
                discard_id(hand[:1]) | (0 << (2 * FIELD)) | (discard_id(hand[1:2]) << FIELD)
                | take,  # a card field left empty before another
                discard_id([*hand, *hand[:1]]) | take,  # a sixth card
                discard_id(hand[:1]) | (60 << (2 * FIELD)) | take,  # a field past the deck
            ]
    return ids


def least_snapshot(state: least.State) -> Any:
    info = state.info
    return (state.current_player(), [list(hand) for hand in state.hands], state.deck(),
            info.floor, info.floor_from, list(info.dead), list(info.seen), info.turn,
            list(info.turns_taken), [list(k) for k in info.known], list(info.sizes),
            info.deck_size, state.declarer)


@given(players=st.integers(least_rules.MIN_PLAYERS, least_rules.MAX_PLAYERS),
       dealer=st.integers(0, least_rules.MAX_PLAYERS - 1),
       limit=st.sampled_from([least_rules.MIN_LIMIT, 50, 100, least_rules.MAX_LIMIT]),
       tie=st.sampled_from(list(least_rules.Tie)),
       end=st.sampled_from(list(least_rules.End)),
       two_pairs=st.sampled_from(list(least_rules.TwoPairs)),
       seed=st.integers(0, 2**32 - 1))
@EXAMPLES
def test_least_score_core_applies_exactly_its_legal_actions(
        players: int, dealer: int, limit: int, tie: least_rules.Tie, end: least_rules.End,
        two_pairs: least_rules.TwoPairs, seed: int) -> None:
    rng = random.Random(seed)
    names = NAMES[:players]
    options = least_rules.Options(limit=limit, tie=tie, end=end, two_pairs=two_pairs)
    state = least.State(names, names[dealer % players], options)
    steps = 0
    while True:
        legal = state.legal_actions()
        check_state(state, legal, least_space(state, rng), least_snapshot)
        if state.is_terminal():
            assert legal == []
            break
        if state.is_chance_node():  # the deal, or a reshuffle: chance, not a player
            assert legal == []
            state.apply_chance(state.chance_outcome(rng))
            continue
        declare = least.DECLARE in legal and rng.random() < 0.15
        state.apply(least.DECLARE if declare else rng.choice(
            [a for a in legal if a != least.DECLARE]))
        steps += 1
        assert steps < 400, "a deal that does not end"
    state.score()  # a finished deal scores


def test_the_tried_spaces_hold_what_the_docstring_says() -> None:
    """The Least Score space tried at a real position holds its legal actions and every
    order of the hand's cards (so a refusal test over it is not empty)."""
    state = least.State(NAMES[:3], NAMES[0], least_rules.Options())
    state.apply_chance(list(STANDARD_DECK))
    space = least_space(state, random.Random(1))
    assert set(state.legal_actions()) <= set(space)
    assert len(space) > 325 * 4
    assert set(one.State.shuffled(4, 0, random.Random(1)).legal_actions()) <= set(ONE_CARD_IDS)
