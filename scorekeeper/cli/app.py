"""The ``score`` commands of CLI.md. Each parses, calls the layers below, renders.

Exit codes: 0 success, 1 a refused entry (or an unusable store), 2 a malformed
command line. A refusal is one line on stderr and leaves the store file
byte-for-byte unchanged: changes are made to an in-memory copy and written
(atomically) only when everything has been accepted.
"""

from __future__ import annotations

import contextlib
import os
import random
import shlex
import stat
import sys
from collections.abc import Callable, Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text

from scorekeeper import store as store_module
from scorekeeper import version as installed_version
from scorekeeper.card_printing import plain
from scorekeeper.cli import collector, completion, context, conventions, interrupts, lazy
from scorekeeper.cli import game_options as game_options_module
from scorekeeper.cli.context import UsageProblem, console, store, usage
from scorekeeper.cli.language import (
    complete_language,
    parse_language,
    speak_for_command_line,
)
from scorekeeper.errors import MalformedValue, ScorekeeperError
from scorekeeper.i18n import N_, _, ngettext
from scorekeeper.kit.entries import EntryError, EntryValue, RoundEntry
from scorekeeper.registry import get_game, load_installed
from scorekeeper.session import Session
from scorekeeper.store import SessionChanged, WritableStoreView
from scorekeeper.text import show_controls
from scorekeeper.views import compact, render
from scorekeeper.views.export_formats import Format

if TYPE_CHECKING:
    from scorekeeper.doctor import Health  # start-up: doctor's module is loaded on use
    from scorekeeper.unavailable import UnavailableSession

app = typer.Typer(
    cls=lazy.LazyGroup,
    name="score",
    help=N_("Keep the score of card games at the table (`score games` lists them), "
            "or play them with a virtual deck."),
    no_args_is_help=True,
    add_completion=False,  # our own options below take the shell as an optional value
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

def _version(value: bool) -> None:
    if value:
        console.print(f"scorekeeper {installed_version()}")
        raise typer.Exit()


def _show_completion(ctx: typer.Context, param: typer.CallbackParam,
                     value: str | None) -> None:
    if value is not None:
        completion.show_script(ctx, param, value)  # it exits


def _install_completion(ctx: typer.Context, param: typer.CallbackParam,
                        value: str | None) -> None:
    if value is not None:
        shell, path = completion.install(ctx, param, value)
        console.print(Text(_("{shell} completion installed in {path}; it takes effect in a "
                             "new terminal.").format(shell=shell, path=path)))
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    db: Annotated[
        Path | None,
        typer.Option("--db", help=N_("The store file (default: $SCOREKEEPER_DB, else the "
                                         "user data folder's scorekeeper.json)."),
                     dir_okay=False),
    ] = None,
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help=N_("Print the version and exit."))] = False,
    install_completion: Annotated[str | None, typer.Option(
        "--install-completion", metavar="[SHELL]", is_eager=True,
        callback=_install_completion, expose_value=False,
        help=N_("Install tab completion for SHELL (bash, zsh, fish; default: this shell)."))
    ] = None,
    show_completion: Annotated[str | None, typer.Option(
        "--show-completion", metavar="[SHELL]", is_eager=True,
        callback=_show_completion, expose_value=False,
        help=N_("Print the tab-completion script for SHELL, to install it by hand."))] = None,
    lang: Annotated[str | None, typer.Option(
        "--lang", metavar="en|da|ar", autocompletion=complete_language, help=N_(
            "The language to speak (default: $SCOREKEEPER_LANG, else the config file's "
            "language, else the locale, else en)."))] = None,
) -> None:
    collector.command_starts()
    ctx.ensure_object(dict)["db"] = db
    if lang is not None:
        parse_language(lang)  # the language itself was chosen before parsing (run)


SessionOption = Annotated[
    int | None, typer.Option("--session", "-s", help=N_("Session id (default: the current one)."),
                             autocompletion=completion.session_ids)
]
SessionArgument = Annotated[
    int | None, typer.Argument(help=N_("Session id (default: the current one)."),
                               show_default=False,
                               autocompletion=completion.session_ids)
]


# ---------------------------------------------------------------------------
# Sessions


