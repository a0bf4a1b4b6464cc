"""``score play``, ``score replay`` and ``score simulate``: the virtual deck's front end.

The game-specific parts (showing a view, reading a move, telling an action) live
in one small UI module per game; everything else is shared.
"""

from __future__ import annotations

import dataclasses
import getpass
import importlib
import secrets
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, RenderableType
from rich.control import Control
from rich.segment import ControlType, Segment
from rich.text import Text

from scorekeeper import i18n, match, playing, ranking
from scorekeeper import simulation as runner
from scorekeeper.card_printing import plain
from scorekeeper.cli import game_options as game_options_module
from scorekeeper.cli import prompts
from scorekeeper.cli.context import console, store, usage
from scorekeeper.i18n import N_, _, ngettext, pgettext
from scorekeeper.keyboard import MoveList
from scorekeeper.kit.entries import EntryError
from scorekeeper.kit.rounds import RecordedDeal, ScoredRound
from scorekeeper.playing import GameLife
from scorekeeper.registry import DECLARATIONS, declaration_of, get_game, get_virtual
from scorekeeper.session import Session
from scorekeeper.store import Store
from scorekeeper.views import compact, render


def ui_for(game: str) -> Any:
    """The game's keyboard UI module, imported on first use (its declaration names it)."""
    module = declaration_of(game).keyboard_ui
    if module is None:
        raise EntryError(_("{game} can't be played at the keyboard yet").format(
            game=get_game(game).title))
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
        self.hand_seen = False
        """Whether a human has been shown a hand: then a stopped deal is dealt afresh."""
        self.seed = session.virtual.seed if session.virtual else 0
        """The game's seed: the strong bot's hints draw from it and the position alone."""

    def ask(self, prompt: str) -> str:
        try:
            return prompts.read_line(self.console, plain(f"{prompt}: ", style="bold"))
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
        # public: the whole table knows the score
        self.say(MoveList(totals_line(self.session).plain, style="bold"))
        self.ask(_("Pass the keyboard to {player} and press Enter").format(player=player))
        if hiding:
            clear_screen(self.console)
            missed = self.events[self.caught_up.get(player, 0):]
            if missed:
                self.say(Text(_("Since your last turn:"), style="dim"))
                for event in missed:
                    self.say(event)
        self.shown_to = player
        self.caught_up[player] = len(self.events)

    def choose(self, player: str, view: Any, problem: str | None) -> Any:
        self.hand_over_to(player)
        self.hand_seen = True
        if problem is not None:
            self.say(plain(_("Not allowed: {problem}").format(problem=problem),
                                  style="bold red"))
        else:
            self.say(self.ui.render_view(view))
        # Apart from the game's own generators, and the same for the same position.
        hint_rng = match.derive_rng(self.seed, "hints", match.position_key(view))
        return self.ui.read_action(view, self.ask, self.say, hint_rng)

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
        if self.ui is None:
            return
        title = plain(_("Deal {number} — {dealer} deals").format(number=number,
                                                                        dealer=deal.dealer))
        if match.restarts_of(self.session).get(number):
            title.append(" " + _("(dealt again: a fresh shuffle)"))
        self.announce(render.Heading(title))


def totals_line(session: Session) -> Text:
    """The game's totals in one line, for the hand-over screen: each player's total and
    what is left before the limit (or still to reach the target), and who is out."""
    standings = session.standings
    parts = []
    for name in session.players:
        total, left = standings.totals[name], ranking.margin(session, name)
        if name in standings.knocked_out:
            part = _("{name} {total} (out)")
        elif ranking.counts_to_limit(session):
            part = _("{name} {total} ({left} left)")
        else:
            part = _("{name} {total} ({left} to go)")
        parts.append(part.format(name=name, total=total, left=left))
    target = session.rules.target(session.options)
    heading = (_("Totals, limit {target}: {players}") if ranking.counts_to_limit(session)
               else _("Totals, to {target}: {players}"))
    return plain(heading.format(target=target, players=" · ".join(parts)),
                        style="bold")


