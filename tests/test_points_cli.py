"""Points, Hearts and the group's own games through ``score``: every command of the
table (new, add-round, show, undo/redo, edit-round, log, export in every format and
re-import, stats, rematch, --json, --lang da and ar), a corpus of bad entries each
refused in one line with the store unchanged, and ``score games``."""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI, Refuse, Result

Run = Callable[..., Result]
FOUR = ("--player", "Ann", "--player", "Bob", "--player", "Cy", "--player", "Dan")
ARABIC_LETTER = "\u0600-\u06ff"


def no_errors(result: Result) -> Result:
    assert result.exit_code == 0, result
    assert result.stderr == "", result.stderr
    assert "Traceback" not in result.output
    return result


# ---------------------------------------------------------------------------
# Points


@pytest.fixture
def points(ok: CLI) -> None:
    ok("new", "points", "--player", "Ann", "--player", "Bob", "--player", "Cy",
       "--dealer", "Ann", "--target", "50", "--sum", "0", "--name", "Skat")


def test_points_is_scored_shown_undone_edited_and_ended(points: None, ok: CLI,
                                                       summary: Callable[..., Any]) -> None:
    first = ok("add-round", "Ann=12", "Bob=-3", "Cy=-9").stdout
    assert "Round 1 recorded: Ann +12, Bob -3, Cy -9" in first
    assert "Next deal: Bob deals." in first
    ok("add-round", "Ann=-5", "Bob=10", "Cy=-5")
    ok("undo")
    ok("redo")
    ok("edit-round", "2", "Ann=-6", "Bob=11", "Cy=-5")
    done = ok("add-round", "Ann=45", "Bob=-40", "Cy=-5").stdout
    assert "Game over: Ann wins!" in done
    shown = ok("show").stdout
    assert "Best" in shown and "* the deal's best" in shown and "-40" in shown
    assert "House rules: wins high, target 50, rounds 0, sum 0" in shown
    data = summary()
    assert data["game"] == "points" and data["winners"] == ["Ann"]
    assert data["totals"] == {"Ann": 51, "Bob": -32, "Cy": -19}
    assert data["rounds"][1]["points"] == {"Ann": -6, "Bob": 11, "Cy": -5}
    assert data["options"] == {"wins": "high", "target": 50, "rounds": 0, "sum": 0}
    log = ok("log").stdout
    assert "edit-round" in log and "undo" in log


def test_points_exports_in_every_format_and_reimports(points: None, ok: CLI, tmp_path: Path,
                                                      summary: Callable[..., Any]) -> None:
    ok("add-round", "Ann=12", "Bob=-3", "Cy=-9")
    ok("add-round", "Ann=40", "Bob=-30", "Cy=-10")
    rows = list(csv.reader(io.StringIO(ok("export", "--format", "csv").stdout)))
    assert rows[0] == ["round", "dealer", "Ann points", "Ann score", "Ann total",
                       "Bob points", "Bob score", "Bob total", "Cy points", "Cy score",
                       "Cy total"]
    assert rows[2] == ["2", "Bob", "40", "40", "52", "-30", "-30", "-33", "-10", "-10", "-19"]
    assert "| Round | Dealer | Best |" in ok("export", "--format", "md").stdout
    html = ok("export", "--format", "html").stdout
    assert "<svg" in html and "-30" in html
    path = tmp_path / "skat.json"
    path.write_text(ok("export", "--format", "json").stdout, encoding="utf-8")
    imported = ok("import", "--again", str(path)).stdout
    assert "as session 2" in imported
    again = summary(2)
    first = summary(1)
    assert again["rounds"] == first["rounds"] and again["winners"] == ["Ann"]


def test_an_import_whose_deal_breaks_the_sum_is_refused(points: None, ok: CLI, refuse: Refuse,
                                                       tmp_path: Path) -> None:
    ok("add-round", "Ann=12", "Bob=-3", "Cy=-9")
    data = json.loads(ok("export", "--format", "json").stdout)
    data["rounds"][0]["points"]["Ann"] = 13
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    refuse("import", "--again", str(path), says="add up to 1, not 0")
    data["rounds"][0]["points"]["Ann"] = 12
    data["rounds"][0]["scores"]["Ann"] = 13
    path.write_text(json.dumps(data), encoding="utf-8")
    refuse("import", "--again", str(path), says="re-scores")


