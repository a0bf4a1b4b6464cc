"""Start-up is the table's wait: `score add-round` loads only what it uses."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

RUN_AND_LIST_MODULES = """
import json, sys
from scorekeeper.cli.app import run
code = run(sys.argv[1:])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}), file=sys.stderr)
"""


def script_report(script: str, args: list[str], env: dict[str, str]) -> dict[str, Any]:
    """What ``python -c script *args`` reported: the JSON of its last line on stderr, from
    a run whose command ended well (``"code": 0``)."""
    done = subprocess.run([sys.executable, "-c", script, *args], env=env,
                          capture_output=True, text=True, check=True)
    report: dict[str, Any] = json.loads(done.stderr.strip().splitlines()[-1])
    assert report["code"] == 0, done.stderr
    return report


def modules_loaded_by(args: list[str], env: dict[str, str]) -> set[str]:
    return set(script_report(RUN_AND_LIST_MODULES, args, env)["modules"])


MINIMAL_TYPER_APP = """
import json, sys
from typing import Annotated, Optional
import typer

app = typer.Typer(add_completion=False)

@app.command()
def add_round(values: Annotated[Optional[list[str]], typer.Argument()] = None,
              bid: Annotated[Optional[int], typer.Option("--bid")] = None) -> None:
    pass

app(["Ann=3", "--bid", "2"], standalone_mode=False)
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def typers_own_modules() -> set[str]:
    """What a minimal Typer app with parameters of the same kinds loads to parse its
    command line (Typer 0.29 coerces every value through pydantic)."""
    done = subprocess.run([sys.executable, "-c", MINIMAL_TYPER_APP], capture_output=True,
                          text=True, check=True)
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


NOT_AT_THE_TABLE = (
    "pydantic", "multiprocessing", "concurrent.futures", "rich.progress",
    "scorekeeper.games.least_score.engine", "scorekeeper.games.least_score.bots",
    "scorekeeper.games.one_card.engine", "scorekeeper.games.one_card.bots",
    "scorekeeper.match", "scorekeeper.stats", "scorekeeper.players", "scorekeeper.summary",
    "scorekeeper.doctor", "scorekeeper.views.export", "scorekeeper.cli.nights",
    "scorekeeper.views.json_views", "scorekeeper.importing", "scorekeeper.cli.prompts",
    "tomllib", "tomlkit",  # no config file to read, none to write
    "importlib.metadata", "email",  # the games' entry points are read without them
    # a session whose game is missing, and the virtual deck's settings (defined apart)
    "scorekeeper.unavailable", "scorekeeper.virtual_settings",
    # the other games' declarations: the registry imports the session's game alone
    "scorekeeper.games.one_card.game", "scorekeeper.games.points.game",
    "scorekeeper.games.hearts.game", "scorekeeper.games.oh_hell.game",
    "scorekeeper.games.yaniv.game",
    # what players enter on their pages (serve --entry) and the narrow grid's marks
    "scorekeeper.kit.entry_form", "scorekeeper.games.least_score.entry", "scorekeeper.kit.marks",
)


@pytest.mark.e2e
def test_add_round_loads_no_engine_no_pool_no_pydantic_and_no_other_command(
        score_run: Any, score_env: dict[str, str], db_path: Path) -> None:
    score_run("new", "least-score", "--player", "Ann", "--player", "Bob")
    loaded = modules_loaded_by(["add-round", "--declarer", "Ann", "Ann=3", "Bob=5"],
                               score_env)
    assert "scorekeeper.cli.app" in loaded  # the list is the command's own
    typers = typers_own_modules()
    assert "typer" in typers
    # pydantic is left out only where Typer itself needs it to parse any command line
    assert not [name for name in NOT_AT_THE_TABLE if name in loaded and name not in typers]


WRITING_WITHOUT = (
    "filelock", "logging",  # the store's lock is flock itself (files.acquire_lock)
    "rich._emoji_codes",  # the console replaces no :emoji: codes
)


