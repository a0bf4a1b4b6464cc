"""User text is data (issue 9, points 2 and 3): names, session names and anything read
from a file are printed and exported as plain text, never as markup or terminal control,
and exports are safe in the program that opens them."""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI, ESCAPE, Refuse, file_bytes, players_args

from scorekeeper import match
from scorekeeper.text import show_controls
from scorekeeper.views.export import csv_cell, md

TITLE_AND_CLEAR = "\x1b]0;pwned\x07\x1b[2J"
"""Sets the terminal window's title, then clears the screen."""


def assert_clean(result: Any, *args: Any) -> None:
    """Exit 0, no traceback, no control character anywhere in what was printed."""
    assert result.exit_code == 0, (args, result)
    assert "Traceback" not in result.output, (args, result.output)
    assert ESCAPE not in result.output and "\x07" not in result.output, (args, result.output)


# --------------------------------------------------------------------------- markup


def test_a_name_that_looks_like_markup_is_printed_as_typed(ok: CLI) -> None:
    """Today `[/x]` crashes `new` after writing, and `sessions` then crashes forever."""
    created = ok("new", "least-score", *players_args("[/x]", "[bold red]Ann"),
                 "--name", "[link=https://example.com]click[/link]", "--dealer", "[/x]")
    assert "[/x], [bold red]Ann" in created.stdout
    for args in (["sessions"], ["show"], ["log"], ["use", "1"], ["export", "--format", "md"]):
        result = ok(*args)
        assert_clean(result, *args)
    listing = ok("sessions").stdout
    assert "[/x], [bold red]Ann" in listing
    assert "[link=https://example.com]click[/link]" in listing
    assert "[bold red]Ann" in ok("show").stdout
    played = ok("add-round", "--declarer", "[/x]", "[/x]=3", "[bold red]ann=9")
    assert "[/x] +0, [bold red]Ann +6" in played.stdout
    assert ok("doctor").exit_code == 0


@pytest.mark.e2e
def test_markup_in_a_name_never_styles_it_on_a_terminal(score_run: Any) -> None:
    """`[bold red]Ann` must not print a red Ann, even where colours are on."""
    colour = {"FORCE_COLOR": "1", "TTY_COMPATIBLE": "1"}
    assert score_run("new", "least-score", "-p", "[bold red]Ann", "-p", "Bob",
                     env=colour).exit_code == 0
    shown = score_run("sessions", env=colour)
    assert shown.exit_code == 0, shown
    assert "[bold red]Ann" in re.sub(r"\x1b\[[0-9;]*m", "", shown.stdout)
    assert "\x1b[1;31mAnn" not in shown.stdout


def test_a_played_game_with_markup_names_prints_them_as_typed(ok: CLI) -> None:
    result = ok("play", "least-score", "--bot", "random", "--bot", "random", "--seed", "3",
                "--name", "[/x] night")
    assert_clean(result)
    assert "[/x] night" in ok("sessions").stdout


# --------------------------------------------------------------------------- refused names


@pytest.mark.parametrize("name", [
    "Ann\u200b",        # zero-width space: looks exactly like Ann
    "\u202eAnn",        # right-to-left override: reorders what follows
    "A\u2066nn",        # left-to-right isolate
    "Ann\ufeff",        # zero-width no-break space (a BOM)
    "An\u2028n",        # line separator
    "Ann\x1b[2J",       # an escape sequence
])
def test_a_player_name_refuses_invisible_and_control_characters(refuse: Refuse,
                                                                  name: str) -> None:
    result = refuse("new", "least-score", *players_args("Ann", name), "--name", "x",
                    says="player name")
    assert not any(unicodedata.category(ch) in ("Cc", "Cf") for ch in result.stderr[:-1])