@app.command(help=N_("Start a session; it becomes the current session."))
@game_options_module.game_subcommands
def new(
    ctx: typer.Context,
    game: str,
    stray: Annotated[list[str] | None, typer.Argument(hidden=True)] = None,
    player: Annotated[list[str] | None, typer.Option(
        "--player", "-p", help=N_("A player, in seating order (repeat; default: offer the "
                                  "last group at a terminal, else the config's usual "
                                  "players)."))] = None,
    name: Annotated[str, typer.Option("--name", help=N_("A name for the session."))] = "",
    note: Annotated[str, typer.Option("--note", help=N_("A note on the session."))] = "",
    dealer: Annotated[str | None, typer.Option(
        "--dealer", metavar="NAME", help=N_("Who deals first (default: drawn at "
                                            "random)."))] = None,
    **game_options: Any,
) -> None:
    if stray:  # score new least-score Ann Bob
        names = " ".join(f"--player {shlex.quote(each)}" for each in (*(player or ()), *stray))
        usage(_("players are given with --player: {command}").format(
            command=f"score new {game} {names}"))
    load_installed()  # a new session is where a broken plug-in is said (registry)
    rules = _game_or_usage(game)
    options = {key: value for key, value in game_options.items() if value is not None}
    game_options_module.check_house_rules(rules.name, options)
    from scorekeeper.cli import nights  # the commands at the table never load its stats

    settings = nights.load_config()  # the group's defaults; the command line wins
    options = {**settings.rules_for(rules.name), **options}
    player = player or nights.players_for_new(ctx, rules, settings)
    drawn = dealer is None and bool(player)
    if drawn:  # RULES.md: the first dealer is chosen at random
        dealer = random.SystemRandom().choice(player)
    session = Session.new(rules.name, player, name=name, options=options, dealer=dealer,
                          note=note)
    session = store(ctx).update(lambda db: db.add(session))
    options_text = render.describe_house_rules(session)
    console.print(plain(
        _("Session {id} started: {game} for {players} ({options}). It is now the current "
          "session.").format(id=session.id, game=rules.title,
                             players=", ".join(session.players), options=options_text)))
    if drawn:
        console.print(plain(_("{name} was drawn at random to deal first (--dealer NAME "
                                     "chooses).").format(name=session.first_dealer)))
    console.print(render.ending(session))


class ListFormat(StrEnum):
    """How ``score sessions`` lists the sessions."""

    TABLE = "table"
    JSON = "json"
    CSV = "csv"
    NDJSON = "ndjson"


CompactOption = Annotated[bool, typer.Option(
    "--compact", help=N_("The narrow layout, as on a phone (the default when the terminal "
                         "is narrower than the table)."))]


JsonOption = Annotated[bool, typer.Option(
    "--json", help=N_("Print one JSON object instead, for scripts."))]


@app.command(help=N_("List the sessions: id, name, game, players, rounds, status, leader."))
def sessions(ctx: typer.Context, narrow: CompactOption = False,
             as_json: JsonOption = False,
             fmt: Annotated[ListFormat, typer.Option("--format", "-f", help=N_(
                 "table, json, csv (for a spreadsheet) or ndjson (a JSON object a line)."))
             ] = ListFormat.TABLE) -> None:
    if as_json and fmt not in (ListFormat.TABLE, ListFormat.JSON):
        usage(_("--json is --format json: give one of them"))
    view = store(ctx).read()
    found = view.sessions()
    unavailable = view.unavailable()
    conflicts = _conflicts(view)
    if as_json or fmt is ListFormat.JSON:
        from scorekeeper.views import json_views  # start-up: only --json needs it

        listed = json_views.sessions_json(found, view.current_id, unavailable)
        if conflicts:
            listed["conflicts"] = conflicts
        context.stdout.write(json_views.dumps(listed))
        return
    if fmt is not ListFormat.TABLE:
        from scorekeeper.views import session_list  # start-up: only these formats need it

        write = session_list.as_csv if fmt is ListFormat.CSV else session_list.as_ndjson
        context.stdout.write(write(found, view.current_id, unavailable))
        return
    if not found and not unavailable:
        console.print(_("No sessions yet: start one with {command}.").format(
            command=f"`score new {game_options_module.first_game()} --player A --player B`"))
        return
    if found:
        console.print(compact.sessions(console, found, view.current_id, narrow))
    for session in unavailable:
        console.print(plain(compact.unavailable_line(session, view.current_id)))
    _say_conflicts(view, conflicts)


