"""One Card benchmarks: engine speed against OpenSpiel's Euchre, the strong bot's speed
and its strength against three greedy bots.

    python benchmarks/one_card_bench.py [--games N] [--seed S] [--jobs J]

1. Random play, 4-player deals per second on one core: our fast deal
   (``SimDeal``: deal, bidding, every trick, ``rules.score_deal``) side by side, in the
   same run, with OpenSpiel's C++ Euchre (``pyspiel.load_game("euchre")``) through its
   Python API, uniform random over the legal actions and the chance outcomes. OpenSpiel
   is optional (``pip install open-spiel``); the script says so when it is missing.
2. The strong bot: median wall time per decision (with more than one legal action)
   and simulated deals (playouts) per second, in 4-player games against greedy.
3. ``N`` whole games (to 30 points) of strong against three greedy bots, the strong
   seat rotating, across ``J`` processes: its win rate with a Wilson 95% interval.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.games.one_card import bots
from scorekeeper.games.one_card.engine import Deal, SimDeal, View
from scorekeeper.games.one_card.match import play_match
from scorekeeper.games.one_card.rules import Options


def ours_batch(rng: random.Random, deals: int) -> None:
    """``deals`` 4-player deals of uniform random play on the fast deal, scored."""
    for number in range(deals):
        sim = SimDeal.deal(4, number % 4, rng)
        sim.play_random(rng)
        sim.score()


def euchre_batch(game: Any, rng: random.Random, deals: int) -> None:
    """``deals`` Euchre deals, uniform random over legal actions and chance outcomes."""
    randrange = rng.randrange
    for _ in range(deals):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[randrange(len(legal))])
        state.returns()


def random_play_speed(seconds: float, seed: int) -> tuple[float, float | None]:
    """Deals per second of ours and of OpenSpiel's Euchre (``None`` without open_spiel).

    The two are timed in alternating slices of about 0.25 s so that both see the
    same load on a shared machine.
    """
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        game = None
    else:
        game = pyspiel.load_game("euchre")
    ours_rng, theirs_rng = random.Random(seed), random.Random(seed)
    ours_batch(ours_rng, 500)  # warm up
    if game is not None:
        euchre_batch(game, theirs_rng, 200)
    ours_time = theirs_time = 0.0
    ours_n = theirs_n = 0
    ours_size, theirs_size = 2000, 1000
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        t0 = time.perf_counter()
        ours_batch(ours_rng, ours_size)
        t1 = time.perf_counter()
        ours_time += t1 - t0
        ours_n += ours_size
        if game is not None:
            euchre_batch(game, theirs_rng, theirs_size)
            theirs_time += time.perf_counter() - t1
            theirs_n += theirs_size
    theirs = theirs_n / theirs_time if game is not None else None
    return ours_n / ours_time, theirs


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


def _one_game(seed: int) -> tuple[float, int]:
    seat = seed % 4
    names = ["greedy"] * 4
    names[seat] = "strong"
    result = play_match(names, seed, keep_records=False)
    share = 1.0 / len(result.winners) if seat in result.winners else 0.0
    return share, result.deals


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=2000,
                        help="games of strong against three greedy (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="processes for the games")
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="seconds of random play per engine (default 5)")
    parser.add_argument("--strong-deals", type=int, default=12,
                        help="deals to time the strong bot over (default 12)")
    args = parser.parse_args(argv)

    print("== Random play, 4-player deals per second, one core")
    ours, theirs = random_play_speed(args.seconds, args.seed)
    print(f"One Card (ours, SimDeal):   {ours:10.0f} deals/s")
    if theirs is None:
        print("OpenSpiel Euchre:           open_spiel is not importable "
              "(pip install open-spiel): no comparison")
    else:
        print(f"OpenSpiel Euchre (C++):     {theirs:10.0f} deals/s")
        print(f"ratio ours/theirs:          {ours / theirs:10.2f}")

    print("\n== The strong bot (4 players, against greedy)")
    median, per_second, decisions, worst = strong_speed(args.strong_deals, args.seed)
    print(f"median time per decision:   {median * 1000:10.1f} ms  "
          f"({decisions} decisions with a choice; slowest {worst * 1000:.0f} ms)")
    print(f"simulations per second:     {per_second:10.0f}")

    if args.games > 0:
        print(f"\n== {args.games} games: strong against three greedy ({args.jobs} processes)")
        start = time.perf_counter()
        seeds = range(args.seed * 1_000_000, args.seed * 1_000_000 + args.games)
        with Pool(args.jobs) as pool:
            results = pool.map(_one_game, seeds, chunksize=4)
        wins = sum(share for share, _ in results)
        deals = sum(d for _, d in results)
        low, high = wilson(wins, args.games)
        print(f"strong wins:                {wins:g} of {args.games} = "
              f"{wins / args.games:.3f}  (95% Wilson interval {low:.3f} - {high:.3f}; "
              "fair share 0.25)")
        print(f"mean deals per game:        {deals / args.games:.2f}  "
              f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
