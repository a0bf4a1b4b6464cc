"""The project's source files parsed once per test process, for every test that reads
them with :mod:`ast` (tests/test_layers.py, tests/test_public_api.py): the files do not
change during a run, and no test changes a tree it is given."""

from __future__ import annotations

import ast
import functools
from pathlib import Path


@functools.cache
def parsed_source(source: str) -> ast.Module:
    return ast.parse(source)


def parsed(path: Path) -> ast.Module:
    return parsed_source(path.read_text(encoding="utf-8"))
