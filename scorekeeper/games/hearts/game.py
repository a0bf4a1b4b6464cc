"""Hearts' declaration: Points' (its declared base), with Hearts' table, house rules,
round options and words; no virtual deck."""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.games.hearts.words import N_, WORDS
from scorekeeper.games.points.game import GAME as POINTS
from scorekeeper.games.points.game import ROSTER
from scorekeeper.kit.options import HouseRuleOption, RoundOption

# The house rules' defaults and choices as plain values, the same as the rules' own
# (tests/test_house_rule_values.py compares them): every command reads this declaration,
# and importing the rules for them cost every command about a millisecond.
MOON_KEY, PASSING_KEY = "moon", "pass_direction"  # rules.MOON_KEY, rules.PASSING_KEY
TARGET = 100  # rules.TARGET
MOON_PLUS, MOON_ADD, MOON_MINUS = "plus", "add", "minus"  # rules.MOON_PLUS, rules.MoonRule
JACK_CHOICES = ("off", "on")  # rules.JackRule

_TABLE = "scorekeeper.games.hearts.table:HeartsTable"
"""The table, made on first use: the commands on another game's session never import it."""

GAME = replace(
    POINTS,
    table=_TABLE,
    name="hearts",
    title="Hearts",
    questions=_TABLE,
    roster=ROSTER,  # Points' rule, restated so that declaring Hearts does not load it
    house_rules=(
        HouseRuleOption("target", TARGET, N_("the game ends when a total reaches N "
                                             "(default 100); the lowest total wins.")),
        HouseRuleOption("moon_rule", MOON_PLUS,
                        N_("plus (default): a moon gives 26 to everyone else; minus: 26 off "
                           "the shooter's total."), (MOON_PLUS, MOON_MINUS),
                        # stored as add (FORMAT.md), said as the command line spells it
                        said=((MOON_ADD, f"moon-rule {MOON_PLUS}"),)),
        HouseRuleOption("jack_of_diamonds", JACK_CHOICES[0],
                        N_("on: the J♦ counts -10 for whoever takes it (default off)."),
                        JACK_CHOICES),
    ),
    round_options=(
        RoundOption(MOON_KEY, "name", N_("who shot the moon (took all 26): give no points.")),
        RoundOption("jack", "name", N_("in a moon deal with --jack-of-diamonds on, who took "
                                       "the J♦.")),
    ),
    round_usage="NAME=POINTS ... | --moon NAME [--jack NAME]",
    values_help=N_("each player's penalty points, adding up to 26 (Ann=13 Bob=5 Cy=8 "
                   "Dan=0)"),
    role_heading=N_("Best"),
    grid_legend=N_("* the deal's best or the moon's shooter   +score =running total"),
    csv_columns=(MOON_KEY, PASSING_KEY),
    checked_results=(MOON_KEY,),
    narrow_legend=(("*", N_("the deal's best or the moon's shooter")),),
    words=WORDS,
    description=N_("Hearts: each deal's 26 penalty points, or a shot moon; the lowest "
                   "total wins when someone reaches 100."),
    game_files=None,
    widest_round=f"{_TABLE}.widest_round",
    base="scorekeeper.games.points",
    entry_form="scorekeeper.games.hearts.entry:FORM",
)
