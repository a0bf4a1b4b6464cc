"""`score export` (json per FORMAT.md, md, csv, html) and `score import`."""

from __future__ import annotations

import copy
import csv
import io
import json
import re
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI, Refuse, file_bytes

TOP_LEVEL = {"format", "version", "id", "name", "game", "mode", "options", "players",
             "created", "rounds", "totals", "knocked_out", "status", "winners"}
LEAST_SCORE_ROUND = {"number", "dealer", "declarer", "totals", "scores", "false_declaration",
                     "knocked_out"}
ONE_CARD_ROUND = {"number", "dealer", "bidder", "bid", "trump", "points", "scores",
                  "bid_failed"}


@pytest.fixture
def friday(least, ok: CLI) -> None:
    """FORMAT.md's example night, played on to a knock-out and a winner."""
    least("Ann", "Bob", "Cy", extra=("--name", "Friday night", "--dealer", "Ann",
                                     "--limit", "25"))
    ok("add-round", "--declarer", "Ann", "Ann=AH,9S", "Bob=KD,6C", "Cy=7H,QS")
    ok("add-round", "--declarer", "Bob", "Ann=10", "Bob=8", "Cy=15")  # Ann 2, Cy 7
    ok("add-round", "--declarer", "Cy", "Ann=20", "Bob=30", "Cy=9")  # Ann 11, Bob 21


@pytest.fixture
def oc_game(one_card, ok: CLI) -> None:
    """FORMAT.md's One Card example, played on to a winner."""
    one_card("Ann", "Bob", "Cy", extra=("--dealer", "Ann"))
    ok("add-round", "--bidder", "Bob", "--bid", "9", "--trump", "S", "Ann=4", "Bob=8", "Cy=3")
    ok("add-round", "--no-bid", "Ann=5", "Bob=5", "Cy=5")
    ok("add-round", "--bidder", "Ann", "--bid", "15", "Ann=15", "Bob=0", "Cy=0")
    ok("add-round", "--bidder", "Ann", "--bid", "7", "Ann=10", "Bob=2", "Cy=3")


# --------------------------------------------------------------------------- json


def test_json_least_score_follows_format_md(friday, summary) -> None:
    data = summary()
    assert set(data) >= TOP_LEVEL
    assert data["format"] == "scorekeeper-session"
    assert data["version"] == 1
    assert data["id"] == 1
    assert data["name"] == "Friday night"
    assert data["game"] == "least-score"
    assert data["mode"] == "table"
    assert data["options"] == {"limit": 25, "tie": "declarer-wins", "end": "last-standing",
                               "two_pairs": "same-rank"}
    assert data["players"] == ["Ann", "Bob", "Cy"]
    created = datetime.fromisoformat(data["created"])
    assert created.tzinfo is not None
    assert data["created"] == created.isoformat(timespec="seconds")
    # the round of FORMAT.md, key for key
    assert data["rounds"][0] == {
        "number": 1, "dealer": "Ann", "declarer": "Ann",
        "totals": {"Ann": 10, "Bob": 16, "Cy": 17},
        "hands": {"Ann": ["AH", "9S"], "Bob": ["KD", "6C"], "Cy": ["7H", "QS"]},
        "scores": {"Ann": 0, "Bob": 6, "Cy": 7},
        "false_declaration": False, "knocked_out": [],
    }
    # without cards there is no "hands"
    second = data["rounds"][1]
    assert set(second) == LEAST_SCORE_ROUND
    assert second == {"number": 2, "dealer": "Bob", "declarer": "Bob",
                      "totals": {"Ann": 10, "Bob": 8, "Cy": 15},
                      "scores": {"Ann": 2, "Bob": 0, "Cy": 7},
                      "false_declaration": False, "knocked_out": []}
    third = data["rounds"][2]
    assert third["knocked_out"] == ["Bob"] and third["dealer"] == "Cy"
    assert data["totals"] == {"Ann": 2 + 11, "Bob": 6 + 21, "Cy": 7 + 7}
    assert data["knocked_out"] == ["Bob"]
    assert data["status"] == "in-progress" and data["winners"] == []


def test_json_before_any_round_has_zero_totals(least, summary) -> None:
    least("Ann", "Bob")
    data = summary()
    assert data["totals"] == {"Ann": 0, "Bob": 0}
    assert data["rounds"] == [] and data["knocked_out"] == [] and data["winners"] == []
    assert data["name"] == ""


