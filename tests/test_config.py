"""The group's defaults: `score config`, and `score new` taking them under the command line."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI, Refuse, Result, file_bytes

from scorekeeper import config


@pytest.fixture
def config_file(db_path: Path) -> Path:
    return Path(os.environ["SCOREKEEPER_CONFIG"])


def test_path_follows_the_environment_and_platformdirs(ok: CLI, config_file: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    assert ok("config", "path").stdout.strip() == str(config_file)
    monkeypatch.delenv("SCOREKEEPER_CONFIG")
    assert config.config_path().name == "config.toml"
    assert "scorekeeper" in config.config_path().parts


def test_set_writes_valid_toml_that_show_reads_back(ok: CLI, config_file: Path) -> None:
    assert "No config file yet" in ok("config", "show").stdout
    ok("config", "set", "least-score.limit", "50")
    ok("config", "set", "least-score.two-pairs", "ANY-RANK")
    ok("config", "set", "one-card.target", "40")
    ok("config", "set", "players", "Ann, Bob ,Cy")
    ok("config", "set", "language", "da")
    data = tomllib.loads(config_file.read_text(encoding="utf-8"))
    assert data == {"language": "da", "players": ["Ann", "Bob", "Cy"],
                    "least-score": {"limit": 50, "two_pairs": "any-rank"},
                    "one-card": {"target": 40}}
    shown = ok("config", "show").stdout
    for line in ("least-score.limit = 50", "least-score.two_pairs = any-rank",
                 "players = Ann,Bob,Cy", "language = da", "one-card.target = 40"):
        assert line in shown
    ok("config", "unset", "least-score.limit")
    assert "limit" not in config_file.read_text(encoding="utf-8")


def test_set_refuses_what_the_command_line_refuses(refuse: Refuse, ok: CLI,
                                                   config_file: Path) -> None:
    ok("config", "set", "least-score.limit", "50")
    before = file_bytes(config_file)
    refuse("config", "set", "least-score.limit", "5", says="limit")
    refuse("config", "set", "least-score.trump", "S", says="no house rule 'trump'")
    refuse("config", "set", "poker.limit", "5", says="there is no setting 'poker.limit'")
    refuse("config", "set", "language", "fr", says="language must be en, da, ar")
    refuse("config", "set", "players", "Ann,ann", says="same name ignoring case")
    assert file_bytes(config_file) == before


def test_new_takes_the_house_rules_and_players_and_the_command_line_wins(
        ok: CLI, summary: Any) -> None:
    ok("config", "set", "least-score.limit", "50")
    ok("config", "set", "least-score.end", "first-out")
    ok("config", "set", "players", "Ann,Bob,Cy")
    ok("new", "least-score")  # not at a terminal: the usual players
    first = summary()
    assert first["players"] == ["Ann", "Bob", "Cy"]
    assert first["options"]["limit"] == 50 and first["options"]["end"] == "first-out"
    ok("new", "least-score", "--player", "Dan", "--player", "Eve", "--limit", "25")
    second = summary()
    assert second["players"] == ["Dan", "Eve"]
    assert second["options"]["limit"] == 25 and second["options"]["end"] == "first-out"
    ok("new", "one-card")  # the other game keeps its own defaults
    assert summary()["options"] == {"joker": "joker", "target": 30}


@pytest.mark.parametrize("text", ["limit = [", "[least-score]\nlimit = 5\n", "colour = 'red'\n",
                                  "players = 'Ann'\n", "\xff\xfe"])
def test_a_broken_file_is_reported_in_one_line_and_ignored(cli: CLI, config_file: Path,
                                                           text: str, summary: Any) -> None:
    config_file.parent.mkdir(parents=True, exist_ok=True)
    config_file.write_bytes(text.encode("latin-1"))
    result: Result = cli("new", "least-score", "--player", "Ann", "--player", "Bob")
    assert result.exit_code == 0
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("warning: ")
    assert str(config_file) in lines[0] and "ignored for this run" in lines[0]
    assert summary()["options"]["limit"] == 100
    shown = cli("config", "show")
    assert shown.exit_code == 1 and str(config_file) in shown.stderr


def test_without_players_nor_a_terminal_new_says_how(refuse: Refuse) -> None:
    refuse("new", "least-score", code=2, says="--player NAME")


def test_the_language_comes_after_lang_and_the_variable_before_the_locale(
        ok: CLI, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "SCOREKEEPER_LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "ar_EG.UTF-8")
    rules = ("rules", "least-score", "--json")
    assert ok(*rules).json()["language"] == "ar"
    ok("config", "set", "language", "da")
    assert ok(*rules).json()["language"] == "da"
    assert ok("--lang", "en", *rules).json()["language"] == "en"
    monkeypatch.setenv("SCOREKEEPER_LANG", "ar")
    assert ok(*rules).json()["language"] == "ar"