def deal_report(session: Session, *, with_standings: bool) -> list[RenderableType]:
    """What the table hears after a deal is saved: its scores, then each knock-out."""
    summary = session.standings.rounds[-1]
    if with_standings:
        scores = render.comma().join(f"{n} +{s}" for n, s in summary.scores.items())
        lines: list[RenderableType] = [plain(_("Deal {number} saved: {scores}").format(
            number=summary.number, scores=scores))]
    else:
        line = session.describe_round(summary.number)
        lines = [plain(line[:1].upper() + line[1:])]
    limit = session.rules.target(session.options)
    for name in summary.knocked_out:
        total = session.standings.totals[name]
        lines.append(plain(_("{name} is knocked out: {total} is over the limit of "
                                    "{limit}.").format(name=name, total=total, limit=limit),
                                  style="bold red"))
    if with_standings:
        lines.append(compact.standings(console, session))
    return lines


def default_player_name() -> str:
    """The name of the person at the keyboard when ``--player`` is not given: their login
    name when it reads as a name ("Sam deals"), else "Player"."""
    try:
        login = getpass.getuser()
    except (OSError, KeyError):
        login = ""
    if login.isalpha() and login.isascii() and 2 <= len(login) <= 20:
        return login.capitalize()
    return _("Player")


LEVEL_STRENGTH = {
    "random": N_("random, any legal move"),
    "greedy": N_("greedy, beats random almost always"),
    "strong": N_("strong, beats greedy almost always"),
    "expert": N_("expert, the strongest: wins 6 or 7 duels in 10 against strong"),
}
"""Each bot level in a few words, by its measured strength (benchmarks/ladder.py, the
ladder in docs/bots.md ("The ladder"))."""


def levels_by_strength() -> str:
    """The bot levels the games offer, each with its measured strength."""
    levels = dict.fromkeys(level for declaration in DECLARATIONS.values()
                           for level in declaration.bots)
    return "; ".join(_(LEVEL_STRENGTH[level]) if level in LEVEL_STRENGTH else level
                     for level in levels)


@game_options_module.takes(game_options_module.house_rule_parameters,
                           game_options_module.played_game)
def play(
    ctx: typer.Context,
    game: Annotated[str, game_options_module.help_when_built(
        typer.Argument(), lambda: _("{games}.").format(
            games=game_options_module.game_names()))] = "",
    player: Annotated[list[str] | None, typer.Option(
        "--player", "-p", help=N_("A human player (repeat): at this keyboard, or on their own "
                                  "page with --online."))] = None,
    bot: Annotated[list[str] | None, game_options_module.help_when_built(
        typer.Option("--bot", "-b"), lambda: _("A bot (repeat): {levels}.").format(
            levels=levels_by_strength()))] = None,
    seed: Annotated[int | None, typer.Option("--seed", help=N_(
        "Seed of the shuffles and the bots (default: a random one, shown; with --online "
        "a random one, never shown)."))] = None,
    name: Annotated[str, typer.Option("--name", help=N_("A name for the session."))] = "",
    resume: Annotated[int | None, typer.Option("--resume", help=N_(
        "Continue the unfinished virtual session ID."))] = None,
    online: Annotated[bool, typer.Option("--online", help=N_(
        "Every human plays on their own phone: each gets a link and a QR code."))] = False,
    host: Annotated[str | None, typer.Option("--host", help=N_(
        "With --online, the address to listen on: 127.0.0.1 is this computer only; "
        "0.0.0.0 lets in every phone on your network."))] = None,
    port: Annotated[int | None, typer.Option(
        "--port", min=0, max=65535, help=N_("With --online, the port (0: any free one)."))
    ] = None,
    reveal_seed: Annotated[bool, typer.Option("--reveal-seed", help=N_(
        "With --online and --seed: play anyway, knowing that whoever knows the seed can "
        "compute every hand."))] = False,
    **game_options: Any,
) -> None:
    """Play a full game with a shuffled virtual deck: humans at one keyboard and bots."""
    house_rules = {key: value for key, value in game_options.items() if value is not None}
    if not online and (host is not None or port is not None):
        raise typer.BadParameter(_("--host and --port go with --online"))
    if reveal_seed and not (online and seed is not None):
        raise typer.BadParameter(_("--reveal-seed goes with --online and --seed"))
    if online and seed is not None and not reveal_seed:
        raise typer.BadParameter(_("with --online, --seed would let whoever knows it "
                                   "compute every hand: leave it out for a fair game, or "
                                   "add --reveal-seed"))
    db = store(ctx)
    if resume is not None:
        if player or bot or seed is not None or house_rules or name:
            raise typer.BadParameter(_("--resume continues a saved game: give no --player, "
                                       "--bot, --seed, house rule or --name with it"))
        life = GameLife.resume(db, resume, game)
        if online:
            online_ui_for(life.session.game)
    else:
        life = _start(db, game, player, bot, seed, name, house_rules, online=online)
    with life:
        if life.resumed:
            session = life.session
            console.print(plain(ngettext(
                "Resuming {session} after {n} deal.", "Resuming {session} after {n} deals.",
                len(session.rounds)).format(session=session.label, n=len(session.rounds))))
            console.print(MoveList(totals_line(session).plain, style="bold"))
        if online:
            _play_online(life, host, port)
        else:
            _play(life)


