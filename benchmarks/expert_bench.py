"""The expert bots: time per decision, and strength against three strong bots.

    python benchmarks/expert_bench.py [--games N] [--jobs J] [--seed S] [--timed-games G]
                                      [--game least-score|one-card ...]

1. Time per decision: ``expert`` in seat 1 of whole 4-player games against three
   ``strong``, through ``score play``'s path (``match.play_to_end``: ``Deal``, a ``View``
   per decision, the game's totals shown to the bots); the median and the slowest wall
   time of its decisions with more than one legal action (goal: median under 1 s).
2. Strength, from the match layer exactly as users get it: the script prints and runs
   ``score simulate GAME --bot expert --bot strong --bot strong --bot strong --games N
   --seed S --jobs J --json`` and reports the expert seat's win rate with its 95% Wilson
   interval (fair share 25%; goal: at least 35% over at least 1,000 games). The first
   dealer is drawn from each game's seed and the deal passes to the left, so seat 1 is
   not favoured.
"""

from __future__ import annotations

import argparse
import random
import shlex
import statistics
import sys
import time
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from strength import run_score

from scorekeeper import match
from scorekeeper.registry import get_virtual

PLAYERS = ("P1", "P2", "P3", "P4")
TIMED = "timed-expert"


def decision_times(game: str, games: int, seed: int) -> list[float]:
    """Seconds per expert decision with a choice, expert in seat 1 against three strong,
    over whole games played as ``score play`` plays them (each deal shows the game's
    totals, which the expert plays for)."""
    virtual = get_virtual(game)
    expert = virtual.bots["expert"]
    times: list[float] = []

    class TimedExpert:
        def choose(self, view: Any, rng: random.Random) -> Any:
            start = time.perf_counter()
            action = expert.choose(view, rng)
            elapsed = time.perf_counter() - start
            if len(view.legal_actions()) > 1:
                times.append(elapsed)
            return action

    bots = cast(dict[str, Any], virtual.bots)
    bots[TIMED] = TimedExpert()
    try:
        for index in range(games):
            seats = [match.Seat(PLAYERS[0], TIMED),
                     *(match.Seat(name, "strong") for name in PLAYERS[1:])]
            match.play_to_end(match.start_game(game, seats, match.hash_seed(seed, index)))
    finally:
        del bots[TIMED]
    return times


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python benchmarks/expert_bench.py",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        epilog=__doc__.split("\n\n", 2)[2] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000,
                        help="games of expert against three strong (default 1000; 0 skips)")
    parser.add_argument("--jobs", type=int, default=2, help="score simulate --jobs (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the run (default 1)")
    parser.add_argument("--timed-games", type=int, default=2,
                        help="whole games to time the expert's decisions over (default 2)")
    parser.add_argument("--game", action="append", choices=["least-score", "one-card"],
                        help="the game (repeat; default both)")
    args = parser.parse_args(argv)

    for game in args.game or ["least-score", "one-card"]:
        times = sorted(decision_times(game, args.timed_games, args.seed))
        print(f"{game}: expert decisions against three strong: median "
              f"{statistics.median(times) * 1000:.0f} ms, slowest {times[-1] * 1000:.0f} ms "
              f"over {len(times)} decisions (goal: median < 1 s)", flush=True)
        if args.games <= 0:
            continue
        command = ["simulate", game, "--bot", "expert", *["--bot", "strong"] * 3,
                   "--games", str(args.games), "--seed", str(args.seed),
                   "--jobs", str(args.jobs), "--json"]
        print(f"score {shlex.join(command)}", flush=True)
        result = run_score(command)
        seat = result["seats"][0]
        low, high = seat["ci95"]
        print(f"{game}: expert wins {seat['wins']:g} of {result['games']} = "
              f"{seat['win_rate']:.1%} (95% CI {low:.1%}-{high:.1%}; fair share 25%, goal "
              f">= 35%); {result['seconds']:.0f} s", flush=True)


if __name__ == "__main__":
    main()
