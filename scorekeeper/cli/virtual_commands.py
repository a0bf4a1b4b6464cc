"""``score play``, ``score replay`` and ``score simulate``: the virtual deck's front end.

The game-specific parts (showing a view, reading a move, telling an action) live
in one small UI module per game; everything else is shared.
"""

from __future__ import annotations

import contextlib
import getpass
import importlib
import secrets
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, RenderableType
from rich.control import Control
from rich.rule import Rule
from rich.segment import ControlType, Segment
from rich.text import Text

from scorekeeper import match
from scorekeeper.cli import compact, prompts, render
from scorekeeper.cli import game_options as game_options_module
from scorekeeper.cli.context import console, store, usage
from scorekeeper.games.common import EntryError
from scorekeeper.registry import declaration_of, get_game, get_virtual
from scorekeeper.session import Session
from scorekeeper.store import (
    SessionChanged,
    SessionLease,
    Store,
    StoreError,
    WritableStoreView,
)
from scorekeeper.text import count


def ui_for(game: str) -> Any:
    """The game's keyboard UI module, imported on first use (its declaration names it)."""
    module = declaration_of(game).keyboard_ui
    if module is None:
        raise EntryError(f"{get_game(game).title} can't be played at the keyboard yet")
    return importlib.import_module(module)


CLEAR_SCREEN_AND_SCROLLBACK = "\x1b[H\x1b[2J\x1b[3J"
"""Home, clear the screen, and clear the scrollback (xterm's ``ED 3``): rich's own
clear sends only ``ESC[2J``, which leaves the last hand a scroll away."""


def clear_screen(console: Console) -> None:
    """Wipe the terminal, scrollback included (nothing to wipe when not a terminal)."""
    if not console.is_terminal:
        return
    control = Control()
    control.segment = Segment(CLEAR_SCREEN_AND_SCROLLBACK, None,
                              [(ControlType.HOME,), (ControlType.CLEAR,)])
    console.control(control)


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
        self.dealing: int | None = None
        """The number of the deal on the table once dealt (until it is saved)."""
        self.hand_seen = False
        """Whether a human has been shown a hand: then a stopped deal is dealt afresh."""
        seed = session.virtual.seed if session.virtual else 0
        self.hint_rng = match.derive_rng(seed, "hints", len(session.rounds))
        """For the strong bot's hints: apart from the game's own generators."""

    def ask(self, prompt: str) -> str:
        try:
            return prompts.read_line(self.console, render.plain(f"{prompt}: ", style="bold"))
        except EOFError:
            raise KeyboardInterrupt from None

    def say(self, thing: RenderableType | str) -> None:
        self.console.print(Text(thing) if isinstance(thing, str) else thing)

    def hand_over_to(self, player: str) -> None:
        """With two or more humans, hide the last hand and wait for the next player.

        Every hand is behind a hand-over, the first of a game (or of a resumed game)
        included: whoever sits at the keyboard when it starts is not necessarily the
        player to act."""
        if len(self.humans) < 2 or self.shown_to == player:
            return
        hiding = self.shown_to is not None
        if hiding:
            clear_screen(self.console)
        self.ask(f"Pass the keyboard to {player} and press Enter")
        if hiding:
            clear_screen(self.console)
            missed = self.events[self.caught_up.get(player, 0):]
            if missed:
                self.say(Text("Since your last turn:", style="dim"))
                for event in missed:
                    self.say(event)
        self.shown_to = player
        self.caught_up[player] = len(self.events)

    def choose(self, player: str, view: Any, problem: str | None) -> Any:
        self.hand_over_to(player)
        self.hand_seen = True
        if problem is not None:
            self.say(Text(f"Not allowed: {problem}", style="bold red"))
        else:
            self.say(self.ui.render_view(view))
        return self.ui.read_action(view, self.ask, self.say, self.hint_rng)

    def announce(self, event: RenderableType) -> None:
        self.events.append(event)
        self.say(event)
        if self.shown_to is not None:
            self.caught_up[self.shown_to] = len(self.events)

    def on_action(self, player: str, action: Any, deal: Any) -> None:
        if self.ui is None:
            return
        self.announce(self.ui.describe_action(player, action, deal))
        if deal.is_over:
            self.announce(self.ui.describe_end(deal))

    def on_start(self, deal: Any) -> None:
        number = len(self.session.rounds) + 1
        self.dealing = number
        if self.ui is None:
            return
        title = render.plain(f"Deal {number} — {deal.dealer} deals")
        if match.restarts_of(self.session).get(number):
            title.append(" (dealt again: a fresh shuffle)")
        self.announce(Rule(title))


