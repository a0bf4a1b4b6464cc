"""Fixtures for the command-line tests (in the style of sqlite-utils' test suite).

* ``db_path``: a store file in a fresh temporary folder, picked through
  ``SCOREKEEPER_DB`` (tests pass ``--db`` themselves when that is what they check).
* ``cli``: runs ``score`` in-process through :func:`scorekeeper.cli.app.run`
  and returns a :class:`Result` (exit code, stdout, stderr) captured with capsys.
* ``score_exe`` / ``score_run``: the real installed ``score`` executable (next to
  ``sys.executable``) run in a subprocess against the temporary store.
* ``refuse``: runs a command that must be refused and checks everything a refusal
  promises (CLI.md): the exit code, one line on stderr, no traceback, and the
  store file byte-for-byte unchanged.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

# pytest-xdist's workers start with COLUMNS=80; rich would fix the console's width
# from it when the console is made (at import), and every test that sets its own
# COLUMNS would be ignored. Without it at import, rich reads COLUMNS at each print.
os.environ.pop("COLUMNS", None)

import examples_budget
from deadlines import deadline

# The suite tests this project's games and its own test plug-ins, whatever else is
# installed beside them: only this distribution's entry points are read, in this process
# and in every `score` it starts (a test that wants a plug-in names it: games_from()).
os.environ["SCOREKEEPER_GAME_DISTRIBUTIONS"] = "cardnight-scorekeeper"

from scorekeeper import i18n, registry
from scorekeeper.cli.app import run

# `score` as installed: with its bytecode cached, as pip leaves it. Where
# PYTHONDONTWRITEBYTECODE is set, each of the suite's thousands of `score` processes would
# compile every module of the project from source (about 0.37 s of processor time a
# start-up against 0.20 s). So the processes of a run (pytest-xdist's workers and every
# `score` they start) keep their bytecode in one temporary folder of the run's own,
# removed when it ends: the source tree still gets none.
BYTECODE_FOLDER_VARIABLE = "SCOREKEEPER_TEST_BYTECODE"
if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) and BYTECODE_FOLDER_VARIABLE not in os.environ:
    os.environ[BYTECODE_FOLDER_VARIABLE] = tempfile.mkdtemp(prefix="scorekeeper-bytecode-")
    atexit.register(shutil.rmtree, os.environ[BYTECODE_FOLDER_VARIABLE], True)
if BYTECODE_FOLDER_VARIABLE in os.environ:
    os.environ["PYTHONPYCACHEPREFIX"] = os.environ[BYTECODE_FOLDER_VARIABLE]

# Hypothesis fails an example that takes over 200 ms by default; on a loaded 2-core CI
# machine a file-writing example can, and a failure from timing says nothing about the
# code. Speed is measured in benchmarks/, never in tests.
settings.register_profile("scorekeeper", deadline=None)
# The quick loop (`-m "not e2e"` exactly) tries a quarter of the examples
# (tests/examples_budget.py). The profile is the one pytest_configure chose: the tests
# that import this module as tests.conftest run it again, after pytest_configure.
settings.register_profile("scorekeeper-quick", deadline=None,
                          max_examples=examples_budget.examples(100, quick=True))
settings.load_profile(examples_budget.profile)

OWN_DISTRIBUTION = "cardnight-scorekeeper"
DISTRIBUTIONS_VARIABLE = registry.DISTRIBUTIONS_VARIABLE


def games_from(*distributions: str) -> dict[str, str]:
    """The environment that lets ``score`` read the games of ``distributions`` (as well
    as this project's own): ``{**env, **games_from("scorekeeper-high-card")}``."""
    return {DISTRIBUTIONS_VARIABLE: ",".join((OWN_DISTRIBUTION, *distributions))}


def fake_distribution(site: Path, name: str, entry_points: str) -> None:
    """What ``pip install`` leaves of a distribution, as far as entry points go."""
    info = site / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n",
                                   encoding="utf-8")
    (info / "entry_points.txt").write_text(entry_points, encoding="utf-8")