def _conflicts(view: store_module.StoreView) -> list[list[int]]:
    """The sessions `score sync` holds in conflict (nothing is loaded for a store that
    never synced: its meta has no ``sync``, scorekeeper.sync.SYNC)."""
    if view.meta_value("sync") is None:
        return []
    from scorekeeper.cli import sync_command  # start-up: only a store that synced

    return sync_command.conflicted(view)


def _say_conflicts(view: store_module.StoreView, conflicts: list[list[int]]) -> None:
    from scorekeeper.cli import sync_command  # start-up: only a store that synced

    for group in conflicts:
        console.print(Text(sync_command.conflict_line(view, group)), soft_wrap=True)


@app.command(help=N_("Make session ID the current session."))
def use(ctx: typer.Context, session_id: Annotated[int, typer.Argument(
        metavar="ID", autocompletion=completion.session_ids)]) -> None:

    def change(db: WritableStoreView) -> Session | UnavailableSession:
        db.set_current(session_id)  # when it is current already, nothing is written
        return db.get_listed(session_id)  # its game missing: current still, for `log`

    session = store(ctx).update(change)
    console.print(plain(_("Session {id} ({label}) is now the current session.").format(
        id=session.id, label=session.label)))


@app.command(help=N_("Standings and the round-by-round table of a session."))
def show(ctx: typer.Context, session_id: SessionArgument = None,
         narrow: CompactOption = False, as_json: JsonOption = False) -> None:
    view = store(ctx).read()
    session = view.get(session_id)
    conflicts = [group for group in _conflicts(view) if session.id in group]
    if as_json:
        from scorekeeper.views import json_views  # start-up: only --json needs it

        shown = json_views.show_json(session)
        if conflicts:
            shown["conflict_with"] = [i for i in conflicts[0] if i != session.id]
        context.stdout.write(json_views.dumps(shown))
        return
    console.print(compact.show(console, session, narrow))
    _say_conflicts(view, conflicts)


@app.command(help=N_("Every change to a session, with its time (a deleted session's too)."))
def log(ctx: typer.Context, session_id: SessionArgument = None,
        as_json: JsonOption = False) -> None:
    from scorekeeper.cli import nights  # start-up: the commands at the table never load its stats
    from scorekeeper.views import json_views  # start-up: loaded by the commands that print JSON

    view = store(ctx).read()
    session = nights.deleted_session(view, session_id) or view.get_listed(session_id)
    if as_json:
        context.stdout.write(json_views.dumps(json_views.log_json(session)))
        return
    console.print(render.history_table(session))


# ---------------------------------------------------------------------------
# Rounds

ValuesArgument = Annotated[
    list[str] | None,
    game_options_module.help_when_built(
        typer.Argument(metavar="NAME=VALUE...", show_default=False,
                       autocompletion=completion.player_values),
        game_options_module.values_help),
]


def _pairs(values: Sequence[str] | None) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    for item in values or ():
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            usage(_("{item} is not NAME=VALUE (e.g. Ann=7)").format(item=repr(item)))
        pairs.append((name, value))
    return pairs


def _round_change(
    ctx: typer.Context, session_id: int | None, values: Sequence[str] | None,
    fields: dict[str, EntryValue],
    apply: Callable[[Session, RoundEntry], Session], *, check: Callable[[Session], None],
    number: int | None = None,
) -> Session:
    """Enter a round into a session: ``apply(session, entry)`` -> the changed session.

    What is missing is asked first (cli/prompts.py: each answer checked as it is typed;
    for edit-round, round ``number``'s values offered), with no lock held (another
    terminal can write meanwhile); then the session is locked, re-read and, if the
    player was asked about it, must still be the session they saw (compare-and-set), or
    nothing is written. ``check`` refuses a session before anything is asked.
    """
    entry = RoundEntry(_pairs(values), **fields)
    st = store(ctx)
    seen: Session | None = None  # the session as shown to the player, if asked
    if sys.stdin.isatty():
        shown = st.read().get(session_id)
        check(shown)
        from scorekeeper.cli import prompts  # only a terminal is asked

        asked = prompts.collect(shown, entry, number=number)
        if asked != entry:
            seen, entry = shown, asked

    def change(db: WritableStoreView) -> Session:
        session = db.get(session_id if seen is None else seen.id)
        if seen is not None and session.revision != seen.revision:
            raise SessionChanged(_(
                "session {id} was changed by another score command while you were typing; "
                "nothing was recorded: look at it again (`score show`) and repeat the "
                "command").format(id=session.id))
        check(session)
        return db.put(apply(session, entry))

    return st.update(change)