def test_json_dealer_is_null_when_not_tracked(least, ok: CLI, summary,
                                              tmp_path: Path) -> None:
    """A session from a file that tracked no dealer (`score new` draws one at random)."""
    least("Ann", "Bob")
    ok("add-round", "--declarer", "Ann", "Ann=3", "Bob=4")
    data = summary()
    data["first_dealer"] = None
    data["rounds"][0]["dealer"] = None
    (tmp_path / "untracked.json").write_text(json.dumps(data), encoding="utf-8")
    ok("import", "--again", tmp_path / "untracked.json")
    assert summary()["rounds"][0]["dealer"] is None and summary()["first_dealer"] is None


def test_json_one_card_follows_format_md(oc_game, summary) -> None:
    data = summary()
    assert set(data) >= TOP_LEVEL
    assert data["game"] == "one-card" and data["version"] == 1
    assert data["options"] == {"joker": "joker", "target": 30}
    assert data["rounds"][0] == {
        "number": 1, "dealer": "Ann", "bidder": "Bob", "bid": 9, "trump": "S",
        "points": {"Ann": 4, "Bob": 8, "Cy": 3},
        "scores": {"Ann": 4, "Bob": 0, "Cy": 3},
        "bid_failed": True,
    }
    no_bid = data["rounds"][1]
    assert set(no_bid) == ONE_CARD_ROUND
    assert no_bid["bidder"] is None and no_bid["bid"] is None
    assert no_bid["bid_failed"] is False and no_bid["trump"] is None
    assert no_bid["dealer"] == "Bob"
    assert data["totals"] == {"Ann": 4 + 5 + 15 + 10, "Bob": 0 + 5 + 0 + 2,
                              "Cy": 3 + 5 + 0 + 3}
    assert data["knocked_out"] == []
    assert data["status"] == "finished" and data["winners"] == ["Ann"]


def test_json_by_id_and_the_finished_least_score_game(friday, ok: CLI, summary) -> None:
    ok("add-round", "--declarer", "Ann", "Ann=1", "Cy=20")  # Cy 14 + 19 = 33: out
    data = summary(1)
    assert data["knocked_out"] == ["Bob", "Cy"]
    assert data["status"] == "finished" and data["winners"] == ["Ann"]


def test_json_is_valid_utf8_with_names_as_entered(least, ok: CLI) -> None:
    least("Zoë", "Ñico")
    text = ok("export", "--format", "json").stdout
    assert "Zoë" in text  # not \u escapes
    assert json.loads(text)["players"] == ["Zoë", "Ñico"]


# --------------------------------------------------------------------------- md, csv, html


def test_markdown(friday, ok: CLI) -> None:
    text = ok("export", "--format", "md").stdout
    assert text.startswith("# Friday night\n")
    assert "House rules: limit 25, tie declarer-wins, end last-standing, two-pairs same-rank" \
        in text
    assert "**In progress after 3 rounds**" in text
    assert "## Standings" in text and "## Rounds" in text
    assert "| Round | Dealer | Declarer | Ann | Bob | Cy |" in text
    assert "| 1 | Ann | Ann | +0 (0) | +6 (6) | +7 (7) |" in text
    assert "+21 (27) out" in text
    assert "knocked out" in text
    # md is the default format
    assert ok("export").stdout == text


def test_markdown_winner(oc_game, ok: CLI) -> None:
    text = ok("export", "-f", "md").stdout
    assert "**Winner: Ann**" in text
    assert "| 1 | Ann | Bob 9 ♠ (failed) |" in text
    assert "no bid" in text


def test_csv_least_score(friday, ok: CLI) -> None:
    rows = list(csv.reader(io.StringIO(ok("export", "--format", "csv").stdout)))
    assert rows[0] == ["round", "dealer", "declarer", "false_declaration",
                       "Ann hand", "Ann score", "Ann total", "Bob hand", "Bob score",
                       "Bob total", "Cy hand", "Cy score", "Cy total"]
    assert len(rows) == 4
    # each hand as it was entered (cards or a total): the file imports back (issue 39.4)
    assert rows[1] == ["1", "Ann", "Ann", "false", "AH,9S", "0", "0", "KD,6C", "6", "6",
                       "7H,QS", "7", "7"]
    assert rows[2][4:7] == ["10", "2", "2"]
    assert rows[3][-3:] == ["9", "0", "14"]


