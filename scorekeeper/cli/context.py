"""What every command shares: the console, the store picked by --db, usage errors."""

from __future__ import annotations

from typing import Any, NoReturn

import typer
from rich.console import Console

from scorekeeper.store import Store, resolve_path

console = Console(highlight=False)


class UsageProblem(typer.BadParameter):
    """A malformed command line found after parsing (exit 2)."""


def usage(message: str) -> NoReturn:
    raise UsageProblem(message)


def store(ctx: typer.Context) -> Store:
    obj: dict[str, Any] = ctx.ensure_object(dict)
    return Store(resolve_path(obj.get("db")))
