"""The strong bots' games, old code against this code, side by side in one run.

    python benchmarks/strong_speed.py [--old REF] [--new REF] [--games N] [--jobs J]
                                      [--rounds R] [--game least-score|one-card ...]

For each game, ``score simulate GAME --bot strong --bot greedy --bot greedy --bot greedy
--games N --seed 1 --jobs J --json`` runs with the code of git ``REF`` (default
``main``, unpacked with ``git archive`` into a temporary folder and put first on
``PYTHONPATH``) and with this checkout (or git ``--new REF``, unpacked the same way),
alternating ``R`` times; the figures are the
medians of the ``seconds`` each run reports (the games only). Prints the time ratio
old/new (goal: >= 2.0 for the 2,000-game runs of README, measured here on fewer games
because the machine is shared), each side's strong win rate with its 95% interval
(goal: not lower: the intervals overlap or the new one is above), and whether both
sides played exactly the same games (same results apart from ``seconds``). Against code
from before virtual games' derivation 2 (one generator per deal), the games differ by
design; ``search_speed.py`` compares the One Card search itself on fixed positions.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def unpack(ref: str, into: Path, name: str) -> Path:
    """The tree of git ``ref`` under ``into`` (no worktree, nothing left in the repo)."""
    archive = into / f"{name}.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "archive", ref], cwd=ROOT, stdout=out, check=True)
    tree = into / name
    tree.mkdir()
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    return tree


def simulate(game: str, games: int, jobs: int, tree: Path | None) -> dict[str, Any]:
    """``score simulate`` strong v three greedy, with ``tree``'s code (``None``: this one)."""
    args = ["simulate", game, "--bot", "strong", *["--bot", "greedy"] * 3,
            "--games", str(games), "--seed", "1", "--jobs", str(jobs), "--json"]
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    completed = subprocess.run([sys.executable, "-m", "scorekeeper", *args],
                               cwd=tree or ROOT, env=env, capture_output=True, text=True,
                               check=False)
    if completed.returncode != 0:
        raise SystemExit(f"score {' '.join(args)} failed: {completed.stderr.strip()}")
    result: dict[str, Any] = json.loads(completed.stdout)
    return result


def describe(result: dict[str, Any]) -> str:
    seat = result["seats"][0]
    low, high = seat["ci95"]
    return f"strong wins {seat['win_rate']:.1%} (95% CI {low:.1%}-{high:.1%})"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python benchmarks/strong_speed.py",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        epilog=__doc__.split("\n\n", 2)[2] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old", default="main", help="git ref of the old code (default main)")
    parser.add_argument("--new", default=None,
                        help="git ref of the new code (default: this checkout as it is)")
    parser.add_argument("--games", type=int, default=200, help="games per run (default 200)")
    parser.add_argument("--jobs", type=int, default=2, help="score simulate --jobs (default 2)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="alternating runs per side (default 1)")
    parser.add_argument("--game", action="append", choices=["least-score", "one-card"],
                        help="the game (repeat; default both)")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="strong-speed-") as scratch:
        old_tree = unpack(args.old, Path(scratch), "old")
        new_tree = None if args.new is None else unpack(args.new, Path(scratch), "new")
        for game in args.game or ["least-score", "one-card"]:
            old_times: list[float] = []
            new_times: list[float] = []
            old = new = {}
            for number in range(1, args.rounds + 1):
                old = simulate(game, args.games, args.jobs, old_tree)
                new = simulate(game, args.games, args.jobs, new_tree)
                old_times.append(old["seconds"])
                new_times.append(new["seconds"])
                print(f"{game} round {number}: old {old['seconds']:7.1f} s, "
                      f"new {new['seconds']:7.1f} s", flush=True)
            ratio = statistics.median(old_times) / statistics.median(new_times)
            same = ({k: v for k, v in old.items() if k != "seconds"}
                    == {k: v for k, v in new.items() if k != "seconds"})
            print(f"{game}: {args.games} games, --jobs {args.jobs}: old {args.old} "
                  f"{statistics.median(old_times):.1f} s, new {statistics.median(new_times):.1f}"
                  f" s: {ratio:.2f}x as fast (goal >= 2.0)")
            print(f"  old: {describe(old)}")
            print(f"  new: {describe(new)}")
            print(f"  the same games and results: {'yes' if same else 'no'}", flush=True)


if __name__ == "__main__":
    main()
