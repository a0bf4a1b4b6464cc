"""Trust at the command line's edges (issue 9, points 1, 4 and 5).

* No input is read while the store's lock is held; a round typed at a prompt is
  written only over the session the player saw (compare-and-set).
* A committed write reports success whatever happens to its output.
* `export --output` can't destroy the store or its files, and writes atomically.
* Reading commands and refused commands create nothing on disk.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI, Refuse, Result, assert_one_line_error, players_args
from deadlines import SCALE

from scorekeeper import storage as storage_module
from scorekeeper.doctor import check_file
from scorekeeper.store import Store, backup_paths

ROUND = ("add-round", "--declarer", "Ann", "Ann=1", "Bob=5")


def start(ok: CLI, *names: str) -> None:
    ok("new", "least-score", *players_args(*(names or ("Ann", "Bob"))), "--limit", "500")


def folder_files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir()) if path.is_file()}


# --------------------------------------------------------------------------- 1. prompts


@pytest.mark.e2e
def test_add_round_asks_with_no_lock_held_and_refuses_if_the_session_changed_meanwhile(
    cli: CLI, db_path: Path, monkeypatch: pytest.MonkeyPatch, score_run: Callable[..., Result]
) -> None:
    """While one add-round waits at its prompt another terminal can write (no 30 s
    wait on the lock); the prompted round is then refused, not written over it."""
    assert cli("new", "least-score", *players_args("Ann", "Bob")).exit_code == 0
    concurrent: list[Result] = []

    def prompt(text: str = "") -> str:  # what the player types at each question
        if not concurrent:
            concurrent.append(score_run(*ROUND))
        return "Ann" if "declared" in text else "4"

    class Terminal:
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("builtins.input", prompt)
    monkeypatch.setattr(sys, "stdin", Terminal())
    monkeypatch.setattr(storage_module, "LOCK_TIMEOUT_SECONDS", 2.0)
    result = cli("add-round")
    assert concurrent[0].exit_code == 0, concurrent[0]
    assert "Round 1" in concurrent[0].stdout
    assert result.exit_code == 1
    assert_one_line_error(result)
    assert "changed by another score command while you were typing" in result.stderr
    rounds = Store(db_path).read().get(1).rounds
    assert [r.to_json() for r in rounds] == [{"declarer": "Ann", "totals": {"Ann": 1, "Bob": 5}}]
    # With nobody else writing, the asked round is recorded.
    concurrent.append(Result(0, "", ""))
    assert cli("add-round").exit_code == 0
    assert len(Store(db_path).read().get(1).rounds) == 2


# --------------------------------------------------------------------------- 4. output


def closed_pipe() -> int:
    """The write end of a pipe whose reader has already gone (``| true``)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    return write_end


def run_score(score_exe: Path, env: dict[str, str], *args: str, **options: Any) -> Result:
    done = subprocess.run([str(score_exe), *args], env=env, stderr=subprocess.PIPE,
                          stdin=subprocess.DEVNULL, timeout=60 * SCALE, text=True, **options)
    return Result(done.returncode, done.stdout or "", done.stderr)


@pytest.mark.e2e
def test_a_round_stored_before_the_reader_went_away_still_exits_0(
    score_exe: Path, score_env: dict[str, str], score_run: Callable[..., Result],
    db_path: Path,
) -> None:
    assert score_run("new", "least-score", "-p", "Ann", "-p", "Bob").exit_code == 0
    pipe = closed_pipe()
    try:
        done = run_score(score_exe, score_env, *ROUND, stdout=pipe)
    finally:
        os.close(pipe)
    assert done.exit_code == 0, done.stderr
    assert done.stderr == ""
    assert len(Store(db_path).read().get(1).rounds) == 1  # stored once, reported as stored


@pytest.mark.e2e
def test_a_full_disk_on_stdout_after_the_commit_is_a_note_not_a_failure(
    score_exe: Path, score_env: dict[str, str], score_run: Callable[..., Result],
    db_path: Path,
) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("needs /dev/full (Linux)")
    assert score_run("new", "least-score", "-p", "Ann", "-p", "Bob").exit_code == 0
    with open("/dev/full", "w") as full:
        done = run_score(score_exe, score_env, *ROUND, stdout=full)
        shown = run_score(score_exe, score_env, "show", stdout=full)
    assert done.exit_code == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("note: the change was saved") and done.stderr.count("\n") == 1
    assert len(Store(db_path).read().get(1).rounds) == 1
    # A reading command's output is its whole point: there, the failure is an error.
    assert shown.exit_code == 1
    assert_one_line_error(shown)
    assert "can't write the output" in shown.stderr


