"""The ``score`` commands of CLI.md. Each parses, calls the layers below, renders.

Exit codes: 0 success, 1 a refused entry (or an unusable store), 2 a malformed
command line. A refusal is one line on stderr and leaves the store file
byte-for-byte unchanged: changes are made to an in-memory copy and written
(atomically) only when everything has been accepted.
"""

from __future__ import annotations

import json
import sys
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

try:  # typer >= 0.22 vendors click; older releases depend on it
    from typer._click.exceptions import NoArgsIsHelpError, UsageError
except ImportError:  # pragma: no cover
    from click.exceptions import (  # type: ignore[no-redef,import-not-found,assignment,unused-ignore]
        NoArgsIsHelpError,
        UsageError,
    )

from scorekeeper import __version__
from scorekeeper import store as store_module
from scorekeeper.cards import CardError
from scorekeeper.cli import export as exporting
from scorekeeper.cli import render, virtual_commands
from scorekeeper.cli.context import UsageProblem, console, store, usage
from scorekeeper.games.common import EntryError, RoundEntry
from scorekeeper.registry import get_game
from scorekeeper.session import Session
from scorekeeper.store import StoreError

app = typer.Typer(
    name="score",
    help="Keep the score of card games at the table (Least Score, One Card), "
    "or play them with a virtual deck.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

def _version(value: bool) -> None:
    if value:
        console.print(f"scorekeeper {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    db: Annotated[
        Path | None,
        typer.Option("--db", help="The store file (default: $SCOREKEEPER_DB, else the user "
                     "data folder's scorekeeper.json).", dir_okay=False),
    ] = None,
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    ctx.ensure_object(dict)["db"] = db


SessionOption = Annotated[
    int | None, typer.Option("--session", "-s", help="Session id (default: the current one).")
]
SessionArgument = Annotated[
    int | None, typer.Argument(help="Session id (default: the current one).", show_default=False)
]


# ---------------------------------------------------------------------------
# Sessions


@app.command()
def new(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="least-score or one-card.")],
    player: Annotated[list[str], typer.Option("--player", "-p",
                                              help="A player, in seating order (repeat).")],
    name: Annotated[str, typer.Option("--name", help="A name for the session.")] = "",
    dealer: Annotated[str | None, typer.Option("--dealer", help="Who deals first.")] = None,
    limit: Annotated[int | None, typer.Option(
        "--limit", help="Least Score: knock-out limit, 10-500 (usually 25, 50 or 100; "
        "default 100).")] = None,
    tie: Annotated[str | None, typer.Option(
        "--tie", help="Least Score: declarer-wins (default) or declarer-loses.")] = None,
    end: Annotated[str | None, typer.Option(
        "--end", help="Least Score: last-standing (default) or first-out.")] = None,
    two_pairs: Annotated[str | None, typer.Option(
        "--two-pairs", help="Least Score: same-rank (default) or any-rank.")] = None,
    joker: Annotated[str | None, typer.Option(
        "--joker", help="One Card: joker (default) or two-of-diamonds.")] = None,
    target: Annotated[int | None, typer.Option(
        "--target", help="One Card: the score that ends the game (default 30).")] = None,
) -> None:
    """Start a session; it becomes the current session."""
    rules = _game_or_usage(game)
    given = {"limit": limit, "tie": tie, "end": end, "two_pairs": two_pairs, "joker": joker,
             "target": target}
    options = {key: value for key, value in given.items() if value is not None}
    allowed = set(rules.default_options())
    for key in options:
        if key not in allowed:
            usage(f"--{key.replace('_', '-')} is not an option of {rules.title} "
                  f"(its options: {', '.join('--' + k.replace('_', '-') for k in allowed)})")
    session = Session.new(rules.name, player, name=name, options=options, dealer=dealer)
    with store(ctx).write() as db:
        session = db.add(session)
    options_text = render.describe_options(dict(session.options))
    console.print(f"Session {session.id} started: {rules.title} for "
                  f"{', '.join(session.players)} ({options_text}). "
                  "It is now the current session.")
    if session.first_dealer:
        console.print("\n".join(session.standings.notes))


