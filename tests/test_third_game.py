"""A third game from a folder of its own is scored, shown, exported and imported through
the real ``score``, with no file of the package changed (issue 10's extension point,
issue 29's "a game is one folder"): High Card (tests/third_game) is a distribution of
its own, installed as users install a plug-in (the ``installed_games`` fixture), found
through its ``scorekeeper.games`` entry point, with its own catalog (Danish) and rules
texts. Quick Least Score (tests/variant_game) is a variant: it builds on Least Score and
changes one default. A plug-in that fails to load leaves the other games working.
"""

from __future__ import annotations

import csv
import http.client
import io
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from conftest import DISTRIBUTIONS_VARIABLE, Result, fake_distribution, games_from
from deadlines import SCALE
from serving import start_serve

Run = Callable[..., Result]
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def high_card(score_run: Run, with_third_game: dict[str, str]) -> Run:
    """``score`` with High Card installed (found by its entry point)."""

    def run(*args: object, code: int = 0, stdin: str | None = None,
            env: dict[str, str] | None = None) -> Result:
        result = score_run(*args, env={**with_third_game, **(env or {})}, stdin=stdin)
        assert result.exit_code == code, (args, result)
        assert "Traceback" not in result.output, result.output
        assert not result.stderr or code, result.stderr  # no plug-in was left out
        return result

    return run


@pytest.mark.e2e
def test_the_third_game_is_scored_shown_exported_and_imported(high_card: Run,
                                                             tmp_path: Path) -> None:
    assert "high-card" in high_card("new", "--help").stdout  # a command of its own
    help_text = high_card("new", "high-card", "--help").stdout
    assert "--wins" in help_text \
        and "points that win the game" in " ".join(help_text.split())
    assert "--caller" not in high_card("add-round", "--help").stdout  # no session: no game

    started = high_card("new", "high-card", "--player", "Ann", "--player", "Bob",
                        "--wins", "2", "--dealer", "Ann")
    assert "High Card for Ann, Bob" in started.stdout
    assert "who called show." in high_card("add-round", "--help").stdout  # the session's
    first = high_card("add-round", "--caller", "Ann", "Ann=KH", "Bob=5S")
    assert "Round 1 recorded: Ann +1, Bob +0" in first.stdout
    wrong = high_card("add-round", "--caller", "bob", "Ann=QH", "Bob=2C")
    assert "(Bob called wrong)" in wrong.stdout
    high_card("add-round", "--caller", "Ann", "Ann=AS", "Bob=3D")  # the ace is low: wrong
    high_card("undo")
    done = high_card("add-round", "--caller", "Ann", "Ann=JD", "Bob=10D")
    assert "Game over: Ann wins!" in done.stdout

    shown = high_card("show").stdout
    assert "Caller" in shown and "Bob ✗ wrong" in shown and "* caller" in shown
    log = high_card("log").stdout
    assert "round 3: Ann called (wrong)" in log and "round 2: Bob called (wrong)" in log

    csv_text = high_card("export", "--format", "csv").stdout
    assert csv_text.splitlines()[0] == ("round,dealer,caller,wrong_call,Ann card,Ann score,"
                                        "Ann total,Bob card,Bob score,Bob total")
    assert csv_text.splitlines()[2].startswith("2,,Bob,true,QH,0,1,2C,-1,-1")
    assert "| Round | Dealer | Caller |" in high_card("export", "--format", "md").stdout

    exported = high_card("export", "--format", "json").stdout
    data = json.loads(exported)
    assert data["game"] == "high-card" and data["winners"] == ["Ann"]
    assert data["rounds"][1]["wrong_call"] is True
    path = tmp_path / "night.json"
    path.write_text(exported, encoding="utf-8")
    imported = high_card("import", "--again", path)
    assert "as session 2" in imported.stdout
    assert json.loads(high_card("export", "2", "--format", "json").stdout)["totals"] == \
        data["totals"]

    data["rounds"][1]["wrong_call"] = False  # a result the rounds do not re-score to
    path.write_text(json.dumps(data), encoding="utf-8")
    refused = high_card("import", "--again", path, code=1)
    assert "round 2: the file says wrong_call = False" in refused.stderr


