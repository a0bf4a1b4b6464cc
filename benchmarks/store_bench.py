"""Store benchmark: does `score add-round` stay as fast when the store grows?

    python benchmarks/store_bench.py [--runs N] [--sessions S] [--big-sessions B]
                                     [--rounds R] [--huge ROUNDS]

Builds two stores in a temporary folder and times the real `score add-round`
(a subprocess, exactly as users run it) on each, alternating between them so
that both sides see the same machine load:

* small: one session with no rounds;
* large: the same session plus S sessions of R rounds each (default 400 x 25 =
  10,000 rounds), the target session being the small one;
* larger: the same with B sessions (default 2,000 x 25 = 50,000 rounds).

Prints the median wall-clock time of each side and their ratios to the small store
(goals: <= 1.2x at 10,000 rounds, <= 1.5x at 50,000). The stores are built through
the store itself (TinyDB over scorekeeper.storage), as `score` would write them.
With ``--huge ROUNDS`` a third store holds one imported-like session of that many
rounds beside the small one (the issue's case: 200,000 rounds).
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.kit.entries import RoundEntry
from scorekeeper.kit.rounds import parse_rounds
from scorekeeper.session import Session
from scorekeeper.store import Store

PLAYERS = ("Ann", "Bob", "Cy")


def score_executable() -> str:
    beside = Path(sys.executable).with_name("score")
    if not beside.exists():
        raise SystemExit("the `score` command is not installed next to this Python")
    return str(beside)


def filler_session(rounds: int, index: int) -> Session:
    """A Least Score session of ``rounds`` rounds that a limit of 500 does not end."""
    session = Session.new("least-score", PLAYERS, name=f"filler {index}",
                          options={"limit": 500}, dealer="Ann")
    for number in range(rounds):
        value = number % 7 + 1
        entry = RoundEntry(values=tuple((name, str(value)) for name in PLAYERS),
                           declarer=PLAYERS[number % 3])
        session = session.add_round(entry)
    return session


def huge_session(rounds: int) -> Session:
    """One session of ``rounds`` equal rounds (all score 0), built without re-scoring
    after each round, as `score import` would store it."""
    round_ = {"declarer": "Ann", "totals": dict.fromkeys(PLAYERS, 5)}
    session = Session.new("least-score", PLAYERS, name="huge", options={"limit": 500},
                          dealer="Ann")
    session = dataclasses.replace(session, rounds=parse_rounds(session.rules,
                                                               [round_] * rounds))
    assert not session.finished
    return session.logged_import("benchmark")


def build(path: Path, fillers: list[Session]) -> None:
    """The target session (id 1, current, no rounds) and then ``fillers``."""
    with Store(path).write() as view:
        view.add(Session.new("least-score", PLAYERS, name="target", options={"limit": 500},
                             dealer="Ann"))
        for session in fillers:
            view.add(session)
        view.set_current(1)


def time_add_round(path: Path, value: int) -> float:
    argv = [score_executable(), "--db", str(path), "add-round", "--declarer", "Ann",
            *(f"{name}={value}" for name in PLAYERS)]
    started = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"score add-round failed on {path.name}: {done.stderr.strip()}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="add-rounds per store")
    parser.add_argument("--sessions", type=int, default=400)
    parser.add_argument("--big-sessions", type=int, default=2000,
                        help="filler sessions of the larger store (0: leave it out)")
    parser.add_argument("--rounds", type=int, default=25, help="rounds per filler session")
    parser.add_argument("--huge", type=int, default=0,
                        help="also time a store with one session of this many rounds")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="store-bench-") as folder:
        stores = {"small": Path(folder) / "small.json", "large": Path(folder) / "large.json"}
        started = time.perf_counter()
        build(stores["small"], [])
        fillers = [filler_session(args.rounds, i)
                   for i in range(max(args.sessions, args.big_sessions))]
        build(stores["large"], fillers[:args.sessions])
        if args.big_sessions:
            stores["larger"] = Path(folder) / "larger.json"
            build(stores["larger"], fillers[:args.big_sessions])
        if args.huge:
            stores["huge"] = Path(folder) / "huge.json"
            build(stores["huge"], [huge_session(args.huge)])
        print(f"built the stores in {time.perf_counter() - started:.1f} s: "
              + ", ".join(f"{name} {path.stat().st_size / 1e6:.2f} MB"
                          for name, path in stores.items()))
        times: dict[str, list[float]] = {name: [] for name in stores}
        time_add_round(stores["small"], 1)  # warm the disk cache and the bytecode
        for run in range(args.runs):
            order = list(stores) if run % 2 == 0 else list(reversed(stores))
            for name in order:
                times[name].append(time_add_round(stores[name], run % 7 + 1))
        medians = {name: statistics.median(values) for name, values in times.items()}
        rounds = args.sessions * args.rounds
        big_rounds = args.big_sessions * args.rounds
        print(f"`score add-round`, median of {args.runs} runs each (alternating):")
        labels = {"small": "small store (1 session, no rounds)",
                  "large": f"large store ({args.sessions} sessions, {rounds:,} rounds)",
                  "larger": f"larger store ({args.big_sessions} sessions, {big_rounds:,} "
                            "rounds)",
                  "huge": f"huge store (one session of {args.huge:,} rounds)"}
        for name, median in medians.items():
            print(f"  {labels[name] + ':':<48} {median * 1000:7.1f} ms")
        print(f"ratio large/small: {medians['large'] / medians['small']:.2f}x (goal <= 1.2x)")
        if "larger" in medians:
            print(f"ratio larger/small: {medians['larger'] / medians['small']:.2f}x "
                  "(goal <= 1.5x)")
        if "huge" in medians:
            print(f"ratio huge/small:  {medians['huge'] / medians['small']:.2f}x")


if __name__ == "__main__":
    main()