@app.command()
def sessions(ctx: typer.Context) -> None:
    """List the sessions: id, name, game, players, rounds, status, leader."""
    view = store(ctx).read()
    found = view.sessions()
    if not found:
        console.print("No sessions yet: start one with `score new least-score --player A "
                      "--player B`.")
        return
    console.print(render.sessions_table(found, view.current_id))


@app.command()
def use(ctx: typer.Context, session_id: Annotated[int, typer.Argument(metavar="ID")]) -> None:
    """Make session ID the current session."""
    with store(ctx).write() as db:
        db.set_current(session_id)
        session = db.get(session_id)
    console.print(f"Session {session.id} ({session.label}) is now the current session.")


@app.command()
def show(ctx: typer.Context, session_id: SessionArgument = None) -> None:
    """Standings and the round-by-round table of a session."""
    session = store(ctx).read().get(session_id)
    console.print(render.session_view(session))


@app.command()
def log(ctx: typer.Context, session_id: SessionArgument = None) -> None:
    """Every change to a session, with its time."""
    session = store(ctx).read().get(session_id)
    console.print(render.history_table(session))


# ---------------------------------------------------------------------------
# Rounds

ValuesArgument = Annotated[
    list[str] | None,
    typer.Argument(metavar="NAME=VALUE...", show_default=False,
                   help="Least Score: each player's hand total or cards (Ann=7, Ann=AH,3S); "
                   "One Card: each player's points (Ann=4)."),
]
DeclarerOption = Annotated[str | None, typer.Option("--declarer", help="Least Score: who "
                                                    "declared.")]
BidderOption = Annotated[str | None, typer.Option("--bidder", help="One Card: the high "
                                                  "bidder.")]
BidOption = Annotated[int | None, typer.Option("--bid", help="One Card: the winning bid.")]
NoBidOption = Annotated[bool, typer.Option("--no-bid", help="One Card: nobody bid.")]
TrumpOption = Annotated[str | None, typer.Option("--trump", help="One Card: the trump suit "
                                                 "(S, H, D, C), if you want it recorded.")]


def _entry(session: Session, values: Sequence[str] | None, declarer: str | None,
           bidder: str | None, bid: int | None, no_bid: bool, trump: str | None) -> RoundEntry:
    pairs: list[tuple[str, str]] = []
    for item in values or ():
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            usage(f"{item!r} is not NAME=VALUE (e.g. Ann=7)")
        pairs.append((name, value))
    if sys.stdin.isatty():
        declarer, bidder, bid, no_bid, pairs = _ask_missing(session, declarer, bidder, bid,
                                                            no_bid, pairs)
    return RoundEntry(values=tuple(pairs), declarer=declarer, bidder=bidder, bid=bid,
                      no_bid=no_bid, trump=trump)


def _ask_missing(
    session: Session, declarer: str | None, bidder: str | None, bid: int | None, no_bid: bool,
    pairs: list[tuple[str, str]],
) -> tuple[str | None, str | None, int | None, bool, list[tuple[str, str]]]:
    """At a terminal, ask for what the command line left out."""
    standings = session.standings
    if session.game == "least-score":
        if declarer is None:
            declarer = typer.prompt(f"Who declared? ({', '.join(standings.still_in)})")
        what = "hand total or cards"
    else:
        if bidder is None and not no_bid:
            answer = typer.prompt("Who won the bid? (a name, or 'none' for no bid)")
            if answer.strip().lower() in ("none", "no", "-", ""):
                no_bid = True
            else:
                bidder = answer
        if bidder is not None and bid is None:
            bid = typer.prompt(f"{bidder}'s bid", type=int)
        what = "points"
    typed = {name.strip().casefold() for name, _ in pairs}
    for name in standings.still_in:
        if name.casefold() not in typed:
            pairs.append((name, typer.prompt(f"{name}'s {what}")))
    return declarer, bidder, bid, no_bid, pairs


