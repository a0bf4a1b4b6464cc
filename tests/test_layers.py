"""The architecture holds: each layer imports only the layers above it, no game another
(but a variant its declared base).

1 cards, text, errors, i18n, files, card printing and keyboard input, each game's words ·
2 rules · 3 engine ·
4 bots · 5 the session side (the game kit, tables, virtual adapters, declarations, registry,
session, summary, match, the simulation runner) · 6 store (and reading an import file; and a game's
life on the virtual deck, ``playing``: it holds the session's lease and saves each deal
through the store) · 7 views (no Typer), the web server and each game's keyboard and
online UI (games/<game>/ui.py, online.py) · 8 cli, the Typer commands. No generic module
names a game (the README's "How it is built").
"""

from __future__ import annotations

import ast
import functools
import io
import re
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest
from sources import parsed, parsed_source

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"


def layer(module: str) -> int:
    parts = module.split(".")
    if parts[1:2] == ["games"] and len(parts) <= 3 and parts[-1] != "virtual":
        return 0  # scorekeeper.games and each game's package: docstrings, no code
    if module in ("scorekeeper.cards", "scorekeeper.text", "scorekeeper.errors",
                  "scorekeeper.i18n", "scorekeeper.files", "scorekeeper.card_printing",
                  "scorekeeper.keyboard", "scorekeeper.json_types"):
        return 1
    if len(parts) == 4 and parts[1] == "games":
        return {"words": 1, "rules": 2, "engine": 3, "bots": 4, "expert": 4, "ui": 7,
                "online": 7}.get(parts[3], 5)
    if parts[1:2] in (["games"], ["kit"]) or module in (
            "scorekeeper.registry", "scorekeeper.session", "scorekeeper.summary",
            "scorekeeper.ranking", "scorekeeper.match", "scorekeeper.simulation",
            "scorekeeper.unavailable", "scorekeeper.virtual_settings"):
        return 5
    if module in ("scorekeeper.stats", "scorekeeper.players", "scorekeeper.review",
                  "scorekeeper.derived", "scorekeeper.ratings"):
        return 5
    if module in ("scorekeeper.store", "scorekeeper.storage", "scorekeeper.doctor",
                  "scorekeeper.config", "scorekeeper.importing", "scorekeeper.playing",
                  "scorekeeper.csv_import",
                  "scorekeeper.pending", "scorekeeper.sync"):
        return 6
    if parts[1:2] in (["views"], ["web"]):
        return 7
    if parts[1:2] == ["cli"] or module == "scorekeeper.__main__":
        return 8
    return 0  # the package itself (its version)


def module_name(path: Path) -> str:
    relative = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.startswith("scorekeeper"):
                names.add(node.module)
                names.update(f"{node.module}.{alias.name}" for alias in node.names
                             if (PACKAGE.parent / node.module.replace(".", "/") /
                                 f"{alias.name}.py").exists())
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names if a.name.startswith("scorekeeper"))
    return names


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_a_module_imports_only_its_own_layer_and_those_above(path: Path) -> None:
    own = module_name(path)
    for other in imported(path):
        assert layer(other) <= layer(own), f"{own} (layer {layer(own)}) imports {other} " \
                                           f"(layer {layer(other)})"


def test_views_and_web_know_no_typer() -> None:
    """What things look like and the HTTP server are no command line: Typer stays in cli."""
    for path in MODULES:
        if module_name(path).split(".")[1:2] in (["views"], ["web"], ["games"]):
            tree = parsed(path)
            modules = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                       for alias in node.names}
            modules |= {node.module or "" for node in ast.walk(tree)
                        if isinstance(node, ast.ImportFrom)}
            assert not {m for m in modules if m.split(".")[0] in ("typer", "click")}, \
                f"{module_name(path)} imports Typer or Click"


TESTS = PACKAGE.parent / "tests"
TEST_GAMES = sorted(path.parent for path in TESTS.glob("*/*/game.py"))
"""The test suite's game packages (tests/third_game/high_card, tests/variant_game/...)."""
GAME_FOLDERS = [*sorted(path.parent for path in PACKAGE.glob("games/*/game.py")), *TEST_GAMES]


def declared_base(folder: Path) -> str | None:
    """The ``base=`` a game's declaration (its game.py) names: the package of the game it
    builds on, the one other game it may import."""
    for node in ast.walk(parsed(folder / "game.py")):
        if isinstance(node, ast.keyword) and node.arg == "base" \
                and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return node.value.value
    return None


def other_games_imported(path: Path, base: str | None) -> list[str]:
    """What the module at ``path`` of a game's folder imports of another game than its
    own and its declared ``base``."""
    game = path.parent.name
    found = []
    for other in imported(path):
        parts = other.split(".")
        if len(parts) >= 3 and parts[1] == "games" and parts[2] != "virtual" \
                and parts[2] != game and not (base and other.startswith(base)):
            found.append(other)
    return found


