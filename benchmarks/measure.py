"""What the benchmarks that time the real `score` share: one timed run of a command
(wall and processor time), one counted run (its instructions), and the environment that
runs it as installed."""

from __future__ import annotations

import re
import resource
import subprocess
import time
from pathlib import Path


def timed(argv: list[str], env: dict[str, str], used: list[float] | None = None) -> float:
    """The wall time of one run of ``argv``; its processor time (user + system) is
    appended to ``used``: on shared cores the wall time swings with the other work, the
    processor time less. A run that fails stops the benchmark with what it said."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          stdin=subprocess.DEVNULL, text=True, check=False)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise SystemExit(f"{' '.join(argv)} failed: {done.stderr.strip()}")
    if used is not None:
        used.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return elapsed


INSTRUCTIONS = re.compile(r"I\s+refs:\s+([\d,]+)")


def instructions(argv: list[str], env: dict[str, str]) -> int:
    """The instructions one run of ``argv`` executed, by valgrind (cachegrind without its
    cache simulation: the count alone). Counts barely move with the machine's load."""
    done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                           "--cachegrind-out-file=/dev/null", *argv], env=env, check=True,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          stdin=subprocess.DEVNULL, text=True)
    found = INSTRUCTIONS.findall(done.stderr)
    if not found:
        raise SystemExit(f"no instruction count in valgrind's report:\n{done.stderr}")
    return int(found[-1].replace(",", ""))


def as_installed(env: dict[str, str], folder: Path) -> None:
    """Run with the bytecode cached (in ``folder``), as ``pip install`` leaves it, even
    where PYTHONDONTWRITEBYTECODE is set: otherwise every run compiles each module from
    source, which users never pay."""
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(folder)