def deal_report(session: Session, *, with_standings: bool) -> list[RenderableType]:
    """What the table hears after a deal is saved: its scores, then each knock-out."""
    summary = session.standings.rounds[-1]
    if with_standings:
        scores = ", ".join(f"{n} +{s}" for n, s in summary["scores"].items())
        lines: list[RenderableType] = [render.plain(f"Deal {summary['number']} saved: {scores}")]
    else:
        line = session.describe_round(summary["number"])
        lines = [render.plain(line[:1].upper() + line[1:])]
    limit = session.rules.target(session.options)
    for name in summary.get("knocked_out", []):
        total = session.standings.totals[name]
        lines.append(render.plain(f"{name} is knocked out: {total} is over the limit of "
                                  f"{limit}.", style="bold red"))
    if with_standings:
        lines.append(compact.standings(console, session))
    return lines


def record_restart(db: Store, session_id: int, number: int, revision: int) -> bool:
    """Mark deal ``number`` abandoned in the store, so a resume deals fresh cards.

    Only while the stored game still waits for that deal (nothing else changed it:
    it is at the ``revision`` this play last wrote)."""
    with db.write() as view:
        stored = view.get(session_id)
        if stored.revision != revision or stored.finished or len(stored.rounds) + 1 != number:
            return False
        view.put(match.record_restart(stored, number))
    return True


def default_player_name() -> str:
    """The name of the person at the keyboard when ``--player`` is not given: their login
    name when it reads as a name ("Sam deals"), else "Player"."""
    try:
        login = getpass.getuser()
    except (OSError, KeyError):
        login = ""
    if login.isalpha() and login.isascii() and 2 <= len(login) <= 20:
        return login.capitalize()
    return "Player"


@game_options_module.takes(game_options_module.house_rule_parameters)
def play(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help=game_options_module.game_names() + ".")] = "",
    player: Annotated[list[str] | None, typer.Option(
        "--player", "-p", help="A human player at this keyboard (repeat).")] = None,
    bot: Annotated[list[str] | None, typer.Option(
        "--bot", "-b", help=f"A bot: {game_options_module.bot_levels()} (repeat).")] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the shuffles and "
                                             "the bots (default: a random one, shown).")] = None,
    name: Annotated[str, typer.Option("--name", help="A name for the session.")] = "",
    resume: Annotated[int | None, typer.Option("--resume", help="Continue the unfinished "
                                               "virtual session ID.")] = None,
    **game_options: Any,
) -> None:
    """Play a full game with a shuffled virtual deck: humans at one keyboard and bots."""
    with contextlib.ExitStack() as held:
        house_rules = {key: value for key, value in game_options.items() if value is not None}
        _play(ctx, held, game, player, bot, seed, name, resume, house_rules)


def _drive(db: Store, session_id: int, held: contextlib.ExitStack) -> None:
    """Take the session's lease for as long as ``held`` lasts: one `play` per session."""
    lease = SessionLease(db.lease_path(session_id))
    if not lease.acquire():
        raise EntryError(f"session {session_id} is being played by another `score play` "
                         "right now; only one can drive a game at a time (stop that one, "
                         f"then `score play --resume {session_id}`)")
    held.callback(lease.release)


