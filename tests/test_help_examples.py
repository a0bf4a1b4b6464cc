"""Every ``--help`` page ends with one to three examples, in every language, and every
example is a command line ``score`` takes: parsed by the command itself (an unknown
option, a missing or extra argument fails), and the ones a table uses, run in order
against a fresh store."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI
from test_phone_width_terminal import every_command

from scorekeeper.cli import lazy
from scorekeeper.cli.app import app

HEADING = {"en": "Examples:", "da": "Eksempler:", "ar": "أمثلة:"}


def examples_of(page: str, language: str) -> list[str]:
    """The command lines of the page's last section, which must be its examples (a line
    ending in ``\\`` carried on by the next)."""
    lines = page.rstrip().splitlines()
    headings = [at for at, line in enumerate(lines) if line.strip() == HEADING[language]]
    assert headings, page
    section = lines[headings[-1] + 1:]
    found: list[str] = []
    carried = False
    for line in section:
        text = line.strip()
        if carried:
            found[-1] += " " + text.rstrip("\\").strip()
        elif text.startswith("score "):
            found.append(text.rstrip("\\").strip())
        carried = text.endswith("\\")
    return found


def parse(line: str) -> None:
    """``line`` through ``score``'s own parser, down to the command it names, without
    running it: a malformed line raises (its usage error), ``--help`` ends it cleanly."""
    args = shlex.split(line)
    assert args[0] == "score"
    root = lazy.root_command(app)
    try:
        context = root.make_context("score", args[1:])
        command: Any = root
        while hasattr(command, "resolve_command"):
            rest = [*getattr(context, "_protected_args", []), *context.args]
            if not rest:
                break
            name, command, rest = command.resolve_command(context, rest)
            assert command is not None, line
            context = command.make_context(name, rest, parent=context)
    except Exception as ended:  # Click's Exit, which --help raises, is the only way out
        assert type(ended).__name__ == "Exit" and getattr(ended, "exit_code", 1) == 0, \
            (line, ended)


@pytest.mark.parametrize("language", ["en", "da", "ar"])
def test_every_help_page_ends_with_examples_that_parse(
        cli: CLI, monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    monkeypatch.setenv("SCOREKEEPER_LANG", language)
    for command in every_command():
        result = cli(*command, "--help")
        assert result.exit_code == 0, (command, result)
        found = examples_of(result.stdout, language)
        assert 1 <= len(found) <= 3, (command, result.stdout)
        for line in found:
            parse(line)


def test_a_malformed_example_would_fail() -> None:
    """The parse above refuses what ``score`` refuses (so the test can fail)."""
    for line in ("score show --no-such-option", "score use 3 4", "score players rename ann",
                 "score new hearts -p Ann --target many", "score nosuch"):
        with pytest.raises(AssertionError):
            parse(line)


RUN = ("new", "add-round", "show", "sessions", "use", "log", "edit-round", "add-player",
       "drop-player", "undo", "redo", "export", "import", "players", "players rename",
       "players undo", "rematch", "stats", "abandon", "rules", "games", "config", "config set",
       "config unset", "config path", "config show", "doctor", "help", "delete", "")
"""The commands whose examples run, in this order, against one store: a night at the
table (the virtual deck's, the server's and sync's are parsed only, above)."""


REFUSED = {"score doctor --restore": 1}
"""Examples a healthy store refuses, as it should (exit 1: nothing to restore)."""


def test_the_examples_of_a_night_run(cli: CLI, monkeypatch: pytest.MonkeyPatch,
                                     tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # export -o writes here, import reads here
    for setup in (["new", "points", "-p", "ann", "-p", "Bo", "-p", "Cy"],
                  ["new", "points", "-p", "Ann", "-p", "Bo", "-p", "Cy"]):
        assert cli(*setup).exit_code == 0
    # the files import's examples read: an export of this night, past deals
    (tmp_path / "d.csv").write_text("Ann,Bo,Cy\n3,4,5\n", encoding="utf-8")
    ran = 0
    for path in RUN:
        page = cli(*path.split(), "--help").stdout
        for line in examples_of(page, "en"):
            if line.split()[1:2] == ["import"] and not (tmp_path / "night.json").exists():
                assert cli("export", "1", "-f", "json", "-o", "night.json").exit_code == 0
            result = cli(*shlex.split(line)[1:])
            assert result.exit_code == REFUSED.get(line, 0), (line, result)
            ran += 1
    assert ran >= 40


OWN_GAME = """name = "Kasino"
description = "Kasino as we play it."
wins = "high"
target = 21
min_players = 2
max_players = 4
"""


def test_a_group_games_examples_come_from_its_file(
        cli: CLI, group_games_read_afresh: None) -> None:
    """``score new kasino --help`` (a TOML file of the group's): its examples are
    composed from its own declaration, and they run."""
    import os

    folder = Path(os.environ["SCOREKEEPER_CONFIG"]).parent / "games"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "kasino.toml").write_text(OWN_GAME, encoding="utf-8")
    found = examples_of(cli("new", "kasino", "--help").stdout, "en")
    assert found == ["score new kasino -p Ann -p Bo",
                     "score new kasino -p Ann -p Bo --wins low"]
    for line in found:
        result = cli(*shlex.split(line)[1:])
        assert result.exit_code == 0, (line, result)


@pytest.mark.e2e
def test_a_plug_ins_examples_run(score_run: Any, with_third_game: dict[str, str]) -> None:
    """An installed plug-in game (High Card): its ``score new`` examples, through the
    real ``score``."""
    page = score_run("new", "high-card", "--help", env=with_third_game)
    found = examples_of(page.stdout, "en")
    assert len(found) == 2 and found[0].startswith("score new high-card -p Ann -p Bo"), page
    for line in found:
        result = score_run(*shlex.split(line)[1:], env=with_third_game)
        assert result.exit_code == 0, (line, result)
