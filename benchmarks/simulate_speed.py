"""``score simulate`` with four random bots: deals per second, through the command users run.

    python benchmarks/simulate_speed.py [--rounds R] [--games N] [--jobs J]

Both sides run in the same run, alternating round by round so that both see the same
load on a shared machine; the figures are the medians over the rounds.

1. One Card: ``score simulate one-card --bot random (x4) --games N --seed R --jobs J
   --json`` (its own ``deals`` / ``seconds``: the games only, start-up excluded) against
   OpenSpiel's C++ Euchre through its Python API in this process (``pyspiel``, uniform
   random over the legal actions and the chance outcomes, the deal's chance nodes
   included), for about as long. Goal: ratio >= 1.0 (with ``--jobs 1``: one core each).
   OpenSpiel is optional (``pip install open-spiel``); without it the script says so.
2. Least Score: ``score simulate least-score --bot random (x4) ...``. Goal: >= 3,000 deals/s.

Also printed, to show where a One Card deal's time goes: the cost of the random
generator each deal gets (seeded from the game's seed and the deal number exactly as
``score play`` seeds it, so that a saved game can be resumed deal by deal and
``simulate`` plays the same games as ``play``): one per deal for the shuffle and every
bot (derivation 2), where derivation 1, which games saved before keep, seeded five.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from strength import run_score


def simulate_args(game: str, games: int, seed: int, jobs: int) -> list[str]:
    return ["simulate", game, *["--bot", "random"] * 4, "--games", str(games),
            "--seed", str(seed), "--jobs", str(jobs), "--json"]


def euchre_rate(game: Any, rng: random.Random, seconds: float) -> float:
    """Deals per second of OpenSpiel's Euchre for about ``seconds``: uniform random over
    the legal actions and the chance outcomes."""
    randrange = rng.randrange
    deals = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(100):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[randrange(len(outcomes))][0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[randrange(len(legal))])
            state.returns()
        deals += 100
    return deals / elapsed


def seeding_cost(deals: int = 20_000) -> float:
    """Seconds per One Card deal spent creating its generator (derivation 2: one)."""
    start = time.perf_counter()
    for number in range(deals):
        random.Random(f"scorekeeper/{number * 7919}/{number % 50}/deal")
    return (time.perf_counter() - start) / deals


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python benchmarks/simulate_speed.py",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        epilog=__doc__.split("\n\n", 2)[2] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=7, help="alternating rounds (default 7)")
    parser.add_argument("--games", type=int, default=2000,
                        help="One Card games per score simulate run (default 2000)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="score simulate --jobs (default 1: one core, as Euchre)")
    args = parser.parse_args(argv)

    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        euchre = None
        print("OpenSpiel is not importable (pip install open-spiel): One Card alone")
    else:
        euchre = pyspiel.load_game("euchre")
    rng = random.Random(1)
    ours: list[float] = []
    theirs: list[float] = []
    least: list[float] = []
    for number in range(1, args.rounds + 1):
        result = run_score(simulate_args("one-card", args.games, number, args.jobs))
        ours.append(result["deals"] / result["seconds"])
        line = f"round {number}: score simulate one-card {ours[-1]:8.0f} deals/s"
        if euchre is not None:
            theirs.append(euchre_rate(euchre, rng, result["seconds"]))
            line += f"   OpenSpiel Euchre {theirs[-1]:8.0f} deals/s"
        result = run_score(simulate_args("least-score", max(1, args.games // 4), number,
                                         args.jobs))
        least.append(result["deals"] / result["seconds"])
        print(f"{line}   score simulate least-score {least[-1]:6.0f} deals/s", flush=True)

    jobs = f"--jobs {args.jobs}"
    print(f"\nmedians over {args.rounds} rounds, four random bots, 4-player deals:")
    print(f"One Card, score simulate ({jobs}):   {statistics.median(ours):10.0f} deals/s")
    if theirs:
        print(f"OpenSpiel Euchre (C++, one core):    {statistics.median(theirs):10.0f} deals/s")
        print(f"ratio:                               "
              f"{statistics.median(ours) / statistics.median(theirs):10.2f}  (goal >= 1.0)")
    print(f"Least Score, score simulate ({jobs}): {statistics.median(least):8.0f} deals/s  "
          "(goal >= 3,000)")
    cost = seeding_cost()
    print(f"\nOne Card: seeding a deal's generator takes {cost * 1e6:.1f} us, "
          f"{cost * statistics.median(ours) / args.jobs:.0%} of a simulated deal's time "
          f"(derivation 1's five per deal would take {5 * cost * 1e6:.1f} us)")
    if theirs:
        print(f"  ({cost * statistics.median(theirs):.0%} of a Euchre deal's time)")


if __name__ == "__main__":
    main()
