"""Every help text of every command is translated: none is left in English in Danish or
Arabic (help composed from the games' declarations included)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import typer
import typer.main

from scorekeeper.cli import conventions
from scorekeeper.cli.app import app
from scorekeeper.cli.language import speak
from scorekeeper.cli.lazy import Command
from scorekeeper.kit.options import Language


def _commands(command: Command, path: str) -> Iterator[tuple[str, Command]]:
    yield path, command
    subcommands = getattr(command, "commands", {})
    for name in list(subcommands):
        yield from _commands(subcommands[name], f"{path} {name}")


def helps(language: Language) -> dict[tuple[str, str], str]:
    """(command, parameter or '') -> its help text, as ``score --lang LANGUAGE`` shows it."""
    speak(language)
    try:
        root = typer.main.get_command(app)
        conventions.localize(root, walk=False)  # as a run does when it starts
        found: dict[tuple[str, str], str] = {}
        for path, command in _commands(root, "score"):
            if command.help:
                found[(path, "")] = command.help
            for parameter in command.params:
                text = getattr(parameter, "help", None)
                if text:
                    found[(path, parameter.name or "")] = text
        return found
    finally:
        speak(Language.ENGLISH)


@pytest.mark.parametrize("language", [Language.DANISH, Language.ARABIC])
def test_no_help_text_is_left_in_english(language: Language) -> None:
    english, translated = helps(Language.ENGLISH), helps(language)
    assert set(english) == set(translated)
    assert len(english) > 100  # every command and option was seen
    untranslated = sorted(key for key, text in english.items() if translated[key] == text)
    assert untranslated == []
