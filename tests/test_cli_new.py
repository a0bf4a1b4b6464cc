"""`score new`: starting Least Score and One Card sessions, their house rules, refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import CLI, Refuse, players_args


def test_new_least_score_defaults(ok: CLI, summary, db_path: Path) -> None:
    result = ok("new", "least-score", "--player", "Ann", "--player", "Bob", "--player", "Cy")
    assert "Session 1 started" in result.stdout
    assert "Least Score for Ann, Bob, Cy" in result.stdout
    assert "current session" in result.stdout
    data = summary()
    assert data["id"] == 1
    assert data["game"] == "least-score"
    assert data["mode"] == "table"
    assert data["players"] == ["Ann", "Bob", "Cy"]
    assert data["options"] == {"limit": 100, "tie": "declarer-wins", "end": "last-standing",
                               "two_pairs": "same-rank"}
    assert data["totals"] == {"Ann": 0, "Bob": 0, "Cy": 0}
    assert data["rounds"] == [] and data["winners"] == [] and data["knocked_out"] == []
    assert data["status"] == "in-progress"
    assert db_path.exists()


def test_new_least_score_every_house_rule(ok: CLI, summary) -> None:
    result = ok("new", "least-score", *players_args("Ann", "Bob"), "--name", "Friday night",
                "--limit", "25", "--tie", "declarer-loses", "--end", "first-out",
                "--two-pairs", "any-rank", "--dealer", "bob")
    for text in ("limit 25", "tie declarer-loses", "end first-out", "two-pairs any-rank"):
        assert text in result.stdout
    # the dealer is stored with the session's spelling, and the next deal is announced
    assert "Next deal: Bob deals, Ann plays first." in result.stdout
    data = summary()
    assert data["name"] == "Friday night"
    assert data["options"] == {"limit": 25, "tie": "declarer-loses", "end": "first-out",
                               "two_pairs": "any-rank"}
    assert data["first_dealer"] == "Bob"


def test_new_one_card_defaults_and_joker_rule(ok: CLI, summary) -> None:
    result = ok("new", "one-card", *players_args("Ann", "Bob", "Cy"), "--dealer", "Ann")
    assert "One Card for Ann, Bob, Cy" in result.stdout
    assert "Next deal: Ann deals, Bob bids first." in result.stdout
    assert summary()["options"] == {"joker": "joker", "target": 30}
    ok("new", "one-card", *players_args("Ann", "Bob"), "--joker", "two-of-diamonds")
    data = summary()
    assert data["id"] == 2
    assert data["options"] == {"joker": "two-of-diamonds", "target": 30}


def test_names_keep_their_spelling(ok: CLI, summary) -> None:
    ok("new", "least-score", *players_args("  Ann-Marie ", "bob", "Ção"))
    assert summary()["players"] == ["Ann-Marie", "bob", "Ção"]


def test_each_new_session_becomes_current(ok: CLI, summary) -> None:
    ok("new", "least-score", *players_args("Ann", "Bob"))
    result = ok("new", "one-card", *players_args("Cy", "Dan"))
    assert "Session 2 started" in result.stdout
    assert summary()["id"] == 2
    assert summary(1)["game"] == "least-score"


def test_limits_10_and_500_are_accepted(ok: CLI, summary) -> None:
    ok("new", "least-score", *players_args("Ann", "Bob"), "--limit", "10")
    assert summary()["options"]["limit"] == 10
    ok("new", "least-score", *players_args("Ann", "Bob"), "--limit", "500")
    assert summary()["options"]["limit"] == 500


def test_eight_players_least_score_and_four_one_card(ok: CLI) -> None:
    ok("new", "least-score", *players_args(*"ABCDEFGH"))
    ok("new", "one-card", *players_args(*"ABCD"))


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--limit", "9"], ("limit", "10 to 500", "9")),
        (["--limit", "501"], ("limit", "10 to 500", "501")),
        (["--dealer", "Zed"], ("Zed", "Ann, Bob")),
    ],
)
def test_bad_least_score_options_are_refused(refuse: Refuse, args: list[str],
                                             says: tuple[str, ...]) -> None:
    refuse("new", "least-score", *players_args("Ann", "Bob"), *args, says=says)


def test_refused_new_leaves_an_existing_store_unchanged(ok: CLI, refuse: Refuse,
                                                        db_path: Path) -> None:
    ok("new", "least-score", *players_args("Ann", "Bob"))
    refuse("new", "least-score", *players_args("Ann", "Bob"), "--limit", "9", says="limit")
    assert list(json.loads(db_path.read_text())["sessions"]) == ["1"]


@pytest.mark.parametrize(
    ("game", "players", "says"),
    [
        ("least-score", ["Ann", "ANN"], ("same name", "ignoring case")),
        ("least-score", ["Ann"], ("2 to 8", "not 1")),
        ("least-score", list("ABCDEFGHI"), ("2 to 8", "not 9")),
        ("one-card", ["Ann"], ("2",)),
        ("one-card", list("ABCDE"), ("4",)),
        ("one-card", ["Ann", "ann"], ("same name",)),
        ("least-score", ["Ann", "B=b"], ("'='",)),
        ("least-score", ["Ann", " "], ("empty",)),
    ],
)
def test_bad_players_are_refused(refuse: Refuse, game: str, players: list[str],
                                 says: tuple[str, ...]) -> None:
    refuse("new", game, *players_args(*players), says=says)


def test_unknown_game_is_a_malformed_command_line(refuse: Refuse, db_path: Path) -> None:
    refuse("new", "poker", *players_args("Ann", "Bob"), code=2,
           says=("poker", "least-score or oh-hell or one-card"))
    assert not db_path.exists()


@pytest.mark.parametrize(
    ("game", "args", "says"),
    [
        ("least-score", ["--joker", "joker"], "--joker"),
        ("one-card", ["--limit", "50"], "--limit"),
        ("one-card", ["--tie", "declarer-wins"], "--tie"),
        ("least-score", ["--limit", "lots"], "--limit"),
        ("least-score", ["--tie", "coin-flip"],
         "--tie must be declarer-wins or declarer-loses, not 'coin-flip'"),
        ("least-score", ["--end", "sudden-death"], "--end must be last-standing or first-out"),
        ("least-score", ["--two-pairs", "some"], "--two-pairs must be same-rank or any-rank"),
        ("least-score", ["--frobnicate"], "--frobnicate"),
    ],
)
def test_options_of_the_other_game_or_unknown_are_malformed(
    refuse: Refuse, game: str, args: list[str], says: str
) -> None:
    refuse("new", game, *players_args("Ann", "Bob"), *args, code=2, says=says)


def test_missing_game_or_players_is_malformed(refuse: Refuse) -> None:
    refuse("new", code=2, says=("score new needs GAME", "least-score or oh-hell or one-card"))
    refuse("new", "least-score", code=2, says="--player")


def test_help_and_version_exit_0(ok: CLI) -> None:
    assert "new" in ok("--help").stdout
    assert "hearts" in ok("new", "--help").stdout  # the games, each a command
    assert "--player" in ok("new", "least-score", "--help").stdout
    assert ok("--version").stdout.startswith("scorekeeper ")


def test_no_command_shows_the_help(cli: CLI) -> None:
    result = cli()
    assert result.exit_code == 2
    assert "Usage: score" in result.output and "Traceback" not in result.output
