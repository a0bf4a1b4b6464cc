"""Hearts takes exactly the deals a deal of real cards can give: property tests against
tests/rules_model.py, which deals the 52 cards, plays the tricks out (or gives the
penalty cards every way) and scores them apart from the program's code."""

from __future__ import annotations

from typing import Any

import pytest
from examples_budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from rules_model import (
    hearts_deck,
    hearts_near_deals,
    hearts_outcome,
    hearts_play,
    hearts_reachable,
    hearts_ways,
)

from scorekeeper.games.hearts import rules
from scorekeeper.games.hearts.table import HeartsTable
from scorekeeper.kit.entries import EntryError, RoundEntry
from scorekeeper.kit.rounds import parse_rounds

HEARTS = HeartsTable()
reachable = hearts_reachable  # cached in rules_model, for every module of a worker


def names(count: int) -> list[str]:
    return [f"P{index}" for index in range(count)]


def enter(players: list[str], jack_on: bool, **fields: Any) -> dict[str, Any]:
    """A deal entered at the table (HeartsTable.make_round): its stored form."""
    options = HEARTS.parse_options({"jack_of_diamonds": "on" if jack_on else "off"})
    standings = HEARTS.standings(players, options, players[0], parse_rounds(HEARTS, []))
    points = fields.pop("points", {})
    typed = RoundEntry(tuple((name, str(value)) for name, value in points.items()),
                       **fields)
    return HEARTS.make_round(players, options, standings, typed).to_json()


@st.composite
def played_deals(draw: st.DrawFn) -> tuple[int, bool, list[list[str]]]:
    count = draw(st.integers(3, 6))
    jack_on = draw(st.booleans())
    order = draw(st.permutations(range(len(hearts_deck(count)))))
    return count, jack_on, hearts_play(count, order)


@given(played_deals())
@settings(max_examples=examples(150), deadline=None)
def test_every_deal_played_out_is_taken(case: tuple[int, bool, list[list[str]]]) -> None:
    count, jack_on, taken = case
    players = names(count)
    moon, found = hearts_outcome(taken, jack_on)
    if moon is not None:
        shooter, jack = moon
        stored = enter(players, jack_on, moon=players[shooter],
                       jack=None if jack is None else players[jack])
        assert stored["moon"] == players[shooter]
        return
    points = dict(zip(players, found, strict=True))
    assert rules.problem(points, jack_on) is None
    assert enter(players, jack_on, points=points)["points"] == points


@given(hearts_near_deals(nudge_one_in=6))
@settings(max_examples=examples(300), deadline=None)
def test_a_deal_is_refused_exactly_when_no_deal_of_cards_gives_it(
        case: tuple[tuple[int, ...], bool]) -> None:
    values, jack_on = case
    players = names(len(values))
    points = dict(zip(players, values, strict=True))
    possible = values in reachable(len(values), jack_on)
    assert (rules.problem(points, jack_on) is None) is possible
    if possible:
        witness = rules.taken(points, jack_on)
        assert witness is not None and witness.points() == points and not witness.moon
        assert enter(players, jack_on, points=points)["points"] == points
    else:
        with pytest.raises(EntryError) as refused:
            enter(players, jack_on, points=points)
        assert "\n" not in str(refused.value)


@pytest.mark.parametrize(("count", "jack_on"),
                         [(3, False), (3, True), (4, False), (4, True), (5, False)])
def test_the_reachable_points_are_those_of_every_way_of_giving_the_cards(
        count: int, jack_on: bool) -> None:
    """rules_model takes the ways with the hearts' counts going down, then every order of
    their points: the same as every way, scored one by one."""
    every_way: set[tuple[int, ...]] = set()
    for taken in hearts_ways(count, jack_on):
        moon, points = hearts_outcome(taken, jack_on)
        if moon is None:
            every_way.add(points)
    assert hearts_reachable(count, jack_on) == every_way


def test_the_issues_deal_is_refused_naming_the_queen() -> None:
    with pytest.raises(EntryError, match="Q♠"):
        enter(names(4), False, points={"P0": 12, "P1": 12, "P2": 1, "P3": 1})


def test_the_passing_goes_left_right_across_hold_with_four() -> None:
    assert [rules.passing(deal, 4).value for deal in range(1, 6)] == [
        "left", "right", "across", "hold", "left"]
    assert [rules.passing(deal, 3).value for deal in range(1, 5)] == [
        "left", "right", "hold", "left"]
