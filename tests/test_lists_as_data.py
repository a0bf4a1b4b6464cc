"""The lists as data (issue 39.5): `score sessions --format table|json|csv|ndjson` and
`score config show --json`, so every night is one command away from a spreadsheet."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from conftest import CLI, ESCAPE, Refuse, players_args


@pytest.fixture
def two_nights(ok: CLI, db_path: Path) -> None:
    ok("new", "least-score", *players_args("Ann", "Bob"), "--limit", "25", "--dealer", "Ann",
       "--name", "=cmd|' /C calc'!A0")
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=30")  # Bob out: Ann wins
    ok("new", "points", *players_args("Cy", "Dan"))
    ok("add-round", "Cy=5", "Dan=7")
    text = db_path.read_text(encoding="utf-8").replace('"Dan"', '"D\\u001b[2Jan"')
    db_path.write_text(text, encoding="utf-8")


def test_json_is_the_same_as_before(ok: CLI, two_nights: None) -> None:
    assert ok("sessions", "--format", "json").stdout == ok("sessions", "--json").stdout


def test_ndjson_is_one_session_a_line(ok: CLI, two_nights: None) -> None:
    lines = ok("sessions", "--format", "ndjson").stdout.splitlines()
    listed = json.loads(ok("sessions", "--json").stdout)["sessions"]
    assert [json.loads(line) for line in lines] == listed
    assert ESCAPE not in "".join(lines) and "\\u001b[2J" in lines[1]


def test_csv_is_a_spreadsheet_that_runs_nothing(ok: CLI, two_nights: None) -> None:
    text = ok("sessions", "-f", "csv").stdout
    assert ESCAPE not in text
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [row["id"] for row in rows] == ["1", "2"]
    assert rows[0]["name"].startswith("'=cmd")  # a formula is text, never run
    assert rows[0]["status"] == "finished" and rows[0]["leader"] == "Ann"
    assert rows[1]["players"] == "Cy; D\\x1b[2Jan" and rows[1]["current"] == "true"
    assert rows[1]["game"] == "points" and rows[1]["rounds"] == "1"


def test_table_is_the_default(ok: CLI, two_nights: None) -> None:
    assert ok("sessions", "-f", "table").stdout == ok("sessions").stdout


def test_json_and_another_format_is_malformed(two_nights: None, refuse: Refuse) -> None:
    refuse("sessions", "--json", "--format", "csv", code=2, says="--json is --format json")
    refuse("sessions", "--format", "xml", code=2, says="--format")


def test_no_sessions_as_data(ok: CLI) -> None:
    assert ok("sessions", "-f", "csv").stdout.splitlines() == [
        "id,name,game,mode,players,rounds,status,leader,created,current"]
    assert ok("sessions", "-f", "ndjson").stdout == ""


def test_config_show_json(ok: CLI) -> None:
    empty = json.loads(ok("config", "show", "--json").stdout)
    assert empty["exists"] is False and empty["house_rules"] == {} and empty["players"] == []
    ok("config", "set", "players", "Ann,Bob")
    ok("config", "set", "least-score.limit", "50")
    ok("config", "set", "language", "da")
    shown = json.loads(ok("config", "show", "--json").stdout)
    assert shown == {"file": empty["file"], "exists": True, "language": "da",
                     "players": ["Ann", "Bob"], "house_rules": {"least-score": {"limit": 50}}}