@pytest.mark.e2e
def test_the_third_game_refuses_other_games_options(high_card: Run) -> None:
    high_card("new", "high-card", "--player", "Ann", "--player", "Bob")
    refused = high_card("add-round", "--declarer", "Ann", "Ann=KH", "Bob=5S", code=2)
    assert refused.stderr.startswith("error: --declarer is a round option of Least Score and "
                                     "Yaniv, not of High Card")
    malformed = high_card("new", "high-card", "--player", "Ann", "--player", "Bob",
                          "--limit", "50", code=2)
    assert "--limit is a house rule of Least Score and Yaniv, not of High Card" \
        in malformed.stderr
    assert "--wins is a house rule of Points and High Card, not of One Card" in high_card(
        "new", "one-card", "-p", "A", "-p", "B", "-p", "C", "--wins", "2", code=2).stderr


@pytest.mark.e2e
def test_without_the_installed_package_there_is_no_third_game(score_run: Run) -> None:
    result = score_run("new", "high-card", "--player", "Ann", "--player", "Bob")
    assert result.exit_code == 2 and "there is no game called 'high-card'" in result.stderr


@pytest.mark.e2e
def test_the_installed_game_has_its_html_export_stats_rules_and_completion(
        high_card: Run, score_run: Run, with_third_game: dict[str, str]) -> None:
    high_card("new", "high-card", "-p", "Ann", "-p", "Bob", "--wins", "1", "--dealer", "Bob")
    high_card("add-round", "--caller", "Bob", "Ann=2C", "Bob=AS")  # the ace is low: wrong
    high_card("add-round", "--caller", "Ann", "Ann=KH", "Bob=5S")
    page = high_card("export", "--format", "html").stdout
    assert "<html" in page and "Caller" in page and "High Card" in page
    rows = list(csv.reader(io.StringIO(high_card("export", "--format", "csv").stdout)))
    assert [row[2] for row in rows[1:]] == ["Bob", "Ann"]

    stats = json.loads(high_card("stats", "--json").stdout)
    assert stats["sessions"]["finished"] == 1
    assert stats["games"]["high-card"]["players"]["Ann"]["calls"] == 1
    assert "Calls" in high_card("stats", "--game", "high-card").stdout

    assert high_card("rules", "high-card").stdout.startswith("# High Card")

    complete = {"_SCORE_COMPLETE": "complete_bash", "COMP_WORDS": "score new ",
                "COMP_CWORD": "2", **with_third_game}
    games = score_run(env=complete).stdout.split()
    assert games[:6] == ["hearts", "least-score", "oh-hell", "one-card", "points", "yaniv"] \
        and "high-card" in games
    complete |= {"COMP_WORDS": "score add-round --cal", "COMP_CWORD": "2"}
    assert score_run(env=complete).stdout.split() == ["--caller"]


@pytest.mark.e2e
def test_the_installed_game_speaks_its_own_danish(high_card: Run) -> None:
    """Its words are its own catalog's (tests/third_game/high_card/locale), its rules text
    its own da.md; the generic words stay the generic catalog's."""
    assert "point, der vinder spillet, 1-10." in \
        " ".join(high_card("--lang", "da", "new", "high-card", "--help").stdout.split())
    high_card("new", "high-card", "-p", "Ann", "-p", "Bob", "--dealer", "Ann")
    refused = high_card("--lang", "da", "add-round", "Ann=KH", "Bob=5S", code=1)
    assert "sig, hvem der meldte: --caller NAVN" in refused.stderr
    added = high_card("--lang", "da", "add-round", "--caller", "Bob", "Ann=KH", "Bob=5S")
    assert added.stdout.startswith("Runde 1 skrevet ind: Ann +0")
    assert "(Bob meldte forkert)" in added.stdout
    shown = high_card("--lang", "da", "show").stdout
    assert "Melder" in shown and "* melder   ✗ en forkert melding" in shown
    assert "Bob ✗ forkert" in shown and "Stilling" in shown
    rules = high_card("--lang", "da", "rules", "high-card").stdout
    assert rules.startswith("# Højeste kort") and "den første til 3 point vinder" in rules
    # a language it has no catalog for reads its words as written, the rest translated
    arabic = high_card("--lang", "ar", "show").stdout
    assert "Caller" in arabic and "Caller" not in high_card("--lang", "da", "show").stdout


