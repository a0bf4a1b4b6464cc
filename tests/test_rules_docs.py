"""The project's own documents: the rules texts in three languages, `score --lang`,
`score rules --json`, the links of README.md and docs/, and the package data."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI, Refuse, Result, assert_one_line_error

from scorekeeper.cli.context import UsageProblem
from scorekeeper.cli.language import locale_language, parse_language, resolve_language
from scorekeeper.kit.options import Language, read_rules_text
from scorekeeper.registry import BUILT_IN, DECLARATIONS, GAMES, ORIGINS

ROOT = Path(__file__).resolve().parent.parent
LOCALE_VARIABLES = ("SCOREKEEPER_LANG", "LC_ALL", "LC_MESSAGES", "LANG")
ARABIC_LETTER = re.compile(r"[\u0600-\u06FF]")

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


@pytest.fixture
def speak(cli: CLI, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Result]:
    """``speak(env, *args)``: run `score` with exactly these language variables set."""

    def invoke(env: dict[str, str], *args: Any) -> Result:
        for name in LOCALE_VARIABLES:
            monkeypatch.delenv(name, raising=False)
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        return cli(*args)

    return invoke


def language_of(result: Result) -> str:
    assert result.exit_code == 0, result
    language: str = result.json()["language"]
    return language


def test_lang_option_then_variable_then_locale_then_english(speak: Callable[..., Result]
                                                            ) -> None:
    everything = {"SCOREKEEPER_LANG": "ar", "LANG": "da_DK.UTF-8"}
    rules = ("rules", "least-score", "--json")
    assert language_of(speak(everything, "--lang", "en", *rules)) == "en"
    assert language_of(speak(everything, "--lang", "DA", *rules)) == "da"
    assert language_of(speak(everything, *rules)) == "ar"
    assert language_of(speak({"LANG": "da_DK.UTF-8"}, *rules)) == "da"
    assert language_of(speak({"LC_ALL": "ar_EG.UTF-8", "LANG": "da_DK.UTF-8"}, *rules)) == "ar"
    assert language_of(speak({"LANG": "fr_FR.UTF-8"}, *rules)) == "en"
    assert language_of(speak({}, *rules)) == "en"


@pytest.mark.parametrize("args", [("--lang", "fr", "rules", "one-card"),
                                  ("--lang", "", "rules", "one-card"),
                                  ("--lang", "english", "sessions")])
def test_an_unknown_language_is_a_usage_error(refuse: Refuse, args: tuple[str, ...]) -> None:
    refuse(*args, code=2, says="--lang must be en, da or ar")


def test_an_unknown_language_in_the_variable_is_a_usage_error(
        speak: Callable[..., Result]) -> None:
    result = speak({"SCOREKEEPER_LANG": "fr", "LANG": "da_DK.UTF-8"}, "rules", "one-card")
    assert result.exit_code == 2
    assert_one_line_error(result)
    # said in the language the run speaks without the variable: the locale's
    assert "SCOREKEEPER_LANG skal være en, da eller ar, ikke 'fr'" in result.stderr


@pytest.mark.e2e
def test_lang_and_rules_complete_at_the_shell(score_run: Callable[..., Result]) -> None:
    def complete(*words: str) -> list[str]:
        result = score_run(env={"_SCORE_COMPLETE": "complete_bash",
                                "COMP_WORDS": " ".join(("score", *words)),
                                "COMP_CWORD": str(len(words))})
        assert result.exit_code == 0, result
        return result.stdout.split()

    assert complete("--lang", "") == ["en", "da", "ar"]
    assert complete("--lang", "d") == ["da"]
    assert complete("--lang", "da", "rules", "") == ["hearts", "least-score", "oh-hell",
                                                     "one-card", "points", "yaniv"]
    score_run("new", "one-card", "--player", "Ann", "--player", "Bob")
    assert complete("rules", "one-card", "--session", "") == ["1"]


# --------------------------------------------------------------------------- the rules texts

# Words that only a text written in that language for that game has.
DISTINCTIVE = {
    ("least-score", "en"): ("False declaration", "dead pile", "House rule `--end`"),
    ("least-score", "da"): ("Falsk erklæring", "kasserer", "den døde bunke",
                            "Husregel `--end`", "slået ud"),
    ("least-score", "ar"): ("إعلان خاطئ", "الأرضية", "القاعدة الخاصة `--end`"),
    ("points", "en"): ("House rule `--sum`", "negatives allowed", "the lowest total wins"),
    ("points", "da"): ("Husregel `--sum`", "negative tal er tilladt", "siddeorden"),
    ("points", "ar"): ("القاعدة الخاصة `--sum`", "والسالبة مسموحة", "ترتيب الجلوس"),
    ("hearts", "en"): ("Shooting the moon", "pagat.com/reverse/hearts.html", "Omnibus"),
    ("hearts", "da"): ("At skyde månen", "ruder knægt", "Husregel `--moon-rule`"),
    ("hearts", "ar"): ("إطلاق القمر", "ولد الديناري", "القاعدة الخاصة `--moon-rule`"),
    ("oh-hell", "en"): ("The hook", "pagat.com/exact/ohhell.html", "House rule `--hook`"),
    ("oh-hell", "da"): ("Krogen", "melder", "Husregel `--hook`"),
    ("oh-hell", "ar"): ("الخطّاف", "الأكلات", "القاعدة الخاصة `--hook`"),
    ("one-card", "en"): ("the One Card", "follow the suit led", "House rule `--joker`"),
    ("one-card", "da"): ("melder pas", "bekende kulør", "trumf", "stik",
                         "Husregel `--joker`"),
    ("one-card", "ar"): ("الطرنيب", "الأكلة", "باس", "القاعدة الخاصة `--joker`"),
}


def flowing(text: str) -> str:
    """The text with its line breaks as spaces (the rules texts are wrapped)."""
    return " ".join(text.split())


def package_text(game: str, language: str) -> str:
    return read_rules_text(GAMES[game].rules_folder, Language(language))


@pytest.mark.parametrize(("game", "language"), sorted(DISTINCTIVE))
def test_score_rules_prints_the_package_text_in_each_language(ok: CLI, game: str,
                                                               language: str) -> None:
    text = ok("--lang", language, "rules", game).stdout
    assert text.startswith(package_text(game, language).rstrip() + "\n\n## ")
    for words in DISTINCTIVE[game, language]:
        assert words in flowing(text), words
    arabic_letters = len(ARABIC_LETTER.findall(text))
    assert arabic_letters > 1000 if language == "ar" else arabic_letters == 0


def card_spans(text: str) -> list[str]:
    """The code spans that are cards (`10H`, `KS KH KD KC`), in order."""
    card = r"(?:10|[2-9AKQJ])[SHDC]|JK"
    return [span for span in re.findall(r"`([^`]+)`", text)
            if re.fullmatch(rf"(?:{card})(?: (?:{card}))*", span)]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_language_keeps_the_card_notation_and_describes_every_house_rule(
        game: str) -> None:
    table = GAMES[game]
    english = package_text(game, "en")
    assert card_spans(english)
    for language in Language:
        text = package_text(game, language)
        assert card_spans(text) == card_spans(english), language
        for key, value in table.default_options().items():
            option = "--" + key.replace("_", "-")
            assert re.search(rf"`{option}`\*\* \([^)]* `{value}`\)", text), (language, key)


LEAST_IN_WORDS = {
    "en": ("## House rules of this session", [
        "- `--limit 25`: a player whose total goes over 25 is knocked out",
        "- `--tie declarer-loses`: a tie (D = L) is a false declaration: 20 for the declarer",
        "- `--end first-out`: the game ends at the first knock-out; the lowest total wins",
        "- `--two-pairs any-rank`: two pairs of any ranks (K K 5 5) may go as one discard"]),
    "da": ("## Husregler i denne session", [
        "- `--limit 25`: en spiller, hvis samlede point kommer over 25, er slået ud",
        "- `--tie declarer-loses`: uafgjort (D = L) er en falsk erklæring: 20 til erklæreren",
        "- `--end first-out`: spillet slutter, når den første er slået ud; den laveste "
        "samlede score vinder",
        "- `--two-pairs any-rank`: to par af forskellig værdi (K K 5 5) må kastes samlet"]),
    "ar": ("## القواعد الخاصة بهذه الجلسة", [
        "- `--limit 25`: يُقصى اللاعب الذي يتجاوز مجموعه 25",
        "- `--tie declarer-loses`: التعادل (D = L) إعلان خاطئ: 20 للمُعلِن",
        "- `--end first-out`: تنتهي اللعبة عند أول إقصاء، ويفوز صاحب أقل مجموع",
        "- `--two-pairs any-rank`: يجوز التخلص من زوجين من أي رتبتين (K K 5 5) دفعة واحدة"]),
}


@pytest.mark.parametrize("language", sorted(LEAST_IN_WORDS))
def test_the_house_rules_block_shows_the_session_in_words(least, ok: CLI,
                                                          language: str) -> None:
    least("Ann", "Bob", extra=("--limit", "25", "--tie", "declarer-loses", "--end",
                               "first-out", "--two-pairs", "any-rank"))
    text = ok("--lang", language, "rules", "least-score").stdout
    heading, lines = LEAST_IN_WORDS[language]
    assert text.endswith(f"\n\n{heading}\n\n" + "\n".join(lines) + "\n")


@pytest.mark.parametrize(("language", "heading"), [
    ("en", "## House rules (defaults)"), ("da", "## Husregler (standard)"),
    ("ar", "## القواعد الخاصة (الافتراضية)")])
def test_without_a_session_of_the_game_the_defaults_are_shown(one_card, ok: CLI,
                                                              language: str,
                                                              heading: str) -> None:
    text = ok("--lang", language, "rules", "least-score").stdout
    assert f"\n\n{heading}\n\n- `--limit 100`: " in text
    one_card("Ann", "Bob")  # the current session, but of the other game
    assert f"\n\n{heading}\n\n- `--limit 100`: " in ok("--lang", language, "rules",
                                                          "least-score").stdout


def test_rules_json(one_card, ok: CLI, summary: Callable[..., dict[str, Any]]) -> None:
    data = ok("rules", "one-card", "--json").json()
    assert data == {
        "game": "one-card", "title": "One Card", "language": "en", "session": None,
        "options": {"joker": "joker", "target": 30},
        "house_rules": [
            {"key": "joker", "option": "--joker", "value": "joker", "default": "joker",
             "description": "the joker (JK) is the joker"},
            {"key": "target", "option": "--target", "value": 30, "default": 30,
             "description": "the game ends after the deal in which someone reaches 30"}],
        "text": package_text("one-card", "en"),
    }
    one_card("Ann", "Bob", extra=("--joker", "two-of-diamonds", "--target", "50"))
    data = ok("--lang", "ar", "rules", "one-card", "--json").json()
    assert data["session"] == 1 and data["language"] == "ar"
    assert data["options"] == summary()["options"] == {"joker": "two-of-diamonds",
                                                       "target": 50}
    assert [(r["option"], r["value"], r["default"]) for r in data["house_rules"]] == [
        ("--joker", "two-of-diamonds", "joker"), ("--target", 50, 30)]
    assert all(ARABIC_LETTER.search(r["description"]) for r in data["house_rules"])
    assert data["text"] == package_text("one-card", "ar")


@pytest.mark.e2e
def test_at_a_terminal_the_markdown_is_rendered(score_run) -> None:
    result = score_run("--lang", "da", "rules", "least-score",
                       env={"TTY_COMPATIBLE": "1", "NO_COLOR": "1"})
    assert result.exit_code == 0, result
    assert "Husregler (standard)" in result.stdout and "--limit 100" in result.stdout
    assert "## " not in result.stdout and "**Husregel" not in result.stdout


# --------------------------------------------------------------------------- package data


def test_the_rules_texts_are_declared_as_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["scorekeeper"]
    package = ROOT / "scorekeeper"
    for game in GAMES.values():
        for language in Language:
            path = Path(str(game.rules_folder)) / f"{language.value}.md"
            assert path.is_file(), path
            relative = path.relative_to(package).as_posix()
            assert any(fnmatch(relative, pattern) for pattern in patterns), relative


# --------------------------------------------------------------------------- documents

DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def without_code_blocks(path: Path) -> str:
    return re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)


def local_links(path: Path) -> list[str]:
    """The targets of the Markdown links in ``path`` that are not web addresses."""
    targets = re.findall(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", without_code_blocks(path))
    return [target for target in targets if not re.match(r"[a-z][a-z0-9+.-]*:", target)]


def anchors(path: Path) -> set[str]:
    """The anchors GitHub gives the headings of a Markdown file."""
    headings = re.findall(r"^#+ (.+)$", without_code_blocks(path), flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
            for heading in headings}


def test_the_documents_exist() -> None:
    assert {path.name for path in DOCUMENTS} >= {"README.md", "rules.md", "commands.md",
                                                 "format.md"}


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda path: path.name)
def test_every_local_link_points_to_a_file_in_the_repository(path: Path) -> None:
    links = local_links(path)
    assert links or path.name != "rules.md"
    for target in links:
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        assert linked.exists(), f"{path.name} links to {target}, which does not exist"
        assert linked.is_relative_to(ROOT), f"{path.name} links outside the project: {target}"
        if anchor:
            assert anchor in anchors(linked), f"{path.name} links to {target}: no such heading"
    assert "../shared" not in path.read_text(encoding="utf-8")


def test_the_command_reference_covers_every_command_and_option() -> None:
    """docs/commands.md keeps up with the code: a heading per command, every long option."""
    import typer.main

    from scorekeeper.cli.app import app

    reference = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    reference = reference.split("## Planned, not built yet")[0]  # built means documented
    commands: list[tuple[str, Any]] = [("", typer.main.get_command(app))]
    while commands:
        path, command = commands.pop()
        if path:
            assert re.search(rf"^#+ (.* )?score {re.escape(path)}\b", reference, re.MULTILINE), \
                f"score {path} has no heading in docs/commands.md"
        for parameter in command.params:
            for option in parameter.opts + parameter.secondary_opts:
                if option.startswith("--") and option != "--help":
                    assert option in reference, f"score {path} {option} is not documented"
        for name, sub in getattr(command, "commands", {}).items():
            commands.append((f"{path} {name}".strip(), sub))


def test_the_command_reference_gives_every_games_player_count_from_its_declaration() -> None:
    """``score new``'s table row per game says the game's count of players, as declared,
    and so does docs/rules.md's row; the ``--player`` option names no game (a game added
    later would be left out)."""
    reference = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    built_in = {name: declaration for name, declaration in DECLARATIONS.items()
                if ORIGINS.get(name) == BUILT_IN}
    assert len(built_in) >= 6
    for name, declaration in built_in.items():
        row = re.search(rf"^\| `score new {re.escape(name)} .*$", reference, re.MULTILINE)
        assert row is not None, f"docs/commands.md has no `score new {name}` row"
        table = declaration.table
        assert f"({table.min_players}-{table.max_players} players" in row.group(), row.group()
        assert f"| **{declaration.title}** ({table.min_players}–{table.max_players} players" \
            in rules, f"docs/rules.md has no row for {declaration.title} with its players"
    option = re.search(r"^\| `--player NAME`, `-p` \| A player, in seating order.*$", reference,
                       re.MULTILINE)
    assert option is not None and "`score games`" in option.group()
    assert not re.search(r"\d+ to \d+", option.group()), option.group()
    for declaration in built_in.values():
        assert declaration.title not in option.group(), declaration.title
