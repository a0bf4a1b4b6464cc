"""One Card's ``expert`` plays for the game: each end of a deal is worth each player's
chance to win the game from the totals it leads to (``games/one_card/expert.py``)."""

from __future__ import annotations

import random

import pytest

from scorekeeper import match
from scorekeeper.games.one_card import bots, rules
from scorekeeper.games.one_card.engine import BID0, BIDDING, PASS, GameScore, SeatView, State
from scorekeeper.games.one_card.expert import WinChances, deal_outcomes
from scorekeeper.games.virtual import DealState


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_sample_of_deals_holds_deals_as_the_rules_score_them(n: int) -> None:
    deals = deal_outcomes()[n]
    assert len(deals) >= 200
    for scores in deals:
        assert len(scores) == n
        assert all(0 <= s <= rules.TOTAL_POINTS for s in scores)
        # Every point is taken; only a bidder short of the bid scores 0 instead.
        assert sum(scores) <= rules.TOTAL_POINTS
    made = sum(1 for scores in deals if sum(scores) == rules.TOTAL_POINTS)
    assert made > len(deals) // 2


def test_a_game_over_is_decided() -> None:
    chances = WinChances(4, 30)
    assert chances.of((31, 20, 10, 0), 1) == (1.0, 0.0, 0.0, 0.0)
    assert chances.of((12, 40, 39, 0), 1) == (0.0, 1.0, 0.0, 0.0)


def test_a_tie_at_the_top_plays_on() -> None:
    chances = WinChances(3, 30).of((30, 30, 0), 0)
    assert chances[0] > 0.3 and chances[1] > 0.3
    assert chances[2] < 0.1


def test_chances_add_up_to_one_and_favour_the_leader() -> None:
    chances = WinChances(4, 30)
    start = chances.of((0, 0, 0, 0), 0)
    assert sum(start) == pytest.approx(1.0)
    assert all(0.15 < c < 0.35 for c in start), start
    leading = chances.of((25, 10, 10, 10), 1)
    assert sum(leading) == pytest.approx(1.0)
    assert leading[0] > 0.6 > 0.2 > max(leading[1:])
    # Closer to the target is better.
    assert chances.of((28, 20, 0, 0), 2)[1] < chances.of((28, 26, 0, 0), 2)[1]


def test_chances_depend_on_the_position_only() -> None:
    """Any process, any order of questions: the same answer (games stay reproducible)."""
    positions = [((5, 9, 0, 12), 1), ((20, 21, 22, 23), 3), ((0, 0, 0, 0), 0)]
    first = WinChances(4, 30)
    answers = [first.of(*position) for position in positions]
    second = WinChances(4, 30)
    assert [second.of(*position) for position in reversed(positions)] == answers[::-1]


def test_the_expert_values_a_deal_by_the_game_and_the_strong_bot_by_its_points() -> None:
    deal = State.shuffled(4, 0, random.Random(3), game=GameScore((0, 28, 10, 5), 30))
    view = deal.observation(2)
    assert view.game == GameScore((0, 28, 10, 5), 30)
    expert = bots.ExpertBot()
    value = expert.deal_value(view)
    assert value([0, 2, 0, 0]) == (0.0, 1.0, 0.0, 0.0)  # 30 alone: the game is over
    assert value([0, 0, 6, 0])[2] > value([6, 0, 0, 0])[2]
    assert bots.StrongBot().deal_value(view)([0, 2, 9, 4]) == [0, 2, 9, 4]
    alone = SeatView(view.seat, view.hand, view.info)  # a deal with no game around it
    assert expert.deal_value(alone)([0, 2, 9, 4]) == [0, 2, 9, 4]


@pytest.mark.slow  # a long run of the bot's play; the default suite stays under 2 minutes
def test_the_expert_bids_boldly_but_values_a_bid_less_when_a_few_points_win() -> None:
    """The same hands, the same seat (first to call). At the start of a game the expert
    bids more often than the strong bot (leading and naming trump is worth more than its
    points, and it bids boldly). Needing 3 points to win, a bid is worth less to it
    against a pass than at the start, in win chance, in most hands: a bid it misses
    scores nothing, while a player who passes takes 3 points in most deals."""
    expert, strong = bots.ExpertBot(iterations=50), bots.StrongBot()
    by_expert = by_strong = worth_less = 0
    for seed in range(30):
        calm = State.shuffled(4, 3, random.Random(seed), game=GameScore((0, 0, 0, 0), 30))
        close = State.shuffled(4, 3, random.Random(seed), game=GameScore((27, 0, 0, 0), 30))
        action, bid, passing, _ = expert._bid(calm.observation(0), random.Random(seed))
        _, bid_close, passing_close, _ = expert._bid(close.observation(0), random.Random(seed))
        assert bid is not None and passing is not None
        assert bid_close is not None and passing_close is not None
        by_expert += action != bots.PASS
        by_strong += strong.decide(calm.observation(0), random.Random(seed)) != bots.PASS
        worth_less += bid_close - passing_close < bid - passing
    assert by_expert > by_strong
    assert worth_less >= 24, worth_less