@pytest.mark.e2e
def test_the_installed_game_is_served(high_card: Run, score_exe: Path,
                                      score_env: dict[str, str],
                                      with_third_game: dict[str, str]) -> None:
    high_card("new", "high-card", "-p", "Ann", "-p", "Bob", "--dealer", "Ann")
    high_card("add-round", "--caller", "Ann", "Ann=KH", "Bob=5S")
    served = start_serve(score_exe, {**score_env, **with_third_game})
    try:
        url = urlsplit(served.url)
        connection = http.client.HTTPConnection(url.netloc, timeout=10 * SCALE)
        connection.request("GET", url.path + "session/1")
        response = connection.getresponse()
        body = response.read().decode("utf-8")
        connection.close()
        assert response.status == 200, body
        assert "High Card" in body and "Caller" in body and "Ann" in body
    finally:
        code, _out, err = served.stop()
    assert (code, err) == (0, "")


# --------------------------------------------------------------------------- a variant

@pytest.mark.e2e
def test_a_variant_builds_on_its_base_and_changes_one_default(
        score_run: Run, with_variant_game: dict[str, str]) -> None:
    """Quick Least Score is Least Score to 50: its table subclasses Least Score's, its
    declaration replaces the limit's default and help and keeps the rest."""

    def quick(*args: object) -> Result:
        result = score_run(*args, env=with_variant_game)
        assert result.exit_code == 0 and not result.stderr, (args, result)
        return result
    help_text = " ".join(quick("--lang", "da", "new", "quick-least-score", "--help")
                         .stdout.split())
    assert "grænsen for at blive slået ud, 10-500 (standard 50)." in help_text
    started = quick("new", "quick-least-score", "-p", "Ann", "-p", "Bob", "-p", "Cy",
                        "--dealer", "Ann").stdout
    assert "Quick Least Score for Ann, Bob, Cy (limit 50, tie declarer-wins" in started
    quick("add-round", "--declarer", "Ann", "Ann=3", "Bob=30", "Cy=4")
    over = quick("add-round", "--declarer", "Cy", "Ann=5", "Bob=30", "Cy=2").stdout
    assert "Bob is knocked out." in over  # 55: out at 50, not at Least Score's 100
    shown = quick("show").stdout
    assert "Declarer" in shown and "Left before 50" in shown
    danish = quick("--lang", "da", "show").stdout
    assert "Erklærer" in danish or "Melder" in danish, danish  # its base's words, in Danish
    assert "Tilbage før 50" in danish
    # its base is untouched: Least Score still defaults to 100
    assert "(limit 100," in quick("new", "least-score", "-p", "A", "-p", "B").stdout
    quick("new", "quick-least-score", "-p", "A", "-p", "B", "--limit", "100")
    assert "Left before 100" in quick("show").stdout


# --------------------------------------------------------------------------- broken plug-ins

