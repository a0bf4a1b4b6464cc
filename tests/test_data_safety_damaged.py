"""Data that is never lost: damaged and foreign store files, backups and `score doctor`.

A store file that is truncated, not JSON, binary, someone else's JSON (a list, an
object of other things, another app's TinyDB file), written by a newer
scorekeeper, or holding a damaged session is never used and never changed: every
reading and writing command refuses with one line that names the file and says
what to do, exit 1, no traceback, and the file stays byte-for-byte the same (no
backup is rotated, no temporary file is left).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from deadlines import SCALE

from scorekeeper.cli.app import run
from scorekeeper.doctor import check_file
from scorekeeper.store import Store, backup_paths

SAMPLES = Path(__file__).resolve().parent.parent / "sample_sessions"


def make_good_store(db: Path) -> None:
    """Session 1: Least Score, 3 rounds; session 2 (current): One Card, 2 rounds."""
    commands = [
        ["new", "least-score", "-p", "Ann", "-p", "Bob", "-p", "Cy", "--name", "Friday",
         "--dealer", "Ann"],
        ["add-round", "--declarer", "Bob", "Ann=7", "Bob=3", "Cy=AH,2S,9D"],
        ["add-round", "--declarer", "Cy", "Ann=9", "Bob=12", "Cy=4"],
        ["add-round", "--declarer", "Ann", "Ann=2", "Bob=30", "Cy=5"],
        ["new", "one-card", "-p", "Ann", "-p", "Bob", "-p", "Cy", "--dealer", "Cy"],
        ["add-round", "--bidder", "Bob", "--bid", "7", "--trump", "S", "Ann=4", "Bob=8",
         "Cy=3"],
        ["add-round", "--no-bid", "Ann=5", "Bob=5", "Cy=5"],
    ]
    for argv in commands:
        assert run(["--db", str(db), *argv]) == 0


def score(db: Path, *argv: str) -> int:
    return run(["--db", str(db), *argv])


def _with_meta(good: bytes, **meta: object) -> bytes:
    data = json.loads(good)
    data["meta"]["1"].update(meta)
    return json.dumps(data, indent=1).encode()


def _with_session_change(good: bytes, change: Callable[[dict[str, object]], None]) -> bytes:
    data = json.loads(good)
    change(data["sessions"][str(data["meta"]["1"]["current"])])
    return json.dumps(data, indent=1).encode()


def _garbage() -> bytes:
    rng = random.Random(7)
    return b"\x89PNG\r\n\x1a\n\x00\xff\xfe" + bytes(rng.randrange(256) for _ in range(3000))


DAMAGES: dict[str, Callable[[bytes], bytes]] = {
    "truncated JSON": lambda good: good[: len(good) // 2],
    "truncated to nothing": lambda good: b"",
    "a text file": lambda good: b"Shopping list:\n- milk\n- eggs\n",
    "binary garbage": lambda good: _garbage(),
    "a JSON list": lambda good: b"[1, 2, 3]\n",
    "a JSON object of other things": lambda good: json.dumps(
        {"name": "my notes", "items": ["milk", "eggs"], "count": 2}).encode(),
    "another app's TinyDB file": lambda good: json.dumps(
        {"_default": {"1": {"title": "buy milk", "done": False}},
         "todos": {"1": {"title": "call Bob"}}}).encode(),
    "another app's TinyDB file with a meta table": lambda good: json.dumps(
        {"_default": {"1": {"title": "buy milk"}}, "meta": {"1": {"version": 3}}}).encode(),
    "a store whose tables hold lists": lambda good: json.dumps(
        {"sessions": [1, 2], "meta": {"1": {"schema": 2}}}).encode(),
    "a session id that is not a number": lambda good: json.dumps(
        {"sessions": {"¹": json.loads(good)["sessions"]["1"]},
         "meta": {"1": {"schema": 2, "current": 1}}}).encode(),
    "a newer schema": lambda good: _with_meta(good, schema=3),
    # (a session of a game that is not installed is not damage: tests/test_game_missing.py)
    "a session whose game is not a name": lambda good: _with_session_change(
        good, lambda s: s.update(game=["chess"])),
    "a session without players": lambda good: _with_session_change(
        good, lambda s: s.pop("players")),
    "a session whose rounds are not objects": lambda good: _with_session_change(
        good, lambda s: s.update(rounds=[1, "two", None])),
}

READING = {
    "show": ["show"],
    "sessions": ["sessions"],
    "export": ["export", "--format", "json"],
    "log": ["log"],
}
WRITING = {
    "add-round": ["add-round", "--no-bid", "Ann=5", "Bob=5", "Cy=5"],
    "new": ["new", "least-score", "-p", "Xena", "-p", "Yuri"],
    "undo": ["undo"],
    "redo": ["redo"],
    "edit-round": ["edit-round", "1", "--no-bid", "Ann=5", "Bob=5", "Cy=5"],
    "use": ["use", "1"],
    "import": ["import", str(SAMPLES / "one-card-game.json")],
}


@pytest.fixture(scope="module")
def good_bytes(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    db = tmp_path_factory.mktemp("good") / "store.json"
    make_good_store(db)
    return db.read_bytes()


def listing(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())
            if not path.name.endswith(".lock")}


def assert_refused_cleanly(err: str, db: Path, damage: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    line = lines[0]
    assert line.startswith("error: ") and "Traceback" not in err
    assert str(db) in line, f"the message does not name the file: {line}"
    if damage == "a newer schema":
        assert "newer scorekeeper" in line and "upgrade" in line
    else:
        assert any(hint in line for hint in ("score doctor", "--db", "move")), line


@pytest.mark.parametrize("damage", DAMAGES)
@pytest.mark.parametrize("command", [*READING, *WRITING])
def test_damaged_or_foreign_store_is_refused_and_left_alone(
    tmp_path: Path, good_bytes: bytes, damage: str, command: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    db = tmp_path / "store.json"
    db.write_bytes(DAMAGES[damage](good_bytes))
    before = listing(tmp_path)
    capsys.readouterr()
    argv = READING.get(command) or WRITING[command]
    code = score(db, *argv)
    out, err = capsys.readouterr()
    assert code == 1, (out, err)
    assert_refused_cleanly(err, db, damage)
    assert listing(tmp_path) == before  # byte-for-byte, no backup, no temporary file
    if command in READING:
        assert not db.with_name(db.name + ".lock").exists()  # reading takes no lock


@pytest.mark.parametrize("damage", DAMAGES)
@pytest.mark.e2e
def test_the_real_command_refuses_in_one_line_without_a_traceback(
    tmp_path: Path, good_bytes: bytes, damage: str
) -> None:
    db = tmp_path / "store.json"
    db.write_bytes(DAMAGES[damage](good_bytes))
    before = listing(tmp_path)
    executable = Path(sys.executable).with_name("score")
    env = {key: value for key, value in os.environ.items() if key != "SCOREKEEPER_DB"}
    env["SCOREKEEPER_DB"] = str(db)  # the environment variable picks the store too
    for argv in (["show"], ["add-round", "--no-bid", "Ann=5", "Bob=5", "Cy=5"]):
        done = subprocess.run([str(executable), *argv], capture_output=True, text=True,
                              env=env, timeout=60 * SCALE)
        assert done.returncode == 1, done.stderr
        assert "Traceback" not in done.stderr
        assert_refused_cleanly(done.stderr, db, damage)
        assert done.stdout == ""
        assert listing(tmp_path) == before


def test_a_damaged_session_only_blocks_that_session_for_reading(
    tmp_path: Path, good_bytes: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "store.json"
    db.write_bytes(DAMAGES["a session without players"](good_bytes))
    assert score(db, "show", "1") == 0
    assert "Friday" in capsys.readouterr().out
    # writing to the good session is refused too: the store is damaged, and writing
    # would push the good backups out one by one
    before = db.read_bytes()
    assert score(db, "add-round", "-s", "1", "--declarer", "Ann", "Ann=1", "Bob=2",
                 "Cy=3") == 1
    assert "session 2 is damaged" in capsys.readouterr().err
    assert db.read_bytes() == before


# ---------------------------------------------------------------------------
# Backups


def test_the_last_five_versions_are_kept_beside_the_store(tmp_path: Path) -> None:
    db = tmp_path / "store.json"
    versions: list[bytes] = []
    assert score(db, "new", "least-score", "-p", "Ann", "-p", "Bob") == 0
    versions.append(db.read_bytes())
    assert not any(path.exists() for path in backup_paths(db))  # nothing to back up yet
    for value in range(1, 9):
        assert score(db, "add-round", "--declarer", "Ann", f"Ann={value}", f"Bob={value}") == 0
        versions.append(db.read_bytes())
        kept = [path for path in backup_paths(db) if path.exists()]
        assert len(kept) == min(value, 5)
    # .bak1 is the version before the last write, .bak5 five writes back; never a .bak6
    for n, backup in enumerate(backup_paths(db), start=1):
        assert backup.read_bytes() == versions[-1 - n]
        assert check_file(backup).good
    assert not db.with_name(db.name + ".bak6").exists()
    assert len(Store(db).read().get(1).rounds) == 8
    assert not list(tmp_path.glob(".store.json.*.tmp"))


def test_a_refused_entry_rotates_no_backup(tmp_path: Path) -> None:
    db = tmp_path / "store.json"
    make_good_store(db)
    before = listing(tmp_path)
    assert score(db, "add-round", "--no-bid", "Ann=5", "Bob=5", "Cy=6") == 1  # 16 points
    assert listing(tmp_path) == before


# ---------------------------------------------------------------------------
# score doctor


def doctor(db: Path, *options: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    capsys.readouterr()
    code = score(db, "doctor", *options)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, " ".join((out + err).split())  # as one line, whatever the console width


def test_doctor_says_healthy_on_a_good_store(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "store.json"
    make_good_store(db)
    code, text = doctor(db, capsys=capsys)
    assert code == 0
    assert "healthy" in text and "2 sessions" in text and "5 rounds" in text
    assert "bak1: good" in text


def test_doctor_on_a_missing_store_is_not_a_problem(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "nothing.json"
    code, text = doctor(db, capsys=capsys)
    assert code == 0 and "does not exist" in text
    assert not db.exists()


@pytest.mark.parametrize("damage", DAMAGES)
def test_doctor_reports_a_damaged_store(tmp_path: Path, good_bytes: bytes, damage: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "store.json"
    db.write_bytes(DAMAGES[damage](good_bytes))
    before = listing(tmp_path)
    code, text = doctor(db, capsys=capsys)
    assert code == 1, text
    # A newer schema is not damage: the advice is to upgrade, not to roll back.
    advice = "Upgrade scorekeeper" if damage == "a newer schema" else "score doctor --restore"
    assert "problem" in text and advice in text
    assert listing(tmp_path) == before


def test_doctor_finds_a_session_that_does_not_re_score(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "store.json"
    make_good_store(db)
    data = json.loads(db.read_text())
    data["sessions"]["2"]["rounds"][0]["points"]["Ann"] = 40  # 44 points in the deck
    db.write_text(json.dumps(data))
    code, text = doctor(db, capsys=capsys)
    assert code == 1
    assert "session 2" in text and "round 1" in text


def _damaged_with_backups(tmp_path: Path) -> tuple[Path, list[bytes]]:
    db = tmp_path / "store.json"
    make_good_store(db)  # 7 writes: five backups
    versions = [path.read_bytes() for path in backup_paths(db)]
    db.write_bytes(db.read_bytes()[:-40])  # truncated
    return db, versions


def test_doctor_restore_brings_back_the_newest_good_backup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, backups = _damaged_with_backups(tmp_path)
    damaged = db.read_bytes()
    code, text = doctor(db, "--restore", capsys=capsys)
    assert code == 0, text
    assert "Restored store.json.bak1" in text
    assert db.read_bytes() == backups[0]
    kept = list(tmp_path.glob("store.json.replaced-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == damaged  # the damaged file is kept
    assert f"kept as {kept[0].name}" in text
    code, text = doctor(db, capsys=capsys)
    assert code == 0 and "healthy" in text
    # and the restored store is usable
    assert score(db, "add-round", "--no-bid", "Ann=5", "Bob=5", "Cy=5") == 0
    assert check_file(db).good


def test_doctor_restore_skips_damaged_backups(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    db, backups = _damaged_with_backups(tmp_path)
    bak1, bak2 = backup_paths(db)[:2]
    bak1.write_bytes(b"{\"sessions\": ")
    code, text = doctor(db, capsys=capsys)
    assert code == 1 and "bak1: damaged" in text and "bak2: good" in text
    code, text = doctor(db, "--restore", capsys=capsys)
    assert code == 0
    assert db.read_bytes() == bak2.read_bytes() == backups[1]


def test_doctor_restore_refuses_a_healthy_store_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "store.json"
    make_good_store(db)
    before = listing(tmp_path)
    code, text = doctor(db, "--restore", capsys=capsys)
    assert code == 1
    assert "healthy" in text and "--force" in text
    assert listing(tmp_path) == before
    healthy = db.read_bytes()
    bak1 = backup_paths(db)[0].read_bytes()
    code, text = doctor(db, "--restore", "--force", capsys=capsys)
    assert code == 0, text
    assert db.read_bytes() == bak1
    kept = list(tmp_path.glob("store.json.replaced-*"))
    assert [path.read_bytes() for path in kept] == [healthy]  # the dropped changes are kept
    # forcing again at once (within the same second) keeps both replaced files
    code, text = doctor(db, "--restore", "--force", capsys=capsys)
    assert code == 0, text
    assert sorted(path.read_bytes() for path in tmp_path.glob("store.json.replaced-*")) \
        == sorted([healthy, bak1])


def test_doctor_restore_without_a_good_backup_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "store.json"
    db.write_bytes(b"[1, 2")
    before = listing(tmp_path)
    code, text = doctor(db, "--restore", capsys=capsys)
    assert code == 1
    assert "no good backup" in text and str(db) in text
    assert listing(tmp_path) == before


def test_a_stale_lock_file_does_not_block(tmp_path: Path) -> None:
    """A lock file left behind by a killed process is not a held lock."""
    db = tmp_path / "store.json"
    make_good_store(db)
    db.with_name(db.name + ".lock").write_text("12345")
    assert score(db, "add-round", "--no-bid", "Ann=5", "Bob=5", "Cy=5") == 0


def test_a_store_in_a_missing_folder_is_created_on_first_write_only(tmp_path: Path) -> None:
    db = tmp_path / "deep" / "er" / "store.json"
    assert score(db, "sessions") == 0
    assert score(db, "show") == 1
    assert not (tmp_path / "deep").exists()  # reading never creates the file or folder
    assert score(db, "new", "one-card", "-p", "Ann", "-p", "Bob") == 0
    assert check_file(db).good
    shutil.rmtree(tmp_path / "deep")


def test_doctor_says_upgrade_not_restore_for_a_newer_store(tmp_path: Path) -> None:
    """A newer schema is not damage: restoring an older backup would lose data."""
    from scorekeeper.cli.app import run

    db = tmp_path / "scorekeeper.json"
    assert run(["--db", str(db), "new", "one-card", "--player", "A", "--player", "B"]) == 0
    assert run(["--db", str(db), "add-round", "--no-bid", "A=7", "B=8"]) == 0
    data = json.loads(db.read_text(encoding="utf-8"))
    data["meta"]["1"]["schema"] = 99
    db.write_text(json.dumps(data), encoding="utf-8")
    before = db.read_bytes()
    assert run(["--db", str(db), "doctor"]) == 1
    assert run(["--db", str(db), "doctor", "--restore"]) == 1
    assert db.read_bytes() == before
