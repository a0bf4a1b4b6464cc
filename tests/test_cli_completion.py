"""Shell completion (Typer's): commands, options, session ids, and ``NAME=`` for add-round.

Completion is asked for the way the shells' scripts ask: ``score`` with
``_SCORE_COMPLETE`` and the shell's variables in its environment. The real ``score``
answers in every shell (``complete``, one process a question); what each command offers
is asked in-process (``complete_here``: the same ``run``, the same environment, no
process start per question).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CLI, Result


@pytest.fixture
def complete(score_run: Callable[..., Result]) -> Callable[..., list[str]]:
    def ask(shell: str, *words: str) -> list[str]:
        result = score_run(env=shell_environment(shell, words))
        assert result.exit_code == 0, result
        assert "Traceback" not in result.output
        return result.stdout.split()

    return ask


def shell_environment(shell: str, words: tuple[str, ...]) -> dict[str, str]:
    """What the shell's completion script puts in ``score``'s environment."""
    line = " ".join(("score", *words))
    if shell == "bash":
        return {"_SCORE_COMPLETE": "complete_bash", "COMP_WORDS": line,
                "COMP_CWORD": str(len(words))}
    return {"_SCORE_COMPLETE": f"complete_{shell}", "_TYPER_COMPLETE_ARGS": line,
            "_TYPER_COMPLETE_FISH_ACTION": "get-args"}


@pytest.fixture
def complete_here(cli: CLI, monkeypatch: pytest.MonkeyPatch) -> Callable[..., list[str]]:
    """``complete`` in-process: ``run`` with the shell's environment."""
    def ask(shell: str, *words: str) -> list[str]:
        with monkeypatch.context() as asked:
            for name, value in shell_environment(shell, words).items():
                asked.setenv(name, value)
            result = cli()
        assert result.exit_code == 0, result
        assert "Traceback" not in result.output
        return result.stdout.split()

    return ask


@pytest.mark.e2e
def test_commands_and_options_complete_in_every_shell(complete: Callable[..., list[str]]) -> None:
    for shell in ("bash", "zsh", "fish"):
        assert any("add-round" in word for word in complete(shell, "add")), shell
    assert complete("bash", "new", "least-score", "--dea") == ["--dealer"]


def test_new_offers_only_the_options_of_the_game_it_names(
        complete_here: Callable[..., list[str]], db_path: Path) -> None:
    # Yaniv's --halving is not one of Oh Hell's; Points has no --limit
    assert complete_here("bash", "new", "oh-hell", "--h") == [
        "--hand-sizes", "--hook", "--help"]
    assert complete_here("bash", "new", "points", "--l") == []
    assert sorted(complete_here("bash", "new", "points", "--")) == sorted([
        "--player", "--name", "--note", "--dealer", "--wins", "--target", "--rounds", "--sum",
        "--help"])
    assert complete_here("bash", "play", "yaniv", "--h") == ["--host", "--halving", "--help"]
    assert complete_here("bash", "simulate", "hearts", "--t") == ["--target"]
    # no game named yet (it may follow the options): every game's options, as before
    assert complete_here("bash", "new", "--") == ["--help"]  # no game: no game's options
    assert complete_here("bash", "new", "no-such-game", "--hal") == []
    assert not db_path.exists()  # nothing read, nothing made


def test_add_round_offers_only_the_round_options_of_the_sessions_game(
        complete_here: Callable[..., list[str]], ok: CLI, db_path: Path) -> None:
    assert "--declarer" not in complete_here("bash", "add-round", "--")  # no session
    assert not db_path.exists()
    ok("new", "hearts", "--player", "Ann", "--player", "Bob", "--player", "Cy")
    ok("new", "least-score", "--player", "Ann", "--player", "Bob")
    before = db_path.read_bytes()
    assert complete_here("bash", "add-round", "--") == [
        "--session", "--note", "--declarer", "--help"]
    assert complete_here("bash", "add-round", "--session", "1", "--") == [
        "--note", "--moon", "--jack", "--help"]
    assert complete_here("bash", "edit-round", "1", "--session", "1", "--") == [
        "--moon", "--jack", "--help"]
    assert complete_here("bash", "add-round", "--b") == []  # --bidder, --bid: another game's
    assert db_path.read_bytes() == before  # a Tab press never writes