@app.command("add-round", help=N_("Enter the result of a deal: the scores, totals and any "
                                   "knock-out follow."))
@game_options_module.takes(game_options_module.round_parameters)
def add_round(
    ctx: typer.Context,
    values: ValuesArgument = None,
    session_id: SessionOption = None,
    note: Annotated[str, typer.Option("--note", help=N_("A note on this round."))] = "",
    **game_options: Any,
) -> None:
    taken = None if values else _round_from_entries(ctx, session_id, game_options, note)
    if taken is not None:
        session, players = taken
        console.print(plain(_("Recorded from the players' own entries ({players}).").format(
            players=", ".join(players))))
    else:
        session = _round_change(ctx, session_id, values, game_options,
                                lambda session, entry: session.add_round(entry, note=note),
                                check=lambda session: None)
    console.print(render.round_result(session, compact.standings(console, session)))


def _round_from_entries(ctx: typer.Context, session_id: int | None,
                        fields: dict[str, EntryValue], note: str
                        ) -> tuple[Session, list[str]] | None:
    """The deal recorded from the players' own entries (``score serve --entry``), when
    there are some for the session: read under the lock the round is recorded with, so
    the round is the entries as they are; None when there are none (the round is typed).
    Refused in one line while a player has not entered (nothing changes)."""
    st = store(ctx)
    from scorekeeper import pending  # start-up: only when the entries file exists

    if not pending.entries_path(st.path).exists():
        return None
    with st.write() as db:
        session = db.get(session_id)
        entered = pending.taken(st.path, session)
        form = session.declaration.entry_form
        if not entered or form is None:
            return None
        session.check_takes_rounds()
        entry = form.round_entry(RoundEntry((), **fields), session.standings.still_in,
                                 entered)
        recorded = db.put(session.add_round(entry, note=note))
    with contextlib.suppress(ScorekeeperError):  # recorded already: nothing to refuse
        pending.drop_stale(st.path)
    return recorded, [name for name in session.standings.still_in if name in entered]


@app.command("edit-round", help=N_("Re-enter round N with add-round's arguments; later "
                                    "rounds are re-scored."))
@game_options_module.takes(game_options_module.round_parameters)
def edit_round(
    ctx: typer.Context,
    number: Annotated[int, typer.Argument(metavar="N", help=N_("The round to re-enter."))],
    values: ValuesArgument = None,
    session_id: SessionOption = None,
    **game_options: Any,
) -> None:

    def check(session: Session) -> None:  # before any prompt
        session.check_rounds_can_change("edit-round")
        session.check_round_number(number)

    session = _round_change(ctx, session_id, values, game_options,
                            lambda session, entry: session.edit_round(number, entry),
                            check=check, number=number)
    console.print(_("Round {number} re-entered; later rounds re-scored.").format(number=number))
    console.print(compact.show(console, session))


@app.command(help=N_("Remove the last round; totals, knock-outs and the winner follow."))
def undo(ctx: typer.Context, session_id: SessionOption = None) -> None:

    def change(db: WritableStoreView) -> tuple[Session, str]:
        session = db.get(session_id)
        roster = session.last_roster_change
        if roster is not None:
            removed = _("Took back: {change}. (`score redo` brings it back.)").format(
                change=roster.describe())
        else:
            removed = _("Removed {round}. (`score redo` brings it back.)").format(
                round=session.describe_round(len(session.rounds)) if session.rounds else "")
        return db.put(session.undo()), removed

    session, removed = store(ctx).update(change)
    console.print(plain(removed))
    console.print(compact.standings(console, session))
    console.print(render.ending(session))


@app.command(help=N_("Bring back what undo removed, until another change is made."))
def redo(ctx: typer.Context, session_id: SessionOption = None) -> None:
    session = store(ctx).update(lambda db: db.put(db.get(session_id).redo()))
    change = session.last_roster_change
    if change is not None and session.history[-1].get("round") is None:
        console.print(plain(_("Brought back: {change}.").format(change=change.describe())))
        console.print(compact.standings(console, session))
        console.print(render.ending(session))
        return
    console.print(render.round_result(session, compact.standings(console, session)))


