"""Each game its own command and options (issue 38, item 2): ``score new GAME`` is a
subcommand per game, round options are the session's game's, another game's option is a
malformed command line naming its game, two games may share an option's name, and a
group's game file takes CLI.md's keys."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.conftest import CLI, Refuse

FOUR = ("-p", "Ann", "-p", "Bob", "-p", "Cy", "-p", "Dan", "--dealer", "Ann")


def test_new_hearts_help_shows_hearts_and_the_common_options_only(ok: CLI) -> None:
    shown = ok("new", "hearts", "--help").stdout
    for option in ("--player", "--name", "--dealer", "--target", "--moon-rule plus|minus",
                   "--jack-of-diamonds / --no-jack-of-diamonds"):
        assert option in shown, option
    for other in ("--limit", "--joker", "--wins", "--hook", "--halving", "--tie"):
        assert other not in shown, other


def test_cli_md_spellings_of_hearts_house_rules(ok: CLI, summary: object) -> None:
    ok("new", "hearts", *FOUR, "--moon-rule", "plus", "--jack-of-diamonds")
    shown = json.loads(ok("show", "--json").stdout)["options"]
    assert shown["moon_rule"] == "add" and shown["jack_of_diamonds"] == "on"  # as stored
    ok("new", "hearts", *FOUR, "--moon-rule", "add", "--no-jack-of-diamonds")  # still reads
    shown = json.loads(ok("show", "--json").stdout)["options"]
    assert shown["jack_of_diamonds"] == "off"
    ok("new", "hearts", *FOUR, "--jack-of-diamonds", "on", "--moon-rule", "minus")
    assert json.loads(ok("show", "--json").stdout)["options"]["moon_rule"] == "minus"


def test_a_bare_switch_mid_line_swallows_nothing(ok: CLI) -> None:
    started = ok("new", "hearts", "-p", "Ann", "--jack-of-diamonds", "-p", "Bob", "-p", "Cy",
                 "--dealer", "Ann").stdout
    assert "Ann, Bob, Cy" in started and "jack-of-diamonds on" in started


@pytest.mark.parametrize(("game", "option", "says"), [
    ("least-score", "--jack-of-diamonds",
     "--jack-of-diamonds is a house rule of Hearts, not of Least Score"),
    ("least-score", "--no-jack-of-diamonds",
     "--no-jack-of-diamonds is a house rule of Hearts, not of Least Score"),
    ("hearts", "--limit", "--limit is a house rule of Least Score and Yaniv, not of Hearts"),
])
def test_another_games_house_rule_exits_2_naming_its_game(refuse: Refuse, game: str,
                                                          option: str, says: str) -> None:
    refuse("new", game, *FOUR, option, *(["50"] if option == "--limit" else []),
           code=2, says=says)


def test_new_without_a_game_or_with_an_unknown_one_lists_the_games(refuse: Refuse) -> None:
    refuse("new", code=2, says=("needs GAME", "hearts or least-score"))
    refuse("new", "bridge", code=2, says=("no game called 'bridge'", "hearts or least-score"))


def test_round_options_are_the_sessions_games(ok: CLI, refuse: Refuse) -> None:
    ok("new", "hearts", *FOUR)
    shown = ok("add-round", "--help").stdout
    assert "--moon NAME" in shown and "--declarer" not in shown and "--bidder" not in shown
    refuse("add-round", "--declarer", "Ann", "Ann=26", code=2,
           says="--declarer is a round option of Least Score and Yaniv, not of Hearts")
    refuse("edit-round", "1", "--bid", "7", code=2,
           says="--bid is a round option of One Card, not of Hearts")
    ok("add-round", "--moon", "Ann")


def test_play_takes_the_named_games_house_rules(refuse: Refuse) -> None:
    refuse("play", "one-card", "--bot", "random", "--bot", "random", "--tie", "declarer-wins",
           code=2, says="--tie is a house rule of Least Score and Yaniv, not of One Card")


@pytest.fixture
def group_games() -> Path:
    folder = Path(os.environ["SCOREKEEPER_CONFIG"]).parent / "games"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


KASINO = """name = "Kasino"
description = "Kasino as we play it."
wins = "high"
target = 21
rounds = 0
sum = 11
min_players = 2
max_players = 4
"""


@pytest.mark.e2e
def test_a_group_file_takes_cli_md_keys(score_run: object, group_games: Path) -> None:
    (group_games / "kasino.toml").write_text(KASINO, encoding="utf-8")
    run = score_run  # type: ignore[assignment]
    shown = run("new", "kasino", "--help")  # type: ignore[operator]
    assert shown.exit_code == 0 and "Kasino as we play it." in shown.stdout
    assert "--limit" not in shown.stdout and "--wins high|low" in shown.stdout
    started = run("new", "kasino", "-p", "Ann", "-p", "Bob", "--dealer", "Ann")  # type: ignore[operator]
    assert started.exit_code == 0, started.stderr
    assert "Kasino for Ann, Bob (wins high, target 21, rounds 0, sum 11)" in started.stdout
    five = run("new", "kasino", *[f"-p{n}" for n in "ABCDE"])  # type: ignore[operator]
    assert five.exit_code == 1 and "2 to 4 players" in five.stderr


@pytest.mark.e2e
def test_the_real_score_refuses_another_games_option(score_run: object) -> None:
    refused = score_run("new", "least-score", "-p", "A", "-p", "B",  # type: ignore[operator]
                        "--jack-of-diamonds", "-p", "C")
    assert refused.exit_code == 2
    assert refused.stderr == ("error: --jack-of-diamonds is a house rule of Hearts, not of "
                              "Least Score\n")