def test_session_ids_and_games_complete(complete_here: Callable[..., list[str]],
                                        ok: CLI) -> None:
    assert complete_here("bash", "new", "") == ["hearts", "least-score", "oh-hell",
                                                "one-card", "points", "yaniv"]
    assert complete_here("bash", "show", "") == []  # no store yet: nothing, and no file made
    ok("new", "least-score", "--player", "Ann", "--player", "Bob")
    ok("new", "one-card", "--player", "Ann", "--player", "Bob")
    assert complete_here("bash", "show", "") == ["1", "2"]
    assert complete_here("bash", "use", "2") == ["2"]
    assert complete_here("bash", "undo", "--session", "") == ["1", "2"]


def test_add_round_completes_the_players_still_in_without_a_value(
        complete_here: Callable[..., list[str]], ok: CLI) -> None:
    ok("new", "least-score", "--player", "Ann", "--player", "Bob", "--player", "Cy",
       "--limit", "10")
    assert complete_here("bash", "add-round", "") == ["Ann=", "Bob=", "Cy="]
    assert complete_here("bash", "add-round", "Ann=3", "") == ["Bob=", "Cy="]
    assert complete_here("bash", "add-round", "B") == ["Bob="]
    ok("add-round", "--declarer", "Ann", "Ann=3", "Bob=30", "Cy=4")
    assert complete_here("bash", "add-round", "") == ["Ann=", "Cy="]  # Bob is knocked out


def test_completion_reads_nothing_it_cannot_and_creates_nothing(
        complete_here: Callable[..., list[str]], db_path: Path, tmp_path: Path) -> None:
    db_path.write_text("not json", encoding="utf-8")
    assert complete_here("bash", "show", "") == []
    assert complete_here("bash", "add-round", "") == []
    missing = tmp_path / "nowhere" / "store.json"
    assert complete_here("bash", "--db", str(missing), "show", "") == []
    assert not missing.parent.exists()


@pytest.mark.e2e
def test_the_completion_script_is_shown_for_each_shell(score_run: Callable[..., Result]) -> None:
    for shell, marker in (("bash", "complete"), ("zsh", "compdef"), ("fish", "complete")):
        result = score_run("--show-completion", shell)
        assert result.exit_code == 0, result
        assert marker in result.stdout and "_SCORE_COMPLETE" in result.stdout, shell


@pytest.mark.e2e
def test_an_unknown_shell_is_refused_in_one_line(score_run: Callable[..., Result]) -> None:
    result = score_run("--show-completion", "tcsh")
    assert result.exit_code == 1
    assert result.stderr.startswith("error: no completion for the shell 'tcsh'")
    assert len(result.stderr.splitlines()) == 1


@pytest.mark.e2e
def test_the_shell_is_optional_before_a_command(score_run: Callable[..., Result]) -> None:
    result = score_run("--show-completion", "sessions", env={"SHELL": "/bin/bash"})
    assert "error" not in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.e2e
def test_config_set_offers_each_games_own_house_rules(
        complete: Callable[..., list[str]]) -> None:
    """``config set <Tab>``: ``language``, ``players`` and every ``GAME.RULE``; a game's
    name narrows it to that game's rules (issue 38.2)."""
    every = complete("bash", "config", "set", "")
    assert {"language", "players", "hearts.moon-rule", "yaniv.jokers",
            "least-score.limit"} <= set(every)
    assert complete("bash", "config", "set", "hearts.") == [
        "hearts.target", "hearts.moon-rule", "hearts.jack-of-diamonds"]
    assert complete("bash", "config", "unset", "yaniv.j") == ["yaniv.jokers"]
    assert complete("bash", "config", "set", "oh-hell.moon") == []