def _play_online(life: GameLife, host: str | None, port: int | None) -> None:
    """Play ``life``'s game with every human on their own page; the terminal shows the
    public table, who is being waited for, and each deal's scores."""
    from scorekeeper.cli import online_play  # start-up: only --online loads the server

    if life.kept is not None:
        console.print(kept_current(life.kept, life.session))
    game = online_ui_for(life.session.game)
    with online_play.seats_served(life, game, host or online_play.DEFAULT_HOST,
                                  online_play.DEFAULT_PORT if port is None else port
                                  ) as table:
        hooks = table.hooks()
        on_saved = hooks.on_saved

        def saved(session: Session) -> None:
            if on_saved is not None:
                on_saved(session)
            for line in deal_report(session, with_standings=True):
                console.print(line)

        try:
            session = life.play(dataclasses.replace(hooks, on_saved=saved))
            time.sleep(1.0)  # the pages see the game's end before the server stops
        except KeyboardInterrupt:
            console.print(Text("\n" + stopped_line(life.stop(hand_seen=table.hand_seen))))
            raise typer.Exit(130) from None
    console.print(compact.standings(console, session))
    console.print(render.ending(session))
    if life.kept is not None:
        console.print(kept_current(life.kept, session))


def online_ui_for(game: str) -> Any:
    """The game's phone UI module (``score play --online``), imported on first use."""
    module = declaration_of(game).online_ui
    if module is None:
        raise EntryError(_("{game} can't be played online yet").format(
            game=get_game(game).title))
    return importlib.import_module(module)


def _start(db: Store, game: str, player: list[str] | None, bot: list[str] | None,
           seed: int | None, name: str, house_rules: Mapping[str, object], *,
           online: bool = False) -> GameLife:
    """A new game from the command line's players, bots, seed and house rules."""
    if not game:
        raise typer.BadParameter(_("say which game: {usage}").format(
            usage="score play " + game_options_module.game_names("|")))
    rules = get_game(game)
    get_virtual(rules.name)
    chosen_for_you = not player and len(bot or ()) < 2 and sys.stdin.isatty()
    if chosen_for_you:  # `score play least-score`: you against a bot
        player, bot = [default_player_name()], bot or ["strong"]
    if online:
        online_ui_for(rules.name)
    elif player:
        ui_for(rules.name)
    seats = match.make_seats(player or [], bot or [])
    if seed is None:
        # Online, no one may learn the seed from a seat's own hand: 63 bits are beyond
        # trying every seed (10**9 are not).
        seed = secrets.randbits(63) if online else secrets.randbelow(10**9)
    game_options_module.check_house_rules(rules.name, house_rules)
    from scorekeeper.cli import nights  # start-up: its stats are not replay's nor simulate's

    # as `score new`: the config's house rules, then the line's
    house_rules = {**nights.load_config().rules_for(rules.name), **house_rules}
    life = GameLife.start(db, rules.name, seats, seed, name=name, options=house_rules)
    session = life.session
    players = render.comma().join(s.name for s in seats)
    if online:  # the seed would let anyone who sees this screen compute every hand
        console.print(plain(_("Session {id}: {game}, {players}. Saved after every "
                              "deal.").format(id=session.id, game=session.rules.title,
                                              players=players)))
    else:
        console.print(plain(_("Session {id}: {game}, {players}; seed {seed}. Saved after "
                              "every deal.").format(id=session.id, game=session.rules.title,
                                                    players=players, seed=seed)))
    if chosen_for_you:
        console.print(plain(_("You play as {name} (--player NAME for another name, "
                              "--bot LEVEL for other opponents).").format(name=seats[0].name)))
    return life


