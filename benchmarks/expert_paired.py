"""Paired comparison of two bots of a game, each in seat 1 against three ``strong``.

    python benchmarks/expert_paired.py --game least-score --games 300 \\
        --candidate "ExpertBot(min_good=0.6)" [--baseline "StrongBot()"] [--jobs 2]

Both bots play the very same games (the same seeds: the same first dealer and, deal
number by deal number while the same players are in, the same cards), so the
difference of their win rates has a much smaller spread than two independent runs
(the games only drift apart as the two bots' choices change who scores what). Prints
each side's win rate and the paired difference with its 95% interval. ``--candidate``
and ``--baseline`` are Python expressions evaluated in the game's ``bots`` module (its
classes and helpers in scope); the default baseline is the ``expert`` level.

This is the development tool; the figures the README reports come from
``score simulate`` (``benchmarks/expert_bench.py``).
"""

from __future__ import annotations

import argparse
import importlib
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.match import simulate_game

MODULES = {"least-score": "scorekeeper.games.least_score.bots",
           "one-card": "scorekeeper.games.one_card.bots"}


def _play(job: tuple[str, str, str, int, int, int]) -> tuple[int, float, float, float]:
    """Game ``index`` with the candidate, then with the baseline, in seat 1: (index,
    candidate's win, baseline's win, seconds)."""
    game, candidate, baseline, seed, index, players = job
    module: Any = importlib.import_module(MODULES[game])
    scope = vars(module)
    for key, expression in (("_candidate", candidate), ("_baseline", baseline)):
        if key not in module.BOTS:
            module.BOTS[key] = eval(expression, scope)  # a developer's own input
    began = time.perf_counter()
    wins = []
    for key in ("_candidate", "_baseline"):
        outcome = simulate_game(game, [key, *["strong"] * (players - 1)], seed, index)
        wins.append(1 / len(outcome.winners) if 0 in outcome.winners else 0.0)
    return index, wins[0], wins[1], time.perf_counter() - began


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python benchmarks/expert_paired.py",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--game", choices=list(MODULES), default="least-score")
    parser.add_argument("--candidate", required=True)
    parser.add_argument("--baseline", default="ExpertBot()")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--first", type=int, default=0, help="first game index (default 0)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)

    jobs = [(args.game, args.candidate, args.baseline, args.seed, index, args.players)
            for index in range(args.first, args.first + args.games)]
    began = time.perf_counter()
    candidate: list[float] = []
    baseline: list[float] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for _, win, base, _ in pool.map(_play, jobs, chunksize=4):
            candidate.append(win)
            baseline.append(base)
            done = len(candidate)
            if done % 50 == 0:
                print(f"  {done} games: candidate {statistics.fmean(candidate):.1%}, "
                      f"baseline {statistics.fmean(baseline):.1%}", file=sys.stderr, flush=True)
    n = len(candidate)
    diffs = [a - b for a, b in zip(candidate, baseline, strict=True)]
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(n) if n > 1 else float("inf")
    print(f"{args.game}, {n} games (seed {args.seed}, from {args.first}), "
          f"{time.perf_counter() - began:.0f} s")
    print(f"candidate {args.candidate}: {statistics.fmean(candidate):.1%}")
    print(f"baseline  {args.baseline}: {statistics.fmean(baseline):.1%}")
    print(f"difference {mean:+.1%} (95% CI {mean - half:+.1%} to {mean + half:+.1%}); "
          f"same result in {sum(d == 0 for d in diffs) / n:.0%} of games")


if __name__ == "__main__":
    main()
