"""A session's life: delete (recorded, recoverable), abandon, notes, the night's span."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI, Refuse, file_bytes

from scorekeeper.kit.entries import RoundEntry
from scorekeeper.session import Session
from scorekeeper.store import backup_paths
from scorekeeper.summary import summary_of


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_delete_with_yes_is_recorded_and_the_id_never_reused(least: Any, ok: CLI,
                                                             refuse: Refuse,
                                                             db_path: Path) -> None:
    least("Ann", "Bob")
    least("Cy", "Dan")
    ok("add-round", "--declarer", "Cy", "Cy=3", "Dan=9")
    before = file_bytes(db_path)
    done = ok("delete", "2", "--yes")
    assert "Deleted session 2" in done.stdout
    assert file_bytes(backup_paths(db_path)[0]) == before  # the backups hold it
    listed = ok("sessions").stdout
    assert "Cy, Dan" not in listed and "Ann, Bob" in listed
    log = ok("log", "2").stdout
    assert "add-round" in log and "delete" in log
    refuse("show", "2", says="no session 2")
    refuse("delete", "2", "--yes", says="no session 2")
    assert "Session 3 started" in least("Eve", "Fay").stdout
    data = json.loads(db_path.read_text(encoding="utf-8"))
    assert set(data["sessions"]) == {"1", "3"}


def test_delete_asks_at_a_terminal_and_refuses_a_script_without_yes(
        least: Any, cli: CLI, refuse: Refuse, monkeypatch: Any, db_path: Path) -> None:
    least("Ann", "Bob")
    refuse("delete", "1", says="--yes")
    monkeypatch.setattr("sys.stdin", Terminal("n\n"))
    before = file_bytes(db_path)
    declined = cli("delete", "1")
    assert declined.exit_code == 1 and "Delete session 1" in declined.stdout
    assert file_bytes(db_path) == before
    monkeypatch.setattr("sys.stdin", Terminal("y\n"))
    assert cli("delete", "1").exit_code == 0
    assert "No sessions yet" in cli("sessions").stdout


def test_abandon_keeps_the_session_listed_but_out_of_stats(least: Any, ok: CLI,
                                                           refuse: Refuse) -> None:
    least("Ann", "Bob", extra=("--limit", "10"))
    ok("add-round", "--declarer", "Ann", "Ann=2", "Bob=20")  # Bob out: Ann wins
    least("Ann", "Bob")
    refuse("abandon", "1", says="is finished")
    ok("abandon", "2")
    assert "abandoned" in ok("sessions").stdout
    refuse("abandon", "2", says="already abandoned")
    refuse("add-round", "--declarer", "Ann", "Ann=2", "Bob=3", says="abandon 2 --undo")
    stats = ok("stats", "--json").json()
    assert stats["sessions"] == {"finished": 1, "abandoned": 1, "unfinished": 0}
    ok("abandon", "2", "--undo")
    ok("add-round", "--declarer", "Ann", "Ann=2", "Bob=3")
    assert ok("stats", "--json").json()["sessions"]["unfinished"] == 1
    assert "abandon" in ok("log", "2").stdout and "resume" in ok("log", "2").stdout


def test_notes_are_kept_shown_as_plain_text_and_exported(least: Any, ok: CLI, refuse: Refuse,
                                                         summary: Any) -> None:
    least("Ann", "Bob", extra=("--note", "[bold]at Ann's[/bold] | birthday"))
    ok("add-round", "--declarer", "Ann", "Ann=2", "Bob=9", "--note", "Bob's [red]lucky[/] deal")
    ok("add-round", "--declarer", "Bob", "Ann=4", "Bob=3")
    shown = ok("show").stdout
    assert "Note: [bold]at Ann's[/bold] | birthday" in shown
    assert "Round 1: Bob's [red]lucky[/] deal" in shown
    data = summary()
    assert data["note"] == "[bold]at Ann's[/bold] | birthday"
    assert data["rounds"][0]["note"] == "Bob's [red]lucky[/] deal"
    assert "note" not in data["rounds"][1]
    markdown = ok("export", "--format", "md").stdout
    assert "Round 1: Bob's \\[red\\]lucky\\[/\\] deal" in markdown
    assert "Note: \\[bold\\]at Ann's\\[/bold\\] \\| birthday" in markdown
    page = ok("export", "--format", "html").stdout
    assert "[bold]at Ann&#x27;s[/bold] | birthday" in page
    rows = list(csv.reader(io.StringIO(ok("export", "--format", "csv").stdout)))
    assert rows[0][-1] == "note" and rows[1][-1] == "Bob's [red]lucky[/] deal"
    refuse("add-round", "--declarer", "Ann", "Ann=2", "Bob=9", "--note", "a\x1b[2Jb",
           says="control character")


def test_an_imported_session_keeps_its_notes_and_span(least: Any, ok: CLI, summary: Any,
                                                      tmp_path: Path) -> None:
    least("Ann", "Bob", extra=("--note", "first night"))
    ok("add-round", "--declarer", "Ann", "Ann=2", "Bob=9", "--note", "warm-up")
    exported = tmp_path / "night.json"
    ok("export", "--format", "json", "--output", exported)
    ok("import", "--again", exported)
    original, imported = summary(1), summary(2)
    for key in ("note", "played_from", "played_to", "duration_seconds"):
        assert imported[key] == original[key]
    assert imported["rounds"][0]["note"] == "warm-up"


def test_the_nights_span_runs_from_the_first_to_the_last_change_at_the_table() -> None:
    session = Session.new("least-score", ["Ann", "Bob"], time="2026-11-27T20:15:00+01:00")
    session = session.add_round(RoundEntry((("Ann", "2"), ("Bob", "9")), declarer="Ann"),
                                time="2026-11-27T21:05:00+01:00")
    session = session.undo(time="2026-11-27T22:40:30+01:00")
    session = session.abandon(time="2026-12-01T10:00:00+01:00")  # not at the table
    assert session.duration == timedelta(hours=2, minutes=25, seconds=30)
    assert summary_of(session)["duration_seconds"] == 8730
    from scorekeeper.views.render import played_text
    assert played_text(session, at_the_table=True) \
        == "Played Fri 27 Nov 2026, 20:15 to 22:40 (2 h 25 min)"
    assert played_text(replace(session, history=())) == ""


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_show_and_exports_say_how_long_the_night_was(least: Any, ok: CLI, fmt: str) -> None:
    least("Ann", "Bob")
    ok("add-round", "--declarer", "Ann", "Ann=2", "Bob=9")
    assert "Played " in ok("show").stdout and "(under a minute)" in ok("show").stdout
    assert "Played " in ok("export", "--format", fmt).stdout