def _play(life: GameLife) -> None:
    """Play ``life``'s game to its end at this terminal, saying what happens."""
    if life.kept is not None:
        console.print(kept_current(life.kept, life.session))
    humans = life.humans
    table = Table(console, life.session, humans)

    def saved(session: Session) -> None:
        table.session = session
        for line in deal_report(session, with_standings=bool(humans)):
            console.print(line)

    hooks = playing.PlayHooks(on_start=table.on_start, on_saved=saved)
    if humans:
        hooks = dataclasses.replace(hooks, choose_human=table.choose, on_action=table.on_action)
    try:
        session = life.play(hooks)
    except KeyboardInterrupt:
        console.print(Text("\n" + stopped_line(life.stop(hand_seen=table.hand_seen))))
        raise typer.Exit(130) from None
    if not humans:  # with humans, the standings were shown after the last deal
        console.print(compact.standings(console, session))
    console.print(render.ending(session))
    if life.kept is not None:
        console.print(kept_current(life.kept, session))
    if humans:
        console.print(plain(_("Where did you give points away? The bot's review: "
                              "{command}").format(command=f"score review {session.id}")))


def stopped_line(stopped: playing.Stopped) -> str:
    """What the table is told after Ctrl-C, by what :meth:`GameLife.stop` did."""
    if stopped.kind is playing.StopKind.NOTHING_SAVED:
        return _("Stopped before the first deal was over: nothing was saved.")
    if stopped.kind is playing.StopKind.DELETED:
        return _("Stopped. Session {id} was deleted by another score command during this "
                 "game: nothing more of it can be saved.").format(id=stopped.session_id)
    again = _("the unfinished deal will be dealt again") if stopped.dealt_again is None \
        else _("deal {number} will be dealt again from a fresh shuffle").format(
            number=stopped.dealt_again)
    line = (_("Stopped. The game is saved after deal {done}; {again}: `score play "
              "--resume {id}` continues it.") if stopped.done else
            _("Stopped. The game is saved with no deal finished yet; {again}: `score "
              "play --resume {id}` continues it."))
    return line.format(done=stopped.done, again=again, id=stopped.session_id)


def kept_current(kept: Session, game: Session) -> Text:
    """The line that says the table's session stayed current, and how to find the game."""
    return plain(_("{session} stays the current session; this game is session {id}: "
                          "`score show {id}`, `score replay {id}`, `score export {id}`.").format(
        session=kept.label, id=game.id), style="dim")


