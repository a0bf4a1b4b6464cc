"""The options each game declares, as command-line options of ``new``, ``add-round`` and
``edit-round``: generated from the registry, so a game added there gets its options here.

A command takes them through ``**game_options``; :func:`takes` replaces that catch-all
in the signature typer reads with one keyword option per declared option.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import inspect
from collections.abc import Callable, Iterator, Mapping
from typing import Annotated, Any, TypeVar, get_type_hints

import typer
from typer.models import ParameterInfo

from scorekeeper.cli import conventions, examples
from scorekeeper.cli.context import store, usage
from scorekeeper.i18n import N_, _
from scorekeeper.kit.declaration import GameDeclaration
from scorekeeper.kit.entries import EntryError
from scorekeeper.kit.options import HouseRuleOption
from scorekeeper.registry import DECLARATIONS, all_declarations, declaration_of

_Command = TypeVar("_Command", bound=Callable[..., Any])
_Info = TypeVar("_Info", bound=ParameterInfo)


def help_when_built(info: _Info, compose: Callable[[], str]) -> _Info:
    """``info`` (a ``typer.Option``/``typer.Argument``) with a help text composed each time
    the command is used, in the run's language (chosen after the options are made, when
    the module is imported). For help put together from the games' declarations, which no
    single catalog entry holds: see :func:`conventions.composed_help`."""
    info.help = conventions.composed_help(compose)
    return info


def is_switch(option: HouseRuleOption) -> bool:
    """A house rule with the two values off and on: taken as a switch too (``--RULE`` /
    ``--no-RULE``)."""
    return sorted(option.choices) == ["off", "on"]


def _words_of(text: str) -> Callable[[], str]:
    """An option's help in the active language (the game's words: its ``N_`` text)."""
    return lambda: _(text)


def house_rule_parameters(declaration: GameDeclaration) -> list[inspect.Parameter]:
    """The house rules of one game, as the keyword options of ``score new GAME`` (and
    ``play``, ``simulate``): a whole number, one of its named values, or a switch."""
    parameters = []
    for option in declaration.house_rules:
        helped = _words_of(option.help)
        kind: Any
        if is_switch(option):
            typed = typer.Option(f"{option.flag}/--no-{option.flag[2:]}")
            kind = bool | None
        else:
            typed = typer.Option(option.flag, metavar="N" if option.is_number
                                 else "|".join(option.choices))
            kind = int | None if option.is_number else str | None
        parameters.append(inspect.Parameter(
            option.key, inspect.Parameter.KEYWORD_ONLY, default=None,
            annotation=Annotated[kind, help_when_built(typed, helped)]))
    return parameters


def round_parameters(declaration: GameDeclaration) -> list[inspect.Parameter]:
    """The round options of one game, as the keyword options of ``add-round`` and
    ``edit-round`` on a session of that game."""
    parameters = []
    for option in declaration.round_options:
        helped = _words_of(option.help)
        metavar = None if option.kind == "switch" else option.metavar
        typed = help_when_built(typer.Option(option.flag, metavar=metavar), helped)
        if option.kind == "switch":
            parameters.append(inspect.Parameter(option.key, inspect.Parameter.KEYWORD_ONLY,
                                                default=False,
                                                annotation=Annotated[bool, typed]))
            continue
        kind: Any = int | None if option.kind == "number" else str | None
        parameters.append(inspect.Parameter(option.key, inspect.Parameter.KEYWORD_ONLY,
                                            default=None, annotation=Annotated[kind, typed]))
    return parameters


Parameters = Callable[[GameDeclaration], list[inspect.Parameter]]
Finder = Callable[[Any, list[str]], GameDeclaration | None]
"""How a command finds its game before parsing: from its parent context (the ``score``
group's, with ``--db``) and its own arguments; None when it can't (no game named, no
session): then the command takes none of the games' options."""

_OWN_KIND = {house_rule_parameters.__name__: N_("house rule"),
             round_parameters.__name__: N_("round option")}


def _keys_of(parameters: Parameters, declaration: GameDeclaration) -> list[str]:
    if parameters is house_rule_parameters:
        return [option.key for option in declaration.house_rules]
    return [option.key for option in declaration.round_options]


def _own_parameters(command: Callable[..., Any]) -> list[inspect.Parameter]:
    hints = get_type_hints(command, include_extras=True)
    return [parameter.replace(annotation=hints[parameter.name])
            for parameter in inspect.signature(command).parameters.values()
            if parameter.kind is not inspect.Parameter.VAR_KEYWORD]


def for_game(command: Callable[..., Any], declaration: GameDeclaration,
             parameters: Parameters, fixed: Mapping[str, object] | None = None
             ) -> Callable[..., Any]:
    """``command`` (which ends in ``**game_options``) as a function of its own parameters
    (but those ``fixed``) and ``declaration``'s options: what Typer builds one game's
    command from. A switch house rule reaches ``command`` as its value, ``on``/``off``."""
    fixed = fixed or {}
    own = [parameter for parameter in _own_parameters(command) if parameter.name not in fixed]
    taken = {parameter.name for parameter in own} | set(fixed)
    generated = [parameter for parameter in parameters(declaration)
                 if parameter.name not in taken]  # never shadows the command's own
    switches = {option.key for option in declaration.house_rules if is_switch(option)} \
        if parameters is house_rule_parameters else set()

    def run(**given: Any) -> Any:
        for key in switches & set(given):
            if given[key] is not None:
                given[key] = "on" if given[key] else "off"
        return command(**fixed, **given)

    signature = inspect.Signature([*own, *generated], return_annotation=None)
    run.__signature__ = signature  # type: ignore[attr-defined]
    run.__annotations__ = {parameter.name: parameter.annotation
                           for parameter in signature.parameters.values()}
    run.__name__ = command.__name__
    run.__doc__ = command.__doc__
    return run


def _owners(flag: str, parameters: Parameters) -> list[str]:
    """The games whose options (of this kind) have ``flag`` (``--no-X`` counts as
    ``--X`` for a switch house rule)."""
    key = flag.removeprefix("--").replace("-", "_")
    keys = {key, key.removeprefix("no_")}
    return [declaration.title for declaration in DECLARATIONS.values()
            if keys & set(_keys_of(parameters, declaration))]


class GameCommand(conventions.PlainCommand):
    """One game's command (``score new hearts``; ``add-round`` on a session of Hearts):
    the command's own options and that game's. An option of another game is a malformed
    command line that names the game it belongs to."""

    game: GameDeclaration | None = None
    parameters: Parameters = house_rule_parameters
    unknown_game: Exception | None = None
    """Why the game could not be found (for a command that finds it: the store's
    refusal), said when the command line gives a game's option anyway."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        try:
            return list(super().parse_args(ctx, self._switch_words(args)))
        except typer.TyperException as error:
            option = getattr(error, "option_name", None)
            if type(error).__name__ != "NoSuchOption" or not isinstance(option, str):
                raise
            owners = _owners(option, type(self).parameters)
            if not owners:
                raise
            if self.game is None and self.unknown_game is not None:
                raise self.unknown_game from None
            kind = _(_OWN_KIND[type(self).parameters.__name__])
            if self.game is None:
                usage(_("{option} is a {kind} of {owners}: give it after the game's name "
                        "({command} GAME ... {option})").format(
                    option=option, kind=kind, owners=_all_of(owners),
                    command=ctx.command_path))
            usage(_("{option} is a {kind} of {owners}, not of {game}").format(
                option=option, kind=kind, owners=_all_of(owners), game=self.game.title))

    @contextlib.contextmanager
    def help_scope(self) -> Iterator[None]:
        """While its help is composed: about this command's game (:func:`values_help`)."""
        shown = _SHOWN.set(self.game)
        try:
            yield
        finally:
            _SHOWN.reset(shown)

    def _switch_words(self, args: list[str]) -> list[str]:
        """``--RULE on`` as ``--RULE`` (and ``--RULE off`` as ``--no-RULE``) for a switch
        house rule: the spelling with a value still reads."""
        if self.game is None or type(self).parameters is not house_rule_parameters:
            return args
        flags = {option.flag for option in self.game.house_rules if is_switch(option)}
        words: list[str] = []
        for word in args:
            value = word.strip().lower()
            if words and words[-1] in flags and value in ("on", "off"):
                words[-1] = words[-1] if value == "on" else f"--no-{words[-1][2:]}"
                continue
            if words and words[-1] in flags and value and not value.startswith("-") \
                    and "=" not in value:
                usage(_("{flag} is a switch: {flag} (on) or {no_flag} (off), not {value}")
                      .format(flag=words[-1], no_flag=f"--no-{words[-1][2:]}",
                              value=repr(word)))
            words.append(word)
        return words


_BUILT: dict[tuple[int, str, int], Any] = {}


def game_command(command: Callable[..., Any], declaration: GameDeclaration,
                 parameters: Parameters, *, name: str, fixed: Mapping[str, object] | None = None,
                 help_text: str | None = None,
                 epilog: Callable[[], str] | None = None) -> Any:
    """The Click command of ``command`` for one game (built once per process), its help
    ending with ``epilog()`` (composed in each run's language), else with the examples
    of command ``name``."""
    from scorekeeper.cli import lazy  # it registers the commands: imported when one runs

    key = (id(command), declaration.name, id(declaration))
    if key not in _BUILT:
        kind = type(f"{declaration.title}Command", (GameCommand,),
                     {"game": declaration, "parameters": staticmethod(parameters)})
        built = lazy.build_command(
            for_game(command, declaration, parameters, fixed), name=name, cls=kind,
            help_text=help_text)
        if epilog is not None:
            built.epilog = conventions.composed_help(epilog)
        else:  # one game's add-round, play...: the command's own examples
            examples.attach(built, name)
        conventions.tidy_help(built)
        _BUILT[key] = built
    with _BUILT[key].help_scope():  # this run's language (as cli/lazy.py does), its game's
        conventions.localize(_BUILT[key])
    return _BUILT[key]


def takes(parameters: Parameters, find: Finder | None = None
          ) -> Callable[[_Command], _Command]:
    """Give ``command`` (which ends in ``**game_options``) the options of one game, the
    game ``find`` finds on the command line (``parameters`` are that game's options): it
    is built as a :class:`GameCommand` that, made for a run, becomes that game's."""
    finder = find or (named_game if parameters is house_rule_parameters else session_game)

    def install(command: _Command) -> _Command:
        signature = inspect.Signature(_own_parameters(command), return_annotation=None)
        original = functools.partial(command)

        class Finding(GameCommand):
            def make_context(self, info_name: str | None, args: list[str],
                             parent: Any = None, **extra: Any) -> Any:
                self.unknown_game = None
                try:
                    found = finder(parent, list(args))
                except Exception as error:  # said if the command line gives a game's option
                    found, self.unknown_game = None, error
                if found is None:
                    return super().make_context(info_name, args, parent=parent, **extra)
                chosen = game_command(original.func, found, parameters,
                                      name=self.name or "",
                                      help_text=conventions.english_help(self))
                return chosen.make_context(info_name, args, parent=parent, **extra)

        Finding.parameters = staticmethod(parameters)
        command.__signature__ = signature  # type: ignore[attr-defined]
        command.__annotations__ = {parameter.name: parameter.annotation
                                   for parameter in signature.parameters.values()}
        setattr(command, COMMAND_CLASS, Finding)
        return command

    return install


COMMAND_CLASS = "command_class"
"""The attribute of a command's function naming the class it is built as (cli/lazy.py)."""


def named_game(parent: Any, args: list[str]) -> GameDeclaration | None:
    """The game a command line names (``score play hearts ...``): its first word that is
    the name of a game."""
    words = [word.strip().lower() for word in args[:args.index("--")] if "--" in args] \
        if "--" in args else [word.strip().lower() for word in args]
    words = [word for word in words if word and not word.startswith("-")]
    found = next((word for word in words if word in DECLARATIONS), None)
    if found is None and words:
        found = next((word for word in words if word in all_declarations()), None)
    return None if found is None else DECLARATIONS[found]


def option_game(parent: Any, args: list[str]) -> GameDeclaration | None:
    """``score import``'s game: the one its ``--game`` names (None for an unknown name: the
    command refuses it). A house rule with no ``--game`` is malformed: it is said when the
    command line gives one."""
    for index, word in enumerate(args):
        if word == "--game" and index + 1 < len(args):
            named = args[index + 1]
        elif word.startswith("--game="):
            named = word.partition("=")[2]
        else:
            continue
        key = named.strip().lower()
        return DECLARATIONS[key] if key in DECLARATIONS or key in all_declarations() else None
    usage(_("house rules, --name and --dealer go with --game GAME, for a CSV file"))


def played_game(parent: Any, args: list[str]) -> GameDeclaration | None:
    """``score play``'s game: the one it names, else that of the session ``--resume ID``
    continues."""
    named = named_game(parent, args)
    if named is not None or not any(word.startswith("--resume") for word in args):
        return named
    return session_game(parent, args, option="--resume", short=None)


def session_game(parent: Any, args: list[str], option: str = "--session",
                 short: str | None = "-s") -> GameDeclaration | None:
    """The game of the session a command line names (``--session ID``, else the current
    one), read from the store without reading the session whole."""
    session_id = None
    for index, word in enumerate(args):
        if word in (option, short) and index + 1 < len(args):
            session_id = args[index + 1]
        elif word.startswith(f"{option}="):
            session_id = word.partition("=")[2]
        elif short and word.startswith(short) and len(word) > 2 and not word.startswith("--"):
            session_id = word[2:]
    if parent is None or (session_id is None and option != "--session"):
        return None
    try:
        wanted_id = None if session_id is None else int(session_id)
    except ValueError:  # the command's parsing says so
        return None
    view = store(parent).read()
    wanted = view.current_id if wanted_id is None else wanted_id
    if wanted is None or wanted not in view.session_ids():
        view.get(wanted)  # its refusal: no session, no such session
        return None
    document = view.opened.sessions.get(doc_id=wanted)
    game = document.get("game") if document is not None else None
    try:
        if not isinstance(game, str):
            raise EntryError(_("session {id} names no game").format(id=wanted))
        return declaration_of(game)
    except EntryError:  # damaged, or its game not installed: the store's refusal says so
        view.get(wanted)
        raise


def game_subcommands(command: _Command) -> _Command:
    """``score new``: each game a subcommand of its own (:class:`GameCommands`), built from
    ``command`` (which takes ``game`` and ends in ``**game_options``) with the game fixed."""
    setattr(command, BUILDS_GROUP, True)
    return command


BUILDS_GROUP = "builds_game_group"
"""The attribute of a command's function that has it built as a :class:`GameCommands`."""


class GameCommands(typer.core.TyperGroup):
    """``score new GAME``: every game (built-in, plug-in, the group's own) a subcommand,
    each built when it is looked up, with that game's house rules."""

    context_class = conventions.LocalizedContext
    command: Callable[..., Any]

    def list_commands(self, ctx: Any) -> list[str]:
        return list(all_declarations())

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        try:
            declaration = declaration_of(cmd_name)
        except EntryError:
            return None
        built = game_command(self.command, declaration, house_rule_parameters,
                             name=declaration.name, fixed={"game": declaration.name},
                             help_text=declaration.description,
                             epilog=lambda: examples.of_game(declaration))
        return built

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if not args and not ctx.resilient_parsing:
            usage(_("{command} needs GAME: {games} (`{command} GAME --help` lists its "
                    "house rules)").format(command=ctx.command_path,
                                           games=_(" or ").join(all_declarations())))
        return list(super().parse_args(ctx, args))

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name = args[0] if args else ""
        if not name.startswith("-") and not ctx.resilient_parsing:  # a Tab press: no error
            try:
                declaration_of(name)
            except EntryError as unknown:
                usage(str(unknown))
        return super().resolve_command(ctx, args)


_SHOWN: contextvars.ContextVar[GameDeclaration | None] = contextvars.ContextVar(
    "scorekeeper_game_shown", default=None)
"""The game whose command's help is being composed (:func:`game_command`), if any."""


def values_help() -> str:
    """What ``NAME=VALUE`` is: the game's own words on one game's command (``add-round``
    on a session of it), else in general terms (in the active language: see
    :func:`help_when_built`)."""
    shown = _SHOWN.get()
    if shown is None:
        return _("each player's result of the deal, as the session's game takes it "
                 "(Ann=7); on a session, this help says its game's")
    return _("{values}.").format(values=_("{game}: {help}").format(
        game=shown.title, help=_(shown.values_help)))


def _all_of(names: list[str]) -> str:
    """``a, b and c`` in the active language."""
    if len(names) < 2:
        return "".join(names)
    return _("{first} and {second}").format(first=", ".join(names[:-1]), second=names[-1])


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


def check_house_rules(game: str, options: Mapping[str, object]) -> None:
    """A malformed command line (exit 2) when an option is not one of the game's house
    rules (``--limit`` for One Card), or a named house rule is given a value that is none
    of its names (as a number option given ``x`` is)."""
    declaration = declaration_of(game)
    allowed = {option.key: option for option in declaration.house_rules}
    for key, value in options.items():
        option = allowed.get(key)
        if option is not None and option.choices \
                and str(value).strip().lower() not in option.choices \
                and not _stored_spelling(declaration, key, value):
            usage(_("{flag} must be {choices}, not {value}").format(
                flag=option.flag, choices=_(" or ").join(option.choices), value=repr(value)))
        if option is None:
            owners = [other.title for other in DECLARATIONS.values()
                      if any(option.key == key for option in other.house_rules)]
            usage(_("{option} is a {kind} of {owners}, not of {game}").format(
                option=f"--{key.replace('_', '-')}", kind=_("house rule"),
                owners=_all_of(owners) or _("no game"), game=declaration.title))


def _stored_spelling(declaration: GameDeclaration, key: str, value: object) -> bool:
    """Whether ``value`` is a value of house rule ``key`` as sessions store it, though
    not as the command line names it (a value the game's table still reads)."""
    try:
        declaration.table.check_options({key: value})
    except EntryError:
        return False
    return True


def first_house_rule() -> str:
    """An example ``GAME.RULE`` for ``score config set``."""
    declaration = next(iter(DECLARATIONS.values()))
    return f"{declaration.name}.{declaration.house_rules[0].key}"
