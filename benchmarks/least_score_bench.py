"""Least Score engine and bot benchmark.

    python benchmarks/least_score_bench.py [--games N] [--jobs J] [--seed S]

Prints:
1. random-bot 4-player deals per second on one core (goal: >= 2000/s);
2. the strong bot's median (and 95th percentile) time per decision (goal: < 50 ms);
3. N four-seat games, strong in seat 0 against three greedy bots: the strong bot's
   win rate with its 95% Wilson interval (a shared win counts 1/k), its false
   declaration rate, and the mean deals per game (fair share: 25%).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.games.least_score.bots import BOTS
from scorekeeper.games.least_score.engine import Deal
from scorekeeper.games.least_score.match import play_deal, play_match
from scorekeeper.games.least_score.rules import Options

PLAYERS = ["P1", "P2", "P3", "P4"]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion wins/n."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


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


def _games(seeds: range) -> tuple[float, int, int, int, int]:
    """(strong's wins, games, deals, strong's declarations, strong's false declarations)."""
    wins = 0.0
    deals = declared = false = 0
    for seed in seeds:
        result = play_match(["strong", "greedy", "greedy", "greedy"], seed, Options())
        if 0 in result.winners:
            wins += 1 / len(result.winners)
        deals += result.deals
        for record in result.records:
            if record.declarer == "P1":
                declared += 1
                false += record.false_declaration
    return wins, len(seeds), deals, declared, false


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="strong vs 3 greedy games")
    parser.add_argument("--jobs", type=int, default=min(2, multiprocessing.cpu_count()))
    parser.add_argument("--seed", type=int, default=0, help="first game seed")
    parser.add_argument("--seconds", type=float, default=3.0, help="time for the deals/s run")
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
    jobs = max(1, args.jobs)
    chunks = [range(args.seed + i, args.seed + args.games, jobs) for i in range(jobs)]
    start = time.perf_counter()
    if jobs == 1:
        parts = [_games(chunks[0])]
    else:
        with multiprocessing.Pool(jobs) as pool:
            parts = pool.map(_games, chunks)
    seconds = time.perf_counter() - start
    wins = sum(p[0] for p in parts)
    games = sum(p[1] for p in parts)
    deals = sum(p[2] for p in parts)
    declared = sum(p[3] for p in parts)
    false = sum(p[4] for p in parts)
    low, high = wilson(wins, games)
    print(f"strong vs 3 greedy, {games} games (seeds {args.seed}..{args.seed + games - 1}, "
          f"{jobs} processes, {seconds:.0f} s): strong wins {wins:g} = {wins / games:.1%}, "
          f"95% CI [{low:.1%}, {high:.1%}] (fair share 25%, goal >= 40%)")
    print(f"  mean deals per game {deals / games:.1f}; strong declared {declared} times, "
          f"{false} false ({false / max(1, declared):.1%})")


if __name__ == "__main__":
    main()