# ---------------------------------------------------------------------------
# Players who join and leave between deals


@app.command("add-player", help=N_("A player joins between deals, at the game's starting "
                                    "total or --total N; a player who left comes back at "
                                    "the total they left with."))
def add_player(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="NAME", help=N_("Who joins, or comes back."),
                                        autocompletion=completion.players_to_join)],
    session_id: SessionOption = None,
    total: Annotated[int | None, typer.Option(
        "--total", metavar="N", help=N_("Their starting total (default: the game's rule, e.g. "
                                        "Least Score's highest total still in)."))] = None,
) -> None:
    session = store(ctx).update(lambda db: db.put(db.get(session_id).add_player(name, total)))
    change = session.roster[-1]
    if change.back:
        console.print(plain(_("{name} is back in {session}, in their seat, at {total}: the "
                              "total they left with.").format(
            name=change.player, session=session.label,
            total=session.standings.totals[change.player])))
    else:
        start = session.roster_rule("add-player").starting_words(
            session.rules, session.options, session.standings, change.player,
            change.total or 0)
        console.print(plain(_("{name} joins {session} {start}.").format(
            name=change.player, session=session.label, start=start)))
    console.print(compact.standings(console, session))
    console.print(render.ending(session))


@app.command("drop-player", help=N_("A player leaves between deals: their rounds stay, the "
                                     "deal passes over them."))
def drop_player(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="NAME", help=N_("Who leaves."),
                                        autocompletion=completion.players_still_in)],
    session_id: SessionOption = None,
) -> None:
    session = store(ctx).update(lambda db: db.put(db.get(session_id).drop_player(name)))
    change = session.roster[-1]
    console.print(plain(_("{name} leaves {session}; their rounds stay.").format(
        name=change.player, session=session.label)))
    console.print(compact.standings(console, session))
    console.print(render.ending(session))


# ---------------------------------------------------------------------------
# Export, import, rules


@app.command("export", help=N_("The session summary (json: the whole session with its rounds, "
                                         "which `score import` reads back)."))
def export_command(
    ctx: typer.Context,
    session_id: SessionArgument = None,
    fmt: Annotated[Format, typer.Option("--format", "-f", help=N_(
        "json, md, csv, html, or bgstats (a play file for the BG Stats app)."))] = Format.MD,
    every: Annotated[bool, typer.Option("--all", help=N_(
        "With --format bgstats: every finished table session in one file."))] = False,
    output: Annotated[Path | None, typer.Option("--output", "-o", dir_okay=False, help=N_(
        "Write to FILE instead of stdout."))] = None,
    force: Annotated[bool, typer.Option("--force", help=N_("With --output: replace FILE if "
                                                           "it exists."))] = False,
) -> None:
    from scorekeeper.views import export as exporting  # start-up: only export writes files

    st = store(ctx)
    view = st.read()
    if every:
        if fmt is not Format.BGSTATS or session_id is not None:
            usage(_("--all exports every finished session with --format bgstats, and "
                    "takes no session id"))
        finished = [each for each in view.sessions()
                    if each.mode == "table" and each.status == "finished"]
        if not finished:
            raise EntryError(_("there is no finished table session to export yet"))
        text = exporting.to_bgstats(finished)
    else:
        session = view.get(session_id)
        text = exporting.export(session, fmt.value)
        if fmt is Format.JSON and view.meta_value("sync") is not None:  # sync.SYNC
            from scorekeeper import sync as sync_module  # start-up: only a store that synced
            from scorekeeper.summary import summary_of  # start-up: only a synced store's

            assert session.id is not None
            uid = sync_module.uid_of(view, session.id)
            if uid is not None:  # its global identity: an import elsewhere knows the night
                text = exporting.json_text({**summary_of(session), "uid": uid})
    if output is None or str(output) == "-":  # '-' is stdout, as for gh, curl, sqlite-utils
        context.stdout.write(text)
        return
    _write_export(st, output, text, force=force)
    console.print(plain(_("Wrote {file} ({format}).").format(file=output,
                                                                     format=fmt.value)),
                  soft_wrap=True)


