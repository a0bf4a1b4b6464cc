"""The store file: atomic writes, backups, locking, schema, and refusing files it can't trust."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest
from conftest import CLI, Refuse, assert_one_line_error, file_bytes, players_args
from filelock import FileLock, Timeout

from scorekeeper import files
from scorekeeper import storage as storage_module
from scorekeeper.store import (
    BACKUPS,
    SCHEMA_VERSION,
    Store,
    backup_paths,
    resolve_path,
    write_atomically,
)


def writes(ok: CLI, count: int) -> None:
    ok("new", "least-score", *players_args("Ann", "Bob"), "--limit", "500")
    for _ in range(count - 1):
        ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=5")


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# --------------------------------------------------------------------------- writing


def test_atomic_writes_leave_no_temporary_files(ok: CLI, db_path: Path) -> None:
    writes(ok, 4)
    assert leftovers(db_path.parent) == []
    names = {p.name for p in db_path.parent.iterdir()}
    assert names <= {db_path.name, f"{db_path.name}.lock",
                     *(p.name for p in backup_paths(db_path))}


def test_a_failed_replace_leaves_the_old_file_and_no_temporary(
    ok: CLI, cli: CLI, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    writes(ok, 2)
    before = file_bytes(db_path)
    real_replace = os.replace

    def crash(source: object, target: object) -> None:
        if Path(str(target)) == db_path:
            raise OSError(28, "No space left on device")
        real_replace(source, target)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", crash)
    result = cli("add-round", "--declarer", "Ann", "Ann=1", "Bob=5")
    assert result.exit_code == 1
    assert_one_line_error(result)
    assert str(db_path) in result.stderr and "No space left on device" in result.stderr
    assert file_bytes(db_path) == before
    assert leftovers(db_path.parent) == []


def test_stale_temporaries_of_a_killed_writer_are_removed(ok: CLI, db_path: Path) -> None:
    writes(ok, 1)
    stale = db_path.parent / f".{db_path.name}.abc12_xy.tmp"  # as mkstemp names them
    stale.write_text("half a file", encoding="utf-8")
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=5")
    assert not stale.exists()


def test_backups_rotate_and_stop_at_five(ok: CLI, db_path: Path) -> None:
    versions: list[bytes | None] = []
    ok("new", "least-score", *players_args("Ann", "Bob"), "--limit", "500")
    for _ in range(BACKUPS + 3):
        versions.append(file_bytes(db_path))
        ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=5")
    assert BACKUPS == 5
    for n, path in enumerate(backup_paths(db_path), start=1):
        assert path.read_bytes() == versions[-n], f"bak{n} is not the version {n} writes ago"
    assert not db_path.with_name(f"{db_path.name}.bak6").exists()
    assert sorted(p.name for p in db_path.parent.glob("*.bak*")) == [
        f"{db_path.name}.bak{n}" for n in range(1, 6)
    ]


def test_first_write_makes_no_backup(ok: CLI, db_path: Path) -> None:
    writes(ok, 1)
    assert not any(p.exists() for p in backup_paths(db_path))


def test_schema_version_and_current_session_are_in_the_file(ok: CLI, db_path: Path) -> None:
    writes(ok, 1)
    ok("new", "one-card", *players_args("Cy", "Dan"))
    ok("use", "1")
    data = json.loads(db_path.read_text(encoding="utf-8"))
    assert data["meta"]["1"]["schema"] == SCHEMA_VERSION
    assert data["meta"]["1"]["current"] == 1
    assert set(data["sessions"]) == {"1", "2"}
    assert data["sessions"]["2"]["game"] == "one-card"


def test_an_older_schema_is_migrated_on_the_next_write(ok: CLI, db_path: Path) -> None:
    old = {
        "meta": {"1": {"schema": 1, "current": 1}},
        "sessions": {"1": {
            "game": "least-score", "name": "old", "mode": "table", "players": ["Ann", "Bob"],
            "options": {"limit": 100, "tie": "declarer-wins", "end": "last-standing",
                        "two_pairs": "same-rank"},
            "first_dealer": None, "created": "2025-01-01T20:00:00+01:00",
            "rounds": [{"declarer": "Ann", "totals": {"Ann": 3, "Bob": 9}}],
        }},
    }
    db_path.write_text(json.dumps(old), encoding="utf-8")
    assert "+6 =6" in ok("show").stdout
    assert json.loads(db_path.read_text(encoding="utf-8")) == old  # reading changes nothing
    ok("add-round", "--declarer", "Bob", "Ann=5", "Bob=2")
    data = json.loads(db_path.read_text(encoding="utf-8"))
    assert data["meta"]["1"]["schema"] == SCHEMA_VERSION
    session = data["sessions"]["1"]
    assert session["history"][0]["change"] == "new"
    assert session["undone"] == [] and len(session["rounds"]) == 2


# --------------------------------------------------------------------------- reading


READING = [["sessions"], ["show"], ["show", "1"], ["log"], ["export", "--format", "json"],
           ["rules", "least-score"], ["doctor"]]


def test_reading_never_creates_the_file_or_its_folder(cli: CLI, tmp_path: Path) -> None:
    path = tmp_path / "not" / "yet" / "scorekeeper.json"
    for args in READING:
        result = cli("--db", path, *args)
        assert result.exit_code in (0, 1), (args, result)
        assert "Traceback" not in result.output
    assert not (tmp_path / "not").exists()


def test_the_folder_is_created_on_first_write(ok: CLI, tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "s.json"
    ok("--db", path, "new", "least-score", *players_args("Ann", "Bob"))
    assert path.exists()


def test_db_option_wins_over_the_environment(ok: CLI, db_path: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    ok("--db", other, "new", "least-score", *players_args("Ann", "Bob"))
    assert other.exists() and not db_path.exists()
    assert "No sessions yet" in ok("sessions").stdout  # SCOREKEEPER_DB: still empty
    assert "Ann, Bob" in ok("--db", other, "sessions").stdout
    assert resolve_path(str(other)) == other
    assert resolve_path(None) == db_path


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG folders")
def test_default_store_is_in_the_user_data_folder(ok: CLI, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCOREKEEPER_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    expected = tmp_path / "xdg" / "scorekeeper" / "scorekeeper.json"
    assert resolve_path(None) == expected
    ok("sessions")
    assert not (tmp_path / "xdg").exists()
    ok("new", "least-score", *players_args("Ann", "Bob"))
    assert expected.exists()


@pytest.mark.e2e
def test_the_real_score_picks_db_over_the_environment(score_run, db_path: Path,
                                                      tmp_path: Path) -> None:
    other = tmp_path / "via-option.json"
    result = score_run("--db", other, "new", "one-card", "-p", "Ann", "-p", "Bob")
    assert result.exit_code == 0, result
    assert other.exists() and not db_path.exists()


# --------------------------------------------------------------------------- locking


def test_a_writer_waits_for_the_lock_then_gives_up(
    ok: CLI, refuse: Refuse, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    writes(ok, 1)
    lock_path = Store(db_path).lock_path
    assert lock_path == db_path.with_name("scorekeeper.json.lock")
    monkeypatch.setattr(storage_module, "LOCK_TIMEOUT_SECONDS", 0.2)
    with FileLock(str(lock_path)):
        refuse("add-round", "--declarer", "Ann", "Ann=1", "Bob=5",
               says=(str(lock_path), "try again"))
        # readers need no lock
        assert "Ann" in ok("show").stdout
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=5")


def test_the_store_lock_and_filelock_exclude_each_other(db_path: Path) -> None:
    """The store takes its lock with flock itself (files.acquire_lock), the lock
    filelock's FileLock takes: either one held keeps the other out until released."""
    lock_path = Store(db_path).lock_path
    ours = files.acquire_lock(lock_path, 0)
    assert ours is not None
    try:
        with pytest.raises(Timeout):
            FileLock(str(lock_path), timeout=0.1).acquire()
    finally:
        files.release_lock(ours)
    with FileLock(str(lock_path), timeout=1):
        assert files.acquire_lock(lock_path, 0.1) is None
    again = files.acquire_lock(lock_path, 0)  # free once both have let go
    assert again is not None
    files.release_lock(again)


