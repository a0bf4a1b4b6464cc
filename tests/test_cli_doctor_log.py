"""`score doctor [--restore]` and `score log [ID]`."""

from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import CLI, Refuse, file_bytes

TIME = re.compile(r"\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2}( \d{4})?, \d\d:\d\d\b")
"""A time as `score log` shows it: Fri 29 Nov, 21:22 (the local time)."""


def backup(db_path: Path, n: int) -> Path:
    return db_path.with_name(f"{db_path.name}.bak{n}")


def three_writes(least, ok: CLI) -> None:
    least("Ann", "Bob")
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=5")
    ok("add-round", "--declarer", "Bob", "Ann=4", "Bob=2")


# --------------------------------------------------------------------------- doctor


def test_doctor_on_a_missing_store(ok: CLI, db_path: Path) -> None:
    result = ok("doctor")
    assert "does not exist yet" in result.stdout
    assert not db_path.exists() and list(db_path.parent.iterdir()) == []


def test_doctor_on_a_healthy_store(least, ok: CLI, db_path: Path) -> None:
    three_writes(least, ok)
    least("Cy", "Dan")
    before = file_bytes(db_path)
    result = ok("doctor")
    assert f"{db_path}: healthy — 2 sessions, 2 rounds" in result.stdout
    assert "backup scorekeeper.json.bak1: good" in result.stdout
    assert file_bytes(db_path) == before


def test_doctor_finds_damage_and_restore_brings_back_the_newest_good_backup(
    least, ok: CLI, cli: CLI, db_path: Path, summary
) -> None:
    three_writes(least, ok)
    newest_backup = file_bytes(backup(db_path, 1))
    db_path.write_text('{"sessions": {"1": {"game": "least', encoding="utf-8")  # truncated
    result = cli("doctor")
    assert result.exit_code == 1
    assert "1 problem:" in result.stdout and "damaged" in result.stdout
    assert "score doctor --restore" in result.stdout
    assert "Traceback" not in result.output
    result = ok("doctor", "--restore")
    assert "Restored scorekeeper.json.bak1 over scorekeeper.json" in result.stdout
    kept = [p for p in db_path.parent.iterdir() if ".replaced-" in p.name]
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8").startswith('{"sessions"')
    assert file_bytes(db_path) == newest_backup
    assert len(summary()["rounds"]) == 1  # the state before the last write
    assert "healthy" in ok("doctor").stdout


def test_doctor_finds_a_session_that_does_not_rescore(least, ok: CLI, cli: CLI,
                                                      db_path: Path) -> None:
    three_writes(least, ok)
    data = json.loads(db_path.read_text(encoding="utf-8"))
    data["sessions"]["1"]["rounds"][0]["totals"]["Bob"] = 0  # an impossible total
    db_path.write_text(json.dumps(data), encoding="utf-8")
    result = cli("doctor")
    assert result.exit_code == 1
    assert "session 1" in result.stdout and "impossible" in result.stdout


def test_doctor_restore_refuses_a_healthy_store_without_force(least, ok: CLI, refuse: Refuse,
                                                              db_path: Path, summary) -> None:
    three_writes(least, ok)
    refuse("doctor", "--restore", says=("healthy", "--force"))
    result = ok("doctor", "--restore", "--force")
    assert "Restored scorekeeper.json.bak1" in result.stdout
    assert len(summary()["rounds"]) == 1


def test_doctor_restore_without_a_good_backup(ok: CLI, refuse: Refuse, db_path: Path) -> None:
    db_path.write_text("not json at all", encoding="utf-8")
    refuse("doctor", "--restore", says="no good backup")


# --------------------------------------------------------------------------- log


def test_log_lists_every_change_with_its_time(least, ok: CLI, tmp_path: Path) -> None:
    least("Ann", "Bob")
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=5")
    ok("add-round", "--declarer", "Bob", "Ann=4", "Bob=2")
    ok("undo")
    ok("redo")
    ok("edit-round", "1", "--declarer", "Ann", "Ann=1", "Bob=6")
    text = ok("log").stdout
    assert "History" in text
    changes = [change for change in ("new", "add-round", "undo", "redo", "edit-round")
               if change in text]
    assert changes == ["new", "add-round", "undo", "redo", "edit-round"]
    lines = [line for line in text.splitlines() if TIME.search(line)]
    assert len(lines) == 6
    assert "round 1 was round 1: Ann declared; Ann +0, Bob +4" in text
    assert "removed round 2" in text and "brought back round 2" in text


def test_log_by_id_and_refusals(least, ok: CLI, refuse: Refuse) -> None:
    least("Ann", "Bob", extra=("--name", "first"))
    least("Cy", "Dan", extra=("--name", "second"))
    assert "first" in ok("log", "1").stdout
    assert "second" in ok("log").stdout
    refuse("log", "3", says="no session 3")


def test_log_with_no_store(refuse: Refuse, db_path: Path) -> None:
    refuse("log", says="no sessions")
    assert not db_path.exists()