def test_csv_one_card(oc_game, ok: CLI) -> None:
    rows = list(csv.reader(io.StringIO(ok("export", "--format", "csv").stdout)))
    # and no_bid, the round option add-round takes when nobody bid (issue 39.4)
    assert rows[0][:7] == ["round", "dealer", "bidder", "bid", "trump", "bid_failed", "no_bid"]
    assert rows[1] == ["1", "Ann", "Bob", "9", "S", "true", "false", "4", "4", "4", "8", "0",
                       "0", "3", "3", "3"]
    assert rows[2][2:7] == ["", "", "", "false", "true"]
    assert len(rows) == 5


def _references(page: str) -> list[str]:
    """Every http(s) address in the page except the SVG namespace name (not fetched)."""
    return [url for url in re.findall(r"https?://[^\s\"'<>)]+", page)
            if url != "http://www.w3.org/2000/svg"]


@pytest.mark.parametrize("game", ["friday", "oc_game"])
def test_html_is_self_contained(game: str, request: pytest.FixtureRequest, ok: CLI) -> None:
    request.getfixturevalue(game)
    page = ok("export", "--format", "html").stdout
    assert page.startswith("<!DOCTYPE html>")
    assert '<meta charset="utf-8">' in page
    assert "<svg" in page and "</svg>" in page
    assert _references(page) == []
    for external in ("<script", "<link", "src=", "@import", "url("):
        assert external not in page
    if game == "friday":
        assert "limit 25" in page and "Friday night" in page
    else:
        assert "target 30" in page and "Winner: Ann" in page


def test_html_escapes_names(least, ok: CLI) -> None:
    least("Tom & <Jerry>", "Bob")
    ok("add-round", "--declarer", "Bob", "tom & <jerry>=5", "Bob=1")
    page = ok("export", "--format", "html").stdout
    assert "<Jerry>" not in page
    assert "Tom &amp; &lt;Jerry&gt;" in page


def test_export_output_file(friday, ok: CLI, tmp_path: Path) -> None:
    for fmt in ("json", "md", "csv", "html"):
        target = tmp_path / f"night.{fmt}"
        result = ok("export", "--format", fmt, "--output", target)
        assert f"Wrote {target} ({fmt})." in result.stdout
        assert target.read_text(encoding="utf-8") == ok("export", "--format", fmt).stdout
    assert json.loads((tmp_path / "night.json").read_text(encoding="utf-8"))["id"] == 1


@pytest.mark.parametrize("fmt", ["json", "md", "csv", "html"])
@pytest.mark.parametrize("option", [["--output", "-"], ["-o", "-"], ["--output", "-", "--force"]])
def test_export_output_dash_is_stdout(friday, ok: CLI, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch, fmt: str,
                                      option: list[str]) -> None:
    """``--output -`` writes the export to stdout, exactly what no --output gives, and
    nothing else there (no "Wrote" line); no file named ``-`` appears."""
    monkeypatch.chdir(tmp_path)
    result = ok("export", "--format", fmt, *option)
    assert result.stdout == ok("export", "--format", fmt).stdout
    assert "Wrote" not in result.stdout + result.stderr
    assert not (tmp_path / "-").exists()


def test_export_refusals(friday, refuse: Refuse, tmp_path: Path) -> None:
    refuse("export", "--format", "json", "--output", tmp_path / "no" / "such" / "x.json",
           says="can't write")
    refuse("export", "--format", "pdf", code=2, says="pdf")
    refuse("export", "9", "--format", "json", says="no session 9")


def test_export_with_no_store(refuse: Refuse, db_path: Path) -> None:
    refuse("export", "--format", "json", says="no sessions")
    assert not db_path.exists()


# --------------------------------------------------------------------------- import


def _without_id(data: dict[str, Any]) -> dict[str, Any]:
    rest = dict(data)
    for key in ("id", "created", "history"):
        rest.pop(key, None)
    return rest


@pytest.mark.parametrize("game", ["friday", "oc_game"])
def test_import_round_trip(game: str, request: pytest.FixtureRequest, ok: CLI, summary,
                           tmp_path: Path) -> None:
    request.getfixturevalue(game)
    exported = tmp_path / "out.json"
    ok("export", "--format", "json", "--output", exported)
    result = ok("import", "--again", exported)
    assert "as session 2" in result.stdout and "current session" in result.stdout
    original, imported = summary(1), summary()
    assert imported["id"] == 2
    assert _without_id(imported) == _without_id(original)
    # the imported session plays on like any other (if it is not over)
    log = ok("log").stdout
    assert "import" in log


