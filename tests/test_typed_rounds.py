"""Typed rounds: each game's round record reads FORMAT.md's JSON and writes it back as it
was, key for key and in order (the store's bytes and every export stay what they were)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games.hearts.table import HeartsRound, HeartsTable
from scorekeeper.games.least_score.table import LeastScoreRound, LeastScoreTable
from scorekeeper.games.one_card.table import OneCardRound, OneCardTable
from scorekeeper.games.points.table import PointsRound, PointsTable
from scorekeeper.kit.entries import EntryError, RoundError
from scorekeeper.kit.rounds import parse_rounds
from scorekeeper.registry import get_game
from scorekeeper.session import Session
from scorekeeper.summary import session_from_summary

ROOT = Path(__file__).resolve().parent.parent
STORES = sorted((ROOT / "tests" / "fixtures").glob("store_schema_*.json"))
SUMMARIES = sorted((ROOT / "sample_sessions").glob("*.json"))


def stored_sessions(path: Path) -> list[dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [document for table in data.values() for document in table.values()
            if isinstance(document, dict) and "rounds" in document]


def dumped(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@pytest.mark.parametrize("path", STORES, ids=lambda p: p.name)
def test_every_stored_round_of_the_fixtures_comes_back_byte_for_byte(path: Path) -> None:
    documents = stored_sessions(path)
    assert documents
    for document in documents:
        game = get_game(document["game"])
        for key in ("rounds", "undone"):
            typed = parse_rounds(game, document.get(key, []))
            assert dumped([r.to_json() for r in typed]) == dumped(document.get(key, []))
        session = Session.from_document(document, 1)
        again = session.to_document()
        assert dumped(again["rounds"]) == dumped(document["rounds"])


@pytest.mark.parametrize("path", SUMMARIES, ids=lambda p: p.name)
def test_every_sample_summary_round_comes_back_as_it_was(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    session = session_from_summary(data)
    assert dumped([r.to_json() for r in session.standings.rounds]) == dumped(data["rounds"])


names = st.sampled_from(["Ann", "Bob", "Cy", "Dee", "É"])
recorded = st.fixed_dictionaries({}, optional={
    "deal": st.fixed_dictionaries({"dealer": names}),
    "actions": st.lists(st.fixed_dictionaries({"player": names, "bid": st.integers(0, 9)}),
                        max_size=3),
    "note": st.text(min_size=1, max_size=8),
}).map(lambda parts: {key: parts[key] for key in ("deal", "actions", "note") if key in parts})
"""What follows a round's own keys, in the order the store writes them."""
least_score_rounds = st.builds(
    lambda declarer, totals, cards, extra: {
        "declarer": declarer, "totals": totals,
        **({"hands": {"Ann": ["AH", "2S"]}} if cards and "Ann" in totals else {}), **extra},
    names, st.dictionaries(names, st.integers(1, 50), min_size=1).map(
        lambda totals: totals | {"Ann": 3} if "Ann" in totals else totals),
    st.just(True) | st.just(False), recorded)
one_card_rounds = st.builds(
    lambda bidder, bid, trump, points, extra: {"bidder": bidder, "bid": bid, "trump": trump,
                                               "points": points, **extra},
    st.none() | names, st.none() | st.integers(6, 15), st.none() | st.sampled_from("SHDC"),
    st.dictionaries(names, st.integers(0, 15), min_size=1), recorded)
virtual_one_card_rounds = st.builds(lambda dealer, data: {"dealer": dealer, **data},
                                    names, one_card_rounds)
"""A One Card deal of the virtual deck is stored as the engine records it: its dealer first."""


@given(least_score_rounds)
def test_a_least_score_round_round_trips(data: dict[str, Any]) -> None:
    round_ = LeastScoreRound.from_json(data)
    assert dumped(round_.to_json()) == dumped(data)
    assert LeastScoreRound.from_json(round_.to_json()) == round_
    assert LeastScoreTable().round_from_json(data) == round_


@given(one_card_rounds | virtual_one_card_rounds)
def test_a_one_card_round_round_trips(data: dict[str, Any]) -> None:
    round_ = OneCardRound.from_json(data)
    assert dumped(round_.to_json()) == dumped(data)
    assert OneCardRound.from_json(round_.to_json()) == round_
    assert OneCardTable().round_from_json(data) == round_


@given(one_card_rounds, st.dictionaries(names, names))
def test_renaming_a_round_renames_every_player_in_it(data: dict[str, Any],
                                                     names_: dict[str, str]) -> None:
    round_ = OneCardRound.from_json(data)
    renamed = round_.renamed(names_)
    assert list(renamed.points) == list({names_.get(name, name): 0 for name in round_.points})
    if round_.bidder is not None:
        assert renamed.bidder == names_.get(round_.bidder, round_.bidder)
    if round_.recorded is not None and isinstance(round_.recorded.deal, dict):
        dealer = round_.recorded.dealer
        assert renamed.recorded is not None and renamed.recorded.dealer == names_.get(dealer,
                                                                                      dealer)


