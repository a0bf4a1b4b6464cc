"""``score simulate``: many bots-only games, on local processes or a Ray cluster.

Game ``i`` of a run depends only on the run's game, bots, house rules, seed and
``i`` (``match.simulate_game``), and a run's figures are sums
(``match.SimulationSummary``), so the games can be cut into pieces anywhere: into
tasks for the processes of one machine (sized as the run goes to take about
:data:`TASK_SECONDS` each, so the progress bar moves smoothly), into the tasks of a
Ray cluster, or into shards (``--shard I/N``) run apart and added up later from
their partial results (``--save-partial FILE``, ``score simulate merge FILE...``).
Every split gives the same figures as one run.

Ctrl-C stops at once: the worker processes ignore SIGINT (one Ctrl-C at a terminal
reaches the whole process group) and the pool is terminated, not drained; SIGTERM
terminates the pool too before the command ends (exit 143).
"""

from __future__ import annotations

import importlib
import json
import logging
import os
import queue
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorekeeper import match
from scorekeeper.i18n import _
from scorekeeper.kit.entries import EntryError
from scorekeeper.kit.rounds import JSONObject

TASK_SECONDS = 0.25
"""About how long each task given to a process should take."""
MAX_TASK_GAMES = 1000
PARTIAL_KIND = "scorekeeper simulate partial results"
PARTIAL_VERSION = 1
MAX_PARTIAL_BYTES = 1 << 20
"""A partial results file holds a few counts; anything bigger is not one."""


@dataclass(frozen=True, slots=True)
class Run:
    """A simulation run, or the slice ``start``..``stop - 1`` of its ``games`` games."""

    game: str
    bots: tuple[str, ...]
    seed: int
    options: JSONObject
    """The house rules, as the game's table checks them (every option filled in)."""
    games: int
    start: int
    stop: int

    @property
    def same_run(self) -> tuple[Any, ...]:
        """What two slices of one run share."""
        return (self.game, self.bots, self.seed, sorted(self.options.items()), self.games)


def shard_slice(spec: str, games: int) -> tuple[int, int]:
    """Games ``start``..``stop - 1`` of ``--shard I/N``: the I-th of N slices, as even as
    they can be."""
    parts = spec.split("/")
    try:
        index, count = (int(part) for part in parts)
    except ValueError:
        raise ValueError(_("--shard takes I/N, e.g. 2/4, not {spec}").format(
            spec=repr(spec))) from None
    if not 1 <= index <= count:
        raise ValueError(_("--shard {spec}: I must be from 1 to N").format(spec=spec))
    return (index - 1) * games // count, index * games // count


# ---------------------------------------------------------------------------
# Running the games


Progress = Callable[[int], None]
"""Told how many more games are done."""


def play(run: Run, jobs: int | None, backend: str, address: str | None,
         progress: Progress) -> tuple[match.SimulationSummary, float]:
    """Play ``run``'s games; the summary and the wall time of the games themselves."""
    if backend == "ray":
        with _ray_pool(jobs, address) as (pool, processes):
            return _play_on(pool, processes, run, progress)
    processes = min(jobs or 1, run.stop - run.start)
    if processes <= 1:
        return _play_here(run, progress)
    with _local_pool(processes) as pool:
        return _play_on(pool, processes, run, progress)


def _task(run: Run, start: int, stop: int) -> tuple[match.SimulationSummary, float]:
    return match.simulate_games(run.game, run.bots, run.seed, run.options, start, stop)


def _next_size(games_done: int, seconds_spent: float) -> int:
    if games_done == 0 or seconds_spent <= 0:
        return 1
    return max(1, min(MAX_TASK_GAMES, int(TASK_SECONDS * games_done / seconds_spent)))


def _play_here(run: Run, progress: Progress) -> tuple[match.SimulationSummary, float]:
    began = time.perf_counter()
    total = match.SimulationSummary(run.game, list(run.bots))
    at = run.start
    spent = 0.0
    while at < run.stop:
        stop = min(run.stop, at + _next_size(total.games, spent))
        summary, seconds = _task(run, at, stop)
        total.merge(summary)
        spent += seconds
        progress(stop - at)
        at = stop
    return total, time.perf_counter() - began


