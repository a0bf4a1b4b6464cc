"""The ratings ``score stats`` computes are openskill's own: scorekeeper.ratings writes out
``PlackettLuce.rate`` for teams of one, and every figure must be the very float
openskill gives, session after session (ties, newcomers, long histories)."""

from __future__ import annotations

import math

import pytest
from examples_budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce, PlackettLuceRating

from scorekeeper.kit.entries import RoundEntry
from scorekeeper.ratings import MU, SIGMA, Rating, plackett_luce, wilson_interval
from scorekeeper.session import Session
from scorekeeper.stats import compute

PEOPLE = [f"p{number}" for number in range(8)]

# a session: who sat (2 to 6 of the people, in seat order) and each one's place (ties
# allowed; places as a game gives them: 1 best, not necessarily dense)
sessions = st.lists(
    st.lists(st.sampled_from(PEOPLE), min_size=2, max_size=6, unique=True).flatmap(
        lambda seated: st.tuples(st.just(seated), st.lists(
            st.integers(1, len(seated)), min_size=len(seated), max_size=len(seated)))),
    min_size=1, max_size=60)


def same(ours: Rating, theirs: PlackettLuceRating) -> bool:
    return ours[0] == theirs.mu and ours[1] == theirs.sigma


@settings(max_examples=examples(200), deadline=None)
@given(sessions)
def test_every_rating_is_the_very_float_openskill_gives(played: list[tuple[list[str],
                                                                           list[int]]]) -> None:
    model = PlackettLuce()
    theirs: dict[str, PlackettLuceRating] = {}
    ours: dict[str, Rating] = {}
    for seated, places in played:
        new = model.rate([[theirs.get(name) or model.rating()] for name in seated],
                         ranks=[float(place) for place in places])
        mine = plackett_luce([ours.get(name, (MU, SIGMA)) for name in seated], places)
        for name, (rating,), rated in zip(seated, new, mine, strict=True):
            assert same(rated, rating), (name, rated, (rating.mu, rating.sigma))
            theirs[name], ours[name] = rating, rated


def test_a_newcomer_is_openskills_newcomer() -> None:
    newcomer = PlackettLuce().rating()
    assert (newcomer.mu, newcomer.sigma) == (MU, SIGMA)


@pytest.mark.parametrize("places", [[1, 2], [2, 1], [1, 1], [1, 1, 1, 1], [3, 1, 2, 1],
                                    [1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1]])
def test_fixed_sessions_from_established_ratings(places: list[int]) -> None:
    start = [(31.5 - 3 * index, 2.0 + index / 2) for index in range(len(places))]
    model = PlackettLuce()
    new = model.rate([[model.rating(mu=mu, sigma=sigma)] for mu, sigma in start],
                     ranks=[float(place) for place in places])
    mine = plackett_luce(start, places)
    assert all(same(rated, rating) for rated, (rating,) in zip(mine, new, strict=True))
    winner = places.index(min(places))
    if len(set(places)) > 1:  # the winner rose, and everyone is surer than before
        assert mine[winner][0] > start[winner][0]
    assert all(after[1] < before[1] + 0.1 for after, before in zip(mine, start, strict=True))


def test_one_player_is_refused_as_openskill_refuses_it() -> None:
    with pytest.raises(ValueError):
        plackett_luce([(MU, SIGMA)], [1])
    with pytest.raises(ValueError):
        PlackettLuce().rate([[PlackettLuce().rating()]], ranks=[1.0])


def test_stats_ratings_are_openskills_through_a_whole_history() -> None:
    """compute() over real sessions gives each game's ratings exactly as openskill rates
    the same sessions in the order played."""
    nights: list[tuple[list[str], list[tuple[int, ...]]]] = [
        (["Ann", "Bob", "Cy"], [(20, 30, 5), (14, 40, 25), (2, 3, 90)]),
        (["Bob", "Cy", "Dan", "Ann"], [(50, 60, 70, 5), (60, 10, 20, 30)]),
        (["Ann", "Dan"], [(80, 90), (70, 10)])]
    stored = []
    for number, (players, totals) in enumerate(nights, start=1):
        session = Session.new("points", players, options={"target": 0, "rounds": len(totals)},
                              time=f"2026-11-0{number}T20:00:00+01:00")
        for values in totals:
            session = session.add_round(RoundEntry(tuple(
                (name, str(value)) for name, value in zip(players, values, strict=True))))
        stored.append(session.with_id(number))
    game = compute(stored).games[0]
    model = PlackettLuce()
    theirs: dict[str, PlackettLuceRating] = {}
    for session in stored:
        places = session.placings()
        new = model.rate([[theirs.get(name.lower()) or model.rating()]
                          for name in session.players],
                         ranks=[float(places[name]) for name in session.players])
        for name, (rating,) in zip(session.players, new, strict=True):
            theirs[name.lower()] = rating
    assert {key: (points[-1].mu, points[-1].sigma) for key, points in game.ratings.items()} \
        == {key: (rating.mu, rating.sigma) for key, rating in theirs.items()}
    assert len(game.ratings["ann"]) == 3 and len(game.ratings["dan"]) == 2


def test_the_wilson_interval() -> None:
    low, high = wilson_interval(5, 10)
    assert low < 0.5 < high and math.isclose(low + high, 1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(10, 10)[1] == 1.0 and wilson_interval(0, 10)[0] == 0.0
