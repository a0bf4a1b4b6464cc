"""Reading the file of ``score import``: size-limited, and every way it can fail one line.

A file given to ``import`` may be anything: a device that never ends, a JSON file
nested thousands deep (RecursionError), a number of 5,000 digits (ValueError),
more small objects than memory holds. Each is refused with an EntryError before
the session summary is looked at (``Session.from_summary`` checks that).
"""

from __future__ import annotations

import json
import os
import stat
import sys
from itertools import compress, repeat
from pathlib import Path
from typing import Any, NoReturn

from scorekeeper.i18n import _, format_number
from scorekeeper.kit.entries import EntryError

MAX_IMPORT_BYTES = 64 * 1024 * 1024
"""The largest file ``score import`` reads (64 MiB): far above any real game (a
virtual game of 1,000 deals is about 3.5 MB), far below what exhausts memory."""

MAX_CONTAINERS = 4_000_000
"""The most JSON lists and objects a file may open: 64 MiB of real exports hold
under 2 million; 64 MiB of ``[[],[],...]`` would be 21 million (1.5 GB in memory)."""

MAX_DEPTH = 64
"""The deepest nesting of lists and objects (a summary needs 6)."""


def read_summary_file(file: Path) -> Any:
    """The JSON in ``file`` ('-' for stdin), refused (EntryError) unless it is reasonable
    JSON: at most 64 MiB of UTF-8, no deeper than :data:`MAX_DEPTH`."""
    raw = _read_capped(file)
    if raw.count(b"[") + raw.count(b"{") > MAX_CONTAINERS:
        _refuse(_("{file} holds more than {count} lists and objects"), file,
                count=format_number(MAX_CONTAINERS))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        _refuse(_("{file} is not UTF-8 text (byte {byte} can't be read)"), file,
                byte=error.start)
    del raw
    try:
        data = json.loads(text, parse_constant=_not_json)
    except json.JSONDecodeError as error:
        raise EntryError(_("{file} is not valid JSON ({problem} at line {line}): import takes "
                           "a `score export --format json` file").format(
            file=file, problem=error.msg, line=error.lineno)) from None
    except RecursionError:
        _refuse(_("{file} is nested too deeply (more than {levels} levels)"), file,
                levels=MAX_DEPTH)
    except NotJSON as error:
        _refuse(_("{file} holds {constant}, which is not a JSON number"), file,
                constant=error.constant)
    except ValueError:  # a number of more digits than int() converts
        _refuse(_("{file} holds a number of more than {count} digits"), file,
                count=format_number(sys.get_int_max_str_digits()))
    except MemoryError:
        _refuse(_("{file} is too large to read into memory"), file)
    if _deeper_than(data, MAX_DEPTH):
        _refuse(_("{file} is nested too deeply (more than {levels} levels)"), file,
                levels=MAX_DEPTH)
    return data


def _read_capped(file: Path) -> bytes:
    """At most MAX_IMPORT_BYTES + 1 bytes: enough to tell a file is too large, never more."""
    limit = MAX_IMPORT_BYTES + 1
    if str(file) == "-":
        stream = getattr(sys.stdin, "buffer", None)
        raw = stream.read(limit) if stream is not None else sys.stdin.read(limit).encode()
    else:
        try:
            with file.open("rb") as handle:
                found = os.fstat(handle.fileno())
                if stat.S_ISREG(found.st_mode) and found.st_size > MAX_IMPORT_BYTES:
                    _too_large(file)
                raw = handle.read(limit)
        except FileNotFoundError:
            raise EntryError(_("there is no file {file}").format(file=file)) from None
        except IsADirectoryError:
            raise EntryError(_("{file} is a folder: import takes a `score export --format "
                               "json` file").format(file=file)) from None
        except OSError as error:
            raise EntryError(_("can't read {file}: {reason}").format(
                file=file, reason=error.strerror or error)) from None
    if len(raw) > MAX_IMPORT_BYTES:
        _too_large(file)
    return raw


class NotJSON(ValueError):
    """What Python's json reads but JSON has not (NaN, Infinity)."""

    def __init__(self, constant: str) -> None:
        super().__init__(constant)
        self.constant = constant


def _not_json(constant: str) -> NoReturn:
    raise NotJSON(constant)


def _deeper_than(data: Any, limit: int) -> bool:
    """Is any list or object nested more than ``limit`` deep? Level by level, no
    recursion; the scalars are skipped at C speed (compress), so 60 MB take about a second."""
    level: list[Any] = [data] if isinstance(data, CONTAINERS) else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return True
        deeper: list[Any] = []
        for value in level:
            children = value.values() if isinstance(value, dict) else value
            deeper.extend(compress(children, map(isinstance, children, repeat(CONTAINERS))))
        level = deeper
    return False


CONTAINERS = (dict, list)


def _too_large(file: Path) -> NoReturn:
    _refuse(_("{file} is larger than {size} MiB, the most an import reads"), file,
            size=MAX_IMPORT_BYTES // 2**20)


def _refuse(problem: str, file: Path, **values: Any) -> NoReturn:
    """``problem`` (translated, with ``{file}`` and ``values`` to fill in), then what
    import takes."""
    named = _("stdin") if str(file) == "-" else str(file)
    raise EntryError(_("{problem}: import takes a `score export --format json` file").format(
        problem=problem.format(file=named, **values)))


def read_text_file(file: Path) -> str:
    """The text in ``file`` ('-' for stdin): at most 64 MiB of UTF-8 (a CSV file of deals)."""
    raw = _read_capped(file)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        _refuse(_("{file} is not UTF-8 text (byte {byte} can't be read)"), file,
                byte=error.start)