# ---------------------------------------------------------------------------
# The e2e marker, enforced: a test that starts a real process (the `score` executable,
# pip, a browser's driver), a terminal (pexpect forks one) or a server (a socket bound)
# must say so with ``@pytest.mark.e2e``, so ``-m "not e2e"`` is the quick inner loop
# (docs/testing.md). The check is an audit hook (sys.addaudithook): it sees every start,
# whichever helper or library makes it, in any thread, while a test runs.

STARTS = frozenset({"subprocess.Popen", "os.fork", "os.forkpty", "os.posix_spawn",
                    "os.exec", "os.system", "socket.bind"})
"""The audit events that start a process, a terminal or a server."""

_running: list[pytest.Item] = []
"""The test being run (set up, called, torn down), when it is not marked e2e."""

_started: dict[str, str] = {}
"""Test id -> the first start it made without the marker."""


def _watch_starts(event: str, args: tuple[Any, ...]) -> None:
    if event not in STARTS or not _running:
        return
    item = _running[0]
    what = f"{event}{tuple(str(arg)[:80] for arg in args[:2])}"
    _started.setdefault(item.nodeid, what)
    raise RuntimeError(f"{item.nodeid} starts a real process, terminal or server ({what}) "
                       "but is not marked @pytest.mark.e2e (docs/testing.md)")


sys.addaudithook(_watch_starts)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    if item.get_closest_marker("e2e") is None:
        _running.append(item)
    try:
        yield
    finally:
        _running.clear()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A start refused by the audit hook fails the test even when the code under test
    caught the error."""
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    started = _started.get(item.nodeid)
    if started and report.when == "call" and report.outcome != "failed":
        report.outcome = "failed"
        report.longrepr = (f"{item.nodeid} starts a real process, terminal or server "
                           f"({started}) but is not marked @pytest.mark.e2e")


def pytest_configure(config: pytest.Config) -> None:
    """The quick loop's example counts, chosen before any test module is imported (a
    ``--hypothesis-profile`` given on the command line wins for the profile)."""
    given = config.getoption("hypothesis_profile", None)
    if examples_budget.choose(config.option.markexpr) and given is None:
        examples_budget.profile = "scorekeeper-quick"
    elif given is not None:
        examples_budget.profile = given
    settings.load_profile(examples_budget.profile)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The ``slow`` tests run only when ``-m`` names them: ``-m "not e2e"`` (which replaces
    the default ``-m 'not slow'`` of pyproject.toml) leaves them out as the default does."""
    if "slow" in (config.option.markexpr or ""):
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not item.get_closest_marker("slow")]


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The browser tests' pool of Chromiums (tests/browsers.py) ends with the session."""
    browsers = sys.modules.get("browsers")
    if browsers is not None:
        browsers.end_pool()


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """One worker more than the cores (``-n auto``): much of the suite waits on a real
    `score` process, a server or a browser, and a spare worker fills that wait. Measured
    on the 2-core machine: 115 s with 3 workers against 134 s with 2."""
    return (os.cpu_count() or 1) + 1


# Environment variables that would make rich write escape codes to a pipe.
COLOR_FORCING = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "CLICOLOR_FORCE")

ESCAPE = "\x1b"


@dataclass
class Result:
    exit_code: int
    stdout: str
    stderr: str

    @property
    def output(self) -> str:
        return self.stdout + self.stderr

    def json(self) -> Any:
        return json.loads(self.stdout)


def file_bytes(path: Path) -> bytes | None:
    """The file's content, or None when it does not exist."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test starts in English, whatever the machine's locale and whatever an earlier
    test's run activated (a test of another language sets SCOREKEEPER_LANG or --lang);
    LANGUAGE, which each run sets for Typer's words, is put back afterwards."""
    monkeypatch.setenv("SCOREKEEPER_LANG", "en")
    monkeypatch.delenv("LANGUAGE", raising=False)
    i18n.activate(i18n.ENGLISH)
    yield
    i18n.activate(i18n.ENGLISH)


