"""The One Card strong bot's search, old code against this code, on the very same positions.

    python benchmarks/search_speed.py [--old REF] [--positions N] [--iterations I] [--rounds R]

``score simulate``'s games can't compare two versions once they draw their random numbers
differently (derivation 2), so this compares the search itself: ``N`` positions of
4-player deals (random play from fixed seeds, decisions with more than one legal action,
bidding included), each decided by ``StrongBot(iterations=I).decide`` with a generator
seeded by the position's number, once with the code of git ``REF`` (default ``main``,
unpacked with ``git archive``) and once with this checkout, in separate processes,
alternating ``R`` times. Prints each side's median seconds, the ratio old/new (goal: >= 1.0,
"at least as fast") and whether both sides took the very same decisions.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from strong_speed import ROOT, unpack

WORKER = """
import json, random, sys, time
from scorekeeper.games.one_card.bots import StrongBot
from scorekeeper.games.one_card.engine import Deal, Phase, SeatView
from scorekeeper.games.one_card.rules import Options

count, iterations = int(sys.argv[1]), int(sys.argv[2])
views = []
seed = 0
while len(views) < count:
    rng = random.Random(seed)
    deal = Deal.new(["A", "B", "C", "D"], "ABCD"[seed % 4], random.Random(seed), Options())
    while not deal.is_over and len(views) < count:
        legal = deal.legal_actions()
        if len(legal) > 1 and rng.random() < 0.25:
            views.append(SeatView.from_view(deal.view(deal.current_player)))
        deal.apply(legal[rng.randrange(len(legal))])
    seed += 1
bot = StrongBot(iterations=iterations)
start = time.perf_counter()
decisions = [bot.decide(view, random.Random(number)) for number, view in enumerate(views)]
print(json.dumps({"seconds": time.perf_counter() - start, "decisions": decisions}))
"""


def run(tree: Path | None, positions: int, iterations: int) -> dict[str, object]:
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    done = subprocess.run([sys.executable, "-c", WORKER, str(positions), str(iterations)],
                          cwd=tree or ROOT, env=env, capture_output=True, text=True,
                          check=True)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python benchmarks/search_speed.py",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        epilog=__doc__.split("\n\n", 2)[2] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old", default="main", help="git ref of the old code (default main)")
    parser.add_argument("--positions", type=int, default=80, help="positions (default 80)")
    parser.add_argument("--iterations", type=int, default=700,
                        help="the strong bot's iterations per decision (default 700)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="search-speed-") as scratch:
        old_tree = unpack(args.old, Path(scratch), "old")
        old_times: list[float] = []
        new_times: list[float] = []
        same = True
        for number in range(1, args.rounds + 1):
            sides = [(old_tree, old_times), (None, new_times)]
            if number % 2 == 0:
                sides.reverse()  # neither side always goes first
            results = []
            for tree, times in sides:
                result = run(tree, args.positions, args.iterations)
                times.append(float(result["seconds"]))  # type: ignore[arg-type]
                results.append(result["decisions"])
            same = same and results[0] == results[1]
            print(f"round {number}: old {old_times[-1]:6.2f} s, new {new_times[-1]:6.2f} s",
                  flush=True)
    old, new = statistics.median(old_times), statistics.median(new_times)
    print(f"{args.positions} decisions, {args.iterations} iterations each: old {args.old} "
          f"{old:.2f} s, new {new:.2f} s: {old / new:.2f}x as fast (goal >= 1.0)")
    print(f"the very same decisions: {'yes' if same else 'no'}")


if __name__ == "__main__":
    main()
