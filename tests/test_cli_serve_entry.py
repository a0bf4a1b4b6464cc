"""``score serve --entry`` as it is run: the real command in a subprocess prints a private
link per player; each player posts their own entry over HTTP; the terminal says who is
in; ``score add-round --declarer NAME`` (a subprocess too) records the deal from the
entries, and the next deal's entry opens. Its refusals are one line each."""

from __future__ import annotations

import json
import queue
import re
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

import pytest
from conftest import CLI, Result, file_bytes
from deadlines import SCALE
from entries import ENTRY_LINK, Player
from serving import Served, decode_qr, start_serve

from scorekeeper import pending


def links(served: Served) -> dict[str, str]:
    found = {}
    for line in served.lines:
        match = ENTRY_LINK.match(line.rstrip("\n"))
        if match:
            found[match.group(1)] = match.group(2)
    return found


_PUMPS: dict[int, queue.Queue[str]] = {}


def read_until(served: Served, text: str, timeout: float = 15) -> None:
    """Read the command's output until ``text`` has been printed (failing, with what was
    printed, after ``timeout`` seconds)."""
    lines = _PUMPS.get(served.process.pid)
    if lines is None:  # a reader of its own: the output is read past the announcement
        lines = _PUMPS[served.process.pid] = queue.Queue()

        def pump(out: IO[str], into: queue.Queue[str]) -> None:
            for line in iter(out.readline, ""):
                into.put(line)

        assert served.process.stdout is not None
        threading.Thread(target=pump, args=(served.process.stdout, lines),
                         daemon=True).start()
    deadline = time.monotonic() + timeout * SCALE
    while not any(text in line for line in served.lines):
        try:
            served.lines.append(lines.get(timeout=max(0.01, deadline - time.monotonic())))
        except queue.Empty:
            raise AssertionError(f"{text!r} not printed: {served.lines}") from None


def stop(served: Served) -> tuple[int, str, str]:
    """Stop it as Ctrl-C does; (exit code, everything it printed, stderr)."""
    if served.process.pid not in _PUMPS:
        code, rest, errors = served.stop()
        return code, "".join(served.lines) + rest, errors
    served.process.send_signal(signal.SIGINT)
    code = served.process.wait(30 * SCALE)
    read_until(served, "Stopped", timeout=10 * SCALE)
    assert served.process.stderr is not None
    return code, "".join(served.lines), served.process.stderr.read()


@pytest.mark.e2e
def test_each_player_enters_their_hand_and_add_round_records_the_deal(
        score_exe: Path, score_env: dict[str, str], score_run: Callable[..., Result],
        db_path: Path) -> None:
    made = score_run("new", "least-score", "--player", "Ann", "--player", "Bob",
                     "--player", "Cy", "--dealer", "Ann")
    assert made.exit_code == 0, made.output
    served = start_serve(score_exe, score_env, "--entry")
    try:
        urls = links(served)
        assert set(urls) == {"Ann", "Bob", "Cy"} and len(set(urls.values())) == 3
        assert all(url.startswith("http://127.0.0.1:") for url in urls.values())
        assert any("read-only, for anyone" in line for line in served.lines)
        assert Player(urls["Ann"]).post({"hand": "AH,2S"})[0] == 200
        assert Player(urls["Bob"]).post({"hand": "60"})[0] == 422
        assert Player(urls["Bob"]).post({"hand": "KD,6C"})[0] == 200
        read_until(served, "waiting for Cy")
        before = file_bytes(db_path)
        refused = score_run("add-round", "--declarer", "Ann")
        assert refused.exit_code == 1
        assert refused.stderr == ("error: Cy has not entered yet: wait for their entry, or "
                                  "type every player's NAME=VALUE\n")
        assert file_bytes(db_path) == before
        cy = Player(urls["Cy"])
        assert cy.post({"hand": "9"})[0] == 200
        assert cy.post({"hand": "7"})[0] == 200  # changed until the deal is recorded
        read_until(served, "Everyone is in")
        recorded = score_run("add-round", "--declarer", "Ann")
        assert recorded.exit_code == 0, recorded.output
        assert "Recorded from the players' own entries (Ann, Bob, Cy)" in recorded.stdout
        read_until(served, "Deal 2: the players' entries are open.")
        state = Player(urls["Bob"]).state()
        assert state["deal"] == 2 and state["mine"] is None
        assert state["last"]["scores"][1] == {"name": "Bob", "value": "16", "score": 13}
        assert not pending.entries_path(db_path).exists()
    finally:
        code, printed, errors = stop(served)
    assert code == 0, errors
    assert "The entries made so far are kept" in printed
    shown = score_run("export", "--format", "json")
    played = json.loads(shown.stdout)["rounds"][0]
    assert played["declarer"] == "Ann"
    assert played["totals"] == {"Ann": 3, "Bob": 16, "Cy": 7}