def test_names_are_nfc_normalised_so_two_spellings_are_one_player(ok: CLI, refuse: Refuse,
                                                                   summary: Any) -> None:
    composed, decomposed = "Am\u00e9lie", "Ame\u0301lie"
    refuse("new", "least-score", *players_args(composed, decomposed), says="same name")
    refuse("new", "least-score", *players_args("Ann", "\uff21nn"), says="same name")
    ok("new", "least-score", *players_args(decomposed, "Bob"))
    assert summary()["players"] == [composed, "Bob"]
    # Typed either way, it is the same player.
    ok("add-round", "--declarer", decomposed, f"{decomposed}=3", "Bob=9")
    ok("add-round", "--declarer", composed, f"{composed}=2", "Bob=9")


def test_play_normalises_human_names_as_the_session_does() -> None:
    """The seats kept for --resume name the same players as the session."""
    seats = match.make_seats(["Ame\u0301lie "], ["random"])
    session = match.start_game("least-score", seats, 1)
    assert session.players[0] == "Am\u00e9lie"
    assert session.extra["seats"][0]["name"] == session.players[0]


@pytest.mark.parametrize("name", [TITLE_AND_CLEAR + "Friday", "Fri\nday", "Fri\u202eday",
                                  "Fri\u200bday", "x" * 201])
def test_a_session_name_refuses_control_characters(refuse: Refuse, name: str) -> None:
    """Today a session name with ESC]0;...BEL ESC[2J is stored, and every `show`,
    `sessions`, `log` and `use` then sets the window title and clears the screen."""
    refuse("new", "least-score", *players_args("Ann", "Bob"), "--name", name,
           says="session name")


def test_play_refuses_a_session_name_with_control_characters(refuse: Refuse) -> None:
    refuse("play", "least-score", "--bot", "random", "--bot", "random", "--seed", "1",
           "--name", TITLE_AND_CLEAR, says="session name")


# --------------------------------------------------------------------------- a hostile store


def hostile_store(ok: CLI, db_path: Path) -> None:
    """A store as an older scorekeeper (or a hand edit) may have left it: a session name,
    a start time, history entries and a player name that hold escape sequences,
    zero-width and bidi characters, and markup."""
    ok("new", "least-score", *players_args("Ann", "Bob"), "--dealer", "Ann", "--limit", "25")
    ok("add-round", "--declarer", "Ann", "Ann=3", "Bob=9")
    text = db_path.read_text(encoding="utf-8")
    evil_player = "B\\u001b]0;pwned\\u0007o\\u202eb"  # JSON escapes: ESC, BEL, RLO
    text = text.replace('"Bob"', f'"{evil_player}"')
    data = json.loads(text)
    document = data["sessions"]["1"]
    document["name"] = TITLE_AND_CLEAR + "[/x] Friday\u200b"
    document["created"] = "2026\x1b[2J"
    document["history"].append({"time": "\x1b[31mnow", "change": "new\x07",
                                "detail": "[bold]hi\x1b]0;x\x07\nsecond line"})
    db_path.write_text(json.dumps(data), encoding="utf-8")


SHOWING = [["sessions"], ["show"], ["show", "1"], ["log"], ["log", "1"],
           ["export", "--format", "md"], ["export", "--format", "csv"],
           ["export", "--format", "html"], ["export", "--format", "json"],
           ["rules", "least-score"], ["doctor"]]


def test_hostile_text_in_the_store_is_shown_escaped_everywhere(ok: CLI, cli: CLI,
                                                               db_path: Path) -> None:
    hostile_store(ok, db_path)
    before = file_bytes(db_path)
    for args in SHOWING:
        result = cli(*args)
        assert_clean(result, *args)
        assert "\u202e" not in result.output and "\u200b" not in result.output, args
    assert file_bytes(db_path) == before
    shown = cli("show").stdout
    assert "\\x1b]0;pwned\\x07" in shown and "[/x] Friday\\u200b" in shown
    log = cli("log").stdout
    assert "[bold]hi\\x1b]0;x\\x07\\nsecond line" in log
    assert "B\\x1b]0;pwned\\x07o\\u202eb" in cli("sessions").stdout
    used = cli("use", "1")
    assert_clean(used)
    assert "is now the current session" in used.stdout


