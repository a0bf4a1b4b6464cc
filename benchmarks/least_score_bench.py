"""Least Score engine and bot benchmark.

    python benchmarks/least_score_bench.py [--games N] [--jobs J] [--seed S] [--seconds T]
    python benchmarks/least_score_bench.py --help

Prints:
1. random-bot 4-player deals per second on one core (goal: >= 2000/s): the engine
   alone, one deal after another (no session, no saving);
2. the strong bot's median (and 95th percentile) time per decision (goal: < 50 ms);
3. the strength figure, from the match layer exactly as users get it: the benchmark
   prints and runs ``score simulate least-score --bot strong --bot greedy --bot greedy
   --bot greedy --games N --seed S --jobs J --json`` (``J`` processes), and reports the
   strong seat's win rate with its 95% Wilson interval (a shared win counts 1/k), the
   false declaration rate (all seats) and the mean deals per game (fair share: 25%).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import shlex
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from strength import run_score, simulate_command

from scorekeeper.games.least_score.bots import BOTS, Bot
from scorekeeper.games.least_score.engine import Deal
from scorekeeper.games.least_score.rules import Options

PLAYERS = ["P1", "P2", "P3", "P4"]
MAX_TURNS_PER_DEAL = 5000
"""A safety net: a deal this long means a bot never declares (a bug)."""


def play_deal(deal: Deal, bots: Sequence[Bot], rngs: Sequence[random.Random]) -> int:
    """Play ``deal`` to its declaration; ``bots`` and ``rngs`` by seat of ``deal.players``.

    Returns the number of turns played. Only the engine and the bots: this is what
    the deals-per-second figure measures.
    """
    seats = {name: i for i, name in enumerate(deal.players)}
    turns = 0
    while not deal.is_over:
        player = deal.current_player
        assert player is not None
        seat = seats[player]
        deal.apply(bots[seat].choose(deal.view(player), rngs[seat]))
        turns += 1
        if turns > MAX_TURNS_PER_DEAL:
            raise RuntimeError(f"a deal went past {MAX_TURNS_PER_DEAL} turns without a declaration")
    return turns


def random_deals_per_second(seconds: float = 3.0, seed: int = 1) -> tuple[float, float]:
    """(deals per second, mean turns per deal) of random bots in 4-player deals."""
    rng = random.Random(seed)
    bot = BOTS["random"]
    options = Options()
    bots = [bot] * 4
    rngs = [random.Random(rng.getrandbits(64)) for _ in PLAYERS]
    deals = turns = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        deal = Deal.new(PLAYERS, PLAYERS[deals % 4], random.Random(rng.getrandbits(64)), options)
        turns += play_deal(deal, bots, rngs)
        deals += 1
    return deals / elapsed, turns / deals


def strong_decision_times(decisions: int = 400, seed: int = 2) -> list[float]:
    """Seconds per strong-bot decision, in 4-player deals against greedy bots."""
    rng = random.Random(seed)
    strong, greedy = BOTS["strong"], BOTS["greedy"]
    options = Options()
    times: list[float] = []
    while len(times) < decisions:
        deal = Deal.new(PLAYERS, PLAYERS[len(times) % 4], random.Random(rng.getrandbits(64)),
                        options)
        while not deal.is_over:
            player = deal.current_player
            assert player is not None
            view = deal.view(player)
            if player == "P1":
                start = time.perf_counter()
                action = strong.choose(view, rng)
                times.append(time.perf_counter() - start)
            else:
                action = greedy.choose(view, rng)
            deal.apply(action)
    return times


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python benchmarks/least_score_bench.py",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        epilog=__doc__.split("\n\n", 2)[2] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000,
                        help="games of strong against 3 greedy for the strength figure "
                        "(default 2000; 0 skips it)")
    parser.add_argument("--jobs", type=int, default=min(2, multiprocessing.cpu_count()),
                        help="processes for those games (score simulate --jobs; default 2)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the score simulate run (default 0)")
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="seconds of the deals/s run (default 3)")
    args = parser.parse_args(argv)

    rate, mean_turns = random_deals_per_second(args.seconds)
    print(f"random bots, 4-player deals: {rate:,.0f} deals/s on one core "
          f"({mean_turns:.1f} turns per deal; goal >= 2000/s)")

    times = strong_decision_times()
    times.sort()
    median = statistics.median(times) * 1000
    p95 = times[int(len(times) * 0.95)] * 1000
    print(f"strong bot: median {median:.1f} ms per decision, 95th percentile {p95:.1f} ms, "
          f"max {times[-1] * 1000:.1f} ms over {len(times)} decisions (goal: median < 50 ms)")

    if args.games <= 0:
        return
    command = simulate_command("least-score", args.games, args.seed, max(1, args.jobs))
    print(f"strength: score {shlex.join(command)}")
    result = run_score(command)
    strong = result["seats"][0]
    low, high = strong["ci95"]
    print(f"strong vs 3 greedy, {result['games']} games (seed {result['seed']}, "
          f"{max(1, args.jobs)} processes, {result['seconds']:.0f} s): strong wins "
          f"{strong['wins']:g} = {strong['win_rate']:.1%}, 95% CI [{low:.1%}, {high:.1%}] "
          "(fair share 25%, goal >= 40%)")
    print(f"  mean deals per game {result['mean_deals']:.1f}; false declarations "
          f"{result['false_declaration_rate']:.1%} of all deals (every seat)")


if __name__ == "__main__":
    main()