def _play(ctx: typer.Context, held: contextlib.ExitStack, game: str, player: list[str] | None,
          bot: list[str] | None, seed: int | None, name: str, resume: int | None,
          house_rules: dict[str, Any]) -> None:
    db = store(ctx)
    was_current: int | None = None  # the current session before a new game's
    if resume is not None:
        if player or bot or seed is not None or house_rules or name:
            raise typer.BadParameter("--resume continues a saved game: give no --player, "
                                     "--bot, --seed, house rule or --name with it")
        session = db.read().get(resume)
        seats = match.seats_of(session)
        if session.finished:
            raise EntryError(f"{session.label} is finished: nothing to resume")
        if game and get_game(game).name != session.game:
            raise EntryError(f"session {resume} is {session.rules.title}, not {game}")
        _drive(db, resume, held)

        def start(view: WritableStoreView) -> Session:
            view.set_current(resume)  # once, at the start
            return view.get(resume)

        session = db.update(start)  # as stored now that this play drives it
        if session.finished:
            raise EntryError(f"{session.label} is finished: nothing to resume")
    else:
        if not game:
            raise typer.BadParameter("say which game: score play "
                                     + game_options_module.game_names("|"))
        rules = get_game(game)
        get_virtual(rules.name)
        chosen_for_you = not player and len(bot or ()) < 2 and sys.stdin.isatty()
        if chosen_for_you:  # `score play least-score`: you against a bot
            player, bot = [default_player_name()], bot or ["strong"]
        if player:
            ui_for(rules.name)
        seats = match.make_seats(player or [], bot or [])
        seed = seed if seed is not None else secrets.randbelow(10**9)
        game_options_module.check_house_rules(rules.name, house_rules)
        session = match.start_game(rules.name, seats, seed, name=name, options=house_rules)
        with db.write() as view:
            was_current = view.current_id
            session = view.add(session)  # and it becomes the current session
            # Before the game is saved, so no `play --resume` can take it first.
            _drive(db, session.id or 0, held)
        console.print(render.plain(f"Session {session.id}: {session.rules.title}, "
                                   f"{', '.join(s.name for s in seats)}; seed {seed}. "
                                   "Saved after every deal."))
        if chosen_for_you:
            console.print(render.plain(f"You play as {seats[0].name} (--player NAME for "
                                       "another name, --bot LEVEL for other opponents)."))
    humans = [seat.name for seat in seats if seat.bot is None]
    table = Table(console, session, humans)
    hooks: dict[str, Any] = {"on_start": table.on_start}
    if humans:
        hooks.update(choose_human=table.choose, on_action=table.on_action)

    written = session.revision  # a deal is saved only over the revision this play wrote

    def save(updated: Session) -> None:
        nonlocal written
        try:
            with db.write() as view:
                updated = view.put(updated.with_revision(written))
        except SessionChanged:
            done = len(updated.rounds) - 1
            raise EntryError(
                f"session {updated.id} was changed by another score command during this "
                f"game, so deal {done + 1} was not saved and the game stopped; the "
                f"{count(done, 'deal')} saved before are safe: `score play --resume "
                f"{updated.id}` goes on from the game as it is stored now") from None
        written = updated.revision
        table.session = updated
        for line in deal_report(updated, with_standings=bool(humans)):
            console.print(line)

    try:
        session = match.play_to_end(session, on_deal=save, **hooks)
    except KeyboardInterrupt:
        done = len(table.session.rounds)
        if resume is None and done == 0 and not table.hand_seen and session.id is not None:
            # Nobody has seen a card: nothing to keep (a seen deal is kept, to be dealt
            # afresh on --resume, below).
            _discard_unplayed(db, session.id, written, was_current)
            console.print(Text("\nStopped before the first deal was over: nothing was "
                               "saved."))
            raise typer.Exit(130) from None
        saved = f"after deal {done}" if done else "with no deal finished yet"
        again = "the unfinished deal will be dealt again"
        abandoned = table.dealing
        if (abandoned == done + 1 and session.id is not None
                and record_restart(db, session.id, abandoned, written)):
            again = f"deal {abandoned} will be dealt again from a fresh shuffle"
        console.print(Text(f"\nStopped. The game is saved {saved}; {again}: "
                           f"`score play --resume {session.id}` continues it."))
        raise typer.Exit(130) from None
    if not humans:  # with humans, the standings were shown after the last deal
        console.print(compact.standings(console, session))
    console.print(render.ending(session))


def _discard_unplayed(db: Store, session_id: int, revision: int,
                      was_current: int | None) -> None:
    """A game stopped before anyone saw a card leaves no empty session behind (unless
    another command has changed it meanwhile)."""
    with contextlib.suppress(StoreError):
        db.update(lambda view: view.discard(session_id, revision, was_current))


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
    if declaration_of(session.game).keyboard_ui is None:
        raise EntryError(f"{session.rules.title} deals can't be replayed yet")
    ui = ui_for(session.game)
    rounds = session.standings.rounds
    if round_number is not None:
        session.check_round_number(round_number)
    wait = sys.stdin.isatty() if pause is None else pause
    chosen = rounds if round_number is None else [rounds[round_number - 1]]
    missing = [summary["number"] for summary in chosen
               if "deal" not in summary or "actions" not in summary]
    if missing:
        raise EntryError(f"round {missing[0]} of {session.label} has no recorded deal to replay")
    if wait:
        console.print(Text(REPLAY_KEYS, style="dim"))
    index = 0
    try:
        while 0 <= index < len(chosen):
            move = _replay_deal(ui, virtual, session, chosen[index], wait)
            if move is None:
                return
            index = max(0, index + move)
    except (KeyboardInterrupt, EOFError):
        console.print()  # the shell's prompt comes back on a line of its own
        console.print(Text("Replay stopped.", style="dim"))
        raise typer.Exit(130) from None


