"""Ctrl-C is never lost, whatever the program is waiting in (issue 41).

Python runs a signal's handler in the main thread, between two steps of Python code. A
call that waits in C (readline's wait for a key, ``read``, ``select``, ``sleep``) learns
of a signal only when the signal interrupts its wait (EINTR), and then runs the handler.
A Ctrl-C that comes in the instant after a question is written and before the wait for
the answer has begun interrupts nothing: it is noted as pending, the wait starts and goes
on, the handler never runs, and the press is lost (2 presses in 40 at `score new`'s first
question). The instant is always there -- readline writes the prompt, then waits -- and
a person or a test answering the question as it appears hits it; a busy machine widens it.

:func:`guard` closes it. The C-level handler writes the signal's number at once to a
wakeup socket (:func:`signal.set_wakeup_fd`); a watcher thread reads it and, until the
main thread has run the Python-level handler, nudges the main thread with SIGUSR2 (a
handler that does nothing, sent with :func:`signal.pthread_kill`). The nudge interrupts
the wait that began too late, and Python then runs the pending handler: the same
KeyboardInterrupt as always, at the same places, now without exception.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import threading
from types import FrameType

NUDGE_EVERY = 0.02
"""Seconds between two nudges while a Ctrl-C waits for its handler."""

GIVE_UP_AFTER = 10.0
"""Seconds of nudging after which the watcher stops: the handler was replaced (``score
serve`` stops by its own), or two presses were counted as one."""

_handled = 0
"""How many times the main thread has run the Ctrl-C handler."""

_kept: list[socket.socket] = []
"""The wakeup socket pair, kept open for the life of the process."""


def _interrupted(signum: int, frame: FrameType | None) -> None:
    """Python's own Ctrl-C behaviour (KeyboardInterrupt), counted for the watcher."""
    global _handled
    _handled += 1
    raise KeyboardInterrupt


def _nudged(signum: int, frame: FrameType | None) -> None:
    """Nothing: the nudge is there to interrupt a wait, so Python runs pending handlers."""


def guard() -> None:
    """Make every Ctrl-C reach the program (the real `score`, once, at start-up). Nothing
    changes where Ctrl-C was set aside (ignored by the parent), off the main thread, or
    where threads cannot be signalled (Windows)."""
    nudge = getattr(signal, "SIGUSR2", None)
    if nudge is None or not hasattr(signal, "pthread_kill") or _kept \
            or threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return
    reader, writer = socket.socketpair()
    writer.setblocking(False)
    _kept.extend((reader, writer))
    signal.signal(nudge, _nudged)
    signal.signal(signal.SIGINT, _interrupted)
    signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    os.register_at_fork(after_in_child=_forget_in_child)
    main = threading.main_thread().ident
    assert main is not None
    threading.Thread(target=_watch, args=(reader, main, nudge), name="ctrl-c guard",
                     daemon=True).start()


def _forget_in_child() -> None:
    """A forked worker (``score simulate``) has no watcher: its signals wake no one."""
    with contextlib.suppress(ValueError):
        signal.set_wakeup_fd(-1)


def _watch(reader: socket.socket, main: int, nudge: int) -> None:
    accounted = 0  # handler runs already matched to a press
    stop = threading.Event()  # never set: its wait is the pause between two nudges
    while True:
        try:
            received = reader.recv(256)
        except OSError:
            return
        if not received:
            return
        if signal.SIGINT not in received:
            continue
        for _ in range(int(GIVE_UP_AFTER / NUDGE_EVERY)):
            if _handled > accounted:
                break
            try:
                signal.pthread_kill(main, nudge)
            except (OSError, ValueError):  # the main thread has ended
                return
            stop.wait(NUDGE_EVERY)
        accounted = _handled
