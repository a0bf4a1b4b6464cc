"""Shell completion of what only the store knows: session ids and the players still in.

Typer completes commands and options by itself (``score --install-completion``);
these functions add the values. A completion runs on every Tab press, so it reads
the store read-only, never creates anything, and answers nothing rather than fail:
a damaged or missing store simply completes no values.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
from collections.abc import Collection, Iterator
from typing import Any

import shellingham  # type: ignore[import-untyped,unused-ignore]
import typer
import typer.completion

from scorekeeper.i18n import _
from scorekeeper.kit.entries import EntryError, name_key
from scorekeeper.registry import DECLARATIONS, all_declarations
from scorekeeper.session import Session
from scorekeeper.store import Store, resolve_path

# Typer registers its shells' completion classes (what answers a Tab press) only when it
# adds its own completion options, which it does not here (see ``shell_optional``):
# asking typer.completion for those options registers them.
typer.completion.get_completion_inspect_parameters()

PROG_NAME = "score"
COMPLETE_VAR = "_SCORE_COMPLETE"
SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")


def _shell(name: str) -> str:
    """The shell named, or the one this command runs in (empty ``name``)."""
    shell = name.strip().lower()
    if not shell:
        detected = _detected_shell()
        if detected is None:  # no shell among the ancestors (a detached process): $SHELL
            login = os.path.basename(os.environ.get("SHELL", "")).lower()
            detected = login if login in SHELLS else None
        if detected is None:
            raise EntryError(_("can't tell which shell this is: name it, e.g. "
                               "`score --show-completion bash`"))
        shell = detected
    if shell not in SHELLS:
        raise EntryError(_("no completion for the shell {name}: choose {shells}").format(
            name=repr(name), shells=", ".join(SHELLS)))
    return shell


def _detected_shell() -> str | None:
    """The shell among this process's ancestors, as Typer finds it (by shellingham)."""
    try:
        name, _command = shellingham.detect_shell()
    except shellingham.ShellDetectionFailure:
        return None
    return str(name).lower()


def shell_optional(args: list[str], commands: Collection[str]) -> list[str]:
    """``--show-completion`` / ``--install-completion`` followed by no shell (nothing, an
    option or a command) get an empty value, meaning this shell: the name is optional."""
    given: list[str] = []
    for index, arg in enumerate(args):
        following = args[index + 1] if index + 1 < len(args) else "-"
        if arg in ("--show-completion", "--install-completion") and (
                following.startswith("-") or following in commands):
            arg += "="
        given.append(arg)
    return given


def show_script(ctx: typer.Context, param: typer.CallbackParam, shell: str) -> None:
    """Print the completion script for ``shell`` (empty: the current shell) and exit: what
    Typer's own ``--show-completion`` does, with the shell checked here first."""
    typer.completion.show_callback(ctx, param, _shell(shell))


def install(ctx: typer.Context, param: typer.CallbackParam, shell: str) -> tuple[str, str]:
    """Install the script where ``shell`` finds it (Typer's own ``--install-completion``);
    return the shell and the file written, for a message in the run's language."""
    chosen = _shell(shell)
    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        try:
            typer.completion.install_callback(ctx, param, chosen)
        except SystemExit as done:
            if done.code not in (0, None):
                raise
    found = re.match(r"(\S+) completion installed in (.+)", said.getvalue())
    if found is None:  # Typer's words changed: say what it said
        raise EntryError(_one_line(said.getvalue()))
    return found.group(1), found.group(2)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _store(ctx: typer.Context) -> Store:
    root = ctx.find_root()
    db: Any = root.params.get("db") if root.params else None
    return Store(resolve_path(db))


def _sessions(ctx: typer.Context) -> list[Session]:
    try:
        return _store(ctx).read().sessions()
    except Exception:  # a Tab press must never print a traceback into the shell
        return []


def session_ids(ctx: typer.Context, incomplete: str) -> Iterator[tuple[str, str]]:
    """Every session id, with its label and status as the help text."""
    for session in _sessions(ctx):
        text = str(session.id)
        if text.startswith(incomplete):
            yield text, _plain(f"{session.label} ({session.status})")


def games(incomplete: str) -> Iterator[str]:
    yield from (name for name in all_declarations() if name.startswith(incomplete))


def player_values(ctx: typer.Context, incomplete: str) -> Iterator[str]:
    """``NAME=`` for each player still in the session the command line names (or the
    current one) who has no value on the line yet."""
    session_id = ctx.params.get("session_id")
    try:
        session = _store(ctx).read().get(session_id if isinstance(session_id, int) else None)
        still_in = session.standings.still_in
    except Exception:
        return
    typed = {name_key(str(value).partition("=")[0].strip())
             for value in ctx.params.get("values") or ()}
    for name in still_in:
        if name_key(name) in typed:
            continue
        candidate = f"{name}="
        if candidate.startswith(incomplete):
            yield candidate


def _plain(text: str) -> str:
    """Help text for the shell: one line, no control characters."""
    return "".join(ch if ch.isprintable() else "?" for ch in text)


def _named_session(ctx: typer.Context) -> Session | None:
    session_id = ctx.params.get("session_id")
    try:
        return _store(ctx).read().get(session_id if isinstance(session_id, int) else None)
    except Exception:  # a Tab press must never print a traceback into the shell
        return None


def players_still_in(ctx: typer.Context, incomplete: str) -> Iterator[str]:
    """``drop-player``: each player still in the session the command line names."""
    session = _named_session(ctx)
    if session is None:
        return
    try:
        still_in = session.standings.still_in
    except Exception:
        return
    wanted = name_key(incomplete)
    yield from (name for name in still_in if name_key(name).startswith(wanted))


def players_to_join(ctx: typer.Context, incomplete: str) -> Iterator[str]:
    """``add-player``: the players who left this session (they may come back), then the
    names of the other sessions' players, not yet in this one."""
    session = _named_session(ctx)
    taken = {name_key(name) for name in session.players} if session is not None else set()
    wanted = name_key(incomplete)
    seen: set[str] = set()
    try:
        left = session.standings.left if session is not None else []
    except Exception:  # a Tab press must never print a traceback into the shell
        left = []
    for name in left:
        if name_key(name).startswith(wanted):
            seen.add(name_key(name))
            yield name
    for other in _sessions(ctx):
        for name in other.players:
            key = name_key(name)
            if key in taken or key in seen or not key.startswith(wanted):
                continue
            seen.add(key)
            yield name


# --------------------------------------------------------------------------------------
# The options of one game: ``new GAME --<Tab>`` and ``add-round --<Tab>`` offer only the
# options the game takes, read from its declaration (cli/game_options.py gives the
# commands every game's options; conventions.PlainCommand asks these to narrow them).

def config_keys(incomplete: str) -> Iterator[tuple[str, str]]:
    """``config set <Tab>`` (and unset): ``language``, ``players`` and each game's
    ``GAME.RULE``, with the rule's help (a game's own words, in the active language)."""
    typed = incomplete.strip().lower()
    for key, help_text in (("language", _("the language to speak")),
                           ("players", _("the group's players"))):
        if key.startswith(typed):
            yield key, help_text
    for name, declaration in DECLARATIONS.items():
        if not (name.startswith(typed) or typed.startswith(name)):
            continue
        for option in declaration.house_rules:
            key = f"{name}.{option.flag[2:]}"
            if key.startswith(typed):
                yield key, _one_line(_(option.help))
