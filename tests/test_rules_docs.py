"""The project's own documents: the rules texts in three languages, `score --lang`,
`score rules --json`, the links of README.md and docs/, and the package data."""

from __future__ import annotations

import pytest
from conftest import Refuse

from scorekeeper.cli.context import UsageProblem
from scorekeeper.cli.language import locale_language, parse_language, resolve_language
from scorekeeper.games.common import Language

# --------------------------------------------------------------------------- which language


@pytest.mark.parametrize(("option", "environ", "expected"), [
    (Language.DANISH, {"SCOREKEEPER_LANG": "ar", "LANG": "en_GB.UTF-8"}, Language.DANISH),
    (None, {"SCOREKEEPER_LANG": "ar", "LANG": "da_DK.UTF-8"}, Language.ARABIC),
    (None, {"SCOREKEEPER_LANG": " DA "}, Language.DANISH),
    (None, {"SCOREKEEPER_LANG": "", "LANG": "da_DK.UTF-8"}, Language.DANISH),
    (None, {"LANG": "ar_EG.UTF-8"}, Language.ARABIC),
    (None, {"LANG": "da"}, Language.DANISH),
    (None, {"LC_MESSAGES": "da_DK.UTF-8", "LANG": "ar_EG.UTF-8"}, Language.DANISH),
    (None, {"LC_ALL": "ar_SA.UTF-8@latin", "LC_MESSAGES": "da_DK"}, Language.ARABIC),
    (None, {"LC_ALL": "C", "LANG": "da_DK.UTF-8"}, Language.ENGLISH),  # LC_ALL wins, even C
    (None, {"LC_ALL": "", "LANG": "da_DK.UTF-8"}, Language.DANISH),  # empty is unset
    (None, {"LANG": "fr_FR.UTF-8"}, Language.ENGLISH),  # a language scorekeeper lacks
    (None, {"LANG": "POSIX"}, Language.ENGLISH),
    (None, {}, Language.ENGLISH),
])
def test_language_resolution_order(option: Language | None, environ: dict[str, str],
                                   expected: Language) -> None:
    assert resolve_language(option, environ) is expected


def test_the_config_file_comes_between_the_variable_and_the_locale() -> None:
    locale = {"LANG": "da_DK.UTF-8"}
    assert resolve_language(None, locale, configured=Language.ARABIC) is Language.ARABIC
    assert resolve_language(None, {**locale, "SCOREKEEPER_LANG": "en"},
                            configured=Language.ARABIC) is Language.ENGLISH
    assert resolve_language(Language.DANISH, {}, configured=Language.ARABIC) is Language.DANISH


def test_a_language_asked_for_by_name_must_exist() -> None:
    with pytest.raises(UsageProblem, match="--lang must be en, da or ar, not 'fr'"):
        parse_language("fr")
    with pytest.raises(UsageProblem, match="SCOREKEEPER_LANG must be en, da or ar"):
        resolve_language(None, {"SCOREKEEPER_LANG": "dansk", "LANG": "da_DK.UTF-8"})
    assert locale_language({"LANG": "xx_YY"}) is None  # the locale never refuses


@pytest.mark.parametrize("args", [("--lang", "fr", "sessions"), ("--lang", "", "sessions"),
                                  ("--lang", "english", "sessions")])
def test_an_unknown_language_is_a_usage_error(refuse: Refuse, args: tuple[str, ...]) -> None:
    refuse(*args, code=2, says="--lang must be en, da or ar")
