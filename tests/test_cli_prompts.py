"""Entering a round at a terminal (issue 11.1-11.4), with the real `score` on a
pseudo-terminal: each answer is checked as it is typed and asked again with the reason;
a start of a name is enough; what can never be accepted is refused before any question;
edit-round offers what the round holds now; answers can be edited and recalled."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pexpect
import pytest
from conftest import CLI, file_bytes
from terminal import finish, spawn_score


@pytest.fixture
def at_terminal(score_exe: Path, db_path: Path) -> Any:
    def spawn(*args: str) -> pexpect.spawn:
        return spawn_score(score_exe, db_path, list(args))
    return spawn


def answer(child: pexpect.spawn, question: str, typed: str) -> str:
    """Wait for ``question``, type ``typed`` and Enter; what was printed before it."""
    child.expect_exact(question)
    before = str(child.before)
    child.sendline(typed)
    return before


@pytest.mark.e2e
def test_each_answer_is_checked_as_it_is_typed(least, ok: CLI, summary,
                                               at_terminal) -> None:
    least("Ann", "Bob", "Cy", "Dan", extra=("--dealer", "Ann"))
    child = at_terminal("add-round")
    answer(child, "Who declared? (Ann, Bob, Cy, Dan): ", "dann")
    said = answer(child, "Who declared? (Ann, Bob, Cy, Dan): ", "d")  # Dan, by its start
    assert "there is no declarer called 'dann' (did you mean Dan?)" in said
    answer(child, "Ann's hand total or cards: ", "77")
    said = answer(child, "Ann's hand total or cards: ", "x")
    assert "Ann's total 77 is impossible" in said and "1 to 50" in said
    said = answer(child, "Ann's hand total or cards: ", "9")
    assert "Ann's hand: 'x' is not a card" in said
    answer(child, "Bob's hand total or cards: ", "AH,3S")
    answer(child, "Cy's hand total or cards: ", "3s,4h")
    said = answer(child, "Cy's hand total or cards: ", "12")
    assert "3S is in both Bob's and Cy's hands" in said
    answer(child, "Dan's hand total or cards: ", "4")
    code, output = finish(child)
    assert code == 0 and "Round 1 recorded: Ann +5, Bob +0, Cy +8, Dan +0" in output
    first = summary()["rounds"][0]
    assert first["declarer"] == "Dan" and first["totals"] == {"Ann": 9, "Bob": 4, "Cy": 12,
                                                               "Dan": 4}
    assert first["hands"] == {"Bob": ["AH", "3S"]}


@pytest.mark.e2e
def test_one_card_bids_and_points_are_checked_and_the_rest_is_offered(one_card, summary,
                                                                      at_terminal) -> None:
    one_card("Ann", "Bob", "Cy", extra=("--dealer", "Ann"))
    child = at_terminal("add-round")
    answer(child, "Who won the bid? (Ann, Bob, Cy, or none): ", "b")
    answer(child, "Bob's bid (7 to 15): ", "5")
    said = answer(child, "Bob's bid (7 to 15): ", "x")
    assert "Bob can't have bid 5: the lowest bid for 3 players is 7" in said
    said = answer(child, "Bob's bid (7 to 15): ", "9")
    assert "Bob's bid must be a whole number, not 'x'" in said
    answer(child, "Ann's points (the One Card included): ", "4")
    answer(child, "Bob's points (the One Card included): ", "12")
    said = answer(child, "Bob's points (the One Card included): ", "8")
    assert "the points add up to 16, not 15" in said
    answer(child, "Cy's points (the One Card included) [3]: ", "")  # the rest of the deck
    code, output = finish(child)
    assert code == 0 and "Bob failed the bid of 9" in output
    assert summary()["rounds"][0]["points"] == {"Ann": 4, "Bob": 8, "Cy": 3}


@pytest.mark.e2e
def test_none_at_the_bid_question_is_a_deal_nobody_bid_on(one_card, summary,
                                                          at_terminal) -> None:
    one_card("Ann", "Bob")
    child = at_terminal("add-round", "Ann=10")
    answer(child, "Who won the bid? (Ann, Bob, or none): ", "none")
    answer(child, "Bob's points (the One Card included) [5]: ", "")
    assert finish(child)[0] == 0
    assert summary()["rounds"][0]["bidder"] is None


@pytest.mark.parametrize(("setup", "args", "says"), [
    ("finished", ["add-round"], "is finished (Ann won) and takes no more rounds"),
    ("one-card", ["add-round", "--no-bid", "--bidder", "Ann"],
     "say --bidder NAME --bid N, or --no-bid, not both"),
    ("one-card", ["add-round", "Dann=5"], "there is no player called 'Dann' (did you mean "
                                          "Ann?)"),
    ("least", ["add-round", "--declarer", "Zed"], "there is no declarer called 'Zed'"),
    ("least", ["add-round", "Ann=99"], "Ann's total 99 is impossible"),
    ("one-card", ["add-round", "--bidder", "Bob", "--bid", "3"],
     "Bob can't have bid 3: the lowest bid for 3 players is 7"),
    ("least", ["edit-round", "4"], "there is no round 4"),
])
@pytest.mark.e2e
def test_what_can_never_be_accepted_is_refused_before_any_question(
        least, one_card, ok: CLI, at_terminal, db_path: Path, setup: str,
        args: list[str], says: str) -> None:
    if setup == "finished":
        least("Ann", "Bob", extra=("--limit", "10"))
        ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=20")
    elif setup == "one-card":
        one_card("Ann", "Bob", "Cy")
    else:
        least("Ann", "Bob", "Cy")
        ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=5", "Cy=5")
    before = db_path.read_bytes()
    child = at_terminal(*args)
    code, output = finish(child)
    assert code == (2 if "not both" in says else 1), output  # contradictory: malformed
    assert "error: " in output and says in " ".join(output.split())
    assert "?" not in output.split("error:")[0]  # no question was asked
    assert db_path.read_bytes() == before


@pytest.mark.e2e
def test_a_knocked_out_player_is_refused_on_the_command_line(least, ok: CLI,
                                                             at_terminal) -> None:
    least("Ann", "Bob", "Cy", extra=("--limit", "10"))
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=20", "Cy=3")  # Bob out
    code, output = finish(at_terminal("add-round", "Bob=4"))
    assert code == 1 and "Bob is knocked out and has no hand" in output


@pytest.mark.e2e
def test_edit_round_shows_the_round_and_offers_it(least, ok: CLI, summary,
                                                  at_terminal) -> None:
    least("Ann", "Bob", "Cy", extra=("--dealer", "Ann"))
    ok("add-round", "--declarer", "Bob", "Ann=9", "Bob=AH,2C", "Cy=12")
    ok("add-round", "--declarer", "Cy", "Ann=9", "Bob=8", "Cy=2")
    child = at_terminal("edit-round", "1")
    said = answer(child, "Who declared? (Ann, Bob, Cy) [Bob]: ", "")
    assert "Round 1 is now: Bob declared; Ann +6, Bob +0, Cy +9." in said
    answer(child, "Ann's hand total or cards [9]: ", "")
    answer(child, "Bob's hand total or cards [AH,2C]: ", "")
    answer(child, "Cy's hand total or cards [12]: ", "5")
    code, output = finish(child)
    assert code == 0 and "Round 1 re-entered" in output
    first = summary()["rounds"][0]
    assert first["declarer"] == "Bob" and first["hands"] == {"Bob": ["AH", "2C"]}
    assert first["totals"] == {"Ann": 9, "Bob": 3, "Cy": 5}


@pytest.mark.e2e
def test_answers_can_be_edited_and_recalled(least, summary, at_terminal) -> None:
    least("Ann", "Bob", "Cy")
    child = at_terminal("add-round", "--declarer", "Ann")
    answer(child, "Ann's hand total or cards: ", "2")
    child.expect_exact("Bob's hand total or cards: ")
    child.send("17\x1b[D\x1b[D1\r")  # "17", left twice, "1" at the start: "117"
    said = answer(child, "Bob's hand total or cards: ", "\x1b[A\x01\x1b[3~")
    assert "Bob's total 117 is impossible" in said  # not "17^[[D^[[D1"
    # Up recalled "117"; Ctrl-A went to its start and Delete took the 1 away: "17"
    answer(child, "Cy's hand total or cards: ", "\x1b[A")  # Up: the last answer, 17
    code, output = finish(child)
    assert code == 0, output
    assert summary()["rounds"][0]["totals"] == {"Ann": 2, "Bob": 17, "Cy": 17}


@pytest.mark.e2e
def test_no_lock_is_held_while_asking(least, ok: CLI, summary, at_terminal,
                                      score_run) -> None:
    """Another terminal can write while one waits at a question; the waiting command
    then records nothing and says why (it would record against a session it no longer
    shows)."""
    least("Ann", "Bob")
    child = at_terminal("add-round", "--declarer", "Ann")
    child.expect_exact("Ann's hand total or cards: ")
    other = score_run("add-round", "--declarer", "Bob", "Ann=5", "Bob=1")
    assert other.exit_code == 0, other  # not blocked by the question
    child.sendline("1")
    answer(child, "Bob's hand total or cards: ", "5")
    code, output = finish(child)
    assert code == 1 and "changed by another score command while you were typing" in output
    assert len(summary()["rounds"]) == 1


@pytest.mark.e2e
def test_a_game_that_declares_no_questions_is_asked_plainly(score_exe: Path, db_path: Path,
                                                            score_run) -> None:
    """The third game of tests/third_game declares no questions of its own: its round
    options and values are still asked, and the rules check the round at the end."""
    games = {"SCOREKEEPER_GAMES": "high_card.game:GAME",  # a game named, not installed
             "PYTHONPATH": str(Path(__file__).resolve().parent / "third_game")}
    assert score_run("new", "high-card", "-p", "Ann", "-p", "Bob", env=games).exit_code == 0
    child = spawn_score(score_exe, db_path, ["add-round"], env=games)
    answer(child, "Who called show?: ", "a")
    answer(child, "Ann's card: ", "KH")
    answer(child, "Bob's card: ", "5S")
    code, output = finish(child)
    assert code == 0 and "Round 1 recorded: Ann +1, Bob +0" in output
    narrow = score_run("show", "--compact", env=games).stdout
    assert "Running totals  * caller" in narrow



INTERRUPTED = "Interrupted: the unfinished command changed nothing."


@pytest.mark.parametrize(("command", "question"), [
    (["add-round"], "Who declared? (Ann, Bob, Cy): "),
    (["add-round", "--declarer", "Ann"], "Ann's hand total or cards: "),
    (["new", "one-card"], "Players in seating order, separated by commas: "),
])
@pytest.mark.e2e
def test_ctrl_c_at_a_question_ends_its_line_and_says_nothing_was_recorded(
        least, at_terminal, db_path: Path, command: list[str], question: str) -> None:
    """Issue 28.7: Ctrl-C at a prompt used to leave the cursor after the prompt, with
    nothing said (Typer's silent exit 130)."""
    if command[0] == "add-round":
        least("Ann", "Bob", "Cy")
    before = file_bytes(db_path)
    child = at_terminal(*command)
    child.expect_exact(question)
    child.sendcontrol("c")
    code, output = finish(child)
    assert code == 130
    assert output.lstrip("^C") == f"\r\n{INTERRUPTED}\r\n", output
    assert file_bytes(db_path) == before