def _play_on(pool: Any, processes: int, run: Run,
             progress: Progress) -> tuple[match.SimulationSummary, float]:
    """Feed ``pool`` (multiprocessing's ``Pool`` API) tasks of games, two per process in
    flight, each sized from the time the finished ones took."""
    began = time.perf_counter()
    total = match.SimulationSummary(run.game, list(run.bots))
    done: queue.Queue[tuple[int, Any]] = queue.Queue()
    in_flight = 0
    in_flight_limit = 2 * processes
    at = run.start
    spent = 0.0
    while at < run.stop or in_flight:
        while at < run.stop and in_flight < in_flight_limit:
            stop = min(run.stop, at + _next_size(total.games, spent))
            pool.apply_async(_task, (run, at, stop),
                             callback=lambda result, n=stop - at: done.put((n, result)),
                             error_callback=lambda error: done.put((-1, error)))
            in_flight += 1
            at = stop
        count, result = done.get()
        in_flight -= 1
        if count < 0:
            raise result
        summary, seconds = result
        total.merge(summary)
        spent += seconds
        progress(count)
    return total, time.perf_counter() - began


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Terminated(SystemExit):
    """SIGTERM while the games run: leave as a terminated program does (exit 143)."""


def _terminate(signum: int, frame: Any) -> None:
    raise Terminated(128 + signum)


@contextmanager
def _local_pool(processes: int) -> Iterator[Any]:
    import multiprocessing

    pool = multiprocessing.Pool(processes, initializer=_ignore_sigint)
    # SIGTERM would end this process at once and leave the workers running.
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        yield pool
    except BaseException:
        pool.terminate()  # Ctrl-C, SIGTERM or an error: stop the workers now, not drained
        pool.join()
        raise
    finally:
        signal.signal(signal.SIGTERM, previous)
    pool.close()
    pool.join()


@contextmanager
def _ray_pool(processes: int | None, address: str | None) -> Iterator[tuple[Any, int]]:
    """A pool of ``processes`` Ray actors (default: one per CPU of the cluster) on the
    cluster at ``address`` (default: a Ray instance started on this machine)."""
    try:
        ray = importlib.import_module("ray")
        ray_pool = importlib.import_module("ray.util.multiprocessing").Pool
    except ImportError:
        raise EntryError(_("--backend ray needs Ray: {command}").format(
            command="pip install 'cardnight-scorekeeper[ray]'")) from None
    started = not ray.is_initialized()
    if started:
        ray.init(address=address, include_dashboard=False, log_to_driver=False,
                 logging_level=logging.ERROR)
    try:
        if processes is None:
            processes = max(1, int(ray.cluster_resources().get("CPU", 1)))
        pool = ray_pool(processes=processes)
        try:
            yield pool, processes
        finally:
            pool.terminate()
    finally:
        if started:
            ray.shutdown()


# ---------------------------------------------------------------------------
# Partial results


def save_partial(path: Path, run: Run, summary: match.SimulationSummary,
                 seconds: float) -> None:
    """Write ``run``'s counts to ``path`` (atomically), refusing to replace any file that
    is not partial results itself."""
    if path.exists() or path.is_symlink():
        try:
            load_partial(path)
        except EntryError:
            raise EntryError(_("{file} exists and is not a partial results file: choose a new "
                               "file name").format(file=path)) from None
    record = {
        "kind": PARTIAL_KIND, "version": PARTIAL_VERSION,
        "game": run.game, "bots": list(run.bots), "seed": run.seed, "options": run.options,
        "games_in_run": run.games, "first_game": run.start, "stop_game": run.stop,
        "games": summary.games, "deals": summary.deals,
        "win_shares": summary.shares or [0] * len(run.bots), "win_share": match.WIN_SHARES,
        "stats": summary.stats, "seconds": seconds,
    }
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(json.dumps(record) + "\n", encoding="utf-8")
        os.replace(temporary, path)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise EntryError(_("can't write {file}: {reason}").format(
            file=path, reason=error.strerror or error)) from None


