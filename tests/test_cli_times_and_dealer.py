"""Issue 11.8: times people read, a first dealer drawn at random, names for virtual games."""

from __future__ import annotations

import json
import random
import re
from datetime import datetime
from pathlib import Path

import pytest
from conftest import CLI

from scorekeeper.views.render import readable_time

SHOWN = re.compile(r"\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2}( \d{4})?, \d\d:\d\d\b")


def test_log_shows_times_people_read_and_the_json_keeps_iso(least, ok: CLI, summary,
                                                            db_path: Path) -> None:
    least("Ann", "Bob")
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=5")
    shown = ok("log").stdout
    assert len(SHOWN.findall(shown)) == 2
    assert not re.search(r"\d{4}-\d\d-\d\dT", shown)
    created = summary()["created"]
    assert datetime.fromisoformat(created).tzinfo is not None  # ISO 8601 with its offset
    stored = json.loads(db_path.read_text(encoding="utf-8"))
    history = next(iter(stored["sessions"].values()))["history"]
    assert all(datetime.fromisoformat(entry["time"]) for entry in history)


def test_times_are_turned_into_the_local_time(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    try:
        # 21:22 at +01:00 is 20:22 UTC; this year's date has no year
        now = datetime(2026, 12, 1)
        assert readable_time("2026-11-27T21:22:00+01:00", now=now) == "Fri 27 Nov, 20:22"
        assert readable_time("2025-11-28T21:22:00+01:00", now=now) == "Fri 28 Nov 2025, 20:22"
        # exports keep the clock of the table and give the year
        assert readable_time("2026-11-27T21:22:00+01:00", at_the_table=True) \
            == "Fri 27 Nov 2026, 21:22"
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_exports_say_when_the_night_started_in_words(ok: CLI, tmp_path: Path) -> None:
    samples = Path(__file__).resolve().parent.parent / "sample_sessions"
    ok("import", samples / "least-score-night.json")
    assert "started Fri 27 Nov 2026, 20:15" in ok("export", "--format", "md").stdout
    assert "started Fri 27 Nov 2026, 20:15" in ok("export", "--format", "html").stdout
    assert ok("export", "--format", "json").json()["created"] == "2026-11-27T20:15:00+01:00"


def test_new_without_dealer_draws_one_at_random_and_says_so(ok: CLI, summary,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    def no_global_random(*args: object) -> None:
        raise AssertionError("the global random generator was used")

    for name in ("choice", "random", "randrange", "shuffle", "randint"):
        monkeypatch.setattr(random, name, no_global_random)
    dealers = set()
    for _ in range(12):
        result = ok("new", "least-score", "-p", "Ann", "-p", "Bob", "-p", "Cy")
        dealer = summary()["first_dealer"]
        assert dealer in ("Ann", "Bob", "Cy")
        assert f"{dealer} was drawn at random to deal first (--dealer NAME chooses)." \
            in result.stdout
        assert re.search(rf"^Next deal: {dealer} deals, \w+ plays first\.$", result.stdout,
                         flags=re.MULTILINE)
        dealers.add(dealer)
    assert len(dealers) > 1  # 1 chance in 3**11 to fail with a fair draw


def test_a_chosen_dealer_is_not_said_to_be_drawn(ok: CLI) -> None:
    result = ok("new", "one-card", "-p", "Ann", "-p", "Bob", "--dealer", "bob")
    assert "drawn at random" not in result.stdout
    assert "Next deal: Bob deals, Ann bids first." in result.stdout


def test_virtual_games_get_names_in_sessions(ok: CLI) -> None:
    ok("play", "least-score", "--bot", "greedy", "--bot", "random", "--seed", "4")
    ok("play", "one-card", "--bot", "greedy", "--bot", "random", "--seed", "4",
       "--name", "Practice")
    listed = ok("sessions").stdout
    assert "Least Score with Greedy-1, Random-2" in listed
    assert "Practice" in listed and "One Card with" not in listed
    assert "Least Score with Greedy-1, Random-2" in ok("show", "1").stdout


def test_a_play_stopped_before_anyone_saw_a_card_leaves_no_session(
        least, ok: CLI, cli: CLI, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    least("Ann", "Bob")  # a session that was current before
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # stopped at the first hand-over
    result = cli("play", "least-score", "--player", "Cy", "--player", "Dan", "--seed", "4")
    assert result.exit_code == 130, result
    assert "Stopped before the first deal was over: nothing was saved." in result.stdout
    listed = ok("sessions", "--json").json()
    assert [s["id"] for s in listed["sessions"]] == [1] and listed["current"] == 1


def test_a_play_stopped_after_a_hand_was_seen_is_kept_to_be_dealt_afresh(
        ok: CLI, cli: CLI, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # stopped at Ann's first move
    result = cli("play", "least-score", "--player", "Ann", "--bot", "greedy", "--seed", "4")
    assert result.exit_code == 130
    assert "deal 1 will be dealt again from a fresh shuffle" in result.stdout
    assert len(ok("sessions", "--json").json()["sessions"]) == 1
