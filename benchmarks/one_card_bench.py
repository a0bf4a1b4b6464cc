"""One Card benchmarks: the full deal's speed, the strong bot's speed and its strength
against three greedy bots.

    python benchmarks/one_card_bench.py [--games N] [--seed S] [--jobs J] [--seconds T]
    python benchmarks/one_card_bench.py --help

1. Random play, 4-player deals per second on one core, of the full ``Deal`` state
   machine that ``score play`` uses (views' legal actions, the action record, ``rules``
   checks on every move). ``score simulate``'s own speed, beside OpenSpiel's Euchre, is
   ``benchmarks/simulate_speed.py``.
2. The strong bot: median wall time per decision (with more than one legal action)
   and simulated deals (playouts) per second, in 4-player games against greedy.
3. The strength figure, from the match layer exactly as users get it: the benchmark
   prints and runs ``score simulate one-card --bot strong --bot greedy --bot greedy
   --bot greedy --games N --seed S --jobs J --json`` (``N`` whole games to 30 points,
   ``J`` processes) and reports the strong seat's win rate with its Wilson 95%
   interval, the bid success rate and the mean deals per game. The strong bot sits in
   seat 1, but the first dealer is drawn from each game's seed and the deal passes to
   the left, so no seat is favoured.
"""

from __future__ import annotations

import argparse
import random
import shlex
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from strength import run_score, simulate_command

from scorekeeper.games.one_card import bots
from scorekeeper.games.one_card.engine import Deal, View
from scorekeeper.games.one_card.rules import Options


def full_deal_speed(seconds: float, seed: int) -> float:
    """Deals per second of the full ``Deal`` state machine (the one ``score play`` uses:
    views' legal actions, the action record, ``rules`` checks on every move)."""
    rng = random.Random(seed)
    players = ("A", "B", "C", "D")
    options = Options()
    deals = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        deal = Deal.new(players, players[deals % 4], rng, options)
        while not deal.is_over:
            legal = deal.legal_actions()
            deal.apply(legal[rng.randrange(len(legal))])
        deal.result()
        deals += 1
    return deals / (time.perf_counter() - start)


def strong_speed(deals: int, seed: int) -> tuple[float, float, int, float]:
    """(median seconds per decision, simulations per second, decisions, max seconds)."""
    strong = bots.StrongBot()
    greedy = bots.GreedyBot()
    times: list[float] = []
    sims = 0
    spent = 0.0
    master = random.Random(seed)
    players = ("P1", "P2", "P3", "P4")
    for number in range(deals):
        deal = Deal.new(players, players[number % 4], random.Random(master.getrandbits(64)),
                        Options())
        seat_strong = number % 4
        rng = random.Random(master.getrandbits(64))
        while not deal.is_over:
            seat = deal.current_seat
            assert seat is not None
            view: View = deal.view(players[seat])
            if seat == seat_strong:
                before = strong.simulations
                t0 = time.perf_counter()
                action = strong.choose(view, rng)
                elapsed = time.perf_counter() - t0
                if len(view.legal) > 1:
                    times.append(elapsed)
                    sims += strong.simulations - before
                    spent += elapsed
            else:
                action = greedy.choose(view, rng)
            deal.apply(action)
    return statistics.median(times), sims / spent, len(times), max(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python benchmarks/one_card_bench.py",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        epilog=__doc__.split("\n\n", 2)[2] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000,
                        help="games of strong against three greedy (default 2000; 0 skips them)")
    parser.add_argument("--seed", type=int, default=1,
                        help="seed of the random play and of the score simulate run (default 1)")
    parser.add_argument("--jobs", type=int, default=2,
                        help="processes for the games (score simulate --jobs; default 2)")
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="seconds of random play (default 3)")
    parser.add_argument("--strong-deals", type=int, default=12,
                        help="deals to time the strong bot over (default 12)")
    args = parser.parse_args(argv)

    print("== Random play, 4-player deals per second, one core")
    full = full_deal_speed(args.seconds, args.seed)
    print(f"One Card (ours, full Deal): {full:10.0f} deals/s  (the state machine of "
          "score play, with its record; no comparison claimed)")

    print("\n== The strong bot (4 players, against greedy)")
    median, per_second, decisions, worst = strong_speed(args.strong_deals, args.seed)
    print(f"median time per decision:   {median * 1000:10.1f} ms  "
          f"({decisions} decisions with a choice; slowest {worst * 1000:.0f} ms)")
    print(f"simulations per second:     {per_second:10.0f}")

    if args.games > 0:
        command = simulate_command("one-card", args.games, args.seed, max(1, args.jobs))
        print(f"\n== {args.games} games: strong against three greedy ({args.jobs} processes)")
        print(f"score {shlex.join(command)}")
        result = run_score(command)
        strong = result["seats"][0]
        low, high = strong["ci95"]
        print(f"strong wins:                {strong['wins']:g} of {result['games']} = "
              f"{strong['win_rate']:.3f}  (95% Wilson interval {low:.3f} - {high:.3f}; "
              "fair share 0.25)")
        print(f"bids made:                  {result['bid_success_rate']:.3f} (every seat)")
        print(f"mean deals per game:        {result['mean_deals']:.2f}  "
              f"({result['seconds']:.0f} s)")


if __name__ == "__main__":
    main()
