"""`score sync DIR`: stores kept in step through a folder (or a git remote), each night
counted once (issue 39, items 1 and 2)."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI, Result, assert_one_line_error, file_bytes
from deadlines import SCALE

from scorekeeper import sync as sync_module
from scorekeeper.doctor import check_file


class Device:
    """One store: ``a("sessions")`` runs ``score --db <its file> sessions`` in-process."""

    def __init__(self, cli: CLI, path: Path) -> None:
        self.cli = cli
        self.path = path

    def __call__(self, *args: Any) -> Result:
        return self.cli("--db", self.path, *args)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    shared = tmp_path / "shared"
    shared.mkdir()
    return shared


@pytest.fixture
def device(cli: CLI, tmp_path: Path) -> Callable[[str], Device]:
    """``device("a")``: the store <tmp>/a.json."""
    return lambda name: Device(cli, tmp_path / f"{name}.json")


def ok(result: Result) -> Result:
    assert result.exit_code == 0, result
    return result


def least_night(run: Device, *players: str, rounds: int = 1) -> None:
    args: list[str] = []
    for name in players:
        args += ["--player", name]
    ok(run("new", "least-score", *args))
    for number in range(rounds):
        ok(run("add-round", "--declarer", players[0], f"{players[0]}=1",
               *(f"{name}={number + 5}" for name in players[1:])))


def exports(run: Device) -> list[dict[str, Any]]:
    """Every session's JSON export, without its local id, in a stable order."""
    listed = ok(run("sessions", "--json")).json()["sessions"]
    found = []
    for entry in listed:
        data = json.loads(ok(run("export", entry["id"], "--format", "json")).stdout)
        data.pop("id")
        found.append(data)
    return sorted(found, key=lambda data: data["uid"])


