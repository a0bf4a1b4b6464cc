"""How well the Least Score bots foresee a good declaration: strong's estimate v the
expert's reading of the others' moves, against the truth (all hands known).

    python benchmarks/expert_calibration.py [--deals 150] [--seed 0]

Four strong bots play the deals; at each of seat 1's chances to declare, both estimates
of the chance of a good declaration are taken (the bot in seat 1 still plays strong's
move) and compared with whether declaring would have been good. Prints the Brier score
of each (lower is better) and, by predicted chance, how often declaring was good.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.games.least_score.bots import ExpertBot, StrongBot
from scorekeeper.games.least_score.engine import Deal
from scorekeeper.games.least_score.rules import Options, hand_value

PLAYERS = ("P1", "P2", "P3", "P4")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python benchmarks/expert_calibration.py")
    parser.add_argument("--deals", type=int, default=150)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    strong, expert = StrongBot(), ExpertBot()
    rows: list[tuple[float, float, bool]] = []
    for number in range(args.deals):
        master = random.Random(args.seed * 100_000 + number)
        deal = Deal.new(PLAYERS, PLAYERS[number % 4], random.Random(master.getrandbits(32)),
                        Options())
        rng = random.Random(master.getrandbits(32))
        while not deal.is_over:
            player = deal.current_player
            assert player is not None
            view = deal.view(player)
            if player == "P1":
                moves = expert.history.update(view)
                if view.can_declare and moves is not None:
                    read, _ = expert.read_outlook(view, moves, random.Random(1))
                    guessed, _ = strong.declaration_outlook(view, random.Random(1))
                    mine = hand_value(deal.hand(player))
                    good = all(mine <= hand_value(deal.hand(p)) for p in PLAYERS if p != player)
                    rows.append((guessed, read, good))
            deal.apply(strong.choose(view, rng))
    print(f"{len(rows)} chances to declare over {args.deals} deals of four strong bots")
    bands = [(0.0, 0.2), (0.2, 0.4), (0.4, 0.5), (0.5, 0.6), (0.6, 0.7), (0.7, 0.8),
             (0.8, 0.9), (0.9, 1.01)]
    for index, name in ((0, "strong"), (1, "expert")):
        brier = statistics.fmean((row[index] - row[2]) ** 2 for row in rows)
        print(f"{name}: Brier score {brier:.4f}")
        for low, high in bands:
            band = [row for row in rows if low <= row[index] < high]
            if band:
                print(f"  predicted {low:.0%}-{min(high, 1):.0%}: {len(band):4} chances, "
                      f"good {statistics.fmean(row[2] for row in band):.0%}")


if __name__ == "__main__":
    main()