def test_a_lock_that_cant_be_made_is_refused(ok: CLI, refuse: Refuse, db_path: Path) -> None:
    writes(ok, 1)
    lock_path = Store(db_path).lock_path
    lock_path.unlink(missing_ok=True)
    lock_path.mkdir()  # the lock file can't be opened (as root too)
    refuse("add-round", "--declarer", "Ann", "Ann=1", "Bob=5",
           says=("can't lock", "Is a directory"))


# --------------------------------------------------------------------------- files it can't trust


UNTRUSTED = {
    "damaged": b'{"sessions": {"1": {"game": "least-score", "pla',
    "empty": b"",
    "foreign": b'{"users": [{"name": "Ann"}]}',
    "foreign-list": b"[1, 2, 3]",
    "tinydb-but-not-ours": b'{"_default": {"1": {"x": 1}}}',
    "newer-schema": json.dumps({"meta": {"1": {"schema": SCHEMA_VERSION + 1, "current": 1}},
                                "sessions": {}}).encode(),
    "binary": bytes(range(256)),
}
COMMANDS = [
    ["new", "least-score", "-p", "Ann", "-p", "Bob"],
    ["add-round", "--declarer", "Ann", "Ann=1", "Bob=5"],
    ["sessions"],
    ["show"],
    ["use", "1"],
    ["undo"],
    ["export", "--format", "json"],
]