def finished_hostile_store(ok: CLI, db_path: Path) -> None:
    """A finished night whose player names were edited by hand to hold escape sequences."""
    ok("new", "least-score", *players_args("Ann", "Bob"), "--dealer", "Ann", "--limit", "25")
    ok("add-round", "--declarer", "Ann", "Ann=3", "Bob=30")  # Bob out: Ann wins
    text = db_path.read_text(encoding="utf-8")
    text = text.replace('"Bob"', '"B\\u001b[31mo\\u001b]0;pwned\\u0007b"')
    text = text.replace('"Ann"', '"[bold]An\\u001b[2Jn"')
    db_path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize("args", [["players"], ["players", "--json"], ["stats"],
                                  ["stats", "--json"], ["stats", "--format", "md"],
                                  ["stats", "--format", "html"], ["stats", "--vs"],
                                  ["sessions"], ["show"]])
def test_hostile_names_in_players_and_stats_are_shown_escaped(ok: CLI, cli: CLI,
                                                              db_path: Path,
                                                              args: list[str]) -> None:
    finished_hostile_store(ok, db_path)
    before = file_bytes(db_path)
    result = cli(*args)
    assert_clean(result, *args)
    assert "\\x1b" in result.output or "\\u001b" in result.output, result.output
    assert file_bytes(db_path) == before


def test_hostile_text_in_the_store_never_reaches_stderr(ok: CLI, refuse: Refuse,
                                                        db_path: Path) -> None:
    hostile_store(ok, db_path)
    result = refuse("add-round", "--declarer", "Nobody", "Ann=3", "Bob=2",
                    says="no declarer called")
    assert "\u202e" not in result.stderr
    result = refuse("add-round", "--declarer", "Ann", "Ann=3", says="missing")
    assert "\\x1b]0;pwned\\x07" in result.stderr


@pytest.mark.e2e
def test_hostile_text_through_the_real_score(score_run: Any, db_path: Path) -> None:
    """The installed `score`, its stdout and stderr as bytes a terminal would get."""
    assert score_run("new", "least-score", "-p", "Ann", "-p", "Bob").exit_code == 0
    data = json.loads(db_path.read_text(encoding="utf-8"))
    data["sessions"]["1"]["name"] = TITLE_AND_CLEAR
    db_path.write_text(json.dumps(data), encoding="utf-8")
    for args in (["sessions"], ["show"], ["log"], ["use", "1"], ["export"]):
        result = score_run(*args)
        assert_clean(result, *args)
        assert "pwned" in result.stdout, args
    assert "\\x1b]0;pwned\\x07\\x1b[2J" in score_run("show").stdout


# --------------------------------------------------------------------------- import


def exported(ok: CLI) -> dict[str, Any]:
    ok("new", "least-score", *players_args("Ann", "Bob"), "--dealer", "Ann")
    ok("add-round", "--declarer", "Ann", "Ann=3", "Bob=9")
    data: dict[str, Any] = json.loads(ok("export", "--format", "json").stdout)
    return data


@pytest.mark.parametrize("change", [
    {"name": TITLE_AND_CLEAR},
    {"name": "Fri\u202eday"},
    {"name": "Friday\ud800"},
])
def test_import_refuses_control_characters_in_a_file(ok: CLI, refuse: Refuse,
                                                     tmp_path: Path, change: dict[str, str]
                                                     ) -> None:
    data = exported(ok)
    data.update(change)
    path = tmp_path / "evil.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = refuse("import", path)
    assert "\u202e" not in result.stderr


def test_import_refuses_a_renamed_player_with_control_characters(ok: CLI, refuse: Refuse,
                                                                 tmp_path: Path) -> None:
    text = json.dumps(exported(ok)).replace('"Bob"', '"B\\u001b[2Job"')
    path = tmp_path / "evil.json"
    path.write_text(text, encoding="utf-8")
    refuse("import", path, says="player name")


def test_import_prints_markup_in_a_file_and_its_path_as_is(ok: CLI, tmp_path: Path) -> None:
    text = json.dumps(exported(ok)).replace('"Bob"', '"[/x]"')
    path = tmp_path / "[bold]night[x].json"
    path.write_text(text, encoding="utf-8")
    result = ok("import", path)
    assert_clean(result)
    assert "[bold]night[x].json" in result.stdout
    assert "[/x]" in ok("show").stdout


