"""What every command shares with well-liked command lines: plain metavars in ``--help``
and one style for every malformed command line.

Typer names an option's value after its Python type (``--player <list[str]>``,
``{game}``) and Click and pydantic word errors for programmers ("Input should be a
valid integer, unable to parse string as an integer"). :func:`tidy_help` gives every
parameter a metavar people read (``--player NAME``, ``GAME``), and
:func:`usage_message` turns every usage error into one sentence in the project's own
style: what is wrong with the command line and what would be right.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

OPTION_METAVARS = {
    "--player": "NAME", "--dealer": "NAME", "--bot": "LEVEL", "--session": "ID",
    "--resume": "ID", "--name": "TEXT", "--output": "FILE", "--db": "FILE", "--host": "HOST",
}
"""Options whose value has a better name than its type's (a game's round options get
theirs from its declaration: cli/game_options.py)."""

ARGUMENT_METAVARS = {"session_id": "ID", "game": "GAME", "number": "N", "file": "FILE"}


def _walk(command: Any) -> Iterator[Any]:
    yield command
    for sub in getattr(command, "commands", {}).values():
        yield from _walk(sub)


def _choices(annotation: Any) -> str | None:
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return "|".join(str(member.value) for member in annotation)
    return None


def _metavar_of(param: Any) -> str:
    descriptor = getattr(param, "type_descriptor", None)
    annotation = getattr(descriptor, "annotation", None)
    if getattr(param, "param_type_name", "") == "argument":
        return ARGUMENT_METAVARS.get(param.name, str(param.name).upper())
    for option in param.opts:
        if option in OPTION_METAVARS:
            return OPTION_METAVARS[option]
    choices = _choices(annotation)
    if choices:
        return choices
    if annotation is int or annotation == list[int]:
        return "N"
    if annotation is Path:
        return "FILE"
    return "TEXT"


def _plain_argument(param: Any) -> None:
    """An argument shown as ``GAME`` (or ``[ID]`` when it may be left out) in the usage
    line, with no ``<int>`` type after it in the list of arguments."""
    metavar = param.metavar

    def usage_name() -> str:
        if param.hidden:
            return ""
        name = metavar if param.required or metavar.startswith("[") else f"[{metavar}]"
        return name + ("..." if param.nargs != 1 and "..." not in name else "")

    param._usage_display_name = usage_name
    param.display_type_rich = lambda ctx: None


def tidy_help(command: Any) -> None:
    """Give every parameter of ``command`` and its subcommands a metavar people read."""
    for each in _walk(command):
        tidy_params(each)


def tidy_params(command: Any) -> None:
    """Give the parameters of ``command`` itself a metavar people read."""
    for param in getattr(command, "params", ()):
        if getattr(param, "is_flag", False) or param.name == "help":
            continue
        if param.metavar is None:
            param.metavar = _metavar_of(param)
        if getattr(param, "param_type_name", "") == "argument":
            _plain_argument(param)


# ---------------------------------------------------------------------------
# Usage errors in one style


def _param_name(param: Any) -> str:
    if param is None:
        return "a value"
    opts = [opt for opt in getattr(param, "opts", ()) if opt.startswith("--")]
    if getattr(param, "param_type_name", "") == "option" and opts:
        return str(opts[0])
    return str(param.metavar or param.name.upper()).strip("[]").rstrip(".")


def _help_of(param: Any) -> str:
    text = str(getattr(param, "help", "") or "").strip().rstrip(".")
    return text[:1].lower() + text[1:]


def _bad_value(error: Any) -> str | None:
    """The message for a value Typer (through pydantic) could not convert, or None."""
    cause = error.__cause__
    errors = getattr(cause, "errors", None)
    if not callable(errors):
        return None
    try:
        first = errors()[0]
    except (IndexError, TypeError):
        return None
    name = _param_name(error.param)
    given = first.get("input")
    limits = first.get("ctx") or {}
    kind = first.get("type", "")
    if kind in ("int_parsing", "int_type", "int_from_float"):
        return f"{name} must be a whole number, not {given!r}"
    if kind == "greater_than_equal":
        return f"{name} must be {limits.get('ge')} or more, not {given}"
    if kind == "less_than_equal":
        return f"{name} must be {limits.get('le')} or less, not {given}"
    annotation = getattr(getattr(error.param, "type_descriptor", None), "annotation", None)
    choices = _choices(annotation)
    if choices:
        return f"{name} must be {either(choices.split('|'))}, not {given!r}"
    message = str(first.get("msg", "")).removeprefix("Value error, ").rstrip(".")
    return f"{name}: {message[:1].lower() + message[1:]}"


def either(words: list[str]) -> str:
    """``a, b or c``.

    >>> either(["json", "md", "csv", "html"])
    'json, md, csv or html'
    """
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def usage_message(error: Any, command_names: list[str]) -> str:
    """One sentence, without the ``error: `` prefix, for a malformed command line."""
    kind = type(error).__name__
    ctx = getattr(error, "ctx", None)
    path = ctx.command_path if ctx is not None else "score"
    param = getattr(error, "param", None)
    if kind == "MissingParameter":
        what = _param_name(param)
        if param is not None and getattr(param, "param_type_name", "") == "option":
            what += f" {param.metavar}" if param.metavar else ""
        help_text = _help_of(param)
        return f"{path} needs {what}" + (f": {help_text}" if help_text else "")
    if kind == "BadParameter":
        converted = _bad_value(error)
        if converted is not None:
            return converted
        if param is not None:
            return f"{_param_name(param)}: {error.message}"
        return str(error.message)
    import difflib  # only for a mistyped command line

    if kind == "NoSuchOption":
        option = error.option_name
        known = [opt for param in (ctx.command.params if ctx is not None else ())
                 for opt in getattr(param, "opts", ()) + getattr(param, "secondary_opts", ())
                 if opt.startswith("--")]
        close = difflib.get_close_matches(option, known, n=1)
        hint = f": did you mean {close[0]}?" if close else ""
        return f"{path} has no option {option}{hint}"
    if kind == "BadOptionUsage" and "requires an argument" in error.message:
        return f"{error.option_name} needs a value"
    message = str(getattr(error, "message", error))
    unknown = re.match(r"No such command '(.*?)'\.", message)
    if unknown:
        close = difflib.get_close_matches(unknown.group(1), command_names, n=1)
        hint = f": did you mean `score {close[0]}`?" if close else \
            f": the commands are {', '.join(command_names)}"
        return f"there is no command {unknown.group(1)!r}{hint}"
    extra = re.fullmatch(r"Got unexpected extra argument(?:s|\(s\))? \((.*)\)", message)
    if extra:
        return f"{path} does not take {extra.group(1)!r}: it has no place for it"
    return message[:1].lower() + message[1:].rstrip(".")
