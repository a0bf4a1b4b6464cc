"""Data that is never lost: the log of every change, redo, and editing a past round.

`score log` lists every change (new, add-round, undo, redo, edit-round, import)
with its time; `score redo` brings back what undo removed until another change is
made; `score edit-round` re-scores the later rounds, can finish or un-finish a
game, and is refused (naming the round) when it makes a later round impossible.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.cli.app import run
from scorekeeper.doctor import check_file
from scorekeeper.session import Session
from scorekeeper.store import Store

SAMPLES = Path(__file__).resolve().parent.parent / "sample_sessions"
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d")
SHOWN_TIME = re.compile(r"\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2}( \d{4})?, "
                        r"\d\d:\d\d\b")
"""A time as `score log` shows it: Fri 29 Nov, 21:22 (the JSON keeps ISO 8601)."""


def score(db: Path, *argv: str) -> int:
    return run(["--db", str(db), *argv])


def session(db: Path, session_id: int | None = None) -> Session:
    return Store(db).read().get(session_id)


def refused(db: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run a command that must be refused; the store must not change. Returns stderr."""
    before = db.read_bytes()
    capsys.readouterr()
    assert score(db, *argv) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert db.read_bytes() == before
    return err


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "store.json"


def test_log_lists_every_kind_of_change_with_its_time(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert score(db, "new", "least-score", "-p", "Ann", "-p", "Bob", "-p", "Cy") == 0
    assert score(db, "add-round", "--declarer", "Ann", "Ann=3", "Bob=10", "Cy=20") == 0
    assert score(db, "add-round", "--declarer", "Bob", "Ann=5", "Bob=2", "Cy=8") == 0
    assert score(db, "undo") == 0
    assert score(db, "redo") == 0
    assert score(db, "edit-round", "1", "--declarer", "Ann", "Ann=3", "Bob=11", "Cy=20") == 0
    assert score(db, "import", "--again", str(SAMPLES / "one-card-game.json")) == 0
    capsys.readouterr()

    history = session(db, 1).history
    assert [h["change"] for h in history] == ["new", "add-round", "add-round", "undo", "redo",
                                            "edit-round"]
    assert all(TIME.fullmatch(h["time"]) for h in history)
    assert [h.get("round") for h in history] == [None, 1, 2, 2, 2, 1]
    assert "round 1 was" in history[-1]["detail"] and "now" in history[-1]["detail"]
    imported = session(db, 2).history
    assert [h["change"] for h in imported] == ["new", "import"]
    assert "one-card-game.json" in imported[-1]["detail"]

    assert score(db, "log", "1") == 0
    shown = capsys.readouterr().out
    for change in ("new", "add-round", "undo", "redo", "edit-round"):
        assert re.search(rf"\b{change}\b", shown), change
    assert len(SHOWN_TIME.findall(shown)) == len(history)
    assert score(db, "log") == 0  # the current session: the imported one
    shown = capsys.readouterr().out
    assert "import" in shown and len(SHOWN_TIME.findall(shown)) == 2


def _three_rounds(db: Path) -> None:
    assert score(db, "new", "least-score", "-p", "Ann", "-p", "Bob", "-p", "Cy",
                 "--dealer", "Cy") == 0
    assert score(db, "add-round", "--declarer", "Ann", "Ann=3", "Bob=10", "Cy=20") == 0
    assert score(db, "add-round", "--declarer", "Bob", "Ann=5", "Bob=2", "Cy=8") == 0
    assert score(db, "add-round", "--declarer", "Cy", "Ann=KS,QS", "Bob=9", "Cy=4") == 0


def test_redo_brings_back_exactly_what_undo_removed(db: Path) -> None:
    _three_rounds(db)
    full = session(db)
    assert score(db, "undo") == 0 and score(db, "undo") == 0
    assert len(session(db).rounds) == 1
    assert score(db, "redo") == 0
    assert session(db).rounds == full.rounds[:2]
    assert score(db, "redo") == 0
    restored = session(db)
    assert restored.rounds == full.rounds
    assert restored.standings == full.standings
    assert restored.undone == ()
    assert check_file(db).good


def test_redo_is_refused_with_nothing_undone_and_after_another_change(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _three_rounds(db)
    assert "nothing to redo" in refused(db, capsys, "redo")
    # undo, then a new round: the undone round is gone for good
    assert score(db, "undo") == 0
    assert score(db, "add-round", "--declarer", "Ann", "Ann=1", "Bob=2", "Cy=3") == 0
    assert "nothing to redo" in refused(db, capsys, "redo")
    # undo, then an edit: the same
    assert score(db, "undo") == 0
    assert score(db, "edit-round", "1", "--declarer", "Ann", "Ann=3", "Bob=9", "Cy=20") == 0
    assert "nothing to redo" in refused(db, capsys, "redo")
    # undo in another session does not touch this session's redo
    assert score(db, "undo") == 0
    assert score(db, "new", "one-card", "-p", "Ann", "-p", "Bob") == 0
    assert score(db, "redo", "--session", "1") == 0


def test_undo_with_no_rounds_is_refused(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert score(db, "new", "one-card", "-p", "Ann", "-p", "Bob") == 0
    assert "no rounds to undo" in refused(db, capsys, "undo")


def test_edit_round_rescores_the_later_rounds(db: Path) -> None:
    _three_rounds(db)
    before = session(db).standings
    assert [r.scores for r in before.rounds] == [
        {"Ann": 0, "Bob": 7, "Cy": 17},
        {"Ann": 3, "Bob": 0, "Cy": 6},
        {"Ann": 16, "Bob": 5, "Cy": 0},
    ]
    # round 1 becomes a false declaration by Ann: 20 + (15 - 10) = 25
    assert score(db, "edit-round", "1", "--declarer", "Ann", "Ann=15", "Bob=10", "Cy=20") == 0
    after = session(db).standings
    assert after.rounds[0].to_json()["scores"] == {"Ann": 25, "Bob": 0, "Cy": 0}
    assert after.rounds[0].to_json()["false_declaration"] is True
    assert [r.scores for r in after.rounds[1:]] == [r.scores for r in before.rounds[1:]]
    assert after.totals == {"Ann": 44, "Bob": 5, "Cy": 6}
    assert [r.dealer for r in after.rounds] == ["Cy", "Ann", "Bob"]
    assert check_file(db).good


def test_an_edit_can_unfinish_and_finish_a_game(db: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert score(db, "new", "least-score", "-p", "Ann", "-p", "Bob", "--limit", "25") == 0
    assert score(db, "add-round", "--declarer", "Ann", "Ann=1", "Bob=30") == 0  # Bob +29
    assert session(db).finished and session(db).standings.winners == ["Ann"]
    assert "finished" in refused(db, capsys, "add-round", "--declarer", "Ann", "Ann=1",
                                 "Bob=2")
    # an edit un-finishes it ...
    assert score(db, "edit-round", "1", "--declarer", "Ann", "Ann=1", "Bob=20") == 0
    assert not session(db).finished and session(db).standings.knocked_out == []
    assert score(db, "add-round", "--declarer", "Bob", "Ann=4", "Bob=3") == 0
    assert session(db).standings.totals == {"Ann": 1, "Bob": 19}
    # ... and an edit of the last round finishes it again, with the other winner
    assert score(db, "edit-round", "2", "--declarer", "Bob", "Ann=KS,QS,JS", "Bob=3") == 0
    finished = session(db)
    assert finished.finished and finished.standings.winners == ["Bob"]
    assert finished.standings.knocked_out == ["Ann"]
    assert check_file(db).good


def test_one_card_edits_move_the_end_of_the_game(db: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert score(db, "new", "one-card", "-p", "Ann", "-p", "Bob", "--target", "25") == 0
    for ann, bob in ((10, 5), (7, 8), (5, 10), (6, 9)):
        assert score(db, "add-round", "--no-bid", f"Ann={ann}", f"Bob={bob}") == 0
    assert session(db).standings.totals == {"Ann": 28, "Bob": 32}
    assert session(db).standings.winners == ["Bob"]
    # Bob's failed bid in round 4 gives the game to Ann
    assert score(db, "edit-round", "4", "--bidder", "Bob", "--bid", "12", "Ann=6",
                 "Bob=9") == 0
    assert session(db).standings.totals == {"Ann": 28, "Bob": 23}
    assert session(db).standings.winners == ["Ann"]
    # a tie at the top un-finishes it: everyone plays on
    assert score(db, "edit-round", "4", "--no-bid", "Ann=8", "Bob=7") == 0
    assert not session(db).finished and session(db).standings.totals == {"Ann": 30, "Bob": 30}
    assert score(db, "add-round", "--no-bid", "Ann=9", "Bob=6") == 0
    assert session(db).standings.winners == ["Ann"]
    assert score(db, "undo") == 0
    # an edit of round 1 that ends the game after round 3 makes round 4 impossible
    err = refused(db, capsys, "edit-round", "1", "--no-bid", "Ann=15", "Bob=0")
    assert "makes round 4 impossible" in err and "already over after round 3" in err
    assert "take them back first (`score undo` once), edit round 1" in err
    assert check_file(db).good


def test_an_edit_that_knocks_out_a_player_with_a_later_hand_is_refused(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert score(db, "new", "least-score", "-p", "Ann", "-p", "Bob", "-p", "Cy",
                 "--limit", "25") == 0
    assert score(db, "add-round", "--declarer", "Ann", "Ann=1", "Bob=2", "Cy=20") == 0
    assert score(db, "add-round", "--declarer", "Ann", "Ann=1", "Bob=2", "Cy=5") == 0
    assert session(db).standings.totals == {"Ann": 0, "Bob": 2, "Cy": 23}
    # Cy +29 in round 1 would knock Cy out there, but round 2 has a hand for Cy
    err = refused(db, capsys, "edit-round", "1", "--declarer", "Ann", "Ann=1", "Bob=2",
                  "Cy=30")
    assert "makes round 2 impossible" in err and "Cy is knocked out" in err
    # an edit of the round itself that is wrong is refused as that round's problem
    err = refused(db, capsys, "edit-round", "2", "--declarer", "Ann", "Ann=1", "Bob=2")
    assert "Cy" in err and "missing" in err
    err = refused(db, capsys, "edit-round", "3", "--declarer", "Ann", "Ann=1", "Bob=2",
                  "Cy=3")
    assert "there is no round 3" in err and "rounds 1 to 2" in err
    # undo round 2 first, and the same edit is accepted: Cy is out, Ann and Bob play on
    assert score(db, "undo") == 0
    assert score(db, "edit-round", "1", "--declarer", "Ann", "Ann=1", "Bob=2", "Cy=30") == 0
    standings = session(db).standings
    assert standings.knocked_out == ["Cy"] and standings.still_in == ["Ann", "Bob"]
    assert not standings.finished
    # and redo is gone: the edit was a change after the undo
    assert "nothing to redo" in refused(db, capsys, "redo")


def test_history_survives_export_and_import_as_a_new_log(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _three_rounds(db)
    capsys.readouterr()
    assert score(db, "export", "--format", "json") == 0
    exported: dict[str, Any] = json.loads(capsys.readouterr().out)
    file = tmp_path / "export.json"
    file.write_text(json.dumps(exported), encoding="utf-8")
    assert score(db, "import", "--again", str(file)) == 0
    copy = session(db)
    assert copy.id == 2 and copy.rounds == session(db, 1).rounds
    assert [h["change"] for h in copy.history] == ["new", "import"]