def riches_own_modules() -> set[str]:
    """What rich's table and text themselves import (older rich imports its emoji table
    and logging with ``rich.text``; rich 15 only when a console replaces emoji codes)."""
    code = ("import json, sys, rich.console, rich.table, rich.text; "
            "print(json.dumps(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    return set(json.loads(done.stdout))


@pytest.mark.e2e
def test_add_round_writes_without_filelock_or_the_emoji_table(
        score_run: Any, score_env: dict[str, str], db_path: Path) -> None:
    score_run("new", "least-score", "--player", "Ann", "--player", "Bob")
    loaded = modules_loaded_by(["add-round", "--declarer", "Ann", "Ann=3", "Bob=5"],
                               score_env)
    assert db_path.with_name(db_path.name + ".lock").exists()  # it wrote, under the lock
    theirs = typers_own_modules() | riches_own_modules()
    assert not [name for name in WRITING_WITHOUT if name in loaded and name not in theirs]
    assert "filelock" not in loaded  # no dependency of ours loads it either


@pytest.mark.parametrize("args", [["add-round", "--session", "+1", "--declarer", "Ann",
                                   "Ann=3", "Bob=5"]])
@pytest.mark.e2e
def test_a_value_in_another_spelling_still_parses(
        score_run: Any, args: list[str]) -> None:
    score_run("new", "least-score", "--player", "Ann", "--player", "Bob")
    done = score_run(*args)
    assert done.exit_code == 0, done.stderr
    assert "Round 1 recorded" in done.stdout


def tables_of(modules: set[str]) -> set[str]:
    return {name for name in modules if name.endswith(".table")
            and name.startswith("scorekeeper.games.")}


def declarations_of(modules: set[str]) -> set[str]:
    return {name for name in modules if name.endswith(".game")
            and name.startswith("scorekeeper.games.")}


def own_tables(game: str) -> set[str]:
    """The game's table module and, for a variant, its base's."""
    from scorekeeper.registry import declaration_of

    declaration = declaration_of(game)
    own = {str(declaration.given("table")).partition(":")[0]}
    if declaration.given("table") is declaration.table:  # given itself: its class's module
        own = {type(declaration.table).__module__}
    return own | ({f"{declaration.base}.table"} if declaration.base else set())


@pytest.mark.e2e
def test_add_round_on_a_least_score_session_imports_no_other_games_table(
        score_run: Any, score_env: dict[str, str]) -> None:
    score_run("new", "least-score", "--player", "Ann", "--player", "Bob")
    loaded = modules_loaded_by(["add-round", "--declarer", "Ann", "Ann=3", "Bob=5"],
                               score_env)
    # the session's game's declaration is imported, no other (registry._Declarations)
    assert declarations_of(loaded) == {"scorekeeper.games.least_score.game"}
    assert tables_of(loaded) == {"scorekeeper.games.least_score.table"}
    # every other declaration spells its house rules' values plainly (Hearts' too)
    assert {name for name in loaded if name.startswith("scorekeeper.games.")
            and name.endswith(".rules")} == {"scorekeeper.games.least_score.rules"}


BUILT_IN = ["least-score", "one-card", "points", "hearts", "oh-hell", "yaniv"]


@pytest.mark.parametrize("game", BUILT_IN)
@pytest.mark.e2e
def test_a_command_on_one_games_session_imports_its_table_and_its_bases_only(
        score_run: Any, score_env: dict[str, str], game: str) -> None:
    started = score_run("new", game, "--player", "Ann", "--player", "Bob", "--player", "Cy")
    assert started.exit_code == 0, started.stderr
    loaded = modules_loaded_by(["show"], score_env)
    assert tables_of(loaded) == own_tables(game)
    # its declaration (and at most its base's), no other game's
    own = {name.removesuffix(".table") + ".game" for name in own_tables(game)}
    assert f"scorekeeper.games.{game.replace('-', '_')}.game" in declarations_of(loaded)
    assert declarations_of(loaded) <= own
    assert len(own_tables(game)) == (2 if game in ("yaniv", "hearts") else 1)


FREEZE_REPORT = """
import gc, json, sys
collecting = gc.isenabled()
import scorekeeper.cli
print(json.dumps({"before": collecting, "after": gc.isenabled(),
                  "frozen": gc.get_freeze_count()}))
"""


@pytest.mark.e2e
def test_the_command_line_loads_with_collection_paused_and_frozen_after() -> None:
    """Importing the CLI collected garbage that was not there (some 9 % of add-round's
    instructions): it loads with the collector paused, what it loaded is frozen, and
    collection is on again, as it was, before any command runs."""
    for code in (FREEZE_REPORT, "import gc; gc.disable()\n" + FREEZE_REPORT):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              check=True)
        report = json.loads(done.stdout.strip().splitlines()[-1])
        assert report["after"] is report["before"]  # as the caller had it
        assert report["frozen"] > 10_000  # the CLI's classes and functions, set aside


