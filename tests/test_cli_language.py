"""The language of a run (issue 15): chosen before anything is parsed or printed, help
pages included, for each invocation anew; Typer's and Click's own words translated too.

The catalogs themselves are checked in test_translations.py; the rules texts in each
language in test_rules_docs.py.
"""

from __future__ import annotations

import gettext
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from deadlines import SCALE

from scorekeeper import i18n
from scorekeeper.cli.language import root_option
from tests.conftest import CLI, Refuse, Result, assert_one_line_error

HELP_WORDS = {
    "en": ("Usage: score", "Options:", "Commands:", "Show this message and exit."),
    "da": ("Brug: score", "Tilvalg:", "Kommandoer:", "Vis denne hjælp og afslut."),
    "ar": ("الاستخدام: score", "الخيارات:", "الأوامر:", "اعرض هذه الرسالة واخرج."),
}


@pytest.mark.parametrize("language", ["en", "da", "ar"])
def test_the_help_page_is_in_the_language_asked_for(cli: CLI, language: str) -> None:
    result = cli("--lang", language, "--help")
    assert result.exit_code == 0
    for words in HELP_WORDS[language]:
        assert words in result.stdout


def test_a_command_help_page_has_typers_words_translated(cli: CLI) -> None:
    page = cli("--lang=da", "export", "--help").stdout
    assert "Brug: score export" in page and "Argumenter:" in page
    assert "[standard: md]" in page  # Typer's "[default: md]"


@pytest.mark.parametrize(("language", "words"), [
    ("en", "A human player (repeat): at this keyboard, or on their own page with --online."),
    ("da", "En menneskelig spiller (gentag): ved dette tastatur, eller på sin egen side med "
           "--online."),
    ("ar", "لاعب بشري (كرّر): على لوحة المفاتيح هذه، أو على صفحته الخاصة مع --online."),
])
def test_plays_player_is_at_this_keyboard_or_on_their_own_page_online(
        cli: CLI, language: str, words: str) -> None:
    page = " ".join(cli("--lang", language, "play", "--help").stdout.split())
    assert words in page


