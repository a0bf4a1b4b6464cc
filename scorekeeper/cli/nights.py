"""Every night remembered: ``score stats``, ``players``, ``rematch``, ``config``,
``delete`` and ``abandon``, and the group's defaults for ``score new``.

Commands that ask a question (``delete`` at a terminal, ``new`` offering the last
group) ask before taking the store's lock, then check under the lock that what they
read is still what is stored.
"""

from __future__ import annotations

import contextlib
import gc
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from datetime import date
from enum import StrEnum
from typing import Annotated, Any, TypeVar

import typer
from rich.table import Table
from rich.text import Text

from scorekeeper import config as config_module
from scorekeeper import players as players_module
from scorekeeper.card_printing import plain
from scorekeeper.cli import completion
from scorekeeper.cli.context import console, store, usage
from scorekeeper.cli.game_options import first_house_rule, game_names, help_when_built
from scorekeeper.i18n import N_, _, ngettext, pgettext
from scorekeeper.kit.entries import EntryError
from scorekeeper.kit.roster import next_seat
from scorekeeper.kit.standings import TableGame
from scorekeeper.registry import GameMissing, get_game
from scorekeeper.session import Session, deleted_document, now_iso
from scorekeeper.stats import StatsQuery, as_json, chronological, compute
from scorekeeper.store import PLAYER_CHANGES, StoreView, WritableStoreView
from scorekeeper.text import show_controls
from scorekeeper.unavailable import UnavailableSession
from scorekeeper.views import render

_Command = TypeVar("_Command", bound=Callable[..., Any])


def command_help(text: str) -> Callable[[_Command], _Command]:
    """The help of a command registered with ``lazy.command``, which typer reads from the
    docstring: given as ``N_("...")`` here because a docstring can't be extracted for
    translation."""

    def mark(command: _Command) -> _Command:
        command.__doc__ = text
        return command

    return mark


def _say(text: str) -> None:
    """A line of plain text: names in it are data, never markup."""
    console.print(Text(text))


# ---------------------------------------------------------------------------
# score stats


class StatsFormat(StrEnum):
    MD = "md"
    HTML = "html"


def _date(text: str | None, option: str) -> date | None:
    if text is None:
        return None
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        usage(_("{option} takes a date as YYYY-MM-DD, not {text}").format(option=option,
                                                                         text=repr(text)))


@command_help(N_("Statistics over finished sessions: wins, places, streaks, each game's "
                  "figures, ratings."))
def stats(
    ctx: typer.Context,
    game: Annotated[str | None, help_when_built(typer.Option("--game", "-g"),
                                                lambda: _("{games} (default: all).").format(
                                                    games=game_names()))] = None,
    since: Annotated[str | None, typer.Option("--since", metavar="DATE", help=N_(
        "Sessions started on or after DATE (YYYY-MM-DD)."))] = None,
    until: Annotated[str | None, typer.Option("--until", metavar="DATE", help=N_(
        "Sessions started on or before DATE."))] = None,
    player: Annotated[list[str] | None, typer.Option(
        "--player", "-p", help=N_("Show only these players (repeat); their figures still "
                                  "count every game they played."))] = None,
    vs: Annotated[bool, typer.Option("--vs", help=N_("Add the head-to-head matrix."))] = False,
    virtual: Annotated[bool, typer.Option("--virtual", help=N_(
        "Count games on the virtual deck too (`score play`); bots are listed apart, "
        "never ranked among the people."))] = False,
    json_out: Annotated[bool, typer.Option("--json", help=N_("The statistics as JSON."))
                        ] = False,
    fmt: Annotated[StatsFormat | None, typer.Option("--format", "-f", help=N_(
        "md or html instead of tables."))] = None,
) -> None:
    if json_out and fmt is not None:
        usage(_("--json and --format can't go together: pick one"))
    if game is not None:
        try:
            game = get_game(game).name
        except EntryError as error:
            usage(str(error))
    query = StatsQuery(game=game, since=_date(since, "--since"), until=_date(until, "--until"),
                       players=tuple(player or ()), virtual=virtual)
    with _collection_paused():
        _print_stats(ctx, query, vs, json_out, fmt)


