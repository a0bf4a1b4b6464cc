"""What ``score`` shows in Danish and Arabic: the terminal keeps its layout (Arabic names
and words in unmirrored tables), the HTML pages are right-to-left documents in Arabic, the
Markdown export carries the direction, numbers and dates follow the language.

These read the compiled catalogs (scorekeeper/locale/), as every run with ``--lang`` does.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator

import pytest
from conftest import CLI
from rich.cells import cell_len

from scorekeeper import i18n
from scorekeeper.views import pages, stats_report

SARA, MOHAMMED, LAILA = "سارة", "محمد", "ليلى"
BOX = "┃│┏┓┗┛┡┩└┘┳┻╇┴━─"


@pytest.fixture(autouse=True)
def english_again() -> Iterator[None]:
    """Whatever a test activates, the next test starts in English."""
    yield
    i18n.activate("en")


@pytest.fixture
def arabic_night(ok: CLI) -> None:
    """Three players, two of them with Arabic names, three rounds, one knock-out."""
    ok("new", "least-score", "--player", SARA, "--player", "Bo", "--player", MOHAMMED,
       "--limit", "50", "--dealer", "Bo", "--name", "ليلة الجمعة")
    ok("add-round", "--declarer", SARA, f"{SARA}=5", "Bo=12", f"{MOHAMMED}=30")
    ok("add-round", "--declarer", "Bo", f"{SARA}=20", "Bo=3", f"{MOHAMMED}=25")
    ok("add-round", "--declarer", "Bo", f"{SARA}=9", "Bo=2", f"{MOHAMMED}=14")


def separators(line: str) -> list[int]:
    """The screen columns of a table line's vertical rules."""
    columns, at = [], 0
    for character in line:
        if character in "┃│╇┡┩┳┻┏┓┗┛└┘┴":
            columns.append(at)
        at += cell_len(character)
    return columns


def tables(text: str) -> list[list[str]]:
    """Each box-drawn table of the output, as its lines."""
    found: list[list[str]] = []
    current: list[str] = []
    for line in text.splitlines():
        if line.strip() and line.strip()[0] in BOX:
            current.append(line)
        elif current:
            found.append(current)
            current = []
    if current:
        found.append(current)
    return found


@pytest.mark.usefixtures("arabic_night")
def test_show_in_arabic_keeps_every_column_straight_and_the_names_whole(ok: CLI) -> None:
    shown = ok("--lang", "ar", "show").stdout
    for name in (SARA, MOHAMMED, "Bo", "ليلة الجمعة"):
        assert name in shown  # intact: not reversed, not escaped, not cut
    assert "\\u" not in shown  # no bidi mark or other hidden character shown escaped
    assert "اللاعب" in shown and "الترتيب" in shown  # Arabic words, not English
    found = tables(shown)
    assert len(found) == 2  # the standings and the rounds
    for table in found:
        widths = {cell_len(line) for line in table}
        assert len(widths) == 1, table  # every line as wide as the others
        rules = {tuple(separators(line)) for line in table}
        assert len(rules) == 1, table  # the columns line up from the first line to the last
    standings = found[0]
    heading = [cell.strip() for cell in standings[1].strip("┃").split("┃")]
    assert heading[0] == "#"  # not mirrored: place first, as in every language
    rows = [[cell.strip() for cell in line.strip("│").split("│")] for line in standings[3:-1]]
    assert [row[1] for row in rows] == ["Bo", SARA, MOHAMMED]
    assert [row[2] for row in rows] == ["7", "24", "59"]  # 0+7+0, 0+17+7, 25+22+12


