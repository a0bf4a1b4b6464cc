"""Every night remembered: ``score stats``, ``players``, ``rematch``, ``config``,
``delete`` and ``abandon``, and the group's defaults for ``score new``.

Commands that ask a question (``delete`` at a terminal, ``new`` offering the last
group) ask before taking the store's lock, then check under the lock that what they
read is still what is stored.
"""

from __future__ import annotations

import json
import sys
from datetime import date
from enum import StrEnum
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from scorekeeper import config as config_module
from scorekeeper import players as players_module
from scorekeeper.cli import prompts, render
from scorekeeper.cli.context import console, store, usage
from scorekeeper.cli.game_options import first_house_rule, game_names
from scorekeeper.games.common import EntryError, TableGame
from scorekeeper.registry import get_game
from scorekeeper.session import Session, now_iso
from scorekeeper.stats import StatsQuery, as_json, chronological, compute
from scorekeeper.store import PLAYER_CHANGES, StoreView, WritableStoreView
from scorekeeper.text import count


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
        usage(f"{option} takes a date as YYYY-MM-DD, not {text!r}")


def stats(
    ctx: typer.Context,
    game: Annotated[str | None, typer.Option("--game", "-g", help=game_names() + " "
                                             "(default: all).")] = None,
    since: Annotated[str | None, typer.Option("--since", metavar="DATE", help="Sessions "
                                              "started on or after DATE (YYYY-MM-DD).")] = None,
    until: Annotated[str | None, typer.Option("--until", metavar="DATE", help="Sessions "
                                              "started on or before DATE.")] = None,
    player: Annotated[list[str] | None, typer.Option(
        "--player", "-p", help="Show only these players (repeat); their figures still count "
        "every game they played.")] = None,
    vs: Annotated[bool, typer.Option("--vs", help="Add the head-to-head matrix.")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="The statistics as JSON.")] = False,
    fmt: Annotated[StatsFormat | None, typer.Option("--format", "-f", help="md or html "
                                                    "instead of tables.")] = None,
) -> None:
    """Statistics over finished sessions: wins, places, streaks, each game's figures, ratings."""
    if json_out and fmt is not None:
        usage("--json and --format can't go together: pick one")
    if game is not None:
        try:
            game = get_game(game).name
        except EntryError as error:
            usage(str(error))
    from scorekeeper.cli import stats_report  # the tables and charts, for this command only

    query = StatsQuery(game=game, since=_date(since, "--since"), until=_date(until, "--until"),
                       players=tuple(player or ()))
    result = compute(store(ctx).read().sessions(), query)
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
    help="The people across sessions (same name ignoring case = same person).",
    invoke_without_command=True, rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