@pytest.mark.parametrize("path", [path for folder in GAME_FOLDERS
                                  for path in sorted(folder.glob("*.py"))],
                         ids=lambda p: str(p.relative_to(PACKAGE.parent)))
def test_a_game_never_imports_another_game_but_its_declared_base(path: Path) -> None:
    found = other_games_imported(path, declared_base(path.parent))
    assert not found, f"{path.relative_to(PACKAGE.parent)} imports {found}"


def test_a_variant_may_import_its_base_and_only_its_base(tmp_path: Path) -> None:
    variant = TESTS / "variant_game" / "quick_least_score"
    assert declared_base(variant) == "scorekeeper.games.least_score"
    assert any(name.startswith("scorekeeper.games.least_score")
               for name in imported(variant / "game.py"))
    folder = tmp_path / "variant"
    folder.mkdir()
    (folder / "game.py").write_text("from scorekeeper.games.least_score.game import GAME\n"
                                    "from scorekeeper.games.one_card.rules import Options\n")
    assert other_games_imported(folder / "game.py", "scorekeeper.games.least_score") == \
        ["scorekeeper.games.one_card.rules"]
    assert sorted(other_games_imported(folder / "game.py", None)) == \
        ["scorekeeper.games.least_score.game", "scorekeeper.games.one_card.rules"]


def test_the_layers_are_what_the_readme_says() -> None:
    assert layer("scorekeeper.games.least_score.rules") < layer(
        "scorekeeper.games.least_score.engine") < layer(
        "scorekeeper.games.least_score.bots") < layer("scorekeeper.session") < layer(
        "scorekeeper.store") < layer("scorekeeper.views.render") < layer("scorekeeper.cli.app")
    assert layer("scorekeeper.web.server") == layer("scorekeeper.views.pages")
    assert layer("scorekeeper.keyboard") == layer("scorekeeper.card_printing") == layer(
        "scorekeeper.cards")


@pytest.mark.e2e
def test_the_table_side_loads_no_engine_and_no_bot() -> None:
    """The commands at the table import the session side only: each game's engine and
    bots load on the first use of its virtual deck (start-up is the table's wait)."""
    code = ("import sys, scorekeeper.session, scorekeeper.store; "
            "print(sorted(m for m in sys.modules if m.endswith(('.engine', '.bots'))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout.strip()
    assert loaded == "[]"


GAME_VOCABULARY = ("least-score", "one-card", "declarer", "bidder", "bid_failed",
                   "false_declaration", "trump")
GENERIC = [p for p in MODULES if "games" not in p.relative_to(PACKAGE).parts]

PLAIN_WORDS = frozenset({"bid", "end", "limit", "target", "tie", "joker", "rounds", "sum",
                         "high", "low", "on", "off", "add", "wins", "any"})
"""Keys of a game that are also plain words generic code uses in their own sense (a
chart's text-anchor ``end``, every game's ``target``, the joker card, a session's
rounds, on and off, high and low, a player's wins, any)."""


def words(text: str) -> str:
    """``text`` lower case with ``_`` and ``-`` as spaces: ``two_pairs`` is ``two-pairs``."""
    return text.lower().replace("_", " ").replace("-", " ")


def game_keys() -> frozenset[str]:
    """Every registered game's own keys, from its declaration (games/<game>/game.py): its
    round options, its CSV columns, its house rules and their values in words."""
    from scorekeeper.registry import DECLARATIONS

    keys: set[str] = set()
    for declaration in DECLARATIONS.values():
        keys.update(option.key for option in declaration.round_options)
        keys.update(declaration.csv_columns)
        for option, value in declaration.table.default_options().items():
            keys.add(option)
            if isinstance(value, str):
                keys.add(value)
    return frozenset(words(key) for key in keys if key not in PLAIN_WORDS)


def docstrings_and_comments(source: str) -> list[tuple[int, str]]:
    """(line, text) of each docstring and comment of ``source``."""
    found = []
    for node in ast.walk(parsed_source(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) \
                and node.body and isinstance(node.body[0], ast.Expr) \
                and isinstance(node.body[0].value, ast.Constant) \
                and isinstance(node.body[0].value.value, str):
            found.append((node.body[0].lineno, node.body[0].value.value))
    found += [(token.start[0], token.string) for token in
              tokenize.generate_tokens(io.StringIO(source).readline)
              if token.type == tokenize.COMMENT]
    return found


def test_the_game_keys_are_the_games_own() -> None:
    """The keys the checks below look for come from the games' declarations, so a new
    game's keys are looked for too; these are Least Score's and One Card's."""
    keys = game_keys()
    assert {"declarer", "false declaration", "bidder", "bid failed", "trump", "no bid",
            "two pairs", "last standing", "declarer wins"} <= keys
    assert not keys & {words(word) for word in PLAIN_WORDS}


@pytest.mark.parametrize("path", GENERIC, ids=lambda p: module_name(p))
def test_the_generic_layers_name_no_game_and_no_game_key(path: Path) -> None:
    """A game is one folder: its declaration (games/<game>/game.py) carries its name, its
    options and its round's keys; no generic module's code names them (a docstring's
    example may)."""
    tree = parsed(path)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                                | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)}
    keys = game_keys()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in docstrings:
            for word in GAME_VOCABULARY:
                assert word not in node.value.lower(), \
                    f"{module_name(path)} line {node.lineno} names {word!r}"
            assert words(node.value) not in keys, \
                f"{module_name(path)} line {node.lineno} names {node.value!r}, a game's key"