@pytest.fixture
def db_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A store file (not created yet) in its own folder, made the store via SCOREKEEPER_DB."""
    folder = tmp_path / "store"
    folder.mkdir()
    path = folder / "scorekeeper.json"
    monkeypatch.setenv("SCOREKEEPER_DB", str(path))
    # the group's defaults live beside the store: the tests never read the real home's
    monkeypatch.setenv("SCOREKEEPER_CONFIG", str(tmp_path / "config" / "config.toml"))
    for name in COLOR_FORCING:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COLUMNS", "200")  # wide tables: no wrapped or cut cells
    return path


CLI = Callable[..., Result]


@pytest.fixture
def cli(db_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> CLI:
    """``cli("add-round", "--declarer", "Ann", "Ann=7", ...)`` -> Result (in-process)."""
    # Durability is not what these tests check, and fsync costs ~10 ms a write here;
    # the subprocess tests run the real thing.
    monkeypatch.setattr(os, "fsync", lambda descriptor: None)

    def invoke(*args: Any) -> Result:
        capsys.readouterr()  # drop anything printed before
        code = run([str(arg) for arg in args])
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return invoke


@pytest.fixture
def ok(cli: CLI) -> CLI:
    """Like ``cli``, but the command must succeed quietly on stderr."""

    def invoke(*args: Any) -> Result:
        result = cli(*args)
        assert result.exit_code == 0, (args, result)
        assert result.stderr == "", (args, result.stderr)
        return result

    return invoke


Refuse = Callable[..., Result]


@pytest.fixture
def refuse(cli: CLI, db_path: Path) -> Refuse:
    """``refuse(*args, code=1, says=("...",))``: the command is refused as CLI.md promises."""

    def invoke(*args: Any, code: int = 1, says: tuple[str, ...] | str = ()) -> Result:
        before = file_bytes(db_path)
        result = cli(*args)
        assert result.exit_code == code, (args, result)
        assert_one_line_error(result)
        for text in (says,) if isinstance(says, str) else says:
            assert text in result.stderr, (text, result.stderr)
        assert file_bytes(db_path) == before, "a refused command changed the store file"
        return result

    return invoke


def assert_one_line_error(result: Result) -> None:
    assert "Traceback" not in result.output, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got: {result.stderr!r}"
    assert len(lines[0]) > 20, f"not a helpful message: {lines[0]!r}"
    assert ESCAPE not in result.output


# ---------------------------------------------------------------------------
# Building sessions quickly


@pytest.fixture
def summary(cli: CLI) -> Callable[..., dict[str, Any]]:
    """``summary()`` / ``summary(ID)``: the session's FORMAT.md summary via `score export`."""

    def get(session_id: int | None = None) -> dict[str, Any]:
        args = ["export", "--format", "json"]
        if session_id is not None:
            args.insert(1, str(session_id))
        result = cli(*args)
        assert result.exit_code == 0, result
        data: dict[str, Any] = json.loads(result.stdout)
        return data

    return get


def players_args(*names: str) -> list[str]:
    args: list[str] = []
    for name in names:
        args += ["--player", name]
    return args


@pytest.fixture
def least(ok: CLI) -> Callable[..., Result]:
    """``least("Ann", "Bob", "Cy", "--limit", 25)``: a new Least Score session."""

    def start(*players: str, extra: tuple[Any, ...] = ()) -> Result:
        return ok("new", "least-score", *players_args(*players), *extra)

    return start


@pytest.fixture
def one_card(ok: CLI) -> Callable[..., Result]:
    """``one_card("Ann", "Bob", "Cy")``: a new One Card session."""

    def start(*players: str, extra: tuple[Any, ...] = ()) -> Result:
        return ok("new", "one-card", *players_args(*players), *extra)

    return start