@contextlib.contextmanager
def _collection_paused() -> Iterator[None]:
    """The cyclic garbage collector paused, as over the CLI's import: reading, counting
    and drawing 1,000 sessions' statistics leaves no cyclic garbage worth collecting,
    yet the objects they allocate set it off about 40 times (38 young and 4 middle
    collections on 1,000 sessions, some 5 ms; docs/performance.md)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _print_stats(ctx: typer.Context, query: StatsQuery, vs: bool, json_out: bool,
                 fmt: StatsFormat | None) -> None:
    from scorekeeper.views import stats_report  # the tables and charts, for this command only

    view = store(ctx).read()
    counted, unavailable = view.played()  # each session's record, when current
    if query.game is None:
        _say_unavailable(unavailable)
    if view.meta_value("sync") is not None:  # scorekeeper.sync.SYNC: the store has synced
        from scorekeeper.cli import sync_command  # only a store that synced

        left_out = {i for group in sync_command.conflicted(view) for i in group}
        if left_out:
            counted = [s for s in counted if s.id not in left_out]
            sys.stderr.write(_("score: left out of the statistics until `score sync DIR "
                               "--keep ID` picks one: sessions {ids}, in conflict").format(
                ids=", ".join(str(i) for i in sorted(left_out))) + "\n")
    result = compute(counted, query)
    if json_out:
        sys.stdout.write(json.dumps(as_json(result), ensure_ascii=False,
                                    indent=2) + "\n")
    elif fmt is StatsFormat.MD:
        sys.stdout.write(stats_report.to_markdown(result, vs))
    elif fmt is StatsFormat.HTML:
        sys.stdout.write(stats_report.to_html(result, vs))
    else:
        console.print(stats_report.renderables(result, vs))


# ---------------------------------------------------------------------------
# score players


players_app = typer.Typer(
    help=N_("The people across sessions (same name ignoring case = same person)."),
    invoke_without_command=True, rich_markup_mode=None, add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


@players_app.callback()
def players_list(
    ctx: typer.Context,
    json_out: Annotated[bool, typer.Option("--json", help=N_("The list as JSON."))] = False,
    virtual: Annotated[bool, typer.Option("--virtual", help=N_(
        "List the players of virtual games too, bots marked as bots."))] = False,
) -> None:
    """List everyone who has played: sessions, finished games, last played (--help shows
    players_app's help instead)."""
    if ctx.invoked_subcommand is not None:
        return
    view = store(ctx).read()
    _say_left_out(view)
    found = players_module.roster(view.sessions(), virtual=virtual)
    if json_out:
        sys.stdout.write(json.dumps([
            {"name": p.name, "spellings": list(p.spellings), "sessions": list(p.sessions),
             "finished": p.finished, "last_played": p.last_played, "bot": p.bot}
            for p in found
        ], ensure_ascii=False, indent=2) + "\n")
        return
    if not found:
        _say(_("Nobody has played yet: start with `score new`."))
        return
    table = Table(title=pgettext("table title", "Players"), title_justify="left")
    for column, justify in ((pgettext("table heading", "Player"), "left"),
                            (pgettext("table heading", "Sessions"), "right"),
                            (pgettext("table heading", "Finished"), "right"),
                            (pgettext("table heading", "Last played"), "left"),
                            (pgettext("table heading", "Also written"), "left")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for p in found:
        others = ", ".join(s for s in p.spellings if s != p.name)
        name = p.name if p.bot is None else _("{name} (bot)").format(name=p.name)
        table.add_row(plain(name), str(len(p.sessions)), str(p.finished),
                      plain(p.last_played[:16].replace("T", " ")), plain(others))
    console.print(table)


@players_app.command("rename", help=N_("Rename a player in every session (logged in each; "
                                        "`score players undo` takes it back)."))
def players_rename(
    ctx: typer.Context,
    old: Annotated[str, typer.Argument(metavar="OLD", help=N_("The name as it is now."))],
    new: Annotated[str, typer.Argument(metavar="NEW", help=N_("The new spelling."))],
) -> None:
    def planned(sessions: list[Session]) -> tuple[players_module.Plan, str]:
        plan = players_module.plan_rename(sessions, old, new)
        return plan, next(iter(next(iter(plan.values())).values()))

    name, spelling, plan = _rewrite_names(ctx, "players rename", old, planned)
    _say(ngettext("Renamed {name} to {spelling} in {n} session ({ids}). `score players undo` "
                  "takes it back.",
                  "Renamed {name} to {spelling} in {n} sessions ({ids}). `score players undo` "
                  "takes it back.", len(plan)).format(
        name=name, spelling=spelling, n=len(plan), ids=", ".join(str(i) for i in sorted(plan))))


@players_app.command("merge", help=N_("Make A and B one person: every session of A now "
                                       "says B."))
def players_merge(
    ctx: typer.Context,
    first: Annotated[str, typer.Argument(metavar="A", help=N_("The spelling that goes."))],
    second: Annotated[str, typer.Argument(metavar="B", help=N_("The spelling that stays."))],
) -> None:
    name, spelling, plan = _rewrite_names(
        ctx, "players merge", first,
        lambda sessions: players_module.plan_merge(sessions, first, second))
    _say(ngettext("Merged {name} into {spelling} ({n} session: {ids}). `score players undo` "
                  "takes it back.",
                  "Merged {name} into {spelling} ({n} sessions: {ids}). `score players undo` "
                  "takes it back.", len(plan)).format(
        name=name, spelling=spelling, n=len(plan), ids=", ".join(str(i) for i in sorted(plan))))


@players_app.command("undo", help=N_("Take back the last rename or merge, in the sessions "
                                      "it changed."))
def players_undo(ctx: typer.Context) -> None:
    time = now_iso()
    with store(ctx).write() as db:
        records = db.meta_records(PLAYER_CHANGES)
        if not records:
            raise EntryError(_("there is no rename or merge to undo"))
        last = records[-1]
        detail = f"undo of {last.get('detail', 'a rename')}"
        sessions = db.sessions()
        changed = players_module.apply({s.id: s for s in sessions if s.id is not None},
                                       players_module.inverse(last), detail,
                                       change="players undo", time=time)
        for session in changed:
            db.put(session)
        db.set_meta_records(PLAYER_CHANGES, records[:-1])
    _say(_("Took back: {change}.").format(change=last.get("detail", "")))


def _rewrite_names(
        ctx: typer.Context, change: str, named: str,
        planned: Callable[[list[Session]], tuple[players_module.Plan, str]],
) -> tuple[str, str, players_module.Plan]:
    """Rename a player across sessions as ``planned`` says, logged as ``change`` (stored
    English) in each session and in the undo list: (the old name, the new spelling, the
    plan)."""
    time = now_iso()
    with store(ctx).write() as db:
        sessions = db.sessions()
        name = players_module.find(sessions, named).name
        plan, spelling = planned(sessions)
        detail = f"{change}: {name} → {spelling} in sessions " \
            + ", ".join(str(i) for i in sorted(plan))
        _apply(db, sessions, plan, detail, change, time)
    return name, spelling, plan


def _apply(db: WritableStoreView, sessions: list[Session], plan: players_module.Plan, detail: str,
           change: str, time: str) -> None:
    changed = players_module.apply({s.id: s for s in sessions if s.id is not None}, plan,
                                   detail, change=change, time=time)
    for session in changed:
        db.put(session)
    db.set_meta_records(
        PLAYER_CHANGES, [*db.meta_records(PLAYER_CHANGES),
                         players_module.record(change, detail, plan, time)])


# ---------------------------------------------------------------------------
# score rematch, and score new without --player


def _night_to_rematch(db: StoreView) -> Session:
    """The session ``score rematch`` plays again when given no id: the current one, unless
    it is a game on the virtual deck (played after the night, say), then the last table
    session."""
    current = db.get()
    if current.mode == "table":
        return current
    tables = [session for session in chronological(db.sessions()) if session.mode == "table"]
    return tables[-1] if tables else current


def _next_dealer(session: Session) -> str | None:
    """The seat after the first dealer among those who played to the end."""
    if session.first_dealer is None:
        return None
    return next_seat(session.players, session.first_dealer, session.seated)


@command_help(N_("A new session with the same game, players, seating and house rules; "
                  "the deal moves on."))
def rematch(
    ctx: typer.Context,
    session_id: Annotated[int | None, typer.Argument(
        metavar="[ID]", help=N_("The session to play again (default: the current one, or "
                                "after a game on the virtual deck the last table session)."),
        show_default=False)] = None,
    name: Annotated[str, typer.Option("--name", help=N_("A name for the new session."))] = "",
    note: Annotated[str, typer.Option("--note", help=N_("A note on the new session."))] = "",
) -> None:
    with store(ctx).write() as db:
        source = db.get(session_id) if session_id is not None else _night_to_rematch(db)
        if source.mode == "virtual":
            raise EntryError(_("session {id} is a virtual game: {command} deals another")
                             .format(id=source.id, command=f"`score play {source.game} ...`"))
        session = db.add(Session.new(source.game, source.seated, name=name,
                                     options=dict(source.stored_options),
                                     dealer=_next_dealer(source), note=note))
    _say(_("Session {id} started: a rematch of session {source} — {game} for {players} "
           "({options}). It is now the current session.").format(
        id=session.id, source=source.id, game=session.rules.title,
        players=", ".join(session.players),
        options=render.describe_house_rules(session)))
    if session.first_dealer:
        _say("\n".join(session.standings.all_notes))


def load_config() -> config_module.Config:
    """The config for this run; a broken file is one line on stderr, then ignored."""
    def warn(message: str) -> None:
        sys.stderr.write(f"warning: {_one_line(message)}\n")
    return config_module.load(warn)


def _one_line(text: str) -> str:
    return "".join(repr(ch)[1:-1] if ord(ch) < 32 or ord(ch) == 127 else ch for ch in text)


def players_for_new(ctx: typer.Context, rules: TableGame[Any],
                    settings: config_module.Config) -> list[str]:
    """The players of ``score new`` given no --player: at a terminal the last group that
    fits the game is offered (else the config's usual players); elsewhere the usual
    players from the config, if any. The last group is a table's: a game on the virtual
    deck had bots at it, and is never offered."""
    fits = [s for s in chronological(store(ctx).read().sessions())
            if s.mode == "table" and rules.min_players <= len(s.players) <= rules.max_players]
    group = list(fits[-1].players) if fits else list(settings.players)
    if not sys.stdin.isatty():
        if settings.players:
            return list(settings.players)
        usage(_("say who plays, in seating order: {command} ({low} to {high} players)").format(
            command=f"score new {rules.name} --player NAME --player NAME ...",
            low=rules.min_players, high=rules.max_players))
    from scorekeeper.cli import prompts  # only a terminal is asked (score stats never is)

    prompts.enable_line_editing()
    if group and prompts.confirm(_("Same players as last time: {players}?").format(
            players=", ".join(group)), default=True):
        return group
    typed = prompts.ask(_("Players in seating order, separated by commas"))
    return [name for name in typed.split(",") if name.strip()]


# ---------------------------------------------------------------------------
# score config


config_app = typer.Typer(
    help=N_("The group's defaults: house rules per game, the usual players, the language."),
    no_args_is_help=True, rich_markup_mode=None, add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


@config_app.command("path", help=N_("Where the config file is (SCOREKEEPER_CONFIG picks "
                                     "another)."))
def config_path() -> None:
    sys.stdout.write(f"{config_module.config_path()}\n")


@config_app.command("show", help=N_("Every setting in the config file."))
def config_show(as_json: Annotated[bool, typer.Option("--json", help=N_(
        "The settings as JSON: the file, the language, the usual players and each game's "
        "house rules."))] = False) -> None:
    path = config_module.config_path()
    try:
        settings = config_module.read(path)
    except config_module.ConfigError as error:
        raise EntryError(_("{problem}: fix it, or remove it to start afresh").format(
            problem=error)) from None
    if as_json:
        from scorekeeper.views import json_views  # start-up: only --json needs it

        sys.stdout.write(json_views.dumps({
            "file": str(path), "exists": path.exists(), "language": settings.language,
            "players": list(settings.players),
            "house_rules": {game: dict(rules) for game, rules in
                            sorted(settings.house_rules.items()) if rules}}))
        return
    if not path.exists():
        _say(_("No config file yet ({file}); the defaults apply. Set one with "
               "`score config set KEY VALUE`.").format(file=path))
        return
    _say(f"# {path}")
    for key, value in settings.items():
        shown = ",".join(value) if isinstance(value, list) else value
        _say(f"{key} = {shown}")
    if not settings.items():
        _say(_("(empty: the defaults apply)"))


@config_app.command("set", help=N_("Set one setting (checked as the command line checks it)."))
def config_set(
    key: Annotated[str, help_when_built(typer.Argument(
        metavar="KEY", autocompletion=completion.config_keys), lambda: _(
        "language, players, or GAME.RULE (e.g. {example}).").format(
            example=first_house_rule()))],
    value: Annotated[str, typer.Argument(metavar="VALUE", help=N_(
        "The value; players: names separated by commas."))],
) -> None:
    path = config_module.config_path()
    try:
        config_module.change(key, value, path)
    except config_module.ConfigError as error:
        raise EntryError(_("{problem}: fix it, or remove it, before setting anything").format(
            problem=error)) from None
    _say(_("Set {key} in {file}.").format(key=key.strip().lower(), file=path))


@config_app.command("unset", help=N_("Remove one setting: its default applies again."))
def config_unset(
    key: Annotated[str, typer.Argument(metavar="KEY", help=N_("The setting to remove."),
                                       autocompletion=completion.config_keys)],
) -> None:
    path = config_module.config_path()
    try:
        config_module.change(key, None, path)
    except config_module.ConfigError as error:
        raise EntryError(_("{problem}: fix it, or remove it, before changing anything").format(
            problem=error)) from None
    _say(_("Removed {key} from {file}.").format(key=key.strip().lower(), file=path))


# ---------------------------------------------------------------------------
# score delete, score abandon, score log of a deleted session


@command_help(N_("Remove a session (kept in the backups and in `score log ID`)."))
def delete(
    ctx: typer.Context,
    session_id: Annotated[int, typer.Argument(metavar="ID", help=N_("The session to delete."))],
    yes: Annotated[bool, typer.Option("--yes", "-y", help=N_("Delete without asking."))
                   ] = False,
) -> None:
    read = store(ctx).read().get_listed(session_id)
    if not yes:
        if not sys.stdin.isatty():
            raise EntryError(_("deleting session {id} asks for confirmation at a terminal: add "
                               "--yes to delete it from a script").format(id=session_id))
        from scorekeeper.cli import prompts  # only a terminal is asked

        prompts.enable_line_editing()
        rounds = read.rounds if isinstance(read.rounds, int) else len(read.rounds)
        prompts.confirm(ngettext("Delete session {id} ({label}: {players}, {n} round)?",
                                 "Delete session {id} ({label}: {players}, {n} rounds)?",
                                 rounds).format(id=session_id, label=read.label,
                                                players=", ".join(read.players), n=rounds),
                        default=False, abort=True)
    time = now_iso()
    with store(ctx).write() as db:
        session = db.get_listed(session_id)  # a session whose game is missing goes too
        if session.to_document() != read.to_document():
            raise EntryError(_("session {id} changed since it was read; nothing was deleted: "
                               "run the command again").format(id=session_id))
        document = deleted_document(session, time, "deleted with `score delete`")
        db.remove(session_id, {"id": session_id, "time": time, "label": session.label,
                               "document": document})
    _say(_("Deleted session {id} ({label}). {command} still shows its history, and the backups "
           "hold it.").format(id=session_id, label=read.label,
                              command=f"`score log {session_id}`"))


def deleted_session(view: StoreView,
                    session_id: int | None) -> Session | UnavailableSession | None:
    """A deleted session as it was when deleted (its history ends with the deletion)."""
    if session_id is None:
        return None
    record = view.deleted(session_id)
    document = None if record is None else record.get("document")
    if not isinstance(document, dict):
        return None
    try:
        return Session.from_document(document, session_id)
    except GameMissing as missing:
        return UnavailableSession.from_document(document, session_id, str(missing))


def _say_left_out(view: StoreView) -> None:
    """One line on stderr for each session left out because its game is not installed."""
    _say_unavailable(view.unavailable())


def _say_unavailable(sessions: Iterable[UnavailableSession]) -> None:
    for session in sessions:
        sys.stderr.write(show_controls(_("score: session {id} ({label}) is left out: "
                                         "{problem}").format(
            id=session.id, label=session.label, problem=session.problem)) + "\n")


@command_help(N_("Leave an unfinished session out of the statistics (it stays in the "
                  "list)."))
def abandon(
    ctx: typer.Context,
    session_id: Annotated[int, typer.Argument(metavar="ID", help=N_("The session to "
                                                                    "abandon."))],
    undo: Annotated[bool, typer.Option("--undo", help=N_("Take an abandon back."))] = False,
) -> None:
    with store(ctx).write() as db:
        session = db.get(session_id)
        session = session.resume() if undo else session.abandon()
        db.put(session)
    if undo:
        _say(_("Session {id} ({label}) is no longer abandoned.").format(
            id=session_id, label=session.label))
    else:
        _say(_("Session {id} ({label}) is abandoned: kept in `score sessions`, left out of "
               "`score stats`.").format(id=session_id, label=session.label))