def test_each_run_speaks_its_own_language(cli: CLI, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests build the command tree once for many runs: nothing of an earlier run's
    language may stay (the help texts are translated again at each run)."""
    assert "Brug: score" in cli("--lang", "da", "add-round", "--help").stdout
    english = cli("--lang", "en", "add-round", "--help").stdout
    assert "Usage: score add-round" in english and "Options:" in english
    assert "Brug" not in english and "Tilvalg" not in english
    monkeypatch.setenv("SCOREKEEPER_LANG", "ar")
    assert "الخيارات:" in cli("add-round", "--help").stdout
    assert "Options:" in cli("--lang", "en", "add-round", "--help").stdout


def test_without_lang_the_variable_then_the_config_then_the_locale(
        cli: CLI, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("SCOREKEEPER_LANG", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "ar_EG.UTF-8")
    assert "الخيارات:" in cli("--help").stdout
    assert cli("config", "set", "language", "da").exit_code == 0
    assert "Tilvalg:" in cli("--help").stdout
    monkeypatch.setenv("SCOREKEEPER_LANG", "en")
    assert "Options:" in cli("--help").stdout


class Catalog(gettext.NullTranslations):
    """A catalog that marks every message it translates."""

    def gettext(self, message: str) -> str:
        return f"«{message}»"


def test_help_texts_are_translated_when_a_command_is_used(
        cli: CLI, monkeypatch: pytest.MonkeyPatch) -> None:
    """A command's help, its options' help and the root's, from the catalog (whatever the
    wrapping of each message: every help text goes through it)."""
    english_catalog = i18n.catalog
    monkeypatch.setattr(i18n, "catalog", lambda language: Catalog() if language == "da"
                        else english_catalog(language))
    page = cli("--lang", "da", "undo", "--help").stdout
    assert "«Remove the last round; totals, knock-outs and the winner follow.»" in page
    assert "«Session id (default: the current one).»" in page
    root = cli("--lang", "da", "--help").stdout
    assert "«The store file" in root and "«Bring back what undo removed" in root
    again = cli("--lang", "en", "undo", "--help").stdout
    assert "«" not in again and "Remove the last round" in again


def test_a_malformed_command_line_is_refused_in_the_language(refuse: Refuse,
                                                             tmp_path: Path) -> None:
    result = refuse("--lang", "da", "add-round", "--bogus", code=2,
                    says="score add-round har ikke tilvalget --bogus")
    assert_one_line_error(result)
    refuse("--lang", "ar", "nosuch", code=2, says="لا يوجد أمر باسم 'nosuch'")
    refuse("--lang", "da", "show", "x", code=2, says="ID skal være et helt tal, ikke 'x'")
    refuse("--lang", "da", "export", "--format", "pdf", code=2,
           says="--format skal være json, md, csv, html eller bgstats, ikke 'pdf'")
    refuse("--lang", "da", "export", "--force=yes", code=2, says="--force tager ikke en værdi")
    refuse("--lang", "ar", "export", "--output", tmp_path, code=2, says="مجلد، لا ملف")


def test_an_unknown_language_is_refused_in_the_language_otherwise_spoken(
        refuse: Refuse, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREKEEPER_LANG", "da")
    refuse("--lang", "fr", "sessions", code=2, says="--lang skal være en, da eller ar, ikke 'fr'")
    monkeypatch.setenv("SCOREKEEPER_LANG", "fr")
    refuse("sessions", code=2, says="SCOREKEEPER_LANG must be en, da or ar, not 'fr'")


def test_root_option_reads_only_the_roots_lang() -> None:
    assert root_option(["--lang", "da", "show"]) == "da"
    assert root_option(["--db", "--lang", "--lang=ar"]) == "ar"  # --db's value is a file
    assert root_option(["-h", "--lang=ar"]) == "ar"
    assert root_option(["show", "--lang", "da"]) is None
    assert root_option(["--lang"]) is None
    assert root_option([]) is None


@pytest.mark.e2e
def test_the_real_score_speaks_danish(score_run: Callable[..., Result], tmp_path: Path) -> None:
    result = score_run("--lang", "da", "--help")
    assert result.exit_code == 0 and "Brug: score" in result.stdout
    refused = score_run("add-round", "--bogus", env={"SCOREKEEPER_LANG": "ar"})
    assert refused.exit_code == 2
    assert "لا يوجد في score add-round خيار --bogus" in refused.stderr
    module = subprocess.run([sys.executable, "-m", "scorekeeper", "--lang", "da", "--help"],
                            capture_output=True, text=True, encoding="utf-8", timeout=60 * SCALE,
                            cwd=tmp_path)
    assert module.returncode == 0 and "Tilvalg:" in module.stdout


@pytest.mark.e2e
def test_english_loads_no_catalog_and_the_table_never_imports_babel(tmp_path: Path) -> None:
    """Start-up is the table's wait (issue 12): no Babel on the way to a round."""
    code = ("import sys\n"
            "import gettext\n"
            "from scorekeeper.cli.app import run\n"
            "loaded = []\n"
            "real = gettext.GNUTranslations._parse\n"
            "gettext.GNUTranslations._parse = lambda self, file: (loaded.append(file.name),\n"
            "                                                     real(self, file))[1]\n"
            "run(['--lang', 'en', 'new', 'least-score', '-p', 'A', '-p', 'B'])\n"
            "run(['--lang', 'en', 'add-round', '--declarer', 'A', 'A=1', 'B=9'])\n"
            "assert loaded == [], loaded\n"
            "run(['--lang', 'da', 'add-round', '--declarer', 'A', 'A=1', 'B=9'])\n"
            "assert 'babel' not in sys.modules, sorted(m for m in sys.modules if 'babel' in m)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60 * SCALE, env={"SCOREKEEPER_DB": str(tmp_path / "store.json"),
                                           "SCOREKEEPER_CONFIG": str(tmp_path / "c.toml"),
                                           "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