@pytest.mark.usefixtures("arabic_night")
def test_show_in_arabic_on_a_phone_stays_within_the_width(ok: CLI,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    shown = ok("--lang", "ar", "show").stdout
    assert all(cell_len(line) <= 40 for line in shown.splitlines()), shown
    assert SARA in shown and MOHAMMED in shown
    assert "المجاميع الجارية" in shown  # the narrow grid's legend, in Arabic


@pytest.mark.usefixtures("arabic_night")
def test_show_in_danish_writes_the_date_the_danish_way(ok: CLI) -> None:
    shown = ok("--lang", "da", "show").stdout
    assert "Stilling" in shown and "Spiller" in shown
    assert re.search(r"Spillet \w+\. \d+\. \w+\.? kl\. \d\d\.\d\d", shown), shown
    assert "Standings" not in shown and "Played" not in shown


@pytest.mark.usefixtures("arabic_night")
def test_the_arabic_html_export_is_a_right_to_left_document(ok: CLI) -> None:
    page = ok("--lang", "ar", "export", "--format", "html").stdout
    assert '<html lang="ar" dir="rtl">' in page
    assert f"<bdi>{SARA}</bdi>" in page  # names isolated from the text around them
    assert '<bdi dir="ltr">+7 <span class="run">7</span></bdi>' in page  # +7, never 7+
    assert "text-align:start" in page and "text-align:left" not in page  # mirrors with dir


@pytest.mark.parametrize("language", ["da", "en"])
@pytest.mark.usefixtures("arabic_night")
def test_danish_and_english_pages_are_left_to_right(ok: CLI, language: str) -> None:
    page = ok("--lang", language, "export", "--format", "html").stdout
    assert f'<html lang="{language}">' in page
    assert 'dir="rtl"' not in page


def x_axis(page: str) -> list[tuple[float, str]]:
    """The chart's round numbers: (x, label), in the order they are drawn (0 first)."""
    return [(float(x), label) for x, label in re.findall(
        r'<text x="([0-9.]+)" y="\d+" font-size="15" text-anchor="middle"[^>]*>(\d+)</text>',
        page)]


@pytest.mark.usefixtures("arabic_night")
def test_the_arabic_chart_runs_from_the_right(ok: CLI) -> None:
    arabic = x_axis(ok("--lang", "ar", "export", "--format", "html").stdout)
    english = x_axis(ok("--lang", "en", "export", "--format", "html").stdout)
    assert [label for _, label in arabic] == [label for _, label in english] == \
        ["0", "1", "2", "3"]
    assert [x for x, _ in english] == sorted(x for x, _ in english)  # left to right
    assert [x for x, _ in arabic] == sorted((x for x, _ in arabic), reverse=True)
    assert [round(480 - x, 1) for x, _ in arabic] == [x for x, _ in english]  # mirrored


@pytest.mark.usefixtures("arabic_night")
def test_the_markdown_export_carries_the_direction(ok: CLI) -> None:
    arabic = ok("--lang", "ar", "export", "--format", "md").stdout
    assert arabic.startswith('<div dir="rtl" lang="ar">\n\n# ')
    assert arabic.endswith("\n\n</div>\n")
    assert "## الترتيب" in arabic
    english = ok("--lang", "en", "export", "--format", "md").stdout
    assert "<div" not in english and english.startswith("# ")


@pytest.mark.usefixtures("arabic_night")
def test_the_danish_csv_has_danish_headings_and_numbers_as_numbers(ok: CLI) -> None:
    rows = list(csv.reader(io.StringIO(ok("--lang", "da", "export", "--format", "csv").stdout)))
    assert rows[0][:3] == ["runde", "giver", "declarer"]  # the game's columns: FORMAT.md keys
    assert "Bo point" in rows[0] and "Bo sum" in rows[0]
    assert rows[1][0] == "1"


def test_statistics_write_decimals_as_the_language_does() -> None:
    i18n.activate("da")
    assert stats_report.number(2.5) == "2,50"
    assert stats_report.number(3.0) == "3"
    assert stats_report.percent(0.25) == "25%"
    i18n.activate("en")
    assert stats_report.number(2.5) == "2.50"
    assert stats_report.percent(0.25) == "25 %"


def test_the_served_pages_speak_the_language_and_its_direction() -> None:
    page = pages.Page("t", "<p>x</p>")
    for language, head in (("ar", '<html lang="ar" dir="rtl">'), ("da", '<html lang="da">'),
                           ("en", '<html lang="en">')):
        i18n.activate(language)
        document = pages.document(page, base="/t/", events="events/", nav=[("", "x")])
        assert head in document
        assert f'data-live="{i18n._("Live: updates by itself.")}"' in document
    i18n.activate("da")
    assert "opdaterer af sig selv" in pages.document(page, base="/t/", events="e", nav=[])
    assert "border-inline-start" in pages.STYLE and "border-left" not in pages.STYLE
