"""Data that is never lost: a `score add-round` killed at any moment.

A real `score` process is SIGKILLed at a random moment of its run, hundreds of
times in a row on the same store. After every kill the store must load (as JSON
and through scorekeeper's own Store.read) and be exactly the state before the
round (byte for byte) or exactly the state after it; every backup beside it must
be a good store; a temporary file left by a kill is never taken as the store and
is cleaned up by the next write.

Most kills land during Python's start-up, so a second set of trials is tuned to
the measured write moment: the test watches for the temporary file and kills
within the measured write window. A third, in-process test stops the write at
every file-system step (mkstemp, fsync, link, replace) deterministically.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from deadlines import SCALE

from scorekeeper.cli.app import run
from scorekeeper.doctor import check_file
from scorekeeper.store import SESSIONS, Store, StoreFile, backup_paths

SEED = 20261129
RANDOM_TRIALS = 200
TUNED_TRIALS = 60
PLAYERS = ("Ann", "Bob", "Cy")


def score_executable() -> str:
    beside = Path(sys.executable).with_name("score")
    if beside.exists():
        return str(beside)
    found = shutil.which("score")
    if found is None:
        pytest.skip("the `score` console command is not installed")
    return found


def env() -> dict[str, str]:
    environment = dict(os.environ)
    environment.pop("SCOREKEEPER_DB", None)
    return environment


def make_store(db: Path) -> None:
    """A Least Score session that 500 rounds of equal hands can't end (all score 0)."""
    commands = [
        ["new", "least-score", "-p", "Ann", "-p", "Bob", "-p", "Cy", "--limit", "500",
         "--dealer", "Ann"],
        ["add-round", "--declarer", "Bob", "Ann=7", "Bob=3", "Cy=AH,2S"],
        ["add-round", "--declarer", "Cy", "Ann=9", "Bob=12", "Cy=4"],
    ]
    for argv in commands:
        assert run(["--db", str(db), *argv]) == 0


def round_argv(db: Path, value: int) -> list[str]:
    return [score_executable(), "--db", str(db), "add-round", "--declarer", "ann",
            f"Ann={value}", f"bob={value}", f"CY={value}"]


def expected_round(value: int) -> dict[str, Any]:
    return {"declarer": "Ann", "totals": dict.fromkeys(PLAYERS, value)}


def temporaries(db: Path) -> list[Path]:
    return sorted(db.parent.glob(f".{db.name}.*.tmp"))


def new_temporary(db: Path, stale: set[Path]) -> bool:
    return any(path not in stale for path in temporaries(db))


@dataclass
class Outcomes:
    before: int = 0
    after: int = 0
    left_temporary: int = 0
    """Kills that left a temporary file: the kill landed inside the write itself."""
    missed: int = 0
    """Tuned trials whose process finished before the temporary file was seen."""
    kinds: list[str] = field(default_factory=list)


def check_after_kill(db: Path, before: bytes, value: int, outcomes: Outcomes,
                     stale: frozenset[Path] = frozenset()) -> None:
    """The store is exactly the state before the round or exactly the state after it."""
    text = db.read_text(encoding="utf-8")
    data = json.loads(text)  # plain JSON, never a partial file
    assert StoreFile(db, whole=True).load(text.encode("utf-8"))  # a store, via its storage
    session = Store(db).read().get(1)  # scorekeeper's own load
    old_rounds = _rounds_of(before, db)
    rounds = [r.to_json() for r in session.rounds]  # FORMAT.md's stored rounds
    if db.read_bytes() == before:
        outcomes.before += 1
        kind = "before"
    else:
        assert rounds == [*old_rounds, expected_round(value)], (
            "after a kill the store is neither the state before nor the state after the round"
        )
        old_data = json.loads(before)
        old_history = old_data["sessions"]["1"]["history"]
        assert list(session.history[:-1]) == old_history
        # nothing else changed: the same meta (but the new session's digest), the same
        # session apart from the new round and its revision, one more
        metas = [{k: v for k, v in document["meta"]["1"].items() if k != "checked"}
                 for document in (data, old_data)]
        assert metas[0] == metas[1]
        unchanged = [{k: v for k, v in document["sessions"]["1"].items()
                      if k not in ("rounds", "history", "revision")}
                     for document in (data, old_data)]
        assert unchanged[0] == unchanged[1]
        assert data["sessions"]["1"]["revision"] == old_data["sessions"]["1"]["revision"] + 1
        assert session.history[-1]["change"] == "add-round"
        assert session.history[-1]["round"] == len(rounds)
        outcomes.after += 1
        kind = "after"
    if set(temporaries(db)) - stale:
        outcomes.left_temporary += 1
        kind += "+tmp"
    outcomes.kinds.append(kind)
    # Every backup beside the store is a good store in its own right.
    for backup in backup_paths(db):
        if backup.exists():
            health = check_file(backup)
            assert health.good, (backup, health.problems)
    assert not db.with_name(db.name + ".bak6").exists()