@pytest.mark.e2e
def test_a_broken_plug_in_is_one_line_and_the_other_games_work(
        score_run: Run, tmp_path: Path) -> None:
    site = tmp_path / "site"
    fake_distribution(site, "broken_games", "[scorekeeper.games]\n"
                      "missing = no_such_module_here.game:GAME\n"
                      "wrong-type = broken_games_module:GAME\n"
                      "failing = failing_games_module:GAME\n")
    (site / "broken_games_module.py").write_text("GAME = 'not a declaration'\n")
    (site / "failing_games_module.py").write_text("raise RuntimeError('boom\\nsecond')\n")
    env = {"PYTHONPATH": str(site), **games_from("broken_games")}
    started = score_run("new", "least-score", "-p", "Ann", "-p", "Bob", "--dealer", "Ann",
                        env=env)
    assert started.exit_code == 0, started
    lines = started.stderr.splitlines()
    assert len(lines) == 3 and "Traceback" not in started.stderr, lines
    assert lines[0].startswith("score: the game failing (failing_games_module:GAME) is "
                               "left out: boom")
    assert "missing (no_such_module_here.game:GAME)" in lines[1] and \
        "no_such_module_here" in lines[1]
    assert lines[2] == ("score: the game wrong-type (broken_games_module:GAME) is left out: "
                        "it is not a game's declaration but str")
    added = score_run("add-round", "--declarer", "Ann", "Ann=2", "Bob=9", env=env)
    assert added.exit_code == 0 and "Round 1 recorded" in added.stdout
    assert score_run("new", "--help", env=env).exit_code == 0


@pytest.mark.e2e
def test_a_plug_in_that_takes_a_games_name_is_left_out(score_run: Run, tmp_path: Path,
                                                       ) -> None:
    site = tmp_path / "site"
    fake_distribution(site, "copycat", "[scorekeeper.games]\n"
                      "least-score = copycat_module:GAME\n")
    (site / "copycat_module.py").write_text(
        "from dataclasses import replace\n"
        "from scorekeeper.games.one_card.game import GAME as ONE\n"
        "from scorekeeper.games.least_score.table import LeastScoreTable\n"
        "GAME = replace(ONE, table=LeastScoreTable())\n")
    result = score_run("new", "least-score", "-p", "A", "-p", "B", "-p", "C",
                       env={"PYTHONPATH": str(site), **games_from("copycat")})
    assert result.exit_code == 0 and "(limit 100," in result.stdout
    assert result.stderr.strip() == ("score: the game least-score (copycat_module:GAME) is "
                                     "left out: a game called 'least-score' is already "
                                     "registered")


@pytest.mark.e2e
def test_a_source_tree_without_metadata_finds_the_built_in_games(tmp_path: Path) -> None:
    """Without this package's entry points (a source tree never installed: here a copy
    of the package and no site-packages at all), the games package's folders are the
    built-in games."""
    shutil.copytree(ROOT / "scorekeeper", tmp_path / "tree" / "scorekeeper",
                    ignore=shutil.ignore_patterns("__pycache__"))
    code = ("import sys; sys.path.insert(0, sys.argv[1])\n"
            "from scorekeeper.registry import DECLARATIONS, entry_points\n"
            "print(' '.join(DECLARATIONS), len(entry_points()))\n")
    found = subprocess.run([sys.executable, "-S", "-c", code, str(tmp_path / "tree")],
                           cwd=tmp_path, capture_output=True, text=True, check=True)
    assert found.stdout.split() == ["hearts", "least-score", "oh-hell", "one-card", "points",
                                    "yaniv", "0"] \
        and not found.stderr


