"""Dependencies through their public API only (issue 27).

A dependency's private module (``typer._click``, ``typer._coercion``) or private name
(``typer.core._TyperParameter``) changes without notice between releases: leaning on
them is how `score` came to fail to start on Typer releases its own floor admitted.
Nor may the code patch a dependency: no method or attribute replaced on a module or
class it imports (``TyperParameter.get_runtime_param = ...``), no ``__class__`` swap,
no function put in place of a method on an object. The source (the package, the
tests, the benchmarks and the scripts) is read with :mod:`ast`.
"""

from __future__ import annotations

import ast
import importlib.metadata
from collections.abc import Iterator
from pathlib import Path

import pytest
from sources import parsed_source

ROOT = Path(__file__).resolve().parent.parent
TREES = ("scorekeeper", "tests", "benchmarks", "scripts")
OWN = {"scorekeeper", *(package.parent.name for folder in ("third_game", "variant_game")
                        for package in (ROOT / "tests" / folder).glob("*/__init__.py"))}
"""This project's modules: its package and its test plug-ins' (which may be installed
too, and are not a dependency)."""


def _dependencies() -> frozenset[str]:
    """The top-level modules that installed distributions provide, ours left out."""
    return frozenset(name for name in importlib.metadata.packages_distributions()
                     if name not in OWN)


DEPENDENCIES = _dependencies()


def _private(part: str) -> bool:
    return part.startswith("_") and not (part.startswith("__") and part.endswith("__"))