def replay(
    ctx: typer.Context,
    session_id: Annotated[int, typer.Argument(metavar="ID", help=N_("A virtual session."))],
    round_number: Annotated[int | None, typer.Option("--round", "-r", help=N_(
        "Only this deal (default: every deal)."))] = None,
    pause: Annotated[bool | None, typer.Option("--pause/--no-pause", help=N_(
        "Wait for Enter after each action (default: at a terminal)."))] = None,
) -> None:
    """Step through a saved virtual deal, card by card, every hand face up."""
    session = store(ctx).read().get(session_id)
    if session.mode != "virtual":
        # Not seats_of(): an imported virtual game has its deals but not its seats.
        raise EntryError(_("session {id} was entered at a table, not played on the virtual "
                           "deck: it has no deals to replay").format(id=session_id))
    virtual = get_virtual(session.game)
    if declaration_of(session.game).keyboard_ui is None:
        raise EntryError(_("{game} deals can't be replayed yet").format(game=session.rules.title))
    ui = ui_for(session.game)
    rounds = session.standings.rounds
    if round_number is not None:
        session.check_round_number(round_number)
    wait = sys.stdin.isatty() if pause is None else pause
    chosen = rounds if round_number is None else [rounds[round_number - 1]]
    missing = [summary.number for summary in chosen
               if summary.recorded is None or not summary.recorded.complete]
    if missing:
        raise EntryError(_("round {number} of {session} has no recorded deal to replay").format(
            number=missing[0], session=session.label))
    if wait:
        console.print(Text(_(REPLAY_KEYS), style="dim"))
    index = 0
    try:
        while 0 <= index < len(chosen):
            move = _replay_deal(ui, virtual, session, chosen[index], wait)
            if move is None:
                return
            index = max(0, index + move)
    except (KeyboardInterrupt, EOFError):
        console.print()  # the shell's prompt comes back on a line of its own
        console.print(Text(_("Replay stopped."), style="dim"))
        raise typer.Exit(130) from None


REPLAY_KEYS = N_("Enter: next action · n: next deal · p: previous deal · q: quit")
"""The letters are the keys to type, in every language."""


def _replay_deal(ui: Any, virtual: Any, session: Session, summary: ScoredRound,
                 wait: bool) -> int | None:
    """Show one deal action by action: +1 to go on to the next deal, -1 back to the
    previous one, None to quit (``q``)."""
    recorded = summary.recorded or RecordedDeal()  # replay checked that it has one
    actions = recorded.actions
    console.print(render.Heading(plain(_("Deal {number} — {dealer} deals").format(
        number=summary.number, dealer=recorded.dealer))))
    console.print(ui.replay_state(virtual.replay(recorded, session.options, upto=0)))
    for step, record in enumerate(actions, start=1):
        if wait:
            key = _replay_key()
            if key != "":
                return None if key == "q" else (1 if key == "n" else -1)
        deal = virtual.replay(recorded, session.options, upto=step)
        console.print(Text(f"{step:>3}. ").append_text(ui.describe_step(record, deal)))
        if not deal.is_over and "reshuffle" not in record:
            console.print(ui.replay_state(deal))
    final = virtual.replay(recorded, session.options)
    console.print(ui.describe_end(final))
    return 1


def _replay_key() -> str:
    """The key typed at a replay's pause: "" (Enter), "n", "p" or "q"."""
    while True:
        answer = prompts.read_line(console, Text(_("(Enter: next)"), style="dim")).strip().lower()
        if answer in ("", "n", "p", "q"):
            return answer
        if answer in ("quit", "exit"):
            return "q"
        console.print(Text(_(REPLAY_KEYS), style="dim"))


