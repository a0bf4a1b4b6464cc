"""Floors that hold (issue 27): every direct dependency has a ``>=`` floor, and
``.ci/run`` runs the default suite a second time with each pinned at it, through the
constraints scripts/floor_constraints.py makes from pyproject.toml."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "floor_constraints.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("floor_constraints", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


floor_constraints = _script()


def _names(requirements: list[str]) -> list[str]:
    return [floor_constraints.floor_of(requirement)[0] for requirement in requirements]


@pytest.mark.e2e
def test_every_direct_dependency_is_pinned_at_its_floor() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = project["dependencies"] + project["optional-dependencies"]["test"]
    done = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True,
                          check=True)
    pins = [line.partition("==") for line in done.stdout.splitlines()]
    assert [name for name, _, _ in pins] == _names(wanted)
    assert all(separator == "==" and version for _, separator, version in pins)
    assert ("typer", "==", "0.29") in pins  # the first Typer the suite passes on


@pytest.mark.parametrize(("requirement", "floor"), [
    ("typer>=0.29", ("typer", "0.29")),
    ("rich>=14.3,<16", ("rich", "14.3")),
    ("zxing-cpp >= 2.2, <4", ("zxing-cpp", "2.2")),
    ("pexpect>=4.8,<5 ; sys_platform != 'win32'", ("pexpect", "4.8")),
    ("uvicorn[standard]>=0.30", ("uvicorn", "0.30")),
])
def test_a_floor_is_read_from_a_requirement(requirement: str, floor: tuple[str, str]) -> None:
    assert floor_constraints.floor_of(requirement) == floor


@pytest.mark.parametrize("requirement", ["ruff", "rich<16", "typer==0.29", "x>=1,>=2"])
def test_a_requirement_without_one_floor_is_refused(requirement: str) -> None:
    with pytest.raises(ValueError, match="floor"):
        floor_constraints.floor_of(requirement)


@pytest.mark.e2e
def test_a_dependency_added_without_a_floor_fails_the_script(tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nname = "x"\ndependencies = ["typer>=0.29", "tomlkit"]\n'
                         '[project.optional-dependencies]\ntest = ["pytest>=8"]\n',
                         encoding="utf-8")
    done = subprocess.run([sys.executable, str(SCRIPT), "--pyproject", str(pyproject)],
                          capture_output=True, text=True)
    assert done.returncode != 0
    assert "'tomlkit' has no single >= floor" in done.stderr


def test_ci_runs_the_quick_suite_at_the_floors() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "scripts/floor_constraints.py" in ci
    after = ci.split("floor_constraints.py", 1)[1]
    assert "-c .ci-venv-lowest/floors.txt -e '.[test]'" in after
    assert '.ci-venv-lowest/bin/python -m pytest -m "not e2e and not slow"\n' in after
