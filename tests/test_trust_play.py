"""`score play` never reverts another command's change (issue 9, point 1).

A play saves each deal as a compare-and-set on the revision it last wrote, so a
round another terminal added stays and the play stops with a clear message; only
one play drives a session at a time; the current session is set once, at the start.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI, Result, assert_one_line_error
from deadlines import SCALE

from scorekeeper.store import Store

Run = Callable[..., Result]
BOTS_GAME = ("play", "least-score", "--bot", "random", "--bot", "random", "--seed", "5",
             "--limit", "500")


@pytest.fixture
def before_write(monkeypatch: pytest.MonkeyPatch) -> Callable[[int, Callable[[], None]], None]:
    """``before_write(n, action)``: run ``action`` just before the n-th locked write
    (``Store.write``) of the command: for a new `play`, 1 starts the game and n > 1
    saves deal n - 1."""

    def install(number: int, action: Callable[[], None]) -> None:
        real = Store.write
        calls = 0

        def write(self: Store) -> Any:
            nonlocal calls
            calls += 1
            if calls == number:
                action()
            return real(self)

        monkeypatch.setattr(Store, "write", write)

    return install


def exported(cli: CLI, session_id: int) -> dict[str, Any]:
    result = cli("export", str(session_id), "--format", "json")
    assert result.exit_code == 0, result
    data: dict[str, Any] = json.loads(result.stdout)
    return data


@pytest.mark.e2e
def test_a_round_added_during_play_stays_and_play_stops_clearly(
    cli: CLI, score_run: Run, before_write: Callable[[int, Callable[[], None]], None]
) -> None:
    added: list[Result] = []

    def another_terminal() -> None:  # while deal 2 is being played
        added.append(score_run("add-round", "-s", "1", "--declarer", "Random-1",
                               "Random-1=1", "Random-2=5"))

    before_write(3, another_terminal)
    stopped = cli(*BOTS_GAME)
    assert added[0].exit_code == 0, added[0]
    assert stopped.exit_code == 1, stopped
    assert_one_line_error(stopped)
    assert "changed by another score command" in stopped.stderr
    assert "score play --resume 1" in stopped.stderr
    rounds = exported(cli, 1)["rounds"]
    assert len(rounds) == 2
    assert "deal" in rounds[0]  # deal 1, saved by the play
    assert "deal" not in rounds[1] and rounds[1]["declarer"] == "Random-1"  # the added round

    resumed = cli("play", "--resume", "1")  # goes on from the game as stored
    assert resumed.exit_code == 0, resumed
    final = exported(cli, 1)
    assert final["status"] == "finished"
    assert final["rounds"][:2] == rounds


@pytest.mark.e2e
def test_play_sets_the_current_session_once_at_its_start(
    cli: CLI, ok: CLI, score_run: Run, before_write: Callable[[int, Callable[[], None]], None]
) -> None:
    ok("new", "one-card", "-p", "Ann", "-p", "Bob")
    ok("abandon", "1")  # no table night on: the game becomes the current session
    switched: list[Result] = []
    before_write(3, lambda: switched.append(score_run("use", "1")))
    assert cli(*BOTS_GAME).exit_code == 0
    assert switched[0].exit_code == 0
    assert Store(Path(os.environ["SCOREKEEPER_DB"])).read().current_id == 1


def lines_until(process: subprocess.Popen[str], wanted: str, seconds: float = 30) -> str:
    """What ``process`` printed up to the line holding ``wanted``."""
    assert process.stdout is not None
    seen = ""
    while wanted not in seen:
        ready, _, _ = select.select([process.stdout], [], [], seconds)
        assert ready, f"no {wanted!r} within {seconds} s; got {seen!r}"
        line = process.stdout.readline()
        assert line, f"the process ended before {wanted!r}: {seen!r}"
        seen += line
    return seen


@pytest.fixture
def human_play(score_exe: Path, score_env: dict[str, str]) -> Iterator[
        Callable[..., subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []

    def start(*args: str) -> subprocess.Popen[str]:
        process = subprocess.Popen([str(score_exe), *args], env=score_env, text=True,
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE)
        started.append(process)
        return process

    yield start
    for process in started:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=30 * SCALE)


@pytest.mark.e2e
def test_only_one_play_drives_a_session_and_a_killed_one_lets_go(
    score_run: Run, db_path: Path, human_play: Callable[..., subprocess.Popen[str]]
) -> None:
    first = human_play("play", "least-score", "--player", "Ann", "--bot", "random",
                       "--seed", "3")
    lines_until(first, "Saved after every deal")  # it waits for Ann's move now
    lease = db_path.with_name(f"{db_path.name}.play-1.lock")
    assert lease.exists()
    before = db_path.read_bytes()

    second = score_run("play", "--resume", "1", stdin="")
    assert second.exit_code == 1, second
    assert_one_line_error(second)
    assert "being played by another `score play`" in second.stderr
    assert db_path.read_bytes() == before

    first.send_signal(signal.SIGKILL)  # the operating system lets go of its lease
    first.wait(timeout=30 * SCALE)
    third = score_run("play", "--resume", "1", stdin="")  # Ann's input ends at once
    assert third.exit_code == 130, third
    assert "being played" not in third.output
    assert not lease.exists()  # released, and removed, at the end


def test_a_finished_play_leaves_no_lease_behind(cli: CLI, db_path: Path) -> None:
    assert cli("play", "one-card", "--bot", "random", "--bot", "greedy", "--seed", "2"
               ).exit_code == 0
    assert sorted(p.name for p in db_path.parent.iterdir() if ".play-" in p.name) == []


@pytest.mark.e2e
def test_a_game_deleted_during_play_stops_without_offering_a_resume(
    cli: CLI, score_run: Run, db_path: Path,
    before_write: Callable[[int, Callable[[], None]], None]
) -> None:
    """Another terminal deletes the game while deal 2 is played: play stops, says the
    game was deleted and nothing more can be saved, and offers no `--resume` of it."""
    deleted: list[Result] = []
    before_write(3, lambda: deleted.append(score_run("delete", "1", "--yes")))
    stopped = cli(*BOTS_GAME)
    assert deleted[0].exit_code == 0, deleted[0]
    assert stopped.exit_code == 1, stopped
    assert_one_line_error(stopped)
    assert "session 1 was deleted by another score command" in stopped.stderr
    assert "nothing more of it can be" in stopped.stderr
    assert "--resume" not in stopped.output
    assert 1 not in Store(db_path).read().session_ids()  # nothing saved it back


@pytest.mark.e2e
def test_ctrl_c_after_the_game_was_deleted_says_so(
    score_run: Run, db_path: Path, human_play: Callable[..., subprocess.Popen[str]]
) -> None:
    """Ctrl-C in a game another terminal deleted: play stops (130) saying the game was
    deleted, not that a `--resume` continues it, and writes nothing back."""
    play = human_play("play", "least-score", "--player", "Ann", "--bot", "random",
                      "--seed", "3")
    lines_until(play, "Saved after every deal")  # it waits for Ann's move now
    assert score_run("delete", "1", "--yes").exit_code == 0
    after_delete = db_path.read_bytes()
    play.send_signal(signal.SIGINT)
    out, err = play.communicate(timeout=60 * SCALE)
    assert play.returncode == 130, (out, err)
    assert "Session 1 was deleted by another score command" in out
    assert "nothing more of it can be saved" in out
    assert "--resume" not in out + err
    assert "Traceback" not in err
    assert db_path.read_bytes() == after_delete
