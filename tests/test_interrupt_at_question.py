"""Ctrl-C at a question is an interrupt (exit 130, one line, nothing written); Ctrl-D
there is the end of the input (exit 1). Typer's own yes/no question reports both alike,
so the real `score` is driven at a real terminal (a pty)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pexpect
import pytest
from conftest import Result
from deadlines import deadline
from terminal import spawn_score

pytestmark = pytest.mark.e2e  # the real `score` at a terminal

INTERRUPTED = "Interrupted: the unfinished command changed nothing."


def _type_until_gone(child: pexpect.spawn, key: str) -> None:
    """Type Ctrl-``key`` and wait for ``score`` to end. Ctrl-C once: one press is enough,
    even typed the instant the question shows (scorekeeper/cli/interrupts.py). Ctrl-D is
    a key, not a signal: typed while readline sets the terminal up, the terminal can
    drop it, so it is typed again until ``score`` has ended (a few times at most)."""
    if key == "c":
        child.sendcontrol(key)
        child.expect(pexpect.EOF)
        child.close()
        return
    for _ in range(5):
        child.sendcontrol(key)
        if child.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=deadline(5)) == 0:
            break
    child.close()


def _store_with_a_session(score_run: Callable[..., Result], db_path: Path) -> bytes:
    assert score_run("new", "least-score", "--player", "Ann", "--player", "Bob").exit_code == 0
    return db_path.read_bytes()


@pytest.mark.parametrize(("args", "question"), [
    (["delete", "1"], r"Delete session 1 .*\[y/N\]: "),  # prompts.confirm, a no declines
    (["new", "least-score"], r"Same players as last time.*\[Y/n\]: "),  # default yes
    (["add-round", "--declarer", "Ann"], r"hand total or cards: "),  # a typed answer
])
def test_ctrl_c_at_a_question_is_an_interrupt(score_run: Callable[..., Result],
                                              score_exe: Path, db_path: Path,
                                              args: list[str], question: str) -> None:
    before = _store_with_a_session(score_run, db_path)
    child = spawn_score(score_exe, db_path, args)
    child.expect(question)
    _type_until_gone(child, "c")
    code, said = child.exitstatus, str(child.before)
    assert code == 130, said
    lines = [line for line in said.splitlines() if line.strip()]
    assert lines[-1].strip() == INTERRUPTED, said
    assert "error" not in said and "Ctrl-D" not in said
    assert db_path.read_bytes() == before


def test_ctrl_d_at_a_yes_no_question_is_still_the_end_of_the_input(
        score_run: Callable[..., Result], score_exe: Path, db_path: Path) -> None:
    before = _store_with_a_session(score_run, db_path)
    child = spawn_score(score_exe, db_path, ["delete", "1"])
    child.expect(r"\[y/N\]: ")
    _type_until_gone(child, "d")
    code, said = child.exitstatus, str(child.before)
    assert code == 1, said
    assert "the input ended at a question (Ctrl-D)" in said
    assert db_path.read_bytes() == before


def test_no_at_the_delete_question_says_nothing_was_changed(
        score_run: Callable[..., Result], score_exe: Path, db_path: Path) -> None:
    """Answering "n" is neither the end of the input nor an interrupt: it is a no."""
    before = _store_with_a_session(score_run, db_path)
    child = spawn_score(score_exe, db_path, ["delete", "1"])
    child.expect(r"\[y/N\]: ")
    child.sendline("n")
    child.expect(pexpect.EOF, timeout=deadline(20))
    child.close()
    code, said = child.exitstatus, str(child.before)
    assert code == 1, said
    assert "Not confirmed: nothing was changed." in said
    assert "Ctrl-D" not in said and "Interrupted" not in said
    assert db_path.read_bytes() == before