@players_app.callback()
def players_list(
    ctx: typer.Context,
    json_out: Annotated[bool, typer.Option("--json", help="The list as JSON.")] = False,
) -> None:
    """List everyone who has played: sessions, finished games, last played."""
    if ctx.invoked_subcommand is not None:
        return
    found = players_module.roster(store(ctx).read().sessions())
    if json_out:
        sys.stdout.write(json.dumps([
            {"name": p.name, "spellings": list(p.spellings), "sessions": list(p.sessions),
             "finished": p.finished, "last_played": p.last_played} for p in found
        ], ensure_ascii=False, indent=2) + "\n")
        return
    if not found:
        _say("Nobody has played yet: start with `score new`.")
        return
    table = Table(title="Players", title_justify="left")
    for column, justify in (("Player", "left"), ("Sessions", "right"), ("Finished", "right"),
                            ("Last played", "left"), ("Also written", "left")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for p in found:
        others = ", ".join(s for s in p.spellings if s != p.name)
        table.add_row(Text(p.name), str(len(p.sessions)), str(p.finished),
                      Text(p.last_played[:16].replace("T", " ")), Text(others))
    console.print(table)


@players_app.command("rename")
def players_rename(
    ctx: typer.Context,
    old: Annotated[str, typer.Argument(metavar="OLD", help="The name as it is now.")],
    new: Annotated[str, typer.Argument(metavar="NEW", help="The new spelling.")],
) -> None:
    """Rename a player in every session (logged in each; `score players undo` takes it back)."""
    time = now_iso()
    with store(ctx).write() as db:
        sessions = db.sessions()
        plan = players_module.plan_rename(sessions, old, new)
        name = players_module.find(sessions, old).name
        spelling = next(iter(next(iter(plan.values())).values()))
        detail = f"players rename: {name} → {spelling} in sessions " \
            + ", ".join(str(i) for i in sorted(plan))
        _apply(db, sessions, plan, detail, "players rename", time)
    _say(f"Renamed {name} to {spelling} in {len(plan)} session"
         f"{'' if len(plan) == 1 else 's'} ({', '.join(str(i) for i in sorted(plan))}). "
         "`score players undo` takes it back.")


@players_app.command("merge")
def players_merge(
    ctx: typer.Context,
    first: Annotated[str, typer.Argument(metavar="A", help="The spelling that goes.")],
    second: Annotated[str, typer.Argument(metavar="B", help="The spelling that stays.")],
) -> None:
    """Make A and B one person: every session of A now says B."""
    time = now_iso()
    with store(ctx).write() as db:
        sessions = db.sessions()
        name = players_module.find(sessions, first).name
        plan, spelling = players_module.plan_merge(sessions, first, second)
        detail = f"players merge: {name} → {spelling} in sessions " \
            + ", ".join(str(i) for i in sorted(plan))
        _apply(db, sessions, plan, detail, "players merge", time)
    _say(f"Merged {name} into {spelling} ({len(plan)} session"
         f"{'' if len(plan) == 1 else 's'}: {', '.join(str(i) for i in sorted(plan))}). "
         "`score players undo` takes it back.")


@players_app.command("undo")
def players_undo(ctx: typer.Context) -> None:
    """Take back the last rename or merge, in the sessions it changed."""
    time = now_iso()
    with store(ctx).write() as db:
        records = db.meta_records(PLAYER_CHANGES)
        if not records:
            raise EntryError("there is no rename or merge to undo")
        last = records[-1]
        detail = f"undo of {last.get('detail', 'a rename')}"
        sessions = db.sessions()
        changed = players_module.apply({s.id: s for s in sessions if s.id is not None},
                                       players_module.inverse(last), detail,
                                       change="players undo", time=time)
        for session in changed:
            db.put(session)
        db.set_meta_records(PLAYER_CHANGES, records[:-1])
    _say(f"Took back: {last.get('detail', '')}.")


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


def _next_dealer(session: Session) -> str | None:
    if session.first_dealer is None:
        return None
    players = session.players
    return players[(players.index(session.first_dealer) + 1) % len(players)]


def rematch(
    ctx: typer.Context,
    session_id: Annotated[int | None, typer.Argument(
        metavar="[ID]", help="The session to play again (default: the current one).",
        show_default=False)] = None,
    name: Annotated[str, typer.Option("--name", help="A name for the new session.")] = "",
    note: Annotated[str, typer.Option("--note", help="A note on the new session.")] = "",
) -> None:
    """A new session with the same game, players, seating and house rules; the deal moves on."""
    with store(ctx).write() as db:
        source = db.get(session_id)
        if source.mode == "virtual":
            raise EntryError(f"session {source.id} is a virtual game: `score play "
                             f"{source.game} ...` deals another")
        session = db.add(Session.new(source.game, source.players, name=name,
                                     options=dict(source.options), dealer=_next_dealer(source),
                                     note=note))
    _say(f"Session {session.id} started: a rematch of session {source.id} — "
         f"{session.rules.title} for {', '.join(session.players)} "
         f"({render.describe_options(dict(session.options))}). "
         "It is now the current session.")
    if session.first_dealer:
        _say("\n".join(session.standings.notes))


def load_config() -> config_module.Config:
    """The config for this run; a broken file is one line on stderr, then ignored."""
    def warn(message: str) -> None:
        sys.stderr.write(f"warning: {_one_line(message)}\n")
    return config_module.load(warn)


def _one_line(text: str) -> str:
    return "".join(repr(ch)[1:-1] if ord(ch) < 32 or ord(ch) == 127 else ch for ch in text)


def players_for_new(ctx: typer.Context, rules: TableGame,
                    settings: config_module.Config) -> list[str]:
    """The players of ``score new`` given no --player: at a terminal the last group that
    fits the game is offered (else the config's usual players); elsewhere the usual
    players from the config, if any."""
    fits = [s for s in chronological(store(ctx).read().sessions())
            if rules.min_players <= len(s.players) <= rules.max_players]
    group = list(fits[-1].players) if fits else list(settings.players)
    if not sys.stdin.isatty():
        if settings.players:
            return list(settings.players)
        usage(f"say who plays, in seating order: score new {rules.name} --player NAME "
              f"--player NAME ... ({rules.min_players} to {rules.max_players} players)")
    prompts.enable_line_editing()
    if group and typer.confirm(f"Same players as last time: {', '.join(group)}?",
                               default=True):
        return group
    typed = prompts.ask("Players in seating order, separated by commas")
    return [name for name in typed.split(",") if name.strip()]


# ---------------------------------------------------------------------------
# score config


config_app = typer.Typer(
    help="The group's defaults: house rules per game, the usual players, the language.",
    no_args_is_help=True, rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


@config_app.command("path")
def config_path() -> None:
    """Where the config file is (SCOREKEEPER_CONFIG picks another)."""
    sys.stdout.write(f"{config_module.config_path()}\n")


@config_app.command("show")
def config_show() -> None:
    """Every setting in the config file."""
    path = config_module.config_path()
    try:
        settings = config_module.read(path)
    except config_module.ConfigError as error:
        raise EntryError(f"{error}: fix it, or remove it to start afresh") from None
    if not path.exists():
        _say(f"No config file yet ({path}); the defaults apply. Set one with "
             "`score config set KEY VALUE`.")
        return
    _say(f"# {path}")
    for key, value in settings.items():
        shown = ",".join(value) if isinstance(value, list) else value
        _say(f"{key} = {shown}")
    if not settings.items():
        _say("(empty: the defaults apply)")


@config_app.command("set")
def config_set(
    key: Annotated[str, typer.Argument(metavar="KEY", help="language, players, or GAME.RULE "
                                       f"(e.g. {first_house_rule()}).")],
    value: Annotated[str, typer.Argument(metavar="VALUE", help="The value; players: names "
                                         "separated by commas.")],
) -> None:
    """Set one setting (checked as the command line checks it)."""
    path = config_module.config_path()
    try:
        settings = config_module.read(path)
    except config_module.ConfigError as error:
        raise EntryError(f"{error}: fix it, or remove it, before setting anything") from None
    config_module.write(config_module.with_setting(settings, key, value), path)
    _say(f"Set {key.strip().lower()} in {path}.")


@config_app.command("unset")
def config_unset(
    key: Annotated[str, typer.Argument(metavar="KEY", help="The setting to remove.")],
) -> None:
    """Remove one setting: its default applies again."""
    path = config_module.config_path()
    try:
        settings = config_module.read(path)
    except config_module.ConfigError as error:
        raise EntryError(f"{error}: fix it, or remove it, before changing anything") from None
    config_module.write(config_module.with_setting(settings, key, None), path)
    _say(f"Removed {key.strip().lower()} from {path}.")


# ---------------------------------------------------------------------------
# score delete, score abandon, score log of a deleted session


def delete(
    ctx: typer.Context,
    session_id: Annotated[int, typer.Argument(metavar="ID", help="The session to delete.")],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Delete without asking.")] = False,
) -> None:
    """Remove a session (kept in the backups and in `score log ID`)."""
    read = store(ctx).read().get(session_id)
    if not yes:
        if not sys.stdin.isatty():
            raise EntryError(f"deleting session {session_id} asks for confirmation at a "
                             "terminal: add --yes to delete it from a script")
        prompts.enable_line_editing()
        typer.confirm(f"Delete session {session_id} ({read.label}: {', '.join(read.players)}, "
                      f"{count(len(read.rounds), 'round')})?", default=False, abort=True)
    time = now_iso()
    with store(ctx).write() as db:
        session = db.get(session_id)
        if session.to_document() != read.to_document():
            raise EntryError(f"session {session_id} changed since it was read; nothing was "
                             "deleted: run the command again")
        document = session.to_document()
        document["history"].append({"time": time, "change": "delete",
                                    "detail": "deleted with `score delete`"})
        db.remove(session_id, {"id": session_id, "time": time, "label": session.label,
                               "document": document})
    _say(f"Deleted session {session_id} ({read.label}). `score log {session_id}` still shows "
         "its history, and the backups hold it.")


def deleted_session(view: StoreView, session_id: int | None) -> Session | None:
    """A deleted session as it was when deleted (its history ends with the deletion)."""
    if session_id is None:
        return None
    record = view.deleted(session_id)
    if record is None or not isinstance(record.get("document"), dict):
        return None
    return Session.from_document(record["document"], session_id)


def abandon(
    ctx: typer.Context,
    session_id: Annotated[int, typer.Argument(metavar="ID", help="The session to abandon.")],
    undo: Annotated[bool, typer.Option("--undo", help="Take an abandon back.")] = False,
) -> None:
    """Leave an unfinished session out of the statistics (it stays in the list)."""
    with store(ctx).write() as db:
        session = db.get(session_id)
        session = session.resume() if undo else session.abandon()
        db.put(session)
    if undo:
        _say(f"Session {session_id} ({session.label}) is no longer abandoned.")
    else:
        _say(f"Session {session_id} ({session.label}) is abandoned: kept in `score sessions`, "
             "left out of `score stats`.")

