"""docs/adding-a-game.md's own example is a working plug-in: its code blocks, each
headed by the file it is (``# tally/table.py``), are written to a package, registered
as a plug-in is (``SCOREKEEPER_GAMES``), and played through the real ``score``; and every
module of the kit a game imports declares ``__all__`` and is named on that page."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import Result

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "adding-a-game.md"
KIT = ROOT / "scorekeeper" / "kit"


def doc_files() -> dict[str, str]:
    """Each ```python block of the page whose first line names a file: path -> code."""
    blocks = re.findall(r"```python\n# ([\w/]+\.py)\n(.*?)```", DOC.read_text(encoding="utf-8"),
                        re.S)
    return dict(blocks)


def test_the_page_holds_a_whole_game() -> None:
    assert set(doc_files()) == {"tally/words.py", "tally/table.py", "tally/game.py"}


@pytest.mark.e2e
def test_the_pages_example_is_a_working_plug_in(score_run: Callable[..., Result],
                                                tmp_path: Path) -> None:
    for name, code in doc_files().items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(code, encoding="utf-8")
    (tmp_path / "tally" / "__init__.py").write_text('"""Tally."""\n', encoding="utf-8")
    env = {"PYTHONPATH": str(tmp_path), "SCOREKEEPER_GAMES": "tally.game:GAME"}

    def score(*args: object, code: int = 0) -> Result:
        result = score_run(*args, env=env)
        assert result.exit_code == code, (args, result)
        assert "Traceback" not in result.output and "left out" not in result.stderr, result
        return result

    assert "Tally" in score("new", "tally", "--player", "Ann", "--player", "Bob",
                            "--goal", "40").stdout
    assert "Round 1 recorded" in score("add-round", "Ann=30", "Bob=12", "--note",
                                       "Bob's first night").stdout
    refused = score("add-round", "Ann=3", code=1)
    assert "Bob" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
    done = score("add-round", "Ann=15", "Bob=2")
    assert "Ann" in done.stdout and "wins" in done.stdout
    shown = score("show").stdout
    assert "Ann" in shown and "45" in shown and "14" in shown
    exported = json.loads(score("export", "--format", "json").stdout)
    assert exported["game"] == "tally" and exported["winners"] == ["Ann"]
    assert exported["rounds"][0]["note"] == "Bob's first night"
    assert "note" not in exported["rounds"][1]


def node_value(node: ast.stmt) -> ast.expr | None:
    return node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None


def public_api(path: Path) -> list[str] | None:
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) else []
        if node_value(node) is not None and any(
                isinstance(target, ast.Name) and target.id == "__all__" for target in targets):
            return list(ast.literal_eval(node_value(node)))  # type: ignore[arg-type]
    return None


@pytest.mark.parametrize("path", sorted(KIT.glob("*.py")), ids=lambda p: p.stem)
def test_each_kit_module_declares_its_api_and_is_on_the_page(path: Path) -> None:
    names = public_api(path)
    assert names is not None, f"{path.name} declares no __all__"
    source = path.read_text(encoding="utf-8")
    for name in names:  # each name listed is the module's own or re-exported by it
        assert re.search(rf"\b{re.escape(name)}\b", source), name
    assert len(source.splitlines()) <= 400, f"{path.name} is over 400 lines"
    if path.stem != "__init__":
        assert f"`scorekeeper.kit.{path.stem}`" in DOC.read_text(encoding="utf-8")


def test_the_examples_import_only_the_kits_public_names() -> None:
    """What the page's example and the test games import of the kit is in ``__all__``."""
    api = {f"scorekeeper.kit.{path.stem}": set(public_api(path) or ())
           for path in KIT.glob("*.py")}
    sources = [code for code in doc_files().values()]
    sources += [path.read_text(encoding="utf-8")
                for folder in ("third_game", "variant_game")
                for path in (ROOT / "tests" / folder).rglob("*.py")]
    for source in sources:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ImportFrom) and node.module in api:
                for alias in node.names:
                    assert alias.name in api[node.module], (node.module, alias.name)


@pytest.mark.e2e
def test_mypy_flags_a_method_the_example_leaves_out(tmp_path: Path) -> None:
    """What a round must give is abstract: the page's example passes ``mypy --strict``,
    and without its scored round's ``tallies`` mypy names the missing method."""
    for name, code in doc_files().items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(code, encoding="utf-8")
    (tmp_path / "tally" / "__init__.py").write_text("", encoding="utf-8")
    env = {**os.environ, "MYPYPATH": str(ROOT)}
    command = [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "-p", "tally"]
    clean = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True,
                           check=False)
    assert clean.returncode == 0, clean.stdout
    table = tmp_path / "tally" / "table.py"
    code = table.read_text(encoding="utf-8")
    start, end = code.index("    def tallies"), code.index("class TallyTable")
    table.write_text(code[:start] + "\n\n" + code[end:], encoding="utf-8")
    flagged = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True,
                             check=False)
    assert flagged.returncode == 1
    assert 'Cannot instantiate abstract class "TallyScored" with abstract attribute ' \
        '"tallies"' in flagged.stdout