@pytest.mark.e2e
def test_the_entry_points_read_are_importlib_metadatas(installed_games: dict[str, Path],
                                                       tmp_path: Path) -> None:
    """The registry reads the group's entry points itself (importlib.metadata's import
    costs start-up): what it reads is what importlib.metadata reads, distribution by
    distribution, this package's own, the test games', a broken one and a duplicate."""
    site = tmp_path / "site"
    fake_distribution(site, "broken_games", "# a comment\n[console_scripts]\nx = y:z\n\n"
                      "[scorekeeper.games]\nmissing = no_such_module_here.game:GAME\n"
                      "extra = some.module:GAME.attribute [extra]\n")
    fake_distribution(site, "Scorekeeper_High.Card", "[scorekeeper.games]\nshadow = a:B\n")
    path = [str(site), *(str(folder) for folder in installed_games.values()), *sys.path]
    code = ("import json, sys\n"
            "from importlib import metadata\n"
            "from scorekeeper.registry import entry_points\n"
            "ours = sorted((p.name, p.value) for p in entry_points())\n"
            "theirs = sorted((p.name, p.value) for p in "
            "metadata.entry_points(group='scorekeeper.games'))\n"
            "print(json.dumps([ours, theirs]))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(path)})
    ours, theirs = json.loads(done.stdout.strip().splitlines()[-1])
    assert ours == theirs
    assert ["shadow", "a:B"] in ours and ["high-card", "high_card.game:GAME"] not in ours
    assert ["extra", "some.module:GAME.attribute [extra]"] in ours
    assert {"least-score", "one-card", "quick-least-score", "missing"} <= {n for n, _v in ours}


@pytest.mark.e2e
def test_a_plug_ins_round_keeps_its_note_though_the_game_never_mentions_it(
        high_card: Run) -> None:
    """The kit keeps a round's ``--note`` for every game: High Card's round (its
    ``to_json``, ``renamed``) knows nothing of notes, and the note is stored, shown in the
    export, kept through a rename and an import."""
    high_card("new", "high-card", "--player", "Ann", "--player", "Bob", "--wins", "5")
    high_card("add-round", "--caller", "Ann", "Ann=KH", "Bob=5S", "--note", "Bob's deal")
    high_card("add-round", "--caller", "Bob", "Ann=2H", "Bob=9S")
    rounds = json.loads(high_card("export", "--format", "json").stdout)["rounds"]
    assert rounds[0]["note"] == "Bob's deal" and "note" not in rounds[1]
    high_card("players", "rename", "Bob", "Rob")
    rounds = json.loads(high_card("export", "--format", "json").stdout)["rounds"]
    assert rounds[0]["note"] == "Bob's deal" and rounds[0]["cards"] == {"Ann": "KH",
                                                                        "Rob": "5S"}


@pytest.mark.e2e
def test_the_suite_reads_only_the_games_of_the_distributions_it_names(
        score_run: Run, tmp_path: Path) -> None:
    """A game installed beside this project changes nothing under test: the suite names
    the distributions whose games are read ($SCOREKEEPER_GAME_DISTRIBUTIONS, set in
    tests/conftest.py); unset, every installed game is read, as for a user."""
    site = tmp_path / "site"
    fake_distribution(site, "someone_elses_games", "[scorekeeper.games]\n"
                      "elses = elses_module:GAME\n")
    (site / "elses_module.py").write_text(
        "from dataclasses import replace\n"
        "from scorekeeper.games.points.game import GAME as POINTS\n"
        "from scorekeeper.games.points.table import PointsTable\n"
        "TABLE = PointsTable(name='elses', title='Someone Else')\n"
        "GAME = replace(POINTS, name='elses', title='Someone Else', table=TABLE,\n"
        "               game_files=None)\n")
    env = {"PYTHONPATH": str(site)}
    listed = score_run("games", "--json", env=env)
    assert listed.exit_code == 0 and listed.stderr == ""
    assert "elses" not in names(listed.stdout)
    assert "elses" in names(score_run("games", "--json",
                                      env={**env, **games_from("someone-elses-games")}).stdout)
    everything = {key: value for key, value in os.environ.items()
                  if key != DISTRIBUTIONS_VARIABLE}
    done = subprocess.run([sys.executable, "-m", "scorekeeper", "games", "--json"],
                          env={**everything, "PYTHONPATH": str(site),
                               "SCOREKEEPER_DB": str(tmp_path / "db.json")},
                          capture_output=True, text=True, timeout=60 * SCALE,
                          cwd=tmp_path)
    assert "elses" in names(done.stdout), done.stderr


def names(listed: str) -> list[str]:
    return [game["name"] for game in json.loads(listed)["games"]]
