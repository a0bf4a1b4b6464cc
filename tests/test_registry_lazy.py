"""The registry finds every installed game at import and imports each when first asked
for by name (start-up: a command on one game's session imports that game alone); listed,
they are all there, in the order they were found, whatever was asked for first."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

BASES = {"yaniv": "least_score", "hearts": "points"}
"""A variant's declaration imports its base's."""

REPORT = """
import json, sys
from scorekeeper import registry
asked = sys.argv[1:]
before = sorted(name for name in sys.modules if name.endswith(".game"))
for name in asked:
    registry.declaration_of(name)
after_asking = sorted(name for name in sys.modules if name.endswith(".game"))
print(json.dumps({"before": before, "after_asking": after_asking,
                  "listed": list(registry.DECLARATIONS),
                  "tables": list(registry.GAMES), "count": len(registry.DECLARATIONS),
                  "origins": registry.ORIGINS}))
"""


def registry_report(*asked: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", REPORT, *asked], capture_output=True,
                          text=True, check=True)
    assert not done.stderr, done.stderr
    report: dict[str, object] = json.loads(done.stdout)
    return report


@pytest.mark.e2e
def test_each_game_is_imported_when_asked_for_and_all_are_listed_in_one_order() -> None:
    nothing_asked = registry_report()
    assert nothing_asked["before"] == []  # found, none imported
    listed = nothing_asked["listed"]
    assert isinstance(listed, list) and len(listed) >= 6
    assert nothing_asked["count"] == len(listed) and nothing_asked["tables"] == listed
    for asked in (("yaniv",), ("points", "least-score"), ("one-card",)):
        report = registry_report(*asked)
        assert report["before"] == []
        folders = {name.replace("-", "_") for name in asked}
        folders |= {BASES[folder] for folder in folders if folder in BASES}
        assert report["after_asking"] == sorted(
            f"scorekeeper.games.{folder}.game" for folder in folders)
        assert report["listed"] == listed  # the order found, not the order asked
        assert report["origins"] == nothing_asked["origins"]


@pytest.mark.e2e
def test_a_name_no_game_bears_imports_them_all_before_it_is_refused() -> None:
    code = ("import sys\nfrom scorekeeper import registry\n"
            "assert not registry.is_installed('no-such-game')\n"
            "print(sorted(name for name in sys.modules if name.endswith('.game')))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    imported = done.stdout.strip()
    for game in ("hearts", "least_score", "oh_hell", "one_card", "points", "yaniv"):
        assert f"scorekeeper.games.{game}.game" in imported
