"""Trust at the edges of the store (issue 9, points 1, 6 and 8).

* Every write is a compare-and-set on the session revision the command read.
* The store file as users have it: symlinked, read-only, a FIFO, beside other
  stores' temporaries; a write that changes nothing writes nothing; `doctor
  --restore` turns OS errors into one line; a newer store is never rolled back;
  a session `doctor` calls damaged blocks writes.
* Writes check and re-serialise only what they touch.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI, Refuse, Result, assert_one_line_error, players_args
from deadlines import SCALE
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper import storage as storage_module
from scorekeeper import store as store_module
from scorekeeper.doctor import check_file
from scorekeeper.session import Session
from scorekeeper.store import SessionChanged, Store

ROUND = ("add-round", "--declarer", "Ann", "Ann=1", "Bob=5")


def start(ok: CLI, *names: str) -> None:
    ok("new", "least-score", *players_args(*(names or ("Ann", "Bob"))), "--limit", "500")


def folder_files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir()) if path.is_file()}


def stored(db: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(db.read_text(encoding="utf-8"))
    return data


# --------------------------------------------------------------------------- 1. revisions


def test_every_write_increments_the_session_revision(ok: CLI, db_path: Path) -> None:
    start(ok)
    assert stored(db_path)["sessions"]["1"]["revision"] == 1
    ok(*ROUND)
    ok(*ROUND)
    ok("undo")
    assert stored(db_path)["sessions"]["1"]["revision"] == 4
    assert Store(db_path).read().get(1).revision == 4
    start(ok, "Cy", "Dan")  # another session has its own count
    assert stored(db_path)["sessions"]["2"]["revision"] == 1
    assert stored(db_path)["sessions"]["1"]["revision"] == 4


def test_a_write_from_a_stale_read_is_refused_and_changes_nothing(ok: CLI,
                                                                  db_path: Path) -> None:
    start(ok)
    stale = Store(db_path).read().get(1)
    ok(*ROUND)  # another command writes the session meanwhile
    before = folder_files(db_path.parent)
    with pytest.raises(SessionChanged, match="changed by another score command"):
        Store(db_path).update(lambda view: view.put(stale))
    assert folder_files(db_path.parent) == before
    assert len(Store(db_path).read().get(1).rounds) == 1


# --------------------------------------------------------------------------- 6. the file


def test_a_symlinked_store_is_written_through_and_locked_at_its_target(
    ok: CLI, tmp_path: Path
) -> None:
    synced = tmp_path / "synced"
    synced.mkdir()
    real = synced / "scores.json"
    home = tmp_path / "home"
    home.mkdir()
    link = home / "scorekeeper.json"
    link.symlink_to(real)  # dangling until the first write
    ok("--db", link, "new", "least-score", *players_args("Ann", "Bob"))
    ok("--db", link, *ROUND)
    ok("--db", link, *ROUND)
    assert link.is_symlink() and link.resolve() == real
    assert real.is_file() and len(Store(link).read().get(1).rounds) == 2
    # lock, backups and temporaries live beside the real file, nothing beside the link
    assert sorted(p.name for p in home.iterdir()) == ["scorekeeper.json"]
    assert {p.name for p in synced.iterdir()} == {"scores.json", "scores.json.lock",
                                                  "scores.json.bak1", "scores.json.bak2"}
    assert Store(link).lock_path == synced / "scores.json.lock"
    assert "healthy" in ok("--db", link, "doctor").stdout


def test_a_read_only_store_is_refused_not_replaced(ok: CLI, refuse: Refuse,
                                                   db_path: Path) -> None:
    start(ok)
    ok(*ROUND)
    os.chmod(db_path, 0o444)
    before = folder_files(db_path.parent)
    inode = db_path.stat().st_ino
    for args in (ROUND, ("new", "one-card", "-p", "Cy", "-p", "Dan"), ("undo",)):
        result = refuse(*args, says=(str(db_path), "read-only"))
        assert "Nothing was changed" in result.stderr or "nothing was changed" in result.stderr
    assert folder_files(db_path.parent) == before
    assert db_path.stat().st_ino == inode and stat.S_IMODE(db_path.stat().st_mode) == 0o444
    assert "Ann" in ok("show").stdout  # reading it is fine


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX thing")
@pytest.mark.e2e
def test_a_fifo_as_the_store_is_refused_at_once(score_exe: Path, score_env: dict[str, str],
                                                db_path: Path) -> None:
    os.mkfifo(db_path)
    for args in (["show"], list(ROUND), ["new", "one-card", "-p", "A", "-p", "B"],
                 ["doctor"]):
        finished = subprocess.run([str(score_exe), *args], env=score_env, text=True,
                                  capture_output=True, stdin=subprocess.DEVNULL, timeout=30 * SCALE)
        done = Result(finished.returncode, finished.stdout, finished.stderr)
        assert done.exit_code == 1, (args, done)
        assert "Traceback" not in done.stderr
        if args != ["doctor"]:
            assert_one_line_error(done)
            assert "named pipe" in done.stderr
    assert stat.S_ISFIFO(db_path.lstat().st_mode)
    assert sorted(p.name for p in db_path.parent.iterdir()) == [db_path.name]


def test_cleanup_touches_only_this_stores_temporaries(ok: CLI, tmp_path: Path) -> None:
    db = tmp_path / "s.json"
    ok("--db", db, "new", "least-score", *players_args("Ann", "Bob"))
    in_flight = tmp_path / ".s.json.x.abcd1234.tmp"  # a write to s.json.x, in progress
    other = tmp_path / ".s.json.abcd1234.tmp.keep"
    own = tmp_path / ".s.json.abcd1234.tmp"  # left by a killed write to s.json
    for path in (in_flight, other, own):
        path.write_text("{}", encoding="utf-8")
    ok("--db", db, *ROUND)
    assert in_flight.exists() and other.exists()
    assert not own.exists()


def test_a_write_that_changes_nothing_writes_nothing(ok: CLI, db_path: Path) -> None:
    start(ok)
    ok(*ROUND)
    before = folder_files(db_path.parent)
    inode = db_path.stat().st_ino
    assert "is now the current session" in ok("use", "1").stdout
    assert folder_files(db_path.parent) == before  # no backup rotated, nothing rewritten
    assert db_path.stat().st_ino == inode


def newer_store_with_a_table(good: dict[str, Any]) -> bytes:
    newer = dict(good)
    newer["meta"] = {"1": {**good["meta"]["1"], "schema": store_module.SCHEMA_VERSION + 1}}
    newer["players"] = {"1": {"name": "Ann"}}
    return json.dumps(newer).encode()


def test_a_newer_store_that_adds_a_table_is_newer_and_never_rolled_back(
    ok: CLI, cli: CLI, refuse: Refuse, db_path: Path
) -> None:
    start(ok)
    ok(*ROUND)
    db_path.write_bytes(newer_store_with_a_table(stored(db_path)))
    before = folder_files(db_path.parent)
    refuse(*ROUND, says="newer scorekeeper")
    refuse("show", says="newer scorekeeper")
    result = cli("doctor")
    assert result.exit_code == 1 and "Upgrade scorekeeper" in result.stdout
    restore = cli("doctor", "--restore")
    assert restore.exit_code == 1 and "newer scorekeeper" in restore.stderr
    assert folder_files(db_path.parent) == before


def test_a_session_doctor_calls_damaged_blocks_writes(ok: CLI, cli: CLI, refuse: Refuse,
                                                     db_path: Path) -> None:
    start(ok)
    ok(*ROUND)
    start(ok, "Cy", "Dan")
    ok(*ROUND[:2], "Cy", "Cy=2", "Dan=3")
    data = stored(db_path)
    data["sessions"]["2"]["players"] = ["Cy", "cy"]  # two players share a name
    data["sessions"]["2"]["rounds"] = []
    data["sessions"]["2"]["first_dealer"] = None  # `new` drew one of Cy and Dan
    db_path.write_text(json.dumps(data), encoding="utf-8")
    assert "session 2: two players share a name" in cli("doctor").stdout
    before = folder_files(db_path.parent)
    for args in (["add-round", "-s", "1", "--declarer", "Ann", "Ann=1", "Bob=5"], ["use", "1"],
                 ["new", "one-card", "-p", "X", "-p", "Y"]):
        refuse(*args, says=("session 2 is damaged", "two players share a name"))
    assert folder_files(db_path.parent) == before  # the good backups stay


def test_a_session_edited_by_hand_is_checked_again_before_a_write(ok: CLI, refuse: Refuse,
                                                                 db_path: Path) -> None:
    """The digest kept for each checked session tells a hand edit: that session is
    re-scored before the next write, and refused if it no longer adds up."""
    start(ok)
    ok(*ROUND)
    start(ok, "Cy", "Dan")
    text = db_path.read_text(encoding="utf-8")
    assert text.count('"totals":{"Ann":1,"Bob":5}') == 1
    db_path.write_text(text.replace('"totals":{"Ann":1,"Bob":5}',
                                    '"totals":{"Ann":1,"Bob":-5}'), encoding="utf-8")
    before = folder_files(db_path.parent)
    refuse("add-round", "-s", "2", "--declarer", "Cy", "Cy=1", "Dan=5",
           says="session 1 is damaged")
    assert folder_files(db_path.parent) == before
    # An edit that keeps the session whole is accepted and kept as it is.
    db_path.write_text(text.replace('"name":""', '"name":"Renamed"', 1), encoding="utf-8")
    ok("add-round", "-s", "2", "--declarer", "Cy", "Cy=1", "Dan=5")
    assert Store(db_path).read().get(1).name == "Renamed"


# ---------------------------------------------------------------- doctor --restore


def damaged_with_backups(ok: CLI, db_path: Path) -> bytes:
    start(ok)
    for _ in range(3):
        ok(*ROUND)
    db_path.write_bytes(db_path.read_bytes()[:-30])
    return db_path.read_bytes()


def assert_restore_refused(cli: CLI, db_path: Path, says: str) -> None:
    before = folder_files(db_path.parent)
    result = cli("doctor", "--restore")
    assert result.exit_code == 1, result
    assert "Traceback" not in result.output
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("error: ")
    assert says in result.stderr, result.stderr
    after = folder_files(db_path.parent)
    after.pop(db_path.name + ".lock", None)
    before.pop(db_path.name + ".lock", None)
    assert after == before  # no temporary, no kept copy, the store as it was


def test_restore_on_a_full_disk_is_one_line_and_changes_nothing(
    ok: CLI, cli: CLI, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    damaged_with_backups(ok, db_path)

    def full(descriptor: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    assert_restore_refused(cli, db_path, "No space left on device")


def test_restore_in_a_read_only_folder_is_one_line(
    ok: CLI, cli: CLI, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    damaged_with_backups(ok, db_path)

    def read_only(*args: Any, **kwargs: Any) -> Any:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    monkeypatch.setattr(os, "link", read_only)
    assert_restore_refused(cli, db_path, "Permission denied")


def test_restore_with_an_unreadable_folder_is_one_line(
    ok: CLI, cli: CLI, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As if the folder had lost its permissions (chmod 000, which root would ignore)."""
    damaged_with_backups(ok, db_path)
    real_open, real_scandir = os.open, os.scandir

    def no_access(path: Any, *args: Any, **kwargs: Any) -> Any:
        if Path(path).parent == db_path.parent:
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_open(path, *args, **kwargs)

    def unlistable(path: Any = ".") -> Any:
        if Path(path) == db_path.parent:
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_scandir(path)

    monkeypatch.setattr(os, "open", no_access)
    monkeypatch.setattr(os, "scandir", unlistable)
    assert_restore_refused(cli, db_path, "Permission denied")