@pytest.mark.parametrize("path", GENERIC, ids=lambda p: module_name(p))
def test_the_generic_layers_explain_themselves_without_a_games_keys(path: Path) -> None:
    """Nor do their docstrings and comments use a game's keys to say what the code does:
    what a game needs is declared in its folder, and the generic code is described by
    what it reads there (its declaration's fields). A game's name may stand in prose."""
    keys = game_keys()
    for line, text in docstrings_and_comments(path.read_text(encoding="utf-8")):
        found = [key for key in keys if re.search(rf"\b{re.escape(key)}\b", words(text))]
        assert not found, f"{module_name(path)} line {line} names the game keys {found}"


# ---------------------------------------------------------------------------
# No import cycle, and no import inside a function to dodge one

MODULE_NAMES = {module_name(path): path for path in MODULES}


def imports_of(nodes: list[ast.stmt] | list[ast.AST]) -> set[str]:
    """The ``scorekeeper`` modules the import statements among ``nodes`` name."""
    names: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # ``from package import module`` depends on the module, not on the package's
            # own code (``__init__``); ``from module import name`` on the module
            submodules = {f"{node.module}.{alias.name}" for alias in node.names} \
                & MODULE_NAMES.keys()
            names.update(submodules)
            if len(submodules) < len(node.names):
                names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {name for name in names if name in MODULE_NAMES}


def module_level_statements(tree: ast.Module) -> list[ast.AST]:
    """Every statement a module runs as it is imported (``if``/``try`` blocks and class
    bodies included, ``if TYPE_CHECKING:`` too), none inside a function."""
    found: list[ast.AST] = []
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        found.append(node)
        pending.extend(ast.iter_child_nodes(node))
    return found


def function_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """The import statements inside functions (at any depth)."""
    inside: list[ast.Import | ast.ImportFrom] = []
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            inside.extend(node for node in ast.walk(function)
                          if isinstance(node, ast.Import | ast.ImportFrom))
    return list({id(node): node for node in inside}.values())


@functools.cache  # the files do not change during a run: parse them once
def module_graph() -> dict[str, set[str]]:
    """Each module of the package and the modules it imports as it is imported."""
    return {name: imports_of(module_level_statements(parsed(path))) - {name}
            for name, path in MODULE_NAMES.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of ``graph`` (its modules in order, the first again at the end), or None."""
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for other in sorted(graph.get(node, ())):
            if state.get(other) == 1:
                return [*path[path.index(other):], other]
            if other not in state and (cycle := walk(other)) is not None:
                return cycle
        state[node] = 2
        path.pop()
        return None

    for node in sorted(graph):
        if node not in state and (cycle := walk(node)) is not None:
            return cycle
    return None


def test_the_modules_import_one_another_without_a_cycle() -> None:
    graph = module_graph()
    assert graph["scorekeeper.summary"] >= {"scorekeeper.session"}  # the graph is read
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def test_the_cycle_finder_finds_one() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def comments_by_line(source: str) -> dict[int, str]:
    return {token.start[0]: token.string for token in
            tokenize.generate_tokens(io.StringIO(source).readline)
            if token.type == tokenize.COMMENT}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_an_import_inside_a_function_says_why_and_dodges_no_cycle(path: Path) -> None:
    """An import of the package's own modules inside a function is there for start-up
    time (a module only some commands need loads when used), with a comment on its line
    saying so; it never dodges a cycle: importing it at the top would make none."""
    source = path.read_text(encoding="utf-8")
    comments = comments_by_line(source)
    own = module_name(path)
    graph = module_graph()
    for node in function_level_imports(parsed_source(source)):
        targets = imports_of([node])
        if not targets:
            continue
        lines = range(node.lineno, (node.end_lineno or node.lineno) + 1)
        assert any(line in comments for line in lines), \
            f"{own} line {node.lineno}: an import inside a function without a comment why"
        widened = {**graph, own: graph[own] | targets}
        cycle = find_cycle(widened)
        assert cycle is None, f"{own} line {node.lineno} dodges the import cycle " \
                              + " -> ".join(cycle or [])