@pytest.mark.e2e
def test_with_stdout_closed_a_write_still_succeeds_once(
    score_exe: Path, score_env: dict[str, str], score_run: Callable[..., Result],
    db_path: Path,
) -> None:
    assert score_run("new", "least-score", "-p", "Ann", "-p", "Bob").exit_code == 0
    before = {path.name for path in db_path.parent.iterdir()}
    done = subprocess.run(
        ["/bin/sh", "-c", f'exec "{score_exe}" "$@" >&-', "score", *ROUND],
        env=score_env, capture_output=False, stderr=subprocess.PIPE, text=True, timeout=60 * SCALE)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert len(Store(db_path).read().get(1).rounds) == 1
    assert check_file(db_path).good
    assert {path.name for path in db_path.parent.iterdir()} <= before | {
        backup_paths(db_path)[0].name}


# --------------------------------------------------------------------------- 5. export -o


def test_export_refuses_to_write_over_the_store_or_its_files(
    ok: CLI, refuse: Refuse, db_path: Path, tmp_path: Path
) -> None:
    start(ok)
    ok(*ROUND)
    ok(*ROUND)
    link = tmp_path / "link-to-store.json"
    link.symlink_to(db_path)
    hard = tmp_path / "hard-link.json"
    os.link(db_path, hard)
    targets = {
        "the store": db_path,
        "its lock file": db_path.with_name(db_path.name + ".lock"),
        "one of its backups": backup_paths(db_path)[0],
        "the players' entries (score serve --entry)": db_path.with_name(
            db_path.name + ".entries.json"),
        "a backup not made yet": backup_paths(db_path)[4],
        "a temporary": db_path.with_name(f".{db_path.name}.abcd1234.tmp"),
        "a symlink to the store": link,
        "a hard link to the store": hard,
        "the store by another path": db_path.parent / ".." / db_path.parent.name / db_path.name,
    }
    for what, target in targets.items():
        before = folder_files(db_path.parent)
        result = refuse("export", "--format", "md", "--output", target, "--force")
        assert str(target) in result.stderr, what
        assert folder_files(db_path.parent) == before, what
    assert check_file(db_path).good


def test_export_refuses_an_existing_file_unless_forced(ok: CLI, refuse: Refuse,
                                                        tmp_path: Path) -> None:
    start(ok)
    ok(*ROUND)
    target = tmp_path / "game.md"
    target.write_text("my notes", encoding="utf-8")
    refuse("export", "--output", target, says=("already exists", "--force"))
    assert target.read_text(encoding="utf-8") == "my notes"
    os.chmod(target, 0o640)
    ok("export", "--output", target, "--force")
    assert "Ann" in target.read_text(encoding="utf-8")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    fresh = tmp_path / "fresh.json"
    ok("export", "--format", "json", "-o", fresh)
    assert json.loads(fresh.read_text(encoding="utf-8"))["players"] == ["Ann", "Bob"]
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_export_is_atomic_a_failed_write_keeps_the_old_file(
    ok: CLI, cli: CLI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    start(ok)
    target = tmp_path / "game.md"
    target.write_text("the previous export", encoding="utf-8")
    real_replace = os.replace

    def full_disk(source: Any, destination: Any) -> None:
        if Path(destination) == target:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_replace(source, destination)

    monkeypatch.setattr(os, "replace", full_disk)
    result = cli("export", "--output", target, "--force")
    assert result.exit_code == 1
    assert_one_line_error(result)
    assert "No space left on device" in result.stderr
    assert target.read_text(encoding="utf-8") == "the previous export"
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == ["game.md"]


# ------------------------------------------------------------ creating nothing on disk


def test_reading_and_refused_commands_create_nothing(cli: CLI, ok: CLI,
                                                     tmp_path: Path) -> None:
    missing = tmp_path / "not" / "yet" / "s.json"
    for args in (ROUND, ("use", "1"), ("undo",), ("redo",), ("edit-round", "1", "Ann=1"),
                 ("new", "least-score", "-p", "Ann"), ("show",), ("sessions",)):
        result = cli("--db", missing, *args)
        assert result.exit_code in (0, 1, 2), (args, result)
    assert not (tmp_path / "not").exists()

    folder = tmp_path / "kept"
    folder.mkdir()
    db = folder / "s.json"
    ok("--db", db, "new", "least-score", *players_args("Ann", "Bob"))
    db.with_name("s.json.lock").unlink()
    before = folder_files(folder)
    refused = [(*ROUND[:3], "Ann=1"), ("add-round", "--declarer", "Ann", "Ann=1", "Bob=999"),
               ("use", "7"), ("undo",), ("redo",), ("edit-round", "3", "Ann=1", "Bob=2"),
               ("new", "least-score", "-p", "Ann", "-p", "ann"),
               ("import", folder / "missing.json"), ("play", "--resume", "1"),
               ("play", "least-score", "--bot", "nobody", "--bot", "random")]
    for args in refused:
        result = cli("--db", db, *args)
        assert result.exit_code == 1, (args, result)
    for args in (("show",), ("sessions",), ("log",), ("export",), ("doctor",),
                 ("rules", "least-score")):
        assert cli("--db", db, *args).exit_code == 0, args
    assert folder_files(folder) == before
