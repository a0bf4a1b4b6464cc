"""What every command shares with well-liked command lines: plain metavars in ``--help``
and one style for every malformed command line.

Typer names an option's value after its Python type (``--player <list[str]>``,
``{game}``) and Click and pydantic word errors for programmers ("Input should be a
valid integer, unable to parse string as an integer"). :func:`tidy_help` gives every
parameter a metavar people read (``--player NAME``, ``GAME``), and
:func:`usage_message` turns every usage error into one sentence in the project's own
style: what is wrong with the command line and what would be right.

Help is shown in the language of the run: :func:`localize` translates the help texts
(marked ``N_``) each time a command is used, and :class:`LocalizedContext` gives Click's
own words in the help page ("Usage:", the help option) from our catalog. Typer's words
("Options", "[default: ...]") come from gettext's default domain, which
:func:`scorekeeper.cli.language.speak` points at ``scorekeeper/locale``.
"""

from __future__ import annotations

import contextlib
import enum
import gettext
import re
import shutil
import textwrap
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import typer
import typer.core

from scorekeeper.i18n import N_, _

OPTION_METAVARS = {
    "--player": "NAME", "--dealer": "NAME", "--bot": "LEVEL", "--session": "ID",
    "--resume": "ID", "--name": "TEXT", "--output": "FILE", "--db": "FILE", "--host": "HOST",
}
"""Options whose value has a better name than its type's (a game's round options get
theirs from its declaration: cli/game_options.py)."""

COMPLETES_OPTIONS = "completes_options"
"""The attribute of a command's function naming what narrows the options a Tab press
offers: ``(command, ctx, items) -> items`` (cli/completion.py)."""

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


def _usage_name(param: Any) -> str:
    """An argument as the usage line shows it: ``GAME``, or ``[ID]`` when it may be left
    out (``...`` after one that takes several)."""
    if param.hidden:
        return ""
    metavar = str(param.metavar or param.name.upper())
    name = metavar if param.required or metavar.startswith("[") else f"[{metavar}]"
    return name + ("..." if param.nargs != 1 and "..." not in name else "")


def _is_argument(param: Any) -> bool:
    return getattr(param, "param_type_name", "") == "argument"


