"""A person's name is spelt one way (issue 28, point 5).

The roster's spelling is the first seen, or the one `score players rename` set: one
night typed in lower case does not turn everyone into `ann, bob, cy`, and an abandoned
session does not change it either.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from conftest import CLI

from scorekeeper.session import Session
from scorekeeper.stats import roster_names


def finished_night(least: Any, ok: CLI, ann: str, bob: str, cy: str) -> None:
    least(ann, bob, cy, extra=("--limit", "10"))
    ok("add-round", "--declarer", ann, f"{ann}=1", f"{bob}=20", f"{cy}=30")


def names_shown(ok: CLI) -> dict[str, list[str]]:
    stats = ok("stats", "--vs", "--json").json()
    return {
        "players": sorted(p["name"] for p in ok("players", "--json").json()),
        "stats": sorted(p["name"] for p in stats["players"]),
        "ratings": sorted(stats["games"]["least-score"]["ratings"]),
        "head_to_head": sorted(stats["head_to_head"]),
    }


def test_a_lower_case_night_and_an_abandoned_session_change_no_name(least: Any,
                                                                     ok: CLI) -> None:
    finished_night(least, ok, "Ann", "Bob", "Cy")
    finished_night(least, ok, "ann", "bob", "cy")  # typed in lower case
    expected = {view: ["Ann", "Bob", "Cy"]
                for view in ("players", "stats", "ratings", "head_to_head")}
    assert names_shown(ok) == expected
    least("ANN", "BOB")
    ok("abandon", "3")  # the latest session, abandoned: it does not flip the names
    assert names_shown(ok) == expected
    table = ok("players").stdout
    row = next(line for line in table.splitlines() if "Ann" in line)
    assert "ann" in row and "ANN" in row  # the other spellings, as "Also written"


def test_rename_sets_the_spelling_and_a_later_night_keeps_it(least: Any, ok: CLI) -> None:
    finished_night(least, ok, "ann", "Bob", "Cy")
    ok("players", "rename", "Ann", "Annie")
    finished_night(least, ok, "ANNIE", "Bob", "Cy")  # a later night, typed otherwise
    assert names_shown(ok)["players"] == ["Annie", "Bob", "Cy"]
    assert names_shown(ok)["stats"] == ["Annie", "Bob", "Cy"]


def test_the_first_spelling_of_a_session_that_counts() -> None:
    def night(number: int, session: Session) -> Session:
        return replace(session, id=number, created=f"2026-11-{number:02d}T20:00:00+01:00")

    sessions = [night(1, Session.new("least-score", ["ANN", "Bob"]).abandon()),
                night(2, Session.new("least-score", ["Ann", "bob"])),
                night(3, Session.new("least-score", ["ann", "BOB"]))]
    assert sorted(roster_names(sessions).values()) == ["Ann", "bob"]
    # only an abandoned session: its spelling, rather than none
    assert list(roster_names(sessions[:1]).values()) == ["ANN", "Bob"]
