"""Points as the generic layers see it: the one object the registry lists. The group's
own games (TOML files in the config folder's ``games/``) are made from it (group.py)."""

from __future__ import annotations

from scorekeeper.games.points.words import N_, WORDS
from scorekeeper.kit.declaration import GameDeclaration
from scorekeeper.kit.options import HouseRuleOption

# The house rules' defaults and choices as plain values, the same as the rules' own
# (tests/test_house_rule_values.py compares them): every command reads this declaration,
# and importing the rules for them cost every command about a millisecond a game.
ANY_SUM, POINTS_KEY = "any", "points"  # rules.ANY_SUM, rules.POINTS_KEY
_HIGH, _LOW = "high", "low"  # rules.Wins
_TARGET = 100  # rules.DEFAULT_TARGET
_TABLE = "scorekeeper.games.points.table:PointsTable"
"""The table, made on first use: the commands on another game's session never import it."""
ROSTER = "scorekeeper.games.points.table:PointsRoster"

HOUSE_RULES = (
    HouseRuleOption("wins", _HIGH,
                    N_("high (default): the highest total wins; low: the lowest."),
                    (_HIGH, _LOW)),
    HouseRuleOption("target", _TARGET,
                    N_("the game ends when a total reaches N (default 100; 0: no target).")),
    HouseRuleOption("rounds", 0,
                    N_("the game ends after N deals (default 0: no limit).")),
    HouseRuleOption("sum", ANY_SUM, N_("every deal's points add up to N (default: any sum).")),
)

GAME = GameDeclaration(
    table=_TABLE,
    name="points",
    title="Points",
    questions=_TABLE,
    house_rules=HOUSE_RULES,
    round_options=(),
    round_usage="NAME=POINTS ...",
    value_word=N_("points"),
    values_help=N_("each player's points in the deal, negatives allowed (Ann=12 Bob=-3)"),
    role_heading=N_("Best"),
    grid_legend=N_("* the deal's best   +score =running total"),
    values_key=POINTS_KEY,
    value_column="points",
    csv_columns=(),
    narrow_legend=(("*", N_("the deal's best")),),
    words=WORDS,
    roster=ROSTER,
    description=N_("Any game scored in points per deal: the higher (or lower) total wins, "
                   "at a target or after a number of deals."),
    game_files="scorekeeper.games.points.group:group_games",
    entry_form="scorekeeper.games.points.entry:FORM",
)