def _rounds_of(content: bytes, db: Path) -> list[dict[str, Any]]:
    data = StoreFile(db, whole=True).load(content)  # parsed and checked by the storage
    assert data is not None
    return [dict(r) for r in data[SESSIONS]["1"]["rounds"]]


def kill(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGKILL)
    process.wait(timeout=60 * SCALE)


@pytest.mark.slow  # about 270 start-ups of `score`: a minute or two
@pytest.mark.e2e
def test_sigkill_at_random_moments_leaves_the_old_or_the_new_store(tmp_path: Path) -> None:
    db = tmp_path / "store.json"
    make_store(db)
    rng = random.Random(SEED)
    outcomes = Outcomes()
    value = 0

    def next_value() -> int:
        nonlocal value
        value = value % 50 + 1
        return value

    # Calibration: the typical run time of a whole run; then, watching the folder, the
    # moments the temporary file appears and the store is replaced (the write window).
    durations: list[float] = []
    for _ in range(3):
        before = db.read_bytes()
        v = next_value()
        started = time.perf_counter()
        subprocess.run(round_argv(db, v), capture_output=True, env=env(), check=True)
        durations.append(time.perf_counter() - started)
        check_after_kill(db, before, v, outcomes)
    typical = statistics.median(durations)
    windows: list[float] = []
    for _ in range(3):
        before = db.read_bytes()
        v = next_value()
        inode = db.stat().st_ino
        process = subprocess.Popen(round_argv(db, v), stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, env=env())
        seen_tmp = replaced = None
        while process.poll() is None and replaced is None:
            now = time.perf_counter()
            if seen_tmp is None and new_temporary(db, set()):
                seen_tmp = now
            if db.stat().st_ino != inode:
                replaced = now
        assert process.wait(timeout=60 * SCALE) == 0
        if seen_tmp is not None and replaced is not None:
            windows.append(replaced - seen_tmp)
        check_after_kill(db, before, v, outcomes)
    window = max(statistics.median(windows) if windows else 0.0, 0.001)

    # 1. Kills at a random moment of the typical run time.
    for _ in range(RANDOM_TRIALS):
        before = db.read_bytes()
        v = next_value()
        stale = set(temporaries(db))
        process = subprocess.Popen(round_argv(db, v), stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, env=env())
        time.sleep(rng.uniform(0.0, typical))
        kill(process)
        check_after_kill(db, before, v, outcomes, frozenset(stale))
    random_part = dataclasses.replace(outcomes, kinds=list(outcomes.kinds))

    # 2. Kills tuned to the write: as soon as the temporary file exists, wait a random
    # part of (a little more than) the measured write window, then kill.
    for _ in range(TUNED_TRIALS):
        before = db.read_bytes()
        v = next_value()
        stale = set(temporaries(db))  # left by an earlier kill; the writer removes them
        process = subprocess.Popen(round_argv(db, v), stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, env=env())
        while process.poll() is None and not new_temporary(db, stale):
            pass
        if process.poll() is None:
            time.sleep(rng.uniform(0.0, 1.5 * window))
        else:
            outcomes.missed += 1
        kill(process)
        check_after_kill(db, before, v, outcomes, frozenset(stale))

    total = 6 + RANDOM_TRIALS + TUNED_TRIALS
    assert outcomes.before + outcomes.after == total
    print(f"\n{total} kills: {outcomes.before} left the state before, {outcomes.after} the "
          f"state after; {outcomes.left_temporary} left a temporary file (killed mid-write); "
          f"{outcomes.missed} tuned trials finished first; typical run {typical:.3f} s, "
          f"write window {window * 1000:.1f} ms")
    # Both outcomes happened, so the kills did cover the whole run, write included; and
    # the tuned kills did land inside the write (a temporary file was left behind) as
    # well as on both sides of the replace.
    assert outcomes.before > 0 and outcomes.after > 0
    tuned_kinds = outcomes.kinds[len(random_part.kinds):]
    assert any(kind.endswith("+tmp") for kind in tuned_kinds), tuned_kinds
    assert any(kind.startswith("before") for kind in tuned_kinds)
    assert any(kind.startswith("after") for kind in tuned_kinds)

    # The next write succeeds, cleans up every temporary file and leaves a healthy store.
    before = db.read_bytes()
    finished = subprocess.run(round_argv(db, 5), capture_output=True, text=True, env=env())
    assert finished.returncode == 0, finished.stderr
    assert not temporaries(db)
    assert _rounds_of(db.read_bytes(), db) == [*_rounds_of(before, db), expected_round(5)]
    doctor = subprocess.run([score_executable(), "--db", str(db), "doctor"],
                            capture_output=True, text=True, env=env())
    assert doctor.returncode == 0, doctor.stdout
    assert "healthy" in doctor.stdout


