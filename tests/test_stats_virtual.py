"""Bots are not people (issue 28, point 2).

A store of two table nights and three games on the virtual deck. By default `score
stats`, `score players` and the head-to-head count the table nights and their people
only; `score stats --virtual` adds the virtual games, with each bot's seat listed as a
bot, apart from the people and never ranked among them. Every expected figure below is
counted by hand from the rounds written here.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI

from scorekeeper import match
from scorekeeper.kit.entries import RoundEntry
from scorekeeper.session import Session
from scorekeeper.stats import StatsQuery, compute
from scorekeeper.store import Store


def least(declarer: str, **totals: int) -> RoundEntry:
    return RoundEntry(values=tuple((k, str(v)) for k, v in totals.items()), declarer=declarer)


def one_card(bidder: str | None, bid: int | None, **points: int) -> RoundEntry:
    return RoundEntry(values=tuple((k, str(v)) for k, v in points.items()), bidder=bidder,
                      bid=bid, no_bid=bidder is None)


def virtual(humans: Sequence[str], bots: Sequence[str], entry: RoundEntry) -> Session:
    seats = match.make_seats(humans, bots)
    return match.start_game("least-score", seats, 1, options={"limit": 10}).add_round(entry)


def nights() -> list[Session]:
    """1 (table, Least Score): Ann declares 3; Bob (20) and Cy (15) go out: Ann wins.
    2 (table, One Card to 10): Bob 11, Ann 4: Bob wins.
    3 (virtual): Strong-2 declares 1; Ann (20) and Greedy-3 (30) go out: Strong-2 wins.
    4 (virtual, bots only): Random-1 declares 2; Random-2 (40) goes out: Random-1 wins.
    5 (virtual): Ann declares 1; Dee (12) and Strong-3 (15) go out: Ann wins."""
    s1 = Session.new("least-score", ["Ann", "Bob", "Cy"], options={"limit": 10}).add_round(
        least("Ann", Ann=3, Bob=20, Cy=15))
    s2 = Session.new("one-card", ["Ann", "Bob"], options={"target": 10}).add_round(
        one_card("Bob", 9, Ann=4, Bob=11))
    s3 = virtual(["Ann"], ["strong", "greedy"], least("Strong-2", **{
        "Strong-2": 1, "Ann": 20, "Greedy-3": 30}))
    s4 = virtual([], ["random", "random"], least("Random-1", **{
        "Random-1": 2, "Random-2": 40}))
    s5 = virtual(["Ann", "Dee"], ["strong"], least("Ann", **{
        "Ann": 1, "Dee": 12, "Strong-3": 15}))
    return [s1, s2, s3, s4, s5]


@pytest.fixture
def store(db_path: Path) -> None:
    with Store(db_path).write() as view:
        for session in nights():
            view.add(session)


def record(entries: list[dict[str, Any]]) -> dict[str, tuple[int, float]]:
    return {entry["name"]: (entry["games"], entry["wins"]) for entry in entries}


def test_by_default_only_table_nights_and_people_count(store: None, ok: CLI) -> None:
    data = ok("stats", "--json").json()
    assert data["sessions"] == {"finished": 2, "abandoned": 0, "unfinished": 0}
    assert data["virtual_left_out"] == 3 and data["query"]["virtual"] is False
    assert record(data["players"]) == {"Ann": (2, 1), "Bob": (2, 1), "Cy": (1, 0)}
    assert data["bots"] == [] and data["across_games"]["bots"] == []
    assert [r["name"] for r in data["across_games"]["players"]] == ["Ann", "Bob", "Cy"]
    assert data["head_to_head"] == {
        "Ann": {"Bob": {"ahead": 1, "met": 2}, "Cy": {"ahead": 1, "met": 1}},
        "Bob": {"Ann": {"ahead": 1, "met": 2}, "Cy": {"ahead": 0, "met": 1}},
        "Cy": {"Ann": {"ahead": 0, "met": 1}, "Bob": {"ahead": 0, "met": 1}}}
    assert data["games"]["least-score"]["sessions"] == 1
    assert set(data["games"]["least-score"]["ratings"]) == {"Ann", "Bob", "Cy"}
    shown = ok("stats", "--vs").stdout
    assert "3 virtual games not counted (--virtual adds them)" in shown
    for bot in ("Strong", "Greedy", "Random", "Dee", "Bots"):
        assert bot not in shown
    listed = ok("players", "--json").json()
    assert [p["name"] for p in listed] == ["Ann", "Bob", "Cy"]  # Ann and Bob last at 2
    assert {p["name"]: p["sessions"] for p in listed} == {"Ann": [1, 2], "Bob": [1, 2],
                                                          "Cy": [1]}


def test_virtual_adds_the_games_with_bots_apart(store: None, ok: CLI) -> None:
    data = ok("stats", "--virtual", "--json").json()
    assert data["sessions"] == {"finished": 5, "abandoned": 0, "unfinished": 0}
    assert data["virtual_left_out"] == 0 and data["query"]["virtual"] is True
    # the people, ranked among themselves only: Ann 2 wins of 4, Bob 1 of 2, then Cy
    # and Dee, each out second in their one game (the same place: by name)
    assert [(p["name"], p["games"], p["wins"]) for p in data["players"]] == [
        ("Ann", 4, 2), ("Bob", 2, 1), ("Cy", 1, 0), ("Dee", 1, 0)]
    # the bots, by name, each marked with its level, never among the people
    assert [(b["name"], b["bot"], b["games"], b["wins"]) for b in data["bots"]] == [
        ("Greedy-3", "greedy", 1, 0), ("Random-1", "random", 1, 1),
        ("Random-2", "random", 1, 0), ("Strong-2", "strong", 1, 1),
        ("Strong-3", "strong", 1, 0)]
    least_score = data["games"]["least-score"]
    assert least_score["sessions"] == 4
    assert set(least_score["ratings"]) == {"Ann", "Bob", "Cy", "Dee"}
    assert set(least_score["bot_ratings"]) == {"Greedy-3", "Random-1", "Random-2",
                                               "Strong-2", "Strong-3"}
    assert set(data["head_to_head"]) == {"Ann", "Bob", "Cy", "Dee"}  # bots: columns only
    assert data["head_to_head"]["Ann"]["Strong-2"] == {"ahead": 0, "met": 1}
    assert data["head_to_head"]["Ann"]["Strong-3"] == {"ahead": 1, "met": 1}
    assert data["head_to_head"]["Ann"]["Bob"] == {"ahead": 1, "met": 2}
    # the record across games: the people, then the bots apart (each with its level)
    across = data["across_games"]
    assert [(r["name"], r["played"], r["wins"]) for r in across["players"]] == [
        ("Ann", 4, 2), ("Bob", 2, 1), ("Cy", 1, 0), ("Dee", 1, 0)]
    assert [(r["name"], r["bot"], r["played"], r["wins"]) for r in across["bots"]] == [
        (b["name"], b["bot"], b["games"], b["wins"]) for b in data["bots"]]
    shown = ok("stats", "--virtual", "--vs").stdout
    assert "Bots" in shown and "never ranked among the people" in shown
    assert "Strong-2 (bot)" in shown  # in the game's table and the head to head
    across = shown[shown.index("Across games"):]
    assert "Strong-2 (bot)" in across[:across.index("Played: every session")]
    people = shown[shown.index("Players"):shown.index("Bots")]
    assert "Strong" not in people and "Random" not in people
    listed = ok("players", "--virtual", "--json").json()
    assert {p["name"]: p["bot"] for p in listed} == {
        "Ann": None, "Bob": None, "Cy": None, "Dee": None, "Strong-2": "strong",
        "Greedy-3": "greedy", "Random-1": "random", "Random-2": "random",
        "Strong-3": "strong"}
    assert "Strong-3 (bot)" in ok("players", "--virtual").stdout


def test_a_person_named_like_a_bot_is_never_the_bot() -> None:
    sessions = [Session.new("least-score", ["Strong-2", "Bob"], options={"limit": 10})
                .add_round(least("Strong-2", **{"Strong-2": 1, "Bob": 20})),
                virtual(["Bob"], ["strong"], least("Bob", **{"Bob": 1, "Strong-2": 20}))]
    stats = compute(sessions, StatsQuery(virtual=True))
    # one win each; the person Strong-2 placed first in their one game, Bob 2nd and 1st
    assert [(p.name, p.games, p.wins) for p in stats.players] == [("Strong-2", 1, 1),
                                                                  ("Bob", 2, 1)]
    assert [(b.name, b.bot, b.games, b.wins) for b in stats.bots] == [
        ("Strong-2", "strong", 1, 0)]
