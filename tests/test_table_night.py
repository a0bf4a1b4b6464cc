"""A game on the virtual deck never disturbs a table night (issue 28, point 1).

While the current session is a table session still being played, `score play` (with
humans or bots only, new or resumed) leaves it current and prints the game's id; `score
sessions` marks virtual games; `score new` offers the last table's group, never a bot
game's seats.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI

from scorekeeper import match
from scorekeeper.store import Store
from scorekeeper.views import pages

BOTS = ("--bot", "random", "--bot", "random", "--seed", "5", "--limit", "25")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def current_id(ok: CLI) -> Any:
    return ok("sessions", "--json").json()["current"]


def test_play_leaves_the_table_night_current(least: Any, ok: CLI) -> None:
    least("Ann", "Bob", "Cy")
    ok("add-round", "--declarer", "Ann", "Ann=3", "Bob=9", "Cy=12")
    played = ok("play", "least-score", *BOTS).stdout
    assert "Session 2: Least Score" in played
    assert "stays the current session; this game is session 2: `score show 2`" in played
    assert current_id(ok) == 1
    # the table's next round goes to the table's session, as typed
    ok("add-round", "--declarer", "Bob", "Ann=5", "Bob=2", "Cy=8")
    table = json.loads(ok("export", "1", "--format", "json").stdout)
    assert [r["declarer"] for r in table["rounds"]] == ["Ann", "Bob"]
    assert json.loads(ok("export", "2", "--format", "json").stdout)["mode"] == "virtual"
    assert "Random-1" in ok("show", "2").stdout
    assert "Deal 1" in ok("replay", "2", "--round", "1", "--no-pause").stdout
    # `score serve` without an ID shows the current session's page: still the table's
    page = pages.session_page(Store(Path(os.environ["SCOREKEEPER_DB"])).read())
    assert "Session 1 (current)" in page.body and "Random-1" not in page.body


def test_a_resumed_game_leaves_it_current_too(least: Any, ok: CLI) -> None:
    least("Ann", "Bob")
    seats = match.make_seats([], ["random", "random"])
    with Store(Path(os.environ["SCOREKEEPER_DB"])).write() as view:
        game = view.add(match.start_game("least-score", seats, 3, options={"limit": 25}))
        view.set_current(1)
    resumed = ok("play", "--resume", str(game.id)).stdout
    assert "Game over" in resumed and "this game is session 2" in resumed
    assert current_id(ok) == 1


@pytest.mark.parametrize("end", ["finish", "abandon"])
def test_after_the_table_night_the_game_is_current(least: Any, ok: CLI, end: str) -> None:
    least("Ann", "Bob", extra=("--limit", "10"))
    if end == "finish":
        ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=20")
    else:
        ok("abandon", "1")
    played = ok("play", "least-score", *BOTS).stdout
    assert "stays the current session" not in played
    assert current_id(ok) == 2


def test_sessions_marks_the_virtual_games(least: Any, ok: CLI, monkeypatch: Any) -> None:
    least("Ann", "Bob")
    ok("play", "least-score", *BOTS)
    wide = ok("sessions").stdout
    table_row, virtual_row = (line for line in wide.splitlines() if "Ann" in line
                              or "Random-1" in line)
    assert "(virtual)" not in table_row and "least-score (virtual)" in virtual_row
    monkeypatch.setenv("COLUMNS", "45")
    narrow = ok("sessions", "--compact").stdout
    assert narrow.count("(virtual)") == 1
    assert [s["mode"] for s in ok("sessions", "--json").json()["sessions"]] == [
        "table", "virtual"]


def test_new_offers_the_last_table_group_never_a_bot_game(least: Any, ok: CLI, summary: Any,
                                                         monkeypatch: Any) -> None:
    least("Ann", "Bob", "Cy", extra=("--limit", "10"))
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=20", "Cy=30")  # finished
    ok("play", "least-score", *BOTS)
    monkeypatch.setattr("sys.stdin", Terminal("\n"))
    result = ok("new", "least-score")
    assert "Same players as last time: Ann, Bob, Cy?" in result.stdout
    assert summary()["players"] == ["Ann", "Bob", "Cy"]
