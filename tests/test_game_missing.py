"""A session never needs its game to be read (issue 38, item 1).

Move, rename or break a group's game file, or uninstall a plug-in, and the sessions of
that game become *unavailable*, never the store: ``sessions``, ``stats``, ``players``,
``log``, ``doctor``, ``serve`` and ``delete`` work; the session is listed with its game
and what to do; ``stats`` leaves it out in one line; the commands that need the game's
rules refuse in one line naming the game and the fix; ``doctor`` says "game missing",
never damage, and ``--restore`` never drops such a session; its stored bytes never
change; and with the game back everything is as before.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import CLI, Refuse, Result, assert_one_line_error

from scorekeeper import registry
from scorekeeper.store import Store
from scorekeeper.views import pages

Run = Callable[..., Result]

KINGS = """\
title = "Kings"
players = [2, 6]

[defaults]
wins = "low"
target = 0
rounds = 10
"""
PUT_BACK = "game 'kings' is not installed: put games/kings.toml back"


def session_line(db: Path, session_id: int) -> bytes:
    """The stored text of one session: its line of the store file."""
    found = re.search(rb'^"%d": (\{"game".*\}),?$' % session_id, db.read_bytes(),
                      re.MULTILINE)  # (not the meta table's record of the sessions)
    assert found is not None, db.read_text(encoding="utf-8")
    return found[1]


def one_line(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture
def games_folder(db_path: Path) -> Path:
    folder = db_path.parent.parent / "config" / "games"
    folder.mkdir(parents=True)
    return folder


@pytest.fixture
def forget(group_games_read_afresh: None) -> Iterator[Callable[[], None]]:
    """``forget()``: this process reads the group's games again on their next use, as the
    next ``score`` command would (the registry reads the folder once a run)."""
    declarations, origins = dict(registry.DECLARATIONS), dict(registry.ORIGINS)

    def again() -> None:
        registry.DECLARATIONS.clear()
        registry.DECLARATIONS.update(declarations)
        registry.ORIGINS.clear()
        registry.ORIGINS.update(origins)
        registry._group_games_read = False

    yield again


@pytest.fixture
def kings_gone(ok: CLI, games_folder: Path, forget: Callable[[], None],
               db_path: Path) -> Path:
    """Session 1: Least Score with a round; session 2 (current): Kings, a group's game, two
    rounds; then games/kings.toml moved aside (returned: where it is now)."""
    (games_folder / "kings.toml").write_text(KINGS, encoding="utf-8")
    ok("new", "least-score", "-p", "Ann", "-p", "Bob", "--dealer", "Ann", "--name", "Friday")
    ok("add-round", "--declarer", "Bob", "Ann=7", "Bob=3")
    ok("new", "kings", "-p", "Ann", "-p", "Bob", "--dealer", "Bob")
    ok("add-round", "Ann=3", "Bob=5")
    ok("add-round", "Ann=1", "Bob=5")
    aside = games_folder / "kings.toml.old"
    (games_folder / "kings.toml").rename(aside)
    forget()
    return aside


def test_the_store_reads_without_the_game(kings_gone: Path, ok: CLI, cli: CLI,
                                          db_path: Path) -> None:
    before = db_path.read_bytes()
    listed = ok("sessions").stdout
    assert "Friday" in listed and PUT_BACK in one_line(listed)
    data = json.loads(ok("sessions", "--json").stdout)
    kings = data["sessions"][1]
    assert [entry["id"] for entry in data["sessions"]] == [1, 2]
    assert (kings["game"], kings["status"], kings["rounds"]) == ("kings", "unavailable", 2)
    assert kings["problem"].startswith(PUT_BACK) and kings["players"] == ["Ann", "Bob"]
    assert data["sessions"][0]["status"] == "in-progress"

    stats = cli("stats")
    assert stats.exit_code == 0 and "Traceback" not in stats.output
    assert stats.stderr.splitlines() == [stats.stderr.strip()]
    assert "session 2 (kings #2) is left out" in stats.stderr and PUT_BACK in stats.stderr
    figures = json.loads(cli("stats", "--json").stdout)
    assert "kings" not in json.dumps(figures)
    players = cli("players")
    assert players.exit_code == 0 and "Ann" in players.stdout and "left out" in players.stderr

    log = ok("log", "2").stdout
    assert "round 2: best: Ann; Ann +1, Bob +5" in one_line(log)
    assert json.loads(ok("log", "--json").stdout)["label"] == "kings #2"
    assert "Friday" in ok("show", "1").stdout
    assert db_path.read_bytes() == before


@pytest.mark.parametrize("command", [
    ("show",), ("show", "2", "--json"), ("add-round", "Ann=1", "Bob=2"),
    ("edit-round", "1", "Ann=1", "Bob=2"), ("undo",), ("redo",), ("export",),
    ("export", "2", "--format", "csv"), ("rematch", "2"), ("add-player", "Cy"),
    ("drop-player", "Bob"), ("abandon", "2"), ("review", "2"),
])
def test_what_needs_the_game_refuses_in_one_line(kings_gone: Path, refuse: Refuse,
                                                 command: tuple[str, ...]) -> None:
    refused = refuse(*command, says=("session 2 (kings #2)", PUT_BACK))
    assert "damaged" not in refused.stderr and "restore" not in refused.stderr


def test_the_other_sessions_are_written_and_the_missing_one_never_changes(
        kings_gone: Path, ok: CLI, db_path: Path) -> None:
    stored = session_line(db_path, 2)
    ok("use", "1")
    ok("add-round", "--declarer", "Ann", "Ann=2", "Bob=9")
    ok("new", "points", "-p", "Cy", "-p", "Dan")
    ok("use", "2")  # made current, for `log`; its own text is not touched
    assert session_line(db_path, 2) == stored
    assert len(json.loads(ok("show", "1", "--json").stdout)["rounds"]) == 2


def test_doctor_says_game_missing_and_restores_nothing_for_it(
        kings_gone: Path, cli: CLI, db_path: Path) -> None:
    before = db_path.read_bytes()
    checked = cli("doctor")
    text = one_line(checked.stdout)
    assert checked.exit_code == 0, checked
    assert "healthy" in text and "game missing" in text and PUT_BACK in text
    assert "damaged" not in text and "--restore" not in text
    report = json.loads(cli("doctor", "--json").stdout)
    assert report["store"]["healthy"] is True and report["store"]["problems"] == []
    assert report["store"]["missing"][0].startswith("session 2: game missing: " + PUT_BACK)
    assert all(backup["healthy"] for backup in report["backups"])
    restored = cli("doctor", "--restore")
    assert restored.exit_code == 1 and "is healthy, so nothing was restored" in restored.stderr
    assert db_path.read_bytes() == before


def test_a_restore_keeps_the_session_that_only_lacks_its_game(
        kings_gone: Path, ok: CLI, cli: CLI, db_path: Path) -> None:
    stored = session_line(db_path, 2)
    ok("add-round", "-s", "1", "--declarer", "Ann", "Ann=2", "Bob=9")
    text = db_path.read_text(encoding="utf-8")
    damaged = text.replace('"players":["Ann","Bob"],"options":{"limit"',
                           '"players":"Ann","options":{"limit"', 1)
    assert damaged != text
    db_path.write_text(damaged, encoding="utf-8")  # session 1 damaged by hand
    assert "session 1" in one_line(cli("doctor").stdout)
    restored = cli("doctor", "--restore")
    assert restored.exit_code == 0, restored
    assert "Restored scorekeeper.json.bak1" in one_line(restored.stdout)
    assert session_line(db_path, 2) == stored  # the newest backup: session 2 in it
    assert len(json.loads(ok("show", "1", "--json").stdout)["rounds"]) == 1


def test_the_served_pages_list_it_and_refuse_its_own(kings_gone: Path, db_path: Path) -> None:
    view = Store(db_path).read()
    listed = pages.sessions_page(view).body
    escaped = html.escape(PUT_BACK, quote=True)  # user text and ours: escaped in HTML
    assert "Friday" in listed and escaped in listed and "kings #2" in listed
    own = pages.session_page(view, 2).body
    assert escaped in own and "Traceback" not in own
    assert "Friday" in pages.session_page(view, 1).body


def test_delete_and_the_log_of_a_deleted_unavailable_session(kings_gone: Path, ok: CLI,
                                                             db_path: Path) -> None:
    done = ok("delete", "2", "--yes").stdout
    assert "Deleted session 2 (kings #2)" in one_line(done)
    log = one_line(ok("log", "2").stdout)
    assert "deleted with `score delete`" in log and "round 1" in log
    assert [entry["id"] for entry in json.loads(ok("sessions", "--json").stdout)["sessions"]
            ] == [1]


def test_the_game_back_is_everything_as_before(kings_gone: Path, ok: CLI, db_path: Path,
                                               forget: Callable[[], None]) -> None:
    ok("add-round", "-s", "1", "--declarer", "Ann", "Ann=2", "Bob=9")  # a write meanwhile
    kings_gone.rename(kings_gone.with_name("kings.toml"))
    forget()
    shown = json.loads(ok("show", "2", "--json").stdout)
    assert shown["totals"] == {"Ann": 4, "Bob": 10} and len(shown["rounds"]) == 2
    assert "every one re-scored" in one_line(ok("doctor").stdout)
    ok("add-round", "-s", "2", "Ann=2", "Bob=2")
    assert json.loads(ok("sessions", "--json").stdout)["sessions"][1]["rounds"] == 3


def test_a_broken_game_file_makes_only_its_sessions_unavailable(
        kings_gone: Path, cli: CLI, forget: Callable[[], None], db_path: Path) -> None:
    kings_gone.with_name("kings.toml").write_text('title = "Kings\n', encoding="utf-8")
    forget()
    fix = "game 'kings' is not installed: games/kings.toml can't be read as a game"
    listed = cli("sessions")
    assert listed.exit_code == 0 and fix in one_line(listed.stdout)
    assert "kings.toml:1: not TOML" in listed.stderr  # the file's own line, as `games` says
    forget()
    before = db_path.read_bytes()
    refused = cli("show", "2")
    assert refused.exit_code == 1 and refused.stdout == ""
    why, error = refused.stderr.splitlines()  # the file's line, then the refusal's
    assert "kings.toml:1: not TOML" in why and error.startswith("error: session 2 (kings #2)")
    assert fix in error and "fix it" in error
    assert db_path.read_bytes() == before


# ---------------------------------------------------------------------------
# Through the real `score`


@pytest.mark.e2e
def test_a_moved_game_file_through_score(score_run: Run, games_folder: Path,
                                         db_path: Path) -> None:
    (games_folder / "kings.toml").write_text(KINGS, encoding="utf-8")
    for argv in (("new", "kings", "-p", "Ann", "-p", "Bob", "--dealer", "Ann"),
                 ("add-round", "Ann=3", "Bob=5")):
        assert score_run(*argv).exit_code == 0
    (games_folder / "kings.toml").rename(games_folder / "renamed.toml")
    before = db_path.read_bytes()
    readers: list[tuple[str, ...]] = [("sessions",), ("stats",), ("players",), ("log",),
                                      ("doctor",)]
    for reader in readers:
        result = score_run(*reader)
        assert result.exit_code == 0 and "Traceback" not in result.output, (reader, result)
        assert "damaged" not in result.output
    assert PUT_BACK in one_line(score_run("sessions").stdout)
    shown = score_run("show")
    assert shown.exit_code == 1 and shown.stdout == ""
    assert_one_line_error(shown)
    assert PUT_BACK in shown.stderr
    assert db_path.read_bytes() == before
    (games_folder / "renamed.toml").rename(games_folder / "kings.toml")
    back = score_run("show", "--json")
    assert back.exit_code == 0 and json.loads(back.stdout)["game"] == "kings"


@pytest.mark.e2e
def test_an_uninstalled_plug_in_through_score(score_run: Run, with_third_game: dict[str, str],
                                              db_path: Path) -> None:
    for argv in (("new", "least-score", "-p", "Ann", "-p", "Bob"),
                 ("new", "high-card", "-p", "Ann", "-p", "Bob", "--dealer", "Ann"),
                 ("add-round", "--caller", "Ann", "Ann=KH", "Bob=5S")):
        assert score_run(*argv, env=with_third_game).exit_code == 0, argv
    stored = session_line(db_path, 2)
    plug_in = "game 'high-card' is not installed: install the plug-in that adds it"
    listed = score_run("sessions")  # no PYTHONPATH: the plug-in is not installed
    assert listed.exit_code == 0 and plug_in in one_line(listed.stdout)
    stats = score_run("stats")
    assert stats.exit_code == 0 and "session 2 (high-card #2) is left out" in stats.stderr
    doctor = score_run("doctor")
    assert doctor.exit_code == 0 and "game missing" in one_line(doctor.stdout)
    needers: list[tuple[str, ...]] = [("show",), ("export", "2"),
                                      ("add-round", "Ann=KH", "Bob=5S"), ("rematch",)]
    for needer in needers:
        refused = score_run(*needer)
        assert refused.exit_code == 1 and refused.stdout == "", (needer, refused)
        assert_one_line_error(refused)
        assert plug_in in refused.stderr
    assert score_run("add-round", "-s", "1", "--declarer", "Ann", "Ann=2", "Bob=9"
                     ).exit_code == 0
    assert session_line(db_path, 2) == stored  # written around, never rewritten
    back = score_run("show", "2", "--json", env=with_third_game)
    assert back.exit_code == 0 and json.loads(back.stdout)["game"] == "high-card"