def _dotted(node: ast.expr) -> list[str] | None:
    """``a.b.c`` as ``["a", "b", "c"]`` (None for anything but names and attributes)."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return [node.id, *reversed(parts)]


class _Scanner(ast.NodeVisitor):
    def __init__(self, where: str) -> None:
        self.where = where
        self.found: list[str] = []
        self.bound: dict[str, str] = {}  # local name -> the dependency it came from

    def _say(self, node: ast.AST, what: str) -> None:
        self.found.append(f"{self.where}:{getattr(node, 'lineno', 0)}: {what}")

    # imports -------------------------------------------------------------
    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            parts = alias.name.split(".")
            if parts[0] not in DEPENDENCIES:
                continue
            if any(_private(part) for part in parts[1:]):
                self._say(node, f"imports the private module {alias.name}")
            self.bound[alias.asname or parts[0]] = parts[0]

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level or not node.module:
            return
        parts = node.module.split(".")
        if parts[0] not in DEPENDENCIES:
            return
        if any(_private(part) for part in parts[1:]):
            self._say(node, f"imports from the private module {node.module}")
        for alias in node.names:
            if _private(alias.name):
                self._say(node, f"imports the private name {alias.name} of {node.module}")
            self.bound[alias.asname or alias.name] = parts[0]

    # private attributes of a dependency -------------------------------------
    def visit_Attribute(self, node: ast.Attribute) -> None:
        parts = _dotted(node)
        if parts is not None and parts[0] in self.bound and any(
                _private(part) for part in parts[1:]):
            self._say(node, f"reaches the private {'.'.join(parts)}")
            return  # one finding per chain
        self.generic_visit(node)

    # patches -------------------------------------------------------------
    def _target(self, target: ast.expr, value: ast.expr | None) -> None:
        if isinstance(target, ast.Tuple | ast.List):
            for each in target.elts:
                self._target(each, None)
            return
        if not isinstance(target, ast.Attribute):
            return
        if target.attr == "__class__":
            self._say(target, "swaps an object's __class__")
        parts = _dotted(target.value)
        if parts is not None and parts[0] in self.bound:
            self._say(target, f"patches {'.'.join(parts)}.{target.attr} of "
                              f"{self.bound[parts[0]]}")
        if isinstance(value, ast.Lambda) and not (
                isinstance(target.value, ast.Name) and target.value.id in ("self", "cls")):
            self._say(target, f"puts a function in place of the method {target.attr}")

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._target(target, node.value)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._target(node.target, node.value)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._target(node.target, node.value)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        called = _dotted(node.func)
        if called is not None and called[-1] in ("setattr", "delattr") and node.args:
            first = node.args[0]
            parts = _dotted(first) if isinstance(first, ast.Name | ast.Attribute) else None
            if parts is not None and parts[0] in self.bound:
                self._say(node, f"{called[-1]} on {'.'.join(parts)} of "
                                f"{self.bound[parts[0]]}")
            if isinstance(first, ast.Constant) and isinstance(first.value, str) \
                    and first.value.split(".")[0] in DEPENDENCIES:
                self._say(node, f"{called[-1]} on {first.value}")
            if len(node.args) > 1 and isinstance(node.args[1], ast.Constant) \
                    and node.args[1].value == "__class__":
                self._say(node, "swaps an object's __class__")
        self.generic_visit(node)


def problems_in(source: str, where: str = "<source>") -> list[str]:
    scanner = _Scanner(where)
    scanner.visit(parsed_source(source))
    return scanner.found


def _sources() -> Iterator[Path]:
    for tree in TREES:
        yield from sorted((ROOT / tree).rglob("*.py"))


@pytest.mark.parametrize("source", [
    "from typer._click import Context",
    "from typer._click.exceptions import UsageError",
    "import typer._completion_shared",
    "import typer._completion_shared as shared",
    "from typer.core import _TyperParameter",
    "import typer.core\nbase = typer.core._TyperParameter",
    "import typer\nhelper = typer.completion._get_shell_name",
    "from typer.core import TyperGroup\nTyperGroup.get_command = lambda self, ctx, name: None",
    "import typer.core\ntyper.core.TyperOption.help = 'x'",
    "import rich.console as rc\nrc.Console.print = print",
    "from typer.core import TyperGroup\nsetattr(TyperGroup, 'x', 1)",
    "def f(monkeypatch):\n    monkeypatch.setattr('typer.main.get_command', print)",
    "def f(info, other):\n    info.__class__ = other",
    "def f(param):\n    param.display_type_rich = lambda ctx: None",
])
def test_the_scan_finds_each_kind_of_private_use_or_patch(source: str) -> None:
    assert problems_in(source), source


@pytest.mark.parametrize("source", [
    "import typer\ntyper.Context.formatter_class",
    "import typer.core\nclass Plain(typer.core.TyperCommand):\n"
    "    def format_options(self, ctx, formatter): pass",
    "from typer.models import CommandInfo\ndef f(info: CommandInfo):\n    info.cls = None",
    "def f(param):\n    param.metavar = 'N'\n    param.help = 'text'",
    "from scorekeeper.i18n import _\nimport os\nos._exit",
    "class A:\n    def __init__(self):\n        self._x = 1\n        self.f = lambda: 1",
    "def f(monkeypatch):\n    monkeypatch.setattr('sys.stdin', None)",
])
def test_the_scan_lets_public_use_be(source: str) -> None:
    assert problems_in(source) == [], source


def test_no_private_module_of_a_dependency_and_no_patch_of_one() -> None:
    assert "typer" in DEPENDENCIES and "rich" in DEPENDENCIES
    sources = list(_sources())
    assert len(sources) > 50
    found = [problem for path in sources
             for problem in problems_in(path.read_text(encoding="utf-8"),
                                        str(path.relative_to(ROOT)))]
    assert found == []


UNDOCUMENTED_TYPER = ("get_command_from_info", "get_completion_inspect_parameters",
                      "show_callback", "install_callback")
"""Public names of Typer that its documentation doesn't give: they may change in any
minor release."""


def _typer_requirement() -> str:
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    [requirement] = [entry for entry in project["dependencies"] if entry.startswith("typer")]
    return str(requirement).replace(" ", "")


def test_typer_undocumented_functions_only_under_a_cap_and_a_newest_typer_job() -> None:
    """Where the code calls a Typer function that Typer doesn't document, typer is capped
    below the next minor of its floor and CI runs the command line's tests on the newest
    release (.ci/newest-typer); get_command_from_info is not used at all."""
    used = {name for path in _sources() if path.parts[-2:] != ("tests", "test_public_api.py")
            for name in UNDOCUMENTED_TYPER
            if f".{name}(" in path.read_text(encoding="utf-8")}
    assert "get_command_from_info" not in used
    if not used:
        return
    requirement = _typer_requirement()
    floor = requirement.split(">=")[1].split(",")[0]
    major, minor = floor.split(".")[:2]
    assert f"<{major}.{int(minor) + 1}" in requirement.split(","), requirement
    job = (ROOT / ".ci" / "newest-typer").read_text(encoding="utf-8")
    assert "--upgrade --no-deps typer" in job
    assert "bash .ci/newest-typer" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
