"""The gettext catalogs against the code (issue 15): every message of the code is
translated into Danish and Arabic, no catalog entry is stale or fuzzy, the shipped
``.mo`` files are the compiles of their ``.po`` files, translations keep their
``{placeholders}``, plural entries have every form, and the wheel carries the catalogs.

Every domain is checked alike (issue 29): the generic one (``scorekeeper/locale``) and
each game's own, in its folder (``games/<game>/locale``; the test suite's games in
``tests/<package>/<game>/locale``, in the languages they have, Danish at least).

The messages are extracted from the sources with Babel's API, with the mapping of
babel.cfg (the generic domain) or every ``.py`` of a game's folder, and the keywords of
docs/translating.md (what ``pybabel extract`` does).
"""

from __future__ import annotations

import gettext
import re
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_keywords
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from deadlines import SCALE

try:
    from babel.messages.frontend import parse_mapping_cfg
except ImportError:  # Babel < 2.15
    from babel.messages.frontend import (  # type: ignore[attr-defined,no-redef,unused-ignore]
        parse_mapping as parse_mapping_cfg,
    )

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "scorekeeper" / "locale"
LANGUAGES = ("da", "ar")
KEYWORDS = parse_keywords(["_", "N_", "ngettext:1,2", "pgettext:1c,2"])
"""The keywords of ``pybabel extract`` in docs/translating.md."""

Key = tuple[str | None, str]  # (context, msgid)


@dataclass(frozen=True)
class Domain:
    """One catalog: the generic ``scorekeeper``, or a game's own (named as its folder)."""

    name: str
    sources: Path
    """Where its messages are: the root with babel.cfg's map, or a game's folder."""
    locale: Path
    languages: tuple[str, ...]

    def __str__(self) -> str:
        return self.name

    def po(self, language: str) -> Path:
        return self.locale / language / "LC_MESSAGES" / f"{self.name}.po"


def game_domain(folder: Path, languages: tuple[str, ...] | None = None) -> Domain:
    locale = folder / "locale"
    found = languages or tuple(sorted(
        path.name for path in locale.iterdir()
        if (path / "LC_MESSAGES" / f"{folder.name}.po").is_file()))
    return Domain(folder.name, folder, locale, found)


GENERIC = Domain("scorekeeper", ROOT, LOCALE, LANGUAGES)
BUILT_IN_GAMES = [game_domain(words.parent, LANGUAGES)
                  for words in sorted(ROOT.glob("scorekeeper/games/*/words.py"))]
TEST_GAMES = [game_domain(words.parent) for words in sorted(ROOT.glob("tests/*/*/words.py"))]
DOMAINS = [GENERIC, *BUILT_IN_GAMES, *TEST_GAMES]
EACH = [(domain, language) for domain in DOMAINS for language in domain.languages]


def test_every_game_has_its_domain() -> None:
    """Each built-in game's folder and each test game's is a domain of its own, and the
    test games speak Danish at least."""
    assert [domain.name for domain in BUILT_IN_GAMES] == ["hearts", "least_score", "oh_hell",
                                                          "one_card", "points", "yaniv"]
    assert {domain.name for domain in TEST_GAMES} == {"high_card", "quick_least_score"}
    assert all("da" in domain.languages for domain in TEST_GAMES)


def extract_code(domain: Domain = GENERIC) -> dict[Key, str | None]:
    """Every message the code marks: (context, msgid) -> msgid_plural (None: no plural)."""
    if domain is GENERIC:
        with (ROOT / "babel.cfg").open() as mapping:
            method_map, options_map = parse_mapping_cfg(mapping)
    else:
        method_map, options_map = [("**.py", "python")], {}
    found: dict[Key, str | None] = {}
    for _file, _line, message, _comments, context in extract_from_dir(
            str(domain.sources), method_map, options_map, keywords=KEYWORDS):
        if isinstance(message, tuple):
            found[(context, message[0])] = message[1]
        else:
            found[(context, message)] = None
    return found


def read_catalog(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=language)


