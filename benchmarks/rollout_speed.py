"""One Card's greedy rollout (the strong bot's playouts), old code against new, in one run.

    python benchmarks/rollout_speed.py [--old REF] [--new REF] [--positions N] [--rounds R]

``bots.greedy_rollout`` of git ``--old REF`` (default ``main``) and of ``--new REF``
(default: this checkout), each ``bots.py`` loaded beside this checkout's engine (refused
unless both refs have this checkout's ``engine.py``: the rollouts must play the same
positions on the same tables), in one process, alternating ``R`` times, on ``N`` fixed
positions of 4-player deals after the bidding. Prints each side's median and fastest
microseconds per rollout, the ratio new/old (1.00: as fast; above: slower) and whether
both sides gave the very same points on every position. ``search_speed.py`` measures
the whole search of the strong bot; this measures its inner loop alone, where a function
call more per card shows.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.games.one_card import bots
from scorekeeper.games.one_card.engine import BIDDING, Deal, State
from scorekeeper.games.one_card.rules import Options

ROOT = Path(__file__).resolve().parent.parent
ENGINE = "scorekeeper/games/one_card/engine.py"
BOTS = "scorekeeper/games/one_card/bots.py"


def file_at(ref: str, path: str) -> str:
    return subprocess.run(["git", "show", f"{ref}:{path}"], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout


def bots_at(ref: str | None, name: str, folder: Path) -> ModuleType:
    """``bots.py`` of git ``ref`` (None: this checkout's), as module ``name``."""
    if ref is None:
        return bots
    if file_at(ref, ENGINE) != (ROOT / ENGINE).read_text(encoding="utf-8"):
        raise SystemExit(f"{ref}'s {ENGINE} is not this checkout's: the rollouts would "
                         "not play the same positions")
    path = folder / f"{name}.py"
    path.write_text(file_at(ref, BOTS), encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def positions(count: int) -> list[State]:
    """``count`` positions after the bidding (and a few cards), from fixed seeds."""
    found: list[State] = []
    seed = 0
    while len(found) < count:
        rng = random.Random(seed)
        seed += 1
        deal = Deal.new(("A", "B", "C", "D"), "A", rng, Options())
        while deal.state.info.phase == BIDDING and not deal.is_over:
            legal = deal.legal_actions()
            deal.apply(legal[rng.randrange(len(legal))])
        for _ in range(rng.randrange(6)):
            if deal.is_over:
                break
            legal = deal.legal_actions()
            deal.apply(legal[rng.randrange(len(legal))])
        if not deal.is_over:
            found.append(deal.state.clone())
    return found


def per_rollout(rollout: Callable[[State], list[int]], states: list[State],
                repeat: int) -> float:
    """Microseconds per rollout (the clones made before the clock starts)."""
    clones = [state.clone() for _ in range(repeat) for state in states]
    start = time.perf_counter()
    for clone in clones:
        rollout(clone)
    return (time.perf_counter() - start) / len(clones) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", default="main", help="git ref of the old code (default main)")
    parser.add_argument("--new", default=None, help="git ref of the new code (default: this "
                                                   "checkout)")
    parser.add_argument("--positions", type=int, default=300, help="positions (default 300)")
    parser.add_argument("--rounds", type=int, default=40, help="alternating rounds (default 40)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        old = bots_at(args.old, "old_bots", Path(folder))
        new = bots_at(args.new, "new_bots", Path(folder))
        states = positions(args.positions)
        same = all(old.greedy_rollout(s.clone()) == new.greedy_rollout(s.clone())
                   for s in states)
        times: dict[str, list[float]] = {"old": [], "new": []}
        sides = [("old", old), ("new", new)]
        for round_number in range(args.rounds):
            for side, module in sides if round_number % 2 else sides[::-1]:
                times[side].append(per_rollout(module.greedy_rollout, states, 10))
    for side in ("old", "new"):
        print(f"{side}: median {statistics.median(times[side]):.2f} us, fastest "
              f"{min(times[side]):.2f} us per rollout")
    print(f"new/old: {statistics.median(times['new']) / statistics.median(times['old']):.2f} "
          f"by the medians, {min(times['new']) / min(times['old']):.2f} by the fastest "
          f"(above 1.00: the new code is slower)")
    print(f"the very same points on every position: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