def test_points_json_stats_and_rematch(points: None, ok: CLI) -> None:
    ok("add-round", "Ann=12", "Bob=-3", "Cy=-9")
    ok("add-round", "Ann=40", "Bob=-30", "Cy=-10")
    shown = json.loads(ok("show", "--json").stdout)
    assert shown["target"] == 50 and shown["rounds"][1]["best"] == ["Ann"]
    assert [row["player"] for row in shown["standings"]] == ["Ann", "Cy", "Bob"]
    stats = json.loads(ok("stats", "--json").stdout)
    assert "points" in json.dumps(stats) and "best_deals" in json.dumps(stats)
    text = ok("stats").stdout
    assert "Per deal" in text and "Best %" in text
    again = ok("rematch").stdout
    assert "Session 2" in again and "Points" in again
    assert json.loads(ok("show", "--json").stdout)["options"]["sum"] == 0


def test_points_low_wins_after_its_deals(ok: CLI) -> None:
    ok("new", "points", "--player", "Ann", "--player", "Bob", "--wins", "low",
       "--target", "0", "--rounds", "2", "--dealer", "Ann")
    assert "Deal 2 of 2." in ok("add-round", "Ann=10", "Bob=20").stdout
    assert "Game over: Ann wins!" in ok("add-round", "Ann=10", "Bob=2").stdout


