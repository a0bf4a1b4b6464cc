"""Data that is never lost: many `score` processes writing one store at the same time.

Eight real `score` processes (the installed console command, started with
subprocess.Popen) each add 25 rounds at once, first each to its own session,
then all to one shared session. Every round must be there, with its content, in
each process's own submission order, and `score doctor` must find the store healthy.

Every round encodes (process, index) in its values, so the store can be decoded
and counted per process.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from deadlines import SCALE

from scorekeeper.doctor import check_file
from scorekeeper.store import Store, backup_paths

PROCESSES = 8
ROUNDS_EACH = 25

# 400 start-ups of `score` in all: about a minute per test on two cores. Run by default.
pytestmark = [pytest.mark.slow, pytest.mark.e2e]  # real score processes at once


def score_executable() -> str:
    """The `score` console command of the environment running the tests."""
    beside = Path(sys.executable).with_name("score")
    if beside.exists():
        return str(beside)
    found = shutil.which("score")
    if found is None:
        pytest.skip("the `score` console command is not installed")
    return found


def score(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [score_executable(), "--db", str(db), *args],
        capture_output=True, text=True, timeout=120 * SCALE, env=_env(),
    )


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("SCOREKEEPER_DB", None)
    env["COLUMNS"] = "120"
    return env


def run_workers(db: Path, argv_for: Callable[[int, int], Sequence[str]]) -> list[list[str]]:
    """Start PROCESSES workers at once; worker p runs `score` ROUNDS_EACH times in a row.

    Returns each worker's failures (stderr of any non-zero exit); each worker waits
    for its own process before starting the next, so its rounds are submitted in order.
    """
    executable = score_executable()
    start = threading.Barrier(PROCESSES)
    failures: list[list[str]] = [[] for _ in range(PROCESSES)]

    def worker(p: int) -> None:
        start.wait()
        for i in range(ROUNDS_EACH):
            process = subprocess.Popen(
                [executable, "--db", str(db), *argv_for(p, i)],
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=_env(),
            )
            _, err = process.communicate(timeout=120 * SCALE)
            if process.returncode != 0:
                failures[p].append(f"round {i}: exit {process.returncode}: {err.strip()}")

    threads = [threading.Thread(target=worker, args=(p,)) for p in range(PROCESSES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600 * SCALE)
    assert not any(thread.is_alive() for thread in threads), "a worker hung"
    return failures


def assert_store_healthy(db: Path) -> None:
    doctor = score(db, "doctor")
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert "healthy" in doctor.stdout
    assert "Traceback" not in doctor.stderr
    assert check_file(db).good
    # The previous versions are kept, all of them good stores; no temporary file remains.
    backups = [path for path in backup_paths(db) if path.exists()]
    assert len(backups) == 5
    assert all(check_file(path).good for path in backups)
    assert not list(db.parent.glob(f".{db.name}.*.tmp"))
    assert not db.with_name(db.name + ".bak6").exists()


# ---------------------------------------------------------------------------
# Least Score: every round "A declares", hand totals A = x, B = x + i // 5, C = x + i % 5.
# A's good declaration scores A 0, B i // 5, C i % 5: at most 400 over 200 rounds, so
# with --limit 500 nobody is ever knocked out, and (x, i) can be read back.


def least_score_values(p: int, i: int) -> list[str]:
    x = p + 1
    return ["--declarer", "ann", f"Ann={x}", f"bob={x + i // 5}", f"CY={x + i % 5}"]


def decode_least_score(round_: dict[str, object]) -> tuple[int, int]:
    totals = round_["totals"]
    assert isinstance(totals, dict)
    assert round_["declarer"] == "Ann"
    x = totals["Ann"]
    return x - 1, 5 * (totals["Bob"] - x) + (totals["Cy"] - x)


# One Card (no bid, 5 points each): everyone stays tied for the lead, so the game
# plays on past its target (RULES.md: tied leaders play on); the round's note says i.


def one_card_values(i: int) -> list[str]:
    return ["--no-bid", "--note", f"round {i}", "Ann=5", "Bob=5", "Cy=5"]


def decode_one_card(round_: dict[str, object]) -> int:
    points = round_["points"]
    assert isinstance(points, dict)
    assert round_["bidder"] is None and round_["bid"] is None
    assert points == {"Ann": 5, "Bob": 5, "Cy": 5}
    note = round_["note"]
    assert isinstance(note, str) and note.startswith("round ")
    return int(note.removeprefix("round "))


def test_eight_processes_each_filling_its_own_session(tmp_path: Path) -> None:
    db = tmp_path / "store.json"
    games: dict[int, str] = {}
    for p in range(PROCESSES):
        game = "least-score" if p % 2 == 0 else "one-card"
        options = ["--limit", "500"] if game == "least-score" else []
        made = score(db, "new", game, "-p", "Ann", "-p", "Bob", "-p", "Cy",
                     "--name", f"table {p}", *options)
        assert made.returncode == 0, made.stderr
        games[p + 1] = game  # session ids are 1..8 in creation order

    def argv(p: int, i: int) -> list[str]:
        session = ["add-round", "--session", str(p + 1)]
        if games[p + 1] == "least-score":
            return [*session, *least_score_values(p, i)]
        return [*session, *one_card_values(i)]

    failures = run_workers(db, argv)
    assert failures == [[] for _ in range(PROCESSES)]

    view = Store(db).read()
    assert view.session_ids() == list(range(1, PROCESSES + 1))
    for session in view.sessions():
        assert session.id is not None
        p = session.id - 1
        assert session.name == f"table {p}"
        assert len(session.rounds) == ROUNDS_EACH
        if session.game == "least-score":
            decoded = [decode_least_score(r.to_json()) for r in session.rounds]
            assert decoded == [(p, i) for i in range(ROUNDS_EACH)]
        else:
            decoded_notes = [decode_one_card(r.to_json()) for r in session.rounds]
            assert decoded_notes == list(range(ROUNDS_EACH))
        assert [h["change"] for h in session.history] == ["new"] + ["add-round"] * ROUNDS_EACH
        assert [h["round"] for h in session.history[1:]] == list(range(1, ROUNDS_EACH + 1))
        assert not session.finished
    assert_store_healthy(db)


def test_eight_processes_sharing_one_session(tmp_path: Path) -> None:
    db = tmp_path / "store.json"
    made = score(db, "new", "least-score", "-p", "Ann", "-p", "Bob", "-p", "Cy",
                 "--limit", "500", "--dealer", "Ann")
    assert made.returncode == 0, made.stderr

    # Meanwhile a reader keeps loading the store: it must always find a whole store whose
    # session only ever grows (a reader takes no lock; the file is only replaced whole).
    done = threading.Event()
    seen: list[int] = []
    reader_errors: list[BaseException] = []

    def reader() -> None:
        try:
            while not done.is_set():
                seen.append(len(Store(db).read().get(1).rounds))
                time.sleep(0.05)
        except BaseException as error:  # reported below, in the test's own thread
            reader_errors.append(error)

    watcher = threading.Thread(target=reader)
    watcher.start()
    try:
        failures = run_workers(db, lambda p, i: ["add-round", *least_score_values(p, i)])
    finally:
        done.set()
        watcher.join(timeout=60 * SCALE)
    assert failures == [[] for _ in range(PROCESSES)]
    assert reader_errors == []
    assert seen and seen == sorted(seen), "a reader saw rounds disappear"

    session = Store(db).read().get(1)
    decoded = [decode_least_score(r.to_json()) for r in session.rounds]
    assert len(decoded) == PROCESSES * ROUNDS_EACH
    assert len(set(decoded)) == len(decoded), "a round was stored twice"
    for p in range(PROCESSES):
        # every round of process p, in the order p submitted them
        assert [i for q, i in decoded if q == p] == list(range(ROUNDS_EACH))
    standings = session.standings
    assert standings.knocked_out == [] and not standings.finished
    assert standings.totals == {"Ann": 0, "Bob": PROCESSES * 50, "Cy": PROCESSES * 50}
    assert len(session.history) == 1 + PROCESSES * ROUNDS_EACH
    # the dealer rotation ran through all 200 rounds: round n was dealt by seat (n - 1) % 3
    dealers = [summary.dealer for summary in standings.rounds]
    assert dealers == [("Ann", "Bob", "Cy")[n % 3] for n in range(len(dealers))]
    assert_store_healthy(db)
