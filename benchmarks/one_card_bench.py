"""One Card benchmarks: engine speed against OpenSpiel's Euchre, the strong bot's speed
and its strength against three greedy bots.

    python benchmarks/one_card_bench.py [--games N] [--seed S] [--jobs J] [--seconds T]
    python benchmarks/one_card_bench.py --help

1. Random play, 4-player deals per second on one core: our fast deal
   (``SimDeal``: deal, bidding, every trick, ``rules.score_deal``) side by side, in the
   same run, with OpenSpiel's C++ Euchre (``pyspiel.load_game("euchre")``) through its
   Python API, uniform random over the legal actions and the chance outcomes. OpenSpiel
   is optional (``pip install open-spiel``); the script says so when it is missing.
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
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from strength import run_score, simulate_command

from scorekeeper.games.one_card import bots
from scorekeeper.games.one_card.engine import Deal, SimDeal, View
from scorekeeper.games.one_card.rules import Options


def ours_batch(rng: random.Random, deals: int) -> None:
    """``deals`` 4-player deals of uniform random play on the fast deal, scored."""
    for number in range(deals):
        sim = SimDeal.deal(4, number % 4, rng)
        sim.play_random(rng)
        sim.score()


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
    full = full_deal_speed(min(args.seconds, 3.0), args.seed)
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
