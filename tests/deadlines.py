"""How long a test that drives a real process, terminal, server or browser waits for
what it expects before it fails.

Such a test waits for an event (a prompt, a line, an exit, a page's element), never
for a fixed time; the deadline only says how long "it never came" takes. Every deadline
is written for a quiet machine and multiplied by one setting:

``SCOREKEEPER_TEST_DEADLINE_SCALE``
    a number (``3`` on a slow or very busy machine). Without it, the scale is measured
    once when the tests start: the load per core (the one-minute load average over the
    cores), and at least 2, so a machine loaded to twice its cores by other work, with
    the suite's own workers on top, still passes (docs/testing.md).

A passing test never waits for its deadline, so a generous one costs nothing.
"""

from __future__ import annotations

import os


def _measured_scale() -> float:
    setting = os.environ.get("SCOREKEEPER_TEST_DEADLINE_SCALE", "").strip()
    if setting:
        scale = float(setting)
        if not scale > 0:
            raise ValueError(f"SCOREKEEPER_TEST_DEADLINE_SCALE must be above 0: {setting!r}")
        return scale
    try:
        load = os.getloadavg()[0] / (os.cpu_count() or 1)
    except OSError:  # no load average on this system
        load = 0.0
    return max(2.0, load)


SCALE = _measured_scale()
"""The factor every deadline is multiplied by."""


def deadline(seconds: float) -> float:
    """``seconds`` as written for a quiet machine, scaled for this one."""
    return seconds * SCALE
