"""The group's defaults: `score config`, and `score new` taking them under the command line."""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI, Refuse, Result, assert_one_line_error, file_bytes
from deadlines import SCALE

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
    for line in ("least-score.limit = 50", "least-score.two-pairs = any-rank",
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


# ---------------------------------------------------------------------------
# The file as the user wrote it: `config set` changes one value and nothing else

HAND_WRITTEN = """\
# Our Friday group.

players = [ "Ann",  "Bob" ]   # seating order

[one-card]   # house rules
target = 40

# Least Score: we play to fifty
[least-score]
end = "first-out"   # the first one out ends it
two-pairs = 'any-rank'
limit = 50   # half the usual
"""


def test_set_and_unset_keep_the_comments_blank_lines_and_order(ok: CLI,
                                                               config_file: Path) -> None:
    config_file.parent.mkdir(parents=True)
    config_file.write_text(HAND_WRITTEN, encoding="utf-8")
    ok("config", "set", "least-score.limit", "60")
    expected = HAND_WRITTEN.replace("limit = 50   #", "limit = 60   #")
    assert config_file.read_text(encoding="utf-8") == expected
    ok("config", "set", "least-score.two-pairs", "same-rank")  # spelt as the file spells it
    expected = expected.replace("two-pairs = 'any-rank'", 'two-pairs = "same-rank"')
    assert config_file.read_text(encoding="utf-8") == expected
    ok("config", "unset", "one-card.target")
    expected = expected.replace("target = 40\n", "")
    assert config_file.read_text(encoding="utf-8") == expected
    ok("config", "set", "language", "da")  # a new key: one line more, the rest as it was
    lines = config_file.read_text(encoding="utf-8").splitlines(keepends=True)
    assert 'language = "da"\n' in lines
    lines.remove('language = "da"\n')
    assert "".join(lines) == expected
    assert config.read(config_file).to_toml() == {
        "language": "da", "players": ["Ann", "Bob"],
        "least-score": {"end": "first-out", "two_pairs": "same-rank", "limit": 60}}


def test_a_setting_the_file_already_holds_writes_nothing(ok: CLI, config_file: Path) -> None:
    config_file.parent.mkdir(parents=True)
    config_file.write_text('language = "DA"  # Danish\n', encoding="utf-8")
    before = config_file.stat()
    ok("config", "set", "language", "da")
    ok("config", "unset", "one-card.target")
    assert config_file.read_text(encoding="utf-8") == 'language = "DA"  # Danish\n'
    assert config_file.stat().st_mtime_ns == before.st_mtime_ns


def test_an_edit_that_would_change_another_setting_is_refused(
        cli: CLI, config_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The edited text is parsed again and must hold exactly the settings asked for."""
    config_file.parent.mkdir(parents=True)
    config_file.write_text(HAND_WRITTEN, encoding="utf-8")
    real_edit = config._edited
    monkeypatch.setattr(config, "_edited",
                        lambda text, setting: real_edit(text, setting).replace("40", "45"))
    result = cli("config", "set", "least-score.limit", "60")
    assert result.exit_code == 1 and "can't be edited in place" in result.stderr
    assert config_file.read_text(encoding="utf-8") == HAND_WRITTEN


def test_a_refused_set_creates_nothing(refuse: Refuse, config_file: Path) -> None:
    refuse("config", "set", "language", "fr", says="language must be")
    refuse("config", "set", "least-score.limit", "five", says="limit")
    assert not config_file.parent.exists()


# ---------------------------------------------------------------------------
# Reading: only a regular file of sane size, else one line and the defaults


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _dev_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _too_large(path: Path) -> None:  # valid TOML, but no config file is 2 MB
    path.write_text("# " + "x" * 2_000_000 + '\nlanguage = "da"\n', encoding="utf-8")


def _deeply_nested(path: Path) -> None:
    path.write_text("players = " + "[" * 900 + "]" * 900 + "\n", encoding="utf-8")


@pytest.mark.parametrize(("make", "reason"), [
    (_fifo, "is a named pipe (FIFO), not a regular file"),
    (_dev_zero, "is a device, not a regular file"),
    (_too_large, "is too large (2,000,019 bytes; a config file holds at most 1,048,576 bytes)"),
    (_deeply_nested, "is nested too deeply to be a config file"),
], ids=["fifo", "dev-zero", "too-large", "deeply-nested"])
@pytest.mark.e2e
def test_what_is_not_a_small_regular_file_is_refused_and_the_defaults_apply(
        score_run: Callable[..., Result], config_file: Path, make: Callable[[Path], None],
        reason: str) -> None:
    config_file.parent.mkdir(parents=True)
    make(config_file)
    started = score_run("new", "least-score", "--player", "Ann", "--player", "Bob")
    assert started.exit_code == 0, started
    assert started.stderr == f"warning: the config file {config_file} {reason}; it is " \
                             "ignored for this run\n"
    exported = score_run("export", "--format", "json")
    assert json.loads(exported.stdout)["options"]["limit"] == 100
    for args, code in ((("config", "show"), 1), (("config", "set", "language", "ar"), 1)):
        refused = score_run(*args)
        assert refused.exit_code == code, refused
        assert_one_line_error(refused)
        assert f"the config file {config_file} {reason}" in refused.stderr
    assert not (config_file.parent / "config.toml.lock").exists()


# ---------------------------------------------------------------------------
# Writing: locked, re-read, atomic, through a symlink, the mode kept, no stale temporaries

EIGHT_SETTINGS = {
    "language": "da", "players": "Ann,Bob", "least-score.limit": "50",
    "least-score.tie": "declarer-loses", "least-score.end": "first-out",
    "least-score.two-pairs": "any-rank", "one-card.joker": "two-of-diamonds",
    "one-card.target": "40",
}
EIGHT_IN_THE_FILE = {
    "language": "da", "players": ["Ann", "Bob"],
    "least-score": {"limit": 50, "tie": "declarer-loses", "end": "first-out",
                    "two_pairs": "any-rank"},
    "one-card": {"joker": "two-of-diamonds", "target": 40},
}


def set_all_at_once(score_exe: Path, score_env: dict[str, str], config_file: Path) -> None:
    """Eight `score config set`, one per key, started together; each must keep its own."""
    processes = [subprocess.Popen([str(score_exe), "config", "set", key, value], env=score_env,
                                  stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
                 for key, value in EIGHT_SETTINGS.items()]
    for process in processes:
        out, err = process.communicate(timeout=120 * SCALE)
        assert process.returncode == 0, (out, err)
        assert err == ""
    data = tomllib.loads(config_file.read_text(encoding="utf-8"))
    assert data == EIGHT_IN_THE_FILE
    assert sorted(p.name for p in config_file.parent.iterdir()) == [
        "config.toml", "config.toml.lock"]


@pytest.mark.e2e
def test_eight_concurrent_sets_on_different_keys_all_stay(
        score_exe: Path, score_env: dict[str, str], config_file: Path) -> None:
    set_all_at_once(score_exe, score_env, config_file)


@pytest.mark.slow
@pytest.mark.e2e
def test_eight_concurrent_sets_keep_every_setting_and_the_comments_round_after_round(
        score_exe: Path, score_env: dict[str, str], config_file: Path) -> None:
    for _round in range(10):
        shutil.rmtree(config_file.parent, ignore_errors=True)
        config_file.parent.mkdir(parents=True)
        config_file.write_text("# Our Friday group.\n", encoding="utf-8")
        set_all_at_once(score_exe, score_env, config_file)
        assert config_file.read_text(encoding="utf-8").startswith("# Our Friday group.\n")


def test_a_symlinked_config_is_written_through_and_keeps_its_mode(
        ok: CLI, config_file: Path, tmp_path: Path) -> None:
    target = tmp_path / "dotfiles" / "scorekeeper.toml"
    target.parent.mkdir()
    target.write_text("# mine\nlanguage = 'ar'\n", encoding="utf-8")
    target.chmod(0o640)
    config_file.parent.mkdir(parents=True)
    config_file.symlink_to(target)
    ok("config", "set", "one-card.target", "40")
    assert config_file.is_symlink() and config_file.resolve() == target
    assert target.read_text(encoding="utf-8") == \
        "# mine\nlanguage = 'ar'\n\n[one-card]\ntarget = 40\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in config_file.parent.iterdir()) == ["config.toml"]
    assert sorted(p.name for p in target.parent.iterdir()) == [
        "scorekeeper.toml", "scorekeeper.toml.lock"]  # the lock is beside the real file


def test_a_plain_config_keeps_its_mode(ok: CLI, config_file: Path) -> None:
    config_file.parent.mkdir(parents=True)
    config_file.write_text("", encoding="utf-8")
    config_file.chmod(0o644)
    ok("config", "set", "language", "da")
    assert stat.S_IMODE(config_file.stat().st_mode) == 0o644


KILLED_AT_FSYNC = """\
import os, signal, sys
os.fsync = lambda descriptor: os.kill(os.getpid(), signal.SIGKILL)  # mid-write
from scorekeeper.cli.app import run
sys.exit(run(sys.argv[1:]))
"""


@pytest.mark.e2e
def test_a_killed_set_leaves_the_old_file_and_the_next_set_removes_its_temporary(
        score_run: Callable[..., Result], score_env: dict[str, str], config_file: Path) -> None:
    config_file.parent.mkdir(parents=True)
    config_file.write_text(HAND_WRITTEN, encoding="utf-8")
    killed = subprocess.run([sys.executable, "-c", KILLED_AT_FSYNC, "config", "set",
                             "language", "da"], env=score_env, capture_output=True,
                            timeout=60 * SCALE)
    assert killed.returncode == -signal.SIGKILL, killed
    assert config_file.read_text(encoding="utf-8") == HAND_WRITTEN  # the old file, whole
    left = [p.name for p in config_file.parent.iterdir() if p.name.endswith(".tmp")]
    assert len(left) == 1 and left[0].startswith(".config.toml."), left
    others = [config_file.parent / ".config.toml.bak.abcd1234.tmp",  # another file's
              config_file.parent / ".settings.toml.abcd1234.tmp"]
    for other in others:
        other.write_text("not ours", encoding="utf-8")
    done = score_run("config", "set", "language", "da")
    assert done.exit_code == 0, done
    assert sorted(p.name for p in config_file.parent.iterdir()) == sorted(
        ["config.toml", "config.toml.lock", *(other.name for other in others)])
    assert config_file.read_text(encoding="utf-8") == HAND_WRITTEN.replace(
        "\n\n[one-card]", '\nlanguage = "da"\n\n[one-card]')


def test_a_config_lock_that_cant_be_made_or_is_held_too_long_is_one_line(
        refuse: Refuse, ok: CLI, config_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The config's lock fails as the store's does (files.holding_lock): one line, the
    file as it was."""
    from filelock import FileLock

    ok("config", "set", "language", "da")
    before = config_file.read_bytes()
    lock_path = config_file.with_name(config_file.name + ".lock")
    monkeypatch.setattr(config, "LOCK_TIMEOUT_SECONDS", 0.2)
    with FileLock(str(lock_path)):
        refuse("config", "set", "least-score.limit", "60",
               says=("another score command has held", str(lock_path)))
    lock_path.unlink()
    lock_path.mkdir()  # the lock file can't be opened (as root too)
    refuse("config", "set", "least-score.limit", "60", says=("can't lock", "Is a directory"))
    assert config_file.read_bytes() == before


def test_a_rule_of_another_game_is_named_with_its_game_and_hearts_moon_rule_spellings(
        refuse: Refuse, ok: CLI, config_file: Path,
        summary: Callable[..., dict[str, Any]]) -> None:
    """Issue 38.2: as `score new` says it, `config set` names the game a house rule is
    of; `--moon-rule plus|minus` is CLI.md's spelling, and a stored `add` still reads."""
    refuse("config", "set", "oh-hell.moon-rule", "plus",
           says="--moon-rule is a house rule of Hearts, not of Oh Hell")
    refuse("config", "set", "yaniv.speed", "2", says="Yaniv has no house rule 'speed'")
    assert not config_file.exists()
    for spelling, stored in (("minus", "minus"), ("plus", "add")):
        ok("config", "set", "hearts.moon-rule", spelling)
        ok("new", "hearts", "-p", "A", "-p", "B", "-p", "C", "-p", "D", "--dealer", "A")
        assert summary()["options"]["moon_rule"] == stored
    config_file.write_text('[hearts]\nmoon-rule = "add"\n', encoding="utf-8")
    assert "hearts.moon-rule = add" in ok("config", "show").stdout
