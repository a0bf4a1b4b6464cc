"""One Card's ``expert`` plays for the game: each end of a deal is worth each player's
chance to win the game from the totals it leads to (``games/one_card/expert.py``)."""

from __future__ import annotations

import random

import pytest

from scorekeeper import match
from scorekeeper.games.one_card import bots, rules
from scorekeeper.games.one_card.engine import GameScore, SeatView, State
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


def test_the_expert_needing_a_few_points_bids_less_than_at_the_start() -> None:
    """The same hands, the same seat (first to call): at the start of a game the expert
    bids more often than the strong bot (leading and naming trump is worth more than its
    points); needing 3 points to win, it bids far less often (a bid it misses scores
    nothing, while a player who passes takes 3 points in most deals)."""
    expert, strong = bots.ExpertBot(iterations=50), bots.StrongBot()
    start = needing_three = by_strong = 0
    for seed in range(30):
        calm = State.shuffled(4, 3, random.Random(seed), game=GameScore((0, 0, 0, 0), 30))
        close = State.shuffled(4, 3, random.Random(seed), game=GameScore((27, 0, 0, 0), 30))
        start += expert.decide(calm.observation(0), random.Random(seed)) != bots.PASS
        needing_three += expert.decide(close.observation(0), random.Random(seed)) != bots.PASS
        by_strong += strong.decide(calm.observation(0), random.Random(seed)) != bots.PASS
    assert start > by_strong
    assert needing_three + 5 < start, (start, needing_three)


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
