"""Fit how the strong bot calls in One Card's bidding: the expert's model of the others.

    python scripts/call_model.py [--deals 1500]

Strong bots (two, three and four of them) play the bidding of ``--deals`` deals per
table size, deal ``d`` shuffled and decided with ``random.Random(d)``, dealer ``d % n``.
Every call at which a bid was open to the caller (bid the lowest bid it may make, or
pass) is one example; a logistic regression (Newton's method) on
:func:`~scorekeeper.games.one_card.bots.call_features` fits its weights. The script
prints them, rounded, as ``CALL_WEIGHTS`` in ``games/one_card/bots.py`` holds them,
with how many calls greedy's count and the model each explain.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper.games.one_card.bots import StrongBot, _lowest_bid, call_features  # noqa: E402
from scorekeeper.games.one_card.engine import BIDDING, PASS, State  # noqa: E402

Example = tuple[tuple[float, ...], bool]


def calls(n: int, deals: int) -> list[Example]:
    """(features, did it bid) for every call strong bots made with a bid open to them."""
    strong = StrongBot()
    examples: list[Example] = []
    for index in range(deals):
        rng = random.Random(index)
        state = State.shuffled(n, index % n, rng)
        while state.info.phase == BIDDING:
            info = state.info
            view = state.observation(info.cur)
            amount = _lowest_bid(info)
            action = strong.decide(view, rng)
            if amount is not None:
                examples.append((call_features(view.hand, n, amount, info.high > 0),
                                 action != PASS))
            state.apply(action)
    return examples


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix⁻¹ · vector`` by Gaussian elimination with partial pivoting."""
    size = len(vector)
    rows = [[*row, value] for row, value in zip(matrix, vector, strict=True)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(size):
            if r != col:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [rows[r][size] / rows[r][r] for r in range(size)]


def fit(examples: list[Example], steps: int = 50) -> list[float]:
    """Logistic-regression weights by Newton's method (a tiny ridge keeps it solvable)."""
    size = len(examples[0][0])
    weights = [0.0] * size
    for _ in range(steps):
        gradient = [0.0] * size
        hessian = [[1e-6 if i == j else 0.0 for j in range(size)] for i in range(size)]
        for x, bid in examples:
            chance = 1.0 / (1.0 + math.exp(-sum(w * v for w, v in zip(weights, x, strict=True))))
            error = float(bid) - chance
            spread = chance * (1.0 - chance)
            for i in range(size):
                gradient[i] += error * x[i]
                row = hessian[i]
                for j in range(size):
                    row[j] += spread * x[i] * x[j]
        step = _solve(hessian, gradient)
        weights = [w + s for w, s in zip(weights, step, strict=True)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return weights


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python scripts/call_model.py",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=1500)
    args = parser.parse_args(argv)
    print("CALL_WEIGHTS: dict[int, tuple[float, ...]] = {")
    notes = []
    for n in (2, 3, 4):
        examples = calls(n, args.deals)
        weights = fit(examples)
        print(f"    {n}: ({', '.join(str(round(w, 3)) for w in weights)}),")
        # the features' second is greedy's count, the third the bid
        by_count = sum((x[1] >= x[2]) == bid for x, bid in examples)
        by_model = sum((sum(w * v for w, v in zip(weights, x, strict=True)) > 0) == bid
                       for x, bid in examples)
        notes.append(f"# {n} players: {len(examples)} calls; greedy's count explains "
                     f"{by_count / len(examples):.0%}, the model {by_model / len(examples):.0%}")
    print("}")
    print("\n".join(notes))


if __name__ == "__main__":
    main()
