"""`score stats` against `score show` on a store of 1,000 finished sessions.

The store is built directly with the library (sessions of random table rounds, one
locked write), not with 1,000 `score` processes: Least Score, One Card, Points and
Hearts nights, and with ``--mixed`` some left unfinished and some abandoned too (what
the record across games reads). Then the real commands run as subprocesses,
alternating so that load on the machine hits both alike, and the medians are
compared, wall and processor time. The goal: `score stats` takes at most 1.5 times
`score show` (issue 41.4; it was twice).

Both commands run as installed, with their bytecode cached (as ``pip install`` leaves
it), even where PYTHONDONTWRITEBYTECODE is set, as ``table_command_bench.py`` runs them:
otherwise every run would compile each module from source, which users never pay, and
`stats`, which imports more modules than `show`, would pay more of it.
``--from-source`` measures without the cache.

``--before SCORE`` times another build's `score stats` (e.g. main's
``/work/main/.venv/bin/score``) on the same store in the same run, alternating with
this one's: before and after, measured alike. Only builds whose records match compare
fairly: the records' digest covers the scoring code's files by their paths, so another
checkout (``/work/main``) never trusts this one's records and re-scores every session.

``--instructions`` counts each side's instructions under valgrind too (``--runs`` 3 is
plenty: the counts move by 0.1 %, whatever the machine's load or PYTHONHASHSEED, where
single runs' times by 20 % on a shared machine). valgrind's processor has no SHA
extensions: hashing the sessions' 7 MB counts some 200 M instructions there and takes
4 ms here, so the ratio in instructions is well above the ratio in time.

``--samples`` prints every run's figures too (to see how they spread), and the ratio of
the fastest runs' processor times (the least disturbed by other work on the machine).
``--store FILE`` times an existing store (one kept with ``--keep``) instead of building one.

    python benchmarks/stats_bench.py [--sessions 1000] [--runs 7] [--keep FILE]
                                     [--mixed] [--before SCORE] [--from-source]
                                     [--samples] [--store FILE] [--instructions]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from measure import as_installed, instructions, timed

from scorekeeper.kit.entries import EntryError, RoundEntry
from scorekeeper.session import Session
from scorekeeper.store import Store

NAMES = ("Ann", "Bob", "Cy", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")


def least_score_night(rng: random.Random, stamp: str) -> Session:
    players = rng.sample(NAMES, rng.randint(3, 5))
    session = Session.new("least-score", players, options={"limit": 340},
                          dealer=players[0], time=stamp)
    while not session.finished:
        still_in = session.standings.still_in
        totals = {name: rng.randint(1, 40) for name in still_in}
        declarer = min(still_in, key=lambda name: totals[name] + rng.randint(-6, 6))
        session = session.add_round(RoundEntry(
            tuple((name, str(total)) for name, total in totals.items()), declarer=declarer),
            time=stamp)
    return session


def one_card_game(rng: random.Random, stamp: str) -> Session:
    players = rng.sample(NAMES, rng.randint(2, 4))
    lowest = {2: 8, 3: 7, 4: 6}[len(players)]
    session = Session.new("one-card", players, options={"target": 100}, dealer=players[0],
                          time=stamp)
    while not session.finished:
        cuts = sorted(rng.randint(0, 15) for _ in range(len(players) - 1))
        points = [high - low for low, high in zip([0, *cuts], [*cuts, 15], strict=True)]
        values = tuple((name, str(p)) for name, p in zip(players, points, strict=True))
        if rng.random() < 0.2:
            entry = RoundEntry(values, no_bid=True)
        else:
            entry = RoundEntry(values, bidder=rng.choice(players),
                               bid=rng.randint(lowest, 10))
        session = session.add_round(entry, time=stamp)
    return session


def points_game(rng: random.Random, stamp: str) -> Session:
    players = rng.sample(NAMES, rng.randint(2, 6))
    session = Session.new("points", players, options={"target": 0, "rounds": 12},
                          dealer=players[0], time=stamp)
    while not session.finished:
        values = tuple((name, str(rng.randint(-5, 30))) for name in players)
        session = session.add_round(RoundEntry(values), time=stamp)
    return session


def hearts_game(rng: random.Random, stamp: str) -> Session:
    players = rng.sample(NAMES, 4)
    session = Session.new("hearts", players, dealer=players[0], time=stamp)
    while not session.finished:
        if rng.random() < 0.05:
            entry = RoundEntry((), moon=rng.choice(players))
        else:  # the 13 hearts split, the Q♠'s 13 to one player: a deal of real cards
            cuts = sorted(rng.randint(0, 13) for _ in range(3))
            points = [high - low for low, high in zip([0, *cuts], [*cuts, 13], strict=True)]
            points[rng.randrange(4)] += 13
            if 26 in points:  # 26 for one player is a moon, entered as one
                entry = RoundEntry((), moon=players[points.index(26)])
            else:
                entry = RoundEntry(tuple((name, str(p)) for name, p in
                                         zip(players, points, strict=True)))
        try:
            session = session.add_round(entry, time=stamp)
        except EntryError:  # points no deal of cards gives (the game's own check): again
            continue
    return session


def left_unfinished(session: Session, rng: random.Random) -> Session:
    """The session as it was after its first deal or two (a night not played out)."""
    for _ in range(len(session.rounds) - rng.randint(1, min(2, len(session.rounds) - 1))):
        session = session.undo()
    return session


def build_store(path: Path, count: int, seed: int = 1, mixed: bool = False) -> int:
    """Write ``count`` sessions to a new store at ``path`` (all finished, or with
    ``mixed`` a twentieth unfinished and a twentieth abandoned); return the rounds."""
    if path.exists():
        raise SystemExit(f"{path} exists: the benchmark builds a new store")
    rng = random.Random(seed)
    sessions = []
    for number in range(count):
        stamp = f"2026-{1 + number * 12 // count:02d}-{1 + number % 28:02d}T20:00:00+01:00"
        if not mixed:
            make = least_score_night if rng.random() < 0.7 else one_card_game
        else:
            make = rng.choices([least_score_night, one_card_game, points_game, hearts_game],
                               weights=[5, 2, 2, 1])[0]
        session = make(rng, stamp)
        fate = rng.random() if mixed else 1.0
        if fate < 0.1 and len(session.rounds) > 2:
            session = left_unfinished(session, rng)
            if fate < 0.05:
                session = session.abandon()
        sessions.append(session)
    with Store(path).write() as db:
        for session in sessions:
            db.add(session)
    return sum(len(session.rounds) for session in sessions)


def score_command() -> list[str]:
    found = shutil.which("score", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "scorekeeper"]


def report_instructions(show: list[str], stats: list[str], env: dict[str, str],
                        runs: int) -> None:
    counts: dict[str, list[int]] = {"show": [], "stats": []}
    for index in range(runs):
        pair = [("show", show), ("stats", stats)]
        for name, argv in pair[::-1] if index % 2 else pair:
            counts[name].append(instructions(argv, env))
    show_median, stats_median = (statistics.median(counts[name]) for name in ("show", "stats"))
    for name, median in (("show", show_median), ("stats", stats_median)):
        print(f"score {name:5}: median {median / 1e6:.0f} M instructions over {runs} runs "
              f"(from {min(counts[name]) / 1e6:.0f} to {max(counts[name]) / 1e6:.0f})")
    print(f"ratio stats/show in instructions: {stats_median / show_median:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--keep", type=Path, help="Keep the store at FILE.")
    parser.add_argument("--mixed", action="store_true",
                        help="Every game, some sessions unfinished or abandoned.")
    parser.add_argument("--before", type=Path, metavar="SCORE",
                        help="Another build's score: its stats timed in the same run.")
    parser.add_argument("--from-source", action="store_true",
                        help="no bytecode cache where PYTHONDONTWRITEBYTECODE is set")
    parser.add_argument("--samples", action="store_true",
                        help="Print every run's times, and the fastest runs' ratio.")
    parser.add_argument("--store", type=Path, metavar="FILE",
                        help="Time this existing store (kept with --keep) instead.")
    parser.add_argument("--instructions", action="store_true",
                        help="Count each side's instructions under valgrind too.")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="stats-bench-"))
    path = args.store or args.keep or folder / "scorekeeper.json"
    try:
        if args.store:
            print(f"store: {path}, {path.stat().st_size / 1e6:.1f} MB")
        else:
            started = time.perf_counter()
            rounds = build_store(path, args.sessions, mixed=args.mixed)
            kind = "sessions of every game" if args.mixed else "finished sessions"
            print(f"store: {args.sessions} {kind}, {rounds} rounds, {path.stat().st_size / 1e6:.1f}"
                  f" MB, built in {time.perf_counter() - started:.0f} s")
        env = {**os.environ, "SCOREKEEPER_DB": str(path), "COLUMNS": "120",
               "SCOREKEEPER_CONFIG": str(folder / "config.toml")}
        if not args.from_source:
            as_installed(env, folder / "bytecode")
        score = score_command()
        show, stats = [*score, "show"], [*score, "stats"]
        before = [str(args.before), "stats"] if args.before else None
        for command in (show, stats, before):  # warm the file cache and the bytecode
            if command:
                timed(command, env)
        show_times, stats_times, before_times = [], [], []
        show_cpu: list[float] = []
        stats_cpu: list[float] = []
        for index in range(args.runs):  # alternating which side goes first
            if index % 2:
                stats_times.append(timed(stats, env, stats_cpu))
                show_times.append(timed(show, env, show_cpu))
            else:
                show_times.append(timed(show, env, show_cpu))
                stats_times.append(timed(stats, env, stats_cpu))
            if before:
                before_times.append(timed(before, env))
        show_median, stats_median = statistics.median(show_times), statistics.median(stats_times)
        print(f"score show : median {show_median * 1000:.0f} ms over {args.runs} runs")
        print(f"score stats: median {stats_median * 1000:.0f} ms over {args.runs} runs")
        print(f"ratio stats/show: {stats_median / show_median:.2f} (goal <= 1.50)")
        show_used, stats_used = statistics.median(show_cpu), statistics.median(stats_cpu)
        print(f"processor time (user + system), medians: stats {stats_used * 1000:.0f} v "
              f"show {show_used * 1000:.0f} ms, ratio {stats_used / show_used:.2f}")
        if args.samples:
            for name, walls, used in (("show", show_times, show_cpu),
                                      ("stats", stats_times, stats_cpu)):
                print(f"  {name:5} wall ms: {' '.join(f'{t * 1000:.0f}' for t in walls)}; "
                      f"processor ms: {' '.join(f'{t * 1000:.0f}' for t in used)}")
            print(f"fastest processor times: stats {min(stats_cpu) * 1000:.0f} v show "
                  f"{min(show_cpu) * 1000:.0f} ms, ratio {min(stats_cpu) / min(show_cpu):.2f}")
            paired = sorted(a / b for a, b in zip(stats_cpu, show_cpu, strict=True))
            print(f"each pair's processor-time ratio (run back to back): from {paired[0]:.2f} "
                  f"to {paired[-1]:.2f}, median {statistics.median(paired):.2f}")
        if args.instructions:
            if shutil.which("valgrind") is None:
                raise SystemExit("--instructions needs valgrind")
            report_instructions(show, stats, env, min(args.runs, 3))
        if before_times:
            before_median = statistics.median(before_times)
            print(f"before ({args.before}) score stats: median {before_median * 1000:.0f} ms; "
                  f"this build / before: {stats_median / before_median:.2f}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