def test_import_round_trip_then_play_on(friday, ok: CLI, summary, tmp_path: Path) -> None:
    exported = tmp_path / "out.json"
    ok("export", "--format", "json", "-o", exported)
    ok("import", "--again", exported)
    ok("add-round", "--declarer", "Ann", "Ann=1", "Cy=20")
    data = summary()
    assert data["winners"] == ["Ann"] and data["rounds"][3]["dealer"] == "Ann"


def test_import_from_stdin(friday, ok: CLI, summary, monkeypatch: pytest.MonkeyPatch) -> None:
    text = ok("export", "--format", "json").stdout
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    ok("import", "--again", "-")
    assert _without_id(summary()) == _without_id(summary(1))


def _tampered(data: dict[str, Any], change: str) -> dict[str, Any]:
    data = copy.deepcopy(data)
    if change == "round-score":
        data["rounds"][0]["scores"]["Bob"] += 1
    elif change == "total":
        data["totals"]["Cy"] += 1
    elif change == "hand-total":
        data["rounds"][1]["totals"]["Cy"] = 14
    elif change == "hand":
        data["rounds"][0]["hands"]["Ann"] = ["AH", "8S"]
    elif change == "winners":
        data["winners"] = ["Cy"]
    elif change == "knocked-out":
        data["knocked_out"] = []
    elif change == "status":
        data["status"] = "finished"
    elif change == "false-declaration":
        data["rounds"][1]["false_declaration"] = True
    elif change == "version":
        data["version"] = 2
    elif change == "format":
        data["format"] = "something-else"
    elif change == "player":
        data["players"] = ["Ann", "Bob"]
    return data


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ("round-score", ("round 1", "scores")),
        ("total", ("totals",)),
        ("hand-total", ("round 2",)),
        ("hand", ("Ann's cards add up to 9, not 10",)),
        ("winners", ("winners",)),
        ("knocked-out", ("knocked_out",)),
        ("status", ("status",)),
        ("false-declaration", ("false_declaration",)),
        ("version", ("version",)),
        ("format", ("not a scorekeeper session summary",)),
        ("player", ("Cy",)),
    ],
)
def test_import_refuses_a_tampered_file(friday, ok: CLI, refuse: Refuse, db_path: Path,
                                        tmp_path: Path, change: str,
                                        says: tuple[str, ...]) -> None:
    data = json.loads(ok("export", "--format", "json").stdout)
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(_tampered(data, change)), encoding="utf-8")
    before = file_bytes(db_path)
    refuse("import", "--again", path, says=says)
    assert file_bytes(db_path) == before


def test_import_refuses_a_tampered_one_card_file(oc_game, ok: CLI, refuse: Refuse,
                                                 tmp_path: Path) -> None:
    data = json.loads(ok("export", "--format", "json").stdout)
    data["rounds"][0]["points"] = {"Ann": 3, "Bob": 9, "Cy": 3}  # still 15: Bob made it now
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    refuse("import", "--again", path, says=("round 1", "re-scores"))
    data["rounds"][0]["points"] = {"Ann": 4, "Bob": 8, "Cy": 4}
    path.write_text(json.dumps(data), encoding="utf-8")
    refuse("import", "--again", path, says=("add up to 16",))


def test_import_refuses_what_is_not_an_export(least, refuse: Refuse, tmp_path: Path) -> None:
    least("Ann", "Bob")
    not_json = tmp_path / "notes.txt"
    not_json.write_text("Ann 7, Bob 3\n", encoding="utf-8")
    refuse("import", "--again", not_json, says=("not valid JSON", "--format json"))
    other = tmp_path / "other.json"
    other.write_text('{"users": [1, 2]}', encoding="utf-8")
    refuse("import", "--again", other, says="not a scorekeeper session summary")
    listing = tmp_path / "list.json"
    listing.write_text("[1, 2]", encoding="utf-8")
    refuse("import", "--again", listing, says="not a scorekeeper session summary")
    refuse("import", "--again", tmp_path / "missing.json", says="no file")
