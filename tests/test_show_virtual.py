"""`score show` of a game on the virtual deck points to what comes next (issue 40.8): an
unfinished one is played on with `score play --resume ID`, never typed in with
`score add-round`."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import CLI

from scorekeeper import match
from scorekeeper.games.least_score.bots import BOTS
from scorekeeper.store import Store


def saved_game(db_path: Path, deals: int) -> int:
    rng = random.Random(4)
    session = match.start_game("least-score", [match.Seat("Ann"), match.Seat("Greedy-2",
                                                                             "greedy")], 4)
    for _ in range(deals):
        session = match.play_deal(
            session, choose_human=lambda player, view, problem: BOTS["greedy"].choose(view, rng))
    assert not session.finished
    with Store(db_path).write() as view:
        stored = view.add(session)
    assert stored.id is not None
    return stored.id


@pytest.mark.parametrize("columns", ["45", "120"])
@pytest.mark.parametrize("deals", [0, 1])
def test_show_of_an_unfinished_virtual_game_says_play_resume(
        cli: CLI, db_path: Path, monkeypatch: pytest.MonkeyPatch, deals: int,
        columns: str) -> None:
    game = saved_game(db_path, deals)
    monkeypatch.setenv("COLUMNS", columns)
    shown = cli("show", game)
    assert shown.exit_code == 0, shown
    text = " ".join(shown.stdout.split())
    assert f"`score play --resume {game}` plays on." in text
    assert "add-round" not in text


def test_show_of_a_table_session_with_no_rounds_still_says_add_round(least, ok: CLI) -> None:
    least("Ann", "Bob")
    shown = ok("show").stdout
    assert "after each deal, `score add-round ...`" in shown and "--resume" not in shown
