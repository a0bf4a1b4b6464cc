"""Where `score add-round`'s processor time goes, beside the minimal Typer app's.

    python benchmarks/add_round_breakdown.py [--runs N]

`table_command_bench.py` times the two whole commands; this splits them. Each run is
a fresh process (as `score` is) that imports, step by step in the order add-round
needs them, what add-round loads, timing each step's processor time, then runs
``add-round`` in-process on a small Least Score session (as the benchmark sets one
up). The minimal app's process does the same with its two steps: importing Typer,
then running (which imports pydantic and builds its first TypeAdapter: Typer 0.29
coerces every value through one). A step's figure is what it adds to what the steps
before it loaded, so the steps add up to the process. The bare interpreter's start-up
(``python -c pass``), the same on both sides, is printed too. Medians of N runs
(default 15), alternating the sides; bytecode cached as installed, as in
`table_command_bench.py`.
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
from pathlib import Path

from table_command_bench import MINIMAL_APP, score_executable

STEPS = (
    ("Typer (the minimal app imports it too)", "import typer, typer.main"),
    ("rich: console, table, text", "import rich.console, rich.table, rich.text"),
    ("TinyDB", "import tinydb, tinydb.middlewares, tinydb.storages, tinydb.table"),
    ("layer 1: i18n, errors, cards, text, files",
     "import scorekeeper.i18n, scorekeeper.errors, scorekeeper.cards, scorekeeper.text, "
     "scorekeeper.files"),
    ("the game kit, scorekeeper/kit/ (entries, standings, declarations)",
     "import scorekeeper.kit.declaration"),
    ("Least Score's table (the session's game), with its rules",
     "import scorekeeper.games.least_score.table"),
    ("registry: every game's declaration (with its rules and words; and, before the "
     "tables were loaded on use, its table)", "import scorekeeper.registry"),
    ("session, ranking", "import scorekeeper.session, scorekeeper.ranking"),
    ("store, storage", "import scorekeeper.store"),
    ("config and platformdirs (the config file's language)",
     "import scorekeeper.config, platformdirs"),
    ("views: render, compact, export formats",
     "import scorekeeper.views.render, scorekeeper.views.compact, "
     "scorekeeper.views.export_formats"),
    ("cli: app, context, conventions, lazy, options, completion, language",
     "import scorekeeper.cli.app"),
)

OURS = """
import io, json, sys, time
steps = json.loads(sys.argv[1])
figures = []
for _label, statement in steps:
    start = time.process_time()
    exec(statement)
    figures.append(time.process_time() - start)
from scorekeeper.cli.app import run
shown, sys.stdout = sys.stdout, io.StringIO()
start = time.process_time()
code = run(["add-round", "--declarer", "Ann", "Ann=1", "Bob=2", "Cy=3"])
figures.append(time.process_time() - start)
sys.stdout = shown
assert code == 0, code
print(json.dumps(figures))
"""

FLOOR = """
import io, json, sys, time
source = open(sys.argv[1]).read().replace('if __name__ == "__main__":\\n    app()', "")
start = time.process_time()
import typer, typer.main
imported = time.process_time() - start
start = time.process_time()
exec(source)
shown, sys.stdout = sys.stdout, io.StringIO()
try:
    app(["--db", sys.argv[2], "add-round", "--declarer", "Ann", "Ann=1", "Bob=2", "Cy=3"])
except SystemExit as done:
    assert not done.code, done.code
ran = time.process_time() - start
sys.stdout = shown
print(json.dumps([imported, ran]))
"""


def child_figures(argv: list[str], env: dict[str, str]) -> list[float]:
    done = subprocess.run(argv, env=env, check=True, capture_output=True, text=True)
    figures: list[float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def bare_start(env: dict[str, str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", "pass"], env=env, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each side (default 15)")
    args = parser.parse_args()
    score = score_executable()
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        store, minimal_store = base / "store.json", base / "minimal.json"
        minimal_store.write_text(json.dumps({"rounds": []}))
        app = base / "minimal_app.py"
        app.write_text(MINIMAL_APP)
        env = {**os.environ, "SCOREKEEPER_DB": str(store), "COLUMNS": "100",
               "PYTHONPYCACHEPREFIX": str(base / "bytecode")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        subprocess.run([score, "new", "least-score", "--player", "Ann", "--player", "Bob",
                        "--player", "Cy", "--limit", "500"], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        ours = [sys.executable, "-c", OURS, json.dumps(STEPS)]
        floor = [sys.executable, "-c", FLOOR, str(app), str(minimal_store)]
        child_figures(ours, env), child_figures(floor, env)  # bytecode cached, files warm
        ours_runs: list[list[float]] = []
        floor_runs: list[list[float]] = []
        starts: list[float] = []
        for _index in range(args.runs):
            ours_runs.append(child_figures(ours, env))
            floor_runs.append(child_figures(floor, env))
            starts.append(bare_start(env))
    ours_medians = [statistics.median(column) for column in zip(*ours_runs, strict=True)]
    floor_medians = [statistics.median(column) for column in zip(*floor_runs, strict=True)]
    start = statistics.median(starts)
    labels = [label for label, _statement in STEPS] + ["running add-round (in-process)"]
    width = max(len(label) for label in labels) + 2
    print(f"processor time, medians of {args.runs} runs (ms)")
    print(f"{'interpreter start-up (python -c pass), both sides':{width}} {start * 1000:6.1f}")
    print("score add-round:")
    for label, figure in zip(labels, ours_medians, strict=True):
        print(f"  {label:{width - 2}} {figure * 1000:6.1f}")
    ours_total = start + sum(ours_medians)
    print(f"  {'total (with the start-up)':{width - 2}} {ours_total * 1000:6.1f}")
    print("minimal Typer app:")
    print(f"  {'Typer':{width - 2}} {floor_medians[0] * 1000:6.1f}")
    print(f"  {'running it (pydantic, first TypeAdapter, the JSON file)':{width - 2}} "
          f"{floor_medians[1] * 1000:6.1f}")
    floor_total = start + sum(floor_medians)
    print(f"  {'total (with the start-up)':{width - 2}} {floor_total * 1000:6.1f}")
    print(f"ratio: {ours_total / floor_total:.2f}x; at 1.3x add-round would have "
          f"{(1.3 * floor_total - ours_total) * 1000:+.1f} ms to spare")


if __name__ == "__main__":
    main()
