"""Every screen fits a phone (issue 28.4), in the terminal: at 45 columns `score stats`
keeps every figure whole, help pages wrap at spaces, `play`'s legal moves break only
between moves, its prompt keeps its `:` and the resumed deal's heading is whole; at 80
columns `show` keeps one layout for the whole night; at 120 One Card's legend is one
line. What a terminal would show is checked: no line wider than the terminal (a
terminal would wrap it wherever the width falls), nothing cut to `…`."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pexpect
import pytest
from conftest import CLI
from rich.console import Console
from terminal import spawn_score

from scorekeeper import keyboard
from scorekeeper.cli import lazy

LONG = ["Ann", "Bartholomew Quincy", "Cy", "Dorothea", "Maximiliana Oberholzer"]


@pytest.fixture
def columns(monkeypatch: pytest.MonkeyPatch):
    def set_width(width: int) -> None:
        monkeypatch.setenv("COLUMNS", str(width))
    return set_width


def assert_fits(text: str, width: int) -> None:
    too_wide = [line for line in text.splitlines() if len(line) > width]
    assert not too_wide, too_wide


def without_escapes(text: str) -> str:
    """What a pty printed, as plain lines: no styles, no cursor codes."""
    return re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", text).replace("\r\n", "\n")


def as_a_terminal_shows(text: str, width: int) -> list[str]:
    """The rows a terminal of ``width`` columns shows: a longer line goes on at the next
    row, wherever the width falls."""
    rows = []
    for line in text.replace("\r\n", "\n").split("\n"):
        rows += [line[i:i + width] for i in range(0, max(len(line), 1), width)]
    return rows


def players(*names: str) -> list[str]:
    return [arg for name in names for arg in ("--player", name)]


# ---------------------------------------------------------------------------
# score stats at 45 columns


def finished_nights(ok: CLI) -> None:
    """Two finished Least Score nights and a finished One Card game, long names."""
    for declarer in ("Cy", "Dorothea"):
        ok("new", "least-score", *players(*LONG), "--limit", "10")
        values = [f"{name}={1 if name == declarer else 20}" for name in LONG]
        ok("add-round", "--declarer", declarer, *values)
    ok("new", "one-card", *players(*LONG[:4]), "--target", "10")
    ok("add-round", "--bidder", "Cy", "--bid", "7", "Ann=2", "Bartholomew Quincy=1",
       "Cy=11", "Dorothea=1")


def test_stats_at_45_columns_keep_every_figure_whole(ok: CLI, columns) -> None:
    finished_nights(ok)
    columns(45)
    shown = ok("stats", "--vs").stdout
    assert_fits(shown, 45)
    assert "…" not in shown
    lines = shown.splitlines()
    for name in LONG:  # each name whole, on a line of its own
        assert name in lines, name
    # each figure with its heading, on one line: "Win %: 33 %" never split
    assert re.search(r"Win %: \d+ %", shown), shown
    assert re.search(r"95 % CI: \d+–\d+", shown), shown
    assert "Games: 3" in shown and "Last 10: " in shown


def test_stats_keep_their_tables_when_they_fit(ok: CLI, columns) -> None:
    finished_nights(ok)
    columns(200)
    shown = ok("stats").stdout
    assert "┃ Player " in shown and "Win %:" not in shown


# ---------------------------------------------------------------------------
# Help pages at 45 columns


def words(text: str) -> list[str]:
    """The words of a help page, a word broken after its hyphen put back together."""
    text = re.sub(r"(\w-)\n\s*(\w)", r"\1\2", text)
    return text.split()


@pytest.mark.parametrize("command", ["", *lazy.LOADERS])
def test_help_at_45_columns_breaks_lines_at_spaces_only(cli: CLI, columns,
                                                        command: str) -> None:
    args = [command, "--help"] if command else ["--help"]
    columns(200)
    wide = cli(*args)
    assert wide.exit_code == 0, wide
    known = set(words(wide.stdout))
    columns(45)
    narrow = cli(*args)
    assert narrow.exit_code == 0, narrow
    assert_fits(narrow.stdout, 45)
    # every word is one the page has at full width: none cut in two (a short command
    # description ends in "..." where it stops, at any width)
    broken = [word for word in words(narrow.stdout)
              if word not in known and not word.endswith("...")]
    assert not broken, (broken, narrow.stdout)


# ---------------------------------------------------------------------------
# score play at 45 columns


def test_legal_moves_break_only_between_moves() -> None:
    line = ("Discard one of: 3H 3S | 4S 5S 6S | 9D 9C | JH QH KH | 2C 2D 2H 2S | 5S 6S 7S | "
            "8C 8D | 10H 10S")
    answers = iter(["?", "done"])
    out = io.StringIO()
    console = Console(file=out, width=45, no_color=True, legacy_windows=False)
    keyboard.read_move(lambda prompt: next(answers), console.print, "Your move", "Help.",
                       lambda: [line, "then take: QD, QC, deck"], lambda text: text)
    shown = out.getvalue()
    assert_fits(shown, 45)
    rows = shown.splitlines()[1:]  # the help first
    moves_rows = rows[:rows.index("then take: QD, QC, deck")]
    assert len(moves_rows) > 1  # it had to wrap
    items = [item.strip() for row in moves_rows
             for item in row.replace("Discard one of:", "").split("|") if item.strip()]
    assert items == line.split(": ")[1].split(" | ")


def start_a_game(score_exe: Path, db_path: Path) -> pexpect.spawn:
    # a 22-letter name: its prompt without the colon is 45 columns, so a terminal of 45
    # would put the colon alone on the next row
    return spawn_score(score_exe, db_path, ["play", "least-score", "--player",
                                            "Maximiliana Oberholzer", "--bot", "greedy",
                                            "--bot", "greedy", "--seed", "3"], columns=45)


@pytest.mark.e2e
def test_play_prompt_and_resumed_heading_fit_45_columns(score_exe: Path,
                                                        db_path: Path) -> None:
    child = start_a_game(score_exe, db_path)
    child.expect(r"\(\? for help\): ")
    shown = str(child.before) + str(child.after)
    child.sendline("?")
    child.expect(r"\(\? for help\): ")
    shown += str(child.before) + str(child.after)
    child.sendcontrol("c")
    child.expect(pexpect.EOF)
    shown = without_escapes(shown + str(child.before))
    rows = as_a_terminal_shows(shown, 45)
    assert not [row for row in rows if row.strip() == ":"], rows
    assert_fits(shown, 45)
    assert "your move" in shown and "Discard one of:" in shown

    resumed = spawn_score(score_exe, db_path, ["play", "--resume", "1"], columns=45)
    resumed.expect(r"\(\? for help\): ")
    heading = without_escapes(str(resumed.before))
    resumed.sendcontrol("c")
    resumed.expect(pexpect.EOF)
    assert "…" not in heading
    flat = " ".join(heading.split())
    assert "Deal 1 — Greedy-2 deals (dealt again: a fresh shuffle)" in flat, heading
    assert_fits(heading, 45)
    # the totals line breaks between players, never inside one's "0 (100 left)"
    assert "Maximiliana Oberholzer 0 (100 left)" in heading, heading


# ---------------------------------------------------------------------------
# score show at 80 columns, through a whole night; One Card's legend at 120


def layout(shown: str) -> str:
    return "wide" if "┃ Rnd ┃ Dealer" in shown else "narrow"


def test_show_at_80_columns_keeps_one_layout_for_the_whole_night(least, ok: CLI,
                                                                 columns) -> None:
    least("Annabel", "Bernhard", "Cyrille", "Dominic", extra=("--limit", "50", "--dealer",
                                                               "Annabel"))
    columns(80)
    seen = []
    for number in range(1, 21):
        standing = {"Annabel": 3, "Bernhard": 9, "Cyrille": 4 + number % 5, "Dominic": 2}
        # a false declaration part-way
        declarer = "Cyrille" if number == 4 else "Dominic"
        result = ok("add-round", "--declarer", declarer,
                    *(f"{name}={value}" for name, value in standing.items()
                      if not knocked_out(ok, name)))
        assert_fits(result.stdout, 80)
        shown = ok("show").stdout
        assert_fits(shown, 80)
        seen.append(layout(shown))
    assert "out" in shown or "†" in shown  # the night had its knock-outs
    assert set(seen) == {seen[0]}, (seen, shown)


def knocked_out(ok: CLI, name: str) -> bool:
    return name in ok("export", "--format", "json").json()["knocked_out"]


def test_show_at_120_columns_keeps_the_wide_grid_for_four_players(least, ok: CLI,
                                                                  columns) -> None:
    least("Ann", "Bob", "Cy", "Dan", extra=("--limit", "50"))
    ok("add-round", "--declarer", "Ann", "Ann=1", "Bob=12", "Cy=3", "Dan=4")
    columns(120)
    assert layout(ok("show").stdout) == "wide"


def test_one_card_legend_is_one_line_at_120_columns(one_card, ok: CLI, columns) -> None:
    one_card("Ann", "Bob")
    ok("add-round", "--bidder", "Bob", "--bid", "9", "Ann=7", "Bob=8")
    columns(120)
    shown = ok("show").stdout
    assert_fits(shown, 120)
    assert layout(shown) == "wide"
    legend = "+score =running total   ✗ the bidder took fewer points than the bid"
    assert any(line.strip() == legend for line in shown.splitlines()), shown


@pytest.mark.parametrize("width", [45, 80, 120])
def test_the_list_of_games_fits_and_cuts_nothing(ok: CLI, columns, width: int) -> None:
    """``score games``: a table where it fits, else each game as a block; every
    description and house rule whole, at every width."""
    columns(width)
    shown = ok("games").stdout
    assert_fits(shown, width)
    assert "…" not in shown
    flat = " ".join(shown.split())
    for option in ("--target 100", "--moon-rule plus", "--two-pairs same-rank"):
        assert option in flat, (option, shown)
    assert "the lowest total wins when someone reaches 100." in flat