@pytest.mark.parametrize(("data", "message"), [
    ({"declarer": 5, "totals": {"Ann": 3}}, "needs 'declarer' and 'totals'"),
    ({"declarer": "Ann", "totals": [3]}, "the round has no hand totals"),
    ({"declarer": "Ann", "totals": {"Ann": "3"}}, "Ann's total 3 is impossible"),
    ({"declarer": "Ann", "totals": {"Ann": 3}, "note": 7}, "a round's note must be text"),
])
def test_a_stored_round_of_the_wrong_shape_is_refused_with_its_number(
        data: dict[str, Any], message: str) -> None:
    good = {"declarer": "Ann", "totals": {"Ann": 3}}
    with pytest.raises(RoundError) as info:
        parse_rounds(LeastScoreTable(), [good, data])
    assert info.value.number == 2 and message in info.value.reason
    with pytest.raises(EntryError):
        LeastScoreRound.from_json(data)


points_rounds = st.builds(lambda points, extra: {"points": points, **extra},
                          st.dictionaries(names, st.integers(-500, 500), min_size=1), recorded)
moon_rounds = st.builds(
    lambda shooter, jack, extra: {"moon": shooter, **({"jack": jack} if jack else {}), **extra},
    names, st.none() | names, recorded)


@given(points_rounds)
def test_a_points_round_round_trips(data: dict[str, Any]) -> None:
    round_ = PointsRound.from_json(data)
    assert dumped(round_.to_json()) == dumped(data)
    assert PointsRound.from_json(round_.to_json()) == round_
    assert PointsTable().round_from_json(data) == round_


@given(points_rounds | moon_rounds)
def test_a_hearts_round_round_trips(data: dict[str, Any]) -> None:
    round_ = HeartsRound.from_json(data)
    assert dumped(round_.to_json()) == dumped(data)
    assert HeartsRound.from_json(round_.to_json()) == round_
    assert HeartsTable().round_from_json(data) == round_
    assert round_.moon == data.get("moon") and round_.jack == data.get("jack")


@given(moon_rounds, st.dictionaries(names, names))
def test_renaming_a_hearts_round_renames_the_shooter_and_the_jack(
        data: dict[str, Any], names_: dict[str, str]) -> None:
    renamed = HeartsRound.from_json(data).renamed(names_)
    assert renamed.moon == names_.get(data["moon"], data["moon"])
    if "jack" in data:
        assert renamed.jack == names_.get(data["jack"], data["jack"])


def test_a_hearts_deal_is_scored_and_read_back_from_its_summary() -> None:
    table = HeartsTable()
    options = table.parse_options({"jack_of_diamonds": "on"})
    four = ["Ann", "Bob", "Cy", "Dan"]
    stored = [{"points": {"Bob": 3, "Ann": 13, "Cy": 10, "Dan": -10}, "note": "late"},
              {"moon": "Ann", "jack": "Bob"}]
    standings = table.standings(four, options, "Ann", parse_rounds(table, stored))
    summaries = [summary.to_json() for summary in standings.rounds]
    assert dumped(summaries) == dumped([
        {"number": 1, "dealer": "Ann", "points": {"Ann": 13, "Bob": 3, "Cy": 10, "Dan": -10},
         "scores": {"Ann": 13, "Bob": 3, "Cy": 10, "Dan": -10}, "moon": None,
         "best": ["Dan"], "knocked_out": [], "note": "late"},
        {"number": 2, "dealer": "Bob", "points": {"Ann": 0, "Bob": 16, "Cy": 26, "Dan": 26},
         "scores": {"Ann": 0, "Bob": 16, "Cy": 26, "Dan": 26}, "moon": "Ann", "jack": "Bob",
         "best": ["Ann"], "knocked_out": []}])
    assert [table.round_from_summary(summary) for summary in summaries] == [
        HeartsRound(points={"Ann": 13, "Bob": 3, "Cy": 10, "Dan": -10}, note="late"),
        HeartsRound(moon="Ann", jack="Bob")]
    assert standings.rounds[1].tallies()["Ann"] == {"deals": 1, "points": 0,
                                                    "best_deals": 1, "moons": 1}
    assert standings.rounds[1].caption().marked == "Ann"


@pytest.mark.parametrize(("data", "message"), [
    ({"points": [3]}, "the deal has no points"),
    ({"points": {"Ann": "3"}}, "Ann's points must be a whole number"),
    ({"points": {"Ann": True}}, "Ann's points must be a whole number"),
    ({"moon": 5}, "'moon' must be a player's name"),
    ({"moon": "Ann", "jack": ["Bob"]}, "'jack' must be a player's name"),
    ({"moon": "Ann", "points": {"Ann": 26}}, "a moon deal has no points of its own"),
])
def test_a_stored_hearts_round_of_the_wrong_shape_is_refused_with_its_number(
        data: dict[str, Any], message: str) -> None:
    with pytest.raises(RoundError) as info:
        parse_rounds(HeartsTable(), [{"moon": "Ann"}, data])
    assert info.value.number == 2 and message in info.value.reason
