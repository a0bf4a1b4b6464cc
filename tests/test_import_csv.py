"""`score import FILE.csv --game GAME` (issue 39.4): past deals from a spreadsheet, every row
checked by the rules as if typed with `add-round`; a refused row names its line and column
and nothing is written; `export --format csv` of a session imports back to the same
session, for every game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI, Refuse, players_args

NIGHT = """Ann,Bob,Cy,declarer,dealer,note
3,10,20,Ann,Ann,first of the night
"AH,3S",2C,KD,Bob,,
5,1,7,Bob,Cy,
"""


def write(tmp_path: Path, text: str, name: str = "night.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_spreadsheet_of_past_deals(ok: CLI, summary: Any, tmp_path: Path) -> None:
    done = ok("import", write(tmp_path, NIGHT), "--game", "least-score", "--limit", "30",
              "--name", "Old Friday")
    assert "as session 1 (Old Friday, 3 rounds)" in " ".join(done.stdout.split())
    night = summary()
    assert night["game"] == "least-score" and night["options"]["limit"] == 30
    assert night["players"] == ["Ann", "Bob", "Cy"] and night["first_dealer"] == "Ann"
    assert [r["declarer"] for r in night["rounds"]] == ["Ann", "Bob", "Bob"]
    assert night["rounds"][0]["note"] == "first of the night"
    assert night["rounds"][1]["hands"]["Ann"] == ["AH", "3S"]  # cards as typed
    assert night["totals"] == {"Ann": 6, "Bob": 7, "Cy": 31}
    assert ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=9").exit_code == 0  # plays on


def test_the_dealer_option_wins_over_the_column(ok: CLI, summary: Any,
                                                tmp_path: Path) -> None:
    text = "Ann,Bob,declarer\n3,10,Ann\n"
    ok("import", write(tmp_path, text), "--game", "least-score", "--dealer", "Bob")
    assert summary()["first_dealer"] == "Bob"


GAMES: dict[str, tuple[tuple[str, ...], list[tuple[str, ...]]]] = {
    "least-score": (("--limit", "30", "--dealer", "Ann"), [
        ("--declarer", "Ann", "Ann=AH,9S", "Bob=KD,6C", "Cy=7H,QS"),
        ("--declarer", "Bob", "Ann=10", "Bob=8", "Cy=15", "--note", "=SUM(A1)"),
        ("--declarer", "Cy", "Ann=20", "Bob=30", "Cy=9")]),
    "yaniv": (("--dealer", "Cy"), [
        ("--declarer", "Ann", "Ann=3", "Bob=20", "Cy=11"),
        ("--declarer", "Bob", "Ann=2", "Bob=7", "Cy=30")]),
    "one-card": (("--dealer", "Ann",), [
        ("--bidder", "Ann", "--bid", "8", "--trump", "S", "Ann=10", "Bob=4", "Cy=1"),
        ("--no-bid", "Ann=5", "Bob=5", "Cy=5")]),
    "hearts": (("--jack-of-diamonds", "on", "--dealer", "Ann"), [
        ("--moon", "Ann", "--jack", "Bob"),
        ("Ann=3", "Bob=-10", "Cy=20", "Dan=3")]),
    "oh-hell": (("--most-cards", "3", "--dealer", "Cy"), [
        ("Ann=2/2", "Bob=1/1", "Cy=1/0"), ("Ann=0/0", "Bob=1/1", "Cy=0/1")]),
    "points": (("--wins", "low", "--dealer", "Bob"), [
        ("Ann=-4", "Bob=12", "Cy=0"), ("Ann=7", "Bob=1", "Cy=3")]),
}


def played(ok: CLI, game: str) -> tuple[str, ...]:
    house_rules, deals = GAMES[game]
    names = ("Ann", "Bob", "Cy", "Dan") if game == "hearts" else ("Ann", "Bob", "Cy")
    ok("new", game, *players_args(*names), *house_rules)
    for deal in deals:
        ok("add-round", *deal)
    return tuple(rule for rule in house_rules if rule not in names)


def comparable(summary: dict[str, Any]) -> dict[str, Any]:
    """The night itself: not the store's id, its name or when it was typed in."""
    kept = {key: value for key, value in summary.items()
            if key not in ("id", "name", "created", "history", "updated", "played_from",
                           "played_to", "duration_seconds")}
    kept["rounds"] = [{key: value for key, value in r.items() if key not in ("time",)}
                      for r in summary["rounds"]]
    return kept


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("language", ["en", "da"])
def test_an_export_imports_back_to_the_same_session(ok: CLI, cli: CLI, summary: Any,
                                                   tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   game: str, language: str) -> None:
    house_rules = played(ok, game)
    monkeypatch.setenv("SCOREKEEPER_LANG", language)
    exported = ok("export", "--format", "csv").stdout
    path = write(tmp_path, exported)
    rules = [rule for index, rule in enumerate(house_rules)
             if rule != "--dealer" and (index == 0 or house_rules[index - 1] != "--dealer")]
    refused = cli("import", path, "--game", game, *rules)  # the same night: counted once
    assert refused.exit_code == 1 and "session 1" in refused.stderr and "--again" in (
        refused.stderr)
    ok("import", path, "--game", game, *rules, "--again")
    assert comparable(summary(2)) == comparable(summary(1))
    assert ok("export", "2", "--format", "csv").stdout == exported


