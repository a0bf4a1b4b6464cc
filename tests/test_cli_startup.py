"""Start-up is the table's wait: `score add-round` loads only what it uses, and the
values it parses without pydantic come out exactly as Typer's pydantic coercion gives them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from typer._adapters import try_build_adapter
from typer.models import ArgumentInfo, OptionInfo

from scorekeeper.cli.coercion import _UNSETTLED, plain_value

KINDS: list[Any] = [str, int, bool, list[str]]


def typers_value(annotation: Any, value: Any) -> tuple[bool, Any]:
    """What Typer's own coercion makes of ``value``: (True, result) or (False, None)."""
    info = ArgumentInfo() if annotation == list[str] else OptionInfo()
    adapter = try_build_adapter(annotation, info)
    assert adapter is not None
    try:
        return True, adapter.validate_python(value)
    except Exception:
        return False, None


NUMBERISH = st.from_regex(r"\A[ +\-]?[0-9_٣.]{0,22}[ ]?\Z")
ANY_TEXT = st.text(st.characters(exclude_categories=()))  # lone surrogates too (argv's)


@given(st.sampled_from(KINDS), st.one_of(ANY_TEXT, NUMBERISH, st.booleans(),
                                         st.lists(ANY_TEXT, max_size=3).map(tuple)))
@example(int, "007")
@example(int, "-12")
@example(int, "9" * 18)
@example(int, "9" * 19)
@example(int, "+3")
@example(int, "")
@example(list[str], ("Ann=7", "Bob=AH,3S"))
@example(list[str], ())
def test_a_plain_value_is_what_typers_coercion_makes_of_it(annotation: Any,
                                                          value: Any) -> None:
    settled = plain_value(annotation, value)
    if settled is _UNSETTLED:
        return  # Typer's own coercion decides (tested by the commands' tests)
    accepted, typers = typers_value(annotation, value)
    assert accepted
    assert settled == typers
    assert type(settled) is type(typers)


def test_numbers_in_other_spellings_are_left_to_typer() -> None:
    for spelling in ("+3", " 3", "3 ", "1_000", "3.0", "٣", "", "-"):
        assert plain_value(int, spelling) is _UNSETTLED


RUN_AND_LIST_MODULES = """
import json, sys
from scorekeeper.cli.app import run
code = run(sys.argv[1:])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}), file=sys.stderr)
"""


def modules_loaded_by(args: list[str], env: dict[str, str]) -> set[str]:
    done = subprocess.run([sys.executable, "-c", RUN_AND_LIST_MODULES, *args], env=env,
                          capture_output=True, text=True, check=True)
    report = json.loads(done.stderr.strip().splitlines()[-1])
    assert report["code"] == 0, done.stderr
    return set(report["modules"])


NOT_AT_THE_TABLE = (
    "pydantic", "multiprocessing", "concurrent.futures", "rich.progress",
    "scorekeeper.games.least_score.engine", "scorekeeper.games.least_score.bots",
    "scorekeeper.games.one_card.engine", "scorekeeper.games.one_card.bots",
    "scorekeeper.match", "scorekeeper.stats", "scorekeeper.players", "scorekeeper.summary",
    "scorekeeper.doctor", "scorekeeper.cli.export", "scorekeeper.cli.nights",
    "scorekeeper.cli.json_views", "scorekeeper.cli.importing", "scorekeeper.cli.prompts",
    "tomllib", "tomlkit",  # no config file to read, none to write
)


def test_add_round_loads_no_engine_no_pool_no_pydantic_and_no_other_command(
        score_run: Any, score_env: dict[str, str], db_path: Path) -> None:
    score_run("new", "least-score", "--player", "Ann", "--player", "Bob")
    loaded = modules_loaded_by(["add-round", "--declarer", "Ann", "Ann=3", "Bob=5"],
                               score_env)
    assert "scorekeeper.cli.app" in loaded  # the list is the command's own
    assert not [name for name in NOT_AT_THE_TABLE if name in loaded]


@pytest.mark.parametrize("args", [["add-round", "--session", "+1", "--declarer", "Ann",
                                   "Ann=3", "Bob=5"]])
def test_a_value_in_another_spelling_still_reaches_typers_coercion(
        score_run: Any, args: list[str]) -> None:
    score_run("new", "least-score", "--player", "Ann", "--player", "Bob")
    done = score_run(*args)
    assert done.exit_code == 0, done.stderr
    assert "Round 1 recorded" in done.stdout
