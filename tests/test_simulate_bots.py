"""The strong bots' shortcuts decide exactly as the plain code they replace.

The strong bots were made faster for ``score simulate`` without changing a single
decision: each shortcut here is checked against the straightforward version (the
draws of ``random.Random``, greedy play applied move by move, the look-ahead score of
every hand).
"""

from __future__ import annotations

import random

from examples_budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.cards import STANDARD_DECK, Card
from scorekeeper.games.least_score import bots as ls_bots
from scorekeeper.games.least_score.rules import TwoPairs
from scorekeeper.games.one_card import bots as oc_bots
from scorekeeper.games.one_card.engine import BIDDING, State


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(0, 2**32), st.lists(st.integers(1, 10), max_size=52), st.data())
def test_sampler_draws_what_random_sample_draws(seed: int, population: list[int],
                                                data: st.DataObject) -> None:
    k = data.draw(st.integers(0, len(population)))
    ours, theirs = random.Random(seed), random.Random(seed)
    sampler = ls_bots.Sampler(population, k, ours.getrandbits)
    for _ in range(3):
        assert sampler.draw() == theirs.sample(population, k)
    assert ours.getstate() == theirs.getstate()


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(0, 2**32), st.lists(st.integers(0, 24), max_size=25))
def test_shuffle_is_random_shuffle(seed: int, items: list[int]) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    mine = items[:]
    oc_bots.shuffle(mine, ours.getrandbits)
    theirs.shuffle(items)
    assert mine == items
    assert ours.getstate() == theirs.getstate()


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([2, 3, 4]))
def test_the_random_bot_draws_what_random_choice_draws(seed: int, n: int) -> None:
    """Its inlined draw is ``rng.choice(view.legal())``, draw for draw, a whole deal long."""
    ours, theirs = random.Random(seed), random.Random(seed)
    state = State.shuffled(n, seed % n, random.Random(seed))
    while not state.is_over:
        view = state.observation(state.current_player())
        action = oc_bots.RandomBot().decide(view, ours)
        assert action == theirs.choice(view.legal())
        state.apply(action)
    assert ours.getstate() == theirs.getstate()


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([2, 3, 4]), st.integers(0, 40))
def test_greedy_rollout_plays_greedy_action_move_by_move(seed: int, n: int,
                                                         moves: int) -> None:
    rng = random.Random(seed)
    order = list(range(25))
    rng.shuffle(order)
    sim = State(n, rng.randrange(n))
    sim.deal(order)
    for step in range(moves):  # a position anywhere: mid-trick, before a downtown choice
        if sim.is_over or (sim.info.phase != BIDDING and step > moves // 2):
            break
        legal = sim.legal_actions(naming_last=True)
        sim.apply(legal[rng.randrange(len(legal))])
    if sim.info.phase == BIDDING:
        return
    slow, fast = sim.clone(), sim.clone()
    while not slow.is_over:
        slow.apply(oc_bots.greedy_action(slow))
    taken = oc_bots.greedy_rollout(fast)
    assert taken == slow.info.taken
    assert oc_bots.deal_scores(fast, taken) == list(slow.score().scores)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.sampled_from(STANDARD_DECK), min_size=1, max_size=5, unique=True),
       st.sampled_from(list(TwoPairs)))
def test_least_score_look_ahead_by_hand_shape_is_the_hands_score(
        hand: list[Card], two_pairs: TwoPairs) -> None:
    bot = ls_bots.StrongBot()
    *rest, card = hand
    assert bot._kept_score(rest, card, two_pairs) == bot._hand_score(hand, two_pairs)


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.sampled_from(STANDARD_DECK), min_size=0, max_size=4, unique=True),
       st.integers(0, 2**32))
def test_least_score_deck_score_adds_the_scores_in_pool_order(rest: list[Card],
                                                              seed: int) -> None:
    bot = ls_bots.StrongBot()
    pool = [c for c in STANDARD_DECK if c not in rest]
    random.Random(seed).shuffle(pool)
    pool = pool[: 1 + seed % len(pool)]
    expected = sum(bot._hand_score([*rest, c], TwoPairs.SAME_RANK) for c in pool) / len(pool)
    assert bot._deck_score(rest, pool, TwoPairs.SAME_RANK) == expected