def test_a_bid_the_playouts_just_miss_counts_as_made_for_the_expert_only() -> None:
    """The bidding's greedy playouts: with ``bid_edge`` 3, a playout that leaves the
    bidder up to 3 points short of its bid counts as the bid made (scored as the bid);
    nothing else changes, and the strong bot keeps ``bid_edge`` 0."""
    assert bots.StrongBot().bid_edge == 0 and bots.ExpertBot().bid_edge == 3
    lowest = rules.lowest_bid(4)
    changed = 0
    for seed in range(5):
        view = State.shuffled(4, 3, random.Random(seed)).observation(0)
        plain, plain_pass = bots.StrongBot().bid_values(view, random.Random(seed))
        bold, bold_pass = bots.StrongBot(bid_edge=3).bid_values(view, random.Random(seed))
        assert bold_pass == plain_pass
        for bold_suit, plain_suit in zip(bold, plain, strict=True):
            for made, missed in zip(bold_suit, plain_suit, strict=True):
                if made != missed:
                    changed += 1
                    assert missed[0] == 0 and made[0] == lowest and made[1:] == missed[1:]
    assert changed > 0


@pytest.mark.slow  # a long run of the bot's play; the default suite stays under 2 minutes
def test_the_call_model_explains_strong_calls_better_than_greedy_count() -> None:
    """On fresh deals (not those it was fitted to): the model's likelier call agrees
    with the strong bot's call more often than greedy's count does."""
    strong = bots.StrongBot()
    by_model = by_count = calls = 0
    for index in range(10_000, 10_040):
        rng = random.Random(index)
        state = State.shuffled(4, index % 4, rng)
        while state.info.phase == BIDDING:
            info = state.info
            view = state.observation(info.cur)
            amount = bots._lowest_bid(info)
            action = strong.decide(view, rng)
            if amount is not None:
                bid = action != PASS
                calls += 1
                by_model += (bots.bid_chance(view.hand, 4, amount, info.high > 0) > 0.5) == bid
                by_count += (bots.estimate_bid_points(view.hand, 4)[0] >= amount) == bid
            state.apply(action)
    assert calls > 100
    assert by_model > by_count + calls // 10, (by_model, by_count, calls)


def test_the_expert_bidding_deals_hands_that_explain_the_calls() -> None:
    """After another player bid, the expert's sampled deals give that player a hand the
    strong bot would more likely bid with than an unconditioned deal does; the strong
    bot's own sampling (greedy's count) is unchanged by the model."""
    state = State.shuffled(4, 3, random.Random(11))
    state.apply(BID0 + 6)  # seat 0 bids 6
    view = state.observation(1)
    hand = list(view.hand)
    unseen = [c for c in range(25) if c not in hand]
    calls = [bots.Call(0, 6, True, False)]
    expert = bots.ExpertBot()
    rng = random.Random(2)
    read = [bots.bid_chance(expert._bidding_deal(hand, unseen, 1, 4, calls, rng)[0][0], 4, 6,
                            False) for _ in range(200)]
    blind = [bots.bid_chance(bots._deal_unseen(hand, unseen, 1, 4, rng)[0][0], 4, 6, False)
             for _ in range(200)]
    assert sum(read) / 200 > sum(blind) / 200 + 0.05, (sum(read), sum(blind))


@pytest.mark.parametrize("game", ["one-card", "least-score"])
def test_every_deal_of_a_game_shows_the_totals_before_it(game: str) -> None:
    seats = [match.Seat("Ann", "greedy"), match.Seat("Bob", "greedy"),
             match.Seat("Cy", "random")]
    session = match.start_game(game, seats, 11, options={"target": 10} if game == "one-card"
                               else {"limit": 25})
    seen: list[tuple[tuple[int, ...] | None, tuple[int, ...]]] = []
    while not session.finished:
        standings = session.standings
        expected = tuple(standings.totals[name] for name in standings.still_in)

        def check(deal: DealState, expected: tuple[int, ...] = expected) -> None:
            player = deal.current_player
            assert player is not None
            game_score = deal.view(player).game
            seen.append((None if game_score is None else game_score.totals, expected))

        session = match.play_deal(session, on_start=check)
    assert len(seen) >= 2
    assert all(shown == expected for shown, expected in seen)
    assert any(sum(expected) for _, expected in seen)