def test_a_game_played_for_its_deals_shows_no_target(ok: CLI, db_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """`--target 0`: no "To 0" column, no line at 0 in the chart, no margin in the JSON,
    wherever the session is shown; a game with a target still shows it (the control)."""
    from scorekeeper.web.server import Site  # the served page, as test_stats_serve reads it

    ok("new", "points", "--player", "Ann", "--player", "Bob", "--target", "0",
       "--rounds", "3", "--dealer", "Ann")
    ok("add-round", "Ann=4", "Bob=9")
    ok("new", "points", "--player", "Ann", "--player", "Bob", "--target", "40",
       "--dealer", "Ann")
    ok("add-round", "Ann=4", "Bob=9")
    for width in ("200", "45"):
        monkeypatch.setenv("COLUMNS", width)
        assert "To 0" not in ok("show", "1").stdout and "to 0" not in ok("show", "1").stdout
        assert "To 40" in ok("show", "2").stdout or "to 40" in ok("show", "2").stdout
    assert "To 0" not in ok("add-round", "--session", "1", "Ann=1", "Bob=1").stdout
    shown = ok("show", "1", "--json").json()
    assert shown["target"] is None and {row["margin"] for row in shown["standings"]} == {None}
    assert ok("show", "2", "--json").json()["target"] == 40
    markdown = ok("export", "1", "--format", "md").stdout
    assert "| # | Player | Total | Status |" in markdown and "To 0" not in markdown
    assert "| # | Player | Total | To 40 | Status |" in ok("export", "2", "--format", "md").stdout
    for session, line in (("1", False), ("2", True)):
        page = ok("export", session, "--format", "html").stdout
        served = Site(db_path, "token").page(f"session/{session}").body
        for html in (page, served):
            assert ("stroke-dasharray" in html) is line and ("target 40" in html) is line
            assert "To 0" not in html
    # no target and no deal yet: the chart still has an axis (nothing to divide by 0)
    ok("new", "points", "--player", "Ann", "--player", "Bob", "--target", "0", "--rounds", "2")
    assert "<svg" in ok("export", "3", "--format", "html").stdout


POINTS_CORPUS = [
    (("add-round", "Ann=12", "Bob=-3"), "Cy is missing"),
    (("add-round", "Ann=12", "Bob=-3", "Cy=-8"), "add up to 1, not 0"),
    (("add-round", "Ann=12", "ann=3", "Bob=-3", "Cy=-12"), "entered twice"),
    (("add-round", "Ann=12", "Bob=-3", "Zed=-9"), "no player called 'Zed'"),
    (("add-round", "Ann=1.5", "Bob=-3", "Cy=1.5"), "must be a whole number"),
    (("add-round", "Ann=twelve", "Bob=-3", "Cy=-9"), "must be a whole number"),
    (("add-round", "Ann=2000000", "Bob=-1000000", "Cy=-1000000"), "out of range"),
    (("add-round", "Ann=" + "9" * 30, "Bob=0", "Cy=0"), "out of range"),
    (("add-round", "Ann=" + "9" * 5000, "Bob=0", "Cy=0"), "far too large"),
    (("edit-round", "2", "Ann=0", "Bob=0", "Cy=0"), "there is no round 2"),
    (("edit-round", "1", "Ann=1", "Bob=0", "Cy=0"), "add up to 1, not 0"),
]


@pytest.mark.parametrize(("args", "says"), POINTS_CORPUS, ids=lambda value: str(value)[:40])
def test_a_bad_points_entry_is_refused_in_one_line(points: None, ok: CLI, refuse: Refuse,
                                                   args: tuple[str, ...], says: str) -> None:
    ok("add-round", "Ann=1", "Bob=1", "Cy=-2")
    # another game's round option is a malformed command line (exit 2)
    refuse(*args, says=says, code=2 if "is for" in says else 1)


def test_a_finished_points_game_takes_no_more_deals(points: None, ok: CLI,
                                                     refuse: Refuse) -> None:
    ok("add-round", "Ann=50", "Bob=-25", "Cy=-25")
    refuse("add-round", "Ann=1", "Bob=-1", "Cy=0", says="is finished (Ann won)")


@pytest.mark.parametrize(("args", "says", "code"), [
    (("--wins", "middle"), "--wins must be high or low", 2),
    (("--target", "0", "--rounds", "0"), "needs an end", 1),
    (("--target", "-1"), "the target must be 0 (none)", 1),
    (("--limit", "50"), "--limit is a house rule of Least Score and Yaniv, not of Points", 2),
])
def test_bad_points_settings_are_refused(refuse: Refuse, args: tuple[str, ...], says: str,
                                         code: int) -> None:
    refuse("new", "points", "--player", "Ann", "--player", "Bob", *args, code=code, says=says)


def test_points_has_no_virtual_deck(refuse: Refuse) -> None:
    refuse("play", "points", "--player", "Ann", "--bot", "random", says="no virtual deck")


# ---------------------------------------------------------------------------
# Hearts


@pytest.fixture
def hearts(ok: CLI) -> None:
    ok("new", "hearts", *FOUR, "--dealer", "Ann")


def test_hearts_is_played_to_100_with_a_moon(hearts: None, ok: CLI,
                                             summary: Callable[..., Any]) -> None:
    ok("add-round", "Ann=13", "Bob=5", "Cy=8", "Dan=0")
    moon = ok("add-round", "--moon", "bob").stdout
    assert "Round 2 recorded: Ann +26, Bob +0, Cy +26, Dan +26" in moon
    ok("add-round", "--moon", "Dan")
    ok("undo")
    ok("redo")
    ok("edit-round", "1", "Ann=12", "Bob=0", "Cy=14", "Dan=0")
    done = ok("add-round", "--moon", "Bob").stdout  # Ann 90, Bob 26, Cy 92, Dan 52
    assert "Game over" not in done
    last = ok("add-round", "Ann=13", "Bob=0", "Cy=13", "Dan=0").stdout
    assert "Game over: Bob wins!" in last
    shown = ok("show").stdout
    assert "Bob: moon" in shown and "the moon's shooter" in shown
    data = summary()
    assert data["rounds"][1]["moon"] == "Bob" and data["rounds"][0]["moon"] is None
    assert data["totals"] == {"Ann": 103, "Bob": 26, "Cy": 105, "Dan": 52}
    assert "shot the moon" in ok("log").stdout


def test_hearts_exports_and_reimports(hearts: None, ok: CLI, refuse: Refuse,
                                      tmp_path: Path) -> None:
    ok("add-round", "Ann=13", "Bob=5", "Cy=8", "Dan=0")
    ok("add-round", "--moon", "Cy")
    rows = list(csv.reader(io.StringIO(ok("export", "--format", "csv").stdout)))
    assert rows[0][:3] == ["round", "dealer", "moon"] and rows[2][2] == "Cy"
    assert "Cy: moon" in ok("export", "--format", "md").stdout
    assert "<svg" in ok("export", "--format", "html").stdout
    path = tmp_path / "hearts.json"
    exported = ok("export", "--format", "json").stdout
    path.write_text(exported, encoding="utf-8")
    ok("import", "--again", str(path))
    assert json.loads(ok("export", "2", "--format", "json").stdout)["rounds"] == \
        json.loads(exported)["rounds"]
    tampered = json.loads(exported)
    tampered["rounds"][1]["moon"] = "Dan"  # Dan's moon re-scores unlike the file's scores
    path.write_text(json.dumps(tampered), encoding="utf-8")
    refuse("import", "--again", str(path), says="re-scores")


def test_hearts_jack_of_diamonds_and_minus(ok: CLI, refuse: Refuse) -> None:
    ok("new", "hearts", *FOUR, "--jack-of-diamonds", "on", "--moon-rule", "minus",
       "--target", "50")
    ok("add-round", "Ann=13", "Bob=-5", "Cy=8", "Dan=0")
    refuse("add-round", "--moon", "Ann", says="--jack NAME")
    moon = ok("add-round", "--moon", "Ann", "--jack", "Bob").stdout
    assert "Ann -26, Bob -10, Cy +0, Dan +0" in moon
    rules = json.loads(ok("rules", "hearts", "--json").stdout)
    assert [(rule["option"], rule["value"]) for rule in rules["house_rules"]] == [
        ("--target", 50), ("--moon-rule", "minus"), ("--jack-of-diamonds", "on")]


HEARTS_CORPUS = [
    (("add-round", "Ann=13", "Bob=5", "Cy=8", "Dan=1"), "add up to 27, not 26"),
    (("add-round", "Ann=26", "Bob=0", "Cy=0", "Dan=0"), "shooting the moon"),
    (("add-round", "Ann=30", "Bob=-4", "Cy=0", "Dan=0"), "impossible"),
    (("add-round", "Ann=13", "Bob=13", "Cy=0"), "Dan is missing"),
    (("add-round", "--moon", "Ann", "Ann=0"), "give no NAME=POINTS"),
    (("add-round", "--moon", "Zed"), "no moon shooter called 'Zed'"),
    (("add-round", "--moon", "Ann", "--jack", "Bob"), "--jack-of-diamonds off"),
    (("add-round", "--jack", "Bob", "Ann=13", "Bob=13", "Cy=0", "Dan=0"), "moon deal"),
    (("add-round", "--declarer", "Ann", "Ann=13", "Bob=13", "Cy=0", "Dan=0"), "--declarer"),
    (("add-round", "Ann=12", "Bob=12", "Cy=1", "Dan=1"), "nobody's points hold its 13"),
    (("add-round", "Ann=0", "Bob=6", "Cy=10", "Dan=10"), "no deal of cards"),
]


def test_with_the_jack_a_26_point_deal_is_refused_naming_the_jack(ok: CLI,
                                                                  refuse: Refuse) -> None:
    ok("new", "hearts", *FOUR, "--dealer", "Ann", "--jack-of-diamonds", "on")
    refuse("add-round", "Ann=13", "Bob=5", "Cy=8", "Dan=0",
           says=("add up to 26, not 16", "jack of diamonds", "J♦", "-10"))
    refuse("add-round", "Ann=12", "Bob=12", "Cy=1", "Dan=-9", says="no deal of cards")
    ok("add-round", "Ann=16", "Bob=0", "Cy=0", "Dan=0")  # Bob: 10 hearts and the jack


@pytest.mark.parametrize(("args", "says"), HEARTS_CORPUS, ids=lambda value: str(value)[:40])
def test_a_bad_hearts_entry_is_refused_in_one_line(hearts: None, refuse: Refuse,
                                                   args: tuple[str, ...], says: str) -> None:
    # another game's round option (--declarer) is a malformed command line (exit 2)
    refuse(*args, says=says, code=2 if args[1] == "--declarer" else 1)


@pytest.mark.parametrize(("args", "says", "code"), [
    (("--player", "Ann", "--player", "Bob"), "Hearts takes 3 to 6 players", 1),
    (("--moon-rule", "half"), "--moon-rule must be plus or minus", 2),
    (("--jack-of-diamonds", "yes"), "--jack-of-diamonds is a switch: --jack-of-diamonds (on) "
                                    "or --no-jack-of-diamonds (off), not 'yes'", 2),
    (("--target", "0"), "the target must be 1 to 1000", 1),
    (("--wins", "high"), "--wins is a house rule of Points, not of Hearts", 2),
])
def test_bad_hearts_settings_are_refused(refuse: Refuse, args: tuple[str, ...], says: str,
                                         code: int) -> None:
    players = () if "--player" in args else FOUR
    refuse("new", "hearts", *players, *args, code=code, says=says)


# ---------------------------------------------------------------------------
# Through the real executable: languages, and the group's own games


@pytest.mark.e2e
def test_points_and_hearts_speak_danish_and_arabic(score_run: Run) -> None:
    no_errors(score_run("new", "hearts", *FOUR, "--dealer", "Ann"))
    no_errors(score_run("add-round", "--moon", "Ann"))
    danish = no_errors(score_run("--lang", "da", "show")).stdout
    assert "Bedst" in danish and "månen" in danish
    refused = score_run("--lang", "da", "add-round", "Ann=13", "Bob=5", "Cy=8", "Dan=1")
    assert refused.exit_code == 1 and "giver 27, ikke 26" in refused.stderr
    arabic = no_errors(score_run("--lang", "ar", "show")).stdout
    assert any("\u0600" <= char <= "\u06ff" for char in arabic)
    rules = no_errors(score_run("--lang", "ar", "rules", "points")).stdout
    assert "القاعدة الخاصة `--sum`" in rules
    refused = score_run("--lang", "ar", "add-round", "Ann=26", "Bob=0", "Cy=0", "Dan=0")
    assert refused.exit_code == 1 and any("\u0600" <= char <= "\u06ff"
                                          for char in refused.stderr)


RUMMY = """\
title = "Rummy"
description = "Rummy as we play it: the lowest total after three deals wins."
players = [2, 4]

[defaults]
wins = "low"
target = 0
rounds = 3
"""


@pytest.fixture
def group_games(tmp_path: Path) -> Path:
    """The config folder's games/ (where the tests' SCOREKEEPER_CONFIG points)."""
    folder = Path(os.environ["SCOREKEEPER_CONFIG"]).parent / "games"
    folder.mkdir(parents=True)
    return folder


@pytest.mark.e2e
def test_a_groups_game_is_played_everywhere(score_run: Run, group_games: Path,
                                           tmp_path: Path) -> None:
    (group_games / "rummy.toml").write_text(RUMMY, encoding="utf-8")
    started = no_errors(score_run("new", "rummy", "--player", "Ann", "--player", "Bob",
                                  "--dealer", "Ann")).stdout
    assert "Rummy for Ann, Bob (wins low, target 0, rounds 3, sum any)" in started
    no_errors(score_run("add-round", "Ann=10", "Bob=20"))
    no_errors(score_run("add-round", "Ann=10", "Bob=-3"))
    no_errors(score_run("undo"))
    no_errors(score_run("redo"))
    no_errors(score_run("edit-round", "2", "Ann=10", "Bob=2"))
    done = no_errors(score_run("add-round", "Ann=10", "Bob=2")).stdout
    assert "Game over: Bob wins!" in done
    assert "Rummy" in no_errors(score_run("show")).stdout
    exported = no_errors(score_run("export", "--format", "json")).stdout
    assert json.loads(exported)["game"] == "rummy"
    for kind in ("md", "csv", "html"):
        no_errors(score_run("export", "--format", kind))
    path = tmp_path / "rummy.json"
    path.write_text(exported, encoding="utf-8")
    no_errors(score_run("import", "--again", str(path)))
    stats = json.loads(no_errors(score_run("stats", "--json")).stdout)
    assert "rummy" in json.dumps(stats)
    assert "Rummy" in no_errors(score_run("rematch")).stdout
    refused = score_run("new", "rummy", "--player", "A", "--player", "B", "--player", "C",
                        "--player", "D", "--player", "E")
    assert refused.exit_code == 1 and "Rummy takes 2 to 4 players" in refused.stderr
    assert len(refused.stderr.splitlines()) == 1


@pytest.mark.e2e
def test_score_games_lists_every_game_and_bad_files_in_one_line_each(
        score_run: Run, group_games: Path) -> None:
    (group_games / "rummy.toml").write_text(RUMMY, encoding="utf-8")
    (group_games / "bad.toml").write_text('title = "Bad"\n\n[defaults]\ntarget = "lots"\n',
                                          encoding="utf-8")
    (group_games / "broken.toml").write_text('title = "Bro\n', encoding="utf-8")
    (group_games / "hearts.toml").write_text('title = "Ours"\n', encoding="utf-8")
    (group_games / "folder.toml").mkdir()
    os.mkfifo(group_games / "fifo.toml")
    (group_games / "big.toml").write_text("# x\n" * 20000, encoding="utf-8")
    (group_games / "odd.toml").write_text('title = "Odd"\ncolour = "red"\n', encoding="utf-8")
    (group_games / "range.toml").write_text('players = [1, 30]\n', encoding="utf-8")
    listed = score_run("games", "--json")
    assert listed.exit_code == 0
    lines = listed.stderr.splitlines()
    folder = str(group_games)
    assert sorted(lines) == sorted([
        f"score: {folder}/bad.toml:4: the target must be a whole number, not 'lots' "
        "(the other games still work)",
        f"score: {folder}/big.toml: it is larger than 65536 bytes (the other games still work)",
        f"score: {folder}/broken.toml:1: not TOML: Illegal character '\\n' "
        "(the other games still work)",
        f"score: {folder}/fifo.toml: it is a named pipe (FIFO), not a file "
        "(the other games still work)",
        f"score: {folder}/folder.toml: it is a folder, not a file (the other games still work)",
        f"score: {folder}/hearts.toml: there is a game called hearts already: rename the "
        "file (the other games still work)",
        f"score: {folder}/odd.toml:2: unknown key 'colour' (a game's file has name, title, "
        "description, players, min_players, max_players, defaults, wins, target, rounds, "
        "sum) (the other games still work)",
        f"score: {folder}/range.toml:1: players must be [FEWEST, MOST], from 2 to 12, not "
        "[1, 30] (the other games still work)",
    ]), lines
    games = {game["name"]: game for game in json.loads(listed.stdout)["games"]}
    assert list(games) == ["hearts", "least-score", "oh-hell", "one-card", "points", "yaniv",
                           "rummy"]
    assert games["rummy"]["origin"] == "file"
    assert games["rummy"]["file"] == f"{folder}/rummy.toml"
    assert games["rummy"]["players"] == {"min": 2, "max": 4}
    assert [(rule["option"], rule["default"]) for rule in games["rummy"]["house_rules"]] == [
        ("--wins", "low"), ("--target", 0), ("--rounds", 3), ("--sum", "any")]
    assert games["hearts"]["origin"] == "built-in" and games["points"]["file"] is None
    text = score_run("games").stdout
    assert "Rummy as we play it" in text and "built-in" in text
    # the other games still work, and a built-in game's command never reads the folder
    built_in = score_run("new", "points", "--player", "Ann", "--player", "Bob")
    assert built_in.exit_code == 0 and built_in.stderr == ""
    assert score_run("new", "rummy", "--player", "Ann", "--player", "Bob").exit_code == 0


@pytest.mark.e2e
def test_a_groups_game_that_is_gone_is_an_unknown_game(score_run: Run) -> None:
    refused = score_run("new", "rummy", "--player", "Ann", "--player", "Bob")
    assert refused.exit_code == 2 and "there is no game called 'rummy'" in refused.stderr
