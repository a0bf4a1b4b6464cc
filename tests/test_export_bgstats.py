"""`score export --format bgstats` (issue 39.3): a BG Stats play file of one session or of
every finished table session, with each player's score, winner, rank, seat and start
player; Least Score, Yaniv and Hearts as lowest-wins games."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import CLI, ESCAPE, Refuse, players_args

from scorekeeper import match
from scorekeeper.store import Store


def a_night(ok: CLI) -> None:
    """1: Least Score, Cy wins; 2: One Card, unfinished; 3: Hearts, Bob wins;
    4: Points to the lowest total, Ann wins."""
    ok("new", "least-score", *players_args("Ann", "Bob", "Cy"), "--dealer", "Ann",
       "--limit", "30", "--name", "Friday", "--note", "at Ann's")
    ok("add-round", "--declarer", "Ann", "Ann=3", "Bob=10", "Cy=20")
    ok("add-round", "--declarer", "Cy", "Ann=32", "Bob=31", "Cy=1")  # Ann, Bob out
    ok("new", "one-card", *players_args("Ann", "Bob", "Cy"), "--dealer", "Bob")
    ok("new", "hearts", *players_args("ann", "Bob", "Cy", "Dan"), "--dealer", "Dan",
       "--target", "20")
    ok("add-round", "ann=13", "Bob=0", "Cy=10", "Dan=3")
    ok("add-round", "ann=10", "Bob=2", "Cy=13", "Dan=1")  # ann 23: over; Bob lowest
    ok("new", "points", *players_args("Ann", "Eve"), "--wins", "low", "--rounds", "1",
       "--dealer", "Eve")
    ok("add-round", "Ann=4", "Eve=9")


def play_file(ok: CLI, *args: str) -> dict[str, Any]:
    result = ok("export", *args, "--format", "bgstats")
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def scores(data: dict[str, Any], play: dict[str, Any]) -> dict[str, dict[str, Any]]:
    names = {player["id"]: player["name"] for player in data["players"]}
    return {names[score["playerRefId"]]: score for score in play["playerScores"]}


def test_every_finished_table_session_in_one_file(ok: CLI) -> None:
    a_night(ok)
    data = play_file(ok, "--all")
    assert set(data) == {"about", "players", "locations", "games", "plays"}
    assert "Board Game Stats" in data["about"]
    # the unfinished One Card night is left out; ann and Ann are one player
    assert [play["rounds"] for play in data["plays"]] == [2, 2, 1]
    assert [player["name"] for player in data["players"]] == ["Ann", "Bob", "Cy", "Dan", "Eve"]
    assert len({player["uuid"] for player in data["players"]}) == 5
    games = {game["id"]: game for game in data["games"]}
    assert [(game["name"], game["highestWins"]) for game in data["games"]] == [
        ("Least Score", False), ("Hearts", False), ("Points", False)]
    least, hearts, points = data["plays"]
    assert games[least["gameRefId"]]["name"] == "Least Score"
    assert least["comments"] == "Friday\nat Ann's" and least["manualWinner"] is True
    assert least["playDate"][:4].isdigit() and len(least["playDate"]) == 19
    first = scores(data, least)
    assert {name: (s["score"], s["winner"], s["rank"], s["seatOrder"], s["startPlayer"])
            for name, s in first.items()} == {
        "Ann": ("31", False, 2, 1, True), "Bob": ("37", False, 2, 2, False),
        "Cy": ("17", True, 1, 3, False)}  # out in the same deal: a shared place
    second = scores(data, hearts)
    assert [name for name, s in second.items() if s["winner"]] == ["Bob"]
    assert second["Dan"]["startPlayer"] and second["Ann"]["score"] == "23"
    assert [name for name, s in scores(data, points).items() if s["winner"]] == ["Ann"]


def test_the_same_store_gives_the_same_file(ok: CLI) -> None:
    a_night(ok)
    assert play_file(ok, "--all") == play_file(ok, "--all")
    assert play_file(ok, "1")["plays"] == play_file(ok, "--all")["plays"][:1]


def test_one_session_even_unfinished(ok: CLI) -> None:
    a_night(ok)
    data = play_file(ok, "2")
    assert [game["name"] for game in data["games"]] == ["One Card"]
    assert data["games"][0]["highestWins"] is True
    assert not any(s["winner"] for s in data["plays"][0]["playerScores"])


def test_a_virtual_game_is_not_a_table_play(ok: CLI, db_path: Any) -> None:
    a_night(ok)
    session = match.start_game("least-score", [match.Seat("Ann"),
                                                match.Seat("Greedy-2", "greedy")], 3)
    with Store(db_path).write() as view:
        view.add(session)
    assert len(play_file(ok, "--all")["plays"]) == 3


def test_names_are_data(ok: CLI) -> None:
    ok("new", "points", *players_args("[b]Ann", "<i>Bob"), "--rounds", "1")
    ok("add-round", "[b]Ann=3", "<i>Bob=4")
    text = ok("export", "--all", "--format", "bgstats").stdout
    assert ESCAPE not in text
    assert [p["name"] for p in json.loads(text)["players"]] == ["[b]Ann", "<i>Bob"]


@pytest.mark.parametrize(("args", "code", "says"), [
    (("export", "--all"), 2, "--format bgstats"),
    (("export", "1", "--all", "--format", "bgstats"), 2, "no session id"),
    (("export", "--all", "--format", "json"), 2, "--format bgstats"),
])
def test_all_goes_with_bgstats(ok: CLI, refuse: Refuse, args: tuple[str, ...], code: int,
                               says: str) -> None:
    a_night(ok)
    refuse(*args, code=code, says=says)


def test_nothing_finished_yet(ok: CLI, refuse: Refuse) -> None:
    ok("new", "one-card", *players_args("Ann", "Bob"))
    refuse("export", "--all", "--format", "bgstats", says="no finished table session")
