"""`score players`: the people across sessions; rename and merge everywhere, and undo."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import CLI, Refuse, Result

Summary = Callable[..., dict[str, Any]]


def three_nights(least: Callable[..., Result], one_card: Callable[..., Result]) -> None:
    least("Ann", "Bob", "Cy", extra=("--dealer", "Bob"))
    one_card("ann", "Dan")
    least("Anne", "Bob")


def test_players_lists_each_person_once_ignoring_case(least: Any, one_card: Any,
                                                       ok: CLI) -> None:
    three_nights(least, one_card)
    listed = ok("players", "--json").json()
    by_name = {p["name"]: p for p in listed}
    # one spelling per person: the first seen (issue 28), not the latest session's
    assert set(by_name) == {"Ann", "Bob", "Cy", "Dan", "Anne"}
    assert by_name["Ann"]["sessions"] == [1, 2] and by_name["Ann"]["spellings"] == ["Ann", "ann"]
    assert by_name["Bob"]["sessions"] == [1, 3] and by_name["Bob"]["finished"] == 0
    table = ok("players").stdout
    assert "Anne" in table and "Also written" in table


def test_rename_everywhere_logged_and_undone(least: Any, one_card: Any, ok: CLI,
                                             summary: Summary) -> None:
    three_nights(least, one_card)
    ok("add-round", "--session", 1, "--declarer", "Ann", "Ann=3", "Bob=9", "Cy=12")
    done = ok("players", "rename", "ANN", "Annie")
    assert "Renamed Ann to Annie in 2 sessions (1, 2)" in done.stdout
    first, second, third = summary(1), summary(2), summary(3)
    assert first["players"] == ["Annie", "Bob", "Cy"] and second["players"] == ["Annie", "Dan"]
    assert third["players"] == ["Anne", "Bob"]
    assert first["rounds"][0]["declarer"] == "Annie" and first["totals"]["Annie"] == 0
    assert first["totals"] == {"Annie": 0, "Bob": 6, "Cy": 9}
    assert "players rename" in ok("log", 1).stdout and "Ann → Annie" in ok("log", 2).stdout
    ok("add-round", "--session", 1, "--declarer", "annie", "Annie=1", "Bob=2", "Cy=3")
    assert "Took back" in ok("players", "undo").stdout
    assert summary(1)["players"] == ["Ann", "Bob", "Cy"] and summary(2)["players"] == ["ann",
                                                                                       "Dan"]
    assert summary(1)["rounds"][1]["declarer"] == "Ann"  # a round entered after the rename


def test_rename_refusals(least: Any, one_card: Any, refuse: Refuse) -> None:
    three_nights(least, one_card)
    refuse("players", "rename", "Bob", "cy", says="Bob and Cy both played in session 1")
    refuse("players", "rename", "Dan", "Anne", says="score players merge Dan Anne")
    refuse("players", "rename", "Zed", "Zoe", says="nobody called 'Zed'")
    refuse("players", "rename", "Bob", "B=b", says="can't contain '='")
    refuse("players", "rename", "Bob", "Bob", says="already spelled 'Bob'")
    refuse("players", "undo", says="no rename or merge to undo")


def test_merge_makes_one_person_and_undo_splits_them_again(least: Any, one_card: Any,
                                                           ok: CLI, refuse: Refuse,
                                                           summary: Summary) -> None:
    three_nights(least, one_card)
    refuse("players", "merge", "Ann", "Bob", says="both played in session 1")
    refuse("players", "merge", "Ann", "ANN", says="already one player")
    assert "Merged Anne into Ann (1 session: 3)" in ok("players", "merge", "Anne", "Ann").stdout
    assert summary(3)["players"] == ["Ann", "Bob"]
    people = {p["name"]: p["sessions"] for p in ok("players", "--json").json()}
    assert people["Ann"] == [1, 2, 3] and "Anne" not in people
    ok("players", "undo")
    assert summary(3)["players"] == ["Anne", "Bob"]
    assert summary(1)["players"] == ["Ann", "Bob", "Cy"]  # never Anne: it was Ann there


def test_rename_in_a_virtual_game_keeps_every_deal_replayable(ok: CLI, tmp_path: Path) -> None:
    ok("play", "least-score", "--bot", "random", "--bot", "random", "--seed", "4",
       "--limit", "25")
    ok("players", "rename", "Random-1", "Rosa")
    exported = tmp_path / "game.json"
    ok("export", "--format", "json", "--output", exported)
    text = exported.read_text(encoding="utf-8")
    assert "Random-1" not in text and '"Rosa"' in text
    ok("import", "--again", exported)  # every deal is replayed move by move on import


def test_a_name_with_markup_is_printed_as_it_is(least: Any, ok: CLI) -> None:
    least("[bold]Ann", "Bob")
    assert "[bold]Ann" in ok("players").stdout
    assert "[bold]Annie" in ok("players", "rename", "[bold]ann", "[bold]Annie").stdout


def test_an_answered_prompt_is_not_needed(least: Any, ok: CLI, monkeypatch: Any) -> None:
    """Renaming never asks anything, even at a terminal (it never waits holding the lock)."""
    least("Ann", "Bob")

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stdin", Terminal(""))
    ok("players", "rename", "Ann", "Annie")
