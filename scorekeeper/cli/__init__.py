"""The ``score`` command line: thin Typer commands over the session and the store."""

from __future__ import annotations

from scorekeeper.cli.app import app, main, run

__all__ = ["app", "main", "run"]