@pytest.mark.parametrize("kind", list(UNTRUSTED))
def test_untrusted_files_are_refused_and_never_overwritten(refuse: Refuse, db_path: Path,
                                                           kind: str) -> None:
    db_path.write_bytes(UNTRUSTED[kind])
    for args in COMMANDS:
        result = refuse(*args)
        assert str(db_path) in result.stderr, (kind, args, result.stderr)
    if kind == "newer-schema":
        assert "newer scorekeeper" in result.stderr
    assert sorted(p.name for p in db_path.parent.iterdir()) in (
        [db_path.name], [db_path.name, f"{db_path.name}.lock"])


def test_a_damaged_session_is_refused_not_rendered(ok: CLI, refuse: Refuse,
                                                   db_path: Path) -> None:
    writes(ok, 2)
    data = json.loads(db_path.read_text(encoding="utf-8"))
    data["sessions"]["1"]["rounds"][0]["totals"]["Bob"] = 99
    db_path.write_text(json.dumps(data), encoding="utf-8")
    for args in (["show"], ["add-round", "--declarer", "Ann", "Ann=1", "Bob=5"]):
        result = refuse(*args)
        assert "session 1" in result.stderr and "doctor" in result.stderr


@pytest.mark.e2e
def test_the_real_score_refuses_a_damaged_file(score_run, db_path: Path) -> None:
    db_path.write_bytes(UNTRUSTED["damaged"])
    result = score_run("add-round", "--declarer", "Ann", "Ann=1", "Bob=5")
    assert result.exit_code == 1
    assert "Traceback" not in result.stdout + result.stderr
    assert len(result.stderr.splitlines()) == 1 and str(db_path) in result.stderr
    assert db_path.read_bytes() == UNTRUSTED["damaged"]


def test_a_write_keeps_the_mode_of_the_store(tmp_path: Path) -> None:
    store_file = tmp_path / "scorekeeper.json"
    store_file.write_text("{}", encoding="utf-8")
    os.chmod(store_file, 0o640)
    write_atomically(store_file, "{}")
    assert stat.S_IMODE(store_file.stat().st_mode) == 0o640
    fresh = tmp_path / "new.json"
    write_atomically(fresh, "{}")
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~umask
