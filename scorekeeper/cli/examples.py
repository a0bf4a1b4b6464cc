"""The examples that end every ``--help`` page: one to three real command lines, each
under a sentence (in the language of the run) saying what it does.

The commands stay as they are typed; only their prose is translated. ``score new
GAME`` composes its examples from the game's own declaration (its first house rule),
so nothing here names a game's keys. tests/test_help_examples.py runs every one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorekeeper.cli import conventions
from scorekeeper.i18n import N_, _

Example = tuple[str, str]
"""What the example does (``N_``-marked), and the command line as typed."""

EXAMPLES: dict[str, Sequence[Example]] = {
    "": ((N_("Start a points night for three:"), "score new points -p Ann -p Bo -p Cy"),
         (N_("The help of one command:"), "score help add-round")),
    "new": ((N_("Start a points night for three:"), "score new points -p Ann -p Bo -p Cy"),
            (N_("A game's house rules:"), "score new hearts --help")),
    "sessions": ((N_("Every session, as on a phone:"), "score sessions --compact"),
                 (N_("The list for a script:"), "score sessions --json")),
    "use": ((N_("Make session 3 the current one:"), "score use 3"),),
    "show": ((N_("The current session:"), "score show"),
             (N_("Session 3, as on a phone:"), "score show 3 --compact")),
    "log": ((N_("Every change to session 3:"), "score log 3"),),
    "add-round": ((N_("A deal of points, one per player:"), "score add-round Ann=12 Bo=-3 Cy=0"),
                  (N_("The same, in session 3:"), "score add-round -s 3 Ann=2 Bo=5 Cy=1")),
    "edit-round": ((N_("Re-enter round 2's points:"), "score edit-round 2 Ann=10 Bo=0 Cy=4"),),
    "undo": ((N_("Take back the last round:"), "score undo"),),
    "redo": ((N_("Bring it back:"), "score redo"),),
    "add-player": ((N_("Di joins at the next deal:"), "score add-player Di"),
                   (N_("Ed joins with a total of 40:"), "score add-player Ed --total 40")),
    "drop-player": ((N_("Bo leaves after this deal:"), "score drop-player Bo"),),
    "export": ((N_("The current session as Markdown:"), "score export --format md"),
               (N_("Session 3 to a web page:"), "score export 3 -f html -o n.html")),
    "import": ((N_("Load a JSON export:"), "score import night.json"),
               (N_("Past deals from a CSV file:"), "score import d.csv --game points")),
    "doctor": ((N_("Check the whole store:"), "score doctor"),
               (N_("Bring back the newest good backup:"), "score doctor --restore")),
    "rules": ((N_("The rules of Hearts:"), "score rules hearts"),
              (N_("The same, in Danish:"), "score --lang da rules hearts")),
    "games": ((N_("Every game and its house rules:"), "score games"),),
    "stats": ((N_("Statistics over finished nights:"), "score stats"),
              (N_("Ann and Bo, head to head:"), "score stats -p Ann -p Bo --vs")),
    "players": ((N_("The people across sessions:"), "score players"),),
    "players rename": ((N_("Fix a spelling everywhere:"), "score players rename ann Ann"),),
    "players merge": ((N_("Make Annie and Ann one person:"),
                       "score players merge Annie Ann"),),
    "players undo": ((N_("Take back the last rename:"), "score players undo"),),
    "rematch": ((N_("Play the current session again:"), "score rematch"),
                (N_("Play session 3 again, named:"), "score rematch 3 --name Friday")),
    "config": ((N_("Every setting:"), "score config show"),),
    "config path": ((N_("Where the config file is:"), "score config path"),),
    "config show": ((N_("Every setting, for a script:"), "score config show --json"),),
    "config set": ((N_("Speak Danish by default:"), "score config set language da"),),
    "config unset": ((N_("Speak the system's language again:"),
                      "score config unset language"),),
    "delete": ((N_("Remove session 3:"), "score delete 3 --yes"),),
    "abandon": ((N_("Leave session 3 out of statistics:"), "score abandon 3"),
                (N_("Count it again:"), "score abandon 3 --undo")),
    "play": ((N_("You against two strong bots:"),
              "score play hearts -b strong -b strong"),
             (N_("Go on with virtual game 5:"), "score play --resume 5")),
    "replay": ((N_("Step through virtual game 5:"), "score replay 5"),
               (N_("From its third deal:"), "score replay 5 --round 3")),
    "simulate": ((N_("A strong bot against a greedy one, 100 games:"),
                  "score simulate yaniv -b strong -b greedy -n 100"),),
    "review": ((N_("Ann's choices in virtual game 5:"), "score review 5 -p Ann"),),
    "serve": ((N_("Live pages for every phone:"), "score serve"),
              (N_("Phones on the network enter deals:"),
               "score serve --entry --host 0.0.0.0")),
    "sync": ((N_("Share the history through a folder:"), "score sync ~/Sync/cards"),),
    "help": ((N_("The help of one command:"), "score help add-round"),
             (N_("The help of a subcommand:"), "score help players rename")),
}
"""Each command's examples, by its path after ``score`` (``players rename``)."""