# --------------------------------------------------------------------------- exports


def markdown_columns(line: str) -> int:
    """How many columns a Markdown table row has (a backslash-escaped | is text)."""
    return len(re.findall(r"(?<!\\)\|", line)) - 1


def test_markdown_keeps_its_columns_and_shows_names_as_text(ok: CLI) -> None:
    players = ("A|B", "C\\|D", "<b>E</b>", "*F*")
    ok("new", "least-score", *players_args(*players), "--name", "**G** | [x](javascript:1)",
       "--dealer", "A|B")
    ok("add-round", "--declarer", "A|B", "a|b=3", "c\\|d=9", "<b>e</b>=8", "*f*=7")
    text = ok("export", "--format", "md").stdout
    tables = [line for line in text.splitlines() if line.startswith("|")]
    assert len(tables) == 2 + 4 + 2 + 1
    standings, rounds = tables[:6], tables[6:]
    assert {markdown_columns(line) for line in standings} == {5}
    assert {markdown_columns(line) for line in rounds} == {3 + len(players)}
    assert "<b>" not in text and "&lt;b&gt;E&lt;/b&gt;" in text
    assert "\\*F\\*" in text and "A\\|B" in text and "C\\\\\\|D" in text
    assert text.startswith("# \\*\\*G\\*\\* \\| \\[x\\](javascript:1)\n")


def test_markdown_escapes_control_characters_in_stored_text(ok: CLI, db_path: Path) -> None:
    hostile_store(ok, db_path)
    text = ok("export", "--format", "md").stdout
    assert ESCAPE not in text and "\u202e" not in text
    assert "\\\\x1b\\]0;pwned\\\\x07" in text  # rendered: \x1b]0;pwned\x07
    rows = [line for line in text.splitlines() if line.startswith("| 1 |")]
    assert markdown_columns(rows[-1]) == 5


def test_md_escapes_what_markdown_would_act_on() -> None:
    assert md("a|b") == "a\\|b"
    assert md("a\\b") == "a\\\\b"
    assert md("<i>&") == "&lt;i&gt;&amp;"
    assert md("[x](y) `z` _u_ ~~s~~ #") == "\\[x\\](y) \\`z\\` \\_u\\_ \\~\\~s\\~\\~ \\#"
    assert md("Ann\x1b[2J") == "Ann\\\\x1b\\[2J"
    assert md("Mary-Jane O.") == "Mary-Jane O."


