"""One Card, paired deals from mid-game positions: which of two bots gains more of the
game for its seat in one deal.

    python benchmarks/expert_positions.py [--candidate "ExpertBot()"] \\
        [--baseline "StrongBot()"] [--deals 600] [--first 0] [--jobs 2]

Deal ``i`` starts from a position drawn from its index (0 to 7 deals played, each
player's total a sum of typical deal scores, below the target of 30; a dealer): the
candidate plays one seat against three ``strong`` bots, then the baseline plays the very
same deal from the same seat. The measure is that seat's chance to win the game after
the deal (the expert's own :class:`WinChances`), candidate minus baseline, with its 95%
interval: a whole game decides little per game played, a deal from the middle of one
says more for the time spent. ``--candidate`` and ``--baseline`` are Python expressions
evaluated in ``scorekeeper.games.one_card.bots``.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.games.one_card import bots
from scorekeeper.games.one_card.engine import OVER, GameScore, State
from scorekeeper.games.one_card.expert import win_chances

TARGET = 30
SEATS = 4
TYPICAL_SCORES = (0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)


def position(index: int) -> tuple[tuple[int, ...], int]:
    """The totals and the dealer deal ``index`` starts from."""
    rng = random.Random(f"position/{index}")
    played = rng.randrange(8)
    totals = tuple(min(TARGET - 1, sum(rng.choice(TYPICAL_SCORES) for _ in range(played)))
                   for _ in range(SEATS))
    return totals, rng.randrange(SEATS)


def play(players: list[Any], index: int, totals: tuple[int, ...], dealer: int) -> list[int]:
    deal = State.shuffled(SEATS, dealer, random.Random(f"deal/{index}"),
                          game=GameScore(totals, TARGET))
    info = deal.info
    views = deal.observations()
    rngs = [random.Random(f"bot/{index}/{seat}") for seat in range(SEATS)]
    while info.phase != OVER:
        seat = info.cur
        deal.apply(players[seat].decide(views[seat], rngs[seat]))
    return deal.returns()


def compare(job: tuple[str, str, int]) -> float:
    candidate_text, baseline_text, index = job
    scope = vars(bots)
    candidate = eval(candidate_text, scope)  # a developer's own input
    baseline = eval(baseline_text, scope)
    strong = bots.StrongBot()
    totals, dealer = position(index)
    seat = index % SEATS
    chances = win_chances(SEATS, TARGET)
    after = []
    for player in (candidate, baseline):
        players = [strong] * SEATS
        players[seat] = player
        scores = play(players, index, totals, dealer)
        ended = [t + s for t, s in zip(totals, scores, strict=True)]
        after.append(chances.of(ended, (dealer + 1) % SEATS)[seat])
    return after[0] - after[1]


def main() -> None:
    parser = argparse.ArgumentParser(prog="python benchmarks/expert_positions.py",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--candidate", default="ExpertBot()")
    parser.add_argument("--baseline", default="StrongBot()")
    parser.add_argument("--deals", type=int, default=600)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--first", type=int, default=0,
                        help="the first deal's index (fresh deals for a second look)")
    args = parser.parse_args()
    began = time.perf_counter()
    indices = range(args.first, args.first + args.deals)
    jobs = [(args.candidate, args.baseline, index) for index in indices]
    with ProcessPoolExecutor(args.jobs) as pool:
        gains = list(pool.map(compare, jobs, chunksize=4))
    mean = statistics.fmean(gains)
    half = 1.96 * statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else math.inf
    print(f"{args.candidate} v {args.baseline}, {len(gains)} deals, "
          f"{time.perf_counter() - began:.0f} s: the seat's win chance after the deal "
          f"{mean:+.4f} (95% CI {mean - half:+.4f} to {mean + half:+.4f})")


if __name__ == "__main__":
    main()
