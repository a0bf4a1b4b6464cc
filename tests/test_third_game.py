"""A third game from a folder of its own (tests/third_game) is scored, shown, exported and
imported through the real ``score``, with no file of the package changed: its
declaration is all the generic layers read (the extension point of issue 10)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import Result

TESTS = Path(__file__).resolve().parent
THIRD_GAME = {"SCOREKEEPER_GAMES": "third_game.game:GAME", "PYTHONPATH": str(TESTS)}

Run = Callable[..., Result]


@pytest.fixture
def high_card(score_run: Run) -> Run:
    """``score`` with High Card registered through $SCOREKEEPER_GAMES."""

    def run(*args: object, code: int = 0, stdin: str | None = None) -> Result:
        result = score_run(*args, env=THIRD_GAME, stdin=stdin)
        assert result.exit_code == code, (args, result)
        assert "Traceback" not in result.output, result.output
        return result

    return run


def test_the_third_game_is_scored_shown_exported_and_imported(high_card: Run,
                                                             tmp_path: Path) -> None:
    help_text = high_card("new", "--help").stdout
    assert "--wins" in help_text and "High Card: points that win the game" in help_text
    assert "High Card: who called show." in high_card("add-round", "--help").stdout

    started = high_card("new", "high-card", "--player", "Ann", "--player", "Bob",
                        "--wins", "2", "--dealer", "Ann")
    assert "High Card for Ann, Bob" in started.stdout
    first = high_card("add-round", "--caller", "Ann", "Ann=KH", "Bob=5S")
    assert "Round 1 recorded: Ann +1, Bob +0" in first.stdout
    wrong = high_card("add-round", "--caller", "bob", "Ann=QH", "Bob=2C")
    assert "(Bob called wrong)" in wrong.stdout
    high_card("add-round", "--caller", "Ann", "Ann=AS", "Bob=3D")  # the ace is low: wrong
    high_card("undo")
    done = high_card("add-round", "--caller", "Ann", "Ann=JD", "Bob=10D")
    assert "Game over: Ann wins!" in done.stdout

    shown = high_card("show").stdout
    assert "Caller" in shown and "Bob ✗ wrong" in shown and "* caller" in shown
    log = high_card("log").stdout
    assert "round 3: Ann called (wrong)" in log and "round 2: Bob called (wrong)" in log

    csv_text = high_card("export", "--format", "csv").stdout
    assert csv_text.splitlines()[0] == ("round,dealer,caller,wrong_call,Ann card,Ann score,"
                                        "Ann total,Bob card,Bob score,Bob total")
    assert csv_text.splitlines()[2].startswith("2,,Bob,true,QH,0,1,2C,-1,-1")
    assert "| Round | Dealer | Caller |" in high_card("export", "--format", "md").stdout

    exported = high_card("export", "--format", "json").stdout
    data = json.loads(exported)
    assert data["game"] == "high-card" and data["winners"] == ["Ann"]
    assert data["rounds"][1]["wrong_call"] is True
    path = tmp_path / "night.json"
    path.write_text(exported, encoding="utf-8")
    imported = high_card("import", path)
    assert "as session 2" in imported.stdout
    assert json.loads(high_card("export", "2", "--format", "json").stdout)["totals"] == \
        data["totals"]

    data["rounds"][1]["wrong_call"] = False  # a result the rounds do not re-score to
    path.write_text(json.dumps(data), encoding="utf-8")
    refused = high_card("import", path, code=1)
    assert "round 2: the file says wrong_call = False" in refused.stderr


def test_the_third_game_refuses_other_games_options(high_card: Run) -> None:
    high_card("new", "high-card", "--player", "Ann", "--player", "Bob")
    refused = high_card("add-round", "--declarer", "Ann", "Ann=KH", "Bob=5S", code=1)
    assert refused.stderr.startswith("error: --declarer is for Least Score, and High Card "
                                     "has no declarer: a High Card round takes --caller NAME")
    malformed = high_card("new", "high-card", "--player", "Ann", "--player", "Bob",
                          "--limit", "50", code=2)
    assert "--limit is a Least Score option, not one of High Card" in malformed.stderr
    assert "--wins is a High Card option" in high_card(
        "new", "one-card", "-p", "A", "-p", "B", "-p", "C", "--wins", "2", code=2).stderr


def test_without_the_variable_there_is_no_third_game(score_run: Run) -> None:
    result = score_run("new", "high-card", "--player", "Ann", "--player", "Bob")
    assert result.exit_code == 2 and "there is no game called 'high-card'" in result.stderr
