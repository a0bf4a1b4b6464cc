"""How many examples a property test tries: all of them, or a quarter in the quick loop.

``python -m pytest -m "not e2e"`` -- the quick inner loop, typed exactly so -- runs every
property test with a quarter of its examples (at least 5, or all of them when it asks
for fewer); every other run (the README's line, CI's runs, ``-m slow``, a single file)
tries them all. ``SCOREKEEPER_TEST_EXAMPLES`` chooses instead: ``quick`` or ``full``.

A test that names its own count writes it through :func:`examples`::

    @settings(max_examples=examples(300), deadline=None)

and a test that names none takes the loaded Hypothesis profile's (tests/conftest.py
loads ``scorekeeper``, or ``scorekeeper-quick`` with a quarter of Hypothesis' 100).
The choice is made in ``pytest_configure`` (tests/conftest.py), before any test module
is imported, so the counts are fixed when the decorators run.
"""

from __future__ import annotations

import os

VARIABLE = "SCOREKEEPER_TEST_EXAMPLES"
QUICK_MARKEXPR = "not e2e"
DIVISOR = 4
FLOOR = 5

in_quick_loop = False
"""Whether this run is the quick loop (set by :func:`choose`)."""

profile = "scorekeeper"
"""The Hypothesis profile tests/conftest.py loads (its pytest_configure sets it)."""


def choose(markexpr: str | None) -> bool:
    """Decide, from ``-m``'s expression and the variable, whether this run is quick."""
    global in_quick_loop
    setting = os.environ.get(VARIABLE, "").strip().lower()
    if setting not in ("", "quick", "full"):
        raise ValueError(f"{VARIABLE} must be quick or full: {setting!r}")
    if setting:
        in_quick_loop = setting == "quick"
    else:
        in_quick_loop = " ".join((markexpr or "").split()) == QUICK_MARKEXPR
    return in_quick_loop


def examples(count: int, *, quick: bool | None = None) -> int:
    """``count``, or in the quick loop a quarter of it (at least :data:`FLOOR`).

    >>> examples(300, quick=True), examples(25, quick=True), examples(8, quick=True)
    (75, 6, 5)
    >>> examples(300, quick=False)
    300
    """
    if not (in_quick_loop if quick is None else quick):
        return count
    return min(count, max(FLOOR, count // DIVISOR))