def _write_export(st: store_module.Store, output: Path, text: str, *, force: bool) -> None:
    """Write ``text`` to ``output`` atomically; never over the store or its own files."""
    owned = st.owns(output)
    if owned is not None:
        raise EntryError(_("{file} is {what} ({store}): export to another file").format(
            file=output, what=owned, store=st.path))
    try:
        status = output.stat()
    except FileNotFoundError:
        status = None
    except OSError as error:
        raise EntryError(_("can't write {file}: {reason}").format(
            file=output, reason=error.strerror or error)) from None
    if status is not None:
        if not stat.S_ISREG(status.st_mode):
            raise EntryError(_("{file} is {kind}: export to a regular file, or leave out "
                               "--output for stdout").format(
                file=output, kind=store_module.describe_kind(status.st_mode)))
        if not force:
            raise EntryError(_("{file} already exists: add --force to replace it").format(
                file=output))
    try:
        store_module.write_atomically(output, text, replace=force)
    except FileExistsError:
        raise EntryError(_("{file} already exists: add --force to replace it").format(
            file=output)) from None
    except OSError as error:
        raise EntryError(_("can't write {file}: {reason}; nothing was written").format(
            file=output, reason=error.strerror or error)) from None


@app.command("import", help=N_("Load a session from a JSON export, or past deals from a CSV "
                                "file with --game; it gets a new id and becomes current."))
@game_options_module.takes(game_options_module.house_rule_parameters,
                           game_options_module.option_game)
def import_command(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(metavar="FILE", help=N_(
        "A `score export --format json` file, or a CSV file of deals with --game ('-' for "
        "stdin)."), dir_okay=False)],
    game: Annotated[str | None, typer.Option("--game", metavar="GAME", help=N_(
        "The game of a CSV file's deals (its house rules as `score new` takes them)."),
        autocompletion=completion.games)] = None,
    name: Annotated[str, typer.Option("--name", help=N_(
        "With --game: a name for the session."))] = "",
    dealer: Annotated[str | None, typer.Option("--dealer", metavar="NAME", help=N_(
        "With --game: who dealt first (default: the first row's dealer column)."))] = None,
    again: Annotated[bool, typer.Option("--again", help=N_(
        "Import it even when the store already holds that night (a copy on purpose)."))
    ] = False,
    **game_options: Any,
) -> None:
    from scorekeeper import importing  # start-up: the table's commands never read a file
    from scorekeeper import sync as sync_module  # start-up: only import looks for the night

    given = {key: value for key, value in game_options.items() if value is not None}
    uid = None
    if game is None:
        if given or name or dealer is not None:
            usage(_("house rules, --name and --dealer go with --game GAME, for a CSV file"))
        if file.suffix.lower() == ".csv":
            usage(_("a CSV file needs --game GAME: the game its deals were played at"))
        from scorekeeper.summary import session_from_summary  # start-up: only import reads one

        data = importing.read_summary_file(file)
        session = session_from_summary(data)
        uid = data.get("uid") if isinstance(data, dict) else None
    else:
        session = _session_from_csv(file, game, given, name=name, dealer=dealer)
    session = session.logged_import(str(file))

    def add(db: WritableStoreView) -> Session:
        if not again:
            found = sync_module.already_stored(db, session, uid)
            if found is not None:
                raise EntryError(_("{file}: that night is already in the store as session "
                                   "{id}; nothing was imported (add --again to import a "
                                   "copy on purpose)").format(file=file, id=found))
        return db.add(session)

    session = store(ctx).update(add)
    rounds = len(session.rounds)
    console.print(plain(ngettext(
        "Imported {file} as session {id} ({label}, {n} round); it is now the current session.",
        "Imported {file} as session {id} ({label}, {n} rounds); it is now the current "
        "session.", rounds).format(file=file, id=session.id, label=session.label, n=rounds)))


def _session_from_csv(file: Path, game: str, given: dict[str, int | str], *, name: str,
                      dealer: str | None) -> Session:
    """The session of a CSV file's deals, checked as if each was typed with add-round."""
    from scorekeeper import csv_import, importing  # start-up: only import reads a file

    rules = _game_or_usage(game)
    game_options_module.check_house_rules(rules.name, given)
    from scorekeeper.cli import nights  # the group's defaults; the command line wins

    options = {**nights.load_config().rules_for(rules.name), **given}
    text = importing.read_text_file(file)
    try:
        return csv_import.session_from_csv(text, rules.name, options, name=name,
                                           dealer=dealer)
    except EntryError as error:
        raise EntryError(_("{file}: {reason}; nothing was imported").format(
            file=file, reason=error)) from None


