"""The terminal at a phone's width (issue 40.7): at 45 columns every help page breaks
lines between words only (no word split, not even at its hyphen) and cuts no command's
summary; a prompt wraps between words; ``score review`` lays out one block per
decision."""

from __future__ import annotations

import re

import pytest
import typer
from conftest import CLI

from scorekeeper.cli import lazy
from scorekeeper.cli.app import app
from scorekeeper.cli.prompts import prompt_lines

WIDTH = 45


def help_page(cli: CLI, monkeypatch: pytest.MonkeyPatch, *args: str) -> str:
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    result = cli(*args, "--help")
    assert result.exit_code == 0, result
    return result.stdout


def words(page: str) -> set[str]:
    """The page's words, a word broken after its hyphen joined again."""
    return set(re.sub(r"(\w-)\n\s*(\w)", r"\1\2", page).split())


def every_command() -> list[list[str]]:
    """``[]`` (score itself), every command, and every subcommand of a group."""
    found: list[list[str]] = [[]]
    root = lazy.root_command(app)
    context = typer.Context(root)
    for name in lazy.LOADERS:
        found.append([name])
        command = root.get_command(context, name)  # type: ignore[attr-defined]
        if hasattr(command, "list_commands"):  # a group: its subcommands too
            found += [[name, sub] for sub in command.list_commands(context)]
    return found


@pytest.mark.parametrize("language", ["en", "da", "ar"])
def test_every_help_page_at_45_columns_breaks_no_word(
        cli: CLI, monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    """Every word at 45 columns is one the page has at full width (none cut in two), in
    every language, for every command and subcommand; and every line fits."""
    monkeypatch.setenv("SCOREKEEPER_LANG", language)
    for command in every_command():
        monkeypatch.setenv("COLUMNS", "200")
        known = words(cli(*command, "--help").stdout)
        page = help_page(cli, monkeypatch, *command)
        broken = words(page) - known
        assert not broken, (command, broken)
        assert all(len(line) <= WIDTH for line in page.splitlines()), (command, page)


@pytest.mark.parametrize("language", ["en", "da", "ar"])
def test_the_list_of_commands_cuts_no_summary(cli: CLI, monkeypatch: pytest.MonkeyPatch,
                                              language: str) -> None:
    monkeypatch.setenv("SCOREKEEPER_LANG", language)
    page = help_page(cli, monkeypatch)
    # the list of commands: the paragraph that lists them (the examples come after it)
    commands = next(part for part in page.split("\n\n")
                    if re.search(r"^  new\s", part, flags=re.MULTILINE))
    assert "..." not in commands and "…" not in commands, commands
    listed = re.findall(r"^  ([a-z-]+)\s", commands, flags=re.MULTILINE)
    assert listed == list(lazy.LOADERS)
    # each summary is a whole sentence: it ends with its full stop
    summaries = re.split(r"^  [a-z-]+ +", commands, flags=re.MULTILINE)[1:]
    for name, summary in zip(listed, summaries, strict=True):
        assert summary.rstrip().endswith((".", ")", "!", "؟")), (name, summary)


@pytest.mark.parametrize("prompt", [
    "Ann, your bid (a number or pass) (? for help): ",
    "Maximiliana Oberholzer, your bid (a number or pass) (? for help): ",
    "Ann, dit bud (et tal eller pas) (? for hjælp): ",
])
def test_a_prompt_wraps_between_words_and_keeps_its_help_mark_whole(prompt: str) -> None:
    before, last = prompt_lines(prompt, WIDTH)
    lines = [*before, last]
    assert " ".join(line.strip() for line in lines) == prompt.strip()
    assert all(not line.rstrip().endswith("(?") for line in lines), lines
    assert all(len(line) <= WIDTH for line in lines)


def test_a_prompt_that_fits_is_one_line() -> None:
    assert prompt_lines("Ann, your move (? for help): ", WIDTH) == (
        [], "Ann, your move (? for help): ")