LINE = 37
"""The longest line of an example: a phone's 45 columns, less the help page's indents
and a trailing ``\\``."""


def typed(line: str) -> str:
    """``line`` as a ``\\b`` paragraph, its line kept as written: a long one carried on
    over lines ending in ``\\``, as a shell takes it, broken between words only."""
    words = line.split()
    units: list[str] = []  # an option stays on the line of its value
    for word in words:
        if units and units[-1].startswith("-") and " " not in units[-1] \
                and not word.startswith("-"):
            units[-1] += " " + word
        else:
            units.append(word)
    lines = [""]
    for unit in units:
        if lines[-1].strip() and len(lines[-1]) + 1 + len(unit) > LINE:
            lines.append("  ")
        lines[-1] = f"{lines[-1]} {unit}" if lines[-1].strip() else lines[-1] + unit
    return "\b\n" + " \\\n".join("  " + each for each in lines)


def render(examples: Sequence[Example]) -> str:
    """The examples as the end of a help page, in the active language: each sentence a
    paragraph, each command a ``\\b`` paragraph that keeps its lines as written."""
    parts = [_("Examples:")]
    for prose, line in examples:
        parts += [_(prose), typed(line)]
    return "\n\n".join(parts)


def attach(command: Any, path: str) -> None:
    """Give ``command`` (found at ``path``) and its subcommands their examples as the
    epilog, composed in the language of each run (:func:`conventions.composed_help`)."""
    examples = EXAMPLES.get(path)
    if examples is not None and getattr(command, "epilog", None) is None:
        command.epilog = conventions.composed_help(lambda: render(examples))
    for name, sub in getattr(command, "commands", {}).items():
        attach(sub, f"{path} {name}".strip())


def of_game(declaration: Any) -> str:
    """``score new GAME``'s examples, composed from the game's declaration: a session of
    its fewest players, and one with its first house rule set otherwise than by default
    (a switch turned the other way, another named value, a number one more)."""
    fewest = max(int(declaration.table.min_players), 2)
    players = " ".join(f"-p {name}" for name in
                       ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")[:fewest])
    start = f"score new {declaration.name} {players}"
    examples: list[Example] = [(_("Start a session for {count}:").format(count=fewest), start)]
    if declaration.house_rules:
        rule = declaration.house_rules[0]
        if sorted(rule.choices) == ["off", "on"]:
            flag = rule.flag if str(rule.default) == "off" else f"--no-{rule.flag[2:]}"
        elif rule.choices:
            others = [c for c in rule.choices if c != str(rule.default)] or list(rule.choices)
            flag = f"{rule.flag} {others[0]}"
        else:
            number = int(rule.default)
            flag = f"{rule.flag} {number // 2 if number > 2 else number + 1}"
        examples.append((_("The same, one house rule changed:"),
                         f"{start} {flag}"))
    return render(examples)
