"""Points and Hearts: the rules' own examples, and property tests of the checks
(hypothesis) against the rules written again here, apart from the code."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rules_model import hearts_near_deals, hearts_reachable

from scorekeeper.games.hearts import rules as hearts_rules
from scorekeeper.games.hearts.rules import MoonRule
from scorekeeper.games.hearts.table import HeartsTable
from scorekeeper.games.points import rules
from scorekeeper.games.points.rules import Options, Wins
from scorekeeper.games.points.table import PointsTable
from scorekeeper.kit.entries import EntryError, RoundEntry, RoundError
from scorekeeper.kit.rounds import parse_rounds
from scorekeeper.kit.standings import Standings

reachable = hearts_reachable  # cached in rules_model, for every module of a worker
POINTS = PointsTable()
HEARTS = HeartsTable()
FOUR = ("Ann", "Bob", "Cy", "Dan")


def entry(*values: str, **fields: Any) -> RoundEntry:
    return RoundEntry(tuple(tuple(value.split("=", 1)) for value in values),  # type: ignore[misc]
                      **fields)


def start(table: PointsTable, options: Mapping[str, Any], players: Sequence[str] = FOUR,
          rounds: Sequence[dict[str, Any]] = ()) -> Standings:
    return table.standings(players, table.parse_options(table.check_options(options)),
                           players[0],
                           parse_rounds(table, rounds))


def make(table: PointsTable, options: Mapping[str, Any], *values: str,
         players: Sequence[str] = FOUR, **fields: Any) -> dict[str, Any]:
    checked = table.check_options(options)
    return table.make_round(players, table.parse_options(checked), start(table, checked, players),
                            entry(*values, **fields)).to_json()


def refused(table: PointsTable, options: Mapping[str, Any], *values: str,
            players: Sequence[str] = FOUR, **fields: Any) -> str:
    with pytest.raises(EntryError) as info:
        make(table, options, *values, players=players, **fields)
    return str(info.value)


# ---------------------------------------------------------------------------
# Points: the rules' examples (scorekeeper/games/points/rules/en.md)


def test_a_deal_is_every_players_points_negatives_allowed() -> None:
    assert make(POINTS, {}, "Ann=12", "Bob=-3", "Cy=0", players=("Ann", "Bob", "Cy")) == \
        {"points": {"Ann": 12, "Bob": -3, "Cy": 0}}


def test_with_sum_every_deal_adds_up_to_it() -> None:
    assert make(POINTS, {"sum": 0}, "Ann=30", "Bob=-10", "Cy=-20",
                players=("Ann", "Bob", "Cy"))["points"]["Ann"] == 30
    assert "add up to 10, not 0" in refused(POINTS, {"sum": 0}, "Ann=30", "Bob=-10",
                                             "Cy=-10", players=("Ann", "Bob", "Cy"))


def test_the_highest_total_wins_at_the_target_and_low_the_lowest() -> None:
    deals = [{"points": {"Ann": 60, "Bob": 40}}, {"points": {"Ann": 50, "Bob": 40}}]
    high = start(POINTS, {"target": 100}, ("Ann", "Bob"), deals)
    assert high.finished and high.winners == ["Ann"]
    low = start(POINTS, {"target": 100, "wins": "low"}, ("Ann", "Bob"), deals)
    assert low.finished and low.winners == ["Bob"]  # Ann reached it, the lowest wins
    assert not start(POINTS, {"target": 200}, ("Ann", "Bob"), deals).finished


def test_the_game_ends_after_its_deals_and_ties_share_the_win() -> None:
    deals = [{"points": {"Ann": 5, "Bob": 5}}] * 3
    over = start(POINTS, {"target": 0, "rounds": 3}, ("Ann", "Bob"), deals)
    assert over.finished and over.winners == ["Ann", "Bob"]
    with pytest.raises(RoundError, match="already over"):
        start(POINTS, {"target": 0, "rounds": 2}, ("Ann", "Bob"), deals)


def test_a_game_needs_an_end_and_settings_in_range() -> None:
    for options, says in (({"target": 0, "rounds": 0}, "needs an end"),
                          ({"target": -5}, "the target must be"),
                          ({"rounds": 5000}, "the number of deals must be"),
                          ({"wins": "middle"}, "--wins must be"),
                          ({"sum": "lots"}, "the sum must be a whole number"),
                          ({"limit": 5}, "Points has no option")):
        with pytest.raises(EntryError, match=says):
            POINTS.check_options(options)


def test_the_deal_passes_to_the_left() -> None:
    deals = [{"points": {name: 1 for name in FOUR}}] * 5
    dealers = [deal.dealer for deal in start(POINTS, {}, FOUR, deals).rounds]
    assert dealers == ["Ann", "Bob", "Cy", "Dan", "Ann"]


# ---------------------------------------------------------------------------
# Points: property tests of the checks


names = st.sampled_from(["Ann", "Bob", "Cy", "Dan", "Eve"])
whole = st.integers(min_value=-2 * rules.MAX_POINTS, max_value=2 * rules.MAX_POINTS)
deal = st.lists(st.integers(min_value=-2 * rules.MAX_POINTS,
                            max_value=2 * rules.MAX_POINTS), min_size=2, max_size=5)
sums = st.one_of(st.none(), st.integers(min_value=-100, max_value=100))


def accepted(table: PointsTable, options: Mapping[str, Any], values: Sequence[str],
             players: Sequence[str], **fields: Any) -> bool:
    try:
        make(table, options, *values, players=players, **fields)
    except EntryError:
        return False
    return True


@given(deal, sums)
def test_points_takes_a_deal_exactly_when_every_entry_is_in_range_and_the_sum_right(
        values: list[int], total: int | None) -> None:
    players = [f"P{index}" for index in range(len(values))]
    options: dict[str, Any] = {} if total is None else {"sum": total}
    typed = [f"{name}={value}" for name, value in zip(players, values, strict=True)]
    expected = all(abs(value) <= rules.MAX_POINTS for value in values) \
        and (total is None or sum(values) == total)
    assert accepted(POINTS, options, typed, players) is expected


@given(deal)
def test_points_refuses_a_player_left_out_or_entered_twice(values: list[int]) -> None:
    players = [f"P{index}" for index in range(len(values))]
    typed = [f"{name}={value % 100}" for name, value in zip(players, values, strict=True)]
    assert not accepted(POINTS, {}, typed[1:], players)
    assert not accepted(POINTS, {}, [*typed, typed[0]], players)


@given(st.lists(st.lists(st.integers(-50, 50), min_size=3, max_size=3), max_size=12),
       st.sampled_from(list(Wins)), st.integers(0, 120), st.integers(0, 8))
def test_the_standings_are_the_sum_of_the_deals_and_end_as_the_rules_say(
        deals: list[list[int]], wins: Wins, target: int, most: int) -> None:
    players = ("Ann", "Bob", "Cy")
    if not (target or most):
        return
    options = Options(wins=wins, target=target, rounds=most)
    stored = [{"points": dict(zip(players, values, strict=True))} for values in deals]
    totals = dict.fromkeys(players, 0)
    over_after = None
    for number, values in enumerate(deals, start=1):
        for name, value in zip(players, values, strict=True):
            totals[name] += value
        if (target and max(totals.values()) >= target) or (most and number >= most):
            over_after = number
            break
    if over_after is not None and over_after < len(deals):
        with pytest.raises(RoundError):
            start(POINTS, options.as_dict(), players, stored)
        return
    found = start(POINTS, options.as_dict(), players, stored)
    assert found.totals == totals
    assert found.finished is (over_after is not None)
    if found.finished:
        best = (min if wins is Wins.LOW else max)(totals.values())
        assert found.winners == [name for name in players if totals[name] == best]


# ---------------------------------------------------------------------------
# Hearts: the rules' examples (scorekeeper/games/hearts/rules/en.md)


def test_hearts_a_deal_adds_up_to_26() -> None:
    assert make(HEARTS, {}, "Ann=13", "Bob=5", "Cy=8", "Dan=0")["points"]["Ann"] == 13
    assert "add up to 27, not 26" in refused(HEARTS, {}, "Ann=13", "Bob=5", "Cy=8", "Dan=1")


def test_hearts_26_for_one_player_is_a_moon_entered_as_one() -> None:
    assert "shooting the moon" in refused(HEARTS, {}, "Ann=26", "Bob=0", "Cy=0", "Dan=0")
    assert make(HEARTS, {}, moon="ann") == {"moon": "Ann"}
    moon = start(HEARTS, {}, FOUR, [{"moon": "Ann"}]).rounds[0]
    assert moon.scores == {"Ann": 0, "Bob": 26, "Cy": 26, "Dan": 26}
    minus = start(HEARTS, {"moon_rule": "minus"}, FOUR, [{"moon": "Ann"}]).rounds[0]
    assert minus.scores == {"Ann": -26, "Bob": 0, "Cy": 0, "Dan": 0}


def test_hearts_a_moon_takes_no_points_and_jack_only_with_the_house_rule() -> None:
    assert "give no NAME=POINTS" in refused(HEARTS, {}, "Ann=0", moon="Ann")
    assert "--jack-of-diamonds off" in refused(HEARTS, {}, moon="Ann", jack="Bob")
    assert "--jack is for a moon deal" in refused(HEARTS, {}, "Ann=13", "Bob=5", "Cy=8",
                                                   "Dan=0", jack="Bob")
    jack = {"jack_of_diamonds": "on"}
    assert "--jack NAME" in refused(HEARTS, jack, moon="Ann")
    assert make(HEARTS, jack, moon="Ann", jack="bob") == {"moon": "Ann", "jack": "Bob"}
    scored = start(HEARTS, jack, FOUR, [{"moon": "Ann", "jack": "Bob"}]).rounds[0]
    assert scored.scores == {"Ann": 0, "Bob": 16, "Cy": 26, "Dan": 26}


def test_hearts_with_the_jack_a_deal_adds_up_to_16_and_one_player_is_below_0() -> None:
    jack = {"jack_of_diamonds": "on"}
    assert make(HEARTS, jack, "Ann=13", "Bob=-5", "Cy=8", "Dan=0")["points"]["Bob"] == -5
    assert "add up to 26, not 16" in refused(HEARTS, jack, "Ann=13", "Bob=5", "Cy=8", "Dan=0")
    assert "only one can take the J♦" in refused(HEARTS, jack, "Ann=-5", "Bob=-4", "Cy=25",
                                                  "Dan=0")
    assert "-10 to 25" in refused(HEARTS, jack, "Ann=-11", "Bob=25", "Cy=2", "Dan=0")


def test_hearts_ends_at_100_and_the_lowest_wins() -> None:
    deals = [{"moon": "Ann"}] * 4
    found = start(HEARTS, {}, FOUR, deals)
    assert found.finished and found.winners == ["Ann"]
    assert found.totals == {"Ann": 0, "Bob": 104, "Cy": 104, "Dan": 104}
    assert not start(HEARTS, {}, FOUR, deals[:3]).finished


def test_hearts_takes_3_to_6_players() -> None:
    for count in (2, 7):
        with pytest.raises(EntryError, match="Hearts takes 3 to 6 players"):
            HEARTS.check_players([f"P{index}" for index in range(count)])
    HEARTS.check_players(FOUR)


# ---------------------------------------------------------------------------
# Hearts: property tests of the checks, against the rules written again


def hearts_takes(values: Sequence[int], jack_on: bool) -> bool:
    """Pagat's Hearts (and Omnibus with the jack): the points some deal of real cards
    gives, a moon aside (tests/rules_model.py deals the hearts, the Q♠ and the J♦)."""
    return tuple(values) in reachable(len(values), jack_on)


penalties = st.lists(st.integers(-12, 27), min_size=3, max_size=6)


@given(st.one_of(hearts_near_deals(nudge_one_in=2), st.tuples(penalties, st.booleans())))
def test_hearts_takes_a_deal_exactly_when_the_rules_do(
        case: tuple[Sequence[int], bool]) -> None:
    values, jack_on = case
    players = [f"P{index}" for index in range(len(values))]
    typed = [f"{name}={value}" for name, value in zip(players, values, strict=True)]
    options = {"jack_of_diamonds": "on" if jack_on else "off"}
    assert accepted(HEARTS, options, typed, players) is hearts_takes(values, jack_on)
    assert (hearts_rules.problem(dict(zip(players, values, strict=True)), jack_on)
            is None) is hearts_takes(values, jack_on)


@given(st.integers(3, 6), st.data(), st.sampled_from(list(MoonRule)), st.booleans())
def test_a_moon_gives_26_to_everyone_else_or_takes_26_off(
        count: int, data: st.DataObject, rule: MoonRule, jack_on: bool) -> None:
    players = [f"P{index}" for index in range(count)]
    shooter = data.draw(st.sampled_from(players))
    jack = data.draw(st.sampled_from(players)) if jack_on else None
    scores = hearts_rules.moon_scores(players, shooter, rule, jack)
    for name in players:
        base = (0 if name == shooter else 26) if rule is MoonRule.ADD \
            else (-26 if name == shooter else 0)
        assert scores[name] == base - (10 if name == jack else 0)
