"""Sync benchmark: is `score sync DIR` fast enough to run at every night's end?

    python benchmarks/sync_bench.py [--runs N] [--sessions S] [--rounds R] [--own]

Builds, in a temporary folder, a history of S sessions of R rounds (default 1,000 x 12),
through the store itself, and times the real `score` (a subprocess, as users run it),
alternating the sides of each comparison run by run so both see the same load:

* `score sync DIR` with nothing new, against `score sessions` on the same store
  (goal: <= 2x);
* `score sync DIR` bringing in one new session from another device (each run, the
  other device has started one more night and synced), against `score sessions`
  (goal: <= 3x);
* the store's own commands, `score add-round` and `score sessions`, on a copy of the
  history that has synced against one that never did (goal: no slower, ~1.0x).

Prints the median wall-clock and processor time (user + system, of the ``score``
process) of each side and each ratio; on a loaded machine the processor time is the
steadier measure. The sides of the last comparison also swap which goes first, run by
run.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from store_bench import filler_session, score_executable

from scorekeeper.session import Session
from scorekeeper.store import Store


@dataclasses.dataclass(frozen=True)
class Timing:
    wall: float
    cpu: float
    """User + system time of the process (and any it started)."""


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(argv: list[str], env: dict[str, str]) -> Timing:
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(f"{' '.join(argv)} failed: {done.stderr.strip()}")
    return Timing(elapsed, _children_cpu() - cpu)


def build(path: Path, sessions: int, rounds: int) -> None:
    template = filler_session(rounds, 0)
    with Store(path).write() as view:
        for index in range(sessions):
            view.add(Session.new("least-score", ("Ann", "Bob", "Cy"), name=f"night {index}",
                                 options={"limit": 500}, dealer="Ann"))
            stored = view.get(index + 1)
            view.put(dataclasses.replace(stored, rounds=template.rounds))
        view.set_current(1)


def report(label: str, ours: list[Timing], base: list[Timing], goal: str) -> None:
    mine, theirs = statistics.median(t.wall for t in ours), statistics.median(t.wall for t in base)
    mine_cpu = statistics.median(t.cpu for t in ours)
    theirs_cpu = statistics.median(t.cpu for t in base)
    print(f"{label}: {mine * 1000:.0f} ms against {theirs * 1000:.0f} ms, "
          f"ratio {mine / theirs:.2f}x (goal {goal}); processor time {mine_cpu * 1000:.0f} ms "
          f"against {theirs_cpu * 1000:.0f} ms, ratio {mine_cpu / theirs_cpu:.2f}x")


def compare_sync(score: str, env: dict[str, str], history: Path, other: Path, folder: Path,
                 runs: int) -> None:
    """``score sync`` (nothing new; one new session) against ``score sessions``."""
    sessions_cmd = [score, "--db", str(history), "sessions"]
    nothing: list[Timing] = []
    listing: list[Timing] = []
    for _run in range(runs):
        nothing.append(timed([score, "--db", str(history), "sync", str(folder)], env))
        listing.append(timed(sessions_cmd, env))
    report("sync with nothing new / sessions", nothing, listing, "<= 2x")

    one_new: list[Timing] = []
    listing = []
    for run in range(runs):
        timed([score, "--db", str(other), "new", "least-score", "--player", "Fay",
               "--player", f"G{run}"], env)
        timed([score, "--db", str(other), "sync", str(folder)], env)
        one_new.append(timed([score, "--db", str(history), "sync", str(folder)], env))
        listing.append(timed(sessions_cmd, env))
    report("sync bringing one new session / sessions", one_new, listing, "<= 3x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--own", action="store_true",
                        help="only the store's own commands, synced against never synced")
    options = parser.parse_args()
    score = score_executable()
    env = {**os.environ, "COLUMNS": "120"}
    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary)
        folder = root / "shared"
        folder.mkdir()
        history, never, other = root / "history.json", root / "never.json", root / "other.json"
        build(history, options.sessions, options.rounds)
        shutil.copyfile(history, never)
        print(f"{options.sessions} sessions of {options.rounds} rounds, "
              f"{history.stat().st_size / 2**20:.1f} MiB; {options.runs} runs per side")
        timed([score, "--db", str(history), "sync", str(folder)], env)  # first sync
        timed([score, "--db", str(other), "new", "least-score", "--player", "Dan",
               "--player", "Eve"], env)
        timed([score, "--db", str(other), "sync", str(folder)], env)  # takes the history
        timed([score, "--db", str(history), "sync", str(folder)], env)

        if not options.own:
            compare_sync(score, env, history, other, folder, options.runs)
        for label, args in (("add-round", ["add-round", "--session", "1", "--declarer", "Ann",
                                           "Ann=1", "Bob=9", "Cy=9"]),
                            ("sessions", ["sessions"])):
            synced: list[Timing] = []
            plain: list[Timing] = []
            for run in range(options.runs):  # each side goes first every other run
                for side in ((history, synced), (never, plain))[::1 if run % 2 else -1]:
                    side[1].append(timed([score, "--db", str(side[0]), *args], env))
            report(f"{label} on the synced history / on one that never synced", synced,
                   plain, "~1.0x")


if __name__ == "__main__":
    main()
