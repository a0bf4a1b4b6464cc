"""The README shows what a person sees (issue 11.16): its worked example is the real
output at an 80-column terminal, and its quick reference fits one phone screen."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from conftest import CLI

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def section(heading: str) -> str:
    return README.split(f"## {heading}\n")[1].split("\n## ")[0]


def fenced(text: str, kind: str) -> str:
    match = re.search(rf"```{kind}\n(.*?)```", text, flags=re.DOTALL)
    assert match is not None
    return match.group(1)


def test_the_quick_reference_fits_a_phone_screen() -> None:
    card = fenced(section("Quick reference"), "text").splitlines()
    assert len(card) <= 20, len(card)
    assert max(len(line) for line in card) <= 40, [line for line in card if len(line) > 40]
    for command in ("score new", "score add-round", "score show", "score undo",
                    "score edit-round"):
        assert command in "\n".join(card)


def test_the_worked_example_is_what_the_terminal_shows(cli: CLI,
                                                       monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    example = fenced(section("A card night, worked through"), "console")
    steps = re.split(r"^\$ score ", example, flags=re.MULTILINE)[1:]
    compared = 0
    for step in steps:
        command, _, shown = step.partition("\n")
        command = command.split("  #")[0]
        args = shlex.split(command)
        asked = re.findall(r"^(\w+)'s hand total or cards: (\S+)$", shown, flags=re.MULTILINE)
        args += [f"{name}={value}" for name, value in asked]  # what was typed at the prompt
        result = cli(*args)
        lines = [line for line in shown.splitlines()
                 if line and line != "..." and not line.startswith("Played ")
                 and "hand total or cards:" not in line]
        printed = [line.rstrip() for line in (result.stdout + result.stderr).splitlines()]
        for line in lines:
            assert line in printed, (command, line, printed)
            compared += 1
    assert compared > 30  # the narrow `show` of the example is shorter than the boxed grid
