"""The options each game declares, as command-line options of ``new``, ``add-round`` and
``edit-round``: generated from the registry, so a game added there gets its options here.

A command takes them through ``**game_options``; :func:`takes` replaces that catch-all
in the signature typer reads with one keyword option per declared option.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Annotated, Any, TypeVar, get_type_hints

import typer
from typer.models import ParameterInfo

from scorekeeper.cli import completion, conventions
from scorekeeper.cli.context import usage
from scorekeeper.i18n import _
from scorekeeper.kit.options import HouseRuleOption, RoundOption
from scorekeeper.registry import DECLARATIONS, declaration_of

_Command = TypeVar("_Command", bound=Callable[..., Any])
_Info = TypeVar("_Info", bound=ParameterInfo)


def help_when_built(info: _Info, compose: Callable[[], str]) -> _Info:
    """``info`` (a ``typer.Option``/``typer.Argument``) with a help text composed each time
    the command is used, in the run's language (chosen after the options are made, when
    the module is imported). For help put together from the games' declarations, which no
    single catalog entry holds: see :func:`conventions.composed_help`."""
    info.help = conventions.composed_help(compose)
    return info


def _titled(helps: list[tuple[str, str]]) -> str:
    return " ".join(_("{game}: {help}").format(game=title, help=_(text))
                    for title, text in helps)


def house_rule_parameters() -> list[inspect.Parameter]:
    """``score new``'s house-rule options: one per key any game declares."""
    found: dict[str, list[tuple[str, HouseRuleOption]]] = {}
    for declaration in DECLARATIONS.values():
        for option in declaration.house_rules:
            found.setdefault(option.key, []).append((declaration.title, option))
    parameters = []
    for key, declared in found.items():
        options = [option for _, option in declared]
        number = all(option.is_number for option in options)
        choices = list(dict.fromkeys(choice for option in options for choice in option.choices))
        helps = [(title, option.help) for title, option in declared]
        typed = help_when_built(
            typer.Option(options[0].flag, metavar=None if number else "|".join(choices)),
            lambda helps=helps: _titled(helps))  # type: ignore[misc]
        kind: Any = int | None if number else str | None
        parameters.append(inspect.Parameter(key, inspect.Parameter.KEYWORD_ONLY, default=None,
                                            annotation=Annotated[kind, typed]))
    return parameters


def round_parameters() -> list[inspect.Parameter]:
    """``add-round``'s round options: one per key any game declares."""
    found: dict[str, list[tuple[str, RoundOption]]] = {}
    for declaration in DECLARATIONS.values():
        for option in declaration.round_options:
            found.setdefault(option.key, []).append((declaration.title, option))
    parameters = []
    for key, declared in found.items():
        option = declared[0][1]
        metavar = None if option.kind == "switch" else option.metavar
        helps = [(title, each.help) for title, each in declared]
        typed = help_when_built(typer.Option(option.flag, metavar=metavar),
                                lambda helps=helps: _titled(helps))  # type: ignore[misc]
        if option.kind == "switch":
            parameters.append(inspect.Parameter(key, inspect.Parameter.KEYWORD_ONLY,
                                                default=False,
                                                annotation=Annotated[bool, typed]))
            continue
        kind: Any = int | None if option.kind == "number" else str | None
        parameters.append(inspect.Parameter(key, inspect.Parameter.KEYWORD_ONLY, default=None,
                                            annotation=Annotated[kind, typed]))
    return parameters


_COMPLETES: dict[str, Callable[..., list[Any]]] = {
    house_rule_parameters.__name__: completion.named_game_options,
    round_parameters.__name__: completion.session_game_options,
}
"""The options a Tab press offers, by the options a command takes: the house rules of
the game on the line (``new GAME``), the round options of the session's game."""


def values_help() -> str:
    """What ``NAME=VALUE`` is, game by game (in the active language: see
    :func:`help_when_built`)."""
    return _("{values}.").format(values="; ".join(
        _("{game}: {help}").format(game=declaration.title, help=_(declaration.values_help))
        for declaration in DECLARATIONS.values()))