def load_partial(path: Path) -> tuple[Run, match.SimulationSummary, float]:
    """A partial results file, checked; ``EntryError`` (one line) for anything else."""
    try:
        with path.open("rb") as file:
            data = file.read(MAX_PARTIAL_BYTES + 1)
    except OSError as error:
        raise EntryError(_("can't read {file}: {reason}").format(
            file=path, reason=error.strerror or error)) from None
    if len(data) > MAX_PARTIAL_BYTES:
        raise EntryError(_("{file} is not a partial results file (too big)").format(file=path))
    try:
        record = json.loads(data)
        return _partial_from(record)
    except (ValueError, KeyError, TypeError, RecursionError) as error:
        raise EntryError(_("{file} is not a partial results file of score simulate "
                           "--save-partial ({problem})").format(file=path, problem=error)
                         ) from None


def _int(value: Any, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(_("expected a whole number of at least {low}, not {value}").format(
            low=low, value=repr(value)))
    return int(value)


def _partial_from(record: Any) -> tuple[Run, match.SimulationSummary, float]:
    if not isinstance(record, dict) or record.get("kind") != PARTIAL_KIND:
        raise ValueError(_("not marked as one"))
    if record.get("version") != PARTIAL_VERSION:
        raise ValueError(_("version {version}, this scorekeeper reads {supported}").format(
            version=repr(record.get("version")), supported=PARTIAL_VERSION))
    if _int(record["win_share"], 1) != match.WIN_SHARES:
        raise ValueError(_("counted in other win shares"))
    game, bots, options = record["game"], record["bots"], record["options"]
    if not isinstance(game, str) or not isinstance(options, dict) or not isinstance(
            bots, list) or not all(isinstance(bot, str) for bot in bots):
        raise ValueError(_("game, bots or options of the wrong type"))
    run = Run(game, tuple(bots), _int(record["seed"], -(1 << 63)), options,
              _int(record["games_in_run"], 1), _int(record["first_game"]),
              _int(record["stop_game"]))
    shares = [_int(value) for value in record["win_shares"]]
    stats = {str(key): [_int(hits), _int(total)] for key, (hits, total)
             in record["stats"].items()}
    summary = match.SimulationSummary(game, list(bots), _int(record["games"]),
                                      _int(record["deals"]), shares, stats)
    seconds = record["seconds"]
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds < 0:
        raise ValueError(f"seconds: {seconds!r}")
    if not run.start <= run.stop <= run.games or summary.games != run.stop - run.start \
            or len(shares) != len(bots):
        raise ValueError(_("its counts do not fit its games"))
    return run, summary, float(seconds)


@dataclass(frozen=True, slots=True)
class Merged:
    run: Run
    summary: match.SimulationSummary
    seconds: float
    """The sum of the parts' seconds: the time the games took, one part after another."""
    missing: list[tuple[int, int]]
    """Games of the run no part covers, as ``(start, stop)``."""


def merge(paths: Sequence[Path]) -> Merged:
    """Add up the partial results of one run's disjoint slices."""
    parts = [load_partial(path) for path in paths]
    first = parts[0][0]
    total = match.SimulationSummary(first.game, list(first.bots))
    seconds = 0.0
    covered: list[tuple[int, int, Path]] = []
    for path, (run, summary, spent) in zip(paths, parts, strict=True):
        if run.same_run != first.same_run:
            raise EntryError(_("{file} is from another run than {other} (game, bots, house "
                               "rules, seed or number of games differ)").format(
                file=path, other=paths[0]))
        for start, stop, other in covered:
            if run.start < stop and start < run.stop:
                raise EntryError(_("{file} and {other} both hold games {first} to {last}: give "
                                   "each shard once").format(
                    file=path, other=other, first=max(start, run.start) + 1,
                    last=min(stop, run.stop)))
        covered.append((run.start, run.stop, path))
        total.merge(summary)
        seconds += spent
    missing: list[tuple[int, int]] = []
    at = 0
    for start, stop, _path in sorted(covered):
        if start > at:
            missing.append((at, start))
        at = max(at, stop)
    if at < first.games:
        missing.append((at, first.games))
    return Merged(first, total, seconds, missing)
