"""Each game's own words where they differ (issue 38, item 5): Hearts says the next
deal's passing and no knock-out words; Oh Hell shows no unexplained target; a late
player's starting total says why; in the wide and narrow views, the JSON and the
exports, in English, Danish and Arabic."""

from __future__ import annotations

import pytest
from conftest import CLI, players_args

HEARTS_PASSING = {
    "en": ("three cards to the right", "three cards across", "No passing"),
    "da": ("tre kort til højre", "tre kort over bordet", "Ingen videregivning"),
    "ar": ("ثلاث أوراق إلى اليمين", "ثلاث أوراق إلى المقابل", "لا تمرير"),
}
KNOCK_OUT_WORDS = ("Left before", "Tilbage før", "Status", " in ")


@pytest.mark.parametrize("language", ["en", "da", "ar"])
def test_hearts_says_the_passing_and_no_knock_out_words(ok: CLI, language: str) -> None:
    ok("new", "hearts", *players_args("Ann", "Bob", "Cy", "Dan"), "--dealer", "Ann")
    right, across, hold = HEARTS_PASSING[language]
    ok("add-round", "Ann=13", "Bob=5", "Cy=8", "Dan=0")
    for view in (("show",), ("show", "--compact")):
        shown = ok("--lang", language, *view).stdout
        assert right in shown, shown
        if language == "en":
            assert not any(word in shown for word in KNOCK_OUT_WORDS), shown
    ok("add-round", "Ann=14", "Bob=4", "Cy=8", "Dan=0")
    assert across in ok("--lang", language, "show").stdout
    ok("add-round", "Ann=0", "Bob=13", "Cy=13", "Dan=0")
    assert hold in ok("--lang", language, "show", "--compact").stdout
    notes = ok("show", "--json").json()["notes"]
    assert any("passes" in note or "passing" in note for note in notes), notes
    for kind in ("md", "html", "csv"):
        exported = ok("export", "--format", kind).stdout
        assert "Left before" not in exported, exported


def test_hearts_with_three_players_passes_left_right_hold(ok: CLI) -> None:
    ok("new", "hearts", *players_args("Ann", "Bob", "Cy"), "--dealer", "Ann")
    assert "three cards to the left" in ok("show").stdout
    ok("add-round", "Ann=13", "Bob=5", "Cy=8")
    ok("add-round", "Ann=13", "Bob=5", "Cy=8")
    assert "No passing before the next deal" in ok("show").stdout


def test_oh_hell_shows_the_deal_not_an_unexplained_target(ok: CLI) -> None:
    ok("new", "oh-hell", *players_args("Ann", "Bob", "Cy"), "--dealer", "Ann")
    for view in (("show",), ("show", "--compact")):
        shown = ok(*view).stdout
        assert "(deal 1 of 7)" in shown and "To 98" not in shown, shown


def test_a_late_players_starting_total_says_why(ok: CLI) -> None:
    ok("new", "least-score", *players_args("Ann", "Bob", "Cy"), "--dealer", "Ann")
    assert "Eve joins Least Score #1 at 0, where every player started." in \
        ok("add-player", "Eve").stdout
    ok("add-round", "--declarer", "Ann", "Ann=2", "Bob=9", "Cy=5", "Eve=3")
    assert "Dan joins Least Score #1 at 7, the highest total still in." in \
        ok("add-player", "Dan").stdout
    assert "Fay joins Least Score #1 at 3, as --total said." in \
        ok("add-player", "Fay", "--total", "3").stdout
    danish = ok("--lang", "da", "add-player", "Gus").stdout
    assert "Gus" in danish and "højeste" in danish, danish
