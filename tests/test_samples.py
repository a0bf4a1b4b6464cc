"""The sample sessions import cleanly and re-score to the totals they state."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from deadlines import SCALE

from scorekeeper.session import Session
from scorekeeper.summary import session_from_summary

SAMPLES = Path(__file__).resolve().parent.parent / "sample_sessions"


def load(name: str) -> Session:
    return session_from_summary(json.loads((SAMPLES / name).read_text(encoding="utf-8")))


def test_least_score_night_is_a_finished_four_player_night() -> None:
    data = json.loads((SAMPLES / "least-score-night.json").read_text(encoding="utf-8"))
    session = load("least-score-night.json")
    standings = session.standings
    assert len(session.players) == 4
    assert len(standings.rounds) >= 10
    assert any(r["false_declaration"] for r in [r_.to_json() for r_ in standings.rounds])
    assert standings.knocked_out == ["Bob", "Ann", "Cy"]
    assert standings.finished and standings.winners == ["Dan"]
    assert standings.totals == data["totals"] == {"Ann": 102, "Bob": 106, "Cy": 116, "Dan": 53}
    # the totals are the sums of the per-round scores
    for name in session.players:
        assert sum(r["scores"].get(name, 0) for r in data["rounds"]) == data["totals"][name]


def test_one_card_game_has_a_failed_bid_a_no_bid_deal_and_a_winner() -> None:
    data = json.loads((SAMPLES / "one-card-game.json").read_text(encoding="utf-8"))
    session = load("one-card-game.json")
    standings = session.standings
    assert 3 <= len(session.players) <= 4
    assert any(r["bid_failed"] for r in [r_.to_json() for r_ in standings.rounds])
    assert any(r["bidder"] is None for r in [r_.to_json() for r_ in standings.rounds])
    assert standings.finished and standings.winners == data["winners"] == ["Bob"]
    assert standings.totals == data["totals"]
    assert all(sum(r["points"].values()) == 15 for r in data["rounds"])


@pytest.mark.parametrize("stem", ["least-score-night", "one-card-game"])
def test_summaries_exist_beside_the_json(stem: str) -> None:
    markdown = (SAMPLES / f"{stem}.md").read_text(encoding="utf-8")
    page = (SAMPLES / f"{stem}.html").read_text(encoding="utf-8")
    winner = json.loads((SAMPLES / f"{stem}.json").read_text(encoding="utf-8"))["winners"][0]
    assert f"Winner: {winner}" in markdown
    assert "<svg" in page and "http://" not in page.replace('xmlns="http://www.w3.org', "")


@pytest.mark.e2e
def test_rebuilding_the_samples_leaves_the_committed_files_unchanged(tmp_path: Path) -> None:
    """`python sample_sessions/make_samples.py`, run as the maintainer runs it (no folder:
    it rebuilds its own, over the files already there), gives the committed samples byte
    for byte: the script works, and no clock or randomness leaks in (run on a copy of the
    folder, so the tree itself is never touched)."""
    copy = tmp_path / "sample_sessions"
    shutil.copytree(SAMPLES, copy, ignore=shutil.ignore_patterns("__pycache__"))
    committed = {path.name: path.read_bytes() for path in sorted(copy.iterdir())
                 if path.suffix != ".py"}
    assert len(committed) == 6
    # as a Danish maintainer would: the samples stay English all the same
    env = {**os.environ, "SCOREKEEPER_LANG": "da", "LANG": "da_DK.UTF-8"}
    result = subprocess.run([sys.executable, str(copy / "make_samples.py")], cwd=tmp_path,
                            env=env, capture_output=True, text=True, timeout=120 * SCALE)
    assert result.returncode == 0, result.stderr
    rebuilt = {path.name: path.read_bytes() for path in sorted(copy.iterdir())
               if path.suffix != ".py"}
    assert rebuilt.keys() == committed.keys()
    changed = [name for name in rebuilt if rebuilt[name] != committed[name]]
    assert not changed, f"rebuilt differently: {changed} (run the script and commit them)"
