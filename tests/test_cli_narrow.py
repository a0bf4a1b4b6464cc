"""The narrow layout of `score show` and `score sessions` (issue 11.6): at 45 columns (a
phone in portrait) the standings and each player's running totals stay readable, with a
short legend, and no cell is broken over two lines; at 80 columns eight players with long
names fit in one grid; at 120 columns a small table keeps the wide grid."""

from __future__ import annotations

import re

import pytest
from conftest import CLI

from scorekeeper.views.compact import short_names

LONG_NAMES = ["Annabelle-Longname", "Bartholomew", "Cyrano-de-Bergerac", "Dorothea",
              "Evangeline", "Fitzgerald", "Guinevere", "Humphrey"]


@pytest.fixture
def columns(monkeypatch: pytest.MonkeyPatch):
    def set_width(width: int) -> None:
        monkeypatch.setenv("COLUMNS", str(width))
    return set_width


def assert_fits(text: str, width: int) -> None:
    too_wide = [line for line in text.splitlines() if len(line) > width]
    assert not too_wide, too_wide


def grid_rows(text: str) -> list[list[str]]:
    """The rows of the narrow grids: a round number, then one cell per column."""
    return [line.split() for line in text.splitlines() if re.match(r"^\s*\d+\s+[\d·-]", line)
            and "Running" not in line]


def four_friends_night(least, ok: CLI) -> None:
    least("Ann", "Bob", "Cy", "Dan", extra=("--limit", "50", "--dealer", "Ann"))
    ok("add-round", "--declarer", "Dan", "Ann=9", "Bob=17", "Cy=12", "Dan=4")
    ok("add-round", "--declarer", "Bob", "Ann=4", "Bob=9", "Cy=10", "Dan=6")  # false
    ok("add-round", "--declarer", "Ann", "Ann=2", "Bob=15", "Cy=8", "Dan=5")  # Bob out


def test_show_at_45_columns_is_the_narrow_layout(least, ok: CLI, columns) -> None:
    four_friends_night(least, ok)
    columns(45)
    shown = ok("show").stdout
    assert_fits(shown, 45)
    assert "┃" not in shown and "│" not in shown  # no boxed grid to break
    assert "Running totals" in shown
    for sign in ("* declared", "! false declaration", "† knocked out"):
        assert sign in shown
    # the running totals per player, one line per round, every cell whole
    assert grid_rows(shown) == [["1", "5", "13", "8", "0*"],
                                ["2", "5", "38!", "8", "0"],
                                ["3", "5*", "51†", "14", "3"]]
    heading = next(line for line in shown.splitlines() if line.split()[:2] == ["#", "Ann"])
    assert heading.split() == ["#", "Ann", "Bob", "Cy", "Dan"]
    # the standings: place, player, total, what is left, status on one line each
    assert re.search(r"^4 Bob\s+51\s+—\s+out in 3\s*$", shown, flags=re.MULTILINE), shown


def test_eight_long_names_at_45_columns_split_the_grid(least, ok: CLI, columns) -> None:
    least(*LONG_NAMES, extra=("--dealer", "Dorothea", "--limit", "500"))
    values = ["Annabelle-Longname=1", *(f"{name}=50" for name in LONG_NAMES[1:])]
    for _ in range(3):  # 147 each but Annabelle: three-digit totals
        ok("add-round", "--declarer", "Annabelle-Longname", *values)
    columns(45)
    shown = ok("show").stdout
    assert_fits(shown, 45)
    rows = grid_rows(shown)
    assert len(rows) == 6  # two grids of three rounds: four players each
    assert all(len(row) == 5 for row in rows), rows
    assert [row[0] for row in rows] == ["1", "2", "3", "1", "2", "3"]
    # every full name is in the standings, each on one line with its total
    for name in LONG_NAMES:
        assert re.search(rf"\b\d \S*\s*{re.escape(name)}\b|\b{re.escape(name)}\s+\d+",
                         shown), name


