"""The real `score` at a terminal: a pseudo-terminal driven with pexpect.

Prompts, line editing and "at a terminal" behaviour can only be seen with a real tty on
stdin; pexpect gives one (a pty) and reads what a person would see. Ctrl-C at a
prompt is a SIGINT to the real process (:func:`interrupt_when_shown`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import pexpect
from deadlines import deadline


def spawn_score(score_exe: Path, db_path: Path, args: Sequence[str], *,
                columns: int = 100, env: dict[str, str] | None = None,
                timeout: float = 60) -> pexpect.spawn:
    """``score ARGS`` at a terminal of ``columns`` columns, on the temporary store; each
    expect waits up to ``timeout`` seconds, scaled for the machine (tests/deadlines.py)."""
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE",
                                  "CLICOLOR_FORCE", "COLUMNS", "LINES")}
    environment |= {"SCOREKEEPER_DB": str(db_path), "NO_COLOR": "1", "TERM": "xterm",
                    "PYTHONIOENCODING": "utf-8", "SCOREKEEPER_LANG": "en", **(env or {})}
    child = pexpect.spawn(str(score_exe), list(args), env=environment, encoding="utf-8",
                          timeout=deadline(timeout), dimensions=(40, columns))
    return child


def finish(child: pexpect.spawn) -> tuple[int, str]:
    """Wait for the end; the exit code and everything printed since the last expect."""
    child.expect(pexpect.EOF)
    child.close()
    code = child.exitstatus if child.exitstatus is not None else 128 + (child.signalstatus or 0)
    return code, str(child.before)


def interrupt_when_shown(score_exe: Path, env: dict[str, str], args: Sequence[str],
                         shown: bytes, timeout: float = 30) -> tuple[int, bytes, bytes]:
    """Run the real ``score ARGS`` on pipes, send it SIGINT (as Ctrl-C does) once its
    output shows ``shown``; its exit code, all it printed and its stderr."""
    import select
    import signal
    import subprocess
    import time

    process = subprocess.Popen([str(score_exe), *args], env=env, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None
    out = b""
    until = time.monotonic() + deadline(timeout)
    try:
        while shown not in out:
            assert time.monotonic() < until, out
            ready, _, _ = select.select([process.stdout], [], [], 1)
            if ready:
                chunk = os.read(process.stdout.fileno(), 4096)
                assert chunk, out
                out += chunk
        process.send_signal(signal.SIGINT)
        rest, err = process.communicate(timeout=deadline(timeout))
    finally:
        if process.poll() is None:
            process.kill()
    return process.returncode, out + rest, err