def _sessions(number: int) -> str:
    return ngettext("{n} session", "{n} sessions", number).format(n=number)


def _rounds(number: int) -> str:
    return ngettext("{n} round", "{n} rounds", number).format(n=number)


def _game_or_usage(name: str) -> Any:
    try:
        return get_game(name)
    except EntryError as error:
        usage(str(error))


def _backup_line(backup: Health) -> str:
    """What ``score doctor`` found in one backup, on one line."""
    if not backup.good:
        return _("  backup {file}: damaged: {problems}").format(
            file=backup.path.name, problems="; ".join(backup.problems))
    line = _("  backup {file}: good ({sessions}, {rounds})").format(
        file=backup.path.name, sessions=_sessions(backup.sessions),
        rounds=_rounds(backup.rounds))
    if backup.missing:  # not damage: a restore would not bring the game back
        line += ngettext("; {n} session's game missing", "; {n} sessions' game missing",
                         len(backup.missing)).format(n=len(backup.missing))
    return line


@app.command(help=N_("Check the whole store (every session re-scored); restore the newest "
                     "good backup."))
def doctor(
    ctx: typer.Context,
    restore: Annotated[bool, typer.Option("--restore", help=N_(
        "Bring back the newest good backup when the store is damaged."))] = False,
    force: Annotated[bool, typer.Option("--force", help=N_(
        "With --restore: restore even a healthy store (drops its latest changes)."))] = False,
    as_json: JsonOption = False,
) -> None:
    from scorekeeper import doctor as doctor_module  # start-up: doctor's checks are its own
    from scorekeeper.views import json_views  # start-up: loaded by the commands that print JSON

    st = store(ctx)
    path = st.path
    current, backups = doctor_module.doctor(path)
    if as_json:
        report = json_views.doctor_json(current, backups)
        if restore:
            restored, kept = doctor_module.restore_newest_good_backup(st, force=force)
            report["restored"] = {"from": str(restored), "kept": None if kept is None
                                  else str(kept)}
        context.stdout.write(json_views.dumps(report))
        if not restore and current.exists and not current.good:
            raise typer.Exit(1)
        return
    if not current.exists:
        console.print(plain(_("{file} does not exist yet (an empty store).").format(
            file=path)))
    elif current.good and current.missing:
        console.print(plain(_("{file}: healthy — {sessions}, {rounds}; every one re-scored "
                              "but those whose game is missing (not damage: a restore would "
                              "not bring a game back):").format(
            file=path, sessions=_sessions(current.sessions), rounds=_rounds(current.rounds))))
    elif current.good:
        console.print(plain(_("{file}: healthy — {sessions}, {rounds}, every one "
                                     "re-scored.").format(file=path,
                                                          sessions=_sessions(current.sessions),
                                                          rounds=_rounds(current.rounds))))
    else:
        problems = len(current.problems)
        console.print(plain(ngettext("{file}: {n} problem:", "{file}: {n} problems:",
                                            problems).format(file=path, n=problems)))
        for problem in current.problems:
            console.print(plain(f"  - {problem}"))
    for missing in current.missing:
        console.print(plain(f"  - {missing}"))
    for backup in backups:
        console.print(plain(_backup_line(backup)))
    if restore:
        restored, kept = doctor_module.restore_newest_good_backup(st, force=force)
        if kept:
            done = _("Restored {backup} over {file}. The replaced file is kept as {kept}.")
        else:
            done = _("Restored {backup} over {file}.")
        console.print(plain(done.format(backup=restored.name, file=path.name,
                                               kept=kept.name if kept else "")))
        return
    if current.exists and not current.good:
        if current.newer:
            console.print(_("Upgrade scorekeeper to read it (its package is "
                            "cardnight-scorekeeper: pipx upgrade cardnight-scorekeeper)."))
        else:
            console.print(_("Run `score doctor --restore` to bring back the newest good "
                            "backup."))
        raise typer.Exit(1)


