"""``score help [COMMAND]``: the same page as ``score [COMMAND] --help``."""

from __future__ import annotations

from typing import Annotated

import typer

from scorekeeper.i18n import N_, _


def help_page(ctx: typer.Context, words: Annotated[list[str] | None, typer.Argument(
        metavar="[COMMAND]...", show_default=False,
        help=N_("The command (and subcommand) whose help to show; none: score's own."))]
              = None) -> None:
    context = ctx.find_root()
    command = context.command
    for word in words or []:
        found = command.get_command(context, word) if hasattr(command, "get_command") \
            else None
        if found is None:
            raise typer.BadParameter(_("there is no command {name}: `score --help` lists "
                                       "them").format(name=repr(word)))
        context = found.context_class(found, info_name=word, parent=context)
        command = found
    typer.echo(context.get_help())


help_page.__doc__ = N_("Show a command's help: `score help add-round` is `score add-round "
                       "--help`; no command: score's own.")