def refused_import(refuse: Refuse, tmp_path: Path, text: str, *args: str, code: int = 1,
                   says: str | tuple[str, ...] = ()) -> None:
    refuse("import", write(tmp_path, text), *args, code=code, says=says)


@pytest.mark.parametrize(("text", "says"), [
    ("Ann,Bob,Cy,declarer\n3,10,20,Ann\n3,10,20,Nobody\n",
     ("night.csv: line 3, column 'declarer':", "nothing was imported")),
    ("Ann,Bob,Cy,declarer\n3,10,20,Ann\n3,x,20,Bob\n", "line 3, column 'Bob':"),
    ("Ann,Bob,Cy,declarer\n3,10,20,Ann\n3,,20,Bob\n", "line 3"),
    ("Ann,Bob,ann\n1,2,3\n", "line 1, column 'ann': Ann has two columns"),
    ("Ann,Bob,declarer,dealer\n3,10,Ann,Ann\n3,10,Ann,Ann\n",
     "line 3, column 'dealer': Bob deals this deal by the rotation, not Ann"),
    ("Ann,Bob,declarer,Ann total\n3,10,Ann,5\n", "line 2, column 'Ann total': the rules "
                                                 "make it 0, not 5"),
    ("", "the file is empty"),
    ("Ann,Bob,declarer\n", "a header but no deal"),
    ("Ann,Bob,declarer\n3,10,Ann,9\n", "line 2: 4 cells, but the header has 3"),
    ("Ann,Bob,declarer,joined or left before\n3,10,Ann,Cy joins\n",
     "line 2, column 'joined or left before': 'Cy joins' is not a change of players"),
    ("Ann,Bob,declarer,joined or left before\n3,10,Ann,Bob came back\n",
     "line 2, column 'joined or left before': Bob is already a player"),
])
def test_a_refused_row_names_its_line_and_column(ok: CLI, refuse: Refuse, tmp_path: Path,
                                                 text: str, says: str | tuple[str, ...]
                                                 ) -> None:
    ok("new", "points", *players_args("Zed", "Yan"))  # the store holds something already
    refused_import(refuse, tmp_path, text, "--game", "least-score", says=says)
    assert [s["game"] for s in json.loads(ok("sessions", "--json").stdout)["sessions"]] == [
        "points"]


def test_one_card_bid_must_be_a_number(refuse: Refuse, tmp_path: Path) -> None:
    refused_import(refuse, tmp_path, "Ann,Bob,Cy,bidder,bid\n10,4,1,Ann,eight\n",
                   "--game", "one-card", says="line 2, column 'bid': 'eight' is not a whole")


@pytest.mark.parametrize(("args", "says"), [
    (("--game", "kasino"), "kasino"),
    (("--game", "one-card", "--limit", "30"), "--limit is a"),
    (("--limit", "30"), "go with --game GAME"),
    ((), "a CSV file needs --game GAME"),
])
def test_a_malformed_command_line_exits_2(refuse: Refuse, tmp_path: Path,
                                          args: tuple[str, ...], says: str) -> None:
    refused_import(refuse, tmp_path, NIGHT, *args, code=2, says=says)
