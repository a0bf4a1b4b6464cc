"""Typed rounds: each game's round record reads FORMAT.md's JSON and writes it back as it
was, key for key and in order (the store's bytes and every export stay what they were)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games.common import EntryError, RoundError, parse_rounds
from scorekeeper.games.least_score.table import LeastScoreRound, LeastScoreTable
from scorekeeper.games.one_card.table import OneCardRound, OneCardTable
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