def key_of(message: Message) -> Key:
    msgid = message.id if isinstance(message.id, str) else message.id[0]
    context: Any = message.context
    if isinstance(context, bytes):  # Babel before 2.19 reads a .mo's contexts undecoded
        context = context.decode("utf-8")
    return context, msgid


def entries(catalog: Catalog) -> list[Message]:
    return [message for message in catalog if message.id]


def po_path(language: str, domain: str = "scorekeeper") -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{domain}.po"


# --------------------------------------------------------------------------- the checks

PLACEHOLDER = re.compile(r"(?<!\{)\{[^{}]*\}(?!\})")


def placeholders(text: str) -> set[str]:
    """``{name}``, ``{n:d}``, ``{x!r}`` (``{{`` is a literal brace)."""
    return set(PLACEHOLDER.findall(text.replace("{{", "").replace("}}", "")))


def exact_forms(catalog: Catalog) -> set[int]:
    """The plural forms used for exactly one number (Danish n=1; Arabic 0, 1 and 2): there
    a translation may leave out the number ("جولتان", two rounds)."""
    rule = gettext.c2py(catalog.plural_expr)
    numbers: dict[int, int] = {}
    for n in range(1000):
        form = rule(n)
        numbers[form] = numbers.get(form, 0) + 1
    return {form for form, count in numbers.items() if count == 1}


def untranslated(code: Iterable[Key], catalog: Catalog) -> list[Key]:
    """Messages of the code with no (or a fuzzy, or an incomplete plural) translation."""
    missing = []
    for key in code:
        message = catalog.get(key[1], context=key[0])
        strings = () if message is None else (
            message.string if isinstance(message.string, tuple) else (message.string,))
        if message is None or message.fuzzy or not strings or not all(strings):
            missing.append(key)
    return missing


def stale(code: dict[Key, str | None], catalog: Catalog) -> list[Key]:
    """Catalog entries that are not in the code, or are fuzzy, or whose plural differs."""
    found = []
    for message in entries(catalog):
        key = key_of(message)
        plural = message.id[1] if isinstance(message.id, tuple) else None
        if key not in code or code[key] != plural or message.fuzzy:
            found.append(key)
    return found


def placeholder_problems(catalog: Catalog) -> list[str]:
    """A translation that invents a placeholder (``.format`` would crash) or leaves one
    out (except a plural form of exactly one number, which may leave out the number)."""
    problems = []
    exact = exact_forms(catalog)
    for message in entries(catalog):
        if isinstance(message.id, tuple):
            allowed = placeholders(message.id[0]) | placeholders(message.id[1])
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            for index, form in enumerate(forms):
                if not form:
                    continue
                used = placeholders(form)
                if used - allowed or (index not in exact
                                      and placeholders(message.id[1]) - used):
                    problems.append(f"{message.id[0]!r} form {index}: {form!r}")
        elif message.string and placeholders(message.string) != placeholders(message.id):
            problems.append(f"{message.id!r}: {message.string!r}")
    return problems


def plural_problems(catalog: Catalog) -> list[str]:
    """Plural entries without exactly ``nplurals`` non-empty forms."""
    problems = []
    for message in entries(catalog):
        if isinstance(message.id, tuple):
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            if len(forms) != catalog.num_plurals or not all(forms):
                problems.append(f"{message.id[0]!r}: {len(forms)} forms, "
                                f"{catalog.num_plurals} needed")
    return problems


def compiled(catalog: Catalog) -> dict[Key, Any]:
    """What a ``.mo`` of ``catalog`` holds: the translated, non-fuzzy entries."""
    # plural forms: a .po gives them as a tuple, a .mo as a list
    return {key_of(message): tuple(message.string) if isinstance(message.string, list)
            else message.string for message in entries(catalog)
            if not message.fuzzy and message.string
            and (isinstance(message.string, str) or all(message.string))}


# --------------------------------------------------------------------------- the catalogs

_extracted: dict[str, dict[Key, str | None]] = {}


