"""``score play GAME --online`` as it is run: the real command in a subprocess prints a
link per human seat, phones play the seats over HTTP, the game is saved after every deal
as ``score play`` saves it (``replay``, ``export`` and ``import`` take it), Ctrl-C keeps
the finished deals and ``--resume ID --online`` goes on online."""

from __future__ import annotations

import json
import queue
import re
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import Result
from deadlines import SCALE
from online import Phone, play_seat
from serving import QR_CHARACTERS, decode_qr

SEAT = re.compile(r"^(\S+)'s seat .*?(http://\S+/)$")
TABLE = re.compile(r"(http://\S+/)$")


@dataclass
class Playing:
    process: subprocess.Popen[str]
    lines: queue.Queue[str]
    seen: list[str]

    def wait_for(self, pattern: str, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout * SCALE
        while True:
            for line in self.seen:
                if re.search(pattern, line):
                    return line
            try:
                line = self.lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                self.process.kill()
                raise AssertionError(f"no {pattern!r} in {self.seen}") from None
            if not line:
                raise AssertionError(f"ended without {pattern!r}: {self.seen}")
            self.seen.append(line.rstrip("\n"))

    def seats(self) -> dict[str, str]:
        self.wait_for("Ctrl-C stops")
        urls = {}
        for line in self.seen:
            found = SEAT.match(line)
            if found:
                urls[found.group(1)] = found.group(2)
        return urls

    def rest(self, timeout: float = 120) -> str:
        """Everything it printed, once it has ended."""
        self.process.wait(timeout * SCALE)
        while (line := self.lines.get(timeout=10 * SCALE)):
            self.seen.append(line.rstrip("\n"))
        return "\n".join(self.seen)


@pytest.fixture
def playing(score_exe: Path, score_env: dict[str, str]) -> Iterator[Callable[..., Playing]]:
    started: list[subprocess.Popen[str]] = []

    def start(*args: str) -> Playing:
        process = subprocess.Popen(
            [str(score_exe), "play", *args, "--online", "--port", "0"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, encoding="utf-8", env={**score_env, "PYTHONUNBUFFERED": "1"})
        started.append(process)
        lines: queue.Queue[str] = queue.Queue()

        def pump() -> None:
            assert process.stdout is not None
            for line in iter(process.stdout.readline, ""):
                lines.put(line)
            lines.put("")

        threading.Thread(target=pump, daemon=True).start()
        return Playing(process, lines, [])

    yield start
    for process in started:
        if process.poll() is None:
            process.kill()
            process.wait(10 * SCALE)


def phones_play(urls: dict[str, str], seed: int) -> tuple[list[Phone], threading.Event]:
    phones = [Phone(url) for url in urls.values()]
    stop = threading.Event()
    for index, phone in enumerate(phones):
        threading.Thread(target=play_seat, args=(phone, seed + index, stop),
                         daemon=True).start()
    return phones, stop


@pytest.mark.e2e
def test_a_whole_game_online_is_saved_as_play_saves_it(
        playing: Callable[..., Playing], score_run: Callable[..., Result],
        tmp_path: Path) -> None:
    game = playing("one-card", "--player", "Ann", "--player", "Bea", "--bot", "random",
                   "--seed", "31", "--reveal-seed", "--target", "20")
    urls = game.seats()
    assert set(urls) == {"Ann", "Bea"}
    assert len(set(urls.values())) == 2
    assert any("The table, for anyone watching" in line for line in game.seen)
    phones_play(urls, 1)
    output = game.rest()
    assert game.process.returncode == 0, output
    assert "Deal 1 saved" in output and "Waiting for" in output
    summary = tmp_path / "game.json"
    exported = score_run("export", "1", "--format", "json", "--output", summary)
    assert exported.exit_code == 0, exported.output
    imported = score_run("import", summary,
                         env={"SCOREKEEPER_DB": str(tmp_path / "other.json")})
    assert imported.exit_code == 0, imported.output  # import replays and checks every deal
    replayed = score_run("replay", "1", "--no-pause")
    assert replayed.exit_code == 0 and "Deal 1" in replayed.stdout, replayed.output


@pytest.mark.e2e
def test_ctrl_c_keeps_the_finished_deals_and_resume_goes_on_online(
        playing: Callable[..., Playing], score_run: Callable[..., Result]) -> None:
    game = playing("least-score", "--player", "Ann", "--bot", "random", "--seed", "32",
                   "--reveal-seed",
                   "--limit", "25")
    urls = game.seats()
    phones, stop = phones_play(urls, 2)
    game.wait_for("Deal 1 saved")
    stop.set()  # the phones make no more moves; one may be on its way: Ctrl-C meets it
    game.process.send_signal(signal.SIGINT)
    output = game.rest()
    assert game.process.returncode == 130, output
    assert "--resume 1" in output
    for phone in phones:
        phone.close()
    shown = score_run("show", "1", "--json")
    assert shown.exit_code == 0
    done = len(json.loads(shown.stdout)["rounds"])
    assert done >= 1
    again = playing("--resume", "1")
    urls = again.seats()
    assert set(urls) == {"Ann"}
    phones_play(urls, 3)
    output = again.rest()
    assert again.process.returncode == 0, output
    assert f"after {done} deal" in output
    final = json.loads(score_run("show", "1", "--json").stdout)
    assert len(final["rounds"]) > done


@pytest.mark.e2e
def test_host_and_port_go_with_online(score_run: Callable[..., Result]) -> None:
    result = score_run("play", "one-card", "--player", "Ann", "--bot", "random",
                       "--port", "0")
    assert result.exit_code == 2 and "--online" in result.output


@pytest.mark.e2e
def test_off_loopback_each_seat_gets_a_qr_code_of_its_own_link(
        playing: Callable[..., Playing]) -> None:
    game = playing("one-card", "--player", "Ann", "--player", "Bea", "--bot", "random",
                   "--seed", "33", "--reveal-seed", "--host", "0.0.0.0")
    urls = game.seats()
    blocks: list[list[str]] = []
    for line in game.seen:
        if line.strip() and set(line) <= QR_CHARACTERS:
            if not blocks:
                blocks.append([])
            blocks[-1].append(line)
        elif blocks and blocks[-1]:
            blocks.append([])  # the next block starts after another line
    codes = [decode_qr(block) for block in blocks if block]
    assert codes == list(urls.values())
    game.process.send_signal(signal.SIGINT)
    game.rest()
    assert game.process.returncode == 130
