"""``score review ID``: the best bot's review of each decision of a saved virtual game.

Thin: :mod:`scorekeeper.review` computes, :mod:`scorekeeper.views.review_view` renders.
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from typing import Annotated

import typer
from rich.console import Console

from scorekeeper import review as review_module
from scorekeeper.cli.context import console, store, usage
from scorekeeper.i18n import N_, _
from scorekeeper.views import review_view


class ReviewFormat(StrEnum):
    MD = "md"
    HTML = "html"


def review(
    ctx: typer.Context,
    session_id: Annotated[int, typer.Argument(metavar="ID", help=N_("A virtual session."))],
    player: Annotated[str | None, typer.Option("--player", "-p", help=N_(
        "Only this player (default: the human players; in a game of bots, everyone)."))
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help=N_("The review as JSON."))] = False,
    fmt: Annotated[ReviewFormat | None, typer.Option("--format", "-f", help=N_(
        "md or html instead of the terminal's view."))] = None,
) -> None:
    if as_json and fmt is not None:
        usage(_("--json and --format can't go together: pick one"))
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    session = store(ctx).read().get(session_id)
    review_module.coach_of(session)  # refuse a table session before anything else
    reviewed = review_module.reviewed_players(session, player)
    err_console = Console(stderr=True, highlight=False)
    try:
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), console=err_console, transient=True,
                      disable=not err_console.is_terminal) as progress:
            task = progress.add_task(_("Reviewing"),
                                     total=review_module.actions_to_weigh(session, reviewed))
            result = review_module.review(session, player,
                                          lambda done: progress.advance(task, done))
    except KeyboardInterrupt:
        err_console.print(_("Review stopped."))
        raise typer.Exit(130) from None
    if as_json:
        sys.stdout.write(json.dumps(result.as_json(), ensure_ascii=False, indent=2) + "\n")
    elif fmt is ReviewFormat.MD:
        sys.stdout.write(review_view.to_markdown(result))
    elif fmt is ReviewFormat.HTML:
        sys.stdout.write(review_view.to_html(result))
    else:
        console.print(review_view.renderables(result))


review.__doc__ = N_("The best bot's review of each decision in a saved virtual game: "
                    "mistakes, points given away, the costliest positions.")