@pytest.fixture
def group_games_read_afresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The commands run in this process: the group's games are read from this test's
    config folder, and forgotten afterwards (the registry reads them once a run)."""
    saved = [(table, dict(table)) for table in (registry.DECLARATIONS, registry.ORIGINS)]
    monkeypatch.setattr(registry, "_group_games_read", False)
    yield
    for table, contents in saved:
        table.clear()
        table.update(contents)


# ---------------------------------------------------------------------------
# The real executable


def _find_score() -> Path | None:
    folder = Path(sys.executable).parent
    for name in ("score", "score.exe"):
        candidate = folder / name
        if candidate.exists():
            return candidate
    return None


@pytest.fixture(scope="session")
def score_exe() -> Path:
    found = _find_score()
    if found is None:
        pytest.skip("the `score` console script is not installed next to sys.executable")
    return found


@pytest.fixture
def score_env(db_path: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in COLOR_FORCING}
    env["SCOREKEEPER_DB"] = str(db_path)
    env["COLUMNS"] = "200"
    env["PYTHONIOENCODING"] = "utf-8"
    env.pop("NO_COLOR", None)
    return env


@pytest.fixture
def score_run(score_exe: Path, score_env: dict[str, str]) -> Iterator[Callable[..., Result]]:
    """``score_run("show")``: the installed ``score`` in a subprocess, on the temporary store."""

    def invoke(*args: Any, env: dict[str, str] | None = None, stdin: str | None = None) -> Result:
        completed = subprocess.run(
            [str(score_exe), *(str(arg) for arg in args)],
            env={**score_env, **(env or {})},
            input=stdin if stdin is not None else "",
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=deadline(60),
        )
        return Result(completed.returncode, completed.stdout, completed.stderr)

    yield invoke


# ---------------------------------------------------------------------------
# Games from outside the package, installed as users install them

TESTS = Path(__file__).resolve().parent
TEST_GAMES = ("third_game", "variant_game")
"""The test suite's game distributions (each a folder with its pyproject.toml):
High Card, and Quick Least Score, a variant of Least Score."""


def _setuptools_builds_wheels() -> bool:
    """Whether this environment's setuptools builds a wheel by itself (70.1 and newer):
    then pip need not make an isolated build environment (faster, no download)."""
    try:
        from importlib.metadata import version

        major, minor = (int(part) for part in version("setuptools").split(".")[:2])
    except (ImportError, ValueError):
        return False
    return (major, minor) >= (70, 1)


@pytest.fixture(scope="session")
def installed_games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """For each test game distribution, a folder holding it as ``pip install --target``
    puts it (its package and its ``.dist-info`` with the ``scorekeeper.games`` entry
    point): ``score`` run with the folder on ``PYTHONPATH`` finds the game as it finds any
    installed plug-in.

    Built once per test run from copies of their folders (so the source tree gets no
    ``build/`` or ``.egg-info``), shared by pytest-xdist's workers under a lock; nothing
    of an earlier run is used."""
    import shutil

    from filelock import FileLock

    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    root = shared / "installed-games"
    targets = {name: root / name for name in TEST_GAMES}
    with FileLock(str(shared / "installed-games.lock")):
        if not (root / ".complete").is_file():
            shutil.rmtree(root, ignore_errors=True)
            isolation = ["--no-build-isolation"] if _setuptools_builds_wheels() else []
            for name, target in targets.items():
                source = root / "sources" / name
                shutil.copytree(TESTS / name, source,
                                ignore=shutil.ignore_patterns("__pycache__", "build",
                                                              "*.egg-info"))
                built = subprocess.run(
                    [sys.executable, "-m", "pip", "install", "--no-deps", "--quiet",
                     "--disable-pip-version-check", *isolation, "--target", str(target),
                     str(source)], capture_output=True, text=True,
                    timeout=deadline(600))
                assert built.returncode == 0, built.stderr
            (root / ".complete").touch()
    return targets


@pytest.fixture
def with_third_game(installed_games: dict[str, Path]) -> dict[str, str]:
    """The environment that puts the installed High Card on ``score``'s path."""
    return {"PYTHONPATH": str(installed_games["third_game"]),
            **games_from("scorekeeper-high-card")}


@pytest.fixture
def with_variant_game(installed_games: dict[str, Path]) -> dict[str, str]:
    """The environment that puts the installed Quick Least Score on ``score``'s path."""
    return {"PYTHONPATH": str(installed_games["variant_game"]),
            **games_from("scorekeeper-quick-least-score")}
