"""Whole games through the real installed `score` command, each command a new process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ESCAPE, Result
from deadlines import SCALE


def ok(result: Result) -> Result:
    assert result.exit_code == 0, result
    assert result.stderr == "", result.stderr
    assert ESCAPE not in result.stdout
    return result


def refused(result: Result, code: int, *says: str) -> None:
    assert result.exit_code == code, result
    assert "Traceback" not in result.stdout + result.stderr
    assert len(result.stderr.splitlines()) == 1, result.stderr
    for text in says:
        assert text in result.stderr, (text, result.stderr)


@pytest.mark.e2e
def test_a_whole_least_score_night(score_run, db_path: Path, tmp_path: Path) -> None:
    out = ok(score_run("new", "least-score", "--player", "Ann", "--player", "Bob",
                       "--player", "Cy", "--player", "Dan", "--name", "Friday night",
                       "--limit", "25", "--dealer", "Ann")).stdout
    assert "Session 1 started: Least Score for Ann, Bob, Cy, Dan" in out

    # Bob declares with 4 but Dan holds A, 2: a false declaration, 20 + 1
    out = ok(score_run("add-round", "--declarer", "Bob", "Ann=12", "Bob=4", "Cy=9",
                       "Dan=AH,2C")).stdout
    assert "Round 1 recorded: Ann +0, Bob +21, Cy +0, Dan +0" in out
    assert "false declaration by Bob" in out
    out = ok(score_run("add-round", "--declarer", "cy", "ann=10", "bob=7", "cy=5",
                       "dan=15")).stdout
    assert "Round 2 recorded: Ann +5, Bob +2, Cy +0, Dan +10" in out
    out = ok(score_run("add-round", "--declarer", "Ann", "Ann=2", "Bob=9", "Cy=4",
                       "Dan=30")).stdout
    assert "Bob is knocked out." in out and "Dan is knocked out." in out
    assert "Next deal: Ann deals, Cy plays first." in out

    before = db_path.read_bytes()
    refused(score_run("add-round", "--declarer", "Ann", "Ann=3", "Cy=4", "Bob=5"), 1,
            "Bob is knocked out")
    refused(score_run("add-round", "--declarer", "Ann", "Ann=3", "Cy"), 2, "NAME=VALUE")
    assert db_path.read_bytes() == before

    out = ok(score_run("undo")).stdout
    assert "Removed round 3" in out
    out = ok(score_run("redo")).stdout
    assert "Round 3 recorded" in out

    out = ok(score_run("add-round", "--declarer", "Cy", "Ann=40", "Cy=1")).stdout
    assert "Ann is knocked out." in out and "Game over: Cy wins!" in out
    refused(score_run("add-round", "--declarer", "Cy", "Ann=4", "Cy=1"), 1, "finished")

    shown = ok(score_run("show")).stdout
    assert "Friday night" in shown and "finished" in shown
    assert "knocked out (round 3)" in shown

    data = json.loads(ok(score_run("export", "--format", "json")).stdout)
    assert data["status"] == "finished" and data["winners"] == ["Cy"]
    assert data["knocked_out"] == ["Bob", "Dan", "Ann"]
    assert data["totals"] == {"Ann": 44, "Bob": 30, "Cy": 2, "Dan": 38}
    assert [r["dealer"] for r in data["rounds"]] == ["Ann", "Bob", "Cy", "Ann"]
    assert data["rounds"][0]["hands"] == {"Dan": ["AH", "2C"]}

    page = tmp_path / "night.html"
    assert "Wrote" in ok(score_run("export", "--format", "html", "--output", page)).stdout
    assert "<svg" in page.read_text(encoding="utf-8")


@pytest.mark.e2e
def test_a_whole_one_card_game(score_run, db_path: Path) -> None:
    out = ok(score_run("new", "one-card", "-p", "Ann", "-p", "Bob", "-p", "Cy",
                       "--dealer", "Ann")).stdout
    assert "Next deal: Ann deals, Bob bids first." in out
    out = ok(score_run("add-round", "--bidder", "Bob", "--bid", "9", "--trump", "S",
                       "Ann=4", "Bob=8", "Cy=3")).stdout
    assert "Round 1 recorded: Ann +4, Bob +0, Cy +3" in out
    assert "Bob failed the bid of 9" in out
    ok(score_run("add-round", "--no-bid", "Ann=5", "Bob=5", "Cy=5"))
    ok(score_run("add-round", "--bidder", "Ann", "--bid", "15", "Ann=15", "Bob=0", "Cy=0"))
    before = db_path.read_bytes()
    refused(score_run("add-round", "--no-bid", "Ann=4", "Bob=8", "Cy=2"), 1,
            "the points add up to 14, not 15")
    assert db_path.read_bytes() == before
    out = ok(score_run("add-round", "--bidder", "ann", "--bid", "7", "Ann=10", "Bob=2",
                       "Cy=3")).stdout
    assert "Game over: Ann wins!" in out
    data = json.loads(ok(score_run("export", "--format", "json")).stdout)
    assert data["totals"] == {"Ann": 34, "Bob": 7, "Cy": 11}
    assert data["winners"] == ["Ann"] and data["status"] == "finished"
    assert [r["dealer"] for r in data["rounds"]] == ["Ann", "Bob", "Cy", "Ann"]
    assert data["rounds"][0]["trump"] == "S" and data["rounds"][1]["bidder"] is None


@pytest.mark.e2e
def test_python_dash_m_scorekeeper(score_exe: Path, score_env: dict[str, str]) -> None:
    import subprocess
    import sys

    completed = subprocess.run([sys.executable, "-m", "scorekeeper", "rules", "one-card"],
                               env=score_env, capture_output=True, text=True,
                               encoding="utf-8", timeout=60 * SCALE)
    assert completed.returncode == 0 and completed.stdout.startswith("# One Card")