def test_eight_long_names_at_80_columns_fit_in_one_grid(least, ok: CLI, columns) -> None:
    least(*LONG_NAMES)
    values = [f"{name}={10 + i}" for i, name in enumerate(LONG_NAMES)]
    ok("add-round", "--declarer", "Annabelle-Longname", *values)
    ok("add-round", "--declarer", "Bartholomew", *values)
    columns(80)
    shown = ok("show").stdout
    assert_fits(shown, 80)
    heading = next(line.split() for line in shown.split("Running totals")[1].splitlines()
                   if line.startswith("#"))
    assert len(heading) == 9
    for short, name in zip(heading[1:], LONG_NAMES, strict=True):
        assert name.startswith(short) and len(short) >= 6
    assert [len(row) for row in grid_rows(shown)] == [9, 9]
    standings = shown.split("Running totals")[0]
    for name in LONG_NAMES:
        assert name in standings


def test_a_small_table_keeps_the_wide_grid_at_120_columns(least, ok: CLI, columns) -> None:
    four_friends_night(least, ok)
    columns(120)
    shown = ok("show").stdout
    assert_fits(shown, 120)
    assert "┃ Rnd ┃ Dealer ┃ Declarer" in shown and "Running totals" not in shown


def test_compact_asks_for_the_narrow_layout_at_any_width(least, ok: CLI, columns) -> None:
    four_friends_night(least, ok)
    columns(120)
    shown = ok("show", "--compact").stdout
    assert "Running totals" in shown and "┃" not in shown


def test_one_card_narrow_grid_has_the_bid_column(one_card, ok: CLI, columns) -> None:
    one_card("Ann", "Bob", "Cy")
    ok("add-round", "--bidder", "Bob", "--bid", "9", "Ann=4", "Bob=8", "Cy=3")  # failed
    ok("add-round", "--no-bid", "Ann=5", "Bob=5", "Cy=5")
    ok("add-round", "--bidder", "Cy", "--bid", "7", "Ann=4", "Bob=3", "Cy=8")
    columns(45)
    shown = ok("show").stdout
    assert_fits(shown, 45)
    assert "* bid made" in shown and "! bid failed" in shown
    assert grid_rows(shown) == [["1", "9", "4", "0!", "3"], ["2", "-", "9", "5", "8"],
                                ["3", "7", "13", "8", "16*"]]
    danish = ok("--lang", "da", "show").stdout  # the game's own column heading too
    assert re.search(r"^#\s+Bud\s+Ann\s+Bob\s+Cy$", danish, re.MULTILINE), danish


def test_add_round_at_45_columns_prints_narrow_standings(least, ok: CLI, columns) -> None:
    least("Ann", "Bob", "Cy", extra=("--limit", "10"))
    columns(45)
    result = ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=12", "Cy=2")
    assert_fits(result.stdout, 45)
    assert re.search(r"^3 Bob\s+11\s+—\s+out in 1\s*$", result.stdout, flags=re.MULTILINE)


def test_sessions_at_45_columns_list_each_session_in_short_lines(least, one_card, ok: CLI,
                                                                  columns) -> None:
    least(*LONG_NAMES, extra=("--name", "Friday at Dorothea's"))
    one_card("Ann", "Bob")
    ok("add-round", "--no-bid", "Ann=10", "Bob=5")
    columns(45)
    listed = ok("sessions").stdout
    assert_fits(listed, 45)
    assert "┃" not in listed
    assert re.search(r"^ 1 Friday at Dorothea's", listed, flags=re.MULTILINE)
    assert re.search(r"^\*2 One Card\s*$", listed, flags=re.MULTILINE)
    assert "1 round, in-progress; leads: Ann" in listed
    assert "Least Score, 0 rounds, in-progress" in listed
    for name in LONG_NAMES:  # a name is never broken over two lines
        assert name in listed


def test_sessions_keep_the_wide_table_when_it_fits(least, ok: CLI, columns) -> None:
    least("Ann", "Bob")
    columns(120)
    listed = ok("sessions").stdout
    assert "┃ ID ┃ Name" in listed.replace("  ", " ") or "ID" in listed.splitlines()[1]
    assert_fits(listed, 120)
    assert "Running" not in listed and ok("sessions", "--compact").stdout.startswith("*1 ")


def test_short_names_are_distinct_prefixes_or_seat_numbered() -> None:
    assert short_names(["Ann", "Bob"], 3) == {"Ann": "Ann", "Bob": "Bob"}
    names = ["Player", "Playground", "Plato", "Bo"]
    short = short_names(names, 4)
    assert len({v.casefold() for v in short.values()}) == 4
    assert short["Bo"] == "Bo" and short["Plato"] == "Plat"
    assert short["Player"] == "Pla1" and short["Playground"] == "Pla2"