def takes(parameters: Callable[[], list[inspect.Parameter]]) -> Callable[[_Command], _Command]:
    """Give ``command`` (which ends in ``**game_options``) the generated ``parameters``;
    a Tab press offers only one game's of them (:data:`_COMPLETES`)."""

    def install(command: _Command) -> _Command:
        hints = get_type_hints(command, include_extras=True)
        own = [parameter.replace(annotation=hints[parameter.name])
               for parameter in inspect.signature(command).parameters.values()
               if parameter.kind is not inspect.Parameter.VAR_KEYWORD]
        generated = parameters()
        signature = inspect.Signature([*own, *generated], return_annotation=None)
        command.__signature__ = signature  # type: ignore[attr-defined]
        # what narrows a Tab press's options (Typer's wrapper of the command keeps it)
        setattr(command, conventions.COMPLETES_OPTIONS, _COMPLETES[parameters.__name__])
        command.__annotations__ = {parameter.name: parameter.annotation
                                   for parameter in signature.parameters.values()}
        return command

    return install


def either(choices: list[str], joiner: str = ", ") -> str:
    """``a, b or c`` in the active language (the choices themselves are typed words).

    >>> either(["random", "greedy", "strong"]), either(["a", "b", "c"], joiner="")
    ('random, greedy or strong', 'a or b or c')
    """
    if len(choices) < 2:
        return "".join(choices)
    if not joiner:
        return functools.reduce(lambda some, last: either([some, last]), choices)
    return _("{first} or {last}").format(first=joiner.join(choices[:-1]),
                                         last=choices[-1])


def game_names(joiner: str | None = None) -> str:
    """The games by name, as a command line takes them (``a or b``; ``a|b`` with
    ``joiner="|"``)."""
    if joiner is not None:
        return joiner.join(DECLARATIONS)
    return either(list(DECLARATIONS), joiner="")


def game_help() -> str:
    """The help of a GAME argument: the games' names (compose it when the command is
    built: :func:`help_when_built`)."""
    return _("{games}.").format(games=game_names())


def bot_levels() -> str:
    """The bot levels the games offer: ``random, greedy or strong``."""
    return either(list(dict.fromkeys(level for declaration in DECLARATIONS.values()
                                     for level in declaration.bots)))


def first_game() -> str:
    """The game an example command line names: the first that two players can play (the
    examples give two, ``--player A --player B``)."""
    return next((name for name, declaration in DECLARATIONS.items()
                 if declaration.table.min_players <= 2), next(iter(DECLARATIONS)))


def check_house_rules(game: str, options: dict[str, Any]) -> None:
    """A malformed command line (exit 2) when an option is not one of the game's house
    rules (``--limit`` for One Card), or a named house rule is given a value that is none
    of its names (as a number option given ``x`` is)."""
    declaration = declaration_of(game)
    allowed = {option.key: option for option in declaration.house_rules}
    for key, value in options.items():
        option = allowed.get(key)
        if option is not None and option.choices \
                and str(value).strip().lower() not in option.choices:
            usage(_("{flag} must be {choices}, not {value}").format(
                flag=option.flag, choices=_(" or ").join(option.choices), value=repr(value)))
        if option is None:
            owners = [other.title for other in DECLARATIONS.values()
                      if any(option.key == key for option in other.house_rules)]
            flags = ", ".join(option.flag for option in declaration.house_rules) \
                or _("none")
            usage(_("{option} is a {owners} option, not one of {game} (its options: "
                    "{flags})").format(
                option=f"--{key.replace('_', '-')}",
                owners=functools.reduce(lambda some, last: _("{first} and {second}").format(
                    first=some, second=last), owners),
                game=declaration.title, flags=flags))


def first_house_rule() -> str:
    """An example ``GAME.RULE`` for ``score config set``."""
    declaration = next(iter(DECLARATIONS.values()))
    return f"{declaration.name}.{declaration.house_rules[0].key}"