@pytest.mark.parametrize("cell, neutral", [
    ("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"),
    ("+1", "'+1"), ("-1", "'-1"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\tx", "'\\tx"), ("\rx", "'\\rx"), ("Ann", "Ann"), ("Bob+", "Bob+"),
    ("A\x1b[2J", "A\\x1b[2J"),
])
def test_csv_cell_neutralises_what_a_spreadsheet_would_run(cell: str, neutral: str) -> None:
    assert csv_cell(cell) == neutral


@pytest.mark.parametrize("number", [-5, 0, 7, 2.5])
def test_csv_cell_keeps_numbers_numbers(number: float) -> None:
    assert csv_cell(number) == number


def test_csv_export_neutralises_formula_names(ok: CLI) -> None:
    ok("new", "least-score", *players_args("+1", "@SUM(A1)", "-Cy", "Dee"), "--dealer", "+1")
    ok("add-round", "--declarer", "Dee", "--", "+1=30", "@sum(a1)=9", "-cy=8", "Dee=2")
    rows = list(csv.reader(io.StringIO(ok("export", "--format", "csv").stdout)))
    assert rows[0][4:7] == ["'+1 hand", "'+1 score", "'+1 total"]
    assert rows[0][7] == "'@SUM(A1) hand" and rows[0][10] == "'-Cy hand"
    assert rows[1][:4] == ["1", "'+1", "Dee", "false"]
    assert rows[1][4:7] == ["30", "28", "28"]  # numbers stay numbers
    for row in rows:
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell


def test_csv_export_escapes_control_characters(ok: CLI, db_path: Path) -> None:
    hostile_store(ok, db_path)
    text = ok("export", "--format", "csv").stdout
    assert ESCAPE not in text and "\u202e" not in text
    assert "B\\x1b]0;pwned\\x07o\\u202eb hand" in text


def test_html_escapes_a_hostile_name_and_title(ok: CLI) -> None:
    ok("new", "least-score", *players_args("<script>alert(1)</script>", "Bob"),
       "--name", "<img src=x onerror=alert(1)>", "--dealer", "Bob")
    ok("add-round", "--declarer", "Bob", "<script>alert(1)</script>=5", "Bob=1")
    page = ok("export", "--format", "html").stdout
    assert "<script>" not in page and "<img" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page


def test_html_escapes_control_characters(ok: CLI, db_path: Path) -> None:
    hostile_store(ok, db_path)
    page = ok("export", "--format", "html").stdout
    assert ESCAPE not in page and "\u202e" not in page and "\x07" not in page


def test_show_controls_escapes_only_what_acts() -> None:
    assert show_controls("Ann Böb 🂡 ٣") == "Ann Böb 🂡 ٣"
    assert show_controls("\x1b]0;x\x07") == "\\x1b]0;x\\x07"
    assert show_controls("a\u200bb\u202ec\ud800\u2028\n\t") \
        == "a\\u200bb\\u202ec\\ud800\\u2028\\n\\t"


class TerminalInput(io.StringIO):
    """Typed answers, on what claims to be a terminal."""

    def isatty(self) -> bool:
        return True


def test_a_prompt_shows_what_was_typed_with_its_control_characters_escaped(
        ok: CLI, refuse: Refuse, monkeypatch: pytest.MonkeyPatch) -> None:
    """What is typed at a question is said back when it is refused (an unknown bidder):
    an escape typed there must not reach the terminal raw."""
    ok("new", "one-card", *players_args("Ann", "Bob"))
    monkeypatch.setattr("sys.stdin", TerminalInput("A\x1b[2Jnn\n8\n"))
    # each answer is checked as it is typed (issue 11.1): the wrong name is said back,
    # escaped, and asked again; then the input ends
    result = refuse("add-round", "Ann=15", "Bob=0", says="the input ended at a question")
    assert "there is no bidder called 'A\\x1b[2Jnn'" in result.stdout
    assert ESCAPE not in result.output


# --------------------------------------------------------------------------- a group's game file


@pytest.fixture
def group_games(group_games_read_afresh: None) -> Path:
    import os
    folder = Path(os.environ["SCOREKEEPER_CONFIG"]).parent / "games"
    folder.mkdir(parents=True)
    return folder


def test_a_game_file_named_with_an_escape_is_warned_about_escaped(cli: CLI,
                                                                  group_games: Path) -> None:
    (group_games / "bad\x1b[31mx.toml").write_text("garbage = \n", encoding="utf-8")
    listed = cli("games")
    assert listed.exit_code == 0, listed
    assert ESCAPE not in listed.output, listed.stderr
    assert "bad\\x1b[31mx.toml:1:" in listed.stderr and "the other games still work" in (
        listed.stderr)


def test_a_game_files_title_is_text_in_every_export(ok: CLI, group_games: Path) -> None:
    (group_games / "kasino.toml").write_text(
        'title = "<b>Kasino</b> *x*"\nplayers = [2, 4]\n', encoding="utf-8")
    ok("new", "kasino", *players_args("Ann", "Bob"), "--dealer", "Ann")
    ok("add-round", "Ann=3", "Bob=4")
    markdown = ok("export", "--format", "md").stdout
    assert "<b>" not in markdown and "\\*x\\*" in markdown and ESCAPE not in markdown
    assert markdown.splitlines()[2].startswith("&lt;b&gt;Kasino&lt;/b&gt; \\*x\\* ·")
    page = ok("export", "--format", "html").stdout
    assert "<b>Kasino" not in page and ESCAPE not in page
    assert ESCAPE not in ok("show").stdout and ESCAPE not in ok("sessions").stdout
