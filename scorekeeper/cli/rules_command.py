"""``score rules GAME``: the rules text in the user's language, then the house rules in force.

The texts are the game's package files (``games/<game>/rules/<language>.md``); the
house rules come from the session asked for, else the current session when it is of
this game, else the game's defaults. The output is Markdown: rendered at a terminal,
as it is when piped or saved.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer
from rich.markdown import Markdown

from scorekeeper.cli import completion
from scorekeeper.cli.context import console, store, usage
from scorekeeper.cli.game_options import game_help, help_when_built
from scorekeeper.cli.language import language
from scorekeeper.i18n import N_, _
from scorekeeper.kit.entries import EntryError
from scorekeeper.kit.options import read_rules_text
from scorekeeper.kit.rounds import JSONObject
from scorekeeper.kit.standings import TableGame
from scorekeeper.registry import get_game
from scorekeeper.session import Session
from scorekeeper.store import StoreView

SESSION_HEADING = N_("House rules of this session")
DEFAULTS_HEADING = N_("House rules (defaults)")


def rules(
    ctx: typer.Context,
    game: Annotated[str, help_when_built(typer.Argument(autocompletion=completion.games),
                                         game_help)],
    session_id: Annotated[int | None, typer.Option(
        "--session", "-s", help=N_("Show that session's house rules (default: the current "
                                   "session's, when it is of this game)."),
        autocompletion=completion.session_ids)] = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help=N_("One JSON object: the house rules in force and the rules text."))
                       ] = False,
) -> None:
    try:
        table = get_game(game)
    except EntryError as error:
        usage(str(error))
    session = _session_for(store(ctx).read(), table, session_id)
    speaking = language()
    stored = dict(session.stored_options) if session is not None \
        else table.default_options()
    options = session.options if session is not None else table.parse_options(stored)
    house_rules = table.house_rules(options, speaking)
    text = read_rules_text(table.rules_folder, speaking)
    if as_json:
        document: JSONObject = {
            "game": table.name,
            "title": table.title,
            "language": speaking.value,
            "session": session.id if session is not None else None,
            "options": stored,
            "house_rules": [
                {"key": rule.key, "option": rule.option, "value": rule.value,
                 "default": rule.default, "description": rule.description}
                for rule in house_rules
            ],
            "text": text,
        }
        sys.stdout.write(json.dumps(document, ensure_ascii=False, indent=2) + "\n")
        return
    heading = _(SESSION_HEADING if session is not None else DEFAULTS_HEADING)
    block = "\n".join(f"- `{rule.as_typed}`: {rule.description}" for rule in house_rules)
    markdown = f"{text.rstrip()}\n\n## {heading}\n\n{block}\n"
    if console.is_terminal:
        console.print(Markdown(markdown))
    else:
        sys.stdout.write(markdown)


rules.__doc__ = N_("The rules as the engine applies them (score --lang en|da|ar), with the "
                   "house rules.")  # the command's help (a docstring can't be extracted)


def _session_for(view: StoreView, table: TableGame[Any], session_id: int | None) -> Session | None:
    """The session whose house rules to show, or None for the defaults."""
    if session_id is not None:
        session = view.get(session_id)
        if session.game != table.name:
            raise EntryError(_("session {id} is {game}, not {other}").format(
                id=session_id, game=session.rules.title, other=table.title))
        return session
    if view.current_id is None:
        return None
    try:
        current = view.get()
    except EntryError:
        return None
    return current if current.game == table.name else None
