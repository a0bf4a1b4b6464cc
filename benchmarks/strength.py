"""The strength figure both benchmarks share: run ``score simulate`` as users would."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def simulate_command(game: str, games: int, seed: int, jobs: int) -> list[str]:
    """The ``score simulate`` arguments: strong in seat 1 against three greedy bots."""
    args = ["simulate", game, "--bot", "strong"]
    for _ in range(3):
        args += ["--bot", "greedy"]
    return [*args, "--games", str(games), "--seed", str(seed), "--jobs", str(jobs), "--json"]


def run_score(args: list[str]) -> dict[str, Any]:
    """Run ``score ARGS`` (this interpreter's scorekeeper) and return its JSON output."""
    completed = subprocess.run([sys.executable, "-m", "scorekeeper", *args], cwd=ROOT,
                               capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        raise SystemExit(f"score {shlex.join(args)} failed ({completed.returncode}): "
                         f"{completed.stderr.strip()}")
    result: dict[str, Any] = json.loads(completed.stdout)
    return result