def files_of(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def test_two_stores_through_a_folder_hold_the_same_sessions(device: Any, folder: Path) -> None:
    a, b = device("a"), device("b")
    least_night(a, "Ann", "Bob", rounds=2)
    least_night(b, "Cy", "Dan")
    first = ok(a("sync", folder))
    assert "In step: 1 session with 0 other devices." in first.stdout
    ok(b("sync", folder))
    assert "came from another device" in ok(a("sync", folder)).stdout
    assert exports(a) == exports(b)
    assert len(exports(a)) == 2
    # the current session stays the one each store had
    assert ok(a("sessions", "--json")).json()["current"] == 1
    # sync twice: nothing changes, neither the stores nor the folder
    before = (file_bytes(a.path), file_bytes(b.path), files_of(folder))
    ok(a("sync", folder))
    ok(b("sync", folder))
    assert (file_bytes(a.path), file_bytes(b.path), files_of(folder)) == before


def test_each_store_writes_only_its_own_file(device: Any, folder: Path) -> None:
    a, b = device("a"), device("b")
    least_night(a, "Ann", "Bob")
    least_night(b, "Cy", "Dan")
    ok(a("sync", folder))
    mine = files_of(folder)
    ok(b("sync", folder))
    after = files_of(folder)
    assert {k: v for k, v in after.items() if k in mine} == mine
    assert len(after) == 2
    assert all(k.startswith("scorekeeper/") and k.endswith("/sessions.json") for k in after)


def test_three_stores_and_a_history_that_grows(device: Any, folder: Path) -> None:
    a, b, c = device("a"), device("b"), device("c")
    least_night(a, "Ann", "Bob")
    least_night(b, "Cy", "Dan")
    least_night(c, "Eve", "Fay")
    for run in (a, b, c, a, b):
        ok(run("sync", folder))
    assert exports(a) == exports(b) == exports(c)
    assert len(exports(a)) == 3
    # Cy's night goes on at Ann's: the longer history wins everywhere
    at_a = next(e["id"] for e in ok(a("sessions", "--json")).json()["sessions"]
                if e["players"] == ["Cy", "Dan"])
    ok(a("add-round", "--session", at_a, "--declarer", "Dan", "Dan=2", "Cy=9"))
    ok(a("sync", folder))
    updated = ok(c("sync", folder))
    assert "was brought up to date from another device" in updated.stdout
    ok(b("sync", folder))
    assert exports(a) == exports(b) == exports(c)
    rounds = [len(e["rounds"]) for e in exports(b) if e["players"] == ["Cy", "Dan"]]
    assert rounds == [2]


def test_a_night_changed_on_two_devices_keeps_both_until_keep(device: Any,
                                                              folder: Path) -> None:
    a, b = device("a"), device("b")
    least_night(a, "Ann", "Bob", "Cy")
    ok(a("sync", folder))
    ok(b("sync", folder))
    # two different round 2s, one on each device
    ok(a("add-round", "--declarer", "Bob", "Ann=9", "Bob=1", "Cy=12"))
    ok(b("add-round", "--session", 1, "--declarer", "Cy", "Ann=9", "Bob=8", "Cy=2"))
    ok(a("sync", folder))
    met = ok(b("sync", folder))
    assert "In conflict: sessions 1, 2" in met.stdout
    assert "--keep ID" in met.stdout
    assert "In conflict: sessions 1, 2" in ok(a("sync", folder)).stdout
    for run in (a, b):
        listed = ok(run("sessions"))
        assert "In conflict: sessions 1, 2" in listed.stdout
        assert ok(run("sessions", "--json")).json()["conflicts"] == [[1, 2]]
        assert "In conflict" in ok(run("show", 2)).stdout
        assert ok(run("show", 1, "--json")).json()["conflict_with"] == [2]
        stats = run("stats")
        assert stats.exit_code == 0
        assert stats.stderr.count("\n") == 1
        assert "left out of the statistics" in stats.stderr and "1, 2" in stats.stderr
    # nothing lost: both round 2s are there, one in each session
    seconds = sorted(json.dumps(e["rounds"][1]["totals"], sort_keys=True) for e in exports(a))
    assert seconds == sorted(['{"Ann": 9, "Bob": 1, "Cy": 12}', '{"Ann": 9, "Bob": 8, "Cy": 2}'])
    kept_version = [e for e in exports(b) if e["rounds"][1]["totals"]["Bob"] == 8]
    # keep B's own version, on B; A follows at its next sync
    kept = next(e["id"] for e in ok(b("sessions", "--json")).json()["sessions"]
                if json.loads(ok(b("export", e["id"], "-f", "json")).stdout)
                ["rounds"][1]["totals"]["Bob"] == 8)
    resolved = ok(b("sync", folder, "--keep", kept))
    assert "was removed" in resolved.stdout and "In conflict" not in resolved.stdout
    ok(a("sync", folder))
    assert exports(a) == exports(b)
    assert [e["rounds"] for e in exports(a)] == [kept_version[0]["rounds"]]
    assert "conflicts" not in ok(a("sessions", "--json")).json()
    assert ok(a("stats")).stderr == ""


def test_keep_refuses_a_session_not_in_conflict(device: Any, folder: Path) -> None:
    a = device("a")
    least_night(a, "Ann", "Bob")
    ok(a("sync", folder))
    before = file_bytes(a.path)
    refused = a("sync", folder, "--keep", 1)
    assert refused.exit_code == 1
    assert_one_line_error(refused)
    assert "not in conflict" in refused.stderr
    assert file_bytes(a.path) == before


def test_deletes_abandons_and_renames_travel(device: Any, folder: Path) -> None:
    a, b = device("a"), device("b")
    least_night(a, "Ann", "Bob")
    least_night(a, "Ann", "Cy")
    least_night(a, "Bob", "Cy")
    ok(a("sync", folder))
    ok(b("sync", folder))
    ok(a("delete", 1, "--yes"))
    ok(a("abandon", 2))
    ok(a("players", "rename", "Cy", "Cyrus"))
    ok(a("sync", folder))
    arrived = ok(b("sync", folder))
    assert "Session 1 (Least Score #1) was removed" in arrived.stdout
    assert "deleted on another device" in ok(b("log", 1)).stdout
    assert exports(a) == exports(b)
    players = sorted(p for e in exports(b) for p in e["players"])
    assert "Cyrus" in players and "Cy" not in players
    assert any(e.get("abandoned") for e in exports(b))
    # and a delete on the device that did not start the session travels back
    ok(b("delete", 3, "--yes"))
    ok(b("sync", folder))
    ok(a("sync", folder))
    assert exports(a) == exports(b)
    assert len(exports(a)) == 1


def test_a_change_made_after_a_delete_elsewhere_is_not_lost(device: Any,
                                                            folder: Path) -> None:
    a, b = device("a"), device("b")
    least_night(a, "Ann", "Bob")
    ok(a("sync", folder))
    ok(b("sync", folder))
    ok(a("delete", 1, "--yes"))
    ok(b("add-round", "--session", 1, "--declarer", "Bob", "Ann=9", "Bob=1"))
    ok(a("sync", folder))
    ok(b("sync", folder))
    ok(a("sync", folder))
    assert exports(a) == exports(b)
    assert [len(e["rounds"]) for e in exports(a)] == [2]


def _device_file(folder: Path, run: Device) -> Path:
    state = json.loads(run.path.read_text())["meta"]["1"]["sync"]
    return sync_module.own_file(folder, state["device"])


@pytest.mark.parametrize("damage", ["not json", "a session that does not re-score",
                                    "a wrong digest", "a foreign file", "a folder"])
def test_a_hostile_device_file_is_left_out_in_one_line(device: Any, folder: Path,
                                                       damage: str) -> None:
    a, b, c = device("a"), device("b"), device("c")
    least_night(a, "Ann", "Bob")
    least_night(b, "Cy", "Dan")
    ok(b("sync", folder))
    ok(a("sync", folder))  # Ann's file holds both nights, Bob's his own
    bad = _device_file(folder, a)
    text = bad.read_text()
    if damage == "not json":
        bad.write_text(text[: len(text) // 2])
    elif damage == "a session that does not re-score":
        data = json.loads(text)
        for entry in data["sessions"]:  # a declarer who is not at the table
            entry["document"]["rounds"][0]["declarer"] = "Zed"
            entry["digest"] = sync_module.digest_of(entry["document"])
        bad.write_text(json.dumps(data))
    elif damage == "a wrong digest":
        data = json.loads(text)
        for entry in data["sessions"]:
            entry["document"]["name"] = "Tampered"
        bad.write_text(json.dumps(data))
    elif damage == "a foreign file":
        bad.write_text('{"format": "something else"}')
    else:
        bad.unlink()
        bad.mkdir()
    result = c("sync", folder)
    assert result.exit_code == 0, result
    assert result.stderr.count("\n") == 1 and "left out" in result.stderr
    assert str(bad) in result.stderr
    assert "Traceback" not in result.output
    # the rest syncs: the good device's session arrived, the bad one's did not
    assert [e["players"] for e in exports(c)] == [["Cy", "Dan"]]


def test_a_store_that_never_synced_is_left_as_it_was(device: Any, folder: Path) -> None:
    a = device("a")
    least_night(a, "Ann", "Bob")
    before = file_bytes(a.path)
    for args in (("sessions",), ("show",), ("stats",), ("export", "-f", "json")):
        ok(a(*args))
    assert file_bytes(a.path) == before
    assert "uid" not in ok(a("export", "-f", "json")).stdout
    assert before is not None and b'"sync"' not in before


# ---------------------------------------------------------------------------
# A night is counted once


def test_import_of_a_night_already_stored_is_refused(device: Any, tmp_path: Path,
                                                     folder: Path) -> None:
    a, b = device("a"), device("b")
    least_night(a, "Ann", "Bob", rounds=2)
    plain = tmp_path / "plain.json"
    plain.write_text(ok(a("export", "-f", "json")).stdout)
    before = file_bytes(a.path)
    refused = a("import", plain)
    assert refused.exit_code == 1
    assert_one_line_error(refused)
    assert "already in the store as session 1" in refused.stderr
    assert file_bytes(a.path) == before
    again = ok(a("import", plain, "--again"))
    assert "as session 2" in again.stdout
    # with its global identity (an export of a store that synced): refused by it
    ok(a("sync", folder))
    ok(b("sync", folder))
    identified = tmp_path / "identified.json"
    data = json.loads(ok(a("export", 1, "-f", "json")).stdout)
    assert sync_module.UID.fullmatch(data["uid"])
    data["name"] = "Renamed in the file"
    identified.write_text(json.dumps(data))
    refused = b("import", identified)
    assert refused.exit_code == 1
    assert "already in the store as session" in refused.stderr


def test_a_night_imported_on_two_devices_is_one_after_sync(device: Any, tmp_path: Path,
                                                           folder: Path) -> None:
    a, b, c, d = device("a"), device("b"), device("c"), device("d")
    least_night(a, "Ann", "Bob", rounds=3)
    night = tmp_path / "night.json"
    night.write_text(ok(a("export", "-f", "json")).stdout)
    ok(b("import", night))
    ok(c("import", night))
    for run in (b, c, d, b, c, d):
        ok(run("sync", folder))
    assert exports(b) == exports(c) == exports(d)
    assert len(exports(d)) == 1
    # a copy made on purpose stays a copy everywhere
    ok(b("import", night, "--again"))
    for run in (b, c, d, b, c):
        ok(run("sync", folder))
    assert exports(b) == exports(c) == exports(d)
    assert len(exports(d)) == 2


# ---------------------------------------------------------------------------
# End to end: the real `score`, killed; a real git remote


def _score(score_exe: Path, score_env: dict[str, str], db: Path, *args: Any,
           check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(score_exe), "--db", str(db), *map(str, args)],
                          env=score_env, capture_output=True, text=True, timeout=120 * SCALE,
                          check=False)
    if check:
        assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done


def _many(db: Path, count: int, prefix: str) -> None:
    """A store of ``count`` empty nights named PREFIX N, written through the store's API."""
    from scorekeeper.session import Session
    from scorekeeper.store import Store

    def add(view: Any) -> None:
        for number in range(count):
            view.add(Session.new("least-score", ["Ann", "Bob", "Cy"],
                                 name=f"{prefix} {number}", options={}))

    Store(db).update(add)


def _names(score_exe: Path, score_env: dict[str, str], db: Path) -> list[str]:
    listed = json.loads(_score(score_exe, score_env, db, "sessions", "--json").stdout)
    return sorted(entry["name"] for entry in listed["sessions"])


@pytest.mark.e2e
def test_sync_killed_at_any_moment_loses_nothing(score_exe: Path, score_env: dict[str, str],
                                                 tmp_path: Path, folder: Path) -> None:
    a = tmp_path / "a.json"
    _many(a, 150, "A")
    _score(score_exe, score_env, a, "sync", folder)
    ann = {path.name for path in (folder / "scorekeeper").iterdir()}
    wanted = sorted([f"A {n}" for n in range(150)] + ["B 0", "B 1"])
    started = time.monotonic()
    durations: list[float] = []
    for trial in range(7):
        b = tmp_path / f"b{trial}.json"
        _many(b, 2, "B")
        before = b.read_bytes()
        process = subprocess.Popen([str(score_exe), "--db", str(b), "sync", str(folder)],
                                   env=score_env, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        if trial == 0:  # the first run goes to its end: how long a whole run takes
            process.wait(timeout=120 * SCALE)
            durations.append(time.monotonic() - started)
        else:  # then each run is killed at another moment of it, start-up to the end
            time.sleep(durations[0] * trial / 6)
            if process.poll() is None:
                process.send_signal(signal.SIGKILL)
            process.wait(timeout=60 * SCALE)
        health = check_file(b)
        assert health.good, health.problems
        assert b.read_bytes() == before or b'"sync"' in b.read_bytes()
        for path in (folder / "scorekeeper").iterdir():
            if (path / "sessions.json").exists():
                json.loads((path / "sessions.json").read_text())  # never half a file
        # the next run completes what the killed one began
        _score(score_exe, score_env, b, "sync", folder)
        assert _names(score_exe, score_env, b) == wanted
        _score(score_exe, score_env, b, "sync", folder)
        assert _names(score_exe, score_env, b) == wanted
        for path in (folder / "scorekeeper").iterdir():
            if path.name not in ann:
                shutil.rmtree(path)  # the next trial's store meets Ann's file alone
        started = time.monotonic()


def _git(*args: str | Path) -> str:
    return subprocess.run(["git", *map(str, args)], capture_output=True, text=True,
                          check=True, timeout=60 * SCALE).stdout


@pytest.mark.e2e
def test_sync_through_a_real_git_remote(score_exe: Path, score_env: dict[str, str],
                                        tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.fail("git is needed for this test")
    bare = tmp_path / "remote.git"
    _git("init", "-q", "--bare", "-b", "main", bare)
    clones = []
    for name in ("ann", "bob"):
        clone = tmp_path / f"{name}-copy"
        _git("clone", "-q", bare, clone)
        _git("-C", clone, "checkout", "-q", "-B", "main")
        clones.append(clone)
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    _score(score_exe, score_env, a, "new", "least-score", "--player", "Ann", "--player", "Bob")
    _score(score_exe, score_env, a, "add-round", "--declarer", "Ann", "Ann=1", "Bob=9")
    _score(score_exe, score_env, b, "new", "hearts", "--player", "Cy", "--player", "Dan",
           "--player", "Eve")
    first = _score(score_exe, score_env, a, "sync", clones[0])
    assert "Pushed to origin" in first.stdout
    second = _score(score_exe, score_env, b, "sync", clones[1])
    assert "came from another device" in second.stdout
    _score(score_exe, score_env, a, "sync", clones[0])
    listed = [json.loads(_score(score_exe, score_env, db, "sessions", "--json").stdout)
              for db in (a, b)]
    assert [sorted(s["game"] for s in one["sessions"]) for one in listed] == \
        [["hearts", "least-score"]] * 2
    log = _git("--git-dir", bare, "log", "--format=%s", "main")
    assert log.count("score sync: device") == 3  # Ann's file now holds Bob's night too
    # nothing new: no commit, nothing pushed
    _score(score_exe, score_env, a, "sync", clones[0])
    assert _git("--git-dir", bare, "log", "--format=%s", "main") == log
    assert _git("-C", clones[0], "status", "--porcelain") == ""
