"""The ``score`` command line: thin Typer commands over the session and the store.

Importing the command line creates some 40,000 tracked objects (classes, functions,
Typer's and rich's tables) and no garbage worth collecting: the cyclic garbage
collector is paused while it loads, and what it loaded is then set aside
(:func:`gc.freeze`) so that the collections the command itself triggers do not walk it
again (about 9 % of `score add-round`'s instructions went to collecting;
docs/performance.md). Collection is on again before any command runs
(:mod:`scorekeeper.cli.collector`).
"""

from __future__ import annotations

from scorekeeper.cli.collector import paused_while_loading

with paused_while_loading():
    from scorekeeper.cli.app import app, main, run

__all__ = ["app", "main", "run"]