def code_of(domain: Domain) -> dict[Key, str | None]:
    """The domain's messages, extracted once per test process."""
    if domain.name not in _extracted:
        _extracted[domain.name] = extract_code(domain)
    return _extracted[domain.name]


@pytest.mark.parametrize(("domain", "language"), EACH, ids=str)
def test_every_message_of_the_code_is_translated(domain: Domain, language: str) -> None:
    code = code_of(domain)
    assert code, f"no message found in {domain.sources}: is the extraction's mapping right?"
    missing = untranslated(code, read_catalog(domain.po(language), language))
    assert not missing, (f"{len(missing)} messages of {domain} have no {language} "
                         f"translation (docs/translating.md): {missing[:20]}")


@pytest.mark.parametrize(("domain", "language"), EACH, ids=str)
def test_no_catalog_entry_is_stale_or_fuzzy(domain: Domain, language: str) -> None:
    found = stale(code_of(domain), read_catalog(domain.po(language), language))
    assert not found, (f"{domain} {language} entries not in the code (or fuzzy): run "
                       f"pybabel extract and update (docs/translating.md): {found[:20]}")


@pytest.mark.parametrize("domain", DOMAINS, ids=str)
def test_the_template_is_the_code(domain: Domain) -> None:
    template = read_catalog(domain.locale / f"{domain.name}.pot")
    assert {key_of(message) for message in entries(template)} == set(code_of(domain))


def test_a_games_messages_are_in_its_domain_alone() -> None:
    """The generic domain holds no message only a game's folder says."""
    generic = set(code_of(GENERIC))
    template = {key_of(message) for message in entries(read_catalog(LOCALE / "scorekeeper.pot"))}
    for domain in BUILT_IN_GAMES:
        own = set(code_of(domain)) - generic
        assert own, domain
        assert not own & template


TYPER = Domain("messages", ROOT, LOCALE, LANGUAGES)
"""Typer's own words (gettext's default domain)."""


@pytest.mark.parametrize(("domain", "language"),
                         [*EACH, *((TYPER, language) for language in LANGUAGES)], ids=str)
def test_each_mo_is_the_compile_of_its_po(domain: Domain, language: str) -> None:
    source = read_catalog(domain.po(language), language)
    with domain.po(language).with_suffix(".mo").open("rb") as file:
        shipped = read_mo(file)
    assert {key: value for key, value in compiled(shipped).items()} == compiled(source), \
        f"{language}/{domain}.mo is not the compile of its .po: run pybabel compile"


@pytest.mark.parametrize(("domain", "language"),
                         [*EACH, *((TYPER, language) for language in LANGUAGES)], ids=str)
def test_translations_keep_their_placeholders_and_plural_forms(domain: Domain,
                                                               language: str) -> None:
    catalog = read_catalog(domain.po(language), language)
    assert not placeholder_problems(catalog)
    assert not plural_problems(catalog)


def test_the_plural_rules_are_the_languages() -> None:
    danish = read_catalog(po_path("da"), "da")
    arabic = read_catalog(po_path("ar"), "ar")
    assert (danish.num_plurals, arabic.num_plurals) == (2, 6)
    for domain, language in EACH:
        game = read_catalog(domain.po(language), language)
        assert game.plural_expr == (danish if language == "da" else arabic).plural_expr
    rule = gettext.c2py(arabic.plural_expr)
    assert [rule(n) for n in (0, 1, 2, 3, 10, 11, 99, 100, 102, 111)] == \
        [0, 1, 2, 3, 3, 4, 4, 5, 5, 4]
    assert exact_forms(arabic) == {0, 1, 2}
    assert exact_forms(danish) == {0}


@pytest.mark.parametrize("language", LANGUAGES)
def test_typer_words_are_all_translated(language: str) -> None:
    """Typer's own words (gettext's default domain, from the installed Typer's sources:
    docs/translating.md): every entry of the template translated."""
    template = read_catalog(LOCALE / "messages.pot")
    catalog = read_catalog(po_path(language, "messages"), language)
    keys = [key_of(message) for message in entries(template)]
    assert keys and not untranslated(keys, catalog)