# ---------------------------------------------------------------------------
# Deterministic: stop the write at every file-system step.


class SimulatedCrash(BaseException):
    """The process dies here (a BaseException, so nothing in scorekeeper catches it)."""


STEPS = ("mkstemp", "fsync", "link", "replace")


@pytest.fixture
def step_spy(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[Callable[[str], None]], None]]:
    """Install ``hook(step)``, called just before each file-system step of a write."""

    def install(hook: Callable[[str], None]) -> None:
        real = {
            "mkstemp": tempfile.mkstemp,
            "fsync": os.fsync,
            "link": os.link,
            "replace": os.replace,
        }

        def spied(step: str) -> Callable[..., Any]:
            def call(*args: Any, **kwargs: Any) -> Any:
                hook(step)
                return real[step](*args, **kwargs)
            return call

        monkeypatch.setattr(tempfile, "mkstemp", spied("mkstemp"))
        for step in ("fsync", "link", "replace"):
            monkeypatch.setattr(os, step, spied(step))

    yield install


def _write_args(db: Path) -> list[str]:
    return ["--db", str(db), "add-round", "--declarer", "Ann", "Ann=3", "Bob=4", "Cy=5"]


def test_the_store_is_whole_at_every_step_of_a_write(
    tmp_path: Path, step_spy: Callable[[Callable[[str], None]], None]
) -> None:
    db = tmp_path / "store.json"
    make_store(db)
    for _ in range(5):  # a full set of backups to rotate
        assert run(_write_args(db)) == 0
    before = db.read_bytes()
    old_rounds = _rounds_of(before, db)
    states: list[tuple[str, str]] = []

    def hook(step: str) -> None:
        current = db.read_bytes()
        rounds = _rounds_of(current, db)
        if current == before:
            states.append((step, "before"))
        else:
            assert rounds[:-1] == old_rounds and len(rounds) == len(old_rounds) + 1
            states.append((step, "after"))
        Store(db).read().get(1)
        for backup in backup_paths(db):
            if backup.exists():
                assert check_file(backup).good, backup

    step_spy(hook)
    assert run(_write_args(db)) == 0
    assert [step for step, _ in states].count("replace") >= 1
    assert {state for _, state in states} <= {"before", "after"}
    assert states[0][1] == "before" and states[-1][1] == "after"


def test_a_write_stopped_at_any_step_leaves_a_whole_store_and_the_next_write_works(
    tmp_path: Path, step_spy: Callable[[Callable[[str], None]], None]
) -> None:
    template = tmp_path / "template"
    template.mkdir()
    make_store(template / "store.json")
    for _ in range(5):  # a full set of backups, so the rotation has work to do
        assert run(_write_args(template / "store.json")) == 0
    crash_at = 0
    crashed = False
    calls: list[str] = []

    def hook(step: str) -> None:
        nonlocal crashed
        if crashed:
            return  # the clean-up after the "crash" runs normally
        calls.append(step)
        if len(calls) - 1 == crash_at:
            crashed = True
            raise SimulatedCrash(step)

    step_spy(hook)
    stopped_at: list[str] = []
    while True:
        folder = tmp_path / f"crash-{crash_at}"
        shutil.copytree(template, folder)
        db = folder / "store.json"
        before = db.read_bytes()
        old_rounds = _rounds_of(before, db)
        known = {before, *(path.read_bytes() for path in backup_paths(db))}
        calls.clear()
        crashed = False
        try:
            code = run(_write_args(db))
        except SimulatedCrash:
            code = None
        if not crashed:
            assert code == 0
            break
        stopped_at.append(calls[-1])
        rounds = _rounds_of(db.read_bytes(), db)
        if db.read_bytes() != before:
            # only once the store itself was replaced, i.e. at the folder's fsync
            assert "replace" in calls[:-1] and calls[-1] == "fsync"
            assert rounds[:-1] == old_rounds and len(rounds) == len(old_rounds) + 1
        Store(db).read().get(1)
        for backup in backup_paths(db):
            if backup.exists():
                assert check_file(backup).good, backup
                assert backup.read_bytes() in known
        # The next write works, whatever the crash left, and leaves no temporary file.
        crashed = True  # no more crashes
        left = db.read_bytes()
        assert run(_write_args(db)) == 0
        assert not temporaries(db)
        assert check_file(db).good
        final = _rounds_of(db.read_bytes(), db)
        assert final[: len(rounds)] == rounds and len(final) == len(rounds) + 1
        assert db.with_name(db.name + ".bak1").read_bytes() == left
        crash_at += 1
    # every kind of step was interrupted at least once
    assert set(stopped_at) == set(STEPS), stopped_at
