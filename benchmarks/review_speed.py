"""``score review`` of a saved 20-deal game: the time against the 30 s goal, one core.

    python benchmarks/review_speed.py [--game least-score|one-card] [--seed S] [--rounds R]

A 20-deal game is made by the command users run, ``score play GAME --bot strong --bot
strong [...] --seed S`` (a game of bots, saved like any other; Least Score with
``--limit 500`` and One Card with ``--target 100`` so that it lasts), cut to its first
20 deals (exported, cut, imported: ``score import`` re-checks every deal), and
the seat of the first bot is reviewed as a human's would be: ``score review ID --player
Strong-1 --json``, in a subprocess, the review computed in that one process (one core).
Printed: the wall time of each run and the CPU time the review process used (on a
shared machine the wall time includes waiting for a core), their medians, the number
of decisions weighed, and the goal (under 30 s).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GOAL = 30.0
DEALS = 20


def score(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "scorekeeper", "--db", str(db), *args],
                          capture_output=True, text=True, check=False,
                          env={**os.environ, "SCOREKEEPER_LANG": "en"})
    if done.returncode:
        raise SystemExit(f"score {' '.join(args)}: {done.stderr.strip()}")
    return done


def twenty_deal_game(db: Path, game: str, seed: int, players: int) -> None:
    """A saved game of bots with exactly 20 deals: played, exported, cut to its first 20
    deals and imported (``score import`` replays and re-checks every deal): session 2."""
    house = ["--limit", "500"] if game == "least-score" else ["--target", "100"]
    score(db, "play", game, *["--bot", "strong"] * players, "--seed", str(seed), *house)
    data = json.loads(score(db, "export", "1", "--format", "json").stdout)
    if len(data["rounds"]) < DEALS:
        raise SystemExit(f"seed {seed}: the game ended after {len(data['rounds'])} deals")
    data["rounds"] = data["rounds"][:DEALS]
    totals = dict.fromkeys(data["players"], 0)
    for round_ in data["rounds"]:
        for name, points in round_["scores"].items():
            totals[name] += points
    data.update(totals=totals, status="in-progress", winners=[],
                knocked_out=[name for r in data["rounds"] for name in r.get("knocked_out", [])])
    cut = db.with_name("cut.json")
    cut.write_text(json.dumps(data), encoding="utf-8")
    score(db, "import", str(cut))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="least-score", choices=("least-score", "one-card"))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "store.json"
        twenty_deal_game(db, args.game, args.seed, args.players)
        walls, cpus = [], []
        decisions = 0
        for _ in range(args.rounds):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            began = time.perf_counter()
            done = score(db, "review", "2", "--player", "Strong-1", "--json")
            walls.append(time.perf_counter() - began)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            decisions = len(json.loads(done.stdout)["decisions"])
            print(f"  wall {walls[-1]:6.1f} s   cpu {cpus[-1]:6.1f} s", flush=True)
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    print(f"score review of a {DEALS}-deal {args.game} game ({args.players} players, seed "
          f"{args.seed}; {decisions} decisions of Strong-1 weighed): median wall {wall:.1f} s, "
          f"cpu {cpu:.1f} s; goal under {GOAL:.0f} s: "
          f"{'met' if wall < GOAL else 'missed (wall)'}{'' if cpu < GOAL else ', missed (cpu)'}")


if __name__ == "__main__":
    main()
