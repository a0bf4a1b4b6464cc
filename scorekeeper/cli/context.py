"""What every command shares: the console, the store picked by --db, usage errors."""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from pathlib import Path
from typing import NoReturn

import typer
from rich.console import Console

from scorekeeper.i18n import _
from scorekeeper.store import Store, resolve_path


class GuardedStdout:
    """``sys.stdout`` for the commands' output, but one whose failure can't fail a command.

    A reader that has gone away (``score add-round ... | true``), a full disk or a
    closed stdout stop the output, not the command: what is written after a failure
    is dropped, and :func:`finish_run` decides what the failure means (a committed
    write still exits 0). The real stdout is looked up at each call, so tests that
    capture it still see everything.
    """

    def __init__(self) -> None:
        self.failure: OSError | None = None

    def write(self, text: str) -> int:
        stream = sys.stdout
        if self.failure is None and stream is not None:
            try:
                stream.write(text)
            except OSError as error:
                self._failed(error)
        return len(text)

    def flush(self) -> None:
        stream = sys.stdout
        if self.failure is None and stream is not None:
            try:
                stream.flush()
            except OSError as error:
                self._failed(error)

    def _failed(self, error: OSError) -> None:
        self.failure = error
        # Point the stdout descriptor at the null device, so that Python's own final
        # flush (of what is still buffered) can't fail again at exit.
        with contextlib.suppress(Exception):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)

    def isatty(self) -> bool:
        try:
            return sys.stdout is not None and sys.stdout.isatty()
        except (OSError, ValueError):
            return False

    def fileno(self) -> int:
        if sys.stdout is None:
            raise OSError(errno.EBADF, "stdout is closed")
        return sys.stdout.fileno()

    @property
    def encoding(self) -> str:
        return getattr(sys.stdout, "encoding", None) or "utf-8"


stdout = GuardedStdout()
# emoji=False: ":name:" in a printed string stays as typed (and rich never loads its
# emoji table, a few ms of every command's start-up).
console = Console(file=stdout, highlight=False, emoji=False)  # type: ignore[arg-type]


class RunState:
    """What happened during one ``score`` command."""

    __slots__ = ("committed",)

    def __init__(self) -> None:
        self.committed = False
        """A write ended well: the change is on disk (or there was nothing to change)."""


RUN = RunState()


def start_run() -> None:
    global RUN
    RUN = RunState()
    stdout.failure = None


def _committed() -> None:
    RUN.committed = True


def finish_run(code: int) -> int:
    """Flush the output; a failure to print never turns a committed write into a failure.

    A reader that went away is no error at all. Any other failure to print (a full disk)
    is said on stderr; it fails a command that wrote nothing and would have succeeded
    (its output was the point), never one that committed a change.
    """
    stdout.flush()
    failure = stdout.failure
    if failure is None or failure.errno == errno.EPIPE:
        return code
    reason = failure.strerror or str(failure)
    if RUN.committed:
        sys.stderr.write("note: " + _("the change was saved, but its report could not be "
                                      "printed ({reason})").format(reason=reason) + "\n")
        return code
    if code == 0:
        sys.stderr.write("error: " + _("can't write the output: {reason}").format(
            reason=reason) + "\n")
        return 1
    return code


class Declined(Exception):
    """No to a question that must be answered yes for the command to go on (``score
    delete``'s): the command ends there, having changed nothing (exit 1)."""


class Interrupted(Exception):
    """Ctrl-C at a question: the command stops there, having changed nothing (exit 130,
    said by :func:`say_interrupted`)."""


def say_interrupted() -> None:
    """What every Ctrl-C that stops a command before it writes says: the question's line
    ended, then one line."""
    sys.stdout.flush()
    sys.stderr.write("\n" + _("Interrupted: the unfinished command changed nothing.") + "\n")


class UsageProblem(typer.BadParameter):
    """A malformed command line found after parsing (exit 2)."""


def usage(message: str) -> NoReturn:
    raise UsageProblem(message)


def store(ctx: typer.Context) -> Store:
    db = ctx.ensure_object(dict).get("db")  # --db, as the root command took it
    return Store(resolve_path(db if isinstance(db, str | Path) else None),
                 on_commit=_committed)