# --------------------------------------------------------------------------- the checks fail

def _catalog(language: str, *messages: tuple[Any, Any]) -> Catalog:
    catalog = Catalog(locale=language)
    for msgid, string in messages:
        catalog.add(msgid, string)
    return catalog


def test_the_checks_find_what_they_look_for() -> None:
    code: dict[Key, str | None] = {(None, "Round {number}"): None,
                                   (None, "{n} round"): "{n} rounds"}
    arabic = _catalog("ar", ("Round {number}", "الجولة {nummer}"),
                      (("{n} round", "{n} rounds"), ("لا جولات", "جولة", "جولتان", "{n} جولات",
                                                     "{n} جولة", "")),
                      ("Gone", "ذهب"))
    assert untranslated(code, arabic) == [(None, "{n} round")]  # a form is empty
    assert stale(code, arabic) == [(None, "Gone")]
    assert placeholder_problems(arabic) == ["'Round {number}': 'الجولة {nummer}'"]
    assert plural_problems(arabic) == ["'{n} round': 6 forms, 6 needed"]
    danish = _catalog("da", (("{n} round", "{n} rounds"), ("én runde", "runder")))
    assert placeholder_problems(danish) == ["'{n} round' form 1: 'runder'"]  # not n=1 only
    fuzzy = _catalog("da", ("Round {number}", "Runde {number}"))
    fuzzy.get("Round {number}").flags.add("fuzzy")
    assert untranslated(code, fuzzy)[0] == (None, "Round {number}")
    assert stale({(None, "Round {number}"): None}, fuzzy) == [(None, "Round {number}")]
    assert compiled(fuzzy) == {}


# --------------------------------------------------------------------------- the package

@pytest.mark.slow
@pytest.mark.e2e
def test_a_plain_pip_install_speaks_danish(tmp_path: Path) -> None:
    """`pip install` is enough: a non-editable install (built in isolation, as users get
    it) carries the compiled catalogs, and its `score` speaks Danish from them, and the
    data files of the bots (its One Card expert plays)."""
    target = tmp_path / "installed"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target",
                    str(target), str(ROOT)], check=True, timeout=600 * SCALE, capture_output=True)
    for language in LANGUAGES:
        for domain in ("scorekeeper", "messages"):
            assert (target / "scorekeeper" / "locale" / language / "LC_MESSAGES"
                    / f"{domain}.mo").is_file()
        for game in BUILT_IN_GAMES:
            assert (target / game.locale.relative_to(ROOT) / language / "LC_MESSAGES"
                    / f"{game.name}.mo").is_file()
    # the installed copy, not this checkout (PYTHONPATH comes before the editable install)
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(target), "SCOREKEEPER_LANG": "da",
           "SCOREKEEPER_DB": str(tmp_path / "store.json"), "PYTHONIOENCODING": "utf-8"}
    shown = subprocess.run(
        [sys.executable, "-c", "import scorekeeper, sys; print(scorekeeper.__file__); "
         "sys.argv = ['score', '--help']; from scorekeeper.cli import main; main()"],
        cwd=tmp_path, env=env, capture_output=True, text=True, encoding="utf-8", timeout=60 * SCALE)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith(str(target))
    assert "Brug: score" in shown.stdout and "Tilvalg:" in shown.stdout
    # The sample of deals One Card's expert plays the rest of a game out on goes too.
    assert (target / "scorekeeper" / "games" / "one_card" / "outcomes.json").is_file()
    played = subprocess.run(
        [sys.executable, "-c", "import sys; sys.argv = ['score', 'simulate', 'one-card', "
         "'--bot', 'expert', '--bot', 'greedy', '--bot', 'greedy', '--games', '1', "
         "'--target', '10', '--json']; from scorekeeper.cli import main; main()"],
        cwd=tmp_path, env=env, capture_output=True, text=True, encoding="utf-8",
        timeout=300 * SCALE)
    assert played.returncode == 0, played.stderr
    assert '"games": 1' in played.stdout
