"""Issue 15: the commands' own words in Danish and Arabic, end to end.

The real ``score`` runs in a subprocess with ``SCOREKEEPER_LANG`` or ``--lang``, and the
translated words of cli/app.py, cli/nights.py, importing.py ... must appear: what a
command prints after it succeeds, a refusal (still one line starting ``error: ``, the
prefix scripts look for), a question's reason and the help of commands and options.
These pass once the catalogs hold the translations (scorekeeper/locale); the English
words are checked by the other command-line tests.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result, assert_one_line_error, file_bytes

Run = Callable[..., Result]

DANISH = {"SCOREKEEPER_LANG": "da"}


@pytest.mark.e2e
def test_new_says_the_session_started_in_danish(score_run: Run) -> None:
    result = score_run("new", "least-score", "--player", "Ann", "--player", "Bob",
                       "--dealer", "Ann", env=DANISH)
    assert result.exit_code == 0, result
    assert "Session 1 er startet: Least Score for Ann, Bob" in result.stdout
    assert "Den er nu den aktuelle session." in result.stdout
    assert "It is now the current session" not in result.stdout


@pytest.mark.e2e
def test_new_says_who_was_drawn_to_deal_in_arabic(score_run: Run) -> None:
    result = score_run("--lang", "ar", "new", "one-card", "--player", "Ann",
                       "--player", "Bob")
    assert result.exit_code == 0, result
    assert "بدأت الجلسة 1" in result.stdout
    assert "عشوائيًا ليوزّع أولًا" in result.stdout  # ... was drawn at random to deal first


@pytest.mark.e2e
def test_an_empty_list_of_sessions_in_arabic(score_run: Run) -> None:
    result = score_run("--lang", "ar", "sessions")
    assert result.exit_code == 0, result
    assert "لا توجد جلسات بعد" in result.stdout
    assert "`score new least-score --player A --player B`" in result.stdout  # typed words stay


@pytest.mark.e2e
def test_a_refusal_in_arabic_keeps_its_error_prefix(score_run: Run, tmp_path: Path,
                                                    db_path: Path) -> None:
    before = file_bytes(db_path)
    result = score_run("--lang", "ar", "import", tmp_path / "missing.json")
    assert result.exit_code == 1
    assert_one_line_error(result)
    assert result.stderr.startswith("error: لا يوجد ملف ")
    assert file_bytes(db_path) == before


@pytest.mark.e2e
def test_a_malformed_file_is_refused_in_danish(score_run: Run, tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("[" * 100 + "]" * 100, encoding="utf-8")
    result = score_run("import", broken, env=DANISH)
    assert result.exit_code == 1
    assert_one_line_error(result)
    assert "er indlejret for dybt (mere end 64 niveauer)" in result.stderr
    assert "import tager en fil fra `score export --format json`" in result.stderr


@pytest.mark.e2e
def test_doctor_and_delete_speak_danish(score_run: Run) -> None:
    assert "findes ikke endnu (en tom datafil)" in score_run("doctor", env=DANISH).stdout
    score_run("new", "least-score", "--player", "Ann", "--player", "Bob", env=DANISH)
    assert "sund — 1 session, 0 runder" in score_run("doctor", env=DANISH).stdout
    refused = score_run("delete", "1", env=DANISH)  # not at a terminal
    assert refused.exit_code == 1
    assert "tilføj --yes for at slette den fra et script" in refused.stderr
    deleted = score_run("delete", "1", "--yes", env=DANISH)
    assert "Slettede session 1" in deleted.stdout


@pytest.mark.e2e
def test_players_table_headings_in_arabic(score_run: Run) -> None:
    score_run("new", "least-score", "--player", "Ann", "--player", "Bob")
    shown = score_run("--lang", "ar", "players").stdout
    assert "اللاعبون" in shown and "آخر لعب" in shown
    assert "Ann" in shown  # names are data


@pytest.mark.e2e
def test_help_of_commands_and_options_in_danish(score_run: Run) -> None:
    shown = score_run("new", "--help", env=DANISH).stdout
    assert "Start en session; den bliver den aktuelle session." in shown
    # the games, each a command of its own, described in Danish
    assert "Yaniv, en variant af Least Score" in shown and "least-score" in shown
    assert "Et navn til sessionen." in score_run("new", "least-score", "--help",
                                                 env=DANISH).stdout
    listed = score_run("--help", env=DANISH).stdout
    assert "Fjern den sidste runde" in listed  # undo, listed by the group
    assert "Statistik over færdige sessioner" in listed  # stats, registered lazily


@pytest.mark.e2e
def test_rules_headings_follow_the_language(score_run: Run) -> None:
    assert "## Husregler (standard)" in score_run("rules", "least-score", env=DANISH).stdout
    assert "## القواعد الخاصة (الافتراضية)" in score_run("--lang", "ar", "rules",
                                                         "least-score").stdout