@app.command("add-round")
def add_round(
    ctx: typer.Context,
    values: ValuesArgument = None,
    session_id: SessionOption = None,
    declarer: DeclarerOption = None,
    bidder: BidderOption = None,
    bid: BidOption = None,
    no_bid: NoBidOption = False,
    trump: TrumpOption = None,
) -> None:
    """Enter the result of a deal: the scores, totals and any knock-out follow."""
    with store(ctx).write() as db:
        session = db.get(session_id)
        entry = _entry(session, values, declarer, bidder, bid, no_bid, trump)
        session = session.add_round(entry)
        db.put(session)
    console.print(render.round_result(session))


@app.command("edit-round")
def edit_round(
    ctx: typer.Context,
    number: Annotated[int, typer.Argument(metavar="N", help="The round to re-enter.")],
    values: ValuesArgument = None,
    session_id: SessionOption = None,
    declarer: DeclarerOption = None,
    bidder: BidderOption = None,
    bid: BidOption = None,
    no_bid: NoBidOption = False,
    trump: TrumpOption = None,
) -> None:
    """Re-enter round N with add-round's arguments; later rounds are re-scored."""
    with store(ctx).write() as db:
        session = db.get(session_id)
        session.check_round_number(number)
        entry = _entry(session, values, declarer, bidder, bid, no_bid, trump)
        session = session.edit_round(number, entry)
        db.put(session)
    console.print(f"Round {number} re-entered; later rounds re-scored.")
    console.print(render.session_view(session))


@app.command()
def undo(ctx: typer.Context, session_id: SessionOption = None) -> None:
    """Remove the last round; totals, knock-outs and the winner follow."""
    with store(ctx).write() as db:
        session = db.get(session_id)
        removed = session.describe_round(len(session.rounds)) if session.rounds else ""
        session = session.undo()
        db.put(session)
    console.print(f"Removed {removed}. (`score redo` brings it back.)")
    console.print(render.standings_table(session))
    console.print(render.ending(session))


@app.command()
def redo(ctx: typer.Context, session_id: SessionOption = None) -> None:
    """Bring back what undo removed, until another change is made."""
    with store(ctx).write() as db:
        session = db.get(session_id).redo()
        db.put(session)
    console.print(render.round_result(session))


# ---------------------------------------------------------------------------
# Export, import, rules


@app.command("export")
def export_command(
    ctx: typer.Context,
    session_id: SessionArgument = None,
    fmt: Annotated[exporting.Format, typer.Option("--format", "-f", help="json, md, csv or "
                                                  "html.")] = exporting.Format.MD,
    output: Annotated[Path | None, typer.Option("--output", "-o", dir_okay=False,
                                                help="Write to FILE instead of stdout.")] = None,
) -> None:
    """The session summary (json follows FORMAT.md)."""
    session = store(ctx).read().get(session_id)
    text = exporting.export(session, fmt.value)
    if output is None:
        sys.stdout.write(text)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as error:
        raise EntryError(f"can't write {output}: {error.strerror}") from None
    console.print(f"Wrote {output} ({fmt.value}).", soft_wrap=True)


@app.command("import")
def import_command(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A `score export --format json` "
                                         "file ('-' for stdin).", dir_okay=False)],
) -> None:
    """Load a session from a JSON export; it gets a new id and becomes current."""
    try:
        text = sys.stdin.read() if str(file) == "-" else file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise EntryError(f"there is no file {file}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise EntryError(f"can't read {file}: {error}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise EntryError(f"{file} is not valid JSON ({error.msg} at line {error.lineno}): "
                         "import takes a `score export --format json` file") from None
    session = Session.from_summary(data).logged_import(str(file))
    with store(ctx).write() as db:
        session = db.add(session)
    console.print(f"Imported {file} as session {session.id} ({session.label}, "
                  f"{len(session.rounds)} rounds); it is now the current session.")


