"""`score sessions`, `score use`, `score show [ID]`, and plain output off a terminal."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from conftest import CLI, ESCAPE, Refuse
from deadlines import SCALE


def test_sessions_with_no_store(ok: CLI, db_path: Path) -> None:
    result = ok("sessions")
    assert "No sessions yet" in result.stdout
    assert "score new" in result.stdout
    assert not db_path.exists()


def test_sessions_lists_id_name_game_players_rounds_status_leader(least, one_card, ok: CLI
                                                                  ) -> None:
    least("Ann", "Bob", "Cy", extra=("--name", "Friday", "--limit", "10"))
    ok("add-round", "--declarer", "Ann", "Ann=2", "Bob=5", "Cy=9")
    one_card("Dan", "Eve")
    ok("add-round", "--no-bid", "Dan=15", "Eve=0")
    ok("add-round", "--no-bid", "Dan=15", "Eve=0")
    table = ok("sessions").stdout
    for header in ("ID", "Name", "Game", "Players", "Rounds", "Status", "Leader"):
        assert header in table
    lines = table.splitlines()
    first = next(line for line in lines if "Friday" in line)
    for cell in ("1", "least-score", "Ann, Bob, Cy", "in-progress", "Ann"):
        assert cell in first
    second = next(line for line in lines if "one-card" in line)
    for cell in ("2", "Dan, Eve", "finished", "Dan"):
        assert cell in second
    assert "*" in second and "*" not in first.replace("current", "")  # session 2 is current


def test_leader_is_everyone_tied_and_nobody_before_a_round(least, ok: CLI) -> None:
    least("Ann", "Bob", "Cy")
    row = next(line for line in ok("sessions").stdout.splitlines() if "least-score" in line)
    assert "—" in row
    ok("add-round", "--declarer", "Cy", "Ann=5", "Bob=5", "Cy=5")  # all 0
    row = next(line for line in ok("sessions").stdout.splitlines() if "least-score" in line)
    assert "Ann, Bob, Cy" in row.split("in-progress")[1]


def test_use_switches_the_current_session(least, ok: CLI, refuse: Refuse, summary) -> None:
    least("Ann", "Bob", extra=("--name", "first"))
    least("Cy", "Dan")
    result = ok("use", "1")
    assert "Session 1 (first) is now the current session." in result.stdout
    assert summary()["id"] == 1
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=3")  # goes to session 1
    assert len(summary(1)["rounds"]) == 1 and summary(2)["rounds"] == []
    refuse("use", "9", says=("no session 9", "1, 2"))
    refuse("use", "x", code=2)
    assert summary()["id"] == 1


def test_use_with_no_store(refuse: Refuse, db_path: Path) -> None:
    refuse("use", "1", says="no session")
    assert not db_path.exists()


def test_show_current_and_by_id(least, one_card, ok: CLI, refuse: Refuse) -> None:
    least("Ann", "Bob", "Cy", extra=("--name", "Night", "--limit", "25", "--dealer", "Bob"))
    ok("add-round", "--declarer", "Ann", "Ann=10", "Bob=16", "Cy=17")
    ok("add-round", "--declarer", "Ann", "Ann=10", "Bob=8", "Cy=15")
    one_card("Dan", "Eve")
    shown = ok("show").stdout
    assert "One Card" in shown and "No rounds yet" in shown
    shown = ok("show", "1").stdout
    assert "Night" in shown and "session 1" in shown and "in-progress" in shown
    assert "House rules: limit 25, tie declarer-wins, end last-standing, two-pairs same-rank" \
        in shown
    assert "Left before 25" in shown
    # the round-by-round table: dealer, declarer, score and running total
    assert "Rounds" in shown
    assert "false" in shown
    assert "+22 =22" in shown and "+6 =6" in shown and "+0 =6" in shown
    assert "Next deal: Ann deals, Bob plays first." in shown
    refuse("show", "5", says="no session 5")
    refuse("show", "five", code=2)


def test_show_finished_one_card_game(one_card, ok: CLI) -> None:
    one_card("Ann", "Bob")
    ok("add-round", "--bidder", "Ann", "--bid", "15", "Ann=15", "Bob=0")
    ok("add-round", "--bidder", "Bob", "--bid", "8", "--trump", "S", "Ann=10", "Bob=5")
    ok("add-round", "--no-bid", "Ann=15", "Bob=0")
    shown = ok("show").stdout
    assert "finished" in shown and "Game over: Ann wins!" in shown
    assert "To 30" in shown
    assert "Bob 8 S" in shown and "failed" in shown and "no bid" in shown


def test_show_with_no_store(refuse: Refuse, db_path: Path) -> None:
    refuse("show", says="no sessions yet")
    assert not db_path.exists() and not db_path.parent.joinpath("scorekeeper.json.lock").exists()


# --------------------------------------------------------------------------- no escape codes


COMMANDS = [
    ["sessions"], ["show"], ["log"], ["rules", "least-score"], ["export", "--format", "md"],
    ["add-round", "--declarer", "Ann", "Ann=10", "Bob=8"],  # a false declaration: red
]


@pytest.mark.parametrize("no_color", [False, True], ids=["pipe", "NO_COLOR"])
def test_no_escape_codes_off_a_terminal(least, ok: CLI, monkeypatch: pytest.MonkeyPatch,
                                        no_color: bool) -> None:
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    least("Ann", "Bob", extra=("--limit", "25"))
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=30")  # knocked out, winner: styled
    least("Ann", "Bob")
    for args in COMMANDS:
        result = ok(*args)
        assert ESCAPE not in result.output, args


def _read_all(descriptor: int) -> bytes:
    out = b""
    while True:
        try:
            chunk = os.read(descriptor, 65536)
        except OSError:  # EIO once the other side is closed
            return out
        if not chunk:
            return out
        out += chunk


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
@pytest.mark.e2e
def test_the_real_score_in_a_pipe_and_on_a_terminal(score_exe: Path,
                                                    score_env: dict[str, str],
                                                    score_run) -> None:
    """No escape codes in a pipe; on a terminal, NO_COLOR removes every colour
    (no-color.org: bold and the like may stay)."""
    import pty
    import re
    import subprocess

    assert score_run("new", "least-score", "-p", "Ann", "-p", "Bob", "--limit", "10"
                     ).exit_code == 0
    piped = score_run("add-round", "--declarer", "Ann", "Ann=5", "Bob=1")
    assert piped.exit_code == 0 and "false declaration" in piped.stdout
    assert "Game over: Bob wins!" in piped.stdout
    assert ESCAPE not in piped.stdout + piped.stderr

    def on_terminal(env: dict[str, str]) -> str:
        leader, follower = pty.openpty()
        try:
            process = subprocess.Popen([str(score_exe), "show"], env=env,
                                       stdin=subprocess.DEVNULL, stdout=follower,
                                       stderr=follower)
        finally:
            os.close(follower)
        try:
            output = _read_all(leader)  # while it writes: a full pty would block it
        finally:
            os.close(leader)
        assert process.wait(timeout=60 * SCALE) == 0
        return output.decode("utf-8", "replace")

    colour = re.compile(r"\x1b\[[0-9;]*?(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;[0-9;]*)?m")
    env = {**score_env, "TERM": "xterm-256color"}
    coloured = on_terminal(env)
    assert colour.search(coloured), "expected colours on a terminal without NO_COLOR"
    plain = on_terminal({**env, "NO_COLOR": "1"})
    assert "Game over: Bob wins!" in plain
    assert not colour.search(plain), repr(plain[:400])


@pytest.mark.parametrize(("joker", "said"), [("joker", "JK is the joker"),
                                             ("two-of-diamonds", "2D is the joker")])
def test_one_card_house_rules_read_as_words(one_card, ok: CLI, joker: str, said: str) -> None:
    """Issue 28.7: not "House rules: joker joker, target 30"."""
    started = one_card("Ann", "Bob", extra=("--joker", joker)).stdout
    assert f"({said}, target 30)" in started
    for shown in (ok("show").stdout, ok("export", "--format", "md").stdout):
        assert f"House rules: {said}, target 30" in shown, shown
        assert "joker joker" not in shown and "joker two-of-diamonds" not in shown
