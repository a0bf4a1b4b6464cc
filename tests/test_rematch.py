"""`score rematch`, and `score new` offering the last group at a terminal."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI, Refuse


def test_rematch_same_game_players_seating_and_rules_next_dealer(least: Any, ok: CLI,
                                                                summary: Any) -> None:
    least("Ann", "Bob", "Cy", extra=("--dealer", "Cy", "--limit", "25", "--tie",
                                     "declarer-loses"))
    least("Dan", "Eve")
    result = ok("rematch", "1")
    assert "Session 3 started: a rematch of session 1" in result.stdout
    assert "Ann deals" in result.stdout  # after Cy, round the table
    new, old = summary(3), summary(1)
    assert new["players"] == old["players"] and new["options"] == old["options"]
    assert new["first_dealer"] == "Ann" and new["game"] == "least-score"
    assert new["rounds"] == [] and new["status"] == "in-progress"
    ok("rematch")  # the current session (3): the deal moves on again
    assert summary(4)["first_dealer"] == "Bob"


def test_rematch_without_a_tracked_dealer_and_of_one_card(one_card: Any, ok: CLI,
                                                          summary: Any,
                                                          tmp_path: Path) -> None:
    one_card("Ann", "Bob", "Cy", extra=("--target", "40"))  # `new` draws a first dealer
    untracked = {**summary(), "first_dealer": None}  # ... a file may have none
    (tmp_path / "untracked.json").write_text(json.dumps(untracked), encoding="utf-8")
    ok("import", tmp_path / "untracked.json")
    ok("rematch", "--name", "Again")
    again = summary()
    assert again["first_dealer"] is None and again["options"]["target"] == 40
    assert again["name"] == "Again"


def test_rematch_refusals(ok: CLI, refuse: Refuse) -> None:
    refuse("rematch", says="no sessions yet")
    ok("play", "one-card", "--bot", "random", "--bot", "random", "--seed", "1")
    refuse("rematch", says="virtual game")  # no table session to fall back on
    refuse("rematch", "1", says="session 1 is a virtual game")
    refuse("rematch", "9", says="no session 9")


def test_rematch_after_a_bot_game_plays_the_night_again(least: Any, ok: CLI,
                                                        refuse: Refuse, summary: Any) -> None:
    least("Ann", "Bob", "Cy", extra=("--dealer", "Ann", "--limit", "25"))
    least("Dan", "Eve", extra=("--dealer", "Dan", "--limit", "25"))  # the night ...
    ok("add-round", "--declarer", "Dan", "Dan=1", "Eve=30")  # ... ends: Eve is out
    ok("play", "least-score", "--bot", "random", "--bot", "greedy", "--seed", "3")
    assert summary()["mode"] == "virtual"  # the bot game is now the current session
    result = ok("rematch")
    assert "a rematch of session 2" in result.stdout
    assert summary()["players"] == ["Dan", "Eve"] and summary()["mode"] == "table"
    refuse("rematch", "3", says="session 3 is a virtual game")  # asked for by its id


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("answers", "players"), [
    ("\n", ["Ann", "Bob", "Cy"]),
    ("y\n", ["Ann", "Bob", "Cy"]),
    ("n\nZoe, Yan\n", ["Zoe", "Yan"]),
])
def test_new_at_a_terminal_offers_the_last_group(least: Any, one_card: Any, ok: CLI,
                                                 summary: Any, monkeypatch: Any,
                                                 answers: str, players: list[str]) -> None:
    least("Dan", "Eve", "Fay", "Gus", "Hal")  # 5 players: too many for One Card
    one_card("Ann", "Bob", "Cy")
    least("Ivy", "Jo", "Kim", "Lu", "Mo")
    monkeypatch.setattr("sys.stdin", Terminal(answers))
    result = ok("new", "one-card")
    assert "Same players as last time: Ann, Bob, Cy?" in result.stdout
    assert summary()["players"] == players
