"""Does the Least Score expert declare when declaring is worth more than playing on?

    python benchmarks/expert_declaring.py [--deals 9000] [--seed 0] [--jobs 2] [--group-edge E]

The expert plays seat P1 against three strong bots. At each of its chances to declare
it weighs declaring now (:meth:`ExpertBot.outlook`: the expected edge, the others'
average score minus its own) and declares when its rule says so. Two moments of a
deal are put to the test, each the first time it comes:

- *the rule plays on* although the edge is at least 0 (a close call);
- *the rule declares*.

Each deal is drawn, at random, to follow the rule throughout (a deal of the control
group, which counts at both moments), or to do the other thing at one of the moments
(and then to play on by the rule; it counts at that moment only). So at each moment
the two choices are made in deals alike but for the choice, and the table
compares how those deals ended for P1 (its score minus the others' average: lower is
better), band by band of the edge at that moment, with the result the edge expects of
declaring (minus the edge). Where declaring's result is lower than playing on's,
declaring is the better choice for the deal.

Only the deal is judged: the game around it (who is near the limit) is not. P1 moves
as the strong bot does (the expert without its play-outs, ``rollouts=0``, as when the
README's figures were measured): only the declaring is under test, and 9,000 deals
of play-outs would take hours.
``--group-edge`` sets the edge the rule asks for at this four-player table (default:
the expert's own, :attr:`ExpertBot.group_edge`; the README's figures were measured with
3, the rule before it asked for less).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.games.least_score.bots import ExpertBot, StrongBot, stalling
from scorekeeper.games.least_score.engine import Deal, Declare
from scorekeeper.games.least_score.rules import Options

PLAYERS = ("P1", "P2", "P3", "P4")


class Moment(Enum):
    CLOSE_CALL = "the rule plays on, edge >= 0"
    RULE_DECLARES = "the rule declares"


BANDS = {Moment.CLOSE_CALL: ((0.0, 1.0), (1.0, 2.0), (2.0, 3.0), (3.0, 99.0)),
         Moment.RULE_DECLARES: ((-99.0, 0.0), (0.0, 3.0), (3.0, 5.0), (5.0, 8.0),
                                (8.0, 99.0))}


@dataclass(frozen=True)
class Choice:
    """What P1 did at one moment of a deal, the edge it weighed and how the deal ended."""

    moment: Moment
    edge: float
    declared: bool
    result: float
    """P1's score in the deal minus the others' average."""


def play(job: tuple[int, int, float]) -> list[Choice]:
    """Deal ``number`` of the run with ``seed``: P1's choices at the two moments, P1
    asking for an edge of ``group_edge``."""
    seed, number, group_edge = job
    master = random.Random(f"expert-declaring/{seed}/{number}")
    deal = Deal.new(PLAYERS, PLAYERS[number % 4], random.Random(master.getrandbits(32)),
                    Options())
    expert, strong = ExpertBot(group_edge=group_edge, rollouts=0), StrongBot()
    rngs = {player: random.Random(master.getrandbits(32)) for player in PLAYERS}
    overruled = [None, Moment.CLOSE_CALL, Moment.RULE_DECLARES][master.randrange(3)]
    seen: dict[Moment, tuple[float, bool]] = {}
    while not deal.is_over:
        player = deal.current_player
        assert player is not None
        view = deal.view(player)
        rng = rngs[player]
        if player != "P1":
            deal.apply(strong.choose(view, rng))
            continue
        moves = expert.history.update(view)
        if not view.can_declare or moves is None or stalling(view):
            deal.apply(expert.choose(view, rng))
            continue
        chance, edge = expert.outlook(view, moves, rng)
        declare = expert.declares(view, chance, edge)
        moment = Moment.RULE_DECLARES if declare else Moment.CLOSE_CALL if edge >= 0 else None
        if moment is not None and moment not in seen and overruled in (None, moment):
            if moment is overruled:
                declare = not declare
            seen[moment] = (edge, declare)
        deal.apply(Declare() if declare else expert.best_move(view))
    scores = deal.result().scores
    result = scores["P1"] - statistics.fmean(scores[p] for p in PLAYERS if p != "P1")
    return [Choice(moment, edge, declared, result) for moment, (edge, declared) in seen.items()]


def summary(choices: list[Choice]) -> str:
    """Deals, mean result and its 95% interval."""
    if len(choices) < 2:
        return f"{len(choices):6}" + " " * 24
    results = [c.result for c in choices]
    mean = statistics.fmean(results)
    half = 1.96 * statistics.stdev(results) / len(results) ** 0.5
    return f"{len(choices):6} {mean:+6.2f} ({mean - half:+6.2f} to {mean + half:+6.2f})"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python benchmarks/expert_declaring.py",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=9000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--group-edge", type=float, default=ExpertBot().group_edge,
                        help="the edge the expert's rule asks for (default: its own)")
    args = parser.parse_args(argv)
    jobs = [(args.seed, number, args.group_edge) for number in range(args.deals)]
    with ProcessPoolExecutor(args.jobs) as pool:
        choices = [c for deal in pool.map(play, jobs, chunksize=25) for c in deal]
    print(f"{args.deals} deals, P1 the expert (asking for an edge of {args.group_edge:g}) "
          "against three strong; a deal's result is P1's score minus the others' average "
          "(lower is better)")
    for moment, bands in BANDS.items():
        print(f"\nthe first time {moment.value}:")
        print("  edge band         played on: deals, result (95% CI)     "
              "declared: deals, result (95% CI)   expected")
        for low, high in bands:
            band = [c for c in choices if c.moment is moment and low <= c.edge < high]
            declared = [c for c in band if c.declared]
            expected = (f"{-statistics.fmean(c.edge for c in declared):+6.2f}"
                        if declared else "")
            print(f"  [{low:+5.1f}, {high:+5.1f})  "
                  f"{summary([c for c in band if not c.declared])}  "
                  f"{summary(declared)}  {expected}")


if __name__ == "__main__":
    main()
