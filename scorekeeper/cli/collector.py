"""The cyclic garbage collector over one ``score`` process (docs/performance.md).

A command is short and the objects it makes die with it; what the command line loads
(some 40,000 tracked objects: classes, functions, Typer's and rich's tables) lives as
long as the process and is no garbage. So the collector is paused while the command line
loads (:func:`paused_while_loading`) and, in a ``score`` process, on until the command
starts (:func:`pause_until_command`: Typer loads more as it parses, its parameters'
coercion); what was loaded is then set aside with :func:`gc.freeze`, so that no later
collection walks it again, and the collector is on before the command runs: a long
command (``play``, ``serve``, ``simulate``) collects as usual. At the end what is left
is set aside too (:func:`process_ends`): the interpreter's exit need not walk it.

Only ``main`` (the ``score`` program) pauses past the loading: :func:`~scorekeeper.cli.app.run`
in a test's process leaves the collector as it was.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["command_starts", "pause_until_command", "paused_while_loading", "process_ends"]

_paused_for_command = False


@contextmanager
def paused_while_loading() -> Iterator[None]:
    """Paused while the block imports; what it loaded set aside; then as it was."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if collecting:
            gc.enable()


def pause_until_command() -> None:
    """Paused until :func:`command_starts` (the ``score`` program only)."""
    global _paused_for_command
    if gc.isenabled():
        gc.disable()
        _paused_for_command = True


def command_starts() -> None:
    """The command line is parsed: what was loaded set aside, and the collector on again
    if :func:`pause_until_command` paused it."""
    global _paused_for_command
    if _paused_for_command:
        _paused_for_command = False
        gc.freeze()
        gc.enable()


def process_ends() -> None:
    """The command is over: what is left is set aside for the interpreter's exit. Only
    for a process about to end: nothing set aside is ever collected."""
    gc.freeze()