class PlainCommand(typer.core.TyperCommand):
    """Typer's command, with its arguments shown as people read them: ``GAME`` (or
    ``[ID]``) in the usage line, and no ``<int>`` type after them in the list of
    arguments. Every ``score`` command is one (cli/lazy.py)."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if _is_argument(param):
                name = _usage_name(param)
                pieces.extend([name] if name else [])
            else:
                pieces.extend(param.get_usage_pieces(ctx))
        return pieces

    def shell_complete(self, ctx: Any, incomplete: str) -> list[Any]:
        """The options a Tab press offers, narrowed to one game's by the command's
        ``COMPLETES_OPTIONS`` (set by cli/game_options.py's ``takes``), if it has one."""
        items: list[Any] = super().shell_complete(ctx, incomplete)
        narrow = getattr(self.callback, COMPLETES_OPTIONS, None)
        return items if narrow is None else list(narrow(self, ctx, items))

    def format_options(self, ctx: Any, formatter: Any) -> None:
        arguments: list[tuple[str, str]] = []
        options: list[tuple[str, str]] = []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            if _is_argument(param):
                arguments.append((str(param.metavar or param.name.upper()), record[1]))
            else:
                options.append(record)
        # Typer's headings, in the words of gettext's default domain as Typer says them
        for heading, rows in (("Arguments", arguments), ("Options", options)):
            if rows:
                with formatter.section(gettext.gettext(heading)):
                    formatter.write_dl(rows)


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


# ---------------------------------------------------------------------------
# Help in the language of the run

HELP_OPTION_HELP = N_("Show this message and exit.")
"""Click's words for ``--help`` (Click writes them in English only)."""

_ENGLISH = "_scorekeeper_english"


def _english(thing: Any, *names: str) -> tuple[Any, ...]:
    """The texts ``names`` of ``thing`` as the code wrote them (kept at the first call)."""
    kept: tuple[Any, ...] | None = getattr(thing, _ENGLISH, None)
    if kept is None:
        kept = tuple(getattr(thing, name, None) for name in names)
        setattr(thing, _ENGLISH, kept)
    return kept


def english_help(command: Any) -> str | None:
    """``command``'s help text as the code wrote it, whatever language a run spoke."""
    help_text: str | None = _english(command, "help", "short_help", "epilog")[0]
    return help_text


_COMPOSED: dict[str, Callable[[], str]] = {}
"""Help texts put together when a command is used (:func:`composed_help`), by the
placeholder that stands for each."""


def composed_help(compose: Callable[[], str]) -> str:
    """A placeholder help text that :func:`localize` replaces with ``compose()`` each time
    the command is used, in the language of that run: for help put together from the
    games' declarations, which no single catalog entry holds."""
    placeholder = f"(help composed when the command is used: {len(_COMPOSED) + 1})"
    _COMPOSED[placeholder] = compose
    return placeholder


def _translated(text: Any) -> Any:
    if isinstance(text, str) and text in _COMPOSED:
        return _COMPOSED[text]()
    return _(text) if isinstance(text, str) and text else text


def localize(command: Any, *, walk: bool = True) -> None:
    """``command``'s help texts (and its subcommands', unless not ``walk``) in the active
    language. A built command outlives a run (tests run many in one process), so the
    English texts are kept and translated again at each call."""
    for each in _walk(command) if walk else (command,):
        names = ("help", "short_help", "epilog")
        for name, english in zip(names, _english(each, *names), strict=True):
            setattr(each, name, _translated(english))
        if each.short_help is None and each.help:
            # the whole first sentence, wrapped by the list of commands: Click would cut
            # it to the width left beside the name ("Enter the result of a...")
            each.short_help = each.get_short_help_str(limit=len(each.help))
        for param in getattr(each, "params", ()):
            (english_help,) = _english(param, "help")
            param.help = _translated(english_help)
        context_class = getattr(each, "context_class", None)
        if isinstance(context_class, type) and not issubclass(context_class,
                                                              LocalizedContext):
            each.context_class = LocalizedContext


HELP_MAX_WIDTH = 80
NARROW_HELP = 60
"""Below this width a help page's options and commands get their descriptions under
them, not in a column beside them too narrow for a word."""


def help_width() -> int:
    """The width help pages are written to: the terminal's, up to 80 columns (as Click
    does), but never wider than a narrow terminal (Click's own floor of 50 columns would
    have a phone's terminal break the lines mid-word)."""
    columns = shutil.get_terminal_size().columns
    return max(min(columns, HELP_MAX_WIDTH) - 2, 20)


class LocalizedFormatter:
    """Typer's help formatter, with the words Click writes itself translated: it writes
    through the formatter the context would make, and changes only those words."""

    def __init__(self, formatter: Any) -> None:
        self._formatter = formatter

    def __getattr__(self, name: str) -> Any:
        return getattr(self._formatter, name)

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        self._formatter.write_usage(prog, args,
                                    _("Usage:") + " " if prefix is None else prefix)

    def write_text(self, text: str) -> None:
        indent = " " * int(self._formatter.current_indent)
        self._formatter.write(wrap_words(text, self._width() - len(indent), indent) + "\n")

    def write_dl(self, rows: Sequence[tuple[str, str]], col_max: int = 30,
                 col_spacing: int = 2) -> None:
        """Click's definition list (options, commands), its descriptions wrapped
        between words only."""
        rows = [(term, _(text) if text == HELP_OPTION_HELP else text) for term, text in rows]
        width = self._width()
        if width < NARROW_HELP:  # a term longer than this goes on a line of its own
            col_max = min(col_max, max(width // 3, 8))
        indent = " " * int(self._formatter.current_indent)
        first_column = min(max((len(term) for term, _text in rows), default=0), col_max)
        column = first_column + col_spacing
        for term, text in rows:
            self._formatter.write(indent + term)
            if not text:
                self._formatter.write("\n")
                continue
            if len(term) <= first_column:
                self._formatter.write(" " * (column - len(term)))
            else:
                self._formatter.write("\n" + indent + " " * column)
            hanging = indent + " " * column
            wrapped = wrap_words(text, max(width - column - len(indent), 10), hanging)
            self._formatter.write(wrapped[len(hanging):] + "\n")

    def _width(self) -> int:
        return int(getattr(self._formatter, "width", None) or HELP_MAX_WIDTH)


def wrap_words(text: str, width: int, indent: str = "") -> str:
    """``text`` in lines of ``width`` columns after ``indent``, broken between words (or
    after a hyphen), never inside a word, as Click's own wrapping does when a word is
    longer than the line (``stan`` / ``ding``). Paragraphs stay apart, and one that starts
    with Click's ``\\b`` line keeps its lines as written (examples).

    >>> print(wrap_words("--size extra-large|small or small", 12, "  "))
      --size
      extra-
      large|small
      or small
    """
    wrapper = textwrap.TextWrapper(width + len(indent), initial_indent=indent,
                                   subsequent_indent=indent, break_long_words=False)
    paragraphs = []
    for paragraph in text.split("\n\n"):
        lines = paragraph.split("\n")
        if lines and lines[0].strip() == "\b":
            paragraphs.append("\n".join(indent + line for line in lines[1:]))
        elif paragraph.strip():
            paragraphs.append(wrapper.fill(" ".join(paragraph.split())))
    return "\n\n".join(paragraphs)


class LocalizedContext(typer.Context):
    """A command's context whose help page is written by :class:`LocalizedFormatter`."""

    def make_formatter(self) -> Any:
        return LocalizedFormatter(super().make_formatter())

    def get_help(self) -> str:
        scope = getattr(self.command, "help_scope", None)  # (one game's: GameCommand)
        with scope() if scope is not None else contextlib.nullcontext():
            localize(self.command, walk=False)
        return super().get_help()


# ---------------------------------------------------------------------------
# Usage errors in one style


def _param_name(param: Any) -> str:
    if param is None:
        return _("a value")
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
        return _("{name} must be a whole number, not {given}").format(name=name,
                                                                       given=repr(given))
    if kind == "greater_than_equal":
        return _("{name} must be {least} or more, not {given}").format(
            name=name, least=limits.get("ge"), given=given)
    if kind == "less_than_equal":
        return _("{name} must be {most} or less, not {given}").format(
            name=name, most=limits.get("le"), given=given)
    annotation = getattr(getattr(error.param, "type_descriptor", None), "annotation", None)
    choices = _choices(annotation)
    if choices:
        return _("{name} must be {choices}, not {given}").format(
            name=name, choices=either(choices.split("|")), given=repr(given))
    message = str(first.get("msg", "")).removeprefix("Value error, ").rstrip(".")
    return f"{name}: {message[:1].lower() + message[1:]}"


def either(words: list[str]) -> str:
    """``a, b or c``.

    >>> either(["json", "md", "csv", "html"])
    'json, md, csv or html'
    """
    if len(words) == 1:
        return words[0]
    return _("{first} or {last}").format(first=", ".join(words[:-1]), last=words[-1])


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
        if help_text:
            return _("{command} needs {what}: {help}").format(command=path, what=what,
                                                              help=help_text)
        return _("{command} needs {what}").format(command=path, what=what)
    if kind == "BadParameter":
        converted = _bad_value(error)
        if converted is not None:
            return converted
        if param is not None:
            return f"{_param_name(param)}: {_path_problem(str(error.message))}"
        return str(error.message)
    import difflib  # only for a mistyped command line

    if kind == "NoSuchOption":
        option = error.option_name
        known = [opt for param in (ctx.command.params if ctx is not None else ())
                 for opt in getattr(param, "opts", ()) + getattr(param, "secondary_opts", ())
                 if opt.startswith("--")]
        close = difflib.get_close_matches(option, known, n=1)
        if close:
            return _("{command} has no option {option}: did you mean {suggestion}?").format(
                command=path, option=option, suggestion=close[0])
        return _("{command} has no option {option}").format(command=path, option=option)
    if kind == "BadOptionUsage" and "requires an argument" in error.message:
        return _("{option} needs a value").format(option=error.option_name)
    if kind == "BadOptionUsage" and "does not take a value" in error.message:
        return _("{option} does not take a value").format(option=error.option_name)
    message = str(getattr(error, "message", error))
    unknown = _unknown_command(message)
    if unknown is not None:
        close = difflib.get_close_matches(unknown, command_names, n=1)
        if close:
            return _("there is no command {name}: did you mean `{suggestion}`?").format(
                name=repr(unknown), suggestion=f"score {close[0]}")
        return _("there is no command {name}: the commands are {commands}").format(
            name=repr(unknown), commands=", ".join(command_names))
    extra = re.fullmatch(r"Got unexpected extra argument(?:s|\(s\))? \((.*)\)", message)
    if extra:
        return _("{command} does not take {argument}: it has no place for it").format(
            command=path, argument=repr(extra.group(1)))
    return message[:1].lower() + message[1:].rstrip(".")


def _unknown_command(message: str) -> str | None:
    """The name in Typer's "No such command 'x'." (in the words of the active language)."""
    # Typer says it through gettext's default domain: cli.language.speak binds it
    template = gettext.gettext("No such command {name!r}.")
    before, found, after = template.partition("{name!r}")
    if not found:
        return None
    match = re.match(re.escape(before) + r"'(.*?)'" + re.escape(after), message)
    return match.group(1) if match else None


PATH_PROBLEMS = {
    "is a directory": N_("{path} is a folder, not a file"),
    "is a file": N_("{path} is a file, not a folder"),
    "does not exist": N_("{path} does not exist"),
    "is not readable": N_("{path} can't be read"),
    "is not writable": N_("{path} can't be written"),
}


def _path_problem(message: str) -> str:
    """Typer's check of a path option ("file '/tmp' is a directory.") in our words."""
    problem = re.fullmatch(r"(?i:file|dir|directory|path) ('.*') ("
                           + "|".join(PATH_PROBLEMS) + r")\.", message)
    if problem is None:
        return message
    return _(PATH_PROBLEMS[problem.group(2)]).format(path=problem.group(1))