@game_options_module.takes(game_options_module.house_rule_parameters)
def simulate(
    game: Annotated[str, game_options_module.help_when_built(
        typer.Argument(), lambda: _("{games}; or merge, then the files of --save-partial.")
        .format(games=game_options_module.game_names()))],
    files: Annotated[list[Path] | None, typer.Argument(
        metavar="FILE", help=N_("With merge: partial results to add up."),
        show_default=False)] = None,
    bot: Annotated[list[str] | None, game_options_module.help_when_built(
        typer.Option("--bot", "-b"), lambda: _("A seat's bot: {levels} (repeat, in seat "
                                               "order).").format(
            levels=game_options_module.bot_levels()))] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1,
                                       help=N_("How many games."))] = 100,
    seed: Annotated[int, typer.Option("--seed", help=N_("The seed of the whole run."))] = 1,
    jobs: Annotated[int | None, typer.Option(
        "--jobs", "-j", min=1, help=N_("Processes to use (results do not depend on it; "
                                       "default 1, with --backend ray every CPU of the "
                                       "cluster)."))] = None,
    as_json: Annotated[bool, typer.Option("--json",
                                          help=N_("Print one JSON object."))] = False,
    shard: Annotated[str | None, typer.Option(
        "--shard", metavar="I/N", help=N_("Play only the I-th of N slices of the games "
                                          "(for several machines; add them up with "
                                          "merge)."))] = None,
    save_partial: Annotated[Path | None, typer.Option(
        "--save-partial", metavar="FILE", help=N_("Also write the counts to FILE, for "
                                                  "score simulate merge."))] = None,
    backend: Annotated[str, typer.Option(
        "--backend", help=N_("local (processes of this machine) or ray (a Ray cluster; "
                             "pip install 'cardnight-scorekeeper[ray]')."))] = "local",
    address: Annotated[str | None, typer.Option(
        "--address", help=N_("With --backend ray: the cluster's address (default: start "
                             "Ray on this machine)."))] = None,
    **game_options: Any,
) -> None:
    """Bots against bots, many games, nothing saved: win rates with intervals (95%)."""
    house_rules = {key: value for key, value in game_options.items() if value is not None}
    if game.strip().lower() == "merge":
        given = [bot, jobs, shard, save_partial, address]
        if any(value is not None for value in given) or backend != "local" or house_rules:
            usage(_("merge takes only the partial results' files and --json"))
        _merge(files, as_json)
        return
    if files:
        usage(_("unexpected argument {argument}: only merge takes files").format(
            argument=repr(str(files[0]))))
    run = _run_of(game, bot, games, seed, shard, backend, address, house_rules)
    if save_partial is not None and (save_partial.is_dir() or not save_partial.parent.is_dir()):
        raise EntryError(_("--save-partial {file}: not a file in an existing folder").format(
            file=save_partial))
    summary, seconds = _play_run(run, jobs, backend, address)
    if save_partial is not None:
        runner.save_partial(save_partial, run, summary, seconds)
    where = "" if shard is None else _("shard {shard} (games {first}-{last})").format(
        shard=shard, first=run.start + 1, last=run.stop)
    _print_results(summary.as_json(seed, seconds), as_json, note=where)
    if save_partial is not None and not as_json:
        console.print(Text(_("Partial results saved to {file}: add the shards up with "
                             "`score simulate merge FILE...`.").format(file=save_partial)))


def _merge(files: list[Path] | None, as_json: bool) -> None:
    """``score simulate merge FILE...``: the partial results added up, printed."""
    if not files:
        usage(_("merge needs the files of score simulate --save-partial: "
                "score simulate merge FILE... [--json]"))
    merged = runner.merge(files)
    if merged.missing:
        ranges = ", ".join(f"{start + 1}-{stop}" for start, stop in merged.missing)
        err_console().print(Text(_("note: these files hold {held} of the run's {games} "
                                   "games (missing: {ranges})").format(
            held=merged.summary.games, games=merged.run.games, ranges=ranges)))
    _print_results(merged.summary.as_json(merged.run.seed, merged.seconds), as_json,
                   note=ngettext("{n} file merged", "{n} files merged",
                                 len(files)).format(n=len(files)))


def _run_of(game: str, bot: list[str] | None, games: int, seed: int, shard: str | None,
            backend: str, address: str | None,
            house_rules: Mapping[str, object]) -> runner.Run:
    """The run the command line asks for, checked: its game, seats, house rules, backend
    and slice of the games."""
    if not bot:
        usage(_("give each seat's bot: --bot LEVEL, once per seat ({levels})").format(
            levels=game_options_module.bot_levels()))
    rules = get_game(game)
    seats = [match.Seat(f"P{i + 1}", level) for i, level in enumerate(bot)]
    match.check_seats(rules.name, seats)
    game_options_module.check_house_rules(rules.name, house_rules)
    options = rules.check_options(house_rules)
    if backend not in ("local", "ray"):
        usage(_("--backend must be local or ray, not {backend}").format(backend=repr(backend)))
    if address is not None and backend != "ray":
        usage(_("--address goes with --backend ray"))
    start, stop = 0, games
    if shard is not None:
        try:
            start, stop = runner.shard_slice(shard, games)
        except ValueError as error:
            usage(str(error))
    return runner.Run(rules.name, tuple(bot), seed, options, games, start, stop)


