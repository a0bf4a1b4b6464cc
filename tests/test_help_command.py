"""``score help [COMMAND]`` is ``score [COMMAND] --help`` (CLI.md, additions 38-41), in
every language; an unknown command is a malformed command line (exit 2)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scorekeeper.cli.lazy import LOADERS

CLI = Any


@pytest.mark.parametrize("language", ["en", "da"])
def test_score_help_is_the_help_option_for_every_command(cli: CLI, language: str) -> None:
    assert len(LOADERS) > 20
    paths = [[], *([name] for name in LOADERS), ["players", "rename"], ["config", "set"]]
    for path in paths:
        shown = cli("--lang", language, "help", *path)
        option = cli("--lang", language, *path, "--help")
        assert shown.exit_code == option.exit_code == 0, (path, shown, option)
        assert shown.stdout == option.stdout and shown.stdout.strip(), path


def test_score_help_of_an_unknown_command_exits_2(cli: CLI) -> None:
    refused = cli("help", "shw")
    assert refused.exit_code == 2
    assert refused.stderr.startswith("error: there is no command 'shw'")
    assert len(refused.stderr.strip().splitlines()) == 1


FILE_NAME = re.compile(r"[\w./-]+\.(?:md|py|txt|pot?)\b|\bdocs/|\bscorekeeper/")
"""A repository file or folder (FORMAT.md, docs/commands.md, scorekeeper/...): the wheel
ships none of them, so a help page must not send the user there."""


@pytest.mark.parametrize("language", ["en", "da", "ar"])
def test_no_help_page_names_a_file_the_user_does_not_have(cli: CLI, language: str) -> None:
    paths = [[], *([name] for name in LOADERS), ["players", "rename"], ["players", "merge"],
             ["players", "undo"], ["config", "path"], ["config", "show"], ["config", "set"],
             ["config", "unset"]]
    named = {}
    for path in paths:
        page = cli("--lang", language, *path, "--help").stdout
        found = FILE_NAME.findall(page)
        if found:
            named[" ".join(path)] = found
    assert named == {}