REPLAY_KEYS = "Enter: next action · n: next deal · p: previous deal · q: quit"


def _replay_deal(ui: Any, virtual: Any, session: Session, summary: Mapping[str, Any],
                 wait: bool) -> int | None:
    """Show one deal action by action: +1 to go on to the next deal, -1 back to the
    previous one, None to quit (``q``)."""
    actions = summary["actions"]
    console.print(Rule(render.plain(f"Deal {summary['number']} — "
                                    f"{summary['deal']['dealer']} deals")))
    console.print(ui.replay_state(virtual.replay(summary, session.options, upto=0)))
    for step, record in enumerate(actions, start=1):
        if wait:
            key = _replay_key()
            if key != "":
                return None if key == "q" else (1 if key == "n" else -1)
        deal = virtual.replay(summary, session.options, upto=step)
        console.print(Text(f"{step:>3}. ").append_text(ui.describe_step(record, deal)))
        if not deal.is_over and "reshuffle" not in record:
            console.print(ui.replay_state(deal))
    final = virtual.replay(summary, session.options)
    console.print(ui.describe_end(final))
    return 1


def _replay_key() -> str:
    """The key typed at a replay's pause: "" (Enter), "n", "p" or "q"."""
    while True:
        answer = prompts.read_line(console, Text("(Enter: next)", style="dim")).strip().lower()
        if answer in ("", "n", "p", "q"):
            return answer
        if answer in ("quit", "exit"):
            return "q"
        console.print(Text(REPLAY_KEYS, style="dim"))


@game_options_module.takes(game_options_module.house_rule_parameters)
def simulate(
    game: Annotated[str, typer.Argument(
        help=game_options_module.game_names() + "; or merge, then the files of "
        "--save-partial.")],
    files: Annotated[list[Path] | None, typer.Argument(
        metavar="FILE", help="With merge: partial results to add up.",
        show_default=False)] = None,
    bot: Annotated[list[str] | None, typer.Option(
        "--bot", "-b", help=f"A seat's bot: {game_options_module.bot_levels()} (repeat, in "
        "seat order).")] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games.")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="The seed of the whole run.")] = 1,
    jobs: Annotated[int | None, typer.Option(
        "--jobs", "-j", min=1, help="Processes to use (results do not depend on it; "
        "default 1, with --backend ray every CPU of the cluster).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
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
    **game_options: Any,
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
    house_rules = {key: value for key, value in game_options.items() if value is not None}
    if game.strip().lower() == "merge":
        given = [bot, jobs, shard, save_partial, address]
        if any(value is not None for value in given) or backend != "local" or house_rules:
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
        usage("give each seat's bot: --bot LEVEL, once per seat "
              f"({game_options_module.bot_levels()})")
    rules = get_game(game)
    seats = [match.Seat(f"P{i + 1}", level) for i, level in enumerate(bot)]
    match.check_seats(rules.name, seats)
    game_options_module.check_house_rules(rules.name, house_rules)
    options = rules.check_options(house_rules)
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
    table = RichTable(title=f"{rules.title}: {count(result['games'], 'game')}, seed "
                      f"{result['seed']}{extra}, {result['seconds']:.1f} s",
                      title_justify="left")
    for column in ("Seat", "Bot", "Wins", "Win rate", "95% interval"):
        table.add_column(column, justify="left" if column in ("Seat", "Bot") else "right")
    for index, seat in enumerate(result["seats"], start=1):
        low, high = seat["ci95"]
        table.add_row(str(index), seat["bot"], f"{seat['wins']:g}",
                      f"{seat['win_rate']:.1%}", f"{low:.1%} – {high:.1%}")
    console.print(table)
    console.print(f"Mean deals per game: {result['mean_deals']:.2f}")
    for key, value in result.items():  # the game's own rates (its virtual adapter's stats)
        if key.endswith("_rate") and isinstance(value, float):
            console.print(f"{key.replace('_', ' ').capitalize()}: {value:.1%}")
