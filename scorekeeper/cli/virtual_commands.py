"""``score play``, ``score replay`` and ``score simulate``: the virtual deck's front end.

The game-specific parts (showing a view, reading a move, telling an action) live
in one small UI module per game; everything else is shared.
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, RenderableType
from rich.rule import Rule
from rich.text import Text

from scorekeeper import match
from scorekeeper.cli import least_score_ui, one_card_ui, render
from scorekeeper.cli.context import console, store, usage
from scorekeeper.games.common import EntryError
from scorekeeper.registry import get_game, get_virtual
from scorekeeper.session import Session

UIS: dict[str, Any] = {"least-score": least_score_ui, "one-card": one_card_ui}


def ui_for(game: str) -> Any:
    try:
        return UIS[game]
    except KeyError:
        raise EntryError(f"{get_game(game).title} can't be played at the keyboard yet") from None


class Table:
    """The terminal of a game at one keyboard: who sees what, and when."""

    def __init__(self, console: Console, session: Session, humans: Sequence[str]) -> None:
        self.console = console
        self.session = session
        self.humans = list(humans)
        self.ui: Any = ui_for(session.game) if humans else None
        self.shown_to: str | None = None
        self.events: list[RenderableType] = []
        """Everything public that happened, so each human can catch up after a hand-over."""
        self.caught_up: dict[str, int] = {}

    def ask(self, prompt: str) -> str:
        try:
            return self.console.input(f"[bold]{prompt}:[/bold] ")
        except EOFError:
            raise KeyboardInterrupt from None

    def say(self, thing: RenderableType | str) -> None:
        self.console.print(thing)

    def hand_over_to(self, player: str) -> None:
        """With two or more humans, hide the last hand and wait for the next player."""
        if len(self.humans) < 2 or self.shown_to == player:
            return
        if self.shown_to is not None:
            if self.console.is_terminal:
                self.console.clear()
            self.ask(f"Pass the keyboard to {player} and press Enter")
            if self.console.is_terminal:
                self.console.clear()
            missed = self.events[self.caught_up.get(player, 0):]
            if missed:
                self.say(Text("Since your last turn:", style="dim"))
                for event in missed:
                    self.say(event)
        self.shown_to = player
        self.caught_up[player] = len(self.events)

    def choose(self, player: str, view: Any, problem: str | None) -> Any:
        self.hand_over_to(player)
        if problem is not None:
            self.say(Text(f"Not allowed: {problem}", style="bold red"))
        else:
            self.say(self.ui.render_view(view))
        return self.ui.read_action(view, self.ask, self.say)

    def announce(self, event: RenderableType) -> None:
        self.events.append(event)
        self.say(event)
        if self.shown_to is not None:
            self.caught_up[self.shown_to] = len(self.events)

    def on_action(self, player: str, action: Any, deal: Any) -> None:
        self.announce(self.ui.describe_action(player, action, deal))
        if deal.is_over:
            self.announce(self.ui.describe_end(deal))

    def on_start(self, deal: Any) -> None:
        number = len(self.session.rounds) + 1
        self.announce(Rule(f"Deal {number} — {deal.dealer} deals"))


def play(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="least-score or one-card.")] = "",
    player: Annotated[list[str] | None, typer.Option(
        "--player", "-p", help="A human player at this keyboard (repeat).")] = None,
    bot: Annotated[list[str] | None, typer.Option(
        "--bot", "-b", help="A bot: random, greedy, strong or expert (repeat).")] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the shuffles and "
                                             "the bots (default: a random one, shown).")] = None,
    name: Annotated[str, typer.Option("--name", help="A name for the session.")] = "",
    resume: Annotated[int | None, typer.Option("--resume", help="Continue the unfinished "
                                               "virtual session ID.")] = None,
    limit: Annotated[int | None, typer.Option("--limit", help="Least Score: the "
                                              "knock-out limit.")] = None,
) -> None:
    """Play a full game with a shuffled virtual deck: humans at one keyboard and bots."""
    db = store(ctx)
    if resume is not None:
        if player or bot or seed is not None or limit is not None or name:
            raise typer.BadParameter("--resume continues a saved game: give no --player, "
                                     "--bot, --seed, --limit or --name with it")
        session = db.read().get(resume)
        seats = match.seats_of(session)
        if session.finished:
            raise EntryError(f"{session.label} is finished: nothing to resume")
        if game and get_game(game).name != session.game:
            raise EntryError(f"session {resume} is {session.rules.title}, not {game}")
    else:
        if not game:
            raise typer.BadParameter("say which game: score play least-score|one-card")
        rules = get_game(game)
        get_virtual(rules.name)
        if player:
            ui_for(rules.name)
        seats = match.make_seats(player or [], bot or [])
        seed = seed if seed is not None else secrets.randbelow(10**9)
        options = {"limit": limit} if limit is not None else {}
        if limit is not None and rules.name != "least-score":
            raise typer.BadParameter("--limit is a Least Score option")
        session = match.start_game(rules.name, seats, seed, name=name, options=options)
        with db.write() as view:
            session = view.add(session)
        console.print(f"Session {session.id}: {session.rules.title}, "
                      f"{', '.join(s.name for s in seats)}; seed {seed}. "
                      "Saved after every deal.")
    humans = [seat.name for seat in seats if seat.bot is None]
    table = Table(console, session, humans)
    hooks: dict[str, Any] = {}
    if humans:
        hooks = {"choose_human": table.choose, "on_action": table.on_action,
                 "on_start": table.on_start}

    def save(updated: Session) -> None:
        with db.write() as view:
            view.put(updated)
            if updated.id is not None:
                view.set_current(updated.id)
        table.session = updated
        summary = updated.standings.rounds[-1]
        scores = ", ".join(f"{n} +{s}" for n, s in summary["scores"].items())
        if humans:
            console.print(f"Deal {summary['number']} saved: {scores}")
        else:
            line = updated.describe_round(summary["number"])
            console.print(line[:1].upper() + line[1:])
        if humans:
            console.print(render.standings_table(updated))

    try:
        session = match.play_to_end(session, on_deal=save, **hooks)
    except KeyboardInterrupt:
        done = len(table.session.rounds)
        saved = f"after deal {done}" if done else "with no deal finished yet"
        console.print(f"\nStopped. The game is saved {saved}; the unfinished deal will be "
                      f"dealt again: `score play --resume {session.id}` continues it.")
        raise typer.Exit(130) from None
    if not humans:  # with humans, the standings were shown after the last deal
        console.print(render.standings_table(session))
    console.print(render.ending(session))


def replay(
    ctx: typer.Context,
    session_id: Annotated[int, typer.Argument(metavar="ID", help="A virtual session.")],
    round_number: Annotated[int | None, typer.Option("--round", "-r", help="Only this "
                                                     "deal (default: every deal).")] = None,
    pause: Annotated[bool | None, typer.Option("--pause/--no-pause", help="Wait for Enter "
                                               "after each action (default: at a terminal)."
                                               )] = None,
) -> None:
    """Step through a saved virtual deal, card by card, every hand face up."""
    session = store(ctx).read().get(session_id)
    if session.mode != "virtual":
        # Not seats_of(): an imported virtual game has its deals but not its seats.
        raise EntryError(f"session {session_id} was entered at a table, not played on the "
                         "virtual deck: it has no deals to replay")
    virtual = get_virtual(session.game)
    ui = UIS.get(session.game)
    if ui is None:
        raise EntryError(f"{session.rules.title} deals can't be replayed yet")
    rounds = session.standings.rounds
    if round_number is not None:
        session.check_round_number(round_number)
    wait = sys.stdin.isatty() if pause is None else pause
    chosen = rounds if round_number is None else [rounds[round_number - 1]]
    missing = [summary["number"] for summary in chosen
               if "deal" not in summary or "actions" not in summary]
    if missing:
        raise EntryError(f"round {missing[0]} of {session.label} has no recorded deal to replay")
    for summary in chosen:
        actions = summary["actions"]
        console.print(Rule(f"Deal {summary['number']} — {summary['deal']['dealer']} deals"))
        console.print(ui.replay_state(virtual.replay(summary, session.options, upto=0)))
        for step, record in enumerate(actions, start=1):
            if wait:
                console.input("[dim](Enter: next)[/dim]")
            console.print(Text(f"{step:>3}. ").append_text(ui.describe_record(record)))
            deal = virtual.replay(summary, session.options, upto=step)
            if not deal.is_over and "reshuffle" not in record:
                console.print(ui.replay_state(deal))
        final = virtual.replay(summary, session.options)
        console.print(ui.describe_end(final))


def simulate(
    game: Annotated[str, typer.Argument(
        help="least-score or one-card; or merge, then the files of --save-partial.")],
    files: Annotated[list[Path] | None, typer.Argument(
        metavar="[FILE]...", help="With merge: partial results to add up.",
        show_default=False)] = None,
    bot: Annotated[list[str] | None, typer.Option(
        "--bot", "-b", help="A seat's bot: random, greedy, strong or expert (repeat, in seat "
        "order).")] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games.")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="The seed of the whole run.")] = 1,
    jobs: Annotated[int | None, typer.Option(
        "--jobs", "-j", min=1, help="Processes to use (results do not depend on it; "
        "default 1, with --backend ray every CPU of the cluster).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    limit: Annotated[int | None, typer.Option(
        "--limit", help="Least Score: knock-out limit, 10-500 (default 100).")] = None,
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
    shard: Annotated[str | None, typer.Option(
        "--shard", metavar="I/N", help="Play only the I-th of N slices of the games "
        "(for several machines; add them up with merge).")] = None,
    save_partial: Annotated[Path | None, typer.Option(
        "--save-partial", metavar="FILE", help="Also write the counts to FILE, for "
        "score simulate merge.")] = None,
    backend: Annotated[str, typer.Option(
        "--backend", help="local (processes of this machine) or ray (a Ray cluster; "
        "pip install 'cardnight-scorekeeper[ray]').")] = "local",
    address: Annotated[str | None, typer.Option(
        "--address", help="With --backend ray: the cluster's address (default: start "
        "Ray on this machine).")] = None,
) -> None:
    """Bots against bots, many games, nothing saved: win rates with 95% intervals."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from scorekeeper.cli import simulate as runner

    err_console = Console(stderr=True, highlight=False)
    if game.strip().lower() == "merge":
        given = [bot, jobs, limit, tie, end, two_pairs, joker, target, shard, save_partial,
                 address]
        if any(value is not None for value in given) or backend != "local":
            usage("merge takes only the partial results' files and --json")
        if not files:
            usage("merge needs the files of score simulate --save-partial: "
                  "score simulate merge FILE... [--json]")
        merged = runner.merge(files)
        if merged.missing:
            ranges = ", ".join(f"{start + 1}-{stop}" for start, stop in merged.missing)
            err_console.print(Text(f"note: these files hold {merged.summary.games} of the "
                                   f"run's {merged.run.games} games (missing: {ranges})"))
        _print_results(merged.summary.as_json(merged.run.seed, merged.seconds), as_json,
                       note=f"{len(files)} files merged")
        return
    if files:
        usage(f"unexpected argument {str(files[0])!r}: only merge takes files")
    if not bot:
        usage("give each seat's bot: --bot LEVEL, once per seat (random, greedy, strong or expert)")
    rules = get_game(game)
    seats = [match.Seat(f"P{i + 1}", level) for i, level in enumerate(bot)]
    match.check_seats(rules.name, seats)
    given_options = {"limit": limit, "tie": tie, "end": end, "two_pairs": two_pairs,
                     "joker": joker, "target": target}
    chosen = {key: value for key, value in given_options.items() if value is not None}
    allowed = rules.default_options()
    for key in chosen:
        if key not in allowed:
            usage(f"--{key.replace('_', '-')} is not an option of {rules.title} (its "
                  f"options: {', '.join('--' + k.replace('_', '-') for k in allowed)})")
    options = rules.check_options(chosen)
    if backend not in ("local", "ray"):
        usage(f"--backend must be local or ray, not {backend!r}")
    if address is not None and backend != "ray":
        usage("--address goes with --backend ray")
    start, stop = 0, games
    if shard is not None:
        try:
            start, stop = runner.shard_slice(shard, games)
        except ValueError as error:
            usage(str(error))
    if save_partial is not None and (save_partial.is_dir() or not save_partial.parent.is_dir()):
        raise EntryError(f"--save-partial {save_partial}: not a file in an existing folder")
    run = runner.Run(rules.name, tuple(bot), seed, options, games, start, stop)
    played = 0

    def advance(done: int) -> None:
        nonlocal played
        played += done
        progress.advance(task, done)

    try:
        with Progress(TextColumn("[progress.description]{task.description}"), BarColumn(),
                      MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
                      console=err_console, disable=not err_console.is_terminal) as progress:
            task = progress.add_task(f"{rules.title}: {' v '.join(bot)}", total=stop - start)
            summary, seconds = runner.play(run, jobs, backend, address, advance)
    except KeyboardInterrupt:
        err_console.print(Text(f"Stopped after {played} of {stop - start} games: nothing "
                               "printed or saved."))
        raise typer.Exit(130) from None
    if save_partial is not None:
        runner.save_partial(save_partial, run, summary, seconds)
    where = "" if shard is None else f"shard {shard} (games {start + 1}-{stop}), "
    _print_results(summary.as_json(seed, seconds), as_json, note=where.rstrip(", "))
    if save_partial is not None and not as_json:
        console.print(Text(f"Partial results saved to {save_partial}: add the shards up "
                           "with `score simulate merge FILE...`."))


def _print_results(result: dict[str, Any], as_json: bool, note: str = "") -> None:
    import json

    if as_json:
        sys.stdout.write(json.dumps(result) + "\n")
        return
    from rich.table import Table as RichTable

    rules = get_game(result["game"])
    extra = f", {note}" if note else ""
    table = RichTable(title=f"{rules.title}: {result['games']} games, seed {result['seed']}"
                      f"{extra}, {result['seconds']:.1f} s", title_justify="left")
    for column in ("Seat", "Bot", "Wins", "Win rate", "95% interval"):
        table.add_column(column, justify="left" if column in ("Seat", "Bot") else "right")
    for index, seat in enumerate(result["seats"], start=1):
        low, high = seat["ci95"]
        table.add_row(str(index), seat["bot"], f"{seat['wins']:g}",
                      f"{seat['win_rate']:.1%}", f"{low:.1%} – {high:.1%}")
    console.print(table)
    console.print(f"Mean deals per game: {result['mean_deals']:.2f}")
    for key in ("false_declaration_rate", "bid_success_rate"):
        if key in result:
            console.print(f"{key.replace('_', ' ').capitalize()}: {result[key]:.1%}")
