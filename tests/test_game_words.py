"""Each game's own words where they differ (issue 38, item 5): Hearts says the next
deal's passing and no knock-out words; Oh Hell shows no unexplained target; a late
player's starting total says why; in the wide and narrow views, the JSON and the
exports, in English, Danish and Arabic."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import CLI, Refuse, players_args

from scorekeeper.kit.entries import RoundEntry
from scorekeeper.ranking import ranked_players
from scorekeeper.session import Session
from scorekeeper.views import bgstats, pages

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


# ---------------------------------------------------------------------------
# A player who left comes back


def test_a_player_who_left_comes_back_in_their_seat_at_their_total(
        ok: CLI, refuse: Refuse, summary: Any) -> None:
    ok("new", "least-score", *players_args("Ann", "Bob", "Cy"), "--dealer", "Ann")
    ok("add-round", "--declarer", "Ann", "Ann=2", "Bob=9", "Cy=5")
    ok("drop-player", "Bob")
    ok("add-round", "--declarer", "Ann", "Ann=2", "Cy=5")
    refuse("add-player", "Bob", "--total", "30", says="comes back at that total")
    back = ok("add-player", "bob").stdout
    assert "Bob is back in Least Score #1, in their seat, at 7: the total they left with." \
        in back
    refuse("add-player", "Bob", says="already a player")
    ok("add-round", "--declarer", "Ann", "Ann=2", "Bob=4", "Cy=5")
    data = summary()
    assert data["players"] == ["Ann", "Bob", "Cy"]
    assert data["roster"] == [{"after": 1, "leave": "Bob"}, {"after": 2, "back": "Bob"}]
    assert data["totals"] == {"Ann": 0, "Bob": 9, "Cy": 9}
    shown = ok("show").stdout
    assert "Bob left after round 1; Bob came back after round 2" in shown
    assert "Bob kom tilbage" in ok("--lang", "da", "show").stdout
    assert "عاد Bob" in ok("--lang", "ar", "show").stdout
    ok("undo")  # the round
    ok("undo")  # the return: Bob keeps his seat, and has left again
    assert summary()["players"] == ["Ann", "Bob", "Cy"]
    refuse("add-round", "--declarer", "Ann", "Ann=2", "Bob=3", "Cy=5", says="Bob left")
    ok("redo")
    assert summary()["roster"][-1] == {"after": 2, "back": "Bob"}


@pytest.mark.parametrize("game", ["least-score", "yaniv"])
def test_a_knocked_out_player_never_comes_back_and_one_who_left_may(
        ok: CLI, refuse: Refuse, game: str) -> None:
    ok("new", game, *players_args("Ann", "Bob", "Cy", "Dan"), "--dealer", "Ann",
       "--limit", "25")
    ok("add-round", "--declarer", "Ann", "Ann=2", "Bob=30", "Cy=5", "Dan=4")  # Bob 28: out
    refuse("add-player", "Bob", says="a player who is knocked out never comes back")
    refuse("drop-player", "Bob", says="knocked out")
    left_with = ok("show", "--json").json()["totals"]["Cy"]  # 3 in Least Score, 5 in Yaniv
    ok("drop-player", "Cy")
    ok("add-round", "--declarer", "Ann", "Ann=2", "Dan=4")
    assert f"Cy is back in {game.title().replace('-', ' ')} #1, in their seat, at " \
        f"{left_with}: the total they left with." in ok("add-player", "Cy").stdout
    standings = {row["player"]: row for row in ok("show", "--json").json()["standings"]}
    assert standings["Cy"]["status"] == "in" and standings["Cy"]["total"] == left_with
    assert standings["Bob"]["status"] == "knocked out"


def _night_with_a_return(ok: CLI) -> None:
    ok("new", "points", *players_args("Ann", "Bob", "Cy"), "--dealer", "Ann")
    ok("add-round", "Ann=5", "Bob=3", "Cy=1")
    ok("drop-player", "Bob")
    ok("add-player", "Dan", "--total", "4")
    ok("add-round", "Ann=2", "Cy=2", "Dan=6")
    ok("add-player", "Bob")
    ok("drop-player", "Dan")
    ok("add-round", "Ann=1", "Bob=1", "Cy=1")
    ok("add-player", "Dan")  # a late player who left comes back too, after the last deal


@pytest.mark.parametrize("language", ["en", "da", "ar"])
def test_a_night_with_a_return_imports_back_from_json_and_csv(
        ok: CLI, tmp_path: Path, summary: Any, language: str) -> None:
    _night_with_a_return(ok)
    original = summary()
    assert original["roster"] == [
        {"after": 1, "leave": "Bob"}, {"after": 1, "join": "Dan", "total": 4},
        {"after": 2, "back": "Bob"}, {"after": 2, "leave": "Dan"},
        {"after": 3, "back": "Dan"}]
    same = ("players", "roster", "totals", "rounds", "winners", "status", "options")
    exported = tmp_path / "night.json"
    exported.write_text(ok("--lang", language, "export", "--format", "json").stdout)
    ok("--lang", language, "import", str(exported), "--again")
    assert {key: summary()[key] for key in same} == {key: original[key] for key in same}
    sheet = tmp_path / "night.csv"
    sheet.write_text(ok("--lang", language, "export", "1", "--format", "csv").stdout)
    ok("--lang", language, "import", str(sheet), "--game", "points", "--dealer", "Ann",
       "--again")
    imported = summary()
    assert {key: imported[key] for key in same} == {key: original[key] for key in same}


@pytest.mark.e2e
def test_a_player_comes_back_end_to_end(ok: CLI, score_run: Any, tmp_path: Path) -> None:
    def run(*args: str, **env: str) -> Any:
        result = score_run(*args, env=env) if env else score_run(*args)
        assert result.exit_code == 0, result
        return result

    ok("new", "points", *players_args("Ann", "Bob", "Cy"), "--dealer", "Ann")
    run("add-round", "Ann=5", "Bob=3", "Cy=1")
    assert "Bob leaves" in run("drop-player", "Bob").stdout
    refused = score_run("add-round", "Ann=1", "Bob=2", "Cy=3")
    assert refused.exit_code == 1 and "Bob left the game after round 1" in refused.stderr
    completed = score_run(env={"_SCORE_COMPLETE": "complete_bash",
                               "COMP_WORDS": "score add-player B", "COMP_CWORD": "2"})
    assert completed.stdout.split() == ["Bob"], completed
    back = run("add-player", "bob")
    assert "Bob is back in Points #1, in their seat, at 3: the total they left with." \
        in back.stdout
    danish = score_run("add-player", "Bob", env={"SCOREKEEPER_LANG": "da"})
    assert danish.exit_code == 1 and danish.stderr.startswith("error: Bob er allerede")
    run("add-round", "Ann=1", "Bob=2", "Cy=3")
    shown = run("show", "--json").json()
    assert shown["totals"] == {"Ann": 6, "Bob": 5, "Cy": 4}
    assert shown["roster"] == [{"after": 1, "leave": "Bob"}, {"after": 1, "back": "Bob"}]
    sheet = tmp_path / "night.csv"
    sheet.write_text(run("export", "--format", "csv").stdout)
    assert "Bob came back" in sheet.read_text()
    run("import", str(sheet), "--game", "points", "--dealer", "Ann", "--again")
    again = run("show", "--json").json()
    assert again["totals"] == shown["totals"] and again["roster"] == shown["roster"]


# ---------------------------------------------------------------------------
# Hearts' passing in every export


@pytest.mark.parametrize("language", ["en", "da", "ar"])
def test_hearts_passing_is_in_every_export(ok: CLI, language: str, tmp_path: Path) -> None:
    ok("new", "hearts", *players_args("Ann", "Bob", "Cy", "Dan"), "--dealer", "Ann")
    ok("add-round", "Ann=13", "Bob=5", "Cy=8", "Dan=0")
    right, across, _hold = HEARTS_PASSING[language]
    for kind in ("md", "html"):
        assert right in ok("--lang", language, "export", "--format", kind).stdout
    ok("add-round", "Ann=13", "Bob=5", "Cy=8", "Dan=0")
    for kind in ("md", "html"):
        exported = ok("--lang", language, "export", "--format", kind).stdout
        assert across in exported and right not in exported, exported
    ok("add-round", "Ann=13", "Bob=5", "Cy=8", "Dan=0")
    rows = ok("--lang", language, "export", "--format", "csv").stdout.splitlines()
    column = rows[0].split(",").index("pass_direction")
    assert [row.split(",")[column] for row in rows[1:]] == ["left", "right", "across"]
    sheet = tmp_path / "hearts.csv"  # the column is shown, and read back as derived
    sheet.write_text("\n".join(rows) + "\n")
    ok("--lang", language, "import", str(sheet), "--game", "hearts", "--dealer", "Ann",
       "--again")
    assert "pass_direction" not in ok("export", "--format", "json").json()["rounds"][0]


def test_hearts_passing_follows_the_players_in_each_deal(ok: CLI) -> None:
    ok("new", "hearts", *players_args("Ann", "Bob", "Cy", "Dan"), "--dealer", "Ann")
    ok("add-round", "Ann=13", "Bob=5", "Cy=8", "Dan=0")  # deal 1 of 4: left
    ok("drop-player", "Dan")
    ok("add-round", "Ann=13", "Bob=5", "Cy=8")  # deal 2 of 3: right
    ok("add-round", "Ann=13", "Bob=5", "Cy=8")  # deal 3 of 3: hold
    rows = ok("export", "--format", "csv").stdout.splitlines()
    column = rows[0].split(",").index("pass_direction")
    assert [row.split(",")[column] for row in rows[1:]] == ["left", "right", "hold"]


# ---------------------------------------------------------------------------
# No knock-out words for a game without knock-outs; lowest wins per session


@pytest.mark.parametrize("language", ["en", "da", "ar"])
def test_points_where_lowest_wins_speaks_of_no_knock_out(ok: CLI, language: str) -> None:
    ok("new", "points", *players_args("Ann", "Bob"), "--dealer", "Ann", "--wins", "low",
       "--target", "50")
    ok("add-round", "Ann=10", "Bob=5")
    words = {"en": ("Left before", "limit", " in "), "da": ("Tilbage før", "grænse"),
             "ar": ("المتبقي قبل",)}[language]
    for view in (("show",), ("show", "--compact"), ("export", "--format", "md"),
                 ("export", "--format", "html")):
        shown = ok("--lang", language, *view).stdout.split("</style>")[-1]  # not the CSS
        assert not any(word in shown for word in words), (view, shown)
    standings = ok("show", "--json").json()["standings"]
    assert [row["player"] for row in standings] == ["Bob", "Ann"]
    assert [row["margin"] for row in standings] == [45, 40]
    assert "To 50" in ok("show").stdout


def test_lowest_wins_is_read_per_session() -> None:
    """A Points session with --wins low beside one with high: the leader, the places,
    the served page's order and the Board Game Stats export each read their own."""
    made = {}
    for wins in ("low", "high"):
        session = Session.new("points", ["Ann", "Bob"], dealer="Ann", options={"wins": wins})
        made[wins] = session.add_round(RoundEntry((("Ann", "10"), ("Bob", "5"))))
    assert made["low"].lowest_wins and not made["high"].lowest_wins
    assert made["low"].leader() == ["Bob"] and made["high"].leader() == ["Ann"]
    assert ranked_players(made["low"]) == [(1, "Bob"), (2, "Ann")]
    assert ranked_players(made["high"]) == [(1, "Ann"), (2, "Bob")]
    for wins, first, second in (("low", "Bob", "Ann"), ("high", "Ann", "Bob")):
        page = pages.render_session(made[wins]).body
        assert page.index(f"<td>{first}</td>") < page.index(f"<td>{second}</td>"), page
        assert ">in<" not in page and "Left before" not in page and "To 100" in page, page
    tied = {wins: Session.new("points", ["Ann", "Bob"], options={"wins": wins}).add_round(
        RoundEntry((("Ann", "5"), ("Bob", "5")))) for wins in ("low", "high")}
    assert bgstats.lowest_wins(tied["low"]) and not bgstats.lowest_wins(tied["high"])