def test_restore_over_a_folder_is_one_line(ok: CLI, cli: CLI, db_path: Path) -> None:
    damaged_with_backups(ok, db_path)
    db_path.unlink()
    db_path.mkdir()
    result = cli("doctor", "--restore")
    assert result.exit_code == 1
    assert_one_line_error(result)
    assert "is a folder" in result.stderr
    assert db_path.is_dir() and not list(db_path.parent.glob("*.replaced-*"))


def test_restore_keeps_the_store_mode_and_uses_the_store_lock(
    ok: CLI, cli: CLI, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    damaged = damaged_with_backups(ok, db_path)
    os.chmod(db_path, 0o640)
    monkeypatch.setattr(storage_module, "LOCK_TIMEOUT_SECONDS", 0.2)
    from filelock import FileLock

    with FileLock(str(Store(db_path).lock_path)):
        assert_restore_refused(cli, db_path, "another score command")
    stale = db_path.with_name(f".{db_path.name}.zzzz9999.tmp")
    stale.write_text("half", encoding="utf-8")
    result = cli("doctor", "--restore")
    assert result.exit_code == 0, result
    assert stat.S_IMODE(db_path.stat().st_mode) == 0o640
    assert check_file(db_path).good and not stale.exists()
    assert [p.read_bytes() for p in db_path.parent.glob("*.replaced-*")] == [damaged]


# --------------------------------------------------------------------------- 8. speed


def test_a_write_re_scores_only_the_session_it_touches(
    ok: CLI, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for index in range(12):
        start(ok, f"A{index}", f"B{index}")
        ok("add-round", "--declarer", f"A{index}", f"A{index}=1", f"B{index}=5")
    ok("use", "3")
    before = stored(db_path)["sessions"]
    untouched_lines = [line for line in db_path.read_bytes().split(b"\n")
                       if line.startswith(b'"') and not line.startswith(b'"3"')
                       and b'"checked":' not in line  # not the meta line
                       and not line.startswith(b'"2": {"sessions"')]  # nor the record
    scored: list[tuple[str, ...]] = []
    real = Session.standings.func  # type: ignore[attr-defined]

    def counting(self: Session) -> Any:
        scored.append(self.players)
        return real(self)

    monkeypatch.setattr(Session, "standings", property(counting))
    ok("add-round", "--declarer", "A2", "A2=1", "B2=5")
    assert set(scored) == {("A2", "B2")}, scored
    after = stored(db_path)["sessions"]
    assert {k: v for k, v in after.items() if k != "3"} == \
        {k: v for k, v in before.items() if k != "3"}
    lines = db_path.read_bytes().split(b"\n")
    assert [line for line in untouched_lines if line not in lines] == []  # copied as they were


def test_doctor_still_re_scores_everything(ok: CLI, monkeypatch: pytest.MonkeyPatch) -> None:
    for index in range(3):
        start(ok, f"A{index}", f"B{index}")
    scored: list[tuple[str, ...]] = []
    real = Session.standings.func  # type: ignore[attr-defined]

    def counting(self: Session) -> Any:
        scored.append(self.players)
        return real(self)

    monkeypatch.setattr(Session, "standings", property(counting))
    ok("doctor")
    assert len(set(scored)) == 3


def test_tinydb_reads_the_store_and_the_store_reads_tinydb(ok: CLI, db_path: Path,
                                                           tmp_path: Path) -> None:
    from tinydb import TinyDB

    start(ok)
    ok(*ROUND)
    with TinyDB(db_path) as db:
        sessions = db.table("sessions").all()
        assert [s.doc_id for s in sessions] == [1]
        assert sessions[0]["players"] == ["Ann", "Bob"]
        assert db.table("meta").get(doc_id=1)["current"] == 1  # type: ignore[index]
    written_by_tinydb = tmp_path / "tinydb.json"
    with TinyDB(written_by_tinydb, indent=4) as db:
        db.table("meta").insert({"schema": 2, "current": 1})
        db.table("sessions").insert(stored(db_path)["sessions"]["1"])
    ok("--db", written_by_tinydb, *ROUND)
    assert len(Store(written_by_tinydb).read().get(1).rounds) == 2
    assert check_file(written_by_tinydb).good




json_text = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                               max_size=3),
    max_leaves=8,
)
table_strategy = st.dictionaries(
    st.sampled_from(["meta", "sessions", "_default", "other"]),
    st.dictionaries(st.integers(0, 99).map(str),
                    st.dictionaries(st.text(max_size=5), json_text, max_size=3)
                    .map(lambda doc: json.dumps(doc, ensure_ascii=False).encode()),
                    max_size=4),
    max_size=3,
)


@given(tables=table_strategy, cuts=st.lists(st.tuples(st.integers(0, 10_000),
                                                      st.sampled_from(list(b'\n,{}": x'))),
                                            max_size=3))
def test_the_line_layout_accepts_exactly_what_it_writes(
    tables: dict[str, dict[str, bytes]], cuts: list[tuple[int, int]]
) -> None:
    """Whatever the bytes, a file is taken in the one-document-per-line layout only if
    writing those documents back gives the very same bytes; and what it writes is the
    JSON it says. So copying the documents' text never turns a file into another."""
    raw = storage_module._render(tables)
    assert json.loads(raw) == {name: {key: json.loads(text) for key, text in docs.items()}
                               for name, docs in tables.items()}
    assert storage_module._split_layout(raw) == tables
    damaged = bytearray(raw)
    for position, byte in cuts:  # insert, replace or delete a structural byte
        at = position % (len(damaged) + 1)
        if byte == ord("x") and at < len(damaged):
            del damaged[at]
        else:
            damaged[at:at] = bytes([byte])
    split = storage_module._split_layout(bytes(damaged))
    if split is not None:
        assert storage_module._render(split) == bytes(damaged)