lazy.defer_registered(app)
lazy.command("rules", "scorekeeper.cli.rules_command:rules")
lazy.command("games", "scorekeeper.cli.games_command:games")
for name, target in (("stats", "stats"), ("players", "players_app"), ("rematch", "rematch"),
                     ("config", "config_app"), ("delete", "delete"), ("abandon", "abandon")):
    lazy.command(name, f"scorekeeper.cli.nights:{target}")  # loaded only when one runs
lazy.command("play", "scorekeeper.cli.virtual_commands:play")
lazy.command("replay", "scorekeeper.cli.virtual_commands:replay")
lazy.command("simulate", "scorekeeper.cli.virtual_commands:simulate")
lazy.command("review", "scorekeeper.cli.review:review")
lazy.command("serve", "scorekeeper.cli.serve:serve")
lazy.command("sync", "scorekeeper.cli.sync_command:sync")
lazy.command("help", "scorekeeper.cli.help_command:help_page")


# ---------------------------------------------------------------------------
# Running


def run(argv: Sequence[str] | None = None) -> int:
    """Run ``score`` with ``argv``; return the exit code (never raises for user errors).

    Once a write has committed, nothing printed after it can change the exit code
    (see :func:`context.finish_run`).
    """
    context.start_run()
    return context.finish_run(_run(argv))


def _run(argv: Sequence[str] | None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if {"--show-completion", "--install-completion"} & set(args):
        args = completion.shell_optional(args, lazy.LOADERS)
    try:
        speak_for_command_line(args, os.environ)  # before any help text is built
        # Not standalone: Click's usage errors come here, to be shown on one line.
        result = lazy.root_command(app).main(args=args, prog_name="score",
                                             standalone_mode=False,
                                             terminal_width=conventions.help_width())
    except SystemExit as done:
        code = done.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except typer.TyperException as malformed:  # a usage error (exit 2), or a file's (1)
        return _malformed(malformed)
    except typer.Abort:
        if sys.stdin.isatty():
            sys.stdout.write("\n")  # end the question's line
        sys.stderr.write("error: " + _("the input ended at a question (Ctrl-D): nothing was "
                                       "changed") + "\n")
        return 1
    except context.Declined:
        sys.stderr.write(_("Not confirmed: nothing was changed.") + "\n")
        return 1
    except (KeyboardInterrupt, context.Interrupted):
        context.say_interrupted()
        return 130
    except MalformedValue as malformed:  # a malformed command line, found by a game
        sys.stderr.write(f"error: {_one_line(str(malformed))}\n")
        return 2
    except ScorekeeperError as refused:  # EntryError, CardError, StoreError, ...
        sys.stderr.write(f"error: {_one_line(str(refused))}\n")
        return 1
    except BrokenPipeError:
        return 0
    # Without standalone mode an Exit (--help, --version, typer.Exit(n)) comes back as its code.
    return result if isinstance(result, int) and not isinstance(result, bool) else 0


def _malformed(malformed: typer.TyperException) -> int:
    """Typer's refusal of the command line, as one line (its help, when a group is
    given no command)."""
    if type(malformed).__name__ == "NoArgsIsHelpError":  # the message is the help page
        sys.stderr.write(malformed.format_message() + "\n")
        return malformed.exit_code
    ctx: Any = getattr(malformed, "ctx", None)
    message = malformed.message if isinstance(malformed, UsageProblem) \
        else conventions.usage_message(malformed, list(lazy.LOADERS))
    message = " ".join(message.split())
    if ctx:
        message = _("{problem} (see `{command} --help`)").format(
            problem=message, command=f"{ctx.command_path}")
    sys.stderr.write(f"error: {_one_line(message)}\n")
    return malformed.exit_code


def _one_line(text: str) -> str:
    """Control characters (a line break in an imported value, an escape code) escaped."""
    return show_controls(text)


def main() -> None:
    interrupts.guard()  # first: a Ctrl-C from here on is never lost (cli/interrupts.py)
    _reserve_standard_descriptors()
    collector.pause_until_command()  # on again in root(), the parsing done
    code = run()
    collector.process_ends()
    sys.exit(code)


def _reserve_standard_descriptors() -> None:
    """Started with stdin, stdout or stderr closed (``score ... >&-``), the store file
    could get descriptor 1 and stray output land in it: hold them with the null device."""
    for descriptor in (0, 1, 2):
        try:
            os.fstat(descriptor)
        except OSError:
            os.open(os.devnull, os.O_RDWR)  # the lowest free descriptor: this one
