"""What the group's own games cost at the table: `score add-round` on a session of a
group's game (its file among FILES others in the config folder's ``games/``, read on
that command) against `score add-round` on a built-in Points session with the same
folder present (never read), alternating the two, one process each; prints the
medians and their ratio.

    python benchmarks/group_games_bench.py [--runs N] [--files N]

Both sides run with their bytecode cached, as installed (see table_command_bench.py).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GAME = """\
title = "Game {number}"
description = "The group's game number {number}."
players = [2, 6]

[defaults]
wins = "low"
target = 0
rounds = 1000
"""


def score_executable() -> str:
    found = shutil.which("score", path=str(Path(sys.executable).parent)) or \
        shutil.which("score")
    if found is None:
        raise SystemExit("the `score` command is not installed in this environment")
    return found


def timed(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="runs of each side (default 20)")
    parser.add_argument("--files", type=int, default=20,
                        help="game files in the folder (default 20)")
    args = parser.parse_args()
    score = score_executable()
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        games = base / "config" / "games"
        games.mkdir(parents=True)
        for number in range(args.files):
            (games / f"game-{number}.toml").write_text(GAME.format(number=number),
                                                       encoding="utf-8")
        env = {**os.environ, "COLUMNS": "100",
               "SCOREKEEPER_CONFIG": str(base / "config" / "config.toml")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(base / "bytecode")
        sides = {}
        for name, game in (("group", "game-0"), ("built-in", "points")):
            side_env = {**env, "SCOREKEEPER_DB": str(base / f"{name}.json")}
            subprocess.run([score, "new", game, "--player", "Ann", "--player", "Bob",
                            "--target", "0", "--rounds", "1000"], env=side_env, check=True,
                           stdout=subprocess.DEVNULL)
            sides[name] = ([score, "add-round", "Ann=1", "Bob=2"], side_env)
        for argv, side_env in sides.values():
            timed(argv, side_env)  # warm the caches
        times: dict[str, list[float]] = {name: [] for name in sides}
        for index in range(args.runs):
            order = list(sides) if index % 2 else list(reversed(sides))
            for name in order:
                times[name].append(timed(*sides[name]))
    group = statistics.median(times["group"])
    built_in = statistics.median(times["built-in"])
    print(f"score add-round, a group's game ({args.files} files in games/): "
          f"median {group * 1000:.0f} ms over {args.runs} runs")
    print(f"score add-round, built-in Points (folder not read):     "
          f"median {built_in * 1000:.0f} ms")
    print(f"ratio: {group / built_in:.2f}x")


if __name__ == "__main__":
    main()