@app.command("rules")
def rules_command(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="least-score or one-card.")],
    session_id: Annotated[int | None, typer.Option(
        "--session", "-s", help="Show that session's house rules (default: the current "
        "session's, when it is of this game).")] = None,
) -> None:
    """The rules as the engine applies them, with the session's house rules."""
    rules = _game_or_usage(game)
    options: dict[str, Any] = rules.default_options()
    view = store(ctx).read()
    if session_id is not None:
        session = view.get(session_id)
        if session.game != rules.name:
            raise EntryError(f"session {session_id} is {session.rules.title}, not {rules.title}")
        options = dict(session.options)
    elif view.current_id is not None:
        try:
            current = view.get()
        except EntryError:
            current = None
        if current is not None and current.game == rules.name:
            options = dict(current.options)
    console.print(rules.rules_text(options), markup=False, highlight=False)


def _game_or_usage(name: str) -> Any:
    try:
        return get_game(name)
    except EntryError as error:
        usage(str(error))


@app.command()
def doctor(
    ctx: typer.Context,
    restore: Annotated[bool, typer.Option("--restore", help="Bring back the newest good "
                                          "backup when the store is damaged.")] = False,
    force: Annotated[bool, typer.Option("--force", help="With --restore: restore even a "
                                        "healthy store (drops its latest changes).")] = False,
) -> None:
    """Check the whole store (every session re-scored); restore the newest good backup."""
    path = store(ctx).path
    current, backups = store_module.doctor(path)
    if not current.exists:
        console.print(f"{path} does not exist yet (an empty store).")
    elif current.good:
        console.print(f"{path}: healthy — {current.sessions} sessions, {current.rounds} "
                      "rounds, every one re-scored.")
    else:
        console.print(f"{path}: {len(current.problems)} problem(s):")
        for problem in current.problems:
            console.print(f"  - {problem}", markup=False)
    for backup in backups:
        state = (f"good ({backup.sessions} sessions, {backup.rounds} rounds)" if backup.good
                 else "damaged: " + "; ".join(backup.problems))
        console.print(f"  backup {backup.path.name}: {state}", markup=False)
    if restore:
        restored, kept = store_module.restore_newest_good_backup(store(ctx), force=force)
        console.print(f"Restored {restored.name} over {path.name}."
                      + (f" The replaced file is kept as {kept.name}." if kept else ""))
        return
    if current.exists and not current.good:
        if current.newer:
            console.print("Upgrade scorekeeper to read it (its package is "
                          "cardnight-scorekeeper: pipx upgrade cardnight-scorekeeper).")
        else:
            console.print("Run `score doctor --restore` to bring back the newest good backup.")
        raise typer.Exit(1)


app.command()(virtual_commands.play)
app.command()(virtual_commands.replay)
app.command()(virtual_commands.simulate)


# ---------------------------------------------------------------------------
# Running


def run(argv: Sequence[str] | None = None) -> int:
    """Run ``score`` with ``argv``; return the exit code (never raises for user errors)."""
    try:
        # Not standalone: Click's usage errors come here, to be shown on one line.
        result = app(args=list(argv) if argv is not None else None, prog_name="score",
                     standalone_mode=False)
    except SystemExit as done:
        code = done.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except NoArgsIsHelpError as help_wanted:
        help_wanted.show()
        return help_wanted.exit_code
    except UsageError as malformed:
        message = malformed.message if isinstance(malformed, UsageProblem) \
            else malformed.format_message()
        hint = f" (see `{malformed.ctx.command_path} --help`)" if malformed.ctx else ""
        sys.stderr.write(f"error: {' '.join(message.split())}{hint}\n")
        return malformed.exit_code
    except typer.Abort:
        sys.stderr.write("\nAborted: the unfinished command changed nothing.\n")
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("\nInterrupted: the unfinished command changed nothing.\n")
        return 130
    except (EntryError, CardError, StoreError) as refused:
        sys.stderr.write(f"error: {_one_line(str(refused))}\n")
        return 1
    except BrokenPipeError:
        return 0
    # Without standalone mode an Exit (--help, --version, typer.Exit(n)) comes back as its code.
    return result if isinstance(result, int) and not isinstance(result, bool) else 0


def _one_line(text: str) -> str:
    """Control characters (a line break in an imported value, an escape code) escaped."""
    return "".join(repr(ch)[1:-1] if unicodedata.category(ch) == "Cc" else ch for ch in text)


def main() -> None:
    sys.exit(run())
