"""Build only the command that runs: start-up time is the table's wait.

Typer turns every registered command into a Click command (parsing each signature)
on every run, and a command's module is imported just to register it. Here the
group's command table is a mapping that builds a command, and imports its module,
only when that command is looked up: `score add-round` builds add-round alone and
never imports the virtual deck, the server or the statistics. `score --help`
still lists everything (it looks every command up).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, MutableMapping
from typing import Any

import typer
import typer.core
import typer.main
from typer.models import CommandInfo

from scorekeeper.cli import conventions, examples

Command = Any
"""A command as Typer builds it (``typer.main.get_command``): Typer names no public type
for it beyond ``typer.core.TyperCommand`` and ``typer.core.TyperGroup``."""

Loader = Callable[[], Command]


class LazyCommands(MutableMapping[str, Command]):
    """Command name -> Click command, each built on first access and kept."""

    def __init__(self, built: MutableMapping[str, Command],
                 loaders: dict[str, Loader]) -> None:
        self._built: dict[str, Command] = dict(built)
        self._loaders = loaders

    def __getitem__(self, name: str) -> Command:
        if name not in self._built:
            built = self._loaders[name]()
            conventions.tidy_help(built)  # --player NAME, not <list[str]>
            examples.attach(built, name)  # every help page ends with examples
            self._built[name] = built
        command = self._built[name]
        conventions.localize(command)  # this run's language, also if an earlier run built it
        return command

    def __setitem__(self, name: str, command: Command) -> None:
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        self._built.pop(name, None)
        self._loaders.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        yield from self._loaders
        yield from (name for name in self._built if name not in self._loaders)

    def __len__(self) -> int:
        return len(set(self._loaders) | set(self._built))

    def __contains__(self, name: object) -> bool:
        return name in self._loaders or name in self._built


LOADERS: dict[str, Loader] = {}
"""Every lazily built command of ``score``, in the order --help lists them."""


class LazyGroup(typer.core.TyperGroup):
    """Typer's group, with :data:`LOADERS` as its (lazy) command table."""

    context_class = conventions.LocalizedContext

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        conventions.tidy_params(self)
        examples.attach(self, "")
        self.commands = LazyCommands(self.commands, LOADERS)

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        conventions.localize(self, walk=False)  # its subcommands: when they are looked up
        return super().make_context(*args, **kwargs)


def _plain(info: CommandInfo) -> None:
    """``info``'s command built as a :class:`conventions.PlainCommand` (unless it or its
    function names a class of its own: cli/game_options.py's commands of one game)."""
    own = getattr(info.callback, "command_class", None)
    if own is not None:
        info.cls = own
    elif not info.cls or info.cls is typer.core.TyperCommand:  # None, or Typer's default
        info.cls = conventions.PlainCommand


def _build(info: CommandInfo) -> Command:
    """The command ``info`` registers, built by Typer's documented ``get_command`` on an
    app of that one command (which Typer builds as the command itself, not a group)."""
    if info.callback is not None and getattr(info.callback, "builds_game_group", False):
        from scorekeeper.cli import game_options  # score new GAME

        kind = type("NewCommands", (game_options.GameCommands,),
                    {"command": staticmethod(info.callback)})
        return kind(name=info.name, help=info.help, rich_markup_mode=None,
                    context_settings=info.context_settings, subcommand_metavar="GAME [ARGS]...")
    _plain(info)
    alone = typer.Typer(add_completion=False, pretty_exceptions_short=False,
                        rich_markup_mode=None)
    alone.registered_commands.append(info)
    return typer.main.get_command(alone)


def build_command(function: Callable[..., Any], *, name: str, cls: type[Any],
                  help_text: str | None) -> Command:
    """``function`` built as a command of class ``cls`` (one game's: cli/game_options.py),
    by Typer's documented ``get_command`` on an app of that one command."""
    alone = typer.Typer(add_completion=False, pretty_exceptions_short=False,
                        rich_markup_mode=None)
    alone.command(name=name, cls=cls, help=help_text)(function)
    return typer.main.get_command(alone)


def _plain_commands(app: typer.Typer) -> None:
    """Every command of ``app`` (and of its groups) built as a
    :class:`conventions.PlainCommand`."""
    for info in app.registered_commands:
        _plain(info)
    for group in app.registered_groups:
        if group.typer_instance is not None:
            _plain_commands(group.typer_instance)


def defer_registered(app: typer.Typer) -> None:
    """Move the commands registered with ``@app.command`` into :data:`LOADERS`."""
    for info in app.registered_commands:
        name = info.name or typer.main.get_command_name(getattr(info.callback, "__name__", ""))
        LOADERS[name] = lambda info=info: _build(info)  # type: ignore[misc]
    app.registered_commands.clear()


_ROOTS: dict[tuple[int, int], Command] = {}


def root_command(app: typer.Typer) -> Command:
    """``app`` as the command that runs, built once per process (a process that runs
    ``score`` many times, as the tests do, need not rebuild it each time)."""
    key = (id(app), len(LOADERS))
    if key not in _ROOTS:
        _ROOTS[key] = typer.main.get_command(app)
    return _ROOTS[key]


def command(name: str, target: str) -> None:
    """Register ``score NAME``, the function or Typer app at ``module:attribute``,
    imported only when the command runs (or --help lists it)."""

    def load() -> Command:
        module, attribute = target.split(":")
        found = getattr(importlib.import_module(module), attribute)
        if isinstance(found, typer.Typer):
            _plain_commands(found)
            group = typer.main.get_command(found)
            group.name = name
            return group
        return _build(CommandInfo(name=name, callback=found))

    LOADERS[name] = load