@pytest.mark.e2e
def test_entries_survive_the_server_and_a_second_one_takes_over(
        score_exe: Path, score_env: dict[str, str], score_run: Callable[..., Result],
        ok: CLI) -> None:
    ok("new", "points", "--player", "Ann", "--player", "Bob")
    first = start_serve(score_exe, score_env, "--entry")
    try:
        assert Player(links(first)["Ann"]).post({"points": "12"})[0] == 200
    finally:
        assert stop(first)[0] == 0
    second = start_serve(score_exe, score_env, "--entry", "1")
    try:
        urls = links(second)
        assert Player(urls["Ann"]).state()["mine"] == {"points": 12}
        assert Player(urls["Bob"]).post({"points": "-3"})[0] == 200
        recorded = score_run("add-round")
        assert recorded.exit_code == 0, recorded.output
    finally:
        assert stop(second)[0] == 0
    shown = json.loads(score_run("export", "--format", "json").stdout)
    assert shown["rounds"][0]["points"] == {"Ann": 12, "Bob": -3}


@pytest.mark.e2e
def test_off_loopback_each_player_gets_a_qr_code_of_their_own_link(
        score_exe: Path, score_env: dict[str, str], ok: CLI) -> None:
    ok("new", "least-score", "--player", "Ann", "--player", "Bob")
    served = start_serve(score_exe, score_env, "--entry", "--host", "0.0.0.0")
    try:
        urls = links(served)
        blocks: list[list[str]] = [[]]
        for line in served.lines:
            text = line.rstrip("\n")
            if text and set(text) <= set(" ▀▄█"):
                blocks[-1].append(text)
            elif blocks[-1]:
                blocks.append([])
        codes = [decode_qr(block) for block in blocks if block]
        assert codes == [urls["Ann"], urls["Bob"]]
    finally:
        served.stop()


@pytest.mark.e2e
def test_serve_entry_refuses_what_is_not_a_table_game_being_played(
        score_run: Callable[..., Result], ok: CLI, db_path: Path) -> None:
    ok("play", "least-score", "--bot", "random", "--bot", "random", "--seed", "3")
    before = file_bytes(db_path)
    virtual = score_run("serve", "--entry", "--port", "0")
    assert virtual.exit_code == 1
    assert re.fullmatch(r"error: session 1 is a game on the virtual deck: --entry is for a "
                        r"game at the table .*\n", virtual.stderr), virtual.stderr
    ok("new", "least-score", "--player", "Ann", "--player", "Bob", "--limit", "10")
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=20")
    over = score_run("serve", "2", "--entry", "--port", "0")
    assert over.exit_code == 1 and "takes no more rounds" in over.stderr
    missing = score_run("serve", "9", "--entry", "--port", "0")
    assert missing.exit_code == 1 and "there is no session 9" in missing.stderr
    assert file_bytes(db_path) != before  # (the sessions made here)
    assert not pending.entries_path(db_path).exists()