def err_console() -> Console:
    """Where simulate's progress and notes go: stderr, so that --json stays one object."""
    return Console(stderr=True, highlight=False)


def _play_run(run: runner.Run, jobs: int | None, backend: str,
              address: str | None) -> tuple[match.SimulationSummary, float]:
    """Play the run's games with a progress bar at a terminal; Ctrl-C stops it (130)."""
    # start-up: the progress bar is simulate's alone
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    errors = err_console()
    total = run.stop - run.start
    played = 0

    def advance(done: int) -> None:
        nonlocal played
        played += done
        progress.advance(task, done)

    try:
        with Progress(TextColumn("[progress.description]{task.description}"), BarColumn(),
                      MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
                      console=errors, disable=not errors.is_terminal) as progress:
            title = f"{get_game(run.game).title}: {' v '.join(run.bots)}"
            task = progress.add_task(title, total=total)
            return runner.play(run, jobs, backend, address, advance)
    except KeyboardInterrupt:
        errors.print(Text(ngettext(
            "Stopped after {played} of {n} game: nothing printed or saved.",
            "Stopped after {played} of {n} games: nothing printed or saved.",
            total).format(played=played, n=total)))
        raise typer.Exit(130) from None


def _print_results(result: dict[str, Any], as_json: bool, note: str = "") -> None:
    import json

    if as_json:
        sys.stdout.write(json.dumps(result) + "\n")
        return
    from rich.table import Table as RichTable

    rules = get_game(result["game"])
    games = result["games"]
    title = ngettext("{game}: {n} game, seed {seed}", "{game}: {n} games, seed {seed}",
                     games).format(game=rules.title, n=games, seed=result["seed"])
    if note:
        title = _("{title}, {note}").format(title=title, note=note)
    seconds = _("{seconds} s").format(seconds=_decimals(result["seconds"], 1))
    table = RichTable(title=_("{title}, {seconds}").format(title=title, seconds=seconds),
                      title_justify="left")
    for column, justify in ((pgettext("table heading", "Seat"), "left"),
                            (pgettext("table heading", "Bot"), "left"),
                            (pgettext("table heading", "Wins"), "right"),
                            (pgettext("table heading", "Win rate"), "right"),
                            # "95% i..." would read as a %i placeholder to gettext's tools
                            (pgettext("table heading", "{confidence} interval").format(
                                confidence="95%"), "right")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for index, seat in enumerate(result["seats"], start=1):
        low, high = seat["ci95"]
        table.add_row(str(index), seat["bot"], f"{seat['wins']:g}",
                      _percent(seat["win_rate"]), f"{_percent(low)} – {_percent(high)}")
    console.print(table)
    console.print(_("Mean deals per game: {deals}").format(
        deals=_decimals(result["mean_deals"], 2)))
    for key, value in result.items():  # the game's own rates (its virtual adapter's stats)
        if key.endswith("_rate") and isinstance(value, float):
            # the key is the game's (a JSON key of its virtual adapter): shown as it is
            shown = key.replace("_", " ").capitalize()
            console.print(_("{rate}: {value}").format(rate=shown, value=_percent(value)))


def _percent(fraction: float) -> str:
    """``37.5%`` (Danish ``37,5%``): one decimal, as the language writes it."""
    if i18n.active_language() == i18n.ENGLISH:
        return f"{fraction:.1%}"
    return i18n.format_percent(fraction, 1)


def _decimals(value: float, decimals: int) -> str:
    if i18n.active_language() == i18n.ENGLISH:
        return f"{value:.{decimals}f}"
    return i18n.format_number(value, decimals)


# The commands' help, marked for the catalog (a docstring is not extracted).
play.__doc__ = N_("Play a full game with a shuffled virtual deck: humans at one keyboard "
                  "and bots.")
replay.__doc__ = N_("Step through a saved virtual deal, card by card, every hand face up.")
simulate.__doc__ = N_("Bots against bots, many games, nothing saved: win rates with "
                      "intervals (95%).")  # not "95% i...": gettext would see a %i in it
