"""``score games``: every game ``score new`` takes, built-in, plug-in or the group's own
(files in the config folder's ``games/``), with its title, players, where it comes from
and its house rules with their defaults."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated

import typer

from scorekeeper.cli.context import console, stdout
from scorekeeper.i18n import N_, _, pgettext
from scorekeeper.kit.declaration import GameDeclaration
from scorekeeper.kit.rounds import JSONObject
from scorekeeper.registry import BUILT_IN, GROUP_FILE, ORIGINS, PLUG_IN, all_declarations
from scorekeeper.views.games_list import games_view


def origin_of(declaration: GameDeclaration) -> str:
    """``built-in``, ``plug-in`` or ``file`` (FORMAT-like key words, as ``--json`` says)."""
    return ORIGINS.get(declaration.name, PLUG_IN)


def origin_text(declaration: GameDeclaration) -> str:
    origin = origin_of(declaration)
    if origin == BUILT_IN:
        return pgettext("where a game comes from", "built-in")
    if origin == GROUP_FILE:
        return _("the group's file {path}").format(path=declaration.origin)
    return pgettext("where a game comes from", "plug-in")


def games_json(declarations: Mapping[str, GameDeclaration]) -> list[JSONObject]:
    return [{
        "name": declaration.name,
        "title": declaration.title,
        "description": _(declaration.description) if declaration.description else "",
        "players": {"min": declaration.table.min_players,
                    "max": declaration.table.max_players},
        "origin": origin_of(declaration),
        "file": declaration.origin or None,
        "house_rules": [{"key": option.key, "option": option.flag,
                         "default": option.default, "choices": list(option.choices),
                         "help": _(option.help)}
                        for option in declaration.house_rules],
    } for declaration in declarations.values()]


def games(as_json: Annotated[bool, typer.Option(
        "--json", help=N_("Print one JSON object instead, for scripts."))
                            ] = False) -> None:
    declarations = all_declarations()
    if as_json:
        import json

        stdout.write(json.dumps({"games": games_json(declarations)}, ensure_ascii=False,
                                indent=2) + "\n")
        return
    origins = {name: origin_text(declaration) for name, declaration in declarations.items()}
    console.print(games_view(declarations, origins, console.width))
    console.print(_("Start one with {command}; its rules: {rules}.").format(
        command="`score new GAME --player A --player B`", rules="`score rules GAME`"))


games.__doc__ = N_("List every game: built-in, plug-in and the group's own, with their house "
                   "rules.")  # the command's help (a docstring can't be extracted)