COLLECTOR_REPORT = """
import gc, json, sys
from scorekeeper.cli import collector, main, run
seen = {"loaded": gc.get_freeze_count()}
starts = collector.command_starts

def command_starts() -> None:
    seen["while_parsing"] = gc.isenabled()
    starts()
    seen["in_the_command"] = gc.isenabled()
    seen["frozen_then"] = gc.get_freeze_count()

collector.command_starts = command_starts
if sys.argv[1] == "main":
    sys.argv[1:2] = []
    try:
        main()
    except SystemExit as done:
        seen["code"] = done.code
else:
    seen["code"] = run(sys.argv[2:])
seen["at_the_end"] = gc.isenabled()
seen["frozen_at_the_end"] = gc.get_freeze_count()
print(json.dumps(seen), file=sys.stderr)
"""


@pytest.mark.e2e
def test_the_score_program_parses_with_collection_paused_and_collects_in_its_command(
        score_run: Any, score_env: dict[str, str]) -> None:
    """Typer loads more as it parses (its parameters' coercion: pydantic, in Typer 0.29):
    the ``score`` program keeps the collector paused until its command starts, sets
    aside what was loaded, collects as usual in the command (``play`` and ``serve`` run
    for hours), and sets aside what is left for the interpreter's exit. ``run`` in a
    test's process leaves the collector as it was."""
    score_run("new", "least-score", "--player", "Ann", "--player", "Bob")
    reports: dict[str, dict[str, Any]] = {}
    for how in ("main", "run"):
        reports[how] = script_report(COLLECTOR_REPORT, [how, "add-round", "--declarer",
                                                        "Ann", "Ann=3", "Bob=5"], score_env)
        assert reports[how]["in_the_command"] is True
    program, in_process = reports["main"], reports["run"]
    assert program["while_parsing"] is False
    assert program["frozen_then"] > program["loaded"]  # what parsing loaded, set aside
    assert program["frozen_at_the_end"] > program["frozen_then"]
    assert in_process["while_parsing"] is True and in_process["at_the_end"] is True
    # nothing more set aside (what was, and has since been freed, leaves the count)
    assert in_process["frozen_at_the_end"] <= in_process["frozen_then"] <= in_process["loaded"]


COUNT_DATACLASSES = """
import dataclasses, inspect, json, sys
from scorekeeper.cli.app import run
code = run(sys.argv[1:])
defined = sorted(f"{name}.{key}" for name, module in list(sys.modules.items())
                 if name.startswith("scorekeeper") for key, value in vars(module).items()
                 if inspect.isclass(value) and value.__module__ == name
                 and dataclasses.is_dataclass(value))
print(json.dumps({"code": code, "defined": defined}), file=sys.stderr)
"""

DATACLASSES_AT_THE_TABLE = 12
"""The dataclasses add-round defines on a Least Score session (2026-12-03: 12; 22, and 30,
before): each costs some 3.5 to 7 M instructions to define on Python 3.11, which writes
out their methods as source and compiles each (docs/performance.md). The values the kit
hands out are named tuples (a seventh of the cost), what lives for one command a plain
class; what is left is subclassed by the games (rounds, standings) or adjusted by their
variants with ``dataclasses.replace`` (docs/adding-a-game.md)."""


@pytest.mark.e2e
def test_add_round_defines_no_more_dataclasses_than_it_did(
        score_run: Any, score_env: dict[str, str]) -> None:
    score_run("new", "least-score", "--player", "Ann", "--player", "Bob")
    defined = script_report(COUNT_DATACLASSES, ["add-round", "--declarer", "Ann", "Ann=3",
                                                 "Bob=5"], score_env)["defined"]
    assert "scorekeeper.session.Session" in defined  # the count is the command's own
    assert not {"scorekeeper.unavailable.UnavailableSession", "scorekeeper.config.Setting",
                "scorekeeper.virtual_settings.VirtualSettings", "scorekeeper.config.Config",
                "scorekeeper.kit.play.Played", "scorekeeper.store.Opened",
                "scorekeeper.registry.EntryPoint"} & set(defined)
    assert len(defined) <= DATACLASSES_AT_THE_TABLE, defined
